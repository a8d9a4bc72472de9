//! Unified diffs, as `diff -u` and `git diff` print them: `--- a/x` and
//! `+++ b/x` name the file (`/dev/null` for a file that is created or
//! deleted), `@@ -l,n +l,n @@ section` opens a hunk, `\ No newline at end
//! of file` follows a line that has no line break. Git's extended headers
//! are understood: `diff --git`, `new file mode`, `deleted file mode`,
//! `rename from`/`rename to`, `copy from`/`copy to`, `similarity index`,
//! `index`, `old mode`/`new mode` (modes are not applied, and the reply says
//! so). Text before, between and after the files (a commit message, a
//! `-- ` signature) is skipped. Binary patches are refused.
//!
//! A hunk ends where its header's line counts say. When the counts do not
//! fit the lines (a diff written by hand), the hunk is read as the run of
//! lines that start with a space, `-` or `+`.
//!
//! ```
//! use mcp_server_text::text::patch::{parse, ChangeKind};
//!
//! let diff = "diff --git a/old.rs b/new.rs\nsimilarity index 90%\nrename from old.rs\nrename to new.rs\n--- a/old.rs\n+++ b/new.rs\n@@ -1,2 +1,2 @@\n fn main() {\n-}\n+}\n\\ No newline at end of file\n";
//! let file = &parse(diff).unwrap().files[0];
//! assert_eq!((file.kind, file.path.as_str(), file.new_path.as_deref()), (ChangeKind::Update, "old.rs", Some("new.rs")));
//! assert!(file.hunks[0].new_without_newline && !file.hunks[0].old_without_newline);
//! ```

use super::{ChangeKind, FileChange, Hunk, HunkLine, LineKind, PatchLine, PatchSyntaxError};

