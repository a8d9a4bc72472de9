//! Placing hunks: exact bytes of the new text, landings and refusals.

use super::super::parse;
use super::*;

fn unified(diff: &str, file: &str) -> Result<Applied, HunkRefusal> {
    apply(file, &parse(diff).unwrap().files[0].hunks)
}

fn codex(body: &str, file: &str) -> Result<Applied, HunkRefusal> {
    let patch = format!("*** Begin Patch\n*** Update File: f\n{body}\n*** End Patch");
    apply(file, &parse(&patch).unwrap().files[0].hunks)
}

#[test]
fn hunks_land_below_each_other_and_report_their_new_lines() {
    let file = "a\nb\nc\nd\ne\nf\ng\n";
    let diff = "--- a/f\n+++ b/f\n@@ -1,2 +1,3 @@\n a\n+a2\n b\n@@ -5,2 +6,1 @@\n e\n-f\n";
    let out = unified(diff, file).unwrap();
    assert_eq!(out.text, "a\na2\nb\nc\nd\ne\ng\n");
    let new: Vec<(usize, usize)> = out
        .landings
        .iter()
        .map(|l| (l.new.start, l.new.end))
        .collect();
    assert_eq!(new, [(1, 3), (6, 6)]);
}

#[test]
fn a_file_without_final_newline_keeps_lacking_one_unless_the_diff_says() {
    let keep = codex("@@\n-b\n+B", "a\nb").unwrap();
    assert_eq!(keep.text, "a\nB");
    let add = "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n";
    assert_eq!(unified(add, "a\nb").unwrap().text, "a\nb\n");
    let drop = "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n+b\n\\ No newline at end of file\n";
    assert_eq!(unified(drop, "a\nb\n").unwrap().text, "a\nb");
}

#[test]
fn anchors_pick_the_block_and_an_unanchored_repeat_is_ambiguous() {
    let file = "class A:\n    def f(self):\n        return 1\n\nclass B:\n    def f(self):\n        return 1\n";
    let out = codex(
        "@@ class B\n@@ def f\n-        return 1\n+        return 2",
        file,
    )
    .unwrap();
    assert!(
        out.text
            .ends_with("class B:\n    def f(self):\n        return 2\n")
    );
    let err = codex("@@\n-        return 1\n+        return 2", file).unwrap_err();
    assert_eq!(
        err.why,
        Why::Ambiguous {
            places: vec![LineSpan::new(3, 3), LineSpan::new(7, 7)]
        }
    );
    let err = codex("@@ class C\n-        return 1\n+        return 2", file).unwrap_err();
    assert!(matches!(err.why, Why::AnchorNotFound { .. }));
}

#[test]
fn a_hunk_its_anchors_block_does_not_hold_is_refused_not_looked_for_below() {
    let file = "def f():\n    x = 1\n    return x\n\n\ndef g():\n    x = 2\n    return x\n";
    // The stale line is in f; an exact copy of the other lines is in g.
    let err = codex(
        "@@ def f():\n     x = 3\n-    return x\n+    return -x",
        file,
    )
    .unwrap_err();
    assert_eq!(err.hunk, 0);
    // The anchor line itself may be part of the hunk.
    let out = codex("@@ def g():\n-def g():\n+def h():\n     x = 2", file).unwrap();
    assert!(out.text.contains("def h():\n    x = 2\n"), "{}", out.text);
    // A decorator opens no block: its hunk is looked for below it.
    let file = "@app.route('/')\ndef index():\n    return 1\n";
    let out = codex("@@ @app.route('/')\n-    return 1\n+    return 2", file).unwrap();
    assert_eq!(out.text, "@app.route('/')\ndef index():\n    return 2\n");
}

