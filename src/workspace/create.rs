//! Creating a new file: confined like every other path, never over an
//! existing file (not even one that appears while the new bytes are being
//! written), and atomic: the file appears whole or not at all.
//!
//! The lock of a file that does not exist yet is the lock of its deepest
//! existing folder: two creators of one path take turns, and the second
//! finds the file there; a Move of that folder (which locks every folder it
//! moves) waits for the create or goes first. The new bytes are written to an
//! unnamed file and linked under the new name, which the system refuses if
//! the name is taken, so even a writer that takes no lock is never
//! overwritten.
//!
//! ```
//! use mcp_server_text::workspace::{Workspace, WorkspaceOptions};
//! use mcp_server_text::text::document::Document;
//! use mcp_server_text::text::encoding::TextEncoding;
//!
//! let dir = tempfile::tempdir().unwrap();
//! let ws = Workspace::new(vec![dir.path().to_path_buf()], WorkspaceOptions::default()).unwrap();
//! let doc = Document::from_text("hello\n", TextEncoding::Utf8, false).unwrap();
//! let created = ws.create_file("example", "notes/new.md", &doc, true).unwrap();
//! assert_eq!(created.new_folders.len(), 1);
//! assert_eq!(std::fs::read_to_string(dir.path().join("notes/new.md")).unwrap(), "hello\n");
//! assert!(ws.create_file("example", "notes/new.md", &doc, true).is_err());
//! ```

use std::path::PathBuf;

use super::commit::BatchItem;
use super::commit::{Change, History};
use super::roots::ResolvedPath;
use super::{Workspace, WorkspaceError};
use crate::text::document::Document;

/// A file that was (or in a dry run would be) created.
#[derive(Debug, Clone)]
pub struct Created {
    /// Where it is.
    pub path: ResolvedPath,
    /// Folders that did not exist and were (or would be) made for it, outermost first.
    pub new_folders: Vec<PathBuf>,
    /// Whether it was written (false in a dry run).
    pub written: bool,
    /// The change's history record.
    pub history: History,
}

impl Workspace {
    /// Creates `given` with the bytes of `doc`, making missing folders inside
    /// the root, through the committer (recorded as a change of `tool`).
    /// Refuses a path where anything exists. With `write` false (a dry run)
    /// only the checks are made.
    pub fn create_file(
        &self,
        tool: &'static str,
        given: &str,
        doc: &Document,
        write: bool,
    ) -> Result<Created, WorkspaceError> {
        let path = self.roots().resolve_new(given)?;
        if path.exists {
            return Err(WorkspaceError::AlreadyExists { path: path.real });
        }
        let transaction = self
            .transaction(&[BatchItem::new_or_existing(given)], Vec::new())
            .map_err(|f| f.error)?;
        if transaction.files()[0].path.exists {
            return Err(WorkspaceError::AlreadyExists { path: path.real });
        }
        let done = transaction
            .commit(Change::new(tool, vec![Some(doc.clone())]), write)
            .map_err(|f| f.error)?;
        let file = done.before.into_iter().next().expect("one file");
        Ok(Created {
            path: file.path,
            new_folders: done.new_folders.into_iter().next().unwrap_or_default(),
            written: write,
            history: done.history,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::encoding::TextEncoding;
    use crate::workspace::WorkspaceOptions;

    #[test]
    fn refuses_existing_files_and_paths_outside() {
        let dir = tempfile::tempdir().unwrap();
        let base = std::fs::canonicalize(dir.path()).unwrap();
        std::fs::create_dir(base.join("root")).unwrap();
        std::fs::write(base.join("root/a.txt"), "old").unwrap();
        let ws = Workspace::new(vec![base.join("root")], WorkspaceOptions::default()).unwrap();
        let doc = Document::from_text("new", TextEncoding::Utf8, false).unwrap();
        assert!(matches!(
            ws.create_file("test", "a.txt", &doc, true),
            Err(WorkspaceError::AlreadyExists { .. })
        ));
        assert_eq!(std::fs::read(base.join("root/a.txt")).unwrap(), b"old");
        assert!(matches!(
            ws.create_file("test", "../b.txt", &doc, true),
            Err(WorkspaceError::Path(_))
        ));
        let dry = ws.create_file("test", "x/y/c.txt", &doc, false).unwrap();
        assert_eq!(
            dry.new_folders,
            [base.join("root/x"), base.join("root/x/y")]
        );
        assert!(!base.join("root/x").exists());
    }
}
