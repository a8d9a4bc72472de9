//! The lines a symbol target covers, and the line edits it makes.
//!
//! A definition's extent runs from its doc comment (the comment lines right
//! above it, with no blank line between) and its attributes or decorators to
//! its last line; its body is what lies between its braces, or a Python
//! definition's indented block. New text is re-based onto the indentation of
//! the place it goes ([`crate::text::indent::rebase`], as `preserveIndent`
//! does), with its blank lines at both ends dropped. Inserted definitions are
//! set apart by as many blank lines as separate the symbol from its
//! neighbours; a deleted one takes one run of blank lines beside it along,
//! so no double gap is left.
//!
//! ```
//! use mcp_server_text::text::document::Document;
//! use mcp_server_text::text::edit::LineEdit;
//! use mcp_server_text::text::symbol::{find, SymbolQuery};
//! use mcp_server_text::text::symbol::edit::{symbol_edit, Part, SymbolOp};
//! use mcp_server_text::text::syntax::Language;
//!
//! let text = "/// Adds.\nfn add() {\n    1\n}\n\nfn sub() {}\n";
//! let doc = Document::decode(text.as_bytes().to_vec(), None).unwrap();
//! let sym = find(Language::Rust, text, &SymbolQuery::parse("add").unwrap()).unwrap();
//! let edit = symbol_edit(&doc, Language::Rust, &sym, Part::Whole, SymbolOp::Delete, true).unwrap();
//! assert_eq!(edit.line_edit(), LineEdit::Delete { first: 1, last: 5 });
//! ```

use std::fmt;

use super::Symbol;
use crate::text::document::Document;
use crate::text::edit::{LineEdit, LineSpan};
use crate::text::indent::{common_indent, indent_of, is_blank, rebase};
use crate::text::syntax::{Language, OutlineKind};

/// Which part of a symbol a target names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// The whole definition, doc comment and attributes included.
    Whole,
    /// Its body.
    Body,
    /// The place right before it (insert only).
    Before,
}

/// What an edit does at a symbol.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SymbolOp<'c> {
    /// Replace the part with this content.
    Replace(&'c str),
    /// Insert this content after the definition, before it, or at the end
    /// of its body.
    Insert(&'c str),
    /// Remove the definition.
    Delete,
}

/// A planned symbol edit: a whole-line edit with its content owned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SymbolEdit {
    /// Replace lines `first..=last` with `content`.
    Replace {
        /// First replaced line.
        first: usize,
        /// Last replaced line.
        last: usize,
        /// The new lines, each ending in a line break.
        content: String,
    },
    /// Insert `content` before line `before`.
    Insert {
        /// The line the new lines go in front of.
        before: usize,
        /// The new lines, each ending in a line break.
        content: String,
    },
    /// Delete lines `first..=last`.
    Delete {
        /// First deleted line.
        first: usize,
        /// Last deleted line.
        last: usize,
    },
}

impl SymbolEdit {
    /// The edit as [`crate::text::edit::plan`] takes it.
    pub fn line_edit(&self) -> LineEdit<'_> {
        match self {
            SymbolEdit::Replace {
                first,
                last,
                content,
            } => LineEdit::Replace {
                first: *first,
                last: *last,
                content,
            },
            SymbolEdit::Insert { before, content } => LineEdit::Insert {
                before: *before,
                content,
            },
            SymbolEdit::Delete { first, last } => LineEdit::Delete {
                first: *first,
                last: *last,
            },
        }
    }
}

/// Why a symbol edit cannot be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SymbolEditError {
    /// The symbol has no body to read or replace.
    NoBody {
        /// The symbol.
        name: String,
        /// What it is.
        kind: OutlineKind,
    },
    /// The body sits on the definition's own line, so nothing can be
    /// inserted at its end.
    InlineBody {
        /// The symbol.
        name: String,
    },
    /// The operation does not go with that part.
    WrongOperation {
        /// The part.
        part: Part,
        /// The operation's name.
        operation: &'static str,
    },
    /// The content has no text.
    EmptyContent,
}

