//! Unified diffs of a block, numbered with the file's own line numbers.
//!
//! Line endings are not shown: `\r\n` reads as `\n`, because the agent reading
//! the diff compares text, and endings are handled by the matcher.

use std::fmt::Write;

use similar::{ChangeTag, TextDiff};

/// A unified diff from `old` (whose first line is line `old_first`) to `new`
/// (first line `new_first`), with three lines of context. Empty when the two
/// are equal.
pub(crate) fn unified(
    old: &str,
    new: &str,
    labels: (&str, &str),
    old_first: usize,
    new_first: usize,
) -> String {
    let old = old.replace("\r\n", "\n");
    let new = new.replace("\r\n", "\n");
    if old == new {
        return String::new();
    }
    let diff = TextDiff::from_lines(&old, &new);
    let mut out = String::new();
    let _ = writeln!(out, "--- {}\n+++ {}", labels.0, labels.1);
    for group in diff.grouped_ops(3) {
        let (Some(first), Some(last)) = (group.first(), group.last()) else {
            continue;
        };
        let old_range = first.old_range().start..last.old_range().end;
        let new_range = first.new_range().start..last.new_range().end;
        let _ = writeln!(
            out,
            "@@ -{} +{} @@",
            hunk_range(old_first, old_range),
            hunk_range(new_first, new_range)
        );
        for op in &group {
            for change in diff.iter_changes(op) {
                let sign = match change.tag() {
                    ChangeTag::Equal => ' ',
                    ChangeTag::Delete => '-',
                    ChangeTag::Insert => '+',
                };
                out.push(sign);
                out.push_str(change.value());
                if change.missing_newline() {
                    out.push_str("\n\\ No newline at end of file\n");
                }
            }
        }
    }
    out
}

fn hunk_range(first: usize, range: std::ops::Range<usize>) -> String {
    let len = range.len();
    let start = first + range.start;
    match len {
        0 => format!("{},0", start.saturating_sub(1)),
        1 => format!("{start}"),
        _ => format!("{start},{len}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_hunks_with_file_lines() {
        let d = unified("a\nb\nc\n", "a\nB\nc\n", ("old", "new"), 10, 10);
        assert_eq!(d, "--- old\n+++ new\n@@ -10,3 +10,3 @@\n a\n-b\n+B\n c\n");
    }

    #[test]
    fn marks_a_missing_final_newline_and_ignores_endings() {
        assert_eq!(unified("a\r\n", "a\n", ("x", "y"), 1, 1), "");
        let d = unified("a\n", "a\nb", ("x", "y"), 1, 1);
        assert_eq!(
            d,
            "--- x\n+++ y\n@@ -1 +1,2 @@\n a\n+b\n\\ No newline at end of file\n"
        );
    }
}
