//! The one alignment model: the search's lines against a window of the
//! file's, in one dynamic-programming pass, every operation priced in edits
//! (see [`super::costs`]).
//!
//! | step | meaning | cost |
//! |---|---|---|
//! | pair | a search line stands for a file line | the edits between their keys, plus a little if its indentation leaves the block's frame; a flat few where the file line is what `new_content` rewrites the search line into |
//! | search only | a search line with no file line | its characters and break (when places are ranked, at least a gained line's cost) |
//! | file only | a file line with no search line | a flat cost, one hidden line, or its characters if fewer; a run of lines `new_content` writes out costs one break and each line's distance to the line that writes it |
//! | hidden | an elision marker stands for file lines | nothing, but no hidden line may be shallower than the marker |
//!
//! The search is aligned whole; the window's lines before and after the
//! place are free, so one window holds the place together with its shifted
//! and widened readings and the cheapest one comes out. Of equally cheap
//! alignments, the one hiding fewest lines under markers wins: a marker
//! stands for the lines up to the nearest place the rest fits.

use std::ops::Range;

use super::costs::COSTS;
use super::likeness::{Likeness, likeness, reads_literally};
use super::rows::{Comparer, Row};

/// One step of an alignment. File lines are indices into the whole file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Step {
    /// Search line `s` stands for file line `f`.
    Pair { s: usize, f: usize },
    /// Search line `s` has no file line.
    SearchOnly { s: usize },
    /// File line `f` has no search line.
    FileOnly { f: usize },
    /// The marker at search line `s` stands for file lines `f`.
    Hidden { s: usize, f: Range<usize> },
}

/// The cheapest alignment of the search in a window.
#[derive(Debug, Clone)]
pub(crate) struct Alignment {
    /// The steps, in order of both texts.
    pub steps: Vec<Step>,
    /// What it costs, in edits, with what events cost besides their edits
    /// (a stale line, a line out of the frame, a short line lost, a number
    /// on a kept line): what places are ranked by.
    pub cost: u32,
    /// The edits alone, between the search and the region: what the score
    /// and the threshold measure.
    pub edits: u32,
    /// File lines under markers.
    pub hidden: u32,
    /// The file lines from the first one the search stands for to the last.
    pub region: Range<usize>,
}

impl Alignment {
    /// The alignment of `steps`; `None` when they stand for no file line.
    fn of(steps: Vec<Step>, cost: u32, hidden: u32, edits: u32) -> Option<Alignment> {
        let mut first = None;
        let mut last = None;
        for step in &steps {
            let r = match step {
                Step::Pair { f, .. } | Step::FileOnly { f } => *f..*f + 1,
                Step::Hidden { f, .. } if !f.is_empty() => f.clone(),
                _ => continue,
            };
            first.get_or_insert(r.start);
            last = Some(r.end);
        }
        Some(Alignment {
            steps,
            cost,
            edits,
            hidden,
            region: first?..last?,
        })
    }
}

/// What an alignment is made of.
pub(crate) struct Problem<'p, 't> {
    /// The search's lines.
    pub search: &'p [Row<'p>],
    /// Which of them are elision markers.
    pub markers: &'p [bool],
    /// A comparer for each search line.
    pub comparers: &'p [Comparer],
    /// The file's lines.
    pub file: &'p [Row<'t>],
    /// For each file line that `new_content` writes out, what it costs as a
    /// file-only line.
    pub written_out: &'p [Option<u32>],
    /// For each search line `new_content` rewrites, the key of the line it
    /// writes for it (none past the end).
    pub rewrites: &'p [Option<String>],
    /// Which search lines `new_content` keeps as they are (none past the
    /// end).
    pub kept: &'p [bool],
}

const START: u8 = 0;
const SEARCH_ONLY: u8 = 1;
const PAIR: u8 = 2;
const FILE_ONLY: u8 = 3;
const MARKER_STOP: u8 = 4;
const MARKER_HIDE: u8 = 5;

/// No alignment reaches this cell. Cells hold the cost in the high 32 bits
/// and the hidden lines in the low ones, so that one comparison orders both.
const NONE: u64 = u64::MAX;

