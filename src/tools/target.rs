//! The `target` parameter of TextRead and TextPatch: parsing the JSON an agent
//! sends into a [`Target`], refusing removed and unknown targets with the name
//! of what replaces them.
//!
//! ```
//! use mcp_server_text::tools::target::{parse_target, Target, TargetUse};
//! use serde_json::json;
//!
//! let t = parse_target(&json!({"appendToSection": "## Setup"}), TargetUse::Patch).unwrap();
//! assert_eq!(t, Target::AppendToSection("## Setup".into()));
//! let err = parse_target(&json!({"afterHeading": "## Setup"}), TargetUse::Patch).unwrap_err();
//! assert!(err.message.contains("appendToSection"));
//! ```

use std::borrow::Cow;

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value};

use super::args::kind_of;
use super::error::ToolError;
use crate::text::excerpt::brief;
use crate::text::markdown::HeadingLookupError;
pub use crate::text::targets::Target;
use crate::text::targets::{SymbolPart, TargetError};

/// Which tool the target is for; each accepts a different set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TargetUse {
    /// TextRead: lines, heading, codeBlock, anchor, section.
    Read,
    /// TextPatch: lines, heading, beforeHeading, appendToSection, codeBlock.
    Patch,
}

impl TargetUse {
    fn accepted(self) -> &'static str {
        match self {
            TargetUse::Read => {
                "lines {\"start\": N, \"end\": M}, heading \"## Title\", codeBlock {\"index\": N}, anchor \"anchor-id\", section \"[name]\", block \"^block-id\", symbol \"Class.method\", symbolBody \"Class.method\""
            }
            TargetUse::Patch => {
                "lines {\"start\": N, \"end\": M}, heading \"## Title\", beforeHeading \"## Title\", appendToSection \"## Title\", codeBlock {\"index\": N}, block \"^block-id\", symbol \"Class.method\", symbolBody \"Class.method\", beforeSymbol \"Class.method\""
            }
        }
    }

    fn tool(self) -> &'static str {
        match self {
            TargetUse::Read => "TextRead",
            TargetUse::Patch => "TextPatch",
        }
    }
}

/// The raw `target` argument: any JSON, checked by [`parse_target`] so that
/// its errors can say exactly which target forms exist.
#[derive(Debug, Clone, PartialEq)]
pub struct TargetArg(pub Value);

impl<'de> Deserialize<'de> for TargetArg {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Value::deserialize(deserializer).map(TargetArg)
    }
}

fn lines_schema() -> Value {
    serde_json::json!({
        "type": "object",
        "properties": {
            "start": { "type": "integer", "minimum": 1 },
            "end": { "type": "integer", "minimum": 1 }
        },
        "required": ["start"],
        "additionalProperties": false
    })
}

fn code_block_schema() -> Value {
    serde_json::json!({
        "type": "object",
        "properties": { "index": { "type": "integer", "minimum": 0 } },
        "required": ["index"],
        "additionalProperties": false
    })
}

/// One object holding exactly one of `options`' keys: a single schema rather
/// than one `oneOf` branch per key, which would repeat the object's shape for
/// every target.
fn one_of(options: &[(&str, Value)]) -> schemars::Schema {
    let properties: Map<String, Value> = options
        .iter()
        .map(|(key, schema)| (key.to_string(), schema.clone()))
        .collect();
    schemars::json_schema!({
        "type": "object",
        "properties": properties,
        "minProperties": 1,
        "maxProperties": 1,
        "additionalProperties": false
    })
}

/// The `target` of TextRead, with its schema.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(transparent)]
pub struct ReadTarget(pub TargetArg);

/// The `target` of TextPatch, with its schema.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(transparent)]
pub struct PatchTarget(pub TargetArg);

impl JsonSchema for ReadTarget {
    fn schema_name() -> Cow<'static, str> {
        "ReadTarget".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let text = serde_json::json!({ "type": "string" });
        one_of(&[
            ("lines", lines_schema()),
            ("heading", text.clone()),
            ("codeBlock", code_block_schema()),
            ("anchor", text.clone()),
            ("section", text.clone()),
            ("block", text.clone()),
            ("symbol", text.clone()),
            ("symbolBody", text),
        ])
    }
}

