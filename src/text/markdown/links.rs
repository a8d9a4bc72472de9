//! The links of a Markdown document: inline links and images, reference-style
//! links with their definitions, autolinks, and Obsidian `[[wikilinks]]` and
//! `![[embeds]]`, each with where its target is written in the text.
//!
//! Inline syntax is decided by pulldown-cmark, a complete CommonMark parser:
//! which brackets form a link, code spans and raw HTML that hide them, and
//! reference labels are the subtle part of Markdown, and a link found where
//! none renders (or missed where one does) would make a link check lie or a
//! link update edit the wrong bytes. The frontmatter is skipped the way the
//! outline skips it, so a `title: [x](y)` value there is not a link.
//!
//! Every link carries the byte range of its target as written (for a
//! reference-style link, the range in its definition), checked against what
//! the parser read, so a rewrite can replace exactly those bytes; when the
//! written form cannot be matched (an unusual escape, a definition inside a
//! block quote split over lines) the range is `None` and the link is only
//! reported, never rewritten.
//!
//! ```
//! use mcp_server_text::text::lines::LineIndex;
//! use mcp_server_text::text::markdown::{LinkKind, parse_links};
//!
//! let text = "See [plan](../projects/garden.md#plan) and [[garden#Tasks|tasks]].\n`[no](link)`\n";
//! let links = parse_links(text, &LineIndex::new(text));
//! assert_eq!(links.len(), 2);
//! assert_eq!((links[0].kind, links[0].target.as_str()), (LinkKind::Inline, "../projects/garden.md#plan"));
//! assert_eq!(&text[links[1].target_range.clone().unwrap()], "garden#Tasks");
//! ```

use std::collections::HashMap;
use std::ops::Range;

use pulldown_cmark::{BrokenLink, CowStr, Event, LinkType, Options, Parser, Tag, TagEnd};
use schemars::JsonSchema;
use serde::Serialize;

use super::frontmatter;
use super::inline_text::character_reference;
use super::link_references::{destination_len, label_end};
use crate::text::lines::LineIndex;

/// How a link is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum LinkKind {
    /// `[text](target "title")`.
    Inline,
    /// `![alt](target)`.
    Image,
    /// `[text][label]`, `[label][]` or `[label]` (also as an image): the target
    /// comes from the label's definition.
    Reference,
    /// `[label]: target "title"`.
    Definition,
    /// `<https://example.com>` or `<me@example.com>`.
    Autolink,
    /// `[[note]]`, `[[note#Heading|alias]]`.
    Wikilink,
    /// `![[note]]`, `![[picture.png]]`.
    Embed,
}

impl LinkKind {
    /// The kind's name as replies show it.
    pub fn name(self) -> &'static str {
        match self {
            LinkKind::Inline => "inline",
            LinkKind::Image => "image",
            LinkKind::Reference => "reference",
            LinkKind::Definition => "definition",
            LinkKind::Autolink => "autolink",
            LinkKind::Wikilink => "wikilink",
            LinkKind::Embed => "embed",
        }
    }

    /// Whether the target is an Obsidian note name rather than a URL.
    pub fn is_wiki(self) -> bool {
        matches!(self, LinkKind::Wikilink | LinkKind::Embed)
    }
}

/// One link.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    /// How it is written.
    pub kind: LinkKind,
    /// Byte offset where the link starts (its `[`, `!`, `<`).
    pub start: usize,
    /// 1-based line of `start`.
    pub line: usize,
    /// 1-based column of `start`, in characters.
    pub column: usize,
    /// The target as the link means it: escapes resolved, without angle
    /// brackets, not percent-decoded; for wikilinks the part before `|`.
    /// Empty for a reference whose label has no definition.
    pub target: String,
    /// Bytes of the text holding the target as written (inside `<…>` when it
    /// is bracketed); for a reference, those of its definition.
    pub target_range: Option<Range<usize>>,
    /// Whether the target is written in angle brackets, `(<my file.md>)`.
    pub angle_brackets: bool,
    /// The label of a reference or definition.
    pub label: Option<String>,
    /// For a reference, the line of its definition; `None` when the label is
    /// not defined (a broken reference).
    pub definition_line: Option<usize>,
}

