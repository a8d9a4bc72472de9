//! Issue 22's attacks on the workspace, each sent as a client sends it
//! (over stdio to the built server, or through the tool registry), each
//! refused or harmless, with the server still answering and nothing outside
//! the roots touched: paths that probe outside by climbing out and back,
//! links whose target a path would reveal, the server's own folders as
//! client roots or as places to write, forged history records, another
//! program appending while an edit runs, and what an edit does to extended
//! attributes, ACLs, read-only files and hard links.

// MCP roots are deprecated in the newest protocol revision; clients in use
// today still send them, and a hostile one may announce any.
#![allow(deprecated)]

mod support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::{Arc, Mutex};

use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig, Implementation,
    ListRootsResult, Root,
};
use rmcp::service::{RequestContext, RunningService};
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::{ClientHandler, ErrorData, RoleClient, ServiceExt};
use serde_json::{Value, json};
use support::{Node, Vault};

const BIN: &str = env!("CARGO_BIN_EXE_mcp-server-text");

/// A client that announces `roots` (as URIs) as its MCP roots.
#[derive(Clone, Default)]
struct Client {
    roots: Arc<Mutex<Vec<String>>>,
}

impl ClientHandler for Client {
    fn get_info(&self) -> ClientConfig {
        let capabilities = ClientCapabilities::builder().enable_roots().build();
        ClientConfig::new(capabilities, Implementation::new("hostile-workspace", "1"))
    }

    async fn list_roots(
        &self,
        _context: RequestContext<RoleClient>,
    ) -> Result<ListRootsResult, ErrorData> {
        let roots = self.roots.lock().unwrap().clone();
        Ok(ListRootsResult::new(
            roots.into_iter().map(Root::new).collect(),
        ))
    }
}

type Session = RunningService<RoleClient, Client>;

/// Starts the server on `root` over stdio, with every toolset, and a client
/// announcing `roots`.
async fn start(root: &Path, roots: &[String]) -> Session {
    let command = tokio::process::Command::new(BIN).configure(|cmd| {
        cmd.arg(root)
            .args(["--toolsets", "all"])
            .env_remove("MCP_TEXT_ROOTS");
    });
    let (transport, _) = TokioChildProcess::builder(command)
        .stderr(Stdio::null())
        .spawn()
        .expect("start the server");
    let client = Client {
        roots: Arc::new(Mutex::new(roots.to_vec())),
    };
    client
        .serve(transport)
        .await
        .expect("initialize over stdio")
}

async fn call(session: &Session, name: &'static str, args: Value) -> CallToolResult {
    session
        .call_tool(
            CallToolRequestParams::new(name).with_arguments(args.as_object().cloned().unwrap()),
        )
        .await
        .unwrap_or_else(|e| panic!("{name}: a tool result, not a protocol error: {e}"))
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
    serde_json::from_str(&result.content[0].as_text().expect("text").text).unwrap()
}

fn message(error: &Value) -> String {
    error["message"].as_str().unwrap_or_default().to_string()
}

/// Everything under `dir`, but `skip`: each file's bytes, each folder.
fn tree(dir: &Path, skip: &Path) -> BTreeMap<PathBuf, Option<Vec<u8>>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(at) = stack.pop() {
        for entry in std::fs::read_dir(&at).unwrap().flatten() {
            let path = entry.path();
            if path.starts_with(skip) {
                continue;
            }
            let kind = entry.file_type().unwrap();
            if kind.is_dir() {
                out.insert(path.clone(), None);
                stack.push(path);
            } else if kind.is_file() {
                out.insert(path.clone(), Some(std::fs::read(&path).unwrap()));
            } else {
                out.insert(path.clone(), Some(b"link".to_vec()));
            }
        }
    }
    out
}

/// A tool's arguments with a path in them.
type ArgsFor = fn(&str) -> Value;

