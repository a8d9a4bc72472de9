//! TextSearch: text or a regex across many files, results grouped by file.
//!
//! The walk counts every match in every file it may look at (see
//! [`crate::workspace::search`]); only the files the response shows are read
//! again for the matches' text, context and nearest heading. So `totalMatches`
//! is always exact, a response stays small, and the Markdown outline is built
//! only for files that are shown. Results are sorted by path, and matches by
//! line, whatever order the threads found them in.
//!
//! With neither `directoryPath` nor `filePath`, every root is searched.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::context::ToolContext;
use super::error::ToolError;
use super::text_inspect::{MatchContext, NearestHeading, SearchMatch};
use super::tool::{Effects, Tool, Toolset};
use crate::text::excerpt::{MAX_CONTEXT_LINE, brief, clip_middle, cut, cut_around};
use crate::text::format::{Format, format_of};
use crate::text::lines::line_at;
use crate::text::markdown::{self, HeadingsThrough, SharedHeadings};
use crate::text::properties::NoteFilter;
use crate::workspace::WorkspaceError;
use crate::workspace::roots::ResolvedPath;
use crate::workspace::search::one_file::{FileText, search_one_file};
use crate::workspace::search::{
    FileHits, FilePattern, LineMatch, NoteFilterFn, Pattern, PatternError, SearchRequest,
    SearchScope, SearchSummary, search,
};

/// Most matches (or files, in files_only mode) a response may hold.
pub const MAX_RESULTS: usize = 500;
/// Most context lines around a match.
pub const MAX_CONTEXT: usize = 20;
/// Unreadable files listed by path; the rest are only counted.
pub const UNREADABLE_EXAMPLES: usize = 5;

/// The TextSearch tool.
pub struct TextSearch;

/// What TextSearch returns for each file.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum OutputMode {
    /// Matches with line, column, text, context and nearest heading.
    #[default]
    Content,
    /// Only the files with their match counts.
    FilesOnly,
}

fn default_context_lines() -> usize {
    1
}

fn default_max_results() -> usize {
    50
}

/// Parameters of TextSearch.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct TextSearchParams {
    /// Literal text, or a regex with regex; a match lies within one line.
    #[serde(deserialize_with = "super::args::bounded_pattern")]
    pub query: String,
    /// Rust regex syntax.
    #[serde(default)]
    pub regex: bool,
    /// Otherwise "readme" finds "README" too.
    #[serde(default)]
    pub case_sensitive: bool,
    /// Default: every root.
    #[serde(default)]
    pub directory_path: Option<String>,
    /// One file only.
    #[serde(default)]
    pub file_path: Option<String>,
    /// "*.md" matches names anywhere, "notes/**/*.md" paths from the root.
    #[serde(default, deserialize_with = "super::args::bounded_pattern_opt")]
    pub file_pattern: Option<String>,
    /// Lines around each match (at most 20).
    #[serde(default = "default_context_lines")]
    pub context_lines: usize,
    /// Matches shown, or files with files_only (at most 500).
    #[serde(default = "default_max_results")]
    pub max_results: usize,
    /// files_only: the files and their counts.
    #[serde(default)]
    pub output_mode: OutputMode,
    /// Only notes with this tag or a child of it, e.g. "project".
    #[serde(default)]
    pub tag: Option<String>,
    /// Only notes with these frontmatter values, e.g. {"status": "draft"} (null: the key exists).
    #[serde(default)]
    pub property: Option<serde_json::Map<String, serde_json::Value>>,
}

/// Result of TextSearch.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TextSearchOutput {
    /// The folders (or the file) searched.
    pub searched_paths: Vec<String>,
    /// Files with matches, sorted by path.
    pub files: Vec<FileResult>,
    /// Text files whose content was searched.
    pub files_searched: usize,
    /// Files with at least one match (listed or not).
    pub files_with_matches: usize,
    /// Matches in all files (shown or not).
    pub total_matches: usize,
    /// Whether some matches or files are not in this response (maxResults, or a cancelled search).
    pub truncated: bool,
    /// Binary files, skipped.
    pub binary_files: usize,
    /// Symbolic links, which are not followed.
    #[serde(skip_serializing_if = "is_zero")]
    pub links_skipped: usize,
    /// Files and folders that could not be read.
    pub unreadable: UnreadableReport,
    /// How to see more, or why nothing was found.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// One file's matches.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FileResult {
    /// The file.
    pub file_path: String,
    /// How many matches the file holds (all of them, shown or not).
    pub match_count: usize,
    /// content mode: the matches shown, in line order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matches: Option<Vec<SearchMatch>>,
}

