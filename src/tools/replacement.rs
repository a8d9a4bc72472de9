//! One exact replacement in one file: TextReplace's parameters and its
//! `occurrence` rules, the plan of the edit, and the reply about the file.
//! TextReplace makes it in the file a call names, and with `filePattern`
//! (`replace_across`) in every file a glob selects; this module imports
//! neither.

use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Value, json};

use super::args::TextArg;
use super::broken_links::edit_note;
use super::context::ToolContext;
use super::edit_report::{WriteSummary, context, join_notes, line_count_note};
use super::error::ToolError;
use crate::text::document::{Document, Splice};
use crate::text::edit::LineSpan;
use crate::text::excerpt::{ContextLines, cut};
use crate::text::lines::Eol;
use crate::text::literal::{NearMiss, find_all, near_miss};
use crate::workspace::batch::Edited;

/// Parameters of TextReplace.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct TextReplaceParams {
    /// Path to the text file (absolute or relative to the first root). Give filePath or filePattern.
    #[schemars(description = "")] // said once, in the server's instructions
    #[serde(default)]
    pub file_path: Option<String>,
    /// Instead of filePath: a glob such as "notes/**/*.md"; occurrence applies in each file.
    #[serde(default)]
    pub file_pattern: Option<String>,
    /// Copied from TextRead or TextInspect.
    pub old_text: TextArg,
    /// Empty deletes.
    pub new_text: TextArg,
    /// Needed when oldText occurs more than once.
    #[serde(default)]
    pub occurrence: Option<Occurrence>,
    /// fileHash from an earlier response; the edit is refused if the file changed since.
    #[schemars(description = "")] // said once, in the server's instructions
    #[serde(default)]
    pub expected_hash: Option<String>,
    /// If true, return the diff and the response without writing anything.
    #[schemars(description = "")] // said once, in the server's instructions
    #[serde(default)]
    pub dry_run: bool,
}

/// Which occurrence(s) of oldText to replace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Occurrence {
    /// The first match.
    First,
    /// The last match.
    Last,
    /// Every match.
    All,
    /// The Nth match, counting from 1.
    Nth(usize),
}

impl Occurrence {
    fn parse(value: &Value) -> Result<Occurrence, String> {
        let invalid = || {
            format!(
                "occurrence {value} is not valid: use \"first\", \"last\", \"all\" or a match number such as 2"
            )
        };
        let number = match value {
            Value::String(s) => match s.trim().to_ascii_lowercase().as_str() {
                "first" => return Ok(Occurrence::First),
                "last" => return Ok(Occurrence::Last),
                "all" => return Ok(Occurrence::All),
                other => other.parse::<i64>().map_err(|_| invalid())?,
            },
            Value::Number(n) => n.as_i64().ok_or_else(invalid)?,
            _ => return Err(invalid()),
        };
        if number < 1 {
            return Err(format!(
                "occurrence {number} does not exist: matches are numbered from 1"
            ));
        }
        Ok(Occurrence::Nth(number as usize))
    }
}

impl fmt::Display for Occurrence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Occurrence::First => f.write_str("first"),
            Occurrence::Last => f.write_str("last"),
            Occurrence::All => f.write_str("all"),
            Occurrence::Nth(n) => write!(f, "{n}"),
        }
    }
}

impl<'de> Deserialize<'de> for Occurrence {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        Occurrence::parse(&value).map_err(serde::de::Error::custom)
    }
}

impl JsonSchema for Occurrence {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Occurrence".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "anyOf": [
                { "type": "string", "enum": ["first", "last", "all"] },
                { "type": "integer", "minimum": 1 },
                { "type": "string", "pattern": "^[1-9][0-9]*$" }
            ]
        })
    }
}

/// What a replacement did to one file.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReplaceReply {
    /// The edited file, when a filePattern chose it (a call with filePath
    /// knows which file it named).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file_path: Option<String>,
    /// How many times oldText occurs in the file.
    pub occurrences_found: usize,
    /// How many of them were replaced.
    pub occurrences_replaced: usize,
    /// Lines holding the new text in the edited file (first to last replacement).
    pub affected_lines: LineSpan,
    /// With several replacements, the lines they are on in the edited file
    /// (replacements on the same lines share an entry; the first 100 entries).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub replacements: Vec<LineSpan>,
    /// Lines added minus lines removed.
    pub lines_delta: isize,
    /// Three lines before and after the affected lines, in the edited file.
    pub context: ContextLines,
    /// Hash, and in a dry run the diff.
    #[serde(flatten)]
    pub write: WriteSummary,
    /// Other matches, line-ending adjustments, coerced arguments.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// Refuses arguments that cannot make a replacement, whatever the file.
