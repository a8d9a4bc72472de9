//! Text encodings: recognising them from bytes, decoding, and encoding back to
//! exactly the bytes a file had.
//!
//! UTF-8 (with or without BOM) and UTF-16 LE/BE with a BOM are recognised on
//! their own. Other encodings (windows-1252, Shift_JIS, EUC-KR, GBK, …) are used
//! only when the caller names them, and only if decoding and encoding again
//! reproduces the file's bytes exactly, so an edit can never alter bytes it was
//! not asked to change.
//!
//! ```
//! use mcp_server_text::text::encoding::TextEncoding;
//!
//! let sjis = TextEncoding::from_label("shift_jis").unwrap();
//! assert_eq!(sjis.name(), "shift_jis");
//! assert_eq!(TextEncoding::from_label("latin-1").unwrap().name(), "windows-1252");
//! assert!(TextEncoding::from_label("klingon").is_none());
//! ```

use std::fmt;

/// How a document's text is stored as bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextEncoding {
    /// UTF-8, with or without a byte order mark.
    Utf8,
    /// UTF-16 little endian.
    Utf16Le,
    /// UTF-16 big endian.
    Utf16Be,
    /// A single- or multi-byte legacy encoding, named by the caller.
    Legacy(&'static encoding_rs::Encoding),
}

/// The UTF-8 byte order mark.
pub const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";
const UTF16LE_BOM: &[u8] = b"\xFF\xFE";
const UTF16BE_BOM: &[u8] = b"\xFE\xFF";

impl TextEncoding {
    /// Looks an encoding up by any of its WHATWG labels (`utf-8`, `utf8`,
    /// `utf-16`, `latin-1`, `cp1252`, `shift_jis`, `sjis`, `euc-kr`, `gbk`, …).
    /// `utf-16` without a byte order means little endian, as on Windows.
    pub fn from_label(label: &str) -> Option<TextEncoding> {
        let label = label.trim();
        let lower = label.to_ascii_lowercase();
        match lower.as_str() {
            "utf-16" | "utf16" | "utf-16le" | "utf16le" | "ucs-2" => {
                return Some(TextEncoding::Utf16Le);
            }
            "utf-16be" | "utf16be" => return Some(TextEncoding::Utf16Be),
            "latin-1" | "latin1" => {
                return Some(TextEncoding::Legacy(encoding_rs::WINDOWS_1252));
            }
            _ => {}
        }
        let found = encoding_rs::Encoding::for_label(label.as_bytes())?;
        Some(TextEncoding::from_encoding_rs(found))
    }

    fn from_encoding_rs(encoding: &'static encoding_rs::Encoding) -> TextEncoding {
        if encoding == encoding_rs::UTF_8 {
            TextEncoding::Utf8
        } else if encoding == encoding_rs::UTF_16LE {
            TextEncoding::Utf16Le
        } else if encoding == encoding_rs::UTF_16BE {
            TextEncoding::Utf16Be
        } else {
            TextEncoding::Legacy(encoding)
        }
    }

    /// The encoding's name as responses report it, e.g. `utf-8`, `utf-16le`.
    pub fn name(self) -> &'static str {
        match self {
            TextEncoding::Utf8 => "utf-8",
            TextEncoding::Utf16Le => "utf-16le",
            TextEncoding::Utf16Be => "utf-16be",
            TextEncoding::Legacy(e) => legacy_name(e),
        }
    }

    /// The byte order mark this encoding writes when the file had one.
    pub fn bom(self) -> &'static [u8] {
        match self {
            TextEncoding::Utf8 => UTF8_BOM,
            TextEncoding::Utf16Le => UTF16LE_BOM,
            TextEncoding::Utf16Be => UTF16BE_BOM,
            TextEncoding::Legacy(_) => b"",
        }
    }

    /// Encodes `text` (without BOM). Fails on a character the encoding cannot
    /// represent, instead of writing a substitute.
    pub fn encode(self, text: &str) -> Result<Vec<u8>, EncodeError> {
        match self {
            TextEncoding::Utf8 => Ok(text.as_bytes().to_vec()),
            TextEncoding::Utf16Le => Ok(text.encode_utf16().flat_map(u16::to_le_bytes).collect()),
            TextEncoding::Utf16Be => Ok(text.encode_utf16().flat_map(u16::to_be_bytes).collect()),
            TextEncoding::Legacy(encoding) => encode_legacy(encoding, text),
        }
    }
}

impl fmt::Display for TextEncoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

