//! The seed behaviours a conformance audit found missing, checked by the
//! exact bytes on disk: a heading found by its text at another level, the
//! warning on large deletes, preserveIndent on insert, deleting an empty code
//! block, and patch_text_file_contents' tolerance of LF for CRLF.

mod support;

use mcp_server_text::tools::context::Settings;
use mcp_server_text::workspace::WorkspaceOptions;
use mcp_server_text::workspace::history::HistoryOptions;
use serde_json::json;
use support::Vault;

#[test]
fn a_heading_is_found_by_its_text_at_another_level() {
    let v = Vault::new();
    v.write("a.md", "# Title\n\n## Other\n\ntext\n");
    let result = v.ok(
        "TextPatch",
        json!({"filePath": "a.md", "operation": "replace", "target": {"heading": "### Other"},
               "content": "## Renamed"}),
    );
    assert_eq!(v.read_string("a.md"), "# Title\n\n## Renamed\n\ntext\n");
    assert_eq!(
        result["note"],
        "'### Other' matched '## Other' (line 3) by its text; the heading's level is 2, not 3"
    );
    let read = v.ok(
        "TextRead",
        json!({"filePath": "a.md", "target": {"heading": "# Renamed"}}),
    );
    assert_eq!(read["content"], "## Renamed\n\ntext");
    assert!(read["note"].as_str().unwrap().contains("by its text"));
}

#[test]
fn several_headings_with_the_text_are_still_refused() {
    let v = Vault::new();
    let text = "# A\n\n### Other\n\n### Other\n";
    v.write("a.md", text);
    let err = v.err(
        "TextPatch",
        json!({"filePath": "a.md", "operation": "delete", "target": {"heading": "## Other"}}),
    );
    assert!(
        err["message"]
            .as_str()
            .unwrap()
            .contains("Heading '## Other' is ambiguous: 2 headings match"),
        "{err}"
    );
    assert_eq!(v.read_string("a.md"), text);
    // The level still picks one when it can.
    v.write("b.md", "## Other\n\n### Other\n");
    v.ok(
        "TextPatch",
        json!({"filePath": "b.md", "operation": "replace", "target": {"heading": "### Other"},
               "content": "### Third"}),
    );
    assert_eq!(v.read_string("b.md"), "## Other\n\n### Third\n");
}

#[test]
fn a_large_delete_warns_how_much_went() {
    let v = Vault::new();
    let text: String = (1..=70).map(|i| format!("line {i}\n")).collect();
    v.write("big.txt", &text);
    let result = v.ok(
        "TextPatch",
        json!({"filePath": "big.txt", "operation": "delete", "target": {"lines": {"start": 5, "end": 64}}}),
    );
    let kept: String = (1..=4)
        .chain(65..=70)
        .map(|i| format!("line {i}\n"))
        .collect();
    assert_eq!(v.read_string("big.txt"), kept);
    let id = result["changeId"].as_str().unwrap();
    assert_eq!(
        result["warning"],
        format!(
            "Deleted 60 lines (5-64). If that was not intended, UndoEdit with changeId '{id}' \
             restores them."
        )
    );
    assert_eq!(result["note"], "File now has 10 lines (was 70)");
    // The change the warning names brings the lines back.
    v.ok("UndoEdit", json!({"changeId": id}));
    assert_eq!(v.read_string("big.txt"), text);
    v.ok(
        "TextPatch",
        json!({"filePath": "big.txt", "operation": "delete", "target": {"lines": {"start": 5, "end": 64}}}),
    );
    // 50 lines is not large.
    let small = v.ok(
        "TextPatch",
        json!({"filePath": "big.txt", "operation": "delete", "target": {"lines": {"start": 1, "end": 2}}}),
    );
    assert!(small.get("warning").is_none());
}

#[test]
fn without_history_the_large_delete_warning_says_how_to_recover() {
    let options = WorkspaceOptions {
        history: HistoryOptions::off(),
        ..WorkspaceOptions::default()
    };
    let v = Vault::with_options(options, Settings::default());
    let text: String = (1..=70).map(|i| format!("line {i}\n")).collect();
    v.write("big.txt", &text);
    let result = v.ok(
        "TextPatch",
        json!({"filePath": "big.txt", "operation": "delete", "target": {"lines": {"start": 5, "end": 64}}}),
    );
    assert!(result.get("changeId").is_none());
    assert_eq!(
        result["warning"],
        "Deleted 60 lines (5-64). This server keeps no edit history (UndoEdit is not switched \
         on): if that was not intended, insert the lines again (preview.before shows how they \
         began); next time check with dryRun: true first."
    );
}

