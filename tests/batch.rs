//! Batch and TextReplace with filePattern: several edits over several
//! files, planned against the files as the earlier ones leave them, written
//! all or nothing, recorded as one change.

mod support;

use serde_json::{Value, json};
use support::Vault;

fn s(value: &Value) -> &str {
    value
        .as_str()
        .unwrap_or_else(|| panic!("not a string: {value}"))
}

fn op(tool: &str, arguments: Value) -> Value {
    json!({"tool": tool, "arguments": arguments})
}

fn three_files(v: &Vault) {
    v.write("a.md", "# A\n\n## Tasks\n\n- one\n");
    v.write("b.md", "beta gamma\n");
    v.write("src/c.py", "def f():\n    return 1\n");
}

#[test]
fn five_operations_over_three_files_the_fourth_invalid_write_nothing() {
    let v = Vault::new();
    three_files(&v);
    let before = v.snapshot();
    let err = v.err(
        "Batch",
        json!({"operations": [
            op("TextReplace", json!({"filePath": "b.md", "oldText": "beta", "newText": "BETA"})),
            op("TextPatch", json!({"filePath": "a.md", "operation": "insert", "target": {"appendToSection": "## Tasks"}, "content": "- two\n"})),
            op("edit_code", json!({"file_path": "src/c.py", "search_context": "    return 1", "new_content": "    return 2"})),
            op("TextReplace", json!({"filePath": "b.md", "oldText": "delta", "newText": "DELTA"})),
            op("TextPatch", json!({"filePath": "a.md", "operation": "insert", "target": {"appendToSection": "## Tasks"}, "content": "- three\n"})),
        ]}),
    );
    assert_eq!(
        s(&err["message"]),
        format!(
            "Batch refused: operation 4 (TextReplace) failed: oldText was not found in {}; nothing was written",
            v.root.join("b.md").display()
        )
    );
    assert_eq!(err["operation"], 4);
    assert_eq!(err["tool"], "TextReplace");
    assert!(
        !err["suggestions"].as_array().unwrap().is_empty(),
        "the tool's own suggestions are kept"
    );
    assert_eq!(v.snapshot(), before, "no file changed, no history written");
}

#[test]
fn operations_see_the_files_as_the_earlier_ones_left_them() {
    let v = Vault::new();
    three_files(&v);
    let hash_b = v.ok(
        "TextRead",
        json!({"filePath": "b.md", "target": {"lines": {"start": 1, "end": 1}}}),
    )["fileHash"]
        .clone();
    let done = v.ok(
        "Batch",
        json!({"operations": [
            op("TextReplace", json!({"filePath": "b.md", "oldText": "beta", "newText": "alpha beta", "expectedHash": hash_b})),
            // Sees the first replacement: "beta" now occurs once, after "alpha ".
            op("TextReplace", json!({"filePath": "b.md", "oldText": "alpha beta", "newText": "alpha, beta"})),
            op("edit_code", json!({"file_path": "src/new.py", "new_content": "x = 1\n", "strategy": "overwrite_file"})),
            op("edit_code", json!({"file_path": "src/new.py", "search_context": "x = 1", "new_content": "x = 2"})),
            op("TextPatch", json!({"filePath": "a.md", "operation": "replace", "target": {"lines": {"start": 5, "end": 5}}, "content": "- one, done"})),
        ]}),
    );
    assert_eq!(v.read("b.md"), b"alpha, beta gamma\n");
    assert_eq!(v.read("src/new.py"), b"x = 2\n");
    assert_eq!(v.read("a.md"), b"# A\n\n## Tasks\n\n- one, done\n");
    let ops = done["operations"].as_array().unwrap();
    assert_eq!(ops.len(), 5);
    assert_eq!(ops[2]["result"]["message"], "Created the file (1 line)");
    // Each reply's fileHash is its file's hash after that operation; the
    // last one of a file is the file's final hash.
    let files = done["files"].as_array().unwrap();
    assert_eq!(files.len(), 3);
    let final_b = files
        .iter()
        .find(|f| s(&f["filePath"]).ends_with("b.md"))
        .unwrap();
    assert_eq!(ops[1]["result"]["fileHash"], final_b["fileHash"]);
    assert_ne!(ops[0]["result"]["fileHash"], final_b["fileHash"]);
    assert!(files.iter().any(|f| f["created"] == true));
    // One record covers the batch: one undo takes back every file.
    let id = done["changeId"].clone();
    for o in ops {
        assert_eq!(o["result"]["changeId"], id);
    }
    v.ok("UndoEdit", json!({"changeId": id}));
    assert_eq!(v.read("b.md"), b"beta gamma\n");
    assert!(!v.root.join("src/new.py").exists());
    assert_eq!(v.read("a.md"), b"# A\n\n## Tasks\n\n- one\n");
}

