//! Drifted edits of real files: for each kind of drift, a block of a real
//! file, what the agent means to change there (its intent), and the agent's
//! view of the block (its search) and of the result (its new content). The
//! expected file is the intent made on the real file, computed without the
//! matcher; where an edit cannot be made right, a refusal is expected.

use super::super::rng::{Rng, seed_of};
use super::super::text::{canonical, indent, is_content, occurrences};
use super::files::Source;
use super::intent::{self, Intent, Item};
use super::lang::Lang;
use super::view::{Drift, Frame, StaleInNew, VLine, common_indent, typographic};

/// What a case tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    Exact,
    TrailingWhitespace,
    LeadingWhitespace,
    Indentation,
    Tabs,
    LineEndings,
    Unicode,
    Typo1,
    Typo2,
    BlankMissing,
    BlankMissingNewHasIt,
    BlankAdded,
    BlankAddedNewLacksIt,
    LineMissing,
    LineMissingNewHasIt,
    ShortBlock,
    StaleAgrees,
    StaleKept,
    ElisionMarkerKept,
    ElisionWrittenOut,
    ElisionNoMarker,
    Mixed,
    Ambiguous,
    Absent,
    StaleConflict,
    HiddenDropped,
    SyntaxBreak,
}

impl Kind {
    /// Every kind, in report order.
    pub const ALL: [Kind; 27] = [
        Kind::Exact,
        Kind::TrailingWhitespace,
        Kind::LeadingWhitespace,
        Kind::Indentation,
        Kind::Tabs,
        Kind::LineEndings,
        Kind::Unicode,
        Kind::Typo1,
        Kind::Typo2,
        Kind::BlankMissing,
        Kind::BlankMissingNewHasIt,
        Kind::BlankAdded,
        Kind::BlankAddedNewLacksIt,
        Kind::LineMissing,
        Kind::LineMissingNewHasIt,
        Kind::ShortBlock,
        Kind::StaleAgrees,
        Kind::StaleKept,
        Kind::ElisionMarkerKept,
        Kind::ElisionWrittenOut,
        Kind::ElisionNoMarker,
        Kind::Mixed,
        Kind::Ambiguous,
        Kind::Absent,
        Kind::StaleConflict,
        Kind::HiddenDropped,
        Kind::SyntaxBreak,
    ];

    /// Whether every case of the kind must be refused.
    pub fn must_refuse(self) -> bool {
        matches!(
            self,
            Kind::Ambiguous
                | Kind::Absent
                | Kind::StaleConflict
                | Kind::HiddenDropped
                | Kind::SyntaxBreak
        )
    }

    /// Name in the report.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Exact => "exact",
            Kind::TrailingWhitespace => "trailing_whitespace",
            Kind::LeadingWhitespace => "leading_whitespace",
            Kind::Indentation => "indentation",
            Kind::Tabs => "tabs_vs_spaces",
            Kind::LineEndings => "line_endings",
            Kind::Unicode => "unicode",
            Kind::Typo1 => "one_typo",
            Kind::Typo2 => "two_typos",
            Kind::BlankMissing => "blank_missing",
            Kind::BlankMissingNewHasIt => "blank_missing_new_has",
            Kind::BlankAdded => "blank_extra",
            Kind::BlankAddedNewLacksIt => "blank_extra_new_lacks",
            Kind::LineMissing => "line_missing",
            Kind::LineMissingNewHasIt => "line_missing_new_has",
            Kind::ShortBlock => "short_block",
            Kind::StaleAgrees => "stale_new_agrees",
            Kind::StaleKept => "stale_kept",
            Kind::ElisionMarkerKept => "elision_marker_kept",
            Kind::ElisionWrittenOut => "elision_written_out",
            Kind::ElisionNoMarker => "elision_no_marker",
            Kind::Mixed => "mixed_drift",
            Kind::Ambiguous => "ambiguous",
            Kind::Absent => "absent",
            Kind::StaleConflict => "stale_conflict",
            Kind::HiddenDropped => "hidden_dropped",
            Kind::SyntaxBreak => "breaks_syntax",
        }
    }

    fn langs(self) -> &'static [Lang] {
        match self {
            Kind::SyntaxBreak => &[Lang::Python, Lang::JavaScript],
            _ => &[
                Lang::Python,
                Lang::Rust,
                Lang::C,
                Lang::JavaScript,
                Lang::Markdown,
            ],
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
}

