//! Atomic writes: a file is either wholly its old bytes or wholly its new ones,
//! never a mixture, even if the process is killed mid-write, and a killed
//! write leaves nothing behind.
//!
//! On Linux the new bytes go to an unnamed file (`O_TMPFILE`) in the target's
//! folder, opened through the folder's handle. They get the original file's
//! permissions, extended attributes (POSIX ACLs among them, see
//! [`super::xattrs`]) and owner (where allowed), are written and synced, and
//! only then does the file get a name: it is linked under a random hidden name and
//! at once renamed over the target, the shortest window the system allows,
//! and the folder is synced. A process killed before that leaves no file at
//! all. A new file is linked straight under its own name, which fails if the
//! name is taken, so nothing is ever overwritten.
//!
//! Where unnamed files are not available (another system, or a file system
//! that refuses `O_TMPFILE`), the bytes go to a named temp file in the same
//! folder instead. Every name a write gives its bytes before the rename is
//! `.<name>.<random>.mcp-server-text.tmp`, so one left by a killed process
//! can be recognised and removed later (see [`stale_temp_target`] and
//! [`super::stale_temps`]). A change of several files names its new bytes
//! (`.mcp-server-text.new`) and keeps a second name for the old ones
//! (`.mcp-server-text.old`) while its intent record lists them; only the
//! recovery of that record removes those (see [`super::commit`]).
//!
//! ```
//! use std::ffi::OsStr;
//! use cap_std::{ambient_authority, fs::Dir};
//! use mcp_server_text::workspace::atomic_write::write_in;
//!
//! let dir = tempfile::tempdir().unwrap();
//! let folder = Dir::open_ambient_dir(dir.path(), ambient_authority()).unwrap();
//! write_in(&folder, OsStr::new("note.md"), None, &mut |out| out.write_all(b"new\n")).unwrap();
//! assert_eq!(std::fs::read(dir.path().join("note.md")).unwrap(), b"new\n");
//! ```

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io::{self, Write};
use std::os::fd::AsFd;
use std::os::unix::fs::{FileExt, MetadataExt};
use std::path::{Path, PathBuf};

use cap_std::fs::Dir;
use rustix::fs::{AtFlags, Mode, OFlags};
use rustix::io::Errno;

/// The suffix of every temp file this program names.
pub const TEMP_SUFFIX: &str = ".mcp-server-text.tmp";

/// The suffix of the new bytes of a change of several files, named in its
/// intent record: only the recovery of that record removes them.
pub const STAGED_SUFFIX: &str = ".mcp-server-text.new";

/// The suffix of a second name kept for a file's old bytes while a change
/// of several files replaces it, named in its intent record.
pub const BACKUP_SUFFIX: &str = ".mcp-server-text.old";

/// The mode of a new file (permissions are set explicitly, whatever the umask).
const NEW_FILE_MODE: u32 = 0o644;

/// How the new bytes are held until they replace the target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TempKind {
    /// An unnamed file where the system has them, else a named one.
    Unnamed,
    /// A named temp file beside the target (the fallback; tests force it).
    Named,
}

/// Writes `name` in `folder` atomically with the bytes `fill` writes. With
/// `keep`, the file being replaced (open), its permissions, owner and
/// extended attributes are kept; a new file gets `0644`.
pub fn write_in(
    folder: &Dir,
    name: &OsStr,
    keep: Option<&File>,
    fill: &mut dyn FnMut(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    stage(folder, name, keep, TempKind::Unnamed, fill)?.commit()
}

/// The new bytes of a file, written and synced, not yet in place. Dropping
/// it without committing leaves nothing: an unnamed file vanishes by itself,
/// a named one is removed.
#[derive(Debug)]
pub struct Staged {
    folder: Dir,
    target: OsString,
    temp: Temp,
    durability: Durability,
}

/// When staged bytes and their rename are made durable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Durability {
    /// Each file on its own: its bytes are synced when staged, its folder
    /// when it is put in place.
    Each,
    /// By the caller, for many files at once (see [`sync_together`]): a
    /// change of several files syncs all its staged bytes together before
    /// its intent record is committed, and its folders once after the
    /// renames, instead of two syncs per file.
    Together,
}

#[derive(Debug)]
enum Temp {
    Unnamed(File),
    Named {
        file: File,
        name: OsString,
    },
    /// Already renamed or removed.
    Spent,
}

