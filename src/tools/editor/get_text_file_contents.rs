//! get_text_file_contents: line ranges of one or more files, with each
//! file's `file_hash` and each range's `range_hash`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::super::context::ToolContext;
use super::super::error::ToolError;
use super::super::tool::{Effects, Tool, Toolset};
use super::{
    ByPath, EditorRange, attach_notes_to_entries, in_file, parse_encoding, workspace_error,
};
use crate::text::document::Document;
use crate::text::hash::file_hash;
use crate::text::range_patch::lines_text;

/// The get_text_file_contents tool.
pub struct GetTextFileContents;

/// Most bytes of content one call returns, over all its ranges and files.
/// Ranges past it are cut at a line end (or come back empty) and marked
/// `truncated`, so a few short requests cannot build a huge reply.
pub const MAX_CONTENT_BYTES: usize = 16 * 1024 * 1024;

/// Parameters of get_text_file_contents.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GetParams {
    /// The files to read and the line ranges to read from each.
    pub files: Vec<GetFile>,
    /// Text encoding of the files: utf-8 (default), utf-16, latin-1, shift_jis, euc-kr, gbk, … A file with a byte order mark is read in the BOM's encoding.
    #[serde(default)]
    pub encoding: Option<String>,
}

/// One file to read.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GetFile {
    /// Path to the file (absolute or relative to the first root).
    pub file_path: String,
    /// Line ranges to read: [{"start": 1, "end": null}] reads the whole file.
    pub ranges: Vec<EditorRange>,
}

/// One range that was read.
#[derive(Debug, Serialize, JsonSchema)]
pub struct RangeContent {
    /// The lines start..=end with their line endings, exactly as in the file.
    pub content: String,
    /// First line read.
    pub start: usize,
    /// Last line read (start - 1 when the range is empty).
    pub end: usize,
    /// Hash of content (16 hex digits of SHA-256 over its UTF-8 bytes).
    pub range_hash: String,
    /// Lines in the file.
    pub total_lines: usize,
    /// Length of content in characters.
    pub content_size: usize,
    /// Set when the range was cut to the end of the file, or to the reply's
    /// size limit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// True when the reply's size limit cut the range short: `end` is the
    /// last line returned, and the note says where to read on.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub truncated: bool,
}

/// What was read from one file.
#[derive(Debug, Serialize, JsonSchema)]
pub struct FileContents {
    /// The ranges, in the order asked for.
    pub ranges: Vec<RangeContent>,
    /// The file's hash (16 hex digits of SHA-256 over its bytes); pass it as
    /// file_hash to append, insert and delete.
    pub file_hash: String,
    /// Lines in the file.
    pub total_lines: usize,
    /// The encoding the file was read in.
    pub encoding: &'static str,
}

impl Tool for GetTextFileContents {
    type Params = GetParams;
    type Output = ByPath<FileContents>;

    const NAME: &'static str = "get_text_file_contents";
    const TITLE: &'static str = "Read line ranges of text files";
    const TOOLSET: Toolset = Toolset::Editor;
    const EFFECTS: Effects = Effects::READ_ONLY;

