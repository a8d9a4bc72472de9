//! Applying the caller's change to the block as it is on disk.
//!
//! The change the caller meant is the difference between `search_context` and
//! `new_content` (see [`crate::text::fuzzy::anchors`]). It is replayed on the
//! disk block through the search-to-disk line pairing:
//!
//! - a line the caller kept is written exactly as it is on disk, whatever
//!   drift the search or `new_content` had (indentation, trailing spaces,
//!   quotes, endings, even a line changed on disk since the caller read it);
//! - so is a line the caller's memory got wrong but `new_content` has as the
//!   disk has it: the result is what the caller asked for either way;
//! - disk lines the search did not mention (a line added since) are kept,
//!   unless they sit inside a run of lines the caller removed or replaced;
//!   blank lines are reconciled gap by gap (see [`crate::text::fuzzy::gaps`]);
//! - an elision marker kept in `new_content` keeps the disk lines it stands
//!   for; one that `new_content` writes out in full is replaced like any line;
//! - new and changed lines get the file's indentation (see
//!   [`crate::text::fuzzy::indent`]); a changed line keeps the ending of the
//!   line it replaces, an added line takes the block's line ending.
//!
//! Situations that cannot be told apart from a wrong edit are refused: the
//! caller changes a line that is something else on disk (a conflict), drops
//! lines an elision stood for, or `new_content` holds an elision marker that
//! does not stand for a marker of the search.

use std::borrow::Cow;
use std::ops::Range;

use super::align::Target;
use super::anchors::{Alignment, Old, REWRITE};
use super::block::{Line, Lines};
use super::elision::Markers;
use super::indent::{Hints, IndentMap, step};
use super::outcome::ConflictReason;
use super::score::{line_similarity, within_typos};
use crate::text::lines::Eol;

/// At most this many lines a search skipped without a marker stay when
/// `new_content` leaves them out too.
const MAX_FORGOTTEN: usize = 3;

/// Why a matched block cannot take the caller's change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Blocked {
    /// The caller's change around search line `search_line` (0-based) meets
    /// file line `file_line` (0-based), which is not what the caller saw.
    Conflict {
        search_line: usize,
        file_line: usize,
        reason: ConflictReason,
    },
    /// Line `new_line` (0-based) of `new_content` is an elision marker that
    /// stands for no marker of the search.
    Marker { new_line: usize },
    /// The marker on search line `search_line` (0-based), standing for the
    /// file lines `hidden`, is dropped or rewritten by the change.
    Hidden {
        search_line: usize,
        hidden: Range<usize>,
    },
}

/// Everything needed to rewrite one matched block.
pub(crate) struct Transplant<'a, 't, 's, 'n> {
    /// The file's lines.
    pub file: &'a Lines<'t>,
    /// The search block's lines.
    pub search: &'a Lines<'s>,
    /// The new content's lines.
    pub new: &'a Lines<'n>,
    /// What each search line stands for on disk.
    pub targets: &'a [Target],
    /// First and last file line of the block (0-based, inclusive).
    pub region: (usize, usize),
    /// Whether the search was matched with elision markers.
    pub elision: bool,
    /// Which lines are elision markers.
    pub markers: &'a Markers,
    /// The ending new lines get.
    pub eol: Eol,
    /// File lines the search left out without a marker, after the given
    /// search line (a head and a tail matched around them).
    pub skipped: Option<(usize, Range<usize>)>,
}

/// One output line: its text and its ending (`None`: the block's).
pub(crate) struct Out<'x> {
    pub text: Cow<'x, str>,
    pub eol: Option<Eol>,
}

/// A line's text after its indentation, without trailing whitespace.
pub(crate) fn body<'x>(line: &Line<'x>) -> &'x str {
    line.raw[line.indent.len()..].trim_end()
}

