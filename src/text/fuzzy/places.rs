//! Where the search could be: the cheap candidate search proposes windows of
//! the file, and the alignment model prices the search in each. Every
//! reading of the caller's texts (see [`super::artifacts`]) is placed the
//! same way, and all places compete under one rule ([`super::decide`]).

use std::collections::HashMap;
use std::ops::Range;

use super::align::{Alignment, Problem, Step};
use super::artifacts::Reading;
use super::block::Lines as BlockLines;
use super::candidates::{Probe, Window};
use super::context::Ctx;
use super::costs::COSTS;
use super::diff;
use super::likeness::{Likeness, likeness, reads_literally};
use super::markers;
use super::outcome::Adjustment;
use super::rows::{self, Comparer, Row};

mod rivals;

/// One reading, ready to be aligned.
pub(crate) struct Prepared<'a> {
    pub reading: &'a Reading,
    pub search: Vec<Row<'a>>,
    pub new: Vec<Row<'a>>,
    pub search_markers: Vec<bool>,
    pub new_markers: Vec<bool>,
    comparers: Vec<Comparer>,
    /// Keys of `new_content` lines the search lacks, or has fewer copies of.
    new_only: HashMap<String, usize>,
    /// How many lines of text `new_content` has beyond the search's copies
    /// of them (a repeated line counts each time).
    new_only_lines: usize,
    /// What the search weighs.
    weight: u32,
    /// Search lines `new_content` keeps as they are: the caller's claim
    /// about what the file says there.
    kept: Vec<bool>,
    /// For each search line `new_content` rewrites, the key of the line it
    /// writes for it.
    rewrites: Vec<Option<String>>,
}

/// The lines of text a place reads as drift, by kind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Drift {
    /// Search lines it leaves unpaired, and file lines inside it that pair
    /// with no search line and that `new_content` does not write out (lines
    /// lost or gained since the caller read the file).
    pub unpaired: usize,
    /// Search lines it pairs with a file line that differs beyond noise.
    pub differing: usize,
    /// What its lost lines cost beyond the flat price of a gained one: the
    /// part of its edits that is only the length of those lines.
    pub lengths: u32,
}

/// How literally a place reads the search's lines of text.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Literal {
    /// How many it pairs with a file line that it reads literally (see
    /// [`reads_literally`]).
    pub lines: usize,
    /// Those of them that `new_content` keeps, as search lines.
    pub kept: Vec<usize>,
    /// Lines `new_content` keeps that it pairs with a file line reading
    /// otherwise beyond noise (lines remembered stale, or another block's)
    /// and not literally: a line copied without its comment is the
    /// caller's code, not another block's.
    pub stale: Vec<usize>,
}

/// For each search line of text that `new_content` rewrites, the key of the
/// line written for it: where as many lines of text are written between two
/// kept lines as the search has there, each in turn, however unlike (a file
/// line that reads as the caller's rewrite is both sides making one change,
/// as `git merge-file` reads it). Elsewhere lines are added or dropped
/// besides, and which line stands for which is a guess.
fn rewrites(
    search: &[Option<String>],
    new: &[Option<String>],
    kept: &[(usize, usize)],
) -> Vec<Option<String>> {
    let text = |k: &Option<String>| k.as_deref().is_some_and(|l| !l.is_empty());
    let mut out = vec![None; search.len()];
    let mut from = (0, 0);
    for &(ks, kt) in kept
        .iter()
        .chain(std::iter::once(&(search.len(), new.len())))
    {
        let theirs: Vec<&String> = new[from.1..kt]
            .iter()
            .filter(|k| text(k))
            .flatten()
            .collect();
        let mine: Vec<usize> = (from.0..ks).filter(|&s| text(&search[s])).collect();
        if mine.len() == theirs.len() {
            for (&s, t) in mine.iter().zip(theirs) {
                out[s] = Some(t.clone());
            }
        }
        from = (ks + 1, kt + 1);
    }
    out
}

/// A way the search fits the file.
#[derive(Debug, Clone)]
pub(crate) struct Place {
    /// Index of the reading.
    pub reading: usize,
    pub alignment: Alignment,
    /// The search's weight and the region's, together.
    pub weight: u32,
    /// The file lines it was aligned in, and the frame.
    pub window: Range<usize>,
    pub offset: isize,
}

