//! Running a tree-sitter parser over a text with a work budget.
//!
//! Error recovery in tree-sitter can, on unlucky input, do far more work than
//! the text's length suggests. Rather than a wall-clock timeout (the text core
//! has no clock), the parse gets a budget of parser operations proportional to
//! the text's size; tree-sitter reports progress every hundred operations and
//! the parse is abandoned when the budget is spent. The same text therefore
//! always gets the same outcome, on any machine.

use std::ops::ControlFlow;

use tree_sitter::{ParseOptions, ParseState, Parser, Tree};

use super::language::Language;
use super::limits::{Beyond, scanner_limit};

/// Bytes of text per progress report allowed. Measured on real files, valid
/// source needs about one report per 100 bytes, and random or adversarial
/// text (garbage, thousands of unclosed brackets) up to one per 20 bytes;
/// one per 8 leaves room for any real file while keeping the worst case
/// linear in the text's size.
const BYTES_PER_CHECK: usize = 8;

/// Progress reports every text is allowed, however short: about a second of
/// error recovery at worst.
const MIN_CHECKS: usize = 10_000;

/// Why a text was not checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Skipped {
    /// The parser spent its whole work budget without finishing.
    TooSlow,
    /// The text nests deeper than the grammar's scanner can hold, so it was
    /// not given to the parser (see [`super::limits`]).
    BeyondLimits {
        /// The language whose scanner has the limit.
        language: Language,
        /// What the text has beyond it.
        beyond: Beyond,
    },
}

impl Skipped {
    /// The message shown to whoever asked for the check.
    pub fn message(self) -> String {
        match self {
            Skipped::TooSlow => "syntax check skipped: parse took too long".to_string(),
            Skipped::BeyondLimits { language, beyond } => format!(
                "syntax check skipped: the file has {} {}, more than the {} parser can hold \
                 ({}), so it was not parsed",
                beyond.found,
                beyond.what,
                language.name(),
                beyond.limit
            ),
        }
    }
}

impl std::fmt::Display for Skipped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message())
    }
}

/// The work a parse of `len` bytes may do, in progress reports.
pub(crate) fn budget_for(len: usize) -> usize {
    MIN_CHECKS.saturating_add(len / BYTES_PER_CHECK)
}

/// Parses `text` as `language`, giving up after `budget` progress reports.
/// A text beyond what the grammar's scanner can hold is not parsed at all.
pub(crate) fn parse_tree(language: Language, text: &str, budget: usize) -> Result<Tree, Skipped> {
    scanner_limit(language, text).map_err(|beyond| Skipped::BeyondLimits { language, beyond })?;
    let mut parser = Parser::new();
    parser
        .set_language(&language.grammar())
        .expect("every bundled grammar matches the tree-sitter version it was built for");
    let bytes = text.as_bytes();
    let mut checks = 0usize;
    let mut on_progress = |_: &ParseState| {
        checks += 1;
        if checks > budget {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    };
    let options = ParseOptions::new().progress_callback(&mut on_progress);
    let tree = parser.parse_with_options(
        &mut |offset, _| bytes.get(offset..).unwrap_or_default(),
        None,
        Some(options),
    );
    tree.ok_or(Skipped::TooSlow)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Deterministic noise made of the characters grammars care about.
    fn garbage(len: usize) -> String {
        let alphabet: Vec<char> = "{}()[];:,.<>=+-*/\"'`\n \tabx01#$\\".chars().collect();
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        (0..len)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                alphabet[(state % alphabet.len() as u64) as usize]
            })
            .collect()
    }

    #[test]
    fn budgets_grow_with_the_text() {
        assert_eq!(budget_for(0), 10_000);
        assert_eq!(budget_for(800_000), 110_000);
    }

    #[test]
    fn a_spent_budget_skips_the_parse() {
        let text: String = (0..100)
            .map(|i| format!("fn f{i}() {{ g({i}); }}\n"))
            .collect();
        assert_eq!(
            parse_tree(Language::Rust, &text, 1).err(),
            Some(Skipped::TooSlow)
        );
        assert_eq!(
            Skipped::TooSlow.to_string(),
            "syntax check skipped: parse took too long"
        );
        assert!(parse_tree(Language::Rust, &text, budget_for(text.len())).is_ok());
    }

    #[test]
    fn hostile_input_finishes_within_budget() {
        let inputs = [
            garbage(20_000),
            "(".repeat(20_000),
            "{".repeat(20_000),
            "if (a { [ < \"x\n".repeat(1_000),
            "- a: [b, {c: d\n  e: f\n".repeat(1_000),
        ];
        for language in Language::ALL {
            for input in &inputs {
                // Either outcome is fine; returning at all is the point.
                let _ = parse_tree(language, input, budget_for(input.len()));
            }
        }
    }
}
