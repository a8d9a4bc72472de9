//! The languages' own parsers as independent judges of the expected files:
//! `python3` compiles Python, `node` compiles JavaScript. All texts of one
//! language are judged by one process. A judge that is not installed, or
//! that rejects a file's original text, judges nothing.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use super::lang::Lang;

/// Reads file names from stdin, prints `ok` or `bad` for each.
const PYTHON: &str = "import sys\nfor name in sys.stdin.read().split('\\n'):\n    if not name: continue\n    try:\n        compile(open(name, encoding='utf-8').read(), name, 'exec')\n        print('ok')\n    except (SyntaxError, ValueError):\n        print('bad')\n";

const NODE: &str = "const fs = require('fs'); const vm = require('vm');\nconst names = fs.readFileSync(0, 'utf8').split('\\n').filter(n => n);\nfor (const n of names) {\n  try { new vm.Script(fs.readFileSync(n, 'utf8'), { filename: n }); console.log('ok'); }\n  catch (e) { console.log('bad'); }\n}\n";

/// For each text, whether the language's parser accepts it; `None` when no
/// parser judged it.
pub fn parses(lang: Lang, texts: &[&str]) -> Vec<Option<bool>> {
    let (program, args): (&str, Vec<&str>) = match lang {
        Lang::Python => ("python3", vec!["-c", PYTHON]),
        Lang::JavaScript => ("node", vec!["-e", NODE]),
        _ => return vec![None; texts.len()],
    };
    let Ok(dir) = tempfile::tempdir() else {
        return vec![None; texts.len()];
    };
    let mut names = String::new();
    for (k, text) in texts.iter().enumerate() {
        let path = dir.path().join(format!("case{k}.{}", lang.name()));
        if std::fs::write(&path, text).is_err() {
            return vec![None; texts.len()];
        }
        names.push_str(&path.to_string_lossy());
        names.push('\n');
    }
    run(program, &args, &names, dir.path())
        .filter(|answers| answers.len() == texts.len())
        .unwrap_or_else(|| vec![None; texts.len()])
}

fn run(program: &str, args: &[&str], input: &str, dir: &Path) -> Option<Vec<Option<bool>>> {
    let mut child = Command::new(program)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    child.stdin.take()?.write_all(input.as_bytes()).ok()?;
    let out = child.wait_with_output().ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    Some(
        text.lines()
            .map(|l| match l.trim() {
                "ok" => Some(true),
                "bad" => Some(false),
                _ => None,
            })
            .collect(),
    )
}
