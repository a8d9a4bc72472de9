//! The server processes of a soak run: stdio servers, one per agent, and
//! HTTP servers shared by sessions. Each has its own `HOME` and `TMPDIR`, the
//! way separate agent hosts start them, and can be killed (SIGKILL) and
//! started again at any time.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;

use rmcp::service::RunningService;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{RoleClient, ServiceExt};
use tokio::io::AsyncBufReadExt;
use tokio::process::{Child, Command};
use tokio::sync::Mutex;

/// The binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_mcp-server-text");

/// A connected MCP client.
pub type Client = RunningService<RoleClient, ()>;

/// One server's process and private folders.
pub struct Server {
    /// A name for reports, e.g. `stdio-2`.
    pub name: String,
    root: PathBuf,
    home: PathBuf,
    tmp: PathBuf,
    log: PathBuf,
    /// The running process, if any. The killer takes the lock only to send
    /// SIGKILL, so a kill can land in the middle of any call.
    child: Mutex<Option<Child>>,
    /// For HTTP servers, the address it listens on (kept across restarts).
    addr: Mutex<Option<String>>,
    /// The bearer token HTTP servers are started with.
    token: Option<String>,
}

impl Server {
    /// A server (not started yet) on `root`, with its folders under
    /// `scratch`: its own, or with `shared` one set for every server.
    pub fn new(
        name: String,
        root: &Path,
        scratch: &Path,
        shared: bool,
        token: Option<String>,
    ) -> Arc<Server> {
        let dir = if shared {
            scratch.join("shared")
        } else {
            scratch.join(&name)
        };
        let (home, tmp) = (dir.join("home"), dir.join("tmp"));
        std::fs::create_dir_all(&home).expect("create HOME");
        std::fs::create_dir_all(&tmp).expect("create TMPDIR");
        Arc::new(Server {
            log: dir.join(format!("{name}.log")),
            name,
            root: root.to_path_buf(),
            home,
            tmp,
            child: Mutex::new(None),
            addr: Mutex::new(None),
            token,
        })
    }

    /// The server's private folders, to look for files left behind.
    pub fn folders(&self) -> [&Path; 2] {
        [&self.home, &self.tmp]
    }

    fn command(&self) -> Command {
        let mut cmd = Command::new(BIN);
        cmd.arg(&self.root)
            .args(["--toolsets", "text,code"])
            .env("HOME", &self.home)
            .env("TMPDIR", &self.tmp)
            .env_remove("MCP_TEXT_LOCK_DIR")
            .env_remove("MCP_TEXT_ROOTS")
            .kill_on_drop(true);
        if let Some(token) = &self.token {
            cmd.env("MCP_TEXT_HTTP_TOKEN", token);
        }
        cmd
    }

    fn log_file(&self) -> std::fs::File {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.log)
            .expect("open the server's log")
    }

    /// Starts a stdio server (after reaping the previous one) and connects.
    pub async fn start_stdio(&self) -> Result<Client, String> {
        let mut slot = self.child.lock().await;
        reap(&mut slot).await;
        let mut child = self
            .command()
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(self.log_file())
            .spawn()
            .map_err(|e| format!("start {}: {e}", self.name))?;
        let stdout = child.stdout.take().expect("piped stdout");
        let stdin = child.stdin.take().expect("piped stdin");
        *slot = Some(child);
        drop(slot);
        ().serve((stdout, stdin))
            .await
            .map_err(|e| format!("initialize {}: {e}", self.name))
    }

    /// Starts the HTTP server (after reaping the previous one) on the address
    /// it had before, or on a free port the first time.
    pub async fn start_http(&self) -> Result<(), String> {
        let mut slot = self.child.lock().await;
        reap(&mut slot).await;
        let mut addr = self.addr.lock().await;
        let listen = addr.clone().unwrap_or_else(|| "127.0.0.1:0".to_string());
        let mut child = self
            .command()
            .args(["--http", &listen])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("start {}: {e}", self.name))?;
        let stderr = child.stderr.take().expect("piped stderr");
        *slot = Some(child);
        drop(slot);
        let (found, announced) = tokio::sync::oneshot::channel();
        let mut log = tokio::fs::File::from_std(self.log_file());
        // Drains stderr into the log for the life of the process.
        tokio::spawn(async move {
            use tokio::io::AsyncWriteExt;
            let mut found = Some(found);
            let mut lines = tokio::io::BufReader::new(stderr).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                if let Some(url) = line.split("streamable HTTP at http://").nth(1)
                    && let Some(at) = url.strip_suffix("/mcp")
                    && let Some(found) = found.take()
                {
                    let _ = found.send(at.to_string());
                }
                let _ = log.write_all(format!("{line}\n").as_bytes()).await;
            }
        });
        match tokio::time::timeout(Duration::from_secs(30), announced).await {
            Ok(Ok(at)) => {
                *addr = Some(at);
                Ok(())
            }
            _ => Err(format!("{} did not announce its address", self.name)),
        }
    }

    /// The HTTP endpoint, once started.
    pub async fn url(&self) -> Option<String> {
        self.addr
            .lock()
            .await
            .as_ref()
            .map(|a| format!("http://{a}/mcp"))
    }

    /// Connects a new HTTP session, sending the bearer token.
    pub async fn connect_http(&self) -> Result<Client, String> {
        let url = self.url().await.ok_or("the server has no address yet")?;
        let mut config = StreamableHttpClientTransportConfig::with_uri(url);
        if let Some(token) = &self.token {
            config = config.auth_header(token.clone());
        }
        let transport = StreamableHttpClientTransport::from_config(config);
        ().serve(transport)
            .await
            .map_err(|e| format!("initialize a session on {}: {e}", self.name))
    }

    /// Sends SIGKILL to the process if it runs; tells whether it did.
    pub async fn kill(&self) -> bool {
        let mut slot = self.child.lock().await;
        let Some(child) = slot.as_mut() else {
            return false;
        };
        matches!(child.try_wait(), Ok(None)) && child.start_kill().is_ok()
    }

    /// Whether the process has exited (or was never started).
    pub async fn is_down(&self) -> bool {
        let mut slot = self.child.lock().await;
        match slot.as_mut() {
            Some(child) => !matches!(child.try_wait(), Ok(None)),
            None => true,
        }
    }

    /// Stops the process at the end of the run (no call is in flight then)
    /// and waits for it.
    pub async fn stop(&self) {
        let mut slot = self.child.lock().await;
        reap(&mut slot).await;
    }
}

/// Kills and waits for the process in `slot`, if any, so none is left
/// behind and its exit is collected.
async fn reap(slot: &mut Option<Child>) {
    if let Some(mut child) = slot.take() {
        let _ = child.start_kill();
        let _ = child.wait().await;
    }
}
