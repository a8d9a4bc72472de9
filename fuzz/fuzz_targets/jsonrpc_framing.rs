//! The stdio face's framing and message checks.
//!
//! Whatever bytes arrive on stdin, in whatever pieces, and however often the
//! SDK drops a `receive` that is not ready yet, every line that is not blank
//! becomes exactly one of: a message for the server, or one JSON-RPC error
//! reply on stdout. Which one is what `incoming::check` says for that line on
//! its own, so the framing loses, merges and splits nothing. Every reply is a
//! well-formed JSON-RPC error carrying the request's id when it had a usable
//! one, and every request the server answers is answered on stdout. With a
//! size limit, a line over it is never a message: it gets an invalid request
//! error carrying the id its start (or end) shows.
//!
//! Input: byte 0 holds flags (bit 0: drop `receive` when a read is not
//! ready), bits 1-3 the number `k` of read sizes that follow, bit 4 whether
//! lines have a small size limit, bits 5-7 which one; then `k` read sizes
//! (cycled; 0 means "not ready"); the rest is stdin.
#![no_main]

use std::io;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use libfuzzer_sys::fuzz_target;
use mcp_server_text::faces::incoming::{Checked, check, id_of_cut_message};
use mcp_server_text::faces::stdio::LineTransport;
use rmcp::model::{JsonRpcMessage, ServerResult};
use rmcp::transport::Transport;
use serde_json::Value;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

thread_local! {
    static RUNTIME: tokio::runtime::Runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
}

fuzz_target!(|data: &[u8]| {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let cancel = flags & 1 == 1;
    let k = usize::from((flags >> 1) & 7).min(rest.len());
    let (sizes, stdin) = rest.split_at(k);
    // Lines are far below the limit that keeps only both ends of a line, so
    // a line over the limit is read whole: its start decides the id.
    let limit = if flags & 16 == 16 {
        1 + 40 * usize::from(flags >> 5)
    } else {
        usize::MAX
    };
    let expected = expected_outcome(stdin, limit);

    let out = Sink::default();
    let got = RUNTIME.with(|rt| {
        rt.block_on(serve(
            Pieces::new(stdin.to_vec(), sizes.to_vec()),
            out.clone(),
            cancel,
            limit,
        ))
    });

    let messages: Vec<Value> = got.iter().map(to_value).collect();
    assert_eq!(messages, expected.messages, "messages handed to the server");

    let written = out.0.lock().unwrap().clone();
    assert!(
        written.is_empty() || written.ends_with(b"\n"),
        "stdout ends in the middle of a line"
    );
    let mut replies = Vec::new();
    let mut answers = 0;
    for line in written.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        let value: Value = serde_json::from_slice(line).expect("every stdout line is JSON");
        if value.get("result").is_some() {
            answers += 1;
        } else {
            replies.push(value);
        }
    }
    if std::env::var_os("FUZZ_SHOW").is_some() {
        eprintln!(
            "limit {limit} cancel {cancel} sizes {sizes:?}\nstdin {:?}",
            String::from_utf8_lossy(stdin)
        );
        for r in &replies {
            eprintln!("reply {r}");
        }
    }
    assert_eq!(
        replies.len(),
        expected.replies.len(),
        "error replies on stdout"
    );
    for (got, want) in replies.iter().zip(&expected.replies) {
        match want {
            Reply::Exact(want) => assert_eq!(got, want, "an error reply on stdout"),
            Reply::Oversize { head_id, end_id } => {
                assert_eq!(got["jsonrpc"], "2.0");
                assert_eq!(got["error"]["code"], -32600, "{got}");
                // The id found in the end depends on where the reads cut the
                // line; one found in the start does not.
                let id = &got["id"];
                assert!(
                    id == head_id || head_id.is_null() && (id.is_null() || id == end_id),
                    "the id of an over-size line: {id} for {head_id} / {end_id}"
                );
            }
        }
    }
    assert_eq!(answers, expected.requests, "answers to requests");
});

/// What the transport must produce for `stdin`, worked out line by line.
struct Expected {
    messages: Vec<Value>,
    replies: Vec<Reply>,
    requests: usize,
}

/// An error reply the transport must write.
enum Reply {
    /// This one.
    Exact(Value),
    /// An invalid request error for a line over the size limit, whose id is
    /// the one its start shows, or else (when the kept end shows it) the one
    /// its end shows.
    Oversize { head_id: Value, end_id: Value },
}

fn expected_outcome(stdin: &[u8], limit: usize) -> Expected {
    let mut expected = Expected {
        messages: Vec::new(),
        replies: Vec::new(),
        requests: 0,
    };
    let mut lines: Vec<&[u8]> = stdin.split(|&b| b == b'\n').collect();
    // Text after the last newline is a line too; nothing after it is not.
    if lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    for line in lines {
        if line.len() > limit {
            // Skipped unread, blank or not.
            let tail = &line[line.len().saturating_sub(1024)..];
            expected.replies.push(Reply::Oversize {
                head_id: as_read_back(id_of_cut_message(line, b"")),
                end_id: as_read_back(id_of_cut_message(b"", valid_end(tail))),
            });
            continue;
        }
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        match check(line) {
            Checked::Message(message) => {
                if matches!(*message, JsonRpcMessage::Request(_)) {
                    expected.requests += 1;
                }
                expected.messages.push(to_value(&message));
            }
            Checked::Refused(reply) => {
                assert_refusal_is_well_formed(line, &reply);
                expected.replies.push(Reply::Exact(as_read_back(reply)));
            }
        }
    }
    expected
}

