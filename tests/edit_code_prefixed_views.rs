//! A view that puts the same text before every line it shows (a space, a
//! few spaces, a tab) frames the caller's texts as text, not as a width: in
//! a tab-indented file `" \t"` is one tab stop wide like `"\t"`, while
//! `" x"` is one column right of `"x"`, so no shift of widths undoes it.
//! Property: a search and new_content sent through such a view edit the
//! file exactly as they would without it, or are refused; a line they add
//! is indented in the file's own characters. (Found by a random-seed drift
//! property: one space before every line, a tab-indented file, and a line
//! added five levels deep written as four tabs and three spaces.)

#[path = "edit_outcome/mod.rs"]
mod edit_outcome;

use edit_outcome::{Case, apply, intended_or_refused, made_at_least};
use proptest::prelude::*;

/// Texts a view may put before every line.
const PREFIXES: [&str; 5] = [" ", "  ", "   ", "\t", " \t"];

fn line(depth: usize, k: usize, tabs: bool, name: &str) -> String {
    let unit = if tabs { "\t" } else { "    " };
    format!(
        "{}{name}_{k}(value_{k}, {});",
        unit.repeat(depth),
        k * 7 % 31
    )
}

/// Every non-blank line of `lines` with `prefix` before it, joined.
fn framed(lines: &[String], prefix: &str) -> String {
    lines
        .iter()
        .map(|l| {
            if l.is_empty() {
                String::new()
            } else {
                format!("{prefix}{l}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

prop_compose! {
    fn case()(
        tabs in any::<bool>(),
        shape in prop::collection::vec(prop::option::weighted(0.85, 0usize..4), 8..24),
        start in 0usize..24,
        len in 2usize..7,
        prefix in 0..PREFIXES.len(),
        added_at in 0usize..7,
        added_depth in 0usize..7,
        stale in prop::option::of((0usize..7, any::<bool>())),
    ) -> Option<Case> {
        let lines: Vec<String> = shape
            .iter()
            .enumerate()
            .map(|(k, d)| d.map_or(String::new(), |d| line(d, k, tabs, "step")))
            .collect();
        let n = lines.len();
        let a = (start % n..n).find(|&i| !lines[i].is_empty())?;
        let b = (a..(a + len).min(n)).rev().find(|&i| !lines[i].is_empty())?;
        let block: Vec<String> = lines[a..=b].to_vec();
        let content: Vec<usize> = (0..block.len()).filter(|&i| !block[i].is_empty()).collect();
        if content.len() < 2 {
            return None;
        }
        let at = content[added_at % content.len()];
        let added = line(added_depth, at + a, tabs, "added");
        let mut meant = block.clone();
        meant.insert(at + 1, added);
        // The caller remembers one line of the block otherwise (not the
        // one the new line follows), and writes it back as remembered or
        // as the file has it.
        let mut search = block.clone();
        let mut new = meant.clone();
        if let Some((s, new_agrees)) = stale {
            let s = content[s % content.len()];
            if s != at {
                let body = block[s].trim_start();
                let old = format!("{}older_{s}();", &block[s][..block[s].len() - body.len()]);
                search[s] = old.clone();
                if !new_agrees {
                    let t = if s > at { s + 1 } else { s };
                    new[t] = old;
                }
            }
        }
        let join = |v: &[String]| v.iter().map(|l| format!("{l}\n")).collect::<String>();
        let want = format!("{}{}{}", join(&lines[..a]), join(&meant), join(&lines[b + 1..]));
        let prefix = PREFIXES[prefix];
        Some(Case {
            file: join(&lines),
            search: framed(&search, prefix),
            new: framed(&new, prefix),
            want,
        })
    }
}

#[test]
fn a_prefix_before_every_line_is_taken_off_as_text_or_the_edit_refused() {
    // A first run made 0 wrong and most cases as intended; the floor keeps
    // refusing everything from passing.
    made_at_least(600, 300, case(), |c| {
        let Some(c) = c else { return Ok(false) };
        Ok(c.made_as_meant_or_refused())
    });
}

#[test]
fn one_space_before_every_line_of_a_tab_indented_block() {
    let file = "\n\n\n\tstep_3(value_3, 21);\n\nstep_5(value_5, 4);\n\nstep_7(value_7, 18);\n";
    let search = " \tolder_3();\n\n step_5(value_5, 4);";
    let new = " \tstep_3(value_3, 21);\n\n step_5(value_5, 4);\n \t\t\t\t\tdeeper_5();";
    intended_or_refused(
        apply(file, search, new),
        "\n\n\n\tstep_3(value_3, 21);\n\nstep_5(value_5, 4);\n\t\t\t\t\tdeeper_5();\n\nstep_7(value_7, 18);\n",
    );
    assert!(
        apply(file, search, new).is_ok(),
        "made as meant, not refused"
    );
}
