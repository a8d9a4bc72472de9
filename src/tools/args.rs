//! Strict argument parsing: unknown keys, wrong types and missing parameters
//! are refused with a message naming the offending field and listing what the
//! tool accepts.
//!
//! [`TextArg`] is the one leniency: where a tool expects text and every file
//! the call names is JSON (`.json`, `.jsonc`, `.json5`), a JSON value is taken
//! as its serialized text, a common client quirk, and the response says so in
//! its `note`. For any other file it is refused: writing `{"x": 1}` into a
//! Markdown note is a client's mistake, not the user's wish.
//!
//! Messages quote the caller's values only in part
//! ([`crate::text::excerpt::clip_middle`]), and queries and patterns are bounded
//! ([`MAX_PATTERN_LEN`]), so that a huge argument costs neither memory nor a
//! huge reply.
//!
//! ```
//! use mcp_server_text::tools::args::{parse_args, TextArg};
//!
//! #[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
//! #[serde(deny_unknown_fields, rename_all = "camelCase")]
//! struct Params { file_path: String, content: TextArg }
//!
//! let ok: Params = parse_args("Demo", serde_json::json!({"filePath": "a.json", "content": {"k": 1}})).unwrap().0;
//! assert_eq!(ok.content.as_str(), "{\n  \"k\": 1\n}");
//!
//! let err = parse_args::<Params>("Demo", serde_json::json!({"filePath": "a.md", "content": {"k": 1}})).unwrap_err();
//! assert!(err.message.starts_with("Invalid arguments for Demo: content: expected text (a string), got an object"));
//!
//! let err = parse_args::<Params>("Demo", serde_json::json!({"filePath": "a", "contnet": "x"})).unwrap_err();
//! assert!(err.message.contains("unknown field `contnet`"));
//! ```

use std::cell::{Cell, RefCell};
use std::fmt;

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer};
use serde_json::Value;

use super::error::ToolError;
use crate::text::excerpt::clip_middle;

thread_local! {
    // Notes raised while deserializing (e.g. a JSON object taken as text).
    // Deserializers cannot return side information, so they leave it here and
    // `parse_args` collects it right after.
    static NOTES: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
    // Whether the call being read names only JSON files, so that a JSON value
    // may stand for text; set by `parse_args` from the raw arguments.
    static JSON_TARGETS: Cell<bool> = const { Cell::new(false) };
}

/// Longest query or pattern (a search query, a glob) a tool accepts, in
/// bytes: far more than any real search needs, and small enough that
/// compiling it takes little memory and time.
pub const MAX_PATTERN_LEN: usize = 64 << 10;

/// Longest serde message quoted in a refusal; serde's messages embed the
/// caller's values.
const MAX_SERDE_MESSAGE: usize = 400;

/// File endings whose files are JSON, so that a JSON value given where text
/// is expected is taken as its text.
pub const JSON_ENDINGS: [&str; 3] = ["json", "jsonc", "json5"];

/// Parses `args` into `P`, refusing anything `P` does not accept. Returns the
/// parameters and the notes raised while reading them.
pub fn parse_args<P: DeserializeOwned + JsonSchema>(
    tool: &str,
    args: Value,
) -> Result<(P, Vec<String>), ToolError> {
    let args = match args {
        Value::Null => Value::Object(Default::default()),
        Value::Object(map) => Value::Object(map),
        other => {
            return Err(ToolError::new(format!(
                "Invalid arguments for {tool}: expected a JSON object of named parameters, got {}",
                kind_of(&other)
            ))
            .suggest(accepted_parameters::<P>()));
        }
    };
    NOTES.with(|n| n.borrow_mut().clear());
    JSON_TARGETS.with(|j| j.set(names_only_json_files(&args)));
    let parsed: Result<P, _> = serde_path_to_error::deserialize(args);
    JSON_TARGETS.with(|j| j.set(false));
    let notes = NOTES.with(|n| std::mem::take(&mut *n.borrow_mut()));
    match parsed {
        Ok(p) => Ok((p, notes)),
        Err(err) => {
            let path = clip_middle(&err.path().to_string(), 200);
            let inner = clip_middle(&err.into_inner().to_string(), MAX_SERDE_MESSAGE);
            let location = if path == "." || path.is_empty() {
                String::new()
            } else {
                format!("{path}: ")
            };
            Err(
                ToolError::new(format!("Invalid arguments for {tool}: {location}{inner}"))
                    .suggest(accepted_parameters::<P>()),
            )
        }
    }
}

