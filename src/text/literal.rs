//! Literal text search: every occurrence of a string, treating `\n` and `\r\n`
//! as the same line break (an agent that read a CRLF file usually sends LF),
//! and, when there is none, the nearest thing that does occur.
//!
//! No character of the searched text is special: `.` is a dot, `*` a star.
//!
//! ```
//! use mcp_server_text::text::literal::{find_all, near_miss, NearMiss};
//!
//! let text = "alpha\r\nbeta\r\nalpha\r\n";
//! let found = find_all(text, "alpha\nbeta");
//! assert_eq!(found, vec![0..11]);
//! assert_eq!(find_all(text, "alpha").len(), 2);
//! assert!(matches!(near_miss(text, "BETA"), Some(NearMiss::CaseInsensitive { line: 2, .. })));
//! ```

use std::ops::Range;

use rapidfuzz::distance::indel;
use regex::{Regex, RegexBuilder};

use super::lines::LineIndex;

/// Builds the regex for a near miss of `needle`: any letter case, or (with
/// `flexible_space`) any run of whitespace where the needle has some.
fn pattern(needle: &str, flexible_space: bool) -> String {
    let normalized = needle.replace("\r\n", "\n");
    if flexible_space {
        let tokens: Vec<String> = normalized.split_whitespace().map(regex::escape).collect();
        return tokens.join(r"\s+");
    }
    normalized
        .split('\n')
        .map(regex::escape)
        .collect::<Vec<_>>()
        .join("\r?\n")
}

fn build(pattern: &str, case_insensitive: bool) -> Option<Regex> {
    RegexBuilder::new(pattern)
        .case_insensitive(case_insensitive)
        .size_limit(64 << 20)
        .dfa_size_limit(64 << 20)
        .build()
        .ok()
}

/// Longest needle for which near misses are looked for with a regex:
/// compiling one takes memory in proportion to the needle, and a needle this
/// long that does not occur is rarely off by letter case alone.
const MAX_REGEX_NEEDLE: usize = 64 << 10;

/// Byte ranges of all non-overlapping occurrences of `needle` in `text`, left
/// to right. An empty needle matches nowhere.
///
/// Linear in the text for LF or CRLF files, and no memory beyond the
/// result, however long the needle: no regex is compiled.
pub fn find_all(text: &str, needle: &str) -> Vec<Range<usize>> {
    if needle.is_empty() {
        return Vec::new();
    }
    if !needle.contains('\n') {
        return non_overlapping(text.as_bytes(), needle.as_bytes());
    }
    let normalized = needle.replace("\r\n", "\n");
    let bytes = text.as_bytes();
    if !normalized.contains('\r') {
        // Files with one kind of line ending: the needle in that kind.
        if memchr::memchr(b'\r', bytes).is_none() {
            return non_overlapping(bytes, normalized.as_bytes());
        }
        if memchr::memchr_iter(b'\n', bytes).all(|at| at > 0 && bytes[at - 1] == b'\r') {
            return non_overlapping(bytes, normalized.replace('\n', "\r\n").as_bytes());
        }
    }
    // Mixed endings: each line of the needle, then `\r\n` or `\n`.
    let segments: Vec<&[u8]> = normalized.split('\n').map(str::as_bytes).collect();
    let mut found = Vec::new();
    let mut from = 0;
    while from < bytes.len() {
        let start = if segments[0].is_empty() {
            match memchr::memchr(b'\n', &bytes[from..]) {
                Some(i) if from + i > from && bytes[from + i - 1] == b'\r' => from + i - 1,
                Some(i) => from + i,
                None => break,
            }
        } else {
            match memchr::memmem::find(&bytes[from..], segments[0]) {
                Some(i) => from + i,
                None => break,
            }
        };
        match match_lines_at(bytes, start, &segments) {
            Some(end) => {
                found.push(start..end);
                from = end;
            }
            None => from = start + 1,
        }
    }
    found
}