/// One edit request on a real file and its expected outcome.
#[derive(Debug, Clone)]
pub struct Case {
    pub id: String,
    /// The real file, as the manifest names it.
    pub source: String,
    pub kind: Kind,
    pub lang: Lang,
    pub file: String,
    pub search: String,
    pub new: String,
    pub expect: Expect,
}

/// A file's lines with their endings.
pub struct Doc {
    pub lines: Vec<String>,
    pub eols: Vec<&'static str>,
}

impl Doc {
    /// Splits `text` into lines, keeping each line's ending.
    pub fn of(text: &str) -> Doc {
        let mut lines = Vec::new();
        let mut eols = Vec::new();
        for piece in text.split_inclusive('\n') {
            if let Some(l) = piece.strip_suffix("\r\n") {
                lines.push(l.to_string());
                eols.push("\r\n");
            } else if let Some(l) = piece.strip_suffix('\n') {
                lines.push(l.to_string());
                eols.push("\n");
            } else {
                lines.push(piece.to_string());
                eols.push("");
            }
        }
        Doc { lines, eols }
    }

    fn text(&self) -> String {
        self.lines
            .iter()
            .zip(&self.eols)
            .map(|(l, e)| format!("{l}{e}"))
            .collect()
    }

    /// Line endings turned to CRLF: all, from the middle on, or every other
    /// line at random.
    fn crlf(&mut self, rng: &mut Rng) {
        let how = rng.below(10);
        let half = self.lines.len() / 2;
        for (k, e) in self.eols.iter_mut().enumerate() {
            let turn = match how {
                0..=6 => true,
                7..=8 => k >= half,
                _ => rng.chance(50),
            };
            if turn && *e == "\n" {
                *e = "\r\n";
            }
        }
    }

    /// The ending most lines of `a..=b` have (the file's when none has one).
    fn block_eol(&self, a: usize, b: usize) -> &'static str {
        let count = |r: &[&str], e: &str| r.iter().filter(|x| **x == e).count();
        let (lf, crlf) = (
            count(&self.eols[a..=b], "\n"),
            count(&self.eols[a..=b], "\r\n"),
        );
        if crlf > lf
            || (lf == 0 && crlf == 0 && count(&self.eols, "\r\n") > count(&self.eols, "\n"))
        {
            "\r\n"
        } else {
            "\n"
        }
    }

    fn unique(&self, a: usize, b: usize) -> bool {
        occurrences(&self.lines, &self.lines[a..=b]) == 1
    }
}

fn vlines(doc: &Doc, a: usize, b: usize) -> Vec<VLine> {
    (a..=b)
        .map(|i| VLine {
            id: Some(i),
            text: doc.lines[i].clone(),
            of: Some(i),
        })
        .collect()
}

fn item_vlines(doc: &Doc, items: &[Item]) -> Vec<VLine> {
    items
        .iter()
        .map(|it| match it {
            Item::Kept(i) => VLine {
                id: Some(*i),
                text: doc.lines[*i].clone(),
                of: Some(*i),
            },
            Item::Rewrite(i, t) => VLine {
                id: None,
                text: t.clone(),
                of: Some(*i),
            },
            Item::New(t) => VLine {
                id: None,
                text: t.clone(),
                of: None,
            },
        })
        .collect()
}

/// A block of `min..=max` lines that starts and ends with a line of text,
/// holds at least two, occurs once and satisfies `ok`.
fn pick_block(
    doc: &Doc,
    rng: &mut Rng,
    (min, max): (usize, usize),
    ok: &dyn Fn(usize, usize) -> bool,
) -> Option<(usize, usize)> {
    let n = doc.lines.len();
    for _ in 0..40 {
        let len = rng.range(min, max);
        if len > n {
            continue;
        }
        let a = rng.below(n + 1 - len);
        let b = a + len - 1;
        let content = (a..=b).filter(|&i| is_content(&doc.lines[i])).count();
        if doc.lines[a].trim().is_empty()
            || doc.lines[b].trim().is_empty()
            || content < 2.min(len)
            || !doc.unique(a, b)
            || !ok(a, b)
        {
            continue;
        }
        return Some((a, b));
    }
    None
}

