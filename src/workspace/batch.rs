//! All-or-nothing edits of several files.
//!
//! [`Workspace::edit_batch`] resolves every path, refuses the same file named
//! twice, takes every file's lock in one fixed order (sorted real paths, so two
//! batches over the same files cannot deadlock) and holds them all to the end.
//! It then reads every file, checks every expected hash, and computes every
//! new document before anything is written: one failure and no file changes.
//!
//! Every file is read from its locked handle. Writing is two-phase: every
//! new document is staged as a synced unnamed file in its target's folder
//! (a named temp file where the system has no unnamed ones), and only when
//! all are staged are they given names and renamed into place. If a rename fails midway, the files already renamed are written
//! back from their original bytes, and the error says which files were
//! restored (and, should a restore itself fail, which were not).
//!
//! ```
//! use mcp_server_text::workspace::{Workspace, WorkspaceOptions, WorkspaceError};
//! use mcp_server_text::workspace::batch::BatchItem;
//! use mcp_server_text::text::document::Splice;
//!
//! let dir = tempfile::tempdir().unwrap();
//! std::fs::write(dir.path().join("a.txt"), "a\n").unwrap();
//! std::fs::write(dir.path().join("b.txt"), "b\n").unwrap();
//! let ws = Workspace::new(vec![dir.path().to_path_buf()], WorkspaceOptions::default()).unwrap();
//! let items = [BatchItem::new("a.txt"), BatchItem::new("b.txt")];
//! let done = ws
//!     .edit_batch(&items, true, |_, file| {
//!         let upper = file.doc.text().to_uppercase();
//!         let len = file.doc.text().len();
//!         Ok::<_, WorkspaceError>((file.doc.apply(&[Splice::new(0..len, upper)]).unwrap(), ()))
//!     })
//!     .unwrap();
//! assert_eq!(done.len(), 2);
//! assert_eq!(std::fs::read_to_string(dir.path().join("b.txt")).unwrap(), "B\n");
//! ```

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::atomic_write::{self, Staged, TempKind};
use super::file_lock::FileLock;
use super::{Edited, OpenFile, Workspace, WorkspaceError, check_hash_syntax};
use crate::text::document::Document;
use crate::text::encoding::TextEncoding;
use crate::text::hash::hash_matches;

/// One file of a batch.
#[derive(Debug, Clone, Copy)]
pub struct BatchItem<'a> {
    /// The path as the caller gave it.
    pub given: &'a str,
    /// The encoding to read it in (`None`: recognise it).
    pub encoding: Option<TextEncoding>,
    /// The hash the file must still have, if the caller sent one.
    pub expected_hash: Option<&'a str>,
}

impl<'a> BatchItem<'a> {
    /// A file recognised by its bytes, without a hash check.
    pub fn new(given: &'a str) -> BatchItem<'a> {
        BatchItem {
            given,
            encoding: None,
            expected_hash: None,
        }
    }
}

/// A batch that failed, and which of its files the failure is about.
#[derive(Debug)]
pub struct BatchFailure<E> {
    /// Index of the file in the batch, when the failure is about one file.
    pub index: Option<usize>,
    /// What went wrong.
    pub error: E,
}

/// What happened when renaming the staged files of a batch failed midway.
#[derive(Debug)]
pub struct CommitFailure {
    /// The file whose rename failed; it still has its original bytes.
    pub failed: PathBuf,
    /// Why the rename failed.
    pub error: io::Error,
    /// Files that had been renamed and were written back with their original bytes.
    pub restored: Vec<PathBuf>,
    /// Files that had been renamed and could not be written back: they hold
    /// the new bytes.
    pub not_restored: Vec<(PathBuf, io::Error)>,
    /// Files whose new bytes were staged but never renamed: unchanged.
    pub untouched: Vec<PathBuf>,
}

impl fmt::Display for CommitFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "writing the batch failed at {}: {}",
            self.failed.display(),
            self.error
        )?;
        if !self.restored.is_empty() {
            write!(
                f,
                "; the file{} already written ({}) {} restored from {} original bytes",
                plural(self.restored.len()),
                list(&self.restored),
                if self.restored.len() == 1 {
                    "was"
                } else {
                    "were"
                },
                if self.restored.len() == 1 {
                    "its"
                } else {
                    "their"
                },
            )?;
        }
        if self.not_restored.is_empty() {
            f.write_str("; no file was changed")
        } else {
            let failures: Vec<String> = self
                .not_restored
                .iter()
                .map(|(p, e)| format!("{} ({e})", p.display()))
                .collect();
            write!(
                f,
                "; these files could NOT be restored and now hold the new content: {}; every other file of the batch is unchanged",
                failures.join(", ")
            )
        }
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn list(paths: &[PathBuf]) -> String {
    paths
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// A step of writing a batch, as seen by a [`BatchHook`].
#[derive(Debug, Clone, Copy)]
pub enum BatchStep<'a> {
    /// The new bytes of file `index` are about to be staged.
    Stage {
        /// Index of the file in the batch.
        index: usize,
        /// The file.
        target: &'a Path,
    },
    /// The staged bytes of file `index` are about to be renamed into place.
    Commit {
        /// Index of the file in the batch.
        index: usize,
        /// The file.
        target: &'a Path,
    },
}

