//! Edits through the committer ([`super::commit`]): of one file
//! ([`Workspace::edit`]), or of several existing files, all or nothing
//! ([`Workspace::edit_batch`]).
//!
//! A batch resolves every path, refuses the same file named twice, takes
//! every file's lock in one fixed order (sorted real paths, so two batches
//! over the same files cannot deadlock) and holds them all to the end. It
//! then reads every file, checks every expected hash, and computes every new
//! document before anything is written: one failure and no file changes.
//! The committer then writes them all or none, across a crash too.
//!
//! ```
//! use mcp_server_text::workspace::{Workspace, WorkspaceOptions, WorkspaceError};
//! use mcp_server_text::workspace::commit::BatchItem;
//! use mcp_server_text::text::document::Splice;
//!
//! let dir = tempfile::tempdir().unwrap();
//! std::fs::write(dir.path().join("a.txt"), "a\n").unwrap();
//! std::fs::write(dir.path().join("b.txt"), "b\n").unwrap();
//! let ws = Workspace::new(vec![dir.path().to_path_buf()], WorkspaceOptions::default()).unwrap();
//! let items = [BatchItem::new("a.txt"), BatchItem::new("b.txt")];
//! let done = ws
//!     .edit_batch("upper", &items, true, |_, file| {
//!         let upper = file.doc.text().to_uppercase();
//!         let len = file.doc.text().len();
//!         Ok::<_, WorkspaceError>((file.doc.apply(&[Splice::new(0..len, upper)]).unwrap(), ()))
//!     })
//!     .unwrap();
//! assert_eq!(done.len(), 2);
//! assert_eq!(std::fs::read_to_string(dir.path().join("b.txt")).unwrap(), "B\n");
//! ```

use super::commit::{BatchFailure, BatchItem, Change, History};
use super::roots::ResolvedPath;
use super::{OpenFile, Workspace, WorkspaceError};
use crate::text::document::Document;

/// The result of [`Workspace::edit`].
#[derive(Debug)]
pub struct Edited<T> {
    /// The edited file.
    pub path: ResolvedPath,
    /// The document before the edit.
    pub before: Document,
    /// The document after the edit (what was, or in a dry run would be, written).
    pub after: Document,
    /// Whatever the edit function returned besides the document.
    pub value: T,
    /// Whether the file was written (false in a dry run).
    pub written: bool,
    /// The change's history record.
    pub history: History,
}

impl Workspace {
    /// Edits (or, with `item.may_be_new`, perhaps creates) one file through
    /// the committer: under its lock, reads it, checks the expected hash,
    /// calls `change` for the new document, and (unless `write` is false, a
    /// dry run) writes it atomically and records it as a change of `tool`.
    /// Nothing is written if any step fails.
    pub fn edit<T, E: From<WorkspaceError>>(
        &self,
        tool: &'static str,
        item: BatchItem<'_>,
        write: bool,
        change: impl FnOnce(&OpenFile) -> Result<(Document, T), E>,
    ) -> Result<Edited<T>, E> {
        let transaction = self
            .transaction(std::slice::from_ref(&item), Vec::new())
            .map_err(|f| E::from(f.error))?;
        let (after, value) = change(&transaction.files()[0])?;
        let mut done = transaction
            .commit(Change::new(tool, vec![Some(after)]), write)
            .map_err(|f| E::from(f.error))?;
        let before = done.before.pop().expect("one file");
        let after = done
            .after
            .pop()
            .flatten()
            .expect("the content given is returned");
        Ok(Edited {
            path: before.path,
            before: before.doc,
            after,
            value,
            written: write,
            history: done.history,
        })
    }

