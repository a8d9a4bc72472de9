//! Backlinks: every link into a note (or into one of its headings or
//! blocks) from the other notes of its root: wikilinks and embeds (by name,
//! path or alias), Markdown links and references, each resolved exactly as
//! CheckLinks resolves it. Optionally the unlinked mentions: the note's name
//! or aliases as plain text, with the link to write there in the vault's
//! style.
//!
//! The notes that can hold such a link or mention are found first with the
//! parallel search walk (each must contain the note's name or an alias);
//! only those are read and parsed.

use std::ops::Range;

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use regex::Regex;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::context::ToolContext;
use super::error::ToolError;
use super::link_context::{RootLinks, link_style, note_aliases, relative_to};
use super::tool::{Effects, Tool, Toolset};
use crate::text::excerpt::cut;
use crate::text::format::{Format, format_of};
use crate::text::markdown::{
    self, EntryKind, LinkContext, LinkKind, LinkStatus, LinkedDocument, NoteLookup, VaultIndex,
    block_refs, check_link, decode, parse_links,
};
use crate::workspace::roots::ResolvedPath;
use crate::workspace::search::{FilePattern, Pattern, SearchRequest, SearchScope, search};

/// Backlinks listed by default.
const DEFAULT_MAX: usize = 100;
/// Most backlinks (and mentions) one reply lists.
const MAX_RESULTS: usize = 1000;
/// Characters of a line shown.
const LINE_CHARS: usize = 200;

/// The Backlinks tool.
pub struct Backlinks;

/// Parameters of Backlinks.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct BacklinksParams {
    /// The note linked to (absolute or relative to the first root).
    #[schemars(description = "")] // said once, in the server's instructions
    pub file_path: String,
    /// Only links into this heading, e.g. "## Tasks".
    #[serde(default)]
    pub heading: Option<String>,
    /// Only links into this block, e.g. "^tasks-1".
    #[serde(default)]
    pub block: Option<String>,
    /// Also the note's name or aliases as plain text, with the link to write.
    #[serde(default)]
    pub unlinked: bool,
    /// Default 100, at most 1000; count counts all.
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub max_results: Option<usize>,
}

/// Result of Backlinks.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct BacklinksOutput {
    /// What is linked to: the note's path as filePath gives paths, then #heading or #^block when asked.
    pub target: String,
    /// The links, by file and line.
    pub backlinks: Vec<Backlink>,
    /// How many links there are, listed or not.
    pub count: usize,
    /// Present and true when some were left out (maxResults).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub truncated: Option<bool>,
    /// With unlinked: the mentions, with the link to write there.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unlinked: Option<Vec<Mention>>,
}

/// One link into the note.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Backlink {
    /// The file holding the link.
    pub file_path: String,
    /// Its line.
    pub line: usize,
    /// wikilink, embed, alias (a wikilink by one of the note's aliases), inline, image or reference.
    pub kind: String,
    /// The line's text.
    pub text: String,
}

/// The note's name or an alias as plain text.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Mention {
    /// The file.
    pub file_path: String,
    /// The line.
    pub line: usize,
    /// The line's text.
    pub text: String,
    /// The link to write there, in the vault's style.
    pub link: String,
}

impl Tool for Backlinks {
    type Params = BacklinksParams;
    type Output = BacklinksOutput;

    const NAME: &'static str = "Backlinks";
    const TITLE: &'static str = "Links into a note";
    const TOOLSET: Toolset = Toolset::Links;
    const EFFECTS: Effects = Effects::READ_ONLY;

