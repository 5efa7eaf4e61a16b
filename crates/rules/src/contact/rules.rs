//! One check per rule of the contact form's schema, over a field's values as the rules
//! read them: trimmed, blank ones left out (`FormData::values`). So every rule but
//! `required` and `requiredfile` passes a field left empty: whether a field must be
//! filled in is their business alone. The browser makes the same checks
//! (`swv-rules.ts`); the shared vectors hold both to one behaviour.

use super::schema::UploadedFile;

/// The schemes a url may have: the original's allowed protocols.
pub const URL_SCHEMES: [&str; 22] = [
    "http", "https", "ftp", "ftps", "mailto", "news", "irc", "irc6", "ircs", "gopher", "nntp",
    "feed", "telnet", "mms", "rtsp", "sms", "svn", "tel", "fax", "xmpp", "webcal", "urn",
];

/// The schemes whose urls name a host (`http://host/...`); the others only need
/// something after the colon (`mailto:shop@example.com`, `urn:isbn:0451450523`).
const HOST_SCHEMES: [&str; 4] = ["http", "https", "ftp", "ftps"];

/// A telephone number is 6 to 15 characters long once its separators are gone,
/// a leading `+` included.
const TEL_LENGTH: std::ops::RangeInclusive<usize> = 6..=15;

/// Whitespace as the browser trims it (JavaScript's `trim`): Unicode's spaces and line
/// breaks and the byte-order mark, but not the old next-line control (U+0085). The
/// server trims the same characters, so a value blank in one place is blank in both.
pub fn is_blank_char(c: char) -> bool {
    c == '\u{feff}' || (c.is_whitespace() && c != '\u{85}')
}

/// A value without the whitespace around it.
pub fn trim_blank(value: &str) -> &str {
    value.trim_matches(is_blank_char)
}

/// At least one value that is not blank.
pub fn required(values: &[&str]) -> bool {
    !values.is_empty()
}

/// At least one file chosen.
pub fn required_file(files: &[&UploadedFile]) -> bool {
    !files.is_empty()
}

pub fn email(values: &[&str]) -> bool {
    values.iter().all(|value| is_email(value))
}

pub fn url(values: &[&str]) -> bool {
    values.iter().all(|value| is_url(value))
}

pub fn tel(values: &[&str]) -> bool {
    values.iter().all(|value| is_tel(value))
}

pub fn number(values: &[&str]) -> bool {
    values.iter().all(|value| is_number(value))
}

pub fn date(values: &[&str]) -> bool {
    values.iter().all(|value| parse_date(value).is_some())
}

pub fn time(values: &[&str]) -> bool {
    values.iter().all(|value| is_time(value))
}

/// Every file's extension is one of those accepted: named as such (`.pdf`) or through
/// a media type (`application/pdf`, `audio/*`). The name decides, not the type the
/// browser declares, which is its own guess from the name and which a sender may set
/// to anything.
pub fn file(files: &[&UploadedFile], accept: &[String]) -> bool {
    let accepted: Vec<String> = accept.iter().flat_map(|entry| extensions(entry)).collect();
    files.iter().all(|file| {
        file.name
            .rfind('.')
            .map(|dot| file.name[dot..].to_ascii_lowercase())
            .is_some_and(|extension| accepted.contains(&extension))
    })
}

/// Every value is one of those accepted (a line break sent as `\r\n` is `\n`).
pub fn one_of(values: &[&str], accept: &[String]) -> bool {
    let accepted: Vec<String> = accept
        .iter()
        .map(|entry| entry.replace("\r\n", "\n"))
        .collect();
    values
        .iter()
        .all(|value| accepted.contains(&value.replace("\r\n", "\n")))
}

/// Every date falls on an accepted day of the week, Monday 1 to Sunday 7. A value that
/// is not a date is left to the `date` rule.
pub fn day_of_week(values: &[&str], accept: &[u8]) -> bool {
    values
        .iter()
        .filter_map(|value| parse_date(value))
        .all(|day| accept.contains(&weekday(day)))
}

