//! CheckLinks: the broken internal links of the Markdown files in a root, a
//! folder, a glob or one file.
//!
//! Files are chosen by the same walk as TextSearch's. Each file's links are
//! checked against the file system of its own root (see
//! [`super::link_context`]); a reference link is checked once, at its
//! definition, and a reference to a label that has no definition is broken.

use std::collections::HashMap;
use std::path::PathBuf;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::context::ToolContext;
use super::error::ToolError;
use super::link_context::{MAX_INDEXED_FILES, RootLinks, relative_to};
use super::link_report::describe_link;
use super::text_search::{UNREADABLE_EXAMPLES, UnreadableFile, UnreadableReport};
use super::tool::{Effects, Tool, Toolset};
use crate::text::format::{Format, format_of};
use crate::text::markdown::{LinkKind, LinkedDocument, VaultIndex, parse_links};
use crate::workspace::WorkspaceError;
use crate::workspace::roots::ResolvedPath;
use crate::workspace::search::FilePattern;
use crate::workspace::search::files::walk_files;

/// Most broken links a reply lists by default.
pub const DEFAULT_MAX_RESULTS: usize = 200;
/// Most broken links a reply may list.
pub const MAX_RESULTS: usize = 1000;

/// The CheckLinks tool.
pub struct CheckLinks;

fn default_max_results() -> usize {
    DEFAULT_MAX_RESULTS
}

/// Parameters of CheckLinks.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CheckLinksParams {
    /// Default: every root.
    #[serde(default)]
    pub directory_path: Option<String>,
    /// One file only.
    #[serde(default)]
    pub file_path: Option<String>,
    /// As TextSearch's, e.g. "notes/**/*.md".
    #[serde(default)]
    pub file_pattern: Option<String>,
    /// Broken links listed (at most 1000); brokenCount counts all.
    #[serde(default = "default_max_results")]
    pub max_results: usize,
}

/// Result of CheckLinks.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CheckLinksOutput {
    /// The folders (or the file) checked.
    pub checked_paths: Vec<String>,
    /// Markdown files whose links were checked.
    pub files_checked: usize,
    /// Internal links checked (to files, folders, notes, headings, anchors, blocks).
    pub links_checked: usize,
    /// Links to URLs outside the roots, which are not checked.
    pub external_links: usize,
    /// Broken links found (listed or not).
    pub broken_count: usize,
    /// The broken links, by file and line.
    pub broken: Vec<BrokenLink>,
    /// Whether some broken links are not listed (maxResults), or the check was cancelled.
    pub truncated: bool,
    /// Files that could not be read.
    pub unreadable: UnreadableReport,
    /// Remarks.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// One broken link.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct BrokenLink {
    /// The file holding the link.
    pub file_path: String,
    /// 1-based line of the link (of a reference link: of its definition).
    pub line: usize,
    /// 1-based column where it starts.
    pub column: usize,
    /// inline, image, reference, definition, wikilink or embed.
    pub kind: LinkKind,
    /// The target as written.
    pub target: String,
    /// Why it is broken, e.g. "no file notes/a.md" or "no heading 'Taks' in notes/b.md".
    pub reason: String,
    /// What is close, e.g. the nearest heading.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suggestion: Option<String>,
}

impl Tool for CheckLinks {
    type Params = CheckLinksParams;
    type Output = CheckLinksOutput;

    const NAME: &'static str = "CheckLinks";
    const TITLE: &'static str = "Find broken Markdown links";
    const TOOLSET: Toolset = Toolset::Links;
    const EFFECTS: Effects = Effects::READ_ONLY;

