//! TextSearch on a small vault with the cases a search has to get right:
//! ignored, hidden, trashed, binary and unreadable files, CRLF line endings,
//! headings inside code fences, regexes, case folding and Unicode, globs,
//! output modes, truncation, context, errors, links and cancellation.
//!
//! Responses are compared with golden files in `tests/snapshots/`, with the
//! vault's absolute path replaced by `<vault>`.

mod support;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use serde_json::{Value, json};
use support::Vault;

const PLAN: &str = "\
---
title: Plan
---
# Plan

Intro with a TODO.

## Tasks

- todo: write the report
- Todo: call Ana

```sh
# todo: this is a comment, not a heading
make
```

### Later

Nothing todo here, todo there.
";

fn vault() -> Vault {
    let v = Vault::new();
    v.write(".gitignore", "ignored/\n*.draft.md\n");
    v.write("notes/plan.md", PLAN);
    v.write(
        "notes/windows.md",
        "# Windows\r\n\r\nA todo with CRLF\r\nlast line todo\r\n",
    );
    v.write(
        "notes/unicode.txt",
        "Straße and STRASSE\nÉCOLE\nune école\n",
    );
    v.write("notes/idea.draft.md", "todo in a draft\n");
    v.write("ignored/skip.md", "todo in an ignored folder\n");
    v.write(".hidden/secret.md", "todo in a hidden folder\n");
    v.write(".dotfile.md", "todo in a hidden file\n");
    v.write(".trash/old.md", "todo in the trash\n");
    v.write("assets/picture.png", "todo in a file with another ending\n");
    v.write(
        "assets/blob.txt",
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR todo\x00\x01",
    );
    v.write(
        "src/main.rs",
        "fn main() {\n    helper(1);\n}\n\nfn helper(n: u32) -> u32 {\n    n + 1 // todo\n}\n",
    );
    v
}

/// The response with the vault's path replaced by `<vault>`.
fn redacted(v: &Vault, value: Value) -> Value {
    let text = serde_json::to_string(&value).unwrap();
    let root = v.root.display().to_string();
    let outside = v.outside().display().to_string();
    let text = text
        .replace(&root, "<vault>")
        .replace(&outside, "<outside>");
    serde_json::from_str(&text).unwrap()
}

fn search(v: &Vault, args: Value) -> Value {
    redacted(v, v.ok("TextSearch", args))
}

fn refused(v: &Vault, args: Value) -> Value {
    redacted(v, v.err("TextSearch", args))
}

#[test]
fn literal_search_of_the_whole_vault() {
    let v = vault();
    insta::assert_json_snapshot!("whole_vault", search(&v, json!({"query": "todo"})));
}

#[test]
fn regex_with_captures() {
    let v = vault();
    insta::assert_json_snapshot!(
        "regex",
        search(
            &v,
            json!({"query": r"fn (\w+)\((\w*)", "regex": true, "contextLines": 0})
        )
    );
}

#[test]
fn case_folding_and_unicode() {
    let v = vault();
    let folded = search(&v, json!({"query": "école", "contextLines": 0}));
    let sharp_s = search(&v, json!({"query": "STRAẞE", "contextLines": 0}));
    let exact = search(
        &v,
        json!({"query": "ÉCOLE", "caseSensitive": true, "contextLines": 0}),
    );
    let no_full_folding = search(&v, json!({"query": "strasse", "filePattern": "*.txt"}));
    insta::assert_json_snapshot!(
        "unicode",
        json!({"folded": folded, "sharpS": sharp_s, "exact": exact, "noFullFolding": no_full_folding})
    );
}

#[test]
fn file_patterns_and_folders() {
    let v = vault();
    let md_under_notes = search(
        &v,
        json!({"query": "todo", "filePattern": "notes/**/*.md", "outputMode": "files_only"}),
    );
    let any_txt = search(
        &v,
        json!({"query": "e", "filePattern": "*.TXT", "outputMode": "files_only"}),
    );
    // The root's .gitignore still applies when the search starts in a subfolder.
    let in_notes = search(
        &v,
        json!({"query": "todo", "directoryPath": "notes", "outputMode": "files_only"}),
    );
    insta::assert_json_snapshot!(
        "file_patterns",
        json!({"mdUnderNotes": md_under_notes, "anyTxt": any_txt, "inNotes": in_notes})
    );
}

