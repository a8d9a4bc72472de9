//! Search blocks that elide their middle: the agent gives the first and last
//! lines of a block and stands a marker such as `...`, `// ...`, `# ...` or
//! `/* ... */` for everything between.
//!
//! Each stretch between markers (a *segment*) is matched on its own, in order.
//! The first segment may match anywhere; each later one is looked for after the
//! previous one and before the block the first segment opened is closed (the
//! first line indented no deeper than the opening line), at the indentation the
//! first segment predicts, taking the nearest exact-up-to-whitespace occurrence
//! or else the closest fuzzy one. Two functions sharing a head and a tail can
//! therefore not be bridged into one match.

use std::collections::HashSet;
use std::ops::Range;

use super::align::{Target, misindented, pair_around, pair_blank_lines, pair_lines};
use super::block::{Line, Lines};
use super::candidates::{Probe, Window};
use super::indent::IndentMap;
use super::next::markers::{is_comment_marker_canon, is_marker_canon};
use super::normalize::width;
use super::score::score_of;

/// Least score (0–100) for a segment's window to be considered at all.
const SEGMENT_FLOOR: f64 = 50.0;
/// At most this many places for the first segment are tried.
const MAX_HEADS: usize = 32;
/// In text without nesting, how far (non-blank lines) a later segment is
/// looked for after the previous one.
const FLAT_REACH: usize = 5_000;
/// At most this many other places of the last segment are weighed.
const MAX_ALTERNATIVES: usize = 8;

/// Tells elision markers from lines that only look like one. A line whose
/// text is also a line of the file is content (a Python `...` body, a
/// `# ... see below` comment) and is matched and written like any other line.
pub(crate) struct Markers {
    literal: HashSet<String>,
}

impl Markers {
    /// Collects the marker-like lines of `file`.
    pub(crate) fn of(file: &Lines<'_>) -> Markers {
        Markers {
            literal: file
                .all
                .iter()
                .filter(|l| is_marker_canon(&l.canon))
                .map(|l| l.canon.to_string())
                .collect(),
        }
    }

    /// Whether `line` (of the search or the new content) is an elision marker.
    pub(crate) fn is_marker(&self, line: &Line<'_>) -> bool {
        is_marker_canon(&line.canon) && !self.literal.contains(line.canon.as_ref())
    }

    /// Whether `line` looks like a marker but is a line of the file.
    pub(crate) fn is_literal(&self, line: &Line<'_>) -> bool {
        self.literal.contains(line.canon.as_ref())
    }

    /// Whether `line` is an elision marker written as a comment, which (unlike
    /// a bare `...`, valid Python) is never content worth writing.
    pub(crate) fn is_comment_marker(&self, line: &Line<'_>) -> bool {
        is_comment_marker_canon(&line.canon) && !self.literal.contains(line.canon.as_ref())
    }
}

/// The search split at its markers.
pub(crate) struct Segments {
    /// Search line ranges of each segment (runs of non-marker lines holding at
    /// least one non-blank line), in order.
    pub parts: Vec<Range<usize>>,
    /// Which search lines are markers.
    pub markers: Vec<bool>,
}

impl Segments {
    /// Splits `search` at marker lines; `None` if it has no marker or nothing
    /// but markers and blank lines.
    pub(crate) fn of(search: &Lines<'_>, markers: &Markers) -> Option<Segments> {
        let markers: Vec<bool> = search.all.iter().map(|l| markers.is_marker(l)).collect();
        if !markers.iter().any(|&m| m) {
            return None;
        }
        let mut parts = Vec::new();
        let mut start = 0;
        for (i, &marker) in markers.iter().chain([&true]).enumerate() {
            if marker {
                if (start..i).any(|k| !search.all[k].is_blank()) {
                    parts.push(start..i);
                }
                start = i + 1;
            }
        }
        (!parts.is_empty()).then_some(Segments { parts, markers })
    }
}

/// One way the elided search fits the file.
pub(crate) struct Elided {
    /// What each search line stands for.
    pub targets: Vec<Target>,
    /// Other fits with the same head whose last segment is another exact
    /// occurrence within reach: the marker may stand for more lines.
    pub alternatives: Vec<Vec<Target>>,
    /// Distance over the segments (the elided middles are not compared).
    pub dist: usize,
    /// Score 0–100 over the segments.
    pub score: f64,
}

