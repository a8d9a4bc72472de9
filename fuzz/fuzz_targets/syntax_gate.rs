//! The syntax layer on deeply nested and pathological text of every
//! language: TextInspect's parse (errors and outline) and the edit gate must
//! return for any text, never abort the process (a scanner's C assertion)
//! or overflow the stack. A text the scanner limits refuse is never parsed,
//! and says so.
//!
//! Input: byte 0 picks the language, byte 1 the shape and whether
//! TextInspect or the gate runs, byte 2 a depth from the language's table
//! of [`depths`], byte 3 an offset of -8 to +8 from it, byte 4 a step and
//! byte 5 a count (from the same table, its offset from byte 3 divided by
//! 17); the rest is split at the first NUL into a unit (what is repeated or
//! nested) and a body (the plain text around it).
//!
//! The depths sit at and around what each grammar's external scanner keeps,
//! rather than anywhere up to thousands: the YAML and Python limits of
//! `scanner_limit` (and halves, thirds, quarters and eighths of them, for
//! lines and steps that count more than one) and the levels where the
//! scanners would overflow their 1,024-byte buffer (254 YAML levels, 384
//! Python levels); the 255 open strings the Python scanner saves; HTML's
//! 1,024 bytes of room for its tag stack (340, 510 or 1,020 tags) and its
//! 255-byte tag names; just beyond the 4,000-tag HTML limit (a text inside
//! it costs the parser a tenth of a second, and that scanner checks its
//! room); Bash heredoc counts and delimiters that fill the buffer; Rust's
//! one-byte count of a raw string's hashes; C++'s 16-character raw-string
//! delimiter. Every language also gets depths 0 to 48, and 64 and 256, past
//! the 48 levels the syntax layer's tree walks go down. (The YAML scanner's
//! 16-bit rows and columns would need texts over 32 KB; parsed texts stop at
//! [`MAX_TEXT`].)
//!
//! The shapes build what random bytes rarely reach: brackets, tags, `$(`,
//! `f"{`, `${` or heredocs nested deep on one line, closed or not;
//! indentation staircases (1-4 spaces or a tab a step, or one column a step
//! written with tabs and spaces, so 380 levels take 11 KB), the unit on
//! each step; staircases opening a bracket on every step; the unit repeated
//! on one line; a long token (string, comment, heredoc delimiter, tag name,
//! Rust raw string hashes, C++ raw-string delimiter, YAML key or item); a
//! staircase with a string, bracket, block scalar, tag or heredoc opened
//! `count` times on its deepest step; and the body as it is.
//!
//! One execution parses the big text once, or twice for the gate when the
//! edit has errors: byte 1 picks TextInspect (one parse for errors and
//! outline) or the gate on an edit of the middle line (the edited text, the
//! text when the edit has errors, and the lines around the edit), and a
//! text of at most [`SMALL`] bytes the gate without edited lines too.
//! Texts over [`MAX_TEXT`] are skipped unless a scanner limit refuses them:
//! a refusal is one linear pass, so they stay cheap.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use mcp_server_text::text::syntax::{
    GateOutcome, HTML_MAX_OPEN_TAGS, Language, PYTHON_MAX_INDENT, Skipped, YAML_MAX_NESTING,
    check_edit, inspect, scanner_limit,
};

/// Largest text parsed, so one execution stays short.
const MAX_TEXT: usize = 16 * 1024;

/// Largest text built: past it a shape stops growing.
const MAX_BUILD: usize = 64 * 1024;

/// Texts up to this size also go through the gate without edited lines.
const SMALL: usize = 2 * 1024;

