//! Finishing, or taking back, a change of several files whose process was
//! killed: what the next writer does with an intent record
//! ([`super::intent`]) it finds with nobody holding it.
//!
//! A *prepared* record was written before anything was named or made: its
//! hidden names and new folders are removed (if the kill left any), and
//! every file is as it was. A *committed* record had every new content and
//! every old one on disk when the first file was replaced, so the change is
//! finished: each file still holding its old content (by hash) gets its new
//! one from its hidden name, and the moves not yet done are done. Only if a
//! new content is missing (removed by hand) is the change taken back
//! instead: each file already replaced gets its old inode back from its
//! second name, each file created is removed, each move is moved back.
//! Either way every file ends old or every file ends new, nothing is left
//! behind, and then the record is removed.
//!
//! A file that holds neither its old nor its new content was changed by
//! someone else after the kill: it is left as it is. A record that fails its
//! checks, or names a root this server does not serve, is left as it is too,
//! with a warning: nothing in it is acted on.
//!
//! Every server looks at its roots' records when it starts (unless
//! `--read-only`, which writes nothing: it only warns), and every change
//! looks at the records of its roots before it locks its files.

use std::ffi::OsStr;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use cap_std::fs::Dir;
use rustix::fs::AtFlags;

use super::intent::{self, Intent, IntentFile, Orphan};
use super::moves::{create_folders, move_entry};
use crate::text::hash::file_hash;
use crate::workspace::Workspace;
use crate::workspace::atomic_write::sync_folder;
use crate::workspace::beneath::{open_for_reading, open_parent};
use crate::workspace::file_lock::{FileLock, lock_file};
use crate::workspace::read::read_limited;
use crate::workspace::roots::Roots;

/// What became of the interrupted changes found in the roots.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Recovered {
    /// Records whose change was finished: every file has its new content.
    pub finished: Vec<String>,
    /// Records whose change was taken back: every file has its old content.
    pub taken_back: Vec<String>,
    /// Records left as they are, with the reason.
    pub left: Vec<(String, String)>,
}

/// Where a file of a record stands now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Now {
    /// Its content before the change (for a new file: it does not exist).
    Old,
    /// Its content after the change.
    New,
    /// Something else: another writer's.
    Other,
}

impl Workspace {
    /// Finishes or takes back every interrupted change in the current roots
    /// (see the module's doc), logging what it did.
    pub fn recover_interrupted(&self) -> Recovered {
        let roots = self.roots();
        let all: Vec<&Path> = roots.list().iter().map(PathBuf::as_path).collect();
        let recovered = self.recover_in(&roots, &all);
        for id in &recovered.finished {
            tracing::info!("finished the change {id}, which an interrupted server had begun");
        }
        for id in &recovered.taken_back {
            tracing::info!("took back the change {id}, which an interrupted server had begun");
        }
        for (id, why) in &recovered.left {
            tracing::warn!("left the interrupted change {id} as it is: {why}");
        }
        recovered
    }

    /// The intent records in the current roots whose owner is gone, without
    /// acting on them: what a `--read-only` server warns about.
    pub fn interrupted_changes(&self) -> Vec<PathBuf> {
        let roots = self.roots();
        let mut found = Vec::new();
        for root in roots.list() {
            let Some(dir) = roots.dir(root) else {
                continue;
            };
            if intent::any_in(dir) {
                for orphan in intent::orphans_unlocked(dir) {
                    found.push(
                        root.join(crate::workspace::history::HISTORY_DIR)
                            .join(intent::INTENTS_DIR)
                            .join(orphan),
                    );
                }
            }
        }
        found
    }

    /// Recovers the interrupted changes whose records are in `touched` (a
    /// change's roots), quietly: the cheap look finds none almost always.
    pub(super) fn recover_interrupted_in(&self, touched: &[&Path]) {
        let roots = self.roots();
        let recovered = self.recover_in(&roots, touched);
        for id in recovered.finished.iter().chain(&recovered.taken_back) {
            tracing::info!("completed the interrupted change {id} before the next one");
        }
        for (id, why) in &recovered.left {
            tracing::debug!("left the interrupted change {id} as it is: {why}");
        }
    }

