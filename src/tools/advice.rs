//! Turning workspace errors into tool errors with advice: for each way a path
//! or a file can be refused, what the caller should do next.

use serde_json::json;

use super::error::ToolError;
use crate::text::encoding::DecodeError;
use crate::text::excerpt::brief;
use crate::workspace::WorkspaceError;
use crate::workspace::error::RelocateError;
use crate::workspace::file_lock::LockError;
use crate::workspace::read::ReadError;
use crate::workspace::roots::PathError;

impl From<WorkspaceError> for ToolError {
    fn from(error: WorkspaceError) -> ToolError {
        // The hashes are the caller's text, which can be of any length.
        let message = match &error {
            WorkspaceError::MalformedHash { given } => WorkspaceError::MalformedHash {
                given: brief(given),
            }
            .to_string(),
            WorkspaceError::StaleHash {
                path,
                expected,
                actual,
            } => WorkspaceError::StaleHash {
                path: path.clone(),
                expected: brief(expected),
                actual: actual.clone(),
            }
            .to_string(),
            _ => error.to_string(),
        };
        let base = ToolError::new(capitalize(&message));
        match error {
            WorkspaceError::Path(path) => advise_path(base, &path),
            WorkspaceError::ExtensionNotAllowed { .. } => base.suggest(
                "Only files with an allowed ending can be opened; start the server with --extensions to change the list (--extensions '*' allows every text file)",
            ),
            WorkspaceError::IsDirectory { path } => base.suggest(format!(
                "Give the path of a file inside it; ListFiles with path '{}' lists them",
                path.display()
            )),
            WorkspaceError::NotDirectory { path } => base.suggest(format!(
                "Give a folder; '{}' is a file",
                path.display()
            )),
            WorkspaceError::Read { error, .. } => advise_read(base, &error),
            WorkspaceError::StaleHash { actual, .. } => base
                .suggest("Read the file again (TextRead or TextInspect) to see what changed, then redo the edit against the current text")
                .suggest(format!("Pass expectedHash \"{actual}\" once you have re-read the file"))
                .detail("fileHash", json!(actual)),
            WorkspaceError::MalformedHash { .. } => base.suggest(
                "Copy fileHash from the latest response about this file, or leave expectedHash out",
            ),
            WorkspaceError::Encode { .. } => base.suggest(
                "Use only characters the file's encoding can hold, or convert the file to UTF-8 first",
            ),
            WorkspaceError::Lock {
                error: LockError::Gone,
                ..
            } => base.suggest(
                "Find where it is now with ListFiles or ListDirectories, then retry with that path",
            ),
            WorkspaceError::Lock { .. } => {
                base.suggest("Another edit of this file is in progress; retry in a moment")
            }
            WorkspaceError::Write { .. } => base.suggest(
                "Check that the folder is writable and the disk is not full, then retry",
            ),
            WorkspaceError::AlreadyExists { .. } => base.suggest(
                "Choose another path, or edit the existing file instead",
            ),
            WorkspaceError::Relocate(error) => advise_relocate(base, &error),
            WorkspaceError::Duplicate { .. } => base.suggest(
                "Name each file once and put all of its patches in that one entry",
            ),
            WorkspaceError::InHistory { .. } => base.suggest(
                "Use EditHistory to see the recorded changes and UndoEdit to take one back",
            ),
            WorkspaceError::ReadOnlyFile { .. } => base.suggest(
                "If the file should be edited, make it writable first (for example chmod u+w), then retry",
            ),
            WorkspaceError::HardLinked { .. } => base.suggest(
                "To edit this name alone, give it its own copy first (cp FILE FILE.tmp && mv FILE.tmp FILE); to change every name, edit it with a program that writes in place",
            ),
            WorkspaceError::ChangedMeanwhile { .. } => base.suggest(
                "Read the file again (TextRead or TextInspect) and redo the edit on what it holds now",
            ),
            WorkspaceError::OpenForWriting { .. } => base.suggest(
                "Retry once the other program has closed the file (stop the program that writes it, or edit a copy)",
            ),
            WorkspaceError::InTrash { .. } => base.suggest(
                "Move the file out of .trash first (Move with a destination outside it), then edit it there",
            ),
            WorkspaceError::BatchCommit(failure) => {
                if failure.not_restored.is_empty() {
                    base.suggest("Check that the folders are writable and the disk is not full, then retry the whole batch")
                } else {
                    base.suggest("Read the files that could not be restored and put back what they should hold before retrying")
                }
            }
        }
    }
}