#[test]
fn files_only_truncation_and_context() {
    let v = vault();
    let files_only = search(&v, json!({"query": "todo", "outputMode": "files_only"}));
    let truncated = search(
        &v,
        json!({"query": "todo", "maxResults": 3, "contextLines": 0}),
    );
    let files_truncated = search(
        &v,
        json!({"query": "todo", "maxResults": 1, "outputMode": "files_only"}),
    );
    let wide_context = search(
        &v,
        json!({"query": "call ana", "contextLines": 3, "filePath": "notes/plan.md"}),
    );
    insta::assert_json_snapshot!(
        "modes",
        json!({
            "filesOnly": files_only,
            "truncated": truncated,
            "filesTruncated": files_truncated,
            "wideContext": wide_context,
        })
    );
}

#[test]
fn one_file_even_if_hidden() {
    let v = vault();
    let hidden = search(
        &v,
        json!({"query": "todo", "filePath": ".hidden/secret.md"}),
    );
    let binary = search(&v, json!({"query": "todo", "filePath": "assets/blob.txt"}));
    insta::assert_json_snapshot!("one_file", json!({"hidden": hidden, "binary": binary}));
}

#[test]
fn nothing_found_says_what_was_searched() {
    let v = vault();
    let none = search(&v, json!({"query": "todo|fixme"}));
    let no_files = search(&v, json!({"query": "todo", "filePattern": "*.pdf"}));
    insta::assert_json_snapshot!("nothing_found", json!({"none": none, "noFiles": no_files}));
}

#[test]
fn refusals() {
    let v = vault();
    std::fs::write(v.outside().join("outside.md"), "todo\n").unwrap();
    insta::assert_json_snapshot!(
        "refusals",
        json!({
            "emptyQuery": refused(&v, json!({"query": ""})),
            "invalidRegex": refused(&v, json!({"query": "(todo", "regex": true})),
            "lineBreak": refused(&v, json!({"query": "a\nb"})),
            "regexLineBreak": refused(&v, json!({"query": r"todo\nnext", "regex": true})),
            "badGlob": refused(&v, json!({"query": "x", "filePattern": "notes/[a-"})),
            "directoryIsAFile": refused(&v, json!({"query": "x", "directoryPath": "notes/plan.md"})),
            "fileAndDirectory": refused(&v, json!({"query": "x", "filePath": "notes/plan.md", "directoryPath": "notes"})),
            "fileAndPattern": refused(&v, json!({"query": "x", "filePath": "notes/plan.md", "filePattern": "*.md"})),
            "outside": refused(&v, json!({"query": "x", "directoryPath": ".."})),
            "tooMany": refused(&v, json!({"query": "x", "maxResults": 501})),
            "unknownParameter": refused(&v, json!({"query": "x", "path": "notes"})),
        })
    );
}

#[cfg(unix)]
#[test]
fn links_are_not_followed() {
    let v = Vault::new();
    v.write("inside.md", "todo inside\n");
    std::fs::create_dir_all(v.outside().join("elsewhere")).unwrap();
    std::fs::write(v.outside().join("elsewhere/secret.md"), "todo outside\n").unwrap();
    std::os::unix::fs::symlink(v.outside().join("elsewhere"), v.root.join("linked-dir")).unwrap();
    std::os::unix::fs::symlink(
        v.outside().join("elsewhere/secret.md"),
        v.root.join("linked.md"),
    )
    .unwrap();
    std::os::unix::fs::symlink(v.root.join("inside.md"), v.root.join("alias.md")).unwrap();
    let result = v.ok(
        "TextSearch",
        json!({"query": "todo", "outputMode": "files_only"}),
    );
    assert_eq!(result["totalMatches"], 1);
    assert_eq!(result["linksSkipped"], 3);
    assert_eq!(
        result["files"][0]["filePath"],
        v.root.join("inside.md").display().to_string()
    );
    // A link named explicitly is resolved, and refused when it leads outside.
    let err = v.err(
        "TextSearch",
        json!({"query": "todo", "filePath": "linked.md"}),
    );
    assert!(
        err["message"]
            .as_str()
            .unwrap()
            .contains("symbolic link that leads outside"),
        "{err}"
    );
}