impl JsonSchema for PatchTarget {
    fn schema_name() -> Cow<'static, str> {
        "PatchTarget".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let text = serde_json::json!({ "type": "string" });
        one_of(&[
            ("lines", lines_schema()),
            ("heading", text.clone()),
            ("beforeHeading", text.clone()),
            ("appendToSection", text.clone()),
            ("codeBlock", code_block_schema()),
            ("block", text.clone()),
            ("symbol", text.clone()),
            ("symbolBody", text.clone()),
            ("beforeSymbol", text),
        ])
    }
}

/// Parses a target for `use_`, refusing anything it does not accept.
pub fn parse_target(value: &Value, use_: TargetUse) -> Result<Target, ToolError> {
    let invalid = |why: String| {
        ToolError::new(format!("Invalid target for {}: {why}", use_.tool()))
            .suggest(format!("Use ONE of: {}", use_.accepted()))
    };
    // Some clients send objects as JSON text; take the text's object.
    let parsed;
    let value = match value {
        Value::String(s) if s.trim_start().starts_with('{') => {
            parsed = serde_json::from_str::<Value>(s)
                .map_err(|e| invalid(format!("target is a string that is not valid JSON ({e})")))?;
            &parsed
        }
        other => other,
    };
    let Value::Object(map) = value else {
        return Err(invalid(format!(
            "target must be an object such as {{\"heading\": \"## Title\"}}, got {}",
            kind_of(value)
        )));
    };
    let keys: Vec<&String> = map.keys().collect();
    let (key, inner) = match keys.as_slice() {
        [] => return Err(invalid("target is empty".into())),
        [key] => (key.as_str(), &map[key.as_str()]),
        _ => {
            return Err(invalid(format!(
                "target has {} keys ({}), but exactly one targeting method must be used",
                keys.len(),
                keys.iter().map(|k| brief(k)).collect::<Vec<_>>().join(", ")
            )));
        }
    };
    if let Some(replacement) = removed(key, use_) {
        return Err(ToolError::new(format!(
            "The '{key}' target is not available in {}: {replacement}",
            use_.tool()
        ))
        .suggest(format!(
            "Targets {} accepts: {}",
            use_.tool(),
            use_.accepted()
        )));
    }
    let target = match key {
        "lines" => parse_lines(inner).map_err(invalid)?,
        "heading" => Target::Heading(text_value(key, inner).map_err(invalid)?),
        "codeBlock" => Target::CodeBlock {
            index: parse_index(inner).map_err(invalid)?,
        },
        "beforeHeading" if use_ == TargetUse::Patch => {
            Target::BeforeHeading(text_value(key, inner).map_err(invalid)?)
        }
        "appendToSection" if use_ == TargetUse::Patch => {
            Target::AppendToSection(text_value(key, inner).map_err(invalid)?)
        }
        "anchor" if use_ == TargetUse::Read => {
            Target::Anchor(text_value(key, inner).map_err(invalid)?)
        }
        "section" if use_ == TargetUse::Read => {
            Target::Section(text_value(key, inner).map_err(invalid)?)
        }
        "block" => Target::Block(block_id(inner).map_err(invalid)?),
        "symbol" | "symbolBody" | "beforeSymbol" => {
            symbol_target(key, inner, use_).map_err(invalid)?
        }
        other => return Err(invalid(format!("unknown target '{}'", brief(other)))),
    };
    Ok(target)
}

