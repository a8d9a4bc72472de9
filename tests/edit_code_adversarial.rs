//! edit_code against inputs built to make it edit the wrong place or mangle
//! bytes: each case states the exact bytes it must leave, or that the call is
//! refused with the file untouched.

mod support;

use serde_json::{Value, json};
use support::Vault;

fn refused(vault: &Vault, file: &str, args: Value) -> Value {
    let before = vault.snapshot();
    let mut args = args;
    args["file_path"] = json!(file);
    let err = vault.err("edit_code", args);
    assert_eq!(vault.snapshot(), before, "a refusal changed files: {err}");
    err
}

fn edit(vault: &Vault, file: &str, args: Value) -> Value {
    let mut args = args;
    args["file_path"] = json!(file);
    vault.ok("edit_code", args)
}

fn message(err: &Value) -> &str {
    err["message"].as_str().unwrap()
}

#[test]
fn python_indentation_errors_are_refused_like_any_syntax_error() {
    let vault = Vault::new();
    vault.write("m.py", "def f():\n    a = 1\n    return a\n");
    let err = refused(
        &vault,
        "m.py",
        json!({"search_context": "    a = 1\n    return a", "new_content": "    a = 1\n      return a"}),
    );
    assert_eq!(err["syntaxError"]["message"], "unexpected indent");
    assert_eq!(err["syntaxError"]["line"], 3);
    assert_eq!(
        vault.read_string("m.py"),
        "def f():\n    a = 1\n    return a\n"
    );
    let err = refused(
        &vault,
        "m.py",
        json!({"search_context": "    a = 1", "new_content": "    a = 1\n      b = 2"}),
    );
    assert_eq!(err["syntaxError"]["message"], "unexpected indent");
    // Spaces in a tab-indented file are converted, so the new line joins
    // the block instead of breaking it.
    vault.write("t.py", "def f():\n\ta = 1\n\treturn a\n");
    edit(
        &vault,
        "t.py",
        json!({"search_context": "\ta = 1", "new_content": "\ta = 1\n    b = 2"}),
    );
    assert_eq!(
        vault.read_string("t.py"),
        "def f():\n\ta = 1\n\tb = 2\n\treturn a\n"
    );
}

#[test]
fn new_content_already_at_the_file_s_indentation_is_not_shifted_twice() {
    let vault = Vault::new();
    vault.write("m.py", "def f():\n    x = 1\n    y = 2\n    return x + y\n");
    // Search sent at 2 spaces, new content at the file's 4.
    edit(
        &vault,
        "m.py",
        json!({"search_context": "  x = 1\n  y = 2", "new_content": "    x = 5\n    y = 6"}),
    );
    assert_eq!(
        vault.read_string("m.py"),
        "def f():\n    x = 5\n    y = 6\n    return x + y\n"
    );
    // A search that begins inside the indentation.
    edit(
        &vault,
        "m.py",
        json!({"search_context": "   x = 5", "new_content": "    x = 7"}),
    );
    assert_eq!(
        vault.read_string("m.py"),
        "def f():\n    x = 7\n    y = 6\n    return x + y\n"
    );
    // A search without indentation, new content with the file's.
    vault.write(
        "c.py",
        "class A:\n    def f(self):\n        x = 1\n        return x\n",
    );
    edit(
        &vault,
        "c.py",
        json!({"search_context": "x = 1", "new_content": "        x = 2"}),
    );
    assert_eq!(
        vault.read_string("c.py"),
        "class A:\n    def f(self):\n        x = 2\n        return x\n"
    );
}

#[test]
fn spaces_in_new_content_become_the_file_s_tabs_after_an_exact_match() {
    let vault = Vault::new();
    vault.write(
        "m.go",
        "package main\n\nfunc main() {\n\tif x {\n\t\ty()\n\t}\n}\n",
    );
    edit(
        &vault,
        "m.go",
        json!({"search_context": "\tif x {\n\t\ty()\n\t}", "new_content": "    if x {\n        z()\n    }"}),
    );
    assert_eq!(
        vault.read_string("m.go"),
        "package main\n\nfunc main() {\n\tif x {\n\t\tz()\n\t}\n}\n"
    );
}