/// Whether `lines` look like a unified diff: a `diff --git` line, a
/// `--- `/`+++ ` pair, or a hunk header.
pub fn looks_unified(lines: &[PatchLine<'_>]) -> bool {
    lines.iter().enumerate().any(|(i, l)| {
        l.starts_with("diff --git ")
            || l.starts_with("@@ -")
            || (l.starts_with("--- ") && lines.get(i + 1).is_some_and(|n| n.starts_with("+++ ")))
    })
}

/// Reads every file of a unified diff.
pub fn parse(lines: &[PatchLine<'_>]) -> Result<Vec<FileChange>, PatchSyntaxError> {
    let mut files = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if line.starts_with("diff --git ") {
            let (file, used) = git_file(&lines[i..])?;
            files.push(file);
            i += used;
        } else if is_file_header(lines, i) {
            let (file, used) = plain_file(&lines[i..])?;
            files.push(file);
            i += used;
        } else if line.starts_with("@@ ") {
            return Err(PatchSyntaxError::at(
                line.number,
                "this hunk has no file header before it: a unified diff names the file with '--- a/path' and '+++ b/path' lines above its hunks",
            ));
        } else if is_binary(line) {
            return Err(binary_error(line, None));
        } else {
            i += 1;
        }
    }
    if files.is_empty() {
        return Err(PatchSyntaxError::whole(
            "the diff names no file: each file's changes begin with '--- a/path' and '+++ b/path' (or a 'diff --git' line)",
        ));
    }
    Ok(files)
}

fn is_file_header(lines: &[PatchLine<'_>], i: usize) -> bool {
    lines[i].starts_with("--- ") && lines.get(i + 1).is_some_and(|n| n.starts_with("+++ "))
}

fn is_binary(line: PatchLine<'_>) -> bool {
    line.starts_with("GIT binary patch")
        || (line.starts_with("Binary files ") && line.ends_with(" differ"))
}

fn binary_error(line: PatchLine<'_>, path: Option<&str>) -> PatchSyntaxError {
    PatchSyntaxError::at(
        line.number,
        format!(
            "{} is a binary patch, which this tool does not apply (it edits text files)",
            path.map_or("this".to_string(), |p| format!("the change of {p}"))
        ),
    )
}

/// What git's header lines said about a file.
#[derive(Default)]
struct GitHeader {
    old: Option<String>,
    new: Option<String>,
    created: bool,
    deleted: bool,
    renamed: bool,
    copied: bool,
    notes: Vec<String>,
}

/// One file after a `diff --git` line: its extended headers, its `---` and
/// `+++` lines if any, and its hunks.
fn git_file(lines: &[PatchLine<'_>]) -> Result<(FileChange, usize), PatchSyntaxError> {
    let first = lines[0];
    let (a, b) = git_line_paths(&first["diff --git ".len()..]);
    let mut header = GitHeader {
        old: a,
        new: b,
        ..GitHeader::default()
    };
    let mut i = 1;
    while i < lines.len() {
        let line = lines[i];
        if line.starts_with("diff --git ") || line.starts_with("@@ ") || is_file_header(lines, i) {
            break;
        }
        if is_binary(line) {
            return Err(binary_error(line, header.old.as_deref()));
        }
        if let Some(rest) = line.strip_prefix("rename from ") {
            header.old = Some(unquote(rest));
            header.renamed = true;
        } else if let Some(rest) = line.strip_prefix("rename to ") {
            header.new = Some(unquote(rest));
            header.renamed = true;
        } else if let Some(rest) = line.strip_prefix("copy from ") {
            header.old = Some(unquote(rest));
            header.copied = true;
        } else if let Some(rest) = line.strip_prefix("copy to ") {
            header.new = Some(unquote(rest));
            header.copied = true;
        } else if line.starts_with("new file mode ") {
            header.created = true;
        } else if line.starts_with("deleted file mode ") {
            header.deleted = true;
        } else if line.starts_with("old mode ") || line.starts_with("new mode ") {
            if line.starts_with("new mode ") {
                header.notes.push(format!(
                    "the file mode change ({}) is not applied",
                    line.trim()
                ));
            }
        } else if !(line.starts_with("index ")
            || line.starts_with("similarity index ")
            || line.starts_with("dissimilarity index "))
        {
            break;
        }
        i += 1;
    }
    let mut old = header.old.clone();
    let mut new = header.new.clone();
    if is_file_header(lines, i) {
        let (o, n) = (header_path(&lines[i][4..]), header_path(&lines[i + 1][4..]));
        let (o, n) = strip_prefixes(o, n);
        old = if o.is_none() && !header.created {
            old
        } else {
            o
        };
        new = if n.is_none() && !header.deleted {
            new
        } else {
            n
        };
        i += 2;
    }
    let kind = if header.created || (old.is_none() && new.is_some()) {
        ChangeKind::Add
    } else if header.deleted || (new.is_none() && old.is_some()) {
        ChangeKind::Delete
    } else if header.copied {
        ChangeKind::Copy
    } else {
        ChangeKind::Update
    };
    let (hunks, used) = hunks(&lines[i..])?;
    i += used;
    let file = assemble(kind, old, new, hunks, first.number, header.notes)?;
    Ok((file, i))
}

/// One file of a plain unified diff: `---`, `+++`, hunks.
fn plain_file(lines: &[PatchLine<'_>]) -> Result<(FileChange, usize), PatchSyntaxError> {
    let (old, new) = strip_prefixes(header_path(&lines[0][4..]), header_path(&lines[1][4..]));
    let kind = match (&old, &new) {
        (None, Some(_)) => ChangeKind::Add,
        (Some(_), None) => ChangeKind::Delete,
        _ => ChangeKind::Update,
    };
    let (hunks, used) = hunks(&lines[2..])?;
    let file = assemble(kind, old, new, hunks, lines[0].number, Vec::new())?;
    Ok((file, 2 + used))
}

/// The file change of `kind` between `old` and `new` with `hunks`.
fn assemble(
    kind: ChangeKind,
    old: Option<String>,
    new: Option<String>,
    hunks: Vec<Hunk>,
    line: usize,
    notes: Vec<String>,
) -> Result<FileChange, PatchSyntaxError> {
    let Some(path) = old.clone().or_else(|| new.clone()) else {
        return Err(PatchSyntaxError::at(
            line,
            "both sides of this file header are /dev/null, so it names no file",
        ));
    };
    let mut file = FileChange::new(kind, path, line);
    file.notes = notes;
    match kind {
        ChangeKind::Add => {
            file.path = new.unwrap_or(file.path);
            file.content = Some(side_text(&hunks, LineKind::Removed, true));
            if hunks.iter().any(Hunk::has_old_lines) {
                return Err(PatchSyntaxError::at(
                    line,
                    format!(
                        "{} is created by this diff, yet its hunks have old lines",
                        file.path
                    ),
                ));
            }
        }
        ChangeKind::Delete => {
            file.content = Some(side_text(&hunks, LineKind::Added, false));
            if hunks
                .iter()
                .any(|h| h.lines.iter().any(|l| l.kind != LineKind::Removed))
            {
                return Err(PatchSyntaxError::at(
                    line,
                    format!(
                        "{} is deleted by this diff, yet its hunks keep or add lines",
                        file.path
                    ),
                ));
            }
        }
        ChangeKind::Update | ChangeKind::Copy => {
            if new.as_ref().is_some_and(|n| Some(n) != old.as_ref()) {
                file.new_path = new;
            }
            file.hunks = hunks;
        }
    }
    Ok(file)
}

/// The text of one side of `hunks`: every line but those of kind `skip`,
/// each with a line break unless it is marked as having none.
fn side_text(hunks: &[Hunk], skip: LineKind, new_side: bool) -> String {
    let mut out = String::new();
    for hunk in hunks {
        let lines: Vec<&HunkLine> = hunk.lines.iter().filter(|l| l.kind != skip).collect();
        let missing = if new_side {
            hunk.new_without_newline
        } else {
            hunk.old_without_newline
        };
        for (k, line) in lines.iter().enumerate() {
            out.push_str(&line.text);
            if !(missing && k + 1 == lines.len()) {
                out.push('\n');
            }
        }
    }
    out
}

/// The two paths of a `diff --git a/x b/y` line. Without quotes and with
/// spaces in the names the split is found where both halves name the same
/// file (renames have `rename from`/`rename to` lines, read instead).
fn git_line_paths(rest: &str) -> (Option<String>, Option<String>) {
    let rest = rest.trim_end();
    if rest.starts_with('"') {
        let (first, tail) = split_quoted(rest);
        let second = tail.trim_start();
        let (a, b) = strip_prefixes(Some(first), Some(unquote(second)));
        return (a, b);
    }
    if let Some(half) = rest
        .len()
        .checked_sub(1)
        .map(|l| l / 2)
        .filter(|&h| rest.is_char_boundary(h) && rest[h..].starts_with(' '))
    {
        let (left, right) = (&rest[..half], &rest[half + 1..]);
        if left.strip_prefix("a/") == right.strip_prefix("b/") || left == right {
            return strip_prefixes(Some(left.to_string()), Some(right.to_string()));
        }
    }
    match rest.split_once(" b/") {
        Some((left, right)) => strip_prefixes(Some(left.to_string()), Some(format!("b/{right}"))),
        None => (None, None),
    }
}

/// A path from a `---` or `+++` line: up to a tab (a time stamp follows),
/// unquoted; `None` for `/dev/null`.
fn header_path(text: &str) -> Option<String> {
    let text = text.trim_end_matches('\r');
    let path = if text.starts_with('"') {
        split_quoted(text).0
    } else {
        text.split('\t').next().unwrap_or("").trim_end().to_string()
    };
    (path != "/dev/null" && !path.is_empty()).then_some(path)
}

/// Takes git's `a/` and `b/` off when both sides carry them (one side may be
/// `/dev/null`).
fn strip_prefixes(old: Option<String>, new: Option<String>) -> (Option<String>, Option<String>) {
    let has = |p: &Option<String>, prefix: &str| p.as_ref().is_none_or(|p| p.starts_with(prefix));
    if has(&old, "a/") && has(&new, "b/") && (old.is_some() || new.is_some()) {
        (
            old.map(|p| p[2..].to_string()),
            new.map(|p| p[2..].to_string()),
        )
    } else {
        (old, new)
    }
}

fn unquote(text: &str) -> String {
    let text = text.trim_end_matches('\r');
    if text.starts_with('"') {
        split_quoted(text).0
    } else {
        text.to_string()
    }
}

/// A C-quoted string at the start of `text` (as git writes unusual names)
/// and what follows it.
fn split_quoted(text: &str) -> (String, &str) {
    let mut bytes: Vec<u8> = Vec::new();
    let raw = text.as_bytes();
    let mut i = 1;
    while i < raw.len() {
        match raw[i] {
            b'"' => return (String::from_utf8_lossy(&bytes).into_owned(), &text[i + 1..]),
            b'\\' if i + 1 < raw.len() => {
                let c = raw[i + 1];
                let (byte, used) = match c {
                    b'n' => (b'\n', 2),
                    b't' => (b'\t', 2),
                    b'r' => (b'\r', 2),
                    b'a' => (7, 2),
                    b'b' => (8, 2),
                    b'f' => (12, 2),
                    b'v' => (11, 2),
                    b'0'..=b'7' => {
                        let digits: Vec<u8> = raw[i + 1..]
                            .iter()
                            .take(3)
                            .take_while(|d| (b'0'..=b'7').contains(d))
                            .copied()
                            .collect();
                        let value = digits
                            .iter()
                            .fold(0u32, |acc, d| acc * 8 + u32::from(d - b'0'));
                        (value as u8, 1 + digits.len())
                    }
                    other => (other, 2),
                };
                bytes.push(byte);
                i += used;
            }
            b => {
                bytes.push(b);
                i += 1;
            }
        }
    }
    (String::from_utf8_lossy(&bytes).into_owned(), "")
}

/// The counts of a hunk header `@@ -l,n +l,n @@`.
struct HunkHeader {
    old_start: usize,
    old_count: usize,
    new_count: usize,
}

fn hunk_header(line: PatchLine<'_>) -> Result<HunkHeader, PatchSyntaxError> {
    let bad = || {
        PatchSyntaxError::at(
            line.number,
            format!(
                "'{}' is not a hunk header of the form '@@ -l,n +l,n @@'",
                crate::text::excerpt::brief(line.text)
            ),
        )
    };
    let rest = line.strip_prefix("@@ ").ok_or_else(bad)?;
    let end = rest.find(" @@").ok_or_else(bad)?;
    let mut parts = rest[..end].split_whitespace();
    let range = |part: Option<&str>, sign: char| -> Option<(usize, usize)> {
        let body = part?.strip_prefix(sign)?;
        let (start, count) = match body.split_once(',') {
            Some((s, c)) => (s.parse().ok()?, c.parse().ok()?),
            None => (body.parse().ok()?, 1),
        };
        Some((start, count))
    };
    let (old_start, old_count) = range(parts.next(), '-').ok_or_else(bad)?;
    let (_, new_count) = range(parts.next(), '+').ok_or_else(bad)?;
    Ok(HunkHeader {
        old_start,
        old_count,
        new_count,
    })
}

/// Whether `line` can be a line of a hunk's body.
fn is_body_line(line: &str) -> bool {
    line.is_empty() || line.starts_with([' ', '-', '+', '\\'])
}

/// The hunks that follow a file header, and how many patch lines they take.
fn hunks(lines: &[PatchLine<'_>]) -> Result<(Vec<Hunk>, usize), PatchSyntaxError> {
    let mut hunks = Vec::new();
    let mut i = 0;
    while i < lines.len() && lines[i].starts_with("@@") {
        let header = hunk_header(lines[i])?;
        let start = i + 1;
        let body_len = match by_counts(&lines[start..], &header) {
            Some(len) => len,
            None => {
                let len = by_markers(&lines[start..]);
                let at_end = start + len == lines.len();
                if at_end {
                    check_not_cut_short(&lines[start..start + len], &header, lines[i].number)?;
                }
                len
            }
        };
        let mut hunk = Hunk {
            old_start: Some(header.old_start),
            line: lines[i].number,
            ..Hunk::default()
        };
        for line in &lines[start..start + body_len] {
            let text = line.text;
            match text.chars().next() {
                Some('\\') => match hunk.lines.last().map(|l| l.kind) {
                    Some(LineKind::Removed) => hunk.old_without_newline = true,
                    Some(LineKind::Added) => hunk.new_without_newline = true,
                    Some(LineKind::Context) => {
                        hunk.old_without_newline = true;
                        hunk.new_without_newline = true;
                    }
                    None => {}
                },
                Some(c) => hunk.lines.push(HunkLine {
                    kind: match c {
                        '-' => LineKind::Removed,
                        '+' => LineKind::Added,
                        _ => LineKind::Context,
                    },
                    text: text[1..].to_string(),
                }),
                None => hunk.lines.push(HunkLine {
                    kind: LineKind::Context,
                    text: String::new(),
                }),
            }
        }
        // A marker after a removed line that precedes the added ones (the
        // usual order) says the old side ends without a break.
        hunk.at_end = hunk.old_without_newline;
        if hunk.lines.is_empty() && (header.old_count > 0 || header.new_count > 0) {
            return Err(PatchSyntaxError::at(
                lines[i].number,
                "this hunk has no lines",
            ));
        }
        hunks.push(hunk);
        i = start + body_len;
    }
    Ok((hunks, i))
}

/// Refuses a hunk whose lines, which run to the end of the patch, fall short
/// of its header's counts: the patch was most likely cut short, and what was
/// cut may be lines it removes or adds. (Counts that are wrong in the middle
/// of a patch, as in a diff written by hand, are let through: the next
/// header shows where the hunk ends.)
fn check_not_cut_short(
    body: &[PatchLine<'_>],
    header: &HunkHeader,
    line: usize,
) -> Result<(), PatchSyntaxError> {
    let (mut old, mut new) = (0, 0);
    for l in body {
        match l.chars().next() {
            Some('-') => old += 1,
            Some('+') => new += 1,
            Some('\\') => {}
            _ => {
                old += 1;
                new += 1;
            }
        }
    }
    if old < header.old_count || new < header.new_count {
        return Err(PatchSyntaxError::at(
            line,
            format!(
                "this hunk's header counts {} old and {} new lines, but the patch ends after {old} and {new} of them: it seems cut short. Send the whole patch; if the counts were written by hand, correct them",
                header.old_count, header.new_count
            ),
        ));
    }
    Ok(())
}

/// The length of a hunk's body as its header's counts give it, or `None`
/// when the lines do not fit the counts.
fn by_counts(lines: &[PatchLine<'_>], header: &HunkHeader) -> Option<usize> {
    let (mut old, mut new) = (header.old_count, header.new_count);
    let mut i = 0;
    while old > 0 || new > 0 {
        let line = lines.get(i)?;
        match line.chars().next() {
            None | Some(' ') if old > 0 && new > 0 => {
                old -= 1;
                new -= 1;
            }
            Some('-') if old > 0 => old -= 1,
            Some('+') if new > 0 => new -= 1,
            Some('\\') => {}
            _ => return None,
        }
        i += 1;
    }
    while lines.get(i).is_some_and(|l| l.starts_with('\\')) {
        i += 1;
    }
    // More hunk lines right after the counted ones: the counts are wrong
    // (a `-- ` line followed by no hunk line is a mail signature).
    let next = lines.get(i);
    let continues = next.is_some_and(|l| {
        l.starts_with([' ', '+'])
            || (l.starts_with('-')
                && !l.starts_with("--- ")
                && l.text != "-- "
                && lines.get(i + 1).is_some_and(|n| is_body_line(n)))
    });
    (!continues).then_some(i)
}

/// The length of a hunk's body read by its lines' markers: up to the next
/// header, or the first line that is no hunk line.
fn by_markers(lines: &[PatchLine<'_>]) -> usize {
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let header = line.starts_with("@@")
            || line.starts_with("diff --git ")
            || is_file_header(lines, i)
            || line.text == "-- ";
        if header || !is_body_line(line.text) {
            break;
        }
        // An empty line is context only between hunk lines.
        if line.is_empty()
            && !lines
                .get(i + 1)
                .is_some_and(|n| is_body_line(n) && !n.is_empty())
        {
            break;
        }
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::super::parse;
    use super::*;

    #[test]
    fn git_headers_give_adds_deletes_renames_and_copies() {
        let diff = "commit 1234\nAuthor: x\n\n    message\n\ndiff --git a/new.txt b/new.txt\nnew file mode 100644\nindex 0000000..e69de29\n--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,2 @@\n+one\n+two\n\\ No newline at end of file\ndiff --git a/gone.txt b/gone.txt\ndeleted file mode 100644\n--- a/gone.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-bye\ndiff --git a/empty b/empty\nnew file mode 100644\ndiff --git a/x y.txt b/x y.txt\nold mode 100644\nnew mode 100755\ndiff --git a/a.rs b/b.rs\nsimilarity index 100%\nrename from a.rs\nrename to b.rs\ndiff --git a/c.rs b/d.rs\nsimilarity index 90%\ncopy from c.rs\ncopy to d.rs\n--- a/c.rs\n+++ b/d.rs\n@@ -1 +1 @@\n-c\n+d\n-- \n2.43.0\n";
        let files = parse(diff).unwrap().files;
        let summary: Vec<(ChangeKind, &str, Option<&str>, Option<&str>)> = files
            .iter()
            .map(|f| {
                (
                    f.kind,
                    f.path.as_str(),
                    f.new_path.as_deref(),
                    f.content.as_deref(),
                )
            })
            .collect();
        assert_eq!(
            summary,
            [
                (ChangeKind::Add, "new.txt", None, Some("one\ntwo")),
                (ChangeKind::Delete, "gone.txt", None, Some("bye\n")),
                (ChangeKind::Add, "empty", None, Some("")),
                (ChangeKind::Update, "x y.txt", None, None),
                (ChangeKind::Update, "a.rs", Some("b.rs"), None),
                (ChangeKind::Copy, "c.rs", Some("d.rs"), None),
            ]
        );
        assert_eq!(files[3].notes.len(), 1);
        assert_eq!(
            files[5].hunks[0].lines.len(),
            2,
            "the signature is no hunk line"
        );
    }

    #[test]
    fn hunk_headers_with_omitted_counts_and_section_text() {
        let diff = "--- x.c\t2024-01-01 10:00:00\n+++ x.c\t2024-01-02 10:00:00\n@@ -3 +3,2 @@ int main(void)\n-a\n+b\n+c\n@@ -10,2 +11,2 @@\n k\n-d\n+e\n";
        let files = parse(diff).unwrap().files;
        assert_eq!(files[0].path, "x.c");
        let starts: Vec<Option<usize>> = files[0].hunks.iter().map(|h| h.old_start).collect();
        assert_eq!(starts, [Some(3), Some(10)]);
        assert_eq!(files[0].hunks[1].lines.len(), 3);
    }

    #[test]
    fn wrong_counts_fall_back_to_the_line_markers() {
        // The header says one line each, the body has more.
        let diff = "--- a/f\n+++ b/f\n@@ -1,1 +1,1 @@\n a\n-b\n+c\n d\n";
        let hunk = &parse(diff).unwrap().files[0].hunks[0];
        assert_eq!(hunk.lines.len(), 4);
        // Too many: the body ends at the next file.
        let diff =
            "--- a/f\n+++ b/f\n@@ -1,5 +1,5 @@\n-b\n+c\n--- a/g\n+++ b/g\n@@ -1 +1 @@\n-x\n+y\n";
        let files = parse(diff).unwrap().files;
        assert_eq!(files.len(), 2);
        assert_eq!(files[0].hunks[0].lines.len(), 2);
    }

    #[test]
    fn a_last_hunk_shorter_than_its_counts_is_refused_as_cut_short() {
        // Cut after the first removed line: applied, it would remove one
        // line of three.
        let diff = "--- a/f\n+++ b/f\n@@ -1,4 +1,2 @@\n a\n-b\n";
        let err = parse(diff).unwrap_err();
        assert_eq!(err.line, Some(3));
        assert!(err.message.contains("counts 4 old and 2 new lines, but the patch ends after 2 and 1 of them: it seems cut short"), "{err}");
        // The same hunk whole is read.
        let whole = "--- a/f\n+++ b/f\n@@ -1,4 +1,2 @@\n a\n-b\n-c\n-d\n+e\n";
        assert_eq!(parse(whole).unwrap().files[0].hunks[0].lines.len(), 5);
    }

    #[test]
    fn quoted_names_and_removed_lines_that_look_like_headers() {
        let diff = "diff --git \"a/caf\\303\\251 \\\"x\\\".md\" \"b/caf\\303\\251 \\\"x\\\".md\"\n--- \"a/caf\\303\\251 \\\"x\\\".md\"\n+++ \"b/caf\\303\\251 \\\"x\\\".md\"\n@@ -1,2 +1,1 @@\n--- old rule\n keep\n";
        let file = &parse(diff).unwrap().files[0];
        assert_eq!(file.path, "café \"x\".md");
        assert_eq!(file.hunks[0].lines[0].text, "-- old rule");
    }

    #[test]
    fn binary_patches_and_orphan_hunks_are_refused() {
        let err = parse("diff --git a/i.png b/i.png\nindex 1..2 100644\nBinary files a/i.png and b/i.png differ\n").unwrap_err();
        assert!(err.message.contains("binary"), "{err}");
        let err = parse("@@ -1 +1 @@\n-a\n+b\n").unwrap_err();
        assert!(err.message.contains("no file header"), "{err}");
    }
}
