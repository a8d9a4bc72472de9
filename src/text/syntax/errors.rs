//! Finding the syntax errors in a text and describing them so that whoever
//! made them can fix them.
//!
//! tree-sitter always builds a tree; where the text does not fit the grammar it
//! inserts `ERROR` nodes (text it had to skip or could not place) and `MISSING`
//! nodes (a token it assumed, such as a `;` or a closing `}`). Each such node is
//! one syntax error here. Nested ones count too: an edit inside a region the
//! parser already failed on can still add a new, separate mistake.

use schemars::JsonSchema;
use serde::Serialize;
use tree_sitter::{Node, Tree};

use super::language::Language;
use super::parser::{Skipped, budget_for, parse_tree};
use super::python_indent::indentation_errors;
use crate::text::lines::LineIndex;

/// How many errors a [`SyntaxReport`] lists; `error_count` counts them all.
pub const MAX_LISTED_ERRORS: usize = 5;

/// Errors looked at per parse. Past this, a text is garbage as far as the
/// grammar is concerned, and describing more of it helps nobody.
const MAX_COLLECTED: usize = 10_000;

/// Characters of offending text quoted in a message.
const QUOTE_CHARS: usize = 32;

/// Characters of a long line shown around an error.
const LINE_CHARS: usize = 160;

/// What the parser did at the error.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ErrorKind {
    /// Text the parser could not fit into the grammar and skipped.
    Error,
    /// A token the grammar required and the text lacks.
    Missing,
}

/// One syntax error, located and described.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SyntaxError {
    /// 1-based line of the error.
    pub line: usize,
    /// 1-based column, counted in characters (a tab is one).
    pub column: usize,
    /// Skipped text or missing token.
    pub kind: ErrorKind,
    /// What is wrong, quoting the offending text: "missing `;`", "unexpected `)`".
    pub message: String,
    /// The text of the error's line (a window around the error if the line is long).
    pub line_text: String,
}

impl std::fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "line {}, column {}: {}\n  {} | {}",
            self.line, self.column, self.message, self.line, self.line_text
        )
    }
}

/// The syntax errors of one text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SyntaxReport {
    /// The grammar the text was parsed with.
    pub language: Language,
    /// How many errors the text has (up to 10,000; a text with more is counted
    /// as having 10,000).
    pub error_count: usize,
    /// The first few errors, in document order.
    pub errors: Vec<SyntaxError>,
}

impl SyntaxReport {
    /// Whether the text parsed without any error.
    pub fn is_clean(&self) -> bool {
        self.error_count == 0
    }
}

/// Parses `text` as `language` and reports its syntax errors.
///
/// Returns [`Skipped`] instead when the parse would take unreasonably long;
/// that says nothing about whether the text is valid.
pub fn parse(language: Language, text: &str) -> Result<SyntaxReport, Skipped> {
    let tree = parse_tree(language, text, budget_for(text.len()))?;
    Ok(report(language, &tree, text))
}

/// Describes the errors of an already parsed tree.
pub(crate) fn report(language: Language, tree: &Tree, text: &str) -> SyntaxReport {
    let all = collect(language, tree, text);
    SyntaxReport {
        language,
        error_count: all.len(),
        errors: all
            .into_iter()
            .take(MAX_LISTED_ERRORS)
            .map(|found| found.error)
            .collect(),
    }
}

/// One error with the lines it concerns.
#[derive(Debug, Clone)]
pub(crate) struct Found {
    /// The error as reported.
    pub error: SyntaxError,
    /// First line of the text the error concerns. For an error pinned to one
    /// token (a missing `;`, an unclosed `{`) that is the reported line; for
    /// a region the parser could not read as a whole, the region's first line.
    pub first_line: usize,
    /// Last line of that text.
    pub last_line: usize,
}

