//! The fields every editing tool reports (seed 000 §2g): what changed, the
//! lines around it in the new file, a preview, the new `fileHash`, and in a
//! dry run the diff that would have been written.

use schemars::JsonSchema;
use serde::Serialize;

use crate::text::diff::{DEFAULT_CONTEXT, unified_diff};
use crate::text::document::Document;
use crate::text::edit::LineSpan;
use crate::text::excerpt::{CONTEXT_LINES, ContextLines, context_around, preview};
use crate::workspace::batch::Edited;

/// Lines shown in a preview.
pub const PREVIEW_LINES: usize = 12;
/// Characters shown in a preview.
pub const PREVIEW_CHARS: usize = 800;

/// The text before and after an edit, shortened; an empty side (nothing
/// removed, nothing added) is left out.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Preview {
    /// What was there.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub before: String,
    /// What is there now.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub after: String,
}

impl Preview {
    /// A preview of replacing `before` with `after`.
    pub fn new(before: &str, after: &str) -> Preview {
        // Line endings are the file's business; previews show plain \n.
        Preview {
            before: preview(&before.replace("\r\n", "\n"), PREVIEW_LINES, PREVIEW_CHARS),
            after: preview(&after.replace("\r\n", "\n"), PREVIEW_LINES, PREVIEW_CHARS),
        }
    }
}

/// What was written, or in a dry run what would have been.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WriteSummary {
    /// The file's hash after the edit (in a dry run: what it would be). Pass it
    /// as `expectedHash` to the next edit of this file.
    pub file_hash: String,
    /// Present and true when nothing was written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dry_run: Option<bool>,
    /// In a dry run, the unified diff of the change.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diff: Option<String>,
    /// The change's id in the edit history: UndoEdit takes it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub change_id: Option<String>,
}

impl WriteSummary {
    /// The summary of an edit done through the committer.
    pub fn of<T>(edited: &Edited<T>) -> WriteSummary {
        // Diffs name the file relative to its root, as `git diff` would.
        let label = edited.path.relative().display().to_string();
        WriteSummary {
            change_id: edited.history.change_id().map(str::to_string),
            ..WriteSummary::new(&edited.before, &edited.after, edited.written, &label)
        }
    }

    /// The summary of writing `after` over `before`.
    pub fn new(before: &Document, after: &Document, written: bool, label: &str) -> WriteSummary {
        WriteSummary {
            change_id: None,
            file_hash: after.hash(),
            dry_run: (!written).then_some(true),
            diff: (!written).then(|| {
                unified_diff(
                    before.text(),
                    after.text(),
                    label.trim_start_matches('/'),
                    DEFAULT_CONTEXT,
                )
            }),
        }
    }
}

/// The context lines around `span` of the edited document.
pub fn context(after: &Document, span: LineSpan) -> ContextLines {
    context_around(after, span, CONTEXT_LINES)
}

/// `File now has N lines (was M)`, when the count changed.
pub fn line_count_note(before: &Document, after: &Document) -> Option<String> {
    let (was, now) = (before.line_count(), after.line_count());
    let noun = if now == 1 { "line" } else { "lines" };
    (was != now).then(|| format!("File now has {now} {noun} (was {was})"))
}

/// Joins the notes that apply, or `None` when there are none.
pub fn join_notes(notes: impl IntoIterator<Item = Option<String>>) -> Option<String> {
    let notes: Vec<String> = notes.into_iter().flatten().collect();
    (!notes.is_empty()).then(|| notes.join("; "))
}
