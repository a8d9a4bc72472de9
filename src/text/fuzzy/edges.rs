//! The block's edges, where the search stops and the file goes on.
//!
//! Two things the caller's texts say there are read before the merge:
//!
//! - **Blank lines.** The caller's change of the blank lines at an edge is
//!   made only when the search shows that edge as the file has it. A search
//!   that shows one blank line where the file has two, with `new_content`
//!   showing two, was copied short: the file's blank lines stay.
//! - **Lines written out past the search.** When `new_content` goes on past
//!   the search's first or last line with the lines the file has there, the
//!   caller has shown them: the search is read as if it had shown them too,
//!   so they are written once (and a change to one of them is made), not
//!   added as a second copy.
//!
//! ```text
//! file:    def f(a):      search:  def f(a):      new_content:  def f(a):
//!              b = a + 1               b = a + 1                     b = a + 10
//!              return b                                              return b
//! ```
//! The search is read as `def f(a): / b = a + 1 / return b`, so `return b`
//! stays once.

use std::ops::Range;

use similar::{Algorithm, DiffOp, capture_diff_slices};

use super::align::{Alignment, Step};
use super::costs::COSTS;
use super::diff::kept_pairs;
use super::likeness::{Likeness, likeness};
use super::rows::Row;

/// The caller's texts and the alignment, made to agree at the edges.
#[derive(Debug, Clone)]
pub(crate) struct Fitted<'a> {
    /// The search, with the file lines `new_content` writes out past it.
    pub base: Vec<Row<'a>>,
    /// Which lines of `base` are elision markers.
    pub base_markers: Vec<bool>,
    /// `new_content`, with its edge blank lines as the search's where the
    /// search does not show the file's.
    pub theirs: Vec<Row<'a>>,
    /// Which lines of `theirs` are elision markers.
    pub theirs_markers: Vec<bool>,
    /// The alignment of `base`.
    pub alignment: Alignment,
}

/// How the edges are read.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Reading {
    /// Whether the blank lines at the edges are read: for a tolerant match,
    /// whose search may not show the file's blank lines.
    pub blank_lines: bool,
    /// The diff of the caller's two texts that says which lines of
    /// `new_content` go on past the search.
    pub diff: Algorithm,
    /// Whether lines written past the search that are all rewrites of the
    /// file's lines there (none the same) are read as those lines: the
    /// rival of reading them as new lines (see [`shown`]).
    pub rewrites_alone: bool,
    /// Whether a blank line that only one side has is passed over in the
    /// lines written past the search, instead of ending them: blank lines
    /// say nothing about place, so a run of the file's lines that goes on
    /// after a blank line the caller's copy gained or lost is the rival of
    /// the run that stops there (see [`shown`]).
    pub blank_gaps: bool,
    /// Whether a line of `new_content` unlike the file's line it faces is
    /// passed over in the lines written past the search, as a line the
    /// caller adds among them, instead of ending them: the run of the
    /// file's lines that new_content goes on to write out after it (the
    /// blank line that closes the caller's block) is the rival of the run
    /// that stops there and adds those lines a second time.
    pub added_gaps: bool,
    /// Which copy in `new_content` of the search's first or last line that
    /// line is read as, instead of the one the diff pairs it with (see
    /// [`edge_inserts`]).
    pub end_copy: Option<EndCopy>,
}

/// A copy in `new_content` of the search's first or last line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum EndCopy {
    /// The n-th copy (from 0) of the search's first line.
    First(usize),
    /// The n-th copy (from 0) of the search's last line.
    Last(usize),
    /// `new_content`'s first line of text, where it rewrites the search's
    /// first line (a diff pairs only lines the same, so it may take a later
    /// copy of that line for it and read the rewrite as a line written
    /// before the search).
    FirstRewritten,
    /// `new_content`'s last line of text, where it rewrites the search's
    /// last line.
    LastRewritten,
}

/// A line as it is written, for the diff of the caller's texts: where the
/// search's last line pairs is where new_content goes on past it, and a key
/// that drops the spaces inside a line pairs it with a copy that has other
/// spaces (a row of an ASCII drawing, `|   |` for `|     |`).
fn as_written(r: &Row<'_>) -> String {
    format!("{}\u{3}{}", r.key, r.raw.trim())
}

/// How many copies `new` has of the first and of the last line of text of
/// `search`.
pub(crate) fn end_copies(search: &[Row<'_>], new: &[Row<'_>]) -> (usize, usize) {
    let mut text = search.iter().filter(|r| !r.is_blank());
    let (Some(first), Some(last)) = (text.next(), search.iter().rfind(|r| !r.is_blank())) else {
        return (0, 0);
    };
    let count = |line: &Row<'_>| {
        let w = as_written(line);
        new.iter().filter(|r| as_written(r) == w).count()
    };
    (count(first), count(last))
}

