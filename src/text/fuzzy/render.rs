//! The merged region written out: file lines with their own bytes, new lines
//! in the file's indentation and line endings, and the byte splice that puts
//! them in place.

use std::ops::Range;

use super::indent::{Hints, IndentMap, shown_step, step};
use super::merge::{Anchor, Merged, Out};
use super::normalize::width;
use super::rows::Row;
use crate::text::lines::{Eol, LineIndex};

/// What the region becomes.
#[derive(Debug, Clone)]
pub(crate) struct Rendered {
    /// The bytes replaced.
    pub range: Range<usize>,
    /// What replaces them.
    pub text: String,
}

/// The region's texts and what is known of their frame.
pub(crate) struct Region<'a, 't> {
    pub text: &'t str,
    pub index: &'a LineIndex,
    pub file: &'a [Row<'t>],
    pub base: &'a [Row<'a>],
    pub theirs: &'a [Row<'a>],
    /// File lines of the region.
    pub lines: Range<usize>,
    /// (search line, file line) of every pair of lines with text.
    pub pairs: &'a [(usize, usize)],
}

impl<'a, 't> Region<'a, 't> {
    /// The ending most lines of the region use, or the file's own.
    fn eol(&self) -> Eol {
        let (mut lf, mut crlf) = (0, 0);
        for row in &self.file[self.lines.clone()] {
            match row.eol {
                Eol::Lf => lf += 1,
                Eol::Crlf => crlf += 1,
                Eol::None => {}
            }
        }
        if crlf > lf {
            Eol::Crlf
        } else if lf > 0 {
            Eol::Lf
        } else {
            self.index.eol_style(self.text).preferred()
        }
    }

    /// Whether `new_content` is indented as the file is rather than as the
    /// search: among the lines it keeps whose indentation differs between
    /// the search and the file, which one it follows more often.
    fn new_in_file_frame(&self, merged: &Merged) -> Option<bool> {
        let (mut file, mut search) = (0, 0);
        for &(t, s) in &merged.kept {
            let Some(&(_, f)) = self.pairs.iter().find(|(ps, _)| *ps == s) else {
                continue;
            };
            let (b, d, n) = (&self.base[s], &self.file[f], &self.theirs[t]);
            if b.indent == d.indent {
                continue;
            }
            if n.indent == d.indent {
                file += 1;
            } else if n.indent == b.indent {
                search += 1;
            }
        }
        match file.cmp(&search) {
            std::cmp::Ordering::Greater => Some(true),
            std::cmp::Ordering::Less => Some(false),
            std::cmp::Ordering::Equal => None,
        }
    }

    /// The indentation steps of the caller's texts and of the file around
    /// the region. The caller's is read inside its frame (the indentation
    /// every line of its texts begins with): a tab after a frame of two
    /// spaces reaches the tab stop two columns on, and read with the frame
    /// it makes the step look like two columns.
    fn units(&self, indents: &[&str]) -> Option<(usize, usize)> {
        let frame = indents
            .iter()
            .fold(indents.first().copied().unwrap_or(""), |p, i| {
                let common = p.chars().zip(i.chars()).take_while(|(a, b)| a == b).count();
                &p[..p.char_indices().nth(common).map_or(p.len(), |(k, _)| k)]
            });
        let caller: Vec<usize> = indents.iter().map(|i| width(&i[frame.len()..])).collect();
        let file: Vec<usize> = self
            .around()
            .iter()
            .filter(|r| !r.is_blank())
            .map(|r| r.width)
            .collect();
        let (c, f) = (
            step(caller.iter().copied()),
            shown_step(file.iter().copied()),
        );
        (c > 0 && f > 0).then_some((c, f))
    }

