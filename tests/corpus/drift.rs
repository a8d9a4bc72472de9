//! A drift fuzzer over whatever real source and Markdown files the machine
//! holds: the Python standard library, the crates of the cargo registry, the
//! system's C headers and the npm packages the client tests install.
//!
//! It is a second, independent generator next to the pinned real-file corpus
//! (`real`), written so that its blind spots differ: blocks start and end
//! anywhere (on blank lines too), several drifts are combined at random, and
//! the views of the block are built line by line from one model of the
//! agent's memory. Every drift is a memory error, never an intent, so the
//! file the edit must produce is always the intended edit made on the disk's
//! lines; a refusal is a miss, anything else is a wrong edit.
//!
//! Files are not pinned (the fuzzer takes what is there), so figures differ
//! between machines; a seed and a case count make one machine's run
//! repeatable.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::real::cases::Doc;
use super::real::files::{python_root, registry_roots};
use super::real::lang::Lang;
use super::rng::Rng;
use super::text::{indent, is_content, occurrences, typo};
use super::{Tally, Verdict, first_difference};

/// One drifted edit.
#[derive(Debug, Clone)]
pub struct Case {
    /// The file and the block's first line, for reports.
    pub id: String,
    pub lang: Lang,
    pub file: String,
    pub search: String,
    pub new: String,
    /// The file the edit must produce.
    pub expect: String,
    /// The drifts the views carry.
    pub drifts: Vec<&'static str>,
}

/// Every drift the fuzzer knows, in report order.
pub const DRIFTS: [&str; 16] = [
    "none",
    "trailing-space",
    "stripped-space",
    "dedent",
    "shift",
    "tabs-as-spaces",
    "new-in-file-frame",
    "typo",
    "stale",
    "blank-missing",
    "blank-added",
    "blank-edge-lead",
    "blank-edge-trail",
    "line-endings",
    "elided-marker",
    "elided-ends",
];

/// Source files under the usual places, sorted, with their language.
pub fn discover() -> Vec<(PathBuf, Lang)> {
    let mut roots: Vec<PathBuf> = registry_roots();
    roots.extend(python_root());
    roots.push(PathBuf::from("/usr/include"));
    roots.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("target/clients"));
    let mut found = Vec::new();
    for root in roots {
        walk(&root, &mut found);
    }
    found.sort();
    found.dedup();
    found
}

fn walk(root: &Path, found: &mut Vec<(PathBuf, Lang)>) {
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            let path = entry.path();
            if kind.is_dir() {
                stack.push(path);
            } else if kind.is_file()
                && let Some(lang) = path.to_str().and_then(Lang::of)
            {
                found.push((path, lang));
            }
        }
    }
}

/// Which line of the file a line of a view stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Key {
    Disk(usize),
    Added,
    Extra,
}

