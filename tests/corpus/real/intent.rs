//! What an agent means to change in a block of a real file: a line
//! rewritten, a line added or removed, in the file's own terms. The edits
//! are the kind that keep a file parsing (a number, a name, a comment), so
//! that the expected file is what the caller asked for; the corpus still
//! checks each result with the language's own parser where it can.

use super::super::rng::Rng;
use super::super::text::indent;
use super::lang::Lang;

/// A line of a block after the edit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Item {
    /// File line `i`, unchanged.
    Kept(usize),
    /// File line `i`, rewritten as this text.
    Rewrite(usize, String),
    /// A new line.
    New(String),
}

/// Lines `a..=b` of a file become `items`.
#[derive(Debug, Clone)]
pub struct Intent {
    pub a: usize,
    pub b: usize,
    pub items: Vec<Item>,
}

impl Intent {
    /// No change yet.
    pub fn unchanged(a: usize, b: usize) -> Intent {
        Intent {
            a,
            b,
            items: (a..=b).map(Item::Kept).collect(),
        }
    }

    /// The position in `items` of file line `i`, if it is still there.
    fn at(&self, i: usize) -> Option<usize> {
        self.items
            .iter()
            .position(|it| matches!(it, Item::Kept(k) | Item::Rewrite(k, _) if *k == i))
    }

    /// Whether file line `i` is kept as it is.
    pub fn keeps(&self, i: usize) -> bool {
        self.items.contains(&Item::Kept(i))
    }

    /// Whether anything changes.
    pub fn changes(&self) -> bool {
        self.items != (self.a..=self.b).map(Item::Kept).collect::<Vec<_>>()
    }

    /// The file's lines with the edit made, each with its ending: kept and
    /// rewritten lines keep theirs, new lines take `eol`.
    pub fn apply(&self, lines: &[String], eols: &[&'static str], eol: &'static str) -> String {
        let mut out = String::new();
        for i in 0..self.a {
            out.push_str(&lines[i]);
            out.push_str(eols[i]);
        }
        let n = self.items.len();
        for (k, item) in self.items.iter().enumerate() {
            let (text, end) = match item {
                Item::Kept(i) => (lines[*i].as_str(), eols[*i]),
                Item::Rewrite(i, t) => (t.as_str(), eols[*i]),
                Item::New(t) => (t.as_str(), eol),
            };
            out.push_str(text);
            // The block's last line keeps the file's missing final newline.
            let last_of_file = self.b + 1 == lines.len() && eols[self.b].is_empty();
            out.push_str(if k + 1 == n && last_of_file {
                ""
            } else if end.is_empty() {
                eol
            } else {
                end
            });
        }
        if n == 0 && self.b + 1 == lines.len() && eols[self.b].is_empty() {
            let cut = if out.ends_with("\r\n") {
                2
            } else {
                usize::from(out.ends_with('\n'))
            };
            out.truncate(out.len() - cut);
        }
        for i in self.b + 1..lines.len() {
            out.push_str(&lines[i]);
            out.push_str(eols[i]);
        }
        out
    }
}

/// Identifier-like tokens of a line: byte ranges of words that start with a
/// letter or `_`, at least three long, that are not keywords.
fn names(line: &str, lang: Lang) -> Vec<(usize, usize)> {
    let b = line.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            let before = start.checked_sub(1).map(|k| b[k]);
            let word = &line[start..i];
            if i - start >= 3
                && !lang.keywords().contains(&word)
                && before != Some(b'\'')
                && before != Some(b'\\')
                && word.chars().any(|c| c.is_ascii_lowercase())
            {
                out.push((start, i));
            }
        } else if c.is_ascii_digit() {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
        } else {
            i += 1;
        }
    }
    out
}

/// Decimal numbers of a line: the byte of each one's last digit.
fn numbers(line: &str) -> Vec<usize> {
    let b = line.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_digit() {
            let start = i;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            let before = start.checked_sub(1).map(|k| b[k]);
            let after = b.get(i).copied();
            let glued = |c: Option<u8>| {
                c.is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'.')
            };
            if !glued(before) && !glued(after) {
                out.push(i - 1);
            }
        } else {
            i += 1;
        }
    }
    out
}

