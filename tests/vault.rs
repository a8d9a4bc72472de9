//! The vault tools in process: Properties on YAML and TOML, Tags on one
//! note, TextSearch's tag and property filters, block targets and block ids,
//! TextInspect's document map, Backlinks' unlinked mentions, and links
//! written in the style of `.obsidian/app.json`.

mod support;

use serde_json::{Value, json};
use support::Vault;

#[test]
fn properties_create_toml_and_refusals() {
    let v = Vault::new();
    v.write("a.md", "# A\r\n\r\nText.\r\n");
    let out = v.ok(
        "Properties",
        json!({"filePath": "a.md", "set": {"status": "draft", "tags": ["x", "y z"]}}),
    );
    assert_eq!(out["changed"], json!(["status", "tags"]));
    assert!(out["note"].as_str().unwrap().contains("no frontmatter"));
    assert_eq!(
        v.read_string("a.md"),
        "---\r\nstatus: draft\r\ntags:\r\n  - x\r\n  - y z\r\n---\r\n# A\r\n\r\nText.\r\n"
    );
    let dry = v.ok(
        "Properties",
        json!({"filePath": "a.md", "delete": ["tags"], "dryRun": true}),
    );
    assert!(dry["diff"].as_str().unwrap().contains("-  - y z"), "{dry}");
    assert_eq!(dry["dryRun"], true);

    v.write(
        "t.md",
        "+++\ntitle = \"T\"  # kept\ndate = 2026-05-01\n+++\nbody\n",
    );
    let read = v.ok("Properties", json!({"filePath": "t.md"}));
    assert_eq!(
        read["properties"],
        json!({"title": "T", "date": "2026-05-01"})
    );
    v.ok(
        "Properties",
        json!({"filePath": "t.md", "set": {"title": "New", "n": 2}}),
    );
    assert_eq!(
        v.read_string("t.md"),
        "+++\ntitle = \"New\"  # kept\ndate = 2026-05-01\nn = 2\n+++\nbody\n"
    );
    let err = v.err(
        "Properties",
        json!({"filePath": "t.md", "set": {"title": null}}),
    );
    assert!(
        err["message"]
            .as_str()
            .unwrap()
            .contains("TOML has no null"),
        "{err}"
    );

    let both = v.err(
        "Properties",
        json!({"filePath": "a.md", "set": {"a": 1}, "delete": ["a"]}),
    );
    assert_eq!(
        both["message"],
        "'a' is both set and deleted; nothing was written"
    );
    v.write("c.txt", "x");
    let not_md = v.err("Properties", json!({"filePath": "c.txt"}));
    assert!(
        not_md["message"]
            .as_str()
            .unwrap()
            .contains("not a Markdown note")
    );
}

#[test]
fn tags_on_one_note() {
    let v = Vault::new();
    v.write("n.md", "---\ntags: [a]\n---\nText #b, #c/d and `#code`.\n");
    let listed = v.ok("Tags", json!({"filePath": "n.md"}));
    assert_eq!(
        listed["tags"],
        json!([
            {"tag": "a", "count": 1, "lines": [2]},
            {"tag": "b", "count": 1, "lines": [4]},
            {"tag": "c/d", "count": 1, "lines": [4]}
        ])
    );
    let added = v.ok("Tags", json!({"filePath": "n.md", "add": ["#new", "a"]}));
    assert_eq!(added["changed"], 1);
    assert_eq!(
        v.read_string("n.md"),
        "---\ntags: [a, new]\n---\nText #b, #c/d and `#code`.\n"
    );
    v.ok(
        "Tags",
        json!({"filePath": "n.md", "remove": ["b", "a"], "inline": true}),
    );
    assert_eq!(
        v.read_string("n.md"),
        "---\ntags: [new]\n---\nText, #c/d and `#code`.\n"
    );
    let bad = v.err("Tags", json!({"filePath": "n.md", "add": ["12"]}));
    assert!(
        bad["message"]
            .as_str()
            .unwrap()
            .contains("is not a tag name")
    );
    let two = v.err("Tags", json!({"add": ["x"], "remove": ["y"]}));
    assert!(
        two["message"]
            .as_str()
            .unwrap()
            .contains("one call does one of them")
    );
}

