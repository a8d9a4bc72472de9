//! TOML frontmatter (`+++`), through `toml_edit`, which keeps every byte it
//! was not asked to change: comments, spacing, key order and the way each
//! value is written.

use serde_json::{Map, Number, Value};
use toml_edit::{Array, DocumentMut, InlineTable, Item, Table};

use super::Change;
use crate::text::lines::LineIndex;

/// One top-level key of a TOML body.
pub(super) struct TomlEntry {
    /// The key.
    pub key: String,
    /// Its value.
    pub value: Value,
    /// Its first line (1-based, in the body).
    pub first: usize,
    /// Its last line.
    pub last: usize,
}

/// The top-level keys of `body`. An error gives the body line and the
/// parser's message.
pub(super) fn read(body: &str) -> Result<Vec<TomlEntry>, (usize, String)> {
    let doc = toml_edit::Document::parse(body).map_err(|e| {
        let line = e
            .span()
            .map_or(1, |span| LineIndex::new(body).line_of_offset(span.start));
        (line.max(1), e.message().trim().to_string())
    })?;
    let index = LineIndex::new(body);
    let line_of = |offset: usize| index.line_of_offset(offset).max(1);
    let mut out = Vec::new();
    for (key, item) in doc.as_table().iter() {
        let key_span = doc.as_table().key(key).and_then(|k| k.span());
        let item_span = item.span();
        let first = key_span
            .clone()
            .or_else(|| item_span.clone())
            .map_or(1, |s| line_of(s.start));
        let last = item_span
            .map(|s| line_of(s.end.saturating_sub(1).max(s.start)))
            .unwrap_or(first)
            .max(first);
        out.push(TomlEntry {
            key: key.to_string(),
            value: item_json(item),
            first,
            last,
        });
    }
    Ok(out)
}

fn item_json(item: &Item) -> Value {
    match item {
        Item::None => Value::Null,
        Item::Value(v) => value_json(v),
        Item::Table(t) => table_json(t),
        Item::ArrayOfTables(a) => Value::Array(a.iter().map(table_json).collect()),
    }
}

fn table_json(table: &Table) -> Value {
    Value::Object(
        table
            .iter()
            .map(|(k, v)| (k.to_string(), item_json(v)))
            .collect::<Map<_, _>>(),
    )
}

fn value_json(value: &toml_edit::Value) -> Value {
    use toml_edit::Value as T;
    match value {
        T::String(s) => Value::String(s.value().clone()),
        T::Integer(i) => Value::Number(Number::from(*i.value())),
        T::Float(f) => Number::from_f64(*f.value()).map_or(Value::Null, Value::Number),
        T::Boolean(b) => Value::Bool(*b.value()),
        // Dates stay as written.
        T::Datetime(d) => Value::String(d.value().to_string()),
        T::Array(a) => Value::Array(a.iter().map(value_json).collect()),
        T::InlineTable(t) => Value::Object(
            t.iter()
                .map(|(k, v)| (k.to_string(), value_json(v)))
                .collect(),
        ),
    }
}

/// `body` with `changes` made; an error names the key and why.
pub(super) fn edit(body: &str, changes: &[Change], eol: &str) -> Result<String, (String, String)> {
    let mut doc: DocumentMut = body
        .parse()
        .map_err(|e: toml_edit::TomlError| (String::new(), e.message().to_string()))?;
    for change in changes {
        match change {
            Change::Set(key, json) => {
                let mut value = toml_value(json).ok_or_else(|| {
                    (
                        key.clone(),
                        "TOML has no null; delete the key instead".to_string(),
                    )
                })?;
                // A date stays a date when given as the string it reads as.
                if let (Some(Item::Value(toml_edit::Value::Datetime(_))), Value::String(s)) =
                    (doc.get(key), json)
                    && let Ok(date) = s.parse::<toml_edit::Datetime>()
                {
                    value = date.into();
                }
                match doc.get_mut(key) {
                    Some(Item::Value(old)) => {
                        // The spaces and any comment around the old value stay.
                        *value.decor_mut() = old.decor().clone();
                        *old = value;
                    }
                    Some(other) => *other = Item::Value(value),
                    None => {
                        doc.insert(key, Item::Value(value));
                    }
                }
            }
            Change::Delete(key) => {
                doc.remove(key);
            }
        }
    }
    let out = doc.to_string();
    Ok(if eol == "\r\n" { crlf(&out) } else { out })
}

/// `text` with every lone `\n` written `\r\n`.
fn crlf(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    let mut prev = '\0';
    for c in text.chars() {
        if c == '\n' && prev != '\r' {
            out.push('\r');
        }
        out.push(c);
        prev = c;
    }
    out
}

/// A JSON value as a TOML value; `None` for null (TOML has none).
fn toml_value(json: &Value) -> Option<toml_edit::Value> {
    Some(match json {
        Value::Null => return None,
        Value::Bool(b) => (*b).into(),
        Value::Number(n) => match n.as_i64() {
            Some(i) => i.into(),
            None => n.as_f64()?.into(),
        },
        Value::String(s) => s.as_str().into(),
        Value::Array(items) => {
            let mut array = Array::new();
            for item in items {
                array.push(toml_value(item)?);
            }
            array.into()
        }
        Value::Object(map) => {
            let mut table = InlineTable::new();
            for (k, v) in map {
                table.insert(k, toml_value(v)?);
            }
            table.into()
        }
    })
}
