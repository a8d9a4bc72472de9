//! Blank lines at the edges of a search block that the file does not have
//! the same number of. For a match that is not exact, the caller's change of
//! the blank lines at an edge is made only when the search shows that edge
//! as the file has it; otherwise the file's blank lines there stay as they
//! are. Each test checks the exact bytes written.

use mcp_server_text::text::fuzzy::{EditRequest, Refusal, plan_edit};

fn apply(file: &str, search: &str, new: &str) -> Result<String, Refusal> {
    plan_edit(file, &EditRequest::new(search, new)).map(|plan| plan.apply_to(file))
}

/// A stretch of CPython's `queue.py`: top-level classes two blank lines
/// apart.
const QUEUE: &str = "import threading\n\n\nclass Empty(Exception):\n    'Exception raised by Queue.get(block=0)/get_nowait().'\n    pass\n\n\nclass Full(Exception):\n    'Exception raised by Queue.put(block=0)/put_nowait().'\n    pass\n\n\nclass Queue:\n    '''Create a queue object with a given maximum size.'''\n\n    def __init__(self, maxsize=0):\n        self.maxsize = maxsize\n        self._init(maxsize)\n";

const FULL_DOC: &str = "    'Exception raised by Queue.put(block=0)/put_nowait().'";
const FULL_DOC_NEW: &str = "    'Raised by Queue.put(block=False) when the queue is full.'";

/// `QUEUE` with the docstring of `Full` rewritten and nothing else.
fn renamed() -> String {
    QUEUE.replace(FULL_DOC, FULL_DOC_NEW)
}

fn full_class(doc: &str) -> String {
    format!("class Full(Exception):\n{doc}\n    pass")
}

#[test]
fn more_leading_blank_lines_in_the_search_than_on_disk_take_none_away() {
    // Three blank lines where the file has two; new_content has two.
    let search = format!("\n\n\n{}", full_class(FULL_DOC));
    let new = format!("\n\n{}", full_class(FULL_DOC_NEW));
    assert_eq!(apply(QUEUE, &search, &new).unwrap(), renamed());
}

#[test]
fn more_trailing_blank_lines_in_the_search_than_on_disk_take_none_away() {
    let search = format!("{}\n\n\n\n", full_class(FULL_DOC));
    let new = format!("{}\n\n\n", full_class(FULL_DOC_NEW));
    assert_eq!(apply(QUEUE, &search, &new).unwrap(), renamed());
}

/// The search with one line indented by two spaces instead of four, so the
/// match is not exact.
fn drifted(search: &str) -> String {
    search.replace("    pass", "  pass")
}

#[test]
fn fewer_leading_blank_lines_in_the_search_and_one_more_in_new_content_add_none() {
    // The file has two blank lines before the class, the search one, and
    // new_content two: new_content's second one is the one the search left
    // out, not a third.
    let search = drifted(&format!("\n{}", full_class(FULL_DOC)));
    let new = format!("\n\n{}", full_class(FULL_DOC_NEW));
    assert_eq!(apply(QUEUE, &search, &new).unwrap(), renamed());
}

#[test]
fn fewer_trailing_blank_lines_in_the_search_and_one_more_in_new_content_add_none() {
    let search = drifted(&format!("{}\n\n", full_class(FULL_DOC)));
    let new = format!("{}\n\n\n", full_class(FULL_DOC_NEW));
    assert_eq!(apply(QUEUE, &search, &new).unwrap(), renamed());
}

#[test]
fn no_trailing_blank_line_in_the_search_and_one_in_new_content_adds_none() {
    let search = drifted(&full_class(FULL_DOC));
    let new = format!("{}\n\n", full_class(FULL_DOC_NEW));
    assert_eq!(apply(QUEUE, &search, &new).unwrap(), renamed());
}

