//! End to end over streamable HTTP: one server process, several clients at
//! once, as when a team of agents shares one server.

mod client;

use std::time::{Duration, Instant};

use client::{HttpServer, Peer, call, failure, http_client, raw_post, raw_post_with, success};
use serde_json::{Value, json};

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw-test","version":"1"}}}"#;

fn temp_root() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    (dir, root)
}

/// The first JSON-RPC message in a reply body, plain JSON or an event stream.
fn first_message(body: &str) -> Value {
    let start = body
        .find("{\"jsonrpc\"")
        .unwrap_or_else(|| panic!("no JSON-RPC message in {body:?}"));
    let line = body[start..].lines().next().unwrap();
    serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line:?}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_endpoint_answers_initialize_at_mcp() {
    let (_dir, root) = temp_root();
    let server = HttpServer::start(&root, "127.0.0.1:0");
    assert!(server.addr.ip().is_loopback());

    let (status, headers, body) =
        raw_post(server.addr, "/mcp", &server.addr.to_string(), INITIALIZE);
    assert!(status.contains(" 200 "), "{status}\n{headers}\n{body}");
    assert!(
        headers.to_ascii_lowercase().contains("mcp-session-id:"),
        "a session is opened: {headers}"
    );
    let reply = first_message(&body);
    assert_eq!(reply["id"], 1);
    assert_eq!(reply["result"]["serverInfo"]["name"], "mcp-server-text");

    let (status, _, _) = raw_post(server.addr, "/", &server.addr.to_string(), INITIALIZE);
    assert!(status.contains(" 404 "), "only /mcp is served: {status}");

    // A page on another site must not reach a local server through a name
    // that resolves to 127.0.0.1 (DNS rebinding).
    let (status, _, _) = raw_post(server.addr, "/mcp", "attacker.example", INITIALIZE);
    assert!(
        status.contains(" 403 "),
        "a foreign Host is refused: {status}"
    );
    // Nor through a cross-site request from a page elsewhere (Origin).
    let host = server.addr.to_string();
    let (status, _, _) = raw_post_with(
        server.addr,
        "/mcp",
        &host,
        "Origin: http://attacker.example\r\n",
        INITIALIZE,
    );
    assert!(
        status.contains(" 403 "),
        "a foreign Origin is refused: {status}"
    );
    // A body that is no message gets a JSON-RPC error, not a bare 415.
    let (status, _, body) = raw_post(server.addr, "/mcp", &host, "hello");
    assert!(status.contains(" 400 "), "{status}");
    let reply: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(reply["error"]["code"], -32700, "{body}");
    let (status, _, body) = raw_post(server.addr, "/mcp", &host, "[1]");
    assert!(status.contains(" 400 "), "{status}");
    assert!(
        body.contains("batches of messages are not supported"),
        "{body}"
    );
    let own = format!("Origin: http://{host}\r\n");
    let (status, _, _) = raw_post_with(server.addr, "/mcp", &host, &own, INITIALIZE);
    assert!(
        status.contains(" 200 "),
        "a page on this host may call: {status}"
    );

    let client = http_client(&server.url()).await;
    let info = client.peer_info().expect("server info");
    assert_eq!(
        info.server_info.as_ref().map(|i| i.name.as_str()),
        Some("mcp-server-text")
    );
    let tools = client.list_all_tools().await.unwrap();
    assert!(tools.iter().any(|t| t.name == "TextReplace"));
    client.cancel().await.unwrap();
}

#[test]
fn a_bare_port_listens_on_loopback() {
    let (_dir, root) = temp_root();
    // Find a free port, then let the server take it; another program could
    // grab it in between, so try a few.
    for attempt in 0.. {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let outcome = std::panic::catch_unwind(|| HttpServer::start(&root, &port.to_string()));
        match outcome {
            Ok(server) => {
                assert_eq!(server.addr.to_string(), format!("127.0.0.1:{port}"));
                let (status, _, body) =
                    raw_post(server.addr, "/mcp", &server.addr.to_string(), INITIALIZE);
                assert!(status.contains(" 200 "), "{status} {body}");
                return;
            }
            Err(panic) if attempt >= 3 => std::panic::resume_unwind(panic),
            Err(_) => continue,
        }
    }
}

/// The note one client edits in [`edit_many`].
fn section_note(owner: &str) -> String {
    format!("# Notes of {owner}\n\n## Log\n\n<!-- anchor -->\n\n## Appendix\n\nEnd.\n")
}

