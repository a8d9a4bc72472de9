//! Re-basing the indentation of new lines from the caller's frame onto the
//! file's.
//!
//! The caller's search block and the block on disk may be indented differently:
//! shifted as a whole, with another unit (2 vs 4 spaces), or with tabs instead of
//! spaces. Pairs of matched lines show how one maps onto the other. A new line
//! then gets, in order of preference: the disk indentation of the line it
//! replaces (when the caller kept that line's indentation), the disk indentation
//! seen for the same caller width, or the width predicted by the fitted
//! scale and shift, written in the block's style (tabs or spaces).

use std::collections::HashMap;

use super::normalize::{TAB_WIDTH, width_in};

/// How indentation in the caller's frame maps to indentation on disk.
#[derive(Debug, Clone)]
pub(crate) struct IndentMap {
    identity: bool,
    /// The text the caller's frame adds to or drops from every line, if one.
    prefix: Option<Prefix>,
    /// The new content is in the file's frame, so the caller's indentation of
    /// a replaced line says nothing about the new line's.
    ignore_pairing: bool,
    table: HashMap<usize, String>,
    num: usize,
    den: usize,
    shift: isize,
    tabs: bool,
    /// Columns per tab in this block (see [`tab_width`]).
    tab: usize,
}

/// Whether `indent` is written in the block's style: an indentation some
/// line of the block has, or else no leading space run of a tab's width in a
/// tab-indented block and no tab in a space-indented one.
fn same_style(indent: &str, tabs: bool, tab: usize, block: &[&str]) -> bool {
    block.contains(&indent) || in_style(indent, tabs, tab)
}

/// Whether `indent` has no leading space run of a tab's width and no space
/// before a tab in a tab-indented block, and no tab in a space-indented one.
/// A space before a tab adds no column up to the tab stop, so widths cannot
/// tell ` \t\t` from `\t\t`: it is a frame the caller's texts carry (a
/// viewer's prefix), never a tab-indented file's own indentation.
fn in_style(indent: &str, tabs: bool, tab: usize) -> bool {
    if tabs {
        indent.bytes().take_while(|&b| b == b' ').count() < tab && !indent.contains(" \t")
    } else {
        !indent.contains('\t')
    }
}

/// Columns per tab in a block with these indentations. A block that indents
/// with tabs and also with runs of four or more spaces before any tab uses
/// tabs only for each full eight columns (the GNU and Emacs style, common in
/// C headers): there a tab is eight columns. Otherwise [`TAB_WIDTH`].
fn tab_width(block: &[&str]) -> usize {
    let tabbed = block.iter().any(|i| i.contains('\t'));
    let wide_spaces = block
        .iter()
        .any(|i| i.bytes().take_while(|&b| b == b' ').count() >= TAB_WIDTH);
    if tabbed && wide_spaces { 8 } else { TAB_WIDTH }
}

/// Text that every matched line's indentation has in the caller's frame
/// before the file's own: a view that put two spaces before every line, tabs
/// included. Widths cannot say this where tabs follow the prefix, as a
/// tab's width depends on the columns before it: `"  \t"` and `"\t"` are
/// both one tab stop wide. (A prefix the caller's frame lacks is a width
/// the numeric fit adds: it is put before the caller's own indentation.)
#[derive(Debug, Clone, PartialEq, Eq)]
struct Prefix(String);

impl Prefix {
    /// The one prefix of `pairs` (caller, disk), if the pairs that show
    /// one agree on it and either every indentation of the caller's texts
    /// (`caller`) begins with it and the caller's steps are the file's
    /// (`one_to_one`), or two pairs show it and none is without.
    /// A frame that prefixes every line the caller sent is text whatever the
    /// widths say: one pair is then enough, and a pair with nothing on
    /// either side is a blank line.
    fn of(pairs: &[(&str, &str)], caller: &[&str], one_to_one: bool) -> Option<Prefix> {
        let empty = |&&(s, d): &&(&str, &str)| s.is_empty() && d.is_empty();
        let shown: Vec<&(&str, &str)> = pairs.iter().filter(|p| !empty(p)).collect();
        let &&(s, d) = shown.first()?;
        if s.len() <= d.len() || !s.ends_with(d) {
            return None;
        }
        let prefix = &s[..s.len() - d.len()];
        let agree = shown
            .iter()
            .all(|&&(s, d)| s.strip_prefix(prefix) == Some(d));
        let everywhere =
            one_to_one && !caller.is_empty() && caller.iter().all(|i| i.starts_with(prefix));
        let two = shown.len() == pairs.len() && pairs.len() >= 2;
        (agree && (everywhere || two)).then(|| Prefix(prefix.to_string()))
    }