impl Place {
    /// File lines the search's lines are paired with.
    pub(crate) fn paired(&self) -> impl Iterator<Item = usize> + '_ {
        self.alignment.steps.iter().filter_map(|s| match s {
            Step::Pair { f, .. } => Some(*f),
            _ => None,
        })
    }

    /// Whether two places pair no file line alike: rivals, not two readings
    /// of one place.
    pub(crate) fn disjoint(&self, other: &Place) -> bool {
        let mine: Vec<usize> = self.paired().collect();
        !other.paired().any(|f| mine.binary_search(&f).is_ok())
    }
}

impl<'a> Prepared<'a> {
    /// Prepares `reading` against the file of `ctx`.
    pub(crate) fn new(reading: &'a Reading, ctx: &Ctx<'_, '_>) -> Prepared<'a> {
        let search = rows::of_snippet(&reading.search);
        let new = rows::of_snippet(&reading.new);
        let mut search_markers = ctx.markers.flags(search.iter().map(|r| r.raw));
        // A bare `...` in new_content is Python's Ellipsis unless the search
        // elides too; a comment marker is always a marker.
        let elides = search_markers.iter().any(|&m| m);
        let mut new_markers: Vec<bool> = ctx
            .markers
            .flags(new.iter().map(|r| r.raw))
            .into_iter()
            .zip(&new)
            .map(|(m, r)| m && (elides || ctx.markers.is_comment_marker(r.raw)))
            .collect();
        let (search_raw, new_raw): (Vec<&str>, Vec<&str>) = (
            search.iter().map(|r| r.raw).collect(),
            new.iter().map(|r| r.raw).collect(),
        );
        markers::rewritten_are_text(&search_raw, &mut search_markers, &new_raw, &mut new_markers);
        let comparers = search.iter().map(Comparer::new).collect();
        // Lines new_content has more often than the search: a line the
        // search shows once and new_content twice (`#[inline]` on two
        // functions, one of them in lines a marker stands for) is written
        // out once.
        let mut in_search: HashMap<&str, usize> = HashMap::new();
        for r in &search {
            *in_search.entry(r.key.as_str()).or_default() += 1;
        }
        let new_only_rows: Vec<(usize, &Row<'_>)> = new
            .iter()
            .enumerate()
            .filter(|(k, r)| {
                if r.is_blank() || new_markers[*k] {
                    return false;
                }
                match in_search.get_mut(r.key.as_str()) {
                    Some(n) if *n > 0 => {
                        *n -= 1;
                        false
                    }
                    _ => true,
                }
            })
            .collect();
        let new_only_lines = new_only_rows.len();
        let new_only = new_only_rows
            .into_iter()
            .map(|(k, r)| (r.key.clone(), k))
            .collect();
        let weight = search
            .iter()
            .zip(&search_markers)
            .filter(|(_, m)| !**m)
            .map(|(r, _)| {
                if r.is_blank() {
                    COSTS.blank
                } else {
                    r.weight()
                }
            })
            .sum();
        let key = |rows: &[Row<'_>], markers: &[bool]| -> Vec<Option<String>> {
            rows.iter()
                .zip(markers)
                .map(|(r, &m)| (!m).then(|| r.key.clone()))
                .collect()
        };
        let mut kept = vec![false; search.len()];
        let (search_keys, new_keys) = (key(&search, &search_markers), key(&new, &new_markers));
        let pairs = diff::kept_pairs(&search_keys, &new_keys);
        for &(s, _) in &pairs {
            kept[s] = search_keys[s].is_some();
        }
        let rewrites = rewrites(&search_keys, &new_keys, &pairs);
        Prepared {
            reading,
            search,
            new,
            search_markers,
            new_markers,
            comparers,
            new_only,
            new_only_lines,
            weight,
            kept,
            rewrites,
        }
    }

    /// Whether the search has a line of text that is not a marker.
    pub(crate) fn has_text(&self) -> bool {
        self.search
            .iter()
            .zip(&self.search_markers)
            .any(|(r, m)| !m && !r.is_blank())
    }

    /// What a file line costs as a file-only line when `new_content` writes
    /// it out (its line break and its distance to the line that does).
    fn written_out(&self, file: &[Row<'_>], window: &Range<usize>) -> Vec<Option<u32>> {
        let mut out = vec![None; file.len()];
        if self.new_only.is_empty() {
            return out;
        }
        for f in window.clone() {
            let row = &file[f];
            if row.is_blank() {
                continue;
            }
            if self.new_only.contains_key(&row.key) {
                out[f] = Some(COSTS.written_out);
                continue;
            }
            out[f] = self
                .new_only
                .keys()
                .filter(|k| rapidfuzz::fuzz::ratio(k.chars(), row.key.chars()) >= COSTS.rewritten)
                .map(|k| COSTS.written_out + rows::distance(row, &self.new[self.new_only[k]]))
                .min();
        }
        out
    }

    fn problem<'p>(
        &'p self,
        ctx: &'p Ctx<'_, '_>,
        written_out: &'p [Option<u32>],
    ) -> Problem<'p, 'p> {
        Problem {
            search: &self.search,
            markers: &self.search_markers,
            comparers: &self.comparers,
            file: &ctx.file,
            written_out,
            rewrites: &self.rewrites,
            kept: &self.kept,
        }
    }

    /// The place of `alignment`, weighed.
    fn weighed(
        &self,
        ctx: &Ctx<'_, '_>,
        reading: usize,
        alignment: Alignment,
        window: Range<usize>,
        offset: isize,
    ) -> Place {
        let mut hidden = vec![false; alignment.region.len()];
        for step in &alignment.steps {
            if let Step::Hidden { f, .. } = step {
                for k in f.clone() {
                    hidden[k - alignment.region.start] = true;
                }
            }
        }
        let region_weight: u32 = alignment
            .region
            .clone()
            .filter(|f| !hidden[f - alignment.region.start])
            .map(|f| {
                let r = &ctx.file[f];
                if r.is_blank() {
                    COSTS.blank
                } else {
                    r.weight()
                }
            })
            .sum();
        Place {
            reading,
            weight: self.weight + region_weight,
            alignment,
            window,
            offset,
        }
    }

    /// The search aligned in file lines `window`.
    pub(crate) fn place(
        &self,
        ctx: &Ctx<'_, '_>,
        reading: usize,
        window: Range<usize>,
    ) -> Option<Place> {
        let written_out = self.written_out(&ctx.file, &window);
        let problem = self.problem(ctx, &written_out);
        let offset = problem.offset(&window);
        let alignment = problem.align(window.clone(), offset)?;
        Some(self.weighed(ctx, reading, alignment, window, offset))
    }

    /// The search's first and last lines of text that `place` leaves
    /// unpaired where the file goes on past the place with other lines:
    /// nothing in the place shows them removed since they were read (see
    /// [`super::decide`]).
    pub(crate) fn open_edges(&self, ctx: &Ctx<'_, '_>, place: &Place) -> Vec<usize> {
        let text = |s: &usize| !self.search[*s].is_blank() && !self.search_markers[*s];
        let paired = |s: usize| {
            place.alignment.steps.iter().any(|step| {
                matches!(*step, Step::Pair { s: p, .. } | Step::Hidden { s: p, .. } if p == s)
            })
        };
        let region = &place.alignment.region;
        // The file goes on with other lines: not with the line itself a
        // few lines on, past lines the file gained (lines unlike any of the
        // search's: a look-alike's neighbour is the caller's block, drifted
        // or not).
        let known = |r: &Row<'_>| {
            !r.is_blank()
                && self.search.iter().any(|q| {
                    q.same(r)
                        || rapidfuzz::fuzz::ratio(q.key.chars(), r.key.chars())
                            >= COSTS.paired_rewrite
                })
        };
        let goes_on = |past: &mut dyn Iterator<Item = &Row<'_>>, s: usize| {
            for r in past.take(COSTS.window_margin) {
                if r.same(&self.search[s]) {
                    return false;
                }
                if known(r) {
                    return true;
                }
            }
            true
        };
        let before = &ctx.file[..region.start];
        let after = &ctx.file[region.end..];
        let text_in = |rows: &[Row<'_>]| rows.iter().any(|r| !r.is_blank());
        let first = (0..self.search.len()).find(text);
        let last = (0..self.search.len()).rev().find(text);
        let mut out = Vec::new();
        if let Some(s) =
            first.filter(|&s| !paired(s) && text_in(before) && goes_on(&mut before.iter().rev(), s))
        {
            out.push(s);
        }
        if let Some(s) =
            last.filter(|&s| !paired(s) && text_in(after) && goes_on(&mut after.iter(), s))
        {
            out.push(s);
        }
        out
    }

    /// The lines of text `place` reads as drift, whatever they cost (see
    /// [`Drift`]).
    pub(crate) fn drift(&self, ctx: &Ctx<'_, '_>, place: &Place) -> Drift {
        let steps = &place.alignment.steps;
        let text_file_only =
            |step: &Step| matches!(*step, Step::FileOnly { f } if !ctx.file[f].is_blank());
        let mut gained = steps.iter().filter(|s| text_file_only(s)).count();
        if gained > 0 {
            let written_out = self.written_out(&ctx.file, &place.window);
            gained = steps
                .iter()
                .filter(|step| {
                    matches!(**step, Step::FileOnly { f }
                        if !ctx.file[f].is_blank() && written_out[f].is_none())
                })
                .count();
        }
        let lost: Vec<usize> = steps
            .iter()
            .filter_map(|step| match *step {
                Step::SearchOnly { s } if !self.search[s].is_blank() && !self.search_markers[s] => {
                    Some(s)
                }
                _ => None,
            })
            .collect();
        Drift {
            unpaired: lost.len() + gained,
            differing: self.loose(ctx, place).len() - lost.len(),
            lengths: lost
                .iter()
                .map(|&s| self.search[s].weight().saturating_sub(COSTS.hidden_line))
                .sum(),
        }
    }

    /// How literally `place` reads the search's lines (see [`Literal`]).
    pub(crate) fn literal(&self, ctx: &Ctx<'_, '_>, place: &Place) -> Literal {
        let mut out = Literal::default();
        for step in &place.alignment.steps {
            let Step::Pair { s, f } = *step else {
                continue;
            };
            let (search, file) = (&self.search[s], &ctx.file[f]);
            if search.is_blank() {
                continue;
            }
            if reads_literally(search.raw, file.raw) {
                out.lines += 1;
                if self.kept[s] {
                    out.kept.push(s);
                }
            } else if self.kept[s] && likeness(&search.key, &file.key) == Likeness::Differs {
                out.stale.push(s);
            }
        }
        out
    }

    /// Every place the candidate search proposes, aligned, and whether the
    /// file has more copies of the search's pieces between markers than are
    /// aligned (crowded): the caller's block may then be one never weighed.
    pub(crate) fn places(&self, ctx: &Ctx<'_, '_>, reading: usize) -> (Vec<Place>, bool) {
        let blocks = BlockLines::of_snippet(&self.reading.search);
        // The runs of lines with text between markers; the first finds the
        // places, and a marker may then reach as far as the block allows.
        let mut pieces: Vec<Vec<usize>> = vec![Vec::new()];
        for (k, line) in blocks.all.iter().enumerate() {
            if self.search_markers.get(k).copied().unwrap_or(false) {
                if pieces.last().is_some_and(|p| !p.is_empty()) {
                    pieces.push(Vec::new());
                }
            } else if !line.is_blank() {
                pieces.last_mut().expect("one piece at least").push(k);
            }
        }
        pieces.retain(|p| !p.is_empty());
        let Some(first) = pieces.first() else {
            return (Vec::new(), false);
        };
        let elided = self.search_markers.iter().any(|&m| m);
        let cap = COSTS.aligned_places;
        let probe = |piece: &[usize]| Probe::new(piece.iter().map(|&k| &blocks.all[k]).collect());
        let mut windows: Vec<(usize, Window)> = probe(first)
            .nearest(&ctx.blocks, cap + 1, &[])
            .into_iter()
            .map(|w| (first[0], w))
            .collect();
        // More copies of the first lines than are aligned (windows come
        // nearest first, copies at distance 0): which of them is the
        // caller's block is for the rest of the search to say, so the piece
        // with the fewest copies proposes places too, or the right copy may
        // never be weighed. Without such a piece, the places are a sample,
        // not all of them.
        let first_crowded = windows.len() > cap && windows[cap].1.dist == 0;
        windows.truncate(cap);
        let mut crowded = false;
        if elided && first_crowded {
            let rarest = self.rarest_piece_windows(ctx, &pieces, &probe);
            crowded = rarest.is_empty();
            windows.extend(rarest);
        }
        if !elided && self.new_only_lines > 0 {
            let found: Vec<Window> = windows.iter().map(|(_, w)| *w).collect();
            windows.extend(
                self.written_out_windows(ctx, &found)
                    .into_iter()
                    .map(|w| (first[0], w)),
            );
        }
        let nonblank = &ctx.blocks.nonblank;
        let margin = COSTS.window_margin;
        let mut out: Vec<Place> = Vec::new();
        for (anchor, w) in windows {
            let head = nonblank[w.start];
            let mut lo = nonblank[w.start.saturating_sub(margin)];
            if anchor > 0 {
                lo = self.reach_back(ctx, head, anchor).min(lo);
            }
            // Lines new_content writes out may be lines the search left
            // out: the window reaches as many lines further, a line written
            // twice (`//`, `}`) counted twice.
            let hi_nb = (w.end + margin + self.new_only_lines).min(nonblank.len()) - 1;
            let mut hi = nonblank[hi_nb] + 1;
            if elided {
                hi = self.reach(ctx, head, anchor, hi);
            }
            let proposed = nonblank[w.start]..nonblank[w.end.max(w.start + 1) - 1] + 1;
            let mut window = lo..hi;
            // A window holds one alignment, the cheapest; when another copy
            // of the block within it takes that alignment, the lines the
            // window was proposed for are aligned again without it, or a
            // rival as good as the winner would never be weighed.
            for _ in 0..COSTS.realigned_windows {
                let Some(p) = self.place(ctx, reading, window.clone()) else {
                    break;
                };
                let r = p.alignment.region.clone();
                if !out.iter().any(|q| {
                    q.alignment.region == p.alignment.region && q.alignment.cost == p.alignment.cost
                }) {
                    out.push(p);
                }
                window = if r.end <= proposed.start {
                    r.end..window.end
                } else if proposed.end <= r.start {
                    window.start..r.start
                } else {
                    break;
                };
                if window.is_empty() {
                    break;
                }
            }
        }
        (out, crowded)
    }

    /// Windows where `new_content` itself fits best, beyond `found`. When
    /// the search leaves lines out without a marker and `new_content` writes
    /// them out, the search's own lines sit on several diagonals and its
    /// windows rank below those of a lone `}`; the file region is then where
    /// `new_content` reads as the file does. The alignment still prices the
    /// search there, so this only proposes places.
    fn written_out_windows(&self, ctx: &Ctx<'_, '_>, found: &[Window]) -> Vec<Window> {
        let blocks = BlockLines::of_snippet(&self.reading.new);
        let lines: Vec<_> = blocks
            .all
            .iter()
            .enumerate()
            .filter(|(k, l)| !l.is_blank() && !self.new_markers.get(*k).copied().unwrap_or(false))
            .map(|(_, l)| l)
            .collect();
        if lines.is_empty() {
            return Vec::new();
        }
        Probe::new(lines).nearest(&ctx.blocks, COSTS.written_out_places, found)
    }

    /// How far past the place found for the first lines a window of an
    /// elided search reaches: the end of the block that holds the search's
    /// shallowest line, and the rest of the search beyond it. A marker may
    /// stand for any line as deep as the lines around it, so the block the
    /// first line opens is too short where the search climbs out of it
    /// before its marker: two copies of a block whose markers stand for
    /// different numbers of lines must both be aligned whole.
    fn reach(&self, ctx: &Ctx<'_, '_>, head: usize, anchor: usize, at_least: usize) -> usize {
        let depth = self.block_depth(ctx, head, anchor);
        let rest = self.search.len() - anchor;
        let mut end = at_least;
        for f in head + 1..ctx.file.len().min(head + COSTS.max_hidden) {
            end = f + 1;
            let row = &ctx.file[f];
            if !row.is_blank() && row.width < depth {
                break;
            }
        }
        (end + rest).min(ctx.file.len()).max(at_least)
    }

    /// How far before file line `head`, where search line `anchor` was
    /// found, a window reaches: the start of the block that holds the
    /// search's shallowest line, and the search's lines before `anchor`
    /// beyond it (see [`Self::reach`]).
    fn reach_back(&self, ctx: &Ctx<'_, '_>, head: usize, anchor: usize) -> usize {
        let depth = self.block_depth(ctx, head, anchor);
        let mut start = head;
        for f in (head.saturating_sub(COSTS.max_hidden)..head).rev() {
            start = f;
            let row = &ctx.file[f];
            if !row.is_blank() && row.width < depth {
                break;
            }
        }
        start.saturating_sub(anchor + COSTS.window_margin)
    }

    /// The indentation of the block that holds the search's shallowest
    /// line, where search line `anchor` is file line `head`.
    fn block_depth(&self, ctx: &Ctx<'_, '_>, head: usize, anchor: usize) -> usize {
        let text = || {
            self.search
                .iter()
                .zip(&self.search_markers)
                .filter(|(r, m)| !r.is_blank() && !**m)
                .map(|(r, _)| r.width)
        };
        let shallowest = text().min().unwrap_or(0);
        let at = self.search[anchor].width;
        ctx.file[head].width.saturating_sub(at - shallowest)
    }

    /// Windows found by the piece of the search between markers whose lines
    /// the file has the fewest normalized copies of, if it has fewer than the
    /// first piece, each with the search line it was found for.
    fn rarest_piece_windows<'b>(
        &self,
        ctx: &Ctx<'_, '_>,
        pieces: &[Vec<usize>],
        probe: &dyn Fn(&[usize]) -> Probe<'b, 'b>,
    ) -> Vec<(usize, Window)> {
        let cap = COSTS.aligned_places;
        let mut rarest: Option<(usize, usize, Vec<Window>)> = None;
        for piece in &pieces[1..] {
            let windows = probe(piece).nearest(&ctx.blocks, cap + 1, &[]);
            let copies = windows.iter().filter(|w| w.dist == 0).count();
            if copies == 0 || copies > cap {
                continue;
            }
            if rarest.as_ref().is_none_or(|(n, _, _)| copies < *n) {
                rarest = Some((copies, piece[0], windows));
            }
        }
        let Some((_, anchor, windows)) = rarest else {
            return Vec::new();
        };
        windows
            .into_iter()
            .filter(|w| w.dist == 0)
            .map(|w| (anchor, w))
            .collect()
    }

