//! The MCP server: lists the registry's tools with their schemas and
//! annotations, runs calls on a blocking thread, and turns results into
//! `structuredContent` plus the same JSON as text. Tool failures are results
//! with `isError: true`, never protocol errors.
//!
//! It also serves the editing guidance as `instructions` and as a prompt, and
//! when the client offers MCP roots, uses them instead of the command line's.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, GetPromptRequestParams,
    GetPromptResponse, GetPromptResult, Implementation, InitializeRequestParams, InitializeResult,
    ListPromptsResult, ListToolsResult, PaginatedRequestParams, ProgressNotificationParam, Prompt,
    PromptMessage, RequestParamsMeta, Role, ServerCapabilities, ServerConfig, Tool,
    ToolAnnotations,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::Value;

use super::in_flight::InFlight;
use crate::tools::context::{Settings, ToolContext};
use crate::tools::guidance::{PROMPT_NAME, guidance};
use crate::tools::registry::Registry;
use crate::tools::tool::ToolEntry;
use crate::workspace::Workspace;
use crate::workspace::roots::Roots;

/// The MCP face of the tools.
#[derive(Clone)]
pub struct TextServer {
    registry: Arc<Registry>,
    workspace: Arc<Workspace>,
    settings: Arc<Settings>,
    tools: Arc<Vec<Tool>>,
    calls: Arc<InFlight>,
    /// True while the client's roots are being fetched: a client that offers
    /// roots may send its first tool call before they have arrived, and that
    /// call must not run against the command line's roots.
    roots_pending: Arc<tokio::sync::watch::Sender<bool>>,
}

impl TextServer {
    /// A server offering `registry`'s tools over `workspace`.
    pub fn new(
        registry: Arc<Registry>,
        workspace: Arc<Workspace>,
        settings: Arc<Settings>,
    ) -> TextServer {
        let tools = registry.entries().iter().map(mcp_tool).collect();
        TextServer {
            registry,
            workspace,
            settings,
            tools: Arc::new(tools),
            calls: Arc::new(InFlight::default()),
            roots_pending: Arc::new(tokio::sync::watch::Sender::new(false)),
        }
    }

    /// The tool calls running in every session of this server.
    pub fn calls(&self) -> Arc<InFlight> {
        self.calls.clone()
    }

    fn guidance(&self) -> String {
        guidance(&self.registry.names())
    }

    /// The same server for another client session: same tools and settings,
    /// its own roots (a client's roots apply to that client only), shared locks
    /// and a shared count of running calls.
    pub fn for_new_session(&self) -> TextServer {
        TextServer {
            workspace: Arc::new(self.workspace.fork()),
            roots_pending: Arc::new(tokio::sync::watch::Sender::new(false)),
            ..self.clone()
        }
    }

    /// Replaces the roots with the client's, if it offers any.
    // MCP roots are deprecated in the newest protocol revision, but clients of
    // the revisions in use today (Claude Desktop, Cursor, VS Code) send them.
    #[allow(deprecated)]
    async fn adopt_client_roots(&self, peer: &rmcp::Peer<RoleServer>) {
        let offers_roots = peer
            .peer_info()
            .is_some_and(|info| info.capabilities.roots.is_some());
        if !offers_roots {
            self.roots_pending.send_replace(false);
            return;
        }
        self.roots_pending.send_replace(true);
        self.fetch_client_roots(peer).await;
        self.roots_pending.send_replace(false);
    }

    /// Waits (a bounded time) for roots the client announced.
    async fn roots_ready(&self) {
        let mut pending = self.roots_pending.subscribe();
        let wait = pending.wait_for(|p| !*p);
        if tokio::time::timeout(ROOTS_WAIT, wait).await.is_err() {
            // Wait once, not on every call, for a client that never sends them.
            self.roots_pending.send_replace(false);
            tracing::warn!("the client's roots did not arrive in time; using the current roots");
        }
    }

    #[allow(deprecated)]
    async fn fetch_client_roots(&self, peer: &rmcp::Peer<RoleServer>) {
        let listed = match peer.list_roots().await {
            Ok(listed) => listed,
            Err(error) => {
                tracing::warn!("could not list the client's roots: {error}");
                return;
            }
        };
        let paths: Vec<std::path::PathBuf> = listed
            .roots
            .iter()
            .filter_map(|root| file_uri_to_path(&root.uri))
            .collect();
        if paths.is_empty() {
            tracing::info!("the client offers no file roots; keeping the command line's");
            return;
        }
        match Roots::new(paths) {
            Ok(roots) => {
                tracing::info!("using the client's roots: {:?}", roots.list());
                self.workspace.set_roots(roots);
                // The new roots may hold temp files of an interrupted run too.
                if let Err(e) = self.workspace.sweep_stale_temps_in_background() {
                    tracing::warn!("could not start looking for leftover temp files: {e}");
                }
            }
            Err(error) => tracing::warn!("ignoring the client's roots: {error}"),
        }
    }
}

/// How long a tool call waits for roots a client announced.
const ROOTS_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

/// The MCP description of a tool entry.
pub fn mcp_tool(entry: &ToolEntry) -> Tool {
    let annotations = ToolAnnotations::with_title(entry.title)
        .read_only(entry.effects.read_only)
        .destructive(entry.effects.destructive)
        .idempotent(entry.effects.idempotent)
        .open_world(false);
    Tool::new(entry.name, entry.description, entry.input_schema.clone())
        .with_title(entry.title)
        .with_raw_output_schema(entry.output_schema.clone())
        .with_annotations(annotations)
}

