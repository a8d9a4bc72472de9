//! The server's options as a user meets them: MCP roots from the client
//! narrowing the command line's, `--read-only`, `--extensions`, `--toolsets`.

// MCP roots are deprecated in the newest protocol revision; clients in use
// today still send them, so the server supports them and this test uses them.
#![allow(deprecated)]

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::{Arc, Mutex};

use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ClientConfig, Implementation, ListRootsResult, Root,
};
use rmcp::service::RequestContext;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::{ClientHandler, ErrorData, RoleClient, ServiceExt};
use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_mcp-server-text");

/// A client that offers the folders in `roots` as its MCP roots.
#[derive(Clone)]
struct RootsClient {
    roots: Arc<Mutex<Vec<PathBuf>>>,
}

impl ClientHandler for RootsClient {
    #[allow(deprecated)]
    fn get_info(&self) -> ClientConfig {
        let capabilities = ClientCapabilities::builder()
            .enable_roots()
            .enable_roots_list_changed()
            .build();
        ClientConfig::new(capabilities, Implementation::new("roots-test", "1"))
    }

    #[allow(deprecated)]
    async fn list_roots(
        &self,
        _context: RequestContext<RoleClient>,
    ) -> Result<ListRootsResult, ErrorData> {
        let roots = self.roots.lock().unwrap().clone();
        Ok(ListRootsResult::new(
            roots
                .iter()
                .map(|p| {
                    Root::new(format!(
                        "file://{}",
                        p.display().to_string().replace(' ', "%20")
                    ))
                })
                .collect(),
        ))
    }
}

fn folder(base: &Path, name: &str, note: &str) -> PathBuf {
    let dir = base.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("note.md"), note).unwrap();
    dir
}

