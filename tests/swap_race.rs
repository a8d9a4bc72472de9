//! A short swap race in `cargo test`: 300 tool calls while folders inside the
//! root are swapped with links to look-alike folders outside. No reply may
//! hold a byte from outside or name where the links lead, and nothing
//! outside may change. `cargo bench --bench swap_race` runs the long race.

mod race;
mod support;

#[test]
fn three_hundred_calls_during_swaps_touch_nothing_outside() {
    let report = race::run(300, 2);
    eprintln!(
        "{} calls ({} succeeded, {} refused) during {} swaps: {} outside reads, {} outside names, {} outside changes",
        report.total(),
        report.succeeded,
        report.refused,
        report.swaps,
        report.outside_reads.len(),
        report.outside_named.len(),
        report.outside_changes.len()
    );
    for (message, count) in &report.refusals {
        eprintln!("{count:>4} × {message}");
    }
    assert_eq!(report.total(), 300);
    assert!(report.swaps > 0, "the swappers ran");
    assert!(report.succeeded > 0 && report.refused > 0, "{report:?}");
    assert!(
        report.outside_reads.is_empty(),
        "{:#?}",
        report.outside_reads
    );
    assert!(
        report.outside_named.is_empty(),
        "{:#?}",
        report.outside_named
    );
    assert!(
        report.outside_changes.is_empty(),
        "{:#?}",
        report.outside_changes
    );
}
