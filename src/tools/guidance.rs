//! The editing guidance sent as the server's MCP `instructions` and as the
//! `editing-guide` prompt: which tool to reach for, and how to keep edits from
//! landing in the wrong place. Only tools that are switched on are mentioned.
//!
//! ```
//! use mcp_server_text::tools::guidance::guidance;
//!
//! let text = guidance(&["TextInspect", "TextRead", "TextReplace"]);
//! assert!(text.contains("TextReplace"));
//! assert!(!text.contains("edit_code"));
//! ```

/// The name of the MCP prompt carrying the guidance.
pub const PROMPT_NAME: &str = "editing-guide";

/// The guidance for a server offering `tools`.
pub fn guidance(tools: &[&str]) -> String {
    let on = |name: &str| tools.contains(&name);
    let mut out = String::from(
        "mcp-server-text: tools to inspect, read, search and edit text, Markdown and source files inside the allowed folders. Paths are absolute or relative to the first root.\n",
    );
    if tools.iter().all(|t| is_read_only(t)) {
        out.push_str(
            "\nThis server is read-only: it can inspect, read and search files, not change them.\n",
        );
    }

    let mut reading = Vec::new();
    if on("TextInspect") {
        reading.push("- TextInspect shows a file's outline (headings, code blocks, sections, functions) and finds text in it, without loading the whole file.");
    }
    if on("TextRead") {
        reading.push("- TextRead reads a heading's section, a code block, an anchor or a line range (at most 200 lines at a time).");
    }
    if on("TextSearch") {
        reading.push("- TextSearch finds text or a regex across many files.");
    }
    if on("ListDirectories") || on("ListFiles") {
        reading.push("- ListDirectories and ListFiles show what exists.");
    }
    if on("get_text_file_contents") {
        reading
            .push("- get_text_file_contents reads line ranges with their hashes (editor toolset).");
    }
    if !reading.is_empty() {
        out.push_str("\n### Finding and reading\n");
        out.push_str(&reading.join("\n"));
        out.push('\n');
    }

    let mut files = Vec::new();
    if on("Move") {
        files.push("- Move renames or moves a file or folder; it never overwrites, and creates missing parent folders.");
    }
    if on("RemoveFile") {
        files.push("- RemoveFile moves a file to the .trash folder of its root; its response gives the Move call that restores it.");
    }
    if !files.is_empty() {
        out.push_str("\n### Moving and removing files\n");
        out.push_str(&files.join("\n"));
        out.push('\n');
    }

    let mut editing = Vec::new();
    if on("TextReplace") {
        editing.push("**For inline text changes (fix typos, update values, rewrite sentences):**\n→ Use TextReplace. It finds exact text and replaces it. No line numbers needed. If the text occurs several times it refuses and lists the lines: add surrounding text or pass occurrence.");
    }
    if on("TextPatch") {
        editing.push("**For structural changes (add new sections, delete blocks, insert under headings):**\n→ Use TextPatch with heading-based targeting.");
        editing.push("**For appending content to an existing section:**\n→ Use TextPatch with the appendToSection target (inserts at the end of the section, after its subsections).");
    }
    if on("edit_code") {
        editing.push("**For changes to source code:**\n→ Use edit_code with search_context copied from the file. It tolerates small differences in whitespace and indentation, refuses ambiguous matches, and refuses edits that break the file's syntax.");
    }
    if on("patch_text_file_contents") {
        editing.push("**For line-range edits across several files at once:**\n→ Use patch_text_file_contents: every range must hold exactly old_string, and the whole batch is applied or none of it.");
    }
    if !editing.is_empty() {
        out.push_str("\n### Editing best practices\n\n");
        out.push_str(&editing.join("\n\n"));
        out.push('\n');
        out.push_str("\n**For multi-edit workflows:**\n→ Pass expectedHash (fileHash from the last response about a file) to the next edit of that file, so an edit is refused if the file changed in between.\n→ After an edit, use the context lines in its response to orient yourself.\n→ Do NOT reuse line numbers from an earlier TextInspect or TextRead after making edits: they shift.\n→ dryRun: true shows the diff of an edit without writing it.\n");

        let mut priority = Vec::new();
        if on("TextReplace") {
            priority.push("TextReplace: the default choice for most edits");
        }
        if on("edit_code") {
            priority.push("edit_code: for source code, when whitespace may differ from your memory of the file");
        }
        if on("TextPatch") {
            priority
                .push("TextPatch with appendToSection or beforeHeading: for inserting new content");
            priority.push("TextPatch with heading or codeBlock: for replacing a heading line or a code block's content");
            priority.push("TextPatch with lines: last resort, line numbers are fragile");
        }
        if !priority.is_empty() {
            out.push_str("\n**Tool priority for edits:**\n");
            for (i, p) in priority.iter().enumerate() {
                out.push_str(&format!("{}. {p}\n", i + 1));
            }
        }
    }
    out
}

fn is_read_only(tool: &str) -> bool {
    matches!(
        tool,
        "TextInspect"
            | "TextRead"
            | "TextSearch"
            | "ListDirectories"
            | "ListFiles"
            | "get_text_file_contents"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mentions_only_enabled_tools() {
        let all = guidance(&[
            "TextInspect",
            "TextRead",
            "TextPatch",
            "TextReplace",
            "edit_code",
        ]);
        assert!(all.contains("appendToSection"));
        assert!(all.contains("1. TextReplace"));
        let read_only = guidance(&["TextInspect", "TextRead"]);
        assert!(read_only.contains("read-only"));
        assert!(!read_only.contains("TextReplace"));
        assert!(!read_only.contains("Editing best practices"));
        assert!(!read_only.contains("RemoveFile"));
        let files = guidance(&["ListFiles", "Move", "RemoveFile"]);
        assert!(files.contains("the Move call that restores it"));
    }
}
