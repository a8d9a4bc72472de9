//! Lines new_content writes past the search's ends. edit_code reads them
//! from a diff of the caller's two texts; where lines repeat and one of them
//! is misspelt, one diff can take a rewrite inside the search for lines
//! written out past it, and the next group of look-alike lines was removed
//! (found by the drift fuzzer on a crate's table of UTF-8 tests). The rival
//! diff (the longest common reading) is now compared, and an edit on which
//! the two disagree is refused.

#[path = "edit_outcome/mod.rs"]
mod edit_outcome;

use edit_outcome::{apply, intended_or_refused};

/// Groups of three lines, alike but for their bytes and sizes.
fn groups(cases: &[(&str, usize)]) -> String {
    cases
        .iter()
        .map(|(bytes, size)| {
            format!(
                "        let (ch, size) = decode_last(b\"{bytes}\");\n        assert_eq!(None, ch);\n        assert_eq!({size}, size);\n\n"
            )
        })
        .collect()
}

#[test]
fn a_rewrite_of_the_last_group_does_not_take_the_next_group_away() {
    let file = format!(
        "fn decode_tests() {{\n{}}}\n",
        groups(&[
            ("\\xF0", 1),
            ("\\xED\\xA0\\x80", 1),
            ("\\xED\\xA0", 1),
            ("\\xED", 1)
        ])
    );
    // From the first group's last two lines, one misspelt, to the second
    // group's end; new_content fixes the slip, rewrites the second group's
    // last line and adds a comment after it.
    let search = "        assert_eq!(None, ch);\n        assert_eq!(1, siez);\n\n        let (ch, size) = decode_last(b\"\\xED\\xA0\\x80\");\n        assert_eq!(None, ch);\n        assert_eq!(1, size);\n\n";
    let new = "        assert_eq!(None, ch);\n        assert_eq!(1, size);\n\n        let (ch, size) = decode_last(b\"\\xED\\xA0\\x80\");\n        assert_eq!(None, ch);\n        assert_eq_next!(1, size);\n        // checked again below\n\n";
    let want = file.replacen(
        "decode_last(b\"\\xED\\xA0\\x80\");\n        assert_eq!(None, ch);\n        assert_eq!(1, size);\n",
        "decode_last(b\"\\xED\\xA0\\x80\");\n        assert_eq!(None, ch);\n        assert_eq_next!(1, size);\n        // checked again below\n",
        1,
    );
    intended_or_refused(apply(&file, search, new), &want);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig {
        cases: 500,
        failure_persistence: None,
        ..proptest::prelude::ProptestConfig::default()
    })]

    /// Property: in a run of look-alike groups, a search from inside one
    /// group to the end of a later one (with a slip or not), and a
    /// new_content that rewrites a line of the search and may add lines
    /// after it, changes exactly that; or the edit is refused. No line past
    /// the search is removed or doubled.
    #[test]
    fn a_change_inside_the_search_among_look_alikes_stays_inside_it(
        sizes in proptest::collection::vec(1usize..3, 4..8),
        from in 0usize..100,
        len in 1usize..3,
        start_line in 0usize..3,
        slip in proptest::option::of(0usize..100),
        rewrite in 0usize..100,
        added in 0usize..3,
    ) {
        let n = sizes.len();
        let names: Vec<String> = (0..n).map(|k| format!("\\x{:02X}", 0x80 + k * 7)).collect();
        let cases: Vec<(&str, usize)> = names.iter().map(|s| s.as_str()).zip(sizes.iter().copied()).collect();
        let file = format!("fn decode_tests() {{\n{}}}\n", groups(&cases));
        let lines: Vec<&str> = file.split_inclusive('\n').collect();
        // Group k occupies lines 1 + 4k .. 1 + 4k + 4 (the last one blank).
        let first = from % (n - len);
        let lo = 1 + 4 * first + start_line;
        let hi = 1 + 4 * (first + len + 1);
        let mut search: Vec<String> = lines[lo..hi].iter().map(|l| l.to_string()).collect();
        let mut new = search.clone();
        // The slip: in a line naming `size`, most often the first group's
        // last line, which repeats in every group of the same size.
        if let Some(slip) = slip {
            let named: Vec<usize> = (0..search.len()).filter(|&k| search[k].contains("size")).collect();
            let k = if slip < 60 {
                named.iter().copied().find(|&k| search[k].contains(", size);")).unwrap_or(named[0])
            } else {
                named[slip % named.len()]
            };
            let i = search[k].rfind("size").unwrap_or(0);
            search[k].replace_range(i..i + 4, "siez");
        }
        // The rewritten line: one with text, in the search's range.
        let texts: Vec<usize> = (0..new.len()).filter(|&k| !new[k].trim().is_empty()).collect();
        let r = texts[rewrite % texts.len()];
        new[r] = new[r].replacen("assert_eq!", "assert_eq_next!", 1).replacen("decode_last", "decode_next", 1);
        for a in 0..added {
            new.insert(r + 1 + a, format!("        // checked again below {a}\n"));
        }
        let mut want: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        want.splice(lo..hi, new.iter().cloned());
        // The slip is in the search only: new_content has the file's line.
        let want = want.concat();
        intended_or_refused(apply(&file, &search.concat(), &new.concat()), &want);
    }
}

