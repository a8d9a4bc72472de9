//! The file system layer: roots and path confinement, reading and decoding,
//! atomic writes and per-file locks, listings, moves and the trash, and
//! searching many files.
//!
//! [`Workspace`] is what tools hold. Every file operation goes through the
//! directory handle of the file's root ([`beneath`]), so nothing a path is
//! swapped for can lead outside. Every change of a file goes through the
//! committer ([`commit`]): it takes the OS locks of the files themselves,
//! reads them from the locked handles, checks `expectedHash`, lets the tool
//! compute the new documents, writes them atomically and records the change
//! in the history ([`history`]), all before releasing the locks.
//! [`Workspace::edit`] does that for one file.
//!
//! ```
//! use mcp_server_text::workspace::{Workspace, WorkspaceOptions};
//! use mcp_server_text::workspace::commit::BatchItem;
//! use mcp_server_text::text::document::Splice;
//!
//! let dir = tempfile::tempdir().unwrap();
//! std::fs::write(dir.path().join("a.md"), "hello\n").unwrap();
//! let ws = Workspace::new(vec![dir.path().to_path_buf()], WorkspaceOptions::default()).unwrap();
//! let edited = ws
//!     .edit("example", BatchItem::new("a.md"), true, |file| {
//!         Ok::<_, mcp_server_text::workspace::WorkspaceError>((file.doc.apply(&[Splice::new(0..5, "howdy")]).unwrap(), ()))
//!     })
//!     .unwrap();
//! assert!(edited.written);
//! assert_eq!(std::fs::read_to_string(dir.path().join("a.md")).unwrap(), "howdy\n");
//! ```

pub mod atomic_write;
pub mod batch;
pub mod beneath;
pub mod commit;
pub mod create;
pub mod error;
pub mod extensions;
pub mod external;
pub mod fd_room;
pub mod file_lock;
pub mod formatters;
pub mod hash_memo;
pub mod history;
pub mod listing;
pub mod own_folders;
pub mod read;
pub mod read_lease;
pub mod relocate;
pub mod roots;
pub mod search;
pub mod stale_temps;
pub mod timestamp;
pub mod trash;
pub mod undo;
pub mod xattrs;

use std::path::PathBuf;
use std::sync::{Arc, RwLock};
use std::time::Duration;

use cap_std::fs::Dir;

use commit::hook::BatchHook;
pub use error::WorkspaceError;
use extensions::ExtensionFilter;
use file_lock::{FileLock, FolderLock, LockError};
use hash_memo::{FileKey, HashMemo};
use history::HistoryOptions;
use read::ReadError;
use roots::{PathError, ResolvedPath, RootError, Roots};
use search::mapped::{MappedText, map_text};

use crate::text::document::Document;
use crate::text::encoding::TextEncoding;
use crate::text::hash::{HASH_LEN, file_hash};

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
    /// What the edit history keeps.
    pub history: HistoryOptions,
}

impl Default for WorkspaceOptions {
    fn default() -> Self {
        WorkspaceOptions {
            extensions: ExtensionFilter::default(),
            max_file_size: DEFAULT_MAX_FILE_SIZE,
            lock_timeout: Duration::from_secs(30),
            history: HistoryOptions::default(),
        }
    }
}

/// The roots a server works in, and the rules for touching files there.
#[derive(Debug)]
pub struct Workspace {
    roots: RwLock<Arc<Roots>>,
    options: WorkspaceOptions,
    batch_hook: RwLock<Option<BatchHook>>,
    /// Hashes of large files as reported, shared by every fork.
    hash_memo: Arc<HashMemo>,
}

/// A text file that was read.
#[derive(Debug, Clone)]
pub struct OpenFile {
    /// Where it is.
    pub path: ResolvedPath,
    /// Its content.
    pub doc: Document,
}

impl Workspace {
    /// A workspace over `roots` (canonicalized; each must be a folder).
    pub fn new(roots: Vec<PathBuf>, options: WorkspaceOptions) -> Result<Workspace, RootError> {
        let roots = Roots::new(roots)?;
        Ok(Workspace {
            roots: RwLock::new(Arc::new(roots)),
            options,
            batch_hook: RwLock::new(None),
            hash_memo: Arc::default(),
        })
    }

