//! Bad inputs to the text tools: each is refused with a message an agent can
//! act on, and no file anywhere (inside or outside the root) changes.

mod support;

use mcp_server_text::tools::context::Settings;
use mcp_server_text::workspace::WorkspaceOptions;
use serde_json::{Value, json};
use support::Vault;

const NOTE: &str = "# Note\n\n## Setup\n\nfirst TODO\n\n## Setup\n\nsecond TODO\n\n```sh\nmake\n```\n\n- step\n\n  ```sh\n  run\n  ```\n";

struct Case {
    name: &'static str,
    tool: &'static str,
    args: Value,
    /// Fragments the error message must contain.
    message: &'static [&'static str],
}

fn case(
    name: &'static str,
    tool: &'static str,
    args: Value,
    message: &'static [&'static str],
) -> Case {
    Case {
        name,
        tool,
        args,
        message,
    }
}

fn vault() -> Vault {
    let vault = Vault::new();
    vault.write("note.md", NOTE);
    vault.write("notes.txt", "plain\ntext\n");
    vault.write("image.png", b"\x89PNG\r\n\x1a\n");
    vault.write("binary.md", b"# looks like text\n\0\x01\x02 but is not");
    vault.write(
        "latin1.md",
        b"caf\xe9 cr\xe8me br\xfbl\xe9e, na\xefve fa\xe7ade\n",
    );
    vault.write("empty.md", "");
    std::fs::create_dir_all(vault.root.join("folder.md")).unwrap();
    std::fs::write(vault.outside().join("secret.md"), "outside the root\n").unwrap();
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(
            vault.outside().join("secret.md"),
            vault.root.join("escape.md"),
        )
        .unwrap();
        std::os::unix::fs::symlink(vault.root.join("gone.md"), vault.root.join("dangling.md"))
            .unwrap();
    }
    vault
}

