//! Fenced code blocks as the outline lists them.

use schemars::JsonSchema;
use serde::Serialize;

/// One fenced code block (```` ``` ```` or `~~~`). Indented code blocks are not
/// listed: they have no fence to keep and no language.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CodeBlock {
    /// Position among the document's fenced code blocks, from 0.
    pub index: usize,
    /// First word of the info string, if there is one: `python` for
    /// ```` ```python title="x" ````, `rust,ignore` for ```` ```rust,ignore ````.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    /// Line of the opening fence.
    pub start_line: usize,
    /// Line of the closing fence; for an unclosed block, the last line that
    /// belongs to it (the last line of the document at top level).
    pub end_line: usize,
    /// Whether a closing fence was found.
    pub closed: bool,
    /// The opening fence itself, e.g. ```` ``` ```` or `~~~~`.
    pub fence: String,
    /// Whether the block sits inside a list item or block quote, so that its
    /// lines carry the container's indentation or `>` markers.
    pub nested: bool,
}

impl CodeBlock {
    /// The lines between the fences (to the end for an unclosed block), or
    /// `None` when there are none.
    pub fn content_lines(&self) -> Option<(usize, usize)> {
        let first = self.start_line + 1;
        let last = if self.closed {
            self.end_line.checked_sub(1)?
        } else {
            self.end_line
        };
        (first <= last).then_some((first, last))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(start_line: usize, end_line: usize, closed: bool) -> CodeBlock {
        CodeBlock {
            index: 0,
            language: None,
            start_line,
            end_line,
            closed,
            fence: "```".to_string(),
            nested: false,
        }
    }

    #[test]
    fn content_lines_sit_between_the_fences() {
        assert_eq!(block(3, 6, true).content_lines(), Some((4, 5)));
        assert_eq!(block(3, 4, true).content_lines(), None);
        assert_eq!(block(3, 5, false).content_lines(), Some((4, 5)));
        assert_eq!(block(3, 3, false).content_lines(), None);
    }
}
