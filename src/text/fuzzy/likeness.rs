//! How alike two lines are, as evidence: the same line, the same line with
//! noise, or a different line.
//!
//! Lines are compared as tokens (words, numbers, single punctuation marks) of
//! their canonical forms, so whitespace between tokens and look-alike
//! characters are never a difference (whitespace inside a double-quoted
//! string is the string's text: a key keeps it as a mark). Noise is a typo
//! in a word long enough to have one; a different number, operator,
//! punctuation mark or short word, or a word changed beyond a typo, makes a
//! different line.
//!
//! ```text
//! let total = a+b;   let  total = a + b;   same
//! let totl = a + b;  let total = a + b;    noise (a typo in `total`)
//! let max = a + b;   let min = a + b;      different (short words have no typos)
//! let total = a + 2; let total = a + 1;    different (a number)
//! call5(x);          call6(x);             different (a number in a name)
//! ```

use rapidfuzz::distance::osa;
use similar::{Algorithm, DiffOp, capture_diff_slices};

use super::costs::COSTS;
use super::markers::TRAILING_LEADERS;
use super::normalize::QUOTED_SPACE;

/// How alike two lines are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Likeness {
    /// The same tokens.
    Same,
    /// The same tokens but for typos in a few long words.
    Noise,
    /// Different lines.
    Differs,
}

/// What a token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Word,
    Number,
    Mark,
}

/// The tokens of a line: words (letters, digits, `_`, starting with a
/// non-digit), numbers (starting with a digit), and every other visible
/// character on its own. Whitespace separates tokens and is dropped.
pub(crate) fn tokens(line: &str) -> Vec<&str> {
    split(line, false)
}

/// The tokens of a line as its key holds them: [`tokens`], with one
/// [`QUOTED_SPACE`] for each whitespace run inside a double-quoted string.
/// Between code tokens whitespace is layout, and a caller's copy may lose
/// or gain it; inside a string it is the string's text, so
/// `"parameter=value"` and `"parameter = value"` are two literals, and a
/// search remembering one does not describe the line holding the other.
/// A run's length is still layout (`"a  b"` is `"a b"`).
pub(crate) fn key_tokens(line: &str) -> Vec<&str> {
    split(line, true)
}

fn split(line: &str, quoted_spaces: bool) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    let (mut quoted, mut escaped, mut space_in_quotes) = (false, false, false);
    for (i, c) in line.char_indices() {
        let in_word = c.is_alphanumeric() || c == '_';
        if in_word {
            if start.is_none() {
                if space_in_quotes && !out.is_empty() {
                    out.push(QUOTED_SPACE);
                }
                space_in_quotes = false;
                start = Some(i);
            }
            escaped = false;
            continue;
        }
        if let Some(s) = start.take() {
            out.push(&line[s..i]);
        }
        if c.is_whitespace() {
            space_in_quotes |= quoted_spaces && quoted;
            escaped = false;
            continue;
        }
        if space_in_quotes && !out.is_empty() {
            out.push(QUOTED_SPACE);
        }
        space_in_quotes = false;
        if c == '"' && !escaped {
            quoted = !quoted;
        }
        escaped = c == '\\' && !escaped;
        out.push(&line[i..i + c.len_utf8()]);
    }
    if let Some(s) = start {
        out.push(&line[s..]);
    }
    out
}

fn kind(token: &str) -> Kind {
    match token.chars().next() {
        Some(c) if c.is_ascii_digit() => Kind::Number,
        Some(c) if c.is_alphanumeric() || c == '_' => Kind::Word,
        _ => Kind::Mark,
    }
}

/// The parts of a word: split at `_` and where a lower-case letter or digit
/// is followed by an upper-case one (`maxSize` is `max`, `Size`).
fn parts(word: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut prev: Option<char> = None;
    for (i, c) in word.char_indices() {
        if c == '_' {
            if i > start {
                out.push(&word[start..i]);
            }
            start = i + 1;
        } else if c.is_uppercase()
            && prev.is_some_and(|p| p.is_lowercase() || p.is_ascii_digit())
            && i > start
        {
            out.push(&word[start..i]);
            start = i;
        }
        prev = Some(c);
    }
    if start < word.len() {
        out.push(&word[start..]);
    }
    out
}

