//! The intent record of a change of several files: what the committer is
//! about to do, written down before it does anything a kill could leave
//! half done, so that the next writer can finish or undo it.
//!
//! A change of more than one step (files replaced or created, moves) writes
//! its intent into `.history/intents/` of the root of its first file. It
//! names every file: its path, the hidden name its new bytes get beside it,
//! for an existing file a second hidden name for its old bytes, the hashes
//! of both, the folders a new file needs; and every move. The record is
//! written whole (under a temporary name, synced, then renamed), and locked
//! (`flock`) by the process that owns it until the change is done and the
//! record removed, so a live change is never taken for an interrupted one.
//!
//! Creating the temporary file and locking it are two steps, and between
//! them the file is unlocked while its owner lives. So a writer holds a
//! shared lock of the intents folder across both, and the next writer's
//! look for interrupted changes removes an unlocked temporary file only
//! while it holds that folder's lock exclusively: then nobody is between
//! the two steps, and an unlocked one is a dead writer's.
//!
//! The record has two states. Written, it is *prepared*: nothing has been
//! named or made yet. Once every new content is staged and named and every
//! old one has its second name, a line `commit` is appended and synced: from
//! then on the change can be finished (every new content is on disk) or
//! taken back (every old one is). See [`super::recover`] for what the next
//! writer does with a record it finds unlocked.
//!
//! A record is data, never trusted: [`Intent::decode`] checks every path
//! (plain names below a root, hidden names of this program beside them),
//! every hash and every index, and a record that fails is left alone.
//!
//! ```
//! use mcp_server_text::workspace::commit::intent::{Intent, IntentFile};
//!
//! let intent = Intent {
//!     id: "k3x9qa2b".into(),
//!     roots: vec!["/vault".into()],
//!     files: vec![IntentFile {
//!         root: 0,
//!         path: "notes/a.md".into(),
//!         staged: ".a.md.Xy12Zq9w.mcp-server-text.new".into(),
//!         backup: Some(".a.md.Ab34Cd5e.mcp-server-text.old".into()),
//!         before: Some("0123456789abcdef".into()),
//!         after: "fedcba9876543210".into(),
//!         folders: vec![],
//!     }],
//!     moves: vec![],
//! };
//! let bytes = intent.encode();
//! assert_eq!(Intent::decode(&bytes).unwrap(), (intent.clone(), false));
//! let mut committed = bytes.clone();
//! committed.extend_from_slice(b"commit\n");
//! assert_eq!(Intent::decode(&committed).unwrap(), (intent, true));
//! assert!(Intent::decode(&bytes[..bytes.len() - 3]).is_err());
//! ```

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io::{self, Read};
use std::os::unix::fs::{FileExt, MetadataExt};

use cap_std::fs::Dir;
use rustix::fs::{AtFlags, FlockOperation, Mode, OFlags};
use serde::{Deserialize, Serialize};

use crate::text::hash::HASH_LEN;
use crate::workspace::atomic_write::{BACKUP_SUFFIX, STAGED_SUFFIX, is_own_name, sync_folder};
use crate::workspace::beneath::open_folder_nofollow;
use crate::workspace::history::HISTORY_DIR;
use crate::workspace::history::store::open_or_create;

/// The folder of intent records, inside a root's `.history`.
pub const INTENTS_DIR: &str = "intents";

/// The first line of every record.
const MAGIC: &[u8] = b"mcp-server-text intent 1\n";

/// The line that makes a prepared record a committed one.
const COMMIT_LINE: &[u8] = b"commit\n";

/// The ending of a record's name.
const SUFFIX: &str = ".intent";

/// The ending of a record still being written.
const WRITING_SUFFIX: &str = ".writing";

/// Largest record read back: far more than the longest a change writes.
const MAX_RECORD: u64 = 64 << 20;

/// What a change of several files is about to do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Intent {
    /// The record's id (its file name, without the ending).
    pub id: String,
    /// The real paths of the roots the change touches; the first holds the record.
    pub roots: Vec<String>,
    /// The files replaced or created, in the order they are put in place.
    #[serde(default)]
    pub files: Vec<IntentFile>,
    /// The moves, in the order they are done (after every file).
    #[serde(default)]
    pub moves: Vec<IntentMove>,
}

/// A file a change replaces or creates.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct IntentFile {
    /// Its root, an index into [`Intent::roots`].
    pub root: usize,
    /// Its path below the root, names joined by `/`.
    pub path: String,
    /// The hidden name of its new bytes, in the same folder.
    pub staged: String,
    /// For an existing file, the hidden second name of its old bytes.
    #[serde(default)]
    pub backup: Option<String>,
    /// Its hash before the change; `None` for a file the change creates.
    #[serde(default)]
    pub before: Option<String>,
    /// Its hash after.
    pub after: String,
    /// For a new file, the folders made for it (below the root, outermost first).
    #[serde(default)]
    pub folders: Vec<String>,
}