/// At least `threshold` values (the checked boxes of a group, say); a field left empty
/// passes.
pub fn min_items(values: &[&str], threshold: f64) -> bool {
    values.is_empty() || values.len() as f64 >= threshold
}

pub fn max_items(values: &[&str], threshold: f64) -> bool {
    values.len() as f64 <= threshold
}

/// At least `threshold` characters over all values; a field left empty passes.
pub fn min_length(values: &[&str], threshold: f64) -> bool {
    values.is_empty() || total_length(values) as f64 >= threshold
}

pub fn max_length(values: &[&str], threshold: f64) -> bool {
    total_length(values) as f64 <= threshold
}

/// No number below `threshold`; a value that is not a number is left to the `number`
/// rule.
pub fn min_number(values: &[&str], threshold: f64) -> bool {
    values
        .iter()
        .filter_map(|value| parse_number(value))
        .all(|n| n >= threshold)
}

pub fn max_number(values: &[&str], threshold: f64) -> bool {
    values
        .iter()
        .filter_map(|value| parse_number(value))
        .all(|n| n <= threshold)
}

/// No date before `threshold` (a date itself); a value that is not a date is left to
/// the `date` rule.
pub fn min_date(values: &[&str], threshold: &str) -> bool {
    values
        .iter()
        .filter(|value| parse_date(value).is_some())
        .all(|value| *value >= threshold)
}

pub fn max_date(values: &[&str], threshold: &str) -> bool {
    values
        .iter()
        .filter(|value| parse_date(value).is_some())
        .all(|value| *value <= threshold)
}

/// The files together weigh at least `threshold` bytes; no file passes.
pub fn min_file_size(files: &[&UploadedFile], threshold: f64) -> bool {
    files.is_empty() || total_size(files) as f64 >= threshold
}

pub fn max_file_size(files: &[&UploadedFile], threshold: f64) -> bool {
    total_size(files) as f64 <= threshold
}

/// Every number is `base` plus a whole number of `interval`s (an interval that is not a
/// positive number allows any). Worked out on the decimals as written, so base 0.1
/// and interval 0.2 allow 0.5; a value that is not a number is left to the `number`
/// rule.
pub fn step_number(values: &[&str], base: &str, interval: &str) -> bool {
    if !parse_number(interval).is_some_and(|step| step > 0.0) {
        return true;
    }
    let base = if is_number(base) { base } else { "0" };
    values
        .iter()
        .filter(|value| is_number(value))
        .all(|value| on_step(value, base, interval))
}

/// A url the visitor typed without a scheme but with a dot gets `http://` in front
/// (leading slashes dropped), as the browser does before it checks the field;
/// anything else comes back trimmed.
pub fn normalize_url(value: &str) -> String {
    let value = trim_blank(value);
    if value.is_empty() || has_scheme(value) || !value.contains('.') {
        return value.to_string();
    }
    format!("http://{}", value.trim_start_matches('/'))
}

/// `letter (letter | digit | + | - | .)* :` at the start, as the browser tells a url
/// that already has a scheme.
fn has_scheme(value: &str) -> bool {
    let Some((scheme, _)) = value.split_once(':') else {
        return false;
    };
    scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b))
}

/// An address as the original's `is_email` reads one: the check the checkout's e-mail
/// field already makes.
pub fn is_email(text: &str) -> bool {
    crate::address::locale::is_valid_email(text)
}

/// An absolute url with one of the allowed schemes (in any case) and no whitespace;
/// something must follow the scheme, and for the web and file-transfer schemes that
/// something starts with a host.
pub fn is_url(text: &str) -> bool {
    let Some((scheme, rest)) = text.split_once(':') else {
        return false;
    };
    let scheme = scheme.to_ascii_lowercase();
    if !URL_SCHEMES.contains(&scheme.as_str()) || text.chars().any(is_blank_char) {
        return false;
    }
    let rest = rest.trim_start_matches('/');
    if HOST_SCHEMES.contains(&scheme.as_str()) {
        rest.split(['/', '?', '#'])
            .next()
            .is_some_and(|host| !host.is_empty())
    } else {
        !rest.is_empty()
    }
}

