//! The official MCP clients against the built binary: every tool's result
//! validates against its output schema in the Python SDK and the TypeScript
//! SDK, and neither the TypeScript SDK nor the Inspector's command line
//! prints a warning about the schemas.
//!
//! The clients are installed by `scripts/install-clients` into
//! `target/clients/` (`.ci/run` does it). Where they, Python or Node are
//! missing, a check cannot run: under CI (`CI=true`) that fails it, since CI
//! is where the clients must be; elsewhere it is reported as skipped, with
//! the reason, in the lines and the summary this test program prints (it runs
//! without libtest's harness, which has no "skipped" outcome and would show a
//! skipped check as passed).

use std::path::{Path, PathBuf};
use std::process::Command;

use mcp_server_text::tools::registry::Registry;
use mcp_server_text::tools::tool::Toolset;
use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_mcp-server-text");

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Where `scripts/install-clients` put the clients: `clients/` beside the
/// profile folder that holds the binary under test.
fn clients() -> PathBuf {
    let bin = Path::new(BIN);
    let target = bin.parent().and_then(Path::parent).unwrap_or(bin);
    target.join("clients")
}

/// A fresh copy of example-vault/, which the calls in calls.json expect.
fn vault() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("vault");
    copy_dir(&repo().join("example-vault"), &root);
    (dir, root)
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

fn calls_file() -> PathBuf {
    repo().join("scripts/clients/calls.json")
}

fn call_count() -> usize {
    let calls: Value =
        serde_json::from_str(&std::fs::read_to_string(calls_file()).unwrap()).unwrap();
    calls["calls"].as_array().unwrap().len()
}

/// What a check did.
enum Outcome {
    Passed,
    /// It could not run: the reason.
    Skipped(String),
}

fn skip(reason: &str) -> Outcome {
    Outcome::Skipped(format!(
        "{reason}; run scripts/install-clients to install the official clients"
    ))
}

/// Whether this is a CI run, where a missing client is a failure.
fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "0" && !v.eq_ignore_ascii_case("false"))
}

type Check = fn() -> Outcome;

const CHECKS: [(&str, Check); 3] = [
    (
        "every_result_validates_in_the_python_sdk",
        every_result_validates_in_the_python_sdk,
    ),
    (
        "every_result_validates_in_the_typescript_sdk_without_warnings",
        every_result_validates_in_the_typescript_sdk_without_warnings,
    ),
    (
        "the_inspector_cli_lists_and_calls_without_warnings",
        the_inspector_cli_lists_and_calls_without_warnings,
    ),
];

/// Runs the checks whose names hold the filter `cargo test` passed on (if
/// any), prints a line per check and a summary in libtest's words, and
/// exits with status 1 if one failed.
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--list") {
        for (name, _) in CHECKS {
            println!("{name}: test");
        }
        return;
    }
    let filter = args.iter().find(|a| !a.starts_with('-'));
    let ci = in_ci();
    let (mut passed, mut skipped, mut failed) = (0, 0, 0);
    let chosen: Vec<_> = CHECKS
        .iter()
        .filter(|(name, _)| filter.is_none_or(|f| name.contains(f.as_str())))
        .collect();
    println!("\nrunning {} tests", chosen.len());
    for (name, check) in chosen {
        match std::panic::catch_unwind(check) {
            Ok(Outcome::Passed) => {
                passed += 1;
                println!("test {name} ... ok");
            }
            Ok(Outcome::Skipped(reason)) if ci => {
                failed += 1;
                println!(
                    "test {name} ... FAILED (CI=true, so the clients must be there: {reason})"
                );
            }
            Ok(Outcome::Skipped(reason)) => {
                skipped += 1;
                println!("test {name} ... skipped ({reason})");
            }
            Err(_) => {
                failed += 1;
                println!("test {name} ... FAILED");
            }
        }
    }
    let verdict = if failed > 0 { "FAILED" } else { "ok" };
    let why = if skipped > 0 {
        " (official clients missing)"
    } else {
        ""
    };
    println!(
        "\ntest result: {verdict}. {passed} passed; {failed} failed; {skipped} skipped{why}\n"
    );
    if failed > 0 {
        std::process::exit(1);
    }
}