    /// `indent` (the caller's) on disk, if it has the prefix.
    fn to_disk<'i>(&self, indent: &'i str) -> Option<&'i str> {
        indent.strip_prefix(self.0.as_str())
    }
}

/// What is known about a block's indentation besides its matched lines.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Hints<'a> {
    /// Whether the new content is indented as the file is (`Some(true)`), as
    /// the search is (`Some(false)`), or unknown (judged from the smallest
    /// indentations).
    pub file_frame: Option<bool>,
    /// The step between indentation levels in the caller's text and in the
    /// file, if each has one.
    pub units: Option<(usize, usize)>,
    /// The indentation of every non-blank line of the search and of the new
    /// content, to tell a prefix the caller's frame puts before every line.
    pub caller: &'a [&'a str],
    /// The indentation of every non-blank line of the search, paired or
    /// not: the caller's frame, to tell whether new_content was written in
    /// the file's instead. (Empty: the paired lines' are used.)
    pub search: &'a [&'a str],
    /// The indentation of the file's non-blank lines around the block: its
    /// style (tabs or spaces) where the block's own lines show none.
    pub around: &'a [&'a str],
}

/// The step between the indentation widths `widths`: their greatest common
/// divisor above the smallest, 0 when all are equal.
pub(crate) fn step(widths: impl Iterator<Item = usize> + Clone) -> usize {
    unit(widths)
}

