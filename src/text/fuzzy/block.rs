//! The matcher's view of a text: every line with its ending, indentation and
//! canonical form, plus the positions of the lines that are not blank.
//!
//! Matching works on non-blank lines only, so a blank line missing from or added
//! to a search block does not shift anything; blank lines are mapped back in
//! afterwards by [`super::align`].

use std::borrow::Cow;

use super::normalize::{canonical, key_hash};
use crate::text::lines::LineIndex;

/// One line as the matcher sees it.
#[derive(Debug)]
pub(crate) struct Line<'t> {
    /// Canonical form (see [`canonical`]).
    pub canon: Cow<'t, str>,
    /// Hash of `canon`.
    pub hash: u64,
    /// Number of chars in `canon`.
    pub chars: usize,
}

impl<'t> Line<'t> {
    fn new(raw: &'t str) -> Line<'t> {
        let canon = canonical(raw);
        Line {
            hash: key_hash(&canon),
            chars: canon.chars().count(),
            canon,
        }
    }

    /// Whether the line has nothing but whitespace.
    pub(crate) fn is_blank(&self) -> bool {
        self.canon.is_empty()
    }

    /// Whether two lines are equal in canonical form.
    pub(crate) fn same_as(&self, other: &Line<'_>) -> bool {
        self.hash == other.hash && self.canon == other.canon
    }
}

/// All lines of a text, with the positions of the non-blank ones.
#[derive(Debug)]
pub(crate) struct Lines<'t> {
    /// Every line, in order.
    pub all: Vec<Line<'t>>,
    /// Indices into `all` of the non-blank lines, ascending.
    pub nonblank: Vec<usize>,
}

impl<'t> Lines<'t> {
    /// The lines of a file's text, following its line index.
    pub(crate) fn of_text(text: &'t str, index: &LineIndex) -> Lines<'t> {
        let all = (1..=index.len())
            .map(|n| Line::new(index.text(text, n)))
            .collect();
        Lines::from_all(all)
    }

    /// The lines of a piece of text sent by the caller.
    pub(crate) fn of_snippet(text: &'t str) -> Lines<'t> {
        let all = text.lines().map(Line::new).collect();
        Lines::from_all(all)
    }

    fn from_all(all: Vec<Line<'t>>) -> Lines<'t> {
        let nonblank = all
            .iter()
            .enumerate()
            .filter(|(_, line)| !line.is_blank())
            .map(|(i, _)| i)
            .collect();
        Lines { all, nonblank }
    }

    /// The non-blank line at non-blank position `p`.
    pub(crate) fn nb(&self, p: usize) -> &Line<'t> {
        &self.all[self.nonblank[p]]
    }
}

/// The canonical text of some lines, joined with `\n`, as scoring compares it.
pub(crate) fn joined<'a, 't: 'a>(lines: impl Iterator<Item = &'a Line<'t>>, out: &mut String) {
    out.clear();
    for (k, line) in lines.enumerate() {
        if k > 0 {
            out.push('\n');
        }
        out.push_str(&line.canon);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snippet_lines_lose_their_endings() {
        let lines = Lines::of_snippet("a\r\n\n  b  \nc");
        assert_eq!(lines.all.len(), 4);
        assert_eq!(lines.all[0].canon, "a");
        assert_eq!(lines.nonblank, vec![0, 2, 3]);
        assert_eq!(lines.nb(1).canon, "b");
    }

    #[test]
    fn text_lines_follow_the_line_model() {
        let text = "x\r\n\ty\n";
        let index = LineIndex::new(text);
        let lines = Lines::of_text(text, &index);
        assert_eq!(lines.all.len(), 2);
        assert_eq!(lines.all[1].canon, "y");
        let mut s = String::new();
        joined(lines.all.iter(), &mut s);
        assert_eq!(s, "x\ny");
    }
}
