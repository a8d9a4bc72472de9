//! One file searched with both cores: counted, its first matches found, and
//! the caller's own work on its text (the headings above the matches) done
//! on a second thread at the same time.
//!
//! A search of one large note spends its time in four passes over the text:
//! reading it, checking it is UTF-8, finding the matches, and scanning the
//! Markdown blocks for the heading above each match. A large file is mapped
//! rather than read where a read lease keeps it safe to ([`super::mapped`]),
//! else read by halves ([`super::halves`]), and checked as UTF-8 by halves
//! either way; then this thread counts the
//! matches while the other scans for headings, and tells it the line of the
//! last match shown as soon as it knows it, so the scan stops there. Files
//! under [`PARALLEL_FROM`] bytes are done on one thread, in the same order.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use mcp_server_text::text::markdown::SharedHeadings;
//! use mcp_server_text::workspace::extensions::ExtensionFilter;
//! use mcp_server_text::workspace::roots::Roots;
//! use mcp_server_text::workspace::search::{Pattern, SearchRequest, SearchScope};
//! use mcp_server_text::workspace::search::one_file::{FileText, search_one_file};
//!
//! let dir = tempfile::tempdir().unwrap();
//! std::fs::write(dir.path().join("a.md"), "# Plan\ntodo: x\n## Later\ntodo: y\n").unwrap();
//! let roots = Roots::new(vec![dir.path().to_path_buf()]).unwrap();
//! let path = roots.resolve_existing("a.md").unwrap();
//! let pattern = Pattern::new("todo", false, false).unwrap();
//! let request = SearchRequest {
//!     roots: &roots,
//!     scope: SearchScope::File(path.clone()),
//!     pattern: &pattern,
//!     file_pattern: None,
//!     filter: None,
//!     extensions: &ExtensionFilter::default(),
//!     max_file_size: 1 << 20,
//!     cancel: &AtomicBool::new(false),
//!     progress: &|_| {},
//! };
//! let mut text = FileText::default();
//! let found = search_one_file(&request, &path, 1, &mut text, Some(SharedHeadings::new));
//! assert_eq!(found.summary.total_matches(), 2);
//! assert_eq!(found.matches.len(), 1);
//! let headings = found.beside.unwrap();
//! assert_eq!(headings.nearest(found.matches[0].line).unwrap().text, "Plan");
//! ```

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::contents::{Contents, read_text};
use super::halves::{HalvesText, PARALLEL_FROM, read_in_halves};
use super::mapped::{MappedText, map_text};
use super::pattern::{LineMatch, Tally};
use super::side_by_side::side_by_side;
use super::walk::{FileHits, SearchRequest, SearchSummary, Skipped, skipped};
use crate::text::markdown::{HeadingsThrough, SharedHeadings};
use crate::workspace::beneath::open_for_reading;
use crate::workspace::read::{ReadError, check_readable};
use crate::workspace::roots::ResolvedPath;

/// The line of the last match a search of one file returns, once known:
/// `usize::MAX` until then, 0 when there is none.
pub type LastLine<'a> = &'a (dyn Fn() -> usize + Sync);

