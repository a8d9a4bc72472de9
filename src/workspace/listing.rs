//! Listing folders (ListDirectories) and files (ListFiles).
//!
//! The walks never follow a symbolic link to a folder, so they cannot leave the
//! folder they start in. Hidden folders (names starting with `.`, the trash
//! among them) are neither listed nor entered, and neither are folders that a
//! `.gitignore` in the walked folders ignores: a listing shows the folders a
//! person works in, not `.git`, `node_modules` or `target`. Files inside a
//! listed folder are all listed, hidden ones included, except this program's
//! own temp files. A symbolic link to a file is listed only when it leads to a
//! file inside the roots.
//!
//! Folders are gathered breadth first, so a listing cut short at its limit
//! still shows the top levels in full.
//!
//! Every folder is opened, and every entry looked at, through the directory
//! handle of its root: a folder swapped for a link out of the root while a
//! listing runs is not listed.
//!
//! ```
//! use mcp_server_text::workspace::listing::list_directories;
//! use mcp_server_text::workspace::roots::Roots;
//!
//! let dir = tempfile::tempdir().unwrap();
//! std::fs::create_dir_all(dir.path().join("notes/2026")).unwrap();
//! std::fs::create_dir_all(dir.path().join(".git/objects")).unwrap();
//! let roots = Roots::new(vec![dir.path().to_path_buf()]).unwrap();
//! let root = roots.resolve_existing(".").unwrap();
//! let tree = list_directories(&roots, &[root.clone()], 100);
//! assert_eq!(tree.count, 3);
//! assert_eq!(tree.trees[0].children[0].children[0].path, root.real.join("notes/2026"));
//! ```

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

use cap_std::fs::Dir;
use ignore::Match;
use ignore::gitignore::{Gitignore, GitignoreBuilder};

use super::atomic_write::is_own_name;
use super::beneath::{open_folder, open_for_reading, or_dot};
use super::read::read_limited;
use super::roots::{ResolvedPath, Roots};

/// Largest `.gitignore` a listing reads; longer ones are not used.
const MAX_IGNORE_FILE: u64 = 1 << 20;

/// How many folder levels a tree shows below the folder it starts at; deeper
/// folders make the listing truncated. Keeps responses within the nesting
/// depth JSON readers accept.
pub const MAX_TREE_DEPTH: usize = 40;

/// A folder and the folders in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DirNode {
    /// The folder's real path.
    pub path: PathBuf,
    /// Its listed subfolders, by name.
    pub children: Vec<DirNode>,
}

/// The result of [`list_directories`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DirTree {
    /// One tree per start folder.
    pub trees: Vec<DirNode>,
    /// How many folders the trees hold, start folders included.
    pub count: usize,
    /// Whether folders were left out to stay within the limit or the depth.
    pub truncated: bool,
}

/// The folders under each of `starts` (resolved folders), at most `limit` in
/// all (the start folders count too).
pub fn list_directories(roots: &Roots, starts: &[ResolvedPath], limit: usize) -> DirTree {
    struct Slot {
        path: PathBuf,
        children: Vec<usize>,
    }
    let mut slots: Vec<Slot> = starts
        .iter()
        .map(|p| Slot {
            path: p.real.clone(),
            children: Vec::new(),
        })
        .collect();
    // Each folder with its depth, the ignore rules above it and its root.
    let mut queue: VecDeque<(usize, usize, IgnoreChain, &Path)> = starts
        .iter()
        .enumerate()
        .map(|(i, start)| (i, 0, IgnoreChain::default(), start.root.as_path()))
        .collect();
    let mut count = slots.len();
    let mut truncated = false;
    'walk: while let Some((id, depth, chain, root)) = queue.pop_front() {
        let (subfolders, _, chain) = read_folder(roots, root, &slots[id].path, &chain);
        if depth == MAX_TREE_DEPTH {
            truncated |= !subfolders.is_empty();
            continue;
        }
        for sub in subfolders {
            if count >= limit {
                truncated = true;
                break 'walk;
            }
            slots.push(Slot {
                path: sub,
                children: Vec::new(),
            });
            let child = slots.len() - 1;
            slots[id].children.push(child);
            queue.push_back((child, depth + 1, chain.clone(), root));
            count += 1;
        }
    }

    fn build(slots: &mut [Slot], id: usize) -> DirNode {
        let children = std::mem::take(&mut slots[id].children);
        DirNode {
            path: std::mem::take(&mut slots[id].path),
            children: children.into_iter().map(|c| build(slots, c)).collect(),
        }
    }
    let trees = (0..starts.len()).map(|i| build(&mut slots, i)).collect();
    DirTree {
        trees,
        count,
        truncated,
    }
}

/// A file in a listing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileEntry {
    /// The file's path (for a symbolic link, the link's own path).
    pub path: PathBuf,
    /// Size in bytes.
    pub size: u64,
    /// Last modification, where the file system records it.
    pub modified: Option<SystemTime>,
}

