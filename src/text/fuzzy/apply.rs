//! Applying the caller's change to the block as it is on disk.
//!
//! The change the caller meant is the difference between `search_context` and
//! `new_content`. That difference (a line diff) is replayed on the disk block
//! through the search-to-disk line pairing:
//!
//! - lines the caller kept are written exactly as they are on disk, whatever
//!   drift the search had (indentation, trailing spaces, quotes, endings, even a
//!   line changed on disk since the caller read it);
//! - disk lines the search did not mention (an extra blank line, a line added
//!   since) are kept, unless they sit inside a run of lines the caller removed
//!   or replaced;
//! - an elision marker kept in `new_content` keeps the disk lines it stands for;
//! - new and changed lines get the file's indentation (see
//!   [`crate::text::fuzzy::indent`]); a changed line keeps the ending of the
//!   line it replaces, an added line takes the block's line ending.
//!
//! Two situations are refused rather than guessed: the caller changes a line
//! that is something else on disk (a conflict), or `new_content` holds an
//! elision marker that does not stand for a marker of the search.

use std::borrow::Cow;

use similar::{Algorithm, DiffOp, capture_diff_slices};

use super::align::Target;
use super::block::{Line, Lines};
use super::elision::Markers;
use super::indent::IndentMap;
use super::outcome::ConflictReason;
use super::score::{line_similarity, within_typos};
use crate::text::lines::Eol;

/// Why a matched block cannot take the caller's change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Blocked {
    /// The caller's change around search line `search_line` (0-based) meets
    /// file line `file_line` (0-based), which is not what the caller saw.
    Conflict {
        search_line: usize,
        file_line: usize,
        reason: ConflictReason,
    },
    /// Line `new_line` (0-based) of `new_content` is an elision marker that
    /// stands for no marker of the search.
    Marker { new_line: usize },
    /// The marker on search line `search_line` (0-based), standing for the
    /// file lines `hidden`, is dropped or rewritten by the change.
    Hidden {
        search_line: usize,
        hidden: std::ops::Range<usize>,
    },
}

/// Diff key of a line: elision markers compare equal to each other.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Key<'a> {
    Marker,
    Text(&'a str),
}

/// Everything needed to rewrite one matched block.
pub(crate) struct Transplant<'a, 't, 's, 'n> {
    /// The file's lines.
    pub file: &'a Lines<'t>,
    /// The search block's lines.
    pub search: &'a Lines<'s>,
    /// The new content's lines.
    pub new: &'a Lines<'n>,
    /// What each search line stands for on disk.
    pub targets: &'a [Target],
    /// First and last file line of the block (0-based, inclusive).
    pub region: (usize, usize),
    /// Whether the search was matched with elision markers.
    pub elision: bool,
    /// Which lines are elision markers.
    pub markers: &'a Markers,
    /// The ending new lines get.
    pub eol: Eol,
}

struct Out<'x> {
    text: Cow<'x, str>,
    eol: Option<Eol>,
}

impl<'a, 't, 's, 'n> Transplant<'a, 't, 's, 'n> {
    fn key<'x>(&self, line: &'x Line<'_>) -> Key<'x> {
        if self.elision && self.markers.is_marker(line) {
            Key::Marker
        } else {
            Key::Text(line.raw)
        }
    }

