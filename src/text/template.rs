//! Templates: text with `{{placeholders}}` filled in when it is inserted,
//! following Obsidian's core Templates plugin.
//!
//! - `{{date}}` is the date as `YYYY-MM-DD`, `{{time}}` the time as `HH:mm`;
//!   `{{date:FORMAT}}` and `{{time:FORMAT}}` take a moment.js-style format
//!   (`YYYY`, `MM`, `DD`, `ddd`, `dddd`, `MMM`, `MMMM`, `HH`, `mm`, `ss`, `Do`,
//!   `[literal text]`, …; see [`format_moment`]).
//! - `{{title}}` is the name of the file the text goes into, without its
//!   extension.
//! - Any other `{{name}}` is a caller's variable. A variable named like a
//!   built-in placeholder replaces it.
//!
//! Every `{{…}}` is a placeholder: one that is not known, or not closed on
//! its line, is an error that lists the known ones, so a typo never ends up in
//! a note. `\{{` writes a literal `{{`. Values are inserted as they are; a
//! value that itself holds `{{…}}` is not filled in again.
//!
//! The text core has no clock: the caller passes the moment to use.
//!
//! ```
//! use std::collections::BTreeMap;
//! use mcp_server_text::text::template::{Moment, TemplateValues, fill};
//!
//! let now = Moment { year: 2026, month: 3, day: 7, hour: 9, minute: 5, second: 0, offset_seconds: 3600 };
//! let mut variables = BTreeMap::new();
//! variables.insert("mood".to_string(), "sunny".to_string());
//! let values = TemplateValues { now, title: "garden", variables: &variables, max_len: 1 << 20 };
//! let text = fill("# {{title}}\n{{date:dddd D MMMM YYYY}} at {{time}}, {{mood}}\n", &values).unwrap();
//! assert_eq!(text, "# garden\nSaturday 7 March 2026 at 09:05, sunny\n");
//! ```

use std::collections::BTreeMap;
use std::fmt::{self, Write};

/// A moment in civil (wall-clock) time, with its offset from UTC.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Moment {
    /// The year, e.g. 2026.
    pub year: i32,
    /// 1 to 12.
    pub month: u32,
    /// 1 to 31.
    pub day: u32,
    /// 0 to 23.
    pub hour: u32,
    /// 0 to 59.
    pub minute: u32,
    /// 0 to 60.
    pub second: u32,
    /// Seconds east of UTC (3600 for UTC+01:00).
    pub offset_seconds: i32,
}

/// What placeholders are filled with.
#[derive(Debug, Clone, Copy)]
pub struct TemplateValues<'a> {
    /// The moment for `{{date}}` and `{{time}}`.
    pub now: Moment,
    /// The value of `{{title}}`.
    pub title: &'a str,
    /// The caller's variables.
    pub variables: &'a BTreeMap<String, String>,
    /// Most bytes the filled text may have.
    pub max_len: usize,
}

/// Why a template could not be filled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TemplateError {
    /// `{{name}}` is neither built in nor a variable.
    Unknown {
        /// The placeholder as written.
        placeholder: String,
        /// Its line in the template.
        line: usize,
        /// The placeholders that are known.
        known: Vec<String>,
    },
    /// A placeholder that is not closed on its line, or not a name.
    Malformed {
        /// The text from `{{` on (shortened).
        placeholder: String,
        /// Its line in the template.
        line: usize,
        /// The placeholders that are known.
        known: Vec<String>,
    },
    /// The filled text would be longer than allowed.
    TooLong {
        /// Most bytes the filled text may have.
        limit: usize,
    },
    /// A format given to a placeholder that takes none.
    FormatNotAllowed {
        /// The placeholder as written.
        placeholder: String,
        /// Its line in the template.
        line: usize,
    },
}

