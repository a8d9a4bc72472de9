//! patch_text_file_contents: string-validated, multi-range, multi-file
//! patches (the format of seed 003), all or nothing across the batch.
//!
//! Every range of every patch of every file is checked before the first byte
//! is written; the files are then written together through
//! [`crate::workspace::Workspace::edit_batch`]. The rules of a range are those
//! of [`crate::text::range_patch`].

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::super::args::TextArg;
use super::super::broken_links::edit_note;
use super::super::context::ToolContext;
use super::super::edit_report::WriteSummary;
use super::super::error::ToolError;
use super::super::tool::{Effects, Tool, Toolset};
use super::{
    ByPath, EditorError, EditorRange, attach_notes_to_entries, in_file, parse_encoding, range_error,
};
use crate::text::edit::LineSpan;
use crate::text::range_patch::{LineRange, StringPatch, apply_edits, check_patches};
use crate::workspace::commit::BatchItem;

/// The patch_text_file_contents tool.
pub struct PatchTextFileContents;

/// Parameters of patch_text_file_contents.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PatchParams {
    /// The files to patch, each with its patches. All are checked before any is written; if one patch fails, no file changes.
    pub files: Vec<PatchFile>,
    /// If true, check everything and return each file's diff without writing.
    #[serde(default)]
    pub dry_run: bool,
}

/// The patches of one file.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PatchFile {
    /// Path to the file (absolute or relative to the first root).
    pub file_path: String,
    /// Text encoding: utf-8 (default), utf-16, latin-1, shift_jis, euc-kr, gbk, … A file with a byte order mark is read in the BOM's encoding.
    #[serde(default)]
    pub encoding: Option<String>,
    /// Patches to apply. Ranges are numbered as in the file before the edit and must not overlap.
    pub patches: Vec<PatchSpec>,
}

/// One patch: old_string must be the text of each range; each range becomes new_string.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PatchSpec {
    /// The current text of every range: the lines start..=end with their line endings (copy a range's content from get_text_file_contents). Empty to insert new_string before line start.
    pub old_string: TextArg,
    /// The new lines for each range (empty to delete the range).
    pub new_string: TextArg,
    /// Where the patch applies: [{"start": 5, "end": 8}]; end null means to the end of the file.
    pub ranges: Vec<EditorRange>,
}

/// Where one patch's new text is in the edited file.
#[derive(Debug, Serialize, JsonSchema)]
pub struct PatchPlacement {
    /// One span per range, in the order sent; for a deletion, the empty span (end = start - 1) where the lines were.
    pub ranges: Vec<LineSpan>,
}

/// The reply for one patched file.
#[derive(Debug, Serialize, JsonSchema)]
pub struct PatchFileResult {
    /// Always "ok".
    pub result: &'static str,
    /// The file's hash after the edit (in a dry run: what it would be).
    pub file_hash: String,
    /// The encoding the file was read and written in.
    pub encoding: &'static str,
    /// Where each patch's new text is in the edited file.
    pub patches: Vec<PatchPlacement>,
    /// Lines added minus lines removed.
    pub lines_delta: isize,
    /// Lines in the file after the edit.
    pub total_lines: usize,
    /// Present and true when nothing was written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dry_run: Option<bool>,
    /// In a dry run, the unified diff of the change.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diff: Option<String>,
    /// Remarks: line endings matched or adapted, no change, …
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The change's id in the edit history (the same for every file of the call): UndoEdit takes it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub change_id: Option<String>,
}

/// What the check of one file found, besides the new document.
struct FileOutcome {
    placed: Vec<Vec<LineSpan>>,
    lines_delta: isize,
    endings_differ: bool,
}

impl Tool for PatchTextFileContents {
    type Params = PatchParams;
    type Output = ByPath<PatchFileResult>;

    const NAME: &'static str = "patch_text_file_contents";
    const TITLE: &'static str = "Patch line ranges of text files, all or nothing";
    const TOOLSET: Toolset = Toolset::Editor;
    const EFFECTS: Effects = Effects::EDITS;

