//! TextPatch: structural edits by heading, line range or code block —
//! replace, insert or delete whole lines.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::args::TextArg;
use super::context::ToolContext;
use super::edit_report::{Preview, WriteSummary, context, join_notes, line_count_note};
use super::error::ToolError;
use super::target::{PatchTarget, TargetUse, parse_target};
use super::templates::fill_template;
use super::text_read::target_error;
use super::tool::{Effects, Tool, Toolset};
use crate::text::document::Document;
use crate::text::edit::{EditError, LineEdit, LineSpan, plan};
use crate::text::excerpt::ContextLines;
use crate::text::format::{Format, format_of};
use crate::text::indent::{common_indent, rebase};
use crate::text::markdown::{self, MarkdownOutline};
use crate::text::targets::{EditSite, IndentRule, Operation, resolve_edit};

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
    pub file_path: String,
    /// Operation: 'replace', 'insert', or 'delete'.
    pub operation: OperationArg,
    /// Target specification as JSON. Use ONE of: lines {start,end}, heading, beforeHeading, appendToSection, codeBlock {index}.
    pub target: PatchTarget,
    /// New content for replace and insert (whole lines; a trailing newline is optional).
    #[serde(default)]
    pub content: Option<TextArg>,
    /// insert only, instead of content: a template. Either the name of a file in the root's templates folder (templates/ unless the server says otherwise; .md optional), or the template's text itself (it then holds a line break or a {{placeholder}}). Placeholders: {{date}} (YYYY-MM-DD), {{time}} (HH:mm), {{date:FORMAT}} and {{time:FORMAT}} with moment.js tokens (YYYY, MM, DD, ddd, dddd, MMM, MMMM, HH, mm, ss, Do, [text]), {{title}} (this file's name without extension), and {{name}} for each entry of variables. The server's local time is used.
    #[serde(default)]
    pub template: Option<String>,
    /// Values for the template's own placeholders, e.g. {"project": "Garden"}; a name like date or title replaces the built-in value.
    #[serde(default)]
    pub variables: Option<BTreeMap<String, String>>,
    /// Re-base the content's indentation onto the target's (lines and codeBlock targets). Default true.
    #[serde(default = "default_true")]
    pub preserve_indent: bool,
    /// fileHash from an earlier response; the edit is refused if the file changed since.
    #[serde(default)]
    pub expected_hash: Option<String>,
    /// If true, return the diff and the response without writing anything.
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
        schemars::json_schema!({ "type": "string", "enum": ["replace", "insert", "delete"] })
    }
}

fn parse_operation(value: &Value) -> Result<Operation, ToolError> {
    let accepted = "Use operation 'replace', 'insert' or 'delete'";
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
    /// Always "success".
    pub status: &'static str,
    /// The operation done.
    pub operation: &'static str,
    /// The edited file.
    pub file_path: String,
    /// The target, as sent.
    pub target: Value,
    /// For insert and replace, where the new lines are now; for delete, the removed lines (numbered as before the edit).
    pub affected_lines: LineSpan,
    /// Lines of the original file that were replaced or removed.
    pub lines_changed: usize,
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
}

impl Tool for TextPatch {
    type Params = TextPatchParams;
    type Output = TextPatchOutput;

    const NAME: &'static str = "TextPatch";
    const TITLE: &'static str = "Edit by heading, line range or code block";
    const TOOLSET: Toolset = Toolset::Text;
    const EFFECTS: Effects = Effects::EDITS;

