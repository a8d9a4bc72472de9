//! What the committer takes and gives: the files of a transaction
//! ([`BatchItem`]), the planned change ([`Change`]), what it made of it
//! ([`Committed`], [`History`]) and a failure about one of its files
//! ([`BatchFailure`]).

use std::path::PathBuf;

use crate::text::document::Document;
use crate::text::encoding::TextEncoding;
use crate::workspace::OpenFile;

/// One file of a batch.
#[derive(Debug, Clone, Copy)]
pub struct BatchItem<'a> {
    /// The path as the caller gave it.
    pub given: &'a str,
    /// The encoding to read it in (`None`: recognise it).
    pub encoding: Option<TextEncoding>,
    /// The hash the file must still have, if the caller sent one.
    pub expected_hash: Option<&'a str>,
    /// Whether the file may not exist yet (it is then created).
    pub may_be_new: bool,
}

impl<'a> BatchItem<'a> {
    /// An existing file recognised by its bytes, without a hash check.
    pub fn new(given: &'a str) -> BatchItem<'a> {
        BatchItem {
            given,
            encoding: None,
            expected_hash: None,
            may_be_new: false,
        }
    }

    /// A file that may exist or not.
    pub fn new_or_existing(given: &'a str) -> BatchItem<'a> {
        BatchItem {
            may_be_new: true,
            ..BatchItem::new(given)
        }
    }
}

/// A batch that failed, and which of its files the failure is about.
#[derive(Debug)]
pub struct BatchFailure<E> {
    /// Index of the file in the batch, when the failure is about one file.
    pub index: Option<usize>,
    /// What went wrong.
    pub error: E,
}

/// A planned change: what a transaction's files become.
#[derive(Debug)]
pub struct Change {
    /// The tool that planned it, as the history names it.
    pub tool: &'static str,
    /// The new content of each file of the transaction, in its order:
    /// `None` leaves a file as it is (and does not create a new one).
    pub contents: Vec<Option<Document>>,
    /// For an undo, the change it undoes.
    pub undoes: Option<String>,
}

impl Change {
    /// A change by `tool` giving the transaction's files `contents`.
    pub fn new(tool: &'static str, contents: Vec<Option<Document>>) -> Change {
        Change {
            tool,
            contents,
            undoes: None,
        }
    }
}

/// What the history made of a committed change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum History {
    /// Recorded under this change id: UndoEdit takes it.
    Recorded(String),
    /// Nothing to record: a dry run, no change, or history switched off.
    NotKept,
    /// The change was made, but could not be recorded, for this reason.
    Unavailable(String),
}

impl History {
    /// The change id, when the change was recorded.
    pub fn change_id(&self) -> Option<&str> {
        match self {
            History::Recorded(id) => Some(id),
            _ => None,
        }
    }

    /// The note a reply carries when undo is not available for its change.
    pub fn note(&self) -> Option<String> {
        match self {
            History::Unavailable(why) => {
                Some(format!("UndoEdit is not available for this change: {why}"))
            }
            _ => None,
        }
    }
}

/// A committed (or, in a dry run, checked) change.
#[derive(Debug)]
pub struct Committed {
    /// The files as the transaction read them (an empty document for a file
    /// that did not exist).
    pub before: Vec<OpenFile>,
    /// What each became (`None`: left as it was).
    pub after: Vec<Option<Document>>,
    /// The folders made (in a dry run: that would be made) for each new file.
    pub new_folders: Vec<Vec<PathBuf>>,
    /// Whether anything was written (false in a dry run).
    pub written: bool,
    /// The history record.
    pub history: History,
}
