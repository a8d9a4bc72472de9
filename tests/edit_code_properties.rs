//! Properties of the edit_code matcher over random texts.

use mcp_server_text::text::fuzzy::{
    EditRequest, MatchKind, Refusal, Strategy as EditStrategy, plan_edit,
};
use proptest::prelude::*;

fn line() -> impl Strategy<Value = String> {
    "[ \t]{0,3}[a-z(){};=]{0,8}( [a-z0-9]{1,5}){0,3}[ ]{0,2}"
}

fn lines(min: usize, max: usize) -> impl Strategy<Value = Vec<(String, bool)>> {
    prop::collection::vec((line(), any::<bool>()), min..max)
}

/// Joins lines, each ending in CRLF when its flag is set, LF otherwise; the
/// last one without ending when `final_newline` is false.
fn join(lines: &[(String, bool)], final_newline: bool) -> String {
    let mut out = String::new();
    for (k, (l, crlf)) in lines.iter().enumerate() {
        out.push_str(l);
        if k + 1 < lines.len() || final_newline {
            out.push_str(if *crlf { "\r\n" } else { "\n" });
        }
    }
    out
}

/// Occurrences of `needle` in `hay`, overlapping ones too, reading CRLF as LF
/// (the matcher's notion of an exact occurrence).
fn occurrences(hay: &str, needle: &str) -> usize {
    let hay = hay.replace("\r\n", "\n");
    let needle = needle.replace("\r\n", "\n");
    (0..hay.len())
        .filter(|&i| hay[i..].starts_with(needle.as_str()))
        .count()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// An exact match changes nothing outside its splice, and the splice lies
    /// within the matched lines.
    #[test]
    fn exact_edits_touch_nothing_outside_the_match(
        file in lines(3, 30),
        start in 0usize..30,
        len in 1usize..5,
        new in "[a-z \n]{0,20}",
        final_newline in any::<bool>(),
    ) {
        // An empty last line without an ending is no line at all.
        prop_assume!(final_newline || !file[file.len() - 1].0.is_empty());
        let text = join(&file, final_newline);
        let start = start % file.len();
        let end = (start + len).min(file.len());
        let search = join(&file[start..end], end < file.len() || final_newline);
        prop_assume!(!search.trim().is_empty());
        prop_assume!(occurrences(&text, &search) == 1);
        let plan = plan_edit(&text, &EditRequest::new(&search, &new)).unwrap();
        prop_assert_eq!(plan.edits.len(), 1);
        let edit = &plan.edits[0];
        prop_assert_eq!(edit.kind, MatchKind::Exact);
        prop_assert_eq!((edit.lines.start, edit.lines.end), (start + 1, end));
        let out = plan.apply_to(&text);
        let range = edit.splice.range.clone();
        prop_assert_eq!(&out[..range.start], &text[..range.start]);
        prop_assert_eq!(&out[out.len() - (text.len() - range.end)..], &text[range.end..]);
    }

    /// Two copies of a block make a single-match edit ambiguous.
    #[test]
    fn a_duplicated_block_is_refused(
        file in lines(2, 20),
        start in 0usize..20,
        len in 1usize..4,
        at in 0usize..20,
    ) {
        let start = start % file.len();
        let end = (start + len).min(file.len());
        let block = file[start..end].to_vec();
        prop_assume!(block.iter().any(|(l, _)| !l.trim().is_empty()));
        let mut doubled = file.clone();
        let at = at % (doubled.len() + 1);
        // Not inside the original, which would split it.
        let at = if at > start && at < end { end } else { at };
        for (k, l) in block.iter().enumerate() {
            doubled.insert(at + k, l.clone());
        }
        let text = join(&doubled, true);
        let search = join(&block, true);
        let err = plan_edit(&text, &EditRequest::new(&search, "x")).unwrap_err();
        prop_assert!(matches!(err, Refusal::Ambiguous { .. }), "{err:?}");
    }

    /// Sending a block back unchanged, however it drifted, leaves the file's
    /// bytes exactly as they were.
    #[test]
    fn an_unchanged_block_keeps_every_byte(
        before in lines(0, 15),
        block in lines(1, 8),
        after in lines(0, 15),
        shift in 0usize..6,
        strip in any::<bool>(),
        final_newline in any::<bool>(),
    ) {
        let mut block = block;
        block[0].0 = format!("{}uniquemarker {}", block[0].0, block.len());
        let file: Vec<(String, bool)> = before.iter().chain(&block).chain(&after).cloned().collect();
        let text = join(&file, final_newline);
        let search: Vec<String> = block
            .iter()
            .map(|(l, _)| {
                let l = if strip { l.trim_end().to_string() } else { l.clone() };
                if l.trim().is_empty() { l } else { format!("{}{l}", " ".repeat(shift)) }
            })
            .collect();
        let search = search.join("\n");
        let plan = plan_edit(&text, &EditRequest::new(&search, &search)).unwrap();
        prop_assert_eq!(plan.apply_to(&text), text);
    }

    /// Replacing all occurrences of a word behaves like `str::replace`.
    #[test]
    fn replace_all_of_a_word_is_like_str_replace(
        file in lines(1, 30),
        at in 0usize..1000,
        len in 1usize..4,
        new in "[A-Z]{0,4}",
        final_newline in any::<bool>(),
    ) {
        let text = join(&file, final_newline);
        let starts: Vec<usize> = text.char_indices().filter(|(_, c)| c.is_ascii_lowercase()).map(|(i, _)| i).collect();
        prop_assume!(!starts.is_empty());
        let from = starts[at % starts.len()];
        let word: String = text[from..].chars().take_while(char::is_ascii_lowercase).take(len).collect();
        let request = EditRequest::new(&word, &new).with_strategy(EditStrategy::ReplaceAll);
        let plan = plan_edit(&text, &request).unwrap();
        let mut last_end = 0;
        for s in plan.splices() {
            prop_assert!(s.range.start >= last_end);
            last_end = s.range.end;
        }
        prop_assert_eq!(plan.apply_to(&text), text.replace(word.as_str(), &new));
    }

    /// Changing the first line of a drifted block rewrites that line only,
    /// in the file's indentation and with its own ending.
    #[test]
    fn a_drifted_edit_changes_only_the_changed_line(
        before in lines(0, 10),
        block in lines(2, 8),
        after in lines(0, 10),
        shift in 1usize..6,
        final_newline in any::<bool>(),
    ) {
        let mut block = block;
        block[0].0 = format!("\t  uniquemarker {}", block.len());
        let file: Vec<(String, bool)> = before.iter().chain(&block).chain(&after).cloned().collect();
        let text = join(&file, final_newline);
        // Shifted right, tabs as spaces: the block's shape is kept.
        let drifted: Vec<String> = block
            .iter()
            .map(|(l, _)| {
                if l.trim().is_empty() {
                    return String::new();
                }
                let body = l.trim_start_matches([' ', '\t']);
                let width = l[..l.len() - body.len()]
                    .chars()
                    .fold(0, |col, c| if c == '\t' { (col / 4 + 1) * 4 } else { col + 1 });
                format!("{}{body}", " ".repeat(shift + width))
            })
            .collect();
        let search = drifted.join("\n");
        let mut changed = drifted.clone();
        let pad = drifted[0].len() - drifted[0].trim_start().len();
        changed[0] = format!("{}replaced line", " ".repeat(pad));
        let plan = plan_edit(&text, &EditRequest::new(&search, &changed.join("\n"))).unwrap();
        let mut want = file.clone();
        want[before.len()].0 = "\t  replaced line".to_string();
        prop_assert_eq!(plan.apply_to(&text), join(&want, final_newline));
    }
}
