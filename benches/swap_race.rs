//! The swap race, long: 10,000 tool calls (reads, TextInspect, TextSearch,
//! listings, edits, creates, moves, removes) on 2 threads while two threads
//! swap folders inside the root with links to look-alike folders outside —
//! the file's own folder, and an ancestor three levels up. Prints the calls,
//! the swaps, and the counts that must be 0: replies holding bytes from
//! outside, replies naming the folder outside, and files outside changed.
//!
//! `cargo bench --bench swap_race [-- CALLS]`

#[path = "../tests/race/mod.rs"]
mod race;
#[path = "../tests/support/mod.rs"]
mod support;

use std::time::Instant;

fn main() {
    let calls = std::env::args()
        .skip(1)
        .find_map(|a| a.parse::<usize>().ok())
        .unwrap_or(10_000);
    let started = Instant::now();
    let report = race::run(calls, 2);
    println!(
        "swap_race: {} calls in {:.1} s during {} swaps ({} succeeded, {} refused)",
        report.total(),
        started.elapsed().as_secs_f64(),
        report.swaps,
        report.succeeded,
        report.refused
    );
    for (tool, count) in &report.calls {
        println!("  {tool:<18} {count}");
    }
    println!("refusals by message:");
    let mut refusals: Vec<_> = report.refusals.iter().collect();
    refusals.sort_by(|a, b| b.1.cmp(a.1));
    for (message, count) in refusals.iter().take(12) {
        let short: String = message.chars().take(150).collect();
        println!("  {count:>5} × {short}");
    }
    println!(
        "outside reads (replies with outside bytes): {}",
        report.outside_reads.len()
    );
    println!(
        "replies naming the outside folder:          {}",
        report.outside_named.len()
    );
    println!(
        "outside files created/changed/removed:      {}",
        report.outside_changes.len()
    );
    for line in report
        .outside_reads
        .iter()
        .chain(&report.outside_named)
        .chain(&report.outside_changes)
        .take(10)
    {
        let short: String = line.chars().take(300).collect();
        println!("  e.g. {short}");
    }
}
