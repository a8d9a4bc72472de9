//! The real files of the corpus: found through the manifest, each checked
//! against its pinned SHA-256, skipped (and counted) when missing or changed.

use std::path::{Path, PathBuf};
use std::process::Command;

use sha2::{Digest, Sha256};

use super::lang::Lang;

/// The manifest: where each file lives, its path there, its SHA-256.
const MANIFEST: &str = include_str!("manifest.tsv");

/// One file of the corpus.
#[derive(Debug, Clone)]
pub struct Source {
    /// Its manifest path, as cases name it.
    pub name: String,
    /// Its language.
    pub lang: Lang,
    /// Its text.
    pub text: String,
}

/// The files found, and how many of the manifest's were not.
#[derive(Debug, Default)]
pub struct Found {
    pub sources: Vec<Source>,
    pub missing: usize,
    pub changed: usize,
}

/// The folder holding the crate sources of the cargo registry, if any.
pub fn registry_roots() -> Vec<PathBuf> {
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cargo")));
    let Some(src) = home.map(|h| h.join("registry").join("src")) else {
        return Vec::new();
    };
    let mut roots: Vec<PathBuf> = std::fs::read_dir(&src)
        .map(|entries| entries.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    roots.sort();
    roots
}

/// The standard library folder of `python3`, if it runs.
pub fn python_root() -> Option<PathBuf> {
    let out = Command::new("python3")
        .args([
            "-c",
            "import sysconfig; print(sysconfig.get_paths()['stdlib'])",
        ])
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let path = String::from_utf8(out.stdout).ok()?;
    Some(PathBuf::from(path.trim()))
}

fn sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Every file of the manifest that is present with its pinned bytes.
pub fn load() -> Found {
    let registry = registry_roots();
    let python = python_root();
    let mut found = Found::default();
    for line in MANIFEST.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let mut parts = line.split('\t');
        let (Some(root), Some(path), Some(hash)) = (parts.next(), parts.next(), parts.next())
        else {
            panic!("bad manifest line: {line}");
        };
        let candidates: Vec<PathBuf> = match root {
            "cargo" => registry.iter().map(|r| r.join(path)).collect(),
            "python" => python.iter().map(|r| r.join(path)).collect(),
            other => panic!("unknown root {other} in the manifest"),
        };
        let Some(bytes) = candidates.iter().find_map(|p| std::fs::read(p).ok()) else {
            found.missing += 1;
            continue;
        };
        if sha256(&bytes) != hash {
            found.changed += 1;
            continue;
        }
        let (Ok(text), Some(lang)) = (String::from_utf8(bytes), Lang::of(path)) else {
            found.changed += 1;
            continue;
        };
        found.sources.push(Source {
            name: format!("{root}:{path}"),
            lang,
            text,
        });
    }
    found
}
