//! EditHistory: the recorded changes of the roots, or of one file, newest
//! first, with what UndoEdit needs to take one back.
//!
//! A file's history follows it through recorded moves: the changes made to
//! it under an earlier name are listed too.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::context::ToolContext;
use super::error::ToolError;
use super::tool::{Effects, Tool, Toolset};
use crate::text::edit::LineSpan;
use crate::workspace::WorkspaceError;
use crate::workspace::history::lookup::{Found, moved_path};
use crate::workspace::history::record::{Entry, real_path};

/// Changes listed when `limit` is not given.
pub const DEFAULT_LIMIT: usize = 20;
/// Most changes one call lists.
pub const MAX_LIMIT: usize = 1000;

/// The EditHistory tool.
pub struct EditHistory;

/// Parameters of EditHistory.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct EditHistoryParams {
    /// Only this file's or folder's changes, earlier names included.
    #[serde(default)]
    pub file_path: Option<String>,
    /// Default 20, at most 1000.
    #[serde(default)]
    pub limit: Option<usize>,
}

/// One recorded change.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChangeInfo {
    /// Pass it to UndoEdit to take the change back.
    pub change_id: String,
    /// The file changed (for a move: where it was; for several files: the first).
    pub file_path: String,
    /// When, in UTC.
    pub time: String,
    /// The tool that made it.
    pub tool: String,
    /// edit, create, move (also a Move that rewrote links, its files listed), remove, or batch (several files).
    pub kind: &'static str,
    /// The lines changed, in the file after the change (an edit of one file).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub affected_lines: Option<LineSpan>,
    /// Lines added minus lines removed (an edit of one file).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lines_delta: Option<isize>,
    /// fileHash before the change (an edit of one file).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hash_before: Option<String>,
    /// fileHash after the change (an edit or creation of one file).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hash_after: Option<String>,
    /// For a move or removal: where it went.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub destination_path: Option<String>,
    /// Every file of a change of several.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<String>,
    /// For an undo: the change it took back.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub undoes: Option<String>,
    /// Whether UndoEdit would take it back now without expectedHash: every file is still as the change left it.
    pub can_undo: bool,
}

/// A record that failed its checks.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DamagedRecord {
    /// The id its file name gives.
    pub change_id: String,
    /// Its file in the root's .history folder.
    pub record_path: String,
    /// What is wrong with it.
    pub problem: String,
}

/// Result of EditHistory.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct EditHistoryOutput {
    /// The changes, newest first.
    pub changes: Vec<ChangeInfo>,
    /// How many recorded changes match (more than listed when truncated).
    pub total: usize,
    /// True when more changes match than were listed: raise limit to see them.
    pub truncated: bool,
    /// Records in the history folders that fail their checks (not written by this server, or damaged): never undone, listed so they can be looked at.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub damaged: Vec<DamagedRecord>,
    /// Remarks, e.g. that the server keeps no history.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl Tool for EditHistory {
    type Params = EditHistoryParams;
    type Output = EditHistoryOutput;

    const NAME: &'static str = "EditHistory";
    const TITLE: &'static str = "List recorded changes";
    const TOOLSET: Toolset = Toolset::History;
    const EFFECTS: Effects = Effects::READ_ONLY;

    fn description() -> &'static str {
        "Lists recorded changes, newest first: changeId, time, tool, lines, hashes before and after, and canUndo. Take one back with UndoEdit. Example: {\"filePath\": \"notes/a.md\", \"limit\": 5}"
    }

    fn run(ctx: &ToolContext, params: EditHistoryParams) -> Result<EditHistoryOutput, ToolError> {
        let limit = params.limit.unwrap_or(DEFAULT_LIMIT);
        if limit == 0 || limit > MAX_LIMIT {
            return Err(ToolError::new(format!(
                "limit {limit} is out of range: it must be between 1 and {MAX_LIMIT}"
            ))
            .suggest("Leave limit out for the 20 newest changes"));
        }
        let workspace = &ctx.workspace;
        let note = (!workspace.options().history.enabled).then(|| {
            "This server was started with --no-history: it records no new changes, and only changes recorded earlier are listed".to_string()
        });
        let (found, damaged) = workspace.history_listing().map_err(|e| {
            ToolError::new(format!("The edit history could not be read: {e}"))
                .suggest("Check that the roots' .history folders are readable")
        })?;
        let damaged: Vec<DamagedRecord> = damaged
            .into_iter()
            .take(limit)
            .map(|d| DamagedRecord {
                record_path: d
                    .root
                    .join(crate::workspace::history::HISTORY_DIR)
                    .join(&d.name.file)
                    .display()
                    .to_string(),
                change_id: d.name.change_id,
                problem: d.problem,
            })
            .collect();
        let note = match (note, damaged.is_empty()) {
            (note, true) => note,
            (note, false) => Some(
                note.into_iter()
                    .chain([format!(
                        "{} record(s) in the history failed their checks and are listed under damaged; UndoEdit never acts on them",
                        damaged.len()
                    )])
                    .collect::<Vec<_>>()
                    .join("; "),
            ),
        };
        let selected: Vec<&Found> = match &params.file_path {
            None => found.iter().collect(),
            Some(given) => {
                let path = workspace
                    .roots()
                    .resolve_new(given)
                    .map_err(WorkspaceError::from)?;
                of_path(&found, path.real)
            }
        };
        let total = selected.len();
        let mut hashes = HashMap::new();
        let changes = selected
            .iter()
            .take(limit)
            .map(|f| describe(ctx, &found, f, &mut hashes))
            .collect();
        Ok(EditHistoryOutput {
            changes,
            total,
            truncated: total > limit,
            damaged,
            note,
        })
    }
}

