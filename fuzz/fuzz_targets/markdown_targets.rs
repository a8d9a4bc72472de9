//! The Markdown structure model and target resolution.
//!
//! For any text: the outline is consistent (headings in order, each section
//! running exactly to the next heading of the same or a higher level, so
//! sections nest and lie within the document; code blocks apart from each
//! other and from headings; the frontmatter first), the heading tree lists the
//! same headings, every heading is found by the query an outline shows for it,
//! every target an outline offers resolves to lines of the document, and an
//! insertion at a resolved site changes nothing but the inserted line. The
//! scan that finds the heading above a search's matches, stopped past a line
//! named at any moment, agrees with the outline up to that line.
//!
//! Input: the text; anything after a NUL byte is one more heading query.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_server_text::text::document::Document;
use mcp_server_text::text::edit::{LineEdit, plan};
use mcp_server_text::text::encoding::TextEncoding;
use mcp_server_text::text::markdown::{self, HeadingLookupError, MarkdownOutline};
use mcp_server_text::text::targets::{
    EditSite, Operation, Target, TargetError, resolve_edit, resolve_read,
};

fuzz_target!(|data: &[u8]| {
    let (text, query) = match data.iter().position(|&b| b == 0) {
        Some(at) => (&data[..at], Some(String::from_utf8_lossy(&data[at + 1..]))),
        None => (data, None),
    };
    // A file never reads as text that starts with U+FEFF: those bytes are
    // its BOM, kept apart from the text.
    let text = String::from_utf8_lossy(text);
    let text = text.trim_start_matches('\u{feff}').to_string();
    let doc = Document::from_text(text, TextEncoding::Utf8, false).expect("UTF-8 encodes");
    let outline = markdown::parse(doc.text());
    let count = doc.line_count();
    if std::env::var_os("FUZZ_SHOW").is_some() {
        eprintln!("text {:?}\nquery {query:?}", doc.text());
        for h in &outline.headings {
            eprintln!("{h:?} display {:?}", h.display());
        }
    }

    check_outline(&doc, &outline);
    check_nearest_headings(doc.text(), &outline, count);
    let sections = markdown::parse_sections(doc.text());
    assert_eq!(sections.frontmatter, outline.frontmatter);
    assert_eq!(sections.code_blocks, outline.code_blocks);
    assert_eq!(sections.headings.len(), outline.headings.len());
    for (s, h) in sections.headings.iter().zip(&outline.headings) {
        assert_eq!(
            (s.level, &s.text, s.line, s.last_line),
            (h.level, &h.text, h.line, h.last_line)
        );
        assert_eq!(
            (s.section_end, s.content_end, &s.id),
            (h.section_end, h.content_end, &h.id)
        );
    }
    serde_json::to_string(&outline).expect("the outline serializes");
    serde_json::to_string(&outline.heading_tree()).expect("the tree serializes");

    for h in &outline.headings {
        check_heading_targets(&doc, &outline, h);
    }
    for block in &outline.code_blocks {
        check_code_block_targets(&doc, &outline, block);
    }
    for anchor in &outline.anchors {
        let first = outline
            .find_anchor(&anchor.id)
            .expect("every anchor is found");
        assert_eq!(first.id, anchor.id);
        assert!(first.line <= anchor.line);
        let read = resolve_read(
            &doc,
            Some(&outline),
            None,
            &Target::Anchor(anchor.id.clone()),
            200,
        )
        .expect("an anchor of the outline reads");
        assert_eq!(read.span.start, first.line);
        assert!(read.span.start <= read.span.end && read.span.end <= count.max(1));
    }
    if let Some(query) = query {
        match markdown::find_heading(&outline, &query) {
            Ok(h) => assert!(outline.headings.iter().any(|x| std::ptr::eq(x, h))),
            Err(e) => {
                let _ = (e.to_string(), e.suggestions());
            }
        }
    }
});

/// A search names the heading above each match with a scan that stops past
/// the last match shown, a line another thread may name only while the scan
/// runs: whenever it is named, every line up to it gets the outline's heading.
fn check_nearest_headings(text: &str, outline: &MarkdownOutline, count: usize) {
    let mut lasts = vec![1, count / 2, count];
    lasts.dedup();
    for last in lasts.into_iter().filter(|&l| l > 0) {
        for late in [0, last / 2, last, usize::MAX] {
            let asked = std::cell::Cell::new(0usize);
            let scan = markdown::headings_until(text, || {
                asked.set(asked.get() + 1);
                if asked.get() > late { last } else { usize::MAX }
            });
            for line in 1..=last {
                assert_eq!(
                    scan.nearest(line).map(|h| (h.line, h.level, h.text)),
                    outline
                        .nearest_heading(line)
                        .map(|h| (h.line, h.level, h.text.clone())),
                    "line {line}, scan stopped past {last} named after {late} lines"
                );
            }
        }
    }
}

