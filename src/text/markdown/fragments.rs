//! Finding the place a link's fragment names inside a Markdown document.
//!
//! A Markdown link's `#fragment` is matched the way renderers and note apps
//! jump: an anchor id exactly (a heading's GitHub slug, a `{#id}`, an
//! `<a id>`), then ignoring case, then a heading's own text (Obsidian writes
//! `[x](note.md#My%20heading)`), then a block id (`#^id`). A wikilink's
//! `#Heading` is matched on heading text the way Obsidian does: ignoring
//! case and the characters Obsidian cannot keep in a link (`# | ^ : % [ ] \`);
//! of `#A#B` the last part decides. `#^id` names a block marked with
//! ` ^id` at the end of a line (or on a line of its own).
//!
//! ```
//! use mcp_server_text::text::markdown::{self, FragmentLookup, block_ids, find_fragment};
//!
//! let text = "# Garden\n\n## Tasks for May\n\n- dig ^dig\n";
//! let outline = markdown::parse(text);
//! let blocks = block_ids(text);
//! assert_eq!(find_fragment(&outline, &blocks, "tasks-for-may"), FragmentLookup::Found(3));
//! assert_eq!(find_fragment(&outline, &blocks, "Tasks for May"), FragmentLookup::Found(3));
//! assert_eq!(find_fragment(&outline, &blocks, "^dig"), FragmentLookup::Found(5));
//! ```

use super::headings::Heading;
use super::inline_text::visible_text;
use super::link_target::WikiFragment;
use super::{HeadingRef, MarkdownOutline};

/// Suggestions less similar than this are not offered.
const MIN_SIMILARITY: f64 = 0.5;

/// A block id: `^id` at the end of a line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockId {
    /// The id, without `^`.
    pub id: String,
    /// Its line.
    pub line: usize,
}

/// What a fragment finds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FragmentLookup {
    /// The line it points to.
    Found(usize),
    /// Nothing; the most similar heading, if one is similar enough.
    Missing {
        /// The heading most like the fragment.
        nearest: Option<HeadingRef>,
    },
}

/// The block ids of `text`, in line order (none in code or frontmatter).
pub fn block_ids(text: &str) -> Vec<BlockId> {
    super::block_refs::block_refs(text)
        .into_iter()
        .map(|b| BlockId {
            id: b.id,
            line: b.last,
        })
        .collect()
}

/// The place a Markdown link's `#fragment` (decoded, without `#`) names.
pub fn find_fragment(
    outline: &MarkdownOutline,
    blocks: &[BlockId],
    fragment: &str,
) -> FragmentLookup {
    if let Some(block) = fragment.strip_prefix('^') {
        return find_block(outline, blocks, block);
    }
    if let Some(anchor) = outline.anchors.iter().find(|a| a.id == fragment) {
        return FragmentLookup::Found(anchor.line);
    }
    let lower = fragment.to_lowercase();
    if let Some(anchor) = outline
        .anchors
        .iter()
        .find(|a| a.id.to_lowercase() == lower)
    {
        return FragmentLookup::Found(anchor.line);
    }
    find_heading_text(outline, fragment)
}

/// The place a wikilink's fragment names.
pub fn find_wiki_fragment(
    outline: &MarkdownOutline,
    blocks: &[BlockId],
    fragment: &WikiFragment,
) -> FragmentLookup {
    match fragment {
        WikiFragment::Block(id) => find_block(outline, blocks, id),
        WikiFragment::Heading(parts) => match parts.last() {
            Some(last) => find_heading_text(outline, last),
            None => FragmentLookup::Found(1),
        },
    }
}

fn find_block(outline: &MarkdownOutline, blocks: &[BlockId], id: &str) -> FragmentLookup {
    match blocks.iter().find(|b| b.id == id) {
        Some(block) => FragmentLookup::Found(block.line),
        None => FragmentLookup::Missing {
            nearest: nearest_heading(outline, id),
        },
    }
}

/// A heading whose text reads as `wanted` once both are normalized.
fn find_heading_text(outline: &MarkdownOutline, wanted: &str) -> FragmentLookup {
    let key = normalize(wanted);
    let hit = outline
        .headings
        .iter()
        .find(|h| normalize(&h.text) == key || normalize(&visible_text(&h.text)) == key);
    match hit {
        Some(h) => FragmentLookup::Found(h.line),
        None => FragmentLookup::Missing {
            nearest: nearest_heading(outline, wanted),
        },
    }
}

