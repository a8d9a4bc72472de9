//! Removing the temp files a killed server left behind.
//!
//! On Linux an atomic write names its new bytes only for the instant between
//! linking them and renaming them over the file (see [`super::atomic_write`]);
//! elsewhere, or where the file system has no unnamed files, they sit in
//! `.<name>.<random>.mcp-server-text.tmp` beside the file for the whole
//! write. A process killed at such a moment leaves that file. The sweep
//! walks the roots and removes each one, but only after taking the lock a
//! live writer would hold: the lock of `<name>` if it exists, else of the
//! folder (a file being created). A temp file whose lock can be taken
//! belongs to nobody.
//!
//! The walk goes through the roots' directory handles, never follows a
//! symbolic link and never leaves the roots; it includes hidden files and
//! folders and ignores `.gitignore`, since a temp file can sit anywhere an
//! edited file can. The server runs it in the background at start and when a
//! client changes the roots ([`Workspace::sweep_stale_temps_in_background`]).
//!
//! ```
//! use mcp_server_text::workspace::roots::Roots;
//! use mcp_server_text::workspace::stale_temps::sweep_stale_temps;
//!
//! let dir = tempfile::tempdir().unwrap();
//! let root = std::fs::canonicalize(dir.path()).unwrap();
//! std::fs::write(root.join(".a.md.Xy12Zq.mcp-server-text.tmp"), "half").unwrap();
//! let roots = Roots::new(vec![root.clone()]).unwrap();
//! let report = sweep_stale_temps(&roots);
//! assert_eq!(report.removed, [root.join(".a.md.Xy12Zq.mcp-server-text.tmp")]);
//! ```

use std::ffi::OsStr;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::thread::JoinHandle;

use cap_std::fs::Dir;

use super::Workspace;
use super::atomic_write::stale_temp_target;
use super::beneath::{open_folder, open_folder_nofollow};
use super::file_lock::{FileLock, FolderLock, LockError, try_lock_file, try_lock_folder};
use super::roots::Roots;

/// What a sweep found.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct SweepReport {
    /// Temp files removed.
    pub removed: Vec<PathBuf>,
    /// Temp files kept because a live writer holds their file's lock.
    pub kept: Vec<PathBuf>,
    /// Temp files that could not be removed, with the reason.
    pub failed: Vec<(PathBuf, String)>,
}

/// Removes the stale temp files under `roots`. A root inside another is
/// walked once, as part of the outer one.
pub fn sweep_stale_temps(roots: &Roots) -> SweepReport {
    let mut report = SweepReport::default();
    for root in roots.list() {
        let nested = roots
            .list()
            .iter()
            .any(|other| other != root && root.starts_with(other));
        if nested {
            continue;
        }
        let Some(dir) = roots.dir(root) else {
            continue;
        };
        match open_folder(dir, Path::new("")) {
            Ok(folder) => sweep_tree(folder, root, &mut report),
            Err(e) => report.failed.push((root.clone(), e.to_string())),
        }
    }
    report
}

/// Sweeps the folder `start` (at the real path `at`) and every folder in it.
fn sweep_tree(start: Dir, at: &Path, report: &mut SweepReport) {
    let mut stack = vec![(start, at.to_path_buf())];
    while let Some((folder, at)) = stack.pop() {
        let Ok(entries) = folder.entries() else {
            continue;
        };
        for entry in entries.flatten() {
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            let name = entry.file_name();
            if kind.is_dir() {
                if let Ok(sub) = open_folder_nofollow(&folder, &name) {
                    stack.push((sub, at.join(&name)));
                }
            } else if kind.is_file() {
                sweep_one(&folder, &at, &name, report);
            }
        }
    }
}

