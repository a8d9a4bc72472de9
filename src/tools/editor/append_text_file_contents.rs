//! append_text_file_contents: new lines at the end of an existing file.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use super::super::args::TextArg;
use super::super::context::ToolContext;
use super::super::error::ToolError;
use super::super::planned_edit::{FileArgs, PlannedEdit, run_planned};
use super::super::tool::{Effects, Tool, Toolset};
use super::{
    ByPath, EditResult, attach_notes_to_entries, editor_file, insert_lines, inserted_reply,
    workspace_error,
};
use crate::text::document::Document;
use crate::text::edit::LineSpan;
use crate::text::lines::Eol;
use crate::workspace::batch::Edited;
use crate::workspace::{OpenFile, WorkspaceError};

/// The append_text_file_contents tool.
pub struct AppendTextFileContents;

/// Parameters of append_text_file_contents.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AppendParams {
    /// Path to an existing file (absolute or relative to the first root).
    pub file_path: String,
    /// The lines to add at the end (a trailing line break is optional; the file's line endings are used).
    pub contents: TextArg,
    /// file_hash from get_text_file_contents or the last edit: the append is refused if the file changed since. Optional.
    #[serde(default)]
    pub file_hash: Option<String>,
    /// Text encoding: utf-8 (default), utf-16, latin-1, shift_jis, euc-kr, gbk, …
    #[serde(default)]
    pub encoding: Option<String>,
    /// If true, return the diff and the reply without writing.
    #[serde(default)]
    pub dry_run: bool,
}

impl Tool for AppendTextFileContents {
    type Params = AppendParams;
    type Output = ByPath<EditResult>;

    const NAME: &'static str = "append_text_file_contents";
    const TITLE: &'static str = "Append lines to a text file";
    const TOOLSET: Toolset = Toolset::Editor;
    const EFFECTS: Effects = Effects::ADDS;

    fn description() -> &'static str {
        "Appends lines at the end of an existing text file. contents is whole lines: a trailing line break is optional, line breaks are written in the file's style (LF or CRLF), and a file without a final newline keeps having none. The file must exist: create_text_file makes new files.\n\
\n\
Pass file_hash (from get_text_file_contents or the last edit of this file) to refuse the append if the file changed since. dry_run: true returns the diff without writing. To add lines elsewhere use insert_text_file_contents; to change lines use patch_text_file_contents.\n\
\n\
Example: file_path=\"CHANGELOG.md\", contents=\"- Fixed the parser\\n\""
    }

    fn run(ctx: &ToolContext, params: AppendParams) -> Result<ByPath<EditResult>, ToolError> {
        run_planned::<Self>(ctx, &params)
    }

    fn attach_notes(value: &mut Value, notes: Vec<String>) {
        attach_notes_to_entries(value, notes);
    }
}

impl PlannedEdit for AppendTextFileContents {
    type Plan = (LineSpan, Eol);

    fn file(params: &AppendParams) -> Result<FileArgs<'_>, ToolError> {
        editor_file(
            &params.file_path,
            params.file_hash.as_deref(),
            params.encoding.as_deref(),
            params.dry_run,
        )
    }

    fn check(_ctx: &ToolContext, params: &AppendParams) -> Result<(), ToolError> {
        if params.contents.as_str().is_empty() {
            return Err(
                ToolError::new("contents is empty: there is nothing to append")
                    .suggest("To add one empty line send contents \"\\n\""),
            );
        }
        Ok(())
    }

    fn plan(
        _ctx: &ToolContext,
        params: &AppendParams,
        file: &OpenFile,
    ) -> Result<(Document, Self::Plan), ToolError> {
        insert_lines(file, file.doc.line_count() + 1, params.contents.as_str())
    }

    fn reply(
        ctx: &ToolContext,
        params: &AppendParams,
        edited: Edited<Self::Plan>,
    ) -> Result<ByPath<EditResult>, ToolError> {
        Ok(inserted_reply(
            ctx,
            &params.file_path,
            params.contents.as_str(),
            edited,
        ))
    }

    fn workspace_error(error: WorkspaceError) -> ToolError {
        workspace_error(error)
    }
}
