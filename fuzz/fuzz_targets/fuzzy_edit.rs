//! The tolerant matcher behind `edit_code`, and its replay of the caller's
//! change on the block as it is on disk.
//!
//! For any file and any request: planning never panics, and a plan is sound.
//! Its splices lie in order inside the text, on character boundaries, each
//! within the lines its edit reports; the reported `before` is exactly those
//! lines and `after` exactly what they become, so nothing outside the matched
//! lines changes. A request whose `new_content` equals its `search_context`
//! changes nothing, and lines the caller kept at the start of the block keep
//! their bytes on disk.
//!
//! Requests are built the way agents get them wrong: a block copied from the
//! file, then drifted (whitespace, indentation, tabs, typos, a dropped or
//! extra line, `...` elision, curly quotes, other line endings), and a
//! `new_content` made from it.
//!
//! Input: a few bytes of choices, then the file's text.
#![no_main]

use arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;
use mcp_server_text::text::fuzzy::{EditRequest, MatchKind, Strategy, plan_edit};
use mcp_server_text::text::lines::LineIndex;

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let threshold = match choose(&mut u, 8) {
        0 | 1 => 0.9,
        2 => 0.8,
        3 => 1.0,
        4 => 0.0,
        5 => 0.5,
        6 => f64::from(byte(&mut u)) / 255.0,
        _ => [f64::NAN, 1.5, -0.1, 0.95][usize::from(byte(&mut u) % 4)],
    };
    let strategy = if choose(&mut u, 4) == 0 {
        Strategy::ReplaceAll
    } else {
        Strategy::SingleMatch
    };
    let search_kind = choose(&mut u, 8);
    let (start, len) = (byte(&mut u), byte(&mut u));
    let drifts: Vec<(u8, u8, u8)> = (0..choose(&mut u, 4))
        .map(|_| (byte(&mut u), byte(&mut u), byte(&mut u)))
        .collect();
    let new_kind = choose(&mut u, 8);
    let (at, given_len) = (byte(&mut u), byte(&mut u));
    let given =
        String::from_utf8_lossy(u.bytes(usize::from(given_len % 48)).unwrap_or(&[])).into_owned();
    let text = String::from_utf8_lossy(u.take_rest()).into_owned();

    let mut search: Vec<String> = if search_kind == 0 {
        given.split_inclusive('\n').map(str::to_string).collect()
    } else {
        let lines: Vec<&str> = text.split_inclusive('\n').collect();
        let first = usize::from(start) % lines.len().max(1);
        let count = 1 + usize::from(len) % 8;
        lines
            .iter()
            .skip(first)
            .take(count)
            .map(|l| l.to_string())
            .collect()
    };
    for &(kind, i, arg) in &drifts {
        drift(&mut search, kind, usize::from(i), arg);
    }
    let new = replacement(&search, new_kind, usize::from(at), &given);
    let search = search.concat();
    let new = new.concat();

    if std::env::var_os("FUZZ_SHOW").is_some() {
        eprintln!(
            "threshold {threshold} {strategy:?}\nsearch {search:?}\nnew {new:?}\ntext {text:?}"
        );
    }
    let request = EditRequest::new(&search, &new)
        .with_threshold(threshold)
        .with_strategy(strategy);
    let outcome = plan_edit(&text, &request);
    if let Some(path) = std::env::var_os("FUZZ_DIGEST") {
        digest(&path, data, &text, &outcome);
    }
    match outcome {
        Ok(plan) => {
            if std::env::var_os("FUZZ_SHOW").is_some() {
                eprintln!("plan {:#?}", plan.edits);
                eprintln!("result {:?}", plan.apply_to(&text));
            }
            check_plan(&text, &search, &new, strategy, &plan)
        }
        Err(refusal) => {
            let _ = (refusal.to_string(), refusal.suggestions());
            serde_json::to_string(&refusal).expect("a refusal serializes");
        }
    }
});