impl Link {
    /// Whether this is a reference whose label has no definition.
    pub fn is_undefined_reference(&self) -> bool {
        self.kind == LinkKind::Reference && self.definition_line.is_none()
    }
}

/// The options the links are parsed with: tables (a wikilink's `\|` in a
/// cell), footnotes and task lists (so `[^1]` and `[ ]` are not taken for
/// references) and wikilinks.
fn options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_WIKILINKS
}

/// Every link of `text` (indexed by `index`), in the order they start.
pub fn parse_links(text: &str, index: &LineIndex) -> Vec<Link> {
    let body_start = match frontmatter::detect(text) {
        Some(f) if f.end_line < index.len() => index.start(f.end_line + 1),
        Some(_) => return Vec::new(),
        None => 0,
    };
    let body = &text[body_start..];
    let mut out = Collector {
        text,
        index,
        offset: body_start,
        links: Vec::new(),
    };
    let mut broken: Vec<(Range<usize>, String)> = Vec::new();
    let mut on_broken = |link: BrokenLink<'_>| {
        // A bare `[label]` without definition is ordinary text far more
        // often than a forgotten definition (`[x]`, `[TODO]`).
        if matches!(link.link_type, LinkType::Reference | LinkType::Collapsed) {
            broken.push((link.span, link.reference.to_string()));
        }
        None::<(CowStr<'_>, CowStr<'_>)>
    };
    let mut iter = Parser::new_with_broken_link_callback(body, options(), Some(&mut on_broken))
        .into_offset_iter();
    // Open links and images, with the furthest end of what they contain.
    let mut open: Vec<(OpenLink<'_>, usize)> = Vec::new();
    let mut references: Vec<(usize, LinkType, String)> = Vec::new();
    for (event, range) in iter.by_ref() {
        match event {
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                id,
                ..
            }) => {
                let inner = range.start + 1;
                open.push((
                    OpenLink {
                        image: false,
                        link_type,
                        dest: dest_url,
                        id,
                        range,
                    },
                    inner,
                ));
            }
            Event::Start(Tag::Image {
                link_type,
                dest_url,
                id,
                ..
            }) => {
                let inner = range.start + 2;
                open.push((
                    OpenLink {
                        image: true,
                        link_type,
                        dest: dest_url,
                        id,
                        range,
                    },
                    inner,
                ));
            }
            Event::End(TagEnd::Link | TagEnd::Image) => {
                let Some((link, text_end)) = open.pop() else {
                    continue;
                };
                if let Some((_, parent_end)) = open.last_mut() {
                    *parent_end = (*parent_end).max(link.range.end);
                }
                match link.link_type {
                    LinkType::Reference
                    | LinkType::Collapsed
                    | LinkType::Shortcut
                    | LinkType::ReferenceUnknown
                    | LinkType::CollapsedUnknown
                    | LinkType::ShortcutUnknown => {
                        references.push((link.range.start, link.link_type, link.id.to_string()));
                        out.reference_placeholder(&link);
                    }
                    _ => out.direct(&link, text_end),
                }
            }
            _ => {
                if let Some((_, end)) = open.last_mut() {
                    *end = (*end).max(range.end);
                }
            }
        }
    }
    let definitions = out.definitions(iter.reference_definitions());
    out.resolve_references(&references, &definitions, iter.reference_definitions());
    drop(iter);
    for (span, label) in broken {
        out.undefined_reference(span, label);
    }
    let mut links = out.links;
    links.sort_by_key(|l| (l.start, l.kind == LinkKind::Definition));
    links.dedup_by(|a, b| a.start == b.start && a.kind == b.kind);
    links
}

/// A link or image whose end has not been seen yet.
struct OpenLink<'a> {
    image: bool,
    link_type: LinkType,
    dest: CowStr<'a>,
    id: CowStr<'a>,
    range: Range<usize>,
}

/// A definition as found in the text: its target's range and line.
struct Definition {
    target: String,
    target_range: Option<Range<usize>>,
    angle_brackets: bool,
    line: usize,
}

/// Builds the links; ranges from the parser are relative to the body, which
/// starts at `offset`.
struct Collector<'t> {
    text: &'t str,
    index: &'t LineIndex,
    offset: usize,
    links: Vec<Link>,
}

