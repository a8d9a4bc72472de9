//! Accepting HTTP connections so that none can hang the server: a request
//! header must arrive within [`HEADER_READ_TIMEOUT`], a connection that has
//! not shown the token is closed after [`UNTRUSTED_LIFETIME`] times that,
//! and at most
//! [`MAX_UNTRUSTED`] such connections are open at once. When more arrive (or
//! the process runs out of file descriptors), the oldest connection that has
//! not shown the token is closed to make room, so a client holding the token
//! always gets in, however many idle connections others open.
//!
//! A connection becomes trusted the first time one of its requests passes the
//! token check ([`mark_trusted`] runs just inside it); with `--http-no-auth`
//! every complete request does. Trusted connections are never closed to make
//! room.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::extract::Request;
use axum::middleware::Next;
use axum::response::Response;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

/// Longest time a client may take to send a request's header, unless
/// `--http-header-timeout` says otherwise.
pub const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);

/// How many header timeouts a connection may stay open without a request
/// that passed the token check (30 s with the default timeout).
pub const UNTRUSTED_LIFETIME: u32 = 3;

/// Most connections open at once that have not passed the token check,
/// unless `--http-max-pending` says otherwise.
pub const MAX_UNTRUSTED: usize = 128;

/// File descriptors kept free for everything but connections: files being
/// edited, the history, formatter pipes.
const RESERVED_DESCRIPTORS: usize = 256;

/// How many connections may be open, and how long a header may take.
#[derive(Debug, Clone, Copy)]
pub struct ConnectionLimits {
    /// Longest time a client may take to send a request's header.
    pub header_timeout: Duration,
    /// Most connections open at once that have not passed the token check.
    pub max_untrusted: usize,
    /// Most connections open at once (see [`connection_limit`]).
    pub max_open: usize,
}

impl Default for ConnectionLimits {
    fn default() -> Self {
        ConnectionLimits {
            header_timeout: HEADER_READ_TIMEOUT,
            max_untrusted: MAX_UNTRUSTED,
            max_open: usize::MAX,
        }
    }
}

/// Marks a connection whose request passed the token check.
#[derive(Clone)]
pub(crate) struct Trust(Arc<AtomicBool>);

/// Middleware run just inside the token check: the request's connection is
/// trusted from now on.
pub(crate) async fn mark_trusted(request: Request, next: Next) -> Response {
    if let Some(Trust(trusted)) = request.extensions().get::<Trust>() {
        trusted.store(true, Ordering::Relaxed);
    }
    next.run(request).await
}

/// One open connection, as the accept loop sees it.
struct Open {
    trusted: Arc<AtomicBool>,
    evict: CancellationToken,
}

/// The open connections, oldest first (ids grow with time).
#[derive(Default)]
struct Registry {
    open: Mutex<BTreeMap<u64, Open>>,
}

