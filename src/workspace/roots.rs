//! Roots and path confinement: every path a tool touches must, once symlinks
//! are followed, lie inside one of the root folders.
//!
//! Paths are absolute or relative to the first root. Containment compares path
//! components of the real (canonical) path, never string prefixes, so
//! `/vault-other` is not inside `/vault`. A path that does not exist yet (a
//! file to create, a move destination) is checked through its deepest existing
//! ancestor, and may not contain `..` in the part that does not exist. So is a
//! path that fails to resolve: when it leads outside through a symlink, it is
//! refused as outside, and errors never tell what exists beyond the roots,
//! nor where a symbolic link that leads out of them points.
//!
//! Each root is opened once as a directory handle ([`Dir`]). Resolving a path
//! by name only chooses its root and explains refusals; the file system is
//! then touched only through the handle (see [`super::beneath`]), so a folder
//! swapped for a link after the check cannot lead outside.
//!
//! ```
//! use mcp_server_text::workspace::roots::Roots;
//!
//! let dir = tempfile::tempdir().unwrap();
//! std::fs::write(dir.path().join("note.md"), "hi").unwrap();
//! let roots = Roots::new(vec![dir.path().to_path_buf()]).unwrap();
//! assert!(roots.resolve_existing("note.md").is_ok());
//! assert!(roots.resolve_existing("../note.md").is_err());
//! assert!(roots.resolve_existing("/etc/hostname").is_err());
//! ```

use std::fmt;
use std::io;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use cap_std::ambient_authority;
use cap_std::fs::Dir;
use rapidfuzz::distance::levenshtein;

/// The folders tools may work in, canonicalized, each with its open handle.
#[derive(Debug, Clone)]
pub struct Roots {
    list: Vec<PathBuf>,
    dirs: Vec<Arc<Dir>>,
}

impl PartialEq for Roots {
    fn eq(&self, other: &Roots) -> bool {
        self.list == other.list
    }
}

impl Eq for Roots {}

/// A path that passed confinement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedPath {
    /// The real path: absolute, symlinks followed.
    pub real: PathBuf,
    /// The root the real path lies in.
    pub root: PathBuf,
    /// Whether something exists at the path.
    pub exists: bool,
}

impl ResolvedPath {
    /// The path relative to its root (empty for the root itself).
    pub fn relative(&self) -> &Path {
        self.real.strip_prefix(&self.root).unwrap_or(Path::new(""))
    }

    /// Whether the path is its root.
    pub fn is_root(&self) -> bool {
        self.real == self.root
    }

    /// The path as responses show it.
    pub fn display(&self) -> String {
        self.real.display().to_string()
    }
}

/// A path that was refused or could not be resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathError {
    /// No path was given.
    Empty,
    /// The path contains a NUL byte.
    Nul,
    /// No roots are configured.
    NoRoots,
    /// The path lies outside every root.
    Outside {
        /// The path as given.
        given: String,
        /// Where it leads.
        resolved: PathBuf,
        /// The roots.
        roots: Vec<PathBuf>,
    },
    /// The path is inside a root, but a symlink on it leads outside. Where
    /// it leads is deliberately not kept: no message may tell it.
    SymlinkOutside {
        /// The path as given.
        given: String,
        /// The roots.
        roots: Vec<PathBuf>,
    },
    /// Nothing exists at the path.
    NotFound {
        /// The path as given.
        given: String,
        /// The absolute path looked at.
        resolved: PathBuf,
        /// Names in the same folder that look like the missing one, best first.
        similar: Vec<PathBuf>,
    },
    /// The path is a symlink whose target does not exist.
    DanglingSymlink {
        /// The path as given.
        given: String,
        /// The symlink.
        link: PathBuf,
        /// What it points to.
        target: PathBuf,
    },
    /// A path that does not exist yet uses `..` or `.` in its new part.
    DotsInNewPart {
        /// The path as given.
        given: String,
    },
    /// A parent on the path is a file, not a folder.
    ParentNotDirectory {
        /// The path as given.
        given: String,
        /// The file in the way.
        parent: PathBuf,
    },
    /// The path or one of its components is too long for the file system.
    TooLong {
        /// Length of the path in bytes.
        len: usize,
    },
    /// The file system refused to look at the path.
    Io {
        /// The path as given.
        given: String,
        /// The system's message.
        message: String,
    },
}

