//! Speed of TextSearch across many files, next to ripgrep on the same tree in
//! the same run.
//!
//! Run with `cargo bench --bench search` (add `-- 5000` or `-- 50000` for one
//! tree only, `-- note` for the large note only). It generates Markdown-like trees of 5,000 files (about 11 MB)
//! and 50,000 files (about 110 MB) in nested folders, with a `.gitignore` that
//! excludes a folder and some files, and times TextSearch (called in-process,
//! as the server calls it) on literal and regex queries. When `rg` is on the
//! PATH, it runs on the same tree with the same rules (case-insensitive,
//! hidden files skipped, `.gitignore` honoured outside a git repository) and
//! counts every match, as TextSearch does; the ratio is ours over ripgrep's.
//! Times are medians of runs taken in turns, with the file system cache warm
//! for both.
//!
//! The large-note case is one 50 MB Markdown file: TextSearch with
//! `filePath` and TextInspect's search mode (which also hashes the file for
//! its `fileHash`), each showing matches with their nearest heading, next to
//! `rg -n` on the same file. The table shows medians of the calls after the
//! first; the first calls, which read into fresh memory and hash the file,
//! are listed below it, after the time of each step of a TextSearch call
//! taken alone (read, count and find, headings).

use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use mcp_server_text::tools::context::{Settings, ToolContext};
use mcp_server_text::tools::registry::Registry;
use mcp_server_text::tools::tool::Toolset;
use mcp_server_text::workspace::{Workspace, WorkspaceOptions};
use serde_json::json;

/// A query: label, text, whether it is a regex.
type Query = (&'static str, &'static str, bool);

const QUERIES: &[Query] = &[
    ("literal, rare", "quarterly review", false),
    ("literal, common", "project", false),
    ("regex, rare", r"(TODO|FIXME)\(\w+\)", true),
    ("regex, common", r"\d{4}-\d{2}-\d{2}", true),
];

const WORDS: &[&str] = &[
    "the", "a", "of", "and", "to", "in", "notes", "idea", "draft", "meeting", "plan", "review",
    "design", "budget", "garden", "reading", "travel", "recipe", "health", "music", "code",
    "server", "client", "release", "summary", "question", "answer", "project", "team", "week",
    "month", "résumé", "naïve", "café", "über", "Straße", "école", "data", "model", "search",
];

fn main() {
    let only = std::env::args().skip(1).find(|a| a != "--bench");
    let (sizes, large_note): (Vec<usize>, bool) = match only.as_deref() {
        Some("note") => (Vec::new(), true),
        Some(n) => (vec![n.parse().expect("a number of files, or note")], false),
        None => (vec![5_000, 50_000], true),
    };
    let rg = Command::new("rg")
        .arg("--version")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| {
            String::from_utf8_lossy(&o.stdout)
                .lines()
                .next()
                .unwrap_or("rg")
                .to_string()
        });
    match &rg {
        Some(version) => println!("comparing with {version}"),
        None => println!("rg is not on the PATH: ripgrep's times are left out"),
    }
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!("{threads} cores");
    println!(
        "{:<8} {:<17} {:>8} {:>12} {:>12} {:>7} {:>12}",
        "files", "query", "matches", "TextSearch", "rg -c", "ratio", "rg -n"
    );
    for files in sizes.iter().copied() {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = std::fs::canonicalize(dir.path()).unwrap().join("tree");
        let started = Instant::now();
        let bytes = generate(&root, files);
        eprintln!(
            "generated {files} files, {:.1} MB, in {:.1} s",
            bytes as f64 / 1e6,
            started.elapsed().as_secs_f64()
        );
        let workspace =
            Arc::new(Workspace::new(vec![root.clone()], WorkspaceOptions::default()).unwrap());
        let registry = Registry::new(&Toolset::ALL, false);
        let ctx = ToolContext::new(workspace, Arc::new(Settings::default()));
        let runs = if files > 10_000 { 7 } else { 11 };
        for &(label, query, regex) in QUERIES {
            let args = json!({"query": query, "regex": regex});
            // The three commands take turns, so a busy moment on the machine
            // falls on all of them alike; the first round only warms up.
            let mut ours = Vec::new();
            let mut count = Vec::new();
            let mut lines = Vec::new();
            let mut total = 0;
            let mut rg_total = 0;
            for round in 0..=runs {
                let started = Instant::now();
                let result = registry
                    .call(&ctx, "TextSearch", args.clone())
                    .unwrap_or_else(|e| panic!("TextSearch failed: {e}"));
                let elapsed = started.elapsed();
                total = result["totalMatches"].as_u64().unwrap_or(0);
                if rg.is_some() {
                    let (count_time, counted) = ripgrep(&root, query, regex, "--count-matches");
                    let (lines_time, _) = ripgrep(&root, query, regex, "-n");
                    rg_total = counted;
                    if round > 0 {
                        count.push(count_time);
                        lines.push(lines_time);
                    }
                }
                if round > 0 {
                    ours.push(elapsed);
                }
            }
            if rg.is_some() {
                assert_eq!(
                    rg_total, total,
                    "ripgrep and TextSearch count different matches for {query}"
                );
            }
            let ours = median(ours);
            let count = (!count.is_empty()).then(|| median(count));
            let lines = (!lines.is_empty()).then(|| median(lines));
            println!(
                "{:<8} {:<17} {:>8} {:>12} {:>12} {:>7} {:>12}",
                files,
                label,
                total,
                ms(ours),
                count.map_or("-".into(), ms),
                count.map_or("-".into(), |c| format!(
                    "{:.2}x",
                    ours.as_secs_f64() / c.as_secs_f64()
                )),
                lines.map_or("-".into(), ms),
            );
        }
    }
    if large_note {
        search_large_note(rg.is_some());
    }
}

