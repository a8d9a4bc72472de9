//! The committer's record of a written change in its root's edit history
//! ([`super::super::history`]): each edited file's hashes and the bytes the
//! edit replaced, each new file's hash, each move.

use std::path::{Path, PathBuf};

use super::{Change, History, Transaction};
use crate::text::byte_delta::Delta;
use crate::text::document::Document;
use crate::text::edit::LineSpan;
use crate::workspace::commit::EntryKind;
use crate::workspace::history::HistoryOptions;
use crate::workspace::history::record::{Entry, Record, stored_path};
use crate::workspace::history::store::{self, Appended};
use crate::workspace::timestamp::UtcTime;

impl Transaction<'_> {
    /// The history entries of a change and the bytes they keep, or why the
    /// change cannot be recorded.
    #[allow(clippy::type_complexity)]
    pub(super) fn entries(
        &self,
        change: &Change,
        changed: &[usize],
    ) -> Result<(PathBuf, Vec<Entry>, Vec<Vec<u8>>), String> {
        let root = changed
            .first()
            .map(|&i| self.files[i].path.root.clone())
            .or_else(|| self.relocations.first().map(|r| r.source.root.clone()))
            .ok_or_else(|| "nothing changed".to_string())?;
        let stored = |real: &Path| {
            stored_path(&root, real).ok_or_else(|| {
                format!(
                    "the path {} is not valid Unicode, so the history cannot name it",
                    real.display()
                )
            })
        };
        let mut entries = Vec::new();
        let mut payload = Vec::new();
        for &i in changed {
            let file = &self.files[i];
            let after = change.contents[i]
                .as_ref()
                .expect("changed files have content");
            if !file.path.exists {
                entries.push(Entry::Create {
                    path: stored(&file.path.real)?,
                    hash_after: after.hash(),
                    lines: after.line_count(),
                });
                continue;
            }
            let before = &file.doc;
            let (old, new) = (before.bytes(), after.bytes());
            let delta = Delta::between(&old, &new);
            payload.push(delta.old_middle(&old).to_vec());
            entries.push(Entry::Edit {
                path: stored(&file.path.real)?,
                encoding: before.encoding().name().to_string(),
                hash_before: before.hash(),
                hash_after: after.hash(),
                affected_lines: affected_lines(before, after),
                lines_delta: after.line_count() as isize - before.line_count() as isize,
                prefix: delta.prefix as u64,
                old_len: delta.old_len as u64,
                new_len: delta.new_len as u64,
            });
        }
        for plan in &self.relocations {
            entries.push(Entry::Move {
                from: stored(&plan.source.real)?,
                to: stored(&plan.destination.real)?,
                folder: plan.kind == EntryKind::Folder,
                made: plan
                    .new_folders
                    .iter()
                    .map(|f| stored(f))
                    .collect::<Result<_, _>>()?,
            });
        }
        Ok((root, entries, payload))
    }

    /// Keeps the record of a written change in `root`'s history.
    pub(super) fn record(
        &self,
        root: &Path,
        tool: &'static str,
        undoes: Option<String>,
        entries: Vec<Entry>,
        payload: &[Vec<u8>],
    ) -> History {
        let options: &HistoryOptions = &self.ws.options.history;
        let roots = self.ws.roots();
        let Some(dir) = roots.dir(root) else {
            return History::Unavailable("its root is no longer served".into());
        };
        let record = Record {
            change_id: String::new(),
            time: UtcTime::now().rfc3339(),
            tool: tool.to_string(),
            undoes,
            entries,
        };
        let pieces: Vec<&[u8]> = payload.iter().map(Vec::as_slice).collect();
        match store::append(dir, options, self.ws.options.lock_timeout, record, &pieces) {
            Ok(Appended::Kept { change_id }) => History::Recorded(change_id),
            Ok(Appended::TooLarge { size, limit }) => History::Unavailable(format!(
                "keeping what it replaced would take {}, more than the history of a root may hold ({}, set by --history-max-bytes)",
                crate::workspace::read::human_size(size),
                crate::workspace::read::human_size(limit)
            )),
            Err(e) => History::Unavailable(format!("the history could not be written: {e}")),
        }
    }
}

/// The lines that differ between `before` and `after`, numbered in `after`:
/// an empty span (`end = start - 1`) where lines were only removed.
pub fn affected_lines(before: &Document, after: &Document) -> LineSpan {
    let delta = Delta::between(before.text().as_bytes(), after.text().as_bytes());
    if delta.is_empty() {
        return LineSpan::new(1, 0);
    }
    let lines = after.lines();
    let start = lines.line_of_offset(delta.prefix);
    if delta.new_len == 0 {
        // A removal at the start of a line sits before that line.
        let at_line_start =
            delta.prefix == 0 || after.text().as_bytes().get(delta.prefix - 1) == Some(&b'\n');
        let start = if at_line_start && delta.prefix >= after.text().len() {
            after.line_count() + 1
        } else {
            start
        };
        return LineSpan::new(start, start.saturating_sub(1));
    }
    let end = lines.line_of_offset(delta.prefix + delta.new_len - 1);
    LineSpan::new(start, end.max(start))
}
