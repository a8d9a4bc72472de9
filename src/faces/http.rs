//! MCP over streamable HTTP at `/mcp`, for several clients at once.
//!
//! Each client session gets its own server value (so roots a client offers
//! apply to that client only), and all share the per-file locks, so edits of
//! one file from different clients are still serialized.
//!
//! In front of the SDK's service, in this order: the bearer token check
//! ([`super::auth`]), then a check of the body (its size, whether it is a
//! message at all) and of the number of live sessions, each answered with a
//! JSON-RPC error a client can act on.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{ClientRequest, JsonRpcMessage};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde_json::Value;

use super::auth::{HttpAuth, require_token};
use super::incoming::{self, Checked};
use super::mcp::TextServer;

/// Default `--http-max-sessions`.
pub const DEFAULT_MAX_SESSIONS: usize = 64;

/// How long a session may stay without any request before it ends: long
/// enough for a person to think between two prompts, short enough that the
/// sessions of clients that left without saying so free their places.
pub const SESSION_IDLE: Duration = Duration::from_secs(30 * 60);

/// How long a shutdown waits for running calls: longer than an edit normally
/// takes, shorter than the patience of whoever pressed Ctrl-C.
pub(crate) const DRAIN_LIMIT: Duration = Duration::from_secs(10);

/// How long a shutdown waits, after the last call returned, for its answer
/// to be sent.
pub(crate) const ANSWER_GRACE: Duration = Duration::from_millis(200);

/// How an HTTP server listens and whom it lets in.
#[derive(Clone)]
pub struct HttpConfig {
    /// The address to listen on.
    pub addr: SocketAddr,
    /// Further `Host` names to accept (`--allowed-host`).
    pub extra_hosts: Vec<String>,
    /// Who may send requests.
    pub auth: HttpAuth,
    /// Most sessions alive at once (`--http-max-sessions`).
    pub max_sessions: usize,
    /// Largest request body, in bytes (`--max-request-size`).
    pub max_request: usize,
    /// How long a header may take and how many connections may wait for
    /// the token (`--http-header-timeout`, `--http-max-pending`).
    pub connections: super::connections::ConnectionLimits,
}

/// Parses `--http`: `HOST:PORT`, or a bare port meaning loopback.
pub fn parse_addr(addr: &str) -> Result<SocketAddr, String> {
    let addr = addr.trim();
    if let Ok(port) = addr.parse::<u16>() {
        return Ok(SocketAddr::from(([127, 0, 0, 1], port)));
    }
    let with_host = if addr.starts_with(':') {
        format!("127.0.0.1{addr}")
    } else {
        addr.replace("localhost:", "127.0.0.1:")
    };
    with_host.parse().map_err(|_| {
        format!("'{addr}' is not an address to listen on; write e.g. 127.0.0.1:8080 or 8080")
    })
}

