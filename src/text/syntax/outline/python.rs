//! Outline rules for Python: classes, functions, methods, module constants.

use tree_sitter::Node;

use super::{Entry, OutlineKind, Rule, Source, is_constant_name};

pub(crate) fn rule<'t>(
    source: &Source<'t>,
    node: Node<'t>,
    parent: Option<OutlineKind>,
) -> Rule<'t> {
    match node.kind() {
        "function_definition" | "class_definition" => definition(source, node, node, parent),
        // The decorators belong to the range; the name and kind come from
        // the definition they decorate.
        "decorated_definition" => match node.child_by_field_name("definition") {
            Some(inner) => definition(source, node, inner, parent),
            None => Rule::Skip,
        },
        "type_alias_statement" => match node.child_by_field_name("left") {
            Some(left) => Rule::item(OutlineKind::Type, source.name_of(left), node),
            None => Rule::Skip,
        },
        // `MAX_SIZE = 10` at module level: upper-case names are constants by
        // convention, everything else is too noisy to list.
        "expression_statement" if parent.is_none() => constant(source, node),
        _ => Rule::Skip,
    }
}

fn definition<'t>(
    source: &Source<'t>,
    span: Node<'t>,
    definition: Node<'t>,
    parent: Option<OutlineKind>,
) -> Rule<'t> {
    let Some(name) = source.field(definition, "name") else {
        return Rule::Skip;
    };
    let entry = if definition.kind() == "class_definition" {
        Entry::new(OutlineKind::Class, name, span).with_body(definition.child_by_field_name("body"))
    } else if parent == Some(OutlineKind::Class) {
        Entry::new(OutlineKind::Method, name, span)
    } else {
        Entry::new(OutlineKind::Function, name, span)
    };
    Rule::Items(vec![entry])
}

fn constant<'t>(source: &Source<'t>, node: Node<'t>) -> Rule<'t> {
    let assignment = node.named_child(0).filter(|n| n.kind() == "assignment");
    let left = assignment.and_then(|a| a.child_by_field_name("left"));
    match left {
        Some(left) if left.kind() == "identifier" && is_constant_name(source.text_of(left)) => {
            Rule::item(OutlineKind::Const, source.name_of(left), node)
        }
        _ => Rule::Skip,
    }
}