    fn recover_in(&self, roots: &Arc<Roots>, touched: &[&Path]) -> Recovered {
        let mut recovered = Recovered::default();
        for root in touched {
            let Some(dir) = roots.dir(root) else {
                continue;
            };
            if !intent::any_in(dir) {
                continue;
            }
            let orphans = match intent::orphans(dir) {
                Ok(orphans) => orphans,
                Err(e) => {
                    recovered.left.push((
                        root.display().to_string(),
                        format!("its intent records cannot be read: {e}"),
                    ));
                    continue;
                }
            };
            for orphan in orphans {
                self.recover_one(roots, orphan, &mut recovered);
            }
        }
        recovered
    }

    fn recover_one(&self, roots: &Arc<Roots>, orphan: Orphan, recovered: &mut Recovered) {
        let label = orphan.name().to_string_lossy().into_owned();
        let (intent, committed) = match &orphan.contents {
            Ok((intent, committed)) => (intent.clone(), *committed),
            Err(why) => {
                recovered
                    .left
                    .push((label, format!("the record fails its checks ({why})")));
                return;
            }
        };
        let Some(dirs) = intent
            .roots
            .iter()
            .map(|r| roots.dir(Path::new(r)).cloned())
            .collect::<Option<Vec<Arc<Dir>>>>()
        else {
            recovered.left.push((
                intent.id.clone(),
                format!(
                    "it spans the roots {}, and this server does not serve them all",
                    intent.roots.join(", ")
                ),
            ));
            return;
        };
        let outcome = Recovery {
            intent: &intent,
            dirs: &dirs,
            max_size: self.options.max_file_size,
            timeout: self.options.lock_timeout,
        }
        .run(committed);
        match outcome {
            Ok(forward) => {
                if let Err(e) = orphan.remove() {
                    recovered.left.push((
                        intent.id.clone(),
                        format!("its record could not be removed: {e}"),
                    ));
                    return;
                }
                if forward {
                    recovered.finished.push(intent.id);
                } else {
                    recovered.taken_back.push(intent.id);
                }
            }
            Err(why) => recovered.left.push((intent.id, why)),
        }
    }
}

/// One record being recovered.
struct Recovery<'a> {
    intent: &'a Intent,
    dirs: &'a [Arc<Dir>],
    max_size: u64,
    timeout: std::time::Duration,
}