impl Problem<'_, '_> {
    /// Whether file line `f` already reads as `new_content` rewrites search
    /// line `s`: the caller's change is made there, so the search's line is
    /// its memory of the line before, and the file agrees with the caller.
    fn agrees(&self, s: usize, f: usize) -> bool {
        matches!(self.rewrites.get(s), Some(Some(key)) if *key == self.file[f].key)
    }

    /// Whether search line `s` is file line `f` with the comment at its end
    /// left out (see `reads_literally`).
    fn uncommented(&self, s: usize, f: usize) -> bool {
        let (a, b) = (&self.search[s], &self.file[f]);
        a.key != b.key && reads_literally(a.raw, b.raw)
    }

    /// The edits between search line `s` and file line `f`.
    fn pair_edits(&self, s: usize, f: usize) -> u32 {
        if self.agrees(s, f) {
            COSTS.agreed
        } else if self.uncommented(s, f) {
            COSTS.uncommented
        } else {
            self.comparers[s].distance(&self.file[f])
        }
    }

    fn pair_cost(&self, s: usize, f: usize, offset: isize) -> Option<u32> {
        let (a, b) = (&self.search[s], &self.file[f]);
        match (a.is_blank(), b.is_blank()) {
            (true, true) => Some(0),
            (false, false) if self.agrees(s, f) => {
                let misframed = b.width as isize - a.width as isize != offset;
                Some(COSTS.agreed + if misframed { COSTS.misframed } else { 0 })
            }
            (false, false) => {
                let misframed = b.width as isize - a.width as isize != offset;
                // The file's line with the comment at its end left out (see
                // `reads_literally`): every byte of the code as the caller
                // sent it. The line still differs from the file's, an event
                // as a stale line is, but the comment's length and numbers
                // say nothing of which block the caller read; were they
                // priced, the copy would read cheaper with the line lost,
                // and a look-alike with spaces changed would seem the
                // caller's block.
                if self.uncommented(s, f) {
                    let frame = if misframed { COSTS.misframed } else { 0 };
                    return Some(COSTS.uncommented + COSTS.stale_pair + frame);
                }
                // Lines apart in more than one number are other lines, not
                // one line remembered stale.
                let numbers_apart = a.numbers.apart(&b.numbers);
                if numbers_apart > 1 {
                    return None;
                }
                let edits = self.comparers[s].distance(b);
                // Noise is at most a few typos; anything further is a line
                // remembered stale, an event of its own.
                let stale = edits > COSTS.noise_edits
                    || (edits > 0 && likeness(&a.key, &b.key) == Likeness::Differs);
                let cost = edits
                    + if misframed { COSTS.misframed } else { 0 }
                    + if stale { COSTS.stale_pair } else { 0 };
                // A line `new_content` keeps is the caller's claim of what
                // the file has there, and a number in it is no slip of
                // memory: read with another number, it is as far as the
                // line lost and the file's line gained, less the one edit
                // that keeps the two read as one line, the line a refusal
                // names.
                if numbers_apart > 0 && self.kept.get(s) == Some(&true) {
                    Some(cost.max(self.search_only_rank(s) + COSTS.hidden_line - 1))
                } else {
                    Some(cost)
                }
            }
            _ => None,
        }
    }

    fn search_only_cost(&self, s: usize) -> u32 {
        if self.search[s].is_blank() {
            COSTS.blank
        } else {
            self.search[s].weight()
        }
    }

    /// What search line `s` costs as a search-only line when places are
    /// ranked: at least what a hidden file line costs, so
    /// that a short line (`}`) is not cheaper to lose than a long one is
    /// to gain.
    fn search_only_rank(&self, s: usize) -> u32 {
        if self.search[s].is_blank() {
            COSTS.blank
        } else {
            self.search[s].weight().max(COSTS.hidden_line)
        }
    }

    fn file_only_cost(&self, f: usize) -> u32 {
        let row = &self.file[f];
        if row.is_blank() {
            COSTS.blank
        } else {
            self.written_out[f]
                .unwrap_or(COSTS.hidden_line)
                .min(row.weight())
        }
    }

