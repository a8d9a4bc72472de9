//! TextPatch: structural edits by heading, line range or code block —
//! replace, insert or delete whole lines.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::args::TextArg;
use super::block_id;
use super::broken_links::edit_note;
use super::context::ToolContext;
use super::edit_report::{Preview, WriteSummary, context, join_notes, line_count_note};
use super::error::ToolError;
use super::planned_edit::{FileArgs, PlannedEdit, run_planned};
use super::symbol_target;
use super::syntax_gate;
use super::target::target_error;
use super::target::{PatchTarget, TargetUse, parse_target};
use super::templates::fill_template;
use super::tool::{Effects, Tool, Toolset};
use crate::text::document::Document;
use crate::text::edit::{EditError, EditPlan, LineEdit, LineSpan, plan};
use crate::text::excerpt::ContextLines;
use crate::text::format::{Format, format_of};
use crate::text::indent::{common_indent, rebase};
use crate::text::markdown::{self, MarkdownOutline};
use crate::text::symbol::edit::SymbolOp;
use crate::text::targets::{EditSite, IndentRule, Operation, SymbolPart, Target, resolve_edit};
use crate::workspace::OpenFile;
use crate::workspace::batch::Edited;
use crate::workspace::commit::History;

/// Deleting more lines than this gets a warning in the reply (seed 002).
pub const LARGE_DELETE: usize = 50;

/// The TextPatch tool.
pub struct TextPatch;

/// What TextPatch does at its target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum PatchOperation {
    /// Replace the targeted lines with content.
    Replace,
    /// Insert content at the target.
    Insert,
    /// Remove the targeted lines.
    Delete,
}

/// Parameters of TextPatch.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct TextPatchParams {
    /// Path to the text file (absolute or relative to the first root).
    #[schemars(description = "")] // said once, in the server's instructions
    pub file_path: String,
    /// blockId: give the paragraph or list item at lines.start a ^id (content may name it) and return it.
    pub operation: OperationArg,
    /// ONE key. insert goes before lines.start; after a heading line, ^block or symbol; at the end of a codeBlock or symbolBody.
    pub target: PatchTarget,
    /// Whole lines, for replace and insert.
    #[serde(default)]
    pub content: Option<TextArg>,
    /// insert, instead of content: a template's name or text; {{date}}, {{time}}, {{title}} and {{name}} of variables are filled.
    #[serde(default)]
    pub template: Option<String>,
    /// e.g. {"project": "Garden"}.
    #[serde(default)]
    pub variables: Option<BTreeMap<String, String>>,
    /// Re-base content's indentation onto the target's (lines, codeBlock).
    #[serde(default = "default_true")]
    pub preserve_indent: bool,
    /// fileHash from an earlier response; the edit is refused if the file changed since.
    #[schemars(description = "")] // said once, in the server's instructions
    #[serde(default)]
    pub expected_hash: Option<String>,
    /// If true, return the diff and the response without writing anything.
    #[schemars(description = "")] // said once, in the server's instructions
    #[serde(default)]
    pub dry_run: bool,
}

fn default_true() -> bool {
    true
}

/// The `operation` argument, parsed by hand so that the removed `replaceLines`
/// gets a message naming its replacement.
#[derive(Debug, Clone, PartialEq)]
pub struct OperationArg(pub Value);

impl<'de> Deserialize<'de> for OperationArg {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Value::deserialize(deserializer).map(OperationArg)
    }
}

impl JsonSchema for OperationArg {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Operation".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": "string", "enum": ["replace", "insert", "delete", "blockId"] })
    }
}

/// Whether the call is operation `blockId`, which gives a paragraph an id
/// instead of editing lines.
fn is_block_id_call(params: &TextPatchParams) -> bool {
    params.operation.0.as_str().map(str::trim) == Some("blockId")
}