/// Appends one line to `path`: a hash of the input and a hash of everything
/// the matcher answered (the edits and the file they make, or the refusal).
/// Two builds run over one corpus with `-runs=0` give two such files; equal
/// after sorting means a refactor changed no answer.
fn digest(
    path: &std::ffi::OsStr,
    data: &[u8],
    text: &str,
    outcome: &Result<mcp_server_text::text::fuzzy::Plan, mcp_server_text::text::fuzzy::Refusal>,
) {
    use std::hash::{DefaultHasher, Hash, Hasher};
    use std::io::Write;
    let answer = match outcome {
        Ok(plan) => format!("{:?}\n{}", plan.edits, plan.apply_to(text)),
        Err(refusal) => serde_json::to_string(refusal).expect("a refusal serializes"),
    };
    let hash = |bytes: &[u8]| {
        let mut h = DefaultHasher::new();
        bytes.hash(&mut h);
        h.finish()
    };
    let line = format!("{:016x} {:016x}\n", hash(data), hash(answer.as_bytes()));
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut f| f.write_all(line.as_bytes()))
        .expect("the digest file is writable");
}

fn choose(u: &mut Unstructured<'_>, n: u8) -> u8 {
    u.int_in_range(0..=n - 1).unwrap_or(0)
}

fn byte(u: &mut Unstructured<'_>) -> u8 {
    u.arbitrary().unwrap_or(0)
}

/// One kind of drift an agent's memory of a block has, applied to `lines`.
fn drift(lines: &mut Vec<String>, kind: u8, i: usize, arg: u8) {
    let n = lines.len();
    if n == 0 {
        return;
    }
    let i = i % n;
    match kind % 10 {
        0 => {
            let ending = ending_of(&lines[i]).to_string();
            let body = body_of(&lines[i]).trim_end().to_string();
            lines[i] = body + &ending;
        }
        1 => lines.iter_mut().for_each(|l| l.insert_str(0, "    ")),
        2 => lines
            .iter_mut()
            .for_each(|l| *l = l.replacen('\t', "    ", usize::from(arg % 4) + 1)),
        3 => {
            let body = body_of(&lines[i]);
            let chars: Vec<char> = body.chars().collect();
            if !chars.is_empty() {
                let at = usize::from(arg) % chars.len();
                let typo: String = chars
                    .iter()
                    .enumerate()
                    .map(|(k, &c)| if k == at { 'q' } else { c })
                    .collect();
                lines[i] = typo + ending_of(&lines[i]);
            }
        }
        4 => {
            lines.remove(i);
        }
        5 => lines.insert(i, "\n".to_string()),
        6 if n >= 3 => {
            let indent: String = lines[1]
                .chars()
                .take_while(|c| *c == ' ' || *c == '\t')
                .collect();
            let keep = usize::from(arg) % (n - 2);
            lines.splice(1..n - 1 - keep, [format!("{indent}// ...\n")]);
        }
        7 => lines.iter_mut().for_each(|l| {
            *l = l
                .replace('"', "\u{201c}")
                .replace('\'', "\u{2019}")
                .replace('-', "\u{2013}")
        }),
        8 => lines.iter_mut().for_each(|l| {
            *l = if l.ends_with("\r\n") {
                l.replace("\r\n", "\n")
            } else {
                l.replace('\n', "\r\n")
            }
        }),
        _ => lines
            .iter_mut()
            .for_each(|l| *l = l.trim_start_matches([' ', '\t']).to_string()),
    }
}

/// The `new_content` for a search: the same, or the search with one change.
fn replacement(search: &[String], kind: u8, at: usize, given: &str) -> Vec<String> {
    let mut new = search.to_vec();
    let at = at % (new.len() + 1);
    let mut line = given.replace('\n', " ");
    line.push('\n');
    match kind {
        0 | 1 => {}
        2 => return given.split_inclusive('\n').map(str::to_string).collect(),
        3 if at < new.len() => {
            let indent: String = new[at]
                .chars()
                .take_while(|c| *c == ' ' || *c == '\t')
                .collect();
            new[at] = format!("{indent}{line}");
        }
        4 => new.insert(at, line),
        5 if at < new.len() => {
            new.remove(at);
        }
        6 => new.clear(),
        _ => new.push(line),
    }
    new
}

