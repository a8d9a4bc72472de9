//! Two pieces of work at once: one on a second thread, one on this thread,
//! or one after the other when no thread can be had (a full process table
//! must slow a call down, not fail it).
//!
//! ```
//! use mcp_server_text::workspace::search::side_by_side::side_by_side;
//!
//! let (here, there) = side_by_side(|| 1 + 1, || "beside");
//! assert_eq!((here, there), (2, "beside"));
//! ```

use std::sync::Mutex;

/// Runs `there` on a second thread while `here` runs on this one, and
/// returns both results; without a second thread, `there` runs after `here`.
/// A panic in `there` is a bug and surfaces here as one.
pub fn side_by_side<A, B>(here: impl FnOnce() -> A, there: impl FnOnce() -> B + Send) -> (A, B)
where
    B: Send,
{
    // Taken by the second thread, or by this one if there is none.
    let there = Mutex::new(Some(there));
    let take = || {
        let there = there.lock().ok().and_then(|mut there| there.take());
        there.map(|there| there())
    };
    std::thread::scope(|scope| {
        let second = std::thread::Builder::new().spawn_scoped(scope, take).ok();
        let a = here();
        let b = match second {
            Some(second) => second
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            None => take(),
        };
        (a, b.expect("the work beside runs once"))
    })
}
