//! Golden tests: the exact JSON every text tool returns on realistic fixtures
//! (a long Markdown guide, its CRLF and BOM copies, an INI file, a plain text
//! file), and for edits the diff of the file. Review changes with
//! `cargo insta review` (or `INSTA_UPDATE=always cargo test --test golden`
//! and read the `.snap` files).

mod support;

use mcp_server_text::text::diff::unified_diff;
use serde_json::{Value, json};
use support::Vault;

const GUIDE: &str = include_str!("fixtures/guide.md");
const SETTINGS: &str = include_str!("fixtures/settings.ini");
const NOTES: &str = include_str!("fixtures/notes.txt");

fn vault() -> Vault {
    let vault = Vault::new();
    vault.write("guide.md", GUIDE);
    vault.write("guide-crlf.md", GUIDE.replace('\n', "\r\n"));
    vault.write("guide-bom.md", format!("\u{feff}{GUIDE}"));
    vault.write("settings.ini", SETTINGS);
    vault.write("notes.txt", NOTES);
    let long: String = (1..=300).map(|i| format!("- item {i}\n")).collect();
    vault.write("long.md", format!("# Long list\n\n{long}"));
    vault
}

/// The result or error JSON with the vault's absolute path replaced by
/// `[ROOT]` and the edit history's change ids (random) by `[changeId]`.
fn portable(vault: &Vault, value: Value) -> Value {
    let root = vault.root.display().to_string();
    let text = serde_json::to_string(&value)
        .unwrap()
        .replace(&root, "[ROOT]");
    let mut value: Value = serde_json::from_str(&text).unwrap();
    if let Some(id) = value.pointer_mut("/ok/changeId") {
        *id = json!("[changeId]");
    }
    value
}

fn call(vault: &Vault, tool: &str, args: Value) -> Value {
    let outcome = vault.call(tool, args);
    let value = match outcome {
        Ok(v) => json!({"ok": v}),
        Err(e) => json!({"error": e}),
    };
    portable(vault, value)
}

/// Runs an edit on a fresh vault and returns its JSON plus the file's diff.
fn edit(tool: &str, file: &str, args: Value) -> Value {
    let vault = vault();
    let before = vault.read_string(file);
    let mut args = args;
    args["filePath"] = json!(file);
    let result = call(&vault, tool, args);
    let after = vault.read_string(file);
    json!({"result": result, "fileDiff": unified_diff(&before, &after, file, 1)})
}

#[test]
fn inspect_structure() {
    let v = vault();
    insta::assert_json_snapshot!(
        "inspect_guide",
        call(&v, "TextInspect", json!({"filePath": "guide.md"}))
    );
    insta::assert_json_snapshot!(
        "inspect_settings",
        call(&v, "TextInspect", json!({"filePath": "settings.ini"}))
    );
    insta::assert_json_snapshot!(
        "inspect_notes",
        call(&v, "TextInspect", json!({"filePath": "notes.txt"}))
    );
    // The CRLF and BOM copies have the same structure; only the file facts differ.
    let lf = call(&v, "TextInspect", json!({"filePath": "guide.md"}));
    for copy in ["guide-crlf.md", "guide-bom.md"] {
        let other = call(&v, "TextInspect", json!({"filePath": copy}));
        assert_eq!(other["ok"]["structure"], lf["ok"]["structure"], "{copy}");
        assert_eq!(other["ok"]["totalLines"], lf["ok"]["totalLines"], "{copy}");
    }
    let crlf = call(&v, "TextInspect", json!({"filePath": "guide-crlf.md"}));
    assert_eq!(crlf["ok"]["lineEnding"], "CRLF");
    let bom = call(&v, "TextInspect", json!({"filePath": "guide-bom.md"}));
    assert_eq!(bom["ok"]["bom"], true);
    assert_ne!(bom["ok"]["fileHash"], lf["ok"]["fileHash"]);
}

#[test]
fn inspect_search_and_lines() {
    let v = vault();
    insta::assert_json_snapshot!(
        "inspect_search_setup",
        call(
            &v,
            "TextInspect",
            json!({"filePath": "guide.md", "mode": "search", "query": "setup", "context": 1})
        )
    );
    insta::assert_json_snapshot!(
        "inspect_search_regex_crlf",
        call(
            &v,
            "TextInspect",
            json!({"filePath": "guide-crlf.md", "mode": "search", "query": "^export (\\w+)=", "regex": true, "caseSensitive": true})
        )
    );
    insta::assert_json_snapshot!(
        "inspect_lines",
        call(
            &v,
            "TextInspect",
            json!({"filePath": "guide.md", "mode": "lines", "query": "1-3,112-114"})
        )
    );
}

