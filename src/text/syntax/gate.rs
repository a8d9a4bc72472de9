//! The syntax gate of an edit: does the edited text parse worse than before?
//!
//! The edited text is compared with the text before the edit, not judged on
//! its own: a file that did not parse before may still be edited, as long as
//! the edit adds no parse error. "Adds" is decided like this:
//!
//! 1. If the text after the edit has no errors, the edit passes.
//! 2. With the edited lines known, each error is either *touched* or
//!    *untouched* by them. An error pinned to a token (a missing `;`, an
//!    unclosed `{`, an unexpected `)`) is touched when its line was edited; a
//!    region the parser could not read as a whole is touched when it overlaps
//!    the edited lines, since its trouble can be anywhere inside.
//!    - An untouched error after the edit is new unless an untouched error
//!      stood at the same place before: same line above the edit, or the line
//!      shifted by the edit's line delta below it. Text outside the edit is
//!      unchanged, so an error appearing there is the edit's doing, even when
//!      the edit also fixed an error and the count stays the same.
//!    - Touched errors cannot be matched by place, so they are counted: the
//!      edit adds `after - before` of them. A touched error that reads exactly
//!      like an untouched one that vanished is the old error, moved: the
//!      parser reports some errors where it gives up (a missing `}` at the end
//!      of the text), and an edit can move that point. A new error that
//!      swallows old ones (an unclosed string running to the end of the file)
//!      reads differently, and is refused even though the count drops.
//! 3. Without the edited lines (several edits at once), the counts decide: the
//!    edit adds errors when the text has more errors afterwards.
//!
//! A refusal names the first new error the parser found. Inside a region the
//! parser already could not read, a new mistake can be absorbed into the old
//! error and go unnoticed; the gate never refuses for errors that were there.

use std::collections::HashMap;

use schemars::JsonSchema;
use serde::Serialize;

use super::errors::{ErrorKind, Found, MAX_LISTED_ERRORS, SyntaxError, collect};
use super::language::Language;
use super::parser::{budget_for, parse_tree};
use crate::text::lines::LineIndex;

/// What the gate decided about an edit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(tag = "status", rename_all = "camelCase")]
pub enum GateOutcome {
    /// The edit may be written.
    Pass {
        /// Something the caller should pass on: errors the file already had,
        /// or that the check was skipped.
        #[serde(skip_serializing_if = "Option::is_none")]
        note: Option<String>,
    },
    /// The edit adds a syntax error and must not be written.
    Refuse(SyntaxRegression),
}

/// Why an edit was refused: the first syntax error it adds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SyntaxRegression {
    /// The grammar the text was parsed with.
    pub language: Language,
    /// The first error (in document order) that the edit adds.
    pub first_new_error: SyntaxError,
    /// The next few errors the edit adds, for context.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub further_new_errors: Vec<SyntaxError>,
    /// How many errors the edit adds, by the gate's rule.
    pub new_error_count: usize,
    /// Errors in the text before the edit.
    pub before_errors: usize,
    /// Errors in the text after the edit.
    pub after_errors: usize,
}

impl std::fmt::Display for SyntaxRegression {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let error = &self.first_new_error;
        writeln!(
            f,
            "Edit refused: it would add a syntax error to this {} file, so nothing was written.",
            self.language.name()
        )?;
        writeln!(f, "{error}")?;
        for further in &self.further_new_errors {
            writeln!(
                f,
                "Also new: line {}, column {}: {}",
                further.line, further.column, further.message
            )?;
        }
        write!(
            f,
            "The file had {} before the edit and would have {} after it. \
             Correct the new content and try again.",
            errors_phrase(self.before_errors),
            errors_phrase(self.after_errors),
        )
    }
}

impl std::error::Error for SyntaxRegression {}

/// Decides whether replacing `before` with `after` may be written.
///
/// `edited_lines` is the first and last line, numbered in `after`, of the text
/// the edit wrote. A pure deletion passes `(n, n - 1)` (or `(n, n)`, which is
/// merely a little more lenient), where `n` is the line that now follows the
/// deleted ones. `None` (several separate edits) falls back to counting errors.
pub fn check_edit(
    language: Language,
    before: &str,
    after: &str,
    edited_lines: Option<(usize, usize)>,
) -> GateOutcome {
    check_within(language, before, after, edited_lines, budget_for)
}

