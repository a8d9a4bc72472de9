//! Changing a note's tags: renaming a tag (and its children) in the
//! frontmatter and the text, adding tags to the frontmatter, removing them.
//! Frontmatter changes go through the in-place property editor, so only the
//! tags lines change; inline `#tags` change only their names' bytes.
//!
//! ```
//! use mcp_server_text::text::properties::rename_tag;
//!
//! let text = "---\ntags: [project/alpha, veg]\n---\nSee #project/alpha/x and `#project/alpha`.\n";
//! let edit = rename_tag(text, "project/alpha", "project/beta").unwrap();
//! assert_eq!(edit.count, 2);
//! assert_eq!(
//!     edit.apply(text),
//!     "---\ntags: [project/beta, veg]\n---\nSee #project/beta/x and `#project/alpha`.\n"
//! );
//! ```

use serde_json::Value;

use super::{Change, Properties, Property, PropertyEdit, PropertyError, edit, read};
use crate::text::document::Splice;
use crate::text::lines::LineIndex;
use crate::text::markdown::{inline_tags, is_tag_char, is_tags_key, renamed_tag, tags_of_value};

/// A change of a note's tags.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TagEdit {
    /// The changes to the text, in order.
    pub splices: Vec<Splice>,
    /// How many tags changed.
    pub count: usize,
    /// Whether a frontmatter block was created.
    pub created: bool,
}

impl TagEdit {
    /// `text` with the edit applied.
    pub fn apply(&self, text: &str) -> String {
        PropertyEdit {
            splices: self.splices.clone(),
            changed: Vec::new(),
            created: false,
        }
        .apply(text)
    }
}

/// Renames tag `from` (and its children) to `to` in `text`.
///
/// In YAML frontmatter only the renamed names' bytes change: the other
/// items of a `tags` list keep their quotes and comments. A value written
/// in a way that cannot be edited name by name (a block scalar, an alias)
/// is rewritten whole by the property editor.
pub fn rename_tag(text: &str, from: &str, to: &str) -> Result<TagEdit, PropertyError> {
    let mut out = TagEdit::default();
    let index = LineIndex::new(text);
    if let Some(props) = read(text)? {
        let mut changes = Vec::new();
        for p in props.entries.iter().filter(|p| is_tags_key(&p.key)) {
            let (value, count) = rename_in_value(&p.value, from, to);
            if count == 0 {
                continue;
            }
            out.count += count;
            match rename_in_place(text, &index, &props, p, &value, from, to) {
                Some(splices) => out.splices.extend(splices),
                None => changes.push(Change::set(p.key.clone(), value)),
            }
        }
        if !changes.is_empty() {
            out.splices.extend(edit(text, &changes)?.splices);
        }
    }
    for tag in inline_tags(text, &index) {
        if let Some(new) = renamed_tag(&tag.name, from, to) {
            out.count += 1;
            out.splices.push(Splice::new(tag.range, new));
        }
    }
    out.splices.sort_by_key(|s| s.range.start);
    Ok(out)
}

/// The splices that rename the tags of entry `p` name by name, each inside
/// the scalar that holds it; `None` if its scalars are not all on one line
/// each, or if the result would not read back as `expected` with every other
/// key unchanged.
fn rename_in_place(
    text: &str,
    index: &LineIndex,
    props: &Properties,
    p: &Property,
    expected: &Value,
    from: &str,
    to: &str,
) -> Option<Vec<Splice>> {
    let spots = p.scalar_spots()?;
    let olds: Vec<&Value> = match &p.value {
        Value::Array(items) => items.iter().collect(),
        other => vec![other],
    };
    if spots.len() != olds.len() {
        return None;
    }
    let news: Vec<&Value> = match expected {
        Value::Array(items) => items.iter().collect(),
        other => vec![other],
    };
    let mut splices = Vec::new();
    for ((spot, old), new) in spots.iter().zip(olds).zip(news) {
        if old == new {
            continue;
        }
        // The body's line n is the document's line n + 1.
        let line = spot.line + 1;
        let line_text = index.text(text, line);
        let start = index.start(line);
        let range =
            start + byte_at(line_text, spot.cols.start)..start + byte_at(line_text, spot.cols.end);
        let (written, _) = rename_in_string(&text[range.clone()], from, to);
        splices.push(Splice::new(range, written));
    }
    let planned = PropertyEdit {
        splices,
        changed: Vec::new(),
        created: false,
    };
    let after = read(&planned.apply(text)).ok()??;
    let same = after.entries.len() == props.entries.len()
        && after.entries.iter().zip(&props.entries).all(|(a, b)| {
            a.key == b.key && (a.value == b.value || (a.key == p.key && &a.value == expected))
        });
    (same && after.get(&p.key) == Some(expected)).then_some(planned.splices)
}

