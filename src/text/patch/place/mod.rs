//! Placing the hunks of one file in its text, and the text they make.
//!
//! A hunk is found by its old lines (context and removed), never by its line
//! numbers alone:
//!
//! 1. Hunks are placed in patch order, each below the one before it.
//! 2. Codex `@@ text` lines narrow the place first: each names a line (equal
//!    once trimmed, or its start up to a word boundary: `@@ def f` names
//!    `def f(self):`), and the hunk is looked for in that line and its block
//!    (the deeper-indented lines below it, with a closing bracket; a Markdown
//!    heading's section). Only where the named lines open no block (a
//!    decorator, a label) is it looked for below the first of them, as Codex
//!    itself does; a hunk its block does not hold is refused, never looked
//!    for further down.
//! 3. Where the old lines occur whole and exactly (up to line endings), they
//!    are the place: one occurrence is applied, several are ambiguous. Then
//!    the same with runs of whitespace ignored: one such place is applied
//!    when most of the hunk's lines have the file's indentation there (its
//!    added lines then go in as written). Where neither finds them,
//!    `edit_code`'s tolerant matcher ([`crate::text::fuzzy`]) looks for them
//!    in the same stretch, with all its refusals.
//! 4. An ambiguous hunk of a unified diff is placed by the line numbers of
//!    all the hunks, and only where no miscounted hunk could move it: a
//!    reading gives each hunk one of its places, in order, with all of them
//!    but at most one at one common distance from their numbers (a hunk
//!    placed by its text counts with its place); the ambiguous hunks are
//!    placed when every such reading places them alike (see [`pin`]). Two
//!    copies of a hunk between the same neighbours are therefore refused
//!    whatever its numbers say: the numbers are the only evidence, and a
//!    caller who miscounted them would have the other copy edited. Only
//!    distances between hunks count, so a diff whose numbers are all off by
//!    the same amount lands the same, and a lone ambiguous hunk is refused.
//!    Codex hunks have no numbers: an ambiguous one is refused (its `@@`
//!    lines should name the place).
//!
//! The new text keeps every byte outside the hunks: context lines keep the
//! file's bytes, added lines take the line ending of the lines around them
//! (a line that carries its own `\r` keeps it). A file without a final line
//! break keeps lacking one unless the patch says otherwise (`\ No newline at
//! end of file` on one side only).
//!
//! ```
//! use mcp_server_text::text::patch::{parse, place::apply};
//!
//! let file = "def f():\r\n    return 1\r\n\r\ndef g():\r\n    return 1\r\n";
//! let patch = parse("*** Begin Patch\n*** Update File: a.py\n@@ def g():\n-    return 1\n+    return 2\n*** End Patch").unwrap();
//! let applied = apply(file, &patch.files[0].hunks).unwrap();
//! assert_eq!(applied.text, "def f():\r\n    return 1\r\n\r\ndef g():\r\n    return 2\r\n");
//! assert_eq!((applied.landings[0].new.start, applied.landings[0].new.end), (5, 5));
//! ```

mod anchors;
mod matching;
mod pin;
mod wording;

use std::borrow::Cow;
use std::ops::Range;

use super::Hunk;
use crate::text::edit::LineSpan;
use crate::text::fuzzy::MatchKind;
use crate::text::lines::{Eol, LineIndex};
use pin::places_by_numbers;

/// Where a hunk landed.
#[derive(Debug, Clone, PartialEq)]
pub struct Landing {
    /// The hunk's index in the file's hunks.
    pub hunk: usize,
    /// The lines it replaced, numbered in the old text (empty, `n..n-1`, for
    /// an insertion before line `n`).
    pub old: LineSpan,
    /// Where its new lines are in the new text (empty where it only removed).
    pub new: LineSpan,
    /// How its old lines matched the file.
    pub kind: MatchKind,
    /// Whether the line numbers chose among several places (see the
    /// module's doc, step 4).
    pub by_line_numbers: bool,
}

/// The new text of a file and where each hunk landed.
#[derive(Debug, Clone, PartialEq)]
pub struct Applied {
    /// The text after every hunk.
    pub text: String,
    /// One landing per hunk, in order.
    pub landings: Vec<Landing>,
}

/// Why a hunk cannot be placed.
#[derive(Debug, Clone, PartialEq)]
pub enum Why {
    /// Its old lines are nowhere in the file; `best` is the closest block.
    NotFound {
        /// The closest block and its score (0–100), if any resembles them.
        best: Option<(LineSpan, f64)>,
        /// Unified diff from the hunk's old lines to that block.
        diff: String,
    },
    /// Its old lines fit several places equally well.
    Ambiguous {
        /// Every place, in file lines.
        places: Vec<LineSpan>,
    },
    /// No line reads like one of its `@@` lines.
    AnchorNotFound {
        /// The `@@` text.
        anchor: String,
    },
    /// It only adds lines and nothing says where (a unified hunk without
    /// context, into a file that is not empty).
    NoContext,
    /// It must end the file (`*** End of File`, or no final line break on
    /// its old side), and its lines are elsewhere.
    NotAtEnd {
        /// Where they are.
        lines: LineSpan,
    },
    /// The tolerant matcher found a place but refused to edit there.
    Refused {
        /// What it said, with file line numbers.
        message: String,
    },
}

