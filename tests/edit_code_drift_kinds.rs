//! The four kinds of drift that real callers send and that a generated corpus
//! missed: blank lines the search has and the file lacks (or the reverse),
//! search blocks with their middle elided (with or without a marker), a
//! search line that is stale where new_content already agrees with the file,
//! and the syntax gate's judgement of such edits. Each test checks the exact
//! bytes written, or that nothing is written.

use mcp_server_text::text::fuzzy::{ConflictReason, Refusal};
use mcp_server_text::text::syntax::{GateOutcome, Language, check_edit};

#[path = "edit_outcome/mod.rs"]
mod edit_outcome;

use edit_outcome::{apply, intended_or_refused};

// The cases that check the edit as intended or a refusal are ones the
// matcher may refuse (their drift leaves more than one reading open); a
// written result must be exactly the intended one.

const SEQUENCE: &str = "class Wrapper:\n    def __init__(self, obj):\n        self._obj = obj\n\n    def __len__(self):\n        return len(self._obj)\n\n    def __getitem__(self, i):\n        return self._obj[i]\n";

#[test]
fn a_blank_line_only_the_search_has_is_not_taken_from_the_file() {
    // Two blank lines in the search where the file has one; new_content has
    // one and renames: "two become one" changes nothing on disk.
    let got = apply(
        SEQUENCE,
        "    def __len__(self):\n        return len(self._obj)\n\n\n    def __getitem__(self, i):\n        return self._obj[i]",
        "    def __len__(self):\n        return len(self._items)\n\n    def __getitem__(self, i):\n        return self._items[i]",
    )
    .unwrap();
    assert_eq!(
        got,
        SEQUENCE
            .replace("self._obj)", "self._items)")
            .replace("self._obj[i]", "self._items[i]")
    );
}

#[test]
fn a_blank_line_missing_from_search_and_new_content_stays() {
    let got = apply(
        SEQUENCE,
        "        return len(self._obj)\n    def __getitem__(self, i):",
        "        return len(self._obj) + 0\n    def __getitem__(self, i):",
    )
    .unwrap();
    assert_eq!(
        got,
        SEQUENCE.replace("len(self._obj)", "len(self._obj) + 0")
    );
}

#[test]
fn a_blank_line_only_the_search_has_is_not_added_when_new_content_keeps_it() {
    let file = "fn a() {\n    one();\n    two();\n}\n";
    let got = apply(
        file,
        "    one();\n\n    two();",
        "    one();\n\n    three();",
    )
    .unwrap();
    assert_eq!(got, "fn a() {\n    one();\n    three();\n}\n");
}

#[test]
fn a_blank_line_the_search_shows_and_new_content_drops_goes() {
    let got = apply(
        SEQUENCE,
        "        return len(self._obj)\n\n    def __getitem__(self, i):",
        "        return len(self._obj)\n    def __getitem__(self, i):",
    )
    .unwrap();
    assert_eq!(got, SEQUENCE.replace("self._obj)\n\n", "self._obj)\n"));
}

const FUNCTION: &str = "import os\n\n\ndef load(path):\n    name = os.path.basename(path)\n    with open(path) as f:\n        text = f.read()\n    lines = text.splitlines()\n    count = len(lines)\n    return name, count\n\n\ndef other():\n    pass\n";

#[test]
fn hidden_lines_that_new_content_writes_out_are_replaced_with_the_block() {
    let got = apply(
        FUNCTION,
        "def load(path):\n    # ... existing code ...\n    return name, count",
        "def load(path):\n    name = os.path.basename(path)\n    with open(path) as f:\n        text = f.read()\n    lines = text.splitlines()\n    count = len(lines)\n    return name, count, lines",
    )
    .unwrap();
    assert_eq!(
        got,
        FUNCTION.replace("return name, count\n", "return name, count, lines\n")
    );
}