/// A vault `base/vault` with `notes/a.md`, and room around it.
fn base() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let base = std::fs::canonicalize(dir.path()).unwrap();
    let root = base.join("vault");
    std::fs::create_dir_all(root.join("notes")).unwrap();
    std::fs::write(root.join("notes/a.md"), "# A\n\nalpha\n").unwrap();
    (dir, base, root)
}

/// Finding 3: a path that climbs out of the root and back in answers the
/// same whatever exists outside (a file, a folder, nothing), and a path
/// through a link that leads out shows nothing of where it leads.
#[tokio::test]
async fn paths_are_confined_by_their_names_whatever_exists_outside() {
    let (_dir, base, root) = base();
    std::fs::write(base.join("probe-file"), "secret\n").unwrap();
    std::fs::create_dir(base.join("probe-dir")).unwrap();
    // Where a link out may lead: one place holds a copy of the vault's
    // layout (the old answer was success there), the other nothing.
    std::fs::create_dir_all(base.join("mirror/vault/notes")).unwrap();
    std::fs::write(base.join("mirror/vault/notes/a.md"), "outside copy\n").unwrap();
    std::fs::create_dir(base.join("empty")).unwrap();
    let outside_before = tree(&base, &root);
    let session = start(&root, &[]).await;

    let ups = "../".repeat(root.components().count() + 1);
    let tools: [(&'static str, ArgsFor); 5] = [
        (
            "TextRead",
            |p| json!({"filePath": p, "target": {"lines": {"start": 1, "end": 2}}}),
        ),
        ("TextInspect", |p| json!({"filePath": p})),
        (
            "TextPatch",
            |p| json!({"filePath": p, "operation": "insert", "target": {"lines": {"start": 1, "end": 1}}, "content": "x\n"}),
        ),
        (
            "Move",
            |p| json!({"sourcePath": p, "destinationPath": "moved.md"}),
        ),
        ("RemoveFile", |p| json!({"filePath": p})),
    ];
    for (tool, args) in tools {
        let mut answers = Vec::new();
        for probe in ["probe-file", "probe-dir", "probe-missing"] {
            let given = format!(
                "{ups}{}/{ups}{}/notes/a.md",
                base.join(probe).display(),
                root.display()
            );
            let error = refused(&call(&session, tool, args(&given)).await);
            let text = message(&error);
            assert!(
                text.contains("is outside the allowed folders"),
                "{tool}: {text}"
            );
            answers.push(error.to_string().replace(&given, "GIVEN"));
        }
        answers.dedup();
        assert_eq!(
            answers.len(),
            1,
            "{tool} answers by what is outside: {answers:?}"
        );
    }

    // `ext/..` is the root as written, wherever the link `ext` leads.
    let mut answers = Vec::new();
    for target in ["mirror", "empty"] {
        let link = root.join("ext");
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink(base.join(target), &link).unwrap();
        let error = refused(
            &call(
                &session,
                "TextInspect",
                json!({"filePath": "ext/../vault/notes/a.md"}),
            )
            .await,
        );
        assert!(!error.to_string().contains("outside copy"), "{error}");
        assert!(!error.to_string().contains(target), "{error}");
        answers.push(error);
        let through = refused(
            &call(
                &session,
                "TextInspect",
                json!({"filePath": "ext/vault/notes/a.md"}),
            )
            .await,
        );
        assert!(
            message(&through).contains("symbolic link that leads outside"),
            "{through}"
        );
        assert!(!through.to_string().contains(target), "{through}");
    }
    assert_eq!(answers[0], answers[1]);

    // Still answering, and nothing outside was touched.
    let read = ok(&call(
        &session,
        "TextRead",
        json!({"filePath": "notes/a.md", "target": {"lines": {"start": 1, "end": 3}}}),
    )
    .await);
    assert!(read.to_string().contains("alpha"), "{read}");
    std::fs::remove_file(root.join("ext")).unwrap();
    assert_eq!(tree(&base, &root), outside_before);
    session.cancel().await.unwrap();
}

/// Finding 7: a client announcing the history (or trash) folder as a root
/// gets it ignored, and no tool writes into either folder.
#[tokio::test]
async fn the_servers_own_folders_are_never_roots_and_never_written() {
    let (_dir, base, root) = base();
    std::fs::create_dir_all(root.join(".trash/2026-01-01T00-00-00Z")).unwrap();
    std::fs::write(root.join(".trash/2026-01-01T00-00-00Z/old.md"), "old\n").unwrap();
    let session = start(&root, &[]).await;
    // A first edit makes the history folder (and one record).
    ok(&call(
        &session,
        "TextReplace",
        json!({"filePath": "notes/a.md", "oldText": "alpha", "newText": "beta"}),
    )
    .await);
    session.cancel().await.unwrap();

    let roots = [
        format!("file://{}", root.join(".history").display()),
        format!("file://{}", root.join(".trash").display()),
    ];
    let session = start(&root, &roots).await;
    let before = tree(&base, Path::new("/nonexistent"));
    let forged = ".history/0000000099-abcdef-10.rec";
    let attempts: Vec<(&'static str, Value)> = vec![
        (
            "edit_code",
            json!({"file_path": forged, "search_context": "", "new_content": "x"}),
        ),
        (
            "TextPatch",
            json!({"filePath": ".trash/2026-01-01T00-00-00Z/old.md", "operation": "insert", "target": {"lines": {"start": 1, "end": 1}}, "content": "x\n"}),
        ),
        (
            "TextReplace",
            json!({"filePath": ".trash/2026-01-01T00-00-00Z/old.md", "oldText": "old", "newText": "new"}),
        ),
        (
            "create_text_file",
            json!({"file_path": forged, "contents": "forged"}),
        ),
        (
            "create_text_file",
            json!({"file_path": ".trash/new.md", "contents": "x"}),
        ),
        (
            "Move",
            json!({"sourcePath": "notes/a.md", "destinationPath": ".trash/a.md"}),
        ),
        (
            "Move",
            json!({"sourcePath": "notes/a.md", "destinationPath": ".history/a.md"}),
        ),
        (
            "Batch",
            json!({"operations": [
                {"tool": "TextReplace", "arguments": {"filePath": "notes/a.md", "oldText": "beta", "newText": "gamma"}},
                {"tool": "TextReplace", "arguments": {"filePath": ".trash/2026-01-01T00-00-00Z/old.md", "oldText": "old", "newText": "new"}},
            ]}),
        ),
    ];
    let mut told = false;
    for (tool, args) in attempts {
        let result = call(&session, tool, args.clone()).await;
        let error = refused(&result);
        let text = error.to_string();
        assert!(
            text.contains(".history") || text.contains(".trash"),
            "{tool} {args}: {text}"
        );
        // The client's roots were ignored, and it is told so.
        told |= serde_json::to_string(&result.content)
            .unwrap()
            .contains("keeps for itself");
    }
    assert!(told, "no reply said why the client's roots were ignored");
    assert_eq!(tree(&base, Path::new("/nonexistent")), before);
    ok(&call(&session, "TextInspect", json!({"filePath": "notes/a.md"})).await);
    session.cancel().await.unwrap();
}

/// A record file as an attacker with access to the folder would plant it.
fn plant(root: &Path, seq: u64, random: &str, header: &str, payload: &[u8]) -> String {
    let mut bytes = b"mcp-server-text history 1\n".to_vec();
    bytes.extend_from_slice(header.as_bytes());
    bytes.push(b'\n');
    bytes.extend_from_slice(payload);
    let name = format!("{seq:010}-{random}-{}.rec", bytes.len());
    std::fs::write(root.join(".history").join(name), bytes).unwrap();
    format!("{seq}-{random}")
}

/// Finding 7: forged records are listed as damaged and never acted on;
/// a prefix of 2^64 - 1 no longer panics the server.
#[tokio::test]
async fn forged_history_records_are_listed_as_damaged_and_never_undone() {
    let (_dir, base, root) = base();
    std::fs::write(base.join("outside.md"), "outside\n").unwrap();
    let session = start(&root, &[]).await;
    let edited = ok(&call(
        &session,
        "TextReplace",
        json!({"filePath": "notes/a.md", "oldText": "alpha", "newText": "beta"}),
    )
    .await);
    let real = edited["changeId"].as_str().unwrap().to_string();

    let edit = |id: &str, path: &str, prefix: &str| {
        format!(
            r#"{{"changeId":"{id}","time":"2030-01-01T00:00:00Z","tool":"TextReplace","entries":[{{"kind":"edit","path":"{path}","encoding":"utf-8","hashBefore":"0123456789abcdef","hashAfter":"fedcba9876543210","affectedLines":{{"start":1,"end":1}},"linesDelta":0,"prefix":{prefix},"oldLen":1,"newLen":1}}]}}"#
        )
    };
    let overflow = plant(
        &root,
        90,
        "abcdef",
        &edit("90-abcdef", "notes/a.md", "18446744073709551615"),
        b"x",
    );
    let outside = plant(
        &root,
        91,
        "abcdeg",
        &edit("91-abcdeg", "../outside.md", "0"),
        b"x",
    );
    let garbage = plant(&root, 92, "abcdeh", "not json at all", b"");
    let misnamed = plant(
        &root,
        93,
        "abcdei",
        &edit("7-zzzzzz", "notes/a.md", "0"),
        b"x",
    );
    let before = tree(&base, &root.join(".history"));

    let listed = ok(&call(&session, "EditHistory", json!({})).await);
    let damaged: Vec<&str> = listed["damaged"]
        .as_array()
        .unwrap_or_else(|| panic!("{listed}"))
        .iter()
        .map(|d| d["changeId"].as_str().unwrap())
        .collect();
    for id in [&overflow, &outside, &garbage, &misnamed] {
        assert!(
            damaged.contains(&id.as_str()),
            "{id} not listed as damaged: {listed}"
        );
        let error = refused(&call(&session, "UndoEdit", json!({"changeId": id})).await);
        assert!(message(&error).contains("is not acted on"), "{error}");
    }
    assert!(listed["changes"].to_string().contains(&real), "{listed}");
    assert_eq!(
        tree(&base, &root.join(".history")),
        before,
        "nothing was written"
    );
    // Alive, and the real change is still undone exactly.
    ok(&call(&session, "UndoEdit", json!({"changeId": real})).await);
    assert_eq!(
        std::fs::read(root.join("notes/a.md")).unwrap(),
        b"# A\n\nalpha\n"
    );
    assert_eq!(
        std::fs::read(base.join("outside.md")).unwrap(),
        b"outside\n"
    );
    session.cancel().await.unwrap();
}

/// Issue 25: the history and the trash keep themselves out of git.
#[test]
fn history_and_trash_stay_out_of_git_status() {
    let git = |dir: &Path, args: &[&str]| {
        std::process::Command::new("git")
            .args(["-c", "user.email=t@example.com", "-c", "user.name=t"])
            .args(args)
            .current_dir(dir)
            .output()
    };
    let v = Vault::new();
    if git(&v.root, &["--version"]).is_err() {
        eprintln!("SKIPPED history_and_trash_stay_out_of_git_status: git is not installed");
        return;
    }
    v.write("a.md", "one\n");
    v.write("b.md", "two\n");
    for args in [
        &["init", "-q"][..],
        &["add", "."],
        &["commit", "-q", "-m", "start"],
    ] {
        assert!(git(&v.root, args).unwrap().status.success(), "git {args:?}");
    }
    v.ok(
        "TextReplace",
        json!({"filePath": "a.md", "oldText": "one", "newText": "uno"}),
    );
    v.ok("RemoveFile", json!({"filePath": "b.md"}));
    let status = git(&v.root, &["status", "--porcelain"]).unwrap();
    assert_eq!(
        String::from_utf8_lossy(&status.stdout),
        " M a.md\n D b.md\n"
    );
    assert_eq!(v.read(".history/.gitignore"), b"*\n");
    assert_eq!(v.read(".trash/.gitignore"), b"*\n");
}

/// Finding 8: a program appending to a file without taking its lock loses
/// nothing while edits of the file run: each append is in the final file,
/// or the edit that met it was refused.
#[tokio::test]
async fn appends_of_another_program_are_never_lost() {
    let (_dir, _base, root) = base();
    let log = root.join("log.md");
    std::fs::write(&log, "# Log\n\ntitle: t0\n\n").unwrap();
    let session = start(&root, &[]).await;
    const APPENDS: usize = 400;
    let appender = {
        let log = log.clone();
        std::thread::spawn(move || {
            use std::io::Write;
            for k in 0..APPENDS {
                let mut file = std::fs::OpenOptions::new().append(true).open(&log).unwrap();
                file.write_all(format!("append {k}\n").as_bytes()).unwrap();
                drop(file);
                std::thread::sleep(std::time::Duration::from_millis(2));
            }
        })
    };
    let (mut edits, mut refusals) = (0, 0);
    while !appender.is_finished() {
        let result = call(
            &session,
            "TextReplace",
            json!({"filePath": "log.md", "oldText": format!("title: t{edits}"), "newText": format!("title: t{}", edits + 1)}),
        )
        .await;
        if result.is_error == Some(true) {
            let text = message(&refused(&result));
            assert!(text.contains("changed while it was being edited"), "{text}");
            refusals += 1;
        } else {
            edits += 1;
        }
    }
    appender.join().unwrap();
    let text = std::fs::read_to_string(&log).unwrap();
    for k in 0..APPENDS {
        assert_eq!(
            text.matches(&format!("append {k}\n")).count(),
            1,
            "append {k} lost or doubled:\n{text}"
        );
    }
    assert!(
        text.contains(&format!("title: t{edits}\n")),
        "{edits} edits, {refusals} refused:\n{text}"
    );
    eprintln!("{edits} edits landed and {refusals} were refused while {APPENDS} appends ran");
    ok(&call(&session, "TextInspect", json!({"filePath": "log.md"})).await);
    session.cancel().await.unwrap();
}

/// A program that keeps a file open for writing (a logger) would write
/// into the old file after a rename, where nothing reaches its bytes: the
/// edit waits for it, is refused while it stays, and lands once it closes.
#[test]
fn a_file_held_open_for_writing_is_not_replaced_until_it_is_closed() {
    use std::io::Write;
    let v = Vault::new();
    let path = v.write("log.md", "title: one\n");
    let mut logger = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap();
    let probe = std::fs::File::open(&path).unwrap();
    if mcp_server_text::workspace::commit::writers::writers(&probe)
        == mcp_server_text::workspace::commit::writers::Writers::Unknown
    {
        eprintln!("SKIPPED: this file system does not grant leases, so writers cannot be seen");
        return;
    }
    let edit = json!({"filePath": "log.md", "oldText": "title: one", "newText": "title: two"});
    let error = v.err("TextReplace", edit.clone());
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("is held open for writing by another program"),
        "{error}"
    );
    assert!(
        error["suggestions"].to_string().contains("closed the file"),
        "{error}"
    );
    logger.write_all(b"line 1\n").unwrap();
    assert_eq!(v.read("log.md"), b"title: one\nline 1\n");
    drop(logger);
    v.ok("TextReplace", edit);
    assert_eq!(v.read("log.md"), b"title: two\nline 1\n");
}

