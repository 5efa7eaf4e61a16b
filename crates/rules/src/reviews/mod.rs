//! Product reviews as the shop sees them: a review and its status, the rating it
//! carries, the settings that govern posting, and the rules of each step: reading a
//! posted review (`posting`), deciding who may post and whether it goes up at once
//! (`moderation`), the product's figures (`figures`), nesting replies (`thread`) and
//! writing the text as safe HTML (`text`). Plain types and functions; storage and
//! HTTP sit on the floors above.

pub mod figures;
pub mod moderation;
pub mod posting;
pub mod text;
pub mod thread;

use serde::{Deserialize, Serialize};

use crate::catalog::model::ProductId;
use crate::customers::CustomerId;

/// A review or a reply to one (they share one id space, as the original's comments do).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ReviewId(pub i64);

impl std::fmt::Display for ReviewId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

/// Where a review stands: shown (`approved`), waiting for staff (`hold`), kept away
/// as spam, or in the trash (restorable until deleted for good).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ReviewStatus {
    Approved,
    Hold,
    Spam,
    Trash,
}

impl ReviewStatus {
    pub const ALL: [ReviewStatus; 4] = [Self::Approved, Self::Hold, Self::Spam, Self::Trash];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Approved => "approved",
            Self::Hold => "hold",
            Self::Spam => "spam",
            Self::Trash => "trash",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "approved" => Self::Approved,
            "hold" => Self::Hold,
            "spam" => Self::Spam,
            "trash" => Self::Trash,
            _ => return None,
        })
    }
}

/// A rating in whole stars, 1 to 5.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Rating(u8);

impl Rating {
    pub fn new(stars: i64) -> Option<Rating> {
        (1..=5)
            .contains(&stars)
            .then(|| Rating(u8::try_from(stars).unwrap_or(0)))
    }

    pub fn stars(self) -> u8 {
        self.0
    }
}

/// How deep replies nest: a review is level 1, a reply to it level 2, and so on
/// (the original's default thread depth).
pub const MAX_DEPTH: u8 = 5;

/// A review as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Review {
    pub id: ReviewId,
    pub product_id: ProductId,
    /// The review this one answers; None for a review of the product itself.
    pub parent_id: Option<ReviewId>,
    /// 1 for a review, 2 for a reply to it, …
    pub depth: u8,
    /// The account that wrote it; None for a guest (or a review staff entered).
    pub customer_id: Option<CustomerId>,
    pub author_name: String,
    /// As given (an account's address, or the guest's).
    pub author_email: String,
    /// The text as the author wrote it (escaped only when shown).
    pub content: String,
    /// Only reviews carry one; replies never.
    pub rating: Option<Rating>,
    pub status: ReviewStatus,
    /// The author had bought the product when writing.
    pub verified: bool,
    /// Written by the shop's staff.
    pub is_staff: bool,
    /// Unix seconds.
    pub created_at: i64,
}

impl Review {
    pub fn is_top_level(&self) -> bool {
        self.parent_id.is_none()
    }
}

/// Who a review belongs to for "one review per customer per product": the account,
/// or for a guest the lowercased e-mail address.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AuthorKey(String);

impl AuthorKey {
    pub fn customer(id: CustomerId) -> Self {
        Self(format!("customer:{}", id.0))
    }

    pub fn guest(email: &crate::customers::Email) -> Self {
        Self(format!("email:{}", email.key()))
    }

    /// A key as stored.
    pub fn from_stored(raw: String) -> Self {
        Self(raw)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The shop's review settings (the original's discussion and product-review options).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReviewSettings {
    /// Reviews are taken and shown at all.
    pub enabled: bool,
    /// Reviews carry a star rating.
    pub ratings_enabled: bool,
    /// A review (not a reply) must carry one, when ratings are on.
    pub ratings_required: bool,
    /// What the review form says when it is sent without a rating.
    pub rating_required_text: String,
    /// Only customers who bought the product may review it.
    pub verified_only: bool,
    /// Pages show "verified owner" beside reviews of customers who bought the product.
    pub verified_label: bool,
    /// Reviews of guests wait for staff before they are shown.
    pub hold_guest_reviews: bool,
    /// Guests must sign in to review (the original's "must be registered and logged in").
    pub login_required: bool,
    /// Reviews on one page of a product's list.
    pub per_page: u32,
}

impl Default for ReviewSettings {
    fn default() -> Self {
        Self {
            enabled: true,
            ratings_enabled: true,
            ratings_required: true,
            rating_required_text: DEFAULT_RATING_REQUIRED_TEXT.into(),
            verified_only: false,
            verified_label: true,
            hold_guest_reviews: true,
            login_required: false,
            per_page: 10,
        }
    }
}

/// The original's alert when the review form is sent without a rating.
pub const DEFAULT_RATING_REQUIRED_TEXT: &str = "Please select a rating";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratings_are_whole_stars_from_one_to_five() {
        assert_eq!(Rating::new(1).map(Rating::stars), Some(1));
        assert_eq!(Rating::new(5).map(Rating::stars), Some(5));
        for bad in [0, 6, -1, 300] {
            assert_eq!(Rating::new(bad), None, "{bad}");
        }
    }

    #[test]
    fn statuses_read_back_as_written() {
        for s in ReviewStatus::ALL {
            assert_eq!(ReviewStatus::parse(s.as_str()), Some(s));
        }
        assert_eq!(ReviewStatus::parse("approve"), None);
    }

    #[test]
    fn a_guest_is_known_by_the_address_in_any_case() {
        let a = crate::customers::Email::parse("Ada@Example.test").unwrap();
        let b = crate::customers::Email::parse("ada@example.TEST").unwrap();
        assert_eq!(AuthorKey::guest(&a), AuthorKey::guest(&b));
        assert_ne!(
            AuthorKey::customer(CustomerId(7)).as_str(),
            AuthorKey::guest(&a).as_str()
        );
    }
}
