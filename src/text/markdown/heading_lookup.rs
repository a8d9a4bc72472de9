//! Finding the one heading an agent means from what it wrote: `## Setup`,
//! `Setup` (any level) or `## Setup {#setup}`.
//!
//! Matching is exact on the heading's text, case included, after trimming and
//! collapsing runs of whitespace; the explicit id must match too when the
//! query gives one. The level a query gives picks among headings with the
//! same text; a heading at another level is still found when it is the only
//! one with that text (seed 001: the `#` markers are stripped and the text
//! decides), and the match reports the difference. ATX closing `#`s in the
//! query are ignored, so a line copied from the document works as a query;
//! the query's text as written matches too, so a heading whose text ends in
//! `#` or `{#id}` (a setext heading, say) is found by the name its outline
//! shows. Anything but exactly one match is an error that says why and what
//! to try next.

use std::fmt;

use schemars::JsonSchema;
use serde::Serialize;

use super::MarkdownOutline;
use super::headings::{Heading, atx_text, split_custom_id};
use crate::text::excerpt::brief;

/// Suggestions with a lower similarity than this are not offered.
const MIN_SIMILARITY: f64 = 0.5;

/// How many similar headings a "not found" error suggests at most.
const MAX_NEAREST: usize = 3;

/// A heading named in an error: how to write it and where it is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct HeadingRef {
    /// The heading as a query would name it, e.g. `## Setup`.
    pub display: String,
    /// Its first line.
    pub line: usize,
}

impl HeadingRef {
    /// The reference to `heading`.
    fn to(heading: &Heading) -> HeadingRef {
        HeadingRef {
            display: heading.display(),
            line: heading.line,
        }
    }

    /// The level, read back from the display form.
    fn level(&self) -> usize {
        self.display.bytes().take_while(|&b| b == b'#').count()
    }
}

/// Why a heading query did not name exactly one heading.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HeadingLookupError {
    /// The query cannot name any heading.
    Invalid {
        /// The query as sent.
        query: String,
        /// What is wrong with it.
        reason: String,
    },
    /// No heading matches.
    NotFound {
        /// The query as sent.
        query: String,
        /// Up to 3 similar headings, most similar first.
        nearest: Vec<HeadingRef>,
    },
    /// Several headings match.
    Ambiguous {
        /// The query as sent.
        query: String,
        /// Every matching heading, in document order.
        candidates: Vec<HeadingRef>,
    },
}

/// A query taken apart.
#[derive(Debug, PartialEq, Eq)]
struct Query {
    level: Option<u8>,
    text: String,
    id: Option<String>,
    /// The text after the level marker as written, without taking off a
    /// closing `#` sequence or a `{#id}`: the heading's text may hold those
    /// literally (a setext heading, or one that ends in other whitespace than
    /// spaces and tabs), and its outline name must still find it.
    literal: String,
}

/// Takes a query apart, or says why it cannot name a heading.
fn parse_query(query: &str) -> Result<Query, String> {
    let trimmed = query.trim();
    if trimmed.is_empty() {
        return Err("the query is empty; give the heading's text, e.g. '## Setup'".to_string());
    }
    let hashes = trimmed.bytes().take_while(|&b| b == b'#').count();
    let marker_ends = trimmed[hashes..]
        .chars()
        .next()
        .is_none_or(char::is_whitespace);
    let (level, rest) = if hashes > 0 && marker_ends {
        if hashes > 6 {
            return Err(format!(
                "it starts with {hashes} '#' but a heading has at most 6 (######)"
            ));
        }
        (Some(hashes as u8), &trimmed[hashes..])
    } else {
        (None, trimmed)
    };
    let (text, id) = split_custom_id(atx_text(rest.trim()));
    let literal = collapse_whitespace(rest);
    let text = match collapse_whitespace(text) {
        // `### ####` names a heading whose text is `####`.
        text if text.is_empty() && id.is_none() => literal.clone(),
        text => text,
    };
    if text.is_empty() && id.is_none() {
        return Err("it has no heading text after the '#' marker".to_string());
    }
    Ok(Query {
        level,
        text,
        id: id.map(str::to_string),
        literal,
    })
}

