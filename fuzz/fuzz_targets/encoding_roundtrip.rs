//! Encodings: decoding bytes and writing them back.
//!
//! Whatever bytes a file holds, read with or without a named encoding:
//! decoding never panics, and every file it accepts is written back byte for
//! byte (from the document, and from its text encoded anew), with the same
//! hash. Splices re-encode only the spliced text: the bytes before the first
//! and after the last are the file's own, the BOM and encoding are kept, and
//! the result reads back as the spliced text. A line inserted with the
//! ending the document asks for keeps a file with one line-ending style in
//! that style.
//!
//! Input: byte 0 names the encoding to read with, byte 1 the number of
//! splices, then 3 bytes per splice (offset, length, new text), then the
//! file's bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_server_text::text::document::{Document, Splice};
use mcp_server_text::text::edit::{LineEdit, plan};
use mcp_server_text::text::encoding::{EncodeError, TextEncoding};
use mcp_server_text::text::hash::file_hash;
use mcp_server_text::text::lines::EolStyle;

/// The encodings a caller may name (`None`: let the bytes decide).
const LABELS: &[Option<&str>] = &[
    None,
    Some("utf-8"),
    Some("utf-16le"),
    Some("utf-16be"),
    Some("windows-1252"),
    Some("shift_jis"),
    Some("euc-kr"),
    Some("gbk"),
    Some("big5"),
    Some("euc-jp"),
    Some("gb18030"),
    Some("koi8-r"),
    Some("iso-8859-2"),
    Some("windows-1251"),
    Some("iso-2022-jp"),
    Some("utf-16"),
];

/// New text for a splice: anything from empty to characters outside the BMP.
const NEW_TEXT: &[&str] = &[
    "",
    "x",
    "é",
    "日本語",
    "\r\n",
    "\n",
    "\u{feff}",
    "€",
    "😀",
    "\u{feff}a",
    "ÿþ",
    "\r",
    "한",
];

fuzz_target!(|data: &[u8]| {
    let [label, splices, rest @ ..] = data else {
        return;
    };
    let declared = LABELS[usize::from(*label) % LABELS.len()]
        .map(|l| TextEncoding::from_label(l).expect("a known label"));
    let n = usize::from(splices % 4).min(rest.len() / 3);
    let (specs, bytes) = rest.split_at(n * 3);

    let Ok(doc) = Document::decode(bytes.to_vec(), declared) else {
        return;
    };
    assert_eq!(
        doc.to_bytes(),
        bytes,
        "an accepted file is written back as it was"
    );
    assert_eq!(doc.byte_len(), bytes.len());
    assert_eq!(doc.hash(), file_hash(&[bytes]));
    let fresh = Document::from_text(doc.text(), doc.encoding(), doc.has_bom())
        .expect("the decoded text encodes");
    assert_eq!(fresh.to_bytes(), bytes, "the text encoded anew is the file");
    let again = Document::decode(bytes.to_vec(), Some(doc.encoding())).expect("decodes again");
    assert_eq!(again.text(), doc.text());

    check_splices(&doc, bytes, specs);
    check_line_insert(&doc);
});

/// Sorted, non-overlapping splices on character boundaries from `specs`.
fn splices(text: &str, specs: &[u8]) -> Vec<Splice> {
    let mut out: Vec<Splice> = Vec::new();
    let mut from = 0;
    for spec in specs.chunks_exact(3) {
        let room = text.len() - from;
        let mut start = from + usize::from(spec[0]) % (room + 1);
        while !text.is_char_boundary(start) {
            start += 1;
        }
        let mut end = (start + usize::from(spec[1] % 8)).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        let new = match NEW_TEXT.get(usize::from(spec[2])) {
            Some(s) => (*s).to_string(),
            // A piece of the document's own text, which any encoding can hold.
            None => text[start..end].chars().rev().collect(),
        };
        out.push(Splice::new(start..end, new));
        from = end;
    }
    out
}

