//! The wall clock, in Unix seconds, and the ways the shop writes a moment down. Dates
//! are UTC throughout: the original shop's `*_gmt` fields and its mails alike.

use time::format_description::FormatItem;
use time::macros::format_description;
use time::OffsetDateTime;

pub fn now() -> i64 {
    OffsetDateTime::now_utc().unix_timestamp()
}

const ISO: &[FormatItem<'static>] =
    format_description!("[year]-[month]-[day]T[hour]:[minute]:[second]");
const LONG: &[FormatItem<'static>] =
    format_description!("[month repr:long] [day padding:none], [year]");
const MINUTES: &[FormatItem<'static>] = format_description!("[year]-[month]-[day] [hour]:[minute]");
const TIME: &[FormatItem<'static>] =
    format_description!("[hour repr:12 padding:none]:[minute] [period case:lower]");

fn at(unix: i64) -> OffsetDateTime {
    // Out of the calendar's range only through corrupt data; the epoch is a safe
    // stand-in that no real order has.
    OffsetDateTime::from_unix_timestamp(unix).unwrap_or(OffsetDateTime::UNIX_EPOCH)
}

fn write(unix: i64, format: &[FormatItem<'static>]) -> String {
    at(unix).format(format).unwrap_or_default()
}

/// `2026-11-22T12:13:59`, as the original shop's REST API writes dates.
pub fn iso_date(unix: i64) -> String {
    write(unix, ISO)
}

/// `2026-11-22T12:13:59+00:00`: a W3C date-time, as sitemaps write a page's last change.
pub fn w3c_date(unix: i64) -> String {
    format!("{}+00:00", iso_date(unix))
}

/// `November 22, 2026`, as the mails and order pages write a day.
pub fn long_date(unix: i64) -> String {
    write(unix, LONG)
}

/// `12:13 pm`, as the platform writes a time of day.
pub fn time_of_day(unix: i64) -> String {
    write(unix, TIME)
}

/// `2026-11-22 12:13`, for tables on the command line.
pub fn minutes(unix: i64) -> String {
    write(unix, MINUTES)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_written_in_the_shops_formats() {
        assert_eq!(iso_date(0), "1970-01-01T00:00:00");
        assert_eq!(iso_date(1_795_349_639), "2026-11-22T12:13:59");
        assert_eq!(w3c_date(1_795_349_639), "2026-11-22T12:13:59+00:00");
        assert_eq!(iso_date(951_782_400), "2000-02-29T00:00:00");
        assert_eq!(long_date(1_795_349_639), "November 22, 2026");
        assert_eq!(long_date(951_782_400), "February 29, 2000");
        assert_eq!(minutes(1_795_349_639), "2026-11-22 12:13");
        assert_eq!(time_of_day(1_795_349_639), "12:13 pm");
        assert_eq!(time_of_day(951_782_400), "12:00 am");
        assert_eq!(iso_date(i64::MAX), "1970-01-01T00:00:00");
    }

    #[test]
    fn the_clock_is_past_the_time_this_was_written() {
        assert!(now() > 1_795_000_000);
    }
}
