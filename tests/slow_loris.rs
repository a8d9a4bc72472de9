//! Connections that send part of a request header and then nothing, as a
//! slow-loris attacker opens them, next to a client that holds the token:
//! the partial ones are closed (after the header timeout, or sooner to make
//! room), and the token holder is answered all the same. The stress command
//! with 1,000 such connections is `cargo bench --bench slow_loris`.

mod client;

use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use client::{HttpServer, TOKEN, call, http_client, success};
use serde_json::json;

/// Opens a connection and sends the start of a request, without its end.
fn partial(server: &HttpServer) -> TcpStream {
    let mut stream = TcpStream::connect(server.addr).unwrap();
    stream
        .write_all(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: appl")
        .unwrap();
    stream
}

/// Whether the server closed (or answered) the connection within `limit`.
fn closed_within(stream: &mut TcpStream, limit: Duration) -> bool {
    stream.set_read_timeout(Some(limit)).unwrap();
    let mut buf = [0u8; 512];
    match stream.read(&mut buf) {
        // Closed (0 bytes), or answered: either way not left hanging.
        Ok(0) | Ok(_) => true,
        Err(e) => !matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut),
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn partial_headers_are_closed_and_the_token_holder_gets_in() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.md"), "hello\n").unwrap();
    let server = HttpServer::start_with(
        dir.path(),
        "127.0.0.1:0",
        &[
            "--http-token",
            TOKEN,
            "--http-header-timeout",
            "2",
            "--http-max-pending",
            "4",
        ],
    );
    // Ten idle partial connections: more than the four allowed to wait.
    let mut idle: Vec<TcpStream> = (0..10).map(|_| partial(&server)).collect();
    // The oldest six were closed to make room for the newest four.
    for (i, stream) in idle.iter_mut().take(6).enumerate() {
        assert!(
            closed_within(stream, Duration::from_secs(5)),
            "partial connection {i} is still open"
        );
    }

    // The token holder connects and is served while the newest wait.
    let client = http_client(&server.url()).await;
    let read = success(
        &call(
            &client,
            "TextInspect",
            json!({"filePath": "a.md", "mode": "lines", "query": "1"}),
        )
        .await,
    );
    assert_eq!(read["lines"][0]["text"], "hello");

    // The rest are closed by the header timeout; none stays open.
    for (i, stream) in idle.iter_mut().enumerate().skip(6) {
        assert!(
            closed_within(stream, Duration::from_secs(10)),
            "partial connection {i} was never closed:\n{}",
            server.log()
        );
    }
    // The token holder's session goes on.
    let read = success(
        &call(
            &client,
            "TextInspect",
            json!({"filePath": "a.md", "mode": "lines", "query": "1"}),
        )
        .await,
    );
    assert_eq!(read["lines"][0]["text"], "hello");
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_connection_without_the_token_does_not_stay_open() {
    let dir = tempfile::tempdir().unwrap();
    let server = HttpServer::start_with(
        dir.path(),
        "127.0.0.1:0",
        &["--http-token", TOKEN, "--http-header-timeout", "1"],
    );
    // A whole request without the token is answered 401; the connection
    // then idles, and is closed once the header timeout passes for the next
    // request that never comes.
    let mut stream = TcpStream::connect(server.addr).unwrap();
    stream
        .write_all(b"GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        .unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut answer = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match stream.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => answer.extend_from_slice(&buf[..n]),
            Err(e) => panic!(
                "the connection stayed open: {e}; got so far: {}",
                String::from_utf8_lossy(&answer)
            ),
        }
    }
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 401"), "{answer}");
}