impl fmt::Display for SymbolEditError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SymbolEditError::NoBody { name, kind } => write!(
                f,
                "{name} ({}) has no body to read or replace",
                super::kind_name(*kind)
            ),
            SymbolEditError::InlineBody { name } => write!(
                f,
                "the body of {name} is on the line of its definition, so nothing can be inserted at its end"
            ),
            SymbolEditError::WrongOperation { part, operation } => match part {
                Part::Before => write!(
                    f,
                    "beforeSymbol is an insertion point, so it works only with operation 'insert', not '{operation}'"
                ),
                Part::Body => write!(
                    f,
                    "symbolBody works with 'replace' (the body) and 'insert' (at its end), not '{operation}'"
                ),
                Part::Whole => write!(f, "the symbol target cannot be used with '{operation}'"),
            },
            SymbolEditError::EmptyContent => {
                f.write_str("content has only blank lines, so there is nothing to put there")
            }
        }
    }
}

impl std::error::Error for SymbolEditError {}

/// The lines of a symbol: its doc comment through its last line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Extent {
    /// First line, doc comment included.
    pub first: usize,
    /// Last line.
    pub last: usize,
}

/// A symbol's body, as lines.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Body {
    /// Whole lines `first..=last` (empty when `last < first`: only the
    /// braces, on two lines), indented by `indent`.
    Lines {
        first: usize,
        last: usize,
        indent: String,
        /// Where content inserted at the body's end goes.
        end: usize,
    },
    /// On the lines `open..=close` with other text: `head` is the text up
    /// to the body's start, `tail` from its end.
    Inline {
        open: usize,
        close: usize,
        head: String,
        tail: String,
        indent: String,
    },
}

/// The lines a read of `part` of `symbol` covers.
pub fn symbol_lines(
    doc: &Document,
    language: Language,
    symbol: &Symbol,
    part: Part,
) -> Result<LineSpan, SymbolEditError> {
    match part {
        Part::Whole | Part::Before => {
            let e = extent(doc, language, symbol);
            Ok(LineSpan::new(e.first, e.last))
        }
        Part::Body => match body(doc, language, symbol)? {
            Body::Lines { first, last, .. } => Ok(LineSpan::new(first, last)),
            Body::Inline { open, close, .. } => Ok(LineSpan::new(open, close)),
        },
    }
}

/// The extent of `symbol`: its doc comment, attributes and definition.
pub fn extent(doc: &Document, language: Language, symbol: &Symbol) -> Extent {
    let mut first = symbol.start_line;
    let mut k = first;
    while k > 1 {
        let line = doc.line(k - 1).trim();
        if line.is_empty() {
            break;
        }
        if is_line_comment(language, line) || is_attribute(language, line) {
            k -= 1;
            first = k;
            continue;
        }
        if block_comments(language) && line.ends_with("*/") {
            let opening = (1..k)
                .rev()
                .take(500)
                .find(|&j| doc.line(j).trim_start().starts_with("/*"));
            match opening {
                Some(j) if !doc.line(j).trim_start().starts_with("/*!") => {
                    k = j;
                    first = j;
                    continue;
                }
                _ => break,
            }
        }
        break;
    }
    Extent {
        first,
        last: symbol.end_line,
    }
}

fn is_line_comment(language: Language, line: &str) -> bool {
    match language {
        Language::Rust => line.starts_with("//") && !line.starts_with("//!"),
        Language::C
        | Language::Cpp
        | Language::Java
        | Language::JavaScript
        | Language::TypeScript
        | Language::Tsx
        | Language::Go => line.starts_with("//"),
        Language::Css => line.starts_with("/*") && line.ends_with("*/"),
        Language::Python | Language::Bash | Language::Yaml | Language::Toml => {
            line.starts_with('#') && !line.starts_with("#!")
        }
        Language::Html => line.starts_with("<!--") && line.ends_with("-->"),
        Language::Json => false,
    }
}

fn block_comments(language: Language) -> bool {
    matches!(
        language,
        Language::Rust
            | Language::C
            | Language::Cpp
            | Language::Java
            | Language::JavaScript
            | Language::TypeScript
            | Language::Tsx
            | Language::Go
            | Language::Css
    )
}