    /// Edits every file of `items` or none: `change` computes each file's new
    /// document (it is called for every file, in order, before anything is
    /// written), and unless `write` is false (a dry run) all are written
    /// together and recorded as one change of `tool`. The results are in the
    /// order of `items`.
    pub fn edit_batch<T, E: From<WorkspaceError>>(
        &self,
        tool: &'static str,
        items: &[BatchItem<'_>],
        write: bool,
        mut change: impl FnMut(usize, &OpenFile) -> Result<(Document, T), E>,
    ) -> Result<Vec<Edited<T>>, BatchFailure<E>> {
        let lift = |f: BatchFailure<WorkspaceError>| BatchFailure {
            index: f.index,
            error: E::from(f.error),
        };
        let transaction = self.transaction(items, Vec::new()).map_err(lift)?;
        let mut contents = Vec::with_capacity(items.len());
        let mut values = Vec::with_capacity(items.len());
        for (i, file) in transaction.files().iter().enumerate() {
            let (after, value) = change(i, file).map_err(|error| BatchFailure {
                index: Some(i),
                error,
            })?;
            contents.push(Some(after));
            values.push(value);
        }
        let done = transaction
            .commit(Change::new(tool, contents), write)
            .map_err(lift)?;
        let history = done.history;
        Ok(done
            .before
            .into_iter()
            .zip(done.after)
            .zip(values)
            .map(|((file, after), value)| Edited {
                path: file.path,
                after: after.unwrap_or_else(|| file.doc.clone()),
                before: file.doc,
                value,
                written: write,
                history: history.clone(),
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::document::Splice;
    use crate::workspace::WorkspaceOptions;
    use crate::workspace::commit::{BatchHook, BatchStep};
    use std::collections::BTreeMap;
    use std::io;
    use std::path::{Path, PathBuf};
    use std::sync::Arc;

    fn workspace() -> (tempfile::TempDir, PathBuf, Workspace) {
        let dir = tempfile::tempdir().unwrap();
        let base = std::fs::canonicalize(dir.path()).unwrap();
        let root = base.join("root");
        std::fs::create_dir(&root).unwrap();
        let ws = Workspace::new(vec![root.clone()], WorkspaceOptions::default()).unwrap();
        (dir, root, ws)
    }

    fn upper(_: usize, file: &OpenFile) -> Result<(Document, ()), WorkspaceError> {
        let len = file.doc.text().len();
        let upper = file.doc.text().to_uppercase();
        Ok((file.doc.apply(&[Splice::new(0..len, upper)]).unwrap(), ()))
    }

    fn five(root: &Path) -> Vec<String> {
        (1..=5)
            .map(|k| {
                let name = format!("d{k}/f{k}.txt");
                std::fs::create_dir_all(root.join(format!("d{k}"))).unwrap();
                std::fs::write(root.join(&name), format!("file {k}\r\nline two\r\n")).unwrap();
                name
            })
            .collect()
    }

    /// Every file under `root` with its bytes, but for the history folder,
    /// where a change of several files keeps its intent record while it is
    /// written.
    fn snapshot(root: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
        let mut out = BTreeMap::new();
        for entry in std::fs::read_dir(root).unwrap().flatten() {
            if entry.file_name() == crate::workspace::history::HISTORY_DIR {
                let intents = entry
                    .path()
                    .join(crate::workspace::commit::intent::INTENTS_DIR);
                let left = std::fs::read_dir(intents).map_or(0, |d| d.count());
                assert_eq!(left, 0, "no intent record is left");
                continue;
            }
            if entry.path().is_dir() {
                out.extend(snapshot(&entry.path()));
            } else {
                out.insert(entry.path(), std::fs::read(entry.path()).unwrap());
            }
        }
        out
    }

    #[test]
    fn a_failing_change_writes_nothing() {
        let (_dir, root, ws) = workspace();
        let names = five(&root);
        let items: Vec<BatchItem> = names.iter().map(|n| BatchItem::new(n)).collect();
        let before = snapshot(&root);
        let err = ws
            .edit_batch("test", &items, true, |i, file| {
                if i == 3 {
                    Err(WorkspaceError::AlreadyExists {
                        path: file.path.real.clone(),
                    })
                } else {
                    upper(i, file)
                }
            })
            .unwrap_err();
        assert_eq!(err.index, Some(3));
        assert_eq!(snapshot(&root), before);
    }

    #[test]
    fn the_same_file_twice_is_refused() {
        let (_dir, root, ws) = workspace();
        std::fs::write(root.join("a.txt"), "a").unwrap();
        let abs = root.join("a.txt").display().to_string();
        let items = [BatchItem::new("a.txt"), BatchItem::new(&abs)];
        let err = ws.edit_batch("test", &items, true, upper).unwrap_err();
        assert_eq!(err.index, Some(1));
        assert!(
            err.error
                .to_string()
                .contains("is named twice in the batch (files[0] and files[1])"),
            "{}",
            err.error
        );
        assert_eq!(std::fs::read(root.join("a.txt")).unwrap(), b"a");
    }

    #[test]
    fn a_stale_hash_anywhere_stops_the_batch() {
        let (_dir, root, ws) = workspace();
        let names = five(&root);
        let mut items: Vec<BatchItem> = names.iter().map(|n| BatchItem::new(n)).collect();
        items[4].expected_hash = Some("0123456789abcdef");
        let before = snapshot(&root);
        let err = ws.edit_batch("test", &items, true, upper).unwrap_err();
        assert_eq!(err.index, Some(4));
        assert!(matches!(err.error, WorkspaceError::StaleHash { .. }));
        assert_eq!(snapshot(&root), before);
    }

    #[test]
    fn a_failed_stage_writes_nothing_and_leaves_no_temp_files() {
        let (_dir, root, ws) = workspace();
        let names = five(&root);
        let items: Vec<BatchItem> = names.iter().map(|n| BatchItem::new(n)).collect();
        let before = snapshot(&root);
        ws.set_batch_hook(Some(BatchHook::new(|step| match step {
            BatchStep::Stage { index: 4, .. } => Err(io::Error::other("no space left")),
            _ => Ok(()),
        })));
        let err = ws.edit_batch("test", &items, true, upper).unwrap_err();
        assert_eq!(err.index, Some(4));
        assert!(
            err.error.to_string().contains("no space left"),
            "{}",
            err.error
        );
        assert_eq!(
            snapshot(&root),
            before,
            "no file changed, no temp file left"
        );
    }

    #[test]
    fn a_failed_rename_midway_restores_the_files_already_renamed() {
        let (_dir, root, ws) = workspace();
        let names = five(&root);
        let items: Vec<BatchItem> = names.iter().map(|n| BatchItem::new(n)).collect();
        let before = snapshot(&root);
        // The fourth rename fails (as on a full or read-only file system).
        ws.set_batch_hook(Some(BatchHook::new(|step| match step {
            BatchStep::Commit { index: 3, .. } => Err(io::Error::other("read-only file system")),
            _ => Ok(()),
        })));
        let err = ws.edit_batch("test", &items, true, upper).unwrap_err();
        assert_eq!(err.index, Some(3));
        let WorkspaceError::BatchCommit(failure) = &err.error else {
            panic!("{}", err.error)
        };
        assert_eq!(failure.restored.len(), 3);
        assert_eq!(failure.untouched.len(), 1);
        assert!(failure.not_restored.is_empty());
        let message = err.error.to_string();
        assert!(
            message.contains("were restored from their original bytes"),
            "{message}"
        );
        assert!(message.ends_with("; no file was changed"), "{message}");
        assert_eq!(snapshot(&root), before);
    }

    #[test]
    fn dry_runs_write_nothing_and_unchanged_files_are_not_rewritten() {
        let (_dir, root, ws) = workspace();
        let names = five(&root);
        let items: Vec<BatchItem> = names.iter().map(|n| BatchItem::new(n)).collect();
        let before = snapshot(&root);
        let done = ws.edit_batch("test", &items, false, upper).unwrap();
        assert!(
            done.iter()
                .all(|e| !e.written && e.after.text().starts_with("FILE"))
        );
        assert_eq!(snapshot(&root), before);
        let mtime = std::fs::metadata(root.join(&names[0]))
            .unwrap()
            .modified()
            .unwrap();
        ws.set_batch_hook(Some(BatchHook::new(|_| {
            Err(io::Error::other("must not write"))
        })));
        ws.edit_batch("test", &items, true, |_, file| {
            Ok::<_, WorkspaceError>((file.doc.clone(), ()))
        })
        .unwrap();
        assert_eq!(
            std::fs::metadata(root.join(&names[0]))
                .unwrap()
                .modified()
                .unwrap(),
            mtime
        );
    }

    #[test]
    fn batches_over_the_same_files_in_opposite_orders_do_not_deadlock() {
        let (_dir, root, ws) = workspace();
        let names = five(&root);
        let ws = Arc::new(ws);
        let handles: Vec<_> = (0..4)
            .map(|t| {
                let (ws, names) = (ws.clone(), names.clone());
                std::thread::spawn(move || {
                    let mut names = names;
                    if t % 2 == 1 {
                        names.reverse();
                    }
                    for _ in 0..10 {
                        let items: Vec<BatchItem> =
                            names.iter().map(|n| BatchItem::new(n)).collect();
                        ws.edit_batch("test", &items, true, upper).unwrap();
                    }
                })
            })
            .collect();
        for h in handles {
            h.join().unwrap();
        }
    }

    /// Changes of several files over one root, from many threads at once,
    /// each over its own files: every change writes its intent record while
    /// the others look for records of interrupted changes, and none may take
    /// another's record, still being written, for an abandoned one.
    #[test]
    fn many_changes_at_once_over_one_root_all_succeed_and_leave_no_intent_record() {
        let (_dir, root, ws) = workspace();
        let ws = Arc::new(ws);
        let threads = 8;
        let rounds = 15;
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let ws = ws.clone();
                let names: Vec<String> = (0..2).map(|k| format!("t{t}/f{k}.txt")).collect();
                std::fs::create_dir(root.join(format!("t{t}"))).unwrap();
                for name in &names {
                    std::fs::write(root.join(name), "x").unwrap();
                }
                std::thread::spawn(move || {
                    let items: Vec<BatchItem> = names.iter().map(|n| BatchItem::new(n)).collect();
                    for round in 0..rounds {
                        ws.edit_batch("test", &items, true, |_, file: &OpenFile| {
                            let len = file.doc.text().len();
                            let more = format!("{}{round}", file.doc.text());
                            Ok::<_, WorkspaceError>((
                                file.doc.apply(&[Splice::new(0..len, more)]).unwrap(),
                                (),
                            ))
                        })
                        .unwrap_or_else(|e| panic!("thread {t}, change {round}: {}", e.error));
                    }
                })
            })
            .collect();
        for h in handles {
            h.join().unwrap();
        }
        let expected: String = std::iter::once("x".to_string())
            .chain((0..rounds).map(|r| r.to_string()))
            .collect();
        let files = snapshot(&root);
        assert_eq!(files.len(), threads * 2);
        for (path, bytes) in files {
            assert_eq!(bytes, expected.as_bytes(), "{}", path.display());
        }
    }
}
