//! Outline rules for JavaScript, TypeScript and TSX: functions (including
//! ones assigned to a `const`), classes with their methods, interfaces, types,
//! enums, namespaces, and upper-case module constants.

use tree_sitter::Node;

use super::{Entry, OutlineKind, Rule, Source, is_constant_name};

pub(crate) fn rule<'t>(
    source: &Source<'t>,
    node: Node<'t>,
    parent: Option<OutlineKind>,
) -> Rule<'t> {
    let named = |kind: OutlineKind| match source.field(node, "name") {
        Some(name) => Rule::item(kind, name, node),
        None => Rule::Skip,
    };
    let in_class = matches!(parent, Some(OutlineKind::Class | OutlineKind::Interface));
    match node.kind() {
        "function_declaration" | "generator_function_declaration" | "function_signature" => {
            named(OutlineKind::Function)
        }
        "class_declaration" | "abstract_class_declaration" | "class" => {
            let name = source
                .field(node, "name")
                .unwrap_or_else(|| "default".to_string());
            Rule::container(
                OutlineKind::Class,
                name,
                node,
                node.child_by_field_name("body"),
            )
        }
        "interface_declaration" => match source.field(node, "name") {
            Some(name) => Rule::container(
                OutlineKind::Interface,
                name,
                node,
                node.child_by_field_name("body"),
            ),
            None => Rule::Skip,
        },
        "type_alias_declaration" => named(OutlineKind::Type),
        "enum_declaration" => named(OutlineKind::Enum),
        "internal_module" | "module" => match source.field(node, "name") {
            Some(name) => {
                let name = name.trim_matches(['"', '\'']).to_string();
                let kind = if node.kind() == "module" {
                    OutlineKind::Module
                } else {
                    OutlineKind::Namespace
                };
                Rule::container(kind, name, node, node.child_by_field_name("body"))
            }
            None => Rule::Skip,
        },
        "method_definition" | "method_signature" | "abstract_method_signature" if in_class => {
            match source.field(node, "name") {
                Some(name) if name == "constructor" => {
                    Rule::item(OutlineKind::Constructor, name, node)
                }
                Some(name) => Rule::item(
                    OutlineKind::Method,
                    method_prefix(source, node) + &name,
                    node,
                ),
                None => Rule::Skip,
            }
        }
        // `handle = () => { ... }` in a class body is a method in all but name.
        "field_definition" | "public_field_definition" if in_class => {
            let name = source
                .field(node, "name")
                .or_else(|| source.field(node, "property"));
            match (name, node.child_by_field_name("value")) {
                (Some(name), Some(value)) if is_function(value) => {
                    Rule::item(OutlineKind::Method, name, node)
                }
                _ => Rule::Skip,
            }
        }
        "lexical_declaration" | "variable_declaration" if !in_class => {
            declarators(source, node, parent)
        }
        // `export`, `declare` and `export default` wrap the declaration that
        // matters.
        "export_statement" => export(source, node),
        "ambient_declaration" => Rule::Into(node),
        // A top-level `namespace X { }` is parsed as an expression statement.
        "expression_statement"
            if node
                .named_child(0)
                .is_some_and(|inner| inner.kind() == "internal_module") =>
        {
            Rule::Into(node)
        }
        // A namespace body is a statement block holding declarations.
        "statement_block" if parent == Some(OutlineKind::Namespace) => Rule::Into(node),
        _ => Rule::Skip,
    }
}

/// `get ` or `set ` for accessors, so a getter and setter pair stay apart.
fn method_prefix(source: &Source, node: Node) -> String {
    let mut cursor = node.walk();
    let accessor = node
        .children(&mut cursor)
        .take_while(|child| child.kind() != "property_identifier")
        .find(|child| matches!(child.kind(), "get" | "set"))
        .map(|child| format!("{} ", source.text_of(child)));
    accessor.unwrap_or_default()
}

fn is_function(value: Node) -> bool {
    matches!(
        value.kind(),
        "arrow_function" | "function_expression" | "function" | "generator_function"
    )
}

/// `const load = async () => {}` is a function; `const MAX = 3` at module
/// level a constant; other variables are left out.
fn declarators<'t>(source: &Source<'t>, node: Node<'t>, parent: Option<OutlineKind>) -> Rule<'t> {
    let is_const = node.child(0).is_some_and(|first| first.kind() == "const");
    let top_level = matches!(
        parent,
        None | Some(OutlineKind::Namespace | OutlineKind::Module)
    );
    let single = node.named_child_count() == 1;
    let mut cursor = node.walk();
    let mut entries = Vec::new();
    for declarator in node.named_children(&mut cursor) {
        if declarator.kind() != "variable_declarator" {
            continue;
        }
        let Some(name) = declarator.child_by_field_name("name") else {
            continue;
        };
        if name.kind() != "identifier" {
            continue;
        }
        let span = if single { node } else { declarator };
        let name_text = source.name_of(name);
        match declarator.child_by_field_name("value") {
            Some(value) if is_function(value) => {
                entries.push(Entry::new(OutlineKind::Function, name_text, span));
            }
            Some(value) if value.kind() == "class" => {
                entries.push(
                    Entry::new(OutlineKind::Class, name_text, span)
                        .with_body(value.child_by_field_name("body")),
                );
            }
            Some(_) if is_const && top_level && is_constant_name(&name_text) => {
                entries.push(Entry::new(OutlineKind::Const, name_text, span));
            }
            _ => {}
        }
    }
    Rule::Items(entries)
}

fn export<'t>(source: &Source<'t>, node: Node<'t>) -> Rule<'t> {
    match node.child_by_field_name("value") {
        // `export default function () {}` and `export default () => {}`
        Some(value) if is_function(value) => {
            let name = source
                .field(value, "name")
                .unwrap_or_else(|| "default".to_string());
            Rule::item(OutlineKind::Function, name, node)
        }
        Some(value) if value.kind() == "class" => {
            let name = source
                .field(value, "name")
                .unwrap_or_else(|| "default".to_string());
            Rule::container(
                OutlineKind::Class,
                name,
                node,
                value.child_by_field_name("body"),
            )
        }
        Some(_) => Rule::Skip,
        None => Rule::Into(node),
    }
}
