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

/// Two impls whose methods read the same, one with `#[inline]` on its
/// second method too. `ours` is the index of the impl the caller means.
fn impls(inline_second: [bool; 2], body: &str) -> String {
    let mut out = String::new();
    for (k, second) in inline_second.iter().enumerate() {
        out.push_str(&format!(
            "impl Encode for Vec{k} {{\n    #[inline]\n    fn encode_len(&self) -> usize {{\n        self.as_bytes().len()\n    }}\n\n"
        ));
        if *second {
            out.push_str("    #[inline]\n");
        }
        out.push_str(&format!(
            "    fn encode_write(&self, dst: &mut [u8]) {{\n        {body}\n        dst.copy_from_slice(self.as_bytes());\n    }}\n}}\n\n"
        ));
    }
    out
}

/// A marker stands for lines among which is one the search shows
/// elsewhere (`#[inline]`), and new_content writes them out: written out,
/// that line is the file's, not a new line. The caller's impl, the one
/// with the line, was taken as the one without it, and `#[inline]` was
/// added there (zerovec's encode.rs, drift bench with seed 2).
#[test]
fn a_line_the_search_shows_once_and_new_content_writes_out_again_is_the_file_s() {
    let body = "debug_assert_eq!(self.as_bytes().len(), dst.len());";
    let file = impls([false, true], body);
    let search = format!(
        "    #[inline]\n    fn encode_len(&self) -> usize {{\n        // ... rest of the code\n    fn encode_write(&self, dst: &mut [u8]) {{\n        {body}\n\n        dst.copy_from_slice(self.as_bytes());\n    }}\n"
    );
    let new = format!(
        "    #[inline]\n    fn encode_len(&self) -> usize {{\n        self.as_bytes().len()\n    }}\n\n    #[inline]\n    fn encode_write(&self, dst: &mut [u8]) {{\n        {body}\n\n        dst.copy_from_slice_next(self.as_bytes());\n    }}\n"
    );
    let got = apply(&file, &search, &new);
    // The search fits the first impl as well (better, by the marker's
    // depth), so the only right edit would be the second impl's.
    let at = file.rfind("dst.copy_from_slice(").unwrap();
    let mut want = file.clone();
    want.replace_range(
        at..at + "dst.copy_from_slice(".len(),
        "dst.copy_from_slice_next(",
    );
    assert!(
        got.is_err() || got.as_deref() == Ok(want.as_str()),
        "{got:?}"
    );
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig {
        cases: 200,
        failure_persistence: None,
        ..proptest::prelude::ProptestConfig::default()
    })]

    /// Property: whichever impl has the extra line, whichever the caller
    /// means, with or without a blank line the search adds, the edit lands
    /// in the caller's impl or nowhere.
    #[test]
    fn the_impl_whose_hidden_lines_new_content_writes_out_is_the_one_edited(
        inline in proptest::array::uniform2(proptest::bool::ANY),
        ours in 0usize..2,
        blank in proptest::bool::ANY,
        body in "[a-z_]{3,12}\\(self\\)\\.len\\(\\);",
    ) {
        let file = impls(inline, &body);
        let attr = if inline[ours] { "    #[inline]\n" } else { "" };
        let gap = if blank { "\n" } else { "" };
        let search = format!(
            "    #[inline]\n    fn encode_len(&self) -> usize {{\n        // ... rest of the code\n    fn encode_write(&self, dst: &mut [u8]) {{\n        {body}\n{gap}        dst.copy_from_slice(self.as_bytes());\n    }}\n"
        );
        let new = format!(
            "    #[inline]\n    fn encode_len(&self) -> usize {{\n        self.as_bytes().len()\n    }}\n\n{attr}    fn encode_write(&self, dst: &mut [u8]) {{\n        {body}\n{gap}        dst.copy_from_slice_next(self.as_bytes());\n    }}\n"
        );
        // The caller's impl: the `ours`-th copy of the write's last lines.
        let needle = "dst.copy_from_slice(";
        let at = file.match_indices(needle).nth(ours).unwrap().0;
        let mut want = file.clone();
        want.replace_range(at..at + needle.len(), "dst.copy_from_slice_next(");
        intended_or_refused(apply(&file, &search, &new), &want);
    }
}
