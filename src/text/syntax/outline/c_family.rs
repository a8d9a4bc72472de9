//! Outline rules for C and C++: functions, prototypes, structs, unions,
//! enums, typedefs, function-like macros; for C++ also classes with their
//! methods, namespaces and `using` aliases. Preprocessor conditionals,
//! `extern "C"` blocks and templates are looked through.

use tree_sitter::Node;

use super::{Entry, OutlineKind, Rule, Source};

pub(crate) fn rule<'t>(
    source: &Source<'t>,
    node: Node<'t>,
    parent: Option<OutlineKind>,
) -> Rule<'t> {
    let in_type = matches!(
        parent,
        Some(OutlineKind::Class | OutlineKind::Struct | OutlineKind::Union)
    );
    match node.kind() {
        "function_definition" => match declarator_name(source, node) {
            Some(name) => {
                let kind = if in_type || name.contains("::") {
                    OutlineKind::Method
                } else {
                    OutlineKind::Function
                };
                Rule::item(kind, name, node)
            }
            None => Rule::Skip,
        },
        // A declaration is a prototype when its declarator is a function.
        "declaration" | "field_declaration" => {
            if let Some(name) = function_declarator(node).and_then(|d| innermost_name(source, d)) {
                let kind = if in_type {
                    OutlineKind::Method
                } else {
                    OutlineKind::Prototype
                };
                return Rule::item(kind, name, node);
            }
            // `struct point { ... } origin;` still defines `struct point`.
            match node.child_by_field_name("type") {
                Some(ty) => tagged_type(source, ty, node).unwrap_or(Rule::Skip),
                None => Rule::Skip,
            }
        }
        "struct_specifier" | "union_specifier" | "enum_specifier" | "class_specifier" => {
            tagged_type(source, node, node).unwrap_or(Rule::Skip)
        }
        "type_definition" => typedef(source, node),
        "alias_declaration" => match source.field(node, "name") {
            Some(name) => Rule::item(OutlineKind::Type, name, node),
            None => Rule::Skip,
        },
        "namespace_definition" => {
            let name = source
                .field(node, "name")
                .unwrap_or_else(|| "(anonymous)".to_string());
            Rule::container(
                OutlineKind::Namespace,
                name,
                node,
                node.child_by_field_name("body"),
            )
        }
        "preproc_function_def" => match source.field(node, "name") {
            Some(name) => Rule::item(OutlineKind::Macro, name, node),
            None => Rule::Skip,
        },
        "linkage_specification" => match node.child_by_field_name("body") {
            Some(body) if body.kind() == "declaration_list" => Rule::Into(body),
            Some(_) => Rule::Into(node),
            None => Rule::Skip,
        },
        // `template <typename T>` belongs to the range of what it declares.
        "template_declaration" => {
            let mut cursor = node.walk();
            let entries = node
                .named_children(&mut cursor)
                .filter_map(|inner| match rule(source, inner, parent) {
                    Rule::Items(entries) => Some(entries),
                    _ => None,
                })
                .flatten()
                .map(|entry| entry.starting_at(node))
                .collect();
            Rule::Items(entries)
        }
        "preproc_ifdef" | "preproc_if" | "preproc_else" | "preproc_elif" | "preproc_elifdef"
        | "declaration_list" => Rule::Into(node),
        _ => Rule::Skip,
    }
}

/// A struct, union, enum or class with a body, as an item spanning `span`.
fn tagged_type<'t>(source: &Source<'t>, ty: Node<'t>, span: Node<'t>) -> Option<Rule<'t>> {
    let body = ty.child_by_field_name("body")?;
    let name = source.field(ty, "name")?;
    let (kind, body) = tag_kind(ty.kind(), body);
    Some(Rule::container(kind, name, span, body))
}

/// The outline kind of a tagged type, and the body worth searching (C++
/// classes and structs have methods; enums and unions list no items).
fn tag_kind<'t>(kind: &str, body: Node<'t>) -> (OutlineKind, Option<Node<'t>>) {
    match kind {
        "class_specifier" => (OutlineKind::Class, Some(body)),
        "union_specifier" => (OutlineKind::Union, None),
        "enum_specifier" => (OutlineKind::Enum, None),
        _ => (OutlineKind::Struct, Some(body)),
    }
}

/// `typedef struct { ... } point;` is the struct `point`; other typedefs are
/// types named by their declarator.
fn typedef<'t>(source: &Source<'t>, node: Node<'t>) -> Rule<'t> {
    let Some(name) = declarator_name(source, node) else {
        return Rule::Skip;
    };
    let ty = node.child_by_field_name("type");
    match ty.and_then(|ty| Some((ty, ty.child_by_field_name("body")?))) {
        Some((ty, body)) => {
            let (kind, body) = tag_kind(ty.kind(), body);
            Rule::Items(vec![Entry::new(kind, name, node).with_body(body)])
        }
        None => Rule::item(OutlineKind::Type, name, node),
    }
}

/// The name a declarator chain ends in: through pointers, references,
/// arrays and function declarators to the identifier (`ns::Type::method`,
/// `operator==` and `~Type` included).
fn declarator_name(source: &Source, node: Node) -> Option<String> {
    innermost_name(source, node.child_by_field_name("declarator")?)
}

fn innermost_name(source: &Source, mut node: Node) -> Option<String> {
    for _ in 0..16 {
        match node.child_by_field_name("declarator") {
            Some(inner) => node = inner,
            None => break,
        }
    }
    match node.kind() {
        "identifier"
        | "field_identifier"
        | "type_identifier"
        | "qualified_identifier"
        | "destructor_name"
        | "operator_name"
        | "primitive_type" => Some(source.name_of(node)),
        _ => None,
    }
}

/// The function declarator of a declaration, if it declares a function:
/// `int f(void);`, `static char *name(int);` — but not `int (*handler)(int);`,
/// which is a variable holding a pointer to one.
fn function_declarator(node: Node) -> Option<Node> {
    let mut current = node.child_by_field_name("declarator")?;
    for _ in 0..16 {
        match current.kind() {
            "function_declarator" => {
                let inner = current.child_by_field_name("declarator")?;
                return (inner.kind() != "parenthesized_declarator").then_some(current);
            }
            "pointer_declarator" | "reference_declarator" => {
                current = current
                    .child_by_field_name("declarator")
                    .or_else(|| current.named_child(0))?;
            }
            "attributed_declarator" => current = current.named_child(0)?,
            _ => return None,
        }
    }
    None
}
