//! The command line as a new user meets it: where the root folder may go,
//! which options each subcommand offers, the startup text and Ctrl-C on both
//! transports, shell completions, and the license files.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc;
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_mcp-server-text");

/// A root with a README and a note, and a different folder to run from.
fn vault() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let base = std::fs::canonicalize(dir.path()).unwrap();
    let root = base.join("vault");
    let elsewhere = base.join("elsewhere");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::fs::write(root.join("README.md"), "# Vault\n").unwrap();
    std::fs::write(root.join("note.md"), "# Note\n\nText.\n").unwrap();
    (dir, root, elsewhere)
}

fn run(cwd: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .current_dir(cwd)
        .env_remove("MCP_TEXT_ROOTS")
        .env_remove("MCP_TEXT_HTTP")
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

const INSPECT: &str = r#"{"filePath": "note.md"}"#;

#[test]
fn the_root_may_come_before_call_after_the_arguments_or_as_root() {
    let (_dir, root, elsewhere) = vault();
    let root_arg = root.to_str().unwrap();
    for args in [
        vec![root_arg, "call", "TextInspect", INSPECT],
        vec!["call", "TextInspect", INSPECT, root_arg],
        vec!["call", "TextInspect", INSPECT, "--root", root_arg],
    ] {
        let output = run(&elsewhere, &args);
        assert!(output.status.success(), "{args:?}: {}", stderr(&output));
        let result: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
        // The note of this root, not of the current folder (which has none).
        assert_eq!(result["totalLines"], 3, "{args:?}");
        assert_eq!(
            result["structure"]["headings"][0]["text"], "Note",
            "{args:?}"
        );
    }
}

#[test]
fn a_folder_where_the_arguments_belong_is_explained() {
    let (_dir, root, elsewhere) = vault();
    let output = run(&elsewhere, &["call", "TextInspect", root.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    let message = stderr(&output);
    assert!(
        message.contains("is a folder, not the tool's arguments")
            && message.contains("put the JSON arguments first"),
        "{message}"
    );
}

#[test]
fn http_options_are_only_offered_where_they_do_something() {
    let (_dir, _root, elsewhere) = vault();
    for sub in ["call", "tools"] {
        let help = stdout(&run(&elsewhere, &[sub, "--help"]));
        assert!(help.contains("--toolsets"), "{help}");
        assert!(
            !help.contains("--http"),
            "{sub} --help offers --http:\n{help}"
        );
        assert!(!help.contains("--allowed-host"), "{help}");
    }
    assert!(stdout(&run(&elsewhere, &["--help"])).contains("--http"));
    for (args, flag) in [
        (&["--http", "8080", "tools"][..], "--http"),
        (
            &["--http-token", "0123456789abcdef0123", "tools"][..],
            "--http-token",
        ),
        (&["--http-no-auth", "tools"][..], "--http-no-auth"),
    ] {
        let output = run(&elsewhere, args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let expected = format!("{flag} is about serving MCP over HTTP, which `tools` does not do");
        assert!(stderr(&output).contains(&expected), "{}", stderr(&output));
    }
}

#[test]
fn completions_are_printed_for_each_shell() {
    let (_dir, _root, elsewhere) = vault();
    let bash = run(&elsewhere, &["completions", "bash"]);
    assert!(bash.status.success(), "{}", stderr(&bash));
    let script = stdout(&bash);
    assert!(
        script.contains("complete -F _mcp__server__text"),
        "{script}"
    );
    assert!(script.contains("--toolsets"), "{script}");
    for shell in ["zsh", "fish", "elvish", "powershell"] {
        let output = run(&elsewhere, &["completions", shell]);
        assert!(output.status.success(), "{shell}: {}", stderr(&output));
        assert!(stdout(&output).contains("TextInspect") || stdout(&output).contains("call"));
    }
    let output = run(&elsewhere, &["completions", "tcsh"]);
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn the_declared_licenses_are_shipped() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = std::fs::read_to_string(repo.join("Cargo.toml")).unwrap();
    assert!(manifest.contains("license = \"MIT OR Apache-2.0\""));
    let mit = std::fs::read_to_string(repo.join("LICENSE-MIT")).unwrap();
    assert!(mit.starts_with("MIT License"), "{mit}");
    let apache = std::fs::read_to_string(repo.join("LICENSE-APACHE")).unwrap();
    assert!(apache.contains("Apache License") && apache.contains("Version 2.0, January 2004"));
}

/// A server started on `root` (over HTTP when `http` is true), with its
/// stderr lines arriving on a channel.
fn start(root: &Path, http: bool) -> (Child, mpsc::Receiver<String>) {
    let mut command = Command::new(BIN);
    if http {
        command.args(["--http", "127.0.0.1:0"]);
    }
    let mut child = command
        .arg(root)
        .env_remove("MCP_TEXT_ROOTS")
        .env_remove("CARGO")
        .env_remove("CARGO_MANIFEST_DIR")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (lines, received) = mpsc::channel();
    let err = child.stderr.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(err).lines().map_while(Result::ok) {
            let _ = lines.send(line);
        }
    });
    (child, received)
}

/// The lines received until one contains `wanted`.
fn until(lines: &mpsc::Receiver<String>, wanted: &str) -> Vec<String> {
    let mut seen = Vec::new();
    loop {
        match lines.recv_timeout(Duration::from_secs(20)) {
            Ok(line) => {
                let done = line.contains(wanted);
                seen.push(line);
                if done {
                    return seen;
                }
            }
            Err(_) => panic!("no line with {wanted:?} in:\n{}", seen.join("\n")),
        }
    }
}

/// What follows the log prefix (time, level, module) of a line.
fn message(line: &str) -> &str {
    line.split_once(": ").map_or(line, |(_, rest)| rest)
}

#[test]
fn stdio_and_http_start_and_stop_alike() {
    let (_dir, root, _) = vault();
    let mut transcripts = Vec::new();
    for http in [false, true] {
        let (mut child, lines) = start(&root, http);
        let mut seen = until(&lines, "to try a tool by hand");
        let hint = message(seen.last().unwrap()).to_string();
        // The hint works on the folder served, from the shell that started it.
        let program = std::fs::canonicalize(BIN).unwrap();
        assert_eq!(
            hint,
            format!(
                "to try a tool by hand: {} call TextInspect '{{\"filePath\": \"README.md\"}}' --root {}",
                program.display(),
                root.display()
            )
        );
        let status = Command::new("kill")
            .args(["-INT", &child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
        seen.extend(until(&lines, "stopping"));
        let exit = child.wait().unwrap();
        let rest: Vec<String> =
            std::iter::from_fn(|| lines.recv_timeout(Duration::from_secs(5)).ok()).collect();
        assert_eq!(
            exit.code(),
            Some(0),
            "http={http}: {}\n{}",
            seen.join("\n"),
            rest.join("\n")
        );
        transcripts.push(seen);
    }
    // The same lines in the same form, apart from the transport itself.
    let shape = |lines: &[String]| -> Vec<String> {
        lines
            .iter()
            .map(|l| message(l).split(':').next().unwrap_or("").to_string())
            .filter(|m| !m.starts_with("waiting for"))
            .collect()
    };
    // HTTP adds, before the hint, how a client authenticates.
    let mut over_http = shape(&transcripts[1]);
    let auth_start = over_http.iter().position(|l| l == "authentication");
    let hint_at = over_http.iter().position(|l| l == "to try a tool by hand");
    let (Some(auth_start), Some(hint_at)) = (auth_start, hint_at) else {
        panic!("no authentication block before the hint: {over_http:?}");
    };
    let auth: Vec<String> = over_http.drain(auth_start..hint_at).collect();
    assert!(auth.iter().any(|l| l == "Authorization"), "{auth:?}");
    assert_eq!(shape(&transcripts[0]), over_http);
    let stop = |lines: &[String]| message(lines.last().unwrap()).to_string();
    assert_eq!(
        stop(&transcripts[0]),
        "stopping (Ctrl-C or SIGTERM): finishing 0 call(s) in progress"
    );
    assert_eq!(stop(&transcripts[0]), stop(&transcripts[1]));
}

#[test]
fn the_hint_uses_cargo_run_when_cargo_started_the_server() {
    let (_dir, root, _) = vault();
    std::fs::remove_file(root.join("README.md")).unwrap();
    let mut child = Command::new(BIN)
        .arg(&root)
        .env("CARGO", "cargo")
        .env("CARGO_MANIFEST_DIR", env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let err = child.stderr.take().unwrap();
    drop(child.stdin.take());
    let text: Vec<String> = BufReader::new(err).lines().map_while(Result::ok).collect();
    child.wait().unwrap();
    let hint = text
        .iter()
        .find(|l| l.contains("to try a tool by hand"))
        .unwrap_or_else(|| panic!("{}", text.join("\n")));
    // The binary under test was built with the test profile, and the hint
    // names that profile's `cargo run`.
    let run = if cfg!(debug_assertions) {
        "cargo run --"
    } else {
        "cargo run --release --"
    };
    assert!(
        message(hint).starts_with(&format!(
            "to try a tool by hand: {run} call ListFiles '{{\"path\": \".\"}}' --root {}",
            root.display()
        )),
        "{hint}"
    );
}