    fn description() -> &'static str {
        "Reads line ranges from one or more text files. Returns, keyed by file_path, each range's content (the lines with their line endings, exactly as in the file), start and end line, range_hash and content_size, and each file's file_hash, total_lines and encoding.\n\
\n\
Ranges are 1-based and inclusive: {\"start\": 5, \"end\": 8}; end null (or left out) reads to the end of the file. A range past the end is cut to the file and says so in its note.\n\
\n\
Use it before patch_text_file_contents: copy a range's content as old_string. Pass file_hash to append_text_file_contents, insert_text_file_contents and delete_text_file_contents to refuse an edit if the file changed since. Paths are absolute or relative to the first root.\n\
\n\
Example: files=[{\"file_path\": \"src/main.py\", \"ranges\": [{\"start\": 1, \"end\": 20}, {\"start\": 90, \"end\": null}]}]"
    }

    fn run(ctx: &ToolContext, params: GetParams) -> Result<ByPath<FileContents>, ToolError> {
        if params.files.is_empty() {
            return Err(ToolError::new("files is empty: there is nothing to read").suggest(
                "Pass files: [{\"file_path\": \"notes.md\", \"ranges\": [{\"start\": 1, \"end\": null}]}]",
            ));
        }
        let encoding = parse_encoding(params.encoding.as_deref())?;
        let mut budget = MAX_CONTENT_BYTES;
        let mut out: Vec<(String, FileContents)> = Vec::with_capacity(params.files.len());
        for (i, file) in params.files.iter().enumerate() {
            let locate = |e: ToolError| in_file(e, Some(i), &file.file_path);
            if out.iter().any(|(key, _)| *key == file.file_path) {
                return Err(locate(ToolError::new(
                    "the file is listed twice; list it once with all its ranges",
                )));
            }
            if file.ranges.is_empty() {
                return Err(locate(
                    ToolError::new("ranges is empty: say which lines to read")
                        .suggest("[{\"start\": 1, \"end\": null}] reads the whole file"),
                ));
            }
            let open = ctx
                .workspace
                .read(&file.file_path, encoding)
                .map_err(|e| locate(workspace_error(e)))?;
            let doc = &open.doc;
            let total = doc.line_count();
            let mut ranges = Vec::with_capacity(file.ranges.len());
            for (r, range) in file.ranges.iter().enumerate() {
                if range.start == 0 {
                    return Err(locate(ToolError::new(format!(
                        "ranges[{r}]: line 0 does not exist, line numbers start at 1"
                    ))));
                }
                if let Some(end) = range.end
                    && end < range.start
                {
                    return Err(locate(
                        ToolError::new(format!(
                            "ranges[{r}]: the range is reversed, end {end} is before start {}",
                            range.start
                        ))
                        .detail("range", json!(format!("ranges[{r}]"))),
                    ));
                }
                let (mut content, mut end, mut note) = if range.start > total {
                    (
                        "",
                        range.start - 1,
                        Some(format!(
                            "the file has {total} lines, so nothing is read from line {}",
                            range.start
                        )),
                    )
                } else {
                    let last = range.end.unwrap_or(total).min(total);
                    let note = range.end.filter(|&e| e > total).map(|e| {
                        format!(
                            "the file has {total} lines, so the range ends there instead of at {e}"
                        )
                    });
                    (lines_text(doc, range.start, last), last, note)
                };
                let truncated = content.len() > budget;
                if truncated {
                    end = last_line_within(doc, range.start, end, budget);
                    content = if end < range.start {
                        ""
                    } else {
                        lines_text(doc, range.start, end)
                    };
                    note = Some(format!(
                        "this reply holds at most {} MB of content, so the range ends at line {end}; \
                         read on from line {} in another call",
                        MAX_CONTENT_BYTES / (1024 * 1024),
                        end + 1
                    ));
                }
                budget -= content.len();
                ranges.push(RangeContent {
                    content: content.to_string(),
                    start: range.start,
                    end,
                    range_hash: file_hash(&[content.as_bytes()]),
                    total_lines: total,
                    content_size: content.chars().count(),
                    note,
                    truncated,
                });
            }
            out.push((
                file.file_path.clone(),
                FileContents {
                    ranges,
                    file_hash: doc.hash(),
                    total_lines: total,
                    encoding: doc.encoding().name(),
                },
            ));
        }
        Ok(ByPath(out))
    }

    fn attach_notes(value: &mut Value, notes: Vec<String>) {
        attach_notes_to_entries(value, notes);
    }
}

/// The last line of `first..=last` whose text from `first` on fits in
/// `budget` bytes; `first - 1` when not even line `first` does.
fn last_line_within(doc: &Document, first: usize, last: usize, budget: usize) -> usize {
    let index = doc.lines();
    let start = index.start(first);
    let fits = |k: usize| index.span_with_eol(k).end - start <= budget;
    // Lines end further on as k grows: the first that does not fit ends it.
    let (mut low, mut high) = (first, last + 1);
    while low < high {
        let mid = low + (high - low) / 2;
        if fits(mid) {
            low = mid + 1;
        } else {
            high = mid;
        }
    }
    low - 1
}