/// Every way the segmented search fits the file, one per place of the first
/// segment that leads to a complete match.
pub(crate) fn find(file: &Lines<'_>, search: &Lines<'_>, segments: &Segments) -> Vec<Elided> {
    let nb_of = |r: &Range<usize>| -> Vec<usize> {
        r.clone().filter(|&k| !search.all[k].is_blank()).collect()
    };
    let seg_lines: Vec<Vec<usize>> = segments.parts.iter().map(nb_of).collect();
    let probes: Vec<Probe<'_, '_>> = seg_lines
        .iter()
        .map(|idx| Probe::new(idx.iter().map(|&k| &search.all[k]).collect()))
        .collect();
    let total = file.nonblank.len();

    let mut heads: Vec<Window> = probes[0]
        .find(file, 0..total)
        .into_iter()
        .filter(|w| w.score >= SEGMENT_FLOOR)
        .collect();
    heads.sort_by(|a, b| a.dist.cmp(&b.dist).then(a.start.cmp(&b.start)));
    heads.truncate(MAX_HEADS);

    let mut found = Vec::new();
    'heads: for head in heads {
        let mut windows = vec![head];
        let head_pairs = pair_lines(
            probes[0].lines(),
            file,
            head.start..head.end,
            head.start..head.end,
        );
        let indent_pairs: Vec<(&str, &str)> = head_pairs
            .iter()
            .map(|&(k, p)| (probes[0].lines()[k].indent, file.nb(p).indent))
            .collect();
        let head_block: Vec<&str> = (head.start..head.end).map(|p| file.nb(p).indent).collect();
        let indents = IndentMap::new(&indent_pairs, &head_block, &[]);
        let reach = reach(file, head.start..head.end);
        let mut from = head.end;
        let mut later_exact: Vec<Window> = Vec::new();
        for (k, probe) in probes.iter().enumerate().skip(1) {
            let expected = width(&indents.map(probe.lines()[0].indent, None));
            let mut options: Vec<Window> = probe
                .find(file, from..reach)
                .into_iter()
                .filter(|w| w.score >= SEGMENT_FLOOR && file.nb(w.start).width == expected)
                .collect();
            options.sort_by(|a, b| a.dist.cmp(&b.dist).then(a.start.cmp(&b.start)));
            let mut exact: Vec<Window> = options.iter().filter(|w| w.dist == 0).copied().collect();
            exact.sort_by_key(|w| w.start);
            let Some(&pick) = exact.first().or(options.first()) else {
                continue 'heads;
            };
            if k + 1 == probes.len() {
                later_exact = exact.into_iter().skip(1).take(MAX_ALTERNATIVES).collect();
            }
            windows.push(pick);
            from = pick.end;
        }
        if let Some(mut elided) = assemble(file, search, segments, &seg_lines, &probes, &windows) {
            for other in later_exact {
                let last = windows.len() - 1;
                let mut alt = windows.clone();
                alt[last] = other;
                if let Some(e) = assemble(file, search, segments, &seg_lines, &probes, &alt) {
                    elided.alternatives.push(e.targets);
                }
            }
            found.push(elided);
        }
    }
    found
}

/// One past the last non-blank position where later segments may lie: the
/// first line after the head indented no deeper than the head's outermost
/// opening line; in a Markdown section, the next heading of the same or a
/// higher level (a tail may be that heading, as the section's end); else a
/// fixed reach.
fn reach(file: &Lines<'_>, head: Range<usize>) -> usize {
    let total = file.nonblank.len();
    if let Some(level) = heading_level(&file.nb(head.start).canon) {
        return (head.end..total)
            .find(|&p| heading_level(&file.nb(p).canon).is_some_and(|l| l <= level))
            .map_or(total, |p| p + 1);
    }
    let opener = head
        .clone()
        .filter(|&p| p + 1 < total && file.nb(p + 1).width > file.nb(p).width)
        .map(|p| file.nb(p).width)
        .min();
    match opener {
        Some(o) => (head.end..total)
            .find(|&p| file.nb(p).width <= o && !continues_block(&file.nb(p).canon))
            .map_or(total, |mut p| {
                // The line that closes the head's block may be followed by
                // the tail: the marker then stands for the rest of the block.
                if p + 1 < total && closes_block(&file.nb(p).canon) && file.nb(p + 1).width <= o {
                    p += 1;
                }
                // Decorators, attributes and comments lead into the next
                // block: the line they lead into may still be the tail.
                while p + 1 < total && leads_in(&file.nb(p).canon) && file.nb(p + 1).width <= o {
                    p += 1;
                }
                p + 1
            }),
        None => (head.end + FLAT_REACH).min(total),
    }
}

