//! Batch: several TextPatch, TextReplace and edit_code calls over any files
//! of the roots, checked together and written all or nothing, as one change.
//!
//! Every operation is planned against its file as the operations before it
//! left it (a file may be edited several times, or created by edit_code's
//! overwrite_file and then edited), with that tool's own rules and refusals;
//! `expectedHash` of an operation is checked against that state too. Only
//! when every operation has been planned is anything written, through the
//! committer: every file under its lock, staged, renamed, rolled back
//! together on failure, and recorded as one change for UndoEdit.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::context::ToolContext;
use super::edit_code::EditCode;
use super::edit_report::WriteSummary;
use super::error::ToolError;
use super::planned_edit::{ErasedEdit, erased};
use super::text_patch::TextPatch;
use super::text_replace::TextReplace;
use super::tool::{Effects, Tool, Toolset};
use crate::text::document::Document;
use crate::text::hash::hash_matches;
use crate::workspace::commit::BatchItem;
use crate::workspace::commit::{Change, History};
use crate::workspace::roots::ResolvedPath;
use crate::workspace::{OpenFile, WorkspaceError};

/// Most operations one Batch holds.
pub const MAX_OPERATIONS: usize = 100;

/// The tools a Batch may hold.
const BATCHABLE: [&str; 3] = ["TextPatch", "TextReplace", "edit_code"];

/// The Batch tool.
pub struct Batch;

/// One operation: a tool and its arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BatchOperation {
    /// TextPatch, TextReplace or edit_code.
    #[schemars(description = "")] // the tool's description names them
    pub tool: String,
    /// As for a call of its own, without dryRun.
    pub arguments: Map<String, Value>,
}

/// Parameters of Batch.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct BatchParams {
    /// Applied in order.
    pub operations: Vec<BatchOperation>,
    /// If true, check every operation and return each file's diff without writing anything.
    #[schemars(description = "")] // said once, in the server's instructions
    #[serde(default)]
    pub dry_run: bool,
}

/// One operation's reply.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct OperationResult {
    /// The tool.
    pub tool: String,
    /// Its reply, as a call of its own would give it (fileHash is the file's hash after this operation).
    pub result: Value,
}

/// A file the batch changed.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct BatchFile {
    /// The file.
    pub file_path: String,
    /// Its hash after the batch (in a dry run: what it would be).
    pub file_hash: String,
    /// Whether the batch creates it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub created: bool,
    /// In a dry run, the unified diff of everything the batch does to it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diff: Option<String>,
}

