//! The command line: serve MCP over stdio (the default) or HTTP, call one tool
//! (`call`), or list the tools (`tools`). Every option also has an environment
//! variable, so client configurations can set them either way.

use std::io::{IsTerminal, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::parser::ValueSource;
use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};
use serde_json::Value;

use super::auth::HttpAuth;
use super::client_roots::RootsBound;
use super::http::HttpConfig;
use super::limits::{MIN_MAX_REQUEST, show_size};
use super::mcp::{TextServer, mcp_tool};
use crate::tools::context::{Settings, ToolContext};
use crate::tools::registry::Registry;
use crate::tools::tool::Toolset;
use crate::workspace::extensions::{DEFAULT_EXTENSIONS, ExtensionFilter};
use crate::workspace::history::{self, HistoryOptions};
use crate::workspace::{Workspace, WorkspaceOptions};

const AFTER_HELP: &str = "\
Examples:
  mcp-server-text ~/notes                       serve ~/notes to an MCP client over stdio
  mcp-server-text --http 127.0.0.1:8080 ~/notes serve it over streamable HTTP at /mcp
  mcp-server-text call TextInspect '{\"filePath\": \"README.md\"}' --root ~/notes
  mcp-server-text tools                         list every tool with its schema

Toolsets: text (TextInspect, TextRead, TextPatch, TextReplace, TextSearch), files (ListDirectories,
ListFiles, Move, RemoveFile), code (edit_code), editor (the mcp-text-editor API:
get_text_file_contents, patch_text_file_contents, create_text_file, append_text_file_contents,
insert_text_file_contents, delete_text_file_contents), history (EditHistory, UndoEdit), batch (Batch,
and TextReplace's filePattern), links (CheckLinks, Backlinks), vault (Properties, Tags), patch
(ApplyPatch). Default: text,files,code,history,batch,links,vault.

Security: the ROOT folders are the outer bound. MCP roots a client announces are used only where
they lie inside them; others are ignored (with a warning, and a note to the agent). Only over
stdio with no ROOT given are the client's roots used as given. Over --http every request needs
'Authorization: Bearer <token>': the token from MCP_TEXT_HTTP_TOKEN (or --http-token), or one
generated at start and printed on stderr with a client configuration to paste. Listening on
anything but loopback needs your own token; --http-no-auth (loopback only) switches the check off.";

/// MCP server and command line for precise, safe edits of text, Markdown and source files.
#[derive(Debug, Parser)]
#[command(name = "mcp-server-text", version, about, after_help = AFTER_HELP)]
#[command(subcommand_precedence_over_arg = true)]
pub struct Cli {
    /// Root folders the tools may work in (default: the current folder). They
    /// bound MCP roots a client announces: those are used only inside them
    /// (over stdio with no ROOT given, a client's roots are used as given).
    #[arg(value_name = "ROOT", env = "MCP_TEXT_ROOTS", value_delimiter = ',')]
    pub roots: Vec<PathBuf>,

    #[command(flatten)]
    pub options: ServerOptions,

    #[command(subcommand)]
    pub command: Option<Command>,
}

/// Options shared by serving and `call`.
#[derive(Debug, Clone, Args)]
pub struct ServerOptions {
    /// Serve MCP over streamable HTTP at ADDR (path /mcp) instead of stdio: HOST:PORT, or a bare PORT for 127.0.0.1:PORT.
    // Not global: `call` and `tools` serve nothing, so their help leaves it out.
    #[arg(long, value_name = "ADDR", env = "MCP_TEXT_HTTP")]
    pub http: Option<String>,

    /// Comma-separated toolsets to switch on: text, files, code, editor, history, batch, links, vault, patch, or all.
    #[arg(
        long,
        value_name = "LIST",
        env = "MCP_TEXT_TOOLSETS",
        default_value = "text,files,code,history,batch,links,vault",
        global = true
    )]
    pub toolsets: String,

    /// Comma-separated file endings the tools may open (e.g. md,txt,rs), or '*' for any. [default: common text, Markdown, config and source endings; see --help]
    #[arg(long, value_name = "LIST", env = "MCP_TEXT_EXTENSIONS", global = true, long_help = extensions_help())]
    pub extensions: Option<String>,

    /// Offer only tools that change nothing.
    #[arg(long, env = "MCP_TEXT_READ_ONLY", global = true)]
    pub read_only: bool,

    /// Largest file the tools read, e.g. 256MB, 1GB, 500000.
    #[arg(long, value_name = "SIZE", env = "MCP_TEXT_MAX_FILE_SIZE", default_value = "256MB", value_parser = parse_size, global = true)]
    pub max_file_size: u64,

    /// Let edit_code run the validate_command a caller passes (in the file's root, with a timeout).
    #[arg(long, env = "MCP_TEXT_ALLOW_VALIDATE_COMMAND", global = true)]
    pub allow_validate_command: bool,

    /// After an edit_code edit, run the language's formatter if it is installed (rustfmt, gofmt, ...).
    #[arg(long, env = "MCP_TEXT_FORMAT", global = true)]
    pub format: bool,

    /// With --format, stop a formatter (and whatever it started) after this many seconds; the file is then written unformatted.
    #[arg(long, value_name = "SECONDS", env = "MCP_TEXT_FORMAT_TIMEOUT", default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=3600), global = true)]
    pub format_timeout: u64,

    /// Keep no edit history: nothing is written to the roots' .history folders, and EditHistory and UndoEdit are not offered.
    #[arg(long, env = "MCP_TEXT_NO_HISTORY", global = true)]
    pub no_history: bool,

    /// Most changes the edit history keeps per root; the oldest go first.
    #[arg(long, value_name = "N", env = "MCP_TEXT_HISTORY_MAX_ENTRIES", default_value_t = history::DEFAULT_MAX_ENTRIES as u64, value_parser = clap::value_parser!(u64).range(1..), global = true)]
    pub history_max_entries: u64,

    /// Most bytes the edit history keeps per root, e.g. 100MB; the oldest changes go first, and a change larger than this is not recorded (its reply says undo is unavailable).
    #[arg(long, value_name = "SIZE", env = "MCP_TEXT_HISTORY_MAX_BYTES", default_value = "100MB", value_parser = parse_size, global = true)]
    pub history_max_bytes: u64,

    /// How much to log on stderr: error, warn, info, debug or trace.
    #[arg(
        long,
        value_name = "LEVEL",
        env = "MCP_TEXT_LOG_LEVEL",
        default_value = "info",
        global = true
    )]
    pub log_level: String,

    /// With --http, also accept requests whose Host header names HOST (repeatable), e.g. when listening on 0.0.0.0 for other machines. Loopback names are always accepted.
    #[arg(
        long = "allowed-host",
        value_name = "HOST",
        env = "MCP_TEXT_ALLOWED_HOSTS",
        value_delimiter = ','
    )]
    pub allowed_hosts: Vec<String>,

    /// With --http, the bearer token every request must carry (Authorization: Bearer TOKEN), at least 16 visible characters; prefer the environment variable, which other users cannot see in the process list. [default: generated at start and printed on stderr; required when listening on anything but loopback]
    #[arg(
        long,
        value_name = "TOKEN",
        env = "MCP_TEXT_HTTP_TOKEN",
        hide_env_values = true
    )]
    pub http_token: Option<String>,

    /// With --http on a loopback address, accept requests without a token: every program of every user on this machine can then use the tools.
    #[arg(long, env = "MCP_TEXT_HTTP_NO_AUTH")]
    pub http_no_auth: bool,

    /// With --http, the most client sessions alive at once; more are refused with HTTP 503 until one ends (closed by its client, or 30 minutes without requests).
    #[arg(long, value_name = "N", env = "MCP_TEXT_HTTP_MAX_SESSIONS", default_value_t = super::http::DEFAULT_MAX_SESSIONS as u32, value_parser = clap::value_parser!(u32).range(1..))]
    pub http_max_sessions: u32,

    /// With --http, seconds a client may take to send a request's header before its connection is closed.
    #[arg(long, value_name = "SECONDS", env = "MCP_TEXT_HTTP_HEADER_TIMEOUT", default_value_t = super::connections::HEADER_READ_TIMEOUT.as_secs(), value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub http_header_timeout: u64,

    /// With --http, the most connections open at once that have not shown the token; one more closes the oldest of them.
    #[arg(long, value_name = "N", env = "MCP_TEXT_HTTP_MAX_PENDING", default_value_t = super::connections::MAX_UNTRUSTED as u32, value_parser = clap::value_parser!(u32).range(1..))]
    pub http_max_pending: u32,

    /// Largest request a client may send at once (a stdio line or an HTTP body), e.g. 64MB; larger ones are refused unread.
    #[arg(long, value_name = "SIZE", env = "MCP_TEXT_MAX_REQUEST_SIZE", default_value = "64MB", value_parser = parse_size, global = true)]
    pub max_request_size: u64,

    /// Folder of template files for TextPatch and create_text_file's `template`: relative to each root, or an absolute folder inside one [default: templates].
    #[arg(
        long,
        value_name = "DIR",
        env = "MCP_TEXT_TEMPLATES_DIR",
        global = true
    )]
    pub templates_dir: Option<PathBuf>,
}