/// Every error of the tree (up to [`MAX_COLLECTED`]), ordered by the
/// position they are reported at.
pub(crate) fn collect(language: Language, tree: &Tree, text: &str) -> Vec<Found> {
    let index = LineIndex::new(text);
    let mut found = Vec::new();
    // Each entry carries its parent (asking tree-sitter for a node's parent
    // walks down from the root, which in a text nested hundreds deep took
    // seconds over all its errors). Children are pushed in reverse so they
    // pop in document order; only subtrees that contain an error are
    // entered, which keeps this cheap.
    let mut stack: Vec<(Node, Option<Node>)> = vec![(tree.root_node(), None)];
    while let Some((node, parent)) = stack.pop() {
        if found.len() >= MAX_COLLECTED {
            break;
        }
        let inside_error = parent.is_some_and(|parent| parent.is_error());
        let described = if node.is_missing() {
            Some((describe_missing(node, parent, text, &index), Pinned::Token))
        } else if node.is_error() && !inside_error {
            // An error directly inside another is the same failure seen
            // twice; it is described with its parent.
            Some(describe_error(language, node, text, &index))
        } else {
            None
        };
        if let Some((error, pinned)) = described {
            let clamp = |row: usize| (row + 1).min(index.len().max(1));
            let (first_line, last_line) = match pinned {
                Pinned::Token => (error.line, error.line),
                Pinned::Region => (
                    clamp(node.start_position().row),
                    clamp(node.end_position().row),
                ),
            };
            found.push(Found {
                error,
                first_line,
                last_line,
            });
        }
        if node.has_error() {
            let mut cursor = node.walk();
            let children: Vec<Node> = node.children(&mut cursor).collect();
            stack.extend(children.into_iter().rev().map(|child| (child, Some(node))));
        }
    }
    if language == Language::Python {
        for e in indentation_errors(tree, text) {
            let error = locate(e.offset, ErrorKind::Error, e.message, text, &index);
            found.push(Found {
                first_line: error.line,
                last_line: error.line,
                error,
            });
        }
        found.truncate(MAX_COLLECTED);
    }
    // Some errors are reported at a token inside their node or just after
    // it, so traversal order is not quite position order.
    found.sort_by_key(|f| (f.error.line, f.error.column));
    found
}

fn describe_missing(
    node: Node,
    parent: Option<Node>,
    text: &str,
    index: &LineIndex,
) -> SyntaxError {
    let kind = node.kind();
    let mut message = if node.is_named() {
        format!("missing {}", humanize(kind))
    } else {
        format!("missing `{kind}`")
    };
    // A missing closer: say which opener it would close, which is where the
    // reader has to look (the closer's own position is often the end of file).
    if let Some(opener) = opener_for(kind) {
        let open = parent
            .and_then(|parent| parent.child(0))
            .filter(|first| first.kind() == opener && !first.is_missing());
        if let Some(open) = open {
            let line = open.start_position().row + 1;
            message.push_str(&format!(" to close the `{opener}` on line {line}"));
        }
    }
    locate(node.start_byte(), ErrorKind::Missing, message, text, index)
}

/// What a reported position stands for.
enum Pinned {
    /// One token: the error is exactly there.
    Token,
    /// The start of a region that failed as a whole; the trouble may be
    /// anywhere in it.
    Region,
}

