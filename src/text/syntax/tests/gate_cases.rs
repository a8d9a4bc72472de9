//! For every language: a valid file, an edit that keeps it valid, and an edit
//! that breaks it, refused with the line and message of the break.

use super::super::{GateOutcome, Language, check_edit, parse};
use super::edit;

struct Case {
    language: Language,
    valid: &'static str,
    good: (&'static str, &'static str),
    bad: (&'static str, &'static str),
    /// Line, column and message of the error the bad edit adds.
    refused: (usize, usize, &'static str),
    /// Further errors it adds, as `line:column message`.
    also: &'static [&'static str],
    /// Line and message of the error a second break adds to the broken
    /// file, or `None` where the first break swallows it.
    second: Option<(usize, &'static str)>,
}

fn run(case: &Case) {
    let name = case.language.name();
    let report = parse(case.language, case.valid).unwrap();
    assert_eq!(report.error_count, 0, "{name}: {:?}", report.errors);

    let (after, lines) = edit(case.valid, case.good.0, case.good.1);
    assert_eq!(
        check_edit(case.language, case.valid, &after, Some(lines)),
        GateOutcome::Pass { note: None },
        "{name}: good edit"
    );

    let (after, lines) = edit(case.valid, case.bad.0, case.bad.1);
    match check_edit(case.language, case.valid, &after, Some(lines)) {
        GateOutcome::Refuse(regression) => {
            let error = &regression.first_new_error;
            assert_eq!(
                (error.line, error.column, error.message.as_str()),
                case.refused,
                "{name}: bad edit"
            );
            assert_eq!(regression.before_errors, 0, "{name}");
            let further: Vec<String> = regression
                .further_new_errors
                .iter()
                .map(|e| format!("{}:{} {}", e.line, e.column, e.message))
                .collect();
            assert_eq!(further, case.also, "{name}: further errors");
            assert_eq!(regression.new_error_count, 1 + case.also.len(), "{name}");
        }
        outcome => panic!("{name}: bad edit passed: {outcome:?}"),
    }
    // Without the edited lines the count alone must still catch it.
    assert!(
        matches!(
            check_edit(case.language, case.valid, &after, None),
            GateOutcome::Refuse(_)
        ),
        "{name}: bad edit without lines"
    );

    // The broken file may still take the good edit, with a note about the
    // errors it already has.
    let broken = after;
    let (fixed_elsewhere, lines) = edit(&broken, case.good.0, case.good.1);
    match check_edit(case.language, &broken, &fixed_elsewhere, Some(lines)) {
        GateOutcome::Pass { note: Some(note) } => {
            assert!(note.starts_with("the file already had"), "{name}: {note}");
        }
        outcome => panic!("{name}: good edit on the broken file: {outcome:?}"),
    }

    // A second break in the broken file is refused, even where it makes
    // the parser lose sight of the first.
    let inserted = format!("{}{}", breaker(case.language), case.good.0);
    let (broken_twice, lines) = edit(&broken, case.good.0, &inserted);
    let outcome = check_edit(
        case.language,
        &broken,
        &broken_twice,
        Some((lines.0, lines.0)),
    );
    match (outcome, case.second) {
        (GateOutcome::Refuse(regression), Some(expected)) => {
            let error = &regression.first_new_error;
            assert_eq!((error.line, error.message.as_str()), expected, "{name}");
        }
        (GateOutcome::Pass { note: Some(_) }, None) => {}
        (outcome, _) => panic!("{name}: second break: {outcome:?}"),
    }
}

/// A line that breaks the syntax wherever a line can start in `language`.
fn breaker(language: Language) -> &'static str {
    match language {
        // Stray brackets are only text between HTML elements.
        Language::Html => "</span>\n",
        _ => "\"{([\n",
    }
}

#[test]
fn rust() {
    run(&Case {
        language: Language::Rust,
        valid: "fn area(w: u32, h: u32) -> u32 {\n    w * h\n}\n\nfn main() {\n    println!(\"{}\", area(2, 3));\n}\n",
        good: ("    w * h\n", "    let a = w * h;\n    a\n"),
        bad: ("    w * h\n}\n", "    w * h\n"),
        refused: (1, 32, "unclosed `{`: no matching `}`"),
        also: &["4:1 unexpected `fn main`", "4:10 missing `;`"],
        // Rust strings may span lines: the inserted quote pairs with the
        // one on line 6, where the parser then fails.
        second: Some((6, "unexpected `{`")),
    });
}

