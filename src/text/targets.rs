//! Target resolution: turning "the `## Setup` section", "code block 2" or
//! "lines 5–9" into the exact lines a read returns or an edit changes.
//!
//! Reads and edits resolve the same target differently on purpose: reading a
//! heading returns its whole section (children included); replacing a heading
//! replaces the heading line(s) only; `appendToSection` and `beforeHeading`
//! are insertion points and cannot be replaced or deleted.
//!
//! ```
//! use mcp_server_text::text::document::Document;
//! use mcp_server_text::text::markdown;
//! use mcp_server_text::text::targets::{resolve_edit, EditSite, Operation, Target};
//!
//! let doc = Document::decode(b"# A\n\ntext\n\n# B\n".to_vec(), None).unwrap();
//! let outline = markdown::parse(doc.text());
//! let site = resolve_edit(&doc, Some(&outline), &Target::AppendToSection("# A".into()), Operation::Insert).unwrap();
//! assert_eq!(site.site, EditSite::InsertBefore(4));
//! ```

use std::fmt;

use super::document::Document;
use super::edit::LineSpan;
use super::indent::{common_indent, indent_of, is_blank};
use super::markdown::{self, HeadingLookupError, MarkdownOutline};
use super::plain::{self, PlainOutline};

/// Where a read or an edit applies, as an agent names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// Lines `start..=end` (1-based); `end` may be left out when reading.
    Lines {
        /// First line.
        start: usize,
        /// Last line.
        end: Option<usize>,
    },
    /// A Markdown heading such as `## Installation`.
    Heading(String),
    /// The position just before a heading (insert only).
    BeforeHeading(String),
    /// The end of a heading's section, after its subsections (insert only).
    AppendToSection(String),
    /// The content of the Nth fenced code block (0-based).
    CodeBlock {
        /// 0-based index in document order.
        index: usize,
    },
    /// A heading's slug, a `{#id}` or an `<a id>` (read only).
    Anchor(String),
    /// An INI-style `[section]` (read only).
    Section(String),
    /// The paragraph or list item marked `^id` (the id without `^`).
    Block(String),
    /// A definition in a source file (see [`super::symbol`]): its name and
    /// which part of it.
    Symbol {
        /// The query, e.g. `Calc.add` or `fn main`.
        query: String,
        /// The whole definition, its body, or the place before it.
        part: SymbolPart,
    },
}

pub use super::symbol::edit::Part as SymbolPart;

impl Target {
    /// Whether resolving the target needs a Markdown outline (all but lines
    /// and INI sections), so callers parse the document only when it does.
    pub fn needs_outline(&self) -> bool {
        !matches!(
            self,
            Target::Lines { .. } | Target::Section(_) | Target::Symbol { .. }
        )
    }

    /// Whether resolving the target needs slugs and anchors too (only anchor
    /// targets), beyond headings, sections and code blocks.
    pub fn needs_anchors(&self) -> bool {
        matches!(self, Target::Anchor(_))
    }

    /// The target's name as agents write it.
    pub fn kind(&self) -> &'static str {
        match self {
            Target::Lines { .. } => "lines",
            Target::Heading(_) => "heading",
            Target::BeforeHeading(_) => "beforeHeading",
            Target::AppendToSection(_) => "appendToSection",
            Target::CodeBlock { .. } => "codeBlock",
            Target::Anchor(_) => "anchor",
            Target::Section(_) => "section",
            Target::Block(_) => "block",
            Target::Symbol { part, .. } => match part {
                SymbolPart::Whole => "symbol",
                SymbolPart::Body => "symbolBody",
                SymbolPart::Before => "beforeSymbol",
            },
        }
    }
}

/// What an edit does at its target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operation {
    /// Replace the targeted lines.
    Replace,
    /// Insert new lines at the target.
    Insert,
    /// Remove the targeted lines.
    Delete,
}

impl Operation {
    /// The operation's name.
    pub fn name(self) -> &'static str {
        match self {
            Operation::Replace => "replace",
            Operation::Insert => "insert",
            Operation::Delete => "delete",
        }
    }
}

/// The lines a read returns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadRange {
    /// The lines (empty for an empty code block).
    pub span: LineSpan,
    /// The code block's language, for codeBlock targets.
    pub language: Option<String>,
    /// A note about how the range was chosen (e.g. clamped to the file's end).
    pub note: Option<String>,
}

