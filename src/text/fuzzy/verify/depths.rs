//! The re-read's rules for indentation:
//!
//! - every line the plan writes stands, to the lines of `new_content` just
//!   before and after it, as `new_content` has it: deeper, as deep, or less
//!   deep;
//! - a line the caller keeps at its depths keeps its depths in the file: of
//!   the lines that read alike (every `}`), the plan re-indents none where
//!   the caller re-indents none.
//!
//! Lines are compared as keys, so indentation is invisible to the rest of
//! the re-read; yet a line written one level off changes what a program
//! means (a statement moved out of its block) while every key is right. The
//! direction, not the width, is compared: the file may indent with other
//! units than the caller (tabs, two spaces), and drift may shift the
//! caller's whole text.

use std::cmp::Ordering;

use similar::{Algorithm, DiffOp, capture_diff_slices};

use super::blank_runs::kept;

/// The search, `new_content` and the region before and after the edit, line
/// by line (blank lines as `""`, markers as any line), with each line's
/// indentation in columns.
pub(crate) struct Depths<'a> {
    pub search: Vec<(&'a str, usize)>,
    pub new: Vec<(&'a str, usize)>,
    pub before: Vec<(&'a str, usize)>,
    pub after: Vec<(&'a str, usize)>,
    /// The depths of the file's nearest lines of text just before the
    /// region and just past it, if any.
    pub outside: (Option<usize>, Option<usize>),
}

impl Depths<'_> {
    /// `Ok` when every written line is indented, to the lines beside it, as
    /// `new_content` indents it, and no line the caller keeps at its depths
    /// is re-indented; else which line is not (`brief` shows a line in the
    /// message).
    pub(crate) fn check(&self, brief: &dyn Fn(&str) -> String) -> Result<(), String> {
        self.kept_depths(brief)?;
        self.marks_in_frame(brief)?;
        self.edges_in_frame(brief)?;
        let new: Vec<&str> = self.new.iter().map(|l| l.0).collect();
        let before: Vec<&str> = self.before.iter().map(|l| l.0).collect();
        let after: Vec<&str> = self.after.iter().map(|l| l.0).collect();
        let stayed: Vec<usize> = kept(&before, &after, None)
            .into_iter()
            .map(|(_, a)| a)
            .collect();
        let written = kept(&new, &after, None);
        // A first line that lost its indentation in both of the caller's
        // texts, where the file indents it, is a selection that began after
        // the indent: its depth says nothing (as for the indentation map).
        let first = |lines: &[(&str, usize)]| lines.iter().position(|l| !l.0.is_empty());
        let lost_first = first(&self.new).filter(|&n| {
            let width = |lines: &[(&str, usize)]| first(lines).map(|i| lines[i].1);
            self.new[n].1 == 0 && width(&self.search) == Some(0) && width(&self.before) > Some(0)
        });
        for (k, &(n, a)) in written.iter().enumerate().skip(1) {
            let (n0, a0) = written[k - 1];
            // Two lines the plan leaves where they are stand as the file has
            // them. A line it writes stands to the line before it as
            // new_content has it, and to a line it leaves just after it too:
            // else the plan kept the wrong one of two lines that read alike
            // at other depths.
            if stayed.contains(&a)
                && (stayed.contains(&a0) || n != n0 + 1 || lost_first == Some(n0))
            {
                continue;
            }
            let want = self.new[n].1.cmp(&self.new[n0].1);
            let got = self.after[a].1.cmp(&self.after[a0].1);
            if want != got {
                return Err(format!(
                    "it would indent `{}` {} `{}`, where new_content indents it {}",
                    brief(after[a]),
                    word(got),
                    brief(after[a0]),
                    word(want)
                ));
            }
        }
        Ok(())
    }

    /// Refuses when the first (or last) line of text stands to the file's
    /// line just outside the region otherwise after the edit than before,
    /// where the caller's two texts have that line at one depth. The caller
    /// never saw the line outside; a depth it leaves alone is the file's to
    /// keep, and a plan that changes it has read the caller's depths in a
    /// frame the file does not have (two lines that read alike at other
    /// depths, paired across each other, make such a frame).
    fn edges_in_frame(&self, brief: &dyn Fn(&str) -> String) -> Result<(), String> {
        fn text<'l>(lines: &[(&'l str, usize)], last: bool) -> Option<(&'l str, usize)> {
            let mut it = lines
                .iter()
                .filter(|l| !l.0.is_empty() && l.0 != super::MARKER_KEY);
            if last { it.next_back() } else { it.next() }.copied()
        }
        for (last, outside) in [(false, self.outside.0), (true, self.outside.1)] {
            let (Some(w), Some(s), Some(n), Some(b), Some(a)) = (
                outside,
                text(&self.search, last),
                text(&self.new, last),
                text(&self.before, last),
                text(&self.after, last),
            ) else {
                continue;
            };
            if s.1 == n.1 && b.1.cmp(&w) != a.1.cmp(&w) {
                return Err(format!(
                    "it would indent `{}` {} the file's line just {} the matched lines, where it was {} it and new_content keeps the depth search_context has",
                    brief(a.0),
                    word(a.1.cmp(&w)),
                    if last { "after" } else { "before" },
                    word(b.1.cmp(&w)),
                ));
            }
        }
        Ok(())
    }

    /// Refuses when the plan changes the depths of the lines that read as
    /// one (every `}`, every `end`) where the caller's two texts have them
    /// at the same depths. Such a line's words say nothing of which one it
    /// is, only its depth does; a plan that pairs the caller's `}` with the
    /// file's at another depth writes the caller's depth over the file's,
    /// and every key still reads right.
    fn kept_depths(&self, brief: &dyn Fn(&str) -> String) -> Result<(), String> {
        for key in keys(&self.before) {
            let (was, is) = (widths(&self.before, key), widths(&self.after, key));
            if was.len() != is.len() || was == is {
                continue;
            }
            if widths(&self.search, key) == widths(&self.new, key) {
                return Err(format!(
                    "it would re-indent `{}`, which new_content keeps at the depths search_context has it",
                    brief(key)
                ));
            }
        }
        Ok(())
    }

    /// Refuses when new_content changes the lines beside a line of marks
    /// alone (`}`, `);`) that stands at a depth in the search where the
    /// lines with words put another depth in the file. The lines with words
    /// (each known by its words) tell how the caller's depths map to the
    /// file's: the same, in other units, or shifted. A `}` is known only by
    /// its depth, so the file's `}` the caller means is the one at the depth
    /// the map gives; when the file has it elsewhere, the caller's lines are
    /// not in the file's order there, and where new_content puts a line
    /// beside that `}` says nothing of where it goes in the file. Where the
    /// lines with words give no map (the caller's text flattened, or
    /// drifting line by line), nothing is judged.
    fn marks_in_frame(&self, brief: &dyn Fn(&str) -> String) -> Result<(), String> {
        let marks_only = |key: &str| !key.chars().any(char::is_alphanumeric);
        // (search width, file width), each key's lines paired by depth.
        let mut words: Vec<(usize, usize)> = Vec::new();
        let mut marks: Vec<(&str, usize, usize)> = Vec::new();
        for key in keys(&self.search)
            .into_iter()
            .filter(|k| *k != super::MARKER_KEY)
        {
            let (caller, file) = (widths(&self.search, key), widths(&self.before, key));
            if caller.len() != file.len() {
                continue;
            }
            for (s, f) in caller.into_iter().zip(file) {
                if marks_only(key) {
                    marks.push((key, s, f));
                } else {
                    words.push((s, f));
                }
            }
        }
        words.sort_unstable();
        words.dedup();
        // A map keeps depths apart and in order; two depths of the caller's
        // at one of the file's are the caller's drift, not a frame.
        if !words.windows(2).all(|w| w[0].0 < w[1].0 && w[0].1 < w[1].1) {
            return Ok(());
        }
        let fits = |s: usize, f: usize| {
            let below = words.iter().rev().find(|w| w.0 <= s);
            let above = words.iter().find(|w| w.0 >= s);
            below.is_none_or(|w| if w.0 == s { f == w.1 } else { f > w.1 })
                && above.is_none_or(|w| if w.0 == s { f == w.1 } else { f < w.1 })
        };
        let touched = self.beside_changes();
        for (key, s, f) in marks {
            let at = |i: &usize| self.search[*i] == (key, s);
            if !fits(s, f) && touched.iter().any(at) {
                return Err(format!(
                    "new_content changes the lines beside a `{}` that search_context has at a depth where the file's lines around it put another `{}`: the lines of search_context are not in the file's order there",
                    brief(key),
                    brief(key)
                ));
            }
        }
        Ok(())
    }

    /// The search lines new_content removes or rewrites, or keeps with a
    /// line added or removed just before or after.
    fn beside_changes(&self) -> Vec<usize> {
        let search: Vec<&str> = self.search.iter().map(|l| l.0).collect();
        let new: Vec<&str> = self.new.iter().map(|l| l.0).collect();
        let mut out = Vec::new();
        for op in capture_diff_slices(Algorithm::Myers, &search, &new) {
            let old = op.old_range();
            match op {
                DiffOp::Equal { .. } => {}
                DiffOp::Insert { old_index, .. } => {
                    out.extend([old_index.wrapping_sub(1), old_index]);
                }
                _ => out.extend(old.start.wrapping_sub(1)..=old.end),
            }
        }
        out.retain(|&i| i < search.len());
        out
    }
}

