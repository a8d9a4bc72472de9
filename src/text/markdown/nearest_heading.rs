//! The heading a line sits under, found without outlining the whole document.
//!
//! A search names the nearest heading above each match. Outlining a large
//! note for that costs more than the search itself, so this scans only as
//! far as the last line asked about (and to the end of the paragraph there,
//! in case it is underlined into a setext heading), with the same block
//! scanner as the full outline: a `#` line in fenced code, an HTML block or
//! the frontmatter is no heading here either, nor is one inside a list item
//! or block quote.
//!
//! ```
//! use mcp_server_text::text::markdown::headings_through;
//!
//! let text = "---\ntitle: x\n---\n# Guide\n\n```sh\n# not a heading\n```\nSetup\n=====\nmore\n";
//! let headings = headings_through(text, 7);
//! assert_eq!(headings.nearest(7).map(|h| h.line), Some(4));
//! assert_eq!(headings.nearest(2), None);
//! let headings = headings_through(text, 9);
//! assert_eq!(headings.nearest(9).map(|h| h.text), Some("Setup".to_string()));
//! ```

use super::blocks;
use super::frontmatter;
use super::headings::{RawHeading, heading_text};

/// The top-level headings that start at or before some line.
#[derive(Debug)]
pub struct HeadingsThrough<'t> {
    headings: Vec<RawHeading<'t>>,
    /// The lines scanned: at least through the line asked for.
    last: usize,
}

/// A heading above a line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeadingAbove {
    /// 1 to 6.
    pub level: u8,
    /// The heading's text, as the outline gives it.
    pub text: String,
    /// The heading's first line.
    pub line: usize,
}

/// The headings of `text` that start at or before line `last`.
pub fn headings_through(text: &str, last: usize) -> HeadingsThrough<'_> {
    headings_until(text, || last)
}

/// The headings of `text` that start at or before line `last()`, where
/// `last` may learn the line while the scan runs (another thread searching
/// the same text names it once it has found the last match it shows); until
/// then it answers `usize::MAX`, and the scan goes on. It never waits: if no
/// line is named, every heading of the text is found.
///
/// ```
/// use std::sync::atomic::{AtomicUsize, Ordering};
/// use mcp_server_text::text::markdown::headings_until;
///
/// let last = AtomicUsize::new(usize::MAX);
/// let text = "# A\ntext\n## B\n";
/// std::thread::scope(|s| {
///     let scan = s.spawn(|| headings_until(text, || last.load(Ordering::Relaxed)));
///     last.store(2, Ordering::Relaxed);
///     assert_eq!(scan.join().unwrap().nearest(2).map(|h| h.line), Some(1));
/// });
/// ```
pub fn headings_until(text: &str, last: impl Fn() -> usize) -> HeadingsThrough<'_> {
    let first_line = frontmatter::detect(text).map_or(1, |f| f.end_line + 1);
    let scan = blocks::scan_through(text, first_line, last);
    HeadingsThrough {
        headings: scan.headings,
        // The scan stops only past the line named, or at the end of the text.
        last: scan.line_count,
    }
}

/// [`headings_until`] on a large text, with a second thread's help: one
/// thread calls [`SharedHeadings::scan`], and another, once it is free (its
/// search done), calls [`SharedHeadings::help`] and scans the far half of
/// what the first has left. The result is the same as `headings_until`'s,
/// whoever does what (see [`blocks::SharedScan`]).
///
/// ```
/// use std::sync::atomic::{AtomicUsize, Ordering};
/// use mcp_server_text::text::markdown::SharedHeadings;
///
/// let text = "# A\n\ntext\n\n## B\n\nmore\n\n### C\n\nlast\n".repeat(3);
/// let shared = SharedHeadings::new(&text);
/// let last = AtomicUsize::new(usize::MAX);
/// let found = std::thread::scope(|s| {
///     s.spawn(|| shared.help(|| last.load(Ordering::Relaxed)));
///     shared.scan(|| last.load(Ordering::Relaxed))
/// });
/// assert_eq!(found.nearest(33).map(|h| h.text), Some("C".to_string()));
/// ```
pub struct SharedHeadings<'t> {
    scan: blocks::SharedScan<'t>,
}

impl<'t> SharedHeadings<'t> {
    /// Prepares the scan of `text`.
    pub fn new(text: &'t str) -> Self {
        let first_line = frontmatter::detect(text).map_or(1, |f| f.end_line + 1);
        SharedHeadings {
            scan: blocks::SharedScan::new(text, first_line),
        }
    }

    /// The headings that start at or before line `last()`, as
    /// [`headings_until`] finds them.
    pub fn scan(&self, last: impl Fn() -> usize) -> HeadingsThrough<'t> {
        let scan = self.scan.scan(last);
        HeadingsThrough {
            headings: scan.headings,
            last: scan.line_count,
        }
    }

    /// Scans the far half of what [`SharedHeadings::scan`] has left, unless
    /// that scan is there already or will stop before it. Only the first
    /// call helps.
    pub fn help(&self, last: impl Fn() -> usize) {
        self.scan.help(last);
    }
}

