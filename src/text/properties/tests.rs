use proptest::prelude::*;
use serde_json::{Value, json};

use super::*;

const NOTE: &str = "---\n\
# workflow fields\n\
status: draft  # set by hand\n\
tags: [project/alpha, veg]\n\
aliases:\n  - Veg patch\n  - 'Beds'\n\
date: 2026-05-01\n\
---\n\
# Garden\n";

fn set(text: &str, key: &str, value: Value) -> String {
    edit(text, &[Change::set(key, value)]).unwrap().apply(text)
}

#[test]
fn setting_a_key_changes_only_its_line() {
    assert_eq!(
        set(NOTE, "status", json!("done")),
        NOTE.replace("status: draft  #", "status: done  #")
    );
    assert_eq!(
        set(NOTE, "tags", json!(["project/beta", "veg"])),
        NOTE.replace("[project/alpha, veg]", "[project/beta, veg]")
    );
    assert_eq!(
        set(NOTE, "aliases", json!(["Beds", "it's"])),
        NOTE.replace("  - Veg patch\n  - 'Beds'\n", "  - Beds\n  - it's\n")
    );
    assert_eq!(
        set(NOTE, "date", json!("2026-06-01")),
        NOTE.replace("2026-05-01", "2026-06-01")
    );
}

#[test]
fn new_keys_go_last_and_lists_follow_the_file() {
    let out = set(NOTE, "related", json!(["a", "b"]));
    assert_eq!(
        out,
        NOTE.replace("date: 2026-05-01\n", "date: 2026-05-01\nrelated: [a, b]\n")
    );
    let block = "---\nx:\n    - 1\n---\n";
    assert_eq!(
        set(block, "more", json!(["a"])),
        "---\nx:\n    - 1\nmore:\n    - a\n---\n"
    );
}

#[test]
fn deleting_and_creating() {
    let out = edit(NOTE, &[Change::Delete("aliases".into())]).unwrap();
    assert_eq!(
        out.apply(NOTE),
        NOTE.replace("aliases:\n  - Veg patch\n  - 'Beds'\n", "")
    );
    let created = edit(
        "# Plain\r\nbody\r\n",
        &[Change::set("status", json!("draft"))],
    )
    .unwrap();
    assert!(created.created);
    assert_eq!(
        created.apply("# Plain\r\nbody\r\n"),
        "---\r\nstatus: draft\r\n---\r\n# Plain\r\nbody\r\n"
    );
    let none = edit(NOTE, &[Change::set("status", json!("draft"))]).unwrap();
    assert!(none.splices.is_empty() && none.changed.is_empty());
}

#[test]
fn crlf_blocks_keep_their_endings() {
    let text = NOTE.replace('\n', "\r\n");
    assert_eq!(
        set(&text, "status", json!("done")),
        text.replace("status: draft", "status: done")
    );
    assert_eq!(
        set(&text, "extra", json!(1)),
        text.replace("date: 2026-05-01\r\n", "date: 2026-05-01\r\nextra: 1\r\n")
    );
}

#[test]
fn values_and_lines_are_read() {
    let block = read(NOTE).unwrap().unwrap();
    let summary: Vec<(&str, usize, usize)> = block
        .entries
        .iter()
        .map(|p| (p.key.as_str(), p.line, p.last_line))
        .collect();
    assert_eq!(
        summary,
        [
            ("status", 3, 3),
            ("tags", 4, 4),
            ("aliases", 5, 7),
            ("date", 8, 8)
        ]
    );
    assert_eq!(block.get("aliases"), Some(&json!(["Veg patch", "Beds"])));
}

#[test]
fn invalid_yaml_is_refused_with_its_line() {
    let text = "---\na: 1\nb: [x\nc: 2\n---\nbody\n";
    match read(text).unwrap_err() {
        PropertyError::Invalid { line, .. } => assert!(line >= 3, "{line}"),
        other => panic!("{other:?}"),
    }
    assert!(edit(text, &[Change::set("a", json!(2))]).is_err());
    let twice = "---\na: 1\na: 2\n---\n";
    assert_eq!(
        edit(twice, &[Change::set("a", json!(3))]).unwrap_err(),
        PropertyError::Duplicate {
            key: "a".into(),
            lines: vec![2, 3]
        }
    );
}

