//! A search query compiled for matching line by line in many files.
//!
//! A literal query is escaped, so `a.b` finds only `a.b`. Matching ignores
//! letter case unless asked not to, with Unicode simple case folding: `école`
//! finds `ÉCOLE`, but `strasse` does not find `Straße` (that would need full
//! folding, where one letter becomes two). Matches never span lines, so a
//! query that can only match a line break is refused. Lines follow the crate's
//! line model: they end at `\n`, and a `\r` before it belongs to the ending.
//!
//! Within a line, matches do not overlap; an empty match (a regex like `^` or
//! `x*`) counts only when it is the first match of its line, so every matching
//! line counts at least once and no line counts forever.
//!
//! ```
//! use mcp_server_text::workspace::search::pattern::Pattern;
//!
//! let pattern = Pattern::new("école", false, false).unwrap();
//! let text = "# ÉCOLE\r\nune école, deux écoles\n";
//! assert_eq!(pattern.count(&mut pattern.searcher(), text.as_bytes()), 3);
//! let found = pattern.find(text, 10);
//! assert_eq!((found[2].line, found[2].column), (2, 17));
//! assert!(Pattern::new("a\nb", false, false).is_err());
//! ```

use std::fmt;

use grep_matcher::{LineTerminator, Matcher};
use grep_regex::{ErrorKind, RegexMatcher, RegexMatcherBuilder};
use grep_searcher::{BinaryDetection, Searcher, SearcherBuilder, Sink, SinkMatch};

/// A compiled query.
#[derive(Debug, Clone)]
pub struct Pattern {
    matcher: RegexMatcher,
}

/// Why a query could not be compiled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PatternError {
    /// The query is empty.
    Empty,
    /// The query can only match across a line break.
    LineBreak,
    /// The regex does not parse or is too large.
    Invalid {
        /// The regex engine's explanation.
        message: String,
    },
}

impl fmt::Display for PatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PatternError::Empty => f.write_str("the query is empty, so there is nothing to find"),
            PatternError::LineBreak => f.write_str(
                "the query contains a line break, but matches are found within single lines",
            ),
            PatternError::Invalid { message } => write!(f, "the regex is not valid: {message}"),
        }
    }
}

impl std::error::Error for PatternError {}

/// One match in a text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineMatch {
    /// 1-based line.
    pub line: usize,
    /// Byte offset in the text where the match's line starts.
    pub line_start: usize,
    /// 1-based column, in characters, where the match starts.
    pub column: usize,
    /// Byte offset of the match in its line.
    pub start: usize,
    /// Byte offset just past the match in its line.
    pub end: usize,
}

impl Pattern {
    /// Compiles `query`: a regex when `regex` is true, otherwise literal text.
    pub fn new(query: &str, regex: bool, case_sensitive: bool) -> Result<Pattern, PatternError> {
        if query.is_empty() {
            return Err(PatternError::Empty);
        }
        if !regex && query.contains(['\n', '\r']) {
            return Err(PatternError::LineBreak);
        }
        let escaped;
        let source = if regex {
            query
        } else {
            escaped = regex::escape(query);
            &escaped
        };
        let matcher = RegexMatcherBuilder::new()
            .case_insensitive(!case_sensitive)
            // `^` and `$` match at every line's start and end, as in ripgrep.
            .multi_line(true)
            .crlf(true)
            .size_limit(64 << 20)
            .dfa_size_limit(64 << 20)
            .build(source)
            .map_err(|e| match e.kind() {
                ErrorKind::NotAllowed(_) => PatternError::LineBreak,
                // The matcher reports syntax errors against the pattern as it
                // rewrote it; the regex crate shows the caller's own pattern.
                _ => PatternError::Invalid {
                    message: regex::Regex::new(source)
                        .err()
                        .map_or_else(|| e.to_string(), |plain| plain.to_string()),
                },
            })?;
        Ok(Pattern { matcher })
    }

    /// A searcher set up for this pattern; keep one per thread and reuse it.
    pub fn searcher(&self) -> Searcher {
        SearcherBuilder::new()
            .line_terminator(LineTerminator::crlf())
            .line_number(false)
            .binary_detection(BinaryDetection::none())
            .bom_sniffing(false)
            .build()
    }

    /// How many matches `text` holds.
    pub fn count(&self, searcher: &mut Searcher, text: &[u8]) -> usize {
        self.tally(searcher, text).matches
    }

    /// How many matches `text` holds, and where the first one's line starts.
    pub fn tally(&self, searcher: &mut Searcher, text: &[u8]) -> Tally {
        let mut sink = Matches::new(&self.matcher, text, 0, 0, 0, |_| {});
        // The sink never fails and a slice cannot fail to read.
        let _ = searcher.search_slice(&self.matcher, text, &mut sink);
        sink.tally()
    }

    /// The first `limit` matches in `text`, in order.
    pub fn find(&self, text: &str, limit: usize) -> Vec<LineMatch> {
        self.find_from(text, 0, limit)
    }