#[test]
fn a_bom_copied_into_the_edit_is_not_written_twice() {
    let vault = Vault::new();
    vault.write("m.md", b"\xEF\xBB\xBF# Title\r\nBody\r\n");
    edit(
        &vault,
        "m.md",
        json!({"search_context": "\u{feff}# Title", "new_content": "\u{feff}# New Title"}),
    );
    assert_eq!(vault.read("m.md"), b"\xEF\xBB\xBF# New Title\r\nBody\r\n");
    edit(
        &vault,
        "m.md",
        json!({"strategy": "overwrite_file", "new_content": "\u{feff}# Other\nText\n"}),
    );
    assert_eq!(vault.read("m.md"), b"\xEF\xBB\xBF# Other\r\nText\r\n");
    // The same through TextReplace.
    vault.ok(
        "TextReplace",
        json!({"filePath": "m.md", "oldText": "# Other", "newText": "\u{feff}# Third"}),
    );
    assert_eq!(vault.read("m.md"), b"\xEF\xBB\xBF# Third\r\nText\r\n");
}

#[test]
fn a_different_name_number_or_operator_is_not_taken_for_a_typo() {
    let vault = Vault::new();
    vault.write("m.rs", "const MAX_CONNECTIONS_PER_HOST: u32 = 16;\n");
    let err = refused(
        &vault,
        "m.rs",
        json!({"search_context": "const MIN_CONNECTIONS_PER_HOST: u32 = 16;",
               "new_content": "const MIN_CONNECTIONS_PER_HOST: u32 = 1;"}),
    );
    assert_eq!(err["refusal"], "conflict");
    assert_eq!(err["reason"], "line_differs");
    assert_eq!(
        (err["search_line"].clone(), err["file_line"].clone()),
        (json!(1), json!(1))
    );
    assert_eq!(
        vault.read_string("m.rs"),
        "const MAX_CONNECTIONS_PER_HOST: u32 = 16;\n"
    );
    vault.write("m.js", "if (count < limit) {\n  go();\n}\n");
    let err = refused(
        &vault,
        "m.js",
        json!({"search_context": "if (count > limit) {\n  go();", "new_content": "if (count > limit) {\n  stop();"}),
    );
    assert_eq!(err["refusal"], "not_found");
    assert_eq!(err["reason"]["kind"], "kept_lines_differ");
    assert_eq!(
        vault.read_string("m.js"),
        "if (count < limit) {\n  go();\n}\n"
    );
    // A misspelt name that new_content writes correctly is still a typo.
    vault.write("t.rs", "fn main() {\n    let total = 1;\n}\n");
    edit(
        &vault,
        "t.rs",
        json!({"search_context": "    let totl = 1;", "new_content": "    let total = 2;"}),
    );
    assert_eq!(
        vault.read_string("t.rs"),
        "fn main() {\n    let total = 2;\n}\n"
    );
}

#[test]
fn an_elision_marker_new_content_drops_would_delete_unseen_lines_and_is_refused() {
    let vault = Vault::new();
    vault.write(
        "m.py",
        "def f():\n    a = 1\n    b = 2\n    return a\n\ndef g():\n    return 1\n",
    );
    let err = refused(
        &vault,
        "m.py",
        json!({"search_context": "def f():\n    ...\n    return a", "new_content": "def f():\n    return a"}),
    );
    assert_eq!(err["refusal"], "conflict");
    assert_eq!(err["reason"], "hidden_lines_dropped");
    assert_eq!(err["file_lines"], json!({"start": 2, "end": 3}));
    // Keeping the marker applies.
    edit(
        &vault,
        "m.py",
        json!({"search_context": "def f():\n    ...\n    return a", "new_content": "def f():\n    ...\n    return b"}),
    );
    assert_eq!(
        vault.read_string("m.py"),
        "def f():\n    a = 1\n    b = 2\n    return b\n\ndef g():\n    return 1\n"
    );
}

