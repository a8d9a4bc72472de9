//! The block scanner: one pass over the lines that follows CommonMark's block
//! structure closely enough to know which lines are top-level headings and
//! where fenced code blocks start and end.
//!
//! It keeps the stack of open containers (block quotes and list items) and the
//! one open leaf block (paragraph, fenced code, indented code or HTML block),
//! and for each line does what the specification's parsing strategy does:
//! continue the open containers, try block starts, then either continue a
//! paragraph lazily or close what did not continue and add the line. Only
//! headings whose container is the document itself are reported.
//!
//! Inline content is never parsed, so the work per line is a few byte checks;
//! the whole scan is linear in the text's length.

use std::borrow::Cow;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};

use super::anchors::{Anchor, AnchorKind};
use super::block_starts::{
    atx_level, fence_closes, fence_open, is_spaces, is_thematic_break, list_item_start,
    setext_level,
};
use super::code_blocks::CodeBlock;
use super::cursor::Cursor;
use super::headings::{RawHeading, trim_spaces};
use super::html_anchors::scan_html_anchors;
use super::html_blocks::{HtmlKind, html_block_start};
use super::link_references::definition_lines;
use crate::text::lines::split_lines;

/// What the scanner found.
#[derive(Debug, Default)]
pub(crate) struct Scan<'t> {
    /// Top-level headings in document order.
    pub headings: Vec<RawHeading<'t>>,
    /// Fenced code blocks in document order, at any depth.
    pub code_blocks: Vec<CodeBlock>,
    /// `<a id>`/`<a name>` anchors outside code.
    pub html_anchors: Vec<Anchor>,
    /// Number of lines in the whole text.
    pub line_count: usize,
    /// The last line that is not blank (0 when there is none).
    pub last_nonblank: usize,
}

/// Scans `text` from line `first_line` on (the lines before it, frontmatter,
/// are skipped but counted).
pub(crate) fn scan(text: &str, first_line: usize) -> Scan<'_> {
    scan_with(Scanner::new(text), text, first_line)
}

/// [`scan`] with every line taken by the general path, without the
/// shortcuts for common lines, which must not change what a scan finds.
#[cfg(test)]
pub(crate) fn scan_general_only(text: &str, first_line: usize) -> Scan<'_> {
    let mut scanner = Scanner::new(text);
    scanner.general_only = true;
    scan_with(scanner, text, first_line)
}

fn scan_with<'t>(mut scanner: Scanner<'t>, text: &'t str, first_line: usize) -> Scan<'t> {
    let mut count = 0;
    for (i, line) in split_lines(text).enumerate() {
        count = i + 1;
        if count >= first_line {
            scanner.line(count, line);
        }
    }
    scanner.finish(count)
}

/// Scans like [`scan`], but only as far as needed to know every top-level
/// heading that starts at or before line `last()`: through that line, and on
/// while a paragraph is open, since an underline further down can still
/// make it a setext heading. The scan is online, so every heading it reports
/// is one [`scan`] reports too. `line_count` is the number of lines read.
///
/// `last` is asked again before every line, so another thread may name the
/// line once it knows it (until then it answers `usize::MAX`); the scan never
/// waits for it. HTML anchors are not collected.
pub(crate) fn scan_through(text: &str, first_line: usize, last: impl Fn() -> usize) -> Scan<'_> {
    SharedScan::alone(text, first_line).scan(last)
}

/// A scan like [`scan_through`] that a second thread may speed up once it
/// is free: it scans the far half of what is left while this one scans on
/// towards it ([`SharedScan::help`]).
///
/// The helper comes when its own work is done, so the split is chosen then,
/// not before: halfway between where this scan has got to and the end, so
/// that both finish together. It starts at a line just after an empty line,
/// where the state between lines is almost always the plain one (no open
/// container or block), and the helper starts from that state. When this
/// scan gets there, it keeps the helper's result only if its own state is
/// that plain one and it agrees on the last non-blank line; otherwise, or
/// if the helper never started, it scans on by itself. Either way the
/// result is what [`scan_through`] gives.
pub(crate) struct SharedScan<'t> {
    text: &'t str,
    first_line: usize,
    /// Whether a helper may come at all.
    shared: bool,
    /// Where the helper's part starts once it has chosen it (a line start
    /// just after an empty line); `usize::MAX` until then.
    split: AtomicUsize,
    /// How far this scan has got: a line start and its 0-based line index,
    /// told every [`PROGRESS_EVERY`] lines.
    progress: Mutex<(usize, usize)>,
    /// Set by whichever thread takes the helper's part: the helper, or this
    /// scan when it gets there first.
    taken: AtomicBool,
    /// The helper's scan of its part and the last non-blank line it
    /// assumed before it (`None` inside when the helper gave up).
    tail: Mutex<Option<Option<(Scan<'t>, usize)>>>,
    told: Condvar,
    /// How many times the scan used the helper's part, for the tests to see
    /// that it does (the result is the same either way).
    #[cfg(test)]
    pub(crate) tails_used: AtomicUsize,
}

