//! Finding the stretches of a file that could be the search block, without a
//! quadratic scan.
//!
//! Everything happens on non-blank lines. Three cheap filters come before any
//! edit distance on whole blocks:
//!
//! 1. **Equal lines.** Every file line whose canonical form equals a search
//!    line is found with one pass and a hash lookup. Occurrences of the search
//!    line that is rarest in the file are checked for a complete canonical match
//!    (a *normalized* occurrence: same text up to whitespace and look-alikes).
//! 2. **Diagonal votes.** Each equal line votes for the block start it implies
//!    (file position minus search position). Lines that occur very often (a lone
//!    `}`) do not vote: they say nothing about where the block is.
//! 3. **Similar lines.** When fewer than half the search lines found an equal
//!    line (short blocks with typos), the longest search lines without one are
//!    compared with every file line of similar length using a bit-parallel
//!    distance with a cut-off, and close lines vote too.
//!
//! Only the best-voted starts are scored, each with windows a couple of lines
//! longer or shorter to absorb a missing or extra line.

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use super::block::{Line, Lines, joined};
use super::score::{Scorer, line_distance, score_of};

/// A file line that occurs more often than this does not vote.
const FREQUENT: usize = 256;
/// At most this many block starts are scored.
const MAX_STARTS: usize = 48;
/// Of those, this many get the neighbouring window sizes too.
const REFINED_STARTS: usize = 12;
/// How many lines a window may grow, shrink or move around a voted start.
pub(crate) const SLACK: usize = 2;
/// A search longer than this (chars) has its windows estimated line by line
/// and not reframed: whole-block distances cost too much at that size, and
/// the line pairing that follows finds the exact frame anyway.
pub(crate) const LONG: usize = 3_000;
/// How many long search lines are compared line by line when votes are scarce.
const SIMILAR_PROBES: usize = 3;
/// Minimum similarity (0–1) for a line to vote as a near-equal.
const SIMILAR_LINE: f64 = 0.6;
/// What an equal line's vote weighs; a near-equal line weighs its similarity
/// times this, so the closest lines rank first when only they vote.
const EQUAL_VOTE: u32 = 100;

/// A stretch of non-blank file lines `start..end` (non-blank positions) and
/// its distance to the search block.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Window {
    /// First non-blank position.
    pub start: usize,
    /// One past the last non-blank position.
    pub end: usize,
    /// Indel distance between the canonical texts.
    pub dist: usize,
    /// Score 0–100 of that distance.
    pub score: f64,
    /// Length in chars of the window's canonical text.
    pub chars: usize,
}

impl Window {
    fn overlaps(&self, other: &Window) -> bool {
        self.start < other.end && other.start < self.end
    }
}

/// Prepared search lines for repeated window searches.
pub(crate) struct Probe<'a, 't> {
    lines: Vec<&'a Line<'t>>,
    scorer: Scorer,
}

impl<'a, 't> Probe<'a, 't> {
    /// Prepares the non-blank search lines `lines`.
    pub(crate) fn new(lines: Vec<&'a Line<'t>>) -> Probe<'a, 't> {
        let mut text = String::new();
        joined(lines.iter().copied(), &mut text);
        Probe {
            scorer: Scorer::new(&text),
            lines,
        }
    }

    /// Distance and score of the file window `start..end` (non-blank positions).
    pub(crate) fn measure(&self, file: &Lines<'_>, start: usize, end: usize) -> Window {
        let mut buf = String::new();
        joined((start..end).map(|p| file.nb(p)), &mut buf);
        let dist = self.scorer.distance(&buf);
        let chars = buf.chars().count();
        Window {
            start,
            end,
            dist,
            score: score_of(dist, self.scorer.len, chars),
            chars,
        }
    }

    /// A cheap upper estimate of [`Probe::measure`]: the search's lines
    /// against the window's, one to one, each by its own distance.
    fn estimate(&self, file: &Lines<'_>, start: usize, end: usize) -> Window {
        let mut dist = 0;
        let mut chars = (end - start).saturating_sub(1);
        for (k, p) in (start..end).enumerate() {
            let other = file.nb(p);
            chars += other.chars;
            dist += match self.lines.get(k) {
                Some(line) => line_distance(line, other),
                None => other.chars + 1,
            };
        }
        for line in self.lines.iter().skip(end - start) {
            dist += line.chars + 1;
        }
        Window {
            start,
            end,
            dist,
            score: score_of(dist, self.scorer.len, chars),
            chars,
        }
    }

    /// The `n` windows of the whole of `file` nearest the search, nearest
    /// and then earliest first, leaving out any that starts where one of
    /// `besides` starts.
    pub(crate) fn nearest(&self, file: &Lines<'_>, n: usize, besides: &[Window]) -> Vec<Window> {
        let mut windows = self.find(file, 0..file.nonblank.len());
        windows.sort_by(|a, b| a.dist.cmp(&b.dist).then(a.start.cmp(&b.start)));
        windows.retain(|w| !besides.iter().any(|b| b.start == w.start));
        windows.truncate(n);
        windows
    }

