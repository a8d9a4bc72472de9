//! ApplyPatch: a whole patch over many files (Codex's `*** Begin Patch`
//! format or a unified diff), checked completely and then written all or
//! nothing, as one change that one UndoEdit takes back.
//!
//! Every hunk is placed by its text ([`crate::text::patch::place`]); one that
//! is missing or fits several places refuses the whole patch, naming it.
//! Added files are created (never over an existing one), deleted files go to
//! the trash like RemoveFile's, moves never overwrite. Edited files keep
//! their encoding, BOM and line endings, and pass the syntax gate.

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::context::ToolContext;
use super::edit_report::join_notes;
use super::error::ToolError;
use super::syntax_gate;
use super::tool::{Effects, Tool, Toolset};
use crate::text::diff::{DEFAULT_CONTEXT, unified_diff};
use crate::text::document::{Document, Splice};
use crate::text::edit::LineSpan;
use crate::text::encoding::TextEncoding;
use crate::text::excerpt::brief;
use crate::text::fuzzy::MatchKind;
use crate::text::patch::place::{self, HunkRefusal, Why};
use crate::text::patch::{self, ChangeKind, FileChange, PatchFormat, PatchSyntaxError};
use crate::workspace::WorkspaceError;
use crate::workspace::commit::Change;
use crate::workspace::commit::Relocation;
use crate::workspace::commit::{BatchFailure, BatchItem};
use crate::workspace::roots::ResolvedPath;
use crate::workspace::timestamp::UtcTime;

/// The most files one patch may change: a patch is checked whole in memory
/// before anything is written, and every file is compared with the others.
pub const MAX_FILES: usize = 2000;

/// The ApplyPatch tool.
pub struct ApplyPatch;

/// Parameters of ApplyPatch.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ApplyPatchParams {
    /// The patch: Codex's format (*** Begin Patch … *** End Patch) or a unified diff (git diff output). Paths are relative to the first root, or absolute inside a root.
    pub patch: String,
    /// If true, check the whole patch and return each file's diff without writing anything.
    #[serde(default)]
    pub dry_run: bool,
}

/// Where one hunk landed.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct HunkReport {
    /// Its lines in the patched file (an empty range where it only removed lines).
    pub lines: LineSpan,
    /// How its old lines matched when not exactly: whitespace, indentation, unicode, fuzzy, …
    #[serde(rename = "match", skip_serializing_if = "Option::is_none")]
    pub match_kind: Option<&'static str>,
    /// Present and true when its text fits several places and the line numbers of all the hunks, read so that any one of them may be miscounted, still chose this one.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub placed_by_line_numbers: bool,
}

/// What the patch did to one file.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FileReport {
    /// The file (absolute); for a move or a copy, where it is now.
    pub file_path: String,
    /// add, delete, update, move or copy.
    pub action: &'static str,
    /// For a move or a copy, where it came from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// Each hunk, in patch order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub hunks: Vec<HunkReport>,
    /// Lines added minus lines removed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lines_delta: Option<isize>,
    /// The file's hash afterwards (in a dry run: what it would be); absent for a deleted file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file_hash: Option<String>,
    /// For a deleted file, where it is in the trash.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trash_path: Option<String>,
    /// In a dry run, the unified diff of the file's change.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diff: Option<String>,
}

