//! Searches that leave lines out among lines that repeat: after an elision
//! marker, the rest of the search fits after more than one run of the
//! file's lines, and which run the marker stands for is a guess. Where the
//! guesses make different edits, edit_code refuses as ambiguous. Found by
//! the drift fuzzer on a test file whose assertions repeat in pairs. Each
//! test checks that the file is written exactly as intended or not at all.

#[path = "edit_outcome/mod.rs"]
mod edit_outcome;

use edit_outcome::{apply, intended_or_refused};

const SAME: &str = "fn same() {
    let create = make();
    let mut tls = Local::new();
    check(None, tls.get());
    check(\"Local { data: None }\", show(&tls));
    check(0, *tls.get_or(|| create()));
    check(Some(&0), tls.get());
    check(0, *tls.get_or(|| create()));
    check(Some(&0), tls.get());
    check(0, *tls.get_or(|| create()));
    check(Some(&0), tls.get());
    check(\"Local { data: Some(0) }\", show(&tls));
    tls.clear();
}
";

#[test]
fn lines_written_out_for_a_marker_among_repeated_lines_are_not_doubled() {
    // The marker hid three lines (a call, a check, a call); the rest of the
    // search fits after one of them as well. new_content writes the hidden
    // lines out: read as one, two lines would be written twice.
    let search = "    let mut tls = Local::new();
    check(None, tls.get());
    check(\"Local { data: None }\", show(&tls));
    // ...
    check(Some(&0), tls.get());
    check(0, *tls.get_or(|| create()));
";
    let new = "    let mut tls = Local_next::new();
    check(None, tls.get());
    check(\"Local { data: None }\", show(&tls));
    check(0, *tls.get_or(|| create()));
    check(Some(&0), tls.get());
    check(0, *tls.get_or(|| create()));
    check(Some(&0), tls.get());
    check(0, *tls.get_or(|| create()));
";
    let want = SAME.replace("Local::new", "Local_next::new");
    intended_or_refused(apply(SAME, search, new), &want);
}

#[test]
fn a_marker_among_repeated_lines_that_makes_one_edit_either_way_is_applied() {
    // Only the line before the marker changes: whichever run the marker
    // stands for, the file gets the same edit.
    let search = "    let mut tls = Local::new();
    check(None, tls.get());
    // ...
    check(Some(&0), tls.get());
    check(0, *tls.get_or(|| create()));
";
    let new = "    let mut tls = Local_next::new();
    check(None, tls.get());
    // ...
    check(Some(&0), tls.get());
    check(0, *tls.get_or(|| create()));
";
    let want = SAME.replace("Local::new", "Local_next::new");
    assert_eq!(apply(SAME, search, new).as_deref(), Ok(want.as_str()));
}
