//! RemoveFile: moves a file (or, with `recursive`, a folder) into the trash
//! folder of its root, `.trash/<UTC time>/<its path in the root>`, and
//! returns the Move call that puts it back.
//!
//! Annotated destructive even though it can be undone: the file disappears
//! from where everything else expects it.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::context::ToolContext;
use super::error::ToolError;
use super::move_path::Kind;
use super::tool::{Effects, Tool, Toolset};
use crate::workspace::commit::History;
use crate::workspace::timestamp::UtcTime;

/// The RemoveFile tool.
pub struct RemoveFile;

/// Parameters of RemoveFile.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct RemoveFileParams {
    /// The file to remove: absolute (as ListFiles returns it) or relative to the first root.
    #[schemars(description = "")] // said once, in the server's instructions
    pub file_path: String,
    /// Allow a folder, removed whole.
    #[serde(default)]
    pub recursive: bool,
    /// If true, report where the file would go without moving it.
    #[schemars(description = "")] // said once, in the server's instructions
    #[serde(default)]
    pub dry_run: bool,
}

/// The arguments of the Move call that restores a removed file.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RestoreArguments {
    /// The path in the trash.
    pub source_path: String,
    /// The path it was removed from.
    pub destination_path: String,
}

/// The tool call that undoes the removal.
#[derive(Debug, Serialize, JsonSchema)]
pub struct RestoreCall {
    /// Always "Move".
    pub tool: &'static str,
    /// Its arguments.
    pub arguments: RestoreArguments,
}

/// Result of RemoveFile.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RemoveFileOutput {
    /// Whether a file or a folder was removed.
    pub kind: Kind,
    /// The call that puts it back: its sourcePath is where the file is now,
    /// in the trash (in a dry run: where it would go).
    pub restore: RestoreCall,
    /// Present and true when nothing was moved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dry_run: Option<bool>,
    /// The change's id in the edit history: UndoEdit takes it (and restores the file).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub change_id: Option<String>,
    /// Remarks, e.g. when undo is not available for the removal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl Tool for RemoveFile {
    type Params = RemoveFileParams;
    type Output = RemoveFileOutput;

    const NAME: &'static str = "RemoveFile";
    const TITLE: &'static str = "Remove a file (to the trash)";
    const TOOLSET: Toolset = Toolset::Files;
    const EFFECTS: Effects = Effects::EDITS;

    fn description() -> &'static str {
        "Moves a file (a folder with recursive) to .trash/<UTC time>/<path> in its root; the reply gives the Move call that restores it. Nothing is deleted for good. To rename use Move. Example: {\"filePath\": \"notes/old.md\"}"
    }

    fn run(ctx: &ToolContext, params: RemoveFileParams) -> Result<RemoveFileOutput, ToolError> {
        let plan =
            ctx.workspace
                .plan_removal(&params.file_path, params.recursive, UtcTime::now())?;
        let history = if params.dry_run {
            History::NotKept
        } else {
            ctx.workspace.relocate(Self::NAME, &plan)?
        };
        let file_path = plan.source.display();
        let trash_path = plan.destination.display();
        Ok(RemoveFileOutput {
            kind: plan.kind.into(),
            restore: RestoreCall {
                tool: "Move",
                arguments: RestoreArguments {
                    source_path: trash_path,
                    destination_path: file_path,
                },
            },
            dry_run: params.dry_run.then_some(true),
            change_id: history.change_id().map(str::to_string),
            note: history.note(),
        })
    }
}