/// Trims and turns every run of whitespace into one space.
fn collapse_whitespace(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A heading a query named, with a remark when only its text matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HeadingMatch<'a> {
    /// The heading.
    pub heading: &'a Heading,
    /// Whether the query gave another level than the heading's (it was found
    /// by its text alone).
    pub other_level: bool,
}

impl HeadingMatch<'_> {
    /// The remark for a reply when the level differed.
    pub fn note(&self, query: &str) -> Option<String> {
        self.other_level.then(|| {
            format!(
                "'{}' matched '{}' (line {}) by its text; the heading's level is {}, not {}",
                query.trim(),
                self.heading.display(),
                self.heading.line,
                self.heading.level,
                query.trim().bytes().take_while(|&b| b == b'#').count()
            )
        })
    }
}

/// Finds the one heading that `query` names.
pub fn find_heading<'a>(
    outline: &'a MarkdownOutline,
    query: &str,
) -> Result<&'a Heading, HeadingLookupError> {
    find_heading_match(outline, query).map(|m| m.heading)
}

/// Finds the one heading that `query` names: by its text (and `{#id}`, when
/// the query gives one), preferring the level the query gives. A heading of
/// another level is found when it is the only one with the text, and the
/// match says so; several with the text and none at the query's level are
/// ambiguous.
pub fn find_heading_match<'a>(
    outline: &'a MarkdownOutline,
    query: &str,
) -> Result<HeadingMatch<'a>, HeadingLookupError> {
    let parsed = parse_query(query).map_err(|reason| HeadingLookupError::Invalid {
        query: query.to_string(),
        reason,
    })?;
    let texts: Vec<String> = outline
        .headings
        .iter()
        .map(|h| collapse_whitespace(&h.text))
        .collect();
    let by_text: Vec<&Heading> = outline
        .headings
        .iter()
        .zip(&texts)
        .filter(|(heading, text)| {
            let named = **text == parsed.text
                && parsed
                    .id
                    .as_ref()
                    .is_none_or(|id| heading.id.as_ref() == Some(id));
            named || **text == parsed.literal
        })
        .map(|(heading, _)| heading)
        .collect();
    let at_level: Vec<&Heading> = by_text
        .iter()
        .copied()
        .filter(|h| parsed.level.is_none_or(|level| h.level == level))
        .collect();
    let (matches, other_level) = if at_level.is_empty() {
        (by_text, parsed.level.is_some())
    } else {
        (at_level, false)
    };
    match matches.as_slice() {
        [one] => Ok(HeadingMatch {
            heading: one,
            other_level,
        }),
        [] => Err(HeadingLookupError::NotFound {
            query: query.to_string(),
            nearest: nearest(&outline.headings, &texts, &parsed.text),
        }),
        several => Err(HeadingLookupError::Ambiguous {
            query: query.to_string(),
            candidates: several.iter().map(|h| HeadingRef::to(h)).collect(),
        }),
    }
}

/// The headings most like `wanted`: the same text at another level (or with
/// another id) first, then the same text in another case, then headings that
/// contain it or are contained in it, then by edit-distance similarity.
fn nearest(headings: &[Heading], texts: &[String], wanted: &str) -> Vec<HeadingRef> {
    let wanted_lower = wanted.to_lowercase();
    let mut ranked: Vec<(u8, f64, &Heading)> = headings
        .iter()
        .zip(texts)
        .filter_map(|(heading, text)| {
            let lower = text.to_lowercase();
            let similarity = rapidfuzz::distance::levenshtein::normalized_similarity(
                lower.chars(),
                wanted_lower.chars(),
            );
            let tier = if text == wanted {
                0
            } else if lower == wanted_lower {
                1
            } else if !wanted_lower.is_empty()
                && !lower.is_empty()
                && (lower.contains(&wanted_lower) || wanted_lower.contains(&lower))
            {
                2
            } else if similarity >= MIN_SIMILARITY {
                3
            } else {
                return None;
            };
            Some((tier, similarity, heading))
        })
        .collect();
    ranked.sort_by(|a, b| {
        a.0.cmp(&b.0)
            .then(b.1.total_cmp(&a.1))
            .then(a.2.line.cmp(&b.2.line))
    });
    ranked
        .into_iter()
        .take(MAX_NEAREST)
        .map(|(_, _, heading)| HeadingRef::to(heading))
        .collect()
}