/// Files and folders that could not be searched.
#[derive(Debug, Serialize, JsonSchema)]
pub struct UnreadableReport {
    /// How many.
    pub count: usize,
    /// The first few, by path, with the reason.
    pub examples: Vec<UnreadableFile>,
}

/// A file or folder that could not be searched.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct UnreadableFile {
    /// The file or folder.
    pub file_path: String,
    /// Why, e.g. permission denied, not UTF-8, too large.
    pub reason: String,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Tool for TextSearch {
    type Params = TextSearchParams;
    type Output = TextSearchOutput;

    const NAME: &'static str = "TextSearch";
    const TITLE: &'static str = "Search many files";
    const TOOLSET: Toolset = Toolset::Text;
    const EFFECTS: Effects = Effects::READ_ONLY;

    fn description() -> &'static str {
        "Finds text or a regex in every root, a folder, a glob or one file: matches by file with line, column, context and the nearest heading; totalMatches counts all. tag and property keep only notes with that tag or those frontmatter values. Skips hidden, .gitignored and binary files. In one known file use TextInspect search. Example: {\"query\": \"TODO\", \"filePattern\": \"notes/**/*.md\"}"
    }

    fn run(ctx: &ToolContext, params: TextSearchParams) -> Result<TextSearchOutput, ToolError> {
        check_limits(&params)?;
        let pattern = Pattern::new(&params.query, params.regex, params.case_sensitive)
            .map_err(|e| pattern_error(e, &params.query))?;
        let file_pattern = params
            .file_pattern
            .as_deref()
            .map(FilePattern::new)
            .transpose()
            .map_err(|e| {
                ToolError::new(e.to_string()).suggest(
                    "Use * for any characters within a name, ** for any folders and {a,b} for alternatives, e.g. \"*.md\" or \"notes/**/*.md\"",
                )
            })?;
        let scope = scope(ctx, &params)?;
        let searched_paths = match &scope {
            SearchScope::File(path) => vec![path.display()],
            SearchScope::Folders(folders) => folders.iter().map(ResolvedPath::display).collect(),
        };

        let workspace = &ctx.workspace;
        let cancel = ctx.cancel_flag();
        let report = |done: usize| {
            ctx.progress(
                done as f64,
                None,
                format!("{done} files searched for '{}'", cut(&params.query, 60)),
            )
        };
        let roots = workspace.roots();
        let note_filter = (params.tag.is_some() || params.property.is_some()).then(|| {
            NoteFilter::new(
                params.tag.clone(),
                params.property.clone().unwrap_or_default(),
            )
        });
        // Tags and properties belong to Markdown notes: other files never pass.
        let accepts = |path: &std::path::Path, text: &str| {
            note_filter
                .as_ref()
                .is_none_or(|f| format_of(path) == Format::Markdown && f.accepts(text))
        };
        let request = SearchRequest {
            roots: &roots,
            scope,
            pattern: &pattern,
            file_pattern: file_pattern.as_ref(),
            filter: note_filter.as_ref().map(|_| &accepts as &NoteFilterFn),
            extensions: &workspace.options().extensions,
            max_file_size: workspace.options().max_file_size,
            cancel: &cancel,
            progress: &report,
        };
        // One file is searched and shown in one go: its text read once, and
        // the headings above its matches found while the matches are counted.
        let mut one_text = FileText::default();
        let one = match &request.scope {
            SearchScope::File(path) if params.output_mode == OutputMode::Content => {
                let markdown = format_of(&path.real) == Format::Markdown;
                let headings = markdown.then_some(SharedHeadings::new);
                Some(search_one_file(
                    &request,
                    path,
                    params.max_results,
                    &mut one_text,
                    headings,
                ))
            }
            _ => None,
        };
        let (summary, one) = match one {
            Some(one) => (one.summary, Some((one.text, one.matches, one.beside))),
            None => (search(&request), None),
        };

        let total_matches = summary.total_matches();
        let mut notes = Vec::new();
        let (files, shown) = match params.output_mode {
            OutputMode::FilesOnly => {
                let files: Vec<FileResult> = summary
                    .files
                    .iter()
                    .take(params.max_results)
                    .map(|hits| FileResult {
                        file_path: hits.path.display(),
                        match_count: hits.matches,
                        matches: None,
                    })
                    .collect();
                let listed = files.len();
                (files, listed)
            }
            OutputMode::Content => {
                let details = Details {
                    ctx,
                    pattern: &pattern,
                    context_lines: params.context_lines,
                };
                match (one, summary.files.first()) {
                    (Some((text, matches, headings)), Some(hits)) => {
                        let shown = matches.len();
                        let file = details.file_result(hits, text, &matches, headings.as_ref());
                        (vec![file], shown)
                    }
                    (Some(_), None) => (Vec::new(), 0),
                    (None, _) => details.collect(&summary.files, params.max_results, &mut notes),
                }
            }
        };
        let complete = match params.output_mode {
            OutputMode::FilesOnly => shown == summary.files.len(),
            OutputMode::Content => shown == total_matches,
        };
        let truncated = summary.cancelled || !complete;
        if summary.cancelled {
            notes.insert(
                0,
                format!(
                    "The search was cancelled after {} files; the results cover only those",
                    summary.files_searched
                ),
            );
        } else if !complete {
            notes.insert(0, more_note(&params, &summary, shown, total_matches));
        }
        if total_matches == 0 && !summary.cancelled {
            notes.push(nothing_found_note(&params, &summary));
        }
        Ok(TextSearchOutput {
            searched_paths,
            files,
            files_searched: summary.files_searched,
            files_with_matches: summary.files.len(),
            total_matches,
            truncated,
            binary_files: summary.binary_files,
            links_skipped: summary.links_skipped,
            unreadable: UnreadableReport {
                count: summary.unreadable.len(),
                examples: summary
                    .unreadable
                    .iter()
                    .take(UNREADABLE_EXAMPLES)
                    .map(|u| UnreadableFile {
                        file_path: u.path.display().to_string(),
                        reason: u.reason.clone(),
                    })
                    .collect(),
            },
            note: (!notes.is_empty()).then(|| notes.join("; ")),
        })
    }
}

