//! Tags: the tags of the vault (or of one note) with counts; adding and
//! removing tags on a note; renaming a tag, children included, across every
//! note as one change with one undo.
//!
//! A rename finds the notes that mention the tag's name with the parallel
//! search walk (the same files TextSearch sees), then locks, reads, plans and
//! writes them through the committer as one change, all or nothing. A note
//! whose frontmatter cannot be read (it does not parse, or is never closed)
//! is left whole, byte for byte, and named in the reply's `skipped` with its
//! line: the other notes are renamed, and a later rename with filePath
//! finishes it once it is fixed. Renaming in one note (filePath) refuses.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::context::ToolContext;
use super::edit_report::WriteSummary;
use super::error::ToolError;
use super::tool::{Effects, Tool, Toolset};
use crate::text::document::Document;
use crate::text::format::{Format, format_of};
use crate::text::markdown::is_tag;
use crate::text::properties::{
    PropertyError, TagEdit, add_tags, note_tags, remove_tags, rename_tag,
};
use crate::workspace::commit::{BatchItem, Change, History};
use crate::workspace::fd_room;
use crate::workspace::roots::ResolvedPath;
use crate::workspace::search::files::walk_files;
use crate::workspace::search::{FilePattern, Pattern, SearchRequest, SearchScope, search};

/// Most notes one rename changes.
pub const MAX_RENAMED_FILES: usize = 5000;
/// Most notes a listing reads per root.
pub const MAX_LISTED_NOTES: usize = 200_000;

/// The Tags tool.
pub struct Tags;

/// Parameters of Tags.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct TagsParams {
    /// One note (default: every note).
    #[serde(default)]
    pub file_path: Option<String>,
    /// To the frontmatter tags.
    #[serde(default)]
    pub add: Option<Vec<String>>,
    /// From the frontmatter tags (with inline, also #tags).
    #[serde(default)]
    pub remove: Option<Vec<String>>,
    /// A tag and its children, in every note, as one change.
    #[serde(default)]
    pub rename: Option<TagRename>,
    /// remove: also the #tags in the text.
    #[serde(default)]
    pub inline: bool,
    /// add/remove: fileHash from an earlier response; refused if the note changed since.
    #[schemars(description = "")] // said once, in the server's instructions
    #[serde(default)]
    pub expected_hash: Option<String>,
    /// If true, return the diffs without writing.
    #[schemars(description = "")] // said once, in the server's instructions
    #[serde(default)]
    pub dry_run: bool,
}

/// A rename: `{"from": "project/alpha", "to": "project/beta"}`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TagRename {
    /// Children follow.
    pub from: String,
    /// The new name.
    pub to: String,
}

/// Result of Tags.
#[derive(Debug, Default, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TagsOutput {
    /// Listing: each tag (as first written) with how often it is used, most used first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<TagCount>>,
    /// Listing of every note: how many notes were read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notes_read: Option<usize>,
    /// A change: the notes it changed (in a dry run: would change), with their new hash.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub files: Option<Vec<TagFile>>,
    /// A change: how many tags were renamed, added or removed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub changed: Option<usize>,
    /// The change's id: UndoEdit takes it and undoes every note.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub change_id: Option<String>,
    /// Present and true when nothing was written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dry_run: Option<bool>,
    /// A rename: notes left unchanged because their frontmatter cannot be read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skipped: Option<Vec<SkippedNote>>,
    /// Remarks.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// A note a rename left as it was.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SkippedNote {
    /// The note.
    pub file_path: String,
    /// The line of its frontmatter that stopped the rename there.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// Why, and what to do.
    pub reason: String,
}

/// A tag and its uses.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TagCount {
    /// The tag, without #.
    pub tag: String,
    /// How often it is used.
    pub count: usize,
    /// Across notes: in how many notes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notes: Option<usize>,
    /// In one note: the lines (a frontmatter tag's is its key's line).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lines: Option<Vec<usize>>,
}

/// A note a change touched.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TagFile {
    /// The note.
    pub file_path: String,
    /// How many of its tags changed.
    pub changed: usize,
    /// Its hash after the change.
    pub file_hash: String,
    /// In a dry run, the diff.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diff: Option<String>,
}

impl Tool for Tags {
    type Params = TagsParams;
    type Output = TagsOutput;

    const NAME: &'static str = "Tags";
    const TITLE: &'static str = "List, add, remove or rename tags";
    const TOOLSET: Toolset = Toolset::Vault;
    const EFFECTS: Effects = Effects::READS_OR_EDITS;

