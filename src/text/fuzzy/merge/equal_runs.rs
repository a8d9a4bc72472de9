//! Which of a run of equal base lines the caller's diff kept. A line diff
//! keeps the first of equal lines; the merge takes the kept ones to be those
//! the file has, so that a line the caller drops is first one the file lacks.

use super::Ours;

/// Where the caller's diff keeps some lines of a run of equal base lines
/// (blank lines, say; by fine keys, so that lines alike but for their
/// spaces are not equal) and drops others, which of them it kept is arbitrary:
/// the kept ones are taken to be those the file has, so that the lines the
/// caller drops are first the ones that are not there.
pub(super) fn prefer_present(
    bk: &[String],
    ours: &[Ours],
    theirs_of: &mut [Option<usize>],
    base_of: &mut [Option<usize>],
) {
    let mut start = 0;
    while start < bk.len() {
        let mut end = start + 1;
        while end < bk.len() && bk[end] == bk[start] {
            end += 1;
        }
        let kept: Vec<usize> = (start..end).filter_map(|s| theirs_of[s]).collect();
        if !kept.is_empty() && kept.len() < end - start {
            let present: Vec<usize> = (start..end).filter(|&s| ours[s] != Ours::Missing).collect();
            let absent: Vec<usize> = (start..end).filter(|&s| ours[s] == Ours::Missing).collect();
            let mut chosen: Vec<usize> =
                present.into_iter().chain(absent).take(kept.len()).collect();
            chosen.sort_unstable();
            theirs_of[start..end].fill(None);
            for (s, t) in chosen.into_iter().zip(kept) {
                theirs_of[s] = Some(t);
                base_of[t] = Some(s);
            }
        }
        start = end;
    }
}

/// Where the caller's diff keeps a base line the file lacks and could as
/// well keep an equal line the file has (no kept line lies between them),
/// the kept one is taken to be the one the file has: a diff keeps the first
/// of equal lines, and a blank line the search has at its edge and the file
/// lacks would otherwise read the file's blank line further on as dropped.
pub(super) fn slide_to_present(
    bk: &[String],
    ours: &[Ours],
    theirs_of: &mut [Option<usize>],
    base_of: &mut [Option<usize>],
) {
    let kept: Vec<usize> = (0..bk.len()).filter(|&s| theirs_of[s].is_some()).collect();
    for (k, &s) in kept.iter().enumerate() {
        if ours[s] != Ours::Missing {
            continue;
        }
        let lo = if k == 0 { 0 } else { kept[k - 1] + 1 };
        let hi = kept.get(k + 1).copied().unwrap_or(bk.len());
        let to = (lo..hi)
            .filter(|&o| o != s && bk[o] == bk[s] && ours[o] != Ours::Missing)
            .min_by_key(|&o| o.abs_diff(s));
        if let Some(o) = to {
            let t = theirs_of[s].take();
            theirs_of[o] = t;
            if let Some(t) = t {
                base_of[t] = Some(o);
            }
        }
    }
}
