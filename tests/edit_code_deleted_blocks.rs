//! A block deleted on disk while a look-alike sibling stays: the search
//! describes the deleted block, and the sibling reads the same but for a
//! name on one line. A line remembered stale is the file's line changed
//! since the caller read it, so what the caller remembers there is gone from
//! the file; when the file still has it (the other class's name, the line
//! itself just beside), the lines are another block's and the edit is
//! refused. Found on real files by `cargo bench --bench edit_code_unseen`
//! (argparse.py, uuid's borsh tests, libstdc++'s enable_special_members.h,
//! an OpenSSL header, tokio's time driver).
//!
//! A sibling can also read the same but for the search's edge line: the
//! caller's block is the last before a closing `}`, and the sibling goes on
//! with another block. A line the search has at its edge and a place lacks
//! is not shown removed by anything there, so a place that has it stays a
//! rival (see `decide::single`).

#[path = "edit_outcome/mod.rs"]
mod edit_outcome;

use edit_outcome::{apply, candidate_lines};
use mcp_server_text::text::fuzzy::{EditRequest, Refusal, Strategy, Unfound, plan_edit};
use proptest::prelude::*;

/// Action classes whose constructors differ in the class name alone.
fn actions(names: &[&str]) -> String {
    let mut out = String::from("import sys\n\n");
    for name in names {
        out.push_str(&format!(
            "class {name}(Action):\n    def __init__(self, option_strings, dest, nargs=None):\n        super({name}, self).__init__(\n            option_strings=option_strings,\n            dest=dest,\n            nargs=nargs)\n\n"
        ));
    }
    out.push_str("def register(reg):\n");
    for name in names {
        out.push_str(&format!("    reg.add({name})\n"));
    }
    out
}

fn still_in_file(refusal: &Refusal) -> Option<String> {
    match refusal {
        Refusal::NotFound {
            reason: Some(r), ..
        } => match &**r {
            Unfound::KeptLinesDiffer { still_in_file, .. } => still_in_file.clone(),
            _ => None,
        },
        _ => None,
    }
}

const SEARCH: &str = "        super(_AppendAction, self).__init__(\n            option_strings=option_strings,\n            dest=dest,\n            nargs=nargs)\n";
const NEW: &str = "        super(_AppendAction, self).__init__(\n            option_strings=option_strings,\n            dest=dest_next,\n            nargs=nargs)\n";

#[test]
fn a_sibling_that_names_another_class_of_the_file_is_not_edited() {
    // `_AppendAction`'s constructor is gone; the class name is still used
    // in `register`, and `_StoreAction`'s constructor reads the same but
    // for its name.
    let file = actions(&["_StoreAction", "_AppendAction"]).replacen(
        "        super(_AppendAction, self).__init__(\n            option_strings=option_strings,\n            dest=dest,\n            nargs=nargs)\n",
        "        pass\n",
        1,
    );
    let refusal = apply(&file, SEARCH, NEW).unwrap_err();
    assert_eq!(still_in_file(&refusal).as_deref(), Some("_AppendAction"));
    let message = refusal.to_string();
    assert!(
        message.contains("`_AppendAction` is still in it"),
        "{message}"
    );
}

#[test]
fn a_line_renamed_since_it_was_read_is_still_tolerated() {
    // The file renamed `_AppendAction` to `_AppendListAction` everywhere:
    // the caller's name is gone, so its line is a stale memory of this one.
    let file = actions(&["_AppendListAction"]);
    let got = apply(&file, SEARCH, NEW).unwrap();
    let want = file.replacen(
        "super(_AppendListAction, self).__init__(\n            option_strings=option_strings,\n            dest=dest,",
        "super(_AppendListAction, self).__init__(\n            option_strings=option_strings,\n            dest=dest_next,",
        1,
    );
    assert_eq!(got, want);
}

#[test]
fn a_prefix_is_another_word_not_a_typo() {
    // `test_serialize` is gone; `test_deserialize` has the same next lines.
    let file = "#[test]\nfn test_serialize_twice() {\n    let s = \"f9168c5e\";\n    check(s);\n}\n\n#[test]\nfn test_deserialize() {\n    let uuid_str = \"f9168c5e-ceb2-4faa\";\n    let uuid = Uuid::parse_str(uuid_str).unwrap();\n    assert!(uuid.is_nil());\n}\n";
    let search = "fn test_serialize() {\n    let uuid_str = \"f9168c5e-ceb2-4faa\";\n    let uuid = Uuid::parse_str(uuid_str).unwrap();\n";
    let new = "fn test_serialize_next() {\n    let uuid_str = \"f9168c5e-ceb2-4faa\";\n    let uuid = Uuid_next::parse_str(uuid_str).unwrap();\n";
    assert!(apply(file, search, new).is_err());
}