    /// The first `limit` matches in `text` from byte `start` on, where a line
    /// starts (a [`Tally::first_line_start`]), in order. Lines before `start`
    /// are counted, not searched; a `start` that is not at a line start (the
    /// text changed since it was tallied) is taken as 0.
    pub fn find_from(&self, text: &str, start: usize, limit: usize) -> Vec<LineMatch> {
        let bytes = text.as_bytes();
        let start = if start <= bytes.len() && (start == 0 || bytes[start - 1] == b'\n') {
            start
        } else {
            0
        };
        if limit == 0 {
            return Vec::new();
        }
        let lines_before = memchr::memchr_iter(b'\n', &bytes[..start]).count();
        let mut sink = Matches::new(&self.matcher, bytes, start, lines_before, limit, |_| {});
        sink.stop_at_limit = true;
        let _ = self
            .searcher()
            .search_slice(&self.matcher, &bytes[start..], &mut sink);
        sink.found
    }

    /// Counts every match of `text` and finds the first `limit` of them in
    /// one pass: [`Pattern::tally`] and [`Pattern::find`] together. As soon as
    /// the last match it will return is known, `last_line` gets its line (0
    /// when there is no match), once; another thread can stop its own work on
    /// the text there, such as looking for the headings above the matches.
    pub fn tally_and_find(
        &self,
        text: &str,
        limit: usize,
        last_line: impl FnMut(usize),
    ) -> (Tally, Vec<LineMatch>) {
        let bytes = text.as_bytes();
        let mut sink = Matches::new(&self.matcher, bytes, 0, 0, limit, last_line);
        let _ = self
            .searcher()
            .search_slice(&self.matcher, bytes, &mut sink);
        sink.name_last_line();
        (sink.tally(), sink.found)
    }
}

/// What counting the matches of a text found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tally {
    /// How many matches.
    pub matches: usize,
    /// Byte offset where the first match's line starts (0 without matches).
    pub first_line_start: usize,
}

/// Calls `each(start, end)` for the matches in one line (without its ending),
/// by the rule in the module documentation; stops when `each` returns false.
fn each_match(matcher: &RegexMatcher, line: &[u8], mut each: impl FnMut(usize, usize) -> bool) {
    let mut seen = 0usize;
    let _ = matcher.find_iter(line, |m| {
        if m.is_empty() && seen > 0 {
            return true;
        }
        seen += 1;
        each(m.start(), m.end())
    });
    if seen == 0 {
        // The searcher found the line, so it matches; report its start.
        each(0, 0);
    }
}

fn without_ending(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// Counts matches and keeps the first `limit` with their lines and columns.
struct Matches<'a, F> {
    matcher: &'a RegexMatcher,
    /// The whole text, to count the lines before a match.
    text: &'a [u8],
    /// Where the part searched starts in the text.
    offset: usize,
    limit: usize,
    /// Whether the search ends once `limit` matches are found.
    stop_at_limit: bool,
    found: Vec<LineMatch>,
    total: usize,
    first_line_start: Option<usize>,
    /// A position in the text at a line start, and the lines before it.
    counted: (usize, usize),
    /// Told the line of the last match kept, once.
    last_line: Option<F>,
}

impl<'a, F: FnMut(usize)> Matches<'a, F> {
    fn new(
        matcher: &'a RegexMatcher,
        text: &'a [u8],
        offset: usize,
        lines_before: usize,
        limit: usize,
        last_line: F,
    ) -> Self {
        Matches {
            matcher,
            text,
            offset,
            limit,
            stop_at_limit: false,
            found: Vec::new(),
            total: 0,
            first_line_start: None,
            counted: (offset, lines_before),
            last_line: Some(last_line),
        }
    }

    fn tally(&self) -> Tally {
        Tally {
            matches: self.total,
            first_line_start: self.first_line_start.unwrap_or(0),
        }
    }

    /// Tells `last_line` the line of the last match kept, unless told before.
    fn name_last_line(&mut self) {
        if let Some(mut tell) = self.last_line.take() {
            tell(self.found.last().map_or(0, |m| m.line));
        }
    }

    /// The 1-based number of the line that starts at byte `line_start`,
    /// counted on from the last line numbered.
    fn line_number(&mut self, line_start: usize) -> usize {
        let (from, lines) = self.counted;
        let lines = lines + memchr::memchr_iter(b'\n', &self.text[from..line_start]).count();
        self.counted = (line_start, lines);
        lines + 1
    }
}

