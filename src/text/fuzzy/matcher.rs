//! From request to plan: exact occurrences first, then tolerant candidates
//! (with elision markers, then without), the policy's decision, and the edits.

use std::ops::Range;

use super::EditRequest;
use super::align::{self, Target, misindented, pair_around};
use super::apply::{Blocked, Transplant};
use super::block::{Line, Lines, joined};
use super::candidates::{Probe, Window, period};
use super::diff::unified;
use super::elision::{self, Markers, Segments};
use super::exact::{self, Occurrence};
use super::literal::literal;
use super::normalize::{LfText, key_hash, whitespace_collapsed};
use super::outcome::{
    Adjustment, Candidate, LineRange, MatchKind, Plan, PlannedEdit, Refusal, Splice, Strategy,
};
use super::policy::{self, Decision, Summary};
use super::score::{self, score_of, within_typos};
use super::skipped::head_and_tail;
use super::stale::{self, new_corrects};
use super::tokens::meaningful_change;
use super::twice;
use crate::text::lines::{Eol, LineIndex};

/// How many fuzzy regions get a full line pairing and a final score.
const TOP: usize = 8;
/// Least similarity (0-1) for an unpaired line at the search's end to be
/// taken for a file line just past the match (see `cut_short`).
const LOOKS_LEFT_OUT: f64 = 0.8;
/// How far (non-blank lines) beyond a candidate its unpaired first or last
/// search lines are looked for.
const MAX_SKIPPED: usize = 200;

/// How like a file line a `new_content` line must be to be taken for its
/// rewritten form, where the search did not show that line.
const REWRITTEN_LIKENESS: f64 = 0.7;

/// A candidate with everything needed to turn it into an edit.
struct Found {
    how: How,
    dist: usize,
    score: f64,
    /// First and last file line (0-based, inclusive).
    region: (usize, usize),
    adjustments: Vec<Adjustment>,
    content: u64,
}

enum How {
    /// Replace exactly these bytes (an exact occurrence within lines).
    Substring(Range<usize>),
    /// Replay the caller's change on these lines.
    Lines(Shape),
}

/// How the search's lines stand for the file's lines.
struct Shape {
    /// What each search line stands for.
    targets: Vec<Target>,
    /// Whether the search was matched with elision markers.
    elision: bool,
    /// Other ways the last segment of an elided search fits.
    alternatives: Vec<Vec<Target>>,
    /// File lines the search skipped without a marker, after a search line.
    skipped: Option<(usize, Range<usize>)>,
}

impl Shape {
    fn lines(targets: Vec<Target>, elision: bool) -> How {
        How::Lines(Shape {
            targets,
            elision,
            alternatives: Vec::new(),
            skipped: None,
        })
    }
}

impl Found {
    fn summary(&self) -> Summary {
        Summary {
            dist: self.dist,
            score: self.score,
            region: self.region,
            content: self.content,
        }
    }

    fn candidate(&self) -> Candidate {
        Candidate {
            lines: LineRange {
                start: self.region.0 + 1,
                end: self.region.1 + 1,
            },
            score: self.score,
            kind: Adjustment::kind_of(&self.adjustments),
        }
    }
}

/// The outcome of settling one set of candidates.
enum Settled {
    /// The plan.
    Plan(Plan),
    /// A match was chosen but cannot take the edit: final.
    Blocked(Refusal),
    /// No match was chosen: another way of matching may still succeed.
    Refused(Refusal),
}

/// Plans `request` against `text`.
pub(crate) fn plan(text: &str, request: &EditRequest<'_>) -> Result<Plan, Refusal> {
    plan_with(text, request, true)
}

/// [`plan`], trying a search rewritten after `new_content` when nothing
/// matches and `rescue` is set.
fn plan_with(text: &str, request: &EditRequest<'_>, rescue: bool) -> Result<Plan, Refusal> {
    if !request.threshold.is_finite() || !(0.0..=1.0).contains(&request.threshold) {
        return Err(Refusal::InvalidThreshold {
            threshold: request.threshold,
        });
    }
    let search = Lines::of_snippet(request.search);
    if search.nonblank.is_empty() {
        return Err(Refusal::EmptySearch);
    }
    let lf = LfText::new(text);
    let mut occurrences = exact::occurrences(text, &lf, request.search);
    drop(lf);
    // A search that begins with a line break and is found right after a
    // line's text begins with one blank line fewer than it shows: its first
    // blank line is the end of that line. Such a find is not exact; the
    // tolerant path weighs its blank lines against the file's.
    if request.search.starts_with(['\n', '\r']) {
        occurrences.retain(|o| o.range.start == 0 || text[..o.range.start].ends_with('\n'));
    }
    let index = LineIndex::new(text);
    let file = Lines::of_text(text, &index);
    let m = Matcher {
        text,
        request,
        threshold: request.threshold * 100.0,
        markers: Markers::of(&file),
        file,
        index,
        search,
        new: Lines::of_snippet(request.replacement),
        rescue,
    };
    match (request.strategy, occurrences.len()) {
        (_, 0) => m.tolerant().and_then(|plan| {
            match twice::miscounted(text, &plan, request.search, request.replacement) {
                None => Ok(plan),
                Some((twice::Miscount::Twice, t)) => Err(Refusal::WrittenTwice {
                    lines: t.lines,
                    line: t.text,
                    copy_at: t.copy_at,
                }),
                Some((twice::Miscount::Lost, t)) => Err(Refusal::CopyLost {
                    lines: t.lines,
                    line: t.text,
                    copy_at: t.copy_at,
                }),
            }
        }),
        (Strategy::SingleMatch, 1) => {
            if let Some(lines) = m.already_applied(&occurrences[0]) {
                return Err(Refusal::AlreadyApplied { lines });
            }
            let found = m.found_at(&occurrences[0], false);
            m.build(vec![&found], Vec::new())
        }
        (Strategy::SingleMatch, _) => Err(Refusal::Ambiguous {
            candidates: occurrences
                .iter()
                .map(|o| m.found_at(o, false).candidate())
                .collect(),
        }),
        (Strategy::ReplaceAll, _) => m.replace_all_exact(&occurrences),
    }
}

/// A file line beside a matched block that the search lacks and
/// `new_content` writes out (see [`Matcher::unseen_runs`]).
struct Unseen {
    line: usize,
    /// The `new_content` line that writes it out.
    new: usize,
    /// Whether that line is a rewritten form of it rather than the same.
    rewritten: bool,
}

struct Matcher<'r, 't> {
    text: &'t str,
    request: &'r EditRequest<'r>,
    threshold: f64,
    index: LineIndex,
    file: Lines<'t>,
    search: Lines<'r>,
    new: Lines<'r>,
    markers: Markers,
    /// Whether a miss may be retried with the search as `new_content` has
    /// its lines (see `stale`).
    rescue: bool,
}

impl<'r, 't> Matcher<'r, 't> {
    /// Where `new_content` already stands, when it is `search_context` with
    /// text added before or after and the file has that text right there.
    /// Only added text with something besides whitespace counts: adding a
    /// blank line is no sign of a repeated call.
    fn already_applied(&self, o: &Occurrence) -> Option<LineRange> {
        let search = self.request.search.replace("\r\n", "\n");
        let new = self.request.replacement.replace("\r\n", "\n");
        let substantial = |s: &str| s.chars().any(|c| !c.is_whitespace());
        let line_of = |offset: usize| self.index.line_of_offset(offset.min(self.text.len()));
        let breaks = |s: &str| s.matches('\n').count();
        if let Some(tail) = new.strip_prefix(search.as_str())
            && substantial(tail)
            && lf_prefix(&self.text[o.range.end..], tail.len()).starts_with(tail)
        {
            let last = line_of(o.range.end) + breaks(tail) - usize::from(tail.ends_with('\n'));
            return Some(LineRange {
                start: line_of(o.range.start),
                end: last,
            });
        }
        if let Some(head) = new.strip_suffix(search.as_str())
            && substantial(head)
            && lf_suffix(&self.text[..o.range.start], head.len()).ends_with(head)
        {
            return Some(LineRange {
                start: line_of(o.range.start).saturating_sub(breaks(head)).max(1),
                end: line_of(o.range.end.saturating_sub(1).max(o.range.start)),
            });
        }
        None
    }