/// Where a match of `segments` joined by `\r\n` or `\n` starting at `start`
/// ends, if there is one.
fn match_lines_at(bytes: &[u8], start: usize, segments: &[&[u8]]) -> Option<usize> {
    let mut at = start;
    for (i, segment) in segments.iter().enumerate() {
        if i > 0 {
            let rest = &bytes[at..];
            if rest.starts_with(b"\r\n") {
                at += 2;
            } else if rest.starts_with(b"\n") {
                at += 1;
            } else {
                return None;
            }
        }
        if !bytes[at..].starts_with(segment) {
            return None;
        }
        at += segment.len();
    }
    Some(at)
}

/// The non-overlapping occurrences of `needle` in `haystack`, left to right.
fn non_overlapping(haystack: &[u8], needle: &[u8]) -> Vec<Range<usize>> {
    memchr::memmem::find_iter(haystack, needle)
        .map(|start| start..start + needle.len())
        .scan(0usize, |next_free, r| {
            // memmem reports overlapping hits; keep the non-overlapping ones.
            if r.start >= *next_free {
                *next_free = r.end;
                Some(Some(r))
            } else {
                Some(None)
            }
        })
        .flatten()
        .collect()
}

/// Something close to a needle that was not found.
#[derive(Debug, Clone, PartialEq)]
pub enum NearMiss {
    /// The text occurs with different letter case.
    CaseInsensitive {
        /// 1-based line where it starts.
        line: usize,
        /// The text as it is in the file.
        actual: String,
    },
    /// The text occurs with different spacing or line breaks.
    WhitespaceInsensitive {
        /// 1-based line where it starts.
        line: usize,
        /// The text as it is in the file.
        actual: String,
    },
    /// No variant occurs; this line is the most similar to the needle's first line.
    SimilarLine {
        /// 1-based line.
        line: usize,
        /// The line's text.
        actual: String,
        /// Similarity from 0 to 100.
        score: u8,
    },
}

/// Lines of the file longer than this are not compared for similarity.
const MAX_COMPARED_LINE: usize = 2000;

