//! The swap race: folders inside the root are swapped, again and again, with
//! symbolic links to look-alike folders outside it (`renameat2` with
//! `RENAME_EXCHANGE`), while tools read, search, list, edit, create, move
//! and remove files in them. Nothing outside may be read or changed.
//!
//! Shared by the short run in `cargo test` (`tests/swap_race.rs`) and the
//! long one (`cargo bench --bench swap_race`).
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use serde_json::{Value, json};

use crate::support::Vault;

/// In every file outside the root, and in no file inside it.
pub const MARKER: &str = "OUTSIDE-c0ffee-4b1d";

/// The folders that are swapped, with the file in each that tools aim at:
/// the file's own folder, and an ancestor three levels up.
const SWAPPED: [(&str, &str); 2] = [("p", "p/f.md"), ("a", "a/b/c/f.md")];

/// What a run did and found.
#[derive(Debug, Default)]
pub struct RaceReport {
    /// Tool calls made, by tool.
    pub calls: BTreeMap<&'static str, usize>,
    /// Calls that succeeded.
    pub succeeded: usize,
    /// Calls that were refused or failed.
    pub refused: usize,
    /// The messages of the refusals, with how often each came.
    pub refusals: BTreeMap<String, usize>,
    /// Swaps done by the swapping threads.
    pub swaps: usize,
    /// Replies that held bytes of a file outside the root.
    pub outside_reads: Vec<String>,
    /// Replies that named the folder outside (where the links lead).
    pub outside_named: Vec<String>,
    /// Files and folders outside that were created, changed or removed.
    pub outside_changes: Vec<String>,
}

impl RaceReport {
    /// Every call made.
    pub fn total(&self) -> usize {
        self.calls.values().sum()
    }
}

/// Everything under `dir`: files with their bytes, folders, links.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, String> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(folder) = stack.pop() {
        for entry in std::fs::read_dir(&folder).unwrap().flatten() {
            let path = entry.path();
            let kind = entry.file_type().unwrap();
            if kind.is_symlink() {
                out.insert(
                    path.clone(),
                    format!("link {:?}", std::fs::read_link(&path)),
                );
            } else if kind.is_dir() {
                out.insert(path.clone(), "folder".into());
                stack.push(path);
            } else {
                out.insert(
                    path.clone(),
                    String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into(),
                );
            }
        }
    }
    out
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// Builds the vault and its look-alike outside folder; returns the outside folder.
fn layout(vault: &Vault) -> PathBuf {
    let outside = vault.outside().join("outside");
    for (folder, file) in SWAPPED {
        let inside = format!("# Note\n\nline one\n<!-- anchor -->\nline two of {file}\n");
        write(&vault.root.join(file), &inside);
        write(&vault.root.join(folder).join("sub/g.md"), "line in g\n");
        let secret = format!("# Note\n\nline one {MARKER}\n<!-- anchor -->\nline two {MARKER}\n");
        write(&outside.join(file), &secret);
        write(
            &outside.join(folder).join("sub/g.md"),
            &format!("line {MARKER}\n"),
        );
        std::os::unix::fs::symlink(
            outside.join(folder),
            vault.root.join(format!("{folder}-out")),
        )
        .unwrap();
    }
    outside
}

/// Swaps `root/name` with `root/name-out` until `stop`, and leaves them as
/// they were. Returns how many swaps it made.
fn swapper(root: PathBuf, name: &'static str, stop: Arc<AtomicBool>) -> usize {
    let a = root.join(name);
    let b = root.join(format!("{name}-out"));
    let mut swaps = 0;
    while !stop.load(Ordering::Relaxed) {
        // Out and back, then a pause of random length: most calls see the
        // real folder, and some are caught in the middle. One swap in sixteen
        // stays out a little while: back at once only, the link lasts a few
        // microseconds, and on a busy machine a short run could miss it
        // altogether and prove nothing.
        for back in [false, true] {
            if back && fastrand::u8(..16) == 0 {
                std::thread::sleep(std::time::Duration::from_micros(fastrand::u64(0..50)));
            }
            rustix::fs::renameat_with(
                rustix::fs::CWD,
                &a,
                rustix::fs::CWD,
                &b,
                rustix::fs::RenameFlags::EXCHANGE,
            )
            .expect("renameat2(RENAME_EXCHANGE)");
            swaps += 1;
        }
        std::thread::sleep(std::time::Duration::from_micros(fastrand::u64(0..200)));
    }
    swaps
}