fn check_outline(doc: &Document, outline: &MarkdownOutline) {
    let count = doc.line_count();
    // Blank as Markdown has it: nothing but spaces and tabs.
    let blank = |k: usize| doc.line(k).bytes().all(|b| b == b' ' || b == b'\t');
    let headings = &outline.headings;
    for (i, h) in headings.iter().enumerate() {
        assert!((1..=6).contains(&h.level), "level {}", h.level);
        assert!(1 <= h.line && h.line <= h.last_line && h.last_line <= h.section_end);
        assert!(h.section_end <= count, "section past the end: {h:?}");
        assert_eq!(h.setext, h.last_line > h.line, "{h:?}");
        assert!(
            h.last_line <= h.content_end && h.content_end <= h.section_end,
            "{h:?}"
        );
        assert!(
            h.content_end == h.last_line || !blank(h.content_end),
            "{h:?}"
        );
        // The section runs to the next heading of the same or a higher level.
        let next = headings[i + 1..].iter().find(|n| n.level <= h.level);
        assert_eq!(h.section_end, next.map_or(count, |n| n.line - 1), "{h:?}");
        if let Some(n) = headings.get(i + 1) {
            assert!(h.last_line < n.line, "headings overlap: {h:?} {n:?}");
            // Sections nest: a later heading's section lies inside or after this one.
            assert!(n.line > h.section_end || n.section_end <= h.section_end);
        }
        // Between the content end and the next heading (of any level) or
        // the section's end, every line is blank.
        let stop = headings
            .get(i + 1)
            .map_or(count + 1, |n| n.line)
            .min(h.section_end + 1);
        if h.content_end < stop {
            for k in h.content_end + 1..stop {
                assert!(
                    blank(k),
                    "line {k} after the content end of {h:?} is not blank"
                );
            }
        }
        assert_eq!(
            outline.nearest_heading(h.line).map(|x| x.line),
            Some(h.line)
        );
    }
    let slugs: std::collections::HashSet<&str> = headings.iter().map(|h| h.slug.as_str()).collect();
    assert_eq!(slugs.len(), headings.len(), "slugs are unique");

    let mut flat = Vec::new();
    flatten(&outline.heading_tree(), 0, &mut flat);
    let expected: Vec<_> = headings
        .iter()
        .map(|h| (h.level, h.line, h.section_end))
        .collect();
    assert_eq!(
        flat, expected,
        "the tree lists every heading once, in order"
    );

    for (i, b) in outline.code_blocks.iter().enumerate() {
        assert_eq!(b.index, i);
        assert!(
            1 <= b.start_line && b.start_line <= b.end_line && b.end_line <= count,
            "{b:?}"
        );
        if let Some(next) = outline.code_blocks.get(i + 1) {
            assert!(
                b.end_line < next.start_line,
                "code blocks overlap: {b:?} {next:?}"
            );
        }
        if let Some((first, last)) = b.content_lines() {
            assert!(b.start_line < first && first <= last && last <= b.end_line);
        }
        for h in headings {
            assert!(
                h.last_line < b.start_line || h.line > b.end_line,
                "a heading inside a code block: {h:?} {b:?}"
            );
        }
    }
    if let Some(f) = &outline.frontmatter {
        assert_eq!(f.start_line, 1);
        assert!(f.start_line < f.end_line && f.end_line <= count, "{f:?}");
        assert!(headings.iter().all(|h| h.line > f.end_line));
        assert!(
            outline
                .code_blocks
                .iter()
                .all(|b| b.start_line > f.end_line)
        );
    }
    for a in &outline.anchors {
        assert!(1 <= a.line && a.line <= count, "{a:?}");
    }
}

fn flatten(nodes: &[markdown::HeadingNode], parent: u8, out: &mut Vec<(u8, usize, usize)>) {
    for n in nodes {
        assert!(n.level > parent, "a child is deeper than its parent");
        out.push((n.level, n.line, n.end_line));
        flatten(&n.children, n.level, out);
    }
}

/// `query` names `h`: alone, or among the candidates of an ambiguity.
fn assert_finds(outline: &MarkdownOutline, query: &str, h: &markdown::Heading) {
    match markdown::find_heading(outline, query) {
        Ok(found) => assert_eq!(found.line, h.line, "{query:?} found another heading"),
        Err(HeadingLookupError::Ambiguous { candidates, .. }) => {
            assert!(
                candidates.iter().any(|c| c.line == h.line),
                "{query:?} is ambiguous without {h:?}"
            );
        }
        Err(e) => panic!("{query:?} does not find {h:?}: {e}"),
    }
}

