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
//!    folder (folders a new file needs are made first); a change of several
//!    files first writes its intent record ([`intent`]), stages every file
//!    without syncing it, then syncs them all at once and commits the
//!    record;
//! 2. the staged files are renamed over their targets, new files are linked
//!    under their names (never over anything), their folders are synced
//!    (once each, after every rename, for a change of several files), then
//!    the change's moves are done;
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
//! use mcp_server_text::workspace::commit::{BatchItem, Change, History};
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

mod apply;
mod change;
pub mod guard;
pub mod hook;
pub mod intent;
mod moves;
mod record;
mod recover;
pub mod writers;

pub use change::{BatchFailure, BatchItem, Change, Committed, History};
pub use hook::{BatchHook, BatchStep};
pub use moves::{EntryKind, Relocation};
pub use record::affected_lines;

pub use recover::Recovered;

use std::io;
use std::path::{Path, PathBuf};

use guard::{FileState, Unwritable};

use super::beneath::existing_and_missing;
use super::file_lock::{FileLock, FolderLock};
use super::history::is_in_history;
use super::read::ReadError;
use super::roots::ResolvedPath;
use super::trash::is_in_trash;
use super::{OpenFile, Workspace, WorkspaceError, check_hash_syntax};
use crate::text::document::Document;
use crate::text::encoding::TextEncoding;
use crate::text::hash::hash_matches;

/// The files of a change, locked and read, until it is committed or dropped.
#[derive(Debug)]
pub struct Transaction<'w> {
    ws: &'w Workspace,
    files: Vec<OpenFile>,
    new_folders: Vec<Vec<PathBuf>>,
    lock_of: Vec<Option<usize>>,
    file_locks: Vec<FileLock>,
    /// Each existing file's state when it was read, to check just before
    /// its rename that nobody changed it meanwhile.
    states: Vec<Option<FileState>>,
    // Held, not read: they keep creates and moves from racing.
    _folder_locks: Vec<FolderLock>,
    relocations: Vec<Relocation>,
}

/// One lock to take, and which files of the transaction it serves.
struct Wanted {
    path: ResolvedPath,
    for_file: Option<usize>,
}

impl Workspace {
    /// Installs (or with `None` removes) the hook called at each step of
    /// writing a batch.
    pub fn set_batch_hook(&self, hook: Option<BatchHook>) {
        *self.batch_hook.write().unwrap_or_else(|e| e.into_inner()) = hook;
    }

