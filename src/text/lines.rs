//! The line model every tool shares: where lines start, how they end, and how
//! 1-based line numbers map to byte offsets.
//!
//! Lines are separated by `\n`. A `\r` right before a `\n` belongs to the line
//! ending, not to the line's text; a lone `\r` is ordinary text. The empty text
//! has no lines, `"a"` and `"a\n"` have one, `"a\n\n"` has two (the second is
//! empty). Line numbers are 1-based and ranges are inclusive.
//!
//! ```
//! use mcp_server_text::text::lines::{Eol, LineIndex};
//!
//! let text = "title\r\nbody\nlast";
//! let index = LineIndex::new(text);
//! assert_eq!(index.len(), 3);
//! assert_eq!(index.text(text, 1), "title");
//! assert_eq!(index.eol(text, 1), Eol::Crlf);
//! assert_eq!(index.eol(text, 3), Eol::None);
//! assert_eq!(index.line_of_offset(8), 2);
//! ```

use std::ops::Range;

/// The longest text a [`LineIndex`] handles: 4 GiB.
pub const MAX_TEXT_LEN: usize = u32::MAX as usize;

/// The ending of one line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Eol {
    /// `\n`
    Lf,
    /// `\r\n`
    Crlf,
    /// The last line of a text with no final newline.
    None,
}

impl Eol {
    /// The line break `text` ends with: [`Eol::None`] when it ends without
    /// one.
    pub fn ending(text: &str) -> Eol {
        if text.ends_with("\r\n") {
            Eol::Crlf
        } else if text.ends_with('\n') {
            Eol::Lf
        } else {
            Eol::None
        }
    }

    /// The ending's characters.
    pub fn as_str(self) -> &'static str {
        match self {
            Eol::Lf => "\n",
            Eol::Crlf => "\r\n",
            Eol::None => "",
        }
    }
}

/// The line-ending style of a whole text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EolStyle {
    /// Every ending is `\n` (or the text has a single line without ending).
    Lf,
    /// Every ending is `\r\n`.
    Crlf,
    /// Both kinds occur; `dominant` is the more frequent one (LF on a tie).
    Mixed {
        /// The more frequent ending.
        dominant: Eol,
        /// How many lines end in `\n`.
        lf: usize,
        /// How many lines end in `\r\n`.
        crlf: usize,
    },
    /// No line ending at all (empty or a single unterminated line).
    None,
}

impl EolStyle {
    /// The ending that new text should use when nothing more local is known.
    pub fn preferred(self) -> Eol {
        match self {
            EolStyle::Crlf => Eol::Crlf,
            EolStyle::Mixed { dominant, .. } => dominant,
            EolStyle::Lf | EolStyle::None => Eol::Lf,
        }
    }

    /// A short name for responses: `LF`, `CRLF`, `mixed` or `none`.
    pub fn name(self) -> &'static str {
        match self {
            EolStyle::Lf => "LF",
            EolStyle::Crlf => "CRLF",
            EolStyle::Mixed { .. } => "mixed",
            EolStyle::None => "none",
        }
    }
}

/// Byte offsets of the start of every line of a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineIndex {
    /// `starts[i]` is the byte offset where line `i + 1` starts. Four bytes
    /// each: texts are at most [`MAX_TEXT_LEN`] long, and on a file of short
    /// lines the index is a tenth of the text's size instead of a fifth.
    starts: Vec<u32>,
    /// Length of the indexed text, so spans of the last line can be computed.
    text_len: usize,
    /// How many lines end in `\r\n` (the rest of the endings are `\n`),
    /// counted in the same pass so the style is known without another scan.
    crlf: usize,
    /// How many line endings there are.
    endings: usize,
}

