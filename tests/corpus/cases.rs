//! Cases built from generated files, one kind of drift at a time, each with
//! the exact text the file must have afterwards or the demand to refuse.

use mcp_server_text::text::fuzzy::Strategy;

use super::rng::{Rng, seed_of};
use super::source::{Lang, generate};
use super::text::{
    canonical, fancy, indent, is_content, modify, occurrences, stale, to_ascii, typo,
};

/// What a case tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    Exact,
    LineEndings,
    TrailingWhitespace,
    Indentation,
    Tabs,
    Typo1,
    Typo2,
    BlankMissing,
    BlankAdded,
    Unicode,
    ShortBlock,
    StaleLine,
    Elision,
    Mixed,
    ReplaceAll,
    NearDuplicate,
    Ambiguous,
    Absent,
    StaleConflict,
}

impl Kind {
    /// Every kind, in report order.
    pub const ALL: [Kind; 19] = [
        Kind::Exact,
        Kind::LineEndings,
        Kind::TrailingWhitespace,
        Kind::Indentation,
        Kind::Tabs,
        Kind::Typo1,
        Kind::Typo2,
        Kind::BlankMissing,
        Kind::BlankAdded,
        Kind::Unicode,
        Kind::ShortBlock,
        Kind::StaleLine,
        Kind::Elision,
        Kind::Mixed,
        Kind::ReplaceAll,
        Kind::NearDuplicate,
        Kind::Ambiguous,
        Kind::Absent,
        Kind::StaleConflict,
    ];

    /// Whether every case of the kind must be refused.
    pub fn must_refuse(self) -> bool {
        matches!(self, Kind::Ambiguous | Kind::Absent | Kind::StaleConflict)
    }

    /// Name in the report.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Exact => "exact",
            Kind::LineEndings => "line_endings",
            Kind::TrailingWhitespace => "trailing_whitespace",
            Kind::Indentation => "indentation",
            Kind::Tabs => "tabs_vs_spaces",
            Kind::Typo1 => "one_typo",
            Kind::Typo2 => "two_typos",
            Kind::BlankMissing => "blank_line_missing",
            Kind::BlankAdded => "blank_line_added",
            Kind::Unicode => "unicode",
            Kind::ShortBlock => "short_block",
            Kind::StaleLine => "disk_changed_elsewhere",
            Kind::StaleConflict => "disk_changed_at_edit",
            Kind::Elision => "elision",
            Kind::Mixed => "mixed_drift",
            Kind::ReplaceAll => "replace_all",
            Kind::NearDuplicate => "near_duplicate",
            Kind::Ambiguous => "ambiguous",
            Kind::Absent => "absent",
        }
    }

    fn langs(self) -> &'static [Lang] {
        match self {
            Kind::Tabs | Kind::NearDuplicate => &Lang::CODE,
            Kind::ReplaceAll | Kind::Ambiguous => &[
                Lang::Rust,
                Lang::Python,
                Lang::JavaScript,
                Lang::TypeScript,
                Lang::Go,
                Lang::Yaml,
            ],
            _ => &Lang::ALL,
        }
    }

    fn count(self) -> usize {
        match self {
            Kind::ReplaceAll => 24,
            Kind::NearDuplicate => 30,
            Kind::Ambiguous => 36,
            Kind::Absent => 35,
            Kind::Tabs => 30,
            _ => 28,
        }
    }
}

/// What must happen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expect {
    /// The edit applies and the file becomes exactly this.
    Text(String),
    /// The edit is refused.
    Refuse,
    /// Either the edit applies and the file becomes exactly this, or it is
    /// refused; anything else is a wrong edit.
    RightOrRefuse(String),
}

/// One edit request and its expected outcome.
#[derive(Debug, Clone)]
pub struct Case {
    /// Stable name: kind, language, number.
    pub id: String,
    /// What it tests.
    pub kind: Kind,
    /// The file's text.
    pub file: String,
    /// `search_context`.
    pub search: String,
    /// `new_content`.
    pub new: String,
    /// The strategy.
    pub strategy: Strategy,
    /// The expected outcome.
    pub expect: Expect,
}

/// A file's lines and their endings.
#[derive(Debug, Clone)]
struct Doc {
    lines: Vec<String>,
    eols: Vec<&'static str>,
}

impl Doc {
    fn new(lines: Vec<String>, final_newline: bool) -> Doc {
        let n = lines.len();
        let mut eols = vec!["\n"; n];
        if !final_newline && n > 0 {
            eols[n - 1] = "";
        }
        Doc { lines, eols }
    }

    fn crlf_from(&mut self, from: usize) {
        for e in &mut self.eols[from..] {
            if *e == "\n" {
                *e = "\r\n";
            }
        }
    }

    fn text(&self) -> String {
        self.lines
            .iter()
            .zip(&self.eols)
            .map(|(l, e)| format!("{l}{e}"))
            .collect()
    }

    fn block_eol(&self, a: usize, b: usize) -> &'static str {
        let count = |r: &[&str], e: &str| r.iter().filter(|x| **x == e).count();
        let (lf, crlf) = (
            count(&self.eols[a..=b], "\n"),
            count(&self.eols[a..=b], "\r\n"),
        );
        if crlf > lf {
            "\r\n"
        } else if lf > 0 {
            "\n"
        } else if count(&self.eols, "\r\n") > count(&self.eols, "\n") {
            "\r\n"
        } else {
            "\n"
        }
    }
}

/// A line of a block after an edit: kept from the file, rewritten from a
/// line of the file (it keeps that line's ending), or new.
#[derive(Debug, Clone)]
enum Item {
    Kept(usize),
    Rewrite(usize, String),
    New(String),
}

/// Lines `a..=b` of the file become `items`.
struct Replacement {
    a: usize,
    b: usize,
    items: Vec<Item>,
}

/// How the agent's view of the file differs from the file.
#[derive(Debug, Clone, Default)]
struct Drift {
    strip_trailing: bool,
    ascii: bool,
    fancy: bool,
    reindent: Reindent,
    drop: Vec<usize>,
    blank_after: Vec<usize>,
    typos: Vec<(usize, u64)>,
    old: Vec<(usize, String)>,
    final_newline: bool,
}

