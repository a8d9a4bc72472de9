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
//! A move takes the lock of the destination's deepest existing folder and,
//! for a file, the file's lock; for a folder, the locks of every folder and
//! every file in it (folders first, then files, each by path: the order
//! every caller uses). So a folder move waits for edits in progress inside
//! it, and an edit that waited for the move finds its path gone and refuses
//! instead of writing to the old place.
//!
//! Nothing is ever overwritten: the rename refuses a taken name
//! (`RENAME_NOREPLACE`); where the file system cannot do that, a file is
//! moved by making a hard link at the destination (which fails if the name
//! is taken) and then removing the old name, and a folder by claiming the
//! destination with a new empty folder and renaming onto it. Moves never
//! copy: across file systems they are refused.
//!
//! ```
//! use mcp_server_text::workspace::{Workspace, WorkspaceOptions};
//!
//! let dir = tempfile::tempdir().unwrap();
//! std::fs::write(dir.path().join("a.md"), "hi").unwrap();
//! let ws = Workspace::new(vec![dir.path().to_path_buf()], WorkspaceOptions::default()).unwrap();
//! let plan = ws.plan_move("a.md", "notes/b.md").unwrap();
//! ws.relocate(&plan).unwrap();
//! assert_eq!(std::fs::read_to_string(dir.path().join("notes/b.md")).unwrap(), "hi");
//! assert!(ws.plan_move("notes/b.md", "notes/b.md").is_err());
//! ```

use std::ffi::OsStr;
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use cap_std::fs::Dir;
use rustix::fs::AtFlags;
use rustix::io::Errno;

use super::Workspace;
use super::atomic_write::sync_folder;
use super::beneath::{self, existing_and_missing, open_folder_nofollow, open_parent, or_dot};
use super::error::WorkspaceError;
use super::file_lock::{FileLock, FolderLock};
use super::roots::{ResolvedPath, Roots};
use super::timestamp::UtcTime;
use super::trash::{is_in_trash, trash_path};

/// How many trash names are tried for removals of one path in one second.
const TRASH_ATTEMPTS: u32 = 1000;

/// What is being moved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryKind {
    /// A file.
    File,
    /// A folder, with everything in it.
    Folder,
}

/// A checked move, not yet done.
#[derive(Debug, Clone)]
pub struct Relocation {
    /// What moves.
    pub source: ResolvedPath,
    /// Where it goes (does not exist yet).
    pub destination: ResolvedPath,
    /// File or folder.
    pub kind: EntryKind,
    /// Folders that will be created for the destination, outermost first.
    pub new_folders: Vec<PathBuf>,
}

/// A move refused by the rules of moving, or failed.
#[derive(Debug)]
pub enum RelocateError {
    /// The source is a root folder.
    IsRoot {
        /// The root.
        path: PathBuf,
    },
    /// The source folder holds a root folder.
    HoldsRoot {
        /// The folder.
        path: PathBuf,
        /// The root inside it.
        root: PathBuf,
    },
    /// The destination lies inside the folder being moved.
    IntoItself {
        /// The folder.
        source: PathBuf,
        /// The destination inside it.
        destination: PathBuf,
    },
    /// Something exists at the destination.
    DestinationExists {
        /// The destination.
        path: PathBuf,
    },
    /// The source is a symbolic link.
    Symlink {
        /// The link.
        path: PathBuf,
    },
    /// The source is the trash folder or inside it.
    InTrash {
        /// The source.
        path: PathBuf,
    },
    /// A folder was to be removed without `recursive`.
    FolderNeedsRecursive {
        /// The folder.
        path: PathBuf,
    },
    /// Source and destination are on different file systems.
    CrossDevice {
        /// The source.
        source: PathBuf,
        /// The destination.
        destination: PathBuf,
    },
    /// The folder holds more files than this process may lock at once.
    TooManyFiles {
        /// The folder.
        path: PathBuf,
        /// How many files and folders it holds.
        count: usize,
    },
    /// The file system changed between the checks and the move.
    Changed {
        /// What changed.
        path: PathBuf,
        /// How.
        what: &'static str,
    },
    /// The system refused the move.
    Io {
        /// The source.
        source: PathBuf,
        /// The destination.
        destination: PathBuf,
        /// The system's error.
        error: io::Error,
    },
}

