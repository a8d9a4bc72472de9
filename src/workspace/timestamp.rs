//! Times written as UTC text without a date library: `2026-11-22T04:05:06Z`
//! in responses (RFC 3339) and `2026-11-22T04-05-06Z` in file names, where a
//! `:` is refused by some file systems.
//!
//! ```
//! use mcp_server_text::workspace::timestamp::UtcTime;
//!
//! let t = UtcTime::from_unix(1_795_320_306);
//! assert_eq!(t.rfc3339(), "2026-11-22T04:05:06Z");
//! assert_eq!(t.file_name(), "2026-11-22T04-05-06Z");
//! ```

use std::time::{SystemTime, UNIX_EPOCH};

/// A point in time to the second, broken down in UTC.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct UtcTime {
    /// The year, e.g. 2026.
    pub year: i64,
    /// 1 to 12.
    pub month: u32,
    /// 1 to 31.
    pub day: u32,
    /// 0 to 23.
    pub hour: u32,
    /// 0 to 59.
    pub minute: u32,
    /// 0 to 59.
    pub second: u32,
}

impl UtcTime {
    /// The time `secs` seconds after 1970-01-01T00:00:00Z (negative: before).
    pub fn from_unix(secs: i64) -> UtcTime {
        let days = secs.div_euclid(86_400);
        let of_day = secs.rem_euclid(86_400) as u32;
        let (year, month, day) = civil_from_days(days);
        UtcTime {
            year,
            month,
            day,
            hour: of_day / 3600,
            minute: of_day / 60 % 60,
            second: of_day % 60,
        }
    }

    /// The time of `time`, to the second (rounded down).
    pub fn of(time: SystemTime) -> UtcTime {
        let secs = match time.duration_since(UNIX_EPOCH) {
            Ok(after) => after.as_secs() as i64,
            Err(before) => {
                let d = before.duration();
                -(d.as_secs() as i64) - i64::from(d.subsec_nanos() > 0)
            }
        };
        UtcTime::from_unix(secs)
    }

    /// The current time.
    pub fn now() -> UtcTime {
        UtcTime::of(SystemTime::now())
    }

    /// `2026-11-22T04:05:06Z`.
    pub fn rfc3339(&self) -> String {
        format!(
            "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z",
            self.year, self.month, self.day, self.hour, self.minute, self.second
        )
    }

    /// `2026-11-22T04-05-06Z`: sorts like the time and is a valid file name everywhere.
    pub fn file_name(&self) -> String {
        format!(
            "{:04}-{:02}-{:02}T{:02}-{:02}-{:02}Z",
            self.year, self.month, self.day, self.hour, self.minute, self.second
        )
    }
}

/// Year, month and day of the day `days` after 1970-01-01, in the proleptic
/// Gregorian calendar (the algorithm of Howard Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn known_dates() {
        assert_eq!(UtcTime::from_unix(0).rfc3339(), "1970-01-01T00:00:00Z");
        assert_eq!(UtcTime::from_unix(-1).rfc3339(), "1969-12-31T23:59:59Z");
        assert_eq!(
            UtcTime::from_unix(951_782_400).rfc3339(),
            "2000-02-29T00:00:00Z"
        );
        assert_eq!(
            UtcTime::from_unix(4_107_542_399).rfc3339(),
            "2100-02-28T23:59:59Z"
        );
        assert_eq!(
            UtcTime::from_unix(4_107_542_400).rfc3339(),
            "2100-03-01T00:00:00Z"
        );
    }

    #[test]
    fn system_times_round_down() {
        let t = UNIX_EPOCH + Duration::from_millis(1500);
        assert_eq!(UtcTime::of(t).second, 1);
        let before = UNIX_EPOCH - Duration::from_millis(500);
        assert_eq!(UtcTime::of(before).rfc3339(), "1969-12-31T23:59:59Z");
    }

    #[test]
    fn every_day_follows_the_one_before() {
        // 1900 to 2200: days, months and years advance one at a time.
        let mut previous = UtcTime::from_unix(-2_208_988_800 - 86_400);
        for day in -25_567..84_000_i64 {
            let t = UtcTime::from_unix(day * 86_400);
            assert!(t > previous, "{t:?} after {previous:?}");
            assert!((1..=31).contains(&t.day) && (1..=12).contains(&t.month));
            if t.day != 1 {
                assert_eq!(
                    (t.year, t.month, t.day - 1),
                    (previous.year, previous.month, previous.day)
                );
            }
            previous = t;
        }
    }
}
