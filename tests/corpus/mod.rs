//! The edit_code accuracy corpus, shared by the test (which fails on any wrong
//! edit) and the report bench (which prints the rates).
//!
//! Every case is generated deterministically from a seed: a source file in one
//! of several languages, a block of it, an edit of that block, and the drift
//! an agent's view of the block has (line endings, whitespace, indentation,
//! tabs, typos, blank lines, look-alike characters, elision), or a situation
//! where any edit would be wrong (the block is ambiguous or absent). The
//! expected text after the edit is computed from the clean file, independently
//! of the matcher.

#![allow(dead_code)]

pub mod cases;
pub mod drift;
pub mod real;
pub mod rng;
pub mod source;
pub mod text;
pub mod unseen;

use std::collections::BTreeMap;

use mcp_server_text::text::fuzzy::{EditRequest, Plan};

pub use cases::{Case, Expect, Kind};

/// How one case went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Applied with exactly the expected result, or refused as required.
    Correct,
    /// Refused although it could have been applied (not wrong, only missed).
    Refused(String),
    /// Applied with a result other than the expected one, or applied when it
    /// had to be refused.
    Wrong(String),
    /// Applied, where a refusal was asked for, to another block that the
    /// file held before it moved on and that reads the search up to one line
    /// (only the unseen kinds' look-alike cases have one): neither right nor
    /// wrong, since the same texts without the look-alike ask for that edit.
    NearCopy(String),
}

/// Plans an edit, a refusal as its message.
pub fn plan_with(file: &str, request: &EditRequest<'_>) -> Result<Plan, String> {
    mcp_server_text::text::fuzzy::plan_edit(file, request).map_err(|r| r.to_string())
}

/// Runs one case.
pub fn evaluate(case: &Case) -> Verdict {
    let request = EditRequest::new(&case.search, &case.new).with_strategy(case.strategy);
    let result = plan_with(&case.file, &request).map(|plan| plan.apply_to(&case.file));
    match (&case.expect, result) {
        (Expect::Refuse, Err(_)) => Verdict::Correct,
        (Expect::Refuse, Ok(_)) => Verdict::Wrong("applied an edit that had to be refused".into()),
        (Expect::Text(want) | Expect::RightOrRefuse(want), Ok(got)) if got == *want => {
            Verdict::Correct
        }
        (Expect::Text(want) | Expect::RightOrRefuse(want), Ok(got)) => {
            Verdict::Wrong(first_difference(want, &got))
        }
        (Expect::Text(_), Err(refusal)) => Verdict::Refused(refusal),
        (Expect::RightOrRefuse(_), Err(refusal)) => Verdict::Refused(refusal),
    }
}

/// Where two texts part, for messages.
pub fn first_difference(want: &str, got: &str) -> String {
    for (n, (w, g)) in want.split('\n').zip(got.split('\n')).enumerate() {
        if w != g {
            return format!("line {}: expected {w:?}, got {g:?}", n + 1);
        }
    }
    format!(
        "expected {} lines, got {}",
        want.split('\n').count(),
        got.split('\n').count()
    )
}

/// Counts for one kind.
#[derive(Debug, Default, Clone, Copy)]
pub struct Tally {
    pub cases: usize,
    pub correct: usize,
    pub refused: usize,
    pub wrong: usize,
    /// Edits of a near copy ([`Verdict::NearCopy`]).
    pub near_copy: usize,
}

/// Runs every case and tallies by kind; also returns the failures.
pub fn run(cases: &[Case]) -> (BTreeMap<Kind, Tally>, Vec<(String, Verdict)>) {
    let mut tallies: BTreeMap<Kind, Tally> = BTreeMap::new();
    let mut notes = Vec::new();
    for case in cases {
        let t = tallies.entry(case.kind).or_default();
        t.cases += 1;
        let verdict = evaluate(case);
        match &verdict {
            Verdict::Correct => t.correct += 1,
            Verdict::Refused(_) => t.refused += 1,
            Verdict::Wrong(_) => t.wrong += 1,
            Verdict::NearCopy(_) => t.near_copy += 1,
        }
        if verdict != Verdict::Correct {
            notes.push((case.id.clone(), verdict));
        }
    }
    (tallies, notes)
}

/// How a kind of case is scored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// Must be applied exactly (a refusal is a miss, not a wrong edit).
    Recoverable,
    /// Must be refused.
    MustRefuse,
    /// Applied to the right block or refused; anything else is wrong.
    RightOrRefuse,
}

/// The report table.
pub fn table(tallies: &BTreeMap<Kind, Tally>) -> String {
    let rows: Vec<(&'static str, Class, Tally)> = tallies
        .iter()
        .map(|(kind, t)| {
            let class = if kind.must_refuse() {
                Class::MustRefuse
            } else if *kind == Kind::NearDuplicate {
                Class::RightOrRefuse
            } else {
                Class::Recoverable
            };
            (kind.name(), class, *t)
        })
        .collect();
    table_of(&rows)
}

/// A report table over rows of kind name, class and counts: per kind, how
/// many were applied exactly, refused and wrong, then the totals.
pub fn table_of(rows: &[(&'static str, Class, Tally)]) -> String {
    let mut out = String::new();
    out.push_str(&format!(
        "{:<24} {:>6} {:>9} {:>8} {:>7}\n",
        "kind", "cases", "applied", "refused", "wrong"
    ));
    let mut recoverable = Tally::default();
    let mut refuse = Tally::default();
    let mut either = Tally::default();
    for (name, class, t) in rows {
        let (applied, refused) = if *class == Class::MustRefuse {
            (t.wrong, t.correct)
        } else {
            (t.correct, t.refused)
        };
        out.push_str(&format!(
            "{:<24} {:>6} {:>9} {:>8} {:>7}\n",
            name, t.cases, applied, refused, t.wrong
        ));
        let bucket = match class {
            Class::Recoverable => &mut recoverable,
            Class::MustRefuse => &mut refuse,
            Class::RightOrRefuse => &mut either,
        };
        bucket.cases += t.cases;
        bucket.correct += t.correct;
        bucket.refused += t.refused;
        bucket.wrong += t.wrong;
    }
    let total_cases = recoverable.cases + refuse.cases + either.cases;
    let total_wrong = recoverable.wrong + refuse.wrong + either.wrong;
    let total_right = recoverable.correct + refuse.correct + either.correct;
    out.push_str(&format!(
        "\nrecoverable: {} of {} applied exactly ({:.1}%), {} refused, {} wrong\n",
        recoverable.correct,
        recoverable.cases,
        100.0 * recoverable.correct as f64 / recoverable.cases.max(1) as f64,
        recoverable.refused,
        recoverable.wrong
    ));
    out.push_str(&format!(
        "must refuse: {} of {} refused ({:.1}%)\n",
        refuse.correct,
        refuse.cases,
        100.0 * refuse.correct as f64 / refuse.cases.max(1) as f64
    ));
    if either.cases > 0 {
        out.push_str(&format!(
            "near duplicates: {} of {} applied to the right block, {} refused, {} wrong\n",
            either.correct, either.cases, either.refused, either.wrong
        ));
    }
    out.push_str(&format!(
        "total: {total_cases} cases, {total_right} right ({:.1}%), {total_wrong} wrong edits\n",
        100.0 * total_right as f64 / total_cases.max(1) as f64
    ));
    out
}
