//! CommonMark HTML blocks: how they start and where they end.
//!
//! All seven kinds of the specification are recognised, because inside any of
//! them a `#` line is raw HTML, not a heading:
//!
//! 1. `<script`, `<pre`, `<style`, `<textarea` until the matching closing tag;
//! 2. `<!--` until `-->`;
//! 3. `<?` until `?>`;
//! 4. `<!` and a letter until `>`;
//! 5. `<![CDATA[` until `]]>`;
//! 6. a known block-level tag (`<div`, `</table`, …) until a blank line;
//! 7. any other complete opening or closing tag alone on its line, until a blank
//!    line; this kind cannot interrupt a paragraph. As in the reference
//!    implementation, `</script>` alone on a line is of this kind.

/// Which of the seven kinds of HTML block is open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum HtmlKind {
    /// `<script>`, `<pre>`, `<style>` or `<textarea>`.
    Raw,
    /// `<!-- … -->`.
    Comment,
    /// `<? … ?>`.
    ProcessingInstruction,
    /// `<!DOCTYPE …>` and other declarations.
    Declaration,
    /// `<![CDATA[ … ]]>`.
    Cdata,
    /// A known block-level tag.
    BlockTag,
    /// Any other complete tag alone on its line.
    OtherTag,
}

impl HtmlKind {
    /// Whether the block ends at (before) the next blank line.
    pub(crate) fn ends_at_blank_line(self) -> bool {
        matches!(self, HtmlKind::BlockTag | HtmlKind::OtherTag)
    }

    /// Whether `line` (from where the block's content starts on it) contains
    /// the end marker, which makes this the block's last line.
    pub(crate) fn ends_on(self, line: &[u8]) -> bool {
        match self {
            HtmlKind::Raw => RAW_TAGS.iter().any(|tag| contains_closing_tag(line, tag)),
            HtmlKind::Comment => memchr::memmem::find(line, b"-->").is_some(),
            HtmlKind::ProcessingInstruction => memchr::memmem::find(line, b"?>").is_some(),
            HtmlKind::Declaration => memchr::memchr(b'>', line).is_some(),
            HtmlKind::Cdata => memchr::memmem::find(line, b"]]>").is_some(),
            HtmlKind::BlockTag | HtmlKind::OtherTag => false,
        }
    }

    /// Whether lines of this block are ordinary HTML, where an `<a id>` is a
    /// real anchor (not a comment, script or declaration).
    pub(crate) fn holds_markup(self) -> bool {
        matches!(self, HtmlKind::BlockTag | HtmlKind::OtherTag)
    }
}

/// Tags whose content is raw text, for kind 1.
const RAW_TAGS: [&[u8]; 4] = [b"script", b"pre", b"style", b"textarea"];

/// Block-level tag names of kind 6, from the CommonMark specification.
const BLOCK_TAGS: [&[u8]; 62] = [
    b"address",
    b"article",
    b"aside",
    b"base",
    b"basefont",
    b"blockquote",
    b"body",
    b"caption",
    b"center",
    b"col",
    b"colgroup",
    b"dd",
    b"details",
    b"dialog",
    b"dir",
    b"div",
    b"dl",
    b"dt",
    b"fieldset",
    b"figcaption",
    b"figure",
    b"footer",
    b"form",
    b"frame",
    b"frameset",
    b"h1",
    b"h2",
    b"h3",
    b"h4",
    b"h5",
    b"h6",
    b"head",
    b"header",
    b"hr",
    b"html",
    b"iframe",
    b"legend",
    b"li",
    b"link",
    b"main",
    b"menu",
    b"menuitem",
    b"nav",
    b"noframes",
    b"ol",
    b"optgroup",
    b"option",
    b"p",
    b"param",
    b"search",
    b"section",
    b"summary",
    b"table",
    b"tbody",
    b"td",
    b"tfoot",
    b"th",
    b"thead",
    b"title",
    b"tr",
    b"track",
    b"ul",
];

