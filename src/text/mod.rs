//! The text core: pure functions over text, with no file system access.
//!
//! Everything here takes text (or bytes) in and gives values out, so it can be
//! unit- and property-tested in isolation. The workspace layer reads and writes
//! files; the tools layer turns these values into JSON.

pub mod byte_delta;
pub mod diff;
pub mod document;
pub mod edit;
pub mod encoding;
pub mod excerpt;
pub mod format;
pub mod fuzzy;
pub mod hash;
pub mod indent;
pub mod line_set;
pub mod lines;
pub mod literal;
pub mod markdown;
pub mod patch;
pub mod plain;
pub mod properties;
pub mod range_patch;
pub mod symbol;
pub mod syntax;
pub mod targets;
pub mod template;
