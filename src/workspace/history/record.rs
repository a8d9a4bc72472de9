//! One change as the history keeps it, and its bytes on disk: a first line
//! naming the format, a line of JSON describing the change, then the bytes
//! each edit replaced, one after the other in the order of the edits.
//!
//! Paths are kept relative to the root whose history holds the record (with
//! `/` between names), or absolute for a file of another root, so a record
//! still applies when the root folder itself is moved or renamed.
//!
//! ```
//! use mcp_server_text::workspace::history::record::{Entry, Record};
//!
//! let record = Record {
//!     change_id: "7-abc123".into(),
//!     time: "2026-05-01T10:00:00Z".into(),
//!     tool: "TextReplace".into(),
//!     undoes: None,
//!     entries: vec![Entry::Move { from: "a.md".into(), to: "b.md".into(), folder: false, made: vec![] }],
//! };
//! let bytes = record.encode(&[]);
//! let (read, payload) = Record::decode(&bytes).unwrap();
//! assert_eq!(read, record);
//! assert!(payload.is_empty());
//! ```

use std::path::{Component, Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::text::edit::LineSpan;

/// The first line of every record.
pub const MAGIC: &[u8] = b"mcp-server-text history 1\n";

/// A recorded change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Record {
    /// Its id, as EditHistory shows it and UndoEdit takes it.
    pub change_id: String,
    /// When it was made, in UTC (RFC 3339).
    pub time: String,
    /// The tool that made it.
    pub tool: String,
    /// For an undo, the change it undid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub undoes: Option<String>,
    /// What it did, file by file.
    pub entries: Vec<Entry>,
}

/// What a change did to one file or folder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Entry {
    /// An existing file got new content.
    #[serde(rename_all = "camelCase")]
    Edit {
        /// The file (where it was written).
        path: String,
        /// The encoding it was read and written in.
        encoding: String,
        /// fileHash before.
        hash_before: String,
        /// fileHash after.
        hash_after: String,
        /// The lines that changed, in the file after the change (an empty
        /// span, `end = start - 1`, where lines were only removed).
        affected_lines: LineSpan,
        /// Lines added minus lines removed.
        lines_delta: isize,
        /// Bytes kept at the start.
        prefix: u64,
        /// Bytes of the old middle (kept in the record's payload).
        old_len: u64,
        /// Bytes of the new middle (in the file).
        new_len: u64,
    },
    /// A file was created.
    #[serde(rename_all = "camelCase")]
    Create {
        /// The file.
        path: String,
        /// fileHash of its content.
        hash_after: String,
        /// Its lines.
        lines: usize,
    },
    /// A file or folder was moved (a removal is a move into the trash).
    #[serde(rename_all = "camelCase")]
    Move {
        /// Where it was.
        from: String,
        /// Where it went.
        to: String,
        /// Whether it is a folder.
        folder: bool,
        /// Folders made for the destination, outermost first (an undo
        /// removes those it leaves empty).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        made: Vec<String>,
    },
}

impl Entry {
    /// The payload bytes this entry owns.
    pub fn payload_len(&self) -> u64 {
        match self {
            Entry::Edit { old_len, .. } => *old_len,
            _ => 0,
        }
    }
}

/// A record that cannot be read back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CorruptRecord(pub String);

impl std::fmt::Display for CorruptRecord {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the history record is damaged: {}", self.0)
    }
}

impl std::error::Error for CorruptRecord {}

impl Record {
    /// The record's first bytes: the format line and the description. The
    /// payload (the replaced bytes of each edit, in order) follows them.
    pub fn header(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        // Serializing strings, numbers and enums cannot fail.
        out.extend(serde_json::to_vec(self).unwrap_or_default());
        out.push(b'\n');
        out
    }

    /// The record's bytes, with `payload` after the description.
    pub fn encode(&self, payload: &[&[u8]]) -> Vec<u8> {
        let mut out = self.header();
        for piece in payload {
            out.extend_from_slice(piece);
        }
        out
    }

    /// Reads a record's description and payload from its bytes, checking
    /// every field ([`Record::check`]): a record is data, never trusted.
    pub fn decode(bytes: &[u8]) -> Result<(Record, &[u8]), CorruptRecord> {
        let rest = bytes
            .strip_prefix(MAGIC)
            .ok_or_else(|| CorruptRecord("it does not start like a record".into()))?;
        let end = memchr::memchr(b'\n', rest)
            .ok_or_else(|| CorruptRecord("its description is cut short".into()))?;
        let record = Record::decode_header(&rest[..end])?;
        let payload = &rest[end + 1..];
        let needed = record.payload_len()?;
        if payload.len() as u64 != needed {
            return Err(CorruptRecord(format!(
                "it holds {} bytes of content where {needed} were written",
                payload.len()
            )));
        }
        Ok((record, payload))
    }

