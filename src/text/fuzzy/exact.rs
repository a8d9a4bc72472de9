//! Exact occurrences of the search text, also across line-ending styles.
//!
//! Both the file and the search are compared with every `\r\n` read as `\n`,
//! because an agent cannot see line endings: a search sent with LF must find a
//! block of a CRLF (or mixed) file, and two copies of a block that differ only
//! in their endings are two occurrences, not one.

use std::ops::Range;

use super::normalize::LfText;

/// One exact occurrence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Occurrence {
    /// Byte range in the original text.
    pub range: Range<usize>,
    /// Whether the bytes are identical to the search as sent (not only up to
    /// line endings).
    pub identical: bool,
}

/// Every occurrence of `search` in `text`, overlapping ones included, in order.
pub(crate) fn occurrences(text: &str, lf: &LfText<'_>, search: &str) -> Vec<Occurrence> {
    let needle = LfText::new(search);
    let needle = needle.text.as_ref();
    if needle.is_empty() {
        return Vec::new();
    }
    let hay = lf.text.as_ref();
    let step = needle.chars().next().map_or(1, char::len_utf8);
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(at) = hay[from..].find(needle) {
        let start = from + at;
        let range = lf.original(start)..lf.original(start + needle.len());
        found.push(Occurrence {
            identical: &text[range.clone()] == search,
            range,
        });
        from = start + step;
    }
    found
}

/// The occurrences that do not overlap an earlier one, for replacing all.
pub(crate) fn disjoint(all: &[Occurrence]) -> Vec<Occurrence> {
    let mut out: Vec<Occurrence> = Vec::new();
    for o in all {
        if out
            .last()
            .is_none_or(|last| last.range.end <= o.range.start)
        {
            out.push(o.clone());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_across_line_endings() {
        let text = "a\r\nb\r\na\nb\n";
        let lf = LfText::new(text);
        let found = occurrences(text, &lf, "a\nb\n");
        assert_eq!(found.len(), 2);
        assert_eq!(&text[found[0].range.clone()], "a\r\nb\r\n");
        assert!(!found[0].identical);
        assert_eq!(&text[found[1].range.clone()], "a\nb\n");
        assert!(found[1].identical);
    }

    #[test]
    fn overlapping_occurrences_are_all_found_and_disjoint_ones_kept() {
        let text = "xxx";
        let lf = LfText::new(text);
        let found = occurrences(text, &lf, "xx");
        assert_eq!(found.len(), 2);
        assert_eq!(disjoint(&found).len(), 1);
    }
}