fn extensions_help() -> String {
    format!(
        "Comma-separated file endings the tools may open, or '*' for any text file. An entry matches a file's extension or its whole name (Makefile).\n\nDefault: {}",
        DEFAULT_EXTENSIONS.join(", ")
    )
}

/// What to do instead of serving.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Call one tool and print its result JSON (exit status 1 on a tool error).
    ///
    /// The root folders may come before `call`, after the arguments, or as
    /// --root; all of them are used, the first one for relative paths.
    Call {
        /// The tool's name, e.g. TextRead.
        tool: String,
        /// The arguments as a JSON object; '-' or nothing reads them from stdin.
        args: Option<String>,
        /// Root folders (default: those before `call`, else MCP_TEXT_ROOTS, else the current folder).
        #[arg(value_name = "ROOT")]
        trailing_roots: Vec<PathBuf>,
        /// Root folder (repeatable).
        #[arg(long = "root", value_name = "DIR")]
        roots: Vec<PathBuf>,
    },
    /// List every tool with its description and JSON schemas.
    Tools {
        /// Print the list as MCP's tools/list returns it.
        #[arg(long)]
        json: bool,
    },
    /// Print a shell completion script, e.g. `mcp-server-text completions bash > ~/.local/share/bash-completion/completions/mcp-server-text`.
    Completions {
        /// The shell: bash, zsh, fish, elvish or powershell.
        shell: clap_complete::Shell,
    },
}

