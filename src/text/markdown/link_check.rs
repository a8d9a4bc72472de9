//! Whether a link's target exists: the file or folder a path reaches, the
//! note a wikilink names, and the heading, anchor or block its fragment
//! names, with a reason and a suggestion when it does not.
//!
//! The file system is reached through [`LinkContext`], so the rules are pure
//! and tested here; the tools supply a context backed by the workspace.

use super::fragments::{BlockId, FragmentLookup, block_ids, find_fragment, find_wiki_fragment};
use super::link_target::{LinkTarget, WikiFragment, classify};
use super::links::Link;
use super::vault::{NoteLookup, VaultIndex, join_path, relative_path, strip_md};
use super::{MarkdownOutline, parse};

/// What is at a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryKind {
    /// A file.
    File,
    /// A folder.
    Folder,
}

/// A Markdown document a link may point into.
#[derive(Debug, Clone)]
pub struct LinkedDocument {
    /// Its outline, with anchors.
    pub outline: MarkdownOutline,
    /// Its block ids.
    pub blocks: Vec<BlockId>,
}

impl LinkedDocument {
    /// Parses `text`.
    pub fn parse(text: &str) -> LinkedDocument {
        LinkedDocument {
            outline: parse(text),
            blocks: block_ids(text),
        }
    }
}

/// The files a link check may look at. Paths are relative to the root of the
/// document being checked, `/`-separated.
pub trait LinkContext {
    /// What is at `path`, if anything.
    fn entry(&mut self, path: &str) -> Option<EntryKind>;
    /// The root's files, for wikilinks.
    fn notes(&mut self) -> &VaultIndex;
    /// The Markdown document at `path`, if it is one and can be read.
    fn document(&mut self, path: &str) -> Option<&LinkedDocument>;
    /// The note a wikilink in `from` names by one of its frontmatter
    /// aliases (asked only when no file has the name).
    fn alias(&mut self, _name: &str, _from: &str) -> NoteLookup {
        NoteLookup::Missing
    }
    /// Whether a broken link should come with a suggestion (finding one
    /// compares the target with every file; a caller that will not show it
    /// can skip the work).
    fn suggestions(&self) -> bool {
        true
    }
}

/// The verdict on one link.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkStatus {
    /// A URL outside the roots: not checked.
    External,
    /// The target exists.
    Found {
        /// The file or folder it reaches (relative to the root); `None` for a
        /// place in the same document.
        path: Option<String>,
        /// The line a fragment points to.
        line: Option<usize>,
    },
    /// The target does not exist, or cannot be told apart.
    Broken {
        /// Why, e.g. "no heading 'Taks' in projects/garden.md".
        reason: String,
        /// What to write instead, when something close exists.
        suggestion: Option<String>,
    },
}

impl LinkStatus {
    fn broken(reason: String, suggestion: Option<String>) -> LinkStatus {
        LinkStatus::Broken { reason, suggestion }
    }
}

/// Checks `link`, found in document `from` (whose parsed form is `own`).
pub fn check_link(
    link: &Link,
    from: &str,
    own: &LinkedDocument,
    ctx: &mut impl LinkContext,
) -> LinkStatus {
    if link.is_undefined_reference() {
        let label = link.label.as_deref().unwrap_or("");
        return LinkStatus::broken(
            format!("no definition for the reference [{label}]"),
            Some(format!(
                "Add a definition line such as '[{label}]: path/to/file.md', or fix the label"
            )),
        );
    }
    match classify(link.kind, &link.target) {
        LinkTarget::External => LinkStatus::External,
        LinkTarget::Empty => LinkStatus::Found {
            path: None,
            line: None,
        },
        LinkTarget::Fragment(fragment) => {
            match find_fragment(&own.outline, &own.blocks, &fragment) {
                FragmentLookup::Found(line) => LinkStatus::Found {
                    path: None,
                    line: Some(line),
                },
                FragmentLookup::Missing { nearest } => LinkStatus::broken(
                    format!("no heading or anchor '#{fragment}' in this file"),
                    nearest.map(|h| format!("Nearest heading: '{}' (line {})", h.display, h.line)),
                ),
            }
        }
        LinkTarget::Path { path, fragment } => check_path(&path, fragment.as_deref(), from, ctx),
        LinkTarget::Note { name, fragment } => check_note(&name, fragment.as_ref(), from, own, ctx),
    }
}

