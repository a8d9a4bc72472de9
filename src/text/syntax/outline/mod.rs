//! The outline of a source file: its functions, types and classes (or, for
//! data files, its top-level keys) with line ranges, for TextInspect.
//!
//! Each language has a small set of rules saying which syntax nodes are
//! outline items, what they are called, and which of them contain further
//! items (a class its methods, an `impl` its functions). Function bodies are
//! not searched: nested helpers and closures are left out. A range covers what
//! belongs to its item (Python decorators, Java annotations, Rust attributes,
//! a C++ `template <...>` line) but not the doc comment above it. Parts of a
//! file the parser could not read are still searched, so a broken file keeps
//! most of its outline.

mod c_family;
mod data;
mod go;
mod java;
mod markup;
mod python;
mod rust;
mod script;

use std::ops::Range;

use schemars::JsonSchema;
use serde::Serialize;
use tree_sitter::{Node, Tree};

use super::language::Language;
use super::parser::{Skipped, budget_for, parse_tree};

/// What an outline item is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum OutlineKind {
    /// A free function, or a shell function.
    Function,
    /// A function that belongs to a class, impl, trait or interface.
    Method,
    /// A class constructor (Java, JavaScript, TypeScript).
    Constructor,
    /// A function declared without a body (C and C++ prototypes).
    Prototype,
    /// A class (also a Java record).
    Class,
    /// A struct.
    Struct,
    /// A C or Rust union.
    Union,
    /// An enum.
    Enum,
    /// A Rust trait.
    Trait,
    /// An interface (Go, Java, TypeScript).
    Interface,
    /// A Rust `impl` block.
    Impl,
    /// A type alias or typedef.
    Type,
    /// A module (Rust `mod`, TypeScript `declare module`).
    Module,
    /// A namespace (C++, TypeScript).
    Namespace,
    /// A constant.
    Const,
    /// A Rust `static`.
    Static,
    /// A macro definition (Rust `macro_rules!`, C function-like `#define`).
    Macro,
    /// A top-level key of a JSON, YAML or TOML file.
    Key,
    /// A TOML table or array-of-tables header.
    Table,
    /// One document of a YAML file that holds several.
    Document,
    /// A CSS rule or at-rule.
    Rule,
    /// An HTML heading (`h1` to `h6`).
    Heading,
    /// An HTML `<script>` element.
    Script,
    /// An HTML `<style>` element.
    Style,
}

/// One entry of an outline, with the entries it contains.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct OutlineItem {
    /// What it is.
    pub kind: OutlineKind,
    /// Its name as written (a method of a Go type is `(*T).Name`, a TOML table `[name]`).
    pub name: String,
    /// First line, 1-based.
    pub start_line: usize,
    /// Last line, 1-based, inclusive.
    pub end_line: usize,
    /// Items inside it, such as the methods of a class.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<OutlineItem>,
    /// Bytes of its body (`{ … }`, or a Python definition's indented
    /// block), for symbol targets; not part of the outline a reply shows.
    #[serde(skip)]
    pub body: Option<Range<usize>>,
}

/// The outline of `text` parsed as `language`.
///
/// Returns [`Skipped`] when the parse would take unreasonably long.
pub fn outline(language: Language, text: &str) -> Result<Vec<OutlineItem>, Skipped> {
    let tree = parse_tree(language, text, budget_for(text.len()))?;
    Ok(outline_of(language, &tree, text))
}

/// The outline of an already parsed tree.
pub(crate) fn outline_of(language: Language, tree: &Tree, text: &str) -> Vec<OutlineItem> {
    let source = Source { language, text };
    source.items_in(tree.root_node(), None, 0)
}

/// Nesting deeper than this is not searched (it only happens in broken or
/// machine-made text, and recursion must stay bounded).
const MAX_DEPTH: usize = 48;

/// Characters kept of a name.
const NAME_CHARS: usize = 80;

/// What a language's rules make of one syntax node.
pub(crate) enum Rule<'t> {
    /// The node is one or more outline items.
    Items(Vec<Entry<'t>>),
    /// The node is not an item, but items may sit among its children.
    Into(Node<'t>),
    /// Nothing of interest here.
    Skip,
}

impl<'t> Rule<'t> {
    /// A single item covering `node`.
    pub(crate) fn item(kind: OutlineKind, name: String, node: Node<'t>) -> Rule<'t> {
        Rule::Items(vec![Entry::new(kind, name, node)])
    }

    /// A single item covering `node`, whose `body` holds further items.
    pub(crate) fn container(
        kind: OutlineKind,
        name: String,
        node: Node<'t>,
        body: Option<Node<'t>>,
    ) -> Rule<'t> {
        Rule::Items(vec![Entry::new(kind, name, node).with_body(body)])
    }
}

/// An outline item before its children are found.
pub(crate) struct Entry<'t> {
    kind: OutlineKind,
    name: String,
    start: Node<'t>,
    end: Node<'t>,
    body: Option<Node<'t>>,
}