fn check_limits(params: &TextSearchParams) -> Result<(), ToolError> {
    if params.context_lines > MAX_CONTEXT {
        return Err(ToolError::new(format!(
            "contextLines {} is too large: at most {MAX_CONTEXT} lines around each match",
            params.context_lines
        ))
        .suggest("Use TextRead to read a larger range around a match"));
    }
    if params.max_results == 0 || params.max_results > MAX_RESULTS {
        return Err(ToolError::new(format!(
            "maxResults {} is out of range: it must be between 1 and {MAX_RESULTS}",
            params.max_results
        ))
        .suggest("To see only which files match and how often, use outputMode \"files_only\"")
        .suggest("To see more matches, narrow the search with directoryPath or filePattern"));
    }
    if let Some(tag) = &params.tag
        && !crate::text::markdown::is_tag(tag.trim().trim_start_matches('#'))
    {
        return Err(ToolError::new(format!(
            "tag '{}' is not a tag: tags are letters, digits, _, - and / (nesting), with at least one non-digit",
            cut(tag, 60)
        ))
        .suggest("Write it like \"project\" or \"#project/alpha\"; leave tag out to search every file"));
    }
    super::scope::one_file_or_folders(
        params.file_path.is_some(),
        params.directory_path.is_some(),
        params.file_pattern.is_some(),
        "search",
    )
}

