//! The undo, batch and link-keeping acceptance session, over stdio with the
//! built binary: three edits of a note and undos of them in the order an
//! agent would try, a Move of a note that keeps every link to it intact, a
//! Batch whose fourth operation is invalid, TextPatch from a template,
//! several server processes recording history in one root at once, and
//! `--no-history`.

use std::path::{Path, PathBuf};

use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_mcp-server-text");

type Client = rmcp::service::RunningService<rmcp::RoleClient, ()>;

/// The example vault, copied into a temp folder.
fn vault() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap().join("vault");
    copy(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("example-vault"),
        &root,
    );
    (dir, root)
}

fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

async fn start(root: &Path, extra: &[&str]) -> Client {
    let command = tokio::process::Command::new(BIN).configure(|cmd| {
        cmd.arg(root).args(extra);
    });
    let (transport, _) = TokioChildProcess::builder(command)
        .stderr(std::process::Stdio::null())
        .spawn()
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

fn ok(result: &CallToolResult) -> Value {
    assert_ne!(result.is_error, Some(true), "tool failed: {result:?}");
    result
        .structured_content
        .clone()
        .expect("structuredContent")
}

fn refused(result: &CallToolResult) -> Value {
    assert_eq!(
        result.is_error,
        Some(true),
        "expected a refusal: {result:?}"
    );
    let text = &result.content[0].as_text().expect("text").text;
    serde_json::from_str(text).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_edits_undone_out_of_order_then_in_order() {
    let (_dir, root) = vault();
    let note = root.join("projects/garden.md");
    let client = start(&root, &[]).await;
    let edit = |old: &'static str, new: &'static str| {
        call(
            &client,
            "TextReplace",
            json!({"filePath": "projects/garden.md", "oldText": old, "newText": new}),
        )
    };
    let first = ok(&edit("A raised-bed", "A raised").await);
    let before_second = std::fs::read(&note).unwrap();
    let second = ok(&edit("- [ ] Mulch bed B", "- [x] Mulch bed B").await);
    let third = ok(&edit("First tomatoes", "The first tomatoes").await);
    assert_ne!(first["changeId"], second["changeId"]);

    // 1. Undo of the second: refused, since the third changed the file.
    let err = refused(&call(&client, "UndoEdit", json!({"changeId": second["changeId"]})).await);
    let message = err["message"].as_str().unwrap();
    assert!(message.contains("refused"), "{message}");
    assert!(
        message.contains(third["changeId"].as_str().unwrap()),
        "names the third edit: {message}"
    );
    assert!(
        err["diff"]
            .as_str()
            .unwrap()
            .contains("-The first tomatoes"),
        "{err}"
    );
    assert_eq!(err["currentHash"], third["fileHash"]);

    // 2. Undo of the third, then of the second: as before the second edit.
    let undo3 = ok(&call(&client, "UndoEdit", json!({"changeId": third["changeId"]})).await);
    assert_eq!(undo3["files"][0]["fileHash"], second["fileHash"]);
    ok(&call(&client, "UndoEdit", json!({"changeId": second["changeId"]})).await);
    assert_eq!(
        std::fs::read(&note).unwrap(),
        before_second,
        "byte-identical"
    );

    let history = ok(&call(
        &client,
        "EditHistory",
        json!({"filePath": "projects/garden.md"}),
    )
    .await);
    let tools: Vec<&str> = history["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["tool"].as_str().unwrap())
        .collect();
    assert_eq!(
        tools,
        [
            "UndoEdit",
            "UndoEdit",
            "TextReplace",
            "TextReplace",
            "TextReplace"
        ]
    );
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moving_a_note_keeps_every_link_to_it_intact() {
    let (_dir, root) = vault();
    let client = start(&root, &[]).await;
    let read = |rel: &str| std::fs::read_to_string(root.join(rel)).unwrap();
    let (ideas, daily, readme) = (
        read("notes/ideas.md"),
        read("notes/2026-05-01.md"),
        read("README.md"),
    );
    let garden = std::fs::read(root.join("projects/garden.md")).unwrap();
    let args = json!({"sourcePath": "projects/garden.md", "destinationPath": "archive/garden.md"});

    // A dry run lists every file and line, and changes nothing.
    let mut dry_args = args.clone();
    dry_args["dryRun"] = json!(true);
    let dry = ok(&call(&client, "Move", dry_args).await);
    let listed: Vec<(String, u64, String, String)> = dry["linksUpdated"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| {
            let file = u["filePath"].as_str().unwrap();
            let rel = file.strip_prefix(root.to_str().unwrap()).unwrap();
            (
                rel.trim_start_matches('/').to_string(),
                u["line"].as_u64().unwrap(),
                u["before"].as_str().unwrap().to_string(),
                u["after"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let expected = [
        ("README.md", 12, "projects/garden.md", "archive/garden.md"),
        (
            "notes/2026-05-01.md",
            8,
            "../projects/garden.md#beds",
            "../archive/garden.md#beds",
        ),
        (
            "notes/ideas.md",
            3,
            "../projects/garden.md#plan",
            "../archive/garden.md#plan",
        ),
        (
            "notes/ideas.md",
            7,
            "../projects/garden.md",
            "../archive/garden.md",
        ),
    ];
    let expected: Vec<(String, u64, String, String)> = expected
        .iter()
        .map(|(f, l, b, a)| (f.to_string(), *l, b.to_string(), a.to_string()))
        .collect();
    assert_eq!(listed, expected);
    assert_eq!(read("notes/ideas.md"), ideas);
    assert!(root.join("projects/garden.md").exists());
    assert!(!root.join("archive").exists());

    // 3. The move: every link to the note follows it; [[garden]] and
    // [[garden#Tasks]] still find it by its unique name.
    let moved = ok(&call(&client, "Move", args).await);
    assert_eq!(moved["linksUpdated"], dry["linksUpdated"]);
    assert_eq!(
        std::fs::read(root.join("archive/garden.md")).unwrap(),
        garden
    );
    assert_eq!(
        read("notes/ideas.md"),
        ideas.replace("../projects/garden.md", "../archive/garden.md")
    );
    assert_eq!(
        read("notes/2026-05-01.md"),
        daily.replace("../projects/garden.md", "../archive/garden.md")
    );
    assert!(
        read("notes/2026-05-01.md").contains("[[garden#Tasks]]; the whole project is [[garden]]")
    );
    assert_eq!(
        read("README.md"),
        readme.replace("](projects/garden.md)", "](archive/garden.md)")
    );
    let check = ok(&call(&client, "CheckLinks", json!({})).await);
    assert_eq!(check["brokenCount"], 0, "{check}");

    // One change: its undo moves the note back and restores every link.
    ok(&call(&client, "UndoEdit", json!({"changeId": moved["changeId"]})).await);
    assert_eq!(read("notes/ideas.md"), ideas);
    assert_eq!(read("notes/2026-05-01.md"), daily);
    assert_eq!(read("README.md"), readme);
    assert_eq!(
        std::fs::read(root.join("projects/garden.md")).unwrap(),
        garden
    );
    assert!(!root.join("archive").exists());
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn text_patch_fills_a_template() {
    let (_dir, root) = vault();
    let client = start(&root, &[]).await;
    let before = std::fs::read_to_string(root.join("notes/2026-05-01.md")).unwrap();
    let result = ok(&call(
        &client,
        "TextPatch",
        json!({"filePath": "notes/2026-05-01.md", "operation": "insert",
               "target": {"appendToSection": "## Log"}, "template": "log-entry",
               "variables": {"entry": "Watered bed C"}}),
    )
    .await);
    let after = std::fs::read_to_string(root.join("notes/2026-05-01.md")).unwrap();
    // 5. The placeholders are filled: the time of day and the variable.
    let inserted = result["preview"]["after"].as_str().unwrap();
    let line = inserted.trim_end();
    assert!(
        line.starts_with("- ") && line.ends_with(" Watered bed C"),
        "{line}"
    );
    let time = &line[2..line.len() - " Watered bed C".len()];
    assert!(
        time.len() == 5 && time.as_bytes()[2] == b':' && !time.contains("{{"),
        "{time}"
    );
    let anchor = "still at 06:00.\n";
    assert_eq!(
        after,
        before.replacen(anchor, &format!("{anchor}{line}\n"), 1)
    );
    assert!(result["changeId"].is_string(), "{result}");
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_of_five_over_three_files_with_the_fourth_invalid_writes_nothing() {
    let (_dir, root) = vault();
    let client = start(&root, &[]).await;
    let files = ["projects/garden.md", "README.md", "code/inventory.py"];
    let before: Vec<Vec<u8>> = files
        .iter()
        .map(|f| std::fs::read(root.join(f)).unwrap())
        .collect();
    let result = call(
        &client,
        "Batch",
        json!({"operations": [
            {"tool": "TextReplace", "arguments": {"filePath": "projects/garden.md", "oldText": "Garden project", "newText": "Vegetable garden", "occurrence": "all"}},
            {"tool": "TextPatch", "arguments": {"filePath": "projects/garden.md", "operation": "insert", "target": {"appendToSection": "## Tasks"}, "content": "- [ ] Order seeds\n"}},
            {"tool": "TextPatch", "arguments": {"filePath": "README.md", "operation": "insert", "target": {"lines": {"start": 1, "end": 1}}, "content": "<!-- reviewed -->\n"}},
            {"tool": "edit_code", "arguments": {"file_path": "code/inventory.py", "search_context": "this text is in no file at all", "new_content": "x = 1"}},
            {"tool": "TextReplace", "arguments": {"filePath": "README.md", "oldText": "Example", "newText": "Sample", "occurrence": "first"}},
        ]}),
    )
    .await;
    let err = refused(&result);
    assert_eq!(err["operation"], 4, "{err}");
    assert!(
        err["message"]
            .as_str()
            .unwrap()
            .starts_with("Batch refused: operation 4 (edit_code) failed: "),
        "{err}"
    );
    for (file, bytes) in files.iter().zip(&before) {
        assert_eq!(
            &std::fs::read(root.join(file)).unwrap(),
            bytes,
            "{file} unchanged"
        );
    }
    assert!(!root.join(".history").exists(), "nothing recorded");
    client.cancel().await.unwrap();
}

#[test]
fn several_server_processes_record_history_in_one_root_at_once() {
    let (_dir, root) = vault();
    const PROCESSES: usize = 6;
    for i in 0..PROCESSES {
        std::fs::write(root.join(format!("p{i}.md")), format!("process {i}\n")).unwrap();
    }
    let children: Vec<_> = (0..PROCESSES)
        .map(|i| {
            std::process::Command::new(BIN)
                .args(["call", "TextReplace"])
                .arg(json!({"filePath": format!("p{i}.md"), "oldText": "process", "newText": "done"}).to_string())
                .arg("--root")
                .arg(&root)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    let mut ids = Vec::new();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success());
        let reply: Value = serde_json::from_slice(&out.stdout).unwrap();
        ids.push(reply["changeId"].as_str().unwrap().to_string());
    }
    let mut seqs: Vec<u64> = ids
        .iter()
        .map(|id| id.split('-').next().unwrap().parse().unwrap())
        .collect();
    seqs.sort();
    assert_eq!(seqs, (1..=PROCESSES as u64).collect::<Vec<_>>(), "{ids:?}");
    let records = std::fs::read_dir(root.join(".history"))
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .is_ok_and(|e| e.file_name().to_string_lossy().ends_with(".rec"))
        })
        .count();
    assert_eq!(records, PROCESSES);
    // Each is undone by another process.
    for (i, id) in ids.iter().enumerate() {
        let out = std::process::Command::new(BIN)
            .args(["call", "UndoEdit"])
            .arg(json!({"changeId": id}).to_string())
            .arg("--root")
            .arg(&root)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stdout)
        );
        let _ = i;
    }
    for i in 0..PROCESSES {
        assert_eq!(
            std::fs::read_to_string(root.join(format!("p{i}.md"))).unwrap(),
            format!("process {i}\n")
        );
    }
}

#[test]
fn no_history_writes_no_history_and_offers_no_undo() {
    let (_dir, root) = vault();
    let out = std::process::Command::new(BIN)
        .args(["call", "TextReplace"])
        .arg(json!({"filePath": "README.md", "oldText": "Example", "newText": "Sample", "occurrence": "first"}).to_string())
        .args(["--root"])
        .arg(&root)
        .arg("--no-history")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let reply: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(reply.get("changeId").is_none(), "{reply}");
    assert!(!root.join(".history").exists());
    let tools = std::process::Command::new(BIN)
        .args(["tools", "--no-history"])
        .output()
        .unwrap();
    let listed = String::from_utf8(tools.stdout).unwrap();
    assert!(!listed.contains("\nUndoEdit — ") && !listed.contains("\nEditHistory — "));
    assert!(listed.contains("\nBatch — "));
    let with = std::process::Command::new(BIN)
        .arg("tools")
        .output()
        .unwrap();
    let listed = String::from_utf8(with.stdout).unwrap();
    assert!(listed.contains("UndoEdit — Undo a recorded change [toolset history]"));
    // The same through the environment, as client configurations set it.
    let out = std::process::Command::new(BIN)
        .args(["call", "UndoEdit", "{\"changeId\": \"1-aaaaaa\"}", "--root"])
        .arg(&root)
        .env("MCP_TEXT_NO_HISTORY", "true")
        .output()
        .unwrap();
    let reply: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(reply["message"], "There is no tool named 'UndoEdit'");
    assert!(
        reply["suggestions"][0]
            .as_str()
            .unwrap()
            .contains("--no-history"),
        "{reply}"
    );
}
