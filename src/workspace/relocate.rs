//! Moving a file or folder inside the roots (Move), and moving one into its
//! root's trash (RemoveFile).
//!
//! Both ends are confined through [`Roots`]: the source must resolve inside a
//! root and the destination too, through its deepest existing folder. A move
//! is planned first ([`Workspace::plan_move`], [`Workspace::plan_removal`]),
//! which checks everything and changes nothing, so a dry run is the plan
//! alone; [`Workspace::relocate`] then checks again under the locks and
//! moves. Every step goes through the roots' directory handles; a move
//! between two roots uses both.
//!
//! The moves are done by the committer ([`super::commit`]), which takes
//! their locks, moves without ever overwriting, and takes a move back when a
//! later step of the same change fails.
//!
//! ```
//! use mcp_server_text::workspace::{Workspace, WorkspaceOptions};
//!
//! let dir = tempfile::tempdir().unwrap();
//! std::fs::write(dir.path().join("a.md"), "hi").unwrap();
//! let ws = Workspace::new(vec![dir.path().to_path_buf()], WorkspaceOptions::default()).unwrap();
//! let plan = ws.plan_move("a.md", "notes/b.md").unwrap();
//! ws.relocate("Move", &plan).unwrap();
//! assert_eq!(std::fs::read_to_string(dir.path().join("notes/b.md")).unwrap(), "hi");
//! assert!(ws.plan_move("notes/b.md", "notes/b.md").is_err());
//! ```

use std::io;
use std::path::PathBuf;

use super::Workspace;
use super::beneath::{existing_and_missing, or_dot};
use super::commit::{Change, EntryKind, History, Relocation};
use super::error::{RelocateError, WorkspaceError};
use super::history::is_in_history;
use super::roots::{ResolvedPath, Roots};
use super::timestamp::UtcTime;
use super::trash::{is_in_trash, trash_path};

/// How many trash names are tried for removals of one path in one second.
const TRASH_ATTEMPTS: u32 = 1000;

impl Workspace {
    /// Checks a move of `source` (a file or folder) to `destination` (a path
    /// that must not exist) without changing anything.
    /// Nothing is moved into the server's own folders (`.history`,
    /// `.trash`): RemoveFile is the way into the trash.
    pub fn plan_move(&self, source: &str, destination: &str) -> Result<Relocation, WorkspaceError> {
        let plan = self.plan_move_back(source, destination)?;
        if is_in_trash(&plan.destination) || is_in_history(&plan.destination) {
            return Err(RelocateError::IntoServerFolder {
                path: plan.destination.real,
            }
            .into());
        }
        Ok(plan)
    }

    /// Checks a move as [`Workspace::plan_move`] does, but one back into the
    /// trash too: UndoEdit's way of taking back a file's restore from it.
    pub(crate) fn plan_move_back(
        &self,
        source: &str,
        destination: &str,
    ) -> Result<Relocation, WorkspaceError> {
        let roots = self.roots();
        let source = movable(&roots, source)?;
        let destination = roots.resolve_new(destination)?;
        Relocation::new(&roots, source, destination)
    }

    /// Checks a move of `given` into its root's trash at time `when`, without
    /// changing anything. A folder needs `recursive`.
    pub fn plan_removal(
        &self,
        given: &str,
        recursive: bool,
        when: UtcTime,
    ) -> Result<Relocation, WorkspaceError> {
        let roots = self.roots();
        let source = movable(&roots, given)?;
        if is_in_trash(&source) {
            return Err(RelocateError::InTrash { path: source.real }.into());
        }
        if kind_of(&roots, &source)? == EntryKind::Folder && !recursive {
            return Err(RelocateError::FolderNeedsRecursive { path: source.real }.into());
        }
        let mut last = PathBuf::new();
        for attempt in 1..=TRASH_ATTEMPTS {
            last = trash_path(&source.root, source.relative(), when, attempt);
            let Some(text) = last.to_str() else {
                return Err(RelocateError::Io {
                    source: source.real.clone(),
                    destination: last.clone(),
                    error: io::Error::new(
                        io::ErrorKind::InvalidData,
                        "the path is not valid UTF-8",
                    ),
                }
                .into());
            };
            // Confined like any destination: a `.trash` that is a link out
            // of the root is refused here.
            let destination = roots.resolve_new(text)?;
            if !destination.exists {
                return Relocation::new(&roots, source, destination);
            }
        }
        Err(RelocateError::DestinationExists { path: last }.into())
    }

