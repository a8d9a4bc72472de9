//! Files and requests built to end the process or exhaust its memory, sent
//! as a client would send them over stdio: a YAML file nested deeper than the
//! YAML scanner can hold, Python indented past what its scanner can save,
//! deeply nested text of every language, template and line-range requests
//! that ask for gigabytes. Each test checks the reply, that files are
//! untouched where nothing was to be written, and that the same server
//! answers the next call.

mod client;

use std::path::Path;
use std::process::Stdio;

use client::{BIN, Client, call, failure, success, text};
use rmcp::ServiceExt;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use serde_json::{Value, json};

/// A stdio server on `root` with every toolset, connected.
async fn server(root: &Path) -> Client {
    let command = tokio::process::Command::new(BIN).configure(|cmd| {
        cmd.arg(root).arg("--toolsets").arg("all");
    });
    let (transport, _) = TokioChildProcess::builder(command)
        .stderr(Stdio::null())
        .spawn()
        .expect("start the server");
    ().serve(transport).await.expect("initialize over stdio")
}

/// The server still answers: a small read of a file that is always there.
async fn still_alive(client: &Client) {
    let reply = success(
        &call(
            client,
            "TextInspect",
            json!({"filePath": "alive.md", "mode": "lines", "query": "1"}),
        )
        .await,
    );
    assert_eq!(reply["lines"][0]["text"], "still here", "{reply}");
}

fn root() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    std::fs::write(root.join("alive.md"), "still here\n").unwrap();
    (dir, root)
}

/// 260 mappings, each one space deeper: the shape that made the YAML
/// scanner write past its buffer and abort.
fn yaml_bomb() -> String {
    (0..260).map(|i| format!("{}a:\n", " ".repeat(i))).collect()
}

/// Python indented 520 levels deep (one space each) with a string opened
/// inside: the Python scanner saves 2 + 1 + 2 × 520 bytes, more than its
/// buffer holds.
fn python_bomb() -> String {
    let mut text: String = (0..520)
        .map(|i| format!("{}if x:\n", " ".repeat(i)))
        .collect();
    text.push_str(&format!("{}y = f\"{{\n", " ".repeat(520)));
    text
}

/// Text nested `depth` levels deep in the brackets `language` has.
fn deeply_nested(extension: &str, depth: usize) -> String {
    let (open, close) = match extension {
        "html" => ("<div>", "</div>"),
        "css" => ("a{", "}"),
        "toml" => ("a=[", "]"),
        "sh" => ("$(", ")"),
        "py" | "js" | "ts" | "tsx" | "json" | "yaml" | "rs" | "go" | "c" | "cpp" | "java" => {
            ("[", "]")
        }
        other => panic!("no nesting for {other}"),
    };
    format!("{}1{}\n", open.repeat(depth), close.repeat(depth))
}

const EXTENSIONS: [&str; 15] = [
    "rs", "py", "go", "js", "ts", "tsx", "json", "yaml", "toml", "c", "cpp", "java", "sh", "html",
    "css",
];