/// Where an edit applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EditSite {
    /// Lines `first..=last` are replaced or deleted.
    Lines {
        /// First line.
        first: usize,
        /// Last line.
        last: usize,
    },
    /// New lines go in front of this line (`line_count + 1` appends).
    InsertBefore(usize),
    /// Nothing changes; the position is this line (deleting what is already
    /// empty).
    Nothing(usize),
}

/// A resolved edit site, with how `preserveIndent` applies there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedEdit {
    /// The lines or position.
    pub site: EditSite,
    /// The indentation new content is re-based onto with `preserveIndent`, or
    /// `None` when content goes in exactly as given.
    pub indent: IndentRule,
    /// A remark for the response, e.g. what a heading delete leaves behind.
    pub note: Option<String>,
}

/// How `preserveIndent` treats new content at an edit site.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IndentRule {
    /// Insert content exactly as given.
    AsGiven,
    /// Re-base the content's common indentation onto this.
    Rebase(String),
    /// Re-base only unindented content onto this (inserts).
    RebaseIfFlush(String),
}

/// Why a target could not be resolved.
#[derive(Debug, Clone, PartialEq)]
pub enum TargetError {
    /// The heading was not found or is ambiguous.
    Heading(HeadingLookupError),
    /// A Markdown target on a file that is not Markdown.
    NotMarkdown {
        /// The target's kind.
        kind: &'static str,
    },
    /// An INI section target on a Markdown file.
    SectionInMarkdown,
    /// No such INI section.
    Section(plain::SectionLookupError),
    /// The code block index is past the last block.
    CodeBlockOutOfRange {
        /// The index asked for.
        index: usize,
        /// `(index, language, first line)` of every block.
        blocks: Vec<(usize, Option<String>, usize)>,
    },
    /// No anchor with that id.
    AnchorNotFound {
        /// The id asked for.
        id: String,
        /// Similar anchor ids.
        nearest: Vec<String>,
    },
    /// A line number past the end of the file.
    LineOutOfRange {
        /// The line asked for.
        line: usize,
        /// Lines in the file.
        line_count: usize,
        /// Whether `line_count + 1` is allowed (inserting at the end).
        allow_append: bool,
    },
    /// `end` is required for this use of a lines target.
    LinesNeedEnd,
    /// No block has that id.
    BlockNotFound {
        /// The id asked for.
        id: String,
        /// The ids the file has.
        ids: Vec<String>,
    },
    /// A code block inside a list item or block quote, whose lines carry the
    /// container's indentation or `>` markers.
    NestedCodeBlock {
        /// The block's index.
        index: usize,
        /// Its content lines, if any.
        lines: Option<(usize, usize)>,
    },
    /// A symbol target on a file without a parser.
    NotSource,
    /// The operation cannot be used with this target.
    WrongOperation {
        /// The target's kind.
        kind: &'static str,
        /// The operation.
        operation: Operation,
    },
}

impl fmt::Display for TargetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TargetError::Heading(e) => e.fmt(f),
            TargetError::NotMarkdown { kind } => write!(
                f,
                "the {kind} target works only in Markdown files (.md, .markdown, .mdx)"
            ),
            TargetError::SectionInMarkdown => f.write_str(
                "the section target is for INI-style [sections] in plain-text files; this is a Markdown file",
            ),
            TargetError::Section(e) => e.fmt(f),
            TargetError::CodeBlockOutOfRange { index, blocks } => {
                if blocks.is_empty() {
                    write!(f, "code block {index} does not exist: the file has no fenced code blocks")
                } else {
                    write!(
                        f,
                        "code block {index} does not exist: the file has {} code block{} (index 0 to {})",
                        blocks.len(),
                        if blocks.len() == 1 { "" } else { "s" },
                        blocks.len() - 1
                    )
                }
            }
            TargetError::AnchorNotFound { id, .. } => {
                write!(f, "anchor '{}' was not found", super::excerpt::brief(id))
            }
            TargetError::LineOutOfRange {
                line,
                line_count,
                allow_append,
            } => {
                if *allow_append {
                    write!(
                        f,
                        "line {line} is out of range: the file has {line_count} lines, so insert before a line from 1 to {} ({} appends at the end)",
                        line_count + 1,
                        line_count + 1
                    )
                } else {
                    write!(f, "line {line} is out of range: the file has {line_count} lines")
                }
            }
            TargetError::LinesNeedEnd => f.write_str(
                "the lines target needs both start and end for replace and delete",
            ),
            TargetError::BlockNotFound { id, ids } if ids.is_empty() => write!(
                f,
                "block '^{}' was not found: the file has no block ids",
                super::excerpt::brief(id)
            ),
            TargetError::BlockNotFound { id, ids } => write!(
                f,
                "block '^{}' was not found; the file's block ids: {}",
                super::excerpt::brief(id),
                ids.iter().take(20).map(|i| format!("^{i}")).collect::<Vec<_>>().join(", ")
            ),
            TargetError::NestedCodeBlock { index, .. } => write!(
                f,
                "code block {index} sits inside a list item or block quote, so its lines carry the container's indentation or '>' markers and cannot be replaced as plain content"
            ),
            TargetError::NotSource => f.write_str(
                "symbol targets work only in source files of a language with a built-in parser (Rust, Python, Go, JavaScript, TypeScript, C, C++, Java, Bash, JSON, YAML, TOML, HTML, CSS)",
            ),
            TargetError::WrongOperation { kind, operation } => match kind {
                &"appendToSection" | &"beforeHeading" => write!(
                    f,
                    "{kind} is an insertion point, so it works only with operation 'insert', not '{}'",
                    operation.name()
                ),
                _ => write!(f, "the {kind} target cannot be used with operation '{}'", operation.name()),
            },
        }
    }
}

