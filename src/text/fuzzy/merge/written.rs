//! The chunks of the merge where `new_content` writes out file lines the
//! search hides or replaces lines by position: which of theirs' lines
//! stand for which file lines, and which base lines theirs keeps where a
//! marker's lines are written out.

use std::ops::Range;

use super::super::align::Step;
use super::super::costs::COSTS;
use super::super::diff::{kept_pairs, kept_pairs_fine_first};
use super::super::likeness::{Likeness, likeness};
use super::super::rows::Row;
use super::shift::{commonest, deep_key};
use super::{Anchor, Chunk, Clash, FileSide, Merged, Ours, Out, Sides, fine_keys};

/// A line of `new_content` (`t`) written over a line a marker stands for
/// (file line `f`) that reads as another line the file has elsewhere.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Remembered {
    pub t: usize,
    pub f: usize,
}
impl Sides<'_, '_> {
    /// The base lines theirs keeps, as (base line, theirs line).
    ///
    /// A marker theirs does not keep is read both as itself and as the file
    /// lines it hides, and the reading that pairs more of theirs wins (the
    /// marker itself on a tie). Where theirs writes the hidden lines out,
    /// they pair with those lines, so that no base line is paired across
    /// them: blank lines the search has after a marker are otherwise
    /// matched to the blank lines inside the lines written out for it, and
    /// the file's own blank lines there are lost.
    pub(super) fn caller_pairs(
        &self,
        (bf, bk): (&[String], &[String]),
        tk: &[String],
        ours: &[Ours],
    ) -> Vec<(usize, usize)> {
        let tf = fine_keys(self.theirs, tk);
        let plain = kept_pairs_fine_first((bf, &tf), (bk, tk));
        let unkept = |s: usize| {
            matches!(&ours[s], Ours::Hidden(r) if !r.is_empty())
                && !plain.iter().any(|&(b, _)| b == s)
        };
        if !(0..bk.len()).any(unkept) {
            return plain;
        }
        let depth = self.file_depth();
        let mut rows: Vec<&Row<'_>> = Vec::with_capacity(bk.len());
        let mut expanded: Vec<String> = Vec::with_capacity(bk.len());
        let mut origin: Vec<Option<usize>> = Vec::with_capacity(bk.len());
        for (s, key) in bk.iter().enumerate() {
            match &ours[s] {
                Ours::Hidden(r) if unkept(s) => {
                    for row in &self.file[r.clone()] {
                        rows.push(row);
                        expanded.push(deep_key(row, &row.key, row.width as isize - depth));
                        origin.push(None);
                    }
                }
                _ => {
                    rows.push(&self.base[s]);
                    expanded.push(key.clone());
                    origin.push(Some(s));
                }
            }
        }
        let fine = fine_keys(rows, &expanded);
        let read_out = kept_pairs_fine_first((&fine, &tf), (&expanded, tk));
        if read_out.len() <= plain.len() {
            return plain;
        }
        shown_first(&fine, &origin, read_out)
            .into_iter()
            .filter_map(|(e, t)| origin[e].map(|s| (s, t)))
            .collect()
    }

    /// How much deeper the file indents than the search: the commonest
    /// difference over the lines of text the alignment pairs.
    pub(super) fn file_depth(&self) -> isize {
        commonest(self.alignment.steps.iter().filter_map(|step| {
            let Step::Pair { s, f } = *step else {
                return None;
            };
            let (b, f) = (&self.base[s], &self.file[f]);
            (!b.is_blank() && b.same(f)).then(|| f.width as isize - b.width as isize)
        }))
    }

