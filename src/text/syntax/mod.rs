//! The syntax layer: which grammar a file has, where its syntax errors are,
//! whether an edit makes them worse, and the outline of its definitions.
//!
//! Everything is a pure function over text, backed by the tree-sitter grammars
//! built into the binary (listed in [`Language::ALL`]). Parsing runs on a work
//! budget and a CPU-time limit, both proportional to the text's size, so no
//! input can make it hang; when either runs out the result is [`Skipped`],
//! never a verdict. A text
//! that nests deeper than a grammar's C scanner can hold is not parsed at all
//! ([`scanner_limit`]): the scanner would overflow its buffer and abort the
//! process.
//!
//! ```
//! use std::path::Path;
//! use mcp_server_text::text::syntax::{GateOutcome, Language, check_edit, parse};
//!
//! let language = Language::from_path(Path::new("src/main.rs")).unwrap();
//! let before = "fn main() {\n    run();\n}\n";
//! let after = "fn main() {\n    run(;\n}\n";
//!
//! let report = parse(language, after).unwrap();
//! assert_eq!(report.errors[0].line, 2);
//!
//! match check_edit(language, before, after, Some((2, 2))) {
//!     GateOutcome::Refuse(regression) => {
//!         assert_eq!(regression.first_new_error.message, "unclosed `(`: no matching `)`");
//!     }
//!     GateOutcome::Pass { .. } => unreachable!("the edit breaks the call"),
//! }
//! ```

mod errors;
mod gate;
mod inspection;
mod language;
mod limits;
mod outline;
mod parser;
mod python_indent;

pub use errors::{ErrorKind, MAX_LISTED_ERRORS, SyntaxError, SyntaxReport, parse};
pub use gate::{GateOutcome, SyntaxRegression, check_edit};
pub use inspection::{SourceInspection, inspect};
pub use language::Language;
pub use limits::{Beyond, HTML_MAX_OPEN_TAGS, PYTHON_MAX_INDENT, YAML_MAX_NESTING, scanner_limit};
pub use outline::{OutlineItem, OutlineKind, outline};
pub use parser::Skipped;
#[cfg(test)]
pub(crate) mod tests;
