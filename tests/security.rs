//! The trust boundary, attacked the way a client would: MCP roots that try to
//! widen the operator's folders (stdio and HTTP), HTTP requests without the
//! right token, servers asked to listen openly, too many sessions, huge
//! requests, and options that must keep their promises (`--read-only`,
//! `--allow-validate-command`). Each test checks the exact refusal and that
//! nothing outside was read or changed.

// MCP roots are deprecated in the newest protocol revision; clients in use
// today still send them, so the server supports them and these tests use them.
#![allow(deprecated)]

mod client;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use client::{BIN, HttpServer, TOKEN, raw_post, raw_request};
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig, Implementation,
    ListRootsResult, Root,
};
use rmcp::service::{RequestContext, RunningService};
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::{ConfigureCommandExt, StreamableHttpClientTransport, TokioChildProcess};
use rmcp::{ClientHandler, ErrorData, RoleClient, ServiceExt};
use serde_json::{Value, json};

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw-test","version":"1"}}}"#;

/// An operator's folder and, beside it, a folder outside it holding a secret.
struct Places {
    _dir: tempfile::TempDir,
    /// The folder the server is started with.
    operator: PathBuf,
    /// A folder outside it.
    outside: PathBuf,
}

const SECRET: &str = "# Private\n\nthe secret is 4711\n";

impl Places {
    fn new() -> Places {
        let dir = tempfile::tempdir().unwrap();
        let base = std::fs::canonicalize(dir.path()).unwrap();
        let operator = base.join("operator");
        let outside = base.join("outside");
        std::fs::create_dir_all(&operator).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        std::fs::write(operator.join("note.md"), "# Note\n\nhello\n").unwrap();
        std::fs::write(outside.join("secret.md"), SECRET).unwrap();
        Places {
            _dir: dir,
            operator,
            outside,
        }
    }

    /// Every file under the outside folder with its bytes.
    fn outside_files(&self) -> Vec<(PathBuf, Vec<u8>)> {
        let mut files: Vec<(PathBuf, Vec<u8>)> = walk(&self.outside)
            .into_iter()
            .map(|p| {
                let bytes = std::fs::read(&p).unwrap();
                (p, bytes)
            })
            .collect();
        files.sort();
        files
    }
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}

/// A client that announces `roots` (as URIs) as its MCP roots.
#[derive(Clone)]
struct RootsClient {
    roots: Arc<Mutex<Vec<String>>>,
}

impl RootsClient {
    fn new(roots: &[&str]) -> RootsClient {
        RootsClient {
            roots: Arc::new(Mutex::new(roots.iter().map(|r| r.to_string()).collect())),
        }
    }
}

