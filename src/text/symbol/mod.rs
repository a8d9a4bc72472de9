//! Symbol targets: a definition named the way a programmer names it
//! (`Calc.add`, `fn main`, `class Parser`), found in the tree-sitter outline
//! of a source file ([`crate::text::syntax::outline`]), and the lines a read
//! or an edit of it covers ([`edit`]).
//!
//! A query is a dotted path through the definitions that hold the symbol —
//! classes, `impl` blocks, traits, modules, namespaces — ending with its name;
//! `::` works as well as `.`, and `Calc.add()` as `Calc.add`. The path may
//! start anywhere: `add` is enough when one definition is called that, and
//! `Calc.add` when several are. A leading kind word narrows the candidates:
//! `fn`, `function`, `func`, `def`, `method`, `class`, `struct`, `enum`,
//! `union`, `trait`, `interface`, `impl`, `type`, `mod`, `module`,
//! `namespace`, `const`, `static`, `macro` (or any outline kind name). A Go
//! method `(*Calc).Add` is `Calc.Add`; a Rust `impl Display for Calc` holds
//! its functions under `Calc` (and is itself found as `impl Calc` or
//! `impl Display for Calc`, not by the bare type name, which names the type).
//!
//! ```
//! use mcp_server_text::text::symbol::{find, SymbolQuery};
//! use mcp_server_text::text::syntax::{Language, OutlineKind};
//!
//! let text = "struct Calc;\n\nimpl Calc {\n    fn add(&self) {}\n}\n\nfn add() {}\n";
//! let found = find(Language::Rust, text, &SymbolQuery::parse("Calc.add").unwrap()).unwrap();
//! assert_eq!((found.kind, found.start_line), (OutlineKind::Method, 4));
//! let err = find(Language::Rust, text, &SymbolQuery::parse("add").unwrap()).unwrap_err();
//! assert_eq!(err.candidates().len(), 2);
//! ```

pub mod edit;

use std::fmt;
use std::ops::Range;

use super::syntax::{Language, OutlineItem, OutlineKind, outline};

/// What a symbol target asks for, parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SymbolQuery {
    /// The kind word given, if any, and the kinds it stands for.
    pub kind: Option<(String, &'static [OutlineKind])>,
    /// The path's parts, outermost first.
    pub path: Vec<String>,
    /// The path as given, without the kind word.
    pub text: String,
}

/// Kind words and the outline kinds each accepts.
const KIND_WORDS: &[(&str, &[OutlineKind])] = &[
    (
        "fn",
        &[
            OutlineKind::Function,
            OutlineKind::Method,
            OutlineKind::Constructor,
            OutlineKind::Prototype,
        ],
    ),
    (
        "function",
        &[
            OutlineKind::Function,
            OutlineKind::Method,
            OutlineKind::Constructor,
            OutlineKind::Prototype,
        ],
    ),
    (
        "func",
        &[
            OutlineKind::Function,
            OutlineKind::Method,
            OutlineKind::Prototype,
        ],
    ),
    ("def", &[OutlineKind::Function, OutlineKind::Method]),
    ("method", &[OutlineKind::Method, OutlineKind::Constructor]),
    ("constructor", &[OutlineKind::Constructor]),
    ("prototype", &[OutlineKind::Prototype]),
    ("class", &[OutlineKind::Class]),
    ("struct", &[OutlineKind::Struct]),
    ("union", &[OutlineKind::Union]),
    ("enum", &[OutlineKind::Enum]),
    ("trait", &[OutlineKind::Trait]),
    ("interface", &[OutlineKind::Interface]),
    ("impl", &[OutlineKind::Impl]),
    (
        "type",
        &[
            OutlineKind::Type,
            OutlineKind::Struct,
            OutlineKind::Class,
            OutlineKind::Enum,
            OutlineKind::Interface,
            OutlineKind::Union,
            OutlineKind::Trait,
        ],
    ),
    ("mod", &[OutlineKind::Module]),
    ("module", &[OutlineKind::Module]),
    ("namespace", &[OutlineKind::Namespace]),
    ("const", &[OutlineKind::Const]),
    ("static", &[OutlineKind::Static]),
    ("macro", &[OutlineKind::Macro]),
    ("key", &[OutlineKind::Key]),
    ("table", &[OutlineKind::Table]),
    ("rule", &[OutlineKind::Rule]),
];

