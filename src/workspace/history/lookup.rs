//! Finding recorded changes across the roots: every root's records, newest
//! first, a change by its id, and where a file recorded at one path is now,
//! following the moves recorded after it.
//!
//! ```
//! use mcp_server_text::workspace::history::lookup::moved_path;
//!
//! assert_eq!(moved_path("notes/a.md", "notes", "archive/notes").as_deref(), Some("archive/notes/a.md"));
//! assert_eq!(moved_path("notes/a.md", "notes/a.md", "b.md").as_deref(), Some("b.md"));
//! assert_eq!(moved_path("notesx/a.md", "notes", "archive"), None);
//! ```

use std::path::{Path, PathBuf};

use super::record::{Entry, Record};
use super::store::{self, HistoryError, StoredName};
use crate::workspace::Workspace;

/// A record found in a root's history.
#[derive(Debug, Clone)]
pub struct Found {
    /// The root whose history holds it.
    pub root: PathBuf,
    /// Its file.
    pub name: StoredName,
    /// Its description.
    pub record: Record,
}

/// A record that failed its checks: listed as damaged, never acted on.
#[derive(Debug, Clone)]
pub struct Damaged {
    /// The root whose history holds it.
    pub root: PathBuf,
    /// Its file.
    pub name: StoredName,
    /// What is wrong with it.
    pub problem: String,
}

/// `path` after a move of `from` to `to`, if the move took it along.
pub fn moved_path(path: &str, from: &str, to: &str) -> Option<String> {
    if path == from {
        return Some(to.to_string());
    }
    let rest = path.strip_prefix(from)?.strip_prefix('/')?;
    Some(format!("{to}/{rest}"))
}

/// `path` (kept as a record keeps it) after the moves of `record`.
pub fn after_moves(record: &Record, path: &str) -> String {
    let mut path = path.to_string();
    for entry in &record.entries {
        if let Entry::Move { from, to, .. } = entry
            && let Some(moved) = moved_path(&path, from, to)
        {
            path = moved;
        }
    }
    path
}

/// `path` before the moves of `record` (it is where they left it).
pub fn before_moves(record: &Record, path: &str) -> String {
    let mut path = path.to_string();
    for entry in record.entries.iter().rev() {
        if let Entry::Move { from, to, .. } = entry
            && let Some(moved) = moved_path(&path, to, from)
        {
            path = moved;
        }
    }
    path
}

impl Workspace {
    /// The records of every root, newest first (by time, then by their
    /// order in their root). Records that cannot be read are left out (see
    /// [`Workspace::history_listing`]); a root whose history cannot be read
    /// fails the call only if it is the only root with a history.
    pub fn recorded_changes(&self) -> Result<Vec<Found>, HistoryError> {
        Ok(self.history_listing()?.0)
    }

    /// The records of every root, as [`Workspace::recorded_changes`] lists
    /// them, and those that fail their checks, each with its problem,
    /// newest first.
    pub fn history_listing(&self) -> Result<(Vec<Found>, Vec<Damaged>), HistoryError> {
        let roots = self.roots();
        let mut found = Vec::new();
        let mut damaged = Vec::new();
        let mut failure = None;
        let mut readable = 0;
        for (root, dir) in roots.list().iter().filter_map(|r| Some((r, roots.dir(r)?))) {
            let names = store::open(dir).and_then(|history| {
                history
                    .map(|h| store::list(&h).map(|names| (h, names)))
                    .transpose()
            });
            let (history, names) = match names {
                Ok(Some(found)) => found,
                Ok(None) => continue,
                Err(e) => {
                    failure = Some(HistoryError::Io(e));
                    continue;
                }
            };
            readable += 1;
            for name in names {
                match store::read_header(&history, &name) {
                    Ok(record) => found.push(Found {
                        root: root.clone(),
                        name,
                        record,
                    }),
                    Err(problem) => damaged.push(Damaged {
                        root: root.clone(),
                        name,
                        problem: problem.to_string(),
                    }),
                }
            }
        }
        if let Some(failure) = failure.filter(|_| readable == 0) {
            return Err(failure);
        }
        found.sort_by(|a, b| {
            b.record
                .time
                .cmp(&a.record.time)
                .then(b.name.seq.cmp(&a.name.seq))
        });
        damaged.sort_by_key(|d| std::cmp::Reverse(d.name.seq));
        Ok((found, damaged))
    }

    /// The records of the root `root` after the one numbered `seq`, oldest
    /// first.
    pub fn records_after(&self, root: &Path, seq: u64) -> Result<Vec<Found>, HistoryError> {
        let roots = self.roots();
        let Some(dir) = roots.dir(root) else {
            return Ok(Vec::new());
        };
        let Some(history) = store::open(dir)? else {
            return Ok(Vec::new());
        };
        let mut out = Vec::new();
        for name in store::list(&history)?.into_iter().filter(|n| n.seq > seq) {
            // A damaged later record is skipped: nothing in it is trusted,
            // and a change it would have to be rebuilt through is then
            // refused as changed by something the history did not record.
            if let Ok(record) = store::read_header(&history, &name) {
                out.push(Found {
                    root: root.to_path_buf(),
                    name,
                    record,
                });
            }
        }
        Ok(out)
    }

    /// The payload of a record found earlier.
    pub fn payload_of(&self, found: &Found) -> Result<Vec<u8>, HistoryError> {
        let roots = self.roots();
        let history = roots
            .dir(&found.root)
            .map(|dir| store::open(dir))
            .transpose()?
            .flatten()
            .ok_or_else(|| {
                HistoryError::Io(std::io::Error::new(
                    std::io::ErrorKind::NotFound,
                    "the history folder is gone",
                ))
            })?;
        Ok(store::read(&history, &found.name)?.1)
    }

    /// The change `change_id`, with its payload, if a root's history holds it.
    pub fn find_change(&self, change_id: &str) -> Result<Option<(Found, Vec<u8>)>, HistoryError> {
        let roots = self.roots();
        for (root, dir) in roots.list().iter().filter_map(|r| Some((r, roots.dir(r)?))) {
            let Some(history) = store::open(dir)? else {
                continue;
            };
            if let Some(name) = store::find(&history, change_id)? {
                let (record, payload) = store::read(&history, &name)?;
                return Ok(Some((
                    Found {
                        root: root.clone(),
                        name,
                        record,
                    },
                    payload,
                )));
            }
        }
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(moves: &[(&str, &str)]) -> Record {
        Record {
            change_id: "1-a".into(),
            time: String::new(),
            tool: "Move".into(),
            undoes: None,
            entries: moves
                .iter()
                .map(|(from, to)| Entry::Move {
                    from: from.to_string(),
                    to: to.to_string(),
                    folder: true,
                    made: Vec::new(),
                })
                .collect(),
        }
    }

    #[test]
    fn paths_follow_moves_both_ways() {
        let r = record(&[("a", "b"), ("b/x.md", "c.md")]);
        assert_eq!(after_moves(&r, "a/x.md"), "c.md");
        assert_eq!(after_moves(&r, "a/y.md"), "b/y.md");
        assert_eq!(before_moves(&r, "c.md"), "a/x.md");
        assert_eq!(before_moves(&r, "b/y.md"), "a/y.md");
        assert_eq!(after_moves(&r, "other.md"), "other.md");
    }
}
