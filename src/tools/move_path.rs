//! Move: moves or renames a file or folder inside the roots, like
//! `mv -T source destination`, never overwriting anything.
//!
//! Annotated destructive: it deletes no content, but it is not additive
//! either (the source path stops existing, and links or references to it
//! break), and a client that asks before destructive calls should ask here.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::context::ToolContext;
use super::edit_report::join_notes;
use super::error::ToolError;
use super::link_keeping::{LinkPlan, LinkUpdate, plan_link_updates, updates_links_by_default};
use super::tool::{Effects, Tool, Toolset};
use crate::workspace::WorkspaceError;
use crate::workspace::commit::{BatchFailure, BatchItem};
use crate::workspace::commit::{Change, History};
use crate::workspace::commit::{EntryKind, Relocation};

/// The Move tool.
pub struct Move;

/// Parameters of Move.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct MoveParams {
    /// A file or folder.
    pub source_path: String,
    /// Its new path (not a folder to put it in), which must not exist.
    pub destination_path: String,
    /// Rewrite links to it and its own relative links (default: for Markdown files and folders).
    #[serde(default)]
    pub update_links: Option<bool>,
    /// If true, check the move and report it (with every link it would rewrite) without changing anything.
    #[schemars(description = "")] // said once, in the server's instructions
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
    /// The links rewritten so they keep reaching their files (in a dry run: that would be), file by file; the files are named where they were before the move.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub links_updated: Vec<LinkUpdate>,
}

impl MoveOutput {
    /// The response for a planned move, done or (in a dry run) not.
    pub fn of(plan: &Relocation, dry_run: bool, history: &History) -> MoveOutput {
        MoveOutput {
            kind: plan.kind.into(),
            created_folders: plan
                .new_folders
                .iter()
                .map(|f| f.display().to_string())
                .collect(),
            dry_run: dry_run.then_some(true),
            change_id: history.change_id().map(str::to_string),
            note: history.note(),
            links_updated: Vec::new(),
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
        "Moves or renames a file or folder like mv -T, never overwriting. Links to a moved Markdown note or folder, and its own relative links, are rewritten in the same change (linksUpdated lists them). Also restores what RemoveFile removed. To delete use RemoveFile. Example: {\"sourcePath\": \"a.md\", \"destinationPath\": \"archive/a.md\"}"
    }

    fn run(ctx: &ToolContext, params: MoveParams) -> Result<MoveOutput, ToolError> {
        let plan = ctx
            .workspace
            .plan_move(&params.source_path, &params.destination_path)?;
        let update = params
            .update_links
            .unwrap_or_else(|| updates_links_by_default(&plan));
        let mut notes = Vec::new();
        let links = if !update {
            LinkPlan::default()
        } else if plan.source.root != plan.destination.root {
            notes.push(
                "Links were not updated: links reach only inside their own root, and this move leaves it; CheckLinks finds the links that broke"
                    .to_string(),
            );
            LinkPlan::default()
        } else {
            plan_link_updates(ctx, &plan)?
        };
        if !links.unreadable.is_empty() {
            notes.push(format!(
                "{} Markdown file(s) could not be read, so links in them were not updated: {}",
                links.unreadable.len(),
                links.unreadable.join(", ")
            ));
        }
        let history = if links.files.is_empty() {
            if params.dry_run {
                History::NotKept
            } else {
                ctx.workspace.relocate(Self::NAME, &plan)?
            }
        } else {
            move_with_links(ctx, &plan, &links, params.dry_run)?
        };
        let mut output = MoveOutput::of(&plan, params.dry_run, &history);
        output.links_updated = links.updates();
        output.note =
            join_notes(std::iter::once(output.note.take()).chain(notes.into_iter().map(Some)));
        Ok(output)
    }
}

/// Moves and rewrites the links of `links` as one change: all or nothing.
fn move_with_links(
    ctx: &ToolContext,
    plan: &Relocation,
    links: &LinkPlan,
    dry_run: bool,
) -> Result<History, ToolError> {
    let given: Vec<String> = links.files.iter().map(|f| f.path.display()).collect();
    let hashes: Vec<String> = links.files.iter().map(|f| f.before.hash()).collect();
    let items: Vec<BatchItem> = given
        .iter()
        .zip(&hashes)
        .zip(&links.files)
        .map(|((g, h), f)| BatchItem {
            encoding: Some(f.before.encoding()),
            expected_hash: Some(h.as_str()),
            ..BatchItem::new(g)
        })
        .collect();
    let changed_since = |f: BatchFailure<WorkspaceError>| match (f.index, f.error) {
        (Some(i), WorkspaceError::StaleHash { .. }) => ToolError::new(format!(
            "{} changed while the links to update were being found; nothing was moved",
            given[i]
        ))
        .suggest("Call Move again"),
        (_, error) => error.into(),
    };
    let transaction = ctx
        .workspace
        .transaction(&items, vec![plan.clone()])
        .map_err(changed_since)?;
    let contents = links.files.iter().map(|f| Some(f.after.clone())).collect();
    let done = transaction
        .commit(Change::new(Move::NAME, contents), !dry_run)
        .map_err(changed_since)?;
    Ok(done.history)
}