impl LineIndex {
    /// Indexes `text`. Linear in its length, using `memchr`.
    ///
    /// # Panics
    /// If `text` is longer than [`MAX_TEXT_LEN`]; the workspace refuses such
    /// files before they are read.
    pub fn new(text: &str) -> LineIndex {
        let bytes = text.as_bytes();
        assert!(bytes.len() <= MAX_TEXT_LEN, "text too long to index");
        let mut starts = Vec::with_capacity(bytes.len() / 40 + 1);
        let mut crlf = 0;
        let mut endings = 0;
        if !bytes.is_empty() {
            starts.push(0);
            for nl in memchr::memchr_iter(b'\n', bytes) {
                endings += 1;
                crlf += usize::from(nl > 0 && bytes[nl - 1] == b'\r');
                if nl + 1 < bytes.len() {
                    starts.push((nl + 1) as u32);
                }
            }
        }
        LineIndex {
            starts,
            text_len: bytes.len(),
            crlf,
            endings,
        }
    }

    /// Number of lines.
    pub fn len(&self) -> usize {
        self.starts.len()
    }

    /// Whether the text has no lines at all (it is empty).
    pub fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }

    /// Byte offset where line `n` (1-based) starts. `n == len() + 1` gives the
    /// end of the text, which is where an appended line would start.
    ///
    /// # Panics
    /// If `n` is 0 or greater than `len() + 1`.
    pub fn start(&self, n: usize) -> usize {
        assert!(n >= 1 && n <= self.len() + 1, "line {n} out of range");
        if n == self.len() + 1 {
            self.text_len
        } else {
            self.starts[n - 1] as usize
        }
    }

    /// Byte span of line `n` including its ending.
    pub fn span_with_eol(&self, n: usize) -> Range<usize> {
        self.start(n)..self.start(n + 1)
    }

    /// Byte span of line `n` without its ending.
    pub fn span(&self, text: &str, n: usize) -> Range<usize> {
        let full = self.span_with_eol(n);
        let eol_len = self.eol(text, n).as_str().len();
        full.start..full.end - eol_len
    }

    /// Byte span of lines `first..=last` including the ending of `last`.
    pub fn span_of_lines(&self, first: usize, last: usize) -> Range<usize> {
        self.start(first)..self.start(last + 1)
    }

    /// Text of line `n` without its ending.
    pub fn text<'t>(&self, text: &'t str, n: usize) -> &'t str {
        &text[self.span(text, n)]
    }

    /// The ending of line `n`.
    pub fn eol(&self, text: &str, n: usize) -> Eol {
        let full = self.span_with_eol(n);
        let line = &text.as_bytes()[full];
        match line {
            [.., b'\r', b'\n'] => Eol::Crlf,
            [.., b'\n'] => Eol::Lf,
            _ => Eol::None,
        }
    }

    /// The 1-based line that contains byte `offset`. An offset at the very end
    /// of the text belongs to the last line.
    pub fn line_of_offset(&self, offset: usize) -> usize {
        let offset = u32::try_from(offset).unwrap_or(u32::MAX);
        match self.starts.binary_search(&offset) {
            Ok(i) => i + 1,
            Err(i) => i.max(1),
        }
    }

    /// Whether the text ends with a line ending.
    pub fn has_final_newline(&self, text: &str) -> bool {
        text.ends_with('\n')
    }

    /// The line-ending style of the whole text (the text indexed).
    pub fn eol_style(&self, text: &str) -> EolStyle {
        debug_assert_eq!(text.len(), self.text_len, "eol_style of another text");
        EolStyle::of(self.endings - self.crlf, self.crlf)
    }

    /// Iterates `(line_number, text_without_ending)` over all lines.
    pub fn iter<'a>(&'a self, text: &'a str) -> impl Iterator<Item = (usize, &'a str)> + 'a {
        (1..=self.len()).map(move |n| (n, self.text(text, n)))
    }
}

impl EolStyle {
    /// The style of a text with `lf` lines ending in `\n` and `crlf` in `\r\n`.
    fn of(lf: usize, crlf: usize) -> EolStyle {
        match (lf, crlf) {
            (0, 0) => EolStyle::None,
            (_, 0) => EolStyle::Lf,
            (0, _) => EolStyle::Crlf,
            _ => EolStyle::Mixed {
                dominant: if crlf > lf { Eol::Crlf } else { Eol::Lf },
                lf,
                crlf,
            },
        }
    }
}

