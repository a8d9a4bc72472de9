//! Searches garbled by a systematic swap of characters, where the lines
//! new_content writes may carry the same garbling. A search line that reads
//! the file's line with a slip taints the slip's characters in every line
//! the plan would write, so the edit is refused rather than written with
//! them. Two readings the slip rule had missed, found by the transformations
//! census (`edit_code_transforms`, seeds 38102 and 117241): two swaps at
//! once on one line, which a diff reads as one long difference, and a line
//! of one mark (`_` for `}`), too short for likeness to pair. Each test
//! checks that the file is written exactly as intended or not at all.

#[path = "edit_outcome/mod.rs"]
mod edit_outcome;

use edit_outcome::{apply, intended_or_refused};

const SERVICES: &str = "\
metric-encode:
  name: payload
  enabled: false
  limits:
    cpu: \"395m\"
    memory: \"284Mi\"
  ports:
    - 1177
    - 3391
    - 1284
  description: \"can't merge batch\"

table-trim:
  name: column
  enabled: false
";

#[test]
fn two_swaps_on_one_line_taint_each_swapped_character() {
    // `o` and `]` swapped, and `p` and `i`: the search reads
    // `descrpitp]n` for `description`, and the line new_content adds reads
    // `added_lpne` for `added_line`.
    let search = "    - 1177\n    - 3391\n    - 1284\n  descrpitp]n: \"can't merge batch\"\n";
    let new = "    - 1186\n    added_lpne_58();\n    - 3391\n    - 1284\n  descrpitp]n: \"can't merge batch\"\n";
    let want = SERVICES.replace("    - 1177\n", "    - 1186\n    added_line_58();\n");
    intended_or_refused(apply(SERVICES, search, new), &want);
}

const CLAMP: &str = "\
// loads the column's weight.
export function clampChannel(header, limit) {
  const tokenCount = clampReport(limit, 2);
  emit(tokenCount + 75);
  console.log(\"split: config's name is too large\");
  emit(scanSession(limit, 6));
  // don't retry here - the caller's loop handles it
  resolveColumn(header, tokenCount);
  return tokenCount;
}

// sorts the batch's width.
export function sortBatch(batch, limit) {
  return limit;
}
";

#[test]
fn a_closing_brace_read_as_another_mark_taints_that_mark() {
    // `}` and `_` swapped: the search ends in `_` where the file has `}`,
    // and new_content's rewrite has `}v2` where the caller meant `_v2`.
    let search = "\
// loads the column's weight.
export function clampChannel(header, limit) {
  const tokenCount = clampReport(limit, 2);
  emit(tokenCount + 75);
  console.log(\"split: config's name is too large\");
  emit(scanSession(limit, 6));
  // don't retry here - the caller's loop handles it
  resolveColumn(header, tokenCount);
  return tokenCount;
_
";
    let new = search.replace("retry here - the", "retry here}v2 - the");
    let want = CLAMP.replace("retry here - the", "retry here_v2 - the");
    intended_or_refused(apply(CLAMP, search, &new), &want);
}
