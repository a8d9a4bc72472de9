//! Several agents adding lines to one long note at the same time, each
//! through its own server process or all through one server: every line must
//! land and no call may fail.

mod client;

use std::path::Path;
use std::time::Instant;

use client::{Client, HttpServer, Peer, call, http_client, long_note, stdio_client, success};
use serde_json::json;

const ANCHOR: &str = "<!-- anchor -->";
const AGENTS: [&str; 4] = ["A", "B", "C", "D"];
const CALLS: usize = 50;
/// About the size of the note in the report that started this: 103 KB.
const NOTE_BYTES: usize = 100_000;

fn line(agent: &str, call: usize) -> String {
    format!("line from agent {agent} call {call}")
}

/// Adds one line under the anchor, keeping the anchor; no expectedHash, so
/// only the server's lock keeps concurrent calls from losing each other's line.
async fn add_line(peer: Peer, agent: &'static str, n: usize) {
    let result = call(
        &peer,
        "TextReplace",
        json!({"filePath": "note.md", "oldText": ANCHOR, "newText": format!("{ANCHOR}\n{}", line(agent, n))}),
    )
    .await;
    success(&result);
}

/// A root holding the long note, and the note's text.
fn vault() -> (tempfile::TempDir, std::path::PathBuf, String) {
    let dir = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    let note = long_note(NOTE_BYTES, ANCHOR);
    std::fs::write(root.join("note.md"), &note).unwrap();
    (dir, root, note)
}

/// Checks that every agent's every line is in the note exactly once, right
/// under the anchor, and that nothing else changed.
fn assert_all_lines_landed(root: &Path, original: &str) {
    let after = std::fs::read_to_string(root.join("note.md")).unwrap();
    let (before_anchor, rest) = after
        .split_once(&format!("{ANCHOR}\n"))
        .expect("the anchor is kept");
    let added: Vec<&str> = rest.lines().take(AGENTS.len() * CALLS).collect();
    let mut missing = Vec::new();
    for agent in AGENTS {
        for n in 0..CALLS {
            let expected = line(agent, n);
            match added.iter().filter(|l| **l == expected).count() {
                1 => {}
                0 => missing.push(expected),
                more => panic!("'{expected}' is in the note {more} times"),
            }
        }
    }
    assert!(
        missing.is_empty(),
        "{} of {} lines were lost: {missing:?}",
        missing.len(),
        AGENTS.len() * CALLS
    );
    let without_added = format!(
        "{before_anchor}{ANCHOR}\n{}",
        rest.split_inclusive('\n')
            .skip(AGENTS.len() * CALLS)
            .collect::<String>()
    );
    assert_eq!(without_added, original, "only the added lines changed");
}

/// The user some servers run as when the test runs as root, so that servers
/// of different users edit one note (`nobody` on most systems).
const OTHER_USER: u32 = 65534;

/// Whether this process may start others as another user.
fn is_root() -> bool {
    use std::os::unix::fs::MetadataExt;
    // A new file is owned by the effective user id; std has no geteuid.
    let probe = tempfile::tempfile().unwrap();
    probe.metadata().unwrap().uid() == 0
}

