//! The committer: the one place where files change.
//!
//! A tool plans its change without touching the disk; the committer applies
//! it. [`Workspace::transaction`] resolves every file a change reads or
//! creates, takes every lock it needs in the one global order (folders
//! first, then files, each sorted by real path, shared between the files and
//! any moves of the change), reads every file from its locked handle and
//! checks every `expectedHash`. The tool then computes the new content from
//! what the transaction read, and [`Transaction::commit`] writes it, all
//! before a lock is released:
//!
//! 1. every new content is staged as a synced unnamed file in its target's
//!    folder (folders a new file needs are made first);
//! 2. the staged files are renamed over their targets, new files are linked
//!    under their names (never over anything), then the change's moves are
//!    done;
//! 3. if any step fails, the steps already done are taken back: files written
//!    back from their original bytes, new files removed, moves undone; the
//!    error says what was restored;
//! 4. the change is recorded in the history of its root
//!    ([`super::history`]), with what it replaced.
//!
//! The record is written once the files are in place and while their locks
//! are still held, so a file's records are in the order of its changes. A
//! record that cannot be kept (too large for the history's bounds, or the
//! history folder unwritable) does not undo the change: the outcome says why
//! undo is unavailable for it.
//!
//! ```
//! use mcp_server_text::workspace::{Workspace, WorkspaceOptions};
//! use mcp_server_text::workspace::batch::BatchItem;
//! use mcp_server_text::workspace::commit::{Change, History};
//! use mcp_server_text::text::document::Splice;
//!
//! let dir = tempfile::tempdir().unwrap();
//! std::fs::write(dir.path().join("a.md"), "hello\n").unwrap();
//! let ws = Workspace::new(vec![dir.path().to_path_buf()], WorkspaceOptions::default()).unwrap();
//! let tx = ws.transaction(&[BatchItem::new("a.md")], Vec::new()).unwrap();
//! let after = tx.files()[0].doc.apply(&[Splice::new(0..5, "howdy")]).unwrap();
//! let done = tx.commit(Change::new("TextReplace", vec![Some(after)]), true).unwrap();
//! assert!(matches!(done.history, History::Recorded(_)));
//! assert_eq!(std::fs::read_to_string(dir.path().join("a.md")).unwrap(), "howdy\n");
//! ```

use std::io;
use std::path::{Path, PathBuf};

use cap_std::fs::Dir;

use super::atomic_write::{self, Staged, TempKind};
use super::batch::{BatchFailure, BatchItem, BatchStep, CommitFailure};
use super::beneath::{existing_and_missing, open_parent};
use super::file_lock::{FileLock, FolderLock};
use super::history::record::{Entry, Record, stored_path};
use super::history::store::{self, Appended};
use super::history::{HistoryOptions, is_in_history};
use super::relocate::{EntryKind, Relocation};
use super::roots::ResolvedPath;
use super::timestamp::UtcTime;
use super::{OpenFile, Workspace, WorkspaceError, check_hash_syntax};
use crate::text::byte_delta::Delta;
use crate::text::document::Document;
use crate::text::edit::LineSpan;
use crate::text::encoding::TextEncoding;
use crate::text::hash::hash_matches;

/// A planned change: what a transaction's files become.
#[derive(Debug)]
pub struct Change {
    /// The tool that planned it, as the history names it.
    pub tool: &'static str,
    /// The new content of each file of the transaction, in its order:
    /// `None` leaves a file as it is (and does not create a new one).
    pub contents: Vec<Option<Document>>,
    /// For an undo, the change it undoes.
    pub undoes: Option<String>,
}

impl Change {
    /// A change by `tool` giving the transaction's files `contents`.
    pub fn new(tool: &'static str, contents: Vec<Option<Document>>) -> Change {
        Change {
            tool,
            contents,
            undoes: None,
        }
    }
}

