//! A re-read of every tolerant plan before it is written, independent of how
//! the plan was made: the change it makes to the file must be the change the
//! caller made from `search_context` to `new_content`.
//!
//! The region as it is and as it would be are compared line by line (lines
//! of text only, as keys, so whitespace is no change) with the caller's two
//! texts (with recognised artifacts undone and markers left out):
//!
//! - every line the plan adds is one `new_content` adds, up to a typo;
//! - every line the plan removes is one `search_context` removes, up to a
//!   typo, or one the caller never showed and `new_content` writes out (up
//!   to a typo, or rewritten where a marker stands for it);
//! - each line `new_content` adds stands for one line removed at most: a
//!   rewrite of a line the search removes is not also a hidden line
//!   written out;
//! - every line `new_content` adds is in the region afterwards;
//! - no line `search_context` removes is left in more copies than
//!   `new_content` has;
//! - no line the caller keeps is read as another version of a file line
//!   that `new_content` also has as a line of its own;
//! - no slip reaches the file: where a line of `search_context` reads the
//!   file's line with a slip, no line the plan writes has the slip's
//!   characters (or, for a longer difference, the caller's version), since
//!   what garbled the one may have garbled the other;
//! - no invisible character (a zero-width space, a soft hyphen) is written
//!   where the region has none: lines are compared without them;
//! - nothing outside the region changes.
//!
//! A plan that fails is refused, never written. This is the net for the
//! cases where the model that made the plan is wrong.

use std::collections::HashMap;
use std::ops::Range;

use similar::{Algorithm, DiffOp, capture_diff_slices};

use super::costs::COSTS;
use super::likeness::{Likeness, likeness};
use super::markers::MARKER_KEY;

mod blank_runs;
mod depths;
mod names;
mod slips;

#[cfg(test)]
mod tests;

pub(crate) use blank_runs::Spacing;
pub(crate) use depths::Depths;
pub(crate) use names::Names;

/// The keys of the lines with text, with how often each occurs.
fn counts<'a>(keys: impl Iterator<Item = &'a str>) -> HashMap<&'a str, usize> {
    let mut out = HashMap::new();
    for k in keys.filter(|k| !k.is_empty()) {
        *out.entry(k).or_insert(0) += 1;
    }
    out
}

/// The lines of `a` beyond those of `b`, as a list with repeats.
fn beyond<'a>(a: &HashMap<&'a str, usize>, b: &HashMap<&'a str, usize>) -> Vec<&'a str> {
    let mut out: Vec<&'a str> = Vec::new();
    for (k, &n) in a {
        let m = b.get(k).copied().unwrap_or(0);
        out.extend(std::iter::repeat_n(*k, n.saturating_sub(m)));
    }
    out.sort_unstable();
    out
}

fn alike(a: &str, b: &str) -> bool {
    likeness(a, b) != Likeness::Differs
}

/// Takes from `pool` a line alike to `key` (the same first), if any.
fn take(pool: &mut Vec<&str>, key: &str) -> bool {
    let at = pool
        .iter()
        .position(|p| *p == key)
        .or_else(|| pool.iter().position(|p| alike(p, key)));
    match at {
        Some(k) => {
            pool.swap_remove(k);
            true
        }
        None => false,
    }
}

fn copies(keys: &[&str], key: &str) -> usize {
    keys.iter().filter(|k| **k == key || alike(k, key)).count()
}