    fn found_at(&self, o: &Occurrence, force_substring: bool) -> Found {
        let first = self.index.line_of_offset(o.range.start);
        let last = if o.range.end > o.range.start {
            self.index.line_of_offset(o.range.end - 1)
        } else {
            first
        };
        let prefix = &self.text[self.index.start(first)..o.range.start];
        let content_end = self.index.span(self.text, last).end;
        let suffix = if o.range.end <= content_end {
            &self.text[o.range.end..content_end]
        } else {
            ""
        };
        let blank = |s: &str| s.bytes().all(|b| b == b' ' || b == b'\t');
        // A search that only left out the first line's indentation is a block
        // of whole lines: replaying it re-indents every new line, where a
        // literal splice would indent only the first.
        // Emptying such a block without its final line break leaves the
        // line, as a literal replacement would; only a search that ends with
        // its line break removes whole lines.
        let empties = self.request.replacement.is_empty() && !self.request.search.ends_with('\n');
        let whole = !force_substring
            && !empties
            && blank(prefix)
            && suffix.is_empty()
            && self.search.len() == last - first + 1;
        let how = if whole {
            Shape::lines(
                (0..self.search.len())
                    .map(|k| Target::Line(first - 1 + k))
                    .collect(),
                false,
            )
        } else {
            How::Substring(o.range.clone())
        };
        Found {
            how,
            dist: 0,
            score: 100.0,
            region: (first - 1, last - 1),
            adjustments: if o.identical {
                Vec::new()
            } else {
                vec![Adjustment::LineEndings]
            },
            content: 0,
        }
    }

    fn replace_all_exact(&self, occurrences: &[Occurrence]) -> Result<Plan, Refusal> {
        let kept = exact::disjoint(occurrences);
        let shares_line = |k: usize| {
            let line = |o: &Occurrence| {
                (
                    self.index.line_of_offset(o.range.start),
                    self.index
                        .line_of_offset(o.range.end.max(o.range.start + 1) - 1),
                )
            };
            let (a, b) = line(&kept[k]);
            (k > 0 && line(&kept[k - 1]).1 >= a) || kept.get(k + 1).is_some_and(|n| line(n).0 <= b)
        };
        let mut founds: Vec<Found> = (0..kept.len())
            .map(|k| self.found_at(&kept[k], shares_line(k)))
            .collect();
        // The exact matches are in text order and do not overlap, so one
        // binary search finds the only ones a candidate could overlap.
        let exact_regions: Vec<(usize, usize)> = founds.iter().map(|f| f.region).collect();
        let overlaps_exact = |f: &Found| {
            let k = exact_regions.partition_point(|r| r.1 < f.region.0);
            exact_regions.get(k).is_some_and(|r| r.0 <= f.region.1)
        };
        let mut added: Vec<(usize, usize)> = Vec::new();
        let overlaps_added = |f: &Found, added: &[(usize, usize)]| {
            added.iter().any(|r| r.0 <= f.region.1 && f.region.0 <= r.1)
        };
        let mut near = Vec::new();
        for f in self.normal() {
            if f.score < self.threshold || overlaps_exact(&f) || overlaps_added(&f, &added) {
                continue;
            }
            if f.dist == 0 {
                added.push(f.region);
                founds.push(f);
            } else {
                near.push(f.candidate());
            }
        }
        founds.sort_by_key(|f| f.region.0);
        self.build(founds.iter().collect(), near)
    }

    fn tolerant(&self) -> Result<Plan, Refusal> {
        let mut elided_refusal = None;
        if let Some(segments) = Segments::of(&self.search, &self.markers) {
            match self.settle(self.elided(&segments)) {
                Settled::Plan(p) => return Ok(p),
                Settled::Blocked(r) => return Err(r),
                Settled::Refused(r) => elided_refusal = Some(r),
            }
        }
        let refusal = match self.settle(self.normal()) {
            Settled::Plan(p) => return Ok(p),
            Settled::Blocked(r) => return Err(r),
            Settled::Refused(r) => match elided_refusal {
                None => r,
                Some(e) => prefer(e, r),
            },
        };
        if let Refusal::NotFound {
            best: Some(best), ..
        } = &refusal
            && let Some(plan) = self.rescued(best.lines)
        {
            return Ok(plan);
        }
        if matches!(
            refusal,
            Refusal::NotFound { .. } | Refusal::LinesLeftOut { .. } | Refusal::Elsewhere { .. }
        ) && let Some(result) = self.skipped_middle()
        {
            return result;
        }
        Err(refusal)
    }

    /// A plan for the search with the lines `new_content` has as the block
    /// `best` has them (see `stale`), if that search finds that block.
    fn rescued(&self, best: LineRange) -> Option<Plan> {
        if !self.rescue {
            return None;
        }
        let search = stale::as_new_has_it(
            &self.search,
            &self.new,
            &self.file,
            best.start - 1..best.end,
        )?;
        let request = EditRequest {
            search: &search,
            ..*self.request
        };
        let plan = plan_with(self.text, &request, false).ok()?;
        plan.edits
            .iter()
            .all(|e| e.lines.start <= best.end && best.start <= e.lines.end)
            .then_some(plan)
    }

    /// A plan for a search that is the head and the tail of a block whose
    /// middle `new_content` writes out (see `skipped`); `None` when the
    /// search is no such thing.
    fn skipped_middle(&self) -> Option<Result<Plan, Refusal>> {
        let fit = head_and_tail(&self.search, &self.file)?;
        let targets = align::targets(&self.search, &self.file, &fit.pairs);
        let region = align::region(&targets)?;
        let found = Found {
            adjustments: {
                let mut a = self.drift(&targets, region, true, 0);
                a.retain(|x| *x != Adjustment::Fuzzy);
                a
            },
            content: self.content(region),
            how: How::Lines(Shape {
                targets,
                elision: false,
                alternatives: Vec::new(),
                skipped: Some((fit.after, fit.skipped.clone())),
            }),
            dist: 0,
            score: score_of(0, 1, 1),
            region,
        };
        match self.build(vec![&found], Vec::new()) {
            Ok(plan) => Some(Ok(plan)),
            Err(Refusal::HiddenLinesDropped { .. }) => Some(Err(Refusal::LinesLeftOut {
                lines: found.candidate().lines,
                left_out: LineRange {
                    start: fit.skipped.start + 1,
                    end: fit.skipped.end,
                },
            })),
            Err(other) => Some(Err(other)),
        }
    }

    fn settle(&self, founds: Vec<Found>) -> Settled {
        let summaries: Vec<Summary> = founds.iter().map(Found::summary).collect();
        match policy::decide(&summaries, self.request.strategy, self.threshold) {
            Decision::Apply(chosen) => {
                for &c in &chosen {
                    if let Some(refusal) = self
                        .elsewhere(&founds[c])
                        .or_else(|| self.not_a_typo(&founds[c]))
                        .or_else(|| self.cut_short(&founds[c]))
                    {
                        return Settled::Refused(refusal);
                    }
                }
                let near = match self.request.strategy {
                    Strategy::SingleMatch => Vec::new(),
                    Strategy::ReplaceAll => founds
                        .iter()
                        .enumerate()
                        .filter(|(i, f)| {
                            !chosen.contains(i)
                                && f.score >= self.threshold
                                && chosen.iter().all(|&c| {
                                    let g = &founds[c];
                                    f.region.1 < g.region.0 || g.region.1 < f.region.0
                                })
                        })
                        .map(|(_, f)| f.candidate())
                        .collect(),
                };
                match self.build(chosen.iter().map(|&i| &founds[i]).collect(), near) {
                    Ok(p) => Settled::Plan(p),
                    Err(r) => Settled::Blocked(r),
                }
            }
            Decision::Ambiguous(list) => {
                let candidates = list.iter().map(|&i| founds[i].candidate()).collect();
                Settled::Refused(match self.request.strategy {
                    Strategy::ReplaceAll => Refusal::Unlike { candidates },
                    Strategy::SingleMatch => Refusal::Ambiguous { candidates },
                })
            }
            Decision::NotFound(best_index) => {
                let best = best_index.map(|i| &founds[i]);
                let equally_close = best
                    .map(|b| {
                        founds
                            .iter()
                            .enumerate()
                            .filter(|&(i, f)| {
                                Some(i) != best_index
                                    && f.dist == b.dist
                                    && (f.region.1 < b.region.0 || b.region.1 < f.region.0)
                            })
                            .map(|(_, f)| f.candidate())
                            .collect()
                    })
                    .unwrap_or_default();
                Settled::Refused(Refusal::NotFound {
                    best: best.map(Found::candidate),
                    diff: best.map_or_else(String::new, |f| self.diff_against(f.region)),
                    threshold: self.threshold,
                    equally_close,
                })
            }
        }
    }

