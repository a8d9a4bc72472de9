//! TextInspect: a file's structure without its content (headings, code
//! blocks, sections, functions), a search within the file, or a quick look at
//! some line ranges.

use std::sync::atomic::{AtomicUsize, Ordering};

use regex::RegexBuilder;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::context::ToolContext;
use super::error::ToolError;
use super::link_context::{RootLinks, relative_to};
use super::link_report::{LinkInfo, describe_link};
use super::tool::{Effects, Tool, Toolset};
use crate::text::document::Document;
use crate::text::excerpt::{MAX_CONTEXT_LINE, NumberedLine, brief, clip_middle, cut, numbered};
use crate::text::format::{Format, format_of};
use crate::text::line_set::LineSet;
use crate::text::lines::{LineCounts, line_at, previous_line_start};
use crate::text::markdown::{
    self, Anchor, CodeBlock, Frontmatter, HeadingNode, LinkedDocument, MarkdownOutline, parse_links,
};
use crate::text::plain::{self, CommentBlock, IniSection};
use crate::text::syntax::{self, OutlineItem, SyntaxReport};
use crate::workspace::OpenFile;
use crate::workspace::read::human_size;
use crate::workspace::search::halves;
use crate::workspace::search::halves::PARALLEL_FROM;
use crate::workspace::search::side_by_side::side_by_side;

/// Most matches a search returns.
pub const MAX_MATCHES: usize = 100;
/// Most lines lines mode returns.
pub const MAX_LINES: usize = 500;
/// Most items per list in structure mode.
pub const MAX_ITEMS: usize = 1000;

/// The TextInspect tool.
pub struct TextInspect;

/// What TextInspect returns.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum Mode {
    /// The outline: headings, code blocks, sections, functions.
    #[default]
    Structure,
    /// Matches of query, with line numbers and context.
    Search,
    /// The text of the line ranges in query, e.g. "1-10,50-60".
    Lines,
}

/// Parameters of TextInspect.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct TextInspectParams {
    /// Path to the text file (absolute or relative to the first root).
    pub file_path: String,
    /// One of: structure (default), search, lines.
    #[serde(default)]
    pub mode: Mode,
    /// search: the text (or regex) to find. lines: the ranges, e.g. "1-10,50-60".
    #[serde(default, deserialize_with = "super::args::bounded_pattern_opt")]
    pub query: Option<String>,
    /// search: treat query as a regular expression (default false: literal text).
    #[serde(default)]
    pub regex: bool,
    /// search: lines of context around each match (default 0, at most 20).
    #[serde(default)]
    pub context: usize,
    /// search: match letter case exactly (default false).
    #[serde(default)]
    pub case_sensitive: bool,
}

/// Result of TextInspect.
#[derive(Debug, Default, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TextInspectOutput {
    /// The file inspected.
    pub file_path: String,
    /// Lines in the file.
    pub total_lines: usize,
    /// The file's size, e.g. "32 KB".
    pub file_size: String,
    /// markdown, code or text.
    pub format: &'static str,
    /// For source files, the language.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language: Option<&'static str>,
    /// The file's encoding, e.g. utf-8.
    pub encoding: &'static str,
    /// Whether the file starts with a byte order mark.
    pub bom: bool,
    /// LF, CRLF, mixed or none.
    pub line_ending: &'static str,
    /// Whether the last line ends with a line break.
    pub final_newline: bool,
    /// The file's hash; pass it as expectedHash to an edit based on this inspection.
    pub file_hash: String,
    /// structure mode: the outline.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub structure: Option<Structure>,
    /// search and lines modes: the query.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub query: Option<String>,
    /// search mode: the matches, in file order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matches: Option<Vec<SearchMatch>>,
    /// search mode: how many matches the file has.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total_matches: Option<usize>,
    /// lines mode: the lines.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lines: Option<Vec<NumberedLine>>,
    /// Whether a list was cut short.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub truncated: Option<bool>,
    /// Remarks.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// The outline of a file; which fields appear depends on its format.
#[derive(Debug, Default, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Structure {
    /// Markdown: the YAML or TOML frontmatter.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub frontmatter: Option<Frontmatter>,
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

impl Tool for TextInspect {
    type Params = TextInspectParams;
    type Output = TextInspectOutput;

    const NAME: &'static str = "TextInspect";
    const TITLE: &'static str = "Inspect a file's structure";
    const TOOLSET: Toolset = Toolset::Text;
    const EFFECTS: Effects = Effects::READ_ONLY;

