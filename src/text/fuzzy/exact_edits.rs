//! Edits where the search occurs as it is (up to line endings): one
//! occurrence is the place, several are ambiguous (or all replaced), and a
//! search that starts or ends inside a line replaces only what it covers.

use std::ops::Range;

use super::align::{Alignment, Step};
use super::apply::{self, Found};
use super::context::Ctx;
use super::diff::unified;
use super::exact::{self, Occurrence};
use super::literal::literal;
use super::outcome::{Adjustment, Candidate, LineRange, MatchKind, PlannedEdit, Splice};
use super::places::{Place, Prepared};
use super::refusal::{ConflictReason, Refusal};
use crate::text::lines::Eol;

/// File lines (0-based) an occurrence covers.
fn lines_of(ctx: &Ctx<'_, '_>, o: &Occurrence) -> Range<usize> {
    let first = ctx.index.line_of_offset(o.range.start);
    let last = if o.range.end > o.range.start {
        ctx.index.line_of_offset(o.range.end - 1)
    } else {
        first
    };
    first - 1..last
}

fn adjustments(o: &Occurrence) -> Vec<Adjustment> {
    if o.identical {
        Vec::new()
    } else {
        vec![Adjustment::LineEndings]
    }
}

/// The occurrence, for messages.
pub(crate) fn candidate(ctx: &Ctx<'_, '_>, o: &Occurrence) -> Candidate {
    Candidate {
        lines: Ctx::numbers(&lines_of(ctx, o)),
        score: 100.0,
        kind: if o.identical {
            MatchKind::Exact
        } else {
            MatchKind::LineEndings
        },
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

/// The last `len` bytes of `text` with `\r\n` read as `\n`.
fn lf_suffix(text: &str, len: usize) -> String {
    let mut cut = text.len().saturating_sub(len * 2);
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    text[cut..].replace("\r\n", "\n")
}

/// Where `new_content` already stands, when it is `search_context` with text
/// added before or after and the file has that text right there. Only added
/// text with something besides whitespace counts: a blank line is no sign of
/// a repeated call.
pub(crate) fn already_applied(ctx: &Ctx<'_, '_>, o: &Occurrence) -> Option<LineRange> {
    let search = ctx.request.search.replace("\r\n", "\n");
    let new = ctx.request.replacement.replace("\r\n", "\n");
    let substantial = |s: &str| s.chars().any(|c| !c.is_whitespace());
    let line_of = |offset: usize| ctx.index.line_of_offset(offset.min(ctx.text.len()));
    let breaks = |s: &str| s.matches('\n').count();
    if let Some(tail) = new.strip_prefix(search.as_str())
        && substantial(tail)
        && lf_prefix(&ctx.text[o.range.end..], tail.len()).starts_with(tail)
    {
        let last = line_of(o.range.end) + breaks(tail) - usize::from(tail.ends_with('\n'));
        return Some(LineRange {
            start: line_of(o.range.start),
            end: last,
        });
    }
    if let Some(head) = new.strip_suffix(search.as_str())
        && substantial(head)
        && lf_suffix(&ctx.text[..o.range.start], head.len()).ends_with(head)
    {
        return Some(LineRange {
            start: line_of(o.range.start).saturating_sub(breaks(head)).max(1),
            end: line_of(o.range.end.saturating_sub(1).max(o.range.start)),
        });
    }
    None
}

/// The edit of one occurrence. `substring` forces a literal replacement of
/// the occurrence's bytes (its line shares another occurrence).
pub(crate) fn edit(
    ctx: &Ctx<'_, '_>,
    prepared: &Prepared<'_>,
    o: &Occurrence,
    substring: bool,
) -> Result<PlannedEdit, Refusal> {
    let lines = lines_of(ctx, o);
    let (first, last) = (lines.start + 1, lines.end);
    let prefix = &ctx.text[ctx.index.start(first)..o.range.start];
    let content_end = ctx.index.span(ctx.text, last).end;
    let suffix = if o.range.end <= content_end {
        &ctx.text[o.range.end..content_end]
    } else {
        ""
    };
    let blank = |s: &str| s.bytes().all(|b| b == b' ' || b == b'\t');
    // A search that only left out the first line's indentation is a block
    // of whole lines. Emptying such a block without its final line break
    // leaves the line, as a literal replacement would.
    let empties = ctx.request.replacement.is_empty() && !ctx.request.search.ends_with('\n');
    let whole = !substring
        && !empties
        && blank(prefix)
        && suffix.is_empty()
        && prepared.search.len() == lines.len();
    if whole {
        let place = Place {
            reading: 0,
            weight: 0,
            window: lines.clone(),
            offset: 0,
            alignment: Alignment {
                steps: (0..lines.len())
                    .map(|k| Step::Pair {
                        s: k,
                        f: lines.start + k,
                    })
                    .collect(),
                cost: 0,
                edits: 0,
                hidden: 0,
                region: lines.clone(),
            },
        };
        return apply::edit(ctx, prepared, &place, Found::Exact, 100.0, adjustments(o));
    }
    for (j, line) in prepared.new.iter().enumerate() {
        if ctx.markers.is_comment_marker(line.raw)
            && !prepared.search.iter().any(|s| s.raw == line.raw)
        {
            return Err(Refusal::Conflict {
                lines: Ctx::numbers(&lines),
                reason: ConflictReason::MarkerInNewContent,
                search_line: None,
                file_line: None,
                file_lines: None,
                new_line: Some(j + 1),
                diff: String::new(),
            });
        }
    }
    let breaks: Vec<Eol> = lines.clone().map(|f| ctx.file[f].eol).collect();
    let ends_line = o.range.end >= content_end;
    let eol = block_eol(ctx, &lines);
    let text = literal(
        ctx.request.search,
        ctx.request.replacement,
        &breaks,
        eol,
        ends_line,
    );
    let span = ctx.span(&lines);
    let before = ctx.text[span.clone()].to_string();
    let after = format!(
        "{}{}{}",
        &ctx.text[span.start..o.range.start],
        text,
        &ctx.text[o.range.end..span.end]
    );
    Ok(PlannedEdit {
        kind: Adjustment::kind_of(&adjustments(o)),
        adjustments: adjustments(o),
        score: 100.0,
        lines: Ctx::numbers(&lines),
        diff: unified(&before, &after, ("before", "after"), first, first),
        before,
        after,
        splice: Splice {
            range: o.range.clone(),
            text,
        },
    })
}

/// The ending most of the lines use, or the file's own.
fn block_eol(ctx: &Ctx<'_, '_>, lines: &Range<usize>) -> Eol {
    let (mut lf, mut crlf) = (0, 0);
    for f in lines.clone() {
        match ctx.file[f].eol {
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
        ctx.index.eol_style(ctx.text).preferred()
    }
}

/// Every occurrence, for `replace_all`: those that do not overlap an earlier
/// one, each replaced; one that shares a line with another is replaced
/// literally.
pub(crate) fn all(
    ctx: &Ctx<'_, '_>,
    prepared: &Prepared<'_>,
    occurrences: &[Occurrence],
) -> Result<Vec<PlannedEdit>, Refusal> {
    let kept = exact::disjoint(occurrences);
    let spans: Vec<Range<usize>> = kept.iter().map(|o| lines_of(ctx, o)).collect();
    let shares_line = |k: usize| {
        (k > 0 && spans[k - 1].end > spans[k].start)
            || spans.get(k + 1).is_some_and(|n| n.start < spans[k].end)
    };
    (0..kept.len())
        .map(|k| edit(ctx, prepared, &kept[k], shares_line(k)))
        .collect()
}
