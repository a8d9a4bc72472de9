//! A comment that opens with `...` (`# ...make a module that just contains
//! that`) reads as an elision marker when the file does not have it as it
//! is. Where new_content sends it back rewritten, it is the caller's text,
//! not a marker: read as a marker, the line and the caller's change of it
//! were left out of the edit. Found by the generator of unseen drift
//! (`edit_code_unseen`, on a file set with three more crates than the one
//! its figures use: seed 29, `test_pkg_import.py`, the file having changed
//! the comment since; seed 28, `ioctl.h`, a look-alike left where the block
//! was deleted): the plan added the caller's new line and dropped its
//! rewrite of the comment.

#[path = "edit_outcome/mod.rs"]
mod edit_outcome;

use edit_outcome::{apply, made_or_refused, run};
use proptest::prelude::*;

#[derive(Debug, Clone)]
struct Rewritten {
    file: String,
    search: String,
    new: String,
    want: String,
    /// Whether the file changed the comment since the caller read it.
    drifted: bool,
}

prop_compose! {
    /// A function whose body opens with a `# ...words` comment; the caller
    /// shows the comment and the next line, rewrites one word of the
    /// comment and adds a line. With `drifted`, the file has another word
    /// of the comment changed since.
    fn rewritten()(
        words in proptest::collection::vec("[a-z]{3,8}", 4..8),
        mine in 0usize..8,
        theirs in 0usize..8,
        drifted in any::<bool>(),
        hash in any::<bool>(),
    ) -> Rewritten {
        let lead = if hash { "#" } else { "//" };
        let n = words.len();
        let (mine, theirs) = (mine % n, (mine + 1 + theirs % (n - 1)) % n);
        let comment = |w: &[String]| format!("    {lead} ...{}", w.join(" "));
        let mut file_words = words.clone();
        if drifted {
            file_words[theirs].push_str("_disk");
        }
        let mut new_words = words.clone();
        new_words[mine].push_str("_next");
        let body = |c: String, extra: bool| {
            let mut ls = vec!["fn f() {".to_string(), "    a();".into(), c];
            if extra {
                ls.push(format!("    {lead} checked again below"));
            }
            ls.extend(["    rewrite(var);".to_string(), "    b();".into(), "}".into()]);
            ls.iter().map(|l| format!("{l}\n")).collect::<String>()
        };
        let mut meant_words = file_words.clone();
        meant_words[mine].push_str("_next");
        Rewritten {
            file: body(comment(&file_words), false),
            search: format!("{}\n    rewrite(var);\n", comment(&words)),
            new: format!("{}\n    {lead} checked again below\n    rewrite(var);\n", comment(&new_words)),
            want: body(comment(&meant_words), true),
            drifted,
        }
    }
}

#[test]
fn a_rewritten_comment_is_never_dropped() {
    let made = run(400, rewritten(), |c| {
        if c.drifted {
            // Both sides changed the line: only a refusal keeps both.
            prop_assert!(
                apply(&c.file, &c.search, &c.new).is_err(),
                "a conflict was written\n{c:?}"
            );
            Ok(false)
        } else {
            made_or_refused(&c.file, &c.search, &c.new, &c.want)
        }
    });
    // Where the file has the comment as it is, new_content's rewrite of it
    // still reads as a marker of new_content's own, which is refused today
    // (a marker in new_content that the search does not have).
    println!("made {made} of 400");
}