    /// The file's lines around the region, where its usual indentation is
    /// read.
    fn around(&self) -> &'a [Row<'t>] {
        const AROUND: usize = 100;
        let lo = self.lines.start.saturating_sub(AROUND);
        let hi = (self.lines.end + AROUND).min(self.file.len());
        &self.file[lo..hi]
    }

    fn indent_map(&self, merged: &Merged) -> IndentMap {
        // Where a line's text begins otherwise than the file's (a typo took
        // or added its first character), where its indentation ends is not
        // known: `f = 1` with its `f` gone reads one column deeper. Such a
        // pair says nothing of the frame while others do.
        let begins_alike = |&&(s, f): &&(usize, usize)| {
            let first = |r: &Row<'_>| r.raw[r.indent.len()..].chars().next();
            first(&self.base[s]) == first(&self.file[f])
        };
        let alike: Vec<&(usize, usize)> = self.pairs.iter().filter(begins_alike).collect();
        let trusted: Vec<&(usize, usize)> = if alike.is_empty() {
            self.pairs.iter().collect()
        } else {
            alike
        };
        let pairs: Vec<(&str, &str)> = trusted
            .iter()
            .map(|&&(s, f)| (self.base[s].indent, self.file[f].indent))
            .collect();
        let block = indents(&self.file[self.lines.clone()]);
        let new = indents(self.theirs);
        let search = indents(self.base);
        let caller: Vec<&str> = search.iter().chain(&new).copied().collect();
        let around = indents(self.around());
        let hints = Hints {
            file_frame: self.new_in_file_frame(merged),
            units: self.units(&caller),
            caller: &caller,
            search: &search,
            around: &around,
        };
        IndentMap::with_frame(&pairs, &block, &new, hints)
    }

    /// Writes `merged` out.
    pub(crate) fn render(&self, merged: &Merged) -> Rendered {
        let eol = self.eol();
        let map = self.indent_map(merged);
        let indentation_only = self.base.len() == self.theirs.len()
            && self
                .base
                .iter()
                .zip(self.theirs)
                .all(|(b, t)| b.raw.trim_start() == t.raw.trim_start());
        let lines: Vec<(String, Eol)> = merged
            .out
            .iter()
            .map(|o| match *o {
                Out::Disk(f) => (self.file[f].raw.to_string(), self.file[f].eol),
                Out::New { t, anchor } => {
                    let row = &self.theirs[t];
                    let paired = match anchor {
                        Some(Anchor::Replaces { s, f }) => {
                            Some((self.base[s].indent, self.file[f].indent))
                        }
                        Some(Anchor::Rewrites { f }) => Some((row.indent, self.file[f].indent)),
                        None => None,
                    };
                    let mut body = corrected(&row.raw[row.indent.len()..], &merged.typos);
                    // Trailing whitespace the caller's search line has and
                    // the file's line lacks, kept as it was in the caller's
                    // rewrite, is the caller's noise: it is not written (as
                    // whitespace the keys do not see, the re-read could not
                    // tell). Whitespace the caller drops goes.
                    if let Some(Anchor::Replaces { s, f }) = anchor {
                        let (mine, file) = (trailing(self.base[s].raw), trailing(self.file[f].raw));
                        if file.is_empty()
                            && !mine.is_empty()
                            && !row.is_blank()
                            && trailing(row.raw) == mine
                            && body.ends_with(mine)
                        {
                            body.truncate(body.len() - mine.len());
                            body.push_str(file);
                        }
                    }
                    // When indentation is all the caller changes, a line it
                    // saw byte for byte and re-indented keeps the caller's
                    // indentation: mapping it back to the file's style would
                    // undo the whole edit and report the no-op as done.
                    // Beside other changes, spaces written where the file has
                    // tabs (or the reverse) are the caller's habit, converted.
                    let reindented = match anchor {
                        Some(Anchor::Replaces { s, f }) if indentation_only => {
                            self.base[s].reindented_alone(&self.file[f], row)
                        }
                        _ => false,
                    };
                    let indent = if row.is_blank() {
                        String::new()
                    } else if reindented {
                        row.indent.to_string()
                    } else {
                        map.map(row.indent, paired)
                    };
                    // A line rewritten in place keeps its own ending (files
                    // that mix endings keep them line by line).
                    let own = match anchor {
                        Some(Anchor::Replaces { f, .. } | Anchor::Rewrites { f })
                            if self.file[f].eol != Eol::None =>
                        {
                            self.file[f].eol
                        }
                        _ => eol,
                    };
                    (format!("{indent}{body}"), own)
                }
            })
            .collect();
        let last = self.lines.end - 1;
        let open_end = self.file[last].eol == Eol::None;
        let mut range = self.index.span_of_lines(self.lines.start + 1, last + 1);
        let mut text = String::new();
        for (k, (body, own)) in lines.iter().enumerate() {
            text.push_str(body);
            let is_last = k + 1 == lines.len();
            if is_last && open_end {
                continue;
            }
            text.push_str(if *own == Eol::None { eol } else { *own }.as_str());
        }
        // Removing the last lines of a file without a final newline takes the
        // line break before them too, so the file still ends without one.
        if lines.is_empty() && open_end && self.lines.start > 0 {
            range.start -= Eol::ending(&self.text[..range.start]).as_str().len();
        }
        Rendered { range, text }
    }
}

/// The indentation of each line of `rows` with text.
fn indents<'r>(rows: &[Row<'r>]) -> Vec<&'r str> {
    rows.iter()
        .filter(|r| !r.is_blank())
        .map(|r| r.indent)
        .collect()
}

/// The whitespace that ends `line`.
fn trailing(line: &str) -> &str {
    &line[line.trim_end().len()..]
}

/// `line` with each word the search misspelled in the file's spelling.
fn corrected(line: &str, typos: &[(String, String)]) -> String {
    if typos.is_empty() {
        return line.to_string();
    }
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while !rest.is_empty() {
        let start = rest.find(word).unwrap_or(rest.len());
        out.push_str(&rest[..start]);
        rest = &rest[start..];
        let end = rest.find(|c: char| !word(c)).unwrap_or(rest.len());
        let w = &rest[..end];
        match typos.iter().find(|(wrong, _)| wrong == w) {
            Some((_, right)) => out.push_str(right),
            None => out.push_str(w),
        }
        rest = &rest[end..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn misspelled_words_take_the_file_s_spelling() {
        let typos = vec![("totl".to_string(), "total".to_string())];
        assert_eq!(
            corrected("let totl = totl + 1; // totls", &typos),
            "let total = total + 1; // totls"
        );
        assert_eq!(corrected("x", &[]), "x");
    }
}
