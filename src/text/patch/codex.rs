//! Codex's patch format: `*** Begin Patch`, then `*** Add File:`,
//! `*** Delete File:` and `*** Update File:` sections (an update may go on
//! with `*** Move to:`), each update made of hunks that `@@` lines open, and
//! `*** End Patch`.
//!
//! Inside a hunk a line starts with a space (context), `-` (removed) or `+`
//! (added); an empty line is an empty context line, except at the end of a
//! hunk, where it only separates hunks. Consecutive `@@ text` lines narrow
//! the place step by step (`@@ class A`, then `@@ def f`); a bare `@@` only
//! starts a hunk. `*** End of File` says the hunk's old lines end the file.
//!
//! ```
//! use mcp_server_text::text::patch::{parse, LineKind};
//!
//! let patch = parse("*** Begin Patch\n*** Update File: a.py\n*** Move to: b.py\n@@ class A\n@@     def f(self):\n-        return 1\n+        return 2\n*** End Patch").unwrap();
//! let file = &patch.files[0];
//! assert_eq!(file.new_path.as_deref(), Some("b.py"));
//! assert_eq!(file.hunks[0].anchors, ["class A", "def f(self):"]);
//! assert_eq!(file.hunks[0].lines[1].kind, LineKind::Added);
//! ```

use super::{ChangeKind, FileChange, Hunk, HunkLine, LineKind, PatchLine, PatchSyntaxError};

/// The first line of a Codex patch.
pub const BEGIN: &str = "*** Begin Patch";
/// The last line of a Codex patch.
pub const END: &str = "*** End Patch";
const ADD: &str = "*** Add File:";
const DELETE: &str = "*** Delete File:";
const UPDATE: &str = "*** Update File:";
const MOVE: &str = "*** Move to:";
const END_OF_FILE: &str = "*** End of File";

/// Whether `line` opens a shell here-document around a patch (`<<'EOF'`),
/// as patches sent through a shell command sometimes are.
pub fn is_heredoc_start(line: &str) -> bool {
    let line = line.trim();
    let line = line.strip_prefix("apply_patch").unwrap_or(line).trim();
    matches!(line, "<<EOF" | "<<'EOF'" | "<<\"EOF\"")
}

/// Reads the file sections of a Codex patch.
pub fn parse(lines: &[PatchLine<'_>]) -> Result<Vec<FileChange>, PatchSyntaxError> {
    let lines = trim_blank(lines);
    let lines = match lines {
        [first, inner @ .., last] if is_heredoc_start(first) && last.trim().ends_with("EOF") => {
            trim_blank(inner)
        }
        _ => lines,
    };
    let (Some(first), Some(last)) = (lines.first(), lines.last()) else {
        return Err(PatchSyntaxError::whole("the patch is empty"));
    };
    if first.trim() != BEGIN {
        return Err(PatchSyntaxError::at(
            first.number,
            format!("a Codex patch begins with '{BEGIN}'"),
        ));
    }
    if lines.len() < 2 || last.trim() != END {
        return Err(PatchSyntaxError::at(
            last.number,
            format!(
                "the patch does not end with '{END}' (was it cut short?); nothing of it is applied"
            ),
        ));
    }
    let body = &lines[1..lines.len() - 1];
    let mut files = Vec::new();
    let mut i = 0;
    while i < body.len() {
        let line = body[i];
        let t = line.trim();
        if t.is_empty() {
            i += 1;
        } else if let Some(path) = t.strip_prefix(ADD) {
            let mut change = FileChange::new(ChangeKind::Add, path_of(path, line)?, line.number);
            let (content, used) = added_content(&body[i + 1..]);
            change.content = Some(content);
            files.push(change);
            i += 1 + used;
        } else if let Some(path) = t.strip_prefix(DELETE) {
            files.push(FileChange::new(
                ChangeKind::Delete,
                path_of(path, line)?,
                line.number,
            ));
            i += 1;
        } else if let Some(path) = t.strip_prefix(UPDATE) {
            let mut change = FileChange::new(ChangeKind::Update, path_of(path, line)?, line.number);
            i += 1;
            if let Some(to) = body.get(i).and_then(|l| l.trim().strip_prefix(MOVE)) {
                change.new_path = Some(path_of(to, body[i])?);
                i += 1;
            }
            let (hunks, used) = hunks(&body[i..], &change.path)?;
            if hunks.is_empty() && change.new_path.is_none() {
                return Err(PatchSyntaxError::at(
                    line.number,
                    format!(
                        "the Update File section of {} has no hunks",
                        change.path.trim()
                    ),
                ));
            }
            change.hunks = hunks;
            files.push(change);
            i += used;
        } else {
            return Err(PatchSyntaxError::at(
                line.number,
                format!(
                    "'{}' is not a file header: sections begin with '{ADD} path', '{DELETE} path' or '{UPDATE} path'",
                    crate::text::excerpt::brief(t)
                ),
            ));
        }
    }
    Ok(files)
}

/// Whether `line` is one of the format's `***` lines, spaces around it
/// allowed (a hunk line that starts with `***` is no context line).
fn is_marker(line: &str) -> bool {
    let t = line.trim();
    line.starts_with("***")
        || [ADD, DELETE, UPDATE, MOVE, END_OF_FILE, END]
            .iter()
            .any(|m| t.starts_with(m))
}

fn trim_blank<'l, 'a>(lines: &'l [PatchLine<'a>]) -> &'l [PatchLine<'a>] {
    let start = lines
        .iter()
        .position(|l| !l.trim().is_empty())
        .unwrap_or(lines.len());
    let end = lines
        .iter()
        .rposition(|l| !l.trim().is_empty())
        .map_or(start, |e| e + 1);
    &lines[start..end.max(start)]
}

