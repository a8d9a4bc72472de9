//! The caller's texts with a backslash escape on every line (`\r` before
//! the indentation, `\b` or `\u001b` at the end) read through JSON as
//! control characters. No text file holds such characters inside its
//! lines, so such a reading never finds the caller's block and is no
//! reading at all: the edit is made from the texts as sent, or refused,
//! and never writes a control character. Found by the census of unknown
//! transformations (`edit_code_transforms`, seed 359682): a `\r` prefix on
//! every line read as a carriage return, the alignment took it for
//! whitespace, and the rewritten line was written with a carriage return in
//! the middle of its indentation.

#[path = "edit_outcome/mod.rs"]
mod edit_outcome;

use edit_outcome::{apply, run};
use proptest::prelude::*;

/// Escapes that JSON reads as a control character other than a line break.
const ESCAPES: [&str; 6] = ["\\r", "\\b", "\\f", "\\u0001", "\\u001b", "\\r\\t"];

#[derive(Debug, Clone)]
struct Escaped {
    file: String,
    search: String,
    new: String,
}

prop_compose! {
    /// A function of `n` statements; the caller's view of `len` of them from
    /// `at`, each line carrying the same escape at its start or its end,
    /// with one line rewritten and, with `add`, one line added after it.
    fn escaped()(
        names in proptest::collection::vec("[a-z]{3,7}", 6..12),
        escape in 0..ESCAPES.len(),
        at_start in any::<bool>(),
        spaced in any::<bool>(),
        start in 0usize..4,
        len in 2usize..5,
        rewrite in 0usize..5,
        add in any::<bool>(),
    ) -> Escaped {
        let lines: Vec<String> = names
            .iter()
            .enumerate()
            .map(|(k, n)| format!("    let {n}_{k} = {n}({k});"))
            .collect();
        let file = format!("fn f() {{\n{}}}\n", lines.iter().map(|l| format!("{l}\n")).collect::<String>());
        let shown = &lines[start..(start + len).min(lines.len())];
        let rewrite = rewrite % shown.len();
        let mut meant: Vec<String> = shown.to_vec();
        meant[rewrite] = format!("{}_new;", meant[rewrite].trim_end_matches(';'));
        if add {
            meant.insert(rewrite + 1, "    added();".to_string());
        }
        let e = ESCAPES[escape];
        let mark = |l: &String| {
            let gap = if spaced { " " } else { "" };
            if at_start { format!("{e}{gap}{l}\n") } else { format!("{l}{gap}{e}\n") }
        };
        Escaped {
            file,
            search: shown.iter().map(mark).collect(),
            new: meant.iter().map(mark).collect(),
        }
    }
}

/// Whether `text` has a control character other than a tab or a line feed.
fn has_control(text: &str) -> bool {
    text.chars()
        .any(|c| c.is_control() && c != '\t' && c != '\n')
}

#[test]
fn escapes_never_reach_the_file_as_control_characters() {
    let made = run(600, escaped(), |c| {
        let got = apply(&c.file, &c.search, &c.new);
        if let Ok(got) = &got {
            prop_assert!(
                !has_control(got),
                "control character written\n--- search\n{}--- new\n{}--- got\n{got:?}",
                c.search,
                c.new
            );
        }
        Ok(got.is_ok())
    });
    println!("made {made} of 600");
}

#[test]
fn the_census_case_is_refused() {
    let file = "  if (limit > 82) {\n    for (const step of batch.kinds) {\n      const metricKind = step + 90;\n      emit(limit + 74);\n    }\n    countMetric(batch, limit);\n    return step + 34;\n  }\n";
    let search = "\\r      const metricKind = step + 90;\n\\r      emit(limit + 74);\n\\r    }\n\\r    countMetric(batch, limit);\n";
    let new = "\\r      const metricKind = step_alt + 90;\n\\r      emit(limit + 74);\n\\r    }\n\\r    countMetric(batch, limit);\n";
    let got = apply(file, search, new);
    assert!(got.is_err(), "{got:?}");
}
