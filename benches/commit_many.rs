//! Time of one change of many files through the committer: a small replace
//! in each of 500 notes spread over 25 folders, committed as one change
//! with its intent record and history record, the way a vault-wide rename
//! writes. The files are small, so the time is nearly all the making of
//! the change durable (staged bytes, the intent record, the renames and
//! their folders).
//!
//! Prints, per round, the seconds one commit took and the mean over the
//! rounds, for the number of files given.
//!
//! ```sh
//! cargo bench --bench commit_many [-- FILES [ROUNDS]]   # 500 files, 5 rounds by default
//! ```
//!
//! The notes live in a temp folder (`TMPDIR`), so the figure is that of the
//! file system there.

use std::time::Instant;

use mcp_server_text::text::document::Splice;
use mcp_server_text::workspace::commit::{BatchItem, Change};
use mcp_server_text::workspace::{Workspace, WorkspaceOptions};

/// Folders the notes are spread over.
const FOLDERS: usize = 25;

fn main() {
    let mut args = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .map(|a| a.parse::<usize>().expect("FILES and ROUNDS are numbers"));
    let files = args.next().unwrap_or(500);
    let rounds = args.next().unwrap_or(5);
    let dir = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    let names: Vec<String> = (0..files)
        .map(|i| format!("folder-{:02}/note-{i:04}.md", i % FOLDERS))
        .collect();
    for name in &names {
        let path = root.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(
            &path,
            format!("# {name}\n\nSome text with #draft in it and more text after.\n"),
        )
        .unwrap();
    }
    let ws = Workspace::new(vec![root.clone()], WorkspaceOptions::default()).unwrap();
    let items: Vec<BatchItem> = names.iter().map(|n| BatchItem::new(n)).collect();
    println!(
        "{files} notes in {FOLDERS} folders under {}",
        root.display()
    );
    let mut total = 0.0;
    for round in 0..rounds {
        let (from, to) = if round % 2 == 0 {
            ("#draft", "#final")
        } else {
            ("#final", "#draft")
        };
        let started = Instant::now();
        let tx = ws.transaction(&items, Vec::new()).unwrap();
        let contents = tx
            .files()
            .iter()
            .map(|f| {
                let text = String::from_utf8(f.doc.bytes().to_vec()).unwrap();
                let at = text.find(from).expect("each note holds the tag");
                Some(
                    f.doc
                        .apply(&[Splice::new(at..at + from.len(), to)])
                        .unwrap(),
                )
            })
            .collect();
        let planned = started.elapsed().as_secs_f64();
        tx.commit(Change::new("Batch", contents), true).unwrap();
        let seconds = started.elapsed().as_secs_f64();
        total += seconds;
        println!(
            "round {}: {seconds:.3} s ({planned:.3} s to lock and read, {:.3} s to commit)",
            round + 1,
            seconds - planned
        );
    }
    let check = std::fs::read_to_string(root.join(&names[files - 1])).unwrap();
    let tag = if rounds % 2 == 1 { "#final" } else { "#draft" };
    assert!(check.contains(tag), "the last round's change is on disk");
    println!(
        "mean: {:.3} s for one change of {files} files",
        total / rounds as f64
    );
}
