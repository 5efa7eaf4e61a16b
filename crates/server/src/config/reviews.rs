//! Product reviews' settings (file table `[reviews]`, `FERROSHOP_REVIEWS_*`): whether
//! the shop takes reviews, star ratings and whether a review needs one, who may post,
//! whether guests' reviews wait for staff, how many reviews a page lists.

use serde::Deserialize;

use rules::reviews::ReviewSettings;
use rules::settings::{bad, parse_yes_no, ConfigError};

/// `[reviews]` in the file.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReviewsFile {
    enabled: Option<bool>,
    ratings: Option<bool>,
    rating_required: Option<bool>,
    rating_required_text: Option<String>,
    verified_only: Option<bool>,
    verified_label: Option<bool>,
    hold_guest_reviews: Option<bool>,
    login_required: Option<bool>,
    per_page: Option<i64>,
}

const MAX_PER_PAGE: i64 = 100;
const MAX_TEXT: usize = 200;

fn per_page(name: &str, n: i64) -> Result<u32, ConfigError> {
    if (1..=MAX_PER_PAGE).contains(&n) {
        Ok(n as u32)
    } else {
        Err(bad(
            name,
            format!("expected a number from 1 to {MAX_PER_PAGE}"),
        ))
    }
}

fn alert_text(name: &str, text: &str) -> Result<String, ConfigError> {
    let text = text.trim();
    if text.is_empty() || text.chars().count() > MAX_TEXT {
        return Err(bad(name, format!("expected 1 to {MAX_TEXT} characters")));
    }
    Ok(text.to_string())
}

pub fn apply_file(settings: &mut ReviewSettings, file: ReviewsFile) -> Result<(), ConfigError> {
    let flags = [
        (file.enabled, &mut settings.enabled),
        (file.ratings, &mut settings.ratings_enabled),
        (file.rating_required, &mut settings.ratings_required),
        (file.verified_only, &mut settings.verified_only),
        (file.verified_label, &mut settings.verified_label),
        (file.hold_guest_reviews, &mut settings.hold_guest_reviews),
        (file.login_required, &mut settings.login_required),
    ];
    for (value, setting) in flags {
        if let Some(v) = value {
            *setting = v;
        }
    }
    if let Some(text) = file.rating_required_text {
        settings.rating_required_text = alert_text("reviews.rating_required_text", &text)?;
    }
    if let Some(n) = file.per_page {
        settings.per_page = per_page("reviews.per_page", n)?;
    }
    Ok(())
}

pub fn apply_env(
    settings: &mut ReviewSettings,
    get: &impl Fn(&str) -> Option<String>,
) -> Result<(), ConfigError> {
    let flags = [
        ("FERROSHOP_REVIEWS", &mut settings.enabled),
        ("FERROSHOP_REVIEWS_RATINGS", &mut settings.ratings_enabled),
        (
            "FERROSHOP_REVIEWS_RATING_REQUIRED",
            &mut settings.ratings_required,
        ),
        (
            "FERROSHOP_REVIEWS_VERIFIED_ONLY",
            &mut settings.verified_only,
        ),
        (
            "FERROSHOP_REVIEWS_VERIFIED_LABEL",
            &mut settings.verified_label,
        ),
        (
            "FERROSHOP_REVIEWS_HOLD_GUESTS",
            &mut settings.hold_guest_reviews,
        ),
        (
            "FERROSHOP_REVIEWS_LOGIN_REQUIRED",
            &mut settings.login_required,
        ),
    ];
    for (name, setting) in flags {
        if let Some(v) = get(name) {
            *setting = parse_yes_no(name, &v)?;
        }
    }
    if let Some(text) = get("FERROSHOP_REVIEWS_RATING_REQUIRED_TEXT") {
        settings.rating_required_text =
            alert_text("FERROSHOP_REVIEWS_RATING_REQUIRED_TEXT", &text)?;
    }
    if let Some(v) = get("FERROSHOP_REVIEWS_PER_PAGE") {
        let n = v.trim().parse::<i64>().map_err(|_| {
            bad(
                "FERROSHOP_REVIEWS_PER_PAGE",
                format!("expected a number from 1 to {MAX_PER_PAGE}"),
            )
        })?;
        settings.per_page = per_page("FERROSHOP_REVIEWS_PER_PAGE", n)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::settings::test_env as env;

    #[test]
    fn the_defaults_are_the_originals() {
        let s = ReviewSettings::default();
        assert!(s.enabled && s.ratings_enabled && s.ratings_required);
        assert!(!s.verified_only && s.verified_label && s.hold_guest_reviews);
        assert_eq!(
            (s.per_page, s.rating_required_text.as_str()),
            (10, "Please select a rating")
        );
    }

    #[test]
    fn settings_come_from_the_file_and_the_environment() {
        let mut s = ReviewSettings::default();
        let file: ReviewsFile = toml::from_str(
            "verified_only = true\nper_page = 5\nrating_required_text = \"Stars, please\"\n",
        )
        .unwrap();
        apply_file(&mut s, file).unwrap();
        assert!(s.verified_only);
        assert_eq!(
            (s.per_page, s.rating_required_text.as_str()),
            (5, "Stars, please")
        );
        apply_env(
            &mut s,
            &env(&[
                ("FERROSHOP_REVIEWS_HOLD_GUESTS", "no"),
                ("FERROSHOP_REVIEWS_PER_PAGE", "20"),
                ("FERROSHOP_REVIEWS_RATINGS", "off"),
            ]),
        )
        .unwrap();
        assert!(!s.hold_guest_reviews && !s.ratings_enabled);
        assert_eq!(s.per_page, 20);
    }

    #[test]
    fn a_bad_value_names_its_setting() {
        let mut s = ReviewSettings::default();
        for (name, value) in [
            ("FERROSHOP_REVIEWS_PER_PAGE", "0"),
            ("FERROSHOP_REVIEWS_PER_PAGE", "many"),
            ("FERROSHOP_REVIEWS_VERIFIED_ONLY", "perhaps"),
            ("FERROSHOP_REVIEWS_RATING_REQUIRED_TEXT", "  "),
        ] {
            let err = apply_env(&mut s, &env(&[(name, value)])).unwrap_err();
            assert_eq!(err.setting, name);
        }
        let file: ReviewsFile = toml::from_str("per_page = 101").unwrap();
        assert_eq!(
            apply_file(&mut s, file).unwrap_err().setting,
            "reviews.per_page"
        );
    }
}
