//! A large file searched where it lies: mapped into memory instead of
//! copied, under a read lease that keeps every other program from shrinking
//! it while it is mapped.
//!
//! Copying a 50 MB note into the process costs more than searching it. A
//! mapping costs no copy, but a mapped file that another program truncates
//! kills the process (SIGBUS) when a page past the new end is touched: for a
//! server that lives for days, an editor saving the file must never be able
//! to do that. A read lease ([`crate::workspace::read_lease`]) rules it out:
//! it is granted only while nothing has the file open for writing, and any
//! program that then opens it for writing or truncates it waits until the
//! lease is let go, which happens when the [`MappedText`] is dropped, after
//! the search and its reply. So the mapping is only made where the lease is
//! granted and the file system is local (a network file can change on the
//! server, which no lease here sees); anywhere else [`map_text`] answers
//! `None` and the file is read.
//!
//! A writer that opens the file during a search waits for it, for tens of
//! milliseconds on a 50 MB note. The kernel ends a lease that is not let go
//! within `fs.lease-break-time` (45 s by default), far longer than a search
//! of the largest file the server reads takes.
//!
//! ```
//! use mcp_server_text::workspace::search::mapped::map_text;
//!
//! let dir = tempfile::tempdir().unwrap();
//! let path = dir.path().join("a.md");
//! std::fs::write(&path, "\u{feff}# Café\n".repeat(1000)).unwrap();
//! let file = std::fs::File::open(&path).unwrap();
//! // `None` where leases are not granted (another owner, not Linux).
//! if let Some(text) = map_text(file, 1 << 20) {
//!     assert!(text.as_str().starts_with("# Café\n\u{feff}# Café"));
//!     assert!(text.has_bom());
//! }
//! ```

use std::fs::File;

use memmap2::{Mmap, MmapOptions};

use super::side_by_side::side_by_side;
use crate::text::encoding::UTF8_BOM;
use crate::workspace::hash_memo::is_local;
use crate::workspace::read_lease::ReadLease;

/// A file's text, mapped into memory and checked as UTF-8 without a NUL.
#[derive(Debug)]
pub struct MappedText {
    // Fields drop in this order: the mapping goes before the lease is let go.
    map: Mmap,
    /// Where the text starts: after the byte order mark, if any.
    start: usize,
    _lease: ReadLease<File>,
}

impl MappedText {
    /// The text, without the byte order mark.
    pub fn as_str(&self) -> &str {
        // SAFETY: `map_text` checked every byte of the mapping as UTF-8, and
        // the lease keeps the file from changing while it is mapped (no
        // descriptor is open for writing, and none can be opened).
        unsafe { std::str::from_utf8_unchecked(&self.map[self.start..]) }
    }

    /// Whether the file starts with a UTF-8 byte order mark.
    pub fn has_bom(&self) -> bool {
        self.start > 0
    }

    /// The file's exact bytes, the byte order mark included.
    pub fn bytes(&self) -> &[u8] {
        &self.map
    }
}

/// Maps `file` (open for reading only) and checks it, with two threads;
/// `None` unless a read lease is granted on a local file system, the file is
/// at most `max_size` bytes, and every byte is UTF-8 text without a NUL.
/// Anything else is for the usual read, which gives the right verdict and
/// message.
pub fn map_text(file: File, max_size: u64) -> Option<MappedText> {
    if !is_local(&file) {
        return None;
    }
    let lease = ReadLease::take(file).ok()?;
    // The size is read again under the lease, which now keeps it.
    let size = lease.file().metadata().ok()?.len();
    if size > max_size || size == 0 {
        return None;
    }
    // SAFETY: the mapping is only ever read, and while it lives the lease
    // keeps the file from being opened for writing or truncated by anyone;
    // `MappedText` drops the mapping before the lease. Every page is read,
    // so the kernel maps them all at once rather than fault by fault.
    let map = unsafe { MmapOptions::new().populate().map(lease.file()) }.ok()?;
    if !is_text(&map) {
        return None;
    }
    let start = if map.starts_with(UTF8_BOM) {
        UTF8_BOM.len()
    } else {
        0
    };
    Some(MappedText {
        map,
        start,
        _lease: lease,
    })
}

/// Whether `bytes` are UTF-8 without a NUL, checked by halves on two
/// threads.
fn is_text(bytes: &[u8]) -> bool {
    // The halves meet at a character's first byte; a character has at most
    // three continuation bytes.
    let mut mid = bytes.len() / 2;
    let mut steps = 0;
    while mid < bytes.len() && bytes[mid] & 0xC0 == 0x80 {
        mid += 1;
        steps += 1;
        if steps > 3 {
            return false;
        }
    }
    let (first, second) = bytes.split_at(mid);
    let check =
        |half: &[u8]| simdutf8::basic::from_utf8(half).is_ok() && memchr::memchr(0, half).is_none();
    let (a, b) = side_by_side(|| check(first), || check(second));
    a && b
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn halves_meet_inside_characters() {
        for prefix in 0..8 {
            let text = format!("{}{}", "a".repeat(prefix), "😀é€".repeat(3));
            assert!(is_text(text.as_bytes()), "{prefix}");
        }
        assert!(!is_text(b"abc\0def"));
        assert!(!is_text(b"caf\xE9 au lait"));
        assert!(!is_text(b"abcd\x80\x80\x80\x80efgh"));
        assert!(!is_text("ab😀".as_bytes().split_last().unwrap().1));
        assert!(is_text(b""));
    }

    proptest! {
        #[test]
        fn agrees_with_the_usual_check(
            parts in prop::collection::vec(
                prop::sample::select(vec![
                    &b"a"[..], b"\n", "é".as_bytes(), "€".as_bytes(), "😀".as_bytes(),
                    b"\0", b"\x80", b"\xE2\x82", b"\xFF",
                ]),
                0..40,
            ),
        ) {
            let bytes: Vec<u8> = parts.concat();
            let expected = std::str::from_utf8(&bytes).is_ok_and(|t| !t.contains('\0'));
            prop_assert_eq!(is_text(&bytes), expected);
        }
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_file_open_for_writing_is_not_mapped_and_a_writer_waits_for_the_search() {
        use std::io::Write;
        use std::sync::Arc;
        use std::sync::atomic::{AtomicBool, Ordering};
        use std::time::Duration;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.md");
        std::fs::write(&path, "# One\nline\n".repeat(100)).unwrap();
        let writer = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap();
        assert!(map_text(File::open(&path).unwrap(), 1 << 20).is_none());
        drop(writer);
        let Some(text) = map_text(File::open(&path).unwrap(), 1 << 20) else {
            eprintln!("SKIPPED: leases are not granted here");
            return;
        };
        // A truncation while the text is mapped waits for the lease.
        let let_go = Arc::new(AtomicBool::new(false));
        let truncating = {
            let (path, let_go) = (path.clone(), let_go.clone());
            std::thread::spawn(move || {
                let mut file = std::fs::File::create(&path).unwrap();
                let waited = let_go.load(Ordering::SeqCst);
                file.write_all(b"short\n").unwrap();
                waited
            })
        };
        std::thread::sleep(Duration::from_millis(200));
        // Every page is still there to read.
        assert_eq!(text.as_str().len(), 1100);
        assert!(text.as_str().ends_with("# One\nline\n"));
        let_go.store(true, Ordering::SeqCst);
        drop(text);
        assert!(
            truncating.join().unwrap(),
            "the truncation went ahead while the file was mapped"
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "short\n");
    }
}