/// Whether pairing the caller's lines kept or rewritten pairs more of
/// them than a diff of lines the same does: the diff then drops a line of
/// the search that `new_content` rewrites, and may have paired an end line
/// with a copy of it elsewhere instead (see [`EndCopy::FirstRewritten`]).
pub(crate) fn rewrites_unpaired(search: &[Row<'_>], new: &[Row<'_>]) -> bool {
    let keys = |rows: &[Row<'_>]| rows.iter().map(as_written).collect::<Vec<_>>();
    let (a, b) = (keys(search), keys(new));
    kept_or_rewritten(&a, &b) > common(&a, &b)
}

/// The texts read at the block's edges (see the module).
pub(crate) fn fit<'a>(
    base: &[Row<'a>],
    base_markers: &[bool],
    theirs: &[Row<'a>],
    theirs_markers: &[bool],
    file: &[Row<'a>],
    alignment: &Alignment,
    reading: Reading,
) -> Fitted<'a> {
    let mut fitted = Fitted {
        base: base.to_vec(),
        base_markers: base_markers.to_vec(),
        theirs: theirs.to_vec(),
        theirs_markers: theirs_markers.to_vec(),
        alignment: alignment.clone(),
    };
    if base.iter().all(Row::is_blank) {
        return fitted;
    }
    if reading.blank_lines {
        fitted.blank_edges(file);
    }
    fitted.written_out_past(file, reading);
    fitted
}

impl<'a> Fitted<'a> {
    /// The file line search line `s` is paired with.
    fn paired(&self, s: usize) -> Option<usize> {
        self.alignment.steps.iter().find_map(|step| match *step {
            Step::Pair { s: ps, f } if ps == s => Some(f),
            _ => None,
        })
    }

    /// Sets `new_content`'s blank lines at each edge to the search's where
    /// the search shows a number of them the file does not have. An edge is
    /// the blank lines before the search's first line of text (after its
    /// last), when `new_content` keeps that line and has only blank lines
    /// before it (after it).
    fn blank_edges(&mut self, file: &[Row<'a>]) {
        let Some(blank) = self
            .base
            .iter()
            .chain(&self.theirs)
            .find(|r| r.is_blank())
            .cloned()
        else {
            return;
        };
        let kept = kept_lines(&self.base, &self.theirs);
        // Leading edge.
        let lead = self.base.iter().take_while(|r| r.is_blank()).count();
        if let Some(t) = kept[lead]
            && !self.base_markers[lead]
            && self.theirs[..t].iter().all(Row::is_blank)
            && let Some(f) = self.paired(lead)
        {
            let on_disk = file[..f].iter().rev().take_while(|r| r.is_blank()).count();
            if on_disk != lead && t != lead {
                let keep = self.theirs.split_off(t);
                let keep_markers = self.theirs_markers.split_off(t);
                self.theirs = std::iter::repeat_n(blank.clone(), lead)
                    .chain(keep)
                    .collect();
                self.theirs_markers = std::iter::repeat_n(false, lead)
                    .chain(keep_markers)
                    .collect();
            }
        }
        // Trailing edge.
        let kept = kept_lines(&self.base, &self.theirs);
        let trail = self.base.iter().rev().take_while(|r| r.is_blank()).count();
        let last = self.base.len() - 1 - trail;
        if let Some(t) = kept[last]
            && !self.base_markers[last]
            && self.theirs[t + 1..].iter().all(Row::is_blank)
            && let Some(f) = self.paired(last)
        {
            let on_disk = file[f + 1..].iter().take_while(|r| r.is_blank()).count();
            let given = self.theirs.len() - 1 - t;
            if on_disk != trail && given != trail {
                self.theirs.truncate(t + 1);
                self.theirs_markers.truncate(t + 1);
                self.theirs.extend(std::iter::repeat_n(blank, trail));
                self.theirs_markers
                    .extend(std::iter::repeat_n(false, trail));
            }
        }
    }

    /// Takes into the search the file lines just outside the region that
    /// `new_content` writes out before the search's first line or after its
    /// last.
    fn written_out_past(&mut self, file: &[Row<'a>], reading: Reading) {
        let bk: Vec<String> = self.base.iter().map(as_written).collect();
        let tk: Vec<String> = self.theirs.iter().map(as_written).collect();
        let (head, tail) = edge_inserts(&bk, &tk, reading);
        let alone = reading.rewrites_alone;
        let gaps = Gaps {
            blank: reading.blank_gaps,
            added: reading.added_gaps,
        };
        let region = self.alignment.region.clone();
        // After the last line.
        if let Some(range) = tail {
            let written = &self.theirs[range];
            let beyond = &file[region.end..];
            let n = shown(written.iter(), beyond.iter(), alone, gaps);
            if n > 0 {
                let s0 = self.base.len();
                self.base.extend(beyond[..n].iter().cloned());
                self.base_markers.extend(std::iter::repeat_n(false, n));
                let steps = &mut self.alignment.steps;
                steps.extend((0..n).map(|k| Step::Pair {
                    s: s0 + k,
                    f: region.end + k,
                }));
                self.alignment.region.end += n;
            }
        }
        // Before the first line.
        if let Some(range) = head {
            let written = &self.theirs[range];
            let before = &file[..region.start];
            let n = shown(written.iter().rev(), before.iter().rev(), alone, gaps);
            if n > 0 {
                let start = region.start - n;
                let mut base: Vec<Row<'a>> = before[start..].to_vec();
                base.append(&mut self.base);
                self.base = base;
                self.base_markers = std::iter::repeat_n(false, n)
                    .chain(self.base_markers.drain(..))
                    .collect();
                let steps: Vec<Step> = (0..n)
                    .map(|k| Step::Pair { s: k, f: start + k })
                    .chain(self.alignment.steps.drain(..).map(|step| shifted(step, n)))
                    .collect();
                self.alignment.steps = steps;
                self.alignment.region.start = start;
            }
        }
    }
}

/// The lines of `theirs` that a diff from `base` inserts before the first
/// line of `base` and after its last. Where lines repeat, the diff's choice
/// among equally long readings decides which copy of an end line of `base`
/// that line pairs with (a diff strips a common suffix first, so the last
/// copy); `reading.end_copy` makes another choice at one end.
fn edge_inserts(
    base: &[String],
    theirs: &[String],
    reading: Reading,
) -> (Option<Range<usize>>, Option<Range<usize>>) {
    let inserted = |op: Option<&DiffOp>, at: usize| match op {
        Some(&DiffOp::Insert {
            old_index,
            new_index,
            new_len,
        }) if old_index == at => Some(new_index..new_index + new_len),
        _ => None,
    };
    let ops = capture_diff_slices(reading.diff, base, theirs);
    let (mut head, mut tail) = (inserted(ops.first(), 0), inserted(ops.last(), base.len()));
    let nth = |line: &String, n: usize| {
        theirs
            .iter()
            .enumerate()
            .filter(|(_, t)| *t == line)
            .nth(n)
            .map(|(k, _)| k)
    };
    // Another copy is a reading of the caller's change only if the rest of
    // the search still pairs as well on its side, kept or rewritten, as the
    // diff's reading keeps it. The copy is of the line of text at the end;
    // blank lines past it go with it.
    let blank = |l: &String| l == "\u{3}";
    let longest = || common(base, theirs);
    // The line of theirs at `k`, where it rewrites `line`.
    let rewrite_of = |line: Option<&String>, k: Option<usize>| {
        let (line, k) = (line?, k?);
        let alike = rapidfuzz::fuzz::ratio(line.chars(), theirs[k].chars()) >= COSTS.paired_rewrite;
        (theirs[k] != *line && alike).then_some(k)
    };
    let blanks_then =
        |lines: &mut dyn Iterator<Item = &String>| lines.take_while(|l| blank(l)).count();
    match reading.end_copy {
        Some(copy @ (EndCopy::First(_) | EndCopy::FirstRewritten)) => {
            let lead = blanks_then(&mut base.iter());
            let at = match copy {
                EndCopy::First(n) => base.get(lead).and_then(|l| nth(l, n)),
                _ => rewrite_of(base.get(lead), theirs.iter().position(|l| !blank(l))),
            };
            if let Some(k) = at
                && k >= lead
                && theirs[k - lead..k].iter().all(blank)
                && kept_or_rewritten(&base[lead + 1..], &theirs[k + 1..]) + 1 + lead >= longest()
            {
                let k = k - lead;
                head = (k > 0).then_some(0..k);
            }
        }
        Some(copy @ (EndCopy::Last(_) | EndCopy::LastRewritten)) => {
            let trail = blanks_then(&mut base.iter().rev());
            let last = base.len().saturating_sub(trail + 1);
            let at = match copy {
                EndCopy::Last(n) => base.get(last).and_then(|l| nth(l, n)),
                _ => rewrite_of(base.get(last), theirs.iter().rposition(|l| !blank(l))),
            };
            if let Some(k) = at
                && k + trail < theirs.len()
                && theirs[k + 1..k + 1 + trail].iter().all(blank)
                && kept_or_rewritten(&base[..last], &theirs[..k]) + 1 + trail >= longest()
            {
                let k = k + trail;
                tail = (k + 1 < theirs.len()).then_some(k + 1..theirs.len());
            }
        }
        None => {}
    }
    (head, tail)
}

/// The most lines of `a` that can be paired in order with lines of `b` that
/// keep them or rewrite them (as alike as a line the caller rewrites); 0
/// for texts too long to pair line by line.
fn kept_or_rewritten(a: &[String], b: &[String]) -> usize {
    if a.len().saturating_mul(b.len()) > COSTS.rewrite_pairs {
        return 0;
    }
    let alike = |x: &String, y: &String| {
        x == y || rapidfuzz::fuzz::ratio(x.chars(), y.chars()) >= COSTS.paired_rewrite
    };
    let mut row = vec![0usize; b.len() + 1];
    for x in a {
        let mut diagonal = 0;
        for (j, y) in b.iter().enumerate() {
            let up = row[j + 1];
            row[j + 1] = if alike(x, y) {
                diagonal + 1
            } else {
                up.max(row[j])
            };
            diagonal = up;
        }
    }
    row[b.len()]
}

/// The length of the longest common subsequence of two texts' lines.
fn common(a: &[String], b: &[String]) -> usize {
    capture_diff_slices(Algorithm::Myers, a, b)
        .iter()
        .map(|op| match *op {
            DiffOp::Equal { len, .. } => len,
            _ => 0,
        })
        .sum()
}

/// How many of the file's lines next to the search (`file`, in order away
/// from it) the `written` lines (in the same order) show: each alike, or a
/// rewrite of it, with at least one line of text the same. Blank lines
/// alone are not enough: the blank-line rule decides those. Rewrites alone
/// are a new line as often as the file's line changed: with
/// `rewrites_alone` they are read as the file's lines, the rival reading.
/// With `gaps.blank`, a blank line on one side facing a line of text on the
/// other is passed over rather than ending the run; with `gaps.added`, so is
/// a written line of text unlike the file's line it faces, once the run has
/// shown a line the same.
fn shown<'r, 'a: 'r>(
    written: impl Iterator<Item = &'r Row<'a>>,
    file: impl Iterator<Item = &'r Row<'a>>,
    rewrites_alone: bool,
    gaps: Gaps,
) -> usize {
    let mut written = written.peekable();
    let mut file = file.peekable();
    let mut n = 0;
    let mut same = 0;
    let mut upto = 0;
    while let (Some(w), Some(f)) = (written.peek(), file.peek()) {
        if gaps.blank && w.is_blank() != f.is_blank() {
            if w.is_blank() {
                written.next();
            } else {
                file.next();
                n += 1;
            }
            continue;
        }
        let alike = if w.is_blank() || f.is_blank() {
            w.is_blank() && f.is_blank()
        } else if w.same(f) {
            same += 1;
            true
        } else {
            let rewrite = likeness(&w.key, &f.key) != Likeness::Differs
                || rapidfuzz::fuzz::ratio(w.key.chars(), f.key.chars()) >= COSTS.rewritten;
            if rewrite && rewrites_alone {
                same += 1;
            }
            rewrite
        };
        if !alike {
            // Only among lines already written out the same: a run that
            // would begin past a line new_content adds is another block of
            // the caller's, not the file's lines shown.
            if gaps.added && !w.is_blank() && same > 0 {
                written.next();
                continue;
            }
            break;
        }
        written.next();
        file.next();
        n += 1;
        if same > 0 {
            upto = n;
        }
    }
    upto
}

/// Which lines [`shown`] passes over instead of ending the run there.
#[derive(Debug, Clone, Copy)]
struct Gaps {
    /// A blank line facing a line of text.
    blank: bool,
    /// A written line of text unlike the file's line it faces.
    added: bool,
}

/// For each line of `base`, the line of `theirs` that keeps it, if one.
fn kept_lines(base: &[Row<'_>], theirs: &[Row<'_>]) -> Vec<Option<usize>> {
    let bk: Vec<&str> = base.iter().map(|r| r.key.as_str()).collect();
    let tk: Vec<&str> = theirs.iter().map(|r| r.key.as_str()).collect();
    let mut kept = vec![None; bk.len()];
    for (b, t) in kept_pairs(&bk, &tk) {
        kept[b] = Some(t);
    }
    kept
}

/// `step` with its search line `n` further down.
fn shifted(step: Step, n: usize) -> Step {
    match step {
        Step::Pair { s, f } => Step::Pair { s: s + n, f },
        Step::SearchOnly { s } => Step::SearchOnly { s: s + n },
        Step::FileOnly { f } => Step::FileOnly { f },
        Step::Hidden { s, f } => Step::Hidden { s: s + n, f },
    }
}

#[cfg(test)]
mod tests {
    use super::super::rows::of_snippet;
    use super::*;

    fn aligned(pairs: &[(usize, usize)]) -> Alignment {
        let steps: Vec<Step> = pairs.iter().map(|&(s, f)| Step::Pair { s, f }).collect();
        let region = pairs[0].1..pairs[pairs.len() - 1].1 + 1;
        Alignment {
            steps,
            cost: 0,
            edits: 0,
            hidden: 0,
            region,
        }
    }

    /// `fit` of a tolerant match over texts, the search's line `s` paired
    /// with file line `f` for each `(s, f)` of `pairs`.
    fn fit_texts(
        file: &'static str,
        base: &'static str,
        theirs: &'static str,
        pairs: &[(usize, usize)],
    ) -> Fitted<'static> {
        let (file, base, theirs) = (of_snippet(file), of_snippet(base), of_snippet(theirs));
        let (bm, tm) = (vec![false; base.len()], vec![false; theirs.len()]);
        fit(
            &base,
            &bm,
            &theirs,
            &tm,
            &file,
            &aligned(pairs),
            Reading {
                blank_lines: true,
                diff: Algorithm::Patience,
                rewrites_alone: false,
                blank_gaps: false,
                added_gaps: false,
                end_copy: None,
            },
        )
    }

    fn texts(rows: &[Row<'_>]) -> Vec<String> {
        rows.iter().map(|r| r.raw.to_string()).collect()
    }

    #[test]
    fn lines_new_content_writes_past_the_search_join_the_search() {
        let fitted = fit_texts(
            "a = 1\nb = 2\nc = 3\nd = 4\n",
            "a = 1\nb = 2\n",
            "a = 1\nb = 2\nc = 30\nd = 4\n",
            &[(0, 0), (1, 1)],
        );
        assert_eq!(texts(&fitted.base), ["a = 1", "b = 2", "c = 3", "d = 4"]);
        assert_eq!(fitted.alignment.region, 0..4);
    }

    #[test]
    fn a_line_before_the_search_joins_it_and_the_steps_follow() {
        let fitted = fit_texts(
            "x = 0\na = 1\nb = 2\n",
            "a = 1\nb = 2\n",
            "x = 0\na = 1\nb = 3\n",
            &[(0, 1), (1, 2)],
        );
        assert_eq!(texts(&fitted.base), ["x = 0", "a = 1", "b = 2"]);
        assert_eq!(
            fitted.alignment.steps,
            [
                Step::Pair { s: 0, f: 0 },
                Step::Pair { s: 1, f: 1 },
                Step::Pair { s: 2, f: 2 }
            ]
        );
        assert_eq!(fitted.alignment.region, 0..3);
    }

    #[test]
    fn new_lines_unlike_the_file_s_next_lines_stay_new() {
        let fitted = fit_texts(
            "a = 1\nb = 2\nreturn total\n",
            "a = 1\nb = 2\n",
            "a = 1\nb = 2\nprint(a, b)\n",
            &[(0, 0), (1, 1)],
        );
        assert_eq!(texts(&fitted.base), ["a = 1", "b = 2"]);
        assert_eq!(fitted.alignment.region, 0..2);
    }

    #[test]
    fn edge_blank_lines_follow_the_search_where_it_does_not_show_the_file_s() {
        let file = "x\n\n\nclass A:\n    pass\n";
        // One blank line shown where the file has two; new_content has two.
        let fitted = fit_texts(
            file,
            "\nclass A:\n    pass\n",
            "\n\nclass A:\n    pass  # ok\n",
            &[(0, 2), (1, 3), (2, 4)],
        );
        assert_eq!(texts(&fitted.theirs), ["", "class A:", "    pass  # ok"]);
        // Shown as the file has it, the caller's change stands.
        let fitted = fit_texts(
            file,
            "\n\nclass A:\n    pass\n",
            "\nclass A:\n    pass  # ok\n",
            &[(0, 1), (1, 2), (2, 3), (3, 4)],
        );
        assert_eq!(texts(&fitted.theirs), ["", "class A:", "    pass  # ok"]);
    }
}