fn describe_error(
    language: Language,
    node: Node,
    text: &str,
    index: &LineIndex,
) -> (SyntaxError, Pinned) {
    let token = |offset: usize, message: String| {
        (
            locate(offset, ErrorKind::Error, message, text, index),
            Pinned::Token,
        )
    };
    let unclosed = unclosed_children(language, node);
    if let Some(open) = unclosed
        .iter()
        .rev()
        .find(|open| is_never_closed(language, open, node, text))
    {
        let opener = open.kind();
        let closer = closer_for(language, opener).unwrap_or_default();
        let message = if is_quote(opener) {
            format!("unclosed string: no closing `{closer}`")
        } else {
            format!("unclosed `{opener}`: no matching `{closer}`")
        };
        return token(open.start_byte(), message);
    }
    if language == Language::Python
        && let Some((offset, header)) = header_without_colon(node, text)
    {
        return token(offset, format!("expected `:` after `{}`", quote(header)));
    }
    let snippet = &text[node.byte_range()];
    let trimmed = snippet.trim();
    // A lexer that fails on a quote leaves the bare quote as the whole error.
    if is_quote(trimmed) && trimmed.chars().all(|c| trimmed.starts_with(c)) {
        let rest_of_line = text[node.end_byte()..].lines().next().unwrap_or_default();
        if !rest_of_line.contains(trimmed) {
            let message = format!("unclosed string: no closing `{trimmed}`");
            return token(node.start_byte(), message);
        }
    }
    if trimmed.lines().count() <= 1 {
        return token(
            node.start_byte(),
            format!("unexpected `{}`", quote(snippet)),
        );
    }
    // Complete pieces the parser could not join with what comes next (two
    // JSON members without a comma, a YAML key indented wrongly): the text
    // after them is where the reader should look.
    if unclosed.is_empty()
        && let Some(last) = node.named_child(node.named_child_count().saturating_sub(1) as u32)
        && !last.has_error()
        && last.end_byte() == node.end_byte()
        && let Some(next) = next_text(text, node.end_byte())
    {
        let last_text = text[last.byte_range()].trim_end();
        let last_line = last_text.lines().last().unwrap_or_default();
        let message = format!(
            "`{}` cannot follow `{}`",
            quote(&text[next..]),
            quote(last_line)
        );
        return token(next, message);
    }
    // A region the parser gave up on as a whole often holds the place where
    // it first went wrong: report that, keeping the region for the gate.
    if let Some(inner) = first_inner_error(node) {
        let (error, _) = describe_error(language, inner, text, index);
        return (error, Pinned::Region);
    }
    let first = trimmed.lines().next().unwrap_or_default();
    let last = trimmed.lines().last().unwrap_or_default();
    let message = format!(
        "cannot parse lines {}-{} (from `{}` to `{}`)",
        node.start_position().row + 1,
        node.end_position().row + 1,
        quote(first),
        quote(last)
    );
    (
        locate(node.start_byte(), ErrorKind::Error, message, text, index),
        Pinned::Region,
    )
}

/// The first error node inside `node`, in document order. A loop with a
/// stack of its own, not recursion: a tree can nest as deep as its text.
fn first_inner_error(node: Node) -> Option<Node> {
    let mut cursor = node.walk();
    let mut stack: Vec<Node> = node.children(&mut cursor).collect();
    stack.reverse();
    while let Some(child) = stack.pop() {
        if child.is_error() {
            return Some(child);
        }
        if child.has_error() {
            let at = stack.len();
            stack.extend(child.children(&mut cursor));
            stack[at..].reverse();
        }
    }
    None
}

/// Python keywords that open a block with a header ending in `:`.
const HEADERS: [&str; 13] = [
    "def", "class", "if", "elif", "else", "for", "while", "with", "try", "except", "finally",
    "async", "match",
];

/// A Python block header the parser gave up on for want of its colon: the
/// offset just after its last token on its first line, and its text.
fn header_without_colon<'t>(node: Node, text: &'t str) -> Option<(usize, &'t str)> {
    let mut cursor = node.walk();
    let children: Vec<Node> = node.children(&mut cursor).collect();
    let first = children.first()?;
    if !HEADERS.contains(&first.kind()) || children.iter().any(|c| c.kind() == ":") {
        return None;
    }
    let row = first.start_position().row;
    let end = children
        .iter()
        .take_while(|c| c.start_position().row == row)
        .map(|c| c.end_byte())
        .max()?;
    Some((end, &text[first.start_byte()..end]))
}

/// Opening tokens among the error node's own tokens that have no closing
/// partner there, outermost first: the `{` of a block whose `}` was deleted,
/// the `"` of a string that never ends.
fn unclosed_children<'t>(language: Language, node: Node<'t>) -> Vec<Node<'t>> {
    let mut cursor = node.walk();
    let tokens: Vec<Node> = node
        .children(&mut cursor)
        .filter(|child| !child.is_named() && !child.is_missing())
        .collect();
    unpaired(language, tokens.iter().map(|token| token.kind()))
        .into_iter()
        .map(|at| tokens[at])
        .collect()
}

