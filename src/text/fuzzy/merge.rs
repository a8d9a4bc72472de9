//! The edit as a three-way merge, in the manner of `git merge-file`: the
//! search is the base, the matched file region is *ours*, `new_content` is
//! *theirs*.
//!
//! The alignment pairs base with ours; a line diff pairs base with theirs.
//! Base lines that both sides keep (ours up to noise) are the fixed points;
//! between two of them each side either left the base alone or changed it:
//!
//! | ours | theirs | result |
//! |---|---|---|
//! | as the base | as the base | the file's bytes |
//! | changed (drift, a line gained or lost) | as the base | ours: what the caller did not touch stays as it is |
//! | as the base | changed | theirs: the caller's change, in the file's indentation |
//! | changed | changed the same way | ours, once |
//! | lines the search hides | the same lines written out | theirs: the caller has shown them |
//! | changed | changed otherwise | a conflict: refused |
//!
//! A marker is a base line whose ours is the run it hides: theirs keeping it
//! keeps the run, theirs writing the run out changes it as the caller wrote,
//! theirs dropping it otherwise is a conflict. The lines theirs keeps are the
//! caller's claim about the file: more than one the file contradicts means
//! another block.

use std::ops::Range;

use super::align::{Alignment, Step};
use super::likeness::{Likeness, agrees, likeness, numbers_differ, typos};
use super::markers::MARKER_KEY;
use super::rows::Row;

mod equal_runs;
mod kept;
mod shift;
mod systematic;
mod unclear;
mod written;

use equal_runs::{prefer_present, slide_to_present};
use shift::{deep_keys, shift_of};
use systematic::{Swap, systematic};
use written::markers_take_unpaired_beside;

#[cfg(test)]
mod tests;

/// One line of the merged region.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Out {
    /// File line `f`, as it is.
    Disk(usize),
    /// Line `t` of `new_content`, and the line whose place it takes, if one.
    New { t: usize, anchor: Option<Anchor> },
}

/// The line a new line takes the place of, for its indentation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Anchor {
    /// Search line `s`, which stands for file line `f`.
    Replaces { s: usize, f: usize },
    /// File line `f`, which the search hides and the new line rewrites.
    Rewrites { f: usize },
}

/// Why the two sides cannot be merged. Search and new lines are indices
/// into the reading's lines; file lines into the file's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Clash {
    /// The caller changes search line `s`, which reads differently in the
    /// file (line `f`).
    LineDiffers { s: usize, f: usize },
    /// The caller changes search line `s`, which the file lacks (line `f`
    /// stands there).
    LineMissing { s: usize, f: usize },
    /// The caller changes lines around search line `s`, and the file has line
    /// `f` there that the search lacks.
    ExtraLine { s: usize, f: usize },
    /// The caller adds a line beside search line `s`, or at the block's
    /// edge next to it, and the file has `s` at line `f`, in another order
    /// than the search.
    OutOfOrder { s: usize, f: usize },
    /// `new_content` drops the marker at search line `s`, which stands for
    /// file lines `f`.
    HiddenDropped { s: usize, f: Range<usize> },
    /// The search leaves out file lines `f`, and `new_content` changes lines
    /// around them without writing them out.
    LeftOut { f: Range<usize> },
    /// Line `t` of `new_content` is written over file line `f`, which the
    /// marker at search line `s` stands for (with file lines `hidden`), as
    /// another line the file has elsewhere.
    HiddenRemembered {
        s: usize,
        f: usize,
        t: usize,
        hidden: Range<usize>,
    },
    /// Line `t` of `new_content` is a marker with no marker of the search.
    MarkerInNew { t: usize },
    /// Lines `new_content` keeps that the file contradicts, as (search line,
    /// file line it was paired with, if any), and what shows them another
    /// block's.
    KeptDiffer(Vec<(usize, Option<usize>)>, Contradiction),
    /// The search's typos are one character change made in several words:
    /// the caller's texts went through a transformation, as (the change,
    /// the words as searched and as in the file).
    Transformed(Swap, Vec<(String, String)>),
}

