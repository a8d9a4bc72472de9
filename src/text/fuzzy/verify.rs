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
//! - every line `new_content` adds is in the region afterwards;
//! - no line `search_context` removes is left in more copies than
//!   `new_content` has;
//! - nothing outside the region changes.
//!
//! A plan that fails is refused, never written. This is the net for the
//! cases where the model that made the plan is wrong.

use std::collections::HashMap;
use std::ops::Range;

use similar::{Algorithm, DiffOp, capture_diff_slices};

use super::costs::COSTS;
use super::likeness::{Likeness, likeness};
use super::rows::Row;

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

/// What a marker's line is in [`Check::new_order`]: any lines may stand
/// next to it.
pub(crate) const MARKER: &str = "\u{1}marker";

/// Whether `got`, a neighbour in the file after the edit, is the neighbour
/// `want` that `new_content` gives; the region's edges and markers stand for
/// lines the check does not see. Up to a typo only where the file has no
/// line that is exactly `want`: of two look-alike lines, the one the caller
/// wrote is the one meant.
fn fits(got: Option<&str>, want: Option<&str>, file: &[&str], stale: &[(&str, &str)]) -> bool {
    match (got, want) {
        (_, Some(MARKER)) | (None, _) | (_, None) => true,
        (Some(a), Some(b)) => {
            a == b || (!file.contains(&b) && alike(a, b)) || stale.contains(&(b, a))
        }
    }
}

fn brief(key: &str) -> String {
    crate::text::excerpt::brief(key).to_string()
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
    /// Keys of `new_content`'s lines in order, markers as [`MARKER`].
    pub new_order: Vec<&'a str>,
    /// Lines the caller keeps that the file has in another version (a line
    /// remembered stale), as (the caller's key, the file's key).
    pub stale: Vec<(&'a str, &'a str)>,
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
}

impl Check<'_> {
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
        let mut caller_added = beyond(&new, &search);
        let mut caller_removed = beyond(&search, &new);

        let mut unclaimed_added: Vec<&str> = caller_added.clone();
        // Unseen lines the caller writes out as they are: for each two of
        // them, one more unseen line may be written out rewritten.
        let shown = self
            .before
            .iter()
            .filter(|b| !self.search.iter().any(|s| alike(s, b)) && self.new.contains(b))
            .count();
        let mut rewrites_left = shown / 2;
        for line in &added {
            if !take(&mut caller_added, line) {
                return Err(format!(
                    "it would write `{}`, which new_content does not add",
                    brief(line)
                ));
            }
        }
        for line in &removed {
            if take(&mut caller_removed, line) {
                continue;
            }
            // A line the caller never showed may go where new_content writes
            // it out: as it is (up to noise), or rewritten where a marker
            // told the caller it was there.
            let unseen = !self.search.iter().any(|s| alike(s, line));
            let similar =
                |a: &str| rapidfuzz::fuzz::ratio(a.chars(), line.chars()) >= COSTS.rewritten;
            let rewritten = if unseen {
                unclaimed_added
                    .iter()
                    .position(|a| alike(a, line) || (self.elided && similar(a)))
                    .or_else(|| {
                        (rewrites_left > 0)
                            .then(|| unclaimed_added.iter().position(|a| similar(a)))
                            .flatten()
                            .inspect(|_| rewrites_left -= 1)
                    })
            } else {
                None
            };
            match rewritten {
                Some(k) => {
                    unclaimed_added.swap_remove(k);
                }
                None => {
                    return Err(format!(
                        "it would remove `{}`, which search_context does not remove",
                        brief(line)
                    ));
                }
            }
        }
        for line in &caller_added {
            if copies(&self.after, line) == 0 {
                return Err(format!(
                    "`{}`, which new_content adds, would not be in the file",
                    brief(line)
                ));
            }
        }
        self.in_place()?;
        // Around the region too: a line the caller removes that the plan
        // leaves just outside it was the caller's line, and the plan's place
        // is not the caller's.
        for line in &caller_removed {
            if copies(&self.nearby_after, line) > copies(&self.new, line)
                && copies(&self.nearby, line) >= copies(&self.search, line)
            {
                return Err(format!(
                    "`{}`, which new_content removes, would stay in the file",
                    brief(line)
                ));
            }
        }
        Ok(())
    }
}

impl Check<'_> {
    /// Every line the plan writes that the file did not have stands between
    /// the lines `new_content` puts it between: the same lines in another
    /// order are another edit.
    fn in_place(&self) -> Result<(), String> {
        for op in capture_diff_slices(Algorithm::Myers, &self.before, &self.after) {
            let written = match op {
                DiffOp::Insert {
                    new_index, new_len, ..
                }
                | DiffOp::Replace {
                    new_index, new_len, ..
                } => new_index..new_index + new_len,
                _ => continue,
            };
            for i in written {
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
                        brief(line)
                    ));
                }
            }
        }
        Ok(())
    }
}