impl SymbolQuery {
    /// Parses `text`: an optional kind word, then a dotted path.
    pub fn parse(text: &str) -> Result<SymbolQuery, String> {
        let text = text.trim();
        let (kind, rest) = match text.split_once(char::is_whitespace) {
            Some((word, rest)) if !rest.trim().is_empty() => {
                match KIND_WORDS
                    .iter()
                    .find(|(w, _)| w.eq_ignore_ascii_case(word))
                {
                    Some((w, kinds)) => (Some((w.to_string(), *kinds)), rest.trim()),
                    None => (None, text),
                }
            }
            _ => (None, text),
        };
        let rest = rest.strip_suffix("()").unwrap_or(rest).trim();
        if rest.is_empty() {
            return Err(format!(
                "'{text}' names no symbol: give its name, e.g. \"Calc.add\" or \"fn main\""
            ));
        }
        let path = split_path(rest).unwrap_or_else(|| vec![rest.to_string()]);
        Ok(SymbolQuery {
            kind,
            path,
            text: rest.to_string(),
        })
    }

    /// The query as the caller wrote it, kind word included.
    pub fn shown(&self) -> String {
        match &self.kind {
            Some((word, _)) => format!("{word} {}", self.text),
            None => self.text.clone(),
        }
    }
}

/// `a.b::c` as `[a, b, c]`, when every part reads like a name (so that a
/// CSS rule `.btn` or a TOML table `[a.b]` stays whole).
fn split_path(text: &str) -> Option<Vec<String>> {
    let parts: Vec<String> = text
        .split("::")
        .flat_map(|p| p.split('.'))
        .map(|p| p.trim().to_string())
        .collect();
    let name_like = |p: &String| {
        !p.is_empty()
            && p.chars()
                .all(|c| c.is_alphanumeric() || "_$<>, &*'#~!".contains(c))
    };
    parts.iter().all(name_like).then_some(parts)
}

/// A definition found by a query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Symbol {
    /// What it is.
    pub kind: OutlineKind,
    /// Its path, e.g. `Calc.add`.
    pub name: String,
    /// First line of the definition, attributes and decorators included
    /// (not its doc comment; see [`edit::Extent`]).
    pub start_line: usize,
    /// Last line.
    pub end_line: usize,
    /// Bytes of its body, if it has one.
    pub body: Option<Range<usize>>,
    /// Lines of the definitions directly inside it (a class's methods).
    pub children: Vec<(usize, usize)>,
}

/// A definition listed in a refusal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    /// Its path.
    pub name: String,
    /// What it is.
    pub kind: OutlineKind,
    /// Its first line.
    pub line: usize,
}

impl fmt::Display for Candidate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({}, line {})",
            self.name,
            kind_name(self.kind),
            self.line
        )
    }
}

/// The name of an outline kind as replies spell it.
pub fn kind_name(kind: OutlineKind) -> String {
    serde_json::to_value(kind)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// Why a symbol was not found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SymbolError {
    /// No definition fits; the closest names.
    NotFound {
        /// The query as given.
        query: String,
        /// Definitions with similar names (or the top-level ones).
        similar: Vec<Candidate>,
    },
    /// Several definitions fit.
    Ambiguous {
        /// The query as given.
        query: String,
        /// Every one of them.
        candidates: Vec<Candidate>,
    },
    /// The file could not be parsed in time.
    Unparsed {
        /// Why.
        reason: String,
    },
}

impl SymbolError {
    /// The definitions the refusal lists.
    pub fn candidates(&self) -> &[Candidate] {
        match self {
            SymbolError::NotFound { similar, .. } => similar,
            SymbolError::Ambiguous { candidates, .. } => candidates,
            SymbolError::Unparsed { .. } => &[],
        }
    }
}

fn listed(candidates: &[Candidate]) -> String {
    let mut out: Vec<String> = candidates.iter().take(20).map(|c| c.to_string()).collect();
    if candidates.len() > 20 {
        out.push(format!("and {} more", candidates.len() - 20));
    }
    out.join("; ")
}

impl fmt::Display for SymbolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SymbolError::NotFound { query, similar } if similar.is_empty() => write!(
                f,
                "no definition is named '{}', and the file's outline has none to offer",
                crate::text::excerpt::brief(query)
            ),
            SymbolError::NotFound { query, similar } => write!(
                f,
                "no definition is named '{}'; nearest: {}",
                crate::text::excerpt::brief(query),
                listed(similar)
            ),
            SymbolError::Ambiguous { query, candidates } => write!(
                f,
                "'{}' names {} definitions: {}",
                crate::text::excerpt::brief(query),
                candidates.len(),
                listed(candidates)
            ),
            SymbolError::Unparsed { reason } => {
                write!(f, "the file's definitions could not be listed: {reason}")
            }
        }
    }
}

