//! The links of one Markdown file as replies show them: where each is, what
//! it points at, and for internal targets whether the target exists (and if
//! not, why, and what is close).

use schemars::JsonSchema;
use serde::Serialize;

use super::link_context::RootLinks;
use crate::text::markdown::{Link, LinkKind, LinkStatus, LinkedDocument, check_link};

/// One link in a reply.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct LinkInfo {
    /// 1-based line of the link.
    pub line: usize,
    /// 1-based column where the link starts.
    pub column: usize,
    /// inline, image, reference, definition, autolink, wikilink or embed.
    pub kind: LinkKind,
    /// The target as the link gives it (a reference's comes from its definition).
    pub target: String,
    /// Whether the target is a file, folder, heading or anchor inside the roots (false for URLs).
    pub internal: bool,
    /// For internal targets: whether the target exists.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exists: Option<bool>,
    /// The file or folder the link reaches, relative to its root.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resolved_path: Option<String>,
    /// The line a #fragment points to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_line: Option<usize>,
    /// Why the target does not exist.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// What to write instead.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suggestion: Option<String>,
}

/// Checks `link` of document `from` (relative to `root`'s root) and describes it.
pub fn describe_link(
    link: &Link,
    from: &str,
    own: &LinkedDocument,
    root: &mut RootLinks<'_>,
) -> LinkInfo {
    let status = check_link(link, from, own, root);
    let mut info = LinkInfo {
        line: link.line,
        column: link.column,
        kind: link.kind,
        target: if link.is_undefined_reference() {
            format!("[{}]", link.label.as_deref().unwrap_or(""))
        } else {
            link.target.clone()
        },
        internal: true,
        exists: None,
        resolved_path: None,
        target_line: None,
        reason: None,
        suggestion: None,
    };
    match status {
        LinkStatus::External => info.internal = false,
        LinkStatus::Found { path, line } => {
            info.exists = Some(true);
            info.resolved_path = path;
            info.target_line = line;
        }
        LinkStatus::Broken { reason, suggestion } => {
            info.exists = Some(false);
            info.reason = Some(reason);
            info.suggestion = suggestion;
        }
    }
    info
}