    fn description() -> &'static str {
        "Inspects a text, markdown or source file to understand its structure without loading its full content.\n\
\n\
Modes:\n\
- 'structure' (default): the outline. Markdown: frontmatter, headings (nested), code blocks, anchors, and links (inline, images, references, autolinks, [[wikilinks]], embeds) with, for internal targets, whether the target file, note, heading or anchor exists. Config/text: [sections], blank-line groups, comment blocks. Source code: functions, types and classes with line ranges, and syntax errors.\n\
- 'search': finds text (or a regex with regex=true) in this file; returns line, column, the line's text, context lines and the nearest heading. Case-insensitive unless caseSensitive=true.\n\
- 'lines': returns the text of line ranges, e.g. query=\"1-10,50-60\".\n\
\n\
Use this before TextPatch, TextReplace or TextRead to find exact line numbers, headings and text. Every response carries the file's fileHash, its encoding and line-ending style. To search many files, use TextSearch.\n\
\n\
Examples:\n\
- Get a markdown outline: mode=\"structure\"\n\
- Find all mentions of \"config\": mode=\"search\", query=\"config\"\n\
- Find a regex: mode=\"search\", query=\"TODO:.*\", regex=true\n\
- Preview lines 50-60: mode=\"lines\", query=\"50-60\""
    }

    fn run(ctx: &ToolContext, params: TextInspectParams) -> Result<TextInspectOutput, ToolError> {
        if params.mode == Mode::Structure && params.query.is_some() {
            return Err(ToolError::new(
                "query is only used in modes 'search' and 'lines', but mode is 'structure'",
            )
            .suggest(
                "Pass mode \"search\" to find the query, or leave query out for the outline",
            ));
        }
        let query = match params.mode {
            Mode::Structure => None,
            mode => Some(
                params
                    .query
                    .clone()
                    .filter(|q| !q.is_empty())
                    .ok_or_else(|| {
                        ToolError::new(format!(
                            "mode '{}' needs a query",
                            if mode == Mode::Search {
                                "search"
                            } else {
                                "lines"
                            }
                        ))
                        .suggest(if mode == Mode::Search {
                            "Pass the text to find as query, e.g. query=\"config\""
                        } else {
                            "Pass the line ranges as query, e.g. query=\"1-10,50-60\""
                        })
                    })?,
            ),
        };
        if params.context > 20 {
            return Err(ToolError::new(format!(
                "context {} is too large: at most 20 lines around each match",
                params.context
            ))
            .suggest("Use TextRead to read a larger range around a match"));
        }
        let (file, key) = ctx.workspace.read_keyed(&params.file_path)?;
        let doc = &file.doc;
        // A large file is hashed on a second thread while the mode's work
        // runs; its hash is remembered while it stays unchanged.
        let large = doc.byte_len() as u64 >= PARALLEL_FROM;
        let hash = || ctx.workspace.reported_hash(doc, key);
        let (file_hash, out) = if large {
            let beside = || {
                let file_hash = hash();
                // A search counts lines itself; the other modes look lines
                // up in the index.
                if params.mode != Mode::Search {
                    doc.lines();
                }
                file_hash
            };
            let (out, file_hash) = side_by_side(|| inspect(ctx, &params, &file, query), beside);
            (file_hash, out)
        } else {
            (hash(), inspect(ctx, &params, &file, query))
        };
        let mut out = out?;
        out.file_hash = file_hash;
        if large {
            // Its memory serves the next large read.
            halves::recycle(file.doc.into_text());
        }
        Ok(out)
    }
}

/// TextInspect's answer for `file`, but its hash.
fn inspect(
    ctx: &ToolContext,
    params: &TextInspectParams,
    file: &OpenFile,
    query: Option<String>,
) -> Result<TextInspectOutput, ToolError> {
    let doc = &file.doc;
    let format = format_of(&file.path.real);
    let mut out = TextInspectOutput::default();
    match params.mode {
        Mode::Structure => {
            let (structure, note) = if format == Format::Markdown {
                markdown_structure(ctx, file)
            } else {
                structure(doc, format)
            };
            out.structure = Some(structure);
            out.note = note;
        }
        Mode::Search => {
            let query = query.unwrap_or_default();
            let (matches, total, counts) = search(
                doc,
                &query,
                params.regex,
                params.case_sensitive,
                params.context,
                format == Format::Markdown,
            )?;
            out.truncated = (total > matches.len()).then_some(true);
            if total > matches.len() {
                out.note = Some(format!(
                    "Showing the first {} of {total} matches; narrow the query to see the rest",
                    matches.len()
                ));
            }
            out.matches = Some(matches);
            out.total_matches = Some(total);
            out.total_lines = counts.lines;
            out.line_ending = counts.eol_style().name();
            out.query = Some(query);
        }
        Mode::Lines => {
            let query = query.unwrap_or_default();
            let (lines, truncated, note) = lines_mode(doc, &query)?;
            out.lines = Some(lines);
            out.truncated = truncated.then_some(true);
            out.note = note;
            out.query = Some(query);
        }
    }
    // A search builds no line index: it counted the lines itself.
    let (total_lines, line_ending) = if params.mode == Mode::Search {
        (out.total_lines, out.line_ending)
    } else {
        (doc.line_count(), doc.eol_style().name())
    };
    Ok(TextInspectOutput {
        file_path: file.path.display(),
        total_lines,
        file_size: human_size(doc.byte_len() as u64),
        format: format.name(),
        language: match format {
            Format::Code(lang) => Some(lang.name()),
            _ => None,
        },
        encoding: doc.encoding().name(),
        bom: doc.has_bom(),
        line_ending,
        final_newline: doc.text().ends_with('\n'),
        ..out
    })
}

