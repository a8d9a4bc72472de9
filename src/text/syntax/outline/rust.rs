//! Outline rules for Rust: items, with `impl`, `trait` and `mod` bodies searched.

use tree_sitter::Node;

use super::{Entry, OutlineKind, Rule, Source};

pub(crate) fn rule<'t>(
    source: &Source<'t>,
    node: Node<'t>,
    parent: Option<OutlineKind>,
) -> Rule<'t> {
    let in_type = matches!(parent, Some(OutlineKind::Impl | OutlineKind::Trait));
    let (kind, body) = match node.kind() {
        "function_item" | "function_signature_item" if in_type => (OutlineKind::Method, false),
        "function_item" | "function_signature_item" => (OutlineKind::Function, false),
        "struct_item" => (OutlineKind::Struct, false),
        "union_item" => (OutlineKind::Union, false),
        "enum_item" => (OutlineKind::Enum, false),
        "trait_item" => (OutlineKind::Trait, true),
        "mod_item" => (OutlineKind::Module, true),
        "const_item" => (OutlineKind::Const, false),
        "static_item" => (OutlineKind::Static, false),
        "type_item" | "associated_type" => (OutlineKind::Type, false),
        "macro_definition" => (OutlineKind::Macro, false),
        "impl_item" => (OutlineKind::Impl, true),
        // `extern "C" { ... }` declares functions that belong at this level.
        "foreign_mod_item" => {
            return node
                .child_by_field_name("body")
                .map_or(Rule::Skip, Rule::Into);
        }
        _ => return Rule::Skip,
    };
    let name = if kind == OutlineKind::Impl {
        impl_name(source, node)
    } else {
        match source.field(node, "name") {
            Some(name) => name,
            None => return Rule::Skip,
        }
    };
    let body = if body {
        node.child_by_field_name("body")
    } else {
        None
    };
    let mut entry = Entry::new(kind, name, node).with_body(body);
    if let Some(first) = first_attribute(node) {
        entry = entry.starting_at(first);
    }
    Rule::Items(vec![entry])
}

/// `Type`, or `Trait for Type`, as the `impl` line says it.
fn impl_name(source: &Source, node: Node) -> String {
    let target = source.field(node, "type").unwrap_or_default();
    match source.field(node, "trait") {
        Some(tr) => format!("{tr} for {target}"),
        None => target,
    }
}

/// The first of the attributes (`#[derive(...)]`, `#[test]`) right before an
/// item: they belong to it.
fn first_attribute(node: Node) -> Option<Node> {
    let mut first = None;
    let mut previous = node.prev_named_sibling();
    while let Some(sibling) = previous {
        if sibling.kind() != "attribute_item" {
            break;
        }
        first = Some(sibling);
        previous = sibling.prev_named_sibling();
    }
    first
}
