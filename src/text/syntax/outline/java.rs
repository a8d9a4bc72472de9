//! Outline rules for Java: classes, interfaces, enums and records with their
//! methods and constructors, nested types included.

use tree_sitter::Node;

use super::{OutlineKind, Rule, Source};

pub(crate) fn rule<'t>(
    source: &Source<'t>,
    node: Node<'t>,
    parent: Option<OutlineKind>,
) -> Rule<'t> {
    let kind = match node.kind() {
        "class_declaration" | "record_declaration" => OutlineKind::Class,
        "interface_declaration" | "annotation_type_declaration" => OutlineKind::Interface,
        "enum_declaration" => OutlineKind::Enum,
        "method_declaration" if parent.is_some() => OutlineKind::Method,
        "constructor_declaration" | "compact_constructor_declaration" if parent.is_some() => {
            OutlineKind::Constructor
        }
        // Methods of an enum sit after its constants, in a section of their own.
        "enum_body_declarations" => return Rule::Into(node),
        _ => return Rule::Skip,
    };
    let Some(name) = source.field(node, "name") else {
        return Rule::Skip;
    };
    let body = match kind {
        OutlineKind::Class | OutlineKind::Interface | OutlineKind::Enum => {
            node.child_by_field_name("body")
        }
        _ => None,
    };
    Rule::container(kind, name, node, body)
}