/// Result of Batch.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct BatchOutput {
    /// Each operation's reply, in order.
    pub operations: Vec<OperationResult>,
    /// The files changed (in a dry run: that would be), each with its final hash.
    pub files: Vec<BatchFile>,
    /// The batch's id in the edit history: UndoEdit takes back the whole batch.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub change_id: Option<String>,
    /// Present and true when nothing was written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dry_run: Option<bool>,
    /// Remarks.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl Tool for Batch {
    type Params = BatchParams;
    type Output = BatchOutput;

    const NAME: &'static str = "Batch";
    const TITLE: &'static str = "Several edits over several files, all or nothing";
    const TOOLSET: Toolset = Toolset::Batch;
    const EFFECTS: Effects = Effects::EDITS;

    fn description() -> &'static str {
        "Applies several TextPatch, TextReplace and edit_code calls over one or more files as one change: all checked, then all written or none, one changeId. Each operation sees the files as the ones before it left them; a refusal names the operation by position. Example: {\"operations\": [{\"tool\": \"TextReplace\", \"arguments\": {\"filePath\": \"a.md\", \"oldText\": \"v1\", \"newText\": \"v2\"}}]}"
    }

    fn run(ctx: &ToolContext, params: BatchParams) -> Result<BatchOutput, ToolError> {
        if params.operations.is_empty() {
            return Err(ToolError::new("operations is empty: there is nothing to do")
                .suggest("Pass operations: [{\"tool\": \"TextReplace\", \"arguments\": {\"filePath\": \"a.md\", \"oldText\": \"old\", \"newText\": \"new\"}}]"));
        }
        if params.operations.len() > MAX_OPERATIONS {
            return Err(ToolError::new(format!(
                "operations holds {} operations, more than the {MAX_OPERATIONS} one Batch may hold; nothing was written",
                params.operations.len()
            ))
            .suggest("Split the work into several batches"));
        }
        let mut calls: Vec<Box<dyn ErasedEdit>> = Vec::with_capacity(params.operations.len());
        for (i, op) in params.operations.iter().enumerate() {
            let call = operation(ctx, op).map_err(|e| refused(e, i, &op.tool, None))?;
            call.check(ctx).map_err(|e| refused(e, i, &op.tool, None))?;
            calls.push(call);
        }

        // The files, each once, in the order they are first named.
        let workspace = &ctx.workspace;
        let mut files: Vec<(ResolvedPath, String, bool)> = Vec::new();
        let mut file_of = Vec::with_capacity(calls.len());
        for (i, call) in calls.iter().enumerate() {
            let args = call.file().map_err(|e| refused(e, i, call.tool(), None))?;
            let fail = |e: WorkspaceError| refused(e.into(), i, call.tool(), Some(args.file_path));
            let path = workspace.resolve_new_file(args.file_path).map_err(fail)?;
            let known = files.iter().position(|(p, _, _)| p.real == path.real);
            let created_before = known.is_some_and(|at| files[at].2);
            if !path.exists && !args.may_create && !created_before {
                // Nothing creates it first: the refusal of a missing file.
                workspace.resolve_file(args.file_path).map_err(fail)?;
            }
            let at = match known {
                Some(at) => at,
                None => {
                    let given = path.real.to_str().map(str::to_string).ok_or_else(|| {
                        refused(
                            ToolError::new(format!(
                                "{} is not a valid Unicode path",
                                path.display()
                            )),
                            i,
                            call.tool(),
                            None,
                        )
                    })?;
                    files.push((path, given, false));
                    files.len() - 1
                }
            };
            files[at].2 |= args.may_create;
            file_of.push(at);
        }
        let items: Vec<BatchItem> = files
            .iter()
            .map(|(_, given, may_create)| BatchItem {
                may_be_new: *may_create,
                ..BatchItem::new(given)
            })
            .collect();
        let first_user = |file: usize| file_of.iter().position(|&f| f == file).unwrap_or(0);
        let transaction = workspace.transaction(&items, Vec::new()).map_err(|f| {
            let i = f.index.map(first_user).unwrap_or(0);
            refused(
                f.error.into(),
                i,
                calls[i].tool(),
                Some(&files[file_of[i]].1),
            )
        })?;

        // Every operation, planned against the files as the earlier ones
        // left them. Each operation's reply is made as soon as it is
        // planned, so only each file's latest state is kept, never a copy of
        // the file per operation: a batch's memory is a few times the size
        // of the files it touches, whatever the number of operations.
        let write = !params.dry_run;
        let mut state: Vec<Option<OpenFile>> = (0..files.len()).map(|_| None).collect();
        let mut replies: Vec<Value> = Vec::with_capacity(calls.len());
        for (i, call) in calls.iter_mut().enumerate() {
            let at = file_of[i];
            let current = state[at].as_ref().unwrap_or(&transaction.files()[at]);
            let args = call.file().map_err(|e| refused(e, i, call.tool(), None))?;
            if !current.path.exists && !args.may_create {
                let error = ToolError::new(format!(
                    "{} does not exist yet at this point of the batch: a later operation creates it",
                    current.path.display()
                ))
                .suggest("Put the operation that creates the file before the ones that edit it");
                return Err(refused(error, i, call.tool(), None));
            }
            if let Some(expected) = args.expected_hash {
                let actual = current.doc.hash();
                if !hash_matches(expected, &actual) {
                    let error = WorkspaceError::StaleHash {
                        path: current.path.real.clone(),
                        expected: expected.trim().to_string(),
                        actual,
                    };
                    return Err(refused(error.into(), i, call.tool(), None));
                }
            }
            let after = call
                .plan(ctx, current)
                .map_err(|e| refused(e, i, call.tool(), None))?;
            let path = current.path.clone();
            // The state this operation replaced goes to its reply.
            let before = match state[at].take() {
                Some(file) => file.doc,
                None => transaction.files()[at].doc.clone(),
            };
            let reply = call.reply(
                ctx,
                path.clone(),
                before,
                after.clone(),
                write,
                History::NotKept,
            )?;
            replies.push(reply);
            state[at] = Some(OpenFile {
                path: ResolvedPath {
                    exists: true,
                    ..path
                },
                doc: after,
            });
        }

        let contents: Vec<Option<Document>> = transaction
            .files()
            .iter()
            .zip(&mut state)
            .map(|(before, after)| {
                let after = after.take()?;
                let changed = !before.path.exists || before.doc.bytes() != after.doc.bytes();
                changed.then_some(after.doc)
            })
            .collect();
        drop(state);
        let done = transaction
            .commit(Change::new(Self::NAME, contents), write)
            .map_err(|f| {
                let i = f.index.map(first_user).unwrap_or(0);
                refused(f.error.into(), i, calls[i].tool(), None)
            })?;

        let operations = replies
            .into_iter()
            .zip(&params.operations)
            .map(|(mut result, op)| {
                attach_history(&mut result, &done.history);
                OperationResult {
                    tool: op.tool.clone(),
                    result,
                }
            })
            .collect();
        let files = done
            .before
            .iter()
            .zip(&done.after)
            .filter_map(|(before, after)| {
                let after = after.as_ref()?;
                let label = before.path.relative().display().to_string();
                let summary = WriteSummary::new(&before.doc, after, done.written, &label);
                Some(BatchFile {
                    file_path: before.path.display(),
                    file_hash: summary.file_hash,
                    created: !before.path.exists,
                    diff: summary.diff,
                })
            })
            .collect();
        Ok(BatchOutput {
            operations,
            files,
            change_id: done.history.change_id().map(str::to_string),
            dry_run: params.dry_run.then_some(true),
            note: done.history.note(),
        })
    }
}

