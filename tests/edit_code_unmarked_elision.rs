//! A search that leaves out lines without a marker, where new_content writes
//! them out as the file has them: the caller has seen those lines, so they
//! are kept, and the caller's change around them is made. (Found on the
//! real-file corpus: a deletion two lines below the left-out run was
//! refused as a clash with a line the search lacks.)

#[path = "edit_outcome/mod.rs"]
mod edit_outcome;

use edit_outcome::apply;
use proptest::prelude::*;

const RELEASE: &str = "\
static void release(Node *self, Pool *pool) {
  Node *first = NULL;
  if (self->count > 0) {
    for (unsigned i = self->count - 1; i > 0; i--) {
      Link link = self->links[i];
      if (link.tree) tree_release(pool, link.tree);
      node_release(link.node, pool);
    }
    Link link = self->links[0];
    if (link.tree) tree_release(pool, link.tree);
    first = self->links[0].node;
  }
  pool_put(pool, self);
}
";

#[test]
fn lines_written_out_in_new_content_are_kept_and_the_deletion_below_them_made() {
    let search = "\
  if (self->count > 0) {
    for (unsigned i = self->count - 1; i > 0; i--) {
    first = self->links[0].node;
  }
";
    let new = "\
  if (self->count > 0) {
    for (unsigned i = self->count - 1; i > 0; i--) {
      Link link = self->links[i];
      if (link.tree) tree_release(pool, link.tree);
      node_release(link.node, pool);
    }
    Link link = self->links[0];
    if (link.tree) tree_release(pool, link.tree);
  }
";
    let want = RELEASE.replace("    first = self->links[0].node;\n", "");
    assert_eq!(apply(RELEASE, search, new).unwrap(), want);
}

#[test]
fn a_left_out_line_new_content_does_not_write_out_beside_the_change_is_still_refused() {
    // The caller never saw `node_release`, and rewrites the line before it:
    // whether it stays, and where, is unknown.
    let search = "\
    for (unsigned i = self->count - 1; i > 0; i--) {
      Link link = self->links[i];
      if (link.tree) tree_release(pool, link.tree);
    }
";
    let new = "\
    for (unsigned i = self->count - 1; i > 0; i--) {
      Link link = self->links[i];
      if (link.tree) tree_free(pool, link.tree);
    }
";
    assert!(apply(RELEASE, search, new).is_err());
}

/// Distinct lines of a function body, some nested one level deeper.
fn body(n: usize, seed: u64) -> Vec<String> {
    (0..n)
        .map(|k| {
            let depth = if (seed >> (k % 64)) & 1 == 1 { 2 } else { 1 };
            format!(
                "{}call_{k}(arg_{}, {});",
                "    ".repeat(depth),
                k * 7 % 13,
                k * 3
            )
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// The search is a window of the body with a run of 1-3 lines left out
    /// (no marker); new_content is the window with those lines written out
    /// and one other line deleted or rewritten. The result is exactly that
    /// edit of the file.
    #[test]
    fn left_out_lines_written_out_keep_the_file_and_take_the_change(
        n in 12usize..30,
        seed in any::<u64>(),
        start in 0usize..6,
        len in 6usize..10,
        gap in (1usize..4, 1usize..4),
        change in (0usize..10, any::<bool>()),
    ) {
        let lines = body(n, seed);
        let end = (start + len).min(n);
        let (gap_at, gap_len) = gap;
        // The left-out run sits strictly inside the window.
        let gap_start = start + gap_at;
        let gap_end = gap_start + gap_len;
        prop_assume!(gap_end < end - 1);
        let outside: Vec<usize> = (start..end).filter(|k| *k < gap_start || *k >= gap_end).collect();
        let at = outside[change.0 % outside.len()];
        let (delete, rewrite) = (change.1, format!("    changed_{at}();"));

        let file: String = std::iter::once("fn f() {".to_string())
            .chain(lines.iter().cloned())
            .chain(std::iter::once("}".to_string()))
            .map(|l| l + "\n")
            .collect();
        let search: String = outside.iter().map(|&k| format!("{}\n", lines[k])).collect();
        let edited = |k: usize| -> Option<String> {
            if k != at {
                Some(lines[k].clone())
            } else if delete {
                None
            } else {
                Some(rewrite.clone())
            }
        };
        let new: String = (start..end).filter_map(edited).map(|l| l + "\n").collect();
        let want: String = std::iter::once("fn f() {".to_string())
            .chain((0..n).filter_map(|k| if (start..end).contains(&k) { edited(k) } else { Some(lines[k].clone()) }))
            .chain(std::iter::once("}".to_string()))
            .map(|l| l + "\n")
            .collect();
        match apply(&file, &search, &new) {
            Ok(got) => prop_assert_eq!(got, want),
            Err(refusal) => prop_assert!(false, "refused: {}", refusal),
        }
    }
}

/// A file of `helpers` small functions, each closed by its own `}`, then
/// the function `target` with `body` as its lines.
fn file_with_helpers(helpers: usize, body: &[String]) -> String {
    let mut file = String::new();
    for h in 0..helpers {
        file.push_str(&format!("fn helper_{h}() {{\n    step({h});\n}}\n\n"));
    }
    file.push_str("fn target() {\n");
    for line in body {
        file.push_str(line);
        file.push('\n');
    }
    file.push_str("}\n");
    file
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// The search shows only the first and last lines of a function (no
    /// marker) and new_content writes out the 2-28 lines between them with
    /// one line rewritten; the file has many functions closed by a `}` like
    /// the search's. However far apart the search's lines are, the place is
    /// the function new_content writes out: a rewrite of a line the search
    /// shows is made exactly, and a rewrite of a line it left out is made
    /// exactly or refused (the merge takes a left-out line as the caller's
    /// only where it is written out as the file has it), never anything
    /// else.
    #[test]
    fn a_function_shown_by_its_ends_and_written_out_is_found_among_look_alike_ends(
        n in 4usize..30,
        seed in any::<u64>(),
        helpers in 0usize..80,
        at in any::<prop::sample::Index>(),
        head in 1usize..3,
    ) {
        let lines = body(n, seed);
        let file = file_with_helpers(helpers, &lines);
        let at = at.index(n);
        let mut edited = lines.clone();
        edited[at].push_str("  // edited");
        let ends: Vec<&str> = std::iter::once("fn target() {")
            .chain(lines[..head - 1].iter().map(String::as_str))
            .chain([lines[n - 1].as_str(), "}"])
            .collect();
        let search: String = ends.iter().map(|l| format!("{l}\n")).collect();
        let new: String = std::iter::once("fn target() {".to_string())
            .chain(edited.iter().cloned())
            .chain(std::iter::once("}".to_string()))
            .map(|l| l + "\n")
            .collect();
        let want = file_with_helpers(helpers, &edited);
        let shown = at < head - 1 || at == n - 1;
        match apply(&file, &search, &new) {
            Ok(got) => prop_assert_eq!(got, want),
            Err(refusal) => prop_assert!(!shown, "refused: {}", refusal),
        }
    }
}
