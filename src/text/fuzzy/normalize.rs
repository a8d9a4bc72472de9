//! Normal forms used to compare what an agent sent with what is on disk.
//!
//! Agents drift in predictable ways: typographic quotes and dashes instead of
//! ASCII ones, odd spaces, runs of spaces collapsed or widened, indentation
//! shifted or converted between tabs and spaces. The *canonical* form of a line
//! erases exactly those differences: look-alike characters are folded, every
//! whitespace run becomes one space, and both ends are trimmed. Indentation is
//! kept apart as a width in columns so that it can be compared structurally.

use std::borrow::Cow;

/// Columns between tab stops when indentation widths are measured.
pub(crate) const TAB_WIDTH: usize = 4;

/// What a character becomes in the canonical form.
enum Folded {
    Keep,
    Space,
    Drop,
    To(&'static str),
}

fn fold(c: char) -> Folded {
    match c {
        '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}' | '\u{2032}' | '\u{02BC}'
        | '\u{FF07}' => Folded::To("'"),
        '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{201F}' | '\u{2033}' | '\u{FF02}' => {
            Folded::To("\"")
        }
        '\u{2010}' | '\u{2011}' | '\u{2012}' | '\u{2013}' | '\u{2014}' | '\u{2015}'
        | '\u{2212}' | '\u{FE63}' | '\u{FF0D}' => Folded::To("-"),
        '\u{2026}' => Folded::To("..."),
        '\u{200B}' | '\u{200C}' | '\u{200D}' | '\u{2060}' | '\u{FEFF}' | '\u{00AD}' => Folded::Drop,
        c if c.is_whitespace() => Folded::Space,
        _ => Folded::Keep,
    }
}

/// Whether `c` is a character the canonical form drops (zero-width spaces
/// and joiners, the byte-order mark, the soft hyphen): one nobody sees.
pub(crate) fn invisible(c: char) -> bool {
    matches!(fold(c), Folded::Drop)
}

/// Whether a line of ASCII text is already canonical apart from its ends, so the
/// canonical form can borrow from it.
fn ascii_needs_work(trimmed: &[u8]) -> bool {
    let mut previous_space = false;
    for &b in trimmed {
        match b {
            b' ' => {
                if previous_space {
                    return true;
                }
                previous_space = true;
            }
            b'\t' | b'\r' | 0x0b | 0x0c => return true,
            _ => previous_space = false,
        }
    }
    false
}

/// The canonical form of one line (without its ending): look-alikes folded,
/// whitespace runs collapsed to one space, both ends trimmed.
pub(crate) fn canonical(line: &str) -> Cow<'_, str> {
    let trimmed = line.trim_matches(|c: char| c == ' ' || c == '\t');
    let bytes = trimmed.as_bytes();
    if trimmed.is_ascii() && !ascii_needs_work(bytes) {
        return Cow::Borrowed(trimmed);
    }
    let mut out = String::with_capacity(trimmed.len());
    let mut pending_space = false;
    for c in trimmed.chars() {
        let piece = match fold(c) {
            Folded::Drop => continue,
            Folded::Space => {
                pending_space = true;
                continue;
            }
            Folded::Keep => None,
            Folded::To(s) => Some(s),
        };
        if pending_space && !out.is_empty() {
            out.push(' ');
        }
        pending_space = false;
        match piece {
            None => out.push(c),
            Some(s) => out.push_str(s),
        }
    }
    Cow::Owned(out)
}

/// What a key holds for whitespace inside a double-quoted string (see
/// `likeness::key_tokens`).
pub(crate) const QUOTED_SPACE: &str = "\u{2423}";

/// The characters of `line` without its whitespace: what a slip is measured
/// in, since keys space out marks (`channel ' s`) and indentation is noise.
/// A key's mark for whitespace in a string is whitespace too: a caller's
/// spacing is never a character it garbled.
pub(crate) fn solid(line: &str) -> Vec<char> {
    line.chars()
        .filter(|c| !c.is_whitespace() && !QUOTED_SPACE.starts_with(*c))
        .collect()
}

/// The leading whitespace of a line (spaces, tabs, and any other but a
/// carriage return).
pub(crate) fn indent_of(line: &str) -> &str {
    let end = line
        .char_indices()
        .find(|&(_, c)| !c.is_whitespace() || c == '\r')
        .map_or(line.len(), |(i, _)| i);
    &line[..end]
}

/// Width in columns of an indentation: a tab to the next tab stop, any other
/// whitespace character one column.
pub(crate) fn width(indent: &str) -> usize {
    width_in(indent, TAB_WIDTH)
}

