//! Indentation: measuring a block's common indentation and re-basing new
//! content onto the indentation of the place it goes (`preserveIndent`).
//!
//! Re-basing replaces the common leading whitespace of the content's non-blank
//! lines with the target's; indentation relative to that is kept, and blank
//! lines are left as they are.
//!
//! ```
//! use mcp_server_text::text::indent::{common_indent, rebase};
//!
//! assert_eq!(common_indent(["    a", "      b", ""]), "    ");
//! assert_eq!(rebase("if x:\n    y()\n", "\t"), "\tif x:\n\t    y()\n");
//! ```

/// The leading spaces and tabs of `line`.
pub fn indent_of(line: &str) -> &str {
    let end = line.len() - line.trim_start_matches([' ', '\t']).len();
    &line[..end]
}

/// Whether `line` holds only spaces and tabs (or nothing).
pub fn is_blank(line: &str) -> bool {
    line.trim_matches([' ', '\t', '\r']).is_empty()
}

/// The longest leading whitespace shared by all non-blank `lines` (character
/// for character, so a tab and spaces do not count as shared).
pub fn common_indent<'a>(lines: impl IntoIterator<Item = &'a str>) -> &'a str {
    let mut common: Option<&'a str> = None;
    for line in lines.into_iter().filter(|l| !is_blank(l)) {
        let indent = indent_of(line);
        common = Some(match common {
            None => indent,
            Some(prev) => {
                let shared = prev
                    .bytes()
                    .zip(indent.bytes())
                    .take_while(|(a, b)| a == b)
                    .count();
                &prev[..shared]
            }
        });
    }
    common.unwrap_or("")
}

/// Re-bases `content` so that its common indentation becomes `target`.
/// Line endings inside `content` are kept as given.
pub fn rebase(content: &str, target: &str) -> String {
    let lines: Vec<&str> = content.split('\n').collect();
    let common = common_indent(lines.iter().map(|l| l.strip_suffix('\r').unwrap_or(l)));
    if common == target {
        return content.to_string();
    }
    let mut out = String::with_capacity(content.len() + lines.len() * target.len());
    for (i, line) in lines.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        if is_blank(line) {
            out.push_str(line);
        } else {
            out.push_str(target);
            out.push_str(&line[common.len()..]);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measures_indentation() {
        assert_eq!(indent_of("  \tx "), "  \t");
        assert_eq!(indent_of("x"), "");
        assert_eq!(common_indent(["\tx", "    y"]), "");
        assert_eq!(common_indent(["", "   "]), "");
        assert!(is_blank(" \t\r"));
    }

    #[test]
    fn rebase_keeps_relative_indentation_and_blank_lines() {
        assert_eq!(rebase("a\n  b\n\nc", "    "), "    a\n      b\n\n    c");
        assert_eq!(rebase("        a\n          b", "    "), "    a\n      b");
        assert_eq!(rebase("  a\r\n  b\r\n", ""), "a\r\nb\r\n");
        assert_eq!(rebase("    same", "    "), "    same");
    }
}
