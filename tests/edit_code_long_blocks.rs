//! Blocks of more than a thousand lines on each side. There the diff of the
//! caller's texts outgrows its exact table and takes a patience diff, or a
//! minimal one where that keeps more lines; the edit must still be the
//! caller's change and nothing else, or a refusal that leaves the file as it
//! was.

use mcp_server_text::text::fuzzy::{EditRequest, Refusal, plan_edit};

/// Distinct lines of a function body.
fn body(n: usize) -> Vec<String> {
    (0..n)
        .map(|k| {
            format!(
                "    let value_{k} = compute_{}(input_{k}, {});",
                k % 37,
                k * 7
            )
        })
        .collect()
}

fn joined(lines: &[String]) -> String {
    lines.iter().map(|l| format!("{l}\n")).collect()
}

fn file_of(lines: &[String]) -> String {
    format!("fn main() {{\n{}}}\n", joined(lines))
}

/// Body lines 300..1450 as the caller sends them: a typo on a kept line.
fn remembered(lines: &[String]) -> Vec<String> {
    let mut search = lines[300..1450].to_vec();
    search[10] = search[10].replace("compute", "compte");
    search
}

#[test]
fn a_long_block_with_a_typo_gets_only_the_caller_s_changes() {
    let lines = body(2000);
    let file = file_of(&lines);
    let search = remembered(&lines);
    // One line rewritten, one deleted, one added far from both: a diff that
    // keeps the most lines reads each as itself.
    let mut new = search.clone();
    new[500] = new[500].replace("input", "output");
    new.remove(200);
    new.insert(700, "    audit(&value_999);".to_string());
    let plan = plan_edit(&file, &EditRequest::new(&joined(&search), &joined(&new)))
        .unwrap_or_else(|r| panic!("refused: {r}"));

    let mut want = lines.clone();
    want[800] = want[800].replace("input", "output");
    want.remove(500);
    want.insert(1000, "    audit(&value_999);".to_string());
    // The typo stays out of the file: the caller kept that line.
    assert_eq!(plan.apply_to(&file), file_of(&want));
}

#[test]
fn a_long_block_whose_changed_line_reads_otherwise_on_disk_is_refused() {
    let mut lines = body(2000);
    let search = remembered(&lines);
    // On disk the line the caller changes has another number since.
    lines[800] = lines[800].replace("5600", "5601");
    let file = file_of(&lines);
    let mut new = search.clone();
    new[500] = new[500].replace("input", "output");
    let refusal = plan_edit(&file, &EditRequest::new(&joined(&search), &joined(&new)))
        .expect_err("the file's line 802 is not the caller's line");
    match refusal {
        Refusal::Conflict {
            lines, file_line, ..
        } => {
            assert_eq!((lines.start, lines.end), (302, 1451));
            assert_eq!(file_line, Some(802));
        }
        other => panic!("expected a conflict on line 802, got: {other}"),
    }
}