/// Work on a searched text done beside the count of its matches (in a
/// large file, on a second thread), which the counting thread may help with
/// once the count is done.
pub trait Beside: Sync {
    /// What the work makes of the text.
    type Made: Send;
    /// Does the work; `last` names the line of the last match shown once
    /// it is known.
    fn run(&self, last: LastLine<'_>) -> Self::Made;
    /// Lends the counting thread to the work once the count is done.
    fn help(&self, _last: LastLine<'_>) {}
}

/// The headings above the matches of a Markdown file.
impl<'t> Beside for SharedHeadings<'t> {
    type Made = HeadingsThrough<'t>;

    fn run(&self, last: LastLine<'_>) -> HeadingsThrough<'t> {
        self.scan(last)
    }

    fn help(&self, last: LastLine<'_>) {
        SharedHeadings::help(self, last);
    }
}

/// No work beside the count.
#[derive(Debug)]
pub struct NoWork;

impl Beside for NoWork {
    type Made = ();

    fn run(&self, _last: LastLine<'_>) {}
}

/// The text of the file searched, which the caller keeps while it shows the
/// matches.
#[derive(Debug, Default)]
pub struct FileText(Read);

#[derive(Debug, Default)]
enum Read {
    #[default]
    Nothing,
    Mapped(MappedText),
    Halves(HalvesText),
    Whole(String),
}

impl FileText {
    /// The text (empty before a read, or if the file could not be read).
    pub fn as_str(&self) -> &str {
        match &self.0 {
            Read::Nothing => "",
            Read::Mapped(text) => text.as_str(),
            Read::Halves(text) => text.as_str(),
            Read::Whole(text) => text,
        }
    }
}

/// What the search of one file found.
#[derive(Debug)]
pub struct OneFile<'t, R> {
    /// The file's text (empty if it could not be searched).
    pub text: &'t str,
    /// Counts as for a folder: the file with its match count, or why it was
    /// not searched.
    pub summary: SearchSummary,
    /// Its first matches, as many as asked for.
    pub matches: Vec<LineMatch>,
    /// What the work beside made of the text; `None` when none was asked for
    /// or the file could not be searched.
    pub beside: Option<R>,
}

/// Searches the file at `path` for `request.pattern`: counts every match
/// and finds the first `limit`. Its text is left in `text`. `beside`, if
/// given, makes from the text the work done beside the count ([`Beside`]);
/// for a large file it runs on a second thread meanwhile.
pub fn search_one_file<'t, W, B>(
    request: &SearchRequest<'_>,
    path: &ResolvedPath,
    limit: usize,
    text: &'t mut FileText,
    beside: Option<B>,
) -> OneFile<'t, W::Made>
where
    W: Beside,
    B: FnOnce(&'t str) -> W,
{
    let mut found = OneFile {
        text: "",
        summary: SearchSummary::default(),
        matches: Vec::new(),
        beside: None,
    };
    let Some(dir) = request.roots.dir(&path.root) else {
        return found;
    };
    let rel = path.real.strip_prefix(&path.root).unwrap_or(Path::new(""));
    match read(request, dir, rel) {
        Ok((read, large)) => {
            *text = FileText(read);
            let text: &'t FileText = text;
            let text = text.as_str();
            if request
                .filter
                .is_some_and(|filter| !filter(&path.real, text))
            {
                return found;
            }
            let (tally, matches, made) = search_text(request, text, limit, large, beside);
            found.summary.files_searched = 1;
            if tally.matches > 0 {
                found.summary.files.push(FileHits {
                    path: path.clone(),
                    matches: tally.matches,
                    first_line_start: tally.first_line_start,
                });
            }
            found.text = text;
            found.matches = matches;
            found.beside = made;
        }
        Err(error) => match skipped(error) {
            Skipped::Binary => found.summary.binary_files = 1,
            Skipped::Unsaid => {}
            Skipped::Unreadable(reason) => found.summary.unreadable.push(super::Unreadable {
                path: path.real.clone(),
                reason,
            }),
        },
    }
    found
}

/// Reads the file's text, with two threads if it is large; tells which.
fn read(
    request: &SearchRequest<'_>,
    dir: &cap_std::fs::Dir,
    rel: &Path,
) -> Result<(Read, bool), ReadError> {
    let file = open_for_reading(dir, rel)?;
    let meta = file.metadata().map_err(ReadError::Io)?;
    check_readable(&meta, request.max_file_size)?;
    let large = meta.len() >= PARALLEL_FROM;
    if large
        && let Ok(handle) = file.try_clone()
        && let Some(text) = map_text(handle, request.max_file_size)
    {
        return Ok((Read::Mapped(text), true));
    }
    if large && let Some(text) = read_in_halves(&file, meta.len()) {
        return Ok((Read::Halves(text), true));
    }
    // Small, or anything but plain UTF-8 of a steady size: the usual read
    // decides, with its verdicts and messages.
    let mut buffer = Vec::new();
    let text = match read_text(&file, request.max_file_size, &mut buffer)? {
        // Already checked as UTF-8; small, so checking it again costs little.
        Contents::InPlace(bytes) => String::from_utf8_lossy(bytes).into_owned(),
        Contents::Decoded(text) => text,
    };
    Ok((Read::Whole(text), large))
}

/// Counts and finds the matches in `text`, with `beside` on a second thread
/// when the text is `large` (and helped by this one once it has counted).
fn search_text<'t, W, B>(
    request: &SearchRequest<'_>,
    text: &'t str,
    limit: usize,
    large: bool,
    beside: Option<B>,
) -> (Tally, Vec<LineMatch>, Option<W::Made>)
where
    W: Beside,
    B: FnOnce(&'t str) -> W,
{
    let last = AtomicUsize::new(usize::MAX);
    let last_line = || last.load(Ordering::Relaxed);
    let name_last = |line| last.store(line, Ordering::Relaxed);
    let Some(beside) = beside else {
        let (tally, matches) = request.pattern.tally_and_find(text, limit, name_last);
        return (tally, matches, None);
    };
    let work = beside(text);
    if !large {
        let (tally, matches) = request.pattern.tally_and_find(text, limit, name_last);
        let made = work.run(&last_line);
        return (tally, matches, Some(made));
    }
    let count = || {
        let found = request.pattern.tally_and_find(text, limit, name_last);
        work.help(&last_line);
        found
    };
    let ((tally, matches), made) = side_by_side(count, || work.run(&last_line));
    (tally, matches, Some(made))
}
