//! The tool calls a server is running, across all its sessions, so that a
//! shutdown can let them finish and answer before it ends the sessions.
//!
//! Without this, Ctrl-C on an HTTP server ended every session at once: edits
//! already under way still landed (a blocking call cannot be stopped midway),
//! but their clients were told the call failed, and an agent that retries a
//! failed "add this line" adds it twice.
//!
//! ```
//! use std::time::Duration;
//! use mcp_server_text::faces::in_flight::InFlight;
//!
//! # tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap().block_on(async {
//! let calls = InFlight::default();
//! let call = calls.enter().expect("open");
//! assert!(!calls.close_and_wait(Duration::from_millis(10)).await, "one call still runs");
//! assert!(calls.enter().is_none(), "closed to new calls");
//! drop(call);
//! assert!(calls.close_and_wait(Duration::from_millis(10)).await);
//! # });
//! ```

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use tokio::sync::Notify;

/// Counts running calls and, once closed, turns new ones away.
#[derive(Debug, Default)]
pub struct InFlight {
    running: AtomicUsize,
    closed: AtomicBool,
    idle: Notify,
}

/// One running call; it ends when dropped.
#[derive(Debug)]
pub struct Call<'a> {
    calls: &'a InFlight,
}

impl InFlight {
    /// Starts a call, or `None` once the server is shutting down.
    pub fn enter(&self) -> Option<Call<'_>> {
        // Count first, then look: `close_and_wait` sets the flag first, then
        // counts, so a call either sees the flag or is seen by the count.
        self.running.fetch_add(1, Ordering::SeqCst);
        let call = Call { calls: self };
        if self.closed.load(Ordering::SeqCst) {
            return None;
        }
        Some(call)
    }

    /// Turns new calls away and waits up to `limit` for the running ones to
    /// end. False if some were still running at the limit.
    pub async fn close_and_wait(&self, limit: Duration) -> bool {
        self.closed.store(true, Ordering::SeqCst);
        let deadline = tokio::time::Instant::now() + limit;
        loop {
            // Registered before the count is read, so a call that ends in
            // between still wakes this loop.
            let ended = self.idle.notified();
            if self.running.load(Ordering::SeqCst) == 0 {
                return true;
            }
            if tokio::time::timeout_at(deadline, ended).await.is_err() {
                return self.running.load(Ordering::SeqCst) == 0;
            }
        }
    }

    /// How many calls are running.
    pub fn running(&self) -> usize {
        self.running.load(Ordering::SeqCst)
    }

    /// Logs the one line both transports log when asked to stop, with the
    /// calls still to finish.
    pub fn log_stopping(&self) {
        tracing::info!(
            "stopping (Ctrl-C or SIGTERM): finishing {} call(s) in progress",
            self.running()
        );
    }
}

impl Drop for Call<'_> {
    fn drop(&mut self) {
        if self.calls.running.fetch_sub(1, Ordering::SeqCst) == 1 {
            self.calls.idle.notify_waiters();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[tokio::test]
    async fn waits_for_a_call_that_ends_later() {
        let calls = Arc::new(InFlight::default());
        let worker = {
            let calls = calls.clone();
            std::thread::spawn(move || {
                let _call = calls.enter().unwrap();
                std::thread::sleep(Duration::from_millis(50));
            })
        };
        while calls.running() == 0 {
            tokio::task::yield_now().await;
        }
        assert!(calls.close_and_wait(Duration::from_secs(5)).await);
        assert_eq!(calls.running(), 0);
        worker.join().unwrap();
    }

    #[tokio::test]
    async fn a_refused_call_is_not_counted() {
        let calls = InFlight::default();
        assert!(calls.close_and_wait(Duration::ZERO).await);
        assert!(calls.enter().is_none());
        assert_eq!(calls.running(), 0);
    }
}
