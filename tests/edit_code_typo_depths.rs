//! A typo in a line the caller keeps never changes how deep a written line
//! goes. A typo that takes a line's first character (`f = 0.5` shown as
//! ` = 0.5`) makes the line read one column deeper; taken for the caller's
//! frame, that column shifted the line the caller added after it one
//! column less deep than the file's lines. Found by the drift bench (seed
//! 7, held out) on a Python test method. Each test checks exact bytes, or
//! that the file is written exactly as intended or not at all.

#[path = "edit_outcome/mod.rs"]
mod edit_outcome;

use edit_outcome::{apply, intended_or_refused};
use proptest::prelude::*;

#[test]
fn a_line_added_after_one_whose_first_letter_is_gone_keeps_the_files_depth() {
    let file = "class TestLazy:\n    def test_int(self):\n        b = 3\n        lz = Lazy(lambda: b)\n\n    def test_float(self):\n        f = 0.503\n        lz = Lazy(lambda: f)\n        self.assertEqual(str(lz), str(f))\n";
    let search = "    def test_float(self):\n         = 0.503\n";
    let new = "    def test_float(self):\n         = 0.503\n        # checked again below\n";
    assert_eq!(
        apply(file, search, new).unwrap(),
        file.replace("f = 0.503\n", "f = 0.503\n        # checked again below\n")
    );
}

/// A typo in `line`'s text at `at` (0 = its first character): `kind` 0
/// takes the character, 1 doubles it, 2 swaps it with the next, 3 puts
/// `letter` for it. Whitespace is never added or taken.
fn typo(line: &str, at: usize, kind: u8, letter: char) -> String {
    let indent = line.len() - line.trim_start().len();
    let text: Vec<char> = line[indent..].chars().collect();
    let at = at % text.len();
    let mut out = text.clone();
    match kind {
        0 if text[at] != ' ' => {
            out.remove(at);
        }
        1 if text[at] != ' ' => out.insert(at, text[at]),
        2 if at + 1 < text.len() && text[at] != ' ' && text[at + 1] != ' ' => out.swap(at, at + 1),
        _ if text[at] != ' ' && text[at] != letter => out[at] = letter,
        _ => out.insert(at, letter),
    }
    format!("{}{}", &line[..indent], out.into_iter().collect::<String>())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// A method whose body has short assignments (`f = compute_0(v)`) at
    /// 8–16 columns; the search is the method's header and the first of its
    /// body lines, with a typo in one body line the caller keeps, anywhere
    /// in its first characters; the caller adds a line after one of the
    /// lines shown. The line goes in
    /// at the body's depth, or nothing is changed.
    #[test]
    fn a_typo_in_a_kept_line_never_moves_an_added_line(
        names in proptest::collection::vec("[a-z]{1,3}", 3..8),
        depth in 1usize..4,
        typo_line in 0usize..8,
        at in 0usize..6,
        kind in 0u8..4,
        letter in proptest::char::range('a', 'z'),
        after in 0usize..8,
        shown in 0usize..8,
    ) {
        let pad = " ".repeat(4 * depth);
        let body: Vec<String> = names
            .iter()
            .enumerate()
            .map(|(i, n)| format!("{pad}    {n} = compute_{i}(v)"))
            .collect();
        let header = format!("{pad}def method(self, v):");
        let mut lines = vec![header.clone()];
        lines.extend(body.iter().cloned());
        let file_block = lines.join("\n") + "\n";
        let file = format!("{pad}def other(self):\n{pad}    return 0\n\n{file_block}{pad}    return v\n");
        // The search: the header and the first `shown` body lines, so that
        // the line with the typo may be the only body line it shows.
        let shown = 1 + shown % body.len();
        let t = typo_line % shown;
        let mut search_lines = lines[..=shown].to_vec();
        search_lines[1 + t] = typo(&body[t], at, kind, letter);
        prop_assume!(search_lines[1 + t] != body[t]);
        let after = after % shown;
        let added = format!("{pad}    checked_{after} = True");
        let mut new_lines = search_lines.clone();
        new_lines.insert(2 + after, added.clone());
        let mut want_lines = lines.clone();
        want_lines.insert(2 + after, added);
        let want = format!(
            "{pad}def other(self):\n{pad}    return 0\n\n{}\n{pad}    return v\n",
            want_lines.join("\n")
        );
        let search = search_lines.join("\n") + "\n";
        let new = new_lines.join("\n") + "\n";
        intended_or_refused(apply(&file, &search, &new), &want);
    }
}
