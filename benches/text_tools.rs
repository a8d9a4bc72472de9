//! Speed and memory of the text tools on large Markdown files, next to the
//! I/O floor measured in the same run.
//!
//! Run with `cargo bench --bench text_tools` (add `-- 1` to only do 1 MB).
//! For each generated file (1, 10 and 50 MB) it prints the median time of:
//! TextReplace near the end, TextPatch appendToSection, TextRead of 20 lines
//! mid-file, TextInspect structure (outline and links, each link listed
//! checked), and the text core's link parse alone; the floor (read the file; write it to a
//! temp file, fsync, rename); their ratio; and the peak memory each tool call
//! added, as a multiple of the file size.

use std::io::Write;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use mcp_server_text::tools::context::{Settings, ToolContext};
use mcp_server_text::tools::registry::Registry;
use mcp_server_text::tools::tool::Toolset;
use mcp_server_text::workspace::{Workspace, WorkspaceOptions};
use serde_json::{Value, json};

const RUNS: usize = 7;

/// A benchmarked call: its label, the floor it is compared with, and a maker of its arguments.
type Case<'a> = (&'static str, Duration, Box<dyn FnMut() -> Value + 'a>);

fn main() {
    let sizes: Vec<usize> = match std::env::args().nth(1).filter(|a| a != "--bench") {
        Some(mb) => vec![mb.parse().expect("size in MB")],
        None => vec![1, 10, 50],
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let root = std::fs::canonicalize(dir.path()).unwrap();
    let workspace =
        Arc::new(Workspace::new(vec![root.clone()], WorkspaceOptions::default()).unwrap());
    let registry = Registry::new(&Toolset::ALL, false);
    let ctx = ToolContext::new(workspace, Arc::new(Settings::default()));

    println!(
        "{:<7} {:<30} {:>10} {:>10} {:>7} {:>12}",
        "size", "operation", "time", "floor", "ratio", "peak mem"
    );
    for mb in sizes {
        let name = format!("notes-{mb}mb.md");
        let path = root.join(&name);
        let (middle_heading, line_count) = generate(&path, mb << 20);
        let mid = line_count / 2;
        let bytes = std::fs::metadata(&path).unwrap().len() as f64;
        let read_floor = median(|| {
            let started = Instant::now();
            let data = std::fs::read(&path).unwrap();
            std::hint::black_box(&data);
            started.elapsed()
        });
        let write_floor = median(|| {
            let started = Instant::now();
            let data = std::fs::read(&path).unwrap();
            let mut temp = tempfile::NamedTempFile::new_in(&root).unwrap();
            temp.write_all(&data).unwrap();
            temp.as_file().sync_all().unwrap();
            temp.persist(&path).unwrap();
            started.elapsed()
        });
        let mut flip = false;
        let cases: Vec<Case> = vec![
            (
                "TextReplace near the end",
                write_floor,
                Box::new(|| {
                    flip = !flip;
                    let (old, new) = if flip {
                        ("END-MARKER-A", "END-MARKER-B")
                    } else {
                        ("END-MARKER-B", "END-MARKER-A")
                    };
                    json!({"tool": "TextReplace", "args": {"filePath": name, "oldText": old, "newText": new}})
                }),
            ),
            (
                "TextPatch appendToSection",
                write_floor,
                Box::new(|| {
                    json!({"tool": "TextPatch", "args": {"filePath": name, "operation": "insert",
                        "target": {"appendToSection": middle_heading}, "content": "- appended line\n"}})
                }),
            ),
            (
                "TextRead 20 lines mid-file",
                read_floor,
                Box::new(
                    || json!({"tool": "TextRead", "args": {"filePath": name, "target": {"lines": {"start": mid, "end": mid + 19}}}}),
                ),
            ),
            (
                "TextInspect structure",
                read_floor,
                Box::new(|| json!({"tool": "TextInspect", "args": {"filePath": name}})),
            ),
        ];
        let text = std::fs::read_to_string(&path).unwrap();
        let parse = median(|| {
            let started = Instant::now();
            let index = mcp_server_text::text::lines::LineIndex::new(&text);
            let links = mcp_server_text::text::markdown::parse_links(&text, &index);
            std::hint::black_box(&links);
            started.elapsed()
        });
        println!(
            "{:<7} {:<30} {:>10} {:>10} {:>6.2}x {:>11}",
            format!("{mb} MB"),
            "links parse (text core)",
            ms(parse),
            ms(read_floor),
            parse.as_secs_f64() / read_floor.as_secs_f64(),
            "n/a"
        );
        drop(text);
        for (label, floor, mut make) in cases {
            let mut peak = 0u64;
            let time = median(|| {
                let call = make();
                let tool = call["tool"].as_str().unwrap().to_string();
                let baseline = reset_peak_memory();
                let started = Instant::now();
                let result = registry.call(&ctx, &tool, call["args"].clone());
                let elapsed = started.elapsed();
                peak = peak.max(peak_memory().saturating_sub(baseline));
                if let Err(e) = result {
                    panic!("{tool} failed: {e}");
                }
                elapsed
            });
            println!(
                "{:<7} {:<30} {:>10} {:>10} {:>6.2}x {:>11}",
                format!("{mb} MB"),
                label,
                ms(time),
                ms(floor),
                time.as_secs_f64() / floor.as_secs_f64(),
                if peak > 0 {
                    format!("{:.2}x", peak as f64 / bytes)
                } else {
                    "n/a".into()
                }
            );
        }
        println!(
            "{:<7} {:<30} {:>10}   (read {}, read+write+fsync+rename {})",
            "",
            "floor",
            "",
            ms(read_floor),
            ms(write_floor)
        );
        std::fs::remove_file(&path).ok();
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

/// Resets the process's peak resident memory (Linux) and returns the current
/// resident size, so the next reading of the peak is what was added since.
fn reset_peak_memory() -> u64 {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
    status_kb("VmRSS:") * 1024
}

fn peak_memory() -> u64 {
    status_kb("VmHWM:") * 1024
}

fn status_kb(field: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with(field))
                .and_then(|l| l.split_whitespace().nth(1).map(|v| v.parse().unwrap_or(0)))
        })
        .unwrap_or(0)
}

