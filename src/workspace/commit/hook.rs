//! The committer's test seam: a function called before each step of
//! writing, whose error counts as that step failing.

use std::fmt;
use std::io;
use std::path::Path;
use std::sync::Arc;

/// A step of writing a batch, as seen by a [`BatchHook`].
#[derive(Debug, Clone, Copy)]
pub enum BatchStep<'a> {
    /// The new bytes of file `index` are about to be staged.
    Stage {
        /// Index of the file in the batch.
        index: usize,
        /// The file.
        target: &'a Path,
    },
    /// The staged bytes of file `index` are about to be renamed into place.
    Commit {
        /// Index of the file in the batch.
        index: usize,
        /// The file.
        target: &'a Path,
    },
    /// Move `index` of the change is about to be done.
    Move {
        /// Index of the move in the change.
        index: usize,
        /// What moves.
        source: &'a Path,
    },
}

type HookFn = dyn Fn(BatchStep<'_>) -> io::Result<()> + Send + Sync;

/// Called before each step of writing a batch; an error it returns counts as
/// that step failing. Tests use it to make a stage or a rename fail in ways
/// file permissions cannot (for instance when running as root).
#[derive(Clone)]
pub struct BatchHook(Arc<HookFn>);

impl BatchHook {
    /// A hook calling `f`.
    pub fn new(f: impl Fn(BatchStep<'_>) -> io::Result<()> + Send + Sync + 'static) -> BatchHook {
        BatchHook(Arc::new(f))
    }

    /// Calls the hook for `step`.
    pub fn call(&self, step: BatchStep<'_>) -> io::Result<()> {
        (self.0)(step)
    }
}

impl fmt::Debug for BatchHook {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("BatchHook")
    }
}