impl fmt::Display for PathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PathError::Empty => f.write_str("no path was given"),
            PathError::Nul => {
                f.write_str("the path contains a NUL byte, which no file name can hold")
            }
            PathError::NoRoots => {
                f.write_str("no root folders are configured, so no path is allowed")
            }
            PathError::Outside {
                given,
                resolved,
                roots,
            } => write!(
                f,
                "'{given}' is outside the allowed folders: it leads to {} and the roots are {}",
                resolved.display(),
                list_roots(roots)
            ),
            PathError::SymlinkOutside { given, roots } => write!(
                f,
                "'{given}' goes through a symbolic link that leads outside the allowed folders; the roots are {}",
                list_roots(roots)
            ),
            PathError::NotFound {
                given, resolved, ..
            } => {
                write!(
                    f,
                    "'{given}' does not exist (looked for {})",
                    resolved.display()
                )
            }
            PathError::DanglingSymlink {
                given,
                link,
                target,
            } => write!(
                f,
                "'{given}' is a symbolic link ({}) to {}, which does not exist",
                link.display(),
                target.display()
            ),
            PathError::DotsInNewPart { given } => write!(
                f,
                "'{given}' uses '.' or '..' in folders that do not exist yet; give the path without them"
            ),
            PathError::ParentNotDirectory { given, parent } => write!(
                f,
                "'{given}' cannot exist: {} is a file, not a folder",
                parent.display()
            ),
            PathError::TooLong { len } => {
                write!(f, "the path is too long for the file system ({len} bytes)")
            }
            PathError::Io { given, message } => write!(f, "cannot look at '{given}': {message}"),
        }
    }
}

impl std::error::Error for PathError {}

fn list_roots(roots: &[PathBuf]) -> String {
    roots
        .iter()
        .map(|r| r.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Why a root folder could not be used.
#[derive(Debug)]
pub struct RootError {
    /// The root as given.
    pub path: PathBuf,
    /// What went wrong.
    pub error: io::Error,
}

impl fmt::Display for RootError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot use '{}' as a root folder: {}",
            self.path.display(),
            self.error
        )
    }
}

impl std::error::Error for RootError {}

impl Roots {
    /// Canonicalizes `paths`; each must be an existing folder. Duplicates and
    /// roots nested in an earlier root are kept once, in order.
    pub fn new(paths: Vec<PathBuf>) -> Result<Roots, RootError> {
        let mut list: Vec<PathBuf> = Vec::new();
        let mut dirs = Vec::new();
        for path in paths {
            let real = std::fs::canonicalize(&path).map_err(|error| RootError {
                path: path.clone(),
                error,
            })?;
            if !real.is_dir() {
                return Err(RootError {
                    path,
                    error: io::Error::new(io::ErrorKind::NotADirectory, "not a folder"),
                });
            }
            if !list.contains(&real) {
                let dir = Dir::open_ambient_dir(&real, ambient_authority()).map_err(|error| {
                    RootError {
                        path: path.clone(),
                        error,
                    }
                })?;
                dirs.push(Arc::new(dir));
                list.push(real);
            }
        }
        Ok(Roots { list, dirs })
    }

    /// The handle of the root folder `root` (one of [`Roots::list`]).
    pub fn dir(&self, root: &Path) -> Option<&Arc<Dir>> {
        self.list
            .iter()
            .position(|r| r == root)
            .map(|i| &self.dirs[i])
    }

