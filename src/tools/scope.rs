//! What a search or a link check covers: one file (`filePath`), or the
//! folders under every root or one folder (`directoryPath`), optionally
//! narrowed by a glob (`filePattern`). TextSearch and CheckLinks take the
//! same three parameters and refuse the same contradictions, in their own
//! words.
//!
//! ```
//! use mcp_server_text::tools::scope::one_file_or_folders;
//!
//! assert!(one_file_or_folders(true, false, false, "search").is_ok());
//! let err = one_file_or_folders(true, true, false, "check").unwrap_err();
//! assert!(err.message.starts_with("filePath and directoryPath were both given, but a check covers"));
//! ```

use super::error::ToolError;

/// Refuses `filePath` together with `directoryPath` or `filePattern`;
/// `verb` names what the tool does ("search", "check").
pub fn one_file_or_folders(
    file_path: bool,
    directory_path: bool,
    file_pattern: bool,
    verb: &str,
) -> Result<(), ToolError> {
    if file_path && directory_path {
        return Err(ToolError::new(format!(
            "filePath and directoryPath were both given, but a {verb} covers either one file or one folder"
        ))
        .suggest(format!(
            "Pass filePath to {verb} one file, or directoryPath to {verb} a folder and its subfolders"
        )));
    }
    if file_path && file_pattern {
        return Err(ToolError::new(
            "filePath and filePattern were both given, but filePattern selects files in folders and filePath names one file",
        )
        .suggest(format!(
            "Leave out filePattern to {verb} the file, or leave out filePath and use directoryPath with filePattern"
        )));
    }
    Ok(())
}
