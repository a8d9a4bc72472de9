//! A search the file holds twice in a way: once with spaces between tokens
//! changed within some of its lines (`# endif` for `#endif`, `a+b` for
//! `a + b`), and once byte for byte but for a comment at the end of lines
//! the caller keeps, which its copy left out (`#endif // C++17`). Spaces
//! between tokens cost nothing and a comment costs its length, yet the
//! second copy reads every byte of the caller's code as sent: which block
//! the caller read is not clear, and nothing is changed. Found by the
//! held-out unseen seed 30 (comment-stripped) in libstdc++'s
//! `cpp_type_traits.h`, where `# endif` closes one `__is_integer`
//! specialisation and `#endif // C++17` another: the search's `#endif` was
//! read as the first, and the wrong `#ifdef` line was rewritten.

#[path = "edit_outcome/mod.rs"]
mod edit_outcome;

use edit_outcome::{made_at_least, made_or_refused, run};
use proptest::prelude::*;

/// A line of the block as the caller sends it, and as the look-alike has it
/// with its spaces changed.
fn line(kind: usize, a: &str, b: &str) -> (String, String) {
    match kind % 5 {
        0 => (format!("    {a} = {b} + 1;"), format!("    {a} = {b}+1;")),
        1 => (
            format!("    if ({a} > {b}) {{"),
            format!("    if ({a}>{b}) {{"),
        ),
        2 => (format!("        {a}({b});"), format!("        {a}( {b} );")),
        3 => ("    }".to_string(), "    } ".to_string()),
        _ => ("#endif".to_string(), "# endif".to_string()),
    }
}

/// One case: the kept lines, the comments the caller's block has on them
/// (`Some` on the lines that have one), and which copy the caller read.
#[derive(Debug, Clone)]
struct Copies {
    file: String,
    search: String,
    new: String,
    /// The file as intended when the caller read the commented block, and
    /// when it read the look-alike (`None` when there is none).
    want_commented: String,
    want_spaced: Option<String>,
}

prop_compose! {
    /// Kept lines of random kinds, then the line the caller rewrites; the
    /// caller's block has a comment (`//` or `#`) on `comments` of its kept
    /// lines; with `spaced`, a look-alike block with the same lines, no
    /// comments, and the spaces changed within each line that can change,
    /// stands before or after it among other functions.
    fn copies(spaced: bool, comments: std::ops::RangeInclusive<usize>)(
        kinds in proptest::collection::vec(0usize..5, 2..5),
        a in "[a-z]{3,8}",
        b in "[a-z]{3,8}",
        want in proptest::collection::vec(any::<bool>(), 4),
        comments in comments,
        slash in any::<bool>(),
        spaced_first in any::<bool>(),
        words in "[a-z]{3,7}( [a-z]{2,7}){0,3}( C\\+\\+[0-9]{2}| since [0-9]\\.[0-9]{1,2})?",
    ) -> Copies {
        let leader = if slash { "//" } else { "#" };
        // The first line has spaces to change, or the look-alike would be
        // the search itself, byte for byte.
        let first = [0, 1, 2, 4][kinds[0] % 4];
        let pairs: Vec<(String, String)> = std::iter::once(first)
            .chain(kinds[1..].iter().copied())
            .map(|k| line(k, &a, &b))
            .collect();
        // The lines with a comment: the first `comments` of those the
        // random picks name, at least the first kept line.
        let mut commented: Vec<bool> = (0..pairs.len())
            .map(|k| want.get(k).copied().unwrap_or(false))
            .collect();
        commented[0] = true;
        let mut left = comments;
        for c in commented.iter_mut() {
            if *c && left > 0 {
                left -= 1;
            } else {
                *c = false;
            }
        }
        let rewritten = format!("    return {a}_{b};");
        let rewrite = format!("    return {a}_{b}_next;");
        let block = |lines: &mut Vec<String>, changed: bool, look_alike: bool| {
            for (k, (sent, other)) in pairs.iter().enumerate() {
                lines.push(if look_alike {
                    other.clone()
                } else if commented[k] {
                    format!("{sent}  {leader} {words}")
                } else {
                    sent.clone()
                });
            }
            lines.push(if changed { rewrite.clone() } else { rewritten.clone() });
        };
        let whole = |changed_commented: bool, changed_spaced: bool| {
            let mut lines = vec!["fn first() {".to_string()];
            let mut blocks = vec![(true, changed_commented)];
            if spaced {
                blocks.push((false, changed_spaced));
                if spaced_first {
                    blocks.reverse();
                }
            }
            for (k, (commented, changed)) in blocks.into_iter().enumerate() {
                if k > 0 {
                    lines.push("}".to_string());
                    lines.push(String::new());
                    lines.push("fn second() {".to_string());
                }
                block(&mut lines, changed, !commented);
            }
            lines.push("}".to_string());
            lines.join("\n") + "\n"
        };
        let sent: Vec<String> = pairs.iter().map(|(s, _)| s.clone()).collect();
        Copies {
            file: whole(false, false),
            search: sent.iter().chain([&rewritten]).map(|l| format!("{l}\n")).collect(),
            new: sent.iter().chain([&rewrite]).map(|l| format!("{l}\n")).collect(),
            want_commented: whole(true, false),
            want_spaced: spaced.then(|| whole(false, true)),
        }
    }
}

