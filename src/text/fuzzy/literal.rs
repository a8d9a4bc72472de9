//! The replacement text for an exact occurrence that starts or ends inside a
//! line, with the file's line endings.

use similar::{Algorithm, DiffOp, capture_diff_slices};

use crate::text::lines::Eol;

/// The replacement for an exact occurrence that starts or ends inside a line.
/// `breaks` are the endings of the lines the occurrence spans, in order: the
/// occurrence's k-th line break is the ending of the k-th of them. A line break
/// of `new` whose line the caller kept (an equal line in the search-to-new
/// diff) keeps the disk's ending; any other takes `eol`.
///
/// A final line break that `new` has and `search` has not (or the other way
/// round) is taken as the slip it nearly always is: `new` follows `search`, so
/// no line is joined to the next or split off from it. `ends_line` says
/// whether the occurrence ends where its last line's text does: when it does
/// not and `new` has fewer lines than `search`, the final line break of `new`
/// ends a line the caller kept, and dropping it would join that line to the
/// rest of the occurrence's last line.
pub(crate) fn literal(
    search: &str,
    new: &str,
    breaks: &[Eol],
    eol: Eol,
    ends_line: bool,
) -> String {
    let search = search.replace("\r\n", "\n");
    let mut new = new.replace("\r\n", "\n");
    let lines = |s: &str| s.matches('\n').count();
    match (search.ends_with('\n'), new.ends_with('\n')) {
        (true, false) if !new.is_empty() => new.push('\n'),
        (false, true) if ends_line || lines(&new) > lines(&search) => {
            new.pop();
        }
        _ => {}
    }
    let s: Vec<&str> = search.split('\n').collect();
    let n: Vec<&str> = new.split('\n').collect();
    let mut ends = vec![eol; n.len() - 1];
    for op in capture_diff_slices(Algorithm::Patience, &s, &n) {
        if let DiffOp::Equal {
            old_index,
            new_index,
            len,
        } = op
        {
            for t in 0..len {
                let (k, j) = (old_index + t, new_index + t);
                if let (Some(end), Some(&disk)) = (ends.get_mut(j), breaks.get(k))
                    && disk != Eol::None
                {
                    *end = disk;
                }
            }
        }
    }
    let mut out = String::with_capacity(new.len() + ends.len());
    for (j, part) in n.iter().enumerate() {
        out.push_str(part);
        if let Some(end) = ends.get(j) {
            out.push_str(end.as_str());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literal_splices_keep_the_endings_of_kept_lines() {
        let breaks = [Eol::Crlf, Eol::Lf, Eol::Crlf];
        assert_eq!(
            literal("a\n\nb", "a\n\nB", &breaks, Eol::Crlf, true),
            "a\r\n\nB"
        );
        assert_eq!(literal("x", "y\nz", &[Eol::Lf], Eol::Crlf, true), "y\r\nz");
        assert_eq!(literal("x", "y\n", &[], Eol::Lf, true), "y");
        assert_eq!(literal("x", "y\n", &[], Eol::Lf, false), "y");
        assert_eq!(literal("x\n", "y", &[Eol::Lf], Eol::Lf, true), "y\n");
    }

    #[test]
    fn a_kept_line_keeps_its_break_when_the_next_line_goes_in_part() {
        // Found by fuzzing: `a\nb` -> `a\n` inside `a\nb rest` joined `a`
        // to ` rest`; the caller kept line `a` and dropped only `b`.
        assert_eq!(literal("a\nb", "a\n", &[Eol::Lf], Eol::Lf, false), "a\n");
        // Ending where the line does, the whole last line goes.
        assert_eq!(literal("a\nb", "a\n", &[Eol::Lf], Eol::Lf, true), "a");
    }
}
