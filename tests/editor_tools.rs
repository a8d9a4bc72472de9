//! The editor toolset through the registry: seed 003's patch format and its
//! test cases, all-or-nothing batches, encodings, dry runs, and regression
//! tests for the known bugs of the Python `mcp-text-editor` server.

mod support;

use std::io;
use std::path::PathBuf;

use mcp_server_text::text::encoding::TextEncoding;
use mcp_server_text::tools::registry::Registry;
use mcp_server_text::tools::tool::Toolset;
use mcp_server_text::workspace::commit::{BatchHook, BatchStep};
use serde_json::{Value, json};
use support::Vault;

const LINES: &str = "line 1\nline 2\nline 3\nline 4\nline 5\nline 6\nline 7\nline 8\n";

fn patch(vault: &Vault, files: Value) -> Result<Value, Value> {
    vault.call("patch_text_file_contents", json!({ "files": files }))
}

fn message(err: &Value) -> &str {
    err["message"].as_str().unwrap()
}

fn mtime(path: &PathBuf) -> std::time::SystemTime {
    std::fs::metadata(path).unwrap().modified().unwrap()
}

/// The label a dry-run diff uses for a file of the vault: its path in the root.
fn label(_vault: &Vault, rel: &str) -> String {
    rel.to_string()
}

// ---------------------------------------------------------------------------
// Toolset

#[test]
fn the_editor_toolset_has_exactly_the_six_tools() {
    let registry = Registry::new(&[Toolset::Editor], false);
    assert_eq!(
        registry.names(),
        [
            "get_text_file_contents",
            "patch_text_file_contents",
            "create_text_file",
            "append_text_file_contents",
            "insert_text_file_contents",
            "delete_text_file_contents",
        ]
    );
    let read_only = Registry::new(&[Toolset::Editor], true);
    assert_eq!(read_only.names(), ["get_text_file_contents"]);
    let default = Registry::new(&Toolset::DEFAULT, false);
    assert!(default.get("patch_text_file_contents").is_none());
}

#[test]
fn every_schema_is_strict_and_snake_case() {
    let registry = Registry::new(&[Toolset::Editor], false);
    for entry in registry.entries() {
        let schema = serde_json::to_value(entry.input_schema.as_ref()).unwrap();
        let text = schema.to_string();
        assert!(
            !text.contains("filePath") && !text.contains("dryRun"),
            "{}",
            entry.name
        );
        assert_eq!(
            schema["additionalProperties"],
            json!(false),
            "{}",
            entry.name
        );
        assert_eq!(schema["type"], "object");
    }
    let patch = registry.get("patch_text_file_contents").unwrap();
    let schema = serde_json::to_value(patch.input_schema.as_ref()).unwrap();
    let file = &schema["properties"]["files"]["items"];
    assert_eq!(file["additionalProperties"], json!(false));
    let one_patch = &file["properties"]["patches"]["items"];
    assert_eq!(one_patch["additionalProperties"], json!(false));
    assert_eq!(
        one_patch["properties"]["ranges"]["items"]["additionalProperties"],
        json!(false)
    );
    let delete = registry.get("delete_text_file_contents").unwrap();
    let schema = serde_json::to_value(delete.input_schema.as_ref()).unwrap();
    let range = &schema["properties"]["ranges"]["items"];
    assert_eq!(range["required"], json!(["start", "end"]));
    assert_eq!(
        range["properties"]["end"]["type"],
        json!(["integer", "null"])
    );
}

// ---------------------------------------------------------------------------
// get_text_file_contents

#[test]
fn get_returns_ranges_hashes_and_totals_keyed_by_path() {
    let vault = Vault::new();
    vault.write("a.txt", LINES);
    vault.write("b.txt", "one\r\ntwo\r\n");
    let out = vault.ok(
        "get_text_file_contents",
        json!({"files": [
            {"file_path": "a.txt", "ranges": [{"start": 2, "end": 3}, {"start": 8, "end": null}, {"start": 7, "end": 20}]},
            {"file_path": "b.txt", "ranges": [{"start": 1}]}
        ]}),
    );
    let a = &out["a.txt"];
    assert_eq!(a["total_lines"], 8);
    assert_eq!(a["encoding"], "utf-8");
    assert_eq!(a["file_hash"].as_str().unwrap().len(), 16);
    assert_eq!(a["ranges"][0]["content"], "line 2\nline 3\n");
    assert_eq!(a["ranges"][0]["start"], 2);
    assert_eq!(a["ranges"][0]["end"], 3);
    assert_eq!(a["ranges"][0]["content_size"], 14);
    assert_eq!(a["ranges"][1]["content"], "line 8\n");
    assert_eq!(a["ranges"][2]["end"], 8);
    assert!(
        a["ranges"][2]["note"]
            .as_str()
            .unwrap()
            .contains("the file has 8 lines")
    );
    // range_hash is the file hash of the content's bytes.
    vault.write("c.txt", "line 2\nline 3\n");
    let c = vault.ok(
        "get_text_file_contents",
        json!({"files": [{"file_path": "c.txt", "ranges": [{"start": 1, "end": null}]}]}),
    );
    assert_eq!(a["ranges"][0]["range_hash"], c["c.txt"]["file_hash"]);
    // CRLF content comes back as it is in the file.
    assert_eq!(out["b.txt"]["ranges"][0]["content"], "one\r\ntwo\r\n");
    // The file hash is the text tools' fileHash.
    let read = vault.ok(
        "TextRead",
        json!({"filePath": "a.txt", "target": {"lines": {"start": 1, "end": 1}}}),
    );
    assert_eq!(read["fileHash"], a["file_hash"]);
}

