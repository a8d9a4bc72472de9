//! The re-read's rule for slips: a character the caller's search garbled
//! may be garbled in the lines it writes as well.

use similar::{Algorithm, capture_diff_slices};

use super::Check;
use super::blank_runs::{self, Pairing};
use crate::text::fuzzy::likeness::{Likeness, likeness, typos};
use crate::text::fuzzy::normalize::{QUOTED_SPACE, solid};

impl Check<'_> {
    /// Refuses when a line the plan writes carries a slip of the caller's. A
    /// search line that reads the file's line with a slip (`trwe` for
    /// `true`, `kin2` for `kind`) shows that the caller's text was garbled
    /// there, by a slip of the hand or by a systematic swap that one
    /// instance cannot tell apart, and the same may have garbled the lines
    /// it writes (`limits_neu` for `limits_new`). A slip of a character or
    /// two taints those characters, unless a line copied exactly has them;
    /// a longer difference (a name the file changed since, a stale line)
    /// taints the caller's version of it. A
    /// tainted line, written, could be a wrong edit nobody sees; refused,
    /// the caller copies the line again.
    pub(super) fn no_slip_written(&self, added: &[&str]) -> Result<(), String> {
        let misread = self.search.iter().enumerate().filter_map(|(i, s)| {
            if self.before.contains(s) {
                return None;
            }
            // The file's line the caller read as `s`: the stale line the
            // plan forgave, the line the alignment pairs it with, or a line
            // alike up to typos.
            self.stale
                .iter()
                .chain(&self.misread)
                .find(|(caller, _)| caller == s)
                .map(|&(_, file)| (i, *s, file))
                .or_else(|| {
                    self.before
                        .iter()
                        .find(|f| likeness(s, f) == Likeness::Noise)
                        .map(|f| (i, *s, *f))
                })
        });
        // A character the caller copied right on some line is not one its
        // text garbles throughout: a slip on it is a slip of the hand,
        // which the lines it writes need not share. A systematic swap
        // leaves no line with the character right.
        let vouched: Vec<char> = self
            .search
            .iter()
            .filter(|s| self.before.contains(s))
            .flat_map(|s| s.chars())
            .collect();
        let own_lines = blank_runs::kept(&self.search, &self.new, Some(Pairing::MostAlike));
        for (i, s, f) in misread {
            // A caller whose new_content spells the file's word right where
            // the search misspells it (`totl` in the search, `total` in
            // new_content) slipped by hand, not through its channel: in its
            // own rewrite of that line (`column_kind_next` for the search's
            // `rolumn_kind`), or anywhere, if the search has the word right
            // nowhere else (where it has, new_content having it proves
            // nothing).
            let mine: Vec<&str> = words(s).collect();
            let fixed: Vec<&str> = words(f)
                .filter(|w| w.len() > 1 && !mine.contains(w))
                .collect();
            let rewritten = own_lines
                .iter()
                .find(|p| p.0 == i)
                .map(|p| self.new[p.1])
                .filter(|n| *n != s);
            // A word that still holds one of the search's own misspellings
            // (`emitb` holds `emit`, and is the search's `emitb`) proves
            // nothing of how the caller spells the file's word.
            let misspelt: Vec<&str> = mine
                .iter()
                .copied()
                .filter(|w| w.len() > 1 && !words(f).any(|x| x == *w))
                .collect();
            let spelt_right = |n: &str| {
                words(n).any(|w| {
                    fixed.iter().any(|x| w.contains(x)) && !misspelt.iter().any(|m| w.contains(m))
                })
            };
            let unique: Vec<&str> = fixed
                .iter()
                .copied()
                .filter(|w| !self.search.iter().any(|l| words(l).any(|x| x == *w)))
                .collect();
            if rewritten.is_some_and(spelt_right)
                || self
                    .new
                    .iter()
                    .any(|n| words(n).any(|w| unique.contains(&w)))
            {
                continue;
            }
            // A word the plan writes that still holds a misspelling of the
            // search's, without the file's word (`atch_v2` where the search
            // has `atch` for `batch`), carries the slip whatever its
            // characters: the plan spelt the caller's word right elsewhere in
            // the line, and not there.
            let slipped = typos(s, f);
            let carried = added.iter().find(|line| {
                words(line).any(|w| {
                    slipped
                        .iter()
                        .any(|(m, right)| w.contains(m) && !w.contains(right))
                })
            });
            if let Some(line) = carried {
                return Err(format!(
                    "search_context reads `{}` where the file has `{}`, and `{}`, which it would write, keeps the misspelling",
                    self.brief(s),
                    self.brief(f),
                    self.brief(line)
                ));
            }
            // Characters, not the key's spacing: a key spaces out marks
            // (`channel ' s`), which would make a one-character slip look long.
            let (a, b) = (solid(s), solid(f));
            // A run that reads one character as another at every position
            // (`countxxx` for `count...`) is that one slip repeated, as a
            // swapping channel leaves it, not a name of the caller's own.
            let mut slips: Vec<(&[char], &[char])> = Vec::new();
            for op in capture_diff_slices(Algorithm::Myers, &a, &b) {
                let (m, t) = (&a[op.old_range()], &b[op.new_range()]);
                if op.tag() == similar::DiffTag::Equal {
                    continue;
                }
                if m.len() == t.len() && one_map(m, t) {
                    slips.extend((0..m.len()).map(|k| (&m[k..=k], &t[k..=k])));
                } else {
                    slips.push((m, t));
                }
            }
            // A channel that swaps characters keeps a line's length: where
            // reading the two position by position takes no more slips than
            // a diff does (two swaps at once read `descrpitp]n` for
            // `description`; a transposition, `lrage` for `large`, moves
            // both its characters, where a diff names one), each position
            // that differs is a slip of its own, not one long difference.
            let apart: Vec<usize> = (0..a.len().min(b.len()))
                .filter(|&k| a[k] != b[k])
                .collect();
            let diffed: usize = slips.iter().map(|(m, t)| m.len().max(t.len())).sum();
            if a.len() == b.len() && apart.len() <= diffed {
                slips = apart.into_iter().map(|k| (&a[k..=k], &b[k..=k])).collect();
            }
            for (mine, theirs) in slips {
                let slip: String = mine.iter().collect();
                let tainted = |line: &str| -> Option<String> {
                    if mine.len() <= 2 && theirs.len() <= 2 {
                        line.chars()
                            .find(|c| {
                                !c.is_whitespace()
                                    && (mine.contains(c) || theirs.contains(c))
                                    && !vouched.contains(c)
                            })
                            .map(String::from)
                    } else {
                        let line: String = solid(line).into_iter().collect();
                        (!slip.is_empty() && line.contains(&slip)).then(|| slip.clone())
                    }
                };
                for line in added {
                    if let Some(what) = tainted(line) {
                        return Err(format!(
                            "search_context reads `{}` where the file has `{}`, and `{}`, which it would write, has `{what}` too: the same slip may be in it",
                            self.brief(s),
                            self.brief(f),
                            self.brief(line)
                        ));
                    }
                }
            }
        }
        Ok(())
    }
}

/// Whether reading `mine` for `theirs` position by position maps each
/// character of the caller's to one of the file's, with some pair seen more
/// than once: a channel's substitution repeated, not another word (`cpu`
/// for `mem` pairs three characters once each).
fn one_map(mine: &[char], theirs: &[char]) -> bool {
    let mut map: Vec<(char, char)> = Vec::new();
    let consistent = mine
        .iter()
        .zip(theirs)
        .all(|(&m, &t)| match map.iter().find(|p| p.0 == m) {
            Some(p) => p.1 == t,
            None => {
                map.push((m, t));
                true
            }
        });
    consistent && map.len() < mine.len()
}

/// The words of a key, without its marks for spaces in strings: a caller's
/// spacing is no word it spelt right or wrong.
fn words(key: &str) -> impl Iterator<Item = &str> {
    key.split(' ').filter(|w| *w != QUOTED_SPACE)
}
