//! Formatting source text with the language's usual formatter, when one is
//! installed: `rustfmt`, `gofmt`, `ruff format` (or `black`), `prettier`,
//! `clang-format`, `shfmt`, `taplo`. Text goes in on stdin and comes back on
//! stdout; the file itself is never touched by the formatter.
//!
//! A formatter reads nothing a client can write. Each runs with the flags
//! that turn off its configuration files (and with them plugins, which only a
//! configuration can name), in a folder of its own: a fresh folder in the
//! system's temp folder, readable only by the server's user, created for the
//! run and removed after it, and never inside a root (formatting is skipped
//! if it would be). It gets only the file's name, never a path into a root,
//! and is stopped, with every process it started, after its time limit
//! ([`FORMAT_TIME_LIMIT`] unless `--format-timeout` says otherwise).
//!
//! | formatter | run as | what it still reads |
//! |---|---|---|
//! | rustfmt | `--config-path /dev/null` | nothing but stdin |
//! | gofmt | (no configuration exists) | nothing but stdin |
//! | ruff | `format --isolated` | nothing but stdin |
//! | black | `--config /dev/null` | nothing but stdin |
//! | prettier | `--no-config --no-editorconfig --no-plugin-search` | `.gitignore` and `.prettierignore` of its (empty, private) folder |
//! | clang-format | `--style=LLVM` | nothing but stdin |
//! | shfmt | `-i 0` (any style flag turns EditorConfig off) | nothing but stdin |
//! | taplo | `fmt --no-auto-config` | nothing but stdin |
//!
//! `goimports` is not run: it works through the `go` command, which reads
//! the `go.mod` of the folder it runs in and of its parents, and can fetch
//! and run the Go toolchain a `go.mod` names.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::external::{Command, RunError, run};
use crate::text::syntax::Language;

/// How long a formatter may run unless `--format-timeout` says otherwise.
pub const FORMAT_TIME_LIMIT: Duration = Duration::from_secs(20);

/// What formatting did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Formatted {
    /// The formatter ran; here is the formatted text (maybe unchanged).
    Text {
        /// The formatter's name.
        tool: &'static str,
        /// The formatted text.
        text: String,
    },
    /// Nothing was done, and why (no formatter for the language, none
    /// installed, or it failed): a note, not an error.
    Skipped(String),
}

/// The formatters of `language`, first choice first, each with the
/// arguments that keep it from reading any configuration.
fn candidates(language: Language, file_name: &str) -> Vec<(&'static str, Command)> {
    match language {
        Language::Rust => vec![(
            "rustfmt",
            Command::new(
                "rustfmt",
                &[
                    "--emit",
                    "stdout",
                    "--edition",
                    "2021",
                    "--quiet",
                    "--config-path",
                    "/dev/null",
                ],
            ),
        )],
        Language::Go => vec![("gofmt", Command::new("gofmt", &[]))],
        Language::Python => vec![
            (
                "ruff",
                Command::new(
                    "ruff",
                    &[
                        "format",
                        "--isolated",
                        "--quiet",
                        &format!("--stdin-filename={file_name}"),
                        "-",
                    ],
                ),
            ),
            (
                "black",
                Command::new("black", &["--quiet", "--config=/dev/null", "-"]),
            ),
        ],
        Language::JavaScript
        | Language::TypeScript
        | Language::Tsx
        | Language::Json
        | Language::Css
        | Language::Html
        | Language::Yaml => vec![(
            "prettier",
            Command::new(
                "prettier",
                &[
                    "--no-config",
                    "--no-editorconfig",
                    // Prettier 2 also searched node_modules for plugins;
                    // Prettier 3 searches nowhere and only warns about it.
                    "--no-plugin-search",
                    &format!("--stdin-filepath={file_name}"),
                ],
            ),
        )],
        Language::C | Language::Cpp | Language::Java => vec![(
            "clang-format",
            Command::new(
                "clang-format",
                &["--style=LLVM", &format!("--assume-filename={file_name}")],
            ),
        )],
        Language::Bash => vec![(
            "shfmt",
            Command::new("shfmt", &["-i", "0", &format!("--filename={file_name}")]),
        )],
        Language::Toml => vec![(
            "taplo",
            Command::new("taplo", &["fmt", "--no-auto-config", "-"]),
        )],
    }
}

