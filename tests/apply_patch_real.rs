//! ApplyPatch on real patches: `git diff` between two versions of a crate
//! that this machine's cargo registry holds (after a build it holds several
//! versions of some crates), applied to the older one. Nothing third-party
//! is kept in this repository; the pairs are found at test time, and the
//! tests say so and pass when there are none (or git is missing).
//!
//! - The diff gives the new version byte for byte, and so does the same
//!   diff with every hunk's line numbers shifted by 30.
//! - Drifted copies of the diff (whitespace changed in a context line, one
//!   hunk's line numbers moved, a context line gone stale) give the new
//!   version exactly or are refused: never another text. The counts per kind
//!   are printed (`cargo test --test apply_patch_real -- --nocapture`).
//!
//! Two pairs are taken (`PATCH_REAL_PAIRS=N` for more) and 60 drifted
//! patches of each kind per pair (`PATCH_DRIFT_CASES=N`).

mod support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use mcp_server_text::text::patch::place::apply;
use mcp_server_text::text::patch::{self, ChangeKind};
use mcp_server_text::tools::context::Settings;
use mcp_server_text::workspace::WorkspaceOptions;
use mcp_server_text::workspace::extensions::ExtensionFilter;
use serde_json::json;
use support::Vault;

/// The crate source folders of the cargo registry.
fn registry_dirs() -> Vec<PathBuf> {
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cargo")));
    let Some(src) = home.map(|h| h.join("registry").join("src")) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for index in std::fs::read_dir(src).into_iter().flatten().flatten() {
        for entry in std::fs::read_dir(index.path())
            .into_iter()
            .flatten()
            .flatten()
        {
            if entry.path().is_dir() {
                out.push(entry.path());
            }
        }
    }
    out.sort();
    out
}

/// `name-1.2.3` as `(name, [1, 2, 3])`.
fn name_and_version(dir: &Path) -> Option<(String, Vec<u64>)> {
    let base = dir.file_name()?.to_str()?;
    let at = base
        .char_indices()
        .find(|&(i, c)| c.is_ascii_digit() && base[..i].ends_with('-'))?
        .0;
    let version = base[at..]
        .split(['.', '-', '+'])
        .map(|p| p.parse::<u64>().unwrap_or(0))
        .collect();
    Some((base[..at - 1].to_string(), version))
}

/// Consecutive versions of every crate the registry has twice or more.
fn pairs() -> Vec<(PathBuf, PathBuf)> {
    let mut by_name: BTreeMap<String, Vec<(Vec<u64>, PathBuf)>> = BTreeMap::new();
    for dir in registry_dirs() {
        if let Some((name, version)) = name_and_version(&dir) {
            by_name.entry(name).or_default().push((version, dir));
        }
    }
    let mut out = Vec::new();
    for (_, mut versions) in by_name {
        versions.sort();
        versions.dedup_by(|a, b| a.0 == b.0);
        for w in versions.windows(2) {
            out.push((w[0].1.clone(), w[1].1.clone()));
        }
    }
    out
}

fn git(dir: &Path, args: &[&str]) -> Option<std::process::Output> {
    Command::new("git")
        .args(["-c", "core.autocrlf=false", "-c", "core.quotepath=true"])
        .args([
            "-c",
            "diff.noprefix=false",
            "-c",
            "diff.mnemonicPrefix=false",
        ])
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_ATTR_NOSYSTEM", "1")
        .output()
        .ok()
        .filter(|o| o.status.success())
}

fn copy_tree(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(entry.file_name());
        let kind = entry.file_type().unwrap();
        if kind.is_dir() {
            std::fs::create_dir_all(&target).unwrap();
            copy_tree(&entry.path(), &target);
        } else if kind.is_file() {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// Every file under `root` (outside the server's own folders and `.git`)
/// with its bytes.
fn tree(root: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            let name = entry.file_name();
            if dir == root && [".git", ".history", ".trash"].contains(&name.to_str().unwrap_or(""))
            {
                continue;
            }
            if path.is_dir() {
                stack.push(path);
            } else {
                let rel = path.strip_prefix(root).unwrap().to_path_buf();
                out.insert(rel, std::fs::read(&path).unwrap());
            }
        }
    }
    out
}