    fn description() -> &'static str {
        "Lists the links into a note (or one heading or ^block of it) from other notes, with file, line and text. For a note's own links use TextInspect. Example: {\"filePath\": \"garden.md\", \"block\": \"^tasks-1\"}"
    }

    fn run(ctx: &ToolContext, params: BacklinksParams) -> Result<BacklinksOutput, ToolError> {
        if params.heading.is_some() && params.block.is_some() {
            return Err(ToolError::new(
                "heading and block were both given; a link goes into one of them",
            )
            .suggest("Pass one, or neither for links into the whole note"));
        }
        let max = params.max_results.unwrap_or(DEFAULT_MAX);
        if max == 0 || max > MAX_RESULTS {
            return Err(ToolError::new(format!(
                "maxResults {max} is out of range: 1 to {MAX_RESULTS}"
            ))
            .suggest("Leave it out for 100; count always counts every link"));
        }
        let file = ctx.workspace.read(&params.file_path, None)?;
        let shown = file.path.display();
        if format_of(&file.path.real) != Format::Markdown {
            return Err(ToolError::new(format!(
                "{shown} is not a Markdown note; Backlinks finds links into notes"
            ))
            .suggest(
                "Name a .md file; for other files, TextSearch finds where their name is written",
            ));
        }
        let root = file.path.root.clone();
        let target = relative_to(&root, &file.path.real);
        let text = file.doc.text();
        let (wanted_line, place) = place(text, &params, &shown)?;
        let aliases = note_aliases(text);
        let stem = markdown_stem(&target);
        let mut names = vec![stem.clone()];
        names.extend(aliases.iter().cloned());
        // A Markdown link may write the name percent-encoded: the notes
        // searched for are those holding it either way.
        let mut searched = names.clone();
        for encoded in [stem.replace(' ', "%20"), encode(&stem)] {
            if !searched.contains(&encoded) {
                searched.push(encoded);
            }
        }
        let candidates = candidates(ctx, &root, &searched)?;

        let cancel = ctx.cancel_flag();
        let mut links = RootLinks::new(&ctx.workspace, root.clone(), &cancel);
        links.suggest = false;
        let lowered: Vec<String> = names.iter().map(|n| n.to_lowercase()).collect();
        let mut view = TargetView {
            inner: &mut links,
            target: &target,
            aliases: aliases.iter().map(|a| a.to_lowercase()).collect(),
            by_alias: false,
        };
        let own = LinkedDocument::parse("");
        let style = link_style(&ctx.workspace, &root).unwrap_or_default();
        let mut backlinks = Vec::new();
        let mut count = 0;
        let mut mentions = Vec::new();
        let mentions_of = params.unlinked.then(|| Mentions::new(&lowered));
        for real in candidates {
            if ctx.is_cancelled() {
                return Err(ToolError::new("Backlinks was cancelled"));
            }
            if real == file.path.real {
                continue;
            }
            let Some(given) = real.to_str() else { continue };
            let Ok(note) = ctx.workspace.read(given, None) else {
                continue;
            };
            let from = relative_to(&root, &real);
            let note_text = note.doc.text();
            let index = note.doc.lines();
            let parsed = parse_links(note_text, index);
            for link in &parsed {
                if matches!(link.kind, LinkKind::Definition | LinkKind::Autolink) {
                    continue;
                }
                let written = decode(&link.target).to_lowercase();
                if !lowered.iter().any(|n| written.contains(n.as_str())) {
                    continue;
                }
                view.by_alias = false;
                let status = check_link(link, &from, &own, &mut view);
                let LinkStatus::Found {
                    path: Some(path),
                    line,
                } = status
                else {
                    continue;
                };
                if path != target || (wanted_line.is_some() && line != wanted_line) {
                    continue;
                }
                count += 1;
                if backlinks.len() < max {
                    backlinks.push(Backlink {
                        file_path: note.path.display(),
                        line: link.line,
                        kind: if view.by_alias {
                            "alias".to_string()
                        } else {
                            link.kind.name().to_string()
                        },
                        text: cut(index.text(note_text, link.line).trim(), LINE_CHARS),
                    });
                }
            }
            if let Some(mentions_of) = &mentions_of
                && mentions.len() < max
            {
                let fragment = place.split_once('#').map(|(_, f)| f.to_string());
                let link = style.link(view.inner.notes(), &target, &from, fragment.as_deref());
                for (line, line_text) in mentions_of.find(note_text) {
                    if mentions.len() >= max {
                        break;
                    }
                    mentions.push(Mention {
                        file_path: note.path.display(),
                        line,
                        text: cut(line_text.trim(), LINE_CHARS),
                        link: link.clone(),
                    });
                }
            }
        }
        Ok(BacklinksOutput {
            target: place,
            truncated: (count > backlinks.len()).then_some(true),
            backlinks,
            count,
            unlinked: params.unlinked.then_some(mentions),
        })
    }
}

