//! Every tag of a note: those its frontmatter lists (`tags`, `tag`) and the
//! `#tags` in its text, each with its line.
//!
//! ```
//! use mcp_server_text::text::properties::note_tags;
//!
//! let text = "---\ntags: [garden, project/alpha]\n---\nWater the #beds.\n";
//! let tags: Vec<(String, usize)> = note_tags(text).into_iter().map(|t| (t.name, t.line)).collect();
//! assert_eq!(tags, [("garden".into(), 2), ("project/alpha".into(), 2), ("beds".into(), 4)]);
//! ```

use crate::text::lines::LineIndex;
use crate::text::markdown::{inline_tags, is_tags_key, tags_of_value};

/// One tag of a note.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoteTag {
    /// The tag as written, without `#`.
    pub name: String,
    /// Its line (for a frontmatter tag, the line of its key).
    pub line: usize,
    /// Whether it is in the frontmatter.
    pub in_frontmatter: bool,
}

/// The tags of `text`: the frontmatter's first, then the inline ones. A
/// frontmatter that does not parse gives none.
pub fn note_tags(text: &str) -> Vec<NoteTag> {
    let mut out = Vec::new();
    if let Ok(Some(props)) = super::read(text) {
        for p in props.entries.iter().filter(|p| is_tags_key(&p.key)) {
            out.extend(tags_of_value(&p.value).into_iter().map(|name| NoteTag {
                name,
                line: p.line,
                in_frontmatter: true,
            }));
        }
    }
    if text.contains('#') {
        let index = LineIndex::new(text);
        out.extend(inline_tags(text, &index).into_iter().map(|t| NoteTag {
            name: t.name,
            line: t.line,
            in_frontmatter: false,
        }));
    }
    out
}