    /// What file line `f` costs as a file-only line right after file line
    /// `f - 1` was one: a line `new_content` writes out continues the run
    /// of such lines before it without opening another, and so does a
    /// blank line: a paragraph hidden without a marker is one event however many
    /// blank lines stand between its lines.
    fn file_only_cost_after(&self, f: usize, after_file_only: bool) -> u32 {
        // Each look crosses only blank lines: the first line with text it
        // meets either is written out or ends it. A blank line goes on
        // with the run only between two written-out lines; at the run's
        // edge it is the blank line it is.
        let goes_on = |g: usize| self.written_out[g].is_some() || self.file[g].is_blank();
        let written = |g: usize| self.written_out[g].is_some();
        let continues = after_file_only
            && f > 0
            && goes_on(f)
            && (0..f).rev().take_while(|&g| goes_on(g)).any(written)
            && (written(f)
                || (f + 1..self.file.len())
                    .take_while(|&g| goes_on(g))
                    .any(written));
        if continues {
            self.file_only_cost(f).saturating_sub(COSTS.written_out)
        } else {
            self.file_only_cost(f)
        }
    }

    /// Whether file line `f` may be hidden by the marker at search line `s`.
    fn hideable(&self, s: usize, f: usize, offset: isize) -> bool {
        let row = &self.file[f];
        row.is_blank() || row.width as isize >= self.search[s].width as isize + offset
    }

