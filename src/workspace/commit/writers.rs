//! Whether another program holds a file open for writing.
//!
//! An edit replaces a file by renaming new bytes over its name. A program
//! that opened the old file before the rename (a shell's `>>`, a logger)
//! still writes to the old inode afterwards, where no name reaches its bytes.
//! The committer therefore waits, before the rename, for such a writer to
//! close the file, and after it carries over what was appended to the old
//! inode until no writer is left (see [`super::guard::carry_appended`]).
//!
//! The kernel says whether a file is open for writing anywhere through file
//! leases: a read lease is granted only on a file that no descriptor in any
//! process has open for writing. The lease is taken and let go at once; it is
//! a question, never held.
//!
//! ```
//! use mcp_server_text::workspace::commit::writers::{Writers, writers};
//!
//! let dir = tempfile::tempdir().unwrap();
//! let path = dir.path().join("a.md");
//! std::fs::write(&path, "one\n").unwrap();
//! let file = std::fs::File::open(&path).unwrap();
//! let writer = std::fs::OpenOptions::new().append(true).open(&path).unwrap();
//! assert_ne!(writers(&file), Writers::None);
//! drop(writer);
//! assert_ne!(writers(&file), Writers::Some);
//! ```

use std::fs::File;

use crate::workspace::read_lease::{LeaseRefused, ReadLease};

/// What the kernel says of the other writers of a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Writers {
    /// No descriptor anywhere has the file open for writing.
    None,
    /// Some descriptor has it open for writing.
    Some,
    /// It cannot be told here: leases are off, unavailable on this file
    /// system or not allowed to this user (a file of another owner), or the
    /// system is not Linux.
    Unknown,
}

/// Asks whether any descriptor has `file` open for writing. `file` must be
/// open for reading only, as the committer's locked handle is. No break of
/// the lease can come from a writer that is already there, only from one
/// that opens the file in the instant the lease is held.
pub fn writers(file: &File) -> Writers {
    match ReadLease::take(file) {
        Ok(_) => Writers::None,
        Err(LeaseRefused::Writers) => Writers::Some,
        Err(LeaseRefused::Unknown) => Writers::Unknown,
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn a_writer_is_seen_until_it_closes_and_readers_are_not_writers() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.md");
        std::fs::write(&path, "one\n").unwrap();
        let file = File::open(&path).unwrap();
        let reader = File::open(&path).unwrap();
        // Leases need the file's owner (or CAP_LEASE) and a file system that
        // grants them; where neither holds, the answer is Unknown throughout.
        let alone = writers(&file);
        if alone == Writers::Unknown {
            eprintln!("SKIPPED: leases are not granted here");
            return;
        }
        assert_eq!(alone, Writers::None);
        let mut writer = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap();
        assert_eq!(writers(&file), Writers::Some);
        // Renamed away from its name, the old file still has its writer.
        std::fs::write(dir.path().join("b.md"), "two\n").unwrap();
        std::fs::rename(dir.path().join("b.md"), &path).unwrap();
        assert_eq!(writers(&file), Writers::Some);
        writer.write_all(b"late\n").unwrap();
        drop(writer);
        assert_eq!(writers(&file), Writers::None);
        drop(reader);
    }
}
