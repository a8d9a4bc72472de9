//! MCP over stdin and stdout, the way desktop clients start servers.

use rmcp::ServiceExt;

use super::mcp::TextServer;

/// Serves `server` on stdin/stdout until the client disconnects.
pub async fn serve_stdio(server: TextServer) -> Result<(), String> {
    let running = server
        .serve(rmcp::transport::stdio())
        .await
        .map_err(|e| format!("the MCP session could not start: {e}"))?;
    running
        .waiting()
        .await
        .map_err(|e| format!("the MCP session ended with an error: {e}"))?;
    Ok(())
}