/// A move a change does.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct IntentMove {
    /// The source's root, an index into [`Intent::roots`].
    pub from_root: usize,
    /// The source below its root.
    pub from: String,
    /// The destination's root.
    pub to_root: usize,
    /// The destination below its root.
    pub to: String,
    /// Whether a folder moves.
    pub folder: bool,
    /// Folders made for the destination (below its root, outermost first).
    #[serde(default)]
    pub made: Vec<String>,
    /// Folders removed after the move if it leaves them empty (below the source's root).
    #[serde(default)]
    pub remove_if_empty: Vec<String>,
}

impl Intent {
    /// The record's bytes, prepared (without the commit line).
    pub fn encode(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend(serde_json::to_vec(self).unwrap_or_default());
        out.push(b'\n');
        out
    }

    /// Reads and checks a record: the intent, and whether it was committed.
    pub fn decode(bytes: &[u8]) -> Result<(Intent, bool), String> {
        let rest = bytes
            .strip_prefix(MAGIC)
            .ok_or("it does not start like an intent record")?;
        let end = memchr::memchr(b'\n', rest).ok_or("its description is cut short")?;
        let intent: Intent = serde_json::from_slice(&rest[..end]).map_err(|e| e.to_string())?;
        let committed = match &rest[end + 1..] {
            tail if tail == COMMIT_LINE => true,
            // A commit line cut short by a crash is no commit.
            tail if COMMIT_LINE.starts_with(tail) => false,
            _ => return Err("it ends with something that is not a commit line".into()),
        };
        intent.check()?;
        Ok((intent, committed))
    }

    /// Checks every field: nothing in a record is trusted.
    fn check(&self) -> Result<(), String> {
        if self.id.is_empty()
            || self.id.len() > 40
            || !self.id.bytes().all(|b| b.is_ascii_alphanumeric())
        {
            return Err("its id is not one this server gives".into());
        }
        if self.roots.is_empty() || self.roots.iter().any(|r| !r.starts_with('/')) {
            return Err("its roots are not absolute paths".into());
        }
        let root = |index: usize| {
            (index < self.roots.len())
                .then_some(())
                .ok_or_else(|| format!("it names a root {index} it does not list"))
        };
        for file in &self.files {
            root(file.root)?;
            check_path(&file.path)?;
            let name = file.path.rsplit('/').next().unwrap_or_default();
            check_own_name(name, &file.staged, STAGED_SUFFIX)?;
            if let Some(backup) = &file.backup {
                check_own_name(name, backup, BACKUP_SUFFIX)?;
            }
            if file.backup.is_some() != file.before.is_some() {
                return Err(
                    "a file has old bytes kept but no hash for them, or the other way".into(),
                );
            }
            for hash in file.before.iter().chain([&file.after]) {
                check_hash(hash)?;
            }
            for folder in &file.folders {
                check_path(folder)?;
            }
        }
        for step in &self.moves {
            root(step.from_root)?;
            root(step.to_root)?;
            for path in [&step.from, &step.to]
                .into_iter()
                .chain(&step.made)
                .chain(&step.remove_if_empty)
            {
                check_path(path)?;
            }
        }
        Ok(())
    }
}

/// A path below a root: plain names joined by `/`, not in `.history`.
fn check_path(path: &str) -> Result<(), String> {
    let plain = !path.is_empty()
        && path.len() <= 4096
        && !path.contains('\0')
        && path
            .split('/')
            .all(|n| !n.is_empty() && n != "." && n != "..");
    if plain && path.split('/').next() != Some(HISTORY_DIR) {
        Ok(())
    } else {
        Err(format!(
            "the path '{}' is not one this server writes",
            crate::text::excerpt::cut(path, 80)
        ))
    }
}

/// A hidden name of this program beside the file named `target`.
fn check_own_name(target: &str, name: &str, suffix: &str) -> Result<(), String> {
    let ok = name.ends_with(suffix)
        && name
            .strip_prefix('.')
            .and_then(|n| n.strip_prefix(target))
            .is_some_and(|n| n.starts_with('.'))
        && !name.contains('/')
        && is_own_name(OsStr::new(name));
    if ok {
        Ok(())
    } else {
        Err(format!(
            "'{}' is not a name this server gives beside {}",
            crate::text::excerpt::cut(name, 80),
            crate::text::excerpt::cut(target, 80)
        ))
    }
}

fn check_hash(hash: &str) -> Result<(), String> {
    if hash.len() == HASH_LEN && hash.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
        Ok(())
    } else {
        Err("a hash in it is not a file hash".into())
    }
}

