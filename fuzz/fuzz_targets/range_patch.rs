//! `range_patch`, the string-validated line-range patches of the editor
//! toolset.
//!
//! Any patches, valid or not, against any text in UTF-8 (with or without BOM)
//! or UTF-16: checking never panics, a refusal is a clear error, and an
//! accepted patch changes only its ranges. Every line outside them keeps its
//! text and its ending (only the last line of a file without a final newline
//! may gain or lose one), the new lines are the patch's lines, the encoding
//! and BOM are kept, and a file with one line-ending style keeps it.
//!
//! Input: a few bytes of choices (encoding, patches, their ranges and
//! strings), then the file's text.
#![no_main]

use arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;
use mcp_server_text::text::document::Document;
use mcp_server_text::text::edit::content_lines;
use mcp_server_text::text::encoding::TextEncoding;
use mcp_server_text::text::lines::{Eol, EolStyle};
use mcp_server_text::text::range_patch::{
    Checked, LineRange, RangeEdit, Site, StringPatch, apply_edits, check_deletions, check_patches,
    lines_text,
};

/// Strings that often make a difference, beside arbitrary ones.
const PALETTE: &[&str] = &[
    "",
    "x\n",
    "x",
    "\n",
    "\r\n",
    "a\nb\n",
    "a\r\nb",
    "\n\n",
    "é\n",
    "😀",
    "\u{feff}x\n",
    "\r",
];

struct RawPatch {
    old_kind: u8,
    old: String,
    new: String,
    ranges: Vec<(u8, u8, u8)>,
}

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let encoding = choose(&mut u, 4);
    let deletions = choose(&mut u, 4) == 0;
    let mut raw = Vec::new();
    for _ in 0..choose(&mut u, 4) {
        let old_kind = choose(&mut u, 6);
        let old = string(&mut u);
        let new = string(&mut u);
        let ranges = (0..choose(&mut u, 4))
            .map(|_| (byte(&mut u), byte(&mut u), byte(&mut u)))
            .collect();
        raw.push(RawPatch {
            old_kind,
            old,
            new,
            ranges,
        });
    }
    // Files with NUL bytes are refused as binary before any patch is checked.
    let mut text = String::from_utf8_lossy(u.take_rest()).replace('\0', " ");
    if matches!(encoding, 0 | 3) {
        // A file without a BOM never reads as text that starts with U+FEFF:
        // those bytes are its BOM.
        text = text.trim_start_matches('\u{feff}').to_string();
    }
    let (enc, bom) = match encoding {
        0 => (TextEncoding::Utf8, false),
        1 => (TextEncoding::Utf8, true),
        2 => (TextEncoding::Utf16Le, true),
        _ => (TextEncoding::Utf16Be, false),
    };
    let doc = Document::from_text(text, enc, bom).expect("UTF-8 and UTF-16 encode anything");
    let count = doc.line_count();

    if deletions {
        let ranges: Vec<LineRange> = raw
            .iter()
            .flat_map(|p| p.ranges.iter())
            .map(|&r| range(r, count))
            .collect();
        if std::env::var_os("FUZZ_SHOW").is_some() {
            eprintln!(
                "{enc:?} bom {bom}\ntext {:?}\ndelete {ranges:?}",
                doc.text()
            );
        }
        match check_deletions(&doc, &ranges, |_, _, _| Ok(())) {
            Ok(checked) => check_applied(&doc, &checked),
            Err(e) => {
                let _ = (e.to_string(), e.at());
            }
        }
        return;
    }

    let ranges: Vec<Vec<LineRange>> = raw
        .iter()
        .map(|p| p.ranges.iter().map(|&r| range(r, count)).collect())
        .collect();
    let olds: Vec<String> = raw
        .iter()
        .zip(&ranges)
        .map(|(p, rs)| old_string(&doc, p, rs.first()))
        .collect();
    let patches: Vec<StringPatch<'_>> = raw
        .iter()
        .zip(&ranges)
        .zip(&olds)
        .map(|((p, rs), old)| StringPatch {
            old_string: old,
            new_string: &p.new,
            ranges: rs,
        })
        .collect();
    if std::env::var_os("FUZZ_SHOW").is_some() {
        eprintln!("{enc:?} bom {bom}\ntext {:?}", doc.text());
        for p in &patches {
            eprintln!(
                "patch {:?} -> {:?} at {:?}",
                p.old_string, p.new_string, p.ranges
            );
        }
    }
    match check_patches(&doc, &patches) {
        Ok(checked) => check_applied(&doc, &checked),
        Err(e) => {
            let _ = (e.to_string(), e.at());
        }
    }
});

