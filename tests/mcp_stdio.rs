//! End to end over stdio: spawn the built binary and drive it with rmcp's own
//! client, as Claude Desktop or any MCP client would.

use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, CallToolResult, GetPromptRequestParams};
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use serde_json::{Value, json};

const NOTE: &str = "---\ntitle: Demo\n---\n# Demo\n\nIntro line.\n\n## Setup\n\nInstall it.\n\n```sh\n# not a heading\nmake\n```\n\n## Usage\n\nRun it.\n";

fn args(value: Value) -> serde_json::Map<String, Value> {
    value.as_object().cloned().unwrap()
}

fn structured(result: &CallToolResult) -> Value {
    assert_ne!(result.is_error, Some(true), "tool failed: {result:?}");
    let value = result
        .structured_content
        .clone()
        .expect("structuredContent");
    let text = result.content[0]
        .as_text()
        .expect("text content")
        .text
        .clone();
    assert_eq!(
        serde_json::from_str::<Value>(&text).unwrap(),
        value,
        "text content mirrors structuredContent"
    );
    value
}

async fn call(
    client: &rmcp::service::RunningService<rmcp::RoleClient, ()>,
    name: &'static str,
    arguments: Value,
) -> CallToolResult {
    client
        .call_tool(CallToolRequestParams::new(name).with_arguments(args(arguments)))
        .await
        .expect("a tool result, not a protocol error")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_real_client_lists_and_calls_every_tool() {
    let dir = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    std::fs::write(root.join("note.md"), NOTE).unwrap();
    let command =
        tokio::process::Command::new(env!("CARGO_BIN_EXE_mcp-server-text")).configure(|cmd| {
            cmd.arg(&root).arg("--toolsets").arg("text");
        });
    // `TokioChildProcess::new` would let the server log into the test output.
    let (transport, _) = TokioChildProcess::builder(command)
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let client = ().serve(transport).await.expect("initialize");

    let info = client.peer_info().expect("server info");
    assert_eq!(
        info.server_info.as_ref().map(|i| i.name.as_str()),
        Some("mcp-server-text")
    );
    let instructions = info.instructions.clone().unwrap_or_default();
    assert!(instructions.contains("TextReplace"), "{instructions}");

    let tools = client.list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    for expected in ["TextInspect", "TextRead", "TextPatch", "TextReplace"] {
        assert!(
            names.contains(&expected),
            "{expected} missing from {names:?}"
        );
    }
    for tool in &tools {
        let annotations = tool.annotations.as_ref().expect("annotations");
        assert_eq!(annotations.open_world_hint, Some(false));
        assert!(annotations.read_only_hint.is_some());
        assert!(
            tool.output_schema.is_some(),
            "{} has an output schema",
            tool.name
        );
        assert_eq!(tool.input_schema.get("type"), Some(&json!("object")));
        assert!(tool.description.as_ref().is_some_and(|d| d.len() > 100));
    }
    let read_only = |name: &str| {
        tools
            .iter()
            .find(|t| t.name == name)
            .unwrap()
            .annotations
            .as_ref()
            .unwrap()
            .read_only_hint
    };
    assert_eq!(read_only("TextInspect"), Some(true));
    assert_eq!(read_only("TextPatch"), Some(false));

    let inspect = structured(&call(&client, "TextInspect", json!({"filePath": "note.md"})).await);
    assert_eq!(inspect["format"], "markdown");
    assert_eq!(inspect["structure"]["headings"][0]["text"], "Demo");
    assert_eq!(
        inspect["structure"]["headings"][0]["children"][1]["text"],
        "Usage"
    );

    let read = structured(
        &call(
            &client,
            "TextRead",
            json!({"filePath": "note.md", "target": {"heading": "## Setup"}}),
        )
        .await,
    );
    assert_eq!(
        read["content"],
        "## Setup\n\nInstall it.\n\n```sh\n# not a heading\nmake\n```\n"
    );

    let patch = structured(
        &call(
            &client,
            "TextPatch",
            json!({"filePath": "note.md", "operation": "insert", "target": {"appendToSection": "## Setup"}, "content": "Then configure it.\n", "expectedHash": read["fileHash"]}),
        )
        .await,
    );
    assert_eq!(patch["affectedLines"], json!({"start": 16, "end": 16}));

    let replace = structured(
        &call(
            &client,
            "TextReplace",
            json!({"filePath": "note.md", "oldText": "Run it.", "newText": "Run it twice."}),
        )
        .await,
    );
    assert_eq!(replace["occurrencesReplaced"], 1);
    assert_eq!(
        std::fs::read_to_string(root.join("note.md")).unwrap(),
        NOTE.replace("```\n\n## Usage", "```\nThen configure it.\n\n## Usage")
            .replace("Run it.", "Run it twice.")
    );

    // A tool failure is a result with isError, carrying the error JSON.
    let failed = call(
        &client,
        "TextReplace",
        json!({"filePath": "note.md", "oldText": "absent text", "newText": "x"}),
    )
    .await;
    assert_eq!(failed.is_error, Some(true));
    let error: Value = serde_json::from_str(&failed.content[0].as_text().unwrap().text).unwrap();
    assert_eq!(error["status"], "error");
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("oldText was not found")
    );
    assert!(!error["suggestions"].as_array().unwrap().is_empty());

    // Wrong argument types are tool errors too, not protocol errors.
    let bad = call(
        &client,
        "TextRead",
        json!({"filePath": 42, "target": {"lines": {"start": 1}}}),
    )
    .await;
    assert_eq!(bad.is_error, Some(true));

    let prompts = client.list_all_prompts().await.unwrap();
    assert_eq!(prompts[0].name, "editing-guide");
    let prompt = client
        .get_prompt(GetPromptRequestParams::new("editing-guide"))
        .await
        .unwrap();
    assert!(!prompt.messages.is_empty());

    client.cancel().await.unwrap();
}
