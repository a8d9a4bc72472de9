//! What the matcher decides: the edits to make, or why it refuses.

use std::fmt;
use std::ops::Range;

use serde::Serialize;

/// How many matches an edit is meant to change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Strategy {
    /// Exactly one place; several equally good places are refused as ambiguous.
    #[default]
    SingleMatch,
    /// Every place that holds the search block.
    ReplaceAll,
}

/// Lines `start..=end` of a text, 1-based.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct LineRange {
    /// First line.
    pub start: usize,
    /// Last line (inclusive).
    pub end: usize,
}

impl fmt::Display for LineRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.start == self.end {
            write!(f, "{}", self.start)
        } else {
            write!(f, "{}-{}", self.start, self.end)
        }
    }
}

/// Which kind of match was made, from the strictest to the most tolerant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchKind {
    /// Byte for byte.
    Exact,
    /// Equal apart from line endings (LF vs CRLF).
    LineEndings,
    /// Equal apart from trailing, internal or blank-line whitespace.
    Whitespace,
    /// Equal apart from indentation (shifted, other unit, tabs vs spaces).
    Indentation,
    /// Equal once look-alike characters (quotes, dashes, spaces, `…`) are folded.
    Unicode,
    /// Close but not equal: typos, a changed or missing line.
    Fuzzy,
    /// The search elided a middle part with a marker such as `// ...`.
    Elision,
}

impl MatchKind {
    /// The kind's name as responses spell it.
    pub fn as_str(self) -> &'static str {
        match self {
            MatchKind::Exact => "exact",
            MatchKind::LineEndings => "line_endings",
            MatchKind::Whitespace => "whitespace",
            MatchKind::Indentation => "indentation",
            MatchKind::Unicode => "unicode",
            MatchKind::Fuzzy => "fuzzy",
            MatchKind::Elision => "elision",
        }
    }
}

/// One difference between the search and the file that the match tolerated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Adjustment {
    /// Line endings differ.
    LineEndings,
    /// Trailing or internal whitespace differs.
    Whitespace,
    /// Blank lines are missing or extra.
    BlankLines,
    /// Indentation differs.
    Indentation,
    /// Look-alike characters differ.
    Unicode,
    /// Text differs (typos, changed, missing or extra lines).
    Fuzzy,
    /// A marker stood for the middle of the block.
    Elision,
}

impl Adjustment {
    /// The adjustment's name in responses.
    pub fn as_str(self) -> &'static str {
        match self {
            Adjustment::LineEndings => "line_endings",
            Adjustment::Whitespace => "whitespace",
            Adjustment::BlankLines => "blank_lines",
            Adjustment::Indentation => "indentation",
            Adjustment::Unicode => "unicode",
            Adjustment::Fuzzy => "fuzzy",
            Adjustment::Elision => "elision",
        }
    }

    /// The kind of match a set of adjustments amounts to.
    pub fn kind_of(adjustments: &[Adjustment]) -> MatchKind {
        let has = |a| adjustments.contains(&a);
        if has(Adjustment::Elision) {
            MatchKind::Elision
        } else if has(Adjustment::Fuzzy) {
            MatchKind::Fuzzy
        } else if has(Adjustment::Unicode) {
            MatchKind::Unicode
        } else if has(Adjustment::Indentation) {
            MatchKind::Indentation
        } else if has(Adjustment::Whitespace) || has(Adjustment::BlankLines) {
            MatchKind::Whitespace
        } else if has(Adjustment::LineEndings) {
            MatchKind::LineEndings
        } else {
            MatchKind::Exact
        }
    }
}

/// Replace the bytes `range` of the original text with `text`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Splice {
    /// Byte range in the original text.
    pub range: Range<usize>,
    /// What goes there instead.
    pub text: String,
}

impl Splice {
    /// `original` with the splice made.
    pub fn applied_to(&self, original: &str) -> String {
        let r = &self.range;
        format!(
            "{}{}{}",
            &original[..r.start],
            self.text,
            &original[r.end..]
        )
    }
}

/// One match and what it will become.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlannedEdit {
    /// The kind of match.
    pub kind: MatchKind,
    /// Every tolerated difference (empty for an exact match).
    pub adjustments: Vec<Adjustment>,
    /// Similarity 0–100; 100 only for a match identical up to line endings.
    pub score: f64,
    /// The matched lines of the original text.
    pub lines: LineRange,
    /// The original text of those lines, endings included.
    pub before: String,
    /// What those lines become, endings included (empty when they are removed).
    pub after: String,
    /// The bytes to replace; all bytes outside it stay as they are.
    pub splice: Splice,
    /// Unified diff of `before` to `after`, numbered as in the file.
    pub diff: String,
}

/// A place that matched, with its score.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Candidate {
    /// The lines that matched.
    pub lines: LineRange,
    /// Similarity 0–100.
    pub score: f64,
    /// How it matched.
    pub kind: MatchKind,
}

/// The edits to make, in text order, never overlapping.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Plan {
    /// One entry per match changed.
    pub edits: Vec<PlannedEdit>,
    /// With `ReplaceAll`: places that cleared the threshold but hold different
    /// text than the matches and were left alone.
    pub near_misses: Vec<Candidate>,
    /// Traces of how the caller's texts reached us that were undone in both
    /// before matching (`"line numbers"`, `"JSON escapes"`, `"HTML entities"`,
    /// `"invisible characters"`, `"trailing whitespace"`).
    pub normalized: Vec<&'static str>,
}

impl Plan {
    /// The byte splices that carry the plan out, in order.
    pub fn splices(&self) -> impl Iterator<Item = &Splice> {
        self.edits.iter().map(|e| &e.splice)
    }

    /// The text after the plan is applied to `original` (the text it was made
    /// from).
    pub fn apply_to(&self, original: &str) -> String {
        let mut out = String::with_capacity(original.len());
        let mut at = 0;
        for s in self.splices() {
            out.push_str(&original[at..s.range.start]);
            out.push_str(&s.text);
            at = s.range.end;
        }
        out.push_str(&original[at..]);
        out
    }

    /// Whether applying the plan leaves `original` unchanged.
    pub fn changes_nothing(&self, original: &str) -> bool {
        self.splices().all(|s| original[s.range.clone()] == s.text)
    }
}
