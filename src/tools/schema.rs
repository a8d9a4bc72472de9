//! The JSON schemas a tool publishes, shaped for the MCP clients that read them.
//!
//! schemars describes a Rust type exactly; clients pay for that exactness, and
//! an agent pays for every character of the tool list before its first call.
//! Some validators warn about every format they do not know (schemars' own
//! `uint`, `int32`, `double`, …), so every schema here uses only keywords and
//! formats of JSON Schema 2020-12 (an unsigned number is `"type": "integer",
//! "minimum": 0`) and has no `$defs` or `$ref`.
//!
//! Input schemas keep every field's type, description, choices and whether it
//! is required, and say nothing twice: an optional field is simply not
//! required (no `null` in its type, no `"default": null`), choices are one
//! `enum`, and the root carries no description restating the tool's name.
//!
//! Output schemas are cheap to check. The official Python SDK checks each
//! result against its tool's output schema and, on every call, first checks
//! the schema itself against the JSON Schema meta-schema, which costs about a
//! millisecond or more per subschema (each property is one): TextInspect's
//! full result schema took 170 ms a call, against 0.5 ms for the schema
//! below. So an output schema is one object schema: `type` and the fields
//! that are always there as `required`. The fields' meanings are in the
//! README; their names say most of it.
//!
//! ```
//! use mcp_server_text::tools::schema::output_schema;
//!
//! /// What a count returns.
//! #[derive(schemars::JsonSchema)]
//! struct Reply {
//!     /// Lines in the file.
//!     lines: u32,
//!     /// How it ends.
//!     #[serde(skip_serializing_if = "Option::is_none")]
//!     ending: Option<String>,
//! }
//! let schema = serde_json::Value::Object(output_schema::<Reply>());
//! assert_eq!(
//!     schema,
//!     serde_json::json!({"type": "object", "required": ["lines"]})
//! );
//! ```

use schemars::JsonSchema;
use serde_json::{Map, Value};

/// How many levels of nested objects the detailed result schema (see
/// [`detailed_output_schema`]) describes; deeper values have their type alone.
pub const OUTPUT_DEPTH: usize = 3;

/// Formats JSON Schema 2020-12 defines; any other `format` is dropped.
const STANDARD_FORMATS: &[&str] = &[
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "idn-email",
    "hostname",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "iri",
    "iri-reference",
    "uuid",
    "uri-template",
    "json-pointer",
    "relative-json-pointer",
    "regex",
];

/// The schema of a tool's parameters.
pub fn input_schema<T: JsonSchema>() -> Map<String, Value> {
    let generated = schemars::generate::SchemaSettings::draft2020_12()
        .into_generator()
        .into_root_schema_for::<T>();
    let mut schema = finish(serde_json::to_value(generated).unwrap_or_default(), None);
    // The root's description is the struct's doc comment ("Parameters of X."):
    // the tool's own description says more.
    schema.remove("description");
    let mut value = Value::Object(schema);
    lean_input(&mut value);
    match value {
        Value::Object(map) => map,
        _ => object_schema(),
    }
}

/// The schema of a tool's successful result, as tools publish it: one object
/// schema with the fields always present as `required`.
pub fn output_schema<T: JsonSchema>() -> Map<String, Value> {
    let detailed = detailed_output_schema::<T>();
    let mut summary = object_schema();
    if let Some(Value::Array(required)) = detailed.get("required")
        && !required.is_empty()
    {
        summary.insert("required".into(), Value::Array(required.clone()));
    }
    summary
}

/// Removes what an input schema would say twice: `null` in the type of a
/// field that is not required (leaving it out says the same), `"default":
/// null`, `"default": false` of a flag (a flag left out is off),
/// `"additionalProperties": true` (the default), and choices spelled as one
/// `oneOf` branch each (one `enum` says them).
fn lean_input(schema: &mut Value) {
    let Value::Object(map) = schema else {
        return;
    };
    if map.get("additionalProperties") == Some(&Value::Bool(true)) {
        map.remove("additionalProperties");
    }
    if map.get("type").and_then(Value::as_str) == Some("boolean")
        && map.get("default") == Some(&Value::Bool(false))
    {
        map.remove("default");
    }
    collapse_choices(map);
    let required: Vec<String> = map
        .get("required")
        .and_then(Value::as_array)
        .map(|r| {
            r.iter()
                .filter_map(Value::as_str)
                .map(String::from)
                .collect()
        })
        .unwrap_or_default();
    if let Some(Value::Object(props)) = map.get_mut("properties") {
        for (name, prop) in props.iter_mut() {
            if !required.contains(name) {
                drop_null(prop);
            }
            lean_input(prop);
        }
    }
    for key in ["items", "additionalProperties"] {
        if let Some(child) = map.get_mut(key) {
            lean_input(child);
        }
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(children)) = map.get_mut(key) {
            children.iter_mut().for_each(lean_input);
        }
    }
}

