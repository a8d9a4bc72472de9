//! The vault acceptance tests, over stdio with the built binary on a copy
//! of the example vault: a property set in place, a tag renamed across the
//! vault and undone, a block read, kept through a Move and reported once
//! deleted, and the backlinks of the garden note.

use std::collections::BTreeMap;
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

/// Every file under `root` (but the server's own folders) with its bytes.
fn files(root: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    fn walk(dir: &Path, out: &mut BTreeMap<PathBuf, Vec<u8>>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if name == ".history" || name == ".trash" {
                continue;
            }
            if path.is_dir() {
                walk(&path, out);
            } else {
                out.insert(path.clone(), std::fs::read(&path).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(root, &mut out);
    out
}

async fn start(root: &Path) -> Client {
    let command = tokio::process::Command::new(BIN).configure(|cmd| {
        cmd.arg(root);
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
async fn setting_a_property_changes_only_its_line() {
    let (_dir, root) = vault();
    let client = start(&root).await;
    let note = root.join("projects/garden.md");
    let before = std::fs::read_to_string(&note).unwrap();
    assert!(before.contains("# Fields the project notes share"));
    assert!(before.contains("tags: [project/alpha, garden]\n"));

    let read = ok(&call(
        &client,
        "Properties",
        json!({"filePath": "projects/garden.md"}),
    )
    .await);
    assert_eq!(read["properties"]["status"], "active");
    assert_eq!(
        read["properties"]["tags"],
        json!(["project/alpha", "garden"])
    );

    let set = ok(&call(
        &client,
        "Properties",
        json!({"filePath": "projects/garden.md", "set": {"status": "done"}, "expectedHash": read["fileHash"]}),
    )
    .await);
    assert_eq!(set["changed"], json!(["status"]));
    assert_eq!(set["affectedLines"], json!({"start": 4, "end": 4}));
    assert_eq!(
        std::fs::read_to_string(&note).unwrap(),
        before.replace(
            "status: active  # set by hand\n",
            "status: done  # set by hand\n"
        )
    );

    // A stale hash is refused, and nothing changes.
    let stale = refused(
        &call(
            &client,
            "Properties",
            json!({"filePath": "projects/garden.md", "set": {"status": "draft"}, "expectedHash": read["fileHash"]}),
        )
        .await,
    );
    assert!(
        stale["message"].as_str().unwrap().contains("changed"),
        "{stale}"
    );
    assert!(
        std::fs::read_to_string(&note)
            .unwrap()
            .contains("status: done  #")
    );

    // Invalid YAML is refused with the parser's line.
    std::fs::write(
        root.join("notes/broken.md"),
        "---\ntitle: x\nlist: [a, b\nstatus: y\n---\n",
    )
    .unwrap();
    let broken = refused(
        &call(
            &client,
            "Properties",
            json!({"filePath": "notes/broken.md", "set": {"status": "done"}}),
        )
        .await,
    );
    let message = broken["message"].as_str().unwrap();
    assert!(
        message.contains("YAML frontmatter does not parse: line"),
        "{message}"
    );
    assert_eq!(
        std::fs::read_to_string(root.join("notes/broken.md")).unwrap(),
        "---\ntitle: x\nlist: [a, b\nstatus: y\n---\n"
    );
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tag_rename_covers_the_vault_and_one_undo_takes_it_back() {
    let (_dir, root) = vault();
    let client = start(&root).await;
    let before = files(&root);
    let text = |rel: &str| String::from_utf8(before[&root.join(rel)].clone()).unwrap();

    let renamed = ok(&call(
        &client,
        "Tags",
        json!({"rename": {"from": "project/alpha", "to": "project/beta"}}),
    )
    .await);
    assert_eq!(renamed["changed"], 4, "{renamed:#}");
    let changed: Vec<(&str, u64)> = renamed["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let path = f["filePath"].as_str().unwrap();
            let rel = path.strip_prefix(root.to_str().unwrap()).unwrap();
            (rel.trim_start_matches('/'), f["changed"].as_u64().unwrap())
        })
        .collect();
    assert_eq!(
        changed,
        [
            ("notes/2026-05-01.md", 1),
            ("notes/ideas.md", 1),
            ("projects/garden.md", 2)
        ]
    );

    let after = files(&root);
    let mut expected = before.clone();
    let garden = text("projects/garden.md")
        .replace(
            "tags: [project/alpha, garden]",
            "tags: [project/beta, garden]",
        )
        .replace("#project/alpha/hardware", "#project/beta/hardware");
    // The code block and the URL keep theirs.
    assert!(garden.contains("(#project/alpha here is code, not a tag)"));
    assert!(garden.contains("https://seeds.example/catalog#project/alpha"));
    expected.insert(root.join("projects/garden.md"), garden.into_bytes());
    expected.insert(
        root.join("notes/2026-05-01.md"),
        text("notes/2026-05-01.md")
            .replace("#daily #project/alpha\n", "#daily #project/beta\n")
            .into_bytes(),
    );
    expected.insert(
        root.join("notes/ideas.md"),
        text("notes/ideas.md")
            .replace("#project/alpha/x", "#project/beta/x")
            .into_bytes(),
    );
    assert_eq!(after, expected);

    let listed = ok(&call(&client, "Tags", json!({})).await);
    let tags: Vec<&str> = listed["tags"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["tag"].as_str().unwrap())
        .collect();
    assert!(tags.contains(&"project/beta/hardware"), "{listed}");
    assert!(
        !tags.iter().any(|t| t.starts_with("project/alpha")),
        "{listed}"
    );

    let undo = ok(&call(
        &client,
        "UndoEdit",
        json!({"changeId": renamed["changeId"]}),
    )
    .await);
    assert_eq!(undo["files"].as_array().unwrap().len(), 3, "{undo}");
    assert_eq!(files(&root), before, "every byte restored");
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_block_is_a_target_survives_a_move_and_is_missed_when_deleted() {
    let (_dir, root) = vault();
    let client = start(&root).await;
    let read = ok(&call(
        &client,
        "TextRead",
        json!({"filePath": "projects/garden.md", "target": {"block": "^tasks-1"}}),
    )
    .await);
    assert_eq!(read["content"], "- [ ] Mulch bed B ^tasks-1");
    let check = ok(&call(&client, "CheckLinks", json!({})).await);
    assert_eq!(check["brokenCount"], 0, "{check}");

    ok(&call(
        &client,
        "Move",
        json!({"sourcePath": "projects/garden.md", "destinationPath": "archive/garden.md"}),
    )
    .await);
    let ideas = std::fs::read_to_string(root.join("notes/ideas.md")).unwrap();
    assert!(ideas.contains("[[garden#^tasks-1]]"), "{ideas}");
    let check = ok(&call(&client, "CheckLinks", json!({})).await);
    assert_eq!(check["brokenCount"], 0, "{check}");
    let moved = ok(&call(
        &client,
        "TextRead",
        json!({"filePath": "archive/garden.md", "target": {"block": "tasks-1"}}),
    )
    .await);
    assert_eq!(moved["content"], read["content"]);

    ok(&call(
        &client,
        "TextPatch",
        json!({"filePath": "archive/garden.md", "operation": "delete", "target": {"block": "^tasks-1"}}),
    )
    .await);
    let check = ok(&call(&client, "CheckLinks", json!({})).await);
    assert_eq!(check["brokenCount"], 2, "{check}");
    let broken: Vec<(String, u64, String)> = check["broken"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            let path = b["filePath"].as_str().unwrap();
            let rel = path.strip_prefix(root.to_str().unwrap()).unwrap();
            (
                rel.trim_start_matches('/').to_string(),
                b["line"].as_u64().unwrap(),
                b["reason"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        broken,
        [
            (
                "notes/2026-05-01.md".to_string(),
                16,
                "no block '^tasks-1' in archive/garden.md".to_string()
            ),
            (
                "notes/ideas.md".to_string(),
                11,
                "no block '^tasks-1' in archive/garden.md".to_string()
            ),
        ]
    );
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn backlinks_list_every_link_into_the_note_and_nothing_else() {
    let (_dir, root) = vault();
    let client = start(&root).await;
    let result = ok(&call(
        &client,
        "Backlinks",
        json!({"filePath": "projects/garden.md"}),
    )
    .await);
    let links: Vec<(String, u64, String)> = result["backlinks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            let path = b["filePath"].as_str().unwrap();
            let rel = path.strip_prefix(root.to_str().unwrap()).unwrap();
            (
                rel.trim_start_matches('/').to_string(),
                b["line"].as_u64().unwrap(),
                b["kind"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let expected = [
        ("README.md", 12, "inline"),
        ("notes/2026-05-01.md", 8, "inline"),
        ("notes/2026-05-01.md", 9, "wikilink"),
        ("notes/2026-05-01.md", 13, "wikilink"),
        ("notes/2026-05-01.md", 13, "wikilink"),
        ("notes/2026-05-01.md", 16, "embed"),
        ("notes/ideas.md", 3, "inline"),
        ("notes/ideas.md", 4, "reference"),
        ("notes/ideas.md", 11, "alias"),
        ("notes/ideas.md", 11, "wikilink"),
        ("templates/daily.md", 12, "wikilink"),
    ];
    let expected: Vec<(String, u64, String)> = expected
        .iter()
        .map(|(f, l, k)| (f.to_string(), *l, k.to_string()))
        .collect();
    assert_eq!(links, expected);
    assert_eq!(result["count"], 11);
    assert_eq!(
        result["backlinks"][8]["text"],
        "- The [[Veg patch]] needs mulch before the herbs go in: [[garden#^tasks-1]]."
    );

    let block = ok(&call(
        &client,
        "Backlinks",
        json!({"filePath": "projects/garden.md", "block": "^tasks-1"}),
    )
    .await);
    let lines: Vec<(String, u64)> = block["backlinks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            let path = b["filePath"].as_str().unwrap();
            (
                path.rsplit('/').next().unwrap().to_string(),
                b["line"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        lines,
        [
            ("2026-05-01.md".to_string(), 16),
            ("ideas.md".to_string(), 11)
        ]
    );
    let heading = ok(&call(
        &client,
        "Backlinks",
        json!({"filePath": "projects/garden.md", "heading": "## Tasks"}),
    )
    .await);
    assert_eq!(heading["count"], 2, "{heading}");
    client.cancel().await.unwrap();
}
