//! edit_code's promise under transformations it was never written for: a
//! random systematic change T of the caller's texts (a prefix or suffix on
//! every line, two characters swapped everywhere, pairs of lines swapped,
//! every long line wrapped, names renamed on lines new_content keeps, the
//! block deleted on disk while a look-alike stays, or two of these at once)
//! must leave the file exactly as the intended edit makes it, or untouched.
//! Where a transformation changes new_content and not the search (a wrap no
//! search line is long enough for), the caller's text as it was sent is
//! right too: nothing the matcher is given tells that change from the
//! caller's own.
//!
//! `cargo test --test edit_code_transforms` runs a few hundred cases;
//! `PROPTEST_CASES=100000 cargo test --release --test edit_code_transforms`
//! is the long run.

#[path = "corpus/mod.rs"]
mod corpus;

use corpus::rng::Rng;
use corpus::source::{self, Lang};
use corpus::text::{indent, modify};
use mcp_server_text::text::fuzzy::EditRequest;
use proptest::prelude::*;

/// One systematic transformation of both of the caller's texts.
#[derive(Debug, Clone)]
enum T {
    Prefix(String),
    Suffix(String),
    Swap(char, char),
    SwapLinePairs(usize),
    Wrap(usize),
    RenameKept(usize),
    DeletedWithLookalike(usize),
}

/// A random transformation.
fn transform(rng: &mut Rng) -> T {
    let printable = |rng: &mut Rng| loop {
        let n = rng.range(1, 4);
        let s: String = (0..n)
            .map(|_| match rng.below(10) {
                0 => ' ',
                1 => char::from_u32(0xA1 + rng.below(0x5F) as u32).unwrap_or('x'),
                _ => (b'!' + rng.below(94) as u8) as char,
            })
            .collect();
        if !s.trim().is_empty() {
            return s;
        }
    };
    const SWAPPABLE: &str = "abcdefghijklmnopqrstuvwxyz()[]{}\"':;,.=_-012";
    let swappable: Vec<char> = SWAPPABLE.chars().collect();
    match rng.below(7) {
        0 => T::Prefix(printable(rng)),
        1 => T::Suffix(printable(rng)),
        2 => loop {
            let (a, b) = (*rng.pick(&swappable), *rng.pick(&swappable));
            if a != b {
                return T::Swap(a, b);
            }
        },
        3 => T::SwapLinePairs(rng.range(1, 3)),
        4 => T::Wrap(rng.range(20, 59)),
        5 => T::RenameKept(rng.range(2, 4)),
        _ => T::DeletedWithLookalike(rng.range(2, 4)),
    }
}

/// A view's line: the file line it shows (if any), whether the edit keeps it,
/// and its text.
#[derive(Debug, Clone)]
struct Row {
    disk: Option<usize>,
    kept: bool,
    text: String,
}

