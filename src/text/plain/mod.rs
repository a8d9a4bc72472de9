//! The structure of plain text files: INI-style `[section]` markers, runs of
//! blank lines and comment blocks, for config files and notes that are not
//! Markdown.
//!
//! ```
//! use mcp_server_text::text::plain;
//!
//! let text = "; settings\n\n[database]\nhost = db\n\n[cache]\nsize = 10\n";
//! let outline = plain::parse(text);
//! let database = plain::find_section(&outline, "database").unwrap();
//! assert_eq!((database.line, database.end_line), (3, 5));
//! assert_eq!(outline.blank_line_groups, vec![2, 5]);
//! assert_eq!(outline.comment_blocks[0].prefix.as_str(), ";");
//! ```

mod comments;
mod ini_sections;
mod section_lookup;

use schemars::JsonSchema;
use serde::Serialize;

pub use comments::{CommentBlock, CommentPrefix};
pub use ini_sections::IniSection;
pub use section_lookup::{SectionLookupError, SectionRef, find_section};

use crate::text::lines::split_lines;

/// What the plain-text parser finds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlainOutline {
    /// `[section]` markers and the lines each governs, in order.
    pub sections: Vec<IniSection>,
    /// The first line of each run of blank (empty or whitespace-only) lines.
    pub blank_line_groups: Vec<usize>,
    /// Runs of comment lines that share a prefix, in order.
    pub comment_blocks: Vec<CommentBlock>,
}

/// Parses the structure of `text` in one pass over its lines.
pub fn parse(text: &str) -> PlainOutline {
    let mut outline = PlainOutline {
        sections: Vec::new(),
        blank_line_groups: Vec::new(),
        comment_blocks: Vec::new(),
    };
    let mut previous_blank = false;
    let mut line_count = 0;
    for (i, line) in split_lines(text).enumerate() {
        let n = i + 1;
        line_count = n;
        let trimmed = line.trim_start();
        let blank = trimmed.trim_end().is_empty();
        if blank && !previous_blank {
            outline.blank_line_groups.push(n);
        }
        previous_blank = blank;
        match comments::comment_prefix(trimmed) {
            Some(prefix) => match outline.comment_blocks.last_mut() {
                Some(block) if block.end_line == n - 1 && block.prefix == prefix => {
                    block.end_line = n;
                }
                _ => outline.comment_blocks.push(CommentBlock {
                    start_line: n,
                    end_line: n,
                    prefix,
                }),
            },
            None => {
                if let Some((marker, name)) = ini_sections::section_marker(trimmed) {
                    if let Some(previous) = outline.sections.last_mut() {
                        previous.end_line = n - 1;
                    }
                    outline.sections.push(IniSection {
                        marker: marker.to_string(),
                        name: name.to_string(),
                        line: n,
                        end_line: n,
                    });
                }
            }
        }
    }
    if let Some(last) = outline.sections.last_mut() {
        last.end_line = line_count;
    }
    outline
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_text() {
        assert_eq!(
            parse(""),
            PlainOutline {
                sections: vec![],
                blank_line_groups: vec![],
                comment_blocks: vec![],
            }
        );
    }

    #[test]
    fn sections_run_to_the_next_marker() {
        let text = "top = 1\n[database]\nhost = x\n\n  [ cache ] ; inline note\nsize = 1\n[[servers]]\nname = a\n";
        let outline = parse(text);
        let summary: Vec<_> = outline
            .sections
            .iter()
            .map(|s| (s.marker.as_str(), s.name.as_str(), s.line, s.end_line))
            .collect();
        assert_eq!(
            summary,
            [
                ("[database]", "database", 2, 4),
                ("[ cache ]", "cache", 5, 6),
                ("[[servers]]", "servers", 7, 8),
            ]
        );
    }

    #[test]
    fn last_section_ends_at_the_last_line() {
        let outline = parse("[a]\nx\n\n");
        assert_eq!(outline.sections[0].end_line, 3);
        let outline = parse("[a]");
        assert_eq!(outline.sections[0].end_line, 1);
    }

    #[test]
    fn blank_line_groups() {
        let outline = parse("a\n\n  \nb\n\t\nc\n\n");
        assert_eq!(outline.blank_line_groups, vec![2, 5, 7]);
        assert_eq!(parse("\n\na").blank_line_groups, vec![1]);
    }

    #[test]
    fn comment_blocks_share_a_prefix() {
        let text = "# one\n  # two\n; three\n// four\n//five\nkey = 1 # not a comment line\n#\n\n# after blank\n";
        let blocks: Vec<_> = parse(text)
            .comment_blocks
            .into_iter()
            .map(|b| (b.start_line, b.end_line, b.prefix.as_str()))
            .collect();
        assert_eq!(
            blocks,
            [
                (1, 2, "#"),
                (3, 3, ";"),
                (4, 5, "//"),
                (7, 7, "#"),
                (9, 9, "#")
            ]
        );
    }

    #[test]
    fn commented_markers_are_not_sections() {
        let outline = parse("; [disabled]\n# [old]\n[live]\n");
        assert_eq!(outline.sections.len(), 1);
        assert_eq!(outline.sections[0].name, "live");
    }

    #[test]
    fn crlf_gives_the_same_outline() {
        let text = "; c\r\n[a]\r\nx = 1\r\n\r\n[b]\r\n";
        assert_eq!(parse(text), parse(&text.replace("\r\n", "\n")));
    }

    #[test]
    fn serializes_in_camel_case() {
        let json = serde_json::to_value(parse("# c\n[s]\n\n")).unwrap();
        assert_eq!(
            json,
            serde_json::json!({
                "sections": [{"marker": "[s]", "name": "s", "line": 2, "endLine": 3}],
                "blankLineGroups": [3],
                "commentBlocks": [{"startLine": 1, "endLine": 1, "prefix": "#"}]
            })
        );
    }
}