/// A made case before judging: file, search, new content, expected text
/// (`None`: must be refused).
type Made = (String, String, String, Option<String>);

/// A drift case: a block, an intent avoiding `avoid`, and the views.
fn finish(doc: &Doc, a: usize, b: usize, drift: &Drift, intent: &Intent) -> Option<Made> {
    let search_lines = vlines(doc, a, b);
    let mut drift = drift.clone();
    drift.first_of_search = Some(a);
    let dedent = common_indent(&search_lines);
    let search = drift.view(&search_lines, false, &dedent);
    let new = drift.view(&item_vlines(doc, &intent.items), true, &dedent);
    if search == new || search.trim().is_empty() {
        return None;
    }
    let want = intent.apply(&doc.lines, &doc.eols, doc.block_eol(a, b));
    Some((doc.text(), search, new, Some(want)))
}

fn lines_with_letters(doc: &Doc, a: usize, b: usize, min: usize) -> Vec<usize> {
    (a..=b)
        .filter(|&i| {
            doc.lines[i]
                .chars()
                .filter(|c| c.is_ascii_alphabetic())
                .count()
                >= min
        })
        .collect()
}

fn pick_frame(doc: &Doc, a: usize, b: usize, rng: &mut Rng) -> Option<Frame> {
    let pads: Vec<&str> = (a..=b)
        .map(|i| indent(&doc.lines[i]))
        .filter(|p| !p.is_empty())
        .collect();
    let common = common_indent(&vlines(doc, a, b));
    let mut options = vec![Frame::Shift(*rng.pick(&[2, 4]))];
    if !common.is_empty() {
        options.extend([Frame::Dedent, Frame::Dedent]);
    }
    let spaces_only = pads.iter().all(|p| !p.contains('\t'));
    if spaces_only && !pads.is_empty() && pads.iter().all(|p| p.len() % 4 == 0) {
        options.push(Frame::Scale(4, 2));
    } else if spaces_only && !pads.is_empty() && pads.iter().all(|p| p.len() % 2 == 0) {
        options.push(Frame::Scale(2, 4));
    }
    Some(*rng.pick(&options))
}

/// The lines of `a..=b` an intent may change, leaving out `avoid` and the
/// lines next to them.
fn allowed(a: usize, b: usize, avoid: &[usize]) -> Vec<usize> {
    (a..=b)
        .filter(|i| !avoid.iter().any(|v| v.abs_diff(*i) <= 1))
        .collect()
}

