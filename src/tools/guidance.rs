//! The editing guidance sent as the server's MCP `instructions` and as the
//! `editing-guide` prompt: which tool to reach for, and how to keep edits from
//! landing in the wrong place. Only tools that are switched on are mentioned.
//!
//! ```
//! use mcp_server_text::tools::guidance::guidance;
//!
//! let text = guidance(&["TextInspect", "TextRead", "TextReplace"], false);
//! assert!(text.contains("TextReplace"));
//! assert!(!text.contains("edit_code"));
//! ```

/// The name of the MCP prompt carrying the guidance.
pub const PROMPT_NAME: &str = "editing-guide";

/// The guidance for a server offering `tools`; `read_only` when it was
/// started `--read-only` (Tags and Properties are then offered for their reads).
pub fn guidance(tools: &[&str], read_only: bool) -> String {
    let on = |name: &str| tools.contains(&name);
    let mut out = String::from(
        "mcp-server-text: tools to inspect, read, search and edit text, Markdown and source files inside the allowed folders. Paths are absolute or relative to the first root.\n",
    );
    // A server whose tools all read is read-only too, though not started so.
    let read_only = read_only || tools.iter().all(|t| is_read_only(t));
    if read_only {
        out.push_str(
            "\nThis server is read-only: it can inspect, read and search files, not change them.",
        );
        let readers: Vec<&str> = ["Properties", "Tags"]
            .into_iter()
            .filter(|t| on(t))
            .collect();
        if !readers.is_empty() {
            out.push_str(&format!(
                " {} only {}: a call that would change a note is refused.",
                readers.join(" and "),
                if readers.len() == 1 { "reads" } else { "read" }
            ));
        }
        out.push('\n');
    }
    // Said here once, so the tools' schemas need not describe these fields.
    let camel_writers = [
        "TextPatch",
        "TextReplace",
        "Move",
        "RemoveFile",
        "UndoEdit",
        "Batch",
        "Properties",
        "Tags",
        "ApplyPatch",
    ];
    if !read_only && camel_writers.iter().any(|t| on(t)) {
        out.push_str("Every tool that changes files takes dryRun: true to report the change (an edit's diff) without making it; every edit takes expectedHash, the fileHash of an earlier reply, and is refused if the file changed since.\n");
    }

    let mut reading = Vec::new();
    if on("TextInspect") {
        reading.push("- TextInspect shows a file's outline (headings, code blocks, sections, functions) and finds text in it, without loading the whole file.");
    }
    if on("TextRead") {
        reading.push("- TextRead reads a heading's section, a code block, an anchor or a line range (at most 200 lines at a time).");
    }
    if on("TextSearch") {
        reading.push("- TextSearch finds text or a regex across many files; its property filter matches strings ignoring case, 3 and \"3\" alike, and a list when it holds the value.");
    }
    if on("CheckLinks") {
        reading.push(if on("TextInspect") {
            "- CheckLinks finds broken links in Markdown files (missing files, notes, headings and anchors, with the nearest match); TextInspect lists one file's links with their status."
        } else {
            "- CheckLinks finds broken links in Markdown files (missing files, notes, headings and anchors, with the nearest match)."
        });
    }
    if on("Backlinks") {
        reading.push("- Backlinks lists the links into a note (or one heading or ^block of it) from every other note: wikilinks, embeds, aliases and Markdown links; unlinked: true adds plain-text mentions of its name or aliases, with the link to write there.");
    }
    if on("ListDirectories") || on("ListFiles") {
        reading.push("- ListDirectories and ListFiles show what exists.");
    }
    if on("get_text_file_contents") {
        reading.push("- get_text_file_contents reads line ranges of one or more files ({\"start\": N, \"end\": M}, end null = to the end): each range's content exactly as in the file, with its range_hash, and each file's file_hash and total_lines.");
    }
    if !reading.is_empty() {
        out.push_str("\n### Finding and reading\n");
        out.push_str(&reading.join("\n"));
        out.push('\n');
    }

    let mut vault = Vec::new();
    if on("Properties") {
        vault.push(if read_only {
            "- Properties without set or delete gives every frontmatter key of a note with its value (as JSON)."
        } else {
            "- Properties gets, sets and deletes frontmatter keys (values as JSON), changing only those keys' lines: order, comments and quoting stay, lists keep the file's style, a missing block is created at the top. Never edit YAML lines by hand."
        });
    }
    if on("Tags") {
        vault.push(if read_only {
            "- Tags without add, remove or rename lists the tags of every note (or of filePath) with counts: frontmatter tags and inline #tags (not in code, links, URLs or comments)."
        } else {
            "- Tags reads frontmatter tags and inline #tags (not in code, links, URLs or comments). add/remove change a note's frontmatter tags (remove with inline: true also deletes its #tags); rename changes a tag and its children in every note as one change with one undo, and names in skipped any note whose frontmatter does not parse."
        });
    }
    if on("TextRead") && on("TextPatch") {
        vault.push("- A paragraph ending with ^id is a block: TextRead and TextPatch take target {\"block\": \"^id\"}; TextPatch operation 'blockId' gives a paragraph an id to link to ([[note#^id]]).");
    }
    if !vault.is_empty() && (on("Properties") || on("Tags")) {
        out.push_str("\n### Notes as a vault (Obsidian)\n");
        out.push_str(&vault.join("\n"));
        out.push('\n');
    }

    let mut files = Vec::new();
    if on("Move") {
        files.push("- Move renames or moves a file or folder; it never overwrites, and creates missing parent folders. For Markdown notes and folders it also rewrites the links that pointed at them (dryRun: true lists them first; updateLinks: false moves only).");
    }
    if on("RemoveFile") {
        files.push("- RemoveFile moves a file to the .trash folder of its root; its response gives the Move call that restores it.");
    }
    if !files.is_empty() {
        out.push_str("\n### Moving and removing files\n");
        out.push_str(&files.join("\n"));
        out.push('\n');
    }

    let mut undo = Vec::new();
    if on("UndoEdit") {
        undo.push("- Every change's reply carries a changeId: UndoEdit with it takes the change back (exact bytes, moves and removals too); an undo is recorded as well, so it can be undone.".to_string());
    }
    if on("EditHistory") {
        undo.push(
            "- EditHistory lists the recorded changes, newest first (of one file with filePath)."
                .to_string(),
        );
    }
    if on("Batch") {
        let batchable: Vec<&str> = ["TextPatch", "TextReplace", "edit_code"]
            .into_iter()
            .filter(|t| on(t))
            .collect();
        if !batchable.is_empty() {
            undo.push(format!(
                "- Batch applies several {} calls over one or more files as one change: all are checked first, then all are written or none.",
                batchable.join(", ")
            ));
        }
        if on("TextReplace") {
            undo.push("- TextReplace with filePattern (instead of filePath) makes the same replacement in every matching file, all or nothing.".to_string());
        }
    }
    if !undo.is_empty() {
        out.push_str("\n### Undo and changes over several files\n");
        out.push_str(&undo.join("\n"));
        out.push('\n');
    }

    let mut editing: Vec<String> = Vec::new();
    if on("TextReplace") {
        editing.push("**For inline text changes (fix typos, update values, rewrite sentences):**\n→ Use TextReplace. It finds exact text and replaces it. No line numbers needed. If the text occurs several times it refuses and lists the lines: add surrounding text or pass occurrence.".into());
    }
    if on("TextPatch") {
        editing.push("**For structural changes (add new sections, delete blocks, insert under headings):**\n→ Use TextPatch with heading-based targeting.".into());
        editing.push("**For appending content to an existing section:**\n→ Use TextPatch with the appendToSection target (inserts at the end of the section, after its subsections).".into());
        editing.push("**For content from a template (daily notes, log entries):**\n→ Use TextPatch insert with template (a file in the root's templates/ folder, or the template text) and variables: {{date}} (YYYY-MM-DD), {{time}} (HH:mm), {{date:FORMAT}} and {{time:FORMAT}} (moment.js tokens), {{title}} (the file's name) and {{name}} for each variable are filled in; an unknown placeholder is refused.".into());
        editing.push("**For indentation:**\n→ TextPatch's preserveIndent (on by default, lines and codeBlock targets) re-bases replaced content onto the replaced lines' indentation and gives unindented inserted content the target line's; content with its own indentation is inserted as given.".into());
    }
    if on("edit_code") {
        editing.push("**For changes to source code:**\n→ Use edit_code with search_context copied from the file. It tolerates trailing or leading whitespace, tabs vs spaces, shifted blocks, CRLF vs LF, look-alike quotes and dashes, a missing or extra blank line and one or two typos, and a line holding only `...` (or `// ...`, `# ...`) elides an unchanged middle. It refuses ambiguous matches, and edits that break the syntax of Rust, Python, Go, JavaScript, TypeScript, JSON, YAML, TOML, C, C++, Java, Bash, HTML or CSS. expected_hash and dry_run work as expectedHash and dryRun below.".into());
    }
    if on("TextPatch") {
        editing.push(format!(
            "**For a whole definition in source code (a function's body, a method after another):**\n→ Use TextPatch with the symbol target \"Class.method\" (or symbolBody, beforeSymbol); new text is re-indented to its place.{}",
            if on("TextRead") {
                " TextRead reads the same targets."
            } else {
                ""
            }
        ));
    }
    if on("ApplyPatch") {
        editing.push("**For a change written as a patch (Codex apply_patch format or a unified diff), over one file or many:**\n→ Use ApplyPatch. Each hunk is placed by its text; the whole patch is checked first, then written all or nothing.".into());
    }
    if on("patch_text_file_contents") {
        editing.push("**For line-range edits, in one file or across several at once:**\n→ Use patch_text_file_contents. Each patch gives old_string (the current text of its ranges, copied from get_text_file_contents with its line endings), new_string and ranges. Every range must hold exactly old_string; an empty old_string inserts before start; an empty new_string deletes. Put all edits of a file in one call: ranges use the numbering before the edit. The whole batch is checked first and applied completely or not at all.".into());
    }
    let simple: Vec<&str> = [
        (
            "create_text_file",
            "create_text_file makes a new file (never overwrites one)",
        ),
        (
            "append_text_file_contents",
            "append_text_file_contents adds lines at the end",
        ),
        (
            "insert_text_file_contents",
            "insert_text_file_contents adds lines before or after a line",
        ),
        (
            "delete_text_file_contents",
            "delete_text_file_contents removes line ranges",
        ),
    ]
    .into_iter()
    .filter(|(name, _)| on(name))
    .map(|(_, text)| text)
    .collect();
    if !simple.is_empty() {
        editing.push(format!(
            "**For new files and whole-line additions or removals:**\n→ {}.",
            simple.join("; ")
        ));
    }
    if !editing.is_empty() {
        out.push_str("\n### Editing best practices\n\n");
        out.push_str(&editing.join("\n\n"));
        out.push('\n');
        out.push_str("\n**For multi-edit workflows:**\n");
        out.push_str(&workflow(tools).join("\n"));
        out.push('\n');

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

/// The advice on chains of edits, for the edit tools that are on.
fn workflow(tools: &[&str]) -> Vec<String> {
    let on = |name: &str| tools.contains(&name);
    let mut lines = Vec::new();
    let camel_case = on("TextReplace") || on("TextPatch") || on("edit_code");
    if camel_case {
        lines.push("→ Pass expectedHash (fileHash from the last response about a file) to the next edit of that file, so an edit is refused if the file changed in between.".to_string());
        lines.push(
            "→ After an edit, use the context lines in its response to orient yourself."
                .to_string(),
        );
        let readers: Vec<&str> = ["TextInspect", "TextRead"]
            .into_iter()
            .filter(|t| on(t))
            .collect();
        if !readers.is_empty() {
            lines.push(format!(
                "→ Do NOT reuse line numbers from an earlier {} after making edits: they shift.",
                readers.join(" or ")
            ));
        }
        if on("TextReplace") || on("TextPatch") {
            lines.push("→ dryRun: true shows the diff of an edit without writing it.".to_string());
        }
    }
    let hashed: Vec<&str> = [
        "append_text_file_contents",
        "insert_text_file_contents",
        "delete_text_file_contents",
    ]
    .into_iter()
    .filter(|t| on(t))
    .collect();
    if !hashed.is_empty() {
        let source = if on("get_text_file_contents") {
            "from get_text_file_contents or the last edit's reply"
        } else {
            "from the last edit's reply"
        };
        lines.push(format!(
            "→ Pass file_hash ({source}) to {}, so an edit is refused if the file changed in between.",
            hashed.join(", ")
        ));
    }
    let editor_writers = [
        "patch_text_file_contents",
        "create_text_file",
        "append_text_file_contents",
        "insert_text_file_contents",
        "delete_text_file_contents",
    ];
    if editor_writers.iter().any(|t| on(t)) {
        if on("get_text_file_contents") {
            lines.push("→ Line numbers shift after an edit: read the lines again with get_text_file_contents before the next line-based edit.".to_string());
        }
        let dry: Vec<&str> = editor_writers.into_iter().filter(|t| on(t)).collect();
        lines.push(format!(
            "→ dry_run: true shows the diff of {} without writing anything.",
            dry.join(", ")
        ));
    }
    lines
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
            | "EditHistory"
            | "CheckLinks"
            | "Backlinks"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mentions_only_enabled_tools() {
        let all = guidance(
            &[
                "TextInspect",
                "TextRead",
                "TextPatch",
                "TextReplace",
                "edit_code",
            ],
            false,
        );
        assert!(all.contains("appendToSection"));
        assert!(all.contains("1. TextReplace"));
        let read_only = guidance(&["TextInspect", "TextRead"], false);
        assert!(read_only.contains("read-only"));
        assert!(!read_only.contains("TextReplace"));
        assert!(!read_only.contains("Editing best practices"));
        assert!(!read_only.contains("RemoveFile"));
        let files = guidance(&["ListFiles", "Move", "RemoveFile"], false);
        assert!(files.contains("the Move call that restores it"));
    }

    const EDITOR: [&str; 6] = [
        "get_text_file_contents",
        "patch_text_file_contents",
        "create_text_file",
        "append_text_file_contents",
        "insert_text_file_contents",
        "delete_text_file_contents",
    ];

    #[test]
    fn the_editor_set_alone_names_only_its_own_tools() {
        let text = guidance(&EDITOR, false);
        for tool in EDITOR {
            assert!(text.contains(tool), "{tool} missing from:\n{text}");
        }
        for other in [
            "TextInspect",
            "TextRead",
            "TextPatch",
            "TextReplace",
            "TextSearch",
            "ListFiles",
            "edit_code",
            "expectedHash",
            "dryRun",
        ] {
            assert!(!text.contains(other), "{other} mentioned in:\n{text}");
        }
        assert!(text.contains("dry_run: true"));
        assert!(text.contains("applied completely or not at all"));
    }

    #[test]
    fn no_combination_of_toolsets_mentions_a_tool_that_is_off() {
        use crate::tools::registry::{Registry, all_tools};
        use crate::tools::tool::Toolset;
        let every: Vec<&str> = all_tools().iter().map(|t| t.name).collect();
        for mask in 1..(1u32 << Toolset::ALL.len()) {
            let sets: Vec<Toolset> = Toolset::ALL
                .into_iter()
                .enumerate()
                .filter(|(i, _)| mask & (1 << i) != 0)
                .map(|(_, t)| t)
                .collect();
            for read_only in [false, true] {
                let on = Registry::new(&sets, read_only).names();
                let text = guidance(&on, read_only);
                for name in every.iter().filter(|n| !on.contains(n)) {
                    assert!(
                        !text.contains(name),
                        "{name} is off for {sets:?} (read-only: {read_only}) but mentioned:\n{text}"
                    );
                }
            }
        }
    }

    #[test]
    fn mixed_sets_give_both_kinds_of_advice() {
        let mut tools = vec!["TextInspect", "TextRead", "TextPatch", "TextReplace"];
        tools.extend(EDITOR);
        let text = guidance(&tools, false);
        assert!(text.contains("dryRun: true"));
        assert!(text.contains("dry_run: true"));
        assert!(text.contains("expectedHash"));
        assert!(text.contains("Pass file_hash"));
        let only_reader = guidance(&["get_text_file_contents"], false);
        assert!(only_reader.contains("read-only"));
        assert!(!only_reader.contains("patch_text_file_contents"));
    }

    #[test]
    fn a_read_only_server_says_so_and_offers_only_the_vault_reads() {
        use crate::tools::registry::Registry;
        use crate::tools::tool::Toolset;
        let registry = Registry::new(&Toolset::ALL, true);
        let text = guidance(&registry.names(), registry.read_only());
        assert!(
            text.contains("This server is read-only: it can inspect, read and search files, not change them. Properties and Tags only read: a call that would change a note is refused."),
            "{text}"
        );
        assert!(text.contains("Tags without add, remove or rename lists"));
        assert!(text.contains("Properties without set or delete gives"));
        for write in ["rename changes a tag", "sets and deletes", "one undo"] {
            assert!(!text.contains(write), "{write} offered in:\n{text}");
        }
        let vault = Registry::new(&[Toolset::Vault], true);
        let text = guidance(&vault.names(), vault.read_only());
        assert!(text.contains("read-only"), "{text}");
        let writable = Registry::new(&Toolset::ALL, false);
        let text = guidance(&writable.names(), writable.read_only());
        assert!(!text.contains("read-only"), "{text}");
        assert!(text.contains("rename changes a tag"));
    }
}
