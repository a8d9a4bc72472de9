//! Attempts to reach outside the root, one per way in, through every tool
//! that takes a path. Each must be refused, change nothing anywhere (inside
//! or outside the root), and show nothing from outside in its answer.
//!
//! Run with `cargo test --test path_escape -- --nocapture` to see every
//! attempt and how it was refused.

mod support;

use serde_json::{Value, json};
use support::Vault;

/// Text in every file outside the root; no answer may contain it.
const SECRET: &str = "TOP SECRET";

struct Attempt {
    name: &'static str,
    tool: &'static str,
    args: Value,
    /// Besides the secret, text the answer must not contain (it would tell
    /// what exists outside).
    never_says: Option<&'static str>,
}

fn attempt(name: &'static str, tool: &'static str, args: Value) -> Attempt {
    Attempt {
        name,
        tool,
        args,
        never_says: None,
    }
}

/// The arguments of each path-taking tool, with `path` where the path goes.
fn args_for(tool: &str, path: &str) -> Value {
    match tool {
        "TextInspect" => json!({"filePath": path}),
        "TextRead" => json!({"filePath": path, "target": {"lines": {"start": 1, "end": 5}}}),
        "TextPatch" => json!({
            "filePath": path,
            "operation": "insert",
            "target": {"lines": {"start": 1, "end": 1}},
            "content": "changed\n"
        }),
        "TextReplace" => json!({"filePath": path, "oldText": SECRET, "newText": "changed"}),
        "ListDirectories" | "ListFiles" => json!({"path": path}),
        "Move" => json!({"sourcePath": path, "destinationPath": "moved-here.md"}),
        "RemoveFile" => json!({"filePath": path, "recursive": true}),
        other => panic!("no arguments for {other}"),
    }
}

fn on(name: &'static str, tool: &'static str, path: &str) -> Attempt {
    attempt(name, tool, args_for(tool, path))
}

fn move_to(name: &'static str, source: &str, destination: &str) -> Attempt {
    attempt(
        name,
        "Move",
        json!({"sourcePath": source, "destinationPath": destination}),
    )
}

/// The layout every attempt runs against:
///
/// ```text
/// base/vault/                  the root
///   notes/a.md, notes/sub/
///   link-out.md  -> base/outside/secret.md
///   dir-out      -> base/outside
///   chain1.md    -> chain2.md -> base/outside/secret.md
///   dangling.md  -> base/outside/missing.md
///   up           -> ..
///   loop1 -> loop2 -> loop1
/// base/vault-other/secret.md   a sibling whose name starts with the root's
/// base/outside/secret.md, diary-private.md, dir/
/// ```
fn escape_vault() -> Vault {
    let v = Vault::new();
    v.write("notes/a.md", "# A\n\nalpha\n");
    std::fs::create_dir_all(v.root.join("notes/sub")).unwrap();
    let base = v.outside();
    for (path, text) in [
        ("vault-other/secret.md", SECRET),
        ("outside/secret.md", SECRET),
        ("outside/diary-private.md", SECRET),
        ("outside/dir/inner.md", SECRET),
    ] {
        let path = base.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, format!("{text}\n")).unwrap();
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::symlink;
        let r = &v.root;
        symlink(base.join("outside/secret.md"), r.join("link-out.md")).unwrap();
        symlink(base.join("outside"), r.join("dir-out")).unwrap();
        symlink(r.join("chain2.md"), r.join("chain1.md")).unwrap();
        symlink(base.join("outside/secret.md"), r.join("chain2.md")).unwrap();
        symlink(base.join("outside/missing.md"), r.join("dangling.md")).unwrap();
        symlink("..", r.join("up")).unwrap();
        symlink(r.join("loop2"), r.join("loop1")).unwrap();
        symlink(r.join("loop1"), r.join("loop2")).unwrap();
    }
    v
}

