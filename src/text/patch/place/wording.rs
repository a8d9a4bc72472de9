//! Why a hunk cannot be placed, in words for the agent that sent it.

use std::fmt;

use super::Why;
use crate::text::fuzzy::{ConflictReason, LineRange, Refusal, Unfound};

impl fmt::Display for Why {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Why::NotFound {
                best: Some((lines, score)),
                diff,
            } => write!(
                f,
                "its old lines (context and removed) are not in the file; the closest block is lines {}-{} (score {score:.1}). The diff goes from the hunk's old lines to those lines:\n{diff}",
                lines.start, lines.end
            ),
            Why::NotFound { best: None, .. } => f.write_str(
                "its old lines (context and removed) are not in the file, and nothing in it resembles them",
            ),
            Why::Ambiguous { places } => {
                let listed: Vec<String> = places
                    .iter()
                    .take(20)
                    .map(|p| format!("{}-{}", p.start, p.end))
                    .collect();
                write!(
                    f,
                    "its old lines fit {} places equally well (lines {}{}), and nothing in the patch tells them apart",
                    places.len(),
                    listed.join(", "),
                    if places.len() > 20 { ", …" } else { "" }
                )
            }
            Why::AnchorNotFound { anchor } => write!(
                f,
                "no line of the file (below the hunk before it) reads like its '@@ {}' line",
                crate::text::excerpt::brief(anchor)
            ),
            Why::NoContext => f.write_str(
                "it only adds lines and has no context lines, so only its line numbers say where, and they are never enough",
            ),
            Why::NotAtEnd { lines } => write!(
                f,
                "it must end the file, but its old lines are at lines {}-{}, not at the end",
                lines.start, lines.end
            ),
            Why::Refused { message } => f.write_str(message),
        }
    }
}

/// A matcher refusal in the words of a patch, with file line numbers
/// (`shift` lines above the stretch it looked in).
pub(super) fn describe(refusal: &Refusal, shift: usize) -> String {
    let at = |r: LineRange| format!("{}-{}", r.start + shift, r.end + shift);
    match refusal {
        Refusal::Conflict {
            lines,
            reason: ConflictReason::AlreadyApplied,
            ..
        } => format!(
            "its new lines are already in the file at lines {}: the patch seems applied already",
            at(*lines)
        ),
        Refusal::Conflict {
            lines,
            search_line: Some(search_line),
            file_line,
            ..
        } => format!(
            "its old lines match lines {} of the file only loosely, and old line {search_line} of the hunk, which the hunk changes, is not what the file has there{}: the file changed since the patch was made",
            at(*lines),
            file_line.map_or_else(String::new, |l| format!(" (line {})", l + shift))
        ),
        Refusal::NotFound {
            best: Some(best),
            reason: Some(r),
            ..
        } if matches!(**r, Unfound::KeptLinesDiffer { .. }) => {
            let Unfound::KeptLinesDiffer { lines, .. } = &**r else {
                unreachable!("kept lines")
            };
            let listed: Vec<String> = lines.iter().map(|(s, _)| s.to_string()).collect();
            format!(
                "its old lines come closest to lines {}, but the context lines {} of the hunk read differently there or are missing: another place, or the file changed since the patch was made",
                at(best.lines),
                listed.join(", ")
            )
        }
        other => format!(
            "the matcher refused it ({}; there search_context means the hunk's old lines and new_content its new lines, and line numbers count from line {} of the file)",
            other,
            shift + 1
        ),
    }
}