#[test]
fn a_stale_hash_names_its_operation_and_the_state_it_was_checked_against() {
    let v = Vault::new();
    three_files(&v);
    let hash_b = v.ok(
        "TextRead",
        json!({"filePath": "b.md", "target": {"lines": {"start": 1, "end": 1}}}),
    )["fileHash"]
        .clone();
    let before = v.snapshot();
    let err = v.err(
        "Batch",
        json!({"operations": [
            op("TextReplace", json!({"filePath": "b.md", "oldText": "beta", "newText": "BETA"})),
            // The hash of b.md as it was before the batch: stale after operation 1.
            op("TextReplace", json!({"filePath": "b.md", "oldText": "gamma", "newText": "GAMMA", "expectedHash": hash_b})),
        ]}),
    );
    assert!(
        s(&err["message"]).starts_with("Batch refused: operation 2 (TextReplace) failed: "),
        "{err}"
    );
    assert!(
        s(&err["message"]).contains("has changed since you read it"),
        "{err}"
    );
    assert_eq!(v.snapshot(), before);
}

#[test]
fn a_dry_run_gives_one_diff_per_file_and_writes_nothing() {
    let v = Vault::new();
    three_files(&v);
    let before = v.snapshot();
    let done = v.ok(
        "Batch",
        json!({"dryRun": true, "operations": [
            op("TextReplace", json!({"filePath": "b.md", "oldText": "beta", "newText": "BETA"})),
            op("TextReplace", json!({"filePath": "b.md", "oldText": "gamma", "newText": "GAMMA"})),
            op("edit_code", json!({"file_path": "src/c.py", "search_context": "    return 1", "new_content": "    return 2"})),
        ]}),
    );
    assert_eq!(done["dryRun"], true);
    assert!(done.get("changeId").is_none());
    let files = done["files"].as_array().unwrap();
    assert_eq!(files.len(), 2);
    assert_eq!(
        s(&files[0]["diff"]),
        "--- a/b.md\n+++ b/b.md\n@@ -1 +1 @@\n-beta gamma\n+BETA GAMMA\n"
    );
    assert_eq!(
        s(&files[1]["diff"]),
        "--- a/src/c.py\n+++ b/src/c.py\n@@ -1,2 +1,2 @@\n def f():\n-    return 1\n+    return 2\n"
    );
    assert_eq!(v.snapshot(), before);
}

#[test]
fn operations_are_checked_strictly_before_any_file_is_read() {
    let v = Vault::new();
    three_files(&v);
    let cases = [
        (
            op("TextInspect", json!({"filePath": "a.md"})),
            "operation 1 (TextInspect) failed: 'TextInspect' cannot be part of a Batch",
        ),
        (
            op(
                "TextReplace",
                json!({"filePath": "b.md", "oldText": "beta", "newText": "x", "dryRun": true}),
            ),
            "dryRun was given inside an operation",
        ),
        (
            op(
                "TextReplace",
                json!({"filePattern": "*.md", "oldText": "beta", "newText": "x"}),
            ),
            "filePattern is not accepted inside a Batch",
        ),
        (
            op(
                "TextReplace",
                json!({"filePath": "b.md", "oldTxt": "beta", "newText": "x"}),
            ),
            "operation 1 (TextReplace) failed: ",
        ),
        (
            op(
                "TextPatch",
                json!({"filePath": "missing.md", "operation": "delete", "target": {"lines": {"start": 1, "end": 1}}}),
            ),
            "operation 1 (TextPatch on missing.md) failed: 'missing.md' does not exist",
        ),
        (
            op(
                "edit_code",
                json!({"file_path": "src/c.py", "search_context": "x", "new_content": "y", "validate_command": "true"}),
            ),
            "validate_command is not accepted inside a Batch",
        ),
    ];
    for (operation, expected) in cases {
        let err = v.err("Batch", json!({"operations": [operation]}));
        assert!(s(&err["message"]).contains(expected), "{expected}\n{err:#}");
        assert_eq!(err["operation"], 1);
    }
    let err = v.err("Batch", json!({"operations": []}));
    assert!(
        s(&err["message"]).starts_with("operations is empty"),
        "{err}"
    );
    let many: Vec<Value> = (0..101)
        .map(|_| {
            op(
                "TextReplace",
                json!({"filePath": "b.md", "oldText": "a", "newText": "b"}),
            )
        })
        .collect();
    let err = v.err("Batch", json!({"operations": many}));
    assert!(s(&err["message"]).contains("more than the 100"), "{err}");
}

