//! TextReplace with `filePattern`: the same exact replacement in every file
//! a glob selects, as one change, all or nothing.
//!
//! The files are found as TextSearch finds them (the same walk: hidden,
//! ignored and trashed files left out), keeping those that hold the longest
//! line of `oldText`; each is then locked, read and planned exactly as a
//! TextReplace of that file alone would be. A file where `oldText` does not
//! occur is left alone; a file where the replacement would be refused (an
//! ambiguous match without `occurrence`, say) refuses the whole call, named.
//! At most [`MAX_FILES`] files are changed in one call.

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::json;

use super::context::ToolContext;
use super::error::ToolError;
use super::replacement::{
    ReplacePlan, ReplaceReply, TextReplaceParams, check_texts, plan_replace, replace_reply,
};
use crate::text::literal::find_all;
use crate::workspace::batch::Edited;
use crate::workspace::commit::BatchItem;
use crate::workspace::commit::Change;
use crate::workspace::fd_room;
use crate::workspace::roots::ResolvedPath;
use crate::workspace::search::{FilePattern, Pattern, SearchRequest, SearchScope, search};

/// Most files one call changes.
pub const MAX_FILES: usize = 100;

/// What a replacement across files did.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AcrossReply {
    /// The glob that chose the files.
    pub file_pattern: String,
    /// Files where oldText was replaced (in a dry run: would be).
    pub files_changed: usize,
    /// Replacements made in all files together.
    pub total_replaced: usize,
    /// Each changed file's replacement, as TextReplace reports it for one file.
    pub files: Vec<ReplaceReply>,
    /// Files that matched the pattern but could not be searched, and why.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unreadable: Vec<String>,
}

/// Runs TextReplace over the files `pattern` selects.
pub fn replace_across(
    ctx: &ToolContext,
    params: &TextReplaceParams,
    pattern: &str,
) -> Result<AcrossReply, ToolError> {
    check_texts(params)?;
    if !ctx.settings.enabled_tools.contains(&"Batch") {
        return Err(ToolError::new(
            "filePattern changes many files at once, which belongs to the batch toolset, and this server has it switched off",
        )
        .suggest("Pass filePath to edit one file at a time, or ask for the server to be started with the batch toolset"));
    }
    if params.expected_hash.is_some() {
        return Err(ToolError::new(
            "expectedHash was given with filePattern, but it names one file's hash and filePattern edits many",
        )
        .suggest("Leave expectedHash out; pass dryRun: true first to see every file's diff"));
    }
    let old_text = params.old_text.as_str();
    let file_pattern = FilePattern::new(pattern).map_err(|e| {
        ToolError::new(e.to_string()).suggest(
            "Use * for any characters within a name, ** for any folders and {a,b} for alternatives, e.g. \"*.md\" or \"notes/**/*.md\"",
        )
    })?;
    // Every file holding oldText holds each of its lines; the longest is
    // the most selective one to look for.
    let probe = old_text
        .split('\n')
        .map(|line| line.strip_suffix('\r').unwrap_or(line))
        .max_by_key(|line| line.len())
        .unwrap_or("");
    let query = Pattern::new(probe, false, true).map_err(|_| {
        ToolError::new("oldText holds nothing but line breaks, which filePattern cannot look for")
            .suggest("Include some of the text around the line breaks in oldText and newText")
    })?;

    let workspace = &ctx.workspace;
    let roots = workspace.roots();
    let cancel = ctx.cancel_flag();
    let summary = search(&SearchRequest {
        roots: &roots,
        scope: SearchScope::Folders(
            roots
                .list()
                .iter()
                .map(|root| ResolvedPath {
                    real: root.clone(),
                    root: root.clone(),
                    exists: true,
                })
                .collect(),
        ),
        pattern: &query,
        file_pattern: Some(&file_pattern),
        filter: None,
        extensions: &workspace.options().extensions,
        max_file_size: workspace.options().max_file_size,
        cancel: &cancel,
        progress: &|_| {},
    });
    if summary.cancelled {
        return Err(ToolError::new(
            "The call was cancelled; nothing was written",
        ));
    }
    let unreadable: Vec<String> = summary
        .unreadable
        .iter()
        .map(|u| format!("{}: {}", u.path.display(), u.reason))
        .collect();
    if summary.files.len() > MAX_FILES {
        return Err(ToolError::new(format!(
            "oldText occurs in {} files matching '{pattern}', more than the {MAX_FILES} one call may change; nothing was written",
            summary.files.len()
        ))
        .suggest("Narrow filePattern (e.g. to one folder) and call again for each part")
        .detail("filesMatched", json!(summary.files.len())));
    }
    let not_found = || {
        ToolError::new(format!(
            "oldText was not found in any of the {} files matching '{pattern}'; nothing was written",
            summary.files_searched
        ))
        .suggest("Check the pattern with TextSearch (query and filePattern), and copy oldText exactly from a file")
    };
    if summary.files.is_empty() {
        return Err(not_found());
    }
    let given: Vec<String> = summary.files.iter().map(|f| f.path.display()).collect();
    if !fd_room::make_room(2 * given.len()) {
        return Err(ToolError::new(format!(
            "{} files match, more than this process may hold open at once; nothing was written",
            given.len()
        ))
        .suggest("Narrow filePattern and call again for each part"));
    }
    let items: Vec<BatchItem> = given.iter().map(|g| BatchItem::new(g)).collect();
    let transaction = workspace
        .transaction(&items, Vec::new())
        .map_err(|f| in_file(f.error.into(), f.index.map(|i| given[i].as_str())))?;

    let mut contents = Vec::with_capacity(items.len());
    let mut plans: Vec<Option<ReplacePlan>> = Vec::with_capacity(items.len());
    for file in transaction.files() {
        if find_all(file.doc.text(), old_text).is_empty() {
            contents.push(None);
            plans.push(None);
            continue;
        }
        let path = file.path.display();
        let (after, plan) = plan_replace(
            &file.doc,
            old_text,
            params.new_text.as_str(),
            params.occurrence,
            &path,
        )
        .map_err(|e| in_file(e, Some(&path)))?;
        contents.push(Some(after));
        plans.push(Some(plan));
    }
    if plans.iter().all(Option::is_none) {
        return Err(not_found());
    }
    let done = transaction
        .commit(Change::new("TextReplace", contents), !params.dry_run)
        .map_err(|f| in_file(f.error.into(), f.index.map(|i| given[i].as_str())))?;
    let mut files = Vec::new();
    for ((before, after), plan) in done.before.into_iter().zip(done.after).zip(plans) {
        let (Some(after), Some(plan)) = (after, plan) else {
            continue;
        };
        let reply_path = before.path.display();
        let mut reply = replace_reply(
            ctx,
            &Edited {
                path: before.path,
                before: before.doc,
                after,
                value: plan,
                written: done.written,
                history: done.history.clone(),
            },
        );
        reply.file_path = Some(reply_path);
        files.push(reply);
    }
    Ok(AcrossReply {
        file_pattern: pattern.to_string(),
        files_changed: files.len(),
        total_replaced: files.iter().map(|f| f.occurrences_replaced).sum(),
        files,
        unreadable,
    })
}

/// `error` about the file `path` of the pattern, named in the message.
fn in_file(error: ToolError, path: Option<&str>) -> ToolError {
    let Some(path) = path else {
        return error;
    };
    let own = error.message.trim_end_matches("; nothing was written");
    let message = if own.contains(path) {
        format!("{own}; no file matching the pattern was changed")
    } else {
        format!("{path}: {own}; no file matching the pattern was changed")
    };
    ToolError { message, ..error }.detail("filePath", json!(path))
}