impl Collector<'_> {
    /// A link at body offset `start`, with the fields every kind has.
    fn link(&self, kind: LinkKind, start: usize, target: String) -> Link {
        let start = start + self.offset;
        let line = self.index.line_of_offset(start);
        let line_start = self.index.start(line);
        Link {
            kind,
            start,
            line,
            column: self.text[line_start..start].chars().count() + 1,
            target,
            target_range: None,
            angle_brackets: false,
            label: None,
            definition_line: None,
        }
    }

    /// An inline link or image, an autolink or a wikilink; `text_end` is
    /// where the link's text ends at the earliest (body offset).
    fn direct(&mut self, open: &OpenLink<'_>, text_end: usize) {
        let body = &self.text[self.offset..];
        let range = open.range.clone();
        let dest = open.dest.as_ref();
        let (kind, located) = match open.link_type {
            LinkType::Autolink | LinkType::Email => {
                let inner = range.start + 1..range.end.saturating_sub(1);
                let ok = body.get(inner.clone()) == Some(dest);
                (LinkKind::Autolink, ok.then_some((inner, false)))
            }
            LinkType::WikiLink { has_pothole } => {
                let kind = if open.image {
                    LinkKind::Embed
                } else {
                    LinkKind::Wikilink
                };
                let located = wiki_target(body, &range, has_pothole);
                let target = located
                    .as_ref()
                    .map_or(dest, |r| &body[r.clone()])
                    .to_string();
                let mut link = self.link(kind, range.start, target);
                link.target_range = located.map(|r| r.start + self.offset..r.end + self.offset);
                self.links.push(link);
                return;
            }
            _ => {
                let kind = if open.image {
                    LinkKind::Image
                } else {
                    LinkKind::Inline
                };
                let located = inline_destination(body, text_end, range.end)
                    .filter(|(r, _)| written_means(&body[r.clone()], dest));
                (kind, located)
            }
        };
        let mut link = self.link(kind, range.start, dest.to_string());
        if let Some((r, angle)) = located {
            link.target_range = Some(r.start + self.offset..r.end + self.offset);
            link.angle_brackets = angle;
        }
        self.links.push(link);
    }

    /// A reference; its target is filled in from the definitions later.
    fn reference_placeholder(&mut self, open: &OpenLink<'_>) {
        let mut link = self.link(LinkKind::Reference, open.range.start, String::new());
        link.label = Some(open.id.to_string());
        self.links.push(link);
    }

    /// A reference whose label has no definition.
    fn undefined_reference(&mut self, span: Range<usize>, label: String) {
        let mut link = self.link(LinkKind::Reference, span.start, String::new());
        link.label = Some(label);
        self.links.push(link);
    }

    /// Every definition, as a link of its own, keyed by where it starts in
    /// the body.
    fn definitions(&mut self, defs: &pulldown_cmark::RefDefs<'_>) -> HashMap<usize, Definition> {
        let body = &self.text[self.offset..];
        let mut found = HashMap::new();
        for (label, def) in defs.iter() {
            let located = definition_destination(body, def.span.start)
                .filter(|(r, _)| written_means(&body[r.clone()], &def.dest));
            let label_start = body[def.span.clone()]
                .find('[')
                .map_or(def.span.start, |at| def.span.start + at);
            let mut link = self.link(LinkKind::Definition, label_start, def.dest.to_string());
            link.label = Some(label.to_string());
            if let Some((r, angle)) = &located {
                link.target_range = Some(r.start + self.offset..r.end + self.offset);
                link.angle_brackets = *angle;
            }
            found.insert(
                def.span.start,
                Definition {
                    target: def.dest.to_string(),
                    target_range: link.target_range.clone(),
                    angle_brackets: link.angle_brackets,
                    line: link.line,
                },
            );
            self.links.push(link);
        }
        found
    }

    /// Fills in the targets of the references from their definitions.
    fn resolve_references(
        &mut self,
        references: &[(usize, LinkType, String)],
        definitions: &HashMap<usize, Definition>,
        defs: &pulldown_cmark::RefDefs<'_>,
    ) {
        let by_start: HashMap<usize, &str> = references
            .iter()
            .map(|(start, _, id)| (start + self.offset, id.as_str()))
            .collect();
        for link in self
            .links
            .iter_mut()
            .filter(|l| l.kind == LinkKind::Reference)
        {
            let Some(id) = by_start.get(&link.start) else {
                continue;
            };
            let normalized = normalize_label(id);
            let Some(def) = defs
                .get(id)
                .or_else(|| defs.get(&normalized))
                .and_then(|d| definitions.get(&d.span.start))
            else {
                continue;
            };
            link.target = def.target.clone();
            link.target_range = def.target_range.clone();
            link.angle_brackets = def.angle_brackets;
            link.definition_line = Some(def.line);
        }
    }
}

