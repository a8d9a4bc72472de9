//! Searches with two lines in another order than the file, and new_content
//! in the file's order with one of the two rewritten: the caller's view of
//! the order is not the file's, so the move new_content seems to make may be
//! that view undone, and the merge would make it on top of the file's order.
//! Found by the transformations census (`edit_code_transforms`, a swap of
//! two adjacent lines of the search that new_content could not swap back).
//! Each test checks that the file is written exactly as intended or not at
//! all.

#[path = "edit_outcome/mod.rs"]
mod edit_outcome;

use edit_outcome::{apply, intended_or_refused};

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
    let new =
        "## Decode the report_next\nadded_line_38();\n\nThe weight of a ledger never goes down.\n";
    let want = GUIDE.replace(
        "## Decode the report\n",
        "## Decode the report_next\nadded_line_38();\n",
    );
    intended_or_refused(apply(GUIDE, search, new), &want);
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
    intended_or_refused(apply(RESOLVE, search, new), &want);
}

const SORT: &str = "\
def clamp_channel(header, limit=10):
    # this is the segment's last use
    request_width = part + 96
    return request_width


def sort_session(request, limit=10):
    \"\"\"Sorts the metric's limit.\"\"\"
    emit(scan_window(limit, 33))
    emit(limit * request.limit)
    schedule_width = limit * request.width
    label_width = rank_batch(schedule_width, 60)
    emit(render_segment(limit, 51))
    if schedule_width > 398:
        scan_snapshot(request, label_width)
    # keep in sync with the \"quota\" schema
    return label_width
";

#[test]
fn a_docstring_the_search_has_after_the_next_line_and_misquoted_is_not_written_twice() {
    // `"` became `[` throughout the caller's texts, and the search has the
    // docstring after the first line of the body. new_content rewrites it
    // in the file's place. The search's docstring is left without a file
    // line; merged, the file's docstring stayed and the caller's rewrite
    // (with its `[[[`) went in beside it.
    let search = "    emit(scan_window(limit, 33))\n    [[[Sorts the metric's limit.[[[\n    emit(limit * request.limit)\n    schedule_width = limit * request.width\n    label_width = rank_batch(schedule_width, 60)\n    emit(render_segment(limit, 51))\n    if schedule_width > 398:\n        scan_snapshot(request, label_width)\n";
    let new = "    [[[Sorts the_new metric's limit.[[[\n    emit(scan_window(limit, 33))\n    emit(limit * request.limit)\n    schedule_width = limit * request.width\n    label_width = rank_batch(schedule_width, 60)\n    emit(render_segment(limit, 51))\n    if schedule_width > 398:\n        scan_snapshot(request, label_width)\n";
    let want = SORT.replace("Sorts the metric's", "Sorts the_new metric's");
    intended_or_refused(apply(SORT, search, new), &want);
}

const LOAD: &str = "\
def scan_table(token, limit=10):
    \"\"\"Checks the metric's count.\"\"\"
    logger.info(\"won't trim a closed column\")
    return session_id


def load_table(request, limit=10):
    \"\"\"Scans the payload's offset9.\"\"\"
    # donQ't retry here - the caller's loop handles it
    emit(limit * request.kind)
    logger.info(\"won't decode a closed segment\")
    label_count = request.id


    logger.info(\"can't store payload\")
    metric_score = resolve_window(label_count, 6)
    return metric_score
";

#[test]
fn a_rewrite_of_a_line_the_search_has_after_its_neighbour_does_not_leave_the_old_line() {
    // The block the search describes is gone; a look-alike remains, with
    // `offset9` and `donQ't`, and the search has its first two lines in
    // the other order. new_content rewrites the docstring. Merged, the
    // file's docstring stayed and the rewrite went in after it.
    let search = "    # don't retry here - the caller's loop handles it\n    \"\"\"Scans the payload's offset.\"\"\"\n    emit(limit * request.kind)\n    logger.info(\"won't decode a closed segment\")\n    label_count = request.id\n\n\n    logger.info(\"can't store payload\")\n";
    let new = "    \"\"\"Scans the_alt payload's offset.\"\"\"\n    # don't retry here - the caller's loop handles it\n    emit(limit * request.kind)\n    logger.info(\"won't decode a closed segment\")\n    label_count = request.id\n\n\n    logger.info(\"can't store payload\")\n";
    // The block meant is not in the file: only a refusal is right.
    assert!(apply(LOAD, search, new).is_err());
}
