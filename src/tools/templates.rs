//! The `template` and `variables` parameters of the tools that insert or
//! create text: finding the template (a file in the root's templates folder,
//! or the text itself) and filling its placeholders with the local time, the
//! target file's name and the caller's variables.
//!
//! The time is the server's local time (its `TZ`, else the system's zone):
//! a daily note written at 00:30 is dated that day, as note apps date it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use chrono::{Datelike, Local, Offset, Timelike};

use super::context::ToolContext;
use super::error::ToolError;
use crate::text::template::{
    Moment, TemplateError, TemplateValues, fill, is_variable_name, known_placeholders,
};
use crate::workspace::WorkspaceError;
use crate::workspace::listing::list_files;
use crate::workspace::roots::PathError;

/// The templates folder when `--templates-dir` is not given.
pub const DEFAULT_TEMPLATES_DIR: &str = "templates";

/// Templates listed in a "no such template" refusal.
const LISTED_TEMPLATES: usize = 20;

/// A filled template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Filled {
    /// The text with every placeholder filled.
    pub text: String,
    /// Where the template came from, for the reply.
    pub note: String,
}

/// The current local time.
pub fn now() -> Moment {
    let now = Local::now();
    Moment {
        year: now.year(),
        month: now.month(),
        day: now.day(),
        hour: now.hour(),
        minute: now.minute(),
        second: now.second().min(59),
        offset_seconds: now.offset().fix().local_minus_utc(),
    }
}

/// Whether `template` is the template's text rather than a template's name:
/// it holds a line break or a placeholder.
pub fn is_inline(template: &str) -> bool {
    template.contains('\n') || template.contains("{{")
}

/// Finds and fills `template` for a file at `target` (a real path) in `root`.
pub fn fill_template(
    ctx: &ToolContext,
    template: &str,
    variables: &BTreeMap<String, String>,
    target: &Path,
    root: &Path,
) -> Result<Filled, ToolError> {
    check_variables(variables)?;
    let (text, source) = if is_inline(template) {
        (template.to_string(), "the template text given".to_string())
    } else {
        let (text, path) = read_template(ctx, template.trim(), root)?;
        (text, format!("template {}", path.display()))
    };
    let title = target
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    // A filled template larger than a file may be could never be written.
    let max_len = usize::try_from(ctx.workspace.options().max_file_size).unwrap_or(usize::MAX);
    let values = TemplateValues {
        now: now(),
        title: &title,
        variables,
        max_len,
    };
    let text = fill(&text, &values).map_err(|e| {
        let error = ToolError::new(format!("Cannot fill {source}: {e}; nothing was written"));
        if matches!(e, TemplateError::TooLong { .. }) {
            return error.suggest(
                "Use shorter variables or fewer placeholders, or insert the text in several calls",
            );
        }
        error
            .suggest("Pass the missing values in variables, e.g. {\"project\": \"Garden\"}")
            .suggest("Write \\{{ for a literal {{ that is not a placeholder")
    })?;
    Ok(Filled {
        text,
        note: format!("Filled {source}"),
    })
}

fn check_variables(variables: &BTreeMap<String, String>) -> Result<(), ToolError> {
    if let Some(bad) = variables.keys().find(|k| !is_variable_name(k)) {
        return Err(ToolError::new(format!(
            "variables has a key '{bad}' that cannot be a placeholder name"
        ))
        .suggest("Names start with a letter or _ and hold letters, digits, _, - or ., e.g. {\"project\": \"Garden\"}"));
    }
    Ok(())
}

/// The templates folder of `root`.
pub fn templates_dir(ctx: &ToolContext, root: &Path) -> PathBuf {
    let dir = ctx
        .settings
        .templates_dir
        .as_deref()
        .unwrap_or(Path::new(DEFAULT_TEMPLATES_DIR));
    if dir.is_absolute() {
        dir.to_path_buf()
    } else {
        root.join(dir)
    }
}

/// Reads the template called `name` (`.md` optional) from `root`'s
/// templates folder.
fn read_template(
    ctx: &ToolContext,
    name: &str,
    root: &Path,
) -> Result<(String, PathBuf), ToolError> {
    let dir = templates_dir(ctx, root);
    let mut candidates = vec![dir.join(name)];
    if Path::new(name).extension().is_none() {
        candidates.push(dir.join(format!("{name}.md")));
    }
    for candidate in &candidates {
        let Some(given) = candidate.to_str() else {
            continue;
        };
        match ctx.workspace.read(given, None) {
            Ok(file) => return Ok((file.doc.text().to_string(), file.path.real)),
            Err(WorkspaceError::Path(PathError::NotFound { .. })) => continue,
            Err(other) => {
                return Err(ToolError::from(other).suggest(format!(
                    "Templates are read from {}; check the file there",
                    dir.display()
                )));
            }
        }
    }
    let available = available_templates(ctx, &dir);
    let mut err = ToolError::new(format!(
        "There is no template '{name}' in {}; nothing was written",
        dir.display()
    ));
    err = if available.is_empty() {
        err.suggest(
            "The templates folder has no templates; add one there (e.g. daily.md), or start the server with --templates-dir",
        )
    } else {
        err.suggest(format!("Templates there: {}", available.join(", ")))
    };
    Err(err.suggest(
        "To pass the template's text itself, include a line break or a {{placeholder}} in it",
    ))
}

/// The names of the templates in `dir`, relative to it.
fn available_templates(ctx: &ToolContext, dir: &Path) -> Vec<String> {
    let Some(given) = dir.to_str() else {
        return Vec::new();
    };
    let Ok(resolved) = ctx.workspace.resolve_dir(given) else {
        return Vec::new();
    };
    list_files(&ctx.workspace.roots(), &resolved, true, 0, LISTED_TEMPLATES)
        .files
        .iter()
        .filter_map(|f| f.path.strip_prefix(&resolved.real).ok())
        .map(|p| p.display().to_string())
        .collect()
}

/// The known placeholders, for descriptions and refusals.
pub fn placeholder_help() -> String {
    known_placeholders(&BTreeMap::new()).join(", ")
}
