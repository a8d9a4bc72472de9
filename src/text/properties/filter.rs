//! Choosing notes by tag and by property, as TextSearch's `tag` and
//! `property` filters do.
//!
//! A tag matches itself and its children (`project` matches
//! `project/alpha`), ignoring case, in the frontmatter or the text. A
//! property matches when the note's value equals the one asked for (strings
//! ignoring case), or is a list holding it; `null` asks only that the key
//! exists. Scalars compare as written: the number `3` and the string `"3"`
//! match each other either way round (`rank: "3"` and `rank: 3` read the
//! same to a person), and so do `true` and `"true"`. Only Markdown notes
//! have tags and properties: TextSearch passes no other file through.
//!
//! ```
//! use mcp_server_text::text::properties::NoteFilter;
//! use serde_json::json;
//!
//! let note = "---\nstatus: Draft\ntags: [project/alpha]\n---\nText #urgent\n";
//! let filter = NoteFilter::new(Some("project".into()), json!({"status": "draft"}).as_object().cloned().unwrap());
//! assert!(filter.accepts(note));
//! assert!(!NoteFilter::new(Some("urgent/x".into()), Default::default()).accepts(note));
//! ```

use serde_json::{Map, Value};

use super::note_tags::note_tags;
use crate::text::markdown::tag_matches;

/// What a note must have to be searched.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NoteFilter {
    tag: Option<String>,
    properties: Map<String, Value>,
}

impl NoteFilter {
    /// A filter asking for `tag` (if given) and every one of `properties`.
    pub fn new(tag: Option<String>, properties: Map<String, Value>) -> NoteFilter {
        NoteFilter {
            tag: tag.map(|t| t.trim().trim_start_matches('#').to_string()),
            properties,
        }
    }

    /// Whether the note `text` passes.
    pub fn accepts(&self, text: &str) -> bool {
        if !self.properties.is_empty() {
            let Ok(Some(props)) = super::read(text) else {
                return false;
            };
            for (key, wanted) in &self.properties {
                let Some(value) = props.get(key) else {
                    return false;
                };
                if !value_matches(value, wanted) {
                    return false;
                }
            }
        }
        match &self.tag {
            Some(tag) => note_tags(text).iter().any(|t| tag_matches(&t.name, tag)),
            None => true,
        }
    }
}

/// Whether a note's `value` is what `wanted` asks for.
fn value_matches(value: &Value, wanted: &Value) -> bool {
    match (value, wanted) {
        (_, Value::Null) => true,
        (Value::String(a), Value::String(b)) => a.to_lowercase() == b.to_lowercase(),
        (Value::Array(items), w) if !w.is_array() => items.iter().any(|i| value_matches(i, w)),
        (Value::String(s), Value::Number(n)) | (Value::Number(n), Value::String(s)) => {
            s.trim() == n.to_string()
        }
        (Value::String(s), Value::Bool(b)) | (Value::Bool(b), Value::String(s)) => {
            s.trim().eq_ignore_ascii_case(&b.to_string())
        }
        (a, b) => a == b,
    }
}
