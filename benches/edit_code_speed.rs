//! Times the edit_code matcher on generated 10,000- and 100,000-line source
//! files: a miss (the block is not in the file, the slowest path), an exact
//! hit, a tolerant hit (indentation shifted and a typo), an elided hit, and
//! 300-line blocks. Prints the median and the fastest of several runs (on a
//! busy machine the fastest is the better guide to the matcher's own cost).
//!
//! `cargo bench --bench edit_code_speed`

#[path = "../tests/corpus/mod.rs"]
mod corpus;

use std::time::{Duration, Instant};

use corpus::rng::Rng;
use corpus::source::{Lang, generate};
use corpus::text::{indent, typo};
use mcp_server_text::text::fuzzy::{EditRequest, Refusal, plan_edit};

const RUNS: usize = 11;

/// A Rust file of at least `lines` lines.
fn file(lines: usize, seed: u64) -> Vec<String> {
    let mut rng = Rng::new(seed);
    let units = lines / 11 + 1;
    let mut out = generate(&mut rng, Lang::Rust, units..=units).lines;
    while out.len() < lines {
        out.extend(generate(&mut rng, Lang::Rust, 20..=20).lines);
    }
    out.truncate(lines);
    out
}

/// Median and fastest.
fn summary(mut times: Vec<Duration>) -> (Duration, Duration) {
    times.sort();
    (times[times.len() / 2], times[0])
}

fn time(text: &str, search: &str, new: &str) -> ((Duration, Duration), String) {
    let mut times = Vec::with_capacity(RUNS);
    let mut outcome = String::new();
    for _ in 0..RUNS {
        let started = Instant::now();
        let result = plan_edit(text, &EditRequest::new(search, new));
        times.push(started.elapsed());
        outcome = match result {
            Ok(plan) => format!(
                "applied ({}, score {:.1})",
                plan.edits[0].kind.as_str(),
                plan.edits[0].score
            ),
            Err(Refusal::NotFound { best, .. }) => {
                format!("not found (best {:.1})", best.map_or(0.0, |b| b.score))
            }
            Err(other) => format!("refused: {other:?}"),
        };
    }
    (summary(times), outcome)
}

fn main() {
    println!("edit_code matcher speed, {RUNS} runs each\n");
    println!(
        "{:>8}  {:<15} {:>10} {:>10}  outcome",
        "lines", "case", "median", "fastest"
    );
    for size in [10_000usize, 100_000] {
        let lines = file(size, size as u64);
        let text = lines.join("\n") + "\n";
        // A block from the middle of the file.
        let mid = lines.len() / 2;
        let start = (mid..lines.len())
            .find(|&i| lines[i].starts_with("pub fn"))
            .unwrap_or(mid);
        let block = &lines[start..start + 6];
        let search = block.join("\n");
        let new = format!(
            "{}\n    audit(\"speed\", 1);\n{}",
            block[..3].join("\n"),
            block[3..].join("\n")
        );
        // The same block as an agent might remember it.
        let mut rng = Rng::new(7);
        let drifted: Vec<String> = block
            .iter()
            .enumerate()
            .map(|(k, l)| {
                let l = if k == 2 { typo(l, &mut rng) } else { l.clone() };
                format!("  {}{}", indent(&l), l.trim_start())
            })
            .collect();
        let drifted_new = format!(
            "{}\n      audit(\"speed\", 1);\n{}",
            drifted[..3].join("\n"),
            drifted[3..].join("\n")
        );
        // A block of another file: not here.
        let other = file(200, 99);
        let missing = other[20..26].join("\n");

        // One line that is not in the file.
        let missing_line = "    let unknown_widget = frobnicate(&registry, 42)?;".to_string();
        // The block's first two and last lines around an elision marker.
        let end = (start + 1..lines.len())
            .find(|&i| lines[i] == "}")
            .unwrap_or(start + 6);
        let elided = format!(
            "{}\n{}\n    // ...\n{}",
            lines[start],
            lines[start + 1],
            lines[end]
        );
        let elided_new = elided.replacen("limit: usize", "limit: u64", 1);

        // A 300-line stretch, with every tenth line indented differently
        // and a typo; and 300 lines of another file (a miss).
        let big: Vec<String> = lines[start..start + 300]
            .iter()
            .enumerate()
            .map(|(k, l)| match k % 10 {
                0 => format!("  {l}"),
                5 if k == 5 => typo(l, &mut rng),
                _ => l.clone(),
            })
            .collect();
        let big_search = big.join("\n");
        let big_new = big_search.replacen("limit", "bound", 1);
        let other_big = file(400, 98);
        let big_missing = other_big[50..350].join("\n");

        for (name, s, n) in [
            ("300-line miss", big_missing.as_str(), "x"),
            ("300-line hit", big_search.as_str(), big_new.as_str()),
            ("miss", missing.as_str(), "x"),
            ("one-line miss", missing_line.as_str(), "x"),
            ("exact hit", search.as_str(), new.as_str()),
            ("tolerant hit", &drifted.join("\n"), drifted_new.as_str()),
            ("elided hit", elided.as_str(), elided_new.as_str()),
        ] {
            let ((median, fastest), outcome) = time(&text, s, n);
            println!(
                "{:>8}  {:<15} {:>8.2}ms {:>8.2}ms  {outcome}",
                lines.len(),
                name,
                median.as_secs_f64() * 1000.0,
                fastest.as_secs_f64() * 1000.0
            );
        }
    }
}