    /// A fuzzy match pairs some search lines with disk lines that read
    /// differently. If such a search line reads exactly like a line elsewhere
    /// in the file, the caller copied it from there: it is no typo, and the
    /// block may well be there instead. Refuses rather than guess.
    fn elsewhere(&self, f: &Found) -> Option<Refusal> {
        let How::Lines(Shape { targets, .. }) = &f.how else {
            return None;
        };
        if f.dist == 0 {
            return None;
        }
        let differing: Vec<usize> = targets
            .iter()
            .enumerate()
            .filter_map(|(i, t)| match t {
                Target::Line(l) => {
                    let s = &self.search.all[i];
                    let d = &self.file.all[*l];
                    // new_content having the disk's line says the search's is
                    // stale, unless the search's is a line of the file just
                    // past the block: then new_content may be writing out a
                    // look-alike the search left out.
                    (!s.is_blank()
                        && s.chars >= 4
                        && !s.same_as(d)
                        && (!new_corrects(&self.new, s, d) || self.copy_nearby(s, f.region)))
                    .then_some(i)
                }
                // A search line that matched nothing in the block but reads
                // exactly like a file line outside it: the block read too
                // short (a run of look-alikes, a middle left out) as often
                // as the line is an invention.
                Target::Absent => {
                    let s = &self.search.all[i];
                    (!s.is_blank() && s.chars >= 4).then_some(i)
                }
                Target::Middle(_) => None,
            })
            .collect();
        for i in differing {
            let s = &self.search.all[i];
            let lines: Vec<usize> = (0..self.file.len())
                .filter(|&l| (l < f.region.0 || l > f.region.1) && self.file.all[l].same_as(s))
                .map(|l| l + 1)
                .collect();
            if !lines.is_empty() {
                return Some(Refusal::Elsewhere {
                    best: f.candidate(),
                    search_line: i + 1,
                    file_lines: lines,
                    diff: self.diff_against(f.region),
                });
            }
        }
        None
    }

    /// Whether a file line outside `region`, no further from it than the
    /// search is long, reads exactly like `line`.
    fn copy_nearby(&self, line: &Line<'_>, region: (usize, usize)) -> bool {
        let reach = self.search.len();
        let lo = region.0.saturating_sub(reach);
        let hi = (region.1 + reach).min(self.file.len().saturating_sub(1));
        (lo..region.0)
            .chain(region.1 + 1..=hi)
            .any(|l| self.file.all[l].same_as(line))
    }

    /// A fuzzy match pairs a search line the edit changes with a disk line
    /// that differs by a number, an operator, or a name new_content keeps:
    /// the caller means another line (see `tokens`). Refuses rather than
    /// overwrite it.
    fn not_a_typo(&self, f: &Found) -> Option<Refusal> {
        let How::Lines(Shape { targets, .. }) = &f.how else {
            return None;
        };
        if f.dist == 0 {
            return None;
        }
        let kept: std::collections::HashSet<&str> =
            self.new.all.iter().map(|l| l.raw.trim()).collect();
        targets.iter().enumerate().find_map(|(i, t)| {
            let Target::Line(l) = t else { return None };
            let s = &self.search.all[i];
            let d = &self.file.all[*l];
            // Lines further apart than a typo are the conflict check's; a
            // line new_content has as the file has it is no evidence of
            // another place.
            if s.is_blank() || s.same_as(d) || !within_typos(s, d) || new_corrects(&self.new, s, d)
            {
                return None;
            }
            // A context line the edit keeps is disk bytes either way: only a
            // different number or operator there says the caller means
            // another block; a misspelt name does not.
            let changed = !kept.contains(s.raw.trim());
            let change = meaningful_change(&s.canon, &d.canon, self.request.replacement)
                .filter(|c| changed || !c.is_name())?;
            Some(Refusal::NotATypo {
                best: f.candidate(),
                search_line: i + 1,
                file_line: l + 1,
                search_token: change.search,
                file_token: change.disk,
                diff: self.diff_against(f.region),
            })
        })
    }

    /// Candidates for the search as a whole.
    fn normal(&self) -> Vec<Found> {
        let lines: Vec<&Line<'_>> = self
            .search
            .nonblank
            .iter()
            .map(|&i| &self.search.all[i])
            .collect();
        let probe = Probe::new(lines);
        let total = self.file.nonblank.len();
        let mut windows = probe.find(&self.file, 0..total);
        let zero = windows.iter().filter(|w| w.dist == 0).count();
        windows.truncate(zero + TOP);
        // A block that repeats itself fits a repetitive file at small shifts
        // that region merging hides: put them back as rivals of the best fit.
        if let Some(p) = period(probe.lines())
            && let Some(best) = windows.iter().find(|w| w.dist > 0).copied()
        {
            let len = best.end - best.start;
            for start in [best.start.checked_sub(p), Some(best.start + p)]
                .into_iter()
                .flatten()
            {
                if start + len <= total {
                    windows.push(probe.measure(&self.file, start, start + len));
                }
            }
        }
        let founds = windows
            .iter()
            .filter_map(|w| self.found_in(&probe, w))
            .filter(|f| !self.reads_marker_as_text(f))
            .collect();
        distinct(founds)
    }

    /// Whether `f` reads an elision marker of the search as a line of text
    /// (paired with another file line, or a line the file lacks): the marker
    /// stands for lines left out, and only the elided reading may place them.
    fn reads_marker_as_text(&self, f: &Found) -> bool {
        let How::Lines(Shape { targets, .. }) = &f.how else {
            return false;
        };
        targets.iter().enumerate().any(|(i, t)| {
            let line = &self.search.all[i];
            // A marker-like line the file also has (a Python `...` body) is
            // content only where it meets that line; left unpaired, it stood
            // for lines left out after all.
            (self.markers.is_marker(line) && !matches!(t, Target::Middle(_)))
                || (self.markers.is_literal(line)
                    && !matches!(t, Target::Line(f) if self.file.all[*f].same_as(line)))
        })
    }

    /// A candidate that leaves the search's first or last lines unpaired,
    /// when those lines follow in the file a few lines further on (or come
    /// a few lines before): the search skipped lines of a longer block, and
    /// the candidate is only part of it.
    fn cut_short(&self, f: &Found) -> Option<Refusal> {
        let How::Lines(Shape { targets, .. }) = &f.how else {
            return None;
        };
        // A line paired with another line than its own counts as unpaired
        // here: the window may have stretched over look-alikes to reach it,
        // while the line itself follows just past the match.
        let paired = |i: usize| match targets[i] {
            Target::Absent => false,
            Target::Line(f) => self.search.all[i].same_as(&self.file.all[f]),
            Target::Middle(_) => true,
        };
        let nb = &self.search.nonblank;
        let lead: Vec<usize> = nb.iter().copied().take_while(|&i| !paired(i)).collect();
        let mut trail: Vec<usize> = nb
            .iter()
            .rev()
            .copied()
            .take_while(|&i| !paired(i))
            .collect();
        trail.reverse();
        if lead.len() == nb.len() {
            return None;
        }
        let total = self.file.nonblank.len();
        let at = |line: usize| self.file.nonblank.partition_point(|&l| l < line);
        // The left-out run follows as the search has it, or with a line the
        // caller misremembers (a stale name) among lines it has right.
        let fits = |run: &[usize], p: usize| {
            let same = |k: usize, i: usize| self.file.nb(p + k).same_as(&self.search.all[i]);
            let close = |k: usize, i: usize| {
                score::line_similarity(self.file.nb(p + k), &self.search.all[i]) >= LOOKS_LEFT_OUT
            };
            p + run.len() <= total
                && run
                    .iter()
                    .enumerate()
                    .all(|(k, &i)| same(k, i) || close(k, i))
                && run.iter().enumerate().any(|(k, &i)| same(k, i))
        };
        let line = |p: usize| self.file.nonblank[p];
        let range = |start: usize, end: usize| LineRange {
            start: start + 1,
            end: end + 1,
        };
        let after = at(f.region.1 + 1);
        if !trail.is_empty()
            && let Some(p) = (after..(after + MAX_SKIPPED).min(total)).find(|&p| fits(&trail, p))
        {
            return Some(Refusal::LinesLeftOut {
                lines: range(f.region.0, line(p + trail.len() - 1)),
                left_out: range(f.region.1 + 1, line(p) - 1),
            });
        }
        let before = at(f.region.0);
        if !lead.is_empty()
            && let Some(p) = (before.saturating_sub(MAX_SKIPPED)..before)
                .rev()
                .find(|&p| fits(&lead, p))
        {
            return Some(Refusal::LinesLeftOut {
                lines: range(line(p), f.region.1),
                left_out: range(line(p + lead.len() - 1) + 1, f.region.0 - 1),
            });
        }
        None
    }

