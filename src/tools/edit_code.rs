//! edit_code: search-and-replace for source code that tolerates the drift an
//! LLM's memory of a file has (whitespace, indentation, a typo, look-alike
//! quotes, `...` elision), refuses ambiguous and absent matches, and refuses
//! an edit that breaks the file's syntax. Seed 004, with DESIGN deviation 4:
//! the syntax gate compares before and after.

use std::path::PathBuf;
use std::time::Duration;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::args::TextArg;
use super::broken_links::edit_note;
use super::context::ToolContext;
use super::edit_report::{context, join_notes};
use super::error::ToolError;
use super::planned_edit::{FileArgs, PlannedEdit, run_planned};
use super::syntax_gate;
use super::tool::{Effects, Tool, Toolset};
use crate::text::diff::{DEFAULT_CONTEXT, unified_diff};
use crate::text::document::{Document, Splice};
use crate::text::edit::LineSpan;
use crate::text::encoding::TextEncoding;
use crate::text::excerpt::ContextLines;
use crate::text::format::{Format, format_of};
use crate::text::fuzzy::{self, EditRequest, Refusal, Strategy};
use crate::text::lines::Eol;
use crate::text::syntax::{self, GateOutcome};
use crate::workspace::OpenFile;
use crate::workspace::batch::Edited;
use crate::workspace::external::{Command, run};
use crate::workspace::formatters::{Formatted, format};
use crate::workspace::roots::ResolvedPath;

/// How long a validate_command may run.
pub const VALIDATE_TIME_LIMIT: Duration = Duration::from_secs(120);
/// Characters of a validate_command's output returned.
pub const VALIDATE_OUTPUT_CHARS: usize = 4000;

/// The edit_code tool.
pub struct EditCode;

/// How edit_code applies new_content.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum EditStrategy {
    /// Replace the one place search_context matches; refuse if several match.
    #[default]
    #[serde(alias = "replace_block")]
    SingleMatch,
    /// Replace every place search_context matches.
    ReplaceAll,
    /// Write new_content as the whole file (creating it if needed).
    OverwriteFile,
}

impl EditStrategy {
    fn name(self) -> &'static str {
        match self {
            EditStrategy::SingleMatch => "single_match",
            EditStrategy::ReplaceAll => "replace_all",
            EditStrategy::OverwriteFile => "overwrite_file",
        }
    }
}

/// Parameters of edit_code.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EditCodeParams {
    /// Path of the file (absolute or relative to the first root).
    #[schemars(description = "")] // said once, in the server's instructions
    pub file_path: String,
    /// The lines to change and a few around them, enough to be unique; not with overwrite_file.
    #[serde(default)]
    pub search_context: Option<TextArg>,
    /// Replaces search_context (or the whole file).
    pub new_content: TextArg,
    /// single_match: one place; replace_all: every place; overwrite_file: the whole file, created if needed.
    #[serde(default)]
    pub strategy: EditStrategy,
    /// Similarity a tolerant match needs (default 0.9; 1 = exact only).
    #[serde(default)]
    pub threshold: Option<f64>,
    /// Run in the root after the write, e.g. "cargo check"; a failure is a warning. Needs --allow-validate-command.
    #[serde(default)]
    pub validate_command: Option<String>,
    /// fileHash from an earlier response; the edit is refused if the file changed since.
    #[schemars(description = "")] // said once, in the server's instructions
    #[serde(default)]
    pub expected_hash: Option<String>,
    /// If true, return the diff and the response without writing anything.
    #[schemars(description = "")] // said once, in the server's instructions
    #[serde(default)]
    pub dry_run: bool,
}

/// How search_context was matched.
#[derive(Debug, Serialize, JsonSchema)]
pub struct MatchInfo {
    /// exact, line_endings, whitespace, indentation, unicode, fuzzy or elision.
    pub kind: &'static str,
    /// What was tolerated, e.g. ["indentation", "line_endings"].
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub adjustments: Vec<&'static str>,
    /// Similarity from 0 to 100.
    pub score: f64,
    /// The lines matched, as they were before the edit.
    pub lines: LineSpan,
}

