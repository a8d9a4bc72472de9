//! Checking one incoming JSON-RPC message before the SDK sees it, for stdio
//! and HTTP alike.
//!
//! The SDK answers a message it cannot read with nothing (stdio), a bare
//! HTTP 415, or "method not found" for a `tools/call` whose params are off.
//! A client needs better to correct itself: a parse error (-32700) for text
//! that is not JSON, an invalid request (-32600) with the request's id for
//! JSON that is not a message, and invalid params (-32602) for a malformed
//! `tools/call`, each saying what is wrong.
//!
//! ```
//! use mcp_server_text::faces::incoming::{Checked, check};
//!
//! let Checked::Refused(reply) = check(br#"{"jsonrpc":"2.0","id":3,"method":5}"#) else {
//!     panic!("a numeric method is no message");
//! };
//! assert_eq!(reply["id"], 3);
//! assert_eq!(reply["error"]["code"], -32600);
//! ```

use rmcp::RoleServer;
use rmcp::model::{ClientRequest, JsonRpcMessage};
use rmcp::service::RxJsonRpcMessage;
use serde_json::{Value, json};

use crate::text::excerpt::clip_middle;

/// What an incoming message turned out to be.
pub enum Checked {
    /// A message for the server.
    Message(Box<RxJsonRpcMessage<RoleServer>>),
    /// Not one: the JSON-RPC error response to send back.
    Refused(Value),
}

/// Reads one message from its bytes, or says what to answer instead.
pub fn check(bytes: &[u8]) -> Checked {
    // Straight from the bytes first: strings are borrowed while the SDK's
    // enums are sorted out, so a large message is copied as few times as
    // possible. Only a message that is refused, or a `tools/call` the SDK
    // could not read as one, is read again to say what is wrong.
    if let Ok(message) = serde_json::from_slice::<RxJsonRpcMessage<RoleServer>>(bytes) {
        let unread_tool_call = matches!(
            &message,
            JsonRpcMessage::Request(r)
                if matches!(&r.request, ClientRequest::CustomRequest(c) if c.method == "tools/call")
        );
        if !unread_tool_call {
            return Checked::Message(Box::new(message));
        }
    }
    let value: Value = match serde_json::from_slice(bytes) {
        Ok(value) => value,
        Err(e) => {
            let message = format!(
                "Parse error: the text is not one JSON message ({e}); send one JSON-RPC object per message"
            );
            return Checked::Refused(error_reply(Value::Null, -32700, message));
        }
    };
    let id = readable_id(&value);
    if let Some(problem) = bad_tool_call(&value) {
        let message = format!("Invalid params: {problem}");
        return Checked::Refused(error_reply(id, -32602, message));
    }
    let shape = shape_problem(&value);
    // Consumed rather than cloned: a message can be as large as the request
    // limit.
    match serde_json::from_value::<RxJsonRpcMessage<RoleServer>>(value) {
        Ok(message) => Checked::Message(Box::new(message)),
        Err(e) => {
            let reason = shape.unwrap_or_else(|| {
                format!(
                    "not a valid request, response or notification: {}",
                    clip_middle(&e.to_string(), 300)
                )
            });
            Checked::Refused(error_reply(
                id,
                -32600,
                format!("Invalid request: {reason}"),
            ))
        }
    }
}

/// The id of a message of which only the first bytes (`head`) and the last
/// ones (`tail`) were kept, because it was over the size limit; `null` when
/// neither shows it. Clients put the id first or last, so one of them
/// usually does, and the refusal can answer the request it refuses.
///
/// ```
/// use mcp_server_text::faces::incoming::id_of_cut_message;
///
/// let head = br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"TextSearch","arguments":{"query":"aaaa"#;
/// assert_eq!(id_of_cut_message(head, b"aaaa\"}}}"), 7);
/// let tail = br#"aaaa"}},"jsonrpc":"2.0","id":"req-8"}"#;
/// assert_eq!(id_of_cut_message(br#"{"method":"tools/call","params":{"#, tail), "req-8");
/// // A tail cut inside a character, and a number last.
/// assert_eq!(id_of_cut_message(b"{", b"\xa9\xc3\xa9\"},\"id\": 12 }\n"), 12);
/// // An id nested deeper is not the message's.
/// assert_eq!(id_of_cut_message(b"{", br#"{"x":{"id":3}}"#), serde_json::Value::Null);
/// ```
pub fn id_of_cut_message(head: &[u8], tail: &[u8]) -> Value {
    id_in_head(head)
        .or_else(|| id_at_end(tail))
        .unwrap_or(Value::Null)
}