fn parse_operation(value: &Value) -> Result<Operation, ToolError> {
    let accepted = "Use operation 'replace', 'insert', 'delete' or 'blockId'";
    match value.as_str().map(str::trim) {
        Some("replace") => Ok(Operation::Replace),
        Some("insert") => Ok(Operation::Insert),
        Some("delete") => Ok(Operation::Delete),
        Some("replaceLines") => Err(ToolError::new(
            "The 'replaceLines' operation was removed: use operation 'replace' with a lines target {\"start\": N, \"end\": M}",
        )
        .suggest(accepted)),
        Some(other) => Err(ToolError::new(format!(
            "Unknown operation '{}'",
            crate::text::excerpt::brief(other)
        ))
        .suggest(accepted)),
        None => Err(ToolError::new(format!(
            "operation must be a string, got {}",
            super::args::kind_of(value)
        ))
        .suggest(accepted)),
    }
}

/// Result of TextPatch.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TextPatchOutput {
    /// For insert and replace, where the new lines are now; for delete, the removed lines (numbered as before the edit).
    pub affected_lines: LineSpan,
    /// Lines added minus lines removed.
    pub lines_delta: isize,
    /// The lines before and after the edit, shortened.
    pub preview: Preview,
    /// Three lines before and after the edit, in the edited file.
    pub context: ContextLines,
    /// Hash, and in a dry run the diff.
    #[serde(flatten)]
    pub write: WriteSummary,
    /// Remarks: the new line count, what a heading delete left behind, …
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// A large delete (over 50 lines, or whole sections with their subsections): how much went and how to get it back.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warning: Option<String>,
    /// blockId: the block's id (without ^).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub block_id: Option<String>,
}

impl Tool for TextPatch {
    type Params = TextPatchParams;
    type Output = TextPatchOutput;

    const NAME: &'static str = "TextPatch";
    const TITLE: &'static str = "Edit by heading, line range, code block or symbol";
    const TOOLSET: Toolset = Toolset::Text;
    const EFFECTS: Effects = Effects::EDITS;

    fn description() -> &'static str {
        "Edits by structure: replace, insert or delete at lines, a heading, before a heading, the end of a section (appendToSection), a code block, a ^block, or a definition in source code (re-indented, syntax-checked). blockId gives the paragraph at lines.start a ^id. insert takes a template too. For text found by content use TextReplace. Example: {\"filePath\": \"a.md\", \"operation\": \"insert\", \"target\": {\"appendToSection\": \"## Log\"}, \"content\": \"- done\"}"
    }

    fn run(ctx: &ToolContext, params: TextPatchParams) -> Result<TextPatchOutput, ToolError> {
        run_planned::<Self>(ctx, &params)
    }
}

/// What planning a TextPatch hands on to its reply.
pub struct PatchPlan {
    plan: EditPlan,
    target_note: Option<String>,
    template_note: Option<String>,
    large_delete: Option<LargeDelete>,
    block_id: Option<String>,
}

/// The operation and target of a call, and whether content (or a template)
/// goes with the operation: everything that does not depend on the file.
fn arguments(params: &TextPatchParams) -> Result<(Operation, Target), ToolError> {
    let target = parse_target(&params.target.0.0, TargetUse::Patch)?;
    if is_block_id_call(params) {
        if params.template.is_some() || params.variables.is_some() {
            return Err(ToolError::new("operation 'blockId' takes no template")
                .suggest("Pass the id to use as content, or nothing to have one made"));
        }
        if !matches!(target, Target::Lines { .. } | Target::Block(_)) {
            return Err(ToolError::new(format!(
                "operation 'blockId' needs a lines target naming a line of the paragraph or list item, not {}",
                target.kind()
            ))
            .suggest("Use target {\"lines\": {\"start\": N}} with a line of the paragraph (TextInspect shows the lines)"));
        }
        return Ok((Operation::Insert, target));
    }
    let operation = parse_operation(&params.operation.0)?;
    check_template_arguments(params, operation)?;
    let has_content = params.content.is_some() || params.template.is_some();
    let content = params.content.as_ref().map(TextArg::as_str);
    match (operation, has_content, content) {
        (Operation::Delete, true, _) => {
            return Err(ToolError::new(
                "operation 'delete' takes no content, but content was given",
            )
            .suggest("Leave content out to delete, or use operation 'replace' to put the content in place of the target"));
        }
        (Operation::Replace | Operation::Insert, false, _) => {
            return Err(ToolError::new(format!(
                "operation '{}' needs content",
                operation.name()
            ))
            .suggest("Pass content with the new lines, or use operation 'delete' to remove the target"));
        }
        (Operation::Replace | Operation::Insert, _, Some("")) => {
            return Err(ToolError::new(format!(
                "content is empty, so '{}' would add nothing",
                operation.name()
            ))
            .suggest("Use operation 'delete' to remove lines; to insert one empty line send content \"\\n\""));
        }
        _ => {}
    }
    Ok((operation, target))
}

