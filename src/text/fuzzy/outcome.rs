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
    /// before matching (`"line numbers"`, `"JSON escapes"`, `"HTML entities"`).
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

/// How the file differs from what the caller saw where the edit lands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ConflictReason {
    /// A line the edit changes reads differently in the file (more than a
    /// typo or two apart).
    LineDiffers,
    /// A line the edit changes is not in the file; other lines stand there.
    LineMissing,
    /// The file has a line that `search_context` lacks among the lines the
    /// edit replaces or removes.
    ExtraLine,
}

/// Why no edit was made. The `Display` text is written for the agent that
/// sent the edit: what failed, why, and what to send next.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "refusal", rename_all = "snake_case")]
pub enum Refusal {
    /// `search_context` is empty or whitespace.
    EmptySearch,
    /// The threshold is not a number between 0 and 1.
    InvalidThreshold {
        /// The threshold given.
        threshold: f64,
    },
    /// Several places match and nothing tells them apart.
    Ambiguous {
        /// Every matching place.
        candidates: Vec<Candidate>,
    },
    /// Under `replace_all`, several places resemble the search but hold
    /// different text, so no one change fits them all.
    Unlike {
        /// Every resembling place.
        candidates: Vec<Candidate>,
    },
    /// No place matches well enough.
    NotFound {
        /// The closest place, if anything resembles the search.
        best: Option<Candidate>,
        /// Unified diff from `search_context` to that place's text.
        diff: String,
        /// The threshold, 0–100.
        threshold: f64,
        /// Other places exactly as close as `best` (the diff shows `best`).
        #[serde(skip_serializing_if = "Vec::is_empty")]
        equally_close: Vec<Candidate>,
    },
    /// The block matched, but where the edit lands the file is not what the
    /// caller saw.
    Conflict {
        /// The matched block.
        lines: LineRange,
        /// The line of `search_context` (1-based) where the change is.
        search_line: usize,
        /// The file line (1-based) that is not what the caller saw.
        file_line: usize,
        /// What is different.
        reason: ConflictReason,
        /// Unified diff from `search_context` to the block's text.
        diff: String,
    },
    /// The closest block differs from `search_context` in a line that reads
    /// exactly like another line of the file: the caller copied it from
    /// there, so the block may be there instead.
    Elsewhere {
        /// The closest block.
        best: Candidate,
        /// The line of `search_context` (1-based) that is not a line of that
        /// block as it is (it differs there, or has no line there).
        search_line: usize,
        /// The file lines (1-based) that read exactly like it.
        file_lines: Vec<usize>,
        /// Unified diff from `search_context` to the closest block's text.
        diff: String,
    },
    /// The closest block differs from `search_context`, in a line the edit
    /// changes, by a number, an operator or a name that `new_content` keeps:
    /// not a typo, so probably another place or a changed file.
    NotATypo {
        /// The closest block.
        best: Candidate,
        /// The line of `search_context` (1-based) that differs.
        search_line: usize,
        /// The file line (1-based) it was matched with.
        file_line: usize,
        /// The token as `search_context` has it.
        search_token: String,
        /// The token as the file has it.
        file_token: String,
        /// Unified diff from `search_context` to the closest block's text.
        diff: String,
    },
    /// `new_content` has an elision marker that stands for nothing.
    MarkerInNewContent {
        /// Line of `new_content` (1-based).
        line: usize,
    },
    /// An elision marker of `search_context` stands for file lines the caller
    /// never saw, and `new_content` drops or replaces it: those lines would be
    /// deleted unseen.
    HiddenLinesDropped {
        /// Line of `search_context` (1-based) holding the marker.
        search_line: usize,
        /// The file lines it stands for.
        lines: LineRange,
    },
    /// `search_context` has the first and the last lines of a block but
    /// leaves out lines between them, and `new_content` does not write those
    /// lines out: whether they stay, and where new lines go, is unclear.
    LinesLeftOut {
        /// The block, from the first line `search_context` has to its last.
        lines: LineRange,
        /// The file lines `search_context` leaves out.
        left_out: LineRange,
    },
    /// `new_content` adds lines to `search_context`, and the file already has
    /// them right there: the same edit was made before.
    AlreadyApplied {
        /// Where `new_content` already stands.
        lines: LineRange,
    },
    /// A tolerant match would write a line right next to the file's own copy
    /// of it, which `new_content` has only once: the block on disk reaches
    /// further than the match (or starts elsewhere).
    WrittenTwice {
        /// The block the match found.
        lines: LineRange,
        /// The line that would stand twice (whitespace collapsed).
        line: String,
        /// The file line holding its copy.
        copy_at: usize,
    },
    /// A tolerant match would remove one of several copies of a line that
    /// neither `search_context` nor `new_content` removes: among repeated
    /// lines it paired them one line off.
    CopyLost {
        /// The block the match found.
        lines: LineRange,
        /// The line that would lose a copy (whitespace collapsed).
        line: String,
        /// A file line holding a copy.
        copy_at: usize,
    },
}

