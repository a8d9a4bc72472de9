//! Where new_content goes on past the search with lines the file has there,
//! and the file repeats the lines the search shows, the search's end lines
//! read as either copy at nearly the same cost. Each reading of where the
//! caller's block ends (or begins) is a rival, and two that make different
//! edits make none. Found by the held-out drift seed 28, three wrong edits
//! in 48,000:
//!
//! - futures' test of `into_async_read`: a search ending on a blank line,
//!   the middle of its block left out, new_content adding a comment before
//!   that blank line; the run of lines written past the search stopped at
//!   the comment, and the closing blank line was written next to the
//!   file's own.
//! - pydantic-settings' TOML source: the same, a comment added before a
//!   rewritten `tomllib = None`; the old line stayed after the new one.
//! - CPython's `test_stringprep`: two identical rounds of checks; the
//!   search's first line read as the later round's, the caller's rewrite
//!   of the earlier round written as new lines in front of it.

#[path = "edit_outcome/mod.rs"]
mod edit_outcome;

use edit_outcome::{Case, made_at_least, run};
use proptest::prelude::*;

/// A test body that reads in steps of 3 and 2, `rounds` times over.
fn body(name: &str, rounds: usize, changed: Option<usize>, comment: bool) -> Vec<String> {
    let mut out = vec![
        format!("    let stream = open_{name}(1..=3);"),
        "    let mut reader = stream.into_reader();".to_string(),
        "    let mut buf = vec![0; 3];".to_string(),
        String::new(),
    ];
    for k in 0..rounds {
        out.push("    read_into!(reader, &mut buf, 3);".to_string());
        if changed == Some(k) {
            out.push("    assert_eq_next!(&buf, &[1, 2, 3]);".to_string());
            if comment {
                out.push("    // checked again below".to_string());
            }
        } else {
            out.push("    assert_eq!(&buf, &[1, 2, 3]);".to_string());
        }
        out.push(String::new());
        out.push("    read_into!(reader, &mut buf, 2);".to_string());
        out.push("    assert_eq!(&buf[..2], &[4, 5]);".to_string());
        out.push(String::new());
    }
    out
}

prop_compose! {
    /// The caller changes the 3-step check of round `meant`; its search shows
    /// the body's head (after `lead` blank lines its view gained), leaves
    /// out the rounds before `meant` without a marker (or shows them all
    /// when `meant` is 0, the control), and ends on the round's blank line.
    fn case(meant: std::ops::Range<usize>)(
        rounds in 2usize..5,
        meant in meant,
        lead in 0usize..3,
        comment in any::<bool>(),
        name in "[a-z]{3,8}",
    ) -> Case {
        let meant = meant.min(rounds - 1);
        let whole = |changed| {
            let mut lines = vec![format!("fn reads_{name}() {{")];
            lines.extend(body(&name, rounds, changed, comment));
            lines.push("}".to_string());
            lines.join("\n") + "\n"
        };
        let shown = body(&name, rounds, None, false);
        let round_at = 4 + 6 * meant;
        let mut search = vec![String::new(); lead];
        search.extend(shown[..4].iter().cloned());
        search.extend(shown[round_at..round_at + 3].iter().cloned());
        let written = body(&name, meant + 1, Some(meant), comment);
        // Both texts end on the round's blank line, written as a line.
        let new = written[..written.len() - 3].join("\n") + "\n";
        Case {
            file: whole(None),
            search: search.join("\n") + "\n",
            new,
            want: whole(Some(meant)),
        }
    }
}

#[test]
fn a_blank_line_read_after_either_copy_makes_no_edit_of_its_own() {
    // Any edit but the intended one fails the run; refusals are counted.
    let made = run(300, case(1..4), |c| Ok(c.made_as_meant_or_refused()));
    println!("made {made} of 300");
}

/// The control: the search shows the round it changes with nothing left
/// out, and the edit is made.
#[test]
fn the_first_round_shown_whole_is_changed() {
    made_at_least(300, 250, case(0..1), |c| Ok(c.made_as_meant_or_refused()));
}

prop_compose! {
    /// The mirror at the search's first line: a body whose rounds
    /// `self.assertTrue(…)` / `self.assertFalse(…)` repeat, then two
    /// lines of its own. The caller renames the check of round `meant`;
    /// its search shows that round's first line and leaves out, without a
    /// marker, the lines up to the last round's second line, so that it
    /// reads as the last round as well (`gap` puts a blank line the caller's
    /// view gained between its two lines). new_content writes every round
    /// from `meant` on out. With `last`, the caller renames the last round's
    /// check and its search leaves nothing out (the control).
    fn head_case(last: bool)(
        rounds in 2usize..5,
        meant in 0usize..4,
        gap in any::<bool>(),
        name in "[a-z]{3,8}",
    ) -> Case {
        let meant = if last { rounds - 1 } else { meant.min(rounds - 2) };
        let check = |k: usize| {
            let verb = if k == meant { "assertTrue_next" } else { "assertTrue" };
            format!("        self.{verb}(in_table_{name}(\"a\"))")
        };
        let second = format!("        self.assertFalse(in_table_{name}(\"b\"))");
        let tail = [
            String::new(),
            format!("        self.assertTrue(in_other_{name}(\"a\"))"),
            format!("        self.assertFalse(in_other_{name}(\"b\"))"),
        ];
        let rounds_from = |from: usize, renamed: bool| {
            let mut out = Vec::new();
            for k in from..rounds {
                out.push(String::new());
                out.push(if renamed { check(k) } else { check(usize::MAX) });
                out.push(second.clone());
            }
            out.extend(tail.iter().cloned());
            out
        };
        let whole = |renamed: bool| {
            let mut lines = vec!["    def test(self):".to_string(), "        x = 1".to_string()];
            lines.extend(rounds_from(0, renamed));
            lines.join("\n") + "\n"
        };
        let mut search = vec![String::new(), check(usize::MAX)];
        if gap {
            search.push(String::new());
        }
        search.push(second.clone());
        search.extend(tail.iter().cloned());
        Case {
            file: whole(false),
            search: search.join("\n") + "\n",
            new: rounds_from(meant, true).join("\n") + "\n",
            want: whole(true),
        }
    }
}

#[test]
fn a_first_line_read_at_either_copy_makes_no_edit_of_its_own() {
    let made = run(300, head_case(false), |c| Ok(c.made_as_meant_or_refused()));
    println!("made {made} of 300");
}

/// The control: the last round, shown with nothing left out, is renamed.
#[test]
fn the_last_round_shown_whole_is_renamed() {
    made_at_least(300, 250, head_case(true), |c| {
        Ok(c.made_as_meant_or_refused())
    });
}
