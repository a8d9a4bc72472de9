//! Finding the one INI section an agent means: `[database]` or `database`.
//!
//! Matching is exact on the name, case included, after trimming; with
//! brackets in the query, `[name]` and `[[name]]` must match the marker's
//! kind too. Anything but exactly one match is an error that says why and
//! what to try next.

use std::fmt;

use schemars::JsonSchema;
use serde::Serialize;

use super::PlainOutline;
use super::ini_sections::IniSection;
use crate::text::excerpt::brief;

/// Suggestions with a lower similarity than this are not offered.
const MIN_SIMILARITY: f64 = 0.5;

/// How many similar sections a "not found" error suggests at most.
const MAX_NEAREST: usize = 3;

/// A section named in an error: its marker and line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SectionRef {
    /// The marker as written, e.g. `[database]`.
    pub marker: String,
    /// Its line.
    pub line: usize,
}

impl SectionRef {
    /// The reference to `section`.
    fn to(section: &IniSection) -> SectionRef {
        SectionRef {
            marker: section.marker.clone(),
            line: section.line,
        }
    }
}

/// Why a section query did not name exactly one section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SectionLookupError {
    /// The query cannot name any section.
    Invalid {
        /// The query as sent.
        query: String,
        /// What is wrong with it.
        reason: String,
    },
    /// No section matches.
    NotFound {
        /// The query as sent.
        query: String,
        /// Up to 3 similar sections, most similar first.
        nearest: Vec<SectionRef>,
    },
    /// Several sections match (repeated INI sections, TOML `[[arrays]]`).
    Ambiguous {
        /// The query as sent.
        query: String,
        /// Every matching section, in order.
        candidates: Vec<SectionRef>,
    },
}

/// A query taken apart: the bracket depth if given, and the name.
fn parse_query(query: &str) -> Result<(Option<usize>, &str), String> {
    let trimmed = query.trim();
    let (depth, name) = if let Some(inner) = trimmed
        .strip_prefix("[[")
        .and_then(|rest| rest.strip_suffix("]]"))
    {
        (Some(2), inner)
    } else if let Some(inner) = trimmed
        .strip_prefix('[')
        .and_then(|rest| rest.strip_suffix(']'))
    {
        (Some(1), inner)
    } else {
        (None, trimmed)
    };
    let name = name.trim();
    if name.is_empty() {
        return Err("it has no section name; give it as '[database]' or 'database'".to_string());
    }
    Ok((depth, name))
}

/// Finds the one section that `query` names.
pub fn find_section<'a>(
    outline: &'a PlainOutline,
    query: &str,
) -> Result<&'a IniSection, SectionLookupError> {
    let (depth, name) = parse_query(query).map_err(|reason| SectionLookupError::Invalid {
        query: query.to_string(),
        reason,
    })?;
    let matches: Vec<&IniSection> = outline
        .sections
        .iter()
        .filter(|s| s.name == name && depth.is_none_or(|d| s.depth() == d))
        .collect();
    match matches.as_slice() {
        [one] => Ok(one),
        [] => Err(SectionLookupError::NotFound {
            query: query.to_string(),
            nearest: nearest(&outline.sections, name),
        }),
        several => Err(SectionLookupError::Ambiguous {
            query: query.to_string(),
            candidates: several.iter().map(|s| SectionRef::to(s)).collect(),
        }),
    }
}

/// The sections most like `wanted`: the same name with other brackets first,
/// then the same name in another case, then names that contain it or are
/// contained in it, then by edit-distance similarity.
fn nearest(sections: &[IniSection], wanted: &str) -> Vec<SectionRef> {
    let wanted_lower = wanted.to_lowercase();
    let mut ranked: Vec<(u8, f64, &IniSection)> = sections
        .iter()
        .filter_map(|section| {
            let lower = section.name.to_lowercase();
            let similarity = rapidfuzz::distance::levenshtein::normalized_similarity(
                lower.chars(),
                wanted_lower.chars(),
            );
            let tier = if section.name == wanted {
                0
            } else if lower == wanted_lower {
                1
            } else if lower.contains(&wanted_lower) || wanted_lower.contains(&lower) {
                2
            } else if similarity >= MIN_SIMILARITY {
                3
            } else {
                return None;
            };
            Some((tier, similarity, section))
        })
        .collect();
    ranked.sort_by(|a, b| {
        a.0.cmp(&b.0)
            .then(b.1.total_cmp(&a.1))
            .then(a.2.line.cmp(&b.2.line))
    });
    let mut refs: Vec<SectionRef> = Vec::new();
    for (_, _, section) in ranked {
        // a repeated section is suggested once, at its first line
        if refs.len() < MAX_NEAREST && !refs.iter().any(|r| r.marker == section.marker) {
            refs.push(SectionRef::to(section));
        }
    }
    refs
}

