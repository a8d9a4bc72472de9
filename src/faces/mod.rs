//! The faces: the MCP server (stdio and streamable HTTP) and the command line,
//! both thin, both calling the same [`crate::tools::registry::Registry`].

pub mod auth;
pub mod cli;
pub mod client_roots;
pub mod connections;
pub mod http;
pub mod in_flight;
pub mod incoming;
pub mod limits;
pub mod mcp;
pub mod stdio;
