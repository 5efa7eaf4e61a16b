//! Postcodes: how the original writes them per country, and which it accepts.

use super::country::CountryCode;
use super::phone::{is_php_space, is_php_trimmed};

/// A postcode written the way the original stores it for the country: upper case,
/// without spaces or hyphens, then with the country's separator put back (GB
/// "sw1a1aa" → "SW1A 1AA", CA "K1A0B1" → "K1A 0B1", US "123456789" → "12345-6789").
///
/// An empty postcode stays empty. (The original's classic checkout formats it anyway,
/// which leaves a lone "-" for BR, JP, PL and PT; its validation, reproduced in
/// [`super::validate_address`], then calls that an invalid postcode.)
pub fn format_postcode(country: CountryCode, raw: &str) -> String {
    let formatted = format_for(country.as_str(), raw);
    if normalize(raw).is_empty() {
        String::new()
    } else {
        formatted
    }
}

/// Whether the original accepts the postcode for the country. Give it the formatted
/// postcode, as checkout does. Countries without a rule take any letters, digits,
/// spaces and hyphens.
pub fn is_valid_postcode(country: CountryCode, postcode: &str) -> bool {
    valid_for(country.as_str(), postcode)
}

/// Upper case, trimmed, with whitespace and hyphens removed.
fn normalize(raw: &str) -> String {
    raw.to_uppercase()
        .trim_matches(is_php_trimmed)
        .chars()
        .filter(|&c| !is_php_space(c) && c != '-')
        .collect()
}

/// Formats for a country code as posted, which may be empty or unknown (then the
/// postcode is only normalised).
pub(super) fn format_for(country: &str, raw: &str) -> String {
    let code = normalize(raw);
    let formatted = match country {
        "CA" | "GB" => insert(&code, -3, ' '),
        "IE" => insert(&code, 3, ' '),
        "BR" | "PL" => insert(&code, -3, '-'),
        "JP" => insert(&code, 3, '-'),
        "PT" => insert(&code, 4, '-'),
        "PR" | "US" => insert(&code, 5, '-').trim_end_matches('-').to_string(),
        "NL" => insert(&code, 4, ' '),
        // Latvian postcodes carry the country: "LV-" and the first run of digits.
        "LV" => match first_digit_run(&code) {
            Some(digits) => format!("LV-{digits}"),
            None => code,
        },
        "DK" => match code.strip_prefix("DK") {
            Some(rest) if !rest.is_empty() => format!("DK-{rest}"),
            _ => code,
        },
        _ => code,
    };
    formatted.trim_matches(is_php_trimmed).to_string()
}

/// Inserts `sep` at a character offset; a negative offset counts from the end. An
/// offset past either end lands on that end, as the original's `substr_replace` does.
fn insert(code: &str, offset: isize, sep: char) -> String {
    let len = code.chars().count() as isize;
    let at = if offset < 0 {
        (len + offset).max(0)
    } else {
        offset.min(len)
    };
    let mut out: String = code.chars().take(at as usize).collect();
    out.push(sep);
    out.extend(code.chars().skip(at as usize));
    out
}

fn first_digit_run(code: &str) -> Option<&str> {
    let start = code.find(|c: char| c.is_ascii_digit())?;
    let rest = &code[start..];
    let end = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    Some(&rest[..end])
}

