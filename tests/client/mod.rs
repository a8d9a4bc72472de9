//! MCP clients of the built binary, over stdio or streamable HTTP, shared by
//! the end-to-end concurrency tests: starting servers, calling tools, reading
//! results and error replies.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::RunningService;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::{ConfigureCommandExt, StreamableHttpClientTransport, TokioChildProcess};
use rmcp::{RoleClient, ServiceExt};
use serde_json::Value;

/// The binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_mcp-server-text");

/// A connected client.
pub type Client = RunningService<RoleClient, ()>;

/// The peer of a client, cheap to clone into concurrent tasks.
pub type Peer = rmcp::Peer<RoleClient>;

/// Starts a stdio server on `root` and connects to it. `configure` can change
/// the server's command (environment, extra options) before it starts.
pub async fn stdio_client(
    root: &Path,
    configure: impl FnOnce(&mut tokio::process::Command),
) -> Client {
    let command = tokio::process::Command::new(BIN).configure(|cmd| {
        cmd.arg(root).arg("--toolsets").arg("text");
        configure(cmd);
    });
    // `TokioChildProcess::new` would let the server log into the test output.
    let (transport, _) = TokioChildProcess::builder(command)
        .stderr(Stdio::null())
        .spawn()
        .expect("start the server");
    ().serve(transport).await.expect("initialize over stdio")
}

/// The bearer token the test HTTP servers are started with.
pub const TOKEN: &str = "test-token-9f8e7d6c5b4a39281706";

/// Connects a client to the streamable HTTP endpoint at `url`, with [`TOKEN`].
pub async fn http_client(url: &str) -> Client {
    let transport = StreamableHttpClientTransport::from_config(
        StreamableHttpClientTransportConfig::with_uri(url).auth_header(TOKEN),
    );
    ().serve(transport).await.expect("initialize over HTTP")
}

/// Calls a tool; a protocol error fails the test, a tool error does not.
pub async fn call(peer: &Peer, name: &'static str, arguments: Value) -> CallToolResult {
    let arguments = arguments
        .as_object()
        .cloned()
        .expect("arguments are an object");
    peer.call_tool(CallToolRequestParams::new(name).with_arguments(arguments))
        .await
        .unwrap_or_else(|e| panic!("{name}: a tool result, not a protocol error: {e}"))
}

/// The JSON of a successful result.
pub fn success(result: &CallToolResult) -> Value {
    assert_ne!(result.is_error, Some(true), "tool failed: {}", text(result));
    result
        .structured_content
        .clone()
        .expect("structuredContent")
}

/// The error JSON of a failed result.
pub fn failure(result: &CallToolResult) -> Value {
    assert_eq!(
        result.is_error,
        Some(true),
        "expected a tool error: {}",
        text(result)
    );
    serde_json::from_str(&text(result)).expect("the error text is JSON")
}

/// The text content of a result.
pub fn text(result: &CallToolResult) -> String {
    result
        .content
        .first()
        .and_then(|c| c.as_text())
        .map(|t| t.text.clone())
        .unwrap_or_default()
}

/// A Markdown file of about `bytes` bytes that looks like a long note: a
/// heading every few paragraphs, lists, a code block, and `anchor` once, near
/// the end.
pub fn long_note(bytes: usize, anchor: &str) -> String {
    let mut text =
        String::from("---\ntitle: Reading notes\ntags: [books, notes]\n---\n# Reading notes\n\n");
    let mut section = 0;
    while text.len() < bytes {
        section += 1;
        text.push_str(&format!("## Chapter {section}\n\n"));
        text.push_str(&format!(
            "Notes on chapter {section}: the argument turns on how evidence is weighed, and the \
             author returns to the ledger from the first chapter to make the point again.\n\n"
        ));
        text.push_str("- a claim worth checking\n- a quote to look up\n- a question for later\n\n");
        if section % 7 == 0 {
            text.push_str("```text\nledger total: 1,204\nentries: 77\n```\n\n");
        }
    }
    text.push_str(&format!(
        "## Inbox\n\n{anchor}\n\n## Done\n\nNothing yet.\n"
    ));
    text
}

/// An HTTP server process, killed when dropped so a failing test leaves none behind.
pub struct HttpServer {
    child: Child,
    /// Where it listens.
    pub addr: SocketAddr,
    /// Its stderr so far, for failure messages.
    pub log: Arc<Mutex<String>>,
}

impl HttpServer {
    /// Starts `mcp-server-text --http <listen> <root>` with [`TOKEN`] and
    /// waits until it accepts connections. `listen` may ask for port 0: the
    /// address comes from the server's own announcement.
    pub fn start(root: &Path, listen: &str) -> HttpServer {
        HttpServer::start_with(root, listen, &["--http-token", TOKEN])
    }

