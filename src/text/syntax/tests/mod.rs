//! Tests that exercise the syntax layer across languages: the gate for every
//! grammar, outline goldens, and detection.

mod gate_cases;
mod outlines;

/// Replaces the only occurrence of `old` in `text` with `new`, and returns the
/// edited text with the lines (numbered in it) the new content occupies.
pub(super) fn edit(text: &str, old: &str, new: &str) -> (String, (usize, usize)) {
    assert_eq!(text.matches(old).count(), 1, "{old:?} must occur once");
    let at = text.find(old).unwrap();
    let after = format!("{}{}{}", &text[..at], new, &text[at + old.len()..]);
    let first = text[..at].matches('\n').count() + 1;
    let last = if new.is_empty() {
        first - 1
    } else {
        first + new.trim_end_matches('\n').matches('\n').count()
    };
    (after, (first, last))
}

#[test]
fn schemas_describe_what_tools_return() {
    let schema = serde_json::to_value(schemars::schema_for!(super::SourceInspection)).unwrap();
    let item = &schema["$defs"]["OutlineItem"];
    assert_eq!(
        item["required"],
        serde_json::json!(["kind", "name", "startLine", "endLine"])
    );
    let kinds = &schema["$defs"]["OutlineKind"];
    assert!(kinds.to_string().contains("\"function\""), "{kinds}");

    let schema = serde_json::to_value(schemars::schema_for!(super::GateOutcome)).unwrap();
    let text = schema.to_string();
    for field in [
        "\"status\"",
        "\"firstNewError\"",
        "\"note\"",
        "\"lineText\"",
    ] {
        assert!(text.contains(field), "{field} missing from {text}");
    }
}
