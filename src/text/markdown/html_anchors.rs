//! `<a id="…">` and `<a name="…">` anchors written as inline HTML.
//!
//! The scanner calls this for lines that are not code; within a line, code
//! spans and `<!-- … -->` comments are skipped so that an anchor shown as an
//! example is not taken for a real one.

/// Calls `found` with each anchor id on `line`, in order. An `<a>` with both
/// `id` and `name` gives both values, once if they are equal.
pub(crate) fn scan_html_anchors<'a>(line: &'a str, mut found: impl FnMut(&'a str)) {
    let bytes = line.as_bytes();
    if memchr::memchr(b'<', bytes).is_none() {
        return;
    }
    let mut i = 0;
    while let Some(at) = memchr::memchr2(b'<', b'`', &bytes[i..]) {
        let at = i + at;
        if bytes[at] == b'`' {
            i = skip_code_span(bytes, at);
            continue;
        }
        let after = &bytes[at + 1..];
        if after.starts_with(b"!--") {
            i = match memchr::memmem::find(&after[3..], b"-->") {
                Some(end) => at + 4 + end + 3,
                None => bytes.len(),
            };
            continue;
        }
        if matches!(after, [b'a' | b'A', b' ' | b'\t', ..]) {
            i = read_anchor_tag(line, at + 2, &mut found);
        } else {
            i = at + 1;
        }
    }
}

/// Offset past the code span that starts with the backtick run at `at`, or
/// past the run itself when nothing closes it on this line.
fn skip_code_span(bytes: &[u8], at: usize) -> usize {
    let run = bytes[at..].iter().take_while(|&&b| b == b'`').count();
    let mut i = at + run;
    while let Some(next) = memchr::memchr(b'`', &bytes[i..]) {
        let start = i + next;
        let len = bytes[start..].iter().take_while(|&&b| b == b'`').count();
        if len == run {
            return start + len;
        }
        i = start + len;
    }
    at + run
}

/// Reads the attributes of an `<a` tag from `start` (just after `<a`), calls
/// `found` for `id` and `name`, and returns the offset after the tag.
fn read_anchor_tag<'a>(line: &'a str, start: usize, found: &mut impl FnMut(&'a str)) -> usize {
    let bytes = line.as_bytes();
    let mut i = start;
    let mut first: Option<&'a str> = None;
    loop {
        while i < bytes.len() && matches!(bytes[i], b' ' | b'\t') {
            i += 1;
        }
        if i >= bytes.len() || bytes[i] == b'>' || bytes[i] == b'/' || bytes[i] == b'<' {
            return i;
        }
        let name_start = i;
        while i < bytes.len() && !matches!(bytes[i], b' ' | b'\t' | b'=' | b'>' | b'/' | b'<') {
            i += 1;
        }
        let name = &line[name_start..i];
        let mut j = i;
        while j < bytes.len() && matches!(bytes[j], b' ' | b'\t') {
            j += 1;
        }
        if bytes.get(j) != Some(&b'=') {
            continue;
        }
        j += 1;
        while j < bytes.len() && matches!(bytes[j], b' ' | b'\t') {
            j += 1;
        }
        let (value, end) = match bytes.get(j) {
            Some(&quote @ (b'"' | b'\'')) => match memchr::memchr(quote, &bytes[j + 1..]) {
                Some(len) => (&line[j + 1..j + 1 + len], j + 1 + len + 1),
                None => return bytes.len(),
            },
            _ => {
                let len = bytes[j..]
                    .iter()
                    .position(|&b| matches!(b, b' ' | b'\t' | b'>' | b'<' | b'"' | b'\''))
                    .unwrap_or(bytes.len() - j);
                (&line[j..j + len], j + len)
            }
        };
        i = end;
        let is_anchor_attribute =
            name.eq_ignore_ascii_case("id") || name.eq_ignore_ascii_case("name");
        if is_anchor_attribute && !value.is_empty() && first != Some(value) {
            first = Some(value);
            found(value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn anchors(line: &str) -> Vec<&str> {
        let mut ids = Vec::new();
        scan_html_anchors(line, |id| ids.push(id));
        ids
    }

    #[test]
    fn finds_id_and_name() {
        assert_eq!(anchors(r#"<a id="intro"></a>"#), ["intro"]);
        assert_eq!(
            anchors(r#"text <a name='old-name'>x</a> and <A ID=bare>"#),
            ["old-name", "bare"]
        );
        assert_eq!(
            anchors(r##"<a href="#x" id="both" name="both">"##),
            ["both"]
        );
        assert_eq!(anchors(r#"<a id="one" name="two">"#), ["one", "two"]);
    }

    #[test]
    fn ignores_code_comments_and_other_tags() {
        assert_eq!(anchors(r#"`<a id="example">` and <a id="real">"#), ["real"]);
        assert_eq!(
            anchors(r#"``<a id="x">`` <!-- <a id="y"> --> <a id="z">"#),
            ["z"]
        );
        assert_eq!(
            anchors(r#"<abbr id="no"> <div id="no2"> <a href="x">"#),
            Vec::<&str>::new()
        );
        assert_eq!(anchors(r#"<a id="">"#), Vec::<&str>::new());
        assert_eq!(anchors("no tags at all"), Vec::<&str>::new());
    }
}
