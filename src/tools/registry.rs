//! The tools a server offers, chosen by toolset and `--read-only`, and calling
//! them by name. A tool that panics is reported as a tool error, never a crash.
//!
//! ```
//! use mcp_server_text::tools::registry::Registry;
//! use mcp_server_text::tools::tool::Toolset;
//!
//! let all = Registry::new(&Toolset::ALL, false);
//! let read_only = Registry::new(&Toolset::ALL, true);
//! assert!(all.get("TextReplace").is_some());
//! assert!(read_only.get("TextReplace").is_none());
//! ```

use std::panic::{AssertUnwindSafe, catch_unwind};

use serde_json::Value;

use super::apply_patch::ApplyPatch;
use super::backlinks::Backlinks;
use super::batch::Batch;
use super::check_links::CheckLinks;
use super::context::ToolContext;
use super::edit_code::EditCode;
use super::edit_history::EditHistory;
use super::editor::append_text_file_contents::AppendTextFileContents;
use super::editor::create_text_file::CreateTextFile;
use super::editor::delete_text_file_contents::DeleteTextFileContents;
use super::editor::get_text_file_contents::GetTextFileContents;
use super::editor::insert_text_file_contents::InsertTextFileContents;
use super::editor::patch_text_file_contents::PatchTextFileContents;
use super::error::ToolError;
use super::list_directories::ListDirectories;
use super::list_files::ListFiles;
use super::move_path::Move;
use super::properties::Properties;
use super::remove_file::RemoveFile;
use super::tags::Tags;
use super::text_inspect::TextInspect;
use super::text_patch::TextPatch;
use super::text_read::TextRead;
use super::text_replace::TextReplace;
use super::text_search::TextSearch;
use super::tool::{ToolEntry, Toolset};
use super::undo_edit::UndoEdit;

/// Every tool this program has, in the order they are listed.
pub fn all_tools() -> Vec<ToolEntry> {
    vec![
        ToolEntry::of::<TextInspect>(),
        ToolEntry::of::<TextRead>(),
        ToolEntry::of::<TextPatch>(),
        ToolEntry::of::<TextReplace>(),
        ToolEntry::of::<TextSearch>(),
        ToolEntry::of::<ListDirectories>(),
        ToolEntry::of::<ListFiles>(),
        ToolEntry::of::<Move>(),
        ToolEntry::of::<RemoveFile>(),
        ToolEntry::of::<EditCode>(),
        ToolEntry::of::<GetTextFileContents>(),
        ToolEntry::of::<PatchTextFileContents>(),
        ToolEntry::of::<CreateTextFile>(),
        ToolEntry::of::<AppendTextFileContents>(),
        ToolEntry::of::<InsertTextFileContents>(),
        ToolEntry::of::<DeleteTextFileContents>(),
        ToolEntry::of::<EditHistory>(),
        ToolEntry::of::<UndoEdit>(),
        ToolEntry::of::<Batch>(),
        ToolEntry::of::<CheckLinks>(),
        ToolEntry::of::<Backlinks>(),
        ToolEntry::of::<Properties>(),
        ToolEntry::of::<Tags>(),
        ToolEntry::of::<ApplyPatch>(),
    ]
}

/// The tools switched on for one server.
#[derive(Debug, Clone)]
pub struct Registry {
    entries: Vec<ToolEntry>,
    read_only: bool,
}

impl Registry {
    /// The tools of `toolsets`; with `read_only`, only those that change
    /// nothing, and those that also read (Tags, Properties) refusing writes.
    pub fn new(toolsets: &[Toolset], read_only: bool) -> Registry {
        let entries = all_tools()
            .into_iter()
            .filter(|t| toolsets.contains(&t.toolset))
            .filter(|t| !read_only || t.effects.reads_too)
            .map(|mut t| {
                t.refuses_writes = read_only;
                t
            })
            .collect();
        Registry { entries, read_only }
    }

    /// Whether the server was started `--read-only` (its tools change nothing).
    pub fn read_only(&self) -> bool {
        self.read_only
    }

    /// The tools, in listing order.
    pub fn entries(&self) -> &[ToolEntry] {
        &self.entries
    }

    /// The names of the tools.
    pub fn names(&self) -> Vec<&'static str> {
        self.entries.iter().map(|e| e.name).collect()
    }

    /// The tool called `name`.
    pub fn get(&self, name: &str) -> Option<&ToolEntry> {
        self.entries.iter().find(|e| e.name == name)
    }

    /// Calls tool `name` with JSON `args`.
    pub fn call(&self, ctx: &ToolContext, name: &str, args: Value) -> Result<Value, ToolError> {
        let Some(entry) = self.get(name) else {
            return Err(unknown_tool(name, &self.names()));
        };
        match catch_unwind(AssertUnwindSafe(|| entry.call(ctx, args))) {
            Ok(result) => result,
            Err(panic) => {
                let what = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "unknown cause".into());
                Err(ToolError::new(format!(
                    "{name} failed with an internal error ({what}); no file was changed by this call"
                ))
                .suggest("This is a bug in mcp-server-text; please report it with the arguments you sent"))
            }
        }
    }
}

fn unknown_tool(name: &str, names: &[&'static str]) -> ToolError {
    let all = all_tools();
    let hint = match all.iter().find(|t| t.name.eq_ignore_ascii_case(name)) {
        Some(t) if names.contains(&t.name) => format!("Did you mean '{}'?", t.name),
        Some(t) => format!(
            "'{}' is in the '{}' toolset, which is not switched on (or the server is --read-only{}); start the server with --toolsets to change that",
            t.name,
            t.toolset.name(),
            if t.toolset == Toolset::History {
                ", or keeps no history: --no-history"
            } else {
                ""
            }
        ),
        None => format!("The tools are: {}", names.join(", ")),
    };
    ToolError::new(format!(
        "There is no tool named '{}'",
        crate::text::excerpt::brief(name)
    ))
    .suggest(hint)
}