    /// The handle of the root `path` lies in, and `path` relative to it.
    /// `None` when the roots changed since `path` was resolved.
    pub fn handle<'p>(&self, path: &'p ResolvedPath) -> Option<(&Arc<Dir>, &'p Path)> {
        Some((self.dir(&path.root)?, path.relative()))
    }

    /// The roots, first one first.
    pub fn list(&self) -> &[PathBuf] {
        &self.list
    }

    /// The root relative paths are resolved against.
    pub fn first(&self) -> Option<&Path> {
        self.list.first().map(PathBuf::as_path)
    }

    /// The root that contains `real` (an absolute, canonical path). The most
    /// specific root wins when roots are nested.
    pub fn containing(&self, real: &Path) -> Option<&Path> {
        self.list
            .iter()
            .filter(|root| real.starts_with(root))
            .max_by_key(|root| root.components().count())
            .map(PathBuf::as_path)
    }

    /// The path `given` names, made absolute against the first root, with
    /// nothing resolved and nothing checked but the string itself.
    pub fn absolute(&self, given: &str) -> Result<PathBuf, PathError> {
        if given.trim().is_empty() {
            return Err(PathError::Empty);
        }
        if given.contains('\0') {
            return Err(PathError::Nul);
        }
        let first = self.first().ok_or(PathError::NoRoots)?;
        let path = Path::new(given);
        Ok(if path.is_absolute() {
            path.to_path_buf()
        } else {
            first.join(path)
        })
    }

    /// The refusal of a path that leads outside. Only the path as written
    /// (made absolute, `..` applied) is named, never where links take it.
    fn outside(&self, given: &str, joined: &Path) -> PathError {
        let written = lexical_normal(joined);
        if self.containing(&written).is_some() {
            PathError::SymlinkOutside {
                given: given.to_string(),
                roots: self.list.clone(),
            }
        } else {
            PathError::Outside {
                given: given.to_string(),
                resolved: written,
                roots: self.list.clone(),
            }
        }
    }

    /// Resolves a path that must exist.
    pub fn resolve_existing(&self, given: &str) -> Result<ResolvedPath, PathError> {
        let joined = self.absolute(given)?;
        match std::fs::canonicalize(&joined) {
            Ok(real) => match self.containing(&real) {
                Some(root) => Ok(ResolvedPath {
                    root: root.to_path_buf(),
                    real,
                    exists: true,
                }),
                None => Err(self.outside(given, &joined)),
            },
            Err(error) => Err(self.explain_missing(given, &joined, &error)),
        }
    }

    /// Resolves a path that may not exist yet (a file to create, a move
    /// destination). If it exists it is resolved as by [`Roots::resolve_existing`].
    pub fn resolve_new(&self, given: &str) -> Result<ResolvedPath, PathError> {
        let joined = self.absolute(given)?;
        if std::fs::symlink_metadata(&joined).is_ok() {
            return self.resolve_existing(given);
        }
        // Find the deepest ancestor that exists; the rest must be plain names.
        let mut ancestor = joined.as_path();
        let mut missing: Vec<&std::ffi::OsStr> = Vec::new();
        loop {
            match std::fs::symlink_metadata(ancestor) {
                Ok(_) => break,
                Err(error) if is_too_long(&error) => {
                    return Err(PathError::TooLong { len: given.len() });
                }
                Err(_) => {}
            }
            match ancestor.components().next_back() {
                Some(Component::Normal(name)) => missing.push(name),
                Some(Component::ParentDir | Component::CurDir) => {
                    return Err(PathError::DotsInNewPart {
                        given: given.to_string(),
                    });
                }
                _ => {
                    return Err(self.explain_missing(
                        given,
                        &joined,
                        &io::Error::from(io::ErrorKind::NotFound),
                    ));
                }
            }
            ancestor = ancestor.parent().unwrap_or(Path::new("/"));
        }
        let new_part: PathBuf = missing.iter().rev().collect();
        let real_ancestor = std::fs::canonicalize(ancestor)
            .map_err(|error| self.explain_missing(given, ancestor, &error))?;
        let real = real_ancestor.join(new_part);
        // Confinement first: whether something outside is a file or a folder
        // is none of the caller's business.
        let Some(root) = self.containing(&real) else {
            return Err(self.outside(given, &joined));
        };
        if !real_ancestor.is_dir() {
            return Err(PathError::ParentNotDirectory {
                given: given.to_string(),
                parent: real_ancestor,
            });
        }
        Ok(ResolvedPath {
            root: root.to_path_buf(),
            real,
            exists: false,
        })
    }

    fn explain_missing(&self, given: &str, joined: &Path, error: &io::Error) -> PathError {
        if is_too_long(error) {
            return PathError::TooLong { len: given.len() };
        }
        let normal = lexical_normal(joined);
        if self.containing(&normal).is_none() {
            return PathError::Outside {
                given: given.to_string(),
                resolved: normal,
                roots: self.list.clone(),
            };
        }
        // The path looks inside, but a symlink on its existing part may lead
        // out. Judge by where it really leads, so that nothing about the
        // outside (what exists there, what is a file) shows in the answer, and
        // advice built on `resolved` (similar names) only looks inside.
        let located = self.locate_missing(joined);
        if let Some(real) = &located
            && self.containing(real).is_none()
        {
            return self.outside(given, joined);
        }
        if error.kind() == io::ErrorKind::NotFound {
            // A dangling symlink somewhere on the path explains a missing file
            // better than "does not exist".
            let mut partial = PathBuf::new();
            for component in joined.components() {
                partial.push(component);
                if let Ok(meta) = std::fs::symlink_metadata(&partial) {
                    if meta.file_type().is_symlink() && std::fs::metadata(&partial).is_err() {
                        let target = std::fs::read_link(&partial).unwrap_or_default();
                        let base = partial
                            .parent()
                            .and_then(|p| std::fs::canonicalize(p).ok())
                            .unwrap_or_default();
                        let leads_to = lexical_normal(&base.join(&target));
                        if self.containing(&leads_to).is_none() {
                            return self.outside(given, joined);
                        }
                        return PathError::DanglingSymlink {
                            given: given.to_string(),
                            link: partial,
                            target,
                        };
                    }
                } else {
                    break;
                }
            }
            let resolved = located.unwrap_or(normal);
            return PathError::NotFound {
                given: given.to_string(),
                similar: self.similar_names(&resolved),
                resolved,
            };
        }
        if error.raw_os_error() == Some(20) {
            // ENOTDIR: a file used as a folder.
            let mut partial = PathBuf::new();
            for component in joined.components() {
                partial.push(component);
                if partial.is_file() {
                    return PathError::ParentNotDirectory {
                        given: given.to_string(),
                        parent: partial,
                    };
                }
            }
        }
        PathError::Io {
            given: given.to_string(),
            message: error.to_string(),
        }
    }

    /// Names in the folder of `missing` (a path inside a root) that look like
    /// its last name. The folder is listed through the root's handle, so a
    /// folder swapped for a link meanwhile lists nothing outside.
    fn similar_names(&self, missing: &Path) -> Vec<PathBuf> {
        let (Some(parent), Some(name)) = (missing.parent(), missing.file_name()) else {
            return Vec::new();
        };
        let Some(root) = self.containing(parent) else {
            return Vec::new();
        };
        let Some(dir) = self.dir(root) else {
            return Vec::new();
        };
        let rel = parent.strip_prefix(root).unwrap_or(Path::new(""));
        let Ok(folder) = super::beneath::open_folder(dir, rel) else {
            return Vec::new();
        };
        let Ok(entries) = folder.entries() else {
            return Vec::new();
        };
        let name = name.to_string_lossy().to_lowercase();
        let mut scored: Vec<(f64, PathBuf)> = entries
            .flatten()
            .take(5000)
            .filter_map(|entry| {
                let candidate = entry.file_name().to_string_lossy().into_owned();
                let score = levenshtein::normalized_similarity(
                    name.chars(),
                    candidate.to_lowercase().chars(),
                );
                (score >= 0.6).then(|| (score, parent.join(&candidate)))
            })
            .collect();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
        scored.into_iter().take(3).map(|(_, p)| p).collect()
    }

    /// Where a path that does not resolve would be: the real path of its
    /// deepest existing ancestor followed by the rest. The rest is normalized
    /// and resolved once more, because `missing/../link/x` re-enters existing
    /// names (and their symlinks) after the `..`. `None` if an existing
    /// ancestor cannot be resolved (a dangling or looping symlink).
    fn locate_missing(&self, joined: &Path) -> Option<PathBuf> {
        let (ancestor, rest) = split_existing(joined);
        let first = lexical_normal(&std::fs::canonicalize(ancestor).ok()?.join(rest));
        let (ancestor, rest) = split_existing(&first);
        Some(std::fs::canonicalize(ancestor).ok()?.join(rest))
    }
}

