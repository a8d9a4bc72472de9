//! The link checker's view of the roots: which files and folders exist,
//! which notes a wikilink can name, and the outlines of the Markdown files
//! links point into, each looked up once per call and kept.
//!
//! Paths are relative to one root; a link never reaches into another root.
//! Existence is checked on the file system beneath the root's handle (so a
//! hidden or ignored file a link names does exist), while the notes a
//! wikilink can name are those a search would see (hidden, ignored and
//! trashed files left out, as note apps leave them out).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use crate::text::format::{Format, format_of};
use crate::text::markdown::{
    EntryKind, LinkContext, LinkStyle, LinkedDocument, NoteLookup, VaultIndex, alias_names,
};
use crate::text::properties;
use crate::workspace::Workspace;
use crate::workspace::beneath::or_dot;
use crate::workspace::roots::ResolvedPath;
use crate::workspace::search::files::walk_files;

/// Most files indexed per root for wikilinks.
pub const MAX_INDEXED_FILES: usize = 200_000;

/// One root as links see it.
pub struct RootLinks<'a> {
    workspace: &'a Workspace,
    root: PathBuf,
    cancel: &'a AtomicBool,
    notes: Option<VaultIndex>,
    /// Whether the notes index stopped at [`MAX_INDEXED_FILES`].
    pub index_truncated: bool,
    /// Whether broken links get suggestions (off once a reply has listed
    /// all the broken links it will show).
    pub suggest: bool,
    entries: HashMap<String, Option<EntryKind>>,
    documents: HashMap<String, Option<LinkedDocument>>,
    aliases_loaded: bool,
}

impl<'a> RootLinks<'a> {
    /// The view of `root` (a real, canonical root folder).
    pub fn new(workspace: &'a Workspace, root: PathBuf, cancel: &'a AtomicBool) -> RootLinks<'a> {
        RootLinks {
            workspace,
            root,
            cancel,
            notes: None,
            index_truncated: false,
            suggest: true,
            entries: HashMap::new(),
            documents: HashMap::new(),
            aliases_loaded: false,
        }
    }

    /// Reads the `aliases` of every note of the root into its index, once.
    fn load_aliases(&mut self) {
        if self.aliases_loaded {
            return;
        }
        self.aliases_loaded = true;
        let notes: Vec<String> = self
            .notes()
            .files()
            .iter()
            .filter(|f| format_of(Path::new(f.as_str())) == Format::Markdown)
            .cloned()
            .collect();
        let mut found = Vec::new();
        for rel in notes {
            let Some(given) = self.absolute(&rel).to_str().map(str::to_string) else {
                continue;
            };
            let Ok(file) = self.workspace.read(&given, None) else {
                continue;
            };
            let aliases = note_aliases(file.doc.text());
            if !aliases.is_empty() {
                found.push((rel, aliases));
            }
        }
        if let Some(index) = self.notes.as_mut() {
            for (rel, aliases) in found {
                index.add_aliases(&rel, &aliases);
            }
        }
    }

    /// The root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Uses `notes` as the root's index of notes (from a walk already done).
    pub fn set_notes(&mut self, notes: VaultIndex) {
        self.notes = Some(notes);
    }

    fn absolute(&self, path: &str) -> PathBuf {
        if path.is_empty() {
            self.root.clone()
        } else {
            self.root.join(path)
        }
    }
}

/// The aliases a note's frontmatter gives it (`aliases` or `alias`).
pub fn note_aliases(text: &str) -> Vec<String> {
    if !text.starts_with("---") && !text.starts_with("+++") {
        return Vec::new();
    }
    let Ok(Some(props)) = properties::read(text) else {
        return Vec::new();
    };
    props
        .entries
        .iter()
        .filter(|p| p.key.eq_ignore_ascii_case("aliases") || p.key.eq_ignore_ascii_case("alias"))
        .flat_map(|p| alias_names(&p.value))
        .collect()
}

/// How the vault at `root` writes links: its `.obsidian/app.json`, or
/// `None` when it has none.
pub fn link_style(workspace: &Workspace, root: &Path) -> Option<LinkStyle> {
    use std::io::Read;
    let roots = workspace.roots();
    let file = roots.dir(root)?.open(".obsidian/app.json").ok()?;
    let mut text = String::new();
    file.into_std()
        .take(1 << 20)
        .read_to_string(&mut text)
        .ok()?;
    Some(LinkStyle::from_app_json(&text))
}

/// `path` relative to `root`, with `/` between its components.
pub fn relative_to(root: &Path, path: &Path) -> String {
    let relative = path.strip_prefix(root).unwrap_or(path);
    relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

impl LinkContext for RootLinks<'_> {
    fn entry(&mut self, path: &str) -> Option<EntryKind> {
        if let Some(kind) = self.entries.get(path) {
            return *kind;
        }
        // Through the root's handle: a symbolic link that leads out of the
        // root (even into another root) reaches nothing.
        let roots = self.workspace.roots();
        let kind = roots
            .dir(&self.root)
            .and_then(|dir| dir.metadata(or_dot(Path::new(path))).ok())
            .map(|meta| {
                if meta.is_dir() {
                    EntryKind::Folder
                } else {
                    EntryKind::File
                }
            });
        self.entries.insert(path.to_string(), kind);
        kind
    }

    fn notes(&mut self) -> &VaultIndex {
        if self.notes.is_none() {
            let start = ResolvedPath {
                real: self.root.clone(),
                root: self.root.clone(),
                exists: true,
            };
            let walked = walk_files(&start, MAX_INDEXED_FILES, self.cancel);
            self.index_truncated = walked.truncated;
            let root = &self.root;
            self.notes = Some(VaultIndex::new(
                walked.files.iter().map(|f| relative_to(root, f)),
            ));
        }
        self.notes.as_ref().expect("indexed above")
    }

    fn document(&mut self, path: &str) -> Option<&LinkedDocument> {
        if !self.documents.contains_key(path) {
            let absolute = self.absolute(path);
            let parsed = (format_of(&absolute) == Format::Markdown)
                .then(|| absolute.to_str().map(str::to_string))
                .flatten()
                .and_then(|given| self.workspace.read(&given, None).ok())
                .filter(|file| file.path.root == self.root)
                .map(|file| LinkedDocument::parse(file.doc.text()));
            self.documents.insert(path.to_string(), parsed);
        }
        self.documents.get(path).and_then(Option::as_ref)
    }

    fn alias(&mut self, name: &str, from: &str) -> NoteLookup {
        self.load_aliases();
        self.notes
            .as_ref()
            .map_or(NoteLookup::Missing, |n| n.find_alias(name, from))
    }

    fn suggestions(&self) -> bool {
        self.suggest
    }
}
