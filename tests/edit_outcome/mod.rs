//! An edit_code case run to its end, for the tests that hold edit_code to
//! its promise: the file exactly as intended, or untouched.
#![allow(dead_code)]

use mcp_server_text::text::fuzzy::{Candidate, EditRequest, Refusal, plan_edit};
use proptest::strategy::Strategy;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestRng, TestRunner};

/// The file after the edit of `search` into `new`, or the refusal.
pub fn apply(file: &str, search: &str, new: &str) -> Result<String, Refusal> {
    plan_edit(file, &EditRequest::new(search, new)).map(|plan| plan.apply_to(file))
}

/// Passes when the edit made the file `want`, or was refused: never
/// anything else.
pub fn intended_or_refused(got: Result<String, Refusal>, want: &str) {
    if let Ok(got) = got {
        assert_eq!(got, want);
    }
}

/// Applies the edit, checks it with [`intended_or_refused`], and says
/// whether it was made.
pub fn made_as_meant_or_refused(file: &str, search: &str, new: &str, want: &str) -> bool {
    let got = apply(file, search, new);
    let made = got.is_ok();
    intended_or_refused(got, want);
    made
}

/// One case: the file, the search, new_content, and the file as intended.
#[derive(Debug, Clone)]
pub struct Case {
    pub file: String,
    pub search: String,
    pub new: String,
    pub want: String,
}

impl Case {
    /// [`made_as_meant_or_refused`] on this case.
    pub fn made_as_meant_or_refused(&self) -> bool {
        made_as_meant_or_refused(&self.file, &self.search, &self.new, &self.want)
    }
}

/// The line ranges (first, last) an ambiguous refusal offers, in order.
pub fn candidate_lines(candidates: &[Candidate]) -> Vec<(usize, usize)> {
    candidates
        .iter()
        .map(|c| (c.lines.start, c.lines.end))
        .collect()
}

/// A file of two functions: `mine` with the lines `mine`, `copy` with the
/// lines `copy`, the copy first if `copy_first`.
pub fn two_functions(mine: &[String], copy: &[String], copy_first: bool) -> String {
    let join = |v: &[String]| v.iter().map(|l| format!("{l}\n")).collect::<String>();
    let (mine, copy) = (
        format!("fn mine() {{\n{}}}\n", join(mine)),
        format!("fn copy() {{\n{}}}\n", join(copy)),
    );
    if copy_first {
        format!("{copy}\n{mine}")
    } else {
        format!("{mine}\n{copy}")
    }
}

/// Runs `check` over `cases` inputs from `strategy` with a fixed seed, and
/// returns how many of them `check` reported as made.
pub fn run<S: Strategy>(
    cases: u32,
    strategy: S,
    check: impl Fn(S::Value) -> Result<bool, TestCaseError>,
) -> u32 {
    let config = Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    };
    let mut runner =
        TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha));
    let made = std::cell::Cell::new(0u32);
    runner
        .run(&strategy, |input| {
            if check(input)? {
                made.set(made.get() + 1);
            }
            Ok(())
        })
        .unwrap();
    made.get()
}

/// Runs `check` as [`run`] does, and fails unless at least `floor` of the
/// `cases` were made: a floor keeps refusing everything from passing.
pub fn made_at_least<S: Strategy>(
    cases: u32,
    floor: u32,
    strategy: S,
    check: impl Fn(S::Value) -> Result<bool, TestCaseError>,
) {
    let made = run(cases, strategy, check);
    println!("made {made} of {cases}");
    assert!(made >= floor, "made only {made} of {cases}");
}

/// `lines` as a text, each line ended; upside down (last line first) if
/// `upside_down`, the same case at the other end of the search.
pub fn text_of(lines: &[String], upside_down: bool) -> String {
    let mut lines = lines.to_vec();
    if upside_down {
        lines.reverse();
    }
    lines.iter().map(|l| format!("{l}\n")).collect()
}

/// `Ok(true)` if the edit made exactly `want`, `Ok(false)` if refused, a
/// failure naming the case for anything else.
pub fn made_or_refused(
    file: &str,
    search: &str,
    new: &str,
    want: &str,
) -> Result<bool, TestCaseError> {
    match apply(file, search, new) {
        Ok(got) if got == want => Ok(true),
        Ok(got) => Err(TestCaseError::fail(format!(
            "wrong edit\n--- file\n{file}--- search\n{search}--- new\n{new}--- want\n{want}--- got\n{got}"
        ))),
        Err(_) => Ok(false),
    }
}

/// Swaps `a` and `b` throughout `text`, as a caller's channel that swaps
/// two characters would.
pub fn swapped(text: &str, a: char, b: char) -> String {
    text.chars()
        .map(|c| match c {
            c if c == a => b,
            c if c == b => a,
            c => c,
        })
        .collect()
}
