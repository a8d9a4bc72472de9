//! The `@@ text` lines of Codex hunks: which file lines they name, and the
//! block of lines each such line opens, where its hunk is looked for.

use super::matching::squash;
use super::{File, Why};

impl File<'_> {
    /// The lines that read like each anchor in turn (each inside the block
    /// of the one before), at or below `floor`, with the last line of each
    /// one's block: `(anchor line, last line)`.
    pub(super) fn scopes(
        &self,
        anchors: &[String],
        floor: usize,
    ) -> Result<Vec<(usize, usize)>, Why> {
        let mut stretches = vec![(floor, self.count())];
        let mut found = Vec::new();
        for anchor in anchors {
            found = Vec::new();
            for &(lo, hi) in &stretches {
                for n in lo..=hi {
                    if anchor_matches(self.line(n), anchor) {
                        found.push((n, self.block_end(n).min(hi)));
                    }
                }
            }
            if found.is_empty() {
                return Err(Why::AnchorNotFound {
                    anchor: anchor.clone(),
                });
            }
            stretches = found.iter().map(|&(n, end)| (n + 1, end)).collect();
        }
        Ok(found)
    }

    /// The line below the first line that reads like each anchor in turn.
    pub(super) fn below_anchors(&self, anchors: &[String], floor: usize) -> usize {
        let mut at = floor;
        for anchor in anchors {
            if let Some(n) = (at..=self.count()).find(|&n| anchor_matches(self.line(n), anchor)) {
                at = n + 1;
            }
        }
        at
    }

    /// The last line of the block line `n` opens: the lines below it that
    /// are indented deeper, and a closing bracket at its own depth; for a
    /// Markdown heading without such lines, its section.
    fn block_end(&self, n: usize) -> usize {
        let count = self.count();
        let line = self.line(n);
        let base = indent_width(line);
        let mut end = n;
        for m in n + 1..=count {
            let t = self.line(m);
            let trimmed = t.trim();
            if trimmed.is_empty() {
                continue;
            }
            if indent_width(t) > base {
                end = m;
                continue;
            }
            if trimmed.starts_with(['}', ')', ']']) || trimmed == "end" {
                end = m;
            }
            break;
        }
        if end == n
            && let Some(level) = heading_level(line)
        {
            end = (n + 1..=count)
                .find(|&m| heading_level(self.line(m)).is_some_and(|l| l <= level))
                .map_or(count, |m| m - 1);
        }
        end
    }
}

/// Indentation in columns, a tab counting four.
pub(super) fn indent_width(line: &str) -> usize {
    line.chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .map(|c| if c == '\t' { 4 } else { 1 })
        .sum()
}

/// The level of a Markdown ATX heading line.
fn heading_level(line: &str) -> Option<usize> {
    let hashes = line.chars().take_while(|c| *c == '#').count();
    ((1..=6).contains(&hashes) && line[hashes..].starts_with([' ', '\t'])).then_some(hashes)
}

/// Whether file line `line` reads like the `@@` text `anchor`: equal once
/// trimmed (runs of whitespace counting as one space), or beginning with it
/// up to a word boundary.
fn anchor_matches(line: &str, anchor: &str) -> bool {
    let (line, anchor) = (squash(line), squash(anchor));
    if anchor.is_empty() {
        return false;
    }
    match line.strip_prefix(anchor.as_str()) {
        Some("") => true,
        Some(rest) => {
            let word = |c: char| c.is_alphanumeric() || c == '_';
            !(anchor.chars().last().is_some_and(word) && rest.chars().next().is_some_and(word))
        }
        None => false,
    }
}
