//! Which MCP roots a client may set: the folders the operator gave (command
//! line or `MCP_TEXT_ROOTS`) are the outer bound, and a client's roots may only
//! narrow them. A client root outside every operator folder is ignored, and
//! the agent is told why the first time it calls a tool.
//!
//! One exception, over stdio only: when the operator named no folder at all,
//! the client's roots are used as given (the current-folder default is then
//! replaced, not widened), as the reference filesystem server does. The
//! parent process chose both the server and the client there.
//!
//! ```
//! use mcp_server_text::faces::client_roots::{RootsBound, narrow};
//!
//! let dir = tempfile::tempdir().unwrap();
//! let operator = std::fs::canonicalize(dir.path()).unwrap();
//! std::fs::create_dir(operator.join("project")).unwrap();
//! let bound = RootsBound::Within(vec![operator.clone()]);
//! let inside = format!("file://{}/project", operator.display());
//! let narrowed = narrow(&bound, &[inside, "file:///".to_string()]);
//! assert_eq!(narrowed.accepted, [operator.join("project")]);
//! assert_eq!(narrowed.ignored[0].announced, "file:///");
//! ```

use std::path::{Component, Path, PathBuf};

use serde_json::Value;

use crate::workspace::history::HISTORY_DIR;
use crate::workspace::trash::TRASH_DIR;

/// What bounds the roots a client announces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RootsBound {
    /// A client root is used only if it lies inside one of these folders
    /// (real paths): the operator's folders, or the current folder when the
    /// operator named none and the transport is HTTP.
    Within(Vec<PathBuf>),
    /// Over stdio with no folder named by the operator: the client's roots
    /// are used as given.
    AsGiven,
}

/// Why an announced root was not used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IgnoredWhy {
    /// It lies outside every folder the operator gave.
    Outside,
    /// It is no existing folder.
    NotAFolder,
    /// It is not a `file://` URI of an absolute path on this machine.
    NotAFileUri,
    /// It is, or lies inside, a folder the server keeps for itself
    /// (`.history`, `.trash`), which only the server writes.
    ServerFolder,
}

/// An announced root that was not used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ignored {
    /// The root's URI as the client sent it (cut short if it is long).
    pub announced: String,
    /// The path it names, when it names one.
    pub path: Option<PathBuf>,
    /// Why it was not used.
    pub why: IgnoredWhy,
}

/// The outcome of checking a client's roots against the bound.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Narrowed {
    /// The roots to use (real paths), in the client's order.
    pub accepted: Vec<PathBuf>,
    /// The roots that were not used.
    pub ignored: Vec<Ignored>,
}

/// Checks the root URIs a client announced against `bound`.
pub fn narrow(bound: &RootsBound, uris: &[String]) -> Narrowed {
    let mut narrowed = Narrowed::default();
    for uri in uris {
        let announced = crate::text::excerpt::cut(uri, 300);
        let Some(path) = file_uri_to_path(uri) else {
            narrowed.ignored.push(Ignored {
                announced,
                path: None,
                why: IgnoredWhy::NotAFileUri,
            });
            continue;
        };
        match check(bound, &path) {
            Ok(real) => {
                if !narrowed.accepted.contains(&real) {
                    narrowed.accepted.push(real);
                }
            }
            Err(why) => narrowed.ignored.push(Ignored {
                announced,
                path: Some(path),
                why,
            }),
        }
    }
    narrowed
}

/// The real path of one announced root, if `bound` lets it be used.
fn check(bound: &RootsBound, path: &Path) -> Result<PathBuf, IgnoredWhy> {
    let folders = match bound {
        RootsBound::Within(folders) => folders.as_slice(),
        RootsBound::AsGiven => &[],
    };
    let inside = |p: &Path| folders.iter().any(|folder| p.starts_with(folder));
    let bounded = matches!(bound, RootsBound::Within(_));
    // Decided by name first: whether something outside exists is none of
    // the client's business, and nothing outside is looked at.
    if bounded && !inside(&lexical_normal(path)) {
        return Err(IgnoredWhy::Outside);
    }
    match std::fs::canonicalize(path) {
        // Judged by where it really leads too, so a symlink inside an
        // operator folder that points elsewhere does not open the way out.
        Ok(real) if bounded && !inside(&real) => Err(IgnoredWhy::Outside),
        Ok(real) if in_server_folder(&real, folders) => Err(IgnoredWhy::ServerFolder),
        Ok(real) if real.is_dir() => Ok(real),
        _ => Err(IgnoredWhy::NotAFolder),
    }
}

/// Whether `real` is, or lies inside, a `.history` or `.trash` folder: below
/// the operator folder holding it, or anywhere when there is none.
fn in_server_folder(real: &Path, folders: &[PathBuf]) -> bool {
    let below = folders
        .iter()
        .filter_map(|f| real.strip_prefix(f).ok())
        .min_by_key(|rel| rel.components().count())
        .unwrap_or(real);
    below.components().any(|c| {
        c == Component::Normal(HISTORY_DIR.as_ref()) || c == Component::Normal(TRASH_DIR.as_ref())
    })
}

