//! Opening files and folders beneath a root's directory handle.
//!
//! A path is checked once, by name, to choose its root and to explain a
//! refusal; after that every open, listing, rename and removal goes through
//! the root's [`Dir`] handle with the path relative to it. On Linux `cap-std`
//! resolves such paths with `openat2(RESOLVE_BENEATH)`, elsewhere component
//! by component, so a folder swapped for a symbolic link between the check
//! and the use can redirect nothing outside the root: the open fails instead.
//!
//! Files are opened for reading with `O_NONBLOCK` and looked at with `fstat`
//! before a byte is read, so a FIFO or a device is refused instead of
//! blocking a thread, and reads stop after `max + 1` bytes however much a
//! file grows meanwhile.
//!
//! ```
//! use cap_std::ambient_authority;
//! use cap_std::fs::Dir;
//! use mcp_server_text::workspace::beneath::open_for_reading;
//! use mcp_server_text::workspace::read::read_limited;
//!
//! let dir = tempfile::tempdir().unwrap();
//! std::fs::create_dir(dir.path().join("notes")).unwrap();
//! std::fs::write(dir.path().join("notes/a.md"), "hello").unwrap();
//! let root = Dir::open_ambient_dir(dir.path(), ambient_authority()).unwrap();
//! let file = open_for_reading(&root, "notes/a.md".as_ref()).unwrap();
//! assert_eq!(read_limited(&file, 100).unwrap(), b"hello");
//! assert!(read_limited(&open_for_reading(&root, "notes/a.md".as_ref()).unwrap(), 4).is_err());
//! assert!(open_for_reading(&root, "../x".as_ref()).is_err());
//! ```

use std::ffi::OsStr;
use std::fs::File;
use std::io;
use std::os::fd::AsFd;
use std::path::{Path, PathBuf};

use cap_std::fs::{Dir, OpenOptions, OpenOptionsExt};
use rustix::fs::OFlags;

use super::read::ReadError;

/// Whether `error` is `cap-std` refusing a path that would leave its handle.
pub fn is_escape(error: &io::Error) -> bool {
    // cap-std reports an escape as PermissionDenied without an OS error code;
    // a real EACCES always carries one.
    error.kind() == io::ErrorKind::PermissionDenied && error.raw_os_error().is_none()
}

/// `rel` as cap-std takes it: the empty path (the root itself) is `.`.
pub fn or_dot(rel: &Path) -> &Path {
    if rel.as_os_str().is_empty() {
        Path::new(".")
    } else {
        rel
    }
}

/// Opens the folder at `rel` beneath `root` (symbolic links followed, never
/// out of `root`) with a descriptor that can list, lock and sync it.
pub fn open_folder(root: &Dir, rel: &Path) -> io::Result<Dir> {
    let file = root.open_with(
        or_dot(rel),
        OpenOptions::new()
            .read(true)
            .custom_flags(OFlags::DIRECTORY.bits() as i32),
    )?;
    Ok(Dir::from_std_file(file.into_std()))
}

/// Opens the subfolder `name` of `dir`, refusing a symbolic link: walks use
/// this so they never leave the folder they started in.
pub fn open_folder_nofollow(dir: &Dir, name: &OsStr) -> io::Result<Dir> {
    let file = dir.open_with(
        name,
        OpenOptions::new()
            .read(true)
            .custom_flags((OFlags::DIRECTORY | OFlags::NOFOLLOW).bits() as i32),
    )?;
    Ok(Dir::from_std_file(file.into_std()))
}

/// The folder holding `rel` (opened as by [`open_folder`]) and `rel`'s last
/// name. `rel` must name something inside the root, not the root itself.
pub fn open_parent<'a>(root: &Dir, rel: &'a Path) -> io::Result<(Dir, &'a OsStr)> {
    let name = rel
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "the path has no file name"))?;
    let parent = open_folder(root, rel.parent().unwrap_or(Path::new("")))?;
    Ok((parent, name))
}

