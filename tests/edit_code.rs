//! edit_code through the tool layer: tolerant matches write exactly the
//! intended bytes, refusals change nothing, the syntax gate holds for every
//! language, and the reply kinds look as documented.

mod support;

use mcp_server_text::tools::context::Settings;
use mcp_server_text::workspace::WorkspaceOptions;
use serde_json::{Value, json};
use support::Vault;

const PY: &str = "import os\r\n\r\n\r\ndef load(path):\r\n    with open(path) as f:\r\n        data = f.read()\r\n    return data.strip()\r\n\r\n\r\ndef save(path, data):\r\n    with open(path, \"w\") as f:\r\n        f.write(data)\r\n";

fn portable(vault: &Vault, value: Value) -> Value {
    let root = vault.root.display().to_string();
    serde_json::from_str(
        &serde_json::to_string(&value)
            .unwrap()
            .replace(&root, "[ROOT]"),
    )
    .unwrap()
}

#[test]
fn crlf_python_with_lf_search_and_shifted_indentation_applies_in_the_files_own_form() {
    let vault = Vault::new();
    vault.write("app.py", PY);
    let out = vault.ok(
        "edit_code",
        json!({
            "file_path": "app.py",
            "search_context": "  with open(path) as f:\n      data = f.read()\n  return data.strip()",
            "new_content": "  with open(path, encoding=\"utf-8\") as f:\n      data = f.read()\n  return data.strip()"
        }),
    );
    assert_eq!(
        vault.read_string("app.py"),
        PY.replace(
            "    with open(path) as f:\r\n",
            "    with open(path, encoding=\"utf-8\") as f:\r\n"
        )
    );
    assert_eq!(out["matches"][0]["kind"], "indentation");
    assert_eq!(
        out["matches"][0]["adjustments"],
        json!(["line_endings", "indentation"])
    );
    assert_eq!(out["syntax"]["language"], "Python");
}

#[test]
fn a_block_that_occurs_twice_is_refused_listing_both_lines() {
    let vault = Vault::new();
    vault.write("app.py", PY);
    let before = vault.snapshot();
    let err = vault.err(
        "edit_code",
        json!({"file_path": "app.py", "search_context": "    with open(path", "new_content": "    with open(str(path)"}),
    );
    let message = err["message"].as_str().unwrap();
    assert!(message.contains("matches 2 places"), "{message}");
    assert!(
        message.contains("lines 5 (score 100.0, exact); lines 11 (score 100.0, exact)"),
        "{message}"
    );
    assert_eq!(err["refusal"], "ambiguous");
    assert_eq!(err["candidates"][0]["lines"]["start"], 5);
    assert_eq!(err["candidates"][1]["lines"]["start"], 11);
    assert_eq!(before, vault.snapshot());
}

#[test]
fn a_near_miss_shows_the_best_candidate_and_a_diff() {
    let vault = Vault::new();
    vault.write("app.py", PY);
    let before = vault.snapshot();
    let err = vault.err(
        "edit_code",
        json!({"file_path": "app.py", "search_context": "def save(path, data, mode):\n    with open(path, mode) as out:\n        out.write(data)", "new_content": "def save(path, data):\n    pass"}),
    );
    assert_eq!(err["refusal"], "not_found");
    assert_eq!(err["best"]["lines"]["start"], 10);
    let diff = err["diff"].as_str().unwrap();
    assert!(
        diff.contains("-def save(path, data, mode):") && diff.contains("+def save(path, data):"),
        "{diff}"
    );
    assert_eq!(before, vault.snapshot());
}

#[test]
fn replace_all_and_dry_run() {
    let vault = Vault::new();
    vault.write("app.py", PY);
    let before = vault.snapshot();
    let dry = vault.ok(
        "edit_code",
        json!({"file_path": "app.py", "search_context": "with open(path", "new_content": "with open(os.fspath(path)", "strategy": "replace_all", "dry_run": true}),
    );
    assert_eq!(dry["dryRun"], true);
    assert_eq!(dry["matches"].as_array().unwrap().len(), 2);
    assert!(
        dry["diff"]
            .as_str()
            .unwrap()
            .contains("+    with open(os.fspath(path)) as f:")
    );
    assert_eq!(before, vault.snapshot(), "a dry run writes nothing");
    vault.ok(
        "edit_code",
        json!({"file_path": "app.py", "search_context": "with open(path", "new_content": "with open(os.fspath(path)", "strategy": "replace_all", "expected_hash": dry["fileHash"].as_str().map(|_| vault.ok("TextInspect", json!({"filePath": "app.py"}))["fileHash"].clone())}),
    );
    assert_eq!(
        vault.read_string("app.py"),
        PY.replace("with open(path", "with open(os.fspath(path)")
    );
}