impl Refusal {
    /// Short suggestions for the agent's next call.
    pub fn suggestions(&self) -> Vec<String> {
        let s: &[&str] = match self {
            Refusal::EmptySearch => &[
                "Copy the lines to replace from the file into search_context.",
                "Use strategy \"overwrite_file\" to replace the whole file.",
            ],
            Refusal::InvalidThreshold { .. } => {
                &["Pass a threshold between 0.0 and 1.0, or leave it out for 0.9."]
            }
            Refusal::Unlike { .. } => &[
                "Copy the exact text of one place into search_context and change the places one call at a time.",
                "Or correct search_context to the text every place has, for replace_all to change them together.",
            ],
            Refusal::Ambiguous { .. } => &[
                "Add lines around the change that occur only at the intended place.",
                "Use strategy \"replace_all\" to change every place.",
            ],
            Refusal::NotFound { best: Some(_), .. } => &[
                "Correct search_context after the diff, which shows the closest block in the file.",
                "Read those lines again and copy them exactly.",
            ],
            Refusal::NotFound { best: None, .. } => {
                &["Read the file again and copy search_context from it."]
            }
            Refusal::Conflict { .. } => {
                &["Read the matched lines again and retry with their current text."]
            }
            Refusal::Elsewhere { .. } => &[
                "Add lines around the change that occur only at the place you mean.",
                "Or correct search_context after the diff if the closest block is the one.",
            ],
            Refusal::NotATypo { .. } => &[
                "Read the line again and copy it as the file has it, if that is the place you mean.",
                "Otherwise add lines that occur only at the intended place.",
            ],
            Refusal::MarkerInNewContent { .. } => &[
                "Write the elided lines out in full in new_content.",
                "Or keep the marker exactly where search_context has one.",
                "To write a literal \"...\" line, use TextReplace or TextPatch, which take text as it is.",
            ],
            Refusal::CopyLost { .. } => &[
                "Copy the repeated line exactly as the file has it (TextRead those lines), in search_context and new_content alike.",
                "Or send only the lines you change, with one or two unchanged lines around them.",
            ],
            Refusal::WrittenTwice { .. } => &[
                "Extend search_context to the copy's line, copied exactly from a fresh read (TextRead with those lines).",
                "Or send only the lines you change, with one or two unchanged lines around them.",
            ],
            Refusal::AlreadyApplied { .. } => &[
                "Read those lines: the change is probably in place already.",
                "If the text is meant to be there twice, add the lines that follow it to search_context.",
            ],
            Refusal::HiddenLinesDropped { .. } => &[
                "Keep the marker in new_content where the hidden lines stay.",
                "To delete or rewrite those lines, write them out in search_context.",
            ],
            Refusal::LinesLeftOut { .. } => &[
                "Include the left-out lines in search_context.",
                "Or write them out in new_content, as they are or changed.",
            ],
        };
        s.iter().map(|x| x.to_string()).collect()
    }
}

/// How many places a message lists before it counts the rest.
const LISTED: usize = 20;