/// An optional field's schema without `null`: from its type, from its
/// `anyOf` branches (a single branch left merges into the field), and as
/// its default.
fn drop_null(schema: &mut Value) {
    let Value::Object(map) = schema else {
        return;
    };
    if map.get("default") == Some(&Value::Null) {
        map.remove("default");
    }
    if let Some(Value::Array(kinds)) = map.get_mut("type") {
        kinds.retain(|k| k != "null");
        if kinds.len() == 1 {
            let kind = kinds.remove(0);
            map.insert("type".into(), kind);
        }
    }
    let Some(Value::Array(mut branches)) = map.remove("anyOf") else {
        return;
    };
    branches.retain(|b| b.get("type").and_then(Value::as_str) != Some("null"));
    // Nested choices (an `Option` of an untagged enum) become one list.
    let branches: Vec<Value> = branches
        .into_iter()
        .flat_map(|b| match b {
            Value::Object(mut inner) if inner.len() == 1 && inner.contains_key("anyOf") => {
                match inner.remove("anyOf") {
                    Some(Value::Array(all)) => all,
                    _ => Vec::new(),
                }
            }
            other => vec![other],
        })
        .collect();
    match <[Value; 1]>::try_from(branches) {
        Ok([Value::Object(only)]) => {
            for (key, value) in only {
                map.entry(key).or_insert(value);
            }
        }
        Ok([other]) => {
            map.insert("anyOf".into(), Value::Array(vec![other]));
        }
        Err(branches) => {
            map.insert("anyOf".into(), Value::Array(branches));
        }
    }
}

/// The schema of a tool's successful result with its fields as subschemas,
/// [`OUTPUT_DEPTH`] levels deep, choices as enums: what [`output_schema`]
/// summarizes.
pub fn detailed_output_schema<T: JsonSchema>() -> Map<String, Value> {
    let generated = schemars::generate::SchemaSettings::draft2020_12()
        .for_serialize()
        .into_generator()
        .into_root_schema_for::<T>();
    finish(
        serde_json::to_value(generated).unwrap_or_default(),
        Some(OUTPUT_DEPTH),
    )
}

/// Inlines definitions and tidies every subschema; `depth` limits how deep
/// the result describes objects (`None`: no limit).
fn finish(generated: Value, depth: Option<usize>) -> Map<String, Value> {
    let Value::Object(mut root) = generated else {
        return object_schema();
    };
    let defs = match root.remove("$defs") {
        Some(Value::Object(defs)) => defs,
        _ => Map::new(),
    };
    root.remove("$schema");
    root.remove("title");
    let mut tidy = Tidy {
        defs: &defs,
        open: Vec::new(),
        lean: depth.is_some(),
    };
    let mut value = Value::Object(root);
    tidy.schema(&mut value, depth.unwrap_or(usize::MAX));
    match value {
        Value::Object(mut map) => {
            map.entry("type")
                .or_insert_with(|| Value::String("object".into()));
            map
        }
        _ => object_schema(),
    }
}

fn object_schema() -> Map<String, Value> {
    let mut map = Map::new();
    map.insert("type".into(), Value::String("object".into()));
    map
}

/// One pass over a schema tree.
struct Tidy<'a> {
    defs: &'a Map<String, Value>,
    /// The definitions being inlined, outermost first, to notice recursion.
    open: Vec<String>,
    /// Output schema: enums for choices, depth limit.
    lean: bool,
}