/// Gives an operation's reply, made before the batch was written, what the
/// history made of the batch: its change id, or why undo is unavailable.
fn attach_history(reply: &mut Value, history: &History) {
    let Value::Object(fields) = reply else {
        return;
    };
    if let Some(id) = history.change_id() {
        fields.insert("changeId".into(), json!(id));
    }
    if let Some(why) = history.note() {
        let note = match fields.get("note").and_then(Value::as_str) {
            Some(note) => format!("{note}; {why}"),
            None => why,
        };
        fields.insert("note".into(), json!(note));
    }
}

/// The call an operation names, with its arguments read as strictly as for
/// a call of its own.
fn operation(ctx: &ToolContext, op: &BatchOperation) -> Result<Box<dyn ErasedEdit>, ToolError> {
    let name = op.tool.trim();
    if !BATCHABLE.contains(&name) {
        return Err(ToolError::new(format!(
            "'{}' cannot be part of a Batch: it holds TextPatch, TextReplace and edit_code calls",
            op.tool
        ))
        .suggest("Call other tools on their own, before or after the batch"));
    }
    if !ctx.settings.enabled_tools.contains(&name) {
        return Err(ToolError::new(format!(
            "{name} is not switched on in this server, so a Batch cannot use it"
        ))
        .suggest("Use the tools this server offers, or ask for the server to be started with their toolset"));
    }
    for key in ["dryRun", "dry_run"] {
        if op.arguments.contains_key(key) {
            return Err(ToolError::new(format!(
                "{key} was given inside an operation, but a Batch is checked or written as a whole"
            ))
            .suggest("Leave it out of the operations and pass dryRun: true to Batch itself"));
        }
    }
    if name == "TextReplace" && op.arguments.contains_key("filePattern") {
        return Err(ToolError::new(
            "filePattern is not accepted inside a Batch: each operation edits one file",
        )
        .suggest("Give each file its own TextReplace operation with filePath, or call TextReplace with filePattern on its own"));
    }
    if name == "edit_code" && op.arguments.contains_key("validate_command") {
        return Err(ToolError::new(
            "validate_command is not accepted inside a Batch, which writes its files together",
        )
        .suggest("Run the batch, then call edit_code's validation separately or check the build yourself"));
    }
    let args = Value::Object(op.arguments.clone());
    match name {
        "TextPatch" => erased::<TextPatch>(args),
        "TextReplace" => erased::<TextReplace>(args),
        _ => erased::<EditCode>(args),
    }
}

/// The refusal of the whole batch because operation `index` (0-based) was
/// refused with `error`.
fn refused(error: ToolError, index: usize, tool: &str, file: Option<&str>) -> ToolError {
    let position = index + 1;
    let on = file.map(|f| format!(" on {f}")).unwrap_or_default();
    let own = error.message.trim_end_matches("; nothing was written");
    ToolError {
        message: format!(
            "Batch refused: operation {position} ({tool}{on}) failed: {own}; nothing was written"
        ),
        ..error
    }
    .detail("operation", json!(position))
    .detail("tool", json!(tool))
}
