//! TextRead: reads one part of a file — a heading's section, a code block, an
//! anchor, an INI section or a line range — at most 200 lines at a time.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::context::ToolContext;
use super::error::ToolError;
use super::symbol_target;
use super::target::{ReadTarget, TargetUse, parse_target, target_error};
use super::tool::{Effects, Tool, Toolset};
use crate::text::excerpt::cut;
use crate::text::format::{Format, format_of};
use crate::text::markdown;
use crate::text::targets::{ReadRange, Target, resolve_read};

/// Most lines one read returns.
pub const MAX_READ_LINES: usize = 200;
/// Most characters one read returns; a read of very long lines stops earlier.
pub const MAX_READ_CHARS: usize = 100_000;

/// The TextRead tool.
pub struct TextRead;

/// Parameters of TextRead.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct TextReadParams {
    /// Path to the text file (absolute or relative to the first root).
    #[schemars(description = "")] // said once, in the server's instructions
    pub file_path: String,
    /// ONE key, e.g. {"heading": "## Title"}, {"lines": {"start": 5, "end": 9}}, {"symbol": "Calc.add"}.
    pub target: ReadTarget,
}

/// A 1-based inclusive line range.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Range {
    /// First line.
    pub start_line: usize,
    /// Last line.
    pub end_line: usize,
}

/// Result of TextRead.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TextReadOutput {
    /// The lines the target covers.
    pub range: Range,
    /// The text of those lines (or of the first ones, when truncated), joined with \n.
    pub content: String,
    /// Whether content stops before the end of the range.
    pub truncated: bool,
    /// When truncated, the lines content holds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub returned: Option<Range>,
    /// For a code block, its language.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    /// The file's hash; pass it as expectedHash to an edit based on this read.
    pub file_hash: String,
    /// When truncated, how to read the rest.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suggestion: Option<String>,
    /// Remarks, e.g. a range cut at the end of the file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl Tool for TextRead {
    type Params = TextReadParams;
    type Output = TextReadOutput;

    const NAME: &'static str = "TextRead";
    const TITLE: &'static str = "Read part of a file";
    const TOOLSET: Toolset = Toolset::Text;
    const EFFECTS: Effects = Effects::READ_ONLY;

    fn description() -> &'static str {
        "Reads one part of a file, at most 200 lines (then truncated: true): lines, a heading with its subsections, a code block, an anchor, an INI section, a ^block, or a definition in source code. Find targets with TextInspect. Example: {\"filePath\": \"a.md\", \"target\": {\"heading\": \"## Setup\"}}"
    }

    fn run(ctx: &ToolContext, params: TextReadParams) -> Result<TextReadOutput, ToolError> {
        let raw_target = params.target.0.0;
        let target = parse_target(&raw_target, TargetUse::Read)?;
        if matches!(target, Target::Block(_)) {
            super::block_id::require_vault(ctx, "The block target")?;
        }
        let file = ctx.workspace.read(&params.file_path, None)?;
        let doc = &file.doc;
        let format = format_of(&file.path.real);
        let outline = (format == Format::Markdown && target.needs_outline()).then(|| {
            if target.needs_anchors() {
                markdown::parse(doc.text())
            } else {
                markdown::parse_sections(doc.text())
            }
        });
        let resolved = match &target {
            Target::Symbol { query, part } => {
                let (span, found) = symbol_target::read_range(&file, query, *part)?;
                ReadRange {
                    span,
                    language: None,
                    note: Some(found),
                }
            }
            _ => resolve_read(doc, outline.as_ref(), None, &target, MAX_READ_LINES)
                .map_err(|e| target_error(e, &file.path.display()))?,
        };
        let span = resolved.span;

        let mut content = String::new();
        let mut shown_end = span.start.saturating_sub(1);
        let mut cut_line = false;
        for k in span.start..=span.end {
            if k - span.start >= MAX_READ_LINES {
                break;
            }
            let line = doc.line(k);
            let room = MAX_READ_CHARS.saturating_sub(content.len());
            if k > span.start && line.len() + 1 > room {
                break;
            }
            if k > span.start {
                content.push('\n');
            }
            if line.len() > MAX_READ_CHARS {
                content.push_str(&cut(line, MAX_READ_CHARS));
                cut_line = true;
            } else {
                content.push_str(line);
            }
            shown_end = k;
            if cut_line {
                break;
            }
        }
        let truncated = shown_end < span.end || cut_line;
        let suggestion = truncated.then(|| {
            if shown_end < span.end {
                format!(
                    "Showing lines {}-{shown_end} of {}-{}. Read the rest with target {{\"lines\": {{\"start\": {}, \"end\": {}}}}}, or use TextInspect to find a narrower subsection",
                    span.start,
                    span.start,
                    span.end,
                    shown_end + 1,
                    span.end.min(shown_end + MAX_READ_LINES)
                )
            } else {
                format!("Line {shown_end} is longer than {MAX_READ_CHARS} characters and was cut; use TextInspect mode 'search' to find text in it")
            }
        });
        Ok(TextReadOutput {
            range: Range {
                start_line: span.start,
                end_line: span.end,
            },
            content,
            truncated,
            returned: truncated.then_some(Range {
                start_line: span.start,
                end_line: shown_end,
            }),
            language: resolved.language,
            file_hash: doc.hash(),
            suggestion,
            note: resolved.note,
        })
    }
}