    fn description() -> &'static str {
        "Lists tags with counts (every note, or filePath's), adds or removes a note's tags, or renames a tag in every note. To find notes by tag use TextSearch tag. Example: {\"rename\": {\"from\": \"project/alpha\", \"to\": \"project/beta\"}}"
    }

    fn writes(params: &TagsParams) -> bool {
        params.add.is_some() || params.remove.is_some() || params.rename.is_some()
    }

    fn run(ctx: &ToolContext, params: TagsParams) -> Result<TagsOutput, ToolError> {
        let actions = [
            params.add.is_some(),
            params.remove.is_some(),
            params.rename.is_some(),
        ]
        .iter()
        .filter(|a| **a)
        .count();
        if actions > 1 {
            return Err(ToolError::new(
                "add, remove and rename were combined; one call does one of them",
            )
            .suggest("Make one call per action"));
        }
        if params.inline && params.remove.is_none() {
            return Err(ToolError::new("inline goes with remove only")
                .suggest("Leave inline out, or pass remove"));
        }
        if let Some(rename) = &params.rename {
            return rename_across(ctx, &params, rename);
        }
        if params.add.is_some() || params.remove.is_some() {
            return change_one(ctx, &params);
        }
        if params.dry_run || params.expected_hash.is_some() {
            return Err(ToolError::new("dryRun and expectedHash belong to a change, but no add, remove or rename was given")
                .suggest("Leave them out to list tags"));
        }
        match &params.file_path {
            Some(path) => list_one(ctx, path),
            None => list_all(ctx),
        }
    }
}

/// A tag name from the caller, without `#`, checked.
fn tag_name(given: &str) -> Result<String, ToolError> {
    let name = given.trim().trim_start_matches('#');
    if is_tag(name) {
        Ok(name.to_string())
    } else {
        Err(ToolError::new(format!(
            "'{}' is not a tag name: tags are letters, digits, _, - and / (nesting), with at least one non-digit",
            crate::text::excerpt::brief(given)
        ))
        .suggest("Write tags like \"project/alpha\" or \"#draft\""))
    }
}

fn tag_names(given: &[String]) -> Result<Vec<String>, ToolError> {
    if given.is_empty() {
        return Err(ToolError::new("the list of tags is empty").suggest("Name at least one tag"));
    }
    given.iter().map(|t| tag_name(t)).collect()
}

fn property_error(error: PropertyError, path: &str) -> ToolError {
    let suggestion = error.suggestion();
    ToolError::new(format!("Cannot change the tags of {path}: {error}")).suggest(suggestion)
}

fn require_markdown(path: &ResolvedPath) -> Result<(), ToolError> {
    if format_of(&path.real) == Format::Markdown {
        return Ok(());
    }
    Err(ToolError::new(format!(
        "{} is not a Markdown note; tags live in notes",
        path.display()
    ))
    .suggest("Name a .md file"))
}

/// The tags of one note, with their lines.
fn list_one(ctx: &ToolContext, path: &str) -> Result<TagsOutput, ToolError> {
    let file = ctx.workspace.read(path, None)?;
    require_markdown(&file.path)?;
    let mut tags: BTreeMap<String, (String, Vec<usize>)> = BTreeMap::new();
    for tag in note_tags(file.doc.text()) {
        let entry = tags
            .entry(tag.name.to_lowercase())
            .or_insert_with(|| (tag.name.clone(), Vec::new()));
        entry.1.push(tag.line);
    }
    let mut list: Vec<TagCount> = tags
        .into_values()
        .map(|(tag, lines)| TagCount {
            tag,
            count: lines.len(),
            notes: None,
            lines: Some(lines),
        })
        .collect();
    list.sort_by(|a, b| b.count.cmp(&a.count).then(a.tag.cmp(&b.tag)));
    Ok(TagsOutput {
        tags: Some(list),
        ..TagsOutput::default()
    })
}

