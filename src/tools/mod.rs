//! The tools: one module per MCP tool, built from the text core and the workspace.