/// Writes a realistic Markdown file of about `size` bytes: frontmatter, nested
/// sections, lists, tables and code blocks, with a unique marker near the end.
/// Returns a heading from the middle, for appendToSection, and the line count.
fn generate(path: &Path, size: usize) -> (String, usize) {
    let mut out = String::with_capacity(size + 4096);
    out.push_str("---\ntitle: Generated notes\ntags: [bench]\n---\n# Generated notes\n\n");
    let mut section = 0usize;
    let mut middle = String::new();
    while out.len() < size {
        section += 1;
        out.push_str(&format!("## Chapter {section}\n\nThis chapter talks about topic {section} in some detail, with enough words to look like prose.\n\n"));
        for sub in 1..=3 {
            out.push_str(&format!("### Part {section}.{sub}\n\n"));
            for p in 0..4 {
                out.push_str(&format!(
                    "Paragraph {p} of part {section}.{sub}: the quick brown fox jumps over the lazy dog while notes accumulate.\n"
                ));
            }
            out.push_str(&format!(
                "See [the part before](#part-{section}{sub}), [[Chapter {section}]] and <https://example.com/{section}>.\n"
            ));
            out.push_str("\n- first item\n- second item with `code`\n- third item\n\n");
            if sub == 2 {
                out.push_str("```rust\n# not a heading inside code\nfn main() {\n    println!(\"hi\");\n}\n```\n\n");
            }
        }
        if middle.is_empty() && out.len() >= size / 2 {
            middle = format!("## Chapter {section}");
        }
    }
    out.push_str("## Last chapter\n\nEND-MARKER-A is here.\n");
    let lines = out.lines().count();
    std::fs::write(path, out).unwrap();
    (middle, lines)
}
