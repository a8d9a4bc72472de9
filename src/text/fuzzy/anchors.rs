//! Which line of `new_content` is which line of the search: the caller's
//! change, line by line.
//!
//! Non-blank lines are compared in canonical form (see
//! [`crate::text::fuzzy::normalize`]), so a line `new_content` copies with
//! other whitespace or quotes than the search is still the same line; blank
//! lines are left to [`crate::text::fuzzy::gaps`]. Lines equal in both are
//! paired by a diff; inside each run the diff replaces, lines are paired
//! again by similarity (a line and its rewrite).
//!
//! An elision marker `new_content` keeps stands for its disk lines as they
//! are. One that `new_content` drops is opened up: the disk lines it stands
//! for take its place, and must then each turn up in `new_content` (as they
//! are or rewritten), or they would be deleted unseen. A stretch the search
//! skipped without a marker is opened up the same way.

use std::ops::Range;

use similar::{Algorithm, DiffOp, capture_diff_slices};

use super::align::Target;
use super::apply::Transplant;
use super::block::{Line, Lines};
use super::score::line_similarity;

/// Least similarity (0–1) for a line to count as a rewrite of another.
pub(crate) const REWRITE: f64 = 0.5;

/// A non-blank line on the search side of the change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Old {
    /// Search line `i`.
    Search(usize),
    /// File line `line`, hidden behind the marker on search line `by` (or
    /// skipped after search line `by`), which stood for the file lines
    /// `stretch`.
    Hidden {
        line: usize,
        by: usize,
        stretch: Range<usize>,
        /// Whether a marker stood for it (else the search skipped it).
        marker: bool,
    },
    /// The marker on search line `i`, kept by `new_content`.
    Marker(usize),
    /// File line `line`, which the search does not have but `new_content`
    /// does: the caller knows it, and it is kept where it is.
    Unseen(usize),
}

/// Gaps of search blank lines that file lines the search did not show split,
/// and the search blank lines they held.
struct BlankGroup {
    gaps: Range<usize>,
    blanks: Vec<usize>,
}

/// Diff key of a line: elision markers compare equal to each other.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Key<'a> {
    Marker,
    Text(&'a str),
}

/// Both sides of the change and how their lines pair.
pub(crate) struct Alignment {
    /// The search side, in order.
    pub olds: Vec<Old>,
    /// Search blank lines before `olds[k]`; the last entry holds those after
    /// every old line.
    pub old_gaps: Vec<Vec<usize>>,
    /// The non-blank lines of `new_content`.
    pub news: Vec<usize>,
    /// Blank lines of `new_content` before `news[k]`; the last entry holds
    /// those after every line.
    pub new_gaps: Vec<Vec<usize>>,
    /// The diff of `olds` to `news`.
    pub ops: Vec<DiffOp>,
    /// For each old line, the new line it is paired with.
    pub partner_of_old: Vec<Option<usize>>,
    /// For each new line, the old line it is paired with.
    pub partner_of_new: Vec<Option<usize>>,
    /// Search blank lines placed anew (see `place_blanks`): the disk blank
    /// line each stands for, or `None` for none.
    pub blank_at: Vec<(usize, Option<usize>)>,
}

impl Alignment {
    /// The disk line search blank line `i` stands for, where it was placed
    /// anew; `None` to follow its target.
    pub(crate) fn placed_blank(&self, i: usize) -> Option<Option<usize>> {
        self.blank_at
            .iter()
            .find(|(b, _)| *b == i)
            .map(|(_, at)| *at)
    }
}

impl Transplant<'_, '_, '_, '_> {
    fn key<'x>(&self, line: &'x Line<'_>) -> Key<'x> {
        if self.elision && self.markers.is_marker(line) {
            Key::Marker
        } else {
            Key::Text(&line.canon)
        }
    }