    /// Theirs' lines paired with the base and file lines they replace: the
    /// pairing in order that is most alike in total, each pair at least
    /// `paired_rewrite` alike (lines theirs adds in between stay unpaired).
    /// The most alike, not the first alike: a line added before the rewrite
    /// of a line must not take that line's place.
    pub(super) fn positional_pairs(
        &self,
        c: &Chunk,
        ours: &[Ours],
    ) -> Vec<(usize, (usize, usize))> {
        let bases: Vec<(usize, usize)> = c
            .base
            .clone()
            .filter_map(|s| match ours[s] {
                Ours::Pair(f, _) if !self.base[s].is_blank() => Some((s, f)),
                _ => None,
            })
            .collect();
        let theirs: Vec<usize> = c
            .theirs
            .clone()
            .filter(|&t| !self.theirs[t].is_blank())
            .collect();
        let like = |i: usize, j: usize| {
            let (a, b) = (&self.base[bases[i].0].key, &self.theirs[theirs[j]].key);
            let r = rapidfuzz::fuzz::ratio(a.chars(), b.chars());
            (r >= COSTS.paired_rewrite).then_some(r)
        };
        let (n, m) = (bases.len(), theirs.len());
        // As many lines written as replaced: each takes the place of the one
        // at its position, however much it was rewritten (its indentation
        // and line ending follow that line's).
        if n == m {
            return theirs.into_iter().zip(bases).collect();
        }
        // best[i][j]: the most total likeness pairing bases[i..] with theirs[j..].
        let mut best = vec![vec![0.0f64; m + 1]; n + 1];
        for i in (0..n).rev() {
            for j in (0..m).rev() {
                let mut b = best[i + 1][j].max(best[i][j + 1]);
                if let Some(r) = like(i, j) {
                    b = b.max(r + best[i + 1][j + 1]);
                }
                best[i][j] = b;
            }
        }
        let mut out = Vec::new();
        let (mut i, mut j) = (0, 0);
        while i < n && j < m {
            match like(i, j) {
                Some(r) if best[i][j] == r + best[i + 1][j + 1] => {
                    out.push((theirs[j], bases[i]));
                    i += 1;
                    j += 1;
                }
                _ if best[i][j] == best[i + 1][j] => i += 1,
                _ => j += 1,
            }
        }
        out
    }

    /// Where the search hides lines of text (no marker) among lines the
    /// caller changes, and theirs writes every one of them out as the file
    /// has it, in order and at its depth: those lines, as (the first base
    /// line after it, file line, theirs' line). Each is then a line both
    /// sides keep, a fixed point of its own, and the chunk is merged piece
    /// by piece between them. `None` if the chunk has no such line, any of
    /// them is not written out, the search has a marker, or a line theirs
    /// keeps would fall on the other side of one.
    pub(super) fn shown_in_new(
        &self,
        c: &Chunk,
        side: &[FileSide],
        base_of: &[Option<usize>],
    ) -> Option<Vec<(usize, usize, usize)>> {
        let extra: Vec<usize> = c
            .ours
            .clone()
            .filter(|&f| side[f - c.ours.start] == FileSide::Extra && !self.file[f].is_blank())
            .collect();
        if extra.is_empty() {
            return None;
        }
        let depth = self.file_depth();
        let shown = |f: usize, t: usize| {
            let (a, b) = (&self.file[f], &self.theirs[t]);
            base_of[t].is_none()
                && a.same(b)
                && a.raw.trim() == b.raw.trim()
                && a.width as isize - depth == b.width as isize - c.shift
        };
        let mut pairs = Vec::with_capacity(extra.len());
        let mut next = c.theirs.start;
        for &f in &extra {
            let t = (next..c.theirs.end).find(|&t| shown(f, t))?;
            pairs.push((f, t));
            next = t + 1;
        }
        // Where each base line sits among the file's lines: at its pair, or
        // before the file line the alignment takes next.
        let mut at = vec![usize::MAX; self.base.len()];
        let mut next_f = self.alignment.region.start;
        for step in &self.alignment.steps {
            match *step {
                Step::Pair { s, f } => {
                    at[s] = f;
                    next_f = f + 1;
                }
                Step::SearchOnly { s } => at[s] = next_f,
                Step::FileOnly { f } => next_f = f + 1,
                Step::Hidden { .. } => return None,
            }
        }
        // A line theirs keeps stays on the side of each split its base line
        // is on.
        let consistent = c.theirs.clone().all(|t| match base_of[t] {
            Some(s) => pairs.iter().all(|&(f, tf)| (at[s] <= f) == (t < tf)),
            None => true,
        });
        if !consistent {
            return None;
        }
        Some(
            pairs
                .into_iter()
                .map(|(f, t)| {
                    let s = c.base.clone().find(|&s| at[s] > f).unwrap_or(c.base.end);
                    (s, f, t)
                })
                .collect(),
        )
    }

