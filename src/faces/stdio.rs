//! MCP over stdin and stdout, the way desktop clients start servers.
//!
//! Messages are JSON-RPC objects, one per line. The framing is ours rather
//! than the SDK's stream codec so that a client that sends something broken
//! hears about it instead of waiting forever: a line that is not JSON gets a
//! parse error (-32700), JSON that is not a valid message gets an invalid
//! request error (-32600) carrying the request's id when it has one, a line
//! over the size limit (`--max-request-size`) is skipped as it streams in,
//! never held whole, and answered with an error carrying its id when its
//! start or end shows it, and a last message without a final newline is
//! still read.

use std::borrow::Cow;
use std::sync::Arc;

use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use rmcp::{RoleServer, ServiceExt};
use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncWrite, AsyncWriteExt, BufReader};

use super::incoming::{self, Checked};
use super::mcp::TextServer;

/// How much of the start of an over-size line is kept to find its id.
const KEPT_HEAD: usize = 64 << 10;

/// How much of the end of an over-size line is kept to find its id.
const KEPT_TAIL: usize = 1 << 10;

/// Serves `server` on stdin/stdout until the client disconnects; a message
/// may be at most `max_message` bytes long.
pub async fn serve_stdio(server: TextServer, max_message: usize) -> Result<(), String> {
    let transport =
        LineTransport::new(tokio::io::stdin(), tokio::io::stdout()).with_limit(max_message);
    let running = server
        .serve(transport)
        .await
        .map_err(|e| format!("the MCP session could not start: {e}"))?;
    running
        .waiting()
        .await
        .map_err(|e| format!("the MCP session ended with an error: {e}"))?;
    Ok(())
}

/// How long the end of input waits for answers to requests already read.
const ANSWER_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

/// How long closing waits for queued replies to be written.
const CLOSE_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

/// Newline-delimited JSON-RPC over a reader and a writer.
pub struct LineTransport<R> {
    reader: BufReader<R>,
    /// Lines for the writer task, which writes them one by one in order.
    outbox: tokio::sync::mpsc::UnboundedSender<Outgoing>,
    /// Requests handed to the server that have not been answered yet: the end
    /// of input waits for them, since the SDK stops sending once its input
    /// ends and a client that closes its side after the last request still
    /// expects the answer.
    unanswered: Arc<tokio::sync::watch::Sender<usize>>,
    /// The line being read, and its length so far. Past the limit it keeps
    /// only its first [`KEPT_HEAD`] bytes, and `tail` its last ones, while
    /// the count goes on.
    partial: Vec<u8>,
    partial_len: usize,
    tail: Vec<u8>,
    /// Longest message read, in bytes.
    max_message: usize,
}

/// A line over the size limit, of which only both ends were kept.
struct Oversize {
    /// Its length in bytes.
    len: usize,
    /// The id of the request it held, or `null`.
    id: Value,
}

/// One line for the writer task.
struct Outgoing {
    json: Vec<u8>,
    /// Whether it answers a request read earlier.
    answer: bool,
    /// Told when the line is written, or why it could not be.
    done: Option<tokio::sync::oneshot::Sender<std::io::Result<()>>>,
}

impl<R> LineTransport<R>
where
    R: tokio::io::AsyncRead + Unpin + Send + 'static,
{
    /// A transport reading messages from `reader` and writing to `writer`
    /// (from a task of its own, so that no write is ever cut short).
    pub fn new<W>(reader: R, writer: W) -> LineTransport<R>
    where
        W: AsyncWrite + Unpin + Send + 'static,
    {
        let (outbox, lines) = tokio::sync::mpsc::unbounded_channel();
        let unanswered = Arc::new(tokio::sync::watch::Sender::new(0));
        tokio::spawn(write_lines(writer, lines, unanswered.clone()));
        LineTransport {
            reader: BufReader::new(reader),
            outbox,
            unanswered,
            partial: Vec::new(),
            partial_len: 0,
            tail: Vec::new(),
            max_message: crate::faces::limits::DEFAULT_MAX_REQUEST,
        }
    }

    /// The same transport reading messages of at most `max_message` bytes.
    pub fn with_limit(mut self, max_message: usize) -> LineTransport<R> {
        self.max_message = max_message;
        self
    }

    /// Waits, up to [`ANSWER_WAIT`], until every request read has its answer.
    fn answers_sent(&self) -> impl Future<Output = ()> + Send + 'static {
        let unanswered = self.unanswered.clone();
        async move {
            let mut pending = unanswered.subscribe();
            let all_sent = tokio::time::timeout(ANSWER_WAIT, pending.wait_for(|&n| n == 0))
                .await
                .is_ok();
            if !all_sent {
                let left = *unanswered.borrow();
                tracing::warn!(
                    "input ended with {left} request(s) still unanswered after {} s",
                    ANSWER_WAIT.as_secs()
                );
            }
        }
    }

    /// Reads the next line (without its line break), or `None` at the end of
    /// input. A line over the limit is skipped and reported as `Err`.
    ///
    /// Cancel-safe: the SDK drops this future whenever something else is
    /// ready first, so a partly read line is kept in `self`, never in a local.
    async fn next_line(&mut self) -> Option<Result<Vec<u8>, Oversize>> {
        loop {
            let available = match self.reader.fill_buf().await {
                Ok(bytes) => bytes,
                Err(e) => {
                    tracing::warn!("cannot read stdin: {e}");
                    return None;
                }
            };
            let (chunk, used, complete) = match memchr::memchr(b'\n', available) {
                Some(at) => (&available[..at], at + 1, true),
                // End of input: a last message without a newline still counts.
                None if available.is_empty() => {
                    if self.partial_len == 0 {
                        return None;
                    }
                    (available, 0, true)
                }
                None => (available, available.len(), false),
            };
            self.partial_len += chunk.len();
            if self.partial_len <= self.max_message {
                self.partial.extend_from_slice(chunk);
            } else {
                if self.partial.len() > KEPT_HEAD {
                    self.partial.truncate(KEPT_HEAD);
                    self.partial.shrink_to_fit();
                } else if self.partial.len() < KEPT_HEAD {
                    let room = (KEPT_HEAD - self.partial.len()).min(chunk.len());
                    self.partial.extend_from_slice(&chunk[..room]);
                }
                let from = chunk.len().saturating_sub(KEPT_TAIL);
                self.tail.extend_from_slice(&chunk[from..]);
                let excess = self.tail.len().saturating_sub(KEPT_TAIL);
                self.tail.drain(..excess);
            }
            self.reader.consume(used);
            if complete {
                let len = std::mem::take(&mut self.partial_len);
                let mut line = std::mem::take(&mut self.partial);
                let tail = std::mem::take(&mut self.tail);
                if len > self.max_message {
                    let id = incoming::id_of_cut_message(&line, &tail);
                    return Some(Err(Oversize { len, id }));
                }
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                return Some(Ok(line));
            }
        }
    }

    /// Answers a line that is no message. Queued without waiting, so that
    /// the SDK dropping `receive` cannot lose it.
    fn reply(&self, reply: Value) {
        let _ = self.outbox.send(Outgoing {
            json: reply.to_string().into_bytes(),
            answer: false,
            done: None,
        });
    }
}

