//! Templates end to end: TextPatch insert and create_text_file with a
//! template file or inline text, variables, the templates folder setting,
//! and refusals that leave every file as it was.

mod support;

use chrono::Local;
use mcp_server_text::tools::context::Settings;
use mcp_server_text::workspace::WorkspaceOptions;
use serde_json::json;
use support::Vault;

const NOTE: &str = "# Garden\n\n## Log\n\n- planted\n\n## Tasks\n";

/// Today's date as `{{date}}` writes it, read before and after a call so a
/// call that spans midnight still passes.
fn dates(call: impl FnOnce()) -> [String; 2] {
    let before = Local::now().format("%Y-%m-%d").to_string();
    call();
    [before, Local::now().format("%Y-%m-%d").to_string()]
}

#[test]
fn insert_a_template_file_with_variables() {
    let v = Vault::new();
    v.write("projects/garden.md", NOTE);
    v.write(
        "templates/log-entry.md",
        "- {{date}} ({{title}}): {{mood}}, {{date:dddd}} [[{{title}}#Tasks]]\n",
    );
    let mut result = serde_json::Value::Null;
    let [d1, d2] = dates(|| {
        result = v.ok(
            "TextPatch",
            json!({"filePath": "projects/garden.md", "operation": "insert",
                   "target": {"appendToSection": "## Log"},
                   "template": "log-entry", "variables": {"mood": "sunny"}}),
        );
    });
    let text = v.read_string("projects/garden.md");
    let weekday = |d: &str| {
        chrono::NaiveDate::parse_from_str(d, "%Y-%m-%d")
            .unwrap()
            .format("%A")
            .to_string()
    };
    let expected = |d: &str| {
        format!(
            "# Garden\n\n## Log\n\n- planted\n- {d} (garden): sunny, {} [[garden#Tasks]]\n\n## Tasks\n",
            weekday(d)
        )
    };
    assert!(text == expected(&d1) || text == expected(&d2), "{text}");
    let note = result["note"].as_str().unwrap();
    assert!(note.starts_with("Filled template "), "{note}");
    assert!(note.contains("templates/log-entry.md"), "{note}");
}

#[test]
fn inline_template_text() {
    let v = Vault::new();
    v.write("a.md", "one\r\ntwo\r\n");
    v.ok(
        "TextPatch",
        json!({"filePath": "a.md", "operation": "insert", "target": {"lines": {"start": 2}},
               "template": "# {{title}}\n\\{{kept}} {{who}}\n", "variables": {"who": "Ann"}}),
    );
    assert_eq!(
        v.read_string("a.md"),
        "one\r\n# a\r\n{{kept}} Ann\r\ntwo\r\n"
    );
}

#[test]
fn unknown_placeholders_are_refused_with_the_known_ones() {
    let v = Vault::new();
    v.write("a.md", NOTE);
    v.write("templates/daily.md", "# {{title}}\n{{weather}}\n");
    let before = v.snapshot();
    let err = v.err(
        "TextPatch",
        json!({"filePath": "a.md", "operation": "insert", "target": {"lines": {"start": 1}},
               "template": "daily", "variables": {"mood": "ok"}}),
    );
    let message = err["message"].as_str().unwrap();
    assert!(message.starts_with("Cannot fill template "), "{message}");
    assert!(
        message.ends_with(
            "templates/daily.md: unknown placeholder {{weather}} on line 2 of the template; the known \
             ones are {{date}}, {{date:FORMAT}}, {{time}}, {{time:FORMAT}}, {{title}}, {{mood}}; \
             nothing was written"
        ),
        "{message}"
    );
    assert_eq!(v.snapshot(), before);
}

#[test]
fn a_missing_template_lists_the_templates_there() {
    let v = Vault::new();
    v.write("a.md", NOTE);
    v.write("templates/daily.md", "# {{title}}\n");
    v.write("templates/meeting/weekly.md", "# {{title}}\n");
    let err = v.err(
        "TextPatch",
        json!({"filePath": "a.md", "operation": "insert", "target": {"lines": {"start": 1}},
               "template": "dialy"}),
    );
    assert!(
        err["message"]
            .as_str()
            .unwrap()
            .starts_with("There is no template 'dialy' in "),
        "{err}"
    );
    assert_eq!(
        err["suggestions"][0],
        "Templates there: daily.md, meeting/weekly.md"
    );
    // A name in a subfolder works, with or without .md.
    v.ok(
        "TextPatch",
        json!({"filePath": "a.md", "operation": "insert", "target": {"lines": {"start": 1}},
               "template": "meeting/weekly"}),
    );
    assert!(v.read_string("a.md").starts_with("# a\n# Garden\n"));
}

#[test]
fn the_templates_folder_can_be_set() {
    let v = Vault::with_options(
        WorkspaceOptions::default(),
        Settings {
            templates_dir: Some("_meta/tpl".into()),
            ..Settings::default()
        },
    );
    v.write("a.md", "x\n");
    v.write("_meta/tpl/t.md", "from {{title}}\n");
    v.write("templates/t.md", "wrong folder\n");
    v.ok(
        "TextPatch",
        json!({"filePath": "a.md", "operation": "insert", "target": {"lines": {"start": 2}},
               "template": "t"}),
    );
    assert_eq!(v.read_string("a.md"), "x\nfrom a\n");
}

#[test]
fn create_a_file_from_a_template() {
    let v = Vault::new();
    v.write(
        "templates/project.md",
        "---\nstatus: {{status}}\n---\n# {{title}}\n",
    );
    let result = v.ok(
        "create_text_file",
        json!({"file_path": "projects/orchard.md", "template": "project",
               "variables": {"status": "idea"}}),
    );
    assert_eq!(
        v.read_string("projects/orchard.md"),
        "---\nstatus: idea\n---\n# orchard\n"
    );
    let entry = &result["projects/orchard.md"];
    assert!(
        entry["note"]
            .as_str()
            .unwrap()
            .starts_with("Filled template")
    );
    let err = v.err(
        "create_text_file",
        json!({"file_path": "x.md", "template": "project", "contents": "x"}),
    );
    assert_eq!(
        err["message"],
        "contents and template were both given, but the template gives the contents"
    );
    let err = v.err("create_text_file", json!({"file_path": "x.md"}));
    assert_eq!(
        err["message"],
        "create_text_file needs contents (or a template)"
    );
    assert!(!v.root.join("x.md").exists());
}

#[test]
fn template_refusals() {
    let v = Vault::new();
    v.write("a.md", NOTE);
    let before = v.snapshot();
    let cases = [
        (
            json!({"filePath": "a.md", "operation": "replace", "target": {"lines": {"start": 1, "end": 1}}, "template": "# {{title}}\n"}),
            "template works only with operation 'insert', not 'replace'",
        ),
        (
            json!({"filePath": "a.md", "operation": "insert", "target": {"lines": {"start": 1}}, "template": "# {{title}}\n", "content": "x"}),
            "content and template were both given, but the template is the content",
        ),
        (
            json!({"filePath": "a.md", "operation": "insert", "target": {"lines": {"start": 1}}, "content": "x", "variables": {"a": "b"}}),
            "variables were given without a template; they fill a template's placeholders",
        ),
        (
            json!({"filePath": "a.md", "operation": "insert", "target": {"lines": {"start": 1}}, "template": "{{x}}", "variables": {"bad key": "b"}}),
            "variables has a key 'bad key' that cannot be a placeholder name",
        ),
    ];
    for (args, message) in cases {
        let err = v.err("TextPatch", args);
        assert_eq!(err["message"], message);
    }
    assert_eq!(v.snapshot(), before);
}