/// Serves `server` over streamable HTTP as `config` says until Ctrl-C (or,
/// on Unix, SIGTERM). `listening` is told the address actually bound, which
/// differs from the configured one when it asks for port 0.
///
/// Requests must carry the bearer token (unless the server is open), and
/// name this machine in their `Host` header: loopback names, the bound
/// address, and `--allowed-host` names; a request from a browser must come
/// from a page on one of those hosts (`Origin`). The Host and Origin checks
/// keep a web page from reaching the server through DNS rebinding or a
/// cross-site request; only the token keeps out other programs.
pub async fn serve_http(
    server: TextServer,
    config: HttpConfig,
    listening: impl FnOnce(SocketAddr),
) -> Result<(), String> {
    let addr = config.addr;
    let mut hosts = vec![
        "localhost".to_string(),
        "127.0.0.1".to_string(),
        "::1".to_string(),
    ];
    if !addr.ip().is_loopback() && !addr.ip().is_unspecified() {
        hosts.push(addr.ip().to_string());
    }
    hosts.extend(config.extra_hosts.iter().cloned());
    let cancel = tokio_util::sync::CancellationToken::new();
    // A browser names the page that sent a request in `Origin`: only pages
    // served from these same hosts may call (the MCP spec asks servers to
    // check it); clients that are not browsers send no Origin and pass.
    let origins: Vec<String> = hosts
        .iter()
        .flat_map(|h| {
            let h = if h.contains(':') && !h.starts_with('[') {
                format!("[{h}]")
            } else {
                h.clone()
            };
            [format!("http://{h}:*"), format!("https://{h}:*")]
        })
        .collect();
    let mut service_config = StreamableHttpServerConfig::default()
        .with_allowed_hosts(hosts)
        .with_allowed_origins(origins)
        .enforce_origin_validation();
    service_config.cancellation_token = cancel.child_token();
    service_config.max_request_body_bytes = config.max_request;
    let calls = server.calls();
    let factory = move || Ok(server.for_new_session());
    let mut sessions = LocalSessionManager::default();
    sessions.session_config.keep_alive = Some(SESSION_IDLE);
    let sessions = Arc::new(sessions);
    let gate = Arc::new(Gate {
        sessions: sessions.clone(),
        max_sessions: config.max_sessions,
        max_body: config.max_request,
        opening: tokio::sync::Mutex::new(()),
    });
    let service = StreamableHttpService::new(factory, sessions, service_config);
    let router = axum::Router::new()
        .nest_service("/mcp", service)
        .layer(axum::middleware::from_fn_with_state(gate, check_message))
        .layer(axum::middleware::from_fn(super::connections::mark_trusted))
        .layer(axum::middleware::from_fn_with_state(
            Arc::new(config.auth),
            require_token,
        ));
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    let mut limits = config.connections;
    limits.max_open = super::connections::connection_limit();
    let stop = shutdown_requested();
    listening(listener.local_addr().unwrap_or(addr));
    let stopping = tokio_util::sync::CancellationToken::new();
    let serving =
        super::connections::serve(listener, router, limits, stopping.clone(), ANSWER_GRACE);
    tokio::pin!(serving);
    tokio::select! {
        () = &mut serving => return Ok(()),
        () = stop => {}
    }
    // Connections are still served while the calls under way finish.
    let drain = async {
        calls.log_stopping();
        if !calls.close_and_wait(DRAIN_LIMIT).await {
            tracing::warn!(
                "{} call(s) still running after {} s; their clients will get no answer, but each edit either lands whole or not at all",
                calls.running(),
                DRAIN_LIMIT.as_secs()
            );
        }
        tokio::time::sleep(ANSWER_GRACE).await;
    };
    tokio::select! {
        () = &mut serving => return Ok(()),
        () = drain => {}
    }
    cancel.cancel();
    stopping.cancel();
    serving.await;
    Ok(())
}

#[cfg(unix)]
pub(crate) fn shutdown_requested() -> impl std::future::Future<Output = ()> + Send + 'static {
    use tokio::signal::unix::{SignalKind, signal};
    let interrupt = signal(SignalKind::interrupt());
    let terminate = signal(SignalKind::terminate());
    async move {
        match (interrupt, terminate) {
            (Ok(mut interrupt), Ok(mut terminate)) => {
                tokio::select! {
                    _ = interrupt.recv() => {}
                    _ = terminate.recv() => {}
                }
            }
            (Ok(mut interrupt), Err(error)) => {
                tracing::warn!("SIGTERM will not stop the server cleanly: {error}");
                interrupt.recv().await;
            }
            (Err(error), _) => {
                // Without a handler the default action still ends the
                // process, so keep serving rather than stop at once.
                tracing::warn!("Ctrl-C will not stop the server cleanly: {error}");
                std::future::pending::<()>().await;
            }
        }
    }
}

/// Waits for Ctrl-C.
#[cfg(not(unix))]
pub(crate) fn shutdown_requested() -> impl std::future::Future<Output = ()> + Send + 'static {
    async {
        if let Err(error) = tokio::signal::ctrl_c().await {
            tracing::warn!("Ctrl-C will not stop the server cleanly: {error}");
            std::future::pending::<()>().await;
        }
    }
}

