//! The trash: RemoveFile does not delete, it moves the file into the folder
//! `.trash` inside the file's own root (DESIGN deviation 3), so the file stays
//! inside the allowed folders and Move can put it back.
//!
//! A removed file keeps its path inside the root, under a folder named for the
//! time of removal in UTC: `notes/a.md` removed at 04:05:06 on 22 November
//! 2026 goes to `.trash/2026-11-22T04-05-06Z/notes/a.md`. A second removal of
//! the same path in the same second goes to `2026-11-22T04-05-06Z-2`, and so
//! on. The trash is hidden from listings and search; it is created when first
//! needed.
//!
//! ```
//! use std::path::Path;
//! use mcp_server_text::workspace::timestamp::UtcTime;
//! use mcp_server_text::workspace::trash::trash_path;
//!
//! let when = UtcTime::from_unix(1_795_320_306);
//! assert_eq!(
//!     trash_path(Path::new("/v"), Path::new("notes/a.md"), when, 1),
//!     Path::new("/v/.trash/2026-11-22T04-05-06Z/notes/a.md")
//! );
//! assert_eq!(
//!     trash_path(Path::new("/v"), Path::new("notes/a.md"), when, 2),
//!     Path::new("/v/.trash/2026-11-22T04-05-06Z-2/notes/a.md")
//! );
//! ```

use std::ffi::OsStr;
use std::path::{Component, Path, PathBuf};

use super::roots::ResolvedPath;
use super::timestamp::UtcTime;

/// The name of the trash folder in each root.
pub const TRASH_DIR: &str = ".trash";

/// Where a file at `relative` inside `root` goes when removed at `when`;
/// `attempt` (from 1) tells apart removals of the same path in the same second.
pub fn trash_path(root: &Path, relative: &Path, when: UtcTime, attempt: u32) -> PathBuf {
    let mut stamp = when.file_name();
    if attempt > 1 {
        stamp.push_str(&format!("-{attempt}"));
    }
    root.join(TRASH_DIR).join(stamp).join(relative)
}

/// Whether `path` is its root's trash folder or lies inside it.
pub fn is_in_trash(path: &ResolvedPath) -> bool {
    path.relative().components().next() == Some(Component::Normal(OsStr::new(TRASH_DIR)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resolved(real: &str) -> ResolvedPath {
        ResolvedPath {
            real: PathBuf::from(real),
            root: PathBuf::from("/v"),
            exists: true,
        }
    }

    #[test]
    fn recognises_the_trash() {
        assert!(is_in_trash(&resolved("/v/.trash")));
        assert!(is_in_trash(&resolved(
            "/v/.trash/2026-11-22T04-05-06Z/a.md"
        )));
        assert!(!is_in_trash(&resolved("/v/notes/.trash/a.md")));
        assert!(!is_in_trash(&resolved("/v/.trash-old/a.md")));
        assert!(!is_in_trash(&resolved("/v")));
    }
}