/// [`check_edit`] with the parse budget given as a function of text length.
fn check_within(
    language: Language,
    before: &str,
    after: &str,
    edited_lines: Option<(usize, usize)>,
    budget: fn(usize) -> usize,
) -> GateOutcome {
    let after_tree = match parse_tree(language, after, budget(after.len())) {
        Ok(tree) => tree,
        Err(skipped) => return pass_with(skipped.message()),
    };
    let after_errors = collect(language, &after_tree, after);
    if after_errors.is_empty() {
        return GateOutcome::Pass { note: None };
    }
    let before_errors = match parse_tree(language, before, budget(before.len())) {
        Ok(tree) => collect(language, &tree, before),
        Err(skipped) => {
            return pass_with(format!(
                "{} (before the edit); after it the file has {}",
                skipped.message(),
                errors_phrase(after_errors.len())
            ));
        }
    };
    let delta = line_count(after) as isize - line_count(before) as isize;
    let mut new = match edited_lines {
        Some(lines) => new_by_place(&before_errors, &after_errors, lines, delta),
        None => new_by_count(&before_errors, &after_errors),
    };
    // In a file the parser already could not read, where it gives up can
    // shift when text near the edit changes, without the edit adding any
    // mistake: judge such a file around the edit alone.
    if !new.is_empty()
        && !before_errors.is_empty()
        && let Some(lines) = edited_lines
        && !adds_errors_nearby(language, before, after, lines, delta, budget)
    {
        new.clear();
    }
    match new.split_first() {
        Some((first, further)) => GateOutcome::Refuse(SyntaxRegression {
            language,
            first_new_error: first.error.clone(),
            further_new_errors: further
                .iter()
                .take(MAX_LISTED_ERRORS - 1)
                .map(|found| found.error.clone())
                .collect(),
            new_error_count: new.len(),
            before_errors: before_errors.len(),
            after_errors: after_errors.len(),
        }),
        None => {
            let remaining = after_errors
                .first()
                .map(|found| format!(" First remaining: {}", found.error))
                .unwrap_or_default();
            pass_with(format!(
                "the file already had {} before this edit and has {} after it; \
                 the edit adds none.{remaining}",
                errors_phrase(before_errors.len()),
                errors_phrase(after_errors.len()),
            ))
        }
    }
}

/// Lines on each side of an edit that [`adds_errors_nearby`] parses.
const NEARBY: usize = 40;

/// Whether the edit adds errors when only the lines around it (the edited
/// lines and [`NEARBY`] on each side) are parsed, before and after, and
/// compared by place. A parse over budget counts as adding errors.
fn adds_errors_nearby(
    language: Language,
    before: &str,
    after: &str,
    (first, last): (usize, usize),
    delta: isize,
    budget: fn(usize) -> usize,
) -> bool {
    let before_index = LineIndex::new(before);
    let after_index = LineIndex::new(after);
    let start = first.saturating_sub(NEARBY).max(1);
    let before_last = (last as isize - delta).max(first as isize - 1) as usize;
    let before_end = (before_last + NEARBY).min(before_index.len());
    let after_end = (last + NEARBY).min(after_index.len());
    if before_index.is_empty() || after_index.is_empty() || before_end < start || after_end < start
    {
        return true;
    }
    let cut = |text: &'_ str, index: &LineIndex, end: usize| -> String {
        text[index.start(start)..index.span_with_eol(end).end].to_string()
    };
    let before_part = cut(before, &before_index, before_end);
    let after_part = cut(after, &after_index, after_end);
    let parse = |text: &str| {
        parse_tree(language, text, budget(text.len())).map(|tree| collect(language, &tree, text))
    };
    let (Ok(before_errors), Ok(after_errors)) = (parse(&before_part), parse(&after_part)) else {
        return true;
    };
    let local = (first + 1 - start, last + 1 - start);
    let local_delta = line_count(&after_part) as isize - line_count(&before_part) as isize;
    !new_by_place(&before_errors, &after_errors, local, local_delta).is_empty()
}

fn pass_with(note: String) -> GateOutcome {
    GateOutcome::Pass { note: Some(note) }
}

fn line_count(text: &str) -> usize {
    LineIndex::new(text).len()
}

fn errors_phrase(count: usize) -> String {
    match count {
        0 => "no syntax errors".to_string(),
        1 => "1 syntax error".to_string(),
        n => format!("{n} syntax errors"),
    }
}

