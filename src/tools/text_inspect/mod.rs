//! TextInspect: a file's structure without its content (headings, code
//! blocks, sections, functions), a search within the file, or a quick look at
//! some line ranges.

mod search;
mod structure;

use search::search;
pub use search::{MatchContext, NearestHeading, SearchMatch};
pub use structure::{BlockInfo, CodeBlockInfo, FrontmatterInfo, PropertyInfo, Structure, TagInfo};
use structure::{markdown_structure, structure};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::context::ToolContext;
use super::error::ToolError;
use super::tool::{Effects, Tool, Toolset};
use crate::text::document::Document;
use crate::text::encoding::TextEncoding;
use crate::text::excerpt::{NumberedLine, brief, numbered};
use crate::text::format::{Format, format_of};
use crate::text::line_set::LineSet;
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
    #[schemars(description = "")] // said once, in the server's instructions
    pub file_path: String,
    /// structure: the outline; search: matches of query; lines: the ranges in query.
    #[serde(default)]
    pub mode: Mode,
    /// search: text or regex; lines: ranges such as "1-10,50-60".
    #[serde(default, deserialize_with = "super::args::bounded_pattern_opt")]
    pub query: Option<String>,
    /// search: query is a regex.
    #[serde(default)]
    pub regex: bool,
    /// search: lines around each match (at most 20).
    #[serde(default)]
    pub context: usize,
    /// search: letter case must match.
    #[serde(default)]
    pub case_sensitive: bool,
}

/// Result of TextInspect.
#[derive(Debug, Default, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TextInspectOutput {
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

impl Tool for TextInspect {
    type Params = TextInspectParams;
    type Output = TextInspectOutput;

    const NAME: &'static str = "TextInspect";
    const TITLE: &'static str = "Inspect a file's structure";
    const TOOLSET: Toolset = Toolset::Text;
    const EFFECTS: Effects = Effects::READ_ONLY;

    fn description() -> &'static str {
        "A file's outline without its content: Markdown frontmatter, headings, code blocks, anchors and links (whether internal targets exist); INI sections; source functions and classes, syntax errors. mode search finds text or a regex in it; mode lines returns ranges. For many files use TextSearch. Example: {\"filePath\": \"a.md\", \"mode\": \"search\", \"query\": \"TODO\"}"
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
        if params.mode == Mode::Search
            && let Some((path, text, key)) = ctx.workspace.map_keyed(&params.file_path)?
        {
            // A large note searched where it lies, hashed meanwhile.
            let format = format_of(&path.real);
            let markdown = format == Format::Markdown;
            let query = query.unwrap_or_default();
            let hash = || ctx.workspace.reported_hash_of(text.bytes(), key);
            let found = || search_part(text.as_str(), &params, &query, markdown);
            let (out, file_hash) = side_by_side(found, hash);
            let facts = FileFacts {
                byte_len: text.bytes().len(),
                format,
                encoding: TextEncoding::Utf8,
                bom: text.has_bom(),
                final_newline: text.as_str().ends_with('\n'),
            };
            return Ok(TextInspectOutput {
                file_hash,
                ..facts.fill(out?)
            });
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
            out = search_part(doc.text(), params, &query, format == Format::Markdown)?;
        }
        Mode::Lines => {
            let query = query.unwrap_or_default();
            let (lines, truncated, note) = lines_mode(doc, &query)?;
            out.lines = Some(lines);
            out.truncated = truncated.then_some(true);
            out.note = note;
        }
    }
    // A search builds no line index: it counted the lines itself.
    if params.mode != Mode::Search {
        out.total_lines = doc.line_count();
        out.line_ending = doc.eol_style().name();
    }
    let facts = FileFacts {
        byte_len: doc.byte_len(),
        format,
        encoding: doc.encoding(),
        bom: doc.has_bom(),
        final_newline: doc.text().ends_with('\n'),
    };
    Ok(facts.fill(out))
}

/// The search mode's answer for `text`: the matches, their count, and the
/// lines and line endings counted on the way.
fn search_part(
    text: &str,
    params: &TextInspectParams,
    query: &str,
    markdown: bool,
) -> Result<TextInspectOutput, ToolError> {
    let (matches, total, counts) = search(
        text,
        query,
        params.regex,
        params.case_sensitive,
        params.context,
        markdown,
    )?;
    let shown = matches.len();
    Ok(TextInspectOutput {
        truncated: (total > shown).then_some(true),
        note: (total > shown).then(|| {
            format!(
                "Showing the first {shown} of {total} matches; narrow the query to see the rest"
            )
        }),
        matches: Some(matches),
        total_matches: Some(total),
        total_lines: counts.lines,
        line_ending: counts.eol_style().name(),
        ..TextInspectOutput::default()
    })
}

/// What every answer says of the file besides its hash.
struct FileFacts {
    byte_len: usize,
    format: Format,
    encoding: TextEncoding,
    bom: bool,
    final_newline: bool,
}

impl FileFacts {
    /// `out` with these facts filled in.
    fn fill(self, out: TextInspectOutput) -> TextInspectOutput {
        TextInspectOutput {
            file_size: human_size(self.byte_len as u64),
            format: self.format.name(),
            language: match self.format {
                Format::Code(lang) => Some(lang.name()),
                _ => None,
            },
            encoding: self.encoding.name(),
            bom: self.bom,
            final_newline: self.final_newline,
            ..out
        }
    }
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
