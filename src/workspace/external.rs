//! Running an outside program (a formatter, a caller's validation command)
//! with a time limit and a cap on the output kept.
//!
//! ```no_run
//! use std::time::Duration;
//! use mcp_server_text::workspace::external::{run, Command};
//!
//! let out = run(&Command::shell("echo hi"), Duration::from_secs(5)).unwrap();
//! assert_eq!(out.stdout.trim(), "hi");
//! ```

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Child, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Most bytes of stdout and of stderr kept from a command.
pub const MAX_OUTPUT: usize = 64 * 1024;

/// A program to run.
#[derive(Debug, Clone)]
pub struct Command {
    /// The program.
    pub program: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// The folder it runs in.
    pub dir: Option<PathBuf>,
    /// Bytes written to its stdin (then closed).
    pub stdin: Option<Vec<u8>>,
    /// Most bytes of its stdout kept ([`MAX_OUTPUT`] unless set).
    pub max_stdout: usize,
}

impl Command {
    /// `program` with `args`.
    pub fn new(program: &str, args: &[&str]) -> Command {
        Command {
            program: program.to_string(),
            args: args.iter().map(|a| a.to_string()).collect(),
            dir: None,
            stdin: None,
            max_stdout: MAX_OUTPUT,
        }
    }

    /// A command line run by the system shell.
    pub fn shell(line: &str) -> Command {
        if cfg!(windows) {
            Command::new("cmd", &["/C", line])
        } else {
            Command::new("sh", &["-c", line])
        }
    }

    /// Runs in `dir`.
    pub fn in_dir(mut self, dir: PathBuf) -> Command {
        self.dir = Some(dir);
        self
    }

    /// Feeds `input` on stdin.
    pub fn with_stdin(mut self, input: Vec<u8>) -> Command {
        self.stdin = Some(input);
        self
    }

    /// Keeps up to `bytes` of stdout (a formatter prints the whole file).
    pub fn keeping_stdout(mut self, bytes: usize) -> Command {
        self.max_stdout = bytes;
        self
    }
}

/// What a command did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// Its exit code (`None` if killed by a signal or the time limit).
    pub code: Option<i32>,
    /// Whether it exited with success.
    pub success: bool,
    /// Whether it was killed for running too long.
    pub timed_out: bool,
    /// Its stdout, lossily decoded, cut at the command's `max_stdout` bytes.
    pub stdout: String,
    /// Whether stdout was longer than what was kept.
    pub stdout_cut: bool,
    /// Its stderr, lossily decoded, cut at [`MAX_OUTPUT`] bytes.
    pub stderr: String,
}

/// Why a command could not be run at all.
#[derive(Debug)]
pub enum RunError {
    /// The program is not installed (not on `PATH`).
    NotFound(String),
    /// Starting it failed otherwise.
    Spawn(std::io::Error),
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::NotFound(p) => write!(f, "{p} is not installed (not found on PATH)"),
            RunError::Spawn(e) => write!(f, "it could not be started: {e}"),
        }
    }
}

impl std::error::Error for RunError {}

/// Runs `command`, killing it after `limit`.
pub fn run(command: &Command, limit: Duration) -> Result<Outcome, RunError> {
    let mut builder = std::process::Command::new(&command.program);
    builder
        .args(&command.args)
        .stdin(if command.stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(dir) = &command.dir {
        builder.current_dir(dir);
    }
    // A process group of its own, so that on timeout the whole tree (a shell
    // and whatever it started) can be stopped, not just the shell.
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut builder, 0);
    let mut child = builder.spawn().map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            RunError::NotFound(command.program.clone())
        } else {
            RunError::Spawn(e)
        }
    })?;
    if let (Some(input), Some(mut stdin)) = (command.stdin.clone(), child.stdin.take()) {
        // Written from a thread so a program that prints before reading all
        // its input cannot deadlock against us.
        std::thread::spawn(move || {
            let _ = stdin.write_all(&input);
        });
    }
    let stdout = Drain::start(child.stdout.take(), command.max_stdout);
    let stderr = Drain::start(child.stderr.take(), MAX_OUTPUT);
    let (status, timed_out) = wait(&mut child, limit);
    let (stdout, stdout_cut) = stdout.finish();
    Ok(Outcome {
        code: status.and_then(|s| s.code()),
        success: status.is_some_and(|s| s.success()),
        timed_out,
        stdout,
        stdout_cut,
        stderr: stderr.finish().0,
    })
}