impl std::error::Error for SymbolError {}

/// One outline item with the names its path can be given by.
struct Flat<'o> {
    item: &'o OutlineItem,
    /// Each part of its path, with the spellings that name it.
    path: Vec<Vec<String>>,
    /// Its path as replies show it.
    shown: String,
}

/// The spellings of an item's own part(s) of a path.
fn own_parts(item: &OutlineItem) -> Vec<Vec<String>> {
    let name = item.name.as_str();
    if item.kind == OutlineKind::Impl {
        // `impl<T> Display for Calc<T>` holds its functions under `Calc`.
        let target = name.rsplit(" for ").next().unwrap_or(name);
        let mut names = vec![target.to_string(), name.to_string()];
        names.push(without_generics(target));
        names.dedup();
        return vec![names];
    }
    // Go's `(*Calc).Add` and `Calc.Add`, C++'s `Calc::add`.
    let cleaned = name.replace("(*", "").replace(['(', ')'], "");
    if let Some(parts) = split_path(&cleaned).filter(|p| p.len() > 1) {
        return parts
            .into_iter()
            .map(|p| {
                let mut names = vec![p.clone(), without_generics(&p)];
                names.dedup();
                names
            })
            .collect();
    }
    let mut names = vec![name.to_string(), without_generics(name)];
    // A JavaScript accessor `get size` is also `size`.
    if let Some(bare) = name
        .strip_prefix("get ")
        .or_else(|| name.strip_prefix("set "))
    {
        names.push(bare.to_string());
    }
    // A TOML table `[deps]` (or array of tables `[[bin]]`) is also `deps`.
    let bare = name.trim_start_matches('[').trim_end_matches(']');
    if bare.len() < name.len() && !bare.is_empty() {
        names.push(bare.to_string());
    }
    names.dedup();
    vec![names]
}

fn without_generics(name: &str) -> String {
    name.split('<').next().unwrap_or(name).trim().to_string()
}

fn flatten<'o>(items: &'o [OutlineItem], parent: &Flat<'_>, out: &mut Vec<Flat<'o>>) {
    for item in items {
        let mut path = parent.path.clone();
        path.extend(own_parts(item));
        let shown = if parent.shown.is_empty() {
            item.name.clone()
        } else {
            format!("{}.{}", parent.shown, item.name)
        };
        let flat = Flat { item, path, shown };
        flatten(&item.children, &flat, out);
        out.push(flat);
    }
}

/// Finds the one definition `query` names in `text`.
pub fn find(language: Language, text: &str, query: &SymbolQuery) -> Result<Symbol, SymbolError> {
    let items = outline(language, text).map_err(|skipped| SymbolError::Unparsed {
        reason: skipped.message().to_string(),
    })?;
    let root = Flat {
        item: &EMPTY,
        path: Vec::new(),
        shown: String::new(),
    };
    let mut all = Vec::new();
    flatten(&items, &root, &mut all);
    all.sort_by_key(|f| (f.item.start_line, f.item.end_line));
    let fits_kind = |f: &Flat| {
        query
            .kind
            .as_ref()
            .is_none_or(|(_, kinds)| kinds.contains(&f.item.kind))
    };
    let mut found: Vec<&Flat> = all
        .iter()
        .filter(|f| fits_kind(f) && (names(f, &query.path) || f.item.name == query.text))
        .collect();
    // A bare type name names the type, not the `impl` blocks of it.
    if query.kind.is_none() && found.iter().any(|f| f.item.kind != OutlineKind::Impl) {
        found.retain(|f| f.item.kind != OutlineKind::Impl);
    }
    let candidate = |f: &Flat| Candidate {
        name: f.shown.clone(),
        kind: f.item.kind,
        line: f.item.start_line,
    };
    match found.as_slice() {
        [one] => Ok(Symbol {
            kind: one.item.kind,
            name: one.shown.clone(),
            start_line: one.item.start_line,
            end_line: one.item.end_line,
            body: one.item.body.clone(),
            children: one
                .item
                .children
                .iter()
                .map(|c| (c.start_line, c.end_line))
                .collect(),
        }),
        [] => Err(SymbolError::NotFound {
            query: query.shown(),
            similar: similar(&all, query).into_iter().map(candidate).collect(),
        }),
        many => Err(SymbolError::Ambiguous {
            query: query.shown(),
            candidates: many.iter().map(|f| candidate(f)).collect(),
        }),
    }
}

