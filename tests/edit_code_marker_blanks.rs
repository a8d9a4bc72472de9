//! A marker stands for lines that `new_content` writes out, but without the
//! blank lines among them: the caller's copy lost them, as copies of text
//! lose blank lines more than any other. Blank lines only the file has
//! stay, there as anywhere else. Found by the drift bench (seed 4) on an
//! OpenSSL header, where the blank line before the next `typedef` was
//! removed.

#[path = "edit_outcome/mod.rs"]
mod edit_outcome;

use edit_outcome::{apply, intended_or_refused};
use proptest::prelude::*;

const MODES: &str = "typedef void (*ecb128_f)(const unsigned char *in, unsigned char *out,
    size_t len, const void *key,
    int enc);

typedef void (*ctr128_f)(const unsigned char *in, unsigned char *out,
    size_t blocks, const void *key,
    const unsigned char ivec[16]);

typedef void (*ccm128_f)(const unsigned char *in, unsigned char *out,
    size_t blocks, const void *key,
    const unsigned char ivec[16],
    unsigned char cmac[16]);

void CRYPTO_cbc128_encrypt(const unsigned char *in, unsigned char *out);
";

#[test]
fn the_blank_line_after_the_lines_written_out_for_a_marker_stays() {
    let search = "typedef void (*ctr128_f)(const unsigned char *in, unsigned char *out,
    // ...
typedef void (*ccm128_f)(const unsigned char *in, unsigned char *out,
    size_t blocks, const void *key,
    const unsigned char ivec[16],
    unsigned char cmac[16]);
";
    let new = "typedef void (*ctr128_f)(const unsigned char *in, unsigned char *out,
    size_t blocks, const void *key,
    const unsigned char ivec[16]);
typedef void (*ccm128_f)(const unsigned char *in, unsigned char *out_next,
    size_t blocks, const void *key,
    const unsigned char ivec[16],
    unsigned char cmac[16]);
";
    let got = apply(MODES, search, new).unwrap();
    assert_eq!(
        got,
        MODES.replace(
            "*out,\n    size_t blocks, const void *key,\n    const unsigned char ivec[16],",
            "*out_next,\n    size_t blocks, const void *key,\n    const unsigned char ivec[16],"
        )
    );
}

/// Blocks of a C header: a `typedef` line and `rest` continuation lines
/// each (the same in every block, as parameters are), `gaps` blank lines
/// after each.
fn header(rest: &[usize], gaps: &[usize]) -> Vec<String> {
    let mut out = Vec::new();
    for (k, (&n, &gap)) in rest.iter().zip(gaps).enumerate() {
        out.push(format!("typedef void (*f{k}_f)(const unsigned char *in,"));
        for j in 0..n {
            out.push(format!("    size_t w{j}, const void *key{j},"));
        }
        out.push(format!("    int last{k});"));
        out.extend(std::iter::repeat_n(String::new(), gap));
    }
    out.push("void done(void);".to_string());
    out
}