/// The `git diff` from `old` to `new` (renames found), or `None` when git
/// is missing or the diff has binary files.
fn git_diff(old: &Path, new: &Path) -> Option<String> {
    let work = tempfile::tempdir().unwrap();
    let repo = work.path().join("repo");
    std::fs::create_dir(&repo).unwrap();
    git(&repo, &["init", "-q"])?;
    copy_tree(old, &repo);
    // Forced: the crate's own .gitignore must not hide files of it.
    git(&repo, &["add", "-A", "-f"])?;
    git(
        &repo,
        &[
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "-c",
            "commit.gpgsign=false",
            "commit",
            "-qm",
            "old",
        ],
    )?;
    for entry in std::fs::read_dir(&repo).unwrap().flatten() {
        if entry.file_name() == ".git" {
            continue;
        }
        if entry.path().is_dir() {
            std::fs::remove_dir_all(entry.path()).unwrap();
        } else {
            std::fs::remove_file(entry.path()).unwrap();
        }
    }
    copy_tree(new, &repo);
    git(&repo, &["add", "-A", "-f"])?;
    let out = git(
        &repo,
        &["diff", "--cached", "-M", "--no-color", "--no-ext-diff"],
    )?;
    let diff = String::from_utf8(out.stdout).ok()?;
    (!diff.contains("\nBinary files ") && !diff.contains("GIT binary patch")).then_some(diff)
}

/// A vault that opens files of any ending.
fn any_file_vault() -> Vault {
    Vault::with_options(
        WorkspaceOptions {
            extensions: ExtensionFilter::parse("*"),
            ..WorkspaceOptions::default()
        },
        Settings::default(),
    )
}

/// Every hunk header's line numbers moved by `by`.
fn shifted(diff: &str, by: usize) -> String {
    let mut out = String::with_capacity(diff.len());
    for line in diff.split_inclusive('\n') {
        match line.strip_prefix("@@ -").and_then(|r| r.split_once(" @@")) {
            Some((ranges, rest)) => {
                let (old, new) = ranges.split_once(" +").unwrap();
                let bump = |r: &str| match r.split_once(',') {
                    Some((s, c)) => format!("{},{c}", s.parse::<usize>().unwrap() + by),
                    None => (r.parse::<usize>().unwrap() + by).to_string(),
                };
                out.push_str(&format!("@@ -{} +{} @@{rest}", bump(old), bump(new)));
            }
            None => out.push_str(line),
        }
    }
    out
}

