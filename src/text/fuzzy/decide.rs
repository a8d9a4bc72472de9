//! The one decision rule: apply the cheapest place only when it is within the
//! threshold's budget and clearly cheaper than every rival, a place that
//! pairs none of its file lines. Anything else is refused: not found, or
//! ambiguous.
//!
//! Rivals are the other places the candidate search proposed (other blocks,
//! and the same search shifted onto look-alike lines), the places of every
//! other reading of the caller's texts, and the places around every other
//! copy of a search line the winner could not pair as it is. How many lines
//! a search hides, or how a place was found, is never evidence: the cost
//! of the alignment is, and so are how many of the search's lines a place
//! reads byte for byte, how many lines it reads as lost or gained since
//! the caller read the file, and whether it reads them at the caller's own
//! depth; a place ahead on any of them is not clearly worse.

use super::align::Step;
use super::costs::COSTS;
use super::places::{Drift, Literal, Place};

/// What to do with a set of places.
#[derive(Debug, Clone)]
pub(crate) enum Decision {
    /// Apply these places (indices), in text order.
    Apply(Vec<usize>),
    /// These places (or readings of one place) fit about equally well.
    Ambiguous(Vec<Place>),
    /// Under `replace_all`: these places fit but hold different text.
    Unlike(Vec<usize>),
    /// Nothing fits well enough; the closest, if any, and those as close.
    NotFound(Option<usize>, Vec<usize>),
}

/// Orders places best first: cheapest, then hiding fewest lines, then the
/// texts as sent before a reading with artifacts undone, then by position.
pub(crate) fn sort(places: &mut [Place]) {
    places.sort_by(|a, b| {
        a.alignment
            .cost
            .cmp(&b.alignment.cost)
            .then(a.alignment.hidden.cmp(&b.alignment.hidden))
            .then(a.reading.cmp(&b.reading))
            .then(a.alignment.region.start.cmp(&b.alignment.region.start))
    });
}

/// Whether `alternative`, another reading of the best place's own lines,
/// is close enough to it that the two must make the same edit.
pub(crate) fn close_reading(best: &Place, alternative: &Place) -> bool {
    !COSTS.clearly_better(best.alignment.cost, alternative.alignment.cost)
}

/// Whether `place` is within the threshold's budget (`threshold` 0–1).
pub(crate) fn within(place: &Place, threshold: f64) -> bool {
    place.alignment.edits <= COSTS.budget(threshold, place.weight)
}

/// The place a single match is decided on: the cheapest within the
/// threshold's budget. A cheaper place beyond the budget is not the search
/// at the caller's tolerance; if it is another block it still competes as a
/// rival (see [`single`]), and if it is another reading of the same lines
/// (the search's far lines left unpaired where `new_content` writes out the
/// lines between them) it is simply a worse fit, however few its edits.
pub(crate) fn best(places: &[Place], threshold: f64) -> Option<usize> {
    places.iter().position(|p| within(p, threshold))
}

/// The decision for one match among `places` (sorted by [`sort`]); `rivals`
/// are further places that compete with the best one; `open(k)` is the
/// search lines place `k` leaves unpaired at the search's edges.
///
/// Such a line is priced as a line removed since the caller read it, but
/// where the file goes on past the place with other lines, nothing shows
/// that it was removed rather than that the block is another one: a
/// sibling that reads like the caller's block and goes on otherwise (the
/// caller's block is the last before the closing `}`). A place that has
/// the line is then a rival however its other lines compare, as long as it
/// fits the threshold.
pub(crate) fn single(
    places: &[Place],
    rivals: &[Place],
    threshold: f64,
    open: impl Fn(usize) -> Vec<usize>,
    literal: impl Fn(&Place) -> Literal,
    drift: impl Fn(&Place) -> Drift,
) -> Decision {
    if places.is_empty() {
        return Decision::NotFound(None, Vec::new());
    }
    let Some(at) = best(places, threshold) else {
        let first = &places[0];
        let close = (1..places.len())
            .filter(|&k| {
                places[k].alignment.cost == first.alignment.cost && places[k].disjoint(first)
            })
            .collect();
        return Decision::NotFound(Some(0), close);
    };
    let best = &places[at];
    // Every disjoint place not clearly dearer is a rival, the cheaper
    // places beyond the budget included.
    let open = open(at);
    let best_literal = literal(best);
    let best_drift = drift(best);
    let near = |p: &&Place| {
        (!COSTS.clearly_better(best.alignment.cost, p.alignment.cost)
            && !drifts_where_best_does_not(best_drift, p, &drift))
            || closes_edge(best, &open, p, threshold)
            || reads_more_literally(best, &best_literal, p, &literal, threshold)
            || drifts_no_more(best, best_drift, p, &drift, threshold)
    };
    let tied: Vec<Place> = places
        .iter()
        .enumerate()
        .filter(|(k, _)| *k != at)
        .map(|(_, p)| p)
        .chain(rivals)
        .filter(|p| p.disjoint(best))
        .filter(near)
        .cloned()
        .collect();
    if tied.is_empty() {
        return Decision::Apply(vec![at]);
    }
    Decision::Ambiguous(std::iter::once(best.clone()).chain(tied).collect())
}