impl PlannedEdit for TextPatch {
    type Plan = PatchPlan;

    fn file(params: &TextPatchParams) -> Result<FileArgs<'_>, ToolError> {
        Ok(FileArgs::existing(
            &params.file_path,
            params.expected_hash.as_deref(),
            params.dry_run,
        ))
    }

    fn check(_ctx: &ToolContext, params: &TextPatchParams) -> Result<(), ToolError> {
        arguments(params).map(|_| ())
    }

    fn plan(
        ctx: &ToolContext,
        params: &TextPatchParams,
        file: &OpenFile,
    ) -> Result<(Document, PatchPlan), ToolError> {
        let (operation, target) = arguments(params)?;
        if is_block_id_call(params) {
            block_id::require_vault(ctx, "Operation 'blockId'")?;
        } else if matches!(target, Target::Block(_)) {
            block_id::require_vault(ctx, "The block target")?;
        }
        if is_block_id_call(params) {
            let given = params.content.as_ref().map(TextArg::as_str);
            let planned = block_id::plan(given, file, &target).map_err(|e| match e {
                block_id::Failure::Edit(e) => edit_error(e, &file.path.display()),
                block_id::Failure::Tool(e) => e,
            })?;
            return Ok((
                planned.after,
                PatchPlan {
                    plan: planned.plan,
                    target_note: planned.note,
                    template_note: None,
                    large_delete: None,
                    block_id: Some(planned.id),
                },
            ));
        }
        let filled = fill_template_content(ctx, params, file)?;
        if filled.as_ref().is_some_and(|f| f.text.is_empty()) {
            return Err(ToolError::new(
                "content is empty, so 'insert' would add nothing",
            )
            .suggest("Use operation 'delete' to remove lines; to insert one empty line send content \"\\n\""));
        }
        let content = match &filled {
            Some(filled) => Some(filled.text.as_str()),
            None => params.content.as_ref().map(TextArg::as_str),
        };
        let template_note = filled.as_ref().map(|f| f.note.clone());
        if let Target::Symbol { query, part } = &target {
            return symbol_plan(
                params,
                file,
                operation,
                query,
                *part,
                content,
                template_note,
            );
        }
        let path = file.path.display();
        let doc = &file.doc;
        let outline = (format_of(&file.path.real) == Format::Markdown
            && (target.needs_outline() || operation == Operation::Delete))
            .then(|| markdown::parse_sections(doc.text()));
        let resolved = resolve_edit(doc, outline.as_ref(), &target, operation)
            .map_err(|e| target_error(e, &path))?;
        let content = content.map(|c| match (&resolved.indent, params.preserve_indent) {
            (IndentRule::Rebase(indent), true) => rebase(c, indent),
            (IndentRule::RebaseIfFlush(indent), true)
                if common_indent(c.split('\n')).is_empty() =>
            {
                rebase(c, indent)
            }
            _ => c.to_string(),
        });
        // A replaced block keeps its id, so links to it keep working.
        let mut kept_id = None;
        let content = match (&target, operation, content) {
            (Target::Block(id), Operation::Replace, Some(c)) => {
                let (c, kept) = keep_block_id(&c, id);
                kept_id = kept.then(|| {
                    format!("The block's id ^{id} was added to the end of the new content, so links to it keep working")
                });
                Some(c)
            }
            (_, _, c) => c,
        };
        let content = content.as_deref().unwrap_or("");
        let edit = match (resolved.site, operation) {
            (EditSite::Nothing(at), _) => {
                let plan = PatchPlan {
                    plan: nothing_plan(doc, at),
                    target_note: resolved.note,
                    template_note,
                    large_delete: None,
                    block_id: None,
                };
                return Ok((doc.clone(), plan));
            }
            (EditSite::InsertBefore(before), _) => LineEdit::Insert { before, content },
            (EditSite::Lines { first, last }, Operation::Delete) => {
                LineEdit::Delete { first, last }
            }
            (EditSite::Lines { first, last }, _) => LineEdit::Replace {
                first,
                last,
                content,
            },
        };
        let large_delete = match edit {
            LineEdit::Delete { first, last } => LargeDelete::of(outline.as_ref(), first, last),
            _ => None,
        };
        let near = match resolved.site {
            EditSite::Lines { first, .. } => first,
            EditSite::InsertBefore(b) | EditSite::Nothing(b) => b.saturating_sub(1).max(1),
        };
        let plan = plan(doc, &edit, doc.eol_near(near)).map_err(|e| edit_error(e, &path))?;
        let after = doc.apply(std::slice::from_ref(&plan.splice)).map_err(|e| {
            ToolError::new(format!("Cannot write {path}: {e}; nothing was written"))
                .suggest("Use only characters the file's encoding can hold")
        })?;
        Ok((
            after,
            PatchPlan {
                plan,
                target_note: join_notes([resolved.note, kept_id]),
                template_note,
                large_delete,
                block_id: None,
            },
        ))
    }

    fn reply(
        ctx: &ToolContext,
        _params: &TextPatchParams,
        edited: Edited<PatchPlan>,
    ) -> Result<TextPatchOutput, ToolError> {
        let PatchPlan {
            plan,
            target_note,
            template_note,
            large_delete,
            block_id,
        } = &edited.value;
        let undo = match &edited.history {
            _ if !edited.written => UndoState::DryRun,
            _ if !ctx.settings.enabled_tools.contains(&"UndoEdit") => UndoState::NoHistory,
            History::Recorded(id) => UndoState::Recorded(id),
            History::Unavailable(_) => UndoState::NotRecorded,
            History::NotKept => UndoState::NoHistory,
        };
        Ok(TextPatchOutput {
            affected_lines: plan.affected,
            lines_delta: plan.lines_delta,
            preview: Preview::new(&plan.removed, &plan.inserted),
            context: context(&edited.after, plan.new_span),
            write: WriteSummary::of(&edited),
            note: join_notes([
                template_note.clone(),
                target_note.clone(),
                line_count_note(&edited.before, &edited.after),
                edit_note(ctx, &edited),
                edited.history.note(),
            ]),
            warning: large_delete.as_ref().map(|d| d.warning(undo)),
            block_id: block_id.clone(),
        })
    }
}

