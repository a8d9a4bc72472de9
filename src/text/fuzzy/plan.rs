//! From request to plan: the search as it is first; then every reading of
//! the caller's texts placed in the file, one decision among all places, and
//! the decided places merged, written out and re-read.

use super::EditRequest;
use super::apply::{self, Found};
use super::artifacts::{self, Reading};
use super::context::Ctx;
use super::costs::COSTS;
use super::decide::{self, Decision};
use super::exact;
use super::exact_edits;
use super::normalize::LfText;
use super::outcome::{Candidate, Plan, PlannedEdit, Strategy};
use super::places::{Place, Prepared};
use super::refusal::{ConflictReason, Refusal, Unfound};
use crate::text::lines::Eol;

/// Plans `request` against `text`.
pub(crate) fn plan(text: &str, request: &EditRequest<'_>) -> Result<Plan, Refusal> {
    if !request.threshold.is_finite() || !(0.0..=1.0).contains(&request.threshold) {
        return Err(Refusal::InvalidThreshold {
            threshold: request.threshold,
        });
    }
    if request.search.trim().is_empty() {
        return Err(Refusal::EmptySearch);
    }
    let ctx = Ctx::new(text, request);
    let mut occurrences = exact::occurrences(text, &LfText::new(text), request.search);
    // A search that begins with a line break and is found right after a
    // line's text begins with one blank line fewer than it shows: such a
    // find is not exact, and the tolerant path weighs its blank lines.
    if request.search.starts_with(['\n', '\r']) {
        occurrences.retain(|o| o.range.start == 0 || text[..o.range.start].ends_with('\n'));
    }
    let as_sent = Reading {
        search: request.search.to_string(),
        new: request.replacement.to_string(),
        undone: Vec::new(),
        new_differs: None,
    };
    let prepared = Prepared::new(&as_sent, &ctx);
    match (request.strategy, occurrences.len()) {
        (_, 0) => tolerant(&ctx),
        (Strategy::SingleMatch, 1) => {
            let o = &occurrences[0];
            if let Some(lines) = exact_edits::already_applied(&ctx, o) {
                return Err(Refusal::Conflict {
                    lines,
                    reason: ConflictReason::AlreadyApplied,
                    search_line: None,
                    file_line: None,
                    file_lines: Some(lines),
                    new_line: None,
                    diff: String::new(),
                });
            }
            let edit = exact_edits::edit(&ctx, &prepared, o, false)?;
            finish(&ctx, vec![edit], Vec::new(), Vec::new())
        }
        (Strategy::SingleMatch, _) => Err(Refusal::Ambiguous {
            candidates: occurrences
                .iter()
                .map(|o| exact_edits::candidate(&ctx, o))
                .collect(),
            unlike: false,
            crowded: false,
        }),
        (Strategy::ReplaceAll, _) => {
            let mut edits = exact_edits::all(&ctx, &prepared, &occurrences)?;
            // Copies that differ only in whitespace or look-alikes are
            // copies too; places that differ more are reported, not changed.
            let mut near = Vec::new();
            let (mut places, _) = prepared.places(&ctx, 0);
            decide::sort(&mut places);
            for p in &places {
                let r = &p.alignment.region;
                let overlaps = edits
                    .iter()
                    .any(|e| e.lines.start <= r.end && r.start < e.lines.end);
                if overlaps || !decide::within(p, request.threshold) {
                    continue;
                }
                let score = COSTS.score(p.alignment.edits, p.weight);
                let adjustments = prepared.adjustments(&ctx, p);
                if p.alignment.cost == 0 {
                    let edit = apply::edit(
                        &ctx,
                        &prepared,
                        p,
                        Found::Tolerant,
                        score,
                        adjustments.clone(),
                    )?;
                    // A copy's edit can reach past its place (lines new_content
                    // writes out past the search): one that would overlap
                    // another's bytes is left alone, as an overlapping place is.
                    let (a, b) = (edit.splice.range.start, edit.splice.range.end);
                    let clash = edits.iter().any(|e| {
                        let r = &e.splice.range;
                        r.start < b && a < r.end || (a == b && r.start == a)
                    });
                    if clash {
                        near.push(ctx.candidate(r, score, &adjustments));
                    } else {
                        edits.push(edit);
                    }
                } else {
                    near.push(ctx.candidate(r, score, &adjustments));
                }
            }
            finish(&ctx, edits, near, Vec::new())
        }
    }
}

