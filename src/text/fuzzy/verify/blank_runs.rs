//! The re-read's rule for blank lines: before each line the caller keeps,
//! the region afterwards has the file's blank lines where the caller left the
//! search's count alone, and the caller's count where it changed it.
//!
//! Lines of text are compared as keys, so a blank line more or less is
//! invisible to the rest of the re-read; yet a blank line written where the
//! caller's search only misremembered one (or one dropped that the caller
//! never touched) changes the file the caller did not ask to change.
//!
//! ```text
//! search        new           file          after
//! ...           #[repr(u32)]  #[repr(u32)]  #[repr(u32)]
//!                                           <- refused: the caller kept the
//! pub enum E {  pub enum E {  pub enum E {     search's one blank line, the
//!                                              file has none
//! ```

use similar::{Algorithm, DiffOp, capture_diff_slices};

use super::MARKER_KEY;
use crate::text::fuzzy::costs::COSTS;

/// The four texts line by line: a blank line as `""`, a marker as any line
/// of text.
pub(crate) struct Spacing<'a> {
    pub search: Vec<&'a str>,
    pub new: Vec<&'a str>,
    pub before: Vec<&'a str>,
    pub after: Vec<&'a str>,
    /// The file's blank lines just outside the region, before and after it:
    /// a run that reaches the region's edge goes on there.
    pub outside: (usize, usize),
}

/// Indices of the lines of text.
fn texts(lines: &[&str]) -> Vec<usize> {
    (0..lines.len()).filter(|&i| !lines[i].is_empty()).collect()
}

/// How a line diff's replaced lines are paired with their rewrites: each
/// with the most alike line after the last one paired, or line for line from
/// the start or from the end of the stretch. Which the caller meant is not
/// known, so a rule on the caller's lines must hold under every pairing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Pairing {
    /// Each replaced line with the most alike line after the last paired.
    MostAlike,
    /// The stretches' first lines together, then the second, and so on.
    FromStart,
    /// The stretches' last lines together, then the ones before, and so on.
    FromEnd,
}

impl Pairing {
    /// Every pairing.
    pub(crate) const ALL: [Pairing; 3] = [Pairing::MostAlike, Pairing::FromStart, Pairing::FromEnd];
}

/// The lines of text of `a` and `b` that a line diff keeps, as indices into
/// `a` and `b`; with a pairing, also those it replaces, each by a line at
/// least `paired_rewrite` alike, paired as `rewrites` says.
pub(crate) fn kept(a: &[&str], b: &[&str], rewrites: Option<Pairing>) -> Vec<(usize, usize)> {
    let (ta, tb) = (texts(a), texts(b));
    let ka: Vec<&str> = ta.iter().map(|&i| a[i]).collect();
    let kb: Vec<&str> = tb.iter().map(|&i| b[i]).collect();
    let like = |i: usize, j: usize| rapidfuzz::fuzz::ratio(ka[i].chars(), kb[j].chars());
    let alike = |i: usize, j: usize| like(i, j) >= COSTS.paired_rewrite;
    let mut out = Vec::new();
    for op in capture_diff_slices(Algorithm::Patience, &ka, &kb) {
        let (old, new) = (op.old_range(), op.new_range());
        match (op, rewrites) {
            (DiffOp::Equal { .. }, _) => out.extend(old.zip(new).map(|(i, j)| (ta[i], tb[j]))),
            (DiffOp::Replace { .. }, Some(Pairing::MostAlike)) => {
                let mut next = new.start;
                for i in old {
                    let best = (next..new.end)
                        .filter(|&j| alike(i, j))
                        .max_by(|&x, &y| like(i, x).total_cmp(&like(i, y)));
                    if let Some(j) = best {
                        out.push((ta[i], tb[j]));
                        next = j + 1;
                    }
                }
            }
            (DiffOp::Replace { .. }, Some(Pairing::FromStart)) => out.extend(
                old.zip(new)
                    .filter(|&(i, j)| alike(i, j))
                    .map(|(i, j)| (ta[i], tb[j])),
            ),
            (DiffOp::Replace { .. }, Some(Pairing::FromEnd)) => {
                let mut pairs: Vec<(usize, usize)> = old
                    .rev()
                    .zip(new.rev())
                    .filter(|&(i, j)| alike(i, j))
                    .map(|(i, j)| (ta[i], tb[j]))
                    .collect();
                pairs.reverse();
                out.extend(pairs);
            }
            _ => {}
        }
    }
    out
}

