//! create_text_file: a new file with the given contents; never overwrites.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::super::args::TextArg;
use super::super::context::ToolContext;
use super::super::error::ToolError;
use super::super::tool::{Effects, Tool, Toolset};
use super::{ByPath, attach_notes_to_entries, label_wants_bom, parse_encoding, workspace_error};
use crate::text::diff::{DEFAULT_CONTEXT, unified_diff};
use crate::text::document::Document;
use crate::text::encoding::TextEncoding;

/// The create_text_file tool.
pub struct CreateTextFile;

/// Parameters of create_text_file.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateParams {
    /// Path of the new file (absolute or relative to the first root). Missing folders inside the root are created.
    pub file_path: String,
    /// The file's text, written as given.
    pub contents: TextArg,
    /// Text encoding: utf-8 (default), utf-8-sig (with BOM), utf-16 (with BOM), utf-16le, utf-16be, latin-1, shift_jis, euc-kr, gbk, …
    #[serde(default)]
    pub encoding: Option<String>,
    /// If true, check everything and return the diff without creating the file.
    #[serde(default)]
    pub dry_run: bool,
}

/// The reply for the created file.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CreateResult {
    /// Always "ok".
    pub result: &'static str,
    /// The new file's hash. Pass it as file_hash to the next edit of this file.
    pub file_hash: String,
    /// The encoding the file was written in.
    pub encoding: &'static str,
    /// Lines in the new file.
    pub total_lines: usize,
    /// Folders that were (in a dry run: would be) created for the file.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub new_folders: Vec<String>,
    /// Present and true when nothing was written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dry_run: Option<bool>,
    /// In a dry run, the unified diff of the new file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diff: Option<String>,
    /// Remarks, e.g. arguments taken as text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The change's id in the edit history: UndoEdit takes it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub change_id: Option<String>,
}

impl Tool for CreateTextFile {
    type Params = CreateParams;
    type Output = ByPath<CreateResult>;

    const NAME: &'static str = "create_text_file";
    const TITLE: &'static str = "Create a new text file";
    const TOOLSET: Toolset = Toolset::Editor;
    const EFFECTS: Effects = Effects::ADDS;

    fn description() -> &'static str {
        "Creates a new text file with the given contents, written exactly as given. Refuses if anything already exists at file_path (use patch_text_file_contents, append_text_file_contents or insert_text_file_contents to change an existing file). Missing folders inside the root are created. The file appears whole or not at all.\n\
\n\
encoding defaults to utf-8; utf-16 and utf-8-sig write a byte order mark. dry_run: true returns the diff without creating anything.\n\
\n\
Example: file_path=\"docs/notes.md\", contents=\"# Notes\\n\""
    }

    fn run(ctx: &ToolContext, params: CreateParams) -> Result<ByPath<CreateResult>, ToolError> {
        let label = params.encoding.as_deref();
        let encoding = parse_encoding(label)?.unwrap_or(TextEncoding::Utf8);
        let contents = params.contents.as_str();
        let doc = Document::from_text(contents, encoding, label_wants_bom(label)).map_err(|e| {
            ToolError::new(format!(
                "Cannot create {}: {e}; nothing was written",
                params.file_path
            ))
            .suggest("Use only characters the encoding can hold, or create the file as utf-8")
        })?;
        let created = ctx
            .workspace
            .create_file(Self::NAME, &params.file_path, &doc, !params.dry_run)
            .map_err(workspace_error)?;
        let diff = params.dry_run.then(|| {
            unified_diff(
                "",
                contents,
                &created.path.relative().display().to_string(),
                DEFAULT_CONTEXT,
            )
        });
        Ok(ByPath(vec![(
            params.file_path.clone(),
            CreateResult {
                result: "ok",
                file_hash: doc.hash(),
                encoding: encoding.name(),
                total_lines: doc.line_count(),
                new_folders: created
                    .new_folders
                    .iter()
                    .map(|p| p.display().to_string())
                    .collect(),
                dry_run: params.dry_run.then_some(true),
                diff,
                note: created.history.note(),
                change_id: created.history.change_id().map(str::to_string),
            },
        )]))
    }

    fn attach_notes(value: &mut Value, notes: Vec<String>) {
        attach_notes_to_entries(value, notes);
    }
}