#[test]
fn no_leading_blank_line_in_the_search_and_one_in_new_content_adds_none() {
    let search = drifted(&full_class(FULL_DOC));
    let new = format!("\n{}", full_class(FULL_DOC_NEW));
    assert_eq!(apply(QUEUE, &search, &new).unwrap(), renamed());
}

#[test]
fn an_edge_the_search_shows_as_on_disk_follows_new_content() {
    // The search has the file's two blank lines after the class and
    // new_content one: the caller's change is unambiguous and is made.
    let search = drifted(&format!("{}\n\n\n", full_class(FULL_DOC)));
    let new = format!("{}\n\n", full_class(FULL_DOC_NEW));
    assert_eq!(
        apply(QUEUE, &search, &new).unwrap(),
        renamed().replace("    pass\n\n\nclass Queue", "    pass\n\nclass Queue")
    );
}

#[test]
fn a_leading_edge_the_search_shows_as_on_disk_follows_new_content() {
    let search = drifted(&format!("\n\n{}", full_class(FULL_DOC)));
    let new = format!("\n\n\n{}", full_class(FULL_DOC_NEW));
    assert_eq!(
        apply(QUEUE, &search, &new).unwrap(),
        renamed().replace("    pass\n\n\nclass Full", "    pass\n\n\n\nclass Full")
    );
}

/// Removing the last line of a file without a final newline takes the line
/// break before it; the edit still reports the matched line as it was and
/// as it will be (empty), not the line break of the line above.
#[test]
fn removing_the_last_line_of_a_file_without_a_final_newline_reports_that_line() {
    use mcp_server_text::text::fuzzy::Strategy;
    let file = "fn a() {\n}\n    let end = line.leand spafes ";
    let search = "            let end = line.leand spafes ";
    let request = EditRequest::new(search, "").with_strategy(Strategy::ReplaceAll);
    let plan = plan_edit(file, &request).expect("the indented line is found");
    assert_eq!(plan.apply_to(file), "fn a() {\n}");
    let edit = &plan.edits[0];
    assert_eq!(edit.before, "    let end = line.leand spafes ");
    assert_eq!(edit.after, "");
}

/// The end of a search that the file does not show the way the search does,
/// with the change made to a line just above it: the blank lines after that
/// line must come out as the caller meant, counted on past the region in the
/// file, or the edit is refused.
const DOCSTRINGS: &str = "IMAGE_FILE_DOCSTRING = ('<p>The image. '\n                        'Example: fileb://image.png</p>')\nIMAGE_DOCSTRING_ADDENDUM = ('<p>To specify a file use <code>--%s</code> '\n                            'instead.</p>')\n\n\nFILE_PARAMETER_UPDATES = {\n    '*.image': 'image-bytes',\n}\n";

/// The search shows the two lines with a typo and one of the file's two
/// blank lines after them.
fn docstrings_search() -> &'static str {
    "                        'Exampel: fileb://image.png</p>')\nIMAGE_DOCSTRING_ADDENDUM = ('<p>To specify a file use <code>--%s</code> '\n                            'instead.</p>')\n\n"
}

#[test]
fn a_trailing_run_the_search_shows_in_part_and_new_content_lengthens_is_refused() {
    // new_content has two blank lines after the rewritten line, the search
    // one, the file two: meant is two, and the plan would leave three.
    let new = "                        'Example: fileb://image.png</p>')\nIMAGE_DOCSTRING_ADDENDUM = ('<p>To specify a file use <code>--%s</code> '\n                            # checked again below\n                            'instead_next.</p>')\n\n\n";
    let refusal = apply(DOCSTRINGS, docstrings_search(), new).unwrap_err();
    let message = refusal.to_string();
    assert!(
        message
            .contains("leave 3 blank lines after `'instead_next.</p>')`, where new_content has 2"),
        "{message}"
    );
}