/// The syntax check's verdict.
#[derive(Debug, Serialize, JsonSchema)]
pub struct SyntaxInfo {
    /// The language checked.
    pub language: &'static str,
    /// Remarks, e.g. errors the file already had.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// What validate_command reported.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Validation {
    /// The command run.
    pub command: String,
    /// Whether it succeeded.
    pub passed: bool,
    /// Its exit code, if it exited.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i32>,
    /// Whether it was stopped for taking too long.
    pub timed_out: bool,
    /// The end of its output (stdout then stderr).
    pub output: String,
}

/// Result of edit_code.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct EditCodeOutput {
    /// overwrite_file: whether the file was created or overwritten, and its
    /// line count (a replacement says what it did in `matches`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// The edited file, for validate_command's root (the caller named it,
    /// so the reply does not).
    #[serde(skip)]
    pub file_path: String,
    /// Each place replaced, with how it matched.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub matches: Vec<MatchInfo>,
    /// Traces of how the texts reached the server that were undone in both
    /// search_context and new_content before matching, e.g. "line numbers".
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub normalized: Vec<&'static str>,
    /// Where the new code is in the edited file (first to last replacement).
    pub affected_lines: LineSpan,
    /// Lines added minus lines removed.
    pub lines_delta: isize,
    /// The unified diff of what was (or, in a dry run, would be) written.
    pub diff: String,
    /// Three lines before and after the first replacement, in the edited file.
    pub context: ContextLines,
    /// The syntax check, for languages with a parser.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub syntax: Option<SyntaxInfo>,
    /// What the formatter did, when formatting is on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub formatting: Option<String>,
    /// validate_command's result.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub validation: Option<Validation>,
    /// Set when validation failed: the edit was written, but something needs attention.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warning: Option<String>,
    /// The file's hash after the edit, and dryRun when nothing was written.
    #[serde(flatten)]
    pub write: WriteFields,
    /// Remarks.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// The hash and dry-run marker (the diff is always in `diff`).
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WriteFields {
    /// The file's hash after the edit (in a dry run: what it would be).
    pub file_hash: String,
    /// Present and true when nothing was written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dry_run: Option<bool>,
    /// The change's id in the edit history: UndoEdit takes it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub change_id: Option<String>,
}

impl WriteFields {
    /// The fields of a committed (or, in a dry run, checked) edit.
    fn of<T>(edited: &Edited<T>) -> WriteFields {
        WriteFields {
            file_hash: edited.after.hash(),
            dry_run: (!edited.written).then_some(true),
            change_id: edited.history.change_id().map(str::to_string),
        }
    }
}

impl Tool for EditCode {
    type Params = EditCodeParams;
    type Output = EditCodeOutput;

    const NAME: &'static str = "edit_code";
    const TITLE: &'static str = "Edit source code by search and replace";
    const TOOLSET: Toolset = Toolset::Code;
    const EFFECTS: Effects = Effects::EDITS;

    fn description() -> &'static str {
        "Edits source code: replaces search_context (copied from the file, a few lines around the change) by new_content. Tolerates drift (whitespace, indentation, CRLF, quotes, a typo, a blank line, ... for an unchanged middle); refuses an ambiguous or missing match, listing candidates or the closest block, and an edit that breaks the syntax. For prose use TextReplace. Example: {\"file_path\": \"a.rs\", \"search_context\": \"let x = 1;\", \"new_content\": \"let x = 2;\"}"
    }

    fn run(ctx: &ToolContext, params: EditCodeParams) -> Result<EditCodeOutput, ToolError> {
        let mut output = run_planned::<Self>(ctx, &params)?;
        if let Some(command) = &params.validate_command
            && !params.dry_run
        {
            let validation = validate(
                command,
                &ctx.workspace
                    .roots()
                    .containing(std::path::Path::new(&output.file_path))
                    .map(|r| r.to_path_buf()),
            );
            if !validation.passed {
                output.warning = Some(format!(
                    "The edit was written, but validate_command failed{}: see validation.output. You may need to fix this or dependent files next",
                    if validation.timed_out {
                        " (it ran out of time)"
                    } else {
                        ""
                    }
                ));
            }
            output.validation = Some(validation);
        }
        Ok(output)
    }
}