#[test]
fn hidden_lines_that_new_content_drops_are_refused() {
    let err = apply(
        FUNCTION,
        "def load(path):\n    ...\n    return name, count",
        "def load(path):\n    return name, 0",
    )
    .unwrap_err();
    assert!(
        matches!(
            err,
            Refusal::Conflict {
                reason: ConflictReason::HiddenLinesDropped,
                ..
            }
        ),
        "{err:?}"
    );
}

#[test]
fn a_head_and_a_tail_without_marker_are_one_block_when_new_content_writes_the_middle() {
    let got = apply(
        FUNCTION,
        "def load(path):\n    name = os.path.basename(path)\n    count = len(lines)\n    return name, count",
        "def load(path):\n    name = os.path.basename(path)\n    with open(path) as f:\n        text = f.read()\n    lines = text.splitlines(keepends=True)\n    count = len(lines)\n    return name, count",
    )
    .unwrap();
    assert_eq!(
        got,
        FUNCTION.replace("splitlines()", "splitlines(keepends=True)")
    );
}

const SETTINGS: &str = "def settings():\n    retries = 3\n    timeout = 30\n    verbose = False\n    return retries, timeout, verbose\n";

#[test]
fn a_stale_line_new_content_has_as_the_file_does_is_applied() {
    let got = apply(
        SETTINGS,
        "    retries = 3\n    timeout = 10\n    verbose = False",
        "    retries = 5\n    timeout = 30\n    verbose = False",
    )
    .unwrap();
    assert_eq!(got, SETTINGS.replace("retries = 3", "retries = 5"));
}

#[test]
fn a_stale_line_new_content_changes_otherwise_is_a_conflict() {
    let err = apply(
        SETTINGS,
        "    retries = 3\n    timeout = 10\n    verbose = False",
        "    retries = 5\n    timeout = 20\n    verbose = False",
    )
    .unwrap_err();
    assert!(
        matches!(
            err,
            Refusal::Conflict {
                search_line: Some(2),
                file_line: Some(3),
                ..
            }
        ),
        "{err:?}"
    );
    let file = SETTINGS.replace("timeout = 30", "timeout = DEFAULT_WAIT");
    let err = apply(
        &file,
        "    retries = 3\n    timeout = DEFAULT_TIMEOUT\n    verbose = False",
        "    retries = 3\n    timeout = LONG_TIMEOUT\n    verbose = False",
    )
    .unwrap_err();
    assert!(
        matches!(
            err,
            Refusal::Conflict {
                search_line: Some(2),
                file_line: Some(3),
                ..
            }
        ),
        "{err:?}"
    );
}

#[test]
fn a_stale_line_new_content_carries_unchanged_keeps_the_file_s_version() {
    let file = SETTINGS.replace("timeout = 30", "timeout = DEFAULT_WAIT");
    let got = apply(
        &file,
        "    retries = 3\n    timeout = DEFAULT_TIMEOUT\n    verbose = False",
        "    retries = 5\n    timeout = DEFAULT_TIMEOUT\n    verbose = False",
    )
    .unwrap();
    assert_eq!(got, file.replace("retries = 3", "retries = 5"));
    // A number is no misremembered name: the caller may mean another block.
    let err = apply(
        SETTINGS,
        "    retries = 3\n    timeout = 10\n    verbose = False",
        "    retries = 5\n    timeout = 10\n    verbose = False",
    )
    .unwrap_err();
    assert!(
        matches!(
            err,
            Refusal::Conflict {
                search_line: Some(2),
                file_line: Some(3),
                ..
            }
        ),
        "{err:?}"
    );
}

fn gate(language: Language, before: &str, after: &str) -> GateOutcome {
    let first = before
        .lines()
        .zip(after.lines())
        .take_while(|(a, b)| a == b)
        .count();
    let last = after.lines().count().saturating_sub(
        before
            .lines()
            .rev()
            .zip(after.lines().rev())
            .take_while(|(a, b)| a == b)
            .count(),
    );
    check_edit(
        language,
        before,
        after,
        Some((first + 1, last.max(first + 1))),
    )
}