pub(super) fn valid_for(country: &str, postcode: &str) -> bool {
    // Anything but letters, digits, whitespace and hyphens fails for every country.
    let stray: String = postcode
        .chars()
        .filter(|&c| !(c.is_ascii_alphanumeric() || is_php_space(c) || c == '-'))
        .collect();
    if !stray.trim_matches(is_php_trimmed).is_empty() {
        return false;
    }
    // The original's patterns end in `$`, which also matches before a final newline.
    let p = postcode.strip_suffix('\n').unwrap_or(postcode);
    let c: Vec<char> = p.chars().collect();
    match country {
        "AT" | "BE" | "CH" | "HU" | "NO" => digits_only(&c, 4),
        "BA" => c.len() == 5 && matches!(c[0], '7' | '8') && all_digits(&c[1..]),
        "BR" => match c.len() {
            8 => all_digits(&c),
            9 => all_digits(&c[..5]) && c[5] == '-' && all_digits(&c[6..]),
            _ => false,
        },
        "DE" => digits_only(&c, 5) && !(c[0] == '0' && c[1] == '0'),
        "DK" => is_dk(p),
        "ES" | "FR" | "IT" => digits_only(&c, 5),
        "GB" => is_gb(p),
        "IE" => is_eircode(&normalize(p)),
        "IN" => {
            let (head, tail) = split_optional_space(&c, 3);
            head.len() == 3
                && head[0] != '0'
                && all_digits(head)
                && tail.len() == 3
                && all_digits(tail)
        }
        "JP" => match c.len() {
            7 => all_digits(&c),
            8 => all_digits(&c[..3]) && c[3] == '-' && all_digits(&c[4..]),
            _ => false,
        },
        "PT" => c.len() == 8 && all_digits(&c[..4]) && c[4] == '-' && all_digits(&c[5..]),
        "PR" | "US" => match c.len() {
            5 => all_digits(&c),
            10 => all_digits(&c[..5]) && c[5] == '-' && all_digits(&c[6..]),
            _ => false,
        },
        "CA" => is_ca(&c),
        "PL" => c.len() == 6 && all_digits(&c[..2]) && c[2] == '-' && all_digits(&c[3..]),
        "CZ" | "SK" => {
            let (head, tail) = split_optional_space(&c, 3);
            digits_only(head, 3) && digits_only(tail, 2)
        }
        "NL" => {
            let (head, tail) = split_optional_space(&c, 4);
            let letters: String = tail.iter().collect::<String>().to_ascii_uppercase();
            digits_only(head, 4)
                && head[0] != '0'
                && letters.len() == 2
                && letters.chars().all(|l| l.is_ascii_uppercase())
                && !matches!(letters.as_str(), "SA" | "SD" | "SS")
        }
        "SI" => digits_only(&c, 4) && c[0] != '0',
        "LI" => {
            c.len() == 4
                && c[0] == '9'
                && c[1] == '4'
                && matches!(c[2], '8' | '9')
                && c[3].is_ascii_digit()
        }
        _ => true,
    }
}

fn all_digits(c: &[char]) -> bool {
    c.iter().all(char::is_ascii_digit)
}

fn digits_only(c: &[char], len: usize) -> bool {
    c.len() == len && all_digits(c)
}

/// `head`, then at most one whitespace character, then the rest.
fn split_optional_space(c: &[char], head: usize) -> (&[char], &[char]) {
    let head = head.min(c.len());
    let (first, rest) = c.split_at(head);
    match rest.first() {
        Some(&s) if is_php_space(s) => (first, &rest[1..]),
        _ => (first, rest),
    }
}

/// Four digits, 1000–2999 or 4000–9999 or 3000–3899, after an optional "DK-".
fn is_dk(p: &str) -> bool {
    let digits: Vec<char> = p.strip_prefix("DK-").unwrap_or(p).chars().collect();
    digits_only(&digits, 4)
        && match digits[0] {
            '1' | '2' | '4'..='9' => true,
            '3' => digits[1] != '9',
            _ => false,
        }
}

/// Letters Canada Post uses: never D, F, I, O, Q or U, and W and Z never first.
fn is_ca(c: &[char]) -> bool {
    let first = |l: &char| "ABCEGHJKLMNPRSTVXY".contains(l.to_ascii_uppercase());
    let other = |l: &char| "ABCEGHJKLMNPRSTVWXYZ".contains(l.to_ascii_uppercase());
    let (fsa, ldu) = split_optional_space(c, 3);
    // Only a plain space separates the halves.
    if fsa.len() + ldu.len() + 1 == c.len() && c[3] != ' ' {
        return false;
    }
    fsa.len() == 3
        && ldu.len() == 3
        && first(&fsa[0])
        && fsa[1].is_ascii_digit()
        && other(&fsa[2])
        && ldu[0].is_ascii_digit()
        && other(&ldu[1])
        && ldu[2].is_ascii_digit()
}

/// An Eircode anywhere in the normalised text: a routing key (a letter, two digits, or
/// D6W) then four letters or digits, letters from the Eircode alphabet only.
fn is_eircode(code: &str) -> bool {
    let letter = |c: char| "ACDEFHKNPRTVWXY".contains(c);
    let c: Vec<char> = code.chars().collect();
    c.windows(7).any(|w| {
        let key = (letter(w[0]) && w[1].is_ascii_digit() && w[2].is_ascii_digit())
            || (w[0] == 'D' && w[1] == '6' && w[2] == 'W');
        key && w[3..].iter().all(|&x| x.is_ascii_digit() || letter(x))
    })
}

