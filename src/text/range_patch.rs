//! Line-range patches checked against the text they replace (the
//! `patch_text_file_contents` format): every range of a patch must hold
//! exactly the patch's `old_string`, and is then replaced by `new_string`.
//!
//! The rules:
//!
//! - A range is `start..=end` in 1-based lines; `end: None` means to the end of
//!   the file. Its text is those lines with their line endings, so the text of
//!   lines 2-3 of `"a\nb\nc\n"` is `"b\nc\n"`.
//! - The comparison is exact, except that `\n` and `\r\n` count as the same
//!   line break, so a patch sent with LF still validates against a CRLF file.
//!   Everything else — spaces, tabs, a missing or extra final line ending —
//!   must match, and a mismatch names the first difference.
//! - An empty `old_string` inserts `new_string` before line `start` (`start` may
//!   be one past the last line, to append); its `end` must be `None` or `start - 1`.
//! - `new_string` is whole lines and gets the file's line endings; one trailing
//!   line ending is optional. An empty `new_string` deletes the range.
//! - Ranges must not overlap, within a patch or across patches. All ranges are
//!   numbered as in the original file and applied bottom-up, so earlier edits
//!   never shift later ones.
//!
//! Checking ([`check_patches`], [`check_deletions`]) and applying
//! ([`apply_edits`]) are separate, so a caller can check every file of a batch
//! before it writes any.
//!
//! ```
//! use mcp_server_text::text::document::Document;
//! use mcp_server_text::text::range_patch::{apply_edits, check_patches, LineRange, StringPatch};
//!
//! let doc = Document::decode(b"one\r\ntwo\r\nthree\r\n".to_vec(), None).unwrap();
//! let ranges = [LineRange { start: 2, end: Some(2) }];
//! let patch = StringPatch { old_string: "two\n", new_string: "2a\n2b\n", ranges: &ranges };
//! let checked = check_patches(&doc, &[patch]).unwrap();
//! assert!(checked.endings_differ);
//! let applied = apply_edits(&doc, &checked.edits).unwrap();
//! assert_eq!(applied.after.text(), "one\r\n2a\r\n2b\r\nthree\r\n");
//! assert_eq!(applied.lines_delta, 1);
//! ```

use std::fmt;

use super::document::{Document, Splice};
use super::edit::{EditError, EditPlan, LineEdit, LineSpan, content_lines, plan};
use super::encoding::EncodeError;
use super::lines::{Eol, EolStyle};
use super::literal::find_all;

/// A line range as callers send it. `end: None` means to the end of the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineRange {
    /// First line, 1-based.
    pub start: usize,
    /// Last line, inclusive; `None` for the end of the file.
    pub end: Option<usize>,
}

/// One patch: `old_string` must be the text of every one of `ranges`, and
/// each of them is replaced by `new_string`.
#[derive(Debug, Clone, Copy)]
pub struct StringPatch<'a> {
    /// The text every range must hold; empty for an insertion.
    pub old_string: &'a str,
    /// The text each range gets.
    pub new_string: &'a str,
    /// Where the patch applies.
    pub ranges: &'a [LineRange],
}

/// Where a range is in the request: `patches[p].ranges[r]`, or `ranges[r]` for
/// requests without patches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RangeAt {
    /// Index of the patch, if the request has patches.
    pub patch: Option<usize>,
    /// Index of the range.
    pub range: usize,
}

impl fmt::Display for RangeAt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(p) = self.patch {
            write!(f, "patches[{p}].")?;
        }
        write!(f, "ranges[{}]", self.range)
    }
}

/// What a checked range covers in the original file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Site {
    /// Lines `first..=last`.
    Lines {
        /// First line.
        first: usize,
        /// Last line.
        last: usize,
    },
    /// The point before line `n` (`line_count + 1` is the end of the file).
    Before(usize),
}

impl fmt::Display for Site {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Site::Lines { first, last } if first == last => write!(f, "line {first}"),
            Site::Lines { first, last } => write!(f, "lines {first}-{last}"),
            Site::Before(n) => write!(f, "before line {n}"),
        }
    }
}

impl Site {
    /// Sort key in file order; an insertion before line `n` comes before an
    /// edit of lines starting at `n`, as its text ends up above them.
    fn key(self) -> (usize, u8) {
        match self {
            Site::Before(n) => (n, 0),
            Site::Lines { first, .. } => (first, 1),
        }
    }
}

/// One checked range and the text it gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RangeEdit<'a> {
    /// Where the range is in the request.
    pub at: RangeAt,
    /// What it covers.
    pub site: Site,
    /// The new lines (empty to delete).
    pub new_text: &'a str,
}

/// The edits of a request that passed every check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checked<'a> {
    /// One edit per range, in request order.
    pub edits: Vec<RangeEdit<'a>>,
    /// Whether some `old_string` matched only once `\r\n` and `\n` were taken as equal.
    pub endings_differ: bool,
}

/// The result of applying checked edits.
#[derive(Debug, Clone)]
pub struct Applied {
    /// The edited document.
    pub after: Document,
    /// For each edit (in request order), where its new text is in the edited
    /// document; for a deletion, the empty span where the lines were.
    pub placed: Vec<LineSpan>,
    /// Lines added minus lines removed.
    pub lines_delta: isize,
}

/// How the text of a range differs from `old_string`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Difference {
    /// The range ends with a line ending that `old_string` lacks.
    MissingFinalEnding,
    /// `old_string` ends with a line ending the range does not have (the
    /// file's last line has none).
    ExtraFinalEnding,
    /// The texts first differ at this line of the file and character column.
    At {
        /// 1-based line of the file.
        line: usize,
        /// 1-based character column in that line.
        column: usize,
    },
}

/// A range whose text is not `old_string`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    /// Where the range is in the request.
    pub at: RangeAt,
    /// The lines it covers.
    pub site: Site,
    /// `old_string`.
    pub expected: String,
    /// The text of the lines.
    pub actual: String,
    /// How they differ.
    pub difference: Difference,
    /// Whole-line places where `old_string` does occur (at most five).
    pub found_at: Vec<LineSpan>,
}

