//! The files a soak run edits, the lines agents add to them, and the checks
//! at the end: every edit reported as a success is there, no file is torn,
//! nothing else was left in the root.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// One shared file and how agents add lines to it.
pub struct SharedFile {
    /// Path relative to the root.
    pub path: &'static str,
    /// The tool that adds lines.
    pub tool: &'static str,
    /// What the tool aims at: a heading for TextPatch, the line new lines go
    /// above for TextReplace and edit_code.
    pub marker: &'static str,
    /// The file's text at the start.
    pub initial: &'static str,
    /// Index of the line of `initial` after which added lines go.
    pub after_line: usize,
}

/// The shared files of every run.
pub fn shared_files() -> Vec<SharedFile> {
    vec![
        SharedFile {
            path: "notes/log.md",
            tool: "TextPatch",
            marker: "## Log",
            initial: "# Soak log\n\nLines appended to a section.\n\n## Log\n\n- start\n\n## After\n\nText after the log.\n",
            after_line: 6,
        },
        SharedFile {
            path: "notes/replace.md",
            tool: "TextReplace",
            marker: "<!-- end -->",
            initial: "# Replaced\n\nLines added above a marker, with expectedHash.\n\n<!-- end -->\n",
            after_line: 3,
        },
        SharedFile {
            path: "code/entries.py",
            tool: "edit_code",
            marker: "    # end",
            initial: "ENTRIES = [\n    \"start\",\n    # end\n]\n",
            after_line: 1,
        },
    ]
}

/// The line agent `agent` adds to `file` with its edit number `n`.
pub fn agent_line(file: &SharedFile, agent: &str, n: usize) -> String {
    if file.path.ends_with(".py") {
        format!("    \"soak {agent} e{n} {}\",", file.tool)
    } else {
        format!("- soak {agent} e{n} {}", file.tool)
    }
}

/// Writes the files' initial text under `root`.
pub fn create(root: &Path, files: &[SharedFile]) {
    for file in files {
        let path = root.join(file.path);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("create folders");
        std::fs::write(&path, file.initial).expect("write a shared file");
    }
}

/// What the end of a run found.
#[derive(Default)]
pub struct Verdict {
    /// Successes whose line is not in their file.
    pub lost: Vec<String>,
    /// Failed or unanswered edits whose line is in the file anyway.
    pub landed_anyway: usize,
    /// Lines that are in a file more than once.
    pub duplicated: Vec<String>,
    /// Files that are not their initial lines plus whole agent lines in the
    /// one place they are added, with what is wrong.
    pub torn: Vec<String>,
    /// Files in the root that are none of the shared files.
    pub leftovers: Vec<PathBuf>,
}

impl Verdict {
    /// Whether every check passed.
    pub fn passed(&self) -> bool {
        self.lost.is_empty()
            && self.duplicated.is_empty()
            && self.torn.is_empty()
            && self.leftovers.is_empty()
    }
}

/// Checks the files after a run against what the agents were told.
pub fn verify(
    root: &Path,
    files: &[SharedFile],
    successes: &[(usize, String)],
    unconfirmed: &[(usize, String)],
) -> Verdict {
    let mut verdict = Verdict::default();
    let mut found: Vec<HashMap<String, usize>> = Vec::new();
    for file in files {
        let (lines, problem) = added_lines(root, file);
        if let Some(problem) = problem {
            verdict.torn.push(format!("{}: {problem}", file.path));
        }
        let mut counts: HashMap<String, usize> = HashMap::new();
        for line in lines {
            *counts.entry(line).or_default() += 1;
        }
        for (line, &count) in &counts {
            if count > 1 {
                verdict
                    .duplicated
                    .push(format!("{}: {line} ({count} times)", file.path));
            }
        }
        found.push(counts);
    }
    for (file, line) in successes {
        if !found[*file].contains_key(line) {
            verdict.lost.push(format!("{}: {line}", files[*file].path));
        }
    }
    verdict.landed_anyway = unconfirmed
        .iter()
        .filter(|(file, line)| found[*file].contains_key(line))
        .count();
    let expected: HashSet<PathBuf> = files.iter().map(|f| root.join(f.path)).collect();
    verdict.leftovers = all_files(root)
        .into_iter()
        .filter(|p| !expected.contains(p))
        .collect();
    verdict
}

/// The agent lines of a file, and what makes the file torn, if anything: it
/// must be its initial lines, in order, with complete agent lines added in
/// one run at its insertion point.
fn added_lines(root: &Path, file: &SharedFile) -> (Vec<String>, Option<String>) {
    let bytes = match std::fs::read(root.join(file.path)) {
        Ok(bytes) => bytes,
        Err(e) => return (Vec::new(), Some(format!("cannot be read: {e}"))),
    };
    let Ok(text) = String::from_utf8(bytes) else {
        return (Vec::new(), Some("is not UTF-8".to_string()));
    };
    if !text.ends_with('\n') {
        return (
            Vec::new(),
            Some("does not end with a line break".to_string()),
        );
    }
    let initial: Vec<&str> = file.initial.lines().collect();
    let lines: Vec<&str> = text.lines().collect();
    let is_agent_line = |l: &str| {
        let probe = agent_line(file, "AGENT", 0);
        let (head, tail) = probe
            .split_once("AGENT e0")
            .expect("the probe has the pattern");
        l.strip_prefix(head)
            .and_then(|rest| rest.strip_suffix(tail))
            .and_then(|middle| middle.split_once(" e"))
            .is_some_and(|(agent, n)| {
                !agent.is_empty() && !agent.contains(' ') && n.parse::<usize>().is_ok()
            })
    };
    let head = &lines[..lines.len().min(file.after_line + 1)];
    let run = lines[head.len()..]
        .iter()
        .take_while(|l| is_agent_line(l))
        .count();
    let tail = &lines[head.len() + run..];
    let kept: Vec<&str> = head.iter().chain(tail).copied().collect();
    let added = lines[head.len()..head.len() + run]
        .iter()
        .map(|l| l.to_string())
        .collect();
    if kept != initial {
        let stray = lines
            .iter()
            .find(|l| !initial.contains(l) && !is_agent_line(l))
            .map_or("its initial lines changed or moved".to_string(), |l| {
                format!("has a line no agent wrote: {l:?}")
            });
        return (added, Some(stray));
    }
    (added, None)
}

/// Every file under `dir`, hidden ones included.
pub fn all_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            match entry.file_type() {
                Ok(t) if t.is_dir() => stack.push(path),
                _ => out.push(path),
            }
        }
    }
    out.sort();
    out
}
