//! The shape of a tool: typed parameters and output with JSON schemas, a
//! description, MCP annotations, and one function from parameters to output.
//!
//! [`ToolEntry`] erases the types so the faces can list and call tools by name.

use std::sync::Arc;

use schemars::JsonSchema;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::args::parse_args;
use super::context::ToolContext;
use super::error::ToolError;
use super::schema;

/// The toolsets a server can switch on (`--toolsets`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Toolset {
    /// TextInspect, TextRead, TextPatch, TextReplace, TextSearch.
    Text,
    /// ListDirectories, ListFiles, Move, RemoveFile.
    Files,
    /// edit_code.
    Code,
    /// The mcp-text-editor API.
    Editor,
    /// EditHistory, UndoEdit.
    History,
    /// Batch (and TextReplace across files).
    Batch,
    /// CheckLinks, Backlinks.
    Links,
    /// Properties, Tags.
    Vault,
    /// ApplyPatch.
    Patch,
}

impl Toolset {
    /// Every toolset.
    pub const ALL: [Toolset; 9] = [
        Toolset::Text,
        Toolset::Files,
        Toolset::Code,
        Toolset::Editor,
        Toolset::History,
        Toolset::Batch,
        Toolset::Links,
        Toolset::Vault,
        Toolset::Patch,
    ];

    /// The toolsets on when `--toolsets` is not given.
    pub const DEFAULT: [Toolset; 7] = [
        Toolset::Text,
        Toolset::Files,
        Toolset::Code,
        Toolset::History,
        Toolset::Batch,
        Toolset::Links,
        Toolset::Vault,
    ];

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Toolset::Text => "text",
            Toolset::Files => "files",
            Toolset::Code => "code",
            Toolset::Editor => "editor",
            Toolset::History => "history",
            Toolset::Batch => "batch",
            Toolset::Links => "links",
            Toolset::Vault => "vault",
            Toolset::Patch => "patch",
        }
    }

    /// Looks a toolset up by name.
    pub fn from_name(name: &str) -> Option<Toolset> {
        Toolset::ALL
            .into_iter()
            .find(|t| t.name().eq_ignore_ascii_case(name.trim()))
    }
}

/// What a tool does to files, for MCP annotations and `--read-only`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Effects {
    /// Changes nothing.
    pub read_only: bool,
    /// May overwrite or remove existing content.
    pub destructive: bool,
    /// Calling it twice with the same arguments has no further effect.
    pub idempotent: bool,
    /// Some of its calls only read: under `--read-only` it stays, and the
    /// calls that would write ([`Tool::writes`]) are refused.
    pub reads_too: bool,
}

impl Effects {
    /// A tool that only reads.
    pub const READ_ONLY: Effects = Effects {
        read_only: true,
        destructive: false,
        idempotent: true,
        reads_too: true,
    };

    /// A tool that changes existing content.
    pub const EDITS: Effects = Effects {
        read_only: false,
        destructive: true,
        idempotent: false,
        reads_too: false,
    };

    /// A tool that reads, or changes existing content, as its arguments say.
    pub const READS_OR_EDITS: Effects = Effects {
        reads_too: true,
        ..Effects::EDITS
    };

    /// A tool that only adds content (new lines, a new file), never removing any.
    pub const ADDS: Effects = Effects {
        read_only: false,
        destructive: false,
        idempotent: false,
        reads_too: false,
    };
}

/// A tool: its parameters, output, metadata and behaviour.
pub trait Tool: 'static {
    /// The parameters, deserialized strictly from the call's arguments.
    type Params: DeserializeOwned + JsonSchema;
    /// The successful result.
    type Output: Serialize + JsonSchema;

    /// The tool's name.
    const NAME: &'static str;
    /// A short human-readable title.
    const TITLE: &'static str;
    /// The toolset it belongs to.
    const TOOLSET: Toolset;
    /// What it does to files.
    const EFFECTS: Effects;

    /// The description an agent reads to decide when to call it.
    fn description() -> &'static str;

    /// Runs the tool.
    fn run(ctx: &ToolContext, params: Self::Params) -> Result<Self::Output, ToolError>;

    /// Whether a call with `params` would change files: the calls refused
    /// under `--read-only`.
    fn writes(_params: &Self::Params) -> bool {
        !Self::EFFECTS.read_only
    }

    /// Adds the notes raised while reading the arguments (a JSON value taken
    /// as text, …) to the result: by default as a top-level `note`. Tools
    /// whose result is keyed by file put them where their schema allows.
    fn attach_notes(value: &mut Value, notes: Vec<String>) {
        add_notes(value, notes);
    }

    /// Adds tool-specific advice to a refusal of the arguments, such as how an
    /// older shape of the parameters maps onto the current one.
    fn advise_invalid_args(error: ToolError) -> ToolError {
        error
    }
}

type CallFn = dyn Fn(&ToolContext, Value, bool) -> Result<Value, ToolError> + Send + Sync;

/// A tool with its types erased, ready to be listed and called by name.
#[derive(Clone)]
pub struct ToolEntry {
    /// The tool's name.
    pub name: &'static str,
    /// A short human-readable title.
    pub title: &'static str,
    /// The toolset it belongs to.
    pub toolset: Toolset,
    /// What it does to files.
    pub effects: Effects,
    /// The description.
    pub description: &'static str,
    /// JSON schema of the arguments.
    pub input_schema: Arc<Map<String, Value>>,
    /// JSON schema of a successful result.
    pub output_schema: Arc<Map<String, Value>>,
    /// Whether calls that would write are refused (`--read-only`).
    pub refuses_writes: bool,
    call: Arc<CallFn>,
}

impl std::fmt::Debug for ToolEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolEntry")
            .field("name", &self.name)
            .finish()
    }
}

impl ToolEntry {
    /// The entry for tool `T`.
    pub fn of<T: Tool>() -> ToolEntry {
        ToolEntry {
            name: T::NAME,
            title: T::TITLE,
            toolset: T::TOOLSET,
            effects: T::EFFECTS,
            description: T::description(),
            input_schema: Arc::new(schema::input_schema::<T::Params>()),
            output_schema: Arc::new(schema::output_schema::<T::Output>()),
            refuses_writes: false,
            call: Arc::new(|ctx, args, refuses_writes| {
                let (params, notes) =
                    parse_args::<T::Params>(T::NAME, args).map_err(T::advise_invalid_args)?;
                if refuses_writes && T::writes(&params) {
                    return Err(ToolError::new(format!(
                        "{} was asked to change files, but this server is read-only (--read-only); nothing was changed",
                        T::NAME
                    ))
                    .suggest("Call it without the change to read, or restart the server without --read-only"));
                }
                let output = T::run(ctx, params)?;
                let mut value = serde_json::to_value(output).map_err(|e| {
                    ToolError::new(format!("{} could not encode its result: {e}", T::NAME))
                })?;
                T::attach_notes(&mut value, notes);
                Ok(value)
            }),
        }
    }

    /// Calls the tool with JSON arguments.
    pub fn call(&self, ctx: &ToolContext, args: Value) -> Result<Value, ToolError> {
        (self.call)(ctx, args, self.refuses_writes)
    }
}

/// Adds `notes` to the `note` field of the object `value`, after any note it has.
pub fn add_notes(value: &mut Value, notes: Vec<String>) {
    if notes.is_empty() {
        return;
    }
    if let Value::Object(map) = value {
        let joined = notes.join("; ");
        let note = match map.get("note").and_then(Value::as_str) {
            Some(existing) if !existing.is_empty() => format!("{existing}; {joined}"),
            _ => joined,
        };
        map.insert("note".into(), Value::String(note));
    }
}
