//! Elision markers: a line that stands for hidden lines, such
//! as `...`, `// ...`, `# ... existing code ...`, `/* ... */`, or a comment
//! ending in `...` that says so (`# rest of the body unchanged ...`).
//!
//! A marker-like line that the file itself has (a Python `...` body, a
//! `# ... see below` comment) is content, matched and written like any other.

use std::collections::HashSet;

use super::costs::COSTS;
use super::normalize::canonical;

/// The key a marker's line has wherever lines are compared by key (the
/// merge's and the re-read's): no line of text has it, and any lines may
/// stand next to it.
pub(crate) const MARKER_KEY: &str = "\u{1}marker";

/// Comment leaders that may introduce a marker.
const LEADERS: [&str; 9] = ["<!--", "{/*", "/*", "//", "#", "--", ";", "%", "'"];

/// Leaders of a comment at the end of a line of code, after a space:
/// [`LEADERS`] but for `%` and `'`, which as often begin an operand
/// (`"%s" % name`, `return 'a'`), and `{/*`, which opens a JSX comment on a
/// line of its own.
pub(crate) const TRAILING_LEADERS: [&str; 6] = ["<!--", "/*", "//", "#", "--", ";"];

/// Whether a line in canonical form looks like an elision marker: `...` or
/// `…` alone, or a comment whose text starts with one (`// ... existing code
/// ...`, `# ...`, `/* ... */`).
pub(crate) fn is_marker_canon(c: &str) -> bool {
    c == "..." || is_comment_marker_canon(c)
}

/// Words that say a comment ending in `...` stands for hidden lines
/// (`# rest of the body unchanged ...`), unlike `# Loading ...`.
const ELIDING_WORDS: [&str; 8] = [
    "existing",
    "unchanged",
    "unmodified",
    "rest",
    "remaining",
    "omitted",
    "elided",
    "same",
];

pub(crate) fn is_comment_marker_canon(c: &str) -> bool {
    LEADERS.iter().any(|lead| {
        c.strip_prefix(lead).is_some_and(|rest| {
            let text = rest.trim_start();
            if text.starts_with("...") {
                return true;
            }
            // A comment closed on its line (`/* rest unchanged ... */`).
            let text = ["*/", "-->", "*/}"]
                .iter()
                .find_map(|close| text.strip_suffix(close))
                .unwrap_or(text)
                .trim_end();
            let Some(words) = text.strip_suffix("...") else {
                return false;
            };
            words
                .split(|c: char| !c.is_alphanumeric())
                .any(|word| ELIDING_WORDS.iter().any(|w| word.eq_ignore_ascii_case(w)))
        })
    })
}

/// Which lines of a text are markers, given the file's own marker-like lines.
pub(crate) struct Markers {
    literal: HashSet<String>,
}

impl Markers {
    /// Collects the marker-like lines of the file `lines`.
    pub(crate) fn of<'a>(lines: impl Iterator<Item = &'a str>) -> Markers {
        Markers {
            literal: lines
                .map(canonical)
                .filter(|c| is_marker_canon(c))
                .map(|c| c.into_owned())
                .collect(),
        }
    }

    /// Which of `lines` are elision markers.
    pub(crate) fn flags<'a>(&self, lines: impl Iterator<Item = &'a str>) -> Vec<bool> {
        lines
            .map(|l| {
                let c = canonical(l);
                is_marker_canon(&c) && !self.literal.contains(c.as_ref())
            })
            .collect()
    }

    /// Whether `line` is a marker written as a comment, which (unlike a bare
    /// `...`, valid Python) is never content worth writing.
    pub(crate) fn is_comment_marker(&self, line: &str) -> bool {
        let c = canonical(line);
        is_comment_marker_canon(&c) && !self.literal.contains(c.as_ref())
    }
}

/// Takes back the marker flags of lines the caller rewrote: a search
/// marker that `new_content` has nowhere as it is but has rewritten (`#
/// ...make a module that just contains that`, sent back with
/// `contains_next`), with that rewrite. A marker stands for lines the
/// caller did not show, and nobody edits its words; read as markers, the
/// two lines would be left out of the edit, and the caller's change of the
/// line with them.
pub(crate) fn rewritten_are_text(
    search: &[&str],
    search_flags: &mut [bool],
    new: &[&str],
    new_flags: &mut [bool],
) {
    let canon = |lines: &[&str], flags: &[bool]| -> Vec<Option<String>> {
        lines
            .iter()
            .zip(flags)
            .map(|(l, &m)| m.then(|| canonical(l).into_owned()))
            .collect()
    };
    let (mine, theirs) = (canon(search, search_flags), canon(new, new_flags));
    for (i, m) in mine.iter().enumerate() {
        let Some(m) = m else { continue };
        if theirs.iter().flatten().any(|t| t == m) {
            continue;
        }
        let rewrite = theirs.iter().enumerate().find_map(|(j, t)| {
            let t = t.as_ref()?;
            let as_is = mine.iter().flatten().any(|x| x == t);
            let near = rapidfuzz::fuzz::ratio(m.chars(), t.chars()) >= COSTS.rewritten;
            (new_flags[j] && !as_is && near).then_some(j)
        });
        if let Some(j) = rewrite {
            search_flags[i] = false;
            new_flags[j] = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_and_look_alikes() {
        for m in [
            "...",
            "// ...",
            "# ... existing code ...",
            "/* ... */",
            "<!-- ... -->",
            "# rest of the body unchanged ...",
        ] {
            assert!(is_marker_canon(&canonical(m)), "{m}");
        }
        for not in ["# Loading ...", "x = ...", "print('...')"] {
            assert!(!is_marker_canon(&canonical(not)), "{not}");
        }
        let markers = Markers::of(["def f():", "    ..."].into_iter());
        assert_eq!(
            markers.flags(["...", "// ..."].into_iter()),
            vec![false, true]
        );
    }

    #[test]
    fn a_marker_the_caller_rewrote_is_text() {
        let search = ["# ...make a module that just contains that", "f(var)"];
        let new = ["# ...make a module that just contains_next that", "f(var)"];
        let (mut s, mut n) = ([true, false], [true, false]);
        rewritten_are_text(&search, &mut s, &new, &mut n);
        assert_eq!((s, n), ([false, false], [false, false]));
        // A marker sent back as it is, or as another marker, stays one.
        let search = ["// ...", "f(var)", "# ... existing code ..."];
        let new = [
            "// ... rest of the body unchanged ...",
            "g(var)",
            "# ... existing code ...",
        ];
        let (mut s, mut n) = ([true, false, true], [true, false, true]);
        rewritten_are_text(&search, &mut s, &new, &mut n);
        assert_eq!((s, n), ([true, false, true], [true, false, true]));
    }
}