/// Lines between two reports of a shared scan's progress: rare enough to
/// cost nothing, often enough that the helper's split is near the middle.
#[cfg(not(test))]
const PROGRESS_EVERY: usize = 1 << 12;

/// Every few lines in tests, whose texts are short, so that a helper coming
/// while the scan runs splits what the scan has left, not the whole text.
#[cfg(test)]
const PROGRESS_EVERY: usize = 3;

impl<'t> SharedScan<'t> {
    /// A scan of `text` from line `first_line` on, as for [`scan_through`],
    /// that a helper may share.
    pub(crate) fn new(text: &'t str, first_line: usize) -> Self {
        SharedScan {
            shared: true,
            ..SharedScan::alone(text, first_line)
        }
    }

    /// A scan no helper shares: [`scan_through`] itself.
    fn alone(text: &'t str, first_line: usize) -> Self {
        SharedScan {
            text,
            first_line,
            shared: false,
            split: AtomicUsize::new(usize::MAX),
            progress: Mutex::new((0, 0)),
            taken: AtomicBool::new(false),
            tail: Mutex::new(None),
            told: Condvar::new(),
            #[cfg(test)]
            tails_used: AtomicUsize::new(0),
        }
    }

    /// Scans through line `last()` as [`scan_through`] does, with the
    /// helper's part if it has scanned it.
    pub(crate) fn scan(&self, last: impl Fn() -> usize) -> Scan<'t> {
        let text = self.text;
        let mut scanner = Scanner::new(text);
        scanner.anchors = false;
        let mut count = 0;
        for (i, line) in split_lines(text).enumerate() {
            if i >= last() && i + 1 >= self.first_line && scanner.leaf != Leaf::Paragraph {
                break;
            }
            let at = line.as_ptr().addr() - text.as_ptr().addr();
            if self.shared
                && i % PROGRESS_EVERY == 0
                && let Ok(mut progress) = self.progress.lock()
            {
                *progress = (at, i);
            }
            // Taken here first, the helper's part is this scan's; taken by
            // the helper, it is waited for only if this scan is in the plain
            // state the helper assumed (else it would scan it anyway).
            if self.shared
                && self.split.load(Ordering::Relaxed) == at
                && self.taken.swap(true, Ordering::AcqRel)
                && scanner.containers.is_empty()
                && scanner.leaf == Leaf::None
                && let Some((tail, assumed)) = self.wait_for_tail()
                && scanner.last_nonblank == assumed
            {
                #[cfg(test)]
                self.tails_used.fetch_add(1, Ordering::Relaxed);
                let mut scan = scanner.finish(count);
                let offset = scan.code_blocks.len();
                scan.code_blocks
                    .extend(tail.code_blocks.into_iter().map(|mut block| {
                        block.index += offset;
                        block
                    }));
                scan.headings.extend(tail.headings);
                scan.line_count = tail.line_count;
                scan.last_nonblank = tail.last_nonblank;
                return scan;
            }
            count = i + 1;
            if count < self.first_line {
                continue;
            }
            scanner.line(count, line);
        }
        scanner.finish(count)
    }

    /// Scans the far half of what the scan has left, unless the scan got
    /// there first or will stop before it; meant for a second thread once it
    /// is free. Only the first call helps; later ones return at once.
    pub(crate) fn help(&self, last: impl Fn() -> usize) {
        if !self.shared {
            return;
        }
        let text = self.text;
        let bytes = text.as_bytes();
        let Ok((from, index)) = self.progress.lock().map(|progress| *progress) else {
            return;
        };
        let middle = from + (bytes.len() - from) / 2;
        let Some(split) = [&b"\n\n"[..], b"\n\r\n"].iter().find_map(|empty| {
            memchr::memmem::find(&bytes[middle..], empty).map(|at| middle + at + empty.len())
        }) else {
            return;
        };
        if split >= bytes.len() {
            return;
        }
        // The line the part starts on, 1-based.
        let line = 1 + index + memchr::memchr_iter(b'\n', &bytes[from..split]).count();
        if line <= self.first_line || last() < line - 1 {
            return;
        }
        // Only the first helper chooses the split: a second one must not
        // name a place the scan would wait at with nobody to tell it.
        if self
            .split
            .compare_exchange(usize::MAX, split, Ordering::AcqRel, Ordering::Relaxed)
            .is_err()
            || self.taken.swap(true, Ordering::AcqRel)
        {
            return;
        }
        // Told even if the scan below panics, so the other never waits for
        // nothing.
        let mut told = Tell(self, None);
        // The scan never sees the lines before its first (frontmatter).
        let assumed = Some(last_nonblank_before(bytes, split, line - 1))
            .filter(|&line| line >= self.first_line)
            .unwrap_or(0);
        let mut scanner = Scanner::new(text);
        scanner.anchors = false;
        scanner.last_nonblank = assumed;
        let mut count = line - 1;
        for (k, piece) in split_lines(&text[split..]).enumerate() {
            let i = line - 1 + k;
            if i >= last() && scanner.leaf != Leaf::Paragraph {
                break;
            }
            count = i + 1;
            scanner.line(count, piece);
        }
        told.1 = Some((scanner.finish(count), assumed));
    }

    /// The helper's result, once it has one.
    fn wait_for_tail(&self) -> Option<(Scan<'t>, usize)> {
        let mut tail = self.tail.lock().ok()?;
        while tail.is_none() {
            tail = self.told.wait(tail).ok()?;
        }
        tail.take().flatten()
    }
}

