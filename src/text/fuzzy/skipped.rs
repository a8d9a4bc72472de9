//! A search that gives the first and the last lines of a block and leaves
//! out the middle without a marker.
//!
//! Agents often send the head of a block and its tail and write the whole
//! block out in `new_content`. Scored as one block such a search misses the
//! threshold (the middle is missing), yet where it is is clear when the head
//! and the tail each occur exactly once (up to whitespace and look-alikes),
//! the tail some lines after the head. The lines between are then opened up
//! like the lines of an elision marker: `new_content` must write them out,
//! or the edit is refused as the miss it was.

use std::ops::Range;

use super::block::Lines;

/// At most this many non-blank lines may lie between the head and the tail.
const MAX_SKIPPED: usize = 200;

/// Where a search that skipped a middle fits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct HeadAndTail {
    /// `(search line, file line)` pairs of the head's and the tail's lines.
    pub pairs: Vec<(usize, usize)>,
    /// The last search line of the head.
    pub after: usize,
    /// The file lines between the head and the tail.
    pub skipped: Range<usize>,
}

/// The one way to split `search` into a head and a tail that each occur
/// once in `file`, in order, with lines between them; `None` if there is no
/// such split or more than one.
pub(crate) fn head_and_tail(search: &Lines<'_>, file: &Lines<'_>) -> Option<HeadAndTail> {
    let n = search.nonblank.len();
    let total = file.nonblank.len();
    if n < 2 || total < n + 1 {
        return None;
    }
    let same = |k: usize, p: usize| file.nb(p).same_as(search.nb(k));
    // Heads: for each length, the places the first lines occur.
    let mut heads: Vec<Vec<usize>> = Vec::with_capacity(n);
    let mut places: Vec<usize> = (0..total).filter(|&p| same(0, p)).collect();
    heads.push(places.clone());
    for k in 1..n {
        places.retain(|&p| p + k < total && same(k, p + k));
        heads.push(places.clone());
    }
    // Tails: for each first line, the places the lines from there on occur.
    let mut tails: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut places: Vec<usize> = (0..total).filter(|&p| same(n - 1, p)).collect();
    tails[n - 1] = places.clone();
    for k in (0..n - 1).rev() {
        places = places
            .into_iter()
            .filter_map(|p| p.checked_sub(1))
            .filter(|&p| same(k, p))
            .collect();
        tails[k] = places.clone();
    }
    let mut found = None;
    for split in 1..n {
        let (&[h], &[t]) = (heads[split - 1].as_slice(), tails[split].as_slice()) else {
            continue;
        };
        let head_end = h + split;
        if t <= head_end || t - head_end > MAX_SKIPPED {
            continue;
        }
        if found.is_some() {
            return None;
        }
        found = Some((split, h, t));
    }
    let (split, h, t) = found?;
    let pairs = (0..n)
        .map(|k| {
            let p = if k < split { h + k } else { t + (k - split) };
            (search.nonblank[k], file.nonblank[p])
        })
        .collect();
    let after = search.nonblank[split - 1];
    let skipped = file.nonblank[h + split - 1] + 1..file.nonblank[t];
    Some(HeadAndTail {
        pairs,
        after,
        skipped,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::lines::LineIndex;

    fn fit(text: &str, search: &str) -> Option<HeadAndTail> {
        let index = LineIndex::new(text);
        let file = Lines::of_text(text, &index);
        head_and_tail(&Lines::of_snippet(search), &file)
    }

    #[test]
    fn a_head_and_a_tail_around_a_middle_are_found() {
        let text = "fn a() {\n    one();\n    two();\n    three();\n}\n\nfn b() {}\n";
        let found = fit(text, "fn a() {\n    one();\n}\n").unwrap();
        assert_eq!(found.pairs, vec![(0, 0), (1, 1), (2, 4)]);
        assert_eq!(found.after, 1);
        assert_eq!(found.skipped, 2..4);
    }

    #[test]
    fn a_tail_that_occurs_twice_is_no_fit() {
        let text = "def a():\n    x = 1\n    y = 2\n    return x\n\ndef b():\n    return x\n";
        assert_eq!(fit(text, "def a():\n    return x\n"), None);
    }

    #[test]
    fn a_block_without_a_gap_is_no_fit() {
        assert_eq!(fit("a\nb\nc\n", "a\nb\n"), None);
    }
}
