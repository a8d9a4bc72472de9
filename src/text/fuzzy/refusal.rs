//! Why no edit was made: a handful of kinds (not found, ambiguous, conflict,
//! unverified, and two kinds of bad argument), each with a detailed reason.
//! The `Display` text is written for the agent that sent the edit: what
//! failed, why, and what to send next.

use std::fmt;

use serde::Serialize;

use super::outcome::{Candidate, LineRange};
use crate::text::excerpt::brief;

/// Why no edit was made.
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
    /// No place holds the block the caller describes.
    NotFound {
        /// The closest place, if anything resembles the search.
        best: Option<Candidate>,
        /// Unified diff from `search_context` to that place's text.
        diff: String,
        /// The threshold, 0–100.
        threshold: f64,
        /// Other places exactly as close as `best`.
        #[serde(skip_serializing_if = "Vec::is_empty")]
        equally_close: Vec<Candidate>,
        /// Why the closest place is not it, beyond its score (boxed: the
        /// rarest part of a refusal need not size every result).
        #[serde(skip_serializing_if = "Option::is_none")]
        reason: Option<Box<Unfound>>,
    },
    /// Several places fit and nothing tells them apart.
    Ambiguous {
        /// Every place that fits.
        candidates: Vec<Candidate>,
        /// Under `replace_all`: the places hold different text, so no one
        /// change fits them all.
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        unlike: bool,
        /// The search's lines between its markers each have more copies in
        /// the file than are weighed: the places named are a sample, and the
        /// caller's block may be another.
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        crowded: bool,
    },
    /// The block was found, but where the edit lands the file is not what the
    /// caller saw, or the caller's texts disagree with each other.
    Conflict {
        /// The matched block.
        lines: LineRange,
        /// What is in the way.
        reason: ConflictReason,
        /// The line of `search_context` (1-based) where it is.
        #[serde(skip_serializing_if = "Option::is_none")]
        search_line: Option<usize>,
        /// The file line (1-based) where it is.
        #[serde(skip_serializing_if = "Option::is_none")]
        file_line: Option<usize>,
        /// Hidden file lines: the search lacks them, with or without a marker.
        #[serde(skip_serializing_if = "Option::is_none")]
        file_lines: Option<LineRange>,
        /// The line of `new_content` (1-based) where it is.
        #[serde(skip_serializing_if = "Option::is_none")]
        new_line: Option<usize>,
        /// Unified diff from `search_context` to the block's text.
        #[serde(skip_serializing_if = "String::is_empty")]
        diff: String,
    },
    /// The planned edit, read back, does not make the change the caller
    /// made from `search_context` to `new_content`.
    Unverified {
        /// The matched block.
        lines: LineRange,
        /// What the plan would do that the caller did not ask for.
        problem: String,
        /// Unified diff of the change the plan would make.
        diff: String,
    },
}

/// Why the closest place is not the block, beyond its score.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Unfound {
    /// Lines `new_content` keeps unchanged read differently in the file, or
    /// are not there: the caller is looking at another block, or another
    /// version of the file.
    KeptLinesDiffer {
        /// The lines: (line of `search_context`, file line it was paired
        /// with, if any), 1-based.
        lines: Vec<(usize, Option<usize>)>,
        /// What search_context has on such a line that the file still has
        /// elsewhere (a word, or the whole line just beside it): the file
        /// did not change the line away, so it is another block's.
        #[serde(skip_serializing_if = "Option::is_none")]
        still_in_file: Option<String>,
    },
    /// The words `search_context` misspells share one character change:
    /// the caller's texts went through a transformation, so the lines
    /// `new_content` adds carry it too.
    Transformed {
        /// The change, as `search -> file`.
        change: String,
        /// The words, as (in `search_context`, in the file).
        words: Vec<(String, String)>,
    },
    /// A trace of how the text reached us (line numbers, escapes) is on some
    /// lines of `search_context` and not on others.
    Inconsistent {
        /// What was seen.
        seen: String,
    },
}