#[test]
fn search_filters_by_tag_and_property() {
    let v = Vault::new();
    v.write(
        "a.md",
        "---\nstatus: draft\ntags: [project/alpha]\n---\nTODO one\n",
    );
    v.write(
        "b.md",
        "---\nstatus: done\n---\nTODO two #project/alpha/x\n",
    );
    v.write("c.md", "TODO three #other\n");
    v.write("d.txt", "TODO four\n");
    let names = |out: &serde_json::Value| -> Vec<String> {
        out["files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                f["filePath"]
                    .as_str()
                    .unwrap()
                    .rsplit('/')
                    .next()
                    .unwrap()
                    .to_string()
            })
            .collect()
    };
    let tagged = v.ok("TextSearch", json!({"query": "TODO", "tag": "project"}));
    assert_eq!(names(&tagged), ["a.md", "b.md"]);
    assert_eq!(tagged["filesSearched"], 2);
    let drafts = v.ok(
        "TextSearch",
        json!({"query": "TODO", "property": {"status": "Draft"}}),
    );
    assert_eq!(names(&drafts), ["a.md"]);
    let both = v.ok(
        "TextSearch",
        json!({"query": "TODO", "tag": "project/alpha/x", "property": {"status": null}}),
    );
    assert_eq!(names(&both), ["b.md"]);
    let one = v.ok(
        "TextSearch",
        json!({"query": "TODO", "filePath": "c.md", "tag": "project"}),
    );
    assert_eq!(one["totalMatches"], 0);
}

#[test]
fn blocks_are_targets_and_paragraphs_get_ids() {
    let v = Vault::new();
    let text = "# Plan\n\nDig the beds\nbefore May.\n\n- [ ] Mulch ^mulch\n- [ ] Water\n";
    v.write("p.md", text);
    let read = v.ok(
        "TextRead",
        json!({"filePath": "p.md", "target": {"block": "^mulch"}}),
    );
    assert_eq!(read["content"], "- [ ] Mulch ^mulch");
    let missing = v.err(
        "TextRead",
        json!({"filePath": "p.md", "target": {"block": "nope"}}),
    );
    assert!(
        missing["message"]
            .as_str()
            .unwrap()
            .contains("block '^nope' was not found; the file's block ids: ^mulch"),
        "{missing}"
    );

    let id = v.ok(
        "TextPatch",
        json!({"filePath": "p.md", "operation": "blockId", "target": {"lines": {"start": 3}}}),
    );
    let new_id = id["blockId"].as_str().unwrap().to_string();
    assert_eq!(new_id.len(), 6);
    assert_eq!(
        v.read_string("p.md"),
        text.replace("before May.\n", &format!("before May. ^{new_id}\n"))
    );
    let again = v.ok(
        "TextPatch",
        json!({"filePath": "p.md", "operation": "blockId", "target": {"lines": {"start": 4}}}),
    );
    assert_eq!(again["blockId"], new_id.as_str());
    assert_eq!(again["linesDelta"], 0);
    assert_eq!(again["affectedLines"], json!({"start": 4, "end": 4}));
    assert_eq!(id["affectedLines"], json!({"start": 4, "end": 4}));
    let anchor = v.err(
        "TextRead",
        json!({"filePath": "p.md", "target": {"anchor": "#^mulch"}}),
    );
    assert_eq!(
        anchor["suggestions"][0],
        "'^mulch' is a block id, not an anchor: use target {\"block\": \"^mulch\"}",
        "{anchor}"
    );

    v.ok(
        "TextPatch",
        json!({"filePath": "p.md", "operation": "replace", "target": {"block": "mulch"}, "content": "- [x] Mulch"}),
    );
    assert!(v.read_string("p.md").contains("- [x] Mulch ^mulch\n"));
    v.ok(
        "TextPatch",
        json!({"filePath": "p.md", "operation": "insert", "target": {"block": "mulch"}, "content": "- [ ] Weed"}),
    );
    assert!(
        v.read_string("p.md")
            .ends_with("- [x] Mulch ^mulch\n- [ ] Weed\n- [ ] Water\n")
    );
    let named = v.ok(
        "TextPatch",
        json!({"filePath": "p.md", "operation": "blockId", "target": {"lines": {"start": 8}}, "content": "^water"}),
    );
    assert_eq!(named["blockId"], "water");
    let heading = v.err(
        "TextPatch",
        json!({"filePath": "p.md", "operation": "blockId", "target": {"lines": {"start": 1}}}),
    );
    assert!(
        heading["message"]
            .as_str()
            .unwrap()
            .contains("is not in a paragraph or list item")
    );
}