    fn description() -> &'static str {
        "Replaces line ranges in one or more text files, checking each range's current text first. The whole batch is checked before anything is written: if any patch of any file does not apply, no file changes.\n\
\n\
Each file has patches; each patch has old_string, new_string and ranges. Every range ({\"start\": N, \"end\": M}, 1-based, inclusive; end null = to the end of the file) must hold exactly old_string: the lines with their line endings, as get_text_file_contents returns them. \\n and \\r\\n count as the same line break (on purpose, where the original API compares exactly: clients and JSON layers often change line breaks in transit, and a break's kind carries no content; the file keeps its own endings); everything else must match. Each range is replaced by new_string (whole lines; a trailing line break is optional; the file's line endings are kept). A patch with several ranges replaces the same text in each. An empty old_string inserts new_string before line start (start = total_lines + 1 appends); an empty new_string deletes the range.\n\
\n\
Ranges use the line numbers of the file before the edit and must not overlap, within a patch or across patches. A failure names the file, the patch, the range, and shows the expected and actual text. dry_run: true returns each file's diff without writing.\n\
\n\
Example: files=[{\"file_path\": \"app.py\", \"patches\": [{\"old_string\": \"DEBUG = True\\n\", \"new_string\": \"DEBUG = False\\n\", \"ranges\": [{\"start\": 3, \"end\": 3}]}]}]\n\
\n\
To add lines at the end or at one place, append_text_file_contents and insert_text_file_contents need no old_string."
    }

    fn advise_invalid_args(error: ToolError) -> ToolError {
        // Clients written for the hash-checked format of this API still send it.
        let legacy = [
            "`range_hash`",
            "`hash`",
            "`file_hash`",
            "`start`",
            "`end`",
            "`contents`",
        ];
        if error.message.contains("unknown field")
            && legacy.iter().any(|f| error.message.contains(f))
        {
            error.suggest("The hash-checked patch format (hash, start, end, range_hash, contents) is replaced by text checks: each patch is {\"old_string\": the current lines, \"new_string\": their replacement, \"ranges\": [{\"start\": N, \"end\": M}]}; get_text_file_contents shows the current lines")
        } else {
            error
        }
    }

    fn run(ctx: &ToolContext, params: PatchParams) -> Result<ByPath<PatchFileResult>, ToolError> {
        if params.files.is_empty() {
            return Err(ToolError::new("files is empty: there is nothing to patch")
                .suggest("Pass files: [{\"file_path\": \"notes.md\", \"patches\": [{\"old_string\": \"…\", \"new_string\": \"…\", \"ranges\": [{\"start\": 1, \"end\": 1}]}]}]"));
        }
        let mut encodings = Vec::with_capacity(params.files.len());
        for (i, file) in params.files.iter().enumerate() {
            let encoding = parse_encoding(file.encoding.as_deref())
                .map_err(|e| in_file(e, Some(i), &file.file_path))?;
            encodings.push(encoding);
        }
        let ranges: Vec<Vec<Vec<LineRange>>> = params
            .files
            .iter()
            .map(|f| {
                f.patches
                    .iter()
                    .map(|p| p.ranges.iter().map(|r| r.line_range()).collect())
                    .collect()
            })
            .collect();
        let items: Vec<BatchItem> = params
            .files
            .iter()
            .zip(&encodings)
            .map(|(f, &encoding)| BatchItem {
                encoding,
                ..BatchItem::new(&f.file_path)
            })
            .collect();

        let write = !params.dry_run;
        let edited = ctx
            .workspace
            .edit_batch(Self::NAME, &items, write, |i, file| {
                let patches: Vec<StringPatch> = params.files[i]
                    .patches
                    .iter()
                    .zip(&ranges[i])
                    .map(|(p, r)| StringPatch {
                        old_string: p.old_string.as_str(),
                        new_string: p.new_string.as_str(),
                        ranges: r,
                    })
                    .collect();
                let doc = &file.doc;
                let checked =
                    check_patches(doc, &patches).map_err(|e| EditorError(range_error(e, doc)))?;
                let applied = apply_edits(doc, &checked.edits)
                    .map_err(|e| EditorError(range_error(e, doc)))?;
                let mut placed: Vec<Vec<LineSpan>> = vec![Vec::new(); patches.len()];
                for (edit, span) in checked.edits.iter().zip(&applied.placed) {
                    if let Some(p) = edit.at.patch {
                        placed[p].push(*span);
                    }
                }
                Ok::<_, EditorError>((
                    applied.after,
                    FileOutcome {
                        placed,
                        lines_delta: applied.lines_delta,
                        endings_differ: checked.endings_differ,
                    },
                ))
            })
            .map_err(|failure| {
                let committed = failure.error.0.details.contains_key("restored");
                let err = match failure.index {
                    Some(i) => in_file(failure.error.0, Some(i), &params.files[i].file_path),
                    None => failure.error.0,
                };
                if committed {
                    err
                } else {
                    ToolError {
                        message: format!("{} wrote nothing: {}", Self::NAME, err.message),
                        ..err
                    }
                }
            })?;

        let mut out = Vec::with_capacity(edited.len());
        for (file, done) in params.files.iter().zip(edited) {
            let write_summary = WriteSummary::of(&done);
            let outcome = &done.value;
            let mut notes = Vec::new();
            if outcome.endings_differ {
                notes.push(format!(
                    "old_string's line breaks were matched against the file's own ({})",
                    done.before.eol_style().name()
                ));
            }
            if done.after.to_bytes() == done.before.to_bytes() {
                notes.push("the patches leave the file as it was, so it was not rewritten".into());
            }
            notes.extend(edit_note(ctx, &done));
            notes.extend(done.history.note());
            out.push((
                file.file_path.clone(),
                PatchFileResult {
                    result: "ok",
                    file_hash: write_summary.file_hash,
                    encoding: done.after.encoding().name(),
                    patches: outcome
                        .placed
                        .iter()
                        .map(|r| PatchPlacement { ranges: r.clone() })
                        .collect(),
                    lines_delta: outcome.lines_delta,
                    total_lines: done.after.line_count(),
                    dry_run: write_summary.dry_run,
                    diff: write_summary.diff,
                    note: (!notes.is_empty()).then(|| notes.join("; ")),
                    change_id: write_summary.change_id,
                },
            ));
        }
        Ok(ByPath(out))
    }

    fn attach_notes(value: &mut Value, notes: Vec<String>) {
        attach_notes_to_entries(value, notes);
    }
}