impl Recovery<'_> {
    /// Finishes (`Ok(true)`) or takes back (`Ok(false)`) the change, with
    /// the locks of its files held.
    fn run(&self, committed: bool) -> Result<bool, String> {
        let _locks = self.lock_files();
        if !committed {
            self.remove_leftovers();
            self.remove_new_folders();
            return Ok(false);
        }
        let moved = self.intent.moves.iter().any(|m| self.move_done(m));
        let now: Vec<Now> = self.intent.files.iter().map(|f| self.now(f)).collect();
        let can_finish =
            moved
                || self.intent.files.iter().zip(&now).all(|(f, n)| {
                    *n != Now::Old || self.exists(f.root, &sibling(&f.path, &f.staged))
                });
        if can_finish {
            if !moved {
                for (file, state) in self.intent.files.iter().zip(&now) {
                    if *state == Now::Old {
                        self.put_new(file).map_err(|e| {
                            format!("{} could not be given its new content: {e}", file.path)
                        })?;
                    }
                }
            }
            self.remove_leftovers();
            for step in &self.intent.moves {
                if self.move_done(step) {
                    continue;
                }
                let (from, to) = (&self.dirs[step.from_root], &self.dirs[step.to_root]);
                create_folders_below(to, &step.made)
                    .and_then(|()| {
                        move_entry(
                            from,
                            Path::new(&step.from),
                            to,
                            Path::new(&step.to),
                            step.folder,
                        )
                    })
                    .map_err(|e| format!("{} could not be moved to {}: {e}", step.from, step.to))?;
                for folder in step.remove_if_empty.iter().rev() {
                    let _ = from.remove_dir(folder);
                }
            }
            return Ok(true);
        }
        // A new content is gone: every file goes back to its old one.
        for (file, state) in self.intent.files.iter().zip(&now) {
            if *state == Now::New {
                self.put_old(file).map_err(|e| {
                    format!("{} could not be given its old content back: {e}", file.path)
                })?;
            }
        }
        self.remove_leftovers();
        self.remove_new_folders();
        Ok(false)
    }

    /// The locks of the record's existing files, in the one global order,
    /// so that no edit of them runs while they are put right. A file that
    /// cannot be locked is worked on all the same: its old owner is gone.
    fn lock_files(&self) -> Vec<FileLock> {
        let mut paths: Vec<(usize, &str)> = self
            .intent
            .files
            .iter()
            .map(|f| (f.root, f.path.as_str()))
            .collect();
        paths.sort_by(|a, b| {
            Path::new(&self.intent.roots[a.0])
                .join(a.1)
                .cmp(&Path::new(&self.intent.roots[b.0]).join(b.1))
        });
        paths
            .into_iter()
            .filter_map(|(root, path)| {
                lock_file(&self.dirs[root], Path::new(path), self.timeout).ok()
            })
            .collect()
    }

    /// Whether `rel` exists beneath root `root` (a link not followed).
    fn exists(&self, root: usize, rel: &Path) -> bool {
        self.dirs[root].symlink_metadata(rel).is_ok()
    }

    fn move_done(&self, step: &super::intent::IntentMove) -> bool {
        !self.exists(step.from_root, Path::new(&step.from))
            && self.exists(step.to_root, Path::new(&step.to))
    }

    /// Where file `file` stands now, by its hash.
    fn now(&self, file: &IntentFile) -> Now {
        let dir = &self.dirs[file.root];
        let read = open_for_reading(dir, Path::new(&file.path))
            .and_then(|f| read_limited(&f, self.max_size));
        match read {
            Ok(bytes) => {
                let hash = file_hash(&[&bytes]);
                if hash == file.after {
                    Now::New
                } else if file.before.as_deref() == Some(hash.as_str()) {
                    Now::Old
                } else {
                    Now::Other
                }
            }
            Err(crate::workspace::read::ReadError::Io(e))
                if e.kind() == io::ErrorKind::NotFound && file.before.is_none() =>
            {
                Now::Old
            }
            Err(_) => Now::Other,
        }
    }

    /// Renames `file`'s new content into place (never over a file that
    /// appeared where a new one goes).
    fn put_new(&self, file: &IntentFile) -> io::Result<()> {
        let dir = &self.dirs[file.root];
        if file.before.is_none() {
            create_folders_below(dir, &file.folders)?;
        }
        let (parent, name) = open_parent(dir, Path::new(&file.path))?;
        let staged = OsStr::new(&file.staged);
        if file.before.is_some() {
            rustix::fs::renameat(&parent, staged, &parent, name)?;
        } else {
            rename_noreplace(&parent, staged, name)?;
        }
        sync_folder(&parent);
        Ok(())
    }

    /// Gives `file` its old content back: its old inode for a file that
    /// existed, nothing for one the change created.
    fn put_old(&self, file: &IntentFile) -> io::Result<()> {
        let dir = &self.dirs[file.root];
        let (parent, name) = open_parent(dir, Path::new(&file.path))?;
        match &file.backup {
            Some(backup) => rustix::fs::renameat(&parent, OsStr::new(backup), &parent, name)?,
            None => rustix::fs::unlinkat(&parent, name, AtFlags::empty())?,
        }
        sync_folder(&parent);
        Ok(())
    }

    /// Removes every hidden name the record gave beside its files.
    fn remove_leftovers(&self) {
        for file in &self.intent.files {
            let dir = &self.dirs[file.root];
            let Ok((parent, _)) = open_parent(dir, Path::new(&file.path)) else {
                continue;
            };
            for name in [Some(&file.staged), file.backup.as_ref()]
                .into_iter()
                .flatten()
            {
                let _ = rustix::fs::unlinkat(&parent, OsStr::new(name), AtFlags::empty());
            }
        }
    }

    /// Removes the folders made for new files, where they are empty.
    fn remove_new_folders(&self) {
        for file in self.intent.files.iter().rev() {
            for folder in file.folders.iter().rev() {
                let _ = self.dirs[file.root].remove_dir(folder);
            }
        }
    }
}