    /// Reads and checks a record's description line (without the first line).
    pub fn decode_header(line: &[u8]) -> Result<Record, CorruptRecord> {
        let record: Record =
            serde_json::from_slice(line).map_err(|e| CorruptRecord(e.to_string()))?;
        record.check()?;
        Ok(record)
    }

    /// The payload bytes all edits own together, added up without overflow.
    pub fn payload_len(&self) -> Result<u64, CorruptRecord> {
        self.entries.iter().try_fold(0u64, |sum, e| {
            sum.checked_add(e.payload_len())
                .ok_or_else(|| CorruptRecord("its content lengths overflow".into()))
        })
    }

    /// Checks every field a record could hold only if this program wrote it:
    /// ids, hashes and encodings of the right form, lengths whose sums fit,
    /// and paths that are plain names below a root (or absolute, for a file
    /// of another root), never `.`, `..` or the history folder itself.
    pub fn check(&self) -> Result<(), CorruptRecord> {
        let bad = |what: String| Err(CorruptRecord(what));
        if !is_change_id(&self.change_id) {
            return bad("its change id is not one this server gives".into());
        }
        if let Some(undoes) = &self.undoes
            && !is_change_id(undoes)
        {
            return bad("the change it undoes is not named by a change id".into());
        }
        if self.time.len() > 64 || self.tool.len() > 64 || self.tool.chars().any(char::is_control) {
            return bad("its time or tool is not one this server writes".into());
        }
        if self.entries.is_empty() || self.entries.len() > MAX_ENTRIES {
            return bad(format!("it lists {} files", self.entries.len()));
        }
        for entry in &self.entries {
            match entry {
                Entry::Edit {
                    path,
                    encoding,
                    hash_before,
                    hash_after,
                    prefix,
                    old_len,
                    new_len,
                    ..
                } => {
                    check_path(path)?;
                    if crate::text::encoding::TextEncoding::from_label(encoding).is_none() {
                        return bad(format!("the encoding '{}' is unknown", cut(encoding)));
                    }
                    check_hash(hash_before)?;
                    check_hash(hash_after)?;
                    for len in [old_len, new_len] {
                        let end = prefix
                            .checked_add(*len)
                            .filter(|&end| end <= MAX_FILE_BYTES);
                        if end.is_none() {
                            return bad(format!(
                                "the edit of {} lies past any file's end",
                                cut(path)
                            ));
                        }
                    }
                }
                Entry::Create {
                    path, hash_after, ..
                } => {
                    check_path(path)?;
                    check_hash(hash_after)?;
                }
                Entry::Move { from, to, made, .. } => {
                    check_path(from)?;
                    check_path(to)?;
                    for folder in made {
                        check_path(folder)?;
                    }
                }
            }
        }
        self.payload_len().map(|_| ())
    }

    /// Each edit's old bytes, split out of `payload` (which
    /// [`Record::decode`] checked to hold exactly their lengths).
    pub fn old_middles<'p>(&self, payload: &'p [u8]) -> Vec<&'p [u8]> {
        let mut rest = payload;
        self.entries
            .iter()
            .filter(|e| matches!(e, Entry::Edit { .. }))
            .map(|e| {
                let len = usize::try_from(e.payload_len())
                    .unwrap_or(usize::MAX)
                    .min(rest.len());
                let (piece, after) = rest.split_at(len);
                rest = after;
                piece
            })
            .collect()
    }
}

/// Most entries one record may list.
const MAX_ENTRIES: usize = 1_000_000;

/// No file this server reads is larger (sizes are 64-bit, and far smaller).
const MAX_FILE_BYTES: u64 = 1 << 48;

/// Whether `id` looks like `<sequence>-<letters>`, as records are named.
fn is_change_id(id: &str) -> bool {
    let Some((seq, random)) = id.split_once('-') else {
        return false;
    };
    id.len() <= 40
        && !seq.is_empty()
        && seq.bytes().all(|b| b.is_ascii_digit())
        && !random.is_empty()
        && random
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
}

fn check_hash(hash: &str) -> Result<(), CorruptRecord> {
    if hash.len() == crate::text::hash::HASH_LEN
        && hash.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
    {
        Ok(())
    } else {
        Err(CorruptRecord(format!("'{}' is not a file hash", cut(hash))))
    }
}

