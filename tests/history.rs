//! The edit history and UndoEdit, through the tools: every kind of change
//! is recorded and undone to the exact bytes, refusals when a file changed
//! since, bounds, restarts, dry runs and `.history` kept out of sight.

mod support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use std::sync::Arc;

use mcp_server_text::tools::context::{Settings, ToolContext};
use mcp_server_text::tools::registry::Registry;
use mcp_server_text::tools::tool::Toolset;
use mcp_server_text::workspace::history::HistoryOptions;
use mcp_server_text::workspace::{Workspace, WorkspaceOptions};
use serde_json::{Value, json};
use support::{Node, Vault};

fn s(value: &Value) -> &str {
    value
        .as_str()
        .unwrap_or_else(|| panic!("not a string: {value}"))
}

/// Everything under the root except the history and the trash.
fn visible(v: &Vault) -> BTreeMap<PathBuf, Node> {
    let (history, trash) = (v.root.join(".history"), v.root.join(".trash"));
    v.snapshot()
        .into_iter()
        .filter(|(p, _)| {
            p.starts_with(&v.root) && !p.starts_with(&history) && !p.starts_with(&trash)
        })
        .collect()
}

fn undo(v: &Vault, change_id: &Value) -> Value {
    v.ok("UndoEdit", json!({"changeId": change_id}))
}

/// The history records on disk (the folder also holds its `.gitignore`).
fn records(v: &Vault) -> usize {
    std::fs::read_dir(v.root.join(".history"))
        .map(|d| {
            d.filter(|e| {
                e.as_ref()
                    .is_ok_and(|e| e.file_name().to_string_lossy().ends_with(".rec"))
            })
            .count()
        })
        .unwrap_or(0)
}

const NOTE: &str = "# Note\n\n## Tasks\n\n- water the beans\n- weed\n\n## Log\n\nstarted\n";

#[test]
fn every_tool_kind_is_undone_to_the_exact_bytes() {
    let v = Vault::new();
    v.write("note.md", NOTE);
    v.write("code.py", "def f():\n    return 1\n\nx = f()\n");
    v.write("notes/a.md", "a\n");
    let cases: Vec<(&str, Value, &str)> = vec![
        (
            "TextReplace",
            json!({"filePath": "note.md", "oldText": "weed", "newText": "weed twice"}),
            "/changeId",
        ),
        (
            "TextPatch",
            json!({"filePath": "note.md", "operation": "insert", "target": {"appendToSection": "## Log"}, "content": "watered\n"}),
            "/changeId",
        ),
        (
            "TextPatch",
            json!({"filePath": "note.md", "operation": "delete", "target": {"heading": "## Tasks"}}),
            "/changeId",
        ),
        (
            "edit_code",
            json!({"file_path": "code.py", "search_context": "    return 1", "new_content": "    return 2"}),
            "/changeId",
        ),
        (
            "edit_code",
            json!({"file_path": "code.py", "search_context": "f()", "new_content": "g()", "strategy": "replace_all"}),
            "/changeId",
        ),
        (
            "edit_code",
            json!({"file_path": "code.py", "new_content": "print('all new')\n", "strategy": "overwrite_file"}),
            "/changeId",
        ),
        (
            "append_text_file_contents",
            json!({"file_path": "note.md", "contents": "appended\n"}),
            "/note.md/change_id",
        ),
        (
            "insert_text_file_contents",
            json!({"file_path": "note.md", "after": 1, "contents": "inserted\n"}),
            "/note.md/change_id",
        ),
        (
            "delete_text_file_contents",
            json!({"file_path": "note.md", "ranges": [{"start": 2, "end": 4}]}),
            "/note.md/change_id",
        ),
        (
            "patch_text_file_contents",
            json!({"files": [
                {"file_path": "note.md", "patches": [{"old_string": "# Note\n", "new_string": "# Renamed\n", "ranges": [{"start": 1, "end": 1}]}]},
                {"file_path": "notes/a.md", "patches": [{"old_string": "a\n", "new_string": "A\n", "ranges": [{"start": 1, "end": 1}]}]}
            ]}),
            "/note.md/change_id",
        ),
        (
            "Move",
            json!({"sourcePath": "notes/a.md", "destinationPath": "archive/a.md"}),
            "/changeId",
        ),
        (
            "Move",
            json!({"sourcePath": "notes", "destinationPath": "old-notes"}),
            "/changeId",
        ),
        ("RemoveFile", json!({"filePath": "note.md"}), "/changeId"),
        (
            "RemoveFile",
            json!({"filePath": "notes", "recursive": true}),
            "/changeId",
        ),
    ];
    for (tool, args, id_at) in cases {
        let before = visible(&v);
        let done = v.ok(tool, args.clone());
        let id = done
            .pointer(id_at)
            .unwrap_or_else(|| panic!("{tool}: no changeId in {done:#}"))
            .clone();
        assert_ne!(visible(&v), before, "{tool} {args} changed something");
        let undone = undo(&v, &id);
        assert_eq!(undone["undone"], id, "{undone:#}");
        assert_eq!(
            visible(&v),
            before,
            "{tool} {args}: undo restores every file and folder"
        );
    }
}

