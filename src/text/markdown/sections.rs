//! Sections: the lines each heading governs, and the heading tree.
//!
//! A heading's section runs to the line before the next heading of the same or
//! a higher level (a smaller or equal number of `#`), or to the end of the
//! document, so it includes its child sections.

use schemars::JsonSchema;
use serde::Serialize;

use super::headings::{Heading, RawHeading};

/// `(section_end, content_end)` for each heading, in the same order.
/// `line_count` and `last_nonblank` describe the whole document.
pub(crate) fn section_bounds(
    headings: &[RawHeading<'_>],
    line_count: usize,
    last_nonblank: usize,
) -> Vec<(usize, usize)> {
    let mut bounds = vec![(line_count, last_nonblank); headings.len()];
    let mut open: Vec<usize> = Vec::new();
    for (index, heading) in headings.iter().enumerate() {
        while let Some(&top) = open.last() {
            if headings[top].level < heading.level {
                break;
            }
            bounds[top] = (heading.line - 1, heading.nonblank_before);
            open.pop();
        }
        open.push(index);
    }
    bounds
}

/// A heading with the headings of its subsections, for outlines.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct HeadingNode {
    /// 1 to 6.
    pub level: u8,
    /// The heading's text.
    pub text: String,
    /// The heading's first line.
    pub line: usize,
    /// The last line of its section, subsections included.
    pub end_line: usize,
    /// Headings of the subsections, in order; left out when there are none.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub children: Vec<HeadingNode>,
}

/// Nests headings by level: each heading's children are the following
/// headings of a deeper level, up to the next one of its level or higher.
pub(crate) fn heading_tree(headings: &[Heading]) -> Vec<HeadingNode> {
    let mut next = 0;
    nodes_deeper_than(headings, &mut next, 0)
}

/// The nodes starting at `headings[*next]` whose level is deeper than `level`.
fn nodes_deeper_than(headings: &[Heading], next: &mut usize, level: u8) -> Vec<HeadingNode> {
    let mut nodes = Vec::new();
    while let Some(heading) = headings.get(*next) {
        if heading.level <= level {
            break;
        }
        *next += 1;
        let children = nodes_deeper_than(headings, next, heading.level);
        nodes.push(HeadingNode {
            level: heading.level,
            text: heading.text.clone(),
            line: heading.line,
            end_line: heading.section_end,
            children,
        });
    }
    nodes
}
