use super::*;
use crate::text::fuzzy::align::{pair_blank_lines, targets};
use crate::text::lines::LineIndex;

fn run(file: &str, search: &str, new: &str, pairs: &[(usize, usize)]) -> Result<String, Blocked> {
    let index = LineIndex::new(file);
    let file_lines = Lines::of_text(file, &index);
    let search_lines = Lines::of_snippet(search);
    let new_lines = Lines::of_snippet(new);
    let mut t = targets(&search_lines, &file_lines, pairs);
    pair_blank_lines(&search_lines, &file_lines, &mut t);
    let region = super::super::align::region(&t).unwrap();
    Transplant {
        file: &file_lines,
        search: &search_lines,
        new: &new_lines,
        targets: &t,
        region,
        elision: false,
        markers: &Markers::of(&file_lines),
        eol: Eol::Lf,
        skipped: None,
    }
    .render()
}

#[test]
fn kept_lines_keep_their_disk_form() {
    let file = "\tif (a) {  \n\t\tcall(\u{201C}x\u{201D});\n\t}\n";
    let search = "if (a) {\n    call(\"x\");\n}\n";
    let new = "if (a) {\n    call(\"x\");\n    more();\n}\n";
    let out = run(file, search, new, &[(0, 0), (1, 1), (2, 2)]).unwrap();
    assert_eq!(
        out,
        "\tif (a) {  \n\t\tcall(\u{201C}x\u{201D});\n\t\tmore();\n\t}\n"
    );
}

#[test]
fn unmentioned_disk_lines_survive_outside_replaced_runs() {
    let file = "a\nb\nextra\nc\n";
    let out = run(file, "a\nb\nc\n", "a\nB\nc\n", &[(0, 0), (1, 1), (2, 3)]).unwrap();
    assert_eq!(out, "a\nB\nextra\nc\n");
    let out = run(file, "a\nb\nc\n", "a\nc\n", &[(0, 0), (1, 1), (2, 3)]).unwrap();
    assert_eq!(out, "a\nextra\nc\n");
    let err = run(file, "a\nb\nc\n", "X\n", &[(0, 0), (1, 1), (2, 3)]).unwrap_err();
    assert_eq!(
        err,
        Blocked::Conflict {
            search_line: 0,
            file_line: 2,
            reason: ConflictReason::ExtraLine,
        }
    );
    // A blank line inside the replaced run goes with it.
    let blank = "a\nb\n\nc\n";
    let out = run(blank, "a\nb\nc\n", "X\n", &[(0, 0), (1, 1), (2, 3)]).unwrap();
    assert_eq!(out, "X\n");
}

#[test]
fn changing_a_line_that_is_different_on_disk_is_a_conflict() {
    let file = "a\ntotally different\nc\n";
    let err = run(file, "a\nb\nc\n", "a\nB\nc\n", &[(0, 0), (2, 2)]).unwrap_err();
    assert_eq!(
        err,
        Blocked::Conflict {
            search_line: 1,
            file_line: 1,
            reason: ConflictReason::LineMissing,
        }
    );
    let err = run(file, "a\nb\nc\n", "a\nB\nc\n", &[(0, 0), (1, 1), (2, 2)]).unwrap_err();
    assert_eq!(
        err,
        Blocked::Conflict {
            search_line: 1,
            file_line: 1,
            reason: ConflictReason::LineDiffers,
        }
    );
}

#[test]
fn final_line_without_ending_stays_without() {
    let file = "x\ny";
    assert_eq!(
        run(file, "x\ny\n", "x\ny\nz\n", &[(0, 0), (1, 1)]).unwrap(),
        "x\ny\nz"
    );
    assert_eq!(run(file, "y", "", &[(0, 1)]).unwrap(), "");
}

#[test]
fn rewritten_lines_keep_their_ending_and_added_ones_take_the_block_s() {
    let file = "a\nb\r\nc\nd\n";
    let out = run(
        file,
        "a\nb\nc\nd\n",
        "a\nb2\nnew line\nc\nd\n",
        &[(0, 0), (1, 1), (2, 2), (3, 3)],
    );
    assert_eq!(out.unwrap(), "a\nb2\r\nnew line\nc\nd\n");
}

#[test]
fn new_content_may_not_elide() {
    let file = "a\nb\nc\n";
    let err = run(
        file,
        "a\nb\nc\n",
        "a\n// ... rest\nc\n",
        &[(0, 0), (1, 1), (2, 2)],
    )
    .unwrap_err();
    assert_eq!(err, Blocked::Marker { new_line: 1 });
}
