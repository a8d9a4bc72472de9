//! Blocks among look-alike lines, found by the drift fuzzer
//! (`cargo bench --bench edit_code_drift`) on real files: a search that
//! leaves out the middle of a run of similar lines (constant tables, small
//! wrapper functions) can score well against a window of the same length
//! that starts at the wrong line. The lines new_content writes out then land
//! next to their own copies. Each test checks the exact bytes written.

#[path = "edit_outcome/mod.rs"]
mod edit_outcome;

use edit_outcome::{apply, intended_or_refused};
use mcp_server_text::text::fuzzy::{EditRequest, Refusal, plan_edit};

// The cases that check the edit as intended or a refusal are ones the
// matcher may refuse (their drift leaves more than one reading open); a
// written result must be exactly the intended one.

const TABLE: &str = "\
/* generated */

pub const CACHE_ONE_SIZE: u32 = 40;
pub const CACHE_ONE_SHAPE: u32 = 41;
pub const CACHE_TWO_SIZE: u32 = 42;
pub const CACHE_TWO_SHAPE: u32 = 43;
pub const CACHE_THREE_SIZE: u32 = 44;
pub const CACHE_THREE_SHAPE: u32 = 45;
pub const CACHE_FOUR_SIZE: u32 = 46;
pub const CACHE_FOUR_SHAPE: u32 = 47;
pub const VECTOR_SIZE: u32 = 10;
pub const MIN_STACK: u32 = 51;
pub const NULL: u32 = 0;
pub const IGNORE: u32 = 1;
pub const EXEC_FD: u32 = 2;
pub const HEADER: u32 = 3;
pub const ENTRY: u32 = 4;
pub const COUNT: u32 = 5;
pub const PAGE: u32 = 6;
pub const BASE: u32 = 7;
";

#[test]
fn a_table_with_its_middle_left_out_is_not_read_as_a_shifted_window() {
    // The search shows two lines, skips four, and goes on; it is shifted
    // by two spaces and has trailing spaces. new_content writes the four
    // lines out and renames one constant further down.
    let search = "  pub const CACHE_ONE_SHAPE: u32 = 41;  \n  pub const CACHE_TWO_SIZE: u32 = 42;  \n  pub const CACHE_FOUR_SHAPE: u32 = 47;\n  pub const VECTOR_SIZE: u32 = 10;\n  pub const MIN_STACK: u32 = 51;\n  pub const NULL: u32 = 0;  \n  pub const IGNORE: u32 = 1;\n  pub const EXEC_FD: u32 = 2;\n  pub const HEADER: u32 = 3;\n  pub const ENTRY: u32 = 4;\n  pub const COUNT: u32 = 5;\n  pub const PAGE: u32 = 6;\n";
    let new = "  pub const CACHE_ONE_SHAPE: u32 = 41;  \n  pub const CACHE_TWO_SIZE: u32 = 42;\n  pub const CACHE_TWO_SHAPE: u32 = 43;\n  pub const CACHE_THREE_SIZE: u32 = 44;\n  pub const CACHE_THREE_SHAPE: u32 = 45;\n  pub const CACHE_FOUR_SIZE: u32 = 46;\n  pub const CACHE_FOUR_SHAPE: u32 = 47;\n  pub const VECTOR_SIZE: u32 = 10;\n  pub const MIN_STACK_LIMIT: u32 = 51;\n  pub const NULL: u32 = 0;  \n  pub const IGNORE: u32 = 1;\n  pub const EXEC_FD: u32 = 2;\n  pub const HEADER: u32 = 3;\n  pub const ENTRY: u32 = 4;\n  pub const COUNT: u32 = 5;\n  pub const PAGE: u32 = 6;\n";
    let want = TABLE.replace("MIN_STACK:", "MIN_STACK_LIMIT:");
    assert_eq!(apply(TABLE, search, new).unwrap(), want);
}

