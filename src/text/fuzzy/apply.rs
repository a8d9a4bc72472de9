//! A decided place turned into a planned edit: merged, written out, and (for
//! a tolerant match) re-read before anything is reported as the plan.

use super::align::Step;
use super::context::Ctx;
use super::costs::COSTS;
use super::edges;
use super::merge::{Clash, Contradiction, Sides};
use super::normalize::{invisible, solid};
use super::outcome::{Adjustment, PlannedEdit};
use super::places::{Place, Prepared};
use super::refusal::{ConflictReason, Refusal, Unfound};
use super::render::Region;
use super::rows::Row;
use super::verify::{Check, Depths, Names, Spacing};
use similar::Algorithm;

/// Edge readings that pass over no line (see [`edges::Reading`]): neither
/// a blank gap nor a line added among the lines written past the search.
const NO_GAPS: (bool, bool) = (false, false);

/// How a place was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Found {
    /// The search occurs as it is: the change is written as the caller wrote it.
    Exact,
    /// A tolerant match: the plan is re-read before it stands.
    Tolerant,
}

/// The planned edit of `place`, or why there is none.
pub(crate) fn edit(
    ctx: &Ctx<'_, '_>,
    prepared: &Prepared<'_>,
    place: &Place,
    found: Found,
    score: f64,
    adjustments: Vec<Adjustment>,
) -> Result<PlannedEdit, Refusal> {
    // An exact search shows its edges as the file has them: only the lines
    // written out past it are read.
    let fit = |diff, rewrites_alone, (blank_gaps, added_gaps), end_copy| {
        let blank_lines = found == Found::Tolerant;
        edges::fit(
            &prepared.search,
            &prepared.search_markers,
            &prepared.new,
            &prepared.new_markers,
            &ctx.file,
            &place.alignment,
            edges::Reading {
                blank_lines,
                diff,
                rewrites_alone,
                blank_gaps,
                added_gaps,
                end_copy,
            },
        )
    };
    let fitted = fit(Algorithm::Patience, false, NO_GAPS, None);
    let made = edit_of(ctx, prepared, &fitted, found, score, adjustments.clone())?;
    // Which of new_content's lines go on past the search is read from a diff
    // of the caller's two texts, and a diff is a guess where lines repeat or
    // are rewritten: the longest common reading is its rival, and so is
    // each reading of the search's first or last line as another copy of it
    // in new_content, or (where it has such a copy for the diff to take,
    // and the diff drops a line the caller rewrote) as new_content's first
    // or last line rewritten. A line written past a tolerant search that
    // rewrites the file's line there is that line changed as often as a new
    // line: a search copied short stops before the lines the caller
    // changes. A blank line only one side has ends the lines written past
    // the search as often as the caller's copy gained or lost it: the run
    // that goes on past it is a rival too, and one even where its own edit
    // is refused (for the blank line it cannot place), since the edit made
    // without it would add a line in front of the file's line that the
    // caller may have meant to change. When a rival reading takes in other
    // file lines and makes another edit, the caller's change has two
    // readings, and neither is chosen.
    //
    // A line of text new_content adds among the lines it writes out past
    // the search ends them too, as often as the caller added it there: the
    // run that goes on past it to the file's next lines (the blank line or
    // `}` that closes the caller's block, written out once more) is a rival,
    // for an exact search as for a tolerant one, since the search's bytes
    // say nothing of where new_content stops.
    let mut rivals = vec![
        (fit(Algorithm::Myers, false, NO_GAPS, None), false),
        (fit(Algorithm::Patience, false, (false, true), None), false),
    ];
    if found == Found::Tolerant {
        rivals.push((fit(Algorithm::Patience, true, NO_GAPS, None), false));
        rivals.push((fit(Algorithm::Patience, false, (true, false), None), true));
    }
    let (firsts, lasts) = edges::end_copies(&prepared.search, &prepared.new);
    let unpaired = edges::rewrites_unpaired(&prepared.search, &prepared.new);
    let rewritten = [
        (unpaired && firsts > 0).then_some(edges::EndCopy::FirstRewritten),
        (unpaired && lasts > 0).then_some(edges::EndCopy::LastRewritten),
    ];
    rivals.extend(
        rewritten
            .into_iter()
            .flatten()
            .map(|c| (fit(Algorithm::Patience, false, NO_GAPS, Some(c)), false)),
    );
    // Every copy of an end line is a reading, its only copy too: the diff
    // may pair the blank lines before (after) it with other blank lines of
    // new_content, and so leave the lines between them inside the search
    // as lines added, not written out before (after) it.
    let copies = (0..firsts.min(COSTS.end_copies)).map(edges::EndCopy::First);
    let copies = copies.chain((0..lasts.min(COSTS.end_copies)).map(edges::EndCopy::Last));
    rivals.extend(copies.map(|c| (fit(Algorithm::Patience, false, NO_GAPS, Some(c)), false)));
    let made_text = std::cell::OnceCell::new();
    for (rival, even_refused) in rivals {
        if rival.alignment.region != fitted.alignment.region
            && match edit_of(ctx, prepared, &rival, found, score, adjustments.clone()) {
                Ok(e) => {
                    e.splice.applied_to(ctx.text)
                        != *made_text.get_or_init(|| made.splice.applied_to(ctx.text))
                }
                Err(_) => even_refused,
            }
        {
            return Err(Refusal::Ambiguous {
                candidates: vec![
                    ctx.candidate(&fitted.alignment.region, score, &adjustments),
                    ctx.candidate(&rival.alignment.region, score, &adjustments),
                ],
                unlike: false,
                crowded: false,
            });
        }
    }
    Ok(made)
}