/// What planning an edit_code call hands on to its reply.
pub enum CodePlan {
    /// single_match or replace_all.
    Replace {
        /// The places matched and replaced.
        plan: fuzzy::Plan,
        /// Where each replacement is in the edited file.
        spans: Vec<LineSpan>,
        /// The syntax check.
        syntax: Option<SyntaxInfo>,
        /// What the formatter did.
        formatting: Option<String>,
    },
    /// overwrite_file.
    Overwrite {
        /// The syntax check.
        syntax: Option<SyntaxInfo>,
        /// What the formatter did.
        formatting: Option<String>,
    },
}

impl PlannedEdit for EditCode {
    type Plan = CodePlan;

    fn file(params: &EditCodeParams) -> Result<FileArgs<'_>, ToolError> {
        Ok(FileArgs {
            may_create: params.strategy == EditStrategy::OverwriteFile,
            ..FileArgs::existing(
                &params.file_path,
                params.expected_hash.as_deref(),
                params.dry_run,
            )
        })
    }

    fn check(ctx: &ToolContext, params: &EditCodeParams) -> Result<(), ToolError> {
        if params.validate_command.is_some() && !ctx.settings.allow_validate_command {
            return Err(ToolError::new(
                "validate_command was given, but this server was started without --allow-validate-command, so it runs no commands; nothing was written",
            )
            .suggest("Leave validate_command out, or ask the user to start the server with --allow-validate-command"));
        }
        let threshold = params.threshold.unwrap_or(fuzzy::DEFAULT_THRESHOLD);
        if !(0.0..=1.0).contains(&threshold) || threshold.is_nan() {
            let mut err = ToolError::new(format!(
                "threshold {threshold} is not between 0 and 1; nothing was written"
            ));
            if (1.0..=100.0).contains(&threshold) {
                err = err.suggest(format!(
                    "threshold is a fraction: pass {} for {threshold}%",
                    threshold / 100.0
                ));
            }
            return Err(err.suggest("Leave threshold out for the default 0.9"));
        }
        match (params.strategy, &params.search_context) {
            (EditStrategy::OverwriteFile, Some(_)) => Err(ToolError::new(
                "search_context was given with strategy overwrite_file, which replaces the whole file; nothing was written",
            )
            .suggest("Leave search_context out to overwrite the file, or use strategy single_match to replace only the matched part")),
            (EditStrategy::OverwriteFile, None) | (_, Some(_)) => Ok(()),
            (strategy, None) => Err(ToolError::new(format!(
                "strategy {} needs search_context: the code to find",
                strategy.name()
            ))
            .suggest("Copy the lines to change (plus a few around them) into search_context")
            .suggest("Or use strategy overwrite_file to replace the whole file")),
        }
    }

    fn plan(
        ctx: &ToolContext,
        params: &EditCodeParams,
        file: &OpenFile,
    ) -> Result<(Document, CodePlan), ToolError> {
        Self::check(ctx, params)?;
        // The roots, when the result is to be formatted: the formatter runs outside them.
        let format_after = ctx.settings.format_after_edit.then(|| FormatRun {
            roots: ctx.workspace.roots().list().to_vec(),
            limit: ctx.settings.format_timeout,
        });
        match (params.strategy, &params.search_context) {
            (EditStrategy::OverwriteFile, _) => overwrite(params, file, format_after.as_ref()),
            (strategy, Some(search)) => replace(
                params,
                file,
                search.as_str(),
                strategy,
                format_after.as_ref(),
            ),
            (_, None) => unreachable!("checked above"),
        }
    }

    fn reply(
        ctx: &ToolContext,
        _params: &EditCodeParams,
        edited: Edited<CodePlan>,
    ) -> Result<EditCodeOutput, ToolError> {
        let history_note = join_notes([edit_note(ctx, &edited), edited.history.note()]);
        let mut output = match &edited.value {
            CodePlan::Replace { .. } => replace_output(edited),
            CodePlan::Overwrite { .. } => overwrite_output(edited),
        };
        output.note = join_notes([output.note.take(), history_note]);
        Ok(output)
    }
}