/// Result of ApplyPatch.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ApplyPatchOutput {
    /// Each file of the patch, in patch order.
    pub files: Vec<FileReport>,
    /// The change's id in the edit history: UndoEdit takes back the whole patch.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub change_id: Option<String>,
    /// Present and true when nothing was written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dry_run: Option<bool>,
    /// Remarks (file modes not applied, syntax errors the files already had, undo unavailable).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl Tool for ApplyPatch {
    type Params = ApplyPatchParams;
    type Output = ApplyPatchOutput;

    const NAME: &'static str = "ApplyPatch";
    const TITLE: &'static str = "Apply a patch (Codex format or unified diff)";
    const TOOLSET: Toolset = Toolset::Patch;
    const EFFECTS: Effects = Effects::EDITS;

    fn description() -> &'static str {
        "Applies a patch to one or more files, all or nothing, as one change (one UndoEdit). Takes Codex's format (*** Begin Patch, *** Add/Delete/Update File, *** Move to, @@ lines naming the enclosing class or function) and unified diffs (git diff). Hunks are placed by their text; a missing or ambiguous one refuses the whole patch. dryRun returns the diffs. For one edit, use edit_code.\n\
\n\
Example: patch=\"*** Begin Patch\\n*** Update File: app.py\\n@@ def greet():\\n-    print('Hi')\\n+    print('Hello')\\n*** End Patch\""
    }

    fn run(ctx: &ToolContext, params: ApplyPatchParams) -> Result<ApplyPatchOutput, ToolError> {
        let patch = patch::parse(&params.patch).map_err(syntax_error)?;
        if patch.files.is_empty() {
            return Err(ToolError::new("The patch changes no file; nothing was written")
                .suggest("Put at least one *** Add File, *** Delete File or *** Update File section between *** Begin Patch and *** End Patch"));
        }
        if patch.files.len() > MAX_FILES {
            return Err(ToolError::new(format!(
                "The patch changes {} files; ApplyPatch takes at most {MAX_FILES} in one call. Nothing was written",
                patch.files.len()
            ))
            .suggest(format!("Split the patch into parts of at most {MAX_FILES} files each (each part is one change that UndoEdit takes back)")));
        }
        check_named_once(&patch.files)?;
        let plan = Plan::of(ctx, &patch.files)?;
        apply(ctx, &patch.files, patch.format, plan, params.dry_run)
    }
}

/// The cannot-read error for a patch.
fn syntax_error(error: PatchSyntaxError) -> ToolError {
    let mut err = ToolError::new(format!(
        "The patch cannot be read: {error}. Nothing was written"
    ))
    .suggest("Codex format: *** Begin Patch, then *** Update File: path, hunks of ' ' (context), '-' (removed) and '+' (added) lines opened by '@@' (optionally '@@ def name'), then *** End Patch")
    .suggest("Unified diff: '--- a/path', '+++ b/path', then hunks opened by '@@ -l,n +l,n @@'");
    if let Some(line) = error.line {
        err = err.detail("patchLine", json!(line));
    }
    err
}

/// A path's components without `.`, to compare names a patch gives.
fn normal(path: &str) -> PathBuf {
    Path::new(path.trim())
        .components()
        .filter(|c| !matches!(c, Component::CurDir))
        .collect()
}

/// Refuses a patch that names one file in two places: its parts would
/// depend on an order nothing states.
fn check_named_once(files: &[FileChange]) -> Result<(), ToolError> {
    let mut seen: HashMap<PathBuf, usize> = HashMap::new();
    for (i, f) in files.iter().enumerate() {
        for name in std::iter::once(&f.path).chain(f.new_path.as_ref()) {
            let path = normal(name);
            if let Some(first) = seen.get(&path) {
                return Err(ToolError::new(format!(
                    "The patch names {} in two places (file {} at patch line {} and file {} at patch line {}); nothing was written",
                    brief(name.trim()),
                    first + 1,
                    files[*first].line,
                    i + 1,
                    f.line
                ))
                .suggest("Put all hunks of a file in one section, and do not add, move or delete a file the patch also changes"));
            }
            seen.insert(path, i);
        }
    }
    Ok(())
}

/// What the transaction reads and writes for each file of the patch.
struct Plan {
    /// The transaction's files: the path given and whether it may be new.
    items: Vec<(String, bool)>,
    /// For each file of the patch, its item (the source for a copy).
    item_of: Vec<Option<usize>>,
    /// For a copy, the item of the file it creates.
    copy_to: Vec<Option<usize>>,
    /// Moves and removals, with the file of the patch each belongs to.
    relocations: Vec<(usize, Relocation)>,
}

