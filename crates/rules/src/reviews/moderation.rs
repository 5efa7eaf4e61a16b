//! Who may post a review, and whether what they post goes up at once: reviews closed,
//! sign-in and bought-it rules, one review per customer per product; then the status
//! a new review starts with (staff are trusted, the hidden field gives programs away,
//! links and guests wait for staff as the shop says).

use super::{ReviewSettings, ReviewStatus};

/// Who is posting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PosterKind {
    Guest,
    Customer,
    /// A signed-in account of the shop's staff, or a staff API key.
    Staff,
}

/// What decides whether someone may post.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Eligibility {
    /// The shop takes reviews and this product allows them.
    pub open: bool,
    pub poster: PosterKind,
    /// The poster bought the product (a processing or completed order holding it).
    pub verified_owner: bool,
    /// The poster already has a review of this product (in any status).
    pub already_reviewed: bool,
    /// A reply to another review rather than a review.
    pub reply: bool,
}

/// Why someone may not post.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    Closed,
    /// The shop asks guests to sign in first.
    LoginRequired,
    /// Only customers who bought the product may post; `signed_in` tells a guest (who
    /// should sign in) from a customer who has not bought it.
    VerifiedOwnersOnly {
        signed_in: bool,
    },
    AlreadyReviewed,
}

impl Refusal {
    pub const ALL: [Refusal; 5] = [
        Self::Closed,
        Self::LoginRequired,
        Self::VerifiedOwnersOnly { signed_in: false },
        Self::VerifiedOwnersOnly { signed_in: true },
        Self::AlreadyReviewed,
    ];

    /// The error code answers carry.
    pub fn code(self) -> &'static str {
        match self {
            Self::Closed => "ferroshop_reviews_closed",
            Self::LoginRequired => "ferroshop_review_login_required",
            Self::VerifiedOwnersOnly { .. } => "ferroshop_review_verified_owners_only",
            Self::AlreadyReviewed => "ferroshop_review_exists",
        }
    }

    /// Why, in the form's words: `closed`, `must_log_in`, `not_verified_owner` or
    /// `already_reviewed`.
    pub fn reason(self) -> &'static str {
        match self {
            Self::Closed => "closed",
            Self::LoginRequired | Self::VerifiedOwnersOnly { signed_in: false } => "must_log_in",
            Self::VerifiedOwnersOnly { signed_in: true } => "not_verified_owner",
            Self::AlreadyReviewed => "already_reviewed",
        }
    }

    pub fn message(self) -> &'static str {
        match self {
            Self::Closed => "Reviews are closed for this product.",
            Self::LoginRequired => "You must be logged in to post a review.",
            Self::VerifiedOwnersOnly { .. } => {
                "Only logged in customers who have purchased this product may leave a review."
            }
            Self::AlreadyReviewed => "You have already reviewed this product.",
        }
    }

    /// The HTTP status of the refusal: a duplicate conflicts with what is stored;
    /// the others are not allowed.
    pub fn status(self) -> u16 {
        match self {
            Self::AlreadyReviewed => 409,
            _ => 403,
        }
    }
}

/// Whether the poster may post now. Staff may always answer and review (closed
/// aside); the bought-it rule holds for replies too, as the original hides its whole
/// form from those it turns away.
pub fn may_post(e: &Eligibility, settings: &ReviewSettings) -> Result<(), Refusal> {
    if !e.open {
        return Err(Refusal::Closed);
    }
    if e.poster == PosterKind::Staff {
        return if e.already_reviewed && !e.reply {
            Err(Refusal::AlreadyReviewed)
        } else {
            Ok(())
        };
    }
    if settings.login_required && e.poster == PosterKind::Guest {
        return Err(Refusal::LoginRequired);
    }
    if settings.verified_only {
        // The original asks guests to sign in: only an account can be shown to have
        // bought the product before the form is filled in.
        if e.poster == PosterKind::Guest {
            return Err(Refusal::VerifiedOwnersOnly { signed_in: false });
        }
        if !e.verified_owner {
            return Err(Refusal::VerifiedOwnersOnly { signed_in: true });
        }
    }
    if e.already_reviewed && !e.reply {
        return Err(Refusal::AlreadyReviewed);
    }
    Ok(())
}

/// A review with this many links or more waits for staff (the original's default).
pub const MAX_LINKS: usize = 2;

/// The links in a text: words that are web addresses.
pub fn count_links(text: &str) -> usize {
    text.split_whitespace()
        .filter(|word| {
            let w = word.to_ascii_lowercase();
            w.contains("://") || w.starts_with("www.") || w.contains("href=")
        })
        .count()
}

/// What a new review or reply looks like to the rules that set its first status.
#[derive(Debug, Clone, Copy)]
pub struct Posting<'a> {
    pub poster: PosterKind,
    pub honeypot_filled: bool,
    pub text: &'a str,
    pub author_name: &'a str,
}