fn ending_of(line: &str) -> &str {
    if line.ends_with("\r\n") {
        "\r\n"
    } else if line.ends_with('\n') {
        "\n"
    } else {
        ""
    }
}

fn body_of(line: &str) -> &str {
    &line[..line.len() - ending_of(line).len()]
}

fn check_plan(
    text: &str,
    search: &str,
    new: &str,
    strategy: Strategy,
    plan: &mcp_server_text::text::fuzzy::Plan,
) {
    assert!(!plan.edits.is_empty(), "a plan edits something");
    if strategy == Strategy::SingleMatch {
        assert_eq!(plan.edits.len(), 1, "single_match makes one edit");
    }
    let index = LineIndex::new(text);
    let mut at = 0;
    for (k, edit) in plan.edits.iter().enumerate() {
        let range = &edit.splice.range;
        assert!(at <= range.start && range.start <= range.end && range.end <= text.len());
        assert!(text.is_char_boundary(range.start) && text.is_char_boundary(range.end));
        at = range.end;

        let lines = edit.lines;
        assert!(1 <= lines.start && lines.start <= lines.end && lines.end <= index.len().max(1));
        let span = if index.is_empty() {
            0..0
        } else {
            index.span_of_lines(lines.start, lines.end)
        };
        assert_eq!(
            edit.before,
            text[span.clone()],
            "before is the matched lines"
        );
        if range.start < span.start {
            // Removing the last lines of a text without a final newline
            // takes the ending of the line before them too; with
            // replace_all the last lines may be emptied by several edits in
            // a row, and then each takes the ending before it.
            let mut next = lines.end + 1;
            let rest_empties_the_end = plan.edits[k + 1..].iter().all(|e| {
                let contiguous = e.lines.start == next && e.splice.text.is_empty();
                next = e.lines.end + 1;
                contiguous
            }) && next == index.len() + 1;
            assert!(
                (lines.end == index.len() || rest_empties_the_end) && !text.ends_with('\n'),
                "{range:?} {lines:?}"
            );
            // The edit empties its lines from their start: a whole-line
            // edit all of them, a substring edit (the first of a run that
            // empties the last line) what it matched.
            assert!(edit.splice.text.is_empty());
            assert!(matches!(&text[range.start..span.start], "\n" | "\r\n"));
            assert!(range.end <= span.end);
            assert_eq!(edit.after, text[range.end..span.end]);
            continue;
        }
        assert!(
            span.start <= range.start && range.end <= span.end,
            "the splice {range:?} lies within lines {lines:?} ({span:?})"
        );
        let after = format!(
            "{}{}{}",
            &text[span.start..range.start],
            edit.splice.text,
            &text[range.end..span.end]
        );
        assert_eq!(edit.after, after, "after is what the matched lines become");
        assert!((0.0..=100.0).contains(&edit.score), "score {}", edit.score);
        if edit.kind == MatchKind::Exact {
            assert!(edit.adjustments.is_empty());
        }
    }
    let result = plan.apply_to(text);
    if search == new {
        assert_eq!(
            result, text,
            "a request that changes nothing changes nothing"
        );
    }
    // Lines the caller kept at the start of an exact block keep their bytes.
    let kept = search
        .split_inclusive('\n')
        .zip(new.split_inclusive('\n'))
        .take_while(|(s, n)| s == n && s.ends_with('\n'))
        .count();
    for edit in &plan.edits {
        if edit.kind == MatchKind::Exact && kept > 0 && edit.before.starts_with(search) {
            let disk: String = edit.before.split_inclusive('\n').take(kept).collect();
            // They may lose the last ending when they end the text and it has
            // no final newline.
            let unended = disk
                .strip_suffix('\n')
                .map(|d| d.strip_suffix('\r').unwrap_or(d));
            assert!(
                edit.after.starts_with(&disk) || unended == Some(edit.after.as_str()),
                "kept lines keep their bytes"
            );
        }
    }
}