/// The byte offset of character `col` of `line`.
fn byte_at(line: &str, col: usize) -> usize {
    line.char_indices()
        .nth(col)
        .map_or(line.len(), |(at, _)| at)
}

/// A `tags` value with `from` renamed, and how many names changed.
fn rename_in_value(value: &Value, from: &str, to: &str) -> (Value, usize) {
    match value {
        Value::Array(items) => {
            let mut count = 0;
            let items = items
                .iter()
                .map(|item| match item {
                    Value::String(s) => {
                        let (hash, name) = match s.strip_prefix('#') {
                            Some(rest) => ("#", rest),
                            None => ("", s.as_str()),
                        };
                        match renamed_tag(name.trim(), from, to) {
                            Some(new) => {
                                count += 1;
                                Value::String(format!("{hash}{new}"))
                            }
                            None => item.clone(),
                        }
                    }
                    other => other.clone(),
                })
                .collect();
            (Value::Array(items), count)
        }
        Value::String(s) => {
            let (new, count) = rename_in_string(s, from, to);
            (Value::String(new), count)
        }
        other => (other.clone(), 0),
    }
}

/// A string of tag names (`"a, #b c"`) with `from` renamed in place.
fn rename_in_string(s: &str, from: &str, to: &str) -> (String, usize) {
    let mut out = String::with_capacity(s.len());
    let mut count = 0;
    let mut rest = s;
    while !rest.is_empty() {
        let run: usize = rest
            .chars()
            .take_while(|&c| is_tag_char(c))
            .map(char::len_utf8)
            .sum();
        if run == 0 {
            let c = rest.chars().next().expect("not empty");
            out.push(c);
            rest = &rest[c.len_utf8()..];
            continue;
        }
        match renamed_tag(&rest[..run], from, to) {
            Some(new) => {
                count += 1;
                out.push_str(&new);
            }
            None => out.push_str(&rest[..run]),
        }
        rest = &rest[run..];
    }
    (out, count)
}

/// Adds `tags` to the frontmatter's tags (those it has already are left).
pub fn add_tags(text: &str, tags: &[String]) -> Result<TagEdit, PropertyError> {
    let props = read(text)?;
    let entry = props
        .as_ref()
        .and_then(|p| p.entries.iter().find(|e| is_tags_key(&e.key)));
    let key = entry.map_or("tags".to_string(), |e| e.key.clone());
    let value = entry.map_or(Value::Null, |e| e.value.clone());
    let has = |name: &str| {
        tags_of_value(&value)
            .iter()
            .any(|t| t.to_lowercase() == name.to_lowercase())
    };
    let mut new: Vec<String> = Vec::new();
    for tag in tags {
        if !has(tag) && !new.iter().any(|n| n.to_lowercase() == tag.to_lowercase()) {
            new.push(tag.clone());
        }
    }
    if new.is_empty() {
        return Ok(TagEdit::default());
    }
    let count = new.len();
    let value = match value {
        Value::Array(mut items) => {
            items.extend(new.into_iter().map(Value::String));
            Value::Array(items)
        }
        Value::String(s) if !s.trim().is_empty() => {
            let sep = if s.contains(',') { ", " } else { " " };
            Value::String(format!("{}{sep}{}", s.trim_end(), new.join(sep)))
        }
        _ => Value::Array(new.into_iter().map(Value::String).collect()),
    };
    let planned = edit(text, &[Change::set(key, value)])?;
    Ok(TagEdit {
        splices: planned.splices,
        count,
        created: planned.created,
    })
}

