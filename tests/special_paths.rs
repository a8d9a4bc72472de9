//! Paths that are not plain files inside the root: FIFOs and devices are
//! refused at once (never read, so no call can block), and a link that leads
//! out of the root is refused without telling where it leads.

mod support;

use std::os::unix::fs::FileTypeExt;
use std::sync::mpsc;
use std::time::Duration;

use serde_json::{Value, json};
use support::Vault;

/// Calls `tool` on another thread and waits at most 10 s for its answer, so
/// a call that blocks fails the test instead of hanging it.
fn answer_within(
    vault: &std::sync::Arc<Vault>,
    tool: &'static str,
    args: Value,
) -> Result<Value, Value> {
    let (tx, rx) = mpsc::channel();
    let vault = vault.clone();
    std::thread::spawn(move || {
        let _ = tx.send(vault.call(tool, args));
    });
    rx.recv_timeout(Duration::from_secs(10))
        .unwrap_or_else(|_| panic!("{tool} did not answer within 10 s"))
}

#[test]
fn fifos_are_refused_at_once_by_reads_searches_and_edits() {
    let vault = std::sync::Arc::new(Vault::new());
    let fifo = vault.root.join("pipe.md");
    rustix::fs::mkfifoat(
        rustix::fs::CWD,
        &fifo,
        rustix::fs::Mode::from_raw_mode(0o644),
    )
    .unwrap();
    vault.write("note.md", "# Note\nhello\n");
    let reason = format!(
        "annot read {} as text: it is not a regular file (a pipe, socket or device)",
        fifo.display()
    );
    for (tool, args) in [
        (
            "TextRead",
            json!({"filePath": "pipe.md", "target": {"lines": {"start": 1, "end": 2}}}),
        ),
        ("TextInspect", json!({"filePath": "pipe.md"})),
        (
            "TextSearch",
            json!({"query": "hello", "filePath": "pipe.md"}),
        ),
        (
            "TextReplace",
            json!({"filePath": "pipe.md", "oldText": "a", "newText": "b"}),
        ),
        (
            "TextPatch",
            json!({"filePath": "pipe.md", "operation": "insert", "target": {"lines": {"start": 1, "end": 1}}, "content": "x\n"}),
        ),
        (
            "edit_code",
            json!({"file_path": "pipe.md", "search_context": "a", "new_content": "b"}),
        ),
        (
            "get_text_file_contents",
            json!({"files": [{"file_path": "pipe.md", "ranges": [{"start": 1}]}]}),
        ),
    ] {
        let error = answer_within(&vault, tool, args).expect_err(tool);
        // The editor tools name the file's place in their list first.
        let expected = if tool == "get_text_file_contents" {
            format!("files[0] (pipe.md): c{reason}")
        } else {
            format!("C{reason}")
        };
        assert_eq!(error["message"], expected, "{tool}: {error}");
        let suggestions = error["suggestions"].to_string();
        assert!(
            suggestions.contains("Only regular files are read or edited"),
            "{tool}: {error}"
        );
    }
    // A search of the folder passes the FIFO by and finds the note.
    let found = answer_within(&vault, "TextSearch", json!({"query": "hello"})).unwrap();
    assert_eq!(found["totalMatches"], 1, "{found}");
    assert!(
        std::fs::symlink_metadata(&fifo)
            .unwrap()
            .file_type()
            .is_fifo(),
        "the FIFO is left as it was"
    );
}

#[test]
fn refusals_of_links_out_do_not_tell_where_they_lead() {
    let vault = Vault::new();
    let outside = vault.outside().join("elsewhere");
    std::fs::create_dir_all(outside.join("dir")).unwrap();
    std::fs::write(outside.join("secret.md"), "secret\n").unwrap();
    std::os::unix::fs::symlink(outside.join("secret.md"), vault.root.join("link-out.md")).unwrap();
    std::os::unix::fs::symlink(&outside, vault.root.join("dir-out")).unwrap();
    std::os::unix::fs::symlink(outside.join("gone.md"), vault.root.join("dangling-out.md"))
        .unwrap();
    vault.write("a.md", "a\n");
    let roots = vault.root.display().to_string();
    for (tool, args, given) in [
        (
            "TextRead",
            json!({"filePath": "link-out.md", "target": {"lines": {"start": 1, "end": 1}}}),
            "link-out.md",
        ),
        (
            "TextReplace",
            json!({"filePath": "dir-out/secret.md", "oldText": "secret", "newText": "x"}),
            "dir-out/secret.md",
        ),
        ("ListFiles", json!({"path": "dir-out/dir"}), "dir-out/dir"),
        (
            "TextInspect",
            json!({"filePath": "dangling-out.md"}),
            "dangling-out.md",
        ),
        (
            "create_text_file",
            json!({"file_path": "dir-out/new.md", "contents": "x"}),
            "dir-out/new.md",
        ),
        (
            "Move",
            json!({"sourcePath": "a.md", "destinationPath": "dir-out/moved.md"}),
            "dir-out/moved.md",
        ),
    ] {
        let error = vault.err(tool, args);
        assert_eq!(
            error["message"],
            format!(
                "'{given}' goes through a symbolic link that leads outside the allowed folders; the roots are {roots}"
            ),
            "{tool}: {error}"
        );
        let text = error.to_string();
        assert!(
            !text.contains("elsewhere"),
            "{tool} told where the link leads: {text}"
        );
    }
    assert!(!vault.outside().join("elsewhere/new.md").exists());
    assert!(!vault.outside().join("elsewhere/moved.md").exists());
}
