//! What an edit did to the places other notes link to: the anchors a
//! document had before and lost, and which links of another document point
//! into it, so that a reply can name the links an edit broke (and offer the
//! renamed heading as the fix).
//!
//! ```
//! use mcp_server_text::text::markdown::{self, vanished_anchors};
//!
//! let before = markdown::parse("# Garden\n\n## Tasks\n");
//! let after = markdown::parse("# Garden\n\n## To do\n");
//! let gone = vanished_anchors(&before, &after);
//! assert_eq!(gone[0].id, "tasks");
//! assert_eq!(gone[0].replaced_by.as_deref(), Some("to-do"));
//! ```

use super::MarkdownOutline;
use super::anchors::AnchorKind;
use super::link_target::{LinkTarget, WikiFragment, classify};
use super::links::{Link, parse_links};
use super::vault::{NoteLookup, VaultIndex, join_path, strip_md};
use crate::text::lines::LineIndex;

/// An anchor a document no longer has.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VanishedAnchor {
    /// The id links used (a slug, `{#id}` or `<a id>`).
    pub id: String,
    /// For a heading's slug, the heading's text before the edit.
    pub heading: Option<String>,
    /// For a heading's slug, the slug of the heading now in its place (the
    /// same position among the headings), when there is one: the likely fix.
    pub replaced_by: Option<String>,
}

/// The anchors `before` has and `after` does not.
pub fn vanished_anchors(before: &MarkdownOutline, after: &MarkdownOutline) -> Vec<VanishedAnchor> {
    let mut gone = Vec::new();
    for anchor in &before.anchors {
        if after.anchors.iter().any(|a| a.id == anchor.id) {
            continue;
        }
        let position = before.headings.iter().position(|h| h.line == anchor.line);
        let (heading, replaced_by) = match (anchor.kind, position) {
            (AnchorKind::Heading, Some(i)) => (
                Some(before.headings[i].text.clone()),
                after.headings.get(i).map(|h| h.slug.clone()),
            ),
            _ => (None, None),
        };
        gone.push(VanishedAnchor {
            id: anchor.id.clone(),
            heading,
            replaced_by,
        });
    }
    gone
}

/// The links of document `from` (its `text`) that lead into document
/// `target`, with the fragment each names (`None` for the whole document):
/// relative paths reaching it and wikilinks whose name finds it in `notes`.
pub fn links_into(
    text: &str,
    index: &LineIndex,
    from: &str,
    target: &str,
    notes: &VaultIndex,
) -> Vec<(Link, Option<String>)> {
    let mut found = Vec::new();
    for link in parse_links(text, index) {
        let hit = match classify(link.kind, &link.target) {
            LinkTarget::Path { path, fragment } => join_path(from, &path)
                .is_some_and(|p| p == target || strip_md(target).is_some_and(|stem| p == stem))
                .then_some(fragment),
            LinkTarget::Fragment(fragment) if from == target => Some(Some(fragment)),
            LinkTarget::Note { name, fragment } => {
                let reaches = if name.is_empty() {
                    from == target
                } else {
                    notes.find_note(&name, from) == NoteLookup::Found(target.to_string())
                };
                reaches.then(|| {
                    fragment.map(|f| match f {
                        WikiFragment::Heading(parts) => parts.join("#"),
                        WikiFragment::Block(id) => format!("^{id}"),
                    })
                })
            }
            _ => None,
        };
        if let Some(fragment) = hit {
            found.push((link, fragment));
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::super::parse;
    use super::*;

    #[test]
    fn renamed_and_removed_anchors() {
        let before = parse("# A\n\n## Tasks {#todo}\n\n## Log\n\n<a id=\"x\"></a>\n");
        let after = parse("# A\n\n## Chores {#todo}\n");
        assert_eq!(
            vanished_anchors(&before, &after),
            [
                VanishedAnchor {
                    id: "tasks".into(),
                    heading: Some("Tasks".into()),
                    replaced_by: Some("chores".into()),
                },
                VanishedAnchor {
                    id: "log".into(),
                    heading: Some("Log".into()),
                    replaced_by: None,
                },
                VanishedAnchor {
                    id: "x".into(),
                    heading: None,
                    replaced_by: None,
                },
            ]
        );
    }

    #[test]
    fn links_that_lead_into_a_document() {
        let text = "[a](../projects/garden.md#tasks) [b](../projects/garden) [[garden#Tasks]] \
                    [[other]] [c](x.md) [d](https://x.example)\n";
        let notes = VaultIndex::new(["notes/a.md", "projects/garden.md", "other.md"]);
        let found: Vec<(String, Option<String>)> = links_into(
            text,
            &LineIndex::new(text),
            "notes/a.md",
            "projects/garden.md",
            &notes,
        )
        .into_iter()
        .map(|(l, f)| (l.target, f))
        .collect();
        assert_eq!(
            found,
            [
                (
                    "../projects/garden.md#tasks".to_string(),
                    Some("tasks".to_string())
                ),
                ("../projects/garden".to_string(), None),
                ("garden#Tasks".to_string(), Some("Tasks".to_string())),
            ]
        );
    }
}
