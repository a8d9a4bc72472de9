//! What the committer checks of a file it replaces, besides its hash.
//!
//! When it is read: that it may be written at all. A file without a write
//! bit for this process (mode `0444`, say) is refused, though the rename
//! that replaces it would succeed in a writable folder. So is a file with
//! other names (hard links): the rename would give this name a new file and
//! leave every other name on the old text, and rewriting it in place instead
//! would leave it torn if the process were killed midway.
//!
//! Just before the rename, once the new bytes are staged and synced: that
//! nobody changed it since it was read. Its size, modification time and
//! inode are looked at again, and if any differs, the edit is refused and
//! the other writer's bytes are kept ([`FileState`]). A program that does
//! not take the lock can still append in the instant between that check and
//! the rename; its bytes then land in the old file, which no name reaches
//! any more. They are looked for after the rename and appended to the new
//! file ([`carry_appended`]), so no append is lost.
//!
//! ```
//! use mcp_server_text::workspace::commit::guard::FileState;
//!
//! let dir = tempfile::tempdir().unwrap();
//! let path = dir.path().join("a.md");
//! std::fs::write(&path, "one\n").unwrap();
//! let file = std::fs::File::open(&path).unwrap();
//! let read = FileState::of(&file).unwrap();
//! assert_eq!(FileState::of(&file).unwrap(), read);
//! use std::io::Write;
//! std::fs::OpenOptions::new().append(true).open(&path).unwrap().write_all(b"two\n").unwrap();
//! assert_ne!(FileState::of(&file).unwrap(), read);
//! ```

use std::ffi::OsStr;
use std::fs::File;
use std::io::{self, Write};
use std::os::unix::fs::{FileExt, MetadataExt};

use cap_std::fs::Dir;
use rustix::fs::{AtFlags, Mode, OFlags};

/// What says a file was changed: where it is, how long, when last written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileState {
    dev: u64,
    ino: u64,
    size: u64,
    mtime: (i64, i64),
}

impl FileState {
    /// The state of an open file.
    pub fn of(file: &File) -> io::Result<FileState> {
        let meta = file.metadata()?;
        Ok(FileState {
            dev: meta.dev(),
            ino: meta.ino(),
            size: meta.size(),
            mtime: (meta.mtime(), meta.mtime_nsec()),
        })
    }

    /// The state of whatever `name` in `folder` is now (a link not followed).
    pub fn at(folder: &Dir, name: &OsStr) -> io::Result<FileState> {
        let stat = rustix::fs::statat(folder, name, AtFlags::SYMLINK_NOFOLLOW)?;
        Ok(FileState {
            dev: stat.st_dev as u64,
            ino: stat.st_ino as u64,
            size: stat.st_size as u64,
            mtime: (stat.st_mtime as i64, stat.st_mtime_nsec as i64),
        })
    }

    /// Its size in bytes.
    pub fn size(&self) -> u64 {
        self.size
    }
}

/// Why a file may not be replaced, found when it was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unwritable {
    /// No write bit lets this process write it (its mode).
    ReadOnly(u32),
    /// It has this many names (hard links).
    HardLinked(u64),
}

/// Checks that `file`, named `name` in `folder`, may be replaced by this
/// process: a write bit for it, and no other name.
pub fn check_writable(folder: &Dir, name: &OsStr, file: &File) -> io::Result<Option<Unwritable>> {
    let meta = file.metadata()?;
    let mode = meta.mode() & 0o7777;
    // A privileged process may write anything; the bits still say what the
    // owner meant.
    let no_bit = mode & 0o222 == 0;
    let denied = match rustix::fs::accessat(
        folder,
        name,
        rustix::fs::Access::WRITE_OK,
        AtFlags::EACCESS | AtFlags::SYMLINK_NOFOLLOW,
    ) {
        Ok(()) => false,
        Err(rustix::io::Errno::ACCESS | rustix::io::Errno::ROFS) => true,
        // A system without AT_EACCESS (or one that refuses the flags):
        // the bits alone decide.
        Err(_) => false,
    };
    if no_bit || denied {
        return Ok(Some(Unwritable::ReadOnly(mode)));
    }
    if meta.nlink() > 1 {
        return Ok(Some(Unwritable::HardLinked(meta.nlink())));
    }
    Ok(None)
}

/// After `old` (read in state `read`) was replaced by the file now named
/// `name` in `folder`: appends to the new file the bytes another program
/// appended to `old` since, and returns how many. Bytes changed in place
/// (the size the same or smaller) cannot be told apart and are not carried.
pub fn carry_appended(old: &File, read: &FileState, folder: &Dir, name: &OsStr) -> io::Result<u64> {
    let now = FileState::of(old)?;
    if now.size <= read.size {
        return Ok(0);
    }
    let fd = rustix::fs::openat(
        folder,
        name,
        OFlags::WRONLY | OFlags::APPEND | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::empty(),
    )?;
    let mut new = File::from(fd);
    let mut buffer = vec![0u8; 1 << 16];
    let mut at = read.size;
    loop {
        let n = old.read_at(&mut buffer, at)?;
        if n == 0 {
            break;
        }
        new.write_all(&buffer[..n])?;
        at += n as u64;
    }
    new.sync_all()?;
    Ok(at - read.size)
}