impl Registry {
    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<u64, Open>> {
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Closes the oldest untrusted connection; false when there is none.
    fn evict_oldest_untrusted(&self) -> bool {
        let mut open = self.lock();
        let oldest = open
            .iter()
            .find(|(_, c)| !c.trusted.load(Ordering::Relaxed))
            .map(|(&id, _)| id);
        match oldest.and_then(|id| open.remove(&id)) {
            Some(connection) => {
                connection.evict.cancel();
                true
            }
            None => false,
        }
    }

    fn untrusted(&self) -> usize {
        self.lock()
            .values()
            .filter(|c| !c.trusted.load(Ordering::Relaxed))
            .count()
    }
}

/// How many connections may be open at once: what the descriptor limit
/// leaves after [`RESERVED_DESCRIPTORS`], raising the soft limit to the hard
/// one first (the usual soft limit, 1024, is low for a server).
pub fn connection_limit() -> usize {
    #[cfg(unix)]
    {
        use rustix::process::{Resource, getrlimit, setrlimit};
        let mut limit = getrlimit(Resource::Nofile);
        if limit.current < limit.maximum {
            let raised = rustix::process::Rlimit {
                current: limit.maximum,
                maximum: limit.maximum,
            };
            if setrlimit(Resource::Nofile, raised).is_ok() {
                limit = getrlimit(Resource::Nofile);
            }
        }
        let soft = limit
            .current
            .map_or(usize::MAX, |n| usize::try_from(n).unwrap_or(usize::MAX));
        soft.saturating_sub(RESERVED_DESCRIPTORS).max(MAX_UNTRUSTED)
    }
    #[cfg(not(unix))]
    {
        4096
    }
}

/// Serves `router` on `listener` until `stop` is cancelled, then lets the
/// open connections finish their requests within `grace`.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: ConnectionLimits,
    stop: CancellationToken,
    grace: Duration,
) {
    let registry = Arc::new(Registry::default());
    let tasks = tokio_util::task::TaskTracker::new();
    let mut next_id = 0u64;
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = stop.cancelled() => break,
        };
        let stream = match accepted {
            Ok((stream, _)) => stream,
            Err(error) => {
                // Out of descriptors (or another passing failure): make room
                // and try again, rather than leave the listener spinning.
                tracing::warn!("could not accept an HTTP connection: {error}");
                registry.evict_oldest_untrusted();
                tokio::time::sleep(Duration::from_millis(20)).await;
                continue;
            }
        };
        let open_now = registry.lock().len();
        // Full: the oldest connection without the token makes room; only
        // when every open one is trusted is the new one turned away.
        let full = registry.untrusted() >= limits.max_untrusted || open_now >= limits.max_open;
        if full && !registry.evict_oldest_untrusted() && open_now >= limits.max_open {
            tracing::warn!(
                "refused an HTTP connection: {open_now} are open, every one of them trusted"
            );
            drop(stream);
            continue;
        }
        let _ = stream.set_nodelay(true);
        next_id += 1;
        let id = next_id;
        let trusted = Arc::new(AtomicBool::new(false));
        let evict = CancellationToken::new();
        registry.lock().insert(
            id,
            Open {
                trusted: trusted.clone(),
                evict: evict.clone(),
            },
        );
        let ends = Ends {
            evict,
            stop: stop.clone(),
            grace,
            header_timeout: limits.header_timeout,
        };
        let router = router.clone();
        let registry = registry.clone();
        tasks.spawn(async move {
            serve_one(stream, router, trusted, ends).await;
            registry.lock().remove(&id);
        });
    }
    tasks.close();
    tasks.wait().await;
}

/// What ends a connection from the server's side.
struct Ends {
    /// Closed at once to make room for another.
    evict: CancellationToken,
    /// The server stops: requests under way may finish within `grace`.
    stop: CancellationToken,
    grace: Duration,
    /// Longest time a request's header may take.
    header_timeout: Duration,
}

/// Serves one connection until it ends, is closed to make room, stays
/// untrusted too long, or the server stops.
async fn serve_one(
    stream: tokio::net::TcpStream,
    router: Router,
    trusted: Arc<AtomicBool>,
    ends: Ends,
) {
    let trust = Trust(trusted.clone());
    let service = hyper::service::service_fn(move |mut request: Request<hyper::body::Incoming>| {
        request.extensions_mut().insert(trust.clone());
        let mut router = router.clone();
        async move {
            let request = request.map(axum::body::Body::new);
            tower_service::Service::call(&mut router, request).await
        }
    });
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(ends.header_timeout)
        .keep_alive(true);
    let connection = builder.serve_connection(TokioIo::new(stream), service);
    tokio::pin!(connection);
    let untrusted_until = tokio::time::Instant::now() + ends.header_timeout * UNTRUSTED_LIFETIME;
    tokio::select! {
        _ = connection.as_mut() => return,
        () = ends.evict.cancelled() => return,
        () = until_still_untrusted(untrusted_until, &trusted) => return,
        () = ends.stop.cancelled() => {}
    }
    // The server is stopping: let a request under way finish within the
    // grace time.
    connection.as_mut().graceful_shutdown();
    let _ = tokio::time::timeout(ends.grace, connection).await;
}

/// Resolves at `deadline` if the connection has not been trusted by then;
/// never, once it has.
async fn until_still_untrusted(deadline: tokio::time::Instant, trusted: &AtomicBool) {
    tokio::time::sleep_until(deadline).await;
    if trusted.load(Ordering::Relaxed) {
        std::future::pending::<()>().await;
    }
}
