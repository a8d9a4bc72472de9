//! Line diffs for the matcher: the lines two texts have in common, and
//! unified diffs of a block, numbered with the file's own line numbers.
//!
//! Line endings are not shown: `\r\n` reads as `\n`, because the agent reading
//! the diff compares text, and endings are handled by the matcher.

use std::hash::Hash;

use similar::{Algorithm, DiffOp, capture_diff_slices};

use crate::text::diff::unified_diff_numbered;

/// The lines a patience diff of `a` and `b` keeps, as (index in `a`, index
/// in `b`), in order.
pub(crate) fn kept_pairs<T: Hash + Eq + Ord>(a: &[T], b: &[T]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for op in capture_diff_slices(Algorithm::Patience, a, b) {
        if let DiffOp::Equal {
            old_index,
            new_index,
            len,
        } = op
        {
            out.extend((0..len).map(|k| (old_index + k, new_index + k)));
        }
    }
    out
}

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
    unified_diff_numbered(&old, &new, labels, (old_first, new_first), 3)
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