/// The plan of an operation on a symbol target: the definition found in
/// the tree-sitter outline, the edit re-indented to its place, and the
/// syntax gate, as for edit_code.
fn symbol_plan(
    params: &TextPatchParams,
    file: &OpenFile,
    operation: Operation,
    query: &str,
    part: SymbolPart,
    content: Option<&str>,
    template_note: Option<String>,
) -> Result<(Document, PatchPlan), ToolError> {
    let path = file.path.display();
    let doc = &file.doc;
    let op = match (operation, content) {
        (Operation::Replace, Some(c)) => SymbolOp::Replace(c),
        (Operation::Insert, Some(c)) => SymbolOp::Insert(c),
        _ => SymbolOp::Delete,
    };
    let (edit, found) = symbol_target::plan_edit(file, query, part, op, params.preserve_indent)?;
    let line_edit = edit.line_edit();
    let near = match line_edit {
        LineEdit::Replace { first, .. } | LineEdit::Delete { first, .. } => first,
        LineEdit::Insert { before, .. } => before.saturating_sub(1).max(1),
    };
    let plan = plan(doc, &line_edit, doc.eol_near(near)).map_err(|e| edit_error(e, &path))?;
    let after = doc.apply(std::slice::from_ref(&plan.splice)).map_err(|e| {
        ToolError::new(format!("Cannot write {path}: {e}; nothing was written"))
            .suggest("Use only characters the file's encoding can hold")
    })?;
    let edited = (
        plan.new_span.start,
        plan.new_span.end.max(plan.new_span.start),
    );
    let gate = syntax_gate::check(
        &file.path.real,
        &path,
        doc.text(),
        after.text(),
        Some(edited),
        "content",
    )?;
    let large_delete = match line_edit {
        LineEdit::Delete { first, last } => LargeDelete::of(None, first, last),
        _ => None,
    };
    Ok((
        after,
        PatchPlan {
            plan,
            target_note: join_notes([Some(found), gate.and_then(|g| g.note)]),
            template_note,
            large_delete,
            block_id: None,
        },
    ))
}

