//! The tools: one module per MCP tool, built from the text core and the
//! workspace. Each tool is a [`tool::Tool`]: typed parameters with a JSON
//! schema, a description, and `run`. [`registry`] lists the tools a server
//! offers and calls them by name.

pub mod advice;
pub mod apply_patch;
pub mod args;
pub mod backlinks;
pub mod batch;
pub mod block_id;
pub mod broken_links;
pub mod check_links;
pub mod context;
pub mod edit_code;
pub mod edit_history;
pub mod edit_report;
pub mod editor;
pub mod error;
pub mod guidance;
pub mod link_context;
pub mod link_keeping;
pub mod link_report;
pub mod list_directories;
pub mod list_files;
pub mod move_path;
pub mod planned_edit;
pub mod properties;
pub mod registry;
pub mod remove_file;
pub mod replace_across;
pub mod replacement;
pub mod schema;
pub mod scope;
pub mod symbol_target;
pub mod syntax_gate;
pub mod tags;
pub mod target;
pub mod templates;
pub mod text_inspect;
pub mod text_patch;
pub mod text_read;
pub mod text_replace;
pub mod text_search;
pub mod tool;
pub mod undo_edit;