impl fmt::Display for RelocateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RelocateError::IsRoot { path } => write!(
                f,
                "{} is a root folder, which cannot be moved or removed",
                path.display()
            ),
            RelocateError::HoldsRoot { path, root } => write!(
                f,
                "{} holds the root folder {}, so it cannot be moved or removed",
                path.display(),
                root.display()
            ),
            RelocateError::IntoItself {
                source,
                destination,
            } => write!(
                f,
                "cannot move the folder {} into itself ({} is inside it)",
                source.display(),
                destination.display()
            ),
            RelocateError::DestinationExists { path } => write!(
                f,
                "{} already exists, and nothing is ever overwritten; nothing was moved",
                path.display()
            ),
            RelocateError::Symlink { path } => write!(
                f,
                "{} is a symbolic link; Move and RemoveFile work on files and folders, not on links; nothing was moved",
                path.display()
            ),
            RelocateError::InTrash { path } => {
                write!(f, "{} is already in the trash", path.display())
            }
            RelocateError::FolderNeedsRecursive { path } => write!(
                f,
                "{} is a folder; removing a folder and everything in it needs recursive: true",
                path.display()
            ),
            RelocateError::CrossDevice {
                source,
                destination,
            } => write!(
                f,
                "{} and {} are on different file systems, and Move only renames, it does not copy; nothing was moved",
                source.display(),
                destination.display()
            ),
            RelocateError::TooManyFiles { path, count } => write!(
                f,
                "{} holds {count} files and folders, more than can be locked at once to keep edits inside it safe; nothing was moved",
                path.display()
            ),
            RelocateError::Changed { path, what } => write!(
                f,
                "{} changed while the move was prepared ({what}); nothing was moved",
                path.display()
            ),
            RelocateError::Io {
                source,
                destination,
                error,
            } => write!(
                f,
                "moving {} to {} failed: {error}; nothing was moved",
                source.display(),
                destination.display()
            ),
        }
    }
}

impl std::error::Error for RelocateError {}

impl From<RelocateError> for WorkspaceError {
    fn from(e: RelocateError) -> Self {
        WorkspaceError::Relocate(e)
    }
}