    /// What the place's alignment tolerated.
    pub(crate) fn adjustments(&self, ctx: &Ctx<'_, '_>, place: &Place) -> Vec<Adjustment> {
        let mut out: Vec<Adjustment> = Vec::new();
        let mut add = |a: Adjustment| {
            if !out.contains(&a) {
                out.push(a);
            }
        };
        for step in &place.alignment.steps {
            match step {
                Step::Pair { s, f } => {
                    let (a, b) = (&self.search[*s], &ctx.file[*f]);
                    if a.eol != b.eol && a.eol != crate::text::lines::Eol::None {
                        add(Adjustment::LineEndings);
                    }
                    if a.raw == b.raw {
                        continue;
                    }
                    if a.indent != b.indent {
                        add(Adjustment::Indentation);
                    }
                    let (ca, cb) = (a.raw.trim(), b.raw.trim());
                    if ca == cb {
                        continue;
                    }
                    if a.key != b.key {
                        add(Adjustment::Fuzzy);
                    } else if ca.split_whitespace().eq(cb.split_whitespace())
                        || (ca.is_ascii() && cb.is_ascii())
                    {
                        add(Adjustment::Whitespace);
                    } else {
                        add(Adjustment::Unicode);
                    }
                }
                Step::SearchOnly { s } if self.search[*s].is_blank() => add(Adjustment::BlankLines),
                Step::FileOnly { f } if ctx.file[*f].is_blank() => add(Adjustment::BlankLines),
                Step::SearchOnly { .. } | Step::FileOnly { .. } => add(Adjustment::Fuzzy),
                Step::Hidden { .. } => add(Adjustment::Elision),
            }
        }
        out.sort();
        out
    }
}