#[derive(Debug, Clone, Copy, Default)]
enum Reindent {
    #[default]
    None,
    Dedent,
    Shift(usize),
    FirstStrip,
    Scale(usize, usize),
    TabsTo(usize),
}

/// A line of the agent's view, with the file line it comes from.
struct VLine {
    id: Option<usize>,
    text: String,
}

impl Drift {
    /// The agent's text of a new line's content (indentation aside).
    fn content(&self, text: &str) -> String {
        let mut t = text.to_string();
        if self.strip_trailing {
            t = t.trim_end().to_string();
        }
        if self.ascii {
            t = to_ascii(&t);
        }
        if self.fancy {
            t = fancy(&t, false);
        }
        t
    }

    /// Columns removed by `Dedent`: the search block's common indentation.
    fn dedent_of(lines: &[VLine]) -> usize {
        lines
            .iter()
            .filter(|l| !l.text.trim().is_empty())
            .map(|l| indent(&l.text).len())
            .min()
            .unwrap_or(0)
    }

    /// The agent's view of some lines, as the text it sends.
    fn view(&self, lines: &[VLine], dedent: usize) -> String {
        let mut out: Vec<String> = Vec::new();
        for line in lines {
            if line.id.is_some_and(|id| self.drop.contains(&id)) {
                continue;
            }
            let mut t = line.text.clone();
            for (id, old) in &self.old {
                if line.id == Some(*id) {
                    t = old.clone();
                }
            }
            for &(id, seed) in &self.typos {
                if line.id == Some(id) {
                    t = typo(&t, &mut Rng::new(seed));
                }
            }
            t = self.content(&t);
            out.push(t);
            if line.id.is_some_and(|id| self.blank_after.contains(&id)) {
                out.push(String::new());
            }
        }
        for (k, t) in out.iter_mut().enumerate() {
            let pad = indent(t).to_string();
            let body = t[pad.len()..].to_string();
            if body.is_empty() {
                *t = String::new();
                continue;
            }
            let new_pad = match self.reindent {
                Reindent::None => pad,
                Reindent::Dedent => pad.chars().skip(dedent).collect(),
                Reindent::Shift(n) => " ".repeat(n) + &pad,
                Reindent::FirstStrip if k == 0 => String::new(),
                Reindent::FirstStrip => pad,
                Reindent::Scale(from, to) => {
                    let w = pad.len();
                    " ".repeat(w / from * to + w % from)
                }
                Reindent::TabsTo(n) => pad.replace('\t', &" ".repeat(n)),
            };
            *t = new_pad + &body;
        }
        let mut text = out.join("\n");
        if self.final_newline {
            text.push('\n');
        }
        text
    }
}

/// The file after `reps` (sorted, disjoint), with `drift`'s content applied to
/// new lines.
fn expected(doc: &Doc, reps: &[Replacement], drift: &Drift) -> String {
    let mut out = String::new();
    let mut at = 0;
    for r in reps {
        for i in at..r.a {
            out.push_str(&doc.lines[i]);
            out.push_str(doc.eols[i]);
        }
        let eol = doc.block_eol(r.a, r.b);
        let rendered: Vec<(String, &str)> = r
            .items
            .iter()
            .map(|it| match it {
                Item::Kept(i) => (doc.lines[*i].clone(), doc.eols[*i]),
                Item::Rewrite(_, t) | Item::New(t) => {
                    let pad = indent(t);
                    let body = drift.content(&t[pad.len()..]);
                    let text = if body.is_empty() {
                        body
                    } else {
                        format!("{pad}{body}")
                    };
                    let own = match it {
                        Item::Rewrite(k, _) => doc.eols[*k],
                        _ => eol,
                    };
                    (text, own)
                }
            })
            .collect();
        let n = rendered.len();
        for (k, (t, e)) in rendered.into_iter().enumerate() {
            out.push_str(&t);
            let e = if k + 1 == n && doc.eols[r.b].is_empty() {
                ""
            } else if e.is_empty() {
                eol
            } else {
                e
            };
            out.push_str(e);
        }
        if n == 0 && doc.eols[r.b].is_empty() {
            // The file keeps lacking a final newline.
            if out.ends_with("\r\n") {
                out.truncate(out.len() - 2);
            } else if out.ends_with('\n') {
                out.pop();
            }
        }
        at = r.b + 1;
    }
    for i in at..doc.lines.len() {
        out.push_str(&doc.lines[i]);
        out.push_str(doc.eols[i]);
    }
    out
}

fn unit_of(lines: &[String]) -> &'static str {
    if lines.iter().any(|l| l.starts_with('\t')) {
        "\t"
    } else {
        ""
    }
}

/// A new statement to insert after `after`, in the language's syntax.
fn new_line(rng: &mut Rng, lang: Lang, after: &str, tab_doc: bool) -> String {
    let unit = if tab_doc { "\t" } else { lang.unit() };
    let trimmed = after.trim_end();
    let opens = trimmed.ends_with('{') || trimmed.ends_with(':');
    let pad = if opens {
        format!("{}{unit}", indent(after))
    } else {
        indent(after).to_string()
    };
    let noun = rng.word(&["quota", "ledger", "cache", "probe", "marker"]);
    let n = rng.range(2, 999);
    match lang {
        Lang::Rust | Lang::JavaScript | Lang::TypeScript => format!("{pad}audit(\"{noun}\", {n});"),
        Lang::Python | Lang::Go => format!("{pad}audit(\"{noun}\", {n})"),
        Lang::Markdown => {
            let body = after.trim_start();
            if body.starts_with("- ") {
                format!("{}- also audit the {noun} ({n})", indent(after))
            } else {
                format!("Also audit the {noun} ({n} times).")
            }
        }
        Lang::Yaml => {
            if after.trim_start().starts_with("- ") {
                format!("{pad}- {n}")
            } else {
                format!("{pad}audit_{noun}: {n}")
            }
        }
    }
}

