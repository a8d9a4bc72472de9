//! Which grammar a file is parsed with, decided from its name.
//!
//! Detection looks only at the file name: its extension (case-insensitive) or,
//! for a few well-known files without one (`.bashrc`, `Cargo.lock`), the whole
//! name. Files no grammar fits get `None`, and the syntax gate leaves them alone.

use std::path::Path;

use schemars::JsonSchema;
use serde::Serialize;

/// A language with a tree-sitter grammar shipped in the binary.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    /// Rust (`.rs`).
    Rust,
    /// Python (`.py`, `.pyi`).
    Python,
    /// Go (`.go`).
    Go,
    /// JavaScript, including JSX (`.js`, `.mjs`, `.cjs`, `.jsx`).
    #[serde(rename = "javascript")]
    JavaScript,
    /// TypeScript without JSX (`.ts`, `.mts`, `.cts`).
    #[serde(rename = "typescript")]
    TypeScript,
    /// TypeScript with JSX (`.tsx`).
    Tsx,
    /// JSON, comments allowed (`.json`, `.jsonc`).
    Json,
    /// YAML (`.yml`, `.yaml`).
    Yaml,
    /// TOML (`.toml`).
    Toml,
    /// C (`.c`, `.h`).
    C,
    /// C++ (`.cpp`, `.cc`, `.cxx`, `.hpp`, `.hh`, `.hxx`).
    Cpp,
    /// Java (`.java`).
    Java,
    /// Bash and POSIX shell (`.sh`, `.bash`).
    Bash,
    /// HTML (`.html`, `.htm`).
    Html,
    /// CSS (`.css`).
    Css,
}

/// File names (compared exactly) that select a language although their
/// extension does not.
const FILE_NAMES: &[(&str, Language)] = &[
    (".bashrc", Language::Bash),
    (".bash_profile", Language::Bash),
    (".bash_login", Language::Bash),
    (".bash_logout", Language::Bash),
    (".bash_aliases", Language::Bash),
    (".profile", Language::Bash),
    ("Cargo.lock", Language::Toml),
    ("Pipfile", Language::Toml),
];

impl Language {
    /// Every supported language, in a stable order for documentation.
    pub const ALL: [Language; 15] = [
        Language::Rust,
        Language::Python,
        Language::Go,
        Language::JavaScript,
        Language::TypeScript,
        Language::Tsx,
        Language::Json,
        Language::Yaml,
        Language::Toml,
        Language::C,
        Language::Cpp,
        Language::Java,
        Language::Bash,
        Language::Html,
        Language::Css,
    ];

    /// The language of a file, from its name; `None` when no grammar fits.
    pub fn from_path(path: &Path) -> Option<Language> {
        let file_name = path.file_name()?.to_str()?;
        if let Some(&(_, language)) = FILE_NAMES.iter().find(|(name, _)| *name == file_name) {
            return Some(language);
        }
        // `Path::extension` treats `.bashrc` as a stem, which is what we want:
        // dot files without a second dot have no extension.
        Language::from_extension(path.extension()?.to_str()?)
    }

    /// The language of an extension given without its dot, in any case.
    pub fn from_extension(extension: &str) -> Option<Language> {
        let extension = extension.to_ascii_lowercase();
        Language::ALL
            .into_iter()
            .find(|language| language.extensions().contains(&extension.as_str()))
    }

    /// The extensions (lowercase, without the dot) that select this language.
    pub fn extensions(self) -> &'static [&'static str] {
        match self {
            Language::Rust => &["rs"],
            Language::Python => &["py", "pyi"],
            Language::Go => &["go"],
            Language::JavaScript => &["js", "mjs", "cjs", "jsx"],
            Language::TypeScript => &["ts", "mts", "cts"],
            Language::Tsx => &["tsx"],
            // tree-sitter-json accepts `//` and `/* */` comments, so JSON with
            // comments is checked too. JSON5 (unquoted keys, single quotes,
            // trailing commas) is not: it would always look broken.
            Language::Json => &["json", "jsonc"],
            Language::Yaml => &["yml", "yaml"],
            Language::Toml => &["toml"],
            Language::C => &["c", "h"],
            Language::Cpp => &["cpp", "cc", "cxx", "hpp", "hh", "hxx"],
            Language::Java => &["java"],
            Language::Bash => &["sh", "bash"],
            Language::Html => &["html", "htm"],
            Language::Css => &["css"],
        }
    }

    /// A stable lowercase identifier, as used in JSON: `rust`, `cpp`, `tsx`.
    pub fn id(self) -> &'static str {
        match self {
            Language::Rust => "rust",
            Language::Python => "python",
            Language::Go => "go",
            Language::JavaScript => "javascript",
            Language::TypeScript => "typescript",
            Language::Tsx => "tsx",
            Language::Json => "json",
            Language::Yaml => "yaml",
            Language::Toml => "toml",
            Language::C => "c",
            Language::Cpp => "cpp",
            Language::Java => "java",
            Language::Bash => "bash",
            Language::Html => "html",
            Language::Css => "css",
        }
    }

    /// The name people use for the language, for messages: `Rust`, `C++`, `TSX`.
    pub fn name(self) -> &'static str {
        match self {
            Language::Rust => "Rust",
            Language::Python => "Python",
            Language::Go => "Go",
            Language::JavaScript => "JavaScript",
            Language::TypeScript => "TypeScript",
            Language::Tsx => "TSX",
            Language::Json => "JSON",
            Language::Yaml => "YAML",
            Language::Toml => "TOML",
            Language::C => "C",
            Language::Cpp => "C++",
            Language::Java => "Java",
            Language::Bash => "shell",
            Language::Html => "HTML",
            Language::Css => "CSS",
        }
    }

    /// The tree-sitter grammar for this language.
    pub(crate) fn grammar(self) -> tree_sitter::Language {
        match self {
            Language::Rust => tree_sitter_rust::LANGUAGE.into(),
            Language::Python => tree_sitter_python::LANGUAGE.into(),
            Language::Go => tree_sitter_go::LANGUAGE.into(),
            Language::JavaScript => tree_sitter_javascript::LANGUAGE.into(),
            Language::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
            Language::Tsx => tree_sitter_typescript::LANGUAGE_TSX.into(),
            Language::Json => tree_sitter_json::LANGUAGE.into(),
            Language::Yaml => tree_sitter_yaml::LANGUAGE.into(),
            Language::Toml => tree_sitter_toml_ng::LANGUAGE.into(),
            Language::C => tree_sitter_c::LANGUAGE.into(),
            Language::Cpp => tree_sitter_cpp::LANGUAGE.into(),
            Language::Java => tree_sitter_java::LANGUAGE.into(),
            Language::Bash => tree_sitter_bash::LANGUAGE.into(),
            Language::Html => tree_sitter_html::LANGUAGE.into(),
            Language::Css => tree_sitter_css::LANGUAGE.into(),
        }
    }
}

