//! Undoing a recorded change: putting back the state before it, through the
//! committer, so the undo is itself recorded (and can be undone).
//!
//! An edit is undone by rebuilding the file's old bytes from its current
//! bytes and the bytes the edit replaced; a new file goes to the trash; a
//! move (or a removal, a move into the trash) is moved back. A change of
//! several files is undone for all of them or none.
//!
//! The file must still be as the change left it (its hash is the change's
//! `hashAfter`); files moved since are found where the recorded moves took
//! them. If the file changed since, the undo is refused, with the later
//! changes and the diff the undo would make, unless the caller passes the
//! file's current hash: the state before the change is then rebuilt by
//! undoing, in memory, every later recorded change of the file, and written,
//! which also takes back those later changes. A file changed by something the
//! history did not see cannot be rebuilt, and the undo says so.
//!
//! ```
//! use mcp_server_text::workspace::{Workspace, WorkspaceOptions};
//! use mcp_server_text::workspace::commit::BatchItem;
//! use mcp_server_text::text::document::Splice;
//!
//! let dir = tempfile::tempdir().unwrap();
//! std::fs::write(dir.path().join("a.md"), "one\n").unwrap();
//! let ws = Workspace::new(vec![dir.path().to_path_buf()], WorkspaceOptions::default()).unwrap();
//! let edited = ws
//!     .edit("TextReplace", BatchItem::new("a.md"), true, |file| {
//!         Ok::<_, mcp_server_text::workspace::WorkspaceError>((file.doc.apply(&[Splice::new(0..3, "two")]).unwrap(), ()))
//!     })
//!     .unwrap();
//! let id = edited.history.change_id().unwrap();
//! ws.undo(id, &[], true).unwrap();
//! assert_eq!(std::fs::read_to_string(dir.path().join("a.md")).unwrap(), "one\n");
//! ```

use std::fmt;
use std::path::PathBuf;

use super::commit::BatchItem;
use super::commit::Relocation;
use super::commit::{Change, History};
use super::history::lookup::{Found, after_moves, before_moves};
use super::history::record::{Entry, Record, real_path};
use super::history::store::HistoryError;
use super::timestamp::UtcTime;
use super::{Workspace, WorkspaceError};
use crate::text::byte_delta::Delta;
use crate::text::diff::{DEFAULT_CONTEXT, unified_diff};
use crate::text::document::Document;
use crate::text::encoding::TextEncoding;
use crate::text::hash::{file_hash, hash_matches};

/// A later change of a file, named in a refusal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LaterChange {
    /// Its id.
    pub change_id: String,
    /// The tool that made it.
    pub tool: String,
    /// When.
    pub time: String,
}

/// A file that is no longer as the change left it.
#[derive(Debug, Clone)]
pub struct Conflict {
    /// The file, where it is now.
    pub path: PathBuf,
    /// Its hash now.
    pub current_hash: String,
    /// Its hash right after the change.
    pub hash_after: String,
    /// Whether it has its content from before the change (undone already).
    pub as_before: bool,
    /// Recorded changes of the file since, newest first.
    pub later: Vec<LaterChange>,
    /// The diff the undo would make if forced, or why the state before the
    /// change cannot be rebuilt.
    pub diff: Result<String, String>,
}

/// Why an undo was refused or failed.
#[derive(Debug)]
pub enum UndoError {
    /// No root's history holds the change.
    Unknown {
        /// The id asked for.
        change_id: String,
        /// The newest ids there are.
        recent: Vec<String>,
    },
    /// Files changed since the change.
    ChangedSince(Vec<Conflict>),
    /// The undo cannot be done, for this reason.
    Cannot(String),
    /// The change's record fails its checks: it is never acted on.
    Damaged(String),
    /// The history could not be read.
    History(HistoryError),
    /// The workspace refused or failed.
    Workspace(WorkspaceError),
}

