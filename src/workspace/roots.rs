//! Roots and path confinement: every path a tool touches must lie inside
//! one of the root folders, as written and once symlinks are followed.
//!
//! Confinement is decided from the path as written first: `.` and `..` are
//! applied to the names themselves (as a shell's `cd` does), a relative path
//! starts at the first root and may not climb above it, and an absolute path
//! must lie in a root once its `..` are applied. A path refused there gets
//! one answer, whatever exists outside: nothing outside a root is looked at.
//! Containment compares path components, never string prefixes, so
//! `/vault-other` is not inside `/vault`.
//!
//! The names below the root are then followed beneath the root's directory
//! handle ([`Dir`]), one at a time, never through a link by the system: a
//! symbolic link's target is read and followed as a path inside the root,
//! and one that leads out is refused without saying where it leads. A path
//! that does not exist yet (a file to create, a move destination) resolves
//! through its deepest existing folder. Files are then opened only through
//! the handle (see [`super::beneath`]), so a folder swapped for a link after
//! the check cannot lead outside.
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

use std::ffi::OsString;
use std::fmt;
use std::io;
use std::os::unix::ffi::OsStringExt;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use cap_std::ambient_authority;
use cap_std::fs::Dir;
use rapidfuzz::distance::levenshtein;
use rustix::fs::AtFlags;

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
    /// The path lies outside every root, or its `..` climbs above its root:
    /// decided from the path as written, whatever exists outside.
    Outside {
        /// The path as given.
        given: String,
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
            PathError::Outside { given, roots } if Path::new(given).is_absolute() => write!(
                f,
                "'{given}' is outside the allowed folders; the roots are {}",
                list_roots(roots)
            ),
            PathError::Outside { given, roots } => write!(
                f,
                "'{given}' is outside the allowed folders: a relative path starts at the first root, and its '..' may not climb above it; the roots are {}",
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

    /// The root a path lies in and the names below it, decided from the
    /// path as written: `.` and `..` are applied to the names themselves,
    /// before anything on disk is looked at. A relative path starts at the
    /// first root and may not climb above it; an absolute one must lie in a
    /// root once its `.` and `..` are applied. So the answer never depends
    /// on what exists outside the roots.
    fn locate(&self, given: &str) -> Result<(&Path, PathBuf), PathError> {
        let joined = self.absolute(given)?;
        let outside = || PathError::Outside {
            given: given.to_string(),
            roots: self.list.clone(),
        };
        if Path::new(given).is_absolute() {
            let written = lexical_normal(&joined);
            let root = self.containing(&written).ok_or_else(outside)?;
            let rel = written
                .strip_prefix(root)
                .unwrap_or(Path::new(""))
                .to_path_buf();
            return Ok((root, rel));
        }
        let root = self.first().ok_or(PathError::NoRoots)?;
        let mut rel = PathBuf::new();
        for component in Path::new(given).components() {
            match component {
                Component::Normal(name) => rel.push(name),
                Component::CurDir => {}
                Component::ParentDir => {
                    if !rel.pop() {
                        return Err(outside());
                    }
                }
                Component::RootDir | Component::Prefix(_) => return Err(outside()),
            }
        }
        Ok((root, rel))
    }

    /// Resolves a path that must exist.
    pub fn resolve_existing(&self, given: &str) -> Result<ResolvedPath, PathError> {
        let (root, rel) = self.locate(given)?;
        match self.walk(given, root, &rel)? {
            Walked::Found(real) => Ok(ResolvedPath {
                real: below(root, &real),
                root: root.to_path_buf(),
                exists: true,
            }),
            missing => Err(self.explain(given, root, missing)),
        }
    }

    /// Resolves a path that may not exist yet (a file to create, a move
    /// destination). If it exists it is resolved as by [`Roots::resolve_existing`];
    /// if not, its deepest existing folder is, and the rest are plain names.
    pub fn resolve_new(&self, given: &str) -> Result<ResolvedPath, PathError> {
        let (root, rel) = self.locate(given)?;
        match self.walk(given, root, &rel)? {
            Walked::Found(real) => Ok(ResolvedPath {
                real: below(root, &real),
                root: root.to_path_buf(),
                exists: true,
            }),
            Walked::Missing {
                existing,
                missing,
                dangling: None,
            } => Ok(ResolvedPath {
                real: missing
                    .iter()
                    .fold(below(root, &existing), |p, n| p.join(n)),
                root: root.to_path_buf(),
                exists: false,
            }),
            other => Err(self.explain(given, root, other)),
        }
    }

    /// Whether the last name of `given` (a path inside a root) is a symbolic
    /// link itself, looked at through the root's handle.
    pub fn names_a_link(&self, given: &str) -> Result<bool, PathError> {
        let (root, rel) = self.locate(given)?;
        let (Some(parent), Some(name)) = (rel.parent(), rel.file_name()) else {
            return Ok(false);
        };
        let Walked::Found(parent) = self.walk(given, root, parent)? else {
            return Ok(false);
        };
        let Some(dir) = self.dir(root) else {
            return Ok(false);
        };
        Ok(dir
            .symlink_metadata(parent.join(name))
            .is_ok_and(|m| m.file_type().is_symlink()))
    }

    /// Follows `rel` beneath the handle of `root`, one name at a time, with
    /// symbolic links followed: a link's target is taken as a path inside the
    /// root (an absolute target must name a place inside it, and `..` may not
    /// climb above it), or the path is refused as leading outside, without
    /// saying where. Only the root's handle and folders opened beneath it,
    /// never through a link, are touched.
    fn walk(&self, given: &str, root: &Path, rel: &Path) -> Result<Walked, PathError> {
        let dir = self.dir(root).ok_or(PathError::NoRoots)?;
        let escape = || PathError::SymlinkOutside {
            given: given.to_string(),
            roots: self.list.clone(),
        };
        let io_error = |error: io::Error| {
            if is_too_long(&error) {
                PathError::TooLong { len: given.len() }
            } else if super::beneath::is_escape(&error) {
                escape()
            } else {
                PathError::Io {
                    given: given.to_string(),
                    message: error.to_string(),
                }
            }
        };
        // Names still to follow, last first; each remembers the link whose
        // target it came from, if any.
        let mut todo: Vec<(OsString, Option<usize>)> = rel
            .components()
            .rev()
            .map(|c| (c.as_os_str().to_os_string(), None))
            .collect();
        let mut done: Vec<OsString> = Vec::new();
        let mut folders: Vec<Dir> = Vec::new();
        let mut links: Vec<(PathBuf, PathBuf)> = Vec::new();
        while let Some((name, from_link)) = todo.pop() {
            if name == "." {
                continue;
            }
            if name == ".." {
                // Only a link's target can hold `..` here: the path as given
                // was made plain by `locate`.
                if done.pop().is_none() {
                    return Err(escape());
                }
                folders.pop();
                continue;
            }
            let here: &Dir = folders.last().unwrap_or(dir);
            let meta = match rustix::fs::statat(here, name.as_os_str(), AtFlags::SYMLINK_NOFOLLOW) {
                Ok(meta) => meta,
                Err(rustix::io::Errno::NOENT) => {
                    let mut missing = vec![name];
                    missing.extend(todo.into_iter().rev().map(|(n, _)| n));
                    return Ok(Walked::Missing {
                        existing: done.iter().collect(),
                        missing,
                        dangling: from_link.map(|l| links.swap_remove(l)),
                    });
                }
                Err(rustix::io::Errno::NOTDIR) => {
                    return Ok(Walked::NotADirectory(done.iter().collect()));
                }
                Err(e) => return Err(io_error(e.into())),
            };
            let kind = rustix::fs::FileType::from_raw_mode(meta.st_mode);
            if kind == rustix::fs::FileType::Symlink {
                if links.len() >= MAX_LINKS {
                    return Err(PathError::Io {
                        given: given.to_string(),
                        message: "it goes through too many symbolic links (a loop?)".into(),
                    });
                }
                let target = rustix::fs::readlinkat(here, name.as_os_str(), Vec::new())
                    .map_err(|e| io_error(e.into()))?;
                let target = PathBuf::from(std::ffi::OsString::from_vec(target.into_bytes()));
                let link: PathBuf = done.iter().chain([&name]).collect();
                let names: Vec<OsString> = if target.is_absolute() {
                    let written = lexical_normal(&target);
                    let inside = written.strip_prefix(root).map_err(|_| escape())?;
                    done.clear();
                    folders.clear();
                    inside
                        .components()
                        .map(|c| c.as_os_str().to_os_string())
                        .collect()
                } else {
                    target
                        .components()
                        .map(|c| c.as_os_str().to_os_string())
                        .collect()
                };
                links.push((link, target));
                let index = Some(links.len() - 1);
                todo.extend(names.into_iter().rev().map(|n| (n, index)));
                continue;
            }
            if kind == rustix::fs::FileType::Directory && !todo.is_empty() {
                folders.push(super::beneath::open_folder_nofollow(here, &name).map_err(io_error)?);
            } else if !todo.is_empty() {
                // A file with names still to follow: they cannot exist.
                done.push(name);
                return Ok(Walked::NotADirectory(done.iter().collect()));
            }
            done.push(name);
        }
        Ok(Walked::Found(done.iter().collect()))
    }

    /// The refusal of a path that does not resolve, found by [`Roots::walk`].
    fn explain(&self, given: &str, root: &Path, walked: Walked) -> PathError {
        match walked {
            Walked::Found(_) => PathError::Io {
                given: given.to_string(),
                message: "it exists".into(),
            },
            Walked::Missing {
                dangling: Some((link, target)),
                ..
            } => PathError::DanglingSymlink {
                given: given.to_string(),
                link: root.join(link),
                target,
            },
            Walked::Missing {
                existing, missing, ..
            } => {
                let resolved = missing
                    .iter()
                    .fold(below(root, &existing), |p, n| p.join(n));
                PathError::NotFound {
                    given: given.to_string(),
                    similar: self.similar_names(&resolved),
                    resolved,
                }
            }
            Walked::NotADirectory(file) => PathError::ParentNotDirectory {
                given: given.to_string(),
                parent: below(root, &file),
            },
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
}

/// What following a path beneath its root found.
enum Walked {
    /// It exists: its real path relative to the root.
    Found(PathBuf),
    /// It does not: its deepest existing folder (real, relative to the
    /// root), the names missing below it, and the link (relative to the
    /// root) and target that led to the first missing name, if a link did.
    Missing {
        existing: PathBuf,
        missing: Vec<OsString>,
        dangling: Option<(PathBuf, PathBuf)>,
    },
    /// A file (real, relative to the root) stands where a folder is needed.
    NotADirectory(PathBuf),
}

/// `rel` below `root`: `root` itself for the empty path (never with a
/// trailing `/`, which `Path::join("")` would add).
fn below(root: &Path, rel: &Path) -> PathBuf {
    if rel.as_os_str().is_empty() {
        root.to_path_buf()
    } else {
        root.join(rel)
    }
}

/// Most symbolic links one path may go through (as Linux allows).
const MAX_LINKS: usize = 40;

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
        // `..` is applied to the path as written: `dirlink/..` is the root,
        // wherever the link leads, so nothing about the outside shows.
        assert_eq!(
            f.roots
                .resolve_existing("dirlink/../vault-other/missing.md"),
            Err(PathError::NotFound {
                given: "dirlink/../vault-other/missing.md".into(),
                resolved: f.root.join("vault-other/missing.md"),
                similar: Vec::new(),
            })
        );
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
            Err(PathError::Outside { .. })
        ));
        // `..` over a folder that does not exist is applied as written.
        assert_eq!(
            f.roots.resolve_new("notes/x/../y.md").unwrap().real,
            f.root.join("notes/y.md")
        );
        assert!(matches!(
            f.roots.resolve_new("notes/a.md/child.md"),
            Err(PathError::ParentNotDirectory { .. })
        ));
        assert!(matches!(
            f.roots.resolve_new("../out.md"),
            Err(PathError::Outside { .. })
        ));
    }

    /// The oracle of issue 22: a path that climbs out through a folder and
    /// back must get the same answer whatever exists outside, and no answer
    /// may name anything outside.
    #[test]
    fn climbing_out_and_back_gets_one_answer_whatever_is_outside() {
        let f = fixture();
        let root = f.root.display().to_string();
        let base = f.root.parent().unwrap().to_path_buf();
        let ups = "../".repeat(f.root.components().count() + 2);
        // Outside: a file, a folder, nothing at all.
        std::fs::write(base.join("probe-file"), "x").unwrap();
        std::fs::create_dir(base.join("probe-dir")).unwrap();
        let mut answers = Vec::new();
        for probe in ["probe-file", "probe-dir", "probe-missing"] {
            let outside = base.join(probe).display().to_string();
            let relative = format!("{ups}{outside}/{ups}{root}/notes/a.md");
            let err = f.roots.resolve_existing(&relative).unwrap_err();
            assert!(matches!(err, PathError::Outside { .. }), "{err:?}");
            answers.push(err.to_string().replace(&relative, "GIVEN"));
            let new = f.roots.resolve_new(&relative).unwrap_err();
            answers.push(new.to_string().replace(&relative, "GIVEN"));
            // Written absolute, the same path lies in the root once its `..`
            // are applied: it is the root's file, whatever is outside.
            let absolute = format!("{outside}/{ups}{root}/notes/a.md");
            let found = f.roots.resolve_existing(&absolute).unwrap();
            assert_eq!(found.real, f.root.join("notes/a.md"));
        }
        answers.dedup();
        assert_eq!(answers.len(), 1, "{answers:?}");
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