fn drift_case(kind: Kind, src: &Source, rng: &mut Rng) -> Option<Made> {
    let mut doc = Doc::of(&src.text);
    let lang = src.lang;
    let mut drift = Drift {
        final_newline: rng.chance(60),
        ..Drift::default()
    };
    let mut avoid: Vec<usize> = Vec::new();
    let len = if kind == Kind::ShortBlock {
        (1, 2)
    } else {
        (3, 8)
    };
    let has_inner_blank = |a: usize, b: usize| {
        (a + 1..b).any(|i| {
            doc.lines[i].trim().is_empty()
                && is_content(&doc.lines[i - 1])
                && !doc.lines[i + 1].trim().is_empty()
        })
    };
    let needs_blank = matches!(kind, Kind::BlankMissing | Kind::BlankMissingNewHasIt);
    let indented = |a: usize, b: usize| {
        (a..=b).any(|i| !indent(&doc.lines[i]).is_empty() && !doc.lines[i].trim().is_empty())
    };
    let (a, b) = pick_block(&doc, rng, len, &|a, b| {
        (!needs_blank || has_inner_blank(a, b))
            && (!matches!(
                kind,
                Kind::Indentation | Kind::Tabs | Kind::LeadingWhitespace
            ) || indented(a, b))
    })?;

    let parts: Vec<Kind> = if kind == Kind::Mixed {
        let mut pool = vec![
            Kind::TrailingWhitespace,
            Kind::Indentation,
            Kind::Unicode,
            Kind::Typo1,
            Kind::BlankMissing,
            Kind::LineEndings,
        ];
        let mut chosen = Vec::new();
        for _ in 0..rng.range(2, 3) {
            chosen.push(pool.remove(rng.below(pool.len())));
        }
        chosen
    } else {
        vec![kind]
    };
    for part in &parts {
        match part {
            Kind::TrailingWhitespace => {
                drift.trailing = (a..=b).filter(|&i| i == a || rng.chance(50)).collect();
            }
            Kind::LeadingWhitespace => {
                if indent(&doc.lines[a]).is_empty() {
                    return None;
                }
                drift.frame = Frame::FirstStrip;
            }
            Kind::Indentation => drift.frame = pick_frame(&doc, a, b, rng)?,
            Kind::Tabs => {
                let pads: Vec<&str> = (a..=b)
                    .map(|i| indent(&doc.lines[i]))
                    .filter(|p| !p.is_empty())
                    .collect();
                drift.frame = if pads.iter().any(|p| p.contains('\t')) {
                    Frame::TabsToSpaces(*rng.pick(&[4, 8]))
                } else if pads.iter().all(|p| p.len() % 4 == 0) {
                    Frame::SpacesToTabs(4)
                } else if pads.iter().all(|p| p.len() % 2 == 0) {
                    Frame::SpacesToTabs(2)
                } else {
                    return None;
                };
            }
            Kind::LineEndings => doc.crlf(rng),
            Kind::Unicode => {
                let spots: Vec<usize> = (a..=b)
                    .filter(|&i| typographic(&doc.lines[i]) != doc.lines[i])
                    .collect();
                if spots.is_empty() {
                    return None;
                }
                drift.fancy = spots;
            }
            Kind::Typo1 | Kind::Typo2 => {
                let spots = lines_with_letters(&doc, a, b, 4);
                let count = if *part == Kind::Typo2 { 2 } else { 1 };
                if spots.len() < count {
                    return None;
                }
                for _ in 0..count {
                    let at = *rng.pick(&spots);
                    drift.typos.push((at, rng.next()));
                    avoid.push(at);
                }
                drift.typos_in_new = rng.chance(50);
            }
            Kind::BlankMissing | Kind::BlankMissingNewHasIt => {
                let spots: Vec<usize> = (a + 1..b)
                    .filter(|&i| {
                        doc.lines[i].trim().is_empty() && !doc.lines[i - 1].trim().is_empty()
                    })
                    .collect();
                if spots.is_empty() {
                    return None;
                }
                let at = *rng.pick(&spots);
                drift.blank_missing.push(at);
                drift.blank_missing_in_new = *part != Kind::BlankMissingNewHasIt;
            }
            Kind::BlankAdded | Kind::BlankAddedNewLacksIt => {
                let spots: Vec<usize> = (a..b).collect();
                let at = *rng.pick(&spots);
                drift.blank_added.push(at);
                drift.blank_added_in_new = *part == Kind::BlankAdded;
            }
            Kind::LineMissing | Kind::LineMissingNewHasIt => {
                let spots: Vec<usize> = (a + 1..b).filter(|&i| is_content(&doc.lines[i])).collect();
                if spots.is_empty() {
                    return None;
                }
                let at = *rng.pick(&spots);
                drift.line_missing.push(at);
                drift.line_missing_in_new = *part == Kind::LineMissing;
                avoid.push(at);
            }
            Kind::ShortBlock => match rng.below(3) {
                0 => drift.frame = pick_frame(&doc, a, b, rng)?,
                1 => drift.trailing = vec![a],
                _ => drift.final_newline = !drift.final_newline,
            },
            Kind::StaleAgrees | Kind::StaleKept | Kind::StaleConflict => {
                let spots: Vec<usize> = (a..=b).filter(|&i| is_content(&doc.lines[i])).collect();
                let at = *rng.pick(&spots);
                let old = intent::stale(&doc.lines[at], lang, rng)?;
                if canonical(&old) == canonical(&doc.lines[at]) {
                    return None;
                }
                drift.stale.push((at, old));
                drift.stale_in_new = Some(if *part == Kind::StaleAgrees {
                    StaleInNew::Disk
                } else {
                    StaleInNew::Memory
                });
                avoid.push(at);
            }
            Kind::Exact => {}
            _ => return None,
        }
    }
    // An agent may also write new_content straight from the file it means
    // to have, without its memory's drift.
    let explicit_new = matches!(
        kind,
        Kind::Exact
            | Kind::BlankMissing
            | Kind::BlankMissingNewHasIt
            | Kind::BlankAdded
            | Kind::BlankAddedNewLacksIt
            | Kind::LineMissing
            | Kind::LineMissingNewHasIt
            | Kind::StaleAgrees
            | Kind::StaleKept
            | Kind::StaleConflict
    );
    drift.new_clean = !explicit_new && rng.chance(30);
    let intent = if kind == Kind::StaleConflict {
        let (at, old) = drift.stale[0].clone();
        let changed = intent::modify(&old, lang, rng)?;
        let mut intent = Intent::unchanged(a, b);
        intent.items[at - a] = Item::Rewrite(at, changed);
        // Only the caller's view is known: the line it changes is not on
        // disk as it thinks, so the edit must be refused.
        Some(intent)
    } else {
        intent::make(&doc.lines, a, b, lang, &allowed(a, b, &avoid), rng)
    }?;
    if kind == Kind::StaleConflict {
        return finish(&doc, a, b, &drift, &intent).map(|(f, s, n, _)| (f, s, n, None));
    }
    // A blank line the view drops must still be there for the case to test it.
    for &blank in &drift.blank_missing {
        if !intent.keeps(blank) {
            return None;
        }
    }
    finish(&doc, a, b, &drift, &intent)
}