    /// Every region of `file` within non-blank positions `range` that could be
    /// the search block, best first. Normalized occurrences (distance 0) are
    /// all returned; fuzzy ones are the best window of each region.
    pub(crate) fn find(&self, file: &Lines<'_>, range: Range<usize>) -> Vec<Window> {
        let n = self.lines.len();
        if n == 0 || range.end <= range.start {
            return Vec::new();
        }

        // Distinct search lines and the file lines equal to them.
        let mut ids: HashMap<u64, usize> = HashMap::new();
        let mut keys: Vec<Key> = Vec::new();
        for (i, line) in self.lines.iter().enumerate() {
            let id = *ids.entry(line.hash).or_insert_with(|| {
                keys.push(Key {
                    first: i,
                    at: Vec::new(),
                    found: Vec::new(),
                });
                keys.len() - 1
            });
            keys[id].at.push(i);
        }
        for p in range.clone() {
            let line = file.nb(p);
            if let Some(&id) = ids.get(&line.hash)
                && line.canon == self.lines[keys[id].first].canon
            {
                keys[id].found.push(p);
            }
        }

        let mut windows: Vec<Window> = Vec::new();
        let mut seen: HashSet<(usize, usize)> = HashSet::new();

        // Normalized occurrences, anchored on the rarest line.
        if let Some(rarest) = keys.iter().min_by_key(|k| k.found.len())
            && !rarest.found.is_empty()
        {
            for &p in &rarest.found {
                let Some(start) = p.checked_sub(rarest.first) else {
                    continue;
                };
                if start < range.start || start + n > range.end {
                    continue;
                }
                if (0..n).all(|i| file.nb(start + i).same_as(self.lines[i])) {
                    seen.insert((start, start + n));
                    windows.push(Window {
                        start,
                        end: start + n,
                        dist: 0,
                        score: score_of(0, 1, 1),
                        chars: self.scorer.len,
                    });
                }
            }
        }

        // Votes for block starts. Of starts with as many votes, those voted
        // by rarer lines come first: a line found once says where the block
        // is, a `}` found at every block says little, and with many of them
        // tied the rare line's start must not be cut for its place in the
        // file.
        let mut votes: HashMap<isize, u32> = HashMap::new();
        let mut rarity: HashMap<isize, f64> = HashMap::new();
        for key in &keys {
            if key.found.len() > FREQUENT {
                continue;
            }
            for &p in &key.found {
                for &i in &key.at {
                    let start = p as isize - i as isize;
                    *votes.entry(start).or_default() += EQUAL_VOTE;
                    *rarity.entry(start).or_default() += 1.0 / key.found.len() as f64;
                }
            }
        }
        let best_votes = votes.values().copied().max().unwrap_or(0);
        // Look-alike blocks (generated bindings, tables) tie on the lines
        // they share; more ties than starts are kept would leave the right
        // one to chance: the lines that found no equal decide.
        let tied = votes.values().filter(|&&v| v == best_votes).count();
        let unmatched = keys.iter().any(|k| k.found.is_empty());
        if (best_votes as usize) * 2 < (n + 1) * EQUAL_VOTE as usize
            || n <= 2
            || (unmatched && tied > MAX_STARTS / 4)
        {
            self.vote_similar(file, range.clone(), &keys, &ids, &mut votes);
        }

        let mut starts: Vec<(isize, u32)> = votes.into_iter().collect();
        let rare = |start: &isize| rarity.get(start).copied().unwrap_or(0.0);
        starts.sort_by(|a, b| {
            b.1.cmp(&a.1)
                .then(rare(&b.0).total_cmp(&rare(&a.0)))
                .then(a.0.cmp(&b.0))
        });
        let floor = (starts.first().map_or(0, |s| s.1) / 4).max(EQUAL_VOTE / 2);
        starts.retain(|s| s.1 >= floor);
        starts.truncate(MAX_STARTS);

        // Score the window each start implies, then refine the best few.
        let fits = |s: isize, len: usize| -> Option<(usize, usize)> {
            let s = usize::try_from(s).ok()?;
            (len > 0 && s >= range.start && s + len <= range.end).then_some((s, s + len))
        };
        let long = self.scorer.len > LONG;
        let mut base: Vec<Window> = Vec::new();
        for &(d, _) in &starts {
            if let Some((s, e)) = fits(d, n)
                && seen.insert((s, e))
            {
                base.push(if long {
                    self.estimate(file, s, e)
                } else {
                    self.measure(file, s, e)
                });
            }
        }
        base.sort_by(|a, b| a.dist.cmp(&b.dist).then(a.start.cmp(&b.start)));
        let mut refined: Vec<Window> = Vec::new();
        for w in base.iter().take(if long { 0 } else { REFINED_STARTS }) {
            let d = w.start as isize;
            for ds in -(SLACK as isize)..=SLACK as isize {
                for dl in -(SLACK as isize)..=SLACK as isize {
                    let len = n as isize + dl;
                    if len <= 0 {
                        continue;
                    }
                    if let Some((s, e)) = fits(d + ds, len as usize)
                        && seen.insert((s, e))
                    {
                        refined.push(self.measure(file, s, e));
                    }
                }
            }
        }
        windows.extend(base);
        windows.extend(refined);
        merge_regions(windows, n)
    }