impl Plan {
    fn of(ctx: &ToolContext, files: &[FileChange]) -> Result<Plan, ToolError> {
        let now = UtcTime::now();
        let mut plan = Plan {
            items: Vec::new(),
            item_of: vec![None; files.len()],
            copy_to: vec![None; files.len()],
            relocations: Vec::new(),
        };
        for (i, f) in files.iter().enumerate() {
            let path = f.path.trim().to_string();
            let named = |e: WorkspaceError| file_error(f, i, e.into());
            match f.kind {
                ChangeKind::Add => plan.item(i, path, true),
                ChangeKind::Delete => {
                    let removal = ctx
                        .workspace
                        .plan_removal(&path, false, now)
                        .map_err(named)?;
                    plan.relocations.push((i, removal));
                    if f.content.is_some() {
                        plan.item(i, path, false);
                    }
                }
                ChangeKind::Update => {
                    if let Some(to) = &f.new_path {
                        let moved = ctx.workspace.plan_move(&path, to.trim()).map_err(named)?;
                        plan.relocations.push((i, moved));
                    }
                    plan.item(i, path, false);
                }
                ChangeKind::Copy => {
                    plan.item(i, path, false);
                    let to = f.new_path.clone().unwrap_or_default().trim().to_string();
                    plan.copy_to[i] = Some(plan.items.len());
                    plan.items.push((to, true));
                }
            }
        }
        Ok(plan)
    }

    fn item(&mut self, file: usize, path: String, may_be_new: bool) {
        self.item_of[file] = Some(self.items.len());
        self.items.push((path, may_be_new));
    }

    /// The file of the patch that item `index` belongs to.
    fn file_of_item(&self, index: usize) -> Option<usize> {
        (0..self.item_of.len())
            .find(|&f| self.item_of[f] == Some(index) || self.copy_to[f] == Some(index))
    }
}

/// `error` about file `i` of the patch, saying which file it is.
fn file_error(f: &FileChange, i: usize, error: ToolError) -> ToolError {
    ToolError {
        message: format!(
            "ApplyPatch cannot {} {} (file {} of the patch, line {}): {}. Nothing was written",
            f.kind.name(),
            brief(f.path.trim()),
            i + 1,
            f.line,
            error.message.trim_end_matches('.')
        ),
        ..error
    }
}

/// What applying the patch made of one file, for the reply.
struct Outcome {
    landings: Vec<place::Landing>,
    lines_delta: Option<isize>,
    note: Option<String>,
}