/// What stands in the way of an edit at a place that was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ConflictReason {
    /// A line the edit changes reads differently in the file.
    LineDiffers,
    /// A line the edit changes is not in the file.
    LineMissing,
    /// The file has a line the search lacks among the lines the edit changes.
    ExtraLine,
    /// The edit adds a line beside a search line the file has in another
    /// order, so which side of it the new line goes is unclear.
    OutOfOrder,
    /// A marker of the search stands for lines `new_content` does not keep.
    HiddenLinesDropped,
    /// `new_content` writes a line a marker stands for as another line the
    /// file has elsewhere: the caller may remember another block.
    HiddenLineElsewhere,
    /// The search leaves lines out where `new_content` changes lines, and
    /// `new_content` does not write them out.
    LinesLeftOut,
    /// `new_content` is already in the file right where the search matches.
    AlreadyApplied,
    /// `new_content` has a marker that stands for nothing.
    MarkerInNewContent,
    /// `search_context` carries a trace (doubled escapes) that `new_content`
    /// does not carry the same way.
    NewContentUnlike,
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
            Refusal::Ambiguous { crowded: true, .. } => &[
                "Add a line to search_context that occurs only in the intended block, such as its name, in place of a marker.",
                "Or give the lines around the change without markers.",
            ],
            Refusal::Ambiguous { unlike: true, .. } => &[
                "Copy the exact text of one place into search_context and change the places one call at a time.",
                "Or correct search_context to the text every place has, for replace_all to change them together.",
            ],
            Refusal::Ambiguous { .. } => &[
                "Add lines around the change that occur only at the intended place.",
                "Use strategy \"replace_all\" to change every place.",
            ],
            Refusal::NotFound {
                reason: Some(r), ..
            } if matches!(**r, Unfound::Transformed { .. }) => &[
                "Copy search_context and new_content from the file as it is: every changed word shows the same character change, which new_content's new lines would carry into the file.",
            ],
            Refusal::NotFound {
                reason: Some(r), ..
            } if matches!(**r, Unfound::Inconsistent { .. }) => &[
                "Copy search_context and new_content as the file has them, without line numbers or escapes.",
            ],
            Refusal::NotFound { best: Some(_), .. } => &[
                "Correct search_context after the diff, which shows the closest block in the file.",
                "Read those lines again and copy them exactly.",
            ],
            Refusal::NotFound { best: None, .. } => {
                &["Read the file again and copy search_context from it."]
            }
            Refusal::Conflict { reason, .. } => match reason {
                ConflictReason::HiddenLinesDropped => &[
                    "Keep the marker in new_content where the hidden lines stay.",
                    "To delete or rewrite those lines, write them out in search_context.",
                ],
                ConflictReason::HiddenLineElsewhere => &[
                    "Read those lines again: the block may have changed since it was read, or be another one.",
                    "To change a line a marker stands for, write it out in search_context.",
                ],
                ConflictReason::LinesLeftOut => &[
                    "Include the left-out lines in search_context.",
                    "Or write them out in new_content, as they are or changed.",
                ],
                ConflictReason::AlreadyApplied => &[
                    "Read those lines: the change is probably in place already.",
                    "If the text is meant to be there twice, add the lines that follow it to search_context.",
                ],
                ConflictReason::MarkerInNewContent => &[
                    "Write the elided lines out in full in new_content.",
                    "Or keep the marker exactly where search_context has one.",
                    "To write a literal \"...\" line, use TextReplace or TextPatch, which take text as it is.",
                ],
                ConflictReason::OutOfOrder => &[
                    "Read those lines again and copy search_context in the order the file has them.",
                ],
                ConflictReason::NewContentUnlike => &[
                    "Send search_context and new_content as the file has them, escaped the same way.",
                ],
                _ => &["Read the matched lines again and retry with their current text."],
            },
            Refusal::Unverified { .. } => &[
                "Read the lines again (TextRead) and copy search_context exactly as the file has them.",
                "Or send only the lines you change, with one or two unchanged lines around them.",
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
            Refusal::Ambiguous {
                candidates,
                crowded: true,
                ..
            } => write!(
                f,
                "search_context's lines between its markers each occur in more places than \
                 are weighed, so which block it means is a guess; among the places weighed: {}. \
                 Nothing was changed. Add a line that occurs only in the block you mean.",
                list(candidates)
            ),
            Refusal::Ambiguous {
                candidates,
                unlike: false,
                ..
            } => write!(
                f,
                "search_context matches {} places about equally well: {}. Nothing was changed. Add \
                 surrounding lines that occur only at the place you mean, or use strategy \
                 \"replace_all\" to change every one.",
                candidates.len(),
                list(candidates)
            ),
            Refusal::Ambiguous {
                candidates,
                unlike: true,
                ..
            } => write!(
                f,
                "search_context does not occur exactly; {} places resemble it but differ from \
                 each other: {}. replace_all changes several places only when they hold the same \
                 text, so nothing was changed.",
                candidates.len(),
                list(candidates)
            ),
            Refusal::NotFound {
                best,
                reason: Some(r),
                ..
            } if matches!(**r, Unfound::Transformed { .. }) => {
                let Unfound::Transformed { change, words } = &**r else {
                    unreachable!("a transformation")
                };
                let shown: Vec<String> = words
                    .iter()
                    .take(LISTED)
                    .map(|(a, b)| format!("`{a}` for `{b}`"))
                    .collect();
                write!(
                    f,
                    "search_context comes closest to lines {}, but its words differ from the \
                     file's by one character change made in several words ({change}: {}), so \
                     the text went through a transformation and the lines new_content adds \
                     would carry it. Nothing was changed.",
                    best.as_ref()
                        .map_or_else(String::new, |b| b.lines.to_string()),
                    shown.join(", ")
                )
            }
            Refusal::NotFound {
                reason: Some(r), ..
            } if matches!(**r, Unfound::Inconsistent { .. }) => {
                let Unfound::Inconsistent { seen } = &**r else {
                    unreachable!("an inconsistent trace")
                };
                write!(
                    f,
                    "search_context is not consistent: {seen}. A trace of a viewer or an \
                     escaping step is undone only when every line shows it. Nothing was changed."
                )
            }
            Refusal::NotFound {
                best: Some(best),
                diff,
                reason: Some(r),
                ..
            } if matches!(**r, Unfound::KeptLinesDiffer { .. }) => {
                let Unfound::KeptLinesDiffer {
                    lines,
                    still_in_file,
                } = &**r
                else {
                    unreachable!("kept lines")
                };
                let at: Vec<String> = lines
                    .iter()
                    .take(LISTED)
                    .map(|(s, file)| match file {
                        Some(l) => format!("line {s} (file line {l} reads otherwise)"),
                        None => format!("line {s} (not in the file)"),
                    })
                    .collect();
                // One stale line is refused only where no kept line is
                // found there alone; the rule the caller needs differs.
                let remembered;
                let (count, why) = if let Some(word) = still_in_file {
                    remembered = format!(
                        "Where a line was changed since it was read, what search_context \
                         remembers there is gone from the file; `{}` is still in it, so these \
                         lines may be a look-alike of the block meant, which may be gone or \
                         elsewhere",
                        crate::text::excerpt::brief(word)
                    );
                    (format!("{} line", lines.len()), remembered.as_str())
                } else if lines.len() == 1 {
                    (
                        "1 line".to_string(),
                        "One stale line is tolerated only beside a kept line that the file has \
                         there and nowhere else; every line kept here also occurs elsewhere, so \
                         this may be a look-alike of a block that is gone",
                    )
                } else {
                    (
                        format!("{} lines", lines.len()),
                        "One stale line is tolerated; more mean another block or another \
                         version of the file",
                    )
                };
                write!(
                    f,
                    "search_context comes closest to lines {} (score {:.1}), but it is not that \
                     block: new_content keeps {count} of search_context that the file \
                     contradicts there: {}. {why}. Nothing was changed. Read those lines again \
                     and copy them exactly (the diff goes from search_context to lines {}).\n{diff}",
                    best.lines,
                    best.score,
                    at.join(", "),
                    best.lines
                )
            }
            Refusal::NotFound {
                best: Some(best),
                diff,
                threshold,
                equally_close,
                ..
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
                reason,
                search_line,
                file_line,
                file_lines,
                new_line,
                diff,
            } => {
                let s = search_line.unwrap_or(1);
                let l = file_line.unwrap_or(lines.start);
                let range = file_lines.unwrap_or(*lines);
                match reason {
                    ConflictReason::LineDiffers => write!(
                        f,
                        "search_context matches lines {lines}, but line {s} of search_context, \
                         among the lines new_content changes, reads differently in the file \
                         (line {l}): the file changed since it was read, or this is another block"
                    )?,
                    ConflictReason::LineMissing => write!(
                        f,
                        "search_context matches lines {lines}, but line {s} of search_context, \
                         among the lines new_content changes, is not in the file (line {l} stands \
                         there)"
                    )?,
                    ConflictReason::OutOfOrder => write!(
                        f,
                        "search_context matches lines {lines}, but line {s} of search_context is \
                         not in them where search_context has it: the file has it at line {l}, \
                         in another order, and new_content adds a line beside it, so which side \
                         of it the new line goes is unclear"
                    )?,
                    ConflictReason::ExtraLine => write!(
                        f,
                        "search_context matches lines {lines}, but the file has a line \
                         search_context lacks (line {l}) among the lines new_content changes, \
                         near line {s} of search_context"
                    )?,
                    ConflictReason::HiddenLinesDropped => write!(
                        f,
                        "line {s} of search_context is an elision marker standing for file lines \
                         {range}, and new_content does not keep it, so those lines would be \
                         deleted without having been seen"
                    )?,
                    ConflictReason::HiddenLineElsewhere => write!(
                        f,
                        "search_context matches lines {lines}, where the elision marker on line \
                         {s} stands for file lines {range}; new_content writes line {l} of those \
                         as its line {}, which reads otherwise (another name, number or literal) \
                         and as a line the file has elsewhere: the block read may be another one",
                        new_line.unwrap_or(1)
                    )?,
                    ConflictReason::LinesLeftOut => write!(
                        f,
                        "search_context fits lines {lines} only with lines {range} left out of it, \
                         and new_content changes lines there without writing them out, so it is \
                         unclear whether they stay and where new lines go"
                    )?,
                    ConflictReason::AlreadyApplied => write!(
                        f,
                        "new_content is already in the file at lines {range}, exactly where \
                         search_context matches: the edit looks made already (a repeated call?), \
                         and making it again would add its lines a second time"
                    )?,
                    ConflictReason::MarkerInNewContent => write!(
                        f,
                        "line {} of new_content is an elision marker (like \"// ...\") that does \
                         not stand for a marker at the same place in search_context, so the lines \
                         it would hide are unknown",
                        new_line.unwrap_or(1)
                    )?,
                    ConflictReason::NewContentUnlike => write!(
                        f,
                        "search_context matches lines {lines} once its escapes are undone (every \
                         backslash doubled), but new_content has escapes that cannot be undone \
                         the same way, so what to write is unclear"
                    )?,
                }
                write!(f, ". Nothing was changed.")?;
                if !diff.is_empty() {
                    write!(f, "\n{diff}")?;
                }
                Ok(())
            }
            Refusal::Unverified {
                lines,
                problem,
                diff,
            } => write!(
                f,
                "search_context fits lines {lines} only loosely, and the edit planned there does \
                 not read back as the change from search_context to new_content: {}. Nothing \
                 was changed.\n{diff}",
                brief(problem)
            ),
        }
    }
}

impl std::error::Error for Refusal {}