/// The status a new review starts with: staff's go up at once; one that filled in
/// the hidden field is spam; one with many links, or a guest's when the shop says so,
/// waits for staff; the rest go up.
pub fn initial_status(p: &Posting<'_>, settings: &ReviewSettings) -> ReviewStatus {
    if p.poster == PosterKind::Staff {
        return ReviewStatus::Approved;
    }
    if p.honeypot_filled {
        return ReviewStatus::Spam;
    }
    if count_links(p.text) + count_links(p.author_name) >= MAX_LINKS {
        return ReviewStatus::Hold;
    }
    if p.poster == PosterKind::Guest && settings.hold_guest_reviews {
        return ReviewStatus::Hold;
    }
    ReviewStatus::Approved
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open(poster: PosterKind) -> Eligibility {
        Eligibility {
            open: true,
            poster,
            verified_owner: false,
            already_reviewed: false,
            reply: false,
        }
    }

    #[test]
    fn anyone_may_review_an_open_product_by_default() {
        let s = ReviewSettings::default();
        for poster in [PosterKind::Guest, PosterKind::Customer, PosterKind::Staff] {
            assert_eq!(may_post(&open(poster), &s), Ok(()));
        }
    }

    #[test]
    fn closed_products_take_nothing() {
        let e = Eligibility {
            open: false,
            ..open(PosterKind::Staff)
        };
        let refusal = may_post(&e, &ReviewSettings::default()).unwrap_err();
        assert_eq!(
            (refusal, refusal.reason(), refusal.status()),
            (Refusal::Closed, "closed", 403)
        );
    }

    #[test]
    fn one_review_per_customer_but_replies_are_free() {
        let s = ReviewSettings::default();
        let again = Eligibility {
            already_reviewed: true,
            ..open(PosterKind::Customer)
        };
        let refusal = may_post(&again, &s).unwrap_err();
        assert_eq!(
            (refusal.reason(), refusal.status()),
            ("already_reviewed", 409)
        );
        assert_eq!(
            may_post(
                &Eligibility {
                    reply: true,
                    ..again
                },
                &s
            ),
            Ok(())
        );
    }

    #[test]
    fn verified_only_asks_guests_to_sign_in_and_customers_to_have_bought() {
        let s = ReviewSettings {
            verified_only: true,
            ..ReviewSettings::default()
        };
        let guest = may_post(&open(PosterKind::Guest), &s).unwrap_err();
        assert_eq!(guest.reason(), "must_log_in");
        let customer = may_post(&open(PosterKind::Customer), &s).unwrap_err();
        assert_eq!(customer.reason(), "not_verified_owner");
        let owner = Eligibility {
            verified_owner: true,
            ..open(PosterKind::Customer)
        };
        assert_eq!(may_post(&owner, &s), Ok(()));
        assert_eq!(may_post(&open(PosterKind::Staff), &s), Ok(()));
    }

    #[test]
    fn the_shop_may_ask_guests_to_sign_in() {
        let s = ReviewSettings {
            login_required: true,
            ..ReviewSettings::default()
        };
        let refusal = may_post(&open(PosterKind::Guest), &s).unwrap_err();
        assert_eq!(
            (refusal, refusal.reason()),
            (Refusal::LoginRequired, "must_log_in")
        );
        assert_eq!(may_post(&open(PosterKind::Customer), &s), Ok(()));
    }

    fn posting(poster: PosterKind, text: &'static str) -> Posting<'static> {
        Posting {
            poster,
            honeypot_filled: false,
            text,
            author_name: "Ada",
        }
    }

    #[test]
    fn guests_wait_for_staff_when_the_shop_says_so() {
        let s = ReviewSettings::default();
        assert_eq!(
            initial_status(&posting(PosterKind::Guest, "Nice."), &s),
            ReviewStatus::Hold
        );
        assert_eq!(
            initial_status(&posting(PosterKind::Customer, "Nice."), &s),
            ReviewStatus::Approved
        );
        let trusting = ReviewSettings {
            hold_guest_reviews: false,
            ..s
        };
        assert_eq!(
            initial_status(&posting(PosterKind::Guest, "Nice."), &trusting),
            ReviewStatus::Approved
        );
    }

    #[test]
    fn links_and_the_hidden_field_keep_a_review_down_but_not_staffs() {
        let s = ReviewSettings::default();
        let links = "See https://a.example and www.b.example";
        assert_eq!(count_links(links), 2);
        assert_eq!(count_links("One https://a.example only"), 1);
        assert_eq!(
            initial_status(&posting(PosterKind::Customer, links), &s),
            ReviewStatus::Hold
        );
        assert_eq!(
            initial_status(&posting(PosterKind::Staff, links), &s),
            ReviewStatus::Approved
        );
        let program = Posting {
            honeypot_filled: true,
            ..posting(PosterKind::Customer, "Nice.")
        };
        assert_eq!(initial_status(&program, &s), ReviewStatus::Spam);
    }
}
