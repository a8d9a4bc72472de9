//! The structure of a Markdown document: frontmatter, top-level headings and
//! their sections, fenced code blocks and anchors; and its links, where they
//! lead, and how to keep them intact when files move.
//!
//! Edits that target a section or a code block touch exactly the lines this
//! model reports, so it follows CommonMark's block structure rather than
//! guessing from `#` at the start of a line: a `#` line inside fenced or
//! indented code, an HTML block or the frontmatter is not a heading, nor is a
//! heading inside a block quote or list item (it does not start a section).
//! Setext headings (text underlined with `===` or `---`) are headings; a `---`
//! after a blank line is a thematic break.
//!
//! What is knowingly not modelled: a lone `\r` as a line ending (CommonMark
//! has it, the shared line model does not), and inline content in general
//! (only a heading's visible text is worked out, for its slug).
//!
//! ```
//! use mcp_server_text::text::markdown;
//!
//! let text = "# Guide\n\nIntro.\n\n## Setup\n\n```sh\n# not a heading\n```\n\n## Setup\n";
//! let outline = markdown::parse(text);
//! let setup = &outline.headings[1];
//! assert_eq!((setup.level, setup.line, setup.section_end, setup.content_end), (2, 5, 10, 9));
//! assert_eq!(outline.headings[2].slug, "setup-1");
//! assert_eq!(outline.code_blocks[0].content_lines(), Some((8, 8)));
//! assert_eq!(outline.nearest_heading(8).map(|h| h.text.as_str()), Some("Setup"));
//! ```

mod anchor_changes;
mod anchors;
mod block_refs;
mod block_starts;
mod blocks;
mod code_blocks;
mod cursor;
mod fragments;
mod frontmatter;
mod heading_lookup;
mod headings;
mod html_anchors;
mod html_blocks;
mod inline_text;
mod link_check;
mod link_references;
mod link_rewrite;
mod link_style;
mod link_target;
mod links;
mod nearest_heading;
mod sections;
mod slugs;
mod tags;
mod vault;

use schemars::JsonSchema;
use serde::Serialize;

pub use anchor_changes::{VanishedAnchor, links_into, vanished_anchors};
pub use anchors::{Anchor, AnchorKind};
pub use block_refs::{BlockRef, block_at, block_refs, is_block_id, trailing_block_id};
pub use code_blocks::CodeBlock;
pub use fragments::{BlockId, FragmentLookup, block_ids, find_fragment, find_wiki_fragment};
pub use frontmatter::{Frontmatter, FrontmatterKind};
pub use heading_lookup::{
    HeadingLookupError, HeadingMatch, HeadingRef, find_heading, find_heading_match,
};
pub use headings::Heading;
pub use link_check::{EntryKind, LinkContext, LinkStatus, LinkedDocument, check_link};
pub use link_rewrite::{
    LinkRewrite, PathMove, moved_path, outside_targets, rewrite_links, rewrite_links_styled,
    rewrite_links_to,
};
pub use link_style::{LinkFormat, LinkStyle};
pub use link_target::{LinkTarget, WikiFragment, classify, decode};
pub use links::{Link, LinkKind, parse_links};
pub use nearest_heading::{
    HeadingAbove, HeadingsThrough, SharedHeadings, headings_through, headings_until,
};
pub use sections::HeadingNode;
pub use tags::{
    TagUse, inline_tags, is_tag, is_tag_char, is_tags_key, renamed_tag, tag_matches, tags_of_value,
};
pub use vault::{NoteLookup, VaultIndex, alias_names, join_path, relative_path};

/// Everything the tools need to know about a Markdown document's structure.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct MarkdownOutline {
    /// The YAML or TOML block at the start, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub frontmatter: Option<Frontmatter>,
    /// Top-level headings in document order.
    pub headings: Vec<Heading>,
    /// Fenced code blocks in document order.
    pub code_blocks: Vec<CodeBlock>,
    /// Link targets in line order.
    pub anchors: Vec<Anchor>,
}

/// The frontmatter block at the start of `text`, if it has a closed one.
pub fn frontmatter(text: &str) -> Option<Frontmatter> {
    frontmatter::detect(text)
}

/// Parses the structure of `text`. Linear in its length; never fails.
pub fn parse(text: &str) -> MarkdownOutline {
    parse_with(text, true)
}

/// Parses headings, their sections and code blocks, but not slugs or
/// anchors: what edits and searches need, at less time and memory on large
/// files. Every [`Heading::slug`] is empty and `anchors` is empty.
pub fn parse_sections(text: &str) -> MarkdownOutline {
    parse_with(text, false)
}

fn parse_with(text: &str, anchors_too: bool) -> MarkdownOutline {
    let frontmatter = frontmatter::detect(text);
    let first_line = frontmatter.as_ref().map_or(1, |f| f.end_line + 1);
    let scan = blocks::scan(text, first_line);
    let bounds = sections::section_bounds(&scan.headings, scan.line_count, scan.last_nonblank);
    let mut slugs = slugs::SlugCounter::with_capacity(scan.headings.len());
    let mut headings: Vec<Heading> = Vec::with_capacity(scan.headings.len());
    for (raw, (section_end, content_end)) in scan.headings.iter().zip(bounds) {
        let (text, id) = headings::heading_text(&raw.raw, raw.setext);
        if anchors_too {
            slugs.push(slugs::github_slug(&inline_text::visible_text(&text)));
        }
        headings.push(Heading {
            level: raw.level,
            text,
            line: raw.line,
            last_line: raw.last_line,
            setext: raw.setext,
            id,
            slug: String::new(),
            section_end,
            content_end,
        });
    }
    if !anchors_too {
        return MarkdownOutline {
            frontmatter,
            headings,
            code_blocks: scan.code_blocks,
            anchors: Vec::new(),
        };
    }
    for (heading, slug) in headings.iter_mut().zip(slugs.into_slugs()) {
        heading.slug = slug;
    }
    let anchors = anchors::collect_anchors(&headings, scan.html_anchors);
    MarkdownOutline {
        frontmatter,
        headings,
        code_blocks: scan.code_blocks,
        anchors,
    }
}

impl MarkdownOutline {
    /// The headings nested by level, for an outline view.
    pub fn heading_tree(&self) -> Vec<HeadingNode> {
        sections::heading_tree(&self.headings)
    }

    /// The last heading that starts at or before `line`: the section a line
    /// belongs to. `None` before the first heading.
    pub fn nearest_heading(&self, line: usize) -> Option<&Heading> {
        let after = self.headings.partition_point(|h| h.line <= line);
        after.checked_sub(1).map(|i| &self.headings[i])
    }

    /// The fenced code block with this 0-based index.
    pub fn code_block(&self, index: usize) -> Option<&CodeBlock> {
        self.code_blocks.get(index)
    }

    /// The first anchor with this id; a leading `#` is ignored unless an
    /// anchor's id starts with it (`<a id="#x">`).
    pub fn find_anchor(&self, id: &str) -> Option<&Anchor> {
        let exact = self.anchors.iter().find(|a| a.id == id);
        exact.or_else(|| {
            let bare = id.strip_prefix('#')?;
            self.anchors.iter().find(|a| a.id == bare)
        })
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod commonmark_tests;