/// The path of a `file://` URI, percent-decoded.
pub fn file_uri_to_path(uri: &str) -> Option<std::path::PathBuf> {
    let rest = uri.strip_prefix("file://")?;
    // `file:///x` has an empty host; `file://localhost/x` names this machine.
    let rest = rest.strip_prefix("localhost").unwrap_or(rest);
    let mut bytes = Vec::with_capacity(rest.len());
    let raw = rest.as_bytes();
    let mut i = 0;
    while i < raw.len() {
        if raw[i] == b'%'
            && let Some(hex) = rest.get(i + 1..i + 3)
            && let Ok(byte) = u8::from_str_radix(hex, 16)
        {
            bytes.push(byte);
            i += 3;
            continue;
        }
        bytes.push(raw[i]);
        i += 1;
    }
    let path = String::from_utf8(bytes).ok()?;
    #[cfg(windows)]
    let path = path.trim_start_matches('/').to_string();
    Some(std::path::PathBuf::from(path))
}

/// A tool result as MCP returns it.
pub fn call_result(outcome: Result<Value, crate::tools::error::ToolError>) -> CallToolResult {
    match outcome {
        Ok(value) => {
            let text = serde_json::to_string_pretty(&value).unwrap_or_default();
            let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
            result.structured_content = Some(value);
            result
        }
        Err(error) => {
            let text = serde_json::to_string_pretty(&error.to_json()).unwrap_or_default();
            CallToolResult::error(vec![ContentBlock::text(text)])
        }
    }
}

impl ServerHandler for TextServer {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_prompts()
            .build();
        ServerConfig::new(capabilities)
            .with_server_info(
                Implementation::new("mcp-server-text", env!("CARGO_PKG_VERSION"))
                    .with_title("Text, Markdown and source file tools"),
            )
            .with_instructions(self.guidance())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools.as_ref().clone()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.tools.iter().find(|t| t.name == name).cloned()
    }

    // Roots are deprecated in the newest protocol revision but still sent by
    // the clients in use; see `adopt_client_roots`.
    #[allow(deprecated)]
    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        if request.capabilities.roots.is_some() {
            // Tool calls wait from now until the roots have been fetched
            // after `notifications/initialized`.
            self.roots_pending.send_replace(true);
        }
        context.peer.set_peer_info(request.clone());
        self.negotiate_initialize(&request)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.roots_ready().await;
        let Some(_running) = self.calls.enter() else {
            let refusal = crate::tools::error::ToolError::new(
                "the server is shutting down, so this call was not run; no file was changed by it",
            )
            .suggest("Call again once the server is back");
            return Ok(call_result(Err(refusal)).into());
        };
        let name = request.name.to_string();
        let args = request
            .arguments
            .clone()
            .map(Value::Object)
            .unwrap_or(Value::Null);
        let cancelled = Arc::new(AtomicBool::new(false));
        let mut ctx = ToolContext::new(self.workspace.clone(), self.settings.clone())
            .with_cancel_flag(cancelled.clone());
        if let Some(token) = request.progress_token() {
            let peer = context.peer.clone();
            let runtime = tokio::runtime::Handle::current();
            ctx = ctx.with_progress(Arc::new(move |done, total, message| {
                let mut param = ProgressNotificationParam::new(token.clone(), done);
                param.total = total;
                param.message = Some(message);
                let peer = peer.clone();
                runtime.spawn(async move {
                    let _ = peer.notify_progress(param).await;
                });
            }));
        }
        let watch = {
            let ct = context.ct.clone();
            let cancelled = cancelled.clone();
            tokio::spawn(async move {
                ct.cancelled().await;
                cancelled.store(true, Ordering::Relaxed);
            })
        };
        let registry = self.registry.clone();
        let outcome = tokio::task::spawn_blocking(move || registry.call(&ctx, &name, args)).await;
        watch.abort();
        let outcome = outcome.unwrap_or_else(|join_error| {
            Err(crate::tools::error::ToolError::new(format!(
                "the tool call stopped unexpectedly: {join_error}; no file was changed by this call"
            )))
        });
        Ok(call_result(outcome).into())
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        let prompt = Prompt::new(
            PROMPT_NAME,
            Some("How to choose between the text tools and keep edits landing in the right place"),
            None,
        );
        Ok(ListPromptsResult::with_all_items(vec![prompt]))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        if request.name != PROMPT_NAME {
            return Err(ErrorData::invalid_params(
                format!(
                    "there is no prompt named '{}'; the prompt is '{PROMPT_NAME}'",
                    request.name
                ),
                None,
            ));
        }
        let mut result =
            GetPromptResult::new(vec![PromptMessage::new_text(Role::User, self.guidance())]);
        result.description = Some("Editing guidance for mcp-server-text".into());
        Ok(result.into())
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        self.adopt_client_roots(&context.peer).await;
    }

    async fn on_roots_list_changed(&self, context: NotificationContext<RoleServer>) {
        self.adopt_client_roots(&context.peer).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_uris() {
        assert_eq!(
            file_uri_to_path("file:///home/me/My%20Notes"),
            Some("/home/me/My Notes".into())
        );
        assert_eq!(file_uri_to_path("file://localhost/x"), Some("/x".into()));
        assert_eq!(file_uri_to_path("https://example.com"), None);
    }
}
