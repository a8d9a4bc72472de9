//! Blank lines that differ in their whitespace (an empty line, a line of
//! spaces) keep their bytes and their places. Lines are compared by keys in
//! which every blank line is alike, so the caller's two texts were paired
//! blank for blank in whatever order a diff chose: a search that left out
//! one of two blank lines around a changed line had the file's empty line
//! and its line of spaces written swapped (pygments' stata_light.py, drift
//! bench).

#[path = "edit_outcome/mod.rs"]
mod edit_outcome;

use edit_outcome::{apply, intended_or_refused};
use proptest::prelude::*;

const STYLE: &str = "class StataLightStyle(Style):\n    \"\"\"\n    Light mode style inspired by Stata's do-file editor.\n    \"\"\"\n\n    name = 'stata-light'\n    \n    styles = {\n        Text:                  '#111111',\n        Whitespace:            '#bbbbbb',\n        Error:                 'bg:#e3d2d2 #a61717',\n    }\n";

#[test]
fn an_empty_line_and_a_line_of_spaces_are_not_swapped() {
    // The search leaves out the empty line before `name`; new_content has
    // it, and the line of spaces after `name`, as the file does.
    let search = "    \"\"\"\n    Light mode style inspired by Stata's do-file editor.\n    \"\"\"\n    name = 'stata-light'\n    \n    styles = {\n        Text:                  '#111111',\n";
    let new = "    \"\"\"\n    Light mode style inspired by Stata's do-file editor.\n    \"\"\"\n\n    name = 'stata-light_next'\n    \n    styles = {\n        Text:                  '#111111',\n";
    let want = STYLE.replace("'stata-light'", "'stata-light_next'");
    assert_eq!(apply(STYLE, search, new).unwrap(), want);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Whichever blank line the search leaves out, and whatever whitespace
    /// each blank line has, the edit of a line is the caller's or refused.
    #[test]
    fn blank_lines_keep_their_bytes_around_a_changed_line(
        blanks in prop::collection::vec(0usize..5, 6),
        // Not the last: a search without its trailing blank line is found
        // exactly, and new_content's blank line there is then the caller's.
        dropped in 0usize..5,
        changed in 0usize..6,
    ) {
        // Six statements, each followed by a blank line of 0-4 spaces.
        let mut lines: Vec<String> = Vec::new();
        for (k, b) in blanks.iter().enumerate() {
            lines.push(format!("    value_{k} = compute(item_{k}, limit)"));
            lines.push(" ".repeat(*b));
        }
        let file = format!("def run(items):\n{}\n    return done\n", lines.join("\n"));
        let statement = 2 * changed;
        let mut want_lines = lines.clone();
        want_lines[statement] = format!("{} + 1", lines[statement]);
        let want = format!("def run(items):\n{}\n    return done\n", want_lines.join("\n"));
        // The search drops one blank line; new_content keeps them all.
        let search: Vec<String> = lines
            .iter()
            .enumerate()
            .filter(|(k, _)| *k != 2 * dropped + 1)
            .map(|(_, l)| l.clone())
            .collect();
        let search = search.join("\n") + "\n";
        let new = want_lines.join("\n") + "\n";
        intended_or_refused(apply(&file, &search, &new), &want);
    }
}