/// Writes the new bytes of `name` in `folder` and syncs them, without
/// touching `name` itself yet. Batches stage every file first and commit
/// only when all were staged.
pub fn stage(
    folder: &Dir,
    name: &OsStr,
    keep: Option<&File>,
    kind: TempKind,
    fill: &mut dyn FnMut(&mut dyn Write) -> io::Result<()>,
) -> io::Result<Staged> {
    stage_with(folder, name, keep, kind, Durability::Each, fill)
}

/// [`stage`], with the syncs left to the caller when `durability` is
/// [`Durability::Together`]: neither the bytes nor, at the commit, the
/// folder are synced here.
pub fn stage_with(
    folder: &Dir,
    name: &OsStr,
    keep: Option<&File>,
    kind: TempKind,
    durability: Durability,
    fill: &mut dyn FnMut(&mut dyn Write) -> io::Result<()>,
) -> io::Result<Staged> {
    let folder = folder.try_clone()?;
    let temp = match kind {
        TempKind::Unnamed => match open_unnamed(&folder) {
            Some(file) => Temp::Unnamed(file),
            None => open_named(&folder, name)?,
        },
        TempKind::Named => open_named(&folder, name)?,
    };
    let staged = Staged {
        folder,
        target: name.to_os_string(),
        temp,
        durability,
    };
    let file = staged.file();
    {
        let mut out = io::BufWriter::with_capacity(1 << 16, file);
        fill(&mut out)?;
        out.flush()?;
    }
    // The metadata first, so that the sync makes it durable with the bytes.
    set_metadata(file, keep)?;
    if durability == Durability::Each {
        file.sync_all()?;
    }
    Ok(staged)
}

impl Staged {
    /// The name of the file the staged bytes are for.
    pub fn target(&self) -> &OsStr {
        &self.target
    }

    /// The file holding the staged bytes.
    pub fn staged_file(&self) -> &File {
        self.file()
    }

    /// Gives the staged bytes the name `name` in the target's folder (made
    /// by [`own_name`]), which must not exist: from then on they survive
    /// the process, for a change of several files whose intent record
    /// names them, until they are renamed into place or removed.
    pub fn name_as(&mut self, name: &OsStr) -> io::Result<()> {
        match &self.temp {
            Temp::Unnamed(file) => match link_unnamed(file, &self.folder, name) {
                Ok(()) => {
                    let Temp::Unnamed(file) = std::mem::replace(&mut self.temp, Temp::Spent) else {
                        unreachable!("matched just above")
                    };
                    self.temp = Temp::Named {
                        file,
                        name: name.to_os_string(),
                    };
                    Ok(())
                }
                Err(Errno::EXIST) => Err(Errno::EXIST.into()),
                Err(_) => {
                    self.temp = self.copy_to(name)?;
                    Ok(())
                }
            },
            Temp::Named { name: old, .. } => {
                rename_noreplace(&self.folder, old, name)?;
                if let Temp::Named { name: held, .. } = &mut self.temp {
                    *held = name.to_os_string();
                }
                Ok(())
            }
            Temp::Spent => Err(io::Error::other("the staged bytes were used already")),
        }
    }

    /// Whether the bytes are held in an unnamed file.
    pub fn is_unnamed(&self) -> bool {
        matches!(self.temp, Temp::Unnamed(_))
    }

    /// The name of the named temp file holding the bytes, if they have one.
    pub fn temp_name(&self) -> Option<&OsStr> {
        match &self.temp {
            Temp::Named { name, .. } => Some(name),
            _ => None,
        }
    }

    /// The folder the bytes are staged in, which holds the target.
    pub fn folder(&self) -> &Dir {
        &self.folder
    }

    /// Syncs the folder unless the caller syncs it with others.
    fn sync_folder_now(&self) {
        if self.durability == Durability::Each {
            sync_folder(&self.folder);
        }
    }

    fn file(&self) -> &File {
        match &self.temp {
            Temp::Unnamed(file) | Temp::Named { file, .. } => file,
            Temp::Spent => unreachable!("a spent temp file is never written"),
        }
    }