/// The deepest ancestor of `path` (itself included) that exists, and the
/// components after it.
fn split_existing(path: &Path) -> (&Path, PathBuf) {
    let mut ancestor = path;
    let mut rest = Vec::new();
    while std::fs::symlink_metadata(ancestor).is_err() {
        let (Some(parent), Some(last)) = (ancestor.parent(), ancestor.components().next_back())
        else {
            break;
        };
        rest.push(last.as_os_str());
        ancestor = parent;
    }
    (ancestor, rest.iter().rev().collect())
}

fn is_too_long(error: &io::Error) -> bool {
    // ENAMETOOLONG on Linux and macOS.
    matches!(error.raw_os_error(), Some(36) | Some(63))
        || error.kind() == io::ErrorKind::InvalidFilename
}

/// Resolves `.` and `..` without touching the file system; only for messages
/// and for deciding whether a missing path would be inside a root.
pub fn lexical_normal(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Fixture {
        _dir: tempfile::TempDir,
        root: PathBuf,
        outside: PathBuf,
        roots: Roots,
    }

    fn fixture() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        let base = std::fs::canonicalize(dir.path()).unwrap();
        let root = base.join("vault");
        let outside = base.join("vault-other");
        std::fs::create_dir_all(root.join("notes")).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        std::fs::write(root.join("notes/a.md"), "a").unwrap();
        std::fs::write(outside.join("secret.md"), "s").unwrap();
        let roots = Roots::new(vec![root.clone()]).unwrap();
        Fixture {
            _dir: dir,
            root,
            outside,
            roots,
        }
    }

    #[test]
    fn relative_and_absolute_inside() {
        let f = fixture();
        let r = f.roots.resolve_existing("notes/a.md").unwrap();
        assert_eq!(r.real, f.root.join("notes/a.md"));
        assert_eq!(r.relative(), Path::new("notes/a.md"));
        let abs = f.root.join("notes/../notes/a.md");
        assert!(f.roots.resolve_existing(abs.to_str().unwrap()).is_ok());
    }

    #[test]
    fn sibling_with_the_roots_name_as_prefix_is_outside() {
        let f = fixture();
        let given = f.outside.join("secret.md");
        let err = f
            .roots
            .resolve_existing(given.to_str().unwrap())
            .unwrap_err();
        assert!(matches!(err, PathError::Outside { .. }), "{err:?}");
        let err = f
            .roots
            .resolve_existing("../vault-other/secret.md")
            .unwrap_err();
        assert!(matches!(err, PathError::Outside { .. }), "{err:?}");
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_out_are_refused_and_in_are_followed() {
        let f = fixture();
        std::os::unix::fs::symlink(f.outside.join("secret.md"), f.root.join("link.md")).unwrap();
        std::os::unix::fs::symlink(&f.outside, f.root.join("dirlink")).unwrap();
        std::os::unix::fs::symlink(f.root.join("notes/a.md"), f.root.join("inner.md")).unwrap();
        std::os::unix::fs::symlink(f.root.join("nowhere.md"), f.root.join("dangling.md")).unwrap();
        assert!(matches!(
            f.roots.resolve_existing("link.md"),
            Err(PathError::SymlinkOutside { .. })
        ));
        assert!(matches!(
            f.roots.resolve_existing("dirlink/secret.md"),
            Err(PathError::SymlinkOutside { .. })
        ));
        assert!(matches!(
            f.roots.resolve_new("dirlink/new.md"),
            Err(PathError::SymlinkOutside { .. })
        ));
        assert_eq!(
            f.roots.resolve_existing("inner.md").unwrap().real,
            f.root.join("notes/a.md")
        );
        assert!(matches!(
            f.roots.resolve_existing("dangling.md"),
            Err(PathError::DanglingSymlink { .. })
        ));
        assert!(matches!(
            f.roots.resolve_new("dangling.md"),
            Err(PathError::DanglingSymlink { .. })
        ));
    }

    /// A missing name behind a symlink that leads out must be refused as
    /// outside: reporting it as missing (or naming a file in its way) would
    /// tell the caller what exists outside, and the "did you mean" advice
    /// built on the reported path would list the outside folder.
    #[cfg(unix)]
    #[test]
    fn missing_paths_behind_symlinks_out_say_nothing_about_the_outside() {
        let f = fixture();
        std::os::unix::fs::symlink(&f.outside, f.root.join("dirlink")).unwrap();
        std::os::unix::fs::symlink(f.outside.join("gone.md"), f.root.join("dangling-out.md"))
            .unwrap();
        for given in [
            "dirlink/missing.md",
            "dirlink/deeper/missing.md",
            "dirlink/secret.md/child.md",
            "missing/../dirlink/missing.md",
            "dirlink/../vault-other/missing.md",
            "dangling-out.md",
        ] {
            let err = f.roots.resolve_existing(given).unwrap_err();
            assert!(
                matches!(err, PathError::SymlinkOutside { .. }),
                "{given}: {err:?}"
            );
        }
        for given in ["dirlink/secret.md/new.md", "dirlink/sub/new.md"] {
            let err = f.roots.resolve_new(given).unwrap_err();
            assert!(
                matches!(err, PathError::SymlinkOutside { .. }),
                "{given}: {err:?}"
            );
        }
        // Inside, missing paths are still reported at their real place.
        std::os::unix::fs::symlink(f.root.join("notes"), f.root.join("alias")).unwrap();
        assert_eq!(
            f.roots.resolve_existing("alias/missing.md"),
            Err(PathError::NotFound {
                given: "alias/missing.md".into(),
                resolved: f.root.join("notes/missing.md"),
                similar: Vec::new(),
            })
        );
    }

    #[test]
    fn new_paths() {
        let f = fixture();
        let r = f.roots.resolve_new("notes/deeper/new.md").unwrap();
        assert_eq!(r.real, f.root.join("notes/deeper/new.md"));
        assert!(!r.exists);
        assert!(matches!(
            f.roots.resolve_new("notes/x/../../../escape.md"),
            Err(PathError::DotsInNewPart { .. })
        ));
        assert!(matches!(
            f.roots.resolve_new("notes/a.md/child.md"),
            Err(PathError::ParentNotDirectory { .. })
        ));
        assert!(matches!(
            f.roots.resolve_new("../out.md"),
            Err(PathError::Outside { .. })
        ));
    }

    #[test]
    fn bad_strings() {
        let f = fixture();
        assert_eq!(f.roots.resolve_existing(""), Err(PathError::Empty));
        assert_eq!(f.roots.resolve_existing("a\0b"), Err(PathError::Nul));
        let long = "x".repeat(5000);
        assert!(matches!(
            f.roots.resolve_existing(&long),
            Err(PathError::TooLong { .. })
        ));
        assert!(matches!(
            f.roots.resolve_existing("missing.md"),
            Err(PathError::NotFound { .. })
        ));
    }
}