    /// [`HttpServer::start`] with `args` instead of the token option (and
    /// the `text` toolset unless `args` name toolsets).
    pub fn start_with(root: &Path, listen: &str, args: &[&str]) -> HttpServer {
        HttpServer::start_with_env(root, listen, args, &[])
    }

    /// [`HttpServer::start_with`] with these environment variables set.
    pub fn start_with_env(
        root: &Path,
        listen: &str,
        args: &[&str],
        env: &[(&str, &str)],
    ) -> HttpServer {
        let toolsets: &[&str] = if args.contains(&"--toolsets") {
            &[]
        } else {
            &["--toolsets", "text"]
        };
        let mut child = Command::new(BIN)
            .arg("--http")
            .arg(listen)
            .arg(root)
            .args(toolsets)
            .args(args)
            .env_remove("MCP_TEXT_HTTP_TOKEN")
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start the HTTP server");
        let stderr = child.stderr.take().unwrap();
        let log = Arc::new(Mutex::new(String::new()));
        let (found, announced) = std::sync::mpsc::channel();
        {
            let log = log.clone();
            // Keeps draining stderr so the server never blocks on a full pipe.
            std::thread::spawn(move || {
                let mut found = Some(found);
                for line in BufReader::new(stderr).lines() {
                    let Ok(line) = line else { break };
                    if let Some(url) = line.split("streamable HTTP at http://").nth(1)
                        && let Some(addr) = url.strip_suffix("/mcp")
                        && let Some(found) = found.take()
                    {
                        let _ = found.send(addr.to_string());
                    }
                    let mut log = log.lock().unwrap();
                    log.push_str(&line);
                    log.push('\n');
                }
            });
        }
        let mut server = HttpServer {
            child,
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            log,
        };
        let addr = match announced.recv_timeout(Duration::from_secs(30)) {
            Ok(addr) => addr,
            Err(_) => panic!(
                "the server did not announce its address; it said:\n{}",
                server.log()
            ),
        };
        server.addr = addr.parse().expect("an address");
        server.wait_until_accepting();
        server
    }

    /// Waits until a TCP connection to the server succeeds.
    pub fn wait_until_accepting(&mut self) {
        let started = Instant::now();
        while TcpStream::connect_timeout(&self.addr, Duration::from_millis(200)).is_err() {
            if let Ok(Some(status)) = self.child.try_wait() {
                panic!("the server exited with {status}:\n{}", self.log());
            }
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "the server does not accept connections at {}:\n{}",
                self.addr,
                self.log()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The MCP endpoint.
    pub fn url(&self) -> String {
        format!("http://{}/mcp", self.addr)
    }

    /// What the server wrote on stderr so far.
    pub fn log(&self) -> String {
        self.log.lock().unwrap().clone()
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Waits up to `limit` for the process to exit by itself.
    pub fn wait_for_exit(&mut self, limit: Duration) -> Option<std::process::ExitStatus> {
        let started = Instant::now();
        while started.elapsed() < limit {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        None
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Sends one raw HTTP/1.1 POST of `body` to `path` with the `Host` header
/// `host` and the bearer [`TOKEN`], and returns the status line, the headers
/// and the body as text.
pub fn raw_post(addr: SocketAddr, path: &str, host: &str, body: &str) -> (String, String, String) {
    raw_post_with(addr, path, host, "", body)
}

/// [`raw_post`] with more header lines (each ending in `\r\n`).
pub fn raw_post_with(
    addr: SocketAddr,
    path: &str,
    host: &str,
    headers: &str,
    body: &str,
) -> (String, String, String) {
    let headers = format!("Authorization: Bearer {TOKEN}\r\n{headers}");
    raw_request(addr, "POST", path, host, &headers, body)
}

/// Sends one raw HTTP/1.1 request with exactly the header lines given
/// (besides Host, Content-Type, Accept, Content-Length and Connection).
pub fn raw_request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    host: &str,
    headers: &str,
    body: &str,
) -> (String, String, String) {
    let mut stream = TcpStream::connect_timeout(&addr, Duration::from_secs(5)).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: {}\r\n\
         {headers}Connection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).unwrap();
    // An initialize reply may arrive as an event stream the server keeps open
    // a little; read until the reply's JSON has arrived, or the server closes.
    let mut received = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match stream.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                received.extend_from_slice(&buf[..n]);
                if String::from_utf8_lossy(&received).contains("\"result\"") {
                    break;
                }
            }
            Err(_) => break,
        }
    }
    let response = String::from_utf8_lossy(&received).into_owned();
    let (head, body) = response.split_once("\r\n\r\n").unwrap_or((&response, ""));
    let (status, headers) = head.split_once("\r\n").unwrap_or((head, ""));
    (status.to_string(), headers.to_string(), body.to_string())
}