/// How many pairs to take: `PATCH_REAL_PAIRS`, 2 by default.
fn pair_limit() -> usize {
    std::env::var("PATCH_REAL_PAIRS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2)
}

/// The pairs big enough for the acceptance check (≥ 50 hunks over ≥ 10
/// files), with their diffs, found one by one.
fn big_pairs() -> impl Iterator<Item = (PathBuf, PathBuf, String)> {
    pairs().into_iter().filter_map(|(old, new)| {
        let diff = git_diff(&old, &new)?;
        let hunks = diff.lines().filter(|l| l.starts_with("@@ -")).count();
        let files = diff
            .lines()
            .filter(|l| l.starts_with("diff --git "))
            .count();
        let size: u64 = tree(&old).values().map(|b| b.len() as u64).sum();
        (hunks >= 50 && files >= 10 && size < 20_000_000).then(|| {
            println!(
                "{} -> {}: {files} files, {hunks} hunks",
                old.display(),
                new.display()
            );
            (old, new, diff)
        })
    })
}

/// ApplyPatch of `diff` on a copy of `old`: the files afterwards, or the
/// refusal's message.
fn applied(old: &Path, diff: &str) -> Result<(BTreeMap<PathBuf, Vec<u8>>, usize), String> {
    let vault = any_file_vault();
    copy_tree(old, &vault.root);
    let out = vault
        .call("ApplyPatch", json!({"patch": diff}))
        .map_err(|e| e["message"].as_str().unwrap_or_default().to_string())?;
    let hunks = out["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["hunks"].as_array().map_or(0, Vec::len))
        .sum();
    Ok((tree(&vault.root), hunks))
}

/// Each pair's diff gives the new version byte for byte, with its numbers
/// as they are and shifted by 30. A diff whose hunks only absolute line
/// numbers could tell apart (two hunks that fit two places each, at the
/// same distance) is refused instead, the same way both times, and the next
/// pair is taken; at least one pair must land.
#[test]
fn a_real_git_diff_gives_the_new_version_byte_for_byte_even_with_shifted_numbers() {
    let (mut exact, mut seen) = (0, 0);
    for (old, new, diff) in big_pairs() {
        seen += 1;
        let want = tree(&new);
        let plain = applied(&old, &diff);
        let moved = applied(&old, &shifted(&diff, 30));
        match (&plain, &moved) {
            (Ok((got, hunks)), Ok((got_moved, _))) => {
                for (by, got) in [(0, got), (30, got_moved)] {
                    let differ: Vec<&PathBuf> = want
                        .keys()
                        .chain(got.keys())
                        .filter(|k| want.get(*k) != got.get(*k))
                        .collect();
                    assert!(
                        differ.is_empty(),
                        "{} (numbers shifted by {by}): {} files differ from the new version, e.g. {:?}",
                        new.display(),
                        differ.len(),
                        &differ[..differ.len().min(5)]
                    );
                }
                println!("  exact, numbers as given and shifted by 30: {hunks} hunks placed");
                exact += 1;
            }
            (Err(a), Err(b)) if a == b && a.contains("equally well") => {
                println!("  refused both times, as it should: {a}");
            }
            _ => panic!(
                "{}: as given {:?}, shifted by 30 {:?}",
                new.display(),
                plain.as_ref().map(|p| p.1),
                moved.as_ref().map(|p| p.1)
            ),
        }
        if exact == pair_limit() {
            break;
        }
    }
    if seen == 0 {
        println!(
            "skipped: no crate with two versions whose git diff has 50 hunks over 10 files (or git is missing)"
        );
    } else {
        assert!(exact > 0, "none of {seen} pairs landed");
    }
}

/// How each drifted patch came out.
#[derive(Debug, Default)]
struct Tally {
    exact: usize,
    refused: usize,
    wrong: Vec<String>,
}

/// The drifts, each applied to one hunk of a file's diff.
const KINDS: [&str; 4] = [
    "whitespace in a context line",
    "line numbers moved",
    "stale context line",
    "all numbers off by 500",
];

/// `hunk_lines` (the body of one hunk) with drift `kind`, or `None` when
/// the hunk has nothing to drift.
fn drift(
    kind: usize,
    header: &str,
    body: &[String],
    rng: &mut fastrand::Rng,
) -> Option<(String, Vec<String>)> {
    let context: Vec<usize> = body
        .iter()
        .enumerate()
        .filter(|(_, l)| l.starts_with(' ') && l.trim().len() > 2)
        .map(|(i, _)| i)
        .collect();
    let mut body = body.to_vec();
    let mut header = header.to_string();
    match kind {
        0 => {
            let &i = rng.choice(&context)?;
            let line = &body[i][1..];
            let text = match rng.usize(0..3) {
                0 => format!("{line}  "),
                1 => line.trim_start().to_string(),
                _ => format!("\t{line}"),
            };
            if text == line {
                return None;
            }
            body[i] = format!(" {text}");
        }
        1 | 3 => {
            let by: i64 = if kind == 3 { 500 } else { rng.i64(-40..=40) };
            let (ranges, rest) = header.strip_prefix("@@ -")?.split_once(" @@")?;
            let (old, new) = ranges.split_once(" +")?;
            let bump = |r: &str| -> Option<String> {
                let (s, c) = r.split_once(',').unwrap_or((r, ""));
                let s = (s.parse::<i64>().ok()? + by).max(1);
                Some(if c.is_empty() {
                    s.to_string()
                } else {
                    format!("{s},{c}")
                })
            };
            header = format!("@@ -{} +{} @@{rest}", bump(old)?, bump(new)?);
        }
        _ => {
            let &i = rng.choice(&context)?;
            let line = &body[i][1..];
            let words: Vec<&str> = line.split_whitespace().collect();
            let w = rng.usize(0..words.len());
            let stale = line.replacen(words[w], &format!("{}_old", words[w]), 1);
            body[i] = format!(" {stale}");
        }
    }
    Some((header, body))
}

/// One file's part of a diff: its header lines and its hunks (header, body).
struct FileDiff {
    head: Vec<String>,
    hunks: Vec<(String, Vec<String>)>,
}

fn split_files(diff: &str) -> Vec<FileDiff> {
    let mut files: Vec<FileDiff> = Vec::new();
    for line in diff.lines() {
        if line.starts_with("diff --git ") {
            files.push(FileDiff {
                head: vec![line.to_string()],
                hunks: Vec::new(),
            });
        } else if let Some(file) = files.last_mut() {
            if line.starts_with("@@ -") {
                file.hunks.push((line.to_string(), Vec::new()));
            } else if let Some((_, body)) = file.hunks.last_mut() {
                body.push(line.to_string());
            } else {
                file.head.push(line.to_string());
            }
        }
    }
    files
}

fn render(file: &FileDiff, hunks: &[(String, Vec<String>)]) -> String {
    let mut out = file.head.join("\n");
    for (header, body) in hunks {
        out.push('\n');
        out.push_str(header);
        for line in body {
            out.push('\n');
            out.push_str(line);
        }
    }
    out.push('\n');
    out
}

#[test]
fn drifted_real_diffs_land_exactly_or_are_refused() {
    let cases_per_kind: usize = std::env::var("PATCH_DRIFT_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(60);
    let mut rng = fastrand::Rng::with_seed(24);
    let mut tallies: Vec<Tally> = KINDS.iter().map(|_| Tally::default()).collect();
    for (old, new, diff) in big_pairs().take(pair_limit()) {
        let files: Vec<FileDiff> = split_files(&diff)
            .into_iter()
            .filter(|f| !f.hunks.is_empty())
            .collect();
        for (kind, tally) in tallies.iter_mut().enumerate() {
            let mut made = 0;
            let mut tries = 0;
            while made < cases_per_kind && tries < cases_per_kind * 20 {
                tries += 1;
                let file = &files[rng.usize(0..files.len())];
                let text = render(file, &file.hunks);
                let parsed = patch::parse(&text).unwrap();
                let change = &parsed.files[0];
                if change.kind != ChangeKind::Update || change.new_path.is_some() {
                    continue;
                }
                let k = rng.usize(0..file.hunks.len());
                let (header, body) = &file.hunks[k];
                let Some(drifted) = drift(kind, header, body, &mut rng) else {
                    continue;
                };
                let mut hunks = file.hunks.clone();
                hunks[k] = drifted;
                let Ok(source) = std::fs::read_to_string(old.join(&change.path)) else {
                    continue;
                };
                let want = std::fs::read_to_string(new.join(&change.path)).unwrap();
                let drifted_patch = patch::parse(&render(file, &hunks)).unwrap();
                made += 1;
                match apply(&source, &drifted_patch.files[0].hunks) {
                    Ok(out) if out.text == want => tally.exact += 1,
                    Ok(out) => tally.wrong.push(format!(
                        "{} hunk {}:\n{}\n== expected -> got\n{}",
                        change.path,
                        k + 1,
                        render(file, &hunks[k..=k]),
                        similar::TextDiff::from_lines(want.as_str(), out.text.as_str())
                            .unified_diff()
                            .context_radius(2)
                    )),
                    Err(_) => tally.refused += 1,
                }
            }
        }
    }
    for (kind, tally) in KINDS.iter().zip(&tallies) {
        println!(
            "{kind}: {} exact, {} refused, {} wrong",
            tally.exact,
            tally.refused,
            tally.wrong.len()
        );
    }
    let wrong: Vec<&String> = tallies.iter().flat_map(|t| &t.wrong).collect();
    assert!(
        wrong.is_empty(),
        "{} wrong results:\n{}",
        wrong.len(),
        wrong
            .iter()
            .map(|w| w.as_str())
            .collect::<Vec<_>>()
            .join("\n\n")
    );
}