impl HeadingsThrough<'_> {
    /// The last heading that starts at or before `line`, as
    /// [`super::MarkdownOutline::nearest_heading`] finds it; `line` must not
    /// be past the line these headings were found through, nor past the
    /// text's last line.
    pub fn nearest(&self, line: usize) -> Option<HeadingAbove> {
        debug_assert!(
            line <= self.last.max(1),
            "line {line} is past {}",
            self.last
        );
        let after = self.headings.partition_point(|h| h.line <= line);
        let raw = &self.headings[after.checked_sub(1)?];
        Some(HeadingAbove {
            level: raw.level,
            text: heading_text(&raw.raw, raw.setext).0,
            line: raw.line,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::markdown::parse;
    use proptest::prelude::*;

    /// Whether the partial scan names the same heading as the full outline
    /// for every line up to `last`.
    fn agrees(text: &str, last: usize) -> Result<(), String> {
        let outline = parse(text);
        let partial = headings_through(text, last);
        for line in 1..=last {
            let full = outline.nearest_heading(line).map(|h| HeadingAbove {
                level: h.level,
                text: h.text.clone(),
                line: h.line,
            });
            let fast = partial.nearest(line);
            if full != fast {
                return Err(format!(
                    "line {line} (through {last}): outline {full:?}, scan {fast:?}"
                ));
            }
        }
        Ok(())
    }

    fn lines_of(text: &str) -> usize {
        crate::text::lines::split_lines(text).count()
    }

    #[test]
    fn agrees_with_the_outline_on_the_fixtures() {
        let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        let mut checked = 0;
        for entry in walk(&fixtures).into_iter().chain(walk(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("example-vault"),
        )) {
            if entry.extension().is_none_or(|e| e != "md") {
                continue;
            }
            let Ok(text) = std::fs::read_to_string(&entry) else {
                continue;
            };
            let count = lines_of(&text);
            for last in 1..=count {
                if let Err(e) = agrees(&text, last) {
                    panic!("{}: {e}", entry.display());
                }
            }
            checked += 1;
        }
        assert!(checked >= 3, "only {checked} Markdown fixtures found");
    }

    fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
        let mut out = Vec::new();
        if let Ok(entries) = std::fs::read_dir(dir) {
            for entry in entries.flatten() {
                let path = entry.path();
                if path.is_dir() {
                    out.extend(walk(&path));
                } else {
                    out.push(path);
                }
            }
        }
        out
    }

    #[test]
    fn setext_headings_and_code() {
        let text = "intro\n# A\nPara\ngraph\n---\n```\n# x\n```\n    # indented\n- # in a list\n> # quoted\n## B\n";
        for last in 1..=lines_of(text) {
            agrees(text, last).unwrap();
        }
        // A paragraph underlined further down is a heading from its first line.
        assert_eq!(
            headings_through(text, 3).nearest(3).map(|h| h.line),
            Some(3)
        );
        assert_eq!(
            headings_through(text, 7).nearest(7).map(|h| h.line),
            Some(3)
        );
        assert_eq!(
            headings_through(text, 12).nearest(11).map(|h| h.line),
            Some(3)
        );
        assert_eq!(
            headings_through(text, 12).nearest(12).map(|h| h.line),
            Some(12)
        );
    }

    /// Lines that exercise the block structure around headings.
    fn markdown_line() -> impl Strategy<Value = &'static str> {
        prop::sample::select(vec![
            "# Title",
            "## Sub {#id}",
            "### Deep ###",
            "#nospace",
            "Text line",
            "more text",
            "",
            "   ",
            "===",
            "---",
            "- item",
            "- # heading in item",
            "  continued",
            "> quote",
            "> # quoted heading",
            "```",
            "```rust",
            "~~~",
            "    indented code",
            "<div>",
            "</div>",
            "<!-- comment",
            "-->",
            "1. numbered",
            "***",
            "+++",
            "Setext",
            "\t# tab",
            "   # three spaces",
            "<a id=\"x\"></a>",
        ])
    }

    #[test]
    fn a_line_named_late_or_never_still_finds_the_right_heading() {
        let text = "# A\n\npara\n## B\nlong\nparagraph\n===\n```\n# code\n```\n### C\n";
        let outline = parse(text);
        let count = lines_of(text);
        for last in 1..=count {
            // The line is named only after `late` lines were scanned.
            for late in [0, 1, last, last + 1, count + 5, usize::MAX] {
                let asked = std::cell::Cell::new(0usize);
                let scan = headings_until(text, || {
                    asked.set(asked.get() + 1);
                    if asked.get() > late { last } else { usize::MAX }
                });
                for line in 1..=last {
                    assert_eq!(
                        scan.nearest(line).map(|h| h.line),
                        outline.nearest_heading(line).map(|h| h.line),
                        "line {line}, last {last}, named after {late}"
                    );
                }
            }
        }
        // Never named: every heading, through the last line.
        let all = headings_until(text, || usize::MAX);
        assert_eq!(all.nearest(count).map(|h| h.text), Some("C".to_string()));
    }

    /// A document of `lines`, after a frontmatter if asked, with CRLF or LF
    /// endings.
    fn document(lines: &[&str], frontmatter: bool, crlf: bool) -> String {
        let mut text = String::new();
        if frontmatter {
            text.push_str("---\ntitle: t\n# not a heading\n---\n");
        }
        for line in lines {
            text.push_str(line);
            text.push_str(if crlf { "\r\n" } else { "\n" });
        }
        text
    }

    /// How the two threads of a shared scan meet: the helper done before the
    /// scan starts, after it ends, both at once, or the helper coming once
    /// the scan is halfway (so it splits what is left, not the whole text).
    #[derive(Debug, Clone, Copy)]
    enum Meeting {
        HelperFirst,
        ScanFirst,
        Together,
        Midway,
    }

    /// The shared scan's headings through `last` (named after `late` lines
    /// were scanned, as a search names it), met as `meeting` says.
    fn shared(text: &str, last: usize, late: usize, meeting: Meeting) -> Vec<(usize, String)> {
        let shared = SharedHeadings::new(text);
        let asked = std::sync::atomic::AtomicUsize::new(0);
        let named = || {
            let asked = asked.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            if asked >= late { last } else { usize::MAX }
        };
        let scan = match meeting {
            Meeting::HelperFirst => {
                shared.help(named);
                shared.scan(named)
            }
            Meeting::ScanFirst => {
                let scan = shared.scan(named);
                shared.help(named);
                scan
            }
            Meeting::Together => std::thread::scope(|s| {
                s.spawn(|| shared.help(named));
                shared.scan(named)
            }),
            Meeting::Midway => {
                // The helper runs inside the scan's own question for the
                // line, halfway through, so it always comes then.
                let halfway = lines_of(text) / 2;
                let scanned = std::sync::atomic::AtomicUsize::new(0);
                let scan_named = || {
                    if scanned.fetch_add(1, std::sync::atomic::Ordering::Relaxed) == halfway {
                        shared.help(named);
                    }
                    named()
                };
                shared.scan(scan_named)
            }
        };
        (1..=last)
            .filter_map(|line| scan.nearest(line).map(|h| (h.line, h.text)))
            .collect()
    }

    #[test]
    fn a_helper_coming_midway_scans_the_far_half_of_what_is_left_and_is_used() {
        let text = "# Top\n\n".to_string()
            + &(1..=40)
                .map(|k| format!("## Part {k}\n\nSome text {k}.\nMore text.\n\n"))
                .collect::<String>();
        let lines = lines_of(&text);
        let shared = SharedHeadings::new(&text);
        let asked = std::sync::atomic::AtomicUsize::new(0);
        let scan = shared.scan(|| {
            if asked.fetch_add(1, std::sync::atomic::Ordering::Relaxed) == lines / 2 {
                shared.help(|| usize::MAX);
            }
            usize::MAX
        });
        assert_eq!(
            shared
                .scan
                .tails_used
                .load(std::sync::atomic::Ordering::Relaxed),
            1
        );
        let alone = headings_until(&text, || usize::MAX);
        for line in 1..=lines {
            assert_eq!(scan.nearest(line), alone.nearest(line), "line {line}");
        }
        assert_eq!(scan.nearest(lines).unwrap().text, "Part 40");
    }

    /// The same from [`headings_until`] alone.
    fn alone(text: &str, last: usize) -> Vec<(usize, String)> {
        let scan = headings_until(text, || last);
        (1..=last)
            .filter_map(|line| scan.nearest(line).map(|h| (h.line, h.text)))
            .collect()
    }

    proptest! {
        #[test]
        fn a_shared_scan_finds_what_one_thread_finds(
            lines in prop::collection::vec(markdown_line(), 0..60),
            frontmatter in any::<bool>(),
            crlf in any::<bool>(),
            late in prop::sample::select(vec![0usize, 3, 1000]),
            meeting in prop::sample::select(vec![Meeting::HelperFirst, Meeting::ScanFirst, Meeting::Together, Meeting::Midway]),
        ) {
            let text = document(&lines, frontmatter, crlf);
            for last in 1..=lines_of(&text) {
                prop_assert_eq!(
                    shared(&text, last, late, meeting),
                    alone(&text, last),
                    "through {} {:?} named after {} lines\n{:?}", last, meeting, late, text
                );
            }
        }
    }

    proptest! {
        #[test]
        fn agrees_with_the_outline(
            lines in prop::collection::vec(markdown_line(), 0..40),
            frontmatter in any::<bool>(),
            crlf in any::<bool>(),
        ) {
            let text = document(&lines, frontmatter, crlf);
            for last in 1..=lines_of(&text) {
                if let Err(e) = agrees(&text, last) {
                    prop_assert!(false, "{e}\n{text:?}");
                }
            }
        }
    }
}