/// What the history made of a committed change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum History {
    /// Recorded under this change id: UndoEdit takes it.
    Recorded(String),
    /// Nothing to record: a dry run, no change, or history switched off.
    NotKept,
    /// The change was made, but could not be recorded, for this reason.
    Unavailable(String),
}

impl History {
    /// The change id, when the change was recorded.
    pub fn change_id(&self) -> Option<&str> {
        match self {
            History::Recorded(id) => Some(id),
            _ => None,
        }
    }

    /// The note a reply carries when undo is not available for its change.
    pub fn note(&self) -> Option<String> {
        match self {
            History::Unavailable(why) => {
                Some(format!("UndoEdit is not available for this change: {why}"))
            }
            _ => None,
        }
    }
}

/// The files of a change, locked and read, until it is committed or dropped.
#[derive(Debug)]
pub struct Transaction<'w> {
    ws: &'w Workspace,
    files: Vec<OpenFile>,
    new_folders: Vec<Vec<PathBuf>>,
    lock_of: Vec<Option<usize>>,
    file_locks: Vec<FileLock>,
    // Held, not read: they keep creates and moves from racing.
    _folder_locks: Vec<FolderLock>,
    relocations: Vec<Relocation>,
}

/// A committed (or, in a dry run, checked) change.
#[derive(Debug)]
pub struct Committed {
    /// The files as the transaction read them (an empty document for a file
    /// that did not exist).
    pub before: Vec<OpenFile>,
    /// What each became (`None`: left as it was).
    pub after: Vec<Option<Document>>,
    /// The folders made (in a dry run: that would be made) for each new file.
    pub new_folders: Vec<Vec<PathBuf>>,
    /// Whether anything was written (false in a dry run).
    pub written: bool,
    /// The history record.
    pub history: History,
}

/// One lock to take, and which files of the transaction it serves.
struct Wanted {
    path: ResolvedPath,
    for_file: Option<usize>,
}

impl Workspace {
    /// Opens the transaction of a change: resolves `items` (existing files,
    /// or with `may_be_new` files that may not exist yet) and `relocations`,
    /// takes every lock, reads every existing file and checks its expected
    /// hash. A failure about one item carries its index.
    pub fn transaction(
        &self,
        items: &[BatchItem<'_>],
        relocations: Vec<Relocation>,
    ) -> Result<Transaction<'_>, BatchFailure<WorkspaceError>> {
        let fail = |index: Option<usize>, error: WorkspaceError| BatchFailure { index, error };
        let mut paths: Vec<ResolvedPath> = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            if let Some(expected) = item.expected_hash {
                check_hash_syntax(expected).map_err(|e| fail(Some(i), e))?;
            }
            let path = if item.may_be_new {
                self.resolve_new_file(item.given)
            } else {
                self.resolve_file(item.given)
            }
            .map_err(|e| fail(Some(i), e))?;
            if is_in_history(&path) {
                return Err(fail(Some(i), WorkspaceError::InHistory { path: path.real }));
            }
            if let Some(first) = paths.iter().position(|p| p.real == path.real) {
                return Err(fail(
                    Some(i),
                    WorkspaceError::Duplicate {
                        path: path.real,
                        first,
                        second: i,
                    },
                ));
            }
            paths.push(path);
        }
        for plan in &relocations {
            for end in [&plan.source, &plan.destination] {
                if is_in_history(end) {
                    return Err(fail(
                        None,
                        WorkspaceError::InHistory {
                            path: end.real.clone(),
                        },
                    ));
                }
            }
        }

