//! Recognisers for the lines that start (or close) a CommonMark block.
//!
//! Each takes the line from its first non-space byte (`rest`), after any
//! container markers were consumed; the caller has already checked that the
//! indentation is below 4 columns where the specification requires it.

use super::cursor::Cursor;

/// Level of an ATX heading (`#` to `######` followed by a space, a tab or the
/// end of the line). `#5` and `####### x` are not headings.
pub(crate) fn atx_level(rest: &[u8]) -> Option<u8> {
    let hashes = rest.iter().take_while(|&&b| b == b'#').count();
    if !(1..=6).contains(&hashes) {
        return None;
    }
    match rest.get(hashes) {
        None | Some(b' ' | b'\t') => Some(hashes as u8),
        _ => None,
    }
}

/// An opening code fence: three or more backticks or tildes. The info string
/// of a backtick fence may not contain a backtick.
pub(crate) fn fence_open(rest: &[u8]) -> Option<(u8, usize)> {
    let fence_char = *rest.first()?;
    if fence_char != b'`' && fence_char != b'~' {
        return None;
    }
    let len = rest.iter().take_while(|&&b| b == fence_char).count();
    if len < 3 {
        return None;
    }
    if fence_char == b'`' && memchr::memchr(b'`', &rest[len..]).is_some() {
        return None;
    }
    Some((fence_char, len))
}

/// Whether `rest` closes a fence of `fence_char` opened with `open_len`
/// characters: at least as many of the same character, then only spaces.
pub(crate) fn fence_closes(rest: &[u8], fence_char: u8, open_len: usize) -> bool {
    let len = rest.iter().take_while(|&&b| b == fence_char).count();
    len >= open_len && is_spaces(&rest[len..])
}

/// Level of a setext underline: `=` gives 1, `-` gives 2; the run may only be
/// followed by spaces and tabs.
pub(crate) fn setext_level(rest: &[u8]) -> Option<u8> {
    let level = match rest.first()? {
        b'=' => 1,
        b'-' => 2,
        _ => return None,
    };
    let len = rest.iter().take_while(|&&b| b == rest[0]).count();
    is_spaces(&rest[len..]).then_some(level)
}

/// Whether `rest` is a thematic break: three or more `*`, `-` or `_` (all the
/// same), with only spaces and tabs between and after them.
pub(crate) fn is_thematic_break(rest: &[u8]) -> bool {
    let Some(&mark) = rest.first() else {
        return false;
    };
    if !matches!(mark, b'*' | b'-' | b'_') {
        return false;
    }
    let mut count = 0;
    for &b in rest {
        if b == mark {
            count += 1;
        } else if b != b' ' && b != b'\t' {
            return false;
        }
    }
    count >= 3
}

/// Whether the bytes are only spaces and tabs.
pub(crate) fn is_spaces(bytes: &[u8]) -> bool {
    bytes.iter().all(|&b| b == b' ' || b == b'\t')
}

/// Recognises a list item marker at the cursor and moves the cursor past the
/// marker and the spaces that belong to it. Returns how many columns (from
/// the cursor's column before the call) later lines must be indented to stay
/// inside the item. `interrupts_paragraph` applies the stricter rule for an
/// item that would end a paragraph: an ordered one must start at 1, and the
/// item may not be empty.
pub(crate) fn list_item_start(
    cursor: &mut Cursor<'_>,
    interrupts_paragraph: bool,
) -> Option<usize> {
    if cursor.indented() {
        return None;
    }
    let rest = cursor.rest();
    let marker_len = match rest.first()? {
        b'-' | b'+' | b'*' => 1,
        b'0'..=b'9' => {
            let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
            if digits > 9 || !matches!(rest.get(digits), Some(b'.' | b')')) {
                return None;
            }
            if interrupts_paragraph && rest[..digits].iter().rev().skip(1).any(|&b| b != b'0') {
                return None;
            }
            if interrupts_paragraph && rest[digits - 1] != b'1' {
                return None;
            }
            digits + 1
        }
        _ => return None,
    };
    if !matches!(rest.get(marker_len), None | Some(b' ' | b'\t')) {
        return None;
    }
    if interrupts_paragraph && is_spaces(&rest[marker_len..]) {
        return None;
    }
    let marker_offset = cursor.indent();
    cursor.advance_to_nonspace();
    cursor.advance_bytes(marker_len);
    let spaces_offset = cursor.offset();
    let spaces_column = cursor.column();
    loop {
        cursor.advance_columns(1);
        let more = matches!(cursor.peek(), Some(b' ' | b'\t'));
        if !(more && cursor.column() - spaces_column < 5) {
            break;
        }
    }
    let blank_item = cursor.peek().is_none();
    let spaces_after = cursor.column() - spaces_column;
    let padding = if !(1..5).contains(&spaces_after) || blank_item {
        // Content that starts 5 or more columns after the marker is indented
        // code inside the item, so only one space belongs to the marker.
        cursor.reset_to(spaces_offset, spaces_column);
        if matches!(cursor.peek(), Some(b' ' | b'\t')) {
            cursor.advance_columns(1);
        }
        marker_len + 1
    } else {
        marker_len + spaces_after
    };
    Some(marker_offset + padding)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atx_markers() {
        assert_eq!(atx_level(b"# a"), Some(1));
        assert_eq!(atx_level(b"###### a"), Some(6));
        assert_eq!(atx_level(b"##\ta"), Some(2));
        assert_eq!(atx_level(b"#"), Some(1));
        assert_eq!(atx_level(b"####### a"), None);
        assert_eq!(atx_level(b"#5 bolt"), None);
        assert_eq!(atx_level(b"#hashtag"), None);
    }

    #[test]
    fn fences() {
        assert_eq!(fence_open(b"```rust"), Some((b'`', 3)));
        assert_eq!(fence_open(b"~~~~ a`b"), Some((b'~', 4)));
        assert_eq!(fence_open(b"``` a`b"), None);
        assert_eq!(fence_open(b"``"), None);
        assert!(fence_closes(b"````  ", b'`', 3));
        assert!(!fence_closes(b"``", b'`', 3));
        assert!(!fence_closes(b"~~~", b'`', 3));
        assert!(!fence_closes(b"``` x", b'`', 3));
    }

    #[test]
    fn underlines_and_breaks() {
        assert_eq!(setext_level(b"==="), Some(1));
        assert_eq!(setext_level(b"-  "), Some(2));
        assert_eq!(setext_level(b"= ="), None);
        assert!(is_thematic_break(b"- - -"));
        assert!(is_thematic_break(b"***"));
        assert!(is_thematic_break(b"_ _\t_ "));
        assert!(!is_thematic_break(b"--"));
        assert!(!is_thematic_break(b"-*-"));
    }

    fn item(line: &str, interrupts: bool) -> Option<usize> {
        let mut cursor = Cursor::new(line);
        list_item_start(&mut cursor, interrupts)
    }

    #[test]
    fn list_items_and_their_content_indent() {
        assert_eq!(item("- a", false), Some(2));
        assert_eq!(item("  -   a", false), Some(6));
        assert_eq!(item("10. a", false), Some(4));
        assert_eq!(item("-      code", false), Some(2));
        assert_eq!(item("-", false), Some(2));
        assert_eq!(item("-a", false), None);
        assert_eq!(item("1234567890. a", false), None);
        assert_eq!(item("2. a", true), None);
        assert_eq!(item("01. a", true), Some(4));
        assert_eq!(item("1. a", true), Some(3));
        assert_eq!(item("-", true), None);
    }
}