#[test]
fn python() {
    run(&Case {
        language: Language::Python,
        valid: "def area(w, h):\n    return w * h\n\n\nprint(area(2, 3))\n",
        good: (
            "    return w * h\n",
            "    result = w * h\n    return result\n",
        ),
        bad: ("print(area(2, 3))", "print(area(2, 3)"),
        refused: (5, 6, "unclosed `(`: no matching `)`"),
        also: &[],
        // The inserted line leaves `def area` without an indented body, the
        // first thing wrong on that line.
        second: Some((
            2,
            "expected an indented block after function definition on line 1",
        )),
    });
}

#[test]
fn go() {
    run(&Case {
        language: Language::Go,
        valid: "package main\n\nimport \"fmt\"\n\nfunc area(w, h int) int {\n\treturn w * h\n}\n\nfunc main() {\n\tfmt.Println(area(2, 3))\n}\n",
        good: ("\treturn w * h\n", "\ta := w * h\n\treturn a\n"),
        bad: ("\treturn w * h\n}\n", "\treturn w * h\n"),
        refused: (8, 6, "unexpected `main`"),
        also: &["10:2 missing `}` to close the `{` on line 5"],
        second: Some((6, "unclosed string: no closing `\"`")),
    });
}

#[test]
fn javascript() {
    run(&Case {
        language: Language::JavaScript,
        valid: "function area(w, h) {\n  return w * h;\n}\n\nconsole.log(area(2, 3));\n",
        good: ("  return w * h;\n", "  const a = w * h;\n  return a;\n"),
        bad: ("console.log(area(2, 3));", "console.log(area(2, 3);"),
        refused: (5, 23, "missing `)` to close the `(` on line 5"),
        also: &[],
        second: Some((2, "unclosed string: no closing `\"`")),
    });
}

#[test]
fn typescript() {
    run(&Case {
        language: Language::TypeScript,
        valid: "interface Size {\n  w: number;\n  h: number;\n}\n\nexport function area(s: Size): number {\n  return s.w * s.h;\n}\n",
        good: ("  h: number;\n", "  h: number;\n  label?: string;\n"),
        bad: ("area(s: Size): number", "area(s: Size: number"),
        refused: (6, 29, "missing `)` to close the `(` on line 6"),
        also: &[],
        second: Some((3, "unclosed string: no closing `\"`")),
    });
}

#[test]
fn tsx() {
    run(&Case {
        language: Language::Tsx,
        valid: "export function Card({ title }: { title: string }) {\n  return (\n    <div className=\"card\">\n      <h2>{title}</h2>\n    </div>\n  );\n}\n",
        good: (
            "  return (\n",
            "  const label = title.trim();\n  return (\n",
        ),
        bad: ("      <h2>{title}</h2>\n", "      <h2>{title}\n"),
        refused: (2, 3, "cannot parse lines 2-7 (from `return (` to `);`)"),
        also: &[],
        second: Some((2, "cannot parse lines 2-8 (from `\"{([` to `);`)")),
    });
}

#[test]
fn json() {
    run(&Case {
        language: Language::Json,
        valid: "{\n  \"name\": \"demo\",\n  \"version\": \"1.0.0\",\n  \"private\": true\n}\n",
        good: (
            "  \"private\": true\n",
            "  \"private\": true,\n  \"license\": \"MIT\"\n",
        ),
        bad: ("  \"version\": \"1.0.0\",\n", "  \"version\": \"1.0.0\"\n"),
        refused: (
            4,
            3,
            "`\"private\": true` cannot follow `\"version\": \"1.0.0\"`",
        ),
        also: &[],
        // The inserted line ends the object early, at the end of line 3.
        second: Some((3, "missing `}` to close the `{` on line 1")),
    });
}

#[test]
fn yaml() {
    run(&Case {
        language: Language::Yaml,
        valid: "name: demo\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - run: make\n",
        good: (
            "      - run: make\n",
            "      - run: make\n      - run: make test\n",
        ),
        bad: ("    steps:\n", "   steps:\n"),
        refused: (5, 4, "`steps:` cannot follow `runs-on: ubuntu-latest`"),
        also: &[],
        // The wrongly indented key leaves the whole file unreadable to the
        // YAML grammar; the second break disappears inside that error.
        second: None,
    });
}