fn attempts(v: &Vault) -> Vec<Attempt> {
    let base = v.outside();
    let root = v.root.to_str().unwrap().to_string();
    let b = |rel: &str| base.join(rel).to_str().unwrap().to_string();
    let long_path = format!("{}x.md", "a/".repeat(2100));
    let long_name = format!("{}.md", "x".repeat(300));
    vec![
        // `..` in every position
        on("dotdot leading", "TextRead", "../outside/secret.md"),
        on(
            "dotdot in the middle",
            "TextInspect",
            "notes/../../outside/secret.md",
        ),
        on(
            "dotdot repeated to the file system root",
            "TextRead",
            "../../../../../../../../etc/passwd",
        ),
        on("dotdot trailing", "ListFiles", "notes/../.."),
        on("dotdot alone", "ListDirectories", ".."),
        on(
            "dotdot after the absolute root path",
            "TextReplace",
            &format!("{root}/../outside/secret.md"),
        ),
        on("dotdot after a dot", "TextPatch", "./../outside/secret.md"),
        on(
            "dotdot below a missing folder",
            "TextRead",
            "nothere/../../outside/secret.md",
        ),
        // absolute paths elsewhere
        on("absolute /etc/passwd", "TextRead", "/etc/passwd"),
        on("absolute /etc folder", "ListFiles", "/etc"),
        on("absolute file system root", "ListDirectories", "/"),
        on(
            "absolute outside file",
            "TextInspect",
            &b("outside/secret.md"),
        ),
        on("absolute with a doubled slash", "TextRead", "//etc/passwd"),
        // a sibling whose name starts with the root's name
        on(
            "sibling prefix, absolute",
            "TextInspect",
            &b("vault-other/secret.md"),
        ),
        on(
            "sibling prefix, relative",
            "TextPatch",
            "../vault-other/secret.md",
        ),
        on("sibling prefix folder", "ListFiles", &b("vault-other")),
        on(
            "sibling prefix written without separator",
            "TextRead",
            &format!("{root}-other/secret.md"),
        ),
        // symbolic links
        on("symlink to a file outside, read", "TextRead", "link-out.md"),
        on(
            "symlink to a file outside, replace",
            "TextReplace",
            "link-out.md",
        ),
        on(
            "symlink to a file outside, patch",
            "TextPatch",
            "link-out.md",
        ),
        on(
            "symlink to a file outside, listed as a folder",
            "ListFiles",
            "link-out.md",
        ),
        on(
            "symlink to a folder outside, file in it",
            "TextInspect",
            "dir-out/secret.md",
        ),
        on(
            "symlink to a folder outside, listed",
            "ListFiles",
            "dir-out",
        ),
        on(
            "symlink to a folder outside, tree",
            "ListDirectories",
            "dir-out",
        ),
        on(
            "symlink to a folder outside, deeper",
            "TextRead",
            "dir-out/dir/inner.md",
        ),
        on(
            "symlink to a folder outside, then dotdot out of the root",
            "ListFiles",
            "dir-out/../../outside",
        ),
        on("chain of links ending outside", "TextRead", "chain1.md"),
        on(
            "link inside pointing up to the parent",
            "TextRead",
            "up/outside/secret.md",
        ),
        on("link inside pointing up, listed", "ListDirectories", "up"),
        on("dangling link pointing outside", "TextRead", "dangling.md"),
        on("looping links", "TextInspect", "loop1"),
        Attempt {
            never_says: Some("diary-private"),
            ..on(
                "misspelt name behind a link out (no suggestions from outside)",
                "TextRead",
                "dir-out/diary-privat.md",
            )
        },
        Attempt {
            never_says: Some("is a file"),
            ..on(
                "file outside used as a folder behind a link out",
                "TextRead",
                "dir-out/secret.md/x.md",
            )
        },
        // Move and RemoveFile with either end outside
        move_to("Move source outside", "../outside/secret.md", "stolen.md"),
        move_to(
            "Move source absolute outside",
            &b("outside/secret.md"),
            "stolen.md",
        ),
        move_to(
            "Move source through a link out",
            "dir-out/secret.md",
            "stolen.md",
        ),
        move_to("Move source a link out", "link-out.md", "stolen.md"),
        move_to("Move source a folder link out", "dir-out", "stolen"),
        move_to("Move destination outside", "notes/a.md", "../outside/a.md"),
        move_to(
            "Move destination absolute outside",
            "notes/a.md",
            &b("outside/new.md"),
        ),
        move_to(
            "Move destination sibling prefix",
            "notes/a.md",
            &b("vault-other/a.md"),
        ),
        move_to(
            "Move destination through a link out",
            "notes/a.md",
            "dir-out/a.md",
        ),
        move_to(
            "Move destination through a link up",
            "notes/a.md",
            "up/outside/a.md",
        ),
        move_to(
            "Move destination with dotdot in new folders",
            "notes/a.md",
            "notes/new/../../../outside/a.md",
        ),
        move_to(
            "Move destination a dangling link out",
            "notes/a.md",
            "dangling.md",
        ),
        Attempt {
            never_says: Some("is a file"),
            ..move_to(
                "Move destination under a file outside",
                "notes/a.md",
                "dir-out/secret.md/a.md",
            )
        },
        move_to("Move destination /tmp", "notes/a.md", "/tmp/escaped.md"),
        move_to("Move the root away", ".", "elsewhere"),
        move_to("Move the root by absolute path", &root, &b("vault-moved")),
        move_to("Move a folder into itself", "notes", "notes/sub/notes"),
        on("RemoveFile outside", "RemoveFile", "../outside/secret.md"),
        on(
            "RemoveFile absolute /etc/passwd",
            "RemoveFile",
            "/etc/passwd",
        ),
        on("RemoveFile a link out", "RemoveFile", "link-out.md"),
        on(
            "RemoveFile through a link out",
            "RemoveFile",
            "dir-out/secret.md",
        ),
        on("RemoveFile a folder link out", "RemoveFile", "dir-out"),
        on("RemoveFile the root", "RemoveFile", "."),
        on("RemoveFile the root's parent", "RemoveFile", ".."),
        // odd names are names, not separators
        on(
            "URL-encoded dotdot slash",
            "TextRead",
            "%2e%2e%2foutside%2fsecret.md",
        ),
        on("URL-encoded dotdot, folder", "ListFiles", "%2e%2e"),
        on(
            "URL-encoded, double encoded",
            "TextInspect",
            "%252e%252e%252foutside%252fsecret.md",
        ),
        on(
            "division slash U+2215",
            "TextRead",
            "..\u{2215}outside\u{2215}secret.md",
        ),
        on(
            "fraction slash U+2044",
            "TextInspect",
            "..\u{2044}outside\u{2044}secret.md",
        ),
        on(
            "fullwidth dots and solidus",
            "TextRead",
            "\u{ff0e}\u{ff0e}\u{ff0f}outside\u{ff0f}secret.md",
        ),
        on("backslashes", "TextRead", "..\\outside\\secret.md"),
        on("tilde home", "TextRead", "~/secret.md"),
        on("file URI", "TextRead", "file:///etc/passwd"),
        move_to(
            "Move source URL-encoded",
            "%2e%2e%2foutside%2fsecret.md",
            "stolen.md",
        ),
        on(
            "RemoveFile fullwidth dots",
            "RemoveFile",
            "\u{ff0e}\u{ff0e}\u{ff0f}outside",
        ),
        // NUL bytes
        on(
            "NUL then dotdot",
            "TextRead",
            "notes/a.md\0/../../../outside/secret.md",
        ),
        on("NUL in a folder", "ListDirectories", "notes\0"),
        move_to("NUL in a Move destination", "notes/a.md", "x\0.md"),
        on("NUL in RemoveFile", "RemoveFile", "notes/a.md\0"),
        // very long paths
        on("path over 4096 bytes", "TextRead", &long_path),
        on("path over 4096 bytes, listed", "ListFiles", &long_path),
        on("300-byte name", "TextInspect", &long_name),
        move_to("Move to a 300-byte name", "notes/a.md", &long_name),
        move_to("Move to a path over 4096 bytes", "notes/a.md", &long_path),
    ]
}