/// A hunk that cannot be placed, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct HunkRefusal {
    /// The hunk's index in the file's hunks.
    pub hunk: usize,
    /// Why.
    pub why: Why,
}

/// Applies `hunks` to `text`, or says which hunk cannot be placed and why.
pub fn apply(text: &str, hunks: &[Hunk]) -> Result<Applied, HunkRefusal> {
    let had_final_newline = text.is_empty() || text.ends_with('\n');
    // Matching works on whole lines: a last line without a break gets one
    // for the time being.
    let vtext: Cow<str> = if had_final_newline {
        Cow::Borrowed(text)
    } else {
        Cow::Owned(format!("{text}{}", last_ending(text)))
    };
    let file = File::new(&vtext);
    let mut placed: Vec<Option<Placement>> = vec![None; hunks.len()];
    let mut pending: Vec<(usize, Vec<LineSpan>)> = Vec::new();
    let mut floor = 1;
    for (i, hunk) in hunks.iter().enumerate() {
        match file.place(hunk, floor) {
            Ok(p) => {
                floor = p.after();
                placed[i] = Some(p);
            }
            Err(Why::Ambiguous { places }) if hunk.old_start.is_some() => {
                pending.push((i, places));
            }
            Err(why) => return Err(HunkRefusal { hunk: i, why }),
        }
    }
    // The ambiguous hunks, by the line numbers of all the hunks.
    if !pending.is_empty() {
        let refuse = |i: usize| {
            let places = pending
                .iter()
                .find(|(j, _)| *j == i)
                .map(|(_, places)| places.clone())
                .unwrap_or_default();
            HunkRefusal {
                hunk: i,
                why: Why::Ambiguous { places },
            }
        };
        for (i, span) in places_by_numbers(hunks, &placed, &pending).map_err(refuse)? {
            match file.find(&hunks[i], span.start, span.end) {
                Found::Placed(p) if p.old == span => {
                    placed[i] = Some(Placement {
                        by_line_numbers: true,
                        ..p
                    });
                }
                _ => return Err(refuse(i)),
            }
        }
    }
    let placements: Vec<Placement> = placed.into_iter().map(|p| p.expect("placed")).collect();
    // Each hunk below the one before it, whatever placed them.
    for (k, pair) in placements.windows(2).enumerate() {
        if pair[1].old.start < pair[0].after() {
            return Err(HunkRefusal {
                hunk: k + 1,
                why: Why::Ambiguous {
                    places: vec![pair[1].old],
                },
            });
        }
    }
    let mut out = file.assemble(&placements);
    let new_missing = hunks.iter().any(|h| h.new_without_newline);
    let old_missing = hunks.iter().any(|h| h.old_without_newline);
    let lacks_final_newline = if new_missing || old_missing {
        new_missing
    } else {
        !had_final_newline
    };
    if lacks_final_newline {
        let ending = Eol::ending(&out.text).as_str().len();
        out.text.truncate(out.text.len() - ending);
    }
    Ok(out)
}

/// The line ending a missing final one would have: the text's last one.
fn last_ending(text: &str) -> &'static str {
    match text.rfind('\n') {
        Some(at) if at > 0 && text.as_bytes()[at - 1] == b'\r' => "\r\n",
        _ => "\n",
    }
}

/// A hunk's place: the old lines it replaces and the bytes that go there.
#[derive(Debug, Clone, PartialEq)]
struct Placement {
    /// Old lines replaced; `start` with `end = start - 1` for an insertion.
    old: LineSpan,
    /// Bytes of the text replaced.
    range: Range<usize>,
    /// What goes there.
    text: String,
    kind: MatchKind,
    by_line_numbers: bool,
}

impl Placement {
    /// The first line the next hunk may use.
    fn after(&self) -> usize {
        self.old.end + 1
    }
}

/// What looking for a hunk in one stretch of lines found.
enum Found {
    Placed(Placement),
    Ambiguous(Vec<LineSpan>),
    Missing(Why),
}

/// The text being patched, with its line index.
struct File<'t> {
    text: &'t str,
    index: LineIndex,
}

impl<'t> File<'t> {
    fn new(text: &'t str) -> File<'t> {
        File {
            text,
            index: LineIndex::new(text),
        }
    }

    fn count(&self) -> usize {
        self.index.len()
    }

    fn line(&self, n: usize) -> &'t str {
        self.index.text(self.text, n)
    }

