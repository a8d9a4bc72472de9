//! The `fileHash` every read returns and every edit checks: the first 16
//! lowercase hex digits of SHA-256 over a file's exact bytes.
//!
//! Hashing the bytes (not the decoded lines) means a change of line endings,
//! BOM or final newline is noticed too.
//!
//! ```
//! use mcp_server_text::text::hash::file_hash;
//!
//! assert_eq!(file_hash(&[b"hello\n"]), "5891b5b522d5df08");
//! assert_eq!(file_hash(&[b"hel", b"lo\n"]), file_hash(&[b"hello\n"]));
//! ```

use sha2::{Digest, Sha256};

/// Number of hex digits kept from the SHA-256 digest.
pub const HASH_LEN: usize = 16;

/// Hashes the concatenation of `chunks` (a file's bytes, possibly in pieces).
pub fn file_hash(chunks: &[&[u8]]) -> String {
    let mut hasher = Sha256::new();
    for chunk in chunks {
        hasher.update(chunk);
    }
    let digest = hasher.finalize();
    let mut out = String::with_capacity(HASH_LEN);
    for byte in digest.iter().take(HASH_LEN / 2) {
        out.push(char::from_digit(u32::from(byte >> 4), 16).unwrap_or('0'));
        out.push(char::from_digit(u32::from(byte & 0xF), 16).unwrap_or('0'));
    }
    out
}

/// Whether `given` (as a caller sent it) names the same hash as `actual`.
/// Case and surrounding whitespace are ignored; a full 64-digit SHA-256 whose
/// first 16 digits match is accepted too.
pub fn hash_matches(given: &str, actual: &str) -> bool {
    let given = given.trim();
    given.len() >= HASH_LEN
        && given.is_char_boundary(HASH_LEN)
        && given[..HASH_LEN].eq_ignore_ascii_case(actual)
        && given.bytes().all(|b| b.is_ascii_hexdigit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_digest_prefix() {
        // sha256("") = e3b0c44298fc1c149afbf4c8996fb924...
        assert_eq!(file_hash(&[]), "e3b0c44298fc1c14");
        assert_eq!(file_hash(&[b""]), "e3b0c44298fc1c14");
    }

    #[test]
    fn matching_is_lenient_about_case_and_length_only() {
        let h = file_hash(&[b"x"]);
        assert!(hash_matches(&h, &h));
        assert!(hash_matches(&h.to_uppercase(), &h));
        assert!(hash_matches(&format!(" {h} "), &h));
        assert!(!hash_matches(&h[..8], &h));
        assert!(!hash_matches("zzzzzzzzzzzzzzzz", &h));
        assert!(!hash_matches(&file_hash(&[b"y"]), &h));
    }
}
