//! A search the file holds twice in a way: once as the caller read it but
//! with a line removed since, and once whole but with spaces changed within
//! some lines (`name : type` for `name: type`). Spaces cost nothing, so the
//! whole copy is the cheaper fit; yet the other reads the search literally,
//! line for line. Which one the caller read is not clear, so nothing is
//! changed. Found by the unseen bench (seed 5, held out) on a networkx
//! docstring that a second class repeats in numpydoc style. Each test checks
//! exact bytes, or that the file is written exactly as intended or not at
//! all.

#[path = "edit_outcome/mod.rs"]
mod edit_outcome;

use edit_outcome::{apply, candidate_lines, intended_or_refused, two_functions};
use mcp_server_text::text::fuzzy::Refusal;
use proptest::prelude::*;

const DOC: &[&str] = &[
    "        node_match: callable",
    "            A function that returns True iff node n1 in G1 and n2 in G2",
    "            should be considered equal during the isomorphism test. The",
    "            function will be called like::",
    "",
    "               node_match(G1.nodes[n1], G2.nodes[n2])",
    "",
    "            That is, the function will receive the node attribute dictionaries",
    "            of the nodes under consideration. If None, then no attributes are",
    "            considered when testing for an isomorphism.",
    "",
    "        edge_match: callable",
];

fn text(lines: &[&str]) -> String {
    lines.iter().map(|l| format!("{l}\n")).collect()
}

/// The caller's copy with its second line gone, a method between, then the
/// other class's copy whole, with a space before each colon of the
/// parameter lines.
fn two_classes() -> String {
    let mut lost = DOC.to_vec();
    lost.remove(1);
    let spaced: Vec<String> = DOC
        .iter()
        .map(|l| l.replace("match: ", "match : "))
        .collect();
    let spaced: Vec<&str> = spaced.iter().map(String::as_str).collect();
    let between: String = (0..16)
        .map(|i| format!("        step_{i}(self)\n"))
        .collect();
    format!(
        "class GraphMatcher:\n    \"\"\"\n{}    \"\"\"\n\n    def run(self):\n{between}\n\nclass DiGraphMatcher:\n    \"\"\"\n{}    \"\"\"\n",
        text(&lost),
        text(&spaced)
    )
}

#[test]
fn a_copy_that_differs_in_spaces_is_no_better_than_one_that_lost_a_line() {
    let file = two_classes();
    let search = text(DOC);
    let new = search.replace("G1.nodes[n1]", "G1.nodes_next[n1]");
    match apply(&file, &search, &new).unwrap_err() {
        Refusal::Ambiguous { candidates, .. } => {
            assert_eq!(candidate_lines(&candidates), [(37, 48), (3, 13)]);
        }
        other => panic!("not ambiguous: {other}"),
    }
}

#[test]
fn a_copy_that_differs_only_in_spaces_is_edited_when_it_is_the_only_one() {
    // The same spaced copy alone: the caller's spaces are noise.
    let file = two_classes();
    let file = &file[file.find("class DiGraphMatcher").unwrap()..];
    let search = text(DOC);
    let new = search.replace("G1.nodes[n1]", "G1.nodes_next[n1]");
    assert_eq!(
        apply(file, &search, &new).unwrap(),
        file.replace("G1.nodes[n1]", "G1.nodes_next[n1]")
    );
}

/// Lines of a block: each of a few words, from `words`.
fn block(words: &[String], lines: usize, per_line: usize) -> Vec<String> {
    (0..lines)
        .map(|i| {
            let row: Vec<&str> = (0..per_line)
                .map(|k| words[(i * per_line + k) % words.len()].as_str())
                .collect();
            format!("    {}: {}", row[0], row[1..].join(" "))
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The file holds the caller's block with one of its 8–13 lines removed
    /// (well within the default tolerance) and, before or after it, a copy
    /// whole with a space put before the colon of some
    /// lines (two or more). The caller changes a line both copies have. The caller's
    /// block gets the change, or nothing is changed: never the copy.
    #[test]
    fn a_copy_cheaper_only_by_noise_is_not_edited_for_the_block_the_caller_read(
        words in proptest::collection::hash_set("[a-z]{3,9}", 70),
        lines in 8usize..14,
        per_line in 3usize..6,
        gone in 1usize..4,
        spaced in proptest::collection::vec(any::<bool>(), 10),
        changed in 0usize..10,
        copy_first in any::<bool>(),
    ) {
        let words: Vec<String> = words.into_iter().collect();
        let caller = block(&words, lines, per_line);
        let gone = gone.min(lines - 2);
        let mut lost = caller.clone();
        lost.remove(gone);
        let copy: Vec<String> = caller
            .iter()
            .zip(spaced.iter().cycle())
            .map(|(l, &s)| if s { l.replacen(": ", " : ", 1) } else { l.clone() })
            .collect();
        // With one such line, both copies read as many lines literally,
        // and the cheaper one is the caller's by the cost model.
        prop_assume!(copy.iter().zip(&caller).filter(|(a, b)| a != b).count() >= 2);
        let changed = (0..lines).filter(|&i| i != gone).nth(changed % (lines - 1)).unwrap();
        let mut new = caller.clone();
        new[changed] = format!("{}_next", caller[changed]);
        let mut lost_new = lost.clone();
        let at = if changed < gone { changed } else { changed - 1 };
        lost_new[at] = new[changed].clone();
        let join = |v: &[String]| v.iter().map(|l| format!("{l}\n")).collect::<String>();
        let file = two_functions(&lost, &copy, copy_first);
        let want = two_functions(&lost_new, &copy, copy_first);
        intended_or_refused(apply(&file, &join(&caller), &join(&new)), &want);
    }
}
