//! Traces of how the caller's text reached us, recognised across the whole
//! search and undone in both texts.
//!
//! An agent copies lines from a viewer that numbers them (`12: `, `  12→`,
//! `    12\t`, `L12: `), or its arguments go through JSON once too often
//! (`\\n` where the file has `\n`), or through an HTML page (`&lt;`). Such a
//! change is systematic: every line of the search shows it. Each one seen
//! gives a second *reading* of the caller's texts with it undone in
//! `search_context` and `new_content` alike, so that numbers and escapes
//! never reach the file; the readings then compete for places like any
//! other. A trace seen on some lines of the search and not on others is no
//! reading at all: the caller's text is refused, saying what was seen.
//!
//! ```text
//! search_context          reading without line numbers
//!   41→    if ready {       if ready {
//!   42→        go();            go();
//!   43→    }                }
//! ```

use super::normalize::invisible;

/// A trace the caller's text can carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Artifact {
    /// Each line starts with its line number, as a viewer shows it.
    LineNumbers,
    /// The text went through JSON escaping once more than it should have.
    JsonEscapes,
    /// `<`, `>` and `&` came as HTML entities.
    HtmlEntities,
    /// Invisible characters (a soft hyphen, a zero-width space, a
    /// byte-order mark) the file has none of.
    Invisible,
    /// Spaces or tabs at the end of every line, where no line of the file
    /// ends in one.
    TrailingWhitespace,
}

impl Artifact {
    /// How replies name it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Artifact::LineNumbers => "line numbers",
            Artifact::JsonEscapes => "JSON escapes",
            Artifact::HtmlEntities => "HTML entities",
            Artifact::Invisible => "invisible characters",
            Artifact::TrailingWhitespace => "trailing whitespace",
        }
    }
}

/// The caller's two texts as one reading takes them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Reading {
    /// `search_context` with the artifacts undone.
    pub search: String,
    /// `new_content` with the artifacts undone.
    pub new: String,
    /// What was undone (empty for the texts as sent).
    pub undone: Vec<Artifact>,
    /// Why `new_content` does not carry the artifact the way the search
    /// does, if it does not: this reading may find the place, but may not
    /// write.
    pub new_differs: Option<String>,
}

/// A trace seen on part of the search only.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Partial {
    /// What was seen, for the refusal.
    pub seen: String,
}

/// The readings of `search` and `new`: as sent, then each artifact the
/// search carries throughout, undone.
pub(crate) fn readings(search: &str, new: &str) -> Result<Vec<Reading>, Partial> {
    let mut out = vec![Reading {
        search: search.to_string(),
        new: new.to_string(),
        undone: Vec::new(),
        new_differs: None,
    }];
    if let Some(format) = numbered(search)? {
        out.push(Reading {
            search: strip_numbers(search, format),
            new: strip_numbers(new, format),
            undone: vec![Artifact::LineNumbers],
            new_differs: None,
        });
    }
    // A reading that makes control characters of the caller's backslashes
    // (`\r      x` read as a carriage return inside a line) has read escapes
    // into text that never had them: no file line holds such characters, so
    // the reading can only find a place by calling them whitespace, and then
    // it would write them.
    if search.contains('\\')
        && let Some(s) = json_unescaped(search).filter(|s| is_text(s))
    {
        let (n, differs) = match json_unescaped(new).filter(|n| is_text(n)) {
            Some(n) => (n, None),
            None => (
                new.to_string(),
                Some(
                    "search_context reads as escaped twice (every backslash doubled), but \
                     new_content has escapes that cannot be undone the same way"
                        .to_string(),
                ),
            ),
        };
        out.push(Reading {
            search: s,
            new: n,
            undone: vec![Artifact::JsonEscapes],
            new_differs: differs,
        });
    }
    if has_entities(search) {
        out.push(Reading {
            search: html_unescaped(search),
            new: html_unescaped(new),
            undone: vec![Artifact::HtmlEntities],
            new_differs: None,
        });
    }
    Ok(out)
}