/// How many lines a text has and how they end, as [`LineIndex`] counts them,
/// without the index: memchr's counting passes are several times faster
/// than noting where every line starts.
///
/// ```
/// use mcp_server_text::text::lines::{EolStyle, LineCounts};
///
/// let counts = LineCounts::of("a\r\nb\n\nc");
/// assert_eq!(counts.lines, 4);
/// assert!(matches!(counts.eol_style(), EolStyle::Mixed { lf: 2, crlf: 1, .. }));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineCounts {
    /// Number of lines, as [`LineIndex::len`] gives it.
    pub lines: usize,
    /// Lines ending in `\n` alone.
    pub lf: usize,
    /// Lines ending in `\r\n`.
    pub crlf: usize,
}

impl LineCounts {
    /// Counts the lines of `text`.
    pub fn of(text: &str) -> LineCounts {
        LineCounts::from(text, 0, 0)
    }

    /// Counts the lines of `text` given that its first `at` bytes hold
    /// `breaks` line breaks (`\n`), counted already.
    pub fn from(text: &str, at: usize, breaks: usize) -> LineCounts {
        let bytes = text.as_bytes();
        let endings = breaks + memchr::memchr_iter(b'\n', &bytes[at..]).count();
        let crlf = if memchr::memchr(b'\r', bytes).is_some() {
            memchr::memmem::find_iter(bytes, b"\r\n").count()
        } else {
            0
        };
        let lines = if bytes.is_empty() {
            0
        } else {
            1 + endings - usize::from(bytes.ends_with(b"\n"))
        };
        LineCounts {
            lines,
            lf: endings - crlf,
            crlf,
        }
    }

    /// The line-ending style, as [`LineIndex::eol_style`] gives it.
    pub fn eol_style(&self) -> EolStyle {
        EolStyle::of(self.lf, self.crlf)
    }
}

/// Splits `text` into lines the same way [`LineIndex`] does, without building an
/// index: each item is the line's text without its ending.
pub fn split_lines(text: &str) -> impl Iterator<Item = &str> {
    // memchr finds line breaks several times faster than `split_inclusive`,
    // which matters to the scanners that walk every line of a large file.
    let bytes = text.as_bytes();
    let mut breaks = memchr::memchr_iter(b'\n', bytes);
    let mut start = 0usize;
    std::iter::from_fn(move || {
        if start >= bytes.len() {
            return None;
        }
        let Some(end) = breaks.next() else {
            // The last line has no ending, so a `\r` at its end is text.
            let line = &text[start..];
            start = bytes.len();
            return Some(line);
        };
        let line = &text[start..end];
        start = end + 1;
        Some(line.strip_suffix('\r').unwrap_or(line))
    })
}

/// The line that starts at byte `start` (without its ending, by the line
/// model: `\n`, or `\r\n`), and where the next line starts.
pub fn line_at(text: &str, start: usize) -> (&str, usize) {
    let rest = &text[start..];
    match memchr::memchr(b'\n', rest.as_bytes()) {
        Some(at) => {
            let line = &rest[..at];
            (line.strip_suffix('\r').unwrap_or(line), start + at + 1)
        }
        None => (rest, text.len()),
    }
}

