//! Room for open file descriptors: a folder Move holds the lock of every
//! file in the folder at once, one or two descriptors each, which can pass
//! the default soft limit of 1024. The soft limit is raised towards the hard
//! limit when needed, as far as the system allows.

/// Descriptors kept free for everything else the server has open.
const SPARE: u64 = 256;

/// Makes sure `more` descriptors can be opened on top of the spare ones;
/// `false` if the system's hard limit does not allow it.
pub fn make_room(more: usize) -> bool {
    use rustix::process::{Resource, getrlimit, setrlimit};
    let needed = more as u64 + SPARE;
    let limit = getrlimit(Resource::Nofile);
    let current = limit.current.unwrap_or(u64::MAX);
    if current >= needed {
        return true;
    }
    let maximum = limit.maximum.unwrap_or(u64::MAX);
    if maximum < needed {
        return false;
    }
    let raised = rustix::process::Rlimit {
        current: Some(needed.max(current.saturating_mul(2)).min(maximum)),
        maximum: limit.maximum,
    };
    setrlimit(Resource::Nofile, raised).is_ok()
}
