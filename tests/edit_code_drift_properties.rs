//! The matcher's promise over random drift: for a random block, a random
//! edit of it, and a search that drifted from the file (blank lines missing
//! or added, indentation shifted, prefixed, dedented or tabs read as spaces, a line
//! remembered stale, a line forgotten; new_content sharing that drift or
//! written as the file has it), the result is the intended file or a
//! refusal, never anything else.

use mcp_server_text::text::fuzzy::{EditRequest, plan_edit};
use proptest::prelude::*;

/// A file line: its nesting depth, or `None` for a blank line.
type Shape = Vec<Option<u8>>;

fn shape() -> impl Strategy<Value = Shape> {
    prop::collection::vec(
        prop_oneof![1 => Just(None), 4 => (0u8..4).prop_map(Some)],
        6..40,
    )
}

/// How the caller's view indents the block.
#[derive(Debug, Clone, Copy)]
enum Frame {
    Same,
    Shift(usize),
    /// Spaces put before every line's own indentation, tabs and all (a view
    /// that prefixes lines).
    Prefix(usize),
    Dedent,
    TabsAsSpaces,
}

fn frame() -> impl Strategy<Value = Frame> {
    prop_oneof![
        Just(Frame::Same),
        (1usize..6).prop_map(Frame::Shift),
        (1usize..4).prop_map(Frame::Prefix),
        Just(Frame::Dedent),
        Just(Frame::TabsAsSpaces),
    ]
}

/// The caller's change: 0 rewrites a line, 1 adds one after it, 2 removes
/// it, 3 adds one after it a level deeper than any line around.
#[derive(Debug, Clone, Copy)]
struct Change {
    kind: u8,
    at: usize,
}

/// Blank-line drift: the view misses a blank line of the block, or has one
/// more after a line; `in_new` says whether new_content drifts the same way.
#[derive(Debug, Clone, Copy)]
struct Blank {
    missing: bool,
    at: usize,
    in_new: bool,
}

/// A line the caller remembers differently; `new_agrees` says whether
/// new_content has it as the file has it (else as remembered).
#[derive(Debug, Clone, Copy)]
struct Stale {
    at: usize,
    new_agrees: bool,
}

fn text_of(depth: u8, k: usize, tabs: bool) -> String {
    let pad = if tabs {
        "\t".repeat(depth as usize)
    } else {
        "    ".repeat(depth as usize)
    };
    format!("{pad}step_{k}(value_{k}, {});", k * 7 % 31)
}

/// A line of a view.
struct View {
    text: String,
}

fn render(lines: &[View], frame: Frame, dedent: usize, tabs: bool) -> String {
    let mut out: Vec<String> = lines
        .iter()
        .map(|l| {
            if l.text.is_empty() {
                return String::new();
            }
            let body = l.text.trim_start_matches([' ', '\t']);
            let pad = &l.text[..l.text.len() - body.len()];
            let cols = if tabs { pad.len() * 4 } else { pad.len() };
            let pad = match frame {
                Frame::Same => pad.to_string(),
                // A view that shifts tab-indented text shows the tabs as spaces.
                Frame::Shift(n) if tabs => " ".repeat(cols + n),
                Frame::Shift(n) | Frame::Prefix(n) => format!("{}{pad}", " ".repeat(n)),
                Frame::Dedent if tabs => pad.chars().skip(dedent / 4).collect(),
                Frame::Dedent => pad.chars().skip(dedent).collect(),
                Frame::TabsAsSpaces => " ".repeat(cols),
            };
            format!("{pad}{body}")
        })
        .collect();
    if out.last().is_some_and(String::is_empty) {
        out.push(String::new());
    }
    out.join("\n")
}

