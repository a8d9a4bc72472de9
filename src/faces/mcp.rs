//! The MCP server: lists the registry's tools with their schemas and
//! annotations, runs calls on a blocking thread, and turns results into
//! `structuredContent` plus the same JSON as text. Tool failures are results
//! with `isError: true`, never protocol errors.
//!
//! It also serves the editing guidance as `instructions` and as a prompt, and
//! when the client offers MCP roots, narrows the operator's folders to them
//! (see [`super::client_roots`]).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

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

use super::client_roots::{RootsBound, ignored_note, mentions_any, narrow};
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
    /// What bounds the roots a client may announce.
    bound: Arc<RootsBound>,
    /// The roots before any client announced its own: the operator's folders
    /// or the current-folder default.
    initial_roots: Arc<Roots>,
    /// What to tell the agent about client roots that were ignored.
    roots_note: Arc<Mutex<RootsNote>>,
}

/// The note about ignored client roots, and whether a reply carried it yet.
#[derive(Debug, Default)]
struct RootsNote {
    /// The note, while some announced root is ignored.
    text: Option<String>,
    /// The folders of the ignored roots, to spot calls that name them.
    folders: Vec<std::path::PathBuf>,
    /// Whether a reply has carried the note since the roots were announced.
    told: bool,
}

impl TextServer {
    /// A server offering `registry`'s tools over `workspace`, whose clients
    /// may set roots within `bound`.
    pub fn new(
        registry: Arc<Registry>,
        workspace: Arc<Workspace>,
        settings: Arc<Settings>,
        bound: RootsBound,
    ) -> TextServer {
        let tools = registry.entries().iter().map(mcp_tool).collect();
        let initial_roots = workspace.roots();
        TextServer {
            registry,
            workspace,
            settings,
            tools: Arc::new(tools),
            calls: Arc::new(InFlight::default()),
            roots_pending: Arc::new(tokio::sync::watch::Sender::new(false)),
            bound: Arc::new(bound),
            initial_roots,
            roots_note: Arc::default(),
        }
    }

    /// The tool calls running in every session of this server.
    pub fn calls(&self) -> Arc<InFlight> {
        self.calls.clone()
    }

    fn guidance(&self) -> String {
        guidance(&self.registry.names(), self.registry.read_only())
    }

    /// The same server for another client session: same tools and settings,
    /// its own roots (a client's roots apply to that client only), shared locks
    /// and a shared count of running calls.
    pub fn for_new_session(&self) -> TextServer {
        TextServer {
            workspace: Arc::new(self.workspace.fork()),
            roots_pending: Arc::new(tokio::sync::watch::Sender::new(false)),
            roots_note: Arc::default(),
            ..self.clone()
        }
    }

    /// Narrows the roots to the client's, if it offers any (see
    /// [`super::client_roots`]).
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
        let uris: Vec<String> = listed.roots.into_iter().map(|root| root.uri).collect();
        self.adopt_roots(&uris);
    }

    /// Sets the roots from the URIs a client announced, within the bound.
    /// No temp-file sweep starts here: a client's roots are either inside the
    /// operator's folders (swept at start) or, over stdio without operator
    /// folders, the client's own business.
    fn adopt_roots(&self, uris: &[String]) {
        let narrowed = narrow(&self.bound, uris);
        for ignored in &narrowed.ignored {
            tracing::warn!(
                "ignoring the client's root {}: {:?}",
                ignored.announced,
                ignored.why
            );
        }
        let roots = if uris.is_empty() {
            tracing::info!("the client offers no roots; keeping the server's");
            (*self.initial_roots).clone()
        } else if narrowed.accepted.is_empty() && matches!(*self.bound, RootsBound::Within(_)) {
            (*self.initial_roots).clone()
        } else {
            match Roots::new(narrowed.accepted.clone()) {
                Ok(roots) if self.within_bound(&roots) => roots,
                Ok(_) => {
                    tracing::warn!(
                        "the client's roots moved outside the server's folders while being checked; keeping the server's"
                    );
                    (*self.initial_roots).clone()
                }
                Err(error) => {
                    tracing::warn!("ignoring the client's roots: {error}");
                    (*self.initial_roots).clone()
                }
            }
        };
        tracing::info!("roots in use: {:?}", roots.list());
        let note = (!narrowed.ignored.is_empty())
            .then(|| ignored_note(&narrowed.ignored, &self.bound, roots.list()));
        self.workspace.set_roots(roots);
        let mut state = self.roots_note.lock().unwrap_or_else(|e| e.into_inner());
        *state = RootsNote {
            text: note,
            folders: narrowed
                .ignored
                .iter()
                .filter_map(|i| i.path.clone())
                .collect(),
            told: false,
        };
    }

    /// Whether every one of `roots` lies inside the bound.
    fn within_bound(&self, roots: &Roots) -> bool {
        match &*self.bound {
            RootsBound::AsGiven => true,
            RootsBound::Within(folders) => roots
                .list()
                .iter()
                .all(|root| folders.iter().any(|f| root.starts_with(f))),
        }
    }

    /// The note about ignored client roots for a reply: the first reply after
    /// the roots were announced carries it, and so does every reply to a call
    /// that names a path in an ignored root.
    fn roots_note_for(&self, args: &Value) -> Option<String> {
        let mut state = self.roots_note.lock().unwrap_or_else(|e| e.into_inner());
        let text = state.text.clone()?;
        if state.told && !mentions_any(args, &state.folders) {
            return None;
        }
        state.told = true;
        Some(text)
    }
}

