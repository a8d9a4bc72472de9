//! The accuracy corpus drawn from real files this repository did not write
//! (see `manifest.tsv`): drifted edits generated with a fixed seed, each
//! with the file it must become or the demand to refuse, judged through the
//! matcher and the syntax gate as `edit_code` runs them.
//!
//! Only the generator and the manifest are part of the repository; the files
//! are read where `cargo build` and `python3` put them, and a file that is
//! missing or has other bytes is skipped and counted.

pub mod cases;
pub mod files;
pub mod intent;
pub mod judge;
pub mod lang;
pub mod view;

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use mcp_server_text::text::fuzzy::{EditRequest, Plan};
use mcp_server_text::text::lines::LineIndex;
use mcp_server_text::text::syntax::{GateOutcome, Language, check_edit};

use super::{Tally, Verdict, first_difference};
pub use cases::{Case, Expect, Kind};

/// The generated cases and what went into them.
#[derive(Debug, Default)]
pub struct Corpus {
    pub cases: Vec<Case>,
    /// Files of the manifest that were found with their pinned bytes.
    pub files: usize,
    /// Files used by at least one case.
    pub files_used: usize,
    /// Files missing, or present with other bytes.
    pub missing: usize,
    pub changed: usize,
    /// Intended edits a language's own parser rejects, now expected refused.
    pub judged_broken: usize,
    /// Cases dropped because no parser could confirm them.
    pub dropped: usize,
}

/// Builds the corpus with `per_kind` cases of each kind.
pub fn corpus(per_kind: usize) -> Corpus {
    let found = files::load();
    let made = cases::generate(&found.sources, per_kind);
    let mut corpus = Corpus {
        files: found.sources.len(),
        missing: found.missing,
        changed: found.changed,
        ..Corpus::default()
    };
    let verdicts = judge_all(&made);
    for ((mut case, must_break), verdict) in made.into_iter().zip(verdicts) {
        match (&case.expect, verdict, must_break) {
            (Expect::Text(_), Some(false), _) => {
                case.expect = Expect::Refuse;
                corpus.judged_broken += 1;
            }
            (Expect::Text(_), _, true) => {
                corpus.dropped += 1;
                continue;
            }
            _ => {}
        }
        corpus.cases.push(case);
    }
    let mut used: Vec<&str> = corpus.cases.iter().map(|c| c.source.as_str()).collect();
    used.sort();
    used.dedup();
    corpus.files_used = used.len();
    corpus
}

/// For each case with an expected text, whether its language's parser
/// accepts that text (`None`: not judged, or the parser rejects the file's
/// original text too).
fn judge_all(made: &[(Case, bool)]) -> Vec<Option<bool>> {
    let mut out = vec![None; made.len()];
    for lang in [lang::Lang::Python, lang::Lang::JavaScript] {
        let mut originals: Vec<&str> = Vec::new();
        let mut index: HashMap<&str, usize> = HashMap::new();
        let mut wanted: Vec<(usize, &str, usize)> = Vec::new();
        for (k, (case, _)) in made.iter().enumerate() {
            if case.lang != lang {
                continue;
            }
            if let Expect::Text(want) = &case.expect {
                let o = *index.entry(case.file.as_str()).or_insert_with(|| {
                    originals.push(case.file.as_str());
                    originals.len() - 1
                });
                wanted.push((k, want.as_str(), o));
            }
        }
        let texts: Vec<&str> = originals
            .iter()
            .copied()
            .chain(wanted.iter().map(|w| w.1))
            .collect();
        let answers = judge::parses(lang, &texts);
        for (n, (k, _, o)) in wanted.iter().enumerate() {
            if answers[*o] == Some(true) {
                out[*k] = answers[originals.len() + n];
            }
        }
    }
    out
}

/// The lines `plan`'s single edit wrote, numbered in `after`, as the tool
/// hands them to the syntax gate.
fn edited_lines(plan: &Plan, after: &str) -> Option<(usize, usize)> {
    let [edit] = plan.edits.as_slice() else {
        return None;
    };
    let index = LineIndex::new(after);
    let start = edit.splice.range.start;
    let first = index.line_of_offset(start.min(after.len()));
    let last = if edit.splice.text.is_empty() {
        first
    } else {
        index.line_of_offset(start + edit.splice.text.len() - 1)
    };
    Some((first, last.max(first)))
}

/// What `edit_code` would write, or why it would refuse.
pub fn outcome(case: &Case) -> Result<String, String> {
    outcome_of(&case.file, &case.search, &case.new, case.lang)
}

/// What `edit_code` would write in `file` for this search and new content,
/// or why it would refuse.
pub fn outcome_of(file: &str, search: &str, new: &str, lang: lang::Lang) -> Result<String, String> {
    let request = EditRequest::new(search, new);
    let plan = super::plan_with(file, &request)?;
    if plan.changes_nothing(file) {
        return Err("new_content makes no change".into());
    }
    let after = plan.apply_to(file);
    if let Some(language) = Language::from_path(Path::new(lang.gate_name()))
        && let GateOutcome::Refuse(regression) =
            check_edit(language, file, &after, edited_lines(&plan, &after))
    {
        return Err(regression.to_string());
    }
    Ok(after)
}

/// Runs one case.
pub fn evaluate(case: &Case) -> Verdict {
    match (&case.expect, outcome(case)) {
        (Expect::Refuse, Err(_)) => Verdict::Correct,
        (Expect::Refuse, Ok(_)) => Verdict::Wrong("applied an edit that had to be refused".into()),
        (Expect::Text(want), Ok(got)) if got == *want => Verdict::Correct,
        (Expect::Text(want), Ok(got)) => Verdict::Wrong(first_difference(want, &got)),
        (Expect::Text(_), Err(why)) => Verdict::Refused(why),
    }
}

/// Runs every case and tallies by kind; also returns the failures.
pub fn run(cases: &[Case]) -> (BTreeMap<Kind, Tally>, Vec<(String, Verdict)>) {
    let mut tallies: BTreeMap<Kind, Tally> = BTreeMap::new();
    let mut notes = Vec::new();
    for case in cases {
        let t = tallies.entry(case.kind).or_default();
        t.cases += 1;
        let verdict = evaluate(case);
        match &verdict {
            Verdict::Correct => t.correct += 1,
            Verdict::Refused(_) => t.refused += 1,
            Verdict::Wrong(_) => t.wrong += 1,
            Verdict::NearCopy(_) => t.near_copy += 1,
        }
        if verdict != Verdict::Correct {
            notes.push((case.id.clone(), verdict));
        }
    }
    (tallies, notes)
}

/// The report table.
pub fn table(tallies: &BTreeMap<Kind, Tally>) -> String {
    let rows: Vec<(&'static str, super::Class, Tally)> = tallies
        .iter()
        .map(|(kind, t)| {
            let class = if kind.must_refuse() {
                super::Class::MustRefuse
            } else {
                super::Class::Recoverable
            };
            (kind.name(), class, *t)
        })
        .collect();
    super::table_of(&rows)
}
