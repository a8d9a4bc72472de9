//! TextInspect's structure mode: a file's outline by format (Markdown
//! headings, code blocks, anchors, links and the vault's document map:
//! frontmatter values, block ids and tags; sections of plain text; a code
//! file's symbols), cut to [`MAX_ITEMS`] entries per list.

use schemars::JsonSchema;
use serde::Serialize;

use crate::text::document::Document;
use crate::text::format::Format;
use crate::text::lines::split_lines;
use crate::text::markdown::{
    self, Anchor, CodeBlock, Frontmatter, FrontmatterKind, HeadingNode, LinkedDocument,
    MarkdownOutline, block_refs, parse_links,
};
use crate::text::plain::{self, CommentBlock, IniSection};
use crate::text::properties;
use crate::text::syntax::{self, OutlineItem, SyntaxReport};
use crate::tools::context::ToolContext;
use crate::tools::link_context::{RootLinks, relative_to};
use crate::tools::link_report::{LinkInfo, describe_link};
use crate::workspace::OpenFile;

use super::MAX_ITEMS;
/// The outline of a file; which fields appear depends on its format.
#[derive(Debug, Default, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Structure {
    /// Markdown: the YAML or TOML frontmatter, with each key's value and line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub frontmatter: Option<FrontmatterInfo>,
    /// Markdown: headings nested by level.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub headings: Option<Vec<HeadingNode>>,
    /// Markdown: fenced code blocks (codeBlock index = position in this list).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code_blocks: Option<Vec<CodeBlockInfo>>,
    /// Markdown: anchors (heading slugs, {#id}, <a id>).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub anchors: Option<Vec<Anchor>>,
    /// Markdown: links (inline, images, references and definitions, autolinks, wikilinks, embeds) with, for internal targets, whether the target exists.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub links: Option<Vec<LinkInfo>>,
    /// Markdown: blocks with a ^id (block targets), when there are any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blocks: Option<Vec<BlockInfo>>,
    /// Markdown: tags (frontmatter and #inline) with their lines, when there are any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<TagInfo>>,
    /// Text: INI-style [sections].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sections: Option<Vec<IniSection>>,
    /// Text: first line of each run of blank lines.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blank_line_groups: Option<Vec<usize>>,
    /// Text: runs of comment lines.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comment_blocks: Option<Vec<CommentBlock>>,
    /// Code: functions, types, classes (or top-level keys) with line ranges.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outline: Option<Vec<OutlineItem>>,
    /// Code: syntax errors the parser found.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub syntax: Option<SyntaxReport>,
    /// How many of each kind the file has, when a list was cut at 1000.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counts: Option<serde_json::Value>,
}

/// The frontmatter in structure mode.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FrontmatterInfo {
    /// yaml or toml.
    pub kind: FrontmatterKind,
    /// The opening marker's line (1).
    pub start_line: usize,
    /// The closing marker's line.
    pub end_line: usize,
    /// Each key with its value and line, in order.
    pub properties: Vec<PropertyInfo>,
    /// When the block does not parse: the parser's message (properties then have no values).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// One frontmatter key in structure mode.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PropertyInfo {
    /// The key.
    pub key: String,
    /// Its value (strings, dates as written).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<serde_json::Value>,
    /// The key's line (left out when the block does not parse and the key cannot be placed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// The value's last line, when it runs over several.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_line: Option<usize>,
}

/// A block with an id in structure mode.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct BlockInfo {
    /// The id, without ^ (TextRead and TextPatch target {"block": "^id"}).
    pub id: String,
    /// The block's first line.
    pub start_line: usize,
    /// Its last line, which ends with ^id.
    pub end_line: usize,
}

/// A tag in structure mode.
#[derive(Debug, Serialize, JsonSchema)]
pub struct TagInfo {
    /// The tag, without #.
    pub tag: String,
    /// Its line (a frontmatter tag's is its key's).
    pub line: usize,
}

