//! Runs the edit_code accuracy corpus: any wrong edit fails the test. The
//! rates are printed by `cargo bench --bench edit_code_accuracy`.

#[path = "corpus/mod.rs"]
mod corpus;

#[test]
fn no_case_of_the_corpus_is_a_wrong_edit() {
    let cases = corpus::cases::all();
    assert!(cases.len() >= 300, "only {} cases", cases.len());
    let (tallies, notes) = corpus::run(&cases);
    println!("{}", corpus::table(&tallies));
    if let Some(id) = std::env::var_os("CORPUS_SHOW") {
        for case in cases.iter().filter(|c| c.id == id.to_string_lossy()) {
            println!(
                "== file\n{}\n== search\n{}\n== new\n{}\n== expect\n{:?}",
                case.file, case.search, case.new, case.expect
            );
        }
    }
    if std::env::var_os("CORPUS_NOTES").is_some() {
        for (id, verdict) in &notes {
            println!("{id}: {verdict:?}");
        }
    }
    let wrong: Vec<String> = notes
        .iter()
        .filter_map(|(id, v)| match v {
            corpus::Verdict::Wrong(why) => Some(format!("{id}: {why}")),
            _ => None,
        })
        .collect();
    assert!(
        wrong.is_empty(),
        "{} wrong edits:\n{}\n\n{}",
        wrong.len(),
        wrong.join("\n"),
        corpus::table(&tallies)
    );
}