/// Targets that existed in earlier versions of the tools, or belong to the
/// other tool, with what to use instead.
fn removed(key: &str, use_: TargetUse) -> Option<&'static str> {
    match (key, use_) {
        ("text", TargetUse::Patch) => {
            Some("to replace text by content, use the TextReplace tool (oldText, newText)")
        }
        ("pattern", TargetUse::Patch) => Some(
            "regex targeting for edits was removed; find the text with TextInspect mode 'search', then use TextReplace with the exact text",
        ),
        ("afterHeading", _) => Some(
            "use appendToSection to add at the end of a heading's section (after its content and subsections), or heading with operation 'insert' to insert right after the heading line",
        ),
        ("section", TargetUse::Patch) => Some(
            "INI sections can be read with TextRead target section; to edit one, use its line numbers with a lines target, or TextReplace",
        ),
        ("anchor", TargetUse::Patch) => Some(
            "anchors can be read with TextRead; to edit, target the heading (\"## Title\") or use lines",
        ),
        ("search", TargetUse::Read) => Some(
            "to search within a file, use TextInspect with mode 'search' (query, regex, context)",
        ),
        ("text" | "pattern", TargetUse::Read) => {
            Some("to find text in a file, use TextInspect with mode 'search'")
        }
        ("beforeSymbol", TargetUse::Read) => Some(
            "that is an insertion point for TextPatch; to read a definition use symbol \"Class.method\"",
        ),
        ("beforeHeading" | "appendToSection", TargetUse::Read) => Some(
            "those are insertion points for TextPatch; to read a section use heading \"## Title\"",
        ),
        _ => None,
    }
}

/// Longest heading, anchor or section name a target may give, in bytes:
/// longer than any real one, short enough that looking it up (with the
/// nearest names when it is missing) stays quick.
pub const MAX_TARGET_NAME: usize = 4096;

fn text_value(key: &str, value: &Value) -> Result<String, String> {
    match value {
        Value::String(s) if s.len() > MAX_TARGET_NAME => Err(format!(
            "{key} is {} bytes long, over the limit of {MAX_TARGET_NAME} bytes; name the heading, anchor or section by its own text, or use a lines target",
            s.len()
        )),
        Value::String(s) if !s.trim().is_empty() => Ok(s.clone()),
        Value::String(_) => Err(format!("{key} is empty")),
        Value::Object(map) if key == "heading" && map.contains_key("text") => Err(
            "heading takes a flat string with its # markers, e.g. {\"heading\": \"## Installation\"}, not an object"
                .to_string(),
        ),
        other => Err(format!(
            "{key} must be a string such as \"## Title\", got {}",
            kind_of(other)
        )),
    }
}

/// A block id as written in a target: `tasks-1`, `^tasks-1` or `#^tasks-1`.
fn block_id(value: &Value) -> Result<String, String> {
    let text = text_value("block", value)?;
    let id = text.trim().trim_start_matches('#').trim_start_matches('^');
    if crate::text::markdown::is_block_id(id) {
        Ok(id.to_string())
    } else {
        Err(format!(
            "block '{}' is not a block id: ids are letters, digits and '-', e.g. \"^tasks-1\"",
            brief(&text)
        ))
    }
}

/// A symbol target: `symbol`, `symbolBody` or (TextPatch) `beforeSymbol`.
fn symbol_target(key: &str, value: &Value, use_: TargetUse) -> Result<Target, String> {
    let query = match value {
        Value::String(_) => text_value(key, value)?,
        other => {
            return Err(format!(
                "{key} must be a string such as \"Calc.add\" or \"fn main\", got {}",
                kind_of(other)
            ));
        }
    };
    crate::text::symbol::SymbolQuery::parse(&query)?;
    let part = match key {
        "symbolBody" => SymbolPart::Body,
        "beforeSymbol" if use_ == TargetUse::Patch => SymbolPart::Before,
        _ => SymbolPart::Whole,
    };
    Ok(Target::Symbol { query, part })
}

fn positive(map: &Map<String, Value>, key: &str) -> Result<Option<usize>, String> {
    match map.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) => match n.as_i64() {
            Some(v) if v >= 1 => Ok(Some(v as usize)),
            Some(v) => Err(format!("lines.{key} is {v}, but line numbers start at 1")),
            None => Err(format!("lines.{key} must be a whole number, got {n}")),
        },
        Some(other) => Err(format!(
            "lines.{key} must be a number, got {}",
            kind_of(other)
        )),
    }
}

