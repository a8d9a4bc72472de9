//! Lines the caller keeps byte for byte stay as the file has them, whatever
//! look-alikes the caller's change writes beside them.
//!
//! The caller's own change is read from a diff of search_context and
//! new_content. Where two lines of one key (`break;` and `break;  `) could
//! each be the one kept, the diff's choice decides which bytes go into the
//! file: a search with `breakk;` (fixed to `break;` in new_content) and a
//! kept `break;  ` read as the kept line moved up, and the file's `break;`
//! was written again with the caller's trailing spaces (a V8 header, drift
//! fuzzer). Lines equal to the space are paired first, unless that pairs
//! fewer lines than the plain diff (a kept line whose trailing spaces the
//! caller dropped, crossing a look-alike the caller rewrote: a crate's
//! derive attributes).

#[path = "edit_outcome/mod.rs"]
mod edit_outcome;

use edit_outcome::{made_at_least, made_or_refused, text_of};
use proptest::prelude::*;

/// Lines of a switch, few enough that the block repeats them.
const WORDS: [&str; 5] = [
    "break;",
    "count += 1;",
    "case Kind::Marking:",
    "update(params, value);",
    "case Kind::None:",
];

/// How the caller's copy of one block line reads.
#[derive(Debug, Clone, Copy)]
enum Copy {
    /// As the file has it, kept.
    Kept,
    /// With trailing spaces, kept with them in new_content.
    SpacedKept,
    /// With trailing spaces, which new_content drops.
    SpacedDropped,
}

#[derive(Debug, Clone)]
struct Case {
    lines: Vec<(usize, Copy)>,
    /// The line the search misspells and new_content fixes.
    typo: usize,
    /// The line new_content rewrites.
    changed: usize,
}

fn cases() -> impl Strategy<Value = Case> {
    let copy = prop_oneof![
        Just(Copy::Kept),
        Just(Copy::SpacedKept),
        Just(Copy::SpacedDropped)
    ];
    prop::collection::vec((0..WORDS.len(), copy), 5..10)
        .prop_flat_map(|lines| {
            let n = lines.len();
            (Just(lines), 0..n, 0..n)
        })
        .prop_filter("two lines", |(_, typo, changed)| typo != changed)
        .prop_map(|(lines, typo, changed)| Case {
            lines,
            typo,
            changed,
        })
}

fn check(case: &Case) -> Result<bool, TestCaseError> {
    let indent = |w: &str| format!("        {w}");
    // The first letter doubled: `bbreak;`, `ccase Kind::None:`.
    let misspelled = |w: &str| format!("{}{w}", &w[..1]);
    let rewritten = |w: &str| {
        w.replace("Kind", "Kind_next")
            .replace("(params", "(params_next")
    };
    let renamed = |w: &str| {
        let r = rewritten(w);
        if r == w { format!("{w} // next") } else { r }
    };
    let (mut file, mut search, mut new, mut want) = (vec![], vec![], vec![], vec![]);
    for (k, &(w, copy)) in case.lines.iter().enumerate() {
        let w = WORDS[w];
        let on_disk = indent(w);
        let (s, n) = if k == case.typo {
            (indent(&misspelled(w)), on_disk.clone())
        } else if k == case.changed {
            (on_disk.clone(), indent(&renamed(w)))
        } else {
            match copy {
                Copy::Kept => (on_disk.clone(), on_disk.clone()),
                Copy::SpacedKept => (format!("{on_disk}  "), format!("{on_disk}  ")),
                Copy::SpacedDropped => (format!("{on_disk}  "), on_disk.clone()),
            }
        };
        want.push(if k == case.changed {
            n.clone()
        } else {
            on_disk.clone()
        });
        file.push(on_disk);
        search.push(s);
        new.push(n);
    }
    let head = [
        "fn barrier(params: Params, value: Value) {",
        "    match kind {",
    ];
    let tail = ["    }", "}"];
    let whole = |block: &[String]| {
        let lines: Vec<String> = head
            .iter()
            .map(|l| l.to_string())
            .chain(block.iter().cloned())
            .chain(tail.iter().map(|l| l.to_string()))
            .collect();
        text_of(&lines, false)
    };
    made_or_refused(
        &whole(&file),
        &text_of(&search, false),
        &text_of(&new, false),
        &whole(&want),
    )
}

/// Property: the typo fixed and the changed line written, every other line
/// as the file has it, or the edit refused.
#[test]
fn kept_lines_keep_the_file_s_bytes_beside_look_alikes_the_caller_writes() {
    // 400 of 400 made when written.
    made_at_least(400, 380, cases(), |case| check(&case));
}

/// The V8 header's case in miniature: `breakk;` fixed, `break;  ` kept,
/// the case label between them rewritten.
#[test]
fn a_kept_line_with_trailing_spaces_is_not_the_typo_fixed_above_it() {
    let file = "fn f() {\n    match kind {\n        case Kind::Marking:\n        update(params, value);\n        break;\n        case Kind::None:\n        break;\n    }\n}\n";
    let search = "        case Kind::Marking:\n        update(params, value);\n        breakk;\n        case Kind::None:\n        break;  \n    }\n";
    let new = "        case Kind::Marking:\n        update(params, value);\n        break;\n        case Kind_next::None:\n        break;  \n    }\n";
    let want = file.replace("case Kind::None:", "case Kind_next::None:");
    assert_eq!(edit_outcome::apply(file, search, new).unwrap(), want);
}
