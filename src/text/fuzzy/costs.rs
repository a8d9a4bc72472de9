//! Every tuned number of the matcher in one place, each with its unit and
//! the reason for its value.
//!
//! Costs are counted in **edits**: the Indel distance between two lines in
//! canonical form (a character inserted or deleted is 1, a character
//! substituted is 2), and 1 for a line break. A line of the search with no
//! file line costs what typing it would: its characters and its break.
//! Scores are the same edits read as a similarity, 0–100, as rapidfuzz's
//! `ratio` reads them; the caller's threshold is a score.

/// The matcher's tuned numbers.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Costs {
    /// Edits for pairing two lines whose indentation disagrees with the frame
    /// the rest of the block is in (shifted by another amount). Small: only
    /// enough that of two equal lines the one at the right depth is paired
    /// (a closing `}` of the block rather than of an inner one).
    pub misframed: u32,
    /// Edits added to a pair of lines that differ beyond noise: a line
    /// remembered stale is an event of its own, beyond its characters. It
    /// keeps two unrelated lines that share their punctuation from pairing,
    /// and makes a verbatim copy of a search line nearby a close rival of a
    /// stale reading (see [`super::decide`]).
    pub stale_pair: u32,
    /// Most edits between two lines that can still be noise: two words, each
    /// with two substituted characters.
    pub noise_edits: u32,
    /// Edits for a blank line with no counterpart: its line break. Blank
    /// lines drift more than any other, and say nothing about place.
    pub blank: u32,
    /// Edits for a run of file lines the search lacks but `new_content`
    /// writes out, on top of each one's distance to the line that does: the
    /// caller has shown them, so they are no evidence against the place; 1
    /// is the break where the run opens. A run costs it once, not per line
    /// (an unmarked elision is one event, as a marker is): at any cost per
    /// line, a search that shows only a block's ends would fit better with
    /// its first line unpaired than across the lines it hides, once there
    /// are enough of them.
    pub written_out: u32,
    /// Edits for a hidden line of text (see [`super`] for the word) that
    /// `new_content` does not write out: the merge keeps it where it is. It
    /// is one event whatever its length, as a marker is; counted by its
    /// characters, a long line the caller's view skipped pushed a short
    /// search below the threshold, or made dropping the search's short edge
    /// lines (`}`) the cheaper reading. It is also the least a search line
    /// lost costs when places are ranked (see [`super::align`]), so that
    /// losing a `}` is never cheaper than gaining a line. 12 is what a line
    /// remembered stale with 6 edits costs (`stale_pair` on top): a line
    /// gained is as much drift as a line changed. On the real-file corpus 8
    /// and 16 each cost one right answer against 12, and none is a wrong
    /// edit.
    pub hidden_line: u32,
    /// Edits for pairing a search line with a file line that already reads
    /// as `new_content` rewrites it: the caller remembers the line before a
    /// change the file already has, and the file agrees with the caller.
    /// More than `written_out`, so that where the file still has the
    /// caller's line and `new_content` deletes it and writes out the next,
    /// the line reads as itself rather than as rewritten into its
    /// neighbour.
    pub agreed: u32,
    /// Edits for pairing a search line with the file line it copies but for
    /// the comment at the line's end: one, so that the place does not read
    /// as the search byte for byte, and no more, since a comment left out
    /// changes no byte of the code the caller claims (agents often copy
    /// code without its comments); counted by its characters, a long
    /// comment put the caller's own block past the threshold, or made
    /// losing the line the cheaper reading. Places are ranked with
    /// `stale_pair` on top: the line still differs from the file's.
    pub uncommented: u32,
    /// Least similarity (0–1) of a `new_content` line to a file line for it
    /// to count as that line written out (rewritten). 0.7 lets a line gain a
    /// parameter or change a name and still be recognised; below it, lines
    /// of one statement kind (`return x;`, `return y;`) start to look alike.
    pub rewritten: f64,
    /// Least similarity (0–1) of a `new_content` line to a search line for it
    /// to be taken for that line rewritten (for its indentation and line
    /// ending, and to judge the file's version of the line against it).
    /// Lower than `rewritten`: the caller's own rewrite of a line it shows
    /// may change more of it.
    pub paired_rewrite: f64,
    /// Factor a rival's cost must reach over the winner's for the winner to
    /// be clear: a rival needing twice the edits is another block, not the
    /// same block remembered a little worse.
    pub margin_factor: u32,
    /// Least difference in edits between the winner and any rival: two
    /// substituted characters. A search with one typo is then never taken to
    /// mean one of two blocks that differ by a single character.
    pub margin_min: u32,
    /// Lines `new_content` keeps unchanged that may differ from the file
    /// beyond noise (a line remembered stale). One is the drift an agent's
    /// memory makes; two are another block, or another version of the file.
    pub stale_kept: usize,
    /// A word typo: most Damerau–Levenshtein edits in a word of 4 to 7
    /// characters. Shorter words have no typos: `max`/`min`, `i`/`j` are
    /// other words.
    pub typo_short: usize,
    /// The same for words of 8 characters or more.
    pub typo_long: usize,
    /// Most words with a typo in one line for the line to still be noise.
    pub typos_per_line: usize,
    /// Most file lines an elision marker may stand for.
    pub max_hidden: usize,
    /// Most candidate places aligned in full (the rest are cheaper
    /// estimates that cannot win).
    pub aligned_places: usize,
    /// Most places proposed where `new_content` fits, when it writes out
    /// lines the search lacks: the right one ranks first nearly always, and
    /// a second keeps a look-alike copy of `new_content` from crowding it out.
    pub written_out_places: usize,
    /// Lines a window extends beyond a candidate's lines on each side, at
    /// least, so that a shifted or widened reading competes in the same
    /// alignment.
    pub window_margin: usize,
    /// Most places a search line that found no pair is looked up elsewhere
    /// (each such place becomes a rival).
    pub elsewhere_places: usize,
    /// Most copies in new_content of the search's first (last) line that are
    /// each read as that line, a rival reading of where new_content goes on
    /// past the search: past a few, a line repeated that often (`}`) says
    /// nothing of where the caller's block ends.
    pub end_copies: usize,
    /// Most alignments in one window: when another copy of the block takes
    /// the window's alignment, it is aligned again without that copy, as
    /// often as there are margin lines on a side for a copy to sit in.
    pub realigned_windows: usize,
    /// Most line pairs compared to tell whether another copy of an end line
    /// is a reading of the caller's change (each pair a similarity): a
    /// quarter of a million keeps it within milliseconds; past it, the
    /// diff's own reading stands alone.
    pub rewrite_pairs: usize,
    /// Places besides the best one named when the search's pieces between
    /// markers have more copies in the file than are aligned: enough to
    /// show the agent the copies look alike, few enough to read.
    pub crowded_shown: usize,
}