pub fn check_texts(params: &TextReplaceParams) -> Result<(), ToolError> {
    let old_text = params.old_text.as_str();
    if old_text.is_empty() {
        return Err(ToolError::new("oldText is empty: there is nothing to find")
            .suggest("To add text, use TextPatch with operation 'insert', or include the neighbouring text in oldText and newText"));
    }
    if old_text == params.new_text.as_str() {
        return Err(ToolError::new(
            "oldText and newText are identical, so the replacement would change nothing",
        )
        .suggest("Send the text as it should be after the edit in newText"));
    }
    Ok(())
}

/// The reply about one file's replacement.
pub fn replace_reply(ctx: &ToolContext, edited: &Edited<ReplacePlan>) -> ReplaceReply {
    let plan = &edited.value;
    let merged = merged_spans(&plan.spans);
    let cut_note = (merged.len() > LISTED_SPANS).then(|| {
        format!(
            "replacements lists the first {LISTED_SPANS} of {} places",
            merged.len()
        )
    });
    let note = join_notes([
        plan.others_note.clone(),
        plan.eol_note.clone(),
        cut_note,
        line_count_note(&edited.before, &edited.after),
        edit_note(ctx, edited),
        edited.history.note(),
    ]);
    ReplaceReply {
        file_path: None,
        occurrences_found: plan.found,
        occurrences_replaced: plan.spans.len(),
        affected_lines: LineSpan::new(
            plan.spans.first().map_or(1, |s| s.start),
            plan.spans.last().map_or(1, |s| s.end),
        ),
        replacements: if plan.spans.len() > 1 {
            merged.into_iter().take(LISTED_SPANS).collect()
        } else {
            Vec::new()
        },
        lines_delta: edited.after.line_count() as isize - edited.before.line_count() as isize,
        context: context(
            &edited.after,
            LineSpan::new(
                plan.spans.first().map_or(1, |s| s.start),
                plan.spans.last().map_or(0, |s| s.end),
            ),
        ),
        write: WriteSummary::of(edited),
        note,
    }
}

/// How many places `replacements` lists.
const LISTED_SPANS: usize = 100;

/// The spans with those on overlapping lines merged.
fn merged_spans(spans: &[LineSpan]) -> Vec<LineSpan> {
    let mut out: Vec<LineSpan> = Vec::new();
    for span in spans {
        match out.last_mut() {
            Some(last) if span.start <= last.end => last.end = last.end.max(span.end),
            _ => out.push(*span),
        }
    }
    out
}

/// What a replacement did, for the response.
pub struct ReplacePlan {
    found: usize,
    spans: Vec<LineSpan>,
    others_note: Option<String>,
    eol_note: Option<String>,
}