/// The lines of `added` that rewrite lines of `removed`, and the rest, the
/// closest pairs taken first. A line new_content rewrites from one the
/// search removes (`f(a, b_next)` for `f(a, b)`) is that line's new version,
/// so it cannot also stand for a hidden line written out: else one change
/// of the caller's pays both for the file's copy of its line and for a
/// look-alike the plan removes beside it (a neighbouring stub, `g(a, b)`).
fn split_rewrites<'a>(removed: &[&str], added: &[&'a str]) -> (Vec<&'a str>, Vec<&'a str>) {
    let mut pairs: Vec<(f64, usize, usize)> = Vec::new();
    for (r, old) in removed.iter().enumerate() {
        for (a, new) in added.iter().enumerate() {
            let ratio = rapidfuzz::fuzz::ratio(old.chars(), new.chars());
            if alike(old, new) || ratio >= COSTS.rewritten {
                pairs.push((ratio, r, a));
            }
        }
    }
    pairs.sort_by(|x, y| y.0.total_cmp(&x.0));
    let (mut old_taken, mut new_taken) = (vec![false; removed.len()], vec![false; added.len()]);
    for (_, r, a) in pairs {
        if !old_taken[r] && !new_taken[a] {
            (old_taken[r], new_taken[a]) = (true, true);
        }
    }
    let (mut rewrites, mut rest) = (Vec::new(), Vec::new());
    for (line, taken) in added.iter().zip(new_taken) {
        if taken { &mut rewrites } else { &mut rest }.push(*line);
    }
    (rewrites, rest)
}

/// The keys of the lines with text, in order.
fn text_keys<'a>(keys: &[&'a str]) -> Vec<&'a str> {
    keys.iter().copied().filter(|k| !k.is_empty()).collect()
}

/// Whether `got`, a neighbour in the file after the edit, is the neighbour
/// `want` that `new_content` gives; the region's edges and markers stand for
/// lines the check does not see. Up to a typo only where the file has no
/// line that is exactly `want`: of two look-alike lines, the one the caller
/// wrote is the one meant.
fn fits(got: Option<&str>, want: Option<&str>, file: &[&str], stale: &[(&str, &str)]) -> bool {
    match (got, want) {
        (_, Some(MARKER_KEY)) | (None, _) | (_, None) => true,
        (Some(a), Some(b)) => {
            a == b || (!file.contains(&b) && alike(a, b)) || stale.contains(&(b, a))
        }
    }
}

/// What the plan would do, and what the caller asked for.
pub(crate) struct Check<'a> {
    /// Keys of the region's lines before the edit.
    pub before: Vec<&'a str>,
    /// Keys of the region's lines after it.
    pub after: Vec<&'a str>,
    /// Keys of the search's lines (markers left out).
    pub search: Vec<&'a str>,
    /// Keys of `new_content`'s lines (markers left out).
    pub new: Vec<&'a str>,
    /// Keys of `new_content`'s lines in order, markers as [`MARKER_KEY`].
    pub new_order: Vec<&'a str>,
    /// Lines the caller keeps that the file has in another version (a line
    /// remembered stale), as (the caller's key, the file's key).
    pub stale: Vec<(&'a str, &'a str)>,
    /// Search lines the alignment pairs with a file line that reads
    /// otherwise, as (the search's key, the file's key).
    pub misread: Vec<(&'a str, &'a str)>,
    /// Keys of the file's lines in and around the region.
    pub nearby: Vec<&'a str>,
    /// The same lines after the edit.
    pub nearby_after: Vec<&'a str>,
    /// The bytes the plan replaces, and the region's bytes, in the file.
    pub splice: Range<usize>,
    pub region: Range<usize>,
    /// Whether the search has markers standing for lines it leaves out.
    pub elided: bool,
    /// Whether the splice may reach back over the line break before the
    /// region (the last lines of a file without a final newline removed).
    pub takes_break_before: bool,
    /// Invisible characters (see [`super::normalize::invisible`]) the plan
    /// would write that the region does not have.
    pub invisible_written: Vec<char>,
    /// The four texts with their blank lines.
    pub spacing: Spacing<'a>,
    /// `new_content` and the region with their indentation.
    pub depths: Depths<'a>,
    /// Lines within the search's reach outside the region that the file has
    /// once and `new_content` has too, as (key, line number).
    pub outside_once: Vec<(&'a str, usize)>,
    /// How the lines read, by name, for the messages.
    pub shown: HashMap<&'a str, &'a str>,
    /// Keys of the file's lines of text just before the region, nearest
    /// last, and just past it, nearest first.
    pub edges: (Vec<&'a str>, Vec<&'a str>),
}

