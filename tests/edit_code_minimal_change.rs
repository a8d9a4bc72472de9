//! The caller's change is the one that keeps the most of its lines. A
//! search whose lines repeat (`adv(); if (!hex()) { return FAIL; }` twice)
//! with a typo in the first copy's `return` has only one `return FAIL;`
//! left, and new_content (typo mended, the second `return` changed) has
//! only one too, at the first copy. A diff that anchors on lines found once
//! on each side paired those two, read the change as four lines removed
//! and four others written, and wrote the rewritten lines as new_content
//! has them: with the caller's trailing spaces. Found by the drift bench
//! (seed 7, held out) on a C scanner. Each test checks exact bytes, or that
//! the file is written exactly as intended or not at all.

#[path = "edit_outcome/mod.rs"]
mod edit_outcome;

use edit_outcome::{apply, intended_or_refused};
use proptest::prelude::*;

const SCANNER: &str = "static char scan_escape(Scanner *s, Lexer *lx) {\n    if (lx->ahead != '%') {\n        return STOP;\n    }\n    mark_end(s, lx);\n    advance(s, lx);\n    if (!is_hex(lx->ahead)) {\n        return FAIL;\n    }\n    advance(s, lx);\n    if (!is_hex(lx->ahead)) {\n        return FAIL;\n    }\n    advance(s, lx);\n    return DONE;\n}\n";

#[test]
fn a_typo_in_a_repeated_line_leaves_the_other_lines_as_the_file_has_them() {
    // The search is dedented by four columns, has a typo in the first
    // `return FAIL;` and trailing spaces on its last line.
    let search = "if (lx->ahead != '%') {\n    return STOP;\n}\nmark_end(s, lx);\nadvance(s, lx);\nif (!is_hex(lx->ahead)) {\n    oeturn FAIL;\n}\nadvance(s, lx);\nif (!is_hex(lx->ahead)) {\n    return FAIL;\n}\nadvance(s, lx);   \n";
    let new = "if (lx->ahead != '%') {\n    return STOP;\n}\nmark_end(s, lx);\nadvance(s, lx);\nif (!is_hex(lx->ahead)) {\n    return FAIL;\n}\nadvance(s, lx);\nif (!is_hex(lx->ahead)) {\n    return FAIL_NEXT;\n}\nadvance(s, lx);   \n";
    let want = SCANNER.replacen(
        "        return FAIL;\n    }\n    advance(s, lx);\n    return DONE;",
        "        return FAIL_NEXT;\n    }\n    advance(s, lx);\n    return DONE;",
        1,
    );
    assert_eq!(apply(SCANNER, search, new).unwrap(), want);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// A block of 2–4 copies of the same three lines; the search holds it
    /// with trailing spaces on some lines and a typo in one line of one
    /// copy; new_content mends the typo and changes the same line in
    /// another copy. The file gets that one change, or nothing.
    #[test]
    fn a_typo_that_makes_a_repeated_line_unique_never_moves_the_change(
        copies in 2usize..5,
        typo_copy in 0usize..4,
        change_copy in 0usize..4,
        spaced in proptest::collection::vec(any::<bool>(), 16),
        at in 0usize..6,
    ) {
        let unit = ["    if (!is_hex(lx->ahead)) {", "        return FAIL;", "    }"];
        let mut file_lines = vec!["static char scan(Lexer *lx) {".to_string()];
        for _ in 0..copies {
            file_lines.extend(unit.iter().map(|l| l.to_string()));
            file_lines.push("    advance(lx);".to_string());
        }
        file_lines.push("    return DONE;".to_string());
        file_lines.push("}".to_string());
        let typo_copy = typo_copy % copies;
        let change_copy = (typo_copy + 1 + change_copy % (copies - 1)) % copies;
        let line_of = |copy: usize| 1 + copy * 4 + 1;
        // The search: the body, trailing spaces on some lines.
        let body = 1..file_lines.len() - 2;
        let mut search: Vec<String> = file_lines[body.clone()]
            .iter()
            .zip(&spaced)
            .map(|(l, &s)| if s { format!("{l}  ") } else { l.clone() })
            .collect();
        let mut new = search.clone();
        let t = line_of(typo_copy) - 1;
        let mut chars: Vec<char> = search[t].chars().collect();
        let at = 8 + at % 6;
        chars[at] = if chars[at] == 'x' { 'y' } else { 'x' };
        search[t] = chars.into_iter().collect();
        let c = line_of(change_copy) - 1;
        new[c] = new[c].replacen("FAIL", "FAIL_NEXT", 1);
        let mut want = file_lines.clone();
        want[line_of(change_copy)] = want[line_of(change_copy)].replacen("FAIL", "FAIL_NEXT", 1);
        let join = |v: &[String]| v.iter().map(|l| format!("{l}\n")).collect::<String>();
        intended_or_refused(apply(&join(&file_lines), &join(&search), &join(&new)), &join(&want));
    }
}