/// A fenced code block in structure mode.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CodeBlockInfo {
    /// 0-based index, for codeBlock targets.
    pub index: usize,
    /// The info string's first word.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    /// The opening fence's line.
    pub start_line: usize,
    /// The closing fence's line (or the last line, if unclosed).
    pub end_line: usize,
}

pub(super) fn structure(doc: &Document, format: Format) -> (Structure, Option<String>) {
    match format {
        Format::Markdown => {
            outline_structure(markdown::parse(doc.text()), Vec::new(), 0, doc.text())
        }
        Format::Text => {
            let outline = plain::parse(doc.text());
            let (sections, a) = capped(outline.sections);
            let (groups, b) = capped(outline.blank_line_groups);
            let (comments, c) = capped(outline.comment_blocks);
            let cut = a || b || c;
            (
                Structure {
                    sections: Some(sections),
                    blank_line_groups: Some(groups),
                    comment_blocks: Some(comments),
                    ..Structure::default()
                },
                cut.then(|| format!("Lists are cut at {MAX_ITEMS} items")),
            )
        }
        Format::Code(lang) => match syntax::inspect(lang, doc.text()) {
            Ok(inspection) => {
                let (outline, cut) = capped(inspection.outline);
                (
                    Structure {
                        outline: Some(outline),
                        syntax: Some(inspection.syntax),
                        ..Structure::default()
                    },
                    cut.then(|| format!("The outline is cut at {MAX_ITEMS} items")),
                )
            }
            Err(skipped) => (
                Structure::default(),
                Some(format!(
                    "{}; use mode 'search' or 'lines' instead",
                    skipped.message()
                )),
            ),
        },
    }
}

/// A Markdown file's outline and links, each link checked against the
/// file's root (only the links listed, at most [`MAX_ITEMS`]).
pub(super) fn markdown_structure(
    ctx: &ToolContext,
    file: &OpenFile,
) -> (Structure, Option<String>) {
    let doc = &file.doc;
    let own = LinkedDocument::parse(doc.text());
    let links = parse_links(doc.text(), doc.lines());
    let total_links = links.len();
    let cancel = ctx.cancel_flag();
    let mut root = RootLinks::new(&ctx.workspace, file.path.root.clone(), &cancel);
    let from = relative_to(&file.path.root, &file.path.real);
    let infos = links
        .iter()
        .take(MAX_ITEMS)
        .map(|link| describe_link(link, &from, &own, &mut root))
        .collect();
    outline_structure(own.outline, infos, total_links, doc.text())
}

/// The frontmatter `fm` of `text` with its keys' values.
fn frontmatter_info(fm: Frontmatter, text: &str) -> FrontmatterInfo {
    let (properties, error) = match properties::read(text) {
        Ok(Some(props)) => (
            props
                .entries
                .into_iter()
                .map(|p| PropertyInfo {
                    key: p.key,
                    value: Some(p.value),
                    line: Some(p.line),
                    end_line: (p.last_line > p.line).then_some(p.last_line),
                })
                .collect(),
            None,
        ),
        Ok(None) => (Vec::new(), None),
        Err(e) => (
            fm.keys
                .iter()
                .map(|k| PropertyInfo {
                    key: k.clone(),
                    value: None,
                    line: key_line(text, &fm, k),
                    end_line: None,
                })
                .collect(),
            Some(e.to_string()),
        ),
    };
    FrontmatterInfo {
        kind: fm.kind,
        start_line: fm.start_line,
        end_line: fm.end_line,
        properties,
        error,
    }
}

/// The line where the top-level key `key` of a frontmatter the parser
/// refused is written: the first line of the block that starts with it.
fn key_line(text: &str, fm: &Frontmatter, key: &str) -> Option<usize> {
    let starts = |line: &str| {
        let rest = line
            .strip_prefix(key)
            .or_else(|| line.strip_prefix(&format!("\"{key}\"")))
            .or_else(|| line.strip_prefix(&format!("'{key}'")))
            .or_else(|| line.strip_prefix(&format!("[{key}]")));
        rest.is_some_and(|r| r.is_empty() || r.trim_start().starts_with([':', '=']))
    };
    split_lines(text)
        .enumerate()
        .take(fm.end_line)
        .skip(1)
        .find(|(_, line)| starts(line))
        .map(|(i, _)| i + 1)
}