/// `content` ending with ` ^id`, and whether it had to be added.
fn keep_block_id(content: &str, id: &str) -> (String, bool) {
    let body = content.trim_end_matches(['\n', '\r']);
    let last = body.rsplit('\n').next().unwrap_or("");
    if markdown::trailing_block_id(last).is_some() || body.trim().is_empty() {
        return (content.to_string(), false);
    }
    let tail = &content[body.len()..];
    (format!("{body} ^{id}{tail}"), true)
}

/// Checks that a `template` goes with the other arguments.
fn check_template_arguments(
    params: &TextPatchParams,
    operation: Operation,
) -> Result<(), ToolError> {
    if params.template.is_none() {
        if params.variables.is_some() {
            return Err(ToolError::new(
                "variables were given without a template; they fill a template's placeholders",
            )
            .suggest("Pass template with the variables, or leave variables out"));
        }
        return Ok(());
    }
    if operation != Operation::Insert {
        return Err(ToolError::new(format!(
            "template works only with operation 'insert', not '{}'",
            operation.name()
        ))
        .suggest("Use operation 'insert' to add a filled template; to replace lines, pass content instead"));
    }
    if params.content.is_some() {
        return Err(ToolError::new(
            "content and template were both given, but the template is the content",
        )
        .suggest("Leave out content to insert the filled template, or leave out template to insert content as given"));
    }
    Ok(())
}

/// The content a `template` gives for `file`; `None` without a template.
fn fill_template_content(
    ctx: &ToolContext,
    params: &TextPatchParams,
    file: &OpenFile,
) -> Result<Option<super::templates::Filled>, ToolError> {
    let Some(template) = &params.template else {
        return Ok(None);
    };
    let empty = BTreeMap::new();
    let variables = params.variables.as_ref().unwrap_or(&empty);
    fill_template(ctx, template, variables, &file.path.real, &file.path.root).map(Some)
}

/// The plan of an edit that changes nothing, at line `at`.
fn nothing_plan(doc: &Document, at: usize) -> crate::text::edit::EditPlan {
    let offset = doc.lines().start(at.min(doc.line_count() + 1).max(1));
    crate::text::edit::EditPlan {
        splice: crate::text::document::Splice::new(offset..offset, ""),
        affected: LineSpan::new(at, at.saturating_sub(1)),
        new_span: LineSpan::new(at, at.saturating_sub(1)),
        lines_delta: 0,
        lines_changed: 0,
        removed: String::new(),
        inserted: String::new(),
    }
}

/// A delete of many lines, or of whole sections with their subsections,
/// which the reply warns about.
struct LargeDelete {
    first: usize,
    last: usize,
    /// The outermost sections wholly deleted that have subsections (at most
    /// five), as `'## Heading'`.
    sections: Vec<String>,
}

/// Whether, and how, the change can be undone, for the large-delete warning.
#[derive(Debug, Clone, Copy)]
enum UndoState<'a> {
    /// Nothing was written.
    DryRun,
    /// Recorded in the history under this change id.
    Recorded(&'a str),
    /// The history is on but could not keep this change.
    NotRecorded,
    /// No history is kept.
    NoHistory,
}

