//! The files of a root as links see them: paths relative to the root with
//! `/` between components, path arithmetic on them, and Obsidian's rules for
//! finding the note a `[[wikilink]]` names.
//!
//! A wikilink names a note by its file name (`.md` optional), case
//! insensitively, or by a path that ends with it (`projects/garden`), or by a
//! path relative to the linking note (`../projects/garden`). When several
//! files fit, the one in the linking note's folder wins, then the one with
//! the strictly shortest path; otherwise the link is ambiguous. Writing a link
//! takes the shortest name that finds the file again under the same rules.
//!
//! ```
//! use mcp_server_text::text::markdown::{NoteLookup, VaultIndex, join_path, relative_path};
//!
//! let vault = VaultIndex::new(["projects/garden.md", "archive/old/garden.md", "README.md"]);
//! assert_eq!(vault.find_note("garden", "README.md"), NoteLookup::Found("projects/garden.md".into()));
//! assert_eq!(vault.find_note("old/Garden", "README.md"), NoteLookup::Found("archive/old/garden.md".into()));
//! assert_eq!(vault.note_link("archive/old/garden.md", "README.md", false), "old/garden");
//! assert_eq!(join_path("notes/a.md", "../projects/garden.md"), Some("projects/garden.md".into()));
//! assert_eq!(relative_path("notes/a.md", "projects/garden.md"), "../projects/garden.md");
//! ```

use std::collections::HashMap;

use rapidfuzz::distance::levenshtein;

/// The files of one root, for resolving wikilinks.
#[derive(Debug, Clone, Default)]
pub struct VaultIndex {
    /// Paths relative to the root, sorted.
    files: Vec<String>,
    /// From a lowercased file name, and for Markdown notes also the name
    /// without `.md`, to the files that have it.
    by_name: HashMap<String, Vec<usize>>,
    /// From a lowercased path to the files that have it (more than one only
    /// on a case-sensitive file system with names that differ in case).
    by_path: HashMap<String, Vec<usize>>,
    /// Each file's lowercased name without `.md`, with its length in
    /// characters, for suggestions.
    stems: Vec<(String, usize)>,
    /// From a lowercased alias (a note's frontmatter `aliases`) to the notes
    /// that have it.
    aliases: HashMap<String, Vec<usize>>,
}

/// What a wikilink's name finds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoteLookup {
    /// This file.
    Found(String),
    /// No file has the name.
    Missing,
    /// Several files have it and none is preferred; their paths, sorted.
    Ambiguous(Vec<String>),
}

impl VaultIndex {
    /// An index of `paths` (relative to the root, `/`-separated).
    pub fn new<S: Into<String>>(paths: impl IntoIterator<Item = S>) -> VaultIndex {
        let mut files: Vec<String> = paths.into_iter().map(Into::into).collect();
        files.sort();
        files.dedup();
        let mut by_name: HashMap<String, Vec<usize>> = HashMap::with_capacity(files.len() * 2);
        let mut by_path: HashMap<String, Vec<usize>> = HashMap::with_capacity(files.len());
        let mut stems = Vec::with_capacity(files.len());
        for (i, path) in files.iter().enumerate() {
            let lower = path.to_lowercase();
            let name = file_name(&lower).to_string();
            let stem = strip_md(&name).unwrap_or(&name).to_string();
            if stem.len() < name.len() {
                by_name.entry(stem.clone()).or_default().push(i);
            }
            stems.push((stem.clone(), stem.chars().count()));
            by_name.entry(name).or_default().push(i);
            by_path.entry(lower).or_default().push(i);
        }
        VaultIndex {
            files,
            by_name,
            by_path,
            stems,
            aliases: HashMap::new(),
        }
    }

    /// Records that note `path` (one of the files) has the frontmatter
    /// `aliases`.
    pub fn add_aliases(&mut self, path: &str, aliases: &[String]) {
        let Ok(i) = self.files.binary_search_by(|f| f.as_str().cmp(path)) else {
            return;
        };
        for alias in aliases {
            let key = alias.trim().to_lowercase();
            if !key.is_empty() {
                let notes = self.aliases.entry(key).or_default();
                if !notes.contains(&i) {
                    notes.push(i);
                }
            }
        }
    }

    /// The note whose frontmatter gives it the alias `name` (ignoring case),
    /// as a wikilink in `from` finds it.
    pub fn find_alias(&self, name: &str, from: &str) -> NoteLookup {
        match self.aliases.get(&name.trim().to_lowercase()) {
            Some(notes) => self.choose(notes, from),
            None => NoteLookup::Missing,
        }
    }