/// A record this process wrote and holds locked until it removes it.
#[derive(Debug)]
pub struct Held {
    dir: Dir,
    name: OsString,
    file: File,
}

impl Held {
    /// Writes `intent` (prepared) into the intents folder of the root whose
    /// handle is `root`, synced and locked.
    pub fn write(root: &Dir, intent: &Intent) -> io::Result<Held> {
        let history = open_or_create(root)?;
        match rustix::fs::mkdirat(&history, INTENTS_DIR, Mode::from_raw_mode(0o700)) {
            Ok(()) | Err(rustix::io::Errno::EXIST) => {}
            Err(e) => return Err(e.into()),
        }
        let dir = open_folder_nofollow(&history, INTENTS_DIR.as_ref())?;
        let writing = format!(".{}{WRITING_SUFFIX}", intent.id);
        let creating = lock_folder(&history, FlockOperation::LockShared)?;
        let fd = rustix::fs::openat(
            &dir,
            writing.as_str(),
            OFlags::CREATE | OFlags::EXCL | OFlags::RDWR | OFlags::NOFOLLOW | OFlags::CLOEXEC,
            Mode::from_raw_mode(0o600),
        )?;
        let file = File::from(fd);
        let locked = rustix::fs::flock(&file, FlockOperation::NonBlockingLockExclusive);
        drop(creating);
        let name = OsString::from(format!("{}{SUFFIX}", intent.id));
        let written = (|| {
            locked?;
            file.write_all_at(&intent.encode(), 0)?;
            file.sync_all()?;
            rustix::fs::renameat(&dir, writing.as_str(), &dir, &name)?;
            sync_folder(&dir);
            Ok(())
        })();
        if let Err(error) = written {
            let _ = rustix::fs::unlinkat(&dir, writing.as_str(), AtFlags::empty());
            return Err(error);
        }
        Ok(Held { dir, name, file })
    }

    /// Marks the record committed: every new content and every old one is
    /// on disk under its name.
    pub fn commit(&self) -> io::Result<()> {
        let end = self.file.metadata()?.len();
        self.file.write_all_at(COMMIT_LINE, end)?;
        self.file.sync_data()
    }

    /// Removes the record: the change is done, or was taken back.
    pub fn remove(self) -> io::Result<()> {
        rustix::fs::unlinkat(&self.dir, &self.name, AtFlags::empty())?;
        sync_folder(&self.dir);
        Ok(())
    }
}

/// A lock of the intents folder in `history`, taken on a handle of its own
/// (a lock belongs to the open folder, and the handles kept in [`Held`] and
/// [`Orphan`] must not carry it): released when the handle is dropped.
fn lock_folder(history: &Dir, how: FlockOperation) -> io::Result<Dir> {
    let folder = open_folder_nofollow(history, INTENTS_DIR.as_ref())?;
    rustix::fs::flock(&folder, how)?;
    Ok(folder)
}

/// A record found unlocked in a root's intents folder: its owner is gone.
/// It stays locked by this process while it is being recovered.
#[derive(Debug)]
pub struct Orphan {
    dir: Dir,
    name: OsString,
    _file: File,
    /// What it says (and whether it was committed), or why it cannot be read.
    pub contents: Result<(Intent, bool), String>,
}

impl Orphan {
    /// The record's file name.
    pub fn name(&self) -> &OsStr {
        &self.name
    }

    /// Removes the record once it was recovered.
    pub fn remove(self) -> io::Result<()> {
        rustix::fs::unlinkat(&self.dir, &self.name, AtFlags::empty())?;
        sync_folder(&self.dir);
        Ok(())
    }
}

/// Whether the root whose handle is `root` has an intents folder with
/// anything in it: the cheap look every change takes first.
pub fn any_in(root: &Dir) -> bool {
    let Ok(history) = open_folder_nofollow(root, HISTORY_DIR.as_ref()) else {
        return false;
    };
    let Ok(dir) = open_folder_nofollow(&history, INTENTS_DIR.as_ref()) else {
        return false;
    };
    dir.entries().is_ok_and(|mut e| e.next().is_some())
}

/// The names of the records in `root`'s intents folder whose owner is gone,
/// looked at without acting on them (or removing anything).
pub fn orphans_unlocked(root: &Dir) -> Vec<OsString> {
    let Ok(history) = open_folder_nofollow(root, HISTORY_DIR.as_ref()) else {
        return Vec::new();
    };
    let Ok(dir) = open_folder_nofollow(&history, INTENTS_DIR.as_ref()) else {
        return Vec::new();
    };
    let Ok(entries) = dir.entries() else {
        return Vec::new();
    };
    entries
        .flatten()
        .map(|e| e.file_name())
        .filter(|name| name.to_str().is_some_and(|n| n.ends_with(SUFFIX)))
        .filter(|name| {
            rustix::fs::openat(
                &dir,
                name,
                OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC | OFlags::NONBLOCK,
                Mode::empty(),
            )
            .is_ok_and(|fd| rustix::fs::flock(&fd, FlockOperation::NonBlockingLockShared).is_ok())
        })
        .collect()
}