    /// Chunk `c` split before a marker that comes after lines the search
    /// shows (all paired with the file's), where its lines begin written
    /// out in theirs: at the first line like the first line of text it
    /// stands for, with no line theirs keeps on the other side of it. The
    /// lines of theirs before are the caller's change of the lines shown,
    /// and the marker opens a chunk of its own (whose merge finds whether
    /// the rest of its lines are written out).
    pub(super) fn split_at_marker(
        &self,
        c: &Chunk,
        ours: &[Ours],
        base_of: &[Option<usize>],
    ) -> Option<(Chunk, Chunk)> {
        let m = c
            .base
            .clone()
            .skip(1)
            .find(|&s| matches!(&ours[s], Ours::Hidden(r) if !r.is_empty()))?;
        let Ours::Hidden(r) = &ours[m] else {
            return None;
        };
        let shown = c.base.start..m;
        if !shown.clone().all(|s| matches!(ours[s], Ours::Pair(..))) {
            return None;
        }
        let first = r.clone().find(|&f| !self.file[f].is_blank())?;
        let mut t = c.theirs.clone().find(|&t| {
            let (a, b) = (&self.file[first].key, &self.theirs[t].key);
            a == b || likeness(a, b) != Likeness::Differs
        })?;
        // The marker's blank lines before its first line of text are its
        // own, written out before that line.
        for _ in r.start..first {
            if t == c.theirs.start || !self.theirs[t - 1].is_blank() {
                break;
            }
            t -= 1;
        }
        let consistent = c.theirs.clone().all(|u| match base_of[u] {
            Some(s) => shown.contains(&s) == (u < t),
            None => true,
        });
        if !consistent {
            return None;
        }
        let head = Chunk {
            base: c.base.start..m,
            theirs: c.theirs.start..t,
            ours: c.ours.start..r.start,
            shift: c.shift,
        };
        let rest = Chunk {
            base: m..c.base.end,
            theirs: t..c.theirs.end,
            ours: r.start..c.ours.end,
            shift: c.shift,
        };
        Some((head, rest))
    }