impl fmt::Display for TemplateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TemplateError::Unknown {
                placeholder,
                line,
                known,
            } => write!(
                f,
                "unknown placeholder {placeholder} on line {line} of the template; the known ones are {}",
                known.join(", ")
            ),
            TemplateError::Malformed {
                placeholder,
                line,
                known,
            } => write!(
                f,
                "'{placeholder}' on line {line} of the template is not a placeholder: write {{{{name}}}} on one line (the known ones are {}), or \\{{{{ for a literal {{{{",
                known.join(", ")
            ),
            TemplateError::TooLong { limit } => write!(
                f,
                "the filled template would be longer than {limit} bytes, the most a file may hold; \
                 it was refused before it was filled"
            ),
            TemplateError::FormatNotAllowed { placeholder, line } => write!(
                f,
                "{placeholder} on line {line} of the template has a format, but only {{{{date:FORMAT}}}} and {{{{time:FORMAT}}}} take one"
            ),
        }
    }
}

impl std::error::Error for TemplateError {}

/// The placeholders a template may use with these `variables`.
pub fn known_placeholders(variables: &BTreeMap<String, String>) -> Vec<String> {
    let mut known: Vec<String> = [
        "{{date}}",
        "{{date:FORMAT}}",
        "{{time}}",
        "{{time:FORMAT}}",
        "{{title}}",
    ]
    .into_iter()
    .map(str::to_string)
    .collect();
    for name in variables.keys() {
        if !matches!(name.as_str(), "date" | "time" | "title") {
            known.push(format!("{{{{{name}}}}}"));
        }
    }
    known
}

/// Whether `name` can be a variable's name: a letter or `_`, then letters,
/// digits, `_`, `-` or `.`.
pub fn is_variable_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

/// Fills the placeholders of `template`, in one pass over it.
///
/// The filled text may be at most `values.max_len` bytes: the output is
/// measured before each piece is added, so a template that would grow past
/// it (a placeholder repeated many times with a long value) is refused
/// before the memory is taken.
pub fn fill(template: &str, values: &TemplateValues<'_>) -> Result<String, TemplateError> {
    let mut out = Output {
        text: String::with_capacity(template.len().min(values.max_len)),
        max_len: values.max_len,
    };
    let mut rest = template;
    let mut line = 1;
    while let Some(at) = memchr::memmem::find(rest.as_bytes(), b"{{") {
        let before = &rest[..at];
        line += memchr::memchr_iter(b'\n', before.as_bytes()).count();
        if let Some(kept) = before.strip_suffix('\\') {
            out.push(kept)?;
            out.push("{{")?;
            rest = &rest[at + 2..];
            continue;
        }
        out.push(before)?;
        let after = &rest[at + 2..];
        let malformed = || {
            let line_end = after.find('\n').unwrap_or(after.len());
            TemplateError::Malformed {
                placeholder: shorten(&rest[at..at + 2 + line_end]),
                line,
                known: known_placeholders(values.variables),
            }
        };
        // The closing `}}` on the same line; the scan stops at the line's end,
        // so every byte of the template is looked at a bounded number of times.
        let close = closing_braces(after).ok_or_else(malformed)?;
        let inner = &after[..close];
        let placeholder = &rest[at..at + 2 + close + 2];
        let (name, format) = match inner.split_once(':') {
            Some((name, format)) => (name.trim(), Some(format)),
            None => (inner.trim(), None),
        };
        if !is_variable_name(name) {
            return Err(malformed());
        }
        if let Some(value) = values.variables.get(name) {
            if format.is_some() {
                return Err(TemplateError::FormatNotAllowed {
                    placeholder: placeholder.to_string(),
                    line,
                });
            }
            out.push(value)?;
        } else {
            match (name, format) {
                ("date", None) => out.push(&format_moment(&values.now, "YYYY-MM-DD"))?,
                ("time", None) => out.push(&format_moment(&values.now, "HH:mm"))?,
                ("date" | "time", Some(format)) => {
                    out.push(&format_moment(&values.now, format.trim()))?
                }
                ("title", None) => out.push(values.title)?,
                ("title", Some(_)) => {
                    return Err(TemplateError::FormatNotAllowed {
                        placeholder: placeholder.to_string(),
                        line,
                    });
                }
                _ => {
                    return Err(TemplateError::Unknown {
                        placeholder: placeholder.to_string(),
                        line,
                        known: known_placeholders(values.variables),
                    });
                }
            }
        }
        rest = &after[close + 2..];
    }
    out.push(rest)?;
    Ok(out.text)
}