    fn found_in(&self, probe: &Probe<'_, '_>, w: &Window) -> Option<Found> {
        let total = self.file.nonblank.len();
        let pairs = pair_around(probe.lines(), &self.file, w.start..w.end, 0..total);
        let (first, last) = (pairs.first()?.1, pairs.last()?.1);
        let indices: Vec<(usize, usize)> = pairs
            .iter()
            .map(|&(k, p)| (self.search.nonblank[k], self.file.nonblank[p]))
            .collect();
        let mut targets = align::targets(&self.search, &self.file, &indices);
        stale::retarget(&self.search, &self.new, &self.file, &mut targets);
        let region = align::region(&targets)?;
        let measured = probe.measure_paired(&self.file, first, last + 1, &pairs);
        let line_pairs: Vec<(&Line<'_>, &Line<'_>)> = pairs
            .iter()
            .map(|&(k, p)| (probe.lines()[k], self.file.nb(p)))
            .collect();
        let dist = measured.dist + 2 * misindented(&line_pairs);
        Some(Found {
            score: score_of(dist, probe.chars(), measured.chars),
            adjustments: self.drift(&targets, region, false, dist),
            content: self.content(region),
            how: Shape::lines(targets, false),
            dist,
            region,
        })
    }

    /// Candidates for a search with elision markers.
    fn elided(&self, segments: &Segments) -> Vec<Found> {
        let founds = elision::find(&self.file, &self.search, segments)
            .into_iter()
            .filter_map(|mut e| {
                stale::retarget(&self.search, &self.new, &self.file, &mut e.targets);
                let region = align::region(&e.targets)?;
                Some(Found {
                    adjustments: self.drift(&e.targets, region, true, e.dist),
                    content: self.content(region),
                    how: How::Lines(Shape {
                        targets: e.targets,
                        elision: true,
                        alternatives: e.alternatives,
                        skipped: None,
                    }),
                    dist: e.dist,
                    score: e.score,
                    region,
                })
            })
            .collect();
        distinct(founds)
    }

    /// Hash of the canonical text of file lines `region`.
    fn content(&self, region: (usize, usize)) -> u64 {
        let mut buf = String::new();
        joined(
            (region.0..=region.1)
                .map(|f| &self.file.all[f])
                .filter(|l| !l.is_blank()),
            &mut buf,
        );
        key_hash(&buf)
    }

    /// The differences a tolerant match absorbed.
    fn drift(
        &self,
        targets: &[Target],
        region: (usize, usize),
        elision: bool,
        dist: usize,
    ) -> Vec<Adjustment> {
        let mut out = Vec::new();
        let mut covered = vec![false; region.1 - region.0 + 1];
        for (i, t) in targets.iter().enumerate() {
            let s = &self.search.all[i];
            match t {
                Target::Line(f) => {
                    covered[f - region.0] = true;
                    let d = &self.file.all[*f];
                    if s.eol != Eol::None && d.eol != Eol::None && s.eol != d.eol {
                        out.push(Adjustment::LineEndings);
                    }
                    if s.is_blank() {
                        continue;
                    }
                    if s.indent != d.indent {
                        out.push(Adjustment::Indentation);
                    }
                    if !s.same_as(d) {
                        out.push(Adjustment::Fuzzy);
                        continue;
                    }
                    let a = &s.raw[s.indent.len()..];
                    let b = &d.raw[d.indent.len()..];
                    if a != b {
                        out.push(if whitespace_collapsed(a) == whitespace_collapsed(b) {
                            Adjustment::Whitespace
                        } else {
                            Adjustment::Unicode
                        });
                    }
                }
                Target::Middle(r) => {
                    for f in r.clone() {
                        covered[f - region.0] = true;
                    }
                }
                Target::Absent => {
                    if s.is_blank() {
                        out.push(Adjustment::BlankLines);
                    } else if !(elision && self.markers.is_marker(s)) {
                        out.push(Adjustment::Fuzzy);
                    }
                }
            }
        }
        for (k, c) in covered.iter().enumerate() {
            if !c {
                out.push(if self.file.all[region.0 + k].is_blank() {
                    Adjustment::BlankLines
                } else {
                    Adjustment::Fuzzy
                });
            }
        }
        if elision {
            out.push(Adjustment::Elision);
        }
        if dist > 0 {
            out.push(Adjustment::Fuzzy);
        }
        out.sort();
        out.dedup();
        out
    }

    /// The ending most lines of the block use (the file's preferred one if the
    /// block has none).
    fn block_eol(&self, region: (usize, usize)) -> Eol {
        let (mut lf, mut crlf) = (0, 0);
        for f in region.0..=region.1 {
            match self.file.all[f].eol {
                Eol::Lf => lf += 1,
                Eol::Crlf => crlf += 1,
                Eol::None => {}
            }
        }
        if crlf > lf {
            Eol::Crlf
        } else if lf > 0 {
            Eol::Lf
        } else {
            self.index.eol_style(self.text).preferred()
        }
    }

    fn region_text(&self, region: (usize, usize)) -> &str {
        &self.text[self.index.span_of_lines(region.0 + 1, region.1 + 1)]
    }

    /// Diff from the search to the file's lines `region`.
    fn diff_against(&self, region: (usize, usize)) -> String {
        let label = format!(
            "file lines {}",
            LineRange {
                start: region.0 + 1,
                end: region.1 + 1
            }
        );
        unified(
            self.request.search,
            self.region_text(region),
            ("search_context", &label),
            1,
            region.0 + 1,
        )
    }

    fn build(&self, founds: Vec<&Found>, near_misses: Vec<Candidate>) -> Result<Plan, Refusal> {
        let mut edits: Vec<PlannedEdit> = Vec::with_capacity(founds.len());
        for f in founds {
            let edit = self.edit(f)?;
            if edits
                .last()
                .is_some_and(|e| e.splice.range.end > edit.splice.range.start)
            {
                return Err(Refusal::Ambiguous {
                    candidates: edits
                        .iter()
                        .map(candidate_of)
                        .chain([candidate_of(&edit)])
                        .collect(),
                });
            }
            edits.push(edit);
        }
        self.keep_missing_final_newline(&mut edits);
        Ok(Plan {
            edits,
            near_misses,
            normalized: Vec::new(),
        })
    }

    /// Removing the last lines of a file that has no final newline would
    /// leave the newline before them at the end: take it away too, from the
    /// text before the removed lines (or from the edit that wrote it).
    fn keep_missing_final_newline(&self, edits: &mut [PlannedEdit]) {
        if self.text.ends_with('\n') {
            return;
        }
        let Some(last) = edits.last() else {
            return;
        };
        if !last.splice.text.is_empty() || last.splice.range.end != self.text.len() {
            return;
        }
        // The removed run may span several adjacent edits.
        let mut k = edits.len() - 1;
        while k > 0
            && edits[k - 1].splice.range.end == edits[k].splice.range.start
            && edits[k - 1].splice.text.is_empty()
        {
            k -= 1;
        }
        let start = edits[k].splice.range.start;
        if k > 0 && edits[k - 1].splice.range.end == start {
            let prev = &mut edits[k - 1];
            for eol in ["\r\n", "\n"] {
                if prev.splice.text.ends_with(eol) {
                    prev.splice
                        .text
                        .truncate(prev.splice.text.len() - eol.len());
                    // What the reply says the lines became is what is written.
                    let at = prev.lines.start;
                    let span = self.index.span_of_lines(at, prev.lines.end);
                    let range = prev.splice.range.clone();
                    prev.after = format!(
                        "{}{}{}",
                        &self.text[span.start..range.start],
                        prev.splice.text,
                        &self.text[range.end..span.end]
                    );
                    prev.diff = unified(&prev.before, &prev.after, ("before", "after"), at, at);
                    break;
                }
            }
        } else if start > 0 {
            let before = &self.text[..start];
            let cut = if before.ends_with("\r\n") {
                2
            } else {
                usize::from(before.ends_with('\n'))
            };
            edits[k].splice.range.start -= cut;
        }
    }