impl<'t> Entry<'t> {
    /// An item spanning `node`.
    pub(crate) fn new(kind: OutlineKind, name: String, node: Node<'t>) -> Entry<'t> {
        Entry {
            kind,
            name,
            start: node,
            end: node,
            body: None,
        }
    }

    /// Searches `body` for child items.
    pub(crate) fn with_body(mut self, body: Option<Node<'t>>) -> Entry<'t> {
        self.body = body;
        self
    }

    /// Starts the item's range at `start` instead (a preceding attribute).
    pub(crate) fn starting_at(mut self, start: Node<'t>) -> Entry<'t> {
        self.start = start;
        self
    }
}

/// The text being outlined, with helpers the rules share.
pub(crate) struct Source<'t> {
    pub language: Language,
    pub text: &'t str,
}

impl<'t> Source<'t> {
    /// The text of a node.
    pub(crate) fn text_of(&self, node: Node) -> &'t str {
        &self.text[node.byte_range()]
    }

    /// The text of a node's field, whitespace collapsed and shortened.
    pub(crate) fn field(&self, node: Node, field: &str) -> Option<String> {
        node.child_by_field_name(field).map(|n| self.name_of(n))
    }

    /// A node's text as a one-line name.
    pub(crate) fn name_of(&self, node: Node) -> String {
        clean_name(self.text_of(node))
    }

    /// The outline items among the children of `node`; `parent` is the kind
    /// of the item they belong to.
    fn items_in(
        &self,
        node: Node<'t>,
        parent: Option<OutlineKind>,
        depth: usize,
    ) -> Vec<OutlineItem> {
        let mut items = Vec::new();
        if depth > MAX_DEPTH {
            return items;
        }
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            let rule = if child.is_error() {
                Rule::Into(child)
            } else {
                self.rule(child, parent)
            };
            match rule {
                Rule::Items(entries) => {
                    for entry in entries {
                        items.push(self.finish(entry, depth));
                    }
                }
                Rule::Into(inner) => items.extend(self.items_in(inner, parent, depth + 1)),
                Rule::Skip => {}
            }
        }
        items
    }

    fn rule(&self, node: Node<'t>, parent: Option<OutlineKind>) -> Rule<'t> {
        match self.language {
            Language::Rust => rust::rule(self, node, parent),
            Language::Python => python::rule(self, node, parent),
            Language::Go => go::rule(self, node, parent),
            Language::JavaScript | Language::TypeScript | Language::Tsx => {
                script::rule(self, node, parent)
            }
            Language::C | Language::Cpp => c_family::rule(self, node, parent),
            Language::Java => java::rule(self, node, parent),
            Language::Bash => match node.kind() {
                "function_definition" => match self.field(node, "name") {
                    Some(name) => Rule::item(OutlineKind::Function, name, node),
                    None => Rule::Skip,
                },
                _ => Rule::Skip,
            },
            Language::Json | Language::Yaml | Language::Toml => data::rule(self, node, parent),
            Language::Html | Language::Css => markup::rule(self, node, parent),
        }
    }

    /// The last line with text of a node: some grammars (TOML tables, for
    /// one) let a node run on over the blank lines after it.
    fn last_line(&self, node: Node) -> usize {
        let text = self.text_of(node);
        let trailing = &text[text.trim_end().len()..];
        let end = node.end_position().row + 1 - trailing.matches('\n').count();
        end.max(node.start_position().row + 1)
    }

    fn finish(&self, entry: Entry<'t>, depth: usize) -> OutlineItem {
        let children = match entry.body {
            Some(body) => self.items_in(body, Some(entry.kind), depth + 1),
            None => Vec::new(),
        };
        OutlineItem {
            kind: entry.kind,
            name: entry.name,
            start_line: entry.start.start_position().row + 1,
            end_line: self.last_line(entry.end),
            children,
            body: body_of(entry.end, 0).map(|n| n.byte_range()),
        }
    }
}

/// Node kinds that are a definition's body wherever they appear.
const BODY_KINDS: &[&str] = &[
    "block",
    "statement_block",
    "compound_statement",
    "declaration_list",
    "field_declaration_list",
    "enum_variant_list",
    "class_body",
    "interface_body",
    "enum_body",
    "object_type",
    "interface_type",
];

/// The body of a definition node: its `body` field, or that of the node it
/// wraps (a decorated definition, an exported declaration, a variable holding
/// a function, a Go type spec).
fn body_of(node: Node<'_>, depth: usize) -> Option<Node<'_>> {
    if depth > 4 {
        return None;
    }
    if let Some(body) = node.child_by_field_name("body") {
        return Some(body);
    }
    for field in ["definition", "declaration", "value", "type"] {
        if let Some(inner) = node.child_by_field_name(field)
            && let Some(body) = body_of(inner, depth + 1)
        {
            return Some(body);
        }
    }
    let mut cursor = node.walk();
    let children: Vec<Node> = node.named_children(&mut cursor).collect();
    if let Some(body) = children.iter().find(|c| BODY_KINDS.contains(&c.kind())) {
        return Some(*body);
    }
    children
        .into_iter()
        .filter(|c| {
            let kind = c.kind();
            [
                "declarator",
                "_spec",
                "_definition",
                "_declaration",
                "_specifier",
            ]
            .iter()
            .any(|end| kind.ends_with(end))
        })
        .find_map(|c| body_of(c, depth + 1))
}

/// A name on one line with runs of whitespace collapsed, shortened with `…`.
pub(crate) fn clean_name(text: &str) -> String {
    let mut name = String::new();
    for word in text.split_whitespace() {
        if !name.is_empty() {
            name.push(' ');
        }
        name.push_str(word);
    }
    if name.chars().count() > NAME_CHARS {
        name = name.chars().take(NAME_CHARS - 1).collect();
        name.push('…');
    }
    name
}

/// `MAX_SIZE`, `DEFAULT_TIMEOUT_S`: upper case, digits and underscores, with
/// at least one letter.
pub(crate) fn is_constant_name(name: &str) -> bool {
    name.chars().any(|c| c.is_ascii_uppercase())
        && name
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}