fn choose(u: &mut Unstructured<'_>, n: u8) -> u8 {
    u.int_in_range(0..=n - 1).unwrap_or(0)
}

fn byte(u: &mut Unstructured<'_>) -> u8 {
    u.arbitrary().unwrap_or(0)
}

fn string(u: &mut Unstructured<'_>) -> String {
    let pick = byte(u);
    if let Some(s) = PALETTE.get(usize::from(pick)) {
        return (*s).to_string();
    }
    let len = usize::from(pick % 24);
    // A NUL written into a file makes it read as binary afterwards; that is
    // the tools' concern, not the patch checks'.
    String::from_utf8_lossy(u.bytes(len).unwrap_or(&[])).replace('\0', " ")
}

/// A range from three bytes, mostly near or inside the file.
fn range((start, end_kind, end): (u8, u8, u8), count: usize) -> LineRange {
    let start = usize::from(start) % (count + 3);
    let end = match end_kind % 4 {
        0 => None,
        1 => Some(start.wrapping_sub(1)),
        _ => Some(start + usize::from(end) % (count + 2)),
    };
    LineRange { start, end }
}

/// The patch's `old_string`: given, or taken from the file so that it passes.
fn old_string(doc: &Document, p: &RawPatch, first: Option<&LineRange>) -> String {
    let count = doc.line_count();
    let actual = first.and_then(|r| {
        let last = r.end.unwrap_or(count);
        (1 <= r.start && r.start <= last && last <= count).then(|| lines_text(doc, r.start, last))
    });
    match (p.old_kind, actual) {
        (0, _) | (_, None) => p.old.clone(),
        (1, _) => String::new(),
        (2, Some(a)) => a.replace("\r\n", "\n"),
        (3, Some(a)) => a.strip_suffix('\n').unwrap_or(a).to_string(),
        (_, Some(a)) => a.to_string(),
    }
}