impl<'a, 't, 's, 'n> Transplant<'a, 't, 's, 'n> {
    /// The new text of the block's lines, endings included.
    pub(crate) fn render(&self) -> Result<String, Blocked> {
        let al = self.align();
        self.check(&al)?;
        let indents = self.indent_map(&al);

        let mut out: Vec<Out<'a>> = Vec::new();
        let mut lo = self.region.0;
        let mut prev: Option<(usize, usize)> = None;
        for k in 0..al.olds.len() {
            let (Some(j), Some(span)) = (al.partner_of_old[k], self.span_of(&al.olds[k])) else {
                continue;
            };
            let start = span.start.max(lo);
            self.hole(&al, prev, Some((k, j)), lo..start, &indents, &mut out)?;
            self.anchor(&al, k, j, span.clone(), &indents, &mut out)?;
            lo = span.end.max(start);
            prev = Some((k, j));
        }
        let end = (self.region.1 + 1).max(lo);
        self.hole(&al, prev, None, lo..end, &indents, &mut out)?;

        let last_eol = self.file.all[self.region.1].eol;
        let count = out.len();
        let mut text = String::new();
        for (k, line) in out.into_iter().enumerate() {
            text.push_str(&line.text);
            let eol = if k + 1 == count && last_eol == Eol::None {
                Eol::None
            } else {
                match line.eol {
                    Some(Eol::None) | None => self.eol,
                    Some(e) => e,
                }
            };
            text.push_str(eol.as_str());
        }
        Ok(text)
    }

    /// Whether `new_content` is indented as the file is rather than as the
    /// search: among lines it keeps whose indentation differs between the
    /// search and the file, which one it follows more often.
    fn new_in_file_frame(&self, al: &Alignment) -> Option<bool> {
        let (mut file, mut search) = (0, 0);
        for (k, old) in al.olds.iter().enumerate() {
            let (Old::Search(i), Some(j)) = (old, al.partner_of_old[k]) else {
                continue;
            };
            let (Target::Line(f), s, n) = (
                &self.targets[*i],
                &self.search.all[*i],
                &self.new.all[al.news[j]],
            ) else {
                continue;
            };
            let d = &self.file.all[*f];
            if !n.same_as(s) || s.indent == d.indent {
                continue;
            }
            if n.indent == d.indent {
                file += 1;
            } else if n.indent == s.indent {
                search += 1;
            }
        }
        match file.cmp(&search) {
            std::cmp::Ordering::Greater => Some(true),
            std::cmp::Ordering::Less => Some(false),
            std::cmp::Ordering::Equal => None,
        }
    }