/// `path` with `.` and `..` taken away by name alone.
fn lexical_normal(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// The absolute path a `file://` URI names on this machine, percent-decoded.
/// A URI naming another host, or no absolute path, names none.
pub fn file_uri_to_path(uri: &str) -> Option<PathBuf> {
    let rest = uri.strip_prefix("file://")?;
    // `file:///x` has an empty host; `file://localhost/x` names this machine.
    let rest = rest.strip_prefix("localhost").unwrap_or(rest);
    if !rest.starts_with('/') {
        return None;
    }
    let mut bytes = Vec::with_capacity(rest.len());
    let raw = rest.as_bytes();
    let mut i = 0;
    while i < raw.len() {
        if raw[i] == b'%'
            && let Some(hex) = rest.get(i + 1..i + 3)
            && let Ok(byte) = u8::from_str_radix(hex, 16)
        {
            bytes.push(byte);
            i += 3;
            continue;
        }
        bytes.push(raw[i]);
        i += 1;
    }
    let path = String::from_utf8(bytes).ok()?;
    if path.contains('\0') {
        return None;
    }
    #[cfg(windows)]
    let path = path.trim_start_matches('/').to_string();
    let path = PathBuf::from(path);
    path.is_absolute().then_some(path)
}

/// What an agent is told about roots its client announced that were ignored,
/// given the roots in use.
pub fn ignored_note(ignored: &[Ignored], bound: &RootsBound, in_use: &[PathBuf]) -> String {
    let shown = |list: &[&Ignored]| {
        list.iter()
            .map(|i| match &i.path {
                Some(path) => crate::text::excerpt::cut(&path.display().to_string(), 300),
                None => i.announced.clone(),
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let join = |paths: &[PathBuf]| {
        paths
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut parts = Vec::new();
    let outside: Vec<&Ignored> = ignored
        .iter()
        .filter(|i| i.why == IgnoredWhy::Outside)
        .collect();
    if let (false, RootsBound::Within(folders)) = (outside.is_empty(), bound) {
        parts.push(format!(
            "The client announced {} as root folder(s), but the server ignored them: they lie outside the folders it was started with ({}), and a client's roots may only narrow those",
            shown(&outside),
            join(folders)
        ));
    }
    let own: Vec<&Ignored> = ignored
        .iter()
        .filter(|i| i.why == IgnoredWhy::ServerFolder)
        .collect();
    if !own.is_empty() {
        parts.push(format!(
            "The client announced {} as root folder(s), but the server ignored them: they are (or lie inside) the .history or .trash folders it keeps for itself, which no tool writes",
            shown(&own)
        ));
    }
    let unusable: Vec<&Ignored> = ignored
        .iter()
        .filter(|i| !matches!(i.why, IgnoredWhy::Outside | IgnoredWhy::ServerFolder))
        .collect();
    if !unusable.is_empty() {
        parts.push(format!(
            "The client announced {} as root folder(s), but they are not existing folders on this machine (file:// URIs of absolute paths), so they were ignored",
            shown(&unusable)
        ));
    }
    let using = if in_use.is_empty() {
        "No folder is open to the tools now".to_string()
    } else {
        format!(
            "Paths are resolved in {} (relative paths start at {})",
            join(in_use),
            in_use[0].display()
        )
    };
    let fix = if outside.is_empty() {
        "Announce existing folders"
    } else {
        "To work in another folder, the user must start the server with it (on its command line or in MCP_TEXT_ROOTS)"
    };
    format!("{}. {using}. {fix}.", parts.join(". "))
}

/// Whether a tool call's arguments name a path inside one of `folders`, by
/// name alone: absolute strings anywhere in the arguments.
pub fn mentions_any(args: &Value, folders: &[PathBuf]) -> bool {
    match args {
        Value::String(s) => {
            let path = Path::new(s);
            path.is_absolute() && {
                let normal = lexical_normal(path);
                folders.iter().any(|f| normal.starts_with(f))
            }
        }
        Value::Array(items) => items.iter().any(|v| mentions_any(v, folders)),
        Value::Object(map) => map.values().any(|v| mentions_any(v, folders)),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uri(path: &Path) -> String {
        format!("file://{}", path.display())
    }

    #[test]
    fn file_uris() {
        assert_eq!(
            file_uri_to_path("file:///home/me/My%20Notes"),
            Some("/home/me/My Notes".into())
        );
        assert_eq!(file_uri_to_path("file://localhost/x"), Some("/x".into()));
        assert_eq!(file_uri_to_path("https://example.com"), None);
        // Another machine's folder, or no absolute path, is nothing here.
        assert_eq!(file_uri_to_path("file://server/share"), None);
        assert_eq!(file_uri_to_path("file://"), None);
        assert_eq!(file_uri_to_path("file:///a%00b"), None);
    }

    #[test]
    fn client_roots_only_narrow_the_operators() {
        let dir = tempfile::tempdir().unwrap();
        let base = std::fs::canonicalize(dir.path()).unwrap();
        let operator = base.join("operator");
        let inner = operator.join("inner");
        let elsewhere = base.join("elsewhere");
        std::fs::create_dir_all(&inner).unwrap();
        std::fs::create_dir_all(&elsewhere).unwrap();
        std::fs::write(operator.join("file.md"), "x").unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(&elsewhere, operator.join("way-out")).unwrap();
        let bound = RootsBound::Within(vec![operator.clone()]);

        let narrowed = narrow(
            &bound,
            &[
                uri(&inner),
                "file:///".into(),
                uri(&elsewhere),
                uri(&operator.join("inner/../inner")),
                uri(&operator.join("missing")),
                uri(&base.join("missing")),
                uri(&operator.join("file.md")),
                "https://example.com/".into(),
            ],
        );
        assert_eq!(narrowed.accepted, std::slice::from_ref(&inner));
        let why: Vec<(Option<PathBuf>, IgnoredWhy)> = narrowed
            .ignored
            .iter()
            .map(|i| (i.path.clone(), i.why))
            .collect();
        assert_eq!(
            why,
            [
                (Some("/".into()), IgnoredWhy::Outside),
                (Some(elsewhere.clone()), IgnoredWhy::Outside),
                (Some(operator.join("missing")), IgnoredWhy::NotAFolder),
                // Outside and missing: said to be outside, nothing more.
                (Some(base.join("missing")), IgnoredWhy::Outside),
                (Some(operator.join("file.md")), IgnoredWhy::NotAFolder),
                (None, IgnoredWhy::NotAFileUri),
            ]
        );
        #[cfg(unix)]
        {
            let through_link = narrow(&bound, &[uri(&operator.join("way-out"))]);
            assert!(through_link.accepted.is_empty());
            assert_eq!(through_link.ignored[0].why, IgnoredWhy::Outside);
        }
        // The operator's folder itself may be announced.
        assert_eq!(narrow(&bound, &[uri(&operator)]).accepted, [operator]);
    }

    /// A client announcing a root's history or trash folder (or a folder
    /// inside one) would make the server's own records ordinary files that
    /// tools write: such roots are ignored, with or without operator folders.
    #[test]
    fn the_servers_own_folders_are_never_roots() {
        let dir = tempfile::tempdir().unwrap();
        let base = std::fs::canonicalize(dir.path()).unwrap();
        let operator = base.join(".trash-keeper");
        for folder in [".history", ".trash/2026-01-01T00-00-00Z", "notes"] {
            std::fs::create_dir_all(operator.join(folder)).unwrap();
        }
        let announced = [
            uri(&operator.join(".history")),
            uri(&operator.join(".trash")),
            uri(&operator.join(".trash/2026-01-01T00-00-00Z")),
            uri(&operator.join("notes")),
        ];
        for bound in [
            RootsBound::Within(vec![operator.clone()]),
            RootsBound::AsGiven,
        ] {
            let narrowed = narrow(&bound, &announced);
            assert_eq!(narrowed.accepted, [operator.join("notes")], "{bound:?}");
            assert!(
                narrowed
                    .ignored
                    .iter()
                    .all(|i| i.why == IgnoredWhy::ServerFolder),
                "{narrowed:?}"
            );
            let note = ignored_note(&narrowed.ignored, &bound, &narrowed.accepted);
            assert!(
                note.contains("the .history or .trash folders it keeps for itself"),
                "{note}"
            );
        }
    }

    #[test]
    fn without_an_operator_folder_stdio_takes_roots_as_given() {
        let dir = tempfile::tempdir().unwrap();
        let base = std::fs::canonicalize(dir.path()).unwrap();
        let narrowed = narrow(
            &RootsBound::AsGiven,
            &["file:///".into(), uri(&base), uri(&base.join("missing"))],
        );
        assert_eq!(narrowed.accepted, [PathBuf::from("/"), base.clone()]);
        assert_eq!(narrowed.ignored.len(), 1);
        assert_eq!(narrowed.ignored[0].why, IgnoredWhy::NotAFolder);
    }

    #[test]
    fn the_note_says_why_and_what_to_do() {
        let ignored = vec![Ignored {
            announced: "file:///home/me/project".into(),
            path: Some("/home/me/project".into()),
            why: IgnoredWhy::Outside,
        }];
        let bound = RootsBound::Within(vec!["/srv/notes".into()]);
        assert_eq!(
            ignored_note(&ignored, &bound, &["/srv/notes".into()]),
            "The client announced /home/me/project as root folder(s), but the server ignored them: \
             they lie outside the folders it was started with (/srv/notes), and a client's roots \
             may only narrow those. Paths are resolved in /srv/notes (relative paths start at \
             /srv/notes). To work in another folder, the user must start the server with it (on \
             its command line or in MCP_TEXT_ROOTS)."
        );
    }

    #[test]
    fn arguments_mentioning_a_folder() {
        let folders = [PathBuf::from("/home/me/project")];
        let args = serde_json::json!({"files": [{"file_path": "/home/me/project/a.md"}]});
        assert!(mentions_any(&args, &folders));
        let args = serde_json::json!({"filePath": "/home/me/project/../other/a.md"});
        assert!(!mentions_any(&args, &folders));
        let args = serde_json::json!({"filePath": "project/a.md"});
        assert!(!mentions_any(&args, &folders));
    }
}
