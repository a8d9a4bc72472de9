//! Line edits: replace, insert and delete whole lines, keeping the file's line
//! endings and the presence or absence of its final newline.
//!
//! Each edit is planned as one [`Splice`] plus the numbers a response reports
//! (`affectedLines`, `linesDelta`, `linesChanged`). New text is given the
//! ending the caller chooses (normally the file's); the lines around the edit
//! keep theirs.
//!
//! ```
//! use mcp_server_text::text::document::Document;
//! use mcp_server_text::text::edit::{plan, LineEdit};
//! use mcp_server_text::text::lines::Eol;
//!
//! let doc = Document::decode(b"one\r\ntwo\r\nthree".to_vec(), None).unwrap();
//! let plan = plan(&doc, &LineEdit::Replace { first: 2, last: 2, content: "2a\n2b" }, Eol::Crlf).unwrap();
//! let edited = doc.apply(&[plan.splice.clone()]).unwrap();
//! assert_eq!(edited.text(), "one\r\n2a\r\n2b\r\nthree");
//! assert_eq!((plan.affected.start, plan.affected.end, plan.lines_delta), (2, 3, 1));
//! ```

use std::fmt;

use super::document::{Document, Splice};
use super::lines::Eol;

/// A whole-line edit. Line numbers are 1-based and inclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineEdit<'a> {
    /// Replace lines `first..=last` with the lines of `content`.
    Replace {
        /// First replaced line.
        first: usize,
        /// Last replaced line.
        last: usize,
        /// The new lines; one trailing line ending is optional.
        content: &'a str,
    },
    /// Insert the lines of `content` before line `before`; `line_count + 1`
    /// appends at the end.
    Insert {
        /// The line the new lines go in front of.
        before: usize,
        /// The new lines; one trailing line ending is optional.
        content: &'a str,
    },
    /// Delete lines `first..=last`.
    Delete {
        /// First deleted line.
        first: usize,
        /// Last deleted line.
        last: usize,
    },
}

/// An inclusive range of 1-based lines. `end == start - 1` is an empty range
/// (a position between lines).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
pub struct LineSpan {
    /// First line.
    pub start: usize,
    /// Last line.
    pub end: usize,
}

impl LineSpan {
    /// The span `start..=end`.
    pub fn new(start: usize, end: usize) -> LineSpan {
        LineSpan { start, end }
    }

    /// Number of lines in the span.
    pub fn len(&self) -> usize {
        (self.end + 1).saturating_sub(self.start)
    }

    /// Whether the span holds no line.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A planned edit: the splice to apply and what to report about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EditPlan {
    /// The change to the document's text.
    pub splice: Splice,
    /// For insert and replace, where the new lines are in the edited file; for
    /// delete, the removed lines as numbered before the edit.
    pub affected: LineSpan,
    /// Where the edit sits in the edited file, for context lines: the new lines,
    /// or for a delete the empty span at the point of deletion.
    pub new_span: LineSpan,
    /// Lines added minus lines removed.
    pub lines_delta: isize,
    /// Lines of the original file that were replaced or removed.
    pub lines_changed: usize,
    /// The original lines that were replaced or removed, without their last ending.
    pub removed: String,
    /// The new lines as written, without their last ending.
    pub inserted: String,
}

/// Why a line edit cannot be planned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EditError {
    /// A line number is 0 or past the end of the file.
    OutOfRange {
        /// The offending line number.
        line: usize,
        /// Lines in the file.
        line_count: usize,
        /// Whether one past the end would have been valid (inserts).
        allow_append: bool,
    },
    /// `first` is after `last`.
    Reversed {
        /// First line given.
        first: usize,
        /// Last line given.
        last: usize,
    },
    /// Replace or insert with no content.
    EmptyContent,
}