/// A telephone number: an extension after `#` or `*` is dropped, then the separators
/// (spaces, hyphens, dots, slashes, parentheses); an international prefix, `+` or
/// `00`, becomes a single `+` (zeros after it dropped). What is left is digits with
/// that optional `+`, 6 to 15 characters in all.
pub fn is_tel(text: &str) -> bool {
    let number = text.split(['#', '*']).next().unwrap_or_default();
    let mut cleaned: String = number
        .chars()
        .filter(|&c| !(is_blank_char(c) || "()/.-".contains(c)))
        .collect();
    if cleaned.starts_with('+') || cleaned.starts_with("00") {
        cleaned = format!("+{}", cleaned.trim_start_matches(['+', '0']));
    }
    let digits = cleaned.strip_prefix('+').unwrap_or(&cleaned);
    !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && TEL_LENGTH.contains(&cleaned.len())
}

/// The parts of a number as written: `-`? then digits with an optional fraction (`12`,
/// `1.`, `1.5`, `.5`), then an optional exponent (`e5`, `E-3`, `e+2`).
struct NumberText<'a> {
    negative: bool,
    whole: &'a str,
    fraction: &'a str,
    exponent: &'a str,
}

fn number_text(text: &str) -> Option<NumberText<'_>> {
    let (negative, rest) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (mantissa, exponent) = match rest.find(['e', 'E']) {
        Some(at) => (&rest[..at], Some(&rest[at + 1..])),
        None => (rest, None),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if !digits(whole) || !digits(fraction) || (whole.is_empty() && fraction.is_empty()) {
        return None;
    }
    let exponent = match exponent {
        None => "",
        Some(e) => {
            let unsigned = e.strip_prefix(['+', '-']).unwrap_or(e);
            if unsigned.is_empty() || !digits(unsigned) {
                return None;
            }
            e
        }
    };
    Some(NumberText {
        negative,
        whole,
        fraction,
        exponent,
    })
}

/// A number written in integer, decimal or exponent form: `42`, `-7`, `1.5`, `-.5`,
/// `1.`, `1e5`. No leading `+`, no spaces, no `Infinity`.
pub fn is_number(text: &str) -> bool {
    number_text(text).is_some()
}

fn parse_number(text: &str) -> Option<f64> {
    number_text(text)?;
    text.parse().ok()
}

/// A number as written, `digits × 10^exponent`, exactly, when its digits fit in 128
/// bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Decimal {
    digits: i128,
    exponent: i64,
}

/// The most digits an exponent may have for the exact reading (more are far beyond
/// anything the exact arithmetic could hold).
const MAX_EXPONENT_DIGITS: usize = 9;

fn parse_decimal(text: &str) -> Option<Decimal> {
    let parts = number_text(text)?;
    let mut digits: i128 = 0;
    for b in parts.whole.bytes().chain(parts.fraction.bytes()) {
        digits = digits.checked_mul(10)?.checked_add(i128::from(b - b'0'))?;
    }
    let (exponent_negative, exponent_digits) = match parts.exponent.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, parts.exponent.trim_start_matches('+')),
    };
    let exponent_digits = exponent_digits.trim_start_matches('0');
    if exponent_digits.len() > MAX_EXPONENT_DIGITS {
        return None;
    }
    let written: i64 = if exponent_digits.is_empty() {
        0
    } else {
        exponent_digits.parse().ok()?
    };
    let written = if exponent_negative { -written } else { written };
    let fraction_len = i64::try_from(parts.fraction.len()).ok()?;
    Some(Decimal {
        digits: if parts.negative { -digits } else { digits },
        exponent: written - fraction_len,
    })
}

