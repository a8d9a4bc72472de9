//! The `editor` toolset: the tools of the `mcp-text-editor` server, with its
//! snake_case names and JSON shapes, on this program's workspace (roots,
//! confinement, encodings, atomic writes, locks).
//!
//! Replies are keyed by `file_path` as the caller sent it, as that server's
//! are. Where it was loose, these tools are strict: unknown keys are refused
//! everywhere (a misspelt `end` can never widen a range to the whole file),
//! a batch is applied completely or not at all, line endings are kept, and
//! every write is atomic.
//!
//! Hashes: `file_hash` is this program's `fileHash` (the first 16 hex digits
//! of SHA-256 over the file's exact bytes), so it can be passed between these
//! tools and the text tools. `range_hash` is the same hash over a range's
//! `content` as returned (UTF-8, with the file's own line endings).

pub mod append_text_file_contents;
pub mod create_text_file;
pub mod delete_text_file_contents;
pub mod get_text_file_contents;
pub mod insert_text_file_contents;
pub mod patch_text_file_contents;

use std::borrow::Cow;

use schemars::JsonSchema;
use serde::ser::SerializeMap;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::broken_links::edit_note;
use super::context::ToolContext;
use super::edit_report::{WriteSummary, join_notes};
use super::error::ToolError;
use super::planned_edit::FileArgs;
use super::tool::add_notes;
use crate::text::document::Document;
use crate::text::edit::{LineEdit, LineSpan, plan};
use crate::text::encoding::TextEncoding;
use crate::text::excerpt::brief;
use crate::text::lines::Eol;
use crate::text::range_patch::{LineRange, RangePatchError, Site};
use crate::workspace::batch::Edited;
use crate::workspace::{OpenFile, WorkspaceError};

/// A line range: `start` and `end` are 1-based and inclusive; `end` null (or
/// left out) means to the end of the file.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EditorRange {
    /// First line (1-based).
    pub start: usize,
    /// Last line, inclusive; null for the end of the file.
    #[serde(default)]
    pub end: Option<usize>,
}

impl EditorRange {
    /// The range for the text core.
    pub fn line_range(self) -> LineRange {
        LineRange {
            start: self.start,
            end: self.end,
        }
    }
}

/// The encodings callers may name, for messages.
pub const ACCEPTED_ENCODINGS: &str = "utf-8 (also utf-8-sig), utf-16 (little endian; a new file gets a BOM), utf-16le, utf-16be, latin-1 / iso-8859-1 / windows-1252 (cp1252), windows-1250 to windows-1258, iso-8859-2 to iso-8859-16, shift_jis (sjis, cp932), euc-jp, euc-kr (cp949), gbk (cp936), gb18030, big5, koi8-r, koi8-u";

/// Reads the `encoding` parameter: `None` when it was not given (the file's
/// BOM or UTF-8 decides), the named encoding otherwise.
pub fn parse_encoding(label: Option<&str>) -> Result<Option<TextEncoding>, ToolError> {
    let Some(label) = label else {
        return Ok(None);
    };
    let lower = label.trim().to_ascii_lowercase();
    let aliased = match lower.replace('_', "-").as_str() {
        "utf-8-sig" | "utf8-sig" => "utf-8".to_string(),
        "cp932" | "ms932" => "shift_jis".to_string(),
        "cp949" => "euc-kr".to_string(),
        "cp936" => "gbk".to_string(),
        other => other.to_string(),
    };
    let found = TextEncoding::from_label(&lower).or_else(|| TextEncoding::from_label(&aliased));
    match found {
        Some(TextEncoding::Legacy(e))
            if e == encoding_rs::ISO_2022_JP || e == encoding_rs::REPLACEMENT =>
        {
            Err(ToolError::new(format!(
                "Encoding '{label}' is not supported: editing it could change bytes outside the edit"
            ))
            .suggest(format!("Accepted encodings: {ACCEPTED_ENCODINGS}")))
        }
        Some(encoding) => Ok(Some(encoding)),
        None => Err(ToolError::new(format!("Unknown encoding '{}'", brief(label)))
            .suggest(format!("Accepted encodings: {ACCEPTED_ENCODINGS}"))),
    }
}

