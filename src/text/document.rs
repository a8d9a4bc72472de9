//! A document: a file's text together with everything needed to write it back
//! byte for byte — its encoding, byte order mark, line endings and final newline.
//!
//! Edits are expressed as [`Splice`]s over the decoded text. Applying them
//! re-encodes only the spliced pieces, so every byte outside the splices is the
//! same after the edit as before.
//!
//! ```
//! use mcp_server_text::text::document::{Document, Splice};
//!
//! let doc = Document::decode(b"\xEF\xBB\xBFone\r\ntwo\r\n".to_vec(), None).unwrap();
//! assert_eq!(doc.text(), "one\r\ntwo\r\n");
//! assert_eq!(doc.line_count(), 2);
//! assert!(doc.has_bom());
//!
//! let edited = doc.apply(&[Splice::new(0..3, "ONE")]).unwrap();
//! assert_eq!(edited.to_bytes(), b"\xEF\xBB\xBFONE\r\ntwo\r\n");
//! ```

use std::borrow::Cow;
use std::io::{self, Write};
use std::ops::Range;
use std::sync::OnceLock;

use super::encoding::{self, DecodeError, Decoded, EncodeError, TextEncoding};
use super::hash::file_hash;
use super::lines::{Eol, EolStyle, LineIndex};

/// Replace the text in `range` (byte offsets into the decoded text) with `text`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Splice {
    /// The byte range of the decoded text that is replaced.
    pub range: Range<usize>,
    /// The new text for that range.
    pub text: String,
}

impl Splice {
    /// A splice replacing `range` with `text`.
    pub fn new(range: Range<usize>, text: impl Into<String>) -> Splice {
        Splice {
            range,
            text: text.into(),
        }
    }
}

/// A decoded text file that remembers how to reproduce its exact bytes.
#[derive(Debug, Clone)]
pub struct Document {
    text: String,
    encoding: TextEncoding,
    bom: bool,
    /// The exact bytes for encodings other than UTF-8 (for UTF-8 the bytes are
    /// the BOM, if any, followed by `text`).
    raw: Option<Vec<u8>>,
    /// Built on first use: not every call needs it, and the workspace builds
    /// it on one core while the hash is computed on another.
    index: OnceLock<LineIndex>,
    /// The `fileHash`, computed on first use and kept.
    hash: OnceLock<String>,
}

impl Document {
    /// Decodes a file's bytes (see [`encoding::decode`] for the rules).
    pub fn decode(bytes: Vec<u8>, declared: Option<TextEncoding>) -> Result<Document, DecodeError> {
        let Decoded {
            text,
            encoding,
            bom,
            raw,
        } = encoding::decode(bytes, declared)?;
        Ok(Document::assemble(text, encoding, bom, raw))
    }

    /// A document for new text that is not yet on disk.
    pub fn from_text(
        text: impl Into<String>,
        encoding: TextEncoding,
        bom: bool,
    ) -> Result<Document, EncodeError> {
        let text = text.into();
        let raw = if encoding == TextEncoding::Utf8 {
            None
        } else {
            let mut raw = if bom {
                encoding.bom().to_vec()
            } else {
                Vec::new()
            };
            raw.extend(encoding.encode(&text)?);
            Some(raw)
        };
        let bom = bom && !encoding.bom().is_empty();
        Ok(Document::assemble(text, encoding, bom, raw))
    }

    /// A document of UTF-8 `text` read from a file, which started with a
    /// byte order mark if `bom`: what [`Document::decode`] makes of the
    /// file's bytes when they are UTF-8 without NUL bytes.
    pub fn from_utf8(text: String, bom: bool) -> Document {
        Document::assemble(text, TextEncoding::Utf8, bom, None)
    }

    /// The text, given up.
    pub fn into_text(self) -> String {
        self.text
    }

    fn assemble(text: String, encoding: TextEncoding, bom: bool, raw: Option<Vec<u8>>) -> Document {
        Document {
            text,
            encoding,
            bom,
            raw,
            index: OnceLock::new(),
            hash: OnceLock::new(),
        }
    }

    /// The decoded text, without BOM.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The line index of [`Document::text`].
    pub fn lines(&self) -> &LineIndex {
        self.index.get_or_init(|| LineIndex::new(&self.text))
    }