/// A block with a head, a middle of at least two lines and a tail: a
/// function, a braced block or a Markdown section.
fn structures(doc: &Doc, lang: Lang) -> Vec<(usize, usize)> {
    let n = doc.lines.len();
    let mut out = Vec::new();
    for a in 0..n {
        let line = &doc.lines[a];
        let t = line.trim();
        let end = match lang {
            Lang::Python => {
                if !(t.starts_with("def ")
                    || t.starts_with("class ")
                    || t.starts_with("async def "))
                    || !t.ends_with(':')
                {
                    continue;
                }
                let pad = indent(line).len();
                let mut last = a;
                for (k, l) in doc.lines.iter().enumerate().skip(a + 1) {
                    if l.trim().is_empty() {
                        continue;
                    }
                    if indent(l).len() <= pad {
                        break;
                    }
                    last = k;
                }
                last
            }
            Lang::Markdown => {
                let level = t.bytes().take_while(|&c| c == b'#').count();
                if level == 0 || level > 6 || !t[level..].starts_with(' ') {
                    continue;
                }
                let next = (a + 1..n)
                    .find(|&k| {
                        let h = doc.lines[k].bytes().take_while(|&c| c == b'#').count();
                        h > 0 && h <= level && doc.lines[k][h..].starts_with(' ')
                    })
                    .unwrap_or(n);
                let mut last = next.saturating_sub(1);
                while last > a && doc.lines[last].trim().is_empty() {
                    last -= 1;
                }
                last
            }
            _ => {
                if !t.ends_with('{') || t.starts_with("//") || t.starts_with('*') {
                    continue;
                }
                let mut depth = 0i32;
                let mut end = None;
                for (k, l) in doc.lines.iter().enumerate().skip(a).take(80) {
                    for c in l.chars() {
                        match c {
                            '{' => depth += 1,
                            '}' => depth -= 1,
                            _ => {}
                        }
                    }
                    if depth <= 0 {
                        end = Some(k);
                        break;
                    }
                }
                match end {
                    Some(e) if depth == 0 && doc.lines[e].trim().starts_with('}') => e,
                    _ => continue,
                }
            }
        };
        if end >= a + 5 {
            out.push((a, end));
        }
    }
    out
}

