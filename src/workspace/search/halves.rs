//! A large file read by two threads at once, each checking its half as UTF-8
//! without NUL bytes while the bytes are still in the cache.
//!
//! Most of the time of reading a large file into fresh memory goes to the
//! page faults of the new buffer, which two threads take side by side; and
//! checking each piece right after reading it spares another trip through
//! memory. Only the common case is handled here: a file that is UTF-8 (with
//! or without a byte order mark), holds no NUL byte, and keeps its size
//! while it is read. For anything else [`read_in_halves`] answers `None` and
//! the caller reads the file the usual way, which gives the right verdict
//! and message (UTF-16, binary, not UTF-8, grew past the limit).
//!
//! ```
//! use mcp_server_text::workspace::search::halves::read_in_halves;
//!
//! let dir = tempfile::tempdir().unwrap();
//! let path = dir.path().join("a.md");
//! std::fs::write(&path, "\u{feff}# Café\n".repeat(1000)).unwrap();
//! let file = std::fs::File::open(&path).unwrap();
//! let size = file.metadata().unwrap().len();
//! let text = read_in_halves(&file, size).unwrap();
//! assert!(text.as_str().starts_with("# Café\n\u{feff}# Café"));
//! std::fs::write(&path, b"caf\xE9\n").unwrap();
//! assert!(read_in_halves(&file, 5).is_none());
//! ```

use std::fs::File;
use std::os::unix::fs::FileExt;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use crate::text::encoding::UTF8_BOM;

/// Files at least this large are read and searched with two threads.
pub const PARALLEL_FROM: u64 = 4 << 20;

/// How much each thread reads before it checks what it read.
const PIECE: usize = 1 << 20;

/// A file's text, read by [`read_in_halves`]. Its memory is kept for the
/// next large read when it is dropped (see [`KEEP_AT_MOST`]).
#[derive(Debug)]
pub struct HalvesText {
    /// The file's bytes, every one of them checked as UTF-8.
    bytes: String,
    /// Where the text starts: after the byte order mark, if any.
    start: usize,
}

impl HalvesText {
    /// The text, without the byte order mark.
    pub fn as_str(&self) -> &str {
        &self.bytes[self.start..]
    }

    /// Whether the file starts with a UTF-8 byte order mark.
    pub fn has_bom(&self) -> bool {
        self.start > 0
    }

    /// The text, without the byte order mark, to keep; its memory is then
    /// not kept for the next read (but see [`recycle`]).
    pub fn into_string(mut self) -> String {
        let mut text = std::mem::take(&mut self.bytes);
        text.drain(..self.start);
        text
    }
}

/// Offers the memory of a large text that is no longer needed to the next
/// large read.
pub fn recycle(text: String) {
    keep(text.into_bytes());
}

impl Drop for HalvesText {
    fn drop(&mut self) {
        keep(std::mem::take(&mut self.bytes).into_bytes());
    }
}

/// The largest buffer kept from one large read to the next. The memory of a
/// fresh buffer costs more to touch than the read itself (a 50 MB note: about
/// 20 ms of page faults against 8 ms of copying), and an agent tends to search
/// the same large file several times in a row.
pub const KEEP_AT_MOST: usize = 64 << 20;

/// A kept buffer is given back to the system after this long unused (and
/// at most a quarter of it more, when the watcher next looks).
const KEEP_FOR: Duration = Duration::from_secs(20);

/// The buffer kept between large reads, and whether a thread is watching it.
struct Kept {
    buffer: Option<(Vec<u8>, Instant)>,
    watched: bool,
}

static KEPT: Mutex<Kept> = Mutex::new(Kept {
    buffer: None,
    watched: false,
});

/// A buffer of `size` bytes: the kept one if it is large enough, else fresh
/// zeroed memory (which the system hands over without writing the zeros).
fn buffer(size: usize) -> Vec<u8> {
    let kept = KEPT.lock().ok().and_then(|mut kept| kept.buffer.take());
    match kept {
        // Not one much larger than needed, which would hold its memory for
        // as long as the text read into it lives.
        Some((mut bytes, _)) if bytes.capacity() >= size && bytes.capacity() / 2 <= size => {
            bytes.resize(size, 0);
            bytes
        }
        _ => vec![0u8; size],
    }
}

