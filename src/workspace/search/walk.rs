//! The parallel walk: every file a search may look at, read and counted on
//! the thread that found it.
//!
//! What is looked at: files below the start folders with an allowed ending
//! (and matching `filePattern`, if given), except hidden files and folders,
//! anything a `.gitignore` or `.ignore` file inside the roots excludes (in a
//! git repository or not), and the trash and edit history folders. Symbolic
//! links are not followed, so a walk never leaves the folder it started in;
//! they are counted as skipped. Folders that cannot be listed and files that cannot be read are
//! reported with the reason, never passed over in silence.
//!
//! Every file is opened through its root's directory handle, without
//! blocking (a FIFO or device is never read), and read up to the size limit.
//! A folder swapped for a link out of the root while the walk runs can make
//! the walker list names outside; opening them through the handle fails, and
//! such files are left out without a word, so nothing about the outside
//! reaches the answer.
//!
//! Each thread keeps its own searcher, read buffer and tally, and hands the
//! tally over once when the walk ends, so nothing is shared per file except
//! the progress counter.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use cap_std::fs::Dir;
use grep_searcher::Searcher;
use ignore::{DirEntry, ParallelVisitor, ParallelVisitorBuilder, WalkBuilder, WalkState};

use super::ancestor_rules::AncestorRules;
use super::contents::read_text;
use super::file_pattern::FilePattern;
use super::one_file::{FileText, NoWork, search_one_file};
use super::pattern::Pattern;
use crate::workspace::beneath::{self, open_for_reading};
use crate::workspace::extensions::ExtensionFilter;
use crate::workspace::read::ReadError;
use crate::workspace::roots::{ResolvedPath, Roots};

/// The folders, inside each root, that removed files are moved to and that
/// the edit history is kept in: never searched.
const SKIPPED: [&str; 2] = [
    crate::workspace::trash::TRASH_DIR,
    crate::workspace::history::HISTORY_DIR,
];

/// Shortest time between two progress reports, in milliseconds.
const PROGRESS_INTERVAL_MS: u64 = 100;

/// Where a search looks.
#[derive(Debug, Clone)]
pub enum SearchScope {
    /// These folders, walked. A folder inside another one in the list is
    /// walked only once, as part of the outer one.
    Folders(Vec<ResolvedPath>),
    /// This one file, searched even if it is hidden or ignored.
    File(ResolvedPath),
}

/// Whether a file (its path and text) is searched at all.
pub type NoteFilterFn<'a> = dyn Fn(&Path, &str) -> bool + Sync + 'a;

/// What to search for, where, and how to report back.
pub struct SearchRequest<'a> {
    /// The roots whose handles every file is opened through.
    pub roots: &'a Roots,
    /// Where to look.
    pub scope: SearchScope,
    /// What to look for.
    pub pattern: &'a Pattern,
    /// Only files this glob selects, if given.
    pub file_pattern: Option<&'a FilePattern>,
    /// Only files whose path and text this accepts (a note's tags or
    /// properties), if given; the others are not counted as searched.
    pub filter: Option<&'a NoteFilterFn<'a>>,
    /// Only files with these endings.
    pub extensions: &'a ExtensionFilter,
    /// Larger files are reported as unreadable.
    pub max_file_size: u64,
    /// Set by the caller to stop the search early.
    pub cancel: &'a AtomicBool,
    /// Called with the number of files looked at so far, at most every 100 ms.
    pub progress: &'a (dyn Fn(usize) + Sync),
}

/// A file with matches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileHits {
    /// The file.
    pub path: ResolvedPath,
    /// How many matches it holds.
    pub matches: usize,
    /// Byte offset in its text where the first match's line starts, so that
    /// showing the matches need not search the text before it again.
    pub first_line_start: usize,
}

/// A file or folder that could not be searched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unreadable {
    /// The file or folder.
    pub path: PathBuf,
    /// Why, e.g. "it could not be read: Permission denied (os error 13)".
    pub reason: String,
}