/// The original's UK rules: letters allowed depend on their place; also GIR 0AA and
/// forces' BFPO numbers. Case and spaces do not matter.
fn is_gb(p: &str) -> bool {
    const A1: &str = "abcdefghijklmnoprstuwyz";
    const A2: &str = "abcdefghklmnopqrstuvwxy";
    const A3: &str = "abcdefghjkpstuw";
    const A4: &str = "abehmnprvwxy";
    const A5: &str = "abdefghjlnpqrstuwxyz";
    let s: Vec<char> = p
        .to_ascii_lowercase()
        .chars()
        .filter(|&c| c != ' ')
        .collect();
    let text: String = s.iter().collect();
    if text == "gir0aa" {
        return true;
    }
    if let Some(number) = text.strip_prefix("bfpo") {
        let n: Vec<char> = number.chars().collect();
        if (1..=4).contains(&n.len()) && all_digits(&n) {
            return true;
        }
        if let Some(co) = number.strip_prefix("c/o") {
            let n: Vec<char> = co.chars().collect();
            return (1..=3).contains(&n.len()) && all_digits(&n);
        }
        return false;
    }
    let is = |set: &str, c: char| set.contains(c);
    // Every form ends in the inward code: a digit and two letters.
    if s.len() < 5 {
        return false;
    }
    let (outward, inward) = s.split_at(s.len() - 3);
    if !(inward[0].is_ascii_digit() && is(A5, inward[1]) && is(A5, inward[2])) {
        return false;
    }
    if !is(A1, outward[0]) {
        return false;
    }
    let o = &outward[1..];
    // A9, A99, AA9, AA99
    let plain = match o {
        [d] | [d, _] if d.is_ascii_digit() && all_digits(o) => true,
        [l, rest @ ..] if is(A2, *l) && (1..=2).contains(&rest.len()) => all_digits(rest),
        _ => false,
    };
    // A9A
    let with_letter = matches!(o, [d, l] if d.is_ascii_digit() && is(A3, *l));
    // AA9A
    let double_with_letter =
        matches!(o, [l, d, l2] if is(A2, *l) && d.is_ascii_digit() && is(A4, *l2));
    plain || with_letter || double_with_letter
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fmt(country: &str, raw: &str) -> String {
        format_for(country, raw)
    }

    #[test]
    fn postcodes_are_written_the_countrys_way() {
        assert_eq!(fmt("GB", "SW1A1AA"), "SW1A 1AA");
        assert_eq!(fmt("GB", " sw1a 1aa "), "SW1A 1AA");
        assert_eq!(fmt("CA", "K1A0B1"), "K1A 0B1");
        assert_eq!(fmt("CA", "k1a-0b1"), "K1A 0B1");
        assert_eq!(fmt("IE", "d02x285"), "D02 X285");
        assert_eq!(fmt("BR", "01310100"), "01310-100");
        assert_eq!(fmt("PL", "00950"), "00-950");
        assert_eq!(fmt("JP", "1000001"), "100-0001");
        assert_eq!(fmt("PT", "1000001"), "1000-001");
        assert_eq!(fmt("US", "94110"), "94110");
        assert_eq!(fmt("US", "941101234"), "94110-1234");
        assert_eq!(fmt("US", "94110-"), "94110");
        assert_eq!(fmt("PR", "00901"), "00901");
        assert_eq!(fmt("NL", "1234ab"), "1234 AB");
        assert_eq!(fmt("LV", "1050"), "LV-1050");
        assert_eq!(fmt("LV", "lv-1050"), "LV-1050");
        assert_eq!(fmt("DK", "dk1050"), "DK-1050");
        assert_eq!(fmt("DK", "1050"), "1050");
        assert_eq!(fmt("DE", " 10115 "), "10115");
        assert_eq!(fmt("SE", "123 45"), "12345");
        assert_eq!(fmt("", "ab-12 c"), "AB12C");
    }

    #[test]
    fn short_postcodes_keep_the_originals_quirks() {
        // The separator lands on the edge and the final trim drops a space there.
        assert_eq!(fmt("GB", "AB"), "AB");
        assert_eq!(fmt("IE", "D6"), "D6");
        assert_eq!(fmt("BR", "12"), "-12");
        assert_eq!(fmt("JP", "12"), "12-");
        assert_eq!(fmt("US", "123"), "123");
        for country in ["BR", "JP", "PL", "PT"] {
            assert_eq!(fmt(country, ""), "-", "{country}");
            assert_eq!(
                format_postcode(CountryCode::parse(country).unwrap(), " "),
                "",
                "{country}"
            );
        }
        for country in ["GB", "CA", "IE", "US", "NL", "LV", "DK", ""] {
            assert_eq!(fmt(country, ""), "", "{country}");
        }
    }

    fn ok(country: &str, postcode: &str) -> bool {
        valid_for(country, postcode)
    }

    #[test]
    fn uk_postcodes() {
        for good in [
            "SW1A 1AA",
            "EC1A 1BB",
            "W1A 0AX",
            "M1 1AE",
            "B33 8TH",
            "CR2 6XH",
            "DN55 1PT",
            "GIR 0AA",
            "BFPO 1234",
            "sw1a1aa",
        ] {
            assert!(ok("GB", good), "{good}");
        }
        for bad in [
            "SW1A 1AAA",
            "QW1 1AA",
            "1AA 1AA",
            "SW1A 1CA",
            "W1A 0AXX",
            "BFPO 12345",
            "12345",
            "SW1A-1AA!",
        ] {
            assert!(!ok("GB", bad), "{bad}");
        }
    }

    #[test]
    fn north_american_postcodes() {
        assert!(ok("US", "94110"));
        assert!(ok("US", "94110-1234"));
        assert!(!ok("US", "9411"));
        assert!(!ok("US", "94110 1234"));
        assert!(!ok("US", "ABCDE"));
        assert!(ok("PR", "00901"));
        assert!(ok("CA", "K1A 0B1"));
        assert!(ok("CA", "k1a0b1"));
        assert!(!ok("CA", "D1A 0B1"));
        assert!(!ok("CA", "W1A 0B1"));
        assert!(!ok("CA", "K1A  0B1"));
        assert!(!ok("CA", "K1A\t0B1"));
    }

    #[test]
    fn european_postcodes() {
        assert!(ok("DE", "10115"));
        assert!(ok("DE", "01067"));
        assert!(!ok("DE", "00115"));
        assert!(!ok("DE", "1011"));
        for four in ["AT", "BE", "CH", "HU", "NO"] {
            assert!(ok(four, "1010"), "{four}");
            assert!(!ok(four, "10100"), "{four}");
        }
        for five in ["ES", "FR", "IT"] {
            assert!(ok(five, "75001"), "{five}");
            assert!(!ok(five, "7500"), "{five}");
        }
        assert!(ok("BA", "71000"));
        assert!(!ok("BA", "61000"));
        assert!(ok("DK", "1050"));
        assert!(ok("DK", "DK-1050"));
        assert!(ok("DK", "3850"));
        assert!(!ok("DK", "3900"));
        assert!(!ok("DK", "0800"));
        assert!(!ok("DK", "dk-1050"));
        assert!(ok("PT", "1000-001"));
        assert!(!ok("PT", "1000001"));
        assert!(ok("PL", "00-950"));
        assert!(!ok("PL", "00950"));
        assert!(ok("CZ", "115 03"));
        assert!(ok("SK", "81101"));
        assert!(!ok("CZ", "CZ-115 03"));
        assert!(ok("NL", "1234 AB"));
        assert!(ok("NL", "1234ab"));
        assert!(!ok("NL", "1234 SA"));
        assert!(!ok("NL", "0234 AB"));
        assert!(ok("SI", "1000"));
        assert!(!ok("SI", "0100"));
        assert!(ok("LI", "9490"));
        assert!(!ok("LI", "9500"));
        assert!(ok("IE", "D02 X285"));
        assert!(ok("IE", "D6W 1234"));
        assert!(ok("IE", "a65 f4e2"));
        assert!(!ok("IE", "B02 X285"));
        assert!(!ok("IE", "D02 X28"));
    }

    #[test]
    fn other_postcodes() {
        assert!(ok("BR", "01310-100"));
        assert!(ok("BR", "01310100"));
        assert!(!ok("BR", "0131-0100"));
        assert!(ok("JP", "100-0001"));
        assert!(ok("JP", "1000001"));
        assert!(!ok("JP", "10-00001"));
        assert!(ok("IN", "110001"));
        assert!(ok("IN", "110 001"));
        assert!(!ok("IN", "011001"));
        // No rule: letters, digits, spaces and hyphens.
        assert!(ok("SE", "ABC 45"));
        assert!(ok("AU", "2000"));
        assert!(ok("", "anything-12"));
        assert!(!ok("AU", "20#00"));
        assert!(!ok("AU", "2000é"));
    }

    #[test]
    fn the_public_functions_take_a_country_code() {
        let gb = CountryCode::parse("GB").unwrap();
        assert_eq!(format_postcode(gb, "sw1a1aa"), "SW1A 1AA");
        assert!(is_valid_postcode(gb, "SW1A 1AA"));
        assert!(!is_valid_postcode(gb, "SW1A"));
    }
}
