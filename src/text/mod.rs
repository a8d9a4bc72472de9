//! The text core: pure functions over text, with no file system access.
//!
//! Everything here takes text (or bytes) in and gives values out, so it can be
//! unit- and property-tested in isolation. The workspace layer reads and writes
//! files; the tools layer turns these values into JSON.

pub mod fuzzy;
pub mod lines;