/// The blank lines just before line `i` (`after` false) or just after it.
#[derive(Debug, Clone, Copy)]
enum Run {
    /// So many, then the line of text at the index.
    To(usize, usize),
    /// So many, up to the edge of the text (the region's edge, where the
    /// file's run goes on outside it).
    Edge(usize),
}

fn run_beside(lines: &[&str], i: usize, after: bool) -> Run {
    let beyond: Option<usize> = if after {
        (i + 1..lines.len()).find(|&k| !lines[k].is_empty())
    } else {
        (0..i).rev().find(|&k| !lines[k].is_empty())
    };
    match beyond {
        Some(k) => Run::To(k.abs_diff(i) - 1, k),
        None if after => Run::Edge(lines.len() - i - 1),
        None => Run::Edge(i),
    }
}

/// The blank lines after line `i` up to the next line of text, if any.
fn run_after(lines: &[&str], i: usize) -> Option<(usize, usize)> {
    match run_beside(lines, i, true) {
        Run::To(n, k) => Some((n, k)),
        Run::Edge(_) => None,
    }
}

impl Spacing<'_> {
    /// `Ok` when every line the caller keeps has the blank lines before it
    /// that the caller meant; else which line does not (`brief` shows a
    /// line in the message).
    pub(crate) fn check(&self, brief: &dyn Fn(&str) -> String) -> Result<(), String> {
        for pairing in Pairing::ALL {
            self.kept_lines(brief, pairing)?;
            self.written_out(brief, pairing)?;
            self.no_change_on_a_misread(brief, pairing)?;
        }
        self.between_lines_the_caller_writes(brief)?;
        self.edge_runs()
    }

    /// Refuses when two lines of text `new_content` has next to each other,
    /// neither of them a line of the search (each one the caller adds, or
    /// one the search hides that the caller writes out), stand next to
    /// each other after the edit with another count of blank lines between
    /// them than `new_content` has, or than the file has between them
    /// (a copy that lost blank lines leaves the file's). The search says
    /// nothing of that stretch, so nothing in it can have been misread: a
    /// third count is nobody's.
    fn between_lines_the_caller_writes(
        &self,
        brief: &dyn Fn(&str) -> String,
    ) -> Result<(), String> {
        let shown: Vec<usize> = Pairing::ALL
            .iter()
            .flat_map(|&p| kept(&self.search, &self.new, Some(p)))
            .map(|(_, n)| n)
            .collect();
        let written = kept(&self.new, &self.after, None);
        let on_disk = kept(&self.new, &self.before, Some(Pairing::MostAlike));
        // The file's count between the two lines, where it has both, next
        // to each other: a copy that lost blank lines leaves the file's.
        let had = |n1: usize, n2: usize| {
            let b1 = on_disk.iter().find(|p| p.0 == n1)?.1;
            let b2 = on_disk.iter().find(|p| p.0 == n2)?.1;
            run_after(&self.before, b1)
                .filter(|&(_, next)| next == b2)
                .map(|(n, _)| n)
        };
        for pair in written.windows(2) {
            let [(n1, a1), (n2, a2)] = [pair[0], pair[1]];
            if shown.contains(&n1) || shown.contains(&n2) {
                continue;
            }
            let (Some((wanted, next_n)), Some((got, next_a))) =
                (run_after(&self.new, n1), run_after(&self.after, a1))
            else {
                continue;
            };
            if next_n != n2 || next_a != a2 || wanted == got || had(n1, n2) == Some(got) {
                continue;
            }
            return Err(format!(
                "it would leave {got} blank line{} between `{}` and `{}`, where new_content has {wanted}",
                if got == 1 { "" } else { "s" },
                brief(self.new[n1]),
                brief(self.new[n2]),
            ));
        }
        Ok(())
    }

    /// Refuses when `new_content` adds blank lines past the last line of
    /// text the caller keeps (or before the first), where the search has
    /// only blank lines there and the file's run goes on past the region,
    /// and the edit leaves another count at that edge than `new_content`
    /// has. The caller saw only part of that run: its count may be the
    /// whole run's (its copy of the search lost a blank line) as well as a
    /// blank line added, and the two readings write different files. The
    /// caller's own count, where the edit comes to it, is no guess.
    fn edge_runs(&self) -> Result<(), String> {
        let pairs = kept(&self.search, &self.new, None);
        let (Some(&first), Some(&last)) = (pairs.first(), pairs.last()) else {
            return Ok(());
        };
        for end in [false, true] {
            let outside = if end { self.outside.1 } else { self.outside.0 };
            if outside == 0 {
                continue;
            }
            let blank = |l: &&&str| l.is_empty();
            // The lines beyond the kept line nearest the edge, and the blank
            // lines at the edge.
            let (searched, new) = if end {
                (&self.search[last.0 + 1..], &self.new[last.1 + 1..])
            } else {
                (&self.search[..first.0], &self.new[..first.1])
            };
            let at_edge = |lines: &[&str]| -> usize {
                if end {
                    lines.iter().rev().take_while(blank).count()
                } else {
                    lines.iter().take_while(blank).count()
                }
            };
            let added = new.iter().filter(blank).count() > searched.len();
            if !searched.iter().all(|l| l.is_empty()) || !added {
                continue;
            }
            let (want, got) = (at_edge(new), at_edge(&self.after) + outside);
            if got != want && at_edge(&self.after) < self.after.len() {
                return Err(format!(
                    "it would leave {got} blank lines at the {} of the matched lines, where new_content has {want}: the file's run of blank lines goes on past the search, and whether new_content counts it all or adds to it is not clear",
                    if end { "end" } else { "start" },
                ));
            }
        }
        Ok(())
    }

    /// The runs of blank lines `other` has otherwise than the search: for
    /// each line of text of the search that `other` has too (kept, or
    /// rewritten), the run before it (and after the last one), where both
    /// runs lie between the same two lines or at the edge, as (search line,
    /// whether after it, the run in `other`). `outside` goes on the runs at
    /// `other`'s edges; `partial` says a run at the search's edge that is
    /// shorter than `other`'s is no difference (the search stops there).
    fn run_changes(
        &self,
        other: &[&str],
        outside: (usize, usize),
        partial: bool,
        pairing: Pairing,
    ) -> Vec<(usize, bool, usize)> {
        let pairs = kept(&self.search, other, Some(pairing));
        let mut out = Vec::new();
        for (k, &(s, o)) in pairs.iter().enumerate() {
            let last = k + 1 == pairs.len();
            for after in [false, true] {
                if after && !last {
                    continue;
                }
                let runs = (
                    run_beside(&self.search, s, after),
                    run_beside(other, o, after),
                );
                let (searched, theirs) = match runs {
                    (Run::To(a, sk), Run::To(b, ok)) if pairs.contains(&(sk, ok)) => (a, b),
                    (Run::Edge(a), Run::Edge(b)) => {
                        let b = b + if after { outside.1 } else { outside.0 };
                        if partial && a <= b {
                            continue;
                        }
                        (a, b)
                    }
                    _ => continue,
                };
                if searched != theirs {
                    out.push((s, after, theirs));
                }
            }
        }
        out
    }

    /// Where the search's blank lines differ from the file's, the caller's
    /// view of them is not the file's, and a blank line `new_content` adds
    /// or drops elsewhere may be that view moving a blank line the file
    /// already has where the caller wants it (two lines the search has in
    /// another order than the file, one of them a blank line): the merge
    /// would make the move twice. So, then, `new_content` may change the
    /// blank lines only where the file differs, to the file's count.
    fn no_change_on_a_misread(
        &self,
        brief: &dyn Fn(&str) -> String,
        pairing: Pairing,
    ) -> Result<(), String> {
        let misread = self.run_changes(&self.before, self.outside, true, Pairing::MostAlike);
        let Some(&(ms, mafter, had)) = misread.first() else {
            return Ok(());
        };
        let changed = self.run_changes(&self.new, (0, 0), false, pairing);
        match changed.iter().find(|c| !misread.contains(c)) {
            None => Ok(()),
            Some(&(s, after, wanted)) => {
                let place = |s: usize, after: bool| {
                    format!(
                        "{} `{}`",
                        if after { "after" } else { "before" },
                        brief(self.search[s])
                    )
                };
                Err(format!(
                    "new_content has {wanted} blank line{} {}, and search_context's blank lines are not the file's ({} {} where search_context has {}); copy the blank lines as the file has them, then change them",
                    if wanted == 1 { "" } else { "s" },
                    place(s, after),
                    had,
                    place(ms, mafter),
                    match run_beside(&self.search, ms, mafter) {
                        Run::To(n, _) | Run::Edge(n) => n,
                    }
                ))
            }
        }
    }

    /// The runs beside the lines the caller keeps or rewrites.
    fn kept_lines(&self, brief: &dyn Fn(&str) -> String, pairing: Pairing) -> Result<(), String> {
        let on_disk = kept(&self.search, &self.before, Some(Pairing::MostAlike));
        // A kept line the plan writes as the file has it (the search's copy
        // misspelled) is still that line.
        let written = kept(&self.new, &self.after, Some(Pairing::MostAlike));
        let pairs = kept(&self.search, &self.new, Some(pairing));
        let shown = |n: usize| pairs.iter().any(|p| p.1 == n);
        for &(s, n) in &pairs {
            let Some(&(_, b)) = on_disk.iter().find(|p| p.0 == s) else {
                continue;
            };
            let Some(&(_, a)) = written.iter().find(|p| p.0 == n) else {
                continue;
            };
            for after in [false, true] {
                let outside = if after {
                    self.outside.1
                } else {
                    self.outside.0
                };
                let runs = (
                    run_beside(&self.search, s, after),
                    run_beside(&self.new, n, after),
                    run_beside(&self.before, b, after),
                    run_beside(&self.after, a, after),
                );
                let (searched, wanted, had, got) = match runs {
                    // Only a run between the same two lines is the same run:
                    // the caller's neighbour there is the search's; or, where
                    // the search has a marker, one the file has there written
                    // out, or, before the kept line, any line the caller
                    // writes in place of the marker's lines (the run still
                    // divides the kept line from them; after it, a line the
                    // caller adds may stand between the two).
                    (
                        Run::To(searched, sk),
                        Run::To(wanted, nk),
                        Run::To(had, bk),
                        Run::To(got, _),
                    ) if pairs.contains(&(sk, nk))
                        || (self.search[sk] == MARKER_KEY
                            && (self.new[nk] == self.before[bk] || (!after && !shown(nk)))) =>
                    {
                        (searched, wanted, had, got)
                    }
                    // A run at the edge of both of the caller's texts, which
                    // in the file goes on past the region.
                    (Run::Edge(searched), Run::Edge(wanted), Run::Edge(had), Run::Edge(got)) => {
                        (searched, wanted, had + outside, got + outside)
                    }
                    _ => continue,
                };
                let meant = if wanted == searched { had } else { wanted };
                if got != meant {
                    return Err(format!(
                        "it would leave {got} blank line{} {} `{}`, where {}",
                        if got == 1 { "" } else { "s" },
                        if after { "after" } else { "before" },
                        brief(self.after[a]),
                        if wanted == searched {
                            format!(
                                "the file has {had} and new_content keeps search_context's {searched}"
                            )
                        } else {
                            format!("new_content has {wanted}")
                        }
                    ));
                }
            }
        }
        Ok(())
    }

    /// The runs between two lines the search hides that `new_content`
    /// writes out, next to each other as in the file: the caller never
    /// showed what is between them, so a count other than the file's is a
    /// guess at what the caller meant, and the edit is refused.
    fn written_out(&self, brief: &dyn Fn(&str) -> String, pairing: Pairing) -> Result<(), String> {
        let shown: Vec<usize> = kept(&self.search, &self.new, Some(pairing))
            .into_iter()
            .map(|(_, n)| n)
            .collect();
        let on_disk = kept(&self.new, &self.before, None);
        let written = kept(&self.new, &self.after, None);
        for (n, b) in on_disk.into_iter().filter(|(n, _)| !shown.contains(n)) {
            let Some(&(_, a)) = written.iter().find(|p| p.0 == n) else {
                continue;
            };
            let (Some(wanted), Some(had), Some((got, _))) = (
                run_after(&self.new, n),
                run_after(&self.before, b),
                run_after(&self.after, a),
            ) else {
                continue;
            };
            if self.new[wanted.1] != self.before[had.1] || got == had.0 {
                continue;
            }
            return Err(format!(
                "new_content writes out `{}` and `{}`, which search_context leaves out, with {} blank line{} between them where the file has {}; copy them as the file has them",
                brief(self.new[n]),
                brief(self.new[wanted.1]),
                got,
                if got == 1 { "" } else { "s" },
                had.0
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(search: &[&str], new: &[&str], before: &[&str], after: &[&str]) -> Result<(), String> {
        Spacing {
            search: search.to_vec(),
            new: new.to_vec(),
            before: before.to_vec(),
            after: after.to_vec(),
            outside: (0, 0),
        }
        .check(&|line| line.to_string())
    }

    #[test]
    fn between_a_line_added_and_a_line_written_out_the_count_is_new_content_s() {
        // The marker stands for a blank line and `/// Doc`; new_content adds
        // a comment and writes them out. The marker's blank line is the one
        // new_content writes: not one more.
        let search = ["fn a();", "\u{1}marker", "fn b();"];
        let new = ["fn a_next();", "// checked", "", "/// Doc", "fn b();"];
        let before = ["fn a();", "", "/// Doc", "fn b();"];
        let wrong = ["fn a_next();", "// checked", "", "", "/// Doc", "fn b();"];
        let err = check(&search, &new, &before, &wrong).unwrap_err();
        assert!(
            err.contains(
                "leave 2 blank lines between `// checked` and `/// Doc`, where new_content has 1"
            ),
            "{err}"
        );
        let right = ["fn a_next();", "// checked", "", "/// Doc", "fn b();"];
        assert_eq!(check(&search, &new, &before, &right), Ok(()));
    }

    #[test]
    fn a_blank_line_only_the_search_remembers_is_not_written() {
        let search = ["use x;", "\u{1}marker", "", "pub enum E {", "A,"];
        let new = ["use x;", "", "#[repr(u32)]", "", "pub enum E {", "A2,"];
        let before = ["use x;", "", "#[repr(u32)]", "pub enum E {", "A,"];
        let wrong = ["use x;", "", "#[repr(u32)]", "", "pub enum E {", "A2,"];
        let err = check(&search, &new, &before, &wrong).unwrap_err();
        assert!(
            err.contains("leave 1 blank line before `pub enum E {`, where the file has 0"),
            "{err}"
        );
        let right = ["use x;", "", "#[repr(u32)]", "pub enum E {", "A2,"];
        assert_eq!(check(&search, &new, &before, &right), Ok(()));
    }

    #[test]
    fn the_caller_s_own_change_of_blank_lines_is_made() {
        // The caller removes the blank line before `b`, and adds two before
        // `c`; the file's blank lines are the search's.
        let search = ["a", "", "b", "c", "d"];
        let new = ["a", "b", "", "", "c", "d2"];
        let before = ["a", "", "b", "c", "d"];
        assert_eq!(
            check(&search, &new, &before, &["a", "b", "", "", "c", "d2"]),
            Ok(())
        );
        let err = check(&search, &new, &before, &["a", "", "b", "", "c", "d2"]).unwrap_err();
        assert!(err.contains("after `a`, where new_content has 0"), "{err}");
    }

    #[test]
    fn where_the_search_misreads_the_blank_lines_the_caller_may_only_correct_them() {
        // The file has a blank line before `c` that the search lacks, and
        // new_content moves the one before `b` there: the caller's view of
        // the blank lines is not the file's, so that may be the file's line
        // moved twice.
        let search = ["a", "", "b", "c", "d"];
        let before = ["a", "", "b", "", "c", "d"];
        let new = ["a", "b", "", "c", "d2"];
        let err = check(&search, &new, &before, &["a", "b", "", "c", "d2"]).unwrap_err();
        assert!(
            err.contains(
                "new_content has 0 blank lines before `b`, and search_context's blank lines are not the file's (1 before `c` where search_context has 0)"
            ),
            "{err}"
        );
        // Giving `c` the file's blank line, and nothing else, is fine.
        let new = ["a", "", "b", "", "c", "d2"];
        assert_eq!(
            check(&search, &new, &before, &["a", "", "b", "", "c", "d2"]),
            Ok(())
        );
        // So is a change where the file's blank lines are the search's.
        let before = ["a", "", "b", "c", "d"];
        let new = ["a", "b", "", "c", "d2"];
        assert_eq!(
            check(&search, &new, &before, &["a", "b", "", "c", "d2"]),
            Ok(())
        );
    }

    #[test]
    fn a_run_next_to_a_line_the_caller_removes_is_another_run() {
        // The caller removes the comment after the blank line the search
        // remembers; the file has neither the blank line nor, afterwards,
        // the comment.
        let search = ["if x:", "# one", "", "# two", "name = 1"];
        let new = ["if x:", "# one", "", "name = 1"];
        let before = ["if x:", "# one", "# two", "name = 1"];
        let after = ["if x:", "# one", "name = 1"];
        assert_eq!(check(&search, &new, &before, &after), Ok(()));
    }

    #[test]
    fn a_run_at_the_edges_goes_on_outside_the_region() {
        let check = |search: &[&str], new: &[&str], before: &[&str], after: &[&str], outside| {
            Spacing {
                search: search.to_vec(),
                new: new.to_vec(),
                before: before.to_vec(),
                after: after.to_vec(),
                outside,
            }
            .check(&|line| line.to_string())
        };
        // The search shows one of the file's two blank lines after `b` (the
        // other lies past the region); new_content has two: two are meant.
        let (search, new) = (["a", "b", ""], ["a", "b2", "", ""]);
        let before = ["a", "b", ""];
        assert_eq!(
            check(&search, &new, &before, &["a", "b2", ""], (0, 1)),
            Ok(())
        );
        let err = check(&search, &new, &before, &["a", "b2", "", ""], (0, 1)).unwrap_err();
        assert!(
            err.contains("leave 3 blank lines after `b2`, where new_content has 2"),
            "{err}"
        );
        // The search remembers a blank line after `b` the file does not
        // have, and new_content keeps it: none is meant.
        let (search, new) = (["a", "b", ""], ["a2", "b", ""]);
        let err = check(&search, &new, &["a", "b"], &["a2", "b", ""], (0, 0)).unwrap_err();
        assert!(
            err.contains("the file has 0 and new_content keeps search_context's 1"),
            "{err}"
        );
        assert_eq!(
            check(&search, &new, &["a", "b"], &["a2", "b"], (0, 0)),
            Ok(())
        );
        // Before the first line: the file's run goes on above the region.
        assert_eq!(
            check(
                &["", "a", "b"],
                &["", "a", "c"],
                &["a", "b"],
                &["a", "c"],
                (2, 0)
            ),
            Ok(())
        );
        let err = check(
            &["", "a", "b"],
            &["", "", "a", "c"],
            &["", "a", "b"],
            &["", "", "a", "c"],
            (1, 0),
        )
        .unwrap_err();
        assert!(
            err.contains("leave 3 blank lines before `a`, where new_content has 2"),
            "{err}"
        );
    }
}