    /// Does a planned move through the committer (see the module's doc),
    /// recorded as a change of `tool`.
    pub fn relocate(
        &self,
        tool: &'static str,
        plan: &Relocation,
    ) -> Result<History, WorkspaceError> {
        let transaction = self
            .transaction(&[], vec![plan.clone()])
            .map_err(|f| f.error)?;
        let done = transaction
            .commit(Change::new(tool, Vec::new()), true)
            .map_err(|f| f.error)?;
        Ok(done.history)
    }
}

impl Relocation {
    fn new(
        roots: &Roots,
        source: ResolvedPath,
        destination: ResolvedPath,
    ) -> Result<Relocation, WorkspaceError> {
        if destination.exists {
            return Err(RelocateError::DestinationExists {
                path: destination.real,
            }
            .into());
        }
        if destination.real.starts_with(&source.real) {
            return Err(RelocateError::IntoItself {
                source: source.real,
                destination: destination.real,
            }
            .into());
        }
        let kind = kind_of(roots, &source)?;
        let new_folders = match roots.handle(&destination) {
            Some((dir, rel)) => existing_and_missing(dir, rel)
                .map(|(_, missing)| missing)
                .unwrap_or_default()
                .iter()
                .map(|m| destination.root.join(m))
                .collect(),
            None => Vec::new(),
        };
        Ok(Relocation {
            source,
            destination,
            kind,
            new_folders,
            remove_if_empty: Vec::new(),
        })
    }
}

/// Resolves a path that may be moved: confined, not a link itself, not a
/// root and not a folder holding one.
fn movable(roots: &Roots, given: &str) -> Result<ResolvedPath, WorkspaceError> {
    let path = roots.resolve_existing(given)?;
    if roots.names_a_link(given)? {
        let named = super::roots::lexical_normal(&roots.absolute(given)?);
        return Err(RelocateError::Symlink { path: named }.into());
    }
    if path.is_root() {
        return Err(RelocateError::IsRoot { path: path.real }.into());
    }
    if let Some(root) = roots.list().iter().find(|r| r.starts_with(&path.real)) {
        return Err(RelocateError::HoldsRoot {
            root: root.clone(),
            path: path.real,
        }
        .into());
    }
    Ok(path)
}

