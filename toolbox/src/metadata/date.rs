//! PDF date strings (`D:YYYYMMDDHHmmSSOHH'mm'`, ISO 32000-1, 7.9.4) and the ISO 8601 form
//! that XMP and the user see; the current time without a date library.

use std::time::{SystemTime, UNIX_EPOCH};

/// A moment as a PDF date string gives it: what it leaves out is `None`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Parsed {
    year: u32,
    month: u32,
    day: u32,
    /// Hour, minute, second; `None` when the string stops at the date.
    time: Option<(u32, u32, u32)>,
    /// Offset from UTC in minutes; `None` when the string has no zone.
    offset: Option<i32>,
}

/// `raw` as ISO 8601 (`2024-01-02T10:20:30+01:00`, `2024-01-02` for a date alone), or `None`
/// when it is not a PDF date. Parts the string leaves out default as the standard says
/// (month and day 01, minutes and seconds 00); a zone it leaves out is left out.
pub fn to_iso(raw: &str) -> Option<String> {
    let parsed = parse(raw)?;
    let mut iso = format!("{:04}-{:02}-{:02}", parsed.year, parsed.month, parsed.day);
    if let Some((hour, minute, second)) = parsed.time {
        iso.push_str(&format!("T{hour:02}:{minute:02}:{second:02}"));
        match parsed.offset {
            Some(0) => iso.push('Z'),
            Some(offset) => {
                let sign = if offset < 0 { '-' } else { '+' };
                let offset = offset.unsigned_abs();
                iso.push_str(&format!("{sign}{:02}:{:02}", offset / 60, offset % 60));
            }
            None => {}
        }
    }
    Some(iso)
}

fn parse(raw: &str) -> Option<Parsed> {
    let text = raw.trim();
    let text = text.strip_prefix("D:").unwrap_or(text).as_bytes();
    let digits = text.iter().take_while(|b| b.is_ascii_digit()).count();
    // Year, then month, day, hour, minute, second in pairs.
    if !(4..=14).contains(&digits) || !digits.is_multiple_of(2) {
        return None;
    }
    let number = |from: usize, len: usize| -> u32 {
        text[from..from + len]
            .iter()
            .fold(0, |n, d| n * 10 + u32::from(d - b'0'))
    };
    let part = |index: usize, default: u32| -> u32 {
        let from = 4 + 2 * index;
        if from + 2 <= digits {
            number(from, 2)
        } else {
            default
        }
    };
    let parsed = Parsed {
        year: number(0, 4),
        month: part(0, 1),
        day: part(1, 1),
        time: (digits >= 10).then(|| (part(2, 0), part(3, 0), part(4, 0))),
        offset: zone(&text[digits..])?,
    };
    let (hour, minute, second) = parsed.time.unwrap_or((0, 0, 0));
    let valid = (1..=12).contains(&parsed.month)
        && (1..=31).contains(&parsed.day)
        && hour < 24
        && minute < 60
        && second < 61;
    valid.then_some(parsed)
}

/// The zone after the time: nothing, `Z` (with the `00'00'` some producers add), or
/// `+HH'mm'` / `+HH'mm` / `+HHmm` / `+HH:mm` / `+HH`. `Some(None)` is no zone; `None` is junk.
fn zone(rest: &[u8]) -> Option<Option<i32>> {
    let Some((&sign, rest)) = rest.split_first() else {
        return Some(None);
    };
    let sign = match sign {
        b'Z' | b'z' => {
            let tail_ok = rest
                .iter()
                .all(|b| b.is_ascii_digit() || matches!(b, b'\'' | b':'));
            return tail_ok.then_some(Some(0));
        }
        b'+' => 1,
        b'-' => -1,
        _ => return None,
    };
    let digits: Vec<u32> = rest
        .iter()
        .filter(|b| !matches!(b, b'\'' | b':'))
        .map(|b| b.is_ascii_digit().then(|| u32::from(b - b'0')))
        .collect::<Option<_>>()?;
    let (hours, minutes) = match digits.as_slice() {
        [h1, h2] => (h1 * 10 + h2, 0),
        [h1, h2, m1, m2] => (h1 * 10 + h2, m1 * 10 + m2),
        _ => return None,
    };
    if hours > 23 || minutes > 59 {
        return None;
    }
    Some(Some(sign * i32::try_from(hours * 60 + minutes).ok()?))
}

/// A moment in UTC, to the second.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Utc {
    year: i64,
    month: u32,
    day: u32,
    hour: u32,
    minute: u32,
    second: u32,
}

impl Utc {
    pub fn now() -> Self {
        let seconds = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |elapsed| elapsed.as_secs());
        Self::from_unix(seconds)
    }

    pub fn from_unix(seconds: u64) -> Self {
        let days = i64::try_from(seconds / 86_400).unwrap_or(0);
        let of_day = seconds % 86_400;
        let (year, month, day) = civil(days);
        // Below 86 400, so each part fits.
        let part = |n: u64| u32::try_from(n).unwrap_or(0);
        Utc {
            year,
            month,
            day,
            hour: part(of_day / 3600),
            minute: part(of_day / 60 % 60),
            second: part(of_day % 60),
        }
    }

    /// `D:20240102030405Z`.
    pub fn pdf(&self) -> String {
        format!(
            "D:{:04}{:02}{:02}{:02}{:02}{:02}Z",
            self.year, self.month, self.day, self.hour, self.minute, self.second
        )
    }

    /// `2024-01-02T03:04:05Z`.
    pub fn iso(&self) -> String {
        format!(
            "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z",
            self.year, self.month, self.day, self.hour, self.minute, self.second
        )
    }
}

/// Year, month, day of a count of days since 1970-01-01 (H. Hinnant's `civil_from_days`).
fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    let small = |n: i64| u32::try_from(n).unwrap_or(1);
    (year, small(month), small(day))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pdf_dates_read_as_iso() {
        let cases = [
            ("D:20240102103045+01'00'", Some("2024-01-02T10:30:45+01:00")),
            ("D:20240102103045-05'30", Some("2024-01-02T10:30:45-05:30")),
            ("D:20240102103045Z", Some("2024-01-02T10:30:45Z")),
            ("D:20240102103045Z00'00'", Some("2024-01-02T10:30:45Z")),
            ("20240102103045+0100", Some("2024-01-02T10:30:45+01:00")),
            ("D:202401021030", Some("2024-01-02T10:30:00")),
            ("D:20240102", Some("2024-01-02")),
            ("D:2024", Some("2024-01-01")),
            (" D:20240102103045 ", Some("2024-01-02T10:30:45")),
            ("D:20241302", None),
            ("D:2024010210304", None),
            ("yesterday", None),
            ("D:20240102103045+01'00'junk", None),
            ("", None),
        ];
        for (raw, iso) in cases {
            assert_eq!(to_iso(raw).as_deref(), iso, "{raw}");
        }
    }

    #[test]
    fn unix_times_become_civil_dates() {
        let at = Utc::from_unix(0);
        assert_eq!(at.pdf(), "D:19700101000000Z");
        // 2024-02-29T23:59:59Z, a leap day.
        let at = Utc::from_unix(1_709_251_199);
        assert_eq!(at.iso(), "2024-02-29T23:59:59Z");
        assert_eq!(to_iso(&at.pdf()).as_deref(), Some("2024-02-29T23:59:59Z"));
    }
}
