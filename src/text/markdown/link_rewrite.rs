//! Keeping links intact when files move: the splices that make a document's
//! links reach the same files after some files or folders moved, and after
//! the document itself moved.
//!
//! Only the target text of a link changes, and only when it no longer
//! reaches its file; everything else keeps its exact bytes. The new target
//! keeps the old one's style: a relative path stays relative (`./` kept), a
//! root path (`/docs/a.md`) stays rooted, a path written without `.md`
//! stays without, bracketed or percent-encoded targets stay so, the
//! `#fragment` and `?query` are kept as written, and a wikilink keeps the
//! shortest name that still finds its note (`[[garden]]` stays `[[garden]]`
//! when the note's name is still unique), its `#heading` and `|alias`.
//! Links that do not resolve before the move are left alone.
//!
//! ```
//! use mcp_server_text::text::lines::LineIndex;
//! use mcp_server_text::text::markdown::{PathMove, VaultIndex, rewrite_links_to};
//!
//! let text = "[g](../projects/garden.md#tasks) and [[garden#Tasks]]\n";
//! let before = VaultIndex::new(["notes/a.md", "projects/garden.md"]);
//! let after = VaultIndex::new(["notes/a.md", "archive/garden.md"]);
//! let moves = [PathMove::new("projects/garden.md", "archive/garden.md")];
//! let rewrites = rewrite_links_to(text, &LineIndex::new(text), "notes/a.md", &moves, &before, &after);
//! assert_eq!(rewrites.len(), 1);
//! assert_eq!(rewrites[0].new_target, "../archive/garden.md#tasks");
//! ```

use std::ops::Range;

use super::link_style::{LinkFormat, LinkStyle};
use super::link_target::{LinkTarget, classify};
use super::links::{Link, LinkKind, parse_links};
use super::vault::{NoteLookup, VaultIndex, join_path, relative_path, strip_md};
use crate::text::document::Splice;
use crate::text::lines::LineIndex;

/// A file or folder that moves from one path to another (both relative to
/// the root, `/`-separated).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathMove {
    /// Where it was.
    pub from: String,
    /// Where it goes.
    pub to: String,
}

impl PathMove {
    /// A move of `from` to `to`.
    pub fn new(from: impl Into<String>, to: impl Into<String>) -> PathMove {
        PathMove {
            from: from.into(),
            to: to.into(),
        }
    }
}

/// Where `path` is after `moves`: moved itself, or inside a moved folder.
/// `None` when it does not move.
pub fn moved_path(moves: &[PathMove], path: &str) -> Option<String> {
    moves.iter().find_map(|m| {
        if path == m.from {
            return Some(m.to.clone());
        }
        let rest = path.strip_prefix(m.from.as_str())?.strip_prefix('/')?;
        Some(format!("{}/{rest}", m.to))
    })
}

/// One link target to rewrite.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkRewrite {
    /// The line of the target (of a reference link: of its definition).
    pub line: usize,
    /// How the link is written.
    pub kind: LinkKind,
    /// The target as written before.
    pub old_target: String,
    /// The target as it will be written.
    pub new_target: String,
    /// The change to the document's text.
    pub splice: Splice,
}

/// Rewrites the links of a document that stays at `doc` so that they reach
/// the files they reached before `moves`. `before` and `after` are the
/// root's files before and after the moves.
pub fn rewrite_links_to(
    text: &str,
    index: &LineIndex,
    doc: &str,
    moves: &[PathMove],
    before: &VaultIndex,
    after: &VaultIndex,
) -> Vec<LinkRewrite> {
    rewrite_links(text, index, doc, doc, moves, before, after)
}

/// Rewrites the links of a document that moves from `doc_before` to
/// `doc_after` (`moves` lists every move, this document's included) so that
/// its relative links reach the same files from the new place.
pub fn rewrite_links(
    text: &str,
    index: &LineIndex,
    doc_before: &str,
    doc_after: &str,
    moves: &[PathMove],
    before: &VaultIndex,
    after: &VaultIndex,
) -> Vec<LinkRewrite> {
    rewrite_links_styled(
        text, index, doc_before, doc_after, moves, before, after, None,
    )
}