impl Workspace {
    /// Checks a move of `source` (a file or folder) to `destination` (a path
    /// that must not exist) without changing anything.
    pub fn plan_move(&self, source: &str, destination: &str) -> Result<Relocation, WorkspaceError> {
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

    /// Does a planned move: under the locks (see the module's doc), checks
    /// that nothing changed since the plan, creates the destination's folders
    /// and moves. On failure, the folders it created are removed again.
    pub fn relocate(&self, plan: &Relocation) -> Result<(), WorkspaceError> {
        let source = &plan.source;
        let destination = &plan.destination;
        let (src_root, src_rel) = self.handle(source)?;
        let (dst_root, dst_rel) = self.handle(destination)?;
        let io_error = |path: &ResolvedPath, error: io::Error| {
            self.io_error(path, error, |error| {
                RelocateError::Io {
                    source: source.real.clone(),
                    destination: destination.real.clone(),
                    error,
                }
                .into()
            })
        };
        let (existing, _) =
            existing_and_missing(&dst_root, &dst_rel).map_err(|e| io_error(destination, e))?;
        let _locks = self.lock_for_move(plan, &src_root, &src_rel, &existing)?;

        let still_there = src_root.symlink_metadata(&src_rel).is_ok_and(|m| {
            !m.file_type().is_symlink() && (m.is_dir() == (plan.kind == EntryKind::Folder))
        });
        if !still_there {
            return Err(RelocateError::Changed {
                path: source.real.clone(),
                what: "it is gone or was replaced",
            }
            .into());
        }
        if dst_root.symlink_metadata(&dst_rel).is_ok() {
            return Err(RelocateError::DestinationExists {
                path: destination.real.clone(),
            }
            .into());
        }
        let created = create_folders(&dst_root, &destination.root, &plan.new_folders)
            .map_err(|error| io_error(destination, error))?;
        let outcome = move_now(&src_root, &src_rel, &dst_root, &dst_rel, plan.kind).map_err(
            |(end, error)| {
                let at = if end == End::Source {
                    source
                } else {
                    destination
                };
                self.io_error(at, error, |error| {
                    relocate_error(&source.real, &destination.real, error).into()
                })
            },
        );
        if outcome.is_err() {
            for folder in created.iter().rev() {
                let _ = dst_root.remove_dir(folder);
            }
        }
        outcome
    }

    /// Takes the locks a move needs, in the one global order: the
    /// destination's deepest existing folder (`existing`, relative to the
    /// destination's root) and, for a folder, every folder in it; then the
    /// moved file, or every file in the moved folder.
    fn lock_for_move(
        &self,
        plan: &Relocation,
        src_root: &Dir,
        src_rel: &Path,
        existing: &Path,
    ) -> Result<(Vec<FolderLock>, Vec<FileLock>), WorkspaceError> {
        let at = |root: &Path, rel: &Path| ResolvedPath {
            real: root.join(rel),
            root: root.to_path_buf(),
            exists: true,
        };
        let mut folders = vec![at(&plan.destination.root, existing)];
        let mut files = Vec::new();
        match plan.kind {
            EntryKind::File => files.push(plan.source.clone()),
            EntryKind::Folder => {
                let mut found = (Vec::new(), Vec::new());
                collect_tree(src_root, src_rel, &mut found).map_err(|error| {
                    self.io_error(&plan.source, error, |error| {
                        RelocateError::Io {
                            source: plan.source.real.clone(),
                            destination: plan.destination.real.clone(),
                            error,
                        }
                        .into()
                    })
                })?;
                let root = &plan.source.root;
                folders.extend(found.0.iter().map(|rel| at(root, rel)));
                files.extend(found.1.iter().map(|rel| at(root, rel)));
                // Each file lock holds two descriptors (the file and its folder).
                let needed = folders.len() + 2 * files.len();
                if !super::fd_room::make_room(needed) {
                    return Err(RelocateError::TooManyFiles {
                        path: plan.source.real.clone(),
                        count: found.0.len() + found.1.len(),
                    }
                    .into());
                }
            }
        }
        folders.sort_by(|a, b| a.real.cmp(&b.real));
        folders.dedup_by(|a, b| a.real == b.real);
        files.sort_by(|a, b| a.real.cmp(&b.real));
        let folder_locks = folders
            .iter()
            .map(|folder| self.lock_folder(folder))
            .collect::<Result<Vec<_>, _>>()?;
        let file_locks = files
            .iter()
            .map(|file| self.lock(file))
            .collect::<Result<Vec<_>, _>>()?;
        Ok((folder_locks, file_locks))
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
        })
    }
}