const WRAPPERS: &str = "\
/* Use this to turn the result of a comparison into a Bool.  This is
   useful when compiling with very strict
   compilation flags (-Wall). */
static inline Bool toBool ( Int x ) {
   Int r = (x == 0) ? False : True;
   return (Bool)r;
}
static inline UChar toUChar ( Int x ) {
   x &= 0xFF;
   return (UChar)x;
}
static inline HChar toHChar ( Int x ) {
   x &= 0xFF;
   return (HChar)x;
}
";

#[test]
fn a_search_that_skips_a_middle_is_not_cut_short_at_a_similar_line() {
    // Head and tail of the block with three lines left out between, no
    // final line break, a trailing space; the tail's lines read like lines
    // inside the left-out middle.
    let search = "   compilation flags (-Wall). */\nstatic inline Bool toBool ( Int x ) {\n   Int r = (x == 0) ? False : True; \n   x &= 0xFF;\n   return (UChar)x;";
    let new = "   compilation flags (-Wall). */\nstatic inline Bool toBool ( Int x ) {\n   Int r = (x == 0) ? False : True;\n   return (Bool)r;\n}\nstatic inline UChar toUChar ( Int x ) {\n   x &= 0xFF;\n   return (UChar)(x & 0xFF);";
    let want = WRAPPERS.replace("return (UChar)x;", "return (UChar)(x & 0xFF);");
    match apply(WRAPPERS, search, new) {
        Ok(got) => assert_eq!(got, want),
        // Refusing is acceptable here; writing anything else is not.
        Err(refusal) => assert!(
            matches!(refusal, Refusal::NotFound { .. } | Refusal::Conflict { .. }),
            "{refusal}"
        ),
    }
}

#[test]
fn a_short_search_among_look_alikes_is_applied_right_or_refused() {
    // The search's first line pairs best with a look-alike two lines down;
    // new_content has both lines, so the search line is not a misremembered
    // version of that look-alike.
    let search = "pub const CACHE_ONE_SHAPE: u32 = 41;\npub const CACHE_TWO_SIZE: u32 = 42;\npub const CACHE_FOUR_SHAPE: u32 = 47;\npub const VECTOR_SIZE: u32 = 10;\n";
    let new = "pub const CACHE_ONE_SHAPE: u32 = 41;\npub const CACHE_TWO_SIZE: u32 = 42;\npub const CACHE_TWO_SHAPE: u32 = 43;\npub const CACHE_THREE_SIZE: u32 = 44;\npub const CACHE_THREE_SHAPE: u32 = 45;\npub const CACHE_FOUR_SIZE: u32 = 46;\npub const CACHE_FOUR_SHAPE: u32 = 47;\npub const VECTOR_SIZE: u32 = 11;\n";
    let want = TABLE.replace("VECTOR_SIZE: u32 = 10;", "VECTOR_SIZE: u32 = 11;");
    match apply(TABLE, search, new) {
        Ok(got) => assert_eq!(got, want),
        // Two windows read about as well: refusing is right too.
        Err(refusal) => assert!(
            matches!(
                refusal,
                Refusal::Ambiguous { .. } | Refusal::NotFound { .. }
            ),
            "{refusal}"
        ),
    }
}

const HEADER: &str = "\
#endif

int err_get_next_library(void);

int err_set_mark(void);
int err_pop_to_mark(void);
int err_clear_last_mark(void);

#ifdef __cplusplus
}
#endif
";

#[test]
fn a_blank_line_the_search_shows_before_a_marker_is_not_added_by_new_content() {
    // The search remembers a blank line after `err_set_mark` that the file
    // does not have, then elides two lines; new_content writes them out and
    // keeps the remembered blank line. Nothing the caller saw on disk was a
    // blank line there, so none is added.
    let search = "int err_get_next_library(void);\n\nint err_set_mark(void);\n\n// ...\n#ifdef __cplusplus\n";
    let new = "int err_get_next_library(void);\n\nint err_set_mark_checked(void);\n\nint err_pop_to_mark(void);\nint err_clear_last_mark(void);\n\n#ifdef __cplusplus\n";
    let want = HEADER.replace("err_set_mark(void)", "err_set_mark_checked(void)");
    intended_or_refused(apply(HEADER, search, new), &want);
}

