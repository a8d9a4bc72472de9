//! Generated source files in several languages: a header and a run of units
//! (functions, Markdown sections, YAML entries), each made of statements with
//! real nesting, comments and string messages, from fixed word lists.

use super::rng::Rng;

/// The languages the corpus covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    Rust,
    Python,
    JavaScript,
    TypeScript,
    Go,
    Markdown,
    Yaml,
}

impl Lang {
    /// Every language.
    pub const ALL: [Lang; 7] = [
        Lang::Rust,
        Lang::Python,
        Lang::JavaScript,
        Lang::TypeScript,
        Lang::Go,
        Lang::Markdown,
        Lang::Yaml,
    ];

    /// The programming languages (with nested blocks and comments).
    pub const CODE: [Lang; 5] = [
        Lang::Rust,
        Lang::Python,
        Lang::JavaScript,
        Lang::TypeScript,
        Lang::Go,
    ];

    /// Short name for case ids.
    pub fn name(self) -> &'static str {
        match self {
            Lang::Rust => "rs",
            Lang::Python => "py",
            Lang::JavaScript => "js",
            Lang::TypeScript => "ts",
            Lang::Go => "go",
            Lang::Markdown => "md",
            Lang::Yaml => "yaml",
        }
    }

    /// One level of indentation as the language's files usually write it.
    pub fn unit(self) -> &'static str {
        match self {
            Lang::Rust | Lang::Python => "    ",
            Lang::JavaScript | Lang::TypeScript | Lang::Yaml | Lang::Markdown => "  ",
            Lang::Go => "\t",
        }
    }

    /// The elision marker an agent would write in this language.
    pub fn marker(self, rng: &mut Rng) -> &'static str {
        match self {
            Lang::Rust | Lang::JavaScript | Lang::TypeScript | Lang::Go => {
                rng.word(&["// ...", "// ... existing code ...", "// …"])
            }
            Lang::Python => rng.word(&["# ...", "...", "# ... rest unchanged"]),
            Lang::Yaml => "# ...",
            Lang::Markdown => rng.word(&["...", "<!-- ... -->"]),
        }
    }

    fn comment(self) -> &'static str {
        match self {
            Lang::Python | Lang::Yaml => "#",
            _ => "//",
        }
    }
}

const VERBS: [&str; 24] = [
    "load", "parse", "build", "merge", "render", "fetch", "store", "check", "apply", "split",
    "count", "scan", "resolve", "encode", "decode", "flush", "index", "rank", "trim", "sort",
    "align", "clamp", "shift", "probe",
];
const NOUNS: [&str; 24] = [
    "config", "record", "token", "buffer", "entry", "header", "payload", "session", "request",
    "report", "table", "column", "cursor", "batch", "segment", "label", "metric", "window",
    "digest", "schedule", "ledger", "channel", "snapshot", "quota",
];
const FIELDS: [&str; 12] = [
    "id", "name", "size", "offset", "count", "weight", "score", "limit", "total", "kind", "depth",
    "width",
];
const COMMENTS: [&str; 12] = [
    "don't retry here - the caller's loop handles it",
    "it's fine to skip empty NOUNs",
    "keep in sync with the \"NOUN\" schema",
    "the NOUN's FIELD is checked above",
    "fast path - nothing to VERB...",
    "we can't trust the NOUN yet",
    "VERB before the lock is taken - see the notes",
    "NOUNs arrive sorted by FIELD",
    "the \"FIELD\" value may be stale",
    "this is the NOUN's last use",
    "order matters - VERB first, then store",
    "won't overflow: FIELD is bounded by the limit",
];
const MESSAGES: [&str; 8] = [
    "can't VERB NOUN",
    "NOUN isn't ready - retrying...",
    "VERB: NOUN's FIELD is too large",
    "skipping NOUN - it's empty",
    "done with NOUN",
    "VERB finished for the NOUN",
    "NOUN FIELD out of range",
    "won't VERB a closed NOUN",
];
const SENTENCES: [&str; 10] = [
    "The NOUN is VERBed once per run, so it's cheap to call.",
    "Use the FIELD setting to VERB large NOUNs - the default is fine.",
    "Each NOUN keeps its own FIELD; don't share them.",
    "When the NOUN changes, VERB it again...",
    "This section explains how the NOUN's FIELD is chosen.",
    "A \"NOUN\" here means one unit of work.",
    "The FIELD of a NOUN never goes down.",
    "You can VERB several NOUNs at a time.",
    "Errors are reported per NOUN, not per batch.",
    "It won't VERB a NOUN that is already closed.",
];

