//! Frontmatter properties: the keys of a note's YAML (`---`) or TOML (`+++`)
//! frontmatter with their values as JSON, the lines each one occupies, and
//! edits that set or delete keys in place.
//!
//! An edit changes only the lines of the keys it changes: the other keys,
//! their order, comments, quoting and every other byte stay as they were. A
//! new key goes at the end of the block; a note without frontmatter gets a
//! YAML block at its top. A string is quoted only when YAML needs it (or
//! when the old value was quoted); a list is written as the file writes
//! lists. Every edit is read back before it is offered: if the block does
//! not then hold exactly the new values (and the old ones elsewhere), the
//! edit is refused. YAML is parsed by `saphyr-parser`, TOML by `toml_edit`;
//! a block either cannot parse is refused with the parser's line.
//!
//! ```
//! use mcp_server_text::text::properties::{self, Change};
//! use serde_json::json;
//!
//! let text = "---\ntitle: Garden # shown\ntags: [veg, beds]\nstatus: draft\n---\n# Garden\n";
//! let block = properties::read(text).unwrap().unwrap();
//! assert_eq!(block.get("tags"), Some(&json!(["veg", "beds"])));
//! let edit = properties::edit(text, &[Change::set("status", json!("done"))]).unwrap();
//! assert_eq!(
//!     edit.apply(text),
//!     "---\ntitle: Garden # shown\ntags: [veg, beds]\nstatus: done\n---\n# Garden\n"
//! );
//! ```

mod filter;
mod note_tags;
mod tag_edit;
mod toml;
mod yaml_read;
mod yaml_write;

pub use filter::NoteFilter;
pub use note_tags::{NoteTag, note_tags};
pub use tag_edit::{TagEdit, add_tags, remove_tags, rename_tag};

use std::fmt;
use std::ops::Range;

use serde_json::Value;

use crate::text::document::Splice;
use crate::text::lines::{Eol, LineIndex};
use crate::text::markdown::{Frontmatter, FrontmatterKind, frontmatter};
use yaml_read::{Written, YamlEntry, read_yaml};
use yaml_write::{ListStyle, entry_lines, string_text};

/// One key of the frontmatter.
#[derive(Debug, Clone, PartialEq)]
pub struct Property {
    /// The key.
    pub key: String,
    /// Its value (dates and other strings as written).
    pub value: Value,
    /// The line of the key (in the whole document).
    pub line: usize,
    /// The last line of its value.
    pub last_line: usize,
    detail: Detail,
}

impl Property {
    /// Where each one-line scalar of a YAML value is written (the value, or
    /// each list item); `None` for TOML or a value not written that way.
    fn scalar_spots(&self) -> Option<&[yaml_read::ScalarSpot]> {
        match &self.detail {
            Detail::Yaml(e) if !e.scalars.is_empty() => Some(&e.scalars),
            _ => None,
        }
    }
}

/// How a YAML entry is written, for edits.
#[derive(Debug, Clone, PartialEq)]
enum Detail {
    Yaml(Box<YamlEntry>),
    Toml,
}

/// A note's frontmatter, read.
#[derive(Debug, Clone, PartialEq)]
pub struct Properties {
    /// YAML or TOML.
    pub kind: FrontmatterKind,
    /// The line of the closing marker.
    pub end_line: usize,
    /// The keys in order.
    pub entries: Vec<Property>,
}

impl Properties {
    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.entries.iter().find(|p| p.key == key).map(|p| &p.value)
    }

    /// The entry of `key`.
    pub fn entry(&self, key: &str) -> Option<&Property> {
        self.entries.iter().find(|p| p.key == key)
    }
}

/// One change to make.
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    /// Give `key` this value (adding the key if it is missing).
    Set(String, Value),
    /// Remove `key` (nothing happens if it is missing).
    Delete(String),
}

impl Change {
    /// Sets `key` to `value`.
    pub fn set(key: impl Into<String>, value: Value) -> Change {
        Change::Set(key.into(), value)
    }

    fn key(&self) -> &str {
        match self {
            Change::Set(k, _) | Change::Delete(k) => k,
        }
    }
}

