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
//! let created = ws.create_file("notes/new.md", &doc, true).unwrap();
//! assert_eq!(created.new_folders.len(), 1);
//! assert_eq!(std::fs::read_to_string(dir.path().join("notes/new.md")).unwrap(), "hello\n");
//! assert!(ws.create_file("notes/new.md", &doc, true).is_err());
//! ```

use std::io;
use std::path::PathBuf;

use super::atomic_write::{self, TempKind};
use super::beneath::{self, open_parent};
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
}

impl Workspace {
    /// Creates `given` with the bytes of `doc`, making missing folders inside
    /// the root. Refuses a path where anything exists. With `write` false (a
    /// dry run) only the checks are made.
    pub fn create_file(
        &self,
        given: &str,
        doc: &Document,
        write: bool,
    ) -> Result<Created, WorkspaceError> {
        let path = self.roots().resolve_new(given)?;
        if path.exists {
            return Err(WorkspaceError::AlreadyExists { path: path.real });
        }
        self.check_extension(&path)?;
        let (root, rel) = self.handle(&path)?;
        let io_error = |error: io::Error| {
            self.io_error(&path, error, |error| WorkspaceError::Write {
                path: path.real.clone(),
                error,
            })
        };
        // The folders to make, outermost first, and the deepest one that exists.
        let (existing, missing) = beneath::existing_and_missing(&root, &rel).map_err(io_error)?;
        let folder = ResolvedPath {
            real: path.root.join(&existing),
            root: path.root.clone(),
            exists: true,
        };
        let _lock = self.lock_folder(&folder)?;
        match root.symlink_metadata(&rel) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Ok(_) => return Err(WorkspaceError::AlreadyExists { path: path.real }),
            Err(e) => return Err(io_error(e)),
        }
        let new_folders: Vec<PathBuf> = missing.iter().map(|m| path.root.join(m)).collect();
        if write {
            for folder in &missing {
                match root.create_dir(folder) {
                    Ok(()) => {}
                    Err(e) if e.kind() == io::ErrorKind::AlreadyExists && root.is_dir(folder) => {}
                    Err(e) => return Err(io_error(e)),
                }
            }
            let (parent, name) = open_parent(&root, &rel).map_err(io_error)?;
            let staged = atomic_write::stage(&parent, name, None, TempKind::Unnamed, &mut |out| {
                doc.write_to(out)
            })
            .map_err(io_error)?;
            staged.commit_new().map_err(|error| {
                if error.kind() == io::ErrorKind::AlreadyExists {
                    WorkspaceError::AlreadyExists {
                        path: path.real.clone(),
                    }
                } else {
                    io_error(error)
                }
            })?;
        }
        Ok(Created {
            path,
            new_folders,
            written: write,
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
            ws.create_file("a.txt", &doc, true),
            Err(WorkspaceError::AlreadyExists { .. })
        ));
        assert_eq!(std::fs::read(base.join("root/a.txt")).unwrap(), b"old");
        assert!(matches!(
            ws.create_file("../b.txt", &doc, true),
            Err(WorkspaceError::Path(_))
        ));
        let dry = ws.create_file("x/y/c.txt", &doc, false).unwrap();
        assert_eq!(
            dry.new_folders,
            [base.join("root/x"), base.join("root/x/y")]
        );
        assert!(!base.join("root/x").exists());
    }
}
