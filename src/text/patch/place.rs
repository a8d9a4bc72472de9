//! Placing the hunks of one file in its text, and the text they make.
//!
//! A hunk is found by its old lines (context and removed), never by its line
//! numbers alone:
//!
//! 1. Hunks are placed in patch order, each below the one before it.
//! 2. Codex `@@ text` lines narrow the place first: each names a line (equal
//!    once trimmed, or its start up to a word boundary: `@@ def f` names
//!    `def f(self):`), and the hunk is looked for inside that line's block
//!    (the deeper-indented lines below it, with a closing bracket; a Markdown
//!    heading's section). When no block holds it, below the first such line,
//!    as Codex itself does.
//! 3. Where the old lines occur whole and exactly (up to line endings), they
//!    are the place: one occurrence is applied, several are ambiguous. Then
//!    the same with runs of whitespace ignored: one such place is applied
//!    when most of the hunk's lines have the file's indentation there (its
//!    added lines then go in as written). Where neither finds them,
//!    `edit_code`'s tolerant matcher ([`crate::text::fuzzy`]) looks for them
//!    in the same stretch, with all its refusals.
//! 4. An ambiguous hunk of a unified diff is placed only when the hunks
//!    around it pin its place: the nearest placed hunks before and after it
//!    (one, at the ends) sit at the same distance from their header's line
//!    numbers, and exactly one of its places sits at that distance from its
//!    own. When no hunk of the file was placed by its text, one shift of the
//!    line numbers that gives every ambiguous hunk exactly one place pins
//!    them all, if only one shift does. In a diff made from this file that
//!    is where they belong; a wrong pick would need the file to have changed
//!    between those hunks and a copy of the hunk's text to stand exactly
//!    where the shifted one was. Line numbers alone never place a hunk, so a
//!    diff whose numbers are all off by the same amount lands the same, and a
//!    lone ambiguous hunk is refused. Codex hunks have no numbers: an
//!    ambiguous one is refused (its `@@` lines should name the place).
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

use std::borrow::Cow;
use std::fmt;
use std::ops::Range;

use super::{Hunk, LineKind};
use crate::text::diff::unified_diff_numbered;
use crate::text::edit::LineSpan;
use crate::text::fuzzy::{self, EditRequest, LineRange, MatchKind, Refusal};
use crate::text::lines::LineIndex;

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
    /// Whether the hunks around it chose among several places (see the
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

impl fmt::Display for Why {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Why::NotFound {
                best: Some((lines, score)),
                diff,
            } => write!(
                f,
                "its old lines (context and removed) are not in the file; the closest block is lines {}-{} (score {score:.1}). The diff goes from the hunk's old lines to those lines:\n{diff}",
                lines.start, lines.end
            ),
            Why::NotFound { best: None, .. } => f.write_str(
                "its old lines (context and removed) are not in the file, and nothing in it resembles them",
            ),
            Why::Ambiguous { places } => {
                let listed: Vec<String> = places
                    .iter()
                    .take(20)
                    .map(|p| format!("{}-{}", p.start, p.end))
                    .collect();
                write!(
                    f,
                    "its old lines fit {} places equally well (lines {}{}), and nothing in the patch tells them apart",
                    places.len(),
                    listed.join(", "),
                    if places.len() > 20 { ", …" } else { "" }
                )
            }
            Why::AnchorNotFound { anchor } => write!(
                f,
                "no line of the file (below the hunk before it) reads like its '@@ {}' line",
                crate::text::excerpt::brief(anchor)
            ),
            Why::NoContext => f.write_str(
                "it only adds lines and has no context lines, so only its line numbers say where, and they are never enough",
            ),
            Why::NotAtEnd { lines } => write!(
                f,
                "it must end the file, but its old lines are at lines {}-{}, not at the end",
                lines.start, lines.end
            ),
            Why::Refused { message } => f.write_str(message),
        }
    }
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
    // With no hunk placed by its text alone, the ambiguous ones may still
    // pin each other: by the one shift of their line numbers that gives each
    // of them exactly one place.
    let common = placed
        .iter()
        .all(Option::is_none)
        .then(|| common_offset(hunks, &pending))
        .flatten();
    for (i, places) in pending {
        let p = file
            .pin(hunks, &placed, i, &places, common)
            .ok_or(HunkRefusal {
                hunk: i,
                why: Why::Ambiguous { places },
            })?;
        placed[i] = Some(p);
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
        if out.text.ends_with("\r\n") {
            out.text.truncate(out.text.len() - 2);
        } else if out.text.ends_with('\n') {
            out.text.pop();
        }
    }
    Ok(out)
}

