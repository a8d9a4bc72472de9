//! A move or removal refused by the rules of moving, or failed.

use std::fmt;
use std::io;
use std::path::PathBuf;

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
    /// The destination is in the server's own `.history` or `.trash` folder.
    IntoServerFolder {
        /// The destination.
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
            RelocateError::IntoServerFolder { path } => write!(
                f,
                "{} is inside the server's own .history or .trash folder, where Move puts nothing (RemoveFile moves files to the trash); nothing was moved",
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
