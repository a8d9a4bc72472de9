//! The merge on small texts: each row of its table, and the refusals.
use super::super::align::Problem;
use super::super::rows::{Comparer, of_snippet};
use super::*;

/// Merges `search` → `new` into `file`, marking `...` lines as markers;
/// returns the merged region's lines.
fn merge(file: &str, search: &str, new: &str) -> Result<Vec<String>, Clash> {
    let f = of_snippet(file);
    let s = of_snippet(search);
    let n = of_snippet(new);
    let sm: Vec<bool> = s.iter().map(|r| r.key == ". . .").collect();
    let nm: Vec<bool> = n.iter().map(|r| r.key == ". . .").collect();
    let comparers: Vec<Comparer> = s.iter().map(Comparer::new).collect();
    // File lines new_content writes out cost their line break.
    let written: Vec<Option<u32>> = f
        .iter()
        .map(|r| (n.iter().any(|x| x.same(r)) && !s.iter().any(|x| x.same(r))).then_some(1))
        .collect();
    let p = Problem {
        search: &s,
        markers: &sm,
        comparers: &comparers,
        file: &f,
        written_out: &written,
        rewrites: &[],
        kept: &[],
    };
    let window = 0..f.len();
    let a = p.align(window.clone(), p.offset(&window)).unwrap();
    let sides = Sides {
        base: &s,
        base_markers: &sm,
        theirs: &n,
        theirs_markers: &nm,
        file: &f,
        alignment: &a,
        exact: false,
    };
    let m = sides.merge()?;
    Ok(m.out
        .iter()
        .map(|o| match o {
            Out::Disk(k) => f[*k].raw.to_string(),
            Out::New { t, .. } => format!("+{}", n[*t].raw),
        })
        .collect())
}

#[test]
fn the_caller_s_change_lands_and_the_rest_keeps_the_file_s_bytes() {
    let got = merge(
        "a  = 1\nb = 2\nc = 3\n",
        "a = 1\nb = 2\nc = 3\n",
        "a = 1\nb = 20\nc = 3\n",
    );
    assert_eq!(got.unwrap(), ["a  = 1", "+b = 20", "c = 3"]);
}

#[test]
fn a_stale_line_the_caller_keeps_stays_as_the_file_has_it() {
    let got = merge(
        "one();\ntwo_now();\nthree();\nfour();\n",
        "one();\ntwo_then();\nthree();\nfour();\n",
        "one();\ntwo_then();\nthree();\nfour_more();\n",
    );
    assert_eq!(
        got.unwrap(),
        ["one();", "two_now();", "three();", "+four_more();"]
    );
}

#[test]
fn a_stale_line_confirmed_only_by_lines_found_all_over_the_file_is_another_block() {
    // The caller's block (`&'a (U)`) was deleted; its sibling with `mut`
    // is left, and `},`, `Unit,` and `}` are in every such block.
    let file = "enum A {\n    y: &'a mut (T),\n    },\n    Unit,\n}\nenum B {\n    x: &'a mut (U),\n    },\n    Unit,\n}\n";
    let got = merge(
        file,
        "    x: &'a (U),\n    },\n    Unit,\n}\n",
        "    x: &'a (U),\n    },\n    Unit,\n}\n#[doc(hidden_next)]\n",
    );
    assert!(matches!(got.unwrap_err(), Clash::KeptDiffer(v, _) if v.len() == 1));
}

#[test]
fn a_change_to_a_line_that_reads_otherwise_on_disk_is_a_conflict() {
    let got = merge(
        "one();\ntwo(1);\nthree();\n",
        "one();\ntwo(2);\nthree();\n",
        "one();\ntwo(3);\nthree();\n",
    );
    assert_eq!(got.unwrap_err(), Clash::LineDiffers { s: 1, f: 1 });
}

#[test]
fn two_kept_lines_the_file_contradicts_are_another_block() {
    let got = merge(
        "alpha_one();\nbeta_one();\ngamma();\ndelta();\n",
        "alpha_two();\nbeta_two();\ngamma();\ndelta();\n",
        "alpha_two();\nbeta_two();\ngamma();\ndelta_changed();\n",
    );
    assert!(matches!(got.unwrap_err(), Clash::KeptDiffer(v, _) if v.len() == 2));
}

#[test]
fn a_marker_kept_keeps_its_lines_and_a_marker_dropped_is_a_conflict() {
    let file = "def f():\n    a = 1\n    b = 2\n    return a\n";
    let got = merge(
        file,
        "def f():\n    ...\n    return a\n",
        "def f():\n    ...\n    return b\n",
    );
    assert_eq!(
        got.unwrap(),
        ["def f():", "    a = 1", "    b = 2", "+    return b"]
    );
    let got = merge(
        file,
        "def f():\n    ...\n    return a\n",
        "def f():\n    return b\n",
    );
    assert!(matches!(
        got.unwrap_err(),
        Clash::HiddenDropped { s: 1, .. }
    ));
}

#[test]
fn the_same_line_added_on_both_sides_is_written_once() {
    let got = merge(
        "one();\nadded();\ntwo();\n",
        "one();\ntwo();\n",
        "one();\nadded();\ntwo();\n",
    );
    assert_eq!(got.unwrap(), ["one();", "added();", "two();"]);
}

#[test]
fn a_new_line_at_the_place_of_lines_left_out_is_a_conflict() {
    let got = merge(
        "first_call();\nnot_shown_here(x);\nsecond_call();\n",
        "first_call();\nsecond_call();\n",
        "first_call();\nadded_line();\nsecond_call();\n",
    );
    // Read with the hidden line unpaired, or with the first line
    // missing: either way the new line's place is unclear.
    assert!(matches!(
        got.unwrap_err(),
        Clash::LeftOut { .. } | Clash::LineMissing { .. }
    ));
}

#[test]
fn a_marker_only_new_content_has_is_refused() {
    let got = merge("a();\nb();\n", "a();\nb();\n", "a();\n...\nb();\n");
    assert_eq!(got.unwrap_err(), Clash::MarkerInNew { t: 1 });
}