/// Which of `tokens` open something that no later token closes, by their
/// places, outermost first. A closer closes the innermost open token it
/// belongs to, and with it every token opened since.
///
/// Each kind of closer keeps the places of its open tokens, so a closer
/// finds its opener without looking at the others: an error node can hold
/// tens of thousands of unclosed brackets, and searching all of them for
/// every token took seconds.
fn unpaired<'a>(language: Language, tokens: impl Iterator<Item = &'a str>) -> Vec<usize> {
    // Places (in `tokens`) of the open tokens, outermost first.
    let mut open: Vec<usize> = Vec::new();
    // For each closer seen: indices into `open` of the tokens it closes,
    // innermost last.
    let mut by_closer: Vec<(&'static str, Vec<usize>)> = Vec::new();
    for (at, token) in tokens.enumerate() {
        let innermost = by_closer
            .iter()
            .find(|(closer, _)| *closer == token)
            .and_then(|(_, opened)| opened.last().copied());
        if let Some(index) = innermost {
            open.truncate(index);
            for (_, opened) in &mut by_closer {
                while opened.last().is_some_and(|&i| i >= index) {
                    opened.pop();
                }
            }
        } else if let Some(closer) = closer_for(language, token) {
            match by_closer.iter_mut().find(|(c, _)| *c == closer) {
                Some((_, opened)) => opened.push(open.len()),
                None => by_closer.push((closer, vec![open.len()])),
            }
            open.push(at);
        }
    }
    open
}

/// Checks the claim "this opener is never closed" against the text, since
/// the parser may have swallowed the closer into something else (JSX text,
/// for one): from the opener to the end of the error node, or of the
/// opener's line if that is further, no closer balances it. Brackets inside
/// strings and comments are counted too; a wrong count only means the
/// message falls back to a plainer one.
fn is_never_closed(language: Language, open: &Node, error: Node, text: &str) -> bool {
    let token = open.kind();
    let Some(closer) = closer_for(language, token) else {
        return false;
    };
    let from = open.end_byte();
    let line_end = text[from..].find('\n').map_or(text.len(), |i| from + i);
    let region = &text[from..error.end_byte().max(line_end)];
    if language == Language::Bash && token.chars().all(|c| c.is_ascii_alphabetic()) {
        // Keyword pairs (`if`/`fi`): the grammar's word is good enough.
        return true;
    }
    if is_quote(token) {
        return !region.contains(closer);
    }
    let mut depth = 0usize;
    for piece in region.split_inclusive([token.as_bytes()[0] as char, closer.as_bytes()[0] as char])
    {
        if piece.ends_with(closer) {
            if depth == 0 {
                return false;
            }
            depth -= 1;
        } else if piece.ends_with(token) {
            depth += 1;
        }
    }
    true
}

/// The offset of the first non-blank text at or after `offset`.
fn next_text(text: &str, offset: usize) -> Option<usize> {
    let rest = &text[offset..];
    let skipped = rest.len() - rest.trim_start().len();
    (skipped < rest.len()).then_some(offset + skipped)
}

/// The token that closes `token`, if `token` opens something.
fn closer_for(language: Language, token: &str) -> Option<&'static str> {
    let closer = match token {
        "{" => "}",
        "(" => ")",
        "[" => "]",
        "\"" => "\"",
        "'" => "'",
        "`" => "`",
        "\"\"\"" => "\"\"\"",
        "'''" => "'''",
        "if" if language == Language::Bash => "fi",
        "do" if language == Language::Bash => "done",
        "case" if language == Language::Bash => "esac",
        _ => return None,
    };
    Some(closer)
}

/// The opener a missing closing token would pair with.
fn opener_for(token: &str) -> Option<&'static str> {
    match token {
        "}" => Some("{"),
        ")" => Some("("),
        "]" => Some("["),
        _ => None,
    }
}

fn is_quote(token: &str) -> bool {
    token.starts_with(['"', '\'', '`'])
}

/// A grammar's node name as words: `type_identifier` → `type identifier`.
fn humanize(kind: &str) -> String {
    kind.trim_start_matches('_').replace('_', " ")
}

