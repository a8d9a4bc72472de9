//! Searching many files at once: the engine behind TextSearch.
//!
//! [`search`] walks the folders of a [`SearchScope`] in parallel and counts
//! the matches of a [`Pattern`] in each file it may look at (see [`walk`] for
//! which). It returns the files with matches sorted by path, with how many
//! files were searched, skipped as binary, or could not be read and why. The
//! matches themselves are found again, in full detail, only for the files a
//! response shows ([`Pattern::find`]), so the walk keeps no text.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use mcp_server_text::workspace::extensions::ExtensionFilter;
//! use mcp_server_text::workspace::roots::Roots;
//! use mcp_server_text::workspace::search::{Pattern, SearchRequest, SearchScope, search};
//!
//! let dir = tempfile::tempdir().unwrap();
//! std::fs::write(dir.path().join("a.md"), "# Todo\n- todo: write\n").unwrap();
//! std::fs::write(dir.path().join("b.txt"), "nothing here\n").unwrap();
//! let roots = Roots::new(vec![dir.path().to_path_buf()]).unwrap();
//! let pattern = Pattern::new("todo", false, false).unwrap();
//! let summary = search(&SearchRequest {
//!     roots: &roots,
//!     scope: SearchScope::Folders(vec![roots.resolve_existing(".").unwrap()]),
//!     pattern: &pattern,
//!     file_pattern: None,
//!     filter: None,
//!     extensions: &ExtensionFilter::default(),
//!     max_file_size: 1 << 20,
//!     cancel: &AtomicBool::new(false),
//!     progress: &|_| {},
//! });
//! assert_eq!(summary.files_searched, 2);
//! assert_eq!(summary.files.len(), 1);
//! assert_eq!(summary.total_matches(), 2);
//! ```

pub mod ancestor_rules;
pub mod contents;
pub mod file_pattern;
pub mod files;
pub mod halves;
pub mod mapped;
pub mod one_file;
pub mod pattern;
pub mod side_by_side;
pub mod walk;

pub use file_pattern::{FilePattern, FilePatternError};
pub use pattern::{LineMatch, Pattern, PatternError};
pub use walk::{
    FileHits, NoteFilterFn, SearchRequest, SearchScope, SearchSummary, Unreadable, search,
};