#[test]
fn stale_hash_and_bad_arguments_change_nothing() {
    let vault = Vault::new();
    vault.write("app.py", PY);
    let before = vault.snapshot();
    let cases = [
        (
            json!({"file_path": "app.py", "search_context": "import os", "new_content": "import sys", "expected_hash": "0000000000000000"}),
            "has changed since you read it",
        ),
        (
            json!({"file_path": "app.py", "search_context": "import os", "new_content": "import sys", "threshold": 90}),
            "threshold 90 is not between 0 and 1",
        ),
        (
            json!({"file_path": "app.py", "new_content": "x"}),
            "strategy single_match needs search_context",
        ),
        (
            json!({"file_path": "app.py", "search_context": "import os", "new_content": "x", "strategy": "overwrite_file"}),
            "search_context was given with strategy overwrite_file",
        ),
        (
            json!({"file_path": "app.py", "search_context": "import os", "new_content": "import sys", "validate_command": "true"}),
            "without --allow-validate-command",
        ),
        (
            json!({"file_path": "app.py", "search_context": "import os", "new_content": "import os"}),
            "makes no change",
        ),
        (
            json!({"file_path": "app.py", "search_context": "   ", "new_content": "x"}),
            "search_context is empty",
        ),
        (
            json!({"file_path": "app.py", "search_context": "import os", "new_content": "x", "strategy": "replace_first"}),
            "unknown variant `replace_first`",
        ),
        (
            json!({"file_path": "app.py", "searchContext": "import os", "new_content": "x"}),
            "unknown field `searchContext`",
        ),
        (
            json!({"file_path": "../outside.py", "new_content": "x", "strategy": "overwrite_file"}),
            "outside the allowed folders",
        ),
    ];
    for (args, expected) in cases {
        let err = vault.err("edit_code", args.clone());
        let message = err["message"].as_str().unwrap();
        assert!(message.contains(expected), "{args}: {message}");
        assert_eq!(before, vault.snapshot(), "{args}");
    }
}

#[test]
fn overwrite_file_creates_and_replaces_keeping_line_endings() {
    let vault = Vault::new();
    let created = vault.ok(
        "edit_code",
        json!({"file_path": "pkg/new/mod.py", "new_content": "def f():\n    return 1\n", "strategy": "overwrite_file"}),
    );
    assert_eq!(
        vault.read_string("pkg/new/mod.py"),
        "def f():\n    return 1\n"
    );
    assert_eq!(created["message"], "Created the file (2 lines)");
    let one = vault.ok(
        "edit_code",
        json!({"file_path": "one.py", "new_content": "x = 1\n", "strategy": "overwrite_file"}),
    );
    assert_eq!(one["message"], "Created the file (1 line)");
    vault.write("app.py", PY);
    vault.ok(
        "edit_code",
        json!({"file_path": "app.py", "new_content": "import sys\n", "strategy": "overwrite_file"}),
    );
    assert_eq!(vault.read_string("app.py"), "import sys\r\n");
    let err = vault.err(
        "edit_code",
        json!({"file_path": "bad.py", "new_content": "def f(:\n", "strategy": "overwrite_file"}),
    );
    assert!(
        err["message"]
            .as_str()
            .unwrap()
            .contains("would break the syntax")
    );
    assert!(!vault.root.join("bad.py").exists());
}

#[cfg(unix)]
#[test]
fn validate_command_runs_in_the_root_and_a_failure_is_a_warning_after_the_write() {
    let vault = Vault::with_options(
        WorkspaceOptions::default(),
        Settings {
            allow_validate_command: true,
            ..Settings::default()
        },
    );
    vault.write("app.py", PY);
    let ok = vault.ok(
        "edit_code",
        json!({"file_path": "app.py", "search_context": "import os", "new_content": "import os\nimport sys", "validate_command": "test -f app.py && echo checked"}),
    );
    assert_eq!(ok["validation"]["passed"], true);
    assert_eq!(ok["validation"]["output"], "checked\n");
    assert!(ok.get("warning").is_none());
    let failed = vault.ok(
        "edit_code",
        json!({"file_path": "app.py", "search_context": "import sys", "new_content": "import sys\nimport re", "validate_command": "echo 'undefined: NewField' >&2; exit 2"}),
    );
    assert_eq!(failed["validation"]["passed"], false);
    assert_eq!(failed["validation"]["exitCode"], 2);
    assert!(
        failed["warning"]
            .as_str()
            .unwrap()
            .contains("The edit was written")
    );
    assert!(
        vault.read_string("app.py").contains("import re"),
        "soft validation: the edit stays"
    );
}

/// For each language: a valid file, an edit that keeps it valid (written), and
/// one that breaks it (refused, file unchanged).
/// A file name, its text, a harmless (old, new) and a breaking (old, new).
type GateCase = (
    &'static str,
    &'static str,
    (&'static str, &'static str),
    (&'static str, &'static str),
);

