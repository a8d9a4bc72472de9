//! The part of a file an edit changed, found by trimming what the bytes
//! before and after have in common at both ends: enough to turn the new
//! bytes back into the old ones (a reverse delta), found in linear time with
//! no diff algorithm, so it stays cheap on files of tens of megabytes.
//!
//! ```
//! use mcp_server_text::text::byte_delta::Delta;
//!
//! let old = b"one\ntwo\nthree\n";
//! let new = b"one\n2\nthree\n";
//! let delta = Delta::between(old, new);
//! assert_eq!((delta.prefix, delta.old_len, delta.new_len), (4, 3, 1));
//! assert_eq!(delta.old_middle(old), b"two");
//! assert_eq!(delta.restore(new, b"two").unwrap(), old);
//! ```

use std::fmt;

/// Bytes compared at a time before the first difference is looked for byte
/// by byte: slice equality is a `memcmp`, many times faster than a loop.
const BLOCK: usize = 4096;

/// Where two byte strings differ: they share `prefix` bytes at the start and
/// the same suffix at the end; between them the old bytes had `old_len`
/// bytes where the new ones have `new_len`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Delta {
    /// Bytes both start with.
    pub prefix: usize,
    /// Length of the old bytes' differing middle.
    pub old_len: usize,
    /// Length of the new bytes' differing middle.
    pub new_len: usize,
}

/// Restoring failed: the bytes given are not those the delta was taken from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    /// The length the new bytes must have at least.
    pub needed: usize,
    /// The length they have.
    pub actual: usize,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the content is {} bytes long, shorter than the {} bytes the change left",
            self.actual, self.needed
        )
    }
}

impl std::error::Error for Mismatch {}

impl Delta {
    /// The delta that turns `new` back into `old`.
    pub fn between(old: &[u8], new: &[u8]) -> Delta {
        let prefix = common_prefix(old, new);
        // The suffix may not reach into the prefix of either string.
        let room = old.len().min(new.len()) - prefix;
        let suffix = common_suffix(&old[old.len() - room..], &new[new.len() - room..]);
        Delta {
            prefix,
            old_len: old.len() - prefix - suffix,
            new_len: new.len() - prefix - suffix,
        }
    }

    /// The old bytes' differing middle, to keep with the delta.
    pub fn old_middle<'a>(&self, old: &'a [u8]) -> &'a [u8] {
        &old[self.prefix..self.prefix + self.old_len]
    }

    /// The new bytes' differing middle.
    pub fn new_middle<'a>(&self, new: &'a [u8]) -> &'a [u8] {
        &new[self.prefix..self.prefix + self.new_len]
    }

    /// Whether the two strings were the same.
    pub fn is_empty(&self) -> bool {
        self.old_len == 0 && self.new_len == 0
    }

    /// The old bytes, rebuilt from the new ones and the old middle.
    /// A delta read from elsewhere (a history record) is checked, never
    /// trusted: lengths past the bytes given are a mismatch, not a panic.
    pub fn restore(&self, new: &[u8], old_middle: &[u8]) -> Result<Vec<u8>, Mismatch> {
        let end = self.prefix.saturating_add(self.new_len);
        if new.len() < end || old_middle.len() != self.old_len {
            return Err(Mismatch {
                needed: end,
                actual: new.len(),
            });
        }
        let mut out = Vec::with_capacity(new.len() - self.new_len + self.old_len);
        out.extend_from_slice(&new[..self.prefix]);
        out.extend_from_slice(old_middle);
        out.extend_from_slice(&new[end..]);
        Ok(out)
    }
}

/// Length of the longest common prefix of `a` and `b`.
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let len = a.len().min(b.len());
    let mut at = 0;
    while at + BLOCK <= len && a[at..at + BLOCK] == b[at..at + BLOCK] {
        at += BLOCK;
    }
    at + a[at..len]
        .iter()
        .zip(&b[at..len])
        .take_while(|(x, y)| x == y)
        .count()
}

/// Length of the longest common suffix of `a` and `b` (of equal length).
fn common_suffix(a: &[u8], b: &[u8]) -> usize {
    let len = a.len().min(b.len());
    let (a, b) = (&a[a.len() - len..], &b[b.len() - len..]);
    let mut matched = 0;
    while matched + BLOCK <= len
        && a[len - matched - BLOCK..len - matched] == b[len - matched - BLOCK..len - matched]
    {
        matched += BLOCK;
    }
    matched
        + a[..len - matched]
            .iter()
            .rev()
            .zip(b[..len - matched].iter().rev())
            .take_while(|(x, y)| x == y)
            .count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn round_trip(old: &[u8], new: &[u8]) -> Delta {
        let delta = Delta::between(old, new);
        let middle = delta.old_middle(old).to_vec();
        assert_eq!(delta.restore(new, &middle).unwrap(), old);
        assert_eq!(
            delta.old_len + (new.len() - delta.new_len),
            old.len(),
            "the kept ends are the same length in both"
        );
        delta
    }

    #[test]
    fn trims_both_ends_without_overlap() {
        assert_eq!(
            round_trip(b"aaaa", b"aa"),
            Delta {
                prefix: 2,
                old_len: 2,
                new_len: 0
            }
        );
        assert_eq!(round_trip(b"", b"abc").old_len, 0);
        assert_eq!(round_trip(b"abc", b"").new_len, 0);
        assert!(round_trip(b"same", b"same").is_empty());
        assert_eq!(
            round_trip(b"x\r\ny\r\n", b"x\ny\r\n"),
            Delta {
                prefix: 1,
                old_len: 1,
                new_len: 0
            }
        );
    }

    #[test]
    fn large_inputs_use_the_block_compare() {
        let mut old = vec![b'a'; 3 * BLOCK + 17];
        let mut new = old.clone();
        new[2 * BLOCK + 5] = b'b';
        let delta = round_trip(&old, &new);
        assert_eq!(
            delta,
            Delta {
                prefix: 2 * BLOCK + 5,
                old_len: 1,
                new_len: 1
            }
        );
        old.truncate(BLOCK);
        new.truncate(BLOCK);
        new.extend_from_slice(&[b'z'; 2 * BLOCK]);
        round_trip(&old, &new);
    }

    #[test]
    fn restore_refuses_bytes_that_are_too_short() {
        let delta = Delta::between(b"abc", b"abXYc");
        assert!(delta.restore(b"ab", b"").is_err());
        assert!(delta.restore(b"abXYc", b"wrong length").is_err());
        // A forged delta whose lengths overflow is refused, not a panic.
        let forged = Delta {
            prefix: usize::MAX,
            old_len: 0,
            new_len: 2,
        };
        assert!(forged.restore(b"abc", b"").is_err());
    }

    proptest! {
        #[test]
        fn restores_any_pair(
            old in proptest::collection::vec(0u8..4, 0..200),
            new in proptest::collection::vec(0u8..4, 0..200),
        ) {
            round_trip(&old, &new);
        }
    }
}
