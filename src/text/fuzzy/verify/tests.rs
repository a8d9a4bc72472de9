use super::*;

fn no_spacing() -> Spacing<'static> {
    Spacing {
        search: vec![],
        new: vec![],
        before: vec![],
        after: vec![],
        outside: (0, 0),
    }
}

fn no_depths() -> Depths<'static> {
    Depths {
        search: vec![],
        new: vec![],
        before: vec![],
        after: vec![],
        outside: (None, None),
    }
}

/// A check of `before` → `after` against `search` → `new`, with nothing
/// stale, hidden or invisible, and the region as its own surroundings.
fn plain<'a>(
    before: &[&'a str],
    after: &[&'a str],
    search: &[&'a str],
    new: &[&'a str],
) -> Check<'a> {
    Check {
        before: before.to_vec(),
        after: after.to_vec(),
        search: search.to_vec(),
        new: new.to_vec(),
        new_order: new.to_vec(),
        stale: vec![],
        misread: vec![],
        nearby: before.to_vec(),
        nearby_after: after.to_vec(),
        splice: 10..20,
        region: 10..20,
        elided: false,
        takes_break_before: false,
        invisible_written: Vec::new(),
        spacing: no_spacing(),
        depths: no_depths(),
        outside_once: Vec::new(),
        shown: HashMap::new(),
        edges: Default::default(),
    }
}

fn check<'a>(
    before: &[&'a str],
    after: &[&'a str],
    search: &[&'a str],
    new: &[&'a str],
) -> Result<(), String> {
    Check {
        elided: true,
        ..plain(before, after, search, new)
    }
    .run()
}

#[test]
fn a_slip_on_a_line_the_caller_keeps_must_not_be_in_the_lines_it_writes() {
    // `u` and `w` swapped throughout the caller's text: `true` reads
    // `trwe`, and the line written, `limits_neu`, was `limits_new`.
    let before = ["enabled: true", "limits:", "memory: 1"];
    let search = ["enabled: trwe", "limits:", "memory: 1"];
    let new = ["enabled: trwe", "limits_neu:", "memory: 1"];
    let after = ["enabled: true", "limits_neu:", "memory: 1"];
    let refused = check(&before, &after, &search, &new).unwrap_err();
    assert!(
        refused.contains("reads `enabled: trwe` where the file has `enabled: true`"),
        "{refused}"
    );
    assert!(
        refused.contains("`limits_neu:`, which it would write, has `u` too"),
        "{refused}"
    );
    // A line written without the slip's characters is no suspect.
    let new = ["enabled: trwe", "limits_next:", "memory: 1"];
    let after = ["enabled: true", "limits_next:", "memory: 1"];
    assert_eq!(check(&before, &after, &search, &new), Ok(()));
}

#[test]
fn a_slip_is_measured_in_characters_not_in_the_key_s_spacing() {
    // `'` and `1` swapped throughout: the key spaces out the file's
    // `'` (`channel ' s`), yet the slip is one character for another,
    // and the line written has the other one.
    let before = [
        "/ / the channel ' s kind",
        "if limit > 58 {",
        "emit ( 44 ) ;",
    ];
    let search = ["/ / the channel1s kind", "if limit > 58 {", "emit ( 44 ) ;"];
    let new = [
        "/ / the channel1s kind",
        "if limit > 6 ' {",
        "emit ( 44 ) ;",
    ];
    let after = [
        "/ / the channel ' s kind",
        "if limit > 6 ' {",
        "emit ( 44 ) ;",
    ];
    let c = Check {
        stale: vec![("/ / the channel1s kind", "/ / the channel ' s kind")],
        ..plain(&before, &after, &search, &new)
    };
    let refused = c.run().unwrap_err();
    assert!(
        refused.contains("`if limit > 6 ' {`, which it would write, has `'` too"),
        "{refused}"
    );
}

#[test]
fn a_search_line_paired_with_a_file_line_that_reads_otherwise_is_a_slip() {
    // `}` and `_` swapped: the search's `_` stands where the file has
    // `}`, two lines no likeness relates; the alignment pairs them.
    let before = ["resolve ( header ) ;", "return count ;", "}"];
    let search = ["resolve ( header ) ;", "return count ;", "_"];
    let new = ["resolve}v2 ( header ) ;", "return count ;", "_"];
    let after = ["resolve}v2 ( header ) ;", "return count ;", "}"];
    let c = Check {
        misread: vec![("_", "}")],
        ..plain(&before, &after, &search, &new)
    };
    let refused = c.run().unwrap_err();
    assert!(
        refused.contains("reads `_` where the file has `}`"),
        "{refused}"
    );
    assert_eq!(plain(&before, &after, &search, &new).run(), Ok(()));
}

#[test]
fn a_word_the_search_has_right_elsewhere_is_no_sign_of_a_slip_of_the_hand() {
    // `_` and `,` swapped throughout: `config , child` reads
    // `config_ child`. new_content has `config` right, but so does the
    // search on another line: the written `count , alt` is suspect.
    let before = ["fetch ( config , child ) ;", "emit ( config . count ) ;"];
    let search = ["fetch ( config_ child ) ;", "emit ( config . count ) ;"];
    let new = [
        "fetch ( config_ child ) ;",
        "emit ( config . count , alt ) ;",
    ];
    let after = [
        "fetch ( config , child ) ;",
        "emit ( config . count , alt ) ;",
    ];
    let c = Check {
        stale: vec![("fetch ( config_ child ) ;", "fetch ( config , child ) ;")],
        ..plain(&before, &after, &search, &new)
    };
    let refused = c.run().unwrap_err();
    assert!(refused.contains("has `,` too"), "{refused}");
}

#[test]
fn a_rewrite_that_spells_the_file_s_word_right_is_a_slip_of_the_hand() {
    // The search misspells `column_kind` on the line the caller
    // rewrites, and the rewrite spells it right: a slip of the hand,
    // though `r` is on a line written and the search has `column_kind`
    // right elsewhere.
    let before = ["let column_kind = width ;", "scan ( column_kind ) ;"];
    let search = ["let rolumn_kind = width ;", "scan ( column_kind ) ;"];
    let new = [
        "let column_kind_next = width ;",
        "audit ( ledger ) ;",
        "scan ( column_kind ) ;",
    ];
    let after = [
        "let column_kind_next = width ;",
        "audit ( ledger ) ;",
        "scan ( column_kind ) ;",
    ];
    assert_eq!(plain(&before, &after, &search, &new).run(), Ok(()));
}

#[test]
fn a_slip_of_the_hand_on_a_character_copied_right_elsewhere_taints_nothing() {
    // `retrun` is a slip: `u` and `r` are right on the other lines, so
    // the caller's text does not garble them throughout.
    let before = ["let sum = run(a);", "return sum;", "done();"];
    let search = ["let sum = run(a);", "retrun sum;", "done();"];
    let new = ["let sum = run(a) + run(b);", "retrun sum;", "done();"];
    let after = ["let sum = run(a) + run(b);", "return sum;", "done();"];
    assert_eq!(check(&before, &after, &search, &new), Ok(()));
}

#[test]
fn invisible_characters_the_region_lacks_are_never_written() {
    let mut c = Check {
        before: vec!["a"],
        after: vec!["b"],
        search: vec!["a"],
        new: vec!["b"],
        new_order: vec!["b"],
        stale: vec![],
        misread: vec![],
        nearby: vec!["a"],
        nearby_after: vec!["b"],
        splice: 0..2,
        region: 0..2,
        elided: false,
        takes_break_before: false,
        invisible_written: vec!['\u{ad}'],
        spacing: no_spacing(),
        depths: no_depths(),
        outside_once: Vec::new(),
        shown: HashMap::new(),
        edges: Default::default(),
    };
    let refused = c.run().unwrap_err();
    assert!(
        refused.contains("invisible character (U+00AD)"),
        "{refused}"
    );
    c.invisible_written.clear();
    assert_eq!(c.run(), Ok(()));
}

#[test]
fn the_caller_s_change_passes() {
    assert_eq!(
        check(
            &["a", "b ;", "c"],
            &["a", "b2 ;", "c"],
            &["a", "b ;", "c"],
            &["a", "b2 ;", "c"]
        ),
        Ok(())
    );
    // A typo in the search, a stale line the caller keeps (the typo's
    // `a` copied right on another line: a slip of the hand).
    assert_eq!(
        check(
            &["let total = 1 ;", "go ( a )", "now ( )"],
            &["let total = 2 ;", "go ( a )", "now ( )"],
            &["let totl = 1 ;", "go ( a )", "then ( )"],
            &["let totl = 2 ;", "go ( a )", "then ( )"]
        ),
        Ok(())
    );
    // With `a` nowhere right, the line written may carry the slip.
    assert!(
        check(
            &["let total = 1 ;", "go ( )", "now ( )"],
            &["let total = 2 ;", "go ( )", "now ( )"],
            &["let totl = 1 ;", "go ( )", "then ( )"],
            &["let totl = 2 ;", "go ( )", "then ( )"]
        )
        .is_err()
    );
}

#[test]
fn a_line_of_new_content_the_file_has_once_just_outside_the_region_fails() {
    // The caller's block is further on: its line is there, once.
    let mut c = Check {
        stale: vec![("call_b();", "call_a();")],
        misread: vec![],
        nearby: vec!["fn a() {", "call_a();", "}", "call_b();"],
        nearby_after: vec!["fn a() {", "call_a();", "extra();", "}", "call_b();"],
        outside_once: vec![("call_b();", 4)],
        shown: HashMap::new(),
        edges: Default::default(),
        ..plain(
            &["fn a() {", "call_a();"],
            &["fn a() {", "call_a();", "extra();"],
            &["fn a() {", "call_b();"],
            &["fn a() {", "call_b();", "extra();"],
        )
    };
    let err = c.run().unwrap_err();
    assert!(
        err.contains("`call_b();`, which new_content has, is line 4 of the file"),
        "{err}"
    );
    c.outside_once.clear();
    assert_eq!(c.run(), Ok(()));
}

#[test]
fn a_line_new_content_has_as_the_file_has_it_is_never_removed() {
    // Two lines alike up to a typo (`#comment`, `# comment`): the plan
    // keeps the look-alike and drops the line the caller wrote out.
    let before = ["x = \"#comment\"", "x = \"# comment\"", "end"];
    let search = ["x = \"#cofment\"", "x = \"# comment\"", "end"];
    let new = ["x = \"#comment\"", "y = \"# comment\"", "end"];
    let after = ["x = \"# comment\"", "y = \"# comment\"", "end"];
    let err = check(&before, &after, &search, &new).unwrap_err();
    assert!(
        err.contains(
            "`x = \"#comment\"`, which new_content has as the file has it, would be removed"
        ),
        "{err}"
    );
}

#[test]
fn a_stale_line_whose_file_version_new_content_has_is_two_lines() {
    let mut c = Check {
        stale: vec![("ptr(\"/\")", "ptr(\"/one/1\")")],
        misread: vec![],
        nearby: vec![],
        nearby_after: vec![],
        ..plain(
            &["a", "ptr(\"/one/1\")", "b"],
            &["a", "ptr(\"/one/1\")", "ptr(\"/one/1\")", "b"],
            &["a", "ptr(\"/\")", "b"],
            &["a", "ptr(\"/\")", "ptr(\"/one/1\")", "b"],
        )
    };
    let err = c.run().unwrap_err();
    assert!(
        err.contains("which new_content has as a line of its own"),
        "{err}"
    );
    c.stale.clear();
    assert!(
        !c.run()
            .err()
            .unwrap_or_default()
            .contains("line of its own")
    );
}

#[test]
fn numbers_written_into_the_file_fail() {
    let err = check(
        &["a = 1", "b = 2"],
        &["a = 1", "13 : b = 3"],
        &["12 : a = 1", "13 : b = 2"],
        &["12 : a = 1", "13 : b = 3"],
    )
    .unwrap_err();
    assert!(err.contains("remove `b = 2`"), "{err}");
}

#[test]
fn a_look_alike_edited_instead_fails() {
    let err = check(
        &["other_name ( x )", "common ( )"],
        &["other_name ( y )", "common ( )"],
        &["gone_name ( x )", "common ( )"],
        &["gone_name ( y )", "common ( )"],
    )
    .unwrap_err();
    assert!(err.contains("would write `other_name ( y )`"), "{err}");
}

#[test]
fn a_change_not_made_fails() {
    let err = check(&["a", "b"], &["a", "b"], &["a", "b"], &["a", "b", "c"]).unwrap_err();
    assert!(err.contains("`c`"), "{err}");
    let err = check(&["a", "b"], &["a", "b"], &["a", "b"], &["a"]).unwrap_err();
    assert!(err.contains("would stay"), "{err}");
}

#[test]
fn bytes_outside_the_region_fail() {
    let c = Check {
        before: vec![],
        after: vec![],
        search: vec![],
        new: vec![],
        new_order: vec![],
        stale: vec![],
        misread: vec![],
        nearby: vec![],
        nearby_after: vec![],
        splice: 5..20,
        region: 10..20,
        elided: false,
        takes_break_before: false,
        invisible_written: Vec::new(),
        spacing: no_spacing(),
        depths: no_depths(),
        outside_once: Vec::new(),
        shown: HashMap::new(),
        edges: Default::default(),
    };
    assert!(c.run().is_err());
}

#[test]
fn the_caller_s_lines_in_another_order_fail() {
    let err = check(
        &["a", "b", "c"],
        &["a", "b", "x", "c"],
        &["a", "b", "c"],
        &["a", "x", "b", "c"],
    )
    .unwrap_err();
    assert!(err.contains("between other lines"), "{err}");
    // Next to a look-alike of the line the caller wrote, while the file
    // has that very line.
    let err = check(
        &["le16 = u16", "be16 = u16", "c"],
        &["le16 = u16", "be16 = u16", "x", "c"],
        &["le16 = u16", "c"],
        &["le16 = u16", "x", "c"],
    )
    .unwrap_err();
    assert!(err.contains("between other lines"), "{err}");
}

#[test]
fn a_hidden_line_goes_only_as_written_out_or_under_a_marker() {
    let mut c = Check {
        before: vec!["a", "audit cache 324", "b"],
        after: vec!["a", "audit cache 325", "b"],
        search: vec!["a", "b"],
        new: vec!["a", "audit cache 325", "b"],
        new_order: vec!["a", "audit cache 325", "b"],
        stale: vec![],
        misread: vec![],
        nearby: vec!["a", "audit cache 324", "b"],
        nearby_after: vec!["a", "audit cache 325", "b"],
        splice: 10..20,
        region: 10..20,
        elided: false,
        takes_break_before: false,
        invisible_written: Vec::new(),
        spacing: no_spacing(),
        depths: no_depths(),
        outside_once: Vec::new(),
        shown: HashMap::new(),
        edges: Default::default(),
    };
    let err = c.run().unwrap_err();
    assert!(err.contains("would remove"), "{err}");
    c.elided = true;
    c.new_order = vec!["a", MARKER_KEY, "audit cache 325", "b"];
    assert_eq!(c.run(), Ok(()));
}

#[test]
fn a_line_the_plan_puts_elsewhere_than_new_content_is_refused() {
    // The search has `}` and the `console` line in another order than the
    // file; new_content has them in the file's order, so the merge moved
    // the `}` on top of the file's order. Line by line each written line
    // sits between lines new_content puts it between (the two `}` are
    // alike); only the order of the whole says the `}` moved.
    let before = ["if (x) {", "console.log(1);", "}", "return y;", "}"];
    let search = ["if (x) {", "}", "console.log(1);", "}", "return y;"];
    let new = [
        "if (x) {",
        "}",
        "console.log(1);",
        "return_next y;",
        "added();",
        "}",
    ];
    let after = [
        "if (x) {",
        "console.log(1);",
        "return_next y;",
        "added();",
        "}",
        "}",
    ];
    let c = plain(&before, &after, &search, &new);
    let refused = c.in_order().unwrap_err();
    assert!(
        refused.contains("it would put `}` elsewhere among the lines than new_content puts it"),
        "{refused}"
    );
    let right = [
        "if (x) {",
        "console.log(1);",
        "}",
        "return_next y;",
        "added();",
        "}",
    ];
    let new = [
        "if (x) {",
        "console.log(1);",
        "}",
        "return_next y;",
        "added();",
        "}",
    ];
    assert_eq!(plain(&before, &right, &search, &new).in_order(), Ok(()));
    // A line the caller keeps that the file lacks is no move.
    let after = [
        "if (x) {",
        "console.log(1);",
        "return_next y;",
        "added();",
        "}",
    ];
    assert_eq!(plain(&before, &after, &search, &new).in_order(), Ok(()));
}

#[test]
fn a_line_written_beside_its_copy_just_outside_the_region_is_refused() {
    // new_content starts with `}`, which the search does not have and the
    // file has just before the region: written, the file would have two.
    let before = ["if (n > 33) {", "emit(id);", "}", "emit(score);"];
    let search = ["if (n > 33) {", "emit(id);", "}", "emit(score);"];
    let new = ["}", "if (n > 35) {", "emit(id);", "emit(score);"];
    let after = ["}", "if (n > 35) {", "emit(id);", "emit(score);"];
    let mut c = plain(&before, &after, &search, &new);
    c.nearby = [
        "render(x);",
        "}",
        "if (n > 33) {",
        "emit(id);",
        "}",
        "emit(score);",
    ]
    .to_vec();
    c.nearby_after = [
        "render(x);",
        "}",
        "}",
        "if (n > 35) {",
        "emit(id);",
        "emit(score);",
    ]
    .to_vec();
    let refused = c.no_line_doubled().unwrap_err();
    assert!(
        refused.contains("it would leave two `}` next to each other"),
        "{refused}"
    );
    // A pair new_content has, or the file had, is no harm.
    c.nearby = [
        "render(x);",
        "}",
        "}",
        "if (n > 33) {",
        "emit(id);",
        "emit(score);",
    ]
    .to_vec();
    assert_eq!(c.no_line_doubled(), Ok(()));
}

#[test]
fn the_file_s_line_a_rewritten_search_line_was_read_as_goes_too() {
    // The search's `offset` line is the file's `offset9` misread (it stands
    // across a neighbour, just outside the region); new_content rewrites it.
    // The plan wrote the rewrite and left `offset9`.
    let before = ["# don't retry", "emit(kind)"];
    let search = ["# don't retry", "Scans offset.", "emit(kind)"];
    let new = ["Scans the_alt offset.", "# don't retry", "emit(kind)"];
    let after = ["Scans the_alt offset.", "# don't retry", "emit(kind)"];
    let mut c = plain(&before, &after, &search, &new);
    c.nearby = [
        "def load():",
        "Scans offset9.",
        "# don't retry",
        "emit(kind)",
    ]
    .to_vec();
    c.nearby_after = [
        "def load():",
        "Scans offset9.",
        "Scans the_alt offset.",
        "# don't retry",
        "emit(kind)",
    ]
    .to_vec();
    c.misread = vec![("Scans offset.", "Scans offset9.")];
    let refused = c.run().unwrap_err();
    assert!(
        refused.contains("it reads `Scans offset.` as the file's `Scans offset9.`, which new_content removes or rewrites, and would leave that line in the file"),
        "{refused}"
    );
    // Where new_content writes the file's line itself, it stays.
    let before = ["Scans offset9.", "emit(kind)"];
    let search = ["Scans offset.", "emit(kind)"];
    let new = ["Scans offset9.", "emit(kind2)"];
    let after = ["Scans offset9.", "emit(kind2)"];
    let mut c = plain(&before, &after, &search, &new);
    c.misread = vec![("Scans offset.", "Scans offset9.")];
    assert_eq!(c.run(), Ok(()));
}

#[test]
fn a_rewrite_stands_for_its_own_line_only() {
    let start = "def doc_options_start ( self , help_command , * * kwargs ) :";
    let start_next = "def doc_options_start ( self , help_command_next , * * kwargs ) :";
    // The closest pair is taken: `start_next` is the rewrite of `start`,
    // and only `pass` is left to write out a hidden line.
    assert_eq!(
        split_rewrites(&[start], &["pass", start_next]).1,
        vec!["pass"]
    );
    // A line removed with no look-alike added leaves every added line free.
    assert_eq!(split_rewrites(&["x = 1"], &["pass"]).1, vec!["pass"]);
}