/// Resolves a path that may be moved: confined, not a link itself, not a
/// root and not a folder holding one.
fn movable(roots: &Roots, given: &str) -> Result<ResolvedPath, WorkspaceError> {
    let path = roots.resolve_existing(given)?;
    let named = roots.absolute(given)?;
    if std::fs::symlink_metadata(&named).is_ok_and(|m| m.file_type().is_symlink()) {
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

/// The folders (`rel` itself included) and regular files under the folder
/// `rel` beneath `root`, relative to `root`. Links are not followed, and
/// other kinds of files are left out: they are never edited.
fn collect_tree(
    root: &Dir,
    rel: &Path,
    found: &mut (Vec<PathBuf>, Vec<PathBuf>),
) -> io::Result<()> {
    found.0.push(rel.to_path_buf());
    let dir = beneath::open_folder(root, rel)?;
    let mut stack = vec![(dir, rel.to_path_buf())];
    while let Some((dir, at)) = stack.pop() {
        for entry in dir.entries()? {
            let entry = entry?;
            let kind = entry.file_type()?;
            let path = at.join(entry.file_name());
            if kind.is_dir() {
                found.0.push(path.clone());
                stack.push((open_folder_nofollow(&dir, &entry.file_name())?, path));
            } else if kind.is_file() {
                found.1.push(path);
            }
        }
    }
    Ok(())
}

/// Creates `folders` (absolute, outermost first) beneath `dir`, the handle
/// of `root`; returns those it created, relative to `root`.
fn create_folders(dir: &Dir, root: &Path, folders: &[PathBuf]) -> io::Result<Vec<PathBuf>> {
    let mut created = Vec::new();
    for folder in folders {
        let rel = folder.strip_prefix(root).unwrap_or(folder);
        match dir.create_dir(rel) {
            Ok(()) => created.push(rel.to_path_buf()),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && dir.is_dir(rel) => {}
            Err(e) => {
                for done in created.iter().rev() {
                    let _ = dir.remove_dir(done);
                }
                return Err(e);
            }
        }
    }
    Ok(created)
}

/// Which end of a move an error is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum End {
    Source,
    Destination,
}

/// Moves `src_rel` beneath `src_root` to `dst_rel` beneath `dst_root`
/// without ever replacing anything there, and syncs both folders.
fn move_now(
    src_root: &Dir,
    src_rel: &Path,
    dst_root: &Dir,
    dst_rel: &Path,
    kind: EntryKind,
) -> Result<(), (End, io::Error)> {
    let (from, from_name) = open_parent(src_root, src_rel).map_err(|e| (End::Source, e))?;
    let (to, to_name) = open_parent(dst_root, dst_rel).map_err(|e| (End::Destination, e))?;
    match kind {
        EntryKind::File => move_file(&from, from_name, &to, to_name),
        EntryKind::Folder => move_folder(&from, from_name, &to, to_name),
    }
    .map_err(|e| (End::Destination, e))?;
    sync_folder(&from);
    sync_folder(&to);
    Ok(())
}

/// Renames `from_name` in `from` to `to_name` in `to` unless that exists.
/// `Ok(false)`: the file system cannot refuse to replace.
fn rename_noreplace(from: &Dir, from_name: &OsStr, to: &Dir, to_name: &OsStr) -> io::Result<bool> {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    match rustix::fs::renameat_with(
        from,
        from_name,
        to,
        to_name,
        rustix::fs::RenameFlags::NOREPLACE,
    ) {
        Ok(()) => return Ok(true),
        Err(Errno::INVAL | Errno::NOSYS | Errno::OPNOTSUPP) => {}
        Err(e) => return Err(e.into()),
    }
    let _ = (from, from_name, to, to_name);
    Ok(false)
}

/// Moves a file without ever replacing one at the destination.
fn move_file(from: &Dir, from_name: &OsStr, to: &Dir, to_name: &OsStr) -> io::Result<()> {
    if rename_noreplace(from, from_name, to, to_name)? {
        return Ok(());
    }
    rustix::fs::linkat(from, from_name, to, to_name, AtFlags::empty())?;
    rustix::fs::unlinkat(from, from_name, AtFlags::empty()).inspect_err(|_| {
        let _ = rustix::fs::unlinkat(to, to_name, AtFlags::empty());
    })?;
    Ok(())
}

/// Moves a folder without ever replacing anything at the destination:
/// where the rename cannot refuse a taken name by itself, the name is
/// claimed with an empty folder first, which fails if it is taken, and the
/// rename then replaces only that empty folder.
fn move_folder(from: &Dir, from_name: &OsStr, to: &Dir, to_name: &OsStr) -> io::Result<()> {
    if rename_noreplace(from, from_name, to, to_name)? {
        return Ok(());
    }
    rustix::fs::mkdirat(to, to_name, rustix::fs::Mode::from_raw_mode(0o700))?;
    rustix::fs::renameat(from, from_name, to, to_name).map_err(|e| {
        let _ = rustix::fs::unlinkat(to, to_name, AtFlags::REMOVEDIR);
        e.into()
    })
}

fn is_cross_device(error: &io::Error) -> bool {
    // EXDEV on Linux and macOS.
    error.kind() == io::ErrorKind::CrossesDevices || error.raw_os_error() == Some(18)
}

fn relocate_error(source: &Path, destination: &Path, error: io::Error) -> RelocateError {
    if is_cross_device(&error) {
        RelocateError::CrossDevice {
            source: source.to_path_buf(),
            destination: destination.to_path_buf(),
        }
    } else if error.kind() == io::ErrorKind::AlreadyExists {
        RelocateError::DestinationExists {
            path: destination.to_path_buf(),
        }
    } else {
        RelocateError::Io {
            source: source.to_path_buf(),
            destination: destination.to_path_buf(),
            error,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::document::Splice;
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

    fn handle(dir: &Path) -> Dir {
        Dir::open_ambient_dir(dir, cap_std::ambient_authority()).unwrap()
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
        let err = ws.relocate(&plan).unwrap_err();
        assert!(
            matches!(
                err,
                WorkspaceError::Relocate(RelocateError::DestinationExists { .. })
            ),
            "{err}"
        );
        assert_eq!(fs::read(root.join("b.md")).unwrap(), b"b");
        assert_eq!(fs::read(root.join("notes/a.md")).unwrap(), b"a");
        // The low-level moves refuse a taken name by themselves too.
        let dir = handle(&root);
        let name = OsStr::new;
        let notes = handle(&root.join("notes"));
        let err = move_file(&notes, name("a.md"), &dir, name("b.md")).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::AlreadyExists);
        fs::create_dir(root.join("taken")).unwrap();
        let err = move_folder(&dir, name("notes"), &dir, name("taken")).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::AlreadyExists);
        assert!(root.join("notes/a.md").exists());
        assert_eq!(fs::read(root.join("b.md")).unwrap(), b"b");
    }

    #[test]
    fn a_move_waits_for_the_files_lock() {
        let (_dir, root, ws) = workspace();
        let plan = ws.plan_move("notes/a.md", "b.md").unwrap();
        let held = ws.lock(&plan.source).unwrap();
        let err = ws.relocate(&plan).unwrap_err();
        assert!(matches!(err, WorkspaceError::Lock { .. }), "{err}");
        assert!(root.join("notes/a.md").exists());
        drop(held);
        ws.relocate(&plan).unwrap();
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
                ws.edit("notes/deep/a.md", None, None, true, |file| {
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
            std::thread::spawn(move || ws.relocate(&plan))
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
        let locks = ws
            .lock_for_move(
                &plan,
                &ws.handle(&plan.source).unwrap().0,
                Path::new("archive/notes"),
                Path::new(""),
            )
            .unwrap();
        let editor = {
            let ws = ws.clone();
            std::thread::spawn(move || {
                ws.edit("archive/notes/deep/a.md", None, None, true, append("+late"))
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
    fn folders_made_for_a_failed_move_are_taken_back() {
        let (_dir, root, _ws) = workspace();
        let dir = handle(&root);
        let folders = [root.join("x"), root.join("x/y"), root.join("notes/a.md/z")];
        assert!(create_folders(&dir, &root, &folders).is_err());
        assert!(!root.join("x").exists());
        assert_eq!(
            create_folders(&dir, &root, &folders[..2]).unwrap(),
            [PathBuf::from("x"), PathBuf::from("x/y")]
        );
        assert_eq!(
            create_folders(&dir, &root, &folders[..2]).unwrap(),
            Vec::<PathBuf>::new()
        );
    }

    #[test]
    fn removal_names_are_unique_within_a_second() {
        let (_dir, root, ws) = workspace();
        let when = UtcTime::from_unix(1_795_320_306);
        let first = ws.plan_removal("notes/a.md", false, when).unwrap();
        ws.relocate(&first).unwrap();
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