/// What a search found.
#[derive(Debug, Default)]
pub struct SearchSummary {
    /// Files with matches, sorted by path.
    pub files: Vec<FileHits>,
    /// Text files whose content was searched.
    pub files_searched: usize,
    /// Binary files, skipped.
    pub binary_files: usize,
    /// Symbolic links, not followed.
    pub links_skipped: usize,
    /// Files and folders that could not be read, sorted by path.
    pub unreadable: Vec<Unreadable>,
    /// Whether the search stopped early because it was cancelled.
    pub cancelled: bool,
}

impl SearchSummary {
    /// Matches in all files.
    pub fn total_matches(&self) -> usize {
        self.files.iter().map(|f| f.matches).sum()
    }

    fn absorb(&mut self, tally: Tally) {
        self.files.extend(tally.files);
        self.files_searched += tally.searched;
        self.binary_files += tally.binary;
        self.links_skipped += tally.links;
        self.unreadable.extend(tally.unreadable);
    }
}

/// Searches every file of `request.scope` and counts the matches.
pub fn search(request: &SearchRequest<'_>) -> SearchSummary {
    let progress = Progress {
        report: request.progress,
        started: Instant::now(),
        done: AtomicUsize::new(0),
        last_ms: AtomicU64::new(0),
    };
    let mut summary = SearchSummary::default();
    match &request.scope {
        SearchScope::File(path) => {
            let mut text = FileText::default();
            summary = search_one_file(request, path, 0, &mut text, NO_WORK_BESIDE).summary;
        }
        SearchScope::Folders(folders) => {
            for folder in outermost(folders) {
                if request.cancel.load(Ordering::Relaxed) {
                    break;
                }
                summary.absorb(walk_folder(request, folder, &progress));
            }
        }
    }
    summary.cancelled = request.cancel.load(Ordering::Relaxed);
    summary
        .files
        .sort_unstable_by(|a, b| a.path.real.cmp(&b.path.real));
    summary
        .unreadable
        .sort_unstable_by(|a, b| a.path.cmp(&b.path));
    summary
}

/// The folders not inside another folder of the list, each once.
fn outermost(folders: &[ResolvedPath]) -> Vec<&ResolvedPath> {
    let mut kept: Vec<&ResolvedPath> = Vec::new();
    for folder in folders {
        let inside_other = folders
            .iter()
            .any(|other| other.real != folder.real && folder.real.starts_with(&other.real));
        if !inside_other && !kept.iter().any(|k| k.real == folder.real) {
            kept.push(folder);
        }
    }
    kept
}

fn walk_folder(
    request: &SearchRequest<'_>,
    folder: &ResolvedPath,
    progress: &Progress<'_>,
) -> Tally {
    let Some(dir) = request.roots.dir(&folder.root) else {
        return Tally::default();
    };
    let builder = walk_builder(folder);
    let walk = Walk {
        request,
        dir,
        root: &folder.root,
        progress,
        merged: Mutex::new(Tally::default()),
    };
    builder
        .build_parallel()
        .visit(&mut VisitorBuilder { walk: &walk });
    walk.merged.into_inner().unwrap_or_else(|e| e.into_inner())
}

/// The walker over `folder` with the rules every walk of the roots follows:
/// hidden files and folders, `.gitignore`d and `.ignore`d paths (with or
/// without git) left out, symbolic links not followed, nothing outside the
/// roots read, the trash folder not entered.
pub(crate) fn walk_builder(folder: &ResolvedPath) -> WalkBuilder {
    let mut builder = WalkBuilder::new(&folder.real);
    builder
        .hidden(true)
        .ignore(true)
        .git_ignore(true)
        .git_exclude(true)
        .require_git(false)
        // Nothing outside the roots is read: no global gitignore, no ignore
        // files above the root (those between the root and the folder come
        // from AncestorRules).
        .git_global(false)
        .parents(false)
        .follow_links(false);
    let rules = AncestorRules::between(&folder.root, &folder.real);
    let rules = (!rules.is_empty()).then(|| Arc::new(rules));
    builder.filter_entry(move |entry| {
        let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
        !(is_dir && is_skipped_folder(entry))
            && rules
                .as_ref()
                .is_none_or(|rules| !rules.ignores(entry.path(), is_dir))
    });
    builder
}