/// Removes `tags` (exactly, ignoring case) from the frontmatter's tags and,
/// with `inline`, the `#tags` from the text (with one space beside each).
pub fn remove_tags(text: &str, tags: &[String], inline: bool) -> Result<TagEdit, PropertyError> {
    let is_removed = |name: &str| {
        let name = name.trim().trim_start_matches('#').to_lowercase();
        tags.iter().any(|t| t.to_lowercase() == name)
    };
    let mut out = TagEdit::default();
    if let Some(props) = read(text)? {
        let mut changes = Vec::new();
        for p in props.entries.iter().filter(|p| is_tags_key(&p.key)) {
            let (value, count) = match &p.value {
                Value::Array(items) => {
                    let kept: Vec<Value> = items
                        .iter()
                        .filter(|i| !i.as_str().is_some_and(is_removed))
                        .cloned()
                        .collect();
                    let count = items.len() - kept.len();
                    (Value::Array(kept), count)
                }
                Value::String(s) => {
                    let sep = if s.contains(',') { ", " } else { " " };
                    let parts: Vec<&str> = s
                        .split([',', ' '])
                        .filter(|t| !t.trim().is_empty())
                        .collect();
                    let kept: Vec<&str> =
                        parts.iter().copied().filter(|t| !is_removed(t)).collect();
                    (Value::String(kept.join(sep)), parts.len() - kept.len())
                }
                _ => continue,
            };
            if count > 0 {
                out.count += count;
                changes.push(Change::set(p.key.clone(), value));
            }
        }
        if !changes.is_empty() {
            out.splices.extend(edit(text, &changes)?.splices);
        }
    }
    if inline {
        let index = LineIndex::new(text);
        let bytes = text.as_bytes();
        for tag in inline_tags(text, &index) {
            if !is_removed(&tag.name) {
                continue;
            }
            let hash = tag.range.start - 1;
            let (mut start, mut end) = (hash, tag.range.end);
            if start > 0 && bytes[start - 1] == b' ' {
                start -= 1;
            } else if bytes.get(end) == Some(&b' ') {
                end += 1;
            }
            out.count += 1;
            out.splices.push(Splice::new(start..end, ""));
        }
    }
    out.splices.sort_by_key(|s| s.range.start);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn renames_in_lists_strings_and_text() {
        let text = "---\ntags:\n  - Project/Alpha\n  - '#project/alpha/x'\ntag: project/alpha, other\n---\n\
                    # Log #project/alpha\n\n```\n#project/alpha\n```\nhttps://x.example/#project/alpha #project/alphabet\n";
        let edit = rename_tag(text, "project/alpha", "project/beta").unwrap();
        assert_eq!(edit.count, 4);
        assert_eq!(
            edit.apply(text),
            "---\ntags:\n  - project/beta\n  - '#project/beta/x'\ntag: project/beta, other\n---\n\
             # Log #project/beta\n\n```\n#project/alpha\n```\nhttps://x.example/#project/alpha #project/alphabet\n"
        );
    }

    #[test]
    fn a_rename_changes_only_the_renamed_entries_bytes() {
        let text = "---\ntags:\n  - 'veg' # kept\n  - \"project/alpha\"  # the project\n  - Project/Alpha/x\n  # a comment\n  - \"beds\"\ntag: [\"a\", project/alpha] # flow\nkeywords: \"project/alpha, b\"  # string\n---\nbody\n";
        let edit = rename_tag(text, "project/alpha", "project/beta").unwrap();
        assert_eq!(edit.count, 3);
        assert_eq!(
            edit.apply(text),
            text.replacen("\"project/alpha\"", "\"project/beta\"", 1)
                .replace("Project/Alpha/x", "project/beta/x")
                .replace("[\"a\", project/alpha]", "[\"a\", project/beta]")
        );
        let string = "---\ntags: \"project/alpha, b\" # s\n---\n";
        assert_eq!(
            rename_tag(string, "project/alpha", "x")
                .unwrap()
                .apply(string),
            "---\ntags: \"x, b\" # s\n---\n"
        );
    }

    /// A tag as an item of a `tags` list: its name, renamed name, and how
    /// it is written (0 plain, 1 single-quoted, 2 double-quoted).
    fn item() -> impl Strategy<Value = (&'static str, &'static str, u8, bool)> {
        (
            prop::sample::select(vec![
                ("veg", "veg"),
                ("project/alpha", "project/beta"),
                ("Project/Alpha/x", "project/beta/x"),
                ("project/alphabet", "project/alphabet"),
                ("beds-2", "beds-2"),
            ]),
            0u8..3,
            any::<bool>(),
        )
            .prop_map(|((a, b), q, c)| (a, b, q, c))
    }

    fn quoted(name: &str, q: u8) -> String {
        match q {
            0 => name.to_string(),
            1 => format!("'{name}'"),
            _ => format!("\"{name}\""),
        }
    }

    /// A note before and after renaming project/alpha to project/beta.
    fn note() -> impl Strategy<Value = (String, String)> {
        let body = prop::sample::select(vec![
            ("Text #project/alpha here", "Text #project/beta here"),
            ("`#project/alpha` in code", "`#project/alpha` in code"),
            ("#project/alphabet and #veg", "#project/alphabet and #veg"),
            (
                "See https://x.example/#project/alpha",
                "See https://x.example/#project/alpha",
            ),
            ("Nested #Project/Alpha/x.", "Nested #project/beta/x."),
            ("plain project/alpha words", "plain project/alpha words"),
        ]);
        (
            prop::collection::vec(item(), 0..5),
            any::<bool>(),
            any::<bool>(),
            prop::collection::vec(body, 0..6),
        )
            .prop_map(|(items, flow, other_key, body)| {
                let render = |after: bool| {
                    let mut out = String::from("---\n# tags below\n");
                    if other_key {
                        out.push_str("keywords: project/alpha  # not tags\n");
                    }
                    let name =
                        |i: &(&str, &str, u8, bool)| quoted(if after { i.1 } else { i.0 }, i.2);
                    if flow {
                        let names: Vec<String> = items.iter().map(name).collect();
                        out.push_str(&format!("tags: [{}]  # flow\n", names.join(", ")));
                    } else {
                        out.push_str("tags:\n");
                        for i in &items {
                            out.push_str(&format!(
                                "  - {}{}\n",
                                name(i),
                                if i.3 { " # c" } else { "" }
                            ));
                        }
                    }
                    out.push_str("status: draft\n---\n");
                    for (before, renamed) in &body {
                        out.push_str(if after { renamed } else { before });
                        out.push_str("\n\n");
                    }
                    out
                };
                (render(false), render(true))
            })
    }

    proptest! {
        #[test]
        fn a_rename_changes_only_tag_names((before, after) in note()) {
            let edit = rename_tag(&before, "project/alpha", "project/beta").unwrap();
            prop_assert_eq!(edit.apply(&before), after);
        }
    }

    #[test]
    fn adds_and_removes() {
        let text = "---\ntags: [a]\n---\nText #b and #c.\n";
        let added = add_tags(text, &["b".into(), "A".into()]).unwrap();
        assert_eq!(
            added.apply(text),
            "---\ntags: [a, b]\n---\nText #b and #c.\n"
        );
        let created = add_tags("Body\n", &["x".into()]).unwrap();
        assert!(created.created);
        assert_eq!(created.apply("Body\n"), "---\ntags:\n  - x\n---\nBody\n");
        let removed = remove_tags(text, &["a".into(), "b".into()], true).unwrap();
        assert_eq!(removed.count, 2);
        assert_eq!(removed.apply(text), "---\ntags: []\n---\nText and #c.\n");
        let kept = remove_tags(text, &["b".into()], false).unwrap();
        assert!(kept.splices.is_empty());
    }
}
