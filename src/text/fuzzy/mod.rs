//! The tolerant search-and-replace matcher behind `edit_code`.
//!
//! An agent sends `search_context` (the lines it wants to change, as it
//! remembers them) and `new_content` (what they should become). The matcher
//! finds where that block is in the file and works out what to write, or
//! refuses with a reason the agent can act on. It is built to apply nearly
//! every edit an agent really sends and to refuse whenever the evidence for
//! one place is not clear: a wrong edit is worse than a refusal.
//!
//! **Hidden** lines are the file lines inside the matched place that the
//! search does not show, under an elision marker (`// ...`) or without one;
//! the code has that one word for them.
//!
//! In order:
//!
//! 1. **Exact**: the search occurs byte for byte, or up to line endings (a
//!    search sent with LF against a CRLF file). One occurrence is applied; more
//!    are ambiguous under [`Strategy::SingleMatch`].
//! 2. **Readings** (`artifacts`): traces of how the texts reached us that run
//!    through the whole search (viewer line numbers, JSON escapes, HTML
//!    entities) give a second reading of both texts with the trace undone;
//!    a trace on only some lines is refused as inconsistent.
//! 3. **One alignment** (`align`): cheap candidates (`candidates`) open
//!    windows of the file, and each reading is aligned to each window in one
//!    dynamic-programming pass, every operation priced in edits (`costs`).
//!    Elision markers, blank lines, hidden lines and shifted or widened
//!    readings are all steps of that one alignment.
//! 4. **One decision** (`decide`): the cheapest place is applied only when it
//!    is within the threshold's budget and clearly cheaper than every
//!    disjoint rival; otherwise not found or ambiguous.
//! 5. **A three-way merge** (`edges`, `merge`): base = the search, ours = the
//!    matched region, theirs = `new_content`. What the caller did not touch
//!    keeps the file's bytes; a line both sides changed otherwise is a
//!    conflict; more than one kept line the file contradicts is another block.
//! 6. **A re-read** (`verify`) of every tolerant plan before it stands: the
//!    lines it adds are the caller's, the lines it removes are ones the caller
//!    removed or wrote out, each new line sits between the neighbours
//!    `new_content` gives it, and nothing outside the region changes.
//!    A plan that fails is refused as unverified, never written.
//!
//! The result is a [`Plan`] of byte [`Splice`]s over the original text, each
//! with the matched lines, kind, score and a unified diff, plus the traces
//! undone (`normalized`); or a [`Refusal`]: not found (with the closest block
//! and why it is not it), ambiguous, a conflict, or unverified. A refusal
//! changes nothing, and its message says what to send next.
//!
//! The accuracy corpus and the benchmarks are separate commands:
//! `cargo test --test edit_code_accuracy` (fails on any wrong edit),
//! `cargo bench --bench edit_code_accuracy` (rates per kind of drift) and
//! `cargo bench --bench edit_code_speed` (10,000 and 100,000 lines).
//!
//! ```
//! use mcp_server_text::text::fuzzy::{plan_edit, EditRequest, MatchKind};
//!
//! let file = "fn main() {\r\n\tlet total = 1;\r\n\tprintln!(\"{total}\");\r\n}\r\n";
//! // Spaces instead of a tab, LF instead of CRLF, and a typo.
//! let search = "    let totl = 1;\n    println!(\"{total}\");\n";
//! let new = "    let total = 2;\n    println!(\"{total}\");\n";
//!
//! let plan = plan_edit(file, &EditRequest::new(search, new)).unwrap();
//! assert_eq!(plan.edits[0].kind, MatchKind::Fuzzy);
//! assert_eq!(plan.edits[0].lines.start, 2);
//! assert_eq!(
//!     plan.apply_to(file),
//!     "fn main() {\r\n\tlet total = 2;\r\n\tprintln!(\"{total}\");\r\n}\r\n"
//! );
//! ```

pub(crate) mod align;
pub(crate) mod apply;
pub(crate) mod artifacts;
pub(crate) mod block;
pub(crate) mod candidates;
pub(crate) mod context;
pub(crate) mod costs;
pub(crate) mod decide;
pub(crate) mod diff;
pub(crate) mod edges;
pub(crate) mod exact;
pub(crate) mod exact_edits;
pub(crate) mod indent;
pub(crate) mod likeness;
pub(crate) mod literal;
pub(crate) mod markers;
pub(crate) mod merge;
pub(crate) mod normalize;
pub mod outcome;
pub(crate) mod places;
pub(crate) mod plan;
pub mod refusal;
pub(crate) mod render;
pub(crate) mod rows;
pub(crate) mod score;
pub(crate) mod verify;

pub use outcome::{
    Adjustment, Candidate, LineRange, MatchKind, Plan, PlannedEdit, Splice, Strategy,
};
pub use refusal::{ConflictReason, Refusal, Unfound};

/// The threshold used when the caller gives none.
pub const DEFAULT_THRESHOLD: f64 = 0.9;

/// One `edit_code` replacement request.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EditRequest<'a> {
    /// The block to find (`search_context`).
    pub search: &'a str,
    /// What the block becomes (`new_content`).
    pub replacement: &'a str,
    /// Least similarity, 0.0–1.0, for a tolerant match; 1.0 allows only exact
    /// matches (up to line endings).
    pub threshold: f64,
    /// One match or all of them.
    pub strategy: Strategy,
}

impl<'a> EditRequest<'a> {
    /// A single-match request with the default threshold.
    pub fn new(search: &'a str, replacement: &'a str) -> EditRequest<'a> {
        EditRequest {
            search,
            replacement,
            threshold: DEFAULT_THRESHOLD,
            strategy: Strategy::SingleMatch,
        }
    }

    /// The same request with another threshold.
    pub fn with_threshold(self, threshold: f64) -> EditRequest<'a> {
        EditRequest { threshold, ..self }
    }

    /// The same request with another strategy.
    pub fn with_strategy(self, strategy: Strategy) -> EditRequest<'a> {
        EditRequest { strategy, ..self }
    }
}

/// Finds where `request.search` is in `text` (a file's decoded text) and plans
/// the edit, or says why it will not.
pub fn plan_edit(text: &str, request: &EditRequest<'_>) -> Result<Plan, Refusal> {
    plan::plan(text, request)
}
