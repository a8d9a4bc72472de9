//! The faces: the MCP server and the command line, both calling the same tools.
