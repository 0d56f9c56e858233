//! `Retry-After` (RFC 9110 §10.2.3): delta-seconds, or an HTTP-date.

use std::time::{Duration, SystemTime};

/// How long the server asks to wait, counted from `now`. A date in the past means at once;
/// a value that is neither form is ignored (the client's own backoff applies).
pub fn parse(value: &str, now: SystemTime) -> Option<Duration> {
    let value = value.trim();
    if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) {
        // More digits than a u64 holds is still "very long", not "no answer".
        let seconds = value.parse::<u64>().unwrap_or(u64::MAX);
        return Some(Duration::from_secs(seconds));
    }
    let date = httpdate::parse_http_date(value).ok()?;
    Some(date.duration_since(now).unwrap_or(Duration::ZERO))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Wed, 21 Oct 2015 07:28:00 GMT.
    fn now() -> SystemTime {
        SystemTime::UNIX_EPOCH + Duration::from_secs(1_445_412_480)
    }

    #[test]
    fn delta_seconds() {
        assert_eq!(parse("120", now()), Some(Duration::from_secs(120)));
        assert_eq!(parse(" 0 ", now()), Some(Duration::ZERO));
        assert_eq!(
            parse("99999999999999999999999", now()),
            Some(Duration::from_secs(u64::MAX))
        );
    }

    #[test]
    fn http_dates_in_every_form_rfc_9110_allows() {
        let in_90_s = Some(Duration::from_secs(90));
        assert_eq!(parse("Wed, 21 Oct 2015 07:29:30 GMT", now()), in_90_s);
        // The obsolete RFC 850 and asctime forms, which recipients must still accept.
        assert_eq!(parse("Wednesday, 21-Oct-15 07:29:30 GMT", now()), in_90_s);
        assert_eq!(parse("Wed Oct 21 07:29:30 2015", now()), in_90_s);
    }

    #[test]
    fn a_date_in_the_past_means_at_once() {
        assert_eq!(
            parse("Wed, 21 Oct 2015 07:00:00 GMT", now()),
            Some(Duration::ZERO)
        );
    }

    #[test]
    fn anything_else_is_ignored() {
        for value in [
            "",
            "soon",
            "-1",
            "1.5",
            "+3",
            "12 s",
            "Wed, 32 Oct 2015 07:28:00 GMT",
        ] {
            assert_eq!(parse(value, now()), None, "{value:?}");
        }
    }
}