/// A random edit of lines `a..=b`, touching none of the lines `avoid`.
fn make_edit(
    rng: &mut Rng,
    lang: Lang,
    doc: &Doc,
    a: usize,
    b: usize,
    avoid: &[usize],
) -> Option<Vec<Item>> {
    let tab_doc = !unit_of(&doc.lines).is_empty();
    let ok: Vec<usize> = (a..=b)
        .filter(|&i| is_content(&doc.lines[i]) && !avoid.contains(&i))
        .collect();
    if ok.is_empty() {
        return None;
    }
    let k = *rng.pick(&ok);
    let pos = k - a;
    let mut items: Vec<Item> = (a..=b).map(Item::Kept).collect();
    match rng.below(10) {
        0..=3 => items[pos] = Item::Rewrite(k, modify(&doc.lines[k], rng)),
        4..=6 => items.insert(
            pos + 1,
            Item::New(new_line(rng, lang, &doc.lines[k], tab_doc)),
        ),
        7 => {
            items.remove(pos);
        }
        _ => {
            if k < b && ok.contains(&(k + 1)) {
                let first = modify(&doc.lines[k], rng);
                let middle = new_line(rng, lang, &doc.lines[k], tab_doc);
                let second = modify(&doc.lines[k + 1], rng);
                items.splice(
                    pos..pos + 2,
                    [
                        Item::Rewrite(k, first),
                        Item::New(middle),
                        Item::Rewrite(k + 1, second),
                    ],
                );
            } else {
                items[pos] = Item::Rewrite(k, modify(&doc.lines[k], rng));
            }
        }
    }
    Some(items)
}

/// A block of `min..=max` lines inside `unit`, starting and ending on lines
/// with content and holding at least two of them.
fn choose_block(
    rng: &mut Rng,
    lines: &[String],
    unit: (usize, usize),
    min: usize,
    max: usize,
) -> Option<(usize, usize)> {
    for _ in 0..20 {
        let len = rng.range(min, max);
        if unit.1 + 1 < unit.0 + len {
            continue;
        }
        let a = rng.range(unit.0, unit.1 + 1 - len);
        let b = a + len - 1;
        let content = (a..=b).filter(|&i| is_content(&lines[i])).count();
        if !lines[a].trim().is_empty() && !lines[b].trim().is_empty() && content >= 2 {
            return Some((a, b));
        }
    }
    None
}

fn search_lines(doc: &Doc, a: usize, b: usize) -> Vec<VLine> {
    (a..=b)
        .map(|i| VLine {
            id: Some(i),
            text: doc.lines[i].clone(),
        })
        .collect()
}

fn item_lines(doc: &Doc, items: &[Item]) -> Vec<VLine> {
    items
        .iter()
        .map(|it| match it {
            Item::Kept(i) => VLine {
                id: Some(*i),
                text: doc.lines[*i].clone(),
            },
            Item::Rewrite(_, t) | Item::New(t) => VLine {
                id: None,
                text: t.clone(),
            },
        })
        .collect()
}

fn to_tabs(lines: &mut [String], unit: &str) {
    for line in lines.iter_mut() {
        let mut rest = line.as_str();
        let mut tabs = 0;
        while let Some(r) = rest.strip_prefix(unit) {
            rest = r;
            tabs += 1;
        }
        *line = "\t".repeat(tabs) + rest;
    }
}

/// Disk-side and view-side drift of one simple kind.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Part {
    Crlf,
    Trailing,
    Reindent,
    Tabs,
    Typo,
    Unicode,
    BlankMissing,
    BlankAdded,
    Stale,
    StaleTouched,
    Added,
    AddedTouched,
}