/// The kind of HTML block that `rest` (a line from its first non-space byte)
/// starts, if any. `in_paragraph` tells whether a paragraph is open, which kind
/// 7 cannot interrupt.
pub(crate) fn html_block_start(rest: &[u8], in_paragraph: bool) -> Option<HtmlKind> {
    if rest.first() != Some(&b'<') {
        return None;
    }
    let after = &rest[1..];
    if let Some(name_len) = tag_name_len(after)
        && RAW_TAGS
            .iter()
            .any(|tag| after[..name_len].eq_ignore_ascii_case(tag))
        && matches!(after.get(name_len), None | Some(b' ' | b'\t' | b'>'))
    {
        return Some(HtmlKind::Raw);
    }
    if after.starts_with(b"!--") {
        return Some(HtmlKind::Comment);
    }
    if after.starts_with(b"?") {
        return Some(HtmlKind::ProcessingInstruction);
    }
    if after.starts_with(b"![CDATA[") {
        return Some(HtmlKind::Cdata);
    }
    if after.first() == Some(&b'!') && after.get(1).is_some_and(u8::is_ascii_alphabetic) {
        return Some(HtmlKind::Declaration);
    }
    let (closing, name_start) = match after.first() {
        Some(b'/') => (true, &after[1..]),
        _ => (false, after),
    };
    if let Some(name_len) = tag_name_len(name_start) {
        let name = &name_start[..name_len];
        let next = &name_start[name_len..];
        let ends_name = matches!(next, [] | [b' ' | b'\t' | b'>', ..] | [b'/', b'>', ..]);
        if ends_name && BLOCK_TAGS.iter().any(|tag| name.eq_ignore_ascii_case(tag)) {
            return Some(HtmlKind::BlockTag);
        }
    }
    if in_paragraph {
        return None;
    }
    let tag_len = if closing {
        closing_tag_len(rest)
    } else {
        opening_tag_len(rest)
    }?;
    if rest[tag_len..].iter().all(|&b| b == b' ' || b == b'\t') {
        Some(HtmlKind::OtherTag)
    } else {
        None
    }
}

/// Length of a tag name (`[A-Za-z][A-Za-z0-9-]*`) at the start of `bytes`.
fn tag_name_len(bytes: &[u8]) -> Option<usize> {
    if !bytes.first()?.is_ascii_alphabetic() {
        return None;
    }
    Some(
        bytes
            .iter()
            .position(|&b| !(b.is_ascii_alphanumeric() || b == b'-'))
            .unwrap_or(bytes.len()),
    )
}

/// Length of a complete opening tag (`<name attr="v" … />`) at the start of
/// `bytes`.
fn opening_tag_len(bytes: &[u8]) -> Option<usize> {
    let mut i = 1 + tag_name_len(bytes.get(1..)?)?;
    loop {
        let spaces = count_spaces(&bytes[i..]);
        let after_spaces = i + spaces;
        match bytes.get(after_spaces) {
            Some(b'>') => return Some(after_spaces + 1),
            Some(b'/') if bytes.get(after_spaces + 1) == Some(&b'>') => {
                return Some(after_spaces + 2);
            }
            Some(&b) if spaces > 0 && (b.is_ascii_alphabetic() || b == b'_' || b == b':') => {
                i = after_spaces + attribute_len(&bytes[after_spaces..])?;
            }
            _ => return None,
        }
    }
}

/// Length of one attribute (name and optional value) at the start of `bytes`.
fn attribute_len(bytes: &[u8]) -> Option<usize> {
    let name_len = bytes
        .iter()
        .position(|&b| !(b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b':' | b'-')))
        .unwrap_or(bytes.len());
    let mut i = name_len;
    let before_eq = i + count_spaces(&bytes[i..]);
    if bytes.get(before_eq) != Some(&b'=') {
        return Some(i);
    }
    i = before_eq + 1;
    i += count_spaces(&bytes[i..]);
    match bytes.get(i)? {
        quote @ (b'"' | b'\'') => {
            let close = memchr::memchr(*quote, &bytes[i + 1..])?;
            Some(i + 1 + close + 1)
        }
        _ => {
            let len = bytes[i..]
                .iter()
                .position(|&b| matches!(b, b'"' | b'\'' | b'=' | b'<' | b'>' | b'`') || b <= b' ')
                .unwrap_or(bytes.len() - i);
            if len == 0 { None } else { Some(i + len) }
        }
    }
}

