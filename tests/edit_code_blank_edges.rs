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