#[test]
fn two_copies_between_the_same_neighbours_are_refused_whatever_the_numbers_say() {
    // `}` and a blank line at 3-4 and at 6-7; the numbers say the second.
    // A caller who miscounted by three lines would mean the first: the
    // numbers are all that tells them apart, and they are not enough.
    let file = "head\nx\n}\n\nmid\n}\n\ntail\nx\n";
    for shift in [0, 30] {
        let diff = format!(
            "--- a/f\n+++ b/f\n@@ -{} +{} @@\n-head\n+HEAD\n@@ -{},2 +{},3 @@\n }}\n+added\n \n@@ -{} +{} @@\n-tail\n+TAIL\n",
            1 + shift,
            1 + shift,
            6 + shift,
            6 + shift,
            8 + shift,
            9 + shift
        );
        let err = unified(&diff, file).unwrap_err();
        assert_eq!(err.hunk, 1);
        assert_eq!(
            err.why,
            Why::Ambiguous {
                places: vec![LineSpan::new(3, 4), LineSpan::new(6, 7)]
            }
        );
    }
    // With one copy between the neighbours, the order of the hunks places
    // it, whatever its numbers.
    let file = "head\nx\nmid\n}\n\ntail\nx\n}\n\n";
    for start in [4, 1, 40] {
        let diff = format!(
            "--- a/f\n+++ b/f\n@@ -1 +1 @@\n-head\n+HEAD\n@@ -{start},2 +{start},3 @@\n }}\n+added\n \n@@ -6 +7 @@\n-tail\n+TAIL\n"
        );
        let out = unified(&diff, file).unwrap();
        assert_eq!(out.text, "HEAD\nx\nmid\n}\nadded\n\nTAIL\nx\n}\n\n");
        assert!(out.landings[1].by_line_numbers);
    }
}

#[test]
fn a_hunk_whose_numbers_alone_are_off_never_moves_a_copy_of_another() {
    // Hunk 0 fits lines 1 and 4 (its numbers say 1); hunk 1's numbers are
    // three lines short. Read at distance 3 both fit (hunk 0 at 4); read as
    // written, hunk 0 is at 1 and hunk 1 was miscounted. Refused.
    let file = "a\nb\nc\na\nb\nq\nr\ns\nt\nu\nv\nw\nend\nz\n";
    let diff = "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n+B\n@@ -10,2 +10,2 @@\n end\n-z\n+Z\n";
    // Hunk 1 is not ambiguous here (`end` is unique): it is placed by its
    // text at 13, three lines below its numbers, and hunk 0 then has two
    // readings, 1 (as written) and 4 (at hunk 1's distance).
    let err = unified(diff, file).unwrap_err();
    assert_eq!(err.hunk, 0);
}

#[test]
fn identical_hunks_are_pinned_by_their_distance_when_nothing_else_is_placed() {
    let file = "a\nx\ny\n\nb\nx\ny\n";
    for shift in [0, 30] {
        let diff = format!(
            "--- a/f\n+++ b/f\n@@ -{},2 +{},3 @@\n x\n+z\n y\n@@ -{},2 +{},3 @@\n x\n+z\n y\n",
            2 + shift,
            2 + shift,
            6 + shift,
            7 + shift
        );
        let out = unified(&diff, file).unwrap();
        assert_eq!(out.text, "a\nx\nz\ny\n\nb\nx\nz\ny\n");
    }
    // One such hunk alone fits both places: refused.
    let err = unified("--- a/f\n+++ b/f\n@@ -2,2 +2,3 @@\n x\n+z\n y\n", file).unwrap_err();
    assert!(matches!(err.why, Why::Ambiguous { .. }));
}

#[test]
fn whitespace_drift_keeps_the_added_lines_as_written_unless_indentation_is_unclear() {
    let file = "fn f() {\n    let a = 1;\n    let b = 2;\n}\n";
    let out = codex(
        "@@\n     let a = 1;  \n+    let c = 3;\n     let b = 2;",
        file,
    )
    .unwrap();
    assert_eq!(
        out.text,
        "fn f() {\n    let a = 1;\n    let c = 3;\n    let b = 2;\n}\n"
    );
    // One old line, indented otherwise: the added line's depth is a guess.
    let err = codex("@@\n+    let c = 3;\n let b = 2;", file).unwrap_err();
    assert!(matches!(err.why, Why::Refused { .. }), "{:?}", err.why);
}