/// A different version of a code line that still parses: a number, a name
/// or a string changed, or a comment added at its end.
pub fn modify(line: &str, lang: Lang, rng: &mut Rng) -> Option<String> {
    if lang == Lang::Markdown {
        return modify_prose(line, rng);
    }
    let pad = indent(line).len();
    for _ in 0..6 {
        match rng.below(4) {
            0 => {
                let nums: Vec<usize> = numbers(line).into_iter().filter(|&k| k >= pad).collect();
                if nums.is_empty() {
                    continue;
                }
                let at = *rng.pick(&nums);
                let old = line.as_bytes()[at] - b'0';
                let new = (old + 1 + rng.below(8) as u8) % 10;
                let mut out = line.to_string();
                out.replace_range(at..at + 1, &new.to_string());
                return Some(out);
            }
            1 => {
                let words = names(line, lang);
                if words.is_empty() {
                    continue;
                }
                let (a, b) = *rng.pick(&words);
                let mut out = line.to_string();
                out.insert_str(b, rng.word(&["_next", "_v2", "_all", "_raw"]));
                let _ = a;
                return Some(out);
            }
            2 => {
                let quote = if matches!(lang, Lang::Python | Lang::JavaScript) && rng.chance(50) {
                    '\''
                } else {
                    '"'
                };
                let body = &line[pad..];
                let Some(open) = body.find(quote) else {
                    continue;
                };
                let Some(len) = body[open + 1..].find(quote) else {
                    continue;
                };
                let inner = &body[open + 1..open + 1 + len];
                if inner.len() < 3
                    || inner.contains('\\')
                    || !inner.chars().any(char::is_alphabetic)
                {
                    continue;
                }
                let at = pad + open + 1 + len;
                let mut out = line.to_string();
                out.insert_str(at, rng.word(&[" (edited)", " again", " first"]));
                return Some(out);
            }
            _ => {
                let lead = lang.comment()?;
                if line.trim_end().ends_with('\\') || line.contains(lead) || line.trim().is_empty()
                {
                    continue;
                }
                let note = rng.word(&["keep in sync", "see above", "checked", "hot path"]);
                return Some(format!("{}  {lead} {note}", line.trim_end()));
            }
        }
    }
    None
}

/// A Markdown line with a word changed or a few words added.
fn modify_prose(line: &str, rng: &mut Rng) -> Option<String> {
    let t = line.trim_start();
    if t.starts_with("```") || t.starts_with('|') || t.is_empty() {
        return None;
    }
    let words: Vec<(usize, usize)> = line
        .char_indices()
        .filter(|&(i, c)| c.is_ascii_alphabetic() && (i == 0 || line.as_bytes()[i - 1] == b' '))
        .filter_map(|(i, _)| {
            let end = line[i..]
                .find(|c: char| !c.is_ascii_alphabetic())
                .map_or(line.len(), |e| i + e);
            (end - i >= 4).then_some((i, end))
        })
        .collect();
    if words.is_empty() || rng.chance(30) {
        return Some(format!(
            "{} {}",
            line.trim_end(),
            rng.word(&["(See below.)", "This matters.", "Also for tests."])
        ));
    }
    let (a, b) = *rng.pick(&words);
    let mut out = line.to_string();
    out.replace_range(a..b, rng.word(&["really", "simply", "usually", "always"]));
    (out != line).then_some(out)
}

/// The indentation a line added after line `k` takes: one level deeper
/// after a line that opens a block, else the same.
fn indent_after(lines: &[String], k: usize) -> String {
    let line = lines[k].trim_end();
    let here = indent(&lines[k]).to_string();
    if (line.ends_with('{') || line.ends_with(':') || line.ends_with('(') || line.ends_with('['))
        && let Some(next) = lines[k + 1..].iter().find(|l| !l.trim().is_empty())
    {
        let next_pad = indent(next);
        if next_pad.len() > here.len() {
            return next_pad.to_string();
        }
    }
    here
}

/// A new line to add after line `k`: a comment in code (a statement too in
/// Python and JavaScript where the line before ends one), a sentence or a
/// list item in Markdown.
pub fn new_line(lines: &[String], k: usize, lang: Lang, rng: &mut Rng) -> Option<String> {
    let prev = lines[k].trim_end();
    if prev.ends_with('\\') {
        return None;
    }
    let pad = indent_after(lines, k);
    match lang {
        Lang::Markdown => {
            let t = prev.trim_start();
            if t.starts_with("```") || t.starts_with('|') || t.starts_with('#') {
                return None;
            }
            if let Some(rest) = ["- ", "* "].iter().find(|m| t.starts_with(**m)) {
                return Some(format!(
                    "{}{rest}{}",
                    indent(prev),
                    rng.word(&[
                        "Also works offline.",
                        "Faster on large inputs.",
                        "Documented below."
                    ])
                ));
            }
            if t.is_empty() {
                return None;
            }
            Some(
                rng.word(&[
                    "This is checked on every call.",
                    "See the notes below for details.",
                    "The default is usually right.",
                ])
                .to_string(),
            )
        }
        Lang::Python
            if rng.chance(40) && !prev.ends_with(',') && !prev.trim_start().starts_with('@') =>
        {
            Some(format!(
                "{pad}{}",
                rng.word(&["_trace(\"checkpoint\")", "assert True", "pass"])
            ))
        }
        Lang::JavaScript if rng.chance(40) && prev.ends_with(';') => {
            Some(format!("{pad}{}", rng.word(&["void 0;", "debugger;"])))
        }
        _ => {
            let lead = lang.comment()?;
            Some(format!(
                "{pad}{lead} {}",
                rng.word(&[
                    "NOTE: the order matters here.",
                    "TODO: check the bounds.",
                    "Kept for compatibility.",
                    "See the caller."
                ])
            ))
        }
    }
}