    /// Adds votes from file lines that are close to (not equal to) the longest
    /// search lines that found no equal line.
    fn vote_similar(
        &self,
        file: &Lines<'_>,
        range: Range<usize>,
        keys: &[Key],
        ids: &HashMap<u64, usize>,
        votes: &mut HashMap<isize, u32>,
    ) {
        // Lines without an equal line first (they are where the typos are),
        // longest first; a block of one or two lines probes all its lines so
        // that close rivals of an equal line are seen too.
        let unmatched = |i: usize| keys[ids[&self.lines[i].hash]].found.is_empty();
        let short = self.lines.len() <= 2;
        let mut probes: Vec<usize> = (0..self.lines.len())
            .filter(|&i| self.lines[i].chars >= 4 && (short || unmatched(i)))
            .collect();
        probes.sort_by(|&a, &b| {
            unmatched(b)
                .cmp(&unmatched(a))
                .then(self.lines[b].chars.cmp(&self.lines[a].chars))
                .then(a.cmp(&b))
        });
        probes.dedup_by_key(|i| self.lines[*i].hash);
        probes.truncate(SIMILAR_PROBES);
        for i in probes {
            let line = self.lines[i];
            let scorer = Scorer::new(&line.canon);
            let len = line.chars;
            // A ratio of at least SIMILAR_LINE needs lengths within these bounds.
            let lo = (len as f64 * SIMILAR_LINE / (2.0 - SIMILAR_LINE)).floor() as usize;
            let hi = (len as f64 * (2.0 - SIMILAR_LINE) / SIMILAR_LINE).ceil() as usize;
            for p in range.clone() {
                let other = file.nb(p);
                if other.chars < lo || other.chars > hi {
                    continue;
                }
                let max = ((1.0 - SIMILAR_LINE) * (len + other.chars) as f64).floor() as usize;
                if let Some(d) = scorer.distance_within(&other.canon, max) {
                    let sim = 1.0 - d as f64 / (len + other.chars).max(1) as f64;
                    *votes.entry(p as isize - i as isize).or_default() +=
                        (sim * f64::from(EQUAL_VOTE)) as u32;
                }
            }
        }
    }
}

/// One distinct search line: where it is in the search and in the file.
struct Key {
    first: usize,
    at: Vec<usize>,
    found: Vec<usize>,
}

/// Keeps the best window of each region. Windows that overlap and start and
/// end within [`SLACK`] lines of a better one are the same region seen through
/// a slightly different frame. Normalized occurrences (distance 0) are never
/// merged with each other: two of them are two occurrences, however close.
fn merge_regions(mut windows: Vec<Window>, n: usize) -> Vec<Window> {
    windows.sort_by(|a, b| {
        a.dist
            .cmp(&b.dist)
            .then(
                (a.end - a.start)
                    .abs_diff(n)
                    .cmp(&(b.end - b.start).abs_diff(n)),
            )
            .then(a.start.cmp(&b.start))
    });
    let mut kept: Vec<Window> = Vec::new();
    // Kept windows by start: a window is only compared with those starting
    // within SLACK of it, which keeps thousands of exact copies linear.
    let mut by_start: std::collections::BTreeMap<usize, Vec<usize>> = Default::default();
    for w in windows {
        let same_region = by_start
            .range(w.start.saturating_sub(SLACK)..=w.start + SLACK)
            .flat_map(|(_, ks)| ks.iter().map(|&k| &kept[k]))
            .any(|k| {
                k.overlaps(&w) && (k.dist > 0 || w.dist > 0) && k.end.abs_diff(w.end) <= SLACK
            });
        if !same_region {
            by_start.entry(w.start).or_default().push(kept.len());
            kept.push(w);
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::lines::LineIndex;

    fn windows(file: &str, search: &str) -> Vec<Window> {
        let index = LineIndex::new(file);
        let file_lines = Lines::of_text(file, &index);
        let search_lines = Lines::of_snippet(search);
        let probe = Probe::new(
            search_lines
                .nonblank
                .iter()
                .map(|&i| &search_lines.all[i])
                .collect(),
        );
        probe.find(&file_lines, 0..file_lines.nonblank.len())
    }

    #[test]
    fn finds_normalized_occurrences() {
        let file = "a\n  b\n\nc\nd\nb\nc\n";
        let found = windows(file, "b\n c");
        let exact: Vec<_> = found
            .iter()
            .filter(|w| w.dist == 0)
            .map(|w| w.start)
            .collect();
        assert_eq!(exact, vec![1, 4]);
    }

    #[test]
    fn finds_a_block_with_a_typo_in_every_line() {
        let file =
            "fn one() {}\nfn compute_total(items: &[u32]) -> u32 {\n    items.iter().sum()\n}\n";
        let found = windows(
            file,
            "fn compute_totl(items: &[u32]) -> u32 {\n    items.iter().summ()",
        );
        let best = found[0];
        assert_eq!((best.start, best.end), (1, 3));
        assert!(best.score > 90.0, "{best:?}");
    }
}