fn advise_relocate(base: ToolError, error: &RelocateError) -> ToolError {
    match error {
        RelocateError::IsRoot { .. } => base.suggest(
            "A root folder stays where it is; move or remove the files and folders inside it instead",
        ),
        RelocateError::HoldsRoot { .. } => base.suggest(
            "Move or remove the other files and folders inside it one by one, leaving the root folder in place",
        ),
        RelocateError::IntoItself { .. } => {
            base.suggest("Choose a destination outside the folder being moved")
        }
        RelocateError::DestinationExists { path } => {
            let base = base.suggest("Choose a destination path that does not exist yet");
            // Only a folder in the way suggests the caller meant "move into".
            if path.is_dir() {
                base.suggest(format!(
                    "destinationPath is the new path of the file or folder itself (like mv -T), not a folder to put it in: to move into the folder {}, add the name at the end",
                    path.display()
                ))
            } else {
                base
            }
        }
        RelocateError::Symlink { .. } => base.suggest(
            "Give the path of the file or folder the link points to, if that is what you mean to move",
        ),
        RelocateError::InTrash { .. } => base.suggest(
            "It is already removed. To put it back, Move it out of .trash; to delete it for good, do that outside this server",
        ),
        RelocateError::IntoServerFolder { .. } => base.suggest(
            "Choose a destination outside .history and .trash; to remove a file, use RemoveFile",
        ),
        RelocateError::FolderNeedsRecursive { .. } => base.suggest(
            "Pass recursive: true to move the whole folder to the trash, or remove the files in it one by one",
        ),
        RelocateError::CrossDevice { .. } => base.suggest(
            "Choose a destination on the same file system (for example inside the same root)",
        ),
        RelocateError::TooManyFiles { .. } => base.suggest(
            "Move the folders inside it one by one, or raise the server's limit of open files (ulimit -n)",
        ),
        RelocateError::Changed { .. } => {
            base.suggest("Look again with ListFiles or ListDirectories, then retry")
        }
        RelocateError::Io { .. } => base.suggest(
            "Check that both folders are writable, then retry",
        ),
    }
}

fn advise_path(base: ToolError, error: &PathError) -> ToolError {
    match error {
        PathError::Outside { roots, .. } | PathError::SymlinkOutside { roots, .. } => {
            let roots: Vec<String> = roots.iter().map(|r| r.display().to_string()).collect();
            base.suggest(format!(
                "Use a path inside the allowed folders ({}); relative paths start at {}",
                roots.join(", "),
                roots
                    .first()
                    .map(String::as_str)
                    .unwrap_or("the first root")
            ))
        }
        PathError::NotFound { similar, .. } => {
            let mut err = base;
            for name in similar {
                err = err.suggest(format!("Did you mean '{}'?", name.display()));
            }
            err.suggest("Paths are absolute or relative to the first root; ListFiles and ListDirectories show what exists")
        }
        PathError::DanglingSymlink { .. } => {
            base.suggest("Fix or remove the symbolic link, or use the path of an existing file")
        }
        PathError::Empty => {
            base.suggest("Pass the file's path, absolute or relative to the first root")
        }
        PathError::NoRoots => {
            base.suggest("Start the server with a root folder, or let the client send its roots")
        }
        _ => base.suggest("Paths are absolute or relative to the first root"),
    }
}

fn advise_read(base: ToolError, error: &ReadError) -> ToolError {
    match error {
        ReadError::TooLarge { .. } | ReadError::GrewTooLarge { .. } => base.suggest(
            "Start the server with a larger --max-file-size to work on this file",
        ),
        ReadError::Decode(DecodeError::InvalidUtf8 { likely, .. }) => match likely {
            Some(enc) => base.suggest(format!(
                "If the file is in {enc}, the editor tools (get_text_file_contents, patch_text_file_contents) take an encoding parameter: encoding \"{enc}\""
            )),
            None => base.suggest("Only UTF-8 and UTF-16 files (with BOM) are read without naming an encoding"),
        },
        ReadError::Decode(DecodeError::Binary { .. }) => {
            base.suggest("Pick a text file: images, archives and compiled files cannot be read or edited as text")
        }
        ReadError::IsDirectory => base.suggest("Give the path of a file, not a folder"),
        ReadError::NotAFile => base.suggest(
            "Only regular files are read or edited; pipes, sockets and devices are refused so that no call can block",
        ),
        _ => base,
    }
}

/// Upper-cases the first letter, so messages read as sentences.
pub fn capitalize(message: &str) -> String {
    let mut chars = message.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
