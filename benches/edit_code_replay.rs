//! Replays edit_code cases kept by the accuracy, drift or unseen benches
//! (`CORPUS_DUMP`, `DRIFT_DUMP`, `UNSEEN_DUMP`): each folder holds `file`,
//! `search`, `new` and `expect`. Prints what the matcher does with each and
//! where its result departs from the expected file.
//!
//! `cargo bench --bench edit_code_replay -- FOLDER...` (a folder of cases, or
//! case folders).

#[path = "../tests/corpus/mod.rs"]
mod corpus;

use std::path::{Path, PathBuf};

use mcp_server_text::text::fuzzy::EditRequest;

fn replay(dir: &Path) {
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap_or_default();
    let (file, search, new, expect) = (read("file"), read("search"), read("new"), read("expect"));
    println!("== {}", dir.display());
    match corpus::plan_with(&file, &EditRequest::new(&search, &new)) {
        Err(why) => println!("refused: {why}"),
        Ok(plan) => {
            let got = plan.apply_to(&file);
            for e in &plan.edits {
                println!(
                    "lines {} ({}, score {}):\n{}",
                    e.lines,
                    e.kind.as_str(),
                    e.score,
                    e.diff
                );
            }
            if !plan.normalized.is_empty() {
                println!("normalized: {:?}", plan.normalized);
            }
            if expect.is_empty() {
                println!("(no expected file)");
            } else if got == expect {
                println!("as expected");
            } else {
                println!(
                    "NOT as expected: {}",
                    corpus::first_difference(&expect, &got)
                );
            }
        }
    }
}

fn main() {
    for arg in std::env::args().skip(1).filter(|a| !a.starts_with('-')) {
        let dir = PathBuf::from(arg);
        if dir.join("search").exists() {
            replay(&dir);
            continue;
        }
        let mut cases: Vec<PathBuf> = std::fs::read_dir(&dir)
            .map(|d| d.flatten().map(|e| e.path()).collect())
            .unwrap_or_default();
        cases.sort();
        for case in cases {
            replay(&case);
        }
    }
}
