//! The file-system steps of a move, as the committer does them: which
//! locks a move needs, the move itself (never over anything, never a copy)
//! and taking it back when a later step of the same change fails.
//!
//! A move takes the lock of the destination's deepest existing folder and,
//! for a file, the file's lock; for a folder, the locks of every folder and
//! every file in it (folders first, then files, each by path: the order
//! every caller uses). So a folder move waits for edits in progress inside
//! it, and an edit that waited for the move finds its path gone and refuses
//! instead of writing to the old place.
//!
//! Nothing is ever overwritten: the rename refuses a taken name
//! (`RENAME_NOREPLACE`); where the file system cannot do that, a file is
//! moved by making a hard link at the destination (which fails if the name
//! is taken) and then removing the old name, and a folder by claiming the
//! destination with a new empty folder and renaming onto it. Moves never
//! copy: across file systems they are refused.

use std::ffi::OsStr;
use std::io;
use std::path::{Path, PathBuf};

use cap_std::fs::Dir;
use rustix::fs::AtFlags;
use rustix::io::Errno;

use crate::workspace::Workspace;
use crate::workspace::atomic_write::sync_folder;
use crate::workspace::beneath::{
    self, existing_and_missing, open_folder_nofollow, open_parent, or_dot,
};
use crate::workspace::error::{RelocateError, WorkspaceError};
use crate::workspace::own_folders::keep_out_of_version_control;
use crate::workspace::roots::ResolvedPath;
use crate::workspace::trash::{TRASH_DIR, is_in_trash};
/// What is being moved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryKind {
    /// A file.
    File,
    /// A folder, with everything in it.
    Folder,
}

/// A checked move, not yet done.
#[derive(Debug, Clone)]
pub struct Relocation {
    /// What moves.
    pub source: ResolvedPath,
    /// Where it goes (does not exist yet).
    pub destination: ResolvedPath,
    /// File or folder.
    pub kind: EntryKind,
    /// Folders that will be created for the destination, outermost first.
    pub new_folders: Vec<PathBuf>,
    /// Folders (outermost first) removed after the move if it leaves them
    /// empty: an undo takes away the folders the original move made.
    pub remove_if_empty: Vec<PathBuf>,
}

impl Workspace {
    /// What a move must hold the locks of, in the one global order (see the
    /// module's doc): the destination's deepest existing folder and, for a
    /// folder, every folder in it; then the moved file, or every file in
    /// the moved folder.
    pub(crate) fn move_lock_paths(
        &self,
        plan: &Relocation,
    ) -> Result<(Vec<ResolvedPath>, Vec<ResolvedPath>), WorkspaceError> {
        let (src_root, src_rel) = self.handle(&plan.source)?;
        let (dst_root, dst_rel) = self.handle(&plan.destination)?;
        let io_error = |path: &ResolvedPath, error: io::Error| {
            self.io_error(path, error, |error| {
                RelocateError::Io {
                    source: plan.source.real.clone(),
                    destination: plan.destination.real.clone(),
                    error,
                }
                .into()
            })
        };
        let (existing, _) = existing_and_missing(&dst_root, &dst_rel)
            .map_err(|e| io_error(&plan.destination, e))?;
        let at = |root: &Path, rel: &Path| ResolvedPath {
            real: root.join(rel),
            root: root.to_path_buf(),
            exists: true,
        };
        let mut folders = vec![at(&plan.destination.root, &existing)];
        let mut files = Vec::new();
        match plan.kind {
            EntryKind::File => files.push(plan.source.clone()),
            EntryKind::Folder => {
                let mut found = (Vec::new(), Vec::new());
                collect_tree(&src_root, &src_rel, &mut found)
                    .map_err(|error| io_error(&plan.source, error))?;
                let root = &plan.source.root;
                folders.extend(found.0.iter().map(|rel| at(root, rel)));
                files.extend(found.1.iter().map(|rel| at(root, rel)));
                // Each file lock holds two descriptors (the file and its folder).
                let needed = folders.len() + 2 * files.len();
                if !crate::workspace::fd_room::make_room(needed) {
                    return Err(RelocateError::TooManyFiles {
                        path: plan.source.real.clone(),
                        count: found.0.len() + found.1.len(),
                    }
                    .into());
                }
            }
        }
        Ok((folders, files))
    }

