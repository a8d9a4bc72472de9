//! The hashes of large files, remembered by the file's identity so that
//! looking at the same unchanged file again does not hash it again.
//!
//! Hashing 50 MB costs about 35 ms, more than searching it. A file is known
//! by its device, inode, size, modification and status-change times; a
//! write through `write(2)` changes the status-change time, which no program
//! can set back. Two kinds of write can leave the times as they were for a
//! while: stores into pages of a shared memory mapping that are already
//! dirty (the times move again when the kernel has written them back, 30 s
//! at most with Linux's defaults), and writes on file systems that keep
//! times loosely (network and FUSE file systems). So a file is remembered
//! only on a local file system ([`is_local`]) and only when both its times
//! are at least [`SETTLED`] old, by which time no page of a mapping can
//! still be dirty from a write that did not move them.
//!
//! The hashes are only ever *reported* (TextInspect's `fileHash`). Edits
//! always hash the bytes they read.
//!
//! ```
//! use std::time::Duration;
//! use mcp_server_text::workspace::hash_memo::{FileKey, HashMemo, SETTLED};
//!
//! let dir = tempfile::tempdir().unwrap();
//! let path = dir.path().join("a.md");
//! std::fs::write(&path, "text").unwrap();
//! let meta = std::fs::metadata(&path).unwrap();
//! // Just written: too recent to be remembered.
//! assert!(FileKey::settled(&meta, &meta, SETTLED).is_none());
//! let memo = HashMemo::default();
//! assert_eq!(memo.get_or_hash(None, || "h".to_string()), "h");
//! ```

use std::collections::HashMap;
use std::fs::Metadata;
use std::os::unix::fs::MetadataExt;
use std::sync::Mutex;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// How long ago a file must have been last changed to be remembered: past
/// the time Linux keeps a page dirty before writing it back (30 s) and the
/// writeback thread's interval (5 s).
pub const SETTLED: Duration = Duration::from_secs(40);

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
    /// it: `None` if it changed meanwhile, or less than `settled` ago.
    pub fn settled(before: &Metadata, after: &Metadata, settled: Duration) -> Option<FileKey> {
        let key = FileKey::of(after);
        if FileKey::of(before) != key {
            return None;
        }
        let now = SystemTime::now().duration_since(UNIX_EPOCH).ok()?;
        let settled = |(secs, nanos): (i64, i64)| {
            let at = Duration::new(u64::try_from(secs).ok()?, u32::try_from(nanos).ok()?);
            now.checked_sub(at).map(|age| age >= settled)
        };
        (settled(key.mtime)? && settled(key.ctime)?).then_some(key)
    }
}

/// Whether `file` lies on a local file system that keeps its times strictly
/// (ext2/3/4, XFS, Btrfs, F2FS, ZFS, tmpfs, overlayfs).
pub fn is_local(file: &std::fs::File) -> bool {
    const LOCAL: [u64; 7] = [
        0xEF53,      // ext2, ext3, ext4
        0x5846_5342, // XFS
        0x9123_683E, // Btrfs
        0xF2F5_2010, // F2FS
        0x2FC1_2FC1, // ZFS
        0x0102_1994, // tmpfs
        0x794C_7630, // overlayfs
    ];
    rustix::fs::fstatfs(file).is_ok_and(|fs| {
        #[allow(clippy::unnecessary_cast, clippy::useless_conversion)]
        let kind = fs.f_type as u64;
        LOCAL.contains(&kind)
    })
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
        assert!(FileKey::settled(&meta, &meta, Duration::from_secs(1)).is_none());
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
        let settle = Duration::from_millis(1500);
        let meta = std::fs::metadata(&path).unwrap();
        assert_eq!(FileKey::settled(&meta, &meta, settle), None);
        std::thread::sleep(settle + Duration::from_millis(300));
        let meta = std::fs::metadata(&path).unwrap();
        assert_eq!(
            FileKey::settled(&meta, &meta, settle),
            Some(FileKey::of(&meta))
        );
        assert!(
            is_local(&File::open(&path).unwrap()),
            "tests run on a local file system"
        );
    }

    #[test]
    fn a_file_that_changed_while_read_is_not_remembered() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.md");
        std::fs::write(&path, "one").unwrap();
        let before = std::fs::metadata(&path).unwrap();
        std::fs::write(&path, "longer").unwrap();
        let after = std::fs::metadata(&path).unwrap();
        assert!(FileKey::settled(&before, &after, Duration::ZERO).is_none());
    }
}
