//! An edit_code case run to its end, for the tests that hold edit_code to
//! its promise: the file exactly as intended, or untouched.
#![allow(dead_code)]

use mcp_server_text::text::fuzzy::{Candidate, EditRequest, Refusal, plan_edit};

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
