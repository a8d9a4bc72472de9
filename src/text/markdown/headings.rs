//! Section headings: their text, explicit ids and where they sit.
//!
//! Only top-level headings count as section headings; a heading inside a block
//! quote or a list item does not split the document into sections.

use std::borrow::Cow;

use schemars::JsonSchema;
use serde::Serialize;

/// One top-level heading.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Heading {
    /// 1 to 6.
    pub level: u8,
    /// The heading's text as written, without the `#` markers, ATX closing
    /// `#`s or a trailing `{#id}`; the lines of a setext heading are joined
    /// with a space.
    pub text: String,
    /// First line of the heading.
    pub line: usize,
    /// Last line of the heading: `line` for ATX, the underline for setext.
    pub last_line: usize,
    /// Whether it is a setext heading (text underlined with `===` or `---`).
    pub setext: bool,
    /// The id given with a trailing `{#id}`, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The GitHub-style anchor slug, made unique within the document.
    pub slug: String,
    /// Last line of the section, child sections included: the line before the
    /// next heading of the same or a higher level, or the document's last line.
    pub section_end: usize,
    /// Last non-blank line of the section (`last_line` when the section has no
    /// content); text appended to the section goes right after it.
    pub content_end: usize,
}

impl Heading {
    /// The heading as an agent would write it: `## Setup`.
    pub fn display(&self) -> String {
        format!("{} {}", "#".repeat(usize::from(self.level)), self.text)
    }
}

/// A heading as the block scanner found it, before ids, slugs and sections.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RawHeading<'t> {
    /// 1 to 6.
    pub level: u8,
    /// ATX: everything after the opening `#`s; setext: the trimmed lines
    /// joined with a space.
    pub raw: Cow<'t, str>,
    /// First line.
    pub line: usize,
    /// Last line.
    pub last_line: usize,
    /// Whether it is a setext heading.
    pub setext: bool,
    /// The last non-blank line before `line` (0 when there is none), which is
    /// where the previous section's content ends.
    pub nonblank_before: usize,
}

/// Splits a heading's raw text into its display text and explicit id.
pub(crate) fn heading_text(raw: &str, setext: bool) -> (String, Option<String>) {
    let text = if setext {
        trim_spaces(raw)
    } else {
        atx_text(raw)
    };
    let (text, id) = split_custom_id(text);
    (text.to_string(), id.map(str::to_string))
}

/// The content of an ATX heading: trimmed, without the optional closing
/// sequence of `#`s (which must be preceded by a space or tab).
pub(crate) fn atx_text(after_marker: &str) -> &str {
    let text = trim_spaces(after_marker);
    let without_hashes = text.trim_end_matches('#');
    if without_hashes.is_empty() {
        return "";
    }
    if without_hashes.len() < text.len() && without_hashes.ends_with(is_space) {
        return trim_end_spaces(without_hashes);
    }
    text
}

/// Splits a trailing `{#id}` off a heading text. The id may not contain
/// whitespace or braces, and the brace must start the text or follow a space.
pub(crate) fn split_custom_id(text: &str) -> (&str, Option<&str>) {
    let Some(body) = text.strip_suffix('}') else {
        return (text, None);
    };
    let Some(open) = body.rfind("{#") else {
        return (text, None);
    };
    let id = &body[open + 2..];
    let valid_id = !id.is_empty() && !id.contains(|c: char| c.is_whitespace() || c == '{');
    let before = &text[..open];
    if !valid_id || !(before.is_empty() || before.ends_with(is_space)) {
        return (text, None);
    }
    (trim_end_spaces(before), Some(id))
}

/// Spaces and tabs, the only whitespace CommonMark trims around headings.
fn is_space(c: char) -> bool {
    c == ' ' || c == '\t'
}

/// `text` without leading and trailing spaces and tabs.
pub(crate) fn trim_spaces(text: &str) -> &str {
    let start = text
        .bytes()
        .position(|b| b != b' ' && b != b'\t')
        .unwrap_or(text.len());
    trim_end_spaces(&text[start..])
}

/// `text` without trailing spaces and tabs.
fn trim_end_spaces(text: &str) -> &str {
    let end = text
        .bytes()
        .rposition(|b| b != b' ' && b != b'\t')
        .map_or(0, |last| last + 1);
    &text[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atx_closing_sequences() {
        assert_eq!(atx_text(" Title"), "Title");
        assert_eq!(atx_text(" Title ##  "), "Title");
        assert_eq!(atx_text(" Title#"), "Title#");
        assert_eq!(atx_text(" Title \\#"), "Title \\#");
        assert_eq!(atx_text(" ###"), "");
        assert_eq!(atx_text(""), "");
        assert_eq!(atx_text(" C# and F#"), "C# and F#");
        assert_eq!(atx_text("\tTabs\t#\t"), "Tabs");
    }

    #[test]
    fn custom_ids() {
        assert_eq!(split_custom_id("Title {#intro}"), ("Title", Some("intro")));
        assert_eq!(split_custom_id("{#only}"), ("", Some("only")));
        assert_eq!(split_custom_id("Title{#glued}"), ("Title{#glued}", None));
        assert_eq!(split_custom_id("Title {#}"), ("Title {#}", None));
        assert_eq!(split_custom_id("Title {#a b}"), ("Title {#a b}", None));
        assert_eq!(split_custom_id("Set {x}"), ("Set {x}", None));
        assert_eq!(
            heading_text(" Title {#custom-id} ##", false),
            ("Title".to_string(), Some("custom-id".to_string()))
        );
        assert_eq!(
            heading_text("Two lines {#x}", true),
            ("Two lines".to_string(), Some("x".to_string()))
        );
    }
}