    /// The frame the search is indented in relative to the file around
    /// `window`: the commonest difference in indentation between equal lines,
    /// or else between the least indented lines of each.
    pub(crate) fn offset(&self, window: &Range<usize>) -> isize {
        // Each search line votes for the offsets of its equal lines, one
        // vote shared among them: a `}` that occurs at every depth says
        // little, a line that occurs once says a lot.
        let mut counts: Vec<(isize, f64)> = Vec::new();
        for (s, row) in self.search.iter().enumerate() {
            if row.is_blank() || self.markers[s] {
                continue;
            }
            let equal: Vec<isize> = window
                .clone()
                .filter(|&f| self.file[f].same(row))
                .map(|f| self.file[f].width as isize - row.width as isize)
                .collect();
            for &d in &equal {
                let vote = 1.0 / equal.len() as f64;
                match counts.iter_mut().find(|(o, _)| *o == d) {
                    Some((_, c)) => *c += vote,
                    None => counts.push((d, vote)),
                }
            }
        }
        if let Some(&(o, _)) = counts
            .iter()
            .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)))
        {
            return o;
        }
        let least = |rows: &mut dyn Iterator<Item = &Row<'_>>| {
            rows.filter(|r| !r.is_blank()).map(|r| r.width).min()
        };
        let s = least(
            &mut self
                .search
                .iter()
                .enumerate()
                .filter(|(k, _)| !self.markers[*k])
                .map(|(_, r)| r),
        );
        let f = least(&mut self.file[window.clone()].iter());
        match (s, f) {
            (Some(s), Some(f)) => f as isize - s as isize,
            _ => 0,
        }
    }

    /// The cheapest alignment of the whole search within `window`, in the
    /// frame `offset`; `None` when it stands for no file line.
    pub(crate) fn align(&self, window: Range<usize>, offset: isize) -> Option<Alignment> {
        let (cost, hidden, steps) =
            self.part(0..self.search.len(), window, offset, true, true, false)?;
        let edits = self.edits(&steps);
        Alignment::of(steps, cost, hidden, edits)
    }

    /// [`Problem::align`] with the other choice among equally cheap
    /// alignments: markers hiding the most lines. Where the lines after a
    /// marker repeat (a test's assertions over and over), the rest of the
    /// search fits after more than one run, and the nearest is only a
    /// guess; this is its rival.
    pub(crate) fn widest(&self, window: Range<usize>, offset: isize) -> Option<Alignment> {
        let (cost, hidden, steps) =
            self.part(0..self.search.len(), window, offset, true, true, true)?;
        let edits = self.edits(&steps);
        Alignment::of(steps, cost, hidden, edits)
    }

    /// The cheapest alignment of the whole search within `window` that pairs
    /// search line `s` with file line `f`.
    pub(crate) fn forced(
        &self,
        window: Range<usize>,
        offset: isize,
        s: usize,
        f: usize,
    ) -> Option<Alignment> {
        let pair = self.pair_cost(s, f, offset)?;
        let (c1, h1, mut steps) = self.part(0..s, window.start..f, offset, true, false, false)?;
        let (c2, h2, after) = self.part(
            s + 1..self.search.len(),
            f + 1..window.end,
            offset,
            false,
            true,
            false,
        )?;
        steps.push(Step::Pair { s, f });
        steps.extend(after);
        let edits = self.edits(&steps);
        Alignment::of(steps, c1 + pair + c2, h1 + h2, edits)
    }

    /// The edits of `steps` alone.
    fn edits(&self, steps: &[Step]) -> u32 {
        let mut after_file_only = false;
        steps
            .iter()
            .map(|step| {
                let (edits, file_only) = match *step {
                    Step::Pair { s, f } => (self.pair_edits(s, f), false),
                    Step::SearchOnly { s } => (self.search_only_cost(s), false),
                    Step::FileOnly { f } => (self.file_only_cost_after(f, after_file_only), true),
                    Step::Hidden { .. } => (0, false),
                };
                after_file_only = file_only;
                edits
            })
            .sum()
    }

    /// Aligns search lines `rows` with file lines `window`. With
    /// `free_start` the file lines before the first one the search stands
    /// for cost nothing (else they are file-only lines); with `free_end` the
    /// same holds after the last one (else the alignment ends at the
    /// window's end). Of equally cheap alignments, markers hide the fewest
    /// lines, or with `hide_most` the most.
    fn part(
        &self,
        rows: Range<usize>,
        window: Range<usize>,
        offset: isize,
        free_start: bool,
        free_end: bool,
        hide_most: bool,
    ) -> Option<(u32, u32, Vec<Step>)> {
        let m = rows.len();
        let lo = window.start;
        let w = window.len();
        let cols = w + 1;
        let mut ops = vec![START; (m + 1) * cols];
        // The low bits count hidden lines up from 0, or down from `base`.
        let base: u64 = if hide_most { 1 << 31 } else { 0 };
        let mut prev = vec![base; cols];
        if !free_start {
            for j in 1..cols {
                let c = self.file_only_cost_after(lo + j - 1, j > 1);
                prev[j] = prev[j - 1] + (u64::from(c) << 32);
                ops[j] = FILE_ONLY;
            }
        }
        let mut cur = vec![NONE; cols];
        for (r, i) in rows.clone().enumerate() {
            cur.fill(NONE);
            let row = (r + 1) * cols;
            if self.markers[i] {
                for j in 0..cols {
                    let mut best = prev[j];
                    let mut op = MARKER_STOP;
                    if j > 0 && cur[j - 1] != NONE && self.hideable(i, lo + j - 1, offset) {
                        let hidden = if hide_most {
                            cur[j - 1] - 1
                        } else {
                            cur[j - 1] + 1
                        };
                        if hidden < best {
                            best = hidden;
                            op = MARKER_HIDE;
                        }
                    }
                    cur[j] = best;
                    ops[row + j] = op;
                }
            } else {
                let skip = u64::from(self.search_only_rank(i)) << 32;
                for j in 0..cols {
                    let mut best = prev[j].saturating_add(skip);
                    let mut op = SEARCH_ONLY;
                    if j > 0 {
                        let f = lo + j - 1;
                        if prev[j - 1] != NONE
                            && let Some(c) = self.pair_cost(i, f, offset)
                        {
                            let v = prev[j - 1] + (u64::from(c) << 32);
                            if v < best {
                                best = v;
                                op = PAIR;
                            }
                        }
                        if cur[j - 1] != NONE {
                            // The run continues only along the path kept
                            // for the cell before, which is the one the
                            // steps trace back.
                            let after = j > 1 && ops[row + j - 1] == FILE_ONLY;
                            let c = self.file_only_cost_after(f, after);
                            let v = cur[j - 1] + (u64::from(c) << 32);
                            if v < best {
                                best = v;
                                op = FILE_ONLY;
                            }
                        }
                    }
                    cur[j] = best;
                    ops[row + j] = op;
                }
            }
            std::mem::swap(&mut prev, &mut cur);
        }
        // The cheapest end, nearest first; or the window's end.
        let (mut j, best) = if free_end {
            let (j, &b) = prev
                .iter()
                .enumerate()
                .min_by(|a, b| a.1.cmp(b.1).then(a.0.cmp(&b.0)))?;
            (j, b)
        } else {
            (w, prev[w])
        };
        if best == NONE {
            return None;
        }
        let mut steps = Vec::new();
        let mut r = m;
        while r > 0 || (!free_start && j > 0) {
            let i = rows.start + r.max(1) - 1;
            match ops[r * cols + j] {
                FILE_ONLY => {
                    steps.push(Step::FileOnly { f: lo + j - 1 });
                    j -= 1;
                }
                SEARCH_ONLY => {
                    steps.push(Step::SearchOnly { s: i });
                    r -= 1;
                }
                PAIR => {
                    steps.push(Step::Pair {
                        s: i,
                        f: lo + j - 1,
                    });
                    r -= 1;
                    j -= 1;
                }
                MARKER_HIDE | MARKER_STOP => {
                    let end = j;
                    while ops[r * cols + j] == MARKER_HIDE {
                        j -= 1;
                    }
                    steps.push(Step::Hidden {
                        s: i,
                        f: lo + j..lo + end,
                    });
                    r -= 1;
                }
                _ => break,
            }
        }
        steps.reverse();
        let low = best & 0xFFFF_FFFF;
        let hidden = if hide_most { base - low } else { low };
        Some(((best >> 32) as u32, hidden as u32, steps))
    }
}

