//! The records of one root, in its `.history` folder: appending under the
//! folder's lock, pruning the oldest, listing and reading.
//!
//! A record's file is named `<sequence>-<random>-<size>.rec`. The sequence,
//! one more than the highest in the folder, is given under the folder's lock,
//! so records sort in the order they were made even when several servers
//! write them; the random part keeps change ids apart between roots; the size
//! lets pruning add up the folder without looking at every file. The change
//! id is `<sequence>-<random>`. A record is written to an unnamed file and
//! linked under its name whole, so a reader never sees half of one.
//!
//! ```
//! use cap_std::{ambient_authority, fs::Dir};
//! use std::time::Duration;
//! use mcp_server_text::workspace::history::HistoryOptions;
//! use mcp_server_text::workspace::history::record::{Entry, Record};
//! use mcp_server_text::workspace::history::store::{Appended, append, list, open};
//!
//! let dir = tempfile::tempdir().unwrap();
//! let root = Dir::open_ambient_dir(dir.path(), ambient_authority()).unwrap();
//! let record = Record {
//!     change_id: String::new(),
//!     time: "2026-05-01T10:00:00Z".into(),
//!     tool: "Move".into(),
//!     undoes: None,
//!     entries: vec![Entry::Move { from: "a.md".into(), to: "b.md".into(), folder: false, made: vec![] }],
//! };
//! let options = HistoryOptions::default();
//! let Appended::Kept { change_id } = append(&root, &options, Duration::from_secs(5), record, &[]).unwrap()
//! else { panic!() };
//! assert!(change_id.starts_with("1-"));
//! let history = open(&root).unwrap().unwrap();
//! assert_eq!(list(&history).unwrap()[0].change_id, change_id);
//! ```

use std::fmt;
use std::io::{self, Read};
use std::path::Path;
use std::time::Duration;

use cap_std::fs::Dir;

use super::super::atomic_write::{self, TempKind};
use super::super::beneath::{open_folder_nofollow, open_for_reading};
use super::super::file_lock::{LockError, lock_open_folder};
use super::super::own_folders::keep_out_of_version_control;
use super::super::read::ReadError;
use super::HISTORY_DIR;
use super::HistoryOptions;
use super::record::{CorruptRecord, MAGIC, Record};

/// The ending of every record's file name.
const SUFFIX: &str = ".rec";

/// Letters of the random part of a change id (no look-alikes).
const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";

/// A record's file, by name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredName {
    /// Its place in the root's history (1 for the first record).
    pub seq: u64,
    /// The change id.
    pub change_id: String,
    /// Its size in bytes.
    pub size: u64,
    /// The file name.
    pub file: String,
}

impl StoredName {
    fn new(seq: u64, random: &str, size: u64) -> StoredName {
        StoredName {
            seq,
            change_id: format!("{seq}-{random}"),
            size,
            file: format!("{seq:010}-{random}-{size}{SUFFIX}"),
        }
    }

    /// Reads a file name; `None` for anything that is not a record.
    pub fn parse(file: &str) -> Option<StoredName> {
        let stem = file.strip_suffix(SUFFIX)?;
        let mut parts = stem.splitn(3, '-');
        let seq: u64 = parts.next()?.parse().ok()?;
        let random = parts.next()?;
        let size: u64 = parts.next()?.parse().ok()?;
        if random.is_empty() || !random.bytes().all(|b| ALPHABET.contains(&b)) {
            return None;
        }
        Some(StoredName::new(seq, random, size)).filter(|n| n.file == file)
    }
}

/// Why the history could not be written or read.
#[derive(Debug)]
pub enum HistoryError {
    /// The file system refused.
    Io(io::Error),
    /// The history folder's lock could not be taken.
    Lock(LockError),
    /// A record cannot be read back.
    Corrupt(CorruptRecord),
}

impl fmt::Display for HistoryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HistoryError::Io(e) => write!(f, "{e}"),
            HistoryError::Lock(e) => write!(f, "{e}"),
            HistoryError::Corrupt(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for HistoryError {}

impl From<io::Error> for HistoryError {
    fn from(e: io::Error) -> Self {
        HistoryError::Io(e)
    }
}

/// What became of a record given to [`append`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Appended {
    /// It was kept under this id.
    Kept {
        /// The change id.
        change_id: String,
    },
    /// It is larger than the history may hold, and was not kept.
    TooLarge {
        /// Its size.
        size: u64,
        /// The bound.
        limit: u64,
    },
}