/// RemoveFile where the root's `.trash` is a link out of the root: the file
/// must not be moved outside through it.
fn trash_link_vault() -> Vault {
    let v = Vault::new();
    v.write("notes/a.md", "# A\n");
    let trash = v.outside().join("outside-trash");
    std::fs::create_dir_all(&trash).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(&trash, v.root.join(".trash")).unwrap();
    v
}

/// Runs `attempts` on `v`; returns a line per attempt and the failures.
fn run(v: &Vault, attempts: Vec<Attempt>) -> (Vec<String>, Vec<String>) {
    let mut lines = Vec::new();
    let mut failures = Vec::new();
    for a in attempts {
        let before = v.snapshot();
        let outcome = v.call(a.tool, a.args.clone());
        let after = v.snapshot();
        let text = match &outcome {
            Ok(value) | Err(value) => value.to_string(),
        };
        let mut wrong = Vec::new();
        if outcome.is_ok() {
            wrong.push("NOT REFUSED".to_string());
        }
        if after != before {
            let changed: Vec<String> = before
                .keys()
                .chain(after.keys())
                .filter(|k| before.get(*k) != after.get(*k))
                .map(|k| k.display().to_string())
                .collect();
            wrong.push(format!("CHANGED {}", changed.join(", ")));
        }
        if text.contains(SECRET) {
            wrong.push("SHOWED THE SECRET".to_string());
        }
        if let Some(never) = a.never_says
            && text.contains(never)
        {
            wrong.push(format!("TOLD '{never}' ABOUT THE OUTSIDE"));
        }
        let detail = match &outcome {
            Err(e) => e["message"].as_str().unwrap_or_default().to_string(),
            Ok(v) => v.to_string(),
        };
        let shown: String = detail.chars().take(160).collect();
        if wrong.is_empty() {
            lines.push(format!("refused  {} [{}]: {shown}", a.name, a.tool));
        } else {
            let line = format!(
                "FAILED   {} [{}]: {}: {shown}",
                a.name,
                a.tool,
                wrong.join("; ")
            );
            lines.push(line.clone());
            failures.push(line);
        }
    }
    (lines, failures)
}