/// What the body check needs: the limits and the live sessions.
struct Gate {
    sessions: Arc<LocalSessionManager>,
    max_sessions: usize,
    max_body: usize,
    /// Held while a session opens, so that two opening at once cannot both
    /// take the last place.
    opening: tokio::sync::Mutex<()>,
}

/// A response carrying a JSON-RPC message.
fn json_reply(status: StatusCode, reply: Value) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        reply.to_string(),
    )
        .into_response()
}

/// Answers a POSTed JSON body that is too large or no message (see
/// [`incoming`]), or that would open a session past the limit, with a
/// JSON-RPC error the client can act on, where the SDK would send a bare
/// HTTP 413 or 415 or "method not found"; passes everything else on.
async fn check_message(State(gate): State<Arc<Gate>>, request: Request, next: Next) -> Response {
    let json = request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.starts_with("application/json"));
    if request.method() != Method::POST || !json {
        return next.run(request).await;
    }
    let too_large = |size: Option<u64>| {
        let size = size.map_or(String::new(), |s| format!(" ({s} bytes)"));
        let message = format!(
            "Invalid request: the request body{size} is over the server's limit of {} (--max-request-size), so it was not read. Send less at once, e.g. edit a large file in parts",
            super::limits::show_size(gate.max_body)
        );
        json_reply(
            StatusCode::PAYLOAD_TOO_LARGE,
            incoming::error_reply(Value::Null, -32600, message),
        )
    };
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > gate.max_body as u64) {
        return too_large(declared);
    }
    let (parts, body) = request.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, gate.max_body).await else {
        return too_large(None);
    };
    // The parsed message is dropped before the SDK parses the body again,
    // so a large request is held twice at most, not three times.
    let opens_session = match incoming::check(&bytes) {
        Checked::Message(message) => match &*message {
            JsonRpcMessage::Request(r)
                if matches!(r.request, ClientRequest::InitializeRequest(_))
                    && !parts.headers.contains_key("mcp-session-id") =>
            {
                Some(serde_json::to_value(&r.id).unwrap_or(Value::Null))
            }
            _ => None,
        },
        // Bad params of a well-formed request are an answer to that request.
        Checked::Refused(reply) if reply["error"]["code"] == -32602 => {
            return json_reply(StatusCode::OK, reply);
        }
        Checked::Refused(reply) => return json_reply(StatusCode::BAD_REQUEST, reply),
    };
    let request = Request::from_parts(parts, Body::from(bytes));
    let Some(id) = opens_session else {
        return next.run(request).await;
    };
    let _opening = gate.opening.lock().await;
    let live = gate.sessions.sessions.read().await.len();
    if live >= gate.max_sessions {
        tracing::warn!("refused a new HTTP session: {live} are open, the limit");
        let message = format!(
            "Server busy: {live} sessions are open, the most this server allows (--http-max-sessions {}). A session ends when its client closes it (HTTP DELETE) or after {} minutes without requests; try again later, or ask the operator to raise --http-max-sessions",
            gate.max_sessions,
            SESSION_IDLE.as_secs() / 60
        );
        let mut response = json_reply(
            StatusCode::SERVICE_UNAVAILABLE,
            incoming::error_reply(id, -32000, message),
        );
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from_static("30"));
        return response;
    }
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses() {
        assert_eq!(parse_addr("8080").unwrap().to_string(), "127.0.0.1:8080");
        assert_eq!(parse_addr(":9000").unwrap().to_string(), "127.0.0.1:9000");
        assert_eq!(
            parse_addr("localhost:81").unwrap().to_string(),
            "127.0.0.1:81"
        );
        assert_eq!(parse_addr("[::1]:81").unwrap().to_string(), "[::1]:81");
        assert!(parse_addr("nowhere").is_err());
    }
}