#[test]
fn get_refuses_what_it_cannot_read() {
    let vault = Vault::new();
    vault.write("a.txt", LINES);
    let err = vault.err(
        "get_text_file_contents",
        json!({"files": [{"file_path": "a.txt", "ranges": [{"start": 0, "end": 1}]}]}),
    );
    assert_eq!(
        message(&err),
        "files[0] (a.txt): ranges[0]: line 0 does not exist, line numbers start at 1"
    );
    let err = vault.err(
        "get_text_file_contents",
        json!({"files": [{"file_path": "../outside.txt", "ranges": [{"start": 1}]}]}),
    );
    assert!(
        message(&err).contains("outside the allowed folders"),
        "{err}"
    );
    let err = vault.err(
        "get_text_file_contents",
        json!({"files": [{"file_path": "a.txt", "ranges": [{"start": 1}]}], "encoding": "klingon"}),
    );
    assert_eq!(message(&err), "Unknown encoding 'klingon'");
    assert!(
        err["suggestions"][0]
            .as_str()
            .unwrap()
            .contains("shift_jis (sjis, cp932), euc-jp, euc-kr")
    );
}

// ---------------------------------------------------------------------------
// Seed 003's cases

#[test]
fn multi_range_patch_replaces_the_same_text_in_each_range() {
    let vault = Vault::new();
    vault.write("a.py", "x = 1\nTODO\ny = 2\nTODO\nz = 3\n");
    let out = patch(
        &vault,
        json!([{"file_path": "a.py", "patches": [
            {"old_string": "TODO\n", "new_string": "pass\n", "ranges": [{"start": 2, "end": 2}, {"start": 4, "end": 4}]}
        ]}]),
    )
    .unwrap();
    assert_eq!(
        vault.read_string("a.py"),
        "x = 1\npass\ny = 2\npass\nz = 3\n"
    );
    assert_eq!(out["a.py"]["result"], "ok");
    assert_eq!(
        out["a.py"]["patches"][0]["ranges"],
        json!([{"start": 2, "end": 2}, {"start": 4, "end": 4}])
    );
    assert_eq!(out["a.py"]["lines_delta"], 0);
    assert!(out["a.py"].get("diff").is_none());
}

#[test]
fn string_mismatch_names_file_patch_range_and_both_texts() {
    let vault = Vault::new();
    vault.write("a.txt", LINES);
    vault.write("b.txt", LINES);
    let before = vault.snapshot();
    let err = patch(
        &vault,
        json!([
            {"file_path": "a.txt", "patches": [{"old_string": "line 1\n", "new_string": "one\n", "ranges": [{"start": 1, "end": 1}]}]},
            {"file_path": "b.txt", "patches": [
                {"old_string": "line 1\n", "new_string": "one\n", "ranges": [{"start": 1, "end": 1}]},
                {"old_string": "line 5\nline 6\n", "new_string": "x\n", "ranges": [{"start": 4, "end": 5}]}
            ]}
        ]),
    )
    .unwrap_err();
    assert_eq!(
        message(&err),
        "patch_text_file_contents wrote nothing: files[1] (b.txt): patches[1].ranges[0] (lines 4-5): the lines do not hold old_string: first difference at line 4, column 6\nexpected (old_string): \"line 5\\nline 6\\n\"\nactual (lines 4-5): \"line 4\\nline 5\\n\"\nold_string does occur at lines 5-6"
    );
    assert_eq!(err["file_path"], "b.txt");
    assert_eq!(err["file_index"], 1);
    assert_eq!(err["range"], "patches[1].ranges[0]");
    assert_eq!(err["expected"], "line 5\nline 6\n");
    assert_eq!(err["actual"], "line 4\nline 5\n");
    assert!(
        err["suggestions"][0]
            .as_str()
            .unwrap()
            .contains("old_string is at lines 5-6")
    );
    assert_eq!(vault.snapshot(), before, "no file changed, not even a.txt");
}

#[test]
fn multi_file_patches_apply_to_every_file() {
    let vault = Vault::new();
    vault.write("docs/a.md", "# A\n\nalpha\n");
    vault.write("docs/b.md", "# B\n\nbeta\n");
    let out = patch(
        &vault,
        json!([
            {"file_path": "docs/a.md", "patches": [{"old_string": "alpha\n", "new_string": "ALPHA\n", "ranges": [{"start": 3, "end": 3}]}]},
            {"file_path": vault.root.join("docs/b.md").display().to_string(), "encoding": "utf-8",
             "patches": [{"old_string": "# B\n", "new_string": "# Bee\n", "ranges": [{"start": 1, "end": 1}]}]}
        ]),
    )
    .unwrap();
    assert_eq!(vault.read_string("docs/a.md"), "# A\n\nALPHA\n");
    assert_eq!(vault.read_string("docs/b.md"), "# Bee\n\nbeta\n");
    let keys: Vec<&String> = out.as_object().unwrap().keys().collect();
    assert_eq!(keys[0], "docs/a.md");
    assert!(keys[1].ends_with("docs/b.md"));
}

