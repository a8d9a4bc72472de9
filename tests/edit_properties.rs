//! Property tests of the text core's line edits: for random documents (random
//! line endings, BOM, encoding, final newline or not) and random edits, the
//! bytes outside the edit are unchanged, line endings keep their style, and
//! the reported numbers are right.

use mcp_server_text::text::document::Document;
use mcp_server_text::text::edit::{LineEdit, content_lines, plan};
use mcp_server_text::text::encoding::TextEncoding;
use mcp_server_text::text::lines::{Eol, EolStyle};
use proptest::prelude::*;

#[derive(Debug, Clone)]
struct Doc {
    lines: Vec<String>,
    endings: Vec<Eol>,
    final_newline: bool,
    bom: bool,
    encoding: TextEncoding,
}

impl Doc {
    fn text(&self) -> String {
        let mut out = String::new();
        for (i, line) in self.lines.iter().enumerate() {
            out.push_str(line);
            let last = i + 1 == self.lines.len();
            if !last || self.final_newline {
                out.push_str(self.endings[i].as_str());
            }
        }
        out
    }

    fn document(&self) -> Document {
        Document::from_text(self.text(), self.encoding, self.bom).unwrap()
    }
}

fn line() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            Just('a'),
            Just(' '),
            Just('é'),
            Just('\t'),
            Just('#'),
            Just('z')
        ],
        0..8,
    )
    .prop_map(|c| c.into_iter().collect())
}

fn doc() -> impl Strategy<Value = Doc> {
    (1usize..12, prop_oneof![Just(0u8), Just(1), Just(2)]).prop_flat_map(|(n, style)| {
        let ending = match style {
            0 => Just(Eol::Lf).boxed(),
            1 => Just(Eol::Crlf).boxed(),
            _ => prop_oneof![Just(Eol::Lf), Just(Eol::Crlf)].boxed(),
        };
        (
            prop::collection::vec(line(), n),
            prop::collection::vec(ending, n),
            any::<bool>(),
            any::<bool>(),
            prop_oneof![Just(TextEncoding::Utf8), Just(TextEncoding::Utf16Le)],
        )
            .prop_map(|(mut lines, endings, final_newline, bom, encoding)| {
                // An empty last line without a final newline is no line at all.
                if !final_newline && lines.last().is_some_and(String::is_empty) {
                    *lines.last_mut().unwrap() = "x".into();
                }
                Doc {
                    lines,
                    endings,
                    final_newline,
                    bom,
                    encoding,
                }
            })
    })
}

#[derive(Debug, Clone)]
enum Op {
    Replace(usize, usize, String),
    Insert(usize, String),
    Delete(usize, usize),
}

fn content() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(line(), 1..4),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(lines, crlf, trailing)| {
            let sep = if crlf { "\r\n" } else { "\n" };
            let mut s = lines.join(sep);
            if trailing {
                s.push_str(sep);
            }
            if s.is_empty() {
                s.push('\n');
            }
            s
        })
}

fn case() -> impl Strategy<Value = (Doc, Op)> {
    doc().prop_flat_map(|d| {
        let n = d.lines.len();
        let op = prop_oneof![
            (1..=n, 0..n, content()).prop_map(move |(a, len, c)| {
                let b = (a + len).min(n);
                Op::Replace(a, b, c)
            }),
            (1..=n + 1, content()).prop_map(|(b, c)| Op::Insert(b, c)),
            (1..=n, 0..n).prop_map(move |(a, len)| Op::Delete(a, (a + len).min(n))),
        ];
        (Just(d), op)
    })
}

fn eol_of(doc: &Document) -> Eol {
    doc.eol_style().preferred()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn edits_keep_everything_outside_the_edit((d, op) in case()) {
        let before = d.document();
        let old_bytes = before.to_bytes();
        let edit = match &op {
            Op::Replace(a, b, c) => LineEdit::Replace { first: *a, last: *b, content: c },
            Op::Insert(b, c) => LineEdit::Insert { before: *b, content: c },
            Op::Delete(a, b) => LineEdit::Delete { first: *a, last: *b },
        };
        let eol = eol_of(&before);
        let p = plan(&before, &edit, eol).unwrap();
        let after = before.apply(std::slice::from_ref(&p.splice)).unwrap();
        let new_bytes = after.to_bytes();

        // Bytes before the edited lines and after them are the same bytes.
        let (old_lines, new_lines) = (before.line_count(), after.line_count());
        let (first_old, last_old) = match op {
            Op::Replace(a, b, _) | Op::Delete(a, b) => (a, b),
            Op::Insert(b, _) => (b, b - 1),
        };
        for k in 1..first_old.saturating_sub(1) {
            // Whole lines well before the edit are unchanged, endings included.
            prop_assert_eq!(before.line(k), after.line(k));
            prop_assert_eq!(before.eol(k), after.eol(k));
        }
        let delta = new_lines as isize - old_lines as isize;
        prop_assert_eq!(p.lines_delta, delta);
        for k in (last_old + 2)..=old_lines {
            let moved = (k as isize + delta) as usize;
            prop_assert_eq!(before.line(k), after.line(moved));
            prop_assert_eq!(before.eol(k), after.eol(moved));
        }
        let prefix = old_bytes.iter().zip(&new_bytes).take_while(|(a, b)| a == b).count();
        let bom_len = if d.bom { d.encoding.bom().len() } else { 0 };
        prop_assert!(prefix >= bom_len, "the BOM is kept");

        // The new lines are exactly the content's lines, where the report says.
        if let Op::Replace(_, _, c) | Op::Insert(_, c) = &op {
            let expected = content_lines(c);
            let got: Vec<&str> = (p.affected.start..=p.affected.end).map(|k| after.line(k)).collect();
            prop_assert_eq!(got, expected);
            for k in p.affected.start..p.affected.end {
                prop_assert_eq!(after.eol(k), eol, "new lines get the chosen ending");
            }
        }

        // Line-ending style and final newline are kept.
        match before.eol_style() {
            EolStyle::Lf => prop_assert!(matches!(after.eol_style(), EolStyle::Lf | EolStyle::None)),
            EolStyle::Crlf => prop_assert!(matches!(after.eol_style(), EolStyle::Crlf | EolStyle::None)),
            _ => {}
        }
        let ends_with_new_blank_line = matches!(&op, Op::Replace(_, b, c) if *b == old_lines && content_lines(c).last() == Some(&""))
            || matches!(&op, Op::Insert(b, c) if *b == old_lines + 1 && content_lines(c).last() == Some(&""))
            || matches!(&op, Op::Delete(a, b) if *b == old_lines && *a > 1 && before.line(*a - 1).is_empty());
        if after.line_count() > 0 && before.line_count() > 0 && !ends_with_new_blank_line {
            prop_assert_eq!(after.has_final_newline(), before.has_final_newline());
        }
        prop_assert_eq!(after.encoding(), before.encoding());
        prop_assert_eq!(after.has_bom(), before.has_bom());

        // What was written decodes back to the same text.
        let reread = Document::decode(new_bytes, Some(d.encoding)).unwrap();
        prop_assert_eq!(reread.text(), after.text());
    }
}