fn word_spans(line: &str) -> Vec<(usize, usize)> {
    let bytes = line.as_bytes();
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if word(bytes[i]) && (i == 0 || !word(bytes[i - 1])) {
            let mut j = i;
            while j < bytes.len() && word(bytes[j]) {
                j += 1;
            }
            if j - i >= 3 && !bytes[i].is_ascii_digit() {
                out.push((i, j));
            }
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

fn renamed(line: &str, rng: &mut Rng) -> Option<String> {
    let spans = word_spans(line);
    if spans.is_empty() {
        return None;
    }
    let (a, b) = *rng.pick(&spans);
    Some(format!(
        "{}{}{}{}",
        &line[..a],
        &line[a..b],
        rng.word(&["Q", "_zz", "Other", "9"]),
        &line[b..]
    ))
}

/// Applies `t` to both views (and, for a deleted block, to the file).
fn apply(
    t: &T,
    search: &mut Vec<Row>,
    new: &mut Vec<Row>,
    file: &mut [String],
    rng: &mut Rng,
) -> bool {
    let each = |rows: &mut Vec<Row>, f: &dyn Fn(&str) -> String| {
        for r in rows.iter_mut() {
            r.text = f(&r.text);
        }
    };
    match t {
        T::Prefix(p) => {
            let f = |s: &str| format!("{p}{s}");
            each(search, &f);
            each(new, &f);
        }
        T::Suffix(x) => {
            let f = |s: &str| {
                if s.trim().is_empty() {
                    s.to_string()
                } else {
                    format!("{s}{x}")
                }
            };
            each(search, &f);
            each(new, &f);
        }
        T::Swap(a, b) => {
            let f = |s: &str| {
                s.chars()
                    .map(|c| {
                        if c == *a {
                            *b
                        } else if c == *b {
                            *a
                        } else {
                            c
                        }
                    })
                    .collect::<String>()
            };
            each(search, &f);
            each(new, &f);
        }
        T::SwapLinePairs(n) => {
            for _ in 0..*n {
                if search.len() < 2 {
                    return false;
                }
                let k = rng.below(search.len() - 1);
                let (x, y) = (search[k].disk, search[k + 1].disk);
                search.swap(k, k + 1);
                let p = new.iter().position(|r| r.disk == x && r.kept);
                let q = new.iter().position(|r| r.disk == y && r.kept);
                if let (Some(p), Some(q)) = (p, q)
                    && q == p + 1
                {
                    new.swap(p, q);
                }
            }
        }
        T::Wrap(width) => {
            let f = |s: &str| {
                let mut out = String::new();
                let mut rest = s.to_string();
                while rest.chars().count() > *width {
                    let cut = rest
                        .char_indices()
                        .nth(*width)
                        .map_or(rest.len(), |(i, _)| i);
                    let Some(space) = rest[..cut].rfind(' ').filter(|&i| i > indent(&rest).len())
                    else {
                        break;
                    };
                    out.push_str(&rest[..space]);
                    out.push('\n');
                    rest = format!("{}  {}", indent(s), &rest[space + 1..]);
                }
                out.push_str(&rest);
                out
            };
            each(search, &f);
            each(new, &f);
        }
        T::RenameKept(n) => {
            let kept: Vec<usize> = (0..search.len())
                .filter(|&k| search[k].kept && !word_spans(&search[k].text).is_empty())
                .collect();
            if kept.len() < *n {
                return false;
            }
            for k in kept.into_iter().take(*n) {
                let Some(r) = renamed(&search[k].text, rng) else {
                    return false;
                };
                let disk = search[k].disk;
                search[k].text = r.clone();
                for row in new.iter_mut() {
                    if row.disk == disk && row.kept {
                        row.text = r.clone();
                    }
                }
            }
        }
        T::DeletedWithLookalike(n) => {
            let shown: Vec<usize> = search
                .iter()
                .filter_map(|r| r.disk)
                .filter(|&i| !word_spans(&file[i]).is_empty())
                .collect();
            if shown.len() < *n {
                return false;
            }
            for i in shown.into_iter().take(*n) {
                let Some(r) = renamed(&file[i], rng) else {
                    return false;
                };
                file[i] = r;
            }
            return true;
        }
    }
    true
}

fn join(rows: &[Row]) -> String {
    let mut s = rows
        .iter()
        .map(|r| r.text.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    s.push('\n');
    s
}

/// One case: the file, the caller's texts, and what a right outcome is.
struct Case {
    ts: Vec<T>,
    text: String,
    search: String,
    new: String,
    /// The intended file; `None` where only the untouched file is right.
    intended: Option<String>,
    /// Where a transformation changed `new_content` and left the search as
    /// it was (a wrap no search line is long enough for, a swap of
    /// characters the search lacks), the intended file with that change in
    /// the lines new_content writes. Nothing the matcher is given tells
    /// such a change from the caller's own, so writing new_content as it
    /// was sent is right too; anything else is still wrong.
    as_sent: Option<String>,
}

/// The case of `seed`, or none where the seed gives no usable one.
fn case(seed: u64) -> Option<Case> {
    let mut rng = Rng::new(seed);
    let lang = *rng.pick(&Lang::ALL);
    let src = source::generate(&mut rng, lang, 3..=6);
    let (ua, ub) = *rng.pick(&src.units);
    let lines = &src.lines;
    // A block inside one unit, 3 to 10 lines, starting and ending on text.
    let len = rng.range(3, 10).min(ub - ua + 1);
    let a = ua + rng.below(ub - ua + 2 - len);
    let b = a + len;
    if lines[a].trim().is_empty() || lines[b - 1].trim().is_empty() {
        return None;
    }
    // The intent: one line rewritten, sometimes one added after it.
    let content: Vec<usize> = (a..b).filter(|&i| lines[i].trim().len() > 3).collect();
    if content.len() < 2 {
        return None;
    }
    let k = *rng.pick(&content);
    let changed = modify(&lines[k], &mut rng);
    if changed == lines[k] {
        return None;
    }
    let mut new: Vec<Row> = Vec::new();
    for (i, line) in lines.iter().enumerate().take(b).skip(a) {
        let kept = i != k;
        let text = if kept { line.clone() } else { changed.clone() };
        new.push(Row {
            disk: Some(i),
            kept,
            text,
        });
        if i == k && rng.chance(30) {
            new.push(Row {
                disk: None,
                kept: false,
                text: format!("{}added_line_{k}();", indent(line)),
            });
        }
    }
    let around = |rows: &[Row]| -> String {
        lines[..a]
            .iter()
            .map(|l| format!("{l}\n"))
            .chain(rows.iter().map(|r| format!("{}\n", r.text)))
            .chain(lines[b..].iter().map(|l| format!("{l}\n")))
            .collect()
    };
    let intended = around(&new);
    let mut search: Vec<Row> = (a..b)
        .map(|i| Row {
            disk: Some(i),
            kept: i != k,
            text: lines[i].clone(),
        })
        .collect();

    let mut ts = vec![transform(&mut rng)];
    if rng.chance(30) {
        ts.push(transform(&mut rng));
    }
    let mut file = lines.clone();
    let mut deleted = false;
    // new_content with only the transformations the search does not show.
    let mut sent = new.clone();
    let mut unseen = false;
    for t in &ts {
        let (searched, meant) = (join(&search), join(&new));
        if !apply(t, &mut search, &mut new, &mut file, &mut rng) {
            return None;
        }
        deleted |= matches!(t, T::DeletedWithLookalike(_));
        if join(&search) == searched && join(&new) != meant {
            // A character swap or a wrap acts on each line by itself, so
            // new_content as sent is that transformation alone. Swapping
            // pairs of lines can also leave the search as it was (two equal
            // lines swapped) while new_content changes; what it was sent
            // as is then no one line's doing: not a case.
            if !matches!(t, T::Swap(..) | T::Wrap(_)) {
                return None;
            }
            apply(t, &mut Vec::new(), &mut sent, &mut [], &mut Rng::new(0));
            unseen = true;
        }
    }
    // A rename of the file and one of the caller's view that happen to
    // agree leave at most one line apart: a line remembered stale, which
    // edit_code forgives by design, not a deleted block.
    let apart = search
        .iter()
        .filter(|r| r.disk.is_some_and(|i| file[i].trim() != r.text.trim()))
        .count();
    if deleted && apart < 2 {
        return None;
    }
    let text: String = file.iter().map(|l| format!("{l}\n")).collect();
    let search = join(&search);
    let new = join(&new);
    // A transformed search that still occurs as it is asks for that text.
    if search == new || text.contains(&search) {
        return None;
    }
    Some(Case {
        ts,
        text,
        search,
        new,
        intended: (!deleted).then_some(intended),
        as_sent: (unseen && !deleted).then(|| around(&sent)),
    })
}

/// How a case went.
#[derive(Debug, PartialEq, Eq)]
enum Outcome {
    Intended,
    /// new_content written as it was sent, where a transformation changed
    /// it and not the search.
    AsSent,
    Refused,
    Wrong,
}

fn run(c: &Case) -> (Outcome, Option<String>) {
    match corpus::plan_with(&c.text, &EditRequest::new(&c.search, &c.new)) {
        Err(_) => (Outcome::Refused, None),
        Ok(plan) => {
            let got = plan.apply_to(&c.text);
            if got == c.text {
                (Outcome::Refused, None)
            } else if c.intended.as_deref() == Some(got.as_str()) {
                (Outcome::Intended, None)
            } else if c.as_sent.as_deref() == Some(got.as_str()) {
                (Outcome::AsSent, None)
            } else {
                (Outcome::Wrong, Some(got))
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 300,
        max_global_rejects: 1_000_000,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// The intended file or the untouched one (or, where only new_content
    /// shows a transformation, new_content as it was sent), never another.
    #[test]
    fn an_unknown_transformation_gives_the_intended_edit_or_none(seed in any::<u64>()) {
        let c = case(seed);
        prop_assume!(c.is_some());
        let c = c.expect("assumed");
        let (outcome, got) = run(&c);
        prop_assert!(
            outcome != Outcome::Wrong,
            "seed {seed} (TRANSFORM_SEED={seed} in the census shows it), T = {:?}\n--- search\n{}--- new\n{}--- got\n{}",
            c.ts, c.search, c.new, got.unwrap_or_default()
        );
    }
}

/// Counts over many seeds: `TRANSFORMS=100000 cargo test --release --test
/// edit_code_transforms -- --ignored --nocapture census`.
#[test]
#[ignore]
fn census() {
    let wanted: usize = std::env::var("TRANSFORMS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000);
    let (mut cases, mut intended, mut refused, mut wrong) = (0, 0, 0, 0);
    // Wrong edits whose text is the intended one but for blank lines.
    let mut only_blank_lines = 0;
    // Edits that wrote new_content as sent, where a transformation shows
    // in it and not in the search.
    let mut as_sent = 0;
    // Per kind of transformation (the first, and any second, named by its
    // variant): cases, intended, wrong.
    let mut kinds: std::collections::BTreeMap<String, (usize, usize, usize)> = Default::default();
    // `TRANSFORM_SEED=n` shows that one case in full, whatever its outcome.
    let only: Option<u64> = std::env::var("TRANSFORM_SEED")
        .ok()
        .and_then(|v| v.parse().ok());
    let mut seed = only.map_or(0, |s| s - 1);
    let mut shown = 0;
    while cases < wanted {
        seed += 1;
        if only.is_some_and(|s| seed > s) {
            break;
        }
        let Some(c) = case(seed) else { continue };
        cases += 1;
        let kind =
            c.ts.iter()
                .map(|t| {
                    format!("{t:?}")
                        .split('(')
                        .next()
                        .unwrap_or_default()
                        .to_string()
                })
                .collect::<Vec<_>>()
                .join("+");
        let tally = kinds.entry(kind.clone()).or_default();
        tally.0 += 1;
        let outcome = run(&c);
        if only.is_some() && outcome.0 != Outcome::Wrong {
            println!(
                "{:?}, seed {seed}, T = {:?}\n--- search\n{}--- new\n{}--- file\n{}--- end of file",
                outcome.0, c.ts, c.search, c.new, c.text
            );
        }
        match outcome {
            (Outcome::Intended, _) => {
                intended += 1;
                tally.1 += 1;
            }
            (Outcome::AsSent, _) => as_sent += 1,
            (Outcome::Refused, _) => refused += 1,
            (Outcome::Wrong, got) => {
                wrong += 1;
                tally.2 += 1;
                let texts = |s: &str| {
                    s.lines()
                        .filter(|l| !l.trim().is_empty())
                        .map(str::to_string)
                        .collect::<Vec<_>>()
                };
                let expected = c.intended.as_deref().unwrap_or(&c.text);
                if texts(expected) == texts(got.as_deref().unwrap_or_default()) {
                    only_blank_lines += 1;
                }
                println!(
                    "wrong: seed {seed} {kind}{}",
                    if c.as_sent.is_some() { " (unseen)" } else { "" }
                );
                // The first two of each kind.
                if only.is_some() || (tally.2 <= 2 && shown < 24) {
                    shown += 1;
                    let expected = c.intended.as_deref().unwrap_or(&c.text);
                    let got = got.unwrap_or_default();
                    let diff = similar::TextDiff::from_lines(expected, got.as_str())
                        .unified_diff()
                        .context_radius(2)
                        .header("expected", "got")
                        .to_string();
                    println!(
                        "wrong, seed {seed}, T = {:?}\n--- search\n{}--- new\n{}{diff}",
                        c.ts, c.search, c.new,
                    );
                    if only.is_some() {
                        println!("--- file\n{}--- end of file", c.text);
                    }
                }
            }
        }
    }
    println!(
        "{:<36} {:>7} {:>9} {:>6}",
        "transformation", "cases", "intended", "wrong"
    );
    for (kind, (n, right, bad)) in &kinds {
        println!("{kind:<36} {n:>7} {right:>9} {bad:>6}");
    }
    println!(
        "{cases} transformed cases: {intended} intended, {as_sent} written as new_content was sent (a transformation changed new_content and left the search as it was), {refused} refused or unchanged, {wrong} wrong ({only_blank_lines} of them differ from the intended file only in blank lines)"
    );
    assert_eq!(wrong, 0, "{wrong} wrong edits");
}

/// Seeds the property once found wrong, run every time.
const ONCE_WRONG: &[u64] = &[3_802_000_544_026_189_089, 71_494];

#[test]
fn seeds_once_wrong_are_not() {
    // A swap of `(` and `b`: the search reads `emitb(atch.depth)` for
    // `emit(batch.depth)`, new_content rewrites it as `emitb(atch_v2.depth)`,
    // and the plan wrote `emit(atch_v2.depth)`: the slip undone in one word
    // and carried in the other. And a swap of `w` and `"`: the search
    // reads `wcan't sort metricw` for `"can't sort metric"`, and the spaces
    // of the string, marked in the keys, passed for a word of the file's
    // the caller spelt right, so `limit_ne"` was written for `limit_new`.
    for &seed in ONCE_WRONG {
        let c = case(seed).expect("the seed makes a case");
        let (outcome, got) = run(&c);
        assert!(
            outcome != Outcome::Wrong,
            "seed {seed}: {}",
            got.unwrap_or_default()
        );
    }
}