fn pattern_error(error: PatternError, query: &str) -> ToolError {
    match error {
        PatternError::Empty => ToolError::new("query is empty: there is nothing to search for")
            .suggest("Pass the text to find as query, e.g. query=\"meeting notes\""),
        PatternError::LineBreak => ToolError::new(format!(
            "query '{}' contains a line break, but TextSearch finds matches within single lines",
            cut(query, 100).replace('\n', "\\n").replace('\r', "\\r")
        ))
        .suggest("Search for one of the lines, e.g. the most distinctive one")
        .suggest("To match text across lines in one file, use TextInspect with mode 'search' and regex=true"),
        PatternError::Invalid { message } => {
            ToolError::new(format!(
                "Invalid regex '{}': {}",
                brief(query),
                clip_middle(&message, 600)
            ))
                .suggest("Fix the pattern, or pass regex=false to search for the text literally")
                .suggest("Characters such as ( ) [ ] { } . * + ? | \\ need a backslash to match themselves")
        }
    }
}

fn scope(ctx: &ToolContext, params: &TextSearchParams) -> Result<SearchScope, ToolError> {
    let workspace = &ctx.workspace;
    if let Some(file) = &params.file_path {
        return Ok(SearchScope::File(workspace.resolve_file(file)?));
    }
    let roots = workspace.roots();
    match &params.directory_path {
        Some(dir) => {
            let path = roots.resolve_existing(dir).map_err(WorkspaceError::from)?;
            if !workspace.is_dir(&path)? {
                return Err(ToolError::new(format!(
                    "directoryPath '{dir}' is a file, not a folder"
                ))
                .suggest(format!(
                    "To search only this file, pass filePath \"{dir}\" instead"
                ))
                .suggest("Or pass the folder that holds it as directoryPath"));
            }
            Ok(SearchScope::Folders(vec![path]))
        }
        None => {
            if roots.list().is_empty() {
                return Err(
                    WorkspaceError::from(crate::workspace::roots::PathError::NoRoots).into(),
                );
            }
            Ok(SearchScope::Folders(
                roots
                    .list()
                    .iter()
                    .map(|root| ResolvedPath {
                        real: root.clone(),
                        root: root.clone(),
                        exists: true,
                    })
                    .collect(),
            ))
        }
    }
}

/// Reads the files a response shows and builds their matches.
struct Details<'a> {
    ctx: &'a ToolContext,
    pattern: &'a Pattern,
    context_lines: usize,
}

impl Details<'_> {
    /// The first `max` matches in path order, and how many they are.
    fn collect(
        &self,
        files: &[FileHits],
        max: usize,
        notes: &mut Vec<String>,
    ) -> (Vec<FileResult>, usize) {
        let mut results = Vec::new();
        let mut shown = 0;
        for hits in files {
            if shown >= max {
                break;
            }
            // The file read again without its hash or line index, searched
            // from its first match on, and scanned for headings only as far
            // as the last match shown.
            let read = match self.ctx.workspace.read_resolved_text(&hits.path, None) {
                Ok(doc) => doc,
                Err(error) => {
                    // It changed or vanished since the walk read it.
                    notes.push(format!(
                        "{} could not be read again to show its matches: {error}",
                        hits.path.display()
                    ));
                    continue;
                }
            };
            let text = read.text();
            let limit = (max - shown).min(hits.matches.max(1));
            let found = self.pattern.find_from(text, hits.first_line_start, limit);
            let Some(last) = found.last() else {
                continue;
            };
            shown += found.len();
            let headings = (format_of(&hits.path.real) == Format::Markdown)
                .then(|| markdown::headings_through(text, last.line));
            results.push(self.file_result(hits, text, &found, headings.as_ref()));
        }
        (results, shown)
    }

    /// One file's entry: `found`, its matches in `text`, with their context
    /// and, given its headings, the nearest heading of each.
    fn file_result(
        &self,
        hits: &FileHits,
        text: &str,
        found: &[LineMatch],
        headings: Option<&HeadingsThrough<'_>>,
    ) -> FileResult {
        FileResult {
            file_path: hits.path.display(),
            match_count: hits.matches,
            matches: Some(
                found
                    .iter()
                    .map(|m| self.one_match(text, m, headings))
                    .collect(),
            ),
        }
    }

    fn one_match(
        &self,
        text: &str,
        m: &LineMatch,
        headings: Option<&HeadingsThrough<'_>>,
    ) -> SearchMatch {
        let (line_text, next) = line_at(text, m.line_start);
        let n = self.context_lines;
        let context = (n > 0).then(|| MatchContext::around(text, m.line_start, next, n));
        SearchMatch {
            line: m.line,
            column: m.column,
            text: cut_around(line_text, m.start, MAX_CONTEXT_LINE),
            context,
            nearest_heading: headings
                .and_then(|h| h.nearest(m.line))
                .map(|h| NearestHeading {
                    level: h.level,
                    text: h.text,
                    line: h.line,
                }),
        }
    }
}