/// Reads a pipe on a thread into a shared buffer, so a program never blocks
/// on a full pipe and what it printed is available even if the pipe stays
/// open (a grandchild that outlived it).
struct Drain {
    kept: Arc<Mutex<(Vec<u8>, bool)>>,
    done: std::sync::mpsc::Receiver<()>,
}

impl Drain {
    fn start(pipe: Option<impl Read + Send + 'static>, max: usize) -> Drain {
        let kept = Arc::new(Mutex::new((Vec::new(), false)));
        let (tx, done) = std::sync::mpsc::channel();
        let shared = kept.clone();
        std::thread::spawn(move || {
            if let Some(mut pipe) = pipe {
                let mut buf = [0u8; 8192];
                while let Ok(n) = pipe.read(&mut buf) {
                    if n == 0 {
                        break;
                    }
                    let mut kept = shared.lock().unwrap_or_else(|e| e.into_inner());
                    let room = max.saturating_sub(kept.0.len());
                    kept.0.extend_from_slice(&buf[..n.min(room)]);
                    kept.1 |= n > room;
                }
            }
            let _ = tx.send(());
        });
        Drain { kept, done }
    }

    /// What was kept, and whether more was printed.
    fn finish(self) -> (String, bool) {
        let _ = self.done.recv_timeout(Duration::from_secs(2));
        let kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        (String::from_utf8_lossy(&kept.0).into_owned(), kept.1)
    }
}

fn wait(child: &mut Child, limit: Duration) -> (Option<std::process::ExitStatus>, bool) {
    let started = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return (Some(status), false),
            Ok(None) if started.elapsed() >= limit => {
                stop_group(child);
                let _ = child.kill();
                let _ = child.wait();
                return (None, true);
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(10)),
            Err(_) => return (None, false),
        }
    }
}

/// Stops every process in the child's group (see `process_group` above).
fn stop_group(child: &Child) {
    #[cfg(unix)]
    {
        let group = rustix::process::Pid::from_child(child);
        let _ = rustix::process::kill_process_group(group, rustix::process::Signal::KILL);
    }
    #[cfg(not(unix))]
    let _ = child;
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn captures_output_and_exit_code() {
        let out = run(
            &Command::shell("echo out; echo err >&2; exit 3"),
            Duration::from_secs(10),
        )
        .unwrap();
        assert_eq!(
            (
                out.stdout.as_str(),
                out.stderr.as_str(),
                out.code,
                out.success
            ),
            ("out\n", "err\n", Some(3), false)
        );
    }

    #[test]
    fn feeds_stdin() {
        let out = run(
            &Command::new("cat", &[]).with_stdin(b"piped".to_vec()),
            Duration::from_secs(10),
        )
        .unwrap();
        assert_eq!(out.stdout, "piped");
    }

    #[test]
    fn kills_after_the_limit() {
        let started = Instant::now();
        let out = run(&Command::shell("sleep 30"), Duration::from_millis(200)).unwrap();
        assert!(out.timed_out);
        assert!(started.elapsed() < Duration::from_secs(10));
    }

    #[test]
    fn missing_program() {
        assert!(matches!(
            run(
                &Command::new("no-such-program-here", &[]),
                Duration::from_secs(1)
            ),
            Err(RunError::NotFound(_))
        ));
    }

    #[test]
    fn caps_output() {
        let out = run(
            &Command::shell("head -c 200000 /dev/zero | tr '\\0' x"),
            Duration::from_secs(10),
        )
        .unwrap();
        assert_eq!(out.stdout.len(), MAX_OUTPUT);
        assert!(out.stdout_cut);
        let out = run(
            &Command::shell("head -c 200000 /dev/zero | tr '\\0' x").keeping_stdout(200_000),
            Duration::from_secs(10),
        )
        .unwrap();
        assert_eq!((out.stdout.len(), out.stdout_cut), (200_000, false));
    }

    #[test]
    fn the_time_limit_stops_the_whole_group() {
        // The shell starts a child that would outlive it; both are stopped.
        let dir = tempfile::tempdir().unwrap();
        let marker = dir.path().join("late");
        let line = format!("(sleep 2; touch {}) & sleep 30", marker.display());
        let out = run(&Command::shell(&line), Duration::from_millis(300)).unwrap();
        assert!(out.timed_out);
        std::thread::sleep(Duration::from_secs(3));
        assert!(!marker.exists(), "a process of the group ran on");
    }
}