/// One page of a file listing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FilePage {
    /// The files, by path.
    pub files: Vec<FileEntry>,
    /// Whether more files follow this page.
    pub truncated: bool,
}

/// The files in `dir` (a real, confined folder), and with `recursive` in its
/// subfolders, skipping the first `offset` and returning at most `limit`.
/// `roots` decides which symbolic links to files may be listed.
pub fn list_files(
    roots: &Roots,
    dir: &ResolvedPath,
    recursive: bool,
    offset: usize,
    limit: usize,
) -> FilePage {
    let mut files = Vec::new();
    let mut seen = 0usize;
    // Depth first, each folder's files before its subfolders, all by name:
    // the same order on every call, so pages join up.
    let mut stack = vec![(dir.real.clone(), IgnoreChain::default())];
    while let Some((folder, chain)) = stack.pop() {
        let (subfolders, entries, chain) = read_folder(roots, &dir.root, &folder, &chain);
        for (path, own) in entries {
            let Some(entry) = file_entry(roots, path, own) else {
                continue;
            };
            seen += 1;
            if seen <= offset {
                continue;
            }
            if files.len() == limit {
                return FilePage {
                    files,
                    truncated: true,
                };
            }
            files.push(entry);
        }
        if recursive {
            stack.extend(subfolders.into_iter().rev().map(|s| (s, chain.clone())));
        }
    }
    FilePage {
        files,
        truncated: false,
    }
}

/// The listable subfolders and the other entries (files and links, with
/// their own metadata) of `folder` (a real path in `root`), each sorted by
/// name, and the ignore chain inside it. An unreadable folder has none.
fn read_folder(
    roots: &Roots,
    root: &Path,
    folder: &Path,
    chain: &IgnoreChain,
) -> (
    Vec<PathBuf>,
    Vec<(PathBuf, cap_std::fs::Metadata)>,
    IgnoreChain,
) {
    let mut folders = Vec::new();
    let mut others = Vec::new();
    let handle = roots
        .dir(root)
        .and_then(|dir| open_folder(dir, folder.strip_prefix(root).unwrap_or(Path::new(""))).ok());
    let Some(handle) = handle else {
        return (folders, others, chain.clone());
    };
    let chain = chain.enter(&handle, folder);
    let Ok(entries) = handle.entries() else {
        return (folders, others, chain);
    };
    for entry in entries.flatten() {
        // The entry's own type: a symbolic link is a link here, never a folder.
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        let name = entry.file_name();
        let path = folder.join(&name);
        if kind.is_dir() {
            let hidden = name.as_encoded_bytes().first() == Some(&b'.');
            if !hidden && !chain.ignores(&path, true) {
                folders.push(path);
            }
        } else if let Ok(meta) = handle.symlink_metadata(&name) {
            others.push((path, meta));
        }
    }
    folders.sort();
    others.sort_by(|a, b| a.0.cmp(&b.0));
    (folders, others, chain)
}

/// The listing entry of a non-folder at `path` with metadata `own`, if it is
/// listed at all.
fn file_entry(roots: &Roots, path: PathBuf, own: cap_std::fs::Metadata) -> Option<FileEntry> {
    if path.file_name().is_some_and(is_own_name) {
        return None;
    }
    let meta = if own.file_type().is_symlink() {
        // Only a link that resolves to a file inside the roots: its size and
        // time would otherwise describe something outside.
        let resolved = roots.resolve_existing(path.to_str()?).ok()?;
        let (dir, rel) = roots.handle(&resolved)?;
        dir.metadata(or_dot(rel)).ok()?
    } else {
        own
    };
    if !meta.is_file() {
        return None;
    }
    Some(FileEntry {
        path,
        size: meta.len(),
        modified: meta.modified().ok().map(|t| t.into_std()),
    })
}

/// The `.gitignore` files from the start of a walk down to the current
/// folder, nearest last.
#[derive(Debug, Clone, Default)]
struct IgnoreChain(Vec<Arc<Gitignore>>);

impl IgnoreChain {
    /// The chain inside `folder` (opened as `handle`): with its
    /// `.gitignore`, if it has one that is a regular file (a link could lead
    /// outside the roots).
    fn enter(&self, handle: &Dir, folder: &Path) -> IgnoreChain {
        let name = Path::new(".gitignore");
        let is_file = handle.symlink_metadata(name).is_ok_and(|m| m.is_file());
        if !is_file {
            return self.clone();
        }
        let Ok(bytes) =
            open_for_reading(handle, name).and_then(|file| read_limited(&file, MAX_IGNORE_FILE))
        else {
            return self.clone();
        };
        let mut builder = GitignoreBuilder::new(folder);
        for line in String::from_utf8_lossy(&bytes).lines() {
            // A line that does not parse is skipped; the others still count.
            let _ = builder.add_line(Some(folder.join(name)), line);
        }
        match builder.build() {
            Ok(gitignore) if !gitignore.is_empty() => {
                let mut chain = self.clone();
                chain.0.push(Arc::new(gitignore));
                chain
            }
            _ => self.clone(),
        }
    }