/// Parses sizes such as `256MB`, `1.5G`, `10k` or `4096`.
pub fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim().to_ascii_lowercase();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let number: f64 = number
        .parse()
        .map_err(|_| format!("'{s}' is not a size; write e.g. 256MB, 1GB or 500000"))?;
    let factor: u64 = match unit.trim() {
        "" | "b" => 1,
        "k" | "kb" | "kib" => 1 << 10,
        "m" | "mb" | "mib" => 1 << 20,
        "g" | "gb" | "gib" => 1 << 30,
        other => {
            return Err(format!(
                "unknown size unit '{other}' in '{s}'; use B, KB, MB or GB"
            ));
        }
    };
    let size = (number * factor as f64) as u64;
    let max = crate::text::lines::MAX_TEXT_LEN as u64;
    if size > max {
        return Err(format!(
            "'{s}' is more than the largest file the tools handle (just under 4 GB); use at most 4095MB"
        ));
    }
    Ok(size)
}

/// The toolsets `--toolsets` accepts, for messages.
const TOOLSET_NAMES: &str = "text, files, code, editor, history, batch, links, vault, patch";

/// Parses `--toolsets`.
pub fn parse_toolsets(spec: &str) -> Result<Vec<Toolset>, String> {
    let mut sets = Vec::new();
    for name in spec.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        if name.eq_ignore_ascii_case("all") {
            return Ok(Toolset::ALL.to_vec());
        }
        match Toolset::from_name(name) {
            Some(set) if !sets.contains(&set) => sets.push(set),
            Some(_) => {}
            None => {
                return Err(format!(
                    "unknown toolset '{name}': choose from {TOOLSET_NAMES}, or all"
                ));
            }
        }
    }
    if sets.is_empty() {
        return Err(format!(
            "--toolsets is empty: choose from {TOOLSET_NAMES}, or all"
        ));
    }
    Ok(sets)
}