    /// Merges chunk `c` piece by piece between the lines `shown` (see
    /// [`Self::shown_in_new`]), each kept as the file has it.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn chunk_between(
        &self,
        c: Chunk,
        shown: Vec<(usize, usize, usize)>,
        ours: &[Ours],
        side: &[FileSide],
        base_of: &[Option<usize>],
        merged: &mut Merged,
        kept_differ: &mut Vec<(usize, Option<usize>)>,
    ) -> Result<(), Clash> {
        let (mut s0, mut t0, mut f0) = (c.base.start, c.theirs.start, c.ours.start);
        let end = (c.base.end, c.ours.end, c.theirs.end);
        for (s, f, t) in shown.into_iter().chain(std::iter::once(end)) {
            let piece = Chunk {
                base: s0..s,
                theirs: t0..t,
                ours: f0..f,
                shift: c.shift,
            };
            let sides = &side[f0 - c.ours.start..f - c.ours.start];
            self.chunk(piece, ours, sides, base_of, merged, kept_differ)?;
            if f < c.ours.end {
                merged.out.push(Out::Disk(f));
            }
            (s0, t0, f0) = (s, t + 1, f + 1);
        }
        Ok(())
    }

    /// The chunk as `new_content` writes out file lines the search hides:
    /// every such line of text has, in order, a line of theirs like it. A
    /// line a marker stands for may be written out rewritten: the caller
    /// knew it was there. A line the search lacks without a marker may be
    /// one the caller never saw (the file moved on), and a new line that
    /// looks like it is no claim to replace it, unless the caller writes out
    /// the lines around it as they are: at least two lines the same for
    /// each one rewritten. `closed`: the chunk ends where the lines written
    /// out end (theirs has no lines of later base lines in it).
    ///
    /// A line a marker stands for, written out as a line of another kind
    /// (another name, number or literal) that the file has outside the
    /// place, is no change the caller makes but a line the caller remembers
    /// from another block: that is [`Remembered`].
    pub(super) fn written_out(
        &self,
        c: &Chunk,
        hidden: impl Fn(usize) -> bool,
        closed: bool,
    ) -> Result<Option<Vec<Out>>, Remembered> {
        let Some(out) = self
            .written_out_as(c, &hidden, false, closed)
            .or_else(|| self.written_out_as(c, &hidden, true, closed))
        else {
            return Ok(None);
        };
        let region = &self.alignment.region;
        let elsewhere = |t: usize| {
            let key = &self.theirs[t].key;
            self.file
                .iter()
                .enumerate()
                .any(|(g, r)| !region.contains(&g) && &r.key == key)
        };
        for o in &out {
            if let Out::New {
                t,
                anchor: Some(Anchor::Rewrites { f }),
            } = *o
                && hidden(f)
                && likeness(&self.file[f].key, &self.theirs[t].key) == Likeness::Differs
                && elsewhere(t)
            {
                return Err(Remembered { t, f });
            }
        }
        Ok(Some(out))
    }

    /// Chunk `c` where the search hides lines without a marker among
    /// lines it shows, and theirs writes the hidden lines out, some
    /// rewritten, with the caller's changes of the lines shown among them:
    /// as [`Self::written_out`] with the lines shown taken as seen, where
    /// the file has every one of them as the search does (a line the file
    /// changed and the caller changes too is a conflict, not a rewrite).
    pub(super) fn written_out_around(
        &self,
        c: &Chunk,
        ours: &[Ours],
        side: &[FileSide],
    ) -> Option<Vec<Out>> {
        let at = |f: usize| side[f - c.ours.start];
        let shown_as_is = c.base.clone().all(|s| match &ours[s] {
            Ours::Pair(_, like) => *like != Likeness::Differs,
            Ours::Missing => self.base[s].is_blank(),
            Ours::Hidden(_) => false,
        });
        let left_out = c
            .ours
            .clone()
            .any(|f| at(f) == FileSide::Extra && !self.file[f].is_blank());
        // Blank lines the caller counts otherwise than both the search and
        // the file: which of them it meant where is a guess.
        let (blanks_base, blanks_file, blanks_theirs) = self.blank_counts(c);
        if !shown_as_is
            || !left_out
            || (blanks_theirs != blanks_base && blanks_theirs != blanks_file)
        {
            return None;
        }
        self.written_out_as(c, &|f| at(f) == FileSide::Paired, true, true)
    }

    /// The clash of `e` in chunk `c`: the marker whose lines hold its line.
    pub(super) fn remembered(&self, e: Remembered, c: &Chunk, ours: &[Ours]) -> Clash {
        let hiding = |s: &usize| matches!(&ours[*s], Ours::Hidden(r) if r.contains(&e.f));
        let s = c.base.clone().find(hiding).unwrap_or(c.base.start);
        let hidden = match &ours[s] {
            Ours::Hidden(r) => r.clone(),
            _ => e.f..e.f + 1,
        };
        Clash::HiddenRemembered {
            s,
            f: e.f,
            t: e.t,
            hidden,
        }
    }

    /// [`Self::written_out`], with unmarked lines rewritten if `rewrites`.
    fn written_out_as(
        &self,
        c: &Chunk,
        hidden: &impl Fn(usize) -> bool,
        rewrites: bool,
        closed: bool,
    ) -> Option<Vec<Out>> {
        let text = |rows: &[Row<'_>], r: Range<usize>| -> Vec<usize> {
            r.filter(|&k| !rows[k].is_blank()).collect()
        };
        let (lines, texts) = (
            text(self.file, c.ours.clone()),
            text(self.theirs, c.theirs.clone()),
        );
        let keys = |rows: &[Row<'_>], at: &[usize]| -> Vec<String> {
            at.iter().map(|&k| rows[k].key.clone()).collect()
        };
        let kept = kept_pairs(&keys(self.file, &lines), &keys(self.theirs, &texts));
        let mut matched: Vec<(usize, usize)> = Vec::new();
        let alike = |f: usize, t: usize| {
            let (a, b) = (&self.file[f].key, &self.theirs[t].key);
            likeness(a, b) != Likeness::Differs
                || ((hidden(f) || rewrites)
                    && rapidfuzz::fuzz::ratio(a.chars(), b.chars()) >= COSTS.rewritten)
        };
        // Between lines written out as they are, the file's other lines of
        // text are written out alike, in order; or, where as many lines of
        // theirs stand between the same two lines (or the chunk's closed
        // ends), one for one, however much each was rewritten: a line like
        // it further on is another line.
        let (mut i0, mut j0) = (0, 0);
        let ends = kept.iter().copied().chain([(lines.len(), texts.len())]);
        for (i1, j1) in ends {
            let bounded = closed || i1 < lines.len();
            let gap = &lines[i0..i1];
            let one_for_one =
                bounded && gap.len() == j1 - j0 && gap.iter().all(|&f| hidden(f) || rewrites);
            if one_for_one {
                matched.extend(texts[j0..j1].iter().copied().zip(gap.iter().copied()));
            } else {
                // Alike in order; the lines left over between two lines so
                // paired go one for one, as above, if they are as many.
                let (mut next, mut from) = (j0, j0);
                let mut left: Vec<usize> = Vec::new();
                for k in 0..=gap.len() {
                    let f = gap.get(k).copied();
                    let j = f.and_then(|f| (next..j1).find(|&j| alike(f, texts[j])));
                    if let (Some(f), None) = (f, j) {
                        left.push(f);
                        continue;
                    }
                    let to = j.unwrap_or(j1);
                    if !left.is_empty() {
                        let even = left.len() == to - from
                            && (bounded || j.is_some())
                            && left.iter().all(|&f| hidden(f) || rewrites);
                        if !even {
                            return None;
                        }
                        matched.extend(texts[from..to].iter().copied().zip(left.drain(..)));
                    }
                    if let (Some(f), Some(j)) = (f, j) {
                        matched.push((texts[j], f));
                        (next, from) = (j + 1, j + 1);
                    }
                }
            }
            if i1 < lines.len() {
                matched.push((texts[j1], lines[i1]));
            }
            (i0, j0) = (i1 + 1, j1 + 1);
        }
        let same = matched
            .iter()
            .filter(|&&(t, f)| self.file[f].same(&self.theirs[t]))
            .count();
        let rewritten = matched
            .iter()
            .filter(|&&(t, f)| !self.file[f].same(&self.theirs[t]) && !hidden(f))
            .count();
        if rewrites && same < 2 * rewritten {
            return None;
        }
        let blanks = self.written_blanks(c, &matched);
        Some(
            c.theirs
                .clone()
                .map(|t| match matched.iter().find(|(tt, _)| *tt == t) {
                    Some((_, f)) if self.file[*f].same(&self.theirs[t]) => Out::Disk(*f),
                    Some((_, f)) => Out::New {
                        t,
                        anchor: Some(Anchor::Rewrites { f: *f }),
                    },
                    None => match blanks.iter().find(|(tt, _)| *tt == t) {
                        Some(&(_, f)) => Out::Disk(f),
                        None => Out::New { t, anchor: None },
                    },
                })
                .collect(),
        )
    }

    /// Where `out` (a marker's lines written out, in theirs' order) goes on
    /// past its last line written out, `end`, with lines new_content adds
    /// and then blank lines, while the marker's lines from `past` to
    /// `run_end` are blank: how many lines are added, and how many of the
    /// marker's blank lines new_content writes out after them. Those are
    /// the marker's, written out after the added lines: new_content's order
    /// stands, and the added lines do not go in past them.
    pub(super) fn blanks_after_added(
        &self,
        out: &[Out],
        end: usize,
        past: usize,
        run_end: usize,
    ) -> Option<(usize, usize)> {
        if !(past..run_end).all(|f| self.file[f].is_blank()) {
            return None;
        }
        let blank =
            |o: &Out| matches!(*o, Out::New { t, anchor: None } if self.theirs[t].is_blank());
        let added = out[end + 1..]
            .iter()
            .take_while(|o| matches!(**o, Out::New { anchor: None, .. }) && !blank(o))
            .count();
        let blanks = out[end + 1 + added..]
            .iter()
            .take_while(|o| blank(o))
            .count();
        let taken = blanks.min(run_end - past);
        (added > 0 && taken > 0).then_some((added, taken))
    }

    /// Theirs' blank lines that stand for the file's, as (theirs' line,
    /// file line): between two lines written out, the blank lines at either
    /// end of theirs take the file's there, in order, so that a blank line
    /// the caller writes out keeps the file's bytes (its spaces).
    fn written_blanks(&self, c: &Chunk, matched: &[(usize, usize)]) -> Vec<(usize, usize)> {
        let mut bounds = vec![(c.theirs.start, c.ours.start)];
        bounds.extend(matched.iter().map(|&(t, f)| (t + 1, f + 1)));
        let mut ends: Vec<(usize, usize)> = matched.to_vec();
        ends.push((c.theirs.end, c.ours.end));
        let mut out = Vec::new();
        for (&(t0, f0), &(t1, f1)) in bounds.iter().zip(&ends) {
            // Every line of the file in between is blank: the lines of text
            // are all matched.
            let file: Vec<usize> = (f0..f1).collect();
            let theirs: Vec<usize> = (t0..t1).collect();
            let blank = |t: &&usize| self.theirs[**t].is_blank();
            let lead = theirs.iter().take_while(blank).count().min(file.len());
            out.extend(
                theirs[..lead]
                    .iter()
                    .copied()
                    .zip(file[..lead].iter().copied()),
            );
            let trail = theirs[lead..]
                .iter()
                .rev()
                .take_while(blank)
                .count()
                .min(file.len() - lead);
            out.extend(
                theirs[theirs.len() - trail..]
                    .iter()
                    .copied()
                    .zip(file[file.len() - trail..].iter().copied()),
            );
        }
        out
    }
}

