//! Dry runs of every tool that changes files: the reply carries the diff and
//! the fields a real run would return, and no file's bytes or modification
//! time change. Also the opt-in formatter of edit_code.

mod support;

use std::time::SystemTime;

use mcp_server_text::tools::context::Settings;
use mcp_server_text::workspace::WorkspaceOptions;
use serde_json::json;
use support::Vault;

const NOTE: &str = "# Note\r\n\r\n## Tasks\r\n\r\n- one\r\n- two\r\n";

fn mtimes(vault: &Vault) -> Vec<(String, SystemTime)> {
    let mut out = Vec::new();
    for entry in walk(&vault.root) {
        out.push((
            entry.display().to_string(),
            std::fs::metadata(&entry).unwrap().modified().unwrap(),
        ));
    }
    out.sort();
    out
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = vec![dir.to_path_buf()];
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}

#[test]
fn dry_runs_write_nothing_and_show_the_diff() {
    let vault = Vault::new();
    vault.write("note.md", NOTE);
    vault.write("app.py", "def f():\n    return 1\n");
    // Modification times must be able to differ from a real write.
    std::thread::sleep(std::time::Duration::from_millis(20));
    let cases = [
        (
            "TextReplace",
            json!({"filePath": "note.md", "oldText": "- two", "newText": "- two\n- three", "dryRun": true}),
            Some(
                "--- a/note.md\n+++ b/note.md\n@@ -4,3 +4,4 @@\n \r\n - one\r\n - two\r\n+- three\r\n",
            ),
        ),
        (
            "TextPatch",
            json!({"filePath": "note.md", "operation": "insert", "target": {"appendToSection": "## Tasks"}, "content": "- three", "dryRun": true}),
            Some(
                "--- a/note.md\n+++ b/note.md\n@@ -4,3 +4,4 @@\n \r\n - one\r\n - two\r\n+- three\r\n",
            ),
        ),
        (
            "edit_code",
            json!({"file_path": "app.py", "search_context": "return 1", "new_content": "return 2", "dry_run": true}),
            None,
        ),
        (
            "Move",
            json!({"sourcePath": "note.md", "destinationPath": "archive/note.md", "dryRun": true}),
            None,
        ),
        (
            "RemoveFile",
            json!({"filePath": "note.md", "dryRun": true}),
            None,
        ),
    ];
    for (tool, args, diff) in cases {
        let bytes_before = vault.snapshot();
        let times_before = mtimes(&vault);
        let out = vault.ok(tool, args.clone());
        assert_eq!(out["dryRun"], true, "{tool}: {out}");
        if let Some(diff) = diff {
            assert_eq!(out["diff"], diff, "{tool}");
        }
        if tool == "edit_code" {
            assert!(
                out["diff"]
                    .as_str()
                    .unwrap()
                    .contains("-    return 1\n+    return 2\n")
            );
        }
        assert_eq!(
            bytes_before,
            vault.snapshot(),
            "{tool} changed bytes in a dry run"
        );
        assert_eq!(
            times_before,
            mtimes(&vault),
            "{tool} touched a file in a dry run"
        );
    }
    // The dry run's fileHash is the one the real edit produces.
    let dry = vault.ok(
        "TextReplace",
        json!({"filePath": "note.md", "oldText": "- one", "newText": "- 1", "dryRun": true}),
    );
    let real = vault.ok(
        "TextReplace",
        json!({"filePath": "note.md", "oldText": "- one", "newText": "- 1"}),
    );
    assert_eq!(dry["fileHash"], real["fileHash"]);
    assert!(real.get("diff").is_none());
}

fn formatting_vault() -> Vault {
    Vault::with_options(
        WorkspaceOptions::default(),
        Settings {
            format_after_edit: true,
            ..Settings::default()
        },
    )
}

#[test]
fn the_formatter_runs_when_installed_and_its_absence_is_a_note() {
    let vault = formatting_vault();
    vault.write("lib.rs", "fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n");
    let out = vault.ok(
        "edit_code",
        json!({"file_path": "lib.rs", "search_context": "    a + b", "new_content": "    let   sum=a+b;\n    sum"}),
    );
    let rustfmt = std::process::Command::new("rustfmt")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if rustfmt {
        assert_eq!(out["formatting"], "formatted with rustfmt");
        assert_eq!(
            vault.read_string("lib.rs"),
            "fn add(a: i32, b: i32) -> i32 {\n    let sum = a + b;\n    sum\n}\n"
        );
    } else {
        assert!(
            out["formatting"]
                .as_str()
                .unwrap()
                .contains("no formatter for Rust is installed"),
            "{out}"
        );
        assert!(vault.read_string("lib.rs").contains("let   sum=a+b;"));
    }
}

#[test]
fn a_missing_formatter_is_a_note_not_an_error() {
    let vault = formatting_vault();
    // No formatter is installed for Java in the test environment unless
    // clang-format is; either way the edit lands.
    vault.write("A.java", "class A {\n    int f() { return 1; }\n}\n");
    let out = vault.ok(
        "edit_code",
        json!({"file_path": "A.java", "search_context": "return 1;", "new_content": "return 2;"}),
    );
    let note = out["formatting"].as_str().unwrap();
    assert!(note.contains("clang-format"), "{note}");
    assert!(vault.read_string("A.java").contains("return 2;"));
}