/// A test that repeats one block three times; the search leaves out a line
/// near its start and shows the first repetition and the start of the
/// second, and new_content writes all three out, changing the second. Read
/// with the shortest left-out run, the search ends at the first repetition
/// and new_content's third is an insertion: three lines the file has right
/// past the match were written a second time (futures' select_all test,
/// drift bench). Which repetition the search ends at is not in the
/// caller's texts; the lines they write out that the file has just past the
/// match show it does not end there, so the edit is refused.
#[test]
fn lines_written_again_that_the_file_has_just_past_the_match_are_refused() {
    let file = "use std::collections::HashSet;\n\n#[test]\nfn smoke() {\n    let v = vec![ready(1), ready(2), ready(3)];\n\n    let mut c = vec![1, 2, 3].into_iter().collect::<HashSet<_>>();\n\n    let (i, idx, v) = block_on(select_all(v));\n    assert!(c.remove(&i));\n    assert_eq!(idx, 0);\n\n    let (i, idx, v) = block_on(select_all(v));\n    assert!(c.remove(&i));\n    assert_eq!(idx, 0);\n\n    let (i, idx, v) = block_on(select_all(v));\n    assert!(c.remove(&i));\n    assert_eq!(idx, 0);\n\n    assert!(c.is_empty());\n}\n";
    let search = "#[test]\nfn smoke() {\n    let v = vec![ready(1), ready(2), ready(3)];\n\n    let (i, idx, v) = block_on(select_all(v));\n    assert!(c.remove(&i));\n    assert_eq!(idx, 0);\n\n    let (i, idx, v) = block_on(select_all(v));\n    assert!(c.remove(&i));\n";
    let new = "#[test]\nfn smoke() {\n    let v = vec![ready(1), ready(2), ready(3)];\n\n    let mut c = vec![1, 2, 3].into_iter().collect::<HashSet<_>>();\n\n    let (i, idx, v) = block_on(select_all(v));\n    assert!(c.remove(&i));\n    assert_eq!(idx, 0);\n\n    let (i, idx, v) = block_on(select_all(v));\n    assert_next!(c.remove(&i));\n    assert_eq!(idx, 0);\n\n    let (i, idx, v) = block_on(select_all(v));\n    assert!(c.remove(&i));\n";
    let want = file.replacen(
        "    let (i, idx, v) = block_on(select_all(v));\n    assert!(c.remove(&i));\n    assert_eq!(idx, 0);\n\n    let (i, idx, v) = block_on(select_all(v));\n    assert!(",
        "    let (i, idx, v) = block_on(select_all(v));\n    assert!(c.remove(&i));\n    assert_eq!(idx, 0);\n\n    let (i, idx, v) = block_on(select_all(v));\n    assert_next!(",
        1,
    );
    let got = apply(file, search, new);
    match got {
        Ok(got) => assert_eq!(got, want),
        Err(refusal) => assert!(
            refusal.to_string().contains("just past the lines matched"),
            "{refusal}"
        ),
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig {
        cases: 400,
        failure_persistence: None,
        ..proptest::prelude::ProptestConfig::default()
    })]

    /// Property: a block the file repeats several times, and a caller's
    /// block that starts before the repetitions. The search leaves out lines
    /// in its middle (the set-up, a blank line) and stops inside a
    /// repetition, earlier than the caller's block does; new_content is the
    /// caller's whole block with one line of one repetition changed. The
    /// file gets exactly that change, or nothing: no repetition is written
    /// twice or lost.
    #[test]
    fn a_search_that_stops_inside_a_repeated_block_never_doubles_it(
        body in proptest::collection::vec("[a-z]{2,7}\\(&[a-z]{1,3}\\)", 2..4),
        reps in 2usize..5,
        left_out in 1usize..3,
        upto in 0usize..100,
        cut in 1usize..4,
        changed in 0usize..100,
    ) {
        let mut lines: Vec<String> = vec![
            "#[test]\n".into(),
            "fn smoke() {\n".into(),
            "    let v = setup(1, 2, 3);\n".into(),
            "\n".into(),
            "    let mut c = collect(&v);\n".into(),
            "\n".into(),
        ];
        let first_rep = lines.len();
        for _ in 0..reps {
            for b in &body {
                lines.push(format!("    assert!({b});\n"));
            }
            lines.push("\n".into());
        }
        lines.push("    assert!(c.is_empty());\n".into());
        lines.push("}\n".into());
        let file = lines.concat();
        let per = body.len() + 1;
        // The caller's block: from the top to somewhere in a repetition
        // after the first.
        let end = first_rep + per + upto % ((reps - 1) * per) + 1;
        let block: Vec<String> = lines[..end].to_vec();
        // The search: the block without `left_out` lines of the set-up and
        // without its last `cut` lines (keeping at least one repetition's
        // line).
        let mut search = block.clone();
        search.drain(4..4 + left_out);
        let keep = search.len().saturating_sub(cut).max(first_rep - left_out + 1);
        search.truncate(keep);
        // new_content: the whole block, one line of a repetition changed.
        let texts: Vec<usize> = (first_rep..end).filter(|&k| !block[k].trim().is_empty()).collect();
        let at = texts[changed % texts.len()];
        let mut new = block.clone();
        new[at] = new[at].replacen("assert!", "assert_next!", 1);
        let mut want = lines.clone();
        want[at] = new[at].clone();
        intended_or_refused(apply(&file, &search.concat(), &new.concat()), &want.concat());
    }
}