/// A random template of `list`, filled.
fn fill_from(rng: &mut Rng, list: &[&str]) -> String {
    let template = list[rng.below(list.len())];
    fill(rng, template)
}

/// Fills the placeholders of a template with random words.
fn fill(rng: &mut Rng, template: &str) -> String {
    let mut out = String::new();
    let mut rest = template;
    loop {
        let next = ["NOUN", "VERB", "FIELD"]
            .iter()
            .filter_map(|p| rest.find(p).map(|at| (at, *p)))
            .min();
        let Some((at, p)) = next else {
            out.push_str(rest);
            return out;
        };
        out.push_str(&rest[..at]);
        out.push_str(match p {
            "NOUN" => rng.word(&NOUNS),
            "VERB" => rng.word(&VERBS),
            _ => rng.word(&FIELDS),
        });
        rest = &rest[at + p.len()..];
    }
}

fn pascal(words: &[&str]) -> String {
    words
        .iter()
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect()
}

fn camel(words: &[&str]) -> String {
    let p = pascal(words);
    let mut c = p.chars();
    c.next()
        .map(|f| f.to_ascii_lowercase().to_string() + c.as_str())
        .unwrap_or_default()
}

/// A statement before it is written in a language.
enum Stmt {
    Let(String, String),
    Call(String),
    If(String, Vec<Stmt>),
    For(String, String, Vec<Stmt>),
    Comment(String),
    Log(String),
    Blank,
    Return(String),
}

/// Names used inside one function.
struct Scope {
    param: String,
    vars: Vec<String>,
}

fn call_name(lang: Lang, verb: &str, noun: &str) -> String {
    match lang {
        Lang::Rust | Lang::Python => format!("{verb}_{noun}"),
        Lang::Go => pascal(&[verb, noun]),
        _ => camel(&[verb, noun]),
    }
}

fn expr(rng: &mut Rng, lang: Lang, scope: &Scope) -> String {
    let v = rng.pick(&scope.vars).clone();
    match rng.below(4) {
        0 => format!("{}.{}", scope.param, rng.word(&FIELDS)),
        1 => format!(
            "{}({}, {})",
            call_name(lang, rng.word(&VERBS), rng.word(&NOUNS)),
            v,
            rng.range(1, 64)
        ),
        2 => format!("{} + {}", v, rng.range(2, 99)),
        _ => format!("{} * {}.{}", v, scope.param, rng.word(&FIELDS)),
    }
}

fn statements(
    rng: &mut Rng,
    lang: Lang,
    scope: &mut Scope,
    depth: usize,
    count: usize,
) -> Vec<Stmt> {
    let mut out = Vec::new();
    let mut had_comment = false;
    for k in 0..count {
        let roll = rng.below(10);
        let stmt = match roll {
            0 | 1 => {
                let name = format!("{}_{}", rng.word(&NOUNS), rng.word(&FIELDS));
                let name = if matches!(lang, Lang::Rust | Lang::Python) {
                    name
                } else {
                    camel(&name.split('_').collect::<Vec<_>>())
                };
                let e = expr(rng, lang, scope);
                scope.vars.push(name.clone());
                Stmt::Let(name, e)
            }
            2 => Stmt::Call(format!(
                "{}({}, {})",
                call_name(lang, rng.word(&VERBS), rng.word(&NOUNS)),
                scope.param,
                rng.pick(&scope.vars)
            )),
            3 if depth < 3 => {
                let cond = format!("{} > {}", rng.pick(&scope.vars), rng.range(1, 500));
                let inner = rng.range(1, 3);
                Stmt::If(cond, statements(rng, lang, scope, depth + 1, inner))
            }
            4 if depth < 3 => {
                let item = rng
                    .word(&["item", "part", "row", "child", "step"])
                    .to_string();
                let coll = format!("{}.{}s", scope.param, rng.word(&FIELDS));
                scope.vars.push(item.clone());
                let inner = rng.range(1, 3);
                let body = statements(rng, lang, scope, depth + 1, inner);
                scope.vars.pop();
                Stmt::For(item, coll, body)
            }
            5 => {
                had_comment = true;
                Stmt::Comment(fill_from(rng, &COMMENTS))
            }
            6 => {
                had_comment = true;
                Stmt::Log(fill_from(rng, &MESSAGES))
            }
            7 if depth == 1 && k > 0 && k + 1 < count => Stmt::Blank,
            8 if depth > 1 && k + 1 == count => Stmt::Return(expr(rng, lang, scope)),
            _ => {
                let e = expr(rng, lang, scope);
                Stmt::Call(format!("emit({e})"))
            }
        };
        out.push(stmt);
    }
    if depth == 1 && !had_comment {
        out.insert(
            rng.below(out.len() + 1),
            Stmt::Comment(fill_from(rng, &COMMENTS)),
        );
    }
    out
}