    /// Puts the staged bytes in place of the target (replacing it, or
    /// creating it) and syncs the folder.
    pub fn commit(mut self) -> io::Result<()> {
        let temp_name = self.name_it()?;
        let renamed = rustix::fs::renameat(&self.folder, &temp_name, &self.folder, &self.target);
        if let Err(error) = renamed {
            let _ = rustix::fs::unlinkat(&self.folder, &temp_name, AtFlags::empty());
            self.temp = Temp::Spent;
            return Err(error.into());
        }
        self.temp = Temp::Spent;
        self.sync_folder_now();
        Ok(())
    }

    /// Puts the staged bytes in place only if nothing exists at the target
    /// yet: one that appeared meanwhile is never overwritten (the error is
    /// then `AlreadyExists`).
    pub fn commit_new(mut self) -> io::Result<()> {
        if let Temp::Unnamed(file) = &self.temp {
            match link_unnamed(file, &self.folder, &self.target) {
                Ok(()) => {
                    self.temp = Temp::Spent;
                    self.sync_folder_now();
                    return Ok(());
                }
                Err(Errno::EXIST) => return Err(Errno::EXIST.into()),
                // No way to name an unnamed file here: copy it into a named one.
                Err(_) => self.temp = self.copy_to_named()?,
            }
        }
        let Temp::Named { name, .. } = &self.temp else {
            unreachable!("an unnamed temp file was named or copied above")
        };
        let name = name.clone();
        let moved = rename_noreplace(&self.folder, &name, &self.target);
        if moved.is_err() {
            let _ = rustix::fs::unlinkat(&self.folder, &name, AtFlags::empty());
        }
        self.temp = Temp::Spent;
        moved?;
        self.sync_folder_now();
        Ok(())
    }

    /// Gives the bytes a hidden temp name (for an unnamed file, a link; if
    /// that is refused, a copy) and returns it.
    fn name_it(&mut self) -> io::Result<OsString> {
        if let Temp::Unnamed(file) = &self.temp {
            for _ in 0..100 {
                let name = temp_name(&self.target);
                match link_unnamed(file, &self.folder, &name) {
                    Ok(()) => return Ok(name),
                    Err(Errno::EXIST) => continue,
                    Err(_) => break,
                }
            }
            self.temp = self.copy_to_named()?;
        }
        match &self.temp {
            Temp::Named { name, .. } => Ok(name.clone()),
            _ => unreachable!("the bytes were just given a name"),
        }
    }

    /// A named temp file with the same bytes and metadata as the unnamed one.
    fn copy_to_named(&self) -> io::Result<Temp> {
        let Temp::Named { file, name } = open_named(&self.folder, &self.target)? else {
            unreachable!("open_named returns a named temp file")
        };
        self.fill_copy(file, name)
    }

    /// A copy of the unnamed file's bytes and metadata, named `name`.
    fn copy_to(&self, name: &OsStr) -> io::Result<Temp> {
        let fd = rustix::fs::openat(
            &self.folder,
            name,
            OFlags::CREATE | OFlags::EXCL | OFlags::RDWR | OFlags::NOFOLLOW | OFlags::CLOEXEC,
            Mode::from_raw_mode(0o600),
        )?;
        self.fill_copy(File::from(fd), name.to_os_string())
    }

    fn fill_copy(&self, file: File, name: OsString) -> io::Result<Temp> {
        let source = self.file();
        let copied = (|| {
            let mut buffer = vec![0u8; 1 << 16];
            let mut offset = 0u64;
            loop {
                let n = source.read_at(&mut buffer, offset)?;
                if n == 0 {
                    break;
                }
                file.write_all_at(&buffer[..n], offset)?;
                offset += n as u64;
            }
            set_metadata(&file, Some(source))?;
            file.sync_all()
        })();
        if let Err(error) = copied {
            let _ = rustix::fs::unlinkat(&self.folder, &name, AtFlags::empty());
            return Err(error);
        }
        Ok(Temp::Named { file, name })
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        if let Temp::Named { name, .. } = &self.temp {
            let _ = rustix::fs::unlinkat(&self.folder, name, AtFlags::empty());
        }
    }
}

/// An unnamed file in `folder`, or `None` where the system or the file
/// system has none.
#[cfg(any(target_os = "linux", target_os = "android"))]
fn open_unnamed(folder: &Dir) -> Option<File> {
    rustix::fs::openat(
        folder,
        ".",
        OFlags::TMPFILE | OFlags::RDWR | OFlags::CLOEXEC,
        Mode::from_raw_mode(0o600),
    )
    .ok()
    .map(File::from)
}

