//! The vault tools at scale: Backlinks of a note that 1 in 20 notes link to,
//! a tag rename touching 1,000 occurrences (two in each of 500 notes: one in
//! the frontmatter, one inline, half of them nested children), and a
//! TextSearch narrowed by a property, in a generated vault of 10,000 notes.
//!
//! Run with `cargo bench --bench vault` (add `-- 2000` for another size).
//! Prints the median time of each call over 5 runs. The rename is renamed
//! back between runs, so every run renames 1,000 occurrences; its dry run
//! shows what finding and planning cost, the rest being the durable write
//! of 500 files and their history record.

use std::sync::Arc;
use std::time::{Duration, Instant};

use mcp_server_text::tools::context::{Settings, ToolContext};
use mcp_server_text::tools::registry::Registry;
use mcp_server_text::tools::tool::Toolset;
use mcp_server_text::workspace::{Workspace, WorkspaceOptions};
use serde_json::{Value, json};

const RUNS: usize = 5;

fn main() {
    let notes: usize = std::env::args()
        .nth(1)
        .filter(|a| a != "--bench")
        .map_or(10_000, |n| n.parse().expect("number of notes"));
    let dir = tempfile::tempdir().expect("temp dir");
    let root = std::fs::canonicalize(dir.path()).unwrap();
    generate(&root, notes);
    let workspace =
        Arc::new(Workspace::new(vec![root.clone()], WorkspaceOptions::default()).unwrap());
    let registry = Registry::new(&Toolset::ALL, false);
    let settings = Settings {
        enabled_tools: registry.names(),
        ..Settings::default()
    };
    let ctx = ToolContext::new(workspace, Arc::new(settings));
    let call = |tool: &str, args: Value| -> (Duration, Value) {
        let started = Instant::now();
        match registry.call(&ctx, tool, args) {
            Ok(out) => (started.elapsed(), out),
            Err(e) => panic!("{tool} failed: {e}"),
        }
    };

    let mut count = 0;
    let backlinks = median(|| {
        let (time, out) = call("Backlinks", json!({"filePath": "projects/garden.md"}));
        count = out["count"].as_u64().unwrap();
        time
    });
    let mut forward = false;
    let mut renamed = 0;
    let rename = median(|| {
        forward = !forward;
        let (from, to) = if forward {
            ("project/alpha", "project/beta")
        } else {
            ("project/beta", "project/alpha")
        };
        let (time, out) = call("Tags", json!({"rename": {"from": from, "to": to}}));
        renamed = out["changed"].as_u64().unwrap();
        time
    });
    let planned = median(|| {
        call(
            "Tags",
            json!({"rename": {"from": "project/alpha", "to": "project/beta"}, "dryRun": true}),
        )
        .0
    });
    let mut found = 0;
    let filtered = median(|| {
        let (time, out) = call(
            "TextSearch",
            json!({"query": "water", "property": {"status": "draft"}, "outputMode": "files_only"}),
        );
        found = out["filesWithMatches"].as_u64().unwrap();
        time
    });
    let plain = median(|| {
        call(
            "TextSearch",
            json!({"query": "water", "outputMode": "files_only"}),
        )
        .0
    });
    println!("{:<70} {:>10}", format!("{notes} notes: call"), "time");
    for (label, time) in [
        (
            format!("Backlinks of a note ({count} links into it)"),
            backlinks,
        ),
        (
            format!("Tags rename ({renamed} occurrences in 500 notes)"),
            rename,
        ),
        (
            "Tags rename, dry run (finding and planning only)".to_string(),
            planned,
        ),
        (
            format!("TextSearch with property status: draft ({found} notes match)"),
            filtered,
        ),
        (
            "TextSearch of the same query without the filter".to_string(),
            plain,
        ),
    ] {
        println!("{label:<70} {:>10}", ms(time));
    }
}

/// `count` notes in 50 folders. Every 20th links to the garden note (a
/// wikilink, a Markdown link, an embed of its block); 500 notes carry the
/// tag project/alpha in their frontmatter and a #project/alpha(/sub) in
/// their text; one in 4 is a draft.
fn generate(root: &std::path::Path, count: usize) {
    let garden = root.join("projects/garden.md");
    std::fs::create_dir_all(garden.parent().unwrap()).unwrap();
    std::fs::write(
        &garden,
        "---\naliases: [Veg patch]\n---\n# Garden\n\n## Tasks\n\n- [ ] Mulch ^tasks-1\n",
    )
    .unwrap();
    let tagged_every = (count / 500).max(1);
    for i in 0..count {
        let folder = root.join(format!("notes/f{}", i % 50));
        std::fs::create_dir_all(&folder).unwrap();
        let status = if i % 4 == 0 { "draft" } else { "done" };
        let tagged = i % tagged_every == 0 && i / tagged_every < 500;
        let tags = if tagged {
            "[project/alpha, notes]"
        } else {
            "[notes]"
        };
        let mut text = format!("---\nstatus: {status}\ntags: {tags}\n---\n# Note {i}\n\n");
        for p in 0..12 {
            text.push_str(&format!(
                "Paragraph {p} of note {i}: beds, seeds and compost, water in the morning.\n\n"
            ));
        }
        if tagged {
            let sub = if i % 2 == 0 { "/hardware" } else { "" };
            text.push_str(&format!("Filed under #project/alpha{sub}.\n"));
        }
        if i % 20 == 0 {
            text.push_str(
                "See [[garden]], [the plan](../../projects/garden.md) and ![[garden#^tasks-1]].\n",
            );
        }
        text.push_str(&format!("Next: [[note-{}]]\n", (i + 1) % count));
        std::fs::write(folder.join(format!("note-{i}.md")), text).unwrap();
    }
}

fn median(mut run: impl FnMut() -> Duration) -> Duration {
    let mut times: Vec<Duration> = (0..RUNS).map(|_| run()).collect();
    times.sort();
    times[RUNS / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}