async fn inspect(peer: &rmcp::Peer<RoleClient>, path: &str) -> Value {
    let args = json!({"filePath": path}).as_object().cloned().unwrap();
    let result = peer
        .call_tool(CallToolRequestParams::new("TextInspect").with_arguments(args))
        .await
        .unwrap();
    let text = &result.content[0].as_text().unwrap().text;
    let value: Value = serde_json::from_str(text).unwrap();
    if result.is_error == Some(true) {
        json!({"error": value["message"]})
    } else {
        value
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn client_roots_narrow_the_command_lines_and_follow_changes() {
    let dir = tempfile::tempdir().unwrap();
    let base = std::fs::canonicalize(dir.path()).unwrap();
    let cli_root = folder(&base, "cli root", "# From the command line\n");
    let first = folder(&cli_root, "client one", "# First client root\n\nline\n");
    let second = folder(&cli_root, "client two", "# Second\n");
    let roots = Arc::new(Mutex::new(vec![first.clone()]));
    let command = tokio::process::Command::new(BIN).configure(|cmd| {
        cmd.arg(&cli_root).arg("--toolsets").arg("text");
    });
    let (transport, _) = TokioChildProcess::builder(command)
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let client = RootsClient {
        roots: roots.clone(),
    }
    .serve(transport)
    .await
    .unwrap();
    let peer = client.peer().clone();

    // The very first call already sees the client's roots.
    let out = inspect(&peer, "note.md").await;
    assert_eq!(out["structure"]["headings"][0]["text"], "First client root");
    assert_eq!(out["totalLines"], 3);
    let refused = inspect(&peer, &cli_root.join("note.md").display().to_string()).await;
    assert!(
        refused["error"]
            .as_str()
            .unwrap()
            .contains("outside the allowed folders"),
        "{refused}"
    );

    // roots/list_changed makes the server ask again.
    *roots.lock().unwrap() = vec![second.clone()];
    #[allow(deprecated)]
    peer.notify_roots_list_changed().await.unwrap();
    let mut seen = Value::Null;
    for _ in 0..50 {
        seen = inspect(&peer, "note.md").await;
        if seen["structure"]["headings"][0]["text"] == "Second" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(seen["structure"]["headings"][0]["text"], "Second", "{seen}");
    client.cancel().await.unwrap();
}

fn tools_json(args: &[&str]) -> Vec<Value> {
    let out = std::process::Command::new(BIN)
        .arg("tools")
        .arg("--json")
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let value: Value = serde_json::from_slice(&out.stdout).unwrap();
    value["tools"].as_array().unwrap().clone()
}

fn names(tools: &[Value]) -> Vec<String> {
    tools
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn read_only_offers_only_tools_that_change_nothing() {
    let tools = tools_json(&["--read-only", "--toolsets", "all"]);
    assert_eq!(
        names(&tools),
        [
            "TextInspect",
            "TextRead",
            "TextSearch",
            "ListDirectories",
            "ListFiles",
            "get_text_file_contents",
            "EditHistory",
            "CheckLinks",
            "Backlinks",
            "Properties",
            "Tags"
        ]
    );
    // Properties and Tags stay for their reads (their writes are refused),
    // so they keep saying that they can write.
    for tool in &tools {
        let writes = matches!(tool["name"].as_str(), Some("Properties" | "Tags"));
        assert_eq!(
            tool["annotations"]["readOnlyHint"] == true,
            !writes,
            "{tool}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn read_only_instructions_say_the_server_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let command = tokio::process::Command::new(BIN).configure(|cmd| {
        cmd.arg(dir.path())
            .args(["--read-only", "--toolsets", "all"]);
    });
    let (transport, _) = TokioChildProcess::builder(command)
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let client = ().serve(transport).await.unwrap();
    let instructions = client
        .peer_info()
        .and_then(|i| i.instructions.clone())
        .unwrap_or_default();
    assert!(
        instructions.contains(
            "This server is read-only: it can inspect, read and search files, not change them. \
             Properties and Tags only read: a call that would change a note is refused."
        ),
        "{instructions}"
    );
    assert!(
        !instructions.contains("rename changes a tag"),
        "{instructions}"
    );
    client.cancel().await.unwrap();
}

#[test]
fn toolsets_pick_the_tools() {
    assert_eq!(
        names(&tools_json(&[])),
        [
            "TextInspect",
            "TextRead",
            "TextPatch",
            "TextReplace",
            "TextSearch",
            "ListDirectories",
            "ListFiles",
            "Move",
            "RemoveFile",
            "edit_code",
            "EditHistory",
            "UndoEdit",
            "Batch",
            "CheckLinks",
            "Backlinks",
            "Properties",
            "Tags"
        ]
    );
    assert_eq!(names(&tools_json(&["--toolsets", "code"])), ["edit_code"]);
    assert_eq!(
        names(&tools_json(&["--toolsets", "links"])),
        ["CheckLinks", "Backlinks"]
    );
    assert_eq!(
        names(&tools_json(&["--toolsets", "vault"])),
        ["Properties", "Tags"]
    );
    assert_eq!(
        names(&tools_json(&["--toolsets", "history"])),
        ["EditHistory", "UndoEdit"]
    );
    assert_eq!(
        names(&tools_json(&["--toolsets", "history", "--no-history"])),
        Vec::<String>::new()
    );
    assert_eq!(names(&tools_json(&["--toolsets", "all"])).len(), 24);
    assert_eq!(names(&tools_json(&["--toolsets", "patch"])), ["ApplyPatch"]);
    let bad = std::process::Command::new(BIN)
        .args(["tools", "--toolsets", "text,nope"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("unknown toolset 'nope'"));
}

fn call(root: &Path, extra: &[&str], tool: &str, args: Value) -> (i32, Value) {
    let out = std::process::Command::new(BIN)
        .args(extra)
        .args(["call", tool, &args.to_string(), "--root"])
        .arg(root)
        .output()
        .unwrap();
    let value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (out.status.code().unwrap_or(-1), value)
}

#[test]
fn extensions_decide_which_files_open() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.md"), "# A\n").unwrap();
    std::fs::write(dir.path().join("data.weird"), "plain text\n").unwrap();
    let (code, out) = call(
        dir.path(),
        &[],
        "TextInspect",
        json!({"filePath": "data.weird"}),
    );
    assert_eq!(code, 1);
    assert!(
        out["message"]
            .as_str()
            .unwrap()
            .contains("file ending that is not allowed")
    );
    let (code, out) = call(
        dir.path(),
        &["--extensions", "weird"],
        "TextInspect",
        json!({"filePath": "data.weird"}),
    );
    assert_eq!((code, out["totalLines"].clone()), (0, json!(1)));
    let (code, _) = call(
        dir.path(),
        &["--extensions", "weird"],
        "TextInspect",
        json!({"filePath": "a.md"}),
    );
    assert_eq!(code, 1, "md is no longer allowed");
    let (code, _) = call(
        dir.path(),
        &["--extensions", "*"],
        "TextInspect",
        json!({"filePath": "data.weird"}),
    );
    assert_eq!(code, 0);
}

#[test]
fn read_only_refuses_calls_to_writing_tools() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.md"), "# A\n").unwrap();
    let (code, out) = call(
        dir.path(),
        &["--read-only"],
        "TextReplace",
        json!({"filePath": "a.md", "oldText": "A", "newText": "B"}),
    );
    assert_eq!(code, 1);
    assert!(
        out["suggestions"][0]
            .as_str()
            .unwrap()
            .contains("not switched on (or the server is --read-only)"),
        "{out}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("a.md")).unwrap(),
        "# A\n"
    );
}

#[test]
fn max_file_size_is_checked_on_the_command_line() {
    let out = std::process::Command::new(BIN)
        .args(["tools", "--max-file-size", "lots"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is not a size"));
}
