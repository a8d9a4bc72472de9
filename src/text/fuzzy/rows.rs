//! The lines of a text as the matcher weighs them: each with its ending,
//! indentation, and *key*, its tokens joined by single spaces (look-alike
//! characters folded), so that whitespace between tokens is never a
//! difference and the edits between two keys are the edits that matter.
//! Whitespace inside a double-quoted string is the string's text and stays
//! in the key as a mark (see [`key_tokens`]).

use rapidfuzz::distance::indel;

use super::likeness::{Numbers, key_tokens};
use super::normalize::{canonical, indent_of, key_hash, width};
use crate::text::lines::{Eol, LineIndex};

/// One line.
#[derive(Debug, Clone)]
pub(crate) struct Row<'t> {
    /// The text without its ending.
    pub raw: &'t str,
    /// The ending.
    pub eol: Eol,
    /// Leading whitespace (see [`indent_of`]).
    pub indent: &'t str,
    /// Width of `indent` in columns.
    pub width: usize,
    /// Tokens of the canonical form, joined with single spaces.
    pub key: String,
    /// Hash of `key`.
    pub hash: u64,
    /// Characters in `key`.
    pub chars: u32,
    /// The numbers among the tokens.
    pub numbers: Numbers,
}

impl<'t> Row<'t> {
    fn new(raw: &'t str, eol: Eol) -> Row<'t> {
        let canon = canonical(raw);
        let tokens = key_tokens(&canon);
        let key = tokens.join(" ");
        let indent = indent_of(raw);
        Row {
            raw,
            eol,
            indent,
            width: width(indent),
            hash: key_hash(&key),
            chars: key.chars().count() as u32,
            numbers: Numbers::of_tokens(&tokens),
            key,
        }
    }

    /// Whether the line is blank.
    pub(crate) fn is_blank(&self) -> bool {
        self.key.is_empty()
    }

    /// Whether two lines have the same key.
    pub(crate) fn same(&self, other: &Row<'_>) -> bool {
        self.hash == other.hash && self.key == other.key
    }

    /// What the line costs with no counterpart: its characters and its break.
    pub(crate) fn weight(&self) -> u32 {
        self.chars + 1
    }

    /// Whether the caller, who saw this line as `on_disk` has it byte for
    /// byte, changed only its indentation in `sent`.
    pub(crate) fn reindented_alone(&self, on_disk: &Row<'_>, sent: &Row<'_>) -> bool {
        self.raw == on_disk.raw
            && self.raw != sent.raw
            && self.raw.trim_start() == sent.raw.trim_start()
    }
}

/// Every line of a file's text.
pub(crate) fn of_text<'t>(text: &'t str, index: &LineIndex) -> Vec<Row<'t>> {
    (1..=index.len())
        .map(|n| Row::new(index.text(text, n), index.eol(text, n)))
        .collect()
}

/// Every line of a text the caller sent.
pub(crate) fn of_snippet(text: &str) -> Vec<Row<'_>> {
    text.split_inclusive('\n')
        .map(|piece| {
            if let Some(body) = piece.strip_suffix("\r\n") {
                Row::new(body, Eol::Crlf)
            } else if let Some(body) = piece.strip_suffix('\n') {
                Row::new(body, Eol::Lf)
            } else {
                Row::new(piece, Eol::None)
            }
        })
        .collect()
}

/// Edits between the keys of two lines.
pub(crate) fn distance(a: &Row<'_>, b: &Row<'_>) -> u32 {
    if a.same(b) {
        return 0;
    }
    indel::distance(a.key.chars(), b.key.chars()) as u32
}

/// A search line prepared for many comparisons.
pub(crate) struct Comparer {
    batch: indel::BatchComparator<char>,
    hash: u64,
    key: String,
}

impl Comparer {
    /// Prepares `row`.
    pub(crate) fn new(row: &Row<'_>) -> Comparer {
        Comparer {
            batch: indel::BatchComparator::new(row.key.chars()),
            hash: row.hash,
            key: row.key.clone(),
        }
    }

    /// Edits between the prepared line's key and `other`'s.
    pub(crate) fn distance(&self, other: &Row<'_>) -> u32 {
        if self.hash == other.hash && self.key == other.key {
            return 0;
        }
        self.batch.distance(other.key.chars()) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_ignore_whitespace_between_tokens() {
        let a = of_snippet("  let x=a+b;\r\n");
        let b = of_snippet("let x = a + b;");
        assert!(a[0].same(&b[0]));
        assert_eq!(a[0].key, "let x = a + b ;");
        assert_eq!(a[0].eol, Eol::Crlf);
        assert_eq!(a[0].width, 2);
        assert_eq!(distance(&a[0], &b[0]), 0);
    }

    #[test]
    fn keys_keep_whitespace_inside_strings() {
        let a = of_snippet("    let ini = \"parameter=value\";");
        let b = of_snippet("let ini=\"parameter = value\" ;");
        assert!(!a[0].same(&b[0]));
        assert_eq!(
            b[0].key,
            "let ini = \" parameter \u{2423} = \u{2423} value \" ;"
        );
        // A run's length, an escaped quote and the text after the string
        // are as before.
        let c = of_snippet(r#"f("a  \" b", x=1)"#);
        let d = of_snippet(r#"f( "a \" b",x = 1 )"#);
        assert!(c[0].same(&d[0]));
        assert_eq!(c[0].key, "f ( \" a \u{2423} \\ \" \u{2423} b \" , x = 1 )");
    }

    #[test]
    fn distances_count_key_edits() {
        let a = of_snippet("let total = 1;");
        let b = of_snippet("let totl = 1;");
        assert_eq!(distance(&a[0], &b[0]), 1);
        assert_eq!(Comparer::new(&a[0]).distance(&b[0]), 1);
        assert_eq!(a[0].weight(), "let total = 1 ;".len() as u32 + 1);
    }
}
