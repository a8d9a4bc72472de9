//! Excerpts of a document for responses: numbered lines, the context lines
//! around an edit, and short previews of long text.
//!
//! ```
//! use mcp_server_text::text::document::Document;
//! use mcp_server_text::text::edit::LineSpan;
//! use mcp_server_text::text::excerpt::{context_around, preview};
//!
//! let doc = Document::decode(b"a\nb\nc\nd\ne\n".to_vec(), None).unwrap();
//! let ctx = context_around(&doc, LineSpan::new(3, 3), 1);
//! assert_eq!((ctx.start, ctx.before, ctx.after), (2, vec!["b".to_string()], vec!["d".to_string()]));
//! assert_eq!(preview("x\ny\nz", 2, 100), "x\ny\n… (1 more line)");
//! ```

use serde::Serialize;

use super::document::Document;
use super::edit::LineSpan;

/// Lines of context shown before and after an edit.
pub const CONTEXT_LINES: usize = 3;

/// Longest line text shown in context; longer lines are cut with `…`.
pub const MAX_CONTEXT_LINE: usize = 500;

/// One line with its 1-based number.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct NumberedLine {
    /// 1-based line number.
    pub number: usize,
    /// The line's text, without its ending.
    pub text: String,
}

/// The lines just before and just after a span of the edited file, as plain
/// text with one line number: the lines are consecutive, so numbering each
/// would say the same thing again and again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct ContextLines {
    /// The number of the first line of `before`; `after` starts right after
    /// the span (the edited lines).
    pub start: usize,
    /// Up to three lines before the span.
    pub before: Vec<String>,
    /// Up to three lines after the span.
    pub after: Vec<String>,
}

/// `n` lines before and after `span` (which may be empty: `end == start - 1`).
pub fn context_around(doc: &Document, span: LineSpan, n: usize) -> ContextLines {
    let count = doc.line_count();
    let first_before = span.start.saturating_sub(n).max(1);
    let before = (first_before..span.start.min(count + 1))
        .map(|k| line_text(doc, k))
        .collect();
    let after_start = span.end + 1;
    let after = (after_start.max(1)..=(span.end + n).min(count))
        .map(|k| line_text(doc, k))
        .collect();
    ContextLines {
        start: first_before,
        before,
        after,
    }
}

/// Line `k` of `doc`, cut to [`MAX_CONTEXT_LINE`] characters.
fn line_text(doc: &Document, k: usize) -> String {
    cut(doc.line(k), MAX_CONTEXT_LINE)
}

/// Line `k` of `doc`, cut to [`MAX_CONTEXT_LINE`] characters.
pub fn numbered(doc: &Document, k: usize) -> NumberedLine {
    NumberedLine {
        number: k,
        text: cut(doc.line(k), MAX_CONTEXT_LINE),
    }
}

/// `s` cut to at most `max_chars` characters, with `…` when cut.
pub fn cut(s: &str, max_chars: usize) -> String {
    match s.char_indices().nth(max_chars) {
        Some((at, _)) => format!("{}…", &s[..at]),
        None => s.to_string(),
    }
}

/// `s` cut to at most `max_chars` characters that show byte offset `at`: the
/// text starts a fifth of `max_chars` before `at`, with `…` where it was cut.
/// A short `s` is returned whole.
pub fn cut_around(s: &str, at: usize, max_chars: usize) -> String {
    if s.char_indices().nth(max_chars).is_none() {
        return s.to_string();
    }
    let mut at = at.min(s.len());
    while !s.is_char_boundary(at) {
        at -= 1;
    }
    let start = s[..at]
        .char_indices()
        .rev()
        .take(max_chars / 5)
        .last()
        .map_or(at, |(i, _)| i);
    if start == 0 {
        return cut(s, max_chars);
    }
    format!("…{}", cut(&s[start..], max_chars))
}

/// Most characters of a caller's argument that a message quotes back.
pub const MAX_QUOTED: usize = 100;

/// A caller's argument as a message may quote it: whole when short, else
/// its start and its length, so that an error never echoes a huge value.
///
/// ```
/// use mcp_server_text::text::excerpt::brief;
///
/// assert_eq!(brief("## Setup"), "## Setup");
/// assert_eq!(brief(&"ab".repeat(100)), format!("{}… (200 characters)", "ab".repeat(50)));
/// ```
pub fn brief(s: &str) -> String {
    match s.char_indices().nth(MAX_QUOTED) {
        Some((at, _)) => format!("{}… ({} characters)", &s[..at], s.chars().count()),
        None => s.to_string(),
    }
}

