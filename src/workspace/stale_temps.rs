//! Removing the temp files a killed server left behind.
//!
//! An atomic write stages the new bytes in `.<name>.<random>.mcp-server-text.tmp`
//! beside the file (see [`super::atomic_write`]). If the process is killed
//! before the rename, that temp file stays. At start, the server walks its
//! roots in a background thread and removes each such file, but only after
//! taking the lock of the file it was written for: a live writer holds that
//! lock from before the temp file exists until after the rename, so a temp
//! file whose lock can be taken belongs to nobody.
//!
//! The walk includes hidden files and folders and ignores `.gitignore`, since
//! a temp file can sit anywhere an edited file can; it follows no symbolic
//! links, so it stays inside the roots.
//!
//! ```
//! use mcp_server_text::workspace::file_lock::LockDir;
//! use mcp_server_text::workspace::stale_temps::sweep_stale_temps;
//!
//! let dir = tempfile::tempdir().unwrap();
//! let root = dir.path().join("root");
//! std::fs::create_dir(&root).unwrap();
//! std::fs::write(root.join(".a.md.Xy12Zq.mcp-server-text.tmp"), "half").unwrap();
//! let locks = LockDir::at(dir.path().join("locks")).unwrap();
//! let report = sweep_stale_temps(&[root.clone()], &locks);
//! assert_eq!(report.removed, [root.join(".a.md.Xy12Zq.mcp-server-text.tmp")]);
//! ```

use std::path::PathBuf;
use std::thread::JoinHandle;

use ignore::WalkBuilder;

use super::Workspace;
use super::atomic_write::stale_temp_target;
use super::file_lock::LockDir;

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

/// Removes the stale temp files under `roots` (real paths of folders).
pub fn sweep_stale_temps(roots: &[PathBuf], locks: &LockDir) -> SweepReport {
    let mut report = SweepReport::default();
    let Some((first, others)) = roots.split_first() else {
        return report;
    };
    let mut walk = WalkBuilder::new(first);
    for root in others {
        walk.add(root);
    }
    // Hidden entries included, no ignore files of any kind read.
    walk.standard_filters(false).follow_links(false);
    for entry in walk.build().flatten() {
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        let temp = entry.path();
        let Some(target) = stale_temp_target(temp) else {
            continue;
        };
        match locks.try_lock(&target) {
            Ok(Some(_lock)) => match std::fs::remove_file(temp) {
                Ok(()) => report.removed.push(temp.to_path_buf()),
                // Renamed into place between the walk and the lock: not stale.
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => report.failed.push((temp.to_path_buf(), e.to_string())),
            },
            Ok(None) => report.kept.push(temp.to_path_buf()),
            Err(e) => report.failed.push((temp.to_path_buf(), e.to_string())),
        }
    }
    report
}

impl Workspace {
    /// Sweeps the current roots for stale temp files in a background thread,
    /// logging what it removes. The handle gives the report when done.
    pub fn sweep_stale_temps_in_background(&self) -> std::io::Result<JoinHandle<SweepReport>> {
        let roots = self.roots().list().to_vec();
        let locks = self.locks.clone();
        std::thread::Builder::new()
            .name("stale-temp-sweep".into())
            .spawn(move || {
                let report = sweep_stale_temps(&roots, &locks);
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
    use std::time::Duration;

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
        let options = WorkspaceOptions {
            lock_dir: Some(base.join("locks")),
            ..WorkspaceOptions::default()
        };
        let ws = Workspace::new(vec![root.clone()], options).unwrap();
        let writer = ws
            .locks()
            .lock(&root.join("notes/d.md"), Duration::from_secs(1))
            .unwrap();

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
        assert_eq!(report.kept, std::slice::from_ref(&live));
        assert!(report.failed.is_empty(), "{:?}", report.failed);
        for path in &stale {
            assert!(!path.exists(), "{} is gone", path.display());
        }
        assert!(live.exists(), "a live writer's temp file is kept");
        for path in &others {
            assert!(path.exists(), "{} is not a temp file", path.display());
        }

        drop(writer);
        let again = sweep_stale_temps(std::slice::from_ref(&root), ws.locks());
        assert_eq!(again.removed, std::slice::from_ref(&live));
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
        let locks = LockDir::at(base.join("locks")).unwrap();
        let report = sweep_stale_temps(&[root], &locks);
        assert_eq!(report, SweepReport::default());
        assert!(foreign.exists());
    }
}