/// [`width`] with tab stops every `tab` columns.
pub(crate) fn width_in(indent: &str, tab: usize) -> usize {
    indent.chars().fold(0, |col, c| {
        if c == '\t' {
            (col / tab + 1) * tab
        } else {
            col + 1
        }
    })
}

/// A fast, well-mixed 64-bit hash of a canonical line, used to find lines that
/// are equal without comparing strings; equal hashes are always confirmed.
pub(crate) fn key_hash(s: &str) -> u64 {
    const MUL: u64 = 0x9E37_79B9_7F4A_7C15;
    let bytes = s.as_bytes();
    let mut h = (bytes.len() as u64).wrapping_mul(MUL);
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        let word = u64::from_le_bytes(chunk.try_into().expect("chunk of eight"));
        h = (h.rotate_left(23) ^ word).wrapping_mul(MUL);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let mut buf = [0u8; 8];
        buf[..rest.len()].copy_from_slice(rest);
        h = (h.rotate_left(23) ^ u64::from_le_bytes(buf)).wrapping_mul(MUL);
    }
    h ^ (h >> 31)
}

/// A text with every `\r\n` turned into `\n`, remembering where the removed
/// carriage returns were so offsets can be mapped back.
pub(crate) struct LfText<'t> {
    /// The normalized text.
    pub text: Cow<'t, str>,
    /// Offsets in `text` of every `\n` whose `\r` was removed, ascending.
    removed: Vec<usize>,
}

impl<'t> LfText<'t> {
    /// Normalizes `text`, borrowing it when it has no `\r\n`.
    pub(crate) fn new(text: &'t str) -> LfText<'t> {
        if !text.contains("\r\n") {
            return LfText {
                text: Cow::Borrowed(text),
                removed: Vec::new(),
            };
        }
        let mut out = String::with_capacity(text.len());
        let mut removed = Vec::new();
        let mut rest = text;
        while let Some(at) = rest.find("\r\n") {
            out.push_str(&rest[..at]);
            removed.push(out.len());
            out.push('\n');
            rest = &rest[at + 2..];
        }
        out.push_str(rest);
        LfText {
            text: Cow::Owned(out),
            removed,
        }
    }

    /// The offset in the original text of offset `at` of the normalized text.
    /// A carriage return removed before a `\n` at `at` lies inside the mapped
    /// range that starts there, and outside one that ends there.
    pub(crate) fn original(&self, at: usize) -> usize {
        at + self.removed.partition_point(|&q| q < at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_folds_look_alikes_and_whitespace() {
        assert_eq!(canonical("  let x = 1;  "), "let x = 1;");
        assert!(matches!(canonical("    foo(bar)"), Cow::Borrowed(_)));
        assert_eq!(canonical("a  =\t b"), "a = b");
        assert_eq!(canonical("say(\u{201C}hi\u{201D})"), "say(\"hi\")");
        assert_eq!(
            canonical("it\u{2019}s \u{2014} done\u{2026}"),
            "it's - done..."
        );
        assert_eq!(canonical("a\u{00A0}b\u{200B}c"), "a bc");
        assert_eq!(canonical(" \u{3000} "), "");
    }

    #[test]
    fn widths_follow_tab_stops() {
        assert_eq!(width(""), 0);
        assert_eq!(width("    "), 4);
        assert_eq!(width("\t"), 4);
        assert_eq!(width("  \t"), 4);
        assert_eq!(width("\t  "), 6);
        assert_eq!(indent_of("\t  x = 1"), "\t  ");
        // All leading whitespace is indentation: a form feed or a no-break
        // space before the text is never taken for the line's first
        // character, so re-indenting a line replaces it.
        assert_eq!(indent_of(" \u{c}  x"), " \u{c}  ");
        assert_eq!(width(" \u{c}\u{a0}"), 3);
    }

    #[test]
    fn lf_text_maps_offsets_back() {
        let text = "ab\r\ncd\r\nef";
        let lf = LfText::new(text);
        assert_eq!(lf.text, "ab\ncd\nef");
        let at = lf.text.find("cd\nef").unwrap();
        assert_eq!(&text[lf.original(at)..lf.original(at + 5)], "cd\r\nef");
        let at = lf.text.find("\ncd").unwrap();
        assert_eq!(&text[lf.original(at)..lf.original(at + 3)], "\r\ncd");
        let at = lf.text.find("ab").unwrap();
        assert_eq!(&text[lf.original(at)..lf.original(at + 2)], "ab");
    }

    #[test]
    fn hashes_differ_for_different_lines() {
        assert_ne!(key_hash("return a;"), key_hash("return b;"));
        assert_eq!(key_hash("x"), key_hash("x"));
        assert_ne!(key_hash(""), key_hash("\0"));
    }
}
