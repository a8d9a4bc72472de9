//! Drift kinds that neither the generated corpus, the real-file corpus nor
//! the drift fuzzer make: the artifacts of how an agent's text reached the
//! call (a numbered viewer, a JSON or HTML round trip, soft wrapping, a
//! truncating viewer, a quoting prefix), memories of another version of the
//! file (names renamed, lines swapped or repeated, comments missing), and a
//! file that moved on since it was read (a line gained, a line lost, the
//! changed line changed on disk too, the block gone while a look-alike
//! stays).
//!
//! It was written to measure the matcher's design rather than its tuning:
//! no rule of the matcher knows these kinds by name. Every case says what a
//! right outcome is: the intended edit (or a refusal, which is a miss, not a
//! wrong edit), or a refusal alone where any write would be wrong.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::PathBuf;

use super::drift::{added_line, names, rename};
use super::real::cases::Doc;
use super::real::lang::Lang;
use super::rng::Rng;
use super::text::{indent, is_content, occurrences};
use super::{Tally, Verdict, first_difference};

/// Every kind, in report order.
pub const KINDS: [&str; 17] = [
    "viewer-numbers",
    "json-escaped",
    "json-one-line",
    "html-entities",
    "renamed-kept",
    "lookalike-deleted",
    "wrapped",
    "truncated",
    "swapped-lines",
    "file-gained-line",
    "file-lost-line",
    "file-changed-conflict",
    "quote-swap",
    "line-prefix",
    "stutter",
    "comment-stripped",
    "md-rendered",
];

/// One case.
#[derive(Debug, Clone)]
pub struct Case {
    pub id: String,
    pub kind: &'static str,
    pub lang: Lang,
    /// The file as the edit finds it.
    pub file: String,
    pub search: String,
    pub new: String,
    /// The file the intended edit makes, or `None` where only a refusal is right.
    pub expect: Option<String>,
    /// Lines (0-based, end excluded) of other blocks that the file held
    /// before it moved on and that read the search up to one line gained,
    /// lost or changed. An edit made within one of them and nowhere else is
    /// what the contract asks of a file that gained, lost or changed a line
    /// since the caller read it, so it is counted apart, neither right nor
    /// wrong.
    pub near_copies: Vec<Range<usize>>,
}

/// Which line a view's line stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Key {
    Disk(usize),
    Added,
}

#[derive(Debug, Clone)]
struct Entry {
    key: Key,
    text: String,
}

/// A block of a file and an intended edit of it, before any drift.
struct Edit {
    lang: Lang,
    doc: Doc,
    a: usize,
    b: usize,
    /// The intended block: disk lines (changed or not) and added lines.
    intended: Vec<Entry>,
    /// Disk lines the edit rewrites.
    changed: Vec<bool>,
}

impl Edit {
    fn kept(&self, i: usize) -> bool {
        !self.changed[i]
    }

    /// The search as the file has it.
    fn search(&self) -> Vec<Entry> {
        (self.a..self.b)
            .map(|i| Entry {
                key: Key::Disk(i),
                text: self.doc.lines[i].clone(),
            })
            .collect()
    }

