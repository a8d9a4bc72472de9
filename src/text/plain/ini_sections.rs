//! INI-style section markers: `[name]` (and TOML's `[[name]]`) alone on a
//! line, optionally followed by a `;` or `#` comment.

use schemars::JsonSchema;
use serde::Serialize;

/// One section: its marker line and the lines up to the next marker.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct IniSection {
    /// The marker as written, e.g. `[database]` or `[[servers]]`.
    pub marker: String,
    /// The name inside the brackets, trimmed.
    pub name: String,
    /// Line of the marker.
    pub line: usize,
    /// Last line of the section: the line before the next marker, or the last
    /// line of the text.
    pub end_line: usize,
}

impl IniSection {
    /// How many brackets surround the name: 1 for `[a]`, 2 for `[[a]]`.
    pub fn depth(&self) -> usize {
        if self.marker.starts_with("[[") { 2 } else { 1 }
    }
}

/// The marker and the name of a section marker line, given from its first
/// non-whitespace character.
pub(crate) fn section_marker(trimmed: &str) -> Option<(&str, &str)> {
    if !trimmed.starts_with('[') {
        return None;
    }
    let double = trimmed.starts_with("[[");
    let close = if double {
        trimmed.find("]]")? + 2
    } else {
        trimmed.find(']')? + 1
    };
    let marker = &trimmed[..close];
    let rest = trimmed[close..].trim_start();
    if !(rest.is_empty() || rest.starts_with(';') || rest.starts_with('#')) {
        return None;
    }
    let inner = if double {
        &marker[2..marker.len() - 2]
    } else {
        &marker[1..marker.len() - 1]
    };
    let name = inner.trim();
    if name.is_empty() || name.contains(['[', ']']) {
        return None;
    }
    Some((marker, name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers() {
        assert_eq!(
            section_marker("[database]"),
            Some(("[database]", "database"))
        );
        assert_eq!(
            section_marker("[ spaced name ]"),
            Some(("[ spaced name ]", "spaced name"))
        );
        assert_eq!(
            section_marker("[[servers]]"),
            Some(("[[servers]]", "servers"))
        );
        assert_eq!(section_marker("[a.b]  # note"), Some(("[a.b]", "a.b")));
        assert_eq!(section_marker("[a] ; note"), Some(("[a]", "a")));
    }

    #[test]
    fn not_markers() {
        assert_eq!(section_marker("[]"), None);
        assert_eq!(section_marker("[ ]"), None);
        assert_eq!(section_marker("[x] done"), None);
        assert_eq!(section_marker("[link](url)"), None);
        assert_eq!(section_marker("[unclosed"), None);
        assert_eq!(section_marker("key = [1, 2]"), None);
        assert_eq!(section_marker("[a[b]"), None);
    }
}