/// An unnamed file in `folder`, or `None` where the system or the file
/// system has none.
#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn open_unnamed(_folder: &Dir) -> Option<File> {
    None
}

/// Links the unnamed `file` into `folder` as `name`; fails if `name` exists.
#[cfg(any(target_os = "linux", target_os = "android"))]
fn link_unnamed(file: &File, folder: &Dir, name: &OsStr) -> Result<(), Errno> {
    // Linking a descriptor directly needs a capability most users lack; the
    // descriptor's /proc entry works for everyone where /proc is mounted.
    match rustix::fs::linkat(file, "", folder, name, AtFlags::EMPTY_PATH) {
        Ok(()) => return Ok(()),
        Err(Errno::EXIST) => return Err(Errno::EXIST),
        Err(_) => {}
    }
    let proc_path = format!("/proc/self/fd/{}", {
        use std::os::fd::AsRawFd;
        file.as_fd().as_raw_fd()
    });
    rustix::fs::linkat(
        rustix::fs::CWD,
        proc_path.as_str(),
        folder,
        name,
        AtFlags::SYMLINK_FOLLOW,
    )
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn link_unnamed(_file: &File, _folder: &Dir, _name: &OsStr) -> Result<(), Errno> {
    Err(Errno::NOSYS)
}

/// A new temp file named for `target`, created so that it can be nothing
/// else: not a link followed, not a file that already exists.
fn open_named(folder: &Dir, target: &OsStr) -> io::Result<Temp> {
    loop {
        let name = temp_name(target);
        match rustix::fs::openat(
            folder,
            &name,
            OFlags::CREATE | OFlags::EXCL | OFlags::RDWR | OFlags::NOFOLLOW | OFlags::CLOEXEC,
            Mode::from_raw_mode(0o600),
        ) {
            Ok(fd) => {
                return Ok(Temp::Named {
                    file: File::from(fd),
                    name,
                });
            }
            Err(Errno::EXIST) => continue,
            Err(error) => return Err(error.into()),
        }
    }
}

/// `.<target>.<random>.mcp-server-text.tmp`.
fn temp_name(target: &OsStr) -> OsString {
    own_name(target, TEMP_SUFFIX)
}

/// `.<target>.<random><suffix>`: a hidden name beside `target` for bytes of
/// this program.
pub fn own_name(target: &OsStr, suffix: &str) -> OsString {
    let mut name = OsString::from(".");
    name.push(target);
    name.push(".");
    name.push((0..8).map(|_| fastrand::alphanumeric()).collect::<String>());
    name.push(suffix);
    name
}

/// Whether `name` is one this program gives bytes of its own beside a file
/// (a temp file, or the staged or old bytes of a change of several files):
/// listings leave them out.
pub fn is_own_name(name: &OsStr) -> bool {
    let Some(name) = name.to_str() else {
        return false;
    };
    [TEMP_SUFFIX, STAGED_SUFFIX, BACKUP_SUFFIX]
        .iter()
        .any(|suffix| {
            name.strip_prefix('.')
                .and_then(|inner| inner.strip_suffix(suffix))
                .and_then(|inner| inner.rsplit_once('.'))
                .is_some_and(|(target, random)| !target.is_empty() && !random.is_empty())
        })
}

/// Renames `from` to `to` in `folder` unless `to` exists.
fn rename_noreplace(folder: &Dir, from: &OsStr, to: &OsStr) -> io::Result<()> {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    match rustix::fs::renameat_with(folder, from, folder, to, rustix::fs::RenameFlags::NOREPLACE) {
        Ok(()) => return Ok(()),
        Err(Errno::EXIST) => return Err(Errno::EXIST.into()),
        // The file system cannot refuse to replace: link, which can.
        Err(_) => {}
    }
    rustix::fs::linkat(folder, from, folder, to, AtFlags::empty())?;
    rustix::fs::unlinkat(folder, from, AtFlags::empty())?;
    Ok(())
}

/// Gives a staged file the permissions, extended attributes (ACLs among
/// them) and, where allowed, the owner of the file it replaces, or those of
/// a new file.
fn set_metadata(file: &File, keep: Option<&File>) -> io::Result<()> {
    match keep {
        Some(original) => {
            let meta = original.metadata()?;
            // Only succeeds when allowed (same owner, or privileged); a failure
            // leaves the new file owned by whoever runs the server, which is
            // the best that can be done. The owner goes first: a change of
            // owner clears the set-user and set-group bits the mode then sets.
            let _ = rustix::fs::fchown(
                file,
                Some(rustix::fs::Uid::from_raw(meta.uid())),
                Some(rustix::fs::Gid::from_raw(meta.gid())),
            );
            rustix::fs::fchmod(file, Mode::from_raw_mode(meta.mode() & 0o7777))?;
            super::xattrs::copy_xattrs(original, file)?;
        }
        None => rustix::fs::fchmod(file, Mode::from_raw_mode(NEW_FILE_MODE))?,
    }
    Ok(())
}

/// Syncs a folder, making renames in it durable; failures are ignored.
pub fn sync_folder(folder: &Dir) {
    // Not possible on every platform or file system, and the data is
    // already synced, so a failure here is not an error.
    let _ = rustix::fs::fsync(folder);
}

/// Makes `files` and `folders` durable together: their syncs are issued
/// at once from a few threads, so that the file system commits them in a
/// few journal transactions instead of one per file. The first failure is
/// returned (a folder's failure is ignored, as in [`sync_folder`]).
///
/// On ext4, for a change of 500 small files in 25 folders, this took about
/// two thirds of the time of the same syncs one after another, and less
/// than one `syncfs` of the whole file system, which also waits for every
/// other program's unwritten data (`cargo bench --bench commit_many`).
pub fn sync_together(files: &[&File], folders: &[&Dir]) -> io::Result<()> {
    /// Syncs in flight at once.
    const THREADS: usize = 32;
    enum Item<'a> {
        File(&'a File),
        Folder(&'a Dir),
    }
    let items: Vec<Item> = files
        .iter()
        .map(|f| Item::File(f))
        .chain(folders.iter().map(|d| Item::Folder(d)))
        .collect();
    if items.is_empty() {
        return Ok(());
    }
    let chunk = items.len().div_ceil(THREADS);
    std::thread::scope(|scope| {
        let workers: Vec<_> = items
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    for item in part {
                        match item {
                            Item::File(file) => file.sync_all()?,
                            Item::Folder(folder) => sync_folder(folder),
                        }
                    }
                    Ok::<(), io::Error>(())
                })
            })
            .collect();
        workers
            .into_iter()
            .try_for_each(|w| w.join().expect("a sync does not panic"))
    })
}