    fn edit(&self, f: &Found) -> Result<PlannedEdit, Refusal> {
        if let Some(edit) = self.widened_edit(f) {
            return edit;
        }
        let (region, rendered) = match &f.how {
            How::Lines(shape) => {
                let (region, after) = self.render_fit(f, shape)?;
                (region, Some(after))
            }
            How::Substring(_) => (f.region, None),
        };
        let (a, b) = region;
        let span = self.index.span_of_lines(a + 1, b + 1);
        let before = self.text[span.clone()].to_string();
        let (after, splice) = match &f.how {
            How::Lines(_) => {
                let after = rendered.unwrap_or_default();
                let splice = Splice {
                    range: span.clone(),
                    text: after.clone(),
                };
                (after, splice)
            }
            How::Substring(range) => {
                for (j, line) in self.new.all.iter().enumerate() {
                    if self.markers.is_comment_marker(line)
                        && !self
                            .search
                            .all
                            .iter()
                            .any(|s| s.raw == line.raw || self.markers.is_literal(s))
                    {
                        return Err(Refusal::MarkerInNewContent { line: j + 1 });
                    }
                }
                let breaks: Vec<Eol> = (a..=b).map(|l| self.file.all[l].eol).collect();
                let ends_line = range.end >= self.index.span(self.text, b + 1).end;
                let text = literal(
                    self.request.search,
                    self.request.replacement,
                    &breaks,
                    self.block_eol(f.region),
                    ends_line,
                );
                let after = format!(
                    "{}{}{}",
                    &self.text[span.start..range.start],
                    text,
                    &self.text[range.end..span.end]
                );
                (
                    after,
                    Splice {
                        range: range.clone(),
                        text,
                    },
                )
            }
        };
        Ok(PlannedEdit {
            kind: Adjustment::kind_of(&f.adjustments),
            adjustments: f.adjustments.clone(),
            score: f.score,
            lines: LineRange {
                start: a + 1,
                end: b + 1,
            },
            diff: unified(&before, &after, ("before", "after"), a + 1, a + 1),
            before,
            after,
            splice,
        })
    }

    /// `region` grown over the blank lines around it where the search's or
    /// `new_content`'s ends may stand for them: when the search's first
    /// (last) line matched nothing on disk, or `new_content` begins (ends)
    /// with more blank lines than the search (not after an exact match,
    /// whose ends say where they are, nor when `new_content` is blank). Those
    /// blank lines are then reconciled like any other (see `gaps`), instead
    /// of being added to.
    fn with_blank_ends(
        &self,
        targets: &[Target],
        region: (usize, usize),
        exact: bool,
    ) -> (usize, usize) {
        let blank = |l: &Line<'_>| l.is_blank();
        let leading = |lines: &Lines<'_>| lines.all.iter().take_while(|l| blank(l)).count();
        let trailing = |lines: &Lines<'_>| lines.all.iter().rev().take_while(|l| blank(l)).count();
        let soft = |i: Option<&usize>| i.is_some_and(|&i| targets[i] == Target::Absent);
        let more = |ends: &dyn Fn(&Lines<'_>) -> usize| {
            !exact && !self.new.nonblank.is_empty() && ends(&self.new) > ends(&self.search)
        };
        let (mut a, mut b) = self.with_unseen_ends(targets, region);
        if soft(self.search.nonblank.first()) || more(&leading) {
            while a > 0 && self.file.all[a - 1].is_blank() {
                a -= 1;
            }
        }
        if soft(self.search.nonblank.last()) || more(&trailing) {
            while b + 1 < self.file.len() && self.file.all[b + 1].is_blank() {
                b += 1;
            }
        }
        (a, b)
    }

    /// `region` grown over the file lines just before or after it that the
    /// search lacks and `new_content` has as they are, in the file's order
    /// (the caller showed less than it rewrote): they are kept as they are,
    /// not added again. Growing stops before a line `new_content` has
    /// rewritten (see [`Matcher::widened`] for those).
    fn with_unseen_ends(&self, targets: &[Target], region: (usize, usize)) -> (usize, usize) {
        let (up, down) = self.unseen_runs(targets, region);
        let as_they_are = |run: &[Unseen]| {
            run.iter()
                .take_while(|u| !u.rewritten)
                .last()
                .map(|u| u.line)
        };
        (
            as_they_are(&up).unwrap_or(region.0),
            as_they_are(&down).unwrap_or(region.1),
        )
    }

