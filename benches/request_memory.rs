//! Peak memory of the server when a client sends a huge argument over stdio:
//! a TextSearch and a TextInspect query of 4 MiB, 60 MB and 100 MB, each to
//! a fresh server process. Prints the reply and the process's peak resident
//! memory (`VmHWM` from `/proc/PID/status`, Linux only).
//!
//! ```sh
//! cargo bench --bench request_memory
//! MCP_TEXT_BIN=path/to/other/mcp-server-text cargo bench --bench request_memory   # another build
//! ```
//!
//! The server runs under an address-space limit (`MEMORY_LIMIT_MB`, default
//! 4096) so that a build without input bounds dies instead of exhausting the
//! machine; such a run prints "the server died".

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn main() {
    if !cfg!(target_os = "linux") {
        eprintln!("request_memory reads /proc and runs on Linux only");
        return;
    }
    let bin = std::env::var("MCP_TEXT_BIN")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_mcp-server-text").to_string());
    let limit_mb: u64 = std::env::var("MEMORY_LIMIT_MB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(4096);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("note.md"), "# Note\n\nsome text\n").unwrap();
    println!("server: {bin}");
    println!("address-space limit: {limit_mb} MB");
    println!(
        "{:<12} {:>10} {:>12} {:>9}  reply",
        "tool", "query", "peak RSS", "seconds"
    );
    for tool in ["TextSearch", "TextInspect"] {
        for size in [4usize << 20, 60_000_000, 100_000_000] {
            let (peak, seconds, reply) = run(&bin, limit_mb, dir.path(), tool, size);
            println!(
                "{tool:<12} {:>8} MB {:>9} MB {seconds:>9.2}  {reply}",
                size / 1_000_000,
                peak.map_or("?".to_string(), |kb| (kb / 1024).to_string()),
            );
        }
    }
}

/// Starts a server, sends one call with a `size`-byte query, and returns the
/// peak RSS in KiB, the seconds until the reply, and the reply's gist.
fn run(
    bin: &str,
    limit_mb: u64,
    root: &std::path::Path,
    tool: &str,
    size: usize,
) -> (Option<u64>, f64, String) {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {}; exec \"$0\" \"$1\"", limit_mb * 1024))
        .arg(bin)
        .arg(root)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the server");
    let pid = child.id();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    writeln!(
        stdin,
        r#"{{"jsonrpc":"2.0","id":1,"method":"initialize","params":{{"protocolVersion":"2025-06-18","capabilities":{{}},"clientInfo":{{"name":"bench","version":"1"}}}}}}"#
    )
    .unwrap();
    stdout.read_line(&mut line).unwrap();
    writeln!(
        stdin,
        r#"{{"jsonrpc":"2.0","method":"notifications/initialized"}}"#
    )
    .unwrap();
    let arguments = match tool {
        "TextInspect" => format!(
            r#"{{"filePath":"note.md","mode":"search","query":"{}"}}"#,
            "ab".repeat(size / 2)
        ),
        _ => format!(r#"{{"query":"{}"}}"#, "ab".repeat(size / 2)),
    };
    let call = format!(
        r#"{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{"name":"{tool}","arguments":{arguments}}}}}"#
    );
    drop(arguments);
    let started = Instant::now();
    // Written from a thread: a server that stops reading must not block us.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(call.as_bytes());
        let _ = stdin.write_all(b"\n");
        let _ = stdin.flush();
        stdin
    });
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut reply = String::new();
        let _ = stdout.read_line(&mut reply);
        let _ = tx.send(reply);
    });
    let mut peak = None;
    let reply = loop {
        if let Some(kb) = vm_hwm(pid) {
            peak = Some(kb);
        }
        match rx.recv_timeout(Duration::from_millis(20)) {
            Ok(reply) => break reply,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout)
                if started.elapsed() < Duration::from_secs(300) => {}
            Err(_) => break String::new(),
        }
    };
    let seconds = started.elapsed().as_secs_f64();
    if let Some(kb) = vm_hwm(pid) {
        peak = Some(kb);
    }
    let _ = child.kill();
    let _ = child.wait();
    drop(writer);
    let gist = if reply.is_empty() {
        "the server died or did not answer".to_string()
    } else {
        gist(&reply)
    };
    (peak, seconds, gist)
}

/// The peak resident set of a process, in KiB.
fn vm_hwm(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The error message of a reply, cut short.
fn gist(reply: &str) -> String {
    let value: serde_json::Value = match serde_json::from_str(reply) {
        Ok(v) => v,
        Err(_) => return reply.chars().take(150).collect(),
    };
    let message = if let Some(message) = value["error"]["message"].as_str() {
        format!("JSON-RPC error {}: {message}", value["error"]["code"])
    } else if let Some(text) = value["result"]["content"][0]["text"].as_str() {
        let inner: serde_json::Value = serde_json::from_str(text).unwrap_or_default();
        match inner["message"].as_str() {
            Some(m) => format!("tool error: {m}"),
            None => "tool result".to_string(),
        }
    } else {
        "other reply".to_string()
    };
    message.chars().take(150).collect()
}