#[test]
fn creations_are_undone_to_the_trash_and_undos_are_undone_too() {
    let v = Vault::new();
    let created = v.ok(
        "edit_code",
        json!({"file_path": "new/file.py", "new_content": "x = 1\n", "strategy": "overwrite_file"}),
    );
    let undone = undo(&v, &created["changeId"]);
    assert_eq!(undone["files"][0]["action"], "removed");
    assert!(!v.root.join("new/file.py").exists());
    let trash = PathBuf::from(s(&undone["files"][0]["trashPath"]));
    assert_eq!(std::fs::read(&trash).unwrap(), b"x = 1\n");
    // Redo: the undo of the undo brings it back from the trash.
    undo(&v, &undone["changeId"]);
    assert_eq!(v.read("new/file.py"), b"x = 1\n");

    let made = v.ok(
        "create_text_file",
        json!({"file_path": "made.md", "contents": "made\n"}),
    );
    undo(&v, &made["made.md"]["change_id"]);
    assert!(!v.root.join("made.md").exists());

    // An edit, its undo, and the undo of the undo.
    v.write("n.md", "one\n");
    let edit = v.ok(
        "TextReplace",
        json!({"filePath": "n.md", "oldText": "one", "newText": "two"}),
    );
    let first = undo(&v, &edit["changeId"]);
    assert_eq!(v.read("n.md"), b"one\n");
    undo(&v, &first["changeId"]);
    assert_eq!(v.read("n.md"), b"two\n");
}

#[test]
fn line_endings_boms_and_utf16_come_back_byte_for_byte() {
    let v = Vault::new();
    let utf16: Vec<u8> = {
        let mut b = vec![0xFF, 0xFE];
        for unit in "títle\r\nline two\r\nend\r\n".encode_utf16() {
            b.extend(unit.to_le_bytes());
        }
        b
    };
    let files: Vec<(&str, Vec<u8>)> = vec![
        ("crlf.md", b"# T\r\n\r\nline two\r\nend\r\n".to_vec()),
        ("bom.md", b"\xEF\xBB\xBF# T\nline two\nend".to_vec()),
        ("mixed.txt", b"a\r\nline two\nb\r\n".to_vec()),
        ("utf16.txt", utf16),
    ];
    for (name, bytes) in &files {
        v.write(name, bytes);
        let done = v.ok(
            "TextReplace",
            json!({"filePath": name, "oldText": "line two", "newText": "line 2\nand a new line"}),
        );
        assert_ne!(&v.read(name), bytes);
        undo(&v, &done["changeId"]);
        assert_eq!(&v.read(name), bytes, "{name}");
    }
}

