//! A drift fuzzer for edit_code over the real files on this machine (see
//! `tests/corpus/drift.rs`): prints, per drift, how many edits were applied
//! exactly, refused, or made wrong, and lists every wrong edit.
//!
//! `cargo bench --bench edit_code_drift -- [cases] [seed]` (default 3000
//! cases, seed 1). `DRIFT_DUMP=<folder>` writes each wrong case there
//! (`search`, `new`, `expect`, `got`) to replay by hand; `DRIFT_NOTES=1`
//! also lists the refusals.

#[path = "../tests/corpus/mod.rs"]
mod corpus;

use std::time::Instant;

use corpus::drift;

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let count: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(3000);
    let seed: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1);

    let files = drift::discover();
    println!(
        "edit_code drift fuzz: {count} cases, seed {seed}, {} candidate files",
        files.len()
    );
    if files.is_empty() {
        println!("skipped: no source files found");
        return;
    }
    let started = Instant::now();
    let cases = drift::generate(&files, count, seed);
    let made = started.elapsed();
    let started = Instant::now();
    let (by_drift, all, notes) = drift::run(&cases);
    let ran = started.elapsed();

    let mut langs = std::collections::BTreeMap::new();
    for c in &cases {
        *langs.entry(c.lang.name()).or_insert(0usize) += 1;
    }
    println!(
        "{} cases ({langs:?}), generated in {made:.0?}, run in {ran:.0?}\n",
        cases.len()
    );
    println!(
        "{:<20} {:>6} {:>8} {:>8} {:>6}",
        "drift", "cases", "applied", "refused", "wrong"
    );
    for (k, t) in &by_drift {
        println!(
            "{:<20} {:>6} {:>8} {:>8} {:>6}",
            drift::DRIFTS[*k],
            t.cases,
            t.correct,
            t.refused,
            t.wrong
        );
    }
    println!(
        "{:<20} {:>6} {:>8} {:>8} {:>6}   ({:.1} % right, {:.2} % wrong)",
        "all",
        all.cases,
        all.correct,
        all.refused,
        all.wrong,
        100.0 * all.correct as f64 / all.cases.max(1) as f64,
        100.0 * all.wrong as f64 / all.cases.max(1) as f64
    );

    let dump = std::env::var_os("DRIFT_DUMP").map(std::path::PathBuf::from);
    let refusals_too = std::env::var_os("DRIFT_NOTES").is_some();
    for (n, verdict) in &notes {
        let case = &cases[*n];
        let wrong = matches!(verdict, corpus::Verdict::Wrong(_));
        if wrong || refusals_too {
            println!(
                "\n#{n} {} [{}]: {verdict:?}",
                case.id,
                case.drifts.join("+")
            );
        }
        if let (true, Some(dir)) = (wrong, &dump) {
            let d = dir.join(n.to_string());
            std::fs::create_dir_all(&d).expect("the dump folder can be made");
            let got = corpus::real::outcome_of(&case.file, &case.search, &case.new, case.lang)
                .unwrap_or_default();
            for (name, text) in [
                ("search", &case.search),
                ("new", &case.new),
                ("expect", &case.expect),
                ("got", &got),
                ("file", &case.file),
            ] {
                std::fs::write(d.join(name), text).expect("the dump can be written");
            }
        }
    }
}