    /// Whether the nearest `.gitignore` with an opinion ignores `path`.
    fn ignores(&self, path: &Path, is_dir: bool) -> bool {
        for gitignore in self.0.iter().rev() {
            match gitignore.matched(path, is_dir) {
                Match::Ignore(_) => return true,
                Match::Whitelist(_) => return false,
                Match::None => {}
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree_paths(node: &DirNode, base: &Path, out: &mut Vec<String>) {
        out.push(node.path.strip_prefix(base).unwrap().display().to_string());
        for child in &node.children {
            tree_paths(child, base, out);
        }
    }

    fn setup() -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        for folder in [
            "a/a1/a11",
            "a/a2",
            "b",
            ".trash/2026-11-22T04-05-06Z",
            ".obsidian",
            "target/debug",
            "logs/keep",
        ] {
            std::fs::create_dir_all(root.join(folder)).unwrap();
        }
        std::fs::write(root.join(".gitignore"), "target/\nlogs/*\n!logs/keep\n").unwrap();
        (dir, root)
    }

    #[test]
    fn folders_breadth_first_without_hidden_or_ignored_ones() {
        let (_dir, root) = setup();
        let roots = Roots::new(vec![root.clone()]).unwrap();
        let start = roots.resolve_existing(".").unwrap();
        let tree = list_directories(&roots, std::slice::from_ref(&start), 100);
        let mut paths = Vec::new();
        tree_paths(&tree.trees[0], &root, &mut paths);
        assert_eq!(
            paths,
            [
                "",
                "a",
                "a/a1",
                "a/a1/a11",
                "a/a2",
                "b",
                "logs",
                "logs/keep"
            ]
        );
        assert!(!tree.truncated);
        assert_eq!(tree.count, 8);

        // Cut short, the shallow folders are the ones kept.
        let tree = list_directories(&roots, std::slice::from_ref(&start), 5);
        let mut paths = Vec::new();
        tree_paths(&tree.trees[0], &root, &mut paths);
        assert_eq!(paths, ["", "a", "a/a1", "b", "logs"]);
        assert!(tree.truncated);
    }

    #[cfg(unix)]
    #[test]
    fn symlinked_folders_are_not_entered() {
        let (_dir, root) = setup();
        let outside = tempfile::tempdir().unwrap();
        std::fs::create_dir(outside.path().join("secret")).unwrap();
        std::os::unix::fs::symlink(outside.path(), root.join("b/out")).unwrap();
        let roots = Roots::new(vec![root.clone()]).unwrap();
        let start = roots.resolve_existing(".").unwrap();
        let tree = list_directories(&roots, std::slice::from_ref(&start), 100);
        let mut paths = Vec::new();
        tree_paths(&tree.trees[0], &root, &mut paths);
        assert!(paths.iter().all(|p| !p.contains("out")), "{paths:?}");
    }

    #[cfg(unix)]
    #[test]
    fn files_in_order_with_pages_and_only_links_that_stay_inside() {
        let (_dir, root) = setup();
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret.md"), "s").unwrap();
        for file in [
            "z.md",
            "a/one.md",
            "a/a1/deep.md",
            "b/two.txt",
            ".hidden.md",
        ] {
            std::fs::write(root.join(file), "x").unwrap();
        }
        std::fs::write(root.join(".z.md.AbC123.mcp-server-text.tmp"), "t").unwrap();
        std::fs::write(root.join("target/debug/out.md"), "x").unwrap();
        std::fs::write(root.join(".trash/2026-11-22T04-05-06Z/gone.md"), "x").unwrap();
        std::os::unix::fs::symlink(root.join("z.md"), root.join("b/inner-link.md")).unwrap();
        std::os::unix::fs::symlink(outside.path().join("secret.md"), root.join("b/out.md"))
            .unwrap();
        let roots = Roots::new(vec![root.clone()]).unwrap();
        let start = roots.resolve_existing(".").unwrap();
        let names = |page: &FilePage| -> Vec<String> {
            page.files
                .iter()
                .map(|f| f.path.strip_prefix(&root).unwrap().display().to_string())
                .collect()
        };

        let flat = list_files(&roots, &start, false, 0, 100);
        assert_eq!(names(&flat), [".gitignore", ".hidden.md", "z.md"]);
        assert_eq!(flat.files[2].size, 1);
        assert!(flat.files[2].modified.is_some());

        let all = list_files(&roots, &start, true, 0, 100);
        assert_eq!(
            names(&all),
            [
                ".gitignore",
                ".hidden.md",
                "z.md",
                "a/one.md",
                "a/a1/deep.md",
                "b/inner-link.md",
                "b/two.txt"
            ]
        );
        assert!(!all.truncated);

        let first = list_files(&roots, &start, true, 0, 4);
        let second = list_files(&roots, &start, true, 4, 4);
        assert!(first.truncated && !second.truncated);
        assert_eq!([names(&first), names(&second)].concat(), names(&all));
    }
}
