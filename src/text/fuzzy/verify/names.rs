//! How the re-read names lines, so that whitespace is no change.

use std::collections::{HashMap, HashSet};

use super::MARKER_KEY;
use crate::text::fuzzy::rows::Row;

/// How the re-read names lines: by their key, so that whitespace is no
/// change, except where two different lines of the file share a key
/// (`#comment` and `# comment`, `a-b` and `a - b`): a key that cannot tell
/// the file's lines apart cannot tell which of them an edit kept, so those
/// lines are named by their trimmed text instead.
#[derive(Debug, Default)]
pub(crate) struct Names<'a> {
    shared: HashSet<&'a str>,
    /// How each line named so far reads (its trimmed text), for messages.
    shown: HashMap<&'a str, &'a str>,
}

impl<'a> Names<'a> {
    /// Names for the lines of `file` and whatever is compared with them.
    pub(crate) fn new(file: &'a [Row<'a>]) -> Names<'a> {
        let mut seen: HashMap<&str, &str> = HashMap::new();
        let mut shared = HashSet::new();
        for row in file.iter().filter(|r| !r.is_blank()) {
            let text = row.raw.trim();
            match seen.get(row.key.as_str()) {
                Some(other) if *other != text => {
                    shared.insert(row.key.as_str());
                }
                Some(_) => {}
                None => {
                    seen.insert(row.key.as_str(), text);
                }
            }
        }
        Names {
            shared,
            shown: HashMap::new(),
        }
    }

    /// The name of `row`, a line with text.
    pub(crate) fn of(&mut self, row: &'a Row<'_>) -> &'a str {
        let name = if self.shared.contains(row.key.as_str()) {
            row.raw.trim()
        } else {
            row.key.as_str()
        };
        self.shown.entry(name).or_insert_with(|| row.raw.trim());
        name
    }

    /// The names of the rows with text.
    pub(crate) fn keys(&mut self, rows: &'a [Row<'_>]) -> Vec<&'a str> {
        rows.iter()
            .filter(|r| !r.is_blank())
            .map(|r| self.of(r))
            .collect()
    }

    /// The names of rows in order, blank lines left out and markers as
    /// [`MARKER_KEY`].
    pub(crate) fn order_of(&mut self, rows: &'a [Row<'_>], markers: &[bool]) -> Vec<&'a str> {
        rows.iter()
            .zip(markers)
            .filter(|(r, m)| **m || !r.is_blank())
            .map(|(r, m)| if *m { MARKER_KEY } else { self.of(r) })
            .collect()
    }

    /// The names of rows in order, blank lines as `""` and markers as
    /// [`MARKER_KEY`].
    pub(crate) fn lines_of(&mut self, rows: &'a [Row<'_>], markers: &[bool]) -> Vec<&'a str> {
        rows.iter()
            .zip(markers)
            .map(|(r, m)| match (*m, r.is_blank()) {
                (true, _) => MARKER_KEY,
                (false, true) => "",
                (false, false) => self.of(r),
            })
            .collect()
    }

    /// [`Names::lines_of`], each with its indentation in columns.
    pub(crate) fn depths_of(
        &mut self,
        rows: &'a [Row<'_>],
        markers: &[bool],
    ) -> Vec<(&'a str, usize)> {
        let names = self.lines_of(rows, markers);
        names
            .into_iter()
            .zip(rows.iter().map(|r| r.width))
            .collect()
    }

    /// The names of rows, markers and blank lines left out.
    pub(crate) fn keys_of(&mut self, rows: &'a [Row<'_>], markers: &[bool]) -> Vec<&'a str> {
        rows.iter()
            .zip(markers)
            .filter(|(r, m)| !**m && !r.is_blank())
            .map(|(r, _)| self.of(r))
            .collect()
    }

    /// How each line named so far reads, by its name.
    pub(crate) fn shown(&mut self) -> HashMap<&'a str, &'a str> {
        std::mem::take(&mut self.shown)
    }
}
