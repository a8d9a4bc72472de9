//! Writing a committed change: the files staged, the old ones kept, the
//! intent record written for a change of several steps, the renames (each
//! after a last look that nobody else changed the file), the moves, and
//! taking back what was done when a step fails.

use std::ffi::OsString;
use std::io;
use std::path::{Path, PathBuf};

use cap_std::fs::Dir;
use rustix::fs::AtFlags;

use super::guard::{FileState, carry_appended, writer_stays};
use super::intent::{Held, Intent, IntentFile, IntentMove};
use super::{BatchFailure, BatchStep, Change, EntryKind, Transaction};
use crate::workspace::WorkspaceError;
use crate::workspace::atomic_write::{
    self, BACKUP_SUFFIX, Durability, STAGED_SUFFIX, Staged, TempKind, own_name,
};
use crate::workspace::beneath::{existing_and_missing, open_parent};
use crate::workspace::error::CommitFailure;

/// A new file's folder and the folders made for it.
type NewFile = (Dir, Vec<PathBuf>);

/// A step of writing that was done, to be taken back if a later one fails.
enum Done {
    Replaced(usize),
    Created {
        index: usize,
        parent: Dir,
        name: OsString,
        folders: Vec<PathBuf>,
    },
}

/// The hidden names a change of several files gives each file's new bytes
/// and, for an existing file, its old ones.
struct Names {
    staged: OsString,
    backup: Option<OsString>,
}

/// What writing left to do once the files and moves are in place.
pub(super) struct Applied {
    /// The intent record, removed once the change is recorded.
    pub intent: Option<Held>,
}

