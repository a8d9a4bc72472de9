//! Kills at random moments of changes of several files: a Batch of 2 to 60
//! TextReplace operations, or a Move of a note that 1 to 59 other notes link
//! to (the move and the rewritten links are one change). Each change is run
//! unkilled first on a copy of the vault, which gives the state "all new";
//! then `mcp-server-text call` runs it on the vault and gets SIGKILL after a
//! random delay within that run's duration. The server is then started again
//! (stdio, with stdin closed: it recovers at start, then ends), and the vault
//! must hold exactly its old files or exactly the new ones (a mixed outcome
//! is anything else), with nothing left behind: no hidden name of the
//! server beside the notes, nothing in `.history` but records, its
//! `.gitignore` and an empty `intents` folder.
//!
//! It prints, per kind, the kills, how many of them interrupted a change
//! (its intent record was left), how many left the files mixed before the
//! restart, and after it how often the files were old, new or mixed, and
//! what was left behind; it exits with status 1 if any outcome was mixed or
//! anything was left behind.
//!
//! `cargo bench --bench kill_batch [-- KILLS]` (500 by default, half of them
//! Batches); `KILL_BATCH_BIN=path` kills that build of the server instead.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use mcp_server_text::workspace::atomic_write::is_own_name;
use mcp_server_text::workspace::commit::intent::INTENTS_DIR;
use mcp_server_text::workspace::history::HISTORY_DIR;
use serde_json::{Value, json};

/// Notes in the vault.
const NOTES: usize = 60;

/// The server this build made, unless `KILL_BATCH_BIN` names another.
fn bin() -> String {
    std::env::var("KILL_BATCH_BIN")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_mcp-server-text").to_string())
}

/// The user's files and folders under `root` (the history left out).
type Tree = BTreeMap<PathBuf, Option<Vec<u8>>>;

fn tree(root: &Path) -> Tree {
    let mut out = Tree::new();
    let mut stack = vec![PathBuf::new()];
    while let Some(rel) = stack.pop() {
        for entry in std::fs::read_dir(root.join(&rel)).unwrap().flatten() {
            let path = rel.join(entry.file_name());
            if path == Path::new(HISTORY_DIR) {
                continue;
            }
            if entry.file_type().unwrap().is_dir() {
                out.insert(path.clone(), None);
                stack.push(path);
            } else {
                out.insert(path.clone(), Some(std::fs::read(root.join(&path)).unwrap()));
            }
        }
    }
    out
}

/// Makes `to` hold exactly the user's files of `from` (its history kept).
fn mirror(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(to).unwrap().flatten() {
        if entry.file_name() == HISTORY_DIR {
            continue;
        }
        if entry.file_type().unwrap().is_dir() {
            std::fs::remove_dir_all(entry.path()).unwrap();
        } else {
            std::fs::remove_file(entry.path()).unwrap();
        }
    }
    for (rel, bytes) in tree(from) {
        match bytes {
            None => std::fs::create_dir_all(to.join(rel)).unwrap(),
            Some(bytes) => {
                std::fs::create_dir_all(to.join(&rel).parent().unwrap()).unwrap();
                std::fs::write(to.join(rel), bytes).unwrap();
            }
        }
    }
}

/// What the server left that is neither the user's nor its history: hidden
/// names of its own anywhere, and anything in `.history` but records, its
/// `.gitignore` and an empty intents folder. Each is removed once counted.
fn leftovers(root: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if entry.file_type().unwrap().is_dir() {
                stack.push(path);
            } else if is_own_name(&entry.file_name()) {
                found.push(path);
            }
        }
    }
    let history = root.join(HISTORY_DIR);
    for entry in std::fs::read_dir(&history).into_iter().flatten().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name == INTENTS_DIR {
            for left in std::fs::read_dir(entry.path()).unwrap().flatten() {
                found.push(left.path());
            }
        } else if !(name.ends_with(".rec") || name == ".gitignore") {
            found.push(entry.path());
        }
    }
    for path in &found {
        let _ = std::fs::remove_file(path);
    }
    found
}

/// Whether a change's intent record is in the root's history now.
fn interrupted(root: &Path) -> bool {
    std::fs::read_dir(root.join(HISTORY_DIR).join(INTENTS_DIR))
        .into_iter()
        .flatten()
        .flatten()
        .any(|e| e.file_name().to_string_lossy().ends_with(".intent"))
}

/// The notes, each with a version line to replace and some prose.
fn fill(root: &Path) {
    let prose = "Some ordinary prose, long enough to look like a paragraph of notes.\n";
    std::fs::create_dir_all(root.join("notes")).unwrap();
    std::fs::create_dir_all(root.join("hubs")).unwrap();
    for i in 0..NOTES {
        let body = prose.repeat(20 + fastrand::usize(..300));
        std::fs::write(
            root.join(format!("notes/n{i}.md")),
            format!("# Note {i}\n\nversion v-{i}-0\n\n{body}"),
        )
        .unwrap();
    }
    std::fs::write(
        root.join("hubs/hub.md"),
        "# Hub\n\nBack to [one](../notes/n0.md).\n",
    )
    .unwrap();
}

