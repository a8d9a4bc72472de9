//! Indentation errors that tree-sitter's Python grammar parses without complaint.
//!
//! The grammar's scanner turns a dedent to a column no enclosing block uses, or
//! an indent after a line that opens no block, into a well-formed tree: the
//! statement simply lands in an outer block, or beside its siblings at another
//! column. CPython refuses the same text (`IndentationError`, `TabError`), so an
//! edit gate that trusted the tree alone would write broken Python.
//!
//! The rule checked here is CPython's, read off the tree: every block has a
//! statement, the statements of one block that begin their line all have the
//! same leading whitespace, deeper than the line that opens the block, and
//! top-level statements have none. (A header whose next line is not indented
//! gets an empty block from the grammar, and the next line lands outside it.)
//!
//! ```text
//! def f():
//!     a = 1
//!   return a      <- unindent does not match any outer indentation level
//!
//! def add(a, b):
//! return a + b    <- expected an indented block after function definition on line 5
//! ```

use tree_sitter::{Node, Tree};

/// One indentation error: the byte offset of the offending statement and what
/// is wrong.
pub(crate) struct IndentError {
    pub offset: usize,
    pub message: String,
}

/// Every indentation error of a parsed Python text, in document order.
pub(crate) fn indentation_errors(tree: &Tree, text: &str) -> Vec<IndentError> {
    let mut errors = Vec::new();
    let mut cursor = tree.walk();
    // Each entry carries its parent: asking tree-sitter for it walks down
    // from the root, once per block of a text nested hundreds deep.
    let mut stack: Vec<(Node, Option<Node>)> = vec![(tree.root_node(), None)];
    while let Some((node, parent)) = stack.pop() {
        match node.kind() {
            "module" => check_module(node, text, &mut errors),
            "block" => check_block(node, parent, text, &mut errors),
            _ => {}
        }
        // Blocks only nest inside statements and clauses, never inside
        // expressions, so expression subtrees need no visit.
        let children: Vec<Node> = node
            .named_children(&mut cursor)
            .filter(|c| may_hold_block(c.kind()))
            .collect();
        stack.extend(children.into_iter().rev().map(|child| (child, Some(node))));
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
                message: message.to_string(),
            });
        }
        previous_end_row = Some(statement.end_position().row);
    }
}

/// Checks a block's statements; `parent` is the node whose header opens it.
fn check_block(node: Node, parent: Option<Node>, text: &str, errors: &mut Vec<IndentError>) {
    let opener_indent = parent
        .map(|p| line_indent(text, p.start_byte()))
        .unwrap_or("");
    let body = statements(node);
    if body.is_empty()
        && let Some(header) = parent
    {
        // The grammar also leaves a block empty when its first statement
        // fails to parse; only a next line that is not indented deeper is
        // CPython's "expected an indented block".
        let next = next_code(text, header_end(header, node));
        let deeper = next < text.len()
            && width(line_indent(text, next)) > width(line_indent(text, header.start_byte()));
        if deeper {
            return;
        }
        errors.push(IndentError {
            offset: next,
            message: format!(
                "expected an indented block after {} on line {}",
                opener_name(header.kind()),
                header.start_position().row + 1
            ),
        });
        return;
    }
    let mut first: Option<&str> = None;
    for statement in body {
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
            message: message.to_string(),
        });
    }
}

/// Where the header of `block` ends: the end of the line holding the `:`
/// just before the block.
fn header_end(header: Node, block: Node) -> usize {
    let mut cursor = header.walk();
    header
        .children(&mut cursor)
        .filter(|c| c.kind() == ":" && c.end_byte() <= block.start_byte().max(c.end_byte()))
        .filter(|c| c.start_byte() < block.end_byte().max(block.start_byte() + 1))
        .last()
        .map_or(block.start_byte(), |c| c.end_byte())
}