/// The file of `lines`; new_content as `lines` up to `end` with line
/// `target` changed and the blank lines `dropped` says left out (by their
/// count, cyclically); and the file with that change alone.
fn changed_copy(
    lines: &[String],
    end: usize,
    dropped: &[bool],
    target: usize,
) -> (String, String, String) {
    let mut new = String::new();
    let mut blank = 0;
    for (i, l) in lines[..end].iter().enumerate() {
        if l.is_empty() {
            blank += 1;
            if dropped[blank % dropped.len()] {
                continue;
            }
        }
        if i == target {
            new.push_str(&format!("{l} // changed\n"));
        } else {
            new.push_str(&format!("{l}\n"));
        }
    }
    let file: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let mut want = lines.to_vec();
    want[target] = format!("{} // changed", lines[target]);
    let want: String = want.iter().map(|l| format!("{l}\n")).collect();
    (file, new, want)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The search shows the first block's first line, a marker, and the
    /// last block; new_content writes every line between out, without some
    /// of the blank lines, and changes one line of text. The file gets that
    /// change and keeps all its blank lines, or is left alone.
    #[test]
    fn blank_lines_a_marker_hides_stay_when_new_content_leaves_them_out(
        rest in proptest::collection::vec(0usize..3, 2..5),
        gaps in proptest::collection::vec(1usize..3, 4),
        dropped in proptest::collection::vec(any::<bool>(), 16),
        changed in 1usize..30,
    ) {
        let gaps = &gaps[..rest.len()];
        let lines = header(&rest, gaps);
        let last = rest.len() - 1;
        let last_start = lines.iter().position(|l| l.starts_with(&format!("typedef void (*f{last}_f)"))).unwrap();
        let last_end = last_start + rest[last] + 2;
        let mut search = format!("{}\n    // ...\n", lines[0]);
        for l in &lines[last_start..last_end] {
            search.push_str(&format!("{l}\n"));
        }
        let text: Vec<usize> = (1..last_end).filter(|&i| !lines[i].is_empty()).collect();
        let target = text[changed % text.len()];
        let (file, new, want) = changed_copy(&lines, last_end, &dropped, target);
        intended_or_refused(apply(&file, &search, &new), &want);
    }
}

/// Functions of a C++ header: `body[k]` lines each, each closed by `}` (the
/// same line in every function), `gaps[k]` blank lines after each.
fn functions(body: &[usize], gaps: &[usize]) -> Vec<String> {
    let mut out = Vec::new();
    for (k, (&n, &gap)) in body.iter().zip(gaps).enumerate() {
        out.push(format!(
            "inline bool op{k}(const GUID &LHS, const GUID &RHS) {{"
        ));
        for j in 0..n {
            out.push(format!("  return ::cmp{k}(LHS.Guid, RHS.Guid, {j}) < 0;"));
        }
        out.push("}".to_string());
        out.extend(std::iter::repeat_n(String::new(), gap));
    }
    out.push("raw_ostream &operator<<(raw_ostream &OS, const GUID &Guid);".to_string());
    out
}

/// Property: a marker that opens the lines the caller changes stands for
/// the end of one function (its `}`, the line the search ends with too),
/// blank lines and the next function's first lines; new_content writes
/// them out without some of the blank lines and changes a line after
/// them. The file gets that change and keeps all its blank lines, or is
/// left alone. (Found by the drift bench, seed 14, on an LLVM header: the
/// blank line between two functions was removed.)
#[test]
fn blank_lines_a_marker_hides_stay_when_the_change_follows_them() {
    let cases = (
        proptest::collection::vec(1usize..3, 2..5),
        proptest::collection::vec(1usize..3, 4),
        proptest::collection::vec(any::<bool>(), 16),
        0usize..30,
    );
    let made = edit_outcome::run(300, cases, |(body, gaps, dropped, changed)| {
        let gaps = &gaps[..body.len()];
        let lines = functions(&body, gaps);
        let last = body.len() - 1;
        let last_start = lines
            .iter()
            .position(|l| l.starts_with(&format!("inline bool op{last}(")))
            .unwrap();
        let last_end = last_start + body[last] + 2;
        // The first function's first two lines, a marker, and the last
        // function's lines after its first.
        let mut search = format!("{}\n{}\n// ... rest of the code\n", lines[0], lines[1]);
        for l in &lines[last_start + 1..last_end] {
            search.push_str(&format!("{l}\n"));
        }
        // The changed line is one of the last function's body lines.
        let target = last_start + 1 + changed % body[last];
        let (file, new, want) = changed_copy(&lines, last_end, &dropped, target);
        edit_outcome::made_or_refused(&file, &search, &new, &want)
    });
    println!("made {made} of 300");
    // 93 when written (most refusals read the repeated `}` as the search's
    // last line kept early, and refuse the blank lines at the edge); the
    // floor keeps refusing everything from passing.
    assert!(made >= 80, "made only {made} of 300");
}