/// Whether the file paths in `args` (`filePath`, `file_path`, at any depth)
/// all end in a JSON ending, and there is at least one.
fn names_only_json_files(args: &Value) -> bool {
    fn visit(value: &Value, seen: &mut usize) -> bool {
        match value {
            Value::Object(map) => map.iter().all(|(key, value)| match (key.as_str(), value) {
                ("filePath" | "file_path", Value::String(path)) => {
                    *seen += 1;
                    is_json_file(path)
                }
                _ => visit(value, seen),
            }),
            Value::Array(items) => items.iter().all(|v| visit(v, seen)),
            _ => true,
        }
    }
    let mut seen = 0;
    visit(args, &mut seen) && seen > 0
}

/// Whether `path` names a JSON file by its ending.
pub fn is_json_file(path: &str) -> bool {
    std::path::Path::new(path)
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| JSON_ENDINGS.iter().any(|j| j.eq_ignore_ascii_case(e)))
}

/// Reads a query or pattern, refusing one over [`MAX_PATTERN_LEN`] bytes
/// (for `#[serde(deserialize_with)]`).
pub fn bounded_pattern<'de, D: Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
    let text = String::deserialize(deserializer)?;
    check_pattern_len(&text).map_err(serde::de::Error::custom)?;
    Ok(text)
}

/// [`bounded_pattern`] for an optional parameter.
pub fn bounded_pattern_opt<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<String>, D::Error> {
    let text = Option::<String>::deserialize(deserializer)?;
    if let Some(text) = &text {
        check_pattern_len(text).map_err(serde::de::Error::custom)?;
    }
    Ok(text)
}

fn check_pattern_len(text: &str) -> Result<(), String> {
    if text.len() <= MAX_PATTERN_LEN {
        return Ok(());
    }
    Err(format!(
        "{} bytes is over the limit of {} bytes (64 KiB) for a query or pattern; search for a shorter, distinctive part of the text",
        text.len(),
        MAX_PATTERN_LEN
    ))
}

/// A one-line list of a parameter struct's fields, their types, and which are required.
pub fn accepted_parameters<P: JsonSchema>() -> String {
    let schema = schemars::generate::SchemaSettings::draft2020_12()
        .into_generator()
        .into_root_schema_for::<P>();
    let value = serde_json::to_value(&schema).unwrap_or_default();
    format!("Accepted parameters: {}", describe_fields(&value, &value))
}

/// `name (type, required), ...` for the properties of an object schema.
fn describe_fields(object: &Value, root: &Value) -> String {
    let required: Vec<&str> = object["required"]
        .as_array()
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut parts = Vec::new();
    if let Some(props) = object["properties"].as_object() {
        for (name, prop) in props {
            let kind = describe_type(prop, root);
            let req = if required.contains(&name.as_str()) {
                ", required"
            } else {
                ""
            };
            parts.push(format!("{name} ({kind}{req})"));
        }
    }
    parts.join(", ")
}

fn describe_type(prop: &Value, root: &Value) -> String {
    if prop["$ref"].is_string() {
        let def = resolve_ref(prop, root);
        if !std::ptr::eq(def, prop) {
            return describe_type(def, root);
        }
    }
    if let Some(values) = prop["enum"].as_array() {
        return values
            .iter()
            .map(|v| v.to_string())
            .collect::<Vec<_>>()
            .join(" | ");
    }
    if let Some(options) = prop["oneOf"].as_array().or(prop["anyOf"].as_array()) {
        let mut kinds: Vec<String> = Vec::new();
        for option in options {
            let kind = describe_variant(option, root);
            if kind != "null" && !kinds.contains(&kind) {
                kinds.push(kind);
            }
        }
        return kinds.join(" | ");
    }
    if let Some(c) = prop.get("const") {
        return c.to_string();
    }
    // An object of exactly one of several keys (a target) is named by its
    // choices, since "object" tells nobody anything.
    if prop["maxProperties"] == 1
        && let Some(props) = prop["properties"].as_object()
    {
        return props
            .keys()
            .map(|key| format!("{{\"{key}\": ...}}"))
            .collect::<Vec<_>>()
            .join(" | ");
    }
    match &prop["type"] {
        // Nested parameters (the editor tools' files and patches) are spelled
        // out, since "array" alone leaves the caller guessing the item shape.
        Value::String(t) if t == "array" => {
            let items = resolve_ref(&prop["items"], root);
            if items["properties"].is_object() {
                format!("array of {{{}}}", describe_fields(items, root))
            } else {
                "array".to_string()
            }
        }
        Value::String(t) => t.clone(),
        Value::Array(ts) => ts
            .iter()
            .filter_map(Value::as_str)
            .filter(|t| *t != "null")
            .collect::<Vec<_>>()
            .join(" | "),
        _ => "any".to_string(),
    }
}

