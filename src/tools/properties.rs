//! Properties: gets, sets and deletes the keys of a note's frontmatter (YAML
//! or TOML), editing only the lines of the keys that change.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::context::ToolContext;
use super::edit_report::{WriteSummary, join_notes};
use super::error::ToolError;
use super::planned_edit::{FileArgs, PlannedEdit, run_planned};
use super::tool::{Effects, Tool, Toolset};
use crate::text::document::Document;
use crate::text::edit::LineSpan;
use crate::text::format::{Format, format_of};
use crate::text::properties::{self, Change, PropertyError};
use crate::workspace::OpenFile;
use crate::workspace::batch::Edited;
use crate::workspace::commit::affected_lines;

/// The Properties tool.
pub struct Properties;

/// Parameters of Properties.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct PropertiesParams {
    /// The note (absolute or relative to the first root).
    #[schemars(description = "")] // said once, in the server's instructions
    pub file_path: String,
    /// JSON values (null: an empty value); a new key goes last.
    #[serde(default)]
    pub set: Option<Map<String, Value>>,
    /// Keys to remove.
    #[serde(default)]
    pub delete: Option<Vec<String>>,
    /// fileHash from an earlier response; the edit is refused if the file changed since.
    #[schemars(description = "")] // said once, in the server's instructions
    #[serde(default)]
    pub expected_hash: Option<String>,
    /// If true, return the diff without writing.
    #[schemars(description = "")] // said once, in the server's instructions
    #[serde(default)]
    pub dry_run: bool,
}

/// Result of Properties.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PropertiesOutput {
    /// The note.
    pub file_path: String,
    /// Without set or delete: every key with its value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub properties: Option<Map<String, Value>>,
    /// With set or delete: the keys whose value changed (in a dry run: would change).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub changed: Option<Vec<String>>,
    /// The lines that changed, numbered in the new file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub affected_lines: Option<LineSpan>,
    /// The file's hash (after the edit, or what it would be); dryRun, diff and changeId as for every edit.
    #[serde(flatten)]
    pub write: WriteSummary,
    /// Remarks, e.g. a frontmatter block that was created.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl Tool for Properties {
    type Params = PropertiesParams;
    type Output = PropertiesOutput;

    const NAME: &'static str = "Properties";
    const TITLE: &'static str = "Get or set a note's frontmatter keys";
    const TOOLSET: Toolset = Toolset::Vault;
    const EFFECTS: Effects = Effects::READS_OR_EDITS;

    fn description() -> &'static str {
        "Gets, sets or deletes a note's frontmatter properties (YAML or TOML), changing only those keys' lines; without set or delete returns them all. For tags use Tags. Example: {\"filePath\": \"garden.md\", \"set\": {\"status\": \"done\"}}"
    }

    fn writes(params: &PropertiesParams) -> bool {
        params.set.is_some() || params.delete.is_some()
    }

    fn run(ctx: &ToolContext, params: PropertiesParams) -> Result<PropertiesOutput, ToolError> {
        if params.set.is_none() && params.delete.is_none() {
            if params.dry_run || params.expected_hash.is_some() {
                return Err(ToolError::new(
                    "dryRun and expectedHash belong to an edit, but neither set nor delete was given",
                )
                .suggest("Pass set or delete to change keys, or leave dryRun and expectedHash out to read them"));
            }
            let file = ctx.workspace.read(&params.file_path, None)?;
            let path = file.path.display();
            let props = read_properties(&file, &path)?;
            let properties = props
                .map(|p| p.entries.into_iter().map(|e| (e.key, e.value)).collect())
                .unwrap_or_default();
            return Ok(PropertiesOutput {
                file_path: path,
                properties: Some(properties),
                changed: None,
                affected_lines: None,
                write: WriteSummary {
                    file_hash: file.doc.hash(),
                    dry_run: None,
                    diff: None,
                    change_id: None,
                },
                note: None,
            });
        }
        run_planned::<Properties>(ctx, &params)
    }
}

