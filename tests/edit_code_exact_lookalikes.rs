//! Exact searches among lines alike but for the spaces between their words.
//! edit_code reads lines by keys that ignore such spaces, and found by the
//! drift fuzzer on a test file of a Python parser: with `"#note text"` and
//! `"# note text"` next to each other, a change of the first was written as
//! a new line after it and the second line removed, though the search was
//! the file's text byte for byte. An exact search is the plain replacement.

#[path = "edit_outcome/mod.rs"]
mod edit_outcome;

use edit_outcome::apply;

const CASES: &str = "\
    @cases(
        (
            (Note(\"#\"), \"#\"),
            (Note(\"#note text\"), \"#note text\"),
            (Note(\"# note text\"), \"# note text\"),
        )
    )
    def test_valid(self, node, code):
        self.check(node, code)
";

#[test]
fn a_line_changed_beside_its_look_alike_is_the_line_changed() {
    let new = CASES.replacen("\"#note text\"),", "\"#note_next text\"),", 1);
    assert_eq!(apply(CASES, CASES, &new).unwrap(), new);
    // And the other way round: the second of the two changed.
    let new = CASES.replacen("\"# note text\"),", "\"# note_next text\"),", 1);
    assert_eq!(apply(CASES, CASES, &new).unwrap(), new);
}

/// A line of template `picks[0]`'s tokens, spaced as the rest of `picks`
/// say: between two words one or two spaces, next to a mark none, one or
/// two. Lines of one template have one key and many spellings.
fn line(picks: &[u8]) -> String {
    const TEMPLATES: [&[&str]; 3] = [
        &["(", "Note", "(", "\"", "#", "note", "text", "\"", ")", ","],
        &["x", "=", "f", "(", "a", ",", "b", ")"],
        &["#", "note", "text"],
    ];
    let tokens = TEMPLATES[picks[0] as usize % TEMPLATES.len()];
    let word = |t: &str| t.chars().all(char::is_alphanumeric);
    let mut out = String::from("    ");
    for (k, token) in tokens.iter().enumerate() {
        if k > 0 {
            let p = picks.get(k).copied().unwrap_or(0) as usize;
            out.push_str(if word(tokens[k - 1]) && word(token) {
                [" ", "  "][p % 2]
            } else {
                ["", " ", "  "][p % 3]
            });
        }
        out.push_str(token);
    }
    out
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig {
        cases: 400,
        failure_persistence: None,
        ..proptest::prelude::ProptestConfig::default()
    })]

    /// Property: an exact search (a unique first line, then lines of three
    /// templates, spaced in many ways) with
    /// new_content that changes, adds or removes one line writes exactly
    /// the file with the search replaced by new_content.
    #[test]
    fn an_exact_search_among_look_alikes_is_the_plain_replacement(
        lines in proptest::collection::vec(proptest::collection::vec(0u8..6, 1..11), 2..12),
        at in 0usize..100,
        change in 0u8..3,
    ) {
        let mut block: Vec<String> = vec!["def test_block():".to_string()];
        block.extend(lines.iter().map(|picks| line(picks)));
        let search: String = block.iter().map(|l| format!("{l}\n")).collect();
        let k = 1 + at % (block.len() - 1);
        let mut new_block = block.clone();
        match change {
            0 => new_block[k].push_str(" changed"),
            1 => new_block.insert(k, "    added = 1".to_string()),
            _ => {
                new_block.remove(k);
            }
        }
        let new: String = new_block.iter().map(|l| format!("{l}\n")).collect();
        let file = format!("import os\n\n{search}\ndef other():\n    pass\n");
        let want = file.replacen(&search, &new, 1);
        proptest::prop_assert_eq!(apply(&file, &search, &new).ok(), Some(want));
    }
}
