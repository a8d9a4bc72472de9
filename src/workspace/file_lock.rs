//! Per-file write locks that hold across threads and processes.
//!
//! An edit holds the lock of its file from reading it, through the hash check,
//! to the rename of the new bytes, so two writers can never both read the same
//! old text and lose one another's change. The lock is an OS lock on a separate
//! lock file, because the edited file itself is replaced by a rename and a lock
//! on its old inode would protect nothing. Lock files live in one folder per
//! user under the system's temp folder, named by a hash of the edited file's
//! real path, so every process of the user agrees on them and none appear in
//! the roots.
//!
//! ```
//! use std::time::Duration;
//! use mcp_server_text::workspace::file_lock::LockDir;
//!
//! let dir = tempfile::tempdir().unwrap();
//! let locks = LockDir::at(dir.path().join("locks")).unwrap();
//! let file = dir.path().join("note.md");
//! let guard = locks.lock(&file, Duration::from_secs(1)).unwrap();
//! assert!(locks.try_lock(&file).unwrap().is_none());
//! drop(guard);
//! assert!(locks.try_lock(&file).unwrap().is_some());
//! ```

use std::fs::{self, File, OpenOptions, TryLockError};
use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};

/// The folder holding lock files.
#[derive(Debug, Clone)]
pub struct LockDir {
    dir: PathBuf,
}

/// A held lock; released when dropped.
#[derive(Debug)]
pub struct FileLock {
    _file: File,
}

/// Why a lock could not be taken.
#[derive(Debug)]
pub enum LockError {
    /// Another writer held the lock for the whole timeout.
    Timeout(Duration),
    /// The lock file could not be opened.
    Io(io::Error),
}

impl std::fmt::Display for LockError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LockError::Timeout(waited) => write!(
                f,
                "another edit of the same file held its lock for {} s",
                waited.as_secs()
            ),
            LockError::Io(e) => write!(f, "the file's lock could not be taken: {e}"),
        }
    }
}

impl std::error::Error for LockError {}

/// The name of this user's lock folder. On Unix it carries the user id, not
/// `$USER`: some environments servers are started in lack `$USER` (service
/// managers, `env -i`, sanitised client configurations), and two processes of
/// one user that disagree on the folder do not see each other's locks.
#[cfg(unix)]
fn shared_folder_name() -> io::Result<String> {
    use std::os::unix::fs::MetadataExt;
    // A new file is owned by the effective user id; std has no getuid.
    let probe = tempfile::tempfile()?;
    Ok(format!("mcp-server-text-locks-{}", probe.metadata()?.uid()))
}

/// The name of this user's lock folder. Elsewhere the temp folder is per user
/// already, so the name is fixed and depends on no environment variable.
#[cfg(not(unix))]
fn shared_folder_name() -> io::Result<String> {
    Ok("mcp-server-text-locks".to_string())
}

impl LockDir {
    /// The shared lock folder for this user under the system temp folder.
    pub fn shared() -> io::Result<LockDir> {
        LockDir::at(std::env::temp_dir().join(shared_folder_name()?))
    }

    /// A lock folder at `dir`, created if needed.
    pub fn at(dir: PathBuf) -> io::Result<LockDir> {
        fs::create_dir_all(&dir)?;
        Ok(LockDir { dir })
    }

    fn lock_path(&self, file: &Path) -> PathBuf {
        let digest = Sha256::digest(file.as_os_str().as_encoded_bytes());
        let name: String = digest.iter().take(16).map(|b| format!("{b:02x}")).collect();
        self.dir.join(format!("{name}.lock"))
    }

    fn open(&self, file: &Path) -> io::Result<File> {
        let path = self.lock_path(file);
        let open = || {
            OpenOptions::new()
                .create(true)
                .truncate(false)
                .write(true)
                .open(&path)
        };
        match open() {
            Ok(f) => Ok(f),
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                // The temp folder was cleaned while the server ran.
                fs::create_dir_all(&self.dir)?;
                open()
            }
            Err(e) => Err(e),
        }
    }

    /// Takes the lock of `file` (a real path), waiting up to `timeout`.
    pub fn lock(&self, file: &Path, timeout: Duration) -> Result<FileLock, LockError> {
        let handle = self.open(file).map_err(LockError::Io)?;
        let started = Instant::now();
        let mut pause = Duration::from_millis(1);
        loop {
            match handle.try_lock() {
                Ok(()) => return Ok(FileLock { _file: handle }),
                Err(TryLockError::WouldBlock) => {
                    if started.elapsed() >= timeout {
                        return Err(LockError::Timeout(timeout));
                    }
                    std::thread::sleep(pause);
                    pause = (pause * 2).min(Duration::from_millis(20));
                }
                Err(TryLockError::Error(e)) => return Err(LockError::Io(e)),
            }
        }
    }

    /// Takes the lock of `file` if nobody holds it.
    pub fn try_lock(&self, file: &Path) -> io::Result<Option<FileLock>> {
        let handle = self.open(file)?;
        match handle.try_lock() {
            Ok(()) => Ok(Some(FileLock { _file: handle })),
            Err(TryLockError::WouldBlock) => Ok(None),
            Err(TryLockError::Error(e)) => Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn serializes_threads() {
        let dir = tempfile::tempdir().unwrap();
        let locks = Arc::new(LockDir::at(dir.path().join("locks")).unwrap());
        let file = dir.path().join("f");
        let inside = Arc::new(AtomicUsize::new(0));
        let handles: Vec<_> = (0..4)
            .map(|_| {
                let (locks, file, inside) = (locks.clone(), file.clone(), inside.clone());
                std::thread::spawn(move || {
                    for _ in 0..20 {
                        let _g = locks.lock(&file, Duration::from_secs(10)).unwrap();
                        assert_eq!(inside.fetch_add(1, Ordering::SeqCst), 0);
                        std::thread::yield_now();
                        inside.fetch_sub(1, Ordering::SeqCst);
                    }
                })
            })
            .collect();
        for h in handles {
            h.join().unwrap();
        }
    }

    #[test]
    fn times_out() {
        let dir = tempfile::tempdir().unwrap();
        let locks = LockDir::at(dir.path().join("locks")).unwrap();
        let file = dir.path().join("f");
        let _held = locks.lock(&file, Duration::from_secs(1)).unwrap();
        let err = locks.lock(&file, Duration::from_millis(30)).unwrap_err();
        assert!(matches!(err, LockError::Timeout(_)));
    }
}
