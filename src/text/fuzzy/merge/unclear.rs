//! Where a line the caller adds has no one place in the file: next to a run
//! of blank lines the search and the file count differently, or beside
//! lines the search has in another order than the file. Either is a guess,
//! so the merge refuses it.

use std::ops::Range;

use super::super::costs::COSTS;
use super::super::rows::Row;
use super::{Chunk, Clash, FileSide, Ours, Sides};

impl Sides<'_, '_> {
    /// A line the caller adds beside a search line that the alignment left
    /// without a file line while the file has it nearby, in the region
    /// unpaired or just past its edge; or a line added at the block's edge,
    /// where the line just past that edge is such a line. The search has its
    /// lines in another order than the file there, so both sides insert at
    /// one point, as a three-way merge would say: which side of the moved
    /// line the new one goes is a guess, and the edit is refused.
    pub(super) fn unclear_order(
        &self,
        ours: &[Ours],
        side: &[FileSide],
        base_of: &[Option<usize>],
    ) -> Option<Clash> {
        let region = &self.alignment.region;
        let nonblank = |mut f: usize, up: bool| -> Option<usize> {
            loop {
                if !self.file.get(f)?.is_blank() {
                    return Some(f);
                }
                f = if up { f.checked_sub(1)? } else { f + 1 };
            }
        };
        let past_end = nonblank(region.end, false);
        let before_start = region.start.checked_sub(1).and_then(|f| nonblank(f, true));
        // A copy of a line at another depth than the paired lines give (a
        // `}` of an outer block) is another line.
        let frame = self.file_depth();
        // The file line where search line `s`, which the alignment left
        // without one, stands out of order.
        let moved = |s: usize, edges: &[Option<usize>]| -> Option<usize> {
            if ours[s] != Ours::Missing || self.base[s].is_blank() || self.base_markers[s] {
                return None;
            }
            let unpaired = region
                .clone()
                .filter(|&f| side[f - region.start] == FileSide::Extra);
            unpaired.chain(edges.iter().flatten().copied()).find(|&f| {
                let depth = self.file[f].width as isize - self.base[s].width as isize;
                self.file[f].key == self.base[s].key && depth == frame
            })
        };
        // A line of new_content that rewrites a search line it drops, between
        // the lines it keeps on either side, takes that line's place,
        // wherever the file has the others.
        let rewrites = |t: usize, between: Range<usize>| {
            between.into_iter().any(|s| {
                !self.base[s].is_blank()
                    && !base_of.contains(&Some(s))
                    && rapidfuzz::fuzz::ratio(self.base[s].key.chars(), self.theirs[t].key.chars())
                        >= COSTS.paired_rewrite
            })
        };
        let missing: Vec<usize> = (0..self.base.len())
            .filter(|&s| ours[s] == Ours::Missing)
            .collect();
        if missing.is_empty() {
            return None;
        }
        for t in 0..self.theirs.len() {
            if base_of[t].is_some() || self.theirs[t].is_blank() || self.theirs_markers[t] {
                continue;
            }
            // The lines of text kept on either side: blank lines kept
            // between the new line and the block's edge leave it at the edge.
            let kept_text = |k: usize| base_of[k].filter(|&s| !self.base[s].is_blank());
            let before = (0..t).rev().find_map(kept_text);
            let after = (t + 1..self.theirs.len()).find_map(kept_text);
            if rewrites(
                t,
                before.map_or(0, |s| s + 1)..after.unwrap_or(self.base.len()),
            ) {
                continue;
            }
            let edges = [past_end, before_start];
            for s in [before, after].into_iter().flatten() {
                if let Some(f) = moved(s, &edges) {
                    return Some(Clash::OutOfOrder { s, f });
                }
            }
            let edge = match (before, after) {
                (Some(_), None) => past_end,
                (None, Some(_)) => before_start,
                _ => None,
            };
            for &s in &missing {
                if let Some(f) = moved(s, &[edge]).filter(|&f| Some(f) == edge) {
                    return Some(Clash::OutOfOrder { s, f });
                }
            }
        }
        None
    }

    /// A line the caller adds next to a run of blank lines that the search
    /// and the file count differently: which blank lines it goes between is
    /// anyone's guess, so the edit is refused rather than guessed.
    pub(super) fn unclear_blank_run(
        &self,
        ours: &[Ours],
        side: &[FileSide],
        base_of: &[Option<usize>],
    ) -> Option<Clash> {
        let start = self.alignment.region.start;
        for t in 0..self.theirs.len() {
            if base_of[t].is_some() || self.theirs[t].is_blank() || self.glued(t, base_of) {
                continue;
            }
            let before = (0..t).rev().find_map(|k| base_of[k]);
            let after = (t + 1..self.theirs.len()).find_map(|k| base_of[k]);
            let blank = |s: Option<usize>| s.is_some_and(|s| self.base[s].is_blank());
            let Some(seed) = (if blank(before) {
                before
            } else {
                after.filter(|_| blank(after))
            }) else {
                continue;
            };
            let mut lo = seed;
            while lo > 0 && self.base[lo - 1].is_blank() {
                lo -= 1;
            }
            let mut hi = seed;
            while hi + 1 < self.base.len() && self.base[hi + 1].is_blank() {
                hi += 1;
            }
            // A line that rewrites the search line next to the run takes
            // that line's place, whatever the run's count.
            let rewrites = [lo.wrapping_sub(1), hi + 1].into_iter().any(|s| {
                s < self.base.len()
                    && !self.base[s].is_blank()
                    && !base_of.contains(&Some(s))
                    && rapidfuzz::fuzz::ratio(self.base[s].key.chars(), self.theirs[t].key.chars())
                        >= COSTS.paired_rewrite
            });
            // With every blank line of the run missing from the file (or
            // every one there), no blank line is in question.
            let mixed = (lo..=hi).any(|s| ours[s] == Ours::Missing)
                && (lo..=hi).any(|s| ours[s] != Ours::Missing);
            if rewrites {
                continue;
            }
            if mixed {
                // A run the file counts shorter: which of its blank lines
                // the new line goes between is a guess.
                let s = (lo..=hi).find(|&s| ours[s] == Ours::Missing)?;
                let f = (lo..=hi)
                    .find_map(|x| match ours[x] {
                        Ours::Pair(f, _) => Some(f),
                        _ => None,
                    })
                    .unwrap_or(start);
                return Some(Clash::LineMissing { s, f });
            }
            if let Some(clash) = self.spare_blank_beside(lo, hi, ours, side) {
                return Some(clash);
            }
        }
        None
    }

