//! Atomic writes: a file is either wholly its old bytes or wholly its new ones,
//! never a mixture, even if the process is killed mid-write.
//!
//! The new bytes go to a temp file in the same folder, are flushed to disk,
//! get the original file's permissions (and owner, where allowed), and then
//! replace the file by rename. Temp files are named
//! `.<name>.<random>.mcp-server-text.tmp` so one left by a killed process can
//! be recognised and removed later (see [`stale_temp_target`]).
//!
//! ```
//! use mcp_server_text::workspace::atomic_write::write_atomic;
//!
//! let dir = tempfile::tempdir().unwrap();
//! let path = dir.path().join("note.md");
//! write_atomic(&path, |out| out.write_all(b"new\n")).unwrap();
//! assert_eq!(std::fs::read(&path).unwrap(), b"new\n");
//! ```

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The suffix of every temp file this program writes.
pub const TEMP_SUFFIX: &str = ".mcp-server-text.tmp";

/// Writes `path` atomically with the bytes `fill` writes. Parent folders must
/// exist. An existing file's permissions are kept; a new file gets `0644`.
pub fn write_atomic(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let staged = stage(path, fill)?;
    staged.commit()
}

/// A temp file holding a file's new bytes, not yet renamed into place.
/// Dropping it without [`Staged::commit`] removes the temp file.
#[derive(Debug)]
pub struct Staged {
    temp: tempfile::NamedTempFile,
    target: PathBuf,
}

/// Writes the new bytes of `path` to a temp file beside it and syncs them,
/// without touching `path` itself yet. Batches stage every file first and
/// commit only when all were staged.
pub fn stage(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<Staged> {
    let dir = path
        .parent()
        .ok_or_else(|| io::Error::other("the path has no parent folder"))?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut temp = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(TEMP_SUFFIX)
        .tempfile_in(dir)?;
    {
        let mut out = io::BufWriter::with_capacity(1 << 16, temp.as_file_mut());
        fill(&mut out)?;
        out.flush()?;
    }
    let file = temp.as_file();
    file.sync_all()?;
    match fs::metadata(path) {
        Ok(original) => {
            file.set_permissions(original.permissions())?;
            keep_owner(file, &original);
        }
        Err(_) => set_new_file_mode(file)?,
    }
    Ok(Staged {
        temp,
        target: path.to_path_buf(),
    })
}

impl Staged {
    /// The file the staged bytes are for.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// The temp file holding the staged bytes.
    pub fn temp_path(&self) -> &Path {
        self.temp.path()
    }

    /// Renames the temp file over the target and syncs the folder.
    pub fn commit(self) -> io::Result<()> {
        let target = self.target;
        self.temp.persist(&target).map_err(|e| e.error)?;
        sync_dir(target.parent());
        Ok(())
    }

    /// Moves the temp file to the target only if nothing exists there yet
    /// (for new files: one that appeared meanwhile is never overwritten).
    pub fn commit_new(self) -> io::Result<()> {
        let target = self.target;
        self.temp.persist_noclobber(&target).map_err(|e| e.error)?;
        sync_dir(target.parent());
        Ok(())
    }
}

#[cfg(unix)]
fn keep_owner(file: &File, original: &fs::Metadata) {
    use std::os::unix::fs::MetadataExt;
    // Only succeeds when allowed (same owner, or privileged); a failure leaves
    // the new file owned by whoever runs the server, which is the best we can do.
    let _ = std::os::unix::fs::fchown(file, Some(original.uid()), Some(original.gid()));
}

#[cfg(not(unix))]
fn keep_owner(_file: &File, _original: &fs::Metadata) {}

#[cfg(unix)]
fn set_new_file_mode(file: &File) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    file.set_permissions(fs::Permissions::from_mode(0o644))
}

#[cfg(not(unix))]
fn set_new_file_mode(_file: &File) -> io::Result<()> {
    Ok(())
}

/// Syncs a folder, making renames in it durable; failures are ignored.
pub(crate) fn sync_dir(dir: Option<&Path>) {
    // Makes the rename itself durable. Not possible on every platform, and the
    // data is already synced, so a failure here is not an error.
    #[cfg(unix)]
    if let Some(dir) = dir
        && let Ok(handle) = File::open(dir)
    {
        let _ = handle.sync_all();
    }
    #[cfg(not(unix))]
    let _ = dir;
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

    #[test]
    fn replaces_content_and_keeps_permissions() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.txt");
        fs::write(&path, "old").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
        }
        write_atomic(&path, |out| out.write_all(b"new")).unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"new");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(
                fs::metadata(&path).unwrap().permissions().mode() & 0o777,
                0o640
            );
        }
        let leftovers: Vec<_> = fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(leftovers.len(), 1, "no temp file is left behind");
    }

    #[test]
    fn a_failed_fill_leaves_the_file_and_no_temp() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.txt");
        fs::write(&path, "old").unwrap();
        let err = write_atomic(&path, |out| {
            out.write_all(b"partial")?;
            Err(io::Error::other("disk on fire"))
        })
        .unwrap_err();
        assert_eq!(err.to_string(), "disk on fire");
        assert_eq!(fs::read(&path).unwrap(), b"old");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn recognises_its_own_temp_names() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("note.md");
        let staged = stage(&path, |out| out.write_all(b"x")).unwrap();
        let temp_name = staged.temp.path().to_path_buf();
        assert_eq!(stale_temp_target(&temp_name), Some(path.clone()));
        drop(staged);
        assert!(!temp_name.exists());
        assert_eq!(stale_temp_target(Path::new("/v/note.md")), None);
        assert_eq!(
            stale_temp_target(Path::new("/v/.x.mcp-server-text.tmp")),
            None
        );
    }
}