/// What [`edit_many`] leaves: TextReplace puts its line right under the
/// anchor (so the newest comes first), TextPatch appends to the section.
fn expected_after_many(owner: &str, count: usize) -> String {
    let replaced: Vec<String> = (0..count)
        .rev()
        .filter(|i| i % 2 == 0)
        .map(|i| format!("replace {owner} {i}\n"))
        .collect();
    let patched: Vec<String> = (0..count)
        .filter(|i| i % 2 == 1)
        .map(|i| format!("patch {owner} {i}\n"))
        .collect();
    format!(
        "# Notes of {owner}\n\n## Log\n\n<!-- anchor -->\n{}{}\n## Appendix\n\nEnd.\n",
        replaced.concat(),
        patched.concat()
    )
}

/// `count` edits of `file`, alternating TextReplace and TextPatch.
async fn edit_many(peer: Peer, file: String, owner: &'static str, count: usize) {
    for i in 0..count {
        let result = if i % 2 == 0 {
            call(
                &peer,
                "TextReplace",
                json!({"filePath": file, "oldText": "<!-- anchor -->", "newText": format!("<!-- anchor -->\nreplace {owner} {i}")}),
            )
            .await
        } else {
            call(
                &peer,
                "TextPatch",
                json!({"filePath": file, "operation": "insert", "target": {"appendToSection": "## Log"}, "content": format!("patch {owner} {i}\n")}),
            )
            .await
        };
        success(&result);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_clients_edit_different_files_at_once() {
    const CALLS: usize = 60;
    let (_dir, root) = temp_root();
    std::fs::write(root.join("alpha.md"), section_note("alpha")).unwrap();
    std::fs::write(root.join("beta.md"), section_note("beta")).unwrap();
    let server = HttpServer::start(&root, "127.0.0.1:0");
    let first = http_client(&server.url()).await;
    let second = http_client(&server.url()).await;

    let started = Instant::now();
    let a = tokio::spawn(edit_many(
        first.peer().clone(),
        "alpha.md".into(),
        "alpha",
        CALLS,
    ));
    let b = tokio::spawn(edit_many(
        second.peer().clone(),
        "beta.md".into(),
        "beta",
        CALLS,
    ));
    a.await.unwrap();
    b.await.unwrap();
    eprintln!(
        "{} edits from two HTTP clients in {:?}",
        2 * CALLS,
        started.elapsed()
    );

    for owner in ["alpha", "beta"] {
        assert_eq!(
            std::fs::read_to_string(root.join(format!("{owner}.md"))).unwrap(),
            expected_after_many(owner, CALLS),
            "{owner}.md"
        );
    }
    first.cancel().await.unwrap();
    second.cancel().await.unwrap();
}

/// Adds `line` under `anchor`, refused unless the file still has `hash`.
async fn add_line(
    peer: &Peer,
    anchor: &str,
    line: &str,
    hash: &str,
) -> rmcp::model::CallToolResult {
    call(
        peer,
        "TextReplace",
        json!({"filePath": "shared.md", "oldText": anchor, "newText": format!("{anchor}\n{line}"), "expectedHash": hash}),
    )
    .await
}

async fn file_hash(peer: &Peer) -> String {
    let read = success(
        &call(
            peer,
            "TextRead",
            json!({"filePath": "shared.md", "target": {"lines": {"start": 1, "end": 3}}}),
        )
        .await,
    );
    read["fileHash"].as_str().unwrap().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stale_hash_loses_and_the_retry_lands() {
    const ROUNDS: usize = 12;
    let (_dir, root) = temp_root();
    let original = "# Shared\n\n## From A\n\n<!-- a -->\n\n## From B\n\n<!-- b -->\n";
    std::fs::write(root.join("shared.md"), original).unwrap();
    let server = HttpServer::start(&root, "127.0.0.1:0");
    let client_a = http_client(&server.url()).await;
    let client_b = http_client(&server.url()).await;
    let (a, b) = (client_a.peer().clone(), client_b.peer().clone());

    let mut wins = [0usize; 2];
    for round in 0..ROUNDS {
        let hash = file_hash(&a).await;
        let line_a = format!("a {round}");
        let line_b = format!("b {round}");
        // Both edits start from the same read of the file.
        let (result_a, result_b) = tokio::join!(
            add_line(&a, "<!-- a -->", &line_a, &hash),
            add_line(&b, "<!-- b -->", &line_b, &hash)
        );
        let a_won = result_a.is_error != Some(true);
        let b_won = result_b.is_error != Some(true);
        assert!(
            a_won != b_won,
            "round {round}: exactly one edit with the same expectedHash lands; a: {}, b: {}",
            client::text(&result_a),
            client::text(&result_b)
        );
        let (loser, result_won, result_lost, anchor, line) = if a_won {
            wins[0] += 1;
            (&b, result_a, result_b, "<!-- b -->", line_b)
        } else {
            wins[1] += 1;
            (&a, result_b, result_a, "<!-- a -->", line_a)
        };
        let won = success(&result_won);
        let lost = failure(&result_lost);
        assert_eq!(lost["status"], "error");
        assert_eq!(
            lost["fileHash"], won["fileHash"],
            "the refusal carries the hash the winner left"
        );
        assert!(
            lost["message"].as_str().unwrap().contains("changed"),
            "{lost:#}"
        );

        // The loser reads again and retries against what is there now.
        let current = file_hash(loser).await;
        assert_eq!(current, won["fileHash"].as_str().unwrap());
        let retried = success(&add_line(loser, anchor, &line, &current).await);
        assert_ne!(retried["fileHash"], won["fileHash"]);
    }
    eprintln!("same-hash races: A won {}, B won {}", wins[0], wins[1]);

    let lines =
        |who: &str| -> String { (0..ROUNDS).rev().map(|r| format!("{who} {r}\n")).collect() };
    assert_eq!(
        std::fs::read_to_string(root.join("shared.md")).unwrap(),
        format!(
            "# Shared\n\n## From A\n\n<!-- a -->\n{}\n## From B\n\n<!-- b -->\n{}",
            lines("a"),
            lines("b")
        ),
        "every edit of every round is in the file, none lost"
    );
    client_a.cancel().await.unwrap();
    client_b.cancel().await.unwrap();
}

/// What became of a call.
#[derive(Debug)]
enum Answer {
    /// Answered as done.
    Done,
    /// Answered with a tool error.
    Refused(String),
    /// Never answered.
    None,
}

#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ctrl_c_during_edits_stops_the_server_and_keeps_every_answered_edit() {
    const CALLS: usize = 40;
    let (_dir, root) = temp_root();
    let original = "# Note\n\n<!-- anchor -->\n\nEnd.\n";
    std::fs::write(root.join("note.md"), original).unwrap();
    let mut server = HttpServer::start(&root, "127.0.0.1:0");
    let client = http_client(&server.url()).await;

    let (answered, mut answers) = tokio::sync::mpsc::unbounded_channel();
    for n in 0..CALLS {
        let peer = client.peer().clone();
        let answered = answered.clone();
        tokio::spawn(async move {
            let arguments = json!({"filePath": "note.md", "oldText": "<!-- anchor -->", "newText": format!("<!-- anchor -->\nline {n}")});
            let result = peer
                .call_tool(
                    rmcp::model::CallToolRequestParams::new("TextReplace")
                        .with_arguments(arguments.as_object().cloned().unwrap()),
                )
                .await;
            let answer = match result {
                Ok(r) if r.is_error != Some(true) => Answer::Done,
                Ok(r) => Answer::Refused(client::text(&r)),
                Err(_) => Answer::None,
            };
            let _ = answered.send((n, answer));
        });
    }
    drop(answered);
    // Stop the server once edits are landing.
    let mut results = vec![answers.recv().await.unwrap()];
    let status = std::process::Command::new("kill")
        .args(["-INT", &server.pid().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let started = Instant::now();
    let exit = server.wait_for_exit(Duration::from_secs(10));
    assert!(
        exit.is_some(),
        "the server still runs 10 s after Ctrl-C with a client connected:\n{}",
        server.log()
    );
    assert!(exit.unwrap().success(), "{}", server.log());
    let stopped_after = started.elapsed();
    drop(client);
    while let Some(result) = answers.recv().await {
        results.push(result);
    }

    let after = std::fs::read_to_string(root.join("note.md")).unwrap();
    let count = |wanted: fn(&Answer) -> bool| results.iter().filter(|(_, a)| wanted(a)).count();
    for (n, answer) in &results {
        let in_file = after.contains(&format!("\nline {n}\n"));
        match answer {
            Answer::Done => assert!(
                in_file,
                "edit {n} was answered as done but is not in the file:\n{after}"
            ),
            Answer::Refused(why) => {
                assert!(!in_file, "edit {n} was refused but is in the file");
                assert!(why.contains("shutting down"), "{why}");
            }
            // A call the client could not send before the server stopped.
            Answer::None => assert!(
                !in_file,
                "edit {n} landed but its client got no answer: {results:?}\n{}",
                server.log()
            ),
        }
    }
    let kept: String = after
        .split_inclusive('\n')
        .filter(|l| !l.starts_with("line "))
        .collect();
    assert_eq!(kept, original, "the file is whole");
    let leftovers: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|name| name != "note.md" && name != ".history")
        .collect();
    assert!(
        leftovers.is_empty(),
        "no temp files are left: {leftovers:?}"
    );
    eprintln!(
        "stopped {stopped_after:?} after Ctrl-C; of {CALLS} edits {} were done, {} refused, {} unanswered; {} lines in the file",
        count(|a| matches!(a, Answer::Done)),
        count(|a| matches!(a, Answer::Refused(_))),
        count(|a| matches!(a, Answer::None)),
        after.lines().filter(|l| l.starts_with("line ")).count()
    );
}