static EMPTY: OutlineItem = OutlineItem {
    kind: OutlineKind::Module,
    name: String::new(),
    start_line: 0,
    end_line: 0,
    children: Vec::new(),
    body: None,
};

/// Whether the end of `flat`'s path reads like `query`.
fn names(flat: &Flat, query: &[String]) -> bool {
    let (n, m) = (flat.path.len(), query.len());
    m <= n
        && query
            .iter()
            .zip(&flat.path[n - m..])
            .all(|(q, spellings)| spellings.iter().any(|s| s == q))
}

/// Definitions whose names resemble the query's last part, or the
/// top-level ones when none does.
fn similar<'a, 'o>(all: &'a [Flat<'o>], query: &SymbolQuery) -> Vec<&'a Flat<'o>> {
    use rapidfuzz::distance::indel;
    let last = query.path.last().map_or("", String::as_str).to_lowercase();
    let mut scored: Vec<(f64, &Flat)> = all
        .iter()
        .map(|f| {
            let own = f
                .path
                .last()
                .and_then(|s| s.first())
                .map_or("", String::as_str);
            (
                indel::normalized_similarity(last.chars(), own.to_lowercase().chars()),
                f,
            )
        })
        .filter(|(score, _)| *score >= 0.5)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut out: Vec<&Flat> = scored.into_iter().map(|(_, f)| f).take(8).collect();
    if out.is_empty() {
        out = all.iter().filter(|f| f.path.len() == 1).take(12).collect();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(text: &str) -> SymbolQuery {
        SymbolQuery::parse(text).unwrap()
    }

    #[test]
    fn queries_take_a_kind_word_and_a_path() {
        let query = q("fn Calc::add()");
        assert_eq!(query.kind.as_ref().map(|k| k.0.as_str()), Some("fn"));
        assert_eq!(query.path, ["Calc", "add"]);
        assert_eq!(q("class Parser").path, ["Parser"]);
        assert_eq!(q(".btn.primary").path, [".btn.primary"]);
        assert_eq!(q("Display for Calc").path, ["Display for Calc"]);
        assert!(SymbolQuery::parse(" ()").is_err());
    }

    #[test]
    fn paths_reach_through_classes_impls_and_go_receivers() {
        let py = "class A:\n    def f(self):\n        pass\n\nclass B:\n    def f(self):\n        pass\n";
        assert_eq!(find(Language::Python, py, &q("B.f")).unwrap().start_line, 6);
        let err = find(Language::Python, py, &q("f")).unwrap_err();
        assert_eq!(
            err.to_string(),
            "'f' names 2 definitions: A.f (method, line 2); B.f (method, line 6)"
        );
        let go = "package m\n\ntype Calc struct{}\n\nfunc (c *Calc) Add() int { return 1 }\n";
        let add = find(Language::Go, go, &q("Calc.Add")).unwrap();
        assert_eq!((add.kind, add.start_line), (OutlineKind::Method, 5));
        assert_eq!(
            find(Language::Go, go, &q("Calc")).unwrap().kind,
            OutlineKind::Struct
        );
        let rs = "struct Calc;\nimpl std::fmt::Display for Calc {\n    fn fmt(&self) {}\n}\n";
        assert_eq!(
            find(Language::Rust, rs, &q("Calc.fmt")).unwrap().start_line,
            3
        );
        assert_eq!(
            find(Language::Rust, rs, &q("Calc")).unwrap().kind,
            OutlineKind::Struct
        );
        assert_eq!(
            find(Language::Rust, rs, &q("impl Calc")).unwrap().kind,
            OutlineKind::Impl
        );
    }

    /// Every language the server parses: a definition read whole (doc
    /// comment included) and, where it has one, its body.
    #[test]
    fn every_language_finds_its_definitions() {
        use super::edit::{Part, symbol_lines};
        use crate::text::document::Document;
        /// Language, text, query, whole lines, body lines.
        type Case = (
            Language,
            &'static str,
            &'static str,
            (usize, usize),
            Option<(usize, usize)>,
        );
        let cases: &[Case] = &[
            (
                Language::Rust,
                "/// Adds.\nfn add() {\n    1\n}\n",
                "add",
                (1, 4),
                Some((3, 3)),
            ),
            (
                Language::Python,
                "# Adds.\ndef add():\n    return 1\n",
                "add",
                (1, 3),
                Some((3, 3)),
            ),
            (
                Language::Go,
                "package m\n\n// Adds.\nfunc add() int {\n\treturn 1\n}\n",
                "add",
                (3, 6),
                Some((5, 5)),
            ),
            (
                Language::JavaScript,
                "// Adds.\nfunction add(a) {\n  return a;\n}\n",
                "add",
                (1, 4),
                Some((3, 3)),
            ),
            (
                Language::TypeScript,
                "/** Adds. */\nexport function add(a: number) {\n  return a;\n}\n",
                "fn add",
                (1, 4),
                Some((3, 3)),
            ),
            (
                Language::Tsx,
                "export function App() {\n  return <div />;\n}\n",
                "App",
                (1, 3),
                Some((2, 2)),
            ),
            (
                Language::C,
                "/* Adds. */\nint add(int a) {\n    return a;\n}\n",
                "add",
                (1, 4),
                Some((3, 3)),
            ),
            (
                Language::Cpp,
                "namespace calc {\n// Adds.\nint add(int a) {\n  return a;\n}\n}\n",
                "calc.add",
                (2, 5),
                Some((4, 4)),
            ),
            (
                Language::Java,
                "class Calc {\n    /** Adds. */\n    int add(int a) {\n        return a;\n    }\n}\n",
                "Calc.add",
                (2, 5),
                Some((4, 4)),
            ),
            (
                Language::Bash,
                "# Greets.\ngreet() {\n  echo hi\n}\n",
                "greet",
                (1, 4),
                Some((3, 3)),
            ),
            (
                Language::Css,
                "/* Buttons. */\n.btn {\n  color: red;\n}\n",
                ".btn",
                (1, 4),
                Some((3, 3)),
            ),
            (
                Language::Html,
                "<p>x</p>\n<h1>Title</h1>\n",
                "Title",
                (2, 2),
                None,
            ),
            (
                Language::Json,
                "{\n  \"name\": \"x\",\n  \"deps\": {\n    \"a\": 1\n  }\n}\n",
                "deps",
                (3, 5),
                None,
            ),
            (
                Language::Yaml,
                "name: x\ndeps:\n  a: 1\n",
                "deps",
                (2, 3),
                None,
            ),
            (
                Language::Toml,
                "# Deps.\n[deps]\na = 1\n",
                "deps",
                (1, 3),
                None,
            ),
        ];
        for (language, text, query, whole, body) in cases {
            let doc = Document::decode(text.as_bytes().to_vec(), None).unwrap();
            let symbol = find(*language, text, &q(query))
                .unwrap_or_else(|e| panic!("{language:?} {query}: {e}"));
            let lines = symbol_lines(&doc, *language, &symbol, Part::Whole).unwrap();
            assert_eq!((lines.start, lines.end), *whole, "{language:?} {query}");
            let inner = symbol_lines(&doc, *language, &symbol, Part::Body)
                .ok()
                .map(|l| (l.start, l.end));
            assert_eq!(inner, *body, "{language:?} {query} body");
        }
        assert_eq!(Language::ALL.len(), cases.len());
    }

    #[test]
    fn accessors_are_found_by_their_bare_name_or_with_get_and_set() {
        let js = "class Box {\n  get size() {\n    return 1;\n  }\n  set size(v) {}\n  get area() {\n    return 2;\n  }\n}\n";
        assert_eq!(
            find(Language::JavaScript, js, &q("area"))
                .unwrap()
                .start_line,
            6
        );
        assert_eq!(
            find(Language::JavaScript, js, &q("Box.set size"))
                .unwrap()
                .start_line,
            5
        );
        assert_eq!(
            find(Language::JavaScript, js, &q("size"))
                .unwrap_err()
                .candidates()
                .len(),
            2
        );
    }

    #[test]
    fn a_missing_symbol_lists_the_nearest_names() {
        let py = "def parse_args():\n    pass\n\ndef main():\n    pass\n";
        let err = find(Language::Python, py, &q("parse_arg")).unwrap_err();
        assert_eq!(
            err.to_string(),
            "no definition is named 'parse_arg'; nearest: parse_args (function, line 1)"
        );
        let err = find(Language::Python, py, &q("class main")).unwrap_err();
        assert!(matches!(err, SymbolError::NotFound { .. }));
    }
}
