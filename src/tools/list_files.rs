//! ListFiles: the files in one folder (or, with `recursive`, under it), each
//! with its size, modification time, and whether the text tools may open it.
//!
//! Every file is listed, not only those with an allowed ending, so an agent
//! sees what is there (images, PDFs) and can still move or remove it;
//! `editable` says which ones the text tools will open.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::context::ToolContext;
use super::error::ToolError;
use super::tool::{Effects, Tool, Toolset};
use crate::workspace::listing::list_files;
use crate::workspace::timestamp::UtcTime;

/// Most files one call returns.
pub const MAX_FILES: usize = 1000;

/// The ListFiles tool.
pub struct ListFiles;

/// Parameters of ListFiles.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ListFilesParams {
    /// A folder, e.g. as ListDirectories gives it.
    pub path: String,
    /// Also the subfolders' files (not hidden or .gitignored ones).
    #[serde(default)]
    pub recursive: bool,
    /// nextOffset of the previous page.
    #[serde(default)]
    pub offset: usize,
}

/// A file in the listing.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FileInfo {
    /// Absolute path of the file.
    pub path: String,
    /// Size in bytes.
    pub size: u64,
    /// Last modification time, UTC, e.g. 2026-11-22T04:05:06Z.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub modified: Option<String>,
    /// Whether the text tools (TextInspect, TextRead, TextPatch, TextReplace) open it: its ending is an allowed one (the server's --extensions). Binary content is still refused when read.
    pub editable: bool,
}

/// Result of ListFiles.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ListFilesOutput {
    /// The folder listed (absolute).
    pub path: String,
    /// The files, by path; in a recursive listing each folder's files come before its subfolders'.
    pub files: Vec<FileInfo>,
    /// How many files this response holds.
    pub file_count: usize,
    /// True when more files follow; call again with offset = nextOffset.
    pub truncated: bool,
    /// The offset of the next page, when truncated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_offset: Option<usize>,
    /// Remarks, e.g. how many files the text tools will not open.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl Tool for ListFiles {
    type Params = ListFilesParams;
    type Output = ListFilesOutput;

    const NAME: &'static str = "ListFiles";
    const TITLE: &'static str = "List files";
    const TOOLSET: Toolset = Toolset::Files;
    const EFFECTS: Effects = Effects::READ_ONLY;

    fn description() -> &'static str {
        "The files of a folder with size, modification time (UTC) and editable (whether the text tools open it); 1000 per page. For the folder tree use ListDirectories. Example: {\"path\": \"notes\", \"recursive\": true}"
    }

    fn run(ctx: &ToolContext, params: ListFilesParams) -> Result<ListFilesOutput, ToolError> {
        let workspace = &ctx.workspace;
        let dir = workspace.resolve_dir(&params.path)?;
        let roots = workspace.roots();
        let page = list_files(&roots, &dir, params.recursive, params.offset, MAX_FILES);
        let extensions = &workspace.options().extensions;
        let files: Vec<FileInfo> = page
            .files
            .into_iter()
            .map(|f| FileInfo {
                editable: extensions.allows(&f.path),
                path: f.path.display().to_string(),
                size: f.size,
                modified: f.modified.map(|t| UtcTime::of(t).rfc3339()),
            })
            .collect();
        let mut notes = Vec::new();
        if files.is_empty() && params.offset > 0 {
            notes.push(format!(
                "offset {} is past the last file; use offset 0 for the first page",
                params.offset
            ));
        } else if files.is_empty() {
            notes.push(
                if params.recursive {
                    "No files in this folder or its listed subfolders"
                } else {
                    "No files directly in this folder; recursive: true also lists its subfolders' files, and ListDirectories shows its subfolders"
                }
                .to_string(),
            );
        }
        let locked = files.iter().filter(|f| !f.editable).count();
        if locked > 0 {
            notes.push(format!(
                "{locked} file{} with endings the text tools do not open (editable: false)",
                if locked == 1 { "" } else { "s" }
            ));
        }
        Ok(ListFilesOutput {
            path: dir.display(),
            file_count: files.len(),
            next_offset: page.truncated.then(|| params.offset + files.len()),
            files,
            truncated: page.truncated,
            note: (!notes.is_empty()).then(|| notes.join("; ")),
        })
    }
}
