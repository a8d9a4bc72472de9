//! Writing JSON values as YAML frontmatter lines, in the style a file
//! already uses: a string keeps its quotes (and is quoted only when YAML
//! needs it), a list is written `[a, b]` or as `- a` lines as the file
//! writes lists, a mapping as the file wrote it.
//!
//! ```text
//! status: done            plain: YAML reads it back as the same string
//! title: "Yes"            quoted: plain `Yes` would be a boolean to YAML 1.1 readers
//! tags: [a, "b, c"]       flow list, as the file had it
//! ```

use saphyr_parser::ScalarStyle;
use serde_json::Value;

use super::yaml_read::{Written, plain_in_flow, plain_value};

/// How lists are written in a frontmatter block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum ListStyle {
    /// `key: [a, b]`.
    Flow,
    /// `key:` then `<indent>- a` lines.
    Block(String),
}

/// The lines (without endings) of an entry `key` set to `value`.
///
/// `prefix` is the text before an old one-line value (`status: `), kept so
/// that only the value's own bytes change; `old` how the value was written
/// (`None` for a new key); `comment` a comment that followed the old value.
pub(super) fn entry_lines(
    raw_key: &str,
    prefix: Option<&str>,
    value: &Value,
    old: Option<&Written>,
    lists: &ListStyle,
    comment: Option<&str>,
) -> Vec<String> {
    let inline_prefix = || {
        prefix
            .map(str::to_string)
            .unwrap_or_else(|| format!("{raw_key}: "))
    };
    let bare_key = || {
        let p = prefix.map(str::trim_end).unwrap_or("");
        if p.ends_with(':') {
            p.to_string()
        } else {
            format!("{raw_key}:")
        }
    };
    let comment = comment.unwrap_or("");
    match value {
        Value::Null => {
            vec![format!("{}{comment}", inline_prefix().trim_end())]
        }
        Value::Array(items) => {
            let style = match old {
                Some(Written::FlowList) => ListStyle::Flow,
                Some(Written::BlockList(indent)) => ListStyle::Block(indent.clone()),
                _ => lists.clone(),
            };
            match style {
                _ if items.is_empty() => vec![format!("{}[]{comment}", inline_prefix())],
                ListStyle::Flow => vec![format!("{}{}{comment}", inline_prefix(), flow(value))],
                ListStyle::Block(indent) => {
                    let mut lines = vec![bare_key()];
                    for item in items {
                        lines.push(format!("{indent}- {}", block_item(item)));
                    }
                    lines
                }
            }
        }
        Value::Object(map) => match old {
            Some(Written::BlockMap(indent)) if !map.is_empty() => {
                let mut lines = vec![bare_key()];
                for (k, v) in map {
                    lines.push(format!("{indent}{}: {}", scalar_key(k), block_item(v)));
                }
                lines
            }
            _ => vec![format!("{}{}{comment}", inline_prefix(), flow(value))],
        },
        scalar => {
            let style = match old {
                Some(Written::Scalar(style)) => *style,
                _ => ScalarStyle::Plain,
            };
            match scalar_text(scalar, style) {
                Scalar::Inline(text) => vec![format!("{}{text}{comment}", inline_prefix())],
                Scalar::Literal(lines) => {
                    let mut out = vec![format!("{}{}", inline_prefix(), lines.0)];
                    out.extend(
                        lines.1.into_iter().map(
                            |l| {
                                if l.is_empty() { l } else { format!("  {l}") }
                            },
                        ),
                    );
                    out
                }
            }
        }
    }
}

/// A scalar written inline, or as a literal block (`|` and its lines).
enum Scalar {
    Inline(String),
    Literal((String, Vec<String>)),
}

/// A scalar value written in (or as close as possible to) `style`.
fn scalar_text(value: &Value, style: ScalarStyle) -> Scalar {
    let Value::String(s) = value else {
        // Numbers and booleans are written as JSON writes them, which YAML
        // reads back as the same value.
        return Scalar::Inline(value.to_string());
    };
    match style {
        ScalarStyle::SingleQuoted if single_quotable(s) => Scalar::Inline(single_quoted(s)),
        ScalarStyle::DoubleQuoted => Scalar::Inline(double_quoted(s)),
        ScalarStyle::Literal | ScalarStyle::Folded if literal_ok(s) => {
            let chomp = if s.ends_with("\n\n") {
                "|+"
            } else if s.ends_with('\n') {
                "|"
            } else {
                "|-"
            };
            let body = s.strip_suffix('\n').unwrap_or(s);
            let lines = body.split('\n').map(str::to_string).collect();
            Scalar::Literal((chomp.to_string(), lines))
        }
        _ => Scalar::Inline(string_text(s, false)),
    }
}

/// `s` plain if YAML reads it back as the same string, else double-quoted.
pub(super) fn string_text(s: &str, in_flow: bool) -> String {
    if plain_ok(s, in_flow) {
        s.to_string()
    } else {
        double_quoted(s)
    }
}

/// A list item or nested value: scalars as in a block, collections as flow.
fn block_item(value: &Value) -> String {
    match value {
        Value::String(s) => string_text(s, false),
        Value::Null => "null".to_string(),
        Value::Array(_) | Value::Object(_) => flow(value),
        other => other.to_string(),
    }
}

/// A key of a nested mapping.
fn scalar_key(key: &str) -> String {
    string_text(key, false)
}

/// A value in flow style: `[a, "b, c"]`, `{a: 1}`.
pub(super) fn flow(value: &Value) -> String {
    match value {
        Value::String(s) => string_text(s, true),
        Value::Null => "null".to_string(),
        Value::Array(items) => {
            let inner: Vec<String> = items.iter().map(flow).collect();
            format!("[{}]", inner.join(", "))
        }
        Value::Object(map) => {
            let inner: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{}: {}", string_text(k, true), flow(v)))
                .collect();
            format!("{{{}}}", inner.join(", "))
        }
        other => other.to_string(),
    }
}