/// `name` in the folder of `path` (both as a record keeps them).
fn sibling(path: &str, name: &str) -> PathBuf {
    Path::new(path).with_file_name(name)
}

/// Makes the folders `folders` (below the root whose handle is `dir`,
/// outermost first) where they are missing.
fn create_folders_below(dir: &Dir, folders: &[String]) -> io::Result<()> {
    let folders: Vec<PathBuf> = folders.iter().map(PathBuf::from).collect();
    create_folders(dir, Path::new(""), &folders).map(|_| ())
}

/// Renames `from` to `to` in `folder` unless `to` exists.
fn rename_noreplace(folder: &Dir, from: &OsStr, to: &OsStr) -> io::Result<()> {
    rustix::fs::renameat_with(folder, from, folder, to, rustix::fs::RenameFlags::NOREPLACE)
        .or_else(|e| match e {
            rustix::io::Errno::INVAL | rustix::io::Errno::NOSYS => {
                rustix::fs::linkat(folder, from, folder, to, AtFlags::empty())?;
                rustix::fs::unlinkat(folder, from, AtFlags::empty())
            }
            e => Err(e),
        })
        .map_err(io::Error::from)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::document::Document;
    use crate::workspace::WorkspaceOptions;
    use crate::workspace::atomic_write::is_own_name;
    use crate::workspace::commit::{BatchHook, BatchItem, BatchStep, Change};
    use std::collections::BTreeSet;
    use std::sync::Mutex;

    /// Every file (with its bytes) and folder under `dir`, relative to it,
    /// the history folder left out.
    fn tree(dir: &Path) -> BTreeSet<(PathBuf, Option<Vec<u8>>)> {
        let mut out = BTreeSet::new();
        let mut stack = vec![PathBuf::new()];
        while let Some(rel) = stack.pop() {
            for entry in std::fs::read_dir(dir.join(&rel)).unwrap().flatten() {
                let path = rel.join(entry.file_name());
                if path == Path::new(crate::workspace::history::HISTORY_DIR) {
                    continue;
                }
                if entry.file_type().unwrap().is_dir() {
                    out.insert((path.clone(), None));
                    stack.push(path);
                } else {
                    out.insert((path.clone(), Some(std::fs::read(dir.join(&path)).unwrap())));
                }
            }
        }
        out
    }

    fn copy_tree(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).unwrap();
        for entry in std::fs::read_dir(from).unwrap().flatten() {
            let target = to.join(entry.file_name());
            if entry.file_type().unwrap().is_dir() {
                copy_tree(&entry.path(), &target);
            } else {
                std::fs::copy(entry.path(), &target).unwrap();
            }
        }
    }

    fn empty(dir: &Path) {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            if entry.file_type().unwrap().is_dir() {
                std::fs::remove_dir_all(entry.path()).unwrap();
            } else {
                std::fs::remove_file(entry.path()).unwrap();
            }
        }
    }

    fn doc(text: &str) -> Document {
        Document::decode(text.as_bytes().to_vec(), None).unwrap()
    }

    /// A change of two edits, a new file in a new folder and a move, whose
    /// disk is copied before every step of its writing: each copy is what
    /// a kill at that moment leaves (the owner's lock dies with it). Put
    /// back in the root one after the other, each is recovered by a new
    /// workspace, and must end with every file old or every file new.
    #[test]
    fn a_kill_before_any_step_leaves_every_file_old_or_every_file_new() {
        let dir = tempfile::tempdir().unwrap();
        let base = std::fs::canonicalize(dir.path()).unwrap();
        let root = base.join("root");
        std::fs::create_dir_all(root.join("notes")).unwrap();
        std::fs::write(root.join("a.md"), "a\n").unwrap();
        std::fs::write(root.join("b.md"), "b\n").unwrap();
        std::fs::write(root.join("notes/c.md"), "c\n").unwrap();
        let old = tree(&root);

        let ws = Workspace::new(vec![root.clone()], WorkspaceOptions::default()).unwrap();
        let snapshots = std::sync::Arc::new(Mutex::new(Vec::new()));
        let (taken, from) = (snapshots.clone(), root.clone());
        let shots = base.join("shots");
        ws.set_batch_hook(Some(BatchHook::new(move |step| {
            let mut taken = taken.lock().unwrap();
            let to = shots.join(taken.len().to_string());
            copy_tree(&from, &to);
            taken.push((format!("{step:?}"), to));
            Ok(())
        })));
        let plan = ws.plan_move("notes/c.md", "archive/c.md").unwrap();
        let items = [
            BatchItem::new("a.md"),
            BatchItem::new("b.md"),
            BatchItem::new_or_existing("new/d.md"),
        ];
        let tx = ws.transaction(&items, vec![plan]).unwrap();
        let contents = vec![Some(doc("A\n")), Some(doc("B\n")), Some(doc("d\n"))];
        tx.commit(Change::new("Batch", contents), true).unwrap();
        let new = tree(&root);
        assert_ne!(old, new);

        let snapshots = snapshots.lock().unwrap().clone();
        // Three stages, three renames, one move.
        assert_eq!(snapshots.len(), 7, "{snapshots:?}");
        for (step, shot) in &snapshots {
            empty(&root);
            copy_tree(shot, &root);
            let fresh = Workspace::new(vec![root.clone()], WorkspaceOptions::default()).unwrap();
            let recovered = fresh.recover_interrupted();
            assert!(recovered.left.is_empty(), "{step}: {recovered:?}");
            let now = tree(&root);
            assert!(now == old || now == new, "{step}: mixed: {now:?}");
            let finished = recovered.finished.len() == 1;
            assert_eq!(now == new, finished, "{step}: {recovered:?}");
            assert!(
                now.iter()
                    .all(|(p, _)| !is_own_name(p.file_name().unwrap())),
                "{step}: left behind: {now:?}"
            );
            let intents = root.join(".history/intents");
            assert_eq!(std::fs::read_dir(intents).unwrap().count(), 0, "{step}");
        }
    }

    /// A change over two roots keeps its record in the first file's root;
    /// only a server serving both finishes it.
    #[test]
    fn a_change_over_two_roots_is_finished_only_by_a_server_of_both() {
        let dir = tempfile::tempdir().unwrap();
        let base = std::fs::canonicalize(dir.path()).unwrap();
        let (one, two) = (base.join("one"), base.join("two"));
        for root in [&one, &two] {
            std::fs::create_dir(root).unwrap();
            std::fs::write(root.join("a.md"), "a\n").unwrap();
        }
        let ws =
            Workspace::new(vec![one.clone(), two.clone()], WorkspaceOptions::default()).unwrap();
        let shots = tempfile::tempdir().unwrap();
        let (from, to) = ((one.clone(), two.clone()), shots.path().to_path_buf());
        ws.set_batch_hook(Some(BatchHook::new(move |step| {
            if let BatchStep::Commit { index: 1, .. } = step {
                copy_tree(&from.0, &to.join("one"));
                copy_tree(&from.1, &to.join("two"));
            }
            Ok(())
        })));
        let second = two.join("a.md").display().to_string();
        let items = [BatchItem::new("a.md"), BatchItem::new(&second)];
        let tx = ws.transaction(&items, Vec::new()).unwrap();
        tx.commit(
            Change::new("Batch", vec![Some(doc("A\n")), Some(doc("A\n"))]),
            true,
        )
        .unwrap();
        let (new_one, new_two) = (tree(&one), tree(&two));
        for (root, name) in [(&one, "one"), (&two, "two")] {
            empty(root);
            copy_tree(&shots.path().join(name), root);
        }
        let halfway = (tree(&one), tree(&two));
        assert!(
            halfway != (new_one.clone(), new_two.clone()),
            "the copy is of a change half done"
        );

        let only_one = Workspace::new(vec![one.clone()], WorkspaceOptions::default()).unwrap();
        let recovered = only_one.recover_interrupted();
        assert_eq!(recovered.left.len(), 1, "{recovered:?}");
        assert!(
            recovered.left[0].1.contains("does not serve them all"),
            "{recovered:?}"
        );
        assert_eq!((tree(&one), tree(&two)), halfway, "nothing was touched");

        let both =
            Workspace::new(vec![one.clone(), two.clone()], WorkspaceOptions::default()).unwrap();
        assert_eq!(both.recover_interrupted().finished.len(), 1);
        assert_eq!((tree(&one), tree(&two)), (new_one, new_two));
    }

    /// A committed record whose new content was removed by hand cannot be
    /// finished: the files already replaced get their old inode back.
    #[test]
    fn a_committed_change_missing_a_new_content_is_taken_back() {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        for name in ["a.md", "b.md"] {
            std::fs::write(root.join(name), name).unwrap();
        }
        let old = tree(&root);
        let ws = Workspace::new(vec![root.clone()], WorkspaceOptions::default()).unwrap();
        let shots = tempfile::tempdir().unwrap();
        let shot = shots.path().join("shot");
        let (from, to) = (root.clone(), shot.clone());
        ws.set_batch_hook(Some(BatchHook::new(move |step| {
            if let BatchStep::Commit { index: 1, .. } = step {
                copy_tree(&from, &to);
            }
            Ok(())
        })));
        let items = [BatchItem::new("a.md"), BatchItem::new("b.md")];
        let tx = ws.transaction(&items, Vec::new()).unwrap();
        tx.commit(
            Change::new("Batch", vec![Some(doc("A")), Some(doc("B"))]),
            true,
        )
        .unwrap();
        empty(&root);
        copy_tree(&shot, &root);
        // a.md is replaced already; b.md's new content is taken away.
        let staged: Vec<PathBuf> = std::fs::read_dir(&root)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.to_string_lossy().ends_with(".mcp-server-text.new"))
            .collect();
        assert_eq!(staged.len(), 1, "{staged:?}");
        std::fs::remove_file(&staged[0]).unwrap();
        let recovered = Workspace::new(vec![root.clone()], WorkspaceOptions::default())
            .unwrap()
            .recover_interrupted();
        assert_eq!(recovered.taken_back.len(), 1, "{recovered:?}");
        assert_eq!(tree(&root), old);
    }

    /// A record that fails its checks is never acted on, and one held by a
    /// live process is not touched.
    #[test]
    fn forged_and_live_records_are_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        std::fs::write(root.join("a.md"), "a").unwrap();
        let intents = root.join(".history/intents");
        std::fs::create_dir_all(&intents).unwrap();
        let forged = Intent {
            id: "forged1".into(),
            roots: vec![root.display().to_string()],
            files: vec![IntentFile {
                root: 0,
                path: "../outside.md".into(),
                staged: ".outside.md.abcdefgh.mcp-server-text.new".into(),
                backup: None,
                before: None,
                after: "0123456789abcdef".into(),
                folders: vec![],
            }],
            moves: vec![],
        };
        let mut bytes = forged.encode();
        bytes.extend_from_slice(b"commit\n");
        std::fs::write(intents.join("forged1.intent"), &bytes).unwrap();
        let ws = Workspace::new(vec![root.clone()], WorkspaceOptions::default()).unwrap();
        let recovered = ws.recover_interrupted();
        assert_eq!(recovered.left.len(), 1, "{recovered:?}");
        assert!(
            recovered.left[0].1.contains("fails its checks"),
            "{recovered:?}"
        );
        assert!(intents.join("forged1.intent").exists());
        assert_eq!(std::fs::read(root.join("a.md")).unwrap(), b"a");

        // A live change's record is locked by its owner.
        std::fs::remove_file(intents.join("forged1.intent")).unwrap();
        let live = Intent {
            id: "live1".into(),
            files: vec![],
            ..forged
        };
        let held = intent::Held::write(ws.roots().dir(&root).unwrap(), &live).unwrap();
        let recovered = ws.recover_interrupted();
        assert_eq!(recovered, Recovered::default());
        assert!(intents.join("live1.intent").exists());
        held.remove().unwrap();
    }
}
