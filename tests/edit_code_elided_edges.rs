//! Elided searches and added lines at the edges of what the caller showed,
//! found by the drift fuzzer (`cargo bench --bench edit_code_drift`) on real
//! files: a marker worded as a sentence, a marker that stands for the rest
//! of a block and its closing line, a decorator between the hidden lines and
//! the tail, markers in a row, and new lines in a file that indents with
//! tabs of eight columns. Each test checks the exact bytes written, or that
//! the file would be left as it is.

#[path = "edit_outcome/mod.rs"]
mod edit_outcome;

use edit_outcome::{apply, intended_or_refused};
use mcp_server_text::text::fuzzy::Refusal;

// The cases that check the edit as intended or a refusal are ones the
// matcher may refuse (their drift leaves more than one reading open); a
// written result must be exactly the intended one.

const METHODS: &str = "\
class Store:
    @staticmethod
    def build_args(
        user: str, token: str
    ) -> list:
        args = []
        if user:
            args += [\"--user\", user]
        if token:
            args += [\"--token\", token]

        return args

    @classmethod
    def remote_url(cls, where: str) -> str:
        return where
";

#[test]
fn a_marker_worded_as_a_sentence_hides_the_rest_of_the_block_and_a_decorator() {
    // The marker ends in `...` and says what it stands for; after it the
    // caller remembers a blank line the file does not have. new_content
    // writes the hidden lines out and keeps that blank line, which stood
    // for nothing on disk: no blank line is added before the method.
    let search = "        user: str, token: str\n    ) -> list:\n        args = []\n        if user:\n            args += [\"--user\", user]\n        if token:\n            args += [\"--token\", token]\n\n        # rest of the body unchanged ...\n\n    def remote_url(cls, where: str) -> str:\n";
    let new = "        user: str, token: str\n    ) -> list:\n        args = []\n        if user:\n            args += [\"--user\", user]\n        if token:\n            args += [\"--token\", token, \"--quiet\"]\n\n        return args\n\n    @classmethod\n\n    def remote_url(cls, where: str) -> str:\n";
    let want = METHODS.replace("[\"--token\", token]", "[\"--token\", token, \"--quiet\"]");
    intended_or_refused(apply(METHODS, search, new), &want);
}

const HEADER: &str = "\
struct Table : Section {
  Optional<Entries> Items;

  Table() : Section(Kind::Table) {}

  std::vector<Entry> entries() const override {
    return {{\"Items\", Items.hasValue()}};
  };

  static bool classof(const Chunk *S) { return S->Kind == Kind::Table; }
};

struct Option {
  StringRef Key;
};
";

#[test]
fn a_marker_for_the_rest_of_a_function_reaches_past_its_closing_line() {
    // The tail is the next member after the function the marker ends; the
    // file's closing `};` and blank line are among the hidden lines, which
    // new_content writes out once.
    let search = "  std::vector<Entry> entries() const override {\n    // ... rest of the code\n  static bool classof(const Chunk *S) { return S->Kind == Kind::Table; }\n};\n";
    let new = "  std::vector<Entry> entries() const override {\n    return {{\"Items\", Items.hasValue()}};\n  };\n\n  static bool classof(const Chunk *C) { return C->Kind == Kind::Table; }\n};\n";
    let want = HEADER.replace(
        "classof(const Chunk *S) { return S->Kind",
        "classof(const Chunk *C) { return C->Kind",
    );
    intended_or_refused(apply(HEADER, search, new), &want);
}

#[test]
fn a_marker_the_elided_reading_cannot_place_is_never_read_as_a_line() {
    // The tail lies beyond the block the head opens, with more than a
    // closing line and decorators between: the elided reading does not
    // reach it. Read as a line of text (a line the file lacks), the marker
    // would leave new_content's blank lines without a place on disk; the
    // edit is refused instead of guessed (by the merge, or by the re-read
    // of the plan where the merge reads the lines new_content writes out
    // around it).
    let file = "def a():\n    if x:\n        y = 1\n    return y\n\nvalue = 3\nother = 4\n\ndef b():\n    pass\n";
    let search = "    if x:\n        y = 1\n\n    # ... existing code ...\n\ndef b():\n";
    let new = "    if x:\n        y = 2\n    return y\n\nvalue = 3\nother = 4\n\n\ndef b():\n";
    let err = apply(file, search, new).unwrap_err();
    assert!(
        matches!(
            err,
            Refusal::NotFound { .. } | Refusal::Conflict { .. } | Refusal::Unverified { .. }
        ),
        "{err:?}"
    );
}

#[test]
fn markers_in_a_row_kept_by_new_content_write_their_lines_once() {
    // Found by the fuzzy_edit target: two markers between the same head
    // and tail both stood for the hidden line, so keeping both wrote it
    // twice.
    let file = "start\nhead\nbody\ntail\nend\n";
    let search = "head\n// ...\n// ...\ntail\n";
    assert_eq!(apply(file, search, search).unwrap(), file);
    let new = "head\n// ...\n// ...\ntail changed\n";
    assert_eq!(
        apply(file, search, new).unwrap(),
        "start\nhead\nbody\ntail changed\nend\n"
    );
}

const GNU: &str = "\
  template<typename _Sequence>
    class _Safe_sequence : public _Safe_sequence_base
    {
    public:
      /** Invalidates all iterators that reference this sequence,
\t  are not singular, and for which the predicate returns
\t  true. */
      template<typename _Predicate>
\tvoid
\t_M_invalidate_if(_Predicate __pred);
    };
";

#[test]
fn a_line_added_in_a_file_with_eight_column_tabs_keeps_its_columns() {
    // The file indents with spaces below eight columns and a tab for each
    // eight. A new line at six columns is six spaces, as the caller wrote
    // it, not a four-column tab and two spaces.
    let search = "\t  are not singular, and for which the predicate returns\n\t  true. */\n      template<typename _Predicate>\n\tvoid\n\t_M_invalidate_if(_Predicate __pred);\n";
    let new = "\t  are not singular, and for which the predicate returns\n\t  true. */\n      // checked again below\n      template<typename _Predicate>\n\tvoid\n\t_M_invalidate_if(_Predicate __pred);\n";
    let want = GNU.replace(
        "      template<typename _Predicate>\n",
        "      // checked again below\n      template<typename _Predicate>\n",
    );
    assert_eq!(apply(GNU, search, new).unwrap(), want);
}

/// Three test functions, alike line for line, two blank lines apart.
const SHAPES: &str = "\
import math


def test_circle_radius():
    assert circle_radius(1, 2, 1, 1) == (5, 3)
    assert circle_radius(1, 2, 2, 1) == (8, 3)
    assert circle_radius(1, 2, 1, 2) == (7, 4)


def test_scale_shape():
    assert scale_shape(1, (5, 2)) == 2
    assert scale_shape(1, (8, 3)) == 3
    assert scale_shape(1, (7, 2)) == 2


def test_unscale_shape():
    assert unscale_shape(2, (7, 4)) == 1
";

#[test]
fn blank_lines_inside_a_written_out_marker_are_not_the_search_s_trailing_ones() {
    // Found by the drift fuzzer on a Python test file: the search hides the
    // second function's head behind a marker and ends with four blank lines
    // where the file has two; new_content writes the hidden lines out (with
    // the two blank lines before them), rewrites the last line and ends with
    // the file's two. A diff of the caller's two texts paired the search's
    // trailing blank lines with those inside the written-out lines, and the
    // two blank lines after the block were removed.
    let search = "def test_circle_radius():\n    assert circle_radius(1, 2, 1, 1) == (5, 3)\n    assert circle_radius(1, 2, 2, 1) == (8, 3)\n    assert circle_radius(1, 2, 1, 2) == (7, 4)\n...\n    assert scale_shape(1, (7, 2)) == 2\n\n\n\n\n";
    let new = "def test_circle_radius():\n    assert circle_radius(1, 2, 1, 1) == (5, 3)\n    assert circle_radius(1, 2, 2, 1) == (8, 3)\n    assert circle_radius(1, 2, 1, 2) == (7, 4)\n\n\ndef test_scale_shape():\n    assert scale_shape(1, (5, 2)) == 2\n    assert scale_shape(1, (8, 3)) == 3\n    assert scale_shape_next(1, (7, 2)) == 2\n\n\n";
    let want = SHAPES.replace(
        "    assert scale_shape(1, (7, 2)) == 2\n",
        "    assert scale_shape_next(1, (7, 2)) == 2\n",
    );
    intended_or_refused(apply(SHAPES, search, new), &want);
}

/// Names of functions under test, short and long: how much a line weighs
/// against a blank line decides which reading of a marker is cheapest.
const NAMES: [&str; 6] = [
    "area",
    "scale",
    "circle_radius",
    "scale_shape",
    "unscale_shape",
    "private_key_of_pair",
];

/// Test functions alike line for line: function `k` tests `NAMES[names[k]]`
/// with `sizes[k]` asserts, whose numbers are drawn from `digits`, and is
/// followed by `gaps[k]` blank lines. Returns the lines and, for each
/// function, its range.
fn functions(
    names: &[usize],
    sizes: &[usize],
    gaps: &[usize],
    digits: &[(u8, u8, u8)],
) -> (Vec<String>, Vec<std::ops::Range<usize>>) {
    let mut lines = vec!["import math".to_string(), String::new(), String::new()];
    let mut spans = Vec::new();
    let mut numbers = digits.iter().cycle();
    for (k, (&size, &gap)) in sizes.iter().zip(gaps).enumerate() {
        let start = lines.len();
        let name = NAMES[names[k] % NAMES.len()];
        lines.push(format!("def test_{name}_{k}():"));
        for _ in 0..size {
            let (x, y, z) = numbers.next().expect("digits is not empty");
            lines.push(if k % 2 == 0 {
                format!("    assert {name}(1, 2, {x}, {y}) == ({z}, 3)")
            } else {
                format!("    assert {name}(1, ({x}, {y})) == {z}")
            });
        }
        spans.push(start..lines.len());
        lines.extend(std::iter::repeat_n(String::new(), gap));
    }
    lines.push("def test_last():".to_string());
    lines.push("    assert True".to_string());
    (lines, spans)
}

fn text_of(lines: &[String]) -> String {
    lines.iter().map(|l| format!("{l}\n")).collect()
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig {
        cases: 400,
        failure_persistence: None,
        ..proptest::prelude::ProptestConfig::default()
    })]

    /// Property: a search whose marker hides lines across a function's end,
    /// ending with more blank lines than the file has, and a new_content
    /// that writes the hidden lines out as the file has them and rewrites a
    /// line of the tail, ending with the file's or the search's count of
    /// blank lines, changes that line and nothing else; or is refused. The
    /// blank lines the file has after the block stay.
    #[test]
    fn lines_written_out_for_a_marker_keep_the_blank_lines_after_the_block(
        sizes in proptest::collection::vec(2usize..5, 3..6),
        gaps in proptest::collection::vec(1usize..4, 6),
        digits in proptest::collection::vec((0u8..10, 0u8..10, 0u8..4), 1..30),
        names in proptest::collection::vec(0usize..6, 6),
        first in 0usize..100,
        cut in 0usize..100,
        resume in 0usize..100,
        extra in 0usize..4,
        rewrite in 0usize..100,
        keep_search_count in proptest::bool::ANY,
        marker in 0usize..3,
    ) {
        let n = sizes.len();
        let (lines, spans) = functions(&names, &sizes, &gaps[..n], &digits);
        // From function i's head, hiding from inside it or from its end to
        // inside function i + 1 (its last line shown), and the blank lines
        // after it.
        let i = first % (n - 1);
        let (a, b) = (&spans[i], &spans[i + 1]);
        let hide_from = a.start + 1 + cut % a.len();
        let resume_at = b.start + 1 + resume % (b.len() - 1);
        let gap = gaps[i + 1];
        let marker = ["...", "# ...", "    # ... existing code ..."][marker];
        let head: Vec<String> = lines[a.start..hide_from].to_vec();
        let hidden: Vec<String> = lines[hide_from..resume_at].to_vec();
        let tail: Vec<String> = lines[resume_at..b.end].to_vec();
        let mut search = head.clone();
        search.push(marker.to_string());
        search.extend(tail.iter().cloned());
        search.extend(std::iter::repeat_n(String::new(), gap + extra));
        let k = rewrite % tail.len();
        let mut new_tail = tail.clone();
        new_tail[k] = new_tail[k].replacen("(1,", "_next(1,", 1);
        let mut new = head;
        new.extend(hidden);
        new.extend(new_tail.iter().cloned());
        let trailing = if keep_search_count { gap + extra } else { gap };
        new.extend(std::iter::repeat_n(String::new(), trailing));
        let mut want = lines.clone();
        want[resume_at + k] = new_tail[k].clone();
        intended_or_refused(
            apply(&text_of(&lines), &text_of(&search), &text_of(&new)),
            &text_of(&want),
        );
    }
}
