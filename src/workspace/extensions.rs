//! Which files the tools may open, by file ending.
//!
//! An entry matches a file's extension (`md` matches `notes.md`, case
//! insensitive) or its whole name (`Makefile`, `.gitignore`). `*` allows every
//! file; binary files are still refused when read.
//!
//! ```
//! use std::path::Path;
//! use mcp_server_text::workspace::extensions::ExtensionFilter;
//!
//! let filter = ExtensionFilter::parse("md, .txt, Makefile");
//! assert!(filter.allows(Path::new("/v/Note.MD")));
//! assert!(filter.allows(Path::new("/v/Makefile")));
//! assert!(!filter.allows(Path::new("/v/photo.png")));
//! assert!(ExtensionFilter::parse("*").allows(Path::new("/v/photo.png")));
//! ```

use std::collections::BTreeSet;
use std::path::Path;

/// The endings allowed when `--extensions` is not given: text, Markdown,
/// configuration and source files.
pub const DEFAULT_EXTENSIONS: &[&str] = &[
    // prose and notes
    "md",
    "markdown",
    "mdx",
    "mdown",
    "mkd",
    "txt",
    "text",
    "rst",
    "adoc",
    "asciidoc",
    "org",
    "tex",
    "bib",
    "csv",
    "tsv",
    "log",
    // data and configuration
    "json",
    "jsonc",
    "json5",
    "yaml",
    "yml",
    "toml",
    "ini",
    "cfg",
    "conf",
    "config",
    "properties",
    "env",
    "xml",
    "svg",
    "plist",
    "csproj",
    "props",
    "lock",
    // web
    "html",
    "htm",
    "css",
    "scss",
    "sass",
    "less",
    "vue",
    "svelte",
    "astro",
    // source
    "js",
    "mjs",
    "cjs",
    "jsx",
    "ts",
    "mts",
    "cts",
    "tsx",
    "py",
    "pyi",
    "rs",
    "go",
    "java",
    "kt",
    "kts",
    "scala",
    "groovy",
    "gradle",
    "c",
    "h",
    "cpp",
    "cc",
    "cxx",
    "hpp",
    "hh",
    "hxx",
    "cs",
    "fs",
    "swift",
    "m",
    "mm",
    "rb",
    "php",
    "pl",
    "pm",
    "lua",
    "r",
    "jl",
    "dart",
    "ex",
    "exs",
    "erl",
    "hs",
    "ml",
    "elm",
    "clj",
    "zig",
    "nim",
    "v",
    "sol",
    // shells, build and tooling
    "sh",
    "bash",
    "zsh",
    "fish",
    "ps1",
    "bat",
    "cmd",
    "sql",
    "graphql",
    "gql",
    "proto",
    "tf",
    "hcl",
    "nix",
    "mk",
    "cmake",
    "patch",
    "diff",
    "dockerfile",
    "makefile",
    "justfile",
    "gitignore",
    "gitattributes",
    "editorconfig",
    "license",
    "readme",
    "changelog",
];

/// The set of allowed file endings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExtensionFilter {
    any: bool,
    allowed: BTreeSet<String>,
}

impl Default for ExtensionFilter {
    fn default() -> Self {
        ExtensionFilter {
            any: false,
            allowed: DEFAULT_EXTENSIONS.iter().map(|e| e.to_string()).collect(),
        }
    }
}

impl ExtensionFilter {
    /// Parses a comma-separated list such as `md,txt,.rs` or `*`.
    pub fn parse(spec: &str) -> ExtensionFilter {
        let mut filter = ExtensionFilter {
            any: false,
            allowed: BTreeSet::new(),
        };
        for entry in spec.split(',').map(str::trim).filter(|e| !e.is_empty()) {
            if entry == "*" {
                filter.any = true;
            } else {
                filter
                    .allowed
                    .insert(entry.trim_start_matches('.').to_ascii_lowercase());
            }
        }
        filter
    }

    /// Whether every file is allowed.
    pub fn allows_any(&self) -> bool {
        self.any
    }

    /// Whether `path` may be opened.
    pub fn allows(&self, path: &Path) -> bool {
        if self.any {
            return true;
        }
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().to_ascii_lowercase())
            .unwrap_or_default();
        let bare = name.trim_start_matches('.');
        if self.allowed.contains(bare) {
            return true;
        }
        match bare.rsplit_once('.') {
            Some((_, ext)) => self.allowed.contains(ext),
            None => false,
        }
    }

    /// The allowed endings, for messages.
    pub fn describe(&self) -> String {
        if self.any {
            return "any file ending (*)".to_string();
        }
        self.allowed.iter().cloned().collect::<Vec<_>>().join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_allows_text_and_source_but_not_binaries() {
        let f = ExtensionFilter::default();
        for ok in [
            "a.md",
            "b.rs",
            "c.TXT",
            ".gitignore",
            "Makefile",
            "x/y.yaml",
            "LICENSE",
        ] {
            assert!(f.allows(Path::new(ok)), "{ok}");
        }
        for no in ["a.png", "b.exe", "c.pdf", "noext", "archive.tar.gz"] {
            assert!(!f.allows(Path::new(no)), "{no}");
        }
    }
}