/// Made as meant for one of the two readings, or refused.
fn either(c: &Copies, commented: bool) -> Result<bool, TestCaseError> {
    let want = if commented {
        &c.want_commented
    } else {
        c.want_spaced.as_ref().expect("a look-alike")
    };
    made_or_refused(&c.file, &c.search, &c.new, want)
}

#[test]
fn a_copy_without_its_comments_is_as_near_as_one_with_spaces_changed() {
    // The same texts are one case or the other: the only edit right for
    // both is none.
    // An edit made for one reading fails the other.
    run(300, copies(true, 1..=3), |c| {
        Ok(either(&c, true)? | either(&c, false)?)
    });
}

/// The control: without the look-alike, the block with one comment on a
/// kept line is the caller's, and the edit is made there.
#[test]
fn a_block_whose_kept_line_has_a_comment_is_edited() {
    made_at_least(300, 220, copies(false, 1..=1), |c| either(&c, true));
}

/// Comments on two or three kept lines: made as meant or refused (more
/// than one kept line differing from the file is refused today), never
/// another edit.
#[test]
fn a_block_whose_kept_lines_have_comments_is_never_edited_otherwise() {
    run(300, copies(false, 2..=3), |c| either(&c, true));
}

/// A caller that rewrites a line the file has with a comment, its copy of
/// the line without it: the file's comment is never dropped silently. The
/// edit is refused, or made with the comment still in the file.
#[test]
fn a_rewritten_line_keeps_its_comment_or_the_edit_is_refused() {
    let strategy = ("[a-z]{3,8}", "[a-z]{3,8}", "[a-z]{4,9}( [a-z]{2,7}){0,2}");
    run(300, strategy, |(a, b, words)| {
        let comment = format!("// {words}");
        let file = format!(
            "fn first() {{\n    let {a} = {b}(1);\n    {a}.run({b});  {comment}\n    return {a};\n}}\n"
        );
        let search = format!("    let {a} = {b}(1);\n    {a}.run({b});\n    return {a};\n");
        let new = format!("    let {a} = {b}(1);\n    {a}.run_next({b});\n    return {a};\n");
        match edit_outcome::apply(&file, &search, &new) {
            Ok(got) => {
                prop_assert!(got.contains(&comment), "the comment was dropped:\n{got}");
                prop_assert!(got.contains(&format!("{a}.run_next({b});")), "{got}");
                Ok(true)
            }
            Err(_) => Ok(false),
        }
    });
}