impl ClientHandler for RootsClient {
    fn get_info(&self) -> ClientConfig {
        let capabilities = ClientCapabilities::builder()
            .enable_roots()
            .enable_roots_list_changed()
            .build();
        ClientConfig::new(capabilities, Implementation::new("roots-attack", "1"))
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

type RootsSession = RunningService<RoleClient, RootsClient>;

/// Starts a stdio server with `args` (and `cwd`) and connects `client`.
async fn stdio_with_roots(args: &[&Path], cwd: &Path, client: RootsClient) -> RootsSession {
    let command = tokio::process::Command::new(BIN).configure(|cmd| {
        cmd.args(args)
            .current_dir(cwd)
            .env_remove("MCP_TEXT_ROOTS")
            .args(["--toolsets", "all"]);
    });
    let (transport, _) = TokioChildProcess::builder(command)
        .stderr(Stdio::null())
        .spawn()
        .expect("start the server");
    client
        .serve(transport)
        .await
        .expect("initialize over stdio")
}

async fn call(peer: &rmcp::Peer<RoleClient>, name: &'static str, args: Value) -> CallToolResult {
    let args = args.as_object().cloned().unwrap();
    peer.call_tool(CallToolRequestParams::new(name).with_arguments(args))
        .await
        .unwrap_or_else(|e| panic!("{name}: a tool result, not a protocol error: {e}"))
}

/// Every text block of a result, joined.
fn all_text(result: &CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The error JSON of a refused call.
fn refusal(result: &CallToolResult) -> Value {
    assert_eq!(
        result.is_error,
        Some(true),
        "expected a refusal: {}",
        all_text(result)
    );
    serde_json::from_str(&result.content[0].as_text().unwrap().text).unwrap()
}

/// What a client announcing `file:///` tries: read, edit, create and move
/// outside the operator's folder. Each is refused, naming the ignored root.
async fn attack_from_the_whole_filesystem(peer: &rmcp::Peer<RoleClient>, places: &Places) {
    let secret = places.outside.join("secret.md").display().to_string();
    let created = places.outside.join("created.md").display().to_string();
    let attempts = [
        (
            "TextRead",
            json!({"filePath": secret, "target": {"lines": {"start": 1, "end": 3}}}),
        ),
        (
            "TextInspect",
            json!({"filePath": secret, "mode": "search", "query": "secret"}),
        ),
        (
            "TextSearch",
            json!({"query": "secret", "directoryPath": places.outside.display().to_string()}),
        ),
        (
            "TextReplace",
            json!({"filePath": secret, "oldText": "4711", "newText": "0000"}),
        ),
        (
            "edit_code",
            json!({"file_path": created, "new_content": "# planted\n", "strategy": "overwrite_file"}),
        ),
        (
            "create_text_file",
            json!({"file_path": created, "contents": "# planted\n"}),
        ),
        (
            "Move",
            json!({"sourcePath": secret, "destinationPath": places.operator.join("stolen.md").display().to_string()}),
        ),
        (
            "ListFiles",
            json!({"path": places.outside.display().to_string()}),
        ),
    ];
    for (tool, args) in attempts {
        let result = call(peer, tool, args).await;
        let error = refusal(&result);
        let text = all_text(&result);
        assert!(
            error["message"]
                .as_str()
                .unwrap()
                .contains("outside the allowed folders"),
            "{tool}: {error:#}"
        );
        assert!(
            text.contains("The client announced / as root folder(s), but the server ignored them"),
            "{tool}: the refusal explains the ignored root: {text}"
        );
        assert!(!text.contains("4711"), "{tool} revealed the secret: {text}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stdio_client_announcing_the_whole_filesystem_stays_in_the_operators_folder() {
    let places = Places::new();
    let before = places.outside_files();
    let session = stdio_with_roots(
        &[&places.operator],
        &places.operator,
        RootsClient::new(&["file:///"]),
    )
    .await;
    let peer = session.peer().clone();

    // The first reply tells the agent its root was not taken, and where
    // paths are resolved instead.
    let first = call(
        &peer,
        "TextRead",
        json!({"filePath": "note.md", "target": {"lines": {"start": 1, "end": 3}}}),
    )
    .await;
    assert_ne!(first.is_error, Some(true), "{}", all_text(&first));
    let note = all_text(&first);
    assert!(
        note.contains(&format!(
            "Note: The client announced / as root folder(s), but the server ignored them: they lie outside the folders it was started with ({})",
            places.operator.display()
        )),
        "{note}"
    );
    assert!(
        note.contains("restart") || note.contains("start the server with it"),
        "{note}"
    );
    // Only the first one; later replies are plain.
    let second = call(
        &peer,
        "TextRead",
        json!({"filePath": "note.md", "target": {"lines": {"start": 1, "end": 1}}}),
    )
    .await;
    assert_eq!(second.content.len(), 1, "{}", all_text(&second));

    attack_from_the_whole_filesystem(&peer, &places).await;
    session.cancel().await.unwrap();
    assert_eq!(places.outside_files(), before, "nothing outside changed");
    assert!(!places.operator.join("stolen.md").exists());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn http_client_announcing_the_whole_filesystem_stays_in_the_operators_folder() {
    let places = Places::new();
    let before = places.outside_files();
    let server = HttpServer::start_with(
        &places.operator,
        "127.0.0.1:0",
        &["--http-token", TOKEN, "--toolsets", "all"],
    );
    let transport = StreamableHttpClientTransport::from_config(
        StreamableHttpClientTransportConfig::with_uri(server.url()).auth_header(TOKEN),
    );
    let session = RootsClient::new(&["file:///"])
        .serve(transport)
        .await
        .expect("initialize over HTTP");
    let peer = session.peer().clone();
    attack_from_the_whole_filesystem(&peer, &places).await;
    // Inside the operator's folder the session works as usual.
    let read = call(
        &peer,
        "TextRead",
        json!({"filePath": "note.md", "target": {"lines": {"start": 3, "end": 3}}}),
    )
    .await;
    assert_ne!(read.is_error, Some(true), "{}", all_text(&read));
    session.cancel().await.unwrap();
    assert_eq!(places.outside_files(), before, "nothing outside changed");
    assert!(
        server.log().contains("ignoring the client's root file:///"),
        "the operator sees a warning:\n{}",
        server.log()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_root_inside_the_operators_folder_narrows_it() {
    let places = Places::new();
    let project = places.operator.join("project");
    std::fs::create_dir(&project).unwrap();
    std::fs::write(project.join("plan.md"), "# Plan\n").unwrap();
    let uri = format!("file://{}", project.display());
    let outside_uri = format!("file://{}", places.outside.display());
    let session = stdio_with_roots(
        &[&places.operator],
        &places.operator,
        RootsClient::new(&[&uri, &outside_uri]),
    )
    .await;
    let peer = session.peer().clone();
    // Relative paths start at the client's root now.
    let read = call(
        &peer,
        "TextRead",
        json!({"filePath": "plan.md", "target": {"lines": {"start": 1, "end": 1}}}),
    )
    .await;
    assert_ne!(read.is_error, Some(true), "{}", all_text(&read));
    assert!(all_text(&read).contains(&format!(
        "The client announced {} as root folder(s), but the server ignored them",
        places.outside.display()
    )));
    // The rest of the operator's folder is no longer open to this client.
    let note = places.operator.join("note.md").display().to_string();
    let refused = refusal(
        &call(
            &peer,
            "TextRead",
            json!({"filePath": note, "target": {"lines": {"start": 1, "end": 1}}}),
        )
        .await,
    );
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .contains("outside the allowed folders"),
        "{refused:#}"
    );
    // A call naming the ignored root hears why again.
    let secret = places.outside.join("secret.md").display().to_string();
    let again = call(
        &peer,
        "TextRead",
        json!({"filePath": secret, "target": {"lines": {"start": 1, "end": 1}}}),
    )
    .await;
    assert!(
        all_text(&again).contains("but the server ignored them"),
        "{}",
        all_text(&again)
    );
    assert!(!all_text(&again).contains("4711"));
    session.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stdio_without_operator_folders_uses_the_clients_roots_instead_of_the_current_folder() {
    let places = Places::new();
    let client_root = places.outside.clone();
    let uri = format!("file://{}", client_root.display());
    // Started in the operator folder with no ROOT: the current folder is
    // the default, until the client announces its own.
    let session = stdio_with_roots(&[], &places.operator, RootsClient::new(&[&uri])).await;
    let peer = session.peer().clone();
    let read = call(
        &peer,
        "TextRead",
        json!({"filePath": "secret.md", "target": {"lines": {"start": 3, "end": 3}}}),
    )
    .await;
    assert_ne!(read.is_error, Some(true), "{}", all_text(&read));
    assert_eq!(
        read.structured_content.as_ref().unwrap()["content"],
        "the secret is 4711"
    );
    // Replaced, not widened: the current folder is closed now.
    let note = places.operator.join("note.md").display().to_string();
    let refused = refusal(
        &call(
            &peer,
            "TextRead",
            json!({"filePath": note, "target": {"lines": {"start": 1, "end": 1}}}),
        )
        .await,
    );
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .contains("outside the allowed folders"),
        "{refused:#}"
    );
    session.cancel().await.unwrap();
}

/// The status line, headers and body of a refused request, checked to be a
/// 401 with a Bearer challenge and a JSON-RPC error.
fn assert_unauthorized(response: &(String, String, String), why: &str) {
    let (status, headers, body) = response;
    assert!(
        status.contains(" 401 "),
        "{why}: {status}\n{headers}\n{body}"
    );
    assert!(
        headers
            .to_ascii_lowercase()
            .contains("www-authenticate: bearer realm=\"mcp-server-text\""),
        "{why}: {headers}"
    );
    let reply: Value = serde_json::from_str(body).unwrap_or_else(|e| panic!("{why}: {e}: {body}"));
    assert_eq!(reply["error"]["code"], -32001, "{why}: {body}");
    assert!(
        reply["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("Unauthorized: "),
        "{why}: {body}"
    );
    assert!(!body.contains(TOKEN), "{why}: the token is never sent back");
    assert!(
        !headers.to_ascii_lowercase().contains("mcp-session-id"),
        "{why}: no session is opened: {headers}"
    );
}

/// The session id in the headers of an initialize reply.
fn session_id(headers: &str) -> String {
    headers
        .lines()
        .find_map(|l| {
            let (name, value) = l.split_once(':')?;
            name.eq_ignore_ascii_case("mcp-session-id")
                .then(|| value.trim().to_string())
        })
        .unwrap_or_else(|| panic!("no session id in {headers}"))
}

#[test]
fn http_requests_without_the_right_token_get_401_and_reach_no_tool() {
    let places = Places::new();
    let server = HttpServer::start(&places.operator, "127.0.0.1:0");
    let host = server.addr.to_string();
    let addr = server.addr;
    let basic = format!(
        "Authorization: Basic {}\r\n",
        encode_base64(&format!("user:{TOKEN}"))
    );
    let other_scheme = format!("Authorization: Token {TOKEN}\r\n");
    let cases = [
        ("no Authorization header", String::new()),
        (
            "a wrong token",
            "Authorization: Bearer not-the-token-at-all-000\r\n".to_string(),
        ),
        (
            "the token with a letter changed",
            format!("Authorization: Bearer {}X\r\n", &TOKEN[..TOKEN.len() - 1]),
        ),
        ("an empty bearer", "Authorization: Bearer\r\n".to_string()),
        ("the token in the Basic scheme", basic),
        ("the token in another scheme", other_scheme),
        (
            "the token twice",
            format!("Authorization: Bearer {TOKEN}\r\nAuthorization: Bearer {TOKEN}\r\n"),
        ),
    ];
    for (why, headers) in &cases {
        let response = raw_request(addr, "POST", "/mcp", &host, headers, INITIALIZE);
        assert_unauthorized(&response, why);
    }
    let (_, _, body) = raw_request(addr, "POST", "/mcp", &host, "", INITIALIZE);
    assert!(
        body.contains("needs the header 'Authorization: Bearer <token>'"),
        "{body}"
    );
    let (_, headers, _) = raw_request(addr, "POST", "/mcp", &host, &cases[1].1, INITIALIZE);
    assert!(headers.contains("error=\"invalid_token\""), "{headers}");
    // GET (the event stream) and DELETE need it too.
    assert_unauthorized(&raw_request(addr, "GET", "/mcp", &host, "", ""), "GET");
    assert_unauthorized(
        &raw_request(addr, "DELETE", "/mcp", &host, "", ""),
        "DELETE",
    );

    // With a live session, a call carrying the session id but a wrong token
    // still reaches no tool: the file it would create does not appear.
    let (status, headers, _) = raw_post(addr, "/mcp", &host, INITIALIZE);
    assert!(status.contains(" 200 "), "{status}");
    let session = format!("Mcp-Session-Id: {}\r\n", session_id(&headers));
    let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    let (status, _, _) = client::raw_post_with(addr, "/mcp", &host, &session, initialized);
    assert!(status.contains(" 202 "), "{status}");
    let target = places.operator.join("made.md");
    let create = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "TextPatch", "arguments": {"filePath": "note.md", "operation": "insert", "target": {"appendToSection": "# Note"}, "content": "planted\n"}}}).to_string();
    let wrong = format!("{session}Authorization: Bearer wrong-token-0000000000000\r\n");
    assert_unauthorized(
        &raw_request(addr, "POST", "/mcp", &host, &wrong, &create),
        "wrong token, live session",
    );
    assert_eq!(
        std::fs::read_to_string(places.operator.join("note.md")).unwrap(),
        "# Note\n\nhello\n"
    );
    assert!(!target.exists());
    // The same call with the token lands, so the refusal above was the token's doing.
    let (status, _, body) = client::raw_post_with(addr, "/mcp", &host, &session, &create);
    assert!(status.contains(" 200 "), "{status} {body}");
    assert_eq!(
        std::fs::read_to_string(places.operator.join("note.md")).unwrap(),
        "# Note\n\nhello\nplanted\n"
    );
    assert!(
        server
            .log()
            .contains("refused an HTTP request to /mcp: wrong token"),
        "{}",
        server.log()
    );
}

#[test]
fn a_foreign_host_saying_localhost_still_needs_the_token() {
    let places = Places::new();
    // Listening on every interface, as for other machines: the Host check
    // alone would let `Host: localhost` in.
    let server = HttpServer::start_with(&places.operator, "0.0.0.0:0", &["--http-token", TOKEN]);
    let addr = std::net::SocketAddr::from(([127, 0, 0, 1], server.addr.port()));
    let response = raw_request(addr, "POST", "/mcp", "localhost", "", INITIALIZE);
    assert_unauthorized(&response, "Host: localhost without a token");
    let (status, _, body) = raw_post(addr, "/mcp", "localhost", INITIALIZE);
    assert!(status.contains(" 200 "), "{status} {body}");
}

#[test]
fn the_token_may_come_from_the_environment() {
    let places = Places::new();
    let server = HttpServer::start_with_env(
        &places.operator,
        "0.0.0.0:0",
        &[],
        &[("MCP_TEXT_HTTP_TOKEN", TOKEN)],
    );
    assert!(
        server
            .log()
            .contains("(the token you gave in MCP_TEXT_HTTP_TOKEN / --http-token)")
            || {
                std::thread::sleep(Duration::from_millis(500));
                server
                    .log()
                    .contains("(the token you gave in MCP_TEXT_HTTP_TOKEN / --http-token)")
            },
        "{}",
        server.log()
    );
    assert!(
        !server.log().contains(TOKEN),
        "an operator's token is not printed"
    );
    assert_unauthorized(
        &raw_request(server.addr, "POST", "/mcp", "localhost", "", INITIALIZE),
        "env token, none sent",
    );
    let (status, _, _) = raw_post(server.addr, "/mcp", "localhost", INITIALIZE);
    assert!(status.contains(" 200 "), "{status}");
}

/// Runs the server with `args` and expects it to refuse to start.
fn refused_start(args: &[&str], root: &Path) -> String {
    let out = Command::new(BIN)
        .args(args)
        .arg(root)
        .env_remove("MCP_TEXT_HTTP_TOKEN")
        .env_remove("MCP_TEXT_HTTP_NO_AUTH")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{args:?} must not start");
    assert!(out.stdout.is_empty());
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn listening_openly_without_a_token_refuses_to_start() {
    let places = Places::new();
    let said = refused_start(&["--http", "0.0.0.0:0"], &places.operator);
    assert!(
        said.contains("mcp-server-text: listening on 0.0.0.0:0, which is not a loopback address, needs a token that you choose"),
        "{said}"
    );
    assert!(said.contains("MCP_TEXT_HTTP_TOKEN"), "{said}");
    let said = refused_start(&["--http", "0.0.0.0:0", "--http-no-auth"], &places.operator);
    assert!(
        said.contains("--http-no-auth is allowed only on a loopback address (127.0.0.1 or ::1)"),
        "{said}"
    );
    let said = refused_start(
        &[
            "--http",
            "127.0.0.1:0",
            "--http-no-auth",
            "--http-token",
            TOKEN,
        ],
        &places.operator,
    );
    assert!(said.contains("contradict each other"), "{said}");
    let said = refused_start(
        &["--http", "127.0.0.1:0", "--http-token", "short"],
        &places.operator,
    );
    assert!(
        said.contains("must be 16 to 1024 characters long"),
        "{said}"
    );
    assert!(
        !said.contains("short"),
        "the refused token is not repeated: {said}"
    );
}

#[test]
fn no_auth_on_loopback_is_an_explicit_opt_out() {
    let places = Places::new();
    let server = HttpServer::start_with(&places.operator, "127.0.0.1:0", &["--http-no-auth"]);
    let (status, _, body) = raw_request(
        server.addr,
        "POST",
        "/mcp",
        &server.addr.to_string(),
        "",
        INITIALIZE,
    );
    assert!(status.contains(" 200 "), "{status} {body}");
    assert!(
        server
            .log()
            .contains("authentication: none (--http-no-auth)"),
        "{}",
        server.log()
    );
}

#[test]
fn a_generated_token_is_printed_once_with_a_client_configuration() {
    let places = Places::new();
    let server = HttpServer::start_with(&places.operator, "127.0.0.1:0", &[]);
    let started = Instant::now();
    let token = loop {
        let log = server.log();
        if let Some(token) = log
            .lines()
            .find_map(|l| l.trim().strip_prefix("Authorization: Bearer "))
            .map(str::to_string)
            && log.contains("\"headers\"")
        {
            break token;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "no token printed:\n{log}"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(token.len(), 64, "256 bits as hex: {token}");
    assert!(token.bytes().all(|b| b.is_ascii_hexdigit()));
    let log = server.log();
    let url = server.url();
    assert!(
        log.contains(&format!(
            "claude mcp add --transport http notes {url} --header \"Authorization: Bearer {token}\""
        )),
        "{log}"
    );
    assert!(
        log.contains(&format!(
            "\"headers\":{{\"Authorization\":\"Bearer {token}\"}}"
        )),
        "{log}"
    );
    assert_eq!(
        log.matches(&token).count(),
        3,
        "printed in the banner only: {log}"
    );
    let host = server.addr.to_string();
    assert_unauthorized(
        &raw_request(server.addr, "POST", "/mcp", &host, "", INITIALIZE),
        "no token",
    );
    let bearer = format!("Authorization: Bearer {token}\r\n");
    let (status, _, _) = raw_request(server.addr, "POST", "/mcp", &host, &bearer, INITIALIZE);
    assert!(status.contains(" 200 "), "{status}");
}

#[test]
fn sessions_over_the_limit_are_answered_not_left_hanging() {
    let places = Places::new();
    let server = HttpServer::start_with(
        &places.operator,
        "127.0.0.1:0",
        &["--http-token", TOKEN, "--http-max-sessions", "2"],
    );
    let (addr, host) = (server.addr, server.addr.to_string());
    // Refused requests take no place.
    for _ in 0..5 {
        assert_unauthorized(
            &raw_request(addr, "POST", "/mcp", &host, "", INITIALIZE),
            "no token",
        );
    }
    let mut ids = Vec::new();
    for _ in 0..2 {
        let (status, headers, _) = raw_post(addr, "/mcp", &host, INITIALIZE);
        assert!(status.contains(" 200 "), "{status}");
        ids.push(session_id(&headers));
    }
    let started = Instant::now();
    let (status, headers, body) = raw_post(addr, "/mcp", &host, INITIALIZE);
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "answered at once"
    );
    assert!(status.contains(" 503 "), "{status}\n{headers}\n{body}");
    assert!(
        headers.to_ascii_lowercase().contains("retry-after: 30"),
        "{headers}"
    );
    let reply: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(reply["id"], 1);
    assert_eq!(reply["error"]["code"], -32000);
    assert_eq!(
        reply["error"]["message"],
        "Server busy: 2 sessions are open, the most this server allows (--http-max-sessions 2). A session ends when its client closes it (HTTP DELETE) or after 30 minutes without requests; try again later, or ask the operator to raise --http-max-sessions"
    );
    // A session that ends frees its place.
    let close = format!("Mcp-Session-Id: {}\r\n", ids[0]);
    let (status, _, body) = raw_request(
        addr,
        "DELETE",
        "/mcp",
        &host,
        &format!("Authorization: Bearer {TOKEN}\r\n{close}"),
        "",
    );
    assert!(status.contains(" 20"), "{status} {body}");
    let (status, _, _) = raw_post(addr, "/mcp", &host, INITIALIZE);
    assert!(status.contains(" 200 "), "{status}");
}

#[test]
fn an_http_body_over_the_limit_is_refused_unread() {
    let places = Places::new();
    let server = HttpServer::start_with(
        &places.operator,
        "127.0.0.1:0",
        &["--http-token", TOKEN, "--max-request-size", "64KB"],
    );
    // Only the headers are sent: the answer must come from them alone.
    let announce_only = |authorization: &str| {
        let mut stream = std::net::TcpStream::connect(server.addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        write!(
            stream,
            "POST /mcp HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
             Accept: application/json, text/event-stream\r\n{authorization}\
             Content-Length: 100000000\r\nConnection: close\r\n\r\n{{\"jsonrpc\":",
            server.addr
        )
        .unwrap();
        let mut response = String::new();
        let _ = std::io::Read::read_to_string(&mut stream, &mut response);
        response
    };
    let response = announce_only(&format!("Authorization: Bearer {TOKEN}\r\n"));
    assert!(response.starts_with("HTTP/1.1 413 "), "{response}");
    let body = response.split_once("\r\n\r\n").unwrap().1;
    let reply: Value = serde_json::from_str(body).unwrap();
    assert_eq!(reply["error"]["code"], -32600);
    assert_eq!(
        reply["error"]["message"],
        "Invalid request: the request body (100000000 bytes) is over the server's limit of 64 KiB (--max-request-size), so it was not read. Send less at once, e.g. edit a large file in parts"
    );
    // Without the token, the size does not even matter.
    let response = announce_only("");
    assert!(response.starts_with("HTTP/1.1 401 "), "{response}");
    // A body within the limit that is no message gets its own answer.
    let host = server.addr.to_string();
    let (status, _, body) = raw_post(server.addr, "/mcp", &host, &"x".repeat(1000));
    assert!(status.contains(" 400 "), "{status}");
    assert!(body.contains("-32700"), "{body}");
}

/// A stdio server process spoken to line by line.
struct RawStdio {
    child: std::process::Child,
    stdin: Option<std::process::ChildStdin>,
    replies: std::sync::mpsc::Receiver<String>,
}

impl RawStdio {
    fn start(root: &Path, args: &[&str]) -> RawStdio {
        let mut child = Command::new(BIN)
            .arg(root)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let (tx, replies) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in stdout.lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut raw = RawStdio {
            stdin: child.stdin.take(),
            child,
            replies,
        };
        raw.send(INITIALIZE);
        raw.reply();
        raw.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        raw
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    fn reply(&self) -> Value {
        let line = self
            .replies
            .recv_timeout(Duration::from_secs(60))
            .expect("a reply");
        serde_json::from_str(&line).unwrap()
    }

    /// The peak resident memory of the server so far, in KiB (Linux).
    fn peak_kib(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
        line.split_whitespace().nth(1)?.parse().ok()
    }
}

impl Drop for RawStdio {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn a_100_mb_query_over_stdio_is_refused_with_bounded_memory() {
    let places = Places::new();
    let mut server = RawStdio::start(&places.operator, &["--toolsets", "text"]);
    // Streamed, as a client would write it.
    let query = "ab".repeat(50_000_000);
    let line = format!(
        r#"{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{"name":"TextSearch","arguments":{{"query":"{query}"}}}}}}"#
    );
    drop(query);
    let len = line.len();
    server.send(&line);
    drop(line);
    let reply = server.reply();
    assert_eq!(reply["id"], 2, "the refusal answers the request: {reply}");
    assert_eq!(reply["error"]["code"], -32600);
    assert_eq!(
        reply["error"]["message"],
        format!(
            "Invalid request: the message is {len} bytes, over the server's limit of 64 MiB (--max-request-size), so it was skipped unread. Send less at once, e.g. edit a large file in parts"
        )
    );
    if let Some(peak) = server.peak_kib() {
        assert!(peak < 200 * 1024, "peak RSS {} MiB", peak / 1024);
    }
    // The server is still there for the next request.
    server.send(r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"TextSearch","arguments":{"query":"hello"}}}"#);
    let next = server.reply();
    assert_eq!(next["id"], 3);
    assert_eq!(
        next["result"]["structuredContent"]["totalMatches"], 1,
        "{next}"
    );
}

#[test]
fn an_over_size_message_with_its_id_last_is_answered_by_id() {
    let places = Places::new();
    let mut server = RawStdio::start(&places.operator, &["--max-request-size", "64KB"]);
    // The order JavaScript clients write: params first, id last.
    let line = format!(
        r#"{{"method":"tools/call","params":{{"name":"TextSearch","arguments":{{"query":"{}"}}}},"jsonrpc":"2.0","id":"req-9"}}"#,
        "x".repeat(200_000)
    );
    server.send(&line);
    let reply = server.reply();
    assert_eq!(reply["id"], "req-9", "{reply}");
    assert!(
        reply["error"]["message"]
            .as_str()
            .unwrap()
            .contains("over the server's limit of 64 KiB")
    );
}

#[test]
fn queries_and_patterns_are_bounded_and_never_echoed() {
    let places = Places::new();
    let mut server = RawStdio::start(&places.operator, &["--toolsets", "text"]);
    let huge = "ab".repeat(2 << 20);
    let calls = [
        ("TextSearch", json!({"query": huge}), "query"),
        (
            "TextSearch",
            json!({"query": "a", "filePattern": huge}),
            "filePattern",
        ),
        (
            "TextInspect",
            json!({"filePath": "note.md", "mode": "search", "query": huge}),
            "query",
        ),
        (
            "TextRead",
            json!({"filePath": "note.md", "target": {"heading": huge}}),
            "target",
        ),
    ];
    for (n, (tool, args, parameter)) in calls.into_iter().enumerate() {
        let request = json!({"jsonrpc": "2.0", "id": 10 + n, "method": "tools/call", "params": {"name": tool, "arguments": args}});
        server.send(&request.to_string());
        let reply = server.reply();
        assert_eq!(reply["result"]["isError"], true, "{tool}: {reply}");
        let text = reply["result"]["content"][0]["text"].as_str().unwrap();
        assert!(text.len() < 4000, "{tool}: a {} byte refusal", text.len());
        let error: Value = serde_json::from_str(text).unwrap();
        let message = error["message"].as_str().unwrap();
        assert!(message.contains(parameter), "{tool}: {message}");
        assert!(
            message.contains("4194304 bytes is over the limit of 65536 bytes (64 KiB)")
                || message.contains("heading is 4194304 bytes long, over the limit of 4096 bytes"),
            "{tool}: {message}"
        );
    }
    // A hostile regex within the limit is refused by size, quickly.
    let request = json!({"jsonrpc": "2.0", "id": 20, "method": "tools/call", "params": {"name": "TextSearch", "arguments": {"query": "(\\w{1000}){1000}", "regex": true}}});
    let started = Instant::now();
    server.send(&request.to_string());
    let reply = server.reply();
    assert!(started.elapsed() < Duration::from_secs(20));
    let text = reply["result"]["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("Invalid regex"), "{text}");
    assert!(
        text.contains("exceeds size limit") || text.contains("too big"),
        "{text}"
    );
}

/// Plants the temp file an interrupted write of `name` leaves behind.
fn plant_stale_temp(root: &Path, name: &str) -> PathBuf {
    std::fs::write(root.join(name), "kept\n").unwrap();
    let temp = root.join(format!(".{name}.Xy12Zq.mcp-server-text.tmp"));
    std::fs::write(&temp, "half a write").unwrap();
    temp
}

/// Waits until `done` holds, up to `limit`.
fn eventually(limit: Duration, done: impl Fn() -> bool) -> bool {
    let started = Instant::now();
    while started.elapsed() < limit {
        if done() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    done()
}

#[test]
fn read_only_mode_removes_no_temp_file() {
    let places = Places::new();
    let temp = plant_stale_temp(&places.operator, "a.md");
    {
        let mut server = RawStdio::start(&places.operator, &["--read-only"]);
        server.send(r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"TextRead","arguments":{"filePath":"a.md","target":{"lines":{"start":1,"end":1}}}}}"#);
        assert_eq!(server.reply()["id"], 2);
        std::thread::sleep(Duration::from_millis(1500));
        assert!(temp.exists(), "--read-only removed a file");
    }
    assert_eq!(std::fs::read(&temp).unwrap(), b"half a write");
    // Without --read-only the same start removes it: the check above can fail.
    let _server = RawStdio::start(&places.operator, &[]);
    assert!(
        eventually(Duration::from_secs(20), || !temp.exists()),
        "the sweep runs otherwise"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn roots_a_client_announces_are_not_swept() {
    let places = Places::new();
    let temp = plant_stale_temp(&places.outside, "b.md");
    let uri = format!("file://{}", places.outside.display());
    let session = stdio_with_roots(&[], &places.operator, RootsClient::new(&[&uri])).await;
    let peer = session.peer().clone();
    let read = call(
        &peer,
        "TextRead",
        json!({"filePath": "b.md", "target": {"lines": {"start": 1, "end": 1}}}),
    )
    .await;
    assert_ne!(read.is_error, Some(true), "{}", all_text(&read));
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert!(temp.exists(), "a client's root was swept");
    session.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn validate_command_runs_nothing_without_the_operators_flag() {
    let places = Places::new();
    std::fs::write(places.operator.join("lib.rs"), "fn main() {}\n").unwrap();
    let marker = places.outside.join("ran");
    let session =
        stdio_with_roots(&[&places.operator], &places.operator, RootsClient::new(&[])).await;
    let peer = session.peer().clone();
    let result = call(
        &peer,
        "edit_code",
        json!({"file_path": "lib.rs", "search_context": "fn main() {}", "new_content": "fn main() { }", "validate_command": format!("touch {}", marker.display())}),
    )
    .await;
    let error = refusal(&result);
    assert_eq!(
        error["message"],
        "validate_command was given, but this server was started without --allow-validate-command, so it runs no commands; nothing was written"
    );
    assert_eq!(
        std::fs::read_to_string(places.operator.join("lib.rs")).unwrap(),
        "fn main() {}\n"
    );
    assert!(!marker.exists(), "the command ran");
    session.cancel().await.unwrap();
}

/// Standard base64, for a Basic header.
fn encode_base64(text: &str) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let bytes = text.as_bytes();
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().fold(0u32, |n, &b| (n << 8) | b as u32) << (8 * (3 - chunk.len()));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}