/// The errors the edit adds, by rule 2 of the module doc, in document order.
fn new_by_place<'a>(
    before: &[Found],
    after: &'a [Found],
    (first, last): (usize, usize),
    delta: isize,
) -> Vec<&'a Found> {
    // Lines of the edit in `after`, and the lines they replaced in `before`;
    // an empty range (a deletion) has `last < first`.
    let first = first as isize;
    let after_last = last as isize;
    let before_last = after_last - delta;
    let touches = |found: &Found, range_last: isize| {
        found.first_line as isize <= range_last && found.last_line as isize >= first
    };

    // Untouched errors before the edit, by the line they would have now.
    let mut untouched_before: HashMap<isize, Vec<&Found>> = HashMap::new();
    let mut touched_before = 0usize;
    for found in before {
        if touches(found, before_last) {
            touched_before += 1;
        } else {
            let line = found.error.line as isize;
            let shifted = if line < first { line } else { line + delta };
            untouched_before.entry(shifted).or_default().push(found);
        }
    }

    let mut new = Vec::new();
    let mut touched_after = Vec::new();
    for found in after {
        if touches(found, after_last) {
            touched_after.push(found);
            continue;
        }
        match untouched_before.get_mut(&(found.error.line as isize)) {
            Some(waiting) if !waiting.is_empty() => {
                waiting.pop();
            }
            _ => new.push(found),
        }
    }

    // An old error that vanished from its place may be the one now reported
    // inside the edit, if it reads the same; the rest are counted against
    // the touched errors that were there before.
    let mut vanished: Vec<&Found> = untouched_before.into_values().flatten().collect();
    let unexplained: Vec<&Found> = touched_after
        .into_iter()
        .filter(|found| {
            let same = vanished.iter().position(|old| {
                old.error.kind == found.error.kind && old.error.message == found.error.message
            });
            same.map(|i| vanished.swap_remove(i)).is_none()
        })
        .collect();
    let touched_new = unexplained.len().saturating_sub(touched_before);
    new.extend(unexplained.into_iter().take(touched_new));
    new.sort_by_key(|found| position(found));
    new
}

/// The errors the edit adds, by rule 3 of the module doc: as many as the
/// count grew, preferring errors on lines whose text had none before (lines
/// keep their text when others move, so this survives shifts).
fn new_by_count<'a>(before: &[Found], after: &'a [Found]) -> Vec<&'a Found> {
    let added = after.len().saturating_sub(before.len());
    if added == 0 {
        return Vec::new();
    }
    let mut seen: HashMap<(&str, ErrorKind), usize> = HashMap::new();
    for found in before {
        *seen
            .entry((found.error.line_text.as_str(), found.error.kind))
            .or_default() += 1;
    }
    let (mut unseen, mut seen_again): (Vec<&Found>, Vec<&Found>) = (Vec::new(), Vec::new());
    for found in after {
        match seen.get_mut(&(found.error.line_text.as_str(), found.error.kind)) {
            Some(count) if *count > 0 => {
                *count -= 1;
                seen_again.push(found);
            }
            _ => unseen.push(found),
        }
    }
    unseen.extend(seen_again);
    let mut new: Vec<&Found> = unseen.into_iter().take(added).collect();
    new.sort_by_key(|found| position(found));
    new
}