#[test]
fn overlapping_ranges_are_refused_within_and_across_patches() {
    let vault = Vault::new();
    vault.write("a.txt", "same\nsame\nsame\nsame\n");
    let before = vault.snapshot();
    let err = patch(
        &vault,
        json!([{"file_path": "a.txt", "patches": [
            {"old_string": "same\nsame\n", "new_string": "x\n", "ranges": [{"start": 1, "end": 2}, {"start": 2, "end": 3}]}
        ]}]),
    )
    .unwrap_err();
    assert_eq!(
        message(&err),
        "patch_text_file_contents wrote nothing: files[0] (a.txt): patches[0].ranges[0] (lines 1-2) and patches[0].ranges[1] (lines 2-3) overlap; ranges must not overlap, within a patch or across patches"
    );
    let err = patch(
        &vault,
        json!([{"file_path": "a.txt", "patches": [
            {"old_string": "same\n", "new_string": "x\n", "ranges": [{"start": 3, "end": 3}]},
            {"old_string": "same\nsame\nsame\n", "new_string": "y\n", "ranges": [{"start": 2, "end": null}]}
        ]}]),
    )
    .unwrap_err();
    assert!(
        message(&err)
            .contains("patches[0].ranges[0] (line 3) and patches[1].ranges[0] (lines 2-4) overlap"),
        "{err}"
    );
    assert_eq!(vault.snapshot(), before);
}

#[test]
fn end_null_means_to_the_end_of_the_file() {
    let vault = Vault::new();
    vault.write("a.txt", LINES);
    patch(
        &vault,
        json!([{"file_path": "a.txt", "patches": [
            {"old_string": "line 7\nline 8\n", "new_string": "the end\n", "ranges": [{"start": 7, "end": null}]}
        ]}]),
    )
    .unwrap();
    assert_eq!(
        vault.read_string("a.txt"),
        "line 1\nline 2\nline 3\nline 4\nline 5\nline 6\nthe end\n"
    );
}

#[test]
fn empty_old_string_inserts_at_start() {
    let vault = Vault::new();
    vault.write("a.txt", "a\nb\n");
    let out = patch(
        &vault,
        json!([{"file_path": "a.txt", "patches": [
            {"old_string": "", "new_string": "top", "ranges": [{"start": 1, "end": null}]},
            {"old_string": "", "new_string": "bottom\n", "ranges": [{"start": 3, "end": 2}]}
        ]}]),
    )
    .unwrap();
    assert_eq!(vault.read_string("a.txt"), "top\na\nb\nbottom\n");
    assert_eq!(
        out["a.txt"]["patches"][1]["ranges"],
        json!([{"start": 4, "end": 4}])
    );
    let err = patch(
        &vault,
        json!([{"file_path": "a.txt", "patches": [
            {"old_string": "", "new_string": "x\n", "ranges": [{"start": 2, "end": 2}]}
        ]}]),
    )
    .unwrap_err();
    assert!(message(&err).contains("old_string is empty, which means inserting before line 2"));
}

#[test]
fn a_batch_of_five_whose_fourth_patch_fails_changes_nothing() {
    let vault = Vault::new();
    let files: Vec<Value> = (1..=5)
        .map(|k| {
            vault.write(&format!("f{k}.txt"), format!("file {k}\nbody\n"));
            let old = if k == 4 {
                "file four\n".to_string()
            } else {
                format!("file {k}\n")
            };
            json!({"file_path": format!("f{k}.txt"), "patches": [
                {"old_string": old, "new_string": "changed\n", "ranges": [{"start": 1, "end": 1}]}
            ]})
        })
        .collect();
    let before = vault.snapshot();
    let err = patch(&vault, Value::Array(files)).unwrap_err();
    assert!(message(&err).starts_with(
        "patch_text_file_contents wrote nothing: files[3] (f4.txt): patches[0].ranges[0] (line 1)"
    ));
    assert_eq!(vault.snapshot(), before);
}

#[test]
fn a_rename_failing_midway_is_rolled_back_and_reported() {
    let vault = Vault::new();
    let files: Vec<Value> = (1..=5)
        .map(|k| {
            vault.write(&format!("d{k}/f{k}.txt"), format!("file {k}\r\nbody\r\n"));
            json!({"file_path": format!("d{k}/f{k}.txt"), "patches": [
                {"old_string": format!("file {k}\n"), "new_string": "changed\n", "ranges": [{"start": 1, "end": 1}]}
            ]})
        })
        .collect();
    let before = vault.snapshot_without_history();
    // The fourth rename fails (as on a file system that turned read-only).
    vault
        .ctx
        .workspace
        .set_batch_hook(Some(BatchHook::new(|step| match step {
            BatchStep::Commit { index: 3, .. } => Err(io::Error::other("read-only file system")),
            _ => Ok(()),
        })));
    let err = patch(&vault, Value::Array(files)).unwrap_err();
    let text = message(&err);
    assert!(
        text.starts_with("files[3] (d4/f4.txt): writing the batch failed at "),
        "{text}"
    );
    assert!(
        text.contains("were restored from their original bytes"),
        "{text}"
    );
    assert!(text.ends_with("; no file was changed"), "{text}");
    assert_eq!(err["restored"].as_array().unwrap().len(), 3);
    assert_eq!(err["not_restored"], json!([]));
    assert_eq!(vault.snapshot_without_history(), before);
}