/// Why a set of patches was refused. Nothing is applied when any range fails.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RangePatchError {
    /// The request has no patches.
    NoPatches,
    /// A patch (or a deletion request) has no ranges.
    NoRanges {
        /// Index of the patch, if any.
        patch: Option<usize>,
    },
    /// A patch has empty `old_string` and empty `new_string`.
    NothingToDo {
        /// Index of the patch.
        patch: usize,
    },
    /// A range starts at line 0.
    LineZero {
        /// The range.
        at: RangeAt,
    },
    /// A range ends before it starts.
    Reversed {
        /// The range.
        at: RangeAt,
        /// Its start.
        start: usize,
        /// Its end.
        end: usize,
    },
    /// A range reaches past the last line.
    PastEnd {
        /// The range.
        at: RangeAt,
        /// The range as sent.
        range: LineRange,
        /// Lines in the file.
        line_count: usize,
        /// Whether the range is an insertion point (which may be one past the end).
        insertion: bool,
    },
    /// `old_string` is empty (an insertion) but the range covers lines.
    InsertionWithLines {
        /// The range.
        at: RangeAt,
        /// Its start.
        start: usize,
        /// Its end.
        end: usize,
    },
    /// A range does not hold `old_string`.
    Mismatch(Box<Mismatch>),
    /// A range's text no longer has the hash the caller read.
    RangeChanged {
        /// The range.
        at: RangeAt,
        /// The lines it covers.
        site: Site,
        /// The hash the caller sent.
        given: String,
        /// The hash of the lines now.
        actual: String,
    },
    /// Two ranges overlap.
    Overlap {
        /// The range that comes first in the request.
        first: (RangeAt, Site),
        /// The range that comes later.
        second: (RangeAt, Site),
    },
    /// New text cannot be written in the file's encoding.
    Encode {
        /// The range whose new text failed.
        at: RangeAt,
        /// Why.
        error: EncodeError,
    },
    /// A checked edit could not be planned (a bug: checks should prevent it).
    Edit {
        /// The range.
        at: RangeAt,
        /// Why.
        error: EditError,
    },
}

impl RangePatchError {
    /// The range the error is about, if it is about one.
    pub fn at(&self) -> Option<RangeAt> {
        match self {
            RangePatchError::LineZero { at }
            | RangePatchError::Reversed { at, .. }
            | RangePatchError::PastEnd { at, .. }
            | RangePatchError::InsertionWithLines { at, .. }
            | RangePatchError::RangeChanged { at, .. }
            | RangePatchError::Encode { at, .. }
            | RangePatchError::Edit { at, .. } => Some(*at),
            RangePatchError::Mismatch(m) => Some(m.at),
            RangePatchError::Overlap { second, .. } => Some(second.0),
            _ => None,
        }
    }
}

impl fmt::Display for RangePatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RangePatchError::NoPatches => {
                f.write_str("patches is empty: there is nothing to apply")
            }
            RangePatchError::NoRanges { patch: Some(p) } => {
                write!(
                    f,
                    "patches[{p}] has no ranges: say which lines it applies to"
                )
            }
            RangePatchError::NoRanges { patch: None } => {
                f.write_str("ranges is empty: say which lines to delete")
            }
            RangePatchError::NothingToDo { patch } => write!(
                f,
                "patches[{patch}] has an empty old_string and an empty new_string, so it would change nothing"
            ),
            RangePatchError::LineZero { at } => {
                write!(f, "{at}: line 0 does not exist, line numbers start at 1")
            }
            RangePatchError::Reversed { at, start, end } => {
                write!(
                    f,
                    "{at}: the range is reversed, end {end} is before start {start}"
                )
            }
            RangePatchError::PastEnd {
                at,
                range,
                line_count,
                insertion,
            } => {
                let shown = match range.end {
                    Some(end) if !insertion => format!("lines {}-{end}", range.start),
                    _ if *insertion => format!("insertion before line {}", range.start),
                    _ => format!("lines {}-end", range.start),
                };
                let size = match line_count {
                    0 => "the file is empty".to_string(),
                    1 => "the file has 1 line".to_string(),
                    n => format!("the file has {n} lines"),
                };
                if *insertion {
                    write!(
                        f,
                        "{at} ({shown}) is past the end: {size}, so insert before a line from 1 to {} ({} appends)",
                        line_count + 1,
                        line_count + 1
                    )
                } else {
                    write!(f, "{at} ({shown}) is past the end: {size}")
                }
            }
            RangePatchError::InsertionWithLines { at, start, end } => write!(
                f,
                "{at}: old_string is empty, which means inserting before line {start}, but the range {start}-{end} covers lines; to insert, give end null (or {}); to replace those lines, give their current text as old_string",
                start - 1
            ),
            RangePatchError::Mismatch(m) => {
                write!(f, "{} ({}): the lines do not hold old_string", m.at, m.site)?;
                match m.difference {
                    Difference::MissingFinalEnding => f.write_str(
                        ": they end with a line ending that old_string lacks (a range's text includes the ending of its last line)",
                    )?,
                    Difference::ExtraFinalEnding => f.write_str(
                        ": old_string ends with a line ending, but the last line of the file has none",
                    )?,
                    Difference::At { line, column } => {
                        write!(f, ": first difference at line {line}, column {column}")?
                    }
                }
                write!(
                    f,
                    "\nexpected (old_string): {}\nactual ({}): {}",
                    quote(&m.expected, &m.actual),
                    m.site,
                    quote(&m.actual, &m.expected)
                )?;
                if !m.found_at.is_empty() {
                    let places: Vec<String> = m
                        .found_at
                        .iter()
                        .map(|s| {
                            Site::Lines {
                                first: s.start,
                                last: s.end,
                            }
                            .to_string()
                        })
                        .collect();
                    write!(f, "\nold_string does occur at {}", places.join(", "))?;
                }
                Ok(())
            }
            RangePatchError::RangeChanged {
                at,
                site,
                given,
                actual,
            } => write!(
                f,
                "{at} ({site}): range_hash {given} is not the hash of the lines now ({actual}): they changed since they were read"
            ),
            RangePatchError::Overlap { first, second } => write!(
                f,
                "{} ({}) and {} ({}) overlap; ranges must not overlap, within a patch or across patches",
                first.0, first.1, second.0, second.1
            ),
            RangePatchError::Encode { at, error } => write!(f, "{at}: {error}"),
            RangePatchError::Edit { at, error } => write!(f, "{at}: {error}"),
        }
    }
}

