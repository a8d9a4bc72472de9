//! A set of line numbers asked for as ranges, kept as merged intervals.
//!
//! Ranges may repeat and overlap (`1-200000` three thousand times is a short
//! request); they are sorted and merged before any line is looked at, so the
//! work and memory follow the number of ranges and the lines returned, never
//! the lines named.
//!
//! ```
//! use mcp_server_text::text::line_set::LineSet;
//!
//! let set = LineSet::from_ranges([(5, 8), (1, 2), (3, 3), (7, 10), (20, 20)]);
//! assert_eq!(set.intervals(), &[(1, 3), (5, 10), (20, 20)]);
//! assert_eq!(set.len(), 10);
//! assert_eq!(set.lines().take(4).collect::<Vec<_>>(), vec![1, 2, 3, 5]);
//! ```

/// Line numbers as sorted, disjoint, non-adjacent inclusive intervals.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LineSet {
    intervals: Vec<(usize, usize)>,
}

impl LineSet {
    /// The union of inclusive ranges `(first, last)`; a range with
    /// `last < first` adds nothing.
    pub fn from_ranges(ranges: impl IntoIterator<Item = (usize, usize)>) -> LineSet {
        let mut ranges: Vec<(usize, usize)> = ranges.into_iter().filter(|(a, b)| a <= b).collect();
        ranges.sort_unstable();
        let mut intervals: Vec<(usize, usize)> = Vec::with_capacity(ranges.len());
        for (first, last) in ranges {
            match intervals.last_mut() {
                Some((_, end)) if first <= end.saturating_add(1) => *end = (*end).max(last),
                _ => intervals.push((first, last)),
            }
        }
        LineSet { intervals }
    }

    /// The merged intervals, in order.
    pub fn intervals(&self) -> &[(usize, usize)] {
        &self.intervals
    }

    /// How many lines the set holds.
    pub fn len(&self) -> usize {
        self.intervals
            .iter()
            .map(|(a, b)| b - a + 1)
            .fold(0, usize::saturating_add)
    }

    /// Whether the set holds no line.
    pub fn is_empty(&self) -> bool {
        self.intervals.is_empty()
    }

    /// The lines in order, each once.
    pub fn lines(&self) -> impl Iterator<Item = usize> + '_ {
        self.intervals.iter().flat_map(|&(a, b)| a..=b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn repeated_huge_ranges_stay_one_interval() {
        let set = LineSet::from_ranges(std::iter::repeat_n((1, 200_000), 3_000));
        assert_eq!(set.intervals(), &[(1, 200_000)]);
        assert_eq!(set.len(), 200_000);
        assert_eq!(set.lines().nth(499), Some(500));
    }

    #[test]
    fn adjacent_ranges_join_and_reversed_ones_add_nothing() {
        let set = LineSet::from_ranges([(4, 6), (1, 3), (9, 8)]);
        assert_eq!(set.intervals(), &[(1, 6)]);
        assert!(LineSet::from_ranges([(2, 1)]).is_empty());
        assert_eq!(
            LineSet::from_ranges([(1, usize::MAX), (5, 5)]).len(),
            usize::MAX
        );
    }

    proptest! {
        #[test]
        fn holds_exactly_the_lines_of_its_ranges(
            ranges in proptest::collection::vec((1usize..60, 0usize..12), 0..12)
        ) {
            let ranges: Vec<(usize, usize)> = ranges.into_iter().map(|(a, n)| (a, a + n)).collect();
            let set = LineSet::from_ranges(ranges.clone());
            let mut expected: Vec<usize> = ranges.iter().flat_map(|&(a, b)| a..=b).collect();
            expected.sort_unstable();
            expected.dedup();
            prop_assert_eq!(set.lines().collect::<Vec<_>>(), expected.clone());
            prop_assert_eq!(set.len(), expected.len());
            for pair in set.intervals().windows(2) {
                prop_assert!(pair[0].1 + 1 < pair[1].0);
            }
        }
    }
}