/// Formats `text` of `language` (in a file named `file_name`) with the first
/// installed formatter, run in a private folder outside every one of `roots`
/// and stopped after `limit`.
pub fn format(
    language: Language,
    file_name: &str,
    text: &str,
    roots: &[PathBuf],
    limit: Duration,
) -> Formatted {
    let folder = match PrivateFolder::create(roots) {
        Ok(folder) => folder,
        Err(why) => {
            return Formatted::Skipped(format!(
                "not formatted: {why}; the file was written unformatted"
            ));
        }
    };
    // A formatter prints the whole file, somewhat longer at most; more than
    // this is not a formatted copy of it.
    let max_stdout = text.len().saturating_mul(2).saturating_add(64 * 1024);
    let mut missing = Vec::new();
    for (tool, command) in candidates(language, file_name) {
        let command = command
            .in_dir(folder.path().to_path_buf())
            .with_stdin(text.as_bytes().to_vec())
            .keeping_stdout(max_stdout);
        match run(&command, limit) {
            Ok(out) if out.timed_out => {
                return Formatted::Skipped(format!(
                    "{tool} did not finish within {} s and was stopped; the file was written unformatted",
                    limit.as_secs()
                ));
            }
            Ok(out) if out.stdout_cut => {
                return Formatted::Skipped(format!(
                    "{tool} printed more than twice the file; the file was written unformatted"
                ));
            }
            Ok(out) if out.success && !out.stdout.is_empty() => {
                return Formatted::Text {
                    tool,
                    text: out.stdout,
                };
            }
            Ok(out) => {
                let why = out.stderr.lines().next().unwrap_or("no output").to_string();
                return Formatted::Skipped(format!(
                    "{tool} failed ({why}); the file was written unformatted"
                ));
            }
            Err(RunError::NotFound(_)) => missing.push(tool),
            Err(e) => {
                return Formatted::Skipped(format!(
                    "{tool}: {e}; the file was written unformatted"
                ));
            }
        }
    }
    Formatted::Skipped(format!(
        "no formatter for {} is installed ({}); the file was written unformatted",
        language.name(),
        missing.join(" or ")
    ))
}

/// A folder only the server's user can use, made for one formatter run in
/// the system's temp folder and removed when dropped.
struct PrivateFolder {
    path: PathBuf,
}

impl PrivateFolder {
    /// Creates the folder (mode 0700, a random name, never an existing one),
    /// unless it would lie inside one of `roots`.
    fn create(roots: &[PathBuf]) -> Result<PrivateFolder, String> {
        let temp = std::env::temp_dir();
        let temp = temp.canonicalize().unwrap_or(temp);
        if let Some(root) = roots.iter().find(|root| {
            let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
            temp.starts_with(&root)
        }) {
            return Err(format!(
                "the system's temp folder {} lies inside the root {}, so a formatter could read files a client wrote there",
                temp.display(),
                root.display()
            ));
        }
        let mut builder = std::fs::DirBuilder::new();
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        for _ in 0..16 {
            let path = temp.join(format!("mcp-server-text-format-{:016x}", fastrand::u64(..)));
            match builder.create(&path) {
                Ok(()) => return Ok(PrivateFolder { path }),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => {
                    return Err(format!(
                        "a private folder for the formatter could not be made in {}: {e}",
                        temp.display()
                    ));
                }
            }
        }
        Err(format!(
            "no unused name for a private folder was found in {}",
            temp.display()
        ))
    }

    fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for PrivateFolder {
    fn drop(&mut self) {
        // A formatter may have left a cache behind.
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_formatter_is_told_to_read_no_configuration() {
        for language in Language::ALL {
            for (tool, command) in candidates(language, "x.any") {
                let args = command.args.join(" ");
                let off = match tool {
                    "rustfmt" => "--config-path /dev/null",
                    "gofmt" => "",
                    "ruff" => "--isolated",
                    "black" => "--config=/dev/null",
                    "prettier" => "--no-config --no-editorconfig --no-plugin-search",
                    "clang-format" => "--style=LLVM",
                    "shfmt" => "-i 0",
                    "taplo" => "--no-auto-config",
                    other => panic!("{other} has no known way to run without configuration"),
                };
                assert!(args.contains(off), "{tool}: {args}");
                assert!(
                    !args.contains('/') || args.contains("/dev/null"),
                    "{tool}: {args}"
                );
            }
        }
    }

    #[test]
    fn the_private_folder_is_closed_to_others_and_removed() {
        let folder = PrivateFolder::create(&[]).unwrap();
        let path = folder.path().to_path_buf();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o700);
        }
        std::fs::write(path.join("cache"), "x").unwrap();
        drop(folder);
        assert!(!path.exists());
    }

    #[test]
    fn no_private_folder_inside_a_root() {
        let temp = std::env::temp_dir();
        let error = PrivateFolder::create(std::slice::from_ref(&temp))
            .err()
            .unwrap();
        assert!(error.contains("lies inside the root"), "{error}");
    }
}
