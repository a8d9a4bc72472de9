//! Which line of the search block is which line on disk.
//!
//! Non-blank lines are paired by a weighted longest-common-subsequence over
//! their canonical forms: pairs must keep their order, only lines at least half
//! similar may pair, and the pairing with the greatest total similarity wins.
//! Blank lines are then paired inside the gaps that their non-blank neighbours
//! delimit. The result says, for every search line, which disk line (or, for an
//! elision marker, which run of disk lines) it stands for.

use std::ops::Range;

use super::block::{Line, Lines};
use super::score::line_similarity;

/// Least similarity (0–1) for two lines to be paired.
const PAIRABLE: f64 = 0.5;
/// Above this many cells the pairing falls back to position order.
const MAX_CELLS: usize = 4_000_000;

/// What one search line stands for on disk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Target {
    /// File line (0-based index into the file's lines).
    Line(usize),
    /// An elision marker: the file lines it stands for (may be empty).
    Middle(Range<usize>),
    /// Nothing on disk.
    Absent,
}

/// Pairs search lines `search` with the file's non-blank lines `window`
/// (non-blank positions), then lets search lines left unpaired at either end
/// find their line just outside the window (within `limit`): a window framed a
/// little short must not leave the block's first or last line behind. Pairs
/// made inside the window never move, so a window never slides onto a
/// neighbouring, better-matching block. Returns `(search index, non-blank
/// position)` pairs.
pub(crate) fn pair_around(
    search: &[&Line<'_>],
    file: &Lines<'_>,
    window: Range<usize>,
    limit: Range<usize>,
) -> Vec<(usize, usize)> {
    // Lines just outside the window may pair only where they read exactly
    // like a search line that would otherwise pair with a lookalike inside
    // (a line the search left out shortened the window).
    // Only while the window keeps the place it found: every exact pair it
    // had, and at least one pair at all.
    let slack = super::candidates::SLACK;
    let wide =
        window.start.saturating_sub(slack).max(limit.start)..(window.end + slack).min(limit.end);
    let narrow = pair_lines(search, file, window.clone(), window.clone());
    let widened = pair_lines(search, file, wide, window);
    let keeps = |pair: &(usize, usize)| widened.contains(pair);
    let mut pairs = if narrow.iter().any(keeps)
        && narrow
            .iter()
            .filter(|&&(k, p)| search[k].same_as(file.nb(p)))
            .all(keeps)
    {
        widened
    } else {
        narrow
    };
    let reach = super::candidates::SLACK + 1;
    let pairable = |i: usize, p: usize| line_similarity(search[i], file.nb(p)) >= PAIRABLE;
    // Within reach, a line that reads exactly like the search line beats a
    // nearer lookalike (a line the search left out stands between).
    let pick = |i: usize, range: &mut dyn Iterator<Item = usize>| -> Option<usize> {
        let range: Vec<usize> = range.collect();
        range
            .iter()
            .copied()
            .find(|&q| search[i].same_as(file.nb(q)))
            .or_else(|| range.iter().copied().find(|&q| pairable(i, q)))
    };
    // Leading search lines, walking back from the first pair.
    if let Some(&(k, p)) = pairs.first() {
        let mut front = Vec::new();
        let mut at = p;
        for i in (0..k).rev() {
            let lo = at.saturating_sub(reach).max(limit.start);
            match pick(i, &mut (lo..at).rev()) {
                Some(q) => {
                    front.push((i, q));
                    at = q;
                }
                None => break,
            }
        }
        front.reverse();
        pairs.splice(0..0, front);
    }
    // Trailing search lines, walking on from the last pair.
    if let Some(&(k, p)) = pairs.last() {
        let mut at = p;
        for i in k + 1..search.len() {
            let hi = (at + 1 + reach).min(limit.end);
            match pick(i, &mut (at + 1..hi)) {
                Some(q) => {
                    pairs.push((i, q));
                    at = q;
                }
                None => break,
            }
        }
    }
    pairs
}

/// Pairs search lines `search` with the file's non-blank lines `window`
/// (non-blank positions), preferring pairs inside `preferred` on ties; a
/// line outside `preferred` pairs only with a search line it reads exactly
/// like. Returns `(search index, non-blank position)` pairs.
pub(crate) fn pair_lines(
    search: &[&Line<'_>],
    file: &Lines<'_>,
    window: Range<usize>,
    preferred: Range<usize>,
) -> Vec<(usize, usize)> {
    let n = search.len();
    let w = window.len();
    if n == 0 || w == 0 {
        return Vec::new();
    }
    if n * w > MAX_CELLS {
        return (0..n.min(w)).map(|k| (k, window.start + k)).collect();
    }
    // Lines far off the diagonal cannot pair: windows only ever differ from the
    // search by a few lines at either end.
    let band = n.abs_diff(w) + 2 * super::candidates::SLACK + 1;
    let cols = w + 1;
    let mut best = vec![0f64; (n + 1) * cols];
    let mut step = vec![0u8; (n + 1) * cols];
    for i in 1..=n {
        for j in 1..=w {
            let up = best[(i - 1) * cols + j];
            let left = best[i * cols + j - 1];
            let (mut value, mut from) = if up >= left { (up, 1) } else { (left, 2) };
            if i.abs_diff(j) <= band {
                let p = window.start + j - 1;
                let sim = line_similarity(search[i - 1], file.nb(p));
                if sim >= PAIRABLE && (sim >= 1.0 || preferred.contains(&p)) {
                    let sim = if preferred.contains(&p) {
                        sim + 1e-6
                    } else {
                        sim
                    };
                    let diag = best[(i - 1) * cols + j - 1] + sim;
                    if diag >= value {
                        value = diag;
                        from = 3;
                    }
                }
            }
            best[i * cols + j] = value;
            step[i * cols + j] = from;
        }
    }
    let mut pairs = Vec::new();
    let (mut i, mut j) = (n, w);
    while i > 0 && j > 0 {
        match step[i * cols + j] {
            3 => {
                pairs.push((i - 1, window.start + j - 1));
                i -= 1;
                j -= 1;
            }
            1 => i -= 1,
            _ => j -= 1,
        }
    }
    pairs.reverse();
    pairs
}

/// Turns pairs of non-blank lines into a target for every search line, pairing
/// blank lines inside the gaps. `search_nb` maps each paired search index to
/// its line index in `search`; `pairs` hold `(search line, file line)` indices.
pub(crate) fn targets(
    search: &Lines<'_>,
    file: &Lines<'_>,
    pairs: &[(usize, usize)],
) -> Vec<Target> {
    let mut out = vec![Target::Absent; search.len()];
    for &(s, f) in pairs {
        out[s] = Target::Line(f);
    }
    pair_blank_lines(search, file, &mut out);
    out
}

/// Pairs runs of blank search lines with blank disk lines in the same gap.
pub(crate) fn pair_blank_lines(search: &Lines<'_>, file: &Lines<'_>, out: &mut [Target]) {
    let n = search.len();
    let mut i = 0;
    while i < n {
        if !search.all[i].is_blank() || out[i] != Target::Absent {
            i += 1;
            continue;
        }
        let run_start = i;
        while i < n && search.all[i].is_blank() && out[i] == Target::Absent {
            i += 1;
        }
        let run = run_start..i;
        let before = run.start.checked_sub(1).map(|k| &out[k]);
        let after = out.get(run.end);
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
        match (before, after) {
            (Some(b), Some(a)) => {
                if let (Some(lo), Some(hi)) = (end_of(b), start_of(a)) {
                    let blanks = (lo..hi).filter(|&f| file.all[f].is_blank());
                    for (k, f) in run.clone().zip(blanks) {
                        out[k] = Target::Line(f);
                    }
                }
            }
            (None, Some(a)) => {
                if let Some(hi) = start_of(a) {
                    let blanks = (0..hi).rev().take_while(|&f| file.all[f].is_blank());
                    for (k, f) in run.clone().rev().zip(blanks) {
                        out[k] = Target::Line(f);
                    }
                }
            }
            (Some(b), None) => {
                if let Some(lo) = end_of(b) {
                    let blanks = (lo..file.len()).take_while(|&f| file.all[f].is_blank());
                    for (k, f) in run.clone().zip(blanks) {
                        out[k] = Target::Line(f);
                    }
                }
            }
            (None, None) => {}
        }
    }
}

/// First and last file lines covered by targets, if any.
pub(crate) fn region(targets: &[Target]) -> Option<(usize, usize)> {
    let mut lo = usize::MAX;
    let mut hi = 0;
    let mut any = false;
    for t in targets {
        match t {
            Target::Line(f) => {
                lo = lo.min(*f);
                hi = hi.max(*f);
                any = true;
            }
            Target::Middle(r) if !r.is_empty() => {
                lo = lo.min(r.start);
                hi = hi.max(r.end - 1);
                any = true;
            }
            _ => {}
        }
    }
    any.then_some((lo, hi))
}

/// How many paired lines break the relative indentation of the search block:
/// lines at the same depth in the search must be at the same depth on disk, and
/// deeper lines deeper. A first line without indentation is not judged (it is
/// usually a selection that began after the indent).
pub(crate) fn misindented(pairs: &[(&Line<'_>, &Line<'_>)]) -> usize {
    let judged: &[(&Line<'_>, &Line<'_>)] = match pairs.first() {
        Some((s, _)) if s.width == 0 && pairs.len() > 1 => &pairs[1..],
        _ => pairs,
    };
    let mut groups: Vec<(usize, Vec<usize>)> = Vec::new();
    for (s, d) in judged {
        match groups.iter_mut().find(|g| g.0 == s.width) {
            Some(g) => g.1.push(d.width),
            None => groups.push((s.width, vec![d.width])),
        }
    }
    groups.sort_by_key(|g| g.0);
    let mut bad = 0;
    let mut previous: Option<usize> = None;
    for (_, disk) in &groups {
        let mut counts: Vec<(usize, usize)> = Vec::new();
        for &w in disk {
            match counts.iter_mut().find(|c| c.0 == w) {
                Some(c) => c.1 += 1,
                None => counts.push((w, 1)),
            }
        }
        let (majority, count) = counts
            .iter()
            .copied()
            .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(&a.0)))
            .expect("group is not empty");
        if previous.is_some_and(|p| majority <= p) {
            bad += disk.len();
        } else {
            bad += disk.len() - count;
            previous = Some(majority);
        }
    }
    bad
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::lines::LineIndex;

    fn setup<'a>(file: &'a str, search: &'a str) -> (Lines<'a>, Lines<'a>) {
        let index = LineIndex::new(file);
        (Lines::of_text(file, &index), Lines::of_snippet(search))
    }

    #[test]
    fn pairs_skip_a_line_missing_from_the_search() {
        let (file, search) = setup(
            "fn a() {\n    one();\n    two();\n    three();\n}\n",
            "fn a() {\n    one();\n    three();\n}\n",
        );
        let s: Vec<_> = search.all.iter().collect();
        let pairs = pair_lines(&s, &file, 0..5, 0..5);
        assert_eq!(pairs, vec![(0, 0), (1, 1), (2, 3), (3, 4)]);
    }

    #[test]
    fn a_window_framed_short_still_pairs_the_line_just_outside() {
        let (file, search) = setup("a\nb\nadded\nc\nd\n", "a\nb\nc\n");
        let s: Vec<_> = search.all.iter().collect();
        assert_eq!(
            pair_around(&s, &file, 0..3, 0..5),
            vec![(0, 0), (1, 1), (2, 3)]
        );
        let (file, search) = setup("x\nhead()\nbody()\n", "head()\nbody()\n");
        let s: Vec<_> = search.all.iter().collect();
        assert_eq!(pair_around(&s, &file, 2..3, 0..3), vec![(0, 1), (1, 2)]);
    }

    #[test]
    fn a_window_does_not_slide_onto_a_better_neighbour() {
        let (file, search) = setup("call(a, 18);\ncall(a, 17);\n", "cal(a, 17);\n");
        let s: Vec<_> = search.all.iter().collect();
        assert_eq!(pair_around(&s, &file, 0..1, 0..2), vec![(0, 0)]);
    }

    #[test]
    fn blank_lines_pair_inside_their_gap() {
        let (file, search) = setup("a\n\nb\n\n\nc\n", "a\nb\n\nc\n");
        let pairs = [(0, 0), (1, 2), (3, 5)];
        let t = targets(&search, &file, &pairs);
        assert_eq!(
            t,
            vec![
                Target::Line(0),
                Target::Line(2),
                Target::Line(3),
                Target::Line(5)
            ]
        );
        assert_eq!(region(&t), Some((0, 5)));
    }

    #[test]
    fn relative_indentation_is_checked() {
        let (file, search) = setup("if a:\n    b()\n    c()\n", "if a:\n    b()\nc()\n");
        let pairs: Vec<_> = (0..3).map(|k| (&search.all[k], &file.all[k])).collect();
        assert_eq!(misindented(&pairs), 1);
        let (file, search) = setup("\tif a {\n\t\tb()\n\t}\n", "if a {\n    b()\n}\n");
        let pairs: Vec<_> = (0..3).map(|k| (&search.all[k], &file.all[k])).collect();
        assert_eq!(misindented(&pairs), 0);
    }
}