    /// The aliases recorded for note `path`.
    pub fn aliases_of(&self, path: &str) -> Vec<String> {
        let Ok(i) = self.files.binary_search_by(|f| f.as_str().cmp(path)) else {
            return Vec::new();
        };
        let mut out: Vec<String> = self
            .aliases
            .iter()
            .filter(|(_, notes)| notes.contains(&i))
            .map(|(alias, _)| alias.clone())
            .collect();
        out.sort();
        out
    }

    /// A file whose name is the name at the end of `path`, ignoring case.
    pub fn same_name(&self, path: &str) -> Option<&str> {
        let name = file_name(path).to_lowercase();
        self.by_name
            .get(&name)?
            .iter()
            .map(|&i| self.files[i].as_str())
            .find(|f| file_name(f).to_lowercase() == name)
    }

    /// The file whose name (without `.md`, ignoring case) is most like the
    /// name at the end of `path`, if one is at least `min` similar (0 to 1).
    pub fn nearest_by_name(&self, path: &str, min: f64) -> Option<&str> {
        let wanted = file_name(path).to_lowercase();
        let wanted = strip_md(&wanted).unwrap_or(&wanted);
        let wanted_len = wanted.chars().count();
        let comparator = levenshtein::BatchComparator::new(wanted.chars());
        let mut best: Option<(f64, usize)> = None;
        for (i, (stem, len)) in self.stems.iter().enumerate() {
            // The similarity cannot beat 1 - (length difference / longer length).
            let longer = (*len).max(wanted_len).max(1) as f64;
            let bound = 1.0 - len.abs_diff(wanted_len) as f64 / longer;
            let floor = best.map_or(min, |(score, _)| score.max(min));
            if bound < floor || (best.is_some() && bound <= floor) {
                continue;
            }
            let args = levenshtein::Args::default().score_cutoff(floor);
            if let Some(score) = comparator.normalized_similarity_with_args(stem.chars(), &args)
                && best.is_none_or(|(b, _)| score > b)
            {
                best = Some((score, i));
            }
        }
        best.map(|(_, i)| self.files[i].as_str())
    }

    /// The files, sorted.
    pub fn files(&self) -> &[String] {
        &self.files
    }

    /// Whether `path` is one of the files, exactly.
    pub fn contains(&self, path: &str) -> bool {
        self.files
            .binary_search_by(|f| f.as_str().cmp(path))
            .is_ok()
    }

    /// The note a wikilink in `from` names with `name` (the part before `#`).
    pub fn find_note(&self, name: &str, from: &str) -> NoteLookup {
        let name = name.trim().trim_start_matches('/');
        if name.is_empty() {
            return NoteLookup::Missing;
        }
        if name.starts_with("./") || name.starts_with("../") {
            return match join_path(from, name) {
                Some(path) => self.exact(&path).unwrap_or(NoteLookup::Missing),
                None => NoteLookup::Missing,
            };
        }
        if let Some(found) = self.exact(name) {
            return found;
        }
        let lower = name.to_lowercase();
        let base = file_name(&lower);
        let Some(candidates) = self.by_name.get(base) else {
            return NoteLookup::Missing;
        };
        let with_md = format!("{lower}.md");
        let fits: Vec<usize> = candidates
            .iter()
            .copied()
            .filter(|&i| {
                let path = self.files[i].to_lowercase();
                ends_with_path(&path, &lower) || ends_with_path(&path, &with_md)
            })
            .collect();
        self.choose(&fits, from)
    }

    /// The shortest wikilink name (without `#…`) that finds `target` from
    /// `from`: the file name if it is unique, else enough of its folders.
    /// `keep_extension` keeps a Markdown note's `.md` (other files always keep
    /// theirs).
    pub fn note_link(&self, target: &str, from: &str, keep_extension: bool) -> String {
        let written = if keep_extension {
            target
        } else {
            strip_md(target).unwrap_or(target)
        };
        let parts: Vec<&str> = written.split('/').collect();
        for take in 1..=parts.len() {
            let candidate = parts[parts.len() - take..].join("/");
            if self.find_note(&candidate, from) == NoteLookup::Found(target.to_string()) {
                return candidate;
            }
        }
        written.to_string()
    }

    /// A file whose whole path is `path` (or `path.md`), case insensitively.
    fn exact(&self, path: &str) -> Option<NoteLookup> {
        let lower = path.to_lowercase();
        for key in [lower.clone(), format!("{lower}.md")] {
            if let Some(hits) = self.by_path.get(&key) {
                // An exact match in case beats one that differs only in case.
                if let Some(&i) = hits.iter().find(|&&i| self.files[i] == path) {
                    return Some(NoteLookup::Found(self.files[i].clone()));
                }
                return Some(self.choose(hits, ""));
            }
        }
        None
    }