    /// A workspace with the same roots and options whose roots can then
    /// change independently (one per client session). Locks are OS locks on
    /// the files themselves, so forks (and other processes) share them.
    pub fn fork(&self) -> Workspace {
        Workspace {
            roots: RwLock::new(self.roots()),
            options: self.options.clone(),
            batch_hook: RwLock::new(
                self.batch_hook
                    .read()
                    .unwrap_or_else(|e| e.into_inner())
                    .clone(),
            ),
            hash_memo: Arc::clone(&self.hash_memo),
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

    /// The handle of the root `path` lies in, and `path` relative to it.
    pub fn handle(&self, path: &ResolvedPath) -> Result<(Arc<Dir>, PathBuf), WorkspaceError> {
        let roots = self.roots();
        match roots.handle(path) {
            Some((dir, rel)) => Ok((dir.clone(), rel.to_path_buf())),
            // The client replaced the roots since the path was resolved.
            None => Err(PathError::Outside {
                given: path.display(),
                roots: roots.list().to_vec(),
            }
            .into()),
        }
    }

    /// The refusal of `path` when an access through its root's handle was
    /// stopped at the root's edge: a folder on it was swapped for a link
    /// since it was resolved. Where the link leads is not told.
    fn escaped(&self, path: &ResolvedPath) -> WorkspaceError {
        PathError::SymlinkOutside {
            given: path.display(),
            roots: self.roots().list().to_vec(),
        }
        .into()
    }

    /// The error of reading `path`, with escapes told as such.
    fn read_error(&self, path: &ResolvedPath, error: ReadError) -> WorkspaceError {
        match error {
            ReadError::Io(e) if beneath::is_escape(&e) => self.escaped(path),
            error => WorkspaceError::Read {
                path: path.real.clone(),
                error,
            },
        }
    }

    /// The error of an I/O operation on `path` through its root's handle,
    /// with escapes told as such; `other` builds every other error.
    pub fn io_error(
        &self,
        path: &ResolvedPath,
        error: std::io::Error,
        other: impl FnOnce(std::io::Error) -> WorkspaceError,
    ) -> WorkspaceError {
        if beneath::is_escape(&error) {
            self.escaped(path)
        } else {
            other(error)
        }
    }

    /// Resolves an existing file that tools may open.
    pub fn resolve_file(&self, given: &str) -> Result<ResolvedPath, WorkspaceError> {
        let path = self.roots().resolve_existing(given)?;
        self.check_file(&path)?;
        Ok(path)
    }

    /// Checks that `path` is a regular file with an allowed ending.
    pub fn check_file(&self, path: &ResolvedPath) -> Result<(), WorkspaceError> {
        let (root, rel) = self.handle(path)?;
        let meta = root
            .metadata(beneath::or_dot(&rel))
            .map_err(|e| self.read_error(path, ReadError::Io(e)))?;
        if meta.is_dir() {
            return Err(WorkspaceError::IsDirectory {
                path: path.real.clone(),
            });
        }
        self.check_extension(path)?;
        if !meta.is_file() {
            return Err(self.read_error(path, ReadError::NotAFile));
        }
        Ok(())
    }

    /// Whether `path` is a folder, looked at through its root's handle.
    pub fn is_dir(&self, path: &ResolvedPath) -> Result<bool, WorkspaceError> {
        let (root, rel) = self.handle(path)?;
        root.metadata(beneath::or_dot(&rel))
            .map(|m| m.is_dir())
            .map_err(|e| self.read_error(path, ReadError::Io(e)))
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
        if !self.is_dir(&path)? {
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
        let (root, rel) = self.handle(path)?;
        beneath::open_for_reading(&root, &rel)
            .and_then(|file| read::read_document(&file, self.options.max_file_size, encoding))
            .map_err(|error| self.read_error(path, error))
    }

    /// Reads a file like [`Workspace::read`], without working out its hash
    /// or line index; with the file's key when it is large, on a local file
    /// system, and was not changed while it was read or shortly before, for
    /// [`Workspace::reported_hash`].
    pub fn read_keyed(&self, given: &str) -> Result<(OpenFile, Option<FileKey>), WorkspaceError> {
        let path = self.resolve_file(given)?;
        let (root, rel) = self.handle(&path)?;
        let read = beneath::open_for_reading(&root, &rel).and_then(|file| {
            let before = file.metadata().map_err(ReadError::Io)?;
            let doc = read::read_document(&file, self.options.max_file_size, None)?;
            let after = file.metadata().map_err(ReadError::Io)?;
            let large = after.len() >= search::halves::PARALLEL_FROM;
            let key = (large && hash_memo::is_local(&file))
                .then(|| FileKey::settled(&before, &after, hash_memo::SETTLED))
                .flatten();
            Ok((doc, key))
        });
        let (doc, key) = read.map_err(|error| self.read_error(&path, error))?;
        Ok((OpenFile { path, doc }, key))
    }

    /// A large UTF-8 file mapped for a search instead of read
    /// ([`search::mapped`]), with the key of [`Workspace::read_keyed`];
    /// `None` when it is small or cannot be mapped (then read it: the read
    /// gives every verdict and message).
    pub fn map_keyed(
        &self,
        given: &str,
    ) -> Result<Option<(ResolvedPath, MappedText, Option<FileKey>)>, WorkspaceError> {
        let path = self.resolve_file(given)?;
        let (root, rel) = self.handle(&path)?;
        let Ok(file) = beneath::open_for_reading(&root, &rel) else {
            return Ok(None);
        };
        let Ok(before) = file.metadata() else {
            return Ok(None);
        };
        if before.len() < search::halves::PARALLEL_FROM
            || read::check_readable(&before, self.options.max_file_size).is_err()
        {
            return Ok(None);
        }
        let Some(text) = file
            .try_clone()
            .ok()
            .and_then(|handle| map_text(handle, self.options.max_file_size))
        else {
            return Ok(None);
        };
        // Mapping needs a local file system, which the key needs too.
        let key = file
            .metadata()
            .ok()
            .and_then(|after| FileKey::settled(&before, &after, hash_memo::SETTLED));
        Ok(Some((path, text, key)))
    }

    /// The hash of `doc`, read with `key` by [`Workspace::read_keyed`], to
    /// report: remembered for a large file that has not changed since. Never
    /// for checking an edit, which hashes what it read.
    pub fn reported_hash(&self, doc: &Document, key: Option<FileKey>) -> String {
        self.hash_memo.get_or_hash(key, || doc.hash())
    }

    /// The hash of a mapped file's `bytes`, with `key` as for
    /// [`Workspace::reported_hash`].
    pub fn reported_hash_of(&self, bytes: &[u8], key: Option<FileKey>) -> String {
        self.hash_memo.get_or_hash(key, || file_hash(&[bytes]))
    }

    /// Takes the write lock of a resolved file: an OS lock on the file
    /// itself, which every process editing it finds.
    pub fn lock(&self, path: &ResolvedPath) -> Result<FileLock, WorkspaceError> {
        let (root, rel) = self.handle(path)?;
        file_lock::lock_file(&root, &rel, self.options.lock_timeout)
            .map_err(|error| self.lock_error(path, error))
    }

    /// Takes the lock of a resolved folder.
    pub fn lock_folder(&self, path: &ResolvedPath) -> Result<FolderLock, WorkspaceError> {
        let (root, rel) = self.handle(path)?;
        file_lock::lock_folder(&root, &rel, self.options.lock_timeout)
            .map_err(|error| self.lock_error(path, error))
    }

    /// The error of locking `path`.
    fn lock_error(&self, path: &ResolvedPath, error: LockError) -> WorkspaceError {
        match error {
            LockError::Open(error) => self.read_error(path, error),
            LockError::Io(e) if beneath::is_escape(&e) => self.escaped(path),
            error => WorkspaceError::Lock {
                path: path.real.clone(),
                error,
            },
        }
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
    use crate::workspace::commit::BatchItem;

    fn workspace() -> (tempfile::TempDir, Workspace) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("root")).unwrap();
        let ws =
            Workspace::new(vec![dir.path().join("root")], WorkspaceOptions::default()).unwrap();
        (dir, ws)
    }

    fn item<'a>(given: &'a str, expected_hash: Option<&'a str>) -> BatchItem<'a> {
        BatchItem {
            expected_hash,
            ..BatchItem::new(given)
        }
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
            .edit("test", item("a.txt", Some("0000000000000000")), true, upper)
            .unwrap_err();
        assert!(matches!(err, WorkspaceError::StaleHash { .. }), "{err}");
        assert_eq!(std::fs::read(&path).unwrap(), b"abc");
        let hash = ws.read("a.txt", None).unwrap().doc.hash();
        let edited = ws
            .edit("test", item("a.txt", Some(&hash)), true, upper)
            .unwrap();
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
        let (root, rel) = fork.handle(&path).unwrap();
        assert!(file_lock::try_lock_file(&root, &rel).unwrap().is_none());
        drop(held);
        assert!(file_lock::try_lock_file(&root, &rel).unwrap().is_some());
    }

    #[test]
    fn dry_run_writes_nothing() {
        let (dir, ws) = workspace();
        let path = dir.path().join("root/a.txt");
        std::fs::write(&path, "abc").unwrap();
        let edited = ws.edit("test", item("a.txt", None), false, upper).unwrap();
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
            ws.edit("test", item("a.txt", Some("xyz")), true, upper),
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