/// single_match and replace_all.
fn replace(
    params: &EditCodeParams,
    file: &OpenFile,
    search: &str,
    strategy: EditStrategy,
    format_after: Option<&FormatRun>,
) -> Result<(Document, CodePlan), ToolError> {
    let threshold = params.threshold.unwrap_or(fuzzy::DEFAULT_THRESHOLD);
    let fuzzy_strategy = match strategy {
        EditStrategy::ReplaceAll => Strategy::ReplaceAll,
        _ => Strategy::SingleMatch,
    };
    let text = file.doc.text();
    let request = EditRequest::new(search, params.new_content.as_str())
        .with_threshold(threshold)
        .with_strategy(fuzzy_strategy);
    let plan = fuzzy::plan_edit(text, &request)
        .map_err(|refusal| refusal_error(refusal, &file.path.display(), &file.doc))?;
    if plan.changes_nothing(text) {
        return Err(ToolError::new(format!(
            "new_content makes no change to the matched lines of {}; nothing was written",
            file.path.display()
        ))
        .suggest("Send the code as it should be after the edit in new_content"));
    }
    let splices: Vec<Splice> = plan
        .splices()
        .map(|s| Splice::new(s.range.clone(), s.text.clone()))
        .collect();
    let after = file.doc.apply(&splices).map_err(|e| {
        ToolError::new(format!(
            "Cannot write {}: {e}; nothing was written",
            file.path.display()
        ))
    })?;
    let spans = new_spans(&after, &splices);
    let edited_lines = match spans.as_slice() {
        [one] => Some((one.start, one.end)),
        _ => None,
    };
    let (after, syntax, formatting) =
        check_and_format(&file.path, &file.doc, after, edited_lines, format_after)?;
    Ok((
        after,
        CodePlan::Replace {
            plan,
            spans,
            syntax,
            formatting,
        },
    ))
}

/// The reply to single_match and replace_all.
fn replace_output(edited: Edited<CodePlan>) -> EditCodeOutput {
    let write = WriteFields::of(&edited);
    let CodePlan::Replace {
        plan,
        spans,
        syntax,
        formatting,
    } = edited.value
    else {
        unreachable!("a replace plan")
    };
    let matches: Vec<MatchInfo> = plan
        .edits
        .iter()
        .map(|e| MatchInfo {
            kind: e.kind.as_str(),
            adjustments: e.adjustments.iter().map(|a| a.as_str()).collect(),
            score: (e.score * 10.0).round() / 10.0,
            lines: LineSpan::new(e.lines.start, e.lines.end),
        })
        .collect();
    let first = spans.first().copied().unwrap_or(LineSpan::new(1, 0));
    let last = spans.last().copied().unwrap_or(first);
    let near_misses = (!plan.near_misses.is_empty()).then(|| {
        let mut lines: Vec<String> = plan
            .near_misses
            .iter()
            .take(LISTED_MATCHES)
            .map(|c| c.lines.to_string())
            .collect();
        if plan.near_misses.len() > LISTED_MATCHES {
            lines.push(format!("and {} more", plan.near_misses.len() - LISTED_MATCHES));
        }
        format!(
            "{} similar place{} {} left unchanged (lines {}): they are not identical to the replaced code",
            plan.near_misses.len(),
            if plan.near_misses.len() == 1 { "" } else { "s" },
            if plan.near_misses.len() == 1 { "was" } else { "were" },
            lines.join(", ")
        )
    });
    let cut = (matches.len() > LISTED_MATCHES).then(|| {
        format!(
            "matches lists the first {LISTED_MATCHES} of {} places",
            matches.len()
        )
    });
    let note = join_notes([near_misses, cut]);
    let mut matches = matches;
    matches.truncate(LISTED_MATCHES);
    EditCodeOutput {
        message: None,
        file_path: edited.path.display(),
        matches,
        normalized: plan.normalized.clone(),
        affected_lines: LineSpan::new(first.start, last.end),
        lines_delta: edited.after.line_count() as isize - edited.before.line_count() as isize,
        diff: unified_diff(
            edited.before.text(),
            edited.after.text(),
            &edited.path.relative().display().to_string(),
            DEFAULT_CONTEXT,
        ),
        context: context(&edited.after, first),
        syntax,
        formatting,
        validation: None,
        warning: None,
        write,
        note,
    }
}