/// A one-line attribute or decorator above a definition.
fn is_attribute(language: Language, line: &str) -> bool {
    match language {
        Language::Rust => line.starts_with("#[") && line.ends_with(']'),
        Language::Python
        | Language::Java
        | Language::TypeScript
        | Language::Tsx
        | Language::JavaScript => line.starts_with('@'),
        _ => false,
    }
}

/// Kinds whose body a target may name.
fn has_body_kind(kind: OutlineKind) -> bool {
    !matches!(
        kind,
        OutlineKind::Const
            | OutlineKind::Static
            | OutlineKind::Key
            | OutlineKind::Type
            | OutlineKind::Macro
            | OutlineKind::Prototype
            | OutlineKind::Document
            | OutlineKind::Heading
    )
}

/// The body of `symbol`, as lines.
fn body(doc: &Document, language: Language, symbol: &Symbol) -> Result<Body, SymbolEditError> {
    let no_body = || SymbolEditError::NoBody {
        name: symbol.name.clone(),
        kind: symbol.kind,
    };
    let range = symbol
        .body
        .clone()
        .filter(|_| has_body_kind(symbol.kind))
        .ok_or_else(no_body)?;
    let text = doc.text();
    let lines = doc.lines();
    let own = &text[range.clone()];
    let sym_indent = indent_of(doc.line(symbol.start_line)).to_string();
    if own.trim_end().ends_with('}') && own.contains('{') {
        let open = range.start + own.find('{').expect("a brace");
        let close = range.start + own.trim_end().len() - 1;
        let open_line = lines.line_of_offset(open);
        let close_line = lines.line_of_offset(close);
        let after_open = &text[open + 1..lines.span(text, open_line).end];
        let before_close = &text[lines.start(close_line)..close];
        if open_line < close_line && after_open.trim().is_empty() && before_close.trim().is_empty()
        {
            let (first, last) = (open_line + 1, close_line - 1);
            let indent = inner_indent(doc, first, last, &sym_indent);
            return Ok(Body::Lines {
                first,
                last,
                indent,
                end: close_line,
            });
        }
        return Ok(Body::Inline {
            open: open_line,
            close: close_line,
            head: text[lines.start(open_line)..=open].to_string(),
            tail: text[close..lines.span(text, close_line).end].to_string(),
            indent: format!("{sym_indent}{}", unit(doc, &sym_indent)),
        });
    }
    if language != Language::Python {
        return Err(no_body());
    }
    let first = lines.line_of_offset(range.start);
    let last = lines.line_of_offset(range.end.saturating_sub(1).max(range.start));
    let head_end = lines.start(first);
    let before = &text[head_end..range.start];
    if before.trim().is_empty() && first > symbol.start_line {
        let indent = indent_of(doc.line(first)).to_string();
        // Comments that open the block belong to it; the parser starts the
        // block at its first statement.
        let first = (symbol.start_line + 1..first)
            .rev()
            .take_while(|&k| {
                let line = doc.line(k);
                indent_of(line) == indent && line.trim_start().starts_with('#')
            })
            .last()
            .unwrap_or(first);
        return Ok(Body::Lines {
            first,
            last,
            indent,
            end: last + 1,
        });
    }
    Ok(Body::Inline {
        open: first,
        close: last,
        head: before.trim_end().to_string(),
        tail: text[range.end..lines.span(text, last).end].to_string(),
        indent: format!("{sym_indent}{}", unit(doc, &sym_indent)),
    })
}

/// The indentation of a body's lines: their common one, or one unit
/// deeper than the definition when they are blank.
fn inner_indent(doc: &Document, first: usize, last: usize, sym_indent: &str) -> String {
    let nonblank: Vec<&str> = (first..=last)
        .map(|k| doc.line(k))
        .filter(|l| !is_blank(l))
        .collect();
    if nonblank.is_empty() {
        format!("{sym_indent}{}", unit(doc, sym_indent))
    } else {
        common_indent(nonblank).to_string()
    }
}