fn legacy_name(encoding: &'static encoding_rs::Encoding) -> &'static str {
    // encoding_rs names are the WHATWG canonical ones ("Shift_JIS", "EUC-KR");
    // responses use lowercase so callers can pass the name straight back.
    match encoding.name() {
        "Shift_JIS" => "shift_jis",
        "EUC-KR" => "euc-kr",
        "EUC-JP" => "euc-jp",
        "ISO-2022-JP" => "iso-2022-jp",
        "Big5" => "big5",
        "GBK" => "gbk",
        "gb18030" => "gb18030",
        "KOI8-R" => "koi8-r",
        "KOI8-U" => "koi8-u",
        other => leak_lowercase(other),
    }
}

fn leak_lowercase(name: &'static str) -> &'static str {
    // Names like "windows-1252" and "ISO-8859-2": most are already lowercase.
    if name.bytes().all(|b| !b.is_ascii_uppercase()) {
        return name;
    }
    static NAMES: std::sync::OnceLock<std::sync::Mutex<Vec<&'static str>>> =
        std::sync::OnceLock::new();
    let names = NAMES.get_or_init(Default::default);
    let mut names = names.lock().unwrap_or_else(|e| e.into_inner());
    let lower = name.to_ascii_lowercase();
    if let Some(found) = names.iter().find(|n| **n == lower) {
        return found;
    }
    let leaked: &'static str = Box::leak(lower.into_boxed_str());
    names.push(leaked);
    leaked
}

fn encode_legacy(
    encoding: &'static encoding_rs::Encoding,
    text: &str,
) -> Result<Vec<u8>, EncodeError> {
    let mut encoder = encoding.new_encoder();
    let capacity = encoder
        .max_buffer_length_from_utf8_without_replacement(text.len())
        .ok_or(EncodeError::TooLarge)?;
    let mut out = vec![0u8; capacity];
    let (result, read, written) =
        encoder.encode_from_utf8_without_replacement(text, &mut out, true);
    match result {
        encoding_rs::EncoderResult::InputEmpty => {
            out.truncate(written);
            Ok(out)
        }
        encoding_rs::EncoderResult::Unmappable(ch) => {
            let line = text[..read].matches('\n').count() + 1;
            Err(EncodeError::Unmappable {
                ch,
                line,
                encoding: legacy_name(encoding),
            })
        }
        encoding_rs::EncoderResult::OutputFull => Err(EncodeError::TooLarge),
    }
}

/// Text that could not be encoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EncodeError {
    /// A character has no representation in the file's encoding.
    Unmappable {
        /// The character.
        ch: char,
        /// The 1-based line of the new text it is on.
        line: usize,
        /// The encoding's name.
        encoding: &'static str,
    },
    /// The text is too large to encode.
    TooLarge,
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EncodeError::Unmappable { ch, line, encoding } => write!(
                f,
                "the character '{ch}' (U+{:04X}) on line {line} of the new text cannot be written in {encoding}, the file's encoding",
                *ch as u32
            ),
            EncodeError::TooLarge => f.write_str("the text is too large to encode"),
        }
    }
}

impl std::error::Error for EncodeError {}

/// Bytes that could not be decoded as text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DecodeError {
    /// The bytes contain a NUL byte, which text files do not.
    Binary {
        /// Byte offset of the first NUL.
        offset: usize,
    },
    /// The bytes are not valid UTF-8 and no other encoding was named.
    InvalidUtf8 {
        /// Byte offset of the first invalid sequence.
        offset: usize,
        /// 1-based line of that offset.
        line: usize,
        /// The encoding the bytes most likely are in, if a guess was possible.
        likely: Option<&'static str>,
    },
    /// The bytes are not valid in the named (or BOM-declared) encoding.
    Malformed {
        /// The encoding's name.
        encoding: &'static str,
    },
    /// Decoding then encoding would not give the same bytes back, so an edit
    /// could change bytes it was not asked to change.
    NotRoundTrip {
        /// The encoding's name.
        encoding: &'static str,
    },
    /// A byte order mark of an encoding this program does not handle.
    UnsupportedBom {
        /// The encoding the BOM stands for.
        encoding: &'static str,
    },
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeError::Binary { offset } => write!(
                f,
                "it looks like a binary file (it contains a NUL byte at offset {offset}), and only text files can be read or edited"
            ),
            DecodeError::InvalidUtf8 {
                offset,
                line,
                likely,
            } => {
                write!(
                    f,
                    "it is not valid UTF-8 (first invalid byte at offset {offset}, line {line})"
                )?;
                if let Some(likely) = likely {
                    write!(f, "; it is probably encoded as {likely}")?;
                }
                Ok(())
            }
            DecodeError::Malformed { encoding } => {
                write!(f, "its bytes are not valid {encoding}")
            }
            DecodeError::NotRoundTrip { encoding } => write!(
                f,
                "decoding it as {encoding} and encoding it again would not give back the same bytes, so editing it could change bytes outside the edit"
            ),
            DecodeError::UnsupportedBom { encoding } => write!(
                f,
                "it starts with a {encoding} byte order mark, and {encoding} is not supported"
            ),
        }
    }
}