/// Whether line `k` can go without breaking the file: a whole-line comment,
/// a complete simple statement, or (in Markdown) a line of text.
pub fn removable(lines: &[String], k: usize, lang: Lang) -> bool {
    let line = lines[k].trim();
    if line.is_empty() {
        return false;
    }
    let prev = lines[..k]
        .iter()
        .rev()
        .find(|l| !l.trim().is_empty())
        .map(|l| l.trim_end());
    if prev.is_some_and(|p| p.ends_with('\\') || p.ends_with(',')) || line.ends_with('\\') {
        return false;
    }
    let balanced = |s: &str| {
        let count = |c: char| s.chars().filter(|&x| x == c).count();
        count('(') == count(')') && count('[') == count(']') && count('{') == count('}')
    };
    match lang {
        Lang::Markdown => {
            !line.starts_with("```") && !line.starts_with('|') && !line.starts_with('#')
        }
        Lang::Python => {
            if line.starts_with('#') {
                return true;
            }
            let next = lines[k + 1..].iter().find(|l| !l.trim().is_empty());
            let only_statement = prev.is_some_and(|p| p.ends_with(':'))
                && next.is_none_or(|n| indent(n).len() < indent(&lines[k]).len());
            balanced(line)
                && !line.ends_with(':')
                && !line.starts_with('@')
                && !line.starts_with(['"', '\''])
                && !only_statement
        }
        Lang::Rust | Lang::C | Lang::JavaScript => {
            if line.starts_with("//") {
                return true;
            }
            line.ends_with(';')
                && balanced(line)
                && !line.starts_with('}')
                && prev.is_some_and(|p| p.ends_with(';') || p.ends_with('{') || p.ends_with('}'))
        }
    }
}

/// A random edit of lines `a..=b` that changes only lines in `allowed`.
pub fn make(
    lines: &[String],
    a: usize,
    b: usize,
    lang: Lang,
    allowed: &[usize],
    rng: &mut Rng,
) -> Option<Intent> {
    let mut intent = Intent::unchanged(a, b);
    let ops = if rng.chance(25) { 2 } else { 1 };
    let mut touched: Vec<usize> = Vec::new();
    for _ in 0..ops {
        for _ in 0..10 {
            let ok: Vec<usize> = allowed
                .iter()
                .copied()
                .filter(|&i| {
                    !lines[i].trim().is_empty()
                        && !touched.contains(&i)
                        && !touched.contains(&(i + 1))
                        && !touched.contains(&(i.wrapping_sub(1)))
                })
                .collect();
            if ok.is_empty() {
                break;
            }
            let k = *rng.pick(&ok);
            let Some(pos) = intent.at(k) else { continue };
            let done = match rng.below(10) {
                0..=4 => {
                    modify(&lines[k], lang, rng).map(|t| intent.items[pos] = Item::Rewrite(k, t))
                }
                5..=7 => new_line(lines, k, lang, rng)
                    .map(|t| intent.items.insert(pos + 1, Item::New(t))),
                _ => removable(lines, k, lang).then(|| {
                    intent.items.remove(pos);
                }),
            };
            if done.is_some() {
                touched.push(k);
                break;
            }
        }
    }
    intent.changes().then_some(intent)
}

/// A line as the caller remembers it though the file has changed since: a
/// name or a number that is different now.
pub fn stale(line: &str, lang: Lang, rng: &mut Rng) -> Option<String> {
    let pad = indent(line).len();
    if lang == Lang::Markdown {
        return modify_prose(line, rng);
    }
    for _ in 0..6 {
        if rng.chance(50) {
            let words: Vec<(usize, usize)> = names(line, lang)
                .into_iter()
                .filter(|w| w.0 >= pad)
                .collect();
            if words.is_empty() {
                continue;
            }
            let (a, b) = *rng.pick(&words);
            let mut out = line.to_string();
            out.replace_range(
                a..b,
                rng.word(&["handle", "buffer", "offset", "current", "state"]),
            );
            if out != line {
                return Some(out);
            }
        } else {
            let nums: Vec<usize> = numbers(line).into_iter().filter(|&k| k >= pad).collect();
            if nums.is_empty() {
                continue;
            }
            let at = *rng.pick(&nums);
            let old = line.as_bytes()[at] - b'0';
            let mut out = line.to_string();
            out.replace_range(at..at + 1, &((old + 3) % 10).to_string());
            return Some(out);
        }
    }
    None
}

/// An edit of line `k` that breaks the syntax: a block opener loses its
/// colon (Python), a call or group loses its closing bracket.
pub fn breaking(line: &str, lang: Lang) -> Option<String> {
    let t = line.trim_end();
    if lang == Lang::Python && t.ends_with(':') && !t.trim_start().starts_with('#') {
        return Some(t[..t.len() - 1].to_string());
    }
    let at = t.rfind(')')?;
    if lang
        .comment()
        .is_some_and(|c| t.trim_start().starts_with(c))
    {
        return None;
    }
    let mut out = t.to_string();
    out.remove(at);
    Some(out)
}