#[test]
fn a_line_the_search_shows_twice_is_not_read_as_the_next_line_stale() {
    // The search repeats `new_null` where the file has it once and then
    // `new_reserve`: where the caller's added line goes depends on which.
    let head = "#define sk_MSG_num(sk) OPENSSL_sk_num(ossl_check_const_MSG_sk_type(sk))\n#define sk_MSG_value(sk, idx) ((MSG *)OPENSSL_sk_value(ossl_check_const_MSG_sk_type(sk), (idx)))\n#define sk_MSG_new(cmp) ((STACK_OF(MSG) *)OPENSSL_sk_new(ossl_check_MSG_compfunc_type(cmp)))\n";
    let null = "#define sk_MSG_new_null() ((STACK_OF(MSG) *)OPENSSL_sk_new_null())\n";
    let file = format!(
        "{head}{null}#define sk_MSG_new_reserve(cmp, n) ((STACK_OF(MSG) *)OPENSSL_sk_new_reserve(ossl_check_MSG_compfunc_type(cmp), (n)))\n#define sk_MSG_free(sk) OPENSSL_sk_free(ossl_check_MSG_sk_type(sk))\n"
    );
    let search = format!("{head}{null}{null}");
    let new = format!(
        "{}{null}{null}// checked again below\n",
        head.replace("type(cmp)))", "type(cmp_next)))")
    );
    let (file, search, new) = (file.as_str(), search.as_str(), new.as_str());
    let refusal = apply(file, search, new).unwrap_err();
    assert_eq!(
        still_in_file(&refusal).as_deref(),
        Some("#define sk_MSG_new_null() ((STACK_OF(MSG) *)OPENSSL_sk_new_null())")
    );
}

/// The keyword parameters of a retrying call: a method's (indented twice,
/// `t.Type[RetryError]`), and a module function's (indented once, the type
/// quoted) with two of its names changed on disk.
const RETRY: &str = "class Retrying:\n    def __init__(\n        self,\n        after: t.Callable[[\"RetryCallState\"], None] = after_nothing,\n        before_sleep: t.Optional[t.Callable[[\"RetryCallState\"], None]] = None,\n        reraise: bool = False,\n        retry_error_cls: t.Type[RetryError] = RetryError,\n        retry_error_callback: t.Optional[t.Callable[[\"RetryCallState\"], t.Any]] = None,\n    ):\n        pass\n\n\ndef retry(\n    after: t.Callable_other[[\"RetryCallState\"], None] = after_nothing,\n    before_sleep: t.Optional[t.CallableTwo[[\"RetryCallState\"], None]] = None,\n    reraise: bool = False,\n    retry_error_cls: t.Type[\"RetryError\"] = RetryError,\n    retry_error_callback: t.Optional[t.Callable[[\"RetryCallState\"], t.Any]] = None,\n):\n    pass\n";

#[test]
fn a_line_the_file_has_once_elsewhere_is_that_line_not_this_one_stale() {
    // The caller read the module function's parameters before two of their
    // names changed. The method's read the same but for their depth and
    // one line, where the caller's line is the function's, which the file
    // still has (pip's vendored tenacity, unseen bench): the two blocks are
    // offered, the method's (the closer) first.
    let search = "    after: t.Callable[[\"RetryCallState\"], None] = after_nothing,\n    before_sleep: t.Optional[t.Callable[[\"RetryCallState\"], None]] = None,\n    reraise: bool = False,\n    retry_error_cls: t.Type[\"RetryError\"] = RetryError,\n    retry_error_callback: t.Optional[t.Callable[[\"RetryCallState\"], t.Any]] = None,\n";
    let new = search.replacen("t.Any]]", "t.Any_next]]", 1);
    match apply(RETRY, search, &new) {
        Err(Refusal::Ambiguous { candidates, .. }) => {
            assert_eq!(candidate_lines(&candidates), [(4, 8), (14, 18)]);
        }
        other => panic!("expected the two blocks offered, got {other:?}"),
    }
}