/// The records in `root`'s intents folder whose owner is gone, each locked
/// now by this process. A record still being written when its owner died
/// is removed on the way: nothing was done under it.
pub fn orphans(root: &Dir) -> io::Result<Vec<Orphan>> {
    let history = match open_folder_nofollow(root, HISTORY_DIR.as_ref()) {
        Ok(history) => history,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    let dir = match open_folder_nofollow(&history, INTENTS_DIR.as_ref()) {
        Ok(dir) => dir,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    let mut names: Vec<OsString> = dir
        .entries()?
        .flatten()
        .map(|e| e.file_name())
        .filter(|n| {
            n.to_str()
                .is_some_and(|n| n.ends_with(SUFFIX) || n.ends_with(WRITING_SUFFIX))
        })
        .collect();
    names.sort();
    let is_writing = |name: &OsStr| name.to_str().is_some_and(|n| n.ends_with(WRITING_SUFFIX));
    // Without the folder's lock, an unlocked temporary file may be a live
    // writer's between creating and locking it: those are left for the
    // next look.
    let no_writer_between = names
        .iter()
        .any(|n| is_writing(n))
        .then(|| lock_folder(&history, FlockOperation::NonBlockingLockExclusive).ok())
        .flatten();
    let mut found = Vec::new();
    for name in names {
        if is_writing(&name) && no_writer_between.is_none() {
            continue;
        }
        let Ok(fd) = rustix::fs::openat(
            &dir,
            &name,
            OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC | OFlags::NONBLOCK,
            Mode::empty(),
        ) else {
            continue;
        };
        let file = File::from(fd);
        if rustix::fs::flock(&file, FlockOperation::NonBlockingLockExclusive).is_err() {
            // Its owner is alive, or another process is recovering it.
            continue;
        }
        let Ok(meta) = file.metadata() else {
            continue;
        };
        if meta.nlink() == 0 || !meta.is_file() {
            // Removed by its owner between the listing and the lock.
            continue;
        }
        if is_writing(&name) {
            let _ = rustix::fs::unlinkat(&dir, &name, AtFlags::empty());
            continue;
        }
        let mut bytes = Vec::new();
        let contents = (&file)
            .take(MAX_RECORD)
            .read_to_end(&mut bytes)
            .map_err(|e| e.to_string())
            .and_then(|_| Intent::decode(&bytes));
        found.push(Orphan {
            dir: dir.try_clone()?,
            name,
            _file: file,
            contents,
        });
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn intents_of(dir: &tempfile::TempDir) -> (Dir, Dir, std::path::PathBuf) {
        let root = Dir::open_ambient_dir(dir.path(), cap_std::ambient_authority()).unwrap();
        let history = open_or_create(&root).unwrap();
        rustix::fs::mkdirat(&history, INTENTS_DIR, Mode::from_raw_mode(0o700)).unwrap();
        let path = dir.path().join(HISTORY_DIR).join(INTENTS_DIR);
        (root, history, path)
    }

    #[test]
    fn a_record_still_being_written_is_removed_only_once_no_writer_is_creating_one() {
        let dir = tempfile::tempdir().unwrap();
        let (root, history, intents) = intents_of(&dir);
        // Created but not yet locked: its writer is alive, between the two
        // steps, and holds the folder's shared lock.
        std::fs::write(intents.join(".k3x9qa2b.writing"), "").unwrap();
        let creating = lock_folder(&history, FlockOperation::LockShared).unwrap();
        assert!(orphans(&root).unwrap().is_empty());
        assert!(intents.join(".k3x9qa2b.writing").exists());

        // Its writer died before locking it: nobody holds the folder.
        drop(creating);
        assert!(orphans(&root).unwrap().is_empty());
        assert_eq!(std::fs::read_dir(&intents).unwrap().count(), 0);
    }

    #[test]
    fn a_record_being_written_locked_by_its_writer_is_left() {
        let dir = tempfile::tempdir().unwrap();
        let (root, _history, intents) = intents_of(&dir);
        let path = intents.join(".p0q1r2s3.writing");
        std::fs::write(&path, "").unwrap();
        let file = File::open(&path).unwrap();
        rustix::fs::flock(&file, FlockOperation::LockExclusive).unwrap();
        assert!(orphans(&root).unwrap().is_empty());
        assert!(path.exists());
    }
}