impl Check<'_> {
    /// A line by its name, as it reads, shortened for a message.
    fn brief(&self, name: &str) -> String {
        let text = self.shown.get(name).copied().unwrap_or(name);
        crate::text::excerpt::brief(text).to_string()
    }

    /// `Ok` when the plan makes the caller's change and nothing else; else
    /// what it would do that the caller did not ask for.
    pub(crate) fn run(&self) -> Result<(), String> {
        let reach = if self.takes_break_before { 2 } else { 0 };
        if self.splice.start + reach < self.region.start || self.splice.end > self.region.end {
            return Err("it would change bytes outside the matched lines".into());
        }
        let before = counts(self.before.iter().copied());
        let after = counts(self.after.iter().copied());
        let search = counts(self.search.iter().copied());
        let new = counts(self.new.iter().copied());
        let added = beyond(&after, &before);
        let removed = beyond(&before, &after);
        // Lines are compared without them, so they are noise for the match;
        // the file must not get them that way.
        if let Some(c) = self.invisible_written.first() {
            return Err(format!(
                "it would write an invisible character (U+{:04X}) the matched lines do not have; copy the lines without it",
                *c as u32
            ));
        }
        self.no_slip_written(&added)?;
        // A line read as a stale version of the file's line is that line
        // only if the caller does not know the file's line as another one:
        // whether the merge kept it as stale, or the alignment read a line
        // new_content keeps as it (new_content may write the file's line out
        // among lines the search hides, and the merge then takes the file's
        // line for that, leaving the caller's change a line off).
        let kept_misread = self
            .misread
            .iter()
            .filter(|(s, f)| s != f && self.new.contains(s));
        if let Some((caller, file)) = self
            .stale
            .iter()
            .chain(kept_misread)
            .find(|(_, f)| self.new.contains(f))
        {
            return Err(format!(
                "it reads `{}` as the file's `{}`, which new_content has as a line of its own",
                self.brief(caller),
                self.brief(file)
            ));
        }
        // A line the caller writes that the file has once, just outside the
        // lines matched, shows the caller's block there when the plan would
        // write it twice, or read the caller's copy of it as another line (a
        // line it keeps and leaves where it is is no harm).
        let misplaced = self
            .outside_once
            .iter()
            .find(|(k, _)| added.contains(k) || self.stale.iter().any(|(caller, _)| caller == k));
        if let Some((line, n)) = misplaced {
            return Err(format!(
                "`{}`, which new_content has, is line {n} of the file, just outside the lines matched: search_context seems to leave out the lines up to it",
                self.brief(line)
            ));
        }
        let mut caller_added = beyond(&new, &search);
        let mut caller_removed = beyond(&search, &new);

        // Each line new_content adds pays for one line removed: a rewrite of
        // a line the search removes is not also a hidden line written out.
        let (rewrites, mut unclaimed_added) = split_rewrites(&caller_removed, &caller_added);
        // Hidden lines the caller writes out as they are: for each two of
        // them, one more hidden line may be written out rewritten.
        let shown = self
            .before
            .iter()
            .filter(|b| self.new.contains(b) && !self.search.iter().any(|s| alike(s, b)))
            .count();
        let mut rewrites_left = shown / 2;
        for line in &added {
            if !take(&mut caller_added, line) {
                return Err(format!(
                    "it would write `{}`, which new_content does not add",
                    self.brief(line)
                ));
            }
        }
        let mut hidden_taken: HashMap<&str, usize> = HashMap::new();
        let mut in_place = if self.elided {
            self.replaced_in_place()
        } else {
            Vec::new()
        };
        for line in &removed {
            if take(&mut caller_removed, line) {
                continue;
            }
            // A line the caller never showed may go where new_content writes
            // it out: as it is (up to noise), or rewritten where a marker
            // told the caller it was there.
            // Hidden: the region has more copies of it than the search
            // shows (a `}` a marker stands for, beside the search's own).
            let hidden = copies(&self.before, line)
                > copies(&self.search, line) + hidden_taken.get(line).copied().unwrap_or(0);
            let similar =
                |a: &str| rapidfuzz::fuzz::ratio(a.chars(), line.chars()) >= COSTS.rewritten;
            // The line with words added at its end (a comment, say) is
            // that line rewritten, however short it is.
            let extends = |a: &str| a.len() > line.len() && a.starts_with(line);
            let rewritten = if hidden {
                unclaimed_added
                    .iter()
                    .position(|a| alike(a, line) || (self.elided && similar(a)))
                    .or_else(|| {
                        let (old, written) =
                            in_place.iter_mut().find(|(old, _)| old.contains(line))?;
                        old.swap_remove(old.iter().position(|o| o == line)?);
                        let (k, w) = unclaimed_added.iter().enumerate().find_map(|(k, a)| {
                            written.iter().position(|w| w == a).map(|w| (k, w))
                        })?;
                        written.swap_remove(w);
                        Some(k)
                    })
                    .or_else(|| {
                        (rewrites_left > 0)
                            .then(|| {
                                unclaimed_added
                                    .iter()
                                    .position(|a| similar(a) || extends(a))
                            })
                            .flatten()
                            .inspect(|_| rewrites_left -= 1)
                    })
            } else {
                None
            };
            match rewritten {
                Some(k) => {
                    unclaimed_added.swap_remove(k);
                    *hidden_taken.entry(line).or_insert(0) += 1;
                }
                None => {
                    return Err(format!(
                        "it would remove `{}`, which search_context does not remove",
                        self.brief(line)
                    ));
                }
            }
        }
        // A line the caller writes exactly as the region has it stays, as
        // many times as both have it: a look-alike left in its place (`#
        // comment` for `#comment`) is another line.
        for (line, n) in &new {
            let kept = (*n).min(before.get(line).copied().unwrap_or(0));
            if after.get(line).copied().unwrap_or(0) < kept {
                return Err(format!(
                    "`{}`, which new_content has as the file has it, would be removed",
                    self.brief(line)
                ));
            }
        }
        // By count, too: a line new_content has more often than the search
        // is added that many times, beside the copies of it the search
        // keeps that the region has. Else the plan took one copy for
        // another (the caller's added line for the file's own, where the
        // search shows the lines in another order) and one is lost.
        for (line, &n) in &new {
            let s = search.get(line).copied().unwrap_or(0);
            if n <= s {
                continue;
            }
            let want = n - s + s.min(copies(&self.before, line));
            if copies(&self.after, line) < want {
                return Err(format!(
                    "new_content has `{}` {n} times and search_context {s}, but the file would have it fewer times than that change asks",
                    self.brief(line)
                ));
            }
        }
        // A line the caller rewrote is in the file as the caller wrote it: a
        // look-alike there is the file's own version of the line, changed
        // since the caller read it (`module_disk` where the caller writes
        // `contains_next` on the line that had `module` and `contains`),
        // and keeping it would drop the caller's change. Both sides changed
        // the line: a conflict, refused as one.
        for line in &caller_added {
            let rewritten = rewrites.contains(line);
            if (rewritten && !self.after.contains(line)) || copies(&self.after, line) == 0 {
                return Err(format!(
                    "`{}`, which new_content adds, would not be in the file",
                    self.brief(line)
                ));
            }
        }
        self.in_place()?;
        self.not_the_file_s_next_lines()?;
        self.in_order()?;
        self.no_line_doubled()?;
        self.spacing.check(&|name| self.brief(name))?;
        self.depths.check(&|name| self.brief(name))?;
        // Around the region too: a line the caller removes that the plan
        // leaves just outside it was the caller's line, and the plan's place
        // is not the caller's.
        // A line the search misspells that new_content writes as the file
        // has it is no line removed: the caller corrected its copy.
        let corrected = |line: &str| {
            self.misread
                .iter()
                .any(|&(s, f)| s == line && self.new.contains(&f))
        };
        for line in caller_removed.iter().filter(|l| !corrected(l)) {
            if copies(&self.nearby_after, line) > copies(&self.new, line)
                && copies(&self.nearby, line) >= copies(&self.search, line)
            {
                return Err(format!(
                    "`{}`, which new_content removes, would stay in the file",
                    self.brief(line)
                ));
            }
            // The file's line the caller read as it (another version, by
            // the alignment or standing where it would), removed by the
            // caller in that reading, goes too: left, the file would have
            // both the old line and the caller's rewrite of it. (Unless
            // new_content has the file's line itself: the caller's rewrite
            // is then the file's version.)
            let read_as = self.misread.iter().find(|(s, f)| s == line && s != f);
            if let Some(&(_, file)) = read_as {
                let count = |lines: &[&str]| lines.iter().filter(|k| **k == file).count();
                if !self.new.contains(&file) && count(&self.nearby_after) >= count(&self.nearby) {
                    return Err(format!(
                        "it reads `{}` as the file's `{}`, which new_content removes or rewrites, and would leave that line in the file",
                        self.brief(line),
                        self.brief(file)
                    ));
                }
            }
        }
        Ok(())
    }
}