/// The plan of `edits` in file order, with a file's missing final newline
/// kept; refused when two edits would change the same bytes.
fn finish(
    ctx: &Ctx<'_, '_>,
    mut edits: Vec<PlannedEdit>,
    near_misses: Vec<Candidate>,
    normalized: Vec<&'static str>,
) -> Result<Plan, Refusal> {
    edits.sort_by_key(|e| (e.splice.range.start, e.splice.range.end));
    keep_missing_final_newline(ctx.text, &mut edits);
    // However the edits were found, overlapping splices cannot be written
    // one after another without one eating the other's text: a copy's edit
    // can reach past its place (new_content writes out lines around the
    // search) into the next copy.
    if let Some(pair) = edits.windows(2).find(|w| overlap(&w[0], &w[1])) {
        return Err(Refusal::Unverified {
            lines: pair[1].lines,
            problem: format!(
                "under replace_all the edit of lines {} and the edit of lines {} would change \
                 the same text: new_content writes lines around search_context that reach from \
                 one copy into the next",
                pair[0].lines, pair[1].lines
            ),
            diff: pair[1].diff.clone(),
        });
    }
    Ok(Plan {
        edits,
        near_misses,
        normalized,
    })
}

/// Whether `b`, which starts no earlier than `a`, changes bytes `a` changes
/// (or inserts at the same point, where the order of the two is unknown).
fn overlap(a: &PlannedEdit, b: &PlannedEdit) -> bool {
    let (a, b) = (&a.splice.range, &b.splice.range);
    b.start < a.end || (a.is_empty() && b.is_empty() && a.start == b.start)
}

/// Removing the last text of a file that has no final newline would leave
/// the newline before it at the end: take it away too, from the text before
/// (a literal replacement that empties the end of a file). One line break,
/// and only if the edit does not take one already: a tolerant edit's render
/// takes it, and a blank line before the removed lines is not the caller's
/// to lose.
fn keep_missing_final_newline(text: &str, edits: &mut [PlannedEdit]) {
    if text.ends_with('\n') {
        return;
    }
    let Some(last) = edits.last_mut() else {
        return;
    };
    if !last.splice.text.is_empty() || last.splice.range.end != text.len() {
        return;
    }
    let start = last.splice.range.start;
    let takes_a_break = text[start..].starts_with('\n') || text[start..].starts_with("\r\n");
    let before = Eol::ending(&text[..start]);
    if before == Eol::None || takes_a_break {
        return;
    }
    last.splice.range.start -= before.as_str().len();
}

