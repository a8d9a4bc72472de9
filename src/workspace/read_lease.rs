//! A read lease on a file: the kernel's promise that no descriptor anywhere
//! has the file open for writing while the lease is held.
//!
//! A read lease is granted only on a file that nothing has open for writing,
//! and while it is held any program that opens the file for writing or
//! truncates it waits until the lease is let go (or until the system's
//! `lease-break-time`, 45 s by default, has passed). The committer takes one
//! and lets go at once, as a question ([`super::commit::writers`]); a search
//! holds one while it reads a file it mapped into memory, so that the file
//! cannot shrink under the mapping ([`super::search::mapped`]).
//!
//! Leases exist on Linux only, for the file's owner (or with `CAP_LEASE`),
//! where the file system grants them and `fs.leases-enable` is on; anywhere
//! else [`ReadLease::take`] answers [`LeaseRefused::Unknown`].
//!
//! ```
//! use mcp_server_text::workspace::read_lease::{LeaseRefused, ReadLease};
//!
//! let dir = tempfile::tempdir().unwrap();
//! let path = dir.path().join("a.md");
//! std::fs::write(&path, "one\n").unwrap();
//! let file = std::fs::File::open(&path).unwrap();
//! let writer = std::fs::OpenOptions::new().append(true).open(&path).unwrap();
//! assert!(ReadLease::take(&file).is_err());
//! drop(writer);
//! assert_ne!(ReadLease::take(&file).err(), Some(LeaseRefused::Writers));
//! ```

use std::os::fd::AsFd;

/// A read lease held on a file until it is dropped.
#[derive(Debug)]
pub struct ReadLease<F: AsFd> {
    file: F,
}

/// Why no read lease was granted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LeaseRefused {
    /// Some descriptor has the file open for writing.
    Writers,
    /// Leases are off, unavailable on this file system or not allowed to
    /// this user (a file of another owner), or the system is not Linux.
    Unknown,
}

/// Whether this target has file leases: Linux, with the generic fcntl
/// numbering that [`F_SETSIG`] assumes.
macro_rules! with_leases {
    ($($item:item)*) => {$(
        #[cfg(all(
            target_os = "linux",
            not(any(target_arch = "mips", target_arch = "mips64", target_arch = "sparc64"))
        ))]
        $item
    )*};
}

/// The opposite of [`with_leases`].
macro_rules! without_leases {
    ($($item:item)*) => {$(
        #[cfg(not(all(
            target_os = "linux",
            not(any(target_arch = "mips", target_arch = "mips64", target_arch = "sparc64"))
        )))]
        $item
    )*};
}

with_leases! {
    /// The fcntl command that names the signal of a lease break (`F_SETSIG`,
    /// 10 in the kernel's generic and x86/ARM numbering), which libc does
    /// not export for glibc targets.
    const F_SETSIG: libc::c_int = 10;

    impl<F: AsFd> ReadLease<F> {
        /// Takes a read lease on `file`, which must be open for reading only.
        pub fn take(file: F) -> Result<Self, LeaseRefused> {
            use std::os::fd::AsRawFd;
            let fd = file.as_fd().as_raw_fd();
            // A lease's break is signalled to this process with SIGIO, whose
            // default is to end it; SIGURG's default is to ignore it. The
            // signal is a property of this open file, not of the process.
            //
            // SAFETY: fcntl on a descriptor `file` keeps open, with integer
            // arguments only: no memory is passed or kept.
            unsafe {
                if libc::fcntl(fd, F_SETSIG, libc::SIGURG) == -1 {
                    return Err(LeaseRefused::Unknown);
                }
                if libc::fcntl(fd, libc::F_SETLEASE, libc::F_RDLCK) == 0 {
                    return Ok(ReadLease { file });
                }
            }
            match std::io::Error::last_os_error().raw_os_error() {
                Some(libc::EAGAIN) => Err(LeaseRefused::Writers),
                _ => Err(LeaseRefused::Unknown),
            }
        }
    }

    impl<F: AsFd> Drop for ReadLease<F> {
        fn drop(&mut self) {
            use std::os::fd::AsRawFd;
            // SAFETY: as in `take`. A failure leaves the lease to end when
            // the file is closed.
            unsafe {
                libc::fcntl(self.file.as_fd().as_raw_fd(), libc::F_SETLEASE, libc::F_UNLCK);
            }
        }
    }
}

without_leases! {
    impl<F: AsFd> ReadLease<F> {
        /// Takes a read lease on `file`: never granted here.
        pub fn take(_file: F) -> Result<Self, LeaseRefused> {
            Err(LeaseRefused::Unknown)
        }
    }
}

impl<F: AsFd> ReadLease<F> {
    /// The file the lease is held on.
    pub fn file(&self) -> &F {
        &self.file
    }
}
