//! Spaces or tabs at the end of every line of the caller's texts, in a
//! file where no line ends in one, are the caller's: a frame at the end of
//! the lines, as an indentation every line shares is one at their start.
//! They never reach the file, on the lines new_content adds or rewrites as
//! much as on the lines it keeps. Found by the census of unknown
//! transformations (`edit_code_transforms`, seeds 260285 and 383662: a
//! soft hyphen and a space after every line): the soft hyphen was undone,
//! the space was read as noise, and the added line was written with it.

#[path = "edit_outcome/mod.rs"]
mod edit_outcome;

use edit_outcome::{made_at_least, made_or_refused};
use proptest::prelude::*;

#[derive(Debug, Clone)]
struct Framed {
    file: String,
    search: String,
    new: String,
    want: String,
}

prop_compose! {
    /// A function of statements; the caller's view of `len` of them from
    /// `start`, with one rewritten and, with `add`, one added after it;
    /// every line of both texts ends in `suffix` (spaces and tabs, with a
    /// soft hyphen or a zero-width space among them or not).
    fn framed()(
        names in proptest::collection::vec("[a-z]{3,7}", 6..12),
        suffix in "[ \t]{1,3}[\u{ad}\u{200b}]?[ \t]{0,2}",
        start in 0usize..4,
        len in 2usize..6,
        rewrite in 0usize..6,
        add in any::<bool>(),
        crlf in any::<bool>(),
    ) -> Framed {
        let eol = if crlf { "\r\n" } else { "\n" };
        let lines: Vec<String> = names
            .iter()
            .enumerate()
            .map(|(k, n)| format!("    let {n}_{k} = {n}({k});"))
            .collect();
        let end = (start + len).min(lines.len());
        let rewrite = start + rewrite % (end - start);
        let mut meant = lines.clone();
        meant[rewrite] = format!("    let renamed_{rewrite} = 0;");
        if add {
            meant.insert(rewrite + 1, "    added();".to_string());
        }
        let new_end = end + usize::from(add);
        let whole = |ls: &[String]| format!("fn f() {{{eol}{}}}{eol}", ls.iter().map(|l| format!("{l}{eol}")).collect::<String>());
        let text = |ls: &[String]| ls.iter().map(|l| format!("{l}{suffix}{eol}")).collect::<String>();
        Framed {
            file: whole(&lines),
            search: text(&lines[start..end]),
            new: text(&meant[start..new_end]),
            want: whole(&meant),
        }
    }
}

#[test]
fn a_suffix_every_line_shares_never_reaches_the_file() {
    made_at_least(400, 300, framed(), |c| {
        made_or_refused(&c.file, &c.search, &c.new, &c.want)
    });
}

#[test]
fn a_file_with_trailing_spaces_keeps_what_the_caller_writes() {
    // The file has a line that ends in a space: the caller's suffix may be
    // the file's own, and the added line is written as sent.
    let file = "fn f() {\n    a(); \n    b();\n    c();\n}\n";
    let got = edit_outcome::apply(
        file,
        "    b(); \n    c(); \n",
        "    b(); \n    x(); \n    c(); \n",
    );
    assert_eq!(
        got.expect("the edit is made"),
        "fn f() {\n    a(); \n    b();\n    x(); \n    c();\n}\n"
    );
}

#[test]
fn the_reply_names_what_was_undone() {
    use mcp_server_text::text::fuzzy::{EditRequest, plan_edit};
    let file = "fn f() {\n    a();\n    b();\n}\n";
    let plan = plan_edit(
        file,
        &EditRequest::new("    a(); \n    b(); \n", "    a(); \n    c(); \n"),
    )
    .expect("the edit is made");
    assert_eq!(plan.apply_to(file), "fn f() {\n    a();\n    c();\n}\n");
    assert_eq!(plan.normalized, vec!["trailing whitespace"]);
}
