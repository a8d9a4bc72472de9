//! Indentation errors that tree-sitter's Python grammar parses without complaint.
//!
//! The grammar's scanner turns a dedent to a column no enclosing block uses, or
//! an indent after a line that opens no block, into a well-formed tree: the
//! statement simply lands in an outer block, or beside its siblings at another
//! column. CPython refuses the same text (`IndentationError`, `TabError`), so an
//! edit gate that trusted the tree alone would write broken Python.
//!
//! The rule checked here is CPython's, read off the tree: the statements of one
//! block that begin their line all have the same leading whitespace, deeper
//! than the line that opens the block, and top-level statements have none.
//!
//! ```text
//! def f():
//!     a = 1
//!   return a      <- unindent does not match any outer indentation level
//! ```

use tree_sitter::{Node, Tree};

/// One indentation error: the byte offset of the offending statement and what
/// is wrong.
pub(crate) struct IndentError {
    pub offset: usize,
    pub message: &'static str,
}

/// Every indentation error of a parsed Python text, in document order.
pub(crate) fn indentation_errors(tree: &Tree, text: &str) -> Vec<IndentError> {
    let mut errors = Vec::new();
    let mut cursor = tree.walk();
    let mut stack = vec![tree.root_node()];
    while let Some(node) = stack.pop() {
        match node.kind() {
            "module" => check_module(node, text, &mut errors),
            "block" => check_block(node, text, &mut errors),
            _ => {}
        }
        // Blocks only nest inside statements and clauses, never inside
        // expressions, so expression subtrees need no visit.
        let children: Vec<Node> = node
            .named_children(&mut cursor)
            .filter(|c| may_hold_block(c.kind()))
            .collect();
        stack.extend(children.into_iter().rev());
    }
    errors.sort_by_key(|e| e.offset);
    errors
}

fn may_hold_block(kind: &str) -> bool {
    kind == "block"
        || kind.ends_with("_statement")
        || kind.ends_with("_definition")
        || kind.ends_with("_clause")
        || kind == "decorated_definition"
}

/// The leading whitespace of a statement that begins its line, or `None` when
/// something precedes it on the line (`if x: y`, `a; b`).
fn own_line_indent<'t>(node: Node, text: &'t str) -> Option<&'t str> {
    let start = node.start_byte();
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let before = &text[line_start..start];
    before
        .bytes()
        .all(|b| b == b' ' || b == b'\t' || b == b'\x0c')
        .then_some(before)
}

/// The statements of a block or module whose indentation is checked: not
/// comments (their indentation is free) nor the parser's error nodes.
fn statements<'t>(node: Node<'t>) -> Vec<Node<'t>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor)
        .filter(|c| c.kind() != "comment" && !c.is_error() && !c.is_missing())
        .collect()
}

fn check_module(node: Node, text: &str, errors: &mut Vec<IndentError>) {
    let mut previous_end_row = None;
    for statement in statements(node) {
        if let Some(indent) = own_line_indent(statement, text)
            && !indent.is_empty()
        {
            // Just after an indented block, the reader sees a failed dedent.
            let message = if previous_end_row.is_some() {
                "unindent does not match any outer indentation level"
            } else {
                "unexpected indent"
            };
            errors.push(IndentError {
                offset: statement.start_byte(),
                message,
            });
        }
        previous_end_row = Some(statement.end_position().row);
    }
}

fn check_block(node: Node, text: &str, errors: &mut Vec<IndentError>) {
    let opener_indent = node
        .parent()
        .map(|p| line_indent(text, p.start_byte()))
        .unwrap_or("");
    let mut first: Option<&str> = None;
    for statement in statements(node) {
        let Some(indent) = own_line_indent(statement, text) else {
            continue;
        };
        let message = match first {
            None => {
                first = Some(indent);
                if indent.len() > opener_indent.len() && indent.starts_with(opener_indent) {
                    continue;
                }
                if width(indent) > width(opener_indent) {
                    "inconsistent use of tabs and spaces in indentation"
                } else {
                    "expected an indented block"
                }
            }
            Some(expected) if indent == expected => continue,
            Some(expected) => match width(indent).cmp(&width(expected)) {
                std::cmp::Ordering::Greater => "unexpected indent",
                std::cmp::Ordering::Less => "unindent does not match any outer indentation level",
                std::cmp::Ordering::Equal => "inconsistent use of tabs and spaces in indentation",
            },
        };
        errors.push(IndentError {
            offset: statement.start_byte(),
            message,
        });
    }
}

/// The leading whitespace of the line holding `offset`.
fn line_indent(text: &str, offset: usize) -> &str {
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let line = &text[line_start..];
    let len = line
        .bytes()
        .take_while(|&b| b == b' ' || b == b'\t')
        .count();
    &line[..len]
}

/// Columns of `indent` with tabs to multiples of 8, as CPython counts them.
fn width(indent: &str) -> usize {
    indent.bytes().fold(0, |col, b| match b {
        b'\t' => (col / 8 + 1) * 8,
        _ => col + 1,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::syntax::Language;
    use crate::text::syntax::parser::{budget_for, parse_tree};

    fn errors(text: &str) -> Vec<(usize, &'static str)> {
        let tree = parse_tree(Language::Python, text, budget_for(text.len())).unwrap();
        indentation_errors(&tree, text)
            .into_iter()
            .map(|e| (text[..e.offset].matches('\n').count() + 1, e.message))
            .collect()
    }

    #[test]
    fn well_indented_code_has_none() {
        let text = "import os\n\n@dec\nclass A:\n    x = 1  # c\n    def f(self):\n        pass\n\n    def g(self): return 1\n\nif a: b; c\nelif d:\n  e\nelse:\n\tf\n# comment\n   # odd comment\nwhile x:\n    s = \"\"\"\nnot code\n\"\"\"\n    t = (1,\n  2)\n";
        assert_eq!(errors(text), vec![]);
    }

    #[test]
    fn a_dedent_to_an_unknown_level_is_found() {
        assert_eq!(
            errors("def f():\n    a = 1\n  return a\n"),
            vec![(3, "unindent does not match any outer indentation level")]
        );
    }

    #[test]
    fn an_indent_that_opens_no_block_is_found() {
        assert_eq!(
            errors("def f():\n    a = 1\n      b = 2\n    return a\n"),
            vec![(3, "unexpected indent")]
        );
        assert_eq!(errors("  x = 1\n"), vec![(1, "unexpected indent")]);
    }

    #[test]
    fn tabs_mixed_with_spaces_are_found() {
        assert_eq!(
            errors("def f():\n\ta = 1\n        b = 2\n"),
            vec![(3, "inconsistent use of tabs and spaces in indentation")]
        );
        assert!(!errors("def f():\n\ta = 1\n    b = 2\n\treturn a\n").is_empty());
    }
}
