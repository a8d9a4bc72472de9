//! Line-level helpers for building cases: look-alike characters, typos,
//! indentation and a simple canonical form for uniqueness checks.

use super::rng::Rng;

/// Leading spaces and tabs of a line.
pub fn indent(line: &str) -> &str {
    let end = line.len() - line.trim_start_matches([' ', '\t']).len();
    &line[..end]
}

/// Whether a line has letters or digits (not only brackets or blanks).
pub fn is_content(line: &str) -> bool {
    line.chars().filter(|c| c.is_ascii_alphanumeric()).count() >= 3
}

/// Typographic characters turned back into ASCII.
pub fn to_ascii(line: &str) -> String {
    line.chars()
        .map(|c| match c {
            '\u{2018}' | '\u{2019}' => "'".to_string(),
            '\u{201C}' | '\u{201D}' => "\"".to_string(),
            '\u{2013}' | '\u{2014}' => "-".to_string(),
            '\u{2026}' => "...".to_string(),
            '\u{00A0}' => " ".to_string(),
            c => c.to_string(),
        })
        .collect()
}

fn fancy_text(text: &str, nbsp: bool) -> String {
    let mut out = text
        .replace("...", "\u{2026}")
        .replace(" - ", " \u{2014} ")
        .replace('\'', "\u{2019}");
    let mut open = true;
    out = out
        .chars()
        .map(|c| {
            if c == '"' {
                let q = if open { '\u{201C}' } else { '\u{201D}' };
                open = !open;
                q
            } else {
                c
            }
        })
        .collect();
    if nbsp && let Some(at) = out.find(' ') {
        out.replace_range(at..at + 1, "\u{00A0}");
    }
    out
}

/// The line with typographic quotes, dashes and ellipses in its prose: the
/// text of a comment, of a message string, or of a Markdown line.
pub fn fancy(line: &str, nbsp: bool) -> String {
    let pad = indent(line);
    let body = &line[pad.len()..];
    if let Some(inner) = body
        .strip_prefix("\"\"\"")
        .and_then(|b| b.strip_suffix("\"\"\""))
    {
        return format!("{pad}\"\"\"{}\"\"\"", fancy_text(inner, nbsp));
    }
    for lead in ["/// ", "/** ", "// ", "# ", "- "] {
        if let Some(rest) = body.strip_prefix(lead) {
            return format!("{pad}{lead}{}", fancy_text(rest, nbsp));
        }
    }
    if let (Some(a), Some(b)) = (body.find('"'), body.rfind('"'))
        && b > a + 1
    {
        return format!(
            "{pad}{}\"{}\"{}",
            &body[..a],
            fancy_text(&body[a + 1..b], nbsp).replace(['\u{201C}', '\u{201D}'], "'"),
            &body[b + 1..]
        );
    }
    if body.contains(". ") || body.ends_with('.') {
        return format!("{pad}{}", fancy_text(body, nbsp));
    }
    line.to_string()
}

/// One typo in the text of a line (not in its indentation): two letters
/// swapped, one dropped, doubled or replaced.
pub fn typo(line: &str, rng: &mut Rng) -> String {
    let pad = indent(line);
    let chars: Vec<char> = line[pad.len()..].chars().collect();
    let letters: Vec<usize> = (0..chars.len())
        .filter(|&i| chars[i].is_ascii_alphabetic())
        .collect();
    if letters.is_empty() {
        return line.to_string();
    }
    for _ in 0..20 {
        let at = *rng.pick(&letters);
        let mut out = chars.clone();
        match rng.below(4) {
            0 if at + 1 < out.len() => out.swap(at, at + 1),
            1 => {
                out.remove(at);
            }
            2 => out.insert(at, out[at]),
            _ => {
                let c = (b'a' + rng.below(26) as u8) as char;
                out[at] = c;
            }
        }
        let s: String = out.into_iter().collect();
        let candidate = format!("{pad}{s}");
        if candidate != line {
            return candidate;
        }
    }
    line.to_string()
}

/// Whitespace collapsed and look-alikes folded: equal canonical lines are
/// the same line to the matcher, up to drift.
pub fn canonical(line: &str) -> String {
    to_ascii(line)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// How many times the non-blank lines of `block` occur, in canonical form and
/// in order, among the non-blank lines of `doc`.
pub fn occurrences(doc: &[String], block: &[String]) -> usize {
    let d: Vec<String> = doc
        .iter()
        .map(|l| canonical(l))
        .filter(|l| !l.is_empty())
        .collect();
    let b: Vec<String> = block
        .iter()
        .map(|l| canonical(l))
        .filter(|l| !l.is_empty())
        .collect();
    if b.is_empty() || b.len() > d.len() {
        return 0;
    }
    d.windows(b.len()).filter(|w| *w == b.as_slice()).count()
}

/// A changed version of a line: a name gets a suffix or a number changes.
pub fn modify(line: &str, rng: &mut Rng) -> String {
    let pad = indent(line);
    let body = &line[pad.len()..];
    let mut tokens: Vec<(usize, usize)> = Vec::new();
    let bytes = body.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_alphanumeric() {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            if i - start >= 3 || bytes[start].is_ascii_digit() {
                tokens.push((start, i));
            }
        } else {
            i += 1;
        }
    }
    if tokens.is_empty() {
        return format!("{line} // changed");
    }
    let (a, b) = *rng.pick(&tokens);
    let token = &body[a..b];
    let replaced = match token.parse::<u64>() {
        Ok(n) => (n + 1 + rng.below(9) as u64).to_string(),
        Err(_) => format!("{token}{}", rng.pick(&["_v2", "_next", "_alt", "_new"])),
    };
    format!("{pad}{}{}{}", &body[..a], replaced, &body[b..])
}

/// A line as someone else rewrote it after the agent read it: two names
/// replaced by other, longer ones.
pub fn stale(line: &str, rng: &mut Rng) -> String {
    let mut out = line.to_string();
    for word in [
        rng.word(&["watermark", "checkpoint", "allowance"]),
        rng.word(&["fingerprint", "threshold", "heartbeat"]),
    ] {
        let pad = indent(&out).len();
        let bytes = out.as_bytes();
        let mut tokens = Vec::new();
        let mut i = pad;
        while i < bytes.len() {
            if bytes[i].is_ascii_alphabetic() {
                let start = i;
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                if i - start >= 3 && !out[start..i].contains(word) {
                    tokens.push((start, i));
                }
            } else {
                i += 1;
            }
        }
        if tokens.is_empty() {
            break;
        }
        let (a, b) = *rng.pick(&tokens);
        out.replace_range(a..b, word);
    }
    out
}