/// The planned edit of the search as fitted at its edges.
fn edit_of(
    ctx: &Ctx<'_, '_>,
    prepared: &Prepared<'_>,
    fitted: &edges::Fitted<'_>,
    found: Found,
    score: f64,
    adjustments: Vec<Adjustment>,
) -> Result<PlannedEdit, Refusal> {
    let region = fitted.alignment.region.clone();
    let lines = Ctx::numbers(&region);
    let conflict_at = |reason,
                       search_line: Option<usize>,
                       file_line: Option<usize>,
                       file_lines: Option<std::ops::Range<usize>>,
                       new_line: Option<usize>| Refusal::Conflict {
        lines,
        reason,
        search_line: search_line.map(|s| s + 1),
        file_line: file_line.map(|f| f + 1),
        file_lines: file_lines.map(|f| Ctx::numbers(&f)),
        new_line: new_line.map(|t| t + 1),
        diff: ctx.diff_against(&prepared.reading.search, &region),
    };
    let conflict =
        |reason, s: Option<usize>, f: Option<usize>| conflict_at(reason, s, f, None, None);
    if prepared.reading.new_differs.is_some() {
        return Err(conflict(ConflictReason::NewContentUnlike, None, None));
    }
    let sides = Sides {
        base: &fitted.base,
        base_markers: &fitted.base_markers,
        theirs: &fitted.theirs,
        theirs_markers: &fitted.theirs_markers,
        file: &ctx.file,
        alignment: &fitted.alignment,
        exact: found == Found::Exact,
    };
    let merged = sides.merge().map_err(|clash| match clash {
        Clash::LineDiffers { s, f } => conflict(ConflictReason::LineDiffers, Some(s), Some(f)),
        Clash::LineMissing { s, f } => conflict(ConflictReason::LineMissing, Some(s), Some(f)),
        Clash::ExtraLine { s, f } => conflict(ConflictReason::ExtraLine, Some(s), Some(f)),
        Clash::OutOfOrder { s, f } => conflict(ConflictReason::OutOfOrder, Some(s), Some(f)),
        Clash::HiddenDropped { s, f } => conflict_at(
            ConflictReason::HiddenLinesDropped,
            Some(s),
            None,
            Some(f),
            None,
        ),
        Clash::HiddenRemembered { s, f, t, hidden } => conflict_at(
            ConflictReason::HiddenLineElsewhere,
            Some(s),
            Some(f),
            Some(hidden),
            Some(t),
        ),
        Clash::LeftOut { f } => {
            conflict_at(ConflictReason::LinesLeftOut, None, None, Some(f), None)
        }
        Clash::MarkerInNew { t } => conflict_at(
            ConflictReason::MarkerInNewContent,
            None,
            None,
            None,
            Some(t),
        ),
        Clash::Transformed(change, words) => Refusal::NotFound {
            best: Some(ctx.candidate(&region, score, &adjustments)),
            diff: ctx.diff_against(&prepared.reading.search, &region),
            threshold: ctx.threshold(),
            equally_close: Vec::new(),
            reason: Some(Box::new(Unfound::Transformed {
                change: format!("{} -> {}", change.0, change.1),
                words,
            })),
        },
        Clash::KeptDiffer(kept, why) => Refusal::NotFound {
            best: Some(ctx.candidate(&region, score, &adjustments)),
            diff: ctx.diff_against(&prepared.reading.search, &region),
            threshold: ctx.threshold(),
            equally_close: Vec::new(),
            reason: Some(Box::new(Unfound::KeptLinesDiffer {
                lines: kept
                    .iter()
                    .map(|&(s, f)| (s + 1, f.map(|f| f + 1)))
                    .collect(),
                still_in_file: match why {
                    Contradiction::StillInFile(word) => Some(word),
                    Contradiction::Lines => None,
                },
            })),
        },
    })?;
    let pairs: Vec<(usize, usize)> = fitted
        .alignment
        .steps
        .iter()
        .filter_map(|step| match *step {
            Step::Pair { s, f } if !ctx.file[f].is_blank() => Some((s, f)),
            _ => None,
        })
        .collect();
    let rendered = Region {
        text: ctx.text,
        index: &ctx.index,
        file: &ctx.file,
        base: &fitted.base,
        theirs: &fitted.theirs,
        lines: region.clone(),
        pairs: &pairs,
    }
    .render(&merged);
    if found == Found::Exact
        && let Some(problem) = not_as_sent(&rendered.text, &fitted.theirs)
    {
        let edit = ctx.edit(&region, rendered, adjustments, score);
        return Err(Refusal::Unverified {
            lines,
            problem,
            diff: edit.diff,
        });
    }
    if found == Found::Tolerant {
        let span = ctx.span(&region);
        let after_rows = super::rows::of_snippet(&rendered.text);
        let reach = prepared.search.len();
        let around = region.start.saturating_sub(reach)..(region.end + reach).min(ctx.file.len());
        let mut names = Names::new(&ctx.file[around.clone()]);
        let before = names.keys(&ctx.file[region.clone()]);
        let after = names.keys(&after_rows);
        let nearby_after: Vec<&str> = names
            .keys(&ctx.file[around.start..region.start])
            .into_iter()
            .chain(after.iter().copied())
            .chain(names.keys(&ctx.file[region.end..around.end]))
            .collect();
        let check = Check {
            before,
            after,
            nearby: names.keys(&ctx.file[around.clone()]),
            nearby_after,
            search: names.keys_of(&fitted.base, &fitted.base_markers),
            new: names.keys_of(&fitted.theirs, &fitted.theirs_markers),
            new_order: names.order_of(&fitted.theirs, &fitted.theirs_markers),
            stale: merged
                .stale
                .iter()
                .map(|&(s, f)| (names.of(&fitted.base[s]), names.of(&ctx.file[f])))
                .collect(),
            misread: pairs
                .iter()
                .copied()
                .chain(would_pair(
                    &fitted.alignment.steps,
                    &fitted.base,
                    &ctx.file,
                    &region,
                ))
                .filter(|&(s, f)| !fitted.base[s].is_blank() && !fitted.base[s].same(&ctx.file[f]))
                .map(|(s, f)| (names.of(&fitted.base[s]), names.of(&ctx.file[f])))
                .collect(),
            elided: prepared.search_markers.iter().any(|m| *m),
            takes_break_before: rendered.text.is_empty(),
            invisible_written: {
                let had = &ctx.text[span.clone()];
                rendered
                    .text
                    .chars()
                    .filter(|c| invisible(*c) && !had.contains(*c))
                    .collect()
            },
            splice: rendered.range.clone(),
            region: span,
            spacing: Spacing {
                search: names.lines_of(&fitted.base, &fitted.base_markers),
                new: names.lines_of(&fitted.theirs, &fitted.theirs_markers),
                before: names.lines_of(&ctx.file[region.clone()], &vec![false; region.len()]),
                after: names.lines_of(&after_rows, &vec![false; after_rows.len()]),
                outside: (
                    ctx.file[..region.start]
                        .iter()
                        .rev()
                        .take_while(|r| r.is_blank())
                        .count(),
                    ctx.file[region.end..]
                        .iter()
                        .take_while(|r| r.is_blank())
                        .count(),
                ),
            },
            depths: Depths {
                search: names.depths_of(&fitted.base, &fitted.base_markers),
                new: names.depths_of(&fitted.theirs, &fitted.theirs_markers),
                before: names.depths_of(&ctx.file[region.clone()], &vec![false; region.len()]),
                after: names.depths_of(&after_rows, &vec![false; after_rows.len()]),
                outside: (
                    ctx.file[..region.start]
                        .iter()
                        .rfind(|r| !r.is_blank())
                        .map(|r| r.width),
                    ctx.file[region.end..]
                        .iter()
                        .find(|r| !r.is_blank())
                        .map(|r| r.width),
                ),
            },
            outside_once: (around.start..region.start)
                .chain(region.end..around.end)
                .filter(|&k| {
                    let key = ctx.file[k].key.as_str();
                    !ctx.file[k].is_blank()
                        && fitted.theirs.iter().any(|r| r.key == key)
                        && ctx.file.iter().filter(|r| r.key == key).take(2).count() == 1
                })
                .map(|k| (names.of(&ctx.file[k]), k + 1))
                .collect(),
            edges: (
                names.keys(&ctx.file[around.start..region.start]),
                names.keys(&ctx.file[region.end..around.end]),
            ),
            shown: names.shown(),
        };
        if let Err(problem) = check.run() {
            let edit = ctx.edit(&region, rendered, adjustments, score);
            return Err(Refusal::Unverified {
                lines,
                problem,
                diff: edit.diff,
            });
        }
    }
    Ok(ctx.edit(&region, rendered, adjustments, score))
}