impl std::error::Error for TargetError {}

impl TargetError {
    /// What the caller can do next.
    pub fn suggestions(&self) -> Vec<String> {
        match self {
            TargetError::Heading(e) => e.suggestions(),
            TargetError::NotMarkdown { .. } => vec![
                "Use a lines target {\"start\": N, \"end\": M}; TextInspect shows the file's structure and line numbers".into(),
            ],
            TargetError::SectionInMarkdown => {
                vec!["Use heading \"## Title\" to read a Markdown section".into()]
            }
            TargetError::Section(e) => e.suggestions(),
            TargetError::CodeBlockOutOfRange { blocks, .. } => {
                let mut s: Vec<String> = blocks
                    .iter()
                    .take(10)
                    .map(|(i, lang, line)| {
                        format!(
                            "codeBlock {i}: {} at line {line}",
                            lang.as_deref().unwrap_or("no language")
                        )
                    })
                    .collect();
                s.push("Use TextInspect to list the code blocks".into());
                s
            }
            TargetError::AnchorNotFound { id, nearest } => {
                let mut s: Vec<String> = Vec::new();
                let written = id.trim().trim_start_matches('#');
                if let Some(block) = written.strip_prefix('^') {
                    s.push(format!(
                        "'^{}' is a block id, not an anchor: use target {{\"block\": \"^{}\"}}",
                        super::excerpt::brief(block),
                        super::excerpt::brief(block)
                    ));
                }
                s.extend(nearest.iter().map(|a| format!("Similar anchor: '{a}'")));
                s.push("Use TextInspect to see all anchors (heading slugs, {#id} and <a id>)".into());
                s
            }
            TargetError::LineOutOfRange { .. } => {
                vec!["Use TextInspect to see the file's length and structure".into()]
            }
            TargetError::LinesNeedEnd => vec![
                "Give the range as {\"lines\": {\"start\": N, \"end\": M}} (end = start for one line)".into(),
            ],
            TargetError::BlockNotFound { .. } => vec![
                "TextInspect lists the block ids; TextPatch operation 'blockId' gives a paragraph one".into(),
            ],
            TargetError::NestedCodeBlock { lines, .. } => {
                let mut s = Vec::new();
                if let Some((first, last)) = lines {
                    s.push(format!(
                        "Read lines {first}-{last} with TextRead, then edit them with a lines target, keeping the container's markers"
                    ));
                }
                s.push("Or change the text with TextReplace".into());
                s
            }
            TargetError::NotSource => vec![
                "Use a lines target; TextInspect shows the file's structure and line numbers".into(),
            ],
            TargetError::WrongOperation { kind, .. } => match *kind {
                "appendToSection" | "beforeHeading" => vec![
                    "Use operation 'insert' to add content there".into(),
                    "To replace or delete a heading line use target heading; to change a range use lines".into(),
                ],
                _ => vec!["Use a lines target for this operation".into()],
            },
        }
    }
}

