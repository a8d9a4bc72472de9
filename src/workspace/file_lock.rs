//! Per-file write locks that every process finds, whatever its environment
//! or user, and that leave nothing behind.
//!
//! An edit holds the lock of its file from reading it, through the hash check,
//! to the rename of the new bytes, so two writers can never both read the same
//! old text and lose one another's change. The lock is an OS lock (`flock`) on
//! the file's own inode, opened through its root's handle: every process that
//! can open the file finds it, whatever its temp folder, home or user, no
//! lock file exists anywhere, and a killed process releases it.
//!
//! An edit replaces the file by a rename, so a waiter may get the lock of an
//! inode that is no longer the file. After taking a lock the path is looked
//! up again: if it names another inode now, the lock is taken again on that
//! one; if it names nothing, the file was moved or removed meanwhile and the
//! edit is refused ([`LockError::Gone`]) instead of writing to a stale place.
//!
//! A file that does not exist yet has no inode to lock: creating one locks
//! the folder it goes in ([`lock_folder`]), and Move locks every folder and
//! file it moves. Whoever takes several locks takes all folder locks first,
//! then all file locks, each group in the order of their real paths, so two
//! callers never wait on each other.
//!
//! ```
//! use std::path::Path;
//! use std::time::Duration;
//! use cap_std::{ambient_authority, fs::Dir};
//! use mcp_server_text::workspace::file_lock::{lock_file, try_lock_file};
//!
//! let dir = tempfile::tempdir().unwrap();
//! std::fs::write(dir.path().join("note.md"), "hi").unwrap();
//! let root = Dir::open_ambient_dir(dir.path(), ambient_authority()).unwrap();
//! let held = lock_file(&root, Path::new("note.md"), Duration::from_secs(1)).unwrap();
//! assert!(try_lock_file(&root, Path::new("note.md")).unwrap().is_none());
//! drop(held);
//! assert!(try_lock_file(&root, Path::new("note.md")).unwrap().is_some());
//! ```

use std::ffi::OsString;
use std::fs::File;
use std::io;
use std::os::fd::AsFd;
use std::path::Path;
use std::time::{Duration, Instant};

use cap_std::fs::Dir;
use rustix::fs::FlockOperation;

use super::beneath::{FileId, open_folder, open_for_reading, open_parent};
use super::read::ReadError;

/// How often a lock is taken again because a rename replaced the file
/// before giving up; each round means another writer finished meanwhile.
const MAX_RELOCKS: usize = 1000;

/// A held lock on a file; released when dropped.
#[derive(Debug)]
pub struct FileLock {
    /// The file, open for reading, locked.
    pub file: File,
    /// The folder holding it, where its new bytes are staged.
    pub parent: Dir,
    /// Its name in `parent`.
    pub name: OsString,
}

/// A held lock on a folder; released when dropped.
#[derive(Debug)]
pub struct FolderLock {
    /// The folder, open for listing and syncing, locked.
    pub dir: Dir,
}

/// Why a lock could not be taken.
#[derive(Debug)]
pub enum LockError {
    /// Another writer held the lock for the whole timeout.
    Timeout(Duration),
    /// The path names nothing any more: it was moved or removed while this
    /// call waited for it.
    Gone,
    /// The file could not be opened (it is a folder, a FIFO, …).
    Open(ReadError),
    /// The lock could not be taken.
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
            LockError::Gone => f.write_str("it was moved or removed meanwhile"),
            LockError::Open(e) => write!(f, "it cannot be opened: {e}"),
            LockError::Io(e) => write!(f, "the file's lock could not be taken: {e}"),
        }
    }
}

impl std::error::Error for LockError {}

fn gone_or(error: io::Error) -> LockError {
    if error.kind() == io::ErrorKind::NotFound {
        LockError::Gone
    } else {
        LockError::Io(error)
    }
}

