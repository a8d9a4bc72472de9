//! Keeping links intact when Move moves a file or folder: the new content of
//! every Markdown file of the root whose links would stop reaching their
//! files (links to the moved paths, and the moved file's own relative
//! links), planned against the files as they are, for the committer to write
//! together with the move.
//!
//! Links reach only inside their own root, so only the root of the move is
//! looked at, with the walk rules of a search (hidden, ignored and trashed
//! files left out, as note apps leave them out).

use schemars::JsonSchema;
use serde::Serialize;

use super::context::ToolContext;
use super::error::ToolError;
use super::link_context::{MAX_INDEXED_FILES, link_style, relative_to};
use crate::text::document::{Document, Splice};
use crate::text::format::{Format, format_of};
use crate::text::markdown::{LinkRewrite, PathMove, VaultIndex, moved_path, rewrite_links_styled};
use crate::workspace::commit::{EntryKind, Relocation};
use crate::workspace::roots::ResolvedPath;
use crate::workspace::search::files::walk_files;

/// One link a move rewrites (or, in a dry run, would rewrite).
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct LinkUpdate {
    /// The file holding the link, where it is before the move (absolute).
    pub file_path: String,
    /// The line of the link's target.
    pub line: usize,
    /// The target as written before.
    pub before: String,
    /// The target as written after.
    pub after: String,
}

/// A file whose links change, read before the move.
#[derive(Debug)]
pub struct FileRewrite {
    /// Where it is before the move.
    pub path: ResolvedPath,
    /// Its content as planned against.
    pub before: Document,
    /// Its content with the links rewritten.
    pub after: Document,
    /// The links rewritten.
    pub rewrites: Vec<LinkRewrite>,
}

/// The link rewrites of a move.
#[derive(Debug, Default)]
pub struct LinkPlan {
    /// The files that change.
    pub files: Vec<FileRewrite>,
    /// Markdown files that could not be read, left as they are.
    pub unreadable: Vec<String>,
}

impl LinkPlan {
    /// Every rewritten link, file by file.
    pub fn updates(&self) -> Vec<LinkUpdate> {
        self.files
            .iter()
            .flat_map(|f| {
                f.rewrites.iter().map(|r| LinkUpdate {
                    file_path: f.path.display(),
                    line: r.line,
                    before: r.old_target.clone(),
                    after: r.new_target.clone(),
                })
            })
            .collect()
    }
}

/// Whether a move of `plan` keeps links by default: Markdown files and
/// folders.
pub fn updates_links_by_default(plan: &Relocation) -> bool {
    plan.kind == EntryKind::Folder || format_of(&plan.source.real) == Format::Markdown
}

/// The rewrites that keep every link of the move's root reaching the file
/// it reached before `plan` moves.
pub fn plan_link_updates(ctx: &ToolContext, plan: &Relocation) -> Result<LinkPlan, ToolError> {
    let root = plan.source.root.clone();
    let start = ResolvedPath {
        real: root.clone(),
        root: root.clone(),
        exists: true,
    };
    let cancel = ctx.cancel_flag();
    let walked = walk_files(&start, MAX_INDEXED_FILES, &cancel);
    if walked.cancelled {
        return Err(ToolError::new("Move was cancelled; nothing was moved"));
    }
    if walked.truncated {
        return Err(ToolError::new(format!(
            "{} holds more than {MAX_INDEXED_FILES} files, too many to update the links to {} in; nothing was moved",
            root.display(),
            plan.source.display()
        ))
        .suggest("Pass updateLinks: false to move without updating links, then fix them with CheckLinks"));
    }
    let source = relative_to(&root, &plan.source.real);
    let destination = relative_to(&root, &plan.destination.real);
    let moves = [PathMove::new(source.clone(), destination)];
    let mut before_paths: Vec<String> =
        walked.files.iter().map(|f| relative_to(&root, f)).collect();
    // A moved file the walk leaves out (hidden, ignored) is still what links
    // to it reach.
    if !before_paths.contains(&source) && plan.kind == EntryKind::File {
        before_paths.push(source.clone());
    }
    let after_paths: Vec<String> = before_paths
        .iter()
        .map(|p| moved_path(&moves, p).unwrap_or_else(|| p.clone()))
        .collect();
    let before_index = VaultIndex::new(before_paths.iter().cloned());
    let after_index = VaultIndex::new(after_paths);
    let style = link_style(&ctx.workspace, &root);

    let mut out = LinkPlan::default();
    for rel in &before_paths {
        if ctx.is_cancelled() {
            return Err(ToolError::new("Move was cancelled; nothing was moved"));
        }
        let real = root.join(rel);
        if format_of(&real) != Format::Markdown {
            continue;
        }
        let Some(given) = real.to_str() else {
            out.unreadable.push(real.display().to_string());
            continue;
        };
        let file = match ctx.workspace.read(given, None) {
            Ok(file) if file.path.root == root => file,
            _ => {
                out.unreadable.push(given.to_string());
                continue;
            }
        };
        let text = file.doc.text();
        if !text.contains('[') {
            continue;
        }
        let index = file.doc.lines();
        let new = moved_path(&moves, rel).unwrap_or_else(|| rel.clone());
        let mut rewrites = rewrite_links_styled(
            text,
            index,
            rel,
            &new,
            &moves,
            &before_index,
            &after_index,
            style.as_ref(),
        );
        if rewrites.is_empty() {
            continue;
        }
        rewrites.sort_by_key(|r| r.splice.range.start);
        let splices: Vec<Splice> = rewrites.iter().map(|r| r.splice.clone()).collect();
        let after = file.doc.apply(&splices).map_err(|e| {
            ToolError::new(format!(
                "Cannot update the links in {}: {e}; nothing was moved",
                file.path.display()
            ))
            .suggest("Pass updateLinks: false to move without updating links")
        })?;
        out.files.push(FileRewrite {
            path: file.path,
            before: file.doc,
            after,
            rewrites,
        });
    }
    Ok(out)
}
