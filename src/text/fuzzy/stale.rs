//! Search lines the caller remembers differently from the file, where
//! `new_content` shows that it knows the file's version.
//!
//! An agent's memory of a line can be out of date (someone changed it since)
//! or simply wrong (a misremembered name). When `new_content` has that line
//! exactly as the disk has it now, the edit the caller wants is clear: the
//! result is what `new_content` says, whichever version the search had. So:
//!
//! - such a line is no evidence against the match (the typo and "copied from
//!   elsewhere" vetoes leave it alone);
//! - a search line that paired with nothing on disk is paired with the disk
//!   line standing in its place when `new_content` has that disk line;
//! - a block that misses the threshold only because of such lines is matched
//!   again with the lines as `new_content` has them.

use super::align::Target;
use super::anchors::search_to_new;
use super::block::{Line, Lines};

/// Whether `new` has a line that reads like `disk`.
pub(crate) fn new_has(new: &Lines<'_>, disk: &Line<'_>) -> bool {
    new.all.iter().any(|n| n.same_as(disk))
}

/// Whether `new` shows that the search line `search` is the caller's stale
/// memory of the disk line `disk`: it has the disk's version and not the
/// search's. A `new_content` holding both knows them as two lines, so the
/// search line stands for something else (a line elsewhere, or one of a
/// run of look-alikes), and the pairing is no memory slip.
pub(crate) fn new_corrects(new: &Lines<'_>, search: &Line<'_>, disk: &Line<'_>) -> bool {
    new_has(new, disk) && !new_has(new, search)
}

/// Pairs runs of search lines that matched nothing with the disk lines
/// between their neighbours, when those disk lines are as many, unknown to
/// the search, and each found in `new` as it is.
pub(crate) fn retarget(
    search: &Lines<'_>,
    new: &Lines<'_>,
    file: &Lines<'_>,
    targets: &mut [Target],
) {
    let end_of = |t: &Target| match t {
        Target::Line(f) => Some(f + 1),
        Target::Middle(r) => Some(r.end),
        Target::Absent => None,
    };
    let start_of = |t: &Target| match t {
        Target::Line(f) => Some(*f),
        Target::Middle(r) => Some(r.start),
        Target::Absent => None,
    };
    let n = search.len();
    let mut i = 0;
    while i < n {
        if targets[i] != Target::Absent || search.all[i].is_blank() {
            i += 1;
            continue;
        }
        let run_start = i;
        while i < n && targets[i] == Target::Absent {
            i += 1;
        }
        let run: Vec<usize> = (run_start..i)
            .filter(|&k| !search.all[k].is_blank())
            .collect();
        let lo = targets[..run_start].iter().rev().find_map(end_of);
        let hi = targets[i..].iter().find_map(start_of);
        let (Some(lo), Some(hi)) = (lo, hi) else {
            continue;
        };
        let standing: Vec<usize> = (lo..hi).filter(|&f| !file.all[f].is_blank()).collect();
        let known = |f: usize| search.all.iter().any(|s| s.same_as(&file.all[f]));
        if standing.len() == run.len()
            && standing
                .iter()
                .all(|&f| !known(f) && new_has(new, &file.all[f]))
        {
            for (k, f) in run.into_iter().zip(standing) {
                targets[k] = Target::Line(f);
            }
        }
    }
}

/// The search with every line that `new` rewrites into a line of the file's
/// lines `region` replaced by that line, or `None` if there is none.
pub(crate) fn as_new_has_it(
    search: &Lines<'_>,
    new: &Lines<'_>,
    file: &Lines<'_>,
    region: std::ops::Range<usize>,
) -> Option<String> {
    let partners = search_to_new(search, new);
    let in_region = |line: &Line<'_>| region.clone().any(|f| file.all[f].same_as(line));
    let mut changed = false;
    let mut out = String::new();
    for (i, line) in search.all.iter().enumerate() {
        let replacement = partners[i]
            .map(|j| &new.all[j])
            .filter(|n| !n.same_as(line) && in_region(n) && !in_region(line));
        match replacement {
            Some(n) => {
                out.push_str(n.raw);
                changed = true;
            }
            None => out.push_str(line.raw),
        }
        out.push_str(line.eol.as_str());
    }
    changed.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::lines::LineIndex;

    #[test]
    fn a_stale_line_pairs_with_the_line_new_content_has() {
        let text = "a\nnew name\nb\n";
        let index = LineIndex::new(text);
        let file = Lines::of_text(text, &index);
        let search = Lines::of_snippet("a\nold\nb\n");
        let new = Lines::of_snippet("a2\nnew name\nb\n");
        let mut targets = vec![Target::Line(0), Target::Absent, Target::Line(2)];
        retarget(&search, &new, &file, &mut targets);
        assert_eq!(targets[1], Target::Line(1));
        // Without new_content's word for it, nothing is paired.
        let new = Lines::of_snippet("a2\nsomething\nb\n");
        let mut targets = vec![Target::Line(0), Target::Absent, Target::Line(2)];
        retarget(&search, &new, &file, &mut targets);
        assert_eq!(targets[1], Target::Absent);
    }

    #[test]
    fn the_search_is_rewritten_as_new_content_has_the_file() {
        let text = "x = 1\ny = compute(a)\nz = 3\n";
        let index = LineIndex::new(text);
        let file = Lines::of_text(text, &index);
        let search = Lines::of_snippet("x = 1\ny = old(b)\nz = 3\n");
        let new = Lines::of_snippet("x = 10\ny = compute(a)\nz = 3\n");
        assert_eq!(
            as_new_has_it(&search, &new, &file, 0..3).as_deref(),
            Some("x = 1\ny = compute(a)\nz = 3\n")
        );
        assert_eq!(as_new_has_it(&search, &search, &file, 0..3), None);
    }
}