/// Why the frontmatter cannot be read or edited.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PropertyError {
    /// The parser refused the block.
    Invalid {
        /// YAML or TOML.
        kind: FrontmatterKind,
        /// The line of the document the parser stopped at.
        line: usize,
        /// The parser's message.
        message: String,
    },
    /// A key is there more than once.
    Duplicate {
        /// The key.
        key: String,
        /// Its lines.
        lines: Vec<usize>,
    },
    /// The document opens a frontmatter block that no marker closes.
    Unclosed {
        /// YAML or TOML.
        kind: FrontmatterKind,
        /// The line of the opening marker.
        line: usize,
    },
    /// The value cannot be written in this kind of frontmatter.
    Unwritable {
        /// The key.
        key: String,
        /// Why.
        why: String,
    },
}

impl fmt::Display for PropertyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PropertyError::Invalid {
                kind,
                line,
                message,
            } => write!(
                f,
                "the {} frontmatter does not parse: line {line}: {message}",
                kind_name(*kind)
            ),
            PropertyError::Duplicate { key, lines } => write!(
                f,
                "the frontmatter has the key '{key}' more than once (lines {})",
                lines
                    .iter()
                    .map(usize::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            PropertyError::Unclosed { kind, line } => write!(
                f,
                "line {line} opens a {} frontmatter block that is never closed (no `{}` line after it)",
                kind_name(*kind),
                marker(*kind)
            ),
            PropertyError::Unwritable { key, why } => {
                write!(f, "'{key}' cannot be written: {why}")
            }
        }
    }
}

impl std::error::Error for PropertyError {}

impl PropertyError {
    /// The first line of the document the problem is on, if it has one.
    pub fn line(&self) -> Option<usize> {
        match self {
            PropertyError::Invalid { line, .. } | PropertyError::Unclosed { line, .. } => {
                Some(*line)
            }
            PropertyError::Duplicate { lines, .. } => lines.first().copied(),
            PropertyError::Unwritable { .. } => None,
        }
    }

    /// What the caller can do next.
    pub fn suggestion(&self) -> String {
        match self {
            PropertyError::Invalid { line, .. } => format!(
                "Fix line {line} of the frontmatter first (TextRead lines, then TextPatch or TextReplace); nothing was changed"
            ),
            PropertyError::Duplicate { lines, .. } => format!(
                "Remove all but one of them (lines {lines:?}) with TextPatch delete, then call again"
            ),
            PropertyError::Unclosed { kind, .. } => format!(
                "Add the closing `{}` line where the frontmatter ends (TextPatch insert), or change the first line if it is not frontmatter; nothing was changed",
                marker(*kind)
            ),
            PropertyError::Unwritable { .. } => {
                "Give the value another type, or edit the frontmatter with TextPatch".into()
            }
        }
    }
}

fn marker(kind: FrontmatterKind) -> &'static str {
    match kind {
        FrontmatterKind::Yaml => "---",
        FrontmatterKind::Toml => "+++",
    }
}

fn kind_name(kind: FrontmatterKind) -> &'static str {
    match kind {
        FrontmatterKind::Yaml => "YAML",
        FrontmatterKind::Toml => "TOML",
    }
}

/// The frontmatter of `text`, if it has one. A first line `---` or `+++`
/// that nothing closes is an error, not a note without frontmatter: a key
/// set there would otherwise start a second block above the first.
pub fn read(text: &str) -> Result<Option<Properties>, PropertyError> {
    let Some(fm) = frontmatter(text) else {
        let first = text.lines().next().map(str::trim_end);
        let kind = match first {
            Some("---") => FrontmatterKind::Yaml,
            Some("+++") => FrontmatterKind::Toml,
            _ => return Ok(None),
        };
        return Err(PropertyError::Unclosed { kind, line: 1 });
    };
    let index = LineIndex::new(text);
    let body = &text[body_range(&index, &fm)];
    let entries = match fm.kind {
        FrontmatterKind::Yaml => {
            let entries = read_yaml(body).map_err(|e| PropertyError::Invalid {
                kind: fm.kind,
                line: e.line + 1,
                message: e.message,
            })?;
            entries
                .into_iter()
                .map(|e| Property {
                    key: e.key.clone(),
                    value: e.value.clone(),
                    line: e.first + 1,
                    last_line: e.last + 1,
                    detail: Detail::Yaml(Box::new(e)),
                })
                .collect()
        }
        FrontmatterKind::Toml => toml::read(body)
            .map_err(|(line, message)| PropertyError::Invalid {
                kind: fm.kind,
                line: line + 1,
                message,
            })?
            .into_iter()
            .map(|e| Property {
                key: e.key,
                value: e.value,
                line: e.first + 1,
                last_line: e.last + 1,
                detail: Detail::Toml,
            })
            .collect(),
    };
    Ok(Some(Properties {
        kind: fm.kind,
        end_line: fm.end_line,
        entries,
    }))
}

