//! Kills at random moments of a write: runs `mcp-server-text call` with a
//! TextReplace or an edit_code on a 20 MB file (100 times) and a 50 MB file
//! (60 times), sends each process SIGKILL after a random delay, and checks
//! the file after every kill: it must hold exactly its old bytes or exactly
//! its new ones (a torn file holds anything else), and nothing else may be
//! left in its folder or in the edit history's folder but whole records.
//! Prints the counts and the bytes left behind.
//!
//! `cargo bench --bench kill_write [-- KILLS_20MB KILLS_50MB]`; with
//! `KILL_WRITE_BIN=path` it kills that build of the server instead (to
//! compare with another version).

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use mcp_server_text::workspace::history::HISTORY_DIR;

/// The server this build made, unless `KILL_WRITE_BIN` names another.
fn bin() -> String {
    std::env::var("KILL_WRITE_BIN")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_mcp-server-text").to_string())
}

/// A text file of about `bytes` bytes holding `token` once, near its middle.
fn content(bytes: usize, token: &str) -> Vec<u8> {
    let line = "Some ordinary prose, long enough to look like a paragraph of notes.\n";
    let half = bytes / 2 / line.len();
    let mut out = line.repeat(half);
    out.push_str(token);
    out.push('\n');
    out.push_str(&line.repeat(half));
    out.into_bytes()
}

/// Kills fall anywhere in this many times an unkilled call's duration: the
/// machine may be slower while the kills run than while it was timed, and a
/// call that ends before its kill is simply not counted.
const SPREAD: f64 = 2.0;

fn token(k: usize) -> String {
    format!("TOKEN-{k:06}-END")
}

/// The call that turns token `k` into token `k + 1`.
fn call(dir: &Path, k: usize) -> Command {
    let args = if k % 4 == 3 {
        serde_json::json!({"file_path": "big.txt", "search_context": token(k), "new_content": token(k + 1)})
    } else {
        serde_json::json!({"filePath": "big.txt", "oldText": token(k), "newText": token(k + 1)})
    };
    let tool = if k % 4 == 3 {
        "edit_code"
    } else {
        "TextReplace"
    };
    let mut command = Command::new(bin());
    command
        .arg("call")
        .arg(tool)
        .arg(args.to_string())
        .arg("--root")
        .arg(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    command
}

struct Tally {
    kills: usize,
    finished_first: usize,
    old: usize,
    new: usize,
    torn: usize,
    leftover_files: usize,
    leftover_bytes: u64,
}

fn run(size_mb: usize, kills: usize) -> Tally {
    let dir = tempfile::tempdir().unwrap();
    let bytes = size_mb * 1024 * 1024;
    let file = dir.path().join("big.txt");
    let mut k = 0;
    let mut old = content(bytes, &token(k));
    std::fs::write(&file, &old).unwrap();

    // How long an unkilled call takes: the delays are spread over it.
    let mut durations = Vec::new();
    for _ in 0..3 {
        let started = Instant::now();
        let status = call(dir.path(), k).status().unwrap();
        assert!(status.success(), "an unkilled call succeeds");
        durations.push(started.elapsed());
        k += 1;
        old = content(bytes, &token(k));
        assert_eq!(std::fs::read(&file).unwrap(), old);
    }
    let typical = durations
        .iter()
        .max()
        .copied()
        .unwrap_or(Duration::from_millis(100));
    println!(
        "{size_mb} MB: an unkilled call takes {:.0} ms; kills fall in 0..{:.0} ms",
        typical.as_secs_f64() * 1000.0,
        typical.as_secs_f64() * 1000.0 * SPREAD
    );

    let mut tally = Tally {
        kills: 0,
        finished_first: 0,
        old: 0,
        new: 0,
        torn: 0,
        leftover_files: 0,
        leftover_bytes: 0,
    };
    while tally.kills < kills {
        let new = content(bytes, &token(k + 1));
        let delay = typical.mul_f64(fastrand::f64() * SPREAD);
        let mut child = call(dir.path(), k).spawn().unwrap();
        std::thread::sleep(delay);
        if child.try_wait().unwrap().is_some() {
            tally.finished_first += 1;
        } else {
            rustix::process::kill_process(
                rustix::process::Pid::from_child(&child),
                rustix::process::Signal::KILL,
            )
            .unwrap();
            tally.kills += 1;
        }
        child.wait().unwrap();
        let now = std::fs::read(&file).unwrap();
        if now == new {
            tally.new += 1;
            k += 1;
            old = new;
        } else if now == old {
            tally.old += 1;
        } else {
            tally.torn += 1;
            std::fs::write(&file, &old).unwrap();
        }
        // The edit history's folder holds whole records (`*.rec`, linked
        // under their name only once written); anything else, there or next
        // to the file, was left behind.
        let history = dir.path().join(HISTORY_DIR);
        let entries = std::fs::read_dir(dir.path()).unwrap().flatten();
        let records = std::fs::read_dir(&history).into_iter().flatten().flatten();
        for entry in entries.chain(records) {
            let name = entry.file_name();
            let expected = if entry.path().parent() == Some(history.as_path()) {
                // Records, the folder's .gitignore, and the (empty) folder of
                // intent records of changes of several files.
                name.to_string_lossy().ends_with(".rec")
                    || name == ".gitignore"
                    || (name == "intents"
                        && std::fs::read_dir(entry.path()).is_ok_and(|mut d| d.next().is_none()))
            } else {
                name == "big.txt" || name == HISTORY_DIR
            };
            if !expected {
                tally.leftover_files += 1;
                tally.leftover_bytes += entry.metadata().map(|m| m.len()).unwrap_or(0);
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
    tally
}

fn main() {
    println!("server: {}", bin());
    let numbers: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let plan = [
        (20, numbers.first().copied().unwrap_or(100)),
        (50, numbers.get(1).copied().unwrap_or(60)),
    ];
    let mut torn = 0;
    let mut leftovers = 0;
    for (size_mb, kills) in plan {
        let t = run(size_mb, kills);
        println!(
            "{size_mb} MB: {} kills ({} calls finished before their kill and were not counted): file old {} times, new {} times, torn {}; leftover files {}, leftover bytes {}",
            t.kills, t.finished_first, t.old, t.new, t.torn, t.leftover_files, t.leftover_bytes
        );
        torn += t.torn;
        leftovers += t.leftover_files;
    }
    println!("kill_write: {torn} torn files, {leftovers} leftover files");
}
