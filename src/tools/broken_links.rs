//! The internal links an edit of a Markdown file broke: links in the notes
//! of its root (and in the file itself) to a heading, anchor or block the
//! edit took away, e.g. `[[garden#Tasks]]` after `## Tasks` was renamed. A
//! reply names them with the likely fix; nothing else is changed.
//!
//! Most edits touch no heading, anchor or block id, and cost only a look at
//! the lines they changed; the notes of the root are read only when an
//! anchor the file had is gone.

use std::sync::atomic::AtomicBool;

use super::context::ToolContext;
use super::link_context::{MAX_INDEXED_FILES, relative_to};
use crate::text::byte_delta::Delta;
use crate::text::document::Document;
use crate::text::format::{Format, format_of};
use crate::text::lines::LineIndex;
use crate::text::markdown::{
    FragmentLookup, LinkedDocument, VaultIndex, WikiFragment, find_fragment, find_wiki_fragment,
    links_into, vanished_anchors,
};
use crate::workspace::Workspace;
use crate::workspace::batch::Edited;
use crate::workspace::roots::ResolvedPath;
use crate::workspace::search::files::walk_files;

/// Broken links named in a note, at most.
const LISTED: usize = 5;

/// A link the edit broke.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BrokenByEdit {
    /// The file holding it, relative to the root.
    pub file: String,
    /// Its line (in the file as edited, for the edited file itself).
    pub line: usize,
    /// The target as written.
    pub target: String,
    /// The fragment the target could name instead, as it would be written.
    pub fix: Option<String>,
}

/// The note for the reply of `edited`, when it broke links into its file.
pub fn edit_note<T>(ctx: &ToolContext, edited: &Edited<T>) -> Option<String> {
    broken_links_note(&ctx.workspace, &edited.path, &edited.before, &edited.after)
}

/// The note for a reply: the links into `path` that `before` → `after`
/// broke, with their likely fixes; `None` when it broke none.
pub fn broken_links_note(
    workspace: &Workspace,
    path: &ResolvedPath,
    before: &Document,
    after: &Document,
) -> Option<String> {
    let broken = broken_links(workspace, path, before, after);
    if broken.is_empty() {
        return None;
    }
    let listed: Vec<String> = broken
        .iter()
        .take(LISTED)
        .map(|b| {
            let fix = b
                .fix
                .as_ref()
                .map(|f| format!(" (now perhaps '{f}')"))
                .unwrap_or_default();
            format!("{} line {}: '{}'{fix}", b.file, b.line, b.target)
        })
        .collect();
    let more = broken.len().saturating_sub(LISTED);
    let more = if more > 0 {
        format!(" and {more} more")
    } else {
        String::new()
    };
    let (count, noun) = match broken.len() {
        1 => ("1 link".to_string(), "points"),
        n => (format!("{n} links"), "point"),
    };
    Some(format!(
        "{count} into this file now {noun} at a heading, anchor or block that is gone: {}{more}. They were left as they are: update them (e.g. with TextReplace), or put the heading back (CheckLinks lists them)",
        listed.join(", ")
    ))
}

