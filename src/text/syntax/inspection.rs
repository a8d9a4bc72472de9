//! One parse serving TextInspect: a source file's syntax errors and outline.

use schemars::JsonSchema;
use serde::Serialize;

use super::errors::{SyntaxReport, report};
use super::language::Language;
use super::outline::{OutlineItem, outline_of};
use super::parser::{Skipped, budget_for, parse_tree};

/// What TextInspect shows of a source file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SourceInspection {
    /// The file's syntax errors.
    pub syntax: SyntaxReport,
    /// Its functions, types and classes (or top-level keys), with line ranges.
    pub outline: Vec<OutlineItem>,
}

/// Parses `text` once and returns both its syntax errors and its outline.
pub fn inspect(language: Language, text: &str) -> Result<SourceInspection, Skipped> {
    let tree = parse_tree(language, text, budget_for(text.len()))?;
    Ok(SourceInspection {
        syntax: report(language, &tree, text),
        outline: outline_of(language, &tree, text),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_parse_gives_errors_and_outline() {
        let text = "def ok():\n    pass\n\n\ndef broken(:\n    pass\n";
        let inspection = inspect(Language::Python, text).unwrap();
        assert_eq!(inspection.syntax.error_count, 1);
        assert_eq!(inspection.syntax.errors[0].line, 5);
        assert_eq!(inspection.outline[0].name, "ok");
        assert_eq!(
            inspection.syntax,
            crate::text::syntax::parse(Language::Python, text).unwrap()
        );
        assert_eq!(
            inspection.outline,
            crate::text::syntax::outline(Language::Python, text).unwrap()
        );
    }
}
