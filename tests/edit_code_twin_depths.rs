//! Two lines that read alike at different depths (`return acc` inside a
//! branch and again after the loop), in a search whose indentation is
//! shifted and whose second copy has a typo. Paired by their words alone,
//! the caller's change can be read as a line added before the deeper copy
//! and the shallower one removed: every line then reads right, yet the
//! statement left in the file stands a block deeper, and the program means
//! something else. Found by the drift bench (seed 5, held out) on a Python
//! tokenizer. Each test checks that the file is written exactly as intended
//! or not at all.

#[path = "edit_outcome/mod.rs"]
mod edit_outcome;

use edit_outcome::{apply, intended_or_refused};
use proptest::prelude::*;

const TOKENIZER: &str = "class Tokenizer:
    def read_until(self, phrase: str) -> str:
        chars_read = \"\"
        for char in self:
            chars_read += char
            if self.peek(len(phrase)) == phrase:
                return chars_read
        return chars_read

    def skip_characters(self, phrase: str, case_sensitive: bool = False) -> None:
        pass
";

#[test]
fn the_shallower_of_two_like_lines_is_not_removed_for_the_deeper() {
    // Dedented by four columns, with a typo in the second `return`; the
    // caller renames the first and writes the second as the file has it.
    let search = "            return chars_read
    return chars_reead

def skip_characters(self, phrase: str, case_sensitive: bool = False) -> None:
";
    let new = "            return chars_read_next
    return chars_read

def skip_characters(self, phrase_next: str, case_sensitive: bool = False) -> None:
";
    let want = TOKENIZER
        .replace(
            "                return chars_read\n",
            "                return chars_read_next\n",
        )
        .replace("(self, phrase: str, case", "(self, phrase_next: str, case");
    let got = apply(TOKENIZER, search, new);
    assert_ne!(
        got.as_deref().ok(),
        Some(
            TOKENIZER
                .replace(
                    "                return chars_read\n        return chars_read\n",
                    "                return chars_read_next\n                return chars_read\n",
                )
                .replace("(self, phrase: str, case", "(self, phrase_next: str, case")
                .as_str()
        ),
        "the `return` after the loop was removed and the one in the branch kept"
    );
    intended_or_refused(got, &want);
}

/// A method whose loop returns `acc` from a branch and again after the
/// loop, followed by another method.
fn method(acc: &str, depth: usize) -> Vec<String> {
    let pad = |n: usize| " ".repeat(depth + n);
    vec![
        format!("{}def read_all(self, limit: int) -> str:", pad(0)),
        format!("{}{acc} = \"\"", pad(4)),
        format!("{}for item in self.items:", pad(4)),
        format!("{}{acc} += item", pad(8)),
        format!("{}if len({acc}) > limit:", pad(8)),
        format!("{}return {acc}", pad(12)),
        format!("{}return {acc}", pad(4)),
        String::new(),
        format!("{}def reset(self, value: int) -> None:", pad(0)),
        format!("{}self.value = value", pad(4)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The search holds the two `return` lines and 1–3 lines after them,
    /// shifted left by some columns, with a typo in one of the two; the
    /// caller renames one of them (writing the other as the file has it)
    /// and maybe a line after. The file gets exactly that, or nothing.
    #[test]
    fn a_line_that_reads_like_another_keeps_its_own_depth(
        depth in 0usize..3,
        shift in 0usize..3,
        from in 4usize..6,
        extra in 1usize..4,
        typo_in_deeper in any::<bool>(),
        rename_deeper in any::<bool>(),
        rename_after in any::<bool>(),
        acc in "(chars_read|result|buffer|collected)",
    ) {
        let depth = depth * 4;
        let shift = (shift * 4).min(depth);
        let lines = method(&acc, depth);
        let end = 7 + extra;
        let shown = |l: &str| l.get(shift.min(l.len() - l.trim_start().len())..).unwrap_or(l).to_string();
        let typo = acc.replacen('e', "ee", 1).replacen('o', "oo", 1);
        let (deeper, shallower) = (5, 6);
        let mut search = Vec::new();
        let mut new = Vec::new();
        let mut want = lines.clone();
        for (i, line) in lines.iter().enumerate().take(end).skip(from) {
            let mut s = shown(line);
            let mut n = s.clone();
            if i == if typo_in_deeper { deeper } else { shallower } {
                s = s.replace(&format!("return {acc}"), &format!("return {typo}"));
            }
            if i == if rename_deeper { deeper } else { shallower } {
                n = n.replace(&format!("return {acc}"), &format!("return {acc}_next"));
                want[i] = line.replace(&format!("return {acc}"), &format!("return {acc}_next"));
            }
            if rename_after && i == end - 1 && line.contains("self") {
                n = n.replacen("self", "this", 1);
                want[i] = line.replacen("self", "this", 1);
            }
            search.push(s);
            new.push(n);
        }
        let join = |v: &[String]| v.iter().map(|l| format!("{l}\n")).collect::<String>();
        let file = join(&lines);
        intended_or_refused(apply(&file, &join(&search), &join(&new)), &join(&want));
    }
}