/// Takes the lock of the file at `rel` beneath `root`, waiting up to `timeout`.
pub fn lock_file(root: &Dir, rel: &Path, timeout: Duration) -> Result<FileLock, LockError> {
    lock_file_until(root, rel, Some(Instant::now() + timeout), timeout)
        .map(|held| held.expect("a lock with a deadline is taken or fails"))
}

/// Takes the lock of the file at `rel` beneath `root` if nobody holds it.
pub fn try_lock_file(root: &Dir, rel: &Path) -> Result<Option<FileLock>, LockError> {
    lock_file_until(root, rel, None, Duration::ZERO)
}

/// `deadline` `None` means: do not wait, answer `None` if the lock is held.
fn lock_file_until(
    root: &Dir,
    rel: &Path,
    deadline: Option<Instant>,
    timeout: Duration,
) -> Result<Option<FileLock>, LockError> {
    for _ in 0..MAX_RELOCKS {
        let (parent, name) = open_parent(root, rel).map_err(gone_or)?;
        let file = match open_for_reading(&parent, Path::new(name)) {
            Ok(file) => file,
            Err(ReadError::Io(e)) if e.kind() == io::ErrorKind::NotFound => {
                return Err(LockError::Gone);
            }
            Err(e) => return Err(LockError::Open(e)),
        };
        if !wait_for(&file, deadline, timeout)? {
            return Ok(None);
        }
        if still_named(root, rel, &file, &parent)? {
            return Ok(Some(FileLock {
                file,
                parent,
                name: name.to_os_string(),
            }));
        }
        // A rename replaced the file while this call waited: lock the new one.
    }
    Err(LockError::Timeout(timeout))
}

/// Takes the lock of the folder at `rel` beneath `root` (`""`: the root),
/// waiting up to `timeout`.
pub fn lock_folder(root: &Dir, rel: &Path, timeout: Duration) -> Result<FolderLock, LockError> {
    lock_folder_until(root, rel, Some(Instant::now() + timeout), timeout)
        .map(|held| held.expect("a lock with a deadline is taken or fails"))
}

/// Takes the lock of the folder at `rel` beneath `root` if nobody holds it.
pub fn try_lock_folder(root: &Dir, rel: &Path) -> Result<Option<FolderLock>, LockError> {
    lock_folder_until(root, rel, None, Duration::ZERO)
}

fn lock_folder_until(
    root: &Dir,
    rel: &Path,
    deadline: Option<Instant>,
    timeout: Duration,
) -> Result<Option<FolderLock>, LockError> {
    for _ in 0..MAX_RELOCKS {
        let dir = open_folder(root, rel).map_err(gone_or)?;
        if !wait_for(&dir, deadline, timeout)? {
            return Ok(None);
        }
        let now = FileId::at(root, rel).map_err(gone_or)?;
        if now == FileId::of(&dir).map_err(LockError::Io)? {
            return Ok(Some(FolderLock { dir }));
        }
    }
    Err(LockError::Timeout(timeout))
}

/// Whether `rel` still names `file`, in the folder `parent`.
fn still_named(root: &Dir, rel: &Path, file: &File, parent: &Dir) -> Result<bool, LockError> {
    let now = FileId::at(root, rel).map_err(gone_or)?;
    if now != FileId::of(file).map_err(LockError::Io)? {
        return Ok(false);
    }
    let folder = FileId::at(root, rel.parent().unwrap_or(Path::new(""))).map_err(gone_or)?;
    Ok(folder == FileId::of(parent).map_err(LockError::Io)?)
}