/// `'## Setup' (line 3), '## Setup' (line 20)`.
fn list_refs(refs: &[HeadingRef]) -> String {
    refs.iter()
        .map(|r| format!("'{}' (line {})", r.display, r.line))
        .collect::<Vec<_>>()
        .join(", ")
}

impl HeadingLookupError {
    /// Whether adding the level to the query would pick out each candidate.
    fn level_tells_apart(candidates: &[HeadingRef]) -> bool {
        let mut levels: Vec<usize> = candidates.iter().map(HeadingRef::level).collect();
        levels.sort_unstable();
        levels.dedup();
        levels.len() == candidates.len()
    }

    /// Lines of advice for the agent, one suggestion each.
    pub fn suggestions(&self) -> Vec<String> {
        let inspect = "Use TextInspect to see all headings in the document".to_string();
        match self {
            HeadingLookupError::Invalid { .. } => vec![inspect],
            HeadingLookupError::NotFound { nearest, .. } => nearest
                .iter()
                .map(|r| format!("Similar heading found: '{}' at line {}", r.display, r.line))
                .chain([inspect])
                .collect(),
            HeadingLookupError::Ambiguous { candidates, .. } => {
                let mut lines: Vec<String> = candidates
                    .iter()
                    .map(|r| format!("Matching heading: '{}' at line {}", r.display, r.line))
                    .collect();
                if Self::level_tells_apart(candidates) {
                    lines.push(format!(
                        "Add the level to the query to pick one: {}",
                        candidates
                            .iter()
                            .map(|r| format!("'{}'", r.display))
                            .collect::<Vec<_>>()
                            .join(" or ")
                    ));
                } else {
                    lines.push(
                        "Use a `lines` target with the line numbers above to pick one".to_string(),
                    );
                }
                lines
            }
        }
    }
}

impl fmt::Display for HeadingLookupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HeadingLookupError::Invalid { query, reason } => {
                write!(f, "Cannot look up heading '{}': {reason}.", brief(query))
            }
            HeadingLookupError::NotFound { query, nearest } => {
                write!(
                    f,
                    "No heading matches '{}': headings match on their exact text, case \
                     included.",
                    query.trim()
                )?;
                if let Some(first) = nearest.first() {
                    write!(f, " Closest: {}.", list_refs(std::slice::from_ref(first)))?;
                }
                Ok(())
            }
            HeadingLookupError::Ambiguous { query, candidates } => {
                write!(
                    f,
                    "Heading '{}' is ambiguous: {} headings match: {}. ",
                    query.trim(),
                    candidates.len(),
                    list_refs(candidates)
                )?;
                if Self::level_tells_apart(candidates) {
                    write!(
                        f,
                        "Add the level (the number of '#') to the query to pick one."
                    )
                } else {
                    write!(
                        f,
                        "The level does not tell them apart; use a `lines` target with one \
                         of these line numbers instead."
                    )
                }
            }
        }
    }
}

impl std::error::Error for HeadingLookupError {}

#[cfg(test)]
mod tests {
    use super::super::parse;
    use super::*;

    const DOC: &str = "\
# Guide

## Installation

### Setup

## Usage

### Setup

## Title {#custom}

## Configuration Options
";

    fn found(query: &str) -> usize {
        find_heading(&parse(DOC), query).unwrap().line
    }

    fn error(query: &str) -> HeadingLookupError {
        find_heading(&parse(DOC), query).unwrap_err()
    }

