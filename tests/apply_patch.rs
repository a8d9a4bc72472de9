//! ApplyPatch through the tool registry: Codex patches and unified diffs
//! over several files, applied all or nothing, with exact bytes checked.

mod support;

use serde_json::json;
use support::Vault;

const APP: &str = "import sys\n\n\ndef greet(name):\n    print(\"Hi\", name)\n    return 0\n\n\ndef farewell(name):\n    print(\"Bye\", name)\n    return 0\n";

const OLD_NAME: &str = "def helper():\n    return 1\n";

fn three_files() -> Vault {
    let vault = Vault::new();
    vault.write("src/app.py", APP);
    vault.write("src/old_name.py", OLD_NAME);
    vault
}

/// An Add, an Update with two `@@` hunks and a Move (with an edit).
fn codex_patch(farewell_context: &str) -> String {
    format!(
        "*** Begin Patch
*** Add File: src/util.py
+def shout(text):
+    return text.upper()
*** Update File: src/app.py
@@ def greet(name):
-    print(\"Hi\", name)
+    print(\"Hello\", name)
     return 0
@@ def farewell(name):
-    {farewell_context}
+    print(\"Goodbye\", name)
     return 0
*** Update File: src/old_name.py
*** Move to: src/lib/new_name.py
@@
 def helper():
-    return 1
+    return 2
*** End Patch
"
    )
}

#[test]
fn a_three_file_codex_patch_lands_exactly_and_is_undone_at_once() {
    let vault = three_files();
    let out = vault.ok(
        "ApplyPatch",
        json!({"patch": codex_patch("print(\"Bye\", name)")}),
    );
    assert_eq!(
        vault.read_string("src/util.py"),
        "def shout(text):\n    return text.upper()\n"
    );
    assert_eq!(
        vault.read_string("src/app.py"),
        APP.replace("\"Hi\"", "\"Hello\"")
            .replace("\"Bye\"", "\"Goodbye\"")
    );
    assert!(!vault.root.join("src/old_name.py").exists());
    assert_eq!(
        vault.read_string("src/lib/new_name.py"),
        "def helper():\n    return 2\n"
    );
    let files = out["files"].as_array().unwrap();
    let actions: Vec<&str> = files
        .iter()
        .map(|f| f["action"].as_str().unwrap())
        .collect();
    assert_eq!(actions, ["add", "update", "move"]);
    assert_eq!(
        files[1]["hunks"],
        json!([{"lines": {"start": 5, "end": 6}}, {"lines": {"start": 10, "end": 11}}])
    );
    assert!(
        files[2]["filePath"]
            .as_str()
            .unwrap()
            .ends_with("src/lib/new_name.py")
    );
    let change = out["changeId"].as_str().unwrap();
    vault.ok("UndoEdit", json!({"changeId": change}));
    assert_eq!(vault.read_string("src/app.py"), APP);
    assert_eq!(vault.read_string("src/old_name.py"), OLD_NAME);
    assert!(!vault.root.join("src/util.py").exists());
    assert!(!vault.root.join("src/lib/new_name.py").exists());
}

#[test]
fn one_hunk_whose_context_is_not_in_its_file_writes_nothing_and_is_named() {
    let vault = three_files();
    let before = vault.snapshot();
    let err = vault.err(
        "ApplyPatch",
        json!({"patch": codex_patch("print(\"See you\", name)")}),
    );
    let message = err["message"].as_str().unwrap();
    assert!(
        message.starts_with("ApplyPatch: hunk 2 of src/app.py (file 2 of the patch; hunk at patch line 10, first old line `print(\"See you\", name)`) cannot be placed"),
        "{message}"
    );
    assert_eq!(err["hunk"], 2);
    assert_eq!(err["filePath"], "src/app.py");
    assert!(message.contains("Nothing was written"), "{message}");
    assert_eq!(vault.snapshot(), before, "no file changed, none created");
}

#[test]
fn a_dry_run_returns_each_files_diff_and_writes_nothing() {
    let vault = three_files();
    let before = vault.snapshot();
    let out = vault.ok(
        "ApplyPatch",
        json!({"patch": codex_patch("print(\"Bye\", name)"), "dryRun": true}),
    );
    assert_eq!(out["dryRun"], true);
    assert!(out.get("changeId").is_none());
    let diffs: Vec<&str> = out["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["diff"].as_str().unwrap())
        .collect();
    assert!(diffs[0].contains("+def shout(text):"), "{}", diffs[0]);
    assert!(diffs[1].contains("-    print(\"Hi\", name)\n+    print(\"Hello\", name)"));
    assert!(diffs[2].contains("+    return 2"));
    assert_eq!(vault.snapshot(), before);
}

#[test]
fn crlf_bom_and_a_missing_final_newline_survive_a_patch() {
    let vault = Vault::new();
    let original = b"\xef\xbb\xbfone\r\ntwo\r\nthree";
    vault.write("notes.txt", original);
    vault.ok(
        "ApplyPatch",
        json!({"patch": "*** Begin Patch\n*** Update File: notes.txt\n@@\n one\n-two\n+2\n+2b\n three\n*** End Patch"}),
    );
    assert_eq!(
        vault.read("notes.txt"),
        b"\xef\xbb\xbfone\r\n2\r\n2b\r\nthree"
    );
}

#[test]
fn a_utf16_file_stays_utf16_with_its_bom() {
    let vault = Vault::new();
    let utf16 = |text: &str| -> Vec<u8> {
        let mut bytes = vec![0xff, 0xfe];
        bytes.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
        bytes
    };
    vault.write("w.txt", utf16("caf\u{e9}\r\nthé\r\n"));
    vault.ok(
        "ApplyPatch",
        json!({"patch": "--- a/w.txt\n+++ b/w.txt\n@@ -1,2 +1,2 @@\n café\n-thé\n+tea\n"}),
    );
    assert_eq!(vault.read("w.txt"), utf16("caf\u{e9}\r\ntea\r\n"));
}

#[test]
fn a_unified_diff_adds_deletes_renames_and_edits() {
    let vault = Vault::new();
    vault.write("a.txt", "alpha\nbeta\ngamma\n");
    vault.write("gone.txt", "bye\n");
    vault.write("old.txt", "keep\nchange\n");
    let diff = "diff --git a/a.txt b/a.txt
index 1111111..2222222 100644
--- a/a.txt
+++ b/a.txt
@@ -1,3 +1,3 @@ section text
 alpha
-beta
+BETA
 gamma
diff --git a/gone.txt b/gone.txt
deleted file mode 100644
--- a/gone.txt
+++ /dev/null
@@ -1 +0,0 @@
-bye
diff --git a/new.txt b/new.txt
new file mode 100644
--- /dev/null
+++ b/new.txt
@@ -0,0 +1,2 @@
+fresh
+end
\\ No newline at end of file
diff --git a/old.txt b/moved/new_name.txt
similarity index 60%
rename from old.txt
rename to moved/new_name.txt
--- a/old.txt
+++ b/moved/new_name.txt
@@ -1,2 +1,2 @@
 keep
-change
+changed
";
    let out = vault.ok("ApplyPatch", json!({"patch": diff}));
    assert_eq!(vault.read_string("a.txt"), "alpha\nBETA\ngamma\n");
    assert!(!vault.root.join("gone.txt").exists());
    assert_eq!(vault.read_string("new.txt"), "fresh\nend");
    assert_eq!(vault.read_string("moved/new_name.txt"), "keep\nchanged\n");
    assert!(!vault.root.join("old.txt").exists());
    let files = out["files"].as_array().unwrap();
    let trash = files[1]["trashPath"].as_str().unwrap();
    assert!(trash.contains(".trash"), "{trash}");
    assert_eq!(std::fs::read_to_string(trash).unwrap(), "bye\n");
}

#[test]
fn a_deletion_of_another_version_of_the_file_is_refused() {
    let vault = Vault::new();
    vault.write("gone.txt", "bye now\n");
    let before = vault.snapshot();
    let err = vault.err(
        "ApplyPatch",
        json!({"patch": "--- a/gone.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-bye\n"}),
    );
    assert!(
        err["message"]
            .as_str()
            .unwrap()
            .contains("is not what the diff deletes"),
        "{err}"
    );
    assert_eq!(vault.snapshot(), before);
}

#[test]
fn an_added_file_never_overwrites_and_a_move_never_overwrites() {
    let vault = Vault::new();
    vault.write("a.txt", "a\n");
    vault.write("b.txt", "b\n");
    let before = vault.snapshot();
    let err = vault.err(
        "ApplyPatch",
        json!({"patch": "*** Begin Patch\n*** Add File: a.txt\n+new\n*** End Patch"}),
    );
    assert!(
        err["message"].as_str().unwrap().contains("already exists"),
        "{err}"
    );
    let err = vault.err(
        "ApplyPatch",
        json!({"patch": "*** Begin Patch\n*** Update File: a.txt\n*** Move to: b.txt\n@@\n-a\n+A\n*** End Patch"}),
    );
    assert!(
        err["message"].as_str().unwrap().contains("already exists"),
        "{err}"
    );
    assert_eq!(vault.snapshot(), before);
}

#[test]
fn an_ambiguous_codex_hunk_lists_its_places_and_asks_for_an_anchor() {
    let vault = Vault::new();
    vault.write(
        "m.py",
        "def a():\n    return None\n\n\ndef b():\n    return None\n",
    );
    let err = vault.err(
        "ApplyPatch",
        json!({"patch": "*** Begin Patch\n*** Update File: m.py\n@@\n-    return None\n+    return 1\n*** End Patch"}),
    );
    assert_eq!(
        err["places"],
        json!([{"start": 2, "end": 2}, {"start": 6, "end": 6}])
    );
    assert!(
        err["suggestions"][0].as_str().unwrap().contains("'@@ '"),
        "{err}"
    );
    let out = vault.ok(
        "ApplyPatch",
        json!({"patch": "*** Begin Patch\n*** Update File: m.py\n@@ def b\n-    return None\n+    return 1\n*** End Patch"}),
    );
    assert_eq!(
        out["files"][0]["hunks"][0]["lines"],
        json!({"start": 6, "end": 6})
    );
    assert!(
        vault
            .read_string("m.py")
            .ends_with("def b():\n    return 1\n")
    );
}

#[test]
fn a_patch_that_breaks_the_syntax_is_refused_with_the_parsers_line() {
    let vault = Vault::new();
    vault.write("m.py", "def a():\n    return 1\n");
    let before = vault.snapshot();
    let err = vault.err(
        "ApplyPatch",
        json!({"patch": "*** Begin Patch\n*** Update File: m.py\n@@\n-    return 1\n+    return (1\n*** End Patch"}),
    );
    assert!(err["message"].as_str().unwrap().contains("syntax"), "{err}");
    assert_eq!(err["syntaxError"]["line"], 2);
    assert_eq!(vault.snapshot(), before);
}

#[test]
fn paths_outside_the_roots_and_unreadable_patches_are_refused() {
    let vault = Vault::new();
    let before = vault.snapshot();
    let err = vault.err(
        "ApplyPatch",
        json!({"patch": "*** Begin Patch\n*** Add File: ../outside.txt\n+x\n*** End Patch"}),
    );
    assert!(
        err["message"].as_str().unwrap().contains("../outside.txt"),
        "{err}"
    );
    let err = vault.err("ApplyPatch", json!({"patch": "please change line 3"}));
    assert!(
        err["message"]
            .as_str()
            .unwrap()
            .starts_with("The patch cannot be read"),
        "{err}"
    );
    let err = vault.err(
        "ApplyPatch",
        json!({"patch": "*** Begin Patch\n*** Add File: a.txt\n+x\n"}),
    );
    assert_eq!(err["patchLine"], 3);
    assert_eq!(vault.snapshot(), before);
}

#[test]
fn the_tool_is_off_unless_the_patch_toolset_is_on() {
    use mcp_server_text::tools::registry::Registry;
    use mcp_server_text::tools::tool::Toolset;
    let default = Registry::new(&Toolset::DEFAULT, false);
    assert!(default.get("ApplyPatch").is_none());
    assert!(
        Registry::new(&[Toolset::Patch], false)
            .get("ApplyPatch")
            .is_some()
    );
    assert!(
        Registry::new(&[Toolset::Patch], true)
            .get("ApplyPatch")
            .is_none()
    );
}

/// Inputs a careless or hostile client may send: each is refused with a
/// message that says what is wrong, and nothing changes, inside the root
/// or beside it.
#[test]
fn bad_patches_are_refused_and_write_nothing() {
    let vault = Vault::new();
    vault.write("app.py", "def f():\n    return 1\n");
    vault.write("other.py", "x = 1\n");
    std::fs::write(vault.outside().join("secret.txt"), "secret\n").unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(
        vault.outside().join("secret.txt"),
        vault.root.join("link.txt"),
    )
    .unwrap();
    let good = "*** Update File: app.py\n@@\n-    return 1\n+    return 2\n";
    let codex = |body: &str| format!("*** Begin Patch\n{good}{body}*** End Patch\n");
    let many: String = (0..2001)
        .map(|i| format!("*** Add File: gen/f{i}.txt\n+x\n"))
        .collect();
    let cases: Vec<(String, &str)> = vec![
        (
            codex("*** Update File: link.txt\n@@\n-secret\n+pwned\n"),
            "goes through a symbolic link that leads outside",
        ),
        (codex("*** Add File: other.py\n+y\n"), "already exists"),
        (codex("*** Delete File: nope.py\n"), "does not exist"),
        (
            codex("*** Update File: other.py\n*** Move to: app.py\n@@\n-x = 1\n+x = 2\n"),
            "names app.py in two places",
        ),
        (
            codex("*** Update File: other.py\n@@\n x = 1\n"),
            "changes nothing: all its lines are context lines",
        ),
        (
            "--- a/app.py\n+++ b/app.py\n@@ -1,2 +1,2 @@\n def f():\n-    return 1\n+    return 2\n--- a/other.py\n+++ b/other.py\n@@ -1,3 +1,1 @@\n-x = 1\n".to_string(),
            "it seems cut short",
        ),
        (
            "diff --git a/app.py b/app.py\nindex 1..2 100644\nBinary files a/app.py and b/app.py differ\n".to_string(),
            "binary patch",
        ),
        ("*** Begin Patch\n*** End Patch\n".to_string(), "changes no file"),
        (
            codex("*** Update Fil: other.py\n@@\n-x = 1\n+x = 2\n"),
            "is not a file header",
        ),
        (codex(&many), "takes at most 2000"),
    ];
    let before = vault.snapshot();
    for (patch, says) in cases {
        let err = vault.err("ApplyPatch", json!({ "patch": patch }));
        let message = err["message"].as_str().unwrap();
        assert!(message.contains(says), "{says}: {message}");
        assert!(message.contains("othing was written"), "{message}");
        assert!(!err["suggestions"].as_array().unwrap().is_empty(), "{err}");
        assert_eq!(vault.snapshot(), before, "{says}");
    }
}