    /// Does a planned move whose locks ([`Workspace::move_lock_paths`]) the
    /// caller holds: checks that nothing changed since the plan, creates the
    /// destination's folders and moves. Returns the folders it created
    /// (relative to the destination's root); on failure they are removed
    /// again.
    pub(crate) fn relocate_held(&self, plan: &Relocation) -> Result<Vec<PathBuf>, WorkspaceError> {
        let source = &plan.source;
        let destination = &plan.destination;
        let (src_root, src_rel) = self.handle(source)?;
        let (dst_root, dst_rel) = self.handle(destination)?;
        let io_error = |path: &ResolvedPath, error: io::Error| {
            self.io_error(path, error, |error| {
                RelocateError::Io {
                    source: source.real.clone(),
                    destination: destination.real.clone(),
                    error,
                }
                .into()
            })
        };
        let still_there = src_root.symlink_metadata(&src_rel).is_ok_and(|m| {
            !m.file_type().is_symlink() && (m.is_dir() == (plan.kind == EntryKind::Folder))
        });
        if !still_there {
            return Err(RelocateError::Changed {
                path: source.real.clone(),
                what: "it is gone or was replaced",
            }
            .into());
        }
        if dst_root.symlink_metadata(&dst_rel).is_ok() {
            return Err(RelocateError::DestinationExists {
                path: destination.real.clone(),
            }
            .into());
        }
        let created = create_folders(&dst_root, &destination.root, &plan.new_folders)
            .map_err(|error| io_error(destination, error))?;
        let outcome = move_now(&src_root, &src_rel, &dst_root, &dst_rel, plan.kind).map_err(
            |(end, error)| {
                let at = if end == End::Source {
                    source
                } else {
                    destination
                };
                self.io_error(at, error, |error| {
                    relocate_error(&source.real, &destination.real, error).into()
                })
            },
        );
        if let Err(error) = outcome {
            for folder in created.iter().rev() {
                let _ = dst_root.remove_dir(folder);
            }
            return Err(error);
        }
        if is_in_trash(destination)
            && let Ok(trash) = open_folder_nofollow(&dst_root, TRASH_DIR.as_ref())
        {
            // The move is done; a trash git would show is only untidy.
            let _ = keep_out_of_version_control(&trash);
        }
        for folder in plan.remove_if_empty.iter().rev() {
            // Fails, as it should, for a folder that holds anything.
            let rel = folder.strip_prefix(&source.root).unwrap_or(folder);
            let _ = src_root.remove_dir(or_dot(rel));
        }
        Ok(created)
    }

    /// Takes back a move done by [`Workspace::relocate_held`] (when a later
    /// step of the same change failed): moves it back and removes the
    /// folders made for it.
    pub(crate) fn unrelocate(&self, plan: &Relocation, created: &[PathBuf]) -> io::Result<()> {
        let handle = |path: &ResolvedPath| {
            self.handle(path)
                .map_err(|e| io::Error::other(e.to_string()))
        };
        let (src_root, src_rel) = handle(&plan.source)?;
        let (dst_root, dst_rel) = handle(&plan.destination)?;
        create_folders(&src_root, &plan.source.root, &plan.remove_if_empty)?;
        move_now(&dst_root, &dst_rel, &src_root, &src_rel, plan.kind).map_err(|(_, e)| e)?;
        for folder in created.iter().rev() {
            let _ = dst_root.remove_dir(folder);
        }
        Ok(())
    }
}

