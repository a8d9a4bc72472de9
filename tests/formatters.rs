//! `--format` run the way an attacker would use it: a client that can write
//! into the root plants a formatter configuration (and a Prettier plugin)
//! there, then edits a file. The formatters on `PATH` are stand-ins that
//! record their arguments and working folder, and that obey a configuration
//! in their working folder unless told not to, the way the real ones do. The
//! last test runs the real Prettier when `scripts/install-clients` has
//! installed it.

mod client;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use client::{BIN, Client, call, success};
use rmcp::ServiceExt;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use serde_json::json;

/// A root, a folder beside it for what the stand-ins record, and a folder
/// of stand-in formatters.
struct Setup {
    _dir: tempfile::TempDir,
    root: PathBuf,
    outside: PathBuf,
    bin: PathBuf,
}

/// A stand-in formatter: records its name, working folder and arguments,
/// obeys a `.prettierrc.json` or `rustfmt.toml` in its folder (by leaving a
/// mark outside the root) unless its arguments turn configuration off, and
/// prints its input unchanged.
const STAND_IN: &str = r#"#!/bin/sh
log="OUTSIDE/calls.log"
echo "call $(basename "$0") cwd=$(pwd)" >> "$log"
for a in "$@"; do echo "arg $a" >> "$log"; done
case " $* " in
  *" --no-config "*|*"--config-path /dev/null"*|*"--isolated"*|*"--config=/dev/null"*) ;;
  *) if [ -f .prettierrc.json ] || [ -f rustfmt.toml ] || [ -f pyproject.toml ]; then touch "OUTSIDE/CONFIG-OBEYED"; fi ;;
esac
cat
"#;

/// A formatter that hangs, after starting a child that would leave a mark
/// if it were not stopped with it.
const HANGING: &str = r#"#!/bin/sh
(sleep 2; touch "OUTSIDE/CHILD-RAN-ON") &
sleep 60
"#;

impl Setup {
    fn new() -> Setup {
        let dir = tempfile::tempdir().unwrap();
        let base = std::fs::canonicalize(dir.path()).unwrap();
        let (root, outside, bin) = (base.join("root"), base.join("outside"), base.join("bin"));
        for folder in [&root, &outside, &bin] {
            std::fs::create_dir(folder).unwrap();
        }
        // What a client with write access to the root plants there.
        std::fs::write(
            root.join(".prettierrc.json"),
            r#"{"plugins":["./pwn.mjs"]}"#,
        )
        .unwrap();
        std::fs::write(
            root.join("pwn.mjs"),
            format!(
                "import fs from 'fs';\nfs.writeFileSync('{}', 'x');\nexport const languages = [];\n",
                outside.join("PLUGIN-RAN").display()
            ),
        )
        .unwrap();
        std::fs::write(root.join("rustfmt.toml"), "tab_spaces = 8\n").unwrap();
        std::fs::write(
            root.join("pyproject.toml"),
            "[tool.ruff]\nline-length = 20\n",
        )
        .unwrap();
        Setup {
            _dir: dir,
            root,
            outside,
            bin,
        }
    }

    fn stand_in(&self, name: &str, script: &str) {
        let path = self.bin.join(name);
        std::fs::write(
            &path,
            script.replace("OUTSIDE", &self.outside.display().to_string()),
        )
        .unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
    }

