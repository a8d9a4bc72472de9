//! The stdio framing as a careless or broken client meets it: every line gets
//! an answer it can act on, and the session goes on.

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_mcp-server-text");

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"#;
const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;

/// Sends `input` after the handshake, closes stdin, and returns every reply
/// except the one to `initialize`, in order.
fn replies(input: &[u8]) -> Vec<Value> {
    let root = tempfile::tempdir().unwrap();
    std::fs::write(root.path().join("a.md"), "# A\n").unwrap();
    let mut child = Command::new(BIN)
        .arg(root.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "{INITIALIZE}\n{INITIALIZED}").unwrap();
    stdin.write_all(input).unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .filter(|v: &Value| v["id"] != 1)
        .collect()
}

#[test]
fn broken_lines_get_errors_and_the_session_goes_on() {
    let input = b"hello world\n\
        {\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}\n\
        \xff\xfe\n\
        [{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\"}]\n\
        {\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":\"TextRead\"}\n\
        {\"jsonrpc\":\"1.0\",\"id\":\"six\",\"method\":\"ping\"}\n\
        {\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"TextRead\",\"arguments\":\"x\"}}\n\
        {\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"tools/call\"}\n\
        \r\n\
        {\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"ping\"}\r\n\
        {\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"ping\"}";
    let got = replies(input);
    // Errors about the framing come in order; answers to the two pings may
    // come in either order.
    let mut summary: Vec<(Value, Value)> = got
        .iter()
        .map(|r| (r["id"].clone(), r["error"]["code"].clone()))
        .collect();
    let n = summary.len();
    if n >= 2 {
        summary[n - 2..].sort_by_key(|(id, _)| id.as_i64());
    }
    assert_eq!(
        summary,
        vec![
            (Value::Null, json!(-32700)),
            (Value::Null, json!(-32700)),
            (Value::Null, json!(-32700)),
            (Value::Null, json!(-32600)),
            (json!(5), json!(-32600)),
            (json!("six"), json!(-32600)),
            (json!(7), json!(-32602)),
            (json!(10), json!(-32602)),
            (json!(8), Value::Null),
            // The last message has no newline before the end of input.
            (json!(9), Value::Null),
        ],
        "{got:#?}"
    );
    let message = |i: usize| got[i]["error"]["message"].as_str().unwrap().to_string();
    assert_eq!(got.len(), 10);
    assert!(message(0).contains("send one JSON-RPC object per message"));
    assert!(message(3).contains("batches of messages are not supported"));
    assert_eq!(message(4), "Invalid request: \"params\" must be an object");
    assert_eq!(
        message(5),
        "Invalid request: a message needs \"jsonrpc\": \"2.0\""
    );
    assert_eq!(
        message(6),
        "Invalid params: tools/call \"arguments\" must be an object of named parameters"
    );
}