    /// Number of lines.
    pub fn line_count(&self) -> usize {
        self.lines().len()
    }

    /// Text of line `n` (1-based), without its ending.
    ///
    /// # Panics
    /// If `n` is not a line of the document.
    pub fn line(&self, n: usize) -> &str {
        self.lines().text(&self.text, n)
    }

    /// The ending of line `n`.
    pub fn eol(&self, n: usize) -> Eol {
        self.lines().eol(&self.text, n)
    }

    /// The encoding of the bytes.
    pub fn encoding(&self) -> TextEncoding {
        self.encoding
    }

    /// Whether the bytes start with a byte order mark.
    pub fn has_bom(&self) -> bool {
        self.bom
    }

    /// The line-ending style of the whole document.
    pub fn eol_style(&self) -> EolStyle {
        self.lines().eol_style(&self.text)
    }

    /// Whether the last line ends with a line ending.
    pub fn has_final_newline(&self) -> bool {
        self.lines().has_final_newline(&self.text)
    }

    /// The ending new lines should get when inserted next to line `near`: the
    /// file's style, or, in a file with mixed endings, the ending of `near` itself.
    pub fn eol_near(&self, near: usize) -> Eol {
        let style = self.eol_style();
        if let EolStyle::Mixed { .. } = style
            && near >= 1
            && near <= self.line_count()
        {
            match self.eol(near) {
                Eol::None => style.preferred(),
                eol => eol,
            }
        } else {
            style.preferred()
        }
    }

    /// Size of the bytes on disk.
    pub fn byte_len(&self) -> usize {
        match &self.raw {
            Some(raw) => raw.len(),
            None => self.bom_bytes().len() + self.text.len(),
        }
    }

    fn bom_bytes(&self) -> &'static [u8] {
        if self.bom { self.encoding.bom() } else { b"" }
    }

    fn chunks(&self) -> [&[u8]; 2] {
        match &self.raw {
            Some(raw) => [raw.as_slice(), b""],
            None => [self.bom_bytes(), self.text.as_bytes()],
        }
    }

    /// The `fileHash` of the document's exact bytes.
    pub fn hash(&self) -> String {
        self.hash.get_or_init(|| file_hash(&self.chunks())).clone()
    }

    /// Writes the exact bytes.
    pub fn write_to(&self, out: &mut (impl Write + ?Sized)) -> io::Result<()> {
        for chunk in self.chunks() {
            out.write_all(chunk)?;
        }
        Ok(())
    }

    /// The exact bytes, as one buffer.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.chunks().concat()
    }

    /// The exact bytes, borrowed where they are already one buffer (a file
    /// without a byte order mark, or in an encoding other than UTF-8).
    pub fn bytes(&self) -> Cow<'_, [u8]> {
        match self.chunks() {
            [only, b""] | [b"", only] => Cow::Borrowed(only),
            _ => Cow::Owned(self.to_bytes()),
        }
    }

    /// Applies `splices` (sorted, not overlapping, on character boundaries) and
    /// returns the edited document. Only the spliced text is encoded anew; every
    /// other byte is copied.
    ///
    /// # Panics
    /// If the splices are out of order, overlap, or split a character: those
    /// are bugs in the caller, not user errors.
    pub fn apply(&self, splices: &[Splice]) -> Result<Document, EncodeError> {
        let mut text = String::with_capacity(self.text.len() + added_len(splices));
        let mut raw = self
            .raw
            .as_ref()
            .map(|r| Vec::with_capacity(r.len() + added_len(splices)));
        // For encodings other than UTF-8 the raw offset of each kept piece is
        // tracked alongside the text offset, so kept bytes are copied verbatim.
        let mut text_pos = 0usize;
        let mut raw_pos = self.bom_bytes().len();
        if let Some(raw) = raw.as_mut() {
            raw.extend_from_slice(self.bom_bytes());
        }
        for splice in splices {
            let Range { start, end } = splice.range.clone();
            assert!(
                text_pos <= start && start <= end && end <= self.text.len(),
                "splices must be sorted and within the text"
            );
            let new_text = self.without_copied_bom(splice);
            let kept = &self.text[text_pos..start];
            text.push_str(kept);
            if let (Some(raw), Some(src)) = (raw.as_mut(), self.raw.as_ref()) {
                let kept_len = self.encoded_len(kept);
                raw.extend_from_slice(&src[raw_pos..raw_pos + kept_len]);
                raw_pos += kept_len;
                raw_pos += self.encoded_len(&self.text[start..end]);
                raw.extend(self.encoding.encode(new_text)?);
            }
            text.push_str(new_text);
            text_pos = end;
        }
        text.push_str(&self.text[text_pos..]);
        if let (Some(raw), Some(src)) = (raw.as_mut(), self.raw.as_ref()) {
            raw.extend_from_slice(&src[raw_pos..]);
        }
        if !self.bom && text.starts_with('\u{feff}') {
            // Edits above it (a deleted first line) moved a U+FEFF to the very
            // start of a file without a BOM, where it would be read back as
            // one: the text would no longer be what is written.
            let feff = self.encoded_len("\u{feff}");
            text.drain(..'\u{feff}'.len_utf8());
            if let Some(raw) = raw.as_mut() {
                raw.drain(..feff);
            }
        }
        Ok(Document::assemble(text, self.encoding, self.bom, raw))
    }

    /// The splice's text, less a leading U+FEFF when it lands at the very start
    /// of a text that does not begin with one. The BOM is the file's, kept
    /// apart from the text; a U+FEFF copied from a raw read of the file would
    /// otherwise write a second BOM (or add one to a file that has none).
    fn without_copied_bom<'s>(&self, splice: &'s Splice) -> &'s str {
        match splice.text.strip_prefix('\u{feff}') {
            Some(rest) if splice.range.start == 0 && !self.text.starts_with('\u{feff}') => rest,
            _ => &splice.text,
        }
    }

    /// Byte length of `piece` of this document's text in its encoding.
    fn encoded_len(&self, piece: &str) -> usize {
        match self.encoding {
            TextEncoding::Utf8 => piece.len(),
            TextEncoding::Utf16Le | TextEncoding::Utf16Be => piece.encode_utf16().count() * 2,
            // Decoding verified that these encodings round-trip, and the
            // stateful ones are refused, so encoding a piece gives its bytes.
            TextEncoding::Legacy(_) => self.encoding.encode(piece).map(|b| b.len()).unwrap_or(0),
        }
    }
}