/// The arguments of operation `n` (a tool and its arguments), aimed at the
/// swapped folders.
fn operation(n: usize) -> (&'static str, Value) {
    let (folder, file) = SWAPPED[n % 2];
    let new = format!("{folder}/new-{n}.md");
    match (n / 2) % 12 {
        0 => (
            "TextRead",
            json!({"filePath": file, "target": {"lines": {"start": 1, "end": 5}}}),
        ),
        1 => ("TextInspect", json!({"filePath": file})),
        2 => (
            "TextInspect",
            json!({"filePath": file, "mode": "search", "query": "line"}),
        ),
        3 => (
            "TextSearch",
            json!({"query": "line", "directoryPath": folder}),
        ),
        4 => ("TextSearch", json!({"query": "line", "filePath": file})),
        5 => ("ListFiles", json!({"path": folder, "recursive": true})),
        6 => ("ListDirectories", json!({"path": folder})),
        7 => (
            "TextReplace",
            json!({"filePath": file, "oldText": "<!-- anchor -->", "newText": format!("<!-- anchor -->\nedit {n}")}),
        ),
        8 => (
            "TextPatch",
            json!({"filePath": file, "operation": "insert", "target": {"lines": {"start": 1, "end": 1}}, "content": format!("patch {n}\n")}),
        ),
        9 => (
            "create_text_file",
            json!({"file_path": new, "contents": format!("created {n}\n")}),
        ),
        10 => (
            "Move",
            json!({"sourcePath": format!("{folder}/new-{}.md", n - 2), "destinationPath": format!("{folder}/sub/moved-{n}.md")}),
        ),
        _ => (
            "RemoveFile",
            json!({"filePath": format!("{folder}/sub/moved-{}.md", n - 2)}),
        ),
    }
}

/// Runs `ops` tool calls (on `threads` threads) while both swappers run.
pub fn run(ops: usize, threads: usize) -> RaceReport {
    let vault = Arc::new(Vault::new());
    let outside = layout(&vault);
    let before = snapshot(&outside);
    let stop = Arc::new(AtomicBool::new(false));
    let swappers: Vec<_> = SWAPPED
        .iter()
        .map(|(name, _)| {
            let (root, stop) = (vault.root.clone(), stop.clone());
            std::thread::spawn(move || swapper(root, name, stop))
        })
        .collect();

    let next = Arc::new(AtomicUsize::new(0));
    let workers: Vec<_> = (0..threads)
        .map(|_| {
            let (vault, next, outside) = (vault.clone(), next.clone(), outside.clone());
            std::thread::spawn(move || {
                let mut report = RaceReport::default();
                let outside_name = outside.display().to_string();
                loop {
                    let n = next.fetch_add(1, Ordering::Relaxed);
                    if n >= ops {
                        break report;
                    }
                    let (tool, args) = operation(n);
                    *report.calls.entry(tool).or_default() += 1;
                    let reply = match vault.call(tool, args.clone()) {
                        Ok(value) => {
                            report.succeeded += 1;
                            value.to_string()
                        }
                        Err(error) => {
                            report.refused += 1;
                            let message = error["message"].as_str().unwrap_or_default();
                            // Numbers (file names of created files) vary; the kind of refusal does not.
                            let kind: String = message
                                .chars()
                                .map(|c| if c.is_ascii_digit() { '#' } else { c })
                                .collect();
                            *report.refusals.entry(kind).or_default() += 1;
                            error.to_string()
                        }
                    };
                    if reply.contains(MARKER) {
                        report.outside_reads.push(format!("{tool} {args}: {reply}"));
                    }
                    if reply.contains(&outside_name) {
                        report.outside_named.push(format!("{tool} {args}: {reply}"));
                    }
                }
            })
        })
        .collect();
    let mut report = RaceReport::default();
    for worker in workers {
        let part = worker.join().unwrap();
        for (tool, count) in part.calls {
            *report.calls.entry(tool).or_default() += count;
        }
        report.succeeded += part.succeeded;
        report.refused += part.refused;
        for (kind, count) in part.refusals {
            *report.refusals.entry(kind).or_default() += count;
        }
        report.outside_reads.extend(part.outside_reads);
        report.outside_named.extend(part.outside_named);
    }
    stop.store(true, Ordering::Relaxed);
    for swapper in swappers {
        report.swaps += swapper.join().unwrap();
    }
    let after = snapshot(&outside);
    for path in before.keys().chain(after.keys()) {
        if before.get(path) != after.get(path)
            && !report.outside_changes.contains(&path.display().to_string())
        {
            report.outside_changes.push(path.display().to_string());
        }
    }
    report
}
