//! Links stay intact: Move rewrites them (the exact bytes of every file
//! after moving a note, a folder and a non-Markdown file, each link in its
//! own style; dry runs and `updateLinks: false` change nothing but what they
//! say; one undo takes the move and every rewrite back), and the reply of a
//! Markdown edit names the links into the file it broke, changing nothing.

mod support;

use std::io;

use mcp_server_text::workspace::commit::{BatchHook, BatchStep};
use serde_json::{Value, json};
use support::Vault;

const GARDEN: &str = "\
# Garden

Supplies: [inventory](../code/inventory.py), [plan](#plan), [[ideas]].

## Plan {#plan}
";

const IDEAS: &str = "\
# Ideas

- [three beds](../projects/garden.md#plan) and [[garden]], [[garden#Plan|the plan]]
- [root link](/projects/garden.md) and [[projects/garden]]
- [[ideas]] and [web](https://example.com/projects/garden.md)
";

fn vault() -> Vault {
    let v = Vault::new();
    v.write("projects/garden.md", GARDEN);
    v.write("notes/ideas.md", IDEAS);
    v.write("code/inventory.py", "print('beds')\n");
    v
}

fn updates(reply: &Value) -> Vec<(String, u64, String, String)> {
    reply["linksUpdated"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|u| {
                    let file = u["filePath"].as_str().unwrap();
                    let name = file.rsplit('/').next().unwrap().to_string();
                    (
                        name,
                        u["line"].as_u64().unwrap(),
                        u["before"].as_str().unwrap().to_string(),
                        u["after"].as_str().unwrap().to_string(),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

fn u(file: &str, line: u64, before: &str, after: &str) -> (String, u64, String, String) {
    (file.into(), line, before.into(), after.into())
}

#[test]
fn a_note_moved_deeper_keeps_its_links_and_the_links_to_it() {
    let v = vault();
    let reply = v.ok(
        "Move",
        json!({"sourcePath": "projects/garden.md", "destinationPath": "archive/2026/garden.md"}),
    );
    assert_eq!(
        v.read_string("archive/2026/garden.md"),
        GARDEN.replace("../code/inventory.py", "../../code/inventory.py")
    );
    // Paths follow the note in their own style; wikilinks by a unique name
    // stay as they are, a wikilink by path gets the new path.
    assert_eq!(
        v.read_string("notes/ideas.md"),
        "\
# Ideas

- [three beds](../archive/2026/garden.md#plan) and [[garden]], [[garden#Plan|the plan]]
- [root link](/archive/2026/garden.md) and [[archive/2026/garden]]
- [[ideas]] and [web](https://example.com/projects/garden.md)
"
    );
    assert_eq!(
        updates(&reply),
        [
            u(
                "ideas.md",
                3,
                "../projects/garden.md#plan",
                "../archive/2026/garden.md#plan"
            ),
            u(
                "ideas.md",
                4,
                "/projects/garden.md",
                "/archive/2026/garden.md"
            ),
            u("ideas.md", 4, "projects/garden", "archive/2026/garden"),
            u(
                "garden.md",
                3,
                "../code/inventory.py",
                "../../code/inventory.py"
            ),
        ]
    );
    assert!(!v.root.join("projects/garden.md").exists());
}

#[test]
fn a_folder_move_updates_links_into_it_and_out_of_it() {
    let v = vault();
    v.write(
        "projects/sub/beds.md",
        "[up](../garden.md) [out](../../notes/ideas.md)\n",
    );
    v.ok(
        "Move",
        json!({"sourcePath": "projects", "destinationPath": "archive/old-projects"}),
    );
    assert_eq!(
        v.read_string("archive/old-projects/garden.md"),
        GARDEN.replace("../code/inventory.py", "../../code/inventory.py")
    );
    // Inside the folder, links between its files stay as they were.
    assert_eq!(
        v.read_string("archive/old-projects/sub/beds.md"),
        "[up](../garden.md) [out](../../../notes/ideas.md)\n"
    );
    assert_eq!(
        v.read_string("notes/ideas.md"),
        IDEAS
            .replace("../projects/garden.md", "../archive/old-projects/garden.md")
            .replace("/projects/garden.md", "/archive/old-projects/garden.md")
            .replace("[[projects/garden]]", "[[archive/old-projects/garden]]")
            .replace(
                "https://example.com/archive/old-projects/garden.md",
                "https://example.com/projects/garden.md"
            )
    );
}

#[test]
fn a_dry_run_lists_the_rewrites_and_changes_nothing() {
    let v = vault();
    let before = v.snapshot();
    let reply = v.ok(
        "Move",
        json!({"sourcePath": "projects/garden.md", "destinationPath": "archive/garden.md",
               "dryRun": true}),
    );
    assert_eq!(reply["dryRun"], true);
    assert!(reply.get("changeId").is_none());
    assert_eq!(
        updates(&reply),
        [
            u(
                "ideas.md",
                3,
                "../projects/garden.md#plan",
                "../archive/garden.md#plan"
            ),
            u("ideas.md", 4, "/projects/garden.md", "/archive/garden.md"),
            u("ideas.md", 4, "projects/garden", "archive/garden"),
        ]
    );
    assert_eq!(v.snapshot(), before, "nothing written, no history");
}

#[test]
fn update_links_false_only_moves() {
    let v = vault();
    let reply = v.ok(
        "Move",
        json!({"sourcePath": "projects/garden.md", "destinationPath": "archive/2026/garden.md",
               "updateLinks": false}),
    );
    assert!(reply.get("linksUpdated").is_none());
    assert_eq!(v.read_string("archive/2026/garden.md"), GARDEN);
    assert_eq!(v.read_string("notes/ideas.md"), IDEAS);
}

#[test]
fn other_files_keep_their_links_only_when_asked() {
    let v = vault();
    v.ok(
        "Move",
        json!({"sourcePath": "code/inventory.py", "destinationPath": "scripts/inventory.py"}),
    );
    assert_eq!(v.read_string("projects/garden.md"), GARDEN);
    v.ok(
        "Move",
        json!({"sourcePath": "scripts/inventory.py", "destinationPath": "tools/inventory.py",
               "updateLinks": true}),
    );
    // The link was already broken by the first move, so it is left alone.
    assert_eq!(v.read_string("projects/garden.md"), GARDEN);
    v.ok(
        "Move",
        json!({"sourcePath": "tools/inventory.py", "destinationPath": "code/inventory.py",
               "updateLinks": false}),
    );
    let reply = v.ok(
        "Move",
        json!({"sourcePath": "code/inventory.py", "destinationPath": "tools/inventory.py",
               "updateLinks": true}),
    );
    assert_eq!(
        updates(&reply),
        [u(
            "garden.md",
            3,
            "../code/inventory.py",
            "../tools/inventory.py"
        )]
    );
    assert_eq!(
        v.read_string("projects/garden.md"),
        GARDEN.replace("../code/", "../tools/")
    );
}

#[test]
fn a_note_moved_next_to_a_wikilink_makes_other_wikilinks_precise() {
    let v = vault();
    // Before: [[garden]] finds projects/garden.md, the shorter path.
    v.write("archive/old/garden.md", "# Old garden\n");
    v.write("projects/beds.md", "[[garden]]\n");
    // In notes/, [[garden]] would then find notes/garden.md (same folder
    // wins): the links to projects/garden.md get the path that still finds it.
    let reply = v.ok(
        "Move",
        json!({"sourcePath": "archive/old/garden.md", "destinationPath": "notes/garden.md"}),
    );
    assert_eq!(updates(&reply).len(), 2, "{reply}");
    assert_eq!(v.read_string("projects/beds.md"), "[[garden]]\n");
    let ideas = v.read_string("notes/ideas.md");
    assert!(
        ideas.contains("[[projects/garden]], [[projects/garden#Plan|the plan]]"),
        "{ideas}"
    );
    assert!(
        ideas.contains("[[projects/garden]]\n- [[ideas]]"),
        "{ideas}"
    );
    let check = v.ok("CheckLinks", json!({}));
    assert_eq!(check["brokenCount"], 0, "{check}");
}

#[test]
fn crlf_and_bom_bytes_are_kept_around_the_rewritten_targets() {
    let v = vault();
    let crlf = "\u{feff}# Note\r\n\r\nSee [g](../projects/garden.md) and [[garden]].\r\n";
    v.write("notes/crlf.md", crlf);
    v.ok(
        "Move",
        json!({"sourcePath": "projects/garden.md", "destinationPath": "garden.md"}),
    );
    assert_eq!(
        v.read_string("notes/crlf.md"),
        crlf.replace("../projects/garden.md", "../garden.md")
    );
}

#[test]
fn one_undo_takes_back_the_move_and_every_rewrite() {
    let v = vault();
    v.write(
        "projects/sub/beds.md",
        "[up](../garden.md) [out](../../notes/ideas.md)\n",
    );
    let reply = v.ok(
        "Move",
        json!({"sourcePath": "projects", "destinationPath": "archive/x/projects"}),
    );
    let listed = v.ok("EditHistory", json!({}));
    let change = &listed["changes"][0];
    assert_eq!(change["changeId"], reply["changeId"]);
    assert_eq!(change["kind"], "move");
    let shown = |rel: &str| v.root.join(rel).display().to_string();
    assert_eq!(change["filePath"], shown("projects"));
    assert_eq!(change["destinationPath"], shown("archive/x/projects"));
    assert_eq!(
        change["files"],
        json!([
            shown("notes/ideas.md"),
            shown("projects/garden.md"),
            shown("projects/sub/beds.md"),
            shown("projects")
        ])
    );
    assert_eq!(change["canUndo"], true);
    v.ok("UndoEdit", json!({"changeId": reply["changeId"]}));
    assert_eq!(v.read_string("projects/garden.md"), GARDEN);
    assert_eq!(v.read_string("notes/ideas.md"), IDEAS);
    assert_eq!(
        v.read_string("projects/sub/beds.md"),
        "[up](../garden.md) [out](../../notes/ideas.md)\n"
    );
    assert!(!v.root.join("archive").exists());
}

#[test]
fn a_rewrite_that_cannot_be_written_leaves_everything_as_it_was() {
    let v = vault();
    v.write("notes/second.md", "[g](../projects/garden.md)\n");
    let before = v.snapshot_without_history();
    // The second file's rename fails after the first file was written.
    v.ctx
        .workspace
        .set_batch_hook(Some(BatchHook::new(|step| match step {
            BatchStep::Commit { index: 1, .. } => Err(io::Error::other("read-only file system")),
            _ => Ok(()),
        })));
    let err = v.err(
        "Move",
        json!({"sourcePath": "projects/garden.md", "destinationPath": "archive/garden.md"}),
    );
    assert!(
        err["message"]
            .as_str()
            .unwrap()
            .contains("read-only file system"),
        "{err}"
    );
    v.ctx.workspace.set_batch_hook(None);
    assert_eq!(
        v.snapshot_without_history(),
        before,
        "nothing moved, every file as it was"
    );
}

const LINKING: &str = "\
# Today

See [[garden#Plan]], [plan](../projects/garden.md#plan) and [[garden]].
";

#[test]
fn renaming_a_heading_notes_the_links_it_broke_and_changes_none() {
    let v = vault();
    v.write("notes/today.md", LINKING);
    v.write(
        "projects/garden.md",
        "# Garden\n\nSee [the plan](#plan-for-may).\n\n## Plan for May\n\ntext\n",
    );
    v.write(
        "notes/today.md",
        "[[garden#Plan for May]] and [p](../projects/garden.md#plan-for-may)\n",
    );
    let dry = v.ok(
        "TextPatch",
        json!({"filePath": "projects/garden.md", "operation": "replace",
               "target": {"heading": "## Plan for May"}, "content": "## Plan for June", "dryRun": true}),
    );
    let expected = "3 links into this file now point at a heading, anchor or block that is \
                    gone: notes/today.md line 1: 'garden#Plan for May' (now perhaps '#Plan for \
                    June'), notes/today.md line 1: '../projects/garden.md#plan-for-may' (now \
                    perhaps '#plan-for-june'), projects/garden.md line 3: '#plan-for-may' (now \
                    perhaps '#plan-for-june'). They were left as they are: update them (e.g. with \
                    TextReplace), or put the heading back (CheckLinks lists them)";
    assert_eq!(dry["note"], expected);
    let done = v.ok(
        "TextPatch",
        json!({"filePath": "projects/garden.md", "operation": "replace",
               "target": {"heading": "## Plan for May"}, "content": "## Plan for June"}),
    );
    assert_eq!(done["note"], expected);
    assert_eq!(
        v.read_string("notes/today.md"),
        "[[garden#Plan for May]] and [p](../projects/garden.md#plan-for-may)\n"
    );
    // An edit that leaves the headings alone notes nothing.
    let plain = v.ok(
        "TextReplace",
        json!({"filePath": "projects/garden.md", "oldText": "text", "newText": "words"}),
    );
    assert!(plain.get("note").is_none(), "{plain}");
}

#[test]
fn every_markdown_edit_tool_notes_the_links_it_broke() {
    let v = vault();
    v.write("notes/today.md", LINKING);
    let broke = |reply: &Value| {
        let note = reply["note"].as_str().unwrap_or_default().to_string();
        assert!(
            note.contains("notes/today.md line 3: 'garden#Plan'"),
            "{reply}"
        );
    };
    broke(&v.ok(
        "TextReplace",
        json!({"filePath": "projects/garden.md", "oldText": "## Plan {#plan}", "newText": "## Beds"}),
    ));
    v.write("projects/garden.md", GARDEN);
    let files = v.ok(
        "edit_code",
        json!({"file_path": "projects/garden.md", "search_context": "## Plan {#plan}",
               "new_content": "## Beds"}),
    );
    broke(&files);
    v.write("projects/garden.md", GARDEN);
    let deleted = v.ok(
        "delete_text_file_contents",
        json!({"file_path": "projects/garden.md", "file_hash": hash(&v), "ranges": [{"start": 5, "end": 5}]}),
    );
    broke(&deleted["projects/garden.md"]);
    assert_eq!(v.read_string("notes/today.md"), LINKING);
}

fn hash(v: &Vault) -> String {
    v.ok(
        "get_text_file_contents",
        json!({"files": [{"file_path": "projects/garden.md", "ranges": [{"start": 1}]}]}),
    )["projects/garden.md"]["file_hash"]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn a_move_to_another_root_says_its_links_were_not_updated() {
    let v = vault();
    let other = v.add_root("other");
    let reply = v.ok(
        "Move",
        json!({"sourcePath": "projects/garden.md",
               "destinationPath": other.join("garden.md").display().to_string()}),
    );
    assert!(reply.get("linksUpdated").is_none());
    assert!(
        reply["note"]
            .as_str()
            .unwrap()
            .starts_with("Links were not updated: links reach only inside their own root"),
        "{reply}"
    );
    assert_eq!(v.read_string("notes/ideas.md"), IDEAS);
    assert_eq!(
        std::fs::read_to_string(other.join("garden.md")).unwrap(),
        GARDEN
    );
}