/// Replaces `old_text` with `new_text` in `doc` by the `occurrence` rules;
/// `path` names the file in messages.
pub fn plan_replace(
    doc: &Document,
    old_text: &str,
    new_text: &str,
    occurrence: Option<Occurrence>,
    path: &str,
) -> Result<(Document, ReplacePlan), ToolError> {
    let text = doc.text();
    let matches = find_all(text, old_text);
    let line_of = |offset: usize| doc.lines().line_of_offset(offset);
    if matches.is_empty() {
        return Err(not_found(doc, old_text, path));
    }
    let lines: Vec<usize> = matches.iter().map(|m| line_of(m.start)).collect();
    let chosen: Vec<usize> = match occurrence {
        None if matches.len() > 1 => {
            return Err(ToolError::new(format!(
                "oldText occurs {} times in {path} (lines {}), so it is not clear which to replace; nothing was written",
                matches.len(),
                list(&lines)
            ))
            .suggest("Pass occurrence: \"first\", \"last\", \"all\", or the number of the match (1 = first)")
            .suggest("Or include more surrounding text in oldText and newText so it matches only once")
            .detail("matchLines", json!(lines))
            .detail("fileHash", json!(doc.hash())));
        }
        None | Some(Occurrence::First) => vec![0],
        Some(Occurrence::Last) => vec![matches.len() - 1],
        Some(Occurrence::All) => (0..matches.len()).collect(),
        Some(Occurrence::Nth(n)) if n <= matches.len() => vec![n - 1],
        Some(Occurrence::Nth(n)) => {
            return Err(ToolError::new(format!(
                "occurrence {n} was asked for, but oldText occurs only {} time{} in {path} (line{} {}); nothing was written",
                matches.len(),
                if matches.len() == 1 { "" } else { "s" },
                if matches.len() == 1 { "" } else { "s" },
                list(&lines)
            ))
            .suggest(format!(
                "Pass an occurrence from 1 to {}, or \"first\", \"last\" or \"all\"",
                matches.len()
            ))
            .detail("matchLines", json!(lines))
            .detail("fileHash", json!(doc.hash())));
        }
    };

    let mut splices = Vec::with_capacity(chosen.len());
    let mut eol_adjusted = false;
    for &i in &chosen {
        let range = matches[i].clone();
        let matched = &text[range.clone()];
        if matched != old_text {
            eol_adjusted = true;
        }
        let eol = if matched.contains("\r\n") {
            Eol::Crlf
        } else if matched.contains('\n') {
            Eol::Lf
        } else {
            doc.eol_near(line_of(range.start))
        };
        splices.push(Splice::new(range, with_eol(new_text, eol)));
    }
    let after = doc.apply(&splices).map_err(|e| {
        ToolError::new(format!("Cannot write {path}: {e}; nothing was written"))
            .suggest("Use only characters the file's encoding can hold")
    })?;

    let (spans, other_lines) = places_in_new(text, &after, &matches, &lines, &chosen, &splices);
    let others_note = (!other_lines.is_empty()).then(|| {
        format!(
            "{} other occurrence{} found at line{} {}",
            other_lines.len(),
            if other_lines.len() == 1 { "" } else { "s" },
            if other_lines.len() == 1 { "" } else { "s" },
            list(&other_lines)
        )
    });
    let eol_note = eol_adjusted.then(|| {
        "oldText's line breaks were matched against the file's own line endings".to_string()
    });
    let plan = ReplacePlan {
        found: matches.len(),
        spans,
        others_note,
        eol_note,
    };
    Ok((after, plan))
}

/// Where each replacement (`chosen` matches, replaced by `splices`) and each
/// untouched match ends up in `after`: the lines of the replacements, and
/// the line of every other match. `lines` are the matches' lines in `text`,
/// the old text.
///
/// Each line is the match's old line, moved by the line breaks the earlier
/// replacements added or took away: counted from the old text's index, so
/// that the new text's is not built here, on the way to the write, but
/// beside it.
fn places_in_new(
    text: &str,
    after: &Document,
    matches: &[std::ops::Range<usize>],
    lines: &[usize],
    chosen: &[usize],
    splices: &[Splice],
) -> (Vec<LineSpan>, Vec<usize>) {
    let breaks = |bytes: &[u8]| memchr::memchr_iter(b'\n', bytes).count() as isize;
    let (mut shift, mut line_shift): (isize, isize) = (0, 0);
    let mut spans = Vec::new();
    let mut other_lines = Vec::new();
    // `chosen` and `splices` are in match order, so they are walked in step.
    let mut next_chosen = chosen.iter().zip(splices).peekable();
    for (i, m) in matches.iter().enumerate() {
        let start_line = (lines[i] as isize + line_shift) as usize;
        if let Some(&(_, splice)) = next_chosen.peek().filter(|(c, _)| **c == i) {
            next_chosen.next();
            let written = &splice.text;
            let new_start = (m.start as isize + shift) as usize;
            let (start_line, end_line) = match written.len() {
                // Nothing written at the very end: the end of the text
                // belongs to its last line, which only the new index knows.
                0 if new_start >= after.text().len() => {
                    let line = after.lines().line_of_offset(new_start);
                    (line, line)
                }
                0 => (start_line, start_line),
                // The line of the written text's last byte.
                len => (
                    start_line,
                    start_line + breaks(&written.as_bytes()[..len - 1]) as usize,
                ),
            };
            spans.push(LineSpan::new(start_line, end_line));
            shift += written.len() as isize - m.len() as isize;
            line_shift += breaks(written.as_bytes()) - breaks(&text.as_bytes()[m.clone()]);
        } else {
            other_lines.push(start_line);
        }
    }
    (spans, other_lines)
}