    /// The line an old line reads as.
    pub(crate) fn old_line(&self, old: &Old) -> &Line<'_> {
        match old {
            Old::Search(i) | Old::Marker(i) => &self.search.all[*i],
            Old::Hidden { line, .. } | Old::Unseen(line) => &self.file.all[*line],
        }
    }

    /// The file lines an old line stands for; `None` when it stands for
    /// nothing on disk.
    pub(crate) fn span_of(&self, old: &Old) -> Option<Range<usize>> {
        match old {
            Old::Search(i) | Old::Marker(i) => match &self.targets[*i] {
                Target::Line(f) => Some(*f..*f + 1),
                Target::Middle(r) => Some(r.clone()),
                Target::Absent => None,
            },
            Old::Hidden { line, .. } | Old::Unseen(line) => Some(*line..*line + 1),
        }
    }

    /// File lines of the block that no search line stands for and that
    /// `new_content` has as they are (while the search has no such line).
    fn unseen_in_new(&self, olds: &[Old]) -> Vec<usize> {
        let covered: Vec<std::ops::Range<usize>> =
            olds.iter().filter_map(|o| self.span_of(o)).collect();
        (self.region.0..=self.region.1)
            .filter(|&f| {
                let line = &self.file.all[f];
                !line.is_blank()
                    && !covered.iter().any(|r| r.contains(&f))
                    && self.new.all.iter().any(|n| n.same_as(line))
                    && !self.search.all.iter().any(|s| s.same_as(line))
            })
            .collect()
    }

    /// Puts the unseen lines `lines` among `olds` by their place on disk,
    /// splitting the search blank lines around each by their place too.
    fn adopt(&self, lines: Vec<usize>, olds: &mut Vec<Old>, gaps: &mut Vec<Vec<usize>>) {
        let in_new = |l: &Line<'_>| self.new.all.iter().position(|n| n.same_as(l));
        for line in lines {
            let after = olds
                .iter()
                .position(|o| self.span_of(o).is_some_and(|r| r.start > line))
                .unwrap_or(olds.len());
            // Among search lines that matched nothing on disk just before
            // that place, new_content's order decides.
            let first = olds[..after]
                .iter()
                .rposition(|o| self.span_of(o).is_some())
                .map_or(0, |p| p + 1);
            let here = in_new(&self.file.all[line]);
            let at = (first..after)
                .find(|&k| match (here, in_new(self.old_line(&olds[k]))) {
                    (Some(u), Some(t)) => u < t,
                    _ => false,
                })
                .unwrap_or(after);
            let (before, after): (Vec<usize>, Vec<usize>) = gaps[at]
                .iter()
                .partition(|&&i| !matches!(self.targets[i], Target::Line(f) if f > line));
            gaps[at] = after;
            gaps.insert(at, before);
            olds.insert(at, Old::Unseen(line));
        }
    }

    /// Whether search line `i` is an elision marker standing for file lines.
    fn is_elision(&self, i: usize) -> bool {
        self.elision && self.markers.is_marker(&self.search.all[i])
    }

    /// Which markers of the search `new_content` keeps.
    fn kept_markers(&self, news: &[usize]) -> Vec<bool> {
        let olds: Vec<usize> = (0..self.search.len())
            .filter(|&i| !self.search.all[i].is_blank())
            .collect();
        let mut kept = vec![false; self.search.len()];
        let o: Vec<Key<'_>> = olds
            .iter()
            .map(|&i| self.key(&self.search.all[i]))
            .collect();
        let n: Vec<Key<'_>> = news.iter().map(|&j| self.key(&self.new.all[j])).collect();
        for op in capture_diff_slices(Algorithm::Patience, &o, &n) {
            if let DiffOp::Equal { old_index, len, .. } = op {
                for k in old_index..old_index + len {
                    kept[olds[k]] = o[k] == Key::Marker;
                }
            }
        }
        kept
    }

    /// Lines the search stands for in `stretch`, opened up after search
    /// line `by`.
    fn open_up(
        &self,
        (by, marker): (usize, bool),
        stretch: &Range<usize>,
        olds: &mut Vec<Old>,
        gaps: &mut Vec<Vec<usize>>,
    ) {
        for line in stretch.clone() {
            if !self.file.all[line].is_blank() {
                olds.push(Old::Hidden {
                    line,
                    by,
                    stretch: stretch.clone(),
                    marker,
                });
                gaps.push(Vec::new());
            }
        }
    }

    /// Search blank lines around file lines the search did not show (opened
    /// up or unseen) no longer say on which side of them they stood: they
    /// are taken out of their gaps, to be placed again by
    /// [`Transplant::place_blanks`] once `new_content` is paired.
    fn regroup_blanks(&self, olds: &[Old], gaps: &mut [Vec<usize>]) -> Vec<BlankGroup> {
        let shown = |o: &Old| matches!(o, Old::Search(_) | Old::Marker(_));
        let mut groups = Vec::new();
        let mut k = 0;
        while k < olds.len() {
            if shown(&olds[k]) {
                k += 1;
                continue;
            }
            let start = k;
            while k < olds.len() && !shown(&olds[k]) {
                k += 1;
            }
            let range = start..k + 1;
            let blanks: Vec<usize> = range
                .clone()
                .flat_map(|g| std::mem::take(&mut gaps[g]))
                .collect();
            groups.push(BlankGroup {
                gaps: range,
                blanks,
            });
        }
        groups
    }

    /// Places the search blank lines of `group` among its gaps after what
    /// `new_content` has there: first as the disk blank lines of gaps where
    /// `new_content` has blank lines too, then as imagined ones where it has
    /// more than the disk, then as the disk blank lines left (which the
    /// caller drops) where they matched a disk blank line at all. Around a
    /// single opened-up marker they go by position instead: those before
    /// the marker in the first gap, those after it in the last. Records in
    /// `blank_at` which disk line each stands for.
    fn place_blanks(
        &self,
        group: BlankGroup,
        olds: &[Old],
        gaps: &mut [Vec<usize>],
        partner: &[Option<usize>],
        new_gaps: &[Vec<usize>],
        blank_at: &mut Vec<(usize, Option<usize>)>,
    ) {
        let count = group.gaps.len();
        let mut disk: Vec<Vec<usize>> = Vec::with_capacity(count);
        let mut new: Vec<usize> = Vec::with_capacity(count);
        let mut used = vec![0usize; new_gaps.len()];
        for g in group.gaps.clone() {
            let lo = g
                .checked_sub(1)
                .and_then(|k| self.span_of(&olds[k]))
                .map_or(self.region.0, |r| r.end);
            let hi = olds
                .get(g)
                .and_then(|o| self.span_of(o))
                .map_or(self.region.1 + 1, |r| r.start);
            disk.push(
                (lo..hi.max(lo))
                    .filter(|&f| self.file.all[f].is_blank())
                    .collect(),
            );
            // new_content's blank lines between the nearest lines on each
            // side that it keeps (its start or end where there is none),
            // each counted for one gap only.
            let lo = partner[..g]
                .iter()
                .rev()
                .find_map(|p| *p)
                .map_or(0, |p| p + 1);
            let hi = partner[g.min(partner.len())..]
                .iter()
                .find_map(|p| *p)
                .unwrap_or(new_gaps.len() - 1);
            let mut between = 0;
            if lo <= hi {
                for k in lo..=hi {
                    let free = new_gaps[k].len() - used[k];
                    between += free;
                    used[k] += free;
                }
            }
            new.push(between);
        }
        let mut taken = vec![0usize; count];
        let mut put = |g: usize, at: Option<usize>, i: usize, gaps: &mut [Vec<usize>]| {
            gaps[group.gaps.start + g].push(i);
            blank_at.push((i, at));
        };
        // Around one opened-up marker the search's blank lines do say where
        // they stood: a marker stands for the disk lines between its
        // neighbours, so a blank line before it is in the first gap and one
        // after it in the last. Each is the disk's blank line there if the
        // disk has one left, else one the disk never had, so new_content
        // keeping it adds nothing (and new_content's placement, which may
        // pair it with a disk blank line at the other end, is not needed).
        let marker = olds[group.gaps.start..group.gaps.end - 1]
            .iter()
            .map(|o| match o {
                Old::Hidden {
                    by, marker: true, ..
                } => Some(*by),
                _ => None,
            })
            .reduce(|a, b| if a == b { a } else { None })
            .flatten();
        if let Some(by) = marker {
            for i in group.blanks {
                let g = if i < by { 0 } else { count - 1 };
                let at = (taken[g] < disk[g].len()).then(|| disk[g][taken[g]]);
                taken[g] += usize::from(at.is_some());
                put(g, at, i, gaps);
            }
            return;
        }
        let mut blanks = group.blanks.into_iter();
        'seen: for g in 0..count {
            while taken[g] < new[g].min(disk[g].len()) {
                let Some(i) = blanks.next() else { break 'seen };
                put(g, Some(disk[g][taken[g]]), i, gaps);
                taken[g] += 1;
            }
        }
        let mut imagined = vec![0usize; count];
        for g in 0..count {
            while taken[g] + imagined[g] < new[g] {
                let Some(i) = blanks.next() else { break };
                put(g, None, i, gaps);
                imagined[g] += 1;
            }
        }
        // A search blank line that matched no disk blank line stands for
        // none here either: new_content leaving it out removes nothing.
        for g in 0..count {
            while taken[g] < disk[g].len() {
                let Some(i) = blanks.next() else { break };
                if matches!(self.targets[i], Target::Line(_)) {
                    put(g, Some(disk[g][taken[g]]), i, gaps);
                    taken[g] += 1;
                } else {
                    put(g, None, i, gaps);
                }
            }
        }
        for i in blanks {
            put(0, None, i, gaps);
        }
    }

    /// Pairs the lines of the search with those of `new_content`.
    pub(crate) fn align(&self) -> Alignment {
        let mut news = Vec::new();
        let mut new_gaps = vec![Vec::new()];
        for (j, line) in self.new.all.iter().enumerate() {
            if line.is_blank() {
                new_gaps.last_mut().expect("a gap").push(j);
            } else {
                news.push(j);
                new_gaps.push(Vec::new());
            }
        }
        let kept = self.kept_markers(&news);
        let mut olds = Vec::new();
        let mut old_gaps = vec![Vec::new()];
        for (i, (line, &keep)) in self.search.all.iter().zip(&kept).enumerate() {
            if line.is_blank() {
                old_gaps.last_mut().expect("a gap").push(i);
                continue;
            }
            if self.is_elision(i) && !keep {
                if let Target::Middle(stretch) = &self.targets[i] {
                    self.open_up((i, true), &stretch.clone(), &mut olds, &mut old_gaps);
                }
                continue;
            }
            olds.push(if self.is_elision(i) {
                Old::Marker(i)
            } else {
                Old::Search(i)
            });
            old_gaps.push(Vec::new());
            if let Some((after, stretch)) = &self.skipped
                && *after == i
            {
                self.open_up((i, false), stretch, &mut olds, &mut old_gaps);
            }
        }

        let unseen = self.unseen_in_new(&olds);
        self.adopt(unseen, &mut olds, &mut old_gaps);
        let groups = self.regroup_blanks(&olds, &mut old_gaps);

        let o: Vec<Key<'_>> = olds
            .iter()
            .map(|old| match old {
                Old::Marker(_) => Key::Marker,
                other => Key::Text(&self.old_line(other).canon),
            })
            .collect();
        let n: Vec<Key<'_>> = news.iter().map(|&j| self.key(&self.new.all[j])).collect();
        let a: Vec<&Line<'_>> = olds.iter().map(|old| self.old_line(old)).collect();
        let b: Vec<&Line<'_>> = news.iter().map(|&j| &self.new.all[j]).collect();
        let (ops, mut partner_of_old) = pair_keys(&o, &n, &a, &b);
        // A file line the search did not show pairs only with a line that
        // reads like it (unseen) or that rewrites it (hidden), never merely
        // by position.
        for (k, old) in olds.iter().enumerate() {
            let Some(j) = partner_of_old[k] else {
                continue;
            };
            let keep = match old {
                Old::Unseen(_) => b[j].same_as(a[k]),
                Old::Hidden { .. } => b[j].same_as(a[k]) || line_similarity(b[j], a[k]) >= REWRITE,
                _ => true,
            };
            if !keep {
                partner_of_old[k] = None;
            }
        }
        let mut partner_of_new = vec![None; news.len()];
        for (k, p) in partner_of_old.iter().enumerate() {
            if let Some(j) = p {
                partner_of_new[*j] = Some(k);
            }
        }
        let mut blank_at = Vec::new();
        for group in groups {
            self.place_blanks(
                group,
                &olds,
                &mut old_gaps,
                &partner_of_old,
                &new_gaps,
                &mut blank_at,
            );
        }
        Alignment {
            blank_at,
            olds,
            old_gaps,
            news,
            new_gaps,
            ops,
            partner_of_old,
            partner_of_new,
        }
    }
}

