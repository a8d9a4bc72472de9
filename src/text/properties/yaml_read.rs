//! Reading a YAML frontmatter body into its top-level entries: each key with
//! its value as JSON, the lines it occupies and how it is written, from the
//! events of `saphyr-parser` (a YAML 1.2 parser that reports where each event
//! is). Nothing here writes YAML; [`super::yaml_write`] does.
//!
//! Plain scalars resolve as YAML 1.2's core schema says (`~`, `null` and
//! nothing are null; `true`, `false`; integers and floats); everything else,
//! dates included, is the string as written.

use std::collections::HashMap;

use saphyr_parser::{Event, Parser, ScalarStyle, Span};
use serde_json::{Map, Number, Value};

use crate::text::lines::split_lines;

/// How an entry's value is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Written {
    /// `key:` with nothing after it.
    Empty,
    /// A scalar in this style.
    Scalar(ScalarStyle),
    /// `[a, b]`.
    FlowList,
    /// `- a` lines, the dash after this indentation.
    BlockList(String),
    /// `{a: 1}`.
    FlowMap,
    /// Nested `key: value` lines, indented by this.
    BlockMap(String),
    /// `*anchor` or anything else kept as written.
    Other,
}

/// One top-level entry of the body.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct YamlEntry {
    /// The key as YAML reads it.
    pub key: String,
    /// The key as written, quotes included.
    pub raw_key: String,
    /// The value.
    pub value: Value,
    /// First line of the body (1-based) holding the entry: its key's.
    pub first: usize,
    /// Last line holding its value.
    pub last: usize,
    /// How the value is written.
    pub written: Written,
    /// For a value on the key's line: the text of that line up to where the
    /// value starts (`status: `), kept when the value is replaced.
    pub prefix: Option<String>,
    /// A comment after a one-line value (` # note`), with the spaces before it.
    pub comment: Option<String>,
    /// Where the value's one-line scalars are written: the value itself, or
    /// each item of a list (empty when some item is not a one-line scalar).
    pub scalars: Vec<ScalarSpot>,
}

/// A scalar written on one line of the body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct ScalarSpot {
    /// Its line (1-based, in the body).
    pub line: usize,
    /// The characters it covers on that line, quotes included.
    pub cols: std::ops::Range<usize>,
}

/// A YAML body that could not be read: the 1-based body line and the
/// parser's message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct YamlError {
    /// The line (of the body) the parser stopped at.
    pub line: usize,
    /// What it said.
    pub message: String,
}

/// Whether `text`, written plain as the one item of a flow list, reads back
/// as itself: what a reader takes for the list's syntax (`a -` before `]`)
/// is not for a rule to guess.
pub(super) fn plain_in_flow(text: &str) -> bool {
    let doc = format!("[{text}]\n");
    let mut scalars = Vec::new();
    for event in Parser::new_from_str(&doc) {
        match event {
            Ok((Event::Scalar(s, ScalarStyle::Plain, ..), _)) => scalars.push(s.to_string()),
            Ok(_) => {}
            Err(_) => return false,
        }
    }
    scalars == [text]
}

/// The top-level entries of `body` (the lines between the `---` markers).
pub(super) fn read_yaml(body: &str) -> Result<Vec<YamlEntry>, YamlError> {
    let mut events = Vec::new();
    for event in Parser::new_from_str(body) {
        match event {
            Ok(event) => events.push(event),
            Err(e) => {
                return Err(YamlError {
                    line: e.marker().line().max(1),
                    message: e.info().to_string(),
                });
            }
        }
    }
    let lines: Vec<&str> = split_lines(body).collect();
    let mut reader = Reader {
        events,
        at: 0,
        lines,
        anchors: HashMap::new(),
        last: 0,
        last_col: 0,
        spots: Some(Vec::new()),
        depth: 0,
    };
    reader.entries()
}

struct Reader<'t> {
    events: Vec<(Event<'t>, Span)>,
    at: usize,
    lines: Vec<&'t str>,
    anchors: HashMap<usize, Value>,
    /// The last line (1-based) any content of the node being read reached.
    last: usize,
    /// Where on that line the content ends (a character column).
    last_col: usize,
    /// The one-line scalars of the entry being read (`None` once one of its
    /// items is not such a scalar).
    spots: Option<Vec<ScalarSpot>>,
    /// How many sequences the node being read is in.
    depth: usize,
}

