//! The edit history behind EditHistory and UndoEdit: every change the
//! committer makes is recorded, with what it replaced, in the folder
//! `.history` inside the root of the (first) file it changed, beside
//! `.trash`.
//!
//! A record holds, for each file edited, its hashes before and after and the
//! bytes the edit replaced (the middle left when the common start and end of
//! the old and new bytes are trimmed: see [`crate::text::byte_delta`]), which
//! with the new bytes gives back the old ones exactly; for a new file, its
//! hash; for a move or a removal, both paths. So a record costs about what
//! the edit removed, however large the file.
//!
//! The history is bounded per root by a number of records and a total size
//! ([`HistoryOptions`]); the oldest records go first. A record larger than
//! the whole size bound is not kept, and the edit's reply says that undo is
//! unavailable for it. Records are whole files created under a unique name
//! and never changed afterwards; appending and pruning hold the OS lock of
//! the `.history` folder, so several servers can share a root. The folder is
//! opened beneath the root's handle, never through a symbolic link, and is
//! hidden from listings, searches and link checks like the trash.

pub mod lookup;
pub mod record;
pub mod store;

use std::ffi::OsStr;
use std::path::Component;

use super::roots::ResolvedPath;

/// The name of the history folder in each root.
pub const HISTORY_DIR: &str = ".history";

/// Default `--history-max-entries`.
pub const DEFAULT_MAX_ENTRIES: usize = 1000;

/// Default `--history-max-bytes`: 100 MB.
pub const DEFAULT_MAX_BYTES: u64 = 100 * 1024 * 1024;

/// Whether and how much history is kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HistoryOptions {
    /// Whether changes are recorded at all (`--no-history` turns it off).
    pub enabled: bool,
    /// Most records kept per root.
    pub max_entries: usize,
    /// Most bytes of records kept per root.
    pub max_bytes: u64,
}

impl Default for HistoryOptions {
    fn default() -> Self {
        HistoryOptions {
            enabled: true,
            max_entries: DEFAULT_MAX_ENTRIES,
            max_bytes: DEFAULT_MAX_BYTES,
        }
    }
}

impl HistoryOptions {
    /// No history at all.
    pub fn off() -> HistoryOptions {
        HistoryOptions {
            enabled: false,
            ..HistoryOptions::default()
        }
    }
}

/// Whether `path` is its root's history folder or lies inside it.
pub fn is_in_history(path: &ResolvedPath) -> bool {
    path.relative().components().next() == Some(Component::Normal(OsStr::new(HISTORY_DIR)))
}