fn elision_case(kind: Kind, src: &Source, rng: &mut Rng) -> Option<Made> {
    let mut doc = Doc::of(&src.text);
    let lang = src.lang;
    let all = structures(&doc, lang);
    if all.is_empty() {
        return None;
    }
    let (a, b) = *rng.pick(&all);
    let head_len = rng.range(1, 2);
    let tail_len = if matches!(lang, Lang::Python | Lang::Markdown) {
        1
    } else {
        2
    };
    let head = a..a + head_len;
    let tail = b + 1 - tail_len..b + 1;
    let middle = head.end..tail.start;
    if middle
        .clone()
        .filter(|&i| !doc.lines[i].trim().is_empty())
        .count()
        < 2
        || head
            .clone()
            .chain(tail.clone())
            .any(|i| doc.lines[i].trim().is_empty())
        || occurrences(&doc.lines, &doc.lines[head.clone()]) != 1
    {
        return None;
    }
    if kind == Kind::ElisionNoMarker
        && (occurrences(&doc.lines, &doc.lines[tail.clone()]) != 1
            || middle.len() > 40
            || tail.clone().all(|i| !is_content(&doc.lines[i])))
    {
        return None;
    }
    if rng.chance(15) {
        doc.crlf(rng);
    }
    let mut drift = Drift {
        final_newline: rng.chance(60),
        ..Drift::default()
    };
    if rng.chance(20) && (a..=b).all(|i| !doc.lines[i].starts_with('\t')) {
        drift.frame = Frame::Shift(4);
    }
    let pad = middle
        .clone()
        .map(|i| &doc.lines[i])
        .find(|l| !l.trim().is_empty())
        .map(|l| indent(l).to_string())
        .unwrap_or_default();
    let marker = format!("{pad}{}", rng.pick(lang.markers()));
    let ends: Vec<usize> = head.clone().chain(tail.clone()).collect();
    let changeable: Vec<usize> = match kind {
        Kind::ElisionWrittenOut | Kind::ElisionNoMarker => (a..=b).collect(),
        _ => ends.clone(),
    };
    let intent = intent::make(&doc.lines, a, b, lang, &changeable, rng)?;
    // An insertion after the head's last line belongs before the marker.
    let mut search = vlines(&doc, head.start, head.end - 1);
    if kind != Kind::ElisionNoMarker {
        search.push(VLine {
            id: None,
            text: marker.clone(),
            of: None,
        });
    }
    search.extend(vlines(&doc, tail.start, tail.end - 1));
    let mut new: Vec<VLine> = Vec::new();
    let mut marker_written = false;
    for item in &intent.items {
        let in_middle = matches!(item, Item::Kept(i) | Item::Rewrite(i, _) if middle.contains(i));
        let written_out = matches!(kind, Kind::ElisionWrittenOut | Kind::ElisionNoMarker);
        if in_middle && !written_out {
            if kind == Kind::ElisionMarkerKept && !marker_written {
                new.push(VLine {
                    id: None,
                    text: marker.clone(),
                    of: None,
                });
                marker_written = true;
            }
            continue;
        }
        new.extend(item_vlines(&doc, std::slice::from_ref(item)));
    }
    let dedent = common_indent(&search);
    let search_text = drift.view(&search, false, &dedent);
    let new_text = drift.view(&new, true, &dedent);
    if search_text == new_text {
        return None;
    }
    let want = (kind != Kind::HiddenDropped)
        .then(|| intent.apply(&doc.lines, &doc.eols, doc.block_eol(a, b)));
    Some((doc.text(), search_text, new_text, want))
}

fn ambiguous_case(src: &Source, rng: &mut Rng) -> Option<Made> {
    let doc = Doc::of(&src.text);
    let n = doc.lines.len();
    let len = rng.range(1, 3);
    if n < len * 2 {
        return None;
    }
    let start = rng.below(n - len);
    for a in (start..n - len).chain(0..start) {
        let block = &doc.lines[a..a + len];
        let letters: usize = block
            .iter()
            .map(|l| l.chars().filter(|c| c.is_ascii_alphabetic()).count())
            .sum();
        if block.iter().any(|l| l.trim().is_empty()) || letters < 8 {
            continue;
        }
        let repeats = (0..=n - len)
            .filter(|&k| doc.lines[k..k + len] == *block)
            .count();
        if repeats < 2 {
            continue;
        }
        let k = (0..len).find(|&i| is_content(&block[i]))?;
        let mut new = block.to_vec();
        new[k] = intent::modify(&block[k], src.lang, rng)?;
        let dedent = common_indent(&vlines(&doc, a, a + len - 1));
        let strip = |l: &String| l.strip_prefix(dedent.as_str()).unwrap_or(l).to_string();
        let search: Vec<String> = block.iter().map(strip).collect();
        let new: Vec<String> = new.iter().map(strip).collect();
        return Some((doc.text(), search.join("\n"), new.join("\n"), None));
    }
    None
}