const COMMANDS: &str = "\
COMMANDS = {
    \"hash\": CommandInfo(
        \"pip.commands.hash\",
        \"HashCommand\",
        \"Compute hashes of package archives.\",
    ),
    \"completion\": CommandInfo(
        \"pip.commands.completion\",
        \"CompletionCommand\",
        \"A helper command used for command completion.\",
    ),
    \"debug\": CommandInfo(
        \"pip.commands.debug\",
        \"DebugCommand\",
        \"Show information useful for debugging.\",
    ),
}
";

#[test]
fn lines_written_next_to_their_own_copies_are_refused() {
    // A marker at the very end stands for an open stretch; the matcher must
    // not read it as standing for nothing and then write out, right before
    // them, lines the file already has.
    let search = "        \"Compute hashes of package archives.\",\n    ),\n    \"completion\": CommandInfo(\n        \"pip.commands.completion\",\n        ...\n\n\n";
    let new = "        \"Compute hashes of package archives.\",\n    ),\n    \"completion\": CommandInfo(\n        \"pip.commands.completion\",\n        \"CompletionCommand\",\n        \"A helper command for command completion.\",\n    ),\n    \"debug\": CommandInfo(\n        \"pip.commands.debug\",\n\n\n";
    match apply(COMMANDS, search, new) {
        Ok(got) => assert_eq!(
            got,
            COMMANDS.replace("A helper command used for", "A helper command for"),
            "an applied edit must be exactly the intended one"
        ),
        Err(refusal) => assert!(
            matches!(
                refusal,
                Refusal::Unverified { .. } | Refusal::NotFound { .. } | Refusal::Conflict { .. }
            ),
            "{refusal}"
        ),
    }
}

const BINDINGS: &str = "\
    #[cfg(feature = \"FileHandle\")]
    #[wasm_bindgen(
        method,
        js_class = \"TransferItem\",
        js_name = \"getAsFileHandle\"
    )]
    #[doc = \"The `getAsFileHandle()` method.\"]
    #[doc = \"\"]
    #[doc = \"[Documentation](https://example.org/docs/TransferItem/getAsFileHandle)\"]
    #[doc = \"\"]
    #[doc = \"*This API requires the following crate features to be activated: `TransferItem`*\"]
    pub fn get_as_file_handle(this: &TransferItem) -> Promise;
";

#[test]
fn one_of_several_copies_of_a_line_is_not_lost_to_a_pairing_one_line_off() {
    // A typo in one of two `#[doc = ""]` lines, which new_content corrects;
    // the search ends before the second copy. Pairing new_content's copy
    // with the second one would delete the first.
    let search = "    #[cfg(feature = \"FileHandle\")]\n    #[wasm_bindgen(\n        method,\n        js_class = \"TransferItem\",\n        js_name = \"getAsFileHandle\"\n    )]\n    #[doc = \"The `getAsFileHandle()` method.\"]\n    #[dc = \"\"]\n    #[doc = \"[Documentation](https://example.org/docs/TransferItem/getAsFileHandle)\"]";
    let new = "    #[cfg(feature = \"FileHandle\")]\n    #[wasm_bindgen(\n        // checked again below\n        method,\n        js_class = \"TransferItem\",\n        js_name = \"getAsFileHandle\"\n    )]\n    #[doc = \"The `getAsFileHandle()` method.\"]\n    #[doc = \"\"]\n    #[doc = \"[Documentation](https://example.org/docs/TransferItem/getAsFileHandle2)\"]";
    let want = BINDINGS
        .replace(
            "    #[wasm_bindgen(\n",
            "    #[wasm_bindgen(\n        // checked again below\n",
        )
        .replace("getAsFileHandle)\"]", "getAsFileHandle2)\"]");
    match apply(BINDINGS, search, new) {
        Ok(got) => assert_eq!(got, want),
        Err(refusal) => assert!(
            matches!(
                refusal,
                Refusal::Unverified { .. } | Refusal::Conflict { .. }
            ),
            "{refusal}"
        ),
    }
}

