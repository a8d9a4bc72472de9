//! Comment lines and the blocks they form.

use schemars::JsonSchema;
use serde::Serialize;

/// The prefix that makes a line a comment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
pub enum CommentPrefix {
    /// `#`, as in shell, YAML, TOML and many INI files.
    #[serde(rename = "#")]
    Hash,
    /// `;`, as in INI files.
    #[serde(rename = ";")]
    Semicolon,
    /// `//`, as in JSON-with-comments and C-like config files.
    #[serde(rename = "//")]
    Slashes,
}

impl CommentPrefix {
    /// The prefix as written.
    pub fn as_str(self) -> &'static str {
        match self {
            CommentPrefix::Hash => "#",
            CommentPrefix::Semicolon => ";",
            CommentPrefix::Slashes => "//",
        }
    }
}

/// Consecutive comment lines with the same prefix; a lone comment line is a
/// block of one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CommentBlock {
    /// First line.
    pub start_line: usize,
    /// Last line.
    pub end_line: usize,
    /// The prefix every line of the block starts with.
    pub prefix: CommentPrefix,
}

/// The comment prefix of a line given from its first non-whitespace
/// character, if it is a comment line.
pub(crate) fn comment_prefix(trimmed: &str) -> Option<CommentPrefix> {
    match trimmed.as_bytes() {
        [b'#', ..] => Some(CommentPrefix::Hash),
        [b';', ..] => Some(CommentPrefix::Semicolon),
        [b'/', b'/', ..] => Some(CommentPrefix::Slashes),
        _ => None,
    }
}