fn absent_case(src: &Source, others: &[&Source], rng: &mut Rng) -> Option<Made> {
    let doc = Doc::of(&src.text);
    let other = rng.pick(others);
    let odoc = Doc::of(&other.text);
    let (a, b) = pick_block(&odoc, rng, (3, 6), &|a, b| {
        (a..=b).filter(|&i| is_content(&odoc.lines[i])).count() >= 3
    })?;
    let block = &odoc.lines[a..=b];
    let here: std::collections::HashSet<String> = doc.lines.iter().map(|l| canonical(l)).collect();
    let shared = block
        .iter()
        .filter(|l| is_content(l) && here.contains(&canonical(l)))
        .count();
    if shared > 1 {
        return None;
    }
    let k = (0..block.len()).find(|&i| is_content(&block[i]))?;
    let mut new = block.to_vec();
    new[k] = intent::modify(&block[k], src.lang, rng)?;
    Some((
        doc.text(),
        block.join("\n") + "\n",
        new.join("\n") + "\n",
        None,
    ))
}

fn syntax_case(src: &Source, rng: &mut Rng) -> Option<Made> {
    let doc = Doc::of(&src.text);
    let (a, b) = pick_block(&doc, rng, (3, 6), &|_, _| true)?;
    let spots: Vec<usize> = (a..=b)
        .filter(|&i| intent::breaking(&doc.lines[i], src.lang).is_some())
        .collect();
    if spots.is_empty() {
        return None;
    }
    let at = *rng.pick(&spots);
    let mut intent = Intent::unchanged(a, b);
    intent.items[at - a] = Item::Rewrite(at, intent::breaking(&doc.lines[at], src.lang)?);
    let drift = Drift {
        final_newline: rng.chance(60),
        ..Drift::default()
    };
    // Expected text is kept so the judge can confirm the edit breaks the file.
    finish(&doc, a, b, &drift, &intent)
}

fn build(kind: Kind, src: &Source, sources: &[Source], rng: &mut Rng) -> Option<Made> {
    match kind {
        Kind::ElisionMarkerKept
        | Kind::ElisionWrittenOut
        | Kind::ElisionNoMarker
        | Kind::HiddenDropped => elision_case(kind, src, rng),
        Kind::Ambiguous => ambiguous_case(src, rng),
        Kind::Absent => {
            let others: Vec<&Source> = sources
                .iter()
                .filter(|s| s.lang == src.lang && s.name != src.name)
                .collect();
            if others.is_empty() {
                return None;
            }
            absent_case(src, &others, rng)
        }
        Kind::SyntaxBreak => syntax_case(src, rng),
        _ => drift_case(kind, src, rng),
    }
}

/// Cases per kind.
pub const PER_KIND: usize = 24;

/// Every case over `sources`, `per_kind` of each kind, always the same for
/// the same files. Expected texts are not judged yet (see `judged`).
pub fn generate(sources: &[Source], per_kind: usize) -> Vec<(Case, bool)> {
    let mut out = Vec::new();
    for kind in Kind::ALL {
        let eligible: Vec<&Source> = sources
            .iter()
            .filter(|s| kind.langs().contains(&s.lang))
            .collect();
        if eligible.is_empty() {
            continue;
        }
        for rep in 0..per_kind {
            for attempt in 0..80u64 {
                let mut rng = Rng::new(seed_of(&[kind as u64, rep as u64, attempt, 0x5EA1]));
                let src =
                    eligible[(rep * 7 + attempt as usize * 13 + kind as usize) % eligible.len()];
                let Some((file, search, new, want)) = build(kind, src, sources, &mut rng) else {
                    continue;
                };
                let breaks = kind == Kind::SyntaxBreak;
                out.push((
                    Case {
                        id: format!("{}#{rep} {}", kind.name(), src.name),
                        source: src.name.clone(),
                        kind,
                        lang: src.lang,
                        file,
                        search,
                        new,
                        expect: want.map_or(Expect::Refuse, Expect::Text),
                    },
                    breaks,
                ));
                break;
            }
        }
    }
    out
}