fuzz_target!(|data: &[u8]| {
    if data.len() < 6 {
        return;
    }
    let language = Language::ALL[data[0] as usize % Language::ALL.len()];
    let table = depths(language);
    let offset = |byte: u8| (byte % 17) as isize - 8;
    let depth = table[data[2] as usize % table.len()].saturating_add_signed(offset(data[3]));
    let count = table[data[5] as usize % table.len()].saturating_add_signed(offset(data[3] / 17));
    let step = data[4] as usize;
    let rest = String::from_utf8_lossy(&data[6..]);
    let (unit, body) = rest.split_once('\0').unwrap_or((&rest, ""));
    let unit = if unit.is_empty() { "a:" } else { unit };
    let text = shape(data[1], unit, body, depth, step, count);
    let beyond = scanner_limit(language, &text).is_err();
    if text.len() > MAX_TEXT && !beyond {
        return;
    }
    if show() {
        eprintln!(
            "{language} shape {} depth {depth} step {step} count {count} ({} bytes)\n{text:?}",
            data[1],
            text.len()
        );
    }
    let small = text.len() <= SMALL;
    let gate_only = data[1] & 0x80 != 0;

    if !gate_only {
        match inspect(language, &text) {
            Ok(inspection) => {
                assert!(!beyond, "a text beyond the scanner's limits was parsed");
                serde_json::to_string(&inspection).expect("the inspection serializes");
            }
            Err(Skipped::BeyondLimits { .. }) => assert!(beyond),
            Err(Skipped::TooSlow) => {}
        }
    }
    if gate_only {
        // An edit in the middle line: the gate parses the edited text, the
        // text before it when the edit has errors, and the lines around the
        // edit on their own.
        let lines: Vec<&str> = text.split_inclusive('\n').collect();
        let middle = lines.len() / 2;
        let mut edited = String::with_capacity(text.len() + unit.len() + 1);
        for (i, line) in lines.iter().enumerate() {
            if i == middle {
                edited.push_str(unit);
                edited.push('\n');
            }
            edited.push_str(line);
        }
        let line = middle + 1;
        match check_edit(language, &text, &edited, Some((line, line))) {
            GateOutcome::Pass { .. } | GateOutcome::Refuse(_) => {}
        }
        if small {
            let _ = check_edit(language, &edited, &text, None);
        }
    }
});

/// Whether `FUZZ_SHOW` is set: then each text is printed before it is
/// checked.
fn show() -> bool {
    static SHOW: OnceLock<bool> = OnceLock::new();
    *SHOW.get_or_init(|| std::env::var_os("FUZZ_SHOW").is_some())
}

/// A table of depths: the shallow ones (with the offsets, 0 to 48), the
/// ones given, and 64 and 256, deeper than the syntax layer's tree walks go.
macro_rules! table {
    ($($depth:expr),*) => {
        &[8, 24, 40, 0, $($depth,)* 64, 256]
    };
}

/// The depths tried for `language`: the shallow ones, those at and around
/// the limits its scanner keeps (see the module doc), and the deep ones.
fn depths(language: Language) -> &'static [usize] {
    const YAML: &[usize] = table!(
        YAML_MAX_NESTING / 3,
        YAML_MAX_NESTING / 2,
        YAML_MAX_NESTING,
        254
    );
    const PYTHON: &[usize] = table!(
        PYTHON_MAX_INDENT / 8,
        PYTHON_MAX_INDENT / 4,
        PYTHON_MAX_INDENT / 3,
        PYTHON_MAX_INDENT / 2,
        255,
        PYTHON_MAX_INDENT,
        384
    );
    const HTML: &[usize] = table!(255, 340, 510, 1020, HTML_MAX_OPEN_TAGS + 9);
    const BASH: &[usize] = table!(146, 255, 1017);
    const RUST: &[usize] = table!(255);
    const CPP: &[usize] = table!(16);
    const OTHER: &[usize] = table!();
    match language {
        Language::Yaml => YAML,
        Language::Python => PYTHON,
        Language::Html => HTML,
        Language::Bash => BASH,
        Language::Rust => RUST,
        Language::Cpp => CPP,
        _ => OTHER,
    }
}

/// What the nesting shapes open and close, picked by a step.
const PAIRS: [(&str, &str); 8] = [
    ("(", ")"),
    ("[", "]"),
    ("{", "}"),
    ("<a>", "</a>"),
    ("$(", ")"),
    ("f\"{", "}\""),
    ("`${", "}`"),
    ("<<E ", "\nE"),
];

/// What the deepest step of a staircase opens, `count` times.
const OPENERS: [&str; 8] = ["f\"{", "\"", "[", "- |", "(", "'''", "<div>", "<<E "];