/// If `temp` is named like a temp file of this program, the file it was
/// written for: `.<name>.<random>.mcp-server-text.tmp` gives `<name>` beside it.
pub fn stale_temp_target(temp: &Path) -> Option<PathBuf> {
    let file_name = temp.file_name()?.to_str()?;
    let inner = file_name.strip_prefix('.')?.strip_suffix(TEMP_SUFFIX)?;
    let (name, random) = inner.rsplit_once('.')?;
    if name.is_empty() || random.is_empty() {
        return None;
    }
    Some(temp.with_file_name(name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use cap_std::ambient_authority;
    use std::fs;
    use std::os::unix::fs::PermissionsExt;

    fn folder() -> (tempfile::TempDir, Dir) {
        let dir = tempfile::tempdir().unwrap();
        let handle = Dir::open_ambient_dir(dir.path(), ambient_authority()).unwrap();
        (dir, handle)
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    fn write_kind(dir: &Path, folder: &Dir, kind: TempKind, content: &[u8]) -> Vec<String> {
        let path = dir.join("a.txt");
        let keep = fs::File::open(&path).ok();
        let mut seen = Vec::new();
        stage(
            folder,
            OsStr::new("a.txt"),
            keep.as_ref(),
            kind,
            &mut |out| {
                out.write_all(&content[..content.len() / 2])?;
                out.flush()?;
                seen = names(dir);
                out.write_all(&content[content.len() / 2..])
            },
        )
        .unwrap()
        .commit()
        .unwrap();
        seen
    }

    #[test]
    fn no_named_file_appears_while_the_bytes_are_written() {
        let (dir, folder) = folder();
        let path = dir.path().join("a.txt");
        fs::write(&path, "old").unwrap();
        let seen = write_kind(dir.path(), &folder, TempKind::Unnamed, b"new bytes");
        assert_eq!(seen, ["a.txt"], "only the file itself during the write");
        assert_eq!(fs::read(&path).unwrap(), b"new bytes");
        assert_eq!(names(dir.path()), ["a.txt"]);
    }

    #[test]
    fn the_named_fallback_writes_the_same_and_leaves_nothing() {
        let (dir, folder) = folder();
        let path = dir.path().join("a.txt");
        fs::write(&path, "old").unwrap();
        let seen = write_kind(dir.path(), &folder, TempKind::Named, b"new bytes");
        assert_eq!(seen.len(), 2, "{seen:?}");
        assert_eq!(
            stale_temp_target(&dir.path().join(&seen[0])),
            Some(path.clone()),
            "the temp file is named for its target: {seen:?}"
        );
        assert_eq!(fs::read(&path).unwrap(), b"new bytes");
        assert_eq!(names(dir.path()), ["a.txt"]);
    }

    #[test]
    fn permissions_are_kept_and_new_files_get_0644() {
        for kind in [TempKind::Unnamed, TempKind::Named] {
            let (dir, folder) = folder();
            let path = dir.path().join("a.txt");
            fs::write(&path, "old").unwrap();
            fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
            write_kind(dir.path(), &folder, kind, b"new");
            let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o7777;
            assert_eq!(mode, 0o640, "{kind:?}");

            stage(&folder, OsStr::new("b.txt"), None, kind, &mut |out| {
                out.write_all(b"b")
            })
            .unwrap()
            .commit_new()
            .unwrap();
            let mode = fs::metadata(dir.path().join("b.txt"))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o7777, 0o644, "{kind:?}");
        }
    }

    #[test]
    fn a_failed_fill_leaves_the_file_and_no_temp() {
        for kind in [TempKind::Unnamed, TempKind::Named] {
            let (dir, folder) = folder();
            let path = dir.path().join("a.txt");
            fs::write(&path, "old").unwrap();
            let err = stage(&folder, OsStr::new("a.txt"), None, kind, &mut |out| {
                out.write_all(b"partial")?;
                Err(io::Error::other("disk on fire"))
            })
            .unwrap_err();
            assert_eq!(err.to_string(), "disk on fire");
            assert_eq!(fs::read(&path).unwrap(), b"old");
            assert_eq!(names(dir.path()), ["a.txt"], "{kind:?}");
        }
    }

    #[test]
    fn a_new_file_never_replaces_one_that_appeared_meanwhile() {
        for kind in [TempKind::Unnamed, TempKind::Named] {
            let (dir, folder) = folder();
            let staged = stage(&folder, OsStr::new("n.txt"), None, kind, &mut |out| {
                out.write_all(b"new")
            })
            .unwrap();
            fs::write(dir.path().join("n.txt"), "theirs").unwrap();
            let err = staged.commit_new().unwrap_err();
            assert_eq!(err.kind(), io::ErrorKind::AlreadyExists, "{kind:?}");
            assert_eq!(fs::read(dir.path().join("n.txt")).unwrap(), b"theirs");
            assert_eq!(names(dir.path()), ["n.txt"], "{kind:?}");
        }
    }

    #[test]
    fn a_dropped_stage_leaves_nothing() {
        for kind in [TempKind::Unnamed, TempKind::Named] {
            let (dir, folder) = folder();
            let staged = stage(&folder, OsStr::new("n.txt"), None, kind, &mut |out| {
                out.write_all(b"new")
            })
            .unwrap();
            assert_eq!(staged.is_unnamed(), kind == TempKind::Unnamed);
            drop(staged);
            assert!(names(dir.path()).is_empty(), "{kind:?}");
        }
    }

    #[test]
    fn recognises_its_own_temp_names() {
        let name = temp_name(OsStr::new("note.md"));
        let temp = Path::new("/v").join(&name);
        assert_eq!(stale_temp_target(&temp), Some(PathBuf::from("/v/note.md")));
        assert_eq!(stale_temp_target(Path::new("/v/note.md")), None);
        assert_eq!(
            stale_temp_target(Path::new("/v/.x.mcp-server-text.tmp")),
            None
        );
    }
}