fn list(candidates: &[Candidate]) -> String {
    let mut out = candidates
        .iter()
        .take(LISTED)
        .map(|c| {
            format!(
                "lines {} (score {:.1}, {})",
                c.lines,
                c.score,
                c.kind.as_str()
            )
        })
        .collect::<Vec<_>>()
        .join("; ");
    if candidates.len() > LISTED {
        out.push_str(&format!(" and {} more", candidates.len() - LISTED));
    }
    out
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::EmptySearch => write!(
                f,
                "search_context is empty or only whitespace, so there is nothing to find. Pass the \
                 lines to replace (a few lines around the change are enough), or use strategy \
                 \"overwrite_file\" to replace the whole file."
            ),
            Refusal::InvalidThreshold { threshold } => write!(
                f,
                "threshold {threshold} is not between 0.0 and 1.0. Pass a similarity in that range \
                 (default 0.9); 1.0 accepts only exact matches."
            ),
            Refusal::Ambiguous { candidates } => write!(
                f,
                "search_context matches {} places about equally well: {}. Nothing was changed. Add \
                 surrounding lines that occur only at the place you mean, or use strategy \
                 \"replace_all\" to change every one.",
                candidates.len(),
                list(candidates)
            ),
            Refusal::Unlike { candidates } => write!(
                f,
                "search_context does not occur exactly; {} places resemble it but differ from \
                 each other: {}. replace_all changes several places only when they hold the same \
                 text, so nothing was changed.",
                candidates.len(),
                list(candidates)
            ),
            Refusal::NotFound {
                best: Some(best),
                diff,
                threshold,
                equally_close,
            } => {
                write!(
                    f,
                    "search_context was not found. The closest block is lines {} with score {:.1}, \
                     below the threshold of {:.1}",
                    best.lines, best.score, threshold
                )?;
                if !equally_close.is_empty() {
                    write!(f, "; as close: {}", list(equally_close))?;
                }
                write!(
                    f,
                    ". Nothing was changed. Correct search_context to match the file (the diff \
                     goes from search_context to the file's lines) and retry.\n{diff}"
                )
            }
            Refusal::NotFound { best: None, .. } => write!(
                f,
                "search_context was not found and no block of the file resembles it. Nothing was \
                 changed. Read the file again and copy search_context from it."
            ),
            Refusal::Conflict {
                lines,
                search_line,
                file_line,
                reason,
                diff,
            } => {
                write!(f, "search_context matches lines {lines}, but ")?;
                match reason {
                    ConflictReason::LineDiffers => write!(
                        f,
                        "line {search_line} of search_context, which new_content changes, reads \
                         differently in the file (line {file_line})"
                    )?,
                    ConflictReason::LineMissing => write!(
                        f,
                        "line {search_line} of search_context, which new_content changes, is not \
                         in the file (line {file_line} stands there)"
                    )?,
                    ConflictReason::ExtraLine => write!(
                        f,
                        "the file has a line search_context lacks (line {file_line}) among the \
                         lines new_content replaces, from line {search_line} of search_context on"
                    )?,
                }
                write!(
                    f,
                    ": the file changed since it was read. Nothing was changed. Read lines {lines} \
                     again and retry with their current text.\n{diff}"
                )
            }
            Refusal::Elsewhere {
                best,
                search_line,
                file_lines,
                diff,
            } => {
                let at: Vec<String> = file_lines
                    .iter()
                    .take(LISTED)
                    .map(|l| l.to_string())
                    .collect();
                write!(
                    f,
                    "search_context comes closest to lines {} (score {:.1}), but line {search_line} \
                     of search_context is not a line of that block as it is, and reads exactly \
                     like line {} of the file, \
                     so the block may be there instead. Nothing was changed. Add lines that occur \
                     only at the place you mean, or correct search_context (the diff goes from \
                     search_context to lines {}).\n{diff}",
                    best.lines,
                    best.score,
                    at.join(", "),
                    best.lines
                )
            }
            Refusal::MarkerInNewContent { line } => write!(
                f,
                "line {line} of new_content is an elision marker (like \"// ...\") that does not \
                 stand for a marker at the same place in search_context, so the lines it would \
                 hide are unknown. Nothing was changed. Write those lines out in full, or keep \
                 the marker exactly where search_context has one."
            ),
            Refusal::NotATypo {
                best,
                search_line,
                file_line,
                search_token,
                file_token,
                diff,
            } => write!(
                f,
                "search_context is closest to lines {} (score {:.1}), but line {search_line} of \
                 search_context, which new_content changes, has `{search_token}` where the file \
                 has `{file_token}` (line {file_line}). A different number, operator or name is \
                 not a typo: this is another place, or the file changed since it was read. \
                 Nothing was changed.\n{diff}",
                best.lines, best.score
            ),
            Refusal::WrittenTwice {
                lines,
                line,
                copy_at,
            } => write!(
                f,
                "search_context fits lines {lines} only loosely, and applying new_content there \
                 would put `{}` near its copy on line {copy_at}, where new_content has \
                 it once: the block probably reaches further on disk than the match, or is \
                 another one. Nothing was changed.",
                crate::text::excerpt::brief(line)
            ),
            Refusal::CopyLost {
                lines,
                line,
                copy_at,
            } => write!(
                f,
                "search_context fits lines {lines} only loosely, and applying new_content there \
                 would remove one of the copies of `{}` (one is on line {copy_at}), though \
                 neither search_context nor new_content removes it: among repeated lines the \
                 match probably paired them one line off. Nothing was changed.",
                crate::text::excerpt::brief(line)
            ),
            Refusal::AlreadyApplied { lines } => write!(
                f,
                "new_content is already in the file at lines {lines}, exactly where \
                 search_context matches: the edit looks made already (a repeated call?), and \
                 making it again would add its lines a second time. Nothing was changed."
            ),
            Refusal::LinesLeftOut { lines, left_out } => write!(
                f,
                "search_context fits lines {lines} only with lines {left_out} left out of it, and \
                 new_content does not write those lines out either, so it is unclear whether \
                 they stay and where new lines go. Nothing was changed. Include lines \
                 {left_out} in search_context, or write them out in new_content."
            ),
            Refusal::HiddenLinesDropped { search_line, lines } => write!(
                f,
                "line {search_line} of search_context is an elision marker standing for file \
                 lines {lines}, and new_content does not keep it, so those lines would be \
                 deleted without having been seen. Nothing was changed. Keep the marker in \
                 new_content where the lines stay, or write them out in search_context to \
                 change them."
            ),
        }
    }
}

impl std::error::Error for Refusal {}