#[test]
fn the_same_insertion_sent_twice_is_refused_the_second_time() {
    let vault = Vault::new();
    vault.write("m.py", "import os\r\n\r\nprint(os.name)\r\n");
    let args = json!({"search_context": "import os", "new_content": "import os\nimport sys"});
    edit(&vault, "m.py", args.clone());
    let after = "import os\r\nimport sys\r\n\r\nprint(os.name)\r\n";
    assert_eq!(vault.read_string("m.py"), after);
    let err = refused(&vault, "m.py", args);
    assert_eq!(err["refusal"], "conflict");
    assert_eq!(err["reason"], "already_applied");
    assert_eq!(err["lines"], json!({"start": 1, "end": 2}));
    // Added before the search, too.
    let args = json!({"search_context": "print(os.name)", "new_content": "x = 1\nprint(os.name)"});
    edit(&vault, "m.py", args.clone());
    let err = refused(&vault, "m.py", args);
    assert_eq!(err["lines"], json!({"start": 4, "end": 5}));
    // Another insertion at the same place is no repeat.
    edit(
        &vault,
        "m.py",
        json!({"search_context": "import sys", "new_content": "import sys\nimport re"}),
    );
    assert_eq!(
        vault.read_string("m.py"),
        "import os\r\nimport sys\r\nimport re\r\n\r\nx = 1\r\nprint(os.name)\r\n"
    );
}

#[test]
fn replace_all_over_places_that_only_resemble_the_search_says_why() {
    let vault = Vault::new();
    vault.write(
        "m.js",
        "setTimeoutValue(connection, 1000);\nsetTimeoutValue(connection, 2000);\n",
    );
    let err = refused(
        &vault,
        "m.js",
        json!({"search_context": "setTimeoutValue(connection, 3000);",
               "new_content": "setTimeoutValue(connection, 0);", "strategy": "replace_all"}),
    );
    // Both lines resemble the search, each with another number than its
    // 3000, and they differ from each other: no one change fits them all,
    // so nothing is replaced, and the reply lists both.
    assert_eq!(err["refusal"], "ambiguous");
    assert_eq!(err["unlike"], true);
    let lines: Vec<&Value> = err["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| &c["lines"])
        .collect();
    assert_eq!(
        lines,
        [
            &json!({"start": 1, "end": 1}),
            &json!({"start": 2, "end": 2})
        ]
    );
    assert!(message(&err).contains("differ from each other"), "{err}");
    assert!(!message(&err).contains("use strategy"), "{err}");
    assert_eq!(
        vault.read_string("m.js"),
        "setTimeoutValue(connection, 1000);\nsetTimeoutValue(connection, 2000);\n"
    );
}

/// Thousands of places: every one is replaced, the reply lists the first 100
/// and says so (the matcher used to be quadratic in the number of places).
#[test]
fn replace_all_over_thousands_of_places_lists_a_hundred() {
    let vault = Vault::new();
    vault.write("many.txt", "ab\n".repeat(5000));
    let out = edit(
        &vault,
        "many.txt",
        json!({"search_context": "ab", "new_content": "X", "strategy": "replace_all"}),
    );
    assert_eq!(vault.read_string("many.txt"), "X\n".repeat(5000));
    assert!(out.get("message").is_none(), "{out}");
    assert_eq!(out["matches"].as_array().unwrap().len(), 100);
    assert_eq!(out["note"], "matches lists the first 100 of 5000 places");

    vault.write("one.txt", "ab ".repeat(20000));
    let out = vault.ok(
        "TextReplace",
        json!({"filePath": "one.txt", "oldText": "ab", "newText": "X", "occurrence": "all"}),
    );
    assert_eq!(vault.read_string("one.txt"), "X ".repeat(20000));
    assert_eq!(out["occurrencesReplaced"], 20000);
    // All on line 1: one entry, not 20,000.
    assert_eq!(out["replacements"], json!([{"start": 1, "end": 1}]));
}

#[test]
fn a_not_found_names_every_equally_close_place() {
    let vault = Vault::new();
    vault.write("m.py", "def f():\n    return 1\n\ndef g():\n    return 3\n");
    let err = refused(
        &vault,
        "m.py",
        json!({"search_context": "    return 9", "new_content": "    return 0"}),
    );
    assert_eq!(err["refusal"], "not_found");
    assert_eq!(
        vault.read_string("m.py"),
        "def f():\n    return 1\n\ndef g():\n    return 3\n"
    );
    // Two lines each, one number apart: both are named.
    let err = refused(
        &vault,
        "m.py",
        json!({"search_context": "def h():\n    return 1", "new_content": "def h():\n    return 0"}),
    );
    assert_eq!(err["refusal"], "not_found", "{err}");
}