#[test]
fn toml_frontmatter() {
    let text = "+++\ntitle = \"Garden\" # name\ntags = [\"a\", \"b\"]\ndate = 2026-05-01\n\n[extra]\nx = 1\n+++\nbody\n";
    let block = read(text).unwrap().unwrap();
    assert_eq!(block.kind, FrontmatterKind::Toml);
    assert_eq!(block.get("date"), Some(&json!("2026-05-01")));
    assert_eq!(block.get("extra"), Some(&json!({"x": 1})));
    assert_eq!(block.entry("tags").unwrap().line, 3);
    assert_eq!(
        set(text, "title", json!("Veg")),
        text.replace("\"Garden\"", "\"Veg\"")
    );
    let added = set(text, "status", json!("done"));
    assert!(
        added.contains("date = 2026-05-01\nstatus = \"done\"\n"),
        "{added}"
    );
    assert!(added.ends_with("[extra]\nx = 1\n+++\nbody\n"), "{added}");
    assert!(matches!(
        edit(text, &[Change::set("title", Value::Null)]),
        Err(PropertyError::Unwritable { .. })
    ));
    let bad = "+++\ntitle = \n+++\n";
    assert!(matches!(
        read(bad),
        Err(PropertyError::Invalid { line: 2, .. })
    ));
}

#[test]
fn a_quoted_value_keeps_its_trailing_comment() {
    let text = "---\ntitle: \"Old\"  # shown\nname: 'x' # kept\n---\n";
    assert_eq!(
        set(text, "title", json!("New")),
        "---\ntitle: \"New\"  # shown\nname: 'x' # kept\n---\n"
    );
    assert_eq!(
        set(text, "name", json!("y")),
        "---\ntitle: \"Old\"  # shown\nname: 'y' # kept\n---\n"
    );
}

#[test]
fn an_unchanged_toml_date_stays_a_date() {
    let text = "+++\ntitle = \"T\"\ndate = 2026-05-01\n+++\nbody\n";
    let out = edit(
        text,
        &[
            Change::set("title", json!("New")),
            Change::set("date", json!("2026-05-01")),
        ],
    )
    .unwrap();
    assert_eq!(
        out.apply(text),
        "+++\ntitle = \"New\"\ndate = 2026-05-01\n+++\nbody\n"
    );
    assert_eq!(
        set(text, "date", json!("2026-06-02")),
        "+++\ntitle = \"T\"\ndate = 2026-06-02\n+++\nbody\n"
    );
}

#[test]
fn an_unclosed_block_is_refused_not_doubled() {
    for text in [
        "---\nstatus: draft\n# Body\n",
        "+++\ntitle = 1\nbody\n",
        "---\r\n",
    ] {
        match edit(text, &[Change::set("status", json!("done"))]) {
            Err(PropertyError::Unclosed { line: 1, .. }) => {}
            other => panic!("{text:?}: {other:?}"),
        }
        assert!(matches!(
            read(text),
            Err(PropertyError::Unclosed { line: 1, .. })
        ));
    }
    // A thematic break further down is not a frontmatter.
    assert!(read("# T\n---\n").unwrap().is_none());
}

// --- property test: random frontmatter, one key set ---

/// A value as the generator writes it, and what it means.
fn written_value() -> impl Strategy<Value = (String, Value, bool)> {
    let word = prop::sample::select(vec!["draft", "done", "Garden project", "x-1", "veg/beds"]);
    prop_oneof![
        word.clone().prop_map(|w| (w.to_string(), json!(w), false)),
        (0i64..5000).prop_map(|n| (n.to_string(), json!(n), false)),
        any::<bool>().prop_map(|b| (b.to_string(), json!(b), false)),
        word.clone()
            .prop_map(|w| (format!("'{w}'"), json!(w), false)),
        prop::sample::select(vec!["a: b", "#x", "yes", "12"]).prop_map(|w| (
            format!("\"{w}\""),
            json!(w),
            false
        )),
        Just(("2026-05-01".to_string(), json!("2026-05-01"), false)),
        prop::collection::vec(word.clone(), 0..4).prop_map(|ws| (
            format!("[{}]", ws.join(", ")),
            json!(ws),
            false
        )),
        (
            prop::collection::vec(word, 1..4),
            prop::sample::select(vec!["", "  ", "    "])
        )
            .prop_map(|(ws, indent)| {
                let lines: String = ws.iter().map(|w| format!("\n{indent}- {w}")).collect();
                (lines, json!(ws), true)
            }),
        Just((String::new(), Value::Null, false)),
    ]
}

