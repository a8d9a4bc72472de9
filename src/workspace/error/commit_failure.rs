//! What happened when writing the files of a change failed midway, and
//! what was put back.

use std::fmt;
use std::io;
use std::path::PathBuf;

/// What happened when renaming the staged files of a batch failed midway.
#[derive(Debug)]
pub struct CommitFailure {
    /// The file whose rename failed; it still has its original bytes.
    pub failed: PathBuf,
    /// Why the rename failed.
    pub error: io::Error,
    /// Files that had been renamed and were written back with their original bytes.
    pub restored: Vec<PathBuf>,
    /// New files that had been created and were removed again.
    pub removed: Vec<PathBuf>,
    /// Files that had been renamed and could not be written back: they hold
    /// the new bytes.
    pub not_restored: Vec<(PathBuf, io::Error)>,
    /// Files whose new bytes were staged but never renamed: unchanged.
    pub untouched: Vec<PathBuf>,
}

impl fmt::Display for CommitFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "writing the batch failed at {}: {}",
            self.failed.display(),
            self.error
        )?;
        if !self.restored.is_empty() {
            write!(
                f,
                "; the file{} already written ({}) {} restored from {} original bytes",
                plural(self.restored.len()),
                list(&self.restored),
                if self.restored.len() == 1 {
                    "was"
                } else {
                    "were"
                },
                if self.restored.len() == 1 {
                    "its"
                } else {
                    "their"
                },
            )?;
        }
        if !self.removed.is_empty() {
            write!(
                f,
                "; the new file{} already created ({}) {} removed again",
                plural(self.removed.len()),
                list(&self.removed),
                if self.removed.len() == 1 {
                    "was"
                } else {
                    "were"
                },
            )?;
        }
        if self.not_restored.is_empty() {
            f.write_str("; no file was changed")
        } else {
            let failures: Vec<String> = self
                .not_restored
                .iter()
                .map(|(p, e)| format!("{} ({e})", p.display()))
                .collect();
            write!(
                f,
                "; these files could NOT be restored and now hold the new content: {}; every other file of the batch is unchanged",
                failures.join(", ")
            )
        }
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn list(paths: &[PathBuf]) -> String {
    paths
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}