/// `'[a]' (line 3), '[a]' (line 9)`.
fn list_refs(refs: &[SectionRef]) -> String {
    refs.iter()
        .map(|r| format!("'{}' (line {})", r.marker, r.line))
        .collect::<Vec<_>>()
        .join(", ")
}

impl SectionLookupError {
    /// Lines of advice for the agent, one suggestion each.
    pub fn suggestions(&self) -> Vec<String> {
        let inspect = "Use TextInspect to see all sections in the file".to_string();
        match self {
            SectionLookupError::Invalid { .. } => vec![inspect],
            SectionLookupError::NotFound { nearest, .. } => nearest
                .iter()
                .map(|r| format!("Similar section found: '{}' at line {}", r.marker, r.line))
                .chain([inspect])
                .collect(),
            SectionLookupError::Ambiguous { candidates, .. } => candidates
                .iter()
                .map(|r| format!("Matching section: '{}' at line {}", r.marker, r.line))
                .chain(["Use a `lines` target with the line numbers above to pick one".to_string()])
                .collect(),
        }
    }
}

impl fmt::Display for SectionLookupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SectionLookupError::Invalid { query, reason } => {
                write!(f, "Cannot look up section '{}': {reason}.", brief(query))
            }
            SectionLookupError::NotFound { query, nearest } => {
                write!(
                    f,
                    "No section matches '{}': sections match on their exact name (case \
                     included).",
                    query.trim()
                )?;
                if let Some(first) = nearest.first() {
                    write!(f, " Closest: {}.", list_refs(std::slice::from_ref(first)))?;
                }
                Ok(())
            }
            SectionLookupError::Ambiguous { query, candidates } => write!(
                f,
                "Section '{}' is ambiguous: {} sections match: {}. Use a `lines` target with \
                 one of these line numbers instead.",
                query.trim(),
                candidates.len(),
                list_refs(candidates)
            ),
        }
    }
}

impl std::error::Error for SectionLookupError {}

#[cfg(test)]
mod tests {
    use super::super::parse;
    use super::*;

    const CONFIG: &str = "\
[database]
host = db

[Cache]
size = 1

[[servers]]
name = a
[[servers]]
name = b
[logging]
";

    fn r(marker: &str, line: usize) -> SectionRef {
        SectionRef {
            marker: marker.to_string(),
            line,
        }
    }

    fn error(query: &str) -> SectionLookupError {
        find_section(&parse(CONFIG), query).unwrap_err()
    }

    #[test]
    fn finds_with_or_without_brackets() {
        let outline = parse(CONFIG);
        let found = find_section(&outline, "[database]").unwrap();
        assert_eq!((found.line, found.end_line), (1, 3));
        assert_eq!(find_section(&outline, " database ").unwrap().line, 1);
        assert_eq!(find_section(&outline, "[ database ]").unwrap().line, 1);
        assert_eq!(find_section(&outline, "logging").unwrap().end_line, 11);
    }

    #[test]
    fn not_found_suggests_similar_names() {
        let err = error("cache");
        assert_eq!(
            err,
            SectionLookupError::NotFound {
                query: "cache".into(),
                nearest: vec![r("[Cache]", 4)],
            }
        );
        assert_eq!(
            err.to_string(),
            "No section matches 'cache': sections match on their exact name (case included). \
             Closest: '[Cache]' (line 4)."
        );
        assert_eq!(
            err.suggestions(),
            [
                "Similar section found: '[Cache]' at line 4",
                "Use TextInspect to see all sections in the file",
            ]
        );
        assert_eq!(
            error("databse").suggestions()[0],
            "Similar section found: '[database]' at line 1"
        );
    }

    #[test]
    fn brackets_must_match_when_given() {
        let err = error("[servers]");
        assert_eq!(
            err,
            SectionLookupError::NotFound {
                query: "[servers]".into(),
                nearest: vec![r("[[servers]]", 7)],
            }
        );
    }

    #[test]
    fn repeated_sections_are_ambiguous() {
        let err = error("servers");
        assert_eq!(
            err,
            SectionLookupError::Ambiguous {
                query: "servers".into(),
                candidates: vec![r("[[servers]]", 7), r("[[servers]]", 9)],
            }
        );
        assert_eq!(
            err.to_string(),
            "Section 'servers' is ambiguous: 2 sections match: '[[servers]]' (line 7), \
             '[[servers]]' (line 9). Use a `lines` target with one of these line numbers instead."
        );
        assert_eq!(
            err.suggestions(),
            [
                "Matching section: '[[servers]]' at line 7",
                "Matching section: '[[servers]]' at line 9",
                "Use a `lines` target with the line numbers above to pick one",
            ]
        );
    }

    #[test]
    fn invalid_and_unrelated_queries() {
        assert_eq!(
            error("[]").to_string(),
            "Cannot look up section '[]': it has no section name; give it as '[database]' or \
             'database'."
        );
        assert_eq!(
            error("zzz").suggestions(),
            ["Use TextInspect to see all sections in the file"]
        );
    }
}