fn check_path(
    path: &str,
    fragment: Option<&str>,
    from: &str,
    ctx: &mut impl LinkContext,
) -> LinkStatus {
    let Some(joined) = join_path(from, path) else {
        return LinkStatus::broken(
            format!("'{path}' leads outside the root folder"),
            Some("Link only to files inside the root, or use a full URL".into()),
        );
    };
    let resolved = match ctx.entry(&joined) {
        Some(EntryKind::Folder) => {
            return LinkStatus::Found {
                path: Some(joined),
                line: None,
            };
        }
        Some(EntryKind::File) => joined,
        None => {
            // Note apps and site generators also find `notes/a` as `notes/a.md`.
            let with_md = format!("{joined}.md");
            if !joined.is_empty()
                && strip_md(&joined).is_none()
                && ctx.entry(&with_md) == Some(EntryKind::File)
            {
                with_md
            } else {
                let shown = if joined.is_empty() { "." } else { &joined };
                let suggestion = if ctx.suggestions() {
                    nearest_file(ctx.notes(), &joined)
                        .map(|p| format!("Did you mean '{}'?", relative_path(from, &p)))
                } else {
                    None
                };
                return LinkStatus::broken(format!("no file {shown}"), suggestion);
            }
        }
    };
    let Some(fragment) = fragment.filter(|f| !f.is_empty()) else {
        return LinkStatus::Found {
            path: Some(resolved),
            line: None,
        };
    };
    let lookup = match ctx.document(&resolved) {
        Some(doc) => find_fragment(&doc.outline, &doc.blocks, fragment),
        // Not Markdown, or not readable: its fragments cannot be checked.
        None => {
            return LinkStatus::Found {
                path: Some(resolved),
                line: None,
            };
        }
    };
    fragment_status(lookup, &format!("#{fragment}"), resolved)
}

fn check_note(
    name: &str,
    fragment: Option<&WikiFragment>,
    from: &str,
    own: &LinkedDocument,
    ctx: &mut impl LinkContext,
) -> LinkStatus {
    if name.is_empty() {
        return match fragment {
            Some(f) => {
                let lookup = find_wiki_fragment(&own.outline, &own.blocks, f);
                match lookup {
                    FragmentLookup::Found(line) => LinkStatus::Found {
                        path: None,
                        line: Some(line),
                    },
                    FragmentLookup::Missing { nearest } => LinkStatus::broken(
                        format!("no {} in this file", describe(f)),
                        nearest
                            .map(|h| format!("Nearest heading: '{}' (line {})", h.display, h.line)),
                    ),
                }
            }
            None => LinkStatus::Found {
                path: None,
                line: None,
            },
        };
    }
    let lookup = match ctx.notes().find_note(name, from) {
        NoteLookup::Missing => ctx.alias(name, from),
        lookup => lookup,
    };
    let found = match lookup {
        NoteLookup::Found(path) => path,
        NoteLookup::Missing => {
            let suggestion = if ctx.suggestions() {
                let notes = ctx.notes();
                notes
                    .nearest_by_name(name, 0.6)
                    .map(|p| format!("Did you mean [[{}]]?", notes.note_link(p, from, false)))
            } else {
                None
            };
            return LinkStatus::broken(format!("no note named '{name}'"), suggestion);
        }
        NoteLookup::Ambiguous(paths) => {
            let shown: Vec<&str> = paths.iter().take(5).map(String::as_str).collect();
            return LinkStatus::broken(
                format!(
                    "'{name}' fits {} files ({}) and none is nearer than the others",
                    paths.len(),
                    shown.join(", ")
                ),
                Some(format!(
                    "Write more of the path to pick one, e.g. [[{}]]",
                    strip_md(&paths[0]).unwrap_or(&paths[0])
                )),
            );
        }
    };
    let Some(fragment) = fragment else {
        return LinkStatus::Found {
            path: Some(found),
            line: None,
        };
    };
    let lookup = match ctx.document(&found) {
        Some(doc) => find_wiki_fragment(&doc.outline, &doc.blocks, fragment),
        None => {
            return LinkStatus::Found {
                path: Some(found),
                line: None,
            };
        }
    };
    let what = match fragment {
        WikiFragment::Heading(parts) => format!("#{}", parts.join("#")),
        WikiFragment::Block(id) => format!("#^{id}"),
    };
    fragment_status(lookup, &what, found)
}