/// How many places `matches` and the near-miss note list.
const LISTED_MATCHES: usize = 100;

/// Where each splice's text sits in the edited document.
fn new_spans(after: &Document, splices: &[Splice]) -> Vec<LineSpan> {
    let mut shift: isize = 0;
    splices
        .iter()
        .map(|s| {
            let start = (s.range.start as isize + shift) as usize;
            shift += s.text.len() as isize - s.range.len() as isize;
            let first = after.lines().line_of_offset(start);
            let last = if s.text.is_empty() {
                first
            } else {
                after.lines().line_of_offset(start + s.text.len() - 1)
            };
            LineSpan::new(first, last.max(first))
        })
        .collect()
}

/// How the formatter is run, when `--format` is on: outside the roots,
/// within a time limit.
struct FormatRun {
    roots: Vec<PathBuf>,
    limit: Duration,
}

/// The syntax gate, then the formatter if asked for.
fn check_and_format(
    path: &ResolvedPath,
    before: &Document,
    after: Document,
    edited_lines: Option<(usize, usize)>,
    format_after: Option<&FormatRun>,
) -> Result<(Document, Option<SyntaxInfo>, Option<String>), ToolError> {
    let Format::Code(language) = format_of(&path.real) else {
        return Ok((after, None, None));
    };
    let passed = syntax_gate::check(
        &path.real,
        &path.display(),
        before.text(),
        after.text(),
        edited_lines,
        "new_content",
    )?;
    let syntax = SyntaxInfo {
        language: language.name(),
        note: passed.and_then(|p| p.note),
    };
    let Some(run) = format_after else {
        return Ok((after, Some(syntax), None));
    };
    let name = path
        .real
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    match format(language, &name, after.text(), &run.roots, run.limit) {
        // A formatter is another program: what it prints must parse at least
        // as well as what it was given.
        Formatted::Text { tool, text }
            if text != after.text()
                && matches!(
                    syntax::check_edit(language, after.text(), &text, None),
                    GateOutcome::Refuse(_)
                ) =>
        {
            Ok((
                after,
                Some(syntax),
                Some(format!(
                    "{tool} printed text with more syntax errors than it was given; the file was written unformatted"
                )),
            ))
        }
        Formatted::Text { tool, text } if text != after.text() => {
            let formatted =
                Document::from_text(text, after.encoding(), after.has_bom()).map_err(|e| {
                    ToolError::new(format!(
                        "The formatted text cannot be written in the file's encoding: {e}"
                    ))
                })?;
            Ok((
                formatted,
                Some(syntax),
                Some(format!("formatted with {tool}")),
            ))
        }
        Formatted::Text { tool, .. } => {
            Ok((after, Some(syntax), Some(format!("{tool} made no changes"))))
        }
        Formatted::Skipped(why) => Ok((after, Some(syntax), Some(why))),
    }
}

