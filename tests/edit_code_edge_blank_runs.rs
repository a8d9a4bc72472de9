//! A search that ends in part of a run of blank lines the file goes on
//! with past it, where `new_content` ends in more blank lines than the
//! search. The caller's copy may have lost a blank line (and new_content
//! counts the whole run), or the caller may add one: the two readings write
//! different files, so unless the edit comes to new_content's count, nothing
//! is changed. Found by the drift bench (seed 6, held out) on an ICU header,
//! where a fourth blank line was written after a declaration. Each test
//! checks that the file is written exactly as intended or not at all.

#[path = "edit_outcome/mod.rs"]
mod edit_outcome;

use edit_outcome::{apply, intended_or_refused};
use proptest::prelude::*;

const HEADER: &str = "class Info {
    /**
     * Return true if another object is semantically unequal to this one.
     *
     * @param other    the Info object to be compared with.
     * @stable ICU 4.0
     */
    bool operator!=(const Info& other) const;



    /**
     * Provides a way for client to build interval patterns.
     */
    void build();
};
";

#[test]
fn a_blank_line_the_search_lost_is_not_added_past_the_file_s_run() {
    // The search (with a typo) ends in two of the three blank lines; the
    // caller adds a comment line and writes the run as three.
    let search = "     * Return true if another object is semantically unequal to this one.
     *
     * @param other    the Info object to be compared with.
     * @stable ICU 4.0
     */
    bool operator!=(const Info& other) const;


";
    let new = "     * Return true if another object is semantically unequal to this one.
     *
     * @param other    the Info object to be compared with.
     * @stable ICU 4.0
     */
    bool operator!=(const Info& other) const;
    // checked again below



";
    let got = apply(HEADER, &search.replace("semantically", "selantically"), new);
    let four = HEADER.replace(
        "const;\n\n\n\n",
        "const;\n    // checked again below\n\n\n\n\n",
    );
    assert_ne!(
        got.as_deref().ok(),
        Some(four.as_str()),
        "a fourth blank line was written"
    );
    let want = HEADER.replace("const;\n", "const;\n    // checked again below\n");
    intended_or_refused(got, &want);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Declarations, each with a comment, apart by runs of 1–3 blank lines.
    /// The search is one declaration and part of the run after it (its copy
    /// lost 1–2 of them, and it has a typo: found exactly, a search is
    /// replaced as sent, its bytes and no more); new_content adds a line
    /// after the declaration and writes the run whole. The file keeps its
    /// run, or is left alone.
    #[test]
    fn a_run_the_search_saw_part_of_keeps_its_count(
        runs in proptest::collection::vec(1usize..4, 3..6),
        at in 0usize..4,
        lost in 0usize..2,
    ) {
        let at = at % (runs.len() - 1);
        let mut runs = runs;
        runs[at] = runs[at].max(2);
        let lost = 1 + lost % (runs[at] - 1);
        let mut file = String::new();
        let mut search = String::new();
        let mut new = String::new();
        let mut want = String::new();
        for (i, run) in runs.iter().enumerate() {
            let block = format!(
                "    /**\n     * Returns the value of field number {i} of the record.\n     */\n    int field_{i}(const Record& record) const;\n"
            );
            let blanks = "\n".repeat(*run);
            file.push_str(&block);
            file.push_str(&blanks);
            want.push_str(&block);
            if i == at {
                let shown = block.replace("Returns", "Retruns");
                search = format!("{shown}{}", "\n".repeat(run - lost));
                let added = "    // read by the writer too\n";
                new = format!("{block}{added}{blanks}");
                want.push_str(added);
            }
            want.push_str(&blanks);
        }
        intended_or_refused(apply(&file, &search, &new), &want);
    }
}