/// What shows that the kept lines the file contradicts are another block's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Contradiction {
    /// More of them than a memory gets stale, or one where no kept line
    /// confirms the place.
    Lines,
    /// A word the caller remembers on such a line (or the whole line) that
    /// the file still has elsewhere.
    StillInFile(String),
}

/// The three texts and how two pairs of them line up.
pub(crate) struct Sides<'a, 't> {
    pub base: &'a [Row<'a>],
    pub base_markers: &'a [bool],
    pub theirs: &'a [Row<'a>],
    pub theirs_markers: &'a [bool],
    pub file: &'a [Row<'t>],
    pub alignment: &'a Alignment,
    /// Whether the search is the file's text as it is: `new_content` is
    /// then in the file's frame, and a shift of its lines is the caller's.
    pub exact: bool,
}

/// The merged region.
#[derive(Debug, Clone)]
pub(crate) struct Merged {
    pub out: Vec<Out>,
    /// Words the search misspells, with the file's spelling.
    pub typos: Vec<(String, String)>,
    /// Lines of theirs the caller kept from the search, as (new line, search
    /// line).
    pub kept: Vec<(usize, usize)>,
    /// Search lines the caller keeps that the file reads otherwise (a line
    /// remembered stale, kept as the file has it), as (search line, file
    /// line).
    pub stale: Vec<(usize, usize)>,
}

/// What a base line stands for in ours.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Ours {
    Pair(usize, Likeness),
    Missing,
    Hidden(Range<usize>),
}

/// How a file line of the region came into the alignment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FileSide {
    Paired,
    Extra,
    Hidden,
}

/// `keys` with each line's text (less its indentation) added: two lines
/// alike but for the spaces between or after their words have one key and
/// two fine keys, so that a line the caller kept byte for byte pairs with
/// its copy before a look-alike the caller wrote (`break;  ` kept, `breakk;`
/// fixed to `break;`), and the kept line stays as the file has it. A blank line's fine key is its whitespace: of a blank line and a
/// line of spaces, the caller's copy of each pairs with its own.
fn fine_keys<'r, 't: 'r>(
    rows: impl IntoIterator<Item = &'r Row<'t>>,
    keys: &[String],
) -> Vec<String> {
    rows.into_iter()
        .zip(keys)
        .map(|(row, key)| {
            if key == MARKER_KEY {
                key.clone()
            } else if key.is_empty() {
                format!("\u{3}{}", row.raw.trim_end_matches(['\r', '\n']))
            } else {
                format!(
                    "{key}\u{3}{}",
                    row.raw.trim_start().trim_end_matches(['\r', '\n'])
                )
            }
        })
        .collect()
}

