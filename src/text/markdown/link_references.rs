//! Link reference definitions (`[label]: /url "title"`) written on one line.
//!
//! They matter to the structure only at the start of a paragraph that turns
//! into a setext heading: the definitions are not part of the heading, so the
//! heading starts on the first line after them. Definitions whose destination
//! or title continues on the next line are not recognised.

/// Whether `line` (from its first non-space byte) is one complete link
/// reference definition.
pub(crate) fn is_link_reference_definition(line: &[u8]) -> bool {
    let Some(after_label) = label_end(line) else {
        return false;
    };
    if line.get(after_label) != Some(&b':') {
        return false;
    }
    let mut i = after_label + 1;
    i += spaces(&line[i..]);
    let Some(destination_len) = destination_len(&line[i..]) else {
        return false;
    };
    i += destination_len;
    let gap = spaces(&line[i..]);
    i += gap;
    if i == line.len() {
        return true;
    }
    if gap == 0 {
        return false;
    }
    match title_len(&line[i..]) {
        Some(len) => line[i + len..].iter().all(|&b| b == b' ' || b == b'\t'),
        None => false,
    }
}

/// Offset just past the `]` that closes a label starting at `line[0] == '['`.
fn label_end(line: &[u8]) -> Option<usize> {
    if line.first() != Some(&b'[') {
        return None;
    }
    let mut i = 1;
    let mut has_content = false;
    while i < line.len() && i <= 1000 {
        match line[i] {
            b'\\' if i + 1 < line.len() => {
                has_content = true;
                i += 2;
                continue;
            }
            b'[' => return None,
            b']' => return has_content.then_some(i + 1),
            b' ' | b'\t' => {}
            _ => has_content = true,
        }
        i += 1;
    }
    None
}

/// Length of a link destination: `<…>` or a run of non-space bytes with
/// balanced parentheses.
fn destination_len(bytes: &[u8]) -> Option<usize> {
    if bytes.first() == Some(&b'<') {
        let mut i = 1;
        while i < bytes.len() {
            match bytes[i] {
                b'\\' => i += 1,
                b'<' => return None,
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
            b'\\' if i + 1 < bytes.len() => i += 1,
            b'(' => depth += 1,
            b')' if depth == 0 => break,
            b')' => depth -= 1,
            b if b <= b' ' => break,
            _ => {}
        }
        i += 1;
    }
    (i > 0 && depth == 0).then_some(i)
}

/// Length of a title in `"…"`, `'…'` or `(…)`.
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

    fn is_def(line: &str) -> bool {
        is_link_reference_definition(line.as_bytes())
    }

    #[test]
    fn complete_definitions() {
        assert!(is_def("[foo]: /url"));
        assert!(is_def("[foo]: /url \"title\""));
        assert!(is_def("[Foo bar]:<my url> 'title'  "));
        assert!(is_def("[x]: https://a.example/(b) (title)"));
        assert!(is_def("[a\\]b]: /u"));
        // quotes glued to the destination are part of it
        assert!(is_def("[foo]: /url\"title\""));
    }

    #[test]
    fn not_definitions() {
        assert!(!is_def("[foo]:"));
        assert!(!is_def("[foo] : /url"));
        assert!(!is_def("[]: /url"));
        assert!(!is_def("[ ]: /url"));
        assert!(!is_def("[foo]: /url \"title\" trailing"));
        assert!(!is_def("[foo]: <url>\"title\""));
        assert!(!is_def("[foo]: /url \"unterminated"));
        assert!(!is_def("[a[b]]: /url"));
        assert!(!is_def("text [foo]: /url"));
    }
}