/// Everything a face needs, built from the options.
pub struct Setup {
    /// The tools switched on.
    pub registry: Arc<Registry>,
    /// The roots and file rules.
    pub workspace: Arc<Workspace>,
    /// Server-wide settings.
    pub settings: Arc<Settings>,
}

impl ServerOptions {
    /// Builds the registry, workspace and settings for `roots`.
    pub fn setup(&self, roots: Vec<PathBuf>) -> Result<Setup, String> {
        let mut toolsets = parse_toolsets(&self.toolsets)?;
        if self.no_history {
            toolsets.retain(|&t| t != Toolset::History);
        }
        let registry = Registry::new(&toolsets, self.read_only);
        let extensions = match &self.extensions {
            Some(spec) => ExtensionFilter::parse(spec),
            None => ExtensionFilter::default(),
        };
        let options = WorkspaceOptions {
            extensions,
            max_file_size: self.max_file_size,
            history: HistoryOptions {
                enabled: !self.no_history,
                max_entries: usize::try_from(self.history_max_entries).unwrap_or(usize::MAX),
                max_bytes: self.history_max_bytes,
            },
            ..WorkspaceOptions::default()
        };
        let roots = if roots.is_empty() {
            vec![
                std::env::current_dir()
                    .map_err(|e| format!("cannot read the current folder: {e}"))?,
            ]
        } else {
            roots
        };
        let workspace = Workspace::new(roots, options).map_err(|e| e.to_string())?;
        let settings = Settings {
            allow_validate_command: self.allow_validate_command,
            format_after_edit: self.format,
            format_timeout: std::time::Duration::from_secs(self.format_timeout),
            enabled_tools: registry.names(),
            templates_dir: self.templates_dir.clone(),
        };
        Ok(Setup {
            registry: Arc::new(registry),
            workspace: Arc::new(workspace),
            settings: Arc::new(settings),
        })
    }
}

fn init_logging(level: &str) {
    let filter =
        tracing_subscriber::EnvFilter::try_new(format!("mcp_server_text={level},rmcp=warn"))
            .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .try_init();
}

/// The options that only an HTTP server uses, by argument id and by flag:
/// typed with a subcommand, they would be silently ignored.
const HTTP_ONLY_FLAGS: [(&str, &str); 7] = [
    ("http", "--http"),
    ("http_token", "--http-token"),
    ("http_no_auth", "--http-no-auth"),
    ("http_max_sessions", "--http-max-sessions"),
    ("http_header_timeout", "--http-header-timeout"),
    ("http_max_pending", "--http-max-pending"),
    ("allowed_hosts", "--allowed-host"),
];