/// Makes `path` readable and writable by every user.
fn open_to_everyone(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// Whether every user may run `binary`: it and each folder above it are open to others.
fn reachable_by_others(binary: &str) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::path::Path::new(binary).ancestors().all(|p| {
        p.as_os_str().is_empty()
            || std::fs::metadata(p).is_ok_and(|m| m.permissions().mode() & 0o001 != 0)
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn four_server_processes_fifty_calls_each_on_one_note() {
    let (dir, root, original) = vault();
    // Clients start servers with different environments: each has its own
    // temp folder and home, some drop $USER, and (when the test may) two run
    // as another user. The servers must still agree on the lock of the note.
    // Another user can only start a binary whose folders let it through (a
    // clone in a private temp folder does not).
    let other_user = is_root() && reachable_by_others(env!("CARGO_BIN_EXE_mcp-server-text"));
    if other_user {
        open_to_everyone(dir.path(), 0o777);
        open_to_everyone(&root.join("note.md"), 0o666);
    } else {
        eprintln!("not root, or the binary is in a private folder: every server runs as this user");
    }
    let homes = tempfile::tempdir().unwrap();
    open_to_everyone(homes.path(), 0o755);
    let mut clients: Vec<Client> = Vec::new();
    for agent in AGENTS {
        let home = homes.path().join(format!("home-{agent}"));
        let tmp = homes.path().join(format!("tmp-{agent}"));
        std::fs::create_dir(&home).unwrap();
        std::fs::create_dir(&tmp).unwrap();
        let as_other = other_user && matches!(agent, "C" | "D");
        if as_other {
            open_to_everyone(&home, 0o777);
            open_to_everyone(&tmp, 0o777);
        }
        let client = stdio_client(&root, |cmd| {
            cmd.env("HOME", &home).env("TMPDIR", &tmp);
            match agent {
                "B" => {
                    cmd.env_remove("USER");
                }
                "C" => {
                    cmd.env("USER", "someone-else");
                }
                "D" => {
                    cmd.env_remove("USER").env_remove("LOGNAME");
                }
                _ => {}
            }
            if as_other {
                cmd.uid(OTHER_USER).gid(OTHER_USER);
            }
        })
        .await;
        clients.push(client);
    }

    let started = Instant::now();
    let mut calls = tokio::task::JoinSet::new();
    // Interleave the agents so all four servers are busy from the start.
    for n in 0..CALLS {
        for (agent, client) in AGENTS.iter().zip(&clients) {
            calls.spawn(add_line(client.peer().clone(), agent, n));
        }
    }
    while let Some(done) = calls.join_next().await {
        done.unwrap();
    }
    eprintln!(
        "{} calls from {} server processes ({}) on a {} KB note in {:?}",
        AGENTS.len() * CALLS,
        AGENTS.len(),
        if other_user {
            "two of them as another user"
        } else {
            "all as this user"
        },
        original.len() / 1000,
        started.elapsed()
    );
    assert_all_lines_landed(&root, &original);
    for client in clients {
        client.cancel().await.unwrap();
    }
    for agent in AGENTS {
        for folder in ["home", "tmp"] {
            let path = homes.path().join(format!("{folder}-{agent}"));
            let left: Vec<_> = std::fs::read_dir(&path).unwrap().flatten().collect();
            assert!(
                left.is_empty(),
                "{} holds {:?}: nothing belongs in a server's temp folder or home",
                path.display(),
                left.iter().map(|e| e.file_name()).collect::<Vec<_>>()
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn four_callers_on_one_stdio_server() {
    let (_dir, root, original) = vault();
    let client = stdio_client(&root, |_| {}).await;

    let started = Instant::now();
    let mut callers = tokio::task::JoinSet::new();
    for agent in AGENTS {
        let peer = client.peer().clone();
        callers.spawn(async move {
            for n in 0..CALLS {
                add_line(peer.clone(), agent, n).await;
            }
        });
    }
    while let Some(done) = callers.join_next().await {
        done.unwrap();
    }
    eprintln!(
        "{} calls from {} callers on one stdio server in {:?}",
        AGENTS.len() * CALLS,
        AGENTS.len(),
        started.elapsed()
    );
    assert_all_lines_landed(&root, &original);
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn four_http_sessions_on_one_server() {
    let (_dir, root, original) = vault();
    let server = HttpServer::start(&root, "127.0.0.1:0");
    let mut clients = Vec::new();
    for _ in AGENTS {
        clients.push(http_client(&server.url()).await);
    }

    let started = Instant::now();
    let mut calls = tokio::task::JoinSet::new();
    for n in 0..CALLS {
        for (agent, client) in AGENTS.iter().zip(&clients) {
            calls.spawn(add_line(client.peer().clone(), agent, n));
        }
    }
    while let Some(done) = calls.join_next().await {
        done.unwrap();
    }
    eprintln!(
        "{} calls from {} HTTP sessions on one server in {:?}",
        AGENTS.len() * CALLS,
        AGENTS.len(),
        started.elapsed()
    );
    assert_all_lines_landed(&root, &original);
    for client in clients {
        client.cancel().await.unwrap();
    }
}
