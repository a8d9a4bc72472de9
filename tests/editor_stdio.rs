//! The editor toolset end to end: the built binary driven by rmcp's client
//! with `--toolsets editor` and with `--toolsets all`, and the command line's
//! tool list.

use assert_cmd::Command;
use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, CallToolResult, GetPromptRequestParams};
use rmcp::service::RunningService;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use serde_json::{Value, json};

const EDITOR_TOOLS: [&str; 6] = [
    "get_text_file_contents",
    "patch_text_file_contents",
    "create_text_file",
    "append_text_file_contents",
    "insert_text_file_contents",
    "delete_text_file_contents",
];

const OTHER_TOOLS: [&str; 9] = [
    "TextInspect",
    "TextRead",
    "TextPatch",
    "TextReplace",
    "TextSearch",
    "ListDirectories",
    "ListFiles",
    "RemoveFile",
    "edit_code",
];

type Client = RunningService<rmcp::RoleClient, ()>;

async fn start(root: &std::path::Path, toolsets: &str) -> Client {
    let transport = TokioChildProcess::new(
        tokio::process::Command::new(env!("CARGO_BIN_EXE_mcp-server-text")).configure(|cmd| {
            cmd.arg(root)
                .arg("--toolsets")
                .arg(toolsets)
                .stderr(std::process::Stdio::null());
        }),
    )
    .unwrap();
    ().serve(transport).await.expect("initialize")
}

async fn call(client: &Client, name: &'static str, arguments: Value) -> CallToolResult {
    client
        .call_tool(
            CallToolRequestParams::new(name)
                .with_arguments(arguments.as_object().cloned().unwrap()),
        )
        .await
        .expect("a tool result, not a protocol error")
}

fn structured(result: &CallToolResult) -> Value {
    assert_ne!(result.is_error, Some(true), "tool failed: {result:?}");
    let value = result
        .structured_content
        .clone()
        .expect("structuredContent");
    let text = &result.content[0].as_text().expect("text content").text;
    assert_eq!(serde_json::from_str::<Value>(text).unwrap(), value);
    value
}