impl fmt::Display for UndoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UndoError::Unknown { change_id, .. } => {
                write!(f, "there is no change '{change_id}' in the edit history")
            }
            UndoError::ChangedSince(conflicts) => {
                let names: Vec<String> = conflicts
                    .iter()
                    .map(|c| c.path.display().to_string())
                    .collect();
                write!(f, "{} changed since", names.join(", "))
            }
            UndoError::Cannot(why) => f.write_str(why),
            UndoError::Damaged(problem) => write!(f, "{problem}"),
            UndoError::History(e) => write!(f, "the edit history could not be read: {e}"),
            UndoError::Workspace(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for UndoError {}

impl From<WorkspaceError> for UndoError {
    fn from(e: WorkspaceError) -> Self {
        UndoError::Workspace(e)
    }
}

impl From<HistoryError> for UndoError {
    fn from(e: HistoryError) -> Self {
        UndoError::History(e)
    }
}

/// What an undo did (or, in a dry run, would do) to one file or folder.
#[derive(Debug, Clone)]
pub enum UndoStep {
    /// The file got its content from before the change back.
    Restored {
        /// The file.
        path: PathBuf,
        /// Its content before the undo.
        before: Box<Document>,
        /// Its content now.
        after: Box<Document>,
    },
    /// A file the change created went to the trash.
    Removed {
        /// Where it was.
        path: PathBuf,
        /// Where it is in the trash.
        trash: PathBuf,
    },
    /// A moved (or removed) file or folder went back.
    MovedBack {
        /// Where it was.
        from: PathBuf,
        /// Where it is now, as before the change.
        to: PathBuf,
    },
}

/// An undo, done or checked.
#[derive(Debug)]
pub struct Undone {
    /// The change undone.
    pub target: Record,
    /// What happened, file by file.
    pub steps: Vec<UndoStep>,
    /// Whether anything was written (false in a dry run).
    pub written: bool,
    /// The undo's own record.
    pub history: History,
}

/// An edit of the change to undo, located now.
struct EditToUndo {
    path: String,
    encoding: Option<TextEncoding>,
    hash_before: String,
    hash_after: String,
    delta: Delta,
    middle: Vec<u8>,
}

impl Workspace {
    /// Undoes change `change_id` (unless `write` is false: a dry run).
    /// `expected` holds the current hashes of files the caller knows changed
    /// since, and wants put back to before the change anyway.
    pub fn undo(
        &self,
        change_id: &str,
        expected: &[String],
        write: bool,
    ) -> Result<Undone, UndoError> {
        let found = self.find_change(change_id).map_err(|e| match e {
            HistoryError::Corrupt(problem) => UndoError::Damaged(problem.to_string()),
            other => UndoError::History(other),
        })?;
        let (found, payload) = match found {
            Some(found) => found,
            None => {
                let recent = self
                    .recorded_changes()?
                    .into_iter()
                    .take(5)
                    .map(|f| f.record.change_id)
                    .collect();
                return Err(UndoError::Unknown {
                    change_id: change_id.trim().to_string(),
                    recent,
                });
            }
        };
        let later = self.records_after(&found.root, found.name.seq)?;
        let root = found.root.clone();
        let locate = |path: &str| {
            let mut path = after_moves(&found.record, path);
            for f in &later {
                path = after_moves(&f.record, &path);
            }
            path
        };
        let real = |stored: &str| real_path(&root, stored);
        let text = |p: &PathBuf| -> Result<String, UndoError> {
            p.to_str().map(str::to_string).ok_or_else(|| {
                UndoError::Cannot(format!("{} is not a valid Unicode path", p.display()))
            })
        };

        let middles = found.record.old_middles(&payload);
        let mut edits = Vec::new();
        let mut created = Vec::new();
        let mut middle_at = 0;
        for entry in &found.record.entries {
            match entry {
                Entry::Edit {
                    path,
                    encoding,
                    hash_before,
                    hash_after,
                    prefix,
                    old_len,
                    new_len,
                    ..
                } => {
                    edits.push(EditToUndo {
                        path: locate(path),
                        encoding: TextEncoding::from_label(encoding),
                        hash_before: hash_before.clone(),
                        hash_after: hash_after.clone(),
                        delta: Delta {
                            prefix: *prefix as usize,
                            old_len: *old_len as usize,
                            new_len: *new_len as usize,
                        },
                        middle: middles[middle_at].to_vec(),
                    });
                    middle_at += 1;
                }
                Entry::Create {
                    path, hash_after, ..
                } => created.push((locate(path), hash_after.clone())),
                Entry::Move { .. } => {}
            }
        }

        // The moves back, newest first; then the new files to the trash.
        let mut relocations: Vec<Relocation> = Vec::new();
        let mut steps = Vec::new();
        let mut later_moves = Vec::new();
        for entry in found.record.entries.iter().rev() {
            if let Entry::Move { from, to, made, .. } = entry {
                let mut now = to.clone();
                for f in &later {
                    now = after_moves(&f.record, &now);
                }
                later_moves.push((now, from.clone(), made));
            }
        }
        for (now, back, made) in &later_moves {
            let (source, destination) = (real(now), real(back));
            let mut plan = self
                .plan_move_back(&text(&source)?, &text(&destination)?)
                .map_err(|e| move_back_error(&source, &destination, e))?;
            // The folders the move made go too, if it leaves them empty.
            plan.remove_if_empty = made.iter().map(|m| real(m)).collect();
            steps.push(UndoStep::MovedBack {
                from: plan.source.real.clone(),
                to: plan.destination.real.clone(),
            });
            relocations.push(plan);
        }
        let now = UtcTime::now();
        for (path, _) in &created {
            let path = real(path);
            let plan = self
                .plan_removal(&text(&path)?, false, now)
                .map_err(|e| gone_error(&path, e))?;
            steps.push(UndoStep::Removed {
                path: plan.source.real.clone(),
                trash: plan.destination.real.clone(),
            });
            relocations.push(plan);
        }

        let given: Vec<String> = edits
            .iter()
            .map(|e| text(&real(&e.path)))
            .chain(created.iter().map(|(p, _)| text(&real(p))))
            .collect::<Result<_, _>>()?;
        let items: Vec<BatchItem> = given
            .iter()
            .enumerate()
            .map(|(i, g)| BatchItem {
                encoding: edits.get(i).and_then(|e| e.encoding),
                ..BatchItem::new(g)
            })
            .collect();
        let transaction = self
            .transaction(&items, relocations)
            .map_err(|f| match f.index {
                Some(i) => gone_error(&real_path(&root, &given[i]), f.error),
                None => UndoError::Workspace(f.error),
            })?;

        let accepted = |hash: &str| expected.iter().any(|e| hash_matches(e, hash));
        let mut contents = Vec::with_capacity(items.len());
        let mut conflicts = Vec::new();
        for (i, edit) in edits.iter().enumerate() {
            let file = &transaction.files()[i];
            let current = file.doc.hash();
            let restored = if current == edit.hash_after {
                edit.delta
                    .restore(&file.doc.bytes(), &edit.middle)
                    .map_err(|e| {
                        UndoError::Cannot(format!(
                            "the record of {change_id} does not fit {}: {e}",
                            file.path.display()
                        ))
                    })
            } else {
                let (later_changes, rebuilt) =
                    self.rebuild(&found, edit, &later, &file.doc.bytes());
                let rebuilt_doc = rebuilt.and_then(|bytes| decode(bytes, edit.encoding));
                if let Ok(doc) = &rebuilt_doc
                    && accepted(&current)
                {
                    contents.push(Some(doc.clone()));
                    continue;
                }
                conflicts.push(Conflict {
                    path: file.path.real.clone(),
                    as_before: current == edit.hash_before,
                    current_hash: current,
                    hash_after: edit.hash_after.clone(),
                    later: later_changes,
                    diff: rebuilt_doc.map(|doc| {
                        unified_diff(
                            file.doc.text(),
                            doc.text(),
                            &file.path.relative().display().to_string(),
                            DEFAULT_CONTEXT,
                        )
                    }),
                });
                continue;
            };
            let doc = decode(restored?, edit.encoding).map_err(UndoError::Cannot)?;
            if doc.hash() != edit.hash_before {
                return Err(UndoError::Cannot(format!(
                    "rebuilding {} from the record of {change_id} did not give its content from before the change (hash {} instead of {}); the record may be damaged, so nothing was written",
                    file.path.display(),
                    doc.hash(),
                    edit.hash_before
                )));
            }
            contents.push(Some(doc));
        }
        for (k, (_, hash_after)) in created.iter().enumerate() {
            let file = &transaction.files()[edits.len() + k];
            let current = file.doc.hash();
            if current != *hash_after && !accepted(&current) {
                conflicts.push(Conflict {
                    path: file.path.real.clone(),
                    as_before: false,
                    current_hash: current,
                    hash_after: hash_after.clone(),
                    later: Vec::new(),
                    diff: Err(
                        "undoing the change removes the file (to the trash) with everything in it"
                            .into(),
                    ),
                });
            }
            contents.push(None);
        }
        if !conflicts.is_empty() {
            return Err(UndoError::ChangedSince(conflicts));
        }

        let restored: Vec<UndoStep> = edits
            .iter()
            .enumerate()
            .map(|(i, _)| {
                let file = &transaction.files()[i];
                UndoStep::Restored {
                    path: file.path.real.clone(),
                    before: Box::new(file.doc.clone()),
                    after: Box::new(
                        contents[i]
                            .clone()
                            .expect("every edit has a restored content"),
                    ),
                }
            })
            .collect();
        let mut change = Change::new("UndoEdit", contents);
        change.undoes = Some(found.record.change_id.clone());
        let done = transaction
            .commit(change, write)
            .map_err(|f| UndoError::Workspace(f.error))?;
        let mut all = restored;
        all.extend(steps);
        Ok(Undone {
            target: found.record,
            steps: all,
            written: write,
            history: done.history,
        })
    }

    /// The file's bytes before `edit`, rebuilt from `current` by undoing, in
    /// memory, every later recorded change of it, newest first; with the
    /// later changes that touched it.
    fn rebuild(
        &self,
        found: &Found,
        edit: &EditToUndo,
        later: &[Found],
        current: &[u8],
    ) -> (Vec<LaterChange>, Result<Vec<u8>, String>) {
        let mut touched = Vec::new();
        let mut path = edit.path.clone();
        let mut bytes = current.to_vec();
        let unrecorded = |after: &str| {
            format!(
                "it was changed after {after} by something the edit history did not record, so its state before {} cannot be rebuilt",
                found.record.change_id
            )
        };
        let mut newer_id = None::<String>;
        for f in later.iter().rev() {
            path = before_moves(&f.record, &path);
            let touches = f.record.entries.iter().any(|e| match e {
                Entry::Edit { path: p, .. } | Entry::Create { path: p, .. } => *p == path,
                Entry::Move { .. } => false,
            });
            if !touches {
                continue;
            }
            touched.push(LaterChange {
                change_id: f.record.change_id.clone(),
                tool: f.record.tool.clone(),
                time: f.record.time.clone(),
            });
            let payload = match self.payload_of(f) {
                Ok(p) => p,
                Err(e) => {
                    return (
                        touched,
                        Err(format!(
                            "the record of {} cannot be read: {e}",
                            f.record.change_id
                        )),
                    );
                }
            };
            let middles = f.record.old_middles(&payload);
            let mut m = 0;
            for entry in &f.record.entries {
                match entry {
                    Entry::Edit {
                        path: p,
                        hash_after,
                        prefix,
                        old_len,
                        new_len,
                        ..
                    } => {
                        let middle = middles[m];
                        m += 1;
                        if *p != path {
                            continue;
                        }
                        if file_hash(&[&bytes]) != *hash_after {
                            let after = newer_id.as_deref().unwrap_or("the last recorded change");
                            return (touched, Err(unrecorded(after)));
                        }
                        let delta = Delta {
                            prefix: *prefix as usize,
                            old_len: *old_len as usize,
                            new_len: *new_len as usize,
                        };
                        match delta.restore(&bytes, middle) {
                            Ok(b) => bytes = b,
                            Err(e) => return (touched, Err(e.to_string())),
                        }
                    }
                    Entry::Create { path: p, .. } if *p == path => {
                        return (
                            touched,
                            Err(format!(
                                "it was created anew by {}, so its state before {} is not its history",
                                f.record.change_id, found.record.change_id
                            )),
                        );
                    }
                    _ => {}
                }
            }
            newer_id = Some(f.record.change_id.clone());
        }
        if file_hash(&[&bytes]) != edit.hash_after {
            let after = newer_id.as_deref().unwrap_or(&found.record.change_id);
            return (touched, Err(unrecorded(after)));
        }
        let rebuilt = edit
            .delta
            .restore(&bytes, &edit.middle)
            .map_err(|e| e.to_string());
        (touched, rebuilt)
    }
}

/// The document of restored bytes, in the encoding the file was edited in.
fn decode(bytes: Vec<u8>, encoding: Option<TextEncoding>) -> Result<Document, String> {
    Document::decode(bytes, encoding)
        .map_err(|e| format!("the content before the change cannot be read back as text: {e}"))
}

/// The refusal of a move back.
fn move_back_error(
    source: &std::path::Path,
    destination: &std::path::Path,
    error: WorkspaceError,
) -> UndoError {
    match error {
        WorkspaceError::Path(_) => UndoError::Cannot(format!(
            "{} is no longer there, so it cannot be moved back to {}",
            source.display(),
            destination.display()
        )),
        WorkspaceError::Relocate(super::error::RelocateError::DestinationExists { path }) => {
            UndoError::Cannot(format!(
                "{} exists again, and moving {} back would overwrite it; move or remove it first",
                path.display(),
                source.display()
            ))
        }
        other => UndoError::Workspace(other),
    }
}

/// The refusal of a file the undo needs that is gone or cannot be used.
fn gone_error(path: &std::path::Path, error: WorkspaceError) -> UndoError {
    match error {
        WorkspaceError::Path(_) => UndoError::Cannot(format!(
            "{} is no longer there: it was moved or removed by something the edit history did not record",
            path.display()
        )),
        other => UndoError::Workspace(other),
    }
}