fn keys<'a>(rows: &'a [Row<'a>], markers: &[bool]) -> Vec<&'a str> {
    rows.iter()
        .zip(markers)
        .map(|(r, &m)| if m { MARKER_KEY } else { r.key.as_str() })
        .collect()
}

impl Sides<'_, '_> {
    /// Merges the three texts, or says why they clash.
    pub(crate) fn merge(&self) -> Result<Merged, Clash> {
        let region = self.alignment.region.clone();
        let mut ours: Vec<Ours> = vec![Ours::Missing; self.base.len()];
        let mut side = vec![FileSide::Extra; region.len()];
        let mut typo_words: Vec<(String, String)> = Vec::new();
        for step in &self.alignment.steps {
            match step {
                Step::Pair { s, f } => {
                    let mut like = likeness(&self.base[*s].key, &self.file[*f].key);
                    if like == Likeness::Noise {
                        let found = typos(&self.base[*s].key, &self.file[*f].key);
                        // A misspelling is a word the file does not have: one
                        // it has elsewhere (`getter` for `setter`) is another
                        // word, and the line another line.
                        if found.iter().any(|(a, _)| self.file_has_word(a)) {
                            like = Likeness::Differs;
                        } else {
                            for (a, b) in found {
                                typo_words.push((a.to_string(), b.to_string()));
                            }
                        }
                    }
                    ours[*s] = Ours::Pair(*f, like);
                    side[*f - region.start] = FileSide::Paired;
                }
                Step::Hidden { s, f } => {
                    ours[*s] = Ours::Hidden(f.clone());
                    for k in f.clone() {
                        side[k - region.start] = FileSide::Hidden;
                    }
                }
                Step::SearchOnly { .. } | Step::FileOnly { .. } => {}
            }
        }
        markers_take_unpaired_beside(&mut ours, &mut side, &region);

        // The caller's own change: base against theirs, lines compared with
        // their depth, so that of two equal lines (`}`) the one at the same
        // depth is the one kept; theirs may be shifted as a whole.
        let plain_b = keys(self.base, self.base_markers);
        let plain_t = keys(self.theirs, self.theirs_markers);
        let shift = if self.exact {
            0
        } else {
            shift_of(self.base, self.theirs, &plain_b, &plain_t)
        };
        let bk = deep_keys(self.base, &plain_b, 0);
        let tk = deep_keys(self.theirs, &plain_t, shift);
        let mut theirs_of: Vec<Option<usize>> = vec![None; bk.len()];
        let mut base_of: Vec<Option<usize>> = vec![None; tk.len()];
        let bf = fine_keys(self.base, &bk);
        for (b, t) in self.caller_pairs((&bf, &bk), &tk, &ours) {
            theirs_of[b] = Some(t);
            base_of[t] = Some(b);
        }
        prefer_present(&bf, &ours, &mut theirs_of, &mut base_of);
        slide_to_present(&bf, &ours, &mut theirs_of, &mut base_of);
        if let Some(t) = (0..tk.len()).find(|&t| self.theirs_markers[t] && base_of[t].is_none()) {
            return Err(Clash::MarkerInNew { t });
        }

        if let Some((change, words)) = systematic(&typo_words) {
            return Err(Clash::Transformed(change, words));
        }
        if let Some(clash) = self.unclear_blank_run(&ours, &side, &base_of) {
            return Err(clash);
        }
        if let Some(clash) = self.unclear_order(&ours, &side, &base_of) {
            return Err(clash);
        }

        let mut merged = Merged {
            out: Vec::new(),
            typos: typo_words,
            kept: (0..tk.len())
                .filter_map(|t| base_of[t].map(|s| (t, s)))
                .collect(),
            stale: Vec::new(),
        };
        // A line the caller keeps is a fixed point where the file has it up
        // to noise, or reads it otherwise without other numbers (a line
        // remembered stale: the file's version stays, and it counts against
        // the lines the file may contradict).
        let mut kept_differ: Vec<(usize, Option<usize>)> = Vec::new();
        // Blank lines are never fixed points: a run of them is one unit, so
        // that a blank line both sides add to it is added once.
        let fixed = |s: usize| -> Option<(usize, Range<usize>)> {
            if self.base[s].is_blank() {
                return None;
            }
            let t = theirs_of[s]?;
            match &ours[s] {
                Ours::Pair(f, Likeness::Same | Likeness::Noise) => Some((t, *f..*f + 1)),
                Ours::Pair(f, Likeness::Differs)
                    if !numbers_differ(&self.base[s].key, &self.file[*f].key) =>
                {
                    Some((t, *f..*f + 1))
                }
                Ours::Hidden(r) => Some((t, r.clone())),
                _ => None,
            }
        };
        let mut points: Vec<(usize, usize, Range<usize>)> = (0..bk.len())
            .filter_map(|s| fixed(s).map(|(t, r)| (s, t, r)))
            .collect();
        for &(s, _, ref r) in &points {
            if matches!(ours[s], Ours::Pair(_, Likeness::Differs)) {
                kept_differ.push((s, Some(r.start)));
            }
        }
        // The end of the region is the last fixed point.
        points.push((bk.len(), tk.len(), region.end..region.end));
        let (mut s0, mut t0, mut f0) = (0, 0, region.start);
        for (s, t, r) in points {
            let c = Chunk {
                base: s0..s,
                theirs: t0..t,
                ours: f0..r.start,
                shift,
            };
            let sides = &side[f0 - region.start..r.start - region.start];
            self.chunk(c, &ours, sides, &base_of, &mut merged, &mut kept_differ)?;
            // A line the caller saw byte for byte and re-indented alone (a
            // tab for spaces) is written as sent, as it would be had the
            // whole search been found exactly; where it was, any change of
            // its spaces is (trailing ones too). Any other difference
            // between lines of one key is a look-alike's, not a rewrite.
            let respaced = |f: usize| {
                let (b, sent) = (&self.base[s], &self.theirs[t]);
                b.reindented_alone(&self.file[f], sent)
                    || (self.exact && b.raw == self.file[f].raw && b.raw != sent.raw)
            };
            match ours.get(s) {
                Some(Ours::Pair(f, _)) if respaced(*f) => {
                    merged.out.push(Out::New {
                        t,
                        anchor: Some(Anchor::Replaces { s, f: *f }),
                    });
                }
                _ => merged.out.extend(r.clone().map(Out::Disk)),
            }
            (s0, t0, f0) = (s + 1, t + 1, r.end);
        }
        self.judge_kept(&kept_differ, &ours, &theirs_of)?;
        // A line the caller kept from the search that the file lacks is no
        // line the caller adds, whichever way the chunk was merged: of two
        // readings that cost the same, one may put it in a chunk where the
        // caller writes hidden lines out, and it must not reach the file
        // there either.
        merged.out.retain(|o| match *o {
            Out::New { t, anchor: None } => base_of[t].is_none_or(|s| ours[s] != Ours::Missing),
            _ => true,
        });
        // Blank lines taken from the file in a run keep their order there.
        let mut k = 0;
        while k < merged.out.len() {
            let blank_at = |o: &Out| matches!(o, Out::Disk(f) if self.file[*f].is_blank());
            let end = k + merged.out[k..].iter().take_while(|o| blank_at(o)).count();
            merged.out[k..end].sort_by_key(|o| match o {
                Out::Disk(f) => *f,
                Out::New { .. } => usize::MAX,
            });
            k = end.max(k + 1);
        }
        merged.stale = kept_differ
            .iter()
            .filter_map(|&(s, f)| Some((s, f?)))
            .collect();
        Ok(merged)
    }

    fn file_has_word(&self, word: &str) -> bool {
        self.file
            .iter()
            .any(|row| row.key.contains(word) && row.key.split(' ').any(|w| w == word))
    }

    fn chunk(
        &self,
        c: Chunk,
        ours: &[Ours],
        side: &[FileSide],
        base_of: &[Option<usize>],
        merged: &mut Merged,
        kept_differ: &mut Vec<(usize, Option<usize>)>,
    ) -> Result<(), Clash> {
        let content_s = |s: &usize| !self.base[*s].is_blank();
        let content_f = |f: &usize| !self.file[*f].is_blank();
        let at = |f: usize| side[f - c.ours.start];

        let theirs_unchanged = c.base.len() == c.theirs.len()
            && c.base
                .clone()
                .zip(c.theirs.clone())
                .all(|(s, t)| base_of[t] == Some(s));
        if theirs_unchanged {
            let mut missing = Vec::new();
            for s in c.base.clone().filter(content_s) {
                match &ours[s] {
                    Ours::Pair(f, Likeness::Differs) => kept_differ.push((s, Some(*f))),
                    Ours::Missing => missing.push(s),
                    _ => {}
                }
            }
            // A kept line missing and a line gained in its stead are one
            // line the file reads otherwise, not two.
            let mut gained = c
                .ours
                .clone()
                .filter(|f| content_f(f) && at(*f) == FileSide::Extra);
            let near = c.base.start.min(self.base.len().saturating_sub(1));
            for s in missing {
                kept_differ.push((s, gained.next()));
            }
            kept_differ.extend(gained.map(|f| (near, Some(f))));
            merged.out.extend(c.ours.map(Out::Disk));
            return Ok(());
        }

        let pairs = self.positional_pairs(&c, ours);
        if let Some(clash) = self.blank_count_guessed(&c, &pairs, base_of) {
            return Err(clash);
        }
        // The file's line agrees with the caller's rewrite where it differs
        // from the search by slips only; a search word the file has elsewhere
        // (`__unordered_map` for `unordered_map`) is no slip: another line.
        let agreed = |s: usize, f: usize| {
            let (base, file) = (&self.base[s].key, &self.file[f].key);
            pairs
                .iter()
                .any(|&(t, (ps, pf))| ps == s && pf == f && agrees(base, file, &self.theirs[t].key))
                && !typos(base, file).iter().any(|(a, _)| self.file_has_word(a))
        };
        let ours_unchanged = c.base.clone().all(|s| match &ours[s] {
            Ours::Pair(f, like) => *like != Likeness::Differs || agreed(s, *f),
            Ours::Missing => self.base[s].is_blank(),
            Ours::Hidden(_) => false,
        }) && c
            .ours
            .clone()
            .all(|f| at(f) == FileSide::Paired || !content_f(&f));
        if ours_unchanged {
            // Blank lines only the file has stay: as the blank lines theirs
            // adds, where it adds some; else before everything where they come
            // before every paired line, or before the new line that takes the
            // place of a file line after them; else after the change.
            let mut spare: Vec<usize> = c
                .ours
                .clone()
                .filter(|&f| at(f) != FileSide::Paired)
                .collect();
            let added_blanks = c
                .theirs
                .clone()
                .filter(|&t| self.theirs[t].is_blank() && base_of[t].is_none())
                .count();
            let mut reused: Vec<usize> = spare.drain(..added_blanks.min(spare.len())).collect();
            // Then the file's blank lines of those the caller drops here: of
            // equal blank lines the diff may count one kept in a chunk before
            // and this one dropped, and a blank line dropped and one added is
            // the file's blank line, with its bytes.
            let dropped = c.base.clone().filter_map(|s| match ours[s] {
                Ours::Pair(f, _)
                    if self.base[s].is_blank()
                        && !c.theirs.clone().any(|t| base_of[t] == Some(s)) =>
                {
                    Some(f)
                }
                _ => None,
            });
            reused.extend(dropped.take(added_blanks - reused.len()));
            reused.sort_unstable();
            reused.reverse();
            // Those before every line the search pairs keep their place at
            // the top: the caller's lines take the places of the lines after.
            // A run of the file's blank lines goes as one, with its blank
            // line the search pairs: which of them the alignment paired is
            // arbitrary, and a line the caller adds goes beside the run.
            let run_of = |f: usize| {
                let blank = |g: &usize| self.file[*g].is_blank();
                let lo = (c.ours.start..f)
                    .rev()
                    .take_while(blank)
                    .last()
                    .unwrap_or(f);
                let hi = (f..c.ours.end).take_while(blank).last().unwrap_or(f);
                lo..hi + 1
            };
            if let Some(first) = c.ours.clone().find(|&f| at(f) == FileSide::Paired) {
                let top = if self.file[first].is_blank() {
                    run_of(first).start
                } else {
                    first
                };
                merged
                    .out
                    .extend(spare.iter().copied().filter(|&f| f < top).map(Out::Disk));
                spare.retain(|&f| f >= top);
            }
            for t in c.theirs.clone() {
                // A line the caller kept that stands for nothing in the file
                // (a blank line only the search has) is not written.
                if let Some(s) = base_of[t]
                    && ours[s] == Ours::Missing
                {
                    continue;
                }
                // A blank line the caller kept, where the file has it.
                if let Some(s) = base_of[t]
                    && let Ours::Pair(f, _) = ours[s]
                    && self.base[s].is_blank()
                {
                    let run = run_of(f);
                    let with: Vec<usize> = spare
                        .iter()
                        .copied()
                        .filter(|&x| x < f || run.contains(&x))
                        .collect();
                    spare.retain(|x| !with.contains(x));
                    merged
                        .out
                        .extend(with.iter().copied().filter(|&x| x < f).map(Out::Disk));
                    merged.out.push(Out::Disk(f));
                    merged
                        .out
                        .extend(with.iter().copied().filter(|&x| x > f).map(Out::Disk));
                    continue;
                }
                if self.theirs[t].is_blank()
                    && base_of[t].is_none()
                    && let Some(f) = reused.pop()
                {
                    merged.out.push(Out::Disk(f));
                    continue;
                }
                let anchor = pairs.iter().find(|(tt, _)| *tt == t).map(|&(_, sf)| sf);
                if let Some((_, f)) = anchor {
                    let before: Vec<usize> = spare.iter().copied().filter(|&x| x < f).collect();
                    spare.retain(|&x| x >= f);
                    merged.out.extend(before.into_iter().map(Out::Disk));
                }
                merged.out.push(match anchor {
                    // Written as the file has it, at the depth the search
                    // has it: the file's bytes.
                    Some((s, f))
                        if self.file[f].same(&self.theirs[t])
                            && self.theirs[t].width as isize - c.shift
                                == self.base[s].width as isize =>
                    {
                        Out::Disk(f)
                    }
                    Some((s, f)) => Out::New {
                        t,
                        anchor: Some(Anchor::Replaces { s, f }),
                    },
                    None => Out::New { t, anchor: None },
                });
            }
            merged.out.extend(spare.into_iter().map(Out::Disk));
            return Ok(());
        }

        // Both sides changed.
        // A marker that stands for no line, which the caller replaces: the
        // caller saw lines there that the file does not have where the
        // search puts them, so what the new lines replace is unknown.
        if let Some(s) = c
            .base
            .clone()
            .find(|&s| matches!(&ours[s], Ours::Hidden(r) if r.is_empty()))
        {
            let Ours::Hidden(r) = &ours[s] else {
                unreachable!("a hidden run")
            };
            return Err(Clash::HiddenDropped { s, f: r.clone() });
        }
        let content_keys = |rows: &[Row<'_>], r: Range<usize>| -> Vec<String> {
            r.filter(|&k| !rows[k].is_blank())
                .map(|k| rows[k].key.clone())
                .collect()
        };
        if content_keys(self.file, c.ours.clone()) == content_keys(self.theirs, c.theirs.clone())
            && c.ours.clone().all(|f| at(f) != FileSide::Hidden)
        {
            merged.out.extend(c.ours.map(Out::Disk));
            return Ok(());
        }
        // A marker after lines the search shows, its lines written out: the
        // lines of theirs before them are the caller's change of the lines
        // shown, and the marker opens a chunk of its own.
        if let Some((head, rest)) = self.split_at_marker(&c, ours, base_of) {
            let split = head.ours.len();
            self.chunk(head, ours, &side[..split], base_of, merged, kept_differ)?;
            return self.chunk(rest, ours, &side[split..], base_of, merged, kept_differ);
        }
        // A marker that opens the chunk, its lines written out first and the
        // caller's change after them: the written-out lines stand for the
        // marker, and the rest is a chunk of its own.
        if let Some(Ours::Hidden(r)) = c.base.clone().next().map(|s| &ours[s])
            && r.start == c.ours.start
            && c.base.len() > 1
        {
            let head = Chunk {
                base: c.base.start..c.base.start + 1,
                theirs: c.theirs.clone(),
                ours: r.clone(),
                shift: c.shift,
            };
            let out = self
                .written_out(&head, |f| at(f) == FileSide::Hidden, false)
                .map_err(|e| self.remembered(e, &c, ours))?;
            let end = out.as_ref().and_then(|out| {
                out.iter().rposition(|o| {
                    matches!(
                        o,
                        Out::Disk(_)
                            | Out::New {
                                anchor: Some(Anchor::Rewrites { .. }),
                                ..
                            }
                    )
                })
            });
            if let (Some(out), Some(mut end)) = (out, end) {
                let mut past = match out[end] {
                    Out::Disk(f)
                    | Out::New {
                        anchor: Some(Anchor::Rewrites { f }),
                        ..
                    } => f + 1,
                    Out::New { .. } => r.end,
                };
                // The marker's blank lines among those written out stay
                // where new_content has none of them, as blank lines only
                // the file has do anywhere: a copy loses blank lines.
                let written = Chunk {
                    base: head.base.clone(),
                    theirs: c.theirs.start..c.theirs.start + end + 1,
                    ours: r.start..past,
                    shift: c.shift,
                };
                merged
                    .out
                    .extend(self.file_blanks_if_kept(&written, out[..=end].to_vec()));
                if let Some((added, taken)) = self.blanks_after_added(&out, end, past, r.end) {
                    let added_lines = out[end + 1..end + 1 + added].iter().copied();
                    merged.out.extend(added_lines);
                    merged.out.extend((past..past + taken).map(Out::Disk));
                    end += added + taken;
                    past += taken;
                }
                // The marker's lines past the last one written out are blank
                // lines new_content did not write: they stay in the rest, as
                // blank lines only the file has do.
                let rest_start = if (past..r.end).all(|f| self.file[f].is_blank()) {
                    past
                } else {
                    r.end
                };
                let rest = Chunk {
                    base: c.base.start + 1..c.base.end,
                    theirs: c.theirs.start + end + 1..c.theirs.end,
                    ours: rest_start..c.ours.end,
                    shift: c.shift,
                };
                let sides = &side[rest_start - c.ours.start..];
                return self.chunk(rest, ours, sides, base_of, merged, kept_differ);
            }
        }
        // Lines the search hides without a marker, among the lines the
        // caller changes, and written out in new_content as they are: the
        // caller has seen them, and they are kept.
        if let Some(shown) = self.shown_in_new(&c, side, base_of) {
            return self.chunk_between(c, shown, ours, side, base_of, merged, kept_differ);
        }
        // Written out with some of them rewritten: the caller has seen them,
        // if it writes out enough of them as they are.
        if let Some(out) = self.written_out_around(&c, ours, side) {
            merged.out.extend(self.file_blanks_if_kept(&c, out));
            return Ok(());
        }
        // Lines the search hides, with or without a marker, that theirs
        // writes out.
        let left_out = c
            .base
            .clone()
            .all(|s| !content_s(&s) || matches!(ours[s], Ours::Hidden(_)))
            && c.ours
                .clone()
                .all(|f| at(f) != FileSide::Paired || !content_f(&f));
        if left_out {
            if let Some(out) = self
                .written_out(&c, |f| at(f) == FileSide::Hidden, true)
                .map_err(|e| self.remembered(e, &c, ours))?
            {
                merged.out.extend(self.file_blanks_if_kept(&c, out));
                return Ok(());
            }
            if let Some(s) = c.base.clone().find(|&s| matches!(ours[s], Ours::Hidden(_))) {
                let Ours::Hidden(r) = &ours[s] else {
                    unreachable!("a hidden run")
                };
                return Err(Clash::HiddenDropped { s, f: r.clone() });
            }
            let lines: Vec<usize> = c.ours.clone().filter(content_f).collect();
            return Err(Clash::LeftOut {
                f: lines[0]..lines[lines.len() - 1] + 1,
            });
        }
        for s in c.base.clone() {
            match &ours[s] {
                Ours::Hidden(r) => {
                    return Err(Clash::HiddenDropped { s, f: r.clone() });
                }
                Ours::Pair(f, Likeness::Differs) => return Err(Clash::LineDiffers { s, f: *f }),
                Ours::Missing if content_s(&s) => {
                    let f = c.ours.start.min(self.file.len().saturating_sub(1));
                    return Err(Clash::LineMissing { s, f });
                }
                _ => {}
            }
        }
        let f = c
            .ours
            .clone()
            .find(|f| content_f(f) && at(*f) != FileSide::Paired)
            .unwrap_or(c.ours.start);
        Err(Clash::ExtraLine {
            s: c.base.start.min(self.base.len().saturating_sub(1)),
            f,
        })
    }
}

/// The lines between two fixed points, in each text.
struct Chunk {
    base: Range<usize>,
    theirs: Range<usize>,
    ours: Range<usize>,
    /// Columns theirs is shifted by as a whole against the base.
    shift: isize,
}