/// The nearest thing to `needle` that occurs in `text`, if anything is close:
/// first a case-insensitive match, then one that differs only in whitespace,
/// then the line most similar to the needle's first non-blank line (at least
/// 60% similar).
pub fn near_miss(text: &str, needle: &str) -> Option<NearMiss> {
    if needle.trim().is_empty() {
        return None;
    }
    let index = LineIndex::new(text);
    let at = |range: Range<usize>| (index.line_of_offset(range.start), text[range].to_string());
    let small = needle.len() <= MAX_REGEX_NEEDLE;
    if small && let Some(m) = build(&pattern(needle, false), true).and_then(|re| re.find(text)) {
        let (line, actual) = at(m.range());
        return Some(NearMiss::CaseInsensitive { line, actual });
    }
    if small && let Some(m) = build(&pattern(needle, true), false).and_then(|re| re.find(text)) {
        let (line, actual) = at(m.range());
        return Some(NearMiss::WhitespaceInsensitive { line, actual });
    }
    let first = needle.lines().map(str::trim).find(|l| !l.is_empty())?;
    // A first line this much longer than any compared line cannot reach 60%
    // similarity (2·m / (n + m) < 0.6 once n > 2.34·m); comparing it anyway
    // would cost time in proportion to its length for each line.
    if first.chars().nth(MAX_COMPARED_LINE * 7 / 3 + 1).is_some() {
        return None;
    }
    let scorer = indel::BatchComparator::new(first.chars());
    let mut best: Option<(f64, usize)> = None;
    for (n, line) in index.iter(text) {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.len() > MAX_COMPARED_LINE {
            continue;
        }
        let cutoff = best.map_or(0.6, |(s, _)| s);
        let score = scorer.normalized_similarity_with_args(
            trimmed.chars(),
            &indel::Args::default().score_cutoff(cutoff),
        );
        if let Some(score) = score
            && best.is_none_or(|(s, _)| score > s)
        {
            best = Some((score, n));
        }
    }
    let (score, line) = best?;
    Some(NearMiss::SimilarLine {
        line,
        actual: index.text(text, line).to_string(),
        score: (score * 100.0).round() as u8,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_non_overlapping_occurrences() {
        assert_eq!(find_all("aaaa", "aa"), vec![0..2, 2..4]);
        assert_eq!(find_all("a.b a*b", "a*b"), vec![4..7]);
        assert!(find_all("abc", "").is_empty());
    }

    #[test]
    fn line_breaks_in_mixed_files_and_odd_needles() {
        // Each ending kind in one file; the needle's breaks match either.
        let mixed = "x\r\ny\nx\ny\r\nx\ny";
        assert_eq!(find_all(mixed, "x\ny"), vec![0..4, 5..8, 10..13]);
        assert_eq!(find_all(mixed, "\nx"), vec![4..6, 8..11]);
        assert_eq!(find_all(mixed, "y\n"), vec![3..5, 7..10]);
        // A lone \r stays literal, in the needle and in the file.
        assert_eq!(find_all("a\r\r\nb", "a\r\r\nb"), vec![0..5]);
        assert!(find_all("a\r\r\nb", "a\r\nb").is_empty());
        assert_eq!(find_all("a\rb\nc", "a\rb\nc"), vec![0..5]);
        assert!(find_all("a\nb", "a\rb\nc").is_empty());
        // Overlapping candidates: the leftmost wins, the next starts after it.
        assert_eq!(find_all("a\na\na\n", "a\na"), vec![0..3]);
        assert_eq!(find_all("a\r\na\na\r\na", "a\na"), vec![0..4, 5..9]);
    }

    #[test]
    fn a_huge_needle_is_found_without_a_regex() {
        let block: String = (0..20_000).map(|i| format!("line {i}\n")).collect();
        let crlf = block.replace('\n', "\r\n");
        let text = format!("head\r\n{crlf}tail\r\n");
        let found = find_all(&text, &block);
        assert_eq!(found, vec![6..6 + crlf.len()]);
        let mixed = format!("head\n{crlf}tail\r\n");
        assert_eq!(find_all(&mixed, &block), vec![5..5 + crlf.len()]);
        // Not there, and too long for a regex: the nearest line, no panic.
        let missing = block.replace("line 7\n", "line seven\n");
        assert!(find_all(&text, &missing).is_empty());
        assert!(near_miss(&text, &missing).is_some());
        assert_eq!(near_miss("short\n", &"x".repeat(10_000)), None);
    }

    #[test]
    fn line_breaks_match_either_style() {
        let crlf = "one\r\ntwo\r\nthree";
        assert_eq!(find_all(crlf, "one\ntwo"), vec![0..8]);
        assert_eq!(find_all(crlf, "one\r\ntwo"), vec![0..8]);
        let lf = "one\ntwo\n";
        assert_eq!(find_all(lf, "one\r\ntwo\r\n"), vec![0..8]);
        let mixed = "a\r\nb\nc\r\n";
        assert_eq!(find_all(mixed, "a\nb\nc\n"), vec![0..8]);
    }

    #[test]
    fn near_misses_in_order_of_closeness() {
        let text = "# Title\nThe Quick brown fox\nsecond   line\nanother line here\n";
        assert_eq!(
            near_miss(text, "the quick"),
            Some(NearMiss::CaseInsensitive {
                line: 2,
                actual: "The Quick".into()
            })
        );
        assert_eq!(
            near_miss(text, "second line"),
            Some(NearMiss::WhitespaceInsensitive {
                line: 3,
                actual: "second   line".into()
            })
        );
        match near_miss(text, "another lime here") {
            Some(NearMiss::SimilarLine { line, score, .. }) => {
                assert_eq!(line, 4);
                assert!(score >= 90, "{score}");
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(near_miss(text, "zzzzzzzzzzzzzzzzzzzzzz"), None);
    }
}