fn cases(vault: &Vault) -> Vec<Case> {
    let secret = vault.outside().join("secret.md").display().to_string();
    let patch = |target: Value| json!({"filePath": "note.md", "operation": "insert", "target": target, "content": "x"});
    let stale = "0123456789abcdef";
    vec![
        case(
            "removed target text",
            "TextPatch",
            patch(json!({"text": "first"})),
            &["'text' target is not available", "TextReplace"],
        ),
        case(
            "removed target pattern",
            "TextPatch",
            patch(json!({"pattern": "TODO.*"})),
            &["'pattern' target", "TextInspect"],
        ),
        case(
            "removed target afterHeading",
            "TextPatch",
            patch(json!({"afterHeading": "## Setup"})),
            &["'afterHeading' target", "appendToSection"],
        ),
        case(
            "removed target section",
            "TextPatch",
            patch(json!({"section": "[db]"})),
            &["'section' target is not available in TextPatch"],
        ),
        case(
            "removed operation replaceLines",
            "TextPatch",
            json!({"filePath": "note.md", "operation": "replaceLines", "target": {"lines": {"start": 1, "end": 1}}, "content": "x"}),
            &[
                "'replaceLines' operation was removed",
                "operation 'replace' with a lines target",
            ],
        ),
        case(
            "removed read target search",
            "TextRead",
            json!({"filePath": "note.md", "target": {"search": {"query": "TODO"}}}),
            &["TextInspect with mode 'search'"],
        ),
        case(
            "unknown target",
            "TextPatch",
            patch(json!({"paragraph": 3})),
            &["unknown target 'paragraph'"],
        ),
        case(
            "two targets at once",
            "TextPatch",
            patch(json!({"heading": "# Note", "lines": {"start": 1, "end": 1}})),
            &["exactly one targeting method"],
        ),
        case(
            "target as plain string",
            "TextRead",
            json!({"filePath": "note.md", "target": "## Setup"}),
            &["target must be an object"],
        ),
        case(
            "unknown parameter",
            "TextReplace",
            json!({"filePath": "note.md", "oldText": "first", "newtext": "x"}),
            &["unknown field `newtext`"],
        ),
        case(
            "wrong type for filePath",
            "TextRead",
            json!({"filePath": 42, "target": {"lines": {"start": 1}}}),
            &["filePath: invalid type: integer `42`, expected a string"],
        ),
        case(
            "wrong type for operation",
            "TextPatch",
            json!({"filePath": "note.md", "operation": 5, "target": {"lines": {"start": 1}}, "content": "x"}),
            &["operation must be a string"],
        ),
        case(
            "wrong type for lines.start",
            "TextRead",
            json!({"filePath": "note.md", "target": {"lines": {"start": "3"}}}),
            &["lines.start must be a number"],
        ),
        case(
            "wrong type for preserveIndent",
            "TextPatch",
            json!({"filePath": "note.md", "operation": "insert", "target": {"lines": {"start": 1}}, "content": "x", "preserveIndent": "yes"}),
            &["preserveIndent: invalid type"],
        ),
        case(
            "arguments not an object",
            "TextInspect",
            json!(["note.md"]),
            &["expected a JSON object"],
        ),
        case(
            "missing newText",
            "TextReplace",
            json!({"filePath": "note.md", "oldText": "first"}),
            &["missing field `newText`"],
        ),
        case(
            "missing target",
            "TextPatch",
            json!({"filePath": "note.md", "operation": "delete"}),
            &["missing field `target`"],
        ),
        case(
            "missing filePath",
            "TextInspect",
            json!({}),
            &["missing field `filePath`"],
        ),
        case(
            "reversed lines",
            "TextPatch",
            json!({"filePath": "note.md", "operation": "delete", "target": {"lines": {"start": 5, "end": 2}}}),
            &["reversed: start 5 is after end 2"],
        ),
        case(
            "lines past the end",
            "TextPatch",
            json!({"filePath": "note.md", "operation": "delete", "target": {"lines": {"start": 12, "end": 99}}}),
            &["line 99 is out of range: the file has 19 lines"],
        ),
        case(
            "line zero",
            "TextRead",
            json!({"filePath": "note.md", "target": {"lines": {"start": 0, "end": 2}}}),
            &["line numbers start at 1"],
        ),
        case(
            "insert far past the end",
            "TextPatch",
            json!({"filePath": "note.md", "operation": "insert", "target": {"lines": {"start": 30}}, "content": "x"}),
            &["line 30 is out of range", "20 appends at the end"],
        ),
        case(
            "replace without end",
            "TextPatch",
            json!({"filePath": "note.md", "operation": "replace", "target": {"lines": {"start": 2}}, "content": "x"}),
            &["needs both start and end"],
        ),
        case(
            "stale expectedHash",
            "TextReplace",
            json!({"filePath": "note.md", "oldText": "first", "newText": "1st", "expectedHash": stale}),
            &[
                "has changed since you read it",
                "expectedHash is 0123456789abcdef",
            ],
        ),
        case(
            "malformed expectedHash",
            "TextPatch",
            json!({"filePath": "note.md", "operation": "delete", "target": {"lines": {"start": 1, "end": 1}}, "expectedHash": "abc"}),
            &["The expectedHash 'abc' is not a file hash"],
        ),
        case(
            "absolute path outside the root",
            "TextRead",
            json!({"filePath": secret, "target": {"lines": {"start": 1}}}),
            &["outside the allowed folders"],
        ),
        case(
            "dot-dot out of the root",
            "TextReplace",
            json!({"filePath": "../secret.md", "oldText": "outside", "newText": "inside"}),
            &["'../secret.md' is outside the allowed folders"],
        ),
        case(
            "dot-dot inside then out",
            "TextInspect",
            json!({"filePath": "folder.md/../../secret.md"}),
            &["outside the allowed folders"],
        ),
        case(
            "symlink out of the root",
            "TextReplace",
            json!({"filePath": "escape.md", "oldText": "outside", "newText": "inside"}),
            &["symbolic link that leads outside the allowed folders"],
        ),
        case(
            "dangling symlink",
            "TextRead",
            json!({"filePath": "dangling.md", "target": {"lines": {"start": 1}}}),
            &["is a symbolic link", "which does not exist"],
        ),
        case(
            "folder instead of a file",
            "TextInspect",
            json!({"filePath": "folder.md"}),
            &["is a folder, not a file"],
        ),
        case(
            "binary file",
            "TextInspect",
            json!({"filePath": "binary.md"}),
            &["looks like a binary file", "NUL byte at offset 18"],
        ),
        case(
            "not UTF-8",
            "TextReplace",
            json!({"filePath": "latin1.md", "oldText": "caf", "newText": "cafe"}),
            &["not valid UTF-8", "line 1"],
        ),
        case(
            "disallowed extension",
            "TextInspect",
            json!({"filePath": "image.png"}),
            &["file ending that is not allowed"],
        ),
        case(
            "missing file",
            "TextRead",
            json!({"filePath": "nots.txt", "target": {"lines": {"start": 1}}}),
            &["'nots.txt' does not exist"],
        ),
        case(
            "empty path",
            "TextInspect",
            json!({"filePath": ""}),
            &["No path was given"],
        ),
        case(
            "NUL in path",
            "TextInspect",
            json!({"filePath": "note\u{0}.md"}),
            &["NUL byte"],
        ),
        case(
            "empty content for insert",
            "TextPatch",
            json!({"filePath": "note.md", "operation": "insert", "target": {"lines": {"start": 1}}, "content": ""}),
            &["content is empty, so 'insert' would add nothing"],
        ),
        case(
            "no content for replace",
            "TextPatch",
            json!({"filePath": "note.md", "operation": "replace", "target": {"lines": {"start": 1, "end": 1}}}),
            &["operation 'replace' needs content"],
        ),
        case(
            "content with delete",
            "TextPatch",
            json!({"filePath": "note.md", "operation": "delete", "target": {"lines": {"start": 1, "end": 1}}, "content": "x"}),
            &["'delete' takes no content"],
        ),
        case(
            "invalid regex",
            "TextInspect",
            json!({"filePath": "note.md", "mode": "search", "query": "TODO(", "regex": true}),
            &["Invalid regex 'TODO('", "unclosed group"],
        ),
        case(
            "search without query",
            "TextInspect",
            json!({"filePath": "note.md", "mode": "search"}),
            &["mode 'search' needs a query"],
        ),
        case(
            "unknown mode",
            "TextInspect",
            json!({"filePath": "note.md", "mode": "outline"}),
            &["unknown variant `outline`"],
        ),
        case(
            "bad line ranges",
            "TextInspect",
            json!({"filePath": "note.md", "mode": "lines", "query": "3-x"}),
            &["Invalid line ranges '3-x'"],
        ),
        case(
            "occurrence zero",
            "TextReplace",
            json!({"filePath": "note.md", "oldText": "TODO", "newText": "DONE", "occurrence": 0}),
            &["occurrence 0 does not exist"],
        ),
        case(
            "occurrence abc",
            "TextReplace",
            json!({"filePath": "note.md", "oldText": "TODO", "newText": "DONE", "occurrence": "abc"}),
            &["occurrence \"abc\" is not valid"],
        ),
        case(
            "occurrence beyond the matches",
            "TextReplace",
            json!({"filePath": "note.md", "oldText": "TODO", "newText": "DONE", "occurrence": 3}),
            &["occurrence 3 was asked for, but oldText occurs only 2 times"],
        ),
        case(
            "several matches, no occurrence",
            "TextReplace",
            json!({"filePath": "note.md", "oldText": "TODO", "newText": "DONE"}),
            &["oldText occurs 2 times", "(lines 5, 9)"],
        ),
        case(
            "text not found",
            "TextReplace",
            json!({"filePath": "note.md", "oldText": "third TODO", "newText": "x"}),
            &["oldText was not found"],
        ),
        case(
            "empty oldText",
            "TextReplace",
            json!({"filePath": "note.md", "oldText": "", "newText": "x"}),
            &["oldText is empty"],
        ),
        case(
            "identical texts",
            "TextReplace",
            json!({"filePath": "note.md", "oldText": "first", "newText": "first"}),
            &["identical"],
        ),
        case(
            "heading not found",
            "TextPatch",
            patch(json!({"appendToSection": "## Set up"})),
            &["No heading matches '## Set up'", "## Setup"],
        ),
        case(
            "ambiguous heading",
            "TextPatch",
            patch(json!({"appendToSection": "## Setup"})),
            &["Ambiguous target", "(line 3)", "(line 7)"],
        ),
        case(
            "heading as an object",
            "TextRead",
            json!({"filePath": "note.md", "target": {"heading": {"text": "Setup"}}}),
            &["flat string"],
        ),
        case(
            "replace at an insertion point",
            "TextPatch",
            json!({"filePath": "note.md", "operation": "replace", "target": {"appendToSection": "# Note"}, "content": "x"}),
            &["appendToSection is an insertion point"],
        ),
        case(
            "heading target in a text file",
            "TextPatch",
            json!({"filePath": "notes.txt", "operation": "insert", "target": {"heading": "# Plain"}, "content": "x"}),
            &["works only in Markdown files"],
        ),
        case(
            "code block out of range",
            "TextPatch",
            json!({"filePath": "note.md", "operation": "replace", "target": {"codeBlock": {"index": 4}}, "content": "x"}),
            &["code block 4 does not exist", "2 code blocks"],
        ),
        case(
            "negative code block",
            "TextRead",
            json!({"filePath": "note.md", "target": {"codeBlock": {"index": -1}}}),
            &["codeBlock.index must be 0 or more"],
        ),
        case(
            "delete in an empty file",
            "TextPatch",
            json!({"filePath": "empty.md", "operation": "delete", "target": {"lines": {"start": 1, "end": 1}}}),
            &["the file has 0 lines"],
        ),
        case(
            "unknown tool",
            "TextEdit",
            json!({"filePath": "note.md"}),
            &["There is no tool named 'TextEdit'"],
        ),
    ]
}

