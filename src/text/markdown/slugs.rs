//! GitHub-style anchor slugs, made unique the way github-slugger does it.
//!
//! The visible text is lowercased; every character that is not a letter, a
//! number, a combining mark, `-`, `_` or a space is dropped, and each space
//! becomes `-`. A slug seen before gets `-1`, `-2`, … appended, skipping
//! suffixes that are themselves already taken.

use std::collections::HashMap;

/// The slug of a heading's visible text, before it is made unique.
pub(crate) fn github_slug(visible: &str) -> String {
    visible
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            '-' | '_' => Some(c),
            c if c.is_alphanumeric() || is_mark(c) => Some(c),
            _ => None,
        })
        .collect()
}

/// Whether `c` is a combining mark. Marks that Unicode also counts as
/// alphabetic (most vowel signs) are already kept by `is_alphanumeric`; this
/// covers the combining blocks and variation selectors, which are not.
fn is_mark(c: char) -> bool {
    matches!(
        u32::from(c),
        0x0300..=0x036F
            | 0x0483..=0x0489
            | 0x0591..=0x05BD
            | 0x05BF
            | 0x05C1..=0x05C2
            | 0x05C4..=0x05C5
            | 0x05C7
            | 0x0610..=0x061A
            | 0x064B..=0x065F
            | 0x0670
            | 0x06D6..=0x06DC
            | 0x06DF..=0x06E4
            | 0x06E7..=0x06E8
            | 0x06EA..=0x06ED
            | 0x0E31
            | 0x0E34..=0x0E3A
            | 0x0E47..=0x0E4E
            | 0x1AB0..=0x1AFF
            | 0x1DC0..=0x1DFF
            | 0x20D0..=0x20FF
            | 0x302A..=0x302F
            | 0x3099..=0x309A
            | 0xFE00..=0xFE0F
            | 0xFE20..=0xFE2F
            | 0xE0100..=0xE01EF
    )
}

/// Hands out unique slugs in document order.
#[derive(Debug, Default)]
pub(crate) struct SlugCounter {
    /// For each slug handed out, how many times its base was seen again.
    occurrences: HashMap<String, usize>,
}

impl SlugCounter {
    /// The unique form of `slug`: itself the first time, then `slug-1`, … .
    pub(crate) fn unique(&mut self, slug: String) -> String {
        let mut candidate = slug.clone();
        while self.occurrences.contains_key(&candidate) {
            let count = self.occurrences.entry(slug.clone()).or_insert(0);
            *count += 1;
            candidate = format!("{slug}-{count}");
        }
        self.occurrences.insert(candidate.clone(), 0);
        candidate
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_like_github() {
        assert_eq!(github_slug("Getting Started"), "getting-started");
        assert_eq!(github_slug("What's new in 2.0?"), "whats-new-in-20");
        assert_eq!(github_slug("C++ & Rust"), "c--rust");
        assert_eq!(github_slug("snake_case-name"), "snake_case-name");
        assert_eq!(github_slug("  Spaces  "), "--spaces--");
        assert_eq!(github_slug("Ünïcödé Ñame"), "ünïcödé-ñame");
        assert_eq!(github_slug("日本語 テスト"), "日本語-テスト");
        assert_eq!(github_slug("e\u{301}te\u{301}"), "e\u{301}te\u{301}");
        assert_eq!(github_slug("I ❤\u{FE0F} Rust"), "i-\u{FE0F}-rust");
        assert_eq!(github_slug("🎉"), "");
    }

    #[test]
    fn duplicates_are_numbered() {
        let mut counter = SlugCounter::default();
        assert_eq!(counter.unique("setup".into()), "setup");
        assert_eq!(counter.unique("setup".into()), "setup-1");
        assert_eq!(counter.unique("setup".into()), "setup-2");
        assert_eq!(counter.unique("setup-1".into()), "setup-1-1");
        assert_eq!(counter.unique("".into()), "");
        assert_eq!(counter.unique("".into()), "-1");
    }

    #[test]
    fn taken_suffixes_are_skipped() {
        let mut counter = SlugCounter::default();
        assert_eq!(counter.unique("a-1".into()), "a-1");
        assert_eq!(counter.unique("a".into()), "a");
        assert_eq!(counter.unique("a".into()), "a-2");
    }
}