/// 500 cases, or `PROPTEST_CASES=N` for a soak; about one drawn case in three
/// is rejected (no room for the drift), so the reject budget grows with N.
fn soak_config() -> ProptestConfig {
    let cases: u32 = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(500);
    ProptestConfig {
        cases,
        max_global_rejects: cases.max(100_000),
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(soak_config())]

    #[test]
    fn a_drifted_edit_is_made_as_meant_or_refused(
        shape in shape(),
        tabs in any::<bool>(),
        start in 0usize..40,
        len in 3usize..9,
        change in (0u8..4, 0usize..9).prop_map(|(kind, at)| Change { kind, at }),
        frame in frame(),
        blank in proptest::option::of((any::<bool>(), 0usize..9, any::<bool>())
            .prop_map(|(missing, at, in_new)| Blank { missing, at, in_new })),
        stale in proptest::option::of((0usize..9, any::<bool>())
            .prop_map(|(at, new_agrees)| Stale { at, new_agrees })),
        forgotten in proptest::option::of((0usize..9, any::<bool>())),
        new_as_file in any::<bool>(),
    ) {
        let lines: Vec<String> = shape
            .iter()
            .enumerate()
            .map(|(k, d)| d.map_or(String::new(), |d| text_of(d, k, tabs)))
            .collect();
        let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
        // The block starts and ends on lines with text.
        let n = lines.len();
        let a = (start % n..n).find(|&i| !lines[i].is_empty()).unwrap_or(n);
        let b = (a..(a + len).min(n)).rev().find(|&i| !lines[i].is_empty()).unwrap_or(a);
        prop_assume!(a < n);
        let content: Vec<usize> = (a..=b).filter(|&i| !lines[i].is_empty()).collect();
        prop_assume!(content.len() >= 2);

        // Lines the drift touches, kept away from the change.
        let mut touched: Vec<usize> = Vec::new();
        let blank = blank.and_then(|bl| {
            let spots: Vec<usize> = if bl.missing {
                (a + 1..b).filter(|&i| lines[i].is_empty()).collect()
            } else {
                (a..b).collect()
            };
            let at = *spots.get(bl.at % spots.len().max(1))?;
            touched.push(at);
            Some(Blank { at, ..bl })
        });
        let stale = stale.map(|st| {
            let at = content[st.at % content.len()];
            touched.push(at);
            (at, st.new_agrees, format!("{}older_{at}();", &lines[at][..lines[at].len() - lines[at].trim_start().len()]))
        });
        // A line of text the search forgot; new_content forgets it too, or not.
        let forgotten = forgotten.and_then(|(at, in_new)| {
            let inner: Vec<usize> = content.iter().copied().filter(|&i| i > a && i < b && !touched.contains(&i)).collect();
            let at = *inner.get(at % inner.len().max(1))?;
            touched.push(at);
            Some((at, in_new))
        });
        let free: Vec<usize> = content
            .iter()
            .copied()
            .filter(|i| touched.iter().all(|t| t.abs_diff(*i) > 1))
            .collect();
        prop_assume!(!free.is_empty());
        let k = free[change.at % free.len()];

        // The intended block, in the file's own terms.
        let pad = &lines[k][..lines[k].len() - lines[k].trim_start().len()];
        let mut block: Vec<(Option<usize>, String)> = (a..=b).map(|i| (Some(i), lines[i].clone())).collect();
        let pos = k - a;
        match change.kind {
            0 => block[pos] = (None, format!("{pad}rewritten_{k}();")),
            1 => block.insert(pos + 1, (None, format!("{pad}added_after_{k}();"))),
            2 => { block.remove(pos); }
            _ => {
                // Which style the file indents in shows only on an indented
                // line of the block.
                prop_assume!((a..=b).any(|i| lines[i].starts_with([' ', '\t'])));
                let deeper = "\t".repeat(5);
                let deeper = if tabs { deeper } else { deeper.replace('\t', "    ") };
                block.insert(pos + 1, (None, format!("{deeper}deeper_{k}();")));
            }
        }
        let mut want = String::new();
        for line in lines[..a].iter() {
            want.push_str(line);
            want.push('\n');
        }
        for (_, line) in &block {
            want.push_str(line);
            want.push('\n');
        }
        for line in lines[b + 1..].iter() {
            want.push_str(line);
            want.push('\n');
        }

        // The caller's views.
        let view = |rows: &[(Option<usize>, String)], new: bool| -> Vec<View> {
            let mut out = Vec::new();
            for (of, row) in rows {
                if let (Some(bl), Some(i)) = (blank, of)
                    && bl.missing
                    && bl.at == *i
                    && (!new || bl.in_new)
                {
                    continue;
                }
                if let (Some((at, in_new)), Some(i)) = (forgotten, of)
                    && at == *i
                    && (!new || in_new)
                {
                    continue;
                }
                let mut row = row.clone();
                if let (Some((at, agrees, old)), Some(i)) = (&stale, of)
                    && at == i
                    && (!new || !agrees)
                {
                    row = old.clone();
                }
                out.push(View { text: row });
                if let (Some(bl), Some(i)) = (blank, of)
                    && !bl.missing
                    && bl.at == *i
                    && (!new || bl.in_new)
                {
                    out.push(View { text: String::new() });
                }
            }
            out
        };
        let search_rows: Vec<(Option<usize>, String)> = (a..=b).map(|i| (Some(i), lines[i].clone())).collect();
        let search_view = view(&search_rows, false);
        let new_view = view(&block, true);
        // A view dedents all it shows by one amount.
        let dedent = search_view
            .iter()
            .chain(&new_view)
            .filter(|l| !l.text.is_empty())
            .map(|l| {
                let pad = l.text.len() - l.text.trim_start().len();
                if tabs { pad * 4 } else { pad }
            })
            .min()
            .unwrap_or(0);
        let search = render(&search_view, frame, dedent, tabs);
        // new_content may also be written at the file's own indentation.
        let new_frame = if new_as_file { Frame::Same } else { frame };
        let new = render(&new_view, new_frame, dedent, tabs);

        // A refusal is always allowed; a written result must be the intended one.
        if let Ok(plan) = plan_edit(&text, &EditRequest::new(&search, &new)) {
            prop_assert_eq!(
                plan.apply_to(&text),
                want,
                "file:\n{:?}\nsearch:\n{:?}\nnew:\n{:?}",
                text,
                search,
                new
            );
        }
    }
}
