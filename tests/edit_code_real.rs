//! edit_code on drifted edits of real files this repository did not write
//! (the real-file accuracy corpus, see `tests/corpus/real`). A short subset
//! runs here and fails on any wrong edit; the whole corpus is reported by
//! `cargo bench --bench edit_code_accuracy`. Files that are not on this
//! machine are skipped.

#[path = "corpus/mod.rs"]
mod corpus;

use corpus::Verdict;
use corpus::real::{self, Expect};

/// Cases of each kind in the subset.
const SUBSET: usize = 2;

fn show(cases: &[real::Case]) {
    let Some(wanted) = std::env::var_os("CORPUS_SHOW") else {
        return;
    };
    let wanted = wanted.to_string_lossy().into_owned();
    for case in cases.iter().filter(|c| c.id.contains(&wanted)) {
        println!(
            "==== {}\n== search\n{}\n== new\n{}",
            case.id, case.search, case.new
        );
        let got = real::outcome(case);
        match (&case.expect, &got) {
            (Expect::Text(want), Ok(got)) => {
                let diff = similar::TextDiff::from_lines(want.as_str(), got.as_str());
                println!(
                    "== expected -> got\n{}",
                    diff.unified_diff().context_radius(2)
                );
            }
            (Expect::Text(want), Err(why)) => {
                let diff = similar::TextDiff::from_lines(case.file.as_str(), want.as_str());
                println!(
                    "== refused: {why}\n== wanted\n{}",
                    diff.unified_diff().context_radius(2)
                );
            }
            (Expect::Refuse, got) => println!("== must refuse; got {got:?}"),
        }
    }
}

fn check(per_kind: usize) {
    let real = real::corpus(per_kind);
    if real.files == 0 {
        eprintln!("skipped: none of the manifest's files are on this machine");
        return;
    }
    let (tallies, notes) = real::run(&real.cases);
    println!(
        "{} cases over {} files ({} missing, {} changed); {} judged broken, {} dropped\n{}",
        real.cases.len(),
        real.files_used,
        real.missing,
        real.changed,
        real.judged_broken,
        real.dropped,
        real::table(&tallies)
    );
    if std::env::var_os("CORPUS_NOTES").is_some() {
        for (id, verdict) in &notes {
            println!("{id}: {verdict:?}");
        }
    }
    show(&real.cases);
    let wrong: Vec<String> = notes
        .iter()
        .filter_map(|(id, v)| match v {
            Verdict::Wrong(why) => Some(format!("{id}: {why}")),
            _ => None,
        })
        .collect();
    assert!(
        wrong.is_empty(),
        "{} wrong edits:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

#[test]
fn a_subset_of_real_file_edits_has_no_wrong_edit() {
    check(SUBSET);
}

/// The whole corpus, for working on the matcher: `cargo test --release
/// --test edit_code_real -- --ignored --nocapture`.
#[test]
#[ignore]
fn the_whole_real_file_corpus_has_no_wrong_edit() {
    check(real::cases::PER_KIND);
}