/// The keys of the lines with text, each once.
fn keys<'a>(lines: &[(&'a str, usize)]) -> Vec<&'a str> {
    let mut out: Vec<&str> = lines
        .iter()
        .map(|l| l.0)
        .filter(|k| !k.is_empty())
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The widths of the lines that read `key`, in order.
fn widths(lines: &[(&str, usize)], key: &str) -> Vec<usize> {
    let mut out: Vec<usize> = lines.iter().filter(|l| l.0 == key).map(|l| l.1).collect();
    out.sort_unstable();
    out
}

fn word(o: Ordering) -> &'static str {
    match o {
        Ordering::Less => "less deep than",
        Ordering::Equal => "as deep as",
        Ordering::Greater => "deeper than",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_written_line_one_level_off_fails_and_units_do_not_matter() {
        let new = vec![("if x :", 4), ("y ( )", 8), ("z ( )", 8)];
        // The file indents with tabs (a column each here), the caller with
        // four spaces.
        let before = vec![("if x :", 1), ("y ( )", 2)];
        let search = vec![("if x :", 4), ("y ( )", 8)];
        let wrong = Depths {
            search: search.clone(),
            new: new.clone(),
            before: before.clone(),
            after: vec![("if x :", 1), ("y ( )", 2), ("z ( )", 1)],
            outside: (None, None),
        };
        let err = wrong.check(&|line| line.to_string()).unwrap_err();
        assert!(
            err.contains(
                "indent `z ( )` less deep than `y ( )`, where new_content indents it as deep as"
            ),
            "{err}"
        );
        // Tabs in the file where the caller has spaces: the same steps.
        let right = Depths {
            search,
            new,
            before,
            after: vec![("if x :", 1), ("y ( )", 2), ("z ( )", 2)],
            outside: (None, None),
        };
        assert_eq!(right.check(&|line| line.to_string()), Ok(()));
    }

    #[test]
    fn a_bracket_kept_at_its_depths_by_the_caller_is_not_re_indented() {
        // The caller keeps its two `}` at 2 and 4 columns; the plan would
        // leave the file's at 4 and 4.
        let search = vec![("if a", 2), ("}", 4), ("x", 4), ("}", 2)];
        let new = vec![("if a", 2), ("}", 4), ("x2", 4), ("}", 2)];
        let before = vec![("if a", 2), ("}", 4), ("x", 4), ("}", 2)];
        let moved = Depths {
            search: search.clone(),
            new: new.clone(),
            before: before.clone(),
            after: vec![("if a", 2), ("}", 4), ("x2", 4), ("}", 4)],
            outside: (None, None),
        };
        let err = moved.check(&|line| line.to_string()).unwrap_err();
        assert_eq!(
            err,
            "it would re-indent `}`, which new_content keeps at the depths search_context has it"
        );
        // Where the caller re-indents a `}` itself, the file's may change.
        let reindented = Depths {
            search,
            new: vec![("if a", 2), ("}", 4), ("x2", 4), ("}", 4)],
            before,
            after: vec![("if a", 2), ("}", 4), ("x2", 4), ("}", 4)],
            outside: (None, None),
        };
        assert_eq!(reindented.check(&|line| line.to_string()), Ok(()));
    }

    #[test]
    fn a_bracket_out_of_the_frame_the_words_give_is_judged_only_beside_a_change() {
        // The lines with words stand at the file's depths (2 and 1); the
        // caller's `}`s are one level shallower than the file's.
        let search = vec![("}", 1), ("h = 7", 2), ("}", 0), ("return h", 1)];
        let before = vec![("}", 2), ("h = 7", 2), ("}", 1), ("return h", 1)];
        let moved = Depths {
            search: search.clone(),
            new: vec![("h = 9", 2), ("}", 1), ("}", 0), ("return h", 1)],
            before: before.clone(),
            after: vec![("h = 9", 2), ("}", 2), ("}", 1), ("return h", 1)],
            outside: (None, None),
        };
        let err = moved.check(&|line| line.to_string()).unwrap_err();
        assert_eq!(
            err,
            "new_content changes the lines beside a `}` that search_context has at a depth where the file's lines around it put another `}`: the lines of search_context are not in the file's order there"
        );
        // Two lines further on changed: nothing is written beside the
        // brackets.
        let tail = |last: &'static str| [("a", 1), (last, 1)];
        let far = Depths {
            search: [search.as_slice(), &tail("b")].concat(),
            new: [search.as_slice(), &tail("b2")].concat(),
            before: [before.as_slice(), &tail("b")].concat(),
            after: [before.as_slice(), &tail("b2")].concat(),
            outside: (None, None),
        };
        assert_eq!(far.check(&|line| line.to_string()), Ok(()));
        // In other units (tabs for two spaces), a `}` at the mapped depth.
        let units = Depths {
            search: vec![("if a", 2), ("x", 4), ("}", 2), ("y", 2)],
            new: vec![("if a", 2), ("x2", 4), ("}", 2), ("y", 2)],
            before: vec![("if a", 1), ("x", 2), ("}", 1), ("y", 1)],
            after: vec![("if a", 1), ("x2", 2), ("}", 1), ("y", 1)],
            outside: (None, None),
        };
        assert_eq!(units.check(&|line| line.to_string()), Ok(()));
    }

    #[test]
    fn a_first_line_kept_at_its_depth_keeps_its_place_to_the_line_before() {
        // The file's `if` (16 columns) stands before the region; the
        // caller's lines are shifted left by 8 and it keeps the first one's
        // depth, but the plan writes the lines at the caller's own widths.
        let search = vec![("return acc2", 12), ("return acc", 4)];
        let new = vec![("return acc", 12), ("return acc_next", 4)];
        let before = vec![("return acc", 20), ("return acc", 12)];
        let wrong = Depths {
            search: search.clone(),
            new: new.clone(),
            before: before.clone(),
            after: vec![("return acc", 12), ("return acc_next", 4)],
            outside: (Some(16), None),
        };
        assert_eq!(
            wrong.check(&|line| line.to_string()).unwrap_err(),
            "it would indent `return acc` less deep than the file's line just before the matched lines, where it was deeper than it and new_content keeps the depth search_context has"
        );
        let right = Depths {
            search,
            new,
            before,
            after: vec![("return acc", 20), ("return acc_next", 12)],
            outside: (Some(16), None),
        };
        assert_eq!(right.check(&|line| line.to_string()), Ok(()));
    }
}
