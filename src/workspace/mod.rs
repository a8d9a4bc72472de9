//! The file system layer: roots and path confinement, reading and decoding,
//! atomic writes and per-file locks, listings, moves and the trash, and
//! searching many files.
//!
//! [`Workspace`] is what tools hold. Every edit goes through
//! [`Workspace::edit`], which takes the file's lock, reads it, checks
//! `expectedHash`, lets the tool compute the new document, and writes it
//! atomically, all before releasing the lock.
//!
//! ```
//! use mcp_server_text::workspace::{Workspace, WorkspaceOptions};
//! use mcp_server_text::text::document::Splice;
//!
//! let dir = tempfile::tempdir().unwrap();
//! std::fs::write(dir.path().join("a.md"), "hello\n").unwrap();
//! let ws = Workspace::new(vec![dir.path().to_path_buf()], WorkspaceOptions::default()).unwrap();
//! let edited = ws
//!     .edit("a.md", None, None, true, |file| {
//!         Ok::<_, mcp_server_text::workspace::WorkspaceError>((file.doc.apply(&[Splice::new(0..5, "howdy")]).unwrap(), ()))
//!     })
//!     .unwrap();
//! assert!(edited.written);
//! assert_eq!(std::fs::read_to_string(dir.path().join("a.md")).unwrap(), "howdy\n");
//! ```

pub mod atomic_write;
pub mod batch;
pub mod create;
pub mod error;
pub mod extensions;
pub mod external;
pub mod file_lock;
pub mod formatters;
pub mod listing;
pub mod read;
pub mod relocate;
pub mod roots;
pub mod search;
pub mod stale_temps;
pub mod timestamp;
pub mod trash;

use std::path::PathBuf;
use std::sync::{Arc, RwLock};
use std::time::Duration;

pub use error::WorkspaceError;
use extensions::ExtensionFilter;
use file_lock::{FileLock, LockDir};
use roots::{ResolvedPath, RootError, Roots};

use crate::text::document::Document;
use crate::text::encoding::TextEncoding;
use crate::text::hash::{HASH_LEN, hash_matches};

/// Default `--max-file-size`: 256 MB.
pub const DEFAULT_MAX_FILE_SIZE: u64 = 256 * 1024 * 1024;

/// How the workspace treats files.
#[derive(Debug, Clone)]
pub struct WorkspaceOptions {
    /// Which file endings may be opened.
    pub extensions: ExtensionFilter,
    /// Largest file, in bytes, that is read.
    pub max_file_size: u64,
    /// How long an edit waits for another edit of the same file.
    pub lock_timeout: Duration,
    /// Where lock files live; `None` means the shared folder for this user.
    pub lock_dir: Option<PathBuf>,
}

impl Default for WorkspaceOptions {
    fn default() -> Self {
        WorkspaceOptions {
            extensions: ExtensionFilter::default(),
            max_file_size: DEFAULT_MAX_FILE_SIZE,
            lock_timeout: Duration::from_secs(30),
            lock_dir: None,
        }
    }
}

/// The roots a server works in, and the rules for touching files there.
#[derive(Debug)]
pub struct Workspace {
    roots: RwLock<Arc<Roots>>,
    options: WorkspaceOptions,
    locks: LockDir,
    batch_hook: RwLock<Option<batch::BatchHook>>,
}

/// A text file that was read.
#[derive(Debug, Clone)]
pub struct OpenFile {
    /// Where it is.
    pub path: ResolvedPath,
    /// Its content.
    pub doc: Document,
}

/// The result of [`Workspace::edit`].
#[derive(Debug)]
pub struct Edited<T> {
    /// The edited file.
    pub path: ResolvedPath,
    /// The document before the edit.
    pub before: Document,
    /// The document after the edit (what was, or in a dry run would be, written).
    pub after: Document,
    /// Whatever the edit function returned besides the document.
    pub value: T,
    /// Whether the file was written (false in a dry run).
    pub written: bool,
}

impl Workspace {
    /// A workspace over `roots` (canonicalized; each must be a folder).
    pub fn new(roots: Vec<PathBuf>, options: WorkspaceOptions) -> Result<Workspace, RootError> {
        let roots = Roots::new(roots)?;
        let locks = match &options.lock_dir {
            Some(dir) => LockDir::at(dir.clone()),
            None => LockDir::shared(),
        }
        .map_err(|error| RootError {
            path: std::env::temp_dir(),
            error,
        })?;
        Ok(Workspace {
            roots: RwLock::new(Arc::new(roots)),
            options,
            locks,
            batch_hook: RwLock::new(None),
        })
    }

    /// A workspace with the same roots, options and lock folder whose roots can
    /// then change independently (one per client session).
    pub fn fork(&self) -> Workspace {
        Workspace {
            roots: RwLock::new(self.roots()),
            options: self.options.clone(),
            locks: self.locks.clone(),
            batch_hook: RwLock::new(
                self.batch_hook
                    .read()
                    .unwrap_or_else(|e| e.into_inner())
                    .clone(),
            ),
        }
    }

