//! What a grammar's C scanner can hold, checked before a text is parsed.
//!
//! Some tree-sitter grammars keep a stack in their external scanner and copy
//! it into a buffer of [`SERIALIZATION_BUFFER`] bytes after every token. When
//! the stack outgrows the buffer, the scanner writes past its end and the
//! parser's `length <= 1024` assertion aborts the whole process. An abort
//! cannot be caught, so a text that could get there is never handed to the
//! parser: one linear pass over it measures the stack it can build, and a
//! text beyond the limit is reported instead of parsed.
//!
//! | grammar | what its scanner keeps | when it overflows |
//! |---|---|---|
//! | YAML | 4 bytes per block indentation level (after a 10-byte header) | from 254 levels |
//! | Python | 1 byte per open string, 2 per indentation level (after 2 bytes) | from 384 levels with an odd number of open strings |
//! | HTML | open tags (a byte or two each, up to the room left) | never; but it rebuilds its whole tag stack before every token, so 40,000 open tags take 10 s |
//! | Bash, C++, Rust | heredocs, a raw-string delimiter, a hash count | never: each checks the room left or has a fixed size |
//! | JavaScript, TypeScript, TSX, CSS, TOML | nothing | never |
//! | C, Go, Java, JSON | no external scanner | never |
//!
//! The YAML measure follows lines by their indentation, as the scanner does,
//! and counts generously: two levels for every line that opens one (the
//! line's own node, and a sequence at the same column under a mapping), and
//! one more for every indicator on it that may open another (`- `, `? `,
//! `: `, `|`, `>`). A real file nests a few dozen levels; its measure stays
//! far below the limit.
//!
//! ```
//! use mcp_server_text::text::syntax::{Language, scanner_limit};
//!
//! let deep: String = (0..300).map(|i| format!("{}a:\n", " ".repeat(i))).collect();
//! let beyond = scanner_limit(Language::Yaml, &deep).unwrap_err();
//! assert!(beyond.found > beyond.limit);
//! assert!(scanner_limit(Language::Yaml, "a:\n  b: 1\n").is_ok());
//! ```

/// Bytes a scanner may write when it saves its state
/// (`TREE_SITTER_SERIALIZATION_BUFFER_SIZE` in tree-sitter's `parser.h`).
pub const SERIALIZATION_BUFFER: usize = 1024;

/// Most YAML nesting, by this module's measure, that is parsed. The scanner
/// overflows at 254 levels; the measure counts at least every level the
/// scanner keeps, and the rest is margin.
pub const YAML_MAX_NESTING: usize = 200;

/// Widest Python indentation (in the scanner's columns: a tab is 8) that is
/// parsed. The scanner keeps one entry per level, each wider than the last,
/// so a file indented at most this far keeps at most this many; with 255 open
/// strings that is `2 + 255 + 2 * 380 = 1017` bytes, inside the buffer.
pub const PYTHON_MAX_INDENT: usize = 380;

// The YAML scanner writes a 10-byte header and 4 bytes per level; the Python
// scanner 2 bytes, 1 per open string (at most 255 are saved) and 2 per level,
// and writes 2 bytes more once it has fewer than 1,024. Both limits must keep
// them inside the buffer.
const _: () = assert!(10 + 4 * YAML_MAX_NESTING <= SERIALIZATION_BUFFER);
const _: () = assert!(2 + 255 + 2 * PYTHON_MAX_INDENT + 2 <= SERIALIZATION_BUFFER);

/// Most open HTML tags, by this module's count, that are parsed: the
/// scanner's work grows with the square of the tags open at once.
pub const HTML_MAX_OPEN_TAGS: usize = 4000;

/// A text beyond what its grammar's scanner can hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Beyond {
    /// What was measured, e.g. "levels of indentation".
    pub what: &'static str,
    /// How much of it the text has (at least; the count stops past the limit).
    pub found: usize,
    /// The most that is parsed.
    pub limit: usize,
}

/// Checks `text` against the limits of `language`'s scanner.
pub fn scanner_limit(language: super::Language, text: &str) -> Result<(), Beyond> {
    use super::Language;
    match language {
        Language::Yaml => {
            let found = yaml_nesting(text, YAML_MAX_NESTING);
            within(found, YAML_MAX_NESTING, "levels of nesting")
        }
        Language::Python => {
            let found = python_indent(text);
            within(found, PYTHON_MAX_INDENT, "columns of indentation")
        }
        Language::Html => {
            let found = html_open_tags(text, HTML_MAX_OPEN_TAGS);
            within(found, HTML_MAX_OPEN_TAGS, "tags open at once")
        }
        _ => Ok(()),
    }
}

fn within(found: usize, limit: usize, what: &'static str) -> Result<(), Beyond> {
    if found > limit {
        Err(Beyond { what, found, limit })
    } else {
        Ok(())
    }
}

