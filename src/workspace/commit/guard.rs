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
//! the rename, or write after it to the old file it opened before; its
//! bytes then land in the old file, which no name reaches any more. They are
//! looked for after the rename and appended to the new file until no
//! program has the old file open for writing ([`carry_appended`]), so no
//! append is lost. A program that keeps the file open for writing (a
//! logger) would lose every later write, so the edit waits for it to close
//! the file and is refused if it does not ([`writer_stays`]).
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
use std::time::{Duration, Instant};

use cap_std::fs::Dir;
use rustix::fs::{AtFlags, Mode, OFlags};

use super::writers::{Writers, writers};

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

/// How long an edit waits for another program to close a file it has open
/// for writing: before the rename, to let it finish; after, to carry over
/// what it appended to the old file.
pub const WRITER_WAIT: Duration = Duration::from_secs(1);

/// Before the rename: waits until no other program has `file` open for
/// writing, for at most [`WRITER_WAIT`]; says whether one still has.
pub fn writer_stays(file: &File) -> bool {
    let deadline = Instant::now() + WRITER_WAIT;
    while writers(file) == Writers::Some {
        if Instant::now() >= deadline {
            return true;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    false
}

/// After `old` (read in state `read`) was replaced by the file now named
/// `name` in `folder`: appends to the new file the bytes another program
/// appended to `old` since, and returns how many. A program that opened
/// `old` before the rename may write to it after, so the bytes are carried
/// until no descriptor has `old` open for writing any more (no new one can
/// open it: no name reaches it), for at most [`WRITER_WAIT`]. Bytes changed
/// in place (the size the same or smaller) cannot be told apart and are not
/// carried.
pub fn carry_appended(old: &File, read: &FileState, folder: &Dir, name: &OsStr) -> io::Result<u64> {
    let deadline = Instant::now() + WRITER_WAIT;
    let mut new = None;
    let mut at = read.size;
    loop {
        // Asked before the carry: a writer gone by then wrote all it will.
        let left = writers(old);
        at = carry_from(old, at, &mut new, folder, name)?;
        if left != Writers::Some || Instant::now() >= deadline {
            break;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    if let Some(new) = new {
        new.sync_all()?;
    }
    Ok(at - read.size)
}

/// Appends to the file named `name` what `old` holds past `at` (opening it
/// into `new` the first time), and returns where `old` ends now.
fn carry_from(
    old: &File,
    mut at: u64,
    new: &mut Option<File>,
    folder: &Dir,
    name: &OsStr,
) -> io::Result<u64> {
    if FileState::of(old)?.size <= at {
        return Ok(at);
    }
    let new = match new {
        Some(file) => file,
        None => new.insert(File::from(rustix::fs::openat(
            folder,
            name,
            OFlags::WRONLY | OFlags::APPEND | OFlags::NOFOLLOW | OFlags::CLOEXEC,
            Mode::empty(),
        )?)),
    };
    let mut buffer = vec![0u8; 1 << 16];
    loop {
        let n = old.read_at(&mut buffer, at)?;
        if n == 0 {
            return Ok(at);
        }
        new.write_all(&buffer[..n])?;
        at += n as u64;
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use crate::workspace::commit::writers::{Writers, writers};
    use cap_std::ambient_authority;
    use proptest::prelude::*;
    use std::time::Duration;

    /// Replaces `a.md` by a rename while `late` programs, each of which
    /// opened it before the rename, append their line after it (after the
    /// given delay in milliseconds); returns what the new file holds.
    fn replace_under_late_writers(late: &[u64]) -> Option<String> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.md");
        std::fs::write(&path, "old\n").unwrap();
        let old = File::open(&path).unwrap();
        if writers(&old) == Writers::Unknown {
            return None;
        }
        let read = FileState::of(&old).unwrap();
        let opened: Vec<File> = late
            .iter()
            .map(|_| {
                std::fs::OpenOptions::new()
                    .append(true)
                    .open(&path)
                    .unwrap()
            })
            .collect();
        std::fs::write(dir.path().join("b.md"), "new\n").unwrap();
        std::fs::rename(dir.path().join("b.md"), &path).unwrap();
        let threads: Vec<_> = opened
            .into_iter()
            .zip(late)
            .enumerate()
            .map(|(k, (mut file, &delay))| {
                std::thread::spawn(move || {
                    std::thread::sleep(Duration::from_millis(delay));
                    file.write_all(format!("late {k}\n").as_bytes()).unwrap();
                })
            })
            .collect();
        let folder = Dir::open_ambient_dir(dir.path(), ambient_authority()).unwrap();
        carry_appended(&old, &read, &folder, OsStr::new("a.md")).unwrap();
        for thread in threads {
            thread.join().unwrap();
        }
        Some(std::fs::read_to_string(&path).unwrap())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        /// Property: every byte a program appends through a descriptor it
        /// opened before the rename ends in the new file, once, whenever it
        /// writes (within the wait).
        #[test]
        fn appends_through_descriptors_opened_before_the_rename_are_carried(
            late in proptest::collection::vec(0u64..40, 1..4)
        ) {
            let Some(text) = replace_under_late_writers(&late) else {
                eprintln!("SKIPPED: leases are not granted here");
                return Ok(());
            };
            prop_assert!(text.starts_with("new\n"), "{text}");
            for k in 0..late.len() {
                prop_assert_eq!(text.matches(&format!("late {k}\n")).count(), 1, "{}", text);
            }
            prop_assert_eq!(text.len(), 4 + late.len() * 7);
        }
    }
}