/// Whether a new file in the encoding named `label` starts with a byte order
/// mark: `utf-16` (byte order unnamed) and `utf-8-sig` do.
pub fn label_wants_bom(label: Option<&str>) -> bool {
    label.is_some_and(|l| {
        matches!(
            l.trim().to_ascii_lowercase().replace('_', "-").as_str(),
            "utf-16" | "utf16" | "ucs-2" | "utf-8-sig" | "utf8-sig"
        )
    })
}

/// Results keyed by `file_path` as the caller sent it, in request order.
#[derive(Debug)]
pub struct ByPath<T>(pub Vec<(String, T)>);

impl<T: Serialize> Serialize for ByPath<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (key, value) in &self.0 {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

impl<T: JsonSchema> JsonSchema for ByPath<T> {
    fn schema_name() -> Cow<'static, str> {
        format!("ByPath_{}", T::schema_name()).into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let item = generator.subschema_for::<T>();
        schemars::json_schema!({
            "type": "object",
            "description": "One entry per file, keyed by file_path as it was sent.",
            "additionalProperties": item
        })
    }
}

/// Adds argument notes to every file entry of a keyed result.
pub fn attach_notes_to_entries(value: &mut Value, notes: Vec<String>) {
    if notes.is_empty() {
        return;
    }
    if let Value::Object(map) = value {
        for entry in map.values_mut() {
            add_notes(entry, notes.clone());
        }
    }
}

/// An error of the editor tools. Workspace errors are worded with the
/// editor tools' parameter names (`file_hash`).
#[derive(Debug)]
pub struct EditorError(pub ToolError);

impl From<WorkspaceError> for EditorError {
    fn from(error: WorkspaceError) -> EditorError {
        EditorError(workspace_error(error))
    }
}

impl From<ToolError> for EditorError {
    fn from(error: ToolError) -> EditorError {
        EditorError(error)
    }
}

impl From<EditorError> for ToolError {
    fn from(error: EditorError) -> ToolError {
        error.0
    }
}

/// A workspace error as the editor tools report it.
pub fn workspace_error(error: WorkspaceError) -> ToolError {
    match error {
        WorkspaceError::StaleHash {
            path,
            expected,
            actual,
        } => ToolError::new(format!(
            "{} has changed since it was read: file_hash is {} but the file's hash is now {actual}; nothing was written",
            path.display(),
            brief(&expected)
        ))
        .suggest("Read it again with get_text_file_contents to see what changed, then redo the edit against the current text")
        .suggest(format!("Pass file_hash \"{actual}\" once you have read the file again"))
        .detail("file_hash", json!(actual)),
        WorkspaceError::MalformedHash { given } => ToolError::new(format!(
            "file_hash '{}' is not a file hash: it is the 16 hex digits of file_hash from get_text_file_contents or from the last edit of the file",
            brief(&given)
        ))
        .suggest("Copy file_hash from the latest response about this file, or leave it out"),
        WorkspaceError::BatchCommit(failure) => {
            let restored: Vec<String> = failure
                .restored
                .iter()
                .map(|p| p.display().to_string())
                .collect();
            let not_restored: Vec<String> = failure
                .not_restored
                .iter()
                .map(|(p, _)| p.display().to_string())
                .collect();
            ToolError::from(WorkspaceError::BatchCommit(failure))
                .detail("restored", json!(restored))
                .detail("not_restored", json!(not_restored))
        }
        other => ToolError::from(other),
    }
}

/// `error` about `files[index]` (or the file `given`), located in the message.
pub fn in_file(error: ToolError, index: Option<usize>, given: &str) -> ToolError {
    let place = match index {
        Some(i) => format!("files[{i}] ({given})"),
        None => given.to_string(),
    };
    let mut error = ToolError {
        message: format!("{place}: {}", decapitalize(&error.message)),
        ..error
    };
    error = error.detail("file_path", json!(given));
    if let Some(i) = index {
        error = error.detail("file_index", json!(i));
    }
    error
}