#[test]
fn text_replace_with_a_file_pattern_changes_every_matching_file_as_one_change() {
    let v = Vault::new();
    v.write("notes/a.md", "see old-name here\r\n");
    v.write("notes/deep/b.md", "old-name and old-name\n");
    v.write("notes/c.md", "nothing to see\n");
    v.write("notes/d.txt", "old-name in a text file\n");
    v.write("other/e.md", "old-name elsewhere\n");
    v.write("notes/.hidden.md", "old-name hidden\n");
    let done = v.ok(
        "TextReplace",
        json!({"filePattern": "notes/**/*.md", "oldText": "old-name", "newText": "new-name", "occurrence": "all"}),
    );
    assert_eq!(done["filesChanged"], 2);
    assert_eq!(done["totalReplaced"], 3);
    assert_eq!(v.read("notes/a.md"), b"see new-name here\r\n");
    assert_eq!(v.read("notes/deep/b.md"), b"new-name and new-name\n");
    assert_eq!(v.read("notes/c.md"), b"nothing to see\n");
    assert_eq!(v.read("notes/d.txt"), b"old-name in a text file\n");
    assert_eq!(v.read("other/e.md"), b"old-name elsewhere\n");
    assert_eq!(v.read("notes/.hidden.md"), b"old-name hidden\n");
    let files = done["files"].as_array().unwrap();
    let id = &files[0]["changeId"];
    assert_eq!(&files[1]["changeId"], id, "one change for all files");
    v.ok("UndoEdit", json!({"changeId": id}));
    assert_eq!(v.read("notes/a.md"), b"see old-name here\r\n");
    assert_eq!(v.read("notes/deep/b.md"), b"old-name and old-name\n");
}

#[test]
fn a_file_pattern_replacement_is_refused_whole_when_one_file_would_be() {
    let v = Vault::new();
    v.write("a.md", "TODO once\n");
    v.write("b.md", "TODO and TODO\n");
    let before = v.snapshot();
    let err = v.err(
        "TextReplace",
        json!({"filePattern": "*.md", "oldText": "TODO", "newText": "DONE"}),
    );
    let message = s(&err["message"]);
    assert!(
        message.contains(&v.root.join("b.md").display().to_string()),
        "{message}"
    );
    assert!(message.contains("occurs 2 times"), "{message}");
    assert!(
        message.ends_with("no file matching the pattern was changed"),
        "{message}"
    );
    assert_eq!(v.snapshot(), before);
    let dry = v.ok(
        "TextReplace",
        json!({"filePattern": "*.md", "oldText": "TODO", "newText": "DONE", "occurrence": "first", "dryRun": true}),
    );
    assert_eq!(dry["filesChanged"], 2);
    assert_eq!(
        s(&dry["files"][1]["diff"]),
        "--- a/b.md\n+++ b/b.md\n@@ -1 +1 @@\n-TODO and TODO\n+DONE and TODO\n"
    );
    assert_eq!(v.snapshot(), before);
    let err = v.err(
        "TextReplace",
        json!({"filePattern": "*.md", "oldText": "absent", "newText": "x"}),
    );
    assert!(
        s(&err["message"])
            .starts_with("oldText was not found in any of the 2 files matching '*.md'"),
        "{err}"
    );
    let err = v.err(
        "TextReplace",
        json!({"filePattern": "*.md", "filePath": "a.md", "oldText": "TODO", "newText": "x"}),
    );
    assert!(
        s(&err["message"]).starts_with("filePath and filePattern were both given"),
        "{err}"
    );
}

#[test]
fn a_file_pattern_matching_too_many_files_is_refused() {
    let v = Vault::new();
    for i in 0..=100 {
        v.write(&format!("many/{i:03}.md"), "word\n");
    }
    let before = v.snapshot();
    let err = v.err(
        "TextReplace",
        json!({"filePattern": "many/*.md", "oldText": "word", "newText": "other"}),
    );
    assert!(
        s(&err["message"]).starts_with("oldText occurs in 101 files matching 'many/*.md', more than the 100 one call may change"),
        "{err}"
    );
    assert_eq!(v.snapshot(), before);
}