impl std::error::Error for DecodeError {}

/// A decoded text and how it was stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decoded {
    /// The text, without BOM.
    pub text: String,
    /// The encoding the bytes were in.
    pub encoding: TextEncoding,
    /// Whether the bytes started with a byte order mark.
    pub bom: bool,
    /// The original bytes, kept for encodings other than UTF-8 so that kept
    /// pieces can be copied verbatim (for UTF-8 they are the BOM and the text).
    pub raw: Option<Vec<u8>>,
}

/// Decodes `bytes`. A byte order mark decides the encoding; otherwise
/// `declared` does; otherwise the bytes must be UTF-8. Text with NUL bytes is
/// refused as binary unless it is UTF-16 (declared or BOM-marked).
pub fn decode(bytes: Vec<u8>, declared: Option<TextEncoding>) -> Result<Decoded, DecodeError> {
    if bytes.starts_with(b"\xFF\xFE\x00\x00") || bytes.starts_with(b"\x00\x00\xFE\xFF") {
        return Err(DecodeError::UnsupportedBom { encoding: "UTF-32" });
    }
    if bytes.starts_with(UTF8_BOM) {
        let mut bytes = bytes;
        bytes.drain(..UTF8_BOM.len());
        return decode_utf8(bytes, true);
    }
    let decoded = if bytes.starts_with(UTF16LE_BOM) {
        decode_utf16(&bytes[2..], TextEncoding::Utf16Le, true)
    } else if bytes.starts_with(UTF16BE_BOM) {
        decode_utf16(&bytes[2..], TextEncoding::Utf16Be, true)
    } else {
        match declared
            .or_else(|| sniff_utf16(&bytes))
            .unwrap_or(TextEncoding::Utf8)
        {
            TextEncoding::Utf8 => return decode_utf8(bytes, false),
            enc @ (TextEncoding::Utf16Le | TextEncoding::Utf16Be) => {
                decode_utf16(&bytes, enc, false)
            }
            TextEncoding::Legacy(encoding) => decode_legacy(&bytes, encoding),
        }
    };
    decoded.map(|d| Decoded {
        raw: Some(bytes),
        ..d
    })
}

/// `bytes` as a `String` if they are UTF-8, as [`String::from_utf8`] decides,
/// but checked several times faster on text that is not all ASCII.
pub fn utf8_string(bytes: Vec<u8>) -> Result<String, std::string::FromUtf8Error> {
    if simdutf8::basic::from_utf8(&bytes).is_ok() {
        // SAFETY: simdutf8 has just checked these very bytes, and it accepts
        // exactly the byte strings the standard library accepts.
        Ok(unsafe { String::from_utf8_unchecked(bytes) })
    } else {
        // Only the standard check tells where the first bad byte is.
        String::from_utf8(bytes)
    }
}

fn decode_utf8(bytes: Vec<u8>, bom: bool) -> Result<Decoded, DecodeError> {
    if let Some(offset) = memchr::memchr(0, &bytes) {
        return Err(DecodeError::Binary {
            offset: offset + if bom { UTF8_BOM.len() } else { 0 },
        });
    }
    match utf8_string(bytes) {
        Ok(text) => Ok(Decoded {
            text,
            encoding: TextEncoding::Utf8,
            bom,
            raw: None,
        }),
        Err(err) => {
            let offset = err.utf8_error().valid_up_to();
            let bytes = err.into_bytes();
            let line = memchr::memchr_iter(b'\n', &bytes[..offset]).count() + 1;
            Err(DecodeError::InvalidUtf8 {
                offset: offset + if bom { UTF8_BOM.len() } else { 0 },
                line,
                likely: guess_encoding(&bytes),
            })
        }
    }
}

