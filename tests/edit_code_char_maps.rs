//! A caller's channel that swaps two characters in both texts shows on the
//! kept lines as a slip, and on the lines new_content writes as the same
//! swap. Where a kept line reads a run of one character as a run of another
//! (`countxxx` for `count...`), that substitution is one slip repeated, and
//! no line the plan writes may carry either character unless a line copied
//! exactly vouches for it. Found by the census of unknown transformations
//! (`edit_code_transforms`, seeds 503785, 631855, 688907, 704390, 818825,
//! 819936, 892855, 1072238 and 1194859): a three-character run was read as
//! one long difference, which tainted only the run itself, and the rewritten
//! line was written with the swapped character (`cpu_ne.t` for `cpu_next`).

#[path = "edit_outcome/mod.rs"]
mod edit_outcome;

use edit_outcome::{made_or_refused, run};
use proptest::prelude::*;

/// Characters the fixed lines of the file never hold, so that no line
/// copied exactly vouches for them.
const SWAPPABLE: [char; 8] = ['.', 'x', '_', '(', 'v', '!', '?', '%'];

#[derive(Debug, Clone)]
struct Swapped {
    file: String,
    search: String,
    new: String,
    want: String,
}

prop_compose! {
    /// Blocks of settings; the caller's view of one, whose comment ends in
    /// a run of `a`, with its `limits` line renamed to a word holding `a`
    /// and a line added; both texts then go through a swap of `a` and `b`.
    fn swapped()(
        names in proptest::collection::vec("[b-u]{4,8}", 3..6),
        at in 0usize..3,
        (a, b) in (0usize..8, 1usize..8).prop_map(|(a, d)| (SWAPPABLE[a], SWAPPABLE[(a + d) % 8])),
        run_len in 3usize..5,
        cut in 1usize..4,
        add in any::<bool>(),
    ) -> Swapped {
        let at = at % names.len();
        let block = |k: usize, n: &str, comment: String| -> Vec<String> {
            vec![
                format!("{n}-{k}:"),
                format!("  name: {n}"),
                "  enabled: true".to_string(),
                comment,
                "  limits:".to_string(),
                format!("    cpu: \"{}m\"", 100 + 37 * k),
                "  ports:".to_string(),
                format!("    - {}", 2000 + 91 * k),
                String::new(),
            ]
        };
        let run: String = std::iter::repeat_n(a, run_len).collect();
        let mut lines: Vec<String> = Vec::new();
        let mut meant: Vec<String> = Vec::new();
        let (mut from, mut to) = (0, 0);
        for (k, n) in names.iter().enumerate() {
            let comment = if k == at {
                format!("  # fast path - nothing to {n}{run}")
            } else {
                format!("  # keep in sync with {n}")
            };
            let ls = block(k, n, comment);
            if k == at {
                from = lines.len() + 1;
                to = from + 6;
                let mut mine = ls.clone();
                let word: String = n.chars().take(cut).chain([a]).chain(n.chars().skip(cut)).collect();
                mine[4] = format!("  limits_{word}:");
                if add {
                    mine.insert(5, format!("    extra{a}line: 1"));
                }
                meant.extend(mine);
            } else {
                meant.extend(ls.iter().cloned());
            }
            lines.extend(ls);
        }
        let text = |ls: &[String]| ls.iter().map(|l| format!("{l}\n")).collect::<String>();
        let added = usize::from(add);
        Swapped {
            file: text(&lines),
            search: edit_outcome::swapped(&text(&lines[from..to]), a, b),
            new: edit_outcome::swapped(&text(&meant[from..to + added]), a, b),
            want: text(&meant),
        }
    }
}

#[test]
fn a_swap_the_kept_lines_show_as_a_run_never_reaches_the_file() {
    let made = run(400, swapped(), |c| {
        made_or_refused(&c.file, &c.search, &c.new, &c.want)
    });
    println!("made {made} of 400");
}

#[test]
fn a_run_read_as_another_taints_its_characters() {
    // Census seed 503785: `...` read as `xxx` on a kept comment, `cpu_next`
    // sent as `cpu_ne.t`.
    let file = "cursor-shift:\n  name: channel\n  enabled: true\n  # fast path - nothing to count...\n  limits:\n    cpu: \"606m\"\n    memory: \"343Mi\"\n  ports:\n    - 5235\n";
    let search = "  enabled: true\n  # fast path - nothing to countxxx\n  limits:\n    cpu: \"606m\"\n    memory: \"343Mi\"\n";
    let new = "  enabled: true\n  # fast path - nothing to countxxx\n  limits:\n    cpu_ne.t: \"606m\"\n    memory: \"343Mi\"\n";
    let refusal = edit_outcome::apply(file, search, new).expect_err("refused");
    let message = format!("{refusal:?}");
    assert!(message.contains("Unverified"), "{message}");
    assert!(message.contains("has `.` too"), "{message}");
}

#[test]
fn a_transposed_pair_taints_both_characters() {
    // Census seed 1116507: a swap of `a` and `r` shows on a kept line as
    // `lrage` for `large`, which a slip of the hand makes too; the added
    // line holds the swapped `r` and is not written.
    let file = "fn f(config: &Config, limit: u32) -> Result<u32> {\n    if limit > 9 {\n        shift_token(config, limit);\n        log::info!(\"index: session's id is too large\");\n    }\n    Ok(limit)\n}\n";
    let search = "        shift_token(config, limit);\n        log::info!(\"index: session's id is too lrage\");\n    }\n    Ok(limit)\n";
    let new = "        shift_token(config, limit);\n        log::info!(\"index: session's id is too lrage\");\n    }\n    Ok(limit_new)\n    rdded_line_55();\n";
    assert!(edit_outcome::apply(file, search, new).is_err());
}