    fn description() -> &'static str {
        "Modifies a text or markdown file by structural position (heading, line range, code block).\n\
\n\
Operations:\n\
- 'replace': Replace targeted lines with new content\n\
- 'insert': Insert new content at target location\n\
- 'delete': Remove targeted content\n\
\n\
Targeting (use ONE):\n\
- lines: { \"start\": N, \"end\": M } - Target specific line range (insert goes before start)\n\
- heading: \"## Title\" - Target a markdown heading line (insert goes right after it)\n\
- beforeHeading: \"## Title\" - Position before a heading (for insert)\n\
- appendToSection: \"## Title\" - Append to the end of a markdown section, after its subsections (for insert)\n\
- codeBlock: { \"index\": N } - Target the Nth code block's content, fences kept (insert appends to it)\n\
\n\
IMPORTANT:\n\
1. Always use TextInspect first to find exact line numbers and headings\n\
2. Prefer heading targeting for markdown—survives other edits\n\
3. Line numbers shift after insert/delete—re-inspect if making multiple edits\n\
4. For text find-and-replace by content match, use TextReplace instead\n\
\n\
Content is whole lines; it gets the file's line endings. preserveIndent (default true), for lines and codeBlock targets: replace re-bases the content's indentation onto the replaced lines'; insert gives unindented content the indentation of the target line (the line it goes before, or the nearest non-blank line above when that one is blank or past the end), while content that carries its own indentation is inserted as given, since that indentation may be deliberate (a nested list item). Heading targets find a heading by its text: '### Other' finds '## Other' when it is the only 'Other', with a note. Deleting over 50 lines, or whole sections with their subsections, succeeds with a warning saying how much went.\n\
\n\
Templates (insert only): pass template (a file in the root's templates/ folder, or the template text) and variables instead of content; {{date}}, {{time}}, {{date:YYYY-MM-DD}}, {{title}} and {{name}} placeholders are filled, and an unknown placeholder is refused with the list of known ones.\n\
\n\
Pass expectedHash (fileHash from the last response) to refuse the edit if the file changed; dryRun: true shows the diff without writing.\n\
\n\
Examples:\n\
- Replace heading: operation=\"replace\", target={ \"heading\": \"## Old\" }, content=\"## New\"\n\
- Insert before heading: operation=\"insert\", target={ \"beforeHeading\": \"## Setup\" }, content=\"## New Section\\n\"\n\
- Append to section: operation=\"insert\", target={ \"appendToSection\": \"## Setup\" }, content=\"New content\\n\"\n\
- Delete lines 50-55: operation=\"delete\", target={ \"lines\": { \"start\": 50, \"end\": 55 } }\n\
- Replace code block: operation=\"replace\", target={ \"codeBlock\": { \"index\": 0 } }, content=\"new code...\"\n\
- Insert from a template: operation=\"insert\", target={ \"appendToSection\": \"## Log\" }, template=\"log-entry\", variables={ \"mood\": \"good\" }"
    }

    fn run(ctx: &ToolContext, params: TextPatchParams) -> Result<TextPatchOutput, ToolError> {
        let operation = parse_operation(&params.operation.0)?;
        let target = parse_target(&params.target.0.0, TargetUse::Patch)?;
        let filled = template_content(ctx, &params, operation)?;
        let raw_target = params.target.0.0;
        let content = match &filled {
            Some(filled) => Some(filled.text.as_str()),
            None => params.content.as_ref().map(TextArg::as_str),
        };
        match (operation, content) {
            (Operation::Delete, Some(_)) => {
                return Err(ToolError::new(
                    "operation 'delete' takes no content, but content was given",
                )
                .suggest("Leave content out to delete, or use operation 'replace' to put the content in place of the target"));
            }
            (Operation::Replace | Operation::Insert, None) => {
                return Err(ToolError::new(format!(
                    "operation '{}' needs content",
                    operation.name()
                ))
                .suggest("Pass content with the new lines, or use operation 'delete' to remove the target"));
            }
            (Operation::Replace | Operation::Insert, Some("")) => {
                return Err(ToolError::new(format!(
                    "content is empty, so '{}' would add nothing",
                    operation.name()
                ))
                .suggest("Use operation 'delete' to remove lines; to insert one empty line send content \"\\n\""));
            }
            _ => {}
        }
        let preserve_indent = params.preserve_indent;
        let workspace = ctx.workspace.clone();
        let edited = workspace.edit(
            &params.file_path,
            params.expected_hash.as_deref(),
            None,
            !params.dry_run,
            |file| {
                let path = file.path.display();
                let doc = &file.doc;
                let outline = (format_of(&file.path.real) == Format::Markdown
                    && (target.needs_outline() || operation == Operation::Delete))
                    .then(|| markdown::parse_sections(doc.text()));
                let resolved = resolve_edit(doc, outline.as_ref(), &target, operation)
                    .map_err(|e| target_error(e, &path))?;
                let content = content.map(|c| match (&resolved.indent, preserve_indent) {
                    (IndentRule::Rebase(indent), true) => rebase(c, indent),
                    (IndentRule::RebaseIfFlush(indent), true)
                        if common_indent(c.split('\n')).is_empty() =>
                    {
                        rebase(c, indent)
                    }
                    _ => c.to_string(),
                });
                let content = content.as_deref().unwrap_or("");
                let edit = match (resolved.site, operation) {
                    (EditSite::Nothing(at), _) => {
                        return Ok((doc.clone(), (nothing_plan(doc, at), resolved.note, None)));
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
                let warning = match edit {
                    LineEdit::Delete { first, last } => {
                        let undo = ctx.settings.enabled_tools.contains(&"UndoEdit");
                        large_delete_warning(outline.as_ref(), first, last, params.dry_run, undo)
                    }
                    _ => None,
                };
                let near = match resolved.site {
                    EditSite::Lines { first, .. } => first,
                    EditSite::InsertBefore(b) | EditSite::Nothing(b) => b.saturating_sub(1).max(1),
                };
                let plan =
                    plan(doc, &edit, doc.eol_near(near)).map_err(|e| edit_error(e, &path))?;
                let after = doc.apply(std::slice::from_ref(&plan.splice)).map_err(|e| {
                    ToolError::new(format!("Cannot write {path}: {e}; nothing was written"))
                        .suggest("Use only characters the file's encoding can hold")
                })?;
                Ok::<(Document, _), ToolError>((after, (plan, resolved.note, warning)))
            },
        )?;
        let (plan, target_note, warning) = &edited.value;
        Ok(TextPatchOutput {
            status: "success",
            operation: operation.name(),
            file_path: edited.path.display(),
            target: raw_target,
            affected_lines: plan.affected,
            lines_changed: plan.lines_changed,
            lines_delta: plan.lines_delta,
            preview: Preview::new(&plan.removed, &plan.inserted),
            context: context(&edited.after, plan.new_span),
            write: WriteSummary::of(&edited),
            note: join_notes([
                filled.map(|f| f.note),
                target_note.clone(),
                line_count_note(&edited.before, &edited.after),
            ]),
            warning: warning.clone(),
        })
    }
}

/// The content a `template` gives, after checking it goes with the other
/// arguments; `None` without a template.
fn template_content(
    ctx: &ToolContext,
    params: &TextPatchParams,
    operation: Operation,
) -> Result<Option<super::templates::Filled>, ToolError> {
    let Some(template) = &params.template else {
        if params.variables.is_some() {
            return Err(ToolError::new(
                "variables were given without a template; they fill a template's placeholders",
            )
            .suggest("Pass template with the variables, or leave variables out"));
        }
        return Ok(None);
    };
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
    let file = ctx.workspace.resolve_file(&params.file_path)?;
    let empty = BTreeMap::new();
    let variables = params.variables.as_ref().unwrap_or(&empty);
    fill_template(ctx, template, variables, &file.real, &file.root).map(Some)
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

/// The warning for deleting lines `first..=last`, when they are many or hold
/// whole sections with subsections.
fn large_delete_warning(
    outline: Option<&MarkdownOutline>,
    first: usize,
    last: usize,
    dry_run: bool,
    undo_available: bool,
) -> Option<String> {
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
    let verb = if dry_run {
        "This would delete"
    } else {
        "Deleted"
    };
    let plural = if count == 1 { "line" } else { "lines" };
    let back = if dry_run {
        "Nothing was written (dry run)".to_string()
    } else if undo_available {
        "If that was not intended, UndoEdit restores them".to_string()
    } else {
        "This server keeps no edit history (UndoEdit is not switched on): if that was not intended, insert the lines again (preview.before shows how they began); next time check with dryRun: true first".to_string()
    };
    Some(format!(
        "{verb} {count} {plural} ({first}-{last}){what}. {back}."
    ))
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
    fn the_large_delete_warning_names_undo_only_when_it_exists() {
        let outline = markdown::parse_sections("# A\n\n## B\n\n### C\n\ntext\n");
        assert_eq!(
            large_delete_warning(Some(&outline), 3, 7, false, true).unwrap(),
            "Deleted 5 lines (3-7), including the section '## B' with its subsections. If that \
             was not intended, UndoEdit restores them."
        );
        assert!(
            large_delete_warning(Some(&outline), 3, 7, false, false)
                .unwrap()
                .contains("UndoEdit is not switched on")
        );
        assert_eq!(
            large_delete_warning(Some(&outline), 5, 7, false, true),
            None
        );
        assert_eq!(
            large_delete_warning(None, 1, 51, false, true).unwrap(),
            "Deleted 51 lines (1-51). If that was not intended, UndoEdit restores them."
        );
        assert_eq!(large_delete_warning(None, 1, 50, false, true), None);
    }
}
