//! Looking for a hunk's old lines in a stretch of the file: exactly, up to
//! whitespace, then with edit_code's tolerant matcher.

use super::anchors::indent_width;
use super::wording::describe;
use super::{File, Found, Placement, Why, joined, push_line, strip_cr};
use crate::text::diff::unified_diff_numbered;
use crate::text::edit::LineSpan;
use crate::text::fuzzy::{self, EditRequest, LineRange, MatchKind, Refusal};
use crate::text::patch::{Hunk, LineKind};

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

impl File<'_> {
    /// Looks for `hunk` in lines `lo..=hi`.
    pub(super) fn find(&self, hunk: &Hunk, lo: usize, hi: usize) -> Found {
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
                [edit] => {
                    let old = span(edit.lines);
                    match self.keep_file_context(hunk, old, &edit.splice.text) {
                        Ok(Some(text)) => Found::Placed(Placement {
                            old,
                            range: self.index.span_of_lines(old.start, old.end),
                            text,
                            kind: edit.kind,
                            by_line_numbers: false,
                        }),
                        Ok(None) => Found::Placed(Placement {
                            old,
                            range: from + edit.splice.range.start..from + edit.splice.range.end,
                            text: edit.splice.text.clone(),
                            kind: edit.kind,
                            by_line_numbers: false,
                        }),
                        Err(why) => Found::Missing(why),
                    }
                }
                many => Found::Ambiguous(many.iter().map(|e| span(e.lines)).collect()),
            },
            Err(Refusal::Ambiguous { candidates, .. }) => {
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

    /// The matcher's new text for `hunk`, found at file lines `old`, with
    /// every context line as the file has it. The matcher writes the hunk's
    /// new lines as given, so a context line that went stale (a word the
    /// file has since changed) would overwrite the file's line.
    ///
    /// When the hunk's old lines pair one by one with the block's and its
    /// new lines with the matcher's, each pair alike, the text is rebuilt:
    /// context lines from the file, added lines from the matcher (which has
    /// re-indented them; a blank one as the hunk has it). Otherwise (`Ok(None)`) the matcher's text is kept
    /// only if every context line of the hunk is a line of the block, up to
    /// whitespace; a context line the block lacks refuses the hunk.
    fn keep_file_context(
        &self,
        hunk: &Hunk,
        old: LineSpan,
        matched: &str,
    ) -> Result<Option<String>, Why> {
        let block: Vec<&str> = (old.start..=old.end).map(|n| self.line(n)).collect();
        let olds: Vec<&str> = hunk.old_lines().map(strip_cr).collect();
        let news: Vec<&str> = matched.lines().collect();
        let alike = |a: &str, b: &str| {
            squash(a) == squash(b)
                || similar::TextDiff::from_chars(squash(a).as_str(), squash(b).as_str()).ratio()
                    >= 0.6
        };
        let paired = block.len() == olds.len()
            && news.len() == hunk.new_lines().count()
            && block.iter().zip(&olds).all(|(f, h)| alike(f, h));
        if paired {
            let mut text = String::with_capacity(matched.len());
            let (mut at, mut next) = (old.start, 0);
            for line in &hunk.lines {
                match line.kind {
                    LineKind::Context => {
                        text.push_str(&self.text[self.index.span_with_eol(at)]);
                        at += 1;
                        next += 1;
                    }
                    LineKind::Removed => at += 1,
                    LineKind::Added => {
                        let eol = self.ending(if at > old.start { at - 1 } else { old.start });
                        // A blank added line is written as given: the
                        // matcher trims it, and its spaces are the change.
                        let added = if line.text.trim().is_empty() {
                            line.text.as_str()
                        } else {
                            news[next]
                        };
                        push_line(&mut text, added, eol);
                        next += 1;
                    }
                }
            }
            return Ok(Some(text));
        }
        let in_block: Vec<String> = block.iter().map(|l| squash(l)).collect();
        for (j, line) in hunk.lines.iter().enumerate() {
            if line.kind == LineKind::Context && !in_block.contains(&squash(strip_cr(&line.text))) {
                return Err(Why::Refused {
                    message: format!(
                        "its old lines match lines {}-{} of the file only loosely, and its context line {} (`{}`) is not among them: the file changed there since the patch was made",
                        old.start,
                        old.end,
                        j + 1,
                        crate::text::excerpt::brief(line.text.trim())
                    ),
                });
            }
        }
        Ok(None)
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
}

/// `line` with its runs of whitespace made one space, and none at the ends.
pub(super) fn squash(line: &str) -> String {
    line.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The leading spaces and tabs of `line`.
fn indent_of(line: &str) -> &str {
    &line[..line.len() - line.trim_start_matches([' ', '\t']).len()]
}
