//! Frontmatter: a YAML (`---`) or TOML (`+++`) block at the very start of a
//! document, as static site generators and many note tools read it.
//!
//! It must start at byte 0 and be closed: YAML by `---` or `...`, TOML by
//! `+++`, each alone on its line (trailing spaces allowed). An unclosed block
//! is not frontmatter, and neither is a `---` block further down (that is a
//! thematic break or a setext underline).
//!
//! Keys are the top-level ones. YAML: lines that start at column 0 with a key
//! followed by `:` (plain or quoted), not list items, comments or document
//! markers. TOML: `key = …` lines before the first table header, then the name
//! of each table (`[server]`, `[[plugins]]` gives `server`, `plugins`), each
//! once, since a tool that lists keys wants to see every top-level name.

use schemars::JsonSchema;
use serde::Serialize;

use crate::text::lines::split_lines;

/// The language of a frontmatter block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum FrontmatterKind {
    /// Between `---` lines.
    Yaml,
    /// Between `+++` lines.
    Toml,
}

/// The frontmatter block at the start of a document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Frontmatter {
    /// YAML or TOML.
    pub kind: FrontmatterKind,
    /// Line of the opening marker (always 1).
    pub start_line: usize,
    /// Line of the closing marker.
    pub end_line: usize,
    /// Top-level keys in order of appearance.
    pub keys: Vec<String>,
}

/// The frontmatter at the start of `text`, if there is a closed one.
pub(crate) fn detect(text: &str) -> Option<Frontmatter> {
    let mut lines = split_lines(text);
    let first = lines.next()?.trim_end_matches([' ', '\t']);
    let kind = match first {
        "---" => FrontmatterKind::Yaml,
        "+++" => FrontmatterKind::Toml,
        _ => return None,
    };
    let mut keys = Vec::new();
    let mut in_table = false;
    for (i, line) in lines.enumerate() {
        let trimmed = line.trim_end_matches([' ', '\t']);
        let closes = match kind {
            FrontmatterKind::Yaml => trimmed == "---" || trimmed == "...",
            FrontmatterKind::Toml => trimmed == "+++",
        };
        if closes {
            return Some(Frontmatter {
                kind,
                start_line: 1,
                end_line: i + 2,
                keys,
            });
        }
        let key = match kind {
            FrontmatterKind::Yaml => yaml_key(line),
            FrontmatterKind::Toml => toml_key(line, &mut in_table),
        };
        if let Some(key) = key
            && !keys.iter().any(|k| k == key)
        {
            keys.push(key.to_string());
        }
    }
    None
}

/// The key of a top-level YAML mapping entry (`key: value` or `key:`).
fn yaml_key(line: &str) -> Option<&str> {
    let first = line.chars().next()?;
    if first.is_whitespace() || "#-[]{}&*!|>%@`,".contains(first) {
        return None;
    }
    if first == '"' || first == '\'' {
        let close = line[1..].find(first)? + 1;
        return key_colon(&line[close + 1..]).then_some(&line[1..close]);
    }
    let colon = line
        .match_indices(':')
        .map(|(at, _)| at)
        .find(|&at| matches!(line.as_bytes().get(at + 1), None | Some(b' ' | b'\t')))?;
    let key = line[..colon].trim_end();
    (!key.is_empty()).then_some(key)
}

/// Whether `after` (the text right after a quoted key) is `:` then a space,
/// a tab or the end of the line.
fn key_colon(after: &str) -> bool {
    let after = after.trim_start_matches([' ', '\t']);
    after == ":" || after.starts_with(": ") || after.starts_with(":\t")
}

/// The top-level key or table name on a TOML line; `in_table` tracks whether a
/// table header was seen (keys after it belong to the table).
fn toml_key<'a>(line: &'a str, in_table: &mut bool) -> Option<&'a str> {
    let line = line.trim();
    if let Some(header) = line.strip_prefix('[') {
        *in_table = true;
        let header = header.strip_prefix('[').unwrap_or(header);
        let end = header.find(']')?;
        let name = header[..end].trim();
        let top = name.split('.').next()?.trim();
        return (!top.is_empty()).then_some(top.trim_matches(['"', '\'']));
    }
    if *in_table || line.starts_with('#') {
        return None;
    }
    let eq = line.find('=')?;
    let key = line[..eq].trim();
    let key = key.split('.').next()?.trim().trim_matches(['"', '\'']);
    (!key.is_empty()).then_some(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaml_frontmatter() {
        let text = "---\ntitle: Hello\ntags:\n  - a\n  - b\n# comment\n- item\nnested:\n  inner: 1\n\"quoted key\": x\nurl: http://x\n---\n# Body\n";
        assert_eq!(
            detect(text),
            Some(Frontmatter {
                kind: FrontmatterKind::Yaml,
                start_line: 1,
                end_line: 12,
                keys: vec![
                    "title".into(),
                    "tags".into(),
                    "nested".into(),
                    "quoted key".into(),
                    "url".into()
                ],
            })
        );
    }

    #[test]
    fn yaml_closed_by_dots_and_with_crlf() {
        let text = "---\r\na: 1\r\n...\r\nbody\r\n";
        let fm = detect(text).unwrap();
        assert_eq!((fm.end_line, fm.keys), (3, vec!["a".to_string()]));
    }

    #[test]
    fn toml_frontmatter() {
        let text = "+++\ntitle = \"x\"\ndate = 2024-01-01\n# note\n[params]\nauthor = \"me\"\n[[menu.main]]\nname = \"m\"\n+++\n";
        assert_eq!(
            detect(text),
            Some(Frontmatter {
                kind: FrontmatterKind::Toml,
                start_line: 1,
                end_line: 9,
                keys: vec![
                    "title".into(),
                    "date".into(),
                    "params".into(),
                    "menu".into()
                ],
            })
        );
    }

    #[test]
    fn not_frontmatter() {
        assert_eq!(detect(""), None);
        assert_eq!(detect("---\ntitle: x\n"), None);
        assert_eq!(detect("\n---\na: 1\n---\n"), None);
        assert_eq!(detect(" ---\na: 1\n---\n"), None);
        assert_eq!(detect("----\na: 1\n----\n"), None);
        assert_eq!(detect("+++\na = 1\n---\n"), None);
    }

    #[test]
    fn empty_frontmatter() {
        let fm = detect("---\n---\n").unwrap();
        assert_eq!((fm.start_line, fm.end_line, fm.keys.len()), (1, 2, 0));
    }
}