fn more_note(
    params: &TextSearchParams,
    summary: &SearchSummary,
    shown: usize,
    total: usize,
) -> String {
    match params.output_mode {
        OutputMode::FilesOnly => format!(
            "Listing the first {shown} of {} files with matches, by path; raise maxResults (at most {MAX_RESULTS}) or narrow the search with directoryPath or filePattern",
            summary.files.len()
        ),
        OutputMode::Content => format!(
            "Showing the first {shown} of {total} matches (in {} files), by path; narrow the search with directoryPath or filePattern, raise maxResults (at most {MAX_RESULTS}), or use outputMode \"files_only\" to list every file",
            summary.files.len()
        ),
    }
}

fn nothing_found_note(params: &TextSearchParams, summary: &SearchSummary) -> String {
    if summary.files_searched == 0 {
        let skipped = summary.binary_files + summary.unreadable.len();
        return if skipped > 0 {
            format!(
                "No text file was searched: {} binary and {} unreadable files were skipped",
                summary.binary_files,
                summary.unreadable.len()
            )
        } else if let Some(pattern) = &params.file_pattern {
            format!(
                "No file was searched: no file with an allowed ending matches filePattern '{pattern}' (hidden and ignored files are left out)"
            )
        } else {
            "No file was searched: there are no files with an allowed ending here (hidden and ignored files are left out)".to_string()
        };
    }
    let mut note = format!(
        "No matches in {} file{}",
        summary.files_searched,
        if summary.files_searched == 1 { "" } else { "s" }
    );
    if params.case_sensitive {
        note.push_str("; caseSensitive is on, so letter case must match exactly");
    }
    let looks_like_regex = ["|", ".*", "\\d", "\\w", "\\s", "^", "$"]
        .iter()
        .any(|s| params.query.contains(s));
    if !params.regex && looks_like_regex {
        note.push_str(
            "; the query was taken literally: pass regex=true if it is a regular expression",
        );
    }
    note.push_str("; hidden files, files excluded by .gitignore or .ignore, and files with other endings are not searched");
    note
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(args: serde_json::Value) -> TextSearchParams {
        super::super::args::parse_args::<TextSearchParams>("TextSearch", args)
            .unwrap()
            .0
    }

    #[test]
    fn defaults_and_modes() {
        let p = params(serde_json::json!({"query": "x"}));
        assert_eq!(
            (p.context_lines, p.max_results, p.output_mode),
            (1, 50, OutputMode::Content)
        );
        let p = params(serde_json::json!({"query": "x", "outputMode": "files_only"}));
        assert_eq!(p.output_mode, OutputMode::FilesOnly);
    }

    #[test]
    fn contradictions_and_limits_are_refused() {
        let refused = |args| check_limits(&params(args)).unwrap_err().message;
        assert!(
            refused(serde_json::json!({"query": "x", "filePath": "a.md", "directoryPath": "."}))
                .starts_with("filePath and directoryPath were both given")
        );
        assert!(
            refused(serde_json::json!({"query": "x", "filePath": "a.md", "filePattern": "*.md"}))
                .starts_with("filePath and filePattern were both given")
        );
        assert_eq!(
            refused(serde_json::json!({"query": "x", "maxResults": 0})),
            "maxResults 0 is out of range: it must be between 1 and 500"
        );
        assert_eq!(
            refused(serde_json::json!({"query": "x", "contextLines": 21})),
            "contextLines 21 is too large: at most 20 lines around each match"
        );
    }
}