fn drift_case(
    rng: &mut Rng,
    lang: Lang,
    parts: &[Part],
    typos: usize,
    len: (usize, usize),
) -> Option<(String, String, String, String)> {
    let src = generate(rng, lang, 5..=8);
    let mut lines = src.lines;
    let unit = *rng.pick(&src.units);
    let (a, mut b) = choose_block(rng, &lines, unit, len.0, len.1)?;
    let mut drift = Drift {
        final_newline: rng.chance(50),
        ..Drift::default()
    };
    let mut avoid = Vec::new();

    if parts.contains(&Part::BlankMissing) {
        let spots: Vec<usize> = (a + 1..=b)
            .filter(|&p| is_content(&lines[p - 1]) && is_content(&lines[p]))
            .collect();
        if spots.is_empty() {
            return None;
        }
        let p = *rng.pick(&spots);
        lines.insert(p, String::new());
        b += 1;
        drift.drop.push(p);
        avoid.extend([p - 1, p, p + 1]);
    }
    if parts.contains(&Part::Tabs) {
        if lang != Lang::Go {
            to_tabs(&mut lines, lang.unit());
        }
        let n = if lang == Lang::Go {
            4
        } else {
            lang.unit().len()
        };
        drift.reindent = Reindent::TabsTo(n);
    }
    if parts.contains(&Part::Trailing) {
        // Whitespace after an exact match is outside the match and stays as
        // it is; the first line always gets some so the search is no longer
        // an exact substring and the lines are compared whole.
        if a == b {
            return None;
        }
        for line in &mut lines[a + 1..=b] {
            if !line.trim().is_empty() && rng.chance(55) {
                line.push_str(rng.word(&[" ", "  ", "\t", "   "]));
            }
        }
        lines[a].push_str(rng.word(&[" ", "  ", "\t"]));
        drift.strip_trailing = true;
    }
    if parts.contains(&Part::Unicode) {
        let spots: Vec<usize> = (a..=b)
            .filter(|&i| fancy(&lines[i], false) != lines[i])
            .collect();
        if spots.is_empty() {
            return None;
        }
        if rng.chance(60) {
            for &i in &spots {
                let nbsp = rng.chance(30);
                lines[i] = fancy(&lines[i], nbsp);
            }
            drift.ascii = true;
        } else {
            drift.fancy = true;
        }
    }
    if parts.contains(&Part::Reindent) {
        let block = &lines[a..=b];
        let min = block
            .iter()
            .filter(|l| !l.trim().is_empty())
            .map(|l| indent(l).len())
            .min()
            .unwrap_or(0);
        let mut options = vec![Reindent::Shift(*rng.pick(&[2, 4]))];
        if min > 0 {
            options.push(Reindent::Dedent);
            options.push(Reindent::Dedent);
        }
        if !indent(&lines[a]).is_empty() && !lines[a].starts_with('\t') {
            options.push(Reindent::FirstStrip);
        }
        match lang {
            Lang::JavaScript | Lang::TypeScript | Lang::Yaml | Lang::Markdown => {
                options.push(Reindent::Scale(2, 4))
            }
            Lang::Rust | Lang::Python => options.push(Reindent::Scale(4, 2)),
            Lang::Go => {}
        }
        drift.reindent = match (drift.reindent, *rng.pick(&options)) {
            // Tabs already set: dedent the converted spaces instead of stacking.
            (Reindent::TabsTo(_), _) => drift.reindent,
            (_, r) => r,
        };
    }
    if parts.contains(&Part::BlankAdded) {
        let spots: Vec<usize> = (a..b)
            .filter(|&i| is_content(&lines[i]) && is_content(&lines[i + 1]))
            .collect();
        if spots.is_empty() {
            return None;
        }
        let q = *rng.pick(&spots);
        drift.blank_after.push(q);
        avoid.extend([q, q + 1]);
    }
    for _ in 0..typos {
        let spots: Vec<usize> = (a..=b)
            .filter(|&i| lines[i].chars().filter(|c| c.is_ascii_alphabetic()).count() >= 4)
            .collect();
        if spots.is_empty() {
            return None;
        }
        drift.typos.push((*rng.pick(&spots), rng.next()));
    }

    let mut touched = None;
    let mut around_added = None;
    if parts.contains(&Part::Added) || parts.contains(&Part::AddedTouched) {
        // A line someone else added inside the block since it was read.
        let spots: Vec<usize> = (a + 1..=b)
            .filter(|&p| is_content(&lines[p - 1]) && is_content(&lines[p]) && !avoid.contains(&p))
            .collect();
        if spots.is_empty() {
            return None;
        }
        let p = *rng.pick(&spots);
        let tab_doc = !unit_of(&lines).is_empty();
        let added = new_line(rng, lang, &lines[p - 1], tab_doc);
        lines.insert(p, added);
        b += 1;
        drift.drop.push(p);
        if parts.contains(&Part::Added) {
            avoid.push(p);
        } else {
            around_added = Some(p);
        }
    }
    if parts.contains(&Part::Stale) || parts.contains(&Part::StaleTouched) {
        let spots: Vec<usize> = (a..=b)
            .filter(|&i| {
                is_content(&lines[i])
                    && !avoid.contains(&i)
                    && !drift.typos.iter().any(|t| t.0 == i)
            })
            .collect();
        if spots.is_empty() {
            return None;
        }
        let s = *rng.pick(&spots);
        let old = lines[s].clone();
        lines[s] = stale(&old, rng);
        if lines[s] == old {
            return None;
        }
        drift.old.push((s, old));
        if parts.contains(&Part::Stale) {
            avoid.extend([s]);
        } else {
            touched = Some(s);
        }
    }

    let mut doc = Doc::new(lines, rng.chance(85));
    if parts.contains(&Part::Crlf) {
        match rng.below(10) {
            0..=5 => doc.crlf_from(0),
            6..=7 => doc.crlf_from(doc.lines.len() / 2),
            _ => {
                // Endings mixed line by line.
                for e in &mut doc.eols {
                    if *e == "\n" && rng.chance(50) {
                        *e = "\r\n";
                    }
                }
            }
        }
    }
    if occurrences(&doc.lines, &doc.lines[a..=b]) != 1 {
        return None;
    }
    let items = match (touched, around_added) {
        (Some(s), _) => {
            let mut items: Vec<Item> = (a..=b).map(Item::Kept).collect();
            items[s - a] = Item::Rewrite(s, modify(&drift.old[0].1, rng));
            items
        }
        (None, Some(p)) => {
            // The lines on both sides of the added one change together.
            let mut items: Vec<Item> = (a..=b).map(Item::Kept).collect();
            items[p - 1 - a] = Item::Rewrite(p - 1, modify(&doc.lines[p - 1], rng));
            items[p + 1 - a] = Item::Rewrite(p + 1, modify(&doc.lines[p + 1], rng));
            items
        }
        (None, None) => make_edit(rng, lang, &doc, a, b, &avoid)?,
    };
    let search = search_lines(&doc, a, b);
    let dedent = Drift::dedent_of(&search);
    let search_text = drift.view(&search, dedent);
    let new_text = drift.view(&item_lines(&doc, &items), dedent);
    if search_text == new_text {
        return None;
    }
    let want = expected(&doc, &[Replacement { a, b, items }], &drift);
    Some((doc.text(), search_text, new_text, want))
}

/// The first line of a unit that is not a doc comment.
fn signature(lines: &[String], unit: (usize, usize)) -> usize {
    let first = lines[unit.0].trim_start();
    if first.starts_with("//") || first.starts_with("/**") || first.starts_with("///") {
        unit.0 + 1
    } else {
        unit.0
    }
}

