//! Obsidian tags: `#tag` and `#nested/tag` in a note's text, and the `tags`
//! (or `tag`) property of its frontmatter, a list or a string.
//!
//! Inline, a tag is `#` at the start of a line or after whitespace, followed
//! by letters, digits, `_`, `-` and `/`, with at least one character that is
//! not a digit (`#2026` is not a tag). Text in code (fenced, indented or
//! inline), in links and HTML (blocks, and text inside inline elements), in
//! Obsidian comments (`%% … %%`), and a heading's own `#` marks are not tags;
//! a `#` inside a URL or a wikilink never follows whitespace. Tags compare
//! ignoring case, and `project` also names its children (`project/alpha`).
//!
//! ```
//! use mcp_server_text::text::lines::LineIndex;
//! use mcp_server_text::text::markdown::{inline_tags, renamed_tag};
//!
//! let text = "# Plan #garden\n\nSee #project/alpha/x, not `#code` or https://x.example/#frag.\n";
//! let tags = inline_tags(text, &LineIndex::new(text));
//! let names: Vec<&str> = tags.iter().map(|t| t.name.as_str()).collect();
//! assert_eq!(names, ["garden", "project/alpha/x"]);
//! assert_eq!(renamed_tag("Project/Alpha/x", "project/alpha", "project/beta").as_deref(), Some("project/beta/x"));
//! ```

use std::ops::Range;

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
use serde_json::Value;

use super::frontmatter;
use crate::text::lines::LineIndex;

/// One `#tag` in a note's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TagUse {
    /// The tag as written, without `#`.
    pub name: String,
    /// Its line.
    pub line: usize,
    /// The bytes of the name (after `#`).
    pub range: Range<usize>,
}

/// Whether `c` may be part of a tag's name.
pub fn is_tag_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '-' | '/')
}

/// Whether `name` (without `#`) is a valid tag.
pub fn is_tag(name: &str) -> bool {
    !name.is_empty()
        && name.chars().all(is_tag_char)
        && !name.chars().all(|c| c.is_ascii_digit() || c == '/')
}

/// The inline tags of `text` (its frontmatter skipped), in order.
pub fn inline_tags(text: &str, index: &LineIndex) -> Vec<TagUse> {
    let mut out = Vec::new();
    if !text.contains('#') {
        return out;
    }
    let body_start = match frontmatter::detect(text) {
        Some(f) if f.end_line < index.len() => index.start(f.end_line + 1),
        Some(_) => return out,
        None => 0,
    };
    let body = &text[body_start..];
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_WIKILINKS;
    // Inside code blocks, links, images, metadata and inline HTML elements
    // nothing is a tag.
    let mut hidden = 0usize;
    let mut html = 0usize;
    // Where `%%` stands in the text: comments open and close there.
    let mut percents: Vec<usize> = Vec::new();
    let bytes = text.as_bytes();
    for (event, range) in Parser::new_ext(body, options).into_offset_iter() {
        match event {
            Event::InlineHtml(tag) => html = html_depth(html, &tag),
            Event::Start(
                Tag::CodeBlock(_) | Tag::Link { .. } | Tag::Image { .. } | Tag::MetadataBlock(_),
            ) => hidden += 1,
            Event::End(
                TagEnd::CodeBlock | TagEnd::Link | TagEnd::Image | TagEnd::MetadataBlock(_),
            ) => hidden = hidden.saturating_sub(1),
            Event::Text(_) if hidden == 0 => {
                let from = body_start + range.start;
                let to = body_start + range.end;
                let mut at = from;
                while let Some(found) = memchr::memmem::find(&bytes[at..to], b"%%") {
                    percents.push(at + found);
                    at += found + 2;
                }
                if html > 0 {
                    continue;
                }
                for at in memchr::memchr_iter(b'#', &bytes[from..to]) {
                    let hash = from + at;
                    let after_space =
                        hash == 0 || matches!(bytes[hash - 1], b' ' | b'\t' | b'\n' | b'\r');
                    if !after_space {
                        continue;
                    }
                    let name_start = hash + 1;
                    let name_len: usize = text[name_start..]
                        .chars()
                        .take_while(|&c| is_tag_char(c))
                        .map(char::len_utf8)
                        .sum();
                    let name = &text[name_start..name_start + name_len];
                    if is_tag(name) {
                        out.push(TagUse {
                            name: name.to_string(),
                            line: index.line_of_offset(hash),
                            range: name_start..name_start + name_len,
                        });
                    }
                }
            }
            _ => {}
        }
    }
    out.dedup_by(|a, b| a.range == b.range);
    if !percents.is_empty() {
        // `%%` pairs bound comments; an unpaired one comments out the rest.
        let comments: Vec<Range<usize>> = percents
            .chunks(2)
            .map(|pair| pair[0]..pair.get(1).map_or(text.len(), |end| end + 2))
            .collect();
        out.retain(|t| !comments.iter().any(|c| c.contains(&t.range.start)));
    }
    out
}

