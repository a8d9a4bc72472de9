//! What a tool call gets besides its arguments: the workspace, the server's
//! settings, and ways to report progress and notice cancellation.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::workspace::Workspace;

/// Server-wide settings tools consult.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Whether `edit_code` may run a caller's `validate_command`.
    pub allow_validate_command: bool,
    /// Whether `edit_code` runs an installed formatter after an edit.
    pub format_after_edit: bool,
    /// How long a formatter may run before it is stopped.
    pub format_timeout: std::time::Duration,
    /// Names of the tools that are switched on (for descriptions and advice).
    pub enabled_tools: Vec<&'static str>,
    /// The folder holding templates: relative to each root, or absolute
    /// inside one (`templates` when `None`).
    pub templates_dir: Option<std::path::PathBuf>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            allow_validate_command: false,
            format_after_edit: false,
            format_timeout: crate::workspace::formatters::FORMAT_TIME_LIMIT,
            enabled_tools: Vec::new(),
            templates_dir: None,
        }
    }
}

/// A progress report: `progress` of `total` (when known), with a message.
pub type ProgressFn = dyn Fn(f64, Option<f64>, String) + Send + Sync;

/// The context of one tool call.
#[derive(Clone)]
pub struct ToolContext {
    /// The roots and file rules.
    pub workspace: Arc<Workspace>,
    /// Server-wide settings.
    pub settings: Arc<Settings>,
    progress: Option<Arc<ProgressFn>>,
    cancelled: Arc<AtomicBool>,
}

impl ToolContext {
    /// A context without progress reporting or cancellation.
    pub fn new(workspace: Arc<Workspace>, settings: Arc<Settings>) -> ToolContext {
        ToolContext {
            workspace,
            settings,
            progress: None,
            cancelled: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Reports progress through `progress`.
    pub fn with_progress(mut self, progress: Arc<ProgressFn>) -> ToolContext {
        self.progress = Some(progress);
        self
    }

    /// Uses `flag` to learn of cancellation.
    pub fn with_cancel_flag(mut self, flag: Arc<AtomicBool>) -> ToolContext {
        self.cancelled = flag;
        self
    }

    /// Reports progress, if the caller asked for it.
    pub fn progress(&self, done: f64, total: Option<f64>, message: impl Into<String>) {
        if let Some(progress) = &self.progress {
            progress(done, total, message.into());
        }
    }

    /// Whether the caller cancelled the call.
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Relaxed)
    }

    /// The flag long-running work polls for cancellation.
    pub fn cancel_flag(&self) -> Arc<AtomicBool> {
        self.cancelled.clone()
    }
}
