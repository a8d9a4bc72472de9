//! The last check of a tolerant edit: it must not leave a line twice where
//! the caller wrote it once.
//!
//! Every tolerant reading of a block (a shifted window among look-alike
//! lines, a marker whose extent is open, a middle left out, blank lines that
//! moved) can go wrong in one typical way: the lines `new_content` writes out
//! land next to the disk's own copies of them, because the match ended a line
//! too early or began a line too late. Whatever caused it, the symptom is
//! the same and easy to see: a line of some substance stands in the result,
//! around the edit, more often than it stood there before and more often
//! than `new_content` has it. Such an edit is refused instead.

use std::collections::BTreeMap;

use super::normalize::canonical;
use super::outcome::{LineRange, Plan};
use crate::text::lines::LineIndex;

/// How many non-blank file lines on each side of an edit count as its
/// surroundings.
const AROUND: usize = 3;

/// Lines with fewer letters and digits than this (braces, `pass`, `});`,
/// `#[doc = ""]`) repeat too often by design to tell a line written twice;
/// losing one of them is told by every non-blank line.
const SUBSTANCE: usize = 6;

/// A line written once too often: where the edit lands, the line, and the
/// file line holding the copy it lands next to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct WrittenTwice {
    pub lines: LineRange,
    pub text: String,
    pub copy_at: usize,
}

/// A non-blank line as the matcher compares lines: whitespace collapsed,
/// look-alike characters folded.
fn key(line: &str) -> Option<String> {
    let k = canonical(line);
    (!k.trim().is_empty()).then(|| k.into_owned())
}

/// Whether a line has enough letters and digits to tell a copy from a
/// line that repeats by design.
fn substantial(k: &str) -> bool {
    k.chars().filter(|c| c.is_alphanumeric()).count() >= SUBSTANCE
}

fn count<'a>(lines: impl Iterator<Item = &'a str>) -> BTreeMap<String, usize> {
    let mut counts = BTreeMap::new();
    for line in lines {
        if let Some(k) = key(line) {
            *counts.entry(k).or_insert(0) += 1;
        }
    }
    counts
}

/// What a loose match would get wrong about the count of one line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Miscount {
    /// Written next to a copy the caller did not ask for.
    Twice,
    /// One of several copies removed, though the caller removed none.
    Lost,
}