#[test]
fn the_document_map_lists_properties_blocks_and_tags() {
    let v = Vault::new();
    v.write(
        "m.md",
        "---\nstatus: draft\naliases:\n  - M\n---\n# M #top\n\nText ^one\n",
    );
    let out = v.ok("TextInspect", json!({"filePath": "m.md"}));
    let s = &out["structure"];
    assert_eq!(
        s["frontmatter"],
        json!({"kind": "yaml", "startLine": 1, "endLine": 5, "properties": [
            {"key": "status", "value": "draft", "line": 2},
            {"key": "aliases", "value": ["M"], "line": 3, "endLine": 4}
        ]})
    );
    assert_eq!(
        s["blocks"],
        json!([{"id": "one", "startLine": 8, "endLine": 8}])
    );
    assert_eq!(s["tags"], json!([{"tag": "top", "line": 6}]));

    // A block the parser refuses still places its keys, never on line 0.
    v.write("b.md", "---\nstatus: [draft\n\"title\": x\n---\nBody\n");
    let out = v.ok("TextInspect", json!({"filePath": "b.md"}));
    let fm = &out["structure"]["frontmatter"];
    assert_eq!(
        fm["properties"],
        json!([{"key": "status", "line": 2}, {"key": "title", "line": 3}]),
        "{fm}"
    );
    assert!(fm["error"].as_str().unwrap().contains("does not parse"));
}

