//! Creating a new file: confined like every other path, never over an
//! existing file (not even one that appears while the new bytes are being
//! written), and atomic: the file appears whole or not at all.
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

use super::atomic_write;
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
        let _lock = self.lock(&path)?;
        let mut new_folders = Vec::new();
        let mut folder = path.real.parent();
        while let Some(dir) = folder {
            if std::fs::symlink_metadata(dir).is_ok() {
                break;
            }
            new_folders.push(dir.to_path_buf());
            folder = dir.parent();
        }
        new_folders.reverse();
        if write {
            let write_error = |error: io::Error| WorkspaceError::Write {
                path: path.real.clone(),
                error,
            };
            if let Some(parent) = path.real.parent() {
                std::fs::create_dir_all(parent).map_err(write_error)?;
            }
            let staged =
                atomic_write::stage(&path.real, |out| doc.write_to(out)).map_err(write_error)?;
            staged.commit_new().map_err(|error| {
                if error.kind() == io::ErrorKind::AlreadyExists {
                    WorkspaceError::AlreadyExists {
                        path: path.real.clone(),
                    }
                } else {
                    write_error(error)
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
        let options = WorkspaceOptions {
            lock_dir: Some(base.join("locks")),
            ..WorkspaceOptions::default()
        };
        let ws = Workspace::new(vec![base.join("root")], options).unwrap();
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