impl Tidy<'_> {
    /// Tidies `schema`, which may describe `levels` more levels of objects.
    fn schema(&mut self, schema: &mut Value, levels: usize) {
        let Value::Object(map) = schema else {
            return;
        };
        let opened = self.inline_ref(map);
        if opened.is_none() && map.contains_key("$ref") {
            // A type inside itself: say what it is, not again what it holds.
            let kind = self.recursive_kind(map);
            map.remove("$ref");
            map.insert("type".into(), Value::String(kind));
        }
        fix_format(map);
        if self.lean && levels == 0 {
            collapse_choices(map);
            shallow(map);
        }
        let below = levels.saturating_sub(1);
        for key in ["properties", "patternProperties", "$defs"] {
            if let Some(Value::Object(children)) = map.get_mut(key) {
                for child in children.values_mut() {
                    self.schema(child, below);
                }
            }
        }
        // Items of a list and alternatives sit at the same level as the list.
        for key in [
            "items",
            "additionalProperties",
            "not",
            "if",
            "then",
            "else",
            "contains",
        ] {
            if let Some(child) = map.get_mut(key) {
                self.schema(child, levels);
            }
        }
        for key in ["anyOf", "oneOf", "allOf", "prefixItems"] {
            if let Some(Value::Array(children)) = map.get_mut(key) {
                for child in children {
                    self.schema(child, levels);
                }
            }
        }
        if self.lean {
            // After the branches are inlined, so an optional object collapses too.
            collapse_nullable(map);
            collapse_choices(map);
        }
        if opened.is_some() {
            self.open.pop();
        }
    }

    /// Replaces a `$ref` to a definition by the definition itself (keeping
    /// the referring schema's own keywords, such as its description), unless
    /// that definition is already being inlined. Returns the definition's
    /// name when it was inlined.
    fn inline_ref(&mut self, map: &mut Map<String, Value>) -> Option<String> {
        let name = map
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| r.strip_prefix("#/$defs/"))?
            .to_string();
        if self.open.contains(&name) {
            return None;
        }
        let Some(Value::Object(def)) = self.defs.get(&name) else {
            return None;
        };
        map.remove("$ref");
        for (key, value) in def {
            if key != "title" {
                map.entry(key.clone()).or_insert_with(|| value.clone());
            }
        }
        self.open.push(name.clone());
        Some(name)
    }

    /// The JSON type of the definition a recursive `$ref` names.
    fn recursive_kind(&self, map: &Map<String, Value>) -> String {
        map.get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| r.strip_prefix("#/$defs/"))
            .and_then(|name| self.defs.get(name))
            .and_then(|def| def.get("type"))
            .and_then(Value::as_str)
            .unwrap_or("object")
            .to_string()
    }
}

/// Drops formats JSON Schema does not define; schemars' unsigned formats
/// become a minimum of 0.
fn fix_format(map: &mut Map<String, Value>) {
    let Some(format) = map.get("format").and_then(Value::as_str) else {
        return;
    };
    if STANDARD_FORMATS.contains(&format) {
        return;
    }
    if format.starts_with("uint") {
        map.entry("minimum").or_insert(Value::from(0));
    }
    map.remove("format");
}

/// `anyOf: [X, {"type": "null"}]` becomes X with `null` added to its type.
fn collapse_nullable(map: &mut Map<String, Value>) {
    let Some(Value::Array(branches)) = map.get("anyOf") else {
        return;
    };
    if branches.len() != 2 {
        return;
    }
    let is_null = |b: &Value| b.get("type").and_then(Value::as_str) == Some("null");
    let Some(null_at) = branches.iter().position(is_null) else {
        return;
    };
    let Value::Object(other) = &branches[1 - null_at] else {
        return;
    };
    let Some(kind) = other
        .get("type")
        .and_then(Value::as_str)
        .map(str::to_string)
    else {
        return;
    };
    if other.contains_key("$ref") || map.contains_key("type") {
        return;
    }
    let other = other.clone();
    map.remove("anyOf");
    // The field's own description wins over its type's.
    for (key, value) in other {
        map.entry(key).or_insert(value);
    }
    map.insert("type".into(), serde_json::json!([kind, "null"]));
}

/// `oneOf` (or `anyOf`) whose every branch is one constant becomes one `enum`.
fn collapse_choices(map: &mut Map<String, Value>) {
    for key in ["oneOf", "anyOf"] {
        let Some(Value::Array(branches)) = map.get(key) else {
            continue;
        };
        let mut words = Vec::new();
        let mut kind = None;
        for branch in branches {
            let Some(b) = branch.as_object() else {
                return;
            };
            match (b.get("const"), b.get("enum")) {
                (Some(c), None) => words.push(c.clone()),
                (None, Some(Value::Array(all))) => words.extend(all.iter().cloned()),
                _ => return,
            }
            let this = b.get("type").cloned();
            if kind.is_some() && this.is_some() && kind != this {
                return;
            }
            kind = kind.or(this);
        }
        map.remove(key);
        if let Some(kind) = kind {
            map.insert("type".into(), kind);
        }
        map.insert("enum".into(), Value::Array(words));
        return;
    }
}