/// Whether two words (or parts of words) are a typo apart: long enough to
/// have one, and a few edits apart.
fn typo_apart(a: &str, b: &str) -> bool {
    let shorter = a.chars().count().min(b.chars().count());
    let limit = match shorter {
        0..=3 => return false,
        4..=7 => COSTS.typo_short,
        _ => COSTS.typo_long,
    };
    osa::distance(a.chars(), b.chars()) <= limit
}

/// Whether `b` is `a` with a typo: both words, the same parts but for typos
/// in parts long enough to have one (`MIN_SIZE` and `MAX_SIZE` differ in a
/// short part, so they are two names), and a few edits apart in all.
pub(crate) fn is_typo(a: &str, b: &str) -> bool {
    if kind(a) != Kind::Word || kind(b) != Kind::Word || a == b || !typo_apart(a, b) {
        return false;
    }
    // A number is never a typo, inside a name either: `syscall5` and
    // `syscall6` are two names.
    let digits = |w: &str| w.chars().filter(char::is_ascii_digit).collect::<String>();
    if digits(a) != digits(b) {
        return false;
    }
    let (pa, pb) = (parts(a), parts(b));
    if pa.len() != pb.len() {
        // Parts joined or split (`max_size`, `maxsize`, `maxSize`) and
        // nothing else: a part gained (`sizeQ`, `size_zz`) makes another
        // name.
        let letters = |w: &str| -> String {
            w.chars()
                .filter(|c| *c != '_')
                .flat_map(char::to_lowercase)
                .collect()
        };
        return letters(a) == letters(b);
    }
    pa.iter()
        .zip(&pb)
        .all(|(x, y)| x == y || (typo_apart(x, y) && !affixed(x, y)))
}

/// Whether one of two parts is the other with two or more characters added
/// at its start or its end (`serialize`, `deserialize`; `load`, `loaded`): a
/// slip of the hand changes a character or two inside a word, a prefix or a
/// suffix makes another word of it.
fn affixed(a: &str, b: &str) -> bool {
    let (short, long) = if a.len() < b.len() { (a, b) } else { (b, a) };
    short.chars().count() + 2 <= long.chars().count()
        && (long.starts_with(short) || long.ends_with(short))
}

/// How alike the canonical lines `a` and `b` are.
pub(crate) fn likeness(a: &str, b: &str) -> Likeness {
    if a == b {
        return Likeness::Same;
    }
    let ta = tokens(a);
    let tb = tokens(b);
    if ta == tb {
        return Likeness::Same;
    }
    match typo_pairs(&ta, &tb) {
        Some(pairs) if pairs.len() <= COSTS.typos_per_line => Likeness::Noise,
        _ => Likeness::Differs,
    }
}

/// Whether the search's line `search` reads the file's line `file` literally:
/// byte for byte, indentation and trailing spaces aside, or as its code with
/// the comment at its end left out (`#endif` for `#endif // C++17`). A copy
/// without its comments is still a copy of the line: a caller that drops
/// them (as agents often do) remembers every byte of the code.
///
/// The tail is taken for a comment by its leader alone, so some code reads
/// as one (`n = total // size` for `n = total`, `cd build ; make`). That
/// only prices the pair and weighs rivals: the merge and the re-read still
/// hold the two lines different, so the file's line is kept as it is, or
/// the edit is refused; its tail is never dropped.
pub(crate) fn reads_literally(search: &str, file: &str) -> bool {
    let (search, file) = (search.trim(), file.trim());
    if search == file {
        return true;
    }
    let Some(rest) = file.strip_prefix(search) else {
        return false;
    };
    let comment = rest.trim_start();
    !search.is_empty()
        && comment.len() < rest.len()
        && TRAILING_LEADERS
            .iter()
            .any(|lead| comment.starts_with(lead))
}

