//! When to apply and when to refuse.
//!
//! A silently wrong edit is the worst outcome, so the rules ask for clear
//! evidence and otherwise refuse with enough detail for a one-step fix.
//!
//! For `SingleMatch`:
//!
//! 1. Exact occurrences (bytes equal up to line endings) win outright when
//!    there is exactly one; two or more are ambiguous. (Decided by the caller of
//!    this module, before any tolerant matching.)
//! 2. *Normalized* candidates (distance 0: equal up to whitespace, indentation,
//!    blank lines and look-alike characters) win when there is exactly one:
//!    every other candidate would need a real text change to match. Two or more
//!    are ambiguous.
//! 3. Otherwise the best-scoring candidate must clear the threshold and beat
//!    every other candidate by the **margin**: a rival needs at least twice the
//!    winner's character edits and at least [`MIN_GAP`] more. Rivals closer
//!    than that make the edit ambiguous; a best score under the threshold is
//!    "not found".
//!
//! Why that margin: scores are normalized by length, so a fixed gap in points
//! means one thing for a two-line block and another for a fifty-line one; two
//! functions that differ in one identifier are 0.3 points apart when long.
//! Counting edits does not dilute. `MIN_GAP` = 4 Indel units is two substituted
//! characters: a search with one typo is then never taken to mean a block that
//! differs from it by a single character, and the factor of two keeps a noisy
//! search (many edits to its best place) from being resolved by a rival that is
//! only slightly noisier.
//!
//! For `ReplaceAll`: every normalized candidate is changed. Without any, the
//! fuzzy candidates above the threshold that hold the *same* text as the best
//! one (the search has a typo every copy shares) are changed, provided every
//! candidate with other text is beaten by the margin; a near miss with
//! different text is never rewritten.
//!
//! A chosen match can still be vetoed afterwards (by the matcher, which sees
//! the lines): when a search line that differs from its paired line reads
//! exactly like a line elsewhere in the file (it was copied from there, so it
//! is no typo), and when the edit would change a line that reads differently
//! on disk, is missing there, or would sweep away a line the search lacks
//! (the file changed since the caller read it).

use super::outcome::Strategy;

/// Least number of extra Indel edits (2 per substituted character) a rival
/// must need for the winner to be clear.
pub(crate) const MIN_GAP: usize = 4;

/// What the policy needs to know about a candidate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Summary {
    /// Indel distance to the search in canonical form.
    pub dist: usize,
    /// Score 0–100.
    pub score: f64,
    /// First and last file line (0-based, inclusive).
    pub region: (usize, usize),
    /// Hash of the candidate's canonical text.
    pub content: u64,
}

/// The policy's verdict, as indices into the candidates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Decision {
    /// Change these (in text order, never overlapping).
    Apply(Vec<usize>),
    /// These match about equally well.
    Ambiguous(Vec<usize>),
    /// Nothing matches well enough; the closest, if any.
    NotFound(Option<usize>),
}

/// Whether a rival at distance `rival` is clearly worse than a winner at
/// distance `winner`.
pub(crate) fn clearly_better(winner: usize, rival: usize) -> bool {
    rival >= winner + MIN_GAP.max(winner)
}

fn overlaps(a: (usize, usize), b: (usize, usize)) -> bool {
    a.0 <= b.1 && b.0 <= a.1
}

/// Candidates `order` that do not overlap an earlier one.
fn disjoint(cands: &[Summary], order: impl Iterator<Item = usize>) -> Vec<usize> {
    let mut kept: Vec<usize> = Vec::new();
    for i in order {
        if kept
            .iter()
            .all(|&k| !overlaps(cands[k].region, cands[i].region))
        {
            kept.push(i);
        }
    }
    kept.sort_by_key(|&i| cands[i].region.0);
    kept
}