#[test]
fn backlinks_with_unlinked_mentions_and_aliases() {
    let v = Vault::new();
    v.write("garden.md", "---\naliases: [Veg patch]\n---\n# Garden\n");
    v.write(
        "a.md",
        "The garden grows. [[garden]] and [[Veg patch|veg]].\n\nThe veg patch, `garden` in code.\n",
    );
    v.write("b.md", "Gardening is not the garden note? gardens\n");
    let out = v.ok(
        "Backlinks",
        json!({"filePath": "garden.md", "unlinked": true}),
    );
    assert_eq!(out["count"], 2);
    assert_eq!(out["backlinks"][1]["kind"], "alias");
    let mentions: Vec<(String, u64, String)> = out["unlinked"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["filePath"]
                    .as_str()
                    .unwrap()
                    .rsplit('/')
                    .next()
                    .unwrap()
                    .to_string(),
                m["line"].as_u64().unwrap(),
                m["link"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        mentions,
        [
            ("a.md".to_string(), 1, "[[garden]]".to_string()),
            ("a.md".to_string(), 3, "[[garden]]".to_string()),
            ("b.md".to_string(), 1, "[[garden]]".to_string()),
        ]
    );
}

#[test]
fn links_follow_the_vaults_app_json() {
    let v = Vault::new();
    v.write(
        ".obsidian/app.json",
        r#"{"newLinkFormat": "absolute", "useMarkdownLinks": true}"#,
    );
    v.write(
        "notes/a.md",
        "See [[garden]], [[projects/garden]] and [g](../projects/garden.md).\n",
    );
    v.write("projects/garden.md", "# Garden\n");
    v.ok(
        "Move",
        json!({"sourcePath": "projects/garden.md", "destinationPath": "old/garden.md"}),
    );
    assert_eq!(
        v.read_string("notes/a.md"),
        "See [[garden]], [[old/garden]] and [g](/old/garden.md).\n"
    );
    v.write("notes/b.md", "The garden.\n");
    let out = v.ok(
        "Backlinks",
        json!({"filePath": "old/garden.md", "unlinked": true}),
    );
    assert_eq!(out["unlinked"][0]["link"], "[garden](/old/garden.md)");
    assert_eq!(v.ok("CheckLinks", json!({}))["brokenCount"], 0);
}

#[test]
fn a_rename_skips_a_note_whose_frontmatter_does_not_parse() {
    let v = Vault::new();
    v.write(
        "good.md",
        "---\ntags: [project/alpha]\n---\nText #project/alpha\n",
    );
    let broken = "---\ntags: [project/alpha\n---\nText #project/alpha\n";
    v.write("broken.md", broken);
    let out = v.ok(
        "Tags",
        json!({"rename": {"from": "project/alpha", "to": "project/beta"}}),
    );
    assert_eq!(out["changed"], 2);
    assert_eq!(
        v.read_string("good.md"),
        "---\ntags: [project/beta]\n---\nText #project/beta\n"
    );
    assert_eq!(v.read_string("broken.md"), broken);
    let skipped = &out["skipped"];
    assert_eq!(skipped.as_array().unwrap().len(), 1, "{out}");
    assert!(
        skipped[0]["filePath"]
            .as_str()
            .unwrap()
            .ends_with("broken.md")
    );
    assert!(skipped[0]["line"].as_u64().unwrap() >= 2, "{out}");
    // In one note, the same problem refuses the rename.
    let one = v.err(
        "Tags",
        json!({"filePath": "broken.md", "rename": {"from": "project/alpha", "to": "x"}}),
    );
    assert!(
        one["message"].as_str().unwrap().contains("does not parse"),
        "{one}"
    );
    assert_eq!(v.read_string("broken.md"), broken);
}

#[test]
fn backlinks_find_percent_encoded_markdown_links() {
    let v = Vault::new();
    v.write("my note.md", "# Mine\n");
    v.write("café.md", "# Café\n");
    v.write(
        "a.md",
        "[x](my%20note.md) [y](./my%20note.md#mine) [z](caf%C3%A9.md) [w](other.md)\n",
    );
    let out = v.ok("Backlinks", json!({"filePath": "my note.md"}));
    assert_eq!(out["count"], 2, "{out}");
    assert_eq!(out["backlinks"][0]["kind"], "inline");
    let out = v.ok("Backlinks", json!({"filePath": "café.md"}));
    assert_eq!(out["count"], 1, "{out}");
}

#[test]
fn search_filters_read_notes_only_and_compare_numbers_as_written() {
    let v = Vault::new();
    v.write("n.md", "---\npriority: 3\nrank: \"2\"\n---\nTODO #urgent\n");
    v.write("t.txt", "TODO #urgent\n");
    let files = |args: Value| -> Vec<String> {
        let out = v.ok("TextSearch", args);
        out["files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                r["filePath"]
                    .as_str()
                    .unwrap()
                    .rsplit('/')
                    .next()
                    .unwrap()
                    .to_string()
            })
            .collect()
    };
    assert_eq!(files(json!({"query": "TODO", "tag": "urgent"})), ["n.md"]);
    for property in [
        json!({"priority": 3}),
        json!({"priority": "3"}),
        json!({"rank": 2}),
        json!({"rank": "2"}),
    ] {
        assert_eq!(
            files(json!({"query": "TODO", "property": property})),
            ["n.md"],
            "{property}"
        );
    }
    assert!(files(json!({"query": "TODO", "property": {"priority": 4}})).is_empty());
    for tag in ["", "#", "12", "a b"] {
        let err = v.err("TextSearch", json!({"query": "TODO", "tag": tag}));
        assert!(
            err["message"].as_str().unwrap().contains("is not a tag"),
            "{tag}: {err}"
        );
    }
}

