//! Whole patches over many files, as agents and tools write them: Codex's
//! `*** Begin Patch` format ([`codex`]) and unified diffs such as `git diff`
//! prints ([`unified`]), read into one model, and the hunks of one file
//! placed in its text ([`place`]).
//!
//! A patch is a list of [`FileChange`]s (add, delete, update, with a move or
//! a copy), each update a list of [`Hunk`]s: lines of context, removed
//! lines and added lines. Where a hunk goes is found from its text, never
//! from its line numbers alone (see [`place`]).
//!
//! ```
//! use mcp_server_text::text::patch::{parse, ChangeKind, PatchFormat};
//!
//! let patch = parse("*** Begin Patch\n*** Update File: a.py\n@@ def f():\n-    return 1\n+    return 2\n*** End Patch\n").unwrap();
//! assert_eq!(patch.format, PatchFormat::Codex);
//! assert_eq!(patch.files[0].kind, ChangeKind::Update);
//! assert_eq!(patch.files[0].hunks[0].anchors, ["def f():"]);
//!
//! let diff = parse("--- a/a.py\n+++ b/a.py\n@@ -1,2 +1,2 @@ def f():\n-    return 1\n+    return 2\n     pass\n").unwrap();
//! assert_eq!(diff.format, PatchFormat::Unified);
//! assert_eq!(diff.files[0].hunks[0].old_start, Some(1));
//! ```

pub mod codex;
pub mod place;
pub mod unified;

use std::fmt;

/// Which notation a patch was written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PatchFormat {
    /// Codex's `*** Begin Patch` … `*** End Patch`.
    Codex,
    /// A unified diff (`--- a/x`, `+++ b/x`, `@@ -l,n +l,n @@`).
    Unified,
}

impl PatchFormat {
    /// The name replies use.
    pub fn name(self) -> &'static str {
        match self {
            PatchFormat::Codex => "codex",
            PatchFormat::Unified => "unified",
        }
    }
}

/// What a patch does to one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChangeKind {
    /// Creates the file with [`FileChange::content`].
    Add,
    /// Removes the file.
    Delete,
    /// Changes the file by its hunks (and moves it to `new_path`, if given).
    Update,
    /// Creates `new_path` from the file's content changed by the hunks.
    Copy,
}

impl ChangeKind {
    /// The name replies use.
    pub fn name(self) -> &'static str {
        match self {
            ChangeKind::Add => "add",
            ChangeKind::Delete => "delete",
            ChangeKind::Update => "update",
            ChangeKind::Copy => "copy",
        }
    }
}

/// One file's part of a patch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileChange {
    /// What happens to the file.
    pub kind: ChangeKind,
    /// The file as it is now (for an add: the file to create).
    pub path: String,
    /// Where an update moves the file, or where a copy goes.
    pub new_path: Option<String>,
    /// An added file's content; a deleted file's content as the patch shows
    /// it, when it shows it (unified diffs do, Codex patches do not).
    pub content: Option<String>,
    /// The hunks of an update or copy, in patch order.
    pub hunks: Vec<Hunk>,
    /// The patch line (1-based) where the file's part begins.
    pub line: usize,
    /// What the patch says that is not applied (file modes), for the reply.
    pub notes: Vec<String>,
}

impl FileChange {
    /// A change of `kind` to `path` starting at patch line `line`.
    pub fn new(kind: ChangeKind, path: String, line: usize) -> FileChange {
        FileChange {
            kind,
            path,
            new_path: None,
            content: None,
            hunks: Vec::new(),
            line,
            notes: Vec::new(),
        }
    }
}

/// Whether a hunk line is kept, removed or added.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineKind {
    /// Unchanged (a space in front).
    Context,
    /// Removed (`-`).
    Removed,
    /// Added (`+`).
    Added,
}

/// One line of a hunk, without its marker and its line break (a `\r` of a
/// CRLF line stays, so a diff of a CRLF file gives its bytes back).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HunkLine {
    /// Kept, removed or added.
    pub kind: LineKind,
    /// The text.
    pub text: String,
}