/// A label with its runs of whitespace collapsed, as CommonMark matches them.
fn normalize_label(label: &str) -> String {
    label.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The range of a wikilink's target in `[[target#heading|alias]]` (or an
/// embed's), without the alias. In a table the alias bar is written `\|`.
fn wiki_target(body: &str, range: &Range<usize>, has_alias: bool) -> Option<Range<usize>> {
    let link = body.get(range.clone())?;
    let open = if link.starts_with("![[") { 3 } else { 2 };
    if !link.starts_with("[[") && open == 2 || !link.ends_with("]]") || link.len() < open + 2 {
        return None;
    }
    let inner = &link[open..link.len() - 2];
    let mut end = if has_alias {
        inner.find('|')?
    } else {
        inner.len()
    };
    if has_alias && inner[..end].ends_with('\\') {
        end -= 1;
    }
    let start = range.start + open;
    Some(start..start + end)
}

/// The destination of an inline link whose text ends at or after
/// `text_end`: the range of the target as written (inside `<…>` for a
/// bracketed one) and whether it is bracketed.
fn inline_destination(
    body: &str,
    text_end: usize,
    link_end: usize,
) -> Option<(Range<usize>, bool)> {
    let bytes = body.as_bytes();
    let mut i = text_end;
    while i < link_end && bytes[i] != b']' {
        i += if bytes[i] == b'\\' { 2 } else { 1 };
    }
    if bytes.get(i + 1) != Some(&b'(') {
        return None;
    }
    i = skip_spaces_and_one_newline(bytes, i + 2);
    if i >= link_end {
        return None;
    }
    destination_at(bytes, i, link_end)
}

/// The destination of the definition that starts at `start`.
fn definition_destination(body: &str, start: usize) -> Option<(Range<usize>, bool)> {
    let bytes = body.as_bytes();
    let mut i = start;
    while i < bytes.len() && matches!(bytes[i], b' ' | b'\t') {
        i += 1;
    }
    if bytes.get(i) != Some(&b'[') {
        return None;
    }
    i = label_end(bytes, i)?;
    if bytes.get(i) != Some(&b':') {
        return None;
    }
    i = skip_spaces_and_one_newline(bytes, i + 1);
    destination_at(bytes, i, bytes.len())
}

/// The destination that starts at `at`, ending before `limit`.
fn destination_at(bytes: &[u8], at: usize, limit: usize) -> Option<(Range<usize>, bool)> {
    let rest = &bytes[at..limit];
    if rest.first() == Some(&b'<') {
        let len = destination_len(rest)?;
        return Some((at + 1..at + len - 1, true));
    }
    if rest.first() == Some(&b')') {
        return Some((at..at, false));
    }
    let len = destination_len(rest)?;
    Some((at..at + len, false))
}

/// Skips spaces and tabs, at most one line ending, then spaces and tabs.
fn skip_spaces_and_one_newline(bytes: &[u8], mut i: usize) -> usize {
    let spaces = |bytes: &[u8], mut i: usize| {
        while i < bytes.len() && matches!(bytes[i], b' ' | b'\t') {
            i += 1;
        }
        i
    };
    i = spaces(bytes, i);
    if bytes.get(i) == Some(&b'\r') && bytes.get(i + 1) == Some(&b'\n') {
        i += 1;
    }
    if bytes.get(i) == Some(&b'\n') {
        i = spaces(bytes, i + 1);
    }
    i
}

/// Whether `written` (a destination as it appears in the text) reads as
/// `meant` once backslash escapes and character references are resolved.
fn written_means(written: &str, meant: &str) -> bool {
    if written == meant {
        return true;
    }
    let mut out = String::with_capacity(written.len());
    let bytes = written.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if bytes.get(i + 1).is_some_and(u8::is_ascii_punctuation) => {
                out.push(char::from(bytes[i + 1]));
                i += 2;
            }
            b'&' => match character_reference(written, i) {
                Some((Some(c), after)) => {
                    out.push(c);
                    i = after;
                }
                Some((None, _)) => return false,
                None => {
                    out.push('&');
                    i += 1;
                }
            },
            _ => {
                let next = written[i + 1..]
                    .find(['\\', '&'])
                    .map_or(written.len(), |at| i + 1 + at);
                out.push_str(&written[i..next]);
                i = next;
            }
        }
    }
    out == meant
}

