//! Where the time of a large-file TextReplace goes, step by step, next to
//! the I/O floor plus one fsync, in one run.
//!
//! Run with `cargo bench --bench edit_steps` (add `-- 10` for 10 MB only).
//! For a generated note of 10 and 50 MB it times, as medians of 7 runs, a
//! one-word TextReplace near the end of the file:
//!
//! - read: the workspace's read of the file (open beneath the root, read,
//!   UTF-8 check, decode, then the hash and the line index side by side on
//!   two threads);
//! - hash: the file's `fileHash` (SHA-256 of its bytes) alone, for scale: it
//!   is part of read;
//! - plan: finding `oldText` and building the new text;
//! - write + fsync: the rest of a call without the edit history (lock, the
//!   `expectedHash` check, staging the new bytes, fsync, rename, the reply),
//!   that is the whole call less the three steps above;
//! - history: a call with the edit history less one without it;
//! - the whole call, with the history (the default);
//!
//! and the floor: `std::fs::read`, the replacement in a `String`, writing a
//! temp file beside it and renaming it over the file, with and without an
//! fsync of the temp file before the rename. It prints the ratio of the
//! whole call to floor + fsync. The steps measured by difference carry the
//! noise of both calls they come from.

use std::io::Write;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use mcp_server_text::text::hash::file_hash;
use mcp_server_text::tools::context::{Settings, ToolContext};
use mcp_server_text::tools::registry::Registry;
use mcp_server_text::tools::replacement::{Occurrence, plan_replace};
use mcp_server_text::tools::tool::Toolset;
use mcp_server_text::workspace::history::HistoryOptions;
use mcp_server_text::workspace::{Workspace, WorkspaceOptions};
use serde_json::json;

const RUNS: usize = 7;

fn main() {
    let sizes: Vec<usize> = match std::env::args().nth(1).filter(|a| a != "--bench") {
        Some(mb) => vec![mb.parse().expect("size in MB")],
        None => vec![10, 50],
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let root = std::fs::canonicalize(dir.path()).unwrap();
    let context = |history: HistoryOptions| {
        let options = WorkspaceOptions {
            history,
            ..WorkspaceOptions::default()
        };
        let workspace = Arc::new(Workspace::new(vec![root.clone()], options).unwrap());
        ToolContext::new(workspace, Arc::new(Settings::default()))
    };
    let with_history = context(HistoryOptions::default());
    let without_history = context(HistoryOptions::off());
    let registry = Registry::new(&Toolset::ALL, false);

    println!(
        "{:<6} {:>8} {:>8} {:>8} {:>14} {:>9} {:>10} {:>8} {:>14} {:>13}",
        "size",
        "read",
        "(hash)",
        "plan",
        "write + fsync",
        "history",
        "TextReplace",
        "floor",
        "floor + fsync",
        "ratio (fsync)"
    );
    for mb in sizes {
        let name = format!("note-{mb}mb.md");
        let path = root.join(&name);
        generate(&path, mb << 20);
        // Each call swaps the two words, so the file keeps its size.
        let mut word = 1;
        let mut swap = || {
            word = 1 - word;
            let (old, new) = [("compost-a", "compost-b"), ("compost-b", "compost-a")][word];
            json!({"filePath": name, "oldText": old, "newText": new})
        };

        let read = median(|| {
            let started = Instant::now();
            let file = with_history.workspace.read(&name, None).unwrap();
            let took = started.elapsed();
            drop(file);
            took
        });
        let bytes = std::fs::read(&path).unwrap();
        let hash = median(|| {
            let started = Instant::now();
            std::hint::black_box(file_hash(&[&bytes]));
            started.elapsed()
        });
        drop(bytes);
        let file = with_history.workspace.read(&name, None).unwrap();
        let old = if file.doc.text().contains("compost-a") {
            "compost-a"
        } else {
            "compost-b"
        };
        let plan = median(|| {
            let started = Instant::now();
            let planned =
                plan_replace(&file.doc, old, "compost-c", Some(Occurrence::First), &name).unwrap();
            let took = started.elapsed();
            drop(planned);
            took
        });
        drop(file);
        let call = |ctx: &ToolContext, swap: &mut dyn FnMut() -> serde_json::Value| {
            let args = swap();
            let started = Instant::now();
            registry.call(ctx, "TextReplace", args).unwrap();
            started.elapsed()
        };
        let bare = median(|| call(&without_history, &mut swap));
        let whole = median(|| call(&with_history, &mut swap));

        let temp = root.join(format!(".{name}.floor"));
        let floor_once = |sync: bool| {
            let started = Instant::now();
            let text = String::from_utf8(std::fs::read(&path).unwrap()).unwrap();
            // One forward scan for the word, as the tool makes, then the swap.
            let at = text.find("compost-").unwrap() + "compost-".len();
            let swapped = if &text[at..at + 1] == "a" { "b" } else { "a" };
            let replaced = [&text[..at], swapped, &text[at + 1..]].concat();
            let mut out = std::fs::File::create(&temp).unwrap();
            out.write_all(replaced.as_bytes()).unwrap();
            if sync {
                out.sync_all().unwrap();
            }
            drop(out);
            std::fs::rename(&temp, &path).unwrap();
            started.elapsed()
        };
        let floor = median(|| floor_once(false));
        let floor_fsync = median(|| floor_once(true));

        let write = bare.saturating_sub(read + plan);
        let history = whole.saturating_sub(bare);
        println!(
            "{:<6} {:>8} {:>8} {:>8} {:>14} {:>9} {:>10} {:>8} {:>14} {:>12.2}x",
            format!("{mb} MB"),
            ms(read),
            ms(hash),
            ms(plan),
            ms(write),
            ms(history),
            ms(whole),
            ms(floor),
            ms(floor_fsync),
            whole.as_secs_f64() / floor_fsync.as_secs_f64()
        );
    }
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1e3)
}

/// The median of [`RUNS`] timings, after one run that warms the cache.
fn median(mut run: impl FnMut() -> Duration) -> Duration {
    run();
    let mut times: Vec<Duration> = (0..RUNS).map(|_| run()).collect();
    times.sort();
    times[RUNS / 2]
}

/// A Markdown note of about `size` bytes: sections of prose, with the word
/// the benchmark replaces once, near the end.
fn generate(path: &Path, size: usize) {
    let mut text = String::with_capacity(size + 4096);
    let mut section = 0;
    while text.len() < size {
        section += 1;
        text.push_str(&format!("\n## Section {section}\n\n"));
        for line in 0..20 {
            text.push_str(&format!(
                "Line {line} of section {section}: the beds were watered and the seedlings noted.\n"
            ));
        }
    }
    text.push_str("\n## Last\n\nThe last word on compost-a.\n");
    std::fs::write(path, text).unwrap();
}