/// Generated bindings: many blocks that differ in one line, more than the
/// matcher weighs when it ranks places by the lines they share.
fn bindings() -> String {
    let verbs = [
        "attach", "bind", "blend", "clear", "copy", "cull", "draw", "flush", "get",
    ];
    let things = [
        "Attrib", "Buffer", "Frame", "Pixel", "Shader", "Stencil", "Texture", "Vertex",
    ];
    let mut out = String::from("extern \"C\" {\n");
    for verb in verbs {
        for thing in things {
            out.push_str(&format!(
                "    #[wasm_bindgen(\n        method,\n        js_class = \"Context\",\n        js_name = \"{verb}{thing}Location\"\n    )]\n    pub fn {verb}_{thing}_location(this: &Context);\n"
            ));
        }
    }
    out.push_str("}\n");
    out
}

#[test]
fn a_typo_among_generated_blocks_finds_its_own_block() {
    // Every block shares its first lines with seventy others; the typo'd
    // line is the only one that tells them apart, and it must decide (the
    // right block lay past the places ranked by the shared lines alone).
    let file = bindings();
    let search = "        method,\n        js_class = \"Context\",\n        js_name = \"egtAttribLocation\"\n";
    let new = "        method,\n        js_class = \"Context2\",\n        js_name = \"getAttribLocation\"\n";
    let want = file.replace(
        "        js_class = \"Context\",\n        js_name = \"getAttribLocation\"",
        "        js_class = \"Context2\",\n        js_name = \"getAttribLocation\"",
    );
    match apply(&file, search, new) {
        Ok(got) => assert_eq!(got, want),
        // Refused as ambiguous among the generated look-alikes.
        Err(e) => assert!(matches!(e, Refusal::Ambiguous { .. }), "{e:?}"),
    }
}

const IMPORTS: &str = "\
\"\"\"Readers and writers.\"\"\"

from graphs.readwrite.adjlist import *
from graphs.readwrite.multiline import *
from graphs.readwrite.edgelist import *
from graphs.readwrite.pajek import *
from graphs.readwrite.leda import *
from graphs.readwrite.sparse import *
from graphs.readwrite.dense import *
from graphs.readwrite.gml import *
from graphs.readwrite.graphml import *
from graphs.readwrite.gexf import *
from graphs.readwrite.json_graph import *
from graphs.readwrite.text import *
";

#[test]
fn last_lines_that_follow_past_look_alikes_are_not_paired_with_them() {
    // The search leaves out the middle of a run of imports and ends with
    // the last two; new_content writes the middle out and changes those
    // two. Paired with the look-alike imports of the middle, they would be
    // written a second time below while the originals stayed: the edit is
    // applied right or refused.
    let search = "from graphs.readwrite.adjlist import *\nfrom graphs.readwrite.multiline import *\nfrom graphs.readwrite.edgelist import *\n\nfrom graphs.readwrite.pajek import *\nfrom graphs.readwrite.json_graph import *\nfrom graphs.readwrite.text import *\n";
    let new = "from graphs.readwrite.adjlist import *\nfrom graphs.readwrite.multiline import *\nfrom graphs.readwrite.edgelist import *\nfrom graphs.readwrite.pajek import *\nfrom graphs.readwrite.leda import *\nfrom graphs.readwrite.sparse import *\nfrom graphs.readwrite.dense import *\nfrom graphs.readwrite.gml import *\nfrom graphs.readwrite.graphml import *\nfrom graphs.readwrite.gexf import *\nfrom graphs2.readwrite.json_graph import *\nfrom graphs2.readwrite.text import *\n";
    let want = IMPORTS
        .replace(
            "graphs.readwrite.json_graph",
            "graphs2.readwrite.json_graph",
        )
        .replace("graphs.readwrite.text", "graphs2.readwrite.text");
    match apply(IMPORTS, search, new) {
        Ok(got) => assert_eq!(got, want),
        Err(e) => assert!(
            matches!(e, Refusal::Conflict { .. } | Refusal::Ambiguous { .. }),
            "{e:?}"
        ),
    }
}

