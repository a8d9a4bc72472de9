//! Listing the files a walk of the roots sees, by the same rules as a search
//! (hidden, ignored and trashed files left out, symbolic links not
//! followed), without reading them: how a link check learns which notes
//! exist.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use mcp_server_text::workspace::roots::Roots;
//! use mcp_server_text::workspace::search::files::walk_files;
//!
//! let dir = tempfile::tempdir().unwrap();
//! std::fs::create_dir(dir.path().join("notes")).unwrap();
//! std::fs::write(dir.path().join("notes/a.md"), "# A\n").unwrap();
//! std::fs::write(dir.path().join(".hidden.md"), "").unwrap();
//! let roots = Roots::new(vec![dir.path().to_path_buf()]).unwrap();
//! let listed = walk_files(&roots.resolve_existing(".").unwrap(), usize::MAX, &AtomicBool::new(false));
//! assert_eq!(listed.files.len(), 1);
//! assert!(listed.files[0].ends_with("notes/a.md"));
//! ```

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

use super::walk::{Unreadable, walk_builder};
use crate::workspace::roots::ResolvedPath;

/// The files a walk found.
#[derive(Debug, Default)]
pub struct WalkedFiles {
    /// Real paths of the regular files, sorted.
    pub files: Vec<PathBuf>,
    /// Folders that could not be listed, with the reason.
    pub unreadable: Vec<Unreadable>,
    /// Whether the walk stopped at `limit` files.
    pub truncated: bool,
    /// Whether the walk stopped because it was cancelled.
    pub cancelled: bool,
}

/// The regular files under `folder`, at most `limit` of them.
pub fn walk_files(folder: &ResolvedPath, limit: usize, cancel: &AtomicBool) -> WalkedFiles {
    let mut out = WalkedFiles::default();
    for entry in walk_builder(folder).build() {
        if cancel.load(Ordering::Relaxed) {
            out.cancelled = true;
            break;
        }
        let entry = match entry {
            Ok(entry) => entry,
            Err(error) => {
                record(&mut out.unreadable, &error);
                continue;
            }
        };
        let Some(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_file() {
            if out.files.len() == limit {
                out.truncated = true;
                break;
            }
            out.files.push(entry.into_path());
        }
    }
    out.files.sort_unstable();
    out
}

/// Records a folder the walker could not list.
fn record(unreadable: &mut Vec<Unreadable>, error: &ignore::Error) {
    match error {
        ignore::Error::WithPath { path, err } => match err.as_ref() {
            ignore::Error::Io(io) => unreadable.push(Unreadable {
                path: path.clone(),
                reason: format!("the folder could not be listed: {io}"),
            }),
            other => record(unreadable, other),
        },
        ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
            record(unreadable, err)
        }
        ignore::Error::Partial(errors) => errors.iter().for_each(|e| record(unreadable, e)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::roots::Roots;

    #[test]
    fn same_rules_as_a_search() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for (path, text) in [
            ("a.md", ""),
            ("img/p.png", "png"),
            (".hidden/x.md", ""),
            (".trash/2026/old.md", ""),
            ("build/out.md", ""),
            ("sub/.trash/kept.md", ""),
            (".gitignore", "build/\n"),
        ] {
            let path = root.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        #[cfg(unix)]
        std::os::unix::fs::symlink(root.join("a.md"), root.join("link.md")).unwrap();
        let roots = Roots::new(vec![root.to_path_buf()]).unwrap();
        let walked = walk_files(
            &roots.resolve_existing(".").unwrap(),
            usize::MAX,
            &AtomicBool::new(false),
        );
        let real = roots.resolve_existing(".").unwrap().real;
        let names: Vec<String> = walked
            .files
            .iter()
            .map(|p| p.strip_prefix(&real).unwrap().display().to_string())
            .collect();
        // `.trash` is skipped at any depth below the start, like a search does.
        assert_eq!(names, ["a.md", "img/p.png"]);
        let capped = walk_files(
            &roots.resolve_existing(".").unwrap(),
            1,
            &AtomicBool::new(false),
        );
        assert_eq!(capped.files.len(), 1);
        assert!(capped.truncated);
    }
}