        // Every lock of the change, in one order.
        let mut folders: Vec<Wanted> = Vec::new();
        let mut files: Vec<Wanted> = Vec::new();
        let mut new_folders = vec![Vec::new(); paths.len()];
        for (i, path) in paths.iter().enumerate() {
            if path.exists {
                files.push(Wanted {
                    path: path.clone(),
                    for_file: Some(i),
                });
                continue;
            }
            let (root, rel) = self.handle(path).map_err(|e| fail(Some(i), e))?;
            let (existing, missing) = existing_and_missing(&root, &rel)
                .map_err(|e| fail(Some(i), self.write_error(path, e)))?;
            new_folders[i] = missing.iter().map(|m| path.root.join(m)).collect();
            folders.push(Wanted {
                path: ResolvedPath {
                    real: path.root.join(existing),
                    root: path.root.clone(),
                    exists: true,
                },
                for_file: Some(i),
            });
        }
        for plan in &relocations {
            let (f, l) = self.move_lock_paths(plan).map_err(|e| fail(None, e))?;
            folders.extend(f.into_iter().map(|path| Wanted {
                path,
                for_file: None,
            }));
            files.extend(l.into_iter().map(|path| Wanted {
                path,
                for_file: None,
            }));
        }
        folders.sort_by(|a, b| a.path.real.cmp(&b.path.real));
        folders.dedup_by(|a, b| a.path.real == b.path.real);
        files.sort_by(|a, b| {
            a.path
                .real
                .cmp(&b.path.real)
                .then(b.for_file.is_some().cmp(&a.for_file.is_some()))
        });
        let mut folder_locks = Vec::with_capacity(folders.len());
        for wanted in &folders {
            folder_locks.push(
                self.lock_folder(&wanted.path)
                    .map_err(|e| fail(wanted.for_file, e))?,
            );
        }
        let mut file_locks: Vec<FileLock> = Vec::with_capacity(files.len());
        let mut lock_of = vec![None; paths.len()];
        let mut last: Option<&Path> = None;
        for wanted in &files {
            // A file both edited and moved is locked once; the edit's entry
            // sorts first, so it is the one that names the lock.
            if last == Some(wanted.path.real.as_path()) {
                continue;
            }
            last = Some(&wanted.path.real);
            let lock = self
                .lock(&wanted.path)
                .map_err(|e| fail(wanted.for_file, e))?;
            if let Some(i) = wanted.for_file {
                lock_of[i] = Some(file_locks.len());
            }
            file_locks.push(lock);
        }

        let mut open = Vec::with_capacity(paths.len());
        for (i, (item, path)) in items.iter().zip(paths).enumerate() {
            let doc = match lock_of[i] {
                Some(l) => {
                    let doc = super::read::read_document(
                        &file_locks[l].file,
                        self.options.max_file_size,
                        item.encoding,
                    )
                    .map_err(|e| fail(Some(i), self.read_error(&path, e)))?;
                    if let Some(expected) = item.expected_hash {
                        super::warm(&doc, || ());
                        let actual = doc.hash();
                        if !hash_matches(expected, &actual) {
                            return Err(fail(
                                Some(i),
                                WorkspaceError::StaleHash {
                                    path: path.real.clone(),
                                    expected: expected.trim().to_string(),
                                    actual,
                                },
                            ));
                        }
                    }
                    doc
                }
                None => {
                    // Under the folder's lock nothing can appear by this
                    // program's hand; another writer may have been faster.
                    let (root, rel) = self.handle(&path).map_err(|e| fail(Some(i), e))?;
                    if root.symlink_metadata(&rel).is_ok() {
                        return Err(fail(
                            Some(i),
                            WorkspaceError::AlreadyExists { path: path.real },
                        ));
                    }
                    empty_document(item.encoding)
                }
            };
            open.push(OpenFile { path, doc });
        }
        Ok(Transaction {
            ws: self,
            files: open,
            new_folders,
            lock_of,
            file_locks,
            _folder_locks: folder_locks,
            relocations,
        })
    }

    /// The error of a write to `path` through its root's handle.
    fn write_error(&self, path: &ResolvedPath, error: io::Error) -> WorkspaceError {
        self.io_error(path, error, |error| WorkspaceError::Write {
            path: path.real.clone(),
            error,
        })
    }
}

/// What a file that does not exist yet reads as.
fn empty_document(encoding: Option<TextEncoding>) -> Document {
    let encoding = encoding.unwrap_or(TextEncoding::Utf8);
    Document::from_text("", encoding, false)
        .unwrap_or_else(|_| Document::decode(Vec::new(), None).expect("no bytes decode"))
}