/// The top-level `id` of a JSON object cut short, if it comes before the cut.
fn id_in_head(head: &[u8]) -> Option<Value> {
    use serde::Deserializer as _;
    use serde::de::{IgnoredAny, MapAccess, Visitor};

    struct TopLevelId<'a>(&'a mut Option<Value>);

    impl<'de> Visitor<'de> for TopLevelId<'_> {
        type Value = ();

        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a JSON-RPC message")
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            while let Some(key) = map.next_key::<String>()? {
                if key == "id" {
                    let id: Value = map.next_value()?;
                    if id.is_string() || id.is_number() {
                        *self.0 = Some(id);
                    }
                    return Ok(());
                }
                map.next_value::<IgnoredAny>()?;
            }
            Ok(())
        }
    }

    let mut found = None;
    let mut parser = serde_json::Deserializer::from_slice(head);
    // Ends in an error where the message was cut; what was seen is kept.
    let _ = parser.deserialize_map(TopLevelId(&mut found));
    found
}

/// The id of a message whose last member is `"id": <number or string>`.
fn id_at_end(tail: &[u8]) -> Option<Value> {
    // The kept tail may begin inside a character.
    let first_char = tail.iter().position(|b| b & 0xC0 != 0x80)?;
    let text = std::str::from_utf8(&tail[first_char..]).ok()?;
    let body = text.trim_end().strip_suffix('}')?.trim_end();
    let value_start = if let Some(inner) = body.strip_suffix('"') {
        // A string id without escapes, as clients generate them.
        let open = inner.rfind('"')?;
        if inner[..open].ends_with('\\') {
            return None;
        }
        open
    } else {
        body.trim_end_matches(|c: char| c.is_ascii_digit() || c == '-')
            .len()
    };
    let id: Value = serde_json::from_str(&body[value_start..]).ok()?;
    let before = body[..value_start].trim_end().strip_suffix(':')?.trim_end();
    let before = before.strip_suffix("\"id\"")?.trim_end();
    let is_member = before.ends_with(',') || before.ends_with('{');
    (is_member && (id.is_string() || id.is_number())).then_some(id)
}

/// A JSON-RPC error response.
pub fn error_reply(id: Value, code: i64, message: String) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

/// The id of a message that could not be read as a request, if it has a
/// usable one (JSON-RPC answers with `null` otherwise).
fn readable_id(value: &Value) -> Value {
    match value.get("id") {
        Some(Value::String(id)) if id.len() <= MAX_ID_LEN => Value::String(id.clone()),
        Some(id @ Value::Number(_)) => id.clone(),
        _ => Value::Null,
    }
}

/// Longest string id echoed back in an error; clients use short ones, and a
/// huge one is not worth copying.
const MAX_ID_LEN: usize = 256;

/// What is wrong with the params of a `tools/call`, which the SDK would
/// otherwise answer with "method not found".
fn bad_tool_call(value: &Value) -> Option<&'static str> {
    if value.get("method") != Some(&json!("tools/call")) || value.get("id").is_none() {
        return None;
    }
    let Some(params) = value.get("params") else {
        return Some("tools/call needs params: {\"name\": the tool, \"arguments\": {...}}");
    };
    let params = params.as_object()?;
    if !params.get("name").is_some_and(Value::is_string) {
        return Some("tools/call needs \"name\", the tool's name as a string");
    }
    match params.get("arguments") {
        None | Some(Value::Null | Value::Object(_)) => None,
        Some(_) => Some("tools/call \"arguments\" must be an object of named parameters"),
    }
}

/// What is wrong with the shape of `value` as a message, if it is something
/// the SDK's own error would not say clearly.
fn shape_problem(value: &Value) -> Option<String> {
    Some(match value {
        Value::Array(_) => {
            "batches of messages are not supported; send one message at a time".into()
        }
        Value::Object(map) if map.get("jsonrpc") != Some(&json!("2.0")) => {
            "a message needs \"jsonrpc\": \"2.0\"".into()
        }
        Value::Object(map) if !map.get("method").is_none_or(Value::is_string) => {
            "\"method\" must be a string".into()
        }
        Value::Object(map) if !map.get("params").is_none_or(Value::is_object) => {
            "\"params\" must be an object".into()
        }
        Value::Object(_) => return None,
        _ => "a message must be a JSON object".into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_after_a_wide_character_is_read_without_panicking() {
        // Found by fuzzing: the digits at the end followed a two-byte
        // character, and the number was cut from inside it.
        assert_eq!(id_of_cut_message(b"{", "Ӗ2}".as_bytes()), Value::Null);
        assert_eq!(id_of_cut_message(b"{", "\"Ӗ\":Ӗ2}".as_bytes()), Value::Null);
        assert_eq!(
            id_of_cut_message(b"{", "{\"x\":\"Ӗ\",\"id\":-42}".as_bytes()),
            json!(-42)
        );
    }
}