/// Finding 9: extended attributes, and a POSIX ACL, are kept by an edit.
#[test]
fn extended_attributes_and_acls_survive_an_edit() {
    let v = Vault::new();
    let path = v.write("a.md", "one\n");
    let file = std::fs::File::open(&path).unwrap();
    match rustix::fs::fsetxattr(
        &file,
        "user.origin",
        b"camera-7",
        rustix::fs::XattrFlags::empty(),
    ) {
        Ok(()) => {
            v.ok(
                "TextReplace",
                json!({"filePath": "a.md", "oldText": "one", "newText": "two"}),
            );
            let now = std::fs::File::open(&path).unwrap();
            let mut value = [0u8; 64];
            let len = rustix::fs::fgetxattr(&now, "user.origin", &mut value[..]).unwrap();
            assert_eq!(&value[..len], b"camera-7");
            assert_eq!(v.read("a.md"), b"two\n");
        }
        Err(e) => {
            eprintln!("SKIPPED user xattrs: the temp folder's file system refuses them ({e})")
        }
    }

    // An ACL granting user 4242 read and write: owner rw, user 4242 rw,
    // group r, mask rw, other r (the kernel's xattr form, version 2).
    let mut acl = 2u32.to_le_bytes().to_vec();
    for (tag, perm, id) in [
        (0x01u16, 6u16, u32::MAX),
        (0x02, 6, 4242),
        (0x04, 4, u32::MAX),
        (0x10, 6, u32::MAX),
        (0x20, 4, u32::MAX),
    ] {
        acl.extend(tag.to_le_bytes());
        acl.extend(perm.to_le_bytes());
        acl.extend(id.to_le_bytes());
    }
    let path = v.write("b.md", "one\n");
    let file = std::fs::File::open(&path).unwrap();
    match rustix::fs::fsetxattr(
        &file,
        "system.posix_acl_access",
        &acl,
        rustix::fs::XattrFlags::empty(),
    ) {
        Ok(()) => {
            v.ok(
                "TextReplace",
                json!({"filePath": "b.md", "oldText": "one", "newText": "two"}),
            );
            let now = std::fs::File::open(&path).unwrap();
            let mut value = [0u8; 256];
            let len =
                rustix::fs::fgetxattr(&now, "system.posix_acl_access", &mut value[..]).unwrap();
            assert_eq!(&value[..len], &acl[..], "the ACL is the same");
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(
                std::fs::metadata(&path).unwrap().permissions().mode() & 0o777,
                0o664
            );
        }
        Err(e) => eprintln!("SKIPPED POSIX ACLs: the temp folder's file system refuses them ({e})"),
    }
}

