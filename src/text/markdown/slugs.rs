//! GitHub-style anchor slugs, made unique the way github-slugger does it.
//!
//! The visible text is lowercased; every character that is not a letter, a
//! number, a combining mark, `-`, `_` or a space is dropped, and each space
//! becomes `-`. A slug seen before gets `-1`, `-2`, … appended, skipping
//! suffixes that are themselves already taken.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// The slug of a heading's visible text, before it is made unique.
pub(crate) fn github_slug(visible: &str) -> String {
    let mut slug = String::with_capacity(visible.len());
    if visible.is_ascii() {
        for b in visible.bytes() {
            match b {
                b' ' => slug.push('-'),
                b'-' | b'_' | b'0'..=b'9' | b'a'..=b'z' => slug.push(char::from(b)),
                b'A'..=b'Z' => slug.push(char::from(b.to_ascii_lowercase())),
                _ => {}
            }
        }
        return slug;
    }
    // `str::to_lowercase` knows context rules (a final sigma) that lowering
    // character by character would miss.
    for c in visible.to_lowercase().chars() {
        match c {
            ' ' => slug.push('-'),
            '-' | '_' => slug.push(c),
            c if c.is_alphanumeric() || is_mark(c) => slug.push(c),
            _ => {}
        }
    }
    slug
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
///
/// Documents can have hundreds of thousands of headings, many of them alike
/// ("Examples", "Parameters"), so the slugs are kept once, in a vector, and
/// found again through a table from their hash to their position: no slug is
/// copied, and a numbered candidate is built in the buffer of its base.
#[derive(Debug, Default)]
pub(crate) struct SlugCounter {
    /// The unique slugs handed out, in order.
    slugs: Vec<String>,
    /// For each slug, how many times it came again as a base.
    seen_again: Vec<usize>,
    /// For each hash, the last slug with that hash.
    last_with_hash: HashMap<u64, u32, BuildHasherDefault<HashIsKey>>,
    /// For each slug, the previous slug with the same hash (`NONE` if none).
    previous_with_hash: Vec<u32>,
}

/// End of a chain of slugs sharing a hash.
const NONE: u32 = u32::MAX;

impl SlugCounter {
    /// A counter that expects about `headings` slugs.
    pub(crate) fn with_capacity(headings: usize) -> SlugCounter {
        SlugCounter {
            slugs: Vec::with_capacity(headings),
            seen_again: Vec::with_capacity(headings),
            last_with_hash: HashMap::with_capacity_and_hasher(headings, Default::default()),
            previous_with_hash: Vec::with_capacity(headings),
        }
    }

    /// Adds the unique form of `slug`: itself the first time, then `slug-1`,
    /// `slug-2`, …, skipping forms already taken.
    pub(crate) fn push(&mut self, mut slug: String) {
        let hash = hash_str(&slug);
        let Some(base) = self.find(&slug, hash) else {
            self.add(slug, hash);
            return;
        };
        let base_len = slug.len();
        let mut count = self.seen_again[base];
        loop {
            count += 1;
            slug.truncate(base_len);
            slug.push('-');
            push_decimal(&mut slug, count);
            let hash = hash_str(&slug);
            if self.find(&slug, hash).is_none() {
                self.seen_again[base] = count;
                self.add(slug, hash);
                return;
            }
        }
    }

    /// The unique slugs, in the order they were pushed.
    pub(crate) fn into_slugs(self) -> Vec<String> {
        self.slugs
    }

    /// Position of `slug` among the slugs handed out.
    fn find(&self, slug: &str, hash: u64) -> Option<usize> {
        let mut at = *self.last_with_hash.get(&hash)?;
        while at != NONE {
            let index = at as usize;
            if self.slugs[index] == slug {
                return Some(index);
            }
            at = self.previous_with_hash[index];
        }
        None
    }

    /// Hands out `slug`, known to be new.
    fn add(&mut self, slug: String, hash: u64) {
        let index = u32::try_from(self.slugs.len()).expect("fewer than 4 billion headings");
        let previous = self.last_with_hash.insert(hash, index).unwrap_or(NONE);
        self.previous_with_hash.push(previous);
        self.slugs.push(slug);
        self.seen_again.push(0);
    }
}

/// Appends `n` in decimal (cheaper than formatting machinery in a hot loop).
fn push_decimal(s: &mut String, mut n: usize) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &d in &digits[i..] {
        s.push(char::from(d));
    }
}

/// A 64-bit hash of a slug: word at a time, then mixed so that every input
/// bit reaches the low bits the table indexes by. Not resistant to crafted
/// collisions, which could only slow down the parse of the crafted document.
fn hash_str(s: &str) -> u64 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let bytes = s.as_bytes();
    let mut h = bytes.len() as u64;
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        let word = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
        h = (h.rotate_left(5) ^ word).wrapping_mul(K);
    }
    let mut tail = [0u8; 8];
    tail[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
    h = (h.rotate_left(5) ^ u64::from_le_bytes(tail)).wrapping_mul(K);
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33)
}

/// A hasher for keys that already are well-mixed hashes.
#[derive(Debug, Default, Clone, Copy)]
struct HashIsKey(u64);

impl Hasher for HashIsKey {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }

    fn finish(&self) -> u64 {
        self.0
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

    fn unique(slugs: &[&str]) -> Vec<String> {
        let mut counter = SlugCounter::with_capacity(slugs.len());
        for slug in slugs {
            counter.push(slug.to_string());
        }
        counter.into_slugs()
    }

    #[test]
    fn duplicates_are_numbered() {
        assert_eq!(
            unique(&["setup", "setup", "setup", "setup-1", "", ""]),
            ["setup", "setup-1", "setup-2", "setup-1-1", "", "-1"]
        );
    }

    #[test]
    fn taken_suffixes_are_skipped() {
        assert_eq!(unique(&["a-1", "a", "a", "a"]), ["a-1", "a", "a-2", "a-3"]);
        assert_eq!(
            unique(&["b", "b-1", "b", "b", "b-1"]),
            ["b", "b-1", "b-2", "b-3", "b-1-1"]
        );
    }

    #[test]
    fn many_slugs_stay_unique() {
        let names: Vec<String> = (0..5000).map(|i| format!("s{}", i % 70)).collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let slugs = unique(&refs);
        let mut sorted = slugs.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), 5000);
        assert_eq!(slugs[70], "s0-1");
        assert_eq!(slugs[4999], format!("s{}-{}", 4999 % 70, 4999 / 70));
    }
}
