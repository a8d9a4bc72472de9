//! Block references: the paragraph or list item a `^block-id` at its end
//! names, as Obsidian's `[[note#^block-id]]` links to it, and giving a
//! paragraph a new id.
//!
//! A block is the lines from the start of its paragraph (or list item) to
//! the line that ends with ` ^id`. An id alone on its line names the block
//! just above it (a list, a table or a quote, with at most one blank line
//! between). Ids inside code blocks and the frontmatter are not ids.
//!
//! ```
//! use mcp_server_text::text::markdown::{block_refs, block_at};
//!
//! let text = "# Tasks\n\nDig the beds\nbefore May. ^dig\n\n- [ ] Mulch ^tasks-1\n";
//! let refs = block_refs(text);
//! assert_eq!((refs[0].id.as_str(), refs[0].first, refs[0].last), ("dig", 3, 4));
//! assert_eq!((refs[1].id.as_str(), refs[1].first, refs[1].last), ("tasks-1", 6, 6));
//! assert_eq!(block_at(text, 3), Some((3, 4)));
//! ```

use super::block_starts::fence_open;
use super::frontmatter;
use crate::text::lines::split_lines;

/// A block with an id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockRef {
    /// The id, without `^`.
    pub id: String,
    /// The block's first line.
    pub first: usize,
    /// Its last line: the one that ends with the id.
    pub last: usize,
}

/// Whether `id` is a valid block id: letters, digits and `-`.
pub fn is_block_id(id: &str) -> bool {
    !id.is_empty() && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

/// The id a line ends with, if it ends with ` ^id` (or is `^id`).
pub fn trailing_block_id(line: &str) -> Option<&str> {
    let line = line.trim_end_matches([' ', '\t', '\r']);
    let caret = line.rfind('^')?;
    let id = &line[caret + 1..];
    let starts_word = caret == 0 || line[..caret].ends_with([' ', '\t']);
    (starts_word && is_block_id(id)).then_some(id)
}

/// Every block with an id in `text`, in line order.
pub fn block_refs(text: &str) -> Vec<BlockRef> {
    if !text.contains('^') {
        return Vec::new();
    }
    let lines: Vec<&str> = split_lines(text).collect();
    let kinds = line_kinds(text, &lines);
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if kinds[i] != Kind::Text {
            continue;
        }
        let Some(id) = trailing_block_id(line) else {
            continue;
        };
        let n = i + 1;
        let first = if line.trim_start().starts_with('^') {
            block_above(&lines, &kinds, n)
        } else {
            paragraph_start(&lines, &kinds, n)
        };
        out.push(BlockRef {
            id: id.to_string(),
            first,
            last: n,
        });
    }
    out
}

/// The paragraph or list item holding line `line` (1-based), as
/// `(first, last)`; `None` for a blank line, a heading, or code.
pub fn block_at(text: &str, line: usize) -> Option<(usize, usize)> {
    let lines: Vec<&str> = split_lines(text).collect();
    let kinds = line_kinds(text, &lines);
    if line == 0 || line > lines.len() || kinds[line - 1] != Kind::Text {
        return None;
    }
    let first = paragraph_start(&lines, &kinds, line);
    let mut last = line;
    while last < lines.len()
        && kinds[last] == Kind::Text
        && !is_item_start(lines[last])
        && trailing_block_id(lines[last - 1]).is_none()
    {
        last += 1;
    }
    Some((first, last))
}

/// What a line is, for finding blocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Text a block can be made of.
    Text,
    /// Blank, or a line that ends a block (heading, thematic break).
    Boundary,
    /// Frontmatter, or a code block's fence or content.
    Code,
}

fn line_kinds(text: &str, lines: &[&str]) -> Vec<Kind> {
    let mut kinds = vec![Kind::Text; lines.len()];
    let front_end = frontmatter::detect(text).map_or(0, |f| f.end_line);
    let mut fence: Option<(u8, usize)> = None;
    for (i, line) in lines.iter().enumerate() {
        if i < front_end {
            kinds[i] = Kind::Code;
            continue;
        }
        let trimmed = line.trim_start_matches([' ', '\t']);
        let rest = trimmed.as_bytes();
        if let Some((c, len)) = fence {
            kinds[i] = Kind::Code;
            let run = rest.iter().take_while(|&&b| b == c).count();
            if run >= len && rest[run..].iter().all(|b| b.is_ascii_whitespace()) {
                fence = None;
            }
            continue;
        }
        if let Some(open) = fence_open(rest) {
            fence = Some(open);
            kinds[i] = Kind::Code;
            continue;
        }
        let blank = trimmed.trim().is_empty();
        let indent = line.len() - trimmed.len();
        let after_blank = i == 0 || kinds[i - 1] != Kind::Text;
        if blank || trimmed.starts_with('#') && is_heading(trimmed) || is_rule(trimmed) {
            kinds[i] = Kind::Boundary;
        } else if indent >= 4 && after_blank && !list_above(lines, i) {
            kinds[i] = Kind::Code;
        }
    }
    kinds
}