/// Whether a folder met in a walk is the trash or the edit history, which no
/// walk enters.
pub(crate) fn is_skipped_folder(entry: &DirEntry) -> bool {
    entry.depth() > 0 && SKIPPED.iter().any(|s| entry.file_name() == *s)
}

/// How a file that could not be searched is reported.
pub(super) enum Skipped {
    /// Counted among the binary files.
    Binary,
    /// Not told at all.
    Unsaid,
    /// Listed as unreadable, for this reason.
    Unreadable(String),
}

/// How a file that failed to read with `error` is reported.
pub(super) fn skipped(error: ReadError) -> Skipped {
    match error {
        error if error.is_binary() => Skipped::Binary,
        // Swapped for a link out of the root during the walk: nothing about
        // it may be told.
        ReadError::Io(e) if beneath::is_escape(&e) => Skipped::Unsaid,
        error => Skipped::Unreadable(error.to_string()),
    }
}

/// No work beside the search of one file.
const NO_WORK_BESIDE: Option<fn(&str) -> NoWork> = None;

/// Counts kept by one thread.
#[derive(Debug, Default)]
struct Tally {
    files: Vec<FileHits>,
    searched: usize,
    binary: usize,
    links: usize,
    unreadable: Vec<Unreadable>,
}

impl Tally {
    fn search_file(
        &mut self,
        request: &SearchRequest<'_>,
        dir: &Dir,
        path: &Path,
        root: &Path,
        searcher: &mut Searcher,
        buffer: &mut Vec<u8>,
    ) {
        let rel = path.strip_prefix(root).unwrap_or(Path::new(""));
        let read = open_for_reading(dir, rel)
            .and_then(|file| read_text(&file, request.max_file_size, buffer));
        match read {
            Err(error) => match skipped(error) {
                Skipped::Binary => self.binary += 1,
                Skipped::Unsaid => {}
                Skipped::Unreadable(reason) => self.unreadable.push(Unreadable {
                    path: path.to_path_buf(),
                    reason,
                }),
            },
            Ok(contents) => {
                if let Some(filter) = request.filter
                    && !std::str::from_utf8(contents.bytes()).is_ok_and(|text| filter(path, text))
                {
                    return;
                }
                self.searched += 1;
                let tally = request.pattern.tally(searcher, contents.bytes());
                if tally.matches > 0 {
                    self.files.push(FileHits {
                        path: ResolvedPath {
                            real: path.to_path_buf(),
                            root: root.to_path_buf(),
                            exists: true,
                        },
                        matches: tally.matches,
                        first_line_start: tally.first_line_start,
                    });
                }
            }
        }
    }

    fn merge(&mut self, other: Tally) {
        self.files.extend(other.files);
        self.searched += other.searched;
        self.binary += other.binary;
        self.links += other.links;
        self.unreadable.extend(other.unreadable);
    }

    /// Records the folders and files the walker could not open, unless
    /// they are not inside the root any more.
    fn walk_error(&mut self, dir: &Dir, root: &Path, error: &ignore::Error) {
        match error {
            ignore::Error::WithPath { path, err } => match err.as_ref() {
                ignore::Error::Io(io) => {
                    let rel = path.strip_prefix(root).unwrap_or(Path::new(""));
                    let meta = dir.symlink_metadata(beneath::or_dot(rel));
                    if meta.as_ref().is_err_and(beneath::is_escape) {
                        return;
                    }
                    let reason = if meta.is_ok_and(|m| m.is_dir()) {
                        format!("the folder could not be listed: {io}")
                    } else {
                        format!("it could not be read: {io}")
                    };
                    self.unreadable.push(Unreadable {
                        path: path.clone(),
                        reason,
                    });
                }
                other => self.walk_error(dir, root, other),
            },
            ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
                self.walk_error(dir, root, err)
            }
            ignore::Error::Partial(errors) => {
                errors.iter().for_each(|e| self.walk_error(dir, root, e))
            }
            // A bad glob in an ignore file spoils only its own line.
            _ => {}
        }
    }
}