impl LargeDelete {
    /// The large delete of lines `first..=last`, if it is one.
    fn of(outline: Option<&MarkdownOutline>, first: usize, last: usize) -> Option<LargeDelete> {
        let count = last - first + 1;
        // Sections wholly deleted that have subsections; the outermost only, a
        // subsection goes with its parent.
        let mut sections: Vec<String> = Vec::new();
        if let Some(o) = outline {
            let mut inside_until = 0;
            for (i, h) in o.headings.iter().enumerate() {
                let whole = h.line >= first && h.section_end <= last && h.line > inside_until;
                let has_children = o
                    .headings
                    .get(i + 1)
                    .is_some_and(|next| next.level > h.level && next.line <= h.section_end);
                if whole && has_children {
                    sections.push(format!("'{}'", h.display()));
                    inside_until = h.section_end;
                }
            }
        }
        if count <= LARGE_DELETE && sections.is_empty() {
            return None;
        }
        sections.truncate(5);
        Some(LargeDelete {
            first,
            last,
            sections,
        })
    }

    /// The warning: how much went, and how to get it back.
    fn warning(&self, undo: UndoState) -> String {
        let LargeDelete {
            first,
            last,
            sections,
        } = self;
        let count = last - first + 1;
        let what = if sections.is_empty() {
            String::new()
        } else {
            format!(
                ", including the section{} {} with {} subsections",
                if sections.len() == 1 { "" } else { "s" },
                sections.join(", "),
                if sections.len() == 1 { "its" } else { "their" }
            )
        };
        let verb = match undo {
            UndoState::DryRun => "This would delete",
            _ => "Deleted",
        };
        let plural = if count == 1 { "line" } else { "lines" };
        let back = match undo {
            UndoState::DryRun => "Nothing was written (dry run)".to_string(),
            UndoState::Recorded(id) => {
                format!("If that was not intended, UndoEdit with changeId '{id}' restores them")
            }
            UndoState::NotRecorded => "The edit history could not keep this change (see note): if that was not intended, insert the lines again (preview.before shows how they began)".to_string(),
            UndoState::NoHistory => "This server keeps no edit history (UndoEdit is not switched on): if that was not intended, insert the lines again (preview.before shows how they began); next time check with dryRun: true first".to_string(),
        };
        format!("{verb} {count} {plural} ({first}-{last}){what}. {back}.")
    }
}

fn edit_error(error: EditError, path: &str) -> ToolError {
    let err = ToolError::new(format!("Cannot edit {path}: {error}; nothing was written"));
    match error {
        EditError::OutOfRange { .. } | EditError::Reversed { .. } => {
            err.suggest("Use TextInspect to see the file's length and structure")
        }
        EditError::EmptyContent => err.suggest("Use operation 'delete' to remove lines"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_large_delete_warning_names_the_change_to_undo_only_when_there_is_one() {
        let outline = markdown::parse_sections("# A\n\n## B\n\n### C\n\ntext\n");
        let sections = LargeDelete::of(Some(&outline), 3, 7).unwrap();
        assert_eq!(
            sections.warning(UndoState::Recorded("20261124T010203Z-1a2b")),
            "Deleted 5 lines (3-7), including the section '## B' with its subsections. If that \
             was not intended, UndoEdit with changeId '20261124T010203Z-1a2b' restores them."
        );
        assert!(
            sections
                .warning(UndoState::NoHistory)
                .contains("UndoEdit is not switched on")
        );
        assert!(
            sections
                .warning(UndoState::NotRecorded)
                .contains("The edit history could not keep this change")
        );
        assert_eq!(
            sections.warning(UndoState::DryRun),
            "This would delete 5 lines (3-7), including the section '## B' with its \
             subsections. Nothing was written (dry run)."
        );
        assert!(LargeDelete::of(Some(&outline), 5, 7).is_none());
        assert_eq!(
            LargeDelete::of(None, 1, 51)
                .unwrap()
                .warning(UndoState::Recorded("x")),
            "Deleted 51 lines (1-51). If that was not intended, UndoEdit with changeId 'x' \
             restores them."
        );
        assert!(LargeDelete::of(None, 1, 50).is_none());
    }
}