/// The widest indentation the Python scanner can compute: after a line
/// break, spaces count 1, tabs 8, a form feed or carriage return starts
/// again from 0, and a backslash before a line break carries the count on to
/// the next line.
fn python_indent(text: &str) -> usize {
    let bytes = text.as_bytes();
    let mut widest = 0;
    let mut at = 0;
    while let Some(found) = memchr::memchr(b'\n', &bytes[at..]) {
        at += found + 1;
        let mut width = 0usize;
        while let Some(&b) = bytes.get(at) {
            match b {
                b' ' => width += 1,
                b'\t' => width += 8,
                b'\r' | b'\x0c' => width = 0,
                b'\\' => {
                    let mut next = at + 1;
                    if bytes.get(next) == Some(&b'\r') {
                        next += 1;
                    }
                    if bytes.get(next) != Some(&b'\n') {
                        break;
                    }
                    at = next;
                }
                _ => break,
            }
            widest = widest.max(width);
            at += 1;
        }
    }
    widest
}

/// Elements whose end tag may be left out: the scanner closes them when a
/// sibling starts, so they do not pile up.
const OPTIONAL_END: &[&str] = &[
    "p", "li", "dt", "dd", "tr", "td", "th", "option", "optgroup", "rb", "rt", "rp", "rtc",
    "thead", "tbody", "tfoot", "colgroup", "caption", "html", "head", "body",
];

/// Elements that never have content.
const VOID: &[&str] = &[
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source",
    "track", "wbr",
];

/// The most HTML tags open at once, counted generously: every start tag
/// but those of void elements, those closing themselves (`/>`) and those
/// whose end tag may be left out, less every end tag. Comments and the
/// contents of `<script>` and `<style>` are skipped. Stops past `limit`.
fn html_open_tags(text: &str, limit: usize) -> usize {
    let bytes = text.as_bytes();
    let (mut open, mut most) = (0usize, 0usize);
    let mut at = 0;
    while let Some(found) = memchr::memchr(b'<', &bytes[at..]) {
        at += found + 1;
        if bytes[at..].starts_with(b"!--") {
            at = memchr::memmem::find(&bytes[at..], b"-->").map_or(bytes.len(), |end| at + end);
            continue;
        }
        let closing = bytes.get(at) == Some(&b'/');
        let name_start = at + usize::from(closing);
        let name_len = bytes[name_start..]
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b':'))
            .count();
        if name_len == 0 || !bytes[name_start].is_ascii_alphabetic() {
            continue;
        }
        let name = text[name_start..name_start + name_len].to_ascii_lowercase();
        at = name_start + name_len;
        if closing {
            open = open.saturating_sub(1);
            continue;
        }
        let tag_end = memchr::memchr(b'>', &bytes[at..]).map_or(bytes.len(), |end| at + end);
        let self_closing = tag_end > at && bytes[tag_end - 1] == b'/';
        if name == "script" || name == "style" {
            let end_tag = format!("</{name}");
            at = find_ascii_case_insensitive(&bytes[tag_end..], end_tag.as_bytes())
                .map_or(bytes.len(), |end| tag_end + end);
            continue;
        }
        if self_closing || VOID.contains(&name.as_str()) || OPTIONAL_END.contains(&name.as_str()) {
            continue;
        }
        open += 1;
        most = most.max(open);
        if most > limit {
            break;
        }
    }
    most
}

/// Where `needle` (lowercase ASCII) first occurs in `haystack`, in any case.
fn find_ascii_case_insensitive(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|window| window.eq_ignore_ascii_case(needle))
}

/// The YAML nesting measure of the module doc; it stops counting once past
/// `limit`.
fn yaml_nesting(text: &str, limit: usize) -> usize {
    // Each entry: a line's indentation and the levels it may open.
    let mut stack: Vec<(usize, usize)> = Vec::new();
    let mut total = 0;
    let mut deepest = 0;
    for line in text.split('\n') {
        let indent = line
            .bytes()
            .take_while(|&b| b == b' ' || b == b'\t')
            .count();
        let content = &line.as_bytes()[indent..];
        if content.is_empty() || content == b"\r" || content[0] == b'#' {
            continue;
        }
        while let Some(&(top, levels)) = stack.last() {
            if top < indent {
                break;
            }
            total -= levels;
            stack.pop();
        }
        let levels = 2 + yaml_indicators(content);
        stack.push((indent, levels));
        total += levels;
        deepest = deepest.max(total);
        if deepest > limit {
            break;
        }
    }
    deepest
}