fn parse_lines(value: &Value) -> Result<Target, String> {
    let Value::Object(map) = value else {
        return Err(format!(
            "lines must be an object such as {{\"start\": 5, \"end\": 8}}, got {}",
            kind_of(value)
        ));
    };
    if let Some(unknown) = map.keys().find(|k| *k != "start" && *k != "end") {
        return Err(format!(
            "lines has an unknown key '{}'; it takes start and end",
            brief(unknown)
        ));
    }
    let start = positive(map, "start")?.ok_or("lines.start is missing")?;
    let end = positive(map, "end")?;
    if let Some(end) = end
        && end < start
    {
        return Err(format!(
            "the lines range is reversed: start {start} is after end {end}"
        ));
    }
    Ok(Target::Lines { start, end })
}

fn parse_index(value: &Value) -> Result<usize, String> {
    let index = match value {
        Value::Object(map) => {
            if let Some(unknown) = map.keys().find(|k| *k != "index") {
                return Err(format!(
                    "codeBlock has an unknown key '{}'; it takes index",
                    brief(unknown)
                ));
            }
            map.get("index").ok_or("codeBlock.index is missing")?
        }
        other => other,
    };
    match index {
        Value::Number(n) => n
            .as_u64()
            .map(|i| i as usize)
            .ok_or_else(|| format!("codeBlock.index must be 0 or more, got {n}")),
        other => Err(format!(
            "codeBlock must be {{\"index\": N}} with N counted from 0, got {}",
            kind_of(other)
        )),
    }
}

/// A target error as a tool error, naming the file.
pub fn target_error(error: TargetError, path: &str) -> ToolError {
    let message = match &error {
        TargetError::Heading(HeadingLookupError::Ambiguous { .. }) => {
            format!("Ambiguous target in {path}: {error}")
        }
        TargetError::Heading(_) | TargetError::AnchorNotFound { .. } | TargetError::Section(_) => {
            format!("Target not found in {path}: {error}")
        }
        _ => format!("Invalid target for {path}: {error}"),
    };
    ToolError::new(message).suggest_all(error.suggestions())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parses_every_target() {
        let p = |v: Value, u| parse_target(&v, u);
        assert_eq!(
            p(json!({"lines": {"start": 2, "end": 4}}), TargetUse::Patch).unwrap(),
            Target::Lines {
                start: 2,
                end: Some(4)
            }
        );
        assert_eq!(
            p(json!({"codeBlock": {"index": 0}}), TargetUse::Read).unwrap(),
            Target::CodeBlock { index: 0 }
        );
        assert_eq!(
            p(json!("{\"heading\": \"## A\"}"), TargetUse::Read).unwrap(),
            Target::Heading("## A".into())
        );
        assert_eq!(
            p(json!({"section": "[db]"}), TargetUse::Read).unwrap(),
            Target::Section("[db]".into())
        );
    }

    #[test]
    fn refuses_removed_and_malformed_targets() {
        let msg = |v: Value, u| parse_target(&v, u).unwrap_err().message;
        assert!(msg(json!({"text": "x"}), TargetUse::Patch).contains("TextReplace"));
        assert!(msg(json!({"pattern": "x"}), TargetUse::Patch).contains("TextInspect"));
        assert!(
            msg(json!({"section": "[a]"}), TargetUse::Patch)
                .starts_with("The 'section' target is not available in TextPatch")
        );
        assert!(msg(json!({"search": {"query": "x"}}), TargetUse::Read).contains("mode 'search'"));
        assert_eq!(
            msg(json!({"lines": {"start": 5, "end": 2}}), TargetUse::Patch),
            "Invalid target for TextPatch: the lines range is reversed: start 5 is after end 2"
        );
        assert_eq!(
            msg(json!({"lines": {"start": 0}}), TargetUse::Read),
            "Invalid target for TextRead: lines.start is 0, but line numbers start at 1"
        );
        assert!(msg(json!({"heading": {"text": "A"}}), TargetUse::Read).contains("flat string"));
        assert!(
            msg(
                json!({"heading": "A", "lines": {"start": 1}}),
                TargetUse::Read
            )
            .contains("exactly one")
        );
        assert!(msg(json!("## A"), TargetUse::Read).contains("must be an object"));
        assert!(msg(json!({"bogus": 1}), TargetUse::Patch).contains("unknown target 'bogus'"));
    }
}