/// A run of changed lines with the context that places them.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Hunk {
    /// Codex `@@ text` lines, outermost first: the hunk lies below a line
    /// that reads like each of them, in turn.
    pub anchors: Vec<String>,
    /// The first old line, as a unified diff's header numbers it (a hint).
    pub old_start: Option<usize>,
    /// The lines, in order.
    pub lines: Vec<HunkLine>,
    /// The old side's last line has no line break (the file ends there).
    pub old_without_newline: bool,
    /// The new side's last line has no line break.
    pub new_without_newline: bool,
    /// The old lines end the file (Codex `*** End of File`, or an old side
    /// without a final line break).
    pub at_end: bool,
    /// The patch line (1-based) where the hunk begins.
    pub line: usize,
}

impl Hunk {
    /// The old lines: context and removed.
    pub fn old_lines(&self) -> impl Iterator<Item = &str> {
        self.lines
            .iter()
            .filter(|l| l.kind != LineKind::Added)
            .map(|l| l.text.as_str())
    }

    /// The new lines: context and added.
    pub fn new_lines(&self) -> impl Iterator<Item = &str> {
        self.lines
            .iter()
            .filter(|l| l.kind != LineKind::Removed)
            .map(|l| l.text.as_str())
    }

    /// Whether the hunk has old lines to be found by.
    pub fn has_old_lines(&self) -> bool {
        self.lines.iter().any(|l| l.kind != LineKind::Added)
    }

    /// Its first old line (or first line), shortened, to name it in messages.
    pub fn first_line(&self) -> &str {
        self.old_lines()
            .find(|l| !l.trim().is_empty())
            .or_else(|| self.lines.first().map(|l| l.text.as_str()))
            .unwrap_or("")
    }
}

/// A patch: every file it changes, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Patch {
    /// The notation it was written in.
    pub format: PatchFormat,
    /// The files.
    pub files: Vec<FileChange>,
}

/// Why a text is not a patch this module can read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PatchSyntaxError {
    /// The patch line (1-based) where reading stopped, if one is to blame.
    pub line: Option<usize>,
    /// What is wrong there.
    pub message: String,
}

impl PatchSyntaxError {
    /// An error at patch line `line`.
    pub fn at(line: usize, message: impl Into<String>) -> PatchSyntaxError {
        PatchSyntaxError {
            line: Some(line),
            message: message.into(),
        }
    }

    /// An error about the patch as a whole.
    pub fn whole(message: impl Into<String>) -> PatchSyntaxError {
        PatchSyntaxError {
            line: None,
            message: message.into(),
        }
    }
}

impl fmt::Display for PatchSyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "line {line} of the patch: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for PatchSyntaxError {}

/// Reads `text` as a Codex patch or a unified diff, whichever it is. A
/// Markdown code fence around the patch is ignored, and so are CRLF line
/// breaks when every line of the patch has one (they came from the way
/// the patch travelled, not from the files).
pub fn parse(text: &str) -> Result<Patch, PatchSyntaxError> {
    let lines = patch_lines(text);
    let lines = without_fence(&lines);
    let first = lines.iter().position(|l| !l.trim().is_empty());
    let Some(first) = first else {
        return Err(PatchSyntaxError::whole("the patch is empty"));
    };
    let head = lines[first].trim();
    let (format, files) = if head == codex::BEGIN || codex::is_heredoc_start(head) {
        (PatchFormat::Codex, codex::parse(lines)?)
    } else if unified::looks_unified(lines) {
        (PatchFormat::Unified, unified::parse(lines)?)
    } else {
        return Err(PatchSyntaxError::whole(
            "this is neither a Codex patch (its first line would be '*** Begin Patch') nor a unified diff (with '--- a/file', '+++ b/file' and '@@ -l,n +l,n @@' lines)",
        ));
    };
    check_every_hunk_changes(&files)?;
    Ok(Patch { format, files })
}