/// The lock a live writer of the temp file `name` in `folder` would hold.
enum WriterLock {
    File(#[allow(dead_code)] FileLock),
    Folder(#[allow(dead_code)] FolderLock),
}

/// Removes `name` from `folder` (at `at`) if it is a temp file nobody writes.
fn sweep_one(folder: &Dir, at: &Path, name: &OsStr, report: &mut SweepReport) {
    let temp = at.join(name);
    let Some(target) = stale_temp_target(&temp) else {
        return;
    };
    let target_name = target.file_name().unwrap_or_default();
    let lock: Result<Option<WriterLock>, LockError> = match folder.symlink_metadata(target_name) {
        Ok(meta) if meta.is_file() => {
            try_lock_file(folder, Path::new(target_name)).map(|l| l.map(WriterLock::File))
        }
        // Named like a temp file of something that is not a file: not ours.
        Ok(_) => return,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            try_lock_folder(folder, Path::new("")).map(|l| l.map(WriterLock::Folder))
        }
        Err(e) => Err(LockError::Io(e)),
    };
    match lock {
        Ok(Some(_held)) => match folder.remove_file(name) {
            Ok(()) => report.removed.push(temp),
            // Renamed into place between the walk and the lock: not stale.
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => report.failed.push((temp, e.to_string())),
        },
        Ok(None) => report.kept.push(temp),
        // Replaced or removed meanwhile: a writer is at work.
        Err(LockError::Gone) => report.kept.push(temp),
        Err(e) => report.failed.push((temp, e.to_string())),
    }
}

impl Workspace {
    /// Sweeps the current roots for stale temp files in a background thread,
    /// logging what it removes. The handle gives the report when done. A
    /// server started with `--read-only` must not call it: it removes files.
    pub fn sweep_stale_temps_in_background(&self) -> std::io::Result<JoinHandle<SweepReport>> {
        let roots: Arc<Roots> = self.roots();
        std::thread::Builder::new()
            .name("stale-temp-sweep".into())
            .spawn(move || {
                let report = sweep_stale_temps(&roots);
                for path in &report.removed {
                    tracing::info!(
                        "removed {}, a temp file left by an interrupted write",
                        path.display()
                    );
                }
                for (path, why) in &report.failed {
                    tracing::warn!(
                        "could not remove the leftover temp file {}: {why}",
                        path.display()
                    );
                }
                report
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::WorkspaceOptions;

    #[test]
    fn removes_stale_temps_anywhere_and_keeps_those_a_writer_holds() {
        let dir = tempfile::tempdir().unwrap();
        let base = std::fs::canonicalize(dir.path()).unwrap();
        let root = base.join("root");
        for folder in ["notes", ".hidden", "build"] {
            std::fs::create_dir_all(root.join(folder)).unwrap();
        }
        std::fs::write(root.join(".gitignore"), "build/\n").unwrap();
        let stale = [
            root.join(".a.md.Ab12Cd.mcp-server-text.tmp"),
            root.join(".hidden/.b.md.Ef34Gh.mcp-server-text.tmp"),
            root.join("build/.c.txt.Ij56Kl.mcp-server-text.tmp"),
        ];
        let live = root.join("notes/.d.md.Mn78Op.mcp-server-text.tmp");
        let others = [
            root.join("notes/d.md"),
            root.join("notes/.d.md.Qr90St.tmp"),
            root.join("notes/plain.tmp"),
        ];
        for path in stale.iter().chain([&live]).chain(&others) {
            std::fs::write(path, "x").unwrap();
        }
        let ws = Workspace::new(vec![root.clone()], WorkspaceOptions::default()).unwrap();
        let writer = ws.lock(&ws.resolve_file("notes/d.md").unwrap()).unwrap();
        // A file being created: its writer holds the folder's lock.
        std::fs::create_dir(root.join("new")).unwrap();
        let creating = root.join("new/.e.md.Uv12Wx.mcp-server-text.tmp");
        std::fs::write(&creating, "x").unwrap();
        let creator = ws.lock_folder(&ws.resolve_dir("new").unwrap()).unwrap();

        let report = ws
            .sweep_stale_temps_in_background()
            .unwrap()
            .join()
            .unwrap();

        let mut removed = report.removed.clone();
        removed.sort();
        let mut expected = stale.to_vec();
        expected.sort();
        assert_eq!(removed, expected);
        let mut kept = report.kept.clone();
        kept.sort();
        assert_eq!(kept, [creating.clone(), live.clone()]);
        assert!(report.failed.is_empty(), "{:?}", report.failed);
        for path in &stale {
            assert!(!path.exists(), "{} is gone", path.display());
        }
        assert!(live.exists(), "a live writer's temp file is kept");
        for path in &others {
            assert!(path.exists(), "{} is not a temp file", path.display());
        }

        drop((writer, creator));
        let again = sweep_stale_temps(&ws.roots());
        let mut removed = again.removed.clone();
        removed.sort();
        assert_eq!(removed, [creating, live]);
    }

    #[cfg(unix)]
    #[test]
    fn does_not_follow_links_out_of_the_roots() {
        let dir = tempfile::tempdir().unwrap();
        let base = std::fs::canonicalize(dir.path()).unwrap();
        let (root, outside) = (base.join("root"), base.join("outside"));
        std::fs::create_dir_all(&root).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        let foreign = outside.join(".a.md.Ab12Cd.mcp-server-text.tmp");
        std::fs::write(&foreign, "x").unwrap();
        std::os::unix::fs::symlink(&outside, root.join("out")).unwrap();
        let report = sweep_stale_temps(&Roots::new(vec![root]).unwrap());
        assert_eq!(report, SweepReport::default());
        assert!(foreign.exists());
    }
}
