//! The syntax layer on deeply nested and pathological text of every
//! language: parsing, the outline, the error report and the edit gate must
//! return for any text, never abort the process (a scanner's C assertion)
//! or overflow the stack. A text the scanner limits refuse is never parsed,
//! and says so.
//!
//! Input: byte 0 picks the language, byte 1 the shape, bytes 2-3 a depth,
//! byte 4 a step; the rest is split at the first NUL into a unit (what is
//! repeated or nested) and a body (the plain text around it). The shapes
//! build what random bytes rarely reach: brackets nested thousands deep,
//! indentation staircases hundreds of levels deep (in spaces or tabs, with
//! the unit on each step), the unit repeated on one line, a long token
//! (string, comment, heredoc, tag) around the unit, and the body as it is.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_server_text::text::syntax::{
    self, GateOutcome, Language, Skipped, check_edit, inspect, scanner_limit,
};

/// Largest text built, so one execution stays short.
const MAX_TEXT: usize = 256 * 1024;

fuzz_target!(|data: &[u8]| {
    if data.len() < 5 {
        return;
    }
    let language = Language::ALL[data[0] as usize % Language::ALL.len()];
    let depth = u16::from_le_bytes([data[2], data[3]]) as usize % 3000;
    let step = data[4] as usize;
    let rest = String::from_utf8_lossy(&data[5..]);
    let (unit, body) = match rest.split_once('\0') {
        Some((unit, body)) => (unit.to_string(), body.to_string()),
        None => (rest.to_string(), String::new()),
    };
    let text = shape(data[1], &unit, &body, depth, step);
    if text.len() > MAX_TEXT {
        return;
    }
    if std::env::var_os("FUZZ_SHOW").is_some() {
        eprintln!("{language} shape {} depth {depth} step {step}\n{text:?}", data[1]);
    }

    let beyond = scanner_limit(language, &text).is_err();
    match inspect(language, &text) {
        Ok(inspection) => {
            assert!(!beyond, "a text beyond the scanner's limits was parsed");
            serde_json::to_string(&inspection).expect("the inspection serializes");
        }
        Err(Skipped::BeyondLimits { .. }) => assert!(beyond),
        Err(Skipped::TooSlow) => {}
    }
    let _ = syntax::outline(language, &text);

    // An edit in the middle line: the gate parses before and after, and
    // the lines around the edit on their own.
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let middle = lines.len() / 2;
    let mut edited = String::with_capacity(text.len() + unit.len() + 1);
    for (i, line) in lines.iter().enumerate() {
        if i == middle {
            edited.push_str(&unit);
            edited.push('\n');
        }
        edited.push_str(line);
    }
    let line = middle + 1;
    match check_edit(language, &text, &edited, Some((line, line))) {
        GateOutcome::Pass { .. } | GateOutcome::Refuse(_) => {}
    }
    let _ = check_edit(language, &edited, &text, None);
});

/// The text of shape `kind` built from the unit, the body and the numbers.
fn shape(kind: u8, unit: &str, body: &str, depth: usize, step: usize) -> String {
    let unit = if unit.is_empty() { "a:" } else { unit };
    match kind % 6 {
        // Brackets (or any unit) nested `depth` deep, closed or not.
        0 => {
            let (open, close) = match step % 6 {
                0 => ("(", ")"),
                1 => ("[", "]"),
                2 => ("{", "}"),
                3 => ("<a>", "</a>"),
                4 => ("$(", ")"),
                _ => (unit, ""),
            };
            let mut text = open.repeat(depth);
            text.push_str(body);
            if step & 0x40 == 0 {
                text.push_str(&close.repeat(depth));
            }
            text.push('\n');
            text
        }
        // An indentation staircase: the unit on each step, each step
        // deeper by 1-4 spaces or a tab.
        1 => {
            let indent = match step % 5 {
                4 => "\t".to_string(),
                n => " ".repeat(n + 1),
            };
            let mut text = String::new();
            for i in 0..depth {
                text.push_str(&indent.repeat(i));
                text.push_str(unit);
                text.push('\n');
                if text.len() > MAX_TEXT {
                    break;
                }
            }
            text.push_str(body);
            text
        }
        // The unit repeated on one line (`- - - - x`, `a: a: a:`).
        2 => format!("{}{body}\n", unit.repeat(depth)),
        // A long token of repeated units inside a construct.
        3 => {
            let long = unit.repeat(depth.min(MAX_TEXT / unit.len().max(1)));
            match step % 6 {
                0 => format!("x = \"{long}\"\n{body}"),
                1 => format!("/* {long} */\n{body}"),
                2 => format!("cat <<{long}\n{body}\n{long}\n"),
                3 => format!("<{long}>{body}</{long}>\n"),
                4 => format!("r#\"{long}\"#\n{body}"),
                _ => format!("# {long}\n{body}"),
            }
        }
        // The staircase with a bracket or string opened on the deepest step.
        4 => {
            let mut text = String::new();
            for i in 0..depth {
                if text.len() > MAX_TEXT {
                    break;
                }
                text.push_str(&" ".repeat(i));
                text.push_str(unit);
                text.push('\n');
            }
            text.push_str(&" ".repeat(depth));
            text.push_str(match step % 4 {
                0 => "f\"{",
                1 => "\"",
                2 => "[",
                _ => "- |",
            });
            text.push('\n');
            text.push_str(body);
            text
        }
        // The body as it is.
        _ => body.to_string(),
    }
}