fn elision_case(rng: &mut Rng, lang: Lang) -> Option<(String, String, String, String)> {
    let src = generate(rng, lang, 4..=7);
    let lines = src.lines;
    let unit = *rng.pick(&src.units);
    let a = signature(&lines, unit);
    let b = unit.1;
    let head_len = rng.range(1, 2);
    let tail_len = rng.range(1, 2);
    if b + 1 < a + head_len + tail_len + 2 {
        return None;
    }
    let head = a..a + head_len;
    let tail = b + 1 - tail_len..b + 1;
    if head
        .clone()
        .chain(tail.clone())
        .any(|i| lines[i].trim().is_empty())
    {
        return None;
    }
    let head_lines: Vec<String> = lines[head.clone()].to_vec();
    if occurrences(&lines, &head_lines) != 1 {
        return None;
    }
    let mut drift = Drift {
        final_newline: rng.chance(50),
        ..Drift::default()
    };
    let crlf = rng.chance(15);
    if rng.chance(20) && lines[a..=b].iter().all(|l| !l.starts_with('\t')) {
        drift.reindent = Reindent::Shift(4);
    }
    let doc = {
        let mut d = Doc::new(lines, rng.chance(85));
        if crlf {
            d.crlf_from(0);
        }
        d
    };
    let body_pad = (head.end..tail.start)
        .map(|i| &doc.lines[i])
        .find(|l| !l.trim().is_empty())
        .map(|l| indent(l).to_string())
        .unwrap_or_default();
    let marker = format!("{body_pad}{}", lang.marker(rng));
    let tab_doc = lang == Lang::Go;

    let mut head_items: Vec<Item> = head.clone().map(Item::Kept).collect();
    let mut tail_items: Vec<Item> = tail.clone().map(Item::Kept).collect();
    let mut middle_items: Option<Vec<Item>> = None;
    match rng.below(10) {
        0..=2 => {
            let k = *rng.pick(
                &head
                    .clone()
                    .filter(|&i| is_content(&doc.lines[i]))
                    .collect::<Vec<_>>(),
            );
            head_items[k - a] = Item::Rewrite(k, modify(&doc.lines[k], rng));
        }
        3..=4 => {
            let ok: Vec<usize> = tail
                .clone()
                .filter(|&i| is_content(&doc.lines[i]))
                .collect();
            if ok.is_empty() {
                return None;
            }
            let k = *rng.pick(&ok);
            tail_items[k - tail.start] = Item::Rewrite(k, modify(&doc.lines[k], rng));
        }
        5..=6 => {
            let last = head.end - 1;
            let mut line = new_line(rng, lang, &doc.lines[last], tab_doc);
            if !(doc.lines[last].trim_end().ends_with('{')
                || doc.lines[last].trim_end().ends_with(':'))
            {
                line = format!("{body_pad}{}", line.trim_start());
            }
            head_items.push(Item::New(line));
        }
        7..=8 => {
            let line = new_line(rng, lang, &format!("{body_pad}x"), tab_doc);
            tail_items.insert(0, Item::New(line));
        }
        _ => {
            let l1 = new_line(rng, lang, &format!("{body_pad}x"), tab_doc);
            let l2 = new_line(rng, lang, &format!("{body_pad}x"), tab_doc);
            middle_items = Some(vec![Item::New(l1), Item::New(l2)]);
        }
    }
    let mut search = search_lines(&doc, head.start, head.end - 1);
    search.push(VLine {
        id: None,
        text: marker.clone(),
    });
    search.extend(search_lines(&doc, tail.start, tail.end - 1));
    let mut new = item_lines(&doc, &head_items);
    // New lines at the top of the elided middle; the marker stays, since
    // dropping it would delete lines the caller never saw (refused).
    if let Some(m) = &middle_items {
        new.extend(item_lines(&doc, m));
    }
    new.push(VLine {
        id: None,
        text: marker,
    });
    new.extend(item_lines(&doc, &tail_items));
    let dedent = Drift::dedent_of(&search);
    let search_text = drift.view(&search, dedent);
    let new_text = drift.view(&new, dedent);
    let mut items = head_items;
    items.extend(middle_items.unwrap_or_default());
    items.extend((head.end..tail.start).map(Item::Kept));
    items.extend(tail_items);
    let want = expected(&doc, &[Replacement { a, b, items }], &drift);
    Some((doc.text(), search_text, new_text, want))
}

fn snippet(rng: &mut Rng, lang: Lang) -> Vec<String> {
    let noun = rng.word(&["quota", "ledger", "cache", "probe", "marker"]);
    let n = rng.range(10, 99);
    let u = lang.unit();
    match lang {
        Lang::Rust => vec![
            format!("if stale_{noun}({n}) {{"),
            format!("{u}refresh_{noun}(&mut state, {n});"),
            "}".into(),
        ],
        Lang::Python => vec![
            format!("if stale_{noun}({n}):"),
            format!("{u}refresh_{noun}(state, {n})"),
        ],
        Lang::Go => vec![
            format!("if stale{noun}({n}) {{"),
            format!("{u}refresh{noun}(state, {n})"),
            "}".into(),
        ],
        Lang::Yaml => vec![
            format!("retry_{noun}:"),
            format!("{u}attempts: {}", n % 7 + 2),
            format!("{u}backoff: \"{n}ms\""),
        ],
        _ => vec![
            format!("if (stale{noun}({n})) {{"),
            format!("{u}refresh{noun}(state, {n});"),
            "}".into(),
        ],
    }
}

fn replace_all_case(rng: &mut Rng, lang: Lang) -> Option<(String, String, String, String)> {
    let src = generate(rng, lang, 5..=8);
    let mut lines = src.lines;
    let snip = snippet(rng, lang);
    let copies = rng.range(2, 3);
    let mut units = src.units.clone();
    if units.len() < copies {
        return None;
    }
    // Distinct units, inserted from the last so earlier indices stay valid.
    let mut chosen: Vec<(usize, usize)> = Vec::new();
    while chosen.len() < copies {
        let u = units.remove(rng.below(units.len()));
        chosen.push(u);
    }
    chosen.sort();
    let mut places: Vec<(usize, usize)> = Vec::new();
    for &(start, end) in chosen.iter().rev() {
        let at_line = signature(&lines, (start, end)) + 1;
        if at_line > end {
            return None;
        }
        let pad = indent(&lines[at_line]).to_string();
        let pad = if pad.is_empty() {
            lang.unit().to_string()
        } else {
            pad
        };
        let extra = if rng.chance(30) { lang.unit() } else { "" };
        let block: Vec<String> = snip.iter().map(|l| format!("{pad}{extra}{l}")).collect();
        let at = at_line + 1;
        for (k, l) in block.into_iter().enumerate() {
            lines.insert(at + k, l);
        }
        for p in &mut places {
            p.0 += snip.len();
            p.1 += snip.len();
        }
        places.push((at, at + snip.len() - 1));
    }
    places.sort();
    let mut doc = Doc::new(lines, rng.chance(85));
    if rng.chance(20) {
        doc.crlf_from(0);
    }
    // The change, relative to the snippet; applied to every copy.
    let k = rng.below(snip.len());
    let change = rng.below(2);
    let changed = modify(&doc.lines[places[0].0 + k], rng);
    let new_at = new_line(rng, lang, &doc.lines[places[0].0 + k], lang == Lang::Go);
    let rel_changed = changed[indent(&doc.lines[places[0].0 + k]).len()..].to_string();
    let rel_new = new_at[indent(&doc.lines[places[0].0 + k]).len()..].to_string();
    let mut reps = Vec::new();
    for &(a, b) in &places {
        let mut items: Vec<Item> = (a..=b).map(Item::Kept).collect();
        let pad = indent(&doc.lines[a + k]).to_string();
        if change == 0 {
            items[k] = Item::Rewrite(a + k, format!("{pad}{rel_changed}"));
        } else {
            items.insert(k + 1, Item::New(format!("{pad}{rel_new}")));
        }
        reps.push(Replacement { a, b, items });
    }
    let drift = Drift {
        final_newline: rng.chance(50),
        reindent: if rng.chance(50) {
            Reindent::Dedent
        } else {
            Reindent::None
        },
        ..Drift::default()
    };
    let first = &reps[0];
    let search = search_lines(&doc, first.a, first.b);
    let dedent = Drift::dedent_of(&search);
    let search_text = drift.view(&search, dedent);
    let new_text = drift.view(&item_lines(&doc, &first.items), dedent);
    let want = expected(&doc, &reps, &drift);
    Some((doc.text(), search_text, new_text, want))
}