    /// The new text of the block's lines, endings included.
    pub(crate) fn render(&self) -> Result<String, Blocked> {
        let s_keys: Vec<Key<'_>> = self.search.all.iter().map(|l| self.key(l)).collect();
        let n_keys: Vec<Key<'_>> = self.new.all.iter().map(|l| self.key(l)).collect();
        let ops = capture_diff_slices(Algorithm::Patience, &s_keys, &n_keys);

        let pairs: Vec<(&str, &str)> = self
            .targets
            .iter()
            .enumerate()
            .filter_map(|(i, t)| match t {
                Target::Line(f) if !self.search.all[i].is_blank() => {
                    Some((self.search.all[i].indent, self.file.all[*f].indent))
                }
                _ => None,
            })
            .collect();
        let block: Vec<&str> = (self.region.0..=self.region.1)
            .map(|f| &self.file.all[f])
            .filter(|l| !l.is_blank())
            .map(|l| l.indent)
            .collect();
        let new_indents: Vec<&str> = self
            .new
            .all
            .iter()
            .filter(|l| !l.is_blank() && !self.markers.is_marker(l))
            .map(|l| l.indent)
            .collect();
        let indents = IndentMap::new(&pairs, &block, &new_indents);

        let mut out: Vec<Out<'a>> = Vec::new();
        let mut cursor = self.region.0;
        let end = self.region.1 + 1;

        for op in &ops {
            let (_, old, new) = op.as_tag_tuple();
            match op {
                DiffOp::Equal { .. } => {
                    for i in old {
                        match &self.targets[i] {
                            Target::Line(f) => {
                                keep_until(self.file, &mut out, &mut cursor, end, f + 1)
                            }
                            Target::Middle(r) => {
                                keep_until(self.file, &mut out, &mut cursor, end, r.end)
                            }
                            Target::Absent => {}
                        }
                    }
                }
                DiffOp::Delete { .. } | DiffOp::Replace { .. } | DiffOp::Insert { .. } => {
                    self.check_changed(old.clone(), !new.is_empty())?;
                    let span = covered(&self.targets[old.clone()]);
                    if let Some((lo, hi)) = span {
                        self.check_foreign(old.clone(), lo..hi)?;
                        keep_until(self.file, &mut out, &mut cursor, end, lo);
                        cursor = cursor.max(hi);
                    }
                    let partners =
                        partners(&self.search.all[old.clone()], &self.new.all[new.clone()]);
                    for (t, j) in new.clone().enumerate() {
                        let line = &self.new.all[j];
                        // The search line this new line rewrites, if any.
                        let rewrites = partners[t].map(|k| old.start + k);
                        // A marker-like line that rewrites a marker-like line of
                        // the file is an edited comment, not an elision.
                        let rewrites_literal =
                            rewrites.is_some_and(|i| self.markers.is_literal(&self.search.all[i]));
                        if self.markers.is_marker(line)
                            && (self.elision || self.markers.is_comment_marker(line))
                            && !rewrites_literal
                        {
                            return Err(Blocked::Marker { new_line: j });
                        }
                        // A rewritten line takes the indentation frame and the
                        // ending of the line it rewrites.
                        let replaced = rewrites.and_then(|i| match &self.targets[i] {
                            Target::Line(f) => Some((i, *f)),
                            _ => None,
                        });
                        let paired = replaced
                            .map(|(i, f)| (self.search.all[i].indent, self.file.all[f].indent));
                        out.push(Out {
                            text: self.render_new(line, &indents, paired),
                            eol: replaced.map(|(_, f)| self.file.all[f].eol),
                        });
                    }
                }
            }
        }
        keep_until(self.file, &mut out, &mut cursor, end, end);

        let last_eol = self.file.all[self.region.1].eol;
        let count = out.len();
        let mut text = String::new();
        for (k, line) in out.into_iter().enumerate() {
            text.push_str(&line.text);
            let eol = if k + 1 == count && last_eol == Eol::None {
                Eol::None
            } else {
                match line.eol {
                    Some(Eol::None) | None => self.eol,
                    Some(e) => e,
                }
            };
            text.push_str(eol.as_str());
        }
        Ok(text)
    }