    /// The file lines before and after `region` (each walked away from it)
    /// that the search lacks and `new_content` writes out in the file's
    /// order: as they are, or (single lines between two such) rewritten.
    /// Each run stops at a line the search has.
    fn unseen_runs(
        &self,
        targets: &[Target],
        region: (usize, usize),
    ) -> (Vec<Unseen>, Vec<Unseen>) {
        // Only new_content lines before (after) every line it shares with a
        // search line found on disk can write out lines before (after) the
        // block: a line it adds among those is an insertion, even where it
        // reads like a file line beside the block.
        let found =
            |n: &Line<'_>| {
                !n.is_blank()
                    && self.search.all.iter().zip(targets).any(|(s, t)| {
                        matches!(t, Target::Line(_) | Target::Middle(_)) && s.same_as(n)
                    })
            };
        // A new_content that shares no line with it rewrites the block
        // whole: none of its lines is taken for a line beside the block.
        let (Some(first), Some(last)) = (
            self.new.all.iter().position(found),
            self.new.all.iter().rposition(found),
        ) else {
            return (Vec::new(), Vec::new());
        };
        let (len, last) = (self.new.all.len(), last + 1);
        let up: Vec<usize> = (0..first).rev().collect();
        let down: Vec<usize> = (last..len).collect();
        (
            self.unseen_run((0..region.0).rev(), &up),
            self.unseen_run(region.1 + 1..self.file.len(), &down),
        )
    }

    /// One run of [`Matcher::unseen_runs`]: `file_order` walks the file
    /// away from the block, `new_order` reads `new_content` the same way.
    fn unseen_run(
        &self,
        file_order: impl Iterator<Item = usize>,
        new_order: &[usize],
    ) -> Vec<Unseen> {
        let in_search = |line: &Line<'_>| self.in_search(line);
        let find = |line: &Line<'_>, from: usize| {
            new_order[from..]
                .iter()
                .position(|&n| self.new.all[n].same_as(line))
                .map(|p| from + p)
        };
        let lines: Vec<usize> = file_order
            .filter(|&f| !self.file.all[f].is_blank())
            .take_while(|&f| !in_search(&self.file.all[f]))
            .collect();
        let mut run = Vec::new();
        let (mut cursor, mut k) = (0, 0);
        while k < lines.len() {
            let line = &self.file.all[lines[k]];
            if let Some(p) = find(line, cursor) {
                run.push(Unseen {
                    line: lines[k],
                    new: new_order[p],
                    rewritten: false,
                });
                cursor = p + 1;
                k += 1;
                continue;
            }
            // A rewritten line: the next file line follows as it is, and
            // new_content has a like line before it.
            let Some(&next) = lines.get(k + 1) else { break };
            let Some(q) = find(&self.file.all[next], cursor) else {
                break;
            };
            let likest = new_order[cursor..q]
                .iter()
                .filter(|&&n| !self.in_search(&self.new.all[n]))
                .map(|&n| (n, score::line_similarity(line, &self.new.all[n])))
                .filter(|&(_, likeness)| likeness >= REWRITTEN_LIKENESS)
                .max_by(|x, y| x.1.total_cmp(&y.1));
            let Some((partner, _)) = likest else { break };
            run.push(Unseen {
                line: lines[k],
                new: partner,
                rewritten: true,
            });
            run.push(Unseen {
                line: next,
                new: new_order[q],
                rewritten: false,
            });
            cursor = q + 1;
            k += 2;
        }
        run
    }

    /// Whether the search has a line that reads as `line`.
    fn in_search(&self, line: &Line<'_>) -> bool {
        self.search.all.iter().any(|s| s.same_as(line))
    }

    /// The search widened over the file lines around `region` that
    /// `new_content` writes out with some of them rewritten: the caller saw
    /// those lines, though its search did not show them, and changes them.
    /// The added lines read as `new_content` has them, in the caller's
    /// frame; a rewritten one as the file has it, indented as its rewrite.
    /// `None` when `new_content` rewrites no such line.
    fn widened(&self, targets: &[Target], region: (usize, usize)) -> Option<String> {
        let (mut up, down) = self.unseen_runs(targets, region);
        if !up.iter().chain(&down).any(|u| u.rewritten) {
            return None;
        }
        // Only as far as the last rewritten line on each side.
        let trim = |run: &mut Vec<Unseen>| {
            let keep = run.iter().rposition(|u| u.rewritten).map_or(0, |p| p + 1);
            run.truncate(keep);
        };
        let mut down = down;
        trim(&mut up);
        trim(&mut down);
        up.reverse();
        let text_of = |u: &Unseen| {
            let new = &self.new.all[u.new];
            let text = if u.rewritten {
                let line = self.file.all[u.line].raw;
                format!("{}{}", new.indent, line.trim_start())
            } else {
                new.raw.to_string()
            };
            text.trim_end_matches(['\r', '\n']).to_string()
        };
        let lines_of = |run: &[Unseen]| -> Vec<String> {
            let mut out = Vec::new();
            for (k, u) in run.iter().enumerate() {
                if k > 0 {
                    let (lo, hi) = (run[k - 1].line.min(u.line), run[k - 1].line.max(u.line));
                    out.extend((lo + 1..hi).map(|_| String::new()));
                }
                out.push(text_of(u));
            }
            out
        };
        let blanks = |lo: usize, hi: usize| (lo..hi).map(|_| String::new());
        let mut lines: Vec<String> = lines_of(&up);
        if let Some(last) = up.last() {
            lines.extend(blanks(last.line + 1, region.0));
        }
        lines.push(
            self.request
                .search
                .trim_end_matches(['\r', '\n'])
                .to_string(),
        );
        if let Some(first) = down.first() {
            lines.extend(blanks(region.1 + 1, first.line));
        }
        lines.extend(lines_of(&down));
        Some(lines.join("\n"))
    }

    /// The edit for the search widened over lines `new_content` rewrites
    /// beside the block (see [`Matcher::widened`]), found where `f` is; its
    /// refusal if it has one, since the narrow search would write those
    /// lines twice. `None` where nothing is widened.
    fn widened_edit(&self, f: &Found) -> Option<Result<PlannedEdit, Refusal>> {
        let How::Lines(shape) = &f.how else {
            return None;
        };
        if !self.rescue || self.request.strategy != Strategy::SingleMatch {
            return None;
        }
        let search = self.widened(&shape.targets, f.region)?;
        let request = EditRequest {
            search: &search,
            ..*self.request
        };
        Some(plan_with(self.text, &request, false).and_then(|plan| {
            let mut edits = plan.edits;
            match edits.pop() {
                Some(edit)
                    if edits.is_empty()
                        && edit.lines.start <= f.region.0 + 1
                        && f.region.1 < edit.lines.end =>
                {
                    Ok(edit)
                }
                // The widened search fits elsewhere: two readings.
                other => Err(Refusal::Ambiguous {
                    candidates: [f.candidate()]
                        .into_iter()
                        .chain(edits.iter().chain(other.as_ref()).map(candidate_of))
                        .collect(),
                }),
            }
        }))
    }

    /// The transplant of `shape` onto the file's lines `region`.
    fn transplant<'a>(
        &'a self,
        targets: &'a [Target],
        region: (usize, usize),
        shape: &'a Shape,
    ) -> Transplant<'a, 't, 'r, 'r> {
        Transplant {
            file: &self.file,
            search: &self.search,
            new: &self.new,
            targets,
            region,
            elision: shape.elision,
            markers: &self.markers,
            eol: self.block_eol(region),
            skipped: shape.skipped.clone(),
        }
    }

    /// The block's new text, and the lines it replaces. An elided search
    /// whose last segment fits in several places is settled here: if every
    /// fit gives the same file, the nearest is taken; otherwise the fit that
    /// pairs the most lines of `new_content` with equal lines (the one whose
    /// hidden lines `new_content` writes out), if one does; else it is
    /// ambiguous.
    fn render_fit(&self, f: &Found, shape: &Shape) -> Result<((usize, usize), String), Refusal> {
        let exact = matches!(
            Adjustment::kind_of(&f.adjustments),
            MatchKind::Exact | MatchKind::LineEndings
        );
        let region = self.with_blank_ends(&shape.targets, f.region, exact);
        let first = self
            .transplant(&shape.targets, region, shape)
            .render()
            .map_err(|blocked| self.blocked(blocked, f));
        if shape.alternatives.is_empty() {
            return first.map(|after| (region, after));
        }
        let mut fits: Vec<((usize, usize), String, usize)> = Vec::new();
        let whole = |region: (usize, usize), after: &str| {
            let span = self.index.span_of_lines(region.0 + 1, region.1 + 1);
            format!(
                "{}{after}{}",
                &self.text[..span.start],
                &self.text[span.end..]
            )
        };
        for targets in std::iter::once(&shape.targets).chain(&shape.alternatives) {
            let Some(region) = align::region(targets) else {
                continue;
            };
            let region = self.with_blank_ends(targets, region, exact);
            let t = self.transplant(targets, region, shape);
            if let Ok(after) = t.render() {
                fits.push((region, after, t.explained()));
            }
        }
        let Some(best) = fits.iter().map(|fit| fit.2).max() else {
            return first.map(|after| (region, after));
        };
        let results: Vec<String> = fits.iter().map(|fit| whole(fit.0, &fit.1)).collect();
        if let Ok(after) = &first
            && fits.len() == 1 + shape.alternatives.len()
            && results.iter().all(|r| *r == results[0])
        {
            return Ok((region, after.clone()));
        }
        let top: Vec<&((usize, usize), String, usize)> =
            fits.iter().filter(|fit| fit.2 == best).collect();
        match top.as_slice() {
            [one] => Ok((one.0, one.1.clone())),
            _ => Err(Refusal::Ambiguous {
                candidates: top
                    .iter()
                    .map(|fit| Candidate {
                        lines: LineRange {
                            start: fit.0.0 + 1,
                            end: fit.0.1 + 1,
                        },
                        score: f.score,
                        kind: Adjustment::kind_of(&f.adjustments),
                    })
                    .collect(),
            }),
        }
    }

    fn blocked(&self, blocked: Blocked, f: &Found) -> Refusal {
        match blocked {
            Blocked::Conflict {
                search_line,
                file_line,
                reason,
            } => Refusal::Conflict {
                lines: f.candidate().lines,
                search_line: search_line + 1,
                file_line: file_line + 1,
                reason,
                diff: self.diff_against(f.region),
            },
            Blocked::Marker { new_line } => Refusal::MarkerInNewContent { line: new_line + 1 },
            Blocked::Hidden {
                search_line,
                hidden,
            } => Refusal::HiddenLinesDropped {
                search_line: search_line + 1,
                lines: LineRange {
                    start: hidden.start + 1,
                    end: hidden.end,
                },
            },
        }
    }
}

/// The first `len` bytes of `text` with `\r\n` read as `\n` (a little more,
/// rounded to a character boundary).
fn lf_prefix(text: &str, len: usize) -> String {
    let mut cut = (len * 2).min(text.len());
    while !text.is_char_boundary(cut) {
        cut += 1;
    }
    text[..cut].replace("\r\n", "\n")
}

/// The last `len` bytes of `text` with `\r\n` read as `\n` (a little more,
/// rounded to a character boundary).
fn lf_suffix(text: &str, len: usize) -> String {
    let mut cut = text.len().saturating_sub(len * 2);
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    text[cut..].replace("\r\n", "\n")
}

/// Drops candidates that pair some search line with the same file line as a
/// better one: they are the same place seen through a different window, not
/// a rival. Distinct occurrences never share a pair, even when they overlap
/// in a repetitive file.
fn distinct(mut founds: Vec<Found>) -> Vec<Found> {
    founds.sort_by(|a, b| {
        a.dist
            .cmp(&b.dist)
            .then(b.score.total_cmp(&a.score))
            .then(a.region.0.cmp(&b.region.0))
    });
    let pairs = |f: &Found| -> Vec<(usize, usize)> {
        match &f.how {
            How::Lines(Shape { targets, .. }) => targets
                .iter()
                .enumerate()
                .filter_map(|(i, t)| match t {
                    Target::Line(l) => Some((i, *l)),
                    _ => None,
                })
                .collect(),
            How::Substring(_) => Vec::new(),
        }
    };
    let mut claimed: std::collections::HashSet<(usize, usize)> = Default::default();
    let mut kept = Vec::new();
    for f in founds {
        let mine = pairs(&f);
        if mine.iter().all(|p| !claimed.contains(p)) {
            claimed.extend(mine);
            kept.push(f);
        }
    }
    kept
}

fn candidate_of(e: &PlannedEdit) -> Candidate {
    Candidate {
        lines: e.lines,
        score: e.score,
        kind: e.kind,
    }
}

/// Of two refusals from two ways of matching, the more useful one: one that
/// names rival places over a miss, else the miss with the closer candidate.
fn prefer(first: Refusal, second: Refusal) -> Refusal {
    let best = |r: &Refusal| match r {
        Refusal::NotFound { best, .. } => best.map_or(-1.0, |b| b.score),
        _ => -1.0,
    };
    let telling = |r: &Refusal| {
        matches!(
            r,
            Refusal::Ambiguous { .. }
                | Refusal::Unlike { .. }
                | Refusal::Elsewhere { .. }
                | Refusal::LinesLeftOut { .. }
        )
    };
    match (&first, &second) {
        _ if telling(&first) => first,
        _ if telling(&second) => second,
        _ if best(&second) > best(&first) => second,
        _ => first,
    }
}