fn apply(
    ctx: &ToolContext,
    files: &[FileChange],
    format: PatchFormat,
    plan: Plan,
    dry_run: bool,
) -> Result<ApplyPatchOutput, ToolError> {
    let items: Vec<BatchItem> = plan
        .items
        .iter()
        .map(|(given, may_be_new)| BatchItem {
            may_be_new: *may_be_new,
            ..BatchItem::new(given)
        })
        .collect();
    let relocations: Vec<Relocation> = plan.relocations.iter().map(|(_, r)| r.clone()).collect();
    let failed = |f: BatchFailure<WorkspaceError>| match f.index.and_then(|i| plan.file_of_item(i))
    {
        Some(i) => file_error(&files[i], i, f.error.into()),
        None => {
            let err: ToolError = f.error.into();
            ToolError {
                message: format!("ApplyPatch: {}. Nothing was written", err.message),
                ..err
            }
        }
    };
    let transaction = ctx
        .workspace
        .transaction(&items, relocations)
        .map_err(failed)?;
    check_no_overlap(files, &plan, transaction.files())?;
    let mut contents: Vec<Option<Document>> = vec![None; items.len()];
    let mut outcomes: Vec<Outcome> = Vec::with_capacity(files.len());
    for (i, f) in files.iter().enumerate() {
        let open = plan.item_of[i].map(|k| &transaction.files()[k]);
        let outcome = match f.kind {
            ChangeKind::Add => {
                let open = open.expect("an add has its item");
                if open.path.exists {
                    return Err(file_error(
                        f,
                        i,
                        ToolError::new(format!("{} already exists", open.path.display())),
                    )
                    .suggest(
                        "Use *** Update File to change it, or add the file under another path",
                    ));
                }
                let content = f.content.clone().unwrap_or_default();
                let after = Document::from_text(content, TextEncoding::Utf8, false)
                    .map_err(|e| file_error(f, i, ToolError::new(e.to_string())))?;
                let lines = after.line_count();
                let note = gate(f, i, &open.path, &open.path, "", after.text(), None)?;
                contents[plan.item_of[i].expect("item")] = Some(after);
                Outcome {
                    landings: Vec::new(),
                    lines_delta: Some(lines as isize),
                    note,
                }
            }
            ChangeKind::Delete => {
                if let (Some(open), Some(expected)) = (open, &f.content) {
                    check_deleted_content(f, i, &open.doc, expected)?;
                }
                Outcome {
                    landings: Vec::new(),
                    lines_delta: None,
                    note: None,
                }
            }
            ChangeKind::Update | ChangeKind::Copy => {
                let open = open.expect("an update has its item");
                let applied = place::apply(open.doc.text(), &f.hunks)
                    .map_err(|r| hunk_error(f, i, format, &r))?;
                let after = patched(&open.doc, &applied.text)
                    .map_err(|e| file_error(f, i, ToolError::new(e)))?;
                let destination = match (f.kind, &f.new_path) {
                    (ChangeKind::Update, Some(_)) => plan
                        .relocations
                        .iter()
                        .find(|(k, _)| *k == i)
                        .map(|(_, r)| r.destination.clone()),
                    _ => None,
                };
                let target = match f.kind {
                    ChangeKind::Copy => {
                        let k = plan.copy_to[i].expect("a copy has its target");
                        let target = &transaction.files()[k];
                        if target.path.exists {
                            return Err(file_error(
                                f,
                                i,
                                ToolError::new(format!("{} already exists", target.path.display())),
                            ));
                        }
                        target.path.clone()
                    }
                    _ => destination.unwrap_or_else(|| open.path.clone()),
                };
                let edited = match applied.landings.as_slice() {
                    [one] => Some((one.new.start, one.new.end.max(one.new.start))),
                    _ => None,
                };
                let note = gate(
                    f,
                    i,
                    &open.path,
                    &target,
                    open.doc.text(),
                    after.text(),
                    edited,
                )?;
                let delta = after.line_count() as isize - open.doc.line_count() as isize;
                let k = match f.kind {
                    ChangeKind::Copy => plan.copy_to[i].expect("a copy has its target"),
                    _ => plan.item_of[i].expect("item"),
                };
                contents[k] = Some(after);
                Outcome {
                    landings: applied.landings,
                    lines_delta: Some(delta),
                    note,
                }
            }
        };
        outcomes.push(outcome);
    }
    let done = transaction
        .commit(Change::new(ApplyPatch::NAME, contents), !dry_run)
        .map_err(failed)?;
    let mut notes: Vec<Option<String>> = Vec::new();
    let mut reports = Vec::with_capacity(files.len());
    for (i, (f, outcome)) in files.iter().zip(outcomes).enumerate() {
        let relocation = plan
            .relocations
            .iter()
            .find(|(k, _)| *k == i)
            .map(|(_, r)| r);
        let item = plan.item_of[i];
        let written = match f.kind {
            ChangeKind::Copy => plan.copy_to[i],
            _ => item,
        };
        let before = item.map(|k| &done.before[k]);
        let after = written.and_then(|k| done.after[k].as_ref());
        let (file_path, from) = match (f.kind, relocation, written) {
            (ChangeKind::Update, Some(r), _) => (r.destination.display(), Some(r.source.display())),
            (ChangeKind::Copy, _, Some(k)) => (
                done.before[k].path.display(),
                before.map(|b| b.path.display()),
            ),
            (_, Some(r), _) => (r.source.display(), None),
            (_, None, _) => (before.map(|b| b.path.display()).unwrap_or_default(), None),
        };
        let action = match (f.kind, relocation) {
            (ChangeKind::Update, Some(_)) => "move",
            (kind, _) => kind.name(),
        };
        let diff = match (dry_run, before, after) {
            (true, Some(b), Some(a)) => {
                let label = match (f.kind, written) {
                    (ChangeKind::Copy, Some(k)) => {
                        done.before[k].path.relative().display().to_string()
                    }
                    _ => b.path.relative().display().to_string(),
                };
                let old = if f.kind == ChangeKind::Add {
                    ""
                } else {
                    b.doc.text()
                };
                Some(unified_diff(old, a.text(), &label, DEFAULT_CONTEXT))
            }
            _ => None,
        };
        notes.push(
            outcome
                .note
                .map(|n| format!("{}: {n}", brief(f.path.trim()))),
        );
        notes.extend(
            f.notes
                .iter()
                .map(|n| Some(format!("{}: {n}", brief(f.path.trim())))),
        );
        reports.push(FileReport {
            file_path,
            action,
            from,
            hunks: outcome
                .landings
                .iter()
                .map(|l| HunkReport {
                    lines: l.new,
                    match_kind: (l.kind != MatchKind::Exact).then(|| l.kind.as_str()),
                    placed_by_line_numbers: l.by_line_numbers,
                })
                .collect(),
            lines_delta: outcome.lines_delta,
            file_hash: after.map(|a| a.hash()).or_else(|| {
                (f.kind == ChangeKind::Update)
                    .then(|| before.map(|b| b.doc.hash()))
                    .flatten()
            }),
            trash_path: (f.kind == ChangeKind::Delete)
                .then(|| relocation.map(|r| r.destination.display()))
                .flatten(),
            diff,
        });
    }
    notes.push(done.history.note());
    Ok(ApplyPatchOutput {
        files: reports,
        change_id: done.history.change_id().map(str::to_string),
        dry_run: dry_run.then_some(true),
        note: join_notes(notes),
    })
}

