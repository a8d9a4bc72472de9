//! mcp-server-text: precise, safe tools to inspect, read, search and edit text,
//! Markdown and source files inside chosen root folders.
//!
//! The crate is built in four layers, each knowing only the ones below it:
//!
//! 1. [`text`]: pure functions over text, no file system. Documents, structure
//!    parsers, target resolution, edit operations, matching, diffs, hashing.
//! 2. [`workspace`]: the file system. Roots and path confinement, reading and
//!    decoding, atomic writes, per-file locks, trash, directory walking.
//! 3. [`tools`]: one module per tool, each a parameter struct with its JSON schema,
//!    a description, and one function from parameters to a JSON result.
//! 4. [`faces`]: the MCP server (stdio and HTTP) and the command line, both thin,
//!    both calling the same tools.

pub mod faces;
pub mod text;
pub mod tools;
pub mod workspace;
