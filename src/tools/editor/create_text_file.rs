//! create_text_file: a new file with the given contents; never overwrites.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::super::args::TextArg;
use super::super::context::ToolContext;
use super::super::error::ToolError;
use super::super::templates::fill_template;
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
    /// The file's text, written as given. Not with template.
    #[serde(default)]
    pub contents: Option<TextArg>,
    /// Instead of contents: a template, either the name of a file in the root's templates folder (templates/ unless the server says otherwise; .md optional) or the template's text (with a line break or a {{placeholder}}). {{date}}, {{time}}, {{date:FORMAT}}, {{time:FORMAT}} (moment.js tokens), {{title}} (the new file's name without extension) and {{name}} for each of variables are filled in.
    #[serde(default)]
    pub template: Option<String>,
    /// Values for the template's own placeholders, e.g. {"project": "Garden"}.
    #[serde(default)]
    pub variables: Option<BTreeMap<String, String>>,
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
Instead of contents, template names a file in the root's templates folder (or is the template text itself), and variables fill its placeholders: {{date}}, {{time}}, {{date:YYYY-MM-DD}}, {{title}} (the new file's name) and {{name}}. An unknown placeholder is refused with the list of known ones.\n\
\n\
Examples: file_path=\"docs/notes.md\", contents=\"# Notes\\n\"; file_path=\"daily/2026-05-01.md\", template=\"daily\""
    }

    fn run(ctx: &ToolContext, params: CreateParams) -> Result<ByPath<CreateResult>, ToolError> {
        let label = params.encoding.as_deref();
        let encoding = parse_encoding(label)?.unwrap_or(TextEncoding::Utf8);
        let filled = match (&params.contents, &params.template) {
            (Some(_), Some(_)) => {
                return Err(ToolError::new(
                    "contents and template were both given, but the template gives the contents",
                )
                .suggest("Leave out contents to create the file from the template, or leave out template"));
            }
            (None, None) => {
                return Err(
                    ToolError::new("create_text_file needs contents (or a template)")
                        .suggest("Pass contents with the file's text, e.g. \"# Notes\\n\""),
                );
            }
            (Some(_), None) if params.variables.is_some() => {
                return Err(ToolError::new(
                    "variables were given without a template; they fill a template's placeholders",
                )
                .suggest("Pass template with the variables, or leave variables out"));
            }
            (Some(_), None) => None,
            (None, Some(template)) => {
                let target = ctx
                    .workspace
                    .resolve_new_file(&params.file_path)
                    .map_err(workspace_error)?;
                let empty = BTreeMap::new();
                let variables = params.variables.as_ref().unwrap_or(&empty);
                Some(fill_template(
                    ctx,
                    template,
                    variables,
                    &target.real,
                    &target.root,
                )?)
            }
        };
        let contents = match (&filled, &params.contents) {
            (Some(filled), _) => filled.text.as_str(),
            (None, Some(contents)) => contents.as_str(),
            (None, None) => "",
        };
        let doc = Document::from_text(contents, encoding, label_wants_bom(label)).map_err(|e| {
            ToolError::new(format!(
                "Cannot create {}: {e}; nothing was written",
                params.file_path
            ))
            .suggest("Use only characters the encoding can hold, or create the file as utf-8")
        })?;
        let created = ctx
            .workspace
            .create_file(&params.file_path, &doc, !params.dry_run)
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
                note: filled.map(|f| f.note),
            },
        )]))
    }

    fn attach_notes(value: &mut Value, notes: Vec<String>) {
        attach_notes_to_entries(value, notes);
    }
}
