//! MCP over streamable HTTP at `/mcp`, for several clients at once.
//!
//! Each client session gets its own server value (so roots a client offers
//! apply to that client only), and all share the per-file locks, so edits of
//! one file from different clients are still serialized.

use std::net::SocketAddr;
use std::sync::Arc;

use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};

use super::mcp::TextServer;

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

/// Serves `server` over streamable HTTP on `addr` until Ctrl-C.
pub async fn serve_http(server: TextServer, addr: &str) -> Result<(), String> {
    let addr = parse_addr(addr)?;
    let mut hosts = vec![
        "localhost".to_string(),
        "127.0.0.1".to_string(),
        "::1".to_string(),
    ];
    if !addr.ip().is_loopback() && !addr.ip().is_unspecified() {
        hosts.push(addr.ip().to_string());
    }
    let cancel = tokio_util::sync::CancellationToken::new();
    let mut config = StreamableHttpServerConfig::default().with_allowed_hosts(hosts);
    config.cancellation_token = cancel.child_token();
    let factory = move || Ok(server.for_new_session());
    let service =
        StreamableHttpService::new(factory, Arc::new(LocalSessionManager::default()), config);
    let router = axum::Router::new().nest_service("/mcp", service);
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    axum::serve(listener, router)
        .with_graceful_shutdown(async move {
            let _ = tokio::signal::ctrl_c().await;
            cancel.cancel();
        })
        .await
        .map_err(|e| format!("the HTTP server stopped: {e}"))
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