/// Refuses a hunk that changes nothing (only context lines): it is most
/// likely a hunk whose `-` and `+` markers were lost, and applying it as
/// written would report a change that did not happen.
fn check_every_hunk_changes(files: &[FileChange]) -> Result<(), PatchSyntaxError> {
    for file in files {
        for hunk in &file.hunks {
            let changes = hunk.lines.iter().any(|l| l.kind != LineKind::Context)
                || hunk.old_without_newline != hunk.new_without_newline;
            if !changes {
                return Err(PatchSyntaxError::at(
                    hunk.line,
                    format!(
                        "this hunk of {} changes nothing: all its lines are context lines (' '); mark the lines it removes with '-' and the lines it adds with '+', or leave the hunk out",
                        file.path.trim()
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// A patch line with its 1-based number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PatchLine<'a> {
    /// The line's number in the patch text.
    pub number: usize,
    /// Its text, without the line break.
    pub text: &'a str,
}

impl<'a> std::ops::Deref for PatchLine<'a> {
    type Target = str;

    fn deref(&self) -> &str {
        self.text
    }
}

/// The lines of `text`, each with its number. A `\r` before the line break
/// is kept unless every line has one.
fn patch_lines(text: &str) -> Vec<PatchLine<'_>> {
    let body = text.strip_suffix('\n').unwrap_or(text);
    let raw: Vec<&str> = body.split('\n').collect();
    // The last line may lack a break, and so its `\r`.
    let terminated = text.ends_with('\n');
    let all_crlf = raw
        .iter()
        .enumerate()
        .all(|(i, l)| l.ends_with('\r') || (i + 1 == raw.len() && !terminated));
    raw.into_iter()
        .enumerate()
        .map(|(i, l)| PatchLine {
            number: i + 1,
            text: if all_crlf {
                l.strip_suffix('\r').unwrap_or(l)
            } else {
                l
            },
        })
        .collect()
}

/// `lines` without a Markdown code fence around them (```` ```diff ````
/// … ```` ``` ````), when the fence opens the text and closes it.
fn without_fence<'l, 'a>(lines: &'l [PatchLine<'a>]) -> &'l [PatchLine<'a>] {
    let nonblank: Vec<usize> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, _)| i)
        .collect();
    let (Some(&first), Some(&last)) = (nonblank.first(), nonblank.last()) else {
        return lines;
    };
    let opens = lines[first].trim_start().starts_with("```");
    let closes = first < last && lines[last].trim() == "```";
    if opens && closes {
        &lines[first + 1..last]
    } else {
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fenced_patch_and_a_crlf_patch_read_as_the_plain_one() {
        let plain = "*** Begin Patch\n*** Delete File: a.txt\n*** End Patch\n";
        let fenced = format!("```diff\n{plain}```\n");
        let crlf = plain.replace('\n', "\r\n");
        let summary = |text: &str| {
            let patch = parse(text).unwrap();
            let files: Vec<(ChangeKind, String)> =
                patch.files.into_iter().map(|f| (f.kind, f.path)).collect();
            (patch.format, files)
        };
        let want = summary(plain);
        assert_eq!(summary(&fenced), want);
        assert_eq!(summary(&crlf), want);
        // Patch lines are counted in the text as sent, fence included.
        assert_eq!(parse(&fenced).unwrap().files[0].line, 3);
    }

    #[test]
    fn a_crlf_diff_line_keeps_its_carriage_return() {
        let diff = "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\r\n+new\r\n";
        let patch = parse(diff).unwrap();
        let texts: Vec<&str> = patch.files[0].hunks[0]
            .lines
            .iter()
            .map(|l| l.text.as_str())
            .collect();
        assert_eq!(texts, ["old\r", "new\r"]);
    }

    #[test]
    fn a_hunk_of_context_lines_only_is_refused_in_both_formats() {
        let codex =
            "*** Begin Patch\n*** Update File: a.py\n@@ def f():\n     return 1\n*** End Patch\n";
        let err = parse(codex).unwrap_err();
        assert_eq!(err.line, Some(3));
        assert!(
            err.message.starts_with("this hunk of a.py changes nothing"),
            "{err}"
        );
        let diff = "--- a/a.py\n+++ b/a.py\n@@ -1,2 +1,2 @@\n def f():\n     return 1\n";
        assert_eq!(parse(diff).unwrap_err().line, Some(3));
        // Only the final line break changes: that is a change.
        let eol = "--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-x\n\\ No newline at end of file\n+x\n";
        assert!(parse(eol).is_ok());
    }

    #[test]
    fn text_that_is_no_patch_is_refused_with_what_a_patch_looks_like() {
        let err = parse("hello\nworld\n").unwrap_err();
        assert!(err.message.contains("*** Begin Patch"), "{err}");
        assert_eq!(parse("  \n").unwrap_err().message, "the patch is empty");
    }
}
