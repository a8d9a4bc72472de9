//! Moving a file or folder inside the roots (Move), and moving one into its
//! root's trash (RemoveFile).
//!
//! Both ends are confined through [`Roots`]: the source must resolve inside a
//! root and the destination too, through its deepest existing folder. A move
//! is planned first ([`Workspace::plan_move`], [`Workspace::plan_removal`]),
//! which checks everything and changes nothing, so a dry run is the plan
//! alone; [`Workspace::relocate`] then checks again under the file's lock and
//! moves.
//!
//! Nothing is ever overwritten: a file is moved by making a hard link at the
//! destination (which fails if the name is taken) and then removing the old
//! name, and a folder by claiming the destination with a new empty folder
//! and renaming onto it. Only where hard links are not supported does a file
//! move fall back to a plain rename, right after checking the destination is
//! free. Moves never copy: across file systems they are refused.
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

use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use super::Workspace;
use super::atomic_write::sync_dir;
use super::error::WorkspaceError;
use super::file_lock::FileLock;
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
        Relocation::new(source, destination)
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
        if kind_of(&source.real)? == EntryKind::Folder && !recursive {
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
                return Relocation::new(source, destination);
            }
        }
        Err(RelocateError::DestinationExists { path: last }.into())
    }

    /// Does a planned move: under the lock of a moved file (so it waits for an
    /// edit in progress and no edit starts halfway), checks that nothing
    /// changed since the plan, creates the destination's folders and moves.
    /// On failure, the folders it created are removed again.
    pub fn relocate(&self, plan: &Relocation) -> Result<(), WorkspaceError> {
        let source = &plan.source.real;
        let destination = &plan.destination.real;
        let _locks = match plan.kind {
            EntryKind::File => self.lock_in_order(source, destination)?,
            EntryKind::Folder => Vec::new(),
        };
        let still_there = fs::symlink_metadata(source).is_ok_and(|m| {
            !m.file_type().is_symlink() && (m.is_dir() == (plan.kind == EntryKind::Folder))
        });
        if !still_there {
            return Err(RelocateError::Changed {
                path: source.clone(),
                what: "it is gone or was replaced",
            }
            .into());
        }
        if fs::symlink_metadata(destination).is_ok() {
            return Err(RelocateError::DestinationExists {
                path: destination.clone(),
            }
            .into());
        }
        let created = create_folders(&plan.new_folders).map_err(|error| RelocateError::Io {
            source: source.clone(),
            destination: destination.clone(),
            error,
        })?;
        let outcome = self.move_now(plan);
        if outcome.is_err() {
            for folder in created.iter().rev() {
                let _ = fs::remove_dir(folder);
            }
        }
        outcome
    }

    fn move_now(&self, plan: &Relocation) -> Result<(), WorkspaceError> {
        let source = &plan.source.real;
        let destination = &plan.destination.real;
        // The destination's folder must still be the real folder the plan
        // confined, not a link swapped in since.
        let parent = destination.parent().unwrap_or(Path::new("/"));
        if fs::canonicalize(parent).ok().as_deref() != Some(parent) {
            return Err(RelocateError::Changed {
                path: parent.to_path_buf(),
                what: "a folder on the way was replaced",
            }
            .into());
        }
        let moved = match plan.kind {
            EntryKind::File => move_file(source, destination),
            EntryKind::Folder => move_folder(source, destination),
        };
        moved.map_err(|error| relocate_error(source, destination, error))?;
        sync_dir(source.parent());
        sync_dir(Some(parent));
        Ok(())
    }

    /// Takes the locks of two files, always in the same order so two moves
    /// between the same files cannot wait on each other.
    fn lock_in_order(&self, a: &Path, b: &Path) -> Result<Vec<FileLock>, WorkspaceError> {
        let mut paths = [a, b];
        paths.sort();
        paths
            .iter()
            .map(|path| {
                self.locks
                    .lock(path, self.options.lock_timeout)
                    .map_err(|error| WorkspaceError::Lock {
                        path: path.to_path_buf(),
                        error,
                    })
            })
            .collect()
    }
}

