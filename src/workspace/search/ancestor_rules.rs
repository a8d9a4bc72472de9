//! The ignore files of the folders between a root and the folder a search
//! starts in.
//!
//! The walker reads `.gitignore` and `.ignore` files from the folder it starts
//! in downwards. When a search starts in a subfolder, the files of the folders
//! above it, up to and including its root, still apply; those above the root
//! do not, and are never read: a search sees only what is inside the roots.
//!
//! ```
//! use mcp_server_text::workspace::search::ancestor_rules::AncestorRules;
//!
//! let dir = tempfile::tempdir().unwrap();
//! let root = dir.path();
//! std::fs::create_dir_all(root.join("notes/drafts")).unwrap();
//! std::fs::write(root.join(".gitignore"), "drafts/\n*.log\n").unwrap();
//! let rules = AncestorRules::between(root, &root.join("notes"));
//! assert!(rules.ignores(&root.join("notes/drafts"), true));
//! assert!(rules.ignores(&root.join("notes/today.log"), false));
//! assert!(!rules.ignores(&root.join("notes/today.md"), false));
//! ```

use std::path::Path;

use ignore::Match;
use ignore::gitignore::{Gitignore, GitignoreBuilder};

/// Ignore rules from the folders above a search's start, inside its root.
#[derive(Debug, Clone, Default)]
pub struct AncestorRules {
    /// Deepest folder first; in each folder `.ignore` before `.gitignore`,
    /// the order in which they take precedence.
    matchers: Vec<Gitignore>,
}

impl AncestorRules {
    /// The rules of `root` and of each folder below it down to `start`'s
    /// parent. Empty when `start` is the root itself or not inside it.
    pub fn between(root: &Path, start: &Path) -> AncestorRules {
        let mut matchers = Vec::new();
        if start == root || !start.starts_with(root) {
            return AncestorRules { matchers };
        }
        let mut folder = start.parent();
        while let Some(dir) = folder {
            for name in [".ignore", ".gitignore"] {
                let file = dir.join(name);
                if file.is_file() {
                    let mut builder = GitignoreBuilder::new(dir);
                    // A bad line spoils only itself; the other lines still apply.
                    let _ = builder.add(&file);
                    if let Ok(matcher) = builder.build()
                        && !matcher.is_empty()
                    {
                        matchers.push(matcher);
                    }
                }
            }
            if dir == root {
                break;
            }
            folder = dir.parent();
        }
        AncestorRules { matchers }
    }

    /// Whether there are no rules.
    pub fn is_empty(&self) -> bool {
        self.matchers.is_empty()
    }

    /// Whether `path` (below the start folder) is ignored by these rules.
    pub fn ignores(&self, path: &Path, is_dir: bool) -> bool {
        for matcher in &self.matchers {
            match matcher.matched(path, is_dir) {
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

    #[test]
    fn deeper_rules_win_and_nothing_above_the_root_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path();
        let root = base.join("vault");
        std::fs::create_dir_all(root.join("a/b/c")).unwrap();
        std::fs::write(base.join(".gitignore"), "*\n").unwrap();
        std::fs::write(root.join(".gitignore"), "*.tmp\n").unwrap();
        std::fs::write(root.join("a/.ignore"), "!keep.tmp\n").unwrap();
        let rules = AncestorRules::between(&root, &root.join("a/b"));
        assert!(rules.ignores(&root.join("a/b/x.tmp"), false));
        assert!(!rules.ignores(&root.join("a/b/keep.tmp"), false));
        assert!(!rules.ignores(&root.join("a/b/note.md"), false));
        assert!(AncestorRules::between(&root, &root).is_empty());
        assert!(AncestorRules::between(&root, base).is_empty());
    }
}