fn decode_utf16(body: &[u8], encoding: TextEncoding, bom: bool) -> Result<Decoded, DecodeError> {
    if !body.len().is_multiple_of(2) {
        return Err(DecodeError::Malformed {
            encoding: encoding.name(),
        });
    }
    let units = body.chunks_exact(2).map(|pair| match encoding {
        TextEncoding::Utf16Be => u16::from_be_bytes([pair[0], pair[1]]),
        _ => u16::from_le_bytes([pair[0], pair[1]]),
    });
    // Unpaired surrogates would decode to U+FFFD and re-encode differently.
    let text: Result<String, _> = char::decode_utf16(units).collect();
    match text {
        Ok(text) if !text.contains('\0') => Ok(Decoded {
            text,
            encoding,
            bom,
            raw: None,
        }),
        Ok(text) => Err(DecodeError::Binary {
            offset: text.find('\0').unwrap_or(0),
        }),
        Err(_) => Err(DecodeError::Malformed {
            encoding: encoding.name(),
        }),
    }
}

fn decode_legacy(
    bytes: &[u8],
    encoding: &'static encoding_rs::Encoding,
) -> Result<Decoded, DecodeError> {
    let name = legacy_name(encoding);
    if encoding == encoding_rs::ISO_2022_JP || encoding == encoding_rs::REPLACEMENT {
        // ISO-2022-JP is stateful: re-encoding a slice does not give its bytes back.
        return Err(DecodeError::NotRoundTrip { encoding: name });
    }
    let text = encoding
        .decode_without_bom_handling_and_without_replacement(bytes)
        .ok_or(DecodeError::Malformed { encoding: name })?
        .into_owned();
    if text.contains('\0') {
        return Err(DecodeError::Binary {
            offset: memchr::memchr(0, bytes).unwrap_or(0),
        });
    }
    let again =
        encode_legacy(encoding, &text).map_err(|_| DecodeError::NotRoundTrip { encoding: name })?;
    if again != bytes {
        return Err(DecodeError::NotRoundTrip { encoding: name });
    }
    Ok(Decoded {
        text,
        encoding: TextEncoding::Legacy(encoding),
        bom: false,
        raw: None,
    })
}

/// Recognises UTF-16 text without a byte order mark: an even number of
/// bytes, the zero high bytes of ASCII characters on one side of every pair,
/// and, decoded, nothing but text (no NUL or other control characters). Files
/// that merely contain NUL bytes (binaries) fail the last test.
fn sniff_utf16(bytes: &[u8]) -> Option<TextEncoding> {
    if bytes.len() < 2 || !bytes.len().is_multiple_of(2) || memchr::memchr(0, bytes).is_none() {
        return None;
    }
    let sample = &bytes[..bytes.len().min(8192) & !1];
    let pairs = sample.len() / 2;
    let zero_odd = sample
        .iter()
        .skip(1)
        .step_by(2)
        .filter(|&&b| b == 0)
        .count();
    let zero_even = sample.iter().step_by(2).filter(|&&b| b == 0).count();
    let candidate = if zero_odd * 4 >= pairs && zero_even == 0 {
        TextEncoding::Utf16Le
    } else if zero_even * 4 >= pairs && zero_odd == 0 {
        TextEncoding::Utf16Be
    } else {
        return None;
    };
    let decoded = decode_utf16(bytes, candidate, false).ok()?;
    let plain = decoded
        .text
        .chars()
        .all(|c| !c.is_control() || matches!(c, '\n' | '\r' | '\t' | '\u{c}'));
    plain.then_some(candidate)
}