/// Names one variant of a `oneOf`: an object with a single key (a target such
/// as `{"heading": ...}`) by that key, since "object | object" tells nobody anything.
fn describe_variant(option: &Value, root: &Value) -> String {
    let resolved = resolve_ref(option, root);
    if let Some(props) = resolved["properties"].as_object()
        && let Some((key, _)) = props.iter().next()
        && props.len() == 1
    {
        return format!("{{\"{key}\": ...}}");
    }
    describe_type(option, root)
}

/// The definition a `$ref` schema points to, or the schema itself.
fn resolve_ref<'a>(schema: &'a Value, root: &'a Value) -> &'a Value {
    match schema["$ref"].as_str() {
        Some(reference) => {
            let name = reference.rsplit('/').next().unwrap_or_default();
            root["$defs"].get(name).unwrap_or(schema)
        }
        None => schema,
    }
}

/// A short name for the kind of a JSON value, for messages.
pub fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Text a tool writes into a file. Accepts a string. When every file the
/// call names is JSON, a JSON object, array, number or boolean is taken as
/// its serialized text (objects and arrays pretty-printed with two-space
/// indentation) and a note says so; otherwise it is refused, naming the type.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TextArg(pub String);

impl TextArg {
    /// The text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for TextArg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for TextArg {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        match value {
            Value::String(s) => Ok(TextArg(s)),
            Value::Null => Err(serde::de::Error::custom(
                "expected text (a string), got null",
            )),
            other if !JSON_TARGETS.with(Cell::get) => Err(serde::de::Error::custom(format!(
                "expected text (a string), got {}; a JSON value is taken as its text only when the file is JSON (.{}), so send the text as a JSON string",
                kind_of(&other),
                JSON_ENDINGS.join(", .")
            ))),
            other => {
                let kind = kind_of(&other);
                let text = match &other {
                    Value::Object(_) | Value::Array(_) => {
                        serde_json::to_string_pretty(&other).unwrap_or_default()
                    }
                    _ => other.to_string(),
                };
                NOTES.with(|n| {
                    n.borrow_mut().push(format!(
                        "a text parameter was {kind}; it was used as its JSON text"
                    ))
                });
                Ok(TextArg(text))
            }
        }
    }
}

