//! Move: moves or renames a file or folder inside the roots, like
//! `mv -T source destination`, never overwriting anything.
//!
//! Annotated destructive: it deletes no content, but it is not additive
//! either (the source path stops existing, and links or references to it
//! break), and a client that asks before destructive calls should ask here.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::context::ToolContext;
use super::error::ToolError;
use super::tool::{Effects, Tool, Toolset};
use crate::workspace::commit::History;
use crate::workspace::relocate::{EntryKind, Relocation};

/// The Move tool.
pub struct Move;

/// Parameters of Move.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct MoveParams {
    /// The file or folder to move (absolute, or relative to the first root).
    pub source_path: String,
    /// Its new path, which must not exist yet (absolute, or relative to the first root). This is the new name of the file or folder itself, not a folder to put it in.
    pub destination_path: String,
    /// If true, check the move and report it without changing anything.
    #[serde(default)]
    pub dry_run: bool,
}

/// What was moved.
#[derive(Debug, Clone, Copy, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A file.
    File,
    /// A folder, with everything in it.
    Folder,
}

impl From<EntryKind> for Kind {
    fn from(kind: EntryKind) -> Kind {
        match kind {
            EntryKind::File => Kind::File,
            EntryKind::Folder => Kind::Folder,
        }
    }
}

/// Result of Move.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct MoveOutput {
    /// Always "success".
    pub status: &'static str,
    /// Where it was (absolute).
    pub source_path: String,
    /// Where it is now (absolute).
    pub destination_path: String,
    /// Whether a file or a folder was moved.
    pub kind: Kind,
    /// Folders created for the destination (in a dry run: that would be created).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub created_folders: Vec<String>,
    /// Present and true when nothing was moved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dry_run: Option<bool>,
    /// The change's id in the edit history: UndoEdit takes it (and moves it back).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub change_id: Option<String>,
    /// Remarks, e.g. when undo is not available for the move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl MoveOutput {
    /// The response for a planned move, done or (in a dry run) not.
    pub fn of(plan: &Relocation, dry_run: bool, history: &History) -> MoveOutput {
        MoveOutput {
            status: "success",
            source_path: plan.source.display(),
            destination_path: plan.destination.display(),
            kind: plan.kind.into(),
            created_folders: plan
                .new_folders
                .iter()
                .map(|f| f.display().to_string())
                .collect(),
            dry_run: dry_run.then_some(true),
            change_id: history.change_id().map(str::to_string),
            note: history.note(),
        }
    }
}

impl Tool for Move {
    type Params = MoveParams;
    type Output = MoveOutput;

    const NAME: &'static str = "Move";
    const TITLE: &'static str = "Move or rename a file or folder";
    const TOOLSET: Toolset = Toolset::Files;
    const EFFECTS: Effects = Effects::EDITS;

    fn description() -> &'static str {
        "Moves and/or renames a file or directory. Both arguments must be absolute paths (or paths relative to the first root), inside the allowed folders.\n\
Equivalent to 'mv -T {sourcePath} {destinationPath}' bash command: destinationPath is the new path of the file or folder itself, not a folder to put it in.\n\
The destination path must not exist. Parent directories are created automatically.\n\
\n\
Nothing is ever overwritten. Moving between two roots works when they are on the same file system. A root folder cannot be moved, nor a folder into itself; symbolic links are refused. Waits for an edit of the file in progress to finish. dryRun: true checks the move and reports it without changing anything.\n\
\n\
Also puts back a file removed with RemoveFile: its response gives the exact Move call. To delete a file, use RemoveFile; to change a file's content, TextReplace or TextPatch."
    }

    fn run(ctx: &ToolContext, params: MoveParams) -> Result<MoveOutput, ToolError> {
        let plan = ctx
            .workspace
            .plan_move(&params.source_path, &params.destination_path)?;
        let history = if params.dry_run {
            History::NotKept
        } else {
            ctx.workspace.relocate(Self::NAME, &plan)?
        };
        Ok(MoveOutput::of(&plan, params.dry_run, &history))
    }
}
