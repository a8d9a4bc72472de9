//! insert_text_file_contents: new lines before or after a given line.

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

/// The insert_text_file_contents tool.
pub struct InsertTextFileContents;

/// Parameters of insert_text_file_contents.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct InsertParams {
    /// Path to an existing file (absolute or relative to the first root).
    pub file_path: String,
    /// The lines to insert (a trailing line break is optional; the file's line endings are used).
    pub contents: TextArg,
    /// Insert before this line (1 to total_lines + 1). Give before or after, not both.
    #[serde(default)]
    pub before: Option<usize>,
    /// Insert after this line (0 to total_lines; 0 inserts at the top). Give before or after, not both.
    #[serde(default)]
    pub after: Option<usize>,
    /// file_hash from get_text_file_contents or the last edit: the insert is refused if the file changed since. Optional.
    #[serde(default)]
    pub file_hash: Option<String>,
    /// Text encoding: utf-8 (default), utf-16, latin-1, shift_jis, euc-kr, gbk, …
    #[serde(default)]
    pub encoding: Option<String>,
    /// If true, return the diff and the reply without writing.
    #[serde(default)]
    pub dry_run: bool,
}

impl Tool for InsertTextFileContents {
    type Params = InsertParams;
    type Output = ByPath<EditResult>;

    const NAME: &'static str = "insert_text_file_contents";
    const TITLE: &'static str = "Insert lines into a text file";
    const TOOLSET: Toolset = Toolset::Editor;
    const EFFECTS: Effects = Effects::ADDS;

    fn description() -> &'static str {
        "Inserts lines into an existing text file before or after a given line (give exactly one of before and after). contents is whole lines: a trailing line break is optional and line breaks are written in the file's style (LF or CRLF).\n\
\n\
before: 1 to total_lines + 1 (total_lines + 1 appends); after: 0 to total_lines (0 inserts at the top). Pass file_hash (from get_text_file_contents or the last edit of this file) to refuse the insert if the file changed since; line numbers from an older read may point elsewhere. dry_run: true returns the diff without writing.\n\
\n\
Example: file_path=\"app.py\", after=2, contents=\"import os\\n\"\n\
\n\
To change or remove lines use patch_text_file_contents or delete_text_file_contents."
    }

    fn run(ctx: &ToolContext, params: InsertParams) -> Result<ByPath<EditResult>, ToolError> {
        run_planned::<Self>(ctx, &params)
    }

    fn attach_notes(value: &mut Value, notes: Vec<String>) {
        attach_notes_to_entries(value, notes);
    }
}

impl PlannedEdit for InsertTextFileContents {
    type Plan = (LineSpan, Eol);

    fn file(params: &InsertParams) -> Result<FileArgs<'_>, ToolError> {
        editor_file(
            &params.file_path,
            params.file_hash.as_deref(),
            params.encoding.as_deref(),
            params.dry_run,
        )
    }

    fn check(_ctx: &ToolContext, params: &InsertParams) -> Result<(), ToolError> {
        if params.contents.as_str().is_empty() {
            return Err(
                ToolError::new("contents is empty: there is nothing to insert")
                    .suggest("To insert one empty line send contents \"\\n\""),
            );
        }
        Position::of(params).map(|_| ())
    }

    fn plan(
        _ctx: &ToolContext,
        params: &InsertParams,
        file: &OpenFile,
    ) -> Result<(Document, Self::Plan), ToolError> {
        let doc = &file.doc;
        let before = Position::of(params)?
            .line_before(doc.line_count())
            .map_err(|message| {
                ToolError::new(format!(
                    "Cannot insert into {}: {message}; nothing was written",
                    file.path.display()
                ))
                .suggest("get_text_file_contents shows the file's lines and total_lines")
                .detail("file_hash", serde_json::json!(doc.hash()))
            })?;
        insert_lines(file, before, params.contents.as_str())
    }

    fn reply(
        ctx: &ToolContext,
        params: &InsertParams,
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

/// Where to insert, as the caller said it.
#[derive(Debug, Clone, Copy)]
enum Position {
    Before(usize),
    After(usize),
}

impl Position {
    /// The position a call asks for: exactly one of before and after.
    fn of(params: &InsertParams) -> Result<Position, ToolError> {
        match (params.before, params.after) {
            (Some(b), None) => Ok(Position::Before(b)),
            (None, Some(a)) => Ok(Position::After(a)),
            (Some(_), Some(_)) => Err(ToolError::new(
                "both before and after were given; give exactly one of them",
            )
            .suggest("before N inserts above line N; after N inserts below line N")),
            (None, None) => Err(
                ToolError::new("neither before nor after was given; say where to insert")
                    .suggest("before N inserts above line N; after N inserts below line N (after 0 inserts at the top)"),
            ),
        }
    }

    /// The line the new lines go in front of, in a file of `count` lines.
    fn line_before(self, count: usize) -> Result<usize, String> {
        let size = match count {
            0 => "the file is empty".to_string(),
            1 => "the file has 1 line".to_string(),
            n => format!("the file has {n} lines"),
        };
        match self {
            Position::Before(0) => {
                Err("before 0 does not exist: lines start at 1 (after 0 inserts at the top)".into())
            }
            Position::Before(b) if b > count + 1 => Err(format!(
                "before {b} is past the end: {size}, so before must be 1 to {}",
                count + 1
            )),
            Position::Before(b) => Ok(b),
            Position::After(a) if a > count => Err(format!(
                "after {a} is past the end: {size}, so after must be 0 to {count}"
            )),
            Position::After(a) => Ok(a + 1),
        }
    }
}