/// The name in a function's signature line.
fn rename(line: &str, rng: &mut Rng) -> Option<String> {
    let open = line.find('(')?;
    let before = &line[..open];
    let start = before.rfind(' ')? + 1;
    let name = &before[start..];
    let other = rng.word(&["warm", "drain", "seal", "mirror", "pin"]);
    let renamed = if name.contains('_') {
        let rest = name.split_once('_')?.1;
        format!("{other}_{rest}")
    } else {
        let tail: String = name.chars().skip_while(|c| c.is_lowercase()).collect();
        let mut o = other.to_string();
        if name.starts_with(|c: char| c.is_uppercase()) {
            o = o[..1].to_uppercase() + &o[1..];
        }
        format!("{o}{tail}")
    };
    Some(format!(
        "{before_name}{renamed}{after}",
        before_name = &line[..start],
        after = &line[open..]
    ))
}

/// The position of the last digit of the first number in a line's text.
fn literal_digit(line: &str) -> Option<usize> {
    let pad = indent(line).len();
    let bytes = line.as_bytes();
    let start = (pad..bytes.len()).find(|&i| {
        bytes[i].is_ascii_digit() && (i == 0 || !bytes[i - 1].is_ascii_alphanumeric())
    })?;
    let end = (start..bytes.len())
        .find(|&i| !bytes[i].is_ascii_digit())
        .unwrap_or(bytes.len());
    Some(end - 1)
}

fn with_digit(line: &str, at: usize, digit: u8) -> String {
    let mut bytes = line.as_bytes().to_vec();
    bytes[at] = b'0' + digit;
    String::from_utf8(bytes).expect("ascii digit")
}

/// A file holding a function and a renamed copy of it.
struct ClonePair {
    lines: Vec<String>,
    /// First line of each copy.
    starts: [usize; 2],
    /// Signature line, relative to a copy's first line.
    sig_rel: usize,
    /// Line whose number differs between the copies, if any (relative).
    lit_rel: Option<usize>,
    /// Last line, relative.
    last_rel: usize,
}

/// A function and a copy of it that differs in its name and, maybe, in the
/// last digit of one number.
fn clone_pair(rng: &mut Rng, lang: Lang, literal: bool) -> Option<ClonePair> {
    let src = generate(rng, lang, 4..=6);
    let mut lines = src.lines;
    let unit = *rng.pick(&src.units);
    let sig = signature(&lines, unit);
    if unit.1 < sig + 4 {
        return None;
    }
    let sig_rel = sig - unit.0;
    let lit_rel =
        (sig_rel + 1..=unit.1 - unit.0).find(|&r| literal_digit(&lines[unit.0 + r]).is_some());
    if literal && lit_rel.is_none() {
        return None;
    }
    let mut copy: Vec<String> = lines[unit.0..=unit.1].to_vec();
    copy[sig_rel] = rename(&copy[sig_rel], rng)?;
    let lit_rel = if literal {
        let r = lit_rel?;
        let at = literal_digit(&lines[unit.0 + r])?;
        let d = lines[unit.0 + r].as_bytes()[at] - b'0';
        let d = if d > 7 { 3 } else { d };
        lines[unit.0 + r] = with_digit(&lines[unit.0 + r], at, d);
        copy[r] = with_digit(&lines[unit.0 + r], at, d + 1);
        Some(r)
    } else {
        None
    };
    let gap = if lang == Lang::Python { 2 } else { 1 };
    let at = unit.1 + 1;
    let mut insert = vec![String::new(); gap];
    insert.extend(copy);
    for (k, l) in insert.into_iter().enumerate() {
        lines.insert(at + k, l);
    }
    Some(ClonePair {
        lines,
        starts: [unit.0, at + gap],
        sig_rel,
        lit_rel,
        last_rel: unit.1 - unit.0,
    })
}