/// The status of a fragment lookup in file `path`.
fn fragment_status(lookup: FragmentLookup, fragment: &str, path: String) -> LinkStatus {
    match lookup {
        FragmentLookup::Found(line) => LinkStatus::Found {
            path: Some(path),
            line: Some(line),
        },
        FragmentLookup::Missing { nearest } => {
            let what = if let Some(block) = fragment.strip_prefix("#^") {
                format!("block '^{block}'")
            } else {
                format!("heading '{}'", fragment.trim_start_matches('#'))
            };
            LinkStatus::broken(
                format!("no {what} in {path}"),
                nearest.map(|h| format!("Nearest heading: '{}' (line {})", h.display, h.line)),
            )
        }
    }
}

fn describe(fragment: &WikiFragment) -> String {
    match fragment {
        WikiFragment::Heading(parts) => format!("heading '{}'", parts.join("#")),
        WikiFragment::Block(id) => format!("block '^{id}'"),
    }
}

/// A file with the same name elsewhere, else the one whose name is most
/// like `wanted`'s.
fn nearest_file(notes: &VaultIndex, wanted: &str) -> Option<String> {
    notes
        .same_name(wanted)
        .or_else(|| notes.nearest_by_name(wanted, 0.75))
        .map(str::to_string)
}

#[cfg(test)]
pub(crate) mod tests {
    use std::collections::HashMap;

    use super::super::links::parse_links;
    use super::*;
    use crate::text::lines::LineIndex;

    /// An in-memory root: files with their text.
    pub(crate) struct MemoryRoot {
        pub files: HashMap<String, String>,
        pub notes: VaultIndex,
        pub parsed: HashMap<String, LinkedDocument>,
    }

    impl MemoryRoot {
        pub(crate) fn new(files: &[(&str, &str)]) -> MemoryRoot {
            MemoryRoot {
                files: files
                    .iter()
                    .map(|(p, t)| (p.to_string(), t.to_string()))
                    .collect(),
                notes: VaultIndex::new(files.iter().map(|(p, _)| p.to_string())),
                parsed: HashMap::new(),
            }
        }
    }

    impl LinkContext for MemoryRoot {
        fn entry(&mut self, path: &str) -> Option<EntryKind> {
            if self.files.contains_key(path) {
                Some(EntryKind::File)
            } else if path.is_empty()
                || self
                    .files
                    .keys()
                    .any(|f| f.starts_with(&format!("{path}/")))
            {
                Some(EntryKind::Folder)
            } else {
                None
            }
        }

        fn notes(&mut self) -> &VaultIndex {
            &self.notes
        }

        fn document(&mut self, path: &str) -> Option<&LinkedDocument> {
            if !path.ends_with(".md") {
                return None;
            }
            let text = self.files.get(path)?.clone();
            Some(
                self.parsed
                    .entry(path.to_string())
                    .or_insert_with(|| LinkedDocument::parse(&text)),
            )
        }
    }

    fn statuses(root: &mut MemoryRoot, from: &str) -> Vec<(String, LinkStatus)> {
        let text = root.files[from].clone();
        let own = LinkedDocument::parse(&text);
        parse_links(&text, &LineIndex::new(&text))
            .iter()
            .map(|l| (l.target.clone(), check_link(l, from, &own, root)))
            .collect()
    }