impl<'t> Reader<'t> {
    fn peek(&self) -> Option<&Event<'t>> {
        self.events.get(self.at).map(|(e, _)| e)
    }

    fn next(&mut self) -> Option<(Event<'t>, Span)> {
        let event = self.events.get(self.at).cloned();
        self.at += 1;
        event
    }

    fn entries(&mut self) -> Result<Vec<YamlEntry>, YamlError> {
        let mut out = Vec::new();
        let mut documents = 0;
        while let Some((event, span)) = self.next() {
            match event {
                Event::DocumentStart(_) => {
                    documents += 1;
                    if documents > 1 {
                        return Err(YamlError {
                            line: span.start.line().max(1),
                            message: "a second YAML document starts here; frontmatter holds one"
                                .into(),
                        });
                    }
                    match self.peek() {
                        Some(Event::MappingStart(..)) => {
                            self.next();
                            self.mapping_entries(&mut out)?;
                        }
                        Some(Event::DocumentEnd) => {}
                        Some(Event::Scalar(text, ScalarStyle::Plain, ..)) if text.is_empty() => {
                            self.next();
                        }
                        _ => {
                            let line = self.events.get(self.at).map_or(1, |(_, s)| s.start.line());
                            return Err(YamlError {
                                line: line.max(1),
                                message: "the frontmatter is not a list of `key: value` lines"
                                    .into(),
                            });
                        }
                    }
                }
                Event::StreamEnd => break,
                _ => {}
            }
        }
        Ok(out)
    }

    /// The entries of the top-level mapping, up to its end.
    fn mapping_entries(&mut self, out: &mut Vec<YamlEntry>) -> Result<(), YamlError> {
        loop {
            match self.peek() {
                Some(Event::MappingEnd) | None => {
                    self.next();
                    return Ok(());
                }
                _ => {}
            }
            let (key_event, key_span) = self.next().expect("peeked");
            let (key, raw_key) = match &key_event {
                Event::Scalar(text, ..) => (text.to_string(), self.slice(key_span).to_string()),
                _ => {
                    return Err(YamlError {
                        line: key_span.start.line().max(1),
                        message: "a key here is a list or a mapping; frontmatter keys are names"
                            .into(),
                    });
                }
            };
            let first = key_span.start.line().max(1);
            let value_start = self.events.get(self.at).map(|(_, s)| *s);
            self.last = first;
            self.last_col = key_span.end.col();
            self.spots = Some(Vec::new());
            let (value, written) = self.node(true)?;
            let scalars = self.spots.take().unwrap_or_default();
            let last = self.last.max(first);
            let on_key_line = value_start.filter(|s| s.start.line() == first);
            let prefix = match (&written, on_key_line) {
                (Written::Empty, _) => {
                    let text = self.line_text(first);
                    let key_end = byte_at(text, key_span.end.col());
                    let colon = text[key_end..]
                        .find(':')
                        .map_or(text.len(), |at| key_end + at + 1);
                    Some(format!("{} ", &text[..colon]))
                }
                (_, Some(span))
                    if !matches!(written, Written::BlockList(_) | Written::BlockMap(_)) =>
                {
                    Some(prefix_of(self.line_text(first), span.start.col()))
                }
                _ => None,
            };
            let comment = if first == last && prefix.is_some() {
                self.trailing_comment(first)
            } else {
                None
            };
            out.push(YamlEntry {
                key,
                raw_key,
                value,
                first,
                last,
                written,
                prefix,
                comment,
                scalars,
            });
        }
    }

    /// A comment at the end of line `line`, after the entry's content (which
    /// ends at `last_col`), with the spaces before it.
    fn trailing_comment(&self, line: usize) -> Option<String> {
        let text = self.line_text(line);
        let from = byte_at(text, self.last_col);
        let rest = &text[from.min(text.len())..];
        let hash = rest.find('#')?;
        let before = &rest[..hash];
        // Between the content and the comment: a flow collection's closing
        // brackets (its span may end before them), a key's colon, spaces.
        let kept = before.trim_end_matches([' ', '\t']);
        if kept.len() == before.len() || !kept.chars().all(|c| matches!(c, ']' | '}' | ':')) {
            return None;
        }
        Some(rest[kept.len()..].to_string())
    }

    fn line_text(&self, line: usize) -> &'t str {
        self.lines.get(line - 1).copied().unwrap_or("")
    }

    /// The text a span covers, when it lies on one line.
    fn slice(&self, span: Span) -> &'t str {
        if span.start.line() != span.end.line() {
            return "";
        }
        let text = self.line_text(span.start.line().max(1));
        let from = byte_at(text, span.start.col());
        let to = byte_at(text, span.end.col());
        &text[from..to.max(from)]
    }

    /// Notes that content reaches the position `end` (exclusive).
    fn reach(&mut self, start_line: usize, end: saphyr_parser::Marker) {
        let (line, col) = if end.col() == 0 && end.line() > start_line {
            (end.line() - 1, usize::MAX)
        } else {
            (end.line(), end.col())
        };
        self.reach_at(line, col);
    }

    /// Notes that content reaches column `col` of line `line`.
    fn reach_at(&mut self, line: usize, col: usize) {
        if line > self.last || (line == self.last && col > self.last_col) {
            self.last = line;
            self.last_col = col;
        }
    }

    /// The node that starts at the next event; `spot` to note where it is
    /// written if it is a one-line scalar (an entry's value or its items).
    fn node(&mut self, spot: bool) -> Result<(Value, Written), YamlError> {
        let Some((event, span)) = self.next() else {
            return Ok((Value::Null, Written::Empty));
        };
        match event {
            Event::Scalar(text, style, anchor, tag) => {
                let empty = text.is_empty() && style == ScalarStyle::Plain && tag.is_none();
                let line = span.start.line().max(1);
                // A quoted scalar's span runs on over the spaces and any
                // comment after its closing quote: end it at that quote.
                let end = match style {
                    ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted => {
                        closing_quote(self.line_text(line), span.start.col(), style)
                    }
                    _ => (span.end.line() == span.start.line()).then(|| span.end.col()),
                };
                match end {
                    Some(col) if !empty => self.reach_at(line, col),
                    _ if !empty => self.reach(span.start.line(), span.end),
                    _ => {}
                }
                if spot {
                    match (end, tag.is_none() && !empty, self.spots.as_mut()) {
                        (Some(col), true, Some(spots)) => spots.push(ScalarSpot {
                            line,
                            cols: span.start.col()..col,
                        }),
                        _ => self.spots = None,
                    }
                }
                let tag = tag.map(|t| t.suffix.clone());
                let value = scalar_value(&text, style, tag.as_deref());
                if anchor > 0 {
                    self.anchors.insert(anchor, value.clone());
                }
                let written = if empty {
                    Written::Empty
                } else {
                    Written::Scalar(style)
                };
                Ok((value, written))
            }
            Event::Alias(anchor) => {
                self.spots = None;
                self.reach(span.start.line(), span.end);
                let value = self.anchors.get(&anchor).cloned().unwrap_or(Value::Null);
                Ok((value, Written::Other))
            }
            Event::SequenceStart(anchor, _) => {
                if spot && self.depth > 0 {
                    // A list in a list: its items are not the entry's.
                    self.spots = None;
                }
                self.depth += 1;
                let flow = self.char_at(span) == Some('[');
                let indent = self.indent_at(span);
                let mut items = Vec::new();
                loop {
                    match self.peek() {
                        Some(Event::SequenceEnd) => {
                            let (_, end) = self.next().expect("peeked");
                            if flow {
                                // The end event starts at `]` (its span may
                                // run on over a comment).
                                self.reach_at(end.start.line(), end.start.col() + 1);
                            }
                            break;
                        }
                        None => break,
                        _ => items.push(self.node(spot)?.0),
                    }
                }
                self.depth -= 1;
                if flow {
                    self.reach(span.start.line(), span.start);
                }
                let value = Value::Array(items);
                if anchor > 0 {
                    self.anchors.insert(anchor, value.clone());
                }
                let written = if flow {
                    Written::FlowList
                } else {
                    Written::BlockList(indent)
                };
                Ok((value, written))
            }
            Event::MappingStart(anchor, _) => {
                self.spots = None;
                let flow = self.char_at(span) == Some('{');
                let indent = self.indent_at(span);
                let mut map = Map::new();
                loop {
                    match self.peek() {
                        Some(Event::MappingEnd) => {
                            let (_, end) = self.next().expect("peeked");
                            if flow {
                                self.reach_at(end.start.line(), end.start.col() + 1);
                            }
                            break;
                        }
                        None => break,
                        _ => {
                            let (key, _) = self.node(false)?;
                            let (value, _) = self.node(false)?;
                            let key = match key {
                                Value::String(s) => s,
                                Value::Null => String::new(),
                                other => other.to_string(),
                            };
                            map.insert(key, value);
                        }
                    }
                }
                let value = Value::Object(map);
                if anchor > 0 {
                    self.anchors.insert(anchor, value.clone());
                }
                let written = if flow {
                    Written::FlowMap
                } else {
                    Written::BlockMap(indent)
                };
                Ok((value, written))
            }
            _ => Ok((Value::Null, Written::Other)),
        }
    }

    /// The character a span starts with.
    fn char_at(&self, span: Span) -> Option<char> {
        self.line_text(span.start.line().max(1))
            .chars()
            .nth(span.start.col())
    }

    /// The whitespace before the column a span starts at, on its line.
    fn indent_at(&self, span: Span) -> String {
        let text = self.line_text(span.start.line().max(1));
        let upto = byte_at(text, span.start.col());
        let before = &text[..upto];
        if before.chars().all(|c| c == ' ' || c == '\t') {
            before.to_string()
        } else {
            " ".repeat(span.start.col())
        }
    }
}

