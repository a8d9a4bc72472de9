//! Running a tree-sitter parser over a text with a work budget.
//!
//! Error recovery in tree-sitter can, on unlucky input, do far more work than
//! the text's length suggests. Rather than a wall-clock timeout (the text core
//! has no clock), the parse gets a budget of parser operations proportional to
//! the text's size; tree-sitter reports progress every hundred operations and
//! the parse is abandoned when the budget is spent. The same text therefore
//! gets the same outcome on any machine.
//!
//! One report can cost far more than another, though: with many stack
//! versions carrying large subtrees (a TSX line of 80 `!` repeated on 64
//! indented lines), a report took 0.85 ms against 40 µs on valid code, and a
//! 12 KB text spent 6 s inside its budget. So behind the budget sits a limit
//! on the CPU time the parsing thread spends ([`cpu_allowance`]), checked at
//! each report. Valid code parses in a small part of it; only texts that
//! make the parser's work per report explode meet it, and for those alone
//! the outcome can depend on the machine.

use std::ops::ControlFlow;
use std::time::Duration;

use rustix::time::{ClockId, clock_gettime};

use tree_sitter::{ParseOptions, ParseState, Parser, Tree};

use super::language::Language;
use super::limits::{Beyond, scanner_limit};

/// Bytes of text per progress report allowed. Measured on real files, valid
/// source needs about one report per 100 bytes, and random or adversarial
/// text (garbage, thousands of unclosed brackets) up to one per 20 bytes;
/// one per 8 leaves room for any real file while keeping the worst case
/// linear in the text's size.
const BYTES_PER_CHECK: usize = 8;

/// Progress reports every text is allowed, however short: a tenth of a
/// second of error recovery on most texts, and up to several seconds on the
/// worst, where [`cpu_allowance`] stops it first.
const MIN_CHECKS: usize = 10_000;

/// CPU time every parse is allowed, however short the text.
const MIN_CPU: Duration = Duration::from_millis(500);

/// Bytes of text per extra second of CPU time allowed. Valid code parses at
/// 2 MB a second or more (a 2.9 MB TSX file in 1.6 s on a loaded machine),
/// so a real file meets this limit only on a machine many times slower.
const BYTES_PER_CPU_SECOND: u64 = 256 * 1024;

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

/// The CPU time a parse of `len` bytes may take.
pub(crate) fn cpu_allowance(len: usize) -> Duration {
    let extra = Duration::from_secs(1).as_nanos() as u64 * len as u64 / BYTES_PER_CPU_SECOND;
    MIN_CPU.saturating_add(Duration::from_nanos(extra))
}

/// CPU time the calling thread has used so far.
fn thread_cpu_time() -> Duration {
    let now = clock_gettime(ClockId::ThreadCPUTime);
    Duration::new(now.tv_sec as u64, now.tv_nsec as u32)
}

/// Parses `text` as `language`, giving up after `budget` progress reports or
/// [`cpu_allowance`] of CPU time, whichever comes first. A text beyond what
/// the grammar's scanner can hold is not parsed at all.
pub(crate) fn parse_tree(language: Language, text: &str, budget: usize) -> Result<Tree, Skipped> {
    parse_limited(language, text, budget, cpu_allowance(text.len()))
}

/// [`parse_tree`] with the CPU time allowed given.
fn parse_limited(
    language: Language,
    text: &str,
    budget: usize,
    cpu: Duration,
) -> Result<Tree, Skipped> {
    scanner_limit(language, text).map_err(|beyond| Skipped::BeyondLimits { language, beyond })?;
    let mut parser = Parser::new();
    parser
        .set_language(&language.grammar())
        .expect("every bundled grammar matches the tree-sitter version it was built for");
    let bytes = text.as_bytes();
    let mut checks = 0usize;
    let cpu_limit = thread_cpu_time().saturating_add(cpu);
    let mut on_progress = |_: &ParseState| {
        checks += 1;
        if checks > budget || thread_cpu_time() > cpu_limit {
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
    fn spent_cpu_time_skips_the_parse() {
        let text: String = (0..2_000)
            .map(|i| format!("fn f{i}() {{ g({i}); }}\n"))
            .collect();
        let budget = budget_for(text.len());
        assert_eq!(
            parse_limited(Language::Rust, &text, budget, Duration::ZERO).err(),
            Some(Skipped::TooSlow)
        );
        assert!(parse_limited(Language::Rust, &text, budget, cpu_allowance(text.len())).is_ok());
    }

    #[test]
    fn cpu_allowances_grow_with_the_text() {
        assert_eq!(cpu_allowance(0), Duration::from_millis(500));
        assert_eq!(cpu_allowance(256 * 1024), Duration::from_millis(1_500));
        assert_eq!(cpu_allowance(1024 * 1024), Duration::from_millis(4_500));
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