/// Keeps `bytes` for the next large read, if it is not too large, and makes
/// sure a thread gives it back to the system once it has gone unused.
fn keep(bytes: Vec<u8>) {
    if bytes.capacity() < PARALLEL_MIN || bytes.capacity() > KEEP_AT_MOST {
        return;
    }
    let Ok(mut kept) = KEPT.lock() else {
        return;
    };
    kept.buffer = Some((bytes, Instant::now()));
    if kept.watched {
        return;
    }
    let watcher = thread::Builder::new().name("read-buffer".into()).spawn(|| {
        loop {
            thread::sleep(KEEP_FOR / 4);
            let Ok(mut kept) = KEPT.lock() else {
                return;
            };
            if kept
                .buffer
                .as_ref()
                .is_some_and(|(_, at)| at.elapsed() >= KEEP_FOR)
            {
                kept.buffer = None;
            }
            if kept.buffer.is_none() {
                kept.watched = false;
                return;
            }
        }
    });
    // Without a watcher the buffer is not kept.
    match watcher {
        Ok(_) => kept.watched = true,
        Err(_) => kept.buffer = None,
    }
}

/// Buffers smaller than this are not worth keeping.
const PARALLEL_MIN: usize = 1 << 20;

/// Reads `file`, `size` bytes long by its metadata, with two threads, one
/// half each; `None` unless every byte is UTF-8 text without a NUL and the
/// file held exactly `size` bytes throughout (see the module docs).
pub fn read_in_halves(file: &File, size: u64) -> Option<HalvesText> {
    read_with(file, usize::try_from(size).ok()?, PIECE)
}

/// [`read_in_halves`] with a piece size of choice, so tests can put piece
/// and half boundaries anywhere, inside characters too.
fn read_with(file: &File, size: usize, piece: usize) -> Option<HalvesText> {
    // Each thread takes the page faults of its own half, if any.
    let mut bytes = buffer(size);
    let mid = size / 2;
    let (first, second) = bytes.split_at_mut(mid);
    // Once one half fails, the other stops too: the usual read follows.
    let failed = AtomicBool::new(false);
    let read = |half, offset, second| {
        let read = read_half(file, half, offset, piece, second, &failed);
        if read.is_none() {
            failed.store(true, Ordering::Relaxed);
        }
        read
    };
    let (first_half, second_half) = thread::scope(|scope| {
        let reader = thread::Builder::new()
            .spawn_scoped(scope, || read(first, 0, false))
            .ok()?;
        let second_half = read(second, mid, true);
        // A panic in the reading thread is a bug; let it surface as one.
        let first_half = reader
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        Some((first_half, second_half))
    })?;
    // Nothing may follow: the file grew while it was read.
    let grew = file
        .read_at(&mut [0u8], size as u64)
        .map_or(true, |n| n != 0);
    // On failure the buffer is not kept: the usual read needs its own.
    let (Some(first_half), Some(second_half), false) = (first_half, second_half, grew) else {
        return None;
    };
    // The checked stretches tile the file: the first half up to a character
    // boundary, the bytes between it and the second half's first character,
    // and the second half from there to the end (checked complete). Valid
    // UTF-8 strings put end to end are valid UTF-8.
    debug_assert_eq!(first_half.skipped, 0);
    let junction = &bytes[first_half.checked_to..mid + second_half.skipped];
    if junction.len() > 6 || simdutf8::basic::from_utf8(junction).is_err() {
        return None;
    }
    debug_assert!(std::str::from_utf8(&bytes).is_ok());
    // SAFETY: every byte was checked as UTF-8 just above, in the three
    // stretches that together make up the whole buffer.
    let bytes = unsafe { String::from_utf8_unchecked(bytes) };
    let start = if bytes.as_bytes().starts_with(UTF8_BOM) {
        UTF8_BOM.len()
    } else {
        0
    };
    Some(HalvesText { bytes, start })
}

/// What reading one half found.
struct Half {
    /// Continuation bytes at the half's start, which belong to a character
    /// begun in the half before: checked with the junction, not here.
    skipped: usize,
    /// The half was checked from `skipped` up to here: to its end, or to an
    /// unfinished character there.
    checked_to: usize,
}