/// A new file's folder and the folders made for it.
type NewFile = (Dir, Vec<PathBuf>);

/// A step of writing that was done, to be taken back if a later one fails.
enum Done {
    Replaced(usize),
    Created {
        index: usize,
        parent: Dir,
        name: std::ffi::OsString,
        folders: Vec<PathBuf>,
    },
}

impl<'w> Transaction<'w> {
    /// The files, as read under their locks (a file that does not exist yet
    /// has `path.exists` false and an empty document).
    pub fn files(&self) -> &[OpenFile] {
        &self.files
    }

    /// The folders that will be made for file `index`, if it is new.
    pub fn new_folders(&self, index: usize) -> &[PathBuf] {
        &self.new_folders[index]
    }

    /// Writes `change` (unless `write` is false: a dry run), records it, and
    /// releases the locks. On failure nothing is changed, or the error says
    /// exactly what could not be put back.
    pub fn commit(
        self,
        change: Change,
        write: bool,
    ) -> Result<Committed, BatchFailure<WorkspaceError>> {
        assert_eq!(
            change.contents.len(),
            self.files.len(),
            "one content (or None) per file of the transaction"
        );
        let changed: Vec<usize> = (0..self.files.len())
            .filter(|&i| match &change.contents[i] {
                Some(after) if self.files[i].path.exists => {
                    after.bytes() != self.files[i].doc.bytes()
                }
                Some(_) => true,
                None => false,
            })
            .collect();
        let nothing = changed.is_empty() && self.relocations.is_empty();
        let history = if !write || nothing {
            History::NotKept
        } else {
            let options = &self.ws.options.history;
            // The record's hashes and deltas take a core while the other
            // writes and syncs.
            let (applied, entries) = std::thread::scope(|scope| {
                let prepare = scope.spawn(|| {
                    if options.enabled {
                        Some(self.entries(&change, &changed))
                    } else {
                        for &i in &changed {
                            if let Some(after) = &change.contents[i] {
                                after.hash();
                                after.lines();
                            }
                        }
                        None
                    }
                });
                let applied = self.apply(&change, &changed);
                (
                    applied,
                    prepare.join().expect("preparing a record does not panic"),
                )
            });
            applied?;
            match entries {
                None => History::NotKept,
                Some(Err(why)) => History::Unavailable(why),
                Some(Ok((root, entries, payload))) => {
                    self.record(&root, change.tool, change.undoes, entries, &payload)
                }
            }
        };
        Ok(Committed {
            before: self.files,
            after: change.contents,
            new_folders: self.new_folders,
            written: write,
            history,
        })
    }

