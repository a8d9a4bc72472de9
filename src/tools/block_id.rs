//! TextPatch's operation `blockId`: giving the paragraph or list item at a
//! target a `^block-id` (Obsidian's block reference) so that it can be
//! linked to as `[[note#^id]]`, and returning the id. A block that has an id
//! keeps it; a new id is the one the caller names, or six characters of the
//! block's hash (the same text gives the same id), unique in the note.

use crate::text::document::{Document, Splice};
use crate::text::edit::{self, EditError, EditPlan, LineEdit, LineSpan};
use crate::text::format::{Format, format_of};
use crate::text::markdown;
use crate::text::targets::Target;
use crate::tools::context::ToolContext;
use crate::tools::error::ToolError;
use crate::workspace::OpenFile;

/// Refuses `what` (a block target, operation `blockId`) when the `vault`
/// toolset, which block ids belong to, is not switched on: its tools are
/// Properties and Tags.
pub fn require_vault(ctx: &ToolContext, what: &str) -> Result<(), ToolError> {
    let on = |name| ctx.settings.enabled_tools.contains(&name);
    if on("Properties") || on("Tags") {
        return Ok(());
    }
    Err(ToolError::new(format!(
        "{what} belongs to the 'vault' toolset, which this server does not have switched on"
    ))
    .suggest("Use a lines target instead (TextInspect shows the lines), or start the server with --toolsets including vault"))
}

/// The planned edit of a `blockId` call.
pub(super) struct BlockIdPlan {
    /// The document with the id added (as it was, if the block had one).
    pub after: Document,
    /// The line edit, for the reply.
    pub plan: EditPlan,
    /// A remark for the reply.
    pub note: Option<String>,
    /// The block's id, without `^`.
    pub id: String,
}

/// Why a `blockId` call cannot be planned.
pub(super) enum Failure {
    /// The line edit was refused.
    Edit(EditError),
    /// Anything else, said for the caller.
    Tool(ToolError),
}

impl From<ToolError> for Failure {
    fn from(error: ToolError) -> Failure {
        Failure::Tool(error)
    }
}

/// The id of the paragraph or list item at `target`, added at the end of
/// its last line when it has none; `given` is the id the caller asked for.
pub(super) fn plan(
    given: Option<&str>,
    file: &OpenFile,
    target: &Target,
) -> Result<BlockIdPlan, Failure> {
    let path = file.path.display();
    let doc = &file.doc;
    if format_of(&file.path.real) != Format::Markdown {
        return Err(ToolError::new(format!(
            "{path} is not a Markdown file; block ids are a Markdown (Obsidian) feature"
        ))
        .suggest("Use a lines target with TextRead or TextPatch instead")
        .into());
    }
    let text = doc.text();
    let (first, last) = match target {
        Target::Block(id) => markdown::block_refs(text)
            .into_iter()
            .find(|b| &b.id == id)
            .map(|b| (b.first, b.last))
            .ok_or_else(|| {
                ToolError::new(format!("Target not found in {path}: block '^{id}' does not exist"))
                    .suggest("Use a lines target with a line of the paragraph to give it an id")
            })?,
        Target::Lines { start, .. } => markdown::block_at(text, *start).ok_or_else(|| {
            ToolError::new(format!(
                "Line {start} of {path} is not in a paragraph or list item (it is blank, a heading, code or frontmatter), so it cannot get a block id"
            ))
            .suggest("Name a line of the paragraph's text; TextInspect mode 'lines' shows them")
        })?,
        _ => unreachable!("arguments() allows only lines and block targets"),
    };
    let last_line = doc.line(last);
    if let Some(id) = markdown::trailing_block_id(last_line) {
        let at = doc.lines().start(last + 1);
        return Ok(BlockIdPlan {
            after: doc.clone(),
            // The line that ends with the id, which nothing changed.
            plan: EditPlan {
                splice: Splice::new(at..at, ""),
                affected: LineSpan::new(last, last),
                new_span: LineSpan::new(last, last),
                lines_delta: 0,
                lines_changed: 0,
                removed: String::new(),
                inserted: String::new(),
            },
            note: Some(format!(
                "Lines {first}-{last} already have the id ^{id}; nothing was changed"
            )),
            id: id.to_string(),
        });
    }
    let taken: Vec<String> = markdown::block_refs(text)
        .into_iter()
        .map(|b| b.id)
        .collect();
    let id = match given.map(str::trim) {
        Some(wanted) if !wanted.is_empty() => {
            let wanted = wanted.trim_start_matches('^');
            if !markdown::is_block_id(wanted) {
                return Err(ToolError::new(format!(
                    "'{}' is not a block id: ids are letters, digits and '-'",
                    crate::text::excerpt::brief(wanted)
                ))
                .suggest("Pass an id such as \"tasks-2\", or leave content out to have one made")
                .into());
            }
            if taken.iter().any(|t| t == wanted) {
                return Err(ToolError::new(format!(
                    "{path} already has a block ^{wanted}; block ids must be unique in a note"
                ))
                .suggest("Choose another id, or leave content out to have one made")
                .into());
            }
            wanted.to_string()
        }
        _ => new_block_id(&doc.lines().span_of_lines(first, last), text, &taken),
    };
    let new_line = format!("{} ^{id}", last_line.trim_end_matches([' ', '\t']));
    let edit = LineEdit::Replace {
        first: last,
        last,
        content: &new_line,
    };
    let plan = edit::plan(doc, &edit, doc.eol_near(last)).map_err(Failure::Edit)?;
    let after = doc
        .apply(std::slice::from_ref(&plan.splice))
        .map_err(|e| ToolError::new(format!("Cannot write {path}: {e}; nothing was written")))?;
    Ok(BlockIdPlan {
        after,
        plan,
        note: None,
        id,
    })
}

/// A short id for the block at `range` of `text`, made from its text (the
/// same text gives the same id) and not among `taken`.
fn new_block_id(range: &std::ops::Range<usize>, text: &str, taken: &[String]) -> String {
    let hash = crate::text::hash::file_hash(&[text[range.clone()].as_bytes()]);
    for start in 0..hash.len().saturating_sub(6) {
        let id = hash[start..start + 6].to_string();
        if !taken.contains(&id) {
            return id;
        }
    }
    let mut n = taken.len() + 1;
    loop {
        let id = format!("block-{n}");
        if !taken.contains(&id) {
            return id;
        }
        n += 1;
    }
}