/// [`rewrite_links`] in a vault that writes links in `style`
/// (`.obsidian/app.json`): a link that must change is written that way;
/// without a style each link keeps its own.
#[allow(clippy::too_many_arguments)]
pub fn rewrite_links_styled(
    text: &str,
    index: &LineIndex,
    doc_before: &str,
    doc_after: &str,
    moves: &[PathMove],
    before: &VaultIndex,
    after: &VaultIndex,
    style: Option<&LinkStyle>,
) -> Vec<LinkRewrite> {
    let places = Places {
        doc_before,
        doc_after,
        moves,
        before,
        after,
        style,
    };
    let mut rewrites: Vec<LinkRewrite> = Vec::new();
    for link in parse_links(text, index) {
        // A reference's target lives in its definition, rewritten once there.
        if matches!(link.kind, LinkKind::Reference | LinkKind::Autolink) {
            continue;
        }
        let Some(range) = link.target_range.clone() else {
            continue;
        };
        let written = &text[range.clone()];
        let new_target = if link.kind.is_wiki() {
            places.wikilink(&link, written)
        } else {
            places.path_link(&link, written)
        };
        let Some(new_target) = new_target.filter(|t| t != written) else {
            continue;
        };
        if rewrites.iter().any(|r| r.splice.range == range) {
            continue;
        }
        rewrites.push(LinkRewrite {
            line: index.line_of_offset(range.start),
            kind: link.kind,
            old_target: written.to_string(),
            splice: Splice::new(range, new_target.clone()),
            new_target,
        });
    }
    rewrites
}

/// Where things are before and after the moves.
struct Places<'a> {
    doc_before: &'a str,
    doc_after: &'a str,
    moves: &'a [PathMove],
    before: &'a VaultIndex,
    after: &'a VaultIndex,
    style: Option<&'a LinkStyle>,
}

impl Places<'_> {
    /// The new target of a wikilink, if it needs one.
    fn wikilink(&self, link: &Link, written: &str) -> Option<String> {
        let LinkTarget::Note { name, .. } = classify(link.kind, &link.target) else {
            return None;
        };
        if name.is_empty() {
            return None;
        }
        let NoteLookup::Found(old) = self.before.find_note(&name, self.doc_before) else {
            return None;
        };
        let new = moved_path(self.moves, &old).unwrap_or(old);
        if self.after.find_note(&name, self.doc_after) == NoteLookup::Found(new.clone()) {
            return None;
        }
        let keep_extension = strip_md(&name).is_some();
        let shown = |path: &str| -> String {
            if keep_extension {
                path.to_string()
            } else {
                strip_md(path).unwrap_or(path).to_string()
            }
        };
        let relative = name.starts_with("./") || name.starts_with("../");
        let mut new_name = if let Some(style) = self.style {
            style.wiki_name(self.after, &new, self.doc_after, keep_extension)
        } else if relative {
            // Without `./` or `../` it would no longer be a relative link.
            let path = shown(&relative_path(self.doc_after, &new));
            if path.starts_with("../") {
                path
            } else {
                format!("./{path}")
            }
        } else if name.contains('/') {
            let rooted = if name.starts_with('/') { "/" } else { "" };
            format!("{rooted}{}", shown(&new))
        } else {
            self.after.note_link(&new, self.doc_after, keep_extension)
        };
        if self.after.find_note(&new_name, self.doc_after) != NoteLookup::Found(new.clone()) {
            new_name = self.after.note_link(&new, self.doc_after, keep_extension);
        }
        let name_len = written.find('#').unwrap_or(written.len());
        Some(format!("{new_name}{}", &written[name_len..]))
    }

    /// The new target of an inline link, image or definition, if it needs one.
    fn path_link(&self, link: &Link, written: &str) -> Option<String> {
        let LinkTarget::Path { path, .. } = classify(link.kind, &link.target) else {
            return None;
        };
        let old = join_path(self.doc_before, &path)?;
        // `notes/a` written for `notes/a.md`.
        let implied_md = !self.before.contains(&old)
            && strip_md(&old).is_none()
            && self.before.contains(&format!("{old}.md"));
        let old_file = if implied_md {
            format!("{old}.md")
        } else {
            old.clone()
        };
        let new_file = moved_path(self.moves, &old_file);
        if new_file.is_none() && self.doc_before == self.doc_after {
            return None;
        }
        let new_file = new_file.unwrap_or(old_file);
        let new = if implied_md {
            strip_md(&new_file).unwrap_or(&new_file).to_string()
        } else {
            new_file
        };
        let absolute = self.style.is_some_and(|s| s.format == LinkFormat::Absolute);
        let mut new_path = if path.starts_with('/') || absolute {
            format!("/{new}")
        } else {
            let relative = relative_path(self.doc_after, &new);
            if relative.is_empty() {
                ".".to_string()
            } else if path.starts_with("./") && !relative.starts_with("../") {
                format!("./{relative}")
            } else {
                relative
            }
        };
        if path.ends_with('/') && !new_path.ends_with('/') {
            new_path.push('/');
        }
        if new_path == path {
            return None;
        }
        let path_len = written.find(['#', '?']).unwrap_or(written.len());
        let written_path = &written[..path_len];
        let encoded = encode_like(&new_path, written_path, link.angle_brackets);
        Some(format!("{encoded}{}", &written[path_len..]))
    }
}

