//! Link targets in a document: heading slugs, explicit `{#id}`s and HTML
//! `<a id>`/`<a name>` anchors.

use schemars::JsonSchema;
use serde::Serialize;

use super::headings::Heading;

/// Where an anchor comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum AnchorKind {
    /// The GitHub-style slug of a heading.
    Heading,
    /// A `{#id}` at the end of a heading.
    Explicit,
    /// An `<a id="…">` or `<a name="…">` tag.
    Html,
}

/// One link target: `[text](#id)` jumps to `line`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Anchor {
    /// The fragment, without `#`.
    pub id: String,
    /// The line it points to.
    pub line: usize,
    /// Where it comes from.
    pub kind: AnchorKind,
}

/// All anchors in line order: for each heading its slug and explicit id, and
/// the HTML anchors found by the scanner. On one line, a heading's anchors come
/// before HTML ones.
pub(crate) fn collect_anchors(headings: &[Heading], html: Vec<Anchor>) -> Vec<Anchor> {
    let mut anchors = Vec::with_capacity(headings.len() * 2 + html.len());
    let mut html = html.into_iter().peekable();
    for heading in headings {
        while let Some(anchor) = html.next_if(|a| a.line < heading.line) {
            anchors.push(anchor);
        }
        anchors.push(Anchor {
            id: heading.slug.clone(),
            line: heading.line,
            kind: AnchorKind::Heading,
        });
        if let Some(id) = &heading.id {
            anchors.push(Anchor {
                id: id.clone(),
                line: heading.line,
                kind: AnchorKind::Explicit,
            });
        }
    }
    anchors.extend(html);
    anchors
}
