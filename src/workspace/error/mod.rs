//! The errors of the workspace layer, with messages for whoever made the call.

use std::fmt;
use std::path::PathBuf;

mod commit_failure;
mod relocate_error;

pub use commit_failure::CommitFailure;
pub use relocate_error::RelocateError;

use super::file_lock::LockError;
use super::read::ReadError;
use super::roots::PathError;
use crate::text::encoding::EncodeError;

/// Something the workspace refused or could not do.
#[derive(Debug)]
pub enum WorkspaceError {
    /// The path was refused or not found.
    Path(PathError),
    /// The file's ending is not in the allowed list.
    ExtensionNotAllowed {
        /// The file.
        path: PathBuf,
        /// The allowed endings.
        allowed: String,
    },
    /// The path is a folder where a file was expected.
    IsDirectory {
        /// The folder.
        path: PathBuf,
    },
    /// The path is a file where a folder was expected.
    NotDirectory {
        /// The file.
        path: PathBuf,
    },
    /// The file could not be read as text.
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        error: ReadError,
    },
    /// `expectedHash` is not the file's current hash.
    StaleHash {
        /// The file.
        path: PathBuf,
        /// The hash the caller sent.
        expected: String,
        /// The file's hash now.
        actual: String,
    },
    /// `expectedHash` is not a hash at all.
    MalformedHash {
        /// What the caller sent.
        given: String,
    },
    /// The new text cannot be written in the file's encoding.
    Encode {
        /// The file.
        path: PathBuf,
        /// Why.
        error: EncodeError,
    },
    /// The file's lock could not be taken.
    Lock {
        /// The file.
        path: PathBuf,
        /// Why.
        error: LockError,
    },
    /// Writing failed; the file is unchanged.
    Write {
        /// The file.
        path: PathBuf,
        /// The system's error.
        error: std::io::Error,
    },
    /// A file exists where a new one was to be created.
    AlreadyExists {
        /// The file.
        path: PathBuf,
    },
    /// A move or removal was refused or failed.
    Relocate(RelocateError),
    /// A batch names the same file twice.
    Duplicate {
        /// The file.
        path: PathBuf,
        /// Index of its first mention.
        first: usize,
        /// Index of its second mention.
        second: usize,
    },
    /// Renaming the staged files of a batch failed midway; the files already
    /// renamed were restored where possible.
    BatchCommit(Box<CommitFailure>),
    /// The path is the history folder or inside it, which only the history
    /// itself writes.
    InHistory {
        /// The path.
        path: PathBuf,
    },
    /// The file has no write bit for this process.
    ReadOnlyFile {
        /// The file.
        path: PathBuf,
        /// Its permission bits.
        mode: u32,
    },
    /// The file has other names (hard links), which a replacing edit would
    /// leave on the old text.
    HardLinked {
        /// The file.
        path: PathBuf,
        /// How many names it has.
        links: u64,
    },
    /// Another program changed the file between its read and its rename.
    ChangedMeanwhile {
        /// The file.
        path: PathBuf,
    },
    /// Another program kept the file open for writing while it was to be
    /// replaced: its later writes would go to the old file, lost.
    OpenForWriting {
        /// The file.
        path: PathBuf,
    },
    /// The path is in the trash, which only RemoveFile puts files into and
    /// Move takes them out of.
    InTrash {
        /// The path.
        path: PathBuf,
    },
}

impl fmt::Display for WorkspaceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WorkspaceError::Path(e) => e.fmt(f),
            WorkspaceError::ExtensionNotAllowed { path, allowed } => write!(
                f,
                "{} has a file ending that is not allowed (allowed: {allowed}; the server's --extensions option sets them)",
                path.display()
            ),
            WorkspaceError::IsDirectory { path } => {
                write!(f, "{} is a folder, not a file", path.display())
            }
            WorkspaceError::NotDirectory { path } => {
                write!(f, "{} is a file, not a folder", path.display())
            }
            WorkspaceError::Read { path, error } => {
                write!(f, "cannot read {} as text: {error}", path.display())
            }
            WorkspaceError::StaleHash {
                path,
                expected,
                actual,
            } => write!(
                f,
                "{} has changed since you read it: expectedHash is {expected} but the file's hash is now {actual}; nothing was written",
                path.display()
            ),
            WorkspaceError::MalformedHash { given } => write!(
                f,
                "the expectedHash '{given}' is not a file hash: it should be the 16 hex digits of fileHash from an earlier response"
            ),
            WorkspaceError::Encode { path, error } => {
                write!(
                    f,
                    "cannot write {}: {error}; nothing was written",
                    path.display()
                )
            }
            WorkspaceError::Lock { path, error } => {
                write!(
                    f,
                    "cannot edit {}: {error}; nothing was written",
                    path.display()
                )
            }
            WorkspaceError::Write { path, error } => write!(
                f,
                "writing {} failed: {error}; the file is unchanged",
                path.display()
            ),
            WorkspaceError::AlreadyExists { path } => {
                write!(f, "{} already exists", path.display())
            }
            WorkspaceError::Relocate(e) => e.fmt(f),
            WorkspaceError::Duplicate {
                path,
                first,
                second,
            } => write!(
                f,
                "{} is named twice in the batch (files[{first}] and files[{second}]); nothing was written",
                path.display()
            ),
            WorkspaceError::BatchCommit(failure) => failure.fmt(f),
            WorkspaceError::ReadOnlyFile { path, mode } => write!(
                f,
                "{} is read-only (mode {mode:04o}), so it was not edited; nothing was written",
                path.display()
            ),
            WorkspaceError::HardLinked { path, links } => write!(
                f,
                "{} has {links} names (hard links); an edit puts a new file in place of this name only, which would leave the other names on the old text, so it was not edited; nothing was written",
                path.display()
            ),
            WorkspaceError::ChangedMeanwhile { path } => write!(
                f,
                "{} changed while it was being edited (another program wrote to it); its content now was kept and nothing was written",
                path.display()
            ),
            WorkspaceError::OpenForWriting { path } => write!(
                f,
                "{} is held open for writing by another program (a log being written, say); replacing it now would send that program's later writes to the old file, where they would be lost, so it was not edited; nothing was written",
                path.display()
            ),
            WorkspaceError::InTrash { path } => write!(
                f,
                "{} is in the trash (.trash), which no tool writes; nothing was written",
                path.display()
            ),
            WorkspaceError::InHistory { path } => write!(
                f,
                "{} is in the edit history folder (.history), which only the history itself changes; nothing was written",
                path.display()
            ),
        }
    }
}

impl std::error::Error for WorkspaceError {}

impl From<PathError> for WorkspaceError {
    fn from(e: PathError) -> Self {
        WorkspaceError::Path(e)
    }
}

impl From<RelocateError> for WorkspaceError {
    fn from(e: RelocateError) -> Self {
        WorkspaceError::Relocate(e)
    }
}