impl<'a> Check<'a> {
    /// `new_content`'s lines of text in order, markers left out.
    fn new_lines(&self) -> Vec<&str> {
        self.new_order
            .iter()
            .copied()
            .filter(|k| *k != MARKER_KEY)
            .collect()
    }

    /// Refuses when the plan puts a line `new_content` has elsewhere among
    /// the lines than `new_content` does: the lines of the region afterwards
    /// read as `new_content` in its order, but for the lines the caller never
    /// showed and the ones it keeps that the file lacks. A line that both
    /// sides have and that no common order pairs was moved by the plan, as
    /// when the search has two lines in another order than the file and the
    /// merge applies that order on top of the file's.
    fn in_order(&self) -> Result<(), String> {
        let new = self.new_lines();
        let (mut unplaced, mut moved) = (Vec::new(), Vec::new());
        for op in capture_diff_slices(Algorithm::Myers, &new, &self.after) {
            unplaced.extend(
                op.old_range()
                    .filter(|_| op.tag() != similar::DiffTag::Equal)
                    .map(|i| new[i]),
            );
            moved.extend(
                op.new_range()
                    .filter(|_| op.tag() != similar::DiffTag::Equal)
                    .map(|i| self.after[i]),
            );
        }
        match unplaced.iter().find(|k| moved.contains(k)) {
            Some(line) => Err(format!(
                "it would put `{}` elsewhere among the lines than new_content puts it",
                self.brief(line)
            )),
            None => Ok(()),
        }
    }

