//! How an agent's memory of a block differs from the file: the text it sends
//! as `search_context`, and the text of `new_content` written from its
//! intent. Lines `new_content` keeps are copied from the same memory, so they
//! carry the same drift unless a case says otherwise; lines it adds or
//! rewrites are the agent's own text, in the same indentation frame.

use super::super::rng::Rng;
use super::super::text::{indent, to_ascii, typo};

/// How the whole block is indented in the agent's view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Frame {
    #[default]
    Same,
    /// The block's common indentation removed.
    Dedent,
    /// Every line shifted right.
    Shift(usize),
    /// The first line without its indentation (a selection that began after it).
    FirstStrip,
    /// Indentation in units of `from` columns rewritten in units of `to`.
    Scale(usize, usize),
    /// Tabs read as this many spaces.
    TabsToSpaces(usize),
    /// Runs of this many leading spaces read as tabs.
    SpacesToTabs(usize),
}

/// What `new_content` shows for a line the agent remembers wrongly.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StaleInNew {
    /// As the file has it now.
    Disk,
    /// As the agent remembers it.
    Memory,
}

/// The differences between the agent's view and the file.
#[derive(Debug, Clone, Default)]
pub struct Drift {
    pub frame: Frame,
    /// `new_content` is indented as the file is, not in the search's frame.
    pub new_in_file_frame: bool,
    /// Lines that get trailing whitespace in the view.
    pub trailing: Vec<usize>,
    /// Typographic quotes and dashes in these lines of the view.
    pub fancy: Vec<usize>,
    /// Typographic characters of the file read as ASCII.
    pub ascii: bool,
    /// Typos: (line, seed).
    pub typos: Vec<(usize, u64)>,
    /// Whether `new_content` has the typos too (else it has the file's text).
    pub typos_in_new: bool,
    /// Lines remembered as this text.
    pub stale: Vec<(usize, String)>,
    pub stale_in_new: Option<StaleInNew>,
    /// Blank lines of the file missing from the view.
    pub blank_missing: Vec<usize>,
    /// Whether `new_content` lacks them too.
    pub blank_missing_in_new: bool,
    /// Lines after which the view has a blank line the file has not.
    pub blank_added: Vec<usize>,
    /// Whether `new_content` has those extra blank lines too.
    pub blank_added_in_new: bool,
    /// Lines of the file missing from the view (forgotten).
    pub line_missing: Vec<usize>,
    /// Whether `new_content` lacks them too.
    pub line_missing_in_new: bool,
    /// `new_content` is the intended block exactly as the file would have
    /// it: none of the view's drift (only a stale line shows as set).
    pub new_clean: bool,
    /// The file line the search starts with.
    pub first_of_search: Option<usize>,
    /// Whether the search ends with a line break.
    pub final_newline: bool,
}

/// A line of a view: the file line it shows (if any) and its text.
#[derive(Debug, Clone)]
pub struct VLine {
    pub id: Option<usize>,
    pub text: String,
    /// The file line it shows or rewrites.
    pub of: Option<usize>,
}