    fn description() -> &'static str {
        "Finds broken internal links in Markdown files (inline, reference, wikilinks, embeds, #headings, ^blocks) with file, line, reason and the nearest match; URLs are not checked. For one file's links use TextInspect. Example: {\"directoryPath\": \"projects\"}"
    }

    fn run(ctx: &ToolContext, params: CheckLinksParams) -> Result<CheckLinksOutput, ToolError> {
        check_params(&params)?;
        let file_pattern = params
            .file_pattern
            .as_deref()
            .map(FilePattern::new)
            .transpose()
            .map_err(|e| {
                ToolError::new(e.to_string()).suggest(
                    "Use * for any characters within a name and ** for any folders, e.g. \"*.md\" or \"notes/**/*.md\"",
                )
            })?;
        let cancel = ctx.cancel_flag();
        let workspace = &ctx.workspace;
        let (checked_paths, files, mut walked_roots, walk_unreadable) = match &params.file_path {
            Some(given) => {
                let path = workspace.resolve_file(given)?;
                if format_of(&path.real) != Format::Markdown {
                    return Err(ToolError::new(format!(
                        "CheckLinks checks the links of Markdown files, and {} is not one (.md, .markdown, .mdx)",
                        path.display()
                    ))
                    .suggest("Pass a Markdown file, or a folder as directoryPath"));
                }
                (vec![path.display()], vec![path], Vec::new(), Vec::new())
            }
            None => {
                let folders = folders(ctx, params.directory_path.as_deref())?;
                let mut files = Vec::new();
                let mut unreadable = Vec::new();
                let mut walked_roots = Vec::new();
                for folder in &folders {
                    let walked = walk_files(folder, MAX_INDEXED_FILES, &cancel);
                    unreadable.extend(walked.unreadable.into_iter().map(|u| UnreadableFile {
                        file_path: u.path.display().to_string(),
                        reason: u.reason,
                    }));
                    for real in &walked.files {
                        let relative = relative_to(&folder.root, real);
                        let selected = format_of(real) == Format::Markdown
                            && workspace.options().extensions.allows(real)
                            && file_pattern
                                .as_ref()
                                .is_none_or(|p| p.matches(std::path::Path::new(&relative)));
                        if selected {
                            files.push(ResolvedPath {
                                real: real.clone(),
                                root: folder.root.clone(),
                                exists: true,
                            });
                        }
                    }
                    // A walk of a whole root doubles as its wikilink index.
                    if folder.is_root() && !walked.truncated {
                        let root = folder.root.clone();
                        let index =
                            VaultIndex::new(walked.files.iter().map(|f| relative_to(&root, f)));
                        walked_roots.push((root, index));
                    }
                }
                (
                    folders.iter().map(ResolvedPath::display).collect(),
                    files,
                    walked_roots,
                    unreadable,
                )
            }
        };
        let mut contexts: HashMap<PathBuf, RootLinks<'_>> = HashMap::new();
        let mut out = CheckLinksOutput {
            checked_paths,
            files_checked: 0,
            links_checked: 0,
            external_links: 0,
            broken_count: 0,
            broken: Vec::new(),
            truncated: false,
            unreadable: UnreadableReport {
                count: 0,
                examples: Vec::new(),
            },
            note: None,
        };
        let mut unreadable: Vec<UnreadableFile> = walk_unreadable;
        let total = files.len();
        for (i, file) in files.iter().enumerate() {
            if ctx.is_cancelled() {
                out.truncated = true;
                out.note = Some(format!(
                    "The check was cancelled after {i} of {total} files; the results cover only those"
                ));
                break;
            }
            if i % 50 == 0 {
                ctx.progress(
                    i as f64,
                    Some(total as f64),
                    format!("{i} of {total} files checked"),
                );
            }
            let doc = match workspace.read_resolved(file, None) {
                Ok(doc) => doc,
                Err(error) => {
                    unreadable.push(UnreadableFile {
                        file_path: file.display(),
                        reason: error.to_string(),
                    });
                    continue;
                }
            };
            let root = contexts.entry(file.root.clone()).or_insert_with(|| {
                let mut links = RootLinks::new(workspace, file.root.clone(), &cancel);
                if let Some(at) = walked_roots.iter().position(|(r, _)| *r == file.root) {
                    links.set_notes(walked_roots.swap_remove(at).1);
                }
                links
            });
            let from = relative_to(&file.root, &file.real);
            let own = LinkedDocument::parse(doc.text());
            let links = parse_links(doc.text(), doc.lines());
            out.files_checked += 1;
            for link in &links {
                // Checked once, where its target is written: the definition.
                if link.kind == LinkKind::Reference && !link.is_undefined_reference() {
                    continue;
                }
                // Suggestions are only worked out for links the reply lists.
                root.suggest = out.broken.len() < params.max_results;
                let info = describe_link(link, &from, &own, root);
                if !info.internal {
                    out.external_links += 1;
                    continue;
                }
                out.links_checked += 1;
                if info.exists == Some(false) {
                    out.broken_count += 1;
                    if out.broken.len() < params.max_results {
                        out.broken.push(BrokenLink {
                            file_path: file.display(),
                            line: info.line,
                            column: info.column,
                            kind: info.kind,
                            target: info.target,
                            reason: info.reason.unwrap_or_default(),
                            suggestion: info.suggestion,
                        });
                    }
                }
            }
        }
        if out.broken_count > out.broken.len() {
            out.truncated = true;
            out.note = Some(format!(
                "Showing {} of {} broken links; narrow the check with directoryPath or filePattern, or raise maxResults (at most {MAX_RESULTS})",
                out.broken.len(),
                out.broken_count
            ));
        }
        if contexts.values().any(|c| c.index_truncated) {
            let note = format!(
                "A root holds more than {MAX_INDEXED_FILES} files; wikilinks were resolved against the first {MAX_INDEXED_FILES} only"
            );
            out.note = Some(match out.note.take() {
                Some(existing) => format!("{existing}; {note}"),
                None => note,
            });
        }
        if out.files_checked == 0 && out.note.is_none() {
            out.note = Some(
                "No Markdown files were found to check; hidden, .gitignored and trashed files are left out"
                    .to_string(),
            );
        }
        out.unreadable = UnreadableReport {
            count: unreadable.len(),
            examples: unreadable.into_iter().take(UNREADABLE_EXAMPLES).collect(),
        };
        Ok(out)
    }
}

