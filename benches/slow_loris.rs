//! Slow-loris against the HTTP server: opens idle connections that send part
//! of a request header and then nothing, holds them open, and meanwhile
//! times a token holder's calls, each on a fresh session (initialize, then a
//! TextInspect), as a new client would. Prints the connections opened, how
//! many the server had closed by the end, and the token holder's latencies;
//! exits with status 1 if any call took 1 s or more, or failed.
//!
//! `cargo bench --bench slow_loris [-- CONNECTIONS [CALLS]]` (1,000 and 20)
//!
//! The bench raises its own open-file soft limit to the hard limit, so it
//! can hold the connections; the server raises its own as well.
//! `SLOW_LORIS_SERVER_FILES=N` then lowers the server's limit to N files
//! once it runs, so that it runs out of descriptors with the connections
//! open (as a server started with a low `ulimit -n` would).

#[path = "../tests/client/mod.rs"]
mod client;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use client::{HttpServer, call, http_client, success};
use serde_json::json;

fn raise_descriptor_limit() -> u64 {
    use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};
    let limit = getrlimit(Resource::Nofile);
    let _ = setrlimit(
        Resource::Nofile,
        Rlimit {
            current: limit.maximum,
            maximum: limit.maximum,
        },
    );
    getrlimit(Resource::Nofile).current.unwrap_or(u64::MAX)
}

/// Whether the server has answered or closed the connection.
fn answered_or_closed(stream: &mut TcpStream) -> bool {
    let _ = stream.set_nonblocking(true);
    let mut buf = [0u8; 64];
    match stream.read(&mut buf) {
        // Closed (0 bytes), or answered: either way not left hanging.
        Ok(0) | Ok(_) => true,
        Err(e) => e.kind() != std::io::ErrorKind::WouldBlock,
    }
}

fn main() {
    let mut numbers = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse::<usize>().ok());
    let connections = numbers.next().unwrap_or(1_000);
    let calls = numbers.next().unwrap_or(20);
    let limit = raise_descriptor_limit();
    println!(
        "slow_loris: {connections} idle partial connections, {calls} calls; this process may open {limit} files"
    );

    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.md"), "hello\n").unwrap();
    let server = HttpServer::start(dir.path(), "127.0.0.1:0");
    if let Some(files) = std::env::var("SLOW_LORIS_SERVER_FILES")
        .ok()
        .and_then(|n| n.parse::<u64>().ok())
    {
        let pid = rustix::process::Pid::from_raw(server.pid() as i32);
        let low = rustix::process::Rlimit {
            current: Some(files),
            maximum: Some(files),
        };
        rustix::process::prlimit(pid, rustix::process::Resource::Nofile, low)
            .expect("lower the server's open-file limit");
        println!("the server may open {files} files");
    }

    let opened = Instant::now();
    let mut idle = Vec::with_capacity(connections);
    let mut refused = 0;
    for _ in 0..connections {
        match TcpStream::connect(server.addr) {
            Ok(mut stream) => {
                let _ = stream.write_all(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthoriz");
                idle.push(stream);
            }
            Err(_) => refused += 1,
        }
    }
    println!(
        "opened {} in {:.2} s ({refused} refused by the system)",
        idle.len(),
        opened.elapsed().as_secs_f64()
    );

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let mut latencies = Vec::with_capacity(calls);
    let mut failures = 0;
    for _ in 0..calls {
        let started = Instant::now();
        let ok = runtime.block_on(async {
            let attempt = tokio::time::timeout(Duration::from_secs(30), async {
                let client = http_client(&server.url()).await;
                let read = success(
                    &call(
                        &client,
                        "TextInspect",
                        json!({"filePath": "a.md", "mode": "lines", "query": "1"}),
                    )
                    .await,
                );
                let _ = client.cancel().await;
                read["lines"][0]["text"] == "hello"
            });
            attempt.await.unwrap_or(false)
        });
        latencies.push(started.elapsed());
        if !ok {
            failures += 1;
        }
        // More idle connections arrive meanwhile, as an attacker would keep
        // opening them.
        for _ in 0..connections / calls.max(1) {
            if let Ok(mut stream) = TcpStream::connect(server.addr) {
                let _ = stream.write_all(b"GET /mcp HTTP/1.1\r\nHo");
                idle.push(stream);
            }
        }
    }

    let closed = idle
        .iter_mut()
        .map(answered_or_closed)
        .filter(|&c| c)
        .count();
    latencies.sort();
    let ms = |d: &Duration| d.as_secs_f64() * 1000.0;
    let median = latencies.get(latencies.len() / 2).map_or(0.0, ms);
    let worst = latencies.last().map_or(0.0, ms);
    println!(
        "{} idle connections opened in all; {closed} closed by the server by the end",
        idle.len()
    );
    println!(
        "token holder: {calls} calls (a new session each), median {median:.1} ms, worst {worst:.1} ms, {failures} failed"
    );
    let pass = failures == 0 && worst < 1000.0;
    println!("{}", if pass { "PASS" } else { "FAIL" });
    drop(idle);
    drop(server);
    if !pass {
        std::process::exit(1);
    }
}
