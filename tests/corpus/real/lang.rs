//! The languages of the real files, and what edits need to know of them:
//! comment syntax, keywords, what ends a statement.

/// A language of the real corpus.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Lang {
    Python,
    Rust,
    C,
    JavaScript,
    Markdown,
}

impl Lang {
    /// The language of a file, by its ending.
    pub fn of(path: &str) -> Option<Lang> {
        let ext = path.rsplit('.').next()?;
        Some(match ext {
            "py" => Lang::Python,
            "rs" => Lang::Rust,
            "c" | "h" => Lang::C,
            "js" => Lang::JavaScript,
            "md" => Lang::Markdown,
            _ => return None,
        })
    }

    /// Short name for case ids.
    pub fn name(self) -> &'static str {
        match self {
            Lang::Python => "py",
            Lang::Rust => "rs",
            Lang::C => "c",
            Lang::JavaScript => "js",
            Lang::Markdown => "md",
        }
    }

    /// The file name the syntax gate sees (its ending picks the grammar).
    pub fn gate_name(self) -> &'static str {
        match self {
            Lang::Python => "file.py",
            Lang::Rust => "file.rs",
            Lang::C => "file.c",
            Lang::JavaScript => "file.js",
            Lang::Markdown => "file.md",
        }
    }

    /// The line comment leader, if the language has one.
    pub fn comment(self) -> Option<&'static str> {
        match self {
            Lang::Python => Some("#"),
            Lang::Rust | Lang::C | Lang::JavaScript => Some("//"),
            Lang::Markdown => None,
        }
    }

    /// An elision marker line as an agent writes one.
    pub fn markers(self) -> &'static [&'static str] {
        match self {
            Lang::Python => &[
                "...",
                "# ...",
                "# ... existing code ...",
                "# rest of the body unchanged ...",
            ],
            Lang::Rust | Lang::C | Lang::JavaScript => &[
                "// ...",
                "// ... existing code ...",
                "...",
                "/* ... */",
                "// ... rest of the code",
            ],
            Lang::Markdown => &["...", "<!-- ... -->"],
        }
    }

    /// Words that may not be renamed.
    pub fn keywords(self) -> &'static [&'static str] {
        match self {
            Lang::Python => &[
                "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class",
                "continue", "def", "del", "elif", "else", "except", "finally", "for", "from",
                "global", "if", "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass",
                "raise", "return", "try", "while", "with", "yield", "self", "match", "case",
                "print", "super",
            ],
            Lang::Rust => &[
                "as",
                "async",
                "await",
                "break",
                "const",
                "continue",
                "crate",
                "dyn",
                "else",
                "enum",
                "extern",
                "false",
                "fn",
                "for",
                "if",
                "impl",
                "in",
                "let",
                "loop",
                "match",
                "mod",
                "move",
                "mut",
                "pub",
                "ref",
                "return",
                "self",
                "Self",
                "static",
                "struct",
                "super",
                "trait",
                "true",
                "type",
                "unsafe",
                "use",
                "where",
                "while",
                "macro_rules",
                "union",
                "u8",
                "u16",
                "u32",
                "u64",
                "usize",
                "i8",
                "i16",
                "i32",
                "i64",
                "isize",
                "bool",
                "str",
                "char",
                "f32",
                "f64",
                "derive",
                "cfg",
                "inline",
                "test",
                "doc",
            ],
            Lang::C => &[
                "auto", "break", "case", "char", "const", "continue", "default", "do", "double",
                "else", "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long",
                "register", "restrict", "return", "short", "signed", "sizeof", "static", "struct",
                "switch", "typedef", "union", "unsigned", "void", "volatile", "while", "bool",
                "true", "false", "define", "include", "ifdef", "ifndef", "endif", "undef",
                "pragma", "elif", "defined", "NULL", "uint8_t", "uint16_t", "uint32_t", "uint64_t",
                "int32_t", "int64_t", "size_t",
            ],
            Lang::JavaScript => &[
                "break",
                "case",
                "catch",
                "class",
                "const",
                "continue",
                "debugger",
                "default",
                "delete",
                "do",
                "else",
                "export",
                "extends",
                "finally",
                "for",
                "function",
                "if",
                "import",
                "in",
                "instanceof",
                "let",
                "new",
                "return",
                "super",
                "switch",
                "this",
                "throw",
                "try",
                "typeof",
                "var",
                "void",
                "while",
                "with",
                "yield",
                "async",
                "await",
                "of",
                "null",
                "true",
                "false",
                "undefined",
                "require",
                "module",
                "exports",
                "static",
                "get",
                "set",
            ],
            Lang::Markdown => &[],
        }
    }

    /// Whether a line is a whole-line comment.
    pub fn is_comment(self, line: &str) -> bool {
        let t = line.trim_start();
        match self {
            Lang::Python => t.starts_with('#'),
            Lang::Rust | Lang::C | Lang::JavaScript => {
                t.starts_with("//") || t.starts_with("/*") || t.starts_with("* ") || t == "*"
            }
            Lang::Markdown => false,
        }
    }
}