impl std::error::Error for RangePatchError {}

/// Longest text shown whole in a mismatch message; longer text is shown
/// around the first difference.
const SHOWN_CHARS: usize = 400;

/// `text` as a JSON string (so line endings and tabs are visible), cut to a
/// window around where it first differs from `other` when it is long.
fn quote(text: &str, other: &str) -> String {
    if text.chars().count() <= SHOWN_CHARS {
        return serde_json::to_string(text).unwrap_or_default();
    }
    let differ = text
        .char_indices()
        .zip(other.chars())
        .find(|((_, a), b)| a != b)
        .map(|((i, _), _)| i)
        .unwrap_or_else(|| other.len().min(text.len()));
    let differ = floor_char_boundary(text, differ);
    let before: Vec<(usize, char)> = text[..differ].char_indices().collect();
    let from = before
        .len()
        .checked_sub(SHOWN_CHARS / 4)
        .map_or(0, |k| before[k].0);
    let to = text[from..]
        .char_indices()
        .nth(SHOWN_CHARS)
        .map_or(text.len(), |(i, _)| from + i);
    let mut out = String::new();
    if from > 0 {
        out.push('…');
    }
    out.push_str(&serde_json::to_string(&text[from..to]).unwrap_or_default());
    if to < text.len() {
        out.push('…');
    }
    out
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The text of lines `first..=last` with their endings.
pub fn lines_text(doc: &Document, first: usize, last: usize) -> &str {
    &doc.text()[doc.lines().span_of_lines(first, last)]
}

/// `text` with every `\r\n` made `\n`.
fn lf(text: &str) -> std::borrow::Cow<'_, str> {
    if text.contains("\r\n") {
        std::borrow::Cow::Owned(text.replace("\r\n", "\n"))
    } else {
        std::borrow::Cow::Borrowed(text)
    }
}

/// Resolves a range of existing lines.
fn resolve_lines(
    at: RangeAt,
    range: LineRange,
    line_count: usize,
) -> Result<Site, RangePatchError> {
    if range.start == 0 {
        return Err(RangePatchError::LineZero { at });
    }
    let past_end = || RangePatchError::PastEnd {
        at,
        range,
        line_count,
        insertion: false,
    };
    if let Some(end) = range.end {
        if end < range.start {
            return Err(RangePatchError::Reversed {
                at,
                start: range.start,
                end,
            });
        }
        if end > line_count {
            return Err(past_end());
        }
    }
    if range.start > line_count {
        return Err(past_end());
    }
    Ok(Site::Lines {
        first: range.start,
        last: range.end.unwrap_or(line_count),
    })
}

/// Checks `patches` against `doc`: every range exists, holds `old_string`, and
/// overlaps no other range.
pub fn check_patches<'a>(
    doc: &Document,
    patches: &[StringPatch<'a>],
) -> Result<Checked<'a>, RangePatchError> {
    if patches.is_empty() {
        return Err(RangePatchError::NoPatches);
    }
    let count = doc.line_count();
    let mut edits = Vec::new();
    let mut endings_differ = false;
    for (p, patch) in patches.iter().enumerate() {
        if patch.ranges.is_empty() {
            return Err(RangePatchError::NoRanges { patch: Some(p) });
        }
        if patch.old_string.is_empty() && patch.new_string.is_empty() {
            return Err(RangePatchError::NothingToDo { patch: p });
        }
        for (r, &range) in patch.ranges.iter().enumerate() {
            let at = RangeAt {
                patch: Some(p),
                range: r,
            };
            let site = if patch.old_string.is_empty() {
                check_insertion(at, range, count)?
            } else {
                let site = resolve_lines(at, range, count)?;
                let Site::Lines { first, last } = site else {
                    unreachable!("resolve_lines gives lines")
                };
                let actual = lines_text(doc, first, last);
                if actual != patch.old_string {
                    if lf(actual) == lf(patch.old_string) {
                        endings_differ = true;
                    } else {
                        return Err(mismatch(doc, at, first, last, patch.old_string));
                    }
                }
                site
            };
            edits.push(RangeEdit {
                at,
                site,
                new_text: patch.new_string,
            });
        }
    }
    check_overlaps(&edits)?;
    Ok(Checked {
        edits,
        endings_differ,
    })
}

fn check_insertion(at: RangeAt, range: LineRange, count: usize) -> Result<Site, RangePatchError> {
    if range.start == 0 {
        return Err(RangePatchError::LineZero { at });
    }
    if let Some(end) = range.end
        && end + 1 != range.start
    {
        return Err(RangePatchError::InsertionWithLines {
            at,
            start: range.start,
            end,
        });
    }
    if range.start > count + 1 {
        return Err(RangePatchError::PastEnd {
            at,
            range,
            line_count: count,
            insertion: true,
        });
    }
    Ok(Site::Before(range.start))
}