/// The word pairs (of `ta`, of `tb`) in which the two token lists differ, if
/// every difference is a typo in a word; `None` otherwise.
fn typo_pairs<'a>(ta: &[&'a str], tb: &[&'a str]) -> Option<Vec<(&'a str, &'a str)>> {
    // Typos pair word for word, so lists of other lengths hold something
    // else; the diff would say so at a cost.
    if ta.len() != tb.len() {
        return None;
    }
    let mut pairs = Vec::new();
    for op in capture_diff_slices(Algorithm::Myers, ta, tb) {
        match op {
            DiffOp::Equal { .. } => {}
            DiffOp::Replace {
                old_index,
                old_len,
                new_index,
                new_len,
            } if old_len == new_len => {
                for k in 0..old_len {
                    let (x, y) = (ta[old_index + k], tb[new_index + k]);
                    if !is_typo(x, y) {
                        return None;
                    }
                    pairs.push((x, y));
                }
            }
            _ => return None,
        }
    }
    Some(pairs)
}

/// The numbers of a line (tokens holding an ASCII digit, a name with digits
/// too), sorted: what [`Numbers::apart`] compares. Rows keep theirs, since
/// the alignment asks it of every pair of lines it weighs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Numbers(String);

impl Numbers {
    /// The numbers among `tokens`.
    pub(crate) fn of_tokens(tokens: &[&str]) -> Numbers {
        if !tokens.iter().any(|t| t.bytes().any(|c| c.is_ascii_digit())) {
            return Numbers::default();
        }
        let mut found: Vec<&str> = tokens
            .iter()
            .copied()
            .filter(|t| t.bytes().any(|c| c.is_ascii_digit()))
            .collect();
        found.sort_unstable();
        // Tokens hold no whitespace, so a space joins them unambiguously.
        Numbers(found.join(" "))
    }

    /// The numbers of `line`.
    pub(crate) fn of(line: &str) -> Numbers {
        Numbers::of_tokens(&tokens(line))
    }

    /// How many numbers of one line the other does not hold (the larger
    /// count of the two sides): a line whose numbers changed is no stale
    /// memory of the same line but evidence of another block (generated or
    /// copied blocks often differ in nothing else).
    pub(crate) fn apart(&self, other: &Numbers) -> usize {
        // Most lines hold no number: their answer needs no comparison.
        if self.0.is_empty() && other.0.is_empty() {
            return 0;
        }
        let mut x = self.0.split(' ').filter(|t| !t.is_empty()).peekable();
        let mut y = other.0.split(' ').filter(|t| !t.is_empty()).peekable();
        let (mut only_x, mut only_y) = (0, 0);
        loop {
            match (x.peek(), y.peek()) {
                (Some(a), Some(b)) => match a.cmp(b) {
                    std::cmp::Ordering::Less => (only_x, _) = (only_x + 1, x.next()),
                    std::cmp::Ordering::Greater => (only_y, _) = (only_y + 1, y.next()),
                    std::cmp::Ordering::Equal => _ = (x.next(), y.next()),
                },
                _ => return (only_x + x.count()).max(only_y + y.count()),
            }
        }
    }
}

/// How many numbers of one line the other does not hold (see
/// [`Numbers::apart`]).
pub(crate) fn numbers_apart(a: &str, b: &str) -> usize {
    if a == b {
        return 0;
    }
    Numbers::of(a).apart(&Numbers::of(b))
}

/// Whether two lines hold different numbers (see [`numbers_apart`]).
pub(crate) fn numbers_differ(a: &str, b: &str) -> bool {
    numbers_apart(a, b) > 0
}

pub(crate) fn typos<'a>(search: &'a str, file: &'a str) -> Vec<(&'a str, &'a str)> {
    typo_pairs(&tokens(search), &tokens(file)).unwrap_or_default()
}