/// `path` written the way `old` was: inside angle brackets only `<`, `>` and
/// line breaks are encoded; otherwise spaces, brackets and other characters
/// a destination cannot hold are, and non-ASCII characters too when `old`
/// had them encoded.
fn encode_like(path: &str, old: &str, angle_brackets: bool) -> String {
    if angle_brackets {
        return path
            .replace('<', "%3C")
            .replace('>', "%3E")
            .replace('\n', "%0A");
    }
    encode_path(path, encodes_non_ascii(old))
}

/// Percent-encodes what a link destination cannot hold as it is, and
/// non-ASCII characters when `non_ascii` is set.
fn encode_path(path: &str, non_ascii: bool) -> String {
    let mut out = String::with_capacity(path.len());
    for c in path.chars() {
        let escape = if c.is_ascii() {
            matches!(
                c,
                '\0'..=' '
                    | '\x7f'
                    | '"'
                    | '<'
                    | '>'
                    | '('
                    | ')'
                    | '['
                    | ']'
                    | '#'
                    | '?'
                    | '%'
                    | '\\'
                    | '`'
            )
        } else {
            non_ascii
        };
        if escape {
            for b in c.encode_utf8(&mut [0; 4]).bytes() {
                out.push_str(&format!("%{b:02X}"));
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Whether `written` holds a percent escape of a byte above 0x7F.
fn encodes_non_ascii(written: &str) -> bool {
    written.as_bytes().windows(3).any(|w| {
        w[0] == b'%'
            && matches!(w[1], b'8'..=b'9' | b'a'..=b'f' | b'A'..=b'F')
            && w[2].is_ascii_hexdigit()
    })
}

/// The byte ranges of `text` outside every link target, for checks that a
/// rewrite touched nothing else.
pub fn outside_targets(text: &str, index: &LineIndex) -> Vec<Range<usize>> {
    let mut targets: Vec<Range<usize>> = parse_links(text, index)
        .into_iter()
        .filter_map(|l| l.target_range)
        .collect();
    targets.sort_by_key(|r| r.start);
    targets.dedup();
    let mut outside = Vec::with_capacity(targets.len() + 1);
    let mut at = 0;
    for target in targets {
        if target.start >= at {
            outside.push(at..target.start);
            at = target.end;
        }
    }
    outside.push(at..text.len());
    outside
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::text::document::Document;

    fn apply(text: &str, rewrites: &[LinkRewrite]) -> String {
        let doc = Document::decode(text.as_bytes().to_vec(), None).unwrap();
        let splices: Vec<Splice> = rewrites.iter().map(|r| r.splice.clone()).collect();
        doc.apply(&splices).unwrap().text().to_string()
    }

    fn rewrite(text: &str, doc: (&str, &str), moves: &[PathMove], files: &[&str]) -> String {
        let before = VaultIndex::new(files.iter().copied());
        let after = VaultIndex::new(
            files
                .iter()
                .map(|f| moved_path(moves, f).unwrap_or_else(|| f.to_string())),
        );
        let rewrites = rewrite_links(
            text,
            &LineIndex::new(text),
            doc.0,
            doc.1,
            moves,
            &before,
            &after,
        );
        apply(text, &rewrites)
    }

    const FILES: [&str; 5] = [
        "index.md",
        "notes/today.md",
        "projects/garden.md",
        "projects/my plan.md",
        "img/photo.png",
    ];

    #[test]
    fn links_to_a_moved_note() {
        let text = "\
# Today

See [garden](../projects/garden.md#tasks), [again](<../projects/garden.md>),
[[garden]], [[garden#Tasks|tasks]], [[projects/garden]], [[../projects/garden]],
![[garden.md]], [root](/projects/garden.md), [bare](../projects/garden) and [ref][g].
`[code](../projects/garden.md)` stays.

[g]: ../projects/garden.md?x=1#plan \"Garden\"
";
        let moves = [PathMove::new("projects/garden.md", "archive/garden.md")];
        assert_eq!(
            rewrite(text, ("notes/today.md", "notes/today.md"), &moves, &FILES),
            "\
# Today

See [garden](../archive/garden.md#tasks), [again](<../archive/garden.md>),
[[garden]], [[garden#Tasks|tasks]], [[archive/garden]], [[../archive/garden]],
![[garden.md]], [root](/archive/garden.md), [bare](../archive/garden) and [ref][g].
`[code](../projects/garden.md)` stays.

[g]: ../archive/garden.md?x=1#plan \"Garden\"
"
        );
    }

    #[test]
    fn a_renamed_note_and_an_ambiguous_name() {
        let text = "[[garden]] [[Garden#Plan|p]] [p](../projects/my%20plan.md)\n";
        let moves = [
            PathMove::new("projects/garden.md", "projects/orchard.md"),
            PathMove::new("projects/my plan.md", "projects/our plan.md"),
        ];
        assert_eq!(
            rewrite(text, ("notes/today.md", "notes/today.md"), &moves, &FILES),
            "[[orchard]] [[orchard#Plan|p]] [p](../projects/our%20plan.md)\n"
        );
        // Another `garden.md` at the same depth makes the bare name ambiguous.
        let mut files = FILES.to_vec();
        files.push("archive/garden.md");
        let text = "[[garden]]\n";
        let moves = [PathMove::new("archive/garden.md", "old/garden.md")];
        // It found projects/garden.md only because... it was ambiguous before: left alone.
        assert_eq!(
            rewrite(text, ("index.md", "index.md"), &moves, &files),
            "[[garden]]\n"
        );
        let moves = [PathMove::new("projects/garden.md", "deep/er/garden.md")];
        let files = ["index.md", "projects/garden.md", "x/garden.md"];
        // Before: ambiguous (same depth) so not touched.
        assert_eq!(
            rewrite(text, ("index.md", "index.md"), &moves, &files),
            "[[garden]]\n"
        );
        let files = ["index.md", "projects/garden.md", "x/y/garden.md"];
        let moves = [PathMove::new("projects/garden.md", "a/b/garden.md")];
        // Before it found the shallower one; after both are as deep.
        assert_eq!(
            rewrite(text, ("index.md", "index.md"), &moves, &files),
            "[[b/garden]]\n"
        );
    }

    #[test]
    fn the_moved_document_keeps_its_own_links() {
        let text = "[g](../projects/garden.md) [t](today.md) [s](#top) [w](https://x.example/a.md) \
                    [[garden]] [i](./../img/photo.png) [dir](../img/)\n";
        let moves = [PathMove::new("notes/today.md", "archive/2026/today.md")];
        assert_eq!(
            rewrite(
                text,
                ("notes/today.md", "archive/2026/today.md"),
                &moves,
                &FILES
            ),
            "[g](../../projects/garden.md) [t](today.md) [s](#top) [w](https://x.example/a.md) \
             [[garden]] [i](../../img/photo.png) [dir](../../img/)\n"
        );
    }

    #[test]
    fn a_moved_folder() {
        let text = "[g](projects/garden.md) [[projects/my plan]] ![p](img/photo.png)\n";
        let moves = [PathMove::new("projects", "work/projects")];
        // `projects/my plan` still finds `work/projects/my plan.md` by its
        // path's end, so the wikilink is left as it is.
        assert_eq!(
            rewrite(text, ("index.md", "index.md"), &moves, &FILES),
            "[g](work/projects/garden.md) [[projects/my plan]] ![p](img/photo.png)\n"
        );
        let moves = [PathMove::new("projects", "work/plans")];
        assert_eq!(
            rewrite(text, ("index.md", "index.md"), &moves, &FILES),
            "[g](work/plans/garden.md) [[work/plans/my plan]] ![p](img/photo.png)\n"
        );
    }

    #[test]
    fn encoding_follows_the_old_target() {
        assert_eq!(
            encode_like("a b(c).md", "x%20y.md", false),
            "a%20b%28c%29.md"
        );
        assert_eq!(encode_like("a b.md", "x y.md", true), "a b.md");
        assert_eq!(encode_like("é.md", "x.md", false), "é.md");
        assert_eq!(encode_like("é.md", "%C3%A9x.md", false), "%C3%A9.md");
        assert_eq!(encode_like("50%.md", "x.md", false), "50%25.md");
    }

    #[test]
    fn nothing_to_do_without_moves() {
        let text = "[g](../projects/garden.md) [[garden]]\n";
        assert_eq!(
            rewrite(text, ("notes/today.md", "notes/today.md"), &[], &FILES),
            text
        );
    }

    /// Text outside link targets, in order.
    fn outside(text: &str) -> Vec<String> {
        outside_targets(text, &LineIndex::new(text))
            .into_iter()
            .map(|r| text[r].to_string())
            .collect()
    }

    const FOLDERS: [&str; 4] = ["", "a", "a/b", "c d"];
    const NAMES: [&str; 4] = ["x", "y", "Note", "é"];

    fn path_of(folder: usize, name: usize) -> String {
        let folder = FOLDERS[folder];
        let name = NAMES[name];
        if folder.is_empty() {
            format!("{name}.md")
        } else {
            format!("{folder}/{name}.md")
        }
    }

    /// One piece of a generated document: a link to file `file` of a given
    /// style, or text that looks like a link but is not one.
    fn piece(style: u8, link_to: &str, from: &str, files: &VaultIndex) -> String {
        let rel = relative_path(from, link_to);
        let encoded = encode_path(&rel, style.is_multiple_of(3));
        match style % 10 {
            0 => format!("[t]({encoded})"),
            1 => format!("![i](<{rel}>)"),
            2 => format!("[t]({encoded}#frag \"title\")"),
            3 => format!("[[{}]]", files.note_link(link_to, from, false)),
            4 => format!("[[{}#Head|alias]]", files.note_link(link_to, from, false)),
            5 => format!("[r][{}]\n\n[{}]: {encoded}\n", style, style),
            6 => format!("`[c]({encoded})`"),
            7 => format!("\n```\n[f]({encoded})\n```\n"),
            8 => format!("[t](/{})", encode_path(link_to, false)),
            _ => format!("<https://x.example/{encoded}>"),
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// Rewriting changes nothing outside link targets, keeps every link
        /// a link, and every rewritten link reaches its file's new place.
        #[test]
        fn rewriting_touches_only_targets(
            doc in (0..FOLDERS.len(), 0..NAMES.len()),
            pieces in prop::collection::vec((any::<u8>(), 0..FOLDERS.len(), 0..NAMES.len()), 1..12),
            moved in (0..FOLDERS.len(), 0..NAMES.len()),
            to in (0..FOLDERS.len(), 0..NAMES.len()),
            doc_moves in any::<bool>(),
            folder_move in any::<bool>(),
        ) {
            let mut files: Vec<String> = Vec::new();
            for f in 0..FOLDERS.len() {
                for n in 0..NAMES.len() {
                    files.push(path_of(f, n));
                }
            }
            let doc_path = path_of(doc.0, doc.1);
            let from = path_of(moved.0, moved.1);
            let mut moves = Vec::new();
            if folder_move && !FOLDERS[moved.0].is_empty() {
                moves.push(PathMove::new(FOLDERS[moved.0], format!("new/{}", FOLDERS[moved.0])));
            } else if from != doc_path {
                let target = format!("moved/{}", path_of(to.0, to.1));
                moves.push(PathMove::new(from.clone(), target));
            }
            let doc_after = if doc_moves {
                let new = moved_path(&moves, &doc_path).unwrap_or_else(|| format!("elsewhere/{doc_path}"));
                if moved_path(&moves, &doc_path).is_none() {
                    moves.push(PathMove::new(doc_path.clone(), new.clone()));
                }
                new
            } else {
                moved_path(&moves, &doc_path).unwrap_or_else(|| doc_path.clone())
            };
            let before = VaultIndex::new(files.clone());
            let after = VaultIndex::new(files.iter().map(|f| moved_path(&moves, f).unwrap_or_else(|| f.clone())));
            let mut text = String::from("# Doc\n\n");
            for (style, f, n) in &pieces {
                text.push_str(&piece(*style, &path_of(*f, *n), &doc_path, &before));
                text.push_str(" and ");
            }
            text.push('\n');
            let index = LineIndex::new(&text);
            let rewrites = rewrite_links(&text, &index, &doc_path, &doc_after, &moves, &before, &after);
            let new_text = apply(&text, &rewrites);
            prop_assert_eq!(outside(&text), outside(&new_text));
            let old_links = parse_links(&text, &index);
            let new_links = parse_links(&new_text, &LineIndex::new(&new_text));
            prop_assert_eq!(old_links.len(), new_links.len());
            for (old, new) in old_links.iter().zip(&new_links) {
                prop_assert_eq!(old.kind, new.kind);
                let (old_target, new_target) = (
                    classify(old.kind, &old.target),
                    classify(new.kind, &new.target),
                );
                match (old_target, new_target) {
                    (LinkTarget::Path { path: a, fragment: fa }, LinkTarget::Path { path: b, fragment: fb }) => {
                        let was = join_path(&doc_path, &a).unwrap();
                        let is = join_path(&doc_after, &b).unwrap();
                        prop_assert_eq!(moved_path(&moves, &was).unwrap_or(was), is);
                        prop_assert_eq!(fa, fb);
                    }
                    (LinkTarget::Note { name: a, fragment: fa }, LinkTarget::Note { name: b, fragment: fb }) => {
                        if let NoteLookup::Found(was) = before.find_note(&a, &doc_path) {
                            let expected = moved_path(&moves, &was).unwrap_or(was);
                            prop_assert_eq!(after.find_note(&b, &doc_after), NoteLookup::Found(expected));
                        }
                        prop_assert_eq!(fa, fb);
                    }
                    (a, b) => prop_assert_eq!(a, b),
                }
            }
        }
    }
}
