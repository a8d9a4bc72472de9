//! Line diffs for the matcher: the lines two texts have in common, and
//! unified diffs of a block, numbered with the file's own line numbers.
//!
//! Line endings are not shown: `\r\n` reads as `\n`, because the agent reading
//! the diff compares text, and endings are handled by the matcher.

use std::hash::Hash;

use similar::{Algorithm, DiffOp, capture_diff_slices};

use crate::text::diff::unified_diff_numbered;

/// The lines a diff of `a` and `b` keeps, as (index in `a`, index in `b`),
/// in order: as many as any diff keeps, and of the ways to keep that many,
/// the one whose lines move least (the sum of each kept pair's distance
/// between its two indices, counted from the top or from the bottom,
/// whichever is less).
///
/// The most lines kept is the change the caller made: patience anchors on
/// lines that occur once on each side, and a line that a typo made unique
/// on one side pairs with its look-alike on the other, so the caller's
/// change reads as lines removed and others written, and the lines it
/// rewrote carry the caller's spaces into the file. Of equal lines, which
/// one a diff keeps decides which bytes are written (`break;  ` kept, or
/// `break;  ` removed and the same line written two lines up): the line
/// that stays in place is the one the caller left alone. Inputs beyond
/// [`EXACT_CELLS`] take a patience diff, or a minimal one if it keeps more.
pub(crate) fn kept_pairs<T: Hash + Eq + Ord>(a: &[T], b: &[T]) -> Vec<(usize, usize)> {
    if (a.len() + 1).saturating_mul(b.len() + 1) <= EXACT_CELLS {
        return least_moved(a, b);
    }
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

/// The largest table (lines of `a` times lines of `b`) the exact diff
/// fills: about twelve bytes a cell, 12 MB at most, which callers' texts
/// of a thousand lines each stay within.
const EXACT_CELLS: usize = 1 << 20;

/// The longest common subsequence of `a` and `b` that moves its lines
/// least, by dynamic programming over suffixes.
fn least_moved<T: Eq>(a: &[T], b: &[T]) -> Vec<(usize, usize)> {
    let (n, m) = (a.len(), b.len());
    let w = m + 1;
    // A line is in place counted from the top or from the bottom: lines
    // the caller adds above the change move the lines below it only from
    // the top.
    let moves = |i: usize, j: usize| i.abs_diff(j).min((n - i).abs_diff(m - j));
    // (kept, moved) for a[i..] and b[j..]: more kept first, then less moved.
    let mut kept = vec![0u32; (n + 1) * w];
    let mut moved = vec![0u64; (n + 1) * w];
    let better = |x: (u32, u64), y: (u32, u64)| x.0 > y.0 || (x.0 == y.0 && x.1 < y.1);
    let paired = |kept: &[u32], moved: &[u64], i: usize, j: usize| {
        let k = (i + 1) * w + j + 1;
        (kept[k] + 1, moved[k] + moves(i, j) as u64)
    };
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            let mut best = (kept[(i + 1) * w + j], moved[(i + 1) * w + j]);
            let right = (kept[i * w + j + 1], moved[i * w + j + 1]);
            if better(right, best) {
                best = right;
            }
            if a[i] == b[j] {
                let both = paired(&kept, &moved, i, j);
                if better(both, best) {
                    best = both;
                }
            }
            kept[i * w + j] = best.0;
            moved[i * w + j] = best.1;
        }
    }
    let mut out = Vec::with_capacity(kept[0] as usize);
    let (mut i, mut j) = (0, 0);
    while i < n && j < m {
        let here = (kept[i * w + j], moved[i * w + j]);
        if a[i] == b[j] && paired(&kept, &moved, i, j) == here {
            out.push((i, j));
            (i, j) = (i + 1, j + 1);
        } else if (kept[(i + 1) * w + j], moved[(i + 1) * w + j]) == here {
            i += 1;
        } else {
            j += 1;
        }
    }
    out
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
/// with its look-alike and take the look-alike for the line changed. Fine
/// keys only choose among the coarse diff's readings: where pairing by them
/// first keeps fewer lines (a fine pair that crosses two coarse ones), the
/// coarse diff is the change the caller made.
pub(crate) fn kept_pairs_fine_first<T: Hash + Eq + Ord>(
    fine: (&[T], &[T]),
    coarse: (&[T], &[T]),
) -> Vec<(usize, usize)> {
    let first = fine_then_coarse(fine, coarse);
    let plain = kept_pairs(coarse.0, coarse.1);
    if plain.len() > first.len() {
        plain
    } else {
        first
    }
}

fn fine_then_coarse<T: Hash + Eq + Ord>(
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
        // A fine pair that crosses two coarse ones gives way to them.
        let fine_a = ["x", "w1", "x1"];
        let fine_b = ["y", "w2", "x"];
        let coarse_a = ["x", "w", "x"];
        let coarse_b = ["y", "w", "x"];
        assert_eq!(
            kept_pairs_fine_first((&fine_a, &fine_b), (&coarse_a, &coarse_b)),
            vec![(1, 1), (2, 2)]
        );
    }

    #[test]
    fn of_equal_lines_the_one_in_place_is_kept() {
        // `b` kept in place, not moved two lines up over the lines rewritten.
        let a = ["a", "c", "b", "x", "e"];
        let b = ["a", "c2", "b", "c", "e"];
        assert_eq!(kept_pairs(&a, &b), vec![(0, 0), (2, 2), (4, 4)]);
        // Still as many lines as any diff keeps.
        let a = ["x", "a", "b", "c", "y"];
        let b = ["a", "b", "c", "x", "y"];
        assert_eq!(kept_pairs(&a, &b), vec![(1, 0), (2, 1), (3, 2), (4, 4)]);
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
