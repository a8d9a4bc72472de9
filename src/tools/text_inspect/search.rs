//! TextInspect's search mode: the matches of a pattern in one file, each
//! with its line, column, context and (in Markdown) the heading above it.

use std::sync::atomic::{AtomicUsize, Ordering};

use regex::RegexBuilder;
use schemars::JsonSchema;
use serde::Serialize;

use crate::text::excerpt::{MAX_CONTEXT_LINE, brief, clip_middle, cut};
use crate::text::lines::{LineCounts, line_at, previous_line_start};
use crate::text::markdown;
use crate::tools::error::ToolError;
use crate::workspace::search::halves::PARALLEL_FROM;
use crate::workspace::search::side_by_side::side_by_side;

use super::MAX_MATCHES;
/// One search match.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SearchMatch {
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters) where the match starts.
    pub column: usize,
    /// The line's text.
    pub text: String,
    /// Lines around the match, when context > 0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context: Option<MatchContext>,
    /// Markdown: the heading whose section holds the match.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nearest_heading: Option<NearestHeading>,
}

/// Lines before and after a match.
#[derive(Debug, Serialize, JsonSchema)]
pub struct MatchContext {
    /// Lines before, nearest last.
    pub before: Vec<String>,
    /// Lines after, nearest first.
    pub after: Vec<String>,
}

impl MatchContext {
    /// Up to `n` lines before the line that starts at byte `line_start` of
    /// `text`, and up to `n` after it, from byte `next` on (where the line
    /// after it starts).
    pub fn around(text: &str, line_start: usize, next: usize, n: usize) -> MatchContext {
        let mut before = Vec::with_capacity(n);
        let mut start = line_start;
        while before.len() < n && start > 0 {
            start = previous_line_start(text, start);
            before.push(cut(line_at(text, start).0, MAX_CONTEXT_LINE));
        }
        before.reverse();
        let mut after = Vec::with_capacity(n);
        let mut start = next;
        while after.len() < n && start < text.len() {
            let (line, following) = line_at(text, start);
            after.push(cut(line, MAX_CONTEXT_LINE));
            start = following;
        }
        MatchContext { before, after }
    }
}

/// The heading a line belongs under.
#[derive(Debug, Serialize, JsonSchema)]
pub struct NearestHeading {
    /// 1 to 6.
    pub level: u8,
    /// The heading's text.
    pub text: String,
    /// Its line.
    pub line: usize,
}

pub(super) fn search(
    text: &str,
    query: &str,
    regex: bool,
    case_sensitive: bool,
    context: usize,
    markdown: bool,
) -> Result<(Vec<SearchMatch>, usize, LineCounts), ToolError> {
    let pattern = if regex {
        query.to_string()
    } else {
        regex::escape(query)
    };
    let re = RegexBuilder::new(&pattern)
        .case_insensitive(!case_sensitive)
        .multi_line(true)
        .crlf(true)
        .size_limit(64 * 1024 * 1024)
        .dfa_size_limit(64 * 1024 * 1024)
        .build()
        .map_err(|e| {
            ToolError::new(format!(
                "Invalid regex '{}': {}",
                brief(query),
                clip_middle(&e.to_string(), 600)
            ))
            .suggest("Fix the pattern, or pass regex=false to search for the text literally")
        })?;
    if !markdown {
        return Ok(find_matches(text, &re, context, |_| {}));
    }
    // Headings are looked for only as far as the last match shown; in a
    // large file, on a second thread while the matches are found.
    let last = AtomicUsize::new(usize::MAX);
    let name_last = |line| last.store(line, Ordering::Relaxed);
    let (mut matches, total, counts, headings) = if text.len() as u64 >= PARALLEL_FROM {
        // The headings scan is helped once the matches are found.
        let shared = markdown::SharedHeadings::new(text);
        let named = || last.load(Ordering::Relaxed);
        let find = || {
            let found = find_matches(text, &re, context, name_last);
            shared.help(named);
            found
        };
        let ((matches, total, counts), headings) = side_by_side(find, || shared.scan(named));
        (matches, total, counts, headings)
    } else {
        let (matches, total, counts) = find_matches(text, &re, context, name_last);
        let through = matches.last().map_or(0, |m| m.line);
        (
            matches,
            total,
            counts,
            markdown::headings_through(text, through),
        )
    };
    for m in &mut matches {
        m.nearest_heading = headings.nearest(m.line).map(|h| NearestHeading {
            level: h.level,
            text: h.text,
            line: h.line,
        });
    }
    Ok((matches, total, counts))
}

