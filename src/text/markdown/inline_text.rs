//! The visible text of a heading's inline Markdown, as a reader sees it once
//! rendered: what GitHub builds its anchor slugs from.
//!
//! Handled: backslash escapes, code spans (content kept), links `[text](url)`,
//! `[text][ref]` and `[text][]` (text kept), images (dropped: they show no
//! text), HTML tags and comments (dropped), autolinks (address kept), `_`
//! emphasis markers (dropped when they pair up, kept inside words such as
//! `snake_case`) and character references (numeric ones decoded, named ones
//! other than a few common ones dropped). `*` and `~` markers are left in:
//! the slug drops them anyway.

use std::borrow::Cow;

/// The visible text of inline Markdown; the text itself when it has no
/// character that could start markup the slug would see.
pub(crate) fn visible_text(raw: &str) -> Cow<'_, str> {
    if !raw.bytes().any(is_markup_byte) {
        return Cow::Borrowed(raw);
    }
    let mut pieces = Vec::new();
    let mut budget = Budget::for_text(raw);
    collect(raw, &mut pieces, &mut budget);
    pair_underscores(&mut pieces);
    let mut text = String::with_capacity(raw.len());
    for piece in &pieces {
        match piece {
            Piece::Text(s) => text.push_str(s),
            Piece::Underscores {
                len, paired: false, ..
            } => {
                text.extend(std::iter::repeat_n('_', *len));
            }
            Piece::Underscores { paired: true, .. } => {}
        }
    }
    Cow::Owned(text)
}

/// Whether a byte may start inline markup that changes the visible text.
fn is_markup_byte(b: u8) -> bool {
    matches!(b, b'\\' | b'`' | b'[' | b'!' | b'<' | b'&' | b'_')
}

/// Text, or a run of `_` that may be an emphasis marker.
#[derive(Debug)]
enum Piece {
    Text(String),
    Underscores {
        len: usize,
        can_open: bool,
        can_close: bool,
        paired: bool,
    },
}

/// Appends `s` to the last text piece, or starts one.
fn push_text(pieces: &mut Vec<Piece>, s: &str) {
    if let Some(Piece::Text(last)) = pieces.last_mut() {
        last.push_str(s);
    } else {
        pieces.push(Piece::Text(s.to_string()));
    }
}

/// Bytes the bracket scans of one text may look at: a few passes over it.
/// Each `[` looks ahead for its `]`, so a text of many unclosed brackets
/// would cost its length squared; past the budget, brackets are text.
struct Budget(usize);

impl Budget {
    fn for_text(text: &str) -> Budget {
        Budget(text.len().saturating_mul(8).saturating_add(4096))
    }
}

/// Splits inline Markdown into visible text and `_` runs. Link labels are
/// split in turn, with a stack of the texts still to finish rather than
/// recursion: labels can nest as deep as the text is long.
fn collect(s: &str, pieces: &mut Vec<Piece>, budget: &mut Budget) {
    let mut pending: Vec<(&str, usize)> = vec![(s, 0)];
    while let Some((s, from)) = pending.pop() {
        if let Some((label, after)) = collect_until_label(s, from, pieces, budget) {
            pending.push((s, after));
            pending.push((label, 0));
        }
    }
}

/// Splits `s` from `from` on into `pieces` until a link whose label must be
/// split first: returns that label and where `s` goes on after the link.
fn collect_until_label<'s>(
    s: &'s str,
    from: usize,
    pieces: &mut Vec<Piece>,
    budget: &mut Budget,
) -> Option<(&'s str, usize)> {
    let bytes = s.as_bytes();
    let mut i = from;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if bytes.get(i + 1).is_some_and(u8::is_ascii_punctuation) => {
                push_text(pieces, &s[i + 1..i + 2]);
                i += 2;
            }
            b'`' => {
                let run = run_len(bytes, i, b'`');
                match closing_backticks(bytes, i + run, run) {
                    Some(close) => {
                        push_text(pieces, code_span_content(&s[i + run..close]));
                        i = close + run;
                    }
                    None => {
                        push_text(pieces, &s[i..i + run]);
                        i += run;
                    }
                }
            }
            b'!' if bytes.get(i + 1) == Some(&b'[') => match link(s, i + 1, budget) {
                Some((_, after)) => i = after,
                None => {
                    push_text(pieces, "!");
                    i += 1;
                }
            },
            b'[' => match link(s, i, budget) {
                Some((label, after)) => return Some((label, after)),
                None => {
                    push_text(pieces, "[");
                    i += 1;
                }
            },
            b'<' => match angle_bracket(s, i) {
                Some((visible, after)) => {
                    push_text(pieces, visible);
                    i = after;
                }
                None => {
                    push_text(pieces, "<");
                    i += 1;
                }
            },
            b'&' => match character_reference(s, i) {
                Some((decoded, after)) => {
                    if let Some(c) = decoded {
                        push_text(pieces, c.encode_utf8(&mut [0; 4]));
                    }
                    i = after;
                }
                None => {
                    push_text(pieces, "&");
                    i += 1;
                }
            },
            b'_' => {
                let len = run_len(bytes, i, b'_');
                let before = s[..i].chars().next_back();
                let after = s[i + len..].chars().next();
                let left = flanking(after, before);
                let right = flanking(before, after);
                pieces.push(Piece::Underscores {
                    len,
                    can_open: left && (!right || before.is_some_and(is_punctuation)),
                    can_close: right && (!left || after.is_some_and(is_punctuation)),
                    paired: false,
                });
                i += len;
            }
            _ => {
                // Copy the whole run up to the next byte that may start
                // markup; those are ASCII, so the run ends on a char boundary.
                let run = bytes[i + 1..]
                    .iter()
                    .position(|&b| is_markup_byte(b))
                    .map_or(bytes.len(), |at| i + 1 + at);
                push_text(pieces, &s[i..run]);
                i = run;
            }
        }
    }
    None
}

