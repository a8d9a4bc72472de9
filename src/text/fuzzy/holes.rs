//! What becomes of the disk lines between two lines the change pairs: the
//! lines the caller removed go, the lines it added come in, disk lines it
//! never saw stay where they are, and blank lines are reconciled (see
//! [`crate::text::fuzzy::gaps`]).

use std::borrow::Cow;
use std::collections::HashSet;
use std::ops::Range;

use super::align::Target;
use super::anchors::{Alignment, Old};
use super::apply::{Blocked, Out, Transplant};
use super::gaps::{GapCounts, side_of_insertion, split_ends};
use super::indent::IndentMap;
use super::normalize::width;
use super::outcome::ConflictReason;

/// Where a search blank line of a hole lies relative to the removed lines.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    Lead,
    Interior,
    Trail,
}

impl<'a> Transplant<'a, '_, '_, '_> {
    /// Writes the disk lines `disk` that lie between the paired lines `prev`
    /// and `next` (as `(old, new)` indices; `None` at either end of the
    /// block).
    pub(crate) fn hole(
        &self,
        al: &Alignment,
        prev: Option<(usize, usize)>,
        next: Option<(usize, usize)>,
        disk: Range<usize>,
        indents: &IndentMap,
        out: &mut Vec<Out<'a>>,
    ) -> Result<(), Blocked> {
        let olds = prev.map_or(0, |p| p.0 + 1)..next.map_or(al.olds.len(), |n| n.0);
        let news = prev.map_or(0, |p| p.1 + 1)..next.map_or(al.news.len(), |n| n.1);

        // Disk lines the removed search lines stand for.
        let mut gone: HashSet<usize> = HashSet::new();
        let (mut first_gone, mut last_gone) = (None, None);
        let mut forgotten = None;
        for k in olds.clone() {
            match &al.olds[k] {
                Old::Unseen(_) => continue,
                // Skipped lines new_content leaves out altogether stay (see
                // `check`).
                Old::Hidden {
                    marker: false,
                    by,
                    stretch,
                    ..
                } if al.skipped_unwritten(*by) => {
                    forgotten = Some((*by, stretch.clone()));
                    continue;
                }
                _ => {}
            }
            if let Some(span) = self.span_of(&al.olds[k]) {
                gone.extend(span);
                first_gone.get_or_insert(k);
                last_gone = Some(k);
            }
        }
        // New lines to write: those paired with nothing on disk, unless
        // paired with an equal search line (kept, and not there).
        let written = |j: usize| match al.partner_of_new[j] {
            None => true,
            Some(k) => {
                self.span_of(&al.olds[k]).is_none()
                    && !self.new.all[al.news[j]].same_as(self.old_line(&al.olds[k]))
            }
        };
        let mut lines = Vec::new();
        let mut gaps: Vec<Vec<usize>> = vec![al.new_gaps[news.start].clone()];
        for j in news.clone() {
            if written(j) {
                lines.push(al.news[j]);
                gaps.push(al.new_gaps[j + 1].clone());
            } else {
                let after = al.new_gaps[j + 1].clone();
                gaps.last_mut().expect("a gap").extend(after);
            }
        }

        // Search blank lines of the hole: seen ones by disk line, imagined
        // ones by where they stand among the removed lines.
        let mut seen: HashSet<usize> = HashSet::new();
        let mut imagined: Vec<Place> = Vec::new();
        for g in olds.start..=olds.end {
            let place = match (first_gone, last_gone) {
                (Some(a), _) if g <= a => Place::Lead,
                (_, Some(b)) if g > b => Place::Trail,
                (Some(_), Some(_)) => Place::Interior,
                _ => Place::Lead,
            };
            for &i in &al.old_gaps[g] {
                let at = match al.placed_blank(i) {
                    Some(at) => at,
                    None => match self.targets[i] {
                        Target::Line(f) => Some(f),
                        _ => None,
                    },
                };
                match at {
                    Some(f) if disk.contains(&f) => {
                        seen.insert(f);
                    }
                    _ => imagined.push(place),
                }
            }
        }
        let blank = |f: usize| self.file.all[f].is_blank();

        // A line new_content adds that reads exactly as a disk line here
        // that the search did not show: the caller may mean that line (and
        // would get it twice) or a copy of it. Refuse rather than guess.
        let twin = disk.clone().find(|&f| {
            !blank(f)
                && !gone.contains(&f)
                && lines
                    .iter()
                    .any(|&j| self.new.all[j].same_as(&self.file.all[f]))
        });
        if let Some(file_line) = twin {
            let search_line = prev
                .and_then(|p| match al.olds[p.0] {
                    Old::Search(i) | Old::Marker(i) => Some(i),
                    _ => None,
                })
                .unwrap_or(0);
            return Err(Blocked::Conflict {
                search_line,
                file_line,
                reason: ConflictReason::ExtraLine,
            });
        }

        if let Some((search_line, hidden)) = forgotten
            && (!gone.is_empty() || !lines.is_empty())
        {
            // Where changes go among lines the caller forgot is unknown.
            return Err(Blocked::Hidden {
                search_line,
                hidden,
            });
        }
        if gone.is_empty() && lines.is_empty() {
            let counts = GapCounts {
                seen: disk.clone().filter(|f| seen.contains(f)).count(),
                imagined: imagined.len(),
                unseen: disk
                    .clone()
                    .filter(|&f| blank(f) && !seen.contains(&f))
                    .count(),
                new: gaps.iter().map(Vec::len).sum(),
            };
            self.pure_gap(disk, counts, &seen, out);
            return Ok(());
        }

        // The changed stretch of disk lines, and the blank lines next to it.
        let (first, last) = if gone.is_empty() {
            let at = disk.clone().find(|&f| !blank(f)).unwrap_or(disk.end);
            (at, at)
        } else {
            (
                *gone.iter().min().expect("not empty"),
                *gone.iter().max().expect("not empty") + 1,
            )
        };
        let mut lead_from = first;
        while lead_from > disk.start && blank(lead_from - 1) && !gone.is_empty() {
            lead_from -= 1;
        }
        if gone.is_empty() {
            lead_from = disk.start;
        }
        let mut trail_to = last;
        while trail_to < disk.end && blank(trail_to) && !gone.is_empty() {
            trail_to += 1;
        }
        let lead_blanks = lead_from..first;
        let interior = first..last;
        let trail_blanks = last..trail_to;
        let count =
            |r: &Range<usize>, pick: &dyn Fn(usize) -> bool| r.clone().filter(|&f| pick(f)).count();
        // Seen blank lines beyond the changed stretch (past a disk line the
        // caller did not show) are written as they are below: new_content's
        // blank lines that stand for them are not written again.
        let seen_before = count(&(disk.start..lead_from), &|f| seen.contains(&f));
        let seen_after = count(&(trail_to..disk.end), &|f| seen.contains(&f));
        let (lead_new, trail_new) = if gaps.len() == 1 {
            let both = gaps[0].len().saturating_sub(seen_before + seen_after);
            (both, both)
        } else {
            (
                gaps[0].len().saturating_sub(seen_before),
                gaps[gaps.len() - 1].len().saturating_sub(seen_after),
            )
        };
        let lead = GapCounts {
            seen: count(&lead_blanks, &|f| seen.contains(&f)),
            imagined: imagined.iter().filter(|p| **p == Place::Lead).count(),
            unseen: count(&lead_blanks, &|f| blank(f) && !seen.contains(&f)),
            new: lead_new,
        };
        let trail = GapCounts {
            seen: count(&trail_blanks, &|f| seen.contains(&f)),
            imagined: imagined.iter().filter(|p| **p == Place::Trail).count(),
            unseen: count(&trail_blanks, &|f| blank(f) && !seen.contains(&f)),
            new: trail_new,
        };
        let kept_interior: Vec<usize> = interior
            .clone()
            .filter(|&f| !blank(f) && !gone.contains(&f))
            .collect();
        let mut pool: Vec<usize> = lead_blanks
            .clone()
            .chain(interior.clone().filter(|&f| blank(f)))
            .chain(trail_blanks.clone())
            .collect();
        pool.reverse();

        self.verbatim(disk.start..lead_from, out);
        if lines.is_empty() {
            let both = GapCounts {
                seen: lead.seen + trail.seen,
                imagined: lead.imagined + trail.imagined,
                unseen: lead.unseen + trail.unseen,
                new: lead_new,
            };
            self.blanks(both.result(), &mut pool, out);
        } else {
            let (lead_count, trail_count) = if gone.is_empty() {
                let both = GapCounts {
                    seen: lead.seen,
                    imagined: lead.imagined,
                    unseen: lead.unseen,
                    new: lead.new + trail.new,
                };
                let width_of = |j: Option<usize>| j.map(|j| width(self.new.all[al.news[j]].indent));
                let side = side_of_insertion(
                    width_of(prev.map(|p| p.1)),
                    width(self.new.all[lines[0]].indent),
                    width_of(next.map(|n| n.1)),
                );
                split_ends(both.result(), lead.new, trail.new, side)
            } else {
                (lead.result(), trail.result())
            };
            self.blanks(lead_count, &mut pool, out);
            for (t, &j) in lines.iter().enumerate() {
                let line = &self.new.all[j];
                if self.is_stray_marker(line) {
                    return Err(Blocked::Marker { new_line: j });
                }
                out.push(Out {
                    text: self.render_new(line, indents, None),
                    eol: None,
                });
                if t + 1 < lines.len() {
                    for &b in &gaps[t + 1] {
                        out.push(Out {
                            text: self.render_new(&self.new.all[b], indents, None),
                            eol: None,
                        });
                    }
                }
            }
            self.blanks(trail_count, &mut pool, out);
        }
        for f in kept_interior {
            self.verbatim(f..f + 1, out);
        }
        self.verbatim(trail_to..disk.end, out);
        Ok(())
    }

    /// A hole with nothing removed or added: its disk lines stay, with blank
    /// lines removed or added as the gap's counts say.
    fn pure_gap(
        &self,
        disk: Range<usize>,
        counts: GapCounts,
        seen: &HashSet<usize>,
        out: &mut Vec<Out<'a>>,
    ) {
        let have = counts.seen + counts.unseen;
        let want = counts.result();
        let mut remove: HashSet<usize> = HashSet::new();
        if want < have {
            remove.extend(
                disk.clone()
                    .rev()
                    .filter(|f| seen.contains(f))
                    .take(have - want),
            );
        }
        let last_blank = disk
            .clone()
            .rev()
            .find(|&f| self.file.all[f].is_blank() && !remove.contains(&f));
        if last_blank.is_none() {
            self.blanks(want.saturating_sub(have), &mut Vec::new(), out);
        }
        for f in disk {
            if remove.contains(&f) {
                continue;
            }
            self.verbatim(f..f + 1, out);
            if Some(f) == last_blank {
                self.blanks(want.saturating_sub(have), &mut Vec::new(), out);
            }
        }
    }

    /// Disk lines as they are.
    fn verbatim(&self, lines: Range<usize>, out: &mut Vec<Out<'a>>) {
        let file = self.file;
        for f in lines {
            let line = &file.all[f];
            out.push(Out {
                text: Cow::Borrowed(line.raw),
                eol: Some(line.eol),
            });
        }
    }

    /// `count` blank lines, reusing disk blank lines from the end of `pool`.
    fn blanks(&self, count: usize, pool: &mut Vec<usize>, out: &mut Vec<Out<'a>>) {
        let file = self.file;
        for _ in 0..count {
            match pool.pop() {
                Some(f) => out.push(Out {
                    text: Cow::Borrowed(file.all[f].raw),
                    eol: Some(file.all[f].eol),
                }),
                None => out.push(Out {
                    text: Cow::Borrowed(""),
                    eol: None,
                }),
            }
        }
    }
}
