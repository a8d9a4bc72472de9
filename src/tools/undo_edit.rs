//! UndoEdit: takes back a recorded change (see
//! [`crate::workspace::undo`]), itself recorded so that it can be undone.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::context::ToolContext;
use super::edit_report::{WriteSummary, join_notes};
use super::error::ToolError;
use super::tool::{Effects, Tool, Toolset};
use crate::text::edit::LineSpan;
use crate::workspace::commit::affected_lines;
use crate::workspace::undo::{Conflict, UndoError, UndoStep};

/// The UndoEdit tool.
pub struct UndoEdit;

/// Parameters of UndoEdit.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct UndoEditParams {
    /// From EditHistory or the change's reply.
    pub change_id: String,
    /// A changed file's current fileHash (several: comma-separated): undo anyway, taking later changes back too.
    #[serde(default)]
    pub expected_hash: Option<String>,
    /// If true, return what the undo would do (with each file's diff) without writing anything.
    #[schemars(description = "")] // said once, in the server's instructions
    #[serde(default)]
    pub dry_run: bool,
}

/// What the undo did to one file or folder.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct UndoneFile {
    /// The file (for a move back: where it is now).
    pub file_path: String,
    /// restored (its content from before the change), removed (a file the change created, now in the trash) or movedBack.
    pub action: &'static str,
    /// The file's hash now (restored files).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file_hash: Option<String>,
    /// The lines that changed back, in the restored file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub affected_lines: Option<LineSpan>,
    /// Lines added minus lines removed by the undo.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lines_delta: Option<isize>,
    /// For a removed file: where it is in the trash. For a move back: where it was.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moved_from: Option<String>,
    /// For a removed file: where it went.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trash_path: Option<String>,
    /// In a dry run, the unified diff of the restore.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diff: Option<String>,
}

/// Result of UndoEdit.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct UndoEditOutput {
    /// The change taken back.
    pub undone: String,
    /// The tool that had made it.
    pub tool: String,
    /// What happened to each file.
    pub files: Vec<UndoneFile>,
    /// The undo's own change id: UndoEdit with it redoes the change.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub change_id: Option<String>,
    /// Present and true when nothing was written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dry_run: Option<bool>,
    /// Remarks.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl Tool for UndoEdit {
    type Params = UndoEditParams;
    type Output = UndoEditOutput;

    const NAME: &'static str = "UndoEdit";
    const TITLE: &'static str = "Undo a recorded change";
    const TOOLSET: Toolset = Toolset::History;
    const EFFECTS: Effects = Effects::EDITS;

    fn description() -> &'static str {
        "Takes back a recorded change: exact bytes back, created files to the trash, moves and removals reversed, a Batch whole. Refused when a file changed since, showing the later changes. The undo is recorded, so it can be undone. Find changes with EditHistory. Example: {\"changeId\": \"12-k3x9qa\"}"
    }

    fn run(ctx: &ToolContext, params: UndoEditParams) -> Result<UndoEditOutput, ToolError> {
        let change_id = params.change_id.trim();
        if change_id.is_empty() {
            return Err(
                ToolError::new("changeId is empty: say which change to undo")
                    .suggest("EditHistory lists the recorded changes with their changeId"),
            );
        }
        let expected: Vec<String> = params
            .expected_hash
            .as_deref()
            .unwrap_or("")
            .split([',', ' ', '\n'])
            .filter(|h| !h.trim().is_empty())
            .map(|h| h.trim().to_string())
            .collect();
        for hash in &expected {
            crate::workspace::check_hash_syntax(hash)?;
        }
        let undone = ctx
            .workspace
            .undo(change_id, &expected, !params.dry_run)
            .map_err(|e| undo_error(e, change_id))?;
        let files = undone
            .steps
            .iter()
            .map(|step| match step {
                UndoStep::Restored {
                    path,
                    before,
                    after,
                } => {
                    let rel = ctx
                        .workspace
                        .roots()
                        .containing(path)
                        .and_then(|r| path.strip_prefix(r).ok())
                        .map(|p| p.display().to_string())
                        .unwrap_or_else(|| path.display().to_string());
                    let summary = WriteSummary::new(before, after, undone.written, &rel);
                    UndoneFile {
                        file_path: path.display().to_string(),
                        action: "restored",
                        file_hash: Some(summary.file_hash),
                        affected_lines: Some(affected_lines(before, after)),
                        lines_delta: Some(
                            after.line_count() as isize - before.line_count() as isize,
                        ),
                        moved_from: None,
                        trash_path: None,
                        diff: summary.diff,
                    }
                }
                UndoStep::Removed { path, trash } => UndoneFile {
                    file_path: path.display().to_string(),
                    action: "removed",
                    file_hash: None,
                    affected_lines: None,
                    lines_delta: None,
                    moved_from: None,
                    trash_path: Some(trash.display().to_string()),
                    diff: None,
                },
                UndoStep::MovedBack { from, to } => UndoneFile {
                    file_path: to.display().to_string(),
                    action: "movedBack",
                    file_hash: None,
                    affected_lines: None,
                    lines_delta: None,
                    moved_from: Some(from.display().to_string()),
                    trash_path: None,
                    diff: None,
                },
            })
            .collect();
        Ok(UndoEditOutput {
            undone: undone.target.change_id.clone(),
            tool: undone.target.tool.clone(),
            files,
            change_id: undone.history.change_id().map(str::to_string),
            dry_run: params.dry_run.then_some(true),
            note: join_notes([undone.history.note()]),
        })
    }
}