    fn render_new<'x>(
        &self,
        line: &'x Line<'_>,
        indents: &IndentMap,
        paired: Option<(&str, &str)>,
    ) -> Cow<'x, str> {
        if indents.is_identity() {
            return Cow::Borrowed(line.raw);
        }
        if line.is_blank() {
            return Cow::Borrowed("");
        }
        let mut text = indents.map(line.indent, paired);
        text.push_str(&line.raw[line.indent.len()..]);
        Cow::Owned(text)
    }

    /// Refuses to remove a non-blank disk line the search did not have (added
    /// since the caller read the file) along with lines the caller replaces.
    fn check_foreign(
        &self,
        old: std::ops::Range<usize>,
        span: std::ops::Range<usize>,
    ) -> Result<(), Blocked> {
        let known = |f: usize| {
            self.targets[old.clone()].iter().any(|t| match t {
                Target::Line(l) => *l == f,
                Target::Middle(r) => r.contains(&f),
                Target::Absent => false,
            })
        };
        match span
            .clone()
            .find(|&f| !self.file.all[f].is_blank() && !known(f))
        {
            Some(f) => Err(Blocked::Conflict {
                search_line: old.start,
                file_line: f,
                reason: ConflictReason::ExtraLine,
            }),
            None => Ok(()),
        }
    }

    /// Refuses changes to search lines that stand for something else on disk.
    /// `replaced` tells a replacement (new lines take their place) from a
    /// removal (removing a line that is not there is harmless).
    fn check_changed(&self, old: std::ops::Range<usize>, replaced: bool) -> Result<(), Blocked> {
        for i in old {
            let line = &self.search.all[i];
            if self.elision
                && self.markers.is_marker(line)
                && let Target::Middle(hidden) = &self.targets[i]
                && hidden.clone().any(|f| !self.file.all[f].is_blank())
            {
                return Err(Blocked::Hidden {
                    search_line: i,
                    hidden: hidden.clone(),
                });
            }
            if line.is_blank() || (self.elision && self.markers.is_marker(line)) {
                continue;
            }
            match &self.targets[i] {
                Target::Line(f) => {
                    let disk = &self.file.all[*f];
                    // A typo or two, never a line rewritten since it was read.
                    if !within_typos(line, disk) {
                        return Err(Blocked::Conflict {
                            search_line: i,
                            file_line: *f,
                            reason: ConflictReason::LineDiffers,
                        });
                    }
                }
                Target::Middle(_) => {}
                Target::Absent if replaced => {
                    let lo = self.targets[..i].iter().rev().find_map(end_of);
                    let hi = self.targets[i + 1..].iter().find_map(start_of);
                    let (Some(lo), Some(hi)) = (lo, hi) else {
                        // Past either end of what matched, nothing tells
                        // where the line would be or what stands there now.
                        return Err(Blocked::Conflict {
                            search_line: i,
                            file_line: if lo.is_none() {
                                self.region.0
                            } else {
                                self.region.1
                            },
                            reason: ConflictReason::LineMissing,
                        });
                    };
                    if let Some(f) = (lo..hi).find(|&f| !self.file.all[f].is_blank()) {
                        return Err(Blocked::Conflict {
                            search_line: i,
                            file_line: f,
                            reason: ConflictReason::LineMissing,
                        });
                    }
                }
                Target::Absent => {}
            }
        }
        Ok(())
    }
}

/// For each line of `new`, the line of `old` it rewrites. As many lines for
/// as many pair in order; otherwise an order-keeping pairing of lines at
/// least half similar, with the greatest total similarity (a run of replaced
/// lines is a few lines long).
fn partners(old: &[Line<'_>], new: &[Line<'_>]) -> Vec<Option<usize>> {
    let (a, b) = (old.len(), new.len());
    if a == b {
        return (0..b).map(Some).collect();
    }
    let mut best = vec![0f64; (a + 1) * (b + 1)];
    let at = |i: usize, j: usize| i * (b + 1) + j;
    for i in 1..=a {
        for j in 1..=b {
            let mut v = best[at(i - 1, j)].max(best[at(i, j - 1)]);
            let sim = line_similarity(&old[i - 1], &new[j - 1]);
            if sim >= 0.5 {
                v = v.max(best[at(i - 1, j - 1)] + sim);
            }
            best[at(i, j)] = v;
        }
    }
    let mut out = vec![None; b];
    let (mut i, mut j) = (a, b);
    while i > 0 && j > 0 {
        let sim = line_similarity(&old[i - 1], &new[j - 1]);
        if sim >= 0.5 && best[at(i, j)] == best[at(i - 1, j - 1)] + sim {
            out[j - 1] = Some(i - 1);
            i -= 1;
            j -= 1;
        } else if best[at(i, j)] == best[at(i - 1, j)] {
            i -= 1;
        } else {
            j -= 1;
        }
    }
    out
}

