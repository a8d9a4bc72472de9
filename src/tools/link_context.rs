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
use crate::text::markdown::{EntryKind, LinkContext, LinkedDocument, VaultIndex};
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

    fn suggestions(&self) -> bool {
        self.suggest
    }
}