/// Whether this process ignores folder permissions (root, or a capability).
fn permissions_are_ignored(vault: &Vault) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let probe = vault.outside().join("probe");
    std::fs::create_dir(&probe).unwrap();
    std::fs::set_permissions(&probe, std::fs::Permissions::from_mode(0o555)).unwrap();
    let ignored = std::fs::write(probe.join("x"), "x").is_ok();
    std::fs::set_permissions(&probe, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::remove_dir_all(&probe).unwrap();
    ignored
}

#[test]
fn a_batch_that_cannot_stage_its_last_file_changes_nothing() {
    use std::os::unix::fs::PermissionsExt;
    let vault = Vault::new();
    let files: Vec<Value> = (1..=3)
        .map(|k| {
            vault.write(&format!("d{k}/f{k}.txt"), format!("file {k}\n"));
            json!({"file_path": format!("d{k}/f{k}.txt"), "patches": [
                {"old_string": format!("file {k}\n"), "new_string": "changed\n", "ranges": [{"start": 1, "end": 1}]}
            ]})
        })
        .collect();
    let before = vault.snapshot_without_history();
    let locked = vault.root.join("d3");
    let use_permissions = !permissions_are_ignored(&vault);
    if use_permissions {
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o555)).unwrap();
    } else {
        // Folder permissions do not stop this process: fail the stage instead.
        vault
            .ctx
            .workspace
            .set_batch_hook(Some(BatchHook::new(|step| match step {
                BatchStep::Stage { index: 2, .. } => {
                    Err(io::Error::from(io::ErrorKind::PermissionDenied))
                }
                _ => Ok(()),
            })));
    }
    let err = patch(&vault, Value::Array(files)).unwrap_err();
    if use_permissions {
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    assert!(
        message(&err)
            .starts_with("patch_text_file_contents wrote nothing: files[2] (d3/f3.txt): writing "),
        "{err}"
    );
    assert_eq!(
        vault.snapshot_without_history(),
        before,
        "no file changed, no temp file left"
    );
}

#[test]
fn the_same_file_twice_in_a_batch_is_refused() {
    let vault = Vault::new();
    vault.write("a.txt", "a\nb\n");
    let abs = vault.root.join("a.txt").display().to_string();
    let err = patch(
        &vault,
        json!([
            {"file_path": "a.txt", "patches": [{"old_string": "a\n", "new_string": "A\n", "ranges": [{"start": 1, "end": 1}]}]},
            {"file_path": abs, "patches": [{"old_string": "b\n", "new_string": "B\n", "ranges": [{"start": 2, "end": 2}]}]}
        ]),
    )
    .unwrap_err();
    assert!(
        message(&err).contains("is named twice in the batch (files[0] and files[1])"),
        "{err}"
    );
    assert_eq!(vault.read_string("a.txt"), "a\nb\n");
}

// ---------------------------------------------------------------------------
// Regressions of the Python server's known bugs