/// The one shift of their line numbers that gives every hunk of `pending`
/// exactly one of its places, if one does.
fn common_offset(hunks: &[Hunk], pending: &[(usize, Vec<LineSpan>)]) -> Option<isize> {
    let (first, places) = pending.first()?;
    let start = hunks[*first].old_start? as isize;
    let mut fitting = places
        .iter()
        .map(|p| p.start as isize - start)
        .filter(|&delta| {
            pending.iter().all(|(i, places)| {
                hunks[*i].old_start.is_some_and(|s| {
                    places
                        .iter()
                        .filter(|p| p.start as isize == s as isize + delta)
                        .count()
                        == 1
                })
            })
        });
    let delta = fitting.next()?;
    fitting.next().is_none().then_some(delta)
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

/// How a hunk's old lines are indented where they match up to whitespace.
enum Indentation {
    /// Most have the file's indentation: its lines are in the file's.
    Agrees,
    /// All are indented otherwise by the same amount (two lines or more):
    /// the hunk was written with another indentation.
    Shifted,
    /// Neither: how its added lines should be indented is unclear.
    Unclear,
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
            (_, 0) if !hunk.anchors.is_empty() => {
                // No block of the `@@` lines holds it: below the first line
                // that reads like each, as Codex reads them.
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
            let regions = self.scopes(&hunk.anchors, floor)?;
            let starts: Vec<usize> = regions.iter().map(|r| r.0).collect();
            match starts.as_slice() {
                [one] => *one,
                _ => {
                    return Err(Why::Ambiguous {
                        places: starts
                            .iter()
                            .map(|&s| LineSpan::new(s - 1, s - 1))
                            .collect(),
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

    /// The blocks of the lines that read like each anchor in turn, at or
    /// below `floor`: `(first, last)` line ranges.
    fn scopes(&self, anchors: &[String], floor: usize) -> Result<Vec<(usize, usize)>, Why> {
        let mut regions = vec![(floor, self.count())];
        for anchor in anchors {
            let mut next = Vec::new();
            for &(lo, hi) in &regions {
                for n in lo..=hi {
                    if anchor_matches(self.line(n), anchor) {
                        next.push((n + 1, self.block_end(n).min(hi)));
                    }
                }
            }
            if next.is_empty() {
                return Err(Why::AnchorNotFound {
                    anchor: anchor.clone(),
                });
            }
            regions = next;
        }
        Ok(regions)
    }

    /// The line below the first line that reads like each anchor in turn.
    fn below_anchors(&self, anchors: &[String], floor: usize) -> usize {
        let mut at = floor;
        for anchor in anchors {
            if let Some(n) = (at..=self.count()).find(|&n| anchor_matches(self.line(n), anchor)) {
                at = n + 1;
            }
        }
        at
    }

    /// The last line of the block line `n` opens: the lines below it that
    /// are indented deeper, and a closing bracket at its own depth; for a
    /// Markdown heading without such lines, its section.
    fn block_end(&self, n: usize) -> usize {
        let count = self.count();
        let line = self.line(n);
        let base = indent_width(line);
        let mut end = n;
        for m in n + 1..=count {
            let t = self.line(m);
            let trimmed = t.trim();
            if trimmed.is_empty() {
                continue;
            }
            if indent_width(t) > base {
                end = m;
                continue;
            }
            if trimmed.starts_with(['}', ')', ']']) || trimmed == "end" {
                end = m;
            }
            break;
        }
        if end == n
            && let Some(level) = heading_level(line)
        {
            end = (n + 1..=count)
                .find(|&m| heading_level(self.line(m)).is_some_and(|l| l <= level))
                .map_or(count, |m| m - 1);
        }
        end
    }

    /// Looks for `hunk` in lines `lo..=hi`.
    fn find(&self, hunk: &Hunk, lo: usize, hi: usize) -> Found {
        let old: Vec<&str> = hunk.old_lines().map(strip_cr).collect();
        let k = old.len();
        let count = self.count();
        let (lo, hi) = if hunk.at_end {
            (lo.max((count + 1).saturating_sub(k + 3)).max(1), hi)
        } else {
            (lo.max(1), hi)
        };
        if lo > hi || hi < lo + k.saturating_sub(1) || k > hi + 1 - lo {
            return Found::Missing(self.not_found(hunk, None));
        }
        let exact: Vec<usize> = (lo..=hi + 1 - k)
            .filter(|&s| (0..k).all(|j| self.line(s + j) == old[j]))
            .filter(|&s| !hunk.at_end || self.ends_file(s + k - 1))
            .collect();
        match exact.as_slice() {
            [one] => return Found::Placed(self.exact(hunk, *one)),
            [] => {}
            many => {
                return Found::Ambiguous(
                    many.iter().map(|&s| LineSpan::new(s, s + k - 1)).collect(),
                );
            }
        }
        let loose: Vec<usize> = (lo..=hi + 1 - k)
            .filter(|&s| (0..k).all(|j| squash(self.line(s + j)) == squash(old[j])))
            .filter(|&s| !hunk.at_end || self.ends_file(s + k - 1))
            .collect();
        match loose.as_slice() {
            [one] => {
                let one = *one;
                let adds = hunk.lines.iter().any(|l| l.kind == LineKind::Added);
                return match self.indentation(&old, one) {
                    Indentation::Agrees => Found::Placed(Placement {
                        kind: MatchKind::Whitespace,
                        ..self.exact(hunk, one)
                    }),
                    _ if !adds => Found::Placed(Placement {
                        kind: MatchKind::Whitespace,
                        ..self.exact(hunk, one)
                    }),
                    // The whole hunk is indented otherwise: the matcher
                    // re-indents its new lines to the file.
                    Indentation::Shifted => self.tolerant(hunk, one, one + k - 1),
                    Indentation::Unclear => Found::Missing(Why::Refused {
                        message: format!(
                            "its old lines are at lines {}-{} up to whitespace, but their indentation differs from the file's too unevenly to tell how its added lines should be indented",
                            one,
                            one + k - 1
                        ),
                    }),
                };
            }
            [_, _, ..] => {
                return Found::Ambiguous(
                    loose.iter().map(|&s| LineSpan::new(s, s + k - 1)).collect(),
                );
            }
            _ => {}
        }
        let found = self.tolerant(hunk, lo, hi);
        match found {
            Found::Placed(p) if hunk.at_end && !self.ends_file(p.old.end) => {
                Found::Missing(Why::NotAtEnd { lines: p.old })
            }
            other => other,
        }
    }

    /// How the indentation of the non-blank `old` lines compares with the
    /// file lines from `start` on.
    fn indentation(&self, old: &[&str], start: usize) -> Indentation {
        let (mut same, mut all) = (0, 0);
        let mut shifts: Vec<isize> = Vec::new();
        for (j, line) in old.iter().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let file = self.line(start + j);
            all += 1;
            same += usize::from(indent_of(line) == indent_of(file));
            shifts.push(indent_width(line) as isize - indent_width(file) as isize);
        }
        if 2 * same > all {
            Indentation::Agrees
        } else if same == 0 && shifts.len() >= 2 && shifts.iter().all(|&d| d == shifts[0]) {
            Indentation::Shifted
        } else {
            Indentation::Unclear
        }
    }

    /// Whether only blank lines follow line `n`.
    fn ends_file(&self, n: usize) -> bool {
        (n + 1..=self.count()).all(|m| self.line(m).trim().is_empty())
    }

    /// The exact placement of `hunk` at line `start`: context lines keep
    /// the file's bytes, added lines take the ending of the line before.
    fn exact(&self, hunk: &Hunk, start: usize) -> Placement {
        let mut text = String::new();
        let mut at = start;
        for line in &hunk.lines {
            match line.kind {
                LineKind::Context => {
                    text.push_str(&self.text[self.index.span_with_eol(at)]);
                    at += 1;
                }
                LineKind::Removed => at += 1,
                LineKind::Added => {
                    let eol = self.ending(if at > start { at - 1 } else { start });
                    push_line(&mut text, &line.text, eol);
                }
            }
        }
        let end = at - 1;
        Placement {
            old: LineSpan::new(start, end),
            range: self.index.span_of_lines(start, end),
            text,
            kind: MatchKind::Exact,
            by_line_numbers: false,
        }
    }

    /// `hunk` looked for in lines `lo..=hi` by edit_code's tolerant matcher.
    fn tolerant(&self, hunk: &Hunk, lo: usize, hi: usize) -> Found {
        let from = self.index.start(lo);
        let slice = &self.text[from..self.index.start(hi + 1)];
        let search = joined(hunk.old_lines());
        let replacement = joined(hunk.new_lines());
        let shift = lo - 1;
        let span = |r: LineRange| LineSpan::new(r.start + shift, r.end + shift);
        match fuzzy::plan_edit(slice, &EditRequest::new(&search, &replacement)) {
            Ok(plan) => match plan.edits.as_slice() {
                // A hunk's lines are whole lines: a match that starts
                // inside a line pairs its first line with another one.
                [edit]
                    if !slice[..edit.splice.range.start].ends_with('\n')
                        && edit.splice.range.start > 0
                        && !slice[..edit.splice.range.start]
                            .rsplit('\n')
                            .next()
                            .is_some_and(|p| p.trim().is_empty()) =>
                {
                    Found::Missing(Why::Refused {
                        message: format!(
                            "its first old line matches only the end of line {} of the file",
                            edit.lines.start + shift
                        ),
                    })
                }
                [edit] => Found::Placed(Placement {
                    old: span(edit.lines),
                    range: from + edit.splice.range.start..from + edit.splice.range.end,
                    text: edit.splice.text.clone(),
                    kind: edit.kind,
                    by_line_numbers: false,
                }),
                many => Found::Ambiguous(many.iter().map(|e| span(e.lines)).collect()),
            },
            Err(Refusal::Ambiguous { candidates }) => {
                Found::Ambiguous(candidates.iter().map(|c| span(c.lines)).collect())
            }
            Err(Refusal::NotFound { best, .. }) => {
                Found::Missing(self.not_found(hunk, best.map(|b| (span(b.lines), b.score))))
            }
            Err(refusal) => Found::Missing(Why::Refused {
                message: describe(&refusal, shift),
            }),
        }
    }

    /// The not-found reason, with a diff against the closest block.
    fn not_found(&self, hunk: &Hunk, best: Option<(LineSpan, f64)>) -> Why {
        let diff = match best {
            Some((lines, _)) if lines.end >= lines.start && lines.end <= self.count() => {
                let block = &self.text[self.index.span_of_lines(lines.start, lines.end)];
                let old = joined(hunk.old_lines()).replace("\r\n", "\n");
                unified_diff_numbered(
                    &old,
                    &block.replace("\r\n", "\n"),
                    ("hunk", "file"),
                    (1, lines.start),
                    3,
                )
            }
            _ => String::new(),
        };
        Why::NotFound { best, diff }
    }

    /// The place of ambiguous hunk `i` that the placed hunks around it pin,
    /// if they pin one (see the module's doc, step 4).
    fn pin(
        &self,
        hunks: &[Hunk],
        placed: &[Option<Placement>],
        i: usize,
        places: &[LineSpan],
        common: Option<isize>,
    ) -> Option<Placement> {
        let offset = |j: usize| -> Option<isize> {
            let p = placed[j].as_ref()?;
            let start = hunks[j].old_start?;
            (p.old.end >= p.old.start).then_some(p.old.start as isize - start as isize)
        };
        let before = (0..i).rev().find(|&j| placed[j].is_some());
        let after = (i + 1..hunks.len()).find(|&j| placed[j].is_some());
        let offsets: Vec<Option<isize>> = before.into_iter().chain(after).map(offset).collect();
        let first = match offsets.first() {
            Some(offset) => (*offset)?,
            None => common?,
        };
        if offsets.iter().any(|o| *o != Some(first)) {
            return None;
        }
        let expected = hunks[i].old_start? as isize + first;
        let mut fitting = places.iter().filter(|p| p.start as isize == expected);
        let chosen = *fitting.next()?;
        if fitting.next().is_some() {
            return None;
        }
        let low = before
            .and_then(|j| placed[j].as_ref())
            .map_or(1, |p| p.after());
        let high = after
            .and_then(|j| placed[j].as_ref())
            .map_or(self.count(), |p| p.old.start.saturating_sub(1));
        if chosen.start < low || chosen.end > high {
            return None;
        }
        match self.find(&hunks[i], chosen.start, chosen.end) {
            Found::Placed(p) if p.old == chosen => Some(Placement {
                by_line_numbers: true,
                ..p
            }),
            _ => None,
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

/// `line` with its runs of whitespace made one space, and none at the ends.
fn squash(line: &str) -> String {
    line.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The leading spaces and tabs of `line`.
fn indent_of(line: &str) -> &str {
    &line[..line.len() - line.trim_start_matches([' ', '\t']).len()]
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

/// Indentation in columns, a tab counting four.
fn indent_width(line: &str) -> usize {
    line.chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .map(|c| if c == '\t' { 4 } else { 1 })
        .sum()
}

/// The level of a Markdown ATX heading line.
fn heading_level(line: &str) -> Option<usize> {
    let hashes = line.chars().take_while(|c| *c == '#').count();
    ((1..=6).contains(&hashes) && line[hashes..].starts_with([' ', '\t'])).then_some(hashes)
}

/// Whether file line `line` reads like the `@@` text `anchor`: equal once
/// trimmed (runs of whitespace counting as one space), or beginning with it
/// up to a word boundary.
fn anchor_matches(line: &str, anchor: &str) -> bool {
    let (line, anchor) = (squash(line), squash(anchor));
    if anchor.is_empty() {
        return false;
    }
    match line.strip_prefix(anchor.as_str()) {
        Some("") => true,
        Some(rest) => {
            let word = |c: char| c.is_alphanumeric() || c == '_';
            !(anchor.chars().last().is_some_and(word) && rest.chars().next().is_some_and(word))
        }
        None => false,
    }
}

/// A matcher refusal in the words of a patch, with file line numbers
/// (`shift` lines above the stretch it looked in).
fn describe(refusal: &Refusal, shift: usize) -> String {
    let at = |r: LineRange| format!("{}-{}", r.start + shift, r.end + shift);
    match refusal {
        Refusal::Conflict {
            lines,
            search_line,
            file_line,
            ..
        } => format!(
            "its old lines match lines {} of the file only loosely, and old line {search_line} of the hunk, which the hunk changes, is not what the file has there (line {}): the file changed since the patch was made",
            at(*lines),
            file_line + shift
        ),
        Refusal::Elsewhere {
            best,
            search_line,
            file_lines,
            ..
        } => format!(
            "its old lines come closest to lines {} of the file, but old line {search_line} of the hunk is not there and reads exactly like line {} elsewhere, so the hunk may belong there",
            at(best.lines),
            file_lines
                .first()
                .map_or_else(String::new, |l| (l + shift).to_string())
        ),
        Refusal::NotATypo {
            best,
            search_line,
            search_token,
            file_token,
            ..
        } => format!(
            "its old lines come closest to lines {}, but old line {search_line} of the hunk has `{search_token}` where the file has `{file_token}`: another place, or the file changed since the patch was made",
            at(best.lines)
        ),
        Refusal::AlreadyApplied { lines } => format!(
            "its new lines are already in the file at lines {}: the patch seems applied already",
            at(*lines)
        ),
        other => format!(
            "the matcher refused it ({}; there search_context means the hunk's old lines and new_content its new lines, and line numbers count from line {} of the file)",
            other,
            shift + 1
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::super::parse;
    use super::*;

    fn unified(diff: &str, file: &str) -> Result<Applied, HunkRefusal> {
        apply(file, &parse(diff).unwrap().files[0].hunks)
    }

    fn codex(body: &str, file: &str) -> Result<Applied, HunkRefusal> {
        let patch = format!("*** Begin Patch\n*** Update File: f\n{body}\n*** End Patch");
        apply(file, &parse(&patch).unwrap().files[0].hunks)
    }

    #[test]
    fn hunks_land_below_each_other_and_report_their_new_lines() {
        let file = "a\nb\nc\nd\ne\nf\ng\n";
        let diff = "--- a/f\n+++ b/f\n@@ -1,2 +1,3 @@\n a\n+a2\n b\n@@ -5,2 +6,1 @@\n e\n-f\n";
        let out = unified(diff, file).unwrap();
        assert_eq!(out.text, "a\na2\nb\nc\nd\ne\ng\n");
        let new: Vec<(usize, usize)> = out
            .landings
            .iter()
            .map(|l| (l.new.start, l.new.end))
            .collect();
        assert_eq!(new, [(1, 3), (6, 6)]);
    }

    #[test]
    fn a_file_without_final_newline_keeps_lacking_one_unless_the_diff_says() {
        let keep = codex("@@\n-b\n+B", "a\nb").unwrap();
        assert_eq!(keep.text, "a\nB");
        let add = "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n";
        assert_eq!(unified(add, "a\nb").unwrap().text, "a\nb\n");
        let drop = "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n+b\n\\ No newline at end of file\n";
        assert_eq!(unified(drop, "a\nb\n").unwrap().text, "a\nb");
    }

    #[test]
    fn anchors_pick_the_block_and_an_unanchored_repeat_is_ambiguous() {
        let file = "class A:\n    def f(self):\n        return 1\n\nclass B:\n    def f(self):\n        return 1\n";
        let out = codex(
            "@@ class B\n@@ def f\n-        return 1\n+        return 2",
            file,
        )
        .unwrap();
        assert!(
            out.text
                .ends_with("class B:\n    def f(self):\n        return 2\n")
        );
        let err = codex("@@\n-        return 1\n+        return 2", file).unwrap_err();
        assert_eq!(
            err.why,
            Why::Ambiguous {
                places: vec![LineSpan::new(3, 3), LineSpan::new(7, 7)]
            }
        );
        let err = codex("@@ class C\n-        return 1\n+        return 2", file).unwrap_err();
        assert!(matches!(err.why, Why::AnchorNotFound { .. }));
    }

    #[test]
    fn neighbours_pin_an_ambiguous_hunk_whatever_the_numbers_say() {
        let file = "head\nx\n}\n\nmid\n}\n\ntail\nx\n";
        for shift in [0, 30] {
            let diff = format!(
                "--- a/f\n+++ b/f\n@@ -{} +{} @@\n-head\n+HEAD\n@@ -{},2 +{},3 @@\n }}\n+added\n \n@@ -{} +{} @@\n-tail\n+TAIL\n",
                1 + shift,
                1 + shift,
                6 + shift,
                6 + shift,
                8 + shift,
                9 + shift
            );
            let out = unified(&diff, file).unwrap();
            assert_eq!(out.text, "HEAD\nx\n}\n\nmid\n}\nadded\n\nTAIL\nx\n");
            assert!(out.landings[1].by_line_numbers);
        }
        // Neighbours that disagree pin nothing.
        let diff = "--- a/f\n+++ b/f\n@@ -1 +1 @@\n-head\n+HEAD\n@@ -6,2 +6,3 @@\n }\n+added\n \n@@ -9 +10 @@\n-tail\n+TAIL\n";
        let err = unified(diff, file).unwrap_err();
        assert_eq!(err.hunk, 1);
    }

    #[test]
    fn identical_hunks_are_pinned_by_their_distance_when_nothing_else_is_placed() {
        let file = "a\nx\ny\n\nb\nx\ny\n";
        for shift in [0, 30] {
            let diff = format!(
                "--- a/f\n+++ b/f\n@@ -{},2 +{},3 @@\n x\n+z\n y\n@@ -{},2 +{},3 @@\n x\n+z\n y\n",
                2 + shift,
                2 + shift,
                6 + shift,
                7 + shift
            );
            let out = unified(&diff, file).unwrap();
            assert_eq!(out.text, "a\nx\nz\ny\n\nb\nx\nz\ny\n");
        }
        // One such hunk alone fits both places: refused.
        let err = unified("--- a/f\n+++ b/f\n@@ -2,2 +2,3 @@\n x\n+z\n y\n", file).unwrap_err();
        assert!(matches!(err.why, Why::Ambiguous { .. }));
    }

    #[test]
    fn whitespace_drift_keeps_the_added_lines_as_written_unless_indentation_is_unclear() {
        let file = "fn f() {\n    let a = 1;\n    let b = 2;\n}\n";
        let out = codex(
            "@@\n     let a = 1;  \n+    let c = 3;\n     let b = 2;",
            file,
        )
        .unwrap();
        assert_eq!(
            out.text,
            "fn f() {\n    let a = 1;\n    let c = 3;\n    let b = 2;\n}\n"
        );
        // One old line, indented otherwise: the added line's depth is a guess.
        let err = codex("@@\n+    let c = 3;\n let b = 2;", file).unwrap_err();
        assert!(matches!(err.why, Why::Refused { .. }), "{:?}", err.why);
    }

    #[test]
    fn a_whole_line_occurrence_beats_the_same_text_inside_a_longer_line() {
        let file = "    x = 1\n        x = 1\n";
        let out = codex("@@\n-    x = 1\n+    x = 2", file).unwrap();
        assert_eq!(out.text, "    x = 2\n        x = 1\n");
    }

    #[test]
    fn tolerant_matches_keep_the_files_context_lines() {
        let file = "fn f() {\n\tlet a = 1;\n\tlet b = 2;\n}\n";
        let out = codex(
            "@@\n     let a = 1;\n-    let b = 2;\n+    let b = 3;",
            file,
        )
        .unwrap();
        assert_eq!(out.text, "fn f() {\n\tlet a = 1;\n\tlet b = 3;\n}\n");
        assert_ne!(out.landings[0].kind, MatchKind::Exact);
    }

    #[test]
    fn additions_without_context() {
        assert_eq!(codex("@@\n+z", "a\n").unwrap().text, "a\nz\n");
        assert_eq!(
            codex("@@ def f():\n+    pass", "def f():\ndef g():\n")
                .unwrap()
                .text,
            "def f():\n    pass\ndef g():\n"
        );
        let err = unified("--- a/f\n+++ b/f\n@@ -1,0 +2 @@\n+z\n", "a\n").unwrap_err();
        assert_eq!(err.why, Why::NoContext);
        let into_empty = unified("--- a/f\n+++ b/f\n@@ -0,0 +1 @@\n+z\n", "").unwrap();
        assert_eq!(into_empty.text, "z\n");
    }

    #[test]
    fn end_of_file_hunks_must_end_the_file() {
        let file = "x\ny\nx\n";
        let out = codex("@@\n-x\n+z\n*** End of File", file).unwrap();
        assert_eq!(out.text, "x\ny\nz\n");
    }

    #[test]
    fn a_missing_hunk_names_the_closest_block_with_a_diff() {
        let file = "fn a() {\n    one();\n    two();\n}\n";
        let err = codex(
            "@@\n fn a() {\n-    one();\n+    uno();\n     three();",
            file,
        )
        .unwrap_err();
        let Why::NotFound {
            best: Some((lines, _)),
            diff,
        } = &err.why
        else {
            panic!("{:?}", err.why)
        };
        assert_eq!((lines.start, lines.end), (1, 3));
        assert!(
            diff.contains("-    three();") && diff.contains("+    two();"),
            "{diff}"
        );
    }
}