#[cfg(unix)]
#[test]
fn unreadable_files_are_reported() {
    use std::os::unix::fs::PermissionsExt;
    let v = vault();
    let locked = v.write("notes/locked.md", "todo\n");
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    v.write("notes/latin1.txt", b"caf\xe9 todo\n");
    if std::fs::read(&locked).is_ok() {
        // Running with privileges that read anything: only the encoding case applies.
        let result = v.ok("TextSearch", json!({"query": "todo"}));
        assert_eq!(result["unreadable"]["count"], 1);
        return;
    }
    let result = search(&v, json!({"query": "todo", "outputMode": "files_only"}));
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o644)).unwrap();
    // Asserted here rather than in a golden file: only unprivileged runs get here.
    assert_eq!(
        result["unreadable"],
        json!({"count": 2, "examples": [
            {"filePath": "<vault>/notes/latin1.txt", "reason": "it is not valid UTF-8 (first invalid byte at offset 3, line 1); it is probably encoded as windows-1252"},
            {"filePath": "<vault>/notes/locked.md", "reason": "it could not be read: Permission denied (os error 13)"},
        ]})
    );
}

#[test]
fn encodings_and_too_large_files() {
    let options = mcp_server_text::workspace::WorkspaceOptions {
        max_file_size: 64,
        ..Default::default()
    };
    let v = Vault::with_options(options, Default::default());
    v.write("latin1.txt", b"caf\xe9 todo\n");
    v.write("big.md", format!("todo {}\n", "x".repeat(100)));
    let mut utf16 = vec![0xFF, 0xFE];
    for unit in "# Titre\nécole todo\n".encode_utf16() {
        utf16.extend(unit.to_le_bytes());
    }
    v.write("utf16.md", utf16);
    v.write("bom.md", "\u{feff}todo first\n");
    insta::assert_json_snapshot!(
        "encodings",
        search(&v, json!({"query": "todo", "contextLines": 0}))
    );
}

#[test]
fn long_lines_show_the_match() {
    let v = Vault::new();
    v.write(
        "minified.json",
        format!("{{\"a\": \"{}\", \"needle\": 1}}\n", "x".repeat(2000)),
    );
    let result = v.ok("TextSearch", json!({"query": "needle"}));
    let m = &result["files"][0]["matches"][0];
    assert_eq!(m["column"], 2012);
    let text = m["text"].as_str().unwrap();
    assert!(
        text.starts_with('…') && text.contains("\"needle\": 1}"),
        "{text}"
    );
    assert!(text.chars().count() <= 501);
}

#[test]
fn cancelled_search_returns_what_it_has() {
    let v = vault();
    let ctx = v
        .ctx
        .clone()
        .with_cancel_flag(Arc::new(AtomicBool::new(true)));
    let result = v
        .registry
        .call(&ctx, "TextSearch", json!({"query": "todo"}))
        .unwrap();
    assert_eq!(result["truncated"], true);
    assert!(
        result["note"]
            .as_str()
            .unwrap()
            .starts_with("The search was cancelled after"),
        "{result}"
    );
}

#[test]
fn progress_is_reported_on_long_searches() {
    let v = Vault::new();
    for i in 0..3000 {
        v.write(&format!("d{}/n{i}.md", i % 30), format!("note {i}\n"));
    }
    let reports = Arc::new(std::sync::Mutex::new(Vec::new()));
    let seen = reports.clone();
    let ctx = v
        .ctx
        .clone()
        .with_progress(Arc::new(move |done, _, message| {
            seen.lock().unwrap().push((done, message));
        }));
    let started = std::time::Instant::now();
    let result = v
        .registry
        .call(&ctx, "TextSearch", json!({"query": "note 2999"}))
        .unwrap();
    assert_eq!(result["filesSearched"], 3000);
    assert_eq!(result["totalMatches"], 1);
    let reports = reports.lock().unwrap();
    // At most one report per 100 ms, each counting up.
    let elapsed = started.elapsed().as_millis() as usize;
    assert!(
        reports.len() <= elapsed / 100 + 1,
        "{} reports in {elapsed} ms",
        reports.len()
    );
    assert!(reports.windows(2).all(|w| w[0].0 <= w[1].0));
    if let Some((_, message)) = reports.first() {
        assert!(
            message.ends_with("files searched for 'note 2999'"),
            "{message}"
        );
    }
}

