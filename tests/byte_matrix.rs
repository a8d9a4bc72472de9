//! The byte-preservation matrix: {LF, CRLF, mixed} × {BOM, none} × {final
//! newline, none} × {UTF-8, UTF-16LE} × every edit operation, each compared
//! with the exact bytes expected.
//!
//! The expected file is computed from a line model written here, independent
//! of the implementation: which lines change, and which ending each line gets
//! (new lines take the file's ending; in a mixed file, the ending of the line
//! they are placed next to).

mod support;

use serde_json::{Value, json};
use support::Vault;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Style {
    Lf,
    Crlf,
    Mixed,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Enc {
    Utf8,
    Utf16Le,
}

type Line = (String, &'static str);

const BASE: [&str; 15] = [
    "# Title",
    "",
    "Intro.",
    "",
    "## Setup",
    "",
    "Step one.",
    "",
    "```sh",
    "make",
    "```",
    "",
    "## Usage",
    "Use it.",
    "Done.",
];

fn base(style: Style, final_newline: bool) -> Vec<Line> {
    BASE.iter()
        .enumerate()
        .map(|(i, text)| {
            let n = i + 1;
            let eol = match style {
                Style::Lf => "\n",
                Style::Crlf => "\r\n",
                Style::Mixed if n % 2 == 1 => "\r\n",
                Style::Mixed => "\n",
            };
            let eol = if n == BASE.len() && !final_newline {
                ""
            } else {
                eol
            };
            (text.to_string(), eol)
        })
        .collect()
}

/// The ending new lines get next to line `near`.
fn new_eol(lines: &[Line], style: Style, near: usize) -> &'static str {
    match style {
        Style::Lf => "\n",
        Style::Crlf => "\r\n",
        Style::Mixed => match lines[near - 1].1 {
            "" => {
                let crlf = lines.iter().filter(|l| l.1 == "\r\n").count();
                let lf = lines.iter().filter(|l| l.1 == "\n").count();
                if crlf > lf { "\r\n" } else { "\n" }
            }
            e => e,
        },
    }
}

fn encode(lines: &[Line], bom: bool, enc: Enc) -> Vec<u8> {
    let text: String = lines.iter().map(|(t, e)| format!("{t}{e}")).collect();
    let mut out = Vec::new();
    match enc {
        Enc::Utf8 => {
            if bom {
                out.extend_from_slice(b"\xEF\xBB\xBF");
            }
            out.extend_from_slice(text.as_bytes());
        }
        Enc::Utf16Le => {
            if bom {
                out.extend_from_slice(b"\xFF\xFE");
            }
            out.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
        }
    }
    out
}

/// Replaces lines `first..=last` with `new` lines: inner endings are the new
/// ending, the last new line keeps the ending of the last replaced line.
fn replace(lines: &mut Vec<Line>, style: Style, first: usize, last: usize, new: &[&str]) {
    let e = new_eol(lines, style, first);
    let last_ending = lines[last - 1].1;
    let replacement: Vec<Line> = new
        .iter()
        .enumerate()
        .map(|(i, t)| {
            (
                t.to_string(),
                if i + 1 == new.len() { last_ending } else { e },
            )
        })
        .collect();
    lines.splice(first - 1..last, replacement);
}

/// Inserts `new` lines before line `before`, each with the new ending.
fn insert(lines: &mut Vec<Line>, style: Style, before: usize, new: &[&str]) {
    let e = new_eol(lines, style, before - 1);
    let inserted: Vec<Line> = new.iter().map(|t| (t.to_string(), e)).collect();
    lines.splice(before - 1..before - 1, inserted);
}

struct Op {
    name: &'static str,
    tool: &'static str,
    args: Value,
    model: fn(&mut Vec<Line>, Style),
}

fn ops() -> Vec<Op> {
    vec![
        Op {
            name: "replace lines",
            tool: "TextPatch",
            args: json!({"operation": "replace", "target": {"lines": {"start": 3, "end": 3}}, "content": "Intro text.\nMore intro."}),
            model: |l, s| replace(l, s, 3, 3, &["Intro text.", "More intro."]),
        },
        Op {
            name: "insert appendToSection",
            tool: "TextPatch",
            args: json!({"operation": "insert", "target": {"appendToSection": "## Setup"}, "content": "Step two.\n"}),
            model: |l, s| insert(l, s, 12, &["Step two."]),
        },
        Op {
            name: "insert beforeHeading",
            tool: "TextPatch",
            args: json!({"operation": "insert", "target": {"beforeHeading": "## Usage"}, "content": "## Notes\n\nSome notes.\n"}),
            model: |l, s| insert(l, s, 13, &["## Notes", "", "Some notes."]),
        },
        Op {
            name: "insert lines at the end",
            tool: "TextPatch",
            args: json!({"operation": "insert", "target": {"lines": {"start": 16}}, "content": "Appended."}),
            model: |l, s| {
                let e = new_eol(l, s, 15);
                if l[14].1.is_empty() {
                    // The old last line gets an ending; the new one has none.
                    l[14].1 = e;
                    l.push(("Appended.".into(), ""));
                } else {
                    l.push(("Appended.".into(), e));
                }
            },
        },
        Op {
            name: "delete lines",
            tool: "TextPatch",
            args: json!({"operation": "delete", "target": {"lines": {"start": 6, "end": 7}}}),
            model: |l, _| {
                l.drain(5..7);
            },
        },
        Op {
            name: "delete the last line",
            tool: "TextPatch",
            args: json!({"operation": "delete", "target": {"lines": {"start": 15, "end": 15}}}),
            model: |l, _| {
                let had_final = !l[14].1.is_empty();
                l.pop();
                if !had_final {
                    l[13].1 = "";
                }
            },
        },
        Op {
            name: "replace heading",
            tool: "TextPatch",
            args: json!({"operation": "replace", "target": {"heading": "## Usage"}, "content": "## How to use"}),
            model: |l, s| replace(l, s, 13, 13, &["## How to use"]),
        },
        Op {
            name: "replace codeBlock",
            tool: "TextPatch",
            args: json!({"operation": "replace", "target": {"codeBlock": {"index": 0}}, "content": "make\nmake install"}),
            model: |l, s| replace(l, s, 10, 10, &["make", "make install"]),
        },
        Op {
            name: "TextReplace across lines",
            tool: "TextReplace",
            args: json!({"oldText": "Use it.\nDone.", "newText": "Use it well.\nDone.\nReally done."}),
            model: |l, s| {
                // The match spans an ending, so the new text takes that ending.
                let e = l[13].1;
                let last = l[14].1;
                let _ = s;
                l.splice(
                    13..15,
                    [
                        ("Use it well.".to_string(), e),
                        ("Done.".to_string(), e),
                        ("Really done.".to_string(), last),
                    ],
                );
            },
        },
        Op {
            name: "TextReplace within a line",
            tool: "TextReplace",
            args: json!({"oldText": "Step one.", "newText": "Step 1."}),
            model: |l, _| l[6].0 = "Step 1.".into(),
        },
    ]
}

#[test]
fn every_edit_keeps_every_byte_it_was_not_asked_to_change() {
    let vault = Vault::new();
    let mut checked = 0;
    for style in [Style::Lf, Style::Crlf, Style::Mixed] {
        for bom in [true, false] {
            for final_newline in [true, false] {
                for enc in [Enc::Utf8, Enc::Utf16Le] {
                    for op in ops() {
                        let lines = base(style, final_newline);
                        let original = encode(&lines, bom, enc);
                        let mut expected_lines = lines.clone();
                        (op.model)(&mut expected_lines, style);
                        let expected = encode(&expected_lines, bom, enc);
                        let name = format!(
                            "{style:?}-{bom}-{final_newline}-{enc:?}-{}.md",
                            op.name.replace(' ', "_")
                        );
                        vault.write(&name, &original);
                        let mut args = op.args.clone();
                        args["filePath"] = json!(name);
                        vault.ok(op.tool, args);
                        let got = vault.read(&name);
                        assert!(
                            got == expected,
                            "{name}: bytes differ\n got: {:?}\nwant: {:?}",
                            String::from_utf8_lossy(&got),
                            String::from_utf8_lossy(&expected)
                        );
                        checked += 1;
                    }
                }
            }
        }
    }
    assert_eq!(checked, 3 * 2 * 2 * 2 * ops().len());
}