fn markdown_outline<'a>(
    md: Option<&'a MarkdownOutline>,
    kind: &'static str,
) -> Result<&'a MarkdownOutline, TargetError> {
    md.ok_or(TargetError::NotMarkdown { kind })
}

/// The heading `query` names, with the remark to make when its level
/// differs from the query's.
fn heading<'a>(
    md: &'a MarkdownOutline,
    query: &str,
) -> Result<(&'a markdown::Heading, Option<String>), TargetError> {
    let found = markdown::find_heading_match(md, query).map_err(TargetError::Heading)?;
    Ok((found.heading, found.note(query)))
}

/// `first` and `second` joined into one remark.
fn join_notes(first: Option<String>, second: Option<String>) -> Option<String> {
    match (first, second) {
        (Some(a), Some(b)) => Some(format!("{a}. {b}")),
        (a, b) => a.or(b),
    }
}

fn code_block(md: &MarkdownOutline, index: usize) -> Result<&markdown::CodeBlock, TargetError> {
    md.code_block(index)
        .ok_or_else(|| TargetError::CodeBlockOutOfRange {
            index,
            blocks: md
                .code_blocks
                .iter()
                .map(|b| (b.index, b.language.clone(), b.start_line))
                .collect(),
        })
}

/// Lines a code block's content occupies, or the empty span where content
/// would go (just before the closing fence, or at the end of the document).
fn code_content_span(doc: &Document, block: &markdown::CodeBlock) -> LineSpan {
    match block.content_lines() {
        Some((first, last)) => LineSpan::new(first, last),
        None => {
            let at = if block.closed {
                block.end_line
            } else {
                doc.line_count() + 1
            };
            LineSpan::new(at, at - 1)
        }
    }
}

/// Resolves the lines a read of `target` returns.
pub fn resolve_read(
    doc: &Document,
    md: Option<&MarkdownOutline>,
    plain: Option<&PlainOutline>,
    target: &Target,
    max_lines: usize,
) -> Result<ReadRange, TargetError> {
    let count = doc.line_count();
    let range = |span: LineSpan| ReadRange {
        span,
        language: None,
        note: None,
    };
    match target {
        Target::Lines { start, end } => {
            // Line 1 of an empty file reads as nothing rather than an error.
            if *start > count && !(count == 0 && *start == 1) {
                return Err(TargetError::LineOutOfRange {
                    line: *start,
                    line_count: count,
                    allow_append: false,
                });
            }
            let wanted_end = end.unwrap_or(start + max_lines - 1);
            let last = wanted_end.min(count);
            let note = (end.is_some() && wanted_end > count)
                .then(|| format!("The file has {count} lines; the range was cut at line {count}"));
            Ok(ReadRange {
                span: LineSpan::new(*start, last),
                language: None,
                note,
            })
        }
        Target::Heading(query) => {
            let md = markdown_outline(md, "heading")?;
            let (h, note) = heading(md, query)?;
            Ok(ReadRange {
                span: LineSpan::new(h.line, h.section_end),
                language: None,
                note,
            })
        }
        Target::CodeBlock { index } => {
            let md = markdown_outline(md, "codeBlock")?;
            let block = code_block(md, *index)?;
            Ok(ReadRange {
                span: code_content_span(doc, block),
                language: block.language.clone(),
                note: None,
            })
        }
        Target::Anchor(id) => {
            let md = markdown_outline(md, "anchor")?;
            let Some(anchor) = md.find_anchor(id) else {
                return Err(TargetError::AnchorNotFound {
                    id: id.clone(),
                    nearest: nearest_anchors(md, id),
                });
            };
            // From the anchor to the line before the next heading of any level.
            // An `<a id>` just above a heading names that heading, so its
            // heading's text is included.
            let mut after = md.headings.iter().filter(|h| h.line > anchor.line);
            let mut next = after.next();
            if let Some(h) = next
                && (anchor.line + 1..h.line).all(|k| doc.line(k).trim().is_empty())
            {
                next = after.next();
            }
            let next = next.map_or(count, |h| h.line - 1);
            Ok(range(LineSpan::new(anchor.line, next.max(anchor.line))))
        }
        Target::Section(query) => {
            if md.is_some() {
                return Err(TargetError::SectionInMarkdown);
            }
            let outline;
            let plain = match plain {
                Some(p) => p,
                None => {
                    outline = plain::parse(doc.text());
                    &outline
                }
            };
            let section = plain::find_section(plain, query).map_err(TargetError::Section)?;
            Ok(range(LineSpan::new(section.line, section.end_line)))
        }
        Target::Block(id) => {
            markdown_outline(md, "block")?;
            let block = find_block(doc, id)?;
            Ok(range(LineSpan::new(block.first, block.last)))
        }
        Target::BeforeHeading(_) | Target::AppendToSection(_) => Err(TargetError::WrongOperation {
            kind: target.kind(),
            operation: Operation::Replace,
        }),
        Target::Symbol { .. } => Err(TargetError::NotSource),
    }
}