fn check_params(params: &CheckLinksParams) -> Result<(), ToolError> {
    if params.max_results == 0 || params.max_results > MAX_RESULTS {
        return Err(ToolError::new(format!(
            "maxResults {} is out of range: it must be between 1 and {MAX_RESULTS}",
            params.max_results
        ))
        .suggest("brokenCount always counts every broken link; narrow the check with directoryPath or filePattern to list them in parts"));
    }
    super::scope::one_file_or_folders(
        params.file_path.is_some(),
        params.directory_path.is_some(),
        params.file_pattern.is_some(),
        "check",
    )
}

/// The folders to walk: `directory` or every root.
fn folders(ctx: &ToolContext, directory: Option<&str>) -> Result<Vec<ResolvedPath>, ToolError> {
    let roots = ctx.workspace.roots();
    match directory {
        Some(dir) => {
            let path = roots.resolve_existing(dir).map_err(WorkspaceError::from)?;
            if !path.real.is_dir() {
                return Err(ToolError::new(format!(
                    "directoryPath '{dir}' is a file, not a folder"
                ))
                .suggest(format!(
                    "To check only this file, pass filePath \"{dir}\" instead"
                )));
            }
            Ok(vec![path])
        }
        None => {
            if roots.list().is_empty() {
                return Err(
                    WorkspaceError::from(crate::workspace::roots::PathError::NoRoots).into(),
                );
            }
            Ok(roots
                .list()
                .iter()
                .map(|root| ResolvedPath {
                    real: root.clone(),
                    root: root.clone(),
                    exists: true,
                })
                .collect())
        }
    }
}
