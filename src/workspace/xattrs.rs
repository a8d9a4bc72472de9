//! Extended attributes, and with them POSIX ACLs (`system.posix_acl_access`),
//! carried from a file to the new file that replaces it: an atomic write
//! puts a new inode in place, which starts with none of the old one's
//! attributes (or with the defaults of its folder).
//!
//! Every attribute of the old file is set on the new one, and any the new
//! one got that the old one lacked (a folder's default ACL) is removed, so
//! the new file carries exactly the old one's. Attributes of the privileged
//! namespaces (`security.*`, `trusted.*`, such as SELinux labels) are kept
//! where the system lets this process set them and otherwise left as the
//! system gave them; any other attribute that cannot be carried fails the
//! write, so that nothing is dropped silently.
//!
//! ```
//! use mcp_server_text::workspace::xattrs::copy_xattrs;
//!
//! let dir = tempfile::tempdir().unwrap();
//! let old = std::fs::File::create(dir.path().join("old")).unwrap();
//! let new = std::fs::File::create(dir.path().join("new")).unwrap();
//! copy_xattrs(&old, &new).unwrap();
//! ```

use std::collections::HashSet;
use std::ffi::CString;
use std::fs::File;
use std::io;

use rustix::fs::XattrFlags;
use rustix::io::Errno;

/// Gives `to` exactly the extended attributes of `from`.
pub fn copy_xattrs(from: &File, to: &File) -> io::Result<()> {
    let Some(wanted) = names(from)? else {
        // The file system has none: there is nothing to carry.
        return Ok(());
    };
    for name in &wanted {
        let Some(value) = value(from, name)? else {
            continue;
        };
        match rustix::fs::fsetxattr(to, name.as_c_str(), &value, XattrFlags::empty()) {
            Ok(()) => {}
            Err(e) if privileged(name) && refused(e) => {}
            Err(e) => return Err(not_kept(name, e)),
        }
    }
    let wanted: HashSet<&CString> = wanted.iter().collect();
    for name in names(to)?.unwrap_or_default() {
        if wanted.contains(&name) {
            continue;
        }
        match rustix::fs::fremovexattr(to, name.as_c_str()) {
            Ok(()) | Err(Errno::NODATA) => {}
            Err(e) if privileged(&name) && refused(e) => {}
            Err(e) => return Err(not_kept(&name, e)),
        }
    }
    Ok(())
}

/// The names of `file`'s attributes; `None` where the file system has none.
fn names(file: &File) -> io::Result<Option<Vec<CString>>> {
    loop {
        let size = match rustix::fs::flistxattr_query(file) {
            Ok(size) => size,
            Err(Errno::NOTSUP | Errno::NOSYS) => return Ok(None),
            Err(e) => return Err(e.into()),
        };
        let mut list = vec![0u8; size];
        match rustix::fs::flistxattr(file, &mut list[..]) {
            Ok(len) => {
                list.truncate(len);
                return Ok(Some(
                    list.split(|&b| b == 0)
                        .filter(|name| !name.is_empty())
                        .filter_map(|name| CString::new(name).ok())
                        .collect(),
                ));
            }
            // An attribute was added meanwhile: ask for the size again.
            Err(Errno::RANGE) => continue,
            Err(e) => return Err(e.into()),
        }
    }
}

/// The value of attribute `name` of `file`; `None` if it went meanwhile.
fn value(file: &File, name: &CString) -> io::Result<Option<Vec<u8>>> {
    loop {
        let size = match rustix::fs::fgetxattr_query(file, name.as_c_str()) {
            Ok(size) => size,
            Err(Errno::NODATA) => return Ok(None),
            Err(e) => return Err(e.into()),
        };
        let mut value = vec![0u8; size];
        if size == 0 {
            return Ok(Some(value));
        }
        match rustix::fs::fgetxattr(file, name.as_c_str(), &mut value[..]) {
            Ok(len) => {
                value.truncate(len);
                return Ok(Some(value));
            }
            Err(Errno::RANGE) => continue,
            Err(Errno::NODATA) => return Ok(None),
            Err(e) => return Err(e.into()),
        }
    }
}

/// Whether `name` is in a namespace only a privileged process may set.
fn privileged(name: &CString) -> bool {
    let bytes = name.as_bytes();
    bytes.starts_with(b"security.") || bytes.starts_with(b"trusted.")
}

/// Whether `error` is the system refusing this process the attribute.
fn refused(error: Errno) -> bool {
    matches!(error, Errno::PERM | Errno::ACCESS | Errno::NOTSUP)
}

fn not_kept(name: &CString, error: Errno) -> io::Error {
    io::Error::new(
        io::Error::from(error).kind(),
        format!(
            "the extended attribute {} could not be kept ({})",
            name.to_string_lossy(),
            io::Error::from(error)
        ),
    )
}