/// The tags of every note of every root, with counts.
fn list_all(ctx: &ToolContext) -> Result<TagsOutput, ToolError> {
    let cancel = ctx.cancel_flag();
    let mut tags: BTreeMap<String, (String, usize, usize)> = BTreeMap::new();
    let mut read = 0;
    let mut notes = Vec::new();
    for root in ctx.workspace.roots().list() {
        let start = ResolvedPath {
            real: root.clone(),
            root: root.clone(),
            exists: true,
        };
        let walked = walk_files(&start, MAX_LISTED_NOTES, &cancel);
        notes.extend(
            walked
                .files
                .into_iter()
                .filter(|f| format_of(f) == Format::Markdown),
        );
    }
    for note in notes {
        if ctx.is_cancelled() {
            return Err(ToolError::new("Tags was cancelled"));
        }
        let Some(given) = note.to_str() else { continue };
        let Ok(file) = ctx.workspace.read(given, None) else {
            continue;
        };
        read += 1;
        let mut seen: Vec<String> = Vec::new();
        for tag in note_tags(file.doc.text()) {
            let key = tag.name.to_lowercase();
            let entry = tags
                .entry(key.clone())
                .or_insert_with(|| (tag.name.clone(), 0, 0));
            entry.1 += 1;
            if !seen.contains(&key) {
                entry.2 += 1;
                seen.push(key);
            }
        }
    }
    let mut list: Vec<TagCount> = tags
        .into_values()
        .map(|(tag, count, notes)| TagCount {
            tag,
            count,
            notes: Some(notes),
            lines: None,
        })
        .collect();
    list.sort_by(|a, b| b.count.cmp(&a.count).then(a.tag.cmp(&b.tag)));
    Ok(TagsOutput {
        tags: Some(list),
        notes_read: Some(read),
        ..TagsOutput::default()
    })
}

/// add or remove on one note.
fn change_one(ctx: &ToolContext, params: &TagsParams) -> Result<TagsOutput, ToolError> {
    let Some(path) = &params.file_path else {
        return Err(
            ToolError::new("add and remove change one note, but filePath is missing")
                .suggest("Pass filePath; to change a tag in every note use rename"),
        );
    };
    let (adding, tags) = match (&params.add, &params.remove) {
        (Some(add), _) => (true, tag_names(add)?),
        (_, Some(remove)) => (false, tag_names(remove)?),
        _ => unreachable!("run() checked"),
    };
    let item = BatchItem {
        expected_hash: params.expected_hash.as_deref(),
        ..BatchItem::new(path)
    };
    let transaction = ctx
        .workspace
        .transaction(&[item], Vec::new())
        .map_err(|f| ToolError::from(f.error))?;
    let file = &transaction.files()[0];
    require_markdown(&file.path)?;
    let shown = file.path.display();
    let text = file.doc.text();
    let planned = if adding {
        add_tags(text, &tags)
    } else {
        remove_tags(text, &tags, params.inline)
    }
    .map_err(|e| property_error(e, &shown))?;
    let after = apply(&file.doc, &planned, &shown)?;
    let done = transaction
        .commit(Change::new(Tags::NAME, vec![Some(after)]), !params.dry_run)
        .map_err(|f| ToolError::from(f.error))?;
    let note = match (planned.count, planned.created) {
        (0, _) if adding => Some("The note has these tags already; nothing changed".to_string()),
        (0, _) => Some(format!(
            "The note's frontmatter has none of these tags{}; nothing changed",
            if params.inline {
                " and neither has its text"
            } else {
                " (inline: true also removes #tags from the text)"
            }
        )),
        (_, true) => Some("The note had no frontmatter; a YAML block was added at its top".into()),
        _ => done.history.note(),
    };
    Ok(finish(&done, vec![planned.count], params.dry_run, note))
}

/// The reply of a committed change of `counts[i]` tags in each file.
fn finish(
    done: &crate::workspace::commit::Committed,
    counts: Vec<usize>,
    dry_run: bool,
    note: Option<String>,
) -> TagsOutput {
    let mut files = Vec::new();
    for ((before, after), count) in done.before.iter().zip(&done.after).zip(counts) {
        let Some(after) = after else { continue };
        if count == 0 {
            continue;
        }
        let label = before.path.relative().display().to_string();
        let summary = WriteSummary::new(&before.doc, after, done.written, &label);
        files.push(TagFile {
            file_path: before.path.display(),
            changed: count,
            file_hash: summary.file_hash,
            diff: summary.diff,
        });
    }
    TagsOutput {
        changed: Some(files.iter().map(|f| f.changed).sum()),
        files: Some(files),
        change_id: match &done.history {
            History::Recorded(id) => Some(id.clone()),
            _ => None,
        },
        dry_run: dry_run.then_some(true),
        note,
        ..TagsOutput::default()
    }
}

fn apply(doc: &Document, planned: &TagEdit, path: &str) -> Result<Document, ToolError> {
    doc.apply(&planned.splices).map_err(|e| {
        ToolError::new(format!("Cannot write {path}: {e}; nothing was written"))
            .suggest("Use only characters the file's encoding can hold")
    })
}

