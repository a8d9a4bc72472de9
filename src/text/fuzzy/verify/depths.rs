//! The re-read's rule for indentation: every line the plan writes stands, to
//! the line of `new_content` before it, as `new_content` has it: deeper, as
//! deep, or less deep.
//!
//! Lines are compared as keys, so indentation is invisible to the rest of
//! the re-read; yet a line written one level off changes what a program
//! means (a statement moved out of its block) while every key is right. The
//! direction, not the width, is compared: the file may indent with other
//! units than the caller (tabs, two spaces), and drift may shift the
//! caller's whole text.

use std::cmp::Ordering;

use super::blank_runs::kept;

/// `new_content` and the region after the edit, line by line (blank lines as
/// `""`, markers as any line), with each line's indentation in columns.
pub(crate) struct Depths<'a> {
    pub new: Vec<(&'a str, usize)>,
    pub before: Vec<&'a str>,
    pub after: Vec<(&'a str, usize)>,
}

impl Depths<'_> {
    /// `Ok` when every written line is indented, to the line before it, as
    /// `new_content` indents it; else which line is not (`brief` shows a
    /// line in the message).
    pub(crate) fn check(&self, brief: &dyn Fn(&str) -> String) -> Result<(), String> {
        let new: Vec<&str> = self.new.iter().map(|l| l.0).collect();
        let after: Vec<&str> = self.after.iter().map(|l| l.0).collect();
        let stayed: Vec<usize> = kept(&self.before, &after, false)
            .into_iter()
            .map(|(_, a)| a)
            .collect();
        let written = kept(&new, &after, false);
        for (k, &(n, a)) in written.iter().enumerate() {
            if stayed.contains(&a) || k == 0 {
                continue;
            }
            let (n0, a0) = written[k - 1];
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
        let before = vec!["if x :", "y ( )"];
        let wrong = Depths {
            new: new.clone(),
            before: before.clone(),
            after: vec![("if x :", 1), ("y ( )", 2), ("z ( )", 1)],
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
            new,
            before,
            after: vec![("if x :", 1), ("y ( )", 2), ("z ( )", 2)],
        };
        assert_eq!(right.check(&|line| line.to_string()), Ok(()));
    }
}