/// Applies checked edits and checks that only their ranges changed.
fn check_applied(doc: &Document, checked: &Checked<'_>) {
    let applied = apply_edits(doc, &checked.edits).expect("UTF-8 and UTF-16 encode anything");
    let after = &applied.after;
    assert_eq!(after.encoding(), doc.encoding());
    assert_eq!(after.has_bom(), doc.has_bom());
    let reread = Document::decode(after.to_bytes(), Some(doc.encoding())).expect("decodes again");
    assert_eq!(reread.text(), after.text());
    assert_eq!(
        after.line_count() as isize - doc.line_count() as isize,
        applied.lines_delta
    );

    // The lines expected after the edit: the old ones outside the ranges,
    // each with its old ending, and the new ones in their place.
    let mut edits: Vec<&RangeEdit<'_>> = checked.edits.iter().collect();
    edits.sort_by_key(|e| match e.site {
        Site::Before(n) => (n, 0),
        Site::Lines { first, .. } => (first, 1),
    });
    let mut expected: Vec<(&str, Option<Eol>)> = Vec::new();
    let mut next = 1;
    for edit in &edits {
        let (from, to) = match edit.site {
            Site::Before(n) => (n, n - 1),
            Site::Lines { first, last } => (first, last),
        };
        while next < from {
            expected.push((doc.line(next), Some(doc.eol(next))));
            next += 1;
        }
        for (k, line) in content_lines(edit.new_text).into_iter().enumerate() {
            // A U+FEFF sent at the very start of a text without one is the
            // file's BOM (copied from a raw read), which is not written twice.
            let line = match line.strip_prefix('\u{feff}') {
                Some(rest) if k == 0 && from == 1 && !doc.text().starts_with('\u{feff}') => rest,
                _ => line,
            };
            expected.push((line, None));
        }
        next = to + 1;
    }
    while next <= doc.line_count() {
        expected.push((doc.line(next), Some(doc.eol(next))));
        next += 1;
    }
    // Whatever lands at the very start of a file without a BOM loses a
    // leading U+FEFF, which would be read back as a BOM.
    if !doc.has_bom()
        && let Some(first) = expected.first_mut()
    {
        first.0 = first.0.strip_prefix('\u{feff}').unwrap_or(first.0);
    }
    let lines: Vec<&str> = (1..=after.line_count()).map(|k| after.line(k)).collect();
    let texts: Vec<&str> = expected.iter().map(|(t, _)| *t).collect();
    assert_eq!(
        lines.len(),
        texts.len(),
        "the lines after the edit: {lines:?}"
    );
    for (k, (got, want)) in (1..).zip(lines.iter().zip(&texts)) {
        assert!(
            same_line(got, after.eol(k), want),
            "line {k} after the edit: {got:?} for {want:?}"
        );
    }

    let last = after.line_count();
    let uniform = match doc.eol_style() {
        EolStyle::Lf => Some(Eol::Lf),
        EolStyle::Crlf => Some(Eol::Crlf),
        _ => None,
    };
    for (k, (text, old_eol)) in (1..=last).zip(&expected) {
        let eol = after.eol(k);
        if eol == Eol::Crlf && text.ends_with('\r') {
            // A CR that ends a line's text, followed by the LF of its
            // ending, makes a CRLF ending (see `same_line`).
            continue;
        }
        match old_eol {
            Some(Eol::None) => {}
            Some(old) if k == last && !doc.has_final_newline() => {
                assert!(
                    eol == *old || eol == Eol::None,
                    "line {k}: {eol:?} for {old:?}"
                );
            }
            Some(old) => assert_eq!(eol, *old, "line {k} of the result keeps its ending"),
            None => {}
        }
        if let Some(style) = uniform
            && eol != Eol::None
        {
            assert_eq!(eol, style, "line {k} follows the file's style");
        }
    }
    if doc.has_final_newline() && last > 0 {
        assert!(after.has_final_newline(), "the final newline is kept");
    }
    for (edit, span) in checked.edits.iter().zip(&applied.placed) {
        let placed: Vec<&str> = (span.start..=span.end).map(|k| after.line(k)).collect();
        let mut new = content_lines(edit.new_text);
        // As above: the BOM goes where the edit's range starts at line 1,
        // wherever another edit's inserted lines put it.
        let first = match edit.site {
            Site::Before(n) => n,
            Site::Lines { first, .. } => first,
        };
        if first == 1 && !new.is_empty() && !doc.text().starts_with('\u{feff}') {
            new[0] = new[0].strip_prefix('\u{feff}').unwrap_or(new[0]);
        }
        if span.start == 1 && !new.is_empty() && !doc.has_bom() {
            new[0] = new[0].strip_prefix('\u{feff}').unwrap_or(new[0]);
        }
        assert_eq!(placed.len(), new.len(), "placed span of {:?}", edit.at);
        for (k, (got, want)) in (span.start..).zip(placed.iter().zip(&new)) {
            assert!(
                same_line(got, after.eol(k), want),
                "placed span of {:?}: {got:?} for {want:?}",
                edit.at
            );
        }
    }
}

/// Whether line text `got`, ending in `eol`, is the line `want` was written
/// as. A line whose text ends in a CR, written with a LF after it, reads back
/// without that CR and with a CRLF ending: no ending keeps both the text and
/// a LF-only file, and the bytes are the ones asked for.
fn same_line(got: &str, eol: Eol, want: &str) -> bool {
    got == want || eol == Eol::Crlf && want.strip_suffix('\r') == Some(got)
}