/// `message` with its middle left out when it has more than `max_chars`
/// characters: for messages that embed values they do not control, such as
/// a parser's error, whose useful part is often at the end.
///
/// ```
/// use mcp_server_text::text::excerpt::clip_middle;
///
/// let long = format!("invalid type: string \"{}\", expected a boolean", "x".repeat(1000));
/// let clipped = clip_middle(&long, 100);
/// assert!(clipped.starts_with("invalid type: string \"xxx"));
/// assert!(clipped.ends_with("xxx\", expected a boolean"));
/// assert!(clipped.contains("… (943 characters left out) …"));
/// ```
pub fn clip_middle(message: &str, max_chars: usize) -> String {
    let count = message.chars().count();
    if count <= max_chars {
        return message.to_string();
    }
    let keep = max_chars / 2;
    let head_end = message
        .char_indices()
        .nth(keep)
        .map_or(message.len(), |(i, _)| i);
    let tail_start = message
        .char_indices()
        .nth(count - keep)
        .map_or(message.len(), |(i, _)| i);
    let left = count - 2 * keep;
    let plural = if left == 1 { "" } else { "s" };
    format!(
        "{} … ({left} character{plural} left out) … {}",
        &message[..head_end],
        &message[tail_start..]
    )
}

/// A preview of `text`: at most `max_lines` lines and `max_chars` characters,
/// saying how much was left out.
pub fn preview(text: &str, max_lines: usize, max_chars: usize) -> String {
    let lines: Vec<&str> = text.split('\n').collect();
    let shown: Vec<&str> = lines.iter().take(max_lines).copied().collect();
    let mut out = cut(&shown.join("\n"), max_chars);
    let hidden = lines.len().saturating_sub(shown.len());
    if hidden > 0 {
        let plural = if hidden == 1 { "" } else { "s" };
        out.push_str(&format!("\n… ({hidden} more line{plural})"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn context_at_the_edges() {
        let doc = Document::decode(b"1\n2\n3\n4\n5".to_vec(), None).unwrap();
        let words = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let ctx = context_around(&doc, LineSpan::new(1, 2), 3);
        assert_eq!(
            ctx,
            ContextLines {
                start: 1,
                before: vec![],
                after: words(&["3", "4", "5"])
            }
        );
        let ctx = context_around(&doc, LineSpan::new(5, 5), 3);
        assert_eq!(
            ctx,
            ContextLines {
                start: 2,
                before: words(&["2", "3", "4"]),
                after: vec![]
            }
        );
        // An empty span after a deletion of the last lines.
        let ctx = context_around(&doc, LineSpan::new(6, 5), 2);
        assert_eq!(
            ctx,
            ContextLines {
                start: 4,
                before: words(&["4", "5"]),
                after: vec![]
            }
        );
        // An empty span in the middle: after starts where the span would.
        let ctx = context_around(&doc, LineSpan::new(3, 2), 1);
        assert_eq!(
            ctx,
            ContextLines {
                start: 2,
                before: words(&["2"]),
                after: words(&["3"])
            }
        );
    }

    #[test]
    fn cutting_counts_characters() {
        assert_eq!(cut("héllo", 2), "hé…");
        assert_eq!(cut_around("héllo", 1, 5), "héllo");
        assert_eq!(cut_around("0123456789abcdefghij", 15, 10), "…defghij");
        assert_eq!(cut_around("0123456789abcdefghij", 1, 10), "0123456789…");
        assert_eq!(cut_around("ééééééééééé", 15, 5), "…ééééé");
        assert_eq!(cut_around("0123456789abcdefghij", 5, 10), "…3456789abc…");
        assert_eq!(cut("hé", 2), "hé");
        assert_eq!(preview("a\nb", 5, 100), "a\nb");
        assert_eq!(brief(&"é".repeat(100)), "é".repeat(100));
        assert_eq!(
            brief(&"é".repeat(101)),
            format!("{}… (101 characters)", "é".repeat(100))
        );
        assert_eq!(clip_middle("abcdef", 6), "abcdef");
        assert_eq!(
            clip_middle("abcdefg", 6),
            "abc … (1 character left out) … efg"
        );
        assert_eq!(preview("a\nb\nc\nd", 2, 100), "a\nb\n… (2 more lines)");
    }
}