impl JsonSchema for TextArg {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Text".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": "string" })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
    #[serde(deny_unknown_fields, rename_all = "camelCase")]
    #[allow(dead_code)]
    struct P {
        /// The file.
        file_path: String,
        mode: Option<Mode>,
        lines: Option<Lines>,
        content: Option<TextArg>,
    }

    #[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
    #[serde(rename_all = "lowercase")]
    enum Mode {
        Structure,
        Search,
    }

    #[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Lines {
        start: usize,
        end: usize,
    }

    #[test]
    fn errors_name_the_field_and_list_parameters() {
        let err = parse_args::<P>("T", serde_json::json!({"filePath": 3})).unwrap_err();
        assert_eq!(
            err.message,
            "Invalid arguments for T: filePath: invalid type: integer `3`, expected a string"
        );
        assert_eq!(
            err.suggestions,
            [
                "Accepted parameters: filePath (string, required), mode (\"structure\" | \"search\"), lines (object), content (string)"
            ]
        );
        let err = parse_args::<P>(
            "T",
            serde_json::json!({"filePath": "a", "lines": {"start": 1, "end": "x"}}),
        )
        .unwrap_err();
        assert!(
            err.message
                .starts_with("Invalid arguments for T: lines.end: invalid type: string \"x\""),
            "{}",
            err.message
        );
        let err = parse_args::<P>("T", serde_json::json!({})).unwrap_err();
        assert_eq!(
            err.message,
            "Invalid arguments for T: missing field `filePath`"
        );
        let err = parse_args::<P>("T", serde_json::json!([1])).unwrap_err();
        assert!(err.message.contains("expected a JSON object"));
    }

    #[test]
    fn text_args_take_json_values_for_json_files_with_a_note() {
        let (p, notes) = parse_args::<P>(
            "T",
            serde_json::json!({"filePath": "conf/a.JSON", "content": [1, 2]}),
        )
        .unwrap();
        assert_eq!(p.content.unwrap().0, "[\n  1,\n  2\n]");
        assert_eq!(
            notes,
            ["a text parameter was an array; it was used as its JSON text"]
        );
        let (p, _) = parse_args::<P>(
            "T",
            serde_json::json!({"filePath": "a.json5", "content": 7}),
        )
        .unwrap();
        assert_eq!(p.content.unwrap().0, "7");
        let (_, notes) =
            parse_args::<P>("T", serde_json::json!({"filePath": "a", "content": "x"})).unwrap();
        assert!(notes.is_empty());
    }

    #[test]
    fn text_args_refuse_json_values_for_other_files() {
        for (path, content, kind) in [
            ("notes/a.md", serde_json::json!({"x": 1}), "an object"),
            ("a.txt", serde_json::json!([1]), "an array"),
            ("a.jsonl", serde_json::json!({"x": 1}), "an object"),
            ("a.json.md", serde_json::json!(true), "a boolean"),
            ("Makefile", serde_json::json!(3), "a number"),
        ] {
            let err = parse_args::<P>(
                "T",
                serde_json::json!({"filePath": path, "content": content}),
            )
            .unwrap_err();
            assert_eq!(
                err.message,
                format!(
                    "Invalid arguments for T: content: expected text (a string), got {kind}; a JSON value is taken as its text only when the file is JSON (.json, .jsonc, .json5), so send the text as a JSON string"
                ),
                "{path}"
            );
        }
        // Several files: all must be JSON.
        assert!(names_only_json_files(
            &serde_json::json!({"files": [{"file_path": "a.json"}, {"file_path": "b.json"}]})
        ));
        assert!(!names_only_json_files(
            &serde_json::json!({"files": [{"file_path": "a.json"}, {"file_path": "b.md"}]})
        ));
        assert!(!names_only_json_files(
            &serde_json::json!({"content": {"filePath": 3}})
        ));
        assert!(!names_only_json_files(&serde_json::json!({})));
    }

    #[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Search {
        #[serde(deserialize_with = "bounded_pattern")]
        query: String,
        #[serde(default, deserialize_with = "bounded_pattern_opt")]
        glob: Option<String>,
    }

    #[test]
    fn patterns_are_bounded_and_never_echoed() {
        let long = "ab".repeat(MAX_PATTERN_LEN);
        let err = parse_args::<Search>("S", serde_json::json!({"query": long})).unwrap_err();
        assert_eq!(
            err.message,
            "Invalid arguments for S: query: 131072 bytes is over the limit of 65536 bytes (64 KiB) for a query or pattern; search for a shorter, distinctive part of the text"
        );
        let err =
            parse_args::<Search>("S", serde_json::json!({"query": "a", "glob": long})).unwrap_err();
        assert!(
            err.message
                .starts_with("Invalid arguments for S: glob: 131072 bytes")
        );
        let exact = "a".repeat(MAX_PATTERN_LEN);
        assert!(parse_args::<Search>("S", serde_json::json!({"query": exact})).is_ok());
        assert!(parse_args::<Search>("S", serde_json::json!({"query": "a"})).is_ok());
    }

    #[test]
    fn refusals_quote_only_part_of_a_huge_value() {
        let huge = "z".repeat(1 << 20);
        let err =
            parse_args::<P>("T", serde_json::json!({"filePath": "a", "mode": huge})).unwrap_err();
        assert!(err.message.len() < 600, "{} bytes", err.message.len());
        assert!(
            err.message
                .starts_with("Invalid arguments for T: mode: unknown variant `zzz")
        );
        assert!(
            err.message.ends_with("expected `structure` or `search`"),
            "{}",
            err.message
        );
        let err = parse_args::<P>("T", serde_json::json!({"filePath": huge.clone()})).unwrap();
        assert_eq!(err.0.file_path.len(), huge.len());
        let err =
            parse_args::<P>("T", serde_json::json!({"filePath": 1, huge.clone(): 1})).unwrap_err();
        assert!(err.message.len() < 600, "{} bytes", err.message.len());
    }
}