/// Every match of `re` in `text`, counted, and the first [`MAX_MATCHES`]
/// shown (without their heading), and the text's line counts; `last_line`
/// is told the line of the last one shown as soon as it is known (0 when
/// there is none). Lines are counted from match to match and then to the
/// end, rather than indexed.
pub(super) fn find_matches(
    text: &str,
    re: &regex::Regex,
    context: usize,
    mut last_line: impl FnMut(usize),
) -> (Vec<SearchMatch>, usize, LineCounts) {
    let bytes = text.as_bytes();
    let mut matches = Vec::new();
    let mut total = 0;
    let mut last_shown = 0;
    let mut told = false;
    // A position in the text and the line breaks before it.
    let mut counted = (0, 0);
    for m in re.find_iter(text) {
        if text.is_empty() {
            break;
        }
        if m.is_empty() && m.start() == text.len() {
            continue;
        }
        total += 1;
        if matches.len() >= MAX_MATCHES {
            continue;
        }
        let (from, breaks) = counted;
        let breaks = breaks + memchr::memchr_iter(b'\n', &bytes[from..m.start()]).count();
        counted = (m.start(), breaks);
        let line = breaks + 1;
        if line == last_shown && m.is_empty() {
            continue;
        }
        last_shown = line;
        let line_start = memchr::memrchr(b'\n', &bytes[..m.start()]).map_or(0, |at| at + 1);
        let (line_text, next) = line_at(text, line_start);
        let column = text[line_start..m.start()].chars().count() + 1;
        let context = (context > 0).then(|| MatchContext::around(text, line_start, next, context));
        matches.push(SearchMatch {
            line,
            column,
            text: cut(line_text, MAX_CONTEXT_LINE),
            context,
            nearest_heading: None,
        });
        if matches.len() == MAX_MATCHES && !told {
            told = true;
            last_line(line);
        }
    }
    if !told {
        last_line(matches.last().map_or(0, |m| m.line));
    }
    (matches, total, LineCounts::from(text, counted.0, counted.1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::document::Document;
    use proptest::prelude::*;

    /// Matches as the line index places them: the reference for
    /// [`find_matches`], which counts lines from match to match instead.
    fn by_index(doc: &Document, re: &regex::Regex, context: usize) -> (Vec<SearchMatch>, usize) {
        let text = doc.text();
        let index = doc.lines();
        let (mut matches, mut total, mut last_line) = (Vec::new(), 0, 0);
        for m in re.find_iter(text) {
            if m.is_empty() && m.start() == text.len() && !text.is_empty() {
                continue;
            }
            let line = index.line_of_offset(m.start()).max(1);
            if doc.line_count() == 0 {
                break;
            }
            total += 1;
            if matches.len() >= MAX_MATCHES || line == last_line && m.is_empty() {
                continue;
            }
            last_line = line;
            let column = text[index.start(line)..m.start()].chars().count() + 1;
            let context = (context > 0).then(|| MatchContext {
                before: (line.saturating_sub(context).max(1)..line)
                    .map(|k| cut(doc.line(k), MAX_CONTEXT_LINE))
                    .collect(),
                after: (line + 1..=(line + context).min(doc.line_count()))
                    .map(|k| cut(doc.line(k), MAX_CONTEXT_LINE))
                    .collect(),
            });
            matches.push(SearchMatch {
                line,
                column,
                text: cut(doc.line(line), MAX_CONTEXT_LINE),
                context,
                nearest_heading: None,
            });
        }
        (matches, total)
    }

    fn piece() -> impl Strategy<Value = &'static str> {
        prop::sample::select(vec![
            "a", "b", "ab", "é", "\n", "\r\n", "\r", " ", "a\n", "# a\n", "😀",
        ])
    }

    proptest! {
        #[test]
        fn counting_lines_from_match_to_match_agrees_with_the_line_index(
            pieces in prop::collection::vec(piece(), 0..40),
            query in prop::sample::select(vec!["a", "b", "$", "^", "", "a\\s+b", "\\r", "a|é", "(?s).", "a*"]),
            context in 0usize..3,
        ) {
            let text: String = pieces.concat();
            let doc = Document::from_utf8(text.clone(), false);
            let re = RegexBuilder::new(query)
                .multi_line(true)
                .crlf(true)
                .build()
                .unwrap();
            let mut told = Vec::new();
            let found = find_matches(doc.text(), &re, context, |line| told.push(line));
            let expected = by_index(&doc, &re, context);
            prop_assert_eq!(
                serde_json::to_value(&found.0).unwrap(),
                serde_json::to_value(&expected.0).unwrap(),
                "{:?} in {:?}", query, text
            );
            prop_assert_eq!(found.1, expected.1);
            let index = doc.lines();
            prop_assert_eq!(found.2.lines, index.len());
            prop_assert_eq!(found.2.eol_style(), index.eol_style(&text));
            prop_assert_eq!(told, vec![expected.0.last().map_or(0, |m| m.line)]);
        }
    }

    #[test]
    fn the_last_line_shown_is_told_when_the_limit_is_reached() {
        let text = "x\n".repeat(MAX_MATCHES + 10);
        let doc = Document::from_utf8(text, false);
        let re = regex::Regex::new("x").unwrap();
        let mut told = Vec::new();
        let (matches, total, _) = find_matches(doc.text(), &re, 0, |line| told.push(line));
        assert_eq!((matches.len(), total), (MAX_MATCHES, MAX_MATCHES + 10));
        assert_eq!(told, [MAX_MATCHES]);
    }
}
