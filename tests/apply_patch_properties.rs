//! Properties of patch placement over random texts made of few distinct
//! lines (so hunks often fit several places): a diff from the file, as it
//! is or drifted (numbers shifted, whitespace changed in a context line, one
//! hunk's numbers moved, rewritten as a Codex patch without numbers), gives
//! exactly the new text or is refused, never another text.

use mcp_server_text::text::patch::{parse, place::apply};
use proptest::prelude::*;

/// Lines from a small vocabulary, so that repeats are common.
fn line() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("}".to_string()),
        Just(String::new()),
        Just("    x = 1;".to_string()),
        Just("    return x;".to_string()),
        Just("fn a() {".to_string()),
        Just("fn b() {".to_string()),
        Just("    y(x);".to_string()),
        "[a-z]{1,6}( [a-z]{1,4})?",
    ]
}

/// One change: at a fraction of the text, remove some lines and add others.
fn change() -> impl Strategy<Value = (f64, usize, Vec<String>)> {
    (0.0f64..1.0, 0usize..3, prop::collection::vec(line(), 0..3))
}

fn text_of(lines: &[String], final_newline: bool) -> String {
    let mut out = lines.join("\n");
    if final_newline && !lines.is_empty() {
        out.push('\n');
    }
    out
}

/// `old` with `changes` made, each at its fraction of the lines.
fn changed(old: &[String], changes: &[(f64, usize, Vec<String>)]) -> Vec<String> {
    let mut lines = old.to_vec();
    for (at, remove, add) in changes {
        let at = ((*at * lines.len() as f64) as usize).min(lines.len());
        let end = (at + remove).min(lines.len());
        lines.splice(at..end, add.iter().cloned());
    }
    lines
}

fn unified(old: &str, new: &str, context: usize) -> String {
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(context)
        .header("a/f", "b/f")
        .to_string()
}

/// The diff with its hunk headers changed by `edit` (hunk index, old start,
/// new start) -> (old start, new start).
fn renumbered(diff: &str, edit: impl Fn(usize, usize, usize) -> (usize, usize)) -> String {
    let mut out = String::new();
    let mut k = 0;
    for line in diff.split_inclusive('\n') {
        let Some((ranges, rest)) = line.strip_prefix("@@ -").and_then(|r| r.split_once(" @@"))
        else {
            out.push_str(line);
            continue;
        };
        let (old, new) = ranges.split_once(" +").unwrap();
        let parts = |r: &str| -> (usize, String) {
            match r.split_once(',') {
                Some((s, c)) => (s.parse().unwrap(), format!(",{c}")),
                None => (r.parse().unwrap(), String::new()),
            }
        };
        let ((os, oc), (ns, nc)) = (parts(old), parts(new));
        let (os2, ns2) = edit(k, os, ns);
        out.push_str(&format!("@@ -{os2}{oc} +{ns2}{nc} @@{rest}"));
        k += 1;
    }
    out
}

/// The diff rewritten as a Codex patch: `@@` without numbers.
fn as_codex(diff: &str) -> String {
    let mut out = String::from("*** Begin Patch\n*** Update File: f\n");
    for line in diff.lines().skip(2) {
        if line.starts_with("@@") {
            out.push_str("@@\n");
        } else if !line.starts_with('\\') {
            out.push_str(line);
            out.push('\n');
        }
    }
    out.push_str("*** End Patch\n");
    out
}

/// Applies `patch` to `old`: `Ok(true)` when it gives `new`, `Ok(false)`
/// when it gives another text, `Err` when refused.
fn lands(old: &str, patch: &str, new: &str) -> Result<bool, String> {
    let parsed = parse(patch).map_err(|e| e.to_string())?;
    let hunks = &parsed.files[0].hunks;
    match apply(old, hunks) {
        Ok(out) => Ok(out.text == new),
        Err(e) => Err(e.why.to_string()),
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 300,
        max_global_rejects: 1_000_000,
        ..ProptestConfig::default()
    })]

    /// The diff as made, and with every number shifted alike, gives the new
    /// text (or is refused: several places for a hunk and nothing to tell
    /// them apart), never another text.
    #[test]
    fn a_diff_and_its_shifted_numbers_land_exactly_or_not_at_all(
        old in prop::collection::vec(line(), 1..40),
        changes in prop::collection::vec(change(), 1..4),
        final_newline in any::<bool>(),
        shift in 1usize..60,
        context in 1usize..4,
    ) {
        let new_lines = changed(&old, &changes);
        let (old_text, new_text) = (text_of(&old, final_newline), text_of(&new_lines, final_newline));
        prop_assume!(old_text != new_text);
        let diff = unified(&old_text, &new_text, context);
        let plain = lands(&old_text, &diff, &new_text);
        prop_assert!(plain != Ok(false), "wrong text from\n{diff}");
        let moved = renumbered(&diff, |_, o, n| (o + shift, n + shift));
        let shifted = lands(&old_text, &moved, &new_text);
        prop_assert!(shifted != Ok(false), "wrong text from\n{moved}");
        // Shifting every number alike changes nothing.
        prop_assert_eq!(plain.is_ok(), shifted.is_ok(), "{}", diff);
    }

    /// Drifted diffs: one hunk's numbers moved, a context line's whitespace
    /// changed, or no numbers at all (Codex).
    #[test]
    fn drifted_diffs_land_exactly_or_not_at_all(
        old in prop::collection::vec(line(), 1..40),
        changes in prop::collection::vec(change(), 1..4),
        pick in any::<prop::sample::Index>(),
        moved_by in -20i64..20,
        drift in 0usize..3,
    ) {
        let new_lines = changed(&old, &changes);
        let (old_text, new_text) = (text_of(&old, true), text_of(&new_lines, true));
        prop_assume!(old_text != new_text);
        let diff = unified(&old_text, &new_text, 3);
        let hunks = diff.lines().filter(|l| l.starts_with("@@")).count();
        let target = pick.index(hunks.max(1));
        let drifted = match drift {
            0 => renumbered(&diff, |k, o, n| {
                if k == target {
                    ((o as i64 + moved_by).max(1) as usize, (n as i64 + moved_by).max(1) as usize)
                } else {
                    (o, n)
                }
            }),
            1 => {
                let lines: Vec<&str> = diff.lines().collect();
                let context: Vec<usize> = (0..lines.len())
                    .filter(|&i| lines[i].starts_with(' ') && lines[i].trim().len() > 1)
                    .collect();
                prop_assume!(!context.is_empty());
                let i = context[pick.index(context.len())];
                let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
                out[i] = format!(" {}  ", lines[i][1..].trim_start());
                out.join("\n") + "\n"
            }
            _ => as_codex(&diff),
        };
        let got = lands(&old_text, &drifted, &new_text);
        prop_assert!(got != Ok(false), "wrong text from\n{drifted}\nold:\n{old_text}");
    }
}