/// Lowercased, with the characters a link cannot hold turned into spaces and
/// whitespace collapsed.
fn normalize(text: &str) -> String {
    let cleaned: String = text
        .chars()
        .map(|c| match c {
            '#' | '|' | '^' | ':' | '%' | '[' | ']' | '\\' => ' ',
            '-' => ' ',
            c => c,
        })
        .collect();
    cleaned
        .to_lowercase()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The heading most like `wanted` (compared with its text and its slug).
fn nearest_heading(outline: &MarkdownOutline, wanted: &str) -> Option<HeadingRef> {
    let wanted = normalize(wanted);
    let score = |h: &Heading| {
        [normalize(&h.text), normalize(&h.slug)]
            .iter()
            .map(|candidate| {
                rapidfuzz::distance::levenshtein::normalized_similarity(
                    candidate.chars(),
                    wanted.chars(),
                )
            })
            .fold(0.0, f64::max)
    };
    outline
        .headings
        .iter()
        .map(|h| (score(h), h))
        .filter(|(s, _)| *s >= MIN_SIMILARITY)
        .max_by(|a, b| a.0.total_cmp(&b.0).then(b.1.line.cmp(&a.1.line)))
        .map(|(_, h)| HeadingRef {
            display: h.display(),
            line: h.line,
        })
}

#[cfg(test)]
mod tests {
    use super::super::parse;
    use super::*;

    const DOC: &str = "\
# Garden project

## Plan {#plan-2026}

### Beds: layout

<a id=\"legacy\"></a>

## Tasks

- Mulch bed B ^mulch
- Water

^list-end
";

    fn found(fragment: &str) -> FragmentLookup {
        find_fragment(&parse(DOC), &block_ids(DOC), fragment)
    }

    fn heading(display: &str, line: usize) -> Option<HeadingRef> {
        Some(HeadingRef {
            display: display.into(),
            line,
        })
    }

    #[test]
    fn markdown_fragments() {
        assert_eq!(found("tasks"), FragmentLookup::Found(9));
        assert_eq!(found("Tasks"), FragmentLookup::Found(9));
        assert_eq!(found("plan-2026"), FragmentLookup::Found(3));
        assert_eq!(found("plan"), FragmentLookup::Found(3));
        assert_eq!(found("beds-layout"), FragmentLookup::Found(5));
        assert_eq!(found("Beds: layout"), FragmentLookup::Found(5));
        assert_eq!(found("legacy"), FragmentLookup::Found(7));
        assert_eq!(found("^mulch"), FragmentLookup::Found(11));
        assert_eq!(found("^list-end"), FragmentLookup::Found(14));
        assert_eq!(
            found("taks"),
            FragmentLookup::Missing {
                nearest: heading("## Tasks", 9)
            }
        );
        assert_eq!(found("zebra"), FragmentLookup::Missing { nearest: None });
    }

    #[test]
    fn wikilink_fragments() {
        let outline = parse(DOC);
        let blocks = block_ids(DOC);
        let heading_parts =
            |parts: &[&str]| WikiFragment::Heading(parts.iter().map(|p| p.to_string()).collect());
        let find = |f: &WikiFragment| find_wiki_fragment(&outline, &blocks, f);
        assert_eq!(find(&heading_parts(&["tasks"])), FragmentLookup::Found(9));
        assert_eq!(
            find(&heading_parts(&["Plan", "Beds layout"])),
            FragmentLookup::Found(5)
        );
        assert_eq!(
            find(&WikiFragment::Block("mulch".into())),
            FragmentLookup::Found(11)
        );
        assert_eq!(
            find(&heading_parts(&["Watering"])),
            FragmentLookup::Missing { nearest: None }
        );
    }

    #[test]
    fn block_ids_need_a_space_before_the_caret() {
        let ids = block_ids("x^no\n2^3 is math\nend ^ok-1\n^alone\n");
        assert_eq!(
            ids,
            [
                BlockId {
                    id: "ok-1".into(),
                    line: 3
                },
                BlockId {
                    id: "alone".into(),
                    line: 4
                },
            ]
        );
    }
}
