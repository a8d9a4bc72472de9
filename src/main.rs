//! The `mcp-server-text` binary; see [`mcp_server_text::faces::cli`].

fn main() -> std::process::ExitCode {
    mcp_server_text::faces::cli::main()
}