/// Length of a complete closing tag (`</name >`) at the start of `bytes`.
fn closing_tag_len(bytes: &[u8]) -> Option<usize> {
    let mut i = 2 + tag_name_len(bytes.get(2..)?)?;
    i += count_spaces(&bytes[i..]);
    (bytes.get(i) == Some(&b'>')).then_some(i + 1)
}

/// Number of leading spaces and tabs.
fn count_spaces(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .position(|&b| b != b' ' && b != b'\t')
        .unwrap_or(bytes.len())
}

/// Whether `line` contains `</tag>`, ignoring ASCII case.
fn contains_closing_tag(line: &[u8], tag: &[u8]) -> bool {
    memchr::memmem::find_iter(line, b"</").any(|at| {
        let name = &line[at + 2..];
        name.len() > tag.len()
            && name[..tag.len()].eq_ignore_ascii_case(tag)
            && name[tag.len()] == b'>'
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start(line: &str) -> Option<HtmlKind> {
        html_block_start(line.as_bytes(), false)
    }

    #[test]
    fn recognises_the_seven_kinds() {
        assert_eq!(start("<script>"), Some(HtmlKind::Raw));
        assert_eq!(start("<PRE class=x>"), Some(HtmlKind::Raw));
        assert_eq!(start("<!-- note"), Some(HtmlKind::Comment));
        assert_eq!(start("<?php"), Some(HtmlKind::ProcessingInstruction));
        assert_eq!(start("<!DOCTYPE html>"), Some(HtmlKind::Declaration));
        assert_eq!(start("<![CDATA[x"), Some(HtmlKind::Cdata));
        assert_eq!(start("<div>"), Some(HtmlKind::BlockTag));
        assert_eq!(start("</TABLE>"), Some(HtmlKind::BlockTag));
        assert_eq!(start("<details open>"), Some(HtmlKind::BlockTag));
        assert_eq!(
            start("<custom-tag a=\"1\" b='2' c=3 d>"),
            Some(HtmlKind::OtherTag)
        );
        assert_eq!(start("</custom>  "), Some(HtmlKind::OtherTag));
        assert_eq!(start("<img src=x/>"), Some(HtmlKind::OtherTag));
        // a closing raw tag does not start kind 1; alone on a line it is kind 7
        assert_eq!(start("</script>"), Some(HtmlKind::OtherTag));
        // not kind 1 (the name is longer), but a complete tag alone: kind 7
        assert_eq!(start("<scripts>"), Some(HtmlKind::OtherTag));
    }

    #[test]
    fn rejects_what_is_not_an_html_block() {
        assert_eq!(start("<scripts> x"), None);
        assert_eq!(start("<divx"), None);
        assert_eq!(start("<custom> text"), None);
        assert_eq!(start("<a href=\"x\">link</a>"), None);
        assert_eq!(start("<http://example.com>"), None);
        assert_eq!(start("< div>"), None);
        assert_eq!(start("<custom a=>"), None);
        assert_eq!(html_block_start(b"<custom>", true), None);
        assert_eq!(html_block_start(b"<div>", true), Some(HtmlKind::BlockTag));
    }

    #[test]
    fn end_conditions() {
        assert!(HtmlKind::Comment.ends_on(b"<!-- x -->"));
        assert!(HtmlKind::Comment.ends_on(b"<!-->"));
        assert!(!HtmlKind::Comment.ends_on(b"<!-- x --"));
        assert!(HtmlKind::Raw.ends_on(b"x </STYLE> y"));
        assert!(!HtmlKind::Raw.ends_on(b"</styles>"));
        assert!(HtmlKind::Declaration.ends_on(b"<!DOCTYPE html>"));
        assert!(!HtmlKind::BlockTag.ends_on(b"</div>"));
    }
}
