//! The folders the server keeps for itself in each root (`.history` and
//! `.trash`) hold a `.gitignore` of `*`, as the caches of pytest and mypy
//! do, so that version control never shows them: it is written when the
//! server makes the folder, and again whenever the server writes there and
//! finds it gone.
//!
//! ```
//! use cap_std::{ambient_authority, fs::Dir};
//! use mcp_server_text::workspace::own_folders::keep_out_of_version_control;
//!
//! let dir = tempfile::tempdir().unwrap();
//! let folder = Dir::open_ambient_dir(dir.path(), ambient_authority()).unwrap();
//! keep_out_of_version_control(&folder).unwrap();
//! assert_eq!(std::fs::read_to_string(dir.path().join(".gitignore")).unwrap(), "*\n");
//! ```

use std::io::{self, Write};

use cap_std::fs::{Dir, OpenOptions};

/// The name of the file that keeps a folder out of git.
pub const GITIGNORE: &str = ".gitignore";

/// Writes `.gitignore` with `*` into `folder` unless one is there; one
/// there already (whatever it holds) is left as it is.
pub fn keep_out_of_version_control(folder: &Dir) -> io::Result<()> {
    match folder.symlink_metadata(GITIGNORE) {
        Ok(_) => return Ok(()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    match folder.open_with(GITIGNORE, OpenOptions::new().write(true).create_new(true)) {
        Ok(mut file) => file.write_all(b"*\n"),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(e),
    }
}