#[test]
fn toml() {
    run(&Case {
        language: Language::Toml,
        valid: "[package]\nname = \"demo\"\nversion = \"0.1.0\"\n\n[dependencies]\nserde = \"1\"\n",
        good: (
            "serde = \"1\"\n",
            "serde = \"1\"\nregex = { version = \"1\", default-features = false }\n",
        ),
        bad: ("name = \"demo\"\n", "name = \"demo\n"),
        refused: (2, 8, "unclosed string: no closing `\"`"),
        also: &[],
        second: Some((6, "unclosed string: no closing `\"`")),
    });
}

#[test]
fn c() {
    run(&Case {
        language: Language::C,
        valid: "#include <stdio.h>\n\nstatic int area(int w, int h) {\n    return w * h;\n}\n\nint main(void) {\n    printf(\"%d\\n\", area(2, 3));\n    return 0;\n}\n",
        good: ("    return w * h;\n", "    int a = w * h;\n    return a;\n"),
        bad: ("    return 0;\n", "    return 0\n"),
        refused: (9, 13, "missing `;`"),
        also: &[],
        second: Some((4, "missing `\"`")),
    });
}

#[test]
fn cpp() {
    run(&Case {
        language: Language::Cpp,
        valid: "#include <vector>\n\nclass Shape {\npublic:\n    virtual ~Shape() = default;\n    virtual int area() const = 0;\n};\n\nint total(const std::vector<Shape*>& shapes) {\n    int sum = 0;\n    for (auto* s : shapes) sum += s->area();\n    return sum;\n}\n",
        good: ("    int sum = 0;\n", "    int sum = 0;\n    sum += 0;\n"),
        bad: (
            "    for (auto* s : shapes) sum += s->area();\n",
            "    for (auto* s : shapes sum += s->area();\n",
        ),
        refused: (11, 9, "unclosed `(`: no matching `)`"),
        also: &["11:27 unexpected `sum`"],
        second: Some((10, "unclosed string: no closing `\"`")),
    });
}

#[test]
fn java() {
    run(&Case {
        language: Language::Java,
        valid: "public class Shapes {\n    static int area(int w, int h) {\n        return w * h;\n    }\n\n    public static void main(String[] args) {\n        System.out.println(area(2, 3));\n    }\n}\n",
        good: (
            "        return w * h;\n",
            "        int a = w * h;\n        return a;\n",
        ),
        bad: ("        return w * h;\n    }\n", "        return w * h;\n"),
        refused: (5, 28, "missing `;`"),
        also: &[
            "5:28 unexpected `(String[] args)`",
            "8:2 missing `}` to close the `{` on line 1",
        ],
        second: Some((3, "unclosed string: no closing `\"`")),
    });
}

#[test]
fn bash() {
    run(&Case {
        language: Language::Bash,
        valid: "#!/bin/bash\nset -e\n\nif [ -f build.log ]; then\n  rm build.log\nfi\necho done\n",
        good: ("  rm build.log\n", "  rm build.log\n  echo removed\n"),
        bad: ("fi\n", ""),
        refused: (6, 10, "missing `fi`"),
        also: &[],
        second: Some((5, "unclosed string: no closing `\"`")),
    });
}

#[test]
fn html() {
    run(&Case {
        language: Language::Html,
        valid: "<!DOCTYPE html>\n<html>\n<body>\n  <h1 class=\"title\">Demo</h1>\n  <p>Text</p>\n</body>\n</html>\n",
        good: ("  <p>Text</p>\n", "  <p>Text</p>\n  <p>More</p>\n"),
        bad: ("<h1 class=\"title\">", "<h1 class=\"title>"),
        refused: (4, 13, "unclosed string: no closing `\"`"),
        also: &[],
        // The unclosed attribute quote runs on to the end of the file, and
        // the second break disappears inside it.
        second: None,
    });
}

#[test]
fn css() {
    run(&Case {
        language: Language::Css,
        valid: "body {\n  margin: 0;\n}\n\n.card {\n  padding: 4px;\n}\n",
        good: ("  padding: 4px;\n", "  padding: 4px;\n  color: red;\n"),
        bad: ("  margin: 0;\n}\n", "  margin: 0;\n"),
        refused: (6, 2, "missing `}` to close the `{` on line 1"),
        also: &[],
        second: Some((5, "unclosed string: no closing `\"`")),
    });
}
