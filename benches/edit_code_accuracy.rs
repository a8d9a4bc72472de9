//! Prints how the edit_code matcher does on both accuracy corpora: per kind of
//! case, how many were applied exactly, refused, or turned into a wrong edit.
//! The generated corpus is the regression suite; the real-file corpus draws
//! its edits from files this repository did not write (`tests/corpus/real`),
//! and is skipped where none of them are on the machine.
//!
//! `cargo bench --bench edit_code_accuracy`; set `CORPUS_NOTES=1` to list every
//! case that was not handled as expected, with the reason.

#[path = "../tests/corpus/mod.rs"]
mod corpus;

use std::time::Instant;

fn main() {
    let notes_wanted = std::env::var_os("CORPUS_NOTES").is_some();

    let cases = corpus::cases::all();
    let started = Instant::now();
    let (tallies, notes) = corpus::run(&cases);
    let elapsed = started.elapsed();
    println!("edit_code accuracy, generated corpus (threshold 0.9)\n");
    println!("{}", corpus::table(&tallies));
    println!(
        "{} cases in {:.0?} ({:.2?} per case)",
        cases.len(),
        elapsed,
        elapsed / cases.len().max(1) as u32
    );
    if notes_wanted {
        println!();
        for (id, verdict) in &notes {
            println!("{id}: {verdict:?}");
        }
    }
    // CORPUS_DUMP=<folder> keeps each wrong case to replay by hand
    // (cargo bench --bench edit_code_replay -- <folder>); with
    // CORPUS_DUMP_REFUSED=1 also each case refused that should apply.
    let dump = std::env::var_os("CORPUS_DUMP").map(std::path::PathBuf::from);
    let refused_too = std::env::var_os("CORPUS_DUMP_REFUSED").is_some();
    if let Some(dir) = &dump {
        for case in &cases {
            let kept = match corpus::evaluate(case) {
                corpus::Verdict::Wrong(_) => true,
                corpus::Verdict::Refused(_) => {
                    refused_too && matches!(case.expect, corpus::Expect::Text(_))
                }
                _ => false,
            };
            if kept {
                let expect = match &case.expect {
                    corpus::Expect::Text(t) | corpus::Expect::RightOrRefuse(t) => t.clone(),
                    corpus::Expect::Refuse => String::new(),
                };
                keep(dir, &case.id, &case.file, &case.search, &case.new, &expect);
            }
        }
    }

    println!("\nedit_code accuracy, real-file corpus\n");
    let real = corpus::real::corpus(corpus::real::cases::PER_KIND);
    if real.files == 0 {
        println!("skipped: none of the manifest's files are on this machine");
        return;
    }
    println!(
        "{} cases over {} files ({} missing, {} with other bytes); \
         {} intended edits the language's parser rejects, expected refused; {} dropped\n",
        real.cases.len(),
        real.files_used,
        real.missing,
        real.changed,
        real.judged_broken,
        real.dropped,
    );
    let started = Instant::now();
    let (tallies, notes) = corpus::real::run(&real.cases);
    let elapsed = started.elapsed();
    println!("{}", corpus::real::table(&tallies));
    println!(
        "{} cases in {:.0?} ({:.2?} per case, syntax gate included)",
        real.cases.len(),
        elapsed,
        elapsed / real.cases.len().max(1) as u32
    );
    if notes_wanted {
        println!();
        for (id, verdict) in &notes {
            println!("{id}: {verdict:?}");
        }
    }
    if let Some(dir) = &dump {
        for case in &real.cases {
            let kept = match corpus::real::evaluate(case) {
                corpus::Verdict::Wrong(_) => true,
                corpus::Verdict::Refused(_) => {
                    refused_too && matches!(case.expect, corpus::real::Expect::Text(_))
                }
                _ => false,
            };
            if !kept {
                continue;
            }
            let expect = match &case.expect {
                corpus::real::Expect::Text(t) => t.clone(),
                corpus::real::Expect::Refuse => String::new(),
            };
            keep(dir, &case.id, &case.file, &case.search, &case.new, &expect);
        }
    }
}

/// Writes one case into its own folder under `dir`.
fn keep(dir: &std::path::Path, id: &str, file: &str, search: &str, new: &str, expect: &str) {
    let d = dir.join(id.replace(['/', ':', '#', ' '], "_"));
    std::fs::create_dir_all(&d).expect("the dump folder can be made");
    for (name, text) in [
        ("search", search),
        ("new", new),
        ("expect", expect),
        ("file", file),
    ] {
        std::fs::write(d.join(name), text).expect("the dump can be written");
    }
}