/// The text of shape `kind` built from the unit, the body and the numbers.
fn shape(kind: u8, unit: &str, body: &str, depth: usize, step: usize, count: usize) -> String {
    let open_ended = step & 0x40 != 0;
    match kind % 8 {
        // Brackets (or tags, `$(`, `f"{`, `${`, heredocs, the unit) nested
        // `depth` deep on one line, closed or not.
        0 => {
            let (open, close) = if step % 9 == 8 {
                (unit, "")
            } else {
                PAIRS[step % 9]
            };
            let mut text = repeat(open, depth);
            text.push_str(body);
            if !open_ended {
                text.push_str(&repeat(close, depth));
            }
            text.push('\n');
            text
        }
        // An indentation staircase, the unit on each step.
        1 => {
            let mut text = staircase(unit, "", depth, step);
            text.push_str(body);
            text
        }
        // A staircase whose every step opens a bracket after the unit, the
        // brackets closed on lines of their own or not.
        2 => {
            let (open, close) = PAIRS[(step / 6) % PAIRS.len()];
            let mut text = staircase(unit, open, depth, step);
            text.push_str(body);
            text.push('\n');
            if !open_ended {
                for level in (0..depth).rev() {
                    if text.len() > 2 * MAX_BUILD {
                        break;
                    }
                    text.push_str(&indent(level, step));
                    text.push_str(close);
                    text.push('\n');
                }
            }
            text
        }
        // The unit repeated on one line (`- - - - x`, `a: a: a:`).
        3 => format!("{}{body}\n", repeat(unit, depth)),
        // A token `depth` characters long.
        4 => {
            let long: String = unit.chars().cycle().take(depth.min(MAX_BUILD)).collect();
            match step % 10 {
                0 => format!("x = \"{long}\"\n{body}"),
                1 => format!("/* {long} */\n{body}"),
                2 => format!("cat <<{long}\n{body}\n{long}\n"),
                3 => format!("<{long}>{body}</{long}>\n"),
                4 => {
                    // A raw string with `depth` hashes, closed by as many or
                    // by one fewer.
                    let hashes = "#".repeat(depth.min(MAX_BUILD));
                    let closing = if open_ended {
                        &hashes[..hashes.len().saturating_sub(1)]
                    } else {
                        &hashes
                    };
                    format!("r{hashes}\"{body}\"{closing}\n")
                }
                5 => format!("R\"{long}({body}){long}\"\n"),
                6 => format!("{long}: {body}\n"),
                7 => format!("- {long}\n  {body}\n"),
                8 => format!("'''{long}\n{body}'''\n"),
                _ => format!("# {long}\n{body}"),
            }
        }
        // A staircase with a string, bracket, block scalar, tag or heredoc
        // opened `count` times on its deepest step.
        5 => {
            let mut text = staircase(unit, "", depth, step);
            text.push_str(&indent(depth, step));
            text.push_str(&repeat(OPENERS[(step / 6) % OPENERS.len()], count));
            text.push('\n');
            text.push_str(body);
            text
        }
        // The body as it is.
        _ => body.to_string(),
    }
}

/// `depth` lines, each the unit (then `tail`) indented one step deeper than
/// the last.
fn staircase(unit: &str, tail: &str, depth: usize, step: usize) -> String {
    let mut text = String::new();
    for level in 0..depth {
        if text.len() > MAX_BUILD {
            break;
        }
        text.push_str(&indent(level, step));
        text.push_str(unit);
        text.push_str(tail);
        text.push('\n');
    }
    text
}

/// The indentation of step `level` of a staircase: 1-4 spaces or a tab a
/// step, or one column a step written with as many tabs as fit (8 columns
/// each) and then spaces, which builds hundreds of levels in a few KB.
fn indent(level: usize, step: usize) -> String {
    let level = level.min(MAX_BUILD);
    match step % 6 {
        4 => "\t".repeat(level),
        5 => format!("{}{}", "\t".repeat(level / 8), " ".repeat(level % 8)),
        n => " ".repeat(level * (n + 1)),
    }
}

/// `piece` repeated `n` times, or just past [`MAX_BUILD`] bytes.
fn repeat(piece: &str, n: usize) -> String {
    if piece.is_empty() {
        return String::new();
    }
    piece.repeat(n.min(MAX_BUILD / piece.len() + 1))
}
