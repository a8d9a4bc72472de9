//! A file's text for searching, read by the same rules as every other read in
//! the workspace: UTF-8 (a byte order mark is dropped), UTF-16 with a byte
//! order mark or recognisably without one, files with NUL bytes are binary,
//! anything else that is not UTF-8 cannot be read, and nothing larger than the
//! size limit is read.
//!
//! The common case (UTF-8 without NUL bytes) is searched in place in a buffer
//! the caller keeps from file to file, so a search allocates nothing per file.
//!
//! ```
//! use mcp_server_text::workspace::search::contents::read_text;
//!
//! let dir = tempfile::tempdir().unwrap();
//! let path = dir.path().join("a.md");
//! std::fs::write(&path, "\u{feff}# Title\n").unwrap();
//! let mut buffer = Vec::new();
//! let file = std::fs::File::open(&path).unwrap();
//! assert_eq!(read_text(&file, 1024, &mut buffer).unwrap().bytes(), b"# Title\n");
//! std::fs::write(&path, b"\x00\x01").unwrap();
//! assert!(read_text(&file, 1024, &mut buffer).unwrap_err().is_binary());
//! ```

use std::fs::File;

use crate::text::encoding::{UTF8_BOM, decode};
use crate::workspace::read::ReadError;
use crate::workspace::read::read_limited_into;

/// The text of a file, as UTF-8 bytes without a byte order mark.
#[derive(Debug)]
pub enum Contents<'a> {
    /// The file's own bytes, already UTF-8.
    InPlace(&'a [u8]),
    /// Text decoded from another encoding (UTF-16).
    Decoded(String),
}

impl Contents<'_> {
    /// The text's bytes.
    pub fn bytes(&self) -> &[u8] {
        match self {
            Contents::InPlace(bytes) => bytes,
            Contents::Decoded(text) => text.as_bytes(),
        }
    }
}

/// Reads `file` (opened by [`crate::workspace::beneath::open_for_reading`])
/// into `buffer`, at most `max_size + 1` bytes, and returns its text.
pub fn read_text<'b>(
    file: &File,
    max_size: u64,
    buffer: &'b mut Vec<u8>,
) -> Result<Contents<'b>, ReadError> {
    read_limited_into(file, max_size, buffer)?;
    classify(buffer)
}

fn classify(bytes: &[u8]) -> Result<Contents<'_>, ReadError> {
    let body = bytes.strip_prefix(UTF8_BOM).unwrap_or(bytes);
    let utf16_bom = bytes.starts_with(b"\xFF\xFE") || bytes.starts_with(b"\xFE\xFF");
    if !utf16_bom && memchr::memchr(0, body).is_none() && simdutf8::basic::from_utf8(body).is_ok() {
        return Ok(Contents::InPlace(body));
    }
    // Rare: UTF-16, binary, or not text at all. The text core decides, with
    // the same verdicts and messages as when the file is opened by other tools.
    match decode(bytes.to_vec(), None) {
        Ok(decoded) => Ok(Contents::Decoded(decoded.text)),
        Err(error) => Err(ReadError::Decode(error)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classified(bytes: &[u8]) -> Result<Vec<u8>, String> {
        classify(bytes)
            .map(|c| c.bytes().to_vec())
            .map_err(|e| e.to_string())
    }

    #[test]
    fn utf8_in_place_and_utf16_decoded() {
        assert!(matches!(
            classify(b"plain"),
            Ok(Contents::InPlace(b"plain"))
        ));
        assert_eq!(classified(b"\xEF\xBB\xBFhi"), Ok(b"hi".to_vec()));
        assert_eq!(classified(b"\xFF\xFEh\x00i\x00"), Ok(b"hi".to_vec()));
        assert_eq!(classified(b"\xFE\xFF\x00h\x00i"), Ok(b"hi".to_vec()));
        assert_eq!(classified(b"h\x00i\x00\n\x00"), Ok(b"hi\n".to_vec()));
    }

    #[test]
    fn binary_and_other_encodings_are_refused_with_the_usual_reasons() {
        assert!(
            classify(b"\x7FELF\x02\x01\x01\x00\x00\x00")
                .unwrap_err()
                .is_binary()
        );
        assert!(matches!(
            classify("café crème\n".as_bytes()),
            Ok(Contents::InPlace(_))
        ));
        let latin1 = b"caf\xE9 cr\xE8me\n";
        let err = classify(latin1).unwrap_err();
        assert!(!err.is_binary());
        assert!(
            err.to_string()
                .starts_with("it is not valid UTF-8 (first invalid byte at offset 3, line 1)"),
            "{err}"
        );
    }

    #[test]
    fn size_limit() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.txt");
        std::fs::write(&path, "0123456789a").unwrap();
        let mut buffer = Vec::new();
        let file = File::open(&path).unwrap();
        assert_eq!(
            read_text(&file, 10, &mut buffer).unwrap_err().to_string(),
            "it is 11 B and the limit is 10 B (--max-file-size)"
        );
        assert_eq!(read_text(&file, 11, &mut buffer).unwrap().bytes().len(), 11);
    }
}