/// Decides among tolerant candidates (exact occurrences are decided before).
/// `threshold` is 0–100.
pub(crate) fn decide(cands: &[Summary], strategy: Strategy, threshold: f64) -> Decision {
    let mut order: Vec<usize> = (0..cands.len()).collect();
    order.sort_by(|&a, &b| {
        cands[b]
            .score
            .total_cmp(&cands[a].score)
            .then(cands[a].dist.cmp(&cands[b].dist))
            .then(cands[a].region.0.cmp(&cands[b].region.0))
    });
    let Some(&best) = order.first() else {
        return Decision::NotFound(None);
    };
    let zero: Vec<usize> = order
        .iter()
        .copied()
        .filter(|&i| cands[i].dist == 0)
        .collect();
    let by_line = |mut v: Vec<usize>| {
        v.sort_by_key(|&i| cands[i].region.0);
        v
    };

    match strategy {
        Strategy::SingleMatch => {
            if zero.len() >= 2 {
                return Decision::Ambiguous(by_line(zero));
            }
            let winner = zero.first().copied().unwrap_or(best);
            if cands[winner].score < threshold {
                return Decision::NotFound(Some(winner));
            }
            if cands[winner].dist == 0 {
                return Decision::Apply(vec![winner]);
            }
            let rivals: Vec<usize> = order
                .iter()
                .copied()
                .filter(|&i| i != winner && !clearly_better(cands[winner].dist, cands[i].dist))
                .collect();
            if rivals.is_empty() {
                Decision::Apply(vec![winner])
            } else {
                Decision::Ambiguous(by_line([vec![winner], rivals].concat()))
            }
        }
        Strategy::ReplaceAll => {
            if !zero.is_empty() {
                if cands[zero[0]].score < threshold {
                    return Decision::NotFound(Some(zero[0]));
                }
                return Decision::Apply(disjoint(cands, zero.into_iter()));
            }
            if cands[best].score < threshold {
                return Decision::NotFound(Some(best));
            }
            let content = cands[best].content;
            let group: Vec<usize> = order
                .iter()
                .copied()
                .filter(|&i| cands[i].score >= threshold && cands[i].content == content)
                .collect();
            let worst = group.iter().map(|&i| cands[i].dist).max().unwrap_or(0);
            let rivals: Vec<usize> = order
                .iter()
                .copied()
                .filter(|i| !group.contains(i) && !clearly_better(worst, cands[*i].dist))
                .collect();
            if rivals.is_empty() {
                Decision::Apply(disjoint(cands, group.into_iter()))
            } else {
                Decision::Ambiguous(by_line([group, rivals].concat()))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(dist: usize, score: f64, at: usize, content: u64) -> Summary {
        Summary {
            dist,
            score,
            region: (at, at + 3),
            content,
        }
    }

    #[test]
    fn one_normalized_candidate_wins_over_close_fuzzy_ones() {
        let c = [s(2, 98.0, 0, 1), s(0, 99.9, 10, 2)];
        assert_eq!(
            decide(&c, Strategy::SingleMatch, 90.0),
            Decision::Apply(vec![1])
        );
    }

    #[test]
    fn two_normalized_candidates_are_ambiguous() {
        let c = [s(0, 99.9, 10, 1), s(0, 99.9, 0, 1)];
        assert_eq!(
            decide(&c, Strategy::SingleMatch, 90.0),
            Decision::Ambiguous(vec![1, 0])
        );
        assert_eq!(
            decide(&c, Strategy::ReplaceAll, 90.0),
            Decision::Apply(vec![1, 0])
        );
    }

    #[test]
    fn the_margin_separates_a_typo_from_a_near_duplicate() {
        // One typo (2) against a block that also differs in a name (2 + 6).
        let c = [s(2, 97.0, 0, 1), s(8, 91.0, 10, 2)];
        assert_eq!(
            decide(&c, Strategy::SingleMatch, 90.0),
            Decision::Apply(vec![0])
        );
        // A rival only one character further away is too close.
        let c = [s(2, 97.0, 0, 1), s(4, 95.0, 10, 2)];
        assert_eq!(
            decide(&c, Strategy::SingleMatch, 90.0),
            Decision::Ambiguous(vec![0, 1])
        );
        // Noisy winner: the rival must need twice the edits.
        let c = [s(10, 92.0, 0, 1), s(18, 90.5, 10, 2)];
        assert_eq!(
            decide(&c, Strategy::SingleMatch, 90.0),
            Decision::Ambiguous(vec![0, 1])
        );
    }

    #[test]
    fn below_the_threshold_is_not_found() {
        let c = [s(12, 85.0, 0, 1)];
        assert_eq!(
            decide(&c, Strategy::SingleMatch, 90.0),
            Decision::NotFound(Some(0))
        );
        assert_eq!(
            decide(&[], Strategy::SingleMatch, 90.0),
            Decision::NotFound(None)
        );
        let c = [s(0, 99.9, 0, 1)];
        assert_eq!(
            decide(&c, Strategy::SingleMatch, 100.0),
            Decision::NotFound(Some(0))
        );
    }

    #[test]
    fn replace_all_changes_only_copies_of_the_same_text() {
        let c = [s(2, 97.0, 0, 7), s(2, 97.0, 10, 7), s(20, 80.0, 20, 9)];
        assert_eq!(
            decide(&c, Strategy::ReplaceAll, 90.0),
            Decision::Apply(vec![0, 1])
        );
        let c = [s(2, 97.0, 0, 7), s(4, 95.0, 10, 8)];
        assert_eq!(
            decide(&c, Strategy::ReplaceAll, 90.0),
            Decision::Ambiguous(vec![0, 1])
        );
    }
}