/// The largest power of ten that scaling may use: 10^38 still fits in an i128.
const MAX_SCALE: i64 = 38;

/// `d`'s digits as a count of `10^exponent`s (an exponent at or below its own).
fn scaled(d: Decimal, exponent: i64) -> Option<i128> {
    let shift = d.exponent - exponent;
    if shift > MAX_SCALE {
        return None;
    }
    let shift = u32::try_from(shift).ok()?;
    d.digits.checked_mul(10i128.checked_pow(shift)?)
}

fn on_step(value: &str, base: &str, interval: &str) -> bool {
    exactly_on_step(value, base, interval).unwrap_or_else(|| {
        let read = |text: &str| parse_number(text).unwrap_or(0.0);
        nearly_on_step(read(value), read(base), read(interval))
    })
}

/// The step checked on whole numbers of the smallest decimal place the three use;
/// `None` when they do not fit.
fn exactly_on_step(value: &str, base: &str, interval: &str) -> Option<bool> {
    let (value, base, interval) = (
        parse_decimal(value)?,
        parse_decimal(base)?,
        parse_decimal(interval)?,
    );
    let unit = value.exponent.min(base.exponent).min(interval.exponent);
    let offset = scaled(value, unit)?.checked_sub(scaled(base, unit)?)?;
    let step = scaled(interval, unit)?;
    if step <= 0 {
        return None;
    }
    Some(offset % step == 0)
}

/// For numbers too long to work out exactly: within a millionth of a step, as the
/// original allows.
fn nearly_on_step(value: f64, base: f64, interval: f64) -> bool {
    const TOLERANCE: f64 = 5e-7;
    let remainder = ((value - base) % interval).abs();
    remainder < TOLERANCE || (interval - remainder).abs() < TOLERANCE
}

/// A real calendar date written `YYYY-MM-DD` (years 0001 to 9999, as a date input
/// sends them).
fn parse_date(text: &str) -> Option<(i64, i64, i64)> {
    let bytes = text.as_bytes();
    let shape_ok = bytes.len() == 10
        && bytes[4] == b'-'
        && bytes[7] == b'-'
        && bytes
            .iter()
            .enumerate()
            .all(|(i, b)| i == 4 || i == 7 || b.is_ascii_digit());
    if !shape_ok {
        return None;
    }
    let year = text[..4].parse().ok()?;
    let month = text[5..7].parse().ok()?;
    let day = text[8..].parse().ok()?;
    let real = year >= 1 && (1..=12).contains(&month) && day >= 1 && day <= days_in(year, month);
    real.then_some((year, month, day))
}