impl fmt::Display for EditError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EditError::OutOfRange {
                line,
                line_count,
                allow_append,
            } => {
                if *line == 0 {
                    write!(f, "line 0 does not exist: line numbers start at 1")
                } else if *allow_append {
                    write!(
                        f,
                        "line {line} is out of range: the file has {line_count} lines, so insert before a line from 1 to {} ({} appends at the end)",
                        line_count + 1,
                        line_count + 1
                    )
                } else {
                    write!(
                        f,
                        "line {line} is out of range: the file has {line_count} lines"
                    )
                }
            }
            EditError::Reversed { first, last } => write!(
                f,
                "the range is reversed: start {first} is after end {last}"
            ),
            EditError::EmptyContent => write!(
                f,
                "content is empty: to remove lines use operation 'delete'; to insert an empty line send \"\\n\""
            ),
        }
    }
}

impl std::error::Error for EditError {}

/// Splits new content into lines: one trailing line ending is optional, so
/// `"a\n"` and `"a"` are both the single line `a`, and `"\n"` is one empty line.
pub fn content_lines(content: &str) -> Vec<&str> {
    if content.is_empty() {
        return Vec::new();
    }
    let body = content
        .strip_suffix('\n')
        .map(|c| c.strip_suffix('\r').unwrap_or(c))
        .unwrap_or(content);
    body.split('\n')
        .map(|line| line.strip_suffix('\r').unwrap_or(line))
        .collect()
}

/// Joins lines with `eol` between them (not after the last).
pub fn join_lines(lines: &[&str], eol: Eol) -> String {
    lines.join(eol.as_str())
}

fn check_range(doc: &Document, first: usize, last: usize) -> Result<(), EditError> {
    let count = doc.line_count();
    for line in [first, last] {
        if line == 0 || line > count {
            return Err(EditError::OutOfRange {
                line,
                line_count: count,
                allow_append: false,
            });
        }
    }
    if first > last {
        return Err(EditError::Reversed { first, last });
    }
    Ok(())
}