fn path_of(text: &str, line: PatchLine<'_>) -> Result<String, PatchSyntaxError> {
    let path = text.trim();
    if path.is_empty() {
        return Err(PatchSyntaxError::at(
            line.number,
            "the file header names no file",
        ));
    }
    Ok(path.to_string())
}

/// The content of an added file: its `+` lines (an empty line between two
/// of them counts as an empty line), and how many patch lines they take.
fn added_content(lines: &[PatchLine<'_>]) -> (String, usize) {
    let mut content = String::new();
    let mut used = 0;
    let mut pending_blank = 0;
    for line in lines {
        if let Some(text) = line.strip_prefix('+') {
            for _ in 0..pending_blank {
                content.push('\n');
            }
            used += pending_blank + 1;
            pending_blank = 0;
            content.push_str(text);
            content.push('\n');
        } else if line.is_empty() {
            pending_blank += 1;
        } else {
            break;
        }
    }
    (content, used)
}

/// The hunks of an update section, and how many patch lines they take.
fn hunks(lines: &[PatchLine<'_>], path: &str) -> Result<(Vec<Hunk>, usize), PatchSyntaxError> {
    let mut hunks: Vec<Hunk> = Vec::new();
    let mut current: Option<Hunk> = None;
    let mut used = 0;
    // Empty lines (with no marker) at a hunk's end separate it from what
    // follows: `separators` of them are dropped.
    let finish = |current: &mut Option<Hunk>, hunks: &mut Vec<Hunk>, separators: usize| {
        if let Some(mut hunk) = current.take() {
            for _ in 0..separators {
                hunk.lines.pop();
            }
            hunks.push(hunk);
        }
    };
    let mut raw_empty_tail = 0usize;
    for line in lines {
        let text = line.text;
        if is_marker(text) {
            if text.trim() == END_OF_FILE {
                let Some(hunk) = current.as_mut().filter(|h| !h.lines.is_empty()) else {
                    return Err(PatchSyntaxError::at(
                        line.number,
                        format!("'{END_OF_FILE}' follows no hunk lines"),
                    ));
                };
                hunk.at_end = true;
                finish(&mut current, &mut hunks, raw_empty_tail);
                used += 1;
                raw_empty_tail = 0;
                continue;
            }
            break;
        }
        used += 1;
        if let Some(anchor) = text.strip_prefix("@@") {
            // Only separators since the last `@@`: its anchors go on.
            if let Some(h) = current.as_mut()
                && h.lines.len() <= raw_empty_tail
            {
                h.lines.clear();
            }
            if current.as_ref().is_some_and(|h| !h.lines.is_empty()) {
                finish(&mut current, &mut hunks, raw_empty_tail);
            }
            let hunk = current.get_or_insert_with(|| Hunk {
                line: line.number,
                ..Hunk::default()
            });
            let anchor = anchor.trim();
            if !anchor.is_empty() {
                hunk.anchors.push(anchor.to_string());
            }
            raw_empty_tail = 0;
            continue;
        }
        let (kind, rest) = match text.chars().next() {
            None => (LineKind::Context, ""),
            Some(' ') => (LineKind::Context, &text[1..]),
            Some('-') => (LineKind::Removed, &text[1..]),
            Some('+') => (LineKind::Added, &text[1..]),
            Some(_) => {
                return Err(PatchSyntaxError::at(
                    line.number,
                    format!(
                        "'{}' in the hunks of {} starts with neither ' ' (context), '-' (removed) nor '+' (added); a hunk of Codex's format opens with '@@' and a new file section with '***'",
                        crate::text::excerpt::brief(text),
                        path.trim()
                    ),
                ));
            }
        };
        raw_empty_tail = if text.is_empty() {
            raw_empty_tail + 1
        } else {
            0
        };
        let hunk = current.get_or_insert_with(|| Hunk {
            line: line.number,
            ..Hunk::default()
        });
        hunk.lines.push(HunkLine {
            kind,
            text: rest.to_string(),
        });
    }
    if let Some(hunk) = current.as_ref()
        && hunk.lines.len() <= raw_empty_tail
    {
        return Err(PatchSyntaxError::at(
            hunk.line,
            format!("a hunk of {} has an '@@' line but no lines", path.trim()),
        ));
    }
    finish(&mut current, &mut hunks, raw_empty_tail);
    Ok((hunks, used))
}

#[cfg(test)]
mod tests {
    use super::super::{ChangeKind, parse};
    use super::*;

    fn kinds(h: &Hunk) -> String {
        h.lines
            .iter()
            .map(|l| match l.kind {
                LineKind::Context => ' ',
                LineKind::Removed => '-',
                LineKind::Added => '+',
            })
            .collect()
    }

    #[test]
    fn reads_every_section_kind() {
        let patch = parse(
            "*** Begin Patch\n*** Add File: new.txt\n+one\n\n+three\n*** Delete File: old.txt\n*** Update File: a.py\n import os\n-x = 1\n+x = 2\n\n@@ def f():\n@@     if y:\n-        pass\n+        return\n*** End of File\n*** End Patch\n",
        )
        .unwrap();
        let kinds_of: Vec<ChangeKind> = patch.files.iter().map(|f| f.kind).collect();
        assert_eq!(
            kinds_of,
            [ChangeKind::Add, ChangeKind::Delete, ChangeKind::Update]
        );
        assert_eq!(patch.files[0].content.as_deref(), Some("one\n\nthree\n"));
        let hunks = &patch.files[2].hunks;
        assert_eq!(hunks.len(), 2);
        assert_eq!(
            kinds(&hunks[0]),
            " -+",
            "the separating empty line is no context"
        );
        assert!(hunks[0].anchors.is_empty());
        assert_eq!(hunks[1].anchors, ["def f():", "if y:"]);
        assert!(hunks[1].at_end);
        assert_eq!(hunks[1].line, 12);
    }

    #[test]
    fn an_empty_line_inside_a_hunk_is_an_empty_context_line() {
        let patch =
            parse("*** Begin Patch\n*** Update File: a\n@@\n a\n\n-b\n+c\n*** End Patch").unwrap();
        assert_eq!(kinds(&patch.files[0].hunks[0]), "  -+");
    }

    #[test]
    fn a_patch_cut_short_or_with_stray_lines_is_refused_with_its_line() {
        let cut = parse("*** Begin Patch\n*** Update File: a\n@@\n-a\n+b\n").unwrap_err();
        assert!(cut.message.contains("cut short"), "{cut}");
        let stray =
            parse("*** Begin Patch\n*** Update File: a\n@@\n-a\nb\n*** End Patch").unwrap_err();
        assert_eq!(stray.line, Some(5));
        let empty = parse("*** Begin Patch\n*** Update File: a\n*** End Patch").unwrap_err();
        assert!(empty.message.contains("has no hunks"), "{empty}");
        let no_lines =
            parse("*** Begin Patch\n*** Update File: a\n@@ def f\n*** End Patch").unwrap_err();
        assert!(no_lines.message.contains("no lines"), "{no_lines}");
        let header = parse("*** Begin Patch\n*** Rename File: a\n*** End Patch").unwrap_err();
        assert!(header.message.contains("not a file header"), "{header}");
    }

    #[test]
    fn markers_padded_with_spaces_are_still_markers() {
        let patch = parse(
            "*** Begin Patch \n*** Update File: a\n@@\n-one\n+two\n  *** Update File: b\n@@\n-x\n+y\n *** End Patch\n",
        )
        .unwrap();
        let paths: Vec<&str> = patch.files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(paths, ["a", "b"]);
        assert_eq!(kinds(&patch.files[0].hunks[0]), "-+");
    }

    #[test]
    fn a_heredoc_around_the_patch_is_unwrapped() {
        let patch =
            parse("<<'EOF'\n*** Begin Patch\n*** Delete File: a\n*** End Patch\nEOF\n").unwrap();
        assert_eq!(patch.files[0].path, "a");
    }
}
