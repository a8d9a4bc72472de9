//! Text drawings (boxes and arrows in doc comments) whose rows differ only in
//! the spaces inside them. Lines are compared by keys that drop those
//! spaces, so a row of one box reads like a row of another; where
//! `new_content` goes on past the search must still be found by the lines as
//! written, or the rows after the block are taken for lines the caller wrote
//! out and rewrote. Found by the drift bench on tokio's runtime docs: two
//! rows after the block were deleted.

#[path = "edit_outcome/mod.rs"]
mod edit_outcome;

use edit_outcome::{apply, intended_or_refused};
use proptest::prelude::*;

const DRAWING: &str = "\
//! ```text
//!    +----------------------------------+
//!    | Do you want work-stealing?       |
//!    +----------------------------------+
//!            | Yes              | No
//!            |                  |
//!            v                  |
//!      +-----------+            |
//!      | Threaded  |            |
//!      +-----------+            |
//!                               V
//!              +--------------------+
//!              | Do you need Send?  |
//!              +--------------------+
//!                    | Yes          | No
//!                    |              |
//!                    V              |
//!            +-------------+        |
//!            | Local       |        |
//!            +-------------+        |
//! ```
";

#[test]
fn rows_after_the_block_are_not_taken_for_rows_new_content_writes_out() {
    let lines: Vec<&str> = DRAWING.lines().collect();
    // The search shows the first question, a marker, and the last two rows
    // of the second box's edge and answers; new_content writes the hidden
    // rows out and changes the last one.
    let search = format!(
        "{}\n// ... existing code ...\n{}\n{}\n",
        lines[2], lines[13], lines[14]
    );
    let mut new: Vec<String> = lines[2..=14].iter().map(|l| l.to_string()).collect();
    new[12] = lines[14].replace("Yes", "Yes_next");
    let new = new.join("\n") + "\n";
    let want = DRAWING.replacen(lines[14], &lines[14].replace("Yes", "Yes_next"), 1);
    assert_eq!(apply(DRAWING, &search, &new).unwrap(), want);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Whatever the drawing's rows and whichever rows the search shows
    /// around a marker, the edit is the caller's or refused.
    #[test]
    fn an_edit_among_rows_alike_but_for_their_spaces_is_the_caller_s(
        pattern in prop::collection::vec(0usize..3, 3..6),
        spaces in prop::collection::vec((1usize..12, 1usize..12), 18),
        start in 0usize..4,
        len in 4usize..10,
    ) {
        // A few kinds of rows, repeated with other spaces each time, as the
        // boxes and arrows of a drawing are.
        let row = |kind: usize, (a, b): (usize, usize)| -> String {
            let (edge, mid) = match kind {
                0 => ('|', ' '),
                1 => ('+', '-'),
                _ => ('|', ' '),
            };
            let word = if kind == 2 { "Yes" } else { "" };
            format!(
                "//! {}{edge}{word}{}{edge}",
                " ".repeat(a),
                mid.to_string().repeat(b)
            )
        };
        let rows: Vec<(usize, (usize, usize))> = (0..spaces.len())
            .map(|k| (pattern[k % pattern.len()], spaces[k]))
            .collect();
        let lines: Vec<String> = rows.iter().map(|&(kind, sp)| row(kind, sp)).collect();
        let file = lines.join("\n") + "\n";
        let end = (start + len).min(lines.len() - 1);
        prop_assume!(end > start + 2);
        let search = format!(
            "{}\n// ... existing code ...\n{}\n",
            lines[start], lines[end]
        );
        let changed = format!("{} changed", lines[end]);
        let mut new: Vec<String> = lines[start..end].to_vec();
        new.push(changed.clone());
        let new = new.join("\n") + "\n";
        let mut want_lines = lines.clone();
        want_lines[end] = changed;
        let want = want_lines.join("\n") + "\n";
        intended_or_refused(apply(&file, &search, &new), &want);
    }
}