/// The properties of a Markdown `file`, refusing other files.
fn read_properties(
    file: &OpenFile,
    path: &str,
) -> Result<Option<properties::Properties>, ToolError> {
    if format_of(&file.path.real) != Format::Markdown {
        return Err(ToolError::new(format!(
            "{path} is not a Markdown note; properties live in a note's frontmatter"
        ))
        .suggest("Use TextInspect or TextRead for other files"));
    }
    properties::read(file.doc.text()).map_err(|e| property_error(e, path))
}

fn property_error(error: PropertyError, path: &str) -> ToolError {
    let suggestion = error.suggestion();
    ToolError::new(format!("Cannot use the properties of {path}: {error}")).suggest(suggestion)
}

/// The changes the arguments ask for, checked.
fn changes(params: &PropertiesParams) -> Result<Vec<Change>, ToolError> {
    let mut out = Vec::new();
    for (key, value) in params.set.iter().flatten() {
        out.push(Change::set(key.clone(), value.clone()));
    }
    for key in params.delete.iter().flatten() {
        if params.set.as_ref().is_some_and(|s| s.contains_key(key)) {
            return Err(ToolError::new(format!(
                "'{key}' is both set and deleted; nothing was written"
            ))
            .suggest("Name each key once"));
        }
        out.push(Change::Delete(key.clone()));
    }
    if out.is_empty() {
        return Err(
            ToolError::new("set and delete are both empty, so there is nothing to change")
                .suggest("Leave both out to read the properties"),
        );
    }
    if let Some(bad) = out.iter().find_map(|c| match c {
        Change::Set(k, _) | Change::Delete(k)
            if k.trim().is_empty() || k.contains(['\n', '\r']) =>
        {
            Some(k.clone())
        }
        _ => None,
    }) {
        return Err(ToolError::new(format!(
            "'{}' is not a property name: names are one line of text",
            crate::text::excerpt::brief(&bad)
        ))
        .suggest("Use names such as \"status\" or \"due date\""));
    }
    Ok(out)
}

/// What planning hands on to the reply.
pub struct PropertiesPlan {
    changed: Vec<String>,
    created: bool,
}

impl PlannedEdit for Properties {
    type Plan = PropertiesPlan;

    fn file(params: &PropertiesParams) -> Result<FileArgs<'_>, ToolError> {
        Ok(FileArgs::existing(
            &params.file_path,
            params.expected_hash.as_deref(),
            params.dry_run,
        ))
    }

    fn check(_ctx: &ToolContext, params: &PropertiesParams) -> Result<(), ToolError> {
        changes(params).map(|_| ())
    }

    fn plan(
        _ctx: &ToolContext,
        params: &PropertiesParams,
        file: &OpenFile,
    ) -> Result<(Document, PropertiesPlan), ToolError> {
        let path = file.path.display();
        read_properties(file, &path)?;
        let edit = properties::edit(file.doc.text(), &changes(params)?)
            .map_err(|e| property_error(e, &path))?;
        let after = file.doc.apply(&edit.splices).map_err(|e| {
            ToolError::new(format!("Cannot write {path}: {e}; nothing was written"))
                .suggest("Use only characters the file's encoding can hold")
        })?;
        Ok((
            after,
            PropertiesPlan {
                changed: edit.changed,
                created: edit.created,
            },
        ))
    }

    fn reply(
        _ctx: &ToolContext,
        _params: &PropertiesParams,
        edited: Edited<PropertiesPlan>,
    ) -> Result<PropertiesOutput, ToolError> {
        let plan = &edited.value;
        let note = join_notes([
            plan.created.then(|| {
                "The note had no frontmatter; a YAML block was added at its top".to_string()
            }),
            plan.changed
                .is_empty()
                .then(|| "Every key already had the value asked for; nothing changed".to_string()),
            edited.history.note(),
        ]);
        Ok(PropertiesOutput {
            file_path: edited.path.display(),
            properties: None,
            changed: Some(plan.changed.clone()),
            affected_lines: (!plan.changed.is_empty())
                .then(|| affected_lines(&edited.before, &edited.after)),
            write: WriteSummary::of(&edited),
            note,
        })
    }
}