#[test]
fn a_python_block_without_its_indented_body_is_refused_where_it_is() {
    let before = "def add(a, b):\n    return a + b\n";
    let after = "def add(a, b):\nreturn a + b\n";
    let GateOutcome::Refuse(regression) = gate(Language::Python, before, after) else {
        panic!("passed");
    };
    let error = &regression.first_new_error;
    assert_eq!(
        (error.line, error.message.as_str()),
        (
            2,
            "expected an indented block after function definition on line 1"
        )
    );
    for opener in [
        "if x:",
        "for i in y:",
        "while x:",
        "with x:",
        "try:",
        "class A:",
        "else:",
    ] {
        let before = format!("{opener}\n    pass\n");
        let after = format!("{opener}\npass\n");
        let before = if opener == "else:" {
            format!("if x:\n    pass\n{before}")
        } else {
            before
        };
        let after = if opener == "else:" {
            format!("if x:\n    pass\n{after}")
        } else {
            after
        };
        assert!(
            matches!(
                gate(Language::Python, &before, &after),
                GateOutcome::Refuse(_)
            ),
            "{opener}"
        );
    }
}

const STEPS: &str = "def f(a):\n    b = a + 1\n    c = b * 2\n    d = c - 3\n    e = d / 4\n    g = e ** 5\n    return g\n\n\ndef h():\n    pass\n";

#[test]
fn new_content_that_goes_on_past_the_search_writes_those_lines_once() {
    // The search shows the first lines; new_content is the whole function.
    let whole = "def f(a):\n    b = a + 10\n    c = b * 2\n    d = c - 3\n    e = d / 4\n    g = e ** 5\n    return g";
    let got = apply(STEPS, "def f(a):\n    b = a + 1\n    c = b * 2", whole).unwrap();
    assert_eq!(got, STEPS.replace("a + 1\n", "a + 10\n"));
    // ... and changes a line the search did not show.
    let got = apply(
        STEPS,
        "def f(a):\n    b = a + 1\n    c = b * 2",
        &whole.replace("a + 10", "a + 1").replace("d / 4", "d / 40"),
    )
    .unwrap();
    assert_eq!(got, STEPS.replace("d / 4\n", "d / 40\n"));
    // The same before the search.
    let got = apply(
        STEPS,
        "    g = e ** 5\n    return g",
        &whole.replace("a + 10", "a + 1").replace("b * 2", "b * 20"),
    )
    .unwrap();
    assert_eq!(got, STEPS.replace("b * 2\n", "b * 20\n"));
}

#[test]
fn an_elided_markdown_section_may_end_with_the_next_heading() {
    let file = "# Title\n\n## Install\n\n```sh\nnpm install thing\n```\n\n## Usage\n\n- one\n";
    let got = apply(
        file,
        "## Install\n...\n## Usage",
        "## Install\n\n```sh\nnpm install --save thing\n```\n\n## Usage",
    )
    .unwrap();
    assert_eq!(
        got,
        file.replace("npm install thing", "npm install --save thing")
    );
}

#[test]
fn a_line_added_among_the_search_lines_is_added_even_when_the_next_file_line_reads_so() {
    let file = "def f():\n    a = 1\n    b = 2\n    log()\n    c = 3\n";
    let got = apply(
        file,
        "    a = 1\n    b = 2",
        "    a = 1\n    log()\n    b = 2",
    )
    .unwrap();
    assert_eq!(
        got,
        "def f():\n    a = 1\n    log()\n    b = 2\n    log()\n    c = 3\n"
    );
}

#[test]
fn blank_lines_new_content_begins_with_after_an_exact_match_are_added() {
    let file = "import os\n\n\ndef f():\n    pass\n";
    let got = apply(file, "def f():\n    pass", "\ndef f():\n    return 1").unwrap();
    assert_eq!(got, "import os\n\n\n\ndef f():\n    return 1\n");
}