#[cfg(test)]
mod tests {
    use super::*;

    fn links(text: &str) -> Vec<Link> {
        parse_links(text, &LineIndex::new(text))
    }

    /// `(kind, line, column, target, text at target_range)` of each link.
    fn summary(text: &str) -> Vec<(LinkKind, usize, usize, String, Option<String>)> {
        links(text)
            .into_iter()
            .map(|l| {
                let written = l.target_range.map(|r| text[r].to_string());
                (l.kind, l.line, l.column, l.target, written)
            })
            .collect()
    }

    fn s(text: &str) -> String {
        text.to_string()
    }

    #[test]
    fn inline_links_images_and_autolinks() {
        let text = "See [a *b*](../x/y.md#Frag \"t\") and ![img](<my pic.png>).\n\
                    Go to <https://e.example> or <me@e.example>, [empty]() and [t](a(b)c.md).\n";
        use LinkKind::*;
        assert_eq!(
            summary(text),
            [
                (Inline, 1, 5, s("../x/y.md#Frag"), Some(s("../x/y.md#Frag"))),
                (Image, 1, 37, s("my pic.png"), Some(s("my pic.png"))),
                (
                    Autolink,
                    2,
                    7,
                    s("https://e.example"),
                    Some(s("https://e.example"))
                ),
                (Autolink, 2, 30, s("me@e.example"), Some(s("me@e.example"))),
                (Inline, 2, 46, s(""), Some(s(""))),
                (Inline, 2, 60, s("a(b)c.md"), Some(s("a(b)c.md"))),
            ]
        );
        assert!(links(text)[1].angle_brackets);
    }

    #[test]
    fn destinations_over_a_line_break_and_with_escapes() {
        let text = "[a](\n  next.md \"title\") [b](x\\_y.md) [c](a&amp;b.md)\n";
        assert_eq!(
            summary(text),
            [
                (LinkKind::Inline, 1, 1, s("next.md"), Some(s("next.md"))),
                (LinkKind::Inline, 2, 20, s("x_y.md"), Some(s("x\\_y.md"))),
                (LinkKind::Inline, 2, 33, s("a&b.md"), Some(s("a&amp;b.md"))),
            ]
        );
    }

    #[test]
    fn an_image_inside_a_link() {
        let text = "[![badge](b.svg)](https://ci.example/x)\n";
        assert_eq!(
            summary(text),
            [
                (
                    LinkKind::Inline,
                    1,
                    1,
                    s("https://ci.example/x"),
                    Some(s("https://ci.example/x"))
                ),
                (LinkKind::Image, 1, 2, s("b.svg"), Some(s("b.svg"))),
            ]
        );
    }

    #[test]
    fn brackets_and_code_inside_link_text() {
        let text = "[a `]` b](one.md) [x [y] z](two.md) [\\]](three.md)\n";
        let targets: Vec<_> = summary(text).into_iter().map(|l| l.4.unwrap()).collect();
        assert_eq!(targets, ["one.md", "two.md", "three.md"]);
    }