/// Where the line before the one starting at byte `start` (> 0) starts.
pub fn previous_line_start(text: &str, start: usize) -> usize {
    memchr::memrchr(b'\n', &text.as_bytes()[..start - 1]).map_or(0, |at| at + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_counts_agree_with_the_index() {
        for text in [
            "",
            "a",
            "\n",
            "\r",
            "\r\n",
            "a\nb",
            "a\r\nb\r\n",
            "a\rb\n",
            "\n\n\r\n",
            "x\r",
            "é\r\n😀\nz",
        ] {
            let index = LineIndex::new(text);
            let counts = LineCounts::of(text);
            assert_eq!(counts.lines, index.len(), "{text:?}");
            assert_eq!(counts.eol_style(), index.eol_style(text), "{text:?}");
            for at in (0..=text.len()).filter(|&at| text.is_char_boundary(at)) {
                let breaks = text[..at].matches('\n').count();
                assert_eq!(LineCounts::from(text, at, breaks), counts, "{text:?} {at}");
            }
        }
    }

    #[test]
    fn lines_around_an_offset_follow_the_line_model() {
        let text = "one\r\ntwo\rstill two\n\nlast";
        assert_eq!(line_at(text, 0), ("one", 5));
        assert_eq!(line_at(text, 5), ("two\rstill two", 19));
        assert_eq!(line_at(text, 19), ("", 20));
        assert_eq!(line_at(text, 20), ("last", text.len()));
        assert_eq!(previous_line_start(text, 20), 19);
        assert_eq!(previous_line_start(text, 19), 5);
        assert_eq!(previous_line_start(text, 5), 0);
    }

    #[test]
    fn counts_lines_like_an_editor() {
        assert_eq!(LineIndex::new("").len(), 0);
        assert_eq!(LineIndex::new("a").len(), 1);
        assert_eq!(LineIndex::new("a\n").len(), 1);
        assert_eq!(LineIndex::new("a\n\n").len(), 2);
        assert_eq!(LineIndex::new("\n").len(), 1);
        assert_eq!(LineIndex::new("a\r\nb").len(), 2);
    }

    #[test]
    fn spans_exclude_and_include_endings() {
        let text = "ab\r\ncd\nef";
        let index = LineIndex::new(text);
        assert_eq!(index.span(text, 1), 0..2);
        assert_eq!(index.span_with_eol(1), 0..4);
        assert_eq!(index.text(text, 2), "cd");
        assert_eq!(index.eol(text, 2), Eol::Lf);
        assert_eq!(index.text(text, 3), "ef");
        assert_eq!(index.eol(text, 3), Eol::None);
        assert_eq!(index.start(4), text.len());
        assert_eq!(index.span_of_lines(2, 3), 4..9);
    }

    #[test]
    fn lone_carriage_return_is_text() {
        let text = "a\rb\n";
        let index = LineIndex::new(text);
        assert_eq!(index.len(), 1);
        assert_eq!(index.text(text, 1), "a\rb");
    }

    #[test]
    fn offsets_map_to_lines() {
        let text = "ab\ncd\n";
        let index = LineIndex::new(text);
        assert_eq!(index.line_of_offset(0), 1);
        assert_eq!(index.line_of_offset(2), 1);
        assert_eq!(index.line_of_offset(3), 2);
        assert_eq!(index.line_of_offset(6), 2);
    }

    #[test]
    fn styles() {
        let style = |t: &str| LineIndex::new(t).eol_style(t);
        assert_eq!(style(""), EolStyle::None);
        assert_eq!(style("a"), EolStyle::None);
        assert_eq!(style("a\nb\n"), EolStyle::Lf);
        assert_eq!(style("a\r\nb\r\n"), EolStyle::Crlf);
        assert_eq!(
            style("a\r\nb\nc\r\n"),
            EolStyle::Mixed {
                dominant: Eol::Crlf,
                lf: 1,
                crlf: 2
            }
        );
    }

    #[test]
    fn split_lines_agrees_with_the_index() {
        for text in [
            "", "a", "a\n", "a\r\nb", "a\n\n", "\r\n", "x\ry\n", "x\r", "\n\n\r",
        ] {
            let index = LineIndex::new(text);
            let from_index: Vec<&str> = index.iter(text).map(|(_, l)| l).collect();
            let from_split: Vec<&str> = split_lines(text).collect();
            assert_eq!(from_index, from_split, "{text:?}");
        }
    }
}
