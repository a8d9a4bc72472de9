//! Prints how the edit_code matcher does on the accuracy corpus: per kind of
//! case, how many were applied exactly, refused, or turned into a wrong edit.
//!
//! `cargo bench --bench edit_code_accuracy`; set `CORPUS_NOTES=1` to list every
//! case that was not handled as expected, with the reason.

#[path = "../tests/corpus/mod.rs"]
mod corpus;

use std::time::Instant;

fn main() {
    let cases = corpus::cases::all();
    let started = Instant::now();
    let (tallies, notes) = corpus::run(&cases);
    let elapsed = started.elapsed();
    println!("edit_code accuracy corpus (threshold 0.9)\n");
    println!("{}", corpus::table(&tallies));
    println!(
        "{} cases in {:.0?} ({:.2?} per case)",
        cases.len(),
        elapsed,
        elapsed / cases.len().max(1) as u32
    );
    if std::env::var_os("CORPUS_NOTES").is_some() {
        println!();
        for (id, verdict) in &notes {
            println!("{id}: {verdict:?}");
        }
    }
}