#[test]
fn a_comment_added_since_the_line_was_read_leaves_it_stale_not_elsewhere() {
    // The file added a comment to a line the caller remembers without it,
    // and has the caller's version once elsewhere: all the caller remembers
    // is still on the line, so it is the same line.
    let file = "def check(self):\n    copyreg.add_extension(mod, func, code)\n    self.assertIn(code, cache)\n\n\ndef again(self):\n    setup()\n    self.assertNotIn(code, cache)\n    copyreg.add_extension(mod, func, code)  # should not blow up\n    self.assertEqual(count, 1)\n";
    let search = "    setup()\n    self.assertNotIn(code, cache)\n    copyreg.add_extension(mod, func, code)\n    self.assertEqual(count, 1)\n";
    let new = "    setup()\n    self.assertNotIn(code, cache)\n    copyreg.add_extension(mod, func, code)\n    self.assertEqual(count, 2)\n";
    let got = apply(file, search, new).unwrap();
    assert_eq!(
        got,
        file.replace("assertEqual(count, 1)", "assertEqual(count, 2)")
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Whichever class's constructor is deleted, and whichever line the
    /// caller changes, the edit never lands on a sibling.
    #[test]
    fn a_deleted_constructor_s_siblings_are_never_edited(
        count in 2usize..5,
        gone in 0usize..4,
        changed in 1usize..4,
        suffix in "[a-z]{1,6}",
    ) {
        let names: Vec<String> = (0..count).map(|k| format!("Kind{k}{suffix}Action")).collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let gone = &names[gone % count];
        let body = |name: &str| format!("        super({name}, self).__init__(\n            option_strings=option_strings,\n            dest=dest,\n            nargs=nargs)\n");
        let file = actions(&refs).replacen(&body(gone), "        pass\n", 1);
        let search = body(gone);
        let mut lines: Vec<String> = search.lines().map(str::to_string).collect();
        lines[changed] = format!("{}  # changed", lines[changed]);
        let new = lines.join("\n") + "\n";
        let got = apply(&file, &search, &new);
        prop_assert!(got.is_err(), "edited a sibling:\n{}", got.unwrap());
    }
}

/// Two variants of an enum whose fields read alike (tokio's time driver):
/// the caller's is the last, and three words of its comments changed on
/// disk.
const INNER: &str = "enum Inner {\n    Traditional {\n        state: Mutex<InnerState>,\n\n        // When `true`, a call to `park_timeout` should return and time\n        // should not advance, as when the task\n        // passed to `block_on` called `task::yield_now()`.\n        #[cfg(feature = \"test-util\")]\n        did_wake: AtomicBool,\n    },\n\n    #[cfg(tokio_unstable)]\n    Alternative {\n        // When `true`, a call to `park_timeout` should return and timeAlt\n        // should not advance, as when the taskTwo\n        // passed to `block_on` called `taskTwo::yield_now()`.\n        #[cfg(feature = \"test-util\")]\n        did_wake: AtomicBool,\n    },\n}\n";

/// The caller's variant as it read it: its comments, its field, and the
/// enum's closing brace.
const INNER_SEARCH: &str = "        // When `true`, a call to `park_timeout` should return and time\n        // should not advance, as when the task\n        // passed to `block_on` called `task::yield_now()`.\n        #[cfg(feature = \"test-util\")]\n        did_wake: AtomicBool,\n    },\n}\n";

#[test]
fn a_sibling_that_goes_on_where_the_search_ends_its_enum_is_a_rival() {
    // The first variant has every line of the search but its last, the
    // enum's closing `}`; the second has them all, three reading otherwise.
    // Which the caller read is not clear, so nothing is changed (the first
    // was edited before: a missing `}` costs two edits, three words eleven).
    let search = INNER_SEARCH;
    let new = search.replace("AtomicBool,", "AtomicBool_next,");
    match apply(INNER, search, &new).unwrap_err() {
        Refusal::Ambiguous { candidates, .. } => {
            assert_eq!(candidate_lines(&candidates), [(5, 10), (14, 20)]);
        }
        other => panic!("not ambiguous: {other}"),
    }
}

#[test]
fn a_sibling_whose_neighbour_is_the_caller_s_block_drifted_is_still_a_rival() {
    // Two-line items: the first lacks the closing `];`, which comes two
    // lines on, past the caller's item (both its lines changed on disk).
    // Those lines are like the search's, not lines the file gained, so the
    // edge stays open and the caller's item a rival: the first item is not
    // edited.
    let file = "const items = [\n  make(alpha, beta),\n  size(one),\n  makeAlt(alpha, beta),\n  sizeAlt(one),\n];\n";
    let search = "  make(alpha, beta),\n  size(one),\n];\n";
    let new = "  make(alpha, gamma),\n  size(one),\n];\n";
    let got = apply(file, search, new);
    assert!(got.is_err(), "edited:\n{}", got.unwrap());
}

#[test]
fn a_line_gained_before_the_search_s_last_line_leaves_the_edge_closed() {
    // The file gained a line before the caller's closing brace. The
    // brace is just past it, so the edge is not open, and a sibling that
    // has the brace but another number is no rival: the caller's function
    // is edited.
    let file = "fn first() {\n    setup(config);\n    run(config, 1);\n    log::trace!(\"x\");\n}\n\nfn second() {\n    setup(config);\n    run(config, 3);\n}\n";
    let search = "    setup(config);\n    run(config, 1);\n}\n";
    let new = "    setup(config, 2);\n    run(config, 1);\n}\n";
    let got = apply(file, search, new).unwrap();
    assert_eq!(got, file.replacen("setup(config);", "setup(config, 2);", 1));
}

#[test]
fn replace_all_does_not_take_the_sibling_alone_either() {
    // Under replace_all the two variants hold different text, and the one
    // that lacks the closing `}` is not clearly the better fit: neither is
    // changed alone.
    let search = INNER_SEARCH;
    let new = search.replace("AtomicBool,", "AtomicBool_next,");
    let request = EditRequest::new(search, &new).with_strategy(Strategy::ReplaceAll);
    match plan_edit(INNER, &request).unwrap_err() {
        Refusal::Ambiguous {
            candidates, unlike, ..
        } => {
            assert!(unlike);
            assert_eq!(candidate_lines(&candidates), [(5, 10), (14, 20)]);
        }
        other => panic!("not refused as unlike: {other}"),
    }
}

#[test]
fn a_line_removed_at_the_search_s_edge_is_still_tolerated_with_no_sibling_that_has_it() {
    // The same search, where the file has only the first variant and the
    // enum goes on with a unit variant: no place has the closing `}` just
    // after, so the line is one removed since it was read.
    let file = INNER
        .split("\n    #[cfg(tokio_unstable)]")
        .next()
        .unwrap()
        .to_string()
        + "\n    Unit,\n}\n";
    let search = INNER_SEARCH;
    let new = search.replace("AtomicBool,", "AtomicBool_next,");
    let got = apply(&file, search, &new).unwrap();
    assert_eq!(got, file.replace("AtomicBool,", "AtomicBool_next,"));
}

/// A list of items that read alike: each is `  {`, the same lines of
/// words, and `  },`; the list opens
/// with `const items = [` and closes with `];`.
fn items(count: usize, words: &[String]) -> Vec<String> {
    let mut out = vec!["const items = [".to_string()];
    for _ in 0..count {
        out.push("  {".to_string());
        for (j, w) in words.iter().enumerate() {
            out.push(format!("    // {w} {} {}", words[(j + 1) % words.len()], j));
        }
        out.push("  },".to_string());
    }
    out.push("];".to_string());
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The search takes in the list's opening (or closing) line and the
    /// lines of the first (or last) item, which changed on disk in some of
    /// the lines the caller keeps. Another item reads as the search did,
    /// but for that edge line: the edit lands on the caller's item (one
    /// line remembered stale at most) or is refused, never on another item.
    #[test]
    fn a_look_alike_that_lacks_the_search_s_edge_line_is_not_edited(
        count in 2usize..5,
        words in proptest::collection::vec("[a-z]{4,9}", 1..7),
        at_end in any::<bool>(),
        shown in 1usize..6,
        drifted in proptest::collection::btree_set(0usize..6, 1..4),
        changed in 0usize..6,
    ) {
        let lines = items(count, &words);
        let per = words.len() + 2;
        // The caller's item: the first or the last.
        let item = if at_end { 1 + (count - 1) * per } else { 1 };
        let shown = shown.min(words.len());
        // The search: the list's edge line and `shown` comment lines of
        // the item next to it, with the item's `{` or `},`.
        let range = if at_end {
            item + per - 1 - shown..item + per + 1
        } else {
            0..item + 1 + shown
        };
        let comments: Vec<usize> = range.clone().filter(|&i| lines[i].starts_with("    //")).collect();
        prop_assume!(!comments.is_empty());
        let search: String = range.clone().map(|i| format!("{}\n", lines[i])).collect();
        // On disk, the item's comments in `drifted` have another first
        // word (`timeAlt` for `time`).
        let mut disk = lines.clone();
        let mut stale = 0;
        for &d in &drifted {
            let i = comments[d % comments.len()];
            if disk[i] == lines[i] {
                let (word, rest) = lines[i]["    // ".len()..].split_once(' ').unwrap();
                disk[i] = format!("    // {word}Alt {rest}");
                stale += 1;
            }
        }
        let file: String = disk.iter().map(|l| format!("{l}\n")).collect();
        // The caller changes one comment line.
        let target = comments[changed % comments.len()];
        let new: String = range
            .clone()
            .map(|i| if i == target { format!("{} changed\n", lines[i]) } else { format!("{}\n", lines[i]) })
            .collect();
        if let Ok(got) = apply(&file, &search, &new) {
            // Only the caller's item may change, and only through one
            // stale line, the file's version of which stays.
            prop_assert!(stale <= 1, "edited through {stale} stale lines:\n{got}");
            prop_assert_eq!(&disk[target], &lines[target], "wrote over a line changed on disk:\n{}", got);
            let mut want = disk.clone();
            want[target] = format!("{} changed", disk[target]);
            let want: String = want.iter().map(|l| format!("{l}\n")).collect();
            prop_assert_eq!(got, want);
        }
    }
}