/// The first character of code on a line after the one holding `offset`:
/// the statement CPython finds where it expected the indented block (or
/// `offset` itself when none follows).
fn next_code(text: &str, offset: usize) -> usize {
    let mut at = text[offset..]
        .find('\n')
        .map_or(text.len(), |i| offset + i + 1);
    while at < text.len() {
        let line_end = text[at..].find('\n').map_or(text.len(), |i| at + i);
        let line = &text[at..line_end];
        let code = line.trim_start();
        if !code.is_empty() && !code.starts_with('#') {
            return at + (line.len() - code.len());
        }
        at = line_end + 1;
    }
    offset
}

/// How CPython names the statement that opens a block.
fn opener_name(kind: &str) -> String {
    match kind {
        "function_definition" => "function definition".to_string(),
        "class_definition" => "class definition".to_string(),
        other => {
            let word = other
                .trim_end_matches("_statement")
                .trim_end_matches("_clause");
            format!("'{word}' statement")
        }
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

    fn errors(text: &str) -> Vec<(usize, String)> {
        let tree = parse_tree(Language::Python, text, budget_for(text.len())).unwrap();
        indentation_errors(&tree, text)
            .into_iter()
            .map(|e| (text[..e.offset].matches('\n').count() + 1, e.message))
            .collect()
    }

    fn one(text: &str) -> Vec<(usize, &str)> {
        errors(text)
            .leak()
            .iter()
            .map(|(l, m)| (*l, m.as_str()))
            .collect()
    }

    #[test]
    fn well_indented_code_has_none() {
        let text = "import os\n\n@dec\nclass A:\n    x = 1  # c\n    def f(self):\n        pass\n\n    def g(self): return 1\n\nif a: b; c\nelif d:\n  e\nelse:\n\tf\n# comment\n   # odd comment\nwhile x:\n    s = \"\"\"\nnot code\n\"\"\"\n    t = (1,\n  2)\n";
        assert_eq!(one(text), vec![]);
    }

    #[test]
    fn a_dedent_to_an_unknown_level_is_found() {
        assert_eq!(
            one("def f():\n    a = 1\n  return a\n"),
            vec![(3, "unindent does not match any outer indentation level")]
        );
    }

    #[test]
    fn an_indent_that_opens_no_block_is_found() {
        assert_eq!(
            one("def f():\n    a = 1\n      b = 2\n    return a\n"),
            vec![(3, "unexpected indent")]
        );
        assert_eq!(one("  x = 1\n"), vec![(1, "unexpected indent")]);
    }

    #[test]
    fn tabs_mixed_with_spaces_are_found() {
        assert_eq!(
            one("def f():\n\ta = 1\n        b = 2\n"),
            vec![(3, "inconsistent use of tabs and spaces in indentation")]
        );
        assert!(!errors("def f():\n\ta = 1\n    b = 2\n\treturn a\n").is_empty());
    }

    #[test]
    fn a_block_opener_followed_by_no_indented_line_is_found() {
        assert_eq!(
            one("def add(a, b):\nreturn a + b\n"),
            vec![(
                2,
                "expected an indented block after function definition on line 1"
            )]
        );
        assert_eq!(
            one("x = 1\nif x:\n    # nothing yet\npass\n"),
            vec![(
                4,
                "expected an indented block after 'if' statement on line 2"
            )]
        );
        assert_eq!(
            one("class A:\n    def f(self):\n    return 1\n"),
            vec![(
                3,
                "expected an indented block after function definition on line 2"
            )]
        );
        assert_eq!(
            one("try:\n    a()\nexcept E:\nb()\n"),
            vec![(
                4,
                "expected an indented block after 'except' statement on line 3"
            )]
        );
        assert_eq!(
            one("for x in y:\n"),
            vec![(
                1,
                "expected an indented block after 'for' statement on line 1"
            )]
        );
        // One-line bodies and a body on the next line are fine.
        assert_eq!(one("if a: b()\nwhile c:\n    d()\nelse: pass\n"), vec![]);
        // A body that does not parse is no indentation error.
        assert_eq!(one("with open(p) as f:\n    f.write(data\n"), vec![]);
    }
}