/// Waits for the exclusive lock of `fd`: `Ok(false)` if `deadline` is `None`
/// and the lock is held by someone else.
fn wait_for(
    fd: impl AsFd,
    deadline: Option<Instant>,
    timeout: Duration,
) -> Result<bool, LockError> {
    let mut pause = Duration::from_millis(1);
    loop {
        match rustix::fs::flock(&fd, FlockOperation::NonBlockingLockExclusive) {
            Ok(()) => return Ok(true),
            Err(rustix::io::Errno::WOULDBLOCK) => {}
            Err(rustix::io::Errno::INTR) => continue,
            Err(e) => return Err(LockError::Io(e.into())),
        }
        let Some(deadline) = deadline else {
            return Ok(false);
        };
        let now = Instant::now();
        if now >= deadline {
            return Err(LockError::Timeout(timeout));
        }
        std::thread::sleep(pause.min(deadline - now));
        pause = (pause * 2).min(Duration::from_millis(20));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cap_std::ambient_authority;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn root() -> (tempfile::TempDir, Arc<Dir>) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("f.md"), "x").unwrap();
        let handle = Dir::open_ambient_dir(dir.path(), ambient_authority()).unwrap();
        (dir, Arc::new(handle))
    }

    #[test]
    fn serializes_threads() {
        let (_dir, root) = root();
        let inside = Arc::new(AtomicUsize::new(0));
        let handles: Vec<_> = (0..4)
            .map(|_| {
                let (root, inside) = (root.clone(), inside.clone());
                std::thread::spawn(move || {
                    for _ in 0..20 {
                        let _g =
                            lock_file(&root, Path::new("f.md"), Duration::from_secs(10)).unwrap();
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
        let (_dir, root) = root();
        let _held = lock_file(&root, Path::new("f.md"), Duration::from_secs(1)).unwrap();
        let err = lock_file(&root, Path::new("f.md"), Duration::from_millis(30)).unwrap_err();
        assert!(matches!(err, LockError::Timeout(_)), "{err}");
    }

    #[test]
    fn a_file_replaced_by_a_rename_is_locked_again_on_its_new_inode() {
        let (dir, root) = root();
        let held = lock_file(&root, Path::new("f.md"), Duration::from_secs(1)).unwrap();
        let waiter = {
            let root = root.clone();
            std::thread::spawn(move || {
                lock_file(&root, Path::new("f.md"), Duration::from_secs(10)).unwrap()
            })
        };
        std::thread::sleep(Duration::from_millis(50));
        // What an edit does: new bytes renamed over the file, then the old
        // inode's lock released.
        std::fs::write(dir.path().join("new"), "y").unwrap();
        std::fs::rename(dir.path().join("new"), dir.path().join("f.md")).unwrap();
        let old = FileId::of(&held.file).unwrap();
        drop(held);
        let relocked = waiter.join().unwrap();
        assert_ne!(FileId::of(&relocked.file).unwrap(), old);
        assert_eq!(
            FileId::of(&relocked.file).unwrap(),
            FileId::at(&root, Path::new("f.md")).unwrap()
        );
        // The new inode is the one held now.
        assert!(try_lock_file(&root, Path::new("f.md")).unwrap().is_none());
    }

    #[test]
    fn a_file_moved_away_while_waiting_is_gone() {
        let (dir, root) = root();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        std::fs::write(dir.path().join("sub/a.md"), "a").unwrap();
        let held = lock_file(&root, Path::new("sub/a.md"), Duration::from_secs(1)).unwrap();
        let waiter = {
            let root = root.clone();
            std::thread::spawn(move || {
                lock_file(&root, Path::new("sub/a.md"), Duration::from_secs(10))
            })
        };
        std::thread::sleep(Duration::from_millis(50));
        std::fs::rename(dir.path().join("sub"), dir.path().join("moved")).unwrap();
        drop(held);
        let err = waiter.join().unwrap().unwrap_err();
        assert!(matches!(err, LockError::Gone), "{err}");
        assert_eq!(err.to_string(), "it was moved or removed meanwhile");
    }

    #[test]
    fn folders_lock_too() {
        let (dir, root) = root();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        let held = lock_folder(&root, Path::new("sub"), Duration::from_secs(1)).unwrap();
        assert!(try_lock_folder(&root, Path::new("sub")).unwrap().is_none());
        // A folder lock is not a lock of the files in it.
        assert!(try_lock_file(&root, Path::new("f.md")).unwrap().is_some());
        drop(held);
        assert!(try_lock_folder(&root, Path::new("sub")).unwrap().is_some());
        assert!(try_lock_folder(&root, Path::new("")).unwrap().is_some());
    }
}