/// Runs the program.
pub fn main() -> ExitCode {
    let matches = Cli::command().get_matches();
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    let roots_from_env = matches.value_source("roots") == Some(ValueSource::EnvVariable);
    if let Some(command) = &cli.command
        && let Some(flag) = HTTP_ONLY_FLAGS
            .iter()
            .find(|(id, _)| matches.value_source(id) == Some(ValueSource::CommandLine))
            .map(|(_, flag)| flag)
    {
        return fail(format!(
            "{flag} is about serving MCP over HTTP, which `{}` does not do; leave it out, or leave out `{}` to serve",
            command.name(),
            command.name()
        ));
    }
    match cli.command {
        Some(Command::Call {
            tool,
            args,
            trailing_roots,
            roots,
        }) => {
            // Folders the user typed anywhere on the line win over MCP_TEXT_ROOTS.
            let before = if roots_from_env {
                Vec::new()
            } else {
                cli.roots.clone()
            };
            let typed: Vec<PathBuf> = before
                .into_iter()
                .chain(roots)
                .chain(trailing_roots)
                .collect();
            let roots = if typed.is_empty() { cli.roots } else { typed };
            call(&cli.options, roots, &tool, args)
        }
        Some(Command::Tools { json }) => list_tools(&cli.options, json),
        Some(Command::Completions { shell }) => {
            let mut command = Cli::command();
            clap_complete::generate(
                shell,
                &mut command,
                "mcp-server-text",
                &mut std::io::stdout(),
            );
            ExitCode::SUCCESS
        }
        None => serve(&cli.options, cli.roots),
    }
}

impl Command {
    /// The subcommand's name on the command line.
    fn name(&self) -> &'static str {
        match self {
            Command::Call { .. } => "call",
            Command::Tools { .. } => "tools",
            Command::Completions { .. } => "completions",
        }
    }
}

/// Prints to stdout, ignoring a closed pipe (`mcp-server-text tools | head`).
fn out(text: &str) {
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(text.as_bytes());
    let _ = stdout.write_all(b"\n");
    let _ = stdout.flush();
}

fn fail(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("mcp-server-text: {message}");
    ExitCode::from(2)
}