/// Where the region written for an exact search is not new_content as sent,
/// up to each line's indentation and ending. An exact search leaves nothing
/// to tolerate, so this holds whatever the plan; it is checked because a
/// plan reads lines by their keys, and two lines alike but for the spaces
/// between their words (`# note`, `#note`) have one key.
fn not_as_sent(written: &str, sent: &[super::rows::Row<'_>]) -> Option<String> {
    // Lines of text only: how many blank lines an edit at a region's edge
    // leaves is the edges' business.
    let written: Vec<&str> = written
        .lines()
        .map(str::trim_start)
        .filter(|l| !l.is_empty())
        .collect();
    let sent: Vec<(usize, &str)> = sent
        .iter()
        .enumerate()
        .map(|(k, row)| (k + 1, row.raw.trim_start()))
        .filter(|(_, l)| !l.is_empty())
        .collect();
    let k = (0..written.len().max(sent.len()))
        .find(|&k| written.get(k) != sent.get(k).map(|(_, l)| l))?;
    Some(match (written.get(k), sent.get(k)) {
        (Some(w), Some((n, s))) => {
            format!(
                "line {n} of new_content is `{s}`, and the edit planned would write `{w}` there"
            )
        }
        (Some(w), None) => format!("the edit planned would write `{w}` past new_content's end"),
        (None, Some((n, _))) => {
            format!("the edit planned would leave out line {n} of new_content and the rest")
        }
        (None, None) => unreachable!("k is below the longer length"),
    })
}

/// The search lines the alignment leaves without a file line, each with the
/// file line that stands where it would: the file's unpaired lines between
/// the same two paired lines, in order, or past the region's edge for a
/// search line past the last pair (before the first). Only lines alike by
/// their characters are given: a search line that reads a file line with a
/// slip too large to pair is still that line misread, and its slip may be
/// in the lines written.
fn would_pair(
    steps: &[Step],
    base: &[Row<'_>],
    file: &[Row<'_>],
    region: &std::ops::Range<usize>,
) -> Vec<(usize, usize)> {
    let likeness =
        |s: usize, f: usize| rapidfuzz::fuzz::ratio(solid(base[s].raw), solid(file[f].raw));
    let alike = |s: usize, f: usize| likeness(s, f) >= super::costs::COSTS.paired_rewrite;
    // Past the region's edges, as far as a few blank lines reach.
    const NEARBY: usize = 16;
    let text = |f: &usize| !file[*f].is_blank();
    let mut out = Vec::new();
    let anchored = |step: &Step| matches!(step, Step::Pair { .. } | Step::Hidden { .. });
    let first = steps.iter().position(anchored);
    let mut gap: (Vec<usize>, Vec<usize>) = (Vec::new(), Vec::new());
    let mut flush = |gap: &mut (Vec<usize>, Vec<usize>), beyond: Vec<usize>| {
        let (searched, mut files) = std::mem::take(gap);
        files.extend(beyond);
        let mut files = files.into_iter().filter(text);
        let searched: Vec<usize> = searched
            .into_iter()
            .filter(|&s| !base[s].is_blank())
            .collect();
        // A line of a mark or two (`}`, `_`) is too short for likeness to
        // say anything: alone in its gap, its place says which line it is.
        let short = |raw: &str| solid(raw).len() <= 2;
        let lone = searched.len() == 1;
        for &s in &searched {
            if let Some(f) = files.next()
                && (alike(s, f) || (lone && short(base[s].raw) && short(file[f].raw)))
            {
                out.push((s, f));
            }
        }
    };
    for (k, step) in steps.iter().enumerate() {
        match *step {
            Step::SearchOnly { s } => gap.0.push(s),
            Step::FileOnly { f } => gap.1.push(f),
            _ => {
                // Before the first pair: the file's lines above the region,
                // nearest first, stand before it.
                if Some(k) == first && !gap.0.is_empty() {
                    gap.0.reverse();
                    gap.1.reverse();
                    let above: Vec<usize> = (0..region.start).rev().take(NEARBY).collect();
                    flush(&mut gap, above);
                }
                flush(&mut gap, Vec::new());
            }
        }
    }
    flush(&mut gap, (region.end..file.len()).take(NEARBY).collect());
    // A search line with no such line in its gap may be one of two lines
    // the search has in another order than the file: its file line is then
    // a line or two past a neighbour, a line no step pairs.
    const TRANSPOSED: usize = 2;
    let mut taken: Vec<usize> = steps
        .iter()
        .flat_map(|step| match step {
            Step::Pair { f, .. } => *f..*f + 1,
            Step::Hidden { f, .. } => f.clone(),
            _ => 0..0,
        })
        .chain(out.iter().map(|&(_, f)| f))
        .collect();
    let mut next_f = region.start;
    for step in steps {
        match *step {
            Step::Pair { f, .. } => next_f = f + 1,
            Step::Hidden { ref f, .. } => next_f = f.end,
            Step::FileOnly { f } => next_f = f + 1,
            Step::SearchOnly { s } if !base[s].is_blank() && !out.iter().any(|p| p.0 == s) => {
                let near =
                    next_f.saturating_sub(TRANSPOSED + 1)..(next_f + TRANSPOSED).min(file.len());
                let best = near
                    .filter(|f| text(f) && !taken.contains(f) && alike(s, *f))
                    .max_by(|&x, &y| likeness(s, x).total_cmp(&likeness(s, y)));
                if let Some(f) = best {
                    taken.push(f);
                    out.push((s, f));
                }
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::fuzzy::rows::of_snippet;

    #[test]
    fn a_search_line_past_the_last_pair_would_pair_with_the_file_s_next_line() {
        let base = of_snippet("ports:\n  cpu: 1\n  - .059\n");
        let file = of_snippet("ports:\n  cpu: 1\n\n  - 2059\nname: x\n");
        let steps = [
            Step::Pair { s: 0, f: 0 },
            Step::Pair { s: 1, f: 1 },
            Step::SearchOnly { s: 2 },
        ];
        // Past the blank line, the file's next line of text.
        assert_eq!(would_pair(&steps, &base, &file, &(0..2)), vec![(2, 3)]);
        // A line unlike it is not paired.
        let file = of_snippet("ports:\n  cpu: 1\nsomething else entirely\n");
        assert_eq!(would_pair(&steps, &base, &file, &(0..2)), vec![]);
        // Before the first pair, the file's line above the region.
        let base = of_snippet("  - .059\nports:\n");
        let file = of_snippet("  - 2059\nports:\n");
        let steps = [Step::SearchOnly { s: 0 }, Step::Pair { s: 1, f: 1 }];
        assert_eq!(would_pair(&steps, &base, &file, &(1..2)), vec![(0, 0)]);
    }

    #[test]
    fn a_search_line_across_a_neighbour_from_its_file_line_would_pair_with_it() {
        // The search has the docstring after the first line of the body;
        // the file, before it (above the region). The gap between the two
        // pairs has no file line, so it would pair with none.
        let base = of_snippet("  emit(a)\n  [[[Sorts it.[[[\n  emit(b)\n");
        let file = of_snippet("def f():\n  \"\"\"Sorts it.\"\"\"\n  emit(a)\n  emit(b)\n");
        let steps = [
            Step::Pair { s: 0, f: 2 },
            Step::SearchOnly { s: 1 },
            Step::Pair { s: 2, f: 3 },
        ];
        assert_eq!(would_pair(&steps, &base, &file, &(2..4)), vec![(1, 1)]);
        // A line paired already is not taken twice, nor one unlike it.
        let file = of_snippet("def f():\n  other line here\n  emit(a)\n  emit(b)\n");
        assert_eq!(would_pair(&steps, &base, &file, &(2..4)), vec![]);
    }
}