fn added_len(splices: &[Splice]) -> usize {
    splices.iter().map(|s| s.text.len()).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(bytes: &[u8]) -> Document {
        Document::decode(bytes.to_vec(), None).unwrap()
    }

    #[test]
    fn a_copied_bom_at_the_start_is_not_written_twice() {
        let bom = doc(b"\xEF\xBB\xBF# Title\r\nBody\r\n");
        let edited = bom
            .apply(&[Splice::new(0..7, "\u{feff}# New Title")])
            .unwrap();
        assert_eq!(edited.to_bytes(), b"\xEF\xBB\xBF# New Title\r\nBody\r\n");
        let plain = doc(b"a\n");
        let edited = plain.apply(&[Splice::new(0..1, "\u{feff}b")]).unwrap();
        assert_eq!(edited.to_bytes(), b"b\n");
        // A U+FEFF further in is text like any other.
        let edited = plain.apply(&[Splice::new(1..1, "\u{feff}")]).unwrap();
        assert_eq!(edited.to_bytes(), b"a\xEF\xBB\xBF\n");
        let utf16 = doc(b"\xFF\xFEa\0\n\0");
        let edited = utf16.apply(&[Splice::new(0..1, "\u{feff}b")]).unwrap();
        assert_eq!(edited.to_bytes(), b"\xFF\xFEb\0\n\0");
    }

    #[test]
    fn a_copied_bom_goes_where_a_range_starts_at_line_one_behind_an_insertion() {
        // Found by the range_patch fuzz target: lines inserted before line 1
        // and a replacement of line 1 that starts with the file's BOM; the
        // replacement lands after the inserted lines, its BOM still dropped.
        let plain = doc(b"a\nb\n");
        let edited = plain
            .apply(&[Splice::new(0..0, "new\n"), Splice::new(0..2, "\u{feff}x\n")])
            .unwrap();
        assert_eq!(edited.to_bytes(), b"new\nx\nb\n");
    }

    #[test]
    fn a_u_feff_moved_to_the_start_of_a_file_without_bom_is_dropped() {
        // Found by the range_patch fuzz target: the first line deleted and a
        // line starting with U+FEFF inserted before the second. Written as it
        // is, the file would start with a BOM and read back one character
        // shorter than the text the edit reported.
        let plain = doc(b"a\nb");
        let edited = plain
            .apply(&[Splice::new(0..2, ""), Splice::new(2..2, "\u{feff}x\n")])
            .unwrap();
        assert_eq!(edited.text(), "x\nb");
        assert_eq!(edited.to_bytes(), b"x\nb");
        let kept = doc(b"a\n\xEF\xBB\xBFb\n").apply(&[Splice::new(0..2, "")]);
        assert_eq!(kept.unwrap().to_bytes(), b"b\n");
        // With a BOM, a U+FEFF after it is text and round-trips.
        let bom = doc(b"\xEF\xBB\xBFa\n\xEF\xBB\xBFb\n");
        let edited = bom.apply(&[Splice::new(0..2, "")]).unwrap();
        assert_eq!(edited.to_bytes(), b"\xEF\xBB\xBF\xEF\xBB\xBFb\n");
        let reread = doc(&edited.to_bytes());
        assert_eq!(reread.text(), edited.text());
    }

    #[test]
    fn reproduces_bytes_without_edits() {
        for bytes in [
            &b""[..],
            b"a",
            b"a\n",
            b"a\r\nb\nc",
            b"\xEF\xBB\xBFbom\r\n",
            b"\xFF\xFEa\0\r\0\n\0",
            b"\xFE\xFF\0a\0\n",
        ] {
            let d = doc(bytes);
            assert_eq!(d.to_bytes(), bytes, "{bytes:?}");
            assert_eq!(d.byte_len(), bytes.len());
            assert_eq!(d.hash(), file_hash(&[bytes]));
        }
    }

    #[test]
    fn splices_keep_every_other_byte_in_utf16() {
        let original =
            Document::from_text("héllo\r\nwörld\r\n", TextEncoding::Utf16Le, true).unwrap();
        let bytes = original.to_bytes();
        let start = original.text().find("wörld").unwrap();
        let edited = original
            .apply(&[Splice::new(start..start + "wörld".len(), "世界")])
            .unwrap();
        let out = edited.to_bytes();
        let prefix_len = 2 + "héllo\r\n".encode_utf16().count() * 2;
        assert_eq!(&out[..prefix_len], &bytes[..prefix_len]);
        assert_eq!(edited.text(), "héllo\r\n世界\r\n");
        assert_eq!(
            Document::decode(out, None).unwrap().text(),
            "héllo\r\n世界\r\n"
        );
    }

    #[test]
    fn splices_in_a_legacy_encoding() {
        let cp1252 = TextEncoding::from_label("windows-1252").unwrap();
        let original = Document::decode(b"caf\xE9\nna\xEFve\n".to_vec(), Some(cp1252)).unwrap();
        let at = original.text().find("naïve").unwrap();
        let edited = original
            .apply(&[Splice::new(at..at + "naïve".len(), "résumé")])
            .unwrap();
        assert_eq!(edited.to_bytes(), b"caf\xE9\nr\xE9sum\xE9\n");
        let err = original.apply(&[Splice::new(0..0, "→")]).unwrap_err();
        assert!(matches!(err, EncodeError::Unmappable { ch: '→', .. }));
    }

    #[test]
    fn several_splices() {
        let d = doc(b"a b c d");
        let e = d
            .apply(&[
                Splice::new(0..1, "A"),
                Splice::new(4..5, ""),
                Splice::new(7..7, "!"),
            ])
            .unwrap();
        assert_eq!(e.text(), "A b  d!");
    }

    #[test]
    fn eol_near_follows_the_neighbour_in_mixed_files() {
        let d = doc(b"a\r\nb\nc\r\n");
        assert_eq!(d.eol_near(1), Eol::Crlf);
        assert_eq!(d.eol_near(2), Eol::Lf);
        let crlf = doc(b"a\r\nb\r\n");
        assert_eq!(crlf.eol_near(1), Eol::Crlf);
        assert_eq!(doc(b"single").eol_near(1), Eol::Lf);
    }
}