#[test]
fn every_bad_input_is_refused_with_a_message_and_changes_nothing() {
    let vault = vault();
    let cases = cases(&vault);
    assert!(cases.len() >= 30);
    let mut failures = Vec::new();
    for case in &cases {
        let before = vault.snapshot();
        let outcome = vault.call(case.tool, case.args.clone());
        let after = vault.snapshot();
        let verdict = match &outcome {
            Ok(v) => format!("NOT REFUSED: {v}"),
            Err(e) => {
                let message = e["message"].as_str().unwrap_or_default();
                let missing: Vec<&&str> = case
                    .message
                    .iter()
                    .filter(|m| !message.contains(**m))
                    .collect();
                if e["status"] != "error" {
                    "error without status".to_string()
                } else if !missing.is_empty() {
                    format!("message {message:?} lacks {missing:?}")
                } else if e["suggestions"].as_array().is_none_or(|s| s.is_empty()) {
                    format!("no suggestion for {message:?}")
                } else if before != after {
                    "files changed".to_string()
                } else {
                    String::new()
                }
            }
        };
        println!(
            "{:<40} {}",
            case.name,
            if verdict.is_empty() {
                "refused"
            } else {
                &verdict
            }
        );
        if !verdict.is_empty() {
            failures.push(format!("{}: {verdict}", case.name));
        }
    }
    assert!(
        failures.is_empty(),
        "{} bad inputs mishandled:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn a_file_over_the_size_limit_is_refused() {
    let options = WorkspaceOptions {
        max_file_size: 64,
        ..WorkspaceOptions::default()
    };
    let vault = Vault::with_options(options, Settings::default());
    vault.write("big.md", "x".repeat(65));
    let before = vault.snapshot();
    let err = vault.err(
        "TextReplace",
        json!({"filePath": "big.md", "oldText": "x", "newText": "y", "occurrence": "all"}),
    );
    assert_eq!(
        err["message"],
        format!(
            "Cannot read {}/big.md as text: it is 65 B and the limit is 64 B (--max-file-size)",
            vault.root.display()
        )
    );
    assert_eq!(
        err["suggestions"][0],
        "Start the server with a larger --max-file-size to work on this file"
    );
    assert_eq!(before, vault.snapshot());
}