fn call(
    options: &ServerOptions,
    roots: Vec<PathBuf>,
    tool: &str,
    args: Option<String>,
) -> ExitCode {
    init_logging(if options.log_level == "info" {
        "warn"
    } else {
        &options.log_level
    });
    let setup = match options.setup(roots) {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    let raw = match args.as_deref() {
        None | Some("-") => {
            let mut buf = String::new();
            if let Err(e) = std::io::stdin().read_to_string(&mut buf) {
                return fail(format!("cannot read the arguments from stdin: {e}"));
            }
            buf
        }
        Some(s) => s.to_string(),
    };
    let args: Value = if raw.trim().is_empty() {
        Value::Null
    } else {
        match serde_json::from_str(&raw) {
            Ok(v) => v,
            Err(_) if std::path::Path::new(raw.trim()).is_dir() => {
                return fail(format!(
                    "'{}' is a folder, not the tool's arguments: put the JSON arguments first, e.g. `call {tool} '{{...}}' {}`, or '-' to read them from stdin",
                    raw.trim(),
                    raw.trim()
                ));
            }
            Err(e) => return fail(format!("the arguments are not valid JSON: {e}")),
        }
    };
    let ctx = ToolContext::new(setup.workspace, setup.settings);
    let outcome = setup.registry.call(&ctx, tool, args);
    let (value, code) = match outcome {
        Ok(v) => (v, ExitCode::SUCCESS),
        Err(e) => (e.to_json(), ExitCode::from(1)),
    };
    out(&serde_json::to_string_pretty(&value).unwrap_or_default());
    code
}

fn list_tools(options: &ServerOptions, json: bool) -> ExitCode {
    let mut toolsets = match parse_toolsets(&options.toolsets) {
        Ok(t) => t,
        Err(e) => return fail(e),
    };
    if options.no_history {
        toolsets.retain(|&t| t != Toolset::History);
    }
    let registry = Registry::new(&toolsets, options.read_only);
    if json {
        let tools: Vec<_> = registry.entries().iter().map(mcp_tool).collect();
        out(
            &serde_json::to_string_pretty(&serde_json::json!({ "tools": tools }))
                .unwrap_or_default(),
        );
        return ExitCode::SUCCESS;
    }
    let mut text = String::new();
    for entry in registry.entries() {
        let e = entry.effects;
        text.push_str(&format!(
            "{} — {} [toolset {}]\nannotations: readOnlyHint={} destructiveHint={} idempotentHint={} openWorldHint=false\n\n{}\n\ninput schema:\n{}\noutput schema:\n{}\n\n{}\n\n",
            entry.name,
            entry.title,
            entry.toolset.name(),
            e.read_only,
            e.destructive,
            e.idempotent,
            entry.description,
            serde_json::to_string_pretty(entry.input_schema.as_ref()).unwrap_or_default(),
            serde_json::to_string_pretty(entry.output_schema.as_ref()).unwrap_or_default(),
            "-".repeat(72)
        ));
    }
    out(text.trim_end());
    ExitCode::SUCCESS
}

fn serve(options: &ServerOptions, roots: Vec<PathBuf>) -> ExitCode {
    init_logging(&options.log_level);
    let max_request = options.max_request_size as usize;
    if max_request < MIN_MAX_REQUEST {
        return fail(format!(
            "--max-request-size must be at least {}, room for an ordinary request",
            show_size(MIN_MAX_REQUEST)
        ));
    }
    // Refused before anything else happens: a server that would let anyone
    // in must not start at all.
    let http = match &options.http {
        Some(addr) => match http_config(options, addr, max_request) {
            Ok(config) => Some(config),
            Err(e) => return fail(e),
        },
        None => {
            if options.http_token.is_some() || options.http_no_auth {
                tracing::debug!("--http-token and --http-no-auth apply only with --http");
            }
            None
        }
    };
    let operator_named_roots = !roots.is_empty();
    let setup = match options.setup(roots) {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    // Over HTTP the folders (or the current folder) always bound what a
    // client may open; over stdio without folders, the parent process that
    // started both decides, through its client's roots.
    let bound = if operator_named_roots || http.is_some() {
        RootsBound::Within(setup.workspace.roots().list().to_vec())
    } else {
        RootsBound::AsGiven
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => return fail(format!("cannot start the async runtime: {e}")),
    };
    let banner = Banner::of(&setup, &bound);
    // Only the folders the operator named are swept: the current-folder
    // default may be anything (a desktop client starts servers in /), and
    // --read-only promises that nothing is changed.
    if options.read_only {
        tracing::debug!("--read-only: no leftover temp files are removed");
        for record in setup.workspace.interrupted_changes() {
            tracing::warn!(
                "{} records a change of several files that an interrupted server left unfinished; --read-only leaves it, and the next server started without it finishes or takes it back",
                record.display()
            );
        }
    } else {
        // Before the first call: a change a killed server left half done is
        // finished or taken back, so every call sees its files whole.
        setup.workspace.recover_interrupted();
        if operator_named_roots {
            sweep_in_background(&setup.workspace);
        }
    }
    let server = TextServer::new(setup.registry, setup.workspace, setup.settings, bound);
    let result = runtime.block_on(async move {
        match http {
            Some(config) => {
                let auth = config.auth.clone();
                // Announced once bound, with the real port (`--http 127.0.0.1:0`).
                let listening = |bound| banner.announce(Some((bound, &auth)));
                super::http::serve_http(server, config, listening).await
            }
            None => {
                let stop = super::http::shutdown_requested();
                banner.announce(None);
                serve_stdio_until_stopped(server, max_request, stop).await
            }
        }
    });
    // A tool call still running on a blocking thread would otherwise keep the
    // process alive after its client is gone; its edit lands whole or not at
    // all either way (atomic rename), and a temp file left behind is swept at
    // the next start.
    runtime.shutdown_timeout(SHUTDOWN_GRACE);
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(e),
    }
}

/// The HTTP server's configuration from the options, or why it must not start.
fn http_config(
    options: &ServerOptions,
    addr: &str,
    max_request: usize,
) -> Result<HttpConfig, String> {
    let addr = super::http::parse_addr(addr)?;
    let auth = super::auth::decide(addr, options.http_token.as_deref(), options.http_no_auth)?;
    Ok(HttpConfig {
        addr,
        extra_hosts: options.allowed_hosts.clone(),
        auth,
        max_sessions: options.http_max_sessions as usize,
        max_request,
        connections: super::connections::ConnectionLimits {
            header_timeout: std::time::Duration::from_secs(options.http_header_timeout),
            max_untrusted: options.http_max_pending as usize,
            ..Default::default()
        },
    })
}

/// Serves stdio until the client leaves or Ctrl-C (or SIGTERM) asks to stop:
/// then, as over HTTP, calls under way finish and are answered, new ones are
/// turned away, and the process exits with status 0.
async fn serve_stdio_until_stopped(
    server: TextServer,
    max_request: usize,
    stop: impl std::future::Future<Output = ()>,
) -> Result<(), String> {
    let calls = server.calls();
    let serving = super::stdio::serve_stdio(server, max_request);
    tokio::pin!(serving);
    tokio::select! {
        ended = &mut serving => return ended,
        () = stop => {}
    }
    calls.log_stopping();
    let drained = async {
        if !calls.close_and_wait(super::http::DRAIN_LIMIT).await {
            tracing::warn!(
                "{} call(s) still running; their client will get no answer, but each edit either lands whole or not at all",
                calls.running()
            );
        }
        tokio::time::sleep(super::http::ANSWER_GRACE).await;
    };
    // Keep the transport going while the calls finish, so their answers go
    // out; a client that leaves meanwhile is no failure, it was asked to.
    tokio::select! {
        ended = &mut serving => {
            if let Err(error) = ended {
                tracing::debug!("while stopping: {error}");
            }
        }
        () = drained => {}
    }
    Ok(())
}

/// How long the server waits, once its transport has ended, for tool calls
/// still running before it exits.
const SHUTDOWN_GRACE: std::time::Duration = std::time::Duration::from_secs(1);

/// Removes temp files an earlier, interrupted run left in the roots, without
/// holding up the start.
fn sweep_in_background(workspace: &Workspace) {
    if let Err(e) = workspace.sweep_stale_temps_in_background() {
        tracing::warn!("could not start looking for leftover temp files: {e}");
    }
}

/// What the server tells a person who started it by hand.
struct Banner {
    roots: Vec<String>,
    tools: Vec<&'static str>,
    /// Whether a client's roots are used as given (stdio, no folder named).
    roots_as_given: bool,
}

impl Banner {
    /// A `call` command line that works on the first root as given, from
    /// the shell the server was started in.
    fn try_hint(&self) -> String {
        let root = self.roots.first().map_or(".", String::as_str);
        let has_readme = std::path::Path::new(root).join("README.md").is_file();
        let (tool, args) = if has_readme {
            ("TextInspect", r#"'{"filePath": "README.md"}'"#)
        } else {
            ("ListFiles", r#"'{"path": "."}'"#)
        };
        format!(
            "{} call {tool} {args} --root {}",
            program_invocation(),
            shell_quote(root)
        )
    }

    fn of(setup: &Setup, bound: &RootsBound) -> Banner {
        Banner {
            roots: setup
                .workspace
                .roots()
                .list()
                .iter()
                .map(|r| r.display().to_string())
                .collect(),
            tools: setup.registry.names(),
            roots_as_given: *bound == RootsBound::AsGiven,
        }
    }

    /// Prints the banner on stderr (stdout carries only protocol messages).
    /// `http` is the address an HTTP server listens on and how it
    /// authenticates; `None` means stdio.
    fn announce(&self, http: Option<(std::net::SocketAddr, &HttpAuth)>) {
        let transport = match http {
            Some((addr, _)) => format!("streamable HTTP at http://{addr}/mcp"),
            None => "stdio".to_string(),
        };
        let roots_rule = if self.roots_as_given {
            " (no folder given: a client that announces roots replaces it)"
        } else {
            " (clients may narrow these with their roots, never widen them)"
        };
        let mut text = format!(
            "mcp-server-text {} serving {} root{}: {}{roots_rule}\n  tools ({}): {}\n  transport: {transport}\n",
            env!("CARGO_PKG_VERSION"),
            self.roots.len(),
            if self.roots.len() == 1 { "" } else { "s" },
            self.roots.join(", "),
            self.tools.len(),
            self.tools.join(", "),
        );
        match http {
            None => {
                text.push_str("  waiting for an MCP client on stdin (this is not an interactive prompt; Ctrl-C quits)\n");
            }
            Some((addr, auth)) => {
                let host = if addr.ip().is_unspecified() {
                    std::net::SocketAddr::new([127, 0, 0, 1].into(), addr.port())
                } else {
                    addr
                };
                let url = format!("http://{host}/mcp");
                match auth {
                    HttpAuth::Token(token) => text.push_str(&super::auth::client_setup(&url, token)),
                    HttpAuth::Open => text.push_str(
                        "  authentication: none (--http-no-auth): every program of every user on this machine can use the tools\n",
                    ),
                }
                text.push_str("  waiting for MCP clients (Ctrl-C quits)\n");
            }
        }
        text.push_str(&format!("  to try a tool by hand: {}\n", self.try_hint()));
        if std::io::stderr().is_terminal() {
            eprint!("{text}");
        } else {
            for line in text.lines() {
                tracing::info!("{}", line.trim());
            }
        }
    }
}

/// How to start this program again from the same shell: the `cargo run`
/// form under cargo, the bare name when `PATH` finds this very binary, else
/// its path.
fn program_invocation() -> String {
    let exe = std::env::current_exe().ok();
    if std::env::var_os("CARGO").is_some() && std::env::var_os("CARGO_MANIFEST_DIR").is_some() {
        let release = exe.as_ref().is_some_and(|p| {
            p.parent()
                .and_then(|dir| dir.file_name())
                .is_some_and(|name| name == "release")
        });
        return if release {
            "cargo run --release --".into()
        } else {
            "cargo run --".into()
        };
    }
    let name = "mcp-server-text";
    let on_path = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join(name))
            .find(|candidate| candidate.is_file())
    });
    let same = |a: &std::path::Path, b: &std::path::Path| match (
        std::fs::canonicalize(a),
        std::fs::canonicalize(b),
    ) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    match (&exe, &on_path) {
        (Some(exe), Some(found)) if same(exe, found) => name.into(),
        (Some(exe), _) => shell_quote(&exe.display().to_string()),
        (None, _) => name.into(),
    }
}

/// `text` as one shell word: as it is when that is safe, else in single quotes.
fn shell_quote(text: &str) -> String {
    let safe = !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/._-+:,=@%".contains(&b));
    if safe {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("256MB"), Ok(256 << 20));
        assert_eq!(parse_size("1.5g"), Ok(3 << 29));
        assert_eq!(parse_size("4096"), Ok(4096));
        assert!(parse_size("lots").is_err());
        assert!(parse_size("5GB").is_err());
        assert_eq!(parse_size("4095MB"), Ok(4095 << 20));
        assert!(parse_size("5 parsecs").is_err());
    }

    #[test]
    fn toolsets() {
        assert_eq!(
            parse_toolsets("text,files"),
            Ok(vec![Toolset::Text, Toolset::Files])
        );
        assert_eq!(parse_toolsets("all"), Ok(Toolset::ALL.to_vec()));
        assert!(parse_toolsets("text,bogus").is_err());
        assert!(parse_toolsets("").is_err());
    }

    #[test]
    fn cli_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn shell_words() {
        assert_eq!(shell_quote("example-vault"), "example-vault");
        assert_eq!(shell_quote("/tmp/my notes"), "'/tmp/my notes'");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
    }
}
