//! The files toolset end to end: ListDirectories, ListFiles, Move and
//! RemoveFile on a vault, checked by the bytes, permissions and folders left
//! on disk.

mod support;

use std::path::Path;

use serde_json::{Value, json};
use support::Vault;

/// A vault with a few notes in folders, a hidden folder and an image.
fn vault() -> Vault {
    let v = Vault::new();
    v.write("notes/a.md", "\u{feff}# A\r\n\r\nalpha\r\n");
    v.write("notes/b.md", "# B\n");
    v.write("notes/2026/day.md", "# Day\n");
    v.write("inbox/todo.txt", "one\ntwo");
    v.write("pic.png", [0x89, b'P', b'N', b'G', 0, 1, 2]);
    v.write(".obsidian/app.json", "{}");
    v
}

fn s(value: &Value) -> &str {
    value.as_str().unwrap()
}

#[cfg(unix)]
fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap().permissions().mode()
}

#[cfg(unix)]
fn set_mode(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

#[cfg(unix)]
#[test]
fn remove_then_restore_gives_back_the_exact_bytes_and_permissions() {
    let v = vault();
    let path = v.root.join("notes/a.md");
    set_mode(&path, 0o100640);
    let bytes = v.read("notes/a.md");
    let modified = std::fs::metadata(&path).unwrap().modified().unwrap();

    let removed = v.ok("RemoveFile", json!({"filePath": "notes/a.md"}));
    assert_eq!(removed["kind"], "file");
    assert_eq!(
        s(&removed["restore"]["arguments"]["destinationPath"]),
        path.to_str().unwrap()
    );
    let trash = Path::new(s(&removed["restore"]["arguments"]["sourcePath"])).to_path_buf();
    let in_trash = trash.strip_prefix(v.root.join(".trash")).unwrap();
    let stamp = in_trash
        .components()
        .next()
        .unwrap()
        .as_os_str()
        .to_str()
        .unwrap();
    assert_eq!(stamp.len(), "2026-11-22T04-05-06Z".len(), "{stamp}");
    assert!(
        stamp.ends_with('Z') && stamp.as_bytes()[10] == b'T',
        "{stamp}"
    );
    assert_eq!(
        in_trash.strip_prefix(stamp).unwrap(),
        Path::new("notes/a.md")
    );
    assert!(!path.exists());
    assert_eq!(std::fs::read(&trash).unwrap(), bytes);
    assert_eq!(
        removed["restore"],
        json!({"tool": "Move", "arguments": {"sourcePath": trash.to_str().unwrap(), "destinationPath": path.to_str().unwrap()}})
    );

    // The trash is hidden from the listings.
    let dirs = v.ok("ListDirectories", json!({}));
    assert!(!dirs.to_string().contains(".trash"), "{dirs}");
    let files = v.ok("ListFiles", json!({"path": ".", "recursive": true}));
    assert!(!files.to_string().contains(".trash"), "{files}");

    let restore = &removed["restore"];
    let restored = v.ok(s(&restore["tool"]), restore["arguments"].clone());
    assert_eq!(restored["kind"], "file");
    assert_eq!(std::fs::read(&path).unwrap(), bytes);
    assert_eq!(mode(&path), 0o100640);
    assert_eq!(
        std::fs::metadata(&path).unwrap().modified().unwrap(),
        modified
    );
    assert!(!trash.exists());
}

#[test]
fn move_refuses_an_existing_destination_and_changes_nothing() {
    let v = vault();
    let before = v.snapshot();
    let err = v.err(
        "Move",
        json!({"sourcePath": "notes/a.md", "destinationPath": "notes/b.md"}),
    );
    assert_eq!(
        s(&err["message"]),
        format!(
            "{} already exists, and nothing is ever overwritten; nothing was moved",
            v.root.join("notes/b.md").display()
        )
    );
    // Naming an existing folder as the destination is the usual mistake.
    let err = v.err(
        "Move",
        json!({"sourcePath": "notes/a.md", "destinationPath": "inbox"}),
    );
    assert!(
        err["suggestions"][1]
            .as_str()
            .unwrap()
            .contains("not a folder to put it in"),
        "{err}"
    );
    assert_eq!(v.snapshot(), before);
}

#[test]
fn move_renames_files_and_folders_and_creates_parents() {
    let v = vault();
    let moved = v.ok(
        "Move",
        json!({"sourcePath": "notes/b.md", "destinationPath": "archive/2025/b.md"}),
    );
    assert_eq!(moved["kind"], "file");
    assert_eq!(
        moved["createdFolders"],
        json!([
            v.root.join("archive").to_str().unwrap(),
            v.root.join("archive/2025").to_str().unwrap()
        ])
    );
    assert_eq!(v.read_string("archive/2025/b.md"), "# B\n");
    assert!(!v.root.join("notes/b.md").exists());

    let moved = v.ok(
        "Move",
        json!({"sourcePath": v.root.join("notes").to_str().unwrap(), "destinationPath": "journal"}),
    );
    assert_eq!(moved["kind"], "folder");
    assert!(moved.get("createdFolders").is_none());
    assert_eq!(v.read_string("journal/2026/day.md"), "# Day\n");
    assert!(!v.root.join("notes").exists());

    let err = v.err(
        "Move",
        json!({"sourcePath": "journal", "destinationPath": "journal/2026/journal"}),
    );
    assert!(s(&err["message"]).contains("into itself"), "{err}");
    let err = v.err(
        "Move",
        json!({"sourcePath": ".", "destinationPath": "elsewhere"}),
    );
    assert!(s(&err["message"]).contains("is a root folder"), "{err}");
}

#[test]
fn move_across_two_roots() {
    let v = vault();
    let second = v.add_root("second");
    let destination = second.join("from-vault/todo.txt");
    let moved = v.ok(
        "Move",
        json!({"sourcePath": "inbox/todo.txt", "destinationPath": destination.to_str().unwrap()}),
    );
    assert_eq!(moved["kind"], "file");
    assert_eq!(std::fs::read(&destination).unwrap(), b"one\ntwo");
    assert!(!v.root.join("inbox/todo.txt").exists());

    // And back, the folder this time.
    v.ok(
        "Move",
        json!({"sourcePath": second.join("from-vault").to_str().unwrap(), "destinationPath": "inbox/back"}),
    );
    assert_eq!(v.read("inbox/back/todo.txt"), b"one\ntwo");

    // RemoveFile uses the trash of the file's own root.
    std::fs::write(second.join("x.md"), "x").unwrap();
    let removed = v.ok(
        "RemoveFile",
        json!({"filePath": second.join("x.md").to_str().unwrap()}),
    );
    assert!(
        Path::new(s(&removed["restore"]["arguments"]["sourcePath"]))
            .starts_with(second.join(".trash")),
        "{removed}"
    );
}

#[test]
fn remove_file_of_a_folder_needs_recursive() {
    let v = vault();
    let before = v.snapshot();
    let err = v.err("RemoveFile", json!({"filePath": "notes"}));
    assert_eq!(
        s(&err["message"]),
        format!(
            "{} is a folder; removing a folder and everything in it needs recursive: true",
            v.root.join("notes").display()
        )
    );
    assert_eq!(v.snapshot(), before);

    let removed = v.ok(
        "RemoveFile",
        json!({"filePath": "notes", "recursive": true}),
    );
    assert_eq!(removed["kind"], "folder");
    let trash = Path::new(s(&removed["restore"]["arguments"]["sourcePath"])).to_path_buf();
    assert_eq!(
        std::fs::read(trash.join("2026/day.md")).unwrap(),
        b"# Day\n"
    );
    assert!(!v.root.join("notes").exists());

    // Things in the trash cannot be removed again; they can be restored.
    let err = v.err(
        "RemoveFile",
        json!({"filePath": trash.join("b.md").to_str().unwrap()}),
    );
    assert!(
        s(&err["message"]).ends_with("is already in the trash"),
        "{err}"
    );
    let err = v.err(
        "RemoveFile",
        json!({"filePath": ".trash", "recursive": true}),
    );
    assert!(
        s(&err["message"]).ends_with("is already in the trash"),
        "{err}"
    );
    v.ok("Move", removed["restore"]["arguments"].clone());
    let history = v.root.join(".history");
    assert_eq!(
        v.snapshot()
            .keys()
            .filter(|p| !p.starts_with(&history))
            .count(),
        before.len() + 3,
        "only .trash, its .gitignore and its time folder remain (besides the edit history)"
    );
    assert_eq!(
        std::fs::read(v.root.join(".trash/.gitignore")).unwrap(),
        b"*\n"
    );
    let err = v.err("RemoveFile", json!({"filePath": ".", "recursive": true}));
    assert!(s(&err["message"]).contains("is a root folder"), "{err}");
}

#[test]
fn dry_runs_change_nothing() {
    let v = vault();
    let before = v.snapshot();
    let moved = v.ok(
        "Move",
        json!({"sourcePath": "notes", "destinationPath": "a/b/c", "dryRun": true}),
    );
    assert_eq!(moved["dryRun"], true);
    assert_eq!(moved["kind"], "folder");
    assert_eq!(moved["createdFolders"].as_array().unwrap().len(), 2);
    let removed = v.ok(
        "RemoveFile",
        json!({"filePath": "notes/a.md", "dryRun": true}),
    );
    assert_eq!(removed["dryRun"], true);
    assert!(s(&removed["restore"]["arguments"]["sourcePath"]).ends_with("/notes/a.md"));
    let removed = v.ok(
        "RemoveFile",
        json!({"filePath": "notes", "recursive": true, "dryRun": true}),
    );
    assert_eq!(removed["kind"], "folder");
    assert_eq!(v.snapshot(), before);
    // A dry run still refuses what the real call would refuse.
    v.err(
        "Move",
        json!({"sourcePath": "notes/a.md", "destinationPath": "notes/b.md", "dryRun": true}),
    );
    v.err("RemoveFile", json!({"filePath": "notes", "dryRun": true}));
}

#[test]
fn list_directories_gives_a_tree_of_absolute_paths() {
    let v = vault();
    std::fs::create_dir_all(v.root.join("node_modules/x")).unwrap();
    std::fs::write(v.root.join(".gitignore"), "node_modules/\n").unwrap();
    let tree = v.ok("ListDirectories", json!({}));
    let root = v.root.to_str().unwrap();
    assert_eq!(
        tree,
        json!({
            "directories": [{
                "path": root,
                "children": [
                    {"path": format!("{root}/inbox")},
                    {"path": format!("{root}/notes"), "children": [{"path": format!("{root}/notes/2026")}]}
                ]
            }],
            "directoryCount": 4,
            "truncated": false
        })
    );
    let under = v.ok("ListDirectories", json!({"path": "notes"}));
    assert_eq!(under["directories"][0]["path"], format!("{root}/notes"));
    assert_eq!(under["directoryCount"], 2);
    // An ignored or hidden folder can still be listed by name.
    let hidden = v.ok("ListDirectories", json!({"path": "node_modules"}));
    assert_eq!(hidden["directoryCount"], 2);

    let err = v.err("ListDirectories", json!({"path": "notes/a.md"}));
    assert!(
        s(&err["message"]).ends_with("is a file, not a folder"),
        "{err}"
    );
}

#[test]
fn list_directories_is_capped() {
    let v = Vault::new();
    for i in 0..40 {
        for j in 0..30 {
            std::fs::create_dir_all(v.root.join(format!("d{i:02}/e{j:02}"))).unwrap();
        }
    }
    let tree = v.ok("ListDirectories", json!({}));
    assert_eq!(tree["truncated"], true);
    assert_eq!(tree["directoryCount"], 1000);
    // Breadth first: every top folder is there.
    assert_eq!(
        tree["directories"][0]["children"].as_array().unwrap().len(),
        40
    );
    assert!(s(&tree["note"]).contains("as path"));
}

#[test]
fn list_files_reports_sizes_times_and_which_files_are_editable() {
    let v = vault();
    let listed = v.ok("ListFiles", json!({"path": v.root.to_str().unwrap()}));
    let root = v.root.to_str().unwrap();
    assert_eq!(listed["path"], root);
    assert_eq!(listed["fileCount"], 1);
    let file = &listed["files"][0];
    assert_eq!(file["path"], format!("{root}/pic.png"));
    assert_eq!(file["size"], 7);
    assert_eq!(file["editable"], false);
    let modified = s(&file["modified"]);
    assert!(
        modified.len() == 20 && modified.ends_with('Z'),
        "{modified}"
    );
    assert_eq!(
        listed["note"],
        "1 file with endings the text tools do not open (editable: false)"
    );

    let all = v.ok("ListFiles", json!({"path": ".", "recursive": true}));
    let paths: Vec<&str> = all["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| s(&f["path"]).strip_prefix(root).unwrap())
        .collect();
    assert_eq!(
        paths,
        [
            "/pic.png",
            "/inbox/todo.txt",
            "/notes/a.md",
            "/notes/b.md",
            "/notes/2026/day.md"
        ]
    );
    assert_eq!(all["files"][2]["editable"], true);
    assert_eq!(all["truncated"], false);
    assert!(all.get("nextOffset").is_none());

    let empty = v.ok("ListFiles", json!({"path": "inbox", "offset": 5}));
    assert!(s(&empty["note"]).contains("past the last file"), "{empty}");
}

#[test]
fn list_files_pages_through_a_large_folder() {
    let v = Vault::new();
    for i in 0..1500 {
        v.write(&format!("daily/{i:04}.md"), "x");
    }
    let first = v.ok("ListFiles", json!({"path": "daily"}));
    assert_eq!(first["fileCount"], 1000);
    assert_eq!(first["truncated"], true);
    assert_eq!(first["nextOffset"], 1000);
    let second = v.ok("ListFiles", json!({"path": "daily", "offset": 1000}));
    assert_eq!(second["fileCount"], 500);
    assert_eq!(second["truncated"], false);
    assert!(s(&second["files"][0]["path"]).ends_with("daily/1000.md"));
}

/// A move waits for an edit of the same file, and an edit never brings a
/// moved file back at its old path.
#[test]
fn moves_and_edits_of_one_file_do_not_interleave() {
    for round in 0..5 {
        let v = Vault::new();
        v.write("a.md", "count 0\n");
        std::thread::scope(|scope| {
            scope.spawn(|| {
                for i in 0..40 {
                    let _ = v.call(
                        "TextReplace",
                        json!({"filePath": "a.md", "oldText": format!("count {i}"), "newText": format!("count {}", i + 1)}),
                    );
                }
            });
            scope.spawn(|| {
                std::thread::sleep(std::time::Duration::from_millis(2 * round));
                v.ok(
                    "Move",
                    json!({"sourcePath": "a.md", "destinationPath": "b.md"}),
                );
            });
        });
        assert!(
            !v.root.join("a.md").exists(),
            "round {round}: a.md came back"
        );
        assert!(v.read_string("b.md").starts_with("count "));
        let leftovers = std::fs::read_dir(&v.root)
            .unwrap()
            .filter(|e| e.as_ref().unwrap().file_name() != ".history")
            .count();
        assert_eq!(leftovers, 1, "round {round}: only b.md is left");
    }
}

/// What a refused call must say: the tool, and the parameters it accepts.
fn assert_invalid(v: &Vault, tool: &str, args: Value, expected: &str) {
    let err = v.err(tool, args.clone());
    let message = s(&err["message"]);
    assert!(
        message.starts_with(&format!("Invalid arguments for {tool}: "))
            && message.contains(expected),
        "{tool} {args}: {message}"
    );
    assert!(
        s(&err["suggestions"][0]).starts_with("Accepted parameters: "),
        "{err}"
    );
}

#[test]
fn bad_arguments_are_refused_with_what_is_accepted() {
    let v = vault();
    let before = v.snapshot();
    let cases: &[(&str, Value, &str)] = &[
        ("ListDirectories", json!({"path": 5}), "invalid type"),
        (
            "ListDirectories",
            json!({"depth": 2}),
            "unknown field `depth`",
        ),
        (
            "ListDirectories",
            json!(["notes"]),
            "expected a JSON object",
        ),
        ("ListFiles", json!({}), "missing field `path`"),
        ("ListFiles", json!({"path": ["notes"]}), "invalid type"),
        (
            "ListFiles",
            json!({"path": ".", "recursive": "yes"}),
            "recursive",
        ),
        ("ListFiles", json!({"path": ".", "offset": -1}), "offset"),
        (
            "ListFiles",
            json!({"path": ".", "pattern": "*.md"}),
            "unknown field `pattern`",
        ),
        (
            "Move",
            json!({"sourcePath": "notes/a.md"}),
            "missing field `destinationPath`",
        ),
        (
            "Move",
            json!({"destinationPath": "x.md"}),
            "missing field `sourcePath`",
        ),
        (
            "Move",
            json!({"sourcePath": 1, "destinationPath": "x.md"}),
            "sourcePath",
        ),
        (
            "Move",
            json!({"sourcePath": "notes/a.md", "destinationPath": "x.md", "dryRun": "true"}),
            "dryRun",
        ),
        (
            "Move",
            json!({"source": "notes/a.md", "destination": "x.md"}),
            "unknown field `source`",
        ),
        (
            "Move",
            json!({"sourcePath": "notes/a.md", "destinationPath": "x.md", "overwrite": true}),
            "unknown field `overwrite`",
        ),
        ("RemoveFile", json!({}), "missing field `filePath`"),
        ("RemoveFile", json!({"filePath": null}), "filePath"),
        (
            "RemoveFile",
            json!({"filePath": "notes", "recursive": 1}),
            "recursive",
        ),
        (
            "RemoveFile",
            json!({"path": "notes/a.md"}),
            "unknown field `path`",
        ),
        (
            "RemoveFile",
            json!({"filePath": "notes/a.md", "permanent": true}),
            "unknown field `permanent`",
        ),
    ];
    for (tool, args, expected) in cases {
        assert_invalid(&v, tool, args.clone(), expected);
    }
    for (tool, args) in [
        ("ListFiles", json!({"path": ""})),
        ("Move", json!({"sourcePath": "", "destinationPath": "x.md"})),
        (
            "Move",
            json!({"sourcePath": "notes/a.md", "destinationPath": "  "}),
        ),
        ("RemoveFile", json!({"filePath": ""})),
    ] {
        let err = v.err(tool, args);
        assert_eq!(err["message"], "No path was given", "{tool}");
    }
    assert_eq!(v.snapshot(), before);
}

#[test]
fn files_tools_are_listed_with_their_annotations() {
    let v = Vault::new();
    let effects = |name: &str| v.registry.get(name).unwrap().effects;
    assert!(effects("ListDirectories").read_only && effects("ListFiles").read_only);
    for name in ["Move", "RemoveFile"] {
        let e = effects(name);
        assert!(!e.read_only && e.destructive && !e.idempotent, "{name}");
    }
    let read_only = mcp_server_text::tools::registry::Registry::new(
        &mcp_server_text::tools::tool::Toolset::ALL,
        true,
    );
    assert!(read_only.get("ListFiles").is_some());
    assert!(read_only.get("Move").is_none() && read_only.get("RemoveFile").is_none());
}
