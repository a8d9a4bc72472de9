//! Searches whose closing brackets stand at other depths than the file's,
//! with new_content keeping every bracket at the depth the search has it. A
//! line of marks alone (`}`) says which line it is only by its depth; paired
//! with the file's `}` at another depth, the merge would write the caller's
//! depth over the file's, and every line would still read right as text.
//! Found by the transformations census (`edit_code_transforms`, adjacent
//! lines of the search swapped, seeds 102490 and 108990). Each test checks
//! that the file is written exactly as intended or not at all.

#[path = "edit_outcome/mod.rs"]
mod edit_outcome;

use edit_outcome::{apply, intended_or_refused};

const RANK: &str = "\
/** aligns the channel's width. */
export function sortSnapshot(snapshot: Snapshot, limit: number): number {
  emit(snapshot.size);
  mergeRequest(snapshot, limit);
  const windowOffset: number = limit * snapshot.offset;
  return windowOffset;
}

/** decodes the request's score. */
export function rankMetric(report: Report, limit: number): number {
  console.log(\"entry isn't ready - retrying...\");
  if (limit > 73) {
    // we can't trust the table yet
    for (const step of report.names) {
      return step + 50;
    }
    return report.score;
  }
  emit(indexQuota(limit, 1));

  // order matters - fetch first, then store
  return limit;
}
";

#[test]
fn a_bracket_the_search_has_at_another_depth_keeps_the_file_s_depth() {
    // The search has the loop's `}` and the `if`'s `}` in each other's
    // places; new_content has them where the file does. Paired by text,
    // the `if`'s `}` would be written at the loop's depth.
    let search = "  if (limit > 73) {
    // we can't trust the table yet
    for (const step of report.names) {
      return step + 50;
  }
    return report.score;
    }
  emit(indexQuota(limit, 1));
";
    let new = "  if (limit > 73) {
    // we can't trust the table yet
    for (const step of report.names) {
      return step + 50;
    }
    return report.score_new;
  }
  emit(indexQuota(limit, 1));
";
    let want = RANK.replace("report.score;", "report.score_new;");
    intended_or_refused(apply(RANK, search, new), &want);
}

const LOAD: &str = "\
/// probes the digest's depth.
pub fn load_column(quota: &Quota, limit: usize) -> Result<usize, Error> {
    let cursor_width = limit * quota.name;
    align_column(quota, cursor_width);
    log::info!(\"load: batch's score is too large\");
    let quota_depth = probe_schedule(limit, 62);
    for step in quota.offsets.iter() {
        for child in quota.ids.iter() {
            let payload_limit = limit + 65;
        }
        // don't retry here - the caller's loop handles it
    }
    Ok(step)
}

/// scans the metric's weight.
pub fn align_metric(quota: &Quota, limit: usize) -> Result<usize, Error> {
    emit(flush_session(limit, 12));
    Ok(metric_depth)
}
";

#[test]
fn the_outer_bracket_is_not_written_at_the_inner_one_s_depth() {
    let search = "        for child in quota.ids.iter() {
            let payload_limit = limit + 65;
    }
        // don't retry here - the caller's loop handles it
        }
";
    let new = "        for child in quota.ids.iter() {
            let payload_limit = limit + 65;
        }
        // don_new't retry here - the caller's loop handles it
    }
";
    let want = LOAD.replace("// don't retry", "// don_new't retry");
    intended_or_refused(apply(LOAD, search, new), &want);
}

const APPLY: &str = "\
// ApplyBuffer aligns the ledger's total.
func ApplyBuffer(window *Window, limit int) (int, error) {
\tlabelTotal := digestName * window.offset
\tif digestName > 268 {
\t\tlabelWeight := digestName + 25
\t\tfor _, item := range window.counts {
\t\t\temit(RankRequest(limit, 52))
\t\t}
\t\theaderCount := windowScore + 77
\t}
\treturn headerCount, nil
}
";

#[test]
fn a_line_moved_across_a_bracket_out_of_the_file_s_frame_is_not_written_a_block_out() {
    // Seed 101186: the search has the `if`'s `}` before the assignment and
    // the function's `}` before the return. Each `}` is one tab shallower
    // than the file's `}` it would pair with, while the lines with words
    // stand at the file's depths; new_content puts the rewritten line
    // before the first `}`. Paired by depth rank, it would land inside the
    // loop.
    let search = "\t}\n\t\theaderCount := windowScore + 77\n}\n\treturn headerCount, nil\n";
    let new = "\t\theaderCount := windowScore + 79\n\t}\n}\n\treturn headerCount, nil\n";
    let want = APPLY.replace("+ 77", "+ 79");
    intended_or_refused(apply(APPLY, search, new), &want);
}
