//! The hashes of large files, remembered by the file's identity so that
//! looking at the same unchanged file again does not hash it again.
//!
//! Hashing 50 MB costs about 35 ms, more than searching it. A file is known
//! by its device, inode, size, modification and status-change times; any
//! write changes the status-change time, which no program can set back.
//! Only files whose times are at least [`SETTLED`] in the past are
//! remembered: a file written twice within one tick of the file system's
//! clock could otherwise keep its times while its bytes change (git calls
//! such entries "racily clean").
//!
//! The hashes are only ever *reported* (TextInspect's `fileHash`). Edits
//! always hash the bytes they read, so a remembered hash can at worst make
//! an edit that passes it as `expectedHash` be refused, never let one
//! through.
//!
//! ```
//! use mcp_server_text::workspace::hash_memo::{FileKey, HashMemo};
//!
//! let dir = tempfile::tempdir().unwrap();
//! let path = dir.path().join("a.md");
//! std::fs::write(&path, "text").unwrap();
//! let meta = std::fs::metadata(&path).unwrap();
//! let memo = HashMemo::default();
//! // Just written: too recent to be remembered.
//! assert!(FileKey::settled(&meta, &meta).is_none());
//! ```

use std::collections::HashMap;
use std::fs::Metadata;
use std::os::unix::fs::MetadataExt;
use std::sync::Mutex;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// How long ago a file must have been last changed to be remembered.
pub const SETTLED: Duration = Duration::from_secs(3);

/// At most this many hashes are remembered; then they are all forgotten.
const CAPACITY: usize = 256;

/// What identifies a file's bytes while it is not written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FileKey {
    dev: u64,
    ino: u64,
    size: u64,
    mtime: (i64, i64),
    ctime: (i64, i64),
}

impl FileKey {
    fn of(meta: &Metadata) -> FileKey {
        FileKey {
            dev: meta.dev(),
            ino: meta.ino(),
            size: meta.size(),
            mtime: (meta.mtime(), meta.mtime_nsec()),
            ctime: (meta.ctime(), meta.ctime_nsec()),
        }
    }

    /// The key of a file whose metadata was `before` and `after` reading
    /// it: `None` if it changed meanwhile, or if it changed too recently to
    /// tell a later write from this one.
    pub fn settled(before: &Metadata, after: &Metadata) -> Option<FileKey> {
        let key = FileKey::of(after);
        if FileKey::of(before) != key {
            return None;
        }
        let now = SystemTime::now().duration_since(UNIX_EPOCH).ok()?;
        let settled = |(secs, nanos): (i64, i64)| {
            let at = Duration::new(u64::try_from(secs).ok()?, u32::try_from(nanos).ok()?);
            now.checked_sub(at).map(|age| age >= SETTLED)
        };
        (settled(key.mtime)? && settled(key.ctime)?).then_some(key)
    }
}

/// Remembered hashes of large files, shared by every call of a server.
#[derive(Debug, Default)]
pub struct HashMemo {
    hashes: Mutex<HashMap<FileKey, String>>,
}

impl HashMemo {
    /// The hash remembered for `key`, or `hash()` (then remembered).
    pub fn get_or_hash(&self, key: Option<FileKey>, hash: impl FnOnce() -> String) -> String {
        let Some(key) = key else {
            return hash();
        };
        if let Some(known) = self.hashes.lock().ok().and_then(|h| h.get(&key).cloned()) {
            return known;
        }
        let hash = hash();
        if let Ok(mut hashes) = self.hashes.lock() {
            if hashes.len() >= CAPACITY {
                hashes.clear();
            }
            hashes.insert(key, hash.clone());
        }
        hash
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs::File;

    fn aged(path: &std::path::Path, age: Duration) {
        let at = SystemTime::now() - age;
        File::options()
            .write(true)
            .open(path)
            .unwrap()
            .set_times(std::fs::FileTimes::new().set_modified(at).set_accessed(at))
            .unwrap();
    }

    #[test]
    fn a_settled_file_is_hashed_once_until_it_changes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.md");
        std::fs::write(&path, "one").unwrap();
        aged(&path, Duration::from_secs(60));
        let meta = std::fs::metadata(&path).unwrap();
        // Setting the times is itself a change of status, just now.
        assert!(FileKey::settled(&meta, &meta).is_none());
        let memo = HashMemo::default();
        let mut hashed = 0;
        let mut hash = || {
            hashed += 1;
            format!("h{hashed}")
        };
        assert_eq!(memo.get_or_hash(None, &mut hash), "h1");
        assert_eq!(memo.get_or_hash(None, &mut hash), "h2");
        // A key as a settled file would have it.
        let key = FileKey::of(&meta);
        assert_eq!(memo.get_or_hash(Some(key), &mut hash), "h3");
        assert_eq!(memo.get_or_hash(Some(key), &mut hash), "h3");
        // The same size and modification time, written again: its status
        // change time moves, so its key is another one.
        std::fs::write(&path, "two").unwrap();
        aged(&path, Duration::from_secs(60));
        let changed = FileKey::of(&std::fs::metadata(&path).unwrap());
        assert_ne!(changed, key);
        assert_eq!(memo.get_or_hash(Some(changed), &mut hash), "h4");
    }

    #[test]
    fn a_file_untouched_for_a_while_is_settled() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.md");
        std::fs::write(&path, "one").unwrap();
        std::thread::sleep(SETTLED + Duration::from_millis(300));
        let meta = std::fs::metadata(&path).unwrap();
        assert_eq!(FileKey::settled(&meta, &meta), Some(FileKey::of(&meta)));
    }

    #[test]
    fn a_file_that_changed_while_read_is_not_remembered() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.md");
        std::fs::write(&path, "one").unwrap();
        let before = std::fs::metadata(&path).unwrap();
        std::fs::write(&path, "longer").unwrap();
        let after = std::fs::metadata(&path).unwrap();
        assert!(FileKey::settled(&before, &after).is_none());
    }
}