/// Refuses a patch whose moves or removals reach a file it also edits
/// under another spelling of its path.
fn check_no_overlap(
    files: &[FileChange],
    plan: &Plan,
    open: &[crate::workspace::OpenFile],
) -> Result<(), ToolError> {
    let mut by_path: HashMap<&Path, Vec<usize>> = HashMap::new();
    for (k, file) in open.iter().enumerate() {
        by_path.entry(file.path.real.as_path()).or_default().push(k);
    }
    for (owner, r) in &plan.relocations {
        let reached = [&r.source.real, &r.destination.real]
            .into_iter()
            .flat_map(|real| by_path.get(real.as_path()).into_iter().flatten());
        for &k in reached {
            let Some(i) = plan.file_of_item(k) else {
                continue;
            };
            if !(i == *owner && open[k].path.real == r.source.real) {
                return Err(file_error(
                    &files[i],
                    i,
                    ToolError::new(format!(
                        "file {} of the patch moves or deletes this same file",
                        owner + 1
                    )),
                ));
            }
        }
    }
    Ok(())
}

/// `doc` with its text replaced by `text`, changing only the bytes that
/// differ (so the encoding, the BOM and every other byte stay).
fn patched(doc: &Document, text: &str) -> Result<Document, String> {
    let old = doc.text();
    let mut prefix = old
        .bytes()
        .zip(text.bytes())
        .take_while(|(a, b)| a == b)
        .count();
    while !(old.is_char_boundary(prefix) && text.is_char_boundary(prefix)) {
        prefix -= 1;
    }
    let mut suffix = old[prefix..]
        .bytes()
        .rev()
        .zip(text[prefix..].bytes().rev())
        .take_while(|(a, b)| a == b)
        .count();
    while !(old.is_char_boundary(old.len() - suffix) && text.is_char_boundary(text.len() - suffix))
    {
        suffix -= 1;
    }
    let splice = Splice::new(
        prefix..old.len() - suffix,
        text[prefix..text.len() - suffix].to_string(),
    );
    doc.apply(std::slice::from_ref(&splice))
        .map_err(|e| format!("the new text cannot be written in the file's encoding: {e}"))
}

/// The syntax gate for file `i`, which ends up at `target`.
fn gate(
    f: &FileChange,
    i: usize,
    source: &ResolvedPath,
    target: &ResolvedPath,
    before: &str,
    after: &str,
    edited: Option<(usize, usize)>,
) -> Result<Option<String>, ToolError> {
    let shown = source.display();
    let passed = syntax_gate::check(&target.real, &shown, before, after, edited, "the patch")
        .map_err(|e| file_error(f, i, e))?;
    Ok(passed.and_then(|p| p.note))
}