/// The block with id `id` in `doc`.
fn find_block(doc: &Document, id: &str) -> Result<markdown::BlockRef, TargetError> {
    let refs = markdown::block_refs(doc.text());
    match refs.iter().find(|b| b.id == id) {
        Some(block) => Ok(block.clone()),
        None => Err(TargetError::BlockNotFound {
            id: id.to_string(),
            ids: refs.into_iter().map(|b| b.id).collect(),
        }),
    }
}

fn nearest_anchors(md: &MarkdownOutline, id: &str) -> Vec<String> {
    use rapidfuzz::distance::indel;
    let id = id.trim_start_matches('#').to_lowercase();
    let mut scored: Vec<(f64, &str)> = md
        .anchors
        .iter()
        .map(|a| {
            (
                indel::normalized_similarity(id.chars(), a.id.to_lowercase().chars()),
                a.id.as_str(),
            )
        })
        .filter(|(s, _)| *s >= 0.5)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut out: Vec<String> = Vec::new();
    for (_, a) in scored {
        if !out.iter().any(|o| o == a) {
            out.push(a.to_string());
        }
        if out.len() == 3 {
            break;
        }
    }
    out
}

/// Resolves where `operation` on `target` applies.
pub fn resolve_edit(
    doc: &Document,
    md: Option<&MarkdownOutline>,
    target: &Target,
    operation: Operation,
) -> Result<ResolvedEdit, TargetError> {
    let count = doc.line_count();
    let wrong = || TargetError::WrongOperation {
        kind: target.kind(),
        operation,
    };
    match target {
        Target::Lines { start, end } => match operation {
            Operation::Insert => {
                if *start > count + 1 {
                    return Err(TargetError::LineOutOfRange {
                        line: *start,
                        line_count: count,
                        allow_append: true,
                    });
                }
                Ok(ResolvedEdit {
                    site: EditSite::InsertBefore(*start),
                    indent: insert_rule(doc, *start, 1, true),
                    note: None,
                })
            }
            Operation::Replace | Operation::Delete => {
                let end = end.ok_or(TargetError::LinesNeedEnd)?;
                for line in [*start, end] {
                    if line > count {
                        return Err(TargetError::LineOutOfRange {
                            line,
                            line_count: count,
                            allow_append: false,
                        });
                    }
                }
                Ok(ResolvedEdit {
                    site: EditSite::Lines {
                        first: *start,
                        last: end,
                    },
                    indent: rebase_rule(doc, *start, end),
                    note: None,
                })
            }
        },
        Target::Heading(query) => {
            let md = markdown_outline(md, "heading")?;
            let (h, level_note) = heading(md, query)?;
            let resolved = match operation {
                Operation::Insert => ResolvedEdit {
                    site: EditSite::InsertBefore(h.last_line + 1),
                    indent: IndentRule::AsGiven,
                    note: Some(format!(
                        "Inserted directly after the heading line of '{}'; to add at the end of its section use appendToSection",
                        h.display()
                    )),
                },
                Operation::Replace => ResolvedEdit {
                    site: EditSite::Lines {
                        first: h.line,
                        last: h.last_line,
                    },
                    indent: IndentRule::AsGiven,
                    note: None,
                },
                Operation::Delete => {
                    let body = h.section_end.saturating_sub(h.last_line);
                    ResolvedEdit {
                        site: EditSite::Lines {
                            first: h.line,
                            last: h.last_line,
                        },
                        indent: IndentRule::AsGiven,
                        note: (body > 0).then(|| {
                            format!(
                                "Only the heading line was deleted; its {body} following line{} now belong to the section before. To delete the whole section, delete lines {}-{}",
                                if body == 1 { "" } else { "s" },
                                h.line,
                                h.section_end
                            )
                        }),
                    }
                }
            };
            Ok(ResolvedEdit {
                note: join_notes(level_note, resolved.note),
                ..resolved
            })
        }
        Target::BeforeHeading(query) => {
            let md = markdown_outline(md, "beforeHeading")?;
            if operation != Operation::Insert {
                return Err(wrong());
            }
            let (h, note) = heading(md, query)?;
            Ok(ResolvedEdit {
                site: EditSite::InsertBefore(h.line),
                indent: IndentRule::AsGiven,
                note,
            })
        }
        Target::AppendToSection(query) => {
            let md = markdown_outline(md, "appendToSection")?;
            if operation != Operation::Insert {
                return Err(wrong());
            }
            let (h, note) = heading(md, query)?;
            Ok(ResolvedEdit {
                site: EditSite::InsertBefore(h.content_end + 1),
                indent: IndentRule::AsGiven,
                note,
            })
        }
        Target::CodeBlock { index } => {
            let md = markdown_outline(md, "codeBlock")?;
            let block = code_block(md, *index)?;
            if block.nested {
                return Err(TargetError::NestedCodeBlock {
                    index: *index,
                    lines: block.content_lines(),
                });
            }
            let span = code_content_span(doc, block);
            match operation {
                Operation::Insert => Ok(ResolvedEdit {
                    site: EditSite::InsertBefore(span.end + 1),
                    // The content's last line is the target; never the fence.
                    indent: insert_rule(doc, span.end + 1, span.start, false),
                    note: None,
                }),
                Operation::Replace if span.is_empty() => Ok(ResolvedEdit {
                    // An empty block: the new content goes between the fences.
                    site: EditSite::InsertBefore(span.start),
                    indent: IndentRule::AsGiven,
                    note: None,
                }),
                Operation::Delete if span.is_empty() => Ok(ResolvedEdit {
                    // Nothing between the fences: the same outcome as deleting
                    // a block's content, with nothing to remove.
                    site: EditSite::Nothing(span.start),
                    indent: IndentRule::AsGiven,
                    note: Some(format!(
                        "Code block {index} is already empty: nothing was deleted; its fences remain"
                    )),
                }),
                Operation::Replace | Operation::Delete => Ok(ResolvedEdit {
                    site: EditSite::Lines {
                        first: span.start,
                        last: span.end,
                    },
                    indent: rebase_rule(doc, span.start, span.end),
                    note: (operation == Operation::Delete).then(|| {
                        "The code block's content was deleted; its fences remain".to_string()
                    }),
                }),
            }
        }
        Target::Block(id) => {
            markdown_outline(md, "block")?;
            let block = find_block(doc, id)?;
            let site = match operation {
                Operation::Insert => EditSite::InsertBefore(block.last + 1),
                Operation::Replace | Operation::Delete => EditSite::Lines {
                    first: block.first,
                    last: block.last,
                },
            };
            Ok(ResolvedEdit {
                site,
                indent: IndentRule::AsGiven,
                note: None,
            })
        }
        Target::Anchor(_) | Target::Section(_) => Err(wrong()),
        Target::Symbol { .. } => Err(TargetError::NotSource),
    }
}