/// Writes queued lines in order; counts answers as they go out.
async fn write_lines<W: AsyncWrite + Unpin>(
    mut writer: W,
    mut lines: tokio::sync::mpsc::UnboundedReceiver<Outgoing>,
    unanswered: Arc<tokio::sync::watch::Sender<usize>>,
) {
    while let Some(line) = lines.recv().await {
        // An empty line is only a marker that everything before it is out.
        let mut result = Ok(());
        if !line.json.is_empty() {
            result = writer.write_all(&line.json).await;
            if result.is_ok() {
                result = writer.write_all(b"\n").await;
            }
        }
        if result.is_ok() {
            result = writer.flush().await;
        }
        if let Err(e) = &result {
            tracing::warn!("cannot write to stdout: {e}");
        }
        if line.answer {
            unanswered.send_modify(|n| *n = n.saturating_sub(1));
        }
        if let Some(done) = line.done {
            let _ = done.send(result);
        }
    }
}

impl<R> Transport<RoleServer> for LineTransport<R>
where
    R: tokio::io::AsyncRead + Unpin + Send + 'static,
{
    type Error = std::io::Error;

    fn name() -> Cow<'static, str> {
        "stdio".into()
    }

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let answer = matches!(
            item,
            rmcp::model::JsonRpcMessage::Response(_) | rmcp::model::JsonRpcMessage::Error(_)
        );
        let (done, written) = tokio::sync::oneshot::channel();
        let queued = serde_json::to_vec(&item)
            .map_err(std::io::Error::other)
            .and_then(|json| {
                self.outbox
                    .send(Outgoing {
                        json,
                        answer,
                        done: Some(done),
                    })
                    .map_err(|_| std::io::Error::other("stdout is closed"))
            });
        async move {
            queued?;
            written
                .await
                .unwrap_or_else(|_| Err(std::io::Error::other("stdout is closed")))
        }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            let Some(next) = self.next_line().await else {
                self.answers_sent().await;
                return None;
            };
            let line = match next {
                Ok(line) => line,
                Err(Oversize { len, id }) => {
                    tracing::warn!("skipped a message of {len} bytes, over the size limit");
                    let message = format!(
                        "Invalid request: the message is {len} bytes, over the server's limit of {} (--max-request-size), so it was skipped unread. Send less at once, e.g. edit a large file in parts",
                        crate::faces::limits::show_size(self.max_message)
                    );
                    self.reply(incoming::error_reply(id, -32600, message));
                    continue;
                }
            };
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            match incoming::check(&line) {
                Checked::Message(message) => {
                    if matches!(*message, rmcp::model::JsonRpcMessage::Request(_)) {
                        self.unanswered.send_modify(|n| *n += 1);
                    }
                    return Some(*message);
                }
                Checked::Refused(reply) => self.reply(reply),
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        // Everything queued before this is written once this is.
        let (done, written) = tokio::sync::oneshot::channel();
        let flushed = Outgoing {
            json: Vec::new(),
            answer: false,
            done: Some(done),
        };
        if self.outbox.send(flushed).is_err() {
            return Ok(());
        }
        // A client that stopped reading would otherwise hold the exit forever.
        match tokio::time::timeout(CLOSE_WAIT, written).await {
            Ok(result) => result.unwrap_or(Ok(())),
            Err(_) => {
                tracing::warn!("stdout is not being read; exiting without the last replies");
                Ok(())
            }
        }
    }
}