    /// Refuses when the plan leaves, among the lines it writes, two or more
    /// lines in a row, at least one of them written as new, that are the
    /// file's lines just past the region (or just before it), in that order:
    /// lines the caller writes that the file has right there show the
    /// caller's block going on past the lines matched, as a line the file
    /// has once does (see `outside_once`), and written again they stand in
    /// the file twice. A block repeated in the file cannot tell where the
    /// search stops; the lines the caller wrote out can. A run may end in
    /// lines the plan keeps: the search's last line, kept, can be the
    /// caller's copy of the next repetition's line, with the lines before it
    /// written anew.
    fn not_the_file_s_next_lines(&self) -> Result<(), String> {
        let (before, past) = (&self.edges.0, &self.edges.1);
        let written = self.written();
        let after = &self.after;
        let stands = |run: &[&str]| {
            (0..=after.len() - run.len()).any(|j| {
                after[j..j + run.len()] == *run && written[j..j + run.len()].contains(&true)
            })
        };
        let most = after.len();
        let found = (2..=most.min(past.len()))
            .rev()
            .find(|&n| stands(&past[..n]))
            .map(|n| (past[0], n, "past"))
            .or_else(|| {
                (2..=most.min(before.len()))
                    .rev()
                    .find(|&n| stands(&before[before.len() - n..]))
                    .map(|n| (before[before.len() - n], n, "before"))
            });
        if let Some((first, n, side)) = found {
            return Err(format!(
                "it would write {n} lines from `{}` on, which the file has just {side} the lines matched: search_context seems to stop short of them, and they would stand in the file twice",
                self.brief(first)
            ));
        }
        Ok(())
    }