/// Offending text, on one line and short enough to quote.
fn quote(snippet: &str) -> String {
    let first_line = snippet.trim().lines().next().unwrap_or_default().trim();
    shorten(first_line, QUOTE_CHARS)
}

fn shorten(text: &str, max_chars: usize) -> String {
    if text.chars().count() <= max_chars {
        return text.to_string();
    }
    let kept: String = text.chars().take(max_chars - 1).collect();
    format!("{kept}…")
}

/// Builds the located error for a byte offset, clamping offsets past the last
/// line (an error at the very end of a text ending in a newline) onto it.
fn locate(
    offset: usize,
    kind: ErrorKind,
    message: String,
    text: &str,
    index: &LineIndex,
) -> SyntaxError {
    if index.is_empty() {
        return SyntaxError {
            line: 1,
            column: 1,
            kind,
            message,
            line_text: String::new(),
        };
    }
    let line = index.line_of_offset(offset.min(text.len()));
    let span = index.span(text, line);
    let line_str = &text[span.clone()];
    let within = offset.clamp(span.start, span.end) - span.start;
    let within = floor_char_boundary(line_str, within);
    let column = line_str[..within].chars().count() + 1;
    SyntaxError {
        line,
        column,
        kind,
        message,
        line_text: window(line_str, column),
    }
}