/// Whether a line only closes a block: `}`, `};`, `)`, `end`, `fi`.
fn closes_block(line: &str) -> bool {
    let code = line.trim_end_matches([';', ',']);
    matches!(
        code,
        "}" | ")" | "]" | "})" | "end" | "fi" | "done" | "esac" | "endif"
    )
}

/// Whether a line leads into the definition after it: a decorator or
/// annotation (`@classmethod`), an attribute (`#[test]`, `[Fact]`), or a
/// comment.
fn leads_in(line: &str) -> bool {
    let attribute = line.starts_with('[') && line.ends_with(']');
    attribute
        || ["@", "#", "//", "/*", "*", "--"]
            .iter()
            .any(|lead| line.starts_with(lead))
}

/// Whether a line at the opening line's depth carries its block on: `} else
/// {`, `} catch (e) {`, Python's `else:`, `elif`, `except`, `finally:`.
fn continues_block(line: &str) -> bool {
    let braced = line.starts_with('}') && line.ends_with('{') && line.len() > 2;
    let word = line
        .split(|c: char| !c.is_alphanumeric())
        .next()
        .unwrap_or("");
    braced
        || (line.ends_with(':') && matches!(word, "else" | "elif" | "except" | "finally" | "case"))
}

/// The level of a Markdown ATX heading (`## Title` is 2).
fn heading_level(line: &str) -> Option<usize> {
    let hashes = line.bytes().take_while(|&b| b == b'#').count();
    ((1..=6).contains(&hashes) && line[hashes..].starts_with(' ')).then_some(hashes)
}

/// Builds the targets and score of a complete fit.
fn assemble(
    file: &Lines<'_>,
    search: &Lines<'_>,
    segments: &Segments,
    seg_lines: &[Vec<usize>],
    probes: &[Probe<'_, '_>],
    windows: &[Window],
) -> Option<Elided> {
    let mut targets = vec![Target::Absent; search.len()];
    let mut paired: Vec<(&Line<'_>, &Line<'_>)> = Vec::new();
    let mut bounds: Vec<(usize, usize)> = Vec::new();
    let total = file.nonblank.len();
    let last_segment = windows.len() - 1;
    for (k, ((idx, probe), w)) in seg_lines.iter().zip(probes).zip(windows).enumerate() {
        // Where segments lie was settled above: they are not widened into
        // the stretches markers stand for, only outwards at the ends, where
        // a window framed short must not leave the search's first or last
        // line unpaired (and what new_content adds next to it misplaced).
        let limit = if k == 0 { 0 } else { w.start }..if k == last_segment { total } else { w.end };
        let pairs = pair_around(probe.lines(), file, w.start..w.end, limit);
        let first = pairs.first()?.1;
        let last = pairs.last()?.1;
        for &(k, p) in &pairs {
            targets[idx[k]] = Target::Line(file.nonblank[p]);
            paired.push((probe.lines()[k], file.nb(p)));
        }
        bounds.push((file.nonblank[first], file.nonblank[last]));
    }
    // Interior markers stand for the lines between the segments around them.
    for (gap, pair) in bounds.windows(2).enumerate() {
        let middle = pair[0].1 + 1..pair[1].0;
        let between = segments.parts[gap].end..segments.parts[gap + 1].start;
        // Of markers in a row, the first stands for the lines; the others
        // for none, or kept markers would write those lines twice.
        let mut stretch = middle.clone();
        for k in between {
            if segments.markers[k] {
                targets[k] = Target::Middle(stretch.clone());
                stretch = middle.end..middle.end;
            }
        }
    }
    pair_blank_lines(search, file, &mut targets);
    let dist: usize = windows.iter().map(|w| w.dist).sum::<usize>() + 2 * misindented(&paired);
    let len_s: usize = probes.iter().map(|p| joined_len(p.lines())).sum();
    let len_d: usize = windows
        .iter()
        .map(|w| joined_len(&(w.start..w.end).map(|p| file.nb(p)).collect::<Vec<_>>()))
        .sum();
    Some(Elided {
        targets,
        alternatives: Vec::new(),
        dist,
        score: score_of(dist, len_s, len_d),
    })
}

