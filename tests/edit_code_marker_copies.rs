//! An elided search in a file of many look-alike blocks (generated code:
//! one `Debug` helper per field, all alike but for the field and its type).
//! Found by a held-out drift run:
//!
//! - The lines before the search's marker occur once per block. Only the
//!   first dozen of their copies were weighed, the caller's block came later,
//!   and an earlier look-alike was edited. The piece of the search with the
//!   fewest copies now proposes places too.
//! - With the caller's block gone, the look-alike fitted every line the search
//!   shows; new_content writes out the marker's lines, and one of them, the
//!   caller's `if let Some(val) = &self.value.expr {`, was written over the
//!   look-alike's `if let Some(val) = &_val.expr {`. A line a marker stands for,
//!   written out as another line the file has elsewhere, is the caller's memory
//!   of another block, not a change: refused.
//! - Where every piece of the search has more copies than are aligned, the
//!   places weighed are a sample: the best of them is refused as ambiguous
//!   (`crowded`), since a copy never weighed may fit as well.

#[path = "edit_outcome/mod.rs"]
mod edit_outcome;

use edit_outcome::{made_or_refused, run};
use proptest::prelude::*;

/// One field's helper at indentation `pad`: `source` is what the field is
/// read from (`self.value` or `_val`).
fn helper(pad: &str, source: &str, field: &str, ty: &str) -> Vec<String> {
    let inner = [
        format!("if let Some(val) = &{source}.{field} {{"),
        "    #[derive(RefCast)]".to_string(),
        "    #[repr(transparent)]".to_string(),
        format!("    struct Print({ty});"),
        "    impl Debug for Print {".to_string(),
        "        fn fmt(&self, formatter: &mut fmt::Formatter) -> fmt::Result {".to_string(),
        "            formatter.write_str(\"Some(\")?;".to_string(),
        "            Debug::fmt(Lite(&self.0), formatter)?;".to_string(),
        "            formatter.write_str(\")\")?;".to_string(),
        "            Ok(())".to_string(),
        "        }".to_string(),
        "    }".to_string(),
        format!("    formatter.field(\"{field}\", Print::ref_cast(val));"),
        "}".to_string(),
    ];
    inner.iter().map(|l| format!("{pad}{l}")).collect()
}

fn text(lines: &[String]) -> String {
    lines.iter().map(|l| format!("{l}\n")).collect()
}

/// The search for the helper of `field` (of type `ty`, read from
/// `self.value`), which follows the helper of `before`: the end of the
/// helper before, a marker, and the helper's first lines; new_content
/// writes the marker's lines out and renames the formatter on the last line.
fn search_and_new(pad: &str, before: &str, field: &str, ty: &str) -> (String, String) {
    let prev = helper(pad, "self.value", before, "X");
    let mine = helper(pad, "self.value", field, ty);
    let mut search: Vec<String> = prev[8..11].to_vec();
    search.push(format!("{pad}    // ... rest of the code"));
    search.extend(mine[2..7].iter().cloned());
    let mut new: Vec<String> = prev[8..].to_vec();
    new.extend(mine[..6].iter().cloned());
    new.push(mine[6].replace("formatter.", "formatter_next."));
    (text(&search), text(&new))
}

/// A file of helpers for `fields` (with their types), read from
/// `self.value`, in a function at indentation `pad`.
fn file_of(
    pad: &str,
    fields: &[(String, String)],
    source: &dyn Fn(usize) -> String,
) -> Vec<String> {
    let mut out = vec![
        "impl Debug for Lite<syn::Thing> {".to_string(),
        "    fn fmt(&self, formatter: &mut fmt::Formatter) -> fmt::Result {".to_string(),
    ];
    for (k, (field, ty)) in fields.iter().enumerate() {
        out.extend(helper(pad, &source(k), field, ty));
    }
    out.push("        formatter.finish()".to_string());
    out.push("    }".to_string());
    out.push("}".to_string());
    out
}

/// Distinct field names, and a type for each from a few that repeat, the
/// last field's type its own.
fn fields(n: std::ops::Range<usize>) -> impl Strategy<Value = Vec<(String, String)>> {
    proptest::collection::btree_set("[a-z]{3,9}", n).prop_flat_map(|names| {
        let names: Vec<String> = names.into_iter().collect();
        let n = names.len();
        (
            Just(names),
            proptest::collection::vec(
                prop_oneof![
                    Just("syn::Lifetime"),
                    Just("syn::Label"),
                    Just("syn::Ident")
                ],
                n,
            ),
        )
            .prop_map(|(names, types)| {
                let last = names.len() - 1;
                names
                    .iter()
                    .zip(types)
                    .enumerate()
                    .map(|(k, (name, ty))| {
                        let ty = if k == last { "Box<syn::Expr>" } else { ty };
                        (name.clone(), ty.to_string())
                    })
                    .collect()
            })
            .prop_shuffle()
    })
}

/// The index of the field whose type is its own.
fn target(fields: &[(String, String)]) -> usize {
    fields
        .iter()
        .position(|(_, ty)| ty == "Box<syn::Expr>")
        .unwrap()
}

