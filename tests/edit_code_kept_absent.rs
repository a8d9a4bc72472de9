//! A line the caller keeps from its search that the file does not have (a
//! blank line or a comment it remembers there) is never written: keeping a
//! line is no claim to add it. Where the search hides lines without a
//! marker and its changed line has a twin further on (the same field in
//! every struct), two readings cost the same: the changed line read as its
//! own block's, or as the twin's with the lines before it hidden. In the
//! second, the remembered line falls in the chunk whose hidden lines
//! new_content writes out, and it had been written there as an added
//! line. (Found by the drift bench, held-out seed, on libc's
//! `_pthread_types.rs`: a blank line the caller remembered after
//! `pub struct pthread_attr_t {` written into the file.)

#[path = "edit_outcome/mod.rs"]
mod edit_outcome;

use edit_outcome::{Case, made_at_least, run, text_of};
use proptest::prelude::*;

fn text(lines: &[String]) -> String {
    text_of(lines, false)
}

/// Structs that all start with the same field, then one of their own.
fn structs(names: &[String]) -> Vec<Vec<String>> {
    names
        .iter()
        .map(|n| {
            vec![
                format!("    pub struct {n}_t {{"),
                "        pub(crate) __sig: c_long,".to_string(),
                format!(
                    "        pub(crate) __opaque: [u8; {}_SIZE],",
                    n.to_uppercase()
                ),
                "    }".to_string(),
            ]
        })
        .collect()
}

fn file_of(blocks: &[Vec<String>]) -> Vec<String> {
    let mut out = vec!["s! {".to_string()];
    for (k, b) in blocks.iter().enumerate() {
        if k > 0 {
            out.push(String::new());
        }
        out.extend(b.iter().cloned());
    }
    out.push("}".to_string());
    out
}

prop_compose! {
    /// The caller shows struct `k`'s head, a line it remembers after it
    /// (`remembered`; none for the control), the field it renames, then,
    /// hiding the rest without a marker, the blank line and head and first
    /// field of struct `j` further on; new_content writes everything
    /// between out.
    fn remembered_line(remembered: Option<&'static str>)(
        names in prop::collection::hash_set("[a-z]{4,9}", 3..6),
        pick in any::<(prop::sample::Index, prop::sample::Index)>(),
        opening in any::<bool>(),
    ) -> Case {
        let names: Vec<String> = names.into_iter().collect();
        let blocks = structs(&names);
        let k = pick.0.index(names.len() - 1);
        let j = k + 1 + pick.1.index(names.len() - 1 - k);
        let renamed = "        pub(crate) __sig_next: c_long,".to_string();
        let lead: Vec<String> = if opening && k == 0 {
            vec!["s! {".to_string()]
        } else {
            Vec::new()
        };
        let mut search = lead.clone();
        search.push(blocks[k][0].clone());
        search.extend(remembered.map(String::from));
        search.push(blocks[k][1].clone());
        search.extend([String::new(), blocks[j][0].clone(), blocks[j][1].clone()]);
        let mut new = lead;
        new.push(blocks[k][0].clone());
        new.extend(remembered.map(String::from));
        new.push(renamed.clone());
        new.extend(blocks[k][2..].iter().cloned());
        for b in &blocks[k + 1..j] {
            new.push(String::new());
            new.extend(b.iter().cloned());
        }
        new.extend([String::new(), blocks[j][0].clone(), blocks[j][1].clone()]);
        let mut want = blocks.clone();
        want[k][1] = renamed;
        Case {
            file: text(&file_of(&blocks)),
            search: text(&search),
            new: text(&new),
            want: text(&file_of(&want)),
        }
    }
}

#[test]
fn a_remembered_blank_line_is_never_written() {
    // Any edit but the intended one fails the run; refusals are counted.
    let made = run(300, remembered_line(Some("")), |c| {
        Ok(c.made_as_meant_or_refused())
    });
    println!("made {made} of 300 (remembered line)");
}

#[test]
fn a_remembered_comment_is_never_written() {
    let made = run(
        300,
        remembered_line(Some("        // the signature")),
        |c| Ok(c.made_as_meant_or_refused()),
    );
    println!("made {made} of 300 (remembered line)");
}

/// The control: without the remembered line the edit is made.
#[test]
fn the_same_edit_without_the_remembered_line_is_made() {
    made_at_least(300, 200, remembered_line(None), |c| {
        Ok(c.made_as_meant_or_refused())
    });
}

/// The bench case, cut to three structs.
#[test]
fn the_remembered_blank_line_of_a_pthread_header_is_not_written() {
    let file = "s! {
    pub struct pthread_attr_t {
        pub(crate) __sig: c_long,
        pub(crate) __opaque: [c_char; __PTHREAD_ATTR_SIZE__],
    }

    pub struct pthread_cond_t {
        pub(crate) __sig: c_long,
        pub(crate) __opaque: [u8; __PTHREAD_COND_SIZE__],
    }

    pub struct pthread_condattr_t {
        pub(crate) __sig: c_long,
        pub(crate) __opaque: [u8; __PTHREAD_CONDATTR_SIZE__],
    }
}
";
    let search = "s! {
    pub struct pthread_attr_t {

        pub(crate) __sig: c_long,

    pub struct pthread_condattr_t {\u{20}
        pub(crate) __sig: c_long,
";
    let new = "s! {
    pub struct pthread_attr_t {

        pub(crate) __sig_next: c_long,
        pub(crate) __opaque: [c_char; __PTHREAD_ATTR_SIZE__],
    }

    pub struct pthread_cond_t {
        pub(crate) __sig: c_long,
        pub(crate) __opaque: [u8; __PTHREAD_COND_SIZE__],
    }

    pub struct pthread_condattr_t {
        pub(crate) __sig: c_long,
";
    let want = file.replacen("__sig:", "__sig_next:", 1);
    // Made as meant, or refused; never with the blank line written.
    edit_outcome::made_as_meant_or_refused(file, search, new, &want);
}