/// The costs in use.
pub(crate) const COSTS: Costs = Costs {
    misframed: 1,
    stale_pair: 6,
    noise_edits: 8,
    blank: 1,
    written_out: 1,
    hidden_line: 12,
    agreed: 2,
    uncommented: 1,
    rewritten: 0.7,
    paired_rewrite: 0.5,
    margin_factor: 2,
    margin_min: 4,
    stale_kept: 1,
    typo_short: 1,
    typo_long: 2,
    typos_per_line: 2,
    max_hidden: 5_000,
    aligned_places: 12,
    written_out_places: 2,
    window_margin: 3,
    elsewhere_places: 8,
    end_copies: 4,
    realigned_windows: 3,
    crowded_shown: 2,
    rewrite_pairs: 250_000,
};

impl Costs {
    /// Whether a winner at `winner` edits is clearly ahead of a rival at
    /// `rival` edits.
    pub(crate) fn clearly_better(&self, winner: u32, rival: u32) -> bool {
        rival >= winner.saturating_mul(self.margin_factor) && rival >= winner + self.margin_min
    }

    /// The 0–100 score of `cost` edits against texts of `weight` edits in all
    /// (search and file region together), floored to one decimal so that a
    /// shown score never rounds up past a threshold; 99.9 at most, since
    /// 100 is kept for exact matches.
    pub(crate) fn score(&self, cost: u32, weight: u32) -> f64 {
        if weight == 0 {
            return 99.9;
        }
        let raw = 100.0 * (1.0 - f64::from(cost) / f64::from(weight));
        ((raw * 10.0).floor() / 10.0).clamp(0.0, 99.9)
    }

    /// Most edits a placement of `weight` may cost under a threshold of
    /// `threshold` (0–1).
    pub(crate) fn budget(&self, threshold: f64, weight: u32) -> u32 {
        // The small addition keeps 1 - 0.9 = 0.0999… from losing an edit.
        ((1.0 - threshold) * f64::from(weight) + 1e-9).floor() as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rival_must_need_twice_the_edits_and_four_more() {
        assert!(COSTS.clearly_better(0, 4));
        assert!(!COSTS.clearly_better(0, 3));
        assert!(COSTS.clearly_better(10, 20));
        assert!(!COSTS.clearly_better(10, 19));
    }

    #[test]
    fn scores_floor_and_budgets_follow_the_threshold() {
        assert_eq!(COSTS.score(0, 100), 99.9);
        assert_eq!(COSTS.score(10, 100), 90.0);
        assert_eq!(COSTS.score(1, 3), 66.6);
        assert_eq!(COSTS.budget(0.9, 100), 10);
        assert_eq!(COSTS.budget(1.0, 100), 0);
    }
}
