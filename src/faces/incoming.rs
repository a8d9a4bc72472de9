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
use rmcp::service::RxJsonRpcMessage;
use serde_json::{Value, json};

/// What an incoming message turned out to be.
pub enum Checked {
    /// A message for the server.
    Message(Box<RxJsonRpcMessage<RoleServer>>),
    /// Not one: the JSON-RPC error response to send back.
    Refused(Value),
}

/// Reads one message from its bytes, or says what to answer instead.
pub fn check(bytes: &[u8]) -> Checked {
    let value: Value = match serde_json::from_slice(bytes) {
        Ok(value) => value,
        Err(e) => {
            let message = format!(
                "Parse error: the text is not one JSON message ({e}); send one JSON-RPC object per message"
            );
            return Checked::Refused(error_reply(Value::Null, -32700, message));
        }
    };
    if let Some(problem) = bad_tool_call(&value) {
        let message = format!("Invalid params: {problem}");
        return Checked::Refused(error_reply(readable_id(&value), -32602, message));
    }
    match serde_json::from_value::<RxJsonRpcMessage<RoleServer>>(value.clone()) {
        Ok(message) => Checked::Message(Box::new(message)),
        Err(e) => {
            let message = format!("Invalid request: {}", invalid_reason(&value, &e));
            Checked::Refused(error_reply(readable_id(&value), -32600, message))
        }
    }
}

/// A JSON-RPC error response.
pub fn error_reply(id: Value, code: i64, message: String) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

/// The id of a message that could not be read as a request, if it has a
/// usable one (JSON-RPC answers with `null` otherwise).
fn readable_id(value: &Value) -> Value {
    match value.get("id") {
        Some(id @ (Value::String(_) | Value::Number(_))) => id.clone(),
        _ => Value::Null,
    }
}

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

/// Why `value`, valid JSON, is not a message this server reads.
fn invalid_reason(value: &Value, error: &serde_json::Error) -> String {
    match value {
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
        Value::Object(_) => format!("not a valid request, response or notification: {error}"),
        _ => "a message must be a JSON object".into(),
    }
}