/// Opens `rel` beneath `dir` for reading without ever blocking on it: a
/// folder, FIFO, socket or device is refused by its `fstat`, before a byte is
/// read. The returned file reads normally (blocking, like any regular file).
pub fn open_for_reading(dir: &Dir, rel: &Path) -> Result<File, ReadError> {
    let file = dir
        .open_with(
            or_dot(rel),
            OpenOptions::new()
                .read(true)
                .custom_flags(OFlags::NONBLOCK.bits() as i32),
        )
        .map_err(ReadError::Io)?
        .into_std();
    let meta = file.metadata().map_err(ReadError::Io)?;
    if meta.is_dir() {
        return Err(ReadError::IsDirectory);
    }
    if !meta.is_file() {
        return Err(ReadError::NotAFile);
    }
    let flags = rustix::fs::fcntl_getfl(&file).map_err(|e| ReadError::Io(e.into()))?;
    rustix::fs::fcntl_setfl(&file, flags - OFlags::NONBLOCK)
        .map_err(|e| ReadError::Io(e.into()))?;
    Ok(file)
}

/// Splits `rel` (a path beneath `root` that may not exist) into its deepest
/// existing folder and the folders missing below it, outermost first; the
/// last name of `rel` itself is in neither.
pub fn existing_and_missing(root: &Dir, rel: &Path) -> io::Result<(PathBuf, Vec<PathBuf>)> {
    let mut missing = Vec::new();
    let mut existing = rel.parent().unwrap_or(Path::new(""));
    loop {
        match root.symlink_metadata(or_dot(existing)) {
            Ok(_) => break,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                missing.push(existing.to_path_buf());
                existing = existing.parent().unwrap_or(Path::new(""));
            }
            Err(e) => return Err(e),
        }
    }
    missing.reverse();
    Ok((existing.to_path_buf(), missing))
}

/// The identity of a file: the device and inode it lives at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileId {
    dev: u64,
    ino: u64,
}

impl FileId {
    /// The identity of an open file or folder.
    pub fn of(fd: impl AsFd) -> io::Result<FileId> {
        let stat = rustix::fs::fstat(fd)?;
        Ok(FileId {
            dev: stat.st_dev as u64,
            ino: stat.st_ino as u64,
        })
    }

    /// The identity of whatever `rel` names beneath `root` now (the last
    /// name not followed if it is a link).
    pub fn at(root: &Dir, rel: &Path) -> io::Result<FileId> {
        use cap_std::fs::MetadataExt as _;
        let meta = root.symlink_metadata(or_dot(rel))?;
        Ok(FileId {
            dev: meta.dev(),
            ino: meta.ino(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cap_std::ambient_authority;

    fn root() -> (tempfile::TempDir, Dir) {
        let dir = tempfile::tempdir().unwrap();
        let handle = Dir::open_ambient_dir(dir.path(), ambient_authority()).unwrap();
        (dir, handle)
    }

    #[test]
    fn a_fifo_is_refused_at_once() {
        let (dir, root) = root();
        rustix::fs::mkfifoat(
            rustix::fs::CWD,
            dir.path().join("pipe.md"),
            rustix::fs::Mode::from_raw_mode(0o644),
        )
        .unwrap();
        let started = std::time::Instant::now();
        assert!(matches!(
            open_for_reading(&root, Path::new("pipe.md")),
            Err(ReadError::NotAFile)
        ));
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
        assert!(matches!(
            open_for_reading(&root, Path::new("")),
            Err(ReadError::IsDirectory)
        ));
    }

    #[test]
    fn links_out_of_the_root_are_escapes() {
        let (dir, root) = root();
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret.md"), "secret").unwrap();
        std::os::unix::fs::symlink(outside.path(), dir.path().join("out")).unwrap();
        let Err(ReadError::Io(error)) = open_for_reading(&root, Path::new("out/secret.md")) else {
            panic!("a link out must not be opened");
        };
        assert!(is_escape(&error), "{error:?}");
        let denied = io::Error::from_raw_os_error(13);
        assert!(!is_escape(&denied));
    }
}