/// The replacement for an exact occurrence that starts or ends inside a line.
/// `breaks` are the endings of the lines the occurrence spans, in order: the
/// occurrence's k-th line break is the ending of the k-th of them. A line break
/// of `new` whose line the caller kept (an equal line in the search-to-new
/// diff) keeps the disk's ending; any other takes `eol`.
///
/// A final line break that `new` has and `search` has not (or the other way
/// round) is taken as the slip it nearly always is: `new` follows `search`, so
/// no line is joined to the next or split off from it. `ends_line` says
/// whether the occurrence ends where its last line's text does: when it does
/// not and `new` has fewer lines than `search`, the final line break of `new`
/// ends a line the caller kept, and dropping it would join that line to the
/// rest of the occurrence's last line.
pub(crate) fn literal(
    search: &str,
    new: &str,
    breaks: &[Eol],
    eol: Eol,
    ends_line: bool,
) -> String {
    let search = search.replace("\r\n", "\n");
    let mut new = new.replace("\r\n", "\n");
    let lines = |s: &str| s.matches('\n').count();
    match (search.ends_with('\n'), new.ends_with('\n')) {
        (true, false) if !new.is_empty() => new.push('\n'),
        (false, true) if ends_line || lines(&new) > lines(&search) => {
            new.pop();
        }
        _ => {}
    }
    let s: Vec<&str> = search.split('\n').collect();
    let n: Vec<&str> = new.split('\n').collect();
    let mut ends = vec![eol; n.len() - 1];
    for op in capture_diff_slices(Algorithm::Patience, &s, &n) {
        if let DiffOp::Equal {
            old_index,
            new_index,
            len,
        } = op
        {
            for t in 0..len {
                let (k, j) = (old_index + t, new_index + t);
                if let (Some(end), Some(&disk)) = (ends.get_mut(j), breaks.get(k))
                    && disk != Eol::None
                {
                    *end = disk;
                }
            }
        }
    }
    let mut out = String::with_capacity(new.len() + ends.len());
    for (j, part) in n.iter().enumerate() {
        out.push_str(part);
        if let Some(end) = ends.get(j) {
            out.push_str(end.as_str());
        }
    }
    out
}

/// Keeps disk lines from `cursor` up to `to` (never past `end`) as they are.
fn keep_until<'x>(
    file: &'x Lines<'_>,
    out: &mut Vec<Out<'x>>,
    cursor: &mut usize,
    end: usize,
    to: usize,
) {
    while *cursor < to.min(end) {
        let line = &file.all[*cursor];
        out.push(Out {
            text: Cow::Borrowed(line.raw),
            eol: Some(line.eol),
        });
        *cursor += 1;
    }
}

fn end_of(t: &Target) -> Option<usize> {
    match t {
        Target::Line(f) => Some(f + 1),
        Target::Middle(r) => Some(r.end),
        Target::Absent => None,
    }
}

fn start_of(t: &Target) -> Option<usize> {
    match t {
        Target::Line(f) => Some(*f),
        Target::Middle(r) => Some(r.start),
        Target::Absent => None,
    }
}