/// Checks whole-line deletions of `ranges` (`end: None` is the end of the
/// file). `hold` may refuse a range by its current text (e.g. a stale hash).
pub fn check_deletions<'a>(
    doc: &Document,
    ranges: &[LineRange],
    mut hold: impl FnMut(RangeAt, Site, &str) -> Result<(), RangePatchError>,
) -> Result<Checked<'a>, RangePatchError> {
    if ranges.is_empty() {
        return Err(RangePatchError::NoRanges { patch: None });
    }
    let count = doc.line_count();
    let mut edits = Vec::with_capacity(ranges.len());
    for (r, &range) in ranges.iter().enumerate() {
        let at = RangeAt {
            patch: None,
            range: r,
        };
        let site = resolve_lines(at, range, count)?;
        if let Site::Lines { first, last } = site {
            hold(at, site, lines_text(doc, first, last))?;
        }
        edits.push(RangeEdit {
            at,
            site,
            new_text: "",
        });
    }
    check_overlaps(&edits)?;
    Ok(Checked {
        edits,
        endings_differ: false,
    })
}

fn mismatch(
    doc: &Document,
    at: RangeAt,
    first: usize,
    last: usize,
    expected: &str,
) -> RangePatchError {
    let actual = lines_text(doc, first, last);
    let (a, e) = (lf(actual), lf(expected));
    let difference = if a.strip_suffix('\n') == Some(e.as_ref()) {
        Difference::MissingFinalEnding
    } else if e.strip_suffix('\n') == Some(a.as_ref()) {
        Difference::ExtraFinalEnding
    } else {
        let offset = a
            .char_indices()
            .zip(e.chars())
            .find(|((_, x), y)| x != y)
            .map(|((i, _), _)| i)
            .unwrap_or_else(|| a.len().min(e.len()));
        let offset = floor_char_boundary(&a, offset);
        let before = &a[..offset];
        let line = first + before.matches('\n').count();
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let column = before[line_start..].chars().count() + 1;
        Difference::At { line, column }
    };
    let found_at = whole_line_matches(doc, expected, 5);
    RangePatchError::Mismatch(Box::new(Mismatch {
        at,
        site: Site::Lines { first, last },
        expected: expected.to_string(),
        actual: actual.to_string(),
        difference,
        found_at,
    }))
}

/// Up to `max` places where `needle` covers whole lines of `doc`.
fn whole_line_matches(doc: &Document, needle: &str, max: usize) -> Vec<LineSpan> {
    let text = doc.text();
    let index = doc.lines();
    find_all(text, needle)
        .into_iter()
        .filter(|m| {
            let at_line_start = m.start == 0 || text.as_bytes()[m.start - 1] == b'\n';
            let at_line_end = m.end == text.len() || text.as_bytes()[m.end - 1] == b'\n';
            at_line_start && at_line_end && m.end > m.start
        })
        .take(max)
        .map(|m| {
            LineSpan::new(
                index.line_of_offset(m.start),
                index.line_of_offset(m.end - 1),
            )
        })
        .collect()
}