fn joined_len(lines: &[&Line<'_>]) -> usize {
    lines.iter().map(|l| l.chars).sum::<usize>() + lines.len().saturating_sub(1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::fuzzy::normalize::canonical;
    use crate::text::lines::LineIndex;

    #[test]
    fn recognizes_markers() {
        for m in [
            "...",
            "  …",
            "// ...",
            "# ... rest unchanged",
            "/* ... */",
            "<!-- ... -->",
            "-- ...",
            "    // … existing code …",
            "# rest of the body unchanged ...",
            "// Existing code …",
            "/* remaining cases ... */",
        ] {
            assert!(is_marker_canon(&canonical(m)), "{m}");
        }
        for not in [
            "...args,",
            "foo(...)",
            "// note",
            "x = ...;",
            "#include <a.h>",
            "print('...')",
            "# Loading ...",
            "// restore the state...",
            "# wait for more data; retrying...",
        ] {
            assert!(!is_marker_canon(&canonical(not)), "{not}");
        }
        let file = Lines::of_snippet("def f():\n    ...\n# ... see below\n");
        let markers = Markers::of(&file);
        let probe = Lines::of_snippet("...\n# ...\n# ... see below\n// ...\n");
        let seen: Vec<(bool, bool)> = probe
            .all
            .iter()
            .map(|l| (markers.is_marker(l), markers.is_comment_marker(l)))
            .collect();
        assert_eq!(
            seen,
            vec![(false, false), (true, true), (false, false), (true, true)]
        );
    }

    #[test]
    fn a_head_and_tail_match_around_an_elided_middle() {
        let file = "fn a() {\n    one();\n    two();\n}\n\nfn b() {\n    one();\n    three();\n}\n";
        let index = LineIndex::new(file);
        let file_lines = Lines::of_text(file, &index);
        let search = Lines::of_snippet("fn b() {\n    // ...\n}\n");
        let segments = Segments::of(&search, &Markers::of(&file_lines)).unwrap();
        assert_eq!(segments.parts, vec![0..1, 2..3]);
        let found = find(&file_lines, &search, &segments);
        let exact: Vec<_> = found.iter().filter(|e| e.dist == 0).collect();
        assert_eq!(exact.len(), 1);
        assert_eq!(
            exact[0].targets,
            vec![Target::Line(5), Target::Middle(6..8), Target::Line(8)]
        );
    }

    #[test]
    fn a_markdown_section_ends_at_the_next_heading() {
        let file = "## A\n\ntext a\n\n## B\n\n- done\n";
        let index = LineIndex::new(file);
        let file_lines = Lines::of_text(file, &index);
        let search = Lines::of_snippet("## A\n...\n- done\n");
        let segments = Segments::of(&search, &Markers::of(&file_lines)).unwrap();
        let found = find(&file_lines, &search, &segments);
        assert!(
            found.iter().all(|e| e.targets[0] != Target::Line(0)),
            "bridged two sections"
        );
        // The next heading itself closes the section and may be its tail.
        let search = Lines::of_snippet("## A\n...\n## B\n");
        let segments = Segments::of(&search, &Markers::of(&file_lines)).unwrap();
        let found = find(&file_lines, &search, &segments);
        assert_eq!(
            found.iter().map(|e| e.targets.clone()).collect::<Vec<_>>(),
            vec![vec![Target::Line(0), Target::Middle(1..4), Target::Line(4)]]
        );
        assert_eq!(heading_level("### x"), Some(3));
        assert_eq!(heading_level("#x"), None);
    }

    #[test]
    fn a_tail_is_not_looked_for_past_the_end_of_its_block() {
        let file = "def a():\n    x = 1\n\ndef b():\n    x = 1\n    return x\n";
        let index = LineIndex::new(file);
        let file_lines = Lines::of_text(file, &index);
        let search = Lines::of_snippet("def a():\n    ...\n    return x\n");
        let segments = Segments::of(&search, &Markers::of(&file_lines)).unwrap();
        let found = find(&file_lines, &search, &segments);
        assert!(
            found.iter().all(|e| e.targets[0] != Target::Line(0)),
            "bridged two functions"
        );
    }
}