/// Every tool works with its documented arguments, and every reply has the
/// same wrapper: an object keyed by file_path whose entries carry result "ok".
#[test]
fn regression_every_tool_works_through_one_consistent_wrapper() {
    let vault = Vault::new();
    let created = vault.ok(
        "create_text_file",
        json!({"file_path": "notes/new.md", "contents": "# New\n\nbody\n"}),
    );
    assert_eq!(created["notes/new.md"]["result"], "ok");
    assert_eq!(
        created["notes/new.md"]["new_folders"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    let read = vault.ok(
        "get_text_file_contents",
        json!({"files": [{"file_path": "notes/new.md", "ranges": [{"start": 3, "end": 3}]}]}),
    );
    assert_eq!(
        read["notes/new.md"]["file_hash"],
        created["notes/new.md"]["file_hash"]
    );
    let patched = patch(
        &vault,
        json!([{"file_path": "notes/new.md", "patches": [{
            "old_string": read["notes/new.md"]["ranges"][0]["content"],
            "new_string": "better body\n",
            "ranges": [{"start": 3, "end": 3}]
        }]}]),
    )
    .unwrap();
    let appended = vault.ok(
        "append_text_file_contents",
        json!({"file_path": "notes/new.md", "contents": "tail", "file_hash": patched["notes/new.md"]["file_hash"]}),
    );
    assert_eq!(
        appended["notes/new.md"]["lines"],
        json!({"start": 4, "end": 4})
    );
    let inserted = vault.ok(
        "insert_text_file_contents",
        json!({"file_path": "notes/new.md", "contents": "intro\n", "after": 1, "file_hash": appended["notes/new.md"]["file_hash"]}),
    );
    let deleted = vault.ok(
        "delete_text_file_contents",
        json!({"file_path": "notes/new.md", "ranges": [{"start": 3, "end": 3}], "file_hash": inserted["notes/new.md"]["file_hash"]}),
    );
    assert_eq!(
        deleted["notes/new.md"]["deleted"],
        json!([{"start": 3, "end": 3}])
    );
    assert_eq!(
        vault.read_string("notes/new.md"),
        "# New\nintro\nbetter body\ntail\n"
    );
    for reply in [&created, &patched, &appended, &inserted, &deleted] {
        let map = reply.as_object().unwrap();
        assert_eq!(map.len(), 1);
        let entry = &map["notes/new.md"];
        assert_eq!(entry["result"], "ok");
        assert_eq!(entry["file_hash"].as_str().unwrap().len(), 16);
    }
}

/// A patch that does nothing must not make the server skip the others and
/// report success.
#[test]
fn regression_an_empty_patch_never_drops_the_valid_ones() {
    let vault = Vault::new();
    vault.write("a.txt", "a\nb\nc\n");
    let err = patch(
        &vault,
        json!([{"file_path": "a.txt", "patches": [
            {"old_string": "a\n", "new_string": "A\n", "ranges": [{"start": 1, "end": 1}]},
            {"old_string": "", "new_string": "", "ranges": [{"start": 2, "end": null}]}
        ]}]),
    )
    .unwrap_err();
    assert!(
        message(&err).contains("patches[1] has an empty old_string and an empty new_string"),
        "{err}"
    );
    assert_eq!(vault.read_string("a.txt"), "a\nb\nc\n");
    // An empty new_string is a deletion, applied along with the rest.
    patch(
        &vault,
        json!([{"file_path": "a.txt", "patches": [
            {"old_string": "a\n", "new_string": "A\n", "ranges": [{"start": 1, "end": 1}]},
            {"old_string": "b\n", "new_string": "", "ranges": [{"start": 2, "end": 2}]},
            {"old_string": "c\n", "new_string": "C\n", "ranges": [{"start": 3, "end": 3}]}
        ]}]),
    )
    .unwrap();
    assert_eq!(vault.read_string("a.txt"), "A\nC\n");
}

/// A misspelt key inside a range must be refused, never read as `end: null`.
#[test]
fn regression_unknown_keys_are_refused_everywhere() {
    let vault = Vault::new();
    vault.write("a.txt", LINES);
    let before = vault.snapshot();
    let cases = [
        (
            "patch_text_file_contents",
            json!({"files": [{"file_path": "a.txt", "patches": [
            {"old_string": "line 2\n", "new_string": "x\n", "ranges": [{"start": 2, "ned": 2}]}]}]}),
            "files[0].patches[0].ranges[0].ned: unknown field `ned`",
        ),
        (
            "patch_text_file_contents",
            json!({"files": [{"file_path": "a.txt", "patches": [
            {"old_string": "line 2\n", "new_string": "x\n", "ranges": [{"start": 2, "end": 2}], "range_hash": "abc"}]}]}),
            "files[0].patches[0].range_hash: unknown field `range_hash`",
        ),
        (
            "patch_text_file_contents",
            json!({"files": [{"file_path": "a.txt", "hash": "abc", "patches": []}]}),
            "files[0].hash: unknown field `hash`",
        ),
        (
            "patch_text_file_contents",
            json!({"files": [], "dryrun": true}),
            "unknown field `dryrun`",
        ),
        (
            "delete_text_file_contents",
            json!({"file_path": "a.txt", "ranges": [{"start": 2, "last": 3}]}),
            "ranges[0].last: unknown field `last`",
        ),
        (
            "delete_text_file_contents",
            json!({"file_path": "a.txt", "ranges": [{"start": 2}]}),
            "ranges[0]: missing field `end`",
        ),
        (
            "get_text_file_contents",
            json!({"files": [{"file_path": "a.txt", "ranges": [{"start": 2, "stop": 3}]}]}),
            "files[0].ranges[0].stop: unknown field `stop`",
        ),
        (
            "insert_text_file_contents",
            json!({"file_path": "a.txt", "contents": "x", "line": 3}),
            "unknown field `line`",
        ),
        (
            "append_text_file_contents",
            json!({"file_path": "a.txt", "contents": "x", "hash": "abc"}),
            "unknown field `hash`",
        ),
        (
            "create_text_file",
            json!({"file_path": "b.txt", "content": "x"}),
            "unknown field `content`",
        ),
    ];
    for (tool, args, expected) in cases {
        let err = vault.err(tool, args);
        assert!(message(&err).contains(expected), "{tool}: {err}");
    }
    assert_eq!(vault.snapshot(), before);
}

/// A call in the older hash-checked format is told how the current format
/// spells the same patch, and the nested parameter shape is listed.
#[test]
fn legacy_hash_format_is_refused_with_the_new_shape() {
    let vault = Vault::new();
    vault.write("a.txt", LINES);
    let before = vault.snapshot();
    let err = vault.err(
        "patch_text_file_contents",
        json!({"files": [{"file_path": "a.txt", "hash": "abc", "patches": [
            {"start": 2, "end": 2, "range_hash": "def", "contents": "x\n"}]}]}),
    );
    let suggestions: Vec<&str> = err["suggestions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    assert!(
        suggestions[0].contains(
            "patches (array of {old_string (string, required), new_string (string, required), ranges (array of {start (integer, required), end (integer)}, required)}, required)"
        ),
        "{err}"
    );
    assert!(
        suggestions[1].starts_with("The hash-checked patch format"),
        "{err}"
    );
    assert_eq!(vault.snapshot(), before);
}

/// CRLF files stay CRLF whatever line breaks the caller sends.
#[test]
fn regression_crlf_files_are_not_rewritten_to_lf() {
    let vault = Vault::new();
    vault.write("w.txt", "one\r\ntwo\r\nthree\r\nfour\r\n");
    let out = patch(
        &vault,
        json!([{"file_path": "w.txt", "patches": [
            {"old_string": "two\nthree\n", "new_string": "2\n3\n", "ranges": [{"start": 2, "end": 3}]}
        ]}]),
    )
    .unwrap();
    assert_eq!(
        out["w.txt"]["note"],
        "old_string's line breaks were matched against the file's own (CRLF)"
    );
    assert_eq!(vault.read("w.txt"), b"one\r\n2\r\n3\r\nfour\r\n");
    vault.ok(
        "append_text_file_contents",
        json!({"file_path": "w.txt", "contents": "five\nsix\n"}),
    );
    vault.ok(
        "insert_text_file_contents",
        json!({"file_path": "w.txt", "contents": "zero\n", "before": 1}),
    );
    vault.ok(
        "delete_text_file_contents",
        json!({"file_path": "w.txt", "ranges": [{"start": 3, "end": 3}]}),
    );
    assert_eq!(
        vault.read("w.txt"),
        b"zero\r\none\r\n3\r\nfour\r\nfive\r\nsix\r\n"
    );
}

/// Every write replaces the file by rename: the path gets a new inode and a
/// reader holding the old file sees its old bytes whole.
#[test]
fn regression_writes_are_atomic_not_in_place() {
    use std::io::Read;
    use std::os::unix::fs::MetadataExt;
    let vault = Vault::new();
    let path = vault.write("a.txt", LINES);
    let inode = std::fs::metadata(&path).unwrap().ino();
    let mut held = std::fs::File::open(&path).unwrap();
    patch(
        &vault,
        json!([{"file_path": "a.txt", "patches": [
            {"old_string": "line 1\n", "new_string": "first\n", "ranges": [{"start": 1, "end": 1}]}
        ]}]),
    )
    .unwrap();
    assert_ne!(std::fs::metadata(&path).unwrap().ino(), inode);
    let mut old = String::new();
    held.read_to_string(&mut old).unwrap();
    assert_eq!(old, LINES);
    let names: Vec<_> = std::fs::read_dir(&vault.root)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|name| name != ".history")
        .collect();
    assert_eq!(names.len(), 1, "no temp file left: {names:?}");
}

// ---------------------------------------------------------------------------
// Encodings

#[test]
fn shift_jis_and_windows_1252_files_keep_every_byte_outside_the_edit() {
    let vault = Vault::new();
    let sjis = TextEncoding::from_label("shift_jis").unwrap();
    let head = sjis.encode("設定ファイル\r\n").unwrap();
    let old_line = sjis.encode("名前=山田\r\n").unwrap();
    let tail = sjis.encode("住所=東京\r\n").unwrap();
    vault.write("jp.ini", [head.clone(), old_line, tail.clone()].concat());
    let err = vault.err(
        "get_text_file_contents",
        json!({"files": [{"file_path": "jp.ini", "ranges": [{"start": 1}]}]}),
    );
    assert!(
        err["suggestions"][0].as_str().unwrap().contains("encoding"),
        "{err}"
    );
    let read = vault.ok(
        "get_text_file_contents",
        json!({"files": [{"file_path": "jp.ini", "ranges": [{"start": 2, "end": 2}]}], "encoding": "shift_jis"}),
    );
    assert_eq!(read["jp.ini"]["ranges"][0]["content"], "名前=山田\r\n");
    assert_eq!(read["jp.ini"]["encoding"], "shift_jis");
    let out = patch(
        &vault,
        json!([{"file_path": "jp.ini", "encoding": "shift_jis", "patches": [
            {"old_string": "名前=山田\n", "new_string": "名前=鈴木\n", "ranges": [{"start": 2, "end": 2}]}
        ]}]),
    )
    .unwrap();
    let new_line = sjis.encode("名前=鈴木\r\n").unwrap();
    assert_eq!(vault.read("jp.ini"), [head, new_line, tail].concat());
    assert_eq!(out["jp.ini"]["encoding"], "shift_jis");

    let cp1252 = TextEncoding::from_label("windows-1252").unwrap();
    let original = b"caf\xe9\nna\xefve \x80 5\n\xabquote\xbb\n".to_vec();
    vault.write("fr.txt", &original);
    patch(
        &vault,
        json!([{"file_path": "fr.txt", "encoding": "latin-1", "patches": [
            {"old_string": "naïve € 5\n", "new_string": "déjà vu € 6\n", "ranges": [{"start": 2, "end": 2}]}
        ]}]),
    )
    .unwrap();
    assert_eq!(
        vault.read("fr.txt"),
        [
            &b"caf\xe9\n"[..],
            &cp1252.encode("déjà vu € 6\n").unwrap(),
            b"\xabquote\xbb\n"
        ]
        .concat()
    );
    // A character the encoding cannot hold is refused, not replaced.
    let before = vault.snapshot();
    let err = patch(
        &vault,
        json!([{"file_path": "fr.txt", "encoding": "windows-1252", "patches": [
            {"old_string": "café\n", "new_string": "カフェ\n", "ranges": [{"start": 1, "end": 1}]}
        ]}]),
    )
    .unwrap_err();
    assert!(
        message(&err).contains("cannot be written in windows-1252"),
        "{err}"
    );
    assert_eq!(vault.snapshot(), before);
}

#[test]
fn created_files_are_encoded_as_asked() {
    let vault = Vault::new();
    vault.ok(
        "create_text_file",
        json!({"file_path": "u16.txt", "contents": "hé\n", "encoding": "utf-16"}),
    );
    assert_eq!(vault.read("u16.txt"), b"\xFF\xFEh\0\xE9\0\n\0");
    vault.ok(
        "create_text_file",
        json!({"file_path": "k.txt", "contents": "한국어\n", "encoding": "euc-kr"}),
    );
    let euc = TextEncoding::from_label("euc-kr").unwrap();
    assert_eq!(vault.read("k.txt"), euc.encode("한국어\n").unwrap());
    let read = vault.ok(
        "get_text_file_contents",
        json!({"files": [{"file_path": "u16.txt", "ranges": [{"start": 1}]}]}),
    );
    assert_eq!(read["u16.txt"]["ranges"][0]["content"], "hé\n");
    assert_eq!(read["u16.txt"]["encoding"], "utf-16le");
    let err = vault.err(
        "create_text_file",
        json!({"file_path": "u16.txt", "contents": "again"}),
    );
    assert!(message(&err).ends_with("u16.txt already exists"), "{err}");
    assert_eq!(vault.read("u16.txt"), b"\xFF\xFEh\0\xE9\0\n\0");
}

// ---------------------------------------------------------------------------
// Hashes

#[test]
fn a_stale_file_hash_is_refused_with_the_current_hash() {
    let vault = Vault::new();
    vault.write("a.txt", "a\nb\n");
    let current = vault.ok(
        "get_text_file_contents",
        json!({"files": [{"file_path": "a.txt", "ranges": [{"start": 1}]}]}),
    )["a.txt"]["file_hash"]
        .clone();
    for (tool, args) in [
        (
            "append_text_file_contents",
            json!({"file_path": "a.txt", "contents": "c", "file_hash": "0000000000000000"}),
        ),
        (
            "insert_text_file_contents",
            json!({"file_path": "a.txt", "contents": "c", "before": 1, "file_hash": "0000000000000000"}),
        ),
        (
            "delete_text_file_contents",
            json!({"file_path": "a.txt", "ranges": [{"start": 1, "end": 1}], "file_hash": "0000000000000000"}),
        ),
    ] {
        let err = vault.err(tool, args);
        assert!(
            message(&err).contains("has changed since it was read: file_hash is 0000000000000000"),
            "{err}"
        );
        assert_eq!(err["file_hash"], current);
    }
    let err = vault.err(
        "append_text_file_contents",
        json!({"file_path": "a.txt", "contents": "c", "file_hash": "nope"}),
    );
    assert!(
        message(&err).starts_with("file_hash 'nope' is not a file hash"),
        "{err}"
    );
    // A range_hash that no longer matches stops a deletion.
    let err = vault.err(
        "delete_text_file_contents",
        json!({"file_path": "a.txt", "ranges": [{"start": 2, "end": null, "range_hash": "0000000000000000"}]}),
    );
    assert!(
        message(&err).contains(
            "ranges[0] (line 2): range_hash 0000000000000000 is not the hash of the lines now"
        ),
        "{err}"
    );
    assert_eq!(vault.read_string("a.txt"), "a\nb\n");
}

// ---------------------------------------------------------------------------
// The simple writers

#[test]
fn insert_before_or_after_and_its_refusals() {
    let vault = Vault::new();
    vault.write("a.txt", "a\nb");
    vault.ok(
        "insert_text_file_contents",
        json!({"file_path": "a.txt", "contents": "top", "after": 0}),
    );
    vault.ok(
        "insert_text_file_contents",
        json!({"file_path": "a.txt", "contents": "end", "before": 4}),
    );
    assert_eq!(
        vault.read_string("a.txt"),
        "top\na\nb\nend",
        "no final newline added"
    );
    let err = vault.err(
        "insert_text_file_contents",
        json!({"file_path": "a.txt", "contents": "x"}),
    );
    assert!(message(&err).starts_with("neither before nor after"));
    let err = vault.err(
        "insert_text_file_contents",
        json!({"file_path": "a.txt", "contents": "x", "before": 1, "after": 1}),
    );
    assert!(message(&err).starts_with("both before and after"));
    let err = vault.err(
        "insert_text_file_contents",
        json!({"file_path": "a.txt", "contents": "x", "after": 9}),
    );
    assert!(
        message(&err)
            .contains("after 9 is past the end: the file has 4 lines, so after must be 0 to 4"),
        "{err}"
    );
}

#[test]
fn append_and_delete_edge_cases() {
    let vault = Vault::new();
    vault.write("a.txt", "");
    vault.ok(
        "append_text_file_contents",
        json!({"file_path": "a.txt", "contents": "first\n"}),
    );
    assert_eq!(vault.read_string("a.txt"), "first\n");
    let err = vault.err(
        "append_text_file_contents",
        json!({"file_path": "missing.txt", "contents": "x"}),
    );
    assert!(message(&err).contains("does not exist"), "{err}");
    vault.write("b.txt", LINES);
    let out = vault.ok(
        "delete_text_file_contents",
        json!({"file_path": "b.txt", "ranges": [{"start": 7, "end": null}, {"start": 1, "end": 2}]}),
    );
    assert_eq!(
        vault.read_string("b.txt"),
        "line 3\nline 4\nline 5\nline 6\n"
    );
    assert_eq!(out["b.txt"]["lines_delta"], -4);
    assert_eq!(out["b.txt"]["total_lines"], 4);
    let err = vault.err(
        "delete_text_file_contents",
        json!({"file_path": "b.txt", "ranges": [{"start": 1, "end": 2}, {"start": 2, "end": 3}]}),
    );
    assert!(message(&err).contains("overlap"), "{err}");
    let err = vault.err(
        "delete_text_file_contents",
        json!({"file_path": "b.txt", "ranges": [{"start": 3, "end": 9}]}),
    );
    assert!(
        message(&err).contains("ranges[0] (lines 3-9) is past the end: the file has 4 lines"),
        "{err}"
    );
}

// ---------------------------------------------------------------------------
// Dry runs

#[test]
fn every_writer_has_a_dry_run_that_writes_nothing() {
    let vault = Vault::new();
    let path = vault.write("a.txt", "a\nb\nc\n");
    let stamp = mtime(&path);
    std::thread::sleep(std::time::Duration::from_millis(20));
    let before = vault.snapshot();
    let a = label(&vault, "a.txt");

    let out = vault.ok(
        "patch_text_file_contents",
        json!({"dry_run": true, "files": [{"file_path": "a.txt", "patches": [
            {"old_string": "b\n", "new_string": "B\n", "ranges": [{"start": 2, "end": 2}]}
        ]}]}),
    );
    assert_eq!(out["a.txt"]["dry_run"], true);
    assert_eq!(
        out["a.txt"]["diff"],
        format!("--- a/{a}\n+++ b/{a}\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n")
    );
    assert_eq!(
        out["a.txt"]["patches"][0]["ranges"],
        json!([{"start": 2, "end": 2}])
    );

    let out = vault.ok(
        "append_text_file_contents",
        json!({"file_path": "a.txt", "contents": "d", "dry_run": true}),
    );
    assert_eq!(
        out["a.txt"]["diff"],
        format!("--- a/{a}\n+++ b/{a}\n@@ -1,3 +1,4 @@\n a\n b\n c\n+d\n")
    );
    assert_eq!(out["a.txt"]["lines"], json!({"start": 4, "end": 4}));

    let out = vault.ok(
        "insert_text_file_contents",
        json!({"file_path": "a.txt", "contents": "x\n", "before": 2, "dry_run": true}),
    );
    assert_eq!(
        out["a.txt"]["diff"],
        format!("--- a/{a}\n+++ b/{a}\n@@ -1,3 +1,4 @@\n a\n+x\n b\n c\n")
    );

    let out = vault.ok(
        "delete_text_file_contents",
        json!({"file_path": "a.txt", "ranges": [{"start": 1, "end": 1}], "dry_run": true}),
    );
    assert_eq!(
        out["a.txt"]["diff"],
        format!("--- a/{a}\n+++ b/{a}\n@@ -1,3 +1,2 @@\n-a\n b\n c\n")
    );
    assert_eq!(out["a.txt"]["total_lines"], 2);

    let out = vault.ok(
        "create_text_file",
        json!({"file_path": "new/n.txt", "contents": "hello\n", "dry_run": true}),
    );
    let n = label(&vault, "new/n.txt");
    assert_eq!(
        out["new/n.txt"]["diff"],
        format!("--- a/{n}\n+++ b/{n}\n@@ -0,0 +1 @@\n+hello\n")
    );
    assert!(!vault.root.join("new").exists());

    assert_eq!(vault.snapshot(), before);
    assert_eq!(mtime(&path), stamp);
    // The hash a dry run reports is the one the real edit produces.
    let dry = vault.ok(
        "append_text_file_contents",
        json!({"file_path": "a.txt", "contents": "d", "dry_run": true}),
    );
    let real = vault.ok(
        "append_text_file_contents",
        json!({"file_path": "a.txt", "contents": "d"}),
    );
    assert_eq!(dry["a.txt"]["file_hash"], real["a.txt"]["file_hash"]);
    assert!(real["a.txt"].get("diff").is_none());
}

#[test]
fn text_args_given_as_json_are_noted_in_the_file_entry() {
    let vault = Vault::new();
    let out = vault.ok(
        "create_text_file",
        json!({"file_path": "c.json", "contents": {"k": 1}}),
    );
    assert_eq!(vault.read_string("c.json"), "{\n  \"k\": 1\n}");
    assert_eq!(
        out["c.json"]["note"],
        "a text parameter was an object; it was used as its JSON text"
    );
    assert_eq!(out.as_object().unwrap().len(), 1);
}

#[test]
fn snapshots_are_complete() {
    // The snapshot helper must see files in nested folders, or the
    // all-or-nothing tests above would prove nothing.
    let vault = Vault::new();
    vault.write("x/y/z.txt", "z");
    let snapshot = vault.snapshot();
    assert!(snapshot.keys().any(|p| p.ends_with("x/y/z.txt")));
}