fn position(found: &Found) -> (usize, usize) {
    (found.error.line, found.error.column)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::syntax::tests::edit;

    /// Three Rust functions; the second has an unclosed call on line 6.
    const BROKEN: &str = "fn one() {\n    let a = 1;\n}\n\nfn two() {\n    let b = f(2;\n}\n\nfn three() {\n    let c = 3;\n}\n";

    fn refusal(outcome: GateOutcome) -> SyntaxRegression {
        match outcome {
            GateOutcome::Refuse(regression) => regression,
            GateOutcome::Pass { note } => panic!("expected a refusal, got a pass ({note:?})"),
        }
    }

    fn note(outcome: GateOutcome) -> Option<String> {
        match outcome {
            GateOutcome::Pass { note } => note,
            GateOutcome::Refuse(regression) => panic!("expected a pass, got:\n{regression}"),
        }
    }

    #[test]
    fn the_broken_fixture_has_one_error() {
        let report = crate::text::syntax::parse(Language::Rust, BROKEN).unwrap();
        assert_eq!(report.error_count, 1);
        assert_eq!(report.errors[0].line, 6);
        assert_eq!(
            report.errors[0].message,
            "missing `)` to close the `(` on line 6"
        );
    }

    #[test]
    fn an_edit_elsewhere_in_a_broken_file_passes_with_a_note() {
        // Two lines inserted above the error shift it from line 6 to line 8.
        let (after, lines) = edit(
            BROKEN,
            "    let a = 1;\n",
            "    let a = 1;\n    let x = 2;\n    let y = 3;\n",
        );
        assert_eq!(lines, (2, 4));
        assert_eq!(
            note(check_edit(Language::Rust, BROKEN, &after, Some(lines))).as_deref(),
            Some(
                "the file already had 1 syntax error before this edit and has 1 syntax error after it; \
                 the edit adds none. First remaining: line 8, column 16: missing `)` to close the `(` on line 8\n  \
                 8 |     let b = f(2;"
            )
        );
        // Below the error nothing shifts.
        let (after, lines) = edit(
            BROKEN,
            "    let c = 3;\n",
            "    let c = 3;\n    let d = 4;\n",
        );
        assert!(note(check_edit(Language::Rust, BROKEN, &after, Some(lines))).is_some());
    }

    #[test]
    fn an_edit_that_adds_a_second_error_is_refused() {
        let (after, lines) = edit(BROKEN, "    let c = 3;\n", "    let c = [3;\n");
        let regression = refusal(check_edit(Language::Rust, BROKEN, &after, Some(lines)));
        assert_eq!(
            regression.to_string(),
            "Edit refused: it would add a syntax error to this Rust file, so nothing was written.\n\
             line 10, column 13: unclosed `[`: no matching `]`\n  \
             10 |     let c = [3;\n\
             The file had 1 syntax error before the edit and would have 2 syntax errors after it. \
             Correct the new content and try again."
        );
        assert_eq!((regression.before_errors, regression.after_errors), (1, 2));
        // The count alone sees it too.
        let regression = refusal(check_edit(Language::Rust, BROKEN, &after, None));
        assert_eq!(regression.first_new_error.line, 10);
    }

    #[test]
    fn fixing_one_error_while_breaking_another_place_is_refused() {
        // The edit closes the call on line 6 but drops the `}` of `two`.
        let (after, lines) = edit(BROKEN, "    let b = f(2;\n}\n", "    let b = f(2);\n");
        let regression = refusal(check_edit(Language::Rust, BROKEN, &after, Some(lines)));
        assert_eq!(regression.before_errors, 1);
        assert_eq!(regression.after_errors, 1);
        assert_eq!(
            regression.first_new_error.message,
            "unclosed `{`: no matching `}`"
        );
        assert_eq!(regression.first_new_error.line, 5);
        // Without the edited lines only the count is compared, which cannot
        // see the swap: documented as the weaker fallback.
        assert!(note(check_edit(Language::Rust, BROKEN, &after, None)).is_some());
    }

    #[test]
    fn fixing_every_error_passes_without_a_note() {
        let (after, lines) = edit(BROKEN, "f(2;", "f(2);");
        assert_eq!(
            check_edit(Language::Rust, BROKEN, &after, Some(lines)),
            GateOutcome::Pass { note: None }
        );
    }

    #[test]
    fn an_old_error_the_parser_reports_inside_the_edit_is_not_blamed_on_it() {
        // An unclosed block is reported where the text ends; appending to the
        // file moves that report into the appended lines.
        let before = "package main\n\nfunc main() {\n\tprintln(1)\n";
        let report = crate::text::syntax::parse(Language::Go, before).unwrap();
        assert_eq!(report.errors[0].line, 4);
        assert_eq!(
            report.errors[0].message,
            "missing `}` to close the `{` on line 3"
        );
        let after = format!("{before}\tprintln(2)\n");
        let report = crate::text::syntax::parse(Language::Go, &after).unwrap();
        assert_eq!(report.errors[0].line, 5);
        assert!(note(check_edit(Language::Go, before, &after, Some((5, 5)))).is_some());
        // Appending a function, though, puts it inside the open block, where
        // it is a new error of its own.
        let after = format!("{before}\nfunc other() {{\n}}\n");
        let regression = refusal(check_edit(Language::Go, before, &after, Some((5, 7))));
        assert_eq!(regression.first_new_error.message, "unexpected `other`");
    }

    #[test]
    fn a_deletion_passes_an_empty_range() {
        let (after, lines) = edit(BROKEN, "fn one() {\n    let a = 1;\n}\n\n", "");
        assert_eq!(lines, (1, 0));
        assert!(note(check_edit(Language::Rust, BROKEN, &after, Some(lines))).is_some());
        // Deleting the blank line and the header of `three` leaves its body
        // at the top level, where its closing `}` is unexpected.
        let (after, lines) = edit(BROKEN, "\nfn three() {\n", "");
        assert_eq!(lines, (8, 7));
        let regression = refusal(check_edit(Language::Rust, BROKEN, &after, Some(lines)));
        assert_eq!(
            (
                regression.first_new_error.line,
                regression.first_new_error.message.as_str()
            ),
            (9, "unexpected `}`")
        );
    }

    #[test]
    fn a_broken_python_header_is_reported_on_its_line() {
        let before = "import os\n\n\ndef one():\n    return 1\n\n\ndef other():\n    y = 2\n    return y\n\n\ndef three():\n    return 3\n";
        let (after, lines) = edit(before, "def other():", "def other()");
        let regression = refusal(check_edit(Language::Python, before, &after, Some(lines)));
        let error = &regression.first_new_error;
        assert_eq!(
            (error.line, error.column, error.message.as_str()),
            (8, 12, "expected `:` after `def other()`")
        );
        let (after, lines) = edit(before, "    y = 2\n    return y\n", "y = 2\nreturn y\n");
        let regression = refusal(check_edit(Language::Python, before, &after, Some(lines)));
        assert_eq!(
            regression.first_new_error.message,
            "expected an indented block after function definition on line 8"
        );
        assert_eq!(regression.first_new_error.line, 9);
    }

    #[test]
    fn in_a_file_the_parser_cannot_read_only_errors_near_the_edit_count() {
        // A file with an error at its top: edits far below are judged on the
        // lines around them, where a new mistake is still seen.
        let mut before = String::from("int broken( {\n");
        for i in 0..120 {
            before.push_str(&format!("int f{i}(void) {{ return {i}; }}\n"));
        }
        let (after, lines) = edit(&before, "return 100;", "return 101;");
        assert!(!adds_errors_nearby(
            Language::C,
            &before,
            &after,
            lines,
            0,
            budget_for
        ));
        assert!(note(check_edit(Language::C, &before, &after, Some(lines))).is_some());
        let (after, lines) = edit(&before, "return 100;", "return (101;");
        assert!(adds_errors_nearby(
            Language::C,
            &before,
            &after,
            lines,
            0,
            budget_for
        ));
        assert!(matches!(
            check_edit(Language::C, &before, &after, Some(lines)),
            GateOutcome::Refuse(_)
        ));
    }

    #[test]
    fn a_clean_result_needs_no_comparison() {
        let before = "x = 1\n";
        let after = "x = 1\ny = 2\n";
        assert_eq!(
            check_edit(Language::Python, before, after, Some((2, 2))),
            GateOutcome::Pass { note: None }
        );
    }

    #[test]
    fn a_parse_over_budget_skips_the_check() {
        let before: String = (0..200)
            .map(|i| format!("fn f{i}() {{ let x = {i}; }}\n"))
            .collect();
        let after = before.replace("let x = 7;", "let x = (7;");
        assert_eq!(
            check_within(Language::Rust, &before, &after, Some((8, 8)), |_| 1),
            GateOutcome::Pass {
                note: Some("syntax check skipped: parse took too long".to_string())
            }
        );
        assert!(matches!(
            check_edit(Language::Rust, &before, &after, Some((8, 8))),
            GateOutcome::Refuse(_)
        ));
    }

    #[test]
    fn outcomes_serialize_for_tools() {
        let (after, lines) = edit(BROKEN, "    let c = 3;\n", "    let c = [3;\n");
        let json =
            serde_json::to_value(check_edit(Language::Rust, BROKEN, &after, Some(lines))).unwrap();
        assert_eq!(
            json,
            serde_json::json!({
                "status": "refuse",
                "language": "rust",
                "firstNewError": {
                    "line": 10,
                    "column": 13,
                    "kind": "error",
                    "message": "unclosed `[`: no matching `]`",
                    "lineText": "    let c = [3;"
                },
                "newErrorCount": 1,
                "beforeErrors": 1,
                "afterErrors": 2
            })
        );
        let json = serde_json::to_value(GateOutcome::Pass { note: None }).unwrap();
        assert_eq!(json, serde_json::json!({ "status": "pass" }));
    }
}