/// Indicators on a line (its text after the indentation) that may open a
/// block node, outside quotes and flow brackets closed on the same line.
fn yaml_indicators(line: &[u8]) -> usize {
    let mut count = 0;
    let mut i = 0;
    // Where a token may start: at the beginning, or after white space.
    let mut token_start = true;
    while i < line.len() {
        let b = line[i];
        let next_is_space = line
            .get(i + 1)
            .is_none_or(|&n| n == b' ' || n == b'\t' || n == b'\r');
        match b {
            b'#' if token_start => break,
            b'"' | b'\'' if token_start => match closing_quote(line, i) {
                Some(end) => i = end,
                None => break,
            },
            b'[' | b'{' if token_start => match closing_bracket(line, i) {
                Some(end) => i = end,
                None => break,
            },
            b'-' | b'?' if token_start && next_is_space => count += 1,
            b'|' | b'>' if token_start => count += 1,
            b':' if next_is_space => count += 1,
            _ => {}
        }
        token_start = matches!(b, b' ' | b'\t');
        i += 1;
    }
    count
}

/// Where the quoted scalar opened at `at` closes on this line.
fn closing_quote(line: &[u8], at: usize) -> Option<usize> {
    let quote = line[at];
    let mut i = at + 1;
    while i < line.len() {
        match line[i] {
            b'\\' if quote == b'"' => i += 1,
            b'\'' if quote == b'\'' && line.get(i + 1) == Some(&b'\'') => i += 1,
            b if b == quote => return Some(i),
            _ => {}
        }
        i += 1;
    }
    None
}

/// Where the flow collection opened at `at` closes on this line.
fn closing_bracket(line: &[u8], at: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, &b) in line.iter().enumerate().skip(at) {
        match b {
            b'[' | b'{' => depth += 1,
            b']' | b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::syntax::Language;

    fn nested_mappings(levels: usize) -> String {
        (0..levels)
            .map(|i| format!("{}a:\n", " ".repeat(i)))
            .collect()
    }

    #[test]
    fn real_yaml_nests_shallowly() {
        let workflow = "name: CI\non:\n  push:\n    branches: [main]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - name: Test\n        run: |\n          cargo test -- --nocapture\n          echo \"a: b - c\"\n";
        let found = yaml_nesting(workflow, YAML_MAX_NESTING);
        assert!(found < 20, "{found}");
        assert!(scanner_limit(Language::Yaml, workflow).is_ok());
    }

    #[test]
    fn deep_yaml_is_beyond_the_limit() {
        let beyond = scanner_limit(Language::Yaml, &nested_mappings(260)).unwrap_err();
        assert_eq!(beyond.limit, YAML_MAX_NESTING);
        assert!(beyond.found > YAML_MAX_NESTING);
        // Siblings and lines back at a lower indentation give levels back.
        let wide: String = (0..5000).map(|i| format!("k{i}:\n  v: 1\n")).collect();
        assert!(yaml_nesting(&wide, YAML_MAX_NESTING) < 10);
    }

    #[test]
    fn compact_sequences_on_one_line_count() {
        let line = format!("{}x\n", "- ".repeat(250));
        assert!(scanner_limit(Language::Yaml, &line).is_err());
        let quoted = format!("k: \"{}\"\n", "- ".repeat(250));
        assert!(scanner_limit(Language::Yaml, &quoted).is_ok());
    }

    #[test]
    fn python_indentation_is_measured_as_the_scanner_does() {
        assert_eq!(python_indent("def f():\n    return 1\n"), 4);
        assert_eq!(python_indent("if a:\n\tb\n"), 8);
        assert_eq!(python_indent("x\n  \\\n  y\n"), 4);
        assert_eq!(python_indent("x\n   \x0c y\n"), 3);
        let deep = format!("x\n{}y\n", " ".repeat(PYTHON_MAX_INDENT + 1));
        let beyond = scanner_limit(Language::Python, &deep).unwrap_err();
        assert_eq!(beyond.found, PYTHON_MAX_INDENT + 1);
        let at_limit = format!("x\n{}y\n", " ".repeat(PYTHON_MAX_INDENT));
        assert!(scanner_limit(Language::Python, &at_limit).is_ok());
    }

    #[test]
    fn html_counts_the_tags_left_open() {
        assert_eq!(html_open_tags("<div><p>a<p>b<br><img/></div>", 100), 1);
        assert_eq!(
            html_open_tags("<script>if (a<b) { x('<div>') }</script><div>", 100),
            1
        );
        assert_eq!(html_open_tags("<!-- <div><div> --><span></span>", 100), 1);
        let deep = "<div>".repeat(HTML_MAX_OPEN_TAGS + 1);
        assert!(scanner_limit(Language::Html, &deep).is_err());
        let closed = "<div></div>".repeat(HTML_MAX_OPEN_TAGS + 1);
        assert!(scanner_limit(Language::Html, &closed).is_ok());
    }

    #[test]
    fn other_grammars_have_no_limit() {
        let deep = "(".repeat(100_000);
        for language in Language::ALL {
            if !matches!(language, Language::Yaml | Language::Python | Language::Html) {
                assert!(scanner_limit(language, &deep).is_ok(), "{language}");
            }
        }
    }
}