fn error_json(result: &CallToolResult) -> Value {
    assert_eq!(
        result.is_error,
        Some(true),
        "expected a tool error: {result:?}"
    );
    serde_json::from_str(&result.content[0].as_text().unwrap().text).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_editor_toolset_alone() {
    let dir = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    std::fs::write(root.join("a.txt"), "alpha\r\nbeta\r\ngamma\r\n").unwrap();
    std::fs::write(root.join("b.txt"), "one\ntwo\n").unwrap();
    let client = start(&root, "editor").await;

    let tools = client.list_all_tools().await.unwrap();
    let mut names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    names.sort();
    let mut expected = EDITOR_TOOLS.to_vec();
    expected.sort();
    assert_eq!(names, expected);
    for tool in &tools {
        assert!(tool.output_schema.is_some(), "{}", tool.name);
        let annotations = tool.annotations.as_ref().unwrap();
        assert_eq!(
            annotations.read_only_hint,
            Some(tool.name == "get_text_file_contents"),
            "{}",
            tool.name
        );
    }

    // The guidance names the editor tools and nothing that is switched off.
    let instructions = client.peer_info().unwrap().instructions.clone().unwrap();
    let prompt = client
        .get_prompt(GetPromptRequestParams::new("editing-guide"))
        .await
        .unwrap();
    let prompt_text = serde_json::to_string(&prompt.messages).unwrap();
    for text in [&instructions, &prompt_text] {
        for tool in EDITOR_TOOLS {
            assert!(text.contains(tool), "{tool} missing from {text}");
        }
        for tool in OTHER_TOOLS {
            assert!(!text.contains(tool), "{tool} mentioned in {text}");
        }
    }

    let read = structured(
        &call(
            &client,
            "get_text_file_contents",
            json!({"files": [{"file_path": "a.txt", "ranges": [{"start": 2, "end": 2}]}]}),
        )
        .await,
    );
    assert_eq!(read["a.txt"]["ranges"][0]["content"], "beta\r\n");

    let patched = structured(
        &call(
            &client,
            "patch_text_file_contents",
            json!({"files": [
                {"file_path": "a.txt", "patches": [{"old_string": "beta\n", "new_string": "BETA\n", "ranges": [{"start": 2, "end": 2}]}]},
                {"file_path": "b.txt", "patches": [{"old_string": "", "new_string": "three\n", "ranges": [{"start": 3, "end": null}]}]}
            ]}),
        )
        .await,
    );
    assert_eq!(patched["a.txt"]["result"], "ok");
    assert_eq!(patched["b.txt"]["total_lines"], 3);
    assert_eq!(
        std::fs::read(root.join("a.txt")).unwrap(),
        b"alpha\r\nBETA\r\ngamma\r\n"
    );
    assert_eq!(
        std::fs::read_to_string(root.join("b.txt")).unwrap(),
        "one\ntwo\nthree\n"
    );

    // A failing batch is a tool error and changes nothing.
    let failed = call(
        &client,
        "patch_text_file_contents",
        json!({"files": [
            {"file_path": "b.txt", "patches": [{"old_string": "one\n", "new_string": "1\n", "ranges": [{"start": 1, "end": 1}]}]},
            {"file_path": "a.txt", "patches": [{"old_string": "beta\n", "new_string": "x\n", "ranges": [{"start": 2, "end": 2}]}]}
        ]}),
    )
    .await;
    let error = error_json(&failed);
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .starts_with("patch_text_file_contents wrote nothing: files[1] (a.txt): patches[0].ranges[0] (line 2)"),
        "{error}"
    );
    assert_eq!(
        std::fs::read_to_string(root.join("b.txt")).unwrap(),
        "one\ntwo\nthree\n"
    );

    let dry = structured(
        &call(
            &client,
            "create_text_file",
            json!({"file_path": "c.txt", "contents": "new\n", "dry_run": true}),
        )
        .await,
    );
    assert_eq!(dry["c.txt"]["dry_run"], true);
    assert!(!root.join("c.txt").exists());

    // The text tools are not there.
    let missing = call(&client, "TextRead", json!({"filePath": "a.txt"})).await;
    let error = error_json(&missing);
    assert!(
        error["suggestions"][0]
            .as_str()
            .unwrap()
            .contains("'text' toolset, which is not switched on"),
        "{error}"
    );
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_editor_tools_alongside_every_other_tool() {
    let dir = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    std::fs::write(root.join("note.md"), "# Title\n\nBody.\n").unwrap();
    let client = start(&root, "all").await;

    let tools = client.list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    for tool in EDITOR_TOOLS
        .iter()
        .chain(&["TextInspect", "TextRead", "TextPatch", "TextReplace"])
    {
        assert!(names.contains(tool), "{tool} missing from {names:?}");
    }
    let instructions = client.peer_info().unwrap().instructions.clone().unwrap();
    assert!(instructions.contains("patch_text_file_contents"));
    assert!(instructions.contains("TextReplace"));
    assert!(instructions.contains("dry_run: true") && instructions.contains("dryRun: true"));

    // The hash one toolset returns is accepted by the other.
    let read = structured(
        &call(
            &client,
            "TextRead",
            json!({"filePath": "note.md", "target": {"lines": {"start": 3, "end": 3}}}),
        )
        .await,
    );
    let appended = structured(
        &call(
            &client,
            "append_text_file_contents",
            json!({"file_path": "note.md", "contents": "More.\n", "file_hash": read["fileHash"]}),
        )
        .await,
    );
    structured(
        &call(
            &client,
            "TextReplace",
            json!({"filePath": "note.md", "oldText": "More.", "newText": "Much more.", "expectedHash": appended["note.md"]["file_hash"]}),
        )
        .await,
    );
    assert_eq!(
        std::fs::read_to_string(root.join("note.md")).unwrap(),
        "# Title\n\nBody.\nMuch more.\n"
    );
    client.cancel().await.unwrap();
}

#[test]
fn the_command_line_lists_exactly_the_editor_tools() {
    let output = Command::cargo_bin("mcp-server-text")
        .unwrap()
        .args(["tools", "--json", "--toolsets", "editor"])
        .output()
        .unwrap();
    assert!(output.status.success());
    let listed: Value = serde_json::from_slice(&output.stdout).unwrap();
    let names: Vec<&str> = listed["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, EDITOR_TOOLS);

    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("x.txt"), "x\n").unwrap();
    let output = Command::cargo_bin("mcp-server-text")
        .unwrap()
        .args(["call", "--toolsets", "editor", "--root"])
        .arg(dir.path())
        .args([
            "get_text_file_contents",
            r#"{"files": [{"file_path": "x.txt", "ranges": [{"start": 1, "end": null}]}]}"#,
        ])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let value: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(value["x.txt"]["ranges"][0]["content"], "x\n");
}