/// The column just after the quote that closes the scalar opened at column
/// `start` of `line`, if it closes on that line.
fn closing_quote(line: &str, start: usize, style: ScalarStyle) -> Option<usize> {
    let single = style == ScalarStyle::SingleQuoted;
    let mut chars = line.chars().enumerate().skip(start + 1).peekable();
    while let Some((at, c)) = chars.next() {
        match c {
            '\\' if !single => {
                chars.next();
            }
            '\'' if single => {
                if chars.peek().is_some_and(|(_, n)| *n == '\'') {
                    chars.next();
                } else {
                    return Some(at + 1);
                }
            }
            '"' if !single => return Some(at + 1),
            _ => {}
        }
    }
    None
}

/// The byte offset of character `col` of `line` (its length when past the end).
fn byte_at(line: &str, col: usize) -> usize {
    line.char_indices()
        .nth(col)
        .map_or(line.len(), |(at, _)| at)
}

/// The text of `line` before character `col`.
fn prefix_of(line: &str, col: usize) -> String {
    line[..byte_at(line, col)].to_string()
}

/// The value of a scalar written `text` in `style`, with an explicit `tag`
/// suffix (`str`, `int`, …) if it has one.
pub(super) fn scalar_value(text: &str, style: ScalarStyle, tag: Option<&str>) -> Value {
    match tag {
        Some("str") => return Value::String(text.to_string()),
        Some("null") => return Value::Null,
        _ => {}
    }
    if style != ScalarStyle::Plain && tag.is_none() {
        return Value::String(text.to_string());
    }
    plain_value(text)
}