impl Relocation {
    fn new(source: ResolvedPath, destination: ResolvedPath) -> Result<Relocation, WorkspaceError> {
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
        let kind = kind_of(&source.real)?;
        let mut new_folders: Vec<PathBuf> = destination
            .real
            .ancestors()
            .skip(1)
            .take_while(|folder| fs::symlink_metadata(folder).is_err())
            .map(Path::to_path_buf)
            .collect();
        new_folders.reverse();
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
    if fs::symlink_metadata(&named).is_ok_and(|m| m.file_type().is_symlink()) {
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

fn kind_of(path: &Path) -> Result<EntryKind, WorkspaceError> {
    match fs::symlink_metadata(path) {
        Ok(meta) if meta.is_dir() => Ok(EntryKind::Folder),
        Ok(_) => Ok(EntryKind::File),
        Err(_) => Err(RelocateError::Changed {
            path: path.to_path_buf(),
            what: "it is gone",
        }
        .into()),
    }
}

/// Creates `folders` (outermost first); returns those it created.
fn create_folders(folders: &[PathBuf]) -> io::Result<Vec<PathBuf>> {
    let mut created = Vec::new();
    for folder in folders {
        match fs::create_dir(folder) {
            Ok(()) => created.push(folder.clone()),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && folder.is_dir() => {}
            Err(e) => {
                for done in created.iter().rev() {
                    let _ = fs::remove_dir(done);
                }
                return Err(e);
            }
        }
    }
    Ok(created)
}

/// Moves a file without ever replacing one at the destination.
fn move_file(source: &Path, destination: &Path) -> io::Result<()> {
    match fs::hard_link(source, destination) {
        Ok(()) => fs::remove_file(source).inspect_err(|_| {
            let _ = fs::remove_file(destination);
        }),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists || is_cross_device(&e) => Err(e),
        // No hard links here (some file systems, or a file this user may not
        // link): rename, the destination having been found free under the lock.
        Err(_) => fs::rename(source, destination),
    }
}

/// Moves a folder without ever replacing anything at the destination: the
/// name is claimed with an empty folder first, which fails if it is taken,
/// and the rename then replaces only that empty folder.
#[cfg(unix)]
fn move_folder(source: &Path, destination: &Path) -> io::Result<()> {
    fs::create_dir(destination)?;
    fs::rename(source, destination).inspect_err(|_| {
        let _ = fs::remove_dir(destination);
    })
}

/// Moves a folder; renaming a folder onto an existing one fails here by itself.
#[cfg(not(unix))]
fn move_folder(source: &Path, destination: &Path) -> io::Result<()> {
    fs::rename(source, destination)
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
    use crate::workspace::WorkspaceOptions;
    use std::time::Duration;

    fn workspace() -> (tempfile::TempDir, PathBuf, Workspace) {
        let dir = tempfile::tempdir().unwrap();
        let base = fs::canonicalize(dir.path()).unwrap();
        let root = base.join("root");
        fs::create_dir_all(root.join("notes")).unwrap();
        fs::write(root.join("notes/a.md"), "a").unwrap();
        let options = WorkspaceOptions {
            lock_dir: Some(base.join("locks")),
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
        assert!(move_file(&root.join("notes/a.md"), &root.join("b.md")).is_err());
        fs::create_dir(root.join("taken")).unwrap();
        assert!(move_folder(&root.join("notes"), &root.join("taken")).is_err());
        assert!(root.join("notes/a.md").exists());
    }

    #[test]
    fn a_move_waits_for_the_files_lock() {
        let (_dir, root, ws) = workspace();
        let plan = ws.plan_move("notes/a.md", "b.md").unwrap();
        let held = ws
            .locks
            .lock(&root.join("notes/a.md"), Duration::from_secs(1));
        let err = ws.relocate(&plan).unwrap_err();
        assert!(matches!(err, WorkspaceError::Lock { .. }), "{err}");
        assert!(root.join("notes/a.md").exists());
        drop(held);
        ws.relocate(&plan).unwrap();
        assert_eq!(fs::read(root.join("b.md")).unwrap(), b"a");
    }

    #[test]
    fn folders_made_for_a_failed_move_are_taken_back() {
        let (_dir, root, _ws) = workspace();
        let folders = [root.join("x"), root.join("x/y"), root.join("notes/a.md/z")];
        assert!(create_folders(&folders).is_err());
        assert!(!root.join("x").exists());
        assert_eq!(create_folders(&folders[..2]).unwrap(), &folders[..2]);
        assert_eq!(
            create_folders(&folders[..2]).unwrap(),
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