    /// The file the intended edit makes of `lines` (the file's lines,
    /// perhaps moved on), where `disk` maps a block line to its index there.
    fn expect_in(
        &self,
        lines: &[String],
        eols: &[&'static str],
        first: usize,
        last: usize,
        intended: &[Entry],
    ) -> String {
        let mut out = String::new();
        for i in 0..first {
            out.push_str(&lines[i]);
            out.push_str(eols[i]);
        }
        let mut eol = eols[first.min(eols.len() - 1)];
        for e in intended {
            out.push_str(&e.text);
            let this = match e.key {
                Key::Disk(i) => eols[i],
                Key::Added => eol,
            };
            if !this.is_empty() {
                eol = this;
            }
            out.push_str(this);
        }
        for i in last..lines.len() {
            out.push_str(&lines[i]);
            out.push_str(eols[i]);
        }
        out
    }

    fn expect(&self) -> String {
        self.expect_in(
            &self.doc.lines,
            &self.doc.eols,
            self.a,
            self.b,
            &self.intended,
        )
    }

    fn text(&self) -> String {
        self.doc
            .lines
            .iter()
            .zip(&self.doc.eols)
            .map(|(l, e)| format!("{l}{e}"))
            .collect()
    }
}

/// A block and an intended edit of it (one or two names renamed, sometimes
/// a line added), or none where the file gives no usable block.
fn pick_edit(
    lang: Lang,
    text: &str,
    rng: &mut Rng,
    want: impl Fn(&[String]) -> bool,
) -> Option<Edit> {
    let doc = Doc::of(text);
    let n = doc.lines.len();
    if n < 10 {
        return None;
    }
    for _ in 0..6 {
        let len = rng.range(3, 14).min(n);
        let a = rng.below(n - len + 1);
        let b = a + len;
        let block = &doc.lines[a..b];
        if block.iter().filter(|l| is_content(l)).count() < 2
            || occurrences(&doc.lines, block) != 1
            || block.iter().any(|l| l.contains('\r'))
            || !want(block)
        {
            continue;
        }
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
        if rng.chance(30) {
            let k = rng.below(len);
            let line = &doc.lines[a + k];
            if is_content(line) && !line.ends_with('\\') && a + k + 1 < n {
                let pos = intended
                    .iter()
                    .position(|e| e.key == Key::Disk(a + k))
                    .expect("every disk line is in the intent");
                intended.insert(
                    pos + 1,
                    Entry {
                        key: Key::Added,
                        text: added_line(lang, indent(line)),
                    },
                );
            }
        }
        if !changed.iter().any(|&c| c) && intended.len() == len {
            continue;
        }
        return Some(Edit {
            lang,
            doc,
            a,
            b,
            intended,
            changed,
        });
    }
    None
}

fn join(view: &[Entry], final_break: bool) -> String {
    let mut s = view
        .iter()
        .map(|e| e.text.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    if final_break {
        s.push('\n');
    }
    s
}

fn map_all(view: &mut [Entry], f: impl Fn(&str) -> String) {
    for e in view.iter_mut() {
        e.text = f(&e.text);
    }
}

/// Whether a line `want` rewrites from `file` reads the same once
/// `render`ed (a change the rendered view does not show), or the caller's
/// own change is what rendering alters: a line the file has as rendering
/// leaves it, rewritten into one it does not (`_slots_` into
/// `_slots__next`, sent as `_slotsnext`). Either way the change as meant is
/// in neither of the caller's texts.
pub fn change_hidden(file: &str, want: &str, render: impl Fn(&str) -> String) -> bool {
    let old: Vec<&str> = file.split_inclusive('\n').collect();
    let new: Vec<&str> = want.split_inclusive('\n').collect();
    similar::capture_diff_slices(similar::Algorithm::Myers, &old, &new)
        .iter()
        .any(|op| match *op {
            similar::DiffOp::Replace {
                old_index,
                old_len,
                new_index,
                new_len,
            } => old[old_index..old_index + old_len]
                .iter()
                .zip(&new[new_index..new_index + new_len])
                .any(|(a, b)| {
                    a != b && (render(a) == render(b) || (render(a) == *a && render(b) != *b))
                }),
            _ => false,
        })
}

/// Replaces whole-word `from` by `to`.
fn replace_word(line: &str, from: &str, to: &str) -> String {
    let bytes = line.as_bytes();
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut out = String::new();
    let mut i = 0;
    while i < line.len() {
        if line[i..].starts_with(from)
            && (i == 0 || !word(bytes[i - 1]))
            && bytes.get(i + from.len()).is_none_or(|&b| !word(b))
        {
            out.push_str(to);
            i += from.len();
        } else {
            let c = line[i..].chars().next().expect("inside the line");
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

/// The cut of a line at about `width` characters on a char boundary.
fn cut(line: &str, width: usize) -> usize {
    line.char_indices()
        .nth(width)
        .map_or(line.len(), |(i, _)| i)
}

/// One case of `kind` from one file.
fn make(kind: &'static str, name: &str, lang: Lang, text: &str, rng: &mut Rng) -> Option<Case> {
    let any = |_: &[String]| true;
    let has = |chars: &'static [char]| move |b: &[String]| b.iter().any(|l| l.contains(chars));
    let edit = match kind {
        "json-escaped" => pick_edit(lang, text, rng, has(&['\\']))?,
        "html-entities" => pick_edit(lang, text, rng, has(&['<', '>', '&']))?,
        "quote-swap" => pick_edit(lang, text, rng, has(&['\'', '"']))?,
        "wrapped" | "truncated" => pick_edit(lang, text, rng, |b: &[String]| {
            b.iter().any(|l| l.chars().count() > 60)
        })?,
        "md-rendered" if lang != Lang::Markdown => return None,
        "md-rendered" => pick_edit(lang, text, rng, |b: &[String]| {
            b.iter()
                .any(|l| l.contains("**") || l.contains('`') || l.contains("]("))
        })?,
        _ => pick_edit(lang, text, rng, any)?,
    };
    let mut search = edit.search();
    let mut new = edit.intended.clone();
    let mut file = edit.text();
    let mut expect = Some(edit.expect());
    let mut copies = Vec::new();
    let (a, b) = (edit.a, edit.b);
    let lines = &edit.doc.lines;

    match kind {
        "viewer-numbers" => {
            let format = rng.below(6);
            let number = move |n: usize, t: &str| -> String {
                let s = match format {
                    0 => format!("{n}: {t}"),
                    1 => format!("{n:>6}\u{2192}{t}"),
                    2 => format!("{n:>6}\t{t}"),
                    3 => format!("L{n}: {t}"),
                    4 => format!("{n:>4} | {t}"),
                    _ => format!("{n}\t{t}"),
                };
                if t.is_empty() {
                    s.trim_end().to_string()
                } else {
                    s
                }
            };
            for e in &mut search {
                if let Key::Disk(i) = e.key {
                    e.text = number(i + 1, &e.text);
                }
            }
            let unnumbered_added = rng.chance(50);
            let mut last = a;
            for e in &mut new {
                match e.key {
                    Key::Disk(i) => {
                        last = i + 1;
                        e.text = number(i + 1, &e.text);
                    }
                    Key::Added if !unnumbered_added => e.text = number(last + 1, &e.text),
                    Key::Added => {}
                }
            }
        }
        "json-escaped" => {
            let quotes = rng.chance(50);
            let esc = move |t: &str| {
                let t = t.replace('\\', "\\\\");
                if quotes { t.replace('"', "\\\"") } else { t }
            };
            map_all(&mut search, esc);
            map_all(&mut new, esc);
        }
        "json-one-line" => {
            let esc = |t: &str| {
                t.replace('\\', "\\\\")
                    .replace('"', "\\\"")
                    .replace('\t', "\\t")
            };
            let one = |view: &[Entry]| {
                view.iter()
                    .map(|e| esc(&e.text))
                    .collect::<Vec<_>>()
                    .join("\\n")
                    + "\\n"
            };
            let (s, n) = (one(&search), one(&new));
            search = vec![Entry {
                key: Key::Added,
                text: s,
            }];
            new = vec![Entry {
                key: Key::Added,
                text: n,
            }];
        }
        "html-entities" => {
            let esc = |t: &str| {
                t.replace('&', "&amp;")
                    .replace('<', "&lt;")
                    .replace('>', "&gt;")
            };
            map_all(&mut search, esc);
            map_all(&mut new, esc);
        }
        "renamed-kept" => {
            // A name on at least two kept lines, renamed everywhere in both views.
            let mut counts: BTreeMap<String, usize> = BTreeMap::new();
            for (i, line) in lines.iter().enumerate().take(b).skip(a) {
                if edit.kept(i) {
                    let mut seen: Vec<String> = names(line, lang)
                        .into_iter()
                        .map(|(s, e)| line[s..e].to_string())
                        .collect();
                    seen.sort();
                    seen.dedup();
                    for w in seen {
                        *counts.entry(w).or_default() += 1;
                    }
                }
            }
            let picks: Vec<String> = counts
                .into_iter()
                .filter(|(_, c)| *c >= 2)
                .map(|(w, _)| w)
                .collect();
            if picks.is_empty() {
                return None;
            }
            let from = rng.pick(&picks).clone();
            let to = format!("{from}{}", rng.word(&["Old", "_prev", "2", "Legacy"]));
            map_all(&mut search, |t| replace_word(t, &from, &to));
            map_all(&mut new, |t| replace_word(t, &from, &to));
        }
        "lookalike-deleted" => {
            // The block is gone from disk; a sibling that differs in a name on
            // about half of its lines stands where it stood.
            let content: Vec<usize> = (a..b).filter(|&i| is_content(&lines[i])).collect();
            let want = (content.len() / 2).max(2);
            let mut sibling: Vec<String> = lines[a..b].to_vec();
            let mut renamed = 0;
            for &i in &content {
                if renamed >= want {
                    break;
                }
                if let Some(r) = rename(&lines[i], lang, rng.word(&["Alt", "_other", "Two"]), rng) {
                    sibling[i - a] = r;
                    renamed += 1;
                }
            }
            if renamed < 2 {
                return None;
            }
            copies = near_copies(lines, a, b);
            let mut doc_lines = lines.clone();
            doc_lines.splice(a..b, sibling);
            file = doc_lines
                .iter()
                .zip(&edit.doc.eols)
                .map(|(l, e)| format!("{l}{e}"))
                .collect();
            expect = None;
        }
        "wrapped" => {
            let width = rng.range(50, 79);
            let wrap = move |t: &str| -> String {
                let mut out = String::new();
                let pad = indent(t).to_string();
                let mut rest = t.to_string();
                let mut first = true;
                while rest.chars().count() > width {
                    let at = cut(&rest, width);
                    let Some(space) = rest[..at].rfind(' ').filter(|&s| s > indent(&rest).len())
                    else {
                        break;
                    };
                    out.push_str(&rest[..space]);
                    out.push('\n');
                    rest = format!("{pad}    {}", &rest[space + 1..]);
                    first = false;
                }
                let _ = first;
                out.push_str(&rest);
                out
            };
            let before = join(&search, false);
            map_all(&mut search, wrap);
            map_all(&mut new, wrap);
            if join(&search, false) == before {
                return None;
            }
        }
        "truncated" => {
            let width = rng.range(40, 70);
            let mark = rng.word(&["\u{2026}", "...", " [...]"]);
            let trunc = move |t: &str| -> String {
                if t.chars().count() > width + 3 {
                    format!("{}{mark}", &t[..cut(t, width)])
                } else {
                    t.to_string()
                }
            };
            let mut any = false;
            for e in &mut search {
                let t = trunc(&e.text);
                any |= t != e.text;
                e.text = t;
            }
            for e in &mut new {
                if let Key::Disk(i) = e.key
                    && edit.kept(i)
                {
                    e.text = trunc(&e.text);
                }
            }
            if !any {
                return None;
            }
        }
        "swapped-lines" => {
            let picks: Vec<usize> = (a..b - 1)
                .filter(|&i| {
                    edit.kept(i)
                        && edit.kept(i + 1)
                        && is_content(&lines[i])
                        && is_content(&lines[i + 1])
                        && lines[i].trim() != lines[i + 1].trim()
                })
                .filter(|&i| {
                    let p = new.iter().position(|e| e.key == Key::Disk(i));
                    p.is_some_and(|p| new.get(p + 1).is_some_and(|e| e.key == Key::Disk(i + 1)))
                })
                .collect();
            if picks.is_empty() {
                return None;
            }
            let i = *rng.pick(&picks);
            for view in [&mut search, &mut new] {
                let p = view
                    .iter()
                    .position(|e| e.key == Key::Disk(i))
                    .expect("the line is in the view");
                view.swap(p, p + 1);
            }
        }
        "file-gained-line" | "file-lost-line" => {
            // Disk lines the edit leaves alone, away from every change.
            let quiet = |i: usize| {
                edit.kept(i)
                    && (i == a || edit.kept(i - 1))
                    && (i + 1 >= b || edit.kept(i + 1))
                    && !edit.intended.windows(2).any(|w| {
                        w[1].key == Key::Added
                            && (w[0].key == Key::Disk(i)
                                || w[0].key == Key::Disk(i.wrapping_sub(1)))
                    })
            };
            let picks: Vec<usize> = (a + 1..b - 1)
                .filter(|&i| quiet(i) && is_content(&lines[i]))
                .collect();
            if picks.is_empty() {
                return None;
            }
            let i = *rng.pick(&picks);
            let mut disk = lines.clone();
            let mut eols = edit.doc.eols.clone();
            let mut intended = edit.intended.clone();
            if kind == "file-gained-line" {
                let pad = indent(&lines[i]).to_string();
                let gained = match lang.comment() {
                    Some(c) => format!("{pad}{c} kept by another writer"),
                    None => format!("{pad}A line another writer added."),
                };
                disk.insert(i, gained.clone());
                eols.insert(i, "\n");
                let shift = |e: &Entry| match e.key {
                    Key::Disk(j) if j >= i => Entry {
                        key: Key::Disk(j + 1),
                        text: e.text.clone(),
                    },
                    _ => e.clone(),
                };
                let p = intended
                    .iter()
                    .position(|e| e.key == Key::Disk(i))
                    .expect("the line is in the intent");
                intended = intended.iter().map(shift).collect();
                intended.insert(
                    p,
                    Entry {
                        key: Key::Disk(i),
                        text: gained,
                    },
                );
                expect = Some(edit.expect_in(&disk, &eols, a, b + 1, &intended));
            } else {
                disk.remove(i);
                eols.remove(i);
                intended.retain(|e| e.key != Key::Disk(i));
                let shift = |e: &Entry| match e.key {
                    Key::Disk(j) if j > i => Entry {
                        key: Key::Disk(j - 1),
                        text: e.text.clone(),
                    },
                    _ => e.clone(),
                };
                intended = intended.iter().map(shift).collect();
                expect = Some(edit.expect_in(&disk, &eols, a, b - 1, &intended));
            }
            file = disk
                .iter()
                .zip(&eols)
                .map(|(l, e)| format!("{l}{e}"))
                .collect();
        }
        "file-changed-conflict" => {
            let picks: Vec<usize> = (a..b).filter(|&i| edit.changed[i]).collect();
            if picks.is_empty() {
                return None;
            }
            let i = *rng.pick(&picks);
            let theirs = rename(&lines[i], lang, "_disk", rng)?;
            let intended_line = &edit
                .intended
                .iter()
                .find(|e| e.key == Key::Disk(i))
                .expect("the line is in the intent")
                .text;
            if theirs == *intended_line {
                return None;
            }
            let mut disk = lines.clone();
            disk[i] = theirs;
            file = disk
                .iter()
                .zip(&edit.doc.eols)
                .map(|(l, e)| format!("{l}{e}"))
                .collect();
            expect = None;
        }
        "quote-swap" => {
            let swap = |t: &str| {
                t.chars()
                    .map(|c| match c {
                        '\'' => '"',
                        '"' => '\'',
                        c => c,
                    })
                    .collect::<String>()
            };
            map_all(&mut search, swap);
            map_all(&mut new, swap);
        }
        "line-prefix" => {
            let prefix = rng.word(&["> ", "+ ", "| ", "* ", ">> ", ": ", "- ", "#> "]);
            let add = move |t: &str| {
                if t.is_empty() {
                    prefix.trim_end().to_string()
                } else {
                    format!("{prefix}{t}")
                }
            };
            map_all(&mut search, add);
            map_all(&mut new, add);
        }
        "stutter" => {
            let picks: Vec<usize> = (a..b)
                .filter(|&i| edit.kept(i) && is_content(&lines[i]))
                .collect();
            if picks.is_empty() {
                return None;
            }
            let i = *rng.pick(&picks);
            for view in [&mut search, &mut new] {
                let p = view
                    .iter()
                    .position(|e| e.key == Key::Disk(i))
                    .expect("the line is in the view");
                let copy = view[p].clone();
                view.insert(p + 1, copy);
            }
        }
        "comment-stripped" => {
            let leader = lang.comment()?;
            let strip = |t: &str| -> String {
                let marker = format!(" {leader} ");
                match t.find(&marker) {
                    Some(at)
                        if !t[..at].trim().is_empty()
                            && t[..at].matches('"').count().is_multiple_of(2)
                            && t[..at].matches('\'').count().is_multiple_of(2) =>
                    {
                        t[..at].trim_end().to_string()
                    }
                    _ => t.to_string(),
                }
            };
            let mut any = false;
            for view in [&mut search, &mut new] {
                for e in view.iter_mut() {
                    if let Key::Disk(i) = e.key
                        && edit.kept(i)
                    {
                        let s = strip(&e.text);
                        any |= s != e.text;
                        e.text = s;
                    }
                }
            }
            if !any {
                return None;
            }
        }
        "md-rendered" => {
            let render = |t: &str| -> String {
                let mut s = t.replace("**", "").replace("__", "").replace('`', "");
                while let Some(open) = s.find('[') {
                    let Some(mid) = s[open..].find("](").map(|m| open + m) else {
                        break;
                    };
                    let Some(close) = s[mid..].find(')').map(|c| mid + c) else {
                        break;
                    };
                    s = format!("{}{}{}", &s[..open], &s[open + 1..mid], &s[close + 1..]);
                }
                s
            };
            map_all(&mut search, render);
            map_all(&mut new, render);
            // A change that rendering hides (a link's address) or alters
            // (markup the caller's change adds) is in neither of the
            // caller's texts: no edit can make it from them, and the case
            // would count the file as the caller's texts ask for it as
            // wrong.
            if expect
                .as_deref()
                .is_some_and(|want| change_hidden(&file, want, render))
            {
                return None;
            }
        }
        _ => unreachable!("every kind is handled"),
    }

    let final_break = rng.chance(70);
    let search_text = join(&search, final_break);
    let new_text = join(&new, final_break);
    if search_text == new_text || search_text.trim().is_empty() {
        return None;
    }
    // A view that still occurs as it is asks for a literal replacement.
    if file.replace("\r\n", "\n").contains(&search_text) {
        return None;
    }
    if expect.as_deref() == Some(file.as_str()) {
        return None;
    }
    Some(Case {
        id: format!("{name}:{}", a + 1),
        kind,
        lang: edit.lang,
        file,
        search: search_text,
        new: new_text,
        expect,
        near_copies: copies,
    })
}

/// The other blocks of `lines`, away from `a..b`, that read `lines[a..b]`
/// up to one line gained, lost or changed (spaces at the ends aside), with
/// at least two lines of text read alike: the lines each spans, overlapping
/// readings of one block (with the line gained, or changed, or lost) merged.
pub fn near_copies(lines: &[String], a: usize, b: usize) -> Vec<Range<usize>> {
    let block: Vec<&str> = lines[a..b].iter().map(|l| l.trim()).collect();
    let n = block.len();
    let mut found: Vec<Range<usize>> = Vec::new();
    for len in [n.saturating_sub(1), n, n + 1] {
        for start in 0..=lines.len().saturating_sub(len) {
            let end = start + len;
            if len == 0 || (end > a && start < b) {
                continue;
            }
            let window: Vec<&str> = lines[start..end].iter().map(|l| l.trim()).collect();
            if one_line_apart(&block, &window) {
                found.push(start..end);
            }
        }
    }
    found.sort_by_key(|r| r.start);
    let mut spans: Vec<Range<usize>> = Vec::new();
    for r in found {
        match spans.last_mut() {
            Some(last) if r.start < last.end => last.end = last.end.max(r.end),
            _ => spans.push(r),
        }
    }
    spans
}

/// How many lines `x` and `y` share at their start, and then at their end.
fn same_ends(x: &[&str], y: &[&str]) -> (usize, usize) {
    let head = x.iter().zip(y).take_while(|(p, q)| p == q).count();
    let tail = x[head..]
        .iter()
        .rev()
        .zip(y[head..].iter().rev())
        .take_while(|(p, q)| p == q)
        .count();
    (head, tail)
}

/// Whether `x` and `y` differ in at most one line on each side, and share
/// at least two lines of text, a changed line counted where it differs by a
/// slip (two characters at most) rather than by its words.
fn one_line_apart(x: &[&str], y: &[&str]) -> bool {
    let (head, tail) = same_ends(x, y);
    let (lost, gained) = (x.len() - head - tail, y.len() - head - tail);
    if lost > 1 || gained > 1 {
        return false;
    }
    let slip = lost == 1
        && gained == 1
        && is_content(x[head])
        && rapidfuzz::distance::levenshtein::distance(x[head].chars(), y[head].chars()) <= 2;
    let shared = x[..head]
        .iter()
        .chain(&x[x.len() - tail..])
        .filter(|l| is_content(l))
        .count();
    shared + usize::from(slip) >= 2
}

/// Whether every line `got` changes in `file` lies within `lines`.
pub fn changes_within(file: &str, got: &str, lines: &Range<usize>) -> bool {
    let f: Vec<&str> = file.split('\n').collect();
    let g: Vec<&str> = got.split('\n').collect();
    let (head, tail) = same_ends(&f, &g);
    head >= lines.start && f.len() - tail <= lines.end
}

/// `per_kind` cases of every kind from `files`, with `seed`.
pub fn generate(files: &[(PathBuf, Lang)], per_kind: usize, seed: u64) -> Vec<Case> {
    let mut rng = Rng::new(seed);
    let mut cases = Vec::new();
    let markdown: Vec<(PathBuf, Lang)> = files
        .iter()
        .filter(|(_, l)| *l == Lang::Markdown)
        .cloned()
        .collect();
    for kind in KINDS {
        let pool = if kind == "md-rendered" {
            &markdown
        } else {
            files
        };
        let mut made = 0;
        let mut attempts = 0;
        while made < per_kind && attempts < per_kind * 200 && !pool.is_empty() {
            attempts += 1;
            let (path, lang) = rng.pick(pool).clone();
            let Ok(bytes) = std::fs::read(&path) else {
                continue;
            };
            if !(400..=300_000).contains(&bytes.len()) || bytes.contains(&0) {
                continue;
            }
            let Ok(text) = String::from_utf8(bytes) else {
                continue;
            };
            if let Some(case) = make(kind, &path.display().to_string(), lang, &text, &mut rng) {
                cases.push(case);
                made += 1;
            }
        }
    }
    cases
}

/// Runs one case as `edit_code` would (matcher and syntax gate).
pub fn evaluate(case: &Case) -> Verdict {
    let got = super::real::outcome_of(&case.file, &case.search, &case.new, case.lang);
    match (&case.expect, got) {
        (None, Err(_)) => Verdict::Correct,
        (None, Ok(got))
            if case
                .near_copies
                .iter()
                .any(|r| changes_within(&case.file, &got, r)) =>
        {
            let r = case
                .near_copies
                .iter()
                .find(|r| changes_within(&case.file, &got, r))
                .cloned()
                .unwrap_or_default();
            Verdict::NearCopy(format!(
                "edited the block at lines {}-{}, which reads the search up to one line",
                r.start + 1,
                r.end
            ))
        }
        (None, Ok(_)) => Verdict::Wrong("applied an edit that had to be refused".into()),
        (Some(want), Ok(got)) if got == *want => Verdict::Correct,
        (Some(want), Ok(got)) => Verdict::Wrong(first_difference(want, &got)),
        (Some(_), Err(why)) => Verdict::Refused(why),
    }
}

/// Runs every case; tallies by kind, and returns the cases not handled right.
pub fn run(cases: &[Case]) -> (BTreeMap<&'static str, Tally>, Vec<(usize, Verdict)>) {
    let mut tallies: BTreeMap<&'static str, Tally> = BTreeMap::new();
    let mut notes = Vec::new();
    for (n, case) in cases.iter().enumerate() {
        let verdict = evaluate(case);
        let t = tallies.entry(case.kind).or_default();
        t.cases += 1;
        match &verdict {
            Verdict::Correct => t.correct += 1,
            Verdict::Refused(_) => t.refused += 1,
            Verdict::Wrong(_) => t.wrong += 1,
            Verdict::NearCopy(_) => t.near_copy += 1,
        }
        if verdict != Verdict::Correct {
            notes.push((n, verdict));
        }
    }
    (tallies, notes)
}