/// The changes (newest first) that touched `path`, following it back
/// through recorded moves to the names it had before.
fn of_path(found: &[Found], mut path: PathBuf) -> Vec<&Found> {
    let mut out = Vec::new();
    for f in found {
        let real = |p: &str| real_path(&f.root, p);
        let mut touches = false;
        for entry in &f.record.entries {
            touches |= match entry {
                Entry::Edit { path: p, .. } | Entry::Create { path: p, .. } => {
                    let p = real(p);
                    p == path || p.starts_with(&path)
                }
                Entry::Move { from, to, .. } => {
                    let (from, to) = (real(from), real(to));
                    [from, to]
                        .iter()
                        .any(|end| *end == path || path.starts_with(end) || end.starts_with(&path))
                }
            };
        }
        if touches {
            out.push(f);
        }
        // Before this change, the file was where its moves took it from.
        for entry in f.record.entries.iter().rev() {
            if let Entry::Move { from, to, .. } = entry
                && let Some(before) = path
                    .to_str()
                    .zip(real(to).to_str())
                    .zip(real(from).to_str())
                    .and_then(|((p, t), fr)| moved_path(p, t, fr))
            {
                path = PathBuf::from(before);
            }
        }
    }
    out
}

/// The listing of one change.
fn describe(
    ctx: &ToolContext,
    all: &[Found],
    found: &Found,
    hashes: &mut HashMap<PathBuf, Option<String>>,
) -> ChangeInfo {
    let record = &found.record;
    let real = |p: &str| real_path(&found.root, p);
    let shown = |p: &str| real(p).display().to_string();
    let mut info = ChangeInfo {
        change_id: record.change_id.clone(),
        file_path: String::new(),
        time: record.time.clone(),
        tool: record.tool.clone(),
        kind: "batch",
        affected_lines: None,
        lines_delta: None,
        hash_before: None,
        hash_after: None,
        destination_path: None,
        files: Vec::new(),
        undoes: record.undoes.clone(),
        can_undo: true,
    };
    // Where each path of the change is now, after the moves recorded since.
    let later: Vec<&Found> = all
        .iter()
        .filter(|f| f.root == found.root && f.name.seq > found.name.seq)
        .collect();
    let now = |p: &str| {
        let mut p = crate::workspace::history::lookup::after_moves(record, p);
        for f in later.iter().rev() {
            p = crate::workspace::history::lookup::after_moves(&f.record, &p);
        }
        real(&p)
    };
    let mut hash_now = |path: PathBuf| -> Option<String> {
        hashes
            .entry(path.clone())
            .or_insert_with(|| {
                let given = path.to_str()?;
                ctx.workspace.read(given, None).ok().map(|f| f.doc.hash())
            })
            .clone()
    };
    for entry in &record.entries {
        match entry {
            Entry::Edit {
                path, hash_after, ..
            }
            | Entry::Create {
                path, hash_after, ..
            } => {
                info.files.push(shown(path));
                info.can_undo &= hash_now(now(path)).as_ref() == Some(hash_after);
            }
            Entry::Move { from, to, .. } => {
                info.files.push(shown(from));
                info.can_undo &= exists(ctx, &now(to)) && !exists(ctx, &real(from));
            }
        }
    }
    info.file_path = info.files.first().cloned().unwrap_or_default();
    match record.entries.as_slice() {
        [
            Entry::Edit {
                hash_before,
                hash_after,
                affected_lines,
                lines_delta,
                ..
            },
        ] => {
            info.kind = "edit";
            info.affected_lines = Some(*affected_lines);
            info.lines_delta = Some(*lines_delta);
            info.hash_before = Some(hash_before.clone());
            info.hash_after = Some(hash_after.clone());
        }
        [Entry::Create { hash_after, .. }] => {
            info.kind = "create";
            info.hash_after = Some(hash_after.clone());
        }
        [Entry::Move { to, .. }] => {
            info.kind = if Path::new(to)
                .components()
                .next()
                .is_some_and(|c| c.as_os_str() == crate::workspace::trash::TRASH_DIR)
            {
                "remove"
            } else {
                "move"
            };
            info.destination_path = Some(shown(to));
        }
        entries => {
            // A Move that rewrote links: the move names the change, and the
            // files it rewrote are listed.
            let mut moves = entries.iter().filter_map(|e| match e {
                Entry::Move { from, to, .. } => Some((from, to)),
                _ => None,
            });
            if let (Some((from, to)), None) = (moves.next(), moves.next()) {
                info.kind = "move";
                info.file_path = shown(from);
                info.destination_path = Some(shown(to));
            }
        }
    }
    if info.files.len() < 2 {
        info.files.clear();
    }
    info
}

/// Whether something is at `path`, looked up inside the roots only.
fn exists(ctx: &ToolContext, path: &Path) -> bool {
    path.to_str()
        .is_some_and(|p| ctx.workspace.roots().resolve_existing(p).is_ok())
}