/// Runs ripgrep once with the rules TextSearch uses; returns its time and,
/// with `--count-matches`, the number of matches it counted.
fn ripgrep(root: &Path, query: &str, regex: bool, mode: &str) -> (Duration, u64) {
    let mut command = Command::new("rg");
    command
        .args(["--no-config", "--no-require-git", "--no-ignore-global"])
        .args(["--ignore-case", "--crlf", "--no-messages", mode]);
    if !regex {
        command.arg("--fixed-strings");
    }
    command
        .arg("--regexp")
        .arg(query)
        .arg(root)
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    let started = Instant::now();
    let output = command.output().expect("rg runs");
    let elapsed = started.elapsed();
    let total = if mode == "--count-matches" {
        String::from_utf8_lossy(&output.stdout)
            .lines()
            .filter_map(|l| l.rsplit(':').next()?.parse::<u64>().ok())
            .sum()
    } else {
        0
    };
    (elapsed, total)
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

/// A small deterministic random number generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Writes `files` Markdown notes of about 2.2 KB under `root`, in folders
/// three levels deep, plus ignored files; returns the bytes written.
fn generate(root: &Path, files: usize) -> u64 {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    std::fs::create_dir_all(root).unwrap();
    std::fs::write(root.join(".gitignore"), "build/\n*.tmp.md\n").unwrap();
    let mut bytes = 0u64;
    for i in 0..files {
        let folder = root.join(format!(
            "area-{}/topic-{}/week-{}",
            i % 10,
            (i / 10) % 25,
            (i / 250) % 20
        ));
        std::fs::create_dir_all(&folder).unwrap();
        let text = note(&mut rng, i);
        bytes += text.len() as u64;
        std::fs::write(folder.join(format!("note-{i}.md")), text).unwrap();
    }
    // Files the search must not look at.
    std::fs::create_dir_all(root.join("build")).unwrap();
    std::fs::create_dir_all(root.join(".obsidian")).unwrap();
    for i in 0..files / 50 {
        let text = note(&mut rng, i);
        std::fs::write(root.join(format!("build/out-{i}.md")), &text).unwrap();
        std::fs::write(root.join(format!("area-0/draft-{i}.tmp.md")), &text).unwrap();
        std::fs::write(root.join(format!(".obsidian/cache-{i}.md")), &text).unwrap();
    }
    bytes
}

fn note(rng: &mut Rng, i: usize) -> String {
    let mut out = String::with_capacity(2600);
    out.push_str(&format!(
        "---\ntitle: Note {i}\ndate: 2024-{:02}-{:02}\n---\n# Note {i}\n\n",
        1 + rng.below(12),
        1 + rng.below(28)
    ));
    let target = 1800 + rng.below(800);
    let mut section = 0;
    while out.len() < target {
        section += 1;
        out.push_str(&format!("## Section {section}\n\n"));
        for _ in 0..3 {
            let words = 8 + rng.below(14);
            for w in 0..words {
                let word = WORDS[rng.below(WORDS.len())];
                if w == 0 {
                    let mut chars = word.chars();
                    let first = chars.next().unwrap().to_uppercase();
                    out.extend(first.chain(chars));
                } else {
                    out.push(' ');
                    out.push_str(word);
                }
            }
            out.push_str(".\n");
        }
        match rng.below(40) {
            0 => out.push_str("Quarterly Review is due next week.\n"),
            1 => out.push_str("- TODO(ana): send the minutes\n"),
            2 => out.push_str("```sh\n# a comment, not a heading\nmake test\n```\n"),
            3 => out.push_str(&format!(
                "Met on 2024-03-{:02} to talk.\n",
                1 + rng.below(28)
            )),
            _ => {}
        }
        out.push('\n');
    }
    out
}

/// Queries for the large note: label, text, whether it is a regex.
const NOTE_QUERIES: &[Query] = &[
    ("literal, rare", "the last word on compost", false),
    ("literal, common", "project", false),
    ("regex, line end", r"next week\.$", true),
];

/// TextSearch and TextInspect on one 50 MB note, next to `rg -n`.
fn search_large_note(with_rg: bool) {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = std::fs::canonicalize(dir.path()).unwrap().join("notes");
    std::fs::create_dir_all(&root).unwrap();
    let file = root.join("big.md");
    let text = large_note(50_000_000);
    std::fs::write(&file, &text).unwrap();
    // TextInspect remembers the hash of a large file only once the file has
    // been left alone for 40 s (see workspace::hash_memo); a note is usually
    // older than that. The first call of each query is shown
    // apart: it reads into fresh memory and, for TextInspect, hashes.
    std::thread::sleep(mcp_server_text::workspace::hash_memo::SETTLED + Duration::from_millis(500));
    let workspace =
        Arc::new(Workspace::new(vec![root.clone()], WorkspaceOptions::default()).unwrap());
    let registry = Registry::new(&Toolset::ALL, false);
    let ctx = ToolContext::new(workspace, Arc::new(Settings::default()));
    println!();
    println!(
        "one note of {:.1} MB, {} lines",
        text.len() as f64 / 1e6,
        text.lines().count()
    );
    println!(
        "{:<17} {:>8} {:>12} {:>7} {:>12} {:>7} {:>12}",
        "query", "matches", "TextSearch", "ratio", "TextInspect", "ratio", "rg -n"
    );
    let mut firsts = Vec::new();
    for &(label, query, regex) in NOTE_QUERIES {
        let search = json!({"query": query, "regex": regex, "filePath": "big.md"});
        let inspect =
            json!({"filePath": "big.md", "mode": "search", "query": query, "regex": regex});
        let (mut ours, mut inspected, mut lines) = (Vec::new(), Vec::new(), Vec::new());
        let mut first_call = (Duration::ZERO, Duration::ZERO);
        let mut total = 0;
        for round in 0..=9 {
            let started = Instant::now();
            let result = registry
                .call(&ctx, "TextSearch", search.clone())
                .unwrap_or_else(|e| panic!("TextSearch failed: {e}"));
            let search_time = started.elapsed();
            total = result["totalMatches"].as_u64().unwrap_or(0);
            let first = &result["files"][0]["matches"][0];
            assert!(
                first["nearestHeading"]["text"].is_string(),
                "no nearest heading: {first}"
            );
            let started = Instant::now();
            let inspected_result = registry
                .call(&ctx, "TextInspect", inspect.clone())
                .unwrap_or_else(|e| panic!("TextInspect failed: {e}"));
            let inspect_time = started.elapsed();
            assert_eq!(inspected_result["totalMatches"].as_u64(), Some(total));
            let rg_time = with_rg.then(|| ripgrep_file(&file, query, regex));
            if round > 0 {
                ours.push(search_time);
                inspected.push(inspect_time);
                lines.extend(rg_time);
            } else {
                first_call = (search_time, inspect_time);
            }
        }
        firsts.push((label, first_call));
        let (ours, inspected) = (median(ours), median(inspected));
        let lines = (!lines.is_empty()).then(|| median(lines));
        let ratio = |t: Duration| {
            lines.map_or("-".into(), |l| {
                format!("{:.2}x", t.as_secs_f64() / l.as_secs_f64())
            })
        };
        println!(
            "{:<17} {:>8} {:>12} {:>7} {:>12} {:>7} {:>12}",
            label,
            total,
            ms(ours),
            ratio(ours),
            ms(inspected),
            ratio(inspected),
            lines.map_or("-".into(), ms),
        );
    }
    steps(&file);
    println!("first calls (fresh memory; TextInspect also hashes the file):");
    for (label, (search, inspect)) in firsts {
        println!(
            "{:<17} {:>8} {:>12} {:>7} {:>12}",
            label,
            "",
            ms(search),
            "",
            ms(inspect)
        );
    }
}

/// Where a TextSearch of the note spends its time: the mapping of the file
/// under a read lease (its check as UTF-8 on two threads; the read by two
/// threads that replaces it where no lease is granted is timed beside it),
/// then the count of matches and the scan
/// for the headings above them, which the tool runs side by side; here each
/// runs alone, so their sum is more than the call takes. Medians of 9.
fn steps(file: &Path) {
    use mcp_server_text::text::markdown::headings_until;
    use mcp_server_text::workspace::search::Pattern;
    use mcp_server_text::workspace::search::halves::read_in_halves;
    use mcp_server_text::workspace::search::mapped::map_text;
    use std::sync::atomic::{AtomicUsize, Ordering};

    println!(
        "steps, each alone (map: under a lease; read: two threads; headings: through the last match shown):"
    );
    for &(label, query, regex) in NOTE_QUERIES {
        let pattern = Pattern::new(query, regex, false).expect("the query compiles");
        let (mut map, mut read) = (Vec::new(), Vec::new());
        let (mut search, mut headings) = (Vec::new(), Vec::new());
        for _ in 0..9 {
            let started = Instant::now();
            let opened = std::fs::File::open(file).expect("the note opens");
            let size = opened.metadata().expect("the note has metadata").len();
            let text = read_in_halves(&opened, size).expect("the note is UTF-8");
            read.push(started.elapsed());
            let started = Instant::now();
            let mapped = map_text(opened, u64::MAX);
            if mapped.is_some() {
                map.push(started.elapsed());
            }
            let text = mapped.as_ref().map_or(text.as_str(), |m| m.as_str());
            let started = Instant::now();
            let last = AtomicUsize::new(0);
            let found =
                pattern.tally_and_find(text, 50, |line| last.store(line, Ordering::Relaxed));
            search.push(started.elapsed());
            let started = Instant::now();
            let through = last.load(Ordering::Relaxed);
            let scan = headings_until(text, || through);
            headings.push(started.elapsed());
            std::hint::black_box((found, scan.nearest(1)));
        }
        let map = if map.is_empty() {
            "no lease".to_string()
        } else {
            ms(median(map))
        };
        println!(
            "{:<17} map {:>9}   read {:>9}   count and find {:>9}   headings {:>9}",
            label,
            map,
            ms(median(read)),
            ms(median(search)),
            ms(median(headings))
        );
    }
}

/// `rg -n` on one file, case-insensitive like TextSearch; its time.
fn ripgrep_file(file: &Path, query: &str, regex: bool) -> Duration {
    let mut command = Command::new("rg");
    command.args(["--no-config", "--ignore-case", "--crlf", "-n"]);
    if !regex {
        command.arg("--fixed-strings");
    }
    command
        .arg("--regexp")
        .arg(query)
        .arg(file)
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    let started = Instant::now();
    command.output().expect("rg runs");
    started.elapsed()
}

/// A Markdown note of about `size` bytes: frontmatter, then sections of
/// prose with headings, lists and fenced code (with `#` comments in it);
/// one rare phrase near the end.
fn large_note(size: usize) -> String {
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    let mut out = String::with_capacity(size + 4096);
    out.push_str("---\ntitle: Garden journal\ntags: [garden, log]\n---\n# Garden journal\n\n");
    let mut part = 0;
    while out.len() < size {
        part += 1;
        let note = note(&mut rng, part);
        // Each generated note's own frontmatter would be text in mid-document.
        let body = note
            .split_once("---\n# ")
            .map_or(note.as_str(), |(_, rest)| rest);
        out.push_str("## ");
        out.push_str(
            body.replacen("## Section", "### Section", usize::MAX)
                .as_str(),
        );
        if out.len() + 200 >= size && !out.contains("the last word on compost") {
            out.push_str("And that is the last word on compost for this year.\n\n");
        }
    }
    out
}
