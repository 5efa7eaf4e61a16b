//! Reading a posted review: the text, the rating and, for a guest, the name and
//! e-mail address, each checked the way the original checks them (its limits on
//! lengths, a valid address, a rating only on a review and required when the shop
//! says so). The result is a review that can be stored, or the first problem found,
//! with the field it is about.

use super::{Rating, Review, ReviewSettings, ReviewStatus, MAX_DEPTH};
use crate::catalog::model::ProductId;
use crate::customers::Email;

/// The longest review or reply, in characters.
pub const MAX_TEXT_CHARS: usize = 5_000;
/// The longest name a guest may give (the original's column length).
pub const MAX_NAME_CHARS: usize = 245;
/// The longest e-mail address a guest may give (the original's column length).
pub const MAX_EMAIL_CHARS: usize = 100;

/// The rating field as sent: absent (or empty, as a form without a star chosen sends
/// it), a whole number, or something that is not one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RatingField {
    Absent,
    Given(i64),
    NotANumber,
}

/// What a review form or call sent, before any check.
#[derive(Debug, Clone, Default)]
pub struct Submission<'a> {
    pub text: Option<&'a str>,
    pub rating: Option<RatingField>,
    /// It answers another review.
    pub is_reply: bool,
    /// A guest's name and address; an account's come from the account.
    pub name: Option<&'a str>,
    pub email: Option<&'a str>,
    /// The field people never see (hidden from them); only programs fill it in.
    pub honeypot: Option<&'a str>,
}

/// Who is posting, as far as the form goes: a guest gives a name and an address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Poster {
    Guest,
    Account,
}

/// A guest's name and address, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GuestAuthor {
    pub name: String,
    pub email: Email,
}

/// A review's text: trimmed, with line breaks as `\n`, no other control characters,
/// not empty and not too long.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReviewText(String);

