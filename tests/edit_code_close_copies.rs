//! Two copies of the searched block a few lines apart. The alignment model
//! prices the search in windows the candidate search proposes, one place per
//! window; a window around the second copy also held the first, which took
//! its alignment, so the second copy was never weighed as a rival and a
//! single match edited the first one of two equal copies. Under
//! `replace_all` the same loss left the second copy unchanged. Found by the
//! fuzzy_edit fuzz target, which also found a replace_all plan whose edits,
//! reaching out from two copies to the lines new_content writes around the
//! search, overlapped.

#[path = "edit_outcome/mod.rs"]
mod edit_outcome;

use edit_outcome::{apply, candidate_lines};
use mcp_server_text::text::fuzzy::{
    EditRequest, Plan, Refusal, Strategy as EditStrategy, plan_edit,
};
use proptest::prelude::*;

fn replace_all(file: &str, search: &str, new: &str) -> Result<Plan, Refusal> {
    plan_edit(
        file,
        &EditRequest::new(search, new).with_strategy(EditStrategy::ReplaceAll),
    )
}

const FILE: &str = "x\nd\ne!;\n//!\nd\ne!;\n//!\nf\n";

#[test]
fn a_single_match_of_two_copies_three_lines_apart_is_ambiguous() {
    // The search is indented where the file is not, so it is matched
    // tolerantly; new_content writes out the two lines before it, which
    // both copies have.
    let refusal = apply(FILE, "    //!\n", "new\nd\ne!;\n//!\n").unwrap_err();
    match &refusal {
        Refusal::Ambiguous { candidates, .. } => {
            assert_eq!(candidate_lines(candidates), [(4, 4), (7, 7)]);
        }
        other => panic!("expected ambiguous, got {other:?}"),
    }
}

#[test]
fn replace_all_changes_both_copies_three_lines_apart() {
    let plan = replace_all(FILE, "    //!\n", "new\nd\ne!;\n//!\n").unwrap();
    assert_eq!(
        plan.apply_to(FILE),
        "x\nnew\nd\ne!;\n//!\nnew\nd\ne!;\n//!\nf\n"
    );
}

#[test]
fn replace_all_copies_whose_edits_would_overlap_are_refused() {
    // new_content writes out, before the search, five lines that the file
    // has before its second copy, the first copy among them: the edit of
    // the second copy reaches back over the first.
    let file =
        "e!;\n/a!\n//~ z(assert_qe!;\n//!\ne!;\n/a!\n/ert_qe!;\n//!\ne!;\n/a!\n//~ z\n   !\n///~ a";
    let new = "!\n/z(assert_qe!;\n//!\ne!;\n/a!\n/ert_qe!;\n//!";
    match replace_all(file, "    //!\n", new).unwrap_err() {
        Refusal::Unverified { lines, problem, .. } => {
            assert_eq!((lines.start, lines.end), (4, 4));
            assert!(problem.contains("lines 3-8"), "{problem}");
        }
        other => panic!("expected unverified, got {other:?}"),
    }
}

/// Lines unlike each other and unlike the block.
fn filler() -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec("[a-z]{3,8} = [0-9]{1,3};", 0..5).prop_map(|lines| {
        lines
            .into_iter()
            .enumerate()
            .map(|(k, l)| format!("{l} // {k}\n"))
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// A block the file has twice, searched with a drift that makes the
    /// match tolerant, is refused as ambiguous under a single match however
    /// close the copies are, and changed at both under `replace_all`.
    #[test]
    fn two_equal_copies_are_never_told_apart(
        block in prop::collection::vec("[a-z]{2,6}\\([a-z]{0,4}\\);", 1..4),
        before in filler(),
        between in filler(),
        after in filler(),
        changed in 0usize..4,
        written_before in 0usize..3,
    ) {
        let block: Vec<String> = block.iter().map(|l| format!("    {l}\n")).collect();
        let copy = block.concat();
        let mut file = String::from("fn f() {\n");
        file.extend(before.iter().cloned());
        file.push_str(&copy);
        file.extend(between.iter().map(|l| format!("    {l}")));
        file.push_str(&copy);
        file.extend(after.iter().cloned());
        file.push_str("}\n");
        // Tabs for spaces: a drift every copy shares.
        let search: String = block.iter().map(|l| l.replacen("    ", "\t", 1)).collect();
        let changed = changed % block.len();
        let mut new: Vec<String> = block.clone();
        new[changed] = "    changed();\n".to_string();
        // new_content may write out lines the file has before each copy
        // (the lines `between` ends with are the second copy's).
        let shown: Vec<String> = between
            .iter()
            .rev()
            .take(written_before)
            .rev()
            .map(|l| format!("    {l}"))
            .collect();
        let new: String = shown.concat() + &new.concat();
        let single = apply(&file, &search, &new);
        prop_assert!(
            matches!(single, Err(Refusal::Ambiguous { .. })),
            "single match: {:?}", single.map(|_| ())
        );
        if shown.is_empty() {
            let all = replace_all(&file, &search, &new).map(|p| p.apply_to(&file));
            prop_assert_eq!(all.ok(), Some(file.replace(&copy, &new)));
        }
    }
}
