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
    // edit is refused instead of guessed.
    let file = "def a():\n    if x:\n        y = 1\n    return y\n\nvalue = 3\nother = 4\n\ndef b():\n    pass\n";
    let search = "    if x:\n        y = 1\n\n    # ... existing code ...\n\ndef b():\n";
    let new = "    if x:\n        y = 2\n    return y\n\nvalue = 3\nother = 4\n\n\ndef b():\n";
    let err = apply(file, search, new).unwrap_err();
    assert!(
        matches!(err, Refusal::NotFound { .. } | Refusal::Conflict { .. }),
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