/// The bytes of the lines between the markers.
fn body_range(index: &LineIndex, fm: &Frontmatter) -> Range<usize> {
    index.start(2)..index.start(fm.end_line)
}

/// An edit of the frontmatter, ready to apply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PropertyEdit {
    /// The changes to the document's text.
    pub splices: Vec<Splice>,
    /// The keys whose value changes, in the order asked.
    pub changed: Vec<String>,
    /// Whether the frontmatter block is new.
    pub created: bool,
}

impl PropertyEdit {
    /// `text` with the edit applied (for tests and checks).
    pub fn apply(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len() + 64);
        let mut at = 0;
        for s in &self.splices {
            out.push_str(&text[at..s.range.start]);
            out.push_str(&s.text);
            at = s.range.end;
        }
        out.push_str(&text[at..]);
        out
    }
}

/// Plans `changes` to the frontmatter of `text`.
pub fn edit(text: &str, changes: &[Change]) -> Result<PropertyEdit, PropertyError> {
    let index = LineIndex::new(text);
    let eol = first_eol(text);
    let Some(props) = read(text)? else {
        return create(text, changes, eol);
    };
    check_duplicates(&props, changes)?;
    let fm = frontmatter(text).expect("read found one");
    let changed: Vec<String> = changes
        .iter()
        .filter(|c| match c {
            Change::Set(k, v) => props.get(k) != Some(v),
            Change::Delete(k) => props.get(k).is_some(),
        })
        .map(|c| c.key().to_string())
        .collect();
    if changed.is_empty() {
        return Ok(PropertyEdit {
            splices: Vec::new(),
            changed,
            created: false,
        });
    }
    let splices = match props.kind {
        FrontmatterKind::Yaml => yaml_splices(text, &index, &props, changes, eol)?,
        FrontmatterKind::Toml => {
            let range = body_range(&index, &fm);
            // Only the changes that change something: setting a date to the
            // string it reads as would otherwise turn it into a string.
            let changes: Vec<Change> = changes
                .iter()
                .filter(|c| changed.iter().any(|k| k == c.key()))
                .cloned()
                .collect();
            let new_body = toml::edit(&text[range.clone()], &changes, eol)
                .map_err(|(key, why)| PropertyError::Unwritable { key, why })?;
            vec![Splice::new(range, new_body)]
        }
    };
    let edit = PropertyEdit {
        splices,
        changed,
        created: false,
    };
    verify(&props, &edit.apply(text), changes)?;
    Ok(edit)
}

/// The line ending the document's first line uses (`\n` when it has none).
fn first_eol(text: &str) -> &'static str {
    match text.find('\n') {
        Some(at) if at > 0 && text.as_bytes()[at - 1] == b'\r' => "\r\n",
        _ => "\n",
    }
}

fn check_duplicates(props: &Properties, changes: &[Change]) -> Result<(), PropertyError> {
    for change in changes {
        let lines: Vec<usize> = props
            .entries
            .iter()
            .filter(|p| p.key == change.key())
            .map(|p| p.line)
            .collect();
        if lines.len() > 1 {
            return Err(PropertyError::Duplicate {
                key: change.key().to_string(),
                lines,
            });
        }
    }
    Ok(())
}

/// A new YAML block at the top holding the keys `changes` set.
fn create(text: &str, changes: &[Change], eol: &str) -> Result<PropertyEdit, PropertyError> {
    let mut lines = vec!["---".to_string()];
    let mut changed = Vec::new();
    for change in changes {
        if let Change::Set(key, value) = change {
            lines.extend(entry_lines(
                &string_text(key, false),
                None,
                value,
                None,
                &ListStyle::Block("  ".into()),
                None,
            ));
            changed.push(key.clone());
        }
    }
    if changed.is_empty() {
        return Ok(PropertyEdit {
            splices: Vec::new(),
            changed,
            created: false,
        });
    }
    lines.push("---".into());
    let mut block = lines.join(eol);
    block.push_str(eol);
    let edit = PropertyEdit {
        splices: vec![Splice::new(0..0, block)],
        changed,
        created: true,
    };
    let empty = Properties {
        kind: FrontmatterKind::Yaml,
        end_line: 0,
        entries: Vec::new(),
    };
    verify(&empty, &edit.apply(text), changes)?;
    Ok(edit)
}