/// overwrite_file: the whole file, created if needed.
fn overwrite(
    params: &EditCodeParams,
    file: &OpenFile,
    format_after: Option<&FormatRun>,
) -> Result<(Document, CodePlan), ToolError> {
    let content = params.new_content.as_str();
    if !file.path.exists {
        if let Some(expected) = &params.expected_hash {
            return Err(ToolError::new(format!(
                "expected_hash {expected} was given, but {} does not exist yet; nothing was written",
                file.path.display()
            ))
            .suggest("Leave expected_hash out to create the file"));
        }
        let after = Document::from_text(content, TextEncoding::Utf8, false)
            .map_err(|e| ToolError::new(e.to_string()))?;
        let (after, syntax, formatting) =
            check_and_format(&file.path, &file.doc, after, None, format_after)?;
        return Ok((after, CodePlan::Overwrite { syntax, formatting }));
    }
    // The new text takes the file's line endings, like every edit.
    let eol = file.doc.eol_style().preferred();
    let normalized = content.replace("\r\n", "\n");
    let text = if eol == Eol::Crlf {
        normalized.replace('\n', "\r\n")
    } else {
        normalized
    };
    // A splice over the whole text keeps the encoding and the BOM (and
    // drops a U+FEFF copied from a raw read of the file).
    let whole = Splice::new(0..file.doc.text().len(), text);
    let after = file.doc.apply(std::slice::from_ref(&whole)).map_err(|e| {
        ToolError::new(format!(
            "Cannot write {}: {e}; nothing was written",
            file.path.display()
        ))
    })?;
    let (after, syntax, formatting) =
        check_and_format(&file.path, &file.doc, after, None, format_after)?;
    Ok((after, CodePlan::Overwrite { syntax, formatting }))
}

/// The reply to overwrite_file: the whole file is the affected range.
fn overwrite_output(edited: Edited<CodePlan>) -> EditCodeOutput {
    let message = if edited.path.exists {
        format!(
            "Overwrote the file ({} lines, was {})",
            edited.after.line_count(),
            edited.before.line_count()
        )
    } else {
        let lines = edited.after.line_count();
        format!(
            "Created the file ({lines} line{})",
            if lines == 1 { "" } else { "s" }
        )
    };
    let lines = edited.after.line_count();
    let write = WriteFields::of(&edited);
    let CodePlan::Overwrite { syntax, formatting } = edited.value else {
        unreachable!("an overwrite plan")
    };
    EditCodeOutput {
        message: Some(message),
        file_path: edited.path.display(),
        matches: Vec::new(),
        normalized: Vec::new(),
        affected_lines: LineSpan::new(1, lines),
        lines_delta: lines as isize - edited.before.line_count() as isize,
        diff: unified_diff(
            edited.before.text(),
            edited.after.text(),
            &edited.path.relative().display().to_string(),
            DEFAULT_CONTEXT,
        ),
        context: context(&edited.after, LineSpan::new(1, lines)),
        syntax,
        formatting,
        validation: None,
        warning: None,
        write,
        note: None,
    }
}

fn refusal_error(refusal: Refusal, path: &str, doc: &Document) -> ToolError {
    let details = serde_json::to_value(&refusal).unwrap_or(Value::Null);
    let mut err = ToolError::new(format!("edit_code on {path}: {refusal}"))
        .suggest_all(refusal.suggestions())
        .detail("fileHash", json!(doc.hash()));
    if let Value::Object(map) = details {
        for (key, value) in map {
            err = err.detail(&key, value);
        }
    }
    err
}

fn validate(command: &str, root: &Option<std::path::PathBuf>) -> Validation {
    let mut cmd = Command::shell(command);
    if let Some(root) = root {
        cmd = cmd.in_dir(root.clone());
    }
    match run(&cmd, VALIDATE_TIME_LIMIT) {
        Ok(out) => {
            let mut output = out.stdout;
            if !out.stderr.is_empty() {
                if !output.is_empty() {
                    output.push('\n');
                }
                output.push_str(&out.stderr);
            }
            // The end of the output holds the verdict of most build tools.
            let chars: Vec<char> = output.chars().collect();
            let output = if chars.len() > VALIDATE_OUTPUT_CHARS {
                format!(
                    "…{}",
                    chars[chars.len() - VALIDATE_OUTPUT_CHARS..]
                        .iter()
                        .collect::<String>()
                )
            } else {
                output
            };
            Validation {
                command: command.to_string(),
                passed: out.success,
                exit_code: out.code,
                timed_out: out.timed_out,
                output,
            }
        }
        Err(e) => Validation {
            command: command.to_string(),
            passed: false,
            exit_code: None,
            timed_out: false,
            output: format!("the command could not be run: {e}"),
        },
    }
}