#[cfg(test)]
mod tests {
    use super::super::rows::of_snippet;
    use super::*;

    fn aligned(search: &str, file: &str, markers: &[usize]) -> Alignment {
        let s = of_snippet(search);
        let f = of_snippet(file);
        let is_marker: Vec<bool> = (0..s.len()).map(|k| markers.contains(&k)).collect();
        let comparers: Vec<Comparer> = s.iter().map(Comparer::new).collect();
        let written = vec![None; f.len()];
        let p = Problem {
            search: &s,
            markers: &is_marker,
            comparers: &comparers,
            file: &f,
            written_out: &written,
            rewrites: &[],
            kept: &[],
        };
        let window = 0..f.len();
        let offset = p.offset(&window);
        p.align(window, offset).expect("an alignment")
    }

    #[test]
    fn an_exact_block_pairs_line_by_line_and_costs_nothing() {
        let a = aligned("b\nc\n", "a\nb\nc\nd\n", &[]);
        assert_eq!(a.cost, 0);
        assert_eq!(a.region, 1..3);
        assert_eq!(
            a.steps,
            vec![Step::Pair { s: 0, f: 1 }, Step::Pair { s: 1, f: 2 }]
        );
    }

    #[test]
    fn a_typo_costs_its_edits_and_a_missing_line_its_weight() {
        let a = aligned(
            "let totl = 1;\nreturn x;\n",
            "fn f() {\nlet total = 1;\nreturn x;\n}\n",
            &[],
        );
        assert_eq!(a.cost, 1);
        let a = aligned("alpha();\ngamma();\n", "alpha();\nbeta();\ngamma();\n", &[]);
        assert_eq!(a.cost, "beta ( ) ;".len() as u32 + 1);
        assert!(a.steps.contains(&Step::FileOnly { f: 1 }));
        // A line remembered stale pairs, at its edits and a stale line's cost.
        let a = aligned(
            "one();\ncompute(a);\nthree();\n",
            "one();\ncompute(a, b);\nthree();\n",
            &[],
        );
        assert_eq!(a.cost, 4 + COSTS.stale_pair);
        assert_eq!(a.region, 0..3);
    }

    #[test]
    fn a_marker_hides_the_nearest_run_that_lets_the_tail_fit() {
        let file = "def f():\n    a = 1\n    b = 2\n    return a\n\ndef g():\n    return a\n";
        let a = aligned("def f():\n    ...\n    return a\n", file, &[1]);
        assert_eq!(a.cost, 0);
        assert_eq!(a.region, 0..4);
        assert!(a.steps.contains(&Step::Hidden { s: 1, f: 1..3 }));
    }

    #[test]
    fn a_marker_never_hides_a_line_shallower_than_itself() {
        // The tail `return b` exists only in g; reaching it would hide `def g`.
        let file = "def f():\n    a = 1\n    return a\n\ndef g():\n    return b\n";
        let a = aligned("def f():\n    ...\n    return b\n", file, &[1]);
        assert!(a.cost > 0);
        assert!(
            !a.steps
                .iter()
                .any(|s| matches!(s, Step::Hidden { f, .. } if f.contains(&4)))
        );
    }
}
