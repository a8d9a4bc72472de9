//! delete_text_file_contents: remove whole-line ranges from a file.
//!
//! Unlike the other range parameters of the editor set, a deletion range must
//! spell out `end` (a number, or null for the end of the file): nothing
//! checks the text of a deletion unless `range_hash` is sent, so a range that
//! forgot its end must not silently reach to the end of the file.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use super::super::broken_links::edit_note;
use super::super::context::ToolContext;
use super::super::edit_report::join_notes;
use super::super::error::ToolError;
use super::super::planned_edit::{FileArgs, PlannedEdit, run_planned};
use super::super::tool::{Effects, Tool, Toolset};
use super::{
    ByPath, EditResult, attach_notes_to_entries, editor_file, range_error, workspace_error,
};
use crate::text::document::Document;
use crate::text::edit::LineSpan;
use crate::text::hash::{file_hash, hash_matches};
use crate::text::range_patch::Site;
use crate::text::range_patch::{LineRange, RangePatchError, apply_edits, check_deletions};
use crate::workspace::batch::Edited;
use crate::workspace::{OpenFile, WorkspaceError};

/// The delete_text_file_contents tool.
pub struct DeleteTextFileContents;

/// A range of lines to delete.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DeleteRange {
    /// First line to delete (1-based).
    pub start: usize,
    /// Last line to delete, inclusive; null for the end of the file. Required.
    #[serde(deserialize_with = "Option::deserialize")]
    #[schemars(with = "RequiredEnd")]
    pub end: Option<usize>,
    /// range_hash of these lines from get_text_file_contents: the deletion is refused if they changed. Optional.
    #[serde(default)]
    pub range_hash: Option<String>,
}

/// The schema of a deletion range's `end`: a line number or null, and
/// required. (An `Option` field would be optional in the schema, and a
/// required one would lose its null.)
struct RequiredEnd;

impl JsonSchema for RequiredEnd {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "RequiredEnd".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": ["integer", "null"], "minimum": 1 })
    }
}

/// Parameters of delete_text_file_contents.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DeleteParams {
    /// Path to an existing file (absolute or relative to the first root).
    pub file_path: String,
    /// Line ranges to delete, numbered as in the file before the edit; they must not overlap.
    pub ranges: Vec<DeleteRange>,
    /// file_hash from get_text_file_contents or the last edit: the deletion is refused if the file changed since. Optional.
    #[serde(default)]
    pub file_hash: Option<String>,
    /// Text encoding: utf-8 (default), utf-16, latin-1, shift_jis, euc-kr, gbk, …
    #[serde(default)]
    pub encoding: Option<String>,
    /// If true, return the diff and the reply without writing.
    #[serde(default)]
    pub dry_run: bool,
}

impl Tool for DeleteTextFileContents {
    type Params = DeleteParams;
    type Output = ByPath<EditResult>;

    const NAME: &'static str = "delete_text_file_contents";
    const TITLE: &'static str = "Delete line ranges from a text file";
    const TOOLSET: Toolset = Toolset::Editor;
    const EFFECTS: Effects = Effects::EDITS;

    fn description() -> &'static str {
        "Deletes whole-line ranges from an existing text file. Each range is {\"start\": N, \"end\": M} (1-based, inclusive); end is required and may be null for the end of the file. Ranges are numbered as in the file before the edit and must not overlap; all are deleted or none.\n\
\n\
Pass file_hash (from get_text_file_contents or the last edit of this file) to refuse the deletion if the file changed since, and a range's range_hash to refuse it if those lines changed. dry_run: true returns the diff without writing.\n\
\n\
Example: file_path=\"notes.md\", ranges=[{\"start\": 10, \"end\": 12}], file_hash=\"…\"\n\
\n\
To replace lines instead, use patch_text_file_contents."
    }

    fn run(ctx: &ToolContext, params: DeleteParams) -> Result<ByPath<EditResult>, ToolError> {
        run_planned::<Self>(ctx, &params)
    }

    fn attach_notes(value: &mut Value, notes: Vec<String>) {
        attach_notes_to_entries(value, notes);
    }
}

impl PlannedEdit for DeleteTextFileContents {
    type Plan = Vec<LineSpan>;

    fn file(params: &DeleteParams) -> Result<FileArgs<'_>, ToolError> {
        editor_file(
            &params.file_path,
            params.file_hash.as_deref(),
            params.encoding.as_deref(),
            params.dry_run,
        )
    }

    fn plan(
        _ctx: &ToolContext,
        params: &DeleteParams,
        file: &OpenFile,
    ) -> Result<(Document, Vec<LineSpan>), ToolError> {
        let ranges: Vec<LineRange> = params
            .ranges
            .iter()
            .map(|r| LineRange {
                start: r.start,
                end: r.end,
            })
            .collect();
        let doc = &file.doc;
        let locate = |e: RangePatchError| {
            let err = range_error(e, doc);
            ToolError {
                message: format!(
                    "Cannot delete from {}: {}; nothing was written",
                    file.path.display(),
                    err.message
                ),
                ..err
            }
        };
        let checked = check_deletions(doc, &ranges, |at, site, text| {
            match &params.ranges[at.range].range_hash {
                Some(given) => {
                    let actual = file_hash(&[text.as_bytes()]);
                    if hash_matches(given, &actual) {
                        Ok(())
                    } else {
                        Err(RangePatchError::RangeChanged {
                            at,
                            site,
                            given: given.trim().to_string(),
                            actual,
                        })
                    }
                }
                None => Ok(()),
            }
        })
        .map_err(locate)?;
        let applied = apply_edits(doc, &checked.edits).map_err(locate)?;
        let deleted = checked
            .edits
            .iter()
            .filter_map(|e| match e.site {
                Site::Lines { first, last } => Some(LineSpan::new(first, last)),
                Site::Before(_) => None,
            })
            .collect();
        Ok((applied.after, deleted))
    }

    fn reply(
        ctx: &ToolContext,
        params: &DeleteParams,
        edited: Edited<Vec<LineSpan>>,
    ) -> Result<ByPath<EditResult>, ToolError> {
        let mut result = EditResult::of(&edited);
        result.note = join_notes([edit_note(ctx, &edited), result.note.take()]);
        result.deleted = edited.value;
        Ok(ByPath(vec![(params.file_path.clone(), result)]))
    }

    fn workspace_error(error: WorkspaceError) -> ToolError {
        workspace_error(error)
    }
}