#[test]
fn blank_lines_around_a_line_neither_text_shows_are_not_doubled() {
    // The file has `step_6` between two blank lines; the caller's view
    // forgot it and removes `step_4`: one blank line stays on each side.
    let file = "\n    step_1(value_1, 7);\n    step_2(value_2, 14);\nstep_3(value_3, 21);\nstep_4(value_4, 28);\n\nstep_6(value_6, 11);\n\n    step_8(value_8, 25);\n        step_9(value_9, 1);\n";
    let got = apply(
        file,
        "    step_1(value_1, 7);\n    step_2(value_2, 14);\nstep_3(value_3, 21);\nstep_4(value_4, 28);\n\n\n    step_8(value_8, 25);",
        "    step_1(value_1, 7);\n    step_2(value_2, 14);\nstep_3(value_3, 21);\n\n\n    step_8(value_8, 25);",
    );
    intended_or_refused(got, &file.replace("step_4(value_4, 28);\n", ""));
}

#[test]
fn a_blank_line_beside_a_removed_line_is_read_after_new_content_s_blank_lines() {
    // The view misses one of two blank lines and the line `step_4`, which
    // new_content has; the edit removes `step_6`, and no blank line goes.
    let file = "\nstep_1(value_1, 7);\n\n\nstep_4(value_4, 28);\n\nstep_6(value_6, 11);\n";
    let got = apply(
        file,
        "step_1(value_1, 7);\n\n\nstep_6(value_6, 11);",
        "step_1(value_1, 7);\n\nstep_4(value_4, 28);\n\n",
    );
    intended_or_refused(got, "\nstep_1(value_1, 7);\n\n\nstep_4(value_4, 28);\n\n");
}

#[test]
fn a_forgotten_line_that_reads_like_a_search_line_is_written_once() {
    // The view forgot the second `def lookup(name):`, which reads exactly
    // like the first, and new_content has it: new_content restates the
    // file's line (a second `def` on the next line would be no Python), so
    // it is written once and only the last line changes.
    let file = "if cond:\n    def lookup(name):\n        return getattr(os, name, _nop)\nelse:\n    # the real function only if it exists\n    # and it supports follow_symlinks\n    def lookup(name):\n        fn = getattr(os, name, _nop)\n        if fn in os.supports_follow_symlinks:\n            return fn\n        return _nop\n";
    let got = apply(
        file,
        "    def lookup(name):\n        return getattr(os, name, _nop)\nelse:\n    # the real function only if it exists\n    # and it supports follow_symlinks\n        fn = getattr(os, name, _nop)\n        if fn in os.supports_follow_symlinks:\n            return fn\n        return _nop",
        "    def lookup(name):\n        return getattr(os, name, _nop)\nelse:\n    # the real function only if it exists\n    # and it supports follow_symlinks\n    def lookup(name):\n        fn = getattr(os, name, _nop)\n        if fn in os.supports_follow_symlinks:\n            return fn\n        return None",
    )
    .unwrap();
    assert_eq!(got, file.replace("return _nop\n", "return None\n"));
}

#[test]
fn a_kept_line_the_file_reads_otherwise_beside_a_change_is_named_as_kept() {
    // The caller keeps `if c1h == ch2 {` and changes the line above it; the
    // file has `ch1`, which as a word with a digit reads as another number,
    // and a blank line between. The refusal names the line without saying
    // the caller changes it.
    let body = "            let left = r[j] + 1;\n            let up = r1[j + 1] + 1;\n            let mut temp = min(diag, min(left, up));\n";
    let tail = "                last_col_id = j as isize; // last occurence of s1_i\n                fr[j + 1] = r1[j - 1]; // save H_k-1,j-2\n                t = last_i2l1; // save H_i-2,l-1\n";
    let file =
        format!("fn f() {{\n{body}\n            if ch1 == ch2 {{\n{tail}            }}\n}}\n");
    let search = format!("{body}            if c1h == ch2 {{\n{tail}");
    let new = search.replace("let mut temp =", "let mut temp_raw =");
    let err = apply(&file, &search, &new).unwrap_err();
    let message = err.to_string();
    assert!(
        message.contains("line 4 of search_context, among the lines new_content changes,"),
        "{message}"
    );
}