    /// Places `hunk` at or below line `floor`.
    fn place(&self, hunk: &Hunk, floor: usize) -> Result<Placement, Why> {
        let count = self.count();
        if !hunk.has_old_lines() {
            return self.insertion(hunk, floor);
        }
        let regions = if hunk.anchors.is_empty() {
            vec![(floor, count)]
        } else {
            self.scopes(&hunk.anchors, floor)?
        };
        let mut placements: Vec<Placement> = Vec::new();
        let mut places: Vec<LineSpan> = Vec::new();
        let mut missing: Option<Why> = None;
        for &(lo, hi) in &regions {
            match self.find(hunk, lo, hi) {
                Found::Placed(p) => {
                    if !placements.iter().any(|q| q.old == p.old) {
                        places.push(p.old);
                        placements.push(p);
                    }
                }
                Found::Ambiguous(more) => places.extend(more),
                Found::Missing(why) => {
                    missing.get_or_insert(why);
                }
            }
        }
        places.sort_by_key(|p| (p.start, p.end));
        places.dedup();
        match (placements.len(), places.len()) {
            (1, 1) => Ok(placements.pop().expect("one")),
            (_, 0) if !hunk.anchors.is_empty() && regions.iter().all(|&(n, end)| end <= n) => {
                // The `@@` lines open no blocks (a decorator, a label): below
                // the first line that reads like each, as Codex reads them.
                match self.find(hunk, self.below_anchors(&hunk.anchors, floor), count) {
                    Found::Placed(p) => Ok(p),
                    Found::Ambiguous(places) => Err(Why::Ambiguous { places }),
                    Found::Missing(why) => Err(why),
                }
            }
            (_, 0) => Err(missing.unwrap_or(Why::NotFound {
                best: None,
                diff: String::new(),
            })),
            _ => Err(Why::Ambiguous { places }),
        }
    }

    /// A hunk with no old lines: after its last `@@` line, at the end of
    /// the file (Codex), or into an empty file.
    fn insertion(&self, hunk: &Hunk, floor: usize) -> Result<Placement, Why> {
        let count = self.count();
        let at = if !hunk.anchors.is_empty() {
            let scopes = self.scopes(&hunk.anchors, floor)?;
            match scopes.as_slice() {
                [(anchor, _)] => anchor + 1,
                _ => {
                    return Err(Why::Ambiguous {
                        places: scopes.iter().map(|&(n, _)| LineSpan::new(n, n)).collect(),
                    });
                }
            }
        } else if hunk.old_start.is_none() || count == 0 {
            count + 1
        } else {
            return Err(Why::NoContext);
        };
        if at < floor {
            return Err(Why::NoContext);
        }
        let eol = if at > 1 {
            self.ending(at - 1)
        } else if count > 0 {
            self.ending(1)
        } else {
            "\n"
        };
        let mut text = String::new();
        for line in hunk.new_lines() {
            push_line(&mut text, line, eol);
        }
        let offset = self.index.start(at);
        Ok(Placement {
            old: LineSpan::new(at, at - 1),
            range: offset..offset,
            text,
            kind: MatchKind::Exact,
            by_line_numbers: false,
        })
    }

    /// The line ending of line `n` (`\n` where it has none).
    fn ending(&self, n: usize) -> &'static str {
        match self.index.eol(self.text, n) {
            crate::text::lines::Eol::Crlf => "\r\n",
            _ => "\n",
        }
    }

    /// The new text from the placements, in order.
    fn assemble(&self, placements: &[Placement]) -> Applied {
        let mut text = String::with_capacity(self.text.len());
        let mut landings = Vec::with_capacity(placements.len());
        let mut lines = 0usize;
        let mut at = 0usize;
        let mut order: Vec<usize> = (0..placements.len()).collect();
        order.sort_by_key(|&k| (placements[k].range.start, placements[k].range.end));
        let mut spans = vec![LineSpan::new(1, 0); placements.len()];
        for &k in &order {
            let p = &placements[k];
            let kept = &self.text[at..p.range.start];
            lines += memchr::memchr_iter(b'\n', kept.as_bytes()).count();
            text.push_str(kept);
            let added = memchr::memchr_iter(b'\n', p.text.as_bytes()).count();
            spans[k] = LineSpan::new(lines + 1, lines + added);
            lines += added;
            text.push_str(&p.text);
            at = p.range.end;
        }
        text.push_str(&self.text[at..]);
        for (k, p) in placements.iter().enumerate() {
            landings.push(Landing {
                hunk: k,
                old: p.old,
                new: spans[k],
                kind: p.kind,
                by_line_numbers: p.by_line_numbers,
            });
        }
        Applied { text, landings }
    }
}

/// `line` with one trailing `\r` taken off.
fn strip_cr(line: &str) -> &str {
    line.strip_suffix('\r').unwrap_or(line)
}

/// Appends `line` with `eol`; a line that ends in `\r` has its ending's
/// first half already.
fn push_line(out: &mut String, line: &str, eol: &str) {
    if line.ends_with('\r') {
        out.push_str(line);
        out.push('\n');
    } else {
        out.push_str(line);
        out.push_str(eol);
    }
}

/// Lines joined, each with a `\n` after it.
fn joined<'a>(lines: impl Iterator<Item = &'a str>) -> String {
    let mut out = String::new();
    for line in lines {
        out.push_str(line);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests;