impl<F: FnMut(usize)> Sink for Matches<'_, F> {
    type Error = std::io::Error;

    fn matched(&mut self, _: &Searcher, mat: &SinkMatch<'_>) -> Result<bool, std::io::Error> {
        let line_start = mat.absolute_byte_offset() as usize + self.offset;
        self.first_line_start.get_or_insert(line_start);
        let line = without_ending(mat.bytes());
        if self.found.len() >= self.limit {
            each_match(self.matcher, line, |_, _| {
                self.total += 1;
                true
            });
            return Ok(!self.stop_at_limit);
        }
        let number = self.line_number(line_start);
        let mut chars = 0;
        let mut counted_to = 0;
        each_match(self.matcher, line, |start, end| {
            self.total += 1;
            if self.found.len() < self.limit {
                // Characters are counted once per line, from the previous match on.
                chars += char_count(&line[counted_to..start]);
                counted_to = start;
                self.found.push(LineMatch {
                    line: number,
                    line_start,
                    column: chars + 1,
                    start,
                    end,
                });
            }
            !self.stop_at_limit || self.found.len() < self.limit
        });
        if self.found.len() >= self.limit {
            self.name_last_line();
        }
        Ok(!self.stop_at_limit || self.found.len() < self.limit)
    }
}

/// Characters in UTF-8 `bytes`: every byte that does not continue a character.
fn char_count(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| (b as i8) >= -0x40).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(query: &str, regex: bool, case_sensitive: bool, text: &str) -> usize {
        let p = Pattern::new(query, regex, case_sensitive).unwrap();
        p.count(&mut p.searcher(), text.as_bytes())
    }

    #[test]
    fn literal_queries_are_escaped_and_fold_case() {
        assert_eq!(count("a.b", false, false, "a.b axb A.B\n"), 2);
        assert_eq!(count("a.b", true, false, "a.b axb A.B\n"), 3);
        assert_eq!(count("A.B", false, true, "a.b A.B\n"), 1);
        assert_eq!(count("straẞe", false, false, "Straße STRASSE\n"), 1);
        assert_eq!(count("strasse", false, false, "Straße\n"), 0);
    }

    #[test]
    fn empty_matches_count_once_per_line() {
        assert_eq!(count("^", true, false, "a\nb\n\nc"), 4);
        assert_eq!(count("x*", true, false, "axxbx\n"), 3);
        assert_eq!(count("$", true, false, "a\r\nb\r\n"), 2);
    }

    #[test]
    fn columns_are_characters_and_lines_follow_the_line_model() {
        let p = Pattern::new("é", false, false).unwrap();
        let found = p.find("aé\r\nééx É\rÉ\n", 10);
        let at: Vec<(usize, usize)> = found.iter().map(|m| (m.line, m.column)).collect();
        assert_eq!(at, [(1, 2), (2, 1), (2, 2), (2, 5), (2, 7)]);
        assert_eq!((found[3].start, found[3].end), (6, 8));
        assert_eq!(p.find("é é é", 2).len(), 2);
        assert!(p.find("é", 0).is_empty());
    }

    #[test]
    fn tally_and_find_from_the_first_match() {
        let p = Pattern::new("b", false, false).unwrap();
        let text = "aaa\r\nxx\nab b\nb\n";
        let tally = p.tally(&mut p.searcher(), text.as_bytes());
        assert_eq!(
            tally,
            Tally {
                matches: 3,
                first_line_start: 8
            }
        );
        let from = p.find_from(text, tally.first_line_start, 10);
        assert_eq!(from, p.find(text, 10));
        assert_eq!(
            from.iter()
                .map(|m| (m.line, m.column, m.line_start))
                .collect::<Vec<_>>(),
            [(3, 2, 8), (3, 4, 8), (4, 1, 13)]
        );
        // A start that is no line start any more is ignored.
        assert_eq!(p.find_from(text, 10, 10), from);
        assert_eq!(p.find_from(text, 99, 10), from);
    }

    #[test]
    fn anchors_match_at_every_line_like_ripgrep() {
        let text = "a foo\nfoo bar\nfoo\r\nlast foo";
        assert_eq!(count("foo$", true, false, text), 3);
        assert_eq!(count("^foo", true, false, text), 2);
        let p = Pattern::new("foo$", true, false).unwrap();
        let at: Vec<(usize, usize)> = p
            .find(text, 10)
            .iter()
            .map(|m| (m.line, m.column))
            .collect();
        assert_eq!(at, [(1, 3), (3, 1), (4, 6)]);
    }

    #[test]
    fn refusals() {
        assert_eq!(
            Pattern::new("", false, false).err(),
            Some(PatternError::Empty)
        );
        assert_eq!(
            Pattern::new("a\r\nb", false, false).err(),
            Some(PatternError::LineBreak)
        );
        assert_eq!(
            Pattern::new(r"a\nb", true, false).err(),
            Some(PatternError::LineBreak)
        );
        let err = Pattern::new("(unclosed", true, false).err().unwrap();
        assert!(
            err.to_string().starts_with("the regex is not valid: "),
            "{err}"
        );
        // `\s` cannot cross a line because line breaks are taken out of it.
        assert_eq!(count(r"a\sb", true, false, "a\nb\na b\n"), 1);
    }
}