/// One level of indentation in `doc`: a tab where the definition is
/// indented with tabs or the file indents with them, else the smallest
/// indentation of its lines (4 spaces when none is indented).
fn unit(doc: &Document, sym_indent: &str) -> String {
    if sym_indent.contains('\t') {
        return "\t".into();
    }
    let mut smallest = usize::MAX;
    for k in 1..=doc.line_count().min(2000) {
        let line = doc.line(k);
        if is_blank(line) {
            continue;
        }
        let indent = indent_of(line);
        if indent.starts_with('\t') {
            return "\t".into();
        }
        if !indent.is_empty() {
            smallest = smallest.min(indent.len());
        }
    }
    " ".repeat(if (2..=8).contains(&smallest) {
        smallest
    } else {
        4
    })
}

/// Blank lines right after line `n`, and whether a sibling follows them
/// (not a closing bracket, not the end of the file).
fn gap_after(doc: &Document, n: usize) -> (usize, bool) {
    let count = doc.line_count();
    let blanks = (n + 1..=count)
        .take_while(|&k| is_blank(doc.line(k)))
        .count();
    let next = n + blanks + 1;
    (blanks, next <= count && !is_closer(doc.line(next)))
}

/// Blank lines right before line `n`, and whether a sibling precedes them
/// (not an opening bracket or a block's header).
fn gap_before(doc: &Document, n: usize) -> (usize, bool) {
    let blanks = (1..n).rev().take_while(|&k| is_blank(doc.line(k))).count();
    let prev = n - blanks - 1;
    (blanks, prev >= 1 && !is_opener(doc.line(prev)))
}

fn is_closer(line: &str) -> bool {
    let t = line.trim();
    t.starts_with(['}', ')', ']']) || t == "end" || t == "fi" || t == "esac"
}

fn is_opener(line: &str) -> bool {
    let t = line.trim_end();
    t.ends_with(['{', '(', '[', ':'])
}

/// How many blank lines set a definition apart from its siblings here.
fn spacing(doc: &Document, extent: Extent) -> usize {
    match (gap_after(doc, extent.last), gap_before(doc, extent.first)) {
        ((after, true), _) => after,
        (_, (before, true)) => before,
        _ => usize::from(extent.last > extent.first),
    }
}

/// `content` without blank lines at either end, re-based onto `indent`
/// (when given), as lines.
fn lines_of(content: &str, indent: Option<&str>) -> Result<Vec<String>, SymbolEditError> {
    let lines: Vec<&str> = content
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    let first = lines.iter().position(|l| !is_blank(l));
    let last = lines.iter().rposition(|l| !is_blank(l));
    let (Some(first), Some(last)) = (first, last) else {
        return Err(SymbolEditError::EmptyContent);
    };
    let trimmed = lines[first..=last].join("\n");
    let placed = match indent {
        Some(indent) => rebase(&trimmed, indent),
        None => trimmed,
    };
    Ok(placed.split('\n').map(str::to_string).collect())
}

/// Lines as edit content: joined, with a final line break so an empty last
/// line stays a line.
fn content_of(lines: &[String]) -> String {
    let mut text = lines.join("\n");
    text.push('\n');
    text
}

