//! How much a client may send at once: one stdio line or one HTTP body,
//! `--max-request-size`. Larger requests are refused before they are held in
//! memory whole, so a huge argument cannot exhaust the machine.

/// Default `--max-request-size`: 64 MiB, room for a large file's content in
/// an edit, far below what would strain memory.
pub const DEFAULT_MAX_REQUEST: usize = 64 << 20;

/// Smallest `--max-request-size`: a request must fit an `initialize` and an
/// ordinary tool call.
pub const MIN_MAX_REQUEST: usize = 64 << 10;

/// `bytes` as a person reads a limit: `64 MiB`, `512 KiB`, `100 bytes`.
///
/// ```
/// use mcp_server_text::faces::limits::show_size;
///
/// assert_eq!(show_size(64 << 20), "64 MiB");
/// assert_eq!(show_size(512 << 10), "512 KiB");
/// assert_eq!(show_size(1000), "1000 bytes");
/// ```
pub fn show_size(bytes: usize) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else if bytes >= 1 << 10 && bytes.is_multiple_of(1 << 10) {
        format!("{} KiB", bytes >> 10)
    } else {
        format!("{bytes} bytes")
    }
}