/// The links into `path` that changing it from `before` to `after` broke.
pub fn broken_links(
    workspace: &Workspace,
    path: &ResolvedPath,
    before: &Document,
    after: &Document,
) -> Vec<BrokenByEdit> {
    if format_of(&path.real) != Format::Markdown || !may_touch_anchors(before, after) {
        return Vec::new();
    }
    let was = LinkedDocument::parse(before.text());
    let now = LinkedDocument::parse(after.text());
    let blocks_gone = was
        .blocks
        .iter()
        .any(|b| !now.blocks.iter().any(|n| n.id == b.id));
    if !blocks_gone && vanished_anchors(&was.outline, &now.outline).is_empty() {
        return Vec::new();
    }

    let root = &path.root;
    let target = relative_to(root, &path.real);
    let start = ResolvedPath {
        real: root.clone(),
        root: root.clone(),
        exists: true,
    };
    let walked = walk_files(&start, MAX_INDEXED_FILES, &AtomicBool::new(false));
    let mut files: Vec<String> = walked.files.iter().map(|f| relative_to(root, f)).collect();
    if !files.contains(&target) {
        files.push(target.clone());
    }
    let notes = VaultIndex::new(files.iter().cloned());
    let mut broken = Vec::new();
    for from in &files {
        let real = root.join(from);
        if format_of(&real) != Format::Markdown {
            continue;
        }
        let read;
        let text = if *from == target {
            after.text()
        } else {
            let Some(given) = real.to_str() else { continue };
            match workspace.read(given, None) {
                Ok(file) if file.path.root == *root => {
                    read = file.doc;
                    read.text()
                }
                _ => continue,
            }
        };
        if !text.contains('#') {
            continue;
        }
        let index = LineIndex::new(text);
        for (link, fragment) in links_into(text, &index, from, &target, &notes) {
            let Some(fragment) = fragment else { continue };
            let fix = if link.kind.is_wiki() {
                let wiki = match fragment.strip_prefix('^') {
                    Some(id) => WikiFragment::Block(id.to_string()),
                    None => {
                        WikiFragment::Heading(fragment.split('#').map(str::to_string).collect())
                    }
                };
                let found = |d: &LinkedDocument| find_wiki_fragment(&d.outline, &d.blocks, &wiki);
                match (found(&was), found(&now)) {
                    (FragmentLookup::Found(_), FragmentLookup::Missing { nearest }) => {
                        Some(nearest.and_then(|h| {
                            now.outline
                                .headings
                                .iter()
                                .find(|x| x.line == h.line)
                                .map(|x| format!("#{}", x.text))
                        }))
                    }
                    _ => None,
                }
            } else {
                let found = |d: &LinkedDocument| find_fragment(&d.outline, &d.blocks, &fragment);
                match (found(&was), found(&now)) {
                    (FragmentLookup::Found(_), FragmentLookup::Missing { nearest }) => {
                        Some(nearest.and_then(|h| {
                            now.outline
                                .headings
                                .iter()
                                .find(|x| x.line == h.line)
                                .map(|x| format!("#{}", x.slug))
                        }))
                    }
                    _ => None,
                }
            };
            if let Some(fix) = fix {
                broken.push(BrokenByEdit {
                    file: from.clone(),
                    line: link.line,
                    target: link.target.clone(),
                    fix,
                });
            }
        }
    }
    broken
}

/// Whether the lines the edit changed could hold a heading, an anchor or a
/// block id: a cheap look before any parsing.
fn may_touch_anchors(before: &Document, after: &Document) -> bool {
    let (old, new) = (before.text(), after.text());
    let delta = Delta::between(old.as_bytes(), new.as_bytes());
    if delta.is_empty() {
        return false;
    }
    let lines = before.lines();
    if lines.is_empty() {
        return false;
    }
    let first = lines.line_of_offset(delta.prefix);
    if delta.old_len == 0 && lines.start(first) == delta.prefix {
        // Whole lines put before line `first`: no heading, anchor or block
        // changes, unless they come between a setext heading's text and
        // its underline.
        return is_underline(lines.text(old, first));
    }
    // The line after the change too: a setext heading's underline.
    let last = (lines.line_of_offset(delta.prefix + delta.old_len) + 1).min(lines.len());
    let text = &old[lines.start(first)..lines.start(last + 1)];
    text.contains(['#', '<', '^', '{']) || text.lines().any(is_underline)
}

/// Whether `line` could be a setext heading's underline.
fn is_underline(line: &str) -> bool {
    let line = line.trim();
    !line.is_empty() && (line.bytes().all(|b| b == b'=') || line.bytes().all(|b| b == b'-'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::encoding::TextEncoding;

    fn doc(text: &str) -> Document {
        Document::from_text(text, TextEncoding::Utf8, false).unwrap()
    }

    #[test]
    fn only_edits_near_headings_anchors_or_blocks_are_looked_at() {
        let before = doc("# A\n\ntext here\n\n## Tasks\n\nmore\nSetext\n---\n");
        let edit = |from: &str, to: &str| doc(&before.text().replacen(from, to, 1));
        assert!(!may_touch_anchors(
            &before,
            &edit("text here", "text there")
        ));
        assert!(!may_touch_anchors(&before, &before.clone()));
        assert!(may_touch_anchors(&before, &edit("Tasks", "Chores")));
        assert!(may_touch_anchors(&before, &edit("Setext", "Other")));
        assert!(may_touch_anchors(&before, &edit("## Tasks\n\n", "")));
        // Whole lines added before a heading cannot take an anchor away; a
        // line between a setext heading's text and underline can.
        assert!(!may_touch_anchors(
            &before,
            &edit("## Tasks", "- new\n## Tasks")
        ));
        assert!(may_touch_anchors(&before, &edit("---\n", "x\n---\n")));
        // Text added inside a heading line changes it.
        assert!(may_touch_anchors(
            &before,
            &edit("## Tasks", "## Tasks and more")
        ));
    }
}