#[test]
fn a_file_changed_since_is_refused_with_the_diff_unless_its_hash_is_passed() {
    let v = Vault::new();
    v.write("n.md", "one\ntwo\nthree\n");
    let ids: Vec<Value> = [("one", "1"), ("two", "2"), ("three", "3")]
        .iter()
        .map(|(o, n)| {
            v.ok(
                "TextReplace",
                json!({"filePath": "n.md", "oldText": o, "newText": n}),
            )["changeId"]
                .clone()
        })
        .collect();
    let before = v.read("n.md");
    let err = v.err("UndoEdit", json!({"changeId": ids[1]}));
    let message = s(&err["message"]);
    assert!(
        message.starts_with(&format!("UndoEdit of {} refused: ", s(&ids[1]))),
        "{message}"
    );
    assert!(
        message.contains(s(&ids[2])),
        "names the later change: {message}"
    );
    assert_eq!(
        s(&err["diff"]),
        "--- a/n.md\n+++ b/n.md\n@@ -1,3 +1,3 @@\n 1\n-2\n-3\n+two\n+three\n"
    );
    assert_eq!(v.read("n.md"), before, "nothing was written");
    // A wrong hash does not force it either.
    let wrong = v.err(
        "UndoEdit",
        json!({"changeId": ids[1], "expectedHash": "0123456789abcdef"}),
    );
    assert!(s(&wrong["message"]).contains("refused"), "{wrong}");
    // The current hash does: the state before the second edit, later edits gone.
    let forced = v.ok(
        "UndoEdit",
        json!({"changeId": ids[1], "expectedHash": err["currentHash"]}),
    );
    assert_eq!(v.read("n.md"), b"1\ntwo\nthree\n");
    // ...and that too can be undone.
    undo(&v, &forced["changeId"]);
    assert_eq!(v.read("n.md"), before);

    // A change made outside the server breaks the chain: said plainly.
    v.write("n.md", "1\n2\n3\nexternal\n");
    let err = v.err(
        "UndoEdit",
        json!({"changeId": ids[0], "expectedHash": "bb5a6b7a4a28e4de"}),
    );
    let cannot = s(&err["files"][0]["cannotRebuild"]);
    assert!(cannot.contains("did not record"), "{cannot}");
    assert_eq!(v.read("n.md"), b"1\n2\n3\nexternal\n");
}

#[test]
fn undone_twice_is_refused_and_unknown_ids_name_the_recent_ones() {
    let v = Vault::new();
    v.write("n.md", "a\n");
    let done = v.ok(
        "TextReplace",
        json!({"filePath": "n.md", "oldText": "a", "newText": "b"}),
    );
    undo(&v, &done["changeId"]);
    let err = v.err("UndoEdit", json!({"changeId": done["changeId"]}));
    assert!(
        s(&err["message"]).contains("already has its content from before"),
        "{err}"
    );
    let err = v.err("UndoEdit", json!({"changeId": "999-zzzzzz"}));
    assert_eq!(
        s(&err["message"]),
        "There is no change '999-zzzzzz' in the edit history; nothing was written"
    );
    assert_eq!(err["recentChanges"].as_array().unwrap().len(), 2);
}

#[test]
fn dry_runs_write_nothing_not_even_a_record() {
    let v = Vault::new();
    v.write("n.md", "a\nb\n");
    v.write("c.py", "x = 1\n");
    let before = v.snapshot();
    for (tool, args) in [
        (
            "TextReplace",
            json!({"filePath": "n.md", "oldText": "a", "newText": "z", "dryRun": true}),
        ),
        (
            "TextPatch",
            json!({"filePath": "n.md", "operation": "delete", "target": {"lines": {"start": 1, "end": 1}}, "dryRun": true}),
        ),
        (
            "edit_code",
            json!({"file_path": "c.py", "search_context": "x = 1", "new_content": "x = 2", "dry_run": true}),
        ),
        (
            "edit_code",
            json!({"file_path": "d.py", "new_content": "y = 1\n", "strategy": "overwrite_file", "dry_run": true}),
        ),
        (
            "Move",
            json!({"sourcePath": "n.md", "destinationPath": "m.md", "dryRun": true}),
        ),
        ("RemoveFile", json!({"filePath": "n.md", "dryRun": true})),
        (
            "append_text_file_contents",
            json!({"file_path": "n.md", "contents": "c\n", "dry_run": true}),
        ),
        (
            "Batch",
            json!({"dryRun": true, "operations": [{"tool": "TextReplace", "arguments": {"filePath": "n.md", "oldText": "b", "newText": "y"}}]}),
        ),
    ] {
        let out = v.ok(tool, args);
        assert!(
            out.pointer("/changeId").is_none() && !out.to_string().contains("change_id"),
            "{tool}: {out}"
        );
        assert_eq!(v.snapshot(), before, "{tool} wrote nothing");
    }
    let done = v.ok(
        "TextReplace",
        json!({"filePath": "n.md", "oldText": "a", "newText": "z"}),
    );
    let after = v.snapshot();
    let preview = v.ok(
        "UndoEdit",
        json!({"changeId": done["changeId"], "dryRun": true}),
    );
    assert_eq!(preview["dryRun"], true);
    assert_eq!(
        s(&preview["files"][0]["diff"]),
        "--- a/n.md\n+++ b/n.md\n@@ -1,2 +1,2 @@\n-z\n+a\n b\n"
    );
    assert_eq!(v.snapshot(), after, "a dry-run undo writes nothing either");
}

