//! Peak memory of the server for a Batch of many operations on one large
//! note: 100 TextPatch inserts spread over a 21 MB note (issue 22 measured
//! 5.2 GB for this), sent over stdio to a fresh server process, written and
//! as a dry run. Prints the reply's gist, the seconds it took and the
//! process's peak resident memory (`VmHWM` from `/proc/PID/status`, Linux
//! only), next to the note's size.
//!
//! ```sh
//! cargo bench --bench batch_memory
//! MCP_TEXT_BIN=path/to/other/mcp-server-text cargo bench --bench batch_memory   # another build
//! ```
//!
//! The server runs under an address-space limit (`MEMORY_LIMIT_MB`, default
//! 8192) so that a build that keeps a copy per operation dies instead of
//! exhausting the machine; such a run prints "the server died".

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// Size of the note.
const NOTE_BYTES: usize = 21 << 20;

/// Operations in the Batch.
const OPERATIONS: usize = 100;

fn main() {
    if !cfg!(target_os = "linux") {
        eprintln!("batch_memory reads /proc and runs on Linux only");
        return;
    }
    let bin = std::env::var("MCP_TEXT_BIN")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_mcp-server-text").to_string());
    let limit_mb: u64 = std::env::var("MEMORY_LIMIT_MB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(8192);
    let dir = tempfile::tempdir().unwrap();
    let line = "Some ordinary prose, long enough to look like a paragraph of notes.\n";
    let lines = NOTE_BYTES / line.len();
    std::fs::write(
        dir.path().join("big.md"),
        format!("# Big\n\n{}", line.repeat(lines)),
    )
    .unwrap();
    println!("server: {bin}");
    println!(
        "note: {:.1} MB, {} lines; {OPERATIONS} TextPatch inserts; address-space limit {limit_mb} MB",
        NOTE_BYTES as f64 / (1 << 20) as f64,
        lines + 2
    );
    for dry_run in [false, true] {
        let operations: Vec<Value> = (0..OPERATIONS)
            .map(|k| {
                // Each operation sees the note as the ones before left it:
                // one line more per insert.
                let at = 3 + k * (lines / OPERATIONS) + k;
                json!({"tool": "TextPatch", "arguments": {
                    "filePath": "big.md",
                    "operation": "insert",
                    "target": {"lines": {"start": at, "end": at}},
                    "content": format!("inserted line {k}\n"),
                }})
            })
            .collect();
        let args = json!({"operations": operations, "dryRun": dry_run});
        let (peak, seconds, gist) = run(&bin, limit_mb, dir.path(), &args);
        println!(
            "Batch {:<8} peak RSS {:>6} MB  {seconds:>6.2} s  {gist}",
            if dry_run { "dry run" } else { "written" },
            peak.map_or("?".to_string(), |kb| (kb / 1024).to_string()),
        );
    }
}

/// Starts a server on `root`, sends one Batch call with `args`, and returns
/// its peak RSS in KiB, the seconds until the reply, and the reply's gist.
fn run(bin: &str, limit_mb: u64, root: &Path, args: &Value) -> (Option<u64>, f64, String) {
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
    let messages = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "batch-memory", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "Batch", "arguments": args}}),
    ];
    let mut reply = String::new();
    writeln!(stdin, "{}", messages[0]).unwrap();
    stdout.read_line(&mut reply).unwrap();
    writeln!(stdin, "{}", messages[1]).unwrap();
    writeln!(stdin, "{}", messages[2]).unwrap();
    stdin.flush().unwrap();
    let started = Instant::now();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut reply = String::new();
        let _ = stdout.read_line(&mut reply);
        let _ = tx.send(reply);
    });
    let mut peak = None;
    let reply = loop {
        peak = vm_hwm(pid).or(peak);
        match rx.recv_timeout(Duration::from_millis(20)) {
            Ok(reply) => break reply,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout)
                if started.elapsed() < Duration::from_secs(600) => {}
            Err(_) => break String::new(),
        }
    };
    let seconds = started.elapsed().as_secs_f64();
    peak = vm_hwm(pid).or(peak);
    drop(stdin);
    let _ = child.kill();
    let _ = child.wait();
    (peak, seconds, gist(&reply))
}

/// The peak resident set of a process, in KiB.
fn vm_hwm(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Whether the Batch succeeded, or its error, cut short.
fn gist(reply: &str) -> String {
    if reply.is_empty() {
        return "the server died or did not answer".into();
    }
    let value: Value = serde_json::from_str(reply).unwrap_or_default();
    let text = value["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default();
    let inner: Value = serde_json::from_str(text).unwrap_or_default();
    match value["result"]["isError"].as_bool() {
        Some(false) | None if inner["files"].is_array() => format!(
            "success, {} files",
            inner["files"].as_array().map_or(0, Vec::len)
        ),
        _ => inner["message"]
            .as_str()
            .unwrap_or(reply)
            .chars()
            .take(150)
            .collect(),
    }
}