    #[test]
    fn references_and_definitions() {
        let text = "[full][Ref], [coll][] and [short], ![pic][Ref], [missing][nope].\n\
                    \n\
                    [ref]: ./r%20x.md 'title'\n\
                    [coll]: <c d.md>\n\
                    [short]:\n    short.md\n";
        let all = links(text);
        use LinkKind::*;
        assert_eq!(
            summary(text),
            [
                (Reference, 1, 1, s("./r%20x.md"), Some(s("./r%20x.md"))),
                (Reference, 1, 14, s("c d.md"), Some(s("c d.md"))),
                (Reference, 1, 27, s("short.md"), Some(s("short.md"))),
                (Reference, 1, 36, s("./r%20x.md"), Some(s("./r%20x.md"))),
                (Reference, 1, 49, s(""), None),
                (Definition, 3, 1, s("./r%20x.md"), Some(s("./r%20x.md"))),
                (Definition, 4, 1, s("c d.md"), Some(s("c d.md"))),
                (Definition, 5, 1, s("short.md"), Some(s("short.md"))),
            ]
        );
        assert_eq!(all[0].definition_line, Some(3));
        assert_eq!(all[0].label.as_deref(), Some("Ref"));
        assert!(all[4].is_undefined_reference());
        assert_eq!(all[4].label.as_deref(), Some("nope"));
        assert!(all[6].angle_brackets);
    }

    #[test]
    fn wikilinks_and_embeds() {
        let text = "[[garden]] [[projects/garden#Tasks|the tasks]] ![[pic.png]]\n\
                    | a | [[n#H\\|alias]] |\n|---|---|\n";
        use LinkKind::*;
        assert_eq!(
            summary(text),
            [
                (Wikilink, 1, 1, s("garden"), Some(s("garden"))),
                (
                    Wikilink,
                    1,
                    12,
                    s("projects/garden#Tasks"),
                    Some(s("projects/garden#Tasks"))
                ),
                (Embed, 1, 48, s("pic.png"), Some(s("pic.png"))),
                (Wikilink, 2, 7, s("n#H"), Some(s("n#H"))),
            ]
        );
    }

    #[test]
    fn nothing_in_code_frontmatter_or_html() {
        let text = "---\nlink: \"[a](front.md)\"\n---\n\
                    `[b](span.md)` and ``[[wiki]]``\n\
                    \n```\n[c](fenced.md)\n```\n\
                    \n    [d](indented.md)\n\
                    \n<div>\n[e](html.md)\n</div>\n\
                    \n[f](real.md) \\[g](escaped.md)\n";
        assert_eq!(
            summary(text),
            [(LinkKind::Inline, 16, 1, s("real.md"), Some(s("real.md")))]
        );
    }

    #[test]
    fn crlf_and_unicode_columns() {
        let text = "# Tïtle\r\n\r\nÜber [x](ü.md)\r\n";
        assert_eq!(
            summary(text),
            [(LinkKind::Inline, 3, 6, s("ü.md"), Some(s("ü.md")))]
        );
    }

    #[test]
    fn a_definition_in_a_block_quote_split_over_lines_is_not_located() {
        let text = "> [a]:\n> target.md\n\n[x][a]\n";
        let all = links(text);
        let def = all.iter().find(|l| l.kind == LinkKind::Definition).unwrap();
        assert_eq!(def.target, "target.md");
        assert_eq!(def.target_range, None);
    }

    #[test]
    fn frontmatter_only() {
        assert!(links("---\na: b\n---\n").is_empty());
        assert!(links("").is_empty());
    }
}

#[cfg(test)]
mod properties {
    use proptest::prelude::*;

    use super::*;

    proptest! {
        /// On any text made of Markdown's link characters, parsing never
        /// panics and every located target lies on character boundaries
        /// and reads, once unescaped, as the target.
        #[test]
        fn located_targets_read_as_the_target(
            text in "([\\[\\]()<>!#|\\\\`*_ :/a-zé.\n-]|\\[\\[|\\]\\]|\r\n|&amp;){0,80}"
        ) {
            let links = parse_links(&text, &LineIndex::new(&text));
            for link in links {
                prop_assert!(text.is_char_boundary(link.start));
                if let Some(range) = link.target_range {
                    prop_assert!(range.start <= range.end && range.end <= text.len());
                    prop_assert!(text.is_char_boundary(range.start) && text.is_char_boundary(range.end));
                    let written = &text[range];
                    if link.kind.is_wiki() {
                        prop_assert_eq!(written, link.target.as_str());
                    } else {
                        prop_assert!(written_means(written, &link.target), "{:?} vs {:?}", written, link.target);
                    }
                }
            }
        }
    }
}