fn near_duplicate_case(rng: &mut Rng, lang: Lang) -> Option<(String, String, String, String)> {
    let variant = rng.below(3);
    let literal = variant == 2 || rng.chance(30);
    let ClonePair {
        mut lines,
        starts,
        sig_rel,
        lit_rel,
        last_rel,
    } = clone_pair(rng, lang, literal)?;
    let start = starts[rng.below(2)];
    let sig = start + sig_rel;
    let mut drift = Drift {
        final_newline: rng.chance(50),
        ..Drift::default()
    };
    let alpha = |l: &String| l.chars().filter(|c| c.is_ascii_alphabetic()).count() >= 4;
    let (a, b) = match variant {
        0 | 1 => (sig, sig + rng.range(3, 5).min(last_rel - sig_rel)),
        _ => {
            let lit = start + lit_rel?;
            let a = lit.saturating_sub(rng.range(0, 2)).max(sig + 1);
            (a, (lit + rng.range(1, 3)).min(start + last_rel))
        }
    };
    match (variant, rng.below(4)) {
        (1, _) => drift.typos.push((sig, rng.next())),
        (_, 0) => {
            let lit = lit_rel.map(|r| start + r);
            let spots: Vec<usize> = (a..=b)
                .filter(|&i| i != sig && Some(i) != lit && alpha(&lines[i]))
                .collect();
            if spots.is_empty() {
                return None;
            }
            drift.typos.push((*rng.pick(&spots), rng.next()));
        }
        (_, 1) => {
            for l in &mut lines[a..=b] {
                l.push(' ');
            }
            drift.strip_trailing = true;
        }
        (_, 2) => drift.reindent = Reindent::Shift(4),
        _ => {}
    }
    let mut doc = Doc::new(lines, rng.chance(85));
    if rng.chance(20) {
        doc.crlf_from(0);
    }
    if occurrences(&doc.lines, &doc.lines[a..=b]) != 1 {
        return None;
    }
    let items = make_edit(rng, lang, &doc, a, b, &[sig])?;
    let search = search_lines(&doc, a, b);
    let dedent = Drift::dedent_of(&search);
    let search_text = drift.view(&search, dedent);
    let new_text = drift.view(&item_lines(&doc, &items), dedent);
    let want = expected(&doc, &[Replacement { a, b, items }], &drift);
    Some((doc.text(), search_text, new_text, want))
}

/// Two copies that differ in one digit, and a search whose digit differs
/// from both by the same amount: nothing tells the copies apart.
fn equidistant_case(rng: &mut Rng, lang: Lang) -> Option<(String, String, String)> {
    let ClonePair {
        lines,
        starts,
        sig_rel,
        lit_rel,
        last_rel,
    } = clone_pair(rng, lang, true)?;
    let lit = starts[0] + lit_rel?;
    let a = lit
        .saturating_sub(rng.range(0, 2))
        .max(starts[0] + sig_rel + 1);
    let b = (lit + rng.range(1, 3)).min(starts[0] + last_rel);
    let doc = Doc::new(lines, rng.chance(85));
    let at = literal_digit(&doc.lines[lit])?;
    let d = doc.lines[lit].as_bytes()[at] - b'0';
    let mut search: Vec<String> = doc.lines[a..=b].to_vec();
    search[lit - a] = with_digit(&search[lit - a], at, d + 2);
    let k = (0..search.len()).find(|&i| i != lit - a && is_content(&search[i]))?;
    let mut new = search.clone();
    new[k] = modify(&search[k], rng);
    Some((doc.text(), search.join("\n"), new.join("\n")))
}

fn ambiguous_case(rng: &mut Rng, lang: Lang) -> Option<(String, String, String)> {
    let variant = rng.below(5);
    if variant == 4 {
        return equidistant_case(rng, lang);
    }
    let src = generate(rng, lang, 4..=6);
    let mut lines = src.lines;
    if variant == 3 {
        // A single line that occurs more than once.
        let mut counts: Vec<(String, usize)> = Vec::new();
        for l in &lines {
            if !is_content(l) {
                continue;
            }
            let c = l.trim().to_string();
            match counts.iter_mut().find(|(x, _)| *x == c) {
                Some(e) => e.1 += 1,
                None => counts.push((c, 1)),
            }
        }
        let repeated: Vec<&(String, usize)> = counts.iter().filter(|(_, n)| *n >= 2).collect();
        let line = if repeated.is_empty() {
            // Make one: repeat a statement of one unit in another.
            let u = src.units[0];
            let v = src.units[src.units.len() - 1];
            let pick =
                (u.0..=u.1).find(|&i| is_content(&lines[i]) && !indent(&lines[i]).is_empty())?;
            let copy = lines[pick].clone();
            lines.insert(v.1, copy.clone());
            copy.trim().to_string()
        } else {
            rng.pick(&repeated).0.clone()
        };
        let doc = Doc::new(lines, true);
        let new = modify(&line, rng);
        return Some((doc.text(), line, new));
    }
    let unit = *rng.pick(&src.units);
    let sig = signature(&lines, unit);
    if unit.1 < sig + 3 {
        return None;
    }
    let mut copy: Vec<String> = lines[unit.0..=unit.1].to_vec();
    if variant == 1 {
        let u = if lang == Lang::Go { "\t" } else { lang.unit() };
        for l in &mut copy {
            if !l.is_empty() {
                *l = format!("{u}{l}");
            }
        }
    }
    let at = src.units[src.units.len() - 1].1 + 1;
    let mut insert = vec![String::new()];
    insert.extend(copy);
    for (k, l) in insert.into_iter().enumerate() {
        lines.insert(at + k, l);
    }
    let (a, b) = choose_block(rng, &lines, (sig + 1, unit.1), 2, 5)?;
    let doc = Doc::new(lines, rng.chance(85));
    let mut drift = Drift {
        final_newline: rng.chance(50),
        ..Drift::default()
    };
    match variant {
        1 => drift.reindent = Reindent::Dedent,
        2 => {
            let spots: Vec<usize> = (a..=b)
                .filter(|&i| {
                    doc.lines[i]
                        .chars()
                        .filter(|c| c.is_ascii_alphabetic())
                        .count()
                        >= 4
                })
                .collect();
            if spots.is_empty() {
                return None;
            }
            drift.typos.push((*rng.pick(&spots), rng.next()));
        }
        _ => {}
    }
    let items = make_edit(rng, lang, &doc, a, b, &[])?;
    let search = search_lines(&doc, a, b);
    let dedent = Drift::dedent_of(&search);
    if variant == 1 && dedent == 0 {
        return None;
    }
    Some((
        doc.text(),
        drift.view(&search, dedent),
        drift.view(&item_lines(&doc, &items), dedent),
    ))
}