/// `text` with every line break made `eol`.
fn with_eol(text: &str, eol: Eol) -> String {
    let lf = text.replace("\r\n", "\n");
    match eol {
        Eol::Crlf => lf.replace('\n', "\r\n"),
        _ => lf,
    }
}

fn list(lines: &[usize]) -> String {
    const SHOWN: usize = 20;
    let mut parts: Vec<String> = lines.iter().take(SHOWN).map(usize::to_string).collect();
    if lines.len() > SHOWN {
        parts.push(format!("and {} more", lines.len() - SHOWN));
    }
    parts.join(", ")
}

fn not_found(doc: &Document, old_text: &str, path: &str) -> ToolError {
    let mut err = ToolError::new(format!(
        "oldText was not found in {path}; nothing was written"
    ));
    match near_miss(doc.text(), old_text) {
        Some(NearMiss::CaseInsensitive { line, actual }) => {
            err = err.suggest(format!(
                "Text that differs only in letter case is at line {line}: '{}'. Use it exactly as oldText",
                cut(&actual, 300)
            ));
        }
        Some(NearMiss::WhitespaceInsensitive { line, actual }) => {
            err = err.suggest(format!(
                "Text that differs only in spaces or line breaks is at line {line}: '{}'. Use it exactly as oldText",
                cut(&actual, 300)
            ));
        }
        Some(NearMiss::SimilarLine {
            line,
            actual,
            score,
        }) => {
            err = err.suggest(format!(
                "The most similar line is line {line} ({score}% similar): '{}'",
                cut(&actual, 300)
            ));
        }
        None => {}
    }
    err.suggest("Read the current text with TextRead, or find it with TextInspect mode 'search', and copy it exactly")
        .detail("fileHash", json!(doc.hash()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(s: &str) -> Document {
        Document::decode(s.as_bytes().to_vec(), None).unwrap()
    }

    #[test]
    fn occurrence_parsing() {
        assert_eq!(Occurrence::parse(&json!("all")), Ok(Occurrence::All));
        assert_eq!(Occurrence::parse(&json!(" Last ")), Ok(Occurrence::Last));
        assert_eq!(Occurrence::parse(&json!("2")), Ok(Occurrence::Nth(2)));
        assert_eq!(Occurrence::parse(&json!(3)), Ok(Occurrence::Nth(3)));
        assert_eq!(
            Occurrence::parse(&json!(0)),
            Err("occurrence 0 does not exist: matches are numbered from 1".into())
        );
        assert_eq!(
            Occurrence::parse(&json!("abc")),
            Err("occurrence \"abc\" is not valid: use \"first\", \"last\", \"all\" or a match number such as 2".into())
        );
        assert!(Occurrence::parse(&json!(1.5)).is_err());
    }

    #[test]
    fn replaces_and_reports_lines_in_the_new_file() {
        let d = doc("a\nTODO\nb\nTODO\nc\n");
        let (after, plan) =
            plan_replace(&d, "TODO", "DONE\nDONE", Some(Occurrence::All), "f").unwrap();
        assert_eq!(after.text(), "a\nDONE\nDONE\nb\nDONE\nDONE\nc\n");
        assert_eq!(plan.spans, vec![LineSpan::new(2, 3), LineSpan::new(5, 6)]);
        let (after, plan) = plan_replace(&d, "TODO", "X", Some(Occurrence::Nth(2)), "f").unwrap();
        assert_eq!(after.text(), "a\nTODO\nb\nX\nc\n");
        assert_eq!(
            plan.others_note.as_deref(),
            Some("1 other occurrence found at line 2")
        );
    }

    #[test]
    fn new_text_ending_in_a_wide_character_is_placed_on_its_line() {
        let d = doc("tea\ncafe\nmilk\ncafe\n");
        let (after, plan) =
            plan_replace(&d, "cafe", "café\nau lait ☕", Some(Occurrence::First), "f").unwrap();
        assert_eq!(after.text(), "tea\ncafé\nau lait ☕\nmilk\ncafe\n");
        assert_eq!(plan.spans, vec![LineSpan::new(2, 3)]);
        assert_eq!(
            plan.others_note.as_deref(),
            Some("1 other occurrence found at line 5")
        );
    }

    #[test]
    fn new_text_gets_the_files_line_endings() {
        let d = doc("one\r\ntwo\r\nthree\r\n");
        let (after, plan) = plan_replace(&d, "one\ntwo\n", "uno\ndos\n", None, "f").unwrap();
        assert_eq!(after.text(), "uno\r\ndos\r\nthree\r\n");
        assert!(plan.eol_note.is_some());
        let (after, _) = plan_replace(&d, "two", "2a\n2b", None, "f").unwrap();
        assert_eq!(after.text(), "one\r\n2a\r\n2b\r\nthree\r\n");
    }

    #[test]
    fn refuses_ambiguity_and_missing_text() {
        let d = doc("x\nsame\ny\nsame\n");
        let err = plan_replace(&d, "same", "other", None, "f").err().unwrap();
        assert_eq!(
            err.message,
            "oldText occurs 2 times in f (lines 2, 4), so it is not clear which to replace; nothing was written"
        );
        assert_eq!(err.details["matchLines"], json!([2, 4]));
        let err = plan_replace(&d, "same", "other", Some(Occurrence::Nth(3)), "f")
            .err()
            .unwrap();
        assert!(
            err.message
                .starts_with("occurrence 3 was asked for, but oldText occurs only 2 times")
        );
        let err = plan_replace(&d, "SAME", "other", None, "f").err().unwrap();
        assert_eq!(
            err.message,
            "oldText was not found in f; nothing was written"
        );
        assert!(err.suggestions[0].contains("differs only in letter case is at line 2"));
    }

    /// The lines [`places_in_new`] gives, found the plain way: from the new
    /// text's own index.
    fn places_by_new_index(
        after: &Document,
        matches: &[std::ops::Range<usize>],
        chosen: &[usize],
        splices: &[Splice],
    ) -> (Vec<LineSpan>, Vec<usize>) {
        let line = |offset: usize| after.lines().line_of_offset(offset);
        let (mut shift, mut spans, mut others) = (0isize, Vec::new(), Vec::new());
        for (i, m) in matches.iter().enumerate() {
            let new_start = (m.start as isize + shift) as usize;
            match chosen.iter().position(|&c| c == i) {
                Some(k) => {
                    let len = splices[k].text.len();
                    let end = if len == 0 {
                        line(new_start)
                    } else {
                        line(new_start + len - 1)
                    };
                    spans.push(LineSpan::new(line(new_start), end));
                    shift += len as isize - m.len() as isize;
                }
                None => others.push(line(new_start)),
            }
        }
        (spans, others)
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]
        #[test]
        fn lines_in_the_new_text_are_counted_as_its_own_index_finds_them(
            text in "[ab\n\ré]{1,40}",
            cuts in proptest::collection::vec((0usize..40, 0usize..6, proptest::option::of("[ab\n\ré]{0,6}")), 0..6),
        ) {
            // Matches: disjoint ranges in order; `Some` ones are replaced.
            let mut matches = Vec::new();
            let mut written = Vec::new();
            let mut from = 0;
            let mut sorted = cuts.clone();
            sorted.sort_by_key(|c| c.0);
            for (at, len, new) in sorted {
                let boundary = |mut at: usize| {
                    while !text.is_char_boundary(at) {
                        at += 1;
                    }
                    at
                };
                let start = boundary(at.max(from).min(text.len()));
                let end = boundary((start + len.max(1)).min(text.len()));
                if start >= end {
                    continue;
                }
                matches.push(start..end);
                written.push(new);
                from = end;
            }
            let chosen: Vec<usize> = (0..matches.len()).filter(|&i| written[i].is_some()).collect();
            let splices: Vec<Splice> = chosen
                .iter()
                .map(|&i| Splice::new(matches[i].clone(), written[i].clone().unwrap()))
                .collect();
            let before = doc(&text);
            let after = before.apply(&splices).unwrap();
            let lines: Vec<usize> = matches.iter().map(|m| before.lines().line_of_offset(m.start)).collect();
            proptest::prop_assert_eq!(
                places_in_new(&text, &after, &matches, &lines, &chosen, &splices),
                places_by_new_index(&after, &matches, &chosen, &splices)
            );
        }
    }
}
