//! Placing hunks that fit several places by the line numbers of all the
//! hunks (see the parent module's doc, step 4).
//!
//! A reading of the diff gives every hunk one of its places, each below the
//! one before. It is credible when all its hunks but at most one sit at one
//! common distance from their headers' line numbers: the file may have
//! gained or lost lines above them all, and the caller may have miscounted
//! one hunk. A hunk placed by its text counts with the one place it has.
//! The ambiguous hunks are placed only when every credible reading places
//! them alike. Only distances between hunks enter, so a diff whose numbers
//! are all off by the same amount lands the same.
//!
//! ```text
//! places of hunk 0: lines 1, 4      header: line 1
//! places of hunk 1: line 13         header: line 10
//! ```
//!
//! Read at distance 3, both hunks fit (4, 13). Read at distance 0, hunk 0
//! fits at line 1 and hunk 1 is the miscounted one, still at 13. The two
//! readings differ on hunk 0: it is refused.

use super::Placement;
use crate::text::edit::LineSpan;
use crate::text::patch::Hunk;

/// What is known of one hunk: its places and its header's first old line.
struct Known {
    /// The one place of a hunk placed by its text, or every place of an
    /// ambiguous one.
    places: Vec<LineSpan>,
    /// The header's first old line, where it counts: a hunk with old lines
    /// and line numbers.
    start: Option<isize>,
    pending: bool,
}

/// The place of every hunk of `pending` (hunk index and places) that every
/// credible reading gives it, or the first of them that readings place
/// differently, or that no reading places.
pub(super) fn places_by_numbers(
    hunks: &[Hunk],
    placed: &[Option<Placement>],
    pending: &[(usize, Vec<LineSpan>)],
) -> Result<Vec<(usize, LineSpan)>, usize> {
    let known: Vec<Known> = (0..hunks.len())
        .map(|i| match &placed[i] {
            Some(p) => Known {
                places: vec![p.old],
                start: hunks[i]
                    .old_start
                    .filter(|_| p.old.end >= p.old.start)
                    .map(|s| s as isize),
                pending: false,
            },
            None => Known {
                places: pending
                    .iter()
                    .find(|(j, _)| *j == i)
                    .map(|(_, places)| places.clone())
                    .unwrap_or_default(),
                start: hunks[i].old_start.map(|s| s as isize),
                pending: true,
            },
        })
        .collect();
    let first_pending = pending.first().map_or(0, |(i, _)| *i);
    let mut distances: Vec<isize> = known
        .iter()
        .filter_map(|k| Some((k.start?, &k.places)))
        .flat_map(|(start, places)| places.iter().map(move |p| p.start as isize - start))
        .collect();
    distances.sort_unstable();
    distances.dedup();
    let mut found: Option<Vec<LineSpan>> = None;
    for distance in distances {
        for reading in readings(&known, distance) {
            match &found {
                None => found = Some(reading),
                Some(one) if *one == reading => {}
                Some(one) => {
                    let differs = (0..known.len())
                        .find(|&i| known[i].pending && one[i] != reading[i])
                        .unwrap_or(first_pending);
                    return Err(differs);
                }
            }
        }
    }
    let found = found.ok_or(first_pending)?;
    Ok(pending.iter().map(|(i, _)| (*i, found[*i])).collect())
}

/// The credible readings at `distance`, each in order: every hunk at that
/// distance from its numbers but at most one, which takes any of its places.
fn readings(known: &[Known], distance: isize) -> Vec<Vec<LineSpan>> {
    let at: Vec<Option<LineSpan>> = known
        .iter()
        .map(|k| match k.start {
            None => k.places.first().copied(),
            Some(start) => {
                let mut fitting = k
                    .places
                    .iter()
                    .filter(|p| p.start as isize == start + distance);
                match (fitting.next(), fitting.next()) {
                    (Some(p), None) => Some(*p),
                    _ => None,
                }
            }
        })
        .collect();
    let missing: Vec<usize> = (0..known.len()).filter(|&i| at[i].is_none()).collect();
    let with = |i: usize, p: LineSpan| -> Vec<LineSpan> {
        let mut reading: Vec<LineSpan> = at.iter().map(|a| a.unwrap_or(p)).collect();
        reading[i] = p;
        reading
    };
    let mut out: Vec<Vec<LineSpan>> = Vec::new();
    match missing.as_slice() {
        [] => {
            out.push(at.iter().map(|a| a.expect("every hunk fits")).collect());
            for (i, k) in known.iter().enumerate().filter(|(_, k)| k.pending) {
                out.extend(k.places.iter().map(|&p| with(i, p)));
            }
        }
        [i] => out.extend(known[*i].places.iter().map(|&p| with(*i, p))),
        _ => {}
    }
    out.retain(|reading| in_order(reading));
    out
}

/// Whether each place is below the one before it.
fn in_order(reading: &[LineSpan]) -> bool {
    reading.windows(2).all(|w| w[1].start > w[0].end)
}
