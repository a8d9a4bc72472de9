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

/// Builds the pattern matching `needle` literally, with any line break in it
/// matching either `\n` or `\r\n`.
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
        .size_limit(256 * 1024 * 1024)
        .build()
        .ok()
}

/// Byte ranges of all non-overlapping occurrences of `needle` in `text`, left
/// to right. An empty needle matches nowhere.
pub fn find_all(text: &str, needle: &str) -> Vec<Range<usize>> {
    if needle.is_empty() {
        return Vec::new();
    }
    if !needle.contains('\n') {
        return memchr::memmem::find_iter(text.as_bytes(), needle.as_bytes())
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
            .collect();
    }
    match build(&pattern(needle, false), false) {
        Some(re) => re.find_iter(text).map(|m| m.range()).collect(),
        None => memchr::memmem::find_iter(text.as_bytes(), needle.as_bytes())
            .map(|start| start..start + needle.len())
            .collect(),
    }
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
    if let Some(m) = build(&pattern(needle, false), true).and_then(|re| re.find(text)) {
        let (line, actual) = at(m.range());
        return Some(NearMiss::CaseInsensitive { line, actual });
    }
    if let Some(m) = build(&pattern(needle, true), false).and_then(|re| re.find(text)) {
        let (line, actual) = at(m.range());
        return Some(NearMiss::WhitespaceInsensitive { line, actual });
    }
    let first = needle.lines().map(str::trim).find(|l| !l.is_empty())?;
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
