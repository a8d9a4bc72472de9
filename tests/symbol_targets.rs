//! Symbol targets of TextRead and TextPatch on a Rust, a Python, a
//! TypeScript and a Go file: read, replace the body, insert after, delete,
//! each checked on the file's exact bytes.

mod support;

use serde_json::{Value, json};
use support::Vault;

const RUST: &str = "use std::fmt;

/// A calculator.
#[derive(Debug)]
pub struct Calc {
    total: i64,
}

impl Calc {
    /// Adds `n`.
    pub fn add(&mut self, n: i64) -> i64 {
        self.total += n;
        self.total
    }

    pub fn reset(&mut self) {
        self.total = 0;
    }
}

impl fmt::Display for Calc {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, \"{}\", self.total)
    }
}
";

const PYTHON: &str = "import os


class Greeter:
    \"\"\"Says things.\"\"\"

    def __init__(self, name):
        self.name = name

    @property
    def upper(self):
        return self.name.upper()

    def greet(self):
        # Greets.
        return f\"Hi {self.name}\"


def main():
    print(Greeter(\"x\").greet())
";

const TYPESCRIPT: &str = "export interface Shape {
  area(): number;
}

export class Circle implements Shape {
  constructor(private r: number) {}

  /** The area. */
  area(): number {
    return Math.PI * this.r ** 2;
  }
}

export const double = (x: number): number => {
  return x * 2;
};
";

const GO: &str = "package calc

// Calc adds numbers.
type Calc struct {
\ttotal int
}

// Add adds n.
func (c *Calc) Add(n int) int {
\tc.total += n
\treturn c.total
}

func main() {
\tvar c Calc
\tc.Add(1)
}
";

fn vault_with(name: &str, text: &str) -> Vault {
    let vault = Vault::new();
    vault.write(name, text);
    vault
}

fn read(vault: &Vault, file: &str, target: Value) -> Value {
    vault.ok("TextRead", json!({"filePath": file, "target": target}))
}

fn patch(
    vault: &Vault,
    file: &str,
    operation: &str,
    target: Value,
    content: Option<&str>,
) -> Value {
    let mut args = json!({"filePath": file, "operation": operation, "target": target});
    if let Some(content) = content {
        args["content"] = json!(content);
    }
    vault.ok("TextPatch", args)
}

#[test]
fn rust_symbols() {
    let vault = vault_with("calc.rs", RUST);
    let out = read(&vault, "calc.rs", json!({"symbol": "Calc.add"}));
    assert_eq!(
        out["content"],
        "    /// Adds `n`.\n    pub fn add(&mut self, n: i64) -> i64 {\n        self.total += n;\n        self.total\n    }"
    );
    assert_eq!(out["range"], json!({"startLine": 10, "endLine": 14}));
    let body = read(&vault, "calc.rs", json!({"symbolBody": "Calc.fmt"}));
    assert_eq!(body["content"], "        write!(f, \"{}\", self.total)");

    patch(
        &vault,
        "calc.rs",
        "replace",
        json!({"symbolBody": "Calc.add"}),
        Some("self.total -= n;\nself.total\n"),
    );
    let after_body = RUST.replace("        self.total += n;\n", "        self.total -= n;\n");
    assert_eq!(vault.read_string("calc.rs"), after_body);

    patch(
        &vault,
        "calc.rs",
        "insert",
        json!({"symbol": "fn Calc.add"}),
        Some("pub fn double(&mut self) {\n    self.total *= 2;\n}"),
    );
    let after_insert = after_body.replace(
        "        self.total\n    }\n\n    pub fn reset",
        "        self.total\n    }\n\n    pub fn double(&mut self) {\n        self.total *= 2;\n    }\n\n    pub fn reset",
    );
    assert_eq!(vault.read_string("calc.rs"), after_insert);

    // The last function of the impl goes with the blank line before it.
    patch(
        &vault,
        "calc.rs",
        "delete",
        json!({"symbol": "Calc.reset"}),
        None,
    );
    let after_delete = after_insert.replace(
        "\n\n    pub fn reset(&mut self) {\n        self.total = 0;\n    }\n",
        "\n",
    );
    assert_eq!(vault.read_string("calc.rs"), after_delete);

    // The struct goes with its doc comment, its attribute and one blank line.
    patch(
        &vault,
        "calc.rs",
        "delete",
        json!({"symbol": "struct Calc"}),
        None,
    );
    let after_struct = after_delete.replace(
        "/// A calculator.\n#[derive(Debug)]\npub struct Calc {\n    total: i64,\n}\n\n",
        "",
    );
    assert_eq!(vault.read_string("calc.rs"), after_struct);
}

#[test]
fn python_symbols() {
    let vault = vault_with("greet.py", PYTHON);
    let out = read(&vault, "greet.py", json!({"symbol": "Greeter.upper"}));
    assert_eq!(
        out["content"],
        "    @property\n    def upper(self):\n        return self.name.upper()"
    );

    patch(
        &vault,
        "greet.py",
        "replace",
        json!({"symbolBody": "Greeter.greet"}),
        Some("return 'Hello ' + self.name"),
    );
    let after_body = PYTHON.replace(
        "        # Greets.\n        return f\"Hi {self.name}\"\n",
        "        return 'Hello ' + self.name\n",
    );
    assert_eq!(vault.read_string("greet.py"), after_body);

    patch(
        &vault,
        "greet.py",
        "insert",
        json!({"symbol": "main"}),
        Some("    def other():\n        pass\n"),
    );
    let after_insert = format!("{after_body}\n\ndef other():\n    pass\n");
    assert_eq!(vault.read_string("greet.py"), after_insert);

    patch(
        &vault,
        "greet.py",
        "delete",
        json!({"symbol": "Greeter.upper"}),
        None,
    );
    let after_delete = after_insert.replace(
        "    @property\n    def upper(self):\n        return self.name.upper()\n\n",
        "",
    );
    assert_eq!(vault.read_string("greet.py"), after_delete);
}

#[test]
fn typescript_symbols() {
    let vault = vault_with("shape.ts", TYPESCRIPT);
    let out = read(&vault, "shape.ts", json!({"symbol": "Circle.area"}));
    assert_eq!(
        out["content"],
        "  /** The area. */\n  area(): number {\n    return Math.PI * this.r ** 2;\n  }"
    );

    patch(
        &vault,
        "shape.ts",
        "replace",
        json!({"symbolBody": "double"}),
        Some("const y = x + x;\nreturn y;"),
    );
    let after_body = TYPESCRIPT.replace("  return x * 2;\n", "  const y = x + x;\n  return y;\n");
    assert_eq!(vault.read_string("shape.ts"), after_body);

    patch(
        &vault,
        "shape.ts",
        "insert",
        json!({"symbol": "Circle.area"}),
        Some("perimeter(): number {\n  return 2 * Math.PI * this.r;\n}"),
    );
    let after_insert = after_body.replace(
        "    return Math.PI * this.r ** 2;\n  }\n",
        "    return Math.PI * this.r ** 2;\n  }\n\n  perimeter(): number {\n    return 2 * Math.PI * this.r;\n  }\n",
    );
    assert_eq!(vault.read_string("shape.ts"), after_insert);

    patch(
        &vault,
        "shape.ts",
        "delete",
        json!({"symbol": "interface Shape"}),
        None,
    );
    let after_delete =
        after_insert.replace("export interface Shape {\n  area(): number;\n}\n\n", "");
    assert_eq!(vault.read_string("shape.ts"), after_delete);
}

#[test]
fn go_symbols() {
    let vault = vault_with("calc.go", GO);
    let out = read(&vault, "calc.go", json!({"symbol": "Calc.Add"}));
    assert_eq!(
        out["content"],
        "// Add adds n.\nfunc (c *Calc) Add(n int) int {\n\tc.total += n\n\treturn c.total\n}"
    );

    patch(
        &vault,
        "calc.go",
        "replace",
        json!({"symbolBody": "Calc.Add"}),
        Some("c.total -= n\nreturn c.total"),
    );
    let after_body = GO.replace("\tc.total += n\n", "\tc.total -= n\n");
    assert_eq!(vault.read_string("calc.go"), after_body);

    patch(
        &vault,
        "calc.go",
        "insert",
        json!({"symbol": "Calc.Add"}),
        Some("func (c *Calc) Reset() {\n\tc.total = 0\n}"),
    );
    let after_insert = after_body.replace(
        "\treturn c.total\n}\n",
        "\treturn c.total\n}\n\nfunc (c *Calc) Reset() {\n\tc.total = 0\n}\n",
    );
    assert_eq!(vault.read_string("calc.go"), after_insert);

    patch(
        &vault,
        "calc.go",
        "delete",
        json!({"symbol": "func main"}),
        None,
    );
    let after_delete =
        after_insert.replace("\n\nfunc main() {\n\tvar c Calc\n\tc.Add(1)\n}\n", "\n");
    assert_eq!(vault.read_string("calc.go"), after_delete);
}

#[test]
fn ambiguous_and_missing_symbols_are_refused_with_their_candidates() {
    let vault = vault_with("calc.rs", RUST);
    vault.write(
        "two.py",
        "class A:\n    def f(self):\n        pass\n\n\nclass B:\n    def f(self):\n        pass\n",
    );
    let before = vault.snapshot();
    let err = vault.err(
        "TextRead",
        json!({"filePath": "calc.rs", "target": {"symbol": "ad"}}),
    );
    assert!(
        err["message"]
            .as_str()
            .unwrap()
            .starts_with("Target not found in"),
        "{err}"
    );
    assert_eq!(
        err["candidates"][0],
        json!({"name": "Calc.add", "kind": "method", "line": 11})
    );
    let err = vault.err(
        "TextPatch",
        json!({"filePath": "two.py", "operation": "replace", "target": {"symbolBody": "f"}, "content": "return 1"}),
    );
    assert_eq!(
        err["candidates"],
        json!([
            {"name": "A.f", "kind": "method", "line": 2},
            {"name": "B.f", "kind": "method", "line": 7}
        ])
    );
    assert_eq!(vault.snapshot(), before);
}

#[test]
fn a_crlf_file_gets_crlf_lines() {
    let vault = vault_with("greet.py", &PYTHON.replace('\n', "\r\n"));
    patch(
        &vault,
        "greet.py",
        "replace",
        json!({"symbolBody": "main"}),
        Some("x = 1\nprint(x)"),
    );
    let want = PYTHON.replace(
        "    print(Greeter(\"x\").greet())\n",
        "    x = 1\n    print(x)\n",
    );
    assert_eq!(vault.read_string("greet.py"), want.replace('\n', "\r\n"));
}

#[test]
fn a_symbol_edit_that_breaks_the_syntax_is_refused() {
    let vault = vault_with("greet.py", PYTHON);
    let before = vault.read("greet.py");
    let err = vault.err(
        "TextPatch",
        json!({"filePath": "greet.py", "operation": "replace", "target": {"symbolBody": "main"}, "content": "print((1)"}),
    );
    assert!(err["message"].as_str().unwrap().contains("syntax"), "{err}");
    assert_eq!(vault.read("greet.py"), before);
}

#[test]
fn symbol_targets_need_a_source_file() {
    let vault = vault_with("notes.md", "# A\n");
    let err = vault.err(
        "TextRead",
        json!({"filePath": "notes.md", "target": {"symbol": "A"}}),
    );
    assert!(
        err["message"]
            .as_str()
            .unwrap()
            .contains("symbol targets work only in source files"),
        "{err}"
    );
}