    /// The indentation steps of the caller's text (search and new content)
    /// and of the file around the block.
    fn units(&self) -> Option<(usize, usize)> {
        const AROUND: usize = 100;
        let widths = |lines: &mut dyn Iterator<Item = &Line<'_>>| -> Vec<usize> {
            lines.filter(|l| !l.is_blank()).map(|l| l.width).collect()
        };
        let caller = widths(&mut self.search.all.iter().chain(self.new.all.iter()));
        let lo = self.region.0.saturating_sub(AROUND);
        let hi = (self.region.1 + AROUND).min(self.file.len() - 1);
        let file = widths(&mut self.file.all[lo..=hi].iter());
        let (c, f) = (step(caller.iter().copied()), step(file.iter().copied()));
        (c > 0 && f > 0).then_some((c, f))
    }

    fn indent_map(&self, al: &Alignment) -> IndentMap {
        let pairs: Vec<(&str, &str)> = self
            .targets
            .iter()
            .enumerate()
            .filter_map(|(i, t)| match t {
                Target::Line(f) if !self.search.all[i].is_blank() => {
                    Some((self.search.all[i].indent, self.file.all[*f].indent))
                }
                _ => None,
            })
            .collect();
        let block: Vec<&str> = (self.region.0..=self.region.1)
            .map(|f| &self.file.all[f])
            .filter(|l| !l.is_blank())
            .map(|l| l.indent)
            .collect();
        let new_indents: Vec<&str> = self
            .new
            .all
            .iter()
            .filter(|l| !l.is_blank() && !self.markers.is_marker(l))
            .map(|l| l.indent)
            .collect();
        IndentMap::with_frame(
            &pairs,
            &block,
            &new_indents,
            Hints {
                file_frame: self.new_in_file_frame(al),
                units: self.units(),
            },
        )
    }

    /// Refuses a change that meets something other than what the caller saw.
    fn check(&self, al: &Alignment) -> Result<(), Blocked> {
        self.check_hidden(al)?;
        for op in &al.ops {
            let (tag, old, new) = op.as_tag_tuple();
            if tag == similar::DiffTag::Equal {
                continue;
            }
            let replaced = !new.is_empty();
            for k in old.clone() {
                let partner = al.partner_of_old[k].map(|j| &self.new.all[al.news[j]]);
                match &al.olds[k] {
                    Old::Search(i) => self.check_search_line(al, k, *i, partner, replaced)?,
                    Old::Hidden { .. } | Old::Unseen(_) => {}
                    Old::Marker(i) => {
                        if partner.is_none()
                            && let Target::Middle(hidden) = &self.targets[*i]
                            && hidden.clone().any(|f| !self.file.all[f].is_blank())
                        {
                            return Err(Blocked::Hidden {
                                search_line: *i,
                                hidden: hidden.clone(),
                            });
                        }
                    }
                }
            }
            self.check_foreign(al, old)?;
        }
        Ok(())
    }

    /// Lines an elision stood for and `new_content` does not keep it: they
    /// must turn up in `new_content` (as they are or rewritten), all but a
    /// few the caller removes on purpose; otherwise they were never seen.
    /// A few lines the search skipped without a marker may also be left out
    /// of `new_content` altogether: the caller forgot them, and they stay.
    fn check_hidden(&self, al: &Alignment) -> Result<(), Blocked> {
        let mut stretches: Vec<(usize, Range<usize>, bool, usize, usize)> = Vec::new();
        for (k, old) in al.olds.iter().enumerate() {
            let Old::Hidden {
                line,
                by,
                stretch,
                marker,
            } = old
            else {
                continue;
            };
            let disk = &self.file.all[*line];
            let written = al.partner_of_old[k].is_some_and(|j| {
                let n = &self.new.all[al.news[j]];
                n.same_as(disk) || line_similarity(n, disk) >= REWRITE
            });
            match stretches.iter_mut().find(|s| s.0 == *by && s.2 == *marker) {
                Some(s) => {
                    s.3 += 1;
                    s.4 += usize::from(written);
                }
                None => stretches.push((*by, stretch.clone(), *marker, 1, usize::from(written))),
            }
        }
        // Forgotten lines are a few, among many the search does have.
        let shown = self.search.nonblank.len();
        let dropped =
            |&(_, _, marker, total, written): &(usize, Range<usize>, bool, usize, usize)| {
                let forgotten =
                    !marker && written == 0 && total <= MAX_FORGOTTEN && total * 3 <= shown;
                written * 4 < total * 3 && !forgotten
            };
        match stretches.into_iter().find(dropped) {
            Some((search_line, hidden, ..)) => Err(Blocked::Hidden {
                search_line,
                hidden,
            }),
            None => Ok(()),
        }
    }

    /// A search line the change removes or rewrites must be on disk as the
    /// caller saw it, up to a typo or two, unless `new_content` keeps it or
    /// has it as the disk has it.
    fn check_search_line(
        &self,
        al: &Alignment,
        k: usize,
        i: usize,
        partner: Option<&Line<'_>>,
        replaced: bool,
    ) -> Result<(), Blocked> {
        let line = &self.search.all[i];
        match &self.targets[i] {
            Target::Line(f) => {
                let disk = &self.file.all[*f];
                let agrees = partner.is_some_and(|n| n.same_as(line) || n.same_as(disk));
                if !agrees && !within_typos(line, disk) {
                    return Err(Blocked::Conflict {
                        search_line: i,
                        file_line: *f,
                        reason: ConflictReason::LineDiffers,
                    });
                }
            }
            Target::Absent if replaced && !partner.is_some_and(|n| n.same_as(line)) => {
                let lo = al.olds[..k]
                    .iter()
                    .rev()
                    .find_map(|o| self.span_of(o))
                    .map(|s| s.end);
                let hi = al.olds[k + 1..]
                    .iter()
                    .find_map(|o| self.span_of(o))
                    .map(|s| s.start);
                let (Some(lo), Some(hi)) = (lo, hi) else {
                    // Past either end of what matched, nothing tells where
                    // the line would be or what stands there now.
                    return Err(Blocked::Conflict {
                        search_line: i,
                        file_line: if lo.is_none() {
                            self.region.0
                        } else {
                            self.region.1
                        },
                        reason: ConflictReason::LineMissing,
                    });
                };
                if let Some(f) = (lo..hi).find(|&f| !self.file.all[f].is_blank()) {
                    return Err(Blocked::Conflict {
                        search_line: i,
                        file_line: f,
                        reason: ConflictReason::LineMissing,
                    });
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// Refuses to change a run of lines that has a non-blank disk line the
    /// search did not have (added since the caller read the file) among them.
    fn check_foreign(&self, al: &Alignment, old: Range<usize>) -> Result<(), Blocked> {
        // Lines the search never showed (unseen ones, skipped ones that
        // new_content leaves out) are what this check looks for.
        let seen = |k: &usize| match &al.olds[*k] {
            Old::Unseen(_) => false,
            Old::Hidden {
                marker: false, by, ..
            } => !al.skipped_unwritten(*by),
            _ => true,
        };
        let spans: Vec<Range<usize>> = old
            .clone()
            .filter(seen)
            .filter_map(|k| self.span_of(&al.olds[k]))
            .collect();
        let (Some(lo), Some(hi)) = (
            spans.iter().map(|s| s.start).min(),
            spans.iter().map(|s| s.end).max(),
        ) else {
            return Ok(());
        };
        // An unseen line new_content has is known to the caller.
        let kept: Vec<usize> = old
            .clone()
            .filter_map(|k| match al.olds[k] {
                Old::Unseen(line) if al.partner_of_old[k].is_some() => Some(line),
                _ => None,
            })
            .collect();
        let known = |f: usize| spans.iter().any(|s| s.contains(&f)) || kept.contains(&f);
        match (lo..hi).find(|&f| !self.file.all[f].is_blank() && !known(f)) {
            Some(f) => Err(Blocked::Conflict {
                search_line: al.olds[..=old.start]
                    .iter()
                    .rev()
                    .find_map(|o| match o {
                        Old::Search(i) | Old::Marker(i) => Some(*i),
                        Old::Hidden { by, .. } => Some(*by),
                        Old::Unseen(_) => None,
                    })
                    .unwrap_or(0),
                file_line: f,
                reason: ConflictReason::ExtraLine,
            }),
            None => Ok(()),
        }
    }

    /// Writes the paired lines `olds[k]` (standing for disk lines `span`)
    /// and `news[j]`.
    fn anchor(
        &self,
        al: &Alignment,
        k: usize,
        j: usize,
        span: Range<usize>,
        indents: &IndentMap,
        out: &mut Vec<Out<'a>>,
    ) -> Result<(), Blocked> {
        let n = &self.new.all[al.news[j]];
        let (s, paired) = match &al.olds[k] {
            Old::Marker(_) => {
                for f in span {
                    let d = &self.file.all[f];
                    out.push(Out {
                        text: Cow::Borrowed(d.raw),
                        eol: Some(d.eol),
                    });
                }
                return Ok(());
            }
            Old::Search(i) => {
                let s = &self.search.all[*i];
                (Some(s), Some(s.indent))
            }
            Old::Hidden { .. } => (None, None),
            Old::Unseen(_) => {
                let d = &self.file.all[span.start];
                out.push(Out {
                    text: Cow::Borrowed(d.raw),
                    eol: Some(d.eol),
                });
                return Ok(());
            }
        };
        let d: &'a Line<'t> = &self.file.all[span.start];
        let paired = paired.map(|si| (si, d.indent));
        let same_body = match s {
            Some(s) if n.same_as(s) => body(n) == body(s) || body(n) == body(d),
            _ if n.same_as(d) => true,
            _ => {
                let rewrites_literal = s.is_some_and(|s| self.markers.is_literal(s));
                if self.is_stray_marker(n) && !rewrites_literal {
                    return Err(Blocked::Marker {
                        new_line: al.news[j],
                    });
                }
                out.push(Out {
                    text: self.render_new(n, indents, paired),
                    eol: Some(d.eol),
                });
                return Ok(());
            }
        };
        let mapped = indents.map(n.indent, paired);
        let keep_indent =
            s.is_some_and(|s| s.indent == n.indent) || mapped == d.indent || n.indent == d.indent;
        let text = match (same_body, keep_indent) {
            (true, true) => Cow::Borrowed(d.raw),
            (true, false) => Cow::Owned(format!("{mapped}{}", &d.raw[d.indent.len()..])),
            (false, _) => self.render_new(n, indents, paired),
        };
        out.push(Out {
            text,
            eol: Some(d.eol),
        });
        Ok(())
    }

    /// Whether a line of `new_content` is an elision marker that may not be
    /// written as a line.
    pub(crate) fn is_stray_marker(&self, line: &Line<'_>) -> bool {
        self.markers.is_marker(line) && (self.elision || self.markers.is_comment_marker(line))
    }

    /// A new line in the file's indentation.
    pub(crate) fn render_new<'x>(
        &self,
        line: &'x Line<'_>,
        indents: &IndentMap,
        paired: Option<(&str, &str)>,
    ) -> Cow<'x, str> {
        if indents.is_identity() {
            return Cow::Borrowed(line.raw);
        }
        if line.is_blank() {
            return Cow::Borrowed("");
        }
        let mut text = indents.map(line.indent, paired);
        text.push_str(&line.raw[line.indent.len()..]);
        Cow::Owned(text)
    }
}

#[cfg(test)]
mod tests;