fn floor_char_boundary(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// The line, or for a long line the part around `column` with `…` where cut.
fn window(line: &str, column: usize) -> String {
    let total = line.chars().count();
    if total <= LINE_CHARS {
        return line.to_string();
    }
    let half = LINE_CHARS / 2;
    let first = column.saturating_sub(half + 1).min(total - LINE_CHARS);
    let mut out = String::new();
    if first > 0 {
        out.push('…');
    }
    out.extend(line.chars().skip(first).take(LINE_CHARS));
    if first + LINE_CHARS < total {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// [`unpaired`] as first written: every token searches all open ones.
    fn unpaired_by_search(language: Language, tokens: &[&str]) -> Vec<usize> {
        let mut open: Vec<usize> = Vec::new();
        for (at, &token) in tokens.iter().enumerate() {
            if let Some(position) = open
                .iter()
                .rposition(|&o| closer_for(language, tokens[o]) == Some(token))
            {
                open.truncate(position);
            } else if closer_for(language, token).is_some() {
                open.push(at);
            }
        }
        open
    }

    proptest! {
        #[test]
        fn unpaired_tokens_are_those_no_closer_reaches(
            tokens in proptest::collection::vec(
                prop::sample::select(vec![
                    "{", "}", "(", ")", "[", "]", "\"", "'", "`", "\"\"\"", "'''",
                    "if", "fi", "do", "done", "case", "esac", "x", ";",
                ]),
                0..60,
            ),
            bash in any::<bool>(),
        ) {
            let language = if bash { Language::Bash } else { Language::Rust };
            prop_assert_eq!(
                unpaired(language, tokens.iter().copied()),
                unpaired_by_search(language, &tokens)
            );
        }
    }

    #[test]
    fn a_closer_closes_its_innermost_opener_and_all_opened_since() {
        let tokens = ["(", "[", "{", "x", "]", "(", "\"", "\"", "{"];
        // `]` closes the `[` and the `{` inside it; the quotes pair.
        assert_eq!(unpaired(Language::Rust, tokens.into_iter()), [0, 5, 8]);
        let bash = ["if", "(", "fi", "do", "case"];
        assert_eq!(unpaired(Language::Bash, bash.into_iter()), [3, 4]);
        assert_eq!(unpaired(Language::Rust, bash.into_iter()), [1]);
    }

    #[test]
    fn a_missing_closer_deep_in_the_tree_names_its_opener() {
        // 300 levels, each a bracket left open after an annotation: the
        // parser's missing `]`s sit hundreds of nodes deep, and each names
        // the `[` that its parent node opens with.
        let text: String = (0..300)
            .map(|i| format!("{}a:[\n", " ".repeat(i)))
            .collect();
        let report = parse(Language::Python, &text).unwrap();
        assert_eq!(report.error_count, 300);
        let listed: Vec<(usize, String)> = report
            .errors
            .into_iter()
            .map(|e| (e.line, e.message))
            .collect();
        let expected: Vec<(usize, String)> = (2..=6)
            .map(|line| {
                let opener = line - 1;
                (
                    line,
                    format!("missing `]` to close the `[` on line {opener}"),
                )
            })
            .collect();
        assert_eq!(listed, expected);
    }

    #[test]
    fn thousands_of_unclosed_brackets_name_an_unclosed_one() {
        // Each line opens 2,000 brackets, so the parser's error nodes hold
        // tens of thousands of them (the search for each token's opener
        // went through them all, for seconds).
        let text: String = (0..16)
            .map(|i| format!("{}{}if x:(\n", " ".repeat(i), "[".repeat(2000)))
            .collect();
        let report = parse(Language::Python, &text).unwrap();
        assert!(report.error_count > 0);
        assert!(
            report.errors[0].message.starts_with("unclosed `"),
            "{}",
            report.errors[0].message
        );
    }

    fn errors(language: Language, text: &str) -> Vec<SyntaxError> {
        parse(language, text).unwrap().errors
    }

    fn first(language: Language, text: &str) -> (usize, usize, ErrorKind, String) {
        let error = errors(language, text).into_iter().next().expect("an error");
        (error.line, error.column, error.kind, error.message)
    }

    #[test]
    fn valid_text_and_empty_text_are_clean() {
        let report = parse(Language::Rust, "fn main() {}\n").unwrap();
        assert!(report.is_clean());
        assert_eq!(report.errors, vec![]);
        for language in Language::ALL {
            assert!(parse(language, "").unwrap().is_clean(), "{language}");
        }
    }

    #[test]
    fn a_missing_token_is_named() {
        assert_eq!(
            first(
                Language::C,
                "int main(void) {\n    int x = 1\n    return x;\n}\n"
            ),
            (2, 14, ErrorKind::Missing, "missing `;`".to_string())
        );
        // Named missing nodes read as words.
        assert_eq!(
            first(Language::JavaScript, "function f(a) {\n  return a +;\n}\n"),
            (2, 13, ErrorKind::Missing, "missing identifier".to_string())
        );
    }

    #[test]
    fn a_missing_closer_names_its_opener() {
        assert_eq!(
            first(
                Language::Go,
                "package main\n\nfunc main() {\n\tif true {\n\t}\n"
            ),
            (
                5,
                3,
                ErrorKind::Missing,
                "missing `}` to close the `{` on line 3".to_string()
            )
        );
    }

    #[test]
    fn unclosed_brackets_and_strings_point_at_the_opener() {
        assert_eq!(
            first(Language::Python, "def f(x):\n    return (1,\n"),
            (
                2,
                12,
                ErrorKind::Error,
                "unclosed `(`: no matching `)`".to_string()
            )
        );
        assert_eq!(
            first(Language::Rust, "fn main() {\n    let s = \"abc;\n}\n"),
            (
                2,
                13,
                ErrorKind::Error,
                "unclosed string: no closing `\"`".to_string()
            )
        );
        // The shell grammar sometimes inserts the `fi` instead, depending on
        // what follows.
        assert_eq!(
            first(Language::Bash, "if [ -f x ]; then\n  echo hi"),
            (
                1,
                1,
                ErrorKind::Error,
                "unclosed `if`: no matching `fi`".to_string()
            )
        );
        assert_eq!(
            first(Language::Bash, "if [ -f x ]; then\n  echo hi\n"),
            (2, 10, ErrorKind::Missing, "missing `fi`".to_string())
        );
    }

    #[test]
    fn an_opener_closed_in_the_text_is_not_called_unclosed() {
        // The mismatched JSX tags make the parser give up on the whole
        // `return ( ... )`, though the text does close the parenthesis.
        let text = "function C() {\n  return (\n    <div>\n      <b>x\n    </div>\n  );\n}\n";
        assert_eq!(
            first(Language::JavaScript, text).3,
            "cannot parse lines 2-7 (from `return (` to `);`)"
        );
    }

    #[test]
    fn a_python_error_is_reported_where_it_is() {
        let text = "import os\n\n\ndef one():\n    return 1\n\n\ndef other()\n    y = 2\n    return y\n\n\ndef three():\n    return 3\n";
        assert_eq!(
            first(Language::Python, text),
            (
                8,
                12,
                ErrorKind::Error,
                "expected `:` after `def other()`".to_string()
            )
        );
        let text = "x = 1\n\nclass A(B)\n    pass\n";
        assert_eq!(
            first(Language::Python, text).3,
            "expected `:` after `class A(B)`"
        );
    }

    #[test]
    fn stray_text_is_quoted() {
        assert_eq!(
            first(Language::Rust, "fn main() {\n    foo(1, 2));\n}\n"),
            (2, 14, ErrorKind::Error, "unexpected `)`".to_string())
        );
        assert_eq!(
            first(Language::Css, "a { color: red; }}\n").3,
            "unexpected `}`"
        );
    }

    #[test]
    fn pieces_that_cannot_be_joined_point_at_what_follows() {
        assert_eq!(
            first(
                Language::Json,
                "{\n  \"a\": 1,\n  \"b\": 2\n  \"c\": 3\n}\n"
            ),
            (
                4,
                3,
                ErrorKind::Error,
                "`\"c\": 3` cannot follow `\"b\": 2`".to_string()
            )
        );
    }

    #[test]
    fn columns_count_characters_and_lines_drop_their_ending() {
        let text = "fn main() {\r\n    let s = \"é→\"; foo(1));\r\n}\r\n";
        let error = &errors(Language::Rust, text)[0];
        assert_eq!((error.line, error.column), (2, 25));
        assert_eq!(error.line_text, "    let s = \"é→\"; foo(1));");
    }

    #[test]
    fn long_lines_are_cut_around_the_error() {
        let text = format!("[{}1,, 2{}]\n", "1, ".repeat(200), ", 3".repeat(100));
        let error = &errors(Language::Json, &text)[0];
        assert_eq!((error.line, error.column), (1, 604));
        assert_eq!(error.message, "unexpected `,`");
        assert_eq!(error.line_text.chars().count(), LINE_CHARS + 2);
        assert!(error.line_text.starts_with('…') && error.line_text.ends_with('…'));
        assert!(error.line_text.contains("1,, 2"));
    }

    #[test]
    fn long_offending_text_is_shortened() {
        let text = "fn main() {\n    foo(1, 2)) + a_very_long_identifier_that_goes_on_and_on;\n}\n";
        let messages: Vec<String> = errors(Language::Rust, text)
            .into_iter()
            .map(|e| e.message)
            .collect();
        assert!(
            messages
                .iter()
                .all(|m| m.chars().count() <= QUOTE_CHARS + 20),
            "{messages:?}"
        );
    }

    #[test]
    fn reports_list_a_few_and_count_all() {
        let text: String = (0..12)
            .map(|i| format!("int f{i}(void) {{ return {i} }}\n"))
            .collect();
        let report = parse(Language::C, &text).unwrap();
        assert_eq!(report.error_count, 12);
        assert_eq!(report.errors.len(), MAX_LISTED_ERRORS);
        let lines: Vec<usize> = report.errors.iter().map(|e| e.line).collect();
        assert_eq!(lines, vec![1, 2, 3, 4, 5]);
    }

    #[test]
    fn an_error_at_the_very_end_lands_on_the_last_line() {
        let report = parse(Language::Json, "{\n  \"a\": [1, 2\n").unwrap();
        let error = &report.errors[0];
        assert!(error.line <= 2, "{error:?}");
        assert_eq!(report.language, Language::Json);
    }

    #[test]
    fn reports_serialize_in_camel_case() {
        let report = parse(Language::Python, "print((1)\n").unwrap();
        assert_eq!(
            serde_json::to_value(&report).unwrap(),
            serde_json::json!({
                "language": "python",
                "errorCount": 1,
                "errors": [{
                    "line": 1,
                    "column": 6,
                    "kind": "error",
                    "message": "unclosed `(`: no matching `)`",
                    "lineText": "print((1)"
                }]
            })
        );
    }
}