impl std::fmt::Display for Language {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_languages_from_names() {
        let table: &[(&str, Option<Language>)] = &[
            ("src/main.rs", Some(Language::Rust)),
            ("a/b/tool.py", Some(Language::Python)),
            ("typing.pyi", Some(Language::Python)),
            ("main.go", Some(Language::Go)),
            ("app.js", Some(Language::JavaScript)),
            ("app.mjs", Some(Language::JavaScript)),
            ("app.cjs", Some(Language::JavaScript)),
            ("App.jsx", Some(Language::JavaScript)),
            ("index.ts", Some(Language::TypeScript)),
            ("types.d.ts", Some(Language::TypeScript)),
            ("index.mts", Some(Language::TypeScript)),
            ("index.cts", Some(Language::TypeScript)),
            ("App.tsx", Some(Language::Tsx)),
            ("package.json", Some(Language::Json)),
            ("tsconfig.jsonc", Some(Language::Json)),
            ("config.json5", None),
            ("ci.yml", Some(Language::Yaml)),
            ("ci.yaml", Some(Language::Yaml)),
            ("Cargo.toml", Some(Language::Toml)),
            ("Cargo.lock", Some(Language::Toml)),
            ("Pipfile", Some(Language::Toml)),
            ("lib.c", Some(Language::C)),
            ("lib.h", Some(Language::C)),
            ("lib.cpp", Some(Language::Cpp)),
            ("lib.cc", Some(Language::Cpp)),
            ("lib.cxx", Some(Language::Cpp)),
            ("lib.hpp", Some(Language::Cpp)),
            ("lib.hh", Some(Language::Cpp)),
            ("lib.hxx", Some(Language::Cpp)),
            ("Main.java", Some(Language::Java)),
            ("build.sh", Some(Language::Bash)),
            ("build.bash", Some(Language::Bash)),
            ("/home/me/.bashrc", Some(Language::Bash)),
            (".bash_profile", Some(Language::Bash)),
            (".profile", Some(Language::Bash)),
            ("index.html", Some(Language::Html)),
            ("index.htm", Some(Language::Html)),
            ("site.css", Some(Language::Css)),
            // Case does not matter for extensions.
            ("MAIN.RS", Some(Language::Rust)),
            ("Index.HTML", Some(Language::Html)),
            // No grammar, no extension, or only a dot.
            ("README.md", None),
            ("notes.txt", None),
            ("Makefile", None),
            (".gitignore", None),
            ("archive.tar.gz", None),
            ("rs", None),
            ("", None),
        ];
        for (path, expected) in table {
            assert_eq!(Language::from_path(Path::new(path)), *expected, "{path}");
        }
    }

    #[test]
    fn every_language_is_listed_once_with_its_own_extensions() {
        let mut seen = std::collections::HashSet::new();
        for language in Language::ALL {
            assert!(!language.extensions().is_empty(), "{language}");
            for extension in language.extensions() {
                assert!(seen.insert(*extension), "{extension} listed twice");
                assert_eq!(Language::from_extension(extension), Some(language));
            }
        }
        assert_eq!(Language::from_extension("TSX"), Some(Language::Tsx));
    }

    #[test]
    fn names_and_ids() {
        assert_eq!(Language::Cpp.name(), "C++");
        assert_eq!(Language::Cpp.id(), "cpp");
        assert_eq!(Language::Tsx.to_string(), "TSX");
        for language in Language::ALL {
            let json = serde_json::to_value(language).unwrap();
            assert_eq!(json, language.id(), "{language}");
        }
    }

    #[test]
    fn every_grammar_loads() {
        for language in Language::ALL {
            let mut parser = tree_sitter::Parser::new();
            assert!(
                parser.set_language(&language.grammar()).is_ok(),
                "{language}"
            );
        }
    }
}