/// Whether `p` reads the caller's lines more literally than `best` does
/// (`read` is how `best` reads them), and fits the threshold: a rival
/// however its cost compares.
///
/// - More lines byte for byte. Noise costs nothing, so a look-alike that
///   differs from the search only in spaces within two lines is cheaper
///   than the caller's block with a line gone since it was read; yet the
///   caller's copy reads the other place literally, line for line.
/// - As many, and more of them lines `new_content` keeps: the kept lines
///   are the caller's claim, and a place that reads one of them otherwise
///   (a space inside a string) is not clearly the caller's block against
///   one that reads them all as claimed and differs on a line the caller
///   changes.
/// - A kept line `best` reads as another line (a stale line, allowed
///   once), read as it is by `p`: the caller remembers the line `p` has,
///   and a look-alike of the block it renamed since is as near as one
///   whose line changed.
///
/// A line read literally may be the file's line with the comment at its
/// end left out: the code is what the caller claims.
fn reads_more_literally(
    best: &Place,
    read: &Literal,
    p: &Place,
    literal: &impl Fn(&Place) -> Literal,
    threshold: f64,
) -> bool {
    if p.reading != best.reading || !within(p, threshold) {
        return false;
    }
    let p = literal(p);
    (p.lines, p.kept.len()) > (read.lines, read.kept.len())
        || read.stale.iter().any(|s| p.kept.contains(s))
}

/// Whether `best` reads a line as lost or gained since the caller read the
/// file, or reads the search at another depth than the caller's, and `p`
/// reads no more events of drift: a rival however its cost compares, as
/// long as it fits the threshold with each line it reads as lost priced as
/// a gained line is. A lost line costs its length, and the length of a line
/// says nothing of which block the caller read: a copy of the caller's
/// block that gained a line since is cheaper than the caller's own block
/// that lost a long one, yet each is one line away from what the caller
/// shows. Lost and differing lines count together: a line lost at the
/// block's edge is as well read as paired with the unlike line beside it
/// (`fn mine() {`), and which of the two the alignment takes says nothing
/// of the block. A shifted frame costs nothing, since a caller may send its
/// block shifted whole, yet it is an event of drift as a changed line is:
/// the caller's block at the search's own depth, one line changed since,
/// is as near as a twin one level away that reads every line as sent. Beyond
/// the threshold even so (two `}` paired, the search's one distinctive line
/// lost), it is no reading of the caller's block.
fn drifts_no_more(
    best: &Place,
    best_drift: Drift,
    p: &Place,
    drift: &impl Fn(&Place) -> Drift,
    threshold: f64,
) -> bool {
    if p.reading != best.reading {
        return false;
    }
    let lines = |d: Drift| d.unpaired + d.differing;
    // The frame counts only where `p` reads the caller's own depth: counted
    // for both, it would take from what a shifted rival may drift.
    let shifted = usize::from(best.offset != 0 && p.offset == 0);
    if best_drift.unpaired == 0 && shifted == 0 {
        return false;
    }
    let d = drift(p);
    lines(d) <= lines(best_drift) + shifted
        && p.alignment.edits.saturating_sub(d.lengths) <= COSTS.budget(threshold, p.weight)
}

/// Whether `best` reads every search line as the file has it (up to noise)
/// and every line it gains is one `new_content` writes out, while `p` must
/// read a line as lost, gained or changed since the caller read the file:
/// `p` is then clearly worse, whatever its cost. The cost of `best` may be
/// all the caller's own change to lines it writes out, which says nothing
/// against the place.
fn drifts_where_best_does_not(
    best_drift: Drift,
    p: &Place,
    drift: &impl Fn(&Place) -> Drift,
) -> bool {
    best_drift == Drift::default() && drift(p) != Drift::default()
}

/// Whether `p` pairs a line that `best` leaves unpaired at the search's
/// edge, `open`, and fits the threshold: a rival however its other lines
/// compare (see [`single`]).
fn closes_edge(best: &Place, open: &[usize], p: &Place, threshold: f64) -> bool {
    p.reading == best.reading
        && within(p, threshold)
        && p.alignment
            .steps
            .iter()
            .any(|step| matches!(*step, Step::Pair { s, .. } if open.contains(&s)))
}

/// The decision for `replace_all` among `places` (sorted by [`sort`]);
/// `content(k)` tells what text place `k` holds, and `open(k)` is as for
/// [`single`]: a place that holds other text and has a line the best one
/// lacks at the search's edge is not clearly worse.
pub(crate) fn all<K: PartialEq>(
    places: &[Place],
    threshold: f64,
    content: impl Fn(usize) -> K,
    open: impl Fn(usize) -> Vec<usize>,
) -> Decision {
    let fitting: Vec<usize> = (0..places.len())
        .filter(|&k| within(&places[k], threshold))
        .collect();
    if fitting.is_empty() {
        return single(
            places,
            &[],
            threshold,
            open,
            |_: &Place| Literal::default(),
            |_: &Place| Drift::default(),
        );
    }
    // Disjoint places, the better first.
    let mut kept: Vec<usize> = Vec::new();
    for &k in &fitting {
        let r = &places[k].alignment.region;
        if kept.iter().all(|&j| {
            let q = &places[j].alignment.region;
            r.end <= q.start || q.end <= r.start
        }) {
            kept.push(k);
        }
    }
    let best = kept[0];
    let exact: Vec<usize> = kept
        .iter()
        .copied()
        .filter(|&k| places[k].alignment.cost == 0)
        .collect();
    let chosen: Vec<usize> = if !exact.is_empty() {
        exact
    } else {
        let same: Vec<usize> = kept
            .iter()
            .copied()
            .filter(|&k| content(k) == content(best))
            .collect();
        let open = open(best);
        let others_clear = kept.iter().filter(|k| !same.contains(k)).all(|&k| {
            COSTS.clearly_better(places[best].alignment.cost, places[k].alignment.cost)
                && !closes_edge(&places[best], &open, &places[k], threshold)
        });
        if !others_clear {
            return Decision::Unlike(kept);
        }
        same
    };
    let mut chosen = chosen;
    chosen.sort_by_key(|&k| places[k].alignment.region.start);
    Decision::Apply(chosen)
}
