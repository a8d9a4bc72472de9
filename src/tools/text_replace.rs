//! TextReplace: exact search-and-replace, the preferred tool for inline edits.
//!
//! `oldText` is matched literally (line breaks match `\n` or `\r\n`). With
//! several matches and no `occurrence`, the call is refused with every match's
//! line (DESIGN deviation 1): a silent first-match edit is the most common way
//! an agent edits the wrong place. With `filePattern` instead of `filePath`,
//! the replacement is made in every matching file as one change
//! ([`super::replace_across`]). Both make the replacement of
//! [`super::replacement`].

use schemars::JsonSchema;
use serde::Serialize;

use super::context::ToolContext;
use super::error::ToolError;
use super::planned_edit::{FileArgs, PlannedEdit, run_planned};
use super::replace_across::{AcrossReply, replace_across};
use super::replacement::{
    ReplacePlan, ReplaceReply, TextReplaceParams, check_texts, plan_replace, replace_reply,
};
use super::tool::{Effects, Tool, Toolset};
use crate::text::document::Document;
use crate::workspace::OpenFile;
use crate::workspace::batch::Edited;

/// The TextReplace tool.
pub struct TextReplace;

/// Result of TextReplace: one file's replacement, or with filePattern, every file's.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TextReplaceOutput {
    /// The replacement in the file (with filePath).
    #[serde(flatten)]
    pub file: Option<ReplaceReply>,
    /// The replacements in every file (with filePattern).
    #[serde(flatten)]
    pub across: Option<AcrossReply>,
}

impl Tool for TextReplace {
    type Params = TextReplaceParams;
    type Output = TextReplaceOutput;

    const NAME: &'static str = "TextReplace";
    const TITLE: &'static str = "Replace exact text";
    const TOOLSET: Toolset = Toolset::Text;
    const EFFECTS: Effects = Effects::EDITS;

    fn description() -> &'static str {
        "Replaces exact text (literal, may span lines). Several matches are refused with their lines unless occurrence picks; missing text comes back with the closest text. With filePattern instead of filePath, replaces in every matching file, all or nothing. For edits by heading or lines use TextPatch. Example: {\"filePath\": \"a.md\", \"oldText\": \"teh\", \"newText\": \"the\"}"
    }

    fn run(ctx: &ToolContext, params: TextReplaceParams) -> Result<TextReplaceOutput, ToolError> {
        match (&params.file_path, &params.file_pattern) {
            (Some(_), Some(_)) => Err(ToolError::new(
                "filePath and filePattern were both given, but a replacement is made in one file or in the files a pattern selects",
            )
            .suggest("Pass filePath to edit one file, or filePattern (e.g. \"notes/**/*.md\") to edit every matching file")),
            (None, Some(pattern)) => Ok(TextReplaceOutput {
                file: None,
                across: Some(replace_across(ctx, &params, pattern)?),
            }),
            _ => run_planned::<Self>(ctx, &params),
        }
    }
}

impl PlannedEdit for TextReplace {
    type Plan = ReplacePlan;

    fn file(params: &TextReplaceParams) -> Result<FileArgs<'_>, ToolError> {
        let file_path = params.file_path.as_deref().ok_or_else(|| {
            ToolError::new("filePath is missing: say which file to edit")
                .suggest("Pass filePath, or filePattern (e.g. \"notes/**/*.md\") to edit every matching file")
        })?;
        Ok(FileArgs::existing(
            file_path,
            params.expected_hash.as_deref(),
            params.dry_run,
        ))
    }

    fn check(_ctx: &ToolContext, params: &TextReplaceParams) -> Result<(), ToolError> {
        check_texts(params)
    }

    fn plan(
        _ctx: &ToolContext,
        params: &TextReplaceParams,
        file: &OpenFile,
    ) -> Result<(Document, ReplacePlan), ToolError> {
        plan_replace(
            &file.doc,
            params.old_text.as_str(),
            params.new_text.as_str(),
            params.occurrence,
            &file.path.display(),
        )
    }

    fn reply(
        ctx: &ToolContext,
        _params: &TextReplaceParams,
        edited: Edited<ReplacePlan>,
    ) -> Result<TextReplaceOutput, ToolError> {
        Ok(TextReplaceOutput {
            file: Some(replace_reply(ctx, &edited)),
            across: None,
        })
    }
}
