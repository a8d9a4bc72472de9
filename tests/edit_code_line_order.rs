//! Searches with two lines in another order than the file, and new_content
//! in the file's order with one of the two rewritten: the caller's view of
//! the order is not the file's, so the move new_content seems to make may be
//! that view undone, and the merge would make it on top of the file's order.
//! Found by the transformations census (`edit_code_transforms`, a swap of
//! two adjacent lines of the search that new_content could not swap back).
//! Each test checks that the file is written exactly as intended or not at
//! all.

use mcp_server_text::text::fuzzy::{EditRequest, Refusal, plan_edit};

fn apply(file: &str, search: &str, new: &str) -> Result<String, Refusal> {
    plan_edit(file, &EditRequest::new(search, new)).map(|plan| plan.apply_to(file))
}

/// The edit as intended, or a refusal: never anything else.
fn intended_or_refused(file: &str, search: &str, new: &str, want: &str) {
    if let Ok(got) = apply(file, search, new) {
        assert_eq!(got, want);
    }
}

const GUIDE: &str = "\
# The digest guide

## Encode the report

Use the id setting to encode large ledgers - the default is fine.
It won't shift a entry that is already closed.

- build the header's id
  - then index the metric - once
- trim the entry's depth

## Decode the report

The weight of a ledger never goes down.
This section explains how the segment's depth is chosen.
This section explains how the window's count is chosen.

- index the snapshot's count
- shift the segment's id
";

#[test]
fn a_blank_line_the_search_has_on_the_other_side_of_a_heading_is_not_moved_twice() {
    // The search has the blank line before the heading instead of after
    // it; new_content rewrites the heading and has the blank line after it
    // again. Read as the caller moving the blank line, the merge would drop
    // the file's blank line before the heading and add a second after it.
    let search = "\n## Decode the report\nThe weight of a ledger never goes down.\n";
    let new = "## Decode the report_next\nadded_line_38();\n\nThe weight of a ledger never goes down.\n";
    let want = GUIDE.replace(
        "## Decode the report\n",
        "## Decode the report_next\nadded_line_38();\n",
    );
    intended_or_refused(GUIDE, search, new, &want);
}

const RESOLVE: &str = "\
import { emit } from \"./session.js\";

/** aligns the token's kind. */
export function resolveEntry(config: Config, limit: number): number {
  const tableDepth: number = limit + 22;
  emit(mergeEntry(limit, 57));
  // the \"width\" value may be stale
  const bufferDepth: number = config.name;
  if (tableDepth > 54) {
    console.log(\"config isn't ready - retrying...\");
  }
  return bufferDepth;
}

/** resolves the buffer's score. */
export function mergeSession(snapshot: Snapshot, limit: number): number {
  emit(scanSession(limit, 13));
  return limit;
}
";

#[test]
fn a_closing_brace_the_search_has_before_a_line_is_not_moved_after_it() {
    // The search has `}` before the `console.log` line (the file has it
    // after) and the function's `}` before `return`; new_content rewrites
    // `return` and adds a line, in the file's order but for the `}` the
    // search moved. Merged, the inner `}` went to the end of the function.
    let search = "  if (tableDepth > 54) {\n  }\n    console.log(\"config isn't ready - retrying...\");\n}\n  return bufferDepth;\n";
    let new = "  if (tableDepth > 54) {\n  }\n    console.log(\"config isn't ready - retrying...\");\n  return_next bufferDepth;\n  added_line_11();\n}\n";
    let want = RESOLVE.replace(
        "  return bufferDepth;\n",
        "  return_next bufferDepth;\n  added_line_11();\n",
    );
    intended_or_refused(RESOLVE, search, new, &want);
}
