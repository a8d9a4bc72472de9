//! The syntax gate on a real header the parser cannot read as a whole: the
//! C library's `openssl/ssl.h`, where this machine has it (skipped
//! otherwise). Harmless edits anywhere in it pass; an edit that leaves a
//! call unclosed is refused.

use mcp_server_text::text::syntax::{GateOutcome, Language, check_edit, parse};

const HEADER: &str = "/usr/include/openssl/ssl.h";

/// The header's lines with `change` made to line `k` (0-based).
fn edited(lines: &[&str], k: usize, change: impl Fn(&str) -> String) -> String {
    lines
        .iter()
        .enumerate()
        .map(|(i, l)| if i == k { change(l) } else { l.to_string() })
        .collect()
}

#[test]
fn edits_of_a_header_the_parser_cannot_read_whole_are_judged_where_they_are() {
    let Ok(text) = std::fs::read_to_string(HEADER) else {
        eprintln!("skipped: {HEADER} is not on this machine");
        return;
    };
    assert!(parse(Language::C, &text).unwrap().error_count > 0);
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let continued = |k: usize| k > 0 && lines[k - 1].trim_end().ends_with('\\');
    let mut harmless = 0;
    let mut breaking = 0;
    // Where a conditional block ends the parser's recovery is the most
    // fragile: a comment after every `#endif`.
    for k in 40..lines.len() {
        if !lines[k].starts_with("#endif") || continued(k) {
            continue;
        }
        let after = edited(&lines, k, |l| format!("{l}// checked\n"));
        let outcome = check_edit(Language::C, &text, &after, Some((k + 2, k + 2)));
        assert!(
            matches!(outcome, GateOutcome::Pass { .. }),
            "a comment after line {} was refused: {outcome:?}",
            k + 1
        );
        harmless += 1;
    }
    for (k, line) in lines.iter().enumerate().skip(40).step_by(7) {
        let code = line.trim_start();
        if continued(k) || code.starts_with(['#', '/', '*']) || !line.ends_with(");\n") {
            continue;
        }
        if breaking == 12 {
            break;
        }
        let after = edited(&lines, k, |l| l.replacen(");", ";", 1));
        let outcome = check_edit(Language::C, &text, &after, Some((k + 1, k + 1)));
        assert!(
            matches!(outcome, GateOutcome::Refuse(_)),
            "an unclosed call on line {} passed",
            k + 1
        );
        breaking += 1;
    }
    assert!(harmless >= 20 && breaking >= 10, "{harmless} {breaking}");
}