/// What a plain scalar means under YAML 1.2's core schema.
pub(super) fn plain_value(text: &str) -> Value {
    match text {
        "" | "~" | "null" | "Null" | "NULL" => return Value::Null,
        "true" | "True" | "TRUE" => return Value::Bool(true),
        "false" | "False" | "FALSE" => return Value::Bool(false),
        _ => {}
    }
    if let Some(n) = integer(text) {
        return Value::Number(n);
    }
    if is_float(text)
        && let Ok(f) = text.parse::<f64>()
        && let Some(n) = Number::from_f64(f)
    {
        return Value::Number(n);
    }
    Value::String(text.to_string())
}

fn integer(text: &str) -> Option<Number> {
    let (sign, digits) = match text.as_bytes().first()? {
        b'-' => (-1i128, &text[1..]),
        b'+' => (1, &text[1..]),
        _ => (1, text),
    };
    let (radix, digits) = if let Some(hex) = digits.strip_prefix("0x") {
        (16, hex)
    } else if let Some(octal) = digits.strip_prefix("0o") {
        (8, octal)
    } else {
        (10, digits)
    };
    if radix != 10 && text.starts_with(['-', '+']) {
        return None;
    }
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    let magnitude = i128::from_str_radix(digits, radix).ok()?;
    let value = sign * magnitude;
    if let Ok(v) = i64::try_from(value) {
        Some(Number::from(v))
    } else {
        u64::try_from(value).ok().map(Number::from)
    }
}

