//! The command line: serve MCP over stdio (the default) or HTTP, call one tool
//! (`call`), or list the tools (`tools`). Every option also has an environment
//! variable, so client configurations can set them either way.

use std::io::{IsTerminal, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::{Args, Parser, Subcommand};
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
insert_text_file_contents, delete_text_file_contents), links (CheckLinks). Default: text,files,code,links.

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
    #[arg(long, value_name = "ADDR", env = "MCP_TEXT_HTTP", global = true)]
    pub http: Option<String>,

    /// Comma-separated toolsets to switch on: text, files, code, editor, links, or all.
    #[arg(
        long,
        value_name = "LIST",
        env = "MCP_TEXT_TOOLSETS",
        default_value = "text,files,code,links",
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
        value_delimiter = ',',
        global = true
    )]
    pub allowed_hosts: Vec<String>,

    /// With --http, the bearer token every request must carry (Authorization: Bearer TOKEN), at least 16 visible characters; prefer the environment variable, which other users cannot see in the process list. [default: generated at start and printed on stderr; required when listening on anything but loopback]
    #[arg(
        long,
        value_name = "TOKEN",
        env = "MCP_TEXT_HTTP_TOKEN",
        hide_env_values = true,
        global = true
    )]
    pub http_token: Option<String>,

    /// With --http on a loopback address, accept requests without a token: every program of every user on this machine can then use the tools.
    #[arg(long, env = "MCP_TEXT_HTTP_NO_AUTH", global = true)]
    pub http_no_auth: bool,

    /// With --http, the most client sessions alive at once; more are refused with HTTP 503 until one ends (closed by its client, or 30 minutes without requests).
    #[arg(long, value_name = "N", env = "MCP_TEXT_HTTP_MAX_SESSIONS", default_value_t = super::http::DEFAULT_MAX_SESSIONS as u32, value_parser = clap::value_parser!(u32).range(1..), global = true)]
    pub http_max_sessions: u32,

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
    Call {
        /// The tool's name, e.g. TextRead.
        tool: String,
        /// The arguments as a JSON object; '-' or nothing reads them from stdin.
        args: Option<String>,
        /// Root folder (repeatable; default: the current folder).
        #[arg(long = "root", value_name = "DIR")]
        roots: Vec<PathBuf>,
    },
    /// List every tool with its description and JSON schemas.
    Tools {
        /// Print the list as MCP's tools/list returns it.
        #[arg(long)]
        json: bool,
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
                    "unknown toolset '{name}': choose from text, files, code, editor, links, or all"
                ));
            }
        }
    }
    if sets.is_empty() {
        return Err(
            "--toolsets is empty: choose from text, files, code, editor, links, or all".into(),
        );
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
        let toolsets = parse_toolsets(&self.toolsets)?;
        let registry = Registry::new(&toolsets, self.read_only);
        let extensions = match &self.extensions {
            Some(spec) => ExtensionFilter::parse(spec),
            None => ExtensionFilter::default(),
        };
        let options = WorkspaceOptions {
            extensions,
            max_file_size: self.max_file_size,
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

/// Runs the program.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Call { tool, args, roots }) => call(&cli.options, roots, &tool, args),
        Some(Command::Tools { json }) => list_tools(&cli.options, json),
        None => serve(&cli.options, cli.roots),
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
    let toolsets = match parse_toolsets(&options.toolsets) {
        Ok(t) => t,
        Err(e) => return fail(e),
    };
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
    } else if operator_named_roots {
        sweep_in_background(&setup.workspace);
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
                banner.announce(None);
                super::stdio::serve_stdio(server, max_request).await
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
    })
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
                text.push_str("  to try a tool by hand: mcp-server-text call TextInspect '{\"filePath\": \"README.md\"}'\n");
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
        if std::io::stdin().is_terminal() || http.is_some() {
            eprint!("{text}");
        } else {
            for line in text.lines() {
                tracing::info!("{}", line.trim());
            }
        }
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
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