#[test]
fn results_do_not_depend_on_thread_timing() {
    let v = Vault::new();
    for i in 0..200 {
        v.write(
            &format!("f{}/g{}/n{i}.md", i % 7, i % 3),
            format!("# N{i}\nkey {i}\nkey\n"),
        );
    }
    let first = v.ok("TextSearch", json!({"query": "key", "maxResults": 120}));
    for _ in 0..3 {
        assert_eq!(
            v.ok("TextSearch", json!({"query": "key", "maxResults": 120})),
            first
        );
    }
    let paths: Vec<&str> = first["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["filePath"].as_str().unwrap())
        .collect();
    let mut sorted = paths.clone();
    sorted.sort_by(|a, b| std::path::Path::new(a).cmp(std::path::Path::new(b)));
    assert_eq!(paths, sorted);
    assert_eq!(first["totalMatches"], 400);
}

#[test]
fn line_anchors_match_at_every_line_as_in_text_inspect() {
    let v = vault();
    v.write(
        "notes/anchors.md",
        "# Anchors\n\nends with todo\ntodo starts\r\nmiddle todo here\nlast todo",
    );
    for (query, lines) in [("todo$", vec![3, 6]), ("^todo", vec![4])] {
        let found = search(
            &v,
            json!({"query": query, "regex": true, "filePath": "notes/anchors.md"}),
        );
        let shown: Vec<u64> = found["files"][0]["matches"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["line"].as_u64().unwrap())
            .collect();
        assert_eq!(shown, lines, "{query}: {found:#}");
        let inspected = v.ok(
            "TextInspect",
            json!({"filePath": "notes/anchors.md", "mode": "search", "query": query, "regex": true}),
        );
        assert_eq!(inspected["totalMatches"], found["totalMatches"], "{query}");
        assert_eq!(
            found["files"][0]["matches"][0]["nearestHeading"]["text"],
            "Anchors"
        );
    }
}

#[test]
fn a_large_file_shows_the_same_matches_from_its_first_match_on() {
    let v = vault();
    let mut text = String::from("# Top\n\n");
    for i in 0..20_000 {
        text.push_str(&format!("line {i} of filler text\n"));
        if i == 10_000 {
            text.push_str("## Middle\n\n```\n# not a heading, but the needle is here\n```\n");
        }
    }
    text.push_str("\nLate\n----\n\nthe needle again\n");
    v.write("big.md", &text);
    let found = search(
        &v,
        json!({"query": "needle", "filePath": "big.md", "contextLines": 2}),
    );
    let matches = &found["files"][0]["matches"];
    assert_eq!(found["totalMatches"], 2);
    assert_eq!(matches[0]["line"], 10_007);
    assert_eq!(
        matches[0]["text"],
        "# not a heading, but the needle is here"
    );
    assert_eq!(matches[0]["context"]["before"], json!(["", "```"]));
    assert_eq!(
        matches[0]["context"]["after"],
        json!(["```", "line 10001 of filler text"])
    );
    assert_eq!(
        matches[0]["nearestHeading"],
        json!({"level": 2, "text": "Middle", "line": 10_004})
    );
    assert_eq!(matches[1]["line"], 20_012);
    assert_eq!(matches[1]["context"]["before"], json!(["----", ""]));
    assert_eq!(matches[1]["context"]["after"], json!([]));
    assert_eq!(
        matches[1]["nearestHeading"],
        json!({"level": 2, "text": "Late", "line": 20_009})
    );
}

#[test]
fn one_file_shows_the_same_matches_as_its_folder_search() {
    // A one-file search shows its matches from the text its count read;
    // a folder search reads each file again: both must agree on every
    // encoding, or lines and columns drift by a byte order mark.
    let v = vault();
    let mut bom = b"\xEF\xBB\xBF".to_vec();
    bom.extend_from_slice("# Títle\n\nA todo here\n".as_bytes());
    v.write("enc/bom.md", bom);
    let mut utf16 = vec![0xFF, 0xFE];
    for unit in "# Wide\r\n\r\nsay todo twice: todo\r\n".encode_utf16() {
        utf16.extend_from_slice(&unit.to_le_bytes());
    }
    v.write("enc/utf16.md", utf16);
    for name in ["bom.md", "utf16.md", "windows.md"] {
        let folder = if name == "windows.md" { "notes" } else { "enc" };
        let one = search(
            &v,
            json!({"query": "todo", "filePath": format!("{folder}/{name}"), "contextLines": 1}),
        );
        let all = search(
            &v,
            json!({"query": "todo", "directoryPath": folder, "filePattern": name, "contextLines": 1}),
        );
        assert_eq!(one["files"], all["files"], "{name}");
    }
    let wide = search(&v, json!({"query": "todo", "filePath": "enc/utf16.md"}));
    let matches = &wide["files"][0]["matches"];
    assert_eq!(
        (
            &matches[1]["line"],
            &matches[1]["column"],
            &matches[1]["text"]
        ),
        (&json!(3), &json!(17), &json!("say todo twice: todo"))
    );
    assert_eq!(matches[0]["nearestHeading"]["text"], json!("Wide"));
}

/// A Markdown note of at least `size` bytes, with what the heading scan has
/// to get right all through it: fences with `#` lines, setext headings,
/// list items and quotes, multi-byte letters on every line, and `todo` here
/// and there, the last one at the very end.
fn large_note(size: usize, crlf: bool) -> String {
    let mut text = String::from("---\ntitle: a big todo\n---\n# Début\n\n");
    let mut i = 0;
    while text.len() < size {
        i += 1;
        match i % 7 {
            0 => text.push_str(&format!("## Part {i}\n\n")),
            1 => text.push_str("```sh\n# todo: a comment, not a heading\n```\n"),
            2 => text.push_str(&format!("Setext {i} with a todo\nspanning lines\n---\n\n")),
            3 => text.push_str("- # in a list, todo\n> # quoted todo\n\n"),
            _ => text.push_str(&format!("Ligne {i}: café, naïve, 😀, nothing to find.\n\n")),
        }
    }
    text.push_str("And the last todo");
    if crlf {
        text = text.replace('\n', "\r\n");
    }
    text
}

#[test]
fn large_files_searched_on_two_threads_show_what_a_folder_search_shows() {
    // Files from 4 MiB on are read in halves and their headings found on a
    // second thread; a folder search does each file on one thread. Both
    // must agree on every count, match, column, context line and heading.
    let v = vault();
    let size = 4 << 20;
    v.write("big/plain.md", large_note(size, false));
    v.write("big/crlf.md", large_note(size, true));
    let mut bom = b"\xEF\xBB\xBF".to_vec();
    bom.extend_from_slice(large_note(size, false).as_bytes());
    v.write("big/bom.md", bom);
    let mut utf16 = vec![0xFF, 0xFE];
    for unit in large_note(size / 2, false).encode_utf16() {
        utf16.extend_from_slice(&unit.to_le_bytes());
    }
    v.write("big/utf16.md", utf16);
    v.write("big/notes.txt", large_note(size, false));
    for name in ["plain.md", "crlf.md", "bom.md", "utf16.md", "notes.txt"] {
        for (query, regex, max) in [
            ("todo", false, 500),
            ("todo", false, 3),
            ("last todo", false, 50),
            ("todo$", true, 50),
            ("^- ", true, 20),
            ("nowhere at all", false, 50),
        ] {
            let args = |scope: Value| {
                let mut args =
                    json!({"query": query, "regex": regex, "maxResults": max, "contextLines": 2});
                args.as_object_mut()
                    .unwrap()
                    .extend(scope.as_object().unwrap().clone());
                args
            };
            let one = search(&v, args(json!({"filePath": format!("big/{name}")})));
            let all = search(
                &v,
                args(json!({"directoryPath": "big", "filePattern": name})),
            );
            let what = format!("{name} {query:?} max {max}");
            assert_eq!(one["files"], all["files"], "{what}");
            assert_eq!(one["totalMatches"], all["totalMatches"], "{what}");
            assert_eq!(one["truncated"], all["truncated"], "{what}");
        }
    }
    // The match at the very end, under the last heading, past a setext one.
    let last = search(&v, json!({"query": "last todo", "filePath": "big/crlf.md"}));
    let m = &last["files"][0]["matches"][0];
    assert_eq!(m["text"], "And the last todo");
    assert_eq!(m["nearestHeading"]["level"], 2);
    assert_eq!(
        last["files"][0]["matchCount"], 1,
        "only the one at the end: {last}"
    );
}

#[test]
fn large_files_that_are_not_utf8_text_get_the_usual_verdicts() {
    let v = vault();
    let mut text = large_note(4 << 20, false).into_bytes();
    let mut binary = text.clone();
    binary.extend_from_slice(b"\x00 todo");
    v.write("big/binary.md", binary);
    // A Latin-1 byte in the second half, past the middle.
    let at = text.len() - 10;
    text[at] = 0xE9;
    v.write("big/latin1.md", text);
    let found = search(&v, json!({"query": "todo", "filePath": "big/binary.md"}));
    assert_eq!(
        (
            &found["binaryFiles"],
            &found["filesSearched"],
            &found["totalMatches"]
        ),
        (&json!(1), &json!(0), &json!(0))
    );
    let found = search(&v, json!({"query": "todo", "filePath": "big/latin1.md"}));
    assert_eq!(found["unreadable"]["count"], 1);
    let reason = found["unreadable"]["examples"][0]["reason"]
        .as_str()
        .unwrap();
    assert!(reason.contains("not valid UTF-8"), "{reason}");
    assert!(reason.contains(&format!("offset {at}")), "{reason}");
}

#[test]
fn text_inspect_of_a_large_note_finds_the_headings_and_hash_of_what_is_on_disk() {
    // TextInspect hashes a large file and scans its headings on other
    // threads while it searches, and remembers the hash of a file left
    // alone for a while: every answer must still be the file's own.
    use mcp_server_text::text::{hash::file_hash, markdown};
    let v = vault();
    let text = large_note(4 << 20, true);
    v.write("big/inspect.md", &text);
    let outline = markdown::parse(&text);
    let inspect = |v: &Vault| {
        v.ok(
            "TextInspect",
            json!({"filePath": "big/inspect.md", "mode": "search", "query": "todo"}),
        )
    };
    let found = inspect(&v);
    assert_eq!(found["fileHash"], file_hash(&[text.as_bytes()]));
    assert_eq!(found["lineEnding"], "CRLF");
    // Lines are counted past the 100th match, to the end of the file.
    assert_eq!(found["totalLines"], text.matches('\n').count() + 1);
    let matches = found["matches"].as_array().unwrap();
    assert_eq!(
        matches.len(),
        100,
        "the first 100 of {}",
        found["totalMatches"]
    );
    for m in matches {
        let line = m["line"].as_u64().unwrap() as usize;
        let heading = outline.nearest_heading(line);
        assert_eq!(
            m["nearestHeading"]["line"].as_u64().map(|l| l as usize),
            heading.map(|h| h.line),
            "{m}"
        );
    }
    // Written again with the same size: the new bytes' hash. (Remembering
    // the hash of a file left alone is tested in workspace::hash_memo.)
    assert_eq!(inspect(&v)["fileHash"], found["fileHash"]);
    let changed = text.replacen("todo", "TODO", 1);
    v.write("big/inspect.md", &changed);
    assert_eq!(inspect(&v)["fileHash"], file_hash(&[changed.as_bytes()]));
}

#[test]
fn a_large_file_searched_where_it_lies_answers_as_when_it_is_read() {
    // A large file is mapped under a read lease rather than copied; one
    // that a program holds open for writing gets no lease, and is read. Both
    // ways must give the same reply, byte for byte, in both tools.
    use mcp_server_text::workspace::search::mapped::map_text;
    let v = vault();
    let size = 4 << 20;
    let mut bom = b"\xEF\xBB\xBF".to_vec();
    bom.extend_from_slice(large_note(size, false).as_bytes());
    let files = [
        ("big/plain.md", large_note(size, false).into_bytes()),
        ("big/crlf.md", large_note(size, true).into_bytes()),
        ("big/bom.md", bom),
        ("big/notes.txt", large_note(size, false).into_bytes()),
    ];
    for (name, bytes) in &files {
        let path = v.write(name, bytes);
        if map_text(std::fs::File::open(&path).unwrap(), 1 << 30).is_none() {
            eprintln!("SKIPPED: leases are not granted here, so nothing is mapped");
            return;
        }
        for (query, regex) in [
            ("todo", false),
            ("last todo", false),
            ("todo$", true),
            ("nowhere at all", false),
        ] {
            let calls = [
                (
                    "TextSearch",
                    json!({"query": query, "regex": regex, "filePath": name, "contextLines": 1}),
                ),
                (
                    "TextInspect",
                    json!({"filePath": name, "mode": "search", "query": query, "regex": regex, "context": 1}),
                ),
            ];
            for (tool, args) in calls {
                let mapped = v.ok(tool, args.clone());
                let writer = std::fs::OpenOptions::new()
                    .append(true)
                    .open(&path)
                    .unwrap();
                let read = v.ok(tool, args);
                drop(writer);
                assert_eq!(mapped, read, "{tool} {name} {query:?}");
            }
        }
    }
    let inspected = v.ok(
        "TextInspect",
        json!({"filePath": "big/bom.md", "mode": "search", "query": "last todo"}),
    );
    assert_eq!(inspected["bom"], true);
    assert_eq!(
        inspected["fileHash"],
        mcp_server_text::text::hash::file_hash(&[&files[2].1])
    );
}