/// The file lines `lo..hi` spanned by some targets, if they stand for any.
fn covered(targets: &[Target]) -> Option<(usize, usize)> {
    let lo = targets.iter().find_map(start_of)?;
    let hi = targets.iter().rev().find_map(end_of)?;
    Some((lo, hi))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::fuzzy::align::{pair_blank_lines, targets};
    use crate::text::lines::LineIndex;

    fn run(
        file: &str,
        search: &str,
        new: &str,
        pairs: &[(usize, usize)],
    ) -> Result<String, Blocked> {
        let index = LineIndex::new(file);
        let file_lines = Lines::of_text(file, &index);
        let search_lines = Lines::of_snippet(search);
        let new_lines = Lines::of_snippet(new);
        let mut t = targets(&search_lines, &file_lines, pairs);
        pair_blank_lines(&search_lines, &file_lines, &mut t);
        let region = super::super::align::region(&t).unwrap();
        Transplant {
            file: &file_lines,
            search: &search_lines,
            new: &new_lines,
            targets: &t,
            region,
            elision: false,
            markers: &Markers::of(&file_lines),
            eol: Eol::Lf,
        }
        .render()
    }

    #[test]
    fn kept_lines_keep_their_disk_form() {
        let file = "\tif (a) {  \n\t\tcall(\u{201C}x\u{201D});\n\t}\n";
        let search = "if (a) {\n    call(\"x\");\n}\n";
        let new = "if (a) {\n    call(\"x\");\n    more();\n}\n";
        let out = run(file, search, new, &[(0, 0), (1, 1), (2, 2)]).unwrap();
        assert_eq!(
            out,
            "\tif (a) {  \n\t\tcall(\u{201C}x\u{201D});\n\t\tmore();\n\t}\n"
        );
    }

    #[test]
    fn unmentioned_disk_lines_survive_outside_replaced_runs() {
        let file = "a\nb\nextra\nc\n";
        let out = run(file, "a\nb\nc\n", "a\nB\nc\n", &[(0, 0), (1, 1), (2, 3)]).unwrap();
        assert_eq!(out, "a\nB\nextra\nc\n");
        let out = run(file, "a\nb\nc\n", "a\nc\n", &[(0, 0), (1, 1), (2, 3)]).unwrap();
        assert_eq!(out, "a\nextra\nc\n");
        let err = run(file, "a\nb\nc\n", "X\n", &[(0, 0), (1, 1), (2, 3)]).unwrap_err();
        assert_eq!(
            err,
            Blocked::Conflict {
                search_line: 0,
                file_line: 2,
                reason: ConflictReason::ExtraLine,
            }
        );
        let blank = "a\nb\n\nc\n";
        let out = run(blank, "a\nb\nc\n", "X\n", &[(0, 0), (1, 1), (2, 3)]).unwrap();
        assert_eq!(out, "X\n");
    }

    #[test]
    fn changing_a_line_that_is_different_on_disk_is_a_conflict() {
        let file = "a\ntotally different\nc\n";
        let err = run(file, "a\nb\nc\n", "a\nB\nc\n", &[(0, 0), (2, 2)]).unwrap_err();
        assert_eq!(
            err,
            Blocked::Conflict {
                search_line: 1,
                file_line: 1,
                reason: ConflictReason::LineMissing,
            }
        );
        let err = run(file, "a\nb\nc\n", "a\nB\nc\n", &[(0, 0), (1, 1), (2, 2)]).unwrap_err();
        assert_eq!(
            err,
            Blocked::Conflict {
                search_line: 1,
                file_line: 1,
                reason: ConflictReason::LineDiffers,
            }
        );
    }

    #[test]
    fn final_line_without_ending_stays_without() {
        let file = "x\ny";
        assert_eq!(
            run(file, "x\ny\n", "x\ny\nz\n", &[(0, 0), (1, 1)]).unwrap(),
            "x\ny\nz"
        );
        assert_eq!(run(file, "y", "", &[(0, 1)]).unwrap(), "");
    }

    #[test]
    fn rewritten_lines_keep_their_ending_and_added_ones_take_the_block_s() {
        let file = "a\nb\r\nc\nd\n";
        let out = run(
            file,
            "a\nb\nc\nd\n",
            "a\nb2\nnew line\nc\nd\n",
            &[(0, 0), (1, 1), (2, 2), (3, 3)],
        );
        assert_eq!(out.unwrap(), "a\nb2\r\nnew line\nc\nd\n");
        let partners = partners(
            &Lines::of_snippet("let x = 1;\nlet y = 2;\n").all,
            &Lines::of_snippet("let x = 10;\naudit();\nlet y = 20;\n").all,
        );
        assert_eq!(partners, vec![Some(0), None, Some(1)]);
    }

    #[test]
    fn literal_splices_keep_the_endings_of_kept_lines() {
        let breaks = [Eol::Crlf, Eol::Lf, Eol::Crlf];
        assert_eq!(
            literal("a\n\nb", "a\n\nB", &breaks, Eol::Crlf, true),
            "a\r\n\nB"
        );
        assert_eq!(literal("x", "y\nz", &[Eol::Lf], Eol::Crlf, true), "y\r\nz");
        assert_eq!(literal("x", "y\n", &[], Eol::Lf, true), "y");
        assert_eq!(literal("x", "y\n", &[], Eol::Lf, false), "y");
        assert_eq!(literal("x\n", "y", &[Eol::Lf], Eol::Lf, true), "y\n");
    }

    #[test]
    fn a_kept_line_keeps_its_break_when_the_next_line_goes_in_part() {
        // Found by fuzzing: `a\nb` -> `a\n` inside `a\nb rest` joined `a`
        // to ` rest`; the caller kept line `a` and dropped only `b`.
        assert_eq!(literal("a\nb", "a\n", &[Eol::Lf], Eol::Lf, false), "a\n");
        // Ending where the line does, the whole last line goes.
        assert_eq!(literal("a\nb", "a\n", &[Eol::Lf], Eol::Lf, true), "a");
    }

    #[test]
    fn new_content_may_not_elide() {
        let file = "a\nb\nc\n";
        let err = run(
            file,
            "a\nb\nc\n",
            "a\n// ... rest\nc\n",
            &[(0, 0), (1, 1), (2, 2)],
        )
        .unwrap_err();
        assert_eq!(err, Blocked::Marker { new_line: 1 });
    }
}
