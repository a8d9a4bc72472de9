//! The redesigned tolerant matcher behind `edit_code`, built beside the one
//! in place and compared with it on every corpus before it replaces it.
//!
//! One alignment model ([`align`]) prices the search against each window of
//! the file the cheap candidate search proposes; one decision rule
//! ([`decide`]) applies the cheapest place only when it is within budget and
//! clearly ahead of every rival; the edit is a three-way merge ([`merge`])
//! of the search (base), the file (ours) and `new_content` (theirs); and
//! every tolerant plan is re-read ([`verify`]) before it stands. Traces of how
//! the caller's texts reached us are undone across the whole search
//! ([`artifacts`]); every tuned number is in [`costs`].

pub(crate) mod align;
pub(crate) mod apply;
pub(crate) mod artifacts;
pub(crate) mod context;
pub(crate) mod costs;
pub(crate) mod decide;
pub(crate) mod exact_edits;
pub(crate) mod likeness;
pub(crate) mod markers;
pub(crate) mod merge;
pub(crate) mod places;
pub(crate) mod plan;
pub mod refusal;
pub(crate) mod render;
pub(crate) mod rows;
pub(crate) mod verify;

pub use refusal::{ConflictReason, Refusal, Unfound};

use super::EditRequest;
use super::outcome::Plan;

/// Finds where `request.search` is in `text` and plans the edit, or says why
/// it will not.
pub fn plan_edit(text: &str, request: &EditRequest<'_>) -> Result<Plan, Refusal> {
    plan::plan(text, request)
}
