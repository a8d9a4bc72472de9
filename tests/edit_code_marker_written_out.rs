//! A search that elides a body behind a marker, and a new_content that
//! writes the body out with the caller's changes in it: the caller has the
//! lines the marker stands for, and changes them like any line it shows.
//! Found on the real-file corpus, where such edits were refused: a closing
//! `}` given a comment among the lines written out (a line like it further
//! on was taken for it), a changed line shown before the marker (the marker
//! then did not open the lines changed), and a marker the alignment placed
//! beside the lines it stands for rather than over them. Each test checks
//! exact bytes.

#[path = "edit_outcome/mod.rs"]
mod edit_outcome;

use edit_outcome::apply;
use proptest::prelude::*;

/// A function `name` whose body is `blocks` if-blocks, each with a call.
fn function(name: &str, blocks: &[usize]) -> Vec<String> {
    let mut out = vec![format!("fn {name}(x: u32) -> u32 {{")];
    for &k in blocks {
        out.push(format!("    if x > {k} {{"));
        out.push(format!("        record_{k}(x);"));
        out.push("    }".to_string());
    }
    out.push("    x".to_string());
    out.push("}".to_string());
    out
}

fn text(lines: &[String]) -> String {
    lines.iter().map(|l| format!("{l}\n")).collect()
}

/// A file of `before`, the function `target` and `after`; the search shows
/// the function's first line, a marker for its body, and its last line.
fn elided(blocks: &[usize]) -> (Vec<String>, String) {
    let mut file = function("before", &[1, 2]);
    file.push(String::new());
    file.extend(function("target", blocks));
    file.push(String::new());
    file.extend(function("after", &[3, 4]));
    (
        file,
        "fn target(x: u32) -> u32 {\n    // ...\n}\n".to_string(),
    )
}

#[test]
fn a_closing_brace_given_a_comment_in_the_lines_written_out_is_that_brace() {
    let (file, search) = elided(&[10, 20, 30]);
    let body = function("target", &[10, 20, 30]);
    let mut new = body.clone();
    new[3].push_str("  // first check");
    let want = text(&file).replacen(&text(&body), &text(&new), 1);
    assert_eq!(apply(&text(&file), &search, &text(&new)).unwrap(), want);
}

#[test]
fn a_line_shown_before_the_marker_changes_while_the_body_is_written_out() {
    let (file, search) = elided(&[10, 20]);
    let body = function("target", &[10, 20]);
    let mut new = body.clone();
    new[0] = "pub fn target(x: u32) -> u32 {".to_string();
    new.insert(3, "        audit(x);".to_string());
    let want = text(&file).replacen(&text(&body), &text(&new), 1);
    assert_eq!(apply(&text(&file), &search, &text(&new)).unwrap(), want);
}

#[test]
fn a_body_written_out_without_a_line_it_had_is_refused() {
    // The caller may have read the body before the file gained that line.
    let (file, search) = elided(&[10, 20, 30]);
    let body = function("target", &[10, 20, 30]);
    let mut new = body.clone();
    new.remove(5);
    new[3].push_str("  // first check");
    assert!(apply(&text(&file), &search, &text(&new)).is_err());
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 300,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Property: where new_content writes out every line a marker stands
    /// for, in order, rewriting some in place (a comment on a closing
    /// brace, a call renamed), adding lines between them, and perhaps
    /// changing the line shown before the marker, the file becomes exactly
    /// new_content's version of the body.
    #[test]
    fn a_body_written_out_with_changes_in_place_is_that_change(
        blocks in proptest::collection::btree_set(5usize..90, 2..6),
        braces in proptest::collection::vec(any::<bool>(), 6),
        renamed in proptest::option::of(0usize..6),
        added in proptest::option::of(0usize..6),
        header in any::<bool>(),
    ) {
        let blocks: Vec<usize> = blocks.into_iter().collect();
        let (file, search) = elided(&blocks);
        let body = function("target", &blocks);
        let mut new = body.clone();
        for (b, &on) in braces.iter().enumerate().take(blocks.len()) {
            if on {
                new[3 + 3 * b].push_str("  // checked");
            }
        }
        if let Some(b) = renamed.filter(|&b| b < blocks.len()) {
            new[2 + 3 * b] = new[2 + 3 * b].replace("record_", "store_");
        }
        if header {
            new[0] = format!("pub {}", new[0]);
        }
        if let Some(b) = added.filter(|&b| b < blocks.len()) {
            new.insert(2 + 3 * b, "        audit(x);".to_string());
        }
        prop_assume!(new != body);
        let want = text(&file).replacen(&text(&body), &text(&new), 1);
        prop_assert_eq!(apply(&text(&file), &search, &text(&new)).unwrap(), want);
    }
}
