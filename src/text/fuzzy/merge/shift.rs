//! How far `new_content` is indented from the search as a whole, and keys
//! that carry each line's depth less that shift.

use super::super::diff::kept_pairs;
use super::super::rows::Row;
use super::MARKER_KEY;

/// How far theirs is shifted from the base as a whole: the commonest
/// difference in depth between lines the two have alike.
pub(super) fn shift_of(base: &[Row<'_>], theirs: &[Row<'_>], bk: &[&str], tk: &[&str]) -> isize {
    commonest(
        kept_pairs(bk, tk)
            .into_iter()
            .filter(|&(b, _)| !base[b].is_blank())
            .map(|(b, t)| theirs[t].width as isize - base[b].width as isize),
    )
}

/// The commonest of some differences in depth (the smaller on a tie), or 0.
pub(super) fn commonest(diffs: impl Iterator<Item = isize>) -> isize {
    let mut counts: Vec<(isize, usize)> = Vec::new();
    for d in diffs {
        match counts.iter_mut().find(|(x, _)| *x == d) {
            Some((_, c)) => *c += 1,
            None => counts.push((d, 1)),
        }
    }
    counts
        .into_iter()
        .max_by(|a, b| a.1.cmp(&b.1).then(b.0.abs().cmp(&a.0.abs())))
        .map_or(0, |(d, _)| d)
}

/// A line's key with its depth in front; a blank line's key as it is.
pub(super) fn deep_key(row: &Row<'_>, key: &str, depth: isize) -> String {
    if row.is_blank() {
        String::new()
    } else {
        format!("{depth}\u{2}{key}")
    }
}

/// Keys with each line's depth (less `shift`) in front; blank lines and
/// markers as they are.
pub(super) fn deep_keys(rows: &[Row<'_>], plain: &[&str], shift: isize) -> Vec<String> {
    rows.iter()
        .zip(plain)
        .map(|(r, k)| {
            if *k == MARKER_KEY {
                k.to_string()
            } else {
                deep_key(r, k, r.width as isize - shift)
            }
        })
        .collect()
}