/// The arguments of a Batch of TextReplace calls over `n` random notes.
fn batch(root: &Path, n: usize) -> (&'static str, Value) {
    let mut picked: Vec<usize> = (0..NOTES).collect();
    fastrand::shuffle(&mut picked);
    let operations: Vec<Value> = picked[..n]
        .iter()
        .map(|i| {
            let text = std::fs::read_to_string(root.join(format!("notes/n{i}.md"))).unwrap();
            let at = text.find(&format!("v-{i}-")).unwrap();
            let end = at + text[at..].find('\n').unwrap();
            let old = &text[at..end];
            let k: u64 = old.rsplit('-').next().unwrap().parse().unwrap();
            json!({"tool": "TextReplace", "arguments": {
                "filePath": format!("notes/n{i}.md"),
                "oldText": old,
                "newText": format!("v-{i}-{}", k + 1),
            }})
        })
        .collect();
    ("Batch", json!({ "operations": operations }))
}

/// The arguments of a Move of the hub note, linked from `n - 1` random notes
/// (the links are written now, before the old state is taken).
fn hub_move(root: &Path, n: usize) -> (&'static str, Value) {
    let (from, to) = if root.join("hubs/hub.md").exists() {
        ("hubs/hub.md", "moved/hub.md")
    } else {
        ("moved/hub.md", "hubs/hub.md")
    };
    let mut picked: Vec<usize> = (0..NOTES).collect();
    fastrand::shuffle(&mut picked);
    let linking: Vec<usize> = picked[..n - 1].to_vec();
    for i in 0..NOTES {
        let path = root.join(format!("notes/n{i}.md"));
        let text = std::fs::read_to_string(&path).unwrap();
        let body: String = text
            .lines()
            .filter(|l| !l.starts_with("See [hub]"))
            .map(|l| format!("{l}\n"))
            .collect();
        let text = if linking.contains(&i) {
            format!("{body}See [hub](../{from}).\n")
        } else {
            body
        };
        std::fs::write(&path, text).unwrap();
    }
    ("Move", json!({"sourcePath": from, "destinationPath": to}))
}

fn call(root: &Path, tool: &str, args: &Value) -> Command {
    let mut command = Command::new(bin());
    command
        .arg("call")
        .arg(tool)
        .arg(args.to_string())
        .arg("--root")
        .arg(root)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    command
}

/// Starts the server on `root` and lets it end at once: it recovers before
/// it waits for a client, then finds its stdin closed (and says so, with a
/// status of its own: there was no session).
fn restart(root: &Path) {
    Command::new(bin())
        .arg(root)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
}

#[derive(Default)]
struct Tally {
    kills: usize,
    finished_first: usize,
    interrupted: usize,
    mixed_before_restart: usize,
    old: usize,
    new: usize,
    mixed: usize,
    leftovers: Vec<PathBuf>,
}

fn main() {
    println!("server: {}", bin());
    let target: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(500);
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("vault");
    let twin = dir.path().join("twin");
    fill(&root);
    let mut tallies = [Tally::default(), Tally::default()];
    let started = Instant::now();
    let mut round = 0usize;
    while tallies.iter().map(|t| t.kills).sum::<usize>() < target {
        let kind = round % 2;
        round += 1;
        let n = 2 + fastrand::usize(..59);
        let (tool, args) = if kind == 0 {
            batch(&root, n)
        } else {
            hub_move(&root, n)
        };
        let old = tree(&root);
        mirror(&root, &twin);
        let begun = Instant::now();
        let ran = call(&twin, tool, &args).status().unwrap();
        let took = begun.elapsed();
        assert!(ran.success(), "an unkilled {tool} succeeds");
        let new = tree(&twin);
        assert_ne!(old, new, "the {tool} changes something");

        let tally = &mut tallies[kind];
        let delay = took.mul_f64(fastrand::f64());
        let mut child = call(&root, tool, &args).spawn().unwrap();
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
        tally.interrupted += usize::from(interrupted(&root));
        let before_restart = tree(&root);
        if before_restart != old && before_restart != new {
            tally.mixed_before_restart += 1;
        }
        restart(&root);
        let now = tree(&root);
        if now == new {
            tally.new += 1;
        } else if now == old {
            tally.old += 1;
        } else {
            tally.mixed += 1;
            let changed: Vec<&PathBuf> = now
                .keys()
                .chain(new.keys())
                .filter(|p| now.get(*p) != new.get(*p) && now.get(*p) != old.get(*p))
                .collect();
            println!("mixed outcome after a {tool} of {n} files: {changed:?}");
            mirror(&twin, &root);
        }
        tally.leftovers.extend(leftovers(&root));
    }
    let mut failed = false;
    for (kind, t) in ["Batch", "Move"].iter().zip(&tallies) {
        println!(
            "{kind}: {} kills ({} calls finished before their kill and were not counted); {} interrupted a change (intent left), {} left the files mixed before the restart; after it: old {}, new {}, mixed {}; left behind {}",
            t.kills,
            t.finished_first,
            t.interrupted,
            t.mixed_before_restart,
            t.old,
            t.new,
            t.mixed,
            t.leftovers.len()
        );
        for path in &t.leftovers {
            println!("  left behind: {}", path.display());
        }
        failed |= t.mixed > 0 || !t.leftovers.is_empty();
    }
    let kills: usize = tallies.iter().map(|t| t.kills).sum();
    let mixed: usize = tallies.iter().map(|t| t.mixed).sum();
    let left: usize = tallies.iter().map(|t| t.leftovers.len()).sum();
    println!(
        "kill_batch: {kills} kills in {round} rounds ({:.0} s): {mixed} mixed outcomes, {left} files left behind",
        started.elapsed().as_secs_f64()
    );
    if failed {
        std::process::exit(1);
    }
}
