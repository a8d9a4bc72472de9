//! Outline rules for Go: functions, methods (named like `(*T).Name`, as gopls
//! does), types with interface methods, and constants.

use tree_sitter::Node;

use super::{Entry, OutlineKind, Rule, Source};

pub(crate) fn rule<'t>(
    source: &Source<'t>,
    node: Node<'t>,
    parent: Option<OutlineKind>,
) -> Rule<'t> {
    match node.kind() {
        "function_declaration" => match source.field(node, "name") {
            Some(name) => Rule::item(OutlineKind::Function, name, node),
            None => Rule::Skip,
        },
        "method_declaration" => match source.field(node, "name") {
            Some(name) => Rule::item(OutlineKind::Method, method_name(source, node, name), node),
            None => Rule::Skip,
        },
        "method_elem" if parent == Some(OutlineKind::Interface) => match source.field(node, "name")
        {
            Some(name) => Rule::item(OutlineKind::Method, name, node),
            None => Rule::Skip,
        },
        "type_declaration" => specs(source, node, &["type_spec", "type_alias"], type_entry),
        "const_declaration" => specs(source, node, &["const_spec"], const_entries),
        _ => Rule::Skip,
    }
}

/// `(*Server).Handle` for a pointer receiver, `Server.Handle` for a value one.
fn method_name(source: &Source, node: Node, name: String) -> String {
    let receiver = node
        .child_by_field_name("receiver")
        .and_then(|list| list.named_child(0))
        .and_then(|param| param.child_by_field_name("type"));
    match receiver {
        Some(ty) if ty.kind() == "pointer_type" => {
            let inner = ty
                .named_child(0)
                .map(|n| source.name_of(n))
                .unwrap_or_default();
            format!("(*{inner}).{name}")
        }
        Some(ty) => format!("{}.{name}", source.name_of(ty)),
        None => name,
    }
}

/// The items of a `type` or `const` declaration. A single spec spans the whole
/// declaration (keyword included); a grouped one, `type ( ... )`, lists each
/// spec with its own range.
fn specs<'t>(
    source: &Source<'t>,
    node: Node<'t>,
    kinds: &[&str],
    entries: fn(&Source<'t>, Node<'t>, Node<'t>) -> Vec<Entry<'t>>,
) -> Rule<'t> {
    let mut cursor = node.walk();
    let specs: Vec<Node> = node
        .named_children(&mut cursor)
        .filter(|n| kinds.contains(&n.kind()))
        .collect();
    let grouped = is_grouped(node);
    let entries = specs
        .into_iter()
        .flat_map(|spec| entries(source, spec, if grouped { spec } else { node }))
        .collect();
    Rule::Items(entries)
}

/// Whether a declaration uses the parenthesised form.
fn is_grouped(node: Node) -> bool {
    let mut cursor = node.walk();
    node.children(&mut cursor).any(|child| child.kind() == "(")
}

fn type_entry<'t>(source: &Source<'t>, spec: Node<'t>, span: Node<'t>) -> Vec<Entry<'t>> {
    let Some(name) = source.field(spec, "name") else {
        return Vec::new();
    };
    let ty = spec.child_by_field_name("type");
    let entry = match ty.map(|t| t.kind()) {
        Some("struct_type") if spec.kind() == "type_spec" => {
            Entry::new(OutlineKind::Struct, name, span)
        }
        Some("interface_type") if spec.kind() == "type_spec" => {
            Entry::new(OutlineKind::Interface, name, span).with_body(ty)
        }
        _ => Entry::new(OutlineKind::Type, name, span),
    };
    vec![entry]
}

fn const_entries<'t>(source: &Source<'t>, spec: Node<'t>, span: Node<'t>) -> Vec<Entry<'t>> {
    let mut cursor = spec.walk();
    let names: Vec<Node> = spec.children_by_field_name("name", &mut cursor).collect();
    names
        .into_iter()
        .filter(|name| name.kind() == "identifier")
        .map(|name| Entry::new(OutlineKind::Const, source.name_of(name), span))
        .collect()
}
