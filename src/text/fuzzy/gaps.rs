//! Blank lines between the lines a change keeps, removes and adds.
//!
//! Blank lines drift more than any other: an agent's memory of a file has one
//! too many or one too few, and `search_context` and `new_content` need not
//! agree with each other about them. So a blank line is never taken from the
//! search-to-new diff alone; the counts of one gap are reconciled with what
//! is on disk there:
//!
//! - a blank line of the search that matched a disk line (*seen*) and that
//!   `new_content` drops is removed;
//! - a blank line of the search that matched nothing on disk (*imagined*)
//!   cannot be removed, so dropping it changes nothing;
//! - a disk blank line the search did not have (*unseen*) stays, and a blank
//!   line `new_content` adds there is taken to be that line, not a second one;
//! - only blank lines `new_content` has beyond all of those are added.
//!
//! ```text
//! disk     search      new          result
//! a        a           a2           a2
//!          (blank)     (blank)      (blank)      one blank line: the search's
//! b        (blank)     b            b            second one was imagined
//!          b
//! ```

/// The blank lines of one gap as the search, the disk and `new_content` see
/// them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct GapCounts {
    /// Search blank lines paired with a disk blank line.
    pub seen: usize,
    /// Search blank lines paired with nothing on disk.
    pub imagined: usize,
    /// Disk blank lines no search line stands for.
    pub unseen: usize,
    /// Blank lines `new_content` has in the gap.
    pub new: usize,
}

impl GapCounts {
    /// How many blank lines the gap has after the edit.
    pub(crate) fn result(&self) -> usize {
        let removed = self.seen.saturating_sub(self.new);
        let added = self
            .new
            .saturating_sub(self.seen + self.imagined + self.unseen);
        self.seen + self.unseen - removed + added
    }
}

/// Splits `total` blank lines over the two ends of an insertion, starting
/// from what `new_content` has before (`lead`) and after (`trail`) it. The
/// inserted lines belong with the line on the other side of `side`: blank
/// lines beyond `new_content`'s go to `side`, and missing ones come off the
/// other end first (the end where the inserted lines meet the line they
/// belong with).
pub(crate) fn split_ends(total: usize, lead: usize, trail: usize, side: Side) -> (usize, usize) {
    let have = lead + trail;
    if total >= have {
        let extra = total - have;
        return match side {
            Side::Lead => (lead + extra, trail),
            Side::Trail => (lead, trail + extra),
        };
    }
    let cut = have - total;
    match side {
        Side::Trail => {
            let from_lead = cut.min(lead);
            (lead - from_lead, trail - (cut - from_lead))
        }
        Side::Lead => {
            let from_trail = cut.min(trail);
            (lead - (cut - from_trail), trail - from_trail)
        }
    }
}

/// An end of an inserted run of lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Side {
    /// Before the inserted lines.
    Lead,
    /// After them.
    Trail,
}

/// Which end of an insertion disk blank lines belong to when `new_content`
/// does not say: before the inserted lines when they are indented like the
/// line after them and unlike the line before (a new definition above the
/// next one), after them otherwise (a statement added after the previous
/// one).
pub(crate) fn side_of_insertion(
    before: Option<usize>,
    first_inserted: usize,
    after: Option<usize>,
) -> Side {
    match (before, after) {
        (Some(b), Some(a)) if first_inserted == a && first_inserted != b => Side::Lead,
        (None, Some(_)) => Side::Lead,
        _ => Side::Trail,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gap(seen: usize, imagined: usize, unseen: usize, new: usize) -> usize {
        GapCounts {
            seen,
            imagined,
            unseen,
            new,
        }
        .result()
    }

    #[test]
    fn an_imagined_blank_line_cannot_be_removed() {
        // Disk one, search two (one imagined), new one: still one.
        assert_eq!(gap(1, 1, 0, 1), 1);
        // New none: the seen one goes.
        assert_eq!(gap(1, 1, 0, 0), 0);
    }

    #[test]
    fn an_unseen_blank_line_stays_and_is_not_doubled() {
        assert_eq!(gap(0, 0, 1, 0), 1);
        assert_eq!(gap(0, 0, 1, 1), 1);
        assert_eq!(gap(0, 0, 1, 2), 2);
    }

    #[test]
    fn seen_blank_lines_follow_new_content() {
        assert_eq!(gap(2, 0, 0, 1), 1);
        assert_eq!(gap(1, 0, 0, 3), 3);
        assert_eq!(gap(0, 0, 0, 0), 0);
        assert_eq!(gap(1, 0, 1, 0), 1);
    }

    #[test]
    fn ends_of_an_insertion_share_the_blank_lines() {
        assert_eq!(split_ends(1, 0, 0, Side::Trail), (0, 1));
        assert_eq!(split_ends(2, 1, 0, Side::Lead), (2, 0));
        // A statement added after the previous one: the blank line the
        // search imagined before it goes, the one after it stays.
        assert_eq!(split_ends(2, 1, 2, Side::Trail), (0, 2));
        // A definition added before the next one: the other way round.
        assert_eq!(split_ends(1, 1, 1, Side::Lead), (1, 0));
        assert_eq!(split_ends(0, 1, 1, Side::Lead), (0, 0));
    }

    #[test]
    fn insertion_sides_follow_indentation() {
        assert_eq!(side_of_insertion(Some(8), 4, Some(4)), Side::Lead);
        assert_eq!(side_of_insertion(Some(4), 4, Some(4)), Side::Trail);
        assert_eq!(side_of_insertion(Some(4), 8, Some(4)), Side::Trail);
        assert_eq!(side_of_insertion(None, 0, Some(0)), Side::Lead);
        assert_eq!(side_of_insertion(Some(0), 0, None), Side::Trail);
    }
}