fn render(lang: Lang, stmts: &[Stmt], depth: usize, out: &mut Vec<String>) {
    let pad = lang.unit().repeat(depth);
    let c = lang.comment();
    for s in stmts {
        match s {
            Stmt::Let(v, e) => out.push(match lang {
                Lang::Rust => format!("{pad}let {v} = {e};"),
                Lang::Python => format!("{pad}{v} = {e}"),
                Lang::TypeScript => format!("{pad}const {v}: number = {e};"),
                Lang::Go => format!("{pad}{v} := {e}"),
                _ => format!("{pad}const {v} = {e};"),
            }),
            Stmt::Call(x) => out.push(match lang {
                Lang::Python | Lang::Go => format!("{pad}{x}"),
                _ => format!("{pad}{x};"),
            }),
            Stmt::If(cond, body) => {
                out.push(match lang {
                    Lang::Python => format!("{pad}if {cond}:"),
                    Lang::JavaScript | Lang::TypeScript => format!("{pad}if ({cond}) {{"),
                    _ => format!("{pad}if {cond} {{"),
                });
                render(lang, body, depth + 1, out);
                if lang != Lang::Python {
                    out.push(format!("{pad}}}"));
                }
            }
            Stmt::For(item, coll, body) => {
                out.push(match lang {
                    Lang::Rust => format!("{pad}for {item} in {coll}.iter() {{"),
                    Lang::Python => format!("{pad}for {item} in {coll}:"),
                    Lang::Go => format!("{pad}for _, {item} := range {coll} {{"),
                    _ => format!("{pad}for (const {item} of {coll}) {{"),
                });
                render(lang, body, depth + 1, out);
                if lang != Lang::Python {
                    out.push(format!("{pad}}}"));
                }
            }
            Stmt::Comment(t) => out.push(format!("{pad}{c} {t}")),
            Stmt::Log(m) => out.push(match lang {
                Lang::Rust => format!("{pad}log::info!(\"{m}\");"),
                Lang::Python => format!("{pad}logger.info(\"{m}\")"),
                Lang::Go => format!("{pad}log.Printf(\"{m}\")"),
                _ => format!("{pad}console.log(\"{m}\");"),
            }),
            Stmt::Blank => out.push(String::new()),
            Stmt::Return(e) => out.push(match lang {
                Lang::Rust => format!("{pad}return Ok({e});"),
                Lang::Python => format!("{pad}return {e}"),
                Lang::Go => format!("{pad}return {e}, nil"),
                _ => format!("{pad}return {e};"),
            }),
        }
    }
}

fn function(rng: &mut Rng, lang: Lang) -> Vec<String> {
    let verb = rng.word(&VERBS);
    let noun = rng.word(&NOUNS);
    let param = rng.word(&NOUNS).to_string();
    let mut scope = Scope {
        param: param.clone(),
        vars: vec!["limit".to_string()],
    };
    let count = rng.range(4, 9);
    let body = statements(rng, lang, &mut scope, 1, count);
    let result = scope.vars.last().cloned().unwrap_or_default();
    let doc = fill(rng, "VERBs the NOUN's FIELD");
    let mut out = Vec::new();
    match lang {
        Lang::Rust => {
            out.push(format!("/// {doc}."));
            out.push(format!(
                "pub fn {}_{}({param}: &{}, limit: usize) -> Result<usize, Error> {{",
                verb,
                noun,
                pascal(&[&param])
            ));
        }
        Lang::Python => {
            out.push(format!("def {verb}_{noun}({param}, limit=10):"));
            out.push(format!("    \"\"\"{}.\"\"\"", capitalize(&doc)));
        }
        Lang::JavaScript => {
            out.push(format!("// {doc}."));
            out.push(format!(
                "export function {}({param}, limit) {{",
                camel(&[verb, noun])
            ));
        }
        Lang::TypeScript => {
            out.push(format!("/** {doc}. */"));
            out.push(format!(
                "export function {}({param}: {}, limit: number): number {{",
                camel(&[verb, noun]),
                pascal(&[&param])
            ));
        }
        Lang::Go => {
            out.push(format!("// {} {doc}.", pascal(&[verb, noun])));
            out.push(format!(
                "func {}({param} *{}, limit int) (int, error) {{",
                pascal(&[verb, noun]),
                pascal(&[&param])
            ));
        }
        Lang::Markdown | Lang::Yaml => unreachable!("not code"),
    }
    render(lang, &body, 1, &mut out);
    let u = lang.unit();
    match lang {
        Lang::Rust => {
            out.push(format!("{u}Ok({result})"));
            out.push("}".to_string());
        }
        Lang::Python => out.push(format!("{u}return {result}")),
        Lang::Go => {
            out.push(format!("{u}return {result}, nil"));
            out.push("}".to_string());
        }
        _ => {
            out.push(format!("{u}return {result};"));
            out.push("}".to_string());
        }
    }
    out
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
        .unwrap_or_default()
}