/// Whether the caller's new line `theirs` agrees with the file's line
/// `ours` wherever `ours` differs from the search's line `base`: each word
/// the file has instead of the search's is a typo of it, or is what the
/// caller wrote in its place. A line the file changed in a way the caller
/// does not repeat (`MAX_` where the search and new_content have `MIN_`) does
/// not agree.
pub(crate) fn agrees(base: &str, ours: &str, theirs: &str) -> bool {
    let (tb, to, tt) = (tokens(base), tokens(ours), tokens(theirs));
    let contains = |hay: &[&str], needle: &[&str]| {
        needle.is_empty() || hay.windows(needle.len()).any(|w| w == needle)
    };
    capture_diff_slices(Algorithm::Myers, &tb, &to)
        .into_iter()
        .all(|op| match op {
            DiffOp::Equal { .. } => true,
            DiffOp::Replace {
                old_index,
                old_len,
                new_index,
                new_len,
            } => {
                let (b, o) = (
                    &tb[old_index..old_index + old_len],
                    &to[new_index..new_index + new_len],
                );
                let typos = old_len == new_len && b.iter().zip(o).all(|(x, y)| is_typo(x, y));
                typos || (contains(&tt, o) && !contains(&tt, b))
            }
            DiffOp::Insert {
                new_index, new_len, ..
            } => contains(&tt, &to[new_index..new_index + new_len]),
            DiffOp::Delete {
                old_index, old_len, ..
            } => !contains(&tt, &tb[old_index..old_index + old_len]),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_read_literally_may_leave_out_its_trailing_comment() {
        assert!(reads_literally("  x = 1;", "x = 1;  "));
        assert!(reads_literally("#endif", "#endif // C++17"));
        assert!(reads_literally("x = 1", "x = 1  # the first"));
        assert!(reads_literally("}", "} /* loop */"));
        // A comment needs a space before it; the rest is code.
        assert!(!reads_literally("f()", "f();"));
        assert!(!reads_literally("x = a", "x = a+b  # sum"));
        assert!(!reads_literally("return", "return 'a'"));
        assert!(!reads_literally("", "# only a comment"));
        // A comment the caller sends that the file lacks is no copy.
        assert!(!reads_literally("#endif // C++17", "#endif"));
    }

    #[test]
    fn whitespace_between_tokens_is_no_difference() {
        assert_eq!(likeness("let x = a+b;", "let x = a + b;"), Likeness::Same);
        assert_eq!(likeness("f(a, b)", "f( a,b )"), Likeness::Same);
    }

    #[test]
    fn typos_in_long_words_are_noise() {
        assert_eq!(
            likeness("let totl = compute(items);", "let total = compute(items);"),
            Likeness::Noise
        );
        assert_eq!(likeness("retrun value;", "return value;"), Likeness::Noise);
        assert_eq!(
            typos("let totl = 1;", "let total = 1;"),
            vec![("totl", "total")]
        );
    }

    #[test]
    fn numbers_marks_and_short_words_are_differences() {
        assert_eq!(likeness("x = 1;", "x = 2;"), Likeness::Differs);
        assert_eq!(likeness("a < b", "a > b"), Likeness::Differs);
        assert_eq!(likeness("let max = 3;", "let min = 3;"), Likeness::Differs);
        assert_eq!(likeness("MIN_SIZE = 3", "MAX_SIZE = 3"), Likeness::Differs);
        assert_eq!(likeness("maxSize = 3", "minSize = 3"), Likeness::Differs);
        assert_eq!(
            likeness("compute_totl()", "compute_total()"),
            Likeness::Noise
        );
        assert_eq!(likeness("12: let x = 1;", "let x = 1;"), Likeness::Differs);
        assert_eq!(likeness("foo();", "foo()"), Likeness::Differs);
        assert_eq!(
            likeness("fn syscall6_readonly(", "fn syscall5_readonly("),
            Likeness::Differs
        );
        assert_eq!(
            likeness("let schedules = 1;", "let schedulesQ = 1;"),
            Likeness::Differs
        );
        assert_eq!(
            likeness("let digest = 1;", "let digest_zz = 1;"),
            Likeness::Differs
        );
        assert_eq!(
            likeness("let max_size = 1;", "let maxsize = 1;"),
            Likeness::Noise
        );
        assert_eq!(
            likeness("connect(host, port)", "connect(hostname, port)"),
            Likeness::Differs
        );
        assert_eq!(
            likeness("fn test_serialize() {", "fn test_deserialize() {"),
            Likeness::Differs
        );
        assert_eq!(
            likeness("x.registered(a)", "x.register(a)"),
            Likeness::Differs
        );
        assert_eq!(likeness("x.regsiter(a)", "x.register(a)"), Likeness::Noise);
    }

    #[test]
    fn new_content_that_writes_the_file_s_word_agrees() {
        assert!(agrees(
            "let lne = x + 1;",
            "let len = x + 1;",
            "let len = x + 2;"
        ));
        assert!(agrees("let totl = x;", "let total = x;", "let totl = y;"));
        assert!(!agrees("MIN_SIZE = 3", "MAX_SIZE = 3", "MIN_SIZE = 1"));
        assert!(!agrees("f(a)", "f(a, b)", "g(a)"));
        assert!(agrees("f(a)", "f(a, b)", "g(a, b)"));
    }

    #[test]
    fn numbers_apart_counts_the_numbers_either_line_has_beyond_the_other() {
        assert_eq!(numbers_apart("f(1, 2)", "f(1, 2)"), 0);
        assert_eq!(numbers_apart("f(a, b)", "g(c)"), 0);
        assert_eq!(numbers_apart("f(1, 1)", "f(1)"), 1);
        assert_eq!(numbers_apart("x1 = 2", "x2 = 3 + 4"), 3);
        assert_eq!(numbers_apart("v = 12", "v = ab"), 1);
    }

    proptest::proptest! {
        /// The count is the larger side of the two lines' multiset
        /// difference of numbers (tokens holding an ASCII digit).
        #[test]
        fn numbers_apart_is_the_larger_multiset_difference(
            a in proptest::collection::vec("[0-9]|x[0-9]|ab|,|\\(|٣|１| ", 0..8),
            b in proptest::collection::vec("[0-9]|x[0-9]|ab|,|\\(|٣|１| ", 0..8),
            glue in 0..2usize,
        ) {
            let glue = [" ", ""][glue];
            let (a, b) = (a.join(glue), b.join(glue));
            let count = |line: &String| -> std::collections::HashMap<String, i64> {
                let mut seen = std::collections::HashMap::<String, i64>::new();
                for t in tokens(line).into_iter().filter(|t| t.bytes().any(|c| c.is_ascii_digit())) {
                    *seen.entry(t.to_string()).or_default() += 1;
                }
                seen
            };
            let beyond = |x: &std::collections::HashMap<String, i64>, y: &std::collections::HashMap<String, i64>| {
                x.iter().map(|(k, n)| (n - y.get(k.as_str()).copied().unwrap_or(0)).max(0)).sum::<i64>()
            };
            let expected = |a: &String, b: &String| {
                let (x, y) = (count(a), count(b));
                beyond(&x, &y).max(beyond(&y, &x)) as usize
            };
            proptest::prop_assert_eq!(numbers_apart(&a, &b), expected(&a, &b));
            // Rows keep their keys' numbers for the alignment to compare.
            let (ra, rb) = (super::super::rows::of_snippet(&a), super::super::rows::of_snippet(&b));
            if let (Some(ra), Some(rb)) = (ra.first(), rb.first()) {
                proptest::prop_assert_eq!(ra.numbers.apart(&rb.numbers), expected(&ra.key, &rb.key));
            }
        }
    }

    #[test]
    fn more_typos_than_a_line_may_have_differ() {
        assert_eq!(
            likeness("alpha bravo charlie", "alpah brovo charlei"),
            Likeness::Differs
        );
    }
}