fn outline_structure(
    outline: MarkdownOutline,
    links: Vec<LinkInfo>,
    total_links: usize,
    text: &str,
) -> (Structure, Option<String>) {
    let counts = serde_json::json!({
        "headings": outline.headings.len(),
        "codeBlocks": outline.code_blocks.len(),
        "anchors": outline.anchors.len(),
        "links": total_links,
    });
    let tree = outline.heading_tree();
    let (tree, cut_headings) = if outline.headings.len() > MAX_ITEMS {
        // Keep the top levels whole rather than cutting a subtree in half.
        (cap_tree(tree, MAX_ITEMS), true)
    } else {
        (tree, false)
    };
    let blocks: Vec<CodeBlockInfo> = outline
        .code_blocks
        .iter()
        .map(|b: &CodeBlock| CodeBlockInfo {
            index: b.index,
            language: b.language.clone(),
            start_line: b.start_line,
            end_line: b.end_line,
        })
        .collect();
    let (blocks, cut_blocks) = capped(blocks);
    let (anchors, cut_anchors) = capped(outline.anchors);
    let cut_links = total_links > links.len();
    let cut = cut_headings || cut_blocks || cut_anchors || cut_links;
    let block_ids: Vec<BlockInfo> = block_refs(text)
        .into_iter()
        .take(MAX_ITEMS)
        .map(|b| BlockInfo {
            id: b.id,
            start_line: b.first,
            end_line: b.last,
        })
        .collect();
    let tags: Vec<TagInfo> = properties::note_tags(text)
        .into_iter()
        .take(MAX_ITEMS)
        .map(|t| TagInfo {
            tag: t.name,
            line: t.line,
        })
        .collect();
    (
        Structure {
            frontmatter: outline.frontmatter.map(|f| frontmatter_info(f, text)),
            blocks: (!block_ids.is_empty()).then_some(block_ids),
            tags: (!tags.is_empty()).then_some(tags),
            headings: Some(tree),
            code_blocks: Some(blocks),
            anchors: Some(anchors),
            links: Some(links),
            counts: cut.then_some(counts),
            ..Structure::default()
        },
        cut.then(|| {
            let links = if cut_links {
                "; only the links listed were checked, use CheckLinks with filePath for all broken ones"
            } else {
                ""
            };
            format!("Lists are cut at {MAX_ITEMS} items (see counts); use mode 'search' or TextRead on a heading to look deeper{links}")
        }),
    )
}

/// Keeps at most `budget` nodes, breadth first, so an outline of a huge file
/// still shows its top-level headings.
fn cap_tree(nodes: Vec<HeadingNode>, budget: usize) -> Vec<HeadingNode> {
    fn count(nodes: &[HeadingNode]) -> usize {
        nodes.iter().map(|n| 1 + count(&n.children)).sum()
    }
    fn prune(nodes: &mut [HeadingNode], depth: usize, max_depth: usize) {
        for node in nodes.iter_mut() {
            if depth + 1 >= max_depth {
                node.children.clear();
            } else {
                prune(&mut node.children, depth + 1, max_depth);
            }
        }
    }
    let mut max_depth = 6;
    let mut nodes = nodes;
    while max_depth > 1 && count(&nodes) > budget {
        max_depth -= 1;
        prune(&mut nodes, 0, max_depth);
    }
    nodes.truncate(budget);
    nodes
}

/// At most [`MAX_ITEMS`] of `items`, and whether some were cut.
fn capped<T>(items: Vec<T>) -> (Vec<T>, bool) {
    let total = items.len();
    let mut items = items;
    items.truncate(MAX_ITEMS);
    (items, total > MAX_ITEMS)
}