#[test]
fn an_ellipsis_the_file_has_elsewhere_still_stands_for_lines_left_out() {
    // The file has a `...` body further down, so the search's `...` reads
    // as a line of text; nowhere near the block, it stood for the class's
    // fields, which new_content writes out with one more. Reading it as a
    // line the file lacks wrote a field twice.
    let file = "class Static(NamedTuple):\n    name: str\n    value: bool\n\n\nclass Param(NamedTuple):\n    name: str\n    member: str\n\n\nclass Client(NamedTuple):\n    name: str\n    doc: str\n\n\ndef stub():\n    ...\n";
    let search = "class Static(NamedTuple):\n\n    name: str\n    value: bool\n\n\nclass Param(NamedTuple):\n    ...\n\n\nclass Client(NamedTuple):\n";
    let new = "class Static(NamedTuple):\n    label: str\n    value: bool\n\n\nclass Param(NamedTuple):\n    name: str\n    member: str\n\n\nclass Client(NamedTuple):\n";
    let want = file.replacen("    name: str\n    value", "    label: str\n    value", 1);
    match apply(file, search, new) {
        Ok(got) => assert_eq!(got, want),
        Err(e) => assert!(
            matches!(
                e,
                Refusal::NotFound { .. } | Refusal::Conflict { .. } | Refusal::Unverified { .. }
            ),
            "{e:?}"
        ),
    }
}

#[test]
fn a_look_alike_of_the_left_out_middle_is_not_taken_for_the_first_lines() {
    // Two functions of one name, one comma apart. The search is the first
    // and the function after the second; new_content changes the first and
    // writes the second out. Pairing the search's first function with the
    // second (new_content has that one's lines, which looks like a stale
    // line corrected) put the changed copy above it and left the first as
    // it was.
    let file = "def fv(\n    *v,  # type: V\n):\n    pass\n\ndef fv(\n    *v  # type: V\n):\n    pass\n\ndef fk(\n    **k,  # type: K\n):\n    pass\n";
    let search =
        "\ndef fv(\n    *v,  # type: V\n):\n    pass\n\n\ndef fk(\n    **k,  # type: K\n):\n";
    let new = "\ndef fv(\n    *v,  # type: W\n):\n    pass\n\ndef fv(\n    *v  # type: V\n):\n    pass\n\ndef fk(\n    **k,  # type: K\n):\n";
    let want = file.replacen("# type: V", "# type: W", 1);
    match apply(file, search, new) {
        Ok(got) => assert_eq!(got, want),
        Err(e) => assert!(
            matches!(
                e,
                Refusal::NotFound { .. } | Refusal::Conflict { .. } | Refusal::Unverified { .. }
            ),
            "{e:?}"
        ),
    }
}

#[test]
fn a_misspelling_is_a_word_the_file_does_not_have() {
    // `setter` for `getter` is one letter off, but the file has `setter`
    // too: the search names another line, not this one misspelt, and
    // nothing else of what the caller keeps confirms the place.
    let file = "config.getter = read(a);\nconfig.flag = true;\nconfig.setter = write(b);\n";
    let search = "config.setter = read(a);\nconfig.flag = true;";
    let new = "config.setter = read(a);\nconfig.flag = false;";
    let refusal = apply(file, search, new).unwrap_err();
    assert!(
        matches!(refusal, Refusal::NotFound { .. } | Refusal::Conflict { .. }),
        "{refusal:?}"
    );
    // Where the file has no such word, the same slip is a typo.
    let file = "config.getter = read(a);\nconfig.flag = true;\nconfig.other = write(b);\n";
    assert_eq!(
        apply(
            file,
            "config.gettr = read(a);\nconfig.flag = true;",
            "config.getter = read(a);\nconfig.flag = false;"
        )
        .unwrap(),
        "config.getter = read(a);\nconfig.flag = false;\nconfig.other = write(b);\n"
    );
}