/// Refuses to delete a file whose content is not what the diff deletes.
fn check_deleted_content(
    f: &FileChange,
    i: usize,
    doc: &Document,
    expected: &str,
) -> Result<(), ToolError> {
    let have = doc.text();
    if have == expected || have.replace("\r\n", "\n") == expected.replace("\r\n", "\n") {
        return Ok(());
    }
    let line = have
        .lines()
        .zip(expected.lines())
        .position(|(a, b)| a.trim_end_matches('\r') != b.trim_end_matches('\r'))
        .map_or_else(
            || have.lines().count().min(expected.lines().count()) + 1,
            |k| k + 1,
        );
    Err(file_error(
        f,
        i,
        ToolError::new(format!(
            "the file is not what the diff deletes: they differ from line {line} on, so the diff was made from another version of it"
        )),
    )
    .suggest("Read the file again; delete it with a diff made from its current content, or with *** Delete File"))
}

/// A hunk that cannot be placed, as the error that refuses the patch.
fn hunk_error(f: &FileChange, i: usize, format: PatchFormat, refusal: &HunkRefusal) -> ToolError {
    let hunk = &f.hunks[refusal.hunk];
    let mut err = ToolError::new(format!(
        "ApplyPatch: hunk {} of {} (file {} of the patch; hunk at patch line {}, first old line `{}`) cannot be placed: {}. Nothing was written",
        refusal.hunk + 1,
        brief(f.path.trim()),
        i + 1,
        hunk.line,
        brief(hunk.first_line().trim()),
        refusal.why
    ))
    .detail("filePath", json!(f.path.trim()))
    .detail("hunk", json!(refusal.hunk + 1))
    .detail("patchLine", json!(hunk.line));
    err = match &refusal.why {
        Why::NotFound { best, .. } => {
            if let Some((lines, score)) = best {
                err = err.detail(
                    "closest",
                    json!({"start": lines.start, "end": lines.end, "score": (score * 10.0).round() / 10.0}),
                );
            }
            err.suggest("Read those lines of the file (TextRead) and correct the hunk's context and removed lines after the diff")
                .suggest("Or make the patch again from the file as it is now")
        }
        Why::Ambiguous { places } => {
            err = err.detail(
                "places",
                json!(
                    places
                        .iter()
                        .take(20)
                        .map(|p| json!({"start": p.start, "end": p.end}))
                        .collect::<Vec<_>>()
                ),
            );
            match format {
                PatchFormat::Codex => err
                    .suggest("Open the hunk with '@@ ' and the line of the enclosing class or function (several '@@' lines narrow it step by step)")
                    .suggest("Or add context lines that occur only at the place you mean"),
                PatchFormat::Unified => err
                    .suggest("Add context lines that occur only at the place you mean (git diff -U5 gives five)"),
            }
        }
        Why::AnchorNotFound { .. } => err.suggest(
            "An '@@' line names a line of the file as it reads, e.g. '@@ def name(' or '@@ class Name'; leave it out or correct it",
        ),
        Why::NoContext => {
            err.suggest("Make the diff with context lines (git diff -U3), so the place can be found by its text")
        }
        Why::NotAtEnd { .. } => {
            err.suggest("Leave out '*** End of File' if the lines are not the file's last, or correct them")
        }
        Why::Refused { .. } => err.suggest("Read those lines again and make the hunk from their current text"),
    };
    err
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_named_twice_is_refused_before_anything_is_read() {
        let patch = patch::parse(
            "*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+b\n*** Delete File: ./a.txt\n*** End Patch",
        )
        .unwrap();
        let err = check_named_once(&patch.files).unwrap_err();
        assert!(
            err.message
                .contains("in two places (file 1 at patch line 2 and file 2 at patch line 6)"),
            "{}",
            err.message
        );
    }

    #[test]
    fn only_the_changed_bytes_are_spliced() {
        let doc = Document::decode("x\u{e9}\r\nyz\r\n".as_bytes().to_vec(), None).unwrap();
        let after = patched(&doc, "x\u{e9}\r\nYz\r\n").unwrap();
        assert_eq!(after.text(), "x\u{e9}\r\nYz\r\n");
        let same = patched(&doc, doc.text()).unwrap();
        assert_eq!(same.bytes(), doc.bytes());
    }
}
