//! Reading a file into a [`Document`], within the size limit.
//!
//! ```
//! use cap_std::{ambient_authority, fs::Dir};
//! use mcp_server_text::workspace::beneath::open_for_reading;
//! use mcp_server_text::workspace::read::read_document;
//!
//! let dir = tempfile::tempdir().unwrap();
//! std::fs::write(dir.path().join("a.md"), "# Title\n").unwrap();
//! let root = Dir::open_ambient_dir(dir.path(), ambient_authority()).unwrap();
//! let file = open_for_reading(&root, "a.md".as_ref()).unwrap();
//! let doc = read_document(&file, 1024, None).unwrap();
//! assert_eq!(doc.line(1), "# Title");
//! assert!(read_document(&file, 4, None).is_err());
//! ```

use std::fmt;
use std::fs::File;
use std::io::{self, Read, Seek};

use crate::text::document::Document;
use crate::text::encoding::{DecodeError, TextEncoding};
use crate::workspace::search::halves::{PARALLEL_FROM, read_in_halves};

/// Why a file could not be read as text.
#[derive(Debug)]
pub enum ReadError {
    /// The path is a folder.
    IsDirectory,
    /// The path is neither a file nor a folder (a device, a socket, …).
    NotAFile,
    /// The file is larger than the limit.
    TooLarge {
        /// Size of the file in bytes.
        size: u64,
        /// The limit in bytes.
        max: u64,
    },
    /// The file grew past the limit while it was being read.
    GrewTooLarge {
        /// The limit in bytes.
        max: u64,
    },
    /// The bytes are not text in a known encoding.
    Decode(DecodeError),
    /// The system refused to read the file.
    Io(io::Error),
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::IsDirectory => f.write_str("it is a folder, not a file"),
            ReadError::NotAFile => {
                f.write_str("it is not a regular file (a pipe, socket or device)")
            }
            ReadError::TooLarge { size, max } => write!(
                f,
                "it is {} and the limit is {} (--max-file-size)",
                human_size(*size),
                human_size(*max)
            ),
            ReadError::GrewTooLarge { max } => write!(
                f,
                "it grew past the limit of {} (--max-file-size) while it was being read",
                human_size(*max)
            ),
            ReadError::Decode(e) => e.fmt(f),
            ReadError::Io(e) => write!(f, "it could not be read: {e}"),
        }
    }
}

impl std::error::Error for ReadError {}

impl ReadError {
    /// Whether the file was refused because it is binary.
    pub fn is_binary(&self) -> bool {
        matches!(self, ReadError::Decode(DecodeError::Binary { .. }))
    }
}

/// Refuses what is not a regular file within the size limit, by its metadata.
pub fn check_readable(meta: &std::fs::Metadata, max_size: u64) -> Result<(), ReadError> {
    if meta.is_dir() {
        return Err(ReadError::IsDirectory);
    }
    if !meta.is_file() {
        return Err(ReadError::NotAFile);
    }
    if meta.len() > max_size {
        return Err(ReadError::TooLarge {
            size: meta.len(),
            max: max_size,
        });
    }
    Ok(())
}

/// Reads and decodes `file` (opened by [`super::beneath::open_for_reading`]),
/// reading at most `max_size + 1` bytes.
///
/// A large file in no declared encoding is first read in halves by two
/// threads ([`super::search::halves`]); that gives the same document when
/// it is UTF-8 without NUL bytes, and anything else is read the usual way.
pub fn read_document(
    file: &File,
    max_size: u64,
    encoding: Option<TextEncoding>,
) -> Result<Document, ReadError> {
    if encoding.is_none() {
        let meta = file.metadata().map_err(ReadError::Io)?;
        check_readable(&meta, max_size)?;
        if meta.len() >= PARALLEL_FROM
            && let Some(text) = read_in_halves(file, meta.len())
        {
            let bom = text.has_bom();
            return Ok(Document::from_utf8(text.into_string(), bom));
        }
    }
    let bytes = read_limited(file, max_size)?;
    Document::decode(bytes, encoding).map_err(ReadError::Decode)
}

/// Reads `file` from its start, refusing it if it holds more than `max`
/// bytes: at most `max + 1` bytes are ever read, however fast it grows.
pub fn read_limited(file: &File, max: u64) -> Result<Vec<u8>, ReadError> {
    let mut bytes = Vec::new();
    read_limited_into(file, max, &mut bytes)?;
    Ok(bytes)
}

/// [`read_limited`] into a buffer the caller keeps (it is cleared first).
pub fn read_limited_into(file: &File, max: u64, buffer: &mut Vec<u8>) -> Result<(), ReadError> {
    let meta = file.metadata().map_err(ReadError::Io)?;
    check_readable(&meta, max)?;
    buffer.clear();
    buffer.reserve(meta.len() as usize + 1);
    // From the start: a locked file may have been read before. Reading
    // straight into the buffer's free room copies each byte once.
    let mut reader = file;
    reader.seek(io::SeekFrom::Start(0)).map_err(ReadError::Io)?;
    // `read_to_end` retries interrupted reads itself.
    reader
        .take(max + 1)
        .read_to_end(buffer)
        .map_err(ReadError::Io)?;
    if buffer.len() as u64 > max {
        // The file grew since its size was looked at (or reports none).
        return Err(ReadError::GrewTooLarge { max });
    }
    Ok(())
}

/// A byte count as people read it: `812 B`, `32 KB`, `4.2 MB`.
pub fn human_size(bytes: u64) -> String {
    const KB: f64 = 1024.0;
    let b = bytes as f64;
    if b < KB {
        format!("{bytes} B")
    } else if b < KB * KB {
        format!("{:.0} KB", (b / KB).max(1.0))
    } else if b < KB * KB * KB {
        format!("{:.1} MB", b / (KB * KB))
    } else {
        format!("{:.1} GB", b / (KB * KB * KB))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_like_people_write_them() {
        assert_eq!(human_size(812), "812 B");
        assert_eq!(human_size(32 * 1024 + 100), "32 KB");
        assert_eq!(human_size(4 * 1024 * 1024 + 300_000), "4.3 MB");
    }

    #[test]
    fn refuses_big_files() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.txt");
        std::fs::write(&path, "0123456789a").unwrap();
        let file = File::open(&path).unwrap();
        let err = read_document(&file, 10, None).unwrap_err();
        assert_eq!(
            err.to_string(),
            "it is 11 B and the limit is 10 B (--max-file-size)"
        );
        assert_eq!(
            read_document(&file, 11, None).unwrap().text(),
            "0123456789a"
        );
    }

    #[test]
    fn a_file_is_read_only_up_to_the_limit_whatever_size_it_reports() {
        // Files in /proc report a size of 0 and still hold bytes, like a file
        // that grows between its fstat and its read.
        let proc =
            cap_std::fs::Dir::open_ambient_dir("/proc/self", cap_std::ambient_authority()).unwrap();
        let file = crate::workspace::beneath::open_for_reading(&proc, std::path::Path::new("maps"))
            .unwrap();
        assert_eq!(file.metadata().unwrap().len(), 0);
        let mut buffer = Vec::new();
        let err = read_limited_into(&file, 10, &mut buffer).unwrap_err();
        assert!(matches!(err, ReadError::GrewTooLarge { max: 10 }), "{err}");
        assert_eq!(
            err.to_string(),
            "it grew past the limit of 10 B (--max-file-size) while it was being read"
        );
        assert_eq!(buffer.len(), 11);
    }
}