#[cfg(test)]
mod tests {
    use super::super::{EditRequest, MatchKind, Refusal, Strategy, plan_edit};

    fn apply(file: &str, search: &str, new: &str) -> Result<String, Refusal> {
        plan_edit(file, &EditRequest::new(search, new)).map(|p| p.apply_to(file))
    }

    #[test]
    fn a_comment_added_above_the_block_is_left_alone() {
        let file = "package main\n\n// Comment added by other dev\nfunc OldFunc() {\n  fmt.Println(\"Old\")\n}\n";
        let out = apply(
            file,
            "func OldFunc() {\n  fmt.Println(\"Old\")\n}",
            "func NewFunc() {\n  fmt.Println(\"New\")\n}",
        )
        .unwrap();
        assert_eq!(
            out,
            "package main\n\n// Comment added by other dev\nfunc NewFunc() {\n  fmt.Println(\"New\")\n}\n"
        );
    }

    #[test]
    fn dropping_the_start_of_a_line_keeps_the_line_before_it() {
        // Found by fuzzing: the search ends before the rest of its last line,
        // and the new content keeps the first line with its line break.
        let file = "name:\nb   \nc\n";
        assert_eq!(
            apply(file, "name:\nb", "name:\n").unwrap(),
            "name:\n   \nc\n"
        );
        // Ending where the line does, the line goes.
        assert_eq!(
            apply("name:\nb\nc\n", "name:\nb", "name:\n").unwrap(),
            "name:\nc\n"
        );
    }

    #[test]
    fn a_repeated_line_is_ambiguous_and_lists_every_place() {
        let file = "a()\nreturn err\nb()\nreturn err\nc()\nreturn err\n";
        let err = apply(file, "return err", "return wrap(err)").unwrap_err();
        let Refusal::Ambiguous { candidates } = &err else {
            panic!("{err:?}");
        };
        let lines: Vec<usize> = candidates.iter().map(|c| c.lines.start).collect();
        assert_eq!(lines, vec![2, 4, 6]);
        assert!(
            err.to_string().contains("lines 2 (score 100.0, exact)"),
            "{err}"
        );
    }

    #[test]
    fn a_near_miss_reports_the_closest_block_and_a_diff() {
        let file = "package p\n\nfunc Process(data []byte) error {\n\treturn nil\n}\n";
        let err = apply(file, "func Process(data string) error {", "x").unwrap_err();
        let Refusal::NotFound { best, diff, .. } = &err else {
            panic!("{err:?}");
        };
        assert_eq!(best.unwrap().lines.start, 3);
        assert!(
            diff.contains("-func Process(data string) error {"),
            "{diff}"
        );
        assert!(
            diff.contains("+func Process(data []byte) error {"),
            "{diff}"
        );
    }

    #[test]
    fn replace_all_changes_every_copy_and_reports_each() {
        let file = "if x {\n    log(1)\n}\n    if x {\n        log(1)\n    }\n";
        let plan = plan_edit(
            file,
            &EditRequest::new("if x {\n    log(1)\n}\n", "if x {\n    log(2)\n}\n")
                .with_strategy(Strategy::ReplaceAll),
        )
        .unwrap();
        assert_eq!(plan.edits.len(), 2);
        assert_eq!(plan.edits[0].kind, MatchKind::Exact);
        assert_eq!(plan.edits[1].kind, MatchKind::Indentation);
        assert_eq!(
            plan.apply_to(file),
            "if x {\n    log(2)\n}\n    if x {\n        log(2)\n    }\n"
        );
    }

    #[test]
    fn an_elided_middle_is_kept() {
        let file = "fn a() {\n    let x = 1;\n    step_one(x);\n    step_two(x);\n    x\n}\n";
        let out = apply(
            file,
            "fn a() {\n    let x = 1;\n    // ...\n    x\n}\n",
            "fn a() {\n    let x = 2;\n    // ...\n    x + 1\n}\n",
        )
        .unwrap();
        assert_eq!(
            out,
            "fn a() {\n    let x = 2;\n    step_one(x);\n    step_two(x);\n    x + 1\n}\n"
        );
    }

    #[test]
    fn line_endings_of_a_crlf_file_are_kept() {
        let file = "a\r\nb\r\nc\r\n";
        let plan = plan_edit(file, &EditRequest::new("b\nc\n", "B\nc\nd\n")).unwrap();
        assert_eq!(plan.edits[0].kind, MatchKind::LineEndings);
        assert_eq!(plan.apply_to(file), "a\r\nB\r\nc\r\nd\r\n");
    }

    #[test]
    fn a_substring_match_replaces_only_the_substring() {
        let file = "let v = compute(a, b);\n";
        let out = apply(file, "compute(a, b)", "compute(a, b, c)").unwrap();
        assert_eq!(out, "let v = compute(a, b, c);\n");
    }

    #[test]
    fn empty_search_and_bad_threshold_are_refused() {
        assert_eq!(apply("x", " \n\t", "y"), Err(Refusal::EmptySearch));
        let err = plan_edit("x", &EditRequest::new("x", "y").with_threshold(1.5)).unwrap_err();
        assert_eq!(err, Refusal::InvalidThreshold { threshold: 1.5 });
    }

    #[test]
    fn a_file_without_final_newline_keeps_lacking_one() {
        let file = "a\n    b\n    c";
        assert_eq!(apply(file, "b\nc\n", "b\nC\n").unwrap(), "a\n    b\n    C");
        assert_eq!(apply(file, "  b\n  c\n", "").unwrap(), "a");
        assert_eq!(
            apply(file, "    c", "    c\n    d").unwrap(),
            "a\n    b\n    c\n    d"
        );
    }

    #[test]
    fn an_edit_that_gives_up_its_ending_to_the_removed_last_line_says_so() {
        // Found by the fuzzy_edit target: with replace_all, the last match
        // (the lone "#" without an ending) is emptied, so the file keeps
        // lacking a final newline by taking the ending of the edit above.
        // That edit's `after` and diff must show what is written.
        let file = "eminm\n\n# \n\n# \n\n\n# \n\n#";
        let request = EditRequest::new("# \n\n", "\n")
            .with_threshold(0.9)
            .with_strategy(Strategy::ReplaceAll);
        let plan = plan_edit(file, &request).unwrap();
        let result = plan.apply_to(file);
        for edit in &plan.edits {
            let span = crate::text::lines::LineIndex::new(file)
                .span_of_lines(edit.lines.start, edit.lines.end);
            let range = &edit.splice.range;
            if range.start < span.start {
                continue;
            }
            let written = format!(
                "{}{}{}",
                &file[span.start..range.start],
                edit.splice.text,
                &file[range.end..span.end]
            );
            assert_eq!(edit.after, written, "{edit:?}");
        }
        assert!(
            !result.ends_with("#") && !result.contains("# "),
            "{result:?}"
        );
    }

    #[test]
    fn a_strict_threshold_refuses_tolerant_matches() {
        let file = "fn f() {\n    one();\n}\n";
        let request = EditRequest::new("fn f() {\n  one();\n}", "x").with_threshold(1.0);
        let err = plan_edit(file, &request).unwrap_err();
        let Refusal::NotFound {
            best: Some(best), ..
        } = err
        else {
            panic!("{err:?}");
        };
        assert_eq!(
            (best.lines.start, best.lines.end, best.kind),
            (1, 3, MatchKind::Indentation)
        );
        assert!(plan_edit(file, &request.with_threshold(0.99)).is_ok());
    }

    #[test]
    fn replace_all_leaves_near_misses_alone_and_reports_them() {
        let file = "call(a, 1);\nx();\ncall(a, 1);\ny();\ncall(a, 2);\n";
        let request =
            EditRequest::new("call(a, 1);", "call(b, 1);").with_strategy(Strategy::ReplaceAll);
        let plan = plan_edit(file, &request).unwrap();
        assert_eq!(
            plan.apply_to(file),
            "call(b, 1);\nx();\ncall(b, 1);\ny();\ncall(a, 2);\n"
        );
        assert_eq!(plan.near_misses.len(), 1);
        assert_eq!(plan.near_misses[0].lines.start, 5);
    }