/// Reads `half` from `offset` in the file and checks it as it goes. Only the
/// second half may start inside a character, and it must end on a whole one.
/// `None` if the file is shorter than its metadata said, holds a NUL, or is
/// not UTF-8.
/// It stops early once `failed` is set (by the other half).
fn read_half(
    file: &File,
    half: &mut [u8],
    offset: usize,
    piece: usize,
    second: bool,
    failed: &AtomicBool,
) -> Option<Half> {
    let mut read = 0;
    // Where checking starts, once enough bytes were read to know it.
    let mut skipped = (!second).then_some(0);
    let mut checked_to = 0;
    while read < half.len() {
        if failed.load(Ordering::Relaxed) {
            return None;
        }
        let end = (read + piece).min(half.len());
        match file.read_at(&mut half[read..end], (offset + read) as u64) {
            // Shorter than the metadata said: it shrank while it was read.
            Ok(0) => return None,
            Ok(got) => {
                if memchr::memchr(0, &half[read..read + got]).is_some() {
                    return None;
                }
                read += got;
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return None,
        }
        if skipped.is_none() && (read >= 4 || read == half.len()) {
            // A character has at most 3 continuation bytes.
            let continuing = half[..read.min(4)]
                .iter()
                .take_while(|&&b| is_continuation(b))
                .count();
            if continuing > 3 {
                return None;
            }
            skipped = Some(continuing);
            checked_to = continuing;
        }
        if skipped.is_some() {
            checked_to += checked_prefix(&half[checked_to..read])?;
        }
    }
    let skipped = skipped.unwrap_or(0);
    if second && checked_to != half.len() {
        // An unfinished character at the end of the file.
        return None;
    }
    Some(Half {
        skipped,
        checked_to,
    })
}

/// How many bytes at the start of `bytes` are whole UTF-8 characters, when
/// all of them are but perhaps an unfinished one at the end; `None` if the
/// bytes are not UTF-8.
fn checked_prefix(bytes: &[u8]) -> Option<usize> {
    match simdutf8::compat::from_utf8(bytes) {
        Ok(_) => Some(bytes.len()),
        Err(e) if e.error_len().is_none() => Some(e.valid_up_to()),
        Err(_) => None,
    }
}

fn is_continuation(b: u8) -> bool {
    b & 0xC0 == 0x80
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn read(bytes: &[u8], piece: usize) -> Option<String> {
        let mut file = tempfile::tempfile().unwrap();
        std::io::Write::write_all(&mut file, bytes).unwrap();
        read_with(&file, bytes.len(), piece).map(|text| text.as_str().to_string())
    }

    /// What the usual read makes of the bytes, when it is UTF-8 text.
    fn expected(bytes: &[u8]) -> Option<String> {
        let text = std::str::from_utf8(bytes).ok()?;
        (!text.contains('\0')).then(|| text.strip_prefix('\u{feff}').unwrap_or(text).to_string())
    }

    #[test]
    fn characters_across_every_boundary() {
        // Four-byte characters put every half and piece boundary inside one.
        for prefix in 0..8 {
            let text = format!("{}{}", "a".repeat(prefix), "😀é€".repeat(7));
            for piece in 1..12 {
                assert_eq!(
                    read(text.as_bytes(), piece),
                    Some(text.clone()),
                    "{prefix} {piece}"
                );
            }
        }
    }

    #[test]
    fn refusals_go_to_the_usual_read() {
        assert_eq!(read(b"abc\0def", 2), None);
        assert_eq!(read(b"caf\xE9 au lait", 3), None);
        // Cut short at the end, or continuation bytes in the middle.
        assert_eq!(read("ab😀".as_bytes().split_last().unwrap().1, 2), None);
        assert_eq!(read(b"abcd\x80\x80\x80\x80efgh", 3), None);
        assert_eq!(read(b"\xFF\xFEa\x00", 1), None);
        assert_eq!(read(b"", 1), Some(String::new()));
        assert_eq!(
            read("\u{feff}# BOM".as_bytes(), 2),
            Some("# BOM".to_string())
        );
    }

    #[test]
    fn a_file_that_grew_or_shrank_is_left_to_the_usual_read() {
        let mut file = tempfile::tempfile().unwrap();
        std::io::Write::write_all(&mut file, b"0123456789").unwrap();
        assert!(read_with(&file, 9, 4).is_none());
        assert!(read_with(&file, 11, 4).is_none());
        assert_eq!(read_with(&file, 10, 4).unwrap().as_str(), "0123456789");
    }

    fn piece_of_text() -> impl Strategy<Value = Vec<u8>> {
        prop_oneof![
            8 => prop::sample::select(vec!["a", "\n", "é", "€", "😀", "\u{feff}", " ", "\r\n"])
                .prop_map(|s| s.as_bytes().to_vec()),
            1 => prop::sample::select(vec![vec![0u8], vec![0x80], vec![0xE2, 0x82], vec![0xFF], vec![0xF0, 0x9F, 0x98]]),
        ]
    }

    proptest! {
        #[test]
        fn agrees_with_the_usual_check(
            parts in prop::collection::vec(piece_of_text(), 0..60),
            piece in 1usize..16,
        ) {
            let bytes: Vec<u8> = parts.concat();
            prop_assert_eq!(read(&bytes, piece), expected(&bytes));
        }
    }
}