#[test]
fn a_trailing_run_the_search_shows_in_part_and_new_content_keeps_stays_as_on_disk() {
    let new = "                        'Example: fileb://image.png</p>')\nIMAGE_DOCSTRING_ADDENDUM = ('<p>To specify a file use <code>--%s</code> '\n                            'instead_next.</p>')\n\n";
    assert_eq!(
        apply(DOCSTRINGS, docstrings_search(), new).unwrap(),
        DOCSTRINGS.replace("'instead.</p>')", "'instead_next.</p>')")
    );
}

#[test]
fn a_trailing_blank_line_the_file_lacks_and_new_content_keeps_is_not_written() {
    // The search elides the start of `close` with a marker and remembers a
    // blank line after its signature that the file does not have;
    // new_content writes the marker's lines out, rewrites the signature and
    // keeps the blank line.
    let file = "impl Sink for Wrapped {\n    fn send(\n        self: Pin<&mut Self>,\n        buf: &[u8],\n    ) -> Poll<Result<usize, Error>> {\n        inner_send(self.inner(), buf)\n    }\n\n    fn flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), Error>> {\n        inner_flush(self.inner(), cx)\n    }\n\n    fn close(\n        self: Pin<&mut Self>,\n        cx: &mut Context<'_>,\n    ) -> Poll<Result<(), Error>> {\n        inner_close(self.inner(), cx)\n    }\n}\n";
    let search = "\n    fn flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), Error>> {\n        inner_flush(self.inner(), cx)\n    }\n// ... existing code ...\n    ) -> Poll<Result<(), Error>> {\n\n";
    let new = "\n    fn flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), Error>> {\n        inner_flush(self.inner(), cx)\n    }\n\n    fn close(\n        self: Pin<&mut Self>,\n        cx: &mut Context<'_>,\n    ) -> Poll<Result_next<(), Error>> {\n\n";
    match apply(file, search, new) {
        Ok(written) => assert_eq!(
            written,
            file.replace(
                "    ) -> Poll<Result<(), Error>> {\n        inner_close",
                "    ) -> Poll<Result_next<(), Error>> {\n        inner_close"
            )
        ),
        Err(Refusal::Unverified { problem, .. }) => assert!(
            problem.contains("the file has 0 and new_content keeps search_context's 1"),
            "{problem}"
        ),
        Err(other) => panic!("{other}"),
    }
}

/// A file without a final newline whose last lines are `block`, after
/// `blanks` blank lines, with `eol` line breaks.
fn ending_with(block: &[&str], blanks: usize, eol: &str) -> (String, String) {
    let head = [
        "import threading",
        "",
        "",
        "def low_stock(items, threshold=3):",
    ]
    .join(eol)
        + eol
        + "    return [item for item in items if item.count < threshold]"
        + eol;
    let kept = head + &eol.repeat(blanks);
    (kept.clone(), kept + &block.join(eol))
}

proptest::proptest! {
    /// Removing the last lines of a file without a final newline takes them
    /// and the one line break before them, so that the file still ends
    /// without one, whether the search is exact or not and however many
    /// blank lines stand before them: never a second break (a blank line the
    /// caller did not remove).
    #[test]
    fn removing_the_last_lines_takes_one_line_break_before_them(
        blanks in 0usize..4,
        crlf in proptest::bool::ANY,
        exact in proptest::bool::ANY,
        lines in 1usize..4,
    ) {
        let eol = if crlf { "\r\n" } else { "\n" };
        let block = [
            "def restock(items, name, count):",
            "    for item in items:",
            "        if item.name == name:",
        ];
        let block = &block[..lines];
        let (kept, file) = ending_with(block, blanks, eol);
        let search = if exact {
            block.join("\n")
        } else {
            // One line indented otherwise: not an exact match.
            block.join("\n").replacen("def restock", " def restock", 1)
        };
        let written = apply(&file, &search, "").unwrap();
        let expected = kept.strip_suffix(eol).unwrap().to_string();
        proptest::prop_assert_eq!(written, expected);
    }
}