/// Rate-limited progress reports shared by the threads of a search.
struct Progress<'a> {
    report: &'a (dyn Fn(usize) + Sync),
    started: Instant,
    done: AtomicUsize,
    last_ms: AtomicU64,
}

impl Progress<'_> {
    fn tick(&self) {
        let done = self.done.fetch_add(1, Ordering::Relaxed) + 1;
        let now = self.started.elapsed().as_millis() as u64;
        let last = self.last_ms.load(Ordering::Relaxed);
        if now >= last + PROGRESS_INTERVAL_MS
            && self
                .last_ms
                .compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok()
        {
            (self.report)(done);
        }
    }
}

/// One walk of one folder.
struct Walk<'s> {
    request: &'s SearchRequest<'s>,
    dir: &'s Dir,
    root: &'s Path,
    progress: &'s Progress<'s>,
    merged: Mutex<Tally>,
}

struct VisitorBuilder<'s> {
    walk: &'s Walk<'s>,
}

impl<'s> ParallelVisitorBuilder<'s> for VisitorBuilder<'s> {
    fn build(&mut self) -> Box<dyn ParallelVisitor + 's> {
        Box::new(Visitor {
            walk: self.walk,
            searcher: self.walk.request.pattern.searcher(),
            buffer: Vec::new(),
            tally: Tally::default(),
        })
    }
}

/// The per-thread state of a walk.
struct Visitor<'s> {
    walk: &'s Walk<'s>,
    searcher: Searcher,
    buffer: Vec<u8>,
    tally: Tally,
}

impl Visitor<'_> {
    fn selected(&self, path: &Path) -> bool {
        let request = self.walk.request;
        request.extensions.allows(path)
            && request.file_pattern.is_none_or(|pattern| {
                pattern.matches(path.strip_prefix(self.walk.root).unwrap_or(path))
            })
    }
}

impl ParallelVisitor for Visitor<'_> {
    fn visit(&mut self, entry: Result<DirEntry, ignore::Error>) -> WalkState {
        let request = self.walk.request;
        if request.cancel.load(Ordering::Relaxed) {
            return WalkState::Quit;
        }
        let entry = match entry {
            Ok(entry) => entry,
            Err(error) => {
                self.tally.walk_error(self.walk.dir, self.walk.root, &error);
                return WalkState::Continue;
            }
        };
        let Some(kind) = entry.file_type() else {
            return WalkState::Continue;
        };
        if kind.is_dir() {
            if is_skipped_folder(&entry) {
                return WalkState::Skip;
            }
            return WalkState::Continue;
        }
        let path = entry.path();
        if kind.is_symlink() {
            // Counted when it leads to a folder, or to a file the search would
            // otherwise have looked at.
            // A link that leads out of the root (absolute links do, to the
            // handle) is counted without looking at what it leads to.
            let rel = path.strip_prefix(self.walk.root).unwrap_or(path);
            let to_dir_or_out = match self.walk.dir.metadata(rel) {
                Ok(meta) => meta.is_dir(),
                Err(error) => beneath::is_escape(&error),
            };
            if to_dir_or_out || self.selected(path) {
                self.tally.links += 1;
            }
            return WalkState::Continue;
        }
        // Devices, sockets and pipes are never opened: reading a pipe can block.
        if !kind.is_file() || !self.selected(path) {
            return WalkState::Continue;
        }
        self.tally.search_file(
            request,
            self.walk.dir,
            path,
            self.walk.root,
            &mut self.searcher,
            &mut self.buffer,
        );
        self.walk.progress.tick();
        WalkState::Continue
    }
}

impl Drop for Visitor<'_> {
    fn drop(&mut self) {
        let tally = std::mem::take(&mut self.tally);
        self.walk
            .merged
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .merge(tally);
    }
}
