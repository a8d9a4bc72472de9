//! A vault in a temp folder and a way to call tools on it, shared by the
//! integration tests.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use mcp_server_text::tools::context::{Settings, ToolContext};
use mcp_server_text::tools::registry::Registry;
use mcp_server_text::tools::tool::Toolset;
use mcp_server_text::workspace::roots::Roots;
use mcp_server_text::workspace::{Workspace, WorkspaceOptions};
use serde_json::Value;

/// A root folder with files, a registry with every tool, and helpers.
pub struct Vault {
    pub dir: tempfile::TempDir,
    pub root: PathBuf,
    pub registry: Registry,
    pub ctx: ToolContext,
}

impl Vault {
    /// An empty vault.
    pub fn new() -> Vault {
        Vault::with_options(WorkspaceOptions::default(), Settings::default())
    }

    /// An empty vault with these options.
    pub fn with_options(options: WorkspaceOptions, settings: Settings) -> Vault {
        let dir = tempfile::tempdir().unwrap();
        let base = std::fs::canonicalize(dir.path()).unwrap();
        let root = base.join("vault");
        std::fs::create_dir_all(&root).unwrap();
        let workspace = Workspace::new(vec![root.clone()], options).unwrap();
        let registry = Registry::new(&Toolset::ALL, false);
        let settings = Settings {
            enabled_tools: registry.names(),
            ..settings
        };
        let ctx = ToolContext::new(Arc::new(workspace), Arc::new(settings));
        Vault {
            dir,
            root,
            registry,
            ctx,
        }
    }

    /// The folder holding the vault (its parent), for files outside the root.
    pub fn outside(&self) -> PathBuf {
        self.root.parent().unwrap().to_path_buf()
    }

    /// Writes a file (creating folders) relative to the root.
    pub fn write(&self, rel: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
        let path = self.root.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, bytes).unwrap();
        path
    }

    /// Reads a file relative to the root.
    pub fn read(&self, rel: &str) -> Vec<u8> {
        std::fs::read(self.root.join(rel)).unwrap()
    }

    /// Reads a file relative to the root as UTF-8.
    pub fn read_string(&self, rel: &str) -> String {
        String::from_utf8(self.read(rel)).unwrap()
    }

    /// Calls a tool; Ok is the result JSON, Err the error JSON.
    pub fn call(&self, tool: &str, args: Value) -> Result<Value, Value> {
        self.registry
            .call(&self.ctx, tool, args)
            .map_err(|e| e.to_json())
    }

    /// Calls a tool that must succeed.
    pub fn ok(&self, tool: &str, args: Value) -> Value {
        match self.call(tool, args.clone()) {
            Ok(v) => v,
            Err(e) => panic!("{tool} {args} failed: {e:#}"),
        }
    }

    /// Calls a tool that must fail, and returns the error JSON.
    pub fn err(&self, tool: &str, args: Value) -> Value {
        match self.call(tool, args.clone()) {
            Ok(v) => panic!("{tool} {args} should have failed but returned {v:#}"),
            Err(e) => e,
        }
    }

    /// Adds a second root folder `name` beside the vault and returns its path.
    pub fn add_root(&self, name: &str) -> PathBuf {
        let path = self.outside().join(name);
        std::fs::create_dir_all(&path).unwrap();
        let roots = Roots::new(vec![self.root.clone(), path.clone()]).unwrap();
        self.ctx.workspace.set_roots(roots);
        path
    }

    /// Everything under the vault's parent folder (root and outside): each
    /// file with its bytes and permissions, each folder, each symbolic link
    /// with its target, to check that a refused call changed nothing anywhere.
    pub fn snapshot(&self) -> BTreeMap<PathBuf, Node> {
        let mut nodes = BTreeMap::new();
        collect(&self.outside(), &mut nodes);
        nodes
    }
}

impl Vault {
    /// [`Vault::snapshot`] without the server's `.history` folder, which a
    /// change of several files creates for its intent record even when it
    /// fails; no intent record may be left there.
    pub fn snapshot_without_history(&self) -> BTreeMap<PathBuf, Node> {
        let history = self.root.join(".history");
        let intents = history.join("intents");
        let left = std::fs::read_dir(&intents).map_or(0, |d| d.count());
        assert_eq!(
            left,
            0,
            "an intent record was left in {}",
            intents.display()
        );
        let mut nodes = self.snapshot();
        nodes.retain(|path, _| !path.starts_with(&history));
        nodes
    }
}

/// One entry of a [`Vault::snapshot`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Node {
    /// A file: its bytes and permission bits.
    File(Vec<u8>, u32),
    /// A folder and its permission bits.
    Folder(u32),
    /// A symbolic link and where it points.
    Link(PathBuf),
}

fn mode(meta: &std::fs::Metadata) -> u32 {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        meta.permissions().mode()
    }
    #[cfg(not(unix))]
    {
        u32::from(meta.permissions().readonly())
    }
}

fn collect(dir: &Path, nodes: &mut BTreeMap<PathBuf, Node>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let meta = std::fs::symlink_metadata(&path).unwrap();
        if meta.file_type().is_symlink() {
            nodes.insert(path.clone(), Node::Link(std::fs::read_link(&path).unwrap()));
        } else if meta.is_dir() {
            nodes.insert(path.clone(), Node::Folder(mode(&meta)));
            collect(&path, nodes);
        } else if meta.is_file() {
            nodes.insert(
                path.clone(),
                Node::File(std::fs::read(&path).unwrap(), mode(&meta)),
            );
        }
    }
}
