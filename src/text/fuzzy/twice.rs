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

use std::collections::HashMap;

use super::outcome::{LineRange, Plan};
use crate::text::lines::LineIndex;

/// How many non-blank file lines on each side of an edit count as its
/// surroundings.
const AROUND: usize = 3;

/// Lines with fewer letters and digits than this (braces, `pass`, `});`,
/// `#[doc = ""]`) repeat too often by design to tell anything.
const SUBSTANCE: usize = 6;

/// A line written once too often: where the edit lands, the line, and the
/// file line holding the copy it lands next to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct WrittenTwice {
    pub lines: LineRange,
    pub text: String,
    pub copy_at: usize,
}

fn key(line: &str) -> Option<String> {
    let substance = line.chars().filter(|c| c.is_alphanumeric()).count();
    (substance >= SUBSTANCE).then(|| line.split_whitespace().collect::<Vec<_>>().join(" "))
}

fn count<'a>(lines: impl Iterator<Item = &'a str>) -> HashMap<String, usize> {
    let mut counts = HashMap::new();
    for line in lines {
        if let Some(k) = key(line) {
            *counts.entry(k).or_insert(0) += 1;
        }
    }
    counts
}

/// The first line `plan` would write next to a copy of itself that neither
/// the file nor `new` has there, if any.
pub(crate) fn written_twice(text: &str, plan: &Plan, new: &str) -> Option<WrittenTwice> {
    let index = LineIndex::new(text);
    let wanted = count(new.lines());
    for edit in &plan.edits {
        let range = &edit.splice.range;
        let first = index.line_of_offset(range.start.min(text.len()));
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
        let mut was = count(around().chain(region));
        let written = count(edit.splice.text.lines());
        let mut now = count(around());
        for (k, n) in written {
            *now.entry(k).or_insert(0) += n;
        }
        for (k, n) in now {
            let allowed = was
                .remove(&k)
                .unwrap_or(0)
                .max(wanted.get(&k).copied().unwrap_or(0));
            if n > allowed {
                let copy_at = before
                    .iter()
                    .chain(&after)
                    .copied()
                    .find(|&c| key(index.text(text, c)).as_deref() == Some(k.as_str()))
                    .unwrap_or(first);
                return Some(WrittenTwice {
                    lines: edit.lines,
                    text: k,
                    copy_at,
                });
            }
        }
    }
    None
}