/// Hands the helper's result, or its absence, to the scan waiting for it.
struct Tell<'a, 't>(&'a SharedScan<'t>, Option<(Scan<'t>, usize)>);

impl Drop for Tell<'_, '_> {
    fn drop(&mut self) {
        if let Ok(mut tail) = self.0.tail.lock() {
            *tail = Some(self.1.take());
        }
        self.0.told.notify_all();
    }
}

/// The number of the last line that is not blank among those before byte
/// `end` (a line start), the line ending there being line `line`; 0 if
/// there is none.
fn last_nonblank_before(bytes: &[u8], mut end: usize, mut line: usize) -> usize {
    while end > 0 && line > 0 {
        let start = memchr::memrchr(b'\n', &bytes[..end - 1]).map_or(0, |at| at + 1);
        let text = &bytes[start..end - 1];
        if !is_spaces(text.strip_suffix(b"\r").unwrap_or(text)) {
            return line;
        }
        end = start;
        line -= 1;
    }
    0
}

/// An open container block.
#[derive(Debug, Clone, Copy)]
enum Container {
    /// A block quote: each line must start with `>` (or continue lazily).
    Quote,
    /// A list item: lines must be indented by `indent` columns (blank lines
    /// continue it once it has content).
    Item { indent: usize, has_content: bool },
}

/// The open leaf block, inside the innermost open container.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Leaf {
    /// No leaf is open.
    None,
    /// A paragraph, whose lines are kept in case an underline follows.
    Paragraph,
    /// Fenced code opened with `len` times `fence_char`; `block` is its
    /// position in the output.
    Fence {
        fence_char: u8,
        len: usize,
        block: usize,
    },
    /// Indented code.
    IndentedCode,
    /// An HTML block of the given kind.
    Html(HtmlKind),
}

/// The scanner's state between lines.
#[derive(Debug)]
struct Scanner<'t> {
    /// Open containers, outermost first.
    containers: Vec<Container>,
    /// The open leaf block of the innermost container.
    leaf: Leaf,
    /// Lines of the open paragraph, each from its first non-space byte.
    paragraph: Vec<(usize, &'t str)>,
    /// The last non-blank line before the open paragraph.
    paragraph_nonblank_before: usize,
    /// The last non-blank line so far.
    last_nonblank: usize,
    /// What was found so far.
    out: Scan<'t>,
    /// The whole text, to find where a line sits in it.
    text: &'t str,
    /// Offset of the next `<` at or after the last one looked for: most lines
    /// have none, and one search over the text is cheaper than one per line.
    next_angle: usize,
    /// Whether HTML anchors are collected.
    anchors: bool,
    /// Whether every line takes the general path, to test the shortcuts
    /// against it.
    #[cfg(test)]
    general_only: bool,
}

impl<'t> Scanner<'t> {
    /// A scanner for `text`, at its start.
    fn new(text: &'t str) -> Self {
        Scanner {
            text,
            next_angle: 0,
            anchors: true,
            #[cfg(test)]
            general_only: false,
            containers: Vec::new(),
            leaf: Leaf::None,
            paragraph: Vec::new(),
            paragraph_nonblank_before: 0,
            last_nonblank: 0,
            out: Scan::default(),
        }
    }

    /// Whether `line`, a slice of the text, contains a `<`.
    fn has_angle_bracket(&mut self, line: &str) -> bool {
        let start = line.as_ptr().addr() - self.text.as_ptr().addr();
        if self.next_angle <= start {
            self.next_angle = memchr::memchr(b'<', &self.text.as_bytes()[start..])
                .map_or(self.text.len(), |at| start + at);
        }
        self.next_angle < start + line.len()
    }
}

/// What became of a line once block starts were tried.
enum LineEnd {
    /// The line belongs to a block already handled (heading, fence, …).
    Done { markup: bool },
    /// The line is paragraph text, or blank.
    Text,
}

impl<'t> Scanner<'t> {
    /// Processes line `n`.
    fn line(&mut self, n: usize, line: &'t str) {
        let whole_blank = is_spaces(line.as_bytes());
        let markup = self.structure(n, line);
        if self.anchors && markup && !whole_blank && self.has_angle_bracket(line) {
            let anchors = &mut self.out.html_anchors;
            scan_html_anchors(line, |id| {
                anchors.push(Anchor {
                    id: id.to_string(),
                    line: n,
                    kind: AnchorKind::Html,
                })
            });
        }
        if !whole_blank {
            self.last_nonblank = n;
        }
    }

    /// Updates the block structure with line `n`; tells whether the line may
    /// hold HTML anchors (it is not code, a comment or raw HTML).
    fn structure(&mut self, n: usize, line: &'t str) -> bool {
        if self.containers.is_empty()
            && let Some(result) = self.common_line(n, line)
        {
            return result;
        }
        let mut cursor = Cursor::new(line);

        // 1. Which open containers does the line continue?
        let mut matched = 0;
        while matched < self.containers.len() {
            cursor.find_next_nonspace();
            let continues = match &self.containers[matched] {
                Container::Quote => {
                    let quote = !cursor.indented() && cursor.peek_nonspace() == Some(b'>');
                    if quote {
                        consume_quote_marker(&mut cursor);
                    }
                    quote
                }
                &Container::Item {
                    indent,
                    has_content,
                } => {
                    if cursor.blank() {
                        cursor.advance_to_nonspace();
                        has_content
                    } else if cursor.indent() >= indent {
                        cursor.advance_columns(indent);
                        true
                    } else {
                        false
                    }
                }
            };
            if !continues {
                break;
            }
            matched += 1;
        }
        cursor.find_next_nonspace();
        let all_matched = matched == self.containers.len();

        // 2. Does the open leaf continue? (Code and HTML take the line whole.)
        let mut all_closed = all_matched;
        let mut in_paragraph = false;
        if all_matched {
            match self.leaf {
                Leaf::Fence {
                    fence_char,
                    len,
                    block,
                } => {
                    if cursor.indent() <= 3 && fence_closes(cursor.rest(), fence_char, len) {
                        let code = &mut self.out.code_blocks[block];
                        code.end_line = n;
                        code.closed = true;
                        self.leaf = Leaf::None;
                    }
                    return false;
                }
                Leaf::IndentedCode => {
                    if cursor.indented() || cursor.blank() {
                        return false;
                    }
                    all_closed = false;
                }
                Leaf::Html(kind) => {
                    if cursor.blank() && kind.ends_at_blank_line() {
                        all_closed = false;
                    } else {
                        if kind.ends_on(&line.as_bytes()[cursor.offset()..]) {
                            self.leaf = Leaf::None;
                        }
                        return kind.holds_markup();
                    }
                }
                Leaf::Paragraph => {
                    if cursor.blank() {
                        all_closed = false;
                    } else {
                        in_paragraph = true;
                    }
                }
                Leaf::None => {}
            }
        }

        // 3. Block starts, and what is left of the line.
        let mut depth = matched;
        let mut started = false;
        let end = self.block_starts(n, line, &mut cursor, &mut depth, &mut started, in_paragraph);
        match end {
            LineEnd::Done { markup } => markup,
            LineEnd::Text => {
                let blank = cursor.blank();
                let rest = &line[cursor.next_nonspace_offset()..];
                let lazy = !started && !all_closed && !blank && self.leaf == Leaf::Paragraph;
                if lazy {
                    self.paragraph.push((n, rest));
                    return true;
                }
                if !all_closed && !started {
                    self.close_beyond(depth, n - 1);
                }
                if self.leaf == Leaf::Paragraph {
                    self.paragraph.push((n, rest));
                } else if !blank {
                    self.open_block(depth, n);
                    self.leaf = Leaf::Paragraph;
                    self.paragraph.clear();
                    self.paragraph.push((n, rest));
                    self.paragraph_nonblank_before = self.last_nonblank;
                }
                true
            }
        }
    }

    /// The most common lines outside any container, handled without the
    /// general machinery (with the same outcome): an empty line that ends a
    /// paragraph or sits between blocks, a line of fenced code that cannot
    /// be its closing fence, and a line of paragraph text that cannot start
    /// any other block. `None` for every other line.
    fn common_line(&mut self, n: usize, line: &'t str) -> Option<bool> {
        #[cfg(test)]
        if self.general_only {
            return None;
        }
        let Some(&first) = line.as_bytes().first() else {
            // An HTML block's end depends on its kind: that takes the
            // general path.
            return match self.leaf {
                Leaf::None => Some(true),
                Leaf::Fence { .. } | Leaf::IndentedCode => Some(false),
                Leaf::Paragraph => {
                    self.close_beyond(0, n - 1);
                    Some(true)
                }
                _ => None,
            };
        };
        if first == b' ' || first == b'\t' {
            return None;
        }
        match self.leaf {
            Leaf::Fence { fence_char, .. } if first != fence_char => Some(false),
            Leaf::Paragraph if !may_start_block(first) => {
                self.paragraph.push((n, line));
                Some(true)
            }
            Leaf::None if !may_start_block(first) => {
                self.paragraph.clear();
                self.paragraph.push((n, line));
                self.paragraph_nonblank_before = self.last_nonblank;
                self.leaf = Leaf::Paragraph;
                Some(true)
            }
            _ => None,
        }
    }

    /// Tries the block starts in CommonMark's order, opening containers as it
    /// goes, until a leaf block starts or nothing more does.
    fn block_starts(
        &mut self,
        n: usize,
        line: &'t str,
        cursor: &mut Cursor<'t>,
        depth: &mut usize,
        started: &mut bool,
        mut in_paragraph: bool,
    ) -> LineEnd {
        loop {
            cursor.find_next_nonspace();
            let indented = cursor.indented();
            let Some(first) = cursor.peek_nonspace() else {
                return LineEnd::Text;
            };
            if !indented && !may_start_block(first) {
                return LineEnd::Text;
            }
            let rest = cursor.rest();
            if !indented {
                if first == b'>' {
                    consume_quote_marker(cursor);
                    self.open_container(*depth, n, Container::Quote);
                    *depth += 1;
                    *started = true;
                    in_paragraph = false;
                    continue;
                }
                if let Some(level) = atx_level(rest) {
                    self.open_block(*depth, n);
                    *started = true;
                    if *depth == 0 {
                        let after_marker = cursor.next_nonspace_offset() + usize::from(level);
                        self.out.headings.push(RawHeading {
                            level,
                            raw: Cow::Borrowed(&line[after_marker..]),
                            line: n,
                            last_line: n,
                            setext: false,
                            nonblank_before: self.last_nonblank,
                        });
                    }
                    return LineEnd::Done { markup: true };
                }
                if let Some((fence_char, len)) = fence_open(rest) {
                    self.open_block(*depth, n);
                    *started = true;
                    let start = cursor.next_nonspace_offset();
                    let info = trim_spaces(&line[start + len..]);
                    let block = self.out.code_blocks.len();
                    self.out.code_blocks.push(CodeBlock {
                        index: block,
                        language: info.split_whitespace().next().map(str::to_string),
                        start_line: n,
                        end_line: n,
                        closed: false,
                        fence: line[start..start + len].to_string(),
                        nested: *depth > 0,
                    });
                    self.leaf = Leaf::Fence {
                        fence_char,
                        len,
                        block,
                    };
                    return LineEnd::Done { markup: false };
                }
                if first == b'<'
                    && let Some(kind) = html_block_start(rest, self.leaf == Leaf::Paragraph)
                {
                    self.open_block(*depth, n);
                    *started = true;
                    let open = !kind.ends_on(&line.as_bytes()[cursor.offset()..]);
                    self.leaf = if open { Leaf::Html(kind) } else { Leaf::None };
                    return LineEnd::Done {
                        markup: kind.holds_markup(),
                    };
                }
                if in_paragraph
                    && let Some(level) = setext_level(rest)
                    && self.setext_heading(n, level, *depth)
                {
                    *started = true;
                    return LineEnd::Done { markup: false };
                }
                if is_thematic_break(rest) {
                    self.open_block(*depth, n);
                    *started = true;
                    return LineEnd::Done { markup: false };
                }
            }
            // On failure the cursor is left where it was.
            if let Some(indent) = list_item_start(cursor, in_paragraph) {
                self.open_container(
                    *depth,
                    n,
                    Container::Item {
                        indent,
                        has_content: false,
                    },
                );
                *depth += 1;
                *started = true;
                in_paragraph = false;
                continue;
            }
            if indented && self.leaf != Leaf::Paragraph && !cursor.blank() {
                self.open_block(*depth, n);
                *started = true;
                self.leaf = Leaf::IndentedCode;
                return LineEnd::Done { markup: false };
            }
            return LineEnd::Text;
        }
    }

    /// Turns the open paragraph into a setext heading underlined on line `n`.
    /// Returns false when the paragraph holds nothing but link reference
    /// definitions, which cannot be a heading's text.
    fn setext_heading(&mut self, n: usize, level: u8, depth: usize) -> bool {
        let definitions = if self.paragraph[0].1.starts_with('[') {
            let texts: Vec<&str> = self.paragraph.iter().map(|(_, text)| *text).collect();
            definition_lines(&texts)
        } else {
            0
        };
        if definitions == self.paragraph.len() {
            return false;
        }
        if depth == 0 {
            let lines = &self.paragraph[definitions..];
            let first = lines[0].0;
            let mut raw = String::new();
            for (i, (_, text)) in lines.iter().enumerate() {
                if i > 0 {
                    raw.push(' ');
                }
                raw.push_str(trim_spaces(text));
            }
            let nonblank_before = if definitions > 0 {
                first - 1
            } else {
                self.paragraph_nonblank_before
            };
            self.out.headings.push(RawHeading {
                level,
                raw: Cow::Owned(raw),
                line: first,
                last_line: n,
                setext: true,
                nonblank_before,
            });
        }
        self.paragraph.clear();
        self.leaf = Leaf::None;
        true
    }

    /// Closes the open leaf; its last line is `last_line`.
    fn close_leaf(&mut self, last_line: usize) {
        if let Leaf::Fence { block, .. } = self.leaf {
            self.out.code_blocks[block].end_line = last_line;
        }
        self.paragraph.clear();
        self.leaf = Leaf::None;
    }

    /// Closes the open leaf and every container deeper than `depth`.
    fn close_beyond(&mut self, depth: usize, last_line: usize) {
        self.close_leaf(last_line);
        self.containers.truncate(depth);
    }

    /// Prepares for a new block at `depth` on line `n`: whatever was open there
    /// or deeper is closed, and a list item receiving it now has content.
    fn open_block(&mut self, depth: usize, n: usize) {
        self.close_beyond(depth, n - 1);
        if let Some(Container::Item { has_content, .. }) = self.containers.last_mut() {
            *has_content = true;
        }
    }

    /// Opens a container at `depth` on line `n`.
    fn open_container(&mut self, depth: usize, n: usize, container: Container) {
        self.open_block(depth, n);
        self.containers.push(container);
    }

    /// Closes everything at the end of the text, which has `line_count` lines.
    fn finish(mut self, line_count: usize) -> Scan<'t> {
        self.close_leaf(line_count);
        self.out.line_count = line_count;
        self.out.last_nonblank = self.last_nonblank;
        self.out
    }
}

/// Consumes a `>` marker and the one optional space after it.
fn consume_quote_marker(cursor: &mut Cursor<'_>) {
    cursor.advance_to_nonspace();
    cursor.advance_bytes(1);
    if matches!(cursor.peek(), Some(b' ' | b'\t')) {
        cursor.advance_columns(1);
    }
}

/// Whether a line whose first non-space byte is `first` may start a block
/// other than a paragraph; most lines start with a letter and skip all checks.
fn may_start_block(first: u8) -> bool {
    matches!(
        first,
        b'#' | b'`' | b'~' | b'*' | b'+' | b'_' | b'=' | b'<' | b'>' | b'-' | b'0'..=b'9'
    )
}