#[cfg(unix)]
#[test]
fn every_escape_attempt_is_refused() {
    let v = escape_vault();
    let list = attempts(&v);
    let tools: std::collections::BTreeSet<&str> = list.iter().map(|a| a.tool).collect();
    assert_eq!(
        tools.into_iter().collect::<Vec<_>>(),
        [
            "ListDirectories",
            "ListFiles",
            "Move",
            "RemoveFile",
            "TextInspect",
            "TextPatch",
            "TextRead",
            "TextReplace"
        ]
    );
    let (mut lines, mut failures) = run(&v, list);

    let t = trash_link_vault();
    let (more_lines, more_failures) = run(
        &t,
        vec![
            on(
                "RemoveFile with .trash linked outside",
                "RemoveFile",
                "notes/a.md",
            ),
            on(
                "RemoveFile of a folder with .trash linked outside",
                "RemoveFile",
                "notes",
            ),
            on(
                "RemoveFile inside a .trash linked outside",
                "RemoveFile",
                ".trash",
            ),
        ],
    );
    lines.extend(more_lines);
    failures.extend(more_failures);

    println!("{} escape attempts:", lines.len());
    for line in &lines {
        println!("  {line}");
    }
    assert!(lines.len() >= 40, "only {} attempts", lines.len());
    assert!(
        failures.is_empty(),
        "{} of {} attempts were not refused cleanly:\n{}",
        failures.len(),
        lines.len(),
        failures.join("\n")
    );
}

/// The listings of a root with links out show nothing from outside.
#[cfg(unix)]
#[test]
fn listings_stay_inside() {
    let v = escape_vault();
    let root = v.root.to_str().unwrap();
    let tree = v.ok("ListDirectories", json!({}));
    let files = v.ok("ListFiles", json!({"path": ".", "recursive": true}));
    for listing in [&tree, &files] {
        let text = listing.to_string();
        for name in [
            "dir-out", "up", "link-out", "chain", "dangling", "loop", "secret", "diary",
        ] {
            assert!(!text.contains(name), "{name} in {listing:#}");
        }
    }
    let paths: Vec<&str> = files["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, [format!("{root}/notes/a.md")]);
}

/// Names that look like escapes are only names: a move to one creates a file
/// with exactly that name inside the root.
#[cfg(unix)]
#[test]
fn odd_names_are_only_names() {
    let v = escape_vault();
    for name in [
        "%2e%2e%2fescaped.md",
        "..\u{2215}escaped.md",
        "..\u{2044}escaped.md",
        "\u{ff0e}\u{ff0e}\u{ff0f}escaped.md",
        "..\\escaped.md",
        "...md",
    ] {
        v.write("from.md", "x");
        let moved = v.ok(
            "Move",
            json!({"sourcePath": "from.md", "destinationPath": format!("notes/{name}")}),
        );
        assert_eq!(moved["kind"], "file", "{moved}");
        let destination = v.root.join("notes").join(name);
        assert_eq!(std::fs::read(destination).unwrap(), b"x");
    }
    assert!(!v.outside().join("escaped.md").exists());
    assert!(!v.outside().join("outside/escaped.md").exists());
}