impl Transaction<'_> {
    /// Stages every changed file, puts them all in place, then does the
    /// moves; takes everything back if a step fails. A change of more than
    /// one step writes its intent record first (see [`super::intent`]).
    pub(super) fn apply(
        &self,
        change: &Change,
        changed: &[usize],
    ) -> Result<Applied, BatchFailure<WorkspaceError>> {
        let ws = self.ws;
        let fail = |index: Option<usize>, error: WorkspaceError| BatchFailure { index, error };
        // Existing files in lock order, then new files.
        let mut order: Vec<usize> = changed
            .iter()
            .copied()
            .filter(|&i| self.lock_of[i].is_some())
            .collect();
        order.sort_by_key(|&i| self.lock_of[i]);
        order.extend(
            changed
                .iter()
                .copied()
                .filter(|&i| self.lock_of[i].is_none()),
        );

        // Many files are synced together rather than one after another:
        // the time of a vault-wide change is nearly all syncs.
        let durability = if changed.len() > 1 {
            Durability::Together
        } else {
            Durability::Each
        };
        let steps = changed.len() + self.relocations.len();
        let planned = if steps > 1 {
            let planned = self.intent(change, &order);
            if planned.is_none() {
                tracing::warn!(
                    "a change of {steps} steps is made without an intent record, as one of its paths is not valid Unicode: a kill while it is written may leave it half done"
                );
            }
            planned
        } else {
            None
        };
        let (held, names) = match planned {
            Some((intent, root, names)) => {
                let held = ws
                    .roots()
                    .dir(&root)
                    .ok_or_else(|| io::Error::other("its root is no longer served"))
                    .and_then(|dir| Held::write(dir, &intent))
                    .map_err(|error| {
                        fail(
                            None,
                            WorkspaceError::Write {
                                path: root.join(crate::workspace::history::HISTORY_DIR),
                                error: io::Error::new(
                                    error.kind(),
                                    format!("its intent record could not be written: {error}"),
                                ),
                            },
                        )
                    })?;
                (Some(held), names)
            }
            None => (None, (0..self.files.len()).map(|_| None).collect()),
        };
        // Every failure from here on removes the intent record once what it
        // names is gone again.
        let give_up = |held: Option<Held>| {
            if let Some(held) = held
                && let Err(e) = held.remove()
            {
                tracing::warn!("could not remove an intent record: {e}");
            }
        };

        let mut staged: Vec<(usize, Staged, Option<NewFile>)> = Vec::new();
        let mut made_folders: Vec<(usize, Vec<PathBuf>)> = Vec::new();
        let mut backups: Vec<(usize, OsString)> = Vec::new();
        let take_back_folders = |made: &[(usize, Vec<PathBuf>)]| {
            for (i, folders) in made.iter().rev() {
                if let Ok((root, _)) = ws.handle(&self.files[*i].path) {
                    for folder in folders.iter().rev() {
                        let _ = root.remove_dir(folder);
                    }
                }
            }
        };
        let remove_backups = |backups: &[(usize, OsString)]| {
            for (i, name) in backups {
                let lock = &self.file_locks[self.lock_of[*i].expect("backups are of locked files")];
                let _ = rustix::fs::unlinkat(&lock.parent, name, AtFlags::empty());
            }
        };
        for &i in &order {
            let file = &self.files[i];
            let target = &file.path.real;
            let after = change.contents[i]
                .as_ref()
                .expect("changed files have content");
            let name = names[i].as_ref();
            let stage = ws
                .hook(BatchStep::Stage { index: i, target })
                .and_then(|()| match self.lock_of[i] {
                    Some(l) => {
                        let lock = &self.file_locks[l];
                        let mut staged = atomic_write::stage_with(
                            &lock.parent,
                            &lock.name,
                            Some(&lock.file),
                            TempKind::Unnamed,
                            durability,
                            &mut |out| after.write_to(out),
                        )?;
                        if let Some(name) = name {
                            staged.name_as(&name.staged)?;
                            if let Some(backup) = &name.backup {
                                rustix::fs::linkat(
                                    &lock.parent,
                                    &lock.name,
                                    &lock.parent,
                                    backup,
                                    AtFlags::empty(),
                                )?;
                                backups.push((i, backup.clone()));
                            }
                        }
                        Ok((staged, None))
                    }
                    None => {
                        let (root, rel) = ws
                            .handle(&file.path)
                            .map_err(|e| io::Error::other(e.to_string()))?;
                        let (_, missing) = existing_and_missing(&root, &rel)?;
                        let mut made = Vec::new();
                        for folder in &missing {
                            match root.create_dir(folder) {
                                Ok(()) => made.push(folder.clone()),
                                Err(e)
                                    if e.kind() == io::ErrorKind::AlreadyExists
                                        && root.is_dir(folder) => {}
                                Err(e) => {
                                    made_folders.push((i, made));
                                    return Err(e);
                                }
                            }
                        }
                        made_folders.push((i, made.clone()));
                        let (parent, file_name) = open_parent(&root, &rel)?;
                        let mut staged = atomic_write::stage_with(
                            &parent,
                            file_name,
                            None,
                            TempKind::Unnamed,
                            durability,
                            &mut |out| after.write_to(out),
                        )?;
                        if let Some(name) = name {
                            staged.name_as(&name.staged)?;
                        }
                        Ok((staged, Some((parent, made))))
                    }
                });
            match stage {
                Ok((s, created)) => staged.push((i, s, created)),
                Err(error) => {
                    // Dropping the staged files removes their temp files.
                    drop(staged);
                    remove_backups(&backups);
                    take_back_folders(&made_folders);
                    give_up(held);
                    // A new file's folders are reached through the root's
                    // handle, where an escape is told as such.
                    let error = if self.lock_of[i].is_none() {
                        ws.write_error(&file.path, error)
                    } else {
                        WorkspaceError::Write {
                            path: target.clone(),
                            error,
                        }
                    };
                    return Err(fail(Some(i), error));
                }
            }
        }
        // Every new content and every second name of an old one is durable
        // before the record says the change can be finished.
        let durable = match durability {
            Durability::Each => Ok(Vec::new()),
            Durability::Together => distinct_folders(staged.iter().map(|(_, s, _)| s.folder()))
                .and_then(|folders| {
                    let files: Vec<_> = staged.iter().map(|(_, s, _)| s.staged_file()).collect();
                    let dirs: Vec<&Dir> = folders.iter().collect();
                    atomic_write::sync_together(&files, &dirs).map(|()| folders)
                }),
        };
        let committed = durable.and_then(|folders| {
            held.as_ref().map(Held::commit).transpose()?;
            Ok(folders)
        });
        let folders = match committed {
            Ok(folders) => folders,
            Err(error) => {
                drop(staged);
                remove_backups(&backups);
                take_back_folders(&made_folders);
                give_up(held);
                return Err(fail(
                    None,
                    WorkspaceError::Write {
                        path: self.files[order[0]].path.real.clone(),
                        error: io::Error::new(
                            error.kind(),
                            format!(
                                "its new contents could not be made durable, or its intent record committed: {error}"
                            ),
                        ),
                    },
                ));
            }
        };

        let mut done: Vec<Done> = Vec::with_capacity(staged.len());
        let mut pending = staged.into_iter();
        while let Some((i, stage, created)) = pending.next() {
            let target = self.files[i].path.real.clone();
            let is_new = created.is_some();
            let result = ws
                .hook(BatchStep::Commit {
                    index: i,
                    target: &target,
                })
                .map_err(|error| WorkspaceError::Write {
                    path: target.clone(),
                    error,
                })
                .and_then(|()| self.unchanged_since_read(i))
                .and_then(|()| {
                    if is_new {
                        stage.commit_new()
                    } else {
                        stage.commit()
                    }
                    .map_err(|error| {
                        if is_new && error.kind() == io::ErrorKind::AlreadyExists {
                            WorkspaceError::AlreadyExists {
                                path: target.clone(),
                            }
                        } else {
                            WorkspaceError::Write {
                                path: target.clone(),
                                error,
                            }
                        }
                    })
                });
            if let Err(error) = result {
                let untouched = pending
                    .map(|(j, _, _)| self.files[j].path.real.clone())
                    .collect();
                let failure = self.take_back(done, &backups, error, target, untouched);
                remove_backups(&backups);
                take_back_folders(&made_folders);
                give_up(held);
                return Err(fail(Some(i), failure));
            }
            done.push(match created {
                None => Done::Replaced(i),
                Some((parent, folders)) => Done::Created {
                    index: i,
                    parent,
                    name: self.files[i]
                        .path
                        .real
                        .file_name()
                        .map(|n| n.to_os_string())
                        .unwrap_or_default(),
                    folders,
                },
            });
        }
        // The renames made durable at once, before the moves and the record.
        if !folders.is_empty() {
            let dirs: Vec<&Dir> = folders.iter().collect();
            if let Err(e) = atomic_write::sync_together(&[], &dirs) {
                tracing::warn!("the folders of a change could not be synced: {e}");
            }
        }
        self.carry_appends(&done);
        // The old bytes' second names go before any move can carry them off.
        remove_backups(&backups);

        let mut moved: Vec<(usize, Vec<PathBuf>)> = Vec::new();
        for (m, plan) in self.relocations.iter().enumerate() {
            let moved_now = ws
                .hook(BatchStep::Move {
                    index: m,
                    source: &plan.source.real,
                })
                .map_err(|error| WorkspaceError::Write {
                    path: plan.source.real.clone(),
                    error,
                })
                .and_then(|()| ws.relocate_held(plan));
            match moved_now {
                Ok(created) => moved.push((m, created)),
                Err(error) => {
                    let mut not_moved_back = Vec::new();
                    for (k, created) in moved.iter().rev() {
                        let back = &self.relocations[*k];
                        if let Err(e) = ws.unrelocate(back, created) {
                            not_moved_back.push((back.destination.real.clone(), e));
                        }
                    }
                    if done.is_empty() && not_moved_back.is_empty() {
                        give_up(held);
                        return Err(fail(None, error));
                    }
                    let message = io::Error::other(error.to_string());
                    let failure = self.take_back(
                        done,
                        &[],
                        WorkspaceError::Write {
                            path: plan.source.real.clone(),
                            error: message,
                        },
                        plan.source.real.clone(),
                        Vec::new(),
                    );
                    let mut failure = match failure {
                        WorkspaceError::BatchCommit(f) => f,
                        other => {
                            give_up(held);
                            return Err(fail(None, other));
                        }
                    };
                    failure.not_restored.extend(not_moved_back);
                    give_up(held);
                    return Err(fail(None, WorkspaceError::BatchCommit(failure)));
                }
            }
        }
        Ok(Applied { intent: held })
    }

    /// Refuses to replace file `index` if anything changed it since it was
    /// read (its size, modification time or inode), or if another program
    /// keeps it open for writing (see [`super::guard`]).
    fn unchanged_since_read(&self, index: usize) -> Result<(), WorkspaceError> {
        let (Some(l), Some(read)) = (self.lock_of[index], self.states[index]) else {
            return Ok(());
        };
        let lock = &self.file_locks[l];
        if writer_stays(&lock.file) {
            return Err(WorkspaceError::OpenForWriting {
                path: self.files[index].path.real.clone(),
            });
        }
        match FileState::at(&lock.parent, &lock.name) {
            Ok(now) if now == read => Ok(()),
            Ok(_) => Err(WorkspaceError::ChangedMeanwhile {
                path: self.files[index].path.real.clone(),
            }),
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                Err(WorkspaceError::ChangedMeanwhile {
                    path: self.files[index].path.real.clone(),
                })
            }
            Err(error) => Err(WorkspaceError::Write {
                path: self.files[index].path.real.clone(),
                error,
            }),
        }
    }

    /// Appends to each replaced file what another program appended to its
    /// old inode after the last look, through a descriptor opened before the
    /// rename.
    fn carry_appends(&self, done: &[Done]) {
        for step in done {
            let Done::Replaced(i) = step else {
                continue;
            };
            let (Some(l), Some(read)) = (self.lock_of[*i], self.states[*i]) else {
                continue;
            };
            let lock = &self.file_locks[l];
            let path = &self.files[*i].path.real;
            match carry_appended(&lock.file, &read, &lock.parent, &lock.name) {
                Ok(0) => {}
                Ok(n) => tracing::info!(
                    "{n} bytes another program appended to {} while it was replaced were appended to its new content",
                    path.display()
                ),
                Err(e) => tracing::warn!(
                    "bytes another program appended to {} while it was replaced could not be carried over: {e}",
                    path.display()
                ),
            }
        }
    }

    /// Takes back the writes in `done` after `error` stopped the change at
    /// `failed`: a replaced file gets its old inode back from its second
    /// name in `backups` where it has one, else its original bytes written
    /// again; a new file is removed. The error says what was restored.
    fn take_back(
        &self,
        done: Vec<Done>,
        backups: &[(usize, OsString)],
        error: WorkspaceError,
        failed: PathBuf,
        untouched: Vec<PathBuf>,
    ) -> WorkspaceError {
        if done.is_empty() {
            return error;
        }
        let mut restored = Vec::new();
        let mut removed = Vec::new();
        let mut not_restored = Vec::new();
        for step in done.into_iter().rev() {
            match step {
                Done::Replaced(j) => {
                    let file = &self.files[j];
                    let lock =
                        &self.file_locks[self.lock_of[j].expect("replaced files are locked")];
                    let backup = backups.iter().find(|(k, _)| *k == j).map(|(_, b)| b);
                    let restore = match backup {
                        Some(backup) => {
                            rustix::fs::renameat(&lock.parent, backup, &lock.parent, &lock.name)
                                .map_err(io::Error::from)
                                .map(|()| atomic_write::sync_folder(&lock.parent))
                        }
                        None => atomic_write::write_in(
                            &lock.parent,
                            &lock.name,
                            Some(&lock.file),
                            &mut |out| file.doc.write_to(out),
                        ),
                    };
                    match restore {
                        Ok(()) => restored.push(file.path.real.clone()),
                        Err(e) => not_restored.push((file.path.real.clone(), e)),
                    }
                }
                Done::Created {
                    index,
                    parent,
                    name,
                    folders,
                } => {
                    let path = self.files[index].path.real.clone();
                    match rustix::fs::unlinkat(&parent, &name, AtFlags::empty()) {
                        Ok(()) => removed.push(path),
                        Err(e) => not_restored.push((path, e.into())),
                    }
                    if let Ok((root, _)) = self.ws.handle(&self.files[index].path) {
                        for folder in folders.iter().rev() {
                            let _ = root.remove_dir(folder);
                        }
                    }
                }
            }
        }
        restored.reverse();
        removed.reverse();
        let error = match error {
            WorkspaceError::Write { error, .. } => error,
            other => io::Error::other(other.to_string()),
        };
        WorkspaceError::BatchCommit(Box::new(CommitFailure {
            failed,
            error,
            restored,
            removed,
            not_restored,
            untouched,
        }))
    }

    /// The intent record of a change of several steps, the root whose
    /// history holds it, and the names of each file's new and old bytes.
    /// `None` when a path cannot be written in a record (not Unicode): the
    /// change is then made without one.
    fn intent(
        &self,
        change: &Change,
        order: &[usize],
    ) -> Option<(Intent, PathBuf, Vec<Option<Names>>)> {
        let mut roots: Vec<PathBuf> = Vec::new();
        let mut root_of = |root: &Path| match roots.iter().position(|r| r == root) {
            Some(at) => at,
            None => {
                roots.push(root.to_path_buf());
                roots.len() - 1
            }
        };
        let text = |path: &Path| -> Option<String> {
            let names: Option<Vec<&str>> =
                path.components().map(|c| c.as_os_str().to_str()).collect();
            names.map(|n| n.join("/"))
        };
        let mut names: Vec<Option<Names>> = (0..self.files.len()).map(|_| None).collect();
        let mut files = Vec::with_capacity(order.len());
        for &i in order {
            let file = &self.files[i];
            let after = change.contents[i].as_ref()?;
            let target = file.path.real.file_name()?;
            let staged = own_name(target, STAGED_SUFFIX);
            let backup = file.path.exists.then(|| own_name(target, BACKUP_SUFFIX));
            files.push(IntentFile {
                root: root_of(&file.path.root),
                path: text(file.path.relative())?,
                staged: staged.to_str()?.to_string(),
                backup: match &backup {
                    Some(b) => Some(b.to_str()?.to_string()),
                    None => None,
                },
                before: file.path.exists.then(|| file.doc.hash()),
                after: after.hash(),
                folders: self.new_folders[i]
                    .iter()
                    .map(|f| text(f.strip_prefix(&file.path.root).ok()?))
                    .collect::<Option<_>>()?,
            });
            names[i] = Some(Names { staged, backup });
        }
        let mut moves = Vec::with_capacity(self.relocations.len());
        for plan in &self.relocations {
            let below = |root: &Path, path: &Path| text(path.strip_prefix(root).ok()?);
            let (from_root, to_root) = (&plan.source.root, &plan.destination.root);
            moves.push(IntentMove {
                from_root: root_of(from_root),
                from: text(plan.source.relative())?,
                to_root: root_of(to_root),
                to: text(plan.destination.relative())?,
                folder: plan.kind == EntryKind::Folder,
                made: plan
                    .new_folders
                    .iter()
                    .map(|f| below(to_root, f))
                    .collect::<Option<_>>()?,
                remove_if_empty: plan
                    .remove_if_empty
                    .iter()
                    .map(|f| below(from_root, f))
                    .collect::<Option<_>>()?,
            });
        }
        let home = roots.first()?.clone();
        let intent = Intent {
            id: (0..12).map(|_| fastrand::alphanumeric()).collect(),
            roots: roots
                .iter()
                .map(|r| r.to_str().map(str::to_string))
                .collect::<Option<_>>()?,
            files,
            moves,
        };
        Some((intent, home, names))
    }
}

/// One handle per distinct folder among `folders` (by device and inode).
fn distinct_folders<'a>(folders: impl Iterator<Item = &'a Dir>) -> io::Result<Vec<Dir>> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for folder in folders {
        let stat = rustix::fs::fstat(folder)?;
        if seen.insert((stat.st_dev, stat.st_ino)) {
            out.push(folder.try_clone()?);
        }
    }
    Ok(out)
}