    fn found(path: Option<&str>, line: Option<usize>) -> LinkStatus {
        LinkStatus::Found {
            path: path.map(str::to_string),
            line,
        }
    }

    fn broken(reason: &str, suggestion: Option<&str>) -> LinkStatus {
        LinkStatus::Broken {
            reason: reason.into(),
            suggestion: suggestion.map(str::to_string),
        }
    }

    const GARDEN: &str = "# Garden\n\n## Plan {#plan}\n\n## Tasks\n\n- dig ^dig\n";

    #[test]
    fn paths_and_fragments() {
        let mut root = MemoryRoot::new(&[
            ("projects/garden.md", GARDEN),
            ("img/a b.png", ""),
            (
                "notes/today.md",
                "# Today\n\n[g](../projects/garden.md#tasks) [p](../projects/garden.md#Plan) \
                 [x](../projects/garden.md#taks) [n](../projects/gardn.md) [i](../img/a%20b.png#x) \
                 [f](../img/) [s](#today) [s2](#todya) [up](../../x.md) [w](https://x.example) \
                 [noext](../projects/garden) [m][missing]\n",
            ),
        ]);
        let got = statuses(&mut root, "notes/today.md");
        let expected = [
            found(Some("projects/garden.md"), Some(5)),
            found(Some("projects/garden.md"), Some(3)),
            broken(
                "no heading 'taks' in projects/garden.md",
                Some("Nearest heading: '## Tasks' (line 5)"),
            ),
            broken(
                "no file projects/gardn.md",
                Some("Did you mean '../projects/garden.md'?"),
            ),
            found(Some("img/a b.png"), None),
            found(Some("img"), None),
            found(None, Some(1)),
            broken(
                "no heading or anchor '#todya' in this file",
                Some("Nearest heading: '# Today' (line 1)"),
            ),
            broken(
                "'../../x.md' leads outside the root folder",
                Some("Link only to files inside the root, or use a full URL"),
            ),
            LinkStatus::External,
            found(Some("projects/garden.md"), None),
            broken(
                "no definition for the reference [missing]",
                Some(
                    "Add a definition line such as '[missing]: path/to/file.md', or fix the label",
                ),
            ),
        ];
        let statuses: Vec<LinkStatus> = got.into_iter().map(|(_, s)| s).collect();
        assert_eq!(statuses, expected);
    }

    #[test]
    fn wikilinks() {
        let mut root = MemoryRoot::new(&[
            ("projects/garden.md", GARDEN),
            ("archive/plan.md", "# Plan\n"),
            ("old/plan.md", "# Plan\n"),
            (
                "index.md",
                "# Index\n\n[[garden]] [[Garden#Tasks]] [[garden#Tasks#Nope]] [[garden#^dig]] \
                 [[garden#^gone]] [[gardn]] [[plan]] [[#Index]] [[#Nowhere]] ![[garden.md|G]]\n",
            ),
        ]);
        let statuses: Vec<LinkStatus> = statuses(&mut root, "index.md")
            .into_iter()
            .map(|(_, s)| s)
            .collect();
        assert_eq!(
            statuses,
            [
                found(Some("projects/garden.md"), None),
                found(Some("projects/garden.md"), Some(5)),
                broken("no heading 'Tasks#Nope' in projects/garden.md", None),
                found(Some("projects/garden.md"), Some(7)),
                broken("no block '^gone' in projects/garden.md", None),
                broken("no note named 'gardn'", Some("Did you mean [[garden]]?")),
                broken(
                    "'plan' fits 2 files (archive/plan.md, old/plan.md) and none is nearer than the others",
                    Some("Write more of the path to pick one, e.g. [[archive/plan]]"),
                ),
                found(None, Some(1)),
                broken("no heading 'Nowhere' in this file", None),
                found(Some("projects/garden.md"), None),
            ]
        );
    }
}
