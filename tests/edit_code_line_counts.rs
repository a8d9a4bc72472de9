//! A line new_content has more often than search_context is added to the
//! file that many times. Found by the census of unknown transformations
//! (`edit_code_transforms`, seed 696735): the search showed two lines in
//! the other order, new_content rewrote a line into a copy of one of them,
//! and the merge took the caller's new copy for the file's own line, so
//! one copy was lost. The re-read now counts every line the caller adds.

#[path = "edit_outcome/mod.rs"]
mod edit_outcome;

use edit_outcome::{made_or_refused, run};
use proptest::prelude::*;

#[derive(Debug, Clone)]
struct Reordered {
    file: String,
    search: String,
    new: String,
    want: String,
}

prop_compose! {
    /// A list of ports; the caller's view of it with two neighbouring lines
    /// swapped, the line before them rewritten into a copy of one of them,
    /// and a line added after it.
    fn reordered()(
        ports in proptest::collection::btree_set(1000u32..9999, 4..9),
        pair in 0usize..8,
        second in any::<bool>(),
        added in "[a-z]{3,8}",
    ) -> Reordered {
        let mut lines: Vec<String> = vec!["service:".into(), "  ports:".into()];
        lines.extend(ports.iter().map(|p| format!("    - {p}")));
        lines.push("  description: \"done with the record\"".into());
        // The pair (i, i + 1) has a port line before it; the description
        // may be its second line.
        let i = 3 + pair % (lines.len() - 4);
        let j = i - 1;
        let k = if second { i + 1 } else { i };
        let added = format!("    {added}_line();");
        let mut shown = lines.clone();
        shown.swap(i, i + 1);
        let mut meant = lines.clone();
        meant[j] = lines[k].clone();
        meant.insert(j + 1, added.clone());
        let mut caller = shown.clone();
        caller[j] = lines[k].clone();
        caller.insert(j + 1, added);
        let text = |ls: &[String]| ls.iter().map(|l| format!("{l}\n")).collect::<String>();
        let whole = |ls: &[String]| format!("version: 2\n\n{}\nother:\n  ports:\n    - 1\n", text(ls));
        Reordered {
            file: whole(&lines),
            search: text(&shown[1..]),
            new: text(&caller[1..]),
            want: whole(&meant),
        }
    }
}

#[test]
fn a_line_new_content_adds_again_is_added() {
    let made = run(400, reordered(), |c| {
        made_or_refused(&c.file, &c.search, &c.new, &c.want)
    });
    println!("made {made} of 400");
}

#[test]
fn a_rewrite_into_a_copy_of_a_swapped_line_keeps_both_copies() {
    // Census seed 696735.
    let file = "  limits:\n    cpu: \"805m\"\n    memory: \"392Mi\"\n  ports:\n    - 2959\n    - 2964\n  description: \"split finished for the record\"\n\nnext:\n";
    let search = "  limits:\n    cpu: \"805m\"\n    memory: \"392Mi\"\n  ports:\n    - 2959\n  description: \"split finished for the record\"\n    - 2964\n";
    let new = "  limits:\n    cpu: \"805m\"\n    memory: \"392Mi\"\n  ports:\n    - 2964\n    added_line_46();\n  description: \"split finished for the record\"\n    - 2964\n";
    let want = "  limits:\n    cpu: \"805m\"\n    memory: \"392Mi\"\n  ports:\n    - 2964\n    added_line_46();\n    - 2964\n  description: \"split finished for the record\"\n\nnext:\n";
    match edit_outcome::apply(file, search, new) {
        Ok(got) => assert_eq!(got, want),
        Err(refusal) => assert!(format!("{refusal:?}").contains("Unverified"), "{refusal:?}"),
    }
}