/// Whether a delimiter run is flanking towards `toward` (the side the emphasis
/// extends to), with `away` on the other side. `None` is the edge of the text.
fn flanking(toward: Option<char>, away: Option<char>) -> bool {
    let Some(toward) = toward else {
        return false;
    };
    if toward.is_whitespace() {
        return false;
    }
    !is_punctuation(toward) || away.is_none_or(|c| c.is_whitespace() || is_punctuation(c))
}

/// Punctuation in CommonMark's sense, approximated as neither alphanumeric
/// nor whitespace.
fn is_punctuation(c: char) -> bool {
    !c.is_alphanumeric() && !c.is_whitespace()
}

/// Marks `_` runs that pair up as emphasis.
fn pair_underscores(pieces: &mut [Piece]) {
    let mut openers: Vec<usize> = Vec::new();
    for index in 0..pieces.len() {
        let Piece::Underscores {
            can_open,
            can_close,
            ..
        } = pieces[index]
        else {
            continue;
        };
        if can_close && let Some(opener) = openers.pop() {
            if let Piece::Underscores { paired, .. } = &mut pieces[opener] {
                *paired = true;
            }
            if let Piece::Underscores { paired, .. } = &mut pieces[index] {
                *paired = true;
            }
            continue;
        }
        if can_open {
            openers.push(index);
        }
    }
}

/// Length of the run of `byte` starting at `at`.
fn run_len(bytes: &[u8], at: usize, byte: u8) -> usize {
    bytes[at..].iter().take_while(|&&b| b == byte).count()
}

/// Offset of a backtick run of exactly `run` characters at or after `from`.
fn closing_backticks(bytes: &[u8], from: usize, run: usize) -> Option<usize> {
    let mut i = from;
    while let Some(next) = memchr::memchr(b'`', &bytes[i..]) {
        let start = i + next;
        let len = run_len(bytes, start, b'`');
        if len == run {
            return Some(start);
        }
        i = start + len;
    }
    None
}

/// A code span's content: one space is stripped from each end when both ends
/// have one and the content is not only spaces.
fn code_span_content(inner: &str) -> &str {
    if inner.len() >= 2
        && inner.starts_with(' ')
        && inner.ends_with(' ')
        && inner.bytes().any(|b| b != b' ')
    {
        &inner[1..inner.len() - 1]
    } else {
        inner
    }
}

/// A link (or image, from its `[`) starting at `open`: the label and the
/// offset after the whole link. Inline links `[text](url)`, full references
/// `[text][ref]` and collapsed ones `[text][]` are recognised.
fn link<'s>(s: &'s str, open: usize, budget: &mut Budget) -> Option<(&'s str, usize)> {
    let bytes = s.as_bytes();
    let close = matching(bytes, open, b'[', b']', budget)?;
    let label = &s[open + 1..close];
    match bytes.get(close + 1) {
        Some(b'(') => Some((label, matching(bytes, close + 1, b'(', b')', budget)? + 1)),
        Some(b'[') => Some((label, matching(bytes, close + 1, b'[', b']', budget)? + 1)),
        _ => None,
    }
}

