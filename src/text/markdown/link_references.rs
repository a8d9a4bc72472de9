//! Link reference definitions (`[label]: /url "title"`) at the start of a
//! paragraph.
//!
//! They matter to the structure only when the paragraph is underlined as a
//! setext heading: the definitions are not part of the heading, so the heading
//! starts on the first line after them, and a paragraph made only of
//! definitions is no heading at all. A definition may spread over several
//! lines (label, destination and title each may start on the next line).

/// How many of the paragraph's first lines are taken by link reference
/// definitions. Each line is given from its first non-space character.
pub(crate) fn definition_lines(lines: &[&str]) -> usize {
    if !lines.first().is_some_and(|l| l.starts_with('[')) {
        return 0;
    }
    let text = lines.join("\n");
    let bytes = text.as_bytes();
    let mut pos = 0;
    while pos < bytes.len() && bytes[pos] == b'[' {
        match definition_end(bytes, pos) {
            Some(end) => pos = end,
            None => break,
        }
    }
    bytes[..pos].iter().filter(|&&b| b == b'\n').count() + usize::from(pos == bytes.len())
}

/// Where the definition starting at `start` ends: just after the line ending
/// of its last line, or at the end of the text.
fn definition_end(bytes: &[u8], start: usize) -> Option<usize> {
    let mut i = label_end(bytes, start)?;
    if bytes.get(i) != Some(&b':') {
        return None;
    }
    i = skip_whitespace_and_one_newline(bytes, i + 1);
    i += destination_len(&bytes[i..])?;
    let after_destination = i;
    let title_start = skip_whitespace_and_one_newline(bytes, i);
    if title_start > after_destination
        && let Some(len) = title_len(&bytes[title_start..])
        && let Some(end) = line_rest_is_blank(bytes, title_start + len)
    {
        return Some(end);
    }
    line_rest_is_blank(bytes, after_destination)
}

/// Offset just past the `]` that closes a label starting at `bytes[start] == '['`.
pub(crate) fn label_end(bytes: &[u8], start: usize) -> Option<usize> {
    let mut i = start + 1;
    let mut has_content = false;
    while i < bytes.len() && i - start <= 1000 {
        match bytes[i] {
            b'\\' if i + 1 < bytes.len() => {
                has_content = true;
                i += 2;
                continue;
            }
            b'[' => return None,
            b']' => return has_content.then_some(i + 1),
            b' ' | b'\t' | b'\n' => {}
            _ => has_content = true,
        }
        i += 1;
    }
    None
}

/// Skips spaces and tabs, at most one line ending, then spaces and tabs.
fn skip_whitespace_and_one_newline(bytes: &[u8], mut i: usize) -> usize {
    i += spaces(&bytes[i..]);
    if bytes.get(i) == Some(&b'\n') {
        i += 1;
        i += spaces(&bytes[i..]);
    }
    i
}

/// If only spaces and tabs follow `i` up to the end of its line, the offset
/// where the next line starts (or the end of the text).
fn line_rest_is_blank(bytes: &[u8], i: usize) -> Option<usize> {
    let j = i + spaces(&bytes[i..]);
    match bytes.get(j) {
        None => Some(j),
        Some(b'\n') => Some(j + 1),
        Some(_) => None,
    }
}

/// Length of a link destination: `<…>` on one line, or a non-empty run of
/// non-space bytes with balanced parentheses.
pub(crate) fn destination_len(bytes: &[u8]) -> Option<usize> {
    if bytes.first() == Some(&b'<') {
        let mut i = 1;
        while i < bytes.len() {
            match bytes[i] {
                b'\\' => i += 1,
                b'<' | b'\n' => return None,
                b'>' => return Some(i + 1),
                _ => {}
            }
            i += 1;
        }
        return None;
    }
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if bytes.get(i + 1).is_some_and(u8::is_ascii_punctuation) => i += 1,
            b'(' => depth += 1,
            b')' if depth == 0 => break,
            b')' => depth -= 1,
            b if b <= b' ' || b == 0x7f => break,
            _ => {}
        }
        i += 1;
    }
    (i > 0 && depth == 0).then_some(i)
}

/// Length of a title in `"…"`, `'…'` or `(…)`; it may span lines.
fn title_len(bytes: &[u8]) -> Option<usize> {
    let close = match bytes.first()? {
        b'"' => b'"',
        b'\'' => b'\'',
        b'(' => b')',
        _ => return None,
    };
    let mut i = 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 1,
            b'(' if close == b')' => return None,
            b if b == close => return Some(i + 1),
            _ => {}
        }
        i += 1;
    }
    None
}

/// Number of leading spaces and tabs.
fn spaces(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .position(|&b| b != b' ' && b != b'\t')
        .unwrap_or(bytes.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> usize {
        definition_lines(&text.split('\n').collect::<Vec<_>>())
    }

    #[test]
    fn one_line_definitions() {
        assert_eq!(lines("[foo]: /url"), 1);
        assert_eq!(lines("[foo]: /url \"title\""), 1);
        assert_eq!(lines("[Foo bar]:<my url> 'title'  "), 1);
        assert_eq!(lines("[x]: https://a.example/(b) (title)"), 1);
        assert_eq!(lines("[a\\]b]: /u"), 1);
        // quotes glued to the destination are part of it
        assert_eq!(lines("[foo]: /url\"title\""), 1);
        assert_eq!(lines("[a]: /1\n[b]: /2\nText"), 2);
    }

    #[test]
    fn definitions_over_several_lines() {
        assert_eq!(lines("[a]:\n/url\nText"), 2);
        assert_eq!(lines("[a]:\n<custom tag>\nText"), 2);
        assert_eq!(lines("[a]: /url\n\"title\"\nText"), 2);
        assert_eq!(lines("[a]: /url\n'two\nline title'\nText"), 3);
        assert_eq!(lines("[multi\nline]: /url\nText"), 2);
        // a bad title on the next line leaves the definition without it
        assert_eq!(lines("[a]: /url\n\"title\" junk\nText"), 1);
    }

    #[test]
    fn not_definitions() {
        assert_eq!(lines("[foo]:"), 0);
        assert_eq!(lines("[foo]:\n"), 0);
        assert_eq!(lines("[foo] : /url"), 0);
        assert_eq!(lines("[]: /url"), 0);
        assert_eq!(lines("[ ]: /url"), 0);
        assert_eq!(lines("[foo]: /url \"title\" trailing"), 0);
        assert_eq!(lines("[foo]: <url>\"title\""), 0);
        assert_eq!(lines("[foo]: /url \"unterminated"), 0);
        assert_eq!(lines("[a[b]]: /url"), 0);
        assert_eq!(lines("text [foo]: /url"), 0);
        assert_eq!(lines("[a]:\n\n/url"), 0);
    }
}
