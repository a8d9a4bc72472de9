//! Markdown links end to end: TextInspect's list of a file's links with
//! their status, and CheckLinks over a root, a folder, a glob and one file.

mod support;

use serde_json::{Value, json};
use support::Vault;

const GARDEN: &str = "\
# Garden project

## Plan {#plan}

### Beds

## Tasks

- [ ] Mulch bed B ^mulch
";

/// A small vault whose notes link to each other, some links broken.
fn vault() -> Vault {
    let v = Vault::new();
    v.write("projects/garden.md", GARDEN);
    v.write("img/bed plan.png", [0x89, b'P', b'N', b'G', 0, 1]);
    v.write(
        "notes/today.md",
        "\
---
related: \"[x](nowhere.md)\"
---
# Today

- [garden](../projects/garden.md), its [tasks](../projects/garden.md#tasks) and [taks](../projects/garden.md#taks)
- [[garden]], [[garden#Tasks|tasks]], [[garden#^mulch]], [[gardn]]
- ![plan](../img/bed%20plan.png) and ![[bed plan.png]]
- [old][old] and <https://example.com>
- `[not](a-link.md)`

[old]: ../projects/old-garden.md
",
    );
    v.write(
        "README.md",
        "# Vault\n\nSee [today](notes/today.md) and [missing](notes/yesterday.md).\n",
    );
    v.write(".hidden/skip.md", "[broken](nope.md)\n");
    v
}

fn broken_summary(result: &Value) -> Vec<(String, u64, String, String)> {
    result["broken"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            let path = b["filePath"].as_str().unwrap();
            let name = path.rsplit("vault/").next().unwrap().to_string();
            (
                name,
                b["line"].as_u64().unwrap(),
                b["target"].as_str().unwrap().to_string(),
                b["reason"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn inspect_lists_links_with_their_status() {
    let v = vault();
    let result = v.ok("TextInspect", json!({"filePath": "notes/today.md"}));
    let links = result["structure"]["links"].as_array().unwrap();
    let brief: Vec<(u64, &str, &str, Option<bool>)> = links
        .iter()
        .map(|l| {
            (
                l["line"].as_u64().unwrap(),
                l["kind"].as_str().unwrap(),
                l["target"].as_str().unwrap(),
                l["exists"].as_bool(),
            )
        })
        .collect();
    assert_eq!(
        brief,
        [
            (6, "inline", "../projects/garden.md", Some(true)),
            (6, "inline", "../projects/garden.md#tasks", Some(true)),
            (6, "inline", "../projects/garden.md#taks", Some(false)),
            (7, "wikilink", "garden", Some(true)),
            (7, "wikilink", "garden#Tasks", Some(true)),
            (7, "wikilink", "garden#^mulch", Some(true)),
            (7, "wikilink", "gardn", Some(false)),
            (8, "image", "../img/bed%20plan.png", Some(true)),
            (8, "embed", "bed plan.png", Some(true)),
            (9, "reference", "../projects/old-garden.md", Some(false)),
            (9, "autolink", "https://example.com", None),
            (12, "definition", "../projects/old-garden.md", Some(false)),
        ]
    );
    assert_eq!(links[1]["resolvedPath"], "projects/garden.md");
    assert_eq!(links[1]["targetLine"], 7);
    assert_eq!(
        links[2]["reason"],
        "no heading 'taks' in projects/garden.md"
    );
    assert_eq!(
        links[2]["suggestion"],
        "Nearest heading: '## Tasks' (line 7)"
    );
    assert_eq!(links[6]["suggestion"], "Did you mean [[garden]]?");
    assert_eq!(links[10]["internal"], false);
    assert!(links[10].get("exists").is_none());
}

#[test]
fn check_links_across_the_root() {
    let v = vault();
    let result = v.ok("CheckLinks", json!({}));
    assert_eq!(result["filesChecked"], 3);
    assert_eq!(result["brokenCount"], 4);
    assert_eq!(result["externalLinks"], 1);
    assert_eq!(result["linksChecked"], 12);
    assert_eq!(result["truncated"], false);
    assert_eq!(
        broken_summary(&result),
        [
            (
                "README.md".into(),
                3,
                "notes/yesterday.md".into(),
                "no file notes/yesterday.md".into()
            ),
            (
                "notes/today.md".into(),
                6,
                "../projects/garden.md#taks".into(),
                "no heading 'taks' in projects/garden.md".into()
            ),
            (
                "notes/today.md".into(),
                7,
                "gardn".into(),
                "no note named 'gardn'".into()
            ),
            (
                "notes/today.md".into(),
                12,
                "../projects/old-garden.md".into(),
                "no file projects/old-garden.md".into()
            ),
        ]
    );
}

#[test]
fn check_links_in_a_folder_a_glob_and_one_file() {
    let v = vault();
    let folder = v.ok("CheckLinks", json!({"directoryPath": "notes"}));
    assert_eq!(folder["filesChecked"], 1);
    assert_eq!(folder["brokenCount"], 3);
    let glob = v.ok("CheckLinks", json!({"filePattern": "README.md"}));
    assert_eq!(glob["filesChecked"], 1);
    assert_eq!(broken_summary(&glob).len(), 1);
    let one = v.ok(
        "CheckLinks",
        json!({"filePath": "notes/today.md", "maxResults": 2}),
    );
    assert_eq!(one["brokenCount"], 3);
    assert_eq!(one["broken"].as_array().unwrap().len(), 2);
    assert_eq!(one["truncated"], true);
    assert!(
        one["note"]
            .as_str()
            .unwrap()
            .starts_with("Showing 2 of 3 broken links")
    );
    // A hidden file is not walked, but can be checked by name.
    let hidden = v.ok("CheckLinks", json!({"filePath": ".hidden/skip.md"}));
    assert_eq!(hidden["brokenCount"], 1);
}

#[test]
fn check_links_refusals_change_nothing() {
    let v = vault();
    let err = v.err(
        "CheckLinks",
        json!({"filePath": "README.md", "directoryPath": "notes"}),
    );
    assert_eq!(
        err["message"],
        "filePath and directoryPath were both given, but a check covers either one file or one folder"
    );
    v.write("notes.txt", "[a](b.md)\n");
    let before = v.snapshot();
    let err = v.err("CheckLinks", json!({"filePath": "notes.txt"}));
    assert!(
        err["message"]
            .as_str()
            .unwrap()
            .contains("checks the links of Markdown files"),
        "{err}"
    );
    let err = v.err("CheckLinks", json!({"directoryPath": "README.md"}));
    assert_eq!(
        err["message"],
        "directoryPath 'README.md' is a file, not a folder"
    );
    let err = v.err("CheckLinks", json!({"maxResults": 0}));
    assert!(
        err["message"]
            .as_str()
            .unwrap()
            .starts_with("maxResults 0 is out of range")
    );
    let err = v.err("CheckLinks", json!({"filePattern": "[oops"}));
    assert!(
        err["message"]
            .as_str()
            .unwrap()
            .contains("is not a valid glob")
    );
    assert_eq!(v.snapshot(), before);
}

#[test]
fn a_link_may_not_leave_its_root() {
    let v = vault();
    let other = v.add_root("other");
    std::fs::write(other.join("x.md"), "# X\n").unwrap();
    v.write("escape.md", "[out](../other/x.md) [up](../../etc/passwd)\n");
    let result = v.ok("CheckLinks", json!({"filePath": "escape.md"}));
    assert_eq!(
        broken_summary(&result)
            .into_iter()
            .map(|b| b.3)
            .collect::<Vec<_>>(),
        [
            "'../other/x.md' leads outside the root folder",
            "'../../etc/passwd' leads outside the root folder"
        ]
    );
}

#[test]
fn many_links_are_listed_up_to_the_cap() {
    let v = Vault::new();
    let mut text = String::from("# Many\n\n");
    for i in 0..1500 {
        text.push_str(&format!("[n{i}](#many) "));
    }
    text.push('\n');
    v.write("many.md", &text);
    let result = v.ok("TextInspect", json!({"filePath": "many.md"}));
    assert_eq!(result["structure"]["links"].as_array().unwrap().len(), 1000);
    assert_eq!(result["structure"]["counts"]["links"], 1500);
    assert!(
        result["note"]
            .as_str()
            .unwrap()
            .contains("only the links listed were checked")
    );
    let check = v.ok("CheckLinks", json!({"filePath": "many.md"}));
    assert_eq!(check["linksChecked"], 1500);
    assert_eq!(check["brokenCount"], 0);
}

/// Copies the folder `from` into `to`.
fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// Every file under `dir`, relative to it, `/`-separated.
fn relative_files(dir: &std::path::Path, base: &std::path::Path, out: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            relative_files(&path, base, out);
        } else {
            let rel = path.strip_prefix(base).unwrap();
            out.push(rel.to_string_lossy().replace('\\', "/"));
        }
    }
}

/// The example vault's acceptance scenario, done with the text core's
/// rewrite functions (the link-keeping Move is built on them): moving
/// `projects/garden.md` to `archive/garden.md` leaves no broken link.
#[test]
fn the_example_vault_keeps_its_links_when_the_garden_note_moves() {
    use mcp_server_text::text::document::Document;
    use mcp_server_text::text::lines::LineIndex;
    use mcp_server_text::text::markdown::{PathMove, VaultIndex, moved_path, rewrite_links};

    let example = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("example-vault");
    let v = Vault::new();
    copy_dir(&example, &v.root);
    assert_eq!(v.ok("CheckLinks", json!({}))["brokenCount"], 0);

    let mut files = Vec::new();
    relative_files(&v.root, &v.root, &mut files);
    let moves = [PathMove::new("projects/garden.md", "archive/garden.md")];
    let before = VaultIndex::new(files.clone());
    let after = VaultIndex::new(
        files
            .iter()
            .map(|f| moved_path(&moves, f).unwrap_or_else(|| f.clone())),
    );
    let mut changed = Vec::new();
    for file in files.iter().filter(|f| f.ends_with(".md")) {
        let doc = Document::decode(v.read(file), None).unwrap();
        let doc_after = moved_path(&moves, file).unwrap_or_else(|| file.clone());
        let index = LineIndex::new(doc.text());
        let rewrites = rewrite_links(
            doc.text(),
            &index,
            file,
            &doc_after,
            &moves,
            &before,
            &after,
        );
        if rewrites.is_empty() {
            continue;
        }
        changed.push(file.clone());
        let splices: Vec<_> = rewrites.into_iter().map(|r| r.splice).collect();
        v.write(file, doc.apply(&splices).unwrap().to_bytes());
    }
    std::fs::create_dir_all(v.root.join("archive")).unwrap();
    std::fs::rename(
        v.root.join("projects/garden.md"),
        v.root.join("archive/garden.md"),
    )
    .unwrap();
    changed.sort();
    assert_eq!(
        changed,
        ["README.md", "notes/2026-05-01.md", "notes/ideas.md"]
    );
    assert!(
        v.read_string("README.md")
            .contains("[`projects/garden.md`](archive/garden.md)")
    );
    let check = v.ok("CheckLinks", json!({}));
    assert_eq!(check["brokenCount"], 0, "{check:#}");
    assert_eq!(
        v.read_string("notes/ideas.md"),
        "# Ideas\n\n\
         - A fourth bed for herbs, next to the [three in the plan](../archive/garden.md#plan).\n\
         - Rain barrel for the [garden][garden].\n\
         - Compost bin: ask in the [[2026-05-01|daily log]] how much space is left.\n\n\
         [garden]: ../archive/garden.md \"Garden project\"\n\n\
         ## Related\n\n\
         - The [[Veg patch]] needs mulch before the herbs go in: [[garden#^tasks-1]].\n\
         - More beds would be #project/alpha/x, the second stage.\n"
    );
    let daily = v.read_string("notes/2026-05-01.md");
    assert!(daily.contains("[planting table](../archive/garden.md#beds)"));
    assert!(daily.contains("[[garden#Watering|watering]]"));
    assert!(daily.contains("Open tasks are in [[garden#Tasks]]; the whole project is [[garden]]."));
}

/// Without the rewrite the same move breaks links: the check above can fail.
#[test]
fn moving_the_garden_note_without_rewriting_breaks_links() {
    let example = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("example-vault");
    let v = Vault::new();
    copy_dir(&example, &v.root);
    std::fs::create_dir_all(v.root.join("archive")).unwrap();
    std::fs::rename(
        v.root.join("projects/garden.md"),
        v.root.join("archive/garden.md"),
    )
    .unwrap();
    let check = v.ok("CheckLinks", json!({}));
    assert_eq!(check["brokenCount"], 4, "{check:#}");
}
