//! The syntax gate as the editing tools apply it: a source file whose edit
//! would parse worse than before is refused with the parser's line, column
//! and message ([`crate::text::syntax::check_edit`] decides). edit_code,
//! TextPatch on symbols and ApplyPatch share it.

use std::path::Path;

use serde_json::json;

use super::error::ToolError;
use crate::text::excerpt::cut;
use crate::text::format::{Format, format_of};
use crate::text::syntax::{self, GateOutcome, Language};

/// The gate let the edit through.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Passed {
    /// The language the file was parsed as.
    pub language: Language,
    /// A remark, e.g. errors the file already had.
    pub note: Option<String>,
}

/// Checks the edit of the file at `path` from `before` to `after`;
/// `edited_lines` are the lines it wrote (numbered in `after`), when it
/// wrote one stretch. `None` for a file without a parser. `what` names the
/// edit's new text in the suggestion ("new_content", "the hunk", …).
pub fn check(
    path: &Path,
    shown_path: &str,
    before: &str,
    after: &str,
    edited_lines: Option<(usize, usize)>,
    what: &str,
) -> Result<Option<Passed>, ToolError> {
    let Format::Code(language) = format_of(path) else {
        return Ok(None);
    };
    match syntax::check_edit(language, before, after, edited_lines) {
        GateOutcome::Pass { note } => Ok(Some(Passed { language, note })),
        GateOutcome::Refuse(regression) => {
            let first = &regression.first_new_error;
            Err(ToolError::new(format!(
                "The edit would break the syntax of {shown_path}: {regression}"
            ))
            .suggest(format!(
                "Fix {what} so line {} parses: {}",
                first.line,
                cut(first.line_text.trim(), 200)
            ))
            .suggest("The file is unchanged; read it again if unsure of the surrounding code")
            .detail(
                "syntaxError",
                json!({
                    "line": first.line,
                    "column": first.column,
                    "message": first.message,
                    "lineText": first.line_text,
                }),
            ))
        }
    }
}
