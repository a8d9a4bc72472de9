//! Strict argument parsing: unknown keys, wrong types and missing parameters
//! are refused with a message naming the offending field and listing what the
//! tool accepts.
//!
//! [`TextArg`] is the one leniency: where a tool expects text, a JSON object or
//! array (common when editing `.json` files) is taken as its serialized text,
//! and the response says so in its `note`.
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
//! let err = parse_args::<Params>("Demo", serde_json::json!({"filePath": "a", "contnet": "x"})).unwrap_err();
//! assert!(err.message.contains("unknown field `contnet`"));
//! ```

use std::cell::RefCell;
use std::fmt;

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer};
use serde_json::Value;

use super::error::ToolError;

thread_local! {
    // Notes raised while deserializing (e.g. a JSON object taken as text).
    // Deserializers cannot return side information, so they leave it here and
    // `parse_args` collects it right after.
    static NOTES: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

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
    let parsed: Result<P, _> = serde_path_to_error::deserialize(args);
    let notes = NOTES.with(|n| std::mem::take(&mut *n.borrow_mut()));
    match parsed {
        Ok(p) => Ok((p, notes)),
        Err(err) => {
            let path = err.path().to_string();
            let inner = err.into_inner().to_string();
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

/// Text a tool writes into a file. Accepts a string; a JSON object, array,
/// number or boolean is taken as its serialized text (objects and arrays
/// pretty-printed with two-space indentation) and a note says so.
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
    fn text_args_take_json_values_with_a_note() {
        let (p, notes) =
            parse_args::<P>("T", serde_json::json!({"filePath": "a", "content": [1, 2]})).unwrap();
        assert_eq!(p.content.unwrap().0, "[\n  1,\n  2\n]");
        assert_eq!(
            notes,
            ["a text parameter was an array; it was used as its JSON text"]
        );
        let (_, notes) =
            parse_args::<P>("T", serde_json::json!({"filePath": "a", "content": "x"})).unwrap();
        assert!(notes.is_empty());
    }
}
