//! The lines `new_content` keeps unchanged are the caller's claim about what
//! the file says there. The merge gathers those the file contradicts (read
//! otherwise, or absent); this judges whether they still leave the matched
//! lines the caller's block, remembered a little stale, or show another
//! block.

use super::super::costs::COSTS;
use super::super::likeness::Likeness;
use super::super::normalize::canonical;
use super::{Clash, Contradiction, Ours, Sides};

impl Sides<'_, '_> {
    /// Refuses the place when the kept lines the file contradicts,
    /// `kept_differ` as (search line, file line it was paired with, if
    /// any), show another block than the caller's.
    pub(super) fn judge_kept(
        &self,
        kept_differ: &[(usize, Option<usize>)],
        ours: &[Ours],
        theirs_of: &[Option<usize>],
    ) -> Result<(), Clash> {
        if kept_differ.is_empty() {
            return Ok(());
        }
        let refuse = |why| Err(Clash::KeptDiffer(kept_differ.to_vec(), why));
        // A line remembered stale is forgiven only beside a kept line the
        // file confirms and has nowhere else: `}` or `Unit,` confirm any
        // block, and a look-alike left where the caller's block was deleted
        // has them all.
        let confirmed = (0..self.base.len()).any(|s| {
            theirs_of[s].is_some()
                && !self.base[s].is_blank()
                && matches!(ours[s], Ours::Pair(f, Likeness::Same | Likeness::Noise)
                    if self.file.iter().filter(|row| row.key == self.file[f].key).take(2).count() == 1)
        });
        if kept_differ.len() > COSTS.stale_kept || !confirmed {
            return refuse(Contradiction::Lines);
        }
        // A line remembered stale is the file's line changed since the
        // caller read it, so the words the caller remembers there are gone
        // from the file. One the file still has elsewhere (`_AppendAction`
        // where the line reads `_StoreAction`) shows another block, a
        // look-alike of the caller's, as a misspelling the file has as a
        // word shows another word.
        let remembered = kept_differ.iter().find_map(|&(s, f)| match ours[s] {
            Ours::Pair(paired, _) if Some(paired) == f => self.remembered_in_file(s, paired),
            _ => None,
        });
        match remembered {
            Some(word) => refuse(Contradiction::StillInFile(word)),
            None => Ok(()),
        }
    }

    /// What the caller remembers on search line `s`, read as file line `f`
    /// stale, that the file still has: the whole line, as another line of
    /// the file; or a word, when the two lines differ in names the file both
    /// has elsewhere (every word of two characters or more that one line has
    /// and the other lacks occurs on some other line of the file). A rename
    /// since the caller read the line leaves the old name gone or the new
    /// one new; two names both in use are two things, and the line is a
    /// sibling's.
    fn remembered_in_file(&self, s: usize, f: usize) -> Option<String> {
        fn words(line: &str) -> Vec<&str> {
            line.split(' ')
                .filter(|w| w.chars().count() > 1)
                .filter(|w| w.starts_with(|c: char| c.is_alphabetic() || c == '_'))
                .collect()
        }
        let (mine, theirs) = (words(&self.base[s].key), words(&self.file[f].key));
        let only_mine: Vec<&str> = mine
            .iter()
            .copied()
            .filter(|w| !theirs.contains(w))
            .collect();
        let only_theirs = theirs.iter().filter(|w| !mine.contains(w));
        let elsewhere = |w: &&str| {
            self.file
                .iter()
                .enumerate()
                .any(|(k, row)| k != f && row.key.split(' ').any(|x| x == *w))
        };
        // The caller's whole line as the one other line of the file that
        // has it: the caller showed that line (beside this one, a line shown
        // twice), not this one stale. A line the file has in several places
        // (`limits:`, `else:`) tells no place; and where the file's line
        // still has all of the caller's words whole, in order (a comment
        // added since), nothing the caller remembers is gone. Words, not
        // tokens: a character glued onto a word makes another one (`b"."` is
        // not the caller's `"."`, though it holds its tokens).
        let key = &self.base[s].key;
        let spaced = |raw: &'_ str| -> Vec<String> {
            raw.split_whitespace()
                .map(|w| canonical(w).into_owned())
                .collect()
        };
        let theirs_words = spaced(self.file[f].raw);
        let mut on_line = theirs_words.iter();
        let all_still_there = spaced(self.base[s].raw)
            .iter()
            .all(|w| on_line.any(|x| x == w));
        let mut copies = (0..self.file.len()).filter(|&k| k != f && self.file[k].key == *key);
        if !all_still_there && let (Some(k), None) = (copies.next(), copies.next()) {
            return Some(self.file[k].raw.trim().to_string());
        }
        let first = only_mine.first()?;
        (only_mine.iter().all(elsewhere) && only_theirs.clone().all(elsewhere))
            .then(|| first.to_string())
    }
}