    /// Stages every changed file, puts them all in place, then does the
    /// moves; takes everything back if a step fails.
    fn apply(
        &self,
        change: &Change,
        changed: &[usize],
    ) -> Result<(), BatchFailure<WorkspaceError>> {
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

        let mut staged: Vec<(usize, Staged, Option<NewFile>)> = Vec::new();
        let mut made_folders: Vec<(usize, Vec<PathBuf>)> = Vec::new();
        let take_back_folders = |made: &[(usize, Vec<PathBuf>)]| {
            for (i, folders) in made.iter().rev() {
                if let Ok((root, _)) = ws.handle(&self.files[*i].path) {
                    for folder in folders.iter().rev() {
                        let _ = root.remove_dir(folder);
                    }
                }
            }
        };
        for &i in &order {
            let file = &self.files[i];
            let target = &file.path.real;
            let after = change.contents[i]
                .as_ref()
                .expect("changed files have content");
            let stage = ws
                .hook(BatchStep::Stage { index: i, target })
                .and_then(|()| match self.lock_of[i] {
                    Some(l) => {
                        let lock = &self.file_locks[l];
                        let keep = lock.file.metadata()?;
                        atomic_write::stage(
                            &lock.parent,
                            &lock.name,
                            Some(&keep),
                            TempKind::Unnamed,
                            &mut |out| after.write_to(out),
                        )
                        .map(|s| (s, None))
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
                        let (parent, name) = open_parent(&root, &rel)?;
                        let staged = atomic_write::stage(
                            &parent,
                            name,
                            None,
                            TempKind::Unnamed,
                            &mut |out| after.write_to(out),
                        )?;
                        Ok((staged, Some((parent, made))))
                    }
                });
            match stage {
                Ok((s, created)) => staged.push((i, s, created)),
                Err(error) => {
                    // Dropping the staged files removes their temp files.
                    drop(staged);
                    take_back_folders(&made_folders);
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
                .and_then(|()| {
                    if is_new {
                        stage.commit_new()
                    } else {
                        stage.commit()
                    }
                });
            if let Err(error) = result {
                let untouched = pending
                    .map(|(j, _, _)| self.files[j].path.real.clone())
                    .collect();
                let error = if is_new && error.kind() == io::ErrorKind::AlreadyExists {
                    WorkspaceError::AlreadyExists {
                        path: target.clone(),
                    }
                } else {
                    WorkspaceError::Write {
                        path: target.clone(),
                        error,
                    }
                };
                let failure = self.take_back(done, error, target, untouched);
                take_back_folders(&made_folders);
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

        let mut moved: Vec<(usize, Vec<PathBuf>)> = Vec::new();
        for (m, plan) in self.relocations.iter().enumerate() {
            match ws.relocate_held(plan) {
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
                        return Err(fail(None, error));
                    }
                    let message = io::Error::other(error.to_string());
                    let mut failure = match self.take_back(
                        done,
                        WorkspaceError::Write {
                            path: plan.source.real.clone(),
                            error: message,
                        },
                        plan.source.real.clone(),
                        Vec::new(),
                    ) {
                        WorkspaceError::BatchCommit(f) => f,
                        other => return Err(fail(None, other)),
                    };
                    failure.not_restored.extend(not_moved_back);
                    return Err(fail(None, WorkspaceError::BatchCommit(failure)));
                }
            }
        }
        Ok(())
    }

    /// Takes back the writes in `done` after `error` stopped the change at
    /// `failed`; the error says what was restored.
    fn take_back(
        &self,
        done: Vec<Done>,
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
                    let restore = lock.file.metadata().and_then(|keep| {
                        atomic_write::write_in(&lock.parent, &lock.name, Some(&keep), &mut |out| {
                            file.doc.write_to(out)
                        })
                    });
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
                    match rustix::fs::unlinkat(&parent, &name, rustix::fs::AtFlags::empty()) {
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

    /// The history entries of a change and the bytes they keep, or why the
    /// change cannot be recorded.
    #[allow(clippy::type_complexity)]
    fn entries(
        &self,
        change: &Change,
        changed: &[usize],
    ) -> Result<(PathBuf, Vec<Entry>, Vec<Vec<u8>>), String> {
        let root = changed
            .first()
            .map(|&i| self.files[i].path.root.clone())
            .or_else(|| self.relocations.first().map(|r| r.source.root.clone()))
            .ok_or_else(|| "nothing changed".to_string())?;
        let stored = |real: &Path| {
            stored_path(&root, real).ok_or_else(|| {
                format!(
                    "the path {} is not valid Unicode, so the history cannot name it",
                    real.display()
                )
            })
        };
        let mut entries = Vec::new();
        let mut payload = Vec::new();
        for &i in changed {
            let file = &self.files[i];
            let after = change.contents[i]
                .as_ref()
                .expect("changed files have content");
            if !file.path.exists {
                entries.push(Entry::Create {
                    path: stored(&file.path.real)?,
                    hash_after: after.hash(),
                    lines: after.line_count(),
                });
                continue;
            }
            let before = &file.doc;
            let (old, new) = (before.bytes(), after.bytes());
            let delta = Delta::between(&old, &new);
            payload.push(delta.old_middle(&old).to_vec());
            entries.push(Entry::Edit {
                path: stored(&file.path.real)?,
                encoding: before.encoding().name().to_string(),
                hash_before: before.hash(),
                hash_after: after.hash(),
                affected_lines: affected_lines(before, after),
                lines_delta: after.line_count() as isize - before.line_count() as isize,
                prefix: delta.prefix as u64,
                old_len: delta.old_len as u64,
                new_len: delta.new_len as u64,
            });
        }
        for plan in &self.relocations {
            entries.push(Entry::Move {
                from: stored(&plan.source.real)?,
                to: stored(&plan.destination.real)?,
                folder: plan.kind == EntryKind::Folder,
                made: plan
                    .new_folders
                    .iter()
                    .map(|f| stored(f))
                    .collect::<Result<_, _>>()?,
            });
        }
        Ok((root, entries, payload))
    }

    /// Keeps the record of a written change in `root`'s history.
    fn record(
        &self,
        root: &Path,
        tool: &'static str,
        undoes: Option<String>,
        entries: Vec<Entry>,
        payload: &[Vec<u8>],
    ) -> History {
        let options: &HistoryOptions = &self.ws.options.history;
        let roots = self.ws.roots();
        let Some(dir) = roots.dir(root) else {
            return History::Unavailable("its root is no longer served".into());
        };
        let record = Record {
            change_id: String::new(),
            time: UtcTime::now().rfc3339(),
            tool: tool.to_string(),
            undoes,
            entries,
        };
        let pieces: Vec<&[u8]> = payload.iter().map(Vec::as_slice).collect();
        match store::append(dir, options, self.ws.options.lock_timeout, record, &pieces) {
            Ok(Appended::Kept { change_id }) => History::Recorded(change_id),
            Ok(Appended::TooLarge { size, limit }) => History::Unavailable(format!(
                "keeping what it replaced would take {}, more than the history of a root may hold ({}, set by --history-max-bytes)",
                super::read::human_size(size),
                super::read::human_size(limit)
            )),
            Err(e) => History::Unavailable(format!("the history could not be written: {e}")),
        }
    }
}

/// The lines that differ between `before` and `after`, numbered in `after`:
/// an empty span (`end = start - 1`) where lines were only removed.
pub fn affected_lines(before: &Document, after: &Document) -> LineSpan {
    let delta = Delta::between(before.text().as_bytes(), after.text().as_bytes());
    if delta.is_empty() {
        return LineSpan::new(1, 0);
    }
    let lines = after.lines();
    let start = lines.line_of_offset(delta.prefix);
    if delta.new_len == 0 {
        // A removal at the start of a line sits before that line.
        let at_line_start =
            delta.prefix == 0 || after.text().as_bytes().get(delta.prefix - 1) == Some(&b'\n');
        let start = if at_line_start && delta.prefix >= after.text().len() {
            after.line_count() + 1
        } else {
            start
        };
        return LineSpan::new(start, start.saturating_sub(1));
    }
    let end = lines.line_of_offset(delta.prefix + delta.new_len - 1);
    LineSpan::new(start, end.max(start))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::WorkspaceOptions;

    fn doc(text: &str) -> Document {
        Document::decode(text.as_bytes().to_vec(), None).unwrap()
    }

    #[test]
    fn affected_lines_are_numbered_in_the_new_file() {
        let span = |a: &str, b: &str| {
            let s = affected_lines(&doc(a), &doc(b));
            (s.start, s.end)
        };
        assert_eq!(span("a\nb\nc\n", "a\nB\nc\n"), (2, 2));
        assert_eq!(span("a\nb\nc\n", "a\nb\nx\ny\nc\n"), (3, 4));
        assert_eq!(span("a\nb\nc\n", "a\nc\n"), (2, 1));
        assert_eq!(span("a\nb\n", "a\nb\nc\n"), (3, 3));
        assert_eq!(span("a\nb\nc\n", "a\nb\n"), (3, 2));
        assert_eq!(span("a\n", "a\n"), (1, 0));
    }

    #[test]
    fn edits_moves_and_creates_commit_together_and_are_recorded_once() {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        std::fs::write(root.join("a.md"), "a\n").unwrap();
        std::fs::write(root.join("b.md"), "b\n").unwrap();
        let ws = Workspace::new(vec![root.clone()], WorkspaceOptions::default()).unwrap();
        let plan = ws.plan_move("b.md", "moved/b.md").unwrap();
        let items = [
            BatchItem::new("a.md"),
            BatchItem::new_or_existing("new/c.md"),
        ];
        let tx = ws.transaction(&items, vec![plan]).unwrap();
        assert!(!tx.files()[1].path.exists);
        assert_eq!(tx.new_folders(1), [root.join("new")]);
        let contents = vec![Some(doc("A\n")), Some(doc("c\n"))];
        let done = tx.commit(Change::new("Batch", contents), true).unwrap();
        assert_eq!(std::fs::read(root.join("a.md")).unwrap(), b"A\n");
        assert_eq!(std::fs::read(root.join("new/c.md")).unwrap(), b"c\n");
        assert_eq!(std::fs::read(root.join("moved/b.md")).unwrap(), b"b\n");
        let id = done.history.change_id().unwrap().to_string();
        let history = store::open(&ws.roots().dir(&root).unwrap().clone())
            .unwrap()
            .unwrap();
        let names = store::list(&history).unwrap();
        assert_eq!(names.len(), 1);
        let (record, payload) = store::read(&history, &names[0]).unwrap();
        assert_eq!(record.change_id, id);
        assert_eq!(record.tool, "Batch");
        assert_eq!(record.entries.len(), 3);
        assert_eq!(payload, b"a");
    }

    #[test]
    fn a_failed_move_takes_back_the_files_already_written() {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        std::fs::write(root.join("a.md"), "a\n").unwrap();
        std::fs::write(root.join("b.md"), "b\n").unwrap();
        let ws = Workspace::new(vec![root.clone()], WorkspaceOptions::default()).unwrap();
        let plan = ws.plan_move("b.md", "c.md").unwrap();
        let tx = ws
            .transaction(
                &[BatchItem::new("a.md"), BatchItem::new_or_existing("n.md")],
                vec![plan],
            )
            .unwrap();
        // Something takes the destination after the plan: the move fails.
        std::fs::write(root.join("c.md"), "theirs").unwrap();
        let err = tx
            .commit(
                Change::new("Move", vec![Some(doc("A\n")), Some(doc("n\n"))]),
                true,
            )
            .unwrap_err();
        let message = err.error.to_string();
        assert!(message.contains("already exists"), "{message}");
        assert!(message.contains("no file was changed"), "{message}");
        assert_eq!(std::fs::read(root.join("a.md")).unwrap(), b"a\n");
        assert!(!root.join("n.md").exists());
        assert_eq!(std::fs::read(root.join("b.md")).unwrap(), b"b\n");
        assert_eq!(std::fs::read(root.join("c.md")).unwrap(), b"theirs");
        assert!(
            !root.join(".history").exists(),
            "a change that failed is not recorded"
        );
    }

    #[test]
    fn the_history_folder_cannot_be_written_by_tools() {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        std::fs::create_dir(root.join(".history")).unwrap();
        std::fs::write(root.join(".history/x.md"), "x").unwrap();
        let ws = Workspace::new(vec![root.clone()], WorkspaceOptions::default()).unwrap();
        let err = ws
            .transaction(&[BatchItem::new(".history/x.md")], Vec::new())
            .unwrap_err();
        assert!(
            matches!(err.error, WorkspaceError::InHistory { .. }),
            "{}",
            err.error
        );
        let plan = ws.plan_move(".history/x.md", "x.md").unwrap();
        assert!(ws.transaction(&[], vec![plan]).is_err());
    }
}
