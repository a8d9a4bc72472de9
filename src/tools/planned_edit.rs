//! The one write path of the tools that change one file (TextPatch,
//! TextReplace, edit_code and the editor tools): a tool plans its change
//! against a state of the file, without touching the disk, and the
//! workspace's committer applies it ([`crate::workspace::commit`]).
//!
//! A [`PlannedEdit`] names the file it changes, checks its arguments, plans
//! the new document from the file's content, and builds its reply from the
//! committed change. [`run_planned`] strings these together for a call of
//! its own; Batch plans several such calls against the files as the earlier
//! ones left them ([`ErasedEdit`]), and commits them as one change.

use serde_json::Value;

use super::args::parse_args;
use super::context::ToolContext;
use super::error::ToolError;
use super::tool::Tool;
use crate::text::document::Document;
use crate::text::encoding::TextEncoding;
use crate::workspace::batch::Edited;
use crate::workspace::commit::BatchItem;
use crate::workspace::commit::{Change, History};
use crate::workspace::roots::ResolvedPath;
use crate::workspace::{OpenFile, WorkspaceError};

/// The file a call changes, and how to read it.
#[derive(Debug, Clone, Copy)]
pub struct FileArgs<'a> {
    /// The path as the caller gave it.
    pub file_path: &'a str,
    /// The hash the file must still have.
    pub expected_hash: Option<&'a str>,
    /// The encoding to read it in (`None`: recognise it).
    pub encoding: Option<TextEncoding>,
    /// Whether the call may create the file.
    pub may_create: bool,
    /// Whether the call only shows what it would do.
    pub dry_run: bool,
}

impl<'a> FileArgs<'a> {
    /// An existing file, read as its bytes say.
    pub fn existing(
        file_path: &'a str,
        expected_hash: Option<&'a str>,
        dry_run: bool,
    ) -> FileArgs<'a> {
        FileArgs {
            file_path,
            expected_hash,
            encoding: None,
            may_create: false,
            dry_run,
        }
    }

    /// The transaction item of the file.
    pub fn item(&self) -> BatchItem<'a> {
        BatchItem {
            given: self.file_path,
            encoding: self.encoding,
            expected_hash: self.expected_hash,
            may_be_new: self.may_create,
        }
    }
}

/// A tool whose change to one file is planned against a state of it.
pub trait PlannedEdit: Tool {
    /// What planning hands on to the reply.
    type Plan;

    /// The file the call changes.
    fn file(params: &Self::Params) -> Result<FileArgs<'_>, ToolError>;

    /// Checks the arguments that do not depend on the file, before any file
    /// is read.
    fn check(_ctx: &ToolContext, _params: &Self::Params) -> Result<(), ToolError> {
        Ok(())
    }

    /// Plans the change against `file`: its content on disk or, in a batch,
    /// as the earlier operations left it (`file.path.exists` is false for a
    /// file that does not exist yet).
    fn plan(
        ctx: &ToolContext,
        params: &Self::Params,
        file: &OpenFile,
    ) -> Result<(Document, Self::Plan), ToolError>;

    /// The reply, once the change is committed (or, in a dry run, checked).
    fn reply(
        ctx: &ToolContext,
        params: &Self::Params,
        edited: Edited<Self::Plan>,
    ) -> Result<Self::Output, ToolError>;

    /// A workspace error as this tool words it.
    fn workspace_error(error: WorkspaceError) -> ToolError {
        error.into()
    }
}

/// Runs a call of a [`PlannedEdit`] tool on its own: checks, opens the file
/// under its lock, plans, commits, replies.
pub fn run_planned<T: PlannedEdit>(
    ctx: &ToolContext,
    params: &T::Params,
) -> Result<T::Output, ToolError> {
    T::check(ctx, params)?;
    let args = T::file(params)?;
    let transaction = ctx
        .workspace
        .transaction(&[args.item()], Vec::new())
        .map_err(|f| T::workspace_error(f.error))?;
    let (after, plan) = T::plan(ctx, params, &transaction.files()[0])?;
    let mut done = transaction
        .commit(Change::new(T::NAME, vec![Some(after)]), !args.dry_run)
        .map_err(|f| T::workspace_error(f.error))?;
    let before = done.before.pop().expect("one file");
    let after = done.after.pop().flatten().expect("the planned content");
    T::reply(
        ctx,
        params,
        Edited {
            path: before.path,
            before: before.doc,
            after,
            value: plan,
            written: done.written,
            history: done.history,
        },
    )
}

/// A call of a [`PlannedEdit`] tool with its types erased, as Batch holds it.
pub trait ErasedEdit {
    /// The tool's name.
    fn tool(&self) -> &'static str;
    /// The file the call changes.
    fn file(&self) -> Result<FileArgs<'_>, ToolError>;
    /// Checks the arguments that do not depend on the file.
    fn check(&self, ctx: &ToolContext) -> Result<(), ToolError>;
    /// Plans the change against `file`, keeping what the reply needs.
    fn plan(&mut self, ctx: &ToolContext, file: &OpenFile) -> Result<Document, ToolError>;
    /// The reply as JSON, for a change of the file at `path` from `before`
    /// to `after`.
    fn reply(
        &mut self,
        ctx: &ToolContext,
        path: ResolvedPath,
        before: Document,
        after: Document,
        written: bool,
        history: History,
    ) -> Result<Value, ToolError>;
}

struct Call<T: PlannedEdit> {
    params: T::Params,
    notes: Vec<String>,
    plan: Option<T::Plan>,
}

impl<T: PlannedEdit> ErasedEdit for Call<T> {
    fn tool(&self) -> &'static str {
        T::NAME
    }

    fn file(&self) -> Result<FileArgs<'_>, ToolError> {
        T::file(&self.params)
    }

    fn check(&self, ctx: &ToolContext) -> Result<(), ToolError> {
        T::check(ctx, &self.params)
    }

    fn plan(&mut self, ctx: &ToolContext, file: &OpenFile) -> Result<Document, ToolError> {
        let (after, plan) = T::plan(ctx, &self.params, file)?;
        self.plan = Some(plan);
        Ok(after)
    }

    fn reply(
        &mut self,
        ctx: &ToolContext,
        path: ResolvedPath,
        before: Document,
        after: Document,
        written: bool,
        history: History,
    ) -> Result<Value, ToolError> {
        let plan = self
            .plan
            .take()
            .ok_or_else(|| ToolError::new(format!("{} was not planned", T::NAME)))?;
        let output = T::reply(
            ctx,
            &self.params,
            Edited {
                path,
                before,
                after,
                value: plan,
                written,
                history,
            },
        )?;
        let mut value = serde_json::to_value(output)
            .map_err(|e| ToolError::new(format!("{} could not encode its result: {e}", T::NAME)))?;
        T::attach_notes(&mut value, std::mem::take(&mut self.notes));
        Ok(value)
    }
}

/// A call of `T` from its JSON arguments, checked as strictly as a call of
/// its own.
pub fn erased<T: PlannedEdit>(args: Value) -> Result<Box<dyn ErasedEdit>, ToolError> {
    let (params, notes) = parse_args::<T::Params>(T::NAME, args).map_err(T::advise_invalid_args)?;
    Ok(Box::new(Call::<T> {
        params,
        notes,
        plan: None,
    }))
}