/// The folders (`rel` itself included) and regular files under the folder
/// `rel` beneath `root`, relative to `root`. Links are not followed, and
/// other kinds of files are left out: they are never edited.
fn collect_tree(
    root: &Dir,
    rel: &Path,
    found: &mut (Vec<PathBuf>, Vec<PathBuf>),
) -> io::Result<()> {
    found.0.push(rel.to_path_buf());
    let dir = beneath::open_folder(root, rel)?;
    let mut stack = vec![(dir, rel.to_path_buf())];
    while let Some((dir, at)) = stack.pop() {
        for entry in dir.entries()? {
            let entry = entry?;
            let kind = entry.file_type()?;
            let path = at.join(entry.file_name());
            if kind.is_dir() {
                found.0.push(path.clone());
                stack.push((open_folder_nofollow(&dir, &entry.file_name())?, path));
            } else if kind.is_file() {
                found.1.push(path);
            }
        }
    }
    Ok(())
}

/// Creates `folders` (absolute, outermost first) beneath `dir`, the handle
/// of `root`; returns those it created, relative to `root`.
pub(crate) fn create_folders(
    dir: &Dir,
    root: &Path,
    folders: &[PathBuf],
) -> io::Result<Vec<PathBuf>> {
    let mut created = Vec::new();
    for folder in folders {
        let rel = folder.strip_prefix(root).unwrap_or(folder);
        match dir.create_dir(rel) {
            Ok(()) => created.push(rel.to_path_buf()),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && dir.is_dir(rel) => {}
            Err(e) => {
                for done in created.iter().rev() {
                    let _ = dir.remove_dir(done);
                }
                return Err(e);
            }
        }
    }
    Ok(created)
}

/// Which end of a move an error is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum End {
    Source,
    Destination,
}

/// Moves `src_rel` beneath `src_root` to `dst_rel` beneath `dst_root`
/// without ever replacing anything there, and syncs both folders.
fn move_now(
    src_root: &Dir,
    src_rel: &Path,
    dst_root: &Dir,
    dst_rel: &Path,
    kind: EntryKind,
) -> Result<(), (End, io::Error)> {
    let (from, from_name) = open_parent(src_root, src_rel).map_err(|e| (End::Source, e))?;
    let (to, to_name) = open_parent(dst_root, dst_rel).map_err(|e| (End::Destination, e))?;
    match kind {
        EntryKind::File => move_file(&from, from_name, &to, to_name),
        EntryKind::Folder => move_folder(&from, from_name, &to, to_name),
    }
    .map_err(|e| (End::Destination, e))?;
    sync_folder(&from);
    sync_folder(&to);
    Ok(())
}

/// Moves `src_rel` beneath `src_root` (a folder if `folder`) to `dst_rel`
/// beneath `dst_root`, never over anything there: how the recovery of an
/// interrupted change finishes its moves.
pub(crate) fn move_entry(
    src_root: &Dir,
    src_rel: &Path,
    dst_root: &Dir,
    dst_rel: &Path,
    folder: bool,
) -> io::Result<()> {
    let kind = if folder {
        EntryKind::Folder
    } else {
        EntryKind::File
    };
    move_now(src_root, src_rel, dst_root, dst_rel, kind).map_err(|(_, e)| e)
}

/// Renames `from_name` in `from` to `to_name` in `to` unless that exists.
/// `Ok(false)`: the file system cannot refuse to replace.
fn rename_noreplace(from: &Dir, from_name: &OsStr, to: &Dir, to_name: &OsStr) -> io::Result<bool> {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    match rustix::fs::renameat_with(
        from,
        from_name,
        to,
        to_name,
        rustix::fs::RenameFlags::NOREPLACE,
    ) {
        Ok(()) => return Ok(true),
        Err(Errno::INVAL | Errno::NOSYS | Errno::OPNOTSUPP) => {}
        Err(e) => return Err(e.into()),
    }
    let _ = (from, from_name, to, to_name);
    Ok(false)
}