/// `value` as it reads back from stdout: a huge numeric id does not come back
/// as the same float (serde_json parses floats fast, not exactly), which is
/// the client's problem, not framing's.
fn as_read_back(value: Value) -> Value {
    serde_json::from_str(&value.to_string()).expect("a reply is JSON")
}

/// The longest end of `tail` that is UTF-8 once the continuation bytes it
/// starts with are skipped. The transport keeps an end of an over-size line
/// that depends on how it was read; every such end that shows an id shows
/// this one's, and every other shows none.
fn valid_end(tail: &[u8]) -> &[u8] {
    let mut from = 0;
    loop {
        while tail.get(from).is_some_and(|b| b & 0xC0 == 0x80) {
            from += 1;
        }
        match std::str::from_utf8(&tail[from..]) {
            Ok(_) => return &tail[from..],
            Err(e) => match e.error_len() {
                Some(len) => from += e.valid_up_to() + len,
                None => return &[],
            },
        }
    }
}

/// A refusal is a JSON-RPC error with a known code, a message, and the id of
/// the line when it had a string or number id.
fn assert_refusal_is_well_formed(line: &[u8], reply: &Value) {
    assert_eq!(reply["jsonrpc"], "2.0");
    let code = reply["error"]["code"].as_i64().expect("an error code");
    assert!([-32700, -32600, -32602].contains(&code), "code {code}");
    let message = reply["error"]["message"].as_str().expect("a message");
    assert!(!message.is_empty());
    let id = serde_json::from_slice::<Value>(line)
        .ok()
        .and_then(|v| v.get("id").cloned())
        .filter(|id| id.is_string() || id.is_number())
        .unwrap_or(Value::Null);
    assert_eq!(reply["id"], id, "the reply's id");
    if code == -32700 {
        assert!(serde_json::from_slice::<Value>(line).is_err());
    }
}

fn to_value<T: serde::Serialize>(message: &T) -> Value {
    serde_json::to_value(message).expect("a message serializes")
}

/// Reads every message as the SDK does, answering each request with an empty
/// result, and returns what was read.
async fn serve(
    stdin: Pieces,
    stdout: Sink,
    cancel: bool,
    limit: usize,
) -> Vec<rmcp::service::RxJsonRpcMessage<rmcp::RoleServer>> {
    let mut transport = LineTransport::new(stdin, stdout).with_limit(limit);
    let mut got = Vec::new();
    loop {
        let next = if cancel {
            receive_dropping_when_pending(&mut transport).await
        } else {
            transport.receive().await
        };
        let Some(message) = next else { break };
        if let JsonRpcMessage::Request(request) = &message {
            let answer = JsonRpcMessage::response(ServerResult::empty(()), request.id.clone());
            transport.send(answer).await.expect("the answer is written");
        }
        got.push(message);
    }
    transport.close().await.expect("close");
    got
}

/// Polls `receive` once at a time and drops it whenever it is not ready, the
/// way the SDK's select loop does when something else is ready first.
async fn receive_dropping_when_pending(
    transport: &mut LineTransport<Pieces>,
) -> Option<rmcp::service::RxJsonRpcMessage<rmcp::RoleServer>> {
    loop {
        let polled = {
            let mut receive = std::pin::pin!(transport.receive());
            std::future::poll_fn(|cx| Poll::Ready(receive.as_mut().poll(cx))).await
        };
        if let Poll::Ready(message) = polled {
            return message;
        }
        tokio::task::yield_now().await;
    }
}

/// Stdin that arrives in pieces of the given sizes, sometimes not ready.
struct Pieces {
    data: Vec<u8>,
    at: usize,
    sizes: Vec<u8>,
    step: usize,
    /// Whether the last read was "not ready", so that the next one is ready.
    was_pending: bool,
}

impl Pieces {
    fn new(data: Vec<u8>, sizes: Vec<u8>) -> Pieces {
        Pieces {
            data,
            at: 0,
            sizes,
            step: 0,
            was_pending: false,
        }
    }
}

impl AsyncRead for Pieces {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = &mut *self;
        let size = match this.sizes.get(this.step % this.sizes.len().max(1)) {
            Some(&size) => usize::from(size),
            None => usize::MAX,
        };
        this.step += 1;
        if size == 0 && !this.was_pending {
            this.was_pending = true;
            cx.waker().wake_by_ref();
            return Poll::Pending;
        }
        this.was_pending = false;
        let n = size
            .max(1)
            .min(buf.remaining())
            .min(this.data.len() - this.at);
        buf.put_slice(&this.data[this.at..this.at + n]);
        this.at += n;
        Poll::Ready(Ok(()))
    }
}

/// Stdout, collected.
#[derive(Clone, Default)]
struct Sink(Arc<Mutex<Vec<u8>>>);

impl AsyncWrite for Sink {
    fn poll_write(
        self: Pin<&mut Self>,
        _: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Poll::Ready(Ok(buf.len()))
    }

    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}