fn kind_of(roots: &Roots, path: &ResolvedPath) -> Result<EntryKind, WorkspaceError> {
    let meta = roots
        .handle(path)
        .and_then(|(dir, rel)| dir.symlink_metadata(or_dot(rel)).ok());
    match meta {
        Some(meta) if meta.is_dir() => Ok(EntryKind::Folder),
        Some(_) => Ok(EntryKind::File),
        None => Err(RelocateError::Changed {
            path: path.real.clone(),
            what: "it is gone",
        }
        .into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::document::Splice;
    use crate::workspace::commit::BatchItem;
    use crate::workspace::{OpenFile, WorkspaceOptions};
    use std::fs;
    use std::sync::Arc;
    use std::time::Duration;

    fn workspace() -> (tempfile::TempDir, PathBuf, Workspace) {
        let dir = tempfile::tempdir().unwrap();
        let base = fs::canonicalize(dir.path()).unwrap();
        let root = base.join("root");
        fs::create_dir_all(root.join("notes")).unwrap();
        fs::write(root.join("notes/a.md"), "a").unwrap();
        let options = WorkspaceOptions {
            lock_timeout: Duration::from_millis(50),
            ..WorkspaceOptions::default()
        };
        let ws = Workspace::new(vec![root.clone()], options).unwrap();
        (dir, root, ws)
    }

    #[test]
    fn plans_list_the_folders_to_create() {
        let (_dir, root, ws) = workspace();
        let plan = ws.plan_move("notes/a.md", "x/y/a.md").unwrap();
        assert_eq!(plan.new_folders, [root.join("x"), root.join("x/y")]);
        assert_eq!(plan.kind, EntryKind::File);
        assert!(!root.join("x").exists(), "planning creates nothing");
    }

    #[test]
    fn a_destination_taken_after_planning_is_not_overwritten() {
        let (_dir, root, ws) = workspace();
        let plan = ws.plan_move("notes/a.md", "b.md").unwrap();
        fs::write(root.join("b.md"), "b").unwrap();
        let err = ws.relocate("Move", &plan).unwrap_err();
        assert!(
            matches!(
                err,
                WorkspaceError::Relocate(RelocateError::DestinationExists { .. })
            ),
            "{err}"
        );
        assert_eq!(fs::read(root.join("b.md")).unwrap(), b"b");
        assert_eq!(fs::read(root.join("notes/a.md")).unwrap(), b"a");
    }

    #[test]
    fn a_move_waits_for_the_files_lock() {
        let (_dir, root, ws) = workspace();
        let plan = ws.plan_move("notes/a.md", "b.md").unwrap();
        let held = ws.lock(&plan.source).unwrap();
        let err = ws.relocate("Move", &plan).unwrap_err();
        assert!(matches!(err, WorkspaceError::Lock { .. }), "{err}");
        assert!(root.join("notes/a.md").exists());
        drop(held);
        ws.relocate("Move", &plan).unwrap();
        assert_eq!(fs::read(root.join("b.md")).unwrap(), b"a");
    }

    fn append(
        suffix: &'static str,
    ) -> impl FnOnce(&OpenFile) -> Result<(crate::text::document::Document, ()), WorkspaceError>
    {
        move |file| {
            let end = file.doc.text().len();
            Ok((
                file.doc.apply(&[Splice::new(end..end, suffix)]).unwrap(),
                (),
            ))
        }
    }

    /// A folder Move waits for an edit of a file inside it, and an edit that
    /// waits behind a folder Move refuses instead of writing to the old place.
    #[test]
    fn folder_moves_and_edits_inside_take_turns() {
        let dir = tempfile::tempdir().unwrap();
        let root = fs::canonicalize(dir.path()).unwrap();
        fs::create_dir_all(root.join("notes/deep")).unwrap();
        fs::write(root.join("notes/deep/a.md"), "a").unwrap();
        let ws = Arc::new(Workspace::new(vec![root.clone()], WorkspaceOptions::default()).unwrap());

        // An edit in progress: the move waits for it, and moves its result.
        let plan = ws.plan_move("notes", "archive/notes").unwrap();
        let (started_tx, started_rx) = std::sync::mpsc::channel();
        let (go_tx, go_rx) = std::sync::mpsc::channel::<()>();
        let editor = {
            let ws = ws.clone();
            std::thread::spawn(move || {
                ws.edit("test", BatchItem::new("notes/deep/a.md"), true, |file| {
                    started_tx.send(()).unwrap();
                    go_rx.recv().unwrap();
                    append("+edit")(file)
                })
                .map(|_| ())
            })
        };
        started_rx.recv().unwrap();
        let mover = {
            let (ws, plan) = (ws.clone(), plan.clone());
            std::thread::spawn(move || ws.relocate("Move", &plan))
        };
        std::thread::sleep(Duration::from_millis(100));
        assert!(
            root.join("notes/deep/a.md").exists(),
            "the move waits for the edit"
        );
        go_tx.send(()).unwrap();
        editor.join().unwrap().unwrap();
        mover.join().unwrap().unwrap();
        assert_eq!(
            fs::read(root.join("archive/notes/deep/a.md")).unwrap(),
            b"a+edit"
        );
        assert!(!root.join("notes").exists());

        // A move in progress: the edit waits, then refuses cleanly.
        let plan = ws.plan_move("archive/notes", "notes").unwrap();
        let locks = ws.transaction(&[], vec![plan.clone()]).unwrap();
        let editor = {
            let ws = ws.clone();
            std::thread::spawn(move || {
                ws.edit(
                    "test",
                    BatchItem::new("archive/notes/deep/a.md"),
                    true,
                    append("+late"),
                )
                .map(|_| ())
            })
        };
        std::thread::sleep(Duration::from_millis(100));
        fs::rename(root.join("archive/notes"), root.join("notes")).unwrap();
        drop(locks);
        let err = editor.join().unwrap().unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "cannot edit {}: it was moved or removed meanwhile; nothing was written",
                root.join("archive/notes/deep/a.md").display()
            )
        );
        assert_eq!(fs::read(root.join("notes/deep/a.md")).unwrap(), b"a+edit");
    }

    #[test]
    fn removal_names_are_unique_within_a_second() {
        let (_dir, root, ws) = workspace();
        let when = UtcTime::from_unix(1_795_320_306);
        let first = ws.plan_removal("notes/a.md", false, when).unwrap();
        ws.relocate("RemoveFile", &first).unwrap();
        fs::write(root.join("notes/a.md"), "again").unwrap();
        let second = ws.plan_removal("notes/a.md", false, when).unwrap();
        assert_eq!(
            second.destination.real,
            root.join(".trash/2026-11-22T04-05-06Z-2/notes/a.md")
        );
        assert!(matches!(
            ws.plan_removal("notes", false, when),
            Err(WorkspaceError::Relocate(
                RelocateError::FolderNeedsRecursive { .. }
            ))
        ));
        assert!(matches!(
            ws.plan_removal(".trash", true, when),
            Err(WorkspaceError::Relocate(RelocateError::InTrash { .. }))
        ));
    }
}