impl Sides<'_, '_> {
    /// `out` as [`Self::with_file_blanks`] has it where the caller kept the
    /// search's count of blank lines and the file counts them otherwise:
    /// the file's blank lines stay, wherever the search miscounted.
    pub(super) fn file_blanks_if_kept(&self, c: &Chunk, out: Vec<Out>) -> Vec<Out> {
        let (base, file, theirs) = self.blank_counts(c);
        if theirs == base && base != file {
            self.with_file_blanks(c, out)
        } else {
            out
        }
    }

    /// `out` (theirs' order) with the file's blank lines of the chunk in
    /// place of theirs': each blank line of theirs takes the file's next one
    /// before the next line of text, and the file's others stay where they
    /// are.
    pub(super) fn with_file_blanks(&self, c: &Chunk, out: Vec<Out>) -> Vec<Out> {
        let blanks: Vec<usize> = c
            .ours
            .clone()
            .filter(|&f| self.file[f].is_blank())
            .collect();
        let text_line = |o: &Out| match *o {
            Out::Disk(f) if !self.file[f].is_blank() => Some(f),
            Out::New {
                anchor: Some(Anchor::Rewrites { f }),
                ..
            } => Some(f),
            _ => None,
        };
        // For each position, the file line of the next line of text.
        let mut upcoming = vec![usize::MAX; out.len() + 1];
        for k in (0..out.len()).rev() {
            upcoming[k] = text_line(&out[k]).unwrap_or(upcoming[k + 1]);
        }
        let mut result = Vec::new();
        let mut next = 0;
        for (k, o) in out.into_iter().enumerate() {
            let blank = match o {
                Out::New { t, .. } => self.theirs[t].is_blank(),
                Out::Disk(f) => self.file[f].is_blank(),
            };
            if blank {
                if next < blanks.len() && blanks[next] < upcoming[k] {
                    result.push(Out::Disk(blanks[next]));
                    next += 1;
                }
                continue;
            }
            if let Some(f) = text_line(&o) {
                while next < blanks.len() && blanks[next] < f {
                    result.push(Out::Disk(blanks[next]));
                    next += 1;
                }
            }
            result.push(o);
        }
        result.extend(blanks[next..].iter().map(|&f| Out::Disk(f)));
        result
    }
}