#[test]
fn read_targets() {
    let v = vault();
    let read = |file: &str, target: Value| {
        call(&v, "TextRead", json!({"filePath": file, "target": target}))
    };
    insta::assert_json_snapshot!(
        "read_heading_with_children",
        read("guide.md", json!({"heading": "## Installation {#install}"}))
    );
    insta::assert_json_snapshot!(
        "read_heading_without_level",
        read("guide-crlf.md", json!({"heading": "Configuration"}))
    );
    insta::assert_json_snapshot!(
        "read_setext_heading",
        read("guide.md", json!({"heading": "## Searching"}))
    );
    insta::assert_json_snapshot!(
        "read_code_block",
        read("guide.md", json!({"codeBlock": {"index": 2}}))
    );
    insta::assert_json_snapshot!(
        "read_anchor_explicit",
        read("guide.md", json!({"anchor": "install"}))
    );
    insta::assert_json_snapshot!(
        "read_anchor_html",
        read("guide.md", json!({"anchor": "glossary"}))
    );
    insta::assert_json_snapshot!(
        "read_anchor_duplicate_slug",
        read("guide.md", json!({"anchor": "setup-1"}))
    );
    insta::assert_json_snapshot!(
        "read_ini_section",
        read("settings.ini", json!({"section": "[storage]"}))
    );
    insta::assert_json_snapshot!(
        "read_lines_past_the_end",
        read("notes.txt", json!({"lines": {"start": 12, "end": 40}}))
    );
    insta::assert_json_snapshot!(
        "read_truncated",
        read("long.md", json!({"heading": "# Long list"}))
    );
    insta::assert_json_snapshot!(
        "read_ambiguous_heading",
        read("guide.md", json!({"heading": "### Setup"}))
    );
    insta::assert_json_snapshot!(
        "read_heading_typo",
        read("guide.md", json!({"heading": "## Instalation"}))
    );
    insta::assert_json_snapshot!(
        "read_code_block_out_of_range",
        read("guide.md", json!({"codeBlock": {"index": 9}}))
    );
    insta::assert_json_snapshot!(
        "read_removed_search_target",
        read("guide.md", json!({"search": {"query": "x"}}))
    );
}

#[test]
fn patch_operations() {
    let patch = |name: &str, file: &str, args: Value| {
        insta::assert_json_snapshot!(name, edit("TextPatch", file, args));
    };
    patch(
        "patch_append_to_section_with_children",
        "guide.md",
        json!({"operation": "insert", "target": {"appendToSection": "## Configuration"}, "content": "### Defaults\n\nThe defaults suit most folders.\n"}),
    );
    patch(
        "patch_append_to_section_crlf",
        "guide-crlf.md",
        json!({"operation": "insert", "target": {"appendToSection": "### Quick Start"}, "content": "Then open a client.\n"}),
    );
    patch(
        "patch_insert_before_heading_bom",
        "guide-bom.md",
        json!({"operation": "insert", "target": {"beforeHeading": "## Usage"}, "content": "## Upgrading\n\nReplace the binary and restart.\n"}),
    );
    patch(
        "patch_insert_after_heading_line",
        "guide.md",
        json!({"operation": "insert", "target": {"heading": "## Troubleshooting"}, "content": "\nStart here when something goes wrong."}),
    );
    patch(
        "patch_replace_heading",
        "guide.md",
        json!({"operation": "replace", "target": {"heading": "## Usage"}, "content": "## Using the server"}),
    );
    patch(
        "patch_replace_setext_heading",
        "guide.md",
        json!({"operation": "replace", "target": {"heading": "## Editing"}, "content": "## Changing notes"}),
    );
    patch(
        "patch_replace_code_block",
        "guide.md",
        json!({"operation": "replace", "target": {"codeBlock": {"index": 1}}, "content": "root = \"~/vault\"\nbatch = 128\n"}),
    );
    patch(
        "patch_replace_lines_preserve_indent",
        "guide.md",
        json!({"operation": "replace", "target": {"lines": {"start": 28, "end": 29}}, "content": "# build it\ncargo build --release --locked"}),
    );
    patch(
        "patch_delete_heading_line",
        "guide.md",
        json!({"operation": "delete", "target": {"heading": "## Appendix"}}),
    );
    patch(
        "patch_delete_lines",
        "notes.txt",
        json!({"operation": "delete", "target": {"lines": {"start": 8, "end": 9}}}),
    );
    patch(
        "patch_dry_run",
        "settings.ini",
        json!({"operation": "replace", "target": {"lines": {"start": 6, "end": 6}}, "content": "port = 9090", "dryRun": true}),
    );
    patch(
        "patch_heading_not_found",
        "guide.md",
        json!({"operation": "insert", "target": {"appendToSection": "## Configuraton"}, "content": "x"}),
    );
    patch(
        "patch_ambiguous_heading",
        "guide.md",
        json!({"operation": "insert", "target": {"appendToSection": "### Setup"}, "content": "x"}),
    );
    patch(
        "patch_heading_target_on_ini",
        "settings.ini",
        json!({"operation": "replace", "target": {"heading": "## Server"}, "content": "x"}),
    );
}

#[test]
fn replace_operations() {
    let replace = |name: &str, file: &str, args: Value| {
        insta::assert_json_snapshot!(name, edit("TextReplace", file, args));
    };
    replace(
        "replace_unique",
        "guide.md",
        json!({"oldText": "wholly old or wholly new", "newText": "entirely old or entirely new"}),
    );
    replace(
        "replace_multiline_crlf",
        "guide-crlf.md",
        json!({"oldText": "The server needs read access to every note, and write access to the\nones it edits.", "newText": "The server needs read access to every note\nand write access to the notes it edits."}),
    );
    replace(
        "replace_all",
        "notes.txt",
        json!({"oldText": "the", "newText": "THE", "occurrence": "all"}),
    );
    replace(
        "replace_second",
        "guide.md",
        json!({"oldText": "### Setup", "newText": "### Set-up", "occurrence": 2}),
    );
    replace(
        "replace_ambiguous",
        "guide.md",
        json!({"oldText": "### Setup", "newText": "### Set-up"}),
    );
    replace(
        "replace_not_found_case",
        "guide.md",
        json!({"oldText": "the Server Ships", "newText": "x"}),
    );
    replace(
        "replace_not_found_whitespace",
        "guide.md",
        json!({"oldText": "It is long on purpose: tools should find their way around it without", "newText": "x"}),
    );
    replace(
        "replace_not_found_similar",
        "settings.ini",
        json!({"oldText": "cache = 46MB", "newText": "cache = 128MB"}),
    );
}