#[test]
fn a_link_is_no_unlinked_mention_on_any_line() {
    let v = Vault::new();
    v.write("garden.md", "# Garden\n");
    // ẞ lowercases to fewer bytes: the link must still hide the name.
    v.write(
        "a.md",
        "ẞ [[garden]] and [see](garden.md)\n\nİ the Garden, twice garden\n",
    );
    let out = v.ok(
        "Backlinks",
        json!({"filePath": "garden.md", "unlinked": true}),
    );
    let lines: Vec<u64> = out["unlinked"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["line"].as_u64().unwrap())
        .collect();
    assert_eq!(lines, [3], "{out}");
    assert_eq!(out["count"], 2);
}

#[test]
fn read_only_servers_read_properties_and_tags_and_refuse_their_writes() {
    use mcp_server_text::tools::registry::Registry;
    use mcp_server_text::tools::tool::Toolset;

    let mut v = Vault::new();
    v.registry = Registry::new(&Toolset::ALL, true);
    let text = "---\nstatus: draft\ntags: [a]\n---\nText #b\n";
    v.write("n.md", text);
    let read = v.ok("Properties", json!({"filePath": "n.md"}));
    assert_eq!(read["properties"]["status"], "draft");
    let tags = v.ok("Tags", json!({}));
    assert_eq!(tags["tags"].as_array().unwrap().len(), 2);
    for (tool, args) in [
        (
            "Properties",
            json!({"filePath": "n.md", "set": {"status": "done"}}),
        ),
        (
            "Properties",
            json!({"filePath": "n.md", "delete": ["status"]}),
        ),
        ("Tags", json!({"filePath": "n.md", "add": ["c"]})),
        ("Tags", json!({"rename": {"from": "a", "to": "z"}})),
    ] {
        let err = v.err(tool, args);
        assert!(
            err["message"].as_str().unwrap().contains("--read-only"),
            "{err}"
        );
    }
    assert_eq!(v.read_string("n.md"), text);
    assert!(v.registry.get("TextPatch").is_none());
    // The vault toolset holds Properties and Tags; block targets live in
    // TextRead and TextPatch, and Backlinks is in links.
    let vault = Registry::new(&[Toolset::Vault], false);
    assert_eq!(vault.names(), ["Properties", "Tags"]);
    let links = Registry::new(&[Toolset::Links], false);
    assert!(links.names().contains(&"Backlinks"));

    // Without the vault toolset, block targets and blockId are refused.
    use mcp_server_text::tools::context::{Settings, ToolContext};
    let text_only = Registry::new(&[Toolset::Text], false);
    v.ctx = ToolContext::new(
        v.ctx.workspace.clone(),
        std::sync::Arc::new(Settings {
            enabled_tools: text_only.names(),
            ..Settings::default()
        }),
    );
    v.registry = text_only;
    v.write("b.md", "Para ^p\n");
    for (tool, args) in [
        (
            "TextRead",
            json!({"filePath": "b.md", "target": {"block": "^p"}}),
        ),
        (
            "TextPatch",
            json!({"filePath": "b.md", "operation": "delete", "target": {"block": "^p"}}),
        ),
        (
            "TextPatch",
            json!({"filePath": "b.md", "operation": "blockId", "target": {"lines": {"start": 1}}}),
        ),
    ] {
        let err = v.err(tool, args);
        assert!(
            err["message"].as_str().unwrap().contains("'vault' toolset"),
            "{err}"
        );
    }
    assert_eq!(v.read_string("b.md"), "Para ^p\n");
}