/// A kept path: names joined by `/`, relative to the record's root or
/// absolute, none of them empty, `.` or `..`, none in the history folder.
fn check_path(path: &str) -> Result<(), CorruptRecord> {
    let names = path.strip_prefix('/').unwrap_or(path);
    let plain = !names.is_empty()
        && path.len() <= 4096
        && !path.contains('\0')
        && names
            .split('/')
            .all(|n| !n.is_empty() && n != "." && n != "..");
    let in_history = !path.starts_with('/') && names.split('/').next() == Some(super::HISTORY_DIR);
    if plain && !in_history {
        Ok(())
    } else {
        Err(CorruptRecord(format!(
            "the path '{}' is not one this server records",
            cut(path)
        )))
    }
}

/// At most 80 characters of a field, for messages.
fn cut(text: &str) -> String {
    crate::text::excerpt::cut(text, 80)
}

/// `real` as a record keeps it: relative to `root` if inside it, else
/// absolute; `None` for a path that is not valid Unicode.
pub fn stored_path(root: &Path, real: &Path) -> Option<String> {
    match real.strip_prefix(root) {
        Ok(rel) => {
            let names: Option<Vec<&str>> = rel
                .components()
                .map(|c| match c {
                    Component::Normal(name) => name.to_str(),
                    _ => None,
                })
                .collect();
            names.map(|n| n.join("/"))
        }
        Err(_) => real.to_str().map(str::to_string),
    }
}