/// Moves a file without ever replacing one at the destination.
fn move_file(from: &Dir, from_name: &OsStr, to: &Dir, to_name: &OsStr) -> io::Result<()> {
    if rename_noreplace(from, from_name, to, to_name)? {
        return Ok(());
    }
    rustix::fs::linkat(from, from_name, to, to_name, AtFlags::empty())?;
    rustix::fs::unlinkat(from, from_name, AtFlags::empty()).inspect_err(|_| {
        let _ = rustix::fs::unlinkat(to, to_name, AtFlags::empty());
    })?;
    Ok(())
}

/// Moves a folder without ever replacing anything at the destination:
/// where the rename cannot refuse a taken name by itself, the name is
/// claimed with an empty folder first, which fails if it is taken, and the
/// rename then replaces only that empty folder.
fn move_folder(from: &Dir, from_name: &OsStr, to: &Dir, to_name: &OsStr) -> io::Result<()> {
    if rename_noreplace(from, from_name, to, to_name)? {
        return Ok(());
    }
    rustix::fs::mkdirat(to, to_name, rustix::fs::Mode::from_raw_mode(0o700))?;
    rustix::fs::renameat(from, from_name, to, to_name).map_err(|e| {
        let _ = rustix::fs::unlinkat(to, to_name, AtFlags::REMOVEDIR);
        e.into()
    })
}

fn is_cross_device(error: &io::Error) -> bool {
    // EXDEV on Linux and macOS.
    error.kind() == io::ErrorKind::CrossesDevices || error.raw_os_error() == Some(18)
}

fn relocate_error(source: &Path, destination: &Path, error: io::Error) -> RelocateError {
    if is_cross_device(&error) {
        RelocateError::CrossDevice {
            source: source.to_path_buf(),
            destination: destination.to_path_buf(),
        }
    } else if error.kind() == io::ErrorKind::AlreadyExists {
        RelocateError::DestinationExists {
            path: destination.to_path_buf(),
        }
    } else {
        RelocateError::Io {
            source: source.to_path_buf(),
            destination: destination.to_path_buf(),
            error,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn handle(dir: &Path) -> Dir {
        Dir::open_ambient_dir(dir, cap_std::ambient_authority()).unwrap()
    }

    fn root() -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let root = fs::canonicalize(dir.path()).unwrap();
        fs::create_dir_all(root.join("notes")).unwrap();
        fs::write(root.join("notes/a.md"), "a").unwrap();
        (dir, root)
    }

    #[test]
    fn moves_refuse_a_taken_name_by_themselves() {
        let (_dir, root) = root();
        fs::write(root.join("b.md"), "b").unwrap();
        let dir = handle(&root);
        let name = OsStr::new;
        let notes = handle(&root.join("notes"));
        let err = move_file(&notes, name("a.md"), &dir, name("b.md")).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::AlreadyExists);
        fs::create_dir(root.join("taken")).unwrap();
        let err = move_folder(&dir, name("notes"), &dir, name("taken")).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::AlreadyExists);
        assert!(root.join("notes/a.md").exists());
        assert_eq!(fs::read(root.join("b.md")).unwrap(), b"b");
    }

    #[test]
    fn folders_made_for_a_failed_move_are_taken_back() {
        let (_dir, root) = root();
        let dir = handle(&root);
        let folders = [root.join("x"), root.join("x/y"), root.join("notes/a.md/z")];
        assert!(create_folders(&dir, &root, &folders).is_err());
        assert!(!root.join("x").exists());
        assert_eq!(
            create_folders(&dir, &root, &folders[..2]).unwrap(),
            [PathBuf::from("x"), PathBuf::from("x/y")]
        );
        assert_eq!(
            create_folders(&dir, &root, &folders[..2]).unwrap(),
            Vec::<PathBuf>::new()
        );
    }
}
