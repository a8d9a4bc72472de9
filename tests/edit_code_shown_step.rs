//! A file whose lines sit at two widths only (0 and 8) shows a distance,
//! not an indentation step: its levels may be 4 columns apart as well as
//! 8. A line the caller adds deeper than the lines it shows, in a search
//! shifted by a few columns, is written at the caller's depth less the
//! shift, never rescaled to a step the file does not show. (Found by the
//! random drifted-edit property: `deeper_4();` written at 40 columns for
//! the caller's 20.)

#[path = "edit_outcome/mod.rs"]
mod edit_outcome;

use edit_outcome::{Case, made_at_least};
use proptest::prelude::*;

prop_compose! {
    fn two_widths()(
        width in prop::sample::select(vec![4usize, 8]),
        deep_first in any::<bool>(),
        shift in 1usize..4,
        stale_deep in any::<bool>(),
        depth in 1usize..6,
        a in "[a-z]{3,6}",
        b in "[a-z]{3,6}",
    ) -> Case {
        let deep = format!("{}step_{a}(value, 14);", " ".repeat(width));
        let flat = format!("call_{b}(value, 28);");
        let (first, second) = if deep_first { (&deep, &flat) } else { (&flat, &deep) };
        let file = format!("\n\n{first}\n\n{second}\n\n");
        let pad = " ".repeat(shift);
        // The caller remembers one of the two lines by another name.
        let remembered = |line: &String, is_deep: bool| {
            if is_deep == stale_deep {
                let body = line.trim_start();
                let indent = &line[..line.len() - body.len()];
                format!("{pad}{indent}older_{a}();")
            } else {
                format!("{pad}{line}")
            }
        };
        let s_first = remembered(first, deep_first);
        let s_second = remembered(second, !deep_first);
        let search = format!("{s_first}\n\n{s_second}");
        let added = format!("{}deeper_{b}();", " ".repeat(4 * depth));
        let new = format!("{pad}{first}\n\n{pad}{second}\n{pad}{added}");
        let want = format!("\n\n{first}\n\n{second}\n{added}\n\n");
        Case { file, search, new, want }
    }
}

#[test]
fn a_line_added_deeper_keeps_the_callers_depth_where_the_file_shows_no_step() {
    made_at_least(300, 120, two_widths(), |c| Ok(c.made_as_meant_or_refused()));
}