/// Where the first `}}` of `text` starts, if it comes before a line break.
fn closing_braces(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(found) = memchr::memchr2(b'}', b'\n', &bytes[from..]) {
        let at = from + found;
        if bytes[at] == b'\n' {
            return None;
        }
        if bytes.get(at + 1) == Some(&b'}') {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

/// The filled text, which refuses to grow past its limit.
struct Output {
    text: String,
    max_len: usize,
}

impl Output {
    fn push(&mut self, piece: &str) -> Result<(), TemplateError> {
        if self.text.len() + piece.len() > self.max_len {
            return Err(TemplateError::TooLong {
                limit: self.max_len,
            });
        }
        self.text.push_str(piece);
        Ok(())
    }
}

/// At most 40 characters of `text`.
fn shorten(text: &str) -> String {
    match text.char_indices().nth(40) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

const WEEKDAYS: [&str; 7] = [
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
];

/// The format tokens, longest first so that `MMMM` is not read as `MM MM`.
const TOKENS: &[&str] = &[
    "YYYY", "GGGG", "MMMM", "dddd", "DDDD", "MMM", "ddd", "DDD", "YY", "MM", "Mo", "DD", "Do",
    "dd", "do", "HH", "hh", "kk", "mm", "ss", "WW", "Wo", "ZZ", "M", "D", "d", "E", "W", "H", "h",
    "k", "m", "s", "A", "a", "Q", "Z",
];

/// Formats `moment` with moment.js tokens (English names):
///
/// | token | meaning | example |
/// |---|---|---|
/// | `YYYY` `YY` | year | 2026 26 |
/// | `Q` | quarter | 1 |
/// | `M` `MM` `Mo` `MMM` `MMMM` | month | 3 03 3rd Mar March |
/// | `D` `DD` `Do` | day of the month | 7 07 7th |
/// | `DDD` `DDDD` | day of the year | 66 066 |
/// | `d` `do` `dd` `ddd` `dddd` | day of the week (Sunday is 0) | 6 6th Sa Sat Saturday |
/// | `E` | ISO day of the week (Monday is 1) | 6 |
/// | `W` `WW` `Wo` `GGGG` | ISO week and its year | 10 10 10th 2026 |
/// | `H` `HH` `k` `kk` | hour 0–23, 1–24 | 9 09 9 09 |
/// | `h` `hh` `A` `a` | hour 1–12, AM/PM | 9 09 AM am |
/// | `m` `mm` `s` `ss` | minute, second | 5 05 0 00 |
/// | `Z` `ZZ` | UTC offset | +01:00 +0100 |
/// | `X` `x` | Unix time in seconds, milliseconds | |
///
/// Text in `[brackets]` is copied as it is; other characters too.
pub fn format_moment(moment: &Moment, format: &str) -> String {
    let mut out = String::with_capacity(format.len() + 8);
    let mut rest = format;
    // Once no `]` is left, no later `[` can open a literal: remembering that
    // keeps a format full of `[` linear.
    let mut closers_left = true;
    'outer: while let Some(c) = rest.chars().next() {
        let close = if c == '[' && closers_left {
            let close = rest.find(']');
            closers_left = close.is_some();
            close
        } else {
            None
        };
        if let Some(close) = close {
            out.push_str(&rest[1..close]);
            rest = &rest[close + 1..];
            continue;
        }
        if c == 'X' || c == 'x' {
            let unix = unix_seconds(moment);
            let _ = if c == 'X' {
                write!(out, "{unix}")
            } else {
                write!(out, "{}", unix * 1000)
            };
            rest = &rest[1..];
            continue;
        }
        for &token in TOKENS {
            if let Some(after) = rest.strip_prefix(token) {
                out.push_str(&token_value(moment, token));
                rest = after;
                continue 'outer;
            }
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

fn token_value(m: &Moment, token: &str) -> String {
    let weekday = weekday(m.year, m.month, m.day);
    let day_of_year = day_of_year(m.year, m.month, m.day);
    let (iso_year, iso_week) = iso_week(m.year, m.month, m.day);
    let hour12 = match m.hour % 12 {
        0 => 12,
        h => h,
    };
    let month_name = MONTHS[(m.month as usize).clamp(1, 12) - 1];
    let day_name = WEEKDAYS[weekday as usize];
    match token {
        "YYYY" => format!("{:04}", m.year),
        "YY" => format!("{:02}", m.year.rem_euclid(100)),
        "GGGG" => format!("{iso_year:04}"),
        "Q" => m.month.div_ceil(3).to_string(),
        "M" => m.month.to_string(),
        "MM" => format!("{:02}", m.month),
        "Mo" => ordinal(m.month),
        "MMM" => month_name[..3].to_string(),
        "MMMM" => month_name.to_string(),
        "D" => m.day.to_string(),
        "DD" => format!("{:02}", m.day),
        "Do" => ordinal(m.day),
        "DDD" => day_of_year.to_string(),
        "DDDD" => format!("{day_of_year:03}"),
        "d" => weekday.to_string(),
        "do" => ordinal(weekday),
        "dd" => day_name[..2].to_string(),
        "ddd" => day_name[..3].to_string(),
        "dddd" => day_name.to_string(),
        "E" => (if weekday == 0 { 7 } else { weekday }).to_string(),
        "W" => iso_week.to_string(),
        "WW" => format!("{iso_week:02}"),
        "Wo" => ordinal(iso_week),
        "H" => m.hour.to_string(),
        "HH" => format!("{:02}", m.hour),
        "k" => (if m.hour == 0 { 24 } else { m.hour }).to_string(),
        "kk" => format!("{:02}", if m.hour == 0 { 24 } else { m.hour }),
        "h" => hour12.to_string(),
        "hh" => format!("{hour12:02}"),
        "A" => (if m.hour < 12 { "AM" } else { "PM" }).to_string(),
        "a" => (if m.hour < 12 { "am" } else { "pm" }).to_string(),
        "m" => m.minute.to_string(),
        "mm" => format!("{:02}", m.minute),
        "s" => m.second.to_string(),
        "ss" => format!("{:02}", m.second),
        "Z" | "ZZ" => {
            let sign = if m.offset_seconds < 0 { '-' } else { '+' };
            let minutes = m.offset_seconds.unsigned_abs() / 60;
            let separator = if token == "Z" { ":" } else { "" };
            format!("{sign}{:02}{separator}{:02}", minutes / 60, minutes % 60)
        }
        _ => token.to_string(),
    }
}

/// `1st`, `2nd`, `3rd`, `4th`, `11th`, `21st`, …
fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// Days from 1970-01-01 to the given civil date (proleptic Gregorian).
fn days_from_civil(year: i32, month: u32, day: u32) -> i64 {
    let y = i64::from(year) - i64::from(month <= 2);
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(month);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// 0 for Sunday to 6 for Saturday.
fn weekday(year: i32, month: u32, day: u32) -> u32 {
    // 1970-01-01 was a Thursday.
    (days_from_civil(year, month, day) + 4).rem_euclid(7) as u32
}

fn day_of_year(year: i32, month: u32, day: u32) -> u32 {
    (days_from_civil(year, month, day) - days_from_civil(year, 1, 1) + 1) as u32
}

/// The ISO 8601 week-numbering year and week of a date.
fn iso_week(year: i32, month: u32, day: u32) -> (i32, u32) {
    let iso_weekday = |y, m, d| match weekday(y, m, d) {
        0 => 7,
        w => w,
    };
    let ordinal = day_of_year(year, month, day) as i32;
    let week = (ordinal - iso_weekday(year, month, day) as i32 + 10) / 7;
    if week < 1 {
        return (year - 1, weeks_in_year(year - 1));
    }
    if week as u32 > weeks_in_year(year) {
        return (year + 1, 1);
    }
    (year, week as u32)
}

/// 52 or 53.
fn weeks_in_year(year: i32) -> u32 {
    let p = |y: i32| {
        let y = i64::from(y);
        (y + y.div_euclid(4) - y.div_euclid(100) + y.div_euclid(400)).rem_euclid(7)
    };
    if p(year) == 4 || p(year - 1) == 3 {
        53
    } else {
        52
    }
}

fn unix_seconds(m: &Moment) -> i64 {
    days_from_civil(m.year, m.month, m.day) * 86_400
        + i64::from(m.hour) * 3600
        + i64::from(m.minute) * 60
        + i64::from(m.second)
        - i64::from(m.offset_seconds)
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: Moment = Moment {
        year: 2026,
        month: 3,
        day: 7,
        hour: 21,
        minute: 5,
        second: 9,
        offset_seconds: -(4 * 3600 + 30 * 60),
    };

    fn fill_with(template: &str, variables: &[(&str, &str)]) -> Result<String, TemplateError> {
        let variables: BTreeMap<String, String> = variables
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        fill(
            template,
            &TemplateValues {
                now: NOW,
                title: "Daily note",
                variables: &variables,
                max_len: 1 << 20,
            },
        )
    }

    #[test]
    fn built_in_placeholders() {
        assert_eq!(
            fill_with("{{date}} {{time}} {{title}} {{ date }}", &[]).unwrap(),
            "2026-03-07 21:05 Daily note 2026-03-07"
        );
        assert_eq!(
            fill_with("{{date:YYYY-MM-DDTHH:mm:ssZ}} | {{time:h:mm A}}", &[]).unwrap(),
            "2026-03-07T21:05:09-04:30 | 9:05 PM"
        );
        assert_eq!(
            fill_with("{{date:dddd, MMMM Do YYYY [week] W}}", &[]).unwrap(),
            "Saturday, March 7th 2026 week 10"
        );
    }

    #[test]
    fn variables_and_escapes() {
        assert_eq!(
            fill_with(
                "{{who}} met {{ who }} \\{{who}} {{title}}",
                &[("who", "Ann {{date}}"), ("title", "Override")]
            )
            .unwrap(),
            "Ann {{date}} met Ann {{date}} {{who}} Override"
        );
        assert_eq!(
            fill_with("no placeholders { } }}", &[]).unwrap(),
            "no placeholders { } }}"
        );
        assert_eq!(fill_with("", &[]).unwrap(), "");
    }

    fn fill_capped(template: &str, value: &str, max_len: usize) -> Result<String, TemplateError> {
        let variables = BTreeMap::from([("v".to_string(), value.to_string())]);
        fill(
            template,
            &TemplateValues {
                now: NOW,
                title: "t",
                variables: &variables,
                max_len,
            },
        )
    }

    #[test]
    fn the_filled_text_is_capped_before_it_is_built() {
        // 200,000 placeholders of a 100 KB value would be 20 GB.
        let template = "{{v}}".repeat(200_000);
        let value = "x".repeat(100_000);
        let error = fill_capped(&template, &value, 1 << 20).unwrap_err();
        assert_eq!(error, TemplateError::TooLong { limit: 1 << 20 });
        assert_eq!(
            error.to_string(),
            "the filled template would be longer than 1048576 bytes, the most a file may hold; \
             it was refused before it was filled"
        );
        // Exactly at the limit is allowed, one byte more is not.
        assert_eq!(fill_capped("a{{v}}b", "xy", 4).unwrap(), "axyb");
        assert!(fill_capped("a{{v}}b", "xy", 3).is_err());
    }

    #[test]
    fn a_long_line_of_placeholders_is_filled() {
        // Every placeholder on one 4 MB line: each `}}` is found without
        // looking for the end of the line again.
        let template = "{{v}} ".repeat(700_000);
        let filled = fill_capped(&template, "ab", usize::MAX).unwrap();
        assert_eq!(filled.len(), 700_000 * 3);
        assert!(filled.starts_with("ab ab "));
        // An unclosed placeholder at the end is still found and named.
        let error = fill_capped(&format!("{template}{{{{v"), "ab", usize::MAX).unwrap_err();
        assert!(
            matches!(error, TemplateError::Malformed { line: 1, .. }),
            "{error:?}"
        );
        // A format full of `[` without a `]`.
        let format = "[".repeat(200_000);
        assert_eq!(format_moment(&NOW, &format), format);
    }

    #[test]
    fn unknown_and_malformed_placeholders() {
        let err = fill_with("ok\n{{dat}}\n", &[("mood", "x")]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown placeholder {{dat}} on line 2 of the template; the known ones are {{date}}, \
             {{date:FORMAT}}, {{time}}, {{time:FORMAT}}, {{title}}, {{mood}}"
        );
        let err = fill_with("a\nb {{date\n}}", &[]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "'{{date' on line 2 of the template is not a placeholder: write {{name}} on one line \
             (the known ones are {{date}}, {{date:FORMAT}}, {{time}}, {{time:FORMAT}}, {{title}}), \
             or \\{{ for a literal {{"
        );
        assert!(matches!(
            fill_with("{{#if x}}", &[]).unwrap_err(),
            TemplateError::Malformed { line: 1, .. }
        ));
        assert_eq!(
            fill_with("{{title:upper}}", &[]).unwrap_err().to_string(),
            "{{title:upper}} on line 1 of the template has a format, but only {{date:FORMAT}} and \
             {{time:FORMAT}} take one"
        );
    }

    #[test]
    fn every_format_token() {
        let m = Moment {
            year: 2021,
            month: 1,
            day: 3,
            hour: 0,
            minute: 7,
            second: 0,
            offset_seconds: 3600,
        };
        assert_eq!(
            format_moment(&m, "YYYY YY Q M MM Mo MMM MMMM D DD Do DDD DDDD"),
            "2021 21 1 1 01 1st Jan January 3 03 3rd 3 003"
        );
        // 2021-01-03 is a Sunday in ISO week 53 of 2020.
        assert_eq!(
            format_moment(&m, "d do dd ddd dddd E W WW Wo GGGG"),
            "0 0th Su Sun Sunday 7 53 53 53rd 2020"
        );
        assert_eq!(
            format_moment(&m, "H HH k kk h hh A a m mm s ss Z ZZ X x"),
            "0 00 24 24 12 12 AM am 7 07 0 00 +01:00 +0100 1609628820 1609628820000"
        );
        assert_eq!(format_moment(&m, "[YYYY] = YYYY; ["), "YYYY = 2021; [");
    }

    #[test]
    fn calendar_arithmetic() {
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(days_from_civil(2000, 3, 1), 11_017);
        assert_eq!(weekday(2024, 2, 29), 4);
        assert_eq!(day_of_year(2024, 12, 31), 366);
        assert_eq!(iso_week(2026, 1, 1), (2026, 1));
        assert_eq!(iso_week(2027, 1, 1), (2026, 53));
        assert_eq!(iso_week(2024, 12, 30), (2025, 1));
        assert_eq!(iso_week(1969, 12, 31), (1970, 1));
    }
}