    /// A stdio server with `--format`, started in the root (where the old
    /// formatter runs found the planted configuration), with `bin` first
    /// on its `PATH`.
    async fn server(&self, bin: &Path, extra: &[&str]) -> Client {
        let path = format!(
            "{}:{}",
            bin.display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let command = tokio::process::Command::new(BIN).configure(|cmd| {
            cmd.arg(&self.root)
                .args(["--toolsets", "all", "--format"])
                .args(extra)
                .current_dir(&self.root)
                .env("PATH", path);
        });
        let (transport, _) = TokioChildProcess::builder(command)
            .stderr(Stdio::null())
            .spawn()
            .expect("start the server");
        ().serve(transport).await.expect("initialize over stdio")
    }

    fn outside_files(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(&self.outside)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    /// Every file of the root (not its folders, such as `.history`) with its bytes.
    fn root_files(&self) -> BTreeMap<String, Vec<u8>> {
        std::fs::read_dir(&self.root)
            .unwrap()
            .map(|e| e.unwrap())
            .filter(|e| e.file_type().unwrap().is_file())
            .map(|e| {
                (
                    e.file_name().to_string_lossy().into_owned(),
                    std::fs::read(e.path()).unwrap(),
                )
            })
            .collect()
    }
}

/// The stand-in calls recorded so far: (tool, working folder, arguments).
fn calls(log: &Path) -> Vec<(String, PathBuf, Vec<String>)> {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    let mut calls: Vec<(String, PathBuf, Vec<String>)> = Vec::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("call ") {
            let (tool, cwd) = rest.split_once(" cwd=").unwrap();
            calls.push((tool.to_string(), PathBuf::from(cwd), Vec::new()));
        } else if let Some(arg) = line.strip_prefix("arg ") {
            calls.last_mut().unwrap().2.push(arg.to_string());
        }
    }
    calls
}

#[tokio::test(flavor = "multi_thread")]
async fn formatters_run_without_configuration_outside_the_roots() {
    let setup = Setup::new();
    for tool in [
        "prettier",
        "rustfmt",
        "ruff",
        "gofmt",
        "clang-format",
        "shfmt",
        "taplo",
    ] {
        setup.stand_in(tool, STAND_IN);
    }
    // goimports would be found first if it were still run.
    setup.stand_in("goimports", STAND_IN);
    let files = [
        ("a.js", "const a = 1", "const b = 1", "prettier"),
        ("a.rs", "fn a() {}", "fn b() {}", "rustfmt"),
        ("a.py", "a = 1", "b = 1", "ruff"),
        ("a.go", "package a", "package b", "gofmt"),
        ("a.c", "int a;", "int b;", "clang-format"),
        ("a.sh", "echo a", "echo b", "shfmt"),
        ("a.toml", "a = 1", "b = 1", "taplo"),
    ];
    for (name, text, _, _) in files {
        std::fs::write(setup.root.join(name), format!("{text}\n")).unwrap();
    }
    let client = setup.server(&setup.bin, &[]).await;
    for (name, old, new, tool) in files {
        let reply = success(
            &call(
                &client,
                "edit_code",
                json!({"file_path": name, "search_context": old, "new_content": new}),
            )
            .await,
        );
        assert_eq!(
            reply["formatting"],
            format!("{tool} made no changes"),
            "{name}: {reply}"
        );
    }
    client.cancel().await.unwrap();

    let recorded = calls(&setup.outside.join("calls.log"));
    let tools: Vec<&str> = recorded.iter().map(|(t, _, _)| t.as_str()).collect();
    assert_eq!(
        tools,
        [
            "prettier",
            "rustfmt",
            "ruff",
            "gofmt",
            "clang-format",
            "shfmt",
            "taplo"
        ]
    );
    for (tool, cwd, args) in &recorded {
        // A fresh private folder outside the root, gone after the run.
        assert!(
            !cwd.starts_with(&setup.root),
            "{tool} ran in {}",
            cwd.display()
        );
        assert!(
            cwd.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("mcp-server-text-format-"),
            "{tool} ran in {}",
            cwd.display()
        );
        assert!(!cwd.exists(), "{} was left behind", cwd.display());
        let expected: &[&str] = match tool.as_str() {
            "prettier" => &[
                "--no-config",
                "--no-editorconfig",
                "--no-plugin-search",
                "--stdin-filepath=a.js",
            ],
            "rustfmt" => &[
                "--emit",
                "stdout",
                "--edition",
                "2021",
                "--quiet",
                "--config-path",
                "/dev/null",
            ],
            "ruff" => &[
                "format",
                "--isolated",
                "--quiet",
                "--stdin-filename=a.py",
                "-",
            ],
            "gofmt" => &[],
            "clang-format" => &["--style=LLVM", "--assume-filename=a.c"],
            "shfmt" => &["-i", "0", "--filename=a.sh"],
            "taplo" => &["fmt", "--no-auto-config", "-"],
            other => panic!("{other} was not expected to run"),
        };
        assert_eq!(args, expected, "{tool}");
    }
    // Nothing obeyed the planted configuration; nothing outside the root
    // but the log was written; the root holds the edits and the planted
    // files, nothing else.
    assert_eq!(setup.outside_files(), ["calls.log"]);
    let mut names: Vec<String> = setup.root_files().into_keys().collect();
    names.retain(|n| n != ".history");
    assert_eq!(
        names,
        [
            ".prettierrc.json",
            "a.c",
            "a.go",
            "a.js",
            "a.py",
            "a.rs",
            "a.sh",
            "a.toml",
            "pwn.mjs",
            "pyproject.toml",
            "rustfmt.toml"
        ]
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_hanging_formatter_is_stopped_with_everything_it_started() {
    let setup = Setup::new();
    setup.stand_in("shfmt", HANGING);
    std::fs::write(setup.root.join("a.sh"), "echo a\n").unwrap();
    let client = setup.server(&setup.bin, &["--format-timeout", "1"]).await;
    let reply = success(
        &call(
            &client,
            "edit_code",
            json!({"file_path": "a.sh", "search_context": "echo a", "new_content": "echo b"}),
        )
        .await,
    );
    assert_eq!(
        reply["formatting"],
        "shfmt did not finish within 1 s and was stopped; the file was written unformatted"
    );
    assert_eq!(
        std::fs::read_to_string(setup.root.join("a.sh")).unwrap(),
        "echo b\n"
    );
    // The child the formatter started would leave its mark after 2 s.
    std::thread::sleep(std::time::Duration::from_secs(3));
    assert!(
        setup.outside_files().is_empty(),
        "{:?}",
        setup.outside_files()
    );
    client.cancel().await.unwrap();
}

/// Where `scripts/install-clients` puts the real Prettier.
fn installed_prettier() -> Option<PathBuf> {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target"));
    let bin = target.join("clients/node/node_modules/.bin");
    bin.join("prettier").exists().then_some(bin)
}

#[tokio::test(flavor = "multi_thread")]
async fn the_real_prettier_loads_no_plugin_from_the_root() {
    let Some(bin) = installed_prettier() else {
        eprintln!(
            "skipped: Prettier is not installed; run scripts/install-clients to install it into target/clients"
        );
        return;
    };
    let setup = Setup::new();
    std::fs::write(setup.root.join("a.js"), "const a = 1;\n").unwrap();
    let client = setup.server(&bin, &[]).await;
    let reply = success(
        &call(
            &client,
            "edit_code",
            json!({"file_path": "a.js", "search_context": "const a = 1;", "new_content": "const   b = 2"}),
        )
        .await,
    );
    client.cancel().await.unwrap();
    assert_eq!(reply["formatting"], "formatted with prettier", "{reply}");
    // Formatted with Prettier's defaults (the semicolon), and the plugin the
    // planted configuration names never ran.
    assert_eq!(
        std::fs::read_to_string(setup.root.join("a.js")).unwrap(),
        "const b = 2;\n"
    );
    assert!(
        setup.outside_files().is_empty(),
        "{:?}",
        setup.outside_files()
    );
}
