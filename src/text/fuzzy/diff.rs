//! Line diffs for the matcher: the lines two texts have in common, and
//! unified diffs of a block, numbered with the file's own line numbers.
//!
//! Line endings are not shown: `\r\n` reads as `\n`, because the agent reading
//! the diff compares text, and endings are handled by the matcher.

use std::hash::Hash;

use similar::{Algorithm, DiffOp, capture_diff_slices};

use crate::text::diff::unified_diff_numbered;

/// The lines a diff of `a` and `b` keeps, as (index in `a`, index in `b`),
/// in order: a patience diff's, unless a minimal diff keeps more. Patience
/// anchors on lines that occur once on each side, and a line that a typo
/// made unique on one side pairs with its look-alike on the other: the
/// caller's change then reads as lines removed and others written, and the
/// lines it rewrote carry the caller's spaces into the file. The change
/// that keeps the most lines is the one the caller made.
pub(crate) fn kept_pairs<T: Hash + Eq + Ord>(a: &[T], b: &[T]) -> Vec<(usize, usize)> {
    let patience = kept_by(Algorithm::Patience, a, b);
    if patience.len() == a.len().min(b.len()) {
        return patience;
    }
    let myers = kept_by(Algorithm::Myers, a, b);
    if myers.len() > patience.len() {
        myers
    } else {
        patience
    }
}

fn kept_by<T: Hash + Eq + Ord>(algorithm: Algorithm, a: &[T], b: &[T]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for op in capture_diff_slices(algorithm, a, b) {
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

/// The lines a diff keeps, read first by `fine` keys and then, between the
/// lines kept so, by `coarse` keys, as (index in `a`, index in `b`), in order.
/// Of lines alike by their coarse keys (`# note` and `#note`), the ones the
/// same by their fine keys are paired: a coarse diff alone may pair a line
/// with its look-alike and take the look-alike for the line changed.
pub(crate) fn kept_pairs_fine_first<T: Hash + Eq + Ord>(
    fine: (&[T], &[T]),
    coarse: (&[T], &[T]),
) -> Vec<(usize, usize)> {
    let (na, nb) = (fine.0.len(), fine.1.len());
    let mut out = Vec::new();
    let (mut a0, mut b0) = (0, 0);
    for (a, b) in kept_pairs(fine.0, fine.1).into_iter().chain([(na, nb)]) {
        let between = kept_pairs(&coarse.0[a0..a], &coarse.1[b0..b]);
        out.extend(between.into_iter().map(|(x, y)| (a0 + x, b0 + y)));
        if a < na {
            out.push((a, b));
        }
        (a0, b0) = (a + 1, b + 1);
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
    fn lines_the_same_pair_before_look_alikes() {
        // `b` and `B` are alike coarsely; the fine diff pairs `B` with `B`.
        let coarse_a = ["a", "b", "b", "c"];
        let coarse_b = ["a", "x", "b", "c"];
        let fine_a = ["a", "b", "B", "c"];
        let fine_b = ["a", "x", "B", "c"];
        assert_eq!(
            kept_pairs_fine_first((&fine_a, &fine_b), (&coarse_a, &coarse_b)),
            vec![(0, 0), (2, 2), (3, 3)]
        );
        // Lines only alike coarsely still pair between the fine ones.
        let fine_b = ["a", "B2", "c"];
        let coarse_b = ["a", "b", "c"];
        let fine_a = ["a", "B1", "c"];
        let coarse_a = ["a", "b", "c"];
        assert_eq!(
            kept_pairs_fine_first((&fine_a, &fine_b), (&coarse_a, &coarse_b)),
            vec![(0, 0), (1, 1), (2, 2)]
        );
    }

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