/// The depth of open inline HTML elements after the tag `tag`.
fn html_depth(depth: usize, tag: &str) -> usize {
    const VOID: [&str; 8] = ["br", "img", "hr", "input", "wbr", "meta", "link", "source"];
    let tag = tag.trim();
    if tag.starts_with("</") {
        return depth.saturating_sub(1);
    }
    let name: String = tag
        .trim_start_matches('<')
        .chars()
        .take_while(char::is_ascii_alphanumeric)
        .collect::<String>()
        .to_ascii_lowercase();
    if name.is_empty() || tag.ends_with("/>") || VOID.contains(&name.as_str()) {
        depth
    } else {
        depth + 1
    }
}

/// Whether a frontmatter key holds tags.
pub fn is_tags_key(key: &str) -> bool {
    key.eq_ignore_ascii_case("tags") || key.eq_ignore_ascii_case("tag")
}

/// The tags a `tags` property holds: a list, or a string of names separated
/// by commas or spaces; a leading `#` is dropped.
pub fn tags_of_value(value: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let mut push = |s: &str| {
        let s = s.trim().trim_start_matches('#');
        if !s.is_empty() {
            out.push(s.to_string());
        }
    };
    match value {
        Value::String(s) => s.split([',', ' ']).for_each(&mut push),
        Value::Array(items) => {
            for item in items {
                match item {
                    Value::String(s) => push(s),
                    Value::Number(n) => push(&n.to_string()),
                    _ => {}
                }
            }
        }
        _ => {}
    }
    out
}

/// Whether tag `name` is `wanted` or one of its children, ignoring case.
pub fn tag_matches(name: &str, wanted: &str) -> bool {
    let name = name.to_lowercase();
    let wanted = wanted.trim_start_matches('#').to_lowercase();
    name == wanted
        || name
            .strip_prefix(&wanted)
            .is_some_and(|rest| rest.starts_with('/'))
}

/// `name` with its `from` part (itself, or a parent) renamed to `to`;
/// `None` when it is neither `from` nor one of its children.
pub fn renamed_tag(name: &str, from: &str, to: &str) -> Option<String> {
    if !tag_matches(name, from) {
        return None;
    }
    let from_len = from.trim_start_matches('#').chars().count();
    let rest: String = name.chars().skip(from_len).collect();
    Some(format!("{}{rest}", to.trim_start_matches('#')))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn names(text: &str) -> Vec<(String, usize)> {
        inline_tags(text, &LineIndex::new(text))
            .into_iter()
            .map(|t| (t.name, t.line))
            .collect()
    }

    #[test]
    fn what_is_a_tag() {
        let text = "---\ntags: [x]\n# not: a tag\n---\n\
                    # Heading #inhead\n\
                    #start and mid #mid, end#not #2026 #y2026 #a/b-c_d\n\
                    `#code` [#linktext](x.md#frag) [[note#heading]] <span>#html</span>\n\
                    \n```\n#fenced\n```\n\n    #indented\n\n\
                    https://example.com/#anchor and \\#escaped #émoji\n";
        assert_eq!(
            names(text),
            [
                ("inhead".to_string(), 5),
                ("start".to_string(), 6),
                ("mid".to_string(), 6),
                ("y2026".to_string(), 6),
                ("a/b-c_d".to_string(), 6),
                ("émoji".to_string(), 15),
            ]
        );
    }

    #[test]
    fn comments_and_html_hold_no_tags() {
        let text = "#one %% #hidden %% #two\n\n<span> #inspan </span> <br> #three\n\n\
                    %%\n#gone\n\n#also-gone\n%%\n#four\n\n<div>\n#block\n</div>\n\n%% open #rest\n";
        assert_eq!(
            names(text),
            [
                ("one".to_string(), 1),
                ("two".to_string(), 1),
                ("three".to_string(), 3),
                ("four".to_string(), 10),
            ]
        );
    }

    #[test]
    fn ranges_cover_the_name() {
        let text = "a #one\r\n#two/three\n";
        let tags = inline_tags(text, &LineIndex::new(text));
        assert_eq!(&text[tags[0].range.clone()], "one");
        assert_eq!(&text[tags[1].range.clone()], "two/three");
    }

    #[test]
    fn frontmatter_values_and_matching() {
        assert_eq!(tags_of_value(&json!(["#a", "b/c", 12])), ["a", "b/c", "12"]);
        assert_eq!(tags_of_value(&json!("a, #b c")), ["a", "b", "c"]);
        assert!(tag_matches("Project/Alpha", "project"));
        assert!(tag_matches("project", "#project"));
        assert!(!tag_matches("projects", "project"));
        assert_eq!(
            renamed_tag("project/alpha", "project/alpha", "p/b").as_deref(),
            Some("p/b")
        );
        assert_eq!(renamed_tag("project/alphabet", "project/alpha", "x"), None);
        assert!(is_tag("a1") && !is_tag("123") && !is_tag("") && !is_tag("a b"));
    }
}