/// Finding 9: a file without its write bit is refused, and so is a file
/// with other names (an edit would leave them on the old text).
#[test]
fn read_only_and_hard_linked_files_are_refused() {
    use std::os::unix::fs::PermissionsExt;
    let v = Vault::new();
    let locked = v.write("locked.md", "one\n");
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o444)).unwrap();
    let linked = v.write("linked.md", "one\n");
    std::fs::hard_link(&linked, v.root.join("other-name.md")).unwrap();
    v.write("plain.md", "x\n");
    let before = v.snapshot();
    for (file, says) in [
        ("locked.md", "is read-only (mode 0444)"),
        ("linked.md", "has 2 names (hard links)"),
    ] {
        let error = v.err(
            "TextReplace",
            json!({"filePath": file, "oldText": "one", "newText": "two"}),
        );
        assert!(message(&error).contains(says), "{error}");
        assert!(message(&error).ends_with("nothing was written"), "{error}");
        assert!(
            !error["suggestions"].as_array().unwrap().is_empty(),
            "{error}"
        );
        let error = v.err("TextPatch", json!({"filePath": file, "operation": "insert", "target": {"lines": {"start": 1, "end": 1}}, "content": "x\n", "dryRun": true}));
        assert!(
            message(&error).contains(says),
            "a dry run is refused too: {error}"
        );
        let error = v.err("Batch", json!({"operations": [
            {"tool": "TextReplace", "arguments": {"filePath": "plain.md", "oldText": "x", "newText": "y"}},
            {"tool": "TextReplace", "arguments": {"filePath": file, "oldText": "one", "newText": "two"}},
        ]}));
        assert!(message(&error).starts_with("Batch refused"), "{error}");
        assert!(message(&error).contains(says), "{error}");
    }
    assert_eq!(v.snapshot(), before);
    let reads: Vec<Vec<u8>> = ["locked.md", "linked.md", "other-name.md"]
        .iter()
        .map(|f| v.read(f))
        .collect();
    assert!(reads.iter().all(|r| r == b"one\n"));
    // Still editable once the file is its own again.
    std::fs::remove_file(v.root.join("other-name.md")).unwrap();
    v.ok(
        "TextReplace",
        json!({"filePath": "linked.md", "oldText": "one", "newText": "two"}),
    );
    assert!(
        matches!(v.snapshot().get(&v.root.join("linked.md")), Some(Node::File(bytes, _)) if bytes == b"two\n")
    );
}

