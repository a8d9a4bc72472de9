//! edit_code on drift kinds no other corpus makes (`tests/corpus/unseen.rs`):
//! viewer line numbers, JSON and HTML round trips, wrapped and truncated
//! lines, renamed names, swapped or repeated lines, a file that moved on, a
//! block gone while a look-alike stays. Prints per kind how many edits were
//! applied exactly, refused, or made wrong, and how many were made to a near
//! copy of the search that the file already held (neither right nor wrong:
//! see `Case::near_copies`), and lists every wrong and near-copy edit.
//!
//! `cargo bench --bench edit_code_unseen -- [per_kind] [seed]` (default 100
//! per kind, seed 1). `UNSEEN_DUMP=<folder>` writes each wrong or near-copy case there (with
//! `UNSEEN_DUMP_REFUSED=1`, each refused one too);
//! `UNSEEN_NOTES=1` also lists the refusals.

#[path = "../tests/corpus/mod.rs"]
mod corpus;

use std::time::Instant;

use corpus::{drift, unseen};

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let per_kind: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(100);
    let seed: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1);

    let files = drift::discover();
    println!(
        "edit_code unseen drift kinds: {per_kind} per kind, seed {seed}, {} candidate files",
        files.len()
    );
    if files.is_empty() {
        println!("skipped: no source files found");
        return;
    }
    let started = Instant::now();
    let cases = unseen::generate(&files, per_kind, seed);
    let made = started.elapsed();
    let started = Instant::now();
    let (tallies, notes) = unseen::run(&cases);
    let ran = started.elapsed();
    println!(
        "{} cases, generated in {made:.0?}, run in {ran:.0?}\n",
        cases.len()
    );
    println!(
        "{:<22} {:>6} {:>8} {:>8} {:>6} {:>10}",
        "kind", "cases", "right", "refused", "wrong", "near copy"
    );
    let mut all = corpus::Tally::default();
    for kind in unseen::KINDS {
        let Some(t) = tallies.get(kind) else {
            continue;
        };
        println!(
            "{:<22} {:>6} {:>8} {:>8} {:>6} {:>10}",
            kind, t.cases, t.correct, t.refused, t.wrong, t.near_copy
        );
        all.cases += t.cases;
        all.correct += t.correct;
        all.refused += t.refused;
        all.wrong += t.wrong;
        all.near_copy += t.near_copy;
    }
    println!(
        "{:<22} {:>6} {:>8} {:>8} {:>6} {:>10}   ({:.1} % right, {:.2} % wrong)",
        "all",
        all.cases,
        all.correct,
        all.refused,
        all.wrong,
        all.near_copy,
        100.0 * all.correct as f64 / all.cases.max(1) as f64,
        100.0 * all.wrong as f64 / all.cases.max(1) as f64
    );

    let dump = std::env::var_os("UNSEEN_DUMP").map(std::path::PathBuf::from);
    let refusals_too = std::env::var_os("UNSEEN_NOTES").is_some();
    // UNSEEN_DUMP_REFUSED=1 also keeps each refused case.
    let dump_refused = std::env::var_os("UNSEEN_DUMP_REFUSED").is_some();
    for (n, verdict) in &notes {
        let case = &cases[*n];
        let wrong = matches!(verdict, corpus::Verdict::Wrong(_));
        let near = matches!(verdict, corpus::Verdict::NearCopy(_));
        if wrong || near || refusals_too {
            println!("\n#{n} {} [{}]: {verdict:?}", case.id, case.kind);
        }
        let refused = matches!(verdict, corpus::Verdict::Refused(_));
        if let (true, Some(dir)) = (wrong || near || (refused && dump_refused), &dump) {
            let d = dir.join(n.to_string());
            std::fs::create_dir_all(&d).expect("the dump folder can be made");
            let got = corpus::real::outcome_of(&case.file, &case.search, &case.new, case.lang)
                .unwrap_or_default();
            let expect = case.expect.clone().unwrap_or_default();
            for (name, text) in [
                ("search", &case.search),
                ("new", &case.new),
                ("expect", &expect),
                ("got", &got),
                ("file", &case.file),
            ] {
                std::fs::write(d.join(name), text).expect("the dump can be written");
            }
        }
    }
}
