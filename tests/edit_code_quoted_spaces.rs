//! Whitespace between code tokens is layout; inside a string it is the
//! string's text. Two test functions that differ only in the spacing of a
//! literal (`"parameter=value"`, `"parameter = value"`) are two blocks:
//! where the caller's block is gone from the file (its names changed since
//! it was read), its sibling is not edited in its place. And a caller whose
//! copy spaces the code differently still edits its own block. (Found by a
//! held-out drift run on a parser's test file: the sibling was edited.)

#[path = "edit_outcome/mod.rs"]
mod edit_outcome;

use edit_outcome::{apply, made_at_least, swapped};
use proptest::prelude::*;
use proptest::strategy::ValueTree;

/// One test function of the file; `spaced` puts spaces around the `=` of
/// the literal, `renamed` changes the names the caller remembers.
fn function(name: &str, key: &str, value: &str, spaced: bool, renamed: bool) -> String {
    let eq = if spaced { " = " } else { "=" };
    let (value, second) = if renamed {
        (format!("{value}_other"), format!("{key}_other"))
    } else {
        (value.to_string(), key.to_string())
    };
    format!(
        "#[test]\nfn {name}() {{\n    let ini_file = \"{key}{eq}{value}\n{second} = value2\";\n\n    \
         let rest = \"{second} = value2\";\n\n    let res = key_value.parse_peek(ini_file);\n    \
         println!(\"{{res:?}}\");\n    match res {{\n        Ok((i, o)) => println!(\"i: {{i}} | o: {{o:?}}\"),\n        \
         _ => println!(\"error\"),\n    }}\n}}\n"
    )
}

/// The caller's lines of a function: from the literal to the match.
fn caller_lines(key: &str, value: &str, code_spacing: &str) -> String {
    format!(
        "    let ini_file{code_spacing}={code_spacing}\"{key}={value}\n{key} = value2\";\n\n    \
         let rest = \"{key} = value2\";\n\n    let res = key_value.parse_peek(ini_file);\n    \
         println!(\"{{res:?}}\");\n    match res {{\n"
    )
}

prop_compose! {
    fn names()(key in "[a-z]{4,9}", value in "[a-z]{3,7}", other_first in any::<bool>()) -> (String, String, bool) {
        (key, value, other_first)
    }
}

#[test]
fn a_sibling_that_differs_in_a_literal_s_spacing_is_not_edited() {
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    for _ in 0..200 {
        let (key, value, other_first) = names().new_tree(&mut runner).unwrap().current();
        // The caller's block, renamed since; the sibling with a spaced
        // literal; a third function with another literal, so that no line
        // the caller keeps is the sibling's alone. (Beside a kept line the
        // file has once, one line remembered stale is forgiven by design.)
        let mut file = function("parse_test", &key, &value, false, true);
        file.push('\n');
        let sibling = function("parse_with_space_test", &key, &value, true, false);
        let other = function(
            "parse_comment_test",
            &key,
            &format!("{value};abc"),
            false,
            false,
        );
        let (first, second) = if other_first {
            (&other, &sibling)
        } else {
            (&sibling, &other)
        };
        file.push_str(first);
        file.push('\n');
        file.push_str(second);
        let search = caller_lines(&key, &value, " ");
        let new = search.replacen("println!(\"{res:?}\")", "println_next!(\"{res:?}\")", 1);
        let got = apply(&file, &search, &new);
        assert!(got.is_err(), "edited the sibling:\n{}", got.unwrap());
    }
}

#[test]
fn a_copy_spaced_differently_between_tokens_still_edits_its_block() {
    made_at_least(
        200,
        150,
        (names(), prop::sample::select(vec!["  ", "\t", " "])),
        |((key, value, _), spacing)| {
            let mut file = function("parse_test", &key, &value, false, false);
            file.push('\n');
            file.push_str(&function(
                "parse_with_space_test",
                &key,
                &value,
                true,
                false,
            ));
            let search = caller_lines(&key, &value, spacing);
            let new = search.replacen("println!(\"{res:?}\")", "println_next!(\"{res:?}\")", 1);
            let want = file.replacen("println!(\"{res:?}\")", "println_next!(\"{res:?}\")", 1);
            let got = apply(&file, &search, &new);
            if let Ok(got) = &got {
                prop_assert_eq!(got, &want);
            }
            Ok(got.is_ok())
        },
    );
}

/// A function whose log message is a string with spaces.
fn logging_function(name: &str, message: &str, arg: &str) -> String {
    format!(
        "/// counts the batch's offset.\npub fn {name}(token: &Token, limit: usize) -> Result<usize, Error> {{\n    \
         emit(token.id);\n    log::info!(\"{message}\");\n    let depth = split_ledger({arg}, 42);\n    \
         emit(shift_column(depth, 34));\n    Ok(depth)\n}}\n"
    )
}

/// A caller whose text swaps `"` with a letter, in search_context and
/// new_content alike, reads the message `"can't sort metric"` as
/// `wcan't sort metricw`; the line it rewrites, `limit_new`, comes as
/// `limit_ne"`. The spaces of the string are no evidence that the caller
/// spells the file's characters right: the slip of `"` taints the line it
/// writes, and the edit is refused (or, could the plan undo the swap, made
/// as meant). Held to a census seed that once wrote `limit_ne"`.
#[test]
fn a_swap_of_the_quote_is_not_written_for_the_string_s_spaces() {
    let made = edit_outcome::run(
        200,
        (
            prop::collection::vec("[a-z]{3,8}", 2..5),
            "[a-z]{2,5}",
            any::<prop::sample::Index>(),
        ),
        |(message, suffix, at)| {
            let message = message.join(" ");
            let letter = suffix.chars().nth(at.index(suffix.len())).unwrap();
            let renamed = format!("limit_{suffix}");
            let mine = logging_function("decode_ledger", &message, "limit");
            let file = format!(
                "use std::collections::HashMap;\n\n{mine}\n{}",
                logging_function("clamp_segment", "record limit out of range", "limit + 1")
            );
            let want = file.replacen(
                &mine,
                &logging_function("decode_ledger", &message, &renamed),
                1,
            );
            let new = logging_function("decode_ledger", &message, &renamed);
            let got = apply(
                &file,
                &swapped(&mine, '"', letter),
                &swapped(&new, '"', letter),
            );
            if let Ok(got) = &got {
                prop_assert_eq!(got, &want);
            }
            Ok(got.is_ok())
        },
    );
    println!("made {made} of 200");
}
