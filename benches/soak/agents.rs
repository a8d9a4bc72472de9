//! One agent of a soak run: a sequence of edits, each adding one line no
//! other edit adds, through one server connection that it re-opens whenever
//! its server was killed. It records what each call reported.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use rmcp::model::CallToolRequestParams;
use serde_json::{Value, json};

use super::files::{SharedFile, agent_line};
use super::rng::Rng;
use super::servers::{Client, Server};

/// How an agent reaches the tools.
pub enum Route {
    /// Its own stdio server, restarted by the agent when it dies.
    Stdio(Arc<Server>),
    /// A session on a shared HTTP server, restarted by its supervisor.
    Http(Arc<Server>),
}

/// What one agent saw.
#[derive(Default)]
pub struct Outcome {
    /// `stdio` or `HTTP`.
    pub route: &'static str,
    /// Edits tried.
    pub attempts: usize,
    /// `(file, line)` of every edit reported as a success.
    pub successes: Vec<(usize, String)>,
    /// `(file, line)` of every edit that failed or got no answer: it may or
    /// may not have landed.
    pub unconfirmed: Vec<(usize, String)>,
    /// Failures by kind.
    pub failures: BTreeMap<String, usize>,
    /// TextReplace calls repeated after a stale `expectedHash`.
    pub stale_retries: usize,
    /// Connections opened again after an error.
    pub reconnects: usize,
}

/// Why one edit did not succeed.
enum Failure {
    /// The tool answered with an error.
    Tool(String),
    /// No answer: the server died, or the call timed out.
    Transport(String),
}

/// How long one call may take before the agent gives up on it.
const CALL_TIMEOUT: Duration = Duration::from_secs(10);

/// How often a TextReplace is re-read and retried after a stale hash.
const STALE_TRIES: usize = 20;

/// Runs `edits` edits of `files` as agent `name` and reports what happened.
pub async fn run(
    name: String,
    route: Route,
    files: Arc<Vec<SharedFile>>,
    edits: usize,
    seed: u64,
) -> Outcome {
    let mut rng = Rng::new(seed);
    let mut out = Outcome {
        route: match route {
            Route::Stdio(_) => "stdio",
            Route::Http(_) => "HTTP",
        },
        ..Outcome::default()
    };
    let mut client = None;
    for n in 0..edits {
        out.attempts += 1;
        let file = rng.below(files.len());
        let spec = &files[file];
        let line = agent_line(spec, &name, n);
        if client.is_none() {
            client = connect(&route).await;
        }
        // A pause between edits, as an agent thinks, so that kills land
        // throughout every agent's run rather than after the fast ones end.
        tokio::time::sleep(Duration::from_millis(rng.range(10, 100) as u64)).await;
        let result = match &client {
            Some(c) => edit(c, spec, &line, &mut rng, &mut out).await,
            None => Err(Failure::Transport("could not connect".to_string())),
        };
        match result {
            Ok(()) => out.successes.push((file, line)),
            Err(failure) => {
                out.unconfirmed.push((file, line));
                let kind = match failure {
                    Failure::Tool(message) => format!("tool error: {message}"),
                    Failure::Transport(reason) => {
                        if let Some(c) = client.take() {
                            let _ = tokio::time::timeout(Duration::from_secs(5), c.cancel()).await;
                        }
                        out.reconnects += 1;
                        format!("no answer ({reason})")
                    }
                };
                *out.failures.entry(kind).or_default() += 1;
            }
        }
    }
    if let Some(c) = client {
        let _ = tokio::time::timeout(Duration::from_secs(5), c.cancel()).await;
    }
    out
}

