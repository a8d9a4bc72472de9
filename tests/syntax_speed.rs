//! Timing of the syntax layer on 10,000-line files, one per language.
//!
//! Not part of `cargo test`: it is only meaningful in an optimised build.
//!
//! ```text
//! cargo test --release --test syntax_speed -- --ignored --nocapture
//! ```

use std::time::{Duration, Instant};

use mcp_server_text::text::syntax::{GateOutcome, Language, check_edit, outline, parse};

/// Lines in every generated file.
const LINES: usize = 10_000;

/// A valid block of source for `language`, about ten lines, numbered `i`.
fn block(language: Language, i: usize) -> String {
    match language {
        Language::Rust => format!(
            "/// Item {i}.\npub fn item_{i}(a: u32, b: u32) -> u32 {{\n    let sum = a + b;\n    if sum > {i} {{\n        sum - {i}\n    }} else {{\n        sum * 2\n    }}\n}}\n\n"
        ),
        Language::Python => format!(
            "def item_{i}(a, b):\n    \"\"\"Item {i}.\"\"\"\n    total = a + b\n    if total > {i}:\n        return total - {i}\n    return [x * 2 for x in range(total)]\n\n\n"
        ),
        Language::Go => format!(
            "// Item{i} adds.\nfunc Item{i}(a, b int) int {{\n\tsum := a + b\n\tif sum > {i} {{\n\t\treturn sum - {i}\n\t}}\n\treturn sum * 2\n}}\n\n"
        ),
        Language::JavaScript | Language::TypeScript | Language::Tsx => format!(
            "/** Item {i}. */\nexport function item{i}(a, b) {{\n  const sum = a + b;\n  if (sum > {i}) {{\n    return sum - {i};\n  }}\n  return [1, 2].map((x) => x * sum);\n}}\n\n"
        ),
        Language::Json => {
            format!("  \"key{i}\": {{\n    \"n\": {i},\n    \"tags\": [\"a\", \"b\"]\n  }},\n")
        }
        Language::Yaml => format!("key{i}:\n  n: {i}\n  tags:\n    - a\n    - b\n"),
        Language::Toml => format!("[table{i}]\nn = {i}\ntags = [\"a\", \"b\"]\n\n"),
        Language::C | Language::Cpp => format!(
            "/* Item {i}. */\nstatic int item_{i}(int a, int b) {{\n    int sum = a + b;\n    if (sum > {i}) {{\n        return sum - {i};\n    }}\n    return sum * 2;\n}}\n\n"
        ),
        Language::Java => format!(
            "    /** Item {i}. */\n    static int item{i}(int a, int b) {{\n        int sum = a + b;\n        if (sum > {i}) {{\n            return sum - {i};\n        }}\n        return sum * 2;\n    }}\n\n"
        ),
        Language::Bash => format!(
            "item_{i}() {{\n  local sum=$(( $1 + $2 ))\n  if [ \"$sum\" -gt {i} ]; then\n    echo \"big $sum\"\n  else\n    echo small\n  fi\n}}\n\n"
        ),
        Language::Html => format!(
            "<section id=\"s{i}\">\n  <h2>Section {i}</h2>\n  <p class=\"lead\">Text {i}</p>\n  <ul>\n    <li><a href=\"#a{i}\">a</a></li>\n  </ul>\n</section>\n"
        ),
        Language::Css => format!(
            ".item-{i} > .title:hover,\n.item-{i}.active {{\n  color: #{:06x};\n  margin: 0 {i}px;\n}}\n\n",
            i % 0xffffff
        ),
    }
}

/// A valid file of about [`LINES`] lines.
fn file(language: Language) -> String {
    let mut body = String::new();
    let mut i = 0;
    while body.matches('\n').count() < LINES {
        body.push_str(&block(language, i));
        i += 1;
    }
    match language {
        Language::Go => format!("package main\n\n{body}"),
        Language::Java => format!("public class Items {{\n{body}}}\n"),
        Language::Json => format!("{{\n{}  \"end\": true\n}}\n", body),
        Language::Html => format!("<!DOCTYPE html>\n<html>\n<body>\n{body}</body>\n</html>\n"),
        _ => body,
    }
}

fn time<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let start = Instant::now();
    let value = f();
    (value, start.elapsed())
}

#[test]
#[ignore = "timing; run with --release --ignored"]
fn ten_thousand_lines() {
    println!(
        "{:<11} {:>6} {:>8} {:>9} {:>9} {:>11} {:>11}",
        "language", "lines", "KiB", "parse", "outline", "gate pass", "gate refuse"
    );
    for language in Language::ALL {
        let text = file(language);
        let lines = text.lines().count();
        let (report, parse_time) = time(|| parse(language, &text).unwrap());
        assert_eq!(report.error_count, 0, "{language}: {:?}", report.errors);
        let (items, outline_time) = time(|| outline(language, &text).unwrap());
        assert!(!items.is_empty(), "{language}");

        // A one-line edit in the middle, first harmless, then breaking.
        let middle = text.len() / 2;
        let at = middle + text[middle..].find('\n').unwrap() + 1;
        let line = text[..at].matches('\n').count() + 1;
        let good = format!("{}{}{}", &text[..at], comment(language), &text[at..]);
        let (outcome, pass_time) = time(|| check_edit(language, &text, &good, Some((line, line))));
        assert_eq!(outcome, GateOutcome::Pass { note: None }, "{language}");
        let bad = format!("{}{}{}", &text[..at], breaker(language), &text[at..]);
        let (outcome, refuse_time) = time(|| check_edit(language, &text, &bad, Some((line, line))));
        assert!(
            matches!(outcome, GateOutcome::Refuse(_)),
            "{language}: {outcome:?}"
        );

        println!(
            "{:<11} {:>6} {:>8} {:>9.1?} {:>9.1?} {:>11.1?} {:>11.1?}",
            language.id(),
            lines,
            text.len() / 1024,
            parse_time,
            outline_time,
            pass_time,
            refuse_time
        );
        if !cfg!(debug_assertions) {
            for (what, took) in [("parse", parse_time), ("gate", refuse_time)] {
                assert!(
                    took < Duration::from_millis(500),
                    "{language}: {what} took {took:?}"
                );
            }
        }
    }
}

/// A line that is valid anywhere a new line can start in `language`.
fn comment(language: Language) -> &'static str {
    match language {
        Language::Python | Language::Yaml | Language::Toml | Language::Bash => "# note\n",
        Language::Html => "<!-- note -->\n",
        Language::Css => "/* note */\n",
        Language::Json => "  // note\n",
        _ => "// note\n",
    }
}

/// A line that breaks the syntax wherever a new line can start in `language`.
fn breaker(language: Language) -> &'static str {
    match language {
        // Stray brackets are only text between HTML elements.
        Language::Html => "<p class=\"x>\n",
        _ => "\"{([\n",
    }
}