    fn r(display: &str, line: usize) -> HeadingRef {
        HeadingRef {
            display: display.to_string(),
            line,
        }
    }

    #[test]
    fn finds_by_text_with_or_without_level() {
        assert_eq!(found("## Installation"), 3);
        assert_eq!(found("Installation"), 3);
        assert_eq!(found("  ##   Installation  "), 3);
        assert_eq!(found("## Installation ##"), 3);
        assert_eq!(found("# Guide"), 1);
        assert_eq!(found("Configuration   Options"), 13);
    }

    #[test]
    fn explicit_ids() {
        assert_eq!(found("## Title {#custom}"), 11);
        assert_eq!(found("Title"), 11);
        assert_eq!(found("# Title {#custom}"), 11);
        assert_eq!(
            error("## Title {#other}"),
            HeadingLookupError::NotFound {
                query: "## Title {#other}".into(),
                nearest: vec![r("## Title", 11)],
            }
        );
    }

    #[test]
    fn ambiguous_when_the_level_would_not_help() {
        let err = error("Setup");
        assert_eq!(
            err,
            HeadingLookupError::Ambiguous {
                query: "Setup".into(),
                candidates: vec![r("### Setup", 5), r("### Setup", 9)],
            }
        );
        assert_eq!(
            err.to_string(),
            "Heading 'Setup' is ambiguous: 2 headings match: '### Setup' (line 5), \
             '### Setup' (line 9). The level does not tell them apart; use a `lines` \
             target with one of these line numbers instead."
        );
        assert_eq!(
            err.suggestions(),
            [
                "Matching heading: '### Setup' at line 5",
                "Matching heading: '### Setup' at line 9",
                "Use a `lines` target with the line numbers above to pick one",
            ]
        );
    }

    #[test]
    fn ambiguous_when_the_level_would_help() {
        let outline = parse("## Setup\n\n### Setup\n");
        let err = find_heading(&outline, "Setup").unwrap_err();
        assert_eq!(
            err.to_string(),
            "Heading 'Setup' is ambiguous: 2 headings match: '## Setup' (line 1), \
             '### Setup' (line 3). Add the level (the number of '#') to the query to pick one."
        );
        assert_eq!(
            err.suggestions().last().unwrap(),
            "Add the level to the query to pick one: '## Setup' or '### Setup'"
        );
        assert_eq!(find_heading(&outline, "### Setup").unwrap().line, 3);
    }

    #[test]
    fn another_level_is_found_by_text_with_a_note() {
        let outline = parse(DOC);
        let found = find_heading_match(&outline, "# Installation").unwrap();
        assert_eq!((found.heading.line, found.other_level), (3, true));
        assert_eq!(
            found.note("# Installation").unwrap(),
            "'# Installation' matched '## Installation' (line 3) by its text; the heading's \
             level is 2, not 1"
        );
        let exact = find_heading_match(&outline, "## Installation").unwrap();
        assert_eq!(
            (
                exact.heading.line,
                exact.other_level,
                exact.note("## Installation")
            ),
            (3, false, None)
        );
        // Two `### Setup` and no `## Setup`: still ambiguous.
        assert_eq!(
            error("## Setup"),
            HeadingLookupError::Ambiguous {
                query: "## Setup".into(),
                candidates: vec![r("### Setup", 5), r("### Setup", 9)],
            }
        );
    }

    #[test]
    fn not_found_puts_the_same_text_in_another_case_first() {
        let err = error("# installation");
        assert_eq!(
            err,
            HeadingLookupError::NotFound {
                query: "# installation".into(),
                nearest: vec![r("## Installation", 3)],
            }
        );
        assert_eq!(
            err.to_string(),
            "No heading matches '# installation': headings match on their exact text, case \
             included. Closest: '## Installation' (line 3)."
        );
        assert_eq!(
            err.suggestions(),
            [
                "Similar heading found: '## Installation' at line 3",
                "Use TextInspect to see all headings in the document",
            ]
        );
    }