impl Alignment {
    /// Whether `new_content` writes none of the lines the search skipped
    /// (without a marker) after search line `by`.
    pub(crate) fn skipped_unwritten(&self, by: usize) -> bool {
        self.olds.iter().enumerate().all(|(k, old)| {
            !matches!(old, Old::Hidden { by: b, marker: false, .. } if *b == by)
                || self.partner_of_old[k].is_none()
        })
    }
}

impl Transplant<'_, '_, '_, '_> {
    /// How many lines of `new_content` read like the search line (or
    /// opened-up file line) they are paired with: how much of
    /// `new_content` this fit explains.
    pub(crate) fn explained(&self) -> usize {
        let al = self.align();
        al.partner_of_new
            .iter()
            .enumerate()
            .filter(|(j, p)| {
                p.is_some_and(|k| self.new.all[al.news[*j]].same_as(self.old_line(&al.olds[k])))
            })
            .count()
    }
}

/// Pairs lines `a` (keyed `o`) with lines `b` (keyed `n`): equal keys by a
/// diff, then lines in each replaced run by [`partners`]. Returns the diff
/// and, for each line of `a`, its partner in `b`.
fn pair_keys(
    o: &[Key<'_>],
    n: &[Key<'_>],
    a: &[&Line<'_>],
    b: &[&Line<'_>],
) -> (Vec<DiffOp>, Vec<Option<usize>>) {
    let ops = capture_diff_slices(Algorithm::Patience, o, n);
    let mut partner = vec![None; a.len()];
    for op in &ops {
        match *op {
            DiffOp::Equal {
                old_index,
                new_index,
                len,
            } => {
                for t in 0..len {
                    partner[old_index + t] = Some(new_index + t);
                }
            }
            DiffOp::Replace {
                old_index,
                old_len,
                new_index,
                new_len,
            } => {
                let found = partners(
                    &a[old_index..old_index + old_len],
                    &b[new_index..new_index + new_len],
                );
                for (t, p) in found.into_iter().enumerate() {
                    if let Some(p) = p {
                        partner[old_index + p] = Some(new_index + t);
                    }
                }
            }
            DiffOp::Delete { .. } | DiffOp::Insert { .. } => {}
        }
    }
    (ops, partner)
}

/// For each non-blank line of `search`, the non-blank line of `new` that
/// keeps or rewrites it (indices into the `all` lines of each).
pub(crate) fn search_to_new(search: &Lines<'_>, new: &Lines<'_>) -> Vec<Option<usize>> {
    let a: Vec<&Line<'_>> = search.nonblank.iter().map(|&i| &search.all[i]).collect();
    let b: Vec<&Line<'_>> = new.nonblank.iter().map(|&j| &new.all[j]).collect();
    let o: Vec<Key<'_>> = a.iter().map(|l| Key::Text(&l.canon)).collect();
    let n: Vec<Key<'_>> = b.iter().map(|l| Key::Text(&l.canon)).collect();
    let (_, partner) = pair_keys(&o, &n, &a, &b);
    let mut out = vec![None; search.len()];
    for (k, p) in partner.into_iter().enumerate() {
        out[search.nonblank[k]] = p.map(|j| new.nonblank[j]);
    }
    out
}

/// For each line of `new`, the line of `old` it rewrites. As many lines for
/// as many pair in order; otherwise an order-keeping pairing of lines at
/// least [`REWRITE`] similar, with the greatest total similarity (a run of
/// replaced lines is a few lines long).
pub(crate) fn partners(old: &[&Line<'_>], new: &[&Line<'_>]) -> Vec<Option<usize>> {
    let (a, b) = (old.len(), new.len());
    if a == b {
        return (0..b).map(Some).collect();
    }
    let mut best = vec![0f64; (a + 1) * (b + 1)];
    let at = |i: usize, j: usize| i * (b + 1) + j;
    for i in 1..=a {
        for j in 1..=b {
            let mut v = best[at(i - 1, j)].max(best[at(i, j - 1)]);
            let sim = line_similarity(old[i - 1], new[j - 1]);
            if sim >= REWRITE {
                v = v.max(best[at(i - 1, j - 1)] + sim);
            }
            best[at(i, j)] = v;
        }
    }
    let mut out = vec![None; b];
    let (mut i, mut j) = (a, b);
    while i > 0 && j > 0 {
        let sim = line_similarity(old[i - 1], new[j - 1]);
        if sim >= REWRITE && best[at(i, j)] == best[at(i - 1, j - 1)] + sim {
            out[j - 1] = Some(i - 1);
            i -= 1;
            j -= 1;
        } else if best[at(i, j)] == best[at(i - 1, j)] {
            i -= 1;
        } else {
            j -= 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rewritten_line_pairs_with_the_line_it_rewrites() {
        let old = Lines::of_snippet("let x = 1;\nlet y = 2;\n");
        let new = Lines::of_snippet("let x = 10;\naudit();\nlet y = 20;\n");
        let o: Vec<&Line<'_>> = old.all.iter().collect();
        let n: Vec<&Line<'_>> = new.all.iter().collect();
        assert_eq!(partners(&o, &n), vec![Some(0), None, Some(1)]);
    }
}