/// The history folder of `root`, if it has one.
pub fn open(root: &Dir) -> io::Result<Option<Dir>> {
    match open_folder_nofollow(root, HISTORY_DIR.as_ref()) {
        Ok(dir) => Ok(Some(dir)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

/// Opens the history folder, creating it if needed (with its `.gitignore`).
/// It is created for its owner only: records hold old content of files
/// that may be private.
pub(crate) fn open_or_create(root: &Dir) -> io::Result<Dir> {
    match rustix::fs::mkdirat(root, HISTORY_DIR, rustix::fs::Mode::from_raw_mode(0o700)) {
        Ok(()) | Err(rustix::io::Errno::EXIST) => {}
        Err(e) => return Err(e.into()),
    }
    let folder = open_folder_nofollow(root, HISTORY_DIR.as_ref())?;
    keep_out_of_version_control(&folder)?;
    Ok(folder)
}

/// The records in `history`, oldest first.
pub fn list(history: &Dir) -> io::Result<Vec<StoredName>> {
    let mut names = Vec::new();
    for entry in history.entries()? {
        let entry = entry?;
        if let Some(name) = entry.file_name().to_str().and_then(StoredName::parse) {
            names.push(name);
        }
    }
    names.sort_by_key(|n| n.seq);
    Ok(names)
}

/// Gives `record` the next change id of `root`'s history and keeps it with
/// `payload`, then prunes the oldest records beyond `options`' bounds.
pub fn append(
    root: &Dir,
    options: &HistoryOptions,
    timeout: Duration,
    mut record: Record,
    payload: &[&[u8]],
) -> Result<Appended, HistoryError> {
    let payload_len: u64 = payload.iter().map(|p| p.len() as u64).sum();
    // The id's length changes the size only by a few bytes; a record that
    // large is refused before anything is locked or created.
    if payload_len > options.max_bytes {
        return Ok(Appended::TooLarge {
            size: payload_len,
            limit: options.max_bytes,
        });
    }
    let folder = open_or_create(root)?;
    let lock = lock_open_folder(folder, timeout).map_err(HistoryError::Lock)?;
    let history = &lock.dir;
    let existing = list(history)?;
    let seq = match existing.last() {
        None => 1,
        Some(last) => last.seq.checked_add(1).ok_or_else(|| {
            HistoryError::Corrupt(CorruptRecord(format!(
                "the record {} holds the last sequence number there is",
                last.file
            )))
        })?,
    };
    let random: String = (0..6)
        .map(|_| char::from(ALPHABET[fastrand::usize(..ALPHABET.len())]))
        .collect();
    record.change_id = format!("{seq}-{random}");
    let header = record.header();
    let size = header.len() as u64 + payload_len;
    if size > options.max_bytes {
        return Ok(Appended::TooLarge {
            size,
            limit: options.max_bytes,
        });
    }
    let name = StoredName::new(seq, &random, size);
    atomic_write::stage(
        history,
        name.file.as_ref(),
        None,
        TempKind::Unnamed,
        &mut |out| {
            out.write_all(&header)?;
            for piece in payload {
                out.write_all(piece)?;
            }
            Ok(())
        },
    )?
    .commit_new()?;
    prune(history, existing, &name, options);
    Ok(Appended::Kept {
        change_id: name.change_id,
    })
}

/// Removes the oldest of `older` until, with `newest`, the bounds hold.
/// A record that cannot be removed is left; the next append tries again.
fn prune(history: &Dir, older: Vec<StoredName>, newest: &StoredName, options: &HistoryOptions) {
    let mut count = older.len() + 1;
    // Sizes come from file names, which anything could have written.
    let mut total: u64 = older
        .iter()
        .fold(newest.size, |sum, n| sum.saturating_add(n.size));
    for name in older {
        if count <= options.max_entries && total <= options.max_bytes {
            break;
        }
        if history.remove_file(&name.file).is_ok() {
            count -= 1;
            total = total.saturating_sub(name.size);
        }
    }
}

/// The change `change_id` in `history`, if it is there.
pub fn find(history: &Dir, change_id: &str) -> io::Result<Option<StoredName>> {
    Ok(list(history)?
        .into_iter()
        .find(|n| n.change_id == change_id.trim()))
}

/// Reads a whole record: its description and payload.
pub fn read(history: &Dir, name: &StoredName) -> Result<(Record, Vec<u8>), HistoryError> {
    let bytes = read_file(history, name)?;
    let (record, payload) = Record::decode(&bytes).map_err(HistoryError::Corrupt)?;
    if record.change_id != name.change_id {
        return Err(HistoryError::Corrupt(CorruptRecord(format!(
            "it calls itself {} but is filed as {}",
            crate::text::excerpt::cut(&record.change_id, 40),
            name.change_id
        ))));
    }
    Ok((record, payload.to_vec()))
}

/// Longest description line read: far more than any change of this
/// program's limits writes.
const MAX_HEADER: u64 = 64 << 20;

/// Reads a record's description only.
pub fn read_header(history: &Dir, name: &StoredName) -> Result<Record, HistoryError> {
    let file = open_record(history, name)?;
    let mut head = Vec::new();
    let mut reader = io::BufReader::new(file);
    io::BufRead::read_until(&mut reader, b'\n', &mut head)?;
    if head != MAGIC {
        return Err(HistoryError::Corrupt(CorruptRecord(
            "it does not start like a record".into(),
        )));
    }
    head.clear();
    io::BufRead::read_until(
        &mut io::Read::take(&mut reader, MAX_HEADER),
        b'\n',
        &mut head,
    )?;
    let Some(line) = head.strip_suffix(b"\n") else {
        return Err(HistoryError::Corrupt(CorruptRecord(
            "its description is cut short".into(),
        )));
    };
    let record = Record::decode_header(line).map_err(HistoryError::Corrupt)?;
    if record.change_id != name.change_id {
        return Err(HistoryError::Corrupt(CorruptRecord(format!(
            "it calls itself {} but is filed as {}",
            crate::text::excerpt::cut(&record.change_id, 40),
            name.change_id
        ))));
    }
    Ok(record)
}

fn open_record(history: &Dir, name: &StoredName) -> Result<std::fs::File, HistoryError> {
    open_for_reading(history, Path::new(&name.file)).map_err(|e| match e {
        ReadError::Io(e) => HistoryError::Io(e),
        other => HistoryError::Io(io::Error::other(other.to_string())),
    })
}

fn read_file(history: &Dir, name: &StoredName) -> Result<Vec<u8>, HistoryError> {
    let mut file = open_record(history, name)?;
    // The size in the name is only a hint: the file's own size bounds it.
    let len = file.metadata()?.len();
    let mut bytes = Vec::with_capacity(name.size.min(len) as usize);
    file.read_to_end(&mut bytes)?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::history::record::Entry;
    use cap_std::ambient_authority;

    fn root() -> (tempfile::TempDir, Dir) {
        let dir = tempfile::tempdir().unwrap();
        let handle = Dir::open_ambient_dir(dir.path(), ambient_authority()).unwrap();
        (dir, handle)
    }

    fn record(tool: &str) -> Record {
        Record {
            change_id: String::new(),
            time: "2026-05-01T10:00:00Z".into(),
            tool: tool.into(),
            undoes: None,
            entries: vec![Entry::Move {
                from: "a.md".into(),
                to: "b.md".into(),
                folder: false,
                made: Vec::new(),
            }],
        }
    }

    fn kept(appended: Appended) -> String {
        match appended {
            Appended::Kept { change_id } => change_id,
            other => panic!("not kept: {other:?}"),
        }
    }

    const WAIT: Duration = Duration::from_secs(5);

    #[test]
    fn names_round_trip_and_strangers_are_ignored() {
        let name = StoredName::new(42, "abc234", 1234);
        assert_eq!(name.file, "0000000042-abc234-1234.rec");
        assert_eq!(StoredName::parse(&name.file), Some(name));
        for other in [
            "notes.md",
            "1-abc-2.rec",
            "x-abc234-1.rec",
            "1-ABC-1.rec",
            "",
        ] {
            assert_eq!(StoredName::parse(other), None, "{other}");
        }
    }

    #[test]
    fn prunes_the_oldest_by_count_and_by_size() {
        let (dir, root) = root();
        let options = HistoryOptions {
            max_entries: 3,
            ..HistoryOptions::default()
        };
        let ids: Vec<String> = (0..5)
            .map(|i| kept(append(&root, &options, WAIT, record(&format!("T{i}")), &[]).unwrap()))
            .collect();
        let history = open(&root).unwrap().unwrap();
        let left: Vec<String> = list(&history)
            .unwrap()
            .into_iter()
            .map(|n| n.change_id)
            .collect();
        assert_eq!(left, ids[2..]);
        assert!(ids[4].starts_with("5-"), "{ids:?}");

        // By size: each record with 100 bytes of payload; room for two.
        std::fs::remove_dir_all(dir.path().join(HISTORY_DIR)).unwrap();
        let mut with_payload = record("S");
        with_payload.entries = vec![Entry::Edit {
            path: "a.md".into(),
            encoding: "utf-8".into(),
            hash_before: "0".repeat(16),
            hash_after: "1".repeat(16),
            affected_lines: crate::text::edit::LineSpan::new(1, 1),
            lines_delta: 0,
            prefix: 0,
            old_len: 100,
            new_len: 1,
        }];
        let one = Record {
            change_id: "1-abcdef".into(),
            ..with_payload.clone()
        }
        .header()
        .len() as u64
            + 100;
        let options = HistoryOptions {
            max_bytes: 2 * one + 10,
            ..HistoryOptions::default()
        };
        let ids: Vec<String> = (0..4)
            .map(|_| {
                kept(append(&root, &options, WAIT, with_payload.clone(), &[&[b'x'; 100]]).unwrap())
            })
            .collect();
        let history = open(&root).unwrap().unwrap();
        let names = list(&history).unwrap();
        assert_eq!(names.len(), 2, "{names:?}");
        assert_eq!(names[1].change_id, ids[3]);
        let (read_back, payload) = read(&history, &names[1]).unwrap();
        assert_eq!(read_back.change_id, ids[3]);
        assert_eq!(payload, vec![b'x'; 100]);
        assert_eq!(read_header(&history, &names[1]).unwrap(), read_back);
    }

    #[test]
    fn appends_at_once_get_every_sequence_number_once() {
        // Each append opens the folder anew, so the threads contend for its
        // OS lock exactly as separate processes would.
        let (_dir, root) = root();
        let root = std::sync::Arc::new(root);
        let options = HistoryOptions::default();
        let threads: Vec<_> = (0..8)
            .map(|_| {
                let (root, options) = (root.clone(), options.clone());
                std::thread::spawn(move || {
                    (0..25)
                        .map(|_| kept(append(&root, &options, WAIT, record("T"), &[]).unwrap()))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        let mut seqs: Vec<u64> = threads
            .into_iter()
            .flat_map(|t| t.join().unwrap())
            .map(|id| id.split('-').next().unwrap().parse().unwrap())
            .collect();
        seqs.sort();
        assert_eq!(seqs, (1..=200).collect::<Vec<u64>>());
        let history = open(&root).unwrap().unwrap();
        assert_eq!(list(&history).unwrap().len(), 200);
    }

    #[test]
    fn a_record_larger_than_the_bound_is_not_kept() {
        let (dir, root) = root();
        let options = HistoryOptions {
            max_bytes: 50,
            ..HistoryOptions::default()
        };
        let appended = append(&root, &options, WAIT, record("T"), &[&[0u8; 10]]).unwrap();
        assert!(
            matches!(appended, Appended::TooLarge { limit: 50, .. }),
            "{appended:?}"
        );
        let appended = append(&root, &options, WAIT, record("T"), &[&[0u8; 60]]).unwrap();
        assert_eq!(
            appended,
            Appended::TooLarge {
                size: 60,
                limit: 50
            }
        );
        let history = open(&root).unwrap().unwrap();
        assert!(list(&history).unwrap().is_empty());
        assert!(dir.path().join(HISTORY_DIR).is_dir());
    }

    #[test]
    fn the_folder_keeps_itself_out_of_git_even_when_made_by_someone_else() {
        let (dir, root) = root();
        // A history folder from before `.gitignore` was written, or made by hand.
        std::fs::create_dir(dir.path().join(HISTORY_DIR)).unwrap();
        kept(append(&root, &HistoryOptions::default(), WAIT, record("T"), &[]).unwrap());
        let ignore = dir.path().join(HISTORY_DIR).join(".gitignore");
        assert_eq!(std::fs::read(&ignore).unwrap(), b"*\n");
        // One written otherwise is left as it is.
        std::fs::write(&ignore, "*.rec\n").unwrap();
        kept(append(&root, &HistoryOptions::default(), WAIT, record("T"), &[]).unwrap());
        assert_eq!(std::fs::read(&ignore).unwrap(), b"*.rec\n");
        let history = open(&root).unwrap().unwrap();
        assert_eq!(
            list(&history).unwrap().len(),
            2,
            "the .gitignore is no record"
        );
    }

    #[test]
    fn a_link_in_place_of_the_folder_is_refused() {
        let (dir, root) = root();
        std::fs::create_dir(dir.path().join("elsewhere")).unwrap();
        std::os::unix::fs::symlink("elsewhere", dir.path().join(HISTORY_DIR)).unwrap();
        assert!(append(&root, &HistoryOptions::default(), WAIT, record("T"), &[]).is_err());
        assert!(open(&root).is_err());
        assert_eq!(
            std::fs::read_dir(dir.path().join("elsewhere"))
                .unwrap()
                .count(),
            0
        );
    }
}
