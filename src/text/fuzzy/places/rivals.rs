//! The rivals of the best place: other readings of the same lines (a line
//! paired with its copy instead, markers hiding the most lines, an edge line
//! read as lost rather than paired across lines gained since) and places
//! around the file's other copies of lines the best place could not pair.
//! [`super::super::decide`] applies the best place only when it is clearly
//! cheaper than every disjoint rival.

use std::ops::Range;

use super::{Place, Prepared};
use crate::text::fuzzy::align::Step;
use crate::text::fuzzy::context::Ctx;
use crate::text::fuzzy::costs::COSTS;
use crate::text::fuzzy::likeness::{Likeness, likeness};

/// The most other readings [`Prepared::slides`] proposes: each costs an
/// alignment, and a block whose lines have that many unpaired copies beside
/// them (a long run of `}`) is read no better by more of them.
const MOST_SLIDES: usize = 32;

impl Prepared<'_> {
    /// Other readings of the place `best`: the search aligned in the same
    /// window with a search line that `best` leaves unpaired, or pairs with a
    /// line that differs, paired with a verbatim copy of it instead; and
    /// with its markers hiding the most lines the rest fits after.
    pub(crate) fn alternatives(&self, ctx: &Ctx<'_, '_>, best: &Place) -> Vec<Place> {
        let written_out = self.written_out(&ctx.file, &best.window);
        let problem = self.problem(ctx, &written_out);
        let paired: Vec<usize> = best.paired().collect();
        let mut out = Vec::new();
        if self.search_markers.contains(&true)
            && let Some(a) = problem.widest(best.window.clone(), best.offset)
            && a.steps != best.alignment.steps
        {
            out.push(self.weighed(ctx, best.reading, a, best.window.clone(), best.offset));
        }
        let mut tries: Vec<(usize, usize)> = Vec::new();
        for s in self.loose(ctx, best) {
            for f in best.window.clone() {
                if paired.binary_search(&f).is_ok() || !ctx.file[f].same(&self.search[s]) {
                    continue;
                }
                tries.push((s, f));
            }
        }
        let loose = tries.len();
        tries.extend(self.slides(ctx, best));
        for (k, (s, f)) in tries.into_iter().enumerate() {
            let Some(a) = problem.forced(best.window.clone(), best.offset, s, f) else {
                continue;
            };
            // A line slid onto its copy is another reading only where the
            // cost cannot tell the two apart; where it can, the model has
            // read the line's place, as it reads every other line's.
            if k >= loose && a.cost != best.alignment.cost {
                continue;
            }
            out.push(self.weighed(ctx, best.reading, a, best.window.clone(), best.offset));
        }
        for window in self.edges_across_gains(ctx, best, &written_out) {
            if let Some(a) = problem.align(window, best.offset)
                && a.steps != best.alignment.steps
            {
                out.push(self.weighed(ctx, best.reading, a, best.window.clone(), best.offset));
            }
        }
        out
    }

    /// Windows that end (start) before the file lines `place` reads as gained
    /// between the search's last (first) two lines of text: the edge line
    /// paired across lines gained since is as well read as a line lost
    /// since, and the gained lines as lines past the place. A line the
    /// caller repeats by a slip (`codec = codec` twice) pairs with the next
    /// block's copy of it as readily as it is read as lost, and which of the
    /// two the cost takes says nothing of where the caller's block ends.
    fn edges_across_gains(
        &self,
        ctx: &Ctx<'_, '_>,
        place: &Place,
        written_out: &[Option<u32>],
    ) -> Vec<Range<usize>> {
        let steps = &place.alignment.steps;
        let text_pairs: Vec<usize> = (0..steps.len())
            .filter(|&k| matches!(steps[k], Step::Pair { s, .. } if !self.search[s].is_blank()))
            .collect();
        let gained = |step: &Step| match *step {
            Step::FileOnly { f } if !ctx.file[f].is_blank() && written_out[f].is_none() => Some(f),
            _ => None,
        };
        let gap = |a: usize, b: usize| {
            let between = &steps[a + 1..b];
            let hides = between.iter().any(|s| matches!(s, Step::Hidden { .. }));
            let gains: Vec<usize> = between.iter().filter_map(gained).collect();
            if hides { Vec::new() } else { gains }
        };
        let mut out = Vec::new();
        let [first, second, ..] = text_pairs[..] else {
            return out;
        };
        let window = &place.window;
        if let Some(&last_gain) = gap(first, second).last() {
            out.push(last_gain + 1..window.end);
        }
        let [.., before_last, last] = text_pairs[..] else {
            return out;
        };
        if let Some(&first_gain) = gap(before_last, last).first() {
            out.push(window.start..first_gain);
        }
        out
    }

    /// Search lines of text that `place` pairs, with each copy of their
    /// line that `place` leaves unpaired between the file lines paired
    /// before and after them, as (search line, file line), at most
    /// [`MOST_SLIDES`]. Pairing the line with the copy instead is another
    /// reading of the same lines: `#endif` paired with the first of two
    /// `#endif`s, the second left past the place, or with the second, the
    /// first written out among the lines before it. Nothing in the cost
    /// tells two such readings apart, so they must make one edit.
    fn slides(&self, ctx: &Ctx<'_, '_>, place: &Place) -> Vec<(usize, usize)> {
        let pairs: Vec<(usize, usize)> = place
            .alignment
            .steps
            .iter()
            .filter_map(|step| match *step {
                Step::Pair { s, f } => Some((s, f)),
                _ => None,
            })
            .collect();
        let mut out = Vec::new();
        for (k, &(s, f)) in pairs.iter().enumerate() {
            if self.search[s].is_blank() || self.search_markers[s] {
                continue;
            }
            let lo = if k == 0 {
                place.window.start
            } else {
                pairs[k - 1].1 + 1
            };
            let hi = pairs.get(k + 1).map_or(place.window.end, |p| p.1);
            for g in (lo..hi).filter(|&g| g != f && ctx.file[g].same(&self.search[s])) {
                if out.len() == MOST_SLIDES {
                    return out;
                }
                out.push((s, g));
            }
        }
        out
    }

    /// Search lines with text that `place` leaves unpaired or pairs with a
    /// line that differs beyond noise.
    pub(super) fn loose(&self, ctx: &Ctx<'_, '_>, place: &Place) -> Vec<usize> {
        let mut out = Vec::new();
        for step in &place.alignment.steps {
            match *step {
                Step::SearchOnly { s } if !self.search[s].is_blank() && !self.search_markers[s] => {
                    out.push(s)
                }
                Step::Pair { s, f }
                    if likeness(&self.search[s].key, &ctx.file[f].key) == Likeness::Differs =>
                {
                    out.push(s)
                }
                _ => {}
            }
        }
        out
    }

    /// Places around the file's other copies of search lines the place `best`
    /// could not pair as they are: the block may be there instead.
    pub(crate) fn elsewhere(&self, ctx: &Ctx<'_, '_>, reading: usize, best: &Place) -> Vec<Place> {
        let region = &best.alignment.region;
        let unpaired = self.loose(ctx, best);
        let m = self.search.len();
        let margin = COSTS.window_margin;
        let mut out: Vec<Place> = Vec::new();
        let mut looked = 0;
        for s in unpaired {
            for (f, row) in ctx.file.iter().enumerate() {
                if looked >= COSTS.elsewhere_places {
                    return out;
                }
                if region.contains(&f) || !row.same(&self.search[s]) {
                    continue;
                }
                looked += 1;
                let lo = f.saturating_sub(s + margin);
                let hi = (f + (m - s) + margin).min(ctx.file.len());
                if let Some(p) = self.place(ctx, reading, lo..hi) {
                    out.push(p);
                }
            }
        }
        out
    }
}