/// How long a tool call waits for roots a client announced.
const ROOTS_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

/// The MCP description of a tool entry. The title is said once, as the tool's
/// own; the destructive and idempotent hints only where they mean something
/// (MCP: for a tool that is not read-only).
pub fn mcp_tool(entry: &ToolEntry) -> Tool {
    let mut annotations = ToolAnnotations::new()
        .read_only(entry.effects.read_only)
        .open_world(false);
    if !entry.effects.read_only {
        annotations = annotations
            .destructive(entry.effects.destructive)
            .idempotent(entry.effects.idempotent);
    }
    Tool::new(entry.name, entry.description, entry.input_schema.clone())
        .with_title(entry.title)
        .with_raw_output_schema(entry.output_schema.clone())
        .with_annotations(annotations)
}

/// A tool result as MCP returns it. The text content is compact JSON: clients
/// show it to the model, and indentation would be a third of its tokens.
pub fn call_result(outcome: Result<Value, crate::tools::error::ToolError>) -> CallToolResult {
    match outcome {
        Ok(value) => {
            let text = serde_json::to_string(&value).unwrap_or_default();
            let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
            result.structured_content = Some(value);
            result
        }
        Err(error) => {
            let text = serde_json::to_string(&error.to_json()).unwrap_or_default();
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
        mut request: CallToolRequestParams,
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
        // Taken, not cloned: arguments can be as large as a request may be.
        let args = request
            .arguments
            .take()
            .map(Value::Object)
            .unwrap_or(Value::Null);
        let roots_note = self.roots_note_for(&args);
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
        let result = match (outcome, roots_note) {
            (Err(error), Some(note)) => call_result(Err(error.suggest(note))),
            (Ok(value), Some(note)) => {
                let mut result = call_result(Ok(value));
                result
                    .content
                    .push(ContentBlock::text(format!("Note: {note}")));
                result
            }
            (outcome, None) => call_result(outcome),
        };
        Ok(result.into())
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
    use crate::tools::tool::Toolset;

    /// What the tool list of `toolsets` costs an agent: `tools/list` as
    /// compact JSON (scripts/tool-list measures the same over stdio).
    fn tool_list_chars(toolsets: &[Toolset]) -> usize {
        let registry = Registry::new(toolsets, false);
        let tools: Vec<Tool> = registry.entries().iter().map(mcp_tool).collect();
        let list = serde_json::json!({ "tools": tools });
        serde_json::to_string(&list).unwrap().chars().count()
    }

    #[test]
    fn the_default_tool_list_stays_under_20000_characters() {
        let chars = tool_list_chars(&Toolset::DEFAULT);
        assert!(chars < 20_000, "{chars} characters");
        // Every tool is still there, each with its title and output schema.
        let registry = Registry::new(&Toolset::DEFAULT, false);
        assert_eq!(registry.entries().len(), 17);
        for tool in registry.entries().iter().map(mcp_tool) {
            assert!(
                tool.title.is_some() && tool.output_schema.is_some(),
                "{}",
                tool.name
            );
        }
    }

    #[test]
    fn annotations_say_each_hint_once() {
        let registry = Registry::new(&Toolset::ALL, false);
        let json = |name: &str| {
            serde_json::to_value(mcp_tool(registry.get(name).unwrap()).annotations).unwrap()
        };
        assert_eq!(
            json("TextRead"),
            serde_json::json!({"readOnlyHint": true, "openWorldHint": false})
        );
        assert_eq!(
            json("TextPatch"),
            serde_json::json!({"readOnlyHint": false, "destructiveHint": true, "idempotentHint": false, "openWorldHint": false})
        );
    }
}
