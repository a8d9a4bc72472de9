//! ListDirectories: the folders under the roots (or under one folder) as a
//! tree of absolute paths.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::context::ToolContext;
use super::error::ToolError;
use super::tool::{Effects, Tool, Toolset};
use crate::workspace::WorkspaceError;
use crate::workspace::listing::{DirNode, list_directories};
use crate::workspace::roots::{PathError, ResolvedPath};

/// Most folders one listing returns.
pub const MAX_DIRECTORIES: usize = 1000;

/// The ListDirectories tool.
pub struct ListDirectories;

/// Parameters of ListDirectories.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ListDirectoriesParams {
    /// Default: every root.
    #[serde(default)]
    pub path: Option<String>,
}

/// A folder and the folders in it.
#[derive(Debug, Serialize, JsonSchema)]
pub struct DirectoryNode {
    /// Absolute path of the folder.
    pub path: String,
    /// Its subfolders, by name; left out when it has none (or none listed).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<DirectoryNode>,
}

impl From<DirNode> for DirectoryNode {
    fn from(node: DirNode) -> DirectoryNode {
        DirectoryNode {
            path: node.path.display().to_string(),
            children: node.children.into_iter().map(Into::into).collect(),
        }
    }
}

/// Result of ListDirectories.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ListDirectoriesOutput {
    /// One tree per listed folder: each root, or the folder given as path.
    pub directories: Vec<DirectoryNode>,
    /// How many folders the trees hold, the listed folders included.
    pub directory_count: usize,
    /// True when deeper folders were left out to keep the listing short.
    pub truncated: bool,
    /// How to see what was left out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl Tool for ListDirectories {
    type Params = ListDirectoriesParams;
    type Output = ListDirectoriesOutput;

    const NAME: &'static str = "ListDirectories";
    const TITLE: &'static str = "List folders";
    const TOOLSET: Toolset = Toolset::Files;
    const EFFECTS: Effects = Effects::READ_ONLY;

    fn description() -> &'static str {
        "The folder tree under every root, or under path, as absolute paths: hidden and .gitignored folders left out, at most 1000, shallowest first. For files use ListFiles. Example: {\"path\": \"notes\"}"
    }

    fn run(
        ctx: &ToolContext,
        params: ListDirectoriesParams,
    ) -> Result<ListDirectoriesOutput, ToolError> {
        let roots = ctx.workspace.roots();
        let starts = match &params.path {
            Some(path) => vec![ctx.workspace.resolve_dir(path)?],
            None => roots
                .list()
                .iter()
                .map(|root| ResolvedPath {
                    real: root.clone(),
                    root: root.clone(),
                    exists: true,
                })
                .collect(),
        };
        if starts.is_empty() {
            return Err(WorkspaceError::Path(PathError::NoRoots).into());
        }
        let tree = list_directories(&roots, &starts, MAX_DIRECTORIES);
        let note = tree.truncated.then(|| {
            "Some deeper folders are not shown; call ListDirectories with one of the listed folders as path to see below it".to_string()
        });
        Ok(ListDirectoriesOutput {
            directories: tree.trees.into_iter().map(Into::into).collect(),
            directory_count: tree.count,
            truncated: tree.truncated,
            note,
        })
    }
}