/// The caller's block (the field of its own type) among `fields` read from
/// `self.value`, with its index, the file's lines, the search and the new
/// content; none where that block comes first and has no block before it.
fn case(fields: &[(String, String)]) -> Option<(usize, Vec<String>, String, String)> {
    let k = target(fields);
    if k == 0 {
        return None;
    }
    let pad = "        ";
    let lines = file_of(pad, fields, &|_| "self.value".to_string());
    let (search, new) = search_and_new(pad, &fields[k - 1].0, &fields[k].0, &fields[k].1);
    Some((k, lines, search, new))
}

#[test]
fn the_callers_block_is_weighed_however_many_copies_of_the_first_lines_come_before_it() {
    // More helpers before the caller's block than the first lines' copies
    // that are aligned: the fewest-copies piece proposes it.
    let made = run(200, fields(14..40), |fields| {
        let Some((k, lines, search, new)) = case(&fields) else {
            return Ok(false);
        };
        let mut want = lines.clone();
        let at = 2 + 14 * k + 6;
        want[at] = want[at].replace("formatter.", "formatter_next.");
        made_or_refused(&text(&lines), &search, &new, &text(&want))
    });
    // 186 of 200 with the piece of fewest copies proposing places (the
    // caller's block is the first in 1 of about 27), 91 with only the first
    // lines' copies aligned.
    assert!(made >= 170, "made {made} of 200");
}

#[test]
fn a_marker_line_written_out_as_a_line_of_another_block_is_refused() {
    // The caller's block is gone; the look-alike left reads every line the
    // search shows, at another depth, and its hidden line names `_val` where
    // the caller writes `self.value`, a line the file has in another
    // type's helper.
    let made = run(200, fields(3..20), |fields| {
        let k = target(&fields);
        if k == 0 {
            return Ok(false);
        }
        let deeper = "            ";
        let source = |j: usize| {
            if j == k {
                "_val".to_string()
            } else {
                "self.value".to_string()
            }
        };
        // Another type's helper for the same field, read from `self.value`:
        // the line the caller writes is in the file, in another block.
        let other = [(fields[k].0.clone(), "syn::Ident".to_string())];
        let mut lines = file_of(deeper, &fields, &source);
        lines.extend(file_of("        ", &other, &|_| "self.value".to_string()));
        let file = text(&lines);
        let (search, new) =
            search_and_new("        ", &fields[k - 1].0, &fields[k].0, &fields[k].1);
        // Nothing is the caller's block: any edit is wrong (the look-alike
        // was edited before the rule).
        made_or_refused(&file, &search, &new, "")
    });
    assert_eq!(made, 0);
}

#[test]
fn a_marker_line_written_out_rewritten_into_a_new_line_is_still_the_callers_change() {
    // The caller's block is there, and the line new_content writes over
    // one its marker stands for is nowhere in the file: the caller changes
    // a line it left out of the search.
    let made = run(200, fields(3..20), |fields| {
        let Some((k, lines, search, new)) = case(&fields) else {
            return Ok(false);
        };
        let new = new.replace(
            &format!("&self.value.{} {{", fields[k].0),
            "&self.spans.first {",
        );
        let mut want = lines.clone();
        let first = 2 + 14 * k;
        want[first] = "        if let Some(val) = &self.spans.first {".to_string();
        want[first + 6] = want[first + 6].replace("formatter.", "formatter_next.");
        made_or_refused(&text(&lines), &search, &new, &text(&want))
    });
    // 169 of 200 (the caller's block is the first in some).
    assert!(made >= 150, "made {made} of 200");
}

#[test]
fn a_block_whose_every_piece_has_more_copies_than_are_weighed_is_refused() {
    // Every helper has one type, so both pieces of the search (the end of
    // the helper before, and the helper's first lines) have a copy per
    // helper. The caller's pair of helpers is repeated, once among the
    // first dozen and once later: only the first copy was weighed, it fitted
    // clearly better than the other copies weighed, and it was edited,
    // though the later one is just as much the caller's block.
    let made = run(
        100,
        (
            proptest::collection::btree_set("[a-z]{3,9}", 20..40),
            1usize..10,
            14usize..18,
        ),
        |(names, early, late)| {
            let mut fields: Vec<(String, String)> = names
                .into_iter()
                .map(|n| (n, "syn::Ident".to_string()))
                .collect();
            let pair = fields[early - 1..=early].to_vec();
            fields.splice(late - 1..late - 1, pair);
            let pad = "        ";
            let lines = file_of(pad, &fields, &|_| "self.value".to_string());
            let (search, new) =
                search_and_new(pad, &fields[late - 1].0, &fields[late].0, &fields[late].1);
            let mut want = lines.clone();
            let at = 2 + 14 * late + 6;
            want[at] = want[at].replace("formatter.", "formatter_next.");
            made_or_refused(&text(&lines), &search, &new, &text(&want))
        },
    );
    assert_eq!(made, 0);
}