#[test]
fn the_syntax_gate_holds_for_every_language() {
    let cases: &[GateCase] = &[
        (
            "a.rs",
            "fn main() {\n    let x = 1;\n}\n",
            ("let x = 1;", "let x = 2;"),
            ("let x = 1;", "let x = (1;"),
        ),
        (
            "a.py",
            "def f():\n    return [1, 2]\n",
            ("return [1, 2]", "return [1, 2, 3]"),
            ("return [1, 2]", "return [1, 2"),
        ),
        (
            "a.go",
            "package main\n\nfunc main() {\n\tx := 1\n\t_ = x\n}\n",
            ("x := 1", "x := 2"),
            ("x := 1", "x := (1"),
        ),
        (
            "a.js",
            "function f() {\n  return 1;\n}\n",
            ("return 1;", "return 2;"),
            ("return 1;", "return {1;"),
        ),
        (
            "a.ts",
            "function f(): number {\n  return 1;\n}\n",
            ("return 1;", "return 2;"),
            ("return 1;", "return (1;"),
        ),
        (
            "a.tsx",
            "const A = () => <div>hi</div>;\n",
            ("<div>hi</div>", "<div>hello</div>"),
            ("<div>hi</div>", "<div>hi</div"),
        ),
        (
            "a.json",
            "{\n  \"a\": 1,\n  \"b\": 2\n}\n",
            ("\"a\": 1,", "\"a\": 10,"),
            ("\"a\": 1,", "\"a\": 1"),
        ),
        (
            "a.yaml",
            "a: 1\nb:\n  c: 2\n",
            ("c: 2", "c: 3"),
            ("  c: 2", "  c: [2"),
        ),
        (
            "a.toml",
            "[a]\nb = 1\n",
            ("b = 1", "b = 2"),
            ("b = 1", "b = \"1"),
        ),
        (
            "a.c",
            "int main(void) {\n    return 0;\n}\n",
            ("return 0;", "return 1;"),
            ("return 0;", "return (0;"),
        ),
        (
            "a.cpp",
            "int main() {\n    return 0;\n}\n",
            ("return 0;", "return 1;"),
            ("return 0;", "return (0;"),
        ),
        (
            "A.java",
            "class A {\n    int f() { return 1; }\n}\n",
            ("return 1;", "return 2;"),
            ("return 1;", "return (1;"),
        ),
        (
            "a.sh",
            "if true; then\n  echo hi\nfi\n",
            ("echo hi", "echo hello"),
            ("echo hi", "echo \"hi"),
        ),
        (
            "a.html",
            "<p class=\"x\">hi</p>\n",
            ("class=\"x\"", "class=\"y\""),
            ("class=\"x\"", "class=\"x"),
        ),
        (
            "a.css",
            "a {\n  color: red;\n}\n",
            ("color: red;", "color: blue;"),
            ("a {", "a {{"),
        ),
    ];
    assert_eq!(cases.len(), 15);
    let vault = Vault::new();
    for (name, text, (good_old, good_new), (bad_old, bad_new)) in cases {
        vault.write(name, text);
        let before = vault.read(name);
        let err = vault.err(
            "edit_code",
            json!({"file_path": name, "search_context": bad_old, "new_content": bad_new}),
        );
        assert!(
            err["message"]
                .as_str()
                .unwrap()
                .contains("would break the syntax"),
            "{name}: breaking edit not refused: {err}"
        );
        assert!(err["syntaxError"]["line"].as_u64().is_some(), "{name}");
        assert_eq!(
            vault.read(name),
            before,
            "{name}: refused edit changed the file"
        );
        vault.ok(
            "edit_code",
            json!({"file_path": name, "search_context": good_old, "new_content": good_new}),
        );
        assert_eq!(
            vault.read_string(name),
            text.replace(good_old, good_new),
            "{name}"
        );
    }
}

#[test]
fn golden_replies() {
    let vault = Vault::new();
    vault.write("app.py", PY);
    let call = |args: Value| {
        let value = match vault.call("edit_code", args) {
            Ok(v) => json!({"ok": v}),
            Err(e) => json!({"error": e}),
        };
        portable(&vault, value)
    };
    insta::assert_json_snapshot!(
        "edit_code_exact",
        call(
            json!({"file_path": "app.py", "search_context": "def save(path, data):", "new_content": "def save(path: str, data: str) -> None:", "dry_run": true})
        )
    );
    insta::assert_json_snapshot!(
        "edit_code_tolerant_typo",
        call(
            json!({"file_path": "app.py", "search_context": "def laod(path):\n    with open(path) as f:", "new_content": "def load(path, mode=\"r\"):\n    with open(path, mode) as f:", "dry_run": true})
        )
    );
    insta::assert_json_snapshot!(
        "edit_code_ambiguous",
        call(
            json!({"file_path": "app.py", "search_context": "    with open(path", "new_content": "    with open(str(path)"})
        )
    );
    insta::assert_json_snapshot!(
        "edit_code_not_found",
        call(
            json!({"file_path": "app.py", "search_context": "def remove(path):\n    os.remove(path)", "new_content": "def remove(path):\n    os.unlink(path)"})
        )
    );
    insta::assert_json_snapshot!(
        "edit_code_syntax_refused",
        call(
            json!({"file_path": "app.py", "search_context": "        f.write(data)", "new_content": "        f.write(data"})
        )
    );
}