/// Plans `op` on `part` of `symbol` in `doc`; with `reindent`, new text
/// is re-based onto the indentation of where it goes.
pub fn symbol_edit(
    doc: &Document,
    language: Language,
    symbol: &Symbol,
    part: Part,
    op: SymbolOp<'_>,
    reindent: bool,
) -> Result<SymbolEdit, SymbolEditError> {
    let ext = extent(doc, language, symbol);
    let own_indent = indent_of(doc.line(symbol.start_line)).to_string();
    let sym_indent = reindent.then_some(own_indent.as_str());
    let wrong = |operation| SymbolEditError::WrongOperation { part, operation };
    let edit = match (part, op) {
        (Part::Whole, SymbolOp::Replace(content)) => SymbolEdit::Replace {
            first: ext.first,
            last: ext.last,
            content: content_of(&lines_of(content, sym_indent)?),
        },
        (Part::Whole, SymbolOp::Delete) => {
            let (after, sibling_after) = gap_after(doc, ext.last);
            let (before, sibling_before) = gap_before(doc, ext.first);
            let (first, last) = if after > 0 && sibling_after {
                (ext.first, ext.last + after)
            } else if before > 0 && (sibling_before || !sibling_after) {
                (ext.first - before, ext.last)
            } else {
                (ext.first, ext.last)
            };
            SymbolEdit::Delete { first, last }
        }
        (Part::Whole, SymbolOp::Insert(content)) => {
            let mut lines = vec![String::new(); spacing(doc, ext)];
            lines.extend(lines_of(content, sym_indent)?);
            SymbolEdit::Insert {
                before: ext.last + 1,
                content: content_of(&lines),
            }
        }
        (Part::Before, SymbolOp::Insert(content)) => {
            let mut lines = lines_of(content, sym_indent)?;
            lines.extend(vec![String::new(); spacing(doc, ext)]);
            SymbolEdit::Insert {
                before: ext.first,
                content: content_of(&lines),
            }
        }
        (Part::Before, SymbolOp::Replace(_)) => return Err(wrong("replace")),
        (Part::Before | Part::Body, SymbolOp::Delete) => return Err(wrong("delete")),
        (Part::Body, op) => return body_edit(doc, language, symbol, op, reindent),
    };
    Ok(edit)
}

/// Replacing a body, or inserting at its end.
fn body_edit(
    doc: &Document,
    language: Language,
    symbol: &Symbol,
    op: SymbolOp<'_>,
    reindent: bool,
) -> Result<SymbolEdit, SymbolEditError> {
    let sym_indent = indent_of(doc.line(symbol.start_line)).to_string();
    let to = |indent: &str| reindent.then(|| indent.to_string());
    let edit = match (body(doc, language, symbol)?, op) {
        (
            Body::Lines {
                first,
                last,
                indent,
                end,
            },
            SymbolOp::Replace(content),
        ) => {
            let lines = lines_of(content, to(&indent).as_deref())?;
            if last >= first {
                SymbolEdit::Replace {
                    first,
                    last,
                    content: content_of(&lines),
                }
            } else {
                SymbolEdit::Insert {
                    before: end,
                    content: content_of(&lines),
                }
            }
        }
        (
            Body::Inline {
                open,
                close,
                head,
                tail,
                indent,
            },
            SymbolOp::Replace(content),
        ) => {
            let mut lines = vec![head.trim_end().to_string()];
            lines.extend(lines_of(content, to(&indent).as_deref())?);
            let tail = tail.trim();
            if !tail.is_empty() {
                if tail.starts_with(['}', ')', ']']) {
                    lines.push(format!("{sym_indent}{tail}"));
                } else {
                    let head = lines[0].clone();
                    lines[0] = format!("{head} {tail}");
                }
            }
            SymbolEdit::Replace {
                first: open,
                last: close,
                content: content_of(&lines),
            }
        }
        (
            Body::Lines {
                first,
                last,
                indent,
                end,
            },
            SymbolOp::Insert(content),
        ) => {
            let has_text = last >= first && (first..=last).any(|k| !is_blank(doc.line(k)));
            let gap = match symbol.children.last() {
                Some(&(start, _)) if has_text => (1..start)
                    .rev()
                    .take_while(|&k| is_blank(doc.line(k)))
                    .count(),
                _ => 0,
            };
            let mut lines = vec![String::new(); gap];
            lines.extend(lines_of(content, to(&indent).as_deref())?);
            SymbolEdit::Insert {
                before: end,
                content: content_of(&lines),
            }
        }
        (Body::Inline { .. }, SymbolOp::Insert(_)) => {
            return Err(SymbolEditError::InlineBody {
                name: symbol.name.clone(),
            });
        }
        (_, SymbolOp::Delete) => {
            return Err(SymbolEditError::WrongOperation {
                part: Part::Body,
                operation: "delete",
            });
        }
    };
    Ok(edit)
}