/// Under `--no-history` a change of several files still writes its intent
/// record while it is written, and leaves no record and no intent behind.
#[test]
fn without_history_a_batch_keeps_nothing_but_is_still_crash_safe() {
    use mcp_server_text::tools::context::Settings;
    use mcp_server_text::workspace::WorkspaceOptions;
    use mcp_server_text::workspace::history::HistoryOptions;
    let options = WorkspaceOptions {
        history: HistoryOptions::off(),
        ..WorkspaceOptions::default()
    };
    let v = Vault::with_options(options, Settings::default());
    v.write("a.md", "one\n");
    v.write("b.md", "two\n");
    let seen = Arc::new(Mutex::new(Vec::new()));
    let (into, intents) = (seen.clone(), v.root.join(".history/intents"));
    v.ctx
        .workspace
        .set_batch_hook(Some(mcp_server_text::workspace::commit::BatchHook::new(
            move |_| {
                let names: Vec<String> = std::fs::read_dir(&intents)
                    .map(|d| {
                        d.flatten()
                            .map(|e| e.file_name().to_string_lossy().into_owned())
                            .collect()
                    })
                    .unwrap_or_default();
                into.lock().unwrap().push(names);
                Ok(())
            },
        )));
    let done = v.ok("Batch", json!({"operations": [
        {"tool": "TextReplace", "arguments": {"filePath": "a.md", "oldText": "one", "newText": "uno"}},
        {"tool": "TextReplace", "arguments": {"filePath": "b.md", "oldText": "two", "newText": "dos"}},
    ]}));
    assert!(done.get("changeId").is_none(), "{done}");
    let seen = seen.lock().unwrap();
    assert!(
        !seen.is_empty()
            && seen
                .iter()
                .all(|names| names.len() == 1 && names[0].ends_with(".intent")),
        "{seen:?}"
    );
    let history: Vec<String> = std::fs::read_dir(v.root.join(".history"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(history.len(), 2, "{history:?}");
    assert!(
        history.contains(&".gitignore".to_string()) && history.contains(&"intents".to_string())
    );
    assert_eq!(
        std::fs::read_dir(v.root.join(".history/intents"))
            .unwrap()
            .count(),
        0
    );
    assert_eq!(
        (v.read("a.md"), v.read("b.md")),
        (b"uno\n".to_vec(), b"dos\n".to_vec())
    );
}

/// Whether the intent record in `intents`, if there is one, is committed:
/// `None` without a record, `Some(false)` while it is only prepared.
fn intent_state(intents: &Path) -> Option<bool> {
    let entry = std::fs::read_dir(intents)
        .ok()?
        .flatten()
        .find(|e| e.file_name().to_string_lossy().ends_with(".intent"))?;
    let bytes = std::fs::read(entry.path()).ok()?;
    Some(bytes.ends_with(b"commit\n"))
}

/// The notes of `root` (the history left out) and any hidden name of the
/// server's left among them.
fn notes_and_leftovers(root: &Path) -> (BTreeMap<PathBuf, Option<Vec<u8>>>, Vec<PathBuf>) {
    let notes = tree(root, &root.join(".history"));
    let left = notes
        .keys()
        .filter(|p| mcp_server_text::workspace::atomic_write::is_own_name(p.file_name().unwrap()))
        .cloned()
        .collect();
    (notes, left)
}

/// Finding 5: a Batch of 60 TextReplace calls sent with `call`, its
/// process killed (SIGKILL) while its intent record is prepared or once it
/// is committed. The server started again over stdio finishes or takes
/// back the change before it answers: every note is then old or every note
/// new, nothing is left behind, and the server answers.
#[tokio::test]
async fn a_batch_killed_while_it_is_written_is_all_old_or_all_new_after_a_restart() {
    const NOTES: usize = 60;
    let (_dir, base, root) = base();
    let prose = "Some ordinary prose, long enough to look like a paragraph of notes.\n";
    for i in 0..NOTES {
        std::fs::write(
            root.join(format!("notes/n{i}.md")),
            format!("# Note {i}\n\nversion 0\n\n{}", prose.repeat(50)),
        )
        .unwrap();
    }
    let outside = tree(&base, &root);
    let intents = root.join(".history/intents");
    let (mut killed_prepared, mut killed_committed) = (0, 0);
    let mut version = 0;
    for attempt in 0..40 {
        if killed_prepared > 0 && killed_committed > 0 {
            break;
        }
        // Odd attempts wait for the record's commit line, even ones kill
        // as soon as the record is there.
        let wait_for_commit = attempt % 2 == 1;
        let operations: Vec<Value> = (0..NOTES)
            .map(|i| {
                json!({"tool": "TextReplace", "arguments": {
                    "filePath": format!("notes/n{i}.md"),
                    "oldText": format!("version {version}"),
                    "newText": format!("version {}", version + 1),
                }})
            })
            .collect();
        let (old, _) = notes_and_leftovers(&root);
        let mut child = std::process::Command::new(BIN)
            .arg("call")
            .arg("Batch")
            .arg(json!({ "operations": operations }).to_string())
            .arg("--root")
            .arg(&root)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let killed = loop {
            match intent_state(&intents) {
                Some(committed) if committed || !wait_for_commit => {
                    child.kill().unwrap();
                    break Some(committed);
                }
                _ => {}
            }
            if child.try_wait().unwrap().is_some() {
                break None;
            }
            std::thread::sleep(std::time::Duration::from_micros(100));
        };
        child.wait().unwrap();
        let interrupted = killed.is_some() && intent_state(&intents).is_some();
        match killed {
            Some(true) if interrupted => killed_committed += 1,
            Some(false) if interrupted => killed_prepared += 1,
            _ => {}
        }

        let session = start(&root, &[]).await;
        let read = ok(&call(
            &session,
            "TextRead",
            json!({"filePath": "notes/n0.md", "target": {"lines": {"start": 3, "end": 3}}}),
        )
        .await);
        let (now, left) = notes_and_leftovers(&root);
        assert!(left.is_empty(), "left behind: {left:?}");
        assert_eq!(intent_state(&intents), None, "the intent record is gone");
        let changed = old
            .iter()
            .filter(|(path, bytes)| now.get(*path) != Some(bytes))
            .count();
        assert!(
            changed == 0 || changed == NOTES,
            "{changed} of {NOTES} notes changed after a kill (committed: {killed:?})"
        );
        assert!(
            read["content"]
                .as_str()
                .unwrap()
                .contains(&format!("version {}", version + usize::from(changed > 0))),
            "{read}"
        );
        if changed > 0 {
            version += 1;
        }
        session.cancel().await.unwrap();
    }
    eprintln!(
        "kills while the record was prepared: {killed_prepared}, once it was committed: {killed_committed}"
    );
    assert!(
        killed_prepared + killed_committed > 0,
        "no kill landed while a change was written"
    );
    assert_eq!(
        tree(&base, &root),
        outside,
        "nothing outside the root changed"
    );
}