/// Whether line index `i` (indented, after a blank line) continues a list
/// item above it rather than starting an indented code block: going up over
/// blank and indented lines, a list item comes before any line that starts
/// at the margin (a paragraph, a heading: the list has ended there).
fn list_above(lines: &[&str], i: usize) -> bool {
    for line in lines[..i].iter().rev() {
        if is_item_start(line) {
            return true;
        }
        if !line.trim().is_empty() && !line.starts_with([' ', '\t']) {
            return false;
        }
    }
    false
}

fn is_heading(trimmed: &str) -> bool {
    let hashes = trimmed.bytes().take_while(|&b| b == b'#').count();
    (1..=6).contains(&hashes) && matches!(trimmed.as_bytes().get(hashes), None | Some(b' ' | b'\t'))
}

fn is_rule(trimmed: &str) -> bool {
    let t: String = trimmed.chars().filter(|c| !c.is_whitespace()).collect();
    t.len() >= 3
        && (t.chars().all(|c| c == '-')
            || t.chars().all(|c| c == '*')
            || t.chars().all(|c| c == '_'))
}

/// Whether `line` starts a list item (`- x`, `* x`, `1. x`, `- [ ] x`), at
/// any depth.
fn is_item_start(line: &str) -> bool {
    let rest = line.trim_start_matches([' ', '\t']).as_bytes();
    let marker = match rest.first() {
        Some(b'-' | b'+' | b'*') => 1,
        Some(b'0'..=b'9') => {
            let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
            if digits > 9 || !matches!(rest.get(digits), Some(b'.' | b')')) {
                return false;
            }
            digits + 1
        }
        _ => return false,
    };
    matches!(rest.get(marker), None | Some(b' ' | b'\t'))
}

/// The first line of the paragraph or list item that holds line `n`.
fn paragraph_start(lines: &[&str], kinds: &[Kind], n: usize) -> usize {
    let mut first = n;
    while first > 1 && !is_item_start(lines[first - 1]) && kinds[first - 2] == Kind::Text {
        first -= 1;
    }
    first
}

/// The first line of the block above an id that stands on its own line `n`.
fn block_above(lines: &[&str], kinds: &[Kind], n: usize) -> usize {
    let mut end = n - 1;
    if end >= 1 && kinds[end - 1] == Kind::Boundary && lines[end - 1].trim().is_empty() {
        end -= 1;
    }
    if end == 0 || kinds[end - 1] == Kind::Boundary {
        return n;
    }
    let mut first = end;
    while first > 1 && kinds[first - 2] != Kind::Boundary {
        first -= 1;
    }
    first
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refs(text: &str) -> Vec<(String, usize, usize)> {
        block_refs(text)
            .into_iter()
            .map(|b| (b.id, b.first, b.last))
            .collect()
    }

    #[test]
    fn paragraphs_items_and_lone_ids() {
        let text = "---\nx: ^no\n---\n\
                    Intro line\nends here ^intro\n\
                    \n- one\n- two ^two\n  more\n\
                    \n| a | b |\n|---|---|\n\n^table\n\
                    \n```\ncode ^nope\n```\n\
                    ## Heading ^head\n";
        assert_eq!(
            refs(text),
            [
                ("intro".to_string(), 4, 5),
                ("two".to_string(), 8, 8),
                ("table".to_string(), 11, 14),
            ]
        );
    }

    #[test]
    fn ids_in_indented_code_are_not_ids() {
        let text =
            "- item ^one\n\nA paragraph.\n\n    code ^nope\n\n- two\n\n    more of two ^two\n";
        assert_eq!(
            refs(text),
            [("one".to_string(), 1, 1), ("two".to_string(), 9, 9)]
        );
    }

    #[test]
    fn the_block_at_a_line() {
        let text = "# T\n\nOne\ntwo\nthree\n\n- a\n- b\n  b2\n";
        assert_eq!(block_at(text, 4), Some((3, 5)));
        assert_eq!(block_at(text, 8), Some((8, 9)));
        assert_eq!(block_at(text, 1), None);
        assert_eq!(block_at(text, 2), None);
        assert_eq!(trailing_block_id("text ^a-1 "), Some("a-1"));
        assert_eq!(trailing_block_id("2^3"), None);
    }
}