/// Whether `s`, written plain, reads back as the string `s`.
pub(super) fn plain_ok(s: &str, in_flow: bool) -> bool {
    let Some(first) = s.chars().next() else {
        return false;
    };
    if s.starts_with([' ', '\t']) || s.ends_with([' ', '\t']) {
        return false;
    }
    if s.chars().any(|c| {
        c.is_control() || c == '\u{feff}' || c == '\u{85}' || c == '\u{2028}' || c == '\u{2029}'
    }) {
        return false;
    }
    if "[]{},#&*!|>'\"%@`".contains(first) {
        return false;
    }
    if matches!(first, '-' | '?' | ':') {
        let second = s[1..].chars().next();
        if second.is_none_or(|c| c == ' ' || (in_flow && ",[]{}".contains(c))) {
            return false;
        }
    }
    if s.starts_with("---") || s.starts_with("...") {
        return false;
    }
    if s.contains(": ") || s.ends_with(':') || s.contains(" #") {
        return false;
    }
    if in_flow && (s.contains([',', '[', ']', '{', '}']) || s.contains(':')) {
        return false;
    }
    // Words other YAML readers (YAML 1.1) take for booleans.
    let lower = s.to_ascii_lowercase();
    if matches!(lower.as_str(), "y" | "n" | "yes" | "no" | "on" | "off") {
        return false;
    }
    plain_value(s) == Value::String(s.to_string()) && (!in_flow || plain_in_flow(s))
}

fn single_quotable(s: &str) -> bool {
    !s.chars().any(|c| c.is_control() || c == '\u{feff}')
        && !s.is_empty()
        && !s.starts_with(' ')
        && !s.ends_with(' ')
}

fn single_quoted(s: &str) -> String {
    format!("'{}'", s.replace('\'', "''"))
}

/// `s` in double quotes, with YAML's escapes for what cannot stand as it is.
pub(super) fn double_quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\0' => out.push_str("\\0"),
            '\u{85}' => out.push_str("\\N"),
            '\u{2028}' => out.push_str("\\L"),
            '\u{2029}' => out.push_str("\\P"),
            '\u{feff}' => out.push_str("\\uFEFF"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Whether `s` can be written as a literal block: several lines, none
/// starting with a space (that would need an indentation indicator) and no
/// characters a block cannot hold.
fn literal_ok(s: &str) -> bool {
    s.contains('\n')
        && !s.starts_with([' ', '\n'])
        && !s.split('\n').any(|l| l.starts_with([' ', '\t']))
        && !s.chars().any(|c| c != '\n' && c.is_control())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn lines(value: Value, old: Option<&Written>, lists: ListStyle) -> Vec<String> {
        entry_lines("k", None, &value, old, &lists, None)
    }

    #[test]
    fn strings_are_quoted_only_when_needed() {
        for (s, written) in [
            ("done", "done"),
            ("Garden project", "Garden project"),
            ("yes", "\"yes\""),
            ("12", "\"12\""),
            ("", "\"\""),
            ("a: b", "\"a: b\""),
            ("#tag", "\"#tag\""),
            ("2026-05-01", "2026-05-01"),
            ("say \"hi\"", "say \"hi\""),
            ("line\nbreak", "\"line\\nbreak\""),
            ("- x", "\"- x\""),
            ("-x", "-x"),
            ("null", "\"null\""),
        ] {
            assert_eq!(string_text(s, false), written, "{s:?}");
        }
        assert_eq!(string_text("a, b", true), "\"a, b\"");
        assert_eq!(string_text("a, b", false), "a, b");
    }

    #[test]
    fn styles_follow_the_old_value() {
        let single = Written::Scalar(ScalarStyle::SingleQuoted);
        assert_eq!(
            lines(json!("it's"), Some(&single), ListStyle::Flow),
            ["k: 'it''s'"]
        );
        let double = Written::Scalar(ScalarStyle::DoubleQuoted);
        assert_eq!(
            lines(json!("x"), Some(&double), ListStyle::Flow),
            ["k: \"x\""]
        );
        assert_eq!(
            lines(
                json!(["a", "b c"]),
                Some(&Written::FlowList),
                ListStyle::Block("  ".into())
            ),
            ["k: [a, b c]"]
        );
        assert_eq!(
            lines(
                json!(["a"]),
                Some(&Written::BlockList("".into())),
                ListStyle::Flow
            ),
            ["k:", "- a"]
        );
        assert_eq!(
            lines(json!(["a", 1]), None, ListStyle::Block("  ".into())),
            ["k:", "  - a", "  - 1"]
        );
        assert_eq!(
            lines(json!([]), None, ListStyle::Block("  ".into())),
            ["k: []"]
        );
        assert_eq!(lines(Value::Null, None, ListStyle::Flow), ["k:"]);
        assert_eq!(
            lines(json!({"a": [1]}), None, ListStyle::Flow),
            ["k: {a: [1]}"]
        );
        let literal = Written::Scalar(ScalarStyle::Literal);
        assert_eq!(
            lines(json!("one\ntwo\n"), Some(&literal), ListStyle::Flow),
            ["k: |", "  one", "  two"]
        );
    }

    #[test]
    fn the_prefix_and_comment_are_kept() {
        let out = entry_lines(
            "status",
            Some("status:   "),
            &json!("done"),
            Some(&Written::Scalar(ScalarStyle::Plain)),
            &ListStyle::Flow,
            Some("  # workflow"),
        );
        assert_eq!(out, ["status:   done  # workflow"]);
    }
}