    #[test]
    fn not_found_ranks_case_then_similarity() {
        let outline =
            parse("# Install\n# installation\n# Instalation Guide\n# Installer\n# Other\n");
        let err = find_heading(&outline, "Installation").unwrap_err();
        assert_eq!(
            err,
            HeadingLookupError::NotFound {
                query: "Installation".into(),
                nearest: vec![
                    r("# installation", 2),
                    r("# Install", 1),
                    r("# Instalation Guide", 3),
                ],
            }
        );
        let err = find_heading(&outline, "Zebra crossing").unwrap_err();
        assert_eq!(
            err.suggestions(),
            ["Use TextInspect to see all headings in the document"]
        );
        assert_eq!(
            err.to_string(),
            "No heading matches 'Zebra crossing': headings match on their exact text, case \
             included."
        );
    }

    #[test]
    fn matching_is_case_sensitive() {
        assert!(matches!(
            error("installation"),
            HeadingLookupError::NotFound { .. }
        ));
    }

    #[test]
    fn invalid_queries() {
        assert_eq!(
            error("   ").to_string(),
            "Cannot look up heading '   ': the query is empty; give the heading's text, e.g. \
             '## Setup'."
        );
        assert_eq!(
            error("####### Deep").to_string(),
            "Cannot look up heading '####### Deep': it starts with 7 '#' but a heading has at \
             most 6 (######)."
        );
        assert_eq!(
            error("##").to_string(),
            "Cannot look up heading '##': it has no heading text after the '#' marker."
        );
        assert_eq!(
            error("##").suggestions(),
            ["Use TextInspect to see all headings in the document"]
        );
    }

    #[test]
    fn hash_without_space_is_text() {
        let outline = parse("# #5 bolts\n## C#\n");
        assert_eq!(find_heading(&outline, "#5 bolts").unwrap().line, 1);
        assert_eq!(find_heading(&outline, "## C#").unwrap().line, 2);
    }

    #[test]
    fn an_outline_name_never_finds_only_another_heading() {
        // A setext heading keeps a trailing ` #`, and an id followed by a
        // character other than a space or tab is text. Their outline names
        // read as another heading's once closing hashes or the id are taken
        // off; they must not find that heading alone, which would edit it
        // instead. Both readings match, so the lookup refuses as ambiguous.
        let outline = parse("Plan #\n------\n\n## Plan\n");
        assert_eq!(outline.headings[0].display(), "## Plan #");
        assert_eq!(
            find_heading(&outline, "## Plan #").unwrap_err(),
            HeadingLookupError::Ambiguous {
                query: "## Plan #".into(),
                candidates: vec![r("## Plan #", 1), r("## Plan", 4)],
            }
        );
        assert_eq!(find_heading(&outline, "## Plan").unwrap().line, 4);
        let alone = parse("Plan #\n------\n");
        assert_eq!(find_heading(&alone, "## Plan #").unwrap().line, 1);

        // A heading of nothing but `#`s (the last one a closing sequence).
        let hashes = parse("### #### #\n");
        assert_eq!(hashes.headings[0].display(), "### ####");
        assert_eq!(find_heading(&hashes, "### ####").unwrap().line, 1);

        let outline = parse("## Plan {#plan}\r\r\n\n## Plan {#plan}\n");
        assert_eq!(outline.headings[0].display(), "## Plan {#plan}\r");
        assert_eq!(
            find_heading(&outline, "## Plan {#plan}\r").unwrap_err(),
            HeadingLookupError::Ambiguous {
                query: "## Plan {#plan}\r".into(),
                candidates: vec![r("## Plan {#plan}\r", 1), r("## Plan", 3)],
            }
        );
    }

    #[test]
    fn setext_headings_are_found_by_level() {
        let outline = parse("Title\n=====\n\nPart\n----\n");
        assert_eq!(find_heading(&outline, "# Title").unwrap().line, 1);
        assert_eq!(find_heading(&outline, "## Part").unwrap().line, 4);
    }
}