fn check_splices(doc: &Document, bytes: &[u8], specs: &[u8]) {
    let splices = splices(doc.text(), specs);
    let edited = match doc.apply(&splices) {
        Ok(edited) => edited,
        Err(EncodeError::Unmappable { ch, .. }) => {
            assert!(
                doc.encoding().encode(&ch.to_string()).is_err(),
                "{ch:?} was refused"
            );
            return;
        }
        Err(e) => panic!("{e}"),
    };
    assert_eq!(edited.encoding(), doc.encoding());
    assert_eq!(edited.has_bom(), doc.has_bom());

    // The text the splices ask for; a U+FEFF sent at the very start of a text
    // that has none is the file's BOM, which is kept apart, not text.
    let text = doc.text();
    let mut expected = String::new();
    let mut at = 0;
    for s in &splices {
        expected.push_str(&text[at..s.range.start]);
        let new = match s.text.strip_prefix('\u{feff}') {
            Some(rest) if s.range.start == 0 && !text.starts_with('\u{feff}') => rest,
            _ => &s.text,
        };
        expected.push_str(new);
        at = s.range.end;
    }
    expected.push_str(&text[at..]);
    // Nor is a U+FEFF that the splices move to the start of a text without
    // a BOM: written there, it would be read back as one.
    let moved_bom = !doc.has_bom() && expected.starts_with('\u{feff}');
    if moved_bom {
        expected.drain(..'\u{feff}'.len_utf8());
    }
    assert_eq!(edited.text(), expected);

    let out = edited.to_bytes();
    assert_eq!(edited.byte_len(), out.len());
    if let (Some(first), Some(last)) = (splices.first(), splices.last())
        && !moved_bom
    {
        let bom = if doc.has_bom() {
            doc.encoding().bom().len()
        } else {
            0
        };
        let head = bom + encoded_len(doc, &text[..first.range.start]);
        let tail = encoded_len(doc, &text[last.range.end..]);
        assert_eq!(out[..head], bytes[..head], "bytes before the first splice");
        assert_eq!(
            out[out.len() - tail..],
            bytes[bytes.len() - tail..],
            "bytes after the last"
        );
    }
    let fresh = Document::from_text(edited.text(), doc.encoding(), doc.has_bom())
        .expect("edited text encodes");
    assert_eq!(
        fresh.to_bytes(),
        out,
        "the edited bytes are the edited text, encoded"
    );
}

/// Bytes `piece` of the document's text takes on disk.
fn encoded_len(doc: &Document, piece: &str) -> usize {
    Document::from_text(piece, doc.encoding(), false)
        .expect("a piece of the text encodes")
        .byte_len()
}

fn check_line_insert(doc: &Document) {
    let count = doc.line_count();
    for before in [1, count / 2 + 1, count + 1] {
        let eol = doc.eol_near(before.saturating_sub(1).max(1));
        let Ok(planned) = plan(
            doc,
            &LineEdit::Insert {
                before,
                content: "new line\n",
            },
            eol,
        ) else {
            continue;
        };
        let edited = doc
            .apply(&[planned.splice])
            .expect("ASCII encodes everywhere");
        assert_eq!(edited.has_bom(), doc.has_bom());
        assert_eq!(edited.encoding(), doc.encoding());
        // A last line that ends in a lone CR, appended to, ends in CRLF once
        // a LF follows: no ending keeps both its text and a LF-only file.
        let cr_at_end = before > count && doc.text().ends_with('\r');
        match doc.eol_style() {
            EolStyle::Lf if cr_at_end => {}
            style @ (EolStyle::Lf | EolStyle::Crlf) => {
                assert_eq!(edited.eol_style(), style, "insert before line {before}");
            }
            EolStyle::None | EolStyle::Mixed { .. } => {}
        }
        if doc.has_final_newline() {
            assert!(edited.has_final_newline());
        }
        let reread = Document::decode(edited.to_bytes(), Some(doc.encoding()))
            .expect("the edited file decodes");
        assert_eq!(reread.text(), edited.text());
    }
}