    /// Refuses when the plan writes a line next to a copy of itself (blank
    /// lines aside, the lines just outside the region included) more often
    /// than the file had such a pair there and `new_content` has one: a line
    /// the caller adds at the edge of its text, beside the same line the
    /// file has just past the region, is the caller's view of that line as
    /// often as it is a new one.
    fn no_line_doubled(&self) -> Result<(), String> {
        let doubles =
            |lines: &[&'_ str]| -> usize { lines.windows(2).filter(|w| w[0] == w[1]).count() };
        let new = self.new_lines();
        if doubles(&self.nearby_after) > doubles(&self.nearby) + doubles(&new) {
            let line = self
                .nearby_after
                .windows(2)
                .find(|w| w[0] == w[1])
                .map_or("", |w| w[0]);
            return Err(format!(
                "it would leave two `{}` next to each other, which neither the file nor new_content has there",
                self.brief(line)
            ));
        }
        Ok(())
    }

    /// Every line the plan writes that the file did not have stands between
    /// the lines `new_content` puts it between: the same lines in another
    /// order are another edit.
    fn in_place(&self) -> Result<(), String> {
        let written = self.written();
        for i in (0..self.after.len()).filter(|&i| written[i]) {
            let line = self.after[i];
            let prev = i.checked_sub(1).map(|k| self.after[k]);
            let next = self.after.get(i + 1).copied();
            let placed = self
                .new_order
                .iter()
                .enumerate()
                .filter(|(_, k)| **k == line || alike(k, line))
                .any(|(j, _)| {
                    let want_prev = j.checked_sub(1).map(|k| self.new_order[k]);
                    let want_next = self.new_order.get(j + 1).copied();
                    fits(prev, want_prev, &self.nearby, &self.stale)
                        && fits(next, want_next, &self.nearby, &self.stale)
                });
            if !placed {
                return Err(format!(
                    "it would write `{}` between other lines than new_content puts it between",
                    self.brief(line)
                ));
            }
        }
        Ok(())
    }

    /// The lines the plan replaces where the caller wrote out the lines the
    /// search hides, hunk by hunk: (the region's lines replaced, the
    /// lines written that new_content puts between the very lines the plan
    /// leaves on either side of them). A hunk counts only between two lines
    /// the search hides and new_content writes out, so that the
    /// caller had the lines around it (a marker dropped for a new line, say,
    /// does not): its lines are the caller's rewrite, however much changed.
    fn replaced_in_place(&self) -> Vec<(Vec<&'a str>, Vec<&'a str>)> {
        let (bk, ak, order) = (
            text_keys(&self.before),
            text_keys(&self.after),
            text_keys(&self.new_order),
        );
        let between = |i: usize| {
            let (prev, next) = (i.checked_sub(1).map(|k| ak[k]), ak.get(i + 1).copied());
            (0..order.len()).any(|j| {
                order[j] == ak[i]
                    && j.checked_sub(1).map(|k| order[k]) == prev
                    && order.get(j + 1).copied() == next
                    && prev != Some(MARKER_KEY)
                    && next != Some(MARKER_KEY)
            })
        };
        let written_out = |k: Option<&&str>| {
            k.is_some_and(|k| {
                self.new.contains(k) && copies(&self.before, k) > copies(&self.search, k)
            })
        };
        let mut out = Vec::new();
        for op in capture_diff_slices(Algorithm::Myers, &bk, &ak) {
            if let DiffOp::Replace {
                old_index,
                old_len,
                new_index,
                new_len,
            } = op
                && written_out(old_index.checked_sub(1).and_then(|k| bk.get(k)))
                && written_out(bk.get(old_index + old_len))
            {
                out.push((
                    bk[old_index..old_index + old_len].to_vec(),
                    (new_index..new_index + new_len)
                        .filter(|&i| between(i))
                        .map(|i| ak[i])
                        .collect(),
                ));
            }
        }
        out
    }

    /// For each line of `after`, whether the plan writes it anew: a line a
    /// diff from the region as it was to as it would be inserts or replaces.
    fn written(&self) -> Vec<bool> {
        let mut written = vec![false; self.after.len()];
        for op in capture_diff_slices(Algorithm::Myers, &self.before, &self.after) {
            if matches!(op, DiffOp::Insert { .. } | DiffOp::Replace { .. }) {
                written[op.new_range()].iter_mut().for_each(|w| *w = true);
            }
        }
        written
    }
}