/// A rename in every note (or one), as one change.
fn rename_across(
    ctx: &ToolContext,
    params: &TagsParams,
    rename: &TagRename,
) -> Result<TagsOutput, ToolError> {
    let from = tag_name(&rename.from)?;
    let to = tag_name(&rename.to)?;
    if from == to {
        return Err(ToolError::new("from and to are the same tag").suggest("Name a new tag in to"));
    }
    if params.expected_hash.is_some() && params.file_path.is_none() {
        return Err(ToolError::new(
            "expectedHash names one note's hash, but the rename covers every note",
        )
        .suggest("Leave expectedHash out, or pass filePath"));
    }
    let workspace = &ctx.workspace;
    let roots = workspace.roots();
    let scope = match &params.file_path {
        Some(path) => {
            let resolved = workspace.resolve_file(path)?;
            require_markdown(&resolved)?;
            SearchScope::File(resolved)
        }
        None => SearchScope::Folders(
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
    };
    // Every note that has the tag holds its name as written.
    let pattern = Pattern::new(&from, false, false).map_err(|e| ToolError::new(e.to_string()))?;
    let markdown = FilePattern::new("*.{md,markdown,mdx,mdown,mkd,mkdn,mdwn}")
        .map_err(|e| ToolError::new(e.to_string()))?;
    let cancel = ctx.cancel_flag();
    let summary = search(&SearchRequest {
        roots: &roots,
        scope,
        pattern: &pattern,
        file_pattern: Some(&markdown),
        filter: None,
        extensions: &workspace.options().extensions,
        max_file_size: workspace.options().max_file_size,
        cancel: &cancel,
        progress: &|_| {},
    });
    if summary.cancelled {
        return Err(ToolError::new(
            "The rename was cancelled; nothing was written",
        ));
    }
    if summary.files.len() > MAX_RENAMED_FILES {
        return Err(ToolError::new(format!(
            "'{from}' appears in {} notes, more than the {MAX_RENAMED_FILES} one rename may change; nothing was written",
            summary.files.len()
        ))
        .suggest("Rename in one note at a time with filePath, or ask for a smaller vault"));
    }
    let given: Vec<String> = summary.files.iter().map(|f| f.path.display()).collect();
    if given.is_empty() {
        return Ok(TagsOutput {
            changed: Some(0),
            files: Some(Vec::new()),
            note: Some(format!("No note has the tag '{from}'; nothing changed")),
            dry_run: params.dry_run.then_some(true),
            ..TagsOutput::default()
        });
    }
    if !fd_room::make_room(2 * given.len()) {
        return Err(ToolError::new(format!(
            "{} notes hold the tag, more than this process may hold open at once; nothing was written",
            given.len()
        ))
        .suggest("Rename in one folder's notes at a time with filePath"));
    }
    let items: Vec<BatchItem> = given
        .iter()
        .map(|g| BatchItem {
            expected_hash: params.expected_hash.as_deref(),
            ..BatchItem::new(g)
        })
        .collect();
    let in_file = |e: ToolError, i: Option<usize>| match i {
        Some(i) => ToolError {
            message: format!("{}; no note was changed", e.message),
            ..e
        }
        .detail("filePath", json!(given[i])),
        None => e,
    };
    let transaction = workspace
        .transaction(&items, Vec::new())
        .map_err(|f| in_file(f.error.into(), f.index))?;
    let mut contents = Vec::with_capacity(items.len());
    let mut counts = Vec::with_capacity(items.len());
    let mut skipped = Vec::new();
    for file in transaction.files() {
        if ctx.is_cancelled() {
            return Err(ToolError::new(
                "The rename was cancelled; nothing was written",
            ));
        }
        let shown = file.path.display();
        let planned = match rename_tag(file.doc.text(), &from, &to) {
            Ok(planned) => planned,
            Err(e) if params.file_path.is_none() => {
                skipped.push(SkippedNote {
                    file_path: shown,
                    line: e.line(),
                    reason: format!("{e}; {}", e.suggestion()),
                });
                contents.push(None);
                counts.push(0);
                continue;
            }
            Err(e) => {
                return Err(ToolError::new(format!(
                    "Cannot rename the tag in {shown}: {e}; no note was changed"
                ))
                .suggest(e.suggestion())
                .detail("filePath", json!(shown)));
            }
        };
        if planned.count == 0 {
            contents.push(None);
            counts.push(0);
            continue;
        }
        contents.push(Some(apply(&file.doc, &planned, &shown)?));
        counts.push(planned.count);
    }
    let done = transaction
        .commit(Change::new(Tags::NAME, contents), !params.dry_run)
        .map_err(|f| in_file(f.error.into(), f.index))?;
    let note = if skipped.is_empty() {
        done.history.note()
    } else {
        Some(format!(
            "{} note(s) with the tag were left unchanged (see skipped): fix their frontmatter, then rename again with filePath",
            skipped.len()
        ))
    };
    let mut out = finish(&done, counts, params.dry_run, note);
    out.skipped = (!skipped.is_empty()).then_some(skipped);
    Ok(out)
}