/// Offset of the bracket closing the one at `open`, skipping escapes and code
/// spans; `None` also once the budget is spent.
fn matching(bytes: &[u8], open: usize, left: u8, right: u8, budget: &mut Budget) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = open;
    while i < bytes.len() {
        if budget.0 == 0 {
            return None;
        }
        budget.0 -= 1;
        match bytes[i] {
            b'\\' => i += 1,
            b'`' => {
                let run = run_len(bytes, i, b'`');
                if let Some(close) = closing_backticks(bytes, i + run, run) {
                    i = close + run;
                    continue;
                }
                i += run;
                continue;
            }
            b if b == left => depth += 1,
            b if b == right => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// An HTML tag or comment (no visible text) or an autolink (its address is
/// the visible text) at `at`; the visible text and the offset after it.
fn angle_bracket(s: &str, at: usize) -> Option<(&str, usize)> {
    let bytes = s.as_bytes();
    let after = &bytes[at + 1..];
    if after.starts_with(b"!--") {
        let end = memchr::memmem::find(&after[3..], b"-->")?;
        return Some(("", at + 4 + end + 3));
    }
    let close = at + 1 + memchr::memchr(b'>', after)?;
    let inner = &s[at + 1..close];
    let is_tag = match inner.as_bytes() {
        [b'/', first, ..] | [first, ..] => first.is_ascii_alphabetic(),
        [] => false,
    };
    let is_autolink =
        !inner.contains([' ', '\t', '<']) && (inner.contains(':') || inner.contains('@'));
    if is_autolink {
        Some((inner, close + 1))
    } else if is_tag {
        Some(("", close + 1))
    } else {
        None
    }
}

/// A character reference at `at`: the decoded character (`None` for a named
/// reference outside the small table) and the offset after the `;`.
pub(crate) fn character_reference(s: &str, at: usize) -> Option<(Option<char>, usize)> {
    let rest = &s[at + 1..];
    let end = rest.find(';')?;
    let body = &rest[..end];
    let after = at + 1 + end + 1;
    if let Some(number) = body.strip_prefix('#') {
        let value = match number.strip_prefix(['x', 'X']) {
            Some(hex) if (1..=6).contains(&hex.len()) => u32::from_str_radix(hex, 16).ok()?,
            Some(_) => return None,
            None if (1..=7).contains(&number.len()) => number.parse().ok()?,
            None => return None,
        };
        return Some((Some(char::from_u32(value).unwrap_or('\u{FFFD}')), after));
    }
    let valid_name = (2..=32).contains(&body.len())
        && body.starts_with(|c: char| c.is_ascii_alphabetic())
        && body.bytes().all(|b| b.is_ascii_alphanumeric());
    if !valid_name {
        return None;
    }
    let decoded = match body {
        "amp" => Some('&'),
        "lt" => Some('<'),
        "gt" => Some('>'),
        "quot" => Some('"'),
        "apos" => Some('\''),
        "nbsp" => Some('\u{A0}'),
        _ => None,
    };
    Some((decoded, after))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_and_images() {
        assert_eq!(
            visible_text("See [the docs](https://x.example/a_(b)) now"),
            "See the docs now"
        );
        assert_eq!(visible_text("[Ref][r] and [coll][]"), "Ref and coll");
        assert_eq!(visible_text("![badge](b.svg) Title"), " Title");
        assert_eq!(visible_text("[not a link] x"), "[not a link] x");
        assert_eq!(visible_text("[`code`](u)"), "code");
    }

    #[test]
    fn code_spans_and_escapes() {
        assert_eq!(visible_text("The `__init__` method"), "The __init__ method");
        assert_eq!(visible_text("`` a ` b ``"), "a ` b");
        assert_eq!(visible_text("` x `"), "x");
        assert_eq!(visible_text("un`closed"), "un`closed");
        assert_eq!(visible_text("\\_not\\_ emphasis"), "_not_ emphasis");
    }

    #[test]
    fn emphasis_underscores() {
        assert_eq!(visible_text("_emphasis_ here"), "emphasis here");
        assert_eq!(visible_text("__init__"), "init");
        assert_eq!(visible_text("snake_case_name"), "snake_case_name");
        assert_eq!(visible_text("_alone"), "_alone");
        assert_eq!(visible_text("a _b_ c_d"), "a b c_d");
    }

    #[test]
    fn html_autolinks_and_references() {
        assert_eq!(visible_text("<a id=\"x\"></a>Title"), "Title");
        assert_eq!(visible_text("Tag <kbd>Ctrl</kbd>"), "Tag Ctrl");
        assert_eq!(visible_text("<!-- c -->Title"), "Title");
        assert_eq!(visible_text("<https://x.example>"), "https://x.example");
        assert_eq!(visible_text("a < b > c"), "a < b > c");
        assert_eq!(visible_text("Q&amp;A &#233;t&#xE9; &copy;"), "Q&A été ");
        assert_eq!(visible_text("AT&T"), "AT&T");
    }

    #[test]
    fn labels_nested_deeper_than_the_stack_allows() {
        // Each label holds the next link: split without recursion.
        let nested = |n: usize| format!("{}x{}", "[".repeat(n), "](u)".repeat(n));
        assert_eq!(visible_text(&nested(10)), "x");
        assert_eq!(visible_text("[a [b](c) d](e) f"), "a b d f");
        // 100,000 levels: each would look to its end for its `]`; once the
        // budget is spent the rest is text, and no stack runs out.
        let deep = nested(100_000);
        let visible = visible_text(&deep);
        assert!(visible.len() < deep.len() && visible.contains('x'));
    }

    #[test]
    fn unclosed_brackets_cost_a_few_passes() {
        // Every `[` would look to the end for its `]`: past the budget the
        // rest are text, and the text comes back whole.
        let text = "[a".repeat(100_000);
        assert_eq!(visible_text(&text), text);
    }
}