    /// The current roots.
    pub fn roots(&self) -> Arc<Roots> {
        self.roots.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Replaces the roots (when an MCP client sends its own).
    pub fn set_roots(&self, roots: Roots) {
        *self.roots.write().unwrap_or_else(|e| e.into_inner()) = Arc::new(roots);
    }

    /// The options.
    pub fn options(&self) -> &WorkspaceOptions {
        &self.options
    }

    /// The lock folder.
    pub fn locks(&self) -> &LockDir {
        &self.locks
    }

    /// Resolves an existing file that tools may open.
    pub fn resolve_file(&self, given: &str) -> Result<ResolvedPath, WorkspaceError> {
        let path = self.roots().resolve_existing(given)?;
        self.check_file(&path)?;
        Ok(path)
    }

    /// Checks that `path` is a file with an allowed ending.
    pub fn check_file(&self, path: &ResolvedPath) -> Result<(), WorkspaceError> {
        if path.real.is_dir() {
            return Err(WorkspaceError::IsDirectory {
                path: path.real.clone(),
            });
        }
        self.check_extension(path)
    }

    /// Checks that `path` has an allowed ending.
    pub fn check_extension(&self, path: &ResolvedPath) -> Result<(), WorkspaceError> {
        if !self.options.extensions.allows(&path.real) {
            return Err(WorkspaceError::ExtensionNotAllowed {
                path: path.real.clone(),
                allowed: self.options.extensions.describe(),
            });
        }
        Ok(())
    }

    /// Resolves an existing folder.
    pub fn resolve_dir(&self, given: &str) -> Result<ResolvedPath, WorkspaceError> {
        let path = self.roots().resolve_existing(given)?;
        if !path.real.is_dir() {
            return Err(WorkspaceError::NotDirectory { path: path.real });
        }
        Ok(path)
    }

    /// Reads a confined, allowed text file.
    pub fn read(
        &self,
        given: &str,
        encoding: Option<TextEncoding>,
    ) -> Result<OpenFile, WorkspaceError> {
        let path = self.resolve_file(given)?;
        let doc = self.read_resolved(&path, encoding)?;
        Ok(OpenFile { path, doc })
    }

    /// Reads a file whose path was already resolved and checked.
    pub fn read_resolved(
        &self,
        path: &ResolvedPath,
        encoding: Option<TextEncoding>,
    ) -> Result<Document, WorkspaceError> {
        let doc = self.read_resolved_text(path, encoding)?;
        warm(&doc, || ());
        Ok(doc)
    }

    /// Reads a resolved file for its text alone: unlike
    /// [`Workspace::read_resolved`], it leaves the hash and the line index
    /// to be worked out only if asked for (a search shows neither).
    pub fn read_resolved_text(
        &self,
        path: &ResolvedPath,
        encoding: Option<TextEncoding>,
    ) -> Result<Document, WorkspaceError> {
        read::read_document(&path.real, self.options.max_file_size, encoding).map_err(|error| {
            WorkspaceError::Read {
                path: path.real.clone(),
                error,
            }
        })
    }

    /// Takes the write lock of a resolved file.
    pub fn lock(&self, path: &ResolvedPath) -> Result<FileLock, WorkspaceError> {
        self.locks
            .lock(&path.real, self.options.lock_timeout)
            .map_err(|error| WorkspaceError::Lock {
                path: path.real.clone(),
                error,
            })
    }

    /// Edits a file: under its lock, reads it, checks `expected_hash`, calls
    /// `change` for the new document, and (unless `write` is false, a dry run)
    /// writes it atomically. Nothing is written if any step fails.
    pub fn edit<T, E: From<WorkspaceError>>(
        &self,
        given: &str,
        expected_hash: Option<&str>,
        encoding: Option<TextEncoding>,
        write: bool,
        change: impl FnOnce(&OpenFile) -> Result<(Document, T), E>,
    ) -> Result<Edited<T>, E> {
        if let Some(expected) = expected_hash {
            check_hash_syntax(expected)?;
        }
        let path = self.resolve_file(given)?;
        let _lock = self.lock(&path)?;
        // The old hash is needed only to check expected_hash; without one,
        // computing it would just compete with the edit for a core.
        let doc = read::read_document(&path.real, self.options.max_file_size, encoding).map_err(
            |error| WorkspaceError::Read {
                path: path.real.clone(),
                error,
            },
        )?;
        if expected_hash.is_some() {
            warm(&doc, || ());
        }
        if let Some(expected) = expected_hash {
            let actual = doc.hash();
            if !hash_matches(expected, &actual) {
                return Err(WorkspaceError::StaleHash {
                    path: path.real.clone(),
                    expected: expected.trim().to_string(),
                    actual,
                }
                .into());
            }
        }
        let file = OpenFile { path, doc };
        let (after, value) = change(&file)?;
        if write {
            // The response needs the new hash and line index; they are built
            // on the other core while this one writes and syncs the file.
            let mut written = Ok(());
            warm(&after, || written = self.write_document(&file.path, &after));
            written?;
        }
        Ok(Edited {
            path: file.path,
            before: file.doc,
            after,
            value,
            written: write,
        })
    }

    /// Resolves the path of a file that may not exist yet, with an allowed ending.
    pub fn resolve_new_file(&self, given: &str) -> Result<ResolvedPath, WorkspaceError> {
        let path = self.roots().resolve_new(given)?;
        if path.exists {
            self.check_file(&path)?;
        } else {
            self.check_extension(&path)?;
        }
        Ok(path)
    }

    /// Writes `doc` to a resolved path atomically. The caller holds the lock.
    pub fn write_document(
        &self,
        path: &ResolvedPath,
        doc: &Document,
    ) -> Result<(), WorkspaceError> {
        atomic_write::write_atomic(&path.real, |out| doc.write_to(out)).map_err(|error| {
            WorkspaceError::Write {
                path: path.real.clone(),
                error,
            }
        })
    }
}

/// Documents smaller than this are hashed and indexed when first needed; a
/// second thread would cost more than it saves.
const PARALLEL_MIN_BYTES: usize = 1 << 20;

/// Computes `doc`'s hash on a second thread while this one builds its line
/// index and then runs `alongside`, so that large files use both cores.
fn warm(doc: &Document, alongside: impl FnOnce()) {
    if doc.byte_len() < PARALLEL_MIN_BYTES {
        alongside();
        return;
    }
    std::thread::scope(|scope| {
        scope.spawn(|| doc.hash());
        doc.lines();
        alongside();
    });
}

/// Refuses an `expectedHash` that cannot be a file hash, before any file is touched.
pub fn check_hash_syntax(given: &str) -> Result<(), WorkspaceError> {
    let trimmed = given.trim();
    if trimmed.len() < HASH_LEN || !trimmed.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(WorkspaceError::MalformedHash {
            given: given.to_string(),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::document::Splice;

    fn workspace() -> (tempfile::TempDir, Workspace) {
        let dir = tempfile::tempdir().unwrap();
        let options = WorkspaceOptions {
            lock_dir: Some(dir.path().join(".locks")),
            ..WorkspaceOptions::default()
        };
        std::fs::create_dir(dir.path().join("root")).unwrap();
        let ws = Workspace::new(vec![dir.path().join("root")], options).unwrap();
        (dir, ws)
    }

    fn upper(file: &OpenFile) -> Result<(Document, ()), WorkspaceError> {
        let len = file.doc.text().len();
        let upper = file.doc.text().to_uppercase();
        Ok((file.doc.apply(&[Splice::new(0..len, upper)]).unwrap(), ()))
    }

    #[test]
    fn stale_hash_is_refused_and_nothing_written() {
        let (dir, ws) = workspace();
        let path = dir.path().join("root/a.txt");
        std::fs::write(&path, "abc").unwrap();
        let err = ws
            .edit("a.txt", Some("0000000000000000"), None, true, upper)
            .unwrap_err();
        assert!(matches!(err, WorkspaceError::StaleHash { .. }), "{err}");
        assert_eq!(std::fs::read(&path).unwrap(), b"abc");
        let hash = ws.read("a.txt", None).unwrap().doc.hash();
        let edited = ws.edit("a.txt", Some(&hash), None, true, upper).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"ABC");
        assert_eq!(edited.after.hash(), crate::text::hash::file_hash(&[b"ABC"]));
    }

    #[test]
    fn a_fork_shares_the_locks() {
        // Each HTTP session works on a fork; an edit in one must wait for an
        // edit of the same file in another.
        let (dir, ws) = workspace();
        std::fs::write(dir.path().join("root/a.txt"), "abc").unwrap();
        let path = ws.resolve_file("a.txt").unwrap();
        let fork = ws.fork();
        let held = ws.lock(&path).unwrap();
        assert!(fork.locks().try_lock(&path.real).unwrap().is_none());
        drop(held);
        assert!(fork.locks().try_lock(&path.real).unwrap().is_some());
    }

    #[test]
    fn dry_run_writes_nothing() {
        let (dir, ws) = workspace();
        let path = dir.path().join("root/a.txt");
        std::fs::write(&path, "abc").unwrap();
        let edited = ws.edit("a.txt", None, None, false, upper).unwrap();
        assert_eq!(edited.after.text(), "ABC");
        assert!(!edited.written);
        assert_eq!(std::fs::read(&path).unwrap(), b"abc");
    }

    #[test]
    fn malformed_hash_and_disallowed_extension() {
        let (dir, ws) = workspace();
        std::fs::write(dir.path().join("root/a.png"), "abc").unwrap();
        std::fs::write(dir.path().join("root/a.txt"), "abc").unwrap();
        assert!(matches!(
            ws.edit("a.txt", Some("xyz"), None, true, upper),
            Err(WorkspaceError::MalformedHash { .. })
        ));
        assert!(matches!(
            ws.read("a.png", None),
            Err(WorkspaceError::ExtensionNotAllowed { .. })
        ));
        assert!(matches!(
            ws.read(".", None),
            Err(WorkspaceError::IsDirectory { .. })
        ));
    }
}
