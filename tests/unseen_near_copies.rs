//! The unseen bench's labels: a look-alike-deleted case whose file already
//! held another block one line from the search counts an edit there apart
//! (`tests/corpus/unseen.rs`, `Case::near_copies`), so the two helpers that
//! find such a block and confine an edit to it must be exact. And a
//! rendered-Markdown case whose change rendering hides or alters is no
//! case at all (`change_hidden`): no edit can make it from the texts.

#[path = "corpus/mod.rs"]
mod corpus;

use std::ops::Range;

use corpus::unseen::{change_hidden, changes_within, near_copies};

fn lines(text: &str) -> Vec<String> {
    text.lines().map(str::to_string).collect()
}

#[test]
fn a_copy_one_line_apart_is_found_and_a_farther_one_is_not() {
    let file = lines(
        "fn a() {\n    let x = open(path);\n    read(x);\n    close(x);\n}\n\
         fn b() {\n    let x = open(path);\n    check(x);\n    read(x);\n    close(x);\n}\n\
         fn c() {\n    let y = open(path);\n    check(y);\n    read(y);\n}\n",
    );
    // The gained `check(x);` is the one line apart.
    assert_eq!(near_copies(&file, 1, 4), vec![6..10]);
    // `fn c` renames every line: no copy.
    assert_eq!(near_copies(&file, 12, 15), Vec::<Range<usize>>::new());
}

#[test]
fn two_shared_lines_of_text_are_needed() {
    let file = lines("}\n}\nlet alpha = 1;\n}\n}\nlet beta = 2;\n");
    assert_eq!(near_copies(&file, 0, 3), Vec::<Range<usize>>::new());
}

#[test]
fn an_edit_is_confined_to_the_copy_only_when_every_change_is_inside() {
    let file = "a\nb\nc\nd\ne\n";
    assert!(changes_within(file, "a\nb\nC\nd\ne\n", &(1..4)));
    assert!(changes_within(file, "a\nb\nnew\nc\nd\ne\n", &(1..4)));
    assert!(!changes_within(file, "A\nb\nc\nd\ne\n", &(1..4)));
    assert!(!changes_within(file, "a\nb\nc\nd\nE\n", &(1..4)));
}

#[test]
fn a_line_changed_by_a_slip_counts_as_shared() {
    let file = lines(
        "/// Reads a link.\n///\n/// Like std's, but only beneath.\n\
         fn a() {}\n\
         /// Reads a link.\n///\n/// Like std's. but only beneath.\n\
         /// Reads a link.\n///\n/// Like the other one, nothing more.\n",
    );
    // Lines 4..7 differ by one mark; lines 7..10 by their words.
    assert_eq!(near_copies(&file, 0, 3), vec![4..7]);
}

#[test]
fn a_change_rendering_hides_or_alters_is_no_case() {
    let render = |t: &str| t.replace("__", "").replace('`', "");
    let file = "an array of _slots_, head\nsee `x` here\n";
    // The caller's change adds `__`, which rendering drops: altered.
    assert!(change_hidden(
        file,
        "an array of _slots__next, head\nsee `x` here\n",
        render
    ));
    // A change of a backtick alone reads the same rendered: hidden.
    assert!(change_hidden(
        file,
        "an array of _slots_, head\nsee x here\n",
        render
    ));
    // A plain word changed on a line without markup is a case.
    assert!(!change_hidden(
        file,
        "an array of _slots_, tail\nsee `x` here\n",
        render
    ));
    // On a line whose markup rendering drops anyway, the change is a case
    // (the search then differs from the file there, and the matcher judges it).
    assert!(!change_hidden(
        file,
        "an array of _slots_, head\nsee `y` here\n",
        render
    ));
}
