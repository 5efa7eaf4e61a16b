//! E-mail addresses as the original's server accepts them.

use super::phone::is_php_trimmed;

/// Whether an address passes the original server's check, which is narrower than the
/// standards: ASCII only (an international address is refused, whatever the browser
/// said), at least six bytes, a local part of letters, digits and
/// ``!#$%&'*+/=?^_`{|}~.-``, and a domain of at least two dot-separated labels of
/// letters, digits and inner hyphens. Nothing is trimmed first.
pub fn is_valid_email(raw: &str) -> bool {
    if raw.len() < 6 {
        return false;
    }
    // The `@` must come after the first character.
    if !raw.get(1..).is_some_and(|rest| rest.contains('@')) {
        return false;
    }
    let Some((local, domain)) = raw.split_once('@') else {
        return false;
    };
    let local_ok = !local.is_empty()
        && local
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "!#$%&'*+/=?^_`{|}~.-".contains(c));
    if !local_ok || domain.contains("..") {
        return false;
    }
    if domain.trim_matches(|c| is_php_trimmed(c) || c == '.') != domain {
        return false;
    }
    let labels: Vec<&str> = domain.split('.').collect();
    labels.len() >= 2
        && labels.iter().all(|label| {
            label.trim_matches(|c| is_php_trimmed(c) || c == '-') == *label
                && !label.is_empty()
                && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinary_addresses_pass() {
        for ok in [
            "ada@example.com",
            "a@b.co",
            "first.last+tag@mail.example.co.uk",
            "o'brien@example.ie",
            "x_y-z@sub-domain.example.org",
            "ADA@EXAMPLE.COM",
            "{weird}|~@example.com",
        ] {
            assert!(is_valid_email(ok), "{ok:?}");
        }
    }

    #[test]
    fn malformed_addresses_fail() {
        for bad in [
            "not-an-email",
            "a@b.c",
            "@example.com",
            "ada@localhost",
            "ada@example..com",
            "ada@.example.com",
            "ada@example.com.",
            "ada@-example.com",
            "ada@example-.com",
            "ada@exa_mple.com",
            "ada lovelace@example.com",
            "ada@example.com ",
            " ada@example.com",
            "ada@@example.com",
            "",
        ] {
            assert!(!is_valid_email(bad), "{bad:?}");
        }
    }

    #[test]
    fn international_addresses_fail_as_in_the_original() {
        for intl in [
            "josé@example.com",
            "ada@bücher.de",
            "用户@例子.广告",
            "ada@xn--bcher-kva.de",
        ] {
            // Only the punycode form of an international domain passes.
            assert_eq!(is_valid_email(intl), intl.is_ascii(), "{intl:?}");
        }
    }
}
