//! A caller whose lines all begin with a few spaces (its frame) before a
//! tab-indented file's tabs: its indentation step is read inside that
//! frame. Read with it, `"  \t"` is 4 columns and `"  "` 2, the caller's
//! step looked like 2 columns against the file's 4, and a line it added
//! four tabs deeper was written eight tabs deeper. (Found by soaking the
//! random drifted-edit property: `deeper_5();` written at 9 tabs for 5.)

#[path = "edit_outcome/mod.rs"]
mod edit_outcome;

use edit_outcome::{Case, made_at_least, run};
use proptest::prelude::*;

prop_compose! {
    /// A top-level line and a line `depth` tabs in, shown with a frame of
    /// `pad` spaces; new_content adds a line `deeper` tabs further in.
    /// `stale` remembers the top-level line by another name, and new_content
    /// writes it as the file has it.
    fn framed(pads: std::ops::Range<usize>)(
        pad in pads,
        depth in 1usize..3,
        deeper in 1usize..6,
        stale in any::<bool>(),
        a in "[a-z]{3,6}",
        b in "[a-z]{3,6}",
    ) -> Case {
        let tabs = |n: usize| "\t".repeat(n);
        let top = format!("step_{a}(value_{a}, 21);");
        let inner = format!("{}step_{b}(value_{b}, 4);", tabs(depth));
        let added = format!("deeper_{b}();");
        let file = format!("\n\n{}call_x(1);\n{top}\n\n{inner}\n", tabs(2));
        let frame = " ".repeat(pad);
        let shown_top = if stale { format!("older_{a}();") } else { top.clone() };
        let search = format!("{frame}{shown_top}\n\n{frame}{inner}");
        let new = format!(
            "{frame}{top}\n\n{frame}{inner}\n{frame}{}{added}",
            tabs(depth + deeper)
        );
        let want = format!("{file}{}{added}\n", tabs(depth + deeper));
        Case { file, search, new, want }
    }
}

#[test]
fn a_line_added_in_a_framed_tab_view_keeps_its_depth_in_tabs() {
    // Any edit but the intended one fails the run; refusals are counted.
    let made = run(400, framed(1..4), |c| Ok(c.made_as_meant_or_refused()));
    println!("made {made} of 400");
}

/// The control: without a frame the same edits are made.
#[test]
fn the_same_edit_without_a_frame_is_made() {
    made_at_least(300, 250, framed(0..1), |c| Ok(c.made_as_meant_or_refused()));
}