/// [`step`], read only where three widths or more differ. One difference
/// shows a distance, not a step: a file with lines at 0 and 8 has levels
/// of 4 as well as of 8, and rescaling the caller's lines to a guessed step
/// indents them twice over. (The caller's own step may be one distance: it
/// is the caller's, and the file's step is what it is mapped to.)
pub(crate) fn shown_step(widths: impl Iterator<Item = usize> + Clone) -> usize {
    let mut levels: Vec<usize> = widths.clone().collect();
    levels.sort_unstable();
    levels.dedup();
    if levels.len() < 3 { 0 } else { unit(widths) }
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// The common step between distinct widths, or 0 when all are equal.
fn unit(widths: impl Iterator<Item = usize> + Clone) -> usize {
    let Some(min) = widths.clone().min() else {
        return 0;
    };
    widths.fold(0, |g, w| gcd(g, w - min))
}

fn mode<T: std::hash::Hash + Eq + Copy + Ord>(values: impl Iterator<Item = T>) -> Option<T> {
    let mut counts: HashMap<T, usize> = HashMap::new();
    let mut order = Vec::new();
    for v in values {
        let c = counts.entry(v).or_insert(0);
        if *c == 0 {
            order.push(v);
        }
        *c += 1;
    }
    order
        .into_iter()
        .max_by(|a, b| counts[a].cmp(&counts[b]).then(b.cmp(a)))
}

impl IndentMap {
    /// Learns the mapping from `(caller indent, disk indent)` pairs of matched
    /// lines. `block` holds the indentation of every line of the disk block,
    /// to tell whether it is indented with tabs or spaces; `new` that of every
    /// non-blank line of the new content. (The matcher always has hints;
    /// the tests build maps from pairs alone.)
    #[cfg(test)]
    pub(crate) fn new<'a>(
        pairs: &[(&'a str, &'a str)],
        block: &[&'a str],
        new: &[&'a str],
    ) -> IndentMap {
        IndentMap::with_frame(pairs, block, new, Hints::default())
    }

    /// [`IndentMap::new`] with what is known besides the pairs (see
    /// [`Hints`]).
    pub(crate) fn with_frame<'a>(
        pairs: &[(&'a str, &'a str)],
        block: &[&'a str],
        new: &[&'a str],
        hints: Hints<'_>,
    ) -> IndentMap {
        let file_frame = hints.file_frame;
        let tab = tab_width(block);
        let width = |indent: &str| width_in(indent, tab);
        // Lines indented less than a tab tell nothing where tabs are only
        // used for each full tab's width.
        let counted = |i: &&&str| tab == TAB_WIDTH || width(i) >= tab;
        let starting = |indents: &[&str], c: char| {
            indents
                .iter()
                .filter(counted)
                .filter(|i| i.starts_with(c))
                .count()
        };
        // A first line that lost its indentation while every other line kept
        // the disk's exactly is a selection that began after the indent; it
        // says nothing about how the other lines map.
        let fit: &[(&str, &str)] = if pairs.len() >= 2
            && pairs[0].0.is_empty()
            && !pairs[0].1.is_empty()
            && pairs[1..].iter().all(|(s, d)| s == d)
        {
            &pairs[1..]
        } else {
            pairs
        };

        let mut seen: HashMap<(usize, &str), usize> = HashMap::new();
        for (s, d) in fit {
            *seen.entry((width(s), d)).or_default() += 1;
        }
        let mut table: HashMap<usize, (String, usize)> = HashMap::new();
        for (s, d) in fit {
            let count = seen[&(width(s), *d)];
            let slot = table.entry(width(s)).or_insert_with(|| (d.to_string(), 0));
            if count > slot.1 {
                *slot = (d.to_string(), count);
            }
        }

        let unit_s = unit(fit.iter().map(|(s, _)| width(s)));
        let unit_d = unit(fit.iter().map(|(_, d)| width(d)));
        let (num, den) = match (unit_s, unit_d, hints.units) {
            (s, d, _) if s > 0 && d > 0 => {
                let g = gcd(s, d);
                (d / g, s / g)
            }
            // Too few matched lines to see a step on both sides: the usual
            // steps of the caller's text and of the file around the block,
            // when the caller's is the narrower (a view that halves the
            // file's indentation; a wider step is more likely an outdent).
            (_, _, Some((caller, file)))
                if [2, 4].contains(&caller) && [4, 8].contains(&file) && caller < file =>
            {
                let g = gcd(caller, file);
                (file / g, caller / g)
            }
            _ => (1, 1),
        };
        // One pair shows no scale: a prefix only it shows is text only
        // where the caller's steps are the file's.
        let prefix = Prefix::of(pairs, hints.caller, num == den);
        // A block with no indented line shows no style: the file's around
        // it does (a tab-indented file whose block is its top-level lines),
        // and where none does either, the new lines' own (past the caller's
        // frame) is kept rather than guessed.
        let (block_tabs, block_spaces) = (starting(block, '\t'), starting(block, ' '));
        let (around_tabs, around_spaces) =
            (starting(hints.around, '\t'), starting(hints.around, ' '));
        let tabs = if block_tabs + block_spaces > 0 {
            block_tabs > block_spaces
        } else if around_tabs + around_spaces > 0 {
            around_tabs > around_spaces
        } else {
            let own: Vec<&str> = new
                .iter()
                .map(|i| prefix.as_ref().and_then(|p| p.to_disk(i)).unwrap_or(i))
                .collect();
            starting(&own, '\t') > starting(&own, ' ')
        };
        let min_width = |indents: &mut dyn Iterator<Item = &str>| indents.map(&width).min();
        // The whole search's frame: where the lines it pairs are only its
        // deeper ones (its first line stale, say), their least width is no
        // frame, and new_content at the search's own least width would read
        // as written in the file's.
        let search_min = if hints.search.is_empty() {
            min_width(&mut pairs.iter().map(|(s, _)| *s))
        } else {
            min_width(&mut hints.search.iter().copied())
        };
        let disk_min = min_width(&mut block.iter().copied());
        let new_min = min_width(&mut new.iter().copied());
        let in_disk_frame = file_frame
            .unwrap_or_else(|| new_min.is_some() && new_min == disk_min && search_min != disk_min);
        if in_disk_frame {
            // The search was indented differently from the file, but the new
            // content was written at the file's own indentation (copied from a
            // read of the file, say): shifting it by the search's offset
            // would indent it twice. It keeps its widths, in the block's style.
            let same: Vec<(&str, &str)> = block.iter().map(|d| (*d, *d)).collect();
            let around = Hints {
                around: hints.around,
                ..Hints::default()
            };
            let mut map = IndentMap::with_frame(&same, block, &[], around);
            map.identity = map.identity && new.iter().all(|i| same_style(i, tabs, tab, block));
            map.ignore_pairing = true;
            return map;
        }
        // New lines written with spaces where the block uses tabs (or the
        // reverse) are converted even when the search matched exactly.
        let identity = pairs.iter().all(|(s, d)| s == d)
            && new.iter().all(|i| same_style(i, tabs, tab, block));
        let shift = mode(
            fit.iter()
                .map(|(s, d)| width(d) as isize - (width(s) * num / den) as isize),
        )
        .unwrap_or(0);

        IndentMap {
            identity,
            prefix,
            ignore_pairing: false,
            table: table.into_iter().map(|(w, (d, _))| (w, d)).collect(),
            num,
            den,
            shift,
            tabs,
            tab,
        }
    }

    /// The disk indentation for a new line indented with `indent` in the
    /// caller's frame. `paired` is the caller's and the disk's indentation of
    /// the line it replaces, if any.
    pub(crate) fn map(&self, indent: &str, paired: Option<(&str, &str)>) -> String {
        if self.identity {
            return indent.to_string();
        }
        // The caller saw the file's indentation exactly and changed only
        // its characters (a tab for as many columns of spaces) to the
        // block's own style: columns are all the frame maps, so the change
        // is the caller's to write. Into the other style, it is converted.
        if let Some((s, d)) = paired
            && s == d
            && s != indent
            && width_in(s, self.tab) == width_in(indent, self.tab)
            && indent.starts_with('\t') == self.tabs
        {
            return indent.to_string();
        }
        if let Some((s, d)) = paired
            && ((s == indent && !self.ignore_pairing) || d == indent)
        {
            // The line it replaces, as the caller had it or as the file has
            // it: the file's indentation.
            return d.to_string();
        }
        // In the block's style only: a tab where the block indents with
        // spaces is a width, mapped below.
        if let Some(d) = self.prefix.as_ref().and_then(|p| p.to_disk(indent))
            && in_style(d, self.tabs, self.tab)
        {
            return d.to_string();
        }
        let w = width_in(indent, self.tab);
        if let Some(d) = self.table.get(&w) {
            return d.clone();
        }
        let cols = ((w * self.num / self.den) as isize + self.shift).max(0) as usize;
        if self.tabs {
            let mut out = "\t".repeat(cols / self.tab);
            out.push_str(&" ".repeat(cols % self.tab));
            out
        } else {
            " ".repeat(cols)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_space_before_a_tab_is_no_tab_style() {
        assert!(in_style("\t\t", true, TAB_WIDTH));
        assert!(in_style("\t  ", true, TAB_WIDTH));
        assert!(!in_style(" \t\t", true, TAB_WIDTH));
        assert!(!in_style("\t \t", true, TAB_WIDTH));
    }

    #[test]
    fn identical_indentation_is_kept_verbatim() {
        let map = IndentMap::new(&[("  ", "  "), ("    ", "    ")], &["  ", "    "], &[]);
        assert_eq!(map.map("\t  ", None), "\t  ");
    }

    #[test]
    fn a_prefix_before_tabs_is_taken_off_as_text() {
        // Two spaces before every line, tabs after them: `"  \t"` is one
        // tab stop wide, as `"\t"` is, so no width shift says it.
        let map = IndentMap::new(&[("  ", ""), ("  \t", "\t")], &["", "\t", "\t\t"], &[]);
        assert_eq!(map.map("  \t\t", None), "\t\t");
        assert_eq!(map.map("  \t\t\t", None), "\t\t\t");
        // A pair without it: widths decide.
        let map = IndentMap::new(&[("  ", ""), ("\t", "\t")], &["", "\t"], &[]);
        assert_eq!(map.prefix, None);
    }

    #[test]
    fn one_pair_shows_a_prefix_every_caller_line_has() {
        // One space before every line the caller sent; the one line paired
        // with the file is at its top level, and a blank line between.
        let caller = [" \t", " ", " \t", " ", " \t\t\t\t\t"];
        let hints = Hints {
            caller: &caller,
            ..Hints::default()
        };
        let map = IndentMap::with_frame(&[("", ""), (" ", "")], &["\t", ""], &caller[2..], hints);
        assert_eq!(map.map(" \t\t\t\t\t", None), "\t\t\t\t\t");
        // A caller line without the space: the frame is a width, not text.
        let caller = [" ", "\t"];
        let hints = Hints {
            caller: &caller,
            ..Hints::default()
        };
        let map = IndentMap::with_frame(&[(" ", "")], &["\t", ""], &[], hints);
        assert_eq!(map.prefix, None);
    }

    #[test]
    fn one_pair_s_prefix_is_a_width_where_the_steps_differ() {
        // The caller indents by 2 and the file by 4; every caller line
        // starts with two spaces, but one pair cannot tell a prefix from a
        // level: a line two caller levels deeper goes two file levels deeper.
        let caller = ["  ", "  ", "      "];
        let hints = Hints {
            units: Some((2, 4)),
            caller: &caller,
            ..Hints::default()
        };
        let map = IndentMap::with_frame(&[("  ", "")], &["", "    "], &caller[1..], hints);
        assert_eq!(map.prefix, None);
        assert_eq!(map.map("      ", None), " ".repeat(8));
    }

    #[test]
    fn a_shifted_block_is_shifted_back() {
        let map = IndentMap::new(
            &[("", "    "), ("    ", "        ")],
            &["    ", "        "],
            &[],
        );
        assert_eq!(map.map("    ", None), "        ");
        assert_eq!(map.map("        ", None), "            ");
    }

    #[test]
    fn a_block_of_top_level_lines_takes_the_style_of_the_file_around_it() {
        // The block's lines are all at the top level; the file around it
        // indents with tabs, and the caller adds a line one level in.
        let around = ["", "\t", "\t\t"];
        let hints = Hints {
            around: &around,
            ..Hints::default()
        };
        let map = IndentMap::with_frame(&[("", "")], &[""], &["", "    "], hints);
        assert_eq!(map.map("    ", None), "\t");
        // Where nothing around shows a style either, the caller's stays.
        let map = IndentMap::new(&[("", "")], &[""], &["", "    "]);
        assert_eq!(map.map("    ", None), "    ");
    }

    #[test]
    fn the_search_s_frame_is_read_from_all_its_lines_not_only_the_paired() {
        // One space before every caller line; the first search line is
        // stale, so only the deeper one pairs. `" \t"` is as wide as `"\t"`,
        // yet new_content is in the caller's frame, not the file's.
        let caller = [" \t", " \t\t", " \t", " \t\t"];
        let hints = Hints {
            caller: &caller,
            search: &caller[..2],
            ..Hints::default()
        };
        let map = IndentMap::with_frame(&[(" \t\t", "\t\t")], &["\t", "\t\t"], &caller[2..], hints);
        assert_eq!(map.map(" \t\t", None), "\t\t");
        assert_eq!(map.map(" \t", None), "\t");
    }

    #[test]
    fn spaces_become_tabs() {
        let map = IndentMap::new(&[("", ""), ("    ", "\t")], &["", "\t"], &[]);
        assert_eq!(map.map("        ", None), "\t\t");
    }

    #[test]
    fn units_are_rescaled() {
        let map = IndentMap::new(&[("", ""), ("  ", "    ")], &["", "    "], &[]);
        assert_eq!(map.map("    ", None), "        ");
    }

    #[test]
    fn new_content_at_the_file_s_indentation_is_not_shifted_again() {
        // Search sent at 2 spaces, file at 4, new content at 4.
        let map = IndentMap::new(&[("  ", "    ")], &["    "], &["    ", "        "]);
        assert_eq!(map.map("    ", Some(("  ", "    "))), "    ");
        assert_eq!(map.map("        ", None), "        ");
    }

    #[test]
    fn spaces_become_the_file_s_tabs_even_after_an_exact_match() {
        let map = IndentMap::new(&[("\t", "\t")], &["\t", "\t\t"], &["    ", "        "]);
        assert_eq!(map.map("    ", Some(("\t", "\t"))), "\t");
        assert_eq!(map.map("        ", None), "\t\t");
    }

    #[test]
    fn a_single_line_takes_the_steps_of_both_texts() {
        // One matched line at 4 (caller) and 8 (file); the caller indents by
        // 2, the file by 4: a line one level deeper goes to 12.
        let hints = Hints {
            file_frame: None,
            units: Some((2, 4)),
            ..Hints::default()
        };
        let map = IndentMap::with_frame(
            &[("    ", "        ")],
            &["        "],
            &["    ", "      "],
            hints,
        );
        assert_eq!(map.map("      ", None), " ".repeat(12));
        // A replaced line the caller wrote as the file has it keeps that.
        let map = IndentMap::new(&[("  ", "    ")], &["    "], &[]);
        assert_eq!(map.map("    ", Some(("  ", "    "))), "    ");
    }

    #[test]
    fn a_first_line_without_indent_does_not_skew_the_rest() {
        let map = IndentMap::new(
            &[("", "    "), ("    ", "    "), ("        ", "        ")],
            &["    ", "    ", "        "],
            &[],
        );
        assert_eq!(map.map("        ", None), "        ");
        assert_eq!(map.map("", Some(("", "    "))), "    ");
        assert_eq!(map.map("            ", None), "            ");
    }
}