/// The real path of `stored` for a record of `root`.
pub fn real_path(root: &Path, stored: &str) -> PathBuf {
    if Path::new(stored).is_absolute() {
        PathBuf::from(stored)
    } else {
        stored.split('/').fold(root.to_path_buf(), |p, n| p.join(n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edit(path: &str, old_len: u64) -> Entry {
        Entry::Edit {
            path: path.into(),
            encoding: "utf-8".into(),
            hash_before: "0".repeat(16),
            hash_after: "1".repeat(16),
            affected_lines: LineSpan::new(2, 3),
            lines_delta: 1,
            prefix: 4,
            old_len,
            new_len: 9,
        }
    }

    #[test]
    fn payload_is_split_per_edit() {
        let record = Record {
            change_id: "1-x".into(),
            time: "t".into(),
            tool: "Batch".into(),
            undoes: None,
            entries: vec![
                edit("a.md", 3),
                Entry::Create {
                    path: "n.md".into(),
                    hash_after: "2".repeat(16),
                    lines: 1,
                },
                edit("b.md", 0),
                edit("c.md", 2),
            ],
        };
        let bytes = record.encode(&[b"abc", b"", b"\n\0"]);
        let (read, payload) = Record::decode(&bytes).unwrap();
        assert_eq!(read, record);
        assert_eq!(read.old_middles(payload), [&b"abc"[..], b"", b"\n\0"]);
        assert!(Record::decode(&bytes[..bytes.len() - 1]).is_err());
        assert!(Record::decode(b"something else").is_err());
    }

    #[test]
    fn paths_inside_the_root_are_relative() {
        let root = Path::new("/v");
        assert_eq!(
            stored_path(root, Path::new("/v/notes/a.md")).as_deref(),
            Some("notes/a.md")
        );
        assert_eq!(
            stored_path(root, Path::new("/w/b.md")).as_deref(),
            Some("/w/b.md")
        );
        assert_eq!(real_path(root, "notes/a.md"), Path::new("/v/notes/a.md"));
        assert_eq!(real_path(root, "/w/b.md"), Path::new("/w/b.md"));
    }

    /// A record that holds only what this program writes, checked as
    /// [`Record::decode`] promises.
    fn assert_sound(record: &Record, payload: &[u8]) {
        record.check().unwrap();
        let middles = record.old_middles(payload);
        let total: usize = middles.iter().map(|m| m.len()).sum();
        assert_eq!(total, payload.len());
        for entry in &record.entries {
            if let Entry::Edit {
                prefix,
                old_len,
                new_len,
                ..
            } = entry
            {
                assert!(prefix.checked_add(*old_len).is_some());
                assert!(prefix.checked_add(*new_len).is_some());
            }
        }
    }

    #[test]
    fn forged_fields_are_refused() {
        let good = Record {
            change_id: "3-abcdef".into(),
            time: "2026-05-01T10:00:00Z".into(),
            tool: "TextReplace".into(),
            undoes: None,
            entries: vec![edit("a.md", 1)],
        };
        assert!(Record::decode(&good.encode(&[b"x"])).is_ok());
        let forged = |change: &dyn Fn(&mut Record)| {
            let mut record = good.clone();
            change(&mut record);
            Record::decode(&record.encode(&[b"x"])).map(|_| ())
        };
        let set_prefix = |prefix: u64| {
            move |r: &mut Record| {
                if let Entry::Edit { prefix: p, .. } = &mut r.entries[0] {
                    *p = prefix;
                }
            }
        };
        // The panic of issue 22: a prefix of 2^64 - 1.
        assert!(forged(&set_prefix(u64::MAX)).is_err());
        assert!(forged(&set_prefix(1 << 60)).is_err());
        for path in [
            "../x.md",
            "a/../../b.md",
            "",
            "a//b.md",
            ".history/1-a-1.rec",
            "./a.md",
        ] {
            let refused = forged(&|r: &mut Record| {
                if let Entry::Edit { path: p, .. } = &mut r.entries[0] {
                    *p = path.into();
                }
            });
            assert!(refused.is_err(), "{path}");
        }
        assert!(forged(&|r: &mut Record| r.change_id = "../../x".into()).is_err());
        assert!(
            forged(&|r: &mut Record| {
                if let Entry::Edit { hash_after, .. } = &mut r.entries[0] {
                    *hash_after = "not a hash".into();
                }
            })
            .is_err()
        );
        assert!(
            forged(&|r: &mut Record| {
                if let Entry::Edit { encoding, .. } = &mut r.entries[0] {
                    *encoding = "no-such-encoding".into();
                }
            })
            .is_err()
        );
        assert!(forged(&|r: &mut Record| r.entries.clear()).is_err());
    }

    proptest::proptest! {
        /// Any bytes, after the format line or not, are read or refused,
        /// never a panic; what is read is sound.
        #[test]
        fn any_bytes_are_read_or_refused(
            bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..600),
            framed in proptest::prelude::any::<bool>(),
        ) {
            let mut input = if framed { MAGIC.to_vec() } else { Vec::new() };
            input.extend_from_slice(&bytes);
            if let Ok((record, payload)) = Record::decode(&input) {
                assert_sound(&record, payload);
            }
            let _ = Record::decode_header(&bytes);
        }

        /// A real record with bytes changed, added or taken away anywhere is
        /// read soundly or refused.
        #[test]
        fn mutated_records_are_read_soundly_or_refused(
            old_len in 0u64..40,
            prefix in proptest::prelude::any::<u64>(),
            mutations in proptest::collection::vec(
                (proptest::prelude::any::<usize>(), proptest::prelude::any::<u8>(), 0u8..3),
                1..8,
            ),
        ) {
            let record = Record {
                change_id: "12-k3x9qa".into(),
                time: "2026-05-01T10:00:00Z".into(),
                tool: "Batch".into(),
                undoes: Some("11-abcdef".into()),
                entries: vec![
                    Entry::Edit {
                        path: "notes/a.md".into(),
                        encoding: "utf-8".into(),
                        hash_before: "0123456789abcdef".into(),
                        hash_after: "fedcba9876543210".into(),
                        affected_lines: LineSpan::new(1, 2),
                        lines_delta: -1,
                        prefix: prefix % 1000,
                        old_len,
                        new_len: 3,
                    },
                    Entry::Move {
                        from: "b.md".into(),
                        to: "archive/b.md".into(),
                        folder: false,
                        made: vec!["archive".into()],
                    },
                ],
            };
            let payload = vec![b'x'; old_len as usize];
            let mut bytes = record.encode(&[&payload]);
            for (at, byte, how) in mutations {
                let at = at % (bytes.len() + 1);
                match how {
                    0 if at < bytes.len() => bytes[at] = byte,
                    1 => bytes.insert(at, byte),
                    _ if at < bytes.len() => {
                        bytes.remove(at);
                    }
                    _ => {}
                }
            }
            if let Ok((record, payload)) = Record::decode(&bytes) {
                assert_sound(&record, payload);
            }
        }

        /// Lengths of any size in a record's description are refused when
        /// they could not be a file's, and never overflow.
        #[test]
        fn any_lengths_are_checked(
            prefix in proptest::prelude::any::<u64>(),
            old_len in proptest::prelude::any::<u64>(),
            new_len in proptest::prelude::any::<u64>(),
        ) {
            let record = Record {
                change_id: "1-abc".into(),
                time: "t".into(),
                tool: "TextPatch".into(),
                undoes: None,
                entries: vec![Entry::Edit {
                    path: "a.md".into(),
                    encoding: "utf-8".into(),
                    hash_before: "0".repeat(16),
                    hash_after: "1".repeat(16),
                    affected_lines: LineSpan::new(1, 1),
                    lines_delta: 0,
                    prefix,
                    old_len,
                    new_len,
                }],
            };
            let payload = vec![0u8; old_len.min(64) as usize];
            if let Ok((read, payload)) = Record::decode(&record.encode(&[&payload])) {
                assert_sound(&read, payload);
                assert!(prefix + old_len.max(new_len) <= MAX_FILE_BYTES);
            }
        }
    }
}
