//! MCP over streamable HTTP at `/mcp`, for several clients at once.
//!
//! Each client session gets its own server value (so roots a client offers
//! apply to that client only), and all share the per-file locks, so edits of
//! one file from different clients are still serialized.

use std::net::SocketAddr;
use std::sync::Arc;

use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};

use axum::body::Body;
use axum::extract::Request;
use axum::http::{Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::incoming::{self, Checked};
use super::mcp::TextServer;

/// How long a shutdown waits for running calls: longer than an edit normally
/// takes, shorter than the patience of whoever pressed Ctrl-C.
pub(crate) const DRAIN_LIMIT: std::time::Duration = std::time::Duration::from_secs(10);

/// How long a shutdown waits, after the last call returned, for its answer
/// to be sent.
pub(crate) const ANSWER_GRACE: std::time::Duration = std::time::Duration::from_millis(200);

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

/// Serves `server` over streamable HTTP on `addr` until Ctrl-C (or, on Unix,
/// SIGTERM). `listening` is told the address actually bound, which differs
/// from `addr` when it asks for port 0.
///
/// Requests must name this machine in their `Host` header: loopback names,
/// the bound address, and `extra_hosts` (`--allowed-host`); a request from a
/// browser must come from a page on one of those hosts (`Origin`). That keeps
/// a web page from reaching the server through DNS rebinding or a
/// cross-site request.
pub async fn serve_http(
    server: TextServer,
    addr: &str,
    extra_hosts: &[String],
    listening: impl FnOnce(SocketAddr),
) -> Result<(), String> {
    let addr = parse_addr(addr)?;
    let mut hosts = vec![
        "localhost".to_string(),
        "127.0.0.1".to_string(),
        "::1".to_string(),
    ];
    if !addr.ip().is_loopback() && !addr.ip().is_unspecified() {
        hosts.push(addr.ip().to_string());
    }
    hosts.extend(extra_hosts.iter().cloned());
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
    let mut config = StreamableHttpServerConfig::default()
        .with_allowed_hosts(hosts)
        .with_allowed_origins(origins)
        .enforce_origin_validation();
    config.cancellation_token = cancel.child_token();
    let calls = server.calls();
    let factory = move || Ok(server.for_new_session());
    let service =
        StreamableHttpService::new(factory, Arc::new(LocalSessionManager::default()), config);
    let router = axum::Router::new()
        .nest_service("/mcp", service)
        .layer(axum::middleware::from_fn(check_message));
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    let stop = shutdown_requested();
    listening(listener.local_addr().unwrap_or(addr));
    axum::serve(listener, router)
        .with_graceful_shutdown(async move {
            stop.await;
            super::cli::log_stopping(calls.running());
            // Calls under way finish and are answered while their sessions
            // still exist; new ones are turned away unrun.
            if !calls.close_and_wait(DRAIN_LIMIT).await {
                tracing::warn!(
                    "{} call(s) still running after {} s; their clients will get no answer, but each edit either lands whole or not at all",
                    calls.running(),
                    DRAIN_LIMIT.as_secs()
                );
            }
            // A call's answer still passes through the session's queue to
            // its HTTP response after the call returns; ending the session
            // at once can drop the last answers.
            tokio::time::sleep(ANSWER_GRACE).await;
            // Ends the sessions' event streams, which would otherwise keep
            // their connections, and so the graceful shutdown, open forever.
            cancel.cancel();
        })
        .await
        .map_err(|e| format!("the HTTP server stopped: {e}"))
}

/// Waits for Ctrl-C, or on Unix also SIGTERM (what service managers send).
/// The handlers are in place once this returns, before the future is first
/// polled, so a signal sent right after the startup text is not missed.
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

/// Largest request body read, as the SDK's own limit.
const MAX_BODY: usize = 4 << 20;

/// Answers a POSTed JSON body that is no message (see [`incoming`]) with a
/// JSON-RPC error the client can act on, where the SDK would send a bare
/// HTTP 415 or "method not found"; passes everything else on.
async fn check_message(request: Request, next: Next) -> Response {
    let json = request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.starts_with("application/json"));
    if request.method() != Method::POST || !json {
        return next.run(request).await;
    }
    let (parts, body) = request.into_parts();
    let json_reply = |status: StatusCode, reply: serde_json::Value| {
        (
            status,
            [(header::CONTENT_TYPE, "application/json")],
            reply.to_string(),
        )
            .into_response()
    };
    let bytes = match axum::body::to_bytes(body, MAX_BODY).await {
        Ok(bytes) => bytes,
        Err(_) => {
            let message = format!(
                "the request body is over the limit of {} MiB",
                MAX_BODY >> 20
            );
            let reply = incoming::error_reply(serde_json::Value::Null, -32600, message);
            return json_reply(StatusCode::PAYLOAD_TOO_LARGE, reply);
        }
    };
    match incoming::check(&bytes) {
        Checked::Message(_) => {
            next.run(Request::from_parts(parts, Body::from(bytes)))
                .await
        }
        // Bad params of a well-formed request are an answer to that request.
        Checked::Refused(reply) if reply["error"]["code"] == -32602 => {
            json_reply(StatusCode::OK, reply)
        }
        Checked::Refused(reply) => json_reply(StatusCode::BAD_REQUEST, reply),
    }
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