/// Runs a client driver and returns its JSON report.
fn report(command: &mut Command) -> Value {
    let output = command.output().expect("run the client");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let line = stdout.lines().last().unwrap_or_default();
    serde_json::from_str(line).unwrap_or_else(|e| {
        panic!(
            "the client printed no report ({e}):\n{stdout}\n{}",
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

fn every_result_validates_in_the_python_sdk() -> Outcome {
    let python = clients().join("python/bin/python");
    if !python.is_file() {
        return skip(&format!("no Python SDK at {}", python.display()));
    }
    let (_dir, root) = vault();
    let report = report(
        Command::new(&python)
            .arg(repo().join("scripts/clients/latency.py"))
            .args([Path::new(BIN), &root, &calls_file()])
            .arg("--check"),
    );
    assert_eq!(report["failures"], serde_json::json!([]), "{report:#}");
    assert_eq!(report["validated"], call_count(), "{report:#}");
    Outcome::Passed
}

fn every_result_validates_in_the_typescript_sdk_without_warnings() -> Outcome {
    let node_dir = clients().join("node");
    if !node_dir
        .join("node_modules/@modelcontextprotocol/sdk")
        .is_dir()
    {
        return skip(&format!("no TypeScript SDK in {}", node_dir.display()));
    }
    if Command::new("node").arg("--version").output().is_err() {
        return skip("node is not installed");
    }
    let (_dir, root) = vault();
    let report = report(
        Command::new("node")
            .current_dir(&node_dir)
            .arg(repo().join("scripts/clients/latency.mjs"))
            .args([Path::new(BIN), &root, &calls_file()])
            .arg("--check"),
    );
    assert_eq!(report["failures"], serde_json::json!([]), "{report:#}");
    assert_eq!(report["warnings"], 0, "{report:#}");
    assert_eq!(report["validated"], call_count(), "{report:#}");
    Outcome::Passed
}

fn the_inspector_cli_lists_and_calls_without_warnings() -> Outcome {
    let cli =
        clients().join("node/node_modules/@modelcontextprotocol/inspector-cli/build/index.js");
    if !cli.is_file() {
        return skip(&format!("no Inspector CLI at {}", cli.display()));
    }
    let (_dir, root) = vault();
    let run = |extra: &[&str]| {
        let output = Command::new("node")
            .arg(&cli)
            .arg(BIN)
            .arg(&root)
            .args(extra)
            .env("MCP_TEXT_TOOLSETS", "all")
            .env("MCP_TEXT_LOG_LEVEL", "warn")
            .output()
            .expect("run the Inspector CLI");
        (
            output.status.success(),
            String::from_utf8_lossy(&output.stdout).into_owned(),
            String::from_utf8_lossy(&output.stderr).into_owned(),
        )
    };
    let (ok, listed, warnings) = run(&["--method", "tools/list"]);
    assert!(ok, "{listed}\n{warnings}");
    let listed: Value = serde_json::from_str(&listed).unwrap();
    let every_tool = Registry::new(&Toolset::ALL, false).names().len();
    assert_eq!(listed["tools"].as_array().map(Vec::len), Some(every_tool));
    assert_eq!(
        warnings.trim(),
        "",
        "the Inspector warned while listing the tools"
    );
    let (ok, called, warnings) = run(&[
        "--method",
        "tools/call",
        "--tool-name",
        "TextInspect",
        "--tool-arg",
        "filePath=projects/garden.md",
    ]);
    assert!(ok, "{called}\n{warnings}");
    let called: Value = serde_json::from_str(&called).unwrap();
    assert_eq!(called["isError"], false, "{called:#}");
    assert_eq!(
        warnings.trim(),
        "",
        "the Inspector warned while calling a tool"
    );
    Outcome::Passed
}
