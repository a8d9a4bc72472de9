//! What kind of text a file holds, by its name: Markdown, source code in a
//! language the syntax layer knows, or plain text.
//!
//! ```
//! use std::path::Path;
//! use mcp_server_text::text::format::{Format, format_of};
//!
//! assert_eq!(format_of(Path::new("notes/README.md")), Format::Markdown);
//! assert_eq!(format_of(Path::new("app.ini")), Format::Text);
//! ```

use std::path::Path;

use super::syntax::Language;

/// The kind of text in a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Markdown (`.md`, `.markdown`, `.mdx`, …).
    Markdown,
    /// Source or data in a language with a parser.
    Code(Language),
    /// Anything else: notes, INI and config files, logs.
    Text,
}

impl Format {
    /// The name responses use: `markdown`, `code` or `text`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Markdown => "markdown",
            Format::Code(_) => "code",
            Format::Text => "text",
        }
    }
}

const MARKDOWN: &[&str] = &["md", "markdown", "mdx", "mdown", "mkd", "mkdn", "mdwn"];

/// The format of the file at `path`.
pub fn format_of(path: &Path) -> Format {
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    if MARKDOWN.contains(&ext.as_str()) {
        return Format::Markdown;
    }
    match Language::from_path(path) {
        Some(lang) => Format::Code(lang),
        None => Format::Text,
    }
}