/// The likely encoding of bytes that are not UTF-8, for error messages.
fn guess_encoding(bytes: &[u8]) -> Option<&'static str> {
    let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    let sample = &bytes[..bytes.len().min(64 * 1024)];
    detector.feed(sample, sample.len() == bytes.len());
    let guess = detector.guess(None, chardetng::Utf8Detection::Deny);
    if guess == encoding_rs::UTF_8 {
        None
    } else {
        Some(TextEncoding::from_encoding_rs(guess).name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The fast check says yes and no exactly where the standard one
        /// does, and a refusal keeps the standard error (with its offset).
        #[test]
        fn utf8_string_agrees_with_the_standard_check(
            text in "\\PC{0,80}",
            cuts in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..3),
        ) {
            let mut bytes = text.into_bytes();
            for (at, byte) in cuts {
                if !bytes.is_empty() {
                    let i = at.index(bytes.len());
                    bytes[i] = byte;
                }
            }
            let ours = utf8_string(bytes.clone()).map_err(|e| e.utf8_error());
            let std = String::from_utf8(bytes).map_err(|e| e.utf8_error());
            prop_assert_eq!(ours, std);
        }
    }

    #[test]
    fn utf8_with_and_without_bom() {
        let plain = decode(b"a\nb".to_vec(), None).unwrap();
        assert_eq!(
            plain,
            Decoded {
                text: "a\nb".into(),
                encoding: TextEncoding::Utf8,
                bom: false,
                raw: None,
            }
        );
        let bom = decode(b"\xEF\xBB\xBFa".to_vec(), None).unwrap();
        assert_eq!(bom.text, "a");
        assert!(bom.bom);
    }

    #[test]
    fn utf16_by_bom() {
        let le = decode(b"\xFF\xFEh\0i\0".to_vec(), None).unwrap();
        assert_eq!(
            (le.text.as_str(), le.encoding, le.bom),
            ("hi", TextEncoding::Utf16Le, true)
        );
        let be = decode(b"\xFE\xFF\0h\0i".to_vec(), None).unwrap();
        assert_eq!(
            (be.text.as_str(), be.encoding),
            ("hi", TextEncoding::Utf16Be)
        );
        assert_eq!(TextEncoding::Utf16Be.encode("hi").unwrap(), b"\0h\0i");
    }

    #[test]
    fn utf16_without_bom_is_recognised_and_binaries_are_not() {
        let le: Vec<u8> = "héllo\r\nwörld\n"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        let d = decode(le.clone(), None).unwrap();
        assert_eq!(
            (d.text.as_str(), d.encoding, d.bom),
            ("héllo\r\nwörld\n", TextEncoding::Utf16Le, false)
        );
        assert_eq!(d.raw.as_deref(), Some(le.as_slice()));
        let be: Vec<u8> = "plain text\n"
            .encode_utf16()
            .flat_map(u16::to_be_bytes)
            .collect();
        assert_eq!(decode(be, None).unwrap().encoding, TextEncoding::Utf16Be);
        let png_like = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\x01\0".to_vec();
        assert!(matches!(
            decode(png_like, None),
            Err(DecodeError::Binary { .. })
        ));
        let ints: Vec<u8> = (0u16..200).flat_map(u16::to_le_bytes).collect();
        assert!(matches!(
            decode(ints, None),
            Err(DecodeError::Binary { .. })
        ));
    }

    #[test]
    fn refuses_binary_and_invalid_utf8() {
        assert_eq!(
            decode(b"ab\0cd".to_vec(), None),
            Err(DecodeError::Binary { offset: 2 })
        );
        let err = decode(b"caf\xE9\nna\xEFve".to_vec(), None).unwrap_err();
        match err {
            DecodeError::InvalidUtf8 { offset, line, .. } => assert_eq!((offset, line), (3, 1)),
            other => panic!("unexpected {other:?}"),
        }
        assert!(matches!(
            decode(b"\xFF\xFE\0\0x\0\0\0".to_vec(), None),
            Err(DecodeError::UnsupportedBom { .. })
        ));
    }

    #[test]
    fn legacy_round_trip() {
        let cp1252 = TextEncoding::from_label("windows-1252").unwrap();
        let bytes = b"caf\xE9 \x80 na\xEFve".to_vec();
        let decoded = decode(bytes.clone(), Some(cp1252)).unwrap();
        assert_eq!(decoded.text, "café € naïve");
        assert_eq!(cp1252.encode(&decoded.text).unwrap(), bytes);

        let sjis = TextEncoding::from_label("sjis").unwrap();
        let bytes = sjis.encode("日本語のテキスト").unwrap();
        assert_eq!(decode(bytes, Some(sjis)).unwrap().text, "日本語のテキスト");
    }

    #[test]
    fn unmappable_characters_are_refused_not_substituted() {
        let cp1252 = TextEncoding::from_label("cp1252").unwrap();
        let err = cp1252.encode("ok\n日").unwrap_err();
        assert_eq!(
            err,
            EncodeError::Unmappable {
                ch: '日',
                line: 2,
                encoding: "windows-1252"
            }
        );
    }

    #[test]
    fn labels() {
        assert_eq!(TextEncoding::from_label("UTF-8"), Some(TextEncoding::Utf8));
        assert_eq!(
            TextEncoding::from_label("utf-16"),
            Some(TextEncoding::Utf16Le)
        );
        assert_eq!(TextEncoding::from_label("euc-kr").unwrap().name(), "euc-kr");
        assert_eq!(TextEncoding::from_label("gbk").unwrap().name(), "gbk");
        assert_eq!(
            TextEncoding::from_label("iso-8859-2").unwrap().name(),
            "iso-8859-2"
        );
    }
}