    /// One of several fitting files: the one in `from`'s folder, else the one
    /// with the strictly shortest path.
    fn choose(&self, fits: &[usize], from: &str) -> NoteLookup {
        match fits {
            [] => return NoteLookup::Missing,
            [one] => return NoteLookup::Found(self.files[*one].clone()),
            _ => {}
        }
        let folder = parent(from);
        let here: Vec<usize> = fits
            .iter()
            .copied()
            .filter(|&i| parent(&self.files[i]) == folder)
            .collect();
        if let [one] = here.as_slice() {
            return NoteLookup::Found(self.files[*one].clone());
        }
        let depth = |i: usize| self.files[i].matches('/').count();
        let shallowest = fits.iter().map(|&i| depth(i)).min().unwrap_or(0);
        let top: Vec<usize> = fits
            .iter()
            .copied()
            .filter(|&i| depth(i) == shallowest)
            .collect();
        if let [one] = top.as_slice() {
            return NoteLookup::Found(self.files[*one].clone());
        }
        let mut paths: Vec<String> = fits.iter().map(|&i| self.files[i].clone()).collect();
        paths.sort();
        NoteLookup::Ambiguous(paths)
    }
}

/// The aliases an `aliases` (or `alias`) property holds: a list, or one
/// name per string.
pub fn alias_names(value: &serde_json::Value) -> Vec<String> {
    match value {
        serde_json::Value::String(s) if !s.trim().is_empty() => vec![s.trim().to_string()],
        serde_json::Value::Array(items) => items
            .iter()
            .filter_map(|v| match v {
                serde_json::Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_string()),
                serde_json::Value::Number(n) => Some(n.to_string()),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// Whether `path` is `tail` or ends with `/tail`.
fn ends_with_path(path: &str, tail: &str) -> bool {
    path == tail
        || path
            .strip_suffix(tail)
            .is_some_and(|head| head.ends_with('/'))
}

/// The last component of a path.
pub fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// The folder of a path (`""` for a file at the root).
pub fn parent(path: &str) -> &str {
    path.rfind('/').map_or("", |at| &path[..at])
}

/// `name` without a final `.md` (any case), if it has one.
pub fn strip_md(name: &str) -> Option<&str> {
    let cut = name.len().checked_sub(3)?;
    (name.is_char_boundary(cut) && name[cut..].eq_ignore_ascii_case(".md")).then(|| &name[..cut])
}

/// The path a link written in document `from` reaches with `link`: relative
/// to `from`'s folder, or to the root when `link` starts with `/`. `.` and
/// `..` are worked out; `None` when `..` climbs above the root. A trailing
/// `/` is dropped.
pub fn join_path(from: &str, link: &str) -> Option<String> {
    let (base, link) = match link.strip_prefix('/') {
        Some(rooted) => ("", rooted),
        None => (parent(from), link),
    };
    let mut parts: Vec<&str> = base.split('/').filter(|p| !p.is_empty()).collect();
    for part in link.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            other => parts.push(other),
        }
    }
    Some(parts.join("/"))
}

/// The relative path from document `from`'s folder to `to`.
pub fn relative_path(from: &str, to: &str) -> String {
    let from_parts: Vec<&str> = parent(from).split('/').filter(|p| !p.is_empty()).collect();
    let to_parts: Vec<&str> = to.split('/').filter(|p| !p.is_empty()).collect();
    let shared = from_parts
        .iter()
        .zip(&to_parts)
        .take_while(|(a, b)| a == b)
        .count();
    let mut out: Vec<&str> = vec![".."; from_parts.len() - shared];
    out.extend(&to_parts[shared..]);
    out.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(path: &str) -> NoteLookup {
        NoteLookup::Found(path.to_string())
    }

    fn vault() -> VaultIndex {
        VaultIndex::new([
            "README.md",
            "projects/garden.md",
            "projects/Plan.md",
            "archive/garden.md",
            "archive/2025/notes.md",
            "daily/notes.md",
            "img/photo.png",
            "x/notes.md",
        ])
    }

    #[test]
    fn names_paths_and_case() {
        let v = vault();
        assert_eq!(v.find_note("readme", "daily/notes.md"), found("README.md"));
        assert_eq!(v.find_note("README.md", "x.md"), found("README.md"));
        assert_eq!(v.find_note("plan", "README.md"), found("projects/Plan.md"));
        assert_eq!(
            v.find_note("photo.png", "README.md"),
            found("img/photo.png")
        );
        assert_eq!(v.find_note("photo", "README.md"), NoteLookup::Missing);
        assert_eq!(
            v.find_note("projects/garden", "README.md"),
            found("projects/garden.md")
        );
        assert_eq!(
            v.find_note("2025/notes", "README.md"),
            found("archive/2025/notes.md")
        );
        assert_eq!(
            v.find_note("/archive/garden", "x.md"),
            found("archive/garden.md")
        );
        assert_eq!(v.find_note("rden", "README.md"), NoteLookup::Missing);
        assert_eq!(v.find_note("  ", "README.md"), NoteLookup::Missing);
    }

    #[test]
    fn relative_wikilinks() {
        let v = vault();
        assert_eq!(
            v.find_note("../archive/garden", "projects/garden.md"),
            found("archive/garden.md")
        );
        assert_eq!(
            v.find_note("./Plan", "projects/garden.md"),
            found("projects/Plan.md")
        );
        assert_eq!(v.find_note("../../x", "README.md"), NoteLookup::Missing);
    }

    #[test]
    fn several_fitting_files() {
        let v = vault();
        // The linking note's folder wins.
        assert_eq!(
            v.find_note("garden", "archive/x.md"),
            found("archive/garden.md")
        );
        assert_eq!(
            v.find_note("garden", "projects/a.md"),
            found("projects/garden.md")
        );
        // Two at the same depth, neither here.
        assert_eq!(
            v.find_note("garden", "README.md"),
            NoteLookup::Ambiguous(vec![
                "archive/garden.md".into(),
                "projects/garden.md".into()
            ])
        );
        // Strictly shallowest.
        assert_eq!(
            v.find_note("notes", "README.md"),
            NoteLookup::Ambiguous(vec![
                "archive/2025/notes.md".into(),
                "daily/notes.md".into(),
                "x/notes.md".into(),
            ])
        );
        let two = VaultIndex::new(["a/n.md", "a/b/n.md"]);
        assert_eq!(two.find_note("n", "z.md"), found("a/n.md"));
    }

    #[test]
    fn shortest_links() {
        let v = vault();
        assert_eq!(v.note_link("projects/Plan.md", "README.md", false), "Plan");
        assert_eq!(
            v.note_link("projects/Plan.md", "README.md", true),
            "Plan.md"
        );
        assert_eq!(
            v.note_link("archive/garden.md", "README.md", false),
            "archive/garden"
        );
        assert_eq!(
            v.note_link("archive/garden.md", "archive/a.md", false),
            "garden"
        );
        assert_eq!(
            v.note_link("img/photo.png", "README.md", false),
            "photo.png"
        );
        assert_eq!(
            v.note_link("archive/2025/notes.md", "README.md", false),
            "2025/notes"
        );
    }

    #[test]
    fn nearest_names() {
        let v = vault();
        assert_eq!(v.nearest_by_name("Plna", 0.5), Some("projects/Plan.md"));
        assert_eq!(
            v.nearest_by_name("x/gardn.md", 0.6),
            Some("archive/garden.md")
        );
        assert_eq!(v.nearest_by_name("zzzzzz", 0.6), None);
        assert_eq!(v.same_name("other/PHOTO.png"), Some("img/photo.png"));
        assert_eq!(v.same_name("garden"), None);
    }

    #[test]
    fn path_arithmetic() {
        assert_eq!(join_path("a/b/c.md", "../d.md"), Some("a/d.md".into()));
        assert_eq!(
            join_path("a/b/c.md", "./e/../f.md"),
            Some("a/b/f.md".into())
        );
        assert_eq!(join_path("a/b/c.md", "/top.md"), Some("top.md".into()));
        assert_eq!(join_path("c.md", "../x.md"), None);
        assert_eq!(join_path("a/c.md", "sub/"), Some("a/sub".into()));
        assert_eq!(relative_path("a/b/c.md", "a/d.md"), "../d.md");
        assert_eq!(relative_path("c.md", "a/d.md"), "a/d.md");
        assert_eq!(relative_path("a/c.md", "a/d.md"), "d.md");
        assert_eq!(relative_path("a/b/c.md", "x/y.md"), "../../x/y.md");
        assert_eq!(strip_md("a.MD"), Some("a"));
        assert_eq!(strip_md("a.txt"), None);
        assert_eq!(file_name("a/b.md"), "b.md");
        assert_eq!(parent("b.md"), "");
    }
}