/// The keys of the rows with text.
pub(crate) fn keys<'a>(rows: &'a [Row<'_>]) -> Vec<&'a str> {
    rows.iter()
        .filter(|r| !r.is_blank())
        .map(|r| r.key.as_str())
        .collect()
}

/// The keys of rows in order, blank lines left out and markers as
/// [`MARKER`].
pub(crate) fn order_of<'a>(rows: &'a [Row<'a>], markers: &[bool]) -> Vec<&'a str> {
    rows.iter()
        .zip(markers)
        .filter(|(r, m)| **m || !r.is_blank())
        .map(|(r, m)| if *m { MARKER } else { r.key.as_str() })
        .collect()
}

/// The keys of rows, markers and blank lines left out.
pub(crate) fn keys_of<'a>(rows: &'a [Row<'a>], markers: &[bool]) -> Vec<&'a str> {
    rows.iter()
        .zip(markers)
        .filter(|(r, m)| !**m && !r.is_blank())
        .map(|(r, _)| r.key.as_str())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check<'a>(
        before: &[&'a str],
        after: &[&'a str],
        search: &[&'a str],
        new: &[&'a str],
    ) -> Result<(), String> {
        Check {
            before: before.to_vec(),
            after: after.to_vec(),
            search: search.to_vec(),
            new: new.to_vec(),
            new_order: new.to_vec(),
            stale: vec![],
            nearby: before.to_vec(),
            nearby_after: after.to_vec(),
            splice: 10..20,
            region: 10..20,
            elided: true,
            takes_break_before: false,
        }
        .run()
    }

    #[test]
    fn the_caller_s_change_passes() {
        assert_eq!(
            check(
                &["a", "b ;", "c"],
                &["a", "b2 ;", "c"],
                &["a", "b ;", "c"],
                &["a", "b2 ;", "c"]
            ),
            Ok(())
        );
        // A typo in the search, a stale line the caller keeps.
        assert_eq!(
            check(
                &["let total = 1 ;", "go ( )", "now ( )"],
                &["let total = 2 ;", "go ( )", "now ( )"],
                &["let totl = 1 ;", "go ( )", "then ( )"],
                &["let totl = 2 ;", "go ( )", "then ( )"]
            ),
            Ok(())
        );
    }

    #[test]
    fn numbers_written_into_the_file_fail() {
        let err = check(
            &["a = 1", "b = 2"],
            &["a = 1", "13 : b = 3"],
            &["12 : a = 1", "13 : b = 2"],
            &["12 : a = 1", "13 : b = 3"],
        )
        .unwrap_err();
        assert!(err.contains("remove `b = 2`"), "{err}");
    }

    #[test]
    fn a_look_alike_edited_instead_fails() {
        let err = check(
            &["other_name ( x )", "common ( )"],
            &["other_name ( y )", "common ( )"],
            &["gone_name ( x )", "common ( )"],
            &["gone_name ( y )", "common ( )"],
        )
        .unwrap_err();
        assert!(err.contains("would write `other_name ( y )`"), "{err}");
    }

    #[test]
    fn a_change_not_made_fails() {
        let err = check(&["a", "b"], &["a", "b"], &["a", "b"], &["a", "b", "c"]).unwrap_err();
        assert!(err.contains("`c`"), "{err}");
        let err = check(&["a", "b"], &["a", "b"], &["a", "b"], &["a"]).unwrap_err();
        assert!(err.contains("would stay"), "{err}");
    }

    #[test]
    fn bytes_outside_the_region_fail() {
        let c = Check {
            before: vec![],
            after: vec![],
            search: vec![],
            new: vec![],
            new_order: vec![],
            stale: vec![],
            nearby: vec![],
            nearby_after: vec![],
            splice: 5..20,
            region: 10..20,
            elided: false,
            takes_break_before: false,
        };
        assert!(c.run().is_err());
    }

    #[test]
    fn the_caller_s_lines_in_another_order_fail() {
        let err = check(
            &["a", "b", "c"],
            &["a", "b", "x", "c"],
            &["a", "b", "c"],
            &["a", "x", "b", "c"],
        )
        .unwrap_err();
        assert!(err.contains("between other lines"), "{err}");
        // Next to a look-alike of the line the caller wrote, while the file
        // has that very line.
        let err = check(
            &["le16 = u16", "be16 = u16", "c"],
            &["le16 = u16", "be16 = u16", "x", "c"],
            &["le16 = u16", "c"],
            &["le16 = u16", "x", "c"],
        )
        .unwrap_err();
        assert!(err.contains("between other lines"), "{err}");
    }

    #[test]
    fn an_unseen_line_goes_only_as_written_out_or_under_a_marker() {
        let mut c = Check {
            before: vec!["a", "audit cache 324", "b"],
            after: vec!["a", "audit cache 325", "b"],
            search: vec!["a", "b"],
            new: vec!["a", "audit cache 325", "b"],
            new_order: vec!["a", "audit cache 325", "b"],
            stale: vec![],
            nearby: vec!["a", "audit cache 324", "b"],
            nearby_after: vec!["a", "audit cache 325", "b"],
            splice: 10..20,
            region: 10..20,
            elided: false,
            takes_break_before: false,
        };
        let err = c.run().unwrap_err();
        assert!(err.contains("would remove"), "{err}");
        c.elided = true;
        c.new_order = vec!["a", MARKER, "audit cache 325", "b"];
        assert_eq!(c.run(), Ok(()));
    }
}