fn frontmatter_text() -> impl Strategy<Value = (String, Vec<(String, Value)>)> {
    let keys = prop::sample::subsequence(
        vec![
            "title",
            "status",
            "tags",
            "aliases",
            "date",
            "count",
            "x_y",
            "Mixed Case",
        ],
        1..8,
    )
    .prop_shuffle();
    keys.prop_flat_map(|keys| {
        let n = keys.len();
        (
            Just(keys),
            prop::collection::vec(written_value(), n),
            prop::collection::vec(any::<(bool, bool)>(), n),
        )
    })
    .prop_map(|(keys, values, comments)| {
        let mut text = String::from("---\n");
        let mut meaning = Vec::new();
        for ((key, (written, value, block)), (line_comment, end_comment)) in
            keys.iter().zip(values).zip(comments)
        {
            if line_comment {
                text.push_str("# about ");
                text.push_str(key);
                text.push('\n');
            }
            text.push_str(key);
            text.push(':');
            if !block && !written.is_empty() {
                text.push(' ');
            }
            text.push_str(&written);
            if end_comment && !block {
                text.push_str("  # note");
            }
            text.push('\n');
            meaning.push((key.to_string(), value));
        }
        text.push_str("---\n# Body\n\nText.\n");
        (text, meaning)
    })
}

fn new_value() -> impl Strategy<Value = Value> {
    let text = "[a-zA-Z0-9 :#,'\"\\-\\[\\]{}]{0,12}";
    prop_oneof![
        text.prop_map(Value::String),
        any::<i32>().prop_map(|n| json!(n)),
        any::<bool>().prop_map(Value::Bool),
        prop::collection::vec(text, 0..4).prop_map(|v| json!(v)),
        Just(Value::Null),
    ]
}

proptest! {
    #[test]
    fn setting_one_key_changes_only_its_lines(
        (text, meaning) in frontmatter_text(),
        pick in 0usize..10,
        value in new_value(),
    ) {
        let before = read(&text).unwrap().unwrap();
        let values: Vec<(String, Value)> =
            before.entries.iter().map(|p| (p.key.clone(), p.value.clone())).collect();
        prop_assert_eq!(&values, &meaning);
        let key = meaning.get(pick).map_or("added".to_string(), |(k, _)| k.clone());
        let out = set(&text, &key, value.clone());
        // A comment after a one-line value stays after the new one-line value.
        if let Some(p) = before.entry(&key)
            && p.line == p.last_line
            && text.lines().nth(p.line - 1).is_some_and(|l| l.ends_with("  # note"))
            && !matches!(value, Value::Array(ref items) if !items.is_empty())
        {
            prop_assert!(out.lines().nth(p.line - 1).is_some_and(|l| l.ends_with("  # note")), "{}", out);
        }
        let after = read(&out).unwrap().unwrap();
        prop_assert_eq!(after.get(&key), Some(&value));
        for (k, v) in &meaning {
            if *k != key {
                prop_assert_eq!(after.get(k), Some(v));
            }
        }
        let old: Vec<&str> = text.split_inclusive('\n').collect();
        let new: Vec<&str> = out.split_inclusive('\n').collect();
        let (first, last) = match before.entry(&key) {
            Some(p) => (p.line, p.last_line),
            None => (before.end_line, before.end_line - 1),
        };
        prop_assert_eq!(&old[..first - 1], &new[..first - 1]);
        let tail = old.len() - last;
        prop_assert_eq!(&old[last..], &new[new.len() - tail..]);
    }
}
