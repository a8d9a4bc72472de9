//! Outline rules for HTML and CSS. HTML lists its headings (`h1` to `h6`,
//! named by their text) and its `<script>` and `<style>` elements, at any
//! depth; CSS lists its top-level rules by selector and its at-rules
//! (`@media`, `@supports`, …) with the rules inside them.

use tree_sitter::Node;

use super::{OutlineKind, Rule, Source, clean_name};
use crate::text::syntax::language::Language;

pub(crate) fn rule<'t>(
    source: &Source<'t>,
    node: Node<'t>,
    parent: Option<OutlineKind>,
) -> Rule<'t> {
    if source.language == Language::Html {
        html(source, node)
    } else {
        css(source, node, parent)
    }
}

fn html<'t>(source: &Source<'t>, node: Node<'t>) -> Rule<'t> {
    match node.kind() {
        "element" => {
            let tag = node
                .named_child(0)
                .filter(|n| n.kind() == "start_tag")
                .and_then(|start| start.named_child(0))
                .map(|name| source.text_of(name).to_ascii_lowercase());
            match tag.as_deref() {
                Some("h1" | "h2" | "h3" | "h4" | "h5" | "h6") => {
                    Rule::item(OutlineKind::Heading, heading_text(source, node), node)
                }
                _ => Rule::Into(node),
            }
        }
        "script_element" | "style_element" => {
            let kind = if node.kind() == "script_element" {
                OutlineKind::Script
            } else {
                OutlineKind::Style
            };
            let start = node
                .named_child(0)
                .map(|tag| source.name_of(tag))
                .unwrap_or_default();
            Rule::item(kind, start, node)
        }
        _ => Rule::Skip,
    }
}

/// The text of a heading with its tags removed: `<h2>Install <code>x</code></h2>`
/// is `Install x`.
fn heading_text(source: &Source, node: Node) -> String {
    let mut words = String::new();
    let mut stack = vec![node];
    while let Some(current) = stack.pop() {
        if current.kind() == "text" || current.kind() == "entity" {
            words.push(' ');
            words.push_str(source.text_of(current));
        }
        let mut cursor = current.walk();
        let children: Vec<Node> = current.named_children(&mut cursor).collect();
        stack.extend(children.into_iter().rev());
    }
    clean_name(&words)
}

fn css<'t>(source: &Source<'t>, node: Node<'t>, parent: Option<OutlineKind>) -> Rule<'t> {
    match node.kind() {
        "rule_set" => match node.named_child(0).filter(|n| n.kind() == "selectors") {
            Some(selectors) => Rule::item(OutlineKind::Rule, source.name_of(selectors), node),
            None => Rule::Skip,
        },
        // At-rules at the top level, with the rules of their block.
        "media_statement"
        | "supports_statement"
        | "keyframes_statement"
        | "at_rule"
        | "scope_statement"
            if parent.is_none() =>
        {
            let text = source.text_of(node);
            let prelude = text.split('{').next().unwrap_or(text).trim_end_matches(';');
            let mut cursor = node.walk();
            let block = node
                .named_children(&mut cursor)
                .find(|child| child.kind() == "block");
            Rule::container(OutlineKind::Rule, clean_name(prelude), node, block)
        }
        "import_statement" | "charset_statement" | "namespace_statement" => Rule::Skip,
        _ => Rule::Skip,
    }
}
