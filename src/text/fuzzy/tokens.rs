//! Telling a typo from a different line: the token difference between a
//! search line and the disk line it was matched with.
//!
//! Character distance cannot tell `MIN_CONNECTIONS` from `MAX_CONNECTIONS`, or
//! `count < limit` from `count > limit`: both are one or two characters apart,
//! like a typo. But an agent that writes a number, a comparison or a name the
//! file does not have into the line it changes is not misspelling the file's
//! line; it remembers another line, or a file that has changed since. Editing
//! the matched line would then silently replace what is there.
//!
//! ```text
//! search  const MIN_CONNECTIONS: u32 = 16;    new  const MIN_CONNECTIONS: u32 = 1;
//! disk    const MAX_CONNECTIONS: u32 = 16;    -> the name differs and new_content
//!                                                keeps the search's: not a typo
//! ```

use similar::{Algorithm, DiffOp, capture_diff_slices};

/// Characters that make up operators whose change alters meaning.
const OPERATOR: &[char] = &[
    '<', '>', '=', '!', '+', '-', '*', '/', '%', '&', '|', '^', '~',
];

/// A differing pair of tokens: the search's and the disk's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TokenChange {
    pub search: String,
    pub disk: String,
}

impl TokenChange {
    /// Whether the change is of a name (not a number or an operator).
    pub(crate) fn is_name(&self) -> bool {
        let name = |t: &str| !is_number(t) && !is_operator(t);
        name(&self.search) && name(&self.disk)
    }
}

/// Words (letters, digits, `_`) and single operator characters of `line`;
/// other punctuation and whitespace separate tokens and are dropped.
fn tokens(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut word_start: Option<usize> = None;
    for (i, c) in line.char_indices() {
        let in_word = c.is_alphanumeric() || c == '_';
        match (in_word, word_start) {
            (true, None) => word_start = Some(i),
            (false, Some(s)) => {
                out.push(&line[s..i]);
                word_start = None;
            }
            _ => {}
        }
        if OPERATOR.contains(&c) {
            out.push(&line[i..i + c.len_utf8()]);
        }
    }
    if let Some(s) = word_start {
        out.push(&line[s..]);
    }
    out
}

fn is_number(token: &str) -> bool {
    token.starts_with(|c: char| c.is_ascii_digit())
}

fn is_operator(token: &str) -> bool {
    token.chars().all(|c| OPERATOR.contains(&c))
}

/// Whether `word` occurs in `text` as a whole word.
fn has_word(text: &str, word: &str) -> bool {
    tokens(text).contains(&word)
}

/// The first token change between `search` (a line the caller means to
/// change) and `disk` (the line it was matched with) that is no typo, given
/// the caller's `new_content`: a different number, a different operator, or
/// a different name that `new_content` keeps while dropping the file's.
pub(crate) fn meaningful_change(
    search: &str,
    disk: &str,
    new_content: &str,
) -> Option<TokenChange> {
    let s = tokens(search);
    let d = tokens(disk);
    for op in capture_diff_slices(Algorithm::Myers, &s, &d) {
        let DiffOp::Replace {
            old_index,
            old_len,
            new_index,
            new_len,
        } = op
        else {
            continue;
        };
        for k in 0..old_len.min(new_len) {
            let (a, b) = (s[old_index + k], d[new_index + k]);
            let differs = if is_number(a) || is_number(b) || is_operator(a) || is_operator(b) {
                a != b
            } else {
                a != b && has_word(new_content, a) && !has_word(new_content, b)
            };
            if differs {
                return Some(TokenChange {
                    search: a.to_string(),
                    disk: b.to_string(),
                });
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(search: &str, disk: &str, new: &str) -> Option<(String, String)> {
        meaningful_change(search, disk, new).map(|c| (c.search, c.disk))
    }

    #[test]
    fn a_name_the_new_content_keeps_is_no_typo() {
        assert_eq!(
            change(
                "const MIN_CONN: u32 = 16;",
                "const MAX_CONN: u32 = 16;",
                "const MIN_CONN: u32 = 1;"
            ),
            Some(("MIN_CONN".into(), "MAX_CONN".into()))
        );
    }

    #[test]
    fn a_misspelt_name_the_new_content_corrects_is_a_typo() {
        assert_eq!(
            change("let totl = 1;", "let total = 1;", "let total = 2;"),
            None
        );
    }

    #[test]
    fn numbers_and_operators_never_are_typos() {
        assert_eq!(
            change("f(c, 3000);", "f(c, 1000);", "f(c, 0);"),
            Some(("3000".into(), "1000".into()))
        );
        assert_eq!(
            change("if (a > b) {", "if (a < b) {", "if (a > b + 1) {"),
            Some((">".into(), "<".into()))
        );
    }

    #[test]
    fn whitespace_and_punctuation_drift_is_not_a_change() {
        assert_eq!(change("foo(a,b)", "foo(a, b);", "foo(a, c);"), None);
        assert_eq!(change("x = 'a'", "x = \"a\"", "x = 'b'"), None);
    }
}
