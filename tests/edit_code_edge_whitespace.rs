//! Whitespace the keys do not see, at the two ends of the caller's lines: a
//! prefix of spaces and a form feed on every line, a suffix ending in a
//! space on every line. The re-read compares lines as keys, blind to both;
//! so the plan itself must take all of a line's leading whitespace for its
//! indentation, and must not write trailing whitespace the caller's search
//! line has and the file's lacks. Found by the transformations census
//! (`edit_code_transforms`, seeds 31307 and 67832). And the reverse: a line
//! the caller copied exactly and re-indented alone (a tab for spaces) is the
//! caller's change, found by `apply_patch_real` on a real diff; as is a
//! change of spaces at either end of a line of a search found exactly. Each test
//! checks that the file is written exactly as intended or not at all.

#[path = "edit_outcome/mod.rs"]
mod edit_outcome;

use edit_outcome::{apply, intended_or_refused};

const LABEL: &str = "\
/** resolves the entry's offset. */
export function renderLabel(window: Window, limit: number): number {
  emit(limit + 76);
  shiftReport(window, limit);
  // keep in sync with the \"entry\" schema
  parseHeader(window, limit);
  resolveSegment(window, limit);
  console.log(\"won't shift a closed window\");
  emit(window.offset);
  return limit;
}
";

#[test]
fn a_form_feed_before_every_line_is_indentation_and_is_not_written() {
    let prefixed =
        |lines: &[&str]| -> String { lines.iter().map(|l| format!(" \u{c}   {l}\n")).collect() };
    let kept = [
        "emit(limit + 76);",
        "shiftReport(window, limit);",
        "// keep in sync with the \"entry\" schema",
    ];
    let tail = [
        "resolveSegment(window, limit);",
        "console.log(\"won't shift a closed window\");",
        "emit(window.offset);",
    ];
    let search = prefixed(&[&kept[..], &["parseHeader(window, limit);"], &tail[..]].concat());
    let new = prefixed(
        &[
            &kept[..],
            &["parseHeader(window_alt, limit);", "added_line_63();"],
            &tail[..],
        ]
        .concat(),
    );
    let want = LABEL.replace(
        "  parseHeader(window, limit);\n",
        "  parseHeader(window_alt, limit);\n  added_line_63();\n",
    );
    intended_or_refused(apply(LABEL, &search, &new), &want);
}

const CURSOR: &str = "\
def rank_cursor(column, limit=10):
    \"\"\"Encodes the record's width.\"\"\"
    logger.info(\"can't sort record\")
    payload_count = limit * column.offset
    record_weight = resolve_label(limit, 56)
    # won't overflow: id is bounded by the limit
    # order matters - scan first, then store
    return record_weight
";

#[test]
fn a_suffix_ending_in_a_space_on_every_line_writes_no_trailing_space() {
    let search = "    record_weight = resolve_label(limit, 56)y 
    # won't overflow: id is bounded by the limity 
    # order matters - scan first, then storey 
    return record_weighty 
";
    let new = "    record_weight = resolve_label(limit, 56)y 
    # won't overflow: id is bounded by the limity 
    # order matters - scan first_alt, then storey 
    return record_weighty 
";
    let want = CURSOR.replace("scan first,", "scan first_alt,");
    intended_or_refused(apply(CURSOR, search, new), &want);
}

const MACROS: &str = "\
// Helper macro for specialization.
#[cfg(feature = \"nightly\")]
macro_rules! default_fn {
\t(#[$($a:tt)*] $($tt:tt)*) => {
        #[$($a)*] default $($tt)*
    }
}
#[cfg(not(feature = \"nightly\"))]
macro_rules! default_fn {
\t($($tt:tt)*) => {
        $($tt)*
    }
}
";

#[test]
fn a_tab_the_caller_turns_into_spaces_is_written_as_spaces() {
    // The caller's lines have the file's tabs, one line remembered stale
    // (so the search is not found exactly); new_content turns each tab into
    // four spaces, which is the whole change. Columns alike, the tab stayed.
    // Found by apply_patch_real on a real diff (a crate's macros, tabs to
    // spaces) with a stale context line.
    let search = MACROS.replace("// Helper macro", "// Helper_old macro");
    let new = search.replace('\t', "    ");
    let want = MACROS.replace('\t', "    ");
    intended_or_refused(apply(MACROS, &search, &new), &want);
    assert!(apply(MACROS, &search, &new).is_ok());
}

#[test]
fn trailing_spaces_the_caller_removes_from_an_exact_search_are_removed() {
    // Found exactly, the search's lines are the file's; new_content keeps
    // a line but for the spaces after it, which is the change to write.
    // Found by exact_edits_touch_nothing_outside_the_match (a whole file,
    // ` z ` with no final newline, read back as unverified).
    let file = "fn main() {    \n    run();  \n}\n";
    let search = "fn main() {    \n    run();  \n";
    let new = "fn main() {\n    run();\n";
    assert_eq!(
        apply(file, search, new).unwrap(),
        "fn main() {\n    run();\n}\n"
    );
    // A file that ends without a line break keeps ending without one.
    assert_eq!(apply("\n\n z ", "\n\n z ", " z\n").unwrap(), " z");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig {
        cases: 200,
        failure_persistence: None,
        ..proptest::prelude::ProptestConfig::default()
    })]

    /// Property: a line the caller copied exactly and changed in its
    /// indentation alone (tabs for spaces, spaces for tabs, deeper or
    /// shallower) is written with the caller's indentation, in a file that
    /// indents with tabs or with spaces, whether the rest of the search is
    /// exact or has one line remembered stale. The edit is that, or (only
    /// with the stale line) it is refused; it is never the file unchanged.
    #[test]
    fn a_line_re_indented_alone_is_written_as_sent(
        names in proptest::collection::vec("[a-z]{3,8}", 5..12),
        depths in proptest::collection::vec(0usize..3, 5..12),
        tabs in proptest::bool::ANY,
        pick in 0usize..100,
        to in proptest::sample::select(vec!["", " ", "  ", "    ", "\t", "\t\t", "        ", "\t    "]),
        stale in proptest::option::of(0usize..100),
    ) {
        let n = names.len().min(depths.len());
        let unit = if tabs { "\t" } else { "    " };
        let lines: Vec<String> = (0..n)
            .map(|k| format!("{}{}_{k}({});", unit.repeat(depths[k]), names[k], k * 7))
            .collect();
        let moved = pick % n;
        let body = lines[moved].trim_start().to_string();
        proptest::prop_assume!(format!("{to}{body}") != lines[moved]);
        let mut search_lines = lines.clone();
        if let Some(stale) = stale {
            let stale = (moved + 1 + stale % (n - 1)) % n;
            search_lines[stale] = search_lines[stale].replace(';', "_old;");
        }
        let mut new_lines = search_lines.clone();
        new_lines[moved] = format!("{to}{body}");
        let join = |v: &[String]| v.iter().map(|l| format!("{l}\n")).collect::<String>();
        let file = format!("fn head() {{}}\n{}fn tail() {{}}\n", join(&lines));
        let mut want_lines = lines.clone();
        want_lines[moved] = new_lines[moved].clone();
        let want = format!("fn head() {{}}\n{}fn tail() {{}}\n", join(&want_lines));
        let got = apply(&file, &join(&search_lines), &join(&new_lines));
        if stale.is_none() {
            proptest::prop_assert_eq!(got.as_deref().ok(), Some(want.as_str()));
        } else {
            intended_or_refused(got, &want);
        }
    }

    /// Property: beside a real change (one line's text rewritten), a block
    /// the caller writes wholly in the other style (spaces for the file's
    /// tabs, or tabs for its spaces) is the caller's habit: every line is
    /// written in the file's own indentation, the rewritten one included.
    #[test]
    fn a_block_in_the_other_style_beside_a_change_takes_the_file_s_style(
        names in proptest::collection::vec("[a-z]{3,8}", 3..10),
        depths in proptest::collection::vec(0usize..3, 3..10),
        tabs in proptest::bool::ANY,
        pick in 0usize..100,
    ) {
        let n = names.len().min(depths.len());
        let (unit, other) = if tabs { ("\t", "    ") } else { ("    ", "\t") };
        let line = |k: usize, u: &str, call: &str| {
            format!("{}{}_{k}({call});\n", u.repeat(depths[k] + 1), names[k])
        };
        let changed = pick % n;
        let search: String = (0..n).map(|k| line(k, unit, "")).collect();
        let new: String = (0..n)
            .map(|k| line(k, other, if k == changed { "1" } else { "" }))
            .collect();
        let want: String = (0..n)
            .map(|k| line(k, unit, if k == changed { "1" } else { "" }))
            .collect();
        let wrap = |body: &str| format!("fn head() {{\n{body}}}\n");
        let (got, want) = (apply(&wrap(&search), &search, &new), wrap(&want));
        proptest::prop_assert_eq!(got.as_deref().ok(), Some(want.as_str()));
    }
}
