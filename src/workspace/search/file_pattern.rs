//! `filePattern`: which files a search looks at, by a glob over their path.
//!
//! A pattern without `/` matches the file name in any folder (`*.md`,
//! `*.{md,txt}`). A pattern with `/` matches the path relative to the root the
//! file lies in (`notes/**/*.md`): `*` stays within one folder name and `**`
//! crosses folders. Letter case is ignored, as it is for allowed extensions.
//!
//! ```
//! use std::path::Path;
//! use mcp_server_text::workspace::search::file_pattern::FilePattern;
//!
//! let md = FilePattern::new("*.md").unwrap();
//! assert!(md.matches(Path::new("notes/deep/Todo.MD")));
//! let notes = FilePattern::new("notes/*.md").unwrap();
//! assert!(notes.matches(Path::new("notes/todo.md")));
//! assert!(!notes.matches(Path::new("notes/deep/todo.md")));
//! assert!(FilePattern::new("notes/**/*.md").unwrap().matches(Path::new("notes/deep/todo.md")));
//! assert!(FilePattern::new("[unclosed").is_err());
//! ```

use std::fmt;
use std::path::Path;

use globset::{GlobBuilder, GlobMatcher};

/// A compiled `filePattern`.
#[derive(Debug, Clone)]
pub struct FilePattern {
    glob: GlobMatcher,
    by_name: bool,
}

/// A `filePattern` that is not a valid glob.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FilePatternError {
    /// The pattern as given.
    pub pattern: String,
    /// Why it is not valid.
    pub message: String,
}

impl fmt::Display for FilePatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "filePattern '{}' is not a valid glob: {}",
            self.pattern, self.message
        )
    }
}

impl std::error::Error for FilePatternError {}

impl FilePattern {
    /// Compiles `pattern`; a leading `./` or `/` is ignored.
    pub fn new(pattern: &str) -> Result<FilePattern, FilePatternError> {
        let trimmed = pattern.trim();
        let trimmed = trimmed.strip_prefix("./").unwrap_or(trimmed);
        let trimmed = trimmed.trim_start_matches('/');
        let invalid = |message: String| FilePatternError {
            pattern: pattern.to_string(),
            message,
        };
        if trimmed.is_empty() {
            return Err(invalid("it is empty".into()));
        }
        let glob = GlobBuilder::new(trimmed)
            .case_insensitive(true)
            .literal_separator(true)
            .backslash_escape(true)
            .build()
            .map_err(|e| invalid(e.kind().to_string()))?;
        Ok(FilePattern {
            glob: glob.compile_matcher(),
            by_name: !trimmed.contains('/'),
        })
    }

    /// Whether the file at `relative` (its path relative to its root) is selected.
    pub fn matches(&self, relative: &Path) -> bool {
        if self.by_name {
            relative
                .file_name()
                .is_some_and(|name| self.glob.is_match(name))
        } else {
            self.glob.is_match(relative)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_paths_and_alternatives() {
        let p = FilePattern::new("*.{md,txt}").unwrap();
        assert!(p.matches(Path::new("a.txt")));
        assert!(p.matches(Path::new("x/y/b.md")));
        assert!(!p.matches(Path::new("x/y/b.rs")));
        let p = FilePattern::new("./journal/2024-*.md").unwrap();
        assert!(p.matches(Path::new("journal/2024-01-05.md")));
        assert!(!p.matches(Path::new("old/journal/2024-01-05.md")));
        let p = FilePattern::new("**/drafts/**").unwrap();
        assert!(p.matches(Path::new("a/drafts/b/c.md")));
        assert!(p.matches(Path::new("drafts/c.md")));
    }

    #[test]
    fn invalid_patterns_say_why() {
        let err = FilePattern::new("notes/[a-").unwrap_err();
        assert!(
            err.to_string()
                .starts_with("filePattern 'notes/[a-' is not a valid glob: "),
            "{err}"
        );
        assert!(FilePattern::new("  ").is_err());
    }
}