    /// Runs the hook, if one is installed, for `step`.
    pub(crate) fn hook(&self, step: BatchStep<'_>) -> io::Result<()> {
        let hook = self
            .batch_hook
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        match hook {
            Some(hook) => hook.call(step),
            None => Ok(()),
        }
    }

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
            // A file in the trash changes only by leaving it: a Move out of
            // the trash may rewrite the links of the file it moves.
            let leaves_trash = relocations
                .iter()
                .any(|r| path.real.starts_with(&r.source.real) && !is_in_trash(&r.destination));
            if is_in_trash(&path) && !leaves_trash {
                return Err(fail(Some(i), WorkspaceError::InTrash { path: path.real }));
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

        // A change of several files a killed process left half done is
        // finished or taken back before any of its files is touched again.
        let mut touched: Vec<&Path> = paths.iter().map(|p| p.root.as_path()).collect();
        touched.extend(
            relocations
                .iter()
                .flat_map(|r| [&*r.source.root, &*r.destination.root]),
        );
        touched.sort();
        touched.dedup();
        self.recover_interrupted_in(&touched);

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
        let mut states = vec![None; paths.len()];
        for (i, (item, path)) in items.iter().zip(paths).enumerate() {
            let doc = match lock_of[i] {
                Some(l) => {
                    // Looked at before the bytes are read: a change while
                    // they are read shows as one before the rename.
                    states[i] =
                        Some(FileState::of(&file_locks[l].file).map_err(|e| {
                            fail(Some(i), self.read_error(&path, ReadError::Io(e)))
                        })?);
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
            states,
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

impl<'w> Transaction<'w> {
    /// Refuses a change of an existing file this process may not replace:
    /// one without a write bit, or with other names (see [`guard`]).
    fn check_writable(&self, changed: &[usize]) -> Result<(), BatchFailure<WorkspaceError>> {
        for &i in changed {
            let Some(l) = self.lock_of[i] else {
                continue;
            };
            let lock = &self.file_locks[l];
            let path = self.files[i].path.real.clone();
            let found =
                guard::check_writable(&lock.parent, &lock.name, &lock.file).map_err(|error| {
                    BatchFailure {
                        index: Some(i),
                        error: WorkspaceError::Write {
                            path: path.clone(),
                            error,
                        },
                    }
                })?;
            let error = match found {
                None => continue,
                Some(Unwritable::ReadOnly(mode)) => WorkspaceError::ReadOnlyFile { path, mode },
                Some(Unwritable::HardLinked(links)) => WorkspaceError::HardLinked { path, links },
            };
            return Err(BatchFailure {
                index: Some(i),
                error,
            });
        }
        Ok(())
    }

    /// The files, as read under their locks (a file that does not exist yet
    /// has `path.exists` false and an empty document).
    pub fn files(&self) -> &[OpenFile] {
        &self.files
    }

    /// The folders that will be made for file `index`, if it is new.
    pub fn new_folders(&self, index: usize) -> &[PathBuf] {
        &self.new_folders[index]
    }

    /// Works out the hashes and line indexes the reply and the record need:
    /// the new contents', and the old ones' when `before` (the record keeps
    /// them). Each side hashes on a thread of its own when the change is
    /// large, since hashing, not the disk, is then the longest step.
    fn hash_both_sides(&self, change: &Change, changed: &[usize], before: bool) {
        let olds = || {
            for &i in changed {
                if self.files[i].path.exists {
                    self.files[i].doc.hash();
                }
            }
        };
        let news = || {
            for after in changed.iter().filter_map(|&i| change.contents[i].as_ref()) {
                after.hash();
                after.lines();
            }
        };
        let large = changed
            .iter()
            .map(|&i| {
                let after = change.contents[i].as_ref().map_or(0, |d| d.byte_len());
                after.max(self.files[i].doc.byte_len())
            })
            .sum::<usize>()
            >= super::PARALLEL_MIN_BYTES;
        if before && large {
            std::thread::scope(|scope| {
                scope.spawn(olds);
                news();
            });
        } else {
            if before {
                olds();
            }
            news();
        }
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
        // A dry run is refused as the write would be.
        self.check_writable(&changed)?;
        let nothing = changed.is_empty() && self.relocations.is_empty();
        let history = if !write || nothing {
            History::NotKept
        } else {
            let options = &self.ws.options.history;
            // The record's hashes and deltas take a core while the other
            // writes and syncs.
            let (applied, entries) = std::thread::scope(|scope| {
                let prepare = scope.spawn(|| {
                    self.hash_both_sides(&change, &changed, options.enabled);
                    options.enabled.then(|| self.entries(&change, &changed))
                });
                let applied = self.apply(&change, &changed);
                (
                    applied,
                    prepare.join().expect("preparing a record does not panic"),
                )
            });
            let applied = applied?;
            let history = match entries {
                None => History::NotKept,
                Some(Err(why)) => History::Unavailable(why),
                Some(Ok((root, entries, payload))) => {
                    self.record(&root, change.tool, change.undoes, entries, &payload)
                }
            };
            // Recorded, the change is whole: its intent has served.
            if let Some(intent) = applied.intent
                && let Err(e) = intent.remove()
            {
                tracing::warn!("could not remove the intent record of a finished change: {e}");
            }
            history
        };
        Ok(Committed {
            before: self.files,
            after: change.contents,
            new_folders: self.new_folders,
            written: write,
            history,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::WorkspaceOptions;
    use crate::workspace::history::store;

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
        let history = store::open(&ws.roots().dir(&root).unwrap().clone())
            .unwrap()
            .unwrap();
        assert!(
            store::list(&history).unwrap().is_empty(),
            "a change that failed is not recorded"
        );
        // Its intent record is gone with it.
        let intents = root.join(".history").join(intent::INTENTS_DIR);
        assert_eq!(std::fs::read_dir(intents).unwrap().count(), 0);
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
