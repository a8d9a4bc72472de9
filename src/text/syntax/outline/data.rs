//! Outline rules for data files: the top-level keys of JSON and YAML, the
//! tables (`[name]`, `[[name]]`) and top-level keys of TOML. A YAML file with
//! several documents lists each document with its keys inside.

use tree_sitter::Node;

use super::{Entry, OutlineKind, Rule, Source};
use crate::text::syntax::language::Language;

pub(crate) fn rule<'t>(
    source: &Source<'t>,
    node: Node<'t>,
    parent: Option<OutlineKind>,
) -> Rule<'t> {
    match source.language {
        Language::Json => json(source, node),
        Language::Yaml => yaml(source, node, parent),
        _ => toml(source, node),
    }
}

fn json<'t>(source: &Source<'t>, node: Node<'t>) -> Rule<'t> {
    match node.kind() {
        // Only the document's own object is looked into: top-level keys.
        "object" if node.parent().is_some_and(|p| p.kind() == "document") => Rule::Into(node),
        "pair" => match node.child_by_field_name("key") {
            Some(key) => Rule::item(OutlineKind::Key, unquote(source.text_of(key)), node),
            None => Rule::Skip,
        },
        _ => Rule::Skip,
    }
}

fn yaml<'t>(source: &Source<'t>, node: Node<'t>, parent: Option<OutlineKind>) -> Rule<'t> {
    match node.kind() {
        "document" => {
            let documents = node.parent().map(documents).unwrap_or_default();
            if documents.len() > 1 && parent.is_none() {
                let number = documents
                    .iter()
                    .position(|d| d.id() == node.id())
                    .map_or(1, |i| i + 1);
                Rule::Items(vec![
                    Entry::new(OutlineKind::Document, format!("document {number}"), node)
                        .with_body(Some(node)),
                ])
            } else {
                Rule::Into(node)
            }
        }
        "block_node" | "flow_node" | "block_mapping" | "flow_mapping"
            if is_top_level_value(node) =>
        {
            Rule::Into(node)
        }
        "block_mapping_pair" | "flow_pair" => match node.child_by_field_name("key") {
            Some(key) => Rule::item(OutlineKind::Key, unquote(source.text_of(key)), node),
            None => Rule::Skip,
        },
        _ => Rule::Skip,
    }
}

/// The documents of a YAML stream.
fn documents(stream: Node) -> Vec<Node> {
    let mut cursor = stream.walk();
    stream
        .named_children(&mut cursor)
        .filter(|d| d.kind() == "document")
        .collect()
}

/// Whether a node is the document's value or its mapping, rather than
/// something nested deeper.
fn is_top_level_value(node: Node) -> bool {
    let mut current = node;
    for _ in 0..3 {
        match current.parent() {
            Some(parent) if parent.kind() == "document" => return true,
            Some(parent) if matches!(parent.kind(), "block_node" | "flow_node") => current = parent,
            _ => return false,
        }
    }
    false
}

fn toml<'t>(source: &Source<'t>, node: Node<'t>) -> Rule<'t> {
    let header = |open: &str, close: &str| {
        let mut cursor = node.walk();
        let key = node
            .named_children(&mut cursor)
            .find(|child| matches!(child.kind(), "bare_key" | "dotted_key" | "quoted_key"));
        match key {
            Some(key) => Rule::item(
                OutlineKind::Table,
                format!("{open}{}{close}", source.name_of(key)),
                node,
            ),
            None => Rule::Skip,
        }
    };
    match node.kind() {
        "table" => header("[", "]"),
        "table_array_element" => header("[[", "]]"),
        "pair" if node.parent().is_some_and(|p| p.kind() == "document") => {
            match node.named_child(0) {
                Some(key) => Rule::item(OutlineKind::Key, source.name_of(key), node),
                None => Rule::Skip,
            }
        }
        _ => Rule::Skip,
    }
}

/// A key without its surrounding quotes: `"name"` → `name`.
fn unquote(key: &str) -> String {
    let key = key.trim();
    let inner = key
        .strip_prefix('"')
        .and_then(|k| k.strip_suffix('"'))
        .or_else(|| key.strip_prefix('\'').and_then(|k| k.strip_suffix('\'')))
        .unwrap_or(key);
    super::clean_name(inner)
}