fn days_in(year: i64, month: i64) -> i64 {
    match month {
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Monday 1 to Sunday 7, from the days since 1970-01-01 (a Thursday).
fn weekday((year, month, day): (i64, i64, i64)) -> u8 {
    // Days from the civil date, counting years from March so February comes last.
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let year_of_era = y - era * 400;
    let day_of_year = (153 * ((month + 9) % 12) + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    let days = era * 146_097 + day_of_era - 719_468;
    // (days + 3) mod 7 is 0 on a Monday; the result is 1 to 7.
    u8::try_from((days + 3).rem_euclid(7) + 1).unwrap_or(1)
}

/// `HH:MM` or `HH:MM:SS`, hours 00 to 23, minutes and seconds 00 to 59.
pub fn is_time(text: &str) -> bool {
    let parts: Vec<&str> = text.split(':').collect();
    let two_digits = |s: &str| s.len() == 2 && s.bytes().all(|b| b.is_ascii_digit());
    if !(2..=3).contains(&parts.len()) || !parts.iter().all(|p| two_digits(p)) {
        return false;
    }
    let value = |i: usize| parts.get(i).and_then(|p| p.parse::<u8>().ok()).unwrap_or(0);
    value(0) <= 23 && value(1) <= 59 && value(2) <= 59
}

/// Characters as the browser counts them (UTF-16 code units), a line break sent as
/// `\r\n` counting once, as the textarea showed it.
fn total_length(values: &[&str]) -> usize {
    values
        .iter()
        .map(|value| value.encode_utf16().count() - value.matches("\r\n").count())
        .sum()
}

fn total_size(files: &[&UploadedFile]) -> u64 {
    files
        .iter()
        .fold(0u64, |total, file| total.saturating_add(file.size))
}

/// The extensions an `accept` entry stands for, each with its dot and in lower case:
/// the entry itself when it is one (`.pdf`), those of a media type or of a whole family
/// of them (`image/*`), none for anything else.
fn extensions(entry: &str) -> Vec<String> {
    let entry = entry.to_ascii_lowercase();
    if let Some(extension) = entry.strip_prefix('.') {
        let plain = !extension.is_empty() && extension.bytes().all(|b| b.is_ascii_alphanumeric());
        return if plain { vec![entry] } else { Vec::new() };
    }
    let Some((family, subtype)) = entry.split_once('/') else {
        return Vec::new();
    };
    let family_ok = !family.is_empty() && family.bytes().all(|b| b.is_ascii_lowercase());
    let subtype_ok = subtype == "*"
        || (!subtype.is_empty()
            && subtype
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"+-.".contains(&b)));
    if !family_ok || !subtype_ok {
        return Vec::new();
    }
    MEDIA_TYPES
        .iter()
        .filter(|(media_type, _)| {
            *media_type == entry
                || (subtype == "*" && media_type.split_once('/').is_some_and(|(f, _)| f == family))
        })
        .flat_map(|(_, extensions)| extensions.iter().map(|e| format!(".{e}")))
        .collect()
}

/// The media types the shop knows by extension (those a WordPress site knows).
const MEDIA_TYPES: &[(&str, &[&str])] = &[
    ("application/java", &["class"]),
    ("application/javascript", &["js"]),
    ("application/msword", &["doc"]),
    ("application/octet-stream", &["psd", "xcf"]),
    (
        "application/onenote",
        &["onetoc", "onetoc2", "onetmp", "onepkg"],
    ),
    ("application/oxps", &["oxps"]),
    ("application/pdf", &["pdf"]),
    ("application/rar", &["rar"]),
    ("application/rtf", &["rtf"]),
    ("application/ttaf+xml", &["dfxp"]),
    ("application/vnd.apple.keynote", &["key"]),
    ("application/vnd.apple.numbers", &["numbers"]),
    ("application/vnd.apple.pages", &["pages"]),
    ("application/vnd.ms-access", &["mdb"]),
    ("application/vnd.ms-excel", &["xla", "xls", "xlt", "xlw"]),
    ("application/vnd.ms-powerpoint", &["pot", "pps", "ppt"]),
    ("application/vnd.ms-project", &["mpp"]),
    ("application/vnd.ms-write", &["wri"]),
    ("application/vnd.ms-xpsdocument", &["xps"]),
    ("application/vnd.oasis.opendocument.chart", &["odc"]),
    ("application/vnd.oasis.opendocument.database", &["odb"]),
    ("application/vnd.oasis.opendocument.formula", &["odf"]),
    ("application/vnd.oasis.opendocument.graphics", &["odg"]),
    ("application/vnd.oasis.opendocument.presentation", &["odp"]),
    ("application/vnd.oasis.opendocument.spreadsheet", &["ods"]),
    ("application/vnd.oasis.opendocument.text", &["odt"]),
    (
        "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        &["pptx"],
    ),
    (
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        &["xlsx"],
    ),
    (
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        &["docx"],
    ),
    ("application/wordperfect", &["wp", "wpd"]),
    ("application/x-7z-compressed", &["7z"]),
    ("application/x-gzip", &["gz", "gzip"]),
    ("application/x-tar", &["tar"]),
    ("application/zip", &["zip"]),
    ("audio/3gpp", &["3gp", "3gpp"]),
    ("audio/3gpp2", &["3g2", "3gp2"]),
    ("audio/aac", &["aac"]),
    ("audio/flac", &["flac"]),
    ("audio/midi", &["mid", "midi"]),
    ("audio/mpeg", &["mp3", "m4a", "m4b"]),
    ("audio/ogg", &["ogg", "oga"]),
    ("audio/wav", &["wav"]),
    ("audio/x-matroska", &["mka"]),
    ("audio/x-ms-wax", &["wax"]),
    ("audio/x-ms-wma", &["wma"]),
    ("audio/x-realaudio", &["ra", "ram"]),
    ("image/avif", &["avif"]),
    ("image/bmp", &["bmp"]),
    ("image/gif", &["gif"]),
    ("image/heic", &["heic"]),
    ("image/heif", &["heic", "heif"]),
    ("image/jpeg", &["jpg", "jpeg", "jpe"]),
    ("image/png", &["png"]),
    ("image/tiff", &["tiff", "tif"]),
    ("image/webp", &["webp"]),
    ("image/x-icon", &["ico"]),
    ("text/calendar", &["ics"]),
    ("text/css", &["css"]),
    ("text/csv", &["csv"]),
    ("text/html", &["htm", "html"]),
    ("text/plain", &["txt", "asc", "c", "cc", "h", "srt"]),
    ("text/richtext", &["rtx"]),
    ("text/tab-separated-values", &["tsv"]),
    ("text/vtt", &["vtt"]),
    ("video/3gpp", &["3gp", "3gpp"]),
    ("video/3gpp2", &["3g2", "3gp2"]),
    ("video/avi", &["avi"]),
    ("video/divx", &["divx"]),
    ("video/mp4", &["mp4", "m4v"]),
    ("video/mpeg", &["mpeg", "mpg", "mpe"]),
    ("video/ogg", &["ogv"]),
    ("video/quicktime", &["mov", "qt"]),
    ("video/webm", &["webm"]),
    ("video/x-flv", &["flv"]),
    ("video/x-matroska", &["mkv"]),
    ("video/x-ms-asf", &["asf", "asx"]),
    ("video/x-ms-wmv", &["wmv"]),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals_are_read_exactly() {
        let read = |text| parse_decimal(text).map(|d| (d.digits, d.exponent));
        assert_eq!(read("0.1"), Some((1, -1)));
        assert_eq!(read("-.5"), Some((-5, -1)));
        assert_eq!(read("1."), Some((1, 0)));
        assert_eq!(read("1e-7"), Some((1, -7)));
        assert_eq!(read("2.50E+3"), Some((250, 1)));
        assert_eq!(read("1e0000000000005"), Some((1, 5)));
        assert_eq!(read("1e1234567890"), None);
        assert_eq!(read("123456789012345678901234567890123456789012"), None);
    }

    #[test]
    fn steps_too_long_to_work_out_exactly_are_checked_within_a_millionth() {
        let long = |tenths: &str| format!("0.{tenths}0000000000000000000000000000000000000001");
        assert!(step_number(&[long("3").as_str()], "0.1", "0.2"));
        assert!(!step_number(&[long("4").as_str()], "0.1", "0.2"));
        assert!(step_number(&["1e50"], "0", "0.5"));
    }

    #[test]
    fn weekdays_run_from_monday_one_to_sunday_seven() {
        assert_eq!(weekday((1970, 1, 1)), 4);
        assert_eq!(weekday((2024, 2, 29)), 4);
        assert_eq!(weekday((2000, 1, 2)), 7);
        assert_eq!(weekday((2024, 7, 1)), 1);
        assert_eq!(weekday((1, 1, 1)), 1);
    }

    #[test]
    fn line_breaks_sent_as_two_characters_count_once() {
        assert_eq!(total_length(&["ab\r\ncd", "é", "😀"]), 5 + 1 + 2);
    }
}