#[test]
fn deleting_a_section_with_subsections_warns() {
    let v = Vault::new();
    v.write(
        "a.md",
        "# Doc\n\n## Plan\n\n### Beds\n\nthree\n\n## Tasks\n\n- one\n",
    );
    let dry = v.ok(
        "TextPatch",
        json!({"filePath": "a.md", "operation": "delete", "target": {"lines": {"start": 3, "end": 8}},
               "dryRun": true}),
    );
    assert_eq!(
        dry["warning"],
        "This would delete 6 lines (3-8), including the section '## Plan' with its subsections. \
         Nothing was written (dry run)."
    );
    let done = v.ok(
        "TextPatch",
        json!({"filePath": "a.md", "operation": "delete", "target": {"lines": {"start": 3, "end": 8}}}),
    );
    assert!(done["warning"].as_str().unwrap().starts_with(
        "Deleted 6 lines (3-8), including the section '## Plan' with its subsections."
    ));
    assert_eq!(v.read_string("a.md"), "# Doc\n\n## Tasks\n\n- one\n");
    // A section without subsections is an ordinary delete.
    let plain = v.ok(
        "TextPatch",
        json!({"filePath": "a.md", "operation": "delete", "target": {"lines": {"start": 3, "end": 5}}}),
    );
    assert!(plain.get("warning").is_none());
}

#[test]
fn insert_matches_the_target_lines_indentation() {
    let v = Vault::new();
    let code = "def f():\n    a()\n\n    b()\n";
    v.write("f.py", code);
    // Before `    a()`: the previous line is not indented, the target line is.
    v.ok(
        "TextPatch",
        json!({"filePath": "f.py", "operation": "insert", "target": {"lines": {"start": 2}},
               "content": "x = 1\nif x:\n    y()\n"}),
    );
    assert_eq!(
        v.read_string("f.py"),
        "def f():\n    x = 1\n    if x:\n        y()\n    a()\n\n    b()\n"
    );
    // Before a blank line: the nearest non-blank line above decides.
    v.write("g.py", code);
    v.ok(
        "TextPatch",
        json!({"filePath": "g.py", "operation": "insert", "target": {"lines": {"start": 3}},
               "content": "z()"}),
    );
    assert_eq!(
        v.read_string("g.py"),
        "def f():\n    a()\n    z()\n\n    b()\n"
    );
    // Content with its own indentation is inserted as given.
    v.write("list.md", "- one\n- two\n");
    v.ok(
        "TextPatch",
        json!({"filePath": "list.md", "operation": "insert", "target": {"lines": {"start": 2}},
               "content": "  - one.a\n"}),
    );
    assert_eq!(v.read_string("list.md"), "- one\n  - one.a\n- two\n");
    // preserveIndent: false inserts as given.
    v.write("h.py", code);
    v.ok(
        "TextPatch",
        json!({"filePath": "h.py", "operation": "insert", "target": {"lines": {"start": 2}},
               "content": "z()", "preserveIndent": false}),
    );
    assert_eq!(v.read_string("h.py"), "def f():\nz()\n    a()\n\n    b()\n");
}

#[test]
fn deleting_an_empty_code_block_is_like_deleting_a_full_one() {
    let v = Vault::new();
    let text = "# A\n\n```sh\n```\n\n```py\nprint(1)\n```\n";
    v.write("a.md", text);
    let empty = v.ok(
        "TextPatch",
        json!({"filePath": "a.md", "operation": "delete", "target": {"codeBlock": {"index": 0}}}),
    );
    assert_eq!(v.read_string("a.md"), text);
    assert_eq!(
        empty["note"],
        "Code block 0 is already empty: nothing was deleted; its fences remain"
    );
    assert_eq!(empty["linesDelta"], 0);
    let full = v.ok(
        "TextPatch",
        json!({"filePath": "a.md", "operation": "delete", "target": {"codeBlock": {"index": 1}}}),
    );
    assert_eq!(v.read_string("a.md"), "# A\n\n```sh\n```\n\n```py\n```\n");
    assert!(
        full["note"]
            .as_str()
            .unwrap()
            .starts_with("The code block's content was deleted; its fences remain")
    );
}

#[test]
fn patch_old_string_with_lf_matches_a_crlf_file() {
    let v = Vault::new();
    v.write("a.txt", "one\r\ntwo\r\nthree\r\n");
    v.ok(
        "patch_text_file_contents",
        json!({"files": [{"file_path": "a.txt", "patches": [
            {"old_string": "two\nthree\n", "new_string": "2\n3\n", "ranges": [{"start": 2, "end": 3}]}
        ]}]}),
    );
    assert_eq!(v.read("a.txt"), b"one\r\n2\r\n3\r\n");
    // Only the kind of line break is tolerated.
    let err = v.err(
        "patch_text_file_contents",
        json!({"files": [{"file_path": "a.txt", "patches": [
            {"old_string": "2 \n", "new_string": "x\n", "ranges": [{"start": 2, "end": 2}]}
        ]}]}),
    );
    assert!(err["message"].is_string());
    assert_eq!(v.read("a.txt"), b"one\r\n2\r\n3\r\n");
}