/// An undo refusal with what to do next.
fn undo_error(error: UndoError, change_id: &str) -> ToolError {
    match error {
        UndoError::Unknown { recent, .. } => {
            let mut err = ToolError::new(format!(
                "There is no change '{change_id}' in the edit history; nothing was written"
            ))
            .suggest("EditHistory lists the recorded changes with their changeId; the oldest are forgotten once the history is full");
            if !recent.is_empty() {
                err = err
                    .suggest(format!("The newest changes are {}", recent.join(", ")))
                    .detail("recentChanges", json!(recent));
            }
            err
        }
        UndoError::ChangedSince(conflicts) => changed_since(conflicts, change_id),
        UndoError::Cannot(why) => ToolError::new(format!(
            "Cannot undo {change_id}: {why}; nothing was written"
        ))
        .suggest("EditHistory shows the recorded changes and whether each can be undone now"),
        UndoError::Damaged(problem) => ToolError::new(format!(
            "Cannot undo {change_id}: {problem}, so it is not acted on; nothing was written"
        ))
        .suggest("EditHistory lists damaged records apart; a record this server did not write (edited or made by hand) can be removed from the root's .history folder")
        .suggest("To go back anyway, restore the file's content by hand (TextRead, then an edit)"),
        UndoError::History(e) => ToolError::new(format!(
            "Cannot undo {change_id}: the edit history could not be read: {e}; nothing was written"
        ))
        .suggest("Check that the root's .history folder is readable"),
        UndoError::Workspace(e) => {
            let err = ToolError::from(e);
            ToolError {
                message: format!("Cannot undo {change_id}: {}", err.message),
                ..err
            }
        }
    }
}

/// The refusal of an undo of files changed since.
fn changed_since(conflicts: Vec<Conflict>, change_id: &str) -> ToolError {
    let mut parts = Vec::new();
    let mut suggestions = Vec::new();
    let mut details = Vec::new();
    let mut hashes = Vec::new();
    for c in &conflicts {
        let path = c.path.display().to_string();
        if c.as_before {
            parts.push(format!(
                "{path} already has its content from before {change_id} (the change was taken back already)"
            ));
        } else if c.later.is_empty() {
            parts.push(format!(
                "{path} changed since {change_id} (its hash is {}, not {} as the change left it)",
                c.current_hash, c.hash_after
            ));
        } else {
            let later: Vec<String> = c
                .later
                .iter()
                .map(|l| format!("{} ({} at {})", l.change_id, l.tool, l.time))
                .collect();
            parts.push(format!(
                "{path} changed since {change_id}: by {}",
                later.join(", ")
            ));
            suggestions.push(format!(
                "Undo the later change{} first, newest first: {}",
                if later.len() == 1 { "" } else { "s" },
                c.later
                    .iter()
                    .map(|l| format!("UndoEdit {{\"changeId\": \"{}\"}}", l.change_id))
                    .collect::<Vec<_>>()
                    .join(", then ")
            ));
        }
        if !c.as_before {
            hashes.push(c.current_hash.clone());
        }
        details.push(json!({
            "filePath": path,
            "currentHash": c.current_hash,
            "hashAfterChange": c.hash_after,
            "laterChanges": c.later.iter().map(|l| json!({"changeId": l.change_id, "tool": l.tool, "time": l.time})).collect::<Vec<Value>>(),
            "diff": c.diff.as_ref().ok(),
            "cannotRebuild": c.diff.as_ref().err(),
        }));
    }
    let rebuildable = conflicts.iter().all(|c| c.diff.is_ok() && !c.as_before);
    if rebuildable && !hashes.is_empty() {
        suggestions.push(format!(
            "Or pass expectedHash \"{}\" to put {} back as before {change_id} anyway; the diff shows what that changes, later changes included",
            hashes.join(","),
            if conflicts.len() == 1 { "the file" } else { "the files" }
        ));
    }
    if let Some(why) = conflicts.iter().find_map(|c| c.diff.as_ref().err()) {
        suggestions.push(format!(
            "The state before {change_id} cannot be rebuilt: {why}. Restore what you need by hand (EditHistory and TextRead help)"
        ));
    }
    suggestions.push("EditHistory with filePath lists every recorded change of a file".into());
    let mut err = ToolError::new(format!(
        "UndoEdit of {change_id} refused: {}; nothing was written",
        parts.join("; ")
    ))
    .suggest_all(suggestions)
    .detail("files", Value::Array(details));
    if let [one] = conflicts.as_slice()
        && let Ok(diff) = &one.diff
    {
        err = err
            .detail("diff", json!(diff))
            .detail("currentHash", json!(one.current_hash));
    }
    err
}