/// The line a heading or block names (`None` for the whole note) and the
/// target as the reply names it.
fn place(
    text: &str,
    params: &BacklinksParams,
    shown: &str,
) -> Result<(Option<usize>, String), ToolError> {
    let base = shown.to_string();
    if let Some(heading) = &params.heading {
        let outline = markdown::parse_sections(text);
        let found = markdown::find_heading_match(&outline, heading).map_err(|e| {
            ToolError::new(format!("Target not found in {shown}: {e}")).suggest_all(e.suggestions())
        })?;
        return Ok((
            Some(found.heading.line),
            format!("{base}#{}", found.heading.text),
        ));
    }
    if let Some(block) = &params.block {
        let id = block.trim().trim_start_matches('#').trim_start_matches('^');
        let refs = block_refs(text);
        let Some(found) = refs.iter().find(|b| b.id == id) else {
            let ids: Vec<String> = refs.iter().map(|b| format!("^{}", b.id)).collect();
            return Err(ToolError::new(format!(
                "Target not found in {shown}: block '^{id}' does not exist"
            ))
            .suggest(if ids.is_empty() {
                "The note has no block ids; TextPatch operation 'blockId' gives a paragraph one"
                    .to_string()
            } else {
                format!("The note's block ids: {}", ids.join(", "))
            }));
        };
        return Ok((Some(found.last), format!("{base}#^{id}")));
    }
    Ok((None, base))
}

/// A note's name without its folder and `.md`.
fn markdown_stem(path: &str) -> String {
    let name = path.rsplit('/').next().unwrap_or(path);
    let cut = name.len() - name.rsplit_once('.').map_or(0, |(_, ext)| ext.len() + 1);
    name[..cut].to_string()
}

/// The Markdown files of `root` that contain one of `names`, ignoring case.
fn candidates(
    ctx: &ToolContext,
    root: &std::path::Path,
    names: &[String],
) -> Result<Vec<std::path::PathBuf>, ToolError> {
    let alternatives: Vec<String> = names.iter().map(|n| regex::escape(n)).collect();
    let pattern = Pattern::new(&alternatives.join("|"), true, false)
        .map_err(|e| ToolError::new(e.to_string()))?;
    let markdown = FilePattern::new("*.{md,markdown,mdx,mdown,mkd,mkdn,mdwn}")
        .map_err(|e| ToolError::new(e.to_string()))?;
    let workspace = &ctx.workspace;
    let roots = workspace.roots();
    let cancel = ctx.cancel_flag();
    let summary = search(&SearchRequest {
        roots: &roots,
        scope: SearchScope::Folders(vec![ResolvedPath {
            real: root.to_path_buf(),
            root: root.to_path_buf(),
            exists: true,
        }]),
        pattern: &pattern,
        file_pattern: Some(&markdown),
        filter: None,
        extensions: &workspace.options().extensions,
        max_file_size: workspace.options().max_file_size,
        cancel: &cancel,
        progress: &|_| {},
    });
    if summary.cancelled {
        return Err(ToolError::new("Backlinks was cancelled"));
    }
    Ok(summary.files.into_iter().map(|f| f.path.real).collect())
}

/// The root as links see it, where a wikilink by one of the target note's
/// aliases finds the target (and says so).
struct TargetView<'v, 'w> {
    inner: &'v mut RootLinks<'w>,
    target: &'v str,
    aliases: Vec<String>,
    by_alias: bool,
}