    /// Blank lines in chunk `c` of the base, the file and theirs.
    pub(super) fn blank_counts(&self, c: &Chunk) -> (usize, usize, usize) {
        let count = |rows: &[Row<'_>], r: Range<usize>| r.filter(|&k| rows[k].is_blank()).count();
        (
            count(self.base, c.base.clone()),
            count(self.file, c.ours.clone()),
            count(self.theirs, c.theirs.clone()),
        )
    }

    /// The caller changes the count of blank lines where the search and the
    /// file count them differently: which it meant is a guess. Counted
    /// between the lines of text theirs writes in place of the search's
    /// (`pairs`, as [`Self::positional_pairs`] gives them), so that a run
    /// the caller sets to the file's count beside a run it leaves alone is
    /// no guess, as long as each blank line the caller keeps is in the
    /// piece it is kept in.
    pub(super) fn blank_count_guessed(
        &self,
        c: &Chunk,
        pairs: &[(usize, (usize, usize))],
        base_of: &[Option<usize>],
    ) -> Option<Clash> {
        let guessed = |piece: &Chunk| {
            let (base, file, theirs) = self.blank_counts(piece);
            let runs = piece
                .base
                .clone()
                .filter(|&s| {
                    self.base[s].is_blank()
                        && (s == piece.base.start || !self.base[s - 1].is_blank())
                })
                .count();
            let to_file = theirs == file && runs <= 1;
            base != file && theirs != base && !to_file
        };
        let clash = || {
            let (base, file, _) = self.blank_counts(c);
            let s = c
                .base
                .clone()
                .find(|&s| self.base[s].is_blank())
                .unwrap_or(c.base.start.min(self.base.len().saturating_sub(1)));
            let f = c.ours.start.min(self.file.len().saturating_sub(1));
            if base > file {
                Clash::LineMissing { s, f }
            } else {
                Clash::ExtraLine { s, f }
            }
        };
        if !guessed(c) {
            return None;
        }
        let mut from = (c.base.start, c.ours.start, c.theirs.start);
        let ends = pairs.iter().map(|&(t, (s, f))| (s, f, t)).chain([(
            c.base.end,
            c.ours.end,
            c.theirs.end,
        )]);
        for (s, f, t) in ends {
            let piece = Chunk {
                base: from.0..s,
                ours: from.1..f,
                theirs: from.2..t,
                shift: c.shift,
            };
            // The blank lines the caller keeps must be the piece's own: the
            // merge writes them where the caller's diff kept them.
            let own = piece.theirs.clone().all(|t| match base_of[t] {
                Some(s) if self.base[s].is_blank() => piece.base.contains(&s),
                _ => true,
            });
            if guessed(&piece) || !own {
                return Some(clash());
            }
            from = (s + 1, f + 1, t + 1);
        }
        None
    }

    /// Whether line `t` of theirs, which the caller adds, touches a line of
    /// text the caller keeps, with only added lines of text between: it
    /// goes right beside that line, so no run of blank lines has it inside.
    fn glued(&self, t: usize, base_of: &[Option<usize>]) -> bool {
        let touches = |mut ks: Box<dyn Iterator<Item = usize>>| {
            ks.find(|&k| self.theirs[k].is_blank() || base_of[k].is_some())
                .and_then(|k| base_of[k])
                .is_some_and(|s| !self.base[s].is_blank())
        };
        touches(Box::new((0..t).rev())) || touches(Box::new(t + 1..self.theirs.len()))
    }

    /// A blank line only the file has, next to a blank line of the search's
    /// run `lo..=hi` that the file has too: the file counts the run longer.
    fn spare_blank_beside(
        &self,
        lo: usize,
        hi: usize,
        ours: &[Ours],
        side: &[FileSide],
    ) -> Option<Clash> {
        let start = self.alignment.region.start;
        for (x, paired) in ours.iter().enumerate().take(hi + 1).skip(lo) {
            let Ours::Pair(f, _) = *paired else { continue };
            let spare = |g: usize| {
                g >= start
                    && g < start + side.len()
                    && side[g - start] == FileSide::Extra
                    && self.file[g].is_blank()
            };
            if let Some(g) = [f.wrapping_sub(1), f + 1].into_iter().find(|&g| spare(g)) {
                return Some(Clash::ExtraLine { s: x, f: g });
            }
        }
        None
    }
}
