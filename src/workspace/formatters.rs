//! Formatting source text with the language's usual formatter, when one is
//! installed: `rustfmt`, `goimports` (or `gofmt`), `ruff format` (or `black`),
//! `prettier`, `clang-format`, `shfmt`. Text goes in on stdin and comes back
//! on stdout; the file itself is never touched by the formatter.

use std::time::Duration;

use super::external::{Command, RunError, run};
use crate::text::syntax::Language;

/// How long a formatter may run.
pub const FORMAT_TIME_LIMIT: Duration = Duration::from_secs(20);

/// What formatting did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Formatted {
    /// The formatter ran; here is the formatted text (maybe unchanged).
    Text {
        /// The formatter's name.
        tool: &'static str,
        /// The formatted text.
        text: String,
    },
    /// Nothing was done, and why (no formatter for the language, none
    /// installed, or it failed): a note, not an error.
    Skipped(String),
}

fn candidates(language: Language, file_name: &str) -> Vec<(&'static str, Command)> {
    let stdin_path = format!("--stdin-filepath={file_name}");
    match language {
        Language::Rust => vec![(
            "rustfmt",
            Command::new(
                "rustfmt",
                &["--emit", "stdout", "--edition", "2021", "--quiet"],
            ),
        )],
        Language::Go => vec![
            ("goimports", Command::new("goimports", &[])),
            ("gofmt", Command::new("gofmt", &[])),
        ],
        Language::Python => vec![
            ("ruff", Command::new("ruff", &["format", "--quiet", "-"])),
            ("black", Command::new("black", &["--quiet", "-"])),
        ],
        Language::JavaScript
        | Language::TypeScript
        | Language::Tsx
        | Language::Json
        | Language::Css
        | Language::Html
        | Language::Yaml => {
            vec![("prettier", Command::new("prettier", &[&stdin_path]))]
        }
        Language::C | Language::Cpp | Language::Java => {
            vec![(
                "clang-format",
                Command::new("clang-format", &[&format!("--assume-filename={file_name}")]),
            )]
        }
        Language::Bash => vec![("shfmt", Command::new("shfmt", &[]))],
        Language::Toml => vec![("taplo", Command::new("taplo", &["fmt", "-"]))],
    }
}

/// Formats `text` of `language` (in a file named `file_name`) with the first
/// installed formatter.
pub fn format(language: Language, file_name: &str, text: &str) -> Formatted {
    let mut missing = Vec::new();
    for (tool, command) in candidates(language, file_name) {
        match run(
            &command.with_stdin(text.as_bytes().to_vec()),
            FORMAT_TIME_LIMIT,
        ) {
            Ok(out) if out.success && !out.stdout.is_empty() => {
                return Formatted::Text {
                    tool,
                    text: out.stdout,
                };
            }
            Ok(out) if out.timed_out => {
                return Formatted::Skipped(format!(
                    "{tool} did not finish within {} s; the file was written unformatted",
                    FORMAT_TIME_LIMIT.as_secs()
                ));
            }
            Ok(out) => {
                let why = out.stderr.lines().next().unwrap_or("no output").to_string();
                return Formatted::Skipped(format!(
                    "{tool} failed ({why}); the file was written unformatted"
                ));
            }
            Err(RunError::NotFound(_)) => missing.push(tool),
            Err(e) => {
                return Formatted::Skipped(format!(
                    "{tool}: {e}; the file was written unformatted"
                ));
            }
        }
    }
    Formatted::Skipped(format!(
        "no formatter for {} is installed ({}); the file was written unformatted",
        language.name(),
        missing.join(" or ")
    ))
}