/// The line splices of `changes` to a YAML block.
fn yaml_splices(
    text: &str,
    index: &LineIndex,
    props: &Properties,
    changes: &[Change],
    eol: &str,
) -> Result<Vec<Splice>, PropertyError> {
    let lists = list_style(props);
    let mut splices = Vec::new();
    let mut appended: Vec<String> = Vec::new();
    for change in changes {
        let entry = props.entry(change.key());
        match (change, entry) {
            (Change::Set(_, value), Some(p)) if &p.value == value => {}
            (Change::Set(key, value), Some(p)) => {
                let Detail::Yaml(e) = &p.detail else {
                    continue;
                };
                if matches!(e.written, Written::Other) {
                    return Err(PropertyError::Unwritable {
                        key: key.clone(),
                        why: "its value is an alias or written in a way this tool does not rewrite"
                            .into(),
                    });
                }
                let lines = entry_lines(
                    &e.raw_key,
                    e.prefix.as_deref(),
                    value,
                    Some(&e.written),
                    &lists,
                    e.comment.as_deref(),
                );
                let range = index.span_of_lines(p.line, p.last_line);
                let ends = line_end(text, &range, eol);
                splices.push(Splice::new(range, join(&lines, eol, ends)));
            }
            (Change::Set(key, value), None) => {
                appended.extend(entry_lines(
                    &string_text(key, false),
                    None,
                    value,
                    None,
                    &lists,
                    None,
                ));
            }
            (Change::Delete(_), Some(p)) => {
                splices.push(Splice::new(index.span_of_lines(p.line, p.last_line), ""));
            }
            (Change::Delete(_), None) => {}
        }
    }
    if !appended.is_empty() {
        let at = index.start(props.end_line);
        splices.push(Splice::new(at..at, join(&appended, eol, eol)));
    }
    splices.sort_by_key(|s| (s.range.start, s.range.end));
    Ok(splices)
}

/// How the lines replaced by `range` end (its last line's ending), so a
/// replacement keeps it; `eol` when the range has none.
fn line_end<'a>(text: &'a str, range: &Range<usize>, eol: &'a str) -> &'a str {
    match Eol::ending(&text[range.clone()]) {
        Eol::None => eol,
        ending => ending.as_str(),
    }
}

fn join(lines: &[String], eol: &str, last: &str) -> String {
    let mut out = lines.join(eol);
    out.push_str(last);
    out
}

/// How this block writes lists: as its first list does, else as Obsidian
/// does (`- a` under the key, indented by two spaces).
fn list_style(props: &Properties) -> ListStyle {
    props
        .entries
        .iter()
        .find_map(|p| match &p.detail {
            Detail::Yaml(e) => match &e.written {
                Written::FlowList => Some(ListStyle::Flow),
                Written::BlockList(indent) => Some(ListStyle::Block(indent.clone())),
                _ => None,
            },
            Detail::Toml => None,
        })
        .unwrap_or_else(|| ListStyle::Block("  ".into()))
}

/// Reads the edited `text` back: every key set has its new value, every key
/// deleted is gone, and every other key has its old value.
fn verify(before: &Properties, text: &str, changes: &[Change]) -> Result<(), PropertyError> {
    let after = read(text)
        .map_err(|e| PropertyError::Unwritable {
            key: changes
                .first()
                .map(|c| c.key().to_string())
                .unwrap_or_default(),
            why: format!("the edited frontmatter would not parse ({e})"),
        })?
        .unwrap_or(Properties {
            kind: before.kind,
            end_line: 0,
            entries: Vec::new(),
        });
    let fail = |key: &str, why: String| PropertyError::Unwritable {
        key: key.to_string(),
        why,
    };
    for change in changes {
        match change {
            Change::Set(key, value) => {
                if after.get(key) != Some(value) {
                    return Err(fail(
                        key,
                        format!(
                            "written, it would read back as {}",
                            after
                                .get(key)
                                .map_or("nothing".to_string(), Value::to_string)
                        ),
                    ));
                }
            }
            Change::Delete(key) => {
                if after.get(key).is_some() {
                    return Err(fail(key, "it would still be there".into()));
                }
            }
        }
    }
    for p in &before.entries {
        if changes.iter().any(|c| c.key() == p.key) {
            continue;
        }
        if after.get(&p.key) != Some(&p.value) {
            return Err(fail(&p.key, "the edit would change it too".into()));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
