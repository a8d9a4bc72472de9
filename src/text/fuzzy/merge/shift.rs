//! How far `new_content` is indented from the search as a whole, and keys
//! that carry each line's depth less that shift.

use super::super::diff::kept_pairs;
use super::super::rows::Row;
use super::MARKER_KEY;

/// How far theirs is shifted from the base as a whole: the commonest
/// difference in depth between lines the two have alike.
pub(super) fn shift_of(base: &[Row<'_>], theirs: &[Row<'_>], bk: &[&str], tk: &[&str]) -> isize {
    let mut counts: Vec<(isize, usize)> = Vec::new();
    for (b, t) in kept_pairs(bk, tk) {
        let (b, t) = (&base[b], &theirs[t]);
        if b.is_blank() {
            continue;
        }
        let d = t.width as isize - b.width as isize;
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

/// Keys with each line's depth (less `shift`) in front; blank lines and
/// markers as they are.
pub(super) fn deep_keys(rows: &[Row<'_>], plain: &[&str], shift: isize) -> Vec<String> {
    rows.iter()
        .zip(plain)
        .map(|(r, k)| {
            if r.is_blank() || *k == MARKER_KEY {
                k.to_string()
            } else {
                format!("{}\u{2}{k}", r.width as isize - shift)
            }
        })
        .collect()
}