/// Plans `edit` on `doc`, giving new lines the ending `eol`.
pub fn plan(doc: &Document, edit: &LineEdit<'_>, eol: Eol) -> Result<EditPlan, EditError> {
    let text = doc.text();
    let index = doc.lines();
    let count = doc.line_count();
    match *edit {
        LineEdit::Replace {
            first,
            last,
            content,
        } => {
            check_range(doc, first, last)?;
            let new_lines = content_lines(content);
            if new_lines.is_empty() {
                return Err(EditError::EmptyContent);
            }
            let inserted = join_lines(&new_lines, eol);
            // The last replaced line keeps its own ending, so a file without a
            // final newline still has none, and a mixed file keeps its mix.
            let mut ending = doc.eol(last).as_str();
            if ending.is_empty() && new_lines.last().is_some_and(|l| l.is_empty()) {
                // An empty last line exists only if the line before it ends:
                // the file gains a final newline rather than losing the line.
                ending = eol.as_str();
            }
            let range = index.span_of_lines(first, last);
            let removed_span = index.start(first)..index.span(text, last).end;
            let k = new_lines.len();
            Ok(EditPlan {
                splice: Splice::new(range, format!("{inserted}{ending}")),
                affected: LineSpan::new(first, first + k - 1),
                new_span: LineSpan::new(first, first + k - 1),
                lines_delta: k as isize - (last - first + 1) as isize,
                lines_changed: last - first + 1,
                removed: text[removed_span].to_string(),
                inserted,
            })
        }
        LineEdit::Insert { before, content } => {
            if before == 0 || before > count + 1 {
                return Err(EditError::OutOfRange {
                    line: before,
                    line_count: count,
                    allow_append: true,
                });
            }
            let new_lines = content_lines(content);
            if new_lines.is_empty() {
                return Err(EditError::EmptyContent);
            }
            let inserted = join_lines(&new_lines, eol);
            let k = new_lines.len();
            let at = index.start(before);
            let splice_text = if before <= count || doc.has_final_newline() {
                format!("{inserted}{}", eol.as_str())
            } else if count == 0 {
                // An empty file has no ending to keep: the content's own
                // trailing newline, if any, decides; an empty last line (a
                // final lone CR reads as one) exists only with one.
                let trailing =
                    if content.ends_with('\n') || new_lines.last().is_some_and(|l| l.is_empty()) {
                        eol.as_str()
                    } else {
                        ""
                    };
                format!("{inserted}{trailing}")
            } else {
                // Appending to a file without a final newline: the old last
                // line gets an ending, the new last line has none (unless it
                // is empty, which only a final newline can express).
                let trailing = if new_lines.last().is_some_and(|l| l.is_empty()) {
                    eol.as_str()
                } else {
                    ""
                };
                format!("{}{inserted}{trailing}", eol.as_str())
            };
            Ok(EditPlan {
                splice: Splice::new(at..at, splice_text),
                affected: LineSpan::new(before, before + k - 1),
                new_span: LineSpan::new(before, before + k - 1),
                lines_delta: k as isize,
                lines_changed: 0,
                removed: String::new(),
                inserted,
            })
        }
        LineEdit::Delete { first, last } => {
            check_range(doc, first, last)?;
            let removed_span = index.start(first)..index.span(text, last).end;
            let range = if last == count
                && !doc.has_final_newline()
                && first > 1
                && !doc.line(first - 1).is_empty()
            {
                // Removing the unterminated last line(s): the line before them
                // becomes the last line and loses its ending, so the file
                // still ends without a newline. (An empty line keeps its
                // ending: without it, it would not be a line at all.)
                index.span(text, first - 1).end..text.len()
            } else {
                index.span_of_lines(first, last)
            };
            Ok(EditPlan {
                splice: Splice::new(range, ""),
                affected: LineSpan::new(first, last),
                new_span: LineSpan::new(first, first - 1),
                lines_delta: -((last - first + 1) as isize),
                lines_changed: last - first + 1,
                removed: text[removed_span].to_string(),
                inserted: String::new(),
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn apply(bytes: &str, edit: LineEdit<'_>, eol: Eol) -> (String, EditPlan) {
        let doc = Document::decode(bytes.as_bytes().to_vec(), None).unwrap();
        let plan = plan(&doc, &edit, eol).unwrap();
        let edited = doc.apply(std::slice::from_ref(&plan.splice)).unwrap();
        (edited.text().to_string(), plan)
    }

    #[test]
    fn content_lines_takes_one_optional_trailing_newline() {
        assert_eq!(content_lines("a"), ["a"]);
        assert_eq!(content_lines("a\n"), ["a"]);
        assert_eq!(content_lines("a\r\n"), ["a"]);
        assert_eq!(content_lines("a\n\n"), ["a", ""]);
        assert_eq!(content_lines("\n"), [""]);
        assert_eq!(content_lines("a\r\nb"), ["a", "b"]);
        assert!(content_lines("").is_empty());
    }

    #[test]
    fn replace_keeps_the_last_lines_ending() {
        let (out, plan) = apply(
            "a\nb\nc",
            LineEdit::Replace {
                first: 3,
                last: 3,
                content: "x\ny\n",
            },
            Eol::Lf,
        );
        assert_eq!(out, "a\nb\nx\ny");
        assert_eq!(
            (plan.affected, plan.lines_delta, plan.lines_changed),
            (LineSpan::new(3, 4), 1, 1)
        );
        assert_eq!(plan.removed, "c");

        let (out, _) = apply(
            "a\r\nb\nc\r\n",
            LineEdit::Replace {
                first: 2,
                last: 2,
                content: "x\ny",
            },
            Eol::Crlf,
        );
        assert_eq!(out, "a\r\nx\r\ny\nc\r\n");
    }

    #[test]
    fn insert_before_in_the_middle_and_at_the_end() {
        let (out, plan) = apply(
            "a\nb\n",
            LineEdit::Insert {
                before: 2,
                content: "x",
            },
            Eol::Lf,
        );
        assert_eq!(out, "a\nx\nb\n");
        assert_eq!(
            (plan.affected, plan.lines_delta, plan.lines_changed),
            (LineSpan::new(2, 2), 1, 0)
        );

        let (out, _) = apply(
            "a\nb\n",
            LineEdit::Insert {
                before: 3,
                content: "x\n",
            },
            Eol::Lf,
        );
        assert_eq!(out, "a\nb\nx\n");

        let (out, plan) = apply(
            "a\r\nb",
            LineEdit::Insert {
                before: 3,
                content: "x\r\ny",
            },
            Eol::Crlf,
        );
        assert_eq!(out, "a\r\nb\r\nx\r\ny");
        assert_eq!(plan.affected, LineSpan::new(3, 4));
    }

    #[test]
    fn an_empty_last_line_gets_a_final_newline() {
        let (out, plan) = apply(
            "a\nx",
            LineEdit::Replace {
                first: 2,
                last: 2,
                content: "\n",
            },
            Eol::Lf,
        );
        assert_eq!((out.as_str(), plan.lines_delta), ("a\n\n", 0));
        let (out, plan) = apply(
            "a",
            LineEdit::Insert {
                before: 2,
                content: "b\n\n",
            },
            Eol::Lf,
        );
        assert_eq!((out.as_str(), plan.lines_delta), ("a\nb\n\n", 2));
        // Found by the range_patch fuzz target: into an empty file, content
        // whose last line is empty (here a final lone CR) counts that line.
        let (out, plan) = apply(
            "",
            LineEdit::Insert {
                before: 1,
                content: "x\r\n\r",
            },
            Eol::Lf,
        );
        assert_eq!((out.as_str(), plan.lines_delta), ("x\n\n", 2));
    }

    #[test]
    fn insert_into_an_empty_file_keeps_the_contents_newline() {
        assert_eq!(
            apply(
                "",
                LineEdit::Insert {
                    before: 1,
                    content: "x\n"
                },
                Eol::Lf
            )
            .0,
            "x\n"
        );
        assert_eq!(
            apply(
                "",
                LineEdit::Insert {
                    before: 1,
                    content: "x"
                },
                Eol::Lf
            )
            .0,
            "x"
        );
    }

    #[test]
    fn delete_keeps_a_missing_final_newline_missing() {
        let (out, plan) = apply("a\nb\nc", LineEdit::Delete { first: 3, last: 3 }, Eol::Lf);
        assert_eq!(out, "a\nb");
        assert_eq!(
            (plan.affected, plan.lines_delta, plan.new_span),
            (LineSpan::new(3, 3), -1, LineSpan::new(3, 2))
        );
        assert_eq!(
            apply("a\nb\nc\n", LineEdit::Delete { first: 3, last: 3 }, Eol::Lf).0,
            "a\nb\n"
        );
        assert_eq!(
            apply("a\nb", LineEdit::Delete { first: 1, last: 2 }, Eol::Lf).0,
            ""
        );
        assert_eq!(
            apply("a\nb\nc", LineEdit::Delete { first: 1, last: 1 }, Eol::Lf).0,
            "b\nc"
        );
    }

    #[test]
    fn refuses_bad_ranges_and_empty_content() {
        let doc = Document::decode(b"a\nb\n".to_vec(), None).unwrap();
        let err = |e: LineEdit<'_>| plan(&doc, &e, Eol::Lf).unwrap_err();
        assert_eq!(
            err(LineEdit::Delete { first: 2, last: 1 }),
            EditError::Reversed { first: 2, last: 1 }
        );
        assert_eq!(
            err(LineEdit::Delete { first: 1, last: 3 }),
            EditError::OutOfRange {
                line: 3,
                line_count: 2,
                allow_append: false
            }
        );
        assert_eq!(
            err(LineEdit::Insert {
                before: 4,
                content: "x"
            }),
            EditError::OutOfRange {
                line: 4,
                line_count: 2,
                allow_append: true
            }
        );
        assert_eq!(
            err(LineEdit::Replace {
                first: 1,
                last: 1,
                content: ""
            }),
            EditError::EmptyContent
        );
        assert_eq!(
            err(LineEdit::Replace {
                first: 0,
                last: 1,
                content: "x"
            })
            .to_string(),
            "line 0 does not exist: line numbers start at 1"
        );
    }
}