fn absent_case(rng: &mut Rng, lang: Lang) -> Option<(String, String, String)> {
    let src = generate(rng, lang, 4..=7);
    let mut lines = src.lines;
    let block = match rng.below(3) {
        0 => {
            // A block of another file in the same language.
            let other = generate(rng, lang, 3..=3);
            let unit = *rng.pick(&other.units);
            let (a, b) = choose_block(rng, &other.lines, unit, 4, 7)?;
            other.lines[a..=b].to_vec()
        }
        1 => {
            // A function that was deleted since the agent read the file.
            let k = rng.below(src.units.len());
            let unit = src.units[k];
            let (a, b) = choose_block(rng, &lines, unit, 4, 7)?;
            let block = lines[a..=b].to_vec();
            let start = if unit.0 > 0 && lines[unit.0 - 1].is_empty() {
                unit.0 - 1
            } else {
                unit.0
            };
            lines.drain(start..=unit.1);
            block
        }
        _ => {
            // Two places mixed up: the first line of one block on top of the
            // rest of another.
            let u = *rng.pick(&src.units);
            let v = *rng.pick(&src.units);
            if u == v {
                return None;
            }
            let (a, _) = choose_block(rng, &lines, u, 1, 1)?;
            let (c, d) = choose_block(rng, &lines, v, 4, 7)?;
            if !is_content(&lines[a]) || canonical(&lines[a]) == canonical(&lines[c]) {
                return None;
            }
            let mut block = vec![lines[a].clone()];
            block.extend(lines[c + 1..=d].iter().cloned());
            block
        }
    };
    if block.iter().filter(|l| is_content(l)).count() < 3 || occurrences(&lines, &block) != 0 {
        return None;
    }
    let doc = Doc::new(lines, rng.chance(85));
    let k = (0..block.len()).find(|&i| is_content(&block[i]))?;
    let mut new = block.clone();
    new[k] = modify(&block[k], rng);
    Some((doc.text(), block.join("\n") + "\n", new.join("\n") + "\n"))
}

fn build(kind: Kind, lang: Lang, rep: usize) -> Case {
    for attempt in 0..200u64 {
        let mut rng = Rng::new(seed_of(&[kind as u64, lang as u64, rep as u64, attempt]));
        let made = match kind {
            Kind::Exact => drift_case(&mut rng, lang, &[], 0, (3, 7)),
            Kind::LineEndings => drift_case(&mut rng, lang, &[Part::Crlf], 0, (3, 7)),
            Kind::TrailingWhitespace => drift_case(&mut rng, lang, &[Part::Trailing], 0, (3, 7)),
            Kind::Indentation => drift_case(&mut rng, lang, &[Part::Reindent], 0, (3, 7)),
            Kind::Tabs => drift_case(&mut rng, lang, &[Part::Tabs], 0, (3, 7)),
            Kind::Typo1 => drift_case(&mut rng, lang, &[Part::Typo], 1, (3, 7)),
            Kind::Typo2 => drift_case(&mut rng, lang, &[Part::Typo], 2, (3, 7)),
            Kind::BlankMissing => drift_case(&mut rng, lang, &[Part::BlankMissing], 0, (3, 7)),
            Kind::BlankAdded => drift_case(&mut rng, lang, &[Part::BlankAdded], 0, (3, 7)),
            Kind::Unicode => drift_case(&mut rng, lang, &[Part::Unicode], 0, (3, 7)),
            Kind::ShortBlock => {
                let part = *rng.pick(&[
                    Part::Reindent,
                    Part::Trailing,
                    Part::Typo,
                    Part::Unicode,
                    Part::Crlf,
                ]);
                let typos = usize::from(part == Part::Typo);
                drift_case(&mut rng, lang, &[part], typos, (1, 2))
            }
            Kind::StaleLine => {
                let part = *rng.pick(&[Part::Stale, Part::Added]);
                drift_case(&mut rng, lang, &[part], 0, (5, 9))
            }
            Kind::StaleConflict => {
                let part = *rng.pick(&[Part::StaleTouched, Part::AddedTouched]);
                drift_case(&mut rng, lang, &[part], 0, (4, 9))
            }
            Kind::Mixed => {
                let mut pool = vec![
                    Part::Crlf,
                    Part::Trailing,
                    Part::Reindent,
                    Part::Unicode,
                    Part::BlankMissing,
                    Part::Typo,
                ];
                if Lang::CODE.contains(&lang) {
                    pool.push(Part::Tabs);
                }
                let mut parts = Vec::new();
                for _ in 0..rng.range(2, 3) {
                    let p = pool.remove(rng.below(pool.len()));
                    parts.push(p);
                }
                let typos = usize::from(parts.contains(&Part::Typo));
                drift_case(&mut rng, lang, &parts, typos, (3, 7))
            }
            Kind::Elision => elision_case(&mut rng, lang),
            Kind::ReplaceAll => replace_all_case(&mut rng, lang),
            Kind::NearDuplicate => near_duplicate_case(&mut rng, lang),
            Kind::Ambiguous | Kind::Absent => {
                let made = if kind == Kind::Ambiguous {
                    ambiguous_case(&mut rng, lang)
                } else {
                    absent_case(&mut rng, lang)
                };
                made.map(|(file, search, new)| (file, search, new, String::new()))
            }
        };
        let Some((file, search, new, want)) = made else {
            continue;
        };
        let expect = match kind {
            k if k.must_refuse() => Expect::Refuse,
            Kind::NearDuplicate => Expect::RightOrRefuse(want),
            _ => Expect::Text(want),
        };
        return Case {
            id: format!("{}-{}-{rep}", kind.name(), lang.name()),
            kind,
            file,
            search,
            new,
            strategy: if kind == Kind::ReplaceAll {
                Strategy::ReplaceAll
            } else {
                Strategy::SingleMatch
            },
            expect,
        };
    }
    panic!("no {kind:?} case for {lang:?} #{rep} after 200 attempts");
}

/// The whole corpus, always the same.
pub fn all() -> Vec<Case> {
    let mut out = Vec::new();
    for kind in Kind::ALL {
        let langs = kind.langs();
        for k in 0..kind.count() {
            out.push(build(kind, langs[k % langs.len()], k / langs.len()));
        }
    }
    out
}