impl Drift {
    /// The view of `lines`; `new` tells `new_content` from the search, and
    /// `dedent` is the indentation the search's lines share.
    pub fn view(&self, lines: &[VLine], new: bool, dedent: &str) -> String {
        let clean = new && self.new_clean;
        let first = lines.first().and_then(|l| l.of);
        let mut out: Vec<String> = Vec::new();
        let mut of: Vec<Option<usize>> = Vec::new();
        for line in lines {
            if line.id.is_some_and(|id| self.blank_missing.contains(&id))
                && (!new || self.blank_missing_in_new)
                && !clean
            {
                continue;
            }
            if line.id.is_some_and(|id| self.line_missing.contains(&id))
                && (!new || self.line_missing_in_new)
                && !clean
            {
                continue;
            }
            let mut t = line.text.clone();
            if let Some(id) = line.id {
                for (s, old) in &self.stale {
                    if *s == id && (!new || self.stale_in_new == Some(StaleInNew::Memory)) {
                        t = old.clone();
                    }
                }
                if clean {
                    out.push(t);
                    of.push(line.of);
                    continue;
                }
                if !new || self.typos_in_new {
                    for &(k, seed) in &self.typos {
                        if k == id {
                            t = typo(&t, &mut Rng::new(seed));
                        }
                    }
                }
                if self.ascii {
                    t = to_ascii(&t);
                }
                if self.fancy.contains(&id) {
                    t = typographic(&t);
                }
                if self.trailing.contains(&id) && !t.trim().is_empty() {
                    t.push_str(if id % 2 == 0 { "  " } else { " " });
                }
            }
            out.push(t);
            of.push(line.of);
            if line.id.is_some_and(|id| self.blank_added.contains(&id))
                && (!new || self.blank_added_in_new)
                && !clean
            {
                out.push(String::new());
                of.push(None);
            }
        }
        let frame = if new && (self.new_in_file_frame || self.new_clean) {
            Frame::Same
        } else {
            self.frame
        };
        // A selection that began after the first line's indentation: that
        // line (or its rewrite) is written without it.
        let first = if new { self.first_of_search } else { first };
        for (t, of) in out.iter_mut().zip(&of) {
            *t = reframe(t, frame, of.is_some() && *of == first, dedent);
        }
        let mut text = out.join("\n");
        // A last blank line needs its line break to be a line at all.
        if self.final_newline || out.last().is_some_and(|l| l.is_empty()) {
            text.push('\n');
        }
        text
    }
}

/// A line as a word processor would show it: curly quotes and apostrophes,
/// en dashes, an ellipsis character.
pub fn typographic(line: &str) -> String {
    let pad = indent(line);
    let mut out = String::from(pad);
    let mut open = true;
    let body = line[pad.len()..]
        .replace("...", "\u{2026}")
        .replace(" - ", " \u{2013} ");
    for c in body.chars() {
        match c {
            '"' => {
                out.push(if open { '\u{201C}' } else { '\u{201D}' });
                open = !open;
            }
            '\'' => out.push('\u{2019}'),
            c => out.push(c),
        }
    }
    out
}

/// The longest indentation every non-blank line of `lines` starts with.
pub fn common_indent(lines: &[VLine]) -> String {
    let mut common: Option<&str> = None;
    for line in lines.iter().filter(|l| !l.text.trim().is_empty()) {
        let pad = indent(&line.text);
        common = Some(match common {
            None => pad,
            Some(c) => {
                let n = c
                    .bytes()
                    .zip(pad.bytes())
                    .take_while(|(a, b)| a == b)
                    .count();
                &c[..n]
            }
        });
    }
    common.unwrap_or("").to_string()
}

fn reframe(line: &str, frame: Frame, first: bool, dedent: &str) -> String {
    let pad = indent(line);
    let body = &line[pad.len()..];
    if body.is_empty() {
        return String::new();
    }
    let new_pad = match frame {
        Frame::Same => pad.to_string(),
        Frame::Dedent => pad.strip_prefix(dedent).unwrap_or("").to_string(),
        Frame::Shift(n) => format!("{}{pad}", " ".repeat(n)),
        Frame::FirstStrip if first => String::new(),
        Frame::FirstStrip => pad.to_string(),
        Frame::Scale(from, to) => " ".repeat(pad.len() / from * to + pad.len() % from),
        Frame::TabsToSpaces(n) => pad.replace('\t', &" ".repeat(n)),
        Frame::SpacesToTabs(n) => {
            let spaces = pad.len() - pad.trim_start_matches(' ').len();
            format!(
                "{}{}{}",
                "\t".repeat(spaces / n),
                " ".repeat(spaces % n),
                &pad[spaces..]
            )
        }
    };
    format!("{new_pad}{body}")
}