/// The first line `plan` would write next to a copy of itself that neither
/// the file nor `new` has there, or would remove from among its copies
/// where `search` has no more of them than `new`; `None` if there is none.
///
/// The second is the mirror of the first: among repeated lines a match one
/// line off pairs new_content's copy with the wrong one, and the line the
/// search meant goes. Only a repeated line counts for this (two copies or
/// more around the edit), so that a typo in the one line an edit rewrites is
/// no reason to refuse.
pub(crate) fn miscounted(
    text: &str,
    plan: &Plan,
    search: &str,
    new: &str,
) -> Option<(Miscount, WrittenTwice)> {
    let index = LineIndex::new(text);
    let wanted = count(new.lines());
    let shown = count(search.lines());
    for edit in &plan.edits {
        let range = &edit.splice.range;
        // A splice that starts on a line break (removing the last lines of a
        // text without a final newline takes the ending before them) starts
        // with the line after it.
        let on_break = matches!(text.as_bytes().get(range.start), Some(b'\n' | b'\r'));
        let first = index.line_of_offset(range.start.min(text.len())) + usize::from(on_break);
        // The line holding the splice's last byte; an insertion holds none.
        let last = if range.end > range.start {
            index.line_of_offset(range.end - 1)
        } else {
            first.saturating_sub(1)
        };
        let nonblank = |n: &usize| !index.text(text, *n).trim().is_empty();
        let before: Vec<usize> = (1..first).rev().filter(nonblank).take(AROUND).collect();
        let after: Vec<usize> = (last + 1..=index.len())
            .filter(nonblank)
            .take(AROUND)
            .collect();
        let around = || before.iter().chain(&after).map(|&n| index.text(text, n));
        let region = (first..=last).map(|n| index.text(text, n));
        let was = count(around().chain(region));
        let mut now = count(around());
        for (k, n) in count(edit.splice.text.lines()) {
            *now.entry(k).or_insert(0) += n;
        }
        let of = |m: &BTreeMap<String, usize>, k: &str| m.get(k).copied().unwrap_or(0);
        let found = |k: &str, miscount: Miscount| {
            let copy_at = before
                .iter()
                .chain(&after)
                .copied()
                .chain(first..=last)
                .find(|&c| key(index.text(text, c)).as_deref() == Some(k))
                .unwrap_or(first);
            let lines = edit.lines;
            let text = k.to_string();
            Some((
                miscount,
                WrittenTwice {
                    lines,
                    text,
                    copy_at,
                },
            ))
        };
        for (k, &n) in &now {
            if substantial(k) && n > of(&was, k).max(of(&wanted, k)) {
                return found(k, Miscount::Twice);
            }
        }
        for (k, &n) in &was {
            let removed = n.saturating_sub(of(&now, k));
            let asked = of(&shown, k).saturating_sub(of(&wanted, k));
            if n >= 2 && removed > asked {
                return found(k, Miscount::Lost);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::fuzzy::outcome::{MatchKind, PlannedEdit, Splice};

    /// A plan replacing bytes `range` of `text` (lines `lines`) with `with`.
    fn plan(range: std::ops::Range<usize>, lines: (usize, usize), with: &str) -> Plan {
        Plan {
            edits: vec![PlannedEdit {
                kind: MatchKind::Fuzzy,
                adjustments: Vec::new(),
                score: 95.0,
                lines: LineRange {
                    start: lines.0,
                    end: lines.1,
                },
                before: String::new(),
                after: String::new(),
                splice: Splice {
                    range,
                    text: with.to_string(),
                },
                diff: String::new(),
            }],
            near_misses: Vec::new(),
            normalized: Vec::new(),
        }
    }

    const TABLE: &str =
        "const ALPHA_SIZE: u32 = 1;\nconst BETA_SIZE: u32 = 2;\nconst GAMMA_SIZE: u32 = 3;\n";

    #[test]
    fn a_line_written_beside_its_copy_is_caught() {
        // Line 1 rewritten as lines 1 and 2: BETA now stands twice.
        let p = plan(
            0..27,
            (1, 1),
            "const ALPHA_SIZE: u32 = 10;\nconst BETA_SIZE: u32 = 2;\n",
        );
        let new = "const ALPHA_SIZE: u32 = 10;\nconst BETA_SIZE: u32 = 2;\n";
        let (what, found) = miscounted(TABLE, &p, "const ALPHA_SIZE: u32 = 1;\n", new).unwrap();
        assert_eq!(what, Miscount::Twice);
        assert_eq!(
            (found.text.as_str(), found.copy_at),
            ("const BETA_SIZE: u32 = 2;", 2)
        );
        // new_content with the line twice asked for it.
        let twice =
            "const ALPHA_SIZE: u32 = 10;\nconst BETA_SIZE: u32 = 2;\nconst BETA_SIZE: u32 = 2;\n";
        assert_eq!(miscounted(TABLE, &p, "x\n", twice), None);
    }

    #[test]
    fn one_of_two_copies_removed_unasked_is_caught() {
        let text = "a = 1\n}\nb = 2\n}\nc = 3\n";
        // Lines 3-4 replaced by line 3 alone: one `}` goes, though neither
        // the search (which has no `}`) nor new_content removes one.
        let p = plan(6..14, (3, 4), "b = 20\n");
        let (what, found) = miscounted(text, &p, "b = 2\n", "b = 20\n").unwrap();
        assert_eq!((what, found.text.as_str()), (Miscount::Lost, "}"));
        // A search that shows the `}` and a new_content without it asks for it.
        assert_eq!(miscounted(text, &p, "b = 2\n}\n", "b = 20\n"), None);
    }

    #[test]
    fn removing_the_last_lines_of_a_text_without_a_final_newline_is_no_loss() {
        // The splice starts on the line break before the removed lines; the
        // line before them (`}`) stays, though its ending goes.
        let text = "fn a() {\n    x();\n}\nfn b() {\n    y();\n}";
        let start = text.find("\nfn b").unwrap();
        let p = plan(start..text.len(), (4, 6), "");
        assert_eq!(miscounted(text, &p, "fn b() {\n    y();\n}", ""), None);
    }

    #[test]
    fn an_empty_text_or_an_insertion_at_the_end_is_fine() {
        assert_eq!(miscounted("", &plan(0..0, (1, 1), "x\n"), "", "x\n"), None);
        let text = "a\nb\n";
        assert_eq!(
            miscounted(text, &plan(4..4, (2, 2), "c\n"), "b\n", "b\nc\n"),
            None
        );
    }
}
