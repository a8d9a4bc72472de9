//! A kept line the file reads with a character glued onto one of the
//! caller's words (`b"."` where the caller has `"."`) is not the caller's
//! line with something added since: the word the caller remembers is gone
//! from it. Where the caller's whole line is still the one other line of the
//! file that has it, the block found is a look-alike of the caller's, and
//! the edit is refused. (Found by a held-out run of the unseen-drift bench on
//! a Python codec: the decoder's block was gone, and its twin in the encoder,
//! which writes `b"."` where the decoder writes `"."`, was edited.)

#[path = "edit_outcome/mod.rs"]
mod edit_outcome;

use edit_outcome::{Case, apply, made_as_meant_or_refused, made_at_least, run, text_of};

fn text(lines: &[String]) -> String {
    text_of(lines, false)
}
use proptest::prelude::*;

/// The caller's block: line 1 (`{t} = {lit}`) is the line a look-alike reads
/// with a glued character; the last line is the one the caller changes.
fn block(v: &str, t: &str, lit: &str) -> Vec<String> {
    vec![
        format!("        if not {v}[-1]:"),
        format!("            {t} = {lit}"),
        format!("            del {v}[-1]"),
        "        elif not final:".to_string(),
        format!("            del {v}[-1]"),
        format!("            if {v}:"),
    ]
}

/// A character glued onto a word of `line` at the end of its text: a prefix
/// to a string literal, or a call, index or attribute after it.
fn glue(line: &str, how: usize) -> String {
    let (head, word) = line.rsplit_once(' ').unwrap();
    let glued = match how {
        0 => format!("b{word}"),
        1 => format!("r{word}"),
        2 => format!("{word}.strip()"),
        3 => format!("{word}[0]"),
        _ => format!("-{word}"),
    };
    format!("{head} {glued}")
}

fn function(name: &str, body: &[String]) -> Vec<String> {
    let mut out = vec![format!("    def {name}(self, data, final):")];
    out.push("        if not data:".to_string());
    out.push("            return None".to_string());
    out.extend(body.iter().cloned());
    out.push("        return data".to_string());
    out.push(String::new());
    out
}

/// Lines of a method between the copy and the block.
fn padding() -> Vec<String> {
    (0..6)
        .map(|k| format!("        self.buffer{k} = []"))
        .collect()
}

prop_compose! {
    /// The caller's block gone: a sibling renamed on two other lines stands
    /// where it stood, keeping the caller's line 1 whole, and a twin that
    /// reads line 1 with a glued character stands elsewhere.
    fn look_alike()(
        v in "[a-z]{3,8}",
        t in "[a-z]{3,6}_[a-z]{2,5}",
        lit in "\"[a-z.,:]{1,3}\"",
        how in 0usize..5,
        renamed in prop::sample::subsequence(vec![0usize, 2, 4, 5], 2..=3),
        twin_first in any::<bool>(),
    ) -> Case {
        let mine = block(&v, &t, &lit);
        let mut twin = mine.clone();
        twin[1] = glue(&mine[1], how);
        let mut sibling = mine.clone();
        for &k in &renamed {
            sibling[k] = sibling[k].replace(&v, &format!("{v}_other"));
        }
        let (first, second) = if twin_first {
            (function("encode", &twin), function("decode", &sibling))
        } else {
            (function("decode", &sibling), function("encode", &twin))
        };
        let mut file = vec!["class Codec:".to_string()];
        file.extend(first);
        file.extend(second);
        let mut new = mine.clone();
        new[5] = format!("            if {v}_next:");
        new.push("            # checked again below".to_string());
        let file = text(&file);
        Case { want: file.clone(), file, search: text(&mine), new: text(&new) }
    }
}

prop_compose! {
    /// The caller's block is there, a comment added since to line 1 (a
    /// word of its own); the caller's line as sent is one other line of the
    /// file, in another method. The comment adds a word and takes none away, so the
    /// edit is made.
    fn comment_added()(
        v in "[a-z]{3,8}",
        t in "[a-z]{3,6}_[a-z]{2,5}",
        lit in "\"[a-z.,:]{1,3}\"",
        comment in "# [a-z]{3,8}( [a-z]{2,6})?",
    ) -> Case {
        let mine = block(&v, &t, &lit);
        let mut on_disk = mine.clone();
        on_disk[1] = format!("{}  {comment}", mine[1]);
        let other = vec![format!("        {t} = {lit}")];
        // The copy stands far from the block, in a method of its own,
        // so that it is no line the search seems to leave out.
        let mut head = vec!["class Codec:".to_string()];
        head.extend(function("reset", &other));
        head.extend(function("flush", &padding()));
        let mut file = head.clone();
        file.extend(function("encode", &on_disk));
        let mut new = mine.clone();
        new[5] = format!("            if {v}_next:");
        let mut want_body = on_disk.clone();
        want_body[5] = new[5].clone();
        let mut want = head;
        want.extend(function("encode", &want_body));
        Case { file: text(&file), search: text(&mine), new: text(&new), want: text(&want) }
    }
}

#[test]
fn a_look_alike_with_a_word_glued_on_is_not_edited() {
    let made = run(300, look_alike(), |c| Ok(c.made_as_meant_or_refused()));
    assert_eq!(
        made, 0,
        "the caller's block is gone: every case must be refused"
    );
}

#[test]
fn a_comment_added_since_to_a_kept_line_is_still_edited() {
    made_at_least(200, 190, comment_added(), |c| {
        Ok(c.made_as_meant_or_refused())
    });
}

/// The held-out case, cut to the two methods.
#[test]
fn the_encoder_twin_of_a_deleted_decoder_block_is_not_edited() {
    let file = r#"class IncrementalEncoder(codecs.BufferedIncrementalEncoder):
    def _buffer_encode(self, data: str, errors: str, final: bool) -> Tuple[bytes, int]:
        labels = _unicode_dots_re.split(data)
        trailing_dot = b""
        if labels:
            if not labels[-1]:
                trailing_dot = b"."
                del labels[-1]
            elif not final:
                # Keep potentially unfinished label until the next call
                del labels[-1]
                if labels:
                    trailing_dot = b"."

        return result_bytes, size


class IncrementalDecoder(codecs.BufferedIncrementalDecoder):
    def _buffer_decode(self, data: Any, errors: str, final: bool) -> Tuple[str, int]:
        labels = _unicode_dots_re.split(data)
        trailing_dot = ""
        if labels:
            if not labels_other[-1]:
                trailing_dotAlt = "."
                del labels_other[-1]
            elif not final:
                # Keep potentially unfinished label until the next call
                del labels[-1]
                if labels:
                    trailing_dot = "."

        return (result_str, size)
"#;
    let search = r#"            if not labels[-1]:
                trailing_dot = "."
                del labels[-1]
            elif not final:
                # Keep potentially unfinished label until the next call
                del labels[-1]
                if labels:
"#;
    let changed = "                if labels_next:\n                # checked again below\n";
    let new = search.replace("                if labels:\n", changed);
    assert!(apply(file, search, &new).is_err());
    // The same call on the file before the decoder's block was renamed is
    // the caller's edit, made where the decoder has it.
    let before = file
        .replace("labels_other", "labels")
        .replace("trailing_dotAlt", "trailing_dot");
    let at = before.rfind("                if labels:\n").unwrap();
    let mut want = before.clone();
    want.replace_range(at..at + "                if labels:\n".len(), changed);
    assert!(made_as_meant_or_refused(&before, search, &new, &want));
}
