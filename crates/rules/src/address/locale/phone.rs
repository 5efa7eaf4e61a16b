//! Phone numbers as the original's checkout accepts them.

/// Whitespace as the original's patterns and `trim` see it: ASCII only.
pub(super) fn is_php_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0B' | '\x0C')
}

/// What the original's `trim` strips from both ends.
pub(super) fn is_php_trimmed(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r' | '\0' | '\x0B')
}

/// Whether a phone number holds only digits, whitespace and `# _ - + / ( ) .`. The
/// original checks nothing else: not the length, not the country.
pub fn is_valid_phone(raw: &str) -> bool {
    // The original deletes the allowed characters and trims what is left, so a stray
    // NUL at either end of the rest passes too.
    let rest: String = raw
        .chars()
        .filter(|&c| !(c.is_ascii_digit() || is_php_space(c) || "#_-+/().".contains(c)))
        .collect();
    rest.trim_matches(is_php_trimmed).is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_spaces_and_the_usual_separators_are_a_phone_number() {
        for ok in [
            "5555550100",
            "+44 20 7946 0958",
            "(555) 555-0100",
            "555.555.0100",
            "+1/555/555_0100 #22",
            "\t0800 123\n",
            "",
        ] {
            assert!(is_valid_phone(ok), "{ok:?}");
        }
    }

    #[test]
    fn letters_and_other_signs_are_not() {
        for bad in [
            "555-CALL-NOW",
            "tel:5555550100",
            "555 0100 ext. 2",
            "+٤٤ 20",
            "555\u{a0}0100",
            "1*2",
        ] {
            assert!(!is_valid_phone(bad), "{bad:?}");
        }
    }
}
