//! Symbol targets in TextRead and TextPatch: finding the definition in the
//! file, turning its lines into a read range or a line edit, and wording
//! the refusals (the candidates with their kind and line).

use serde_json::json;

use super::error::ToolError;
use super::target::target_error;
use crate::text::document::Document;
use crate::text::edit::LineSpan;
use crate::text::format::{Format, format_of};
use crate::text::symbol::edit::{Part, SymbolEdit, SymbolOp, symbol_edit, symbol_lines};
use crate::text::symbol::{Symbol, SymbolError, SymbolQuery, find, kind_name};
use crate::text::syntax::Language;
use crate::text::targets::TargetError;
use crate::workspace::OpenFile;

/// The language of `file`, or the refusal of a symbol target there.
fn language(file: &OpenFile) -> Result<Language, ToolError> {
    match format_of(&file.path.real) {
        Format::Code(language) => Ok(language),
        _ => Err(target_error(TargetError::NotSource, &file.path.display())),
    }
}

/// The one definition `query` names in `file`.
fn lookup(file: &OpenFile, query: &str) -> Result<(Language, Symbol), ToolError> {
    let language = language(file)?;
    let query = SymbolQuery::parse(query).map_err(ToolError::new)?;
    let symbol = find(language, file.doc.text(), &query)
        .map_err(|e| symbol_error(e, &file.path.display()))?;
    Ok((language, symbol))
}

/// A failed lookup as a tool error, listing the candidates.
fn symbol_error(error: SymbolError, path: &str) -> ToolError {
    let candidates: Vec<_> = error
        .candidates()
        .iter()
        .take(20)
        .map(|c| json!({"name": c.name, "kind": kind_name(c.kind), "line": c.line}))
        .collect();
    let err = match &error {
        SymbolError::Ambiguous { .. } => ToolError::new(format!("Ambiguous target in {path}: {error}"))
            .suggest("Name it by its path (\"Class.method\") or put its kind in front (\"fn name\", \"class Name\")")
            .suggest("Or use a lines target with the lines of the one you mean"),
        SymbolError::NotFound { .. } => ToolError::new(format!("Target not found in {path}: {error}"))
            .suggest("TextInspect lists the file's definitions with their kinds and lines"),
        SymbolError::Unparsed { .. } => ToolError::new(format!("Invalid target for {path}: {error}"))
            .suggest("Use a lines target; TextInspect mode 'lines' shows the lines"),
    };
    if candidates.is_empty() {
        err
    } else {
        err.detail("candidates", json!(candidates))
    }
}

/// The lines a read of `part` of the definition `query` names covers, with
/// a note naming what was found.
pub fn read_range(
    file: &OpenFile,
    query: &str,
    part: Part,
) -> Result<(LineSpan, String), ToolError> {
    let (language, symbol) = lookup(file, query)?;
    let span = symbol_lines(&file.doc, language, &symbol, part)
        .map_err(|e| ToolError::new(format!("Invalid target for {}: {e}", file.path.display())))?;
    Ok((span, found_note(&symbol)))
}

/// "Found Calc.add (method)", for the reply.
fn found_note(symbol: &Symbol) -> String {
    format!("Found {} ({})", symbol.name, kind_name(symbol.kind))
}

/// The line edit of `op` on `part` of the definition `query` names, with
/// the file's language (for the syntax gate) and a note naming what was
/// found.
pub fn plan_edit(
    file: &OpenFile,
    query: &str,
    part: Part,
    op: SymbolOp<'_>,
    reindent: bool,
) -> Result<(SymbolEdit, String), ToolError> {
    let (language, symbol) = lookup(file, query)?;
    let doc: &Document = &file.doc;
    let edit = symbol_edit(doc, language, &symbol, part, op, reindent).map_err(|e| {
        ToolError::new(format!(
            "Cannot edit {}: {e}; nothing was written",
            file.path.display()
        ))
        .suggest("Replace the whole definition with the symbol target, or use a lines target")
    })?;
    Ok((edit, found_note(&symbol)))
}