fn section(rng: &mut Rng) -> Vec<String> {
    let mut out = vec![
        format!(
            "## {} the {}",
            capitalize(rng.word(&VERBS)),
            rng.word(&NOUNS)
        ),
        String::new(),
    ];
    for _ in 0..rng.range(2, 4) {
        out.push(fill_from(rng, &SENTENCES));
    }
    out.push(String::new());
    for _ in 0..rng.range(2, 4) {
        out.push(format!("- {}", fill(rng, "VERB the NOUN's FIELD")));
        if rng.chance(40) {
            out.push(format!("  - {}", fill(rng, "then VERB the NOUN - once")));
        }
    }
    out
}

fn entry(rng: &mut Rng) -> Vec<String> {
    let key = format!("{}-{}", rng.word(&NOUNS), rng.word(&VERBS));
    let mut out = vec![
        format!("{key}:"),
        format!("  name: {}", rng.word(&NOUNS)),
        format!("  enabled: {}", rng.word(&["true", "false"])),
        format!("  # {}", fill_from(rng, &COMMENTS)),
        "  limits:".to_string(),
        format!("    cpu: \"{}m\"", rng.range(100, 900)),
        format!("    memory: \"{}Mi\"", rng.range(64, 999)),
    ];
    out.push("  ports:".to_string());
    for _ in 0..rng.range(1, 3) {
        out.push(format!("    - {}", rng.range(1000, 9999)));
    }
    out.push(format!("  description: \"{}\"", fill_from(rng, &MESSAGES)));
    out
}

fn header(rng: &mut Rng, lang: Lang) -> Vec<String> {
    let noun = rng.word(&NOUNS);
    match lang {
        Lang::Rust => vec![
            "use std::collections::HashMap;".into(),
            format!("use crate::{noun}::{};", pascal(&[noun])),
        ],
        Lang::Python => vec![
            "import logging".into(),
            "".into(),
            "logger = logging.getLogger(__name__)".into(),
        ],
        Lang::JavaScript | Lang::TypeScript => {
            vec![format!("import {{ emit }} from \"./{noun}.js\";")]
        }
        Lang::Go => vec![
            format!("package {noun}"),
            "".into(),
            "import (".into(),
            "\t\"log\"".into(),
            ")".into(),
        ],
        Lang::Markdown => vec![
            format!("# The {noun} guide"),
            "".into(),
            fill_from(rng, &SENTENCES),
        ],
        Lang::Yaml => vec!["version: 2".into()],
    }
}

/// A generated file: its lines and the line ranges of its units.
pub struct Source {
    /// The language.
    pub lang: Lang,
    /// Lines without endings.
    pub lines: Vec<String>,
    /// First and last line (inclusive, 0-based) of each unit.
    pub units: Vec<(usize, usize)>,
}

/// One unit of `lang` on its own.
pub fn unit(rng: &mut Rng, lang: Lang) -> Vec<String> {
    match lang {
        Lang::Markdown => section(rng),
        Lang::Yaml => entry(rng),
        _ => function(rng, lang),
    }
}

/// A file of `lang` with a number of units in `units`.
pub fn generate(rng: &mut Rng, lang: Lang, units: std::ops::RangeInclusive<usize>) -> Source {
    let units = rng.range(*units.start(), *units.end());
    let mut lines = header(rng, lang);
    let mut ranges = Vec::new();
    for _ in 0..units {
        lines.push(String::new());
        if lang == Lang::Python {
            lines.push(String::new());
        }
        let u = unit(rng, lang);
        ranges.push((lines.len(), lines.len() + u.len() - 1));
        lines.extend(u);
    }
    Source {
        lang,
        lines,
        units: ranges,
    }
}
