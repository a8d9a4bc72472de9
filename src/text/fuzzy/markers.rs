//! Elision markers: a line that stands for hidden lines, such
//! as `...`, `// ...`, `# ... existing code ...`, `/* ... */`, or a comment
//! ending in `...` that says so (`# rest of the body unchanged ...`).
//!
//! A marker-like line that the file itself has (a Python `...` body, a
//! `# ... see below` comment) is content, matched and written like any other.

use std::collections::HashSet;

use super::normalize::canonical;

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
}