#[tokio::test(flavor = "multi_thread")]
async fn a_yaml_bomb_is_inspected_and_edited_without_a_parse() {
    let (_dir, root) = root();
    let bomb = yaml_bomb();
    std::fs::write(root.join("deep.yaml"), &bomb).unwrap();
    let client = server(&root).await;

    let inspected = success(&call(&client, "TextInspect", json!({"filePath": "deep.yaml"})).await);
    let note = inspected["note"].as_str().unwrap_or_default();
    assert!(
        note.contains("syntax check skipped")
            && note.contains("levels of nesting, more than the YAML parser can hold (200)"),
        "{inspected}"
    );
    still_alive(&client).await;

    // Edited through edit_code: the edit lands, and the reply says the
    // syntax was not checked.
    let edited = success(
        &call(
            &client,
            "edit_code",
            json!({"file_path": "deep.yaml", "search_context": format!("{}a:\n", " ".repeat(259)), "new_content": format!("{}b: 1\n", " ".repeat(259))}),
        )
        .await,
    );
    let syntax_note = edited["syntax"]["note"].as_str().unwrap_or_default();
    assert!(syntax_note.contains("syntax check skipped"), "{edited}");
    let after = std::fs::read_to_string(root.join("deep.yaml")).unwrap();
    assert!(after.ends_with(&format!("{}b: 1\n", " ".repeat(259))));
    // A whole file written in one go is not parsed either.
    let created = success(
        &call(
            &client,
            "edit_code",
            json!({"file_path": "new.yaml", "strategy": "overwrite_file", "new_content": bomb}),
        )
        .await,
    );
    assert!(
        created["syntax"]["note"]
            .as_str()
            .unwrap_or_default()
            .contains("syntax check skipped"),
        "{created}"
    );
    still_alive(&client).await;
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn python_indented_past_its_scanner_is_not_parsed() {
    let (_dir, root) = root();
    std::fs::write(root.join("deep.py"), python_bomb()).unwrap();
    let client = server(&root).await;
    let inspected = success(&call(&client, "TextInspect", json!({"filePath": "deep.py"})).await);
    assert!(
        inspected["note"]
            .as_str()
            .unwrap_or_default()
            .contains("columns of indentation, more than the Python parser can hold (380)"),
        "{inspected}"
    );
    still_alive(&client).await;
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn deeply_nested_files_of_every_language_leave_the_server_alive() {
    let (_dir, root) = root();
    for extension in EXTENSIONS {
        std::fs::write(
            root.join(format!("deep.{extension}")),
            deeply_nested(extension, 20_000),
        )
        .unwrap();
    }
    let client = server(&root).await;
    for extension in EXTENSIONS {
        let file = format!("deep.{extension}");
        let inspected = call(&client, "TextInspect", json!({"filePath": file})).await;
        assert_ne!(
            inspected.is_error,
            Some(true),
            "{file}: {}",
            text(&inspected)
        );
        // An edit at the innermost point: the gate parses before and after.
        let edited = call(
            &client,
            "edit_code",
            json!({"file_path": file, "search_context": "1", "new_content": "2", "dry_run": true}),
        )
        .await;
        assert_ne!(edited.is_error, Some(true), "{file}: {}", text(&edited));
        still_alive(&client).await;
    }
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn markdown_headings_nested_deeply_leave_the_server_alive() {
    let (_dir, root) = root();
    let n = 100_000;
    // Links nested in each other's labels, 100,000 deep (this overflowed
    // the stack), and 100,000 unclosed brackets (each looked to the end of
    // the heading for its `]`).
    let nested = format!("# {}x{}\n\ntext\n", "[".repeat(n), "](u)".repeat(n));
    std::fs::write(root.join("nested.md"), nested).unwrap();
    std::fs::write(root.join("open.md"), format!("# {}\n", "[a".repeat(n))).unwrap();
    let client = server(&root).await;
    for file in ["nested.md", "open.md"] {
        let inspected = success(&call(&client, "TextInspect", json!({"filePath": file})).await);
        assert_eq!(
            inspected["structure"]["headings"][0]["level"],
            1,
            "{file}: {}",
            text(&call(&client, "TextInspect", json!({"filePath": file})).await).len()
        );
        still_alive(&client).await;
    }
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_template_that_would_fill_gigabytes_is_refused_before_it_is_built() {
    let (_dir, root) = root();
    std::fs::write(root.join("n.md"), "# N\n").unwrap();
    let client = server(&root).await;
    // 200,000 placeholders of a 100 KB variable: 20 GB once filled.
    let refused = failure(
        &call(
            &client,
            "TextPatch",
            json!({
                "filePath": "n.md",
                "operation": "insert",
                "target": {"appendToSection": "# N"},
                "template": "{{v}}".repeat(200_000),
                "variables": {"v": "x".repeat(100_000)},
            }),
        )
        .await,
    );
    let message = refused["message"].as_str().unwrap();
    assert!(
        message.contains("the filled template would be longer than 268435456 bytes"),
        "{refused}"
    );
    assert!(message.ends_with("nothing was written"), "{message}");
    assert_eq!(std::fs::read_to_string(root.join("n.md")).unwrap(), "# N\n");

    // A 4 MB template on one line, full of placeholders, is filled at once.
    let filled = success(
        &call(
            &client,
            "TextPatch",
            json!({
                "filePath": "n.md",
                "operation": "insert",
                "target": {"appendToSection": "# N"},
                "template": format!("{}\n", "{{v}} ".repeat(700_000)),
                "variables": {"v": "ab"},
                "dryRun": true,
            }),
        )
        .await,
    );
    assert!(
        filled["diff"].as_str().is_some_and(|d| d.contains("+")),
        "{filled}"
    );
    still_alive(&client).await;
    client.cancel().await.unwrap();
}

/// A file of `lines` numbered lines.
fn numbered_lines(lines: usize) -> String {
    (1..=lines).map(|i| format!("line {i}\n")).collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn line_ranges_are_merged_before_any_line_is_read() {
    let (_dir, root) = root();
    std::fs::write(root.join("big.txt"), numbered_lines(200_000)).unwrap();
    let client = server(&root).await;
    // 3,000 copies of the whole file as ranges: 600 million lines named.
    let query = vec!["1-200000"; 3_000].join(",");
    let reply = success(
        &call(
            &client,
            "TextInspect",
            json!({"filePath": "big.txt", "mode": "lines", "query": query}),
        )
        .await,
    );
    let lines = reply["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 500);
    assert_eq!(lines[0], json!({"number": 1, "text": "line 1"}));
    assert_eq!(lines[499], json!({"number": 500, "text": "line 500"}));
    assert_eq!(reply["truncated"], true, "{reply}");
    assert!(
        reply["note"]
            .as_str()
            .unwrap()
            .contains("the last being line 500; ask for the lines after it to read on"),
        "{reply}"
    );
    still_alive(&client).await;
    client.cancel().await.unwrap();
}

/// A server spoken to line by line: for replies of many megabytes, which
/// the SDK client reads slowly.
struct RawSession {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    stdout: std::io::BufReader<std::process::ChildStdout>,
    next_id: u64,
}

impl RawSession {
    fn start(root: &Path) -> RawSession {
        let mut child = std::process::Command::new(BIN)
            .arg(root)
            .args(["--toolsets", "all"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = std::io::BufReader::new(child.stdout.take().unwrap());
        let mut session = RawSession {
            child,
            stdin,
            stdout,
            next_id: 0,
        };
        session.request(
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}),
        );
        session.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        session
    }

    fn send(&mut self, message: Value) {
        use std::io::Write;
        writeln!(self.stdin, "{message}").unwrap();
        self.stdin.flush().unwrap();
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        use std::io::BufRead;
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let mut line = String::new();
        loop {
            line.clear();
            assert_ne!(
                self.stdout.read_line(&mut line).unwrap(),
                0,
                "the server exited"
            );
            let reply: Value = serde_json::from_str(&line).unwrap();
            if reply["id"] == id {
                return reply;
            }
        }
    }

    /// A tool's structured result; a tool error fails the test.
    fn call(&mut self, tool: &str, arguments: Value) -> Value {
        let reply = self.request("tools/call", json!({"name": tool, "arguments": arguments}));
        assert_ne!(reply["result"]["isError"], true, "{tool}: {reply}");
        reply["result"]["structuredContent"].clone()
    }
}

impl Drop for RawSession {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn many_ranges_of_a_large_file_give_a_capped_reply() {
    let (_dir, root) = root();
    // 200,000 lines of 40 bytes: 8 MB.
    let body: String = (1..=200_000).map(|i| format!("{i:>39}\n")).collect();
    std::fs::write(root.join("big.txt"), &body).unwrap();
    let mut session = RawSession::start(&root);
    let ranges = vec![json!({"start": 1, "end": null}); 2_000];
    let reply = session.call(
        "get_text_file_contents",
        json!({"files": [{"file_path": "big.txt", "ranges": ranges}]}),
    );
    let ranges = reply["big.txt"]["ranges"].as_array().unwrap();
    assert_eq!(ranges.len(), 2_000);
    let total: usize = ranges
        .iter()
        .map(|r| r["content"].as_str().unwrap().len())
        .sum();
    assert!(total <= 16 * 1024 * 1024, "{total} bytes of content");
    // The first two ranges are whole; the third stops at a line end within
    // the limit and says where to read on; the rest are empty and say so.
    assert_eq!(ranges[0]["content"].as_str().unwrap().len(), body.len());
    assert_eq!(ranges[0].get("truncated"), None);
    let third = &ranges[2];
    let end = third["end"].as_u64().unwrap() as usize;
    assert_eq!(third["truncated"], true);
    assert_eq!(third["content"].as_str().unwrap(), &body[..end * 40]);
    assert!(
        third["note"]
            .as_str()
            .unwrap()
            .contains(&format!("read on from line {}", end + 1)),
        "{third}"
    );
    let last = &ranges[1_999];
    assert_eq!(
        (
            last["content"].as_str(),
            last["end"].as_u64(),
            &last["truncated"]
        ),
        (Some(""), Some(0), &Value::Bool(true))
    );
    // The same server answers the next call.
    let alive = session.call(
        "TextInspect",
        json!({"filePath": "alive.md", "mode": "lines", "query": "1"}),
    );
    assert_eq!(alive["lines"][0]["text"], "still here");
}

/// The peak resident memory of process `pid` so far, in bytes (Linux).
fn peak_memory(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Finding 4, last bullet: a Batch of 100 inserts spread over a 2 MB note
/// (a copy of the note per operation would take 200 MB more) raises the
/// server's peak memory by a small multiple of the note, writes all 100
/// lines, and the server answers the next call.
#[test]
fn a_batch_of_many_inserts_keeps_memory_a_small_multiple_of_the_file() {
    const OPERATIONS: usize = 100;
    let (_dir, root) = root();
    let line = "Some ordinary prose, long enough to look like a paragraph of notes.\n";
    let lines = (2 << 20) / line.len();
    let note = format!("# Big\n\n{}", line.repeat(lines));
    std::fs::write(root.join("big.md"), &note).unwrap();
    let mut session = RawSession::start(&root);
    let pid = session.child.id();
    let Some(before) = peak_memory(pid) else {
        eprintln!("SKIPPED: no /proc/PID/status here to read peak memory from");
        return;
    };
    let operations: Vec<Value> = (0..OPERATIONS)
        .map(|k| {
            let at = 3 + k * (lines / OPERATIONS) + k;
            json!({"tool": "TextPatch", "arguments": {
                "filePath": "big.md",
                "operation": "insert",
                "target": {"lines": {"start": at, "end": at}},
                "content": format!("inserted line {k}\n"),
            }})
        })
        .collect();
    let reply = session.call("Batch", json!({ "operations": operations }));
    assert_eq!(
        reply["operations"].as_array().map(Vec::len),
        Some(100),
        "{reply}"
    );
    let after = peak_memory(pid).unwrap();
    let grown = after.saturating_sub(before);
    eprintln!(
        "peak memory: {} MB at start, {} MB after the Batch",
        before >> 20,
        after >> 20
    );
    assert!(
        grown < 16 * note.len() as u64,
        "peak memory grew by {} MB for a {} MB note",
        grown >> 20,
        note.len() >> 20
    );
    let written = std::fs::read_to_string(root.join("big.md")).unwrap();
    assert_eq!(
        written.len(),
        note.len()
            + (0..OPERATIONS)
                .map(|k| format!("inserted line {k}\n").len())
                .sum::<usize>()
    );
    for k in 0..OPERATIONS {
        assert!(
            written.contains(&format!("\ninserted line {k}\n")),
            "insert {k}"
        );
    }
    let alive = session.call(
        "TextInspect",
        json!({"filePath": "alive.md", "mode": "lines", "query": "1"}),
    );
    assert_eq!(alive["lines"][0]["text"], "still here");
}