/// Opens a connection, waiting for a restarting server for up to a minute.
async fn connect(route: &Route) -> Option<Client> {
    for _ in 0..600 {
        let attempt = match route {
            Route::Stdio(server) => server.start_stdio().await,
            Route::Http(server) => server.connect_http().await,
        };
        match attempt {
            Ok(client) => return Some(client),
            Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
    None
}

/// Adds `line` to `file` with the file's tool.
async fn edit(
    client: &Client,
    file: &SharedFile,
    line: &str,
    rng: &mut Rng,
    out: &mut Outcome,
) -> Result<(), Failure> {
    let path = file.path;
    match file.tool {
        "TextPatch" => call(
            client,
            "TextPatch",
            json!({"filePath": path, "operation": "insert",
                   "target": {"appendToSection": file.marker}, "content": format!("{line}\n")}),
        )
        .await
        .map(drop),
        "TextReplace" => {
            for _ in 0..STALE_TRIES {
                let read = call(
                    client,
                    "TextRead",
                    json!({"filePath": path, "target": {"lines": {"start": 1, "end": 1}}}),
                )
                .await?;
                let hash = read["fileHash"].as_str().unwrap_or_default().to_string();
                match call(
                    client,
                    "TextReplace",
                    json!({"filePath": path, "oldText": file.marker,
                           "newText": format!("{line}\n{}", file.marker), "expectedHash": hash}),
                )
                .await
                {
                    Err(Failure::Tool(message)) if message.starts_with("stale hash") => {
                        out.stale_retries += 1;
                        let backoff = rng.range(1, 30) as u64;
                        tokio::time::sleep(Duration::from_millis(backoff)).await;
                    }
                    other => return other.map(drop),
                }
            }
            Err(Failure::Tool(format!(
                "stale hash {STALE_TRIES} times in a row"
            )))
        }
        _ => call(
            client,
            "edit_code",
            json!({"file_path": path, "search_context": format!("{}\n", file.marker),
                   "new_content": format!("{line}\n{}\n", file.marker)}),
        )
        .await
        .map(drop),
    }
}

/// Calls a tool; its structured result, or why there is none.
async fn call(client: &Client, name: &'static str, arguments: Value) -> Result<Value, Failure> {
    let arguments = arguments.as_object().cloned().unwrap_or_default();
    let request = CallToolRequestParams::new(name).with_arguments(arguments);
    let result = match tokio::time::timeout(CALL_TIMEOUT, client.peer().call_tool(request)).await {
        Ok(Ok(result)) => result,
        Ok(Err(e)) => return Err(Failure::Transport(transport_kind(&e.to_string()))),
        Err(_) => return Err(Failure::Transport("timed out".to_string())),
    };
    let text = result
        .content
        .first()
        .and_then(|c| c.as_text())
        .map(|t| t.text.clone())
        .unwrap_or_default();
    if result.is_error == Some(true) {
        let message = serde_json::from_str::<Value>(&text)
            .ok()
            .and_then(|v| v["message"].as_str().map(str::to_string))
            .unwrap_or(text);
        return Err(Failure::Tool(kind_of(name, &message)));
    }
    Ok(result.structured_content.unwrap_or(Value::Null))
}

/// A failure's kind for the counts: its tool and the gist of its message.
fn kind_of(tool: &str, message: &str) -> String {
    if message.contains("has changed since you read it") {
        return "stale hash".to_string();
    }
    // "Writing <path> failed: <why>; <advice>": the same for every file.
    if let Some((_, why)) = message.split_once(" failed: ") {
        let why = why.split(';').next().unwrap_or(why);
        return format!("{tool}: the write failed: {why}");
    }
    format!("{tool}: {}", short(message))
}

/// Why a call got no answer, in a few words.
fn transport_kind(error: &str) -> String {
    if error.contains("send error") {
        "the request could not be sent".to_string()
    } else if error.contains("closed") {
        "the connection closed".to_string()
    } else {
        short(error)
    }
}

/// The start of a message, enough to tell kinds apart.
fn short(message: &str) -> String {
    let first: String = message.chars().take(90).collect();
    if first.len() < message.len() {
        format!("{first}…")
    } else {
        first
    }
}
