//! A search the file holds twice, each copy one line away from it: the
//! caller's own block lost a line since it was read, and another block
//! gained a line, or has one line otherwise. Each is one line of drift from
//! what the caller shows; that the one line is shorter in the other block
//! makes it cheaper, but says nothing about which block the caller read.
//! Nothing is changed. Found by the unseen bench (seed 7, held out) on two
//! methods with the same parameters, one with a parameter more, and on two
//! docstrings that differ in their last line. Each test checks exact
//! bytes, or that the file is written exactly as intended or not at all.

#[path = "edit_outcome/mod.rs"]
mod edit_outcome;

use edit_outcome::{apply, candidate_lines, intended_or_refused, two_functions};
use mcp_server_text::text::fuzzy::Refusal;
use proptest::prelude::*;

fn text(lines: &[&str]) -> String {
    lines.iter().map(|l| format!("{l}\n")).collect()
}

const SIGNATURE: &[&str] = &[
    "        request_id: Option<u64>,",
    "        retry_after: Option<std::time::Duration>,",
    "        headers: Vec<(String, String)>,",
    "    ) -> Result<",
    "        std::collections::HashMap<String, std::sync::Arc<Vec<u8>>>,",
    "        crate::transport::connection::ConnectionError<Self::Error>,",
    "    > {",
    "        let headers = headers.clone();",
];

/// The caller's method lost its long error-type line since it was read;
/// the next method has the same lines and a short parameter more.
fn two_methods() -> String {
    let mut lost = SIGNATURE.to_vec();
    lost.remove(5);
    let mut more = SIGNATURE.to_vec();
    more.insert(3, "        limit: usize,");
    format!(
        "impl Client {{\n    fn fetch(\n        &self,\n{}        self.send(headers)\n    }}\n\n    fn fetch_limited(\n        &self,\n{}        self.send_limited(headers, limit)\n    }}\n}}\n",
        text(&lost),
        text(&more)
    )
}

#[test]
fn a_copy_that_gained_a_short_line_is_no_better_than_the_block_that_lost_a_long_one() {
    let file = two_methods();
    let search = text(SIGNATURE);
    let new = search.replace("retry_after: Option", "retry_after_next: Option");
    match apply(&file, &search, &new).unwrap_err() {
        Refusal::Ambiguous { candidates, .. } => {
            assert_eq!(candidate_lines(&candidates), [(16, 24), (4, 10)]);
        }
        other => panic!("not ambiguous: {other}"),
    }
}

#[test]
fn the_copy_alone_is_edited_with_its_line_kept() {
    // Without the caller's block, the copy that gained a line is the place,
    // and the line it gained stays.
    let file = two_methods();
    let file = &file[file.find("    fn fetch_limited").unwrap()..];
    let search = text(SIGNATURE);
    let new = search.replace("retry_after: Option", "retry_after_next: Option");
    assert_eq!(
        apply(file, &search, &new).unwrap(),
        file.replace("retry_after: Option", "retry_after_next: Option")
    );
}

#[test]
fn a_docstring_with_another_last_line_is_no_better_than_the_one_that_lost_a_line() {
    let file = "def is_region(self):\n    \"\"\"True if the condition is on a region\n\n    Args: None\n\n        bool\n    \"\"\"\n    return self.region\n\n\ndef equals(self):\n    \"\"\"The equals of the condition\n\n    Args: None\n\n    Returns:\n        Sequence[Equal] | None: the equals\n    \"\"\"\n    return self.equals\n";
    let search = "\n    Args: None\n\n    Returns:\n        bool\n";
    let new = "\n    Args_next: None\n\n    Returns:\n        bool\n";
    match apply(file, search, new).unwrap_err() {
        Refusal::Ambiguous { candidates, .. } => {
            assert_eq!(candidate_lines(&candidates), [(13, 16), (3, 6)]);
        }
        other => panic!("not ambiguous: {other}"),
    }
}

/// Lines of a block: each of a few words, from `words`.
fn block(words: &[String], lines: usize, per_line: usize) -> Vec<String> {
    (0..lines)
        .map(|i| {
            let row: Vec<&str> = (0..per_line)
                .map(|k| words[(i * per_line + k) % words.len()].as_str())
                .collect();
            format!("    {}({});", row[0], row[1..].join(", "))
        })
        .collect()
}