#[test]
fn a_whole_line_occurrence_beats_the_same_text_inside_a_longer_line() {
    let file = "    x = 1\n        x = 1\n";
    let out = codex("@@\n-    x = 1\n+    x = 2", file).unwrap();
    assert_eq!(out.text, "    x = 2\n        x = 1\n");
}

#[test]
fn tolerant_matches_keep_the_files_context_lines() {
    let file = "fn f() {\n\tlet a = 1;\n\tlet b = 2;\n}\n";
    let out = codex(
        "@@\n     let a = 1;\n-    let b = 2;\n+    let b = 3;",
        file,
    )
    .unwrap();
    assert_eq!(out.text, "fn f() {\n\tlet a = 1;\n\tlet b = 3;\n}\n");
    assert_ne!(out.landings[0].kind, MatchKind::Exact);
}

#[test]
fn additions_without_context() {
    assert_eq!(codex("@@\n+z", "a\n").unwrap().text, "a\nz\n");
    assert_eq!(
        codex("@@ def f():\n+    pass", "def f():\ndef g():\n")
            .unwrap()
            .text,
        "def f():\n    pass\ndef g():\n"
    );
    let err = unified("--- a/f\n+++ b/f\n@@ -1,0 +2 @@\n+z\n", "a\n").unwrap_err();
    assert_eq!(err.why, Why::NoContext);
    let into_empty = unified("--- a/f\n+++ b/f\n@@ -0,0 +1 @@\n+z\n", "").unwrap();
    assert_eq!(into_empty.text, "z\n");
}

#[test]
fn end_of_file_hunks_must_end_the_file() {
    let file = "x\ny\nx\n";
    let out = codex("@@\n-x\n+z\n*** End of File", file).unwrap();
    assert_eq!(out.text, "x\ny\nz\n");
}

#[test]
fn a_missing_hunk_names_the_closest_block_with_a_diff() {
    let file = "fn a() {\n    one();\n    two();\n}\n";
    let err = codex(
        "@@\n fn a() {\n-    one();\n+    uno();\n     three();",
        file,
    )
    .unwrap_err();
    let Why::NotFound {
        best: Some((lines, _)),
        diff,
    } = &err.why
    else {
        panic!("{:?}", err.why)
    };
    assert_eq!(lines.start, 1);
    assert!(diff.contains("-    three();"), "{diff}");
}

#[test]
fn a_stale_context_line_keeps_the_files_text() {
    // The hunk's `#[repr(C)]_old` is what the line read when the patch was
    // made; the file's `#[repr(C)]` must stay, not be overwritten by it.
    let file = "link!(a);\nlink!(b);\npub const X: u32 = 1;\n#[repr(C)]\n#[derive(Clone, Copy)]\npub struct V {\n    pub a: i8,\n}\n";
    let diff = "--- a/f\n+++ b/f\n@@ -1,6 +1,6 @@\n-link!(a);\n-link!(b);\n+new_link!(a);\n+new_link!(b);\n pub const X: u32 = 1;\n #[repr(C)]_old\n #[derive(Clone, Copy)]\n pub struct V {\n";
    let out = unified(diff, file).unwrap();
    assert_eq!(
        out.text,
        "new_link!(a);\nnew_link!(b);\npub const X: u32 = 1;\n#[repr(C)]\n#[derive(Clone, Copy)]\npub struct V {\n    pub a: i8,\n}\n"
    );
}

#[test]
fn a_blank_added_line_keeps_its_spaces_beside_a_stale_context_line() {
    let file = "fn a() {\n    b();\n}\nlet config = load();\n";
    let diff = "--- a/f\n+++ b/f\n@@ -1,4 +1,6 @@\n-fn a() {\n+fn z() {\n     b();\n }\n let config = load_old();\n+\n+ \n";
    assert_eq!(
        unified(diff, file).unwrap().text,
        "fn z() {\n    b();\n}\nlet config = load();\n\n \n"
    );
}