type HookFn = dyn Fn(BatchStep<'_>) -> io::Result<()> + Send + Sync;

/// Called before each step of writing a batch; an error it returns counts as
/// that step failing. Tests use it to make a stage or a rename fail in ways
/// file permissions cannot (for instance when running as root).
#[derive(Clone)]
pub struct BatchHook(Arc<HookFn>);

impl BatchHook {
    /// A hook calling `f`.
    pub fn new(f: impl Fn(BatchStep<'_>) -> io::Result<()> + Send + Sync + 'static) -> BatchHook {
        BatchHook(Arc::new(f))
    }
}

impl fmt::Debug for BatchHook {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("BatchHook")
    }
}

impl Workspace {
    /// Installs (or with `None` removes) the hook called at each step of
    /// writing a batch.
    pub fn set_batch_hook(&self, hook: Option<BatchHook>) {
        *self.batch_hook.write().unwrap_or_else(|e| e.into_inner()) = hook;
    }

    fn hook(&self, step: BatchStep<'_>) -> io::Result<()> {
        let hook = self
            .batch_hook
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        match hook {
            Some(BatchHook(f)) => f(step),
            None => Ok(()),
        }
    }

    /// Edits every file of `items` or none: `change` computes each file's new
    /// document (it is called for every file, in order, before anything is
    /// written), and unless `write` is false (a dry run) all are written
    /// together. The results are in the order of `items`.
    pub fn edit_batch<T, E: From<WorkspaceError>>(
        &self,
        items: &[BatchItem<'_>],
        write: bool,
        mut change: impl FnMut(usize, &OpenFile) -> Result<(Document, T), E>,
    ) -> Result<Vec<Edited<T>>, BatchFailure<E>> {
        let fail = |index: Option<usize>, error: WorkspaceError| BatchFailure {
            index,
            error: E::from(error),
        };
        let mut paths = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            if let Some(expected) = item.expected_hash {
                check_hash_syntax(expected).map_err(|e| fail(Some(i), e))?;
            }
            let path = self
                .resolve_file(item.given)
                .map_err(|e| fail(Some(i), e))?;
            if let Some(first) = paths
                .iter()
                .position(|p: &super::roots::ResolvedPath| p.real == path.real)
            {
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

        // One fixed order for every batch, so two batches never wait on each other.
        let mut lock_order: Vec<usize> = (0..paths.len()).collect();
        lock_order.sort_by(|&a, &b| paths[a].real.cmp(&paths[b].real));
        let mut locks: Vec<Option<FileLock>> = (0..paths.len()).map(|_| None).collect();
        for &i in &lock_order {
            locks[i] = Some(self.lock(&paths[i]).map_err(|e| fail(Some(i), e))?);
        }
        let locks: Vec<FileLock> = locks.into_iter().flatten().collect();

        let mut files = Vec::with_capacity(paths.len());
        for (i, (item, path)) in items.iter().zip(paths).enumerate() {
            let doc = super::read::read_document(
                &locks[i].file,
                self.options.max_file_size,
                item.encoding,
            )
            .map_err(|e| fail(Some(i), self.read_error(&path, e)))?;
            super::warm(&doc, || ());
            if let Some(expected) = item.expected_hash {
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
            files.push(OpenFile { path, doc });
        }

        let mut results = Vec::with_capacity(files.len());
        for (i, file) in files.iter().enumerate() {
            let (after, value) = change(i, file).map_err(|error| BatchFailure {
                index: Some(i),
                error,
            })?;
            results.push((after, value));
        }

        if write {
            self.write_all(&files, &locks, &results, &lock_order)
                .map_err(|(index, error)| fail(index, error))?;
        }
        Ok(files
            .into_iter()
            .zip(results)
            .map(|(file, (after, value))| Edited {
                path: file.path,
                before: file.doc,
                after,
                value,
                written: write,
            })
            .collect())
    }

    /// Stages every changed file, then renames them all; on a failed rename,
    /// restores the files already renamed. The caller holds every lock.
    fn write_all<T>(
        &self,
        files: &[OpenFile],
        locks: &[FileLock],
        results: &[(Document, T)],
        order: &[usize],
    ) -> Result<(), (Option<usize>, WorkspaceError)> {
        // A file whose bytes do not change is not rewritten.
        let changed: Vec<usize> = order
            .iter()
            .copied()
            .filter(|&i| results[i].0.to_bytes() != files[i].doc.to_bytes())
            .collect();
        let mut staged: Vec<(usize, Staged)> = Vec::with_capacity(changed.len());
        for &i in &changed {
            let target = &files[i].path.real;
            let lock = &locks[i];
            let stage = self
                .hook(BatchStep::Stage { index: i, target })
                .and_then(|()| lock.file.metadata())
                .and_then(|keep| {
                    atomic_write::stage(
                        &lock.parent,
                        &lock.name,
                        Some(&keep),
                        TempKind::Unnamed,
                        &mut |out| results[i].0.write_to(out),
                    )
                });
            match stage {
                Ok(s) => staged.push((i, s)),
                // Dropping the staged files removes their temp files.
                Err(error) => {
                    return Err((
                        Some(i),
                        WorkspaceError::Write {
                            path: target.clone(),
                            error,
                        },
                    ));
                }
            }
        }

        let mut renamed: Vec<usize> = Vec::with_capacity(staged.len());
        let mut pending = staged.into_iter();
        while let Some((i, stage)) = pending.next() {
            let target = files[i].path.real.clone();
            let result = self
                .hook(BatchStep::Commit {
                    index: i,
                    target: &target,
                })
                .and_then(|()| stage.commit());
            if let Err(error) = result {
                let untouched = pending.map(|(j, _)| files[j].path.real.clone()).collect();
                let mut restored = Vec::new();
                let mut not_restored = Vec::new();
                for &j in renamed.iter().rev() {
                    let path = &files[j].path.real;
                    let lock = &locks[j];
                    let restore = lock.file.metadata().and_then(|keep| {
                        atomic_write::write_in(&lock.parent, &lock.name, Some(&keep), &mut |out| {
                            files[j].doc.write_to(out)
                        })
                    });
                    match restore {
                        Ok(()) => restored.push(path.clone()),
                        Err(e) => not_restored.push((path.clone(), e)),
                    }
                }
                restored.reverse();
                return Err((
                    Some(i),
                    WorkspaceError::BatchCommit(Box::new(CommitFailure {
                        failed: target,
                        error,
                        restored,
                        not_restored,
                        untouched,
                    })),
                ));
            }
            renamed.push(i);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::document::Splice;
    use crate::workspace::WorkspaceOptions;
    use std::collections::BTreeMap;

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

    fn snapshot(root: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
        let mut out = BTreeMap::new();
        for entry in std::fs::read_dir(root).unwrap().flatten() {
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
            .edit_batch(&items, true, |i, file| {
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
        let err = ws.edit_batch(&items, true, upper).unwrap_err();
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
        let err = ws.edit_batch(&items, true, upper).unwrap_err();
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
        let err = ws.edit_batch(&items, true, upper).unwrap_err();
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
        let err = ws.edit_batch(&items, true, upper).unwrap_err();
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
        let done = ws.edit_batch(&items, false, upper).unwrap();
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
        ws.edit_batch(&items, true, |_, file| {
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
                        ws.edit_batch(&items, true, upper).unwrap();
                    }
                })
            })
            .collect();
        for h in handles {
            h.join().unwrap();
        }
    }
}
