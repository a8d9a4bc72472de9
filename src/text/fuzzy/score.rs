//! Scores between a search block and a stretch of the file, from 0 to 100.
//!
//! Both sides are compared in canonical form (see
//! [`super::normalize`]), non-blank lines joined with `\n`, with
//! rapidfuzz's Indel distance: the number of characters to insert or delete to
//! turn one into the other (a substituted character costs 2). The score is
//! `100 * (1 - distance / (len_a + len_b))`, rapidfuzz's `ratio`, floored to one
//! decimal so that a displayed score never rounds up past a threshold.
//!
//! 100 is kept for blocks that are byte-identical up to line endings; a block
//! that only differs in whitespace, indentation or look-alike characters scores
//! at most 99.9.

use rapidfuzz::distance::indel;

use super::block::Line;

/// The best score a match that is not byte-identical can get.
pub(crate) const TOLERANT_MAX: f64 = 99.9;

/// Precomputed comparison against one search string.
pub(crate) struct Scorer {
    comparator: indel::BatchComparator<char>,
    /// Length of the search string in chars.
    pub len: usize,
}

impl Scorer {
    /// Prepares to compare many strings against `search`.
    pub(crate) fn new(search: &str) -> Scorer {
        Scorer {
            comparator: indel::BatchComparator::new(search.chars()),
            len: search.chars().count(),
        }
    }

    /// Indel distance between the search string and `other`.
    pub(crate) fn distance(&self, other: &str) -> usize {
        self.comparator.distance(other.chars())
    }

    /// Indel distance if it is at most `max`.
    pub(crate) fn distance_within(&self, other: &str, max: usize) -> Option<usize> {
        self.comparator
            .distance_with_args(other.chars(), &indel::Args::default().score_cutoff(max))
    }
}

/// The 0–100 score of a distance between strings of `len_a` and `len_b` chars.
pub(crate) fn score_of(distance: usize, len_a: usize, len_b: usize) -> f64 {
    let total = len_a + len_b;
    if total == 0 {
        return TOLERANT_MAX;
    }
    let raw = 100.0 * (1.0 - distance as f64 / total as f64);
    ((raw * 10.0).floor() / 10.0).clamp(0.0, TOLERANT_MAX)
}

/// Indel distance of two lines in canonical form.
pub(crate) fn line_distance(a: &Line<'_>, b: &Line<'_>) -> usize {
    if a.same_as(b) {
        return 0;
    }
    indel::distance(a.canon.chars(), b.canon.chars())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_follow_the_ratio() {
        assert_eq!(score_of(0, 10, 10), TOLERANT_MAX);
        assert_eq!(score_of(2, 20, 20), 95.0);
        assert_eq!(score_of(40, 20, 20), 0.0);
        // 1 - 1/3 = 66.666…, floored, never rounded up
        assert_eq!(score_of(1, 1, 2), 66.6);
    }

    #[test]
    fn scorer_measures_indel_distance() {
        let scorer = Scorer::new("let total = 0;");
        assert_eq!(scorer.distance("let total = 0;"), 0);
        assert_eq!(scorer.distance("let totl = 0;"), 1);
        assert_eq!(scorer.distance("let tatal = 0;"), 2);
        assert_eq!(scorer.distance_within("something else entirely", 3), None);
    }
}