/// Two lines of the file that differ only by a space inside a string have
/// the same key; the line new_content keeps exactly as the file has it is the
/// one that stays, and the other one is the one changed, or the edit is
/// refused. It is never the kept line that goes.
#[test]
fn of_two_lines_that_differ_only_by_a_space_the_one_kept_exactly_stays() {
    let file = "CASES = (\n    (Comment(\"#comment text\"), \"#comment text\"),\n    (Comment(\"# comment text\"), \"# comment text\"),\n)\n\ndef test_valid(node, code):\n    validate(node, code)\n";
    let search = "    (Comment(\"#comment text\"), \"#cofment text\"),\n\n    (Comment(\"# comment text\"), \"# comment text\"),\n)\n\ndef test_valid(node, code):\n    validate(node, code)\n";
    let new = "    (Comment(\"#comment text\"), \"#comment text\"),\n\n    (Comment_next(\"# comment text\"), \"# comment text\"),\n)\n\ndef test_valid(node, code):\n    validate(node, code)\n";
    match plan_edit(file, &EditRequest::new(search, new)) {
        Ok(plan) => assert_eq!(
            plan.apply_to(file),
            file.replace("(Comment(\"# comment", "(Comment_next(\"# comment")
        ),
        Err(refusal) => assert!(refusal.to_string().contains("#comment text"), "{refusal}"),
    }
}

/// The search's last line reads the file's next line with a slip (`.` for
/// `2`), too unlike to be paired, so the match ends above it; that line is
/// still the caller's misreading of the file, and a line written with the
/// slip's character is refused rather than written.
#[test]
fn a_slip_on_a_search_line_just_past_the_match_still_taints_the_lines_written() {
    let file = "version: 2\n\nchannel-check:\n  name: cursor\n  enabled: false\n  # entrys arrive sorted by weight\n  limits:\n    cpu: \"533m\"\n    memory: \"694Mi\"\n  ports:\n    - 4042\n    - 6847\n    - 8001\n  description: \"build finished for the ledger\"\n\nrequest-trim:\n  name: header\n  enabled: true\n  # don't retry here - the caller's loop handles it\n  limits:\n    cpu: \"656m\"\n    memory: \"95Mi\"\n  ports:\n    - 3904\n    - 2691\n  description: \"done with table\"\n\nledger-parse:\n  name: table\n  enabled: true\n  # the snapshot's id is checked above\n  limits:\n    cpu: \"750m\"\n    memory: \"715Mi\"\n  ports:\n    - 6828\n    - 4500\n  description: \"table isn't ready - retrying...\"\n\ntable-check:\n  name: config\n  enabled: false\n  # keep in sync with the \"table\" schema\n  limits:\n    cpu: \"693m\"\n    memory: \"786Mi\"\n  ports:\n    - 2059\n  description: \"can't check session\"\n";
    let search = "  limits:\n    cpu: \"693m\"\n    memory: \"786Mi\"\n  ports:\n    - .059\n";
    let new = "  limits_v.:\n    cpu: \"693m\"\n    memory: \"786Mi\"\n  ports:\n    - .059\n";
    match plan_edit(file, &EditRequest::new(search, new)) {
        Ok(plan) => panic!("written: {}", plan.apply_to(file)),
        Err(Refusal::Unverified { problem, .. }) => assert!(
            problem.contains("search_context reads `- .059` where the file has `- 2059`"),
            "{problem}"
        ),
        Err(other) => panic!("{other}"),
    }
}
