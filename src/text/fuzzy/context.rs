//! What every step of a plan needs to know of the file and the request, and
//! how a planned region becomes a reported edit.

use std::ops::Range;

use super::EditRequest;
use super::block::Lines as BlockLines;
use super::diff::unified;
use super::markers::Markers;
use super::outcome::{Adjustment, Candidate, LineRange, PlannedEdit, Splice};
use super::render::Rendered;
use super::rows::{self, Row};
use crate::text::lines::LineIndex;

/// The file and the request.
pub(crate) struct Ctx<'t, 'r> {
    pub text: &'t str,
    pub index: LineIndex,
    /// The file's lines as the alignment weighs them.
    pub file: Vec<Row<'t>>,
    /// The same lines as the candidate search reads them.
    pub blocks: BlockLines<'t>,
    /// The file's own marker-like lines.
    pub markers: Markers,
    pub request: &'r EditRequest<'r>,
}

impl<'t, 'r> Ctx<'t, 'r> {
    /// Reads `text` for `request`.
    pub(crate) fn new(text: &'t str, request: &'r EditRequest<'r>) -> Ctx<'t, 'r> {
        let index = LineIndex::new(text);
        let file = rows::of_text(text, &index);
        let blocks = BlockLines::of_text(text, &index);
        let markers = Markers::of(file.iter().map(|r| r.raw));
        Ctx {
            text,
            index,
            file,
            blocks,
            markers,
            request,
        }
    }

    /// The threshold as a 0–100 score.
    pub(crate) fn threshold(&self) -> f64 {
        self.request.threshold * 100.0
    }

    /// Bytes of file lines `lines` (0-based), endings included.
    pub(crate) fn span(&self, lines: &Range<usize>) -> Range<usize> {
        self.index.span_of_lines(lines.start + 1, lines.end)
    }

    /// 1-based inclusive numbers of file lines `lines`.
    pub(crate) fn numbers(lines: &Range<usize>) -> LineRange {
        LineRange {
            start: lines.start + 1,
            end: lines.end.max(lines.start + 1),
        }
    }

    /// A place, for messages.
    pub(crate) fn candidate(
        &self,
        lines: &Range<usize>,
        score: f64,
        adjustments: &[Adjustment],
    ) -> Candidate {
        Candidate {
            lines: Self::numbers(lines),
            score,
            kind: Adjustment::kind_of(adjustments),
        }
    }

    /// Diff from `search` to file lines `lines`.
    pub(crate) fn diff_against(&self, search: &str, lines: &Range<usize>) -> String {
        let label = format!("file lines {}", Self::numbers(lines));
        unified(
            search,
            &self.text[self.span(lines)],
            ("search_context", &label),
            1,
            lines.start + 1,
        )
    }

    /// The reported edit of file lines `lines` that `rendered` makes.
    pub(crate) fn edit(
        &self,
        lines: &Range<usize>,
        rendered: Rendered,
        adjustments: Vec<Adjustment>,
        score: f64,
    ) -> PlannedEdit {
        let span = self.span(lines);
        // The matched lines as they are and as they will be: a splice that
        // reaches back over the line break before them (the last lines of a
        // file without a final newline removed) still leaves them empty.
        let before = self.text[span.clone()].to_string();
        let after = format!(
            "{}{}{}",
            &self.text[span.start..rendered.range.start.max(span.start)],
            rendered.text,
            &self.text[rendered.range.end..span.end]
        );
        let first = self.index.line_of_offset(span.start);
        PlannedEdit {
            kind: Adjustment::kind_of(&adjustments),
            adjustments,
            score,
            lines: Self::numbers(lines),
            diff: unified(&before, &after, ("before", "after"), first, first),
            before,
            after,
            splice: Splice {
                range: rendered.range,
                text: rendered.text,
            },
        }
    }
}