    #[test]
    fn a_line_changed_on_disk_is_kept_unless_the_edit_changes_it() {
        let body: String = ["b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m"]
            .iter()
            .enumerate()
            .map(|(k, v)| format!("    let {v} = {k};\n"))
            .chain(["}\n".to_string()])
            .collect();
        let file = format!("fn f() {{\n    let a = checkpoint(watermark);\n{body}");
        let search = format!("fn f() {{\n    let a = load(x);\n{body}");
        let out = apply(&file, &search, &search.replace("c = 1", "c = 10")).unwrap();
        assert_eq!(out, file.replace("c = 1", "c = 10"));
        let err = apply(&file, &search, &search.replace("load(x)", "load(y)")).unwrap_err();
        let Refusal::Conflict {
            search_line,
            file_line,
            ..
        } = &err
        else {
            panic!("{err:?}");
        };
        assert_eq!((*search_line, *file_line), (2, 2));
        assert!(
            err.to_string()
                .contains("reads differently in the file (line 2)"),
            "{err}"
        );
    }

    #[test]
    fn python_and_yaml_elision_markers() {
        let py = "def f(a):\n    x = a\n    y = x * 2\n    return y\n\ndef g():\n    return 1\n";
        let out = apply(
            py,
            "def f(a):\n    ...\n    return y\n",
            "def f(a, b):\n    ...\n    return y + b\n",
        )
        .unwrap();
        assert_eq!(
            out,
            "def f(a, b):\n    x = a\n    y = x * 2\n    return y + b\n\ndef g():\n    return 1\n"
        );
        let yaml = "web:\n  image: nginx\n  ports:\n    - 80\n  replicas: 2\ndb:\n  image: pg\n  replicas: 1\n";
        let out = apply(
            yaml,
            "web:\n  # ...\n  replicas: 2\n",
            "web:\n  # ...\n  replicas: 3\n",
        )
        .unwrap();
        assert_eq!(out, yaml.replace("replicas: 2", "replicas: 3"));
    }

    #[test]
    fn a_marker_at_the_end_stands_for_the_rest_of_the_block() {
        let file = "fn f(a: u8) {\n    one(a);\n    two(a);\n}\n";
        let out = apply(
            file,
            "fn f(a: u8) {\n    // ...\n",
            "fn f(a: u16) {\n    // ...\n",
        )
        .unwrap();
        assert_eq!(out, file.replace("u8", "u16"));
    }

    #[test]
    fn mixed_endings_stay_per_line() {
        let file = "a\r\nb\nc\r\nd\r\n";
        let out = apply(file, "  b\n  c\n  d\n", "  b\n  c\n  inserted\n  d\n").unwrap();
        assert_eq!(out, "a\r\nb\nc\r\ninserted\r\nd\r\n");
    }

    #[test]
    fn blank_lines_the_search_left_out_stay() {
        let file = "fn f() {\n    let a = 1;\n\n    let b = 2;\n    a + b\n}\n";
        let out = apply(
            file,
            "let a = 1;\nlet b = 2;\na + b",
            "let a = 1;\nlet b = 2;\na * b",
        )
        .unwrap();
        assert_eq!(out, file.replace("a + b", "a * b"));
    }

    #[test]
    fn look_alike_characters_on_disk_survive_in_kept_lines() {
        let file = "// it\u{2019}s \u{201C}fine\u{201D} \u{2014} really\u{2026}\nlet x = 1;\n";
        let out = apply(
            file,
            "// it's \"fine\" - really...\nlet x = 1;",
            "// it's \"fine\" - really...\nlet x = 2;",
        )
        .unwrap();
        assert_eq!(
            out,
            "// it\u{2019}s \u{201C}fine\u{201D} \u{2014} really\u{2026}\nlet x = 2;\n"
        );
        let plan = plan_edit(
            file,
            &EditRequest::new("// it's \"fine\" - really...", "// ok"),
        )
        .unwrap();
        assert_eq!(plan.edits[0].kind, MatchKind::Unicode);
    }

    #[test]
    fn a_search_whose_first_line_lost_its_indent_keeps_the_block_shape() {
        let file = "impl A {\n    fn f(&self) {\n        self.g();\n    }\n}\n";
        let search = "fn f(&self) {\n        self.g();\n    }";
        let new = "fn f(&self) {\n        self.g();\n        self.h();\n    }";
        let plan = plan_edit(file, &EditRequest::new(search, new)).unwrap();
        assert_eq!(plan.edits[0].kind, MatchKind::Exact);
        assert_eq!(
            plan.apply_to(file),
            "impl A {\n    fn f(&self) {\n        self.g();\n        self.h();\n    }\n}\n"
        );
    }

    #[test]
    fn a_single_line_with_a_typo_is_found_among_many() {
        let word = |k: u64| -> String {
            let mut x = k.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xABCD;
            (0..8)
                .map(|_| {
                    x = x.rotate_left(7).wrapping_mul(31);
                    (b'a' + (x % 26) as u8) as char
                })
                .collect()
        };
        let file: String = (0..3000)
            .map(|k| format!("    let value = compute(input, \"{}\");\n", word(k)))
            .collect();
        let target = word(1234);
        let mut typo = target.clone().into_bytes();
        typo.swap(2, 3);
        let typo = String::from_utf8(typo).unwrap();
        let search = format!("let value = compute(input, \"{typo}\");");
        let out = apply(&file, &search, "let value = 0;").unwrap();
        assert_eq!(out.lines().nth(1234), Some("    let value = 0;"));
        assert_eq!(out.lines().count(), 3000);
    }

    #[test]
    fn nothing_to_match_in_an_empty_file() {
        let err = apply("", "x", "y").unwrap_err();
        assert!(
            matches!(err, Refusal::NotFound { best: None, .. }),
            "{err:?}"
        );
    }

    #[test]
    fn two_equally_close_blocks_are_ambiguous_with_scores() {
        let file = "def a():\n    run(17)\n    done()\n\ndef b():\n    run(18)\n    done()\n";
        let err = apply(file, "    run(19)\n    done()", "    run(20)\n    done()").unwrap_err();
        let Refusal::Ambiguous { candidates } = &err else {
            panic!("{err:?}");
        };
        let found: Vec<(usize, MatchKind)> =
            candidates.iter().map(|c| (c.lines.start, c.kind)).collect();
        assert_eq!(found, vec![(2, MatchKind::Fuzzy), (6, MatchKind::Fuzzy)]);
        assert!(err.to_string().contains("score 9"), "{err}");
    }

    #[test]
    fn a_comment_that_looks_like_a_marker_is_edited_like_any_line() {
        let file = "def f():\n    x = 1\n    # ... see the notes\n    return x\n";
        let search = "x = 1\n# ... see the notes\nreturn x";
        let new = "x = 1\n# ... see the design notes\nreturn x";
        assert_eq!(
            apply(file, search, new).unwrap(),
            file.replace("the notes", "the design notes")
        );
    }

    #[test]
    fn a_line_that_reads_exactly_as_one_elsewhere_is_no_typo() {
        let file = "## Part 1\n\ntext\n\n## Part 2\n\n- done\n";
        // Without a marker the search is the head and the tail of lines 1-7
        // with the middle left out, which new_content does not write.
        let err = apply(file, "## Part 1\n- done", "## Part 1\n- finished").unwrap_err();
        assert!(
            matches!(&err, Refusal::LinesLeftOut { left_out, .. } if (left_out.start, left_out.end) == (2, 6)),
            "{err:?}"
        );
        let err = apply(file, "## Part 1\n...\n- done", "## Part 1\n...\n- finished").unwrap_err();
        let Refusal::Elsewhere {
            best,
            search_line,
            file_lines,
            ..
        } = &err
        else {
            panic!("{err:?}");
        };
        assert_eq!(
            (best.lines.start, *search_line, file_lines.clone()),
            (5, 1, vec![1])
        );
        assert!(
            err.to_string().contains("line 1 of search_context"),
            "{err}"
        );
    }

    #[test]
    fn a_long_block_with_drift_is_found_and_framed_exactly() {
        let body: Vec<String> = (0..200)
            .map(|k| format!("    step_{k}(input, {}); // phase {}", k * 7, k % 13))
            .collect();
        let file = format!(
            "fn before() {{}}\n\nfn run(input: u32) {{\n{}\n}}\n\nfn after() {{}}\n",
            body.join("\n")
        );
        // Dedented, one line missing and one typo.
        let mut search: Vec<String> = body[10..190]
            .iter()
            .map(|l| l.trim_start().to_string())
            .collect();
        search.remove(50);
        search[100] = search[100].replace("step", "stpe");
        let new = search.join("\n").replacen("step_10(", "first_step(", 1);
        let out = apply(&file, &search.join("\n"), &new).unwrap();
        assert_eq!(out, file.replacen("step_10(", "first_step(", 1));
    }
}