/// `search` and `new` without the invisible characters (see
/// [`super::normalize::invisible`]) that `search` has and `file` has none
/// of: they came with the caller's text, and lines are compared without
/// them, so they would reach the file unnoticed. `None` when there are none.
pub(crate) fn without_invisible(search: &str, new: &str, file: &str) -> Option<(String, String)> {
    let mut foreign: Vec<char> = search.chars().filter(|c| invisible(*c)).collect();
    foreign.sort_unstable();
    foreign.dedup();
    foreign.retain(|c| !file.contains(*c));
    if foreign.is_empty() {
        return None;
    }
    let strip = |t: &str| {
        t.chars()
            .filter(|c| !foreign.contains(c))
            .collect::<String>()
    };
    Some((strip(search), strip(new)))
}

/// `search` and `new` without the spaces and tabs at the end of their
/// lines, when every line of `search` (two at least, blank ones aside) ends
/// in some and no line of `file` does. Such a suffix is the caller's, as an
/// indentation every line shares is: lines are compared without it, so
/// without this it would reach the file on the lines new_content adds.
/// `None` otherwise.
pub(crate) fn without_trailing_whitespace(
    search: &str,
    new: &str,
    file: &str,
) -> Option<(String, String)> {
    let trails = |l: &str| l.ends_with([' ', '\t']);
    let shown: Vec<&str> = search.lines().filter(|l| !l.trim().is_empty()).collect();
    if shown.len() < 2 || !shown.iter().all(|l| trails(l)) || file.lines().any(trails) {
        return None;
    }
    let strip = |t: &str| {
        t.split_inclusive('\n')
            .map(|piece| {
                let (body, eol) = match piece.strip_suffix("\r\n") {
                    Some(b) => (b, "\r\n"),
                    None => match piece.strip_suffix('\n') {
                        Some(b) => (b, "\n"),
                        None => (piece, ""),
                    },
                };
                format!("{}{eol}", body.trim_end_matches([' ', '\t']))
            })
            .collect::<String>()
    };
    Some((strip(search), strip(new)))
}

/// How a viewer separates a line's number from its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Format {
    /// `L12: ` rather than `12: `.
    ell: bool,
    sep: Sep,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sep {
    Arrow,
    Tab,
    Colon,
    Bar,
}

impl Sep {
    const ALL: [(Sep, &'static [&'static str]); 4] = [
        (Sep::Arrow, &["\u{2192}"]),
        (Sep::Tab, &["\t"]),
        (Sep::Colon, &[": ", ":"]),
        (Sep::Bar, &[" | ", "| ", " |", "|"]),
    ];
}

/// A line's number, the viewer's format and the text after it, if the line
/// starts the way a numbering viewer prints lines.
fn number_of(line: &str) -> Option<(u64, Format, &str)> {
    let rest = line.trim_start_matches(' ');
    let (ell, rest) = match rest.strip_prefix('L') {
        Some(r) => (true, r),
        None => (false, rest),
    };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits > 9 {
        return None;
    }
    let number: u64 = rest[..digits].parse().ok()?;
    let after = &rest[digits..];
    for (sep, spellings) in Sep::ALL {
        for s in spellings {
            if let Some(text) = after.strip_prefix(s) {
                // `12:` ends a blank line; `12:x` is a key, not a viewer's line.
                if *s == ":" && !text.is_empty() {
                    continue;
                }
                if *s == "|" && !text.is_empty() && !text.starts_with(' ') {
                    continue;
                }
                return Some((number, Format { ell, sep }, text));
            }
        }
    }
    None
}

/// A line's number, its format and the rest of the line.
type Shown<'a> = (u64, Format, &'a str);