/// A line of a view.
#[derive(Debug, Clone)]
struct Entry {
    key: Key,
    text: String,
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Byte ranges of the names in a line that may be renamed.
pub fn names(line: &str, lang: Lang) -> Vec<(usize, usize)> {
    let bytes = line.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if is_word_byte(bytes[i]) && (i == 0 || !is_word_byte(bytes[i - 1])) {
            let mut j = i;
            while j < bytes.len() && is_word_byte(bytes[j]) {
                j += 1;
            }
            let word = &line[i..j];
            if word.len() >= 3 && !bytes[i].is_ascii_digit() && !lang.keywords().contains(&word) {
                out.push((i, j));
            }
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

/// The line with one of its names renamed, if it has one.
pub fn rename(line: &str, lang: Lang, suffix: &str, rng: &mut Rng) -> Option<String> {
    let found = names(line, lang);
    if found.is_empty() {
        return None;
    }
    let (s, e) = *rng.pick(&found);
    Some(format!(
        "{}{}{suffix}{}",
        &line[..s],
        &line[s..e],
        &line[e..]
    ))
}

/// The text of a line an agent adds, as a comment of the language.
pub fn added_line(lang: Lang, pad: &str) -> String {
    match lang.comment() {
        Some(leader) => format!("{pad}{leader} checked again below"),
        None => format!("{pad}This line was added."),
    }
}

/// Generates `count` cases from `files` with `seed`.
pub fn generate(files: &[(PathBuf, Lang)], count: usize, seed: u64) -> Vec<Case> {
    let mut rng = Rng::new(seed);
    let mut cases = Vec::new();
    let mut attempts = 0;
    while cases.len() < count && attempts < count * 50 && !files.is_empty() {
        attempts += 1;
        let (path, lang) = rng.pick(files).clone();
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        if !(400..=300_000).contains(&bytes.len()) || bytes.contains(&0) {
            continue;
        }
        let Ok(text) = String::from_utf8(bytes) else {
            continue;
        };
        let name = path.display().to_string();
        if let Some(case) = make(&name, lang, &text, &mut rng) {
            cases.push(case);
        }
    }
    cases
}

/// One case from one file, or none where the file gives no usable block.
fn make(name: &str, lang: Lang, text: &str, rng: &mut Rng) -> Option<Case> {
    let doc = Doc::of(text);
    let n = doc.lines.len();
    if n < 10 {
        return None;
    }
    let len = rng.range(3, 16).min(n);
    let a = rng.below(n - len + 1);
    let b = a + len;
    let block = &doc.lines[a..b];
    if block.iter().filter(|l| is_content(l)).count() < 2
        || occurrences(&doc.lines, block) != 1
        || block.iter().any(|l| l.contains('\r'))
    {
        return None;
    }

    // The intent: one or two renames, sometimes an added line.
    let mut intended: Vec<Entry> = (a..b)
        .map(|i| Entry {
            key: Key::Disk(i),
            text: doc.lines[i].clone(),
        })
        .collect();
    let mut changed = vec![false; n];
    for _ in 0..rng.range(1, 2) {
        let k = rng.below(len);
        let line = &doc.lines[a + k];
        if changed[a + k] || line.ends_with([' ', '\t']) || !is_content(line) {
            continue;
        }
        if let Some(new) = rename(line, lang, "_next", rng) {
            intended[k].text = new;
            changed[a + k] = true;
        }
    }
    let mut added = false;
    if rng.chance(30) {
        let k = rng.below(len);
        let line = &doc.lines[a + k];
        let last_of_file = a + k + 1 == n;
        if is_content(line) && !line.ends_with('\\') && !last_of_file {
            let next_pad = doc.lines[a + k + 1..b]
                .iter()
                .find(|l| !l.trim().is_empty())
                .map(|l| indent(l));
            let pad = match next_pad {
                Some(p) if p.len() >= indent(line).len() => p,
                _ => indent(line),
            };
            let pos = intended
                .iter()
                .position(|e| e.key == Key::Disk(a + k))
                .expect("every disk line of the block is in the intent");
            intended.insert(
                pos + 1,
                Entry {
                    key: Key::Added,
                    text: added_line(lang, pad),
                },
            );
            added = true;
        }
    }
    if !added && !changed.iter().any(|&c| c) {
        return None;
    }

    // The file the edit must produce.
    let mut expect = String::with_capacity(text.len() + 64);
    for i in 0..a {
        expect.push_str(&doc.lines[i]);
        expect.push_str(doc.eols[i]);
    }
    let mut last_eol = doc.eols[a];
    for e in &intended {
        expect.push_str(&e.text);
        let eol = match e.key {
            Key::Disk(i) => doc.eols[i],
            _ => last_eol,
        };
        last_eol = if eol.is_empty() { last_eol } else { eol };
        expect.push_str(eol);
    }
    for i in b..n {
        expect.push_str(&doc.lines[i]);
        expect.push_str(doc.eols[i]);
    }

    // The drift: one to three memory errors.
    let mut drifts: Vec<&'static str> = Vec::new();
    let wanted = if rng.chance(5) { 0 } else { rng.range(1, 3) };
    let mut tries = 0;
    while drifts.len() < wanted && tries < 40 {
        tries += 1;
        let d = DRIFTS[rng.range(1, DRIFTS.len() - 1)];
        let clash = |x: &[&str]| x.iter().any(|y| drifts.contains(y));
        let frames = ["dedent", "shift", "tabs-as-spaces"];
        let elisions = ["elided-marker", "elided-ends"];
        if drifts.contains(&d)
            || (frames.contains(&d) && clash(&frames))
            || (elisions.contains(&d) && clash(&elisions))
            || (d == "new-in-file-frame" && !clash(&frames))
            || (frames.contains(&d) && drifts.contains(&"new-in-file-frame"))
        {
            continue;
        }
        drifts.push(d);
    }
    drifts.sort_by_key(|d| DRIFTS.iter().position(|x| x == d));

    // Memory of each disk line of the block, and whether new_content copies it.
    let plain = |i: usize| !changed[i] && is_content(&doc.lines[i]);
    let mut memory: Vec<String> = doc.lines[a..b].to_vec();
    let mut new_copies = vec![true; len];
    let mut touched = vec![false; len];
    let mut kept: Vec<&'static str> = Vec::new();
    for &d in &drifts {
        let ok = match d {
            "trailing-space" => {
                let picks: Vec<usize> = (0..len).filter(|&k| plain(a + k)).collect();
                let mut any = false;
                for _ in 0..rng.range(1, 3).min(picks.len()) {
                    let k = *rng.pick(&picks);
                    memory[k].push_str(if rng.chance(50) { " " } else { "  " });
                    new_copies[k] = rng.chance(60);
                    touched[k] = true;
                    any = true;
                }
                any
            }
            "stripped-space" => {
                let picks: Vec<usize> = (0..len)
                    .filter(|&k| !changed[a + k] && doc.lines[a + k].ends_with([' ', '\t']))
                    .collect();
                for &k in &picks {
                    memory[k] = memory[k].trim_end().to_string();
                    touched[k] = true;
                }
                !picks.is_empty()
            }
            "typo" | "stale" => {
                let picks: Vec<usize> = (0..len).filter(|&k| plain(a + k) && !touched[k]).collect();
                if picks.is_empty() {
                    false
                } else {
                    let k = *rng.pick(&picks);
                    let wrong = if d == "typo" {
                        Some(typo(&memory[k], rng))
                    } else {
                        rename(&memory[k], lang, "Old", rng)
                    };
                    match wrong {
                        Some(w) if w != memory[k] => {
                            memory[k] = w;
                            new_copies[k] = rng.chance(50);
                            touched[k] = true;
                            true
                        }
                        _ => false,
                    }
                }
            }
            _ => true,
        };
        if ok {
            kept.push(d);
        }
    }

    let mut search: Vec<Entry> = (0..len)
        .map(|k| Entry {
            key: Key::Disk(a + k),
            text: memory[k].clone(),
        })
        .collect();
    let mut new: Vec<Entry> = intended
        .iter()
        .map(|e| match e.key {
            Key::Disk(i) if !changed[i] && new_copies[i - a] => Entry {
                key: e.key,
                text: memory[i - a].clone(),
            },
            _ => e.clone(),
        })
        .collect();

    // Blank lines: the views' counts differ from the disk's, never the intent.
    // Which disk lines an added line follows: a blank line the views do not
    // agree on next to it leaves its place open (before or after that blank
    // line are both what the caller showed), so blank drift keeps away.
    let added_after: Vec<usize> = intended
        .windows(2)
        .filter(|w| w[1].key == Key::Added)
        .filter_map(|w| match w[0].key {
            Key::Disk(i) => Some(i),
            _ => None,
        })
        .collect();
    let near_added = |i: usize| added_after.iter().any(|&k| k + 1 >= i && k <= i + 1);
    // A blank line in the run at the block's edge is counted with the blank
    // lines the views add or drop there (the edge drifts): which of them
    // the views lack, and whether new_content adding one is a change, is
    // left open.
    let is_blank = |i: usize| doc.lines[i].trim().is_empty();
    let at_edge = |i: usize| (a..=i).all(is_blank) || (i..b).all(is_blank);
    let edges = drifts.contains(&"blank-edge-lead") || drifts.contains(&"blank-edge-trail");
    if drifts.contains(&"blank-missing") {
        let picks: Vec<usize> = (a + 1..b - 1)
            .filter(|&i| is_blank(i) && !near_added(i) && !(edges && at_edge(i)))
            .collect();
        let ok = !picks.is_empty();
        if ok {
            let i = *rng.pick(&picks);
            search.retain(|e| e.key != Key::Disk(i));
            if rng.chance(60) {
                new.retain(|e| e.key != Key::Disk(i));
            }
        }
        if ok {
            kept.push("blank-missing");
        }
    }
    if drifts.contains(&"blank-added") {
        let picks: Vec<usize> = (a..b - 1)
            .filter(|&i| {
                is_content(&doc.lines[i]) && is_content(&doc.lines[i + 1]) && !near_added(i)
            })
            .collect();
        let ok = !picks.is_empty();
        if ok {
            let i = *rng.pick(&picks);
            insert_blank_after(&mut search, i);
            if rng.chance(60) {
                insert_blank_after(&mut new, i);
            }
        }
        if ok {
            kept.push("blank-added");
        }
    }
    if drifts.contains(&"blank-edge-lead") {
        let above = (0..a)
            .rev()
            .take_while(|&i| doc.lines[i].trim().is_empty())
            .count();
        let extra = above + rng.range(1, 2);
        // The view remembers more blank lines above the block than the disk has.
        for _ in 0..extra {
            search.insert(0, blank());
        }
        let in_new = if rng.chance(50) { extra } else { above };
        for _ in 0..in_new {
            new.insert(0, blank());
        }
        kept.push("blank-edge-lead");
    }
    if drifts.contains(&"blank-edge-trail") {
        let below = (b..n)
            .take_while(|&i| doc.lines[i].trim().is_empty())
            .count();
        let extra = below + rng.range(1, 2);
        for _ in 0..extra {
            search.push(blank());
        }
        let in_new = if rng.chance(50) { extra } else { below };
        for _ in 0..in_new {
            new.push(blank());
        }
        kept.push("blank-edge-trail");
    }

    // Elision: the search leaves out a run of lines new_content writes out.
    for d in ["elided-marker", "elided-ends"] {
        if !drifts.contains(&d) {
            continue;
        }
        let shown: Vec<usize> = search
            .iter()
            .enumerate()
            .filter(|(_, e)| matches!(e.key, Key::Disk(i) if !changed[i] && !touched[i - a]))
            .map(|(p, _)| p)
            .collect();
        let min = if d == "elided-marker" { 2 } else { 3 };
        let mut runs = Vec::new();
        for &p in &shown {
            for q in p + min - 1..search.len() - 2 {
                if p >= 2 && (p..=q).all(|r| shown.contains(&r)) {
                    runs.push((p, q));
                }
            }
        }
        if runs.is_empty() {
            continue;
        }
        let (p, q) = *rng.pick(&runs);
        // Without a marker, a blank line only the search has (or lacks) right
        // at the left-out middle could stand on either side of it.
        let drifted = |e: &Entry| match e.key {
            Key::Extra => true,
            Key::Disk(i) => {
                i > a
                    && doc.lines[i - 1].trim().is_empty()
                    && !search.iter().any(|x| x.key == Key::Disk(i - 1))
            }
            Key::Added => false,
        };
        if d == "elided-ends"
            && (drifted(&search[p - 1]) || drifted(&search[q + 1]) || drifted(&search[p]))
        {
            continue;
        }
        let head = search[..p].iter().filter(|e| is_content(&e.text)).count();
        let tail = search[q + 1..]
            .iter()
            .filter(|e| is_content(&e.text))
            .count();
        if (d == "elided-ends" && (head < 2 || tail < 2)) || head == 0 || tail == 0 {
            continue;
        }
        let hidden: Vec<Entry> = search.drain(p..=q).collect();
        if d == "elided-marker" {
            let pad = indent(&hidden[0].text).to_string();
            let marker = rng.pick(lang.markers());
            search.insert(
                p,
                Entry {
                    key: Key::Extra,
                    text: format!("{pad}{marker}"),
                },
            );
        }
        kept.push(d);
    }

    // The frame the views are indented in.
    let frame = drifts
        .iter()
        .copied()
        .find(|d| ["dedent", "shift", "tabs-as-spaces"].contains(d));
    let new_in_file_frame = drifts.contains(&"new-in-file-frame");
    // A block indented with tabs on some lines and spaces on others (GNU
    // style) has no one frame a view could shift or convert without
    // making two disk indentations one; such views are not generated.
    let leads: Vec<char> = doc.lines[a..b]
        .iter()
        .filter_map(|l| l.chars().next().filter(|c| *c == ' ' || *c == '\t'))
        .collect();
    let mixed = leads.contains(&' ') && leads.contains(&'\t')
        || doc.lines[a..b]
            .iter()
            .any(|l| indent(l).contains("\t ") || indent(l).contains(" \t"));
    if let Some(f) = frame.filter(|_| !mixed) {
        let all: Vec<&Entry> = search.iter().chain(new.iter()).collect();
        let ok = match f {
            "dedent" => {
                let common = all
                    .iter()
                    .filter(|e| !e.text.trim().is_empty())
                    .map(|e| indent(&e.text).to_string())
                    .reduce(|x, y| {
                        let same = x.bytes().zip(y.bytes()).take_while(|(p, q)| p == q).count();
                        x[..same].to_string()
                    })
                    .unwrap_or_default();
                if common.is_empty() {
                    false
                } else {
                    reframe(&mut search, |t| {
                        t.strip_prefix(&common).unwrap_or(t).to_string()
                    });
                    if !new_in_file_frame {
                        reframe(&mut new, |t| {
                            t.strip_prefix(&common).unwrap_or(t).to_string()
                        });
                    }
                    true
                }
            }
            "shift" => {
                let pad = if rng.chance(50) { "    " } else { "  " };
                reframe(&mut search, |t| format!("{pad}{t}"));
                if !new_in_file_frame {
                    reframe(&mut new, |t| format!("{pad}{t}"));
                }
                true
            }
            _ => {
                let tabbed = all.iter().any(|e| e.text.starts_with('\t'));
                if tabbed {
                    let spaces = |t: &str| {
                        let pad = indent(t);
                        format!("{}{}", pad.replace('\t', "    "), &t[pad.len()..])
                    };
                    reframe(&mut search, spaces);
                    if !new_in_file_frame {
                        reframe(&mut new, spaces);
                    }
                }
                tabbed
            }
        };
        if ok {
            kept.push(f);
            if new_in_file_frame {
                kept.push("new-in-file-frame");
            }
        }
    }

    let crlf = doc.eols[a..b].contains(&"\r\n");
    if crlf {
        kept.push("line-endings");
    }
    let join = |entries: &[Entry], final_break: bool| {
        let mut s = entries
            .iter()
            .map(|e| e.text.as_str())
            .collect::<Vec<_>>()
            .join("\n");
        if final_break {
            s.push('\n');
        }
        s
    };
    // A view that ends with a blank line ends with a line break, else that
    // blank line would not be in it; elsewhere the final break may differ.
    let ends_blank = |v: &[Entry]| v.last().is_some_and(|e| e.text.is_empty());
    let final_break = rng.chance(70) || ends_blank(&search);
    let search_text = join(&search, final_break);
    let new_break = if ends_blank(&new) {
        true
    } else if rng.chance(85) || ends_blank(&search) {
        final_break
    } else {
        !final_break
    };
    let new_text = join(&new, new_break);
    if search_text == new_text || expect == text {
        return None;
    }
    // A drifted search that still occurs as it is (up to line endings) asks
    // for a literal replacement, which is not what the drift model predicts.
    if !drifts.is_empty() && text.replace("\r\n", "\n").contains(&search_text) {
        return None;
    }
    kept.sort_by_key(|d| DRIFTS.iter().position(|x| x == d));
    kept.dedup();
    if kept.is_empty() {
        kept.push("none");
    }
    Some(Case {
        id: format!("{name}:{}", a + 1),
        lang,
        file: text.to_string(),
        search: search_text,
        new: new_text,
        expect,
        drifts: kept,
    })
}

fn blank() -> Entry {
    Entry {
        key: Key::Extra,
        text: String::new(),
    }
}

fn insert_blank_after(view: &mut Vec<Entry>, disk: usize) {
    if let Some(p) = view.iter().position(|e| e.key == Key::Disk(disk)) {
        view.insert(p + 1, blank());
    }
}

fn reframe(view: &mut [Entry], f: impl Fn(&str) -> String) {
    for e in view.iter_mut() {
        if !e.text.trim().is_empty() {
            e.text = f(&e.text);
        }
    }
}

/// Runs one case as `edit_code` would.
pub fn evaluate(case: &Case) -> Verdict {
    match super::real::outcome_of(&case.file, &case.search, &case.new, case.lang) {
        Ok(got) if got == case.expect => Verdict::Correct,
        Ok(got) => Verdict::Wrong(first_difference(&case.expect, &got)),
        Err(why) => Verdict::Refused(why),
    }
}

fn count(t: &mut Tally, verdict: &Verdict) {
    t.cases += 1;
    match verdict {
        Verdict::Correct => t.correct += 1,
        Verdict::Refused(_) => t.refused += 1,
        Verdict::Wrong(_) => t.wrong += 1,
        Verdict::NearCopy(_) => t.near_copy += 1,
    }
}

/// Runs every case; tallies by drift (a case counts once for each of its
/// drifts, and once in `all`), and returns the cases not applied exactly.
pub fn run(cases: &[Case]) -> (BTreeMap<usize, Tally>, Tally, Vec<(usize, Verdict)>) {
    let mut by_drift: BTreeMap<usize, Tally> = BTreeMap::new();
    let mut all = Tally::default();
    let mut notes = Vec::new();
    for (n, case) in cases.iter().enumerate() {
        let verdict = evaluate(case);
        for k in case
            .drifts
            .iter()
            .filter_map(|d| DRIFTS.iter().position(|x| x == d))
        {
            count(by_drift.entry(k).or_default(), &verdict);
        }
        count(&mut all, &verdict);
        if verdict != Verdict::Correct {
            notes.push((n, verdict));
        }
    }
    (by_drift, all, notes)
}
