//! Pinning a hunk that fits several places by the line numbers of the
//! hunks placed around it (see the parent module's doc, step 4).

use super::{File, Found, Placement};
use crate::text::edit::LineSpan;
use crate::text::patch::Hunk;

/// The one shift of their line numbers that gives every hunk of `pending`
/// exactly one of its places, if one does.
pub(super) fn common_offset(hunks: &[Hunk], pending: &[(usize, Vec<LineSpan>)]) -> Option<isize> {
    let (first, places) = pending.first()?;
    let start = hunks[*first].old_start? as isize;
    let mut fitting = places
        .iter()
        .map(|p| p.start as isize - start)
        .filter(|&delta| {
            pending.iter().all(|(i, places)| {
                hunks[*i].old_start.is_some_and(|s| {
                    places
                        .iter()
                        .filter(|p| p.start as isize == s as isize + delta)
                        .count()
                        == 1
                })
            })
        });
    let delta = fitting.next()?;
    fitting.next().is_none().then_some(delta)
}

impl File<'_> {
    /// The place of ambiguous hunk `i` that the placed hunks around it pin,
    /// if they pin one (see the module's doc, step 4).
    pub(super) fn pin(
        &self,
        hunks: &[Hunk],
        placed: &[Option<Placement>],
        i: usize,
        places: &[LineSpan],
        common: Option<isize>,
    ) -> Option<Placement> {
        let offset = |j: usize| -> Option<isize> {
            let p = placed[j].as_ref()?;
            let start = hunks[j].old_start?;
            (p.old.end >= p.old.start).then_some(p.old.start as isize - start as isize)
        };
        let before = (0..i).rev().find(|&j| placed[j].is_some());
        let after = (i + 1..hunks.len()).find(|&j| placed[j].is_some());
        let offsets: Vec<Option<isize>> = before.into_iter().chain(after).map(offset).collect();
        let first = match offsets.first() {
            Some(offset) => (*offset)?,
            None => common?,
        };
        if offsets.iter().any(|o| *o != Some(first)) {
            return None;
        }
        let expected = hunks[i].old_start? as isize + first;
        let mut fitting = places.iter().filter(|p| p.start as isize == expected);
        let chosen = *fitting.next()?;
        if fitting.next().is_some() {
            return None;
        }
        let low = before
            .and_then(|j| placed[j].as_ref())
            .map_or(1, |p| p.after());
        let high = after
            .and_then(|j| placed[j].as_ref())
            .map_or(self.count(), |p| p.old.start.saturating_sub(1));
        if chosen.start < low || chosen.end > high {
            return None;
        }
        match self.find(&hunks[i], chosen.start, chosen.end) {
            Found::Placed(p) if p.old == chosen => Some(Placement {
                by_line_numbers: true,
                ..p
            }),
            _ => None,
        }
    }
}