/// Replaced lines: the new content takes the replaced lines' common indentation.
fn rebase_rule(doc: &Document, first: usize, last: usize) -> IndentRule {
    let lines = (first..=last).map(|k| doc.line(k));
    if (first..=last).all(|k| is_blank(doc.line(k))) {
        return IndentRule::AsGiven;
    }
    IndentRule::Rebase(common_indent(lines).to_string())
}

/// An insert before line `at` (seed 002: new content matches the target
/// line's indentation): unindented content takes the indentation of line
/// `at` (when `at_is_target`), or when that line is blank or past the end, of
/// the nearest non-blank line above it (down to `lo`). Content that carries its own indentation is
/// inserted as given: that indentation is relative to something only the
/// caller knows, such as a nested list item `  - sub` before `- next`.
fn insert_rule(doc: &Document, at: usize, lo: usize, at_is_target: bool) -> IndentRule {
    let target = (at_is_target && at <= doc.line_count())
        .then(|| doc.line(at))
        .filter(|l| !is_blank(l))
        .or_else(|| {
            (lo..at.min(doc.line_count() + 1))
                .rev()
                .map(|k| doc.line(k))
                .find(|l| !is_blank(l))
        });
    match target.map(indent_of) {
        Some(indent) if !indent.is_empty() => IndentRule::RebaseIfFlush(indent.to_string()),
        _ => IndentRule::AsGiven,
    }
}
