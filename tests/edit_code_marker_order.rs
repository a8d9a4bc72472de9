//! Lines a marker stands for, written out in new_content with a line added
//! among them, keep new_content's order: the added line goes where
//! new_content puts it, before the blank line that ends the marker's lines
//! when new_content has it so. The marker's blank line was taken for one
//! new_content did not write, and the added line went in past it. Found by
//! the drift bench (seed 8, held out) on a C header whose search elides an
//! `#endif` and the blank line after it. Each test checks exact bytes, or
//! that the file is written exactly as intended or not at all.

#[path = "edit_outcome/mod.rs"]
mod edit_outcome;

use edit_outcome::{apply, intended_or_refused};
use proptest::prelude::*;

const HEADER: &str = "#ifndef T_H\n#define T_H 1\n\n#if WIDE\n/* Use the wide type.  */\n# define T_TYPE\t\tWIDE_TYPE\n#else\n/* Use the narrow type.  */\n# define T_TYPE\t\tNARROW_TYPE\n#endif\n\n#endif /* t.h */\n";

#[test]
fn a_line_added_after_a_marker_s_lines_goes_before_their_blank_line() {
    let search = "/* Use the wide type.  */\n# define T_TYPE\t\tWIDE_TYPE\n#else\n/* Use the narrow type.  */\n# define T_TYPE\t\tNARROW_TYPE\n// ... existing code ...\n#endif /* t.h */\n\n\n";
    let new = "/* Use the wide_next type.  */\n# define T_TYPE\t\tWIDE_TYPE\n#else\n/* Use the narrow type.  */\n# define T_TYPE\t\tNARROW_TYPE\n#endif\n// checked again below\n\n#endif /* t_next.h */\n";
    let want = HEADER.replace("wide type", "wide_next type").replace(
        "#endif\n\n#endif /* t.h */",
        "#endif\n// checked again below\n\n#endif /* t_next.h */",
    );
    assert_eq!(apply(HEADER, search, new).unwrap(), want);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// A block whose search elides 1–3 lines of text and the 1–2 blank
    /// lines after them with a marker; new_content writes those lines out
    /// with a line added after them, then the blank lines, and changes the
    /// block's first line; the search may end in 0–2 blank lines more. The
    /// added line goes where new_content has it, or nothing is changed.
    #[test]
    fn lines_added_among_a_marker_s_lines_keep_new_content_s_order(
        names in proptest::collection::hash_set("[a-z]{3,8}", 12),
        before in 1usize..4,
        hidden in 1usize..4,
        blanks in 1usize..3,
        trailing in 0usize..3,
        last_changed in any::<bool>(),
    ) {
        let names: Vec<String> = names.into_iter().collect();
        let line = |k: usize| format!("    call_{}({});", names[k], k);
        let shown: Vec<String> = (0..before).map(line).collect();
        let under: Vec<String> = (before..before + hidden).map(line).collect();
        let last = format!("    finish_{}();", names[11]);
        let mut file_lines = vec!["fn run() {".to_string()];
        file_lines.extend(shown.iter().cloned());
        file_lines.extend(under.iter().cloned());
        file_lines.extend(std::iter::repeat_n(String::new(), blanks));
        file_lines.push(last.clone());
        file_lines.push("}".to_string());
        let mut search = shown.clone();
        search.push("    // ... existing code ...".to_string());
        search.push(last.clone());
        search.extend(std::iter::repeat_n(String::new(), trailing));
        let first_new = shown[0].replacen("call_", "call_next_", 1);
        let last_new = if last_changed { last.replacen("finish_", "finish_next_", 1) } else { last.clone() };
        let added = "    checked_again();".to_string();
        let mut new = vec![first_new.clone()];
        new.extend(shown[1..].iter().cloned());
        new.extend(under.iter().cloned());
        new.push(added.clone());
        new.extend(std::iter::repeat_n(String::new(), blanks));
        new.push(last_new.clone());
        let mut want = vec!["fn run() {".to_string(), first_new];
        want.extend(shown[1..].iter().cloned());
        want.extend(under.iter().cloned());
        want.push(added);
        want.extend(std::iter::repeat_n(String::new(), blanks));
        want.push(last_new);
        want.push("}".to_string());
        let join = |v: &[String]| v.iter().map(|l| format!("{l}\n")).collect::<String>();
        intended_or_refused(apply(&join(&file_lines), &join(&search), &join(&new)), &join(&want));
    }
}
