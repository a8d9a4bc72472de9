//! How a vault writes new links, from Obsidian's `.obsidian/app.json`:
//! `newLinkFormat` (`shortest`, `relative` or `absolute`), `useMarkdownLinks`
//! and `attachmentFolderPath`. Tools that write a link (Move's rewrites, a
//! link to a new block id) write it this way, so links come out in the
//! vault's own style.
//!
//! Markdown links are always paths this server (and every Markdown viewer)
//! can follow: relative to the note, or rooted (`/projects/garden.md`) for
//! `absolute`.
//!
//! ```
//! use mcp_server_text::text::markdown::{LinkFormat, LinkStyle, VaultIndex};
//!
//! let style = LinkStyle::from_app_json(r#"{"newLinkFormat": "relative", "useMarkdownLinks": false}"#);
//! assert_eq!(style.format, LinkFormat::Relative);
//! let vault = VaultIndex::new(["notes/a.md", "projects/garden.md"]);
//! assert_eq!(style.link(&vault, "projects/garden.md", "notes/a.md", Some("^tasks-1")), "[[../projects/garden#^tasks-1]]");
//! let md = LinkStyle { markdown: true, ..LinkStyle::default() };
//! assert_eq!(md.link(&vault, "projects/garden.md", "notes/a.md", None), "[garden](../projects/garden.md)");
//! ```

use serde_json::Value;

use super::link_target::decode;
use super::vault::{VaultIndex, file_name, relative_path, strip_md};

/// How the name of a linked note is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LinkFormat {
    /// The shortest name that finds the note (Obsidian's default).
    #[default]
    Shortest,
    /// The path from the linking note.
    Relative,
    /// The path from the vault's root.
    Absolute,
}

/// A vault's way of writing links.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LinkStyle {
    /// How note names are written.
    pub format: LinkFormat,
    /// `[text](path.md)` instead of `[[name]]`.
    pub markdown: bool,
    /// Where new attachments go (`attachmentFolderPath`), as written.
    pub attachment_folder: Option<String>,
}

impl LinkStyle {
    /// The style an `app.json` sets; what it leaves out (or a file that is
    /// not JSON) keeps Obsidian's defaults.
    pub fn from_app_json(text: &str) -> LinkStyle {
        let json: Value = serde_json::from_str(text).unwrap_or(Value::Null);
        let format = match json.get("newLinkFormat").and_then(Value::as_str) {
            Some("relative") => LinkFormat::Relative,
            Some("absolute") => LinkFormat::Absolute,
            _ => LinkFormat::Shortest,
        };
        LinkStyle {
            format,
            markdown: json
                .get("useMarkdownLinks")
                .and_then(Value::as_bool)
                .unwrap_or(false),
            attachment_folder: json
                .get("attachmentFolderPath")
                .and_then(Value::as_str)
                .map(str::to_string),
        }
    }

    /// The wikilink name of `target` (a root-relative path) written in note
    /// `from`: without `.md` unless `keep_extension`.
    pub fn wiki_name(
        &self,
        vault: &VaultIndex,
        target: &str,
        from: &str,
        keep_extension: bool,
    ) -> String {
        let shown = |path: &str| -> String {
            if keep_extension {
                path.to_string()
            } else {
                strip_md(path).unwrap_or(path).to_string()
            }
        };
        match self.format {
            LinkFormat::Shortest => vault.note_link(target, from, keep_extension),
            LinkFormat::Absolute => shown(target),
            LinkFormat::Relative => {
                let path = shown(&relative_path(from, target));
                if path.starts_with("../") {
                    path
                } else {
                    format!("./{path}")
                }
            }
        }
    }

    /// The path a Markdown link in `from` writes for `target`: relative, or
    /// rooted for `absolute`; percent-encoded where a link needs it.
    pub fn markdown_path(&self, target: &str, from: &str) -> String {
        let path = match self.format {
            LinkFormat::Absolute => format!("/{target}"),
            _ => relative_path(from, target),
        };
        encode(&path)
    }

    /// A new link in `from` to `target`, with `fragment` (without `#`).
    pub fn link(
        &self,
        vault: &VaultIndex,
        target: &str,
        from: &str,
        fragment: Option<&str>,
    ) -> String {
        let hash = fragment.map(|f| format!("#{f}")).unwrap_or_default();
        if self.markdown {
            let name = file_name(target);
            let text = strip_md(name).unwrap_or(name);
            format!(
                "[{text}]({}{})",
                self.markdown_path(target, from),
                encode(&hash)
            )
        } else {
            format!("[[{}{hash}]]", self.wiki_name(vault, target, from, false))
        }
    }
}

/// `path` with the characters a link destination cannot hold encoded.
fn encode(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for c in path.chars() {
        match c {
            ' ' => out.push_str("%20"),
            '(' => out.push_str("%28"),
            ')' => out.push_str("%29"),
            '<' => out.push_str("%3C"),
            '>' => out.push_str("%3E"),
            c => out.push(c),
        }
    }
    debug_assert_eq!(decode(&out), path);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn app_json_settings() {
        let style = LinkStyle::from_app_json(
            r#"{"newLinkFormat": "absolute", "useMarkdownLinks": true, "attachmentFolderPath": "assets"}"#,
        );
        assert_eq!(
            style,
            LinkStyle {
                format: LinkFormat::Absolute,
                markdown: true,
                attachment_folder: Some("assets".into())
            }
        );
        assert_eq!(LinkStyle::from_app_json("not json"), LinkStyle::default());
    }

    #[test]
    fn links_in_each_format() {
        let vault = VaultIndex::new(["notes/a.md", "projects/my garden.md", "notes/b.md"]);
        let at = |format, markdown| {
            LinkStyle {
                format,
                markdown,
                attachment_folder: None,
            }
            .link(&vault, "projects/my garden.md", "notes/a.md", None)
        };
        assert_eq!(at(LinkFormat::Shortest, false), "[[my garden]]");
        assert_eq!(at(LinkFormat::Absolute, false), "[[projects/my garden]]");
        assert_eq!(at(LinkFormat::Relative, false), "[[../projects/my garden]]");
        assert_eq!(
            at(LinkFormat::Relative, true),
            "[my garden](../projects/my%20garden.md)"
        );
        assert_eq!(
            at(LinkFormat::Absolute, true),
            "[my garden](/projects/my%20garden.md)"
        );
        let same = LinkStyle {
            format: LinkFormat::Relative,
            ..LinkStyle::default()
        };
        assert_eq!(
            same.wiki_name(&vault, "notes/b.md", "notes/a.md", false),
            "./b"
        );
    }
}