/// `message` with its first letter lower-cased when it starts a plain word
/// ("Cannot …"), so it reads on after a prefix; names ("README.md …") keep theirs.
fn decapitalize(message: &str) -> String {
    let mut chars = message.chars();
    match (chars.next(), chars.next()) {
        (Some(first), Some(second)) if first.is_uppercase() && second.is_lowercase() => first
            .to_lowercase()
            .chain(message[first.len_utf8()..].chars())
            .collect(),
        _ => message.to_string(),
    }
}

/// A range error of the text core, with what to do about it.
pub fn range_error(error: RangePatchError, doc: &Document) -> ToolError {
    let mut err = ToolError::new(error.to_string()).detail("file_hash", json!(doc.hash()));
    if let Some(at) = error.at() {
        err = err.detail("range", json!(at.to_string()));
    }
    match &error {
        RangePatchError::Mismatch(m) => {
            err = err
                .detail("expected", json!(m.expected))
                .detail("actual", json!(m.actual));
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
                err = err.suggest(format!(
                    "old_string is at {}: use those line numbers if that is the text you meant",
                    places.join(", ")
                ));
            }
            err.suggest("Read the lines again with get_text_file_contents and send their content exactly as old_string (a range's text includes the line ending of its last line)")
        }
        RangePatchError::Overlap { .. } => err.suggest(
            "Merge overlapping ranges into one, or correct the line numbers; every range is numbered as in the file before the edit",
        ),
        RangePatchError::PastEnd { line_count, .. } => err.suggest(format!(
            "The file has {line_count} lines; get_text_file_contents with ranges [{{\"start\": 1, \"end\": null}}] shows them all"
        )),
        RangePatchError::NothingToDo { .. } => err.suggest(
            "Remove that patch, or give the lines' current text as old_string and the new text as new_string",
        ),
        RangePatchError::RangeChanged { .. } => err.suggest(
            "Read the lines again with get_text_file_contents and send the new range_hash, or leave range_hash out",
        ),
        RangePatchError::Encode { .. } => {
            err.suggest("Use only characters the file's encoding can hold")
        }
        RangePatchError::NoPatches | RangePatchError::NoRanges { .. } => err.suggest(
            "Each patch needs old_string, new_string and ranges, e.g. {\"old_string\": \"old line\\n\", \"new_string\": \"new line\\n\", \"ranges\": [{\"start\": 3, \"end\": 3}]}",
        ),
        RangePatchError::LineZero { .. }
        | RangePatchError::Reversed { .. }
        | RangePatchError::InsertionWithLines { .. } => err.suggest(
            "Lines are numbered from 1; a range is {\"start\": N, \"end\": M} with M >= N, or end null for the end of the file",
        ),
        RangePatchError::Edit { .. } => err.suggest(
            "This is a bug in mcp-server-text; please report it with the arguments you sent",
        ),
    }
}

/// The reply of append, insert and delete for one file.
#[derive(Debug, Serialize, JsonSchema)]
pub struct EditResult {
    /// Always "ok".
    pub result: &'static str,
    /// The file's hash after the edit (in a dry run: what it would be). Pass it
    /// as file_hash to the next edit of this file.
    pub file_hash: String,
    /// The encoding the file was read and written in.
    pub encoding: &'static str,
    /// Where the new lines are in the edited file (append and insert).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lines: Option<LineSpan>,
    /// The deleted ranges, numbered as before the edit (delete).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub deleted: Vec<LineSpan>,
    /// Lines added minus lines removed.
    pub lines_delta: isize,
    /// Lines in the file after the edit.
    pub total_lines: usize,
    /// Present and true when nothing was written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dry_run: Option<bool>,
    /// In a dry run, the unified diff of the change.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diff: Option<String>,
    /// Remarks: line endings adapted, arguments taken as text, …
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The change's id in the edit history: UndoEdit takes it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub change_id: Option<String>,
}

impl EditResult {
    /// The reply for an edit done through the committer.
    pub fn of<T>(edited: &Edited<T>) -> EditResult {
        let write = WriteSummary::of(edited);
        EditResult {
            result: "ok",
            file_hash: write.file_hash,
            encoding: edited.after.encoding().name(),
            lines: None,
            deleted: Vec::new(),
            lines_delta: edited.after.line_count() as isize - edited.before.line_count() as isize,
            total_lines: edited.after.line_count(),
            dry_run: write.dry_run,
            diff: write.diff,
            note: edited.history.note(),
            change_id: write.change_id,
        }
    }
}

