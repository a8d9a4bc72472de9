//! What a link points at: somewhere outside (a URL with a scheme), a place
//! in the same document (`#fragment`), a file by path (`../notes/a.md#part`)
//! or an Obsidian note by name (`garden#Tasks`).
//!
//! Paths and fragments of Markdown links are percent-decoded
//! (`my%20notes.md` is the file `my notes.md`); a query (`?v=2`) is dropped.
//! Wikilink targets are taken as written: Obsidian does not percent-encode.
//!
//! ```
//! use mcp_server_text::text::markdown::{LinkKind, LinkTarget, WikiFragment, classify};
//!
//! assert_eq!(classify(LinkKind::Inline, "https://example.com/a.md"), LinkTarget::External);
//! assert_eq!(
//!     classify(LinkKind::Inline, "../my%20notes.md#plan"),
//!     LinkTarget::Path { path: "../my notes.md".into(), fragment: Some("plan".into()) }
//! );
//! assert_eq!(
//!     classify(LinkKind::Wikilink, "garden#Tasks"),
//!     LinkTarget::Note { name: "garden".into(), fragment: Some(WikiFragment::Heading(vec!["Tasks".into()])) }
//! );
//! ```

use percent_encoding::percent_decode_str;

use super::links::LinkKind;

/// Where a link points.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkTarget {
    /// A URL with a scheme (`https:`, `mailto:`, …) or a network path
    /// (`//host/…`): not checked.
    External,
    /// An empty target: the document itself.
    Empty,
    /// `#fragment` in the same document (decoded, without `#`).
    Fragment(String),
    /// A file or folder by path, relative to the document's folder or, with a
    /// leading `/`, to the root.
    Path {
        /// The decoded path, as written otherwise (`./`, `../` kept).
        path: String,
        /// The decoded fragment, without `#`.
        fragment: Option<String>,
    },
    /// An Obsidian note (or any file) by name or path, from a wikilink.
    Note {
        /// The name as written, without fragment; empty for `[[#Heading]]`.
        name: String,
        /// What follows the first `#`.
        fragment: Option<WikiFragment>,
    },
}

/// The part of a wikilink after `#`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WikiFragment {
    /// `#Heading`, or `#Heading#Subheading` (each level's text).
    Heading(Vec<String>),
    /// `#^block-id`: a block marked with `^block-id` at the end of a line.
    Block(String),
}

/// Classifies `target`, written in a link of `kind`.
pub fn classify(kind: LinkKind, target: &str) -> LinkTarget {
    if kind == LinkKind::Autolink {
        return LinkTarget::External;
    }
    if kind.is_wiki() {
        return note(target);
    }
    let target = target.trim();
    if target.is_empty() {
        return LinkTarget::Empty;
    }
    if has_scheme(target) || target.starts_with("//") {
        return LinkTarget::External;
    }
    let (rest, fragment) = match target.split_once('#') {
        Some((rest, fragment)) => (rest, Some(decode(fragment))),
        None => (target, None),
    };
    let path = rest.split_once('?').map_or(rest, |(path, _)| path);
    if path.is_empty() {
        return match fragment {
            Some(fragment) => LinkTarget::Fragment(fragment),
            None => LinkTarget::Empty,
        };
    }
    LinkTarget::Path {
        path: decode(path),
        fragment,
    }
}

/// A wikilink's target taken apart.
fn note(target: &str) -> LinkTarget {
    let (name, fragment) = match target.split_once('#') {
        Some((name, fragment)) => {
            let fragment = match fragment.strip_prefix('^') {
                Some(block) => WikiFragment::Block(block.trim().to_string()),
                None => WikiFragment::Heading(
                    fragment
                        .split('#')
                        .map(str::trim)
                        .filter(|part| !part.is_empty())
                        .map(str::to_string)
                        .collect(),
                ),
            };
            (name, Some(fragment))
        }
        None => (target, None),
    };
    LinkTarget::Note {
        name: name.trim().to_string(),
        fragment,
    }
}

/// Whether `target` starts with a URL scheme. A single letter before `:` is a
/// Windows drive (`C:/notes`), not a scheme.
pub fn has_scheme(target: &str) -> bool {
    let Some(colon) = target.find(':') else {
        return false;
    };
    let scheme = &target[..colon];
    scheme.len() >= 2
        && scheme.len() <= 32
        && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
}

/// Percent-decodes `text`; text that does not decode to UTF-8 is kept as
/// written.
pub fn decode(text: &str) -> String {
    if !text.contains('%') {
        return text.to_string();
    }
    match percent_decode_str(text).decode_utf8() {
        Ok(decoded) => decoded.into_owned(),
        Err(_) => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(path: &str, fragment: Option<&str>) -> LinkTarget {
        LinkTarget::Path {
            path: path.into(),
            fragment: fragment.map(str::to_string),
        }
    }

    #[test]
    fn external_targets() {
        for target in [
            "https://example.com",
            "mailto:me@example.com",
            "obsidian://open?vault=x",
            "//cdn.example.com/a.png",
            "ftp://x",
        ] {
            assert_eq!(classify(LinkKind::Inline, target), LinkTarget::External);
        }
        assert_eq!(
            classify(LinkKind::Autolink, "me@example.com"),
            LinkTarget::External
        );
    }

    #[test]
    fn paths_fragments_and_queries() {
        assert_eq!(classify(LinkKind::Inline, "a.md"), path("a.md", None));
        assert_eq!(
            classify(LinkKind::Image, "img/a%20b.png?raw=1"),
            path("img/a b.png", None)
        );
        assert_eq!(
            classify(LinkKind::Definition, "/docs/x.md#Caf%C3%A9"),
            path("/docs/x.md", Some("Café"))
        );
        assert_eq!(
            classify(LinkKind::Inline, "C:/notes/a.md"),
            path("C:/notes/a.md", None)
        );
        assert_eq!(
            classify(LinkKind::Inline, "#setup"),
            LinkTarget::Fragment("setup".into())
        );
        assert_eq!(classify(LinkKind::Inline, ""), LinkTarget::Empty);
        assert_eq!(classify(LinkKind::Inline, "?x=1"), LinkTarget::Empty);
        // Not UTF-8 once decoded: kept as written.
        assert_eq!(classify(LinkKind::Inline, "a%FF.md"), path("a%FF.md", None));
    }

    #[test]
    fn wikilink_targets() {
        let note = |name: &str, fragment| LinkTarget::Note {
            name: name.into(),
            fragment,
        };
        let heading = |parts: &[&str]| {
            Some(WikiFragment::Heading(
                parts.iter().map(|p| p.to_string()).collect(),
            ))
        };
        assert_eq!(classify(LinkKind::Wikilink, "garden"), note("garden", None));
        assert_eq!(
            classify(LinkKind::Wikilink, "projects/garden#Plan#Beds"),
            note("projects/garden", heading(&["Plan", "Beds"]))
        );
        assert_eq!(
            classify(LinkKind::Embed, "garden#^abc123"),
            note("garden", Some(WikiFragment::Block("abc123".into())))
        );
        assert_eq!(
            classify(LinkKind::Wikilink, "#Tasks"),
            note("", heading(&["Tasks"]))
        );
        // Wikilinks are names, not URLs.
        assert_eq!(
            classify(LinkKind::Wikilink, "my%20note"),
            note("my%20note", None)
        );
    }
}