impl ReviewText {
    pub fn parse(raw: &str) -> Result<Self, ReviewProblem> {
        let text = clean(raw, true);
        let text = text.trim();
        if text.is_empty() {
            return Err(ReviewProblem::TextMissing);
        }
        if text.chars().count() > MAX_TEXT_CHARS {
            return Err(ReviewProblem::TextTooLong);
        }
        Ok(Self(text.to_string()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A posted review, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedReview {
    pub text: ReviewText,
    pub rating: Option<Rating>,
    /// Set for a guest.
    pub guest: Option<GuestAuthor>,
    /// The hidden field was filled in: a program, not a person, sent this.
    pub honeypot_filled: bool,
}

/// Why a posted review was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReviewProblem {
    TextMissing,
    TextTooLong,
    NameMissing,
    NameTooLong,
    EmailMissing,
    EmailTooLong,
    EmailInvalid,
    RatingMissing,
    RatingInvalid,
    RatingOnReply,
}

impl ReviewProblem {
    pub const ALL: [ReviewProblem; 10] = [
        Self::TextMissing,
        Self::TextTooLong,
        Self::NameMissing,
        Self::NameTooLong,
        Self::EmailMissing,
        Self::EmailTooLong,
        Self::EmailInvalid,
        Self::RatingMissing,
        Self::RatingInvalid,
        Self::RatingOnReply,
    ];

    /// The error code answers carry.
    pub fn code(self) -> &'static str {
        match self {
            Self::TextMissing => "ferroshop_review_text_missing",
            Self::TextTooLong => "ferroshop_review_text_too_long",
            Self::NameMissing => "ferroshop_review_name_missing",
            Self::NameTooLong => "ferroshop_review_name_too_long",
            Self::EmailMissing => "ferroshop_review_email_missing",
            Self::EmailTooLong => "ferroshop_review_email_too_long",
            Self::EmailInvalid => "ferroshop_review_email_invalid",
            Self::RatingMissing => "ferroshop_review_rating_missing",
            Self::RatingInvalid => "ferroshop_review_rating_invalid",
            Self::RatingOnReply => "ferroshop_review_rating_on_reply",
        }
    }

    /// What the shopper is told.
    pub fn message(self) -> String {
        match self {
            Self::TextMissing => "Please type your review.".into(),
            Self::TextTooLong => format!(
                "Your review is too long: please keep it to {} characters.",
                group_thousands(MAX_TEXT_CHARS)
            ),
            Self::NameMissing => "Please enter your name.".into(),
            Self::NameTooLong => {
                format!("Your name is too long: please keep it to {MAX_NAME_CHARS} characters.")
            }
            Self::EmailMissing => "Please enter your email address.".into(),
            Self::EmailTooLong => format!(
                "Your email address is too long: please keep it to {MAX_EMAIL_CHARS} characters."
            ),
            Self::EmailInvalid => "Please enter a valid email address.".into(),
            Self::RatingMissing => "Please rate the product.".into(),
            Self::RatingInvalid => "A rating is a whole number of stars from 1 to 5.".into(),
            Self::RatingOnReply => "A reply cannot carry a rating.".into(),
        }
    }

    /// The field the problem is about, as the calls name it.
    pub fn field(self) -> &'static str {
        match self {
            Self::TextMissing | Self::TextTooLong => "review",
            Self::NameMissing | Self::NameTooLong => "reviewer",
            Self::EmailMissing | Self::EmailTooLong | Self::EmailInvalid => "reviewer_email",
            Self::RatingMissing | Self::RatingInvalid | Self::RatingOnReply => "rating",
        }
    }
}

fn group_thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Drops control characters (keeping line breaks and tabs in a text when asked) and
/// writes every line break as `\n`.
fn clean(raw: &str, keep_lines: bool) -> String {
    let unified = raw.replace("\r\n", "\n").replace('\r', "\n");
    unified
        .chars()
        .filter_map(|c| match c {
            '\n' | '\t' if keep_lines => Some(c),
            '\n' | '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect()
}

/// Checks a posted review, in the order of the review form's fields: rating, text,
/// name, e-mail address.
pub fn parse(
    sent: &Submission<'_>,
    poster: Poster,
    settings: &ReviewSettings,
) -> Result<ParsedReview, ReviewProblem> {
    let rating = rating(sent, settings)?;
    let text = ReviewText::parse(sent.text.unwrap_or(""))?;
    let guest = match poster {
        Poster::Account => None,
        Poster::Guest => Some(guest_author(sent.name, sent.email)?),
    };
    Ok(ParsedReview {
        text,
        rating,
        guest,
        honeypot_filled: sent.honeypot.is_some_and(|h| !h.trim().is_empty()),
    })
}

/// A review's rating, when ratings are on: required on a review when the shop says
/// so, never on a reply. With ratings off the field is not read.
fn rating(
    sent: &Submission<'_>,
    settings: &ReviewSettings,
) -> Result<Option<Rating>, ReviewProblem> {
    if !settings.ratings_enabled {
        return Ok(None);
    }
    match (sent.rating.unwrap_or(RatingField::Absent), sent.is_reply) {
        (RatingField::Absent, true) => Ok(None),
        (_, true) => Err(ReviewProblem::RatingOnReply),
        (RatingField::Absent, false) if settings.ratings_required => {
            Err(ReviewProblem::RatingMissing)
        }
        (RatingField::Absent, false) => Ok(None),
        (RatingField::NotANumber, false) => Err(ReviewProblem::RatingInvalid),
        (RatingField::Given(n), false) => {
            Rating::new(n).map(Some).ok_or(ReviewProblem::RatingInvalid)
        }
    }
}

/// A guest's name and address: both required (the original's default), each within
/// its length, the address a valid one.
pub fn guest_author(name: Option<&str>, email: Option<&str>) -> Result<GuestAuthor, ReviewProblem> {
    let name = clean(name.unwrap_or(""), false);
    let name = name.trim();
    if name.is_empty() {
        return Err(ReviewProblem::NameMissing);
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(ReviewProblem::NameTooLong);
    }
    let email = email.unwrap_or("").trim();
    if email.is_empty() {
        return Err(ReviewProblem::EmailMissing);
    }
    if email.chars().count() > MAX_EMAIL_CHARS {
        return Err(ReviewProblem::EmailTooLong);
    }
    let email = Email::parse(email).ok_or(ReviewProblem::EmailInvalid)?;
    Ok(GuestAuthor {
        name: name.to_string(),
        email,
    })
}

/// Why a reply cannot answer the review it names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParentProblem {
    Missing,
    OtherProduct,
    NotShown,
    TooDeep,
}

impl ParentProblem {
    pub const ALL: [ParentProblem; 4] = [
        Self::Missing,
        Self::OtherProduct,
        Self::NotShown,
        Self::TooDeep,
    ];

    pub fn code(self) -> &'static str {
        match self {
            Self::Missing => "ferroshop_review_parent_missing",
            Self::OtherProduct => "ferroshop_review_parent_other_product",
            Self::NotShown => "ferroshop_review_parent_not_shown",
            Self::TooDeep => "ferroshop_review_parent_too_deep",
        }
    }

    pub fn message(self) -> String {
        match self {
            Self::Missing => "The review you are replying to does not exist.".into(),
            Self::OtherProduct => "You can only reply to a review of this product.".into(),
            Self::NotShown => "You can only reply to a review that is shown.".into(),
            Self::TooDeep => format!("Replies cannot be nested more than {MAX_DEPTH} levels deep."),
        }
    }
}

/// The depth of a reply to `parent` (the review it names, if there is one) on
/// `product`: the parent must be a shown review of the same product, not already at
/// the deepest level.
pub fn reply_depth(parent: Option<&Review>, product: ProductId) -> Result<u8, ParentProblem> {
    let parent = parent.ok_or(ParentProblem::Missing)?;
    if parent.product_id != product {
        return Err(ParentProblem::OtherProduct);
    }
    if parent.status != ReviewStatus::Approved {
        return Err(ParentProblem::NotShown);
    }
    if parent.depth >= MAX_DEPTH {
        return Err(ParentProblem::TooDeep);
    }
    Ok(parent.depth + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn guest(text: &str, rating: RatingField) -> Submission<'_> {
        Submission {
            text: Some(text),
            rating: Some(rating),
            name: Some("Ada"),
            email: Some("ada@example.test"),
            ..Submission::default()
        }
    }

    fn settings() -> ReviewSettings {
        ReviewSettings::default()
    }

    #[test]
    fn a_guest_review_with_text_name_address_and_stars_is_taken() {
        let r = parse(
            &guest(
                "  Warm and soft.\r\nWould buy again.  ",
                RatingField::Given(5),
            ),
            Poster::Guest,
            &settings(),
        )
        .unwrap();
        assert_eq!(r.text.as_str(), "Warm and soft.\nWould buy again.");
        assert_eq!(r.rating.map(Rating::stars), Some(5));
        let g = r.guest.unwrap();
        assert_eq!(
            (g.name.as_str(), g.email.as_str()),
            ("Ada", "ada@example.test")
        );
        assert!(!r.honeypot_filled);
    }

    #[test]
    fn text_must_be_there_and_not_too_long() {
        for blank in ["", "   ", "\n\t\u{0}"] {
            assert_eq!(
                parse(
                    &guest(blank, RatingField::Given(4)),
                    Poster::Guest,
                    &settings()
                ),
                Err(ReviewProblem::TextMissing),
                "{blank:?}"
            );
        }
        let long = "a".repeat(MAX_TEXT_CHARS + 1);
        assert_eq!(
            parse(
                &guest(&long, RatingField::Given(4)),
                Poster::Guest,
                &settings()
            ),
            Err(ReviewProblem::TextTooLong)
        );
        let longest = "é".repeat(MAX_TEXT_CHARS);
        assert!(parse(
            &guest(&longest, RatingField::Given(4)),
            Poster::Guest,
            &settings()
        )
        .is_ok());
        assert_eq!(
            ReviewProblem::TextTooLong.message(),
            "Your review is too long: please keep it to 5,000 characters."
        );
    }

    #[test]
    fn ratings_are_from_one_to_five_and_required_on_reviews() {
        for (field, problem) in [
            (RatingField::Given(0), ReviewProblem::RatingInvalid),
            (RatingField::Given(6), ReviewProblem::RatingInvalid),
            (RatingField::NotANumber, ReviewProblem::RatingInvalid),
            (RatingField::Absent, ReviewProblem::RatingMissing),
        ] {
            let err = parse(&guest("Nice.", field), Poster::Guest, &settings()).unwrap_err();
            assert_eq!(err, problem, "{field:?}");
            assert_eq!(err.field(), "rating");
        }
        let optional = ReviewSettings {
            ratings_required: false,
            ..settings()
        };
        let r = parse(
            &guest("Nice.", RatingField::Absent),
            Poster::Guest,
            &optional,
        )
        .unwrap();
        assert_eq!(r.rating, None);
        assert_eq!(
            parse(
                &guest("Nice.", RatingField::Given(9)),
                Poster::Guest,
                &optional
            ),
            Err(ReviewProblem::RatingInvalid)
        );
    }

    #[test]
    fn replies_carry_no_rating_and_need_none() {
        let mut reply = guest("Thank you!", RatingField::Absent);
        reply.is_reply = true;
        assert_eq!(
            parse(&reply, Poster::Guest, &settings()).unwrap().rating,
            None
        );
        reply.rating = Some(RatingField::Given(5));
        assert_eq!(
            parse(&reply, Poster::Guest, &settings()),
            Err(ReviewProblem::RatingOnReply)
        );
    }

    #[test]
    fn with_ratings_off_the_rating_is_not_read() {
        let off = ReviewSettings {
            ratings_enabled: false,
            ..settings()
        };
        let r = parse(
            &guest("Nice.", RatingField::NotANumber),
            Poster::Guest,
            &off,
        )
        .unwrap();
        assert_eq!(r.rating, None);
    }

    #[test]
    fn guests_give_a_name_and_a_valid_address() {
        let mut s = guest("Nice.", RatingField::Given(3));
        s.name = Some("  ");
        assert_eq!(
            parse(&s, Poster::Guest, &settings()),
            Err(ReviewProblem::NameMissing)
        );
        let long_name = "n".repeat(MAX_NAME_CHARS + 1);
        s.name = Some(&long_name);
        assert_eq!(
            parse(&s, Poster::Guest, &settings()),
            Err(ReviewProblem::NameTooLong)
        );
        s.name = Some("Ada");
        s.email = None;
        assert_eq!(
            parse(&s, Poster::Guest, &settings()),
            Err(ReviewProblem::EmailMissing)
        );
        s.email = Some("not an address");
        assert_eq!(
            parse(&s, Poster::Guest, &settings()),
            Err(ReviewProblem::EmailInvalid)
        );
        let long_email = format!("{}@example.test", "a".repeat(MAX_EMAIL_CHARS));
        s.email = Some(&long_email);
        assert_eq!(
            parse(&s, Poster::Guest, &settings()),
            Err(ReviewProblem::EmailTooLong)
        );
    }

    #[test]
    fn an_account_needs_no_name_or_address() {
        let s = Submission {
            text: Some("Nice."),
            rating: Some(RatingField::Given(4)),
            ..Submission::default()
        };
        let r = parse(&s, Poster::Account, &settings()).unwrap();
        assert_eq!(r.guest, None);
    }

    #[test]
    fn the_hidden_field_filled_in_gives_a_program_away() {
        let mut s = guest("Cheap pills", RatingField::Given(5));
        s.honeypot = Some("https://spam.example");
        assert!(
            parse(&s, Poster::Guest, &settings())
                .unwrap()
                .honeypot_filled
        );
        s.honeypot = Some("");
        assert!(
            !parse(&s, Poster::Guest, &settings())
                .unwrap()
                .honeypot_filled
        );
    }

    #[test]
    fn control_characters_are_dropped_from_names() {
        let a = guest_author(Some("Ada\u{7}\nLovelace"), Some("ada@example.test")).unwrap();
        assert_eq!(a.name, "Ada Lovelace");
    }
    fn parent(depth: u8, status: ReviewStatus) -> Review {
        Review {
            id: crate::reviews::ReviewId(3),
            product_id: ProductId(15),
            parent_id: None,
            depth,
            customer_id: None,
            author_name: "Ada".into(),
            author_email: "ada@example.test".into(),
            content: "Nice.".into(),
            rating: None,
            status,
            verified: false,
            is_staff: false,
            created_at: 0,
        }
    }

    #[test]
    fn a_reply_answers_a_shown_review_of_the_same_product_within_the_depth() {
        let here = ProductId(15);
        assert_eq!(
            reply_depth(Some(&parent(1, ReviewStatus::Approved)), here),
            Ok(2)
        );
        assert_eq!(
            reply_depth(Some(&parent(4, ReviewStatus::Approved)), here),
            Ok(5)
        );
        assert_eq!(
            reply_depth(Some(&parent(5, ReviewStatus::Approved)), here),
            Err(ParentProblem::TooDeep)
        );
        assert_eq!(reply_depth(None, here), Err(ParentProblem::Missing));
        assert_eq!(
            reply_depth(Some(&parent(1, ReviewStatus::Approved)), ProductId(17)),
            Err(ParentProblem::OtherProduct)
        );
        for status in [ReviewStatus::Hold, ReviewStatus::Spam, ReviewStatus::Trash] {
            assert_eq!(
                reply_depth(Some(&parent(1, status)), here),
                Err(ParentProblem::NotShown)
            );
        }
    }
}