/// The tolerant path: every reading placed, one decision, one edit (or every
/// alike copy under `replace_all`).
fn tolerant(ctx: &Ctx<'_, '_>) -> Result<Plan, Refusal> {
    let request = ctx.request;
    let visible = artifacts::without_invisible(request.search, request.replacement, ctx.text);
    let (search, new) = match &visible {
        Some((s, n)) => (s.as_str(), n.as_str()),
        None => (request.search, request.replacement),
    };
    let untrailed = artifacts::without_trailing_whitespace(search, new, ctx.text);
    let (search, new) = match &untrailed {
        Some((s, n)) => (s.as_str(), n.as_str()),
        None => (search, new),
    };
    let mut readings = artifacts::readings(search, new).map_err(|partial| Refusal::NotFound {
        best: None,
        diff: String::new(),
        threshold: ctx.threshold(),
        equally_close: Vec::new(),
        reason: Some(Box::new(Unfound::Inconsistent { seen: partial.seen })),
    })?;
    for (undone, artifact) in [
        (untrailed.is_some(), artifacts::Artifact::TrailingWhitespace),
        (visible.is_some(), artifacts::Artifact::Invisible),
    ] {
        if undone {
            for r in &mut readings {
                r.undone.insert(0, artifact);
            }
        }
    }
    let prepared: Vec<Prepared<'_>> = readings.iter().map(|r| Prepared::new(r, ctx)).collect();
    let mut places: Vec<Place> = Vec::new();
    let mut crowded = false;
    for (k, p) in prepared.iter().enumerate() {
        if p.has_text() {
            let (found, more) = p.places(ctx, k);
            places.extend(found);
            crowded |= more;
        }
    }
    decide::sort(&mut places);
    let score = |p: &Place| COSTS.score(p.alignment.edits, p.weight);
    let candidate = |p: &Place| {
        let adjustments = prepared[p.reading].adjustments(ctx, p);
        ctx.candidate(&p.alignment.region, score(p), &adjustments)
    };
    let open = |k: usize| prepared[places[k].reading].open_edges(ctx, &places[k]);
    let decision = match request.strategy {
        Strategy::SingleMatch => {
            let rivals = match decide::best(&places, request.threshold) {
                Some(k) => {
                    let best = &places[k];
                    prepared[best.reading].elsewhere(ctx, best.reading, best)
                }
                None => Vec::new(),
            };
            let literal = |p: &Place| prepared[p.reading].literal(ctx, p);
            let drift = |p: &Place| prepared[p.reading].drift(ctx, p);
            decide::single(&places, &rivals, request.threshold, open, literal, drift)
        }
        Strategy::ReplaceAll => decide::all(
            &places,
            request.threshold,
            |k| {
                let r = &places[k].alignment.region;
                ctx.file[r.clone()]
                    .iter()
                    .filter(|row| !row.is_blank())
                    .map(|row| row.key.clone())
                    .collect::<Vec<_>>()
            },
            open,
        ),
    };
    // Places that were a sample of the file's copies cannot show that the
    // one chosen is the caller's block: the others as near were not weighed.
    let sampled = crowded && matches!(decision, Decision::Apply(_));
    let decision = match decision {
        Decision::Apply(chosen) if crowded => {
            let mut all: Vec<Place> = chosen.iter().map(|&k| places[k].clone()).collect();
            let others = places
                .iter()
                .enumerate()
                .filter(|(k, _)| !chosen.contains(k));
            all.extend(others.take(COSTS.crowded_shown).map(|(_, p)| p.clone()));
            Decision::Ambiguous(all)
        }
        d => d,
    };
    match decision {
        Decision::NotFound(best, close) => Err(Refusal::NotFound {
            best: best.map(|k| candidate(&places[k])),
            diff: best.map_or(String::new(), |k| {
                let p = &places[k];
                ctx.diff_against(&prepared[p.reading].reading.search, &p.alignment.region)
            }),
            threshold: ctx.threshold(),
            equally_close: close.iter().map(|&k| candidate(&places[k])).collect(),
            reason: None,
        }),
        Decision::Ambiguous(all) => {
            let mut candidates: Vec<Candidate> = Vec::new();
            for p in &all {
                let c = candidate(p);
                if !candidates.iter().any(|d| d.lines == c.lines) {
                    candidates.push(c);
                }
            }
            Err(Refusal::Ambiguous {
                candidates,
                unlike: false,
                crowded: sampled,
            })
        }
        Decision::Unlike(all) => Err(Refusal::Ambiguous {
            candidates: all.iter().map(|&k| candidate(&places[k])).collect(),
            unlike: true,
            crowded: false,
        }),
        Decision::Apply(chosen) => {
            let mut edits = Vec::new();
            let mut normalized: Vec<&'static str> = Vec::new();
            for &k in &chosen {
                let p = &places[k];
                let prep = &prepared[p.reading];
                let adjustments = prep.adjustments(ctx, p);
                let edit = apply::edit(ctx, prep, p, Found::Tolerant, score(p), adjustments)?;
                if request.strategy == Strategy::SingleMatch {
                    same_edit_every_reading(ctx, prep, p, &edit, &candidate)?;
                }
                edits.push(edit);
                for a in &prep.reading.undone {
                    if !normalized.contains(&a.name()) {
                        normalized.push(a.name());
                    }
                }
            }
            let near = match request.strategy {
                Strategy::ReplaceAll => places
                    .iter()
                    .enumerate()
                    .filter(|(k, p)| {
                        !chosen.contains(k)
                            && decide::within(p, request.threshold)
                            && chosen.iter().all(|&c| {
                                let (a, b) = (&places[c].alignment.region, &p.alignment.region);
                                a.end <= b.start || b.end <= a.start
                            })
                    })
                    .map(|(_, p)| candidate(p))
                    .collect(),
                Strategy::SingleMatch => Vec::new(),
            };
            finish(ctx, edits, near, normalized)
        }
    }
}

/// Refuses as ambiguous when the search fits the place's own lines another
/// way nearly as cheaply (a line paired with a verbatim copy instead of the
/// line it differs from) and that reading would make another edit.
fn same_edit_every_reading(
    ctx: &Ctx<'_, '_>,
    prep: &Prepared<'_>,
    best: &Place,
    edit: &PlannedEdit,
    candidate: &dyn Fn(&Place) -> Candidate,
) -> Result<(), Refusal> {
    let result = |e: &PlannedEdit| e.splice.applied_to(ctx.text);
    let made = result(edit);
    for alt in prep.alternatives(ctx, best) {
        if !decide::close_reading(best, &alt) {
            continue;
        }
        let adjustments = prep.adjustments(ctx, &alt);
        let same = apply::edit(ctx, prep, &alt, Found::Tolerant, 0.0, adjustments)
            .is_ok_and(|e| result(&e) == made);
        if !same {
            return Err(Refusal::Ambiguous {
                candidates: vec![candidate(best), candidate(&alt)],
                unlike: false,
                crowded: false,
            });
        }
    }
    Ok(())
}
