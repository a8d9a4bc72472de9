//! What keeping links intact costs: Move of a note that 1 in 10 notes link
//! to, with and without `updateLinks` and as a dry run (which finds the
//! links without writing: the rest is the durable write of each rewritten
//! file), and a heading rename whose reply
//! names the links it broke next to an edit that touches no heading, in
//! vaults of 1,000 and 5,000 notes.
//!
//! Run with `cargo bench --bench move_links` (add `-- 1000` for one size).
//! Prints the median time of each call over 5 runs.

use std::sync::Arc;
use std::time::{Duration, Instant};

use mcp_server_text::tools::context::{Settings, ToolContext};
use mcp_server_text::tools::registry::Registry;
use mcp_server_text::tools::tool::Toolset;
use mcp_server_text::workspace::{Workspace, WorkspaceOptions};
use serde_json::{Value, json};

const RUNS: usize = 5;

fn main() {
    let sizes: Vec<usize> = match std::env::args().nth(1).filter(|a| a != "--bench") {
        Some(n) => vec![n.parse().expect("number of notes")],
        None => vec![1000, 5000],
    };
    println!("{:<8} {:<44} {:>10}", "notes", "call", "time");
    for notes in sizes {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = std::fs::canonicalize(dir.path()).unwrap();
        generate(&root, notes);
        let workspace =
            Arc::new(Workspace::new(vec![root.clone()], WorkspaceOptions::default()).unwrap());
        let registry = Registry::new(&Toolset::ALL, false);
        let ctx = ToolContext::new(workspace, Arc::new(Settings::default()));
        let call = |tool: &str, args: Value| {
            let started = Instant::now();
            if let Err(e) = registry.call(&ctx, tool, args) {
                panic!("{tool} failed: {e}");
            }
            started.elapsed()
        };
        let mut flip = false;
        let mut moves = |update: bool| {
            median(|| {
                flip = !flip;
                let (from, to) = if flip {
                    ("projects/garden.md", "archive/garden.md")
                } else {
                    ("archive/garden.md", "projects/garden.md")
                };
                call(
                    "Move",
                    json!({"sourcePath": from, "destinationPath": to, "updateLinks": update}),
                )
            })
        };
        let with = moves(true);
        let without = moves(false);
        let planned = median(|| {
            call(
                "Move",
                json!({"sourcePath": "projects/garden.md", "destinationPath": "archive/garden.md",
                       "dryRun": true}),
            )
        });
        // Moved back an even number of times: the note is at projects/ again.
        let mut renamed = false;
        let rename = median(|| {
            renamed = !renamed;
            let (old, new) = if renamed {
                ("## Tasks", "## To do")
            } else {
                ("## To do", "## Tasks")
            };
            call(
                "TextReplace",
                json!({"filePath": "projects/garden.md", "oldText": old, "newText": new}),
            )
        });
        let mut other = false;
        let plain = median(|| {
            other = !other;
            let (old, new) = if other {
                ("Three beds", "Four beds")
            } else {
                ("Four beds", "Three beds")
            };
            call(
                "TextReplace",
                json!({"filePath": "projects/garden.md", "oldText": old, "newText": new}),
            )
        });
        for (label, time) in [
            ("Move, links updated (1 in 10 notes)", with),
            ("Move, dry run (finding the links only)", planned),
            ("Move, updateLinks: false", without),
            ("TextReplace renaming a linked heading", rename),
            ("TextReplace of a line without headings", plain),
        ] {
            println!("{notes:<8} {label:<44} {:>10}", ms(time));
        }
    }
}

/// `count` notes in 20 folders; every tenth links to the garden note by
/// path and by wikilink, heading included.
fn generate(root: &std::path::Path, count: usize) {
    let garden = root.join("projects/garden.md");
    std::fs::create_dir_all(garden.parent().unwrap()).unwrap();
    std::fs::write(
        &garden,
        "# Garden\n\nThree beds, see [[note-1]].\n\n## Tasks\n\n- mulch\n",
    )
    .unwrap();
    for i in 0..count {
        let folder = root.join(format!("notes/f{}", i % 20));
        std::fs::create_dir_all(&folder).unwrap();
        let mut text = format!("# Note {i}\n\n");
        for p in 0..20 {
            text.push_str(&format!(
                "Paragraph {p} of note {i}, with [a link](../f{}/note-{}.md) and plain words.\n\n",
                (i + 1) % 20,
                i + 1
            ));
        }
        if i % 10 == 0 {
            text.push_str("See [[garden#Tasks]] and [the plan](../../projects/garden.md#tasks).\n");
        }
        std::fs::write(folder.join(format!("note-{i}.md")), text).unwrap();
    }
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

fn median(mut run: impl FnMut() -> Duration) -> Duration {
    let mut times: Vec<Duration> = (0..RUNS).map(|_| run()).collect();
    times.sort();
    times[RUNS / 2]
}