/// Refuses overlapping edits: two ranges sharing a line, an insertion point
/// strictly inside a range, or two insertions at the same point.
fn check_overlaps(edits: &[RangeEdit<'_>]) -> Result<(), RangePatchError> {
    let mut order: Vec<usize> = (0..edits.len()).collect();
    order.sort_by_key(|&i| edits[i].site.key());
    // In file order, the range reaching furthest so far and the last insertion point.
    let mut reach: Option<(usize, usize)> = None;
    let mut point: Option<(usize, usize)> = None;
    let overlap = |i: usize, j: usize| {
        let (a, b) = (i.min(j), i.max(j));
        RangePatchError::Overlap {
            first: (edits[a].at, edits[a].site),
            second: (edits[b].at, edits[b].site),
        }
    };
    for i in order {
        match edits[i].site {
            Site::Before(n) => {
                // Ranges seen so far start above line n.
                if let Some((j, last)) = reach
                    && last >= n
                {
                    return Err(overlap(i, j));
                }
                if let Some((j, m)) = point
                    && m == n
                {
                    return Err(overlap(i, j));
                }
                point = Some((i, n));
            }
            Site::Lines { first, last } => {
                if let Some((j, furthest)) = reach
                    && furthest >= first
                {
                    return Err(overlap(i, j));
                }
                if reach.is_none_or(|(_, furthest)| last > furthest) {
                    reach = Some((i, last));
                }
            }
        }
    }
    Ok(())
}

/// Applies checked, non-overlapping edits to `doc`, as if bottom-up: each is
/// planned on the lines as numbered in `doc`. New text gets the line ending
/// of the lines it replaces (the file's style, or the neighbour's in a mixed
/// file).
///
/// Usually every edit is planned on `doc` itself and all are applied in one
/// pass, so a thousand ranges cost about one copy of the file. In a file
/// without a final newline, edits at its end also change the ending of the
/// line before them (deleting the last lines removes it, appending adds it),
/// which another edit may touch; there the edits are applied one by one from
/// the bottom, each planned on the result of the ones below it.
pub fn apply_edits(doc: &Document, edits: &[RangeEdit<'_>]) -> Result<Applied, RangePatchError> {
    let mut order: Vec<usize> = (0..edits.len()).collect();
    order.sort_by_key(|&i| edits[i].site.key());
    let endings = Endings::of(doc);
    let mut plans = Vec::with_capacity(edits.len());
    let mut one_pass = edits.len() <= 1 || doc.has_final_newline();
    for &i in &order {
        let planned = plan_edit(doc, &endings, &edits[i])?;
        let line_start = match edits[i].site {
            Site::Lines { first, .. } => doc.lines().start(first),
            Site::Before(n) => doc.lines().start(n),
        };
        if planned.splice.range.start < line_start {
            one_pass = false;
        }
        plans.push((i, planned));
    }
    if !one_pass {
        return apply_bottom_up(doc, edits, &order);
    }
    let splices: Vec<Splice> = plans.iter().map(|(_, p)| p.splice.clone()).collect();
    let after = doc.apply(&splices).map_err(|error| {
        // Find the edit whose text cannot be encoded, for the message.
        let at = plans
            .iter()
            .find(|(_, p)| doc.encoding().encode(&p.splice.text).is_err())
            .map_or(edits[order[0]].at, |(i, _)| edits[*i].at);
        RangePatchError::Encode { at, error }
    })?;
    let mut placed = vec![LineSpan::new(1, 0); edits.len()];
    let mut shift = 0isize;
    for (i, planned) in &plans {
        placed[*i] = shifted(planned.new_span, shift);
        shift += planned.lines_delta;
    }
    Ok(Applied {
        after,
        placed,
        lines_delta: shift,
    })
}

/// The line endings of the original document, looked up without rescanning
/// it for every edit.
struct Endings<'d> {
    doc: &'d Document,
    style: EolStyle,
}

impl<'d> Endings<'d> {
    fn of(doc: &'d Document) -> Endings<'d> {
        Endings {
            doc,
            style: doc.eol_style(),
        }
    }

    /// What [`Document::eol_near`] gives for `near`.
    fn near(&self, near: usize) -> Eol {
        match self.style {
            EolStyle::Mixed { .. } if near >= 1 && near <= self.doc.line_count() => {
                match self.doc.eol(near) {
                    Eol::None => self.style.preferred(),
                    eol => eol,
                }
            }
            style => style.preferred(),
        }
    }
}

/// Plans one edit on `base`, with the line ending the original has near it.
fn plan_edit(
    base: &Document,
    original: &Endings<'_>,
    edit: &RangeEdit<'_>,
) -> Result<EditPlan, RangePatchError> {
    plan_at(base, original, edit, edit.site)
}

/// Plans `edit` at `site` of `base` (where it has moved to), with the line
/// ending the original has near where the edit was asked for.
fn plan_at(
    base: &Document,
    original: &Endings<'_>,
    edit: &RangeEdit<'_>,
    site: Site,
) -> Result<EditPlan, RangePatchError> {
    let near = match edit.site {
        Site::Lines { first, .. } => first,
        Site::Before(before) => before.saturating_sub(1).max(1),
    };
    let line_edit = match site {
        Site::Lines { first, last } if edit.new_text.is_empty() => LineEdit::Delete { first, last },
        Site::Lines { first, last } => LineEdit::Replace {
            first,
            last,
            content: edit.new_text,
        },
        Site::Before(before) => LineEdit::Insert {
            before,
            content: edit.new_text,
        },
    };
    plan(base, &line_edit, original.near(near))
        .map_err(|error| RangePatchError::Edit { at: edit.at, error })
}

fn shifted(span: LineSpan, shift: isize) -> LineSpan {
    LineSpan::new(
        (span.start as isize + shift) as usize,
        (span.end as isize + shift) as usize,
    )
}

/// Applies `edits` one by one from the bottom (`order` is file order).
///
/// Text appended after the last line goes in last, after every other edit:
/// appending gives the old last line an ending, and if that line's text ends
/// in a stray CR, the CR and the new LF read as one CRLF ending, which an
/// edit of that line planned afterwards would take for the file's style.
fn apply_bottom_up(
    doc: &Document,
    edits: &[RangeEdit<'_>],
    order: &[usize],
) -> Result<Applied, RangePatchError> {
    let endings = Endings::of(doc);
    let appends = |i: &usize| matches!(edits[*i].site, Site::Before(n) if n > doc.line_count());
    let (tail, body): (Vec<usize>, Vec<usize>) = order.iter().copied().partition(appends);
    let mut current: Option<Document> = None;
    let mut deltas = vec![0isize; edits.len()];
    let mut spans = vec![LineSpan::new(1, 0); edits.len()];
    // An append goes after the end of the text so far: where it lands is
    // already where it stays.
    let mut apply = |i: usize, append: bool| -> Result<(), RangePatchError> {
        let base = current.as_ref().unwrap_or(doc);
        let planned = if append {
            let end = base.line_count();
            let mut planned = plan_at(base, &endings, &edits[i], Site::Before(end + 1))?;
            // The edits above may have ended the text with an empty line,
            // which only a final newline expresses; the appended last line
            // still has no ending, as the file's last line had none.
            let eol = endings.near(doc.line_count().max(1)).as_str();
            let empty_last = content_lines(edits[i].new_text).last() == Some(&"");
            if !doc.has_final_newline() && end > 0 && base.has_final_newline() && !empty_last {
                let text = &mut planned.splice.text;
                if text.ends_with(eol) {
                    text.truncate(text.len() - eol.len());
                }
            }
            planned
        } else {
            plan_edit(base, &endings, &edits[i])?
        };
        let next = base
            .apply(std::slice::from_ref(&planned.splice))
            .map_err(|error| RangePatchError::Encode {
                at: edits[i].at,
                error,
            })?;
        deltas[i] = planned.lines_delta;
        spans[i] = planned.new_span;
        current = Some(next);
        Ok(())
    };
    for &i in body.iter().rev() {
        apply(i, false)?;
    }
    for &i in &tail {
        apply(i, true)?;
    }
    // Each other edit moves by the line changes of the edits above it.
    let mut shift = 0isize;
    for &i in &body {
        spans[i] = shifted(spans[i], shift);
        shift += deltas[i];
    }
    shift += tail.iter().map(|&i| deltas[i]).sum::<isize>();
    Ok(Applied {
        after: current.unwrap_or_else(|| doc.clone()),
        placed: spans,
        lines_delta: shift,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::encoding::TextEncoding;
    use crate::text::lines::LineIndex;

    fn doc(s: &str) -> Document {
        Document::decode(s.as_bytes().to_vec(), None).unwrap()
    }

    fn r(start: usize, end: Option<usize>) -> LineRange {
        LineRange { start, end }
    }

    fn patch<'a>(old: &'a str, new: &'a str, ranges: &'a [LineRange]) -> StringPatch<'a> {
        StringPatch {
            old_string: old,
            new_string: new,
            ranges,
        }
    }

    fn run(
        text: &str,
        patches: &[StringPatch<'_>],
    ) -> Result<(String, Vec<LineSpan>), RangePatchError> {
        let d = doc(text);
        let checked = check_patches(&d, patches)?;
        let applied = apply_edits(&d, &checked.edits)?;
        Ok((applied.after.text().to_string(), applied.placed))
    }

    const FILE: &str = "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\n";

    #[test]
    fn one_patch_over_several_ranges() {
        let text = "x\nTODO\ny\nTODO\nz\n";
        let ranges = [r(2, Some(2)), r(4, Some(4))];
        let (after, placed) = run(text, &[patch("TODO\n", "DONE\nDONE\n", &ranges)]).unwrap();
        assert_eq!(after, "x\nDONE\nDONE\ny\nDONE\nDONE\nz\n");
        assert_eq!(placed, [LineSpan::new(2, 3), LineSpan::new(5, 6)]);
    }

    #[test]
    fn several_patches_apply_bottom_up_in_original_numbering() {
        let a = [r(2, Some(3))];
        let b = [r(6, Some(6))];
        let c = [r(8, None)];
        let (after, placed) = run(
            FILE,
            &[
                patch("l6\n", "six\n", &b),
                patch("l2\nl3\n", "two-three\n", &a),
                patch("l8\n", "", &c),
            ],
        )
        .unwrap();
        assert_eq!(after, "l1\ntwo-three\nl4\nl5\nsix\nl7\n");
        assert_eq!(
            placed,
            [
                LineSpan::new(5, 5),
                LineSpan::new(2, 2),
                LineSpan::new(7, 6)
            ]
        );
    }

    #[test]
    fn end_null_reaches_the_end_of_the_file() {
        let ranges = [r(7, None)];
        let (after, _) = run(FILE, &[patch("l7\nl8\n", "end\n", &ranges)]).unwrap();
        assert_eq!(after, "l1\nl2\nl3\nl4\nl5\nl6\nend\n");
        let err = run(FILE, &[patch("l7\n", "end\n", &ranges)]).unwrap_err();
        assert!(matches!(err, RangePatchError::Mismatch(_)), "{err}");
    }

    #[test]
    fn appending_after_a_last_line_ending_in_a_cr_keeps_the_other_endings() {
        // Line 2 has no ending and its text ends in a stray CR. Appending
        // gives it an LF, which reads as a CRLF together with the CR; the
        // replacement of line 2 must still be written in the file's LF style.
        let text = "\n\u{fffd}\r";
        let (after, placed) = run(
            text,
            &[
                patch("\u{fffd}\r", "\n\n", &[r(2, Some(2))]),
                patch("", "\u{fffd}", &[r(3, None), r(2, None)]),
            ],
        )
        .unwrap();
        assert_eq!(after, "\n\u{fffd}\n\n\n\u{fffd}");
        assert_eq!(
            placed,
            [
                LineSpan::new(3, 4),
                LineSpan::new(5, 5),
                LineSpan::new(2, 2)
            ]
        );
        // An append is placed after the other edits have moved the lines.
        let (after, placed) = run(
            "a\nb",
            &[
                patch("", "x", &[r(3, None)]),
                patch("a\n", "", &[r(1, Some(1))]),
            ],
        )
        .unwrap();
        assert_eq!(after, "b\nx");
        assert_eq!(placed, [LineSpan::new(2, 2), LineSpan::new(1, 0)]);
    }

    #[test]
    fn empty_old_string_inserts_before_start() {
        let at3 = [r(3, None)];
        let (after, placed) = run(FILE, &[patch("", "new\n", &at3)]).unwrap();
        assert_eq!(after, "l1\nl2\nnew\nl3\nl4\nl5\nl6\nl7\nl8\n");
        assert_eq!(placed, [LineSpan::new(3, 3)]);
        let append = [r(9, Some(8))];
        let (after, _) = run(FILE, &[patch("", "l9", &append)]).unwrap();
        assert!(after.ends_with("l8\nl9\n"));
        let (after, _) = run("", &[patch("", "first\n", &[r(1, None)])]).unwrap();
        assert_eq!(after, "first\n");
        // An insertion and a replacement starting at the same line: the
        // inserted text goes above the replaced lines.
        let at2 = [r(2, None)];
        let two = [r(2, Some(2))];
        let (after, _) = run(
            "a\nb\nc\n",
            &[patch("b\n", "B\n", &two), patch("", "inserted\n", &at2)],
        )
        .unwrap();
        assert_eq!(after, "a\ninserted\nB\nc\n");
    }

    #[test]
    fn insertion_must_not_cover_lines() {
        let err = run(FILE, &[patch("", "x\n", &[r(3, Some(3))])]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "patches[0].ranges[0]: old_string is empty, which means inserting before line 3, but the range 3-3 covers lines; to insert, give end null (or 2); to replace those lines, give their current text as old_string"
        );
        let err = run(FILE, &[patch("", "x\n", &[r(10, None)])]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "patches[0].ranges[0] (insertion before line 10) is past the end: the file has 8 lines, so insert before a line from 1 to 9 (9 appends)"
        );
        let err = run(FILE, &[patch("", "", &[r(1, None)])]).unwrap_err();
        assert_eq!(err, RangePatchError::NothingToDo { patch: 0 });
    }

    #[test]
    fn mismatch_names_the_range_and_shows_both_texts() {
        let ranges = [r(2, Some(3))];
        let err = run(
            FILE,
            &[
                patch("l1\n", "x\n", &[r(1, Some(1))]),
                patch("l2\nL3\n", "x\n", &ranges),
            ],
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "patches[1].ranges[0] (lines 2-3): the lines do not hold old_string: first difference at line 3, column 1\nexpected (old_string): \"l2\\nL3\\n\"\nactual (lines 2-3): \"l2\\nl3\\n\""
        );
        assert_eq!(
            err.at(),
            Some(RangeAt {
                patch: Some(1),
                range: 0
            })
        );
    }

    #[test]
    fn mismatch_points_at_where_the_text_is() {
        let err = run(FILE, &[patch("l5\nl6\n", "x\n", &[r(4, Some(5))])]).unwrap_err();
        let RangePatchError::Mismatch(m) = &err else {
            panic!("{err}")
        };
        assert_eq!(m.found_at, [LineSpan::new(5, 6)]);
        assert!(
            err.to_string()
                .ends_with("\nold_string does occur at lines 5-6")
        );
    }

    #[test]
    fn final_line_endings_must_match_and_say_so() {
        let err = run(FILE, &[patch("l2", "x\n", &[r(2, Some(2))])]).unwrap_err();
        assert!(
            err.to_string()
                .contains("they end with a line ending that old_string lacks"),
            "{err}"
        );
        let err = run("a\nb", &[patch("b\n", "x\n", &[r(2, Some(2))])]).unwrap_err();
        assert!(
            err.to_string()
                .contains("the last line of the file has none"),
            "{err}"
        );
    }

    #[test]
    fn crlf_files_stay_crlf_whatever_the_patch_uses() {
        let text = "one\r\ntwo\r\nthree\r\n";
        let d = doc(text);
        let ranges = [r(2, Some(2))];
        let checked = check_patches(&d, &[patch("two\n", "2\n", &ranges)]).unwrap();
        assert!(checked.endings_differ);
        let applied = apply_edits(&d, &checked.edits).unwrap();
        assert_eq!(applied.after.text(), "one\r\n2\r\nthree\r\n");
        let checked = check_patches(&d, &[patch("two\r\n", "2\n", &ranges)]).unwrap();
        assert!(!checked.endings_differ);
        // A mixed file: the edited line takes its neighbour's ending, the rest keep theirs.
        let (after, _) = run(
            "a\r\nb\nc\r\n",
            &[patch("a\n", "A\nA2\n", &[r(1, Some(1))])],
        )
        .unwrap();
        assert_eq!(after, "A\r\nA2\r\nb\nc\r\n");
    }

    #[test]
    fn a_file_without_final_newline_keeps_none() {
        let (after, _) = run("a\nb\nc", &[patch("c", "C\n", &[r(3, None)])]).unwrap();
        assert_eq!(after, "a\nb\nC");
        // Deleting the unterminated last line next to a replaced line.
        let (after, _) = run(
            "a\nb\nc",
            &[
                patch("b\n", "B\n", &[r(2, Some(2))]),
                patch("c", "", &[r(3, Some(3))]),
            ],
        )
        .unwrap();
        assert_eq!(after, "a\nB");
    }

    #[test]
    fn replacing_every_line_by_deletion_and_insertion_keeps_the_final_newline() {
        let (after, placed) = run(
            "a\nb\n",
            &[
                patch("a\nb\n", "", &[r(1, None)]),
                patch("", "x", &[r(1, None)]),
            ],
        )
        .unwrap();
        assert_eq!(after, "x\n");
        assert_eq!(placed, [LineSpan::new(2, 1), LineSpan::new(1, 1)]);
    }

    #[test]
    fn new_string_without_ending_does_not_merge_lines() {
        let (after, _) = run(FILE, &[patch("l2\n", "two", &[r(2, Some(2))])]).unwrap();
        assert!(after.starts_with("l1\ntwo\nl3\n"));
    }

    #[test]
    fn overlaps_within_and_across_patches_are_refused() {
        let same = [r(2, Some(3)), r(3, Some(4))];
        let d = doc("a\na\na\na\na\n");
        let err = check_patches(&d, &[patch("a\na\n", "b\n", &same)]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "patches[0].ranges[0] (lines 2-3) and patches[0].ranges[1] (lines 3-4) overlap; ranges must not overlap, within a patch or across patches"
        );
        let first = [r(1, Some(3))];
        let second = [r(3, None)];
        let err = check_patches(
            &d,
            &[
                patch("a\na\na\n", "b\n", &first),
                patch("a\na\na\n", "c\n", &second),
            ],
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "patches[0].ranges[0] (lines 1-3) and patches[1].ranges[0] (lines 3-5) overlap; ranges must not overlap, within a patch or across patches"
        );
        // An insertion strictly inside a replaced range, and two insertions at one point.
        let inside = [r(3, None)];
        let err = check_patches(
            &d,
            &[patch("a\na\na\n", "b\n", &first), patch("", "i\n", &inside)],
        )
        .unwrap_err();
        assert!(matches!(err, RangePatchError::Overlap { .. }), "{err}");
        let err =
            check_patches(&d, &[patch("", "i\n", &inside), patch("", "j\n", &inside)]).unwrap_err();
        assert!(matches!(err, RangePatchError::Overlap { .. }), "{err}");
        // Adjacent ranges and an insertion right after a range are fine.
        let adjacent = [r(1, Some(2)), r(3, Some(4))];
        assert!(check_patches(&d, &[patch("a\na\n", "b\n", &adjacent)]).is_ok());
        let after_range = [r(4, None)];
        assert!(
            check_patches(
                &d,
                &[
                    patch("a\na\na\n", "b\n", &first),
                    patch("", "i\n", &after_range)
                ]
            )
            .is_ok()
        );
    }

    #[test]
    fn ranges_are_checked_against_the_file_length() {
        let err = run(FILE, &[patch("x\n", "y\n", &[r(0, Some(1))])]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "patches[0].ranges[0]: line 0 does not exist, line numbers start at 1"
        );
        let err = run(FILE, &[patch("x\n", "y\n", &[r(5, Some(4))])]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "patches[0].ranges[0]: the range is reversed, end 4 is before start 5"
        );
        let err = run(FILE, &[patch("x\n", "y\n", &[r(7, Some(9))])]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "patches[0].ranges[0] (lines 7-9) is past the end: the file has 8 lines"
        );
        let err = run(FILE, &[patch("x\n", "y\n", &[r(9, None)])]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "patches[0].ranges[0] (lines 9-end) is past the end: the file has 8 lines"
        );
        let err = run(FILE, &[patch("x\n", "y\n", &[])]).unwrap_err();
        assert_eq!(err, RangePatchError::NoRanges { patch: Some(0) });
        assert_eq!(run(FILE, &[]).unwrap_err(), RangePatchError::NoPatches);
    }

    #[test]
    fn deletions() {
        let d = doc(FILE);
        let ranges = [r(7, None), r(2, Some(3))];
        let checked = check_deletions(&d, &ranges, |_, _, _| Ok(())).unwrap();
        let applied = apply_edits(&d, &checked.edits).unwrap();
        assert_eq!(applied.after.text(), "l1\nl4\nl5\nl6\n");
        assert_eq!(applied.lines_delta, -4);
        assert_eq!(applied.placed, [LineSpan::new(5, 4), LineSpan::new(2, 1)]);
        let overlapping = [r(2, Some(4)), r(4, None)];
        assert!(matches!(
            check_deletions(&d, &overlapping, |_, _, _| Ok(())),
            Err(RangePatchError::Overlap { .. })
        ));
        let mut seen = Vec::new();
        check_deletions(&d, &[r(1, Some(2))], |_, site, text| {
            seen.push((site, text.to_string()));
            Ok(())
        })
        .unwrap();
        assert_eq!(
            seen,
            [(Site::Lines { first: 1, last: 2 }, "l1\nl2\n".to_string())]
        );
    }

    #[test]
    fn legacy_encodings_keep_every_other_byte() {
        let sjis = TextEncoding::from_label("shift_jis").unwrap();
        let bytes = sjis.encode("一行目\n二行目\n三行目\n").unwrap();
        let d = Document::decode(bytes.clone(), Some(sjis)).unwrap();
        let ranges = [r(2, Some(2))];
        let checked = check_patches(&d, &[patch("二行目\n", "2行目\n", &ranges)]).unwrap();
        let out = apply_edits(&d, &checked.edits).unwrap().after.to_bytes();
        let head = sjis.encode("一行目\n").unwrap();
        let tail = sjis.encode("三行目\n").unwrap();
        assert!(out.starts_with(&head) && out.ends_with(&tail));
        assert_eq!(
            out,
            [head.clone(), sjis.encode("2行目\n").unwrap(), tail].concat()
        );
        let checked = check_patches(&d, &[patch("二行目\n", "한국어\n", &ranges)]).unwrap();
        let err = apply_edits(&d, &checked.edits).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("patches[0].ranges[0]: the character '한' (U+D55C)"),
            "{err}"
        );
    }

    mod one_pass {
        use super::*;
        use proptest::prelude::*;

        /// A document of 0-8 short lines with random endings, and up to four
        /// random non-overlapping edits of it.
        fn case() -> impl Strategy<Value = (String, Vec<(Site, String)>)> {
            let line = ("[ab]{0,2}", prop_oneof![Just("\n"), Just("\r\n")]);
            (prop::collection::vec(line, 0..8), any::<bool>()).prop_flat_map(|(lines, final_nl)| {
                let mut text: String = lines.iter().map(|(t, e)| format!("{t}{e}")).collect();
                if !final_nl && text.ends_with('\n') {
                    text.pop();
                    if text.ends_with('\r') {
                        text.pop();
                    }
                }
                let count = LineIndex::new(&text).len();
                let edit = (1..=count + 1, 0..3usize, 0..4usize, "[xy]{0,2}(\n|\r\n)?");
                (Just(text), prop::collection::vec(edit, 0..5), Just(count)).prop_map(
                    |(text, raw, count)| {
                        let mut edits = Vec::new();
                        for (start, len, kind, new) in raw {
                            let site = if kind == 0 || start > count {
                                Site::Before(start)
                            } else {
                                Site::Lines {
                                    first: start,
                                    last: (start + len).min(count),
                                }
                            };
                            let new = if kind == 1 { String::new() } else { new };
                            if matches!(site, Site::Before(_)) && new.is_empty() {
                                continue;
                            }
                            edits.push((site, new));
                        }
                        (text, edits)
                    },
                )
            })
        }

        proptest! {
            #[test]
            fn agrees_with_applying_from_the_bottom((text, raw) in case()) {
                let d = doc(&text);
                // Keep the edits that do not overlap the ones kept before them.
                let mut edits: Vec<RangeEdit> = Vec::new();
                for (i, (site, new)) in raw.iter().enumerate() {
                    edits.push(RangeEdit {
                        at: RangeAt { patch: None, range: i },
                        site: *site,
                        new_text: new,
                    });
                    if check_overlaps(&edits).is_err() {
                        edits.pop();
                    }
                }
                // Applied from the bottom, deleting every line leaves an empty
                // file, where an insertion can no longer tell that the file
                // ended with a newline; the one-pass result keeps it.
                let count = d.line_count();
                let deleted: usize = edits
                    .iter()
                    .map(|e| match e.site {
                        Site::Lines { first, last } if e.new_text.is_empty() => last - first + 1,
                        _ => 0,
                    })
                    .sum();
                if count > 0 && deleted == count {
                    return Ok(());
                }
                let mut order: Vec<usize> = (0..edits.len()).collect();
                order.sort_by_key(|&i| edits[i].site.key());
                let fast = apply_edits(&d, &edits).unwrap();
                let slow = apply_bottom_up(&d, &edits, &order).unwrap();
                prop_assert_eq!(fast.after.text(), slow.after.text());
                prop_assert_eq!(fast.placed, slow.placed);
                prop_assert_eq!(fast.lines_delta, slow.lines_delta);
            }
        }
    }

    #[test]
    fn long_texts_are_shown_around_the_difference() {
        let long_a = format!("{}X{}", "a".repeat(1000), "b".repeat(1000));
        let long_b = format!("{}Y{}", "a".repeat(1000), "b".repeat(1000));
        let shown = quote(&long_a, &long_b);
        assert!(shown.starts_with('…') && shown.ends_with('…'), "{shown}");
        assert!(shown.contains('X'));
        assert!(shown.chars().count() < 500);
    }
}
