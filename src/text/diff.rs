//! Unified diffs of two texts, as `diff -u` prints them.
//!
//! Lines both texts share at the start and at the end are skipped before
//! diffing (keeping a few for context), so the diff of a one-line edit in a
//! 50 MB file costs about as much as comparing the two buffers.
//!
//! ```
//! use mcp_server_text::text::diff::unified_diff;
//!
//! let diff = unified_diff("a\nb\nc\n", "a\nB\nc\n", "note.md", 1);
//! assert_eq!(diff, "--- a/note.md\n+++ b/note.md\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n");
//! ```

use std::fmt::Write as _;

use similar::{ChangeTag, TextDiff};

/// Lines shown around each change when not told otherwise.
pub const DEFAULT_CONTEXT: usize = 3;

/// The unified diff from `old` to `new` with `context` lines around changes,
/// labelled `a/<label>` and `b/<label>`. Empty when the texts are equal.
pub fn unified_diff(old: &str, new: &str, label: &str, context: usize) -> String {
    unified_diff_numbered(
        old,
        new,
        (&format!("a/{label}"), &format!("b/{label}")),
        (1, 1),
        context,
    )
}

/// The unified diff from `old` to `new` headed by `labels`, numbering the
/// hunks as if `old` started at line `starts.0` of its file and `new` at line
/// `starts.1` (for diffs of a block cut from a larger file).
pub fn unified_diff_numbered(
    old: &str,
    new: &str,
    labels: (&str, &str),
    starts: (usize, usize),
    context: usize,
) -> String {
    if old == new {
        return String::new();
    }
    let (prefix_bytes, prefix_lines) = common_prefix(old, new, context);
    let (old_mid, new_mid) = (&old[prefix_bytes..], &new[prefix_bytes..]);
    let suffix_bytes = common_suffix(old_mid, new_mid, context);
    let old_mid = &old_mid[..old_mid.len() - suffix_bytes];
    let new_mid = &new_mid[..new_mid.len() - suffix_bytes];

    let diff = TextDiff::configure()
        .algorithm(similar::Algorithm::Myers)
        .timeout(std::time::Duration::from_secs(2))
        .diff_lines(old_mid, new_mid);
    let mut out = format!("--- {}\n+++ {}\n", labels.0, labels.1);
    for group in diff.grouped_ops(context) {
        let (Some(first), Some(last)) = (group.first(), group.last()) else {
            continue;
        };
        let old_range = first.old_range().start..last.old_range().end;
        let new_range = first.new_range().start..last.new_range().end;
        let _ = writeln!(
            out,
            "@@ -{} +{} @@",
            hunk_range(
                starts.0.saturating_sub(1) + prefix_lines + old_range.start,
                old_range.len()
            ),
            hunk_range(
                starts.1.saturating_sub(1) + prefix_lines + new_range.start,
                new_range.len()
            )
        );
        for op in &group {
            for change in diff.iter_changes(op) {
                let sign = match change.tag() {
                    ChangeTag::Equal => ' ',
                    ChangeTag::Delete => '-',
                    ChangeTag::Insert => '+',
                };
                let value = change.value();
                out.push(sign);
                out.push_str(value);
                if !value.ends_with('\n') {
                    out.push_str("\n\\ No newline at end of file\n");
                }
            }
        }
    }
    out
}

fn hunk_range(start0: usize, len: usize) -> String {
    // diff -u numbers an empty range by the line before it.
    match len {
        0 => format!("{start0},0"),
        1 => format!("{}", start0 + 1),
        _ => format!("{},{len}", start0 + 1),
    }
}

/// Byte length and line count of the shared leading lines, minus `keep` lines
/// kept for context.
fn common_prefix(a: &str, b: &str, keep: usize) -> (usize, usize) {
    let same = a
        .as_bytes()
        .iter()
        .zip(b.as_bytes())
        .take_while(|(x, y)| x == y)
        .count();
    // Back up to the start of the line the first difference is on.
    let line_start = a.as_bytes()[..same]
        .iter()
        .rposition(|&c| c == b'\n')
        .map_or(0, |p| p + 1);
    let mut starts: Vec<usize> = std::iter::once(0)
        .chain(memchr::memchr_iter(b'\n', &a.as_bytes()[..line_start]).map(|p| p + 1))
        .collect();
    let lines = starts.len().saturating_sub(1);
    let kept_lines = lines.saturating_sub(keep);
    starts.truncate(kept_lines + 1);
    (starts[kept_lines], kept_lines)
}

/// Byte length of the shared trailing whole lines, minus `keep` lines.
fn common_suffix(a: &str, b: &str, keep: usize) -> usize {
    let same = a
        .as_bytes()
        .iter()
        .rev()
        .zip(b.as_bytes().iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let tail = &a.as_bytes()[a.len() - same..];
    // Only whole lines count: start just after a line break inside the shared tail,
    // and the byte before the tail in `a` must end a line too.
    let starts_at_line = a.len() == same || a.as_bytes()[a.len() - same - 1] == b'\n';
    let mut breaks: Vec<usize> = memchr::memchr_iter(b'\n', tail).collect();
    let first_whole = if starts_at_line {
        0
    } else {
        match breaks.first() {
            Some(&p) => {
                breaks.remove(0);
                p + 1
            }
            None => return 0,
        }
    };
    // `breaks` now holds the line ends inside the whole-line part; skip `keep` lines.
    let whole_lines: Vec<usize> = std::iter::once(first_whole)
        .chain(breaks.iter().map(|p| p + 1))
        .filter(|&p| p <= tail.len())
        .collect();
    let skip = keep.min(whole_lines.len().saturating_sub(1));
    let start = whole_lines.get(skip).copied().unwrap_or(tail.len());
    tail.len() - start
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(old: &str, new: &str, context: usize) -> String {
        let diff = TextDiff::from_lines(old, new);
        let mut out = String::new();
        out.push_str(&format!(
            "{}",
            diff.unified_diff()
                .context_radius(context)
                .header("a/f", "b/f")
        ));
        out
    }

    #[test]
    fn matches_a_full_diff_on_small_cases() {
        let cases = [
            ("a\nb\nc\nd\ne\nf\ng\nh\n", "a\nb\nc\nD\ne\nf\ng\nh\n"),
            ("1\n2\n3\n", "0\n1\n2\n3\n"),
            ("1\n2\n3\n", "1\n2\n3\n4\n"),
            ("1\n2\n3", "1\n2\n3\n"),
            ("x\n", ""),
            ("", "y\n"),
            (
                "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\n",
                "a\nB\nc\nd\ne\nf\ng\nh\ni\nJ\nk\n",
            ),
        ];
        for (old, new) in cases {
            for context in [0, 1, 3] {
                assert_eq!(
                    unified_diff(old, new, "f", context),
                    plain(old, new, context),
                    "{old:?} -> {new:?} with {context}"
                );
            }
        }
    }

    #[test]
    fn equal_texts_have_no_diff() {
        assert_eq!(unified_diff("a\n", "a\n", "f", 3), "");
    }

    #[test]
    fn huge_texts_diff_only_the_middle() {
        let old: String = (0..200_000).map(|i| format!("line {i}\n")).collect();
        let new = old.replacen("line 100000\n", "changed\n", 1);
        let diff = unified_diff(&old, &new, "big", 1);
        assert_eq!(
            diff,
            "--- a/big\n+++ b/big\n@@ -100000,3 +100000,3 @@\n line 99999\n-line 100000\n+changed\n line 100001\n"
        );
    }
}