fn capped<T>(items: Vec<T>) -> (Vec<T>, bool) {
    let total = items.len();
    let mut items = items;
    items.truncate(MAX_ITEMS);
    (items, total > MAX_ITEMS)
}

fn structure(doc: &Document, format: Format) -> (Structure, Option<String>) {
    match format {
        Format::Markdown => outline_structure(markdown::parse(doc.text()), Vec::new(), 0),
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
fn markdown_structure(ctx: &ToolContext, file: &OpenFile) -> (Structure, Option<String>) {
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
    outline_structure(own.outline, infos, total_links)
}

fn outline_structure(
    outline: MarkdownOutline,
    links: Vec<LinkInfo>,
    total_links: usize,
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
    (
        Structure {
            frontmatter: outline.frontmatter,
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

fn search(
    doc: &Document,
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
        return Ok(find_matches(doc, &re, context, |_| {}));
    }
    // Headings are looked for only as far as the last match shown; in a
    // large file, on a second thread while the matches are found.
    let text = doc.text();
    let last = AtomicUsize::new(usize::MAX);
    let name_last = |line| last.store(line, Ordering::Relaxed);
    let (mut matches, total, counts, headings) = if doc.byte_len() as u64 >= PARALLEL_FROM {
        let scan = || markdown::headings_until(text, || last.load(Ordering::Relaxed));
        let ((matches, total, counts), headings) =
            side_by_side(|| find_matches(doc, &re, context, name_last), scan);
        (matches, total, counts, headings)
    } else {
        let (matches, total, counts) = find_matches(doc, &re, context, name_last);
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

/// Every match of `re` in `doc`, counted, and the first [`MAX_MATCHES`]
/// shown (without their heading), and the document's line counts; `last_line`
/// is told the line of the last one shown as soon as it is known (0 when
/// there is none). Lines are counted from match to match and then to the
/// end, rather than indexed.
fn find_matches(
    doc: &Document,
    re: &regex::Regex,
    context: usize,
    mut last_line: impl FnMut(usize),
) -> (Vec<SearchMatch>, usize, LineCounts) {
    let text = doc.text();
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

fn lines_mode(
    doc: &Document,
    query: &str,
) -> Result<(Vec<NumberedLine>, bool, Option<String>), ToolError> {
    let count = doc.line_count();
    let bad = |why: String| {
        ToolError::new(format!("Invalid line ranges '{}': {why}", brief(query)))
            .suggest("Write ranges like \"5\", \"1-10\" or \"1-10,50-60\" (1-based, inclusive)")
    };
    let mut ranges = Vec::new();
    let mut clamped = false;
    for part in query.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (a, b) = match part.split_once('-') {
            Some((a, b)) => (a.trim(), b.trim()),
            None => (part, part),
        };
        let a: usize = a
            .parse()
            .map_err(|_| bad(format!("'{}' is not a line range", brief(part))))?;
        let b: usize = b
            .parse()
            .map_err(|_| bad(format!("'{}' is not a line range", brief(part))))?;
        if a == 0 {
            return Err(bad("line numbers start at 1".into()));
        }
        if b < a {
            return Err(bad(format!("the range {part} is reversed")));
        }
        if a > count {
            return Err(bad(format!(
                "line {a} is past the end: the file has {count} lines"
            )));
        }
        if b > count {
            clamped = true;
        }
        ranges.push((a, b.min(count)));
    }
    // Merged before any line is looked at: repeated or overlapping ranges
    // cost nothing more than the lines shown.
    let set = LineSet::from_ranges(ranges);
    if set.is_empty() {
        return Err(bad("no range given".into()));
    }
    let lines: Vec<usize> = set.lines().take(MAX_LINES).collect();
    let truncated = set.len() > MAX_LINES;
    let mut notes = Vec::new();
    if clamped {
        notes.push(format!("The file has {count} lines; ranges were cut there"));
    }
    if truncated {
        let last = lines.last().copied().unwrap_or_default();
        notes.push(format!(
            "At most {MAX_LINES} lines are shown, the last being line {last}; \
             ask for the lines after it to read on, or use TextRead for longer ranges"
        ));
    }
    Ok((
        lines.into_iter().map(|k| numbered(doc, k)).collect(),
        truncated,
        (!notes.is_empty()).then(|| notes.join("; ")),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
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
            let found = find_matches(&doc, &re, context, |line| told.push(line));
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
        let (matches, total, _) = find_matches(&doc, &re, 0, |line| told.push(line));
        assert_eq!((matches.len(), total), (MAX_MATCHES, MAX_MATCHES + 10));
        assert_eq!(told, [MAX_MATCHES]);
    }
}