#[test]
fn history_bounds_prune_the_oldest_and_a_record_too_large_is_not_kept() {
    let options = WorkspaceOptions {
        history: HistoryOptions {
            max_entries: 3,
            max_bytes: 4096,
            ..HistoryOptions::default()
        },
        ..WorkspaceOptions::default()
    };
    let v = Vault::with_options(options, Settings::default());
    v.write("n.md", "0\n");
    let mut ids = Vec::new();
    for i in 1..=5 {
        let done = v.ok(
            "TextReplace",
            json!({"filePath": "n.md", "oldText": format!("{}", i - 1), "newText": format!("{i}")}),
        );
        ids.push(done["changeId"].clone());
    }
    assert_eq!(records(&v), 3);
    let listed = v.ok("EditHistory", json!({}));
    let listed: Vec<&Value> = listed["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| &c["changeId"])
        .collect();
    assert_eq!(listed, [&ids[4], &ids[3], &ids[2]]);
    let err = v.err("UndoEdit", json!({"changeId": ids[0]}));
    assert!(
        s(&err["message"]).starts_with("There is no change"),
        "{err}"
    );

    // Overwriting 8 KB: what it replaced is larger than the 4 KB the history holds.
    v.write("big.txt", "x".repeat(8192));
    let done = v.ok(
        "edit_code",
        json!({"file_path": "big.txt", "new_content": "small\n", "strategy": "overwrite_file"}),
    );
    assert!(done.get("changeId").is_none(), "{done}");
    let note = s(&done["note"]);
    assert!(
        note.starts_with(
            "UndoEdit is not available for this change: keeping what it replaced would take 8"
        ),
        "{note}"
    );
    assert!(note.contains("--history-max-bytes"), "{note}");
    assert_eq!(v.read("big.txt"), b"small\n", "the edit itself was made");
    assert_eq!(records(&v), 3, "and the older records were kept");
}

#[test]
fn the_history_survives_a_restart_of_the_server() {
    let v = Vault::new();
    v.write("n.md", "before\n");
    let done = v.ok(
        "TextReplace",
        json!({"filePath": "n.md", "oldText": "before", "newText": "after"}),
    );
    // A new server (workspace and registry) over the same folder.
    let registry = Registry::new(&Toolset::ALL, false);
    let workspace = Workspace::new(vec![v.root.clone()], WorkspaceOptions::default()).unwrap();
    let settings = Settings {
        enabled_tools: registry.names(),
        ..Settings::default()
    };
    let ctx = ToolContext::new(Arc::new(workspace), Arc::new(settings));
    let listed = registry
        .call(&ctx, "EditHistory", json!({"filePath": "n.md"}))
        .unwrap();
    assert_eq!(listed["changes"][0]["changeId"], done["changeId"]);
    assert_eq!(listed["changes"][0]["canUndo"], true);
    registry
        .call(&ctx, "UndoEdit", json!({"changeId": done["changeId"]}))
        .unwrap();
    assert_eq!(v.read("n.md"), b"before\n");
}

#[test]
fn edit_history_follows_a_file_through_moves_and_filters_by_file() {
    let v = Vault::new();
    v.write("a.md", "1\n");
    v.write("other.md", "x\n");
    let first = v.ok(
        "TextReplace",
        json!({"filePath": "a.md", "oldText": "1", "newText": "2"}),
    );
    v.ok(
        "TextReplace",
        json!({"filePath": "other.md", "oldText": "x", "newText": "y"}),
    );
    let moved = v.ok(
        "Move",
        json!({"sourcePath": "a.md", "destinationPath": "dir/b.md"}),
    );
    let last = v.ok(
        "TextReplace",
        json!({"filePath": "dir/b.md", "oldText": "2", "newText": "3"}),
    );
    let listed = v.ok("EditHistory", json!({"filePath": "dir/b.md"}));
    let ids: Vec<&Value> = listed["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| &c["changeId"])
        .collect();
    assert_eq!(
        ids,
        [&last["changeId"], &moved["changeId"], &first["changeId"]]
    );
    let mv = &listed["changes"][1];
    assert_eq!(
        (mv["kind"].as_str(), mv["tool"].as_str()),
        (Some("move"), Some("Move"))
    );
    assert_eq!(
        s(&mv["destinationPath"]),
        v.root.join("dir/b.md").display().to_string()
    );
    let edit = &listed["changes"][0];
    assert_eq!(edit["affectedLines"], json!({"start": 1, "end": 1}));
    assert_eq!(edit["canUndo"], true);
    // The first edit is undone where the file is now; it changed since, so not directly.
    assert_eq!(listed["changes"][2]["canUndo"], false);
    let all = v.ok("EditHistory", json!({"limit": 2}));
    assert_eq!(all["total"], 4);
    assert_eq!(all["truncated"], true);
}

#[test]
fn the_history_folder_is_hidden_and_cannot_be_edited_by_tools() {
    let v = Vault::new();
    v.write("n.md", "secret word\n");
    v.ok(
        "TextReplace",
        json!({"filePath": "n.md", "oldText": "secret word", "newText": "public"}),
    );
    let found = v.ok("TextSearch", json!({"query": "secret"}));
    assert_eq!(found["totalMatches"], 0, "{found}");
    let listed = v.ok("ListFiles", json!({"path": ".", "recursive": true}));
    assert!(!listed.to_string().contains(".history"), "{listed}");
    let dirs = v.ok("ListDirectories", json!({}));
    assert!(!dirs.to_string().contains(".history"), "{dirs}");
    let record = std::fs::read_dir(v.root.join(".history"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|e| e == "rec"))
        .unwrap();
    let err = v.err(
        "RemoveFile",
        json!({"filePath": ".history", "recursive": true}),
    );
    assert!(s(&err["message"]).contains("edit history folder"), "{err}");
    let err = v.err(
        "Move",
        json!({"sourcePath": record.to_str().unwrap(), "destinationPath": "stolen.rec"}),
    );
    assert!(s(&err["message"]).contains("edit history folder"), "{err}");
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(v.root.join(".history"))
        .unwrap()
        .permissions()
        .mode()
        & 0o777;
    assert_eq!(mode, 0o700, "only the owner reads what files held");
}

#[test]
fn no_history_records_nothing() {
    let options = WorkspaceOptions {
        history: HistoryOptions::off(),
        ..WorkspaceOptions::default()
    };
    let v = Vault::with_options(options, Settings::default());
    v.write("n.md", "a\n");
    let done = v.ok(
        "TextReplace",
        json!({"filePath": "n.md", "oldText": "a", "newText": "b"}),
    );
    assert!(done.get("changeId").is_none());
    assert!(
        done.get("note").is_none(),
        "no note about undo when history is off: {done}"
    );
    v.ok(
        "Move",
        json!({"sourcePath": "n.md", "destinationPath": "m.md"}),
    );
    assert!(!v.root.join(".history").exists());
    let listed = v.ok("EditHistory", json!({}));
    assert_eq!(listed["total"], 0);
    assert!(s(&listed["note"]).contains("--no-history"));
}

#[test]
fn a_batch_is_undone_for_all_of_its_files_or_none() {
    let v = Vault::new();
    v.write("a.md", "alpha\n");
    v.write("b.md", "beta\n");
    let done = v.ok(
        "Batch",
        json!({"operations": [
            {"tool": "TextReplace", "arguments": {"filePath": "a.md", "oldText": "alpha", "newText": "ALPHA"}},
            {"tool": "TextReplace", "arguments": {"filePath": "b.md", "oldText": "beta", "newText": "BETA"}}
        ]}),
    );
    // b.md changed outside the server: the undo is refused for both files.
    v.write("b.md", "BETA, then edited by hand\n");
    let err = v.err("UndoEdit", json!({"changeId": done["changeId"]}));
    assert!(s(&err["message"]).contains("b.md"), "{err}");
    assert_eq!(
        v.read("a.md"),
        b"ALPHA\n",
        "a.md untouched by the refused undo"
    );
    v.write("b.md", "BETA\n");
    let undone = undo(&v, &done["changeId"]);
    assert_eq!(undone["files"].as_array().unwrap().len(), 2);
    assert_eq!(
        (v.read("a.md"), v.read("b.md")),
        (b"alpha\n".to_vec(), b"beta\n".to_vec())
    );
}

#[test]
fn a_removed_file_whose_place_is_taken_is_not_restored_over_it() {
    let v = Vault::new();
    v.write("n.md", "mine\n");
    let removed = v.ok("RemoveFile", json!({"filePath": "n.md"}));
    v.write("n.md", "someone else's\n");
    let err = v.err("UndoEdit", json!({"changeId": removed["changeId"]}));
    assert!(s(&err["message"]).contains("exists again"), "{err}");
    assert_eq!(v.read("n.md"), b"someone else's\n");
    assert!(Path::new(s(&removed["restore"]["arguments"]["sourcePath"])).exists());
}