/// The format of the line numbers every line of `search` starts with, if
/// it has them; an error if some lines have them in one format, counting up
/// with the lines, and others do not.
fn numbered(search: &str) -> Result<Option<Format>, Partial> {
    let lines: Vec<&str> = search.lines().collect();
    let shown: Vec<(usize, Option<Shown<'_>>)> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(k, l)| (k, number_of(l)))
        .collect();
    let Some(format) = shown.iter().find_map(|(_, n)| n.map(|(_, f, _)| f)) else {
        return Ok(None);
    };
    // Numbers that count up with the lines, in one format.
    let counting: Vec<usize> = shown
        .iter()
        .filter_map(|(k, n)| match n {
            Some((num, f, _)) if *f == format => Some((*k, *num)),
            _ => None,
        })
        .filter(|&(k, num)| {
            let first = shown
                .iter()
                .find_map(|(k0, n)| n.filter(|x| x.1 == format).map(|x| (*k0, x.0)));
            first.is_some_and(|(k0, n0)| num >= n0 && num - n0 == (k - k0) as u64)
        })
        .map(|(k, _)| k)
        .collect();
    if counting.len() == shown.len() {
        return Ok(Some(format));
    }
    if counting.len() >= 2 && counting.len() * 2 >= shown.len() {
        let missing: Vec<String> = shown
            .iter()
            .map(|(k, _)| *k)
            .filter(|k| !counting.contains(k))
            .take(5)
            .map(|k| (k + 1).to_string())
            .collect();
        return Err(Partial {
            seen: format!(
                "lines of search_context start with line numbers as a viewer shows them, \
                 but line {} does not",
                missing.join(", ")
            ),
        });
    }
    Ok(None)
}

/// `text` with every line's number in `format` taken away; lines without one
/// stay as they are. Line endings are kept.
fn strip_numbers(text: &str, format: Format) -> String {
    let mut out = String::with_capacity(text.len());
    for piece in text.split_inclusive('\n') {
        let (body, eol) = match piece.strip_suffix("\r\n") {
            Some(b) => (b, "\r\n"),
            None => match piece.strip_suffix('\n') {
                Some(b) => (b, "\n"),
                None => (piece, ""),
            },
        };
        match number_of(body) {
            Some((_, f, rest)) if f == format => out.push_str(rest),
            _ => out.push_str(body),
        }
        out.push_str(eol);
    }
    out
}

/// `text` read as the inside of a JSON string, if every backslash in it
/// starts a JSON escape.
fn json_unescaped(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next()? {
            '\\' => out.push('\\'),
            '"' => out.push('"'),
            '/' => out.push('/'),
            'n' => out.push('\n'),
            't' => out.push('\t'),
            'r' => out.push('\r'),
            'b' => out.push('\u{8}'),
            'f' => out.push('\u{c}'),
            'u' => {
                let hex: String = chars.by_ref().take(4).collect();
                let code = u32::from_str_radix(&hex, 16)
                    .ok()
                    .filter(|_| hex.len() == 4)?;
                out.push(char::from_u32(code)?);
            }
            _ => return None,
        }
    }
    Some(out)
}

/// Whether `text` holds no control character but tabs and line breaks
/// (`\n`, or `\r` right before one).
fn is_text(text: &str) -> bool {
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let fine = match c {
            '\t' | '\n' => true,
            '\r' => chars.peek() == Some(&'\n'),
            c => !c.is_control(),
        };
        if !fine {
            return false;
        }
    }
    true
}

const ENTITIES: [(&str, &str); 8] = [
    ("&lt;", "<"),
    ("&gt;", ">"),
    ("&quot;", "\""),
    ("&#39;", "'"),
    ("&#x27;", "'"),
    ("&apos;", "'"),
    ("&nbsp;", " "),
    ("&amp;", "&"),
];

fn has_entities(text: &str) -> bool {
    ENTITIES.iter().any(|(e, _)| text.contains(e))
}