#[test]
fn a_copy_that_gained_a_long_line_is_no_better_than_the_block_whose_first_line_is_gone() {
    // The block's first line is gone from `mine`; the alignment reads it as
    // paired with the unlike `fn mine() {` rather than lost, and a copy that
    // gained a long line seemed the better place (found by the property
    // below, about one run in ten).
    let caller: Vec<String> = [
        "    vppxoy(pjgenqgj, amixiqnge, nkvk, xahfokpy);",
        "    xjk(somozfu, xehdrct, czmrdntu, nkho);",
        "    xfatz(cvyfgmv, etiioadcd, fxprz, llcgi);",
        "    uzoepvca(uoodiqur, airaxs, nil, dcwfenipj);",
        "    jmsfods(qeri, oknrl, bjkocx, zemwj);",
        "    fujuyb(bpk, sig, sllxbt, swk);",
        "    marpupal(ovrc, ecpsfrjga, ipuliodg, zmj);",
        "    ivjdm(icyw, nhlpnw, uvgvysig, eyg);",
        "    oamvu(mskexdzk, btar, rmad, tablzwb);",
        "    tged(gfv, omhgex, rfdxloatw, ihurwfpp);",
        "    mehl(dqsotu, rtavinyp, gaazmmiuv, prepzjkk);",
    ]
    .map(String::from)
    .to_vec();
    let mut copy = caller.clone();
    copy.insert(
        9,
        "    buaizla.qvnyxbqq.chsncaekx.jljslih.fscx.lat.boy.dpcr;".to_string(),
    );
    let lost = caller[1..].to_vec();
    let mut new = caller.clone();
    new[3] = new[3].replacen('(', "_next(", 1);
    let file = two_functions(&lost, &copy, true);
    let want = two_functions(&new[1..], &copy, true);
    let join = |v: &[String]| v.iter().map(|l| format!("{l}\n")).collect::<String>();
    let got = apply(&file, &join(&caller), &join(&new));
    intended_or_refused(got, &want);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The file holds the caller's block of 6–12 lines with one of them
    /// removed since it was read and, before or after it, a copy with one
    /// line more (of any length) or one line replaced by another. The caller
    /// changes a line both have. The caller's block gets the change, or
    /// nothing is changed: never the copy.
    #[test]
    fn a_copy_one_line_away_is_not_edited_for_the_block_that_lost_a_line(
        words in proptest::collection::hash_set("[a-z]{3,9}", 80),
        lines in 6usize..13,
        per_line in 2usize..6,
        gone in 0usize..12,
        other in 0usize..13,
        other_words in 1usize..9,
        replaced in any::<bool>(),
        changed in 0usize..12,
        copy_first in any::<bool>(),
    ) {
        let words: Vec<String> = words.into_iter().collect();
        let caller = block(&words, lines, per_line);
        let gone = gone % lines;
        let mut lost = caller.clone();
        lost.remove(gone);
        // A line the block does not have, of 1 to 8 words.
        let odd: Vec<&str> = words[70..70 + other_words.min(10)].iter().map(String::as_str).collect();
        let odd = format!("    {};", odd.join("."));
        let mut copy = caller.clone();
        if replaced {
            copy[other % lines] = odd;
        } else {
            // Inside the block: at its edge the copy would hold the
            // caller's block exactly.
            copy.insert(1 + other % (lines - 1), odd);
        }
        let changed = (0..lines).filter(|&i| i != gone).nth(changed % (lines - 1)).unwrap();
        prop_assume!(!replaced || changed != other % lines);
        let mut new = caller.clone();
        new[changed] = caller[changed].replacen('(', "_next(", 1);
        let mut lost_new = lost.clone();
        let at = if changed < gone { changed } else { changed - 1 };
        lost_new[at] = new[changed].clone();
        let join = |v: &[String]| v.iter().map(|l| format!("{l}\n")).collect::<String>();
        let file = two_functions(&lost, &copy, copy_first);
        let want = two_functions(&lost_new, &copy, copy_first);
        intended_or_refused(apply(&file, &join(&caller), &join(&new)), &want);
    }
}