/// `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`
fn is_float(text: &str) -> bool {
    let b = text.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'-' | b'+')));
    let int_start = i;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    let int_digits = i - int_start;
    let mut frac_digits = 0;
    if b.get(i) == Some(&b'.') {
        i += 1;
        let frac_start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        frac_digits = i - frac_start;
    }
    if int_digits == 0 && frac_digits == 0 {
        return false;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'-' | b'+')) {
            i += 1;
        }
        let exp_start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == exp_start {
            return false;
        }
    }
    i == b.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn entries(body: &str) -> Vec<YamlEntry> {
        read_yaml(body).unwrap()
    }

    #[test]
    fn keys_values_and_lines() {
        let body = "title: Garden # the name\nstatus: draft\ntags: [a, \"b c\"]  # flow\naliases:\n  - Veg\n  - 'Beds'\n# a comment\nempty:\nwhen: 2026-05-01\ncount: 3\nratio: 0.5\nyes: true\nnote: |\n  one\n  two\n";
        let e = entries(body);
        let summary: Vec<(&str, Value, usize, usize)> = e
            .iter()
            .map(|e| (e.key.as_str(), e.value.clone(), e.first, e.last))
            .collect();
        assert_eq!(
            summary,
            [
                ("title", json!("Garden"), 1, 1),
                ("status", json!("draft"), 2, 2),
                ("tags", json!(["a", "b c"]), 3, 3),
                ("aliases", json!(["Veg", "Beds"]), 4, 6),
                ("empty", Value::Null, 8, 8),
                ("when", json!("2026-05-01"), 9, 9),
                ("count", json!(3), 10, 10),
                ("ratio", json!(0.5), 11, 11),
                ("yes", json!(true), 12, 12),
                ("note", json!("one\ntwo\n"), 13, 15),
            ]
        );
        assert_eq!(e[0].comment.as_deref(), Some(" # the name"));
        assert_eq!(e[0].prefix.as_deref(), Some("title: "));
        assert_eq!(e[2].comment.as_deref(), Some("  # flow"));
        assert_eq!(e[2].written, Written::FlowList);
        assert_eq!(e[3].written, Written::BlockList("  ".into()));
        assert_eq!(e[4].prefix.as_deref(), Some("empty: "));
        assert_eq!(e[9].written, Written::Scalar(ScalarStyle::Literal));
    }

    #[test]
    fn invalid_yaml_names_its_line() {
        let err = read_yaml("a: 1\nb: [x, y\nc: 2\n").unwrap_err();
        assert!(err.line >= 2, "{err:?}");
        let err = read_yaml("- a\n- b\n").unwrap_err();
        assert_eq!(err.line, 1);
        assert!(read_yaml("").unwrap().is_empty());
        assert!(read_yaml("# only a comment\n").unwrap().is_empty());
    }

    #[test]
    fn core_schema_scalars() {
        assert_eq!(plain_value("~"), Value::Null);
        assert_eq!(plain_value("0x1F"), json!(31));
        assert_eq!(plain_value("-12"), json!(-12));
        assert_eq!(plain_value("1e3"), json!(1000.0));
        assert_eq!(plain_value(".5"), json!(0.5));
        assert_eq!(plain_value("1.2.3"), json!("1.2.3"));
        assert_eq!(plain_value("yes"), json!("yes"));
        assert_eq!(plain_value("12:30"), json!("12:30"));
        assert_eq!(
            scalar_value("12", ScalarStyle::DoubleQuoted, None),
            json!("12")
        );
        assert_eq!(
            scalar_value("12", ScalarStyle::Plain, Some("str")),
            json!("12")
        );
    }
}