/// `text` with HTML entities turned back into their characters, in one pass
/// (`&amp;lt;` becomes `&lt;`, not `<`).
fn html_unescaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        match ENTITIES.iter().find(|(e, _)| rest.starts_with(e)) {
            Some((e, c)) => {
                out.push_str(c);
                rest = &rest[e.len()..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn undone(search: &str, new: &str) -> Vec<(Vec<Artifact>, String, String)> {
        readings(search, new)
            .unwrap()
            .into_iter()
            .map(|r| (r.undone, r.search, r.new))
            .collect()
    }

    #[test]
    fn viewer_numbers_in_every_format_are_undone_in_both_texts() {
        for (search, new) in [
            ("12: a = 1\n13: b = 2\n", "12: a = 1\n13: b = 3\n"),
            (
                "    12\u{2192}a = 1\n    13\u{2192}b = 2\n",
                "    12\u{2192}a = 1\n    13\u{2192}b = 3\n",
            ),
            (
                "    12\ta = 1\n    13\tb = 2\n",
                "    12\ta = 1\n    13\tb = 3\n",
            ),
            ("L12: a = 1\nL13: b = 2\n", "L12: a = 1\nL13: b = 3\n"),
            (
                "  12 | a = 1\n  13 | b = 2\n",
                "  12 | a = 1\n  13 | b = 3\n",
            ),
        ] {
            let all = undone(search, new);
            assert_eq!(all.len(), 2, "{search:?}");
            assert_eq!(all[1].0, vec![Artifact::LineNumbers]);
            assert_eq!(all[1].1, "a = 1\nb = 2\n", "{search:?}");
            assert_eq!(all[1].2, "a = 1\nb = 3\n", "{search:?}");
        }
    }

    #[test]
    fn numbers_on_blank_lines_and_unnumbered_new_lines() {
        let all = undone(
            "7: if x:\n8:\n9:     go()\n",
            "7: if x:\n    stop()\n9:     go()\n",
        );
        assert_eq!(all[1].1, "if x:\n\n    go()\n");
        assert_eq!(all[1].2, "if x:\n    stop()\n    go()\n");
    }

    #[test]
    fn numbers_on_some_lines_only_are_refused() {
        let err = readings("12: a = 1\n13: b = 2\nc = 3\n15: d = 4\n", "x").unwrap_err();
        assert!(err.seen.contains("line 3"), "{}", err.seen);
    }

    #[test]
    fn a_yaml_key_or_a_list_is_no_line_number() {
        assert_eq!(readings("1:x\n2:y\n", "").unwrap().len(), 1);
        assert_eq!(readings("1. first\n2. second\n", "").unwrap().len(), 1);
        // Numbers that do not count up with the lines are content.
        assert_eq!(readings("5: a\n9: b\n2: c\n", "").unwrap().len(), 1);
    }

    #[test]
    fn json_and_html_escapes() {
        let all = undone("print(\"a\\\\n\")\n", "print(\"b\\\\n\")\n");
        assert_eq!(all[1].0, vec![Artifact::JsonEscapes]);
        assert_eq!(all[1].1, "print(\"a\\n\")\n");
        assert_eq!(all[1].2, "print(\"b\\n\")\n");
        let all = undone("if a &lt; b &amp;&amp; c:\n", "if a &lt;= b:\n");
        assert_eq!(all[1].1, "if a < b && c:\n");
        assert_eq!(all[1].2, "if a <= b:\n");
        assert_eq!(html_unescaped("&amp;lt;"), "&lt;");
        // A backslash that starts no JSON escape: no such reading.
        assert_eq!(undone("re(\"\\d+\")\n", "").len(), 1);
    }

    #[test]
    fn trailing_whitespace_on_every_line_the_file_never_has() {
        let file = "a\nb\nc\n";
        let (s, n) =
            without_trailing_whitespace("a \r\nb\t\r\n\r\n", "a \nadded  \nb \n", file).unwrap();
        assert_eq!(s, "a\r\nb\r\n\r\n");
        assert_eq!(n, "a\nadded\nb\n");
        // One line is no system; a line left bare is none either.
        assert!(without_trailing_whitespace("a \n", "a \nb \n", file).is_none());
        assert!(without_trailing_whitespace("a \nb\n", "a \nb \n", file).is_none());
        // A file that has trailing whitespace may be what the caller shows.
        assert!(without_trailing_whitespace("a \nb \n", "a \nb \n", "a \nb\n").is_none());
    }

    #[test]
    fn escapes_that_read_as_control_characters_are_no_reading() {
        // `\r` before spaces, `\b`, `\f`, `\u0001`: no text holds them.
        for search in [
            "\\r    a = 1\n\\r    b = 2\n",
            "x\\by\n",
            "x\\f\n",
            "x\\u0001\n",
        ] {
            assert_eq!(undone(search, "").len(), 1, "{search:?}");
        }
        // A line break written out stays a reading, CRLF included.
        let all = undone("a\\r\\nb\\tc\n", "a\\r\\nd\n");
        assert_eq!(all[1].1, "a\r\nb\tc\n");
        // new_content that reads as control characters may not be written.
        let r = readings("f(\"a\\n\")\n", "f(\"a\\n\")\\r  g()\n").unwrap();
        assert!(r[1].new_differs.is_some());
        assert!(r[1].new.contains("\\r"), "new_content is left as sent");
    }
}