/// Keeps only what a value is, for schemas below the depth limit.
fn shallow(map: &mut Map<String, Value>) {
    map.retain(|key, _| matches!(key.as_str(), "type" | "description" | "enum" | "minimum"));
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Serialize;
    use serde_json::json;

    /// A choice of words, each with its own description.
    #[derive(Serialize, serde::Deserialize, JsonSchema)]
    #[serde(rename_all = "camelCase")]
    #[allow(dead_code)]
    enum Kind {
        /// The first.
        First,
        /// The second.
        Second,
    }

    /// A node of a tree.
    #[derive(Serialize, JsonSchema)]
    #[allow(dead_code)]
    struct Node {
        /// Its number.
        number: u64,
        /// Its children.
        children: Vec<Node>,
    }

    #[derive(Serialize, JsonSchema)]
    #[allow(dead_code)]
    struct Reply {
        /// How far.
        ratio: f64,
        /// Which.
        kind: Kind,
        /// Maybe a count.
        count: Option<i32>,
        /// The tree.
        tree: Vec<Node>,
    }

    /// Every `format` value and every key anywhere in `schema`.
    fn walk<'a>(schema: &'a Value, formats: &mut Vec<&'a str>, keys: &mut Vec<&'a str>) {
        match schema {
            Value::Object(map) => {
                for (key, value) in map {
                    keys.push(key);
                    if key == "format" {
                        formats.extend(value.as_str());
                    }
                    walk(value, formats, keys);
                }
            }
            Value::Array(items) => items.iter().for_each(|v| walk(v, formats, keys)),
            _ => {}
        }
    }

    #[test]
    fn only_standard_formats_and_no_definitions() {
        for schema in [
            input_schema::<Reply>(),
            detailed_output_schema::<Reply>(),
            output_schema::<Reply>(),
        ] {
            let schema = Value::Object(schema);
            let (mut formats, mut keys) = (Vec::new(), Vec::new());
            walk(&schema, &mut formats, &mut keys);
            assert!(formats.is_empty(), "{formats:?} in {schema:#}");
            assert!(
                !keys.iter().any(|k| *k == "$ref" || *k == "$defs"),
                "{schema:#}"
            );
        }
    }

    #[test]
    fn output_choices_are_enums_and_recursion_stops() {
        let schema = Value::Object(detailed_output_schema::<Reply>());
        let props = &schema["properties"];
        assert_eq!(
            props["kind"],
            json!({"description": "Which.", "type": "string", "enum": ["first", "second"]})
        );
        assert_eq!(
            props["count"],
            json!({"description": "Maybe a count.", "type": ["integer", "null"]})
        );
        assert_eq!(
            props["ratio"],
            json!({"description": "How far.", "type": "number"})
        );
        let node = &props["tree"]["items"];
        assert_eq!(
            node["properties"]["number"],
            json!({"description": "Its number.", "type": "integer", "minimum": 0})
        );
        assert_eq!(
            node["properties"]["children"]["items"],
            json!({"type": "object"})
        );
    }

    #[test]
    fn published_output_schemas_name_only_the_required_fields() {
        let schema = Value::Object(output_schema::<Reply>());
        assert_eq!(
            schema,
            json!({"type": "object", "required": ["ratio", "kind", "count", "tree"]})
        );
    }

    /// Parameters with optional fields.
    #[derive(serde::Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Params {
        /// Where.
        path: String,
        /// Whether.
        #[serde(default)]
        flag: bool,
        /// Maybe a word.
        #[serde(default)]
        word: Option<String>,
        /// Which.
        #[serde(default)]
        kind: Option<Kind>,
        /// Loose values.
        #[serde(default)]
        values: Option<Map<String, Value>>,
    }

    #[test]
    fn input_schemas_say_nothing_twice() {
        let schema = Value::Object(input_schema::<Params>());
        assert_eq!(
            schema,
            json!({
                "type": "object",
                "required": ["path"],
                "additionalProperties": false,
                "properties": {
                    "path": {"description": "Where.", "type": "string"},
                    "flag": {"description": "Whether.", "type": "boolean"},
                    "word": {"description": "Maybe a word.", "type": "string"},
                    "kind": {"description": "Which.", "type": "string", "enum": ["first", "second"]},
                    "values": {"description": "Loose values.", "type": "object"}
                }
            })
        );
    }
}