impl LinkContext for TargetView<'_, '_> {
    fn entry(&mut self, path: &str) -> Option<EntryKind> {
        self.inner.entry(path)
    }

    fn notes(&mut self) -> &VaultIndex {
        self.inner.notes()
    }

    fn document(&mut self, path: &str) -> Option<&LinkedDocument> {
        self.inner.document(path)
    }

    fn alias(&mut self, name: &str, _from: &str) -> NoteLookup {
        if self.aliases.contains(&name.trim().to_lowercase()) {
            self.by_alias = true;
            NoteLookup::Found(self.target.to_string())
        } else {
            NoteLookup::Missing
        }
    }

    fn suggestions(&self) -> bool {
        false
    }
}

/// `text` percent-encoded as a Markdown link writes a path: every byte but
/// letters, digits and `-._~/` escaped.
fn encode(text: &str) -> String {
    const KEPT: &AsciiSet = &NON_ALPHANUMERIC
        .remove(b'-')
        .remove(b'.')
        .remove(b'_')
        .remove(b'~')
        .remove(b'/');
    utf8_percent_encode(text, KEPT).to_string()
}

/// Finds unlinked mentions: the note's names as words in plain text. The
/// patterns are built once for every note read.
struct Mentions {
    /// The names, as whole words, ignoring case.
    names: Regex,
    /// What is not plain text on a line: links, code spans, HTML.
    masks: Regex,
}

impl Mentions {
    fn new(names: &[String]) -> Mentions {
        let alternatives: Vec<String> = names
            .iter()
            .filter(|n| !n.is_empty())
            .map(|n| regex::escape(n))
            .collect();
        // A name stands as a word: no letter or digit just before or after.
        let words = format!(
            r"(?i)(?:^|[^\p{{Alphabetic}}\p{{Nd}}])((?:{}))(?:$|[^\p{{Alphabetic}}\p{{Nd}}])",
            if alternatives.is_empty() {
                "[^\\s\\S]".to_string()
            } else {
                alternatives.join("|")
            }
        );
        Mentions {
            names: Regex::new(&words).expect("escaped names make a valid pattern"),
            masks: Regex::new(
                r"!?\[\[[^\]]*\]\]|!?\[[^\]]*\]\([^)]*\)|\[[^\]]*\]\[[^\]]*\]|`[^`]*`|<[^>]*>|\[[^\]]*\]",
            )
            .expect("a valid pattern"),
        }
    }

    /// The lines of `text` (outside frontmatter and code) where a name
    /// stands as a word outside links, code spans and HTML.
    fn find<'t>(&self, text: &'t str) -> Vec<(usize, &'t str)> {
        let outline = markdown::parse_sections(text);
        let first = outline.frontmatter.as_ref().map_or(1, |f| f.end_line + 1);
        let in_code = |line: usize| {
            outline
                .code_blocks
                .iter()
                .any(|b| line >= b.start_line && line <= b.end_line)
        };
        let mut out = Vec::new();
        for (i, line) in crate::text::lines::split_lines(text).enumerate() {
            let n = i + 1;
            if n < first || in_code(n) || !self.names.is_match(line) {
                continue;
            }
            let masked: Vec<Range<usize>> = self.masks.find_iter(line).map(|m| m.range()).collect();
            let mut at = 0;
            let plain = loop {
                // Matches overlap by the character around a name, so each
                // search starts just after the previous name's start.
                let Some(found) = self.names.captures_at(line, at).and_then(|c| c.get(1)) else {
                    break false;
                };
                if !masked
                    .iter()
                    .any(|m| m.start < found.end() && found.start() < m.end)
                {
                    break true;
                }
                at = found.start()
                    + line[found.start()..]
                        .chars()
                        .next()
                        .map_or(1, char::len_utf8);
            };
            if plain {
                out.push((n, line));
            }
        }
        out
    }
}
