//! A JSON value where a tool expects text: written as JSON text into a JSON
//! file (a common client quirk), refused for every other file, naming the
//! parameter and the type, with the file left as it was.

mod support;

use serde_json::json;
use support::Vault;

const NOTE: &str = "# Note\n\nold\n";

fn refusal_message(vault: &Vault, tool: &str, args: serde_json::Value) -> String {
    vault.err(tool, args)["message"]
        .as_str()
        .unwrap()
        .to_string()
}

const ONLY_JSON: &str = "a JSON value is taken as its text only when the file is JSON (.json, .jsonc, .json5), so send the text as a JSON string";

#[test]
fn a_json_value_for_a_markdown_file_is_refused_and_writes_nothing() {
    let vault = Vault::new();
    vault.write("note.md", NOTE);
    vault.write("lib.rs", "fn main() {}\n");
    let snapshot = vault.snapshot();

    assert_eq!(
        refusal_message(
            &vault,
            "TextReplace",
            json!({"filePath": "note.md", "oldText": "old", "newText": {"x": 1}})
        ),
        format!(
            "Invalid arguments for TextReplace: newText: expected text (a string), got an object; {ONLY_JSON}"
        )
    );
    assert_eq!(
        refusal_message(
            &vault,
            "TextPatch",
            json!({"filePath": "note.md", "operation": "insert", "target": {"appendToSection": "# Note"}, "content": [1, 2]})
        ),
        format!(
            "Invalid arguments for TextPatch: content: expected text (a string), got an array; {ONLY_JSON}"
        )
    );
    assert_eq!(
        refusal_message(
            &vault,
            "edit_code",
            json!({"file_path": "lib.rs", "search_context": "fn main() {}", "new_content": 42})
        ),
        format!(
            "Invalid arguments for edit_code: new_content: expected text (a string), got a number; {ONLY_JSON}"
        )
    );
    assert_eq!(
        refusal_message(
            &vault,
            "create_text_file",
            json!({"file_path": "new.md", "contents": {"title": "x"}})
        ),
        format!(
            "Invalid arguments for create_text_file: contents: expected text (a string), got an object; {ONLY_JSON}"
        )
    );
    // One JSON file and one Markdown file in a batch: refused for both.
    vault.write("data.json", "{}\n");
    let snapshot_with_json = vault.snapshot();
    let message = refusal_message(
        &vault,
        "patch_text_file_contents",
        json!({"files": [
            {"file_path": "data.json", "patches": [{"old_string": "{}\n", "new_string": {"a": 1}, "ranges": [{"start": 1, "end": 1}]}]},
            {"file_path": "note.md", "patches": [{"old_string": "old\n", "new_string": {"b": 2}, "ranges": [{"start": 3, "end": 3}]}]}
        ]}),
    );
    assert!(
        message.contains("new_string: expected text (a string), got an object"),
        "{message}"
    );
    assert_eq!(vault.snapshot(), snapshot_with_json);
    std::fs::remove_file(vault.root.join("data.json")).unwrap();
    assert_eq!(vault.snapshot(), snapshot, "no file changed");
}

#[test]
fn a_json_value_for_a_json_file_is_written_as_its_text_with_a_note() {
    let vault = Vault::new();
    vault.write("config.json", "{\n  \"a\": 1\n}\n");
    let out = vault.ok(
        "TextReplace",
        json!({"filePath": "config.json", "oldText": "1", "newText": [1, 2]}),
    );
    assert_eq!(
        vault.read_string("config.json"),
        "{\n  \"a\": [\n  1,\n  2\n]\n}\n"
    );
    assert!(
        out["note"]
            .as_str()
            .unwrap()
            .contains("a text parameter was an array; it was used as its JSON text"),
        "{out:#}"
    );
    let out = vault.ok(
        "create_text_file",
        json!({"file_path": "settings.jsonc", "contents": {"k": true}}),
    );
    assert_eq!(vault.read_string("settings.jsonc"), "{\n  \"k\": true\n}");
    assert_eq!(
        out["settings.jsonc"]["note"],
        "a text parameter was an object; it was used as its JSON text"
    );
}