/// The file an editor tool changes, with its `file_hash` and `encoding`.
pub fn editor_file<'a>(
    file_path: &'a str,
    file_hash: Option<&'a str>,
    encoding: Option<&str>,
    dry_run: bool,
) -> Result<FileArgs<'a>, ToolError> {
    Ok(FileArgs {
        encoding: parse_encoding(encoding)?,
        ..FileArgs::existing(file_path, file_hash, dry_run)
    })
}

/// Inserts `contents` as whole lines in front of line `before` of `file`
/// (past the last line to append), with the line ending of the lines there.
/// What append and insert plan.
pub fn insert_lines(
    file: &OpenFile,
    before: usize,
    contents: &str,
) -> Result<(Document, (LineSpan, Eol)), ToolError> {
    let doc = &file.doc;
    let eol = doc.eol_near(before.saturating_sub(1).max(1));
    let planned = plan(
        doc,
        &LineEdit::Insert {
            before,
            content: contents,
        },
        eol,
    )
    .map_err(|e| ToolError::new(e.to_string()))?;
    let after = doc
        .apply(std::slice::from_ref(&planned.splice))
        .map_err(|e| {
            ToolError::new(format!(
                "Cannot write {}: {e}; nothing was written",
                file.path.display()
            ))
            .suggest("Use only characters the file's encoding can hold")
        })?;
    Ok((after, (planned.affected, eol)))
}

/// The reply of append and insert: where the new lines are, and a note when
/// their line breaks were written in the file's style.
pub fn inserted_reply(
    ctx: &ToolContext,
    file_path: &str,
    contents: &str,
    edited: Edited<(LineSpan, Eol)>,
) -> ByPath<EditResult> {
    let (lines, eol) = edited.value;
    let mut result = EditResult::of(&edited);
    result.lines = Some(lines);
    result.note = join_notes([
        eol_note(contents, eol),
        edit_note(ctx, &edited),
        result.note.take(),
    ]);
    ByPath(vec![(file_path.to_string(), result)])
}

/// A note when new text's line breaks were written as `eol` instead of as sent.
pub fn eol_note(text: &str, eol: Eol) -> Option<String> {
    let has_crlf = text.contains("\r\n");
    let has_lf = text.split("\r\n").any(|piece| piece.contains('\n'));
    let (changed, name) = match eol {
        Eol::Crlf => (has_lf, "CRLF"),
        Eol::Lf => (has_crlf, "LF"),
        Eol::None => (false, ""),
    };
    changed.then(|| format!("the new text's line breaks were written as the file's ({name})"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodings_by_name_and_alias() {
        assert_eq!(parse_encoding(None).unwrap(), None);
        for (label, name) in [
            ("utf-8", "utf-8"),
            ("UTF_8", "utf-8"),
            ("utf-8-sig", "utf-8"),
            ("utf-16", "utf-16le"),
            ("latin-1", "windows-1252"),
            ("iso-8859-1", "windows-1252"),
            ("cp1252", "windows-1252"),
            ("shift_jis", "shift_jis"),
            ("cp932", "shift_jis"),
            ("euc_kr", "euc-kr"),
            ("gbk", "gbk"),
        ] {
            assert_eq!(
                parse_encoding(Some(label)).unwrap().map(|e| e.name()),
                Some(name),
                "{label}"
            );
        }
        let err = parse_encoding(Some("klingon")).unwrap_err();
        assert_eq!(err.message, "Unknown encoding 'klingon'");
        assert!(err.suggestions[0].contains("shift_jis"));
        assert!(parse_encoding(Some("iso-2022-jp")).is_err());
        assert!(label_wants_bom(Some("UTF-16")));
        assert!(!label_wants_bom(Some("utf-16le")));
    }

    #[test]
    fn keyed_results_keep_request_order() {
        let by_path = ByPath(vec![("b.md".to_string(), 1), ("a.md".to_string(), 2)]);
        assert_eq!(
            serde_json::to_string(&by_path).unwrap(),
            r#"{"b.md":1,"a.md":2}"#
        );
    }
}
