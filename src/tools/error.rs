//! The error every tool returns: `{ "status": "error", "message", "suggestions" }`
//! plus any details that help the caller recover (the current `fileHash`, the
//! candidate lines of an ambiguous match, …).
//!
//! ```
//! use mcp_server_text::tools::error::ToolError;
//!
//! let err = ToolError::new("Target not found: heading '## Instalation'")
//!     .suggest("Similar heading found: '## Installation' at line 15")
//!     .detail("line", 15);
//! let json = err.to_json();
//! assert_eq!(json["status"], "error");
//! assert_eq!(json["suggestions"][0], "Similar heading found: '## Installation' at line 15");
//! assert_eq!(json["line"], 15);
//! ```

use std::fmt;

use serde_json::{Map, Value, json};

/// A refused or failed tool call, written for the agent that made it.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolError {
    /// What was attempted and why it failed.
    pub message: String,
    /// What to do next.
    pub suggestions: Vec<String>,
    /// Extra fields merged into the JSON (e.g. `fileHash`).
    pub details: Map<String, Value>,
}

impl ToolError {
    /// An error with `message` and no suggestions yet.
    pub fn new(message: impl Into<String>) -> ToolError {
        ToolError {
            message: message.into(),
            suggestions: Vec::new(),
            details: Map::new(),
        }
    }

    /// Adds a suggestion.
    pub fn suggest(mut self, suggestion: impl Into<String>) -> ToolError {
        self.suggestions.push(suggestion.into());
        self
    }

    /// Adds several suggestions.
    pub fn suggest_all(mut self, suggestions: impl IntoIterator<Item = String>) -> ToolError {
        self.suggestions.extend(suggestions);
        self
    }

    /// Adds a detail field.
    pub fn detail(mut self, key: &str, value: impl Into<Value>) -> ToolError {
        self.details.insert(key.to_string(), value.into());
        self
    }

    /// The error as the JSON object tools return.
    pub fn to_json(&self) -> Value {
        let mut object = Map::new();
        object.insert("status".into(), json!("error"));
        object.insert("message".into(), json!(self.message));
        object.insert("suggestions".into(), json!(self.suggestions));
        for (k, v) in &self.details {
            object.insert(k.clone(), v.clone());
        }
        Value::Object(object)
    }
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)?;
        for s in &self.suggestions {
            write!(f, "\n  - {s}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ToolError {}