/// File lines the alignment leaves unpaired right beside a marker are lines
/// the search does not show there: the marker's. They are its to write out
/// or keep, not lines the file gained among the caller's.
pub(super) fn markers_take_unpaired_beside(
    ours: &mut [Ours],
    side: &mut [FileSide],
    region: &Range<usize>,
) {
    for hidden in ours.iter_mut() {
        let Ours::Hidden(r) = hidden else { continue };
        let extra = |side: &[FileSide], f: usize| side[f - region.start] == FileSide::Extra;
        while r.start > region.start && extra(side, r.start - 1) {
            r.start -= 1;
        }
        while r.end < region.end && extra(side, r.end) {
            r.end += 1;
        }
        for f in r.clone() {
            side[f - region.start] = FileSide::Hidden;
        }
    }
}

/// `pairs` (of the search with a marker's hidden lines read out, and
/// theirs) with each run of equal lines kept by its shown lines first:
/// which of equal neighbours a diff keeps is arbitrary, and a line the
/// caller shows and keeps is its claim, where a hidden one kept in its
/// place would read the shown one as dropped (a blank line before a marker
/// that hides another: the caller kept one, and the file keeps both).
fn shown_first(
    keys: &[String],
    origin: &[Option<usize>],
    mut pairs: Vec<(usize, usize)>,
) -> Vec<(usize, usize)> {
    let mut start = 0;
    while start < keys.len() {
        let end = start
            + keys[start..]
                .iter()
                .take_while(|k| **k == keys[start])
                .count();
        let kept: Vec<usize> = (0..pairs.len())
            .filter(|&k| (start..end).contains(&pairs[k].0))
            .collect();
        if !kept.is_empty() && kept.len() < end - start {
            let mut lines: Vec<usize> = (start..end).filter(|&e| origin[e].is_some()).collect();
            lines.extend((start..end).filter(|&e| origin[e].is_none()));
            lines.truncate(kept.len());
            lines.sort_unstable();
            for (k, e) in kept.into_iter().zip(lines) {
                pairs[k].0 = e;
            }
        }
        start = end;
    }
    pairs
}