fn check_heading_targets(doc: &Document, outline: &MarkdownOutline, h: &markdown::Heading) {
    let display = h.display();
    if h.text.split_whitespace().next().is_none() {
        // A heading without text cannot be named by its text.
        return;
    }
    assert_finds(outline, &display, h);
    if !h.text.trim_start().starts_with('#') {
        // Without its level (a leading `#` would read as one).
        assert_finds(outline, &h.text, h);
    }
    let Ok(found) = markdown::find_heading(outline, &display) else {
        return;
    };
    assert_eq!(found.line, h.line);
    let read = resolve_read(
        doc,
        Some(outline),
        None,
        &Target::Heading(display.clone()),
        200,
    )
    .expect("a found heading reads");
    assert_eq!((read.span.start, read.span.end), (h.line, h.section_end));

    let site = |target: Target, op| resolve_edit(doc, Some(outline), &target, op).map(|e| e.site);
    assert_eq!(
        site(Target::AppendToSection(display.clone()), Operation::Insert),
        Ok(EditSite::InsertBefore(h.content_end + 1))
    );
    assert_eq!(
        site(Target::BeforeHeading(display.clone()), Operation::Insert),
        Ok(EditSite::InsertBefore(h.line))
    );
    assert_eq!(
        site(Target::Heading(display.clone()), Operation::Replace),
        Ok(EditSite::Lines {
            first: h.line,
            last: h.last_line
        })
    );
    assert!(matches!(
        site(Target::AppendToSection(display.clone()), Operation::Delete),
        Err(TargetError::WrongOperation { .. })
    ));
    assert_insert_changes_only_its_line(doc, h.content_end + 1);
}

fn check_code_block_targets(doc: &Document, outline: &MarkdownOutline, b: &markdown::CodeBlock) {
    let count = doc.line_count();
    let target = Target::CodeBlock { index: b.index };
    let read = resolve_read(doc, Some(outline), None, &target, 200).expect("a listed block reads");
    match b.content_lines() {
        Some((first, last)) => assert_eq!((read.span.start, read.span.end), (first, last)),
        None => assert!(read.span.is_empty() && read.span.start <= count + 1),
    }
    for op in [Operation::Replace, Operation::Insert, Operation::Delete] {
        match resolve_edit(doc, Some(outline), &target, op) {
            Ok(edit) => {
                assert!(!b.nested);
                match edit.site {
                    EditSite::Lines { first, last } => {
                        assert!(b.start_line < first && first <= last && last <= b.end_line);
                        assert!(b.closed && last < b.end_line || !b.closed);
                    }
                    EditSite::InsertBefore(at) => {
                        assert!(b.start_line < at && at <= count + 1);
                        assert_insert_changes_only_its_line(doc, at);
                    }
                    EditSite::Nothing(at) => {
                        // Deleting the content of a block that has none.
                        assert!(op == Operation::Delete && b.content_lines().is_none());
                        assert!(b.start_line < at && at <= count + 1);
                    }
                }
            }
            Err(TargetError::NestedCodeBlock { .. }) => assert!(b.nested),
            Err(TargetError::WrongOperation { .. }) => {
                assert!(op == Operation::Delete && b.content_lines().is_none());
            }
            Err(e) => panic!("codeBlock {} with {op:?}: {e}", b.index),
        }
    }
    let past = Target::CodeBlock {
        index: outline.code_blocks.len(),
    };
    assert!(matches!(
        resolve_read(doc, Some(outline), None, &past, 200),
        Err(TargetError::CodeBlockOutOfRange { .. })
    ));
}

/// Inserting a line before line `at` puts it there and keeps every other
/// byte: the text before and after the insertion point is the old text.
fn assert_insert_changes_only_its_line(doc: &Document, at: usize) {
    let eol = doc.eol_near(at.saturating_sub(1).max(1));
    let planned = plan(
        doc,
        &LineEdit::Insert {
            before: at,
            content: "INSERTED\n",
        },
        eol,
    )
    .expect("an insert at a resolved site plans");
    let after = doc.apply(&[planned.splice]).expect("UTF-8 encodes");
    let (old, new) = (doc.text(), after.text());
    let pos = if at <= doc.line_count() {
        doc.lines().start(at)
    } else {
        old.len()
    };
    assert!(new.len() > old.len());
    assert_eq!(new[..pos], old[..pos], "text before line {at}");
    assert_eq!(
        new[new.len() - (old.len() - pos)..],
        old[pos..],
        "text from line {at} on"
    );
    let middle = &new[pos..new.len() - (old.len() - pos)];
    let line = format!("INSERTED{}", eol.as_str());
    if at > doc.line_count() && !doc.has_final_newline() && !old.is_empty() {
        // Appended to a file without a final newline: its last line gets one.
        assert_eq!(middle, format!("{}INSERTED", eol.as_str()));
    } else {
        assert_eq!(middle, line, "the inserted line");
    }
}
