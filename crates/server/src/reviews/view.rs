//! Reviews as each surface shows them: the Store API's review (its exact fields), a
//! product page's threaded list with its figures and form settings, a review just
//! posted, and the staff API's v3 review. Text the author wrote is escaped everywhere
//! it is shown as HTML.

use md5::{Digest, Md5};
use serde::Serialize;
use serde_json::{json, Value};

use crate::catalog::view::{image_view, ImageView, ViewContext};
use crate::http::STAFF_API_ROOT;
use rules::catalog::index::Catalog;
use rules::clock::{iso_date, long_date};
use rules::reviews::text::paragraphs_html;
use rules::reviews::thread::Node;
use rules::reviews::{Review, ReviewStatus};

/// The avatar sizes the platform offers (`rest_get_avatar_sizes`).
const AVATAR_SIZES: [u32; 3] = [24, 48, 96];

/// The reviewer's avatars at each size, as the platform links them: the avatar service
/// by a digest of the address, its "mystery person" when there is none.
pub fn avatar_urls(email: &str) -> Value {
    let digest = hex::encode(Md5::digest(email.trim().to_lowercase().as_bytes()));
    let mut urls = serde_json::Map::new();
    for size in AVATAR_SIZES {
        urls.insert(
            size.to_string(),
            json!(format!(
                "https://secure.gravatar.com/avatar/{digest}?s={size}&d=mm&r=g"
            )),
        );
    }
    Value::Object(urls)
}

/// The product a review is of, as the views name it (empty when it is gone).
fn product_facts(view: &ViewContext, catalog: &Catalog, review: &Review) -> (String, String) {
    match catalog.product(review.product_id) {
        Some(p) => (p.name.clone(), view.product_url(p, catalog)),
        None => (String::new(), String::new()),
    }
}

/// The Store API's review (`ProductReviewSchema`).
#[derive(Serialize)]
pub struct StoreReview {
    id: i64,
    date_created: String,
    formatted_date_created: String,
    date_created_gmt: String,
    product_id: i64,
    product_name: String,
    product_permalink: String,
    product_image: Option<ImageView>,
    reviewer: String,
    review: String,
    rating: Option<u8>,
    verified: bool,
    reviewer_avatar_urls: Value,
}

pub fn store_review(view: &ViewContext, catalog: &Catalog, r: &Review) -> StoreReview {
    let (product_name, product_permalink) = product_facts(view, catalog, r);
    let product_image = catalog
        .product(r.product_id)
        .and_then(|p| p.image_ids.first())
        .and_then(|id| catalog.media(*id))
        .map(|m| image_view(view, m));
    StoreReview {
        id: r.id.0,
        // The shop keeps time in UTC: the site's time and GMT are one.
        date_created: iso_date(r.created_at),
        formatted_date_created: long_date(r.created_at),
        date_created_gmt: iso_date(r.created_at),
        product_id: r.product_id.0,
        product_name,
        product_permalink,
        product_image,
        reviewer: r.author_name.clone(),
        review: paragraphs_html(&r.content),
        rating: r.rating.map(|s| s.stars()),
        verified: r.verified,
        reviewer_avatar_urls: avatar_urls(&r.author_email),
    }
}

/// One review or reply as a product page shows it.
#[derive(Serialize)]
pub struct PageReview {
    pub id: i64,
    /// The review it answers; 0 for a review of the product.
    pub parent: i64,
    /// 1 for a review, 2 for a reply to it, …
    pub depth: u8,
    pub author: String,
    /// `2026-11-22T12:13:59` (UTC).
    pub date: String,
    /// `November 22, 2026`.
    pub formatted_date: String,
    /// The text as HTML: escaped, paragraphs and line breaks only.
    pub content: String,
    pub rating: Option<u8>,
    /// The author had bought the product.
    pub verified: bool,
    /// Written by the shop's staff.
    pub is_staff: bool,
}

pub fn page_review(r: &Review) -> PageReview {
    PageReview {
        id: r.id.0,
        parent: r.parent_id.map_or(0, |p| p.0),
        depth: r.depth,
        author: r.author_name.clone(),
        date: iso_date(r.created_at),
        formatted_date: long_date(r.created_at),
        content: paragraphs_html(&r.content),
        rating: r.rating.map(|s| s.stars()),
        verified: r.verified,
        is_staff: r.is_staff,
    }
}

/// A review with the replies under it.
#[derive(Serialize)]
pub struct ThreadReview {
    #[serde(flatten)]
    pub review: PageReview,
    pub replies: Vec<ThreadReview>,
}

pub fn thread_review(node: &Node) -> ThreadReview {
    ThreadReview {
        review: page_review(&node.review),
        replies: node.replies.iter().map(thread_review).collect(),
    }
}

/// How many reviews gave some number of stars.
#[derive(Serialize)]
pub struct StarCount {
    pub rating: u8,
    pub count: i64,
}

/// What the review form needs to know, and whether this viewer may use it.
#[derive(Serialize)]
pub struct FormSettings {
    /// The shop takes reviews of this product.
    pub open: bool,
    pub ratings_enabled: bool,
    pub rating_required: bool,
    /// What the form says when it is sent without a rating.
    pub rating_required_text: String,
    /// Guests must sign in to review.
    pub login_required: bool,
    /// Only customers who bought the product may review.
    pub verified_only: bool,
    /// Show "verified owner" beside reviews whose `verified` is true.
    pub show_verified_label: bool,
    /// How deep replies nest (a review is level 1).
    pub max_depth: u8,
    /// The longest text, in characters.
    pub max_length: usize,
    /// This viewer may post a review now, and if not, why (`closed`, `must_log_in`,
    /// `not_verified_owner`, `already_reviewed`) in words to show.
    pub can_review: bool,
    pub cannot_review_reason: Option<&'static str>,
    pub cannot_review_message: Option<&'static str>,
    /// This viewer may reply to reviews, and if not, why.
    pub can_reply: bool,
    pub cannot_reply_reason: Option<&'static str>,
    pub cannot_reply_message: Option<&'static str>,
    /// The signed-in customer's name (the form asks a guest for a name and address).
    pub signed_in_as: Option<String>,
    /// This session's Store API nonce: the `Nonce` header of the JSON call, and the
    /// value of the form field `nonce_field` of the form without scripts.
    pub nonce: String,
    pub nonce_field: &'static str,
    /// The field people never see: a form sends it empty.
    pub honeypot_field: &'static str,
    /// Where the form without scripts is posted.
    pub form_action: &'static str,
}

/// A product page's reviews: a page of them with their replies, the figures, the
/// viewer's own still waiting, and the form's settings.
#[derive(Serialize)]
pub struct ProductReviews {
    pub product_id: i64,
    /// The shop shows and takes reviews at all.
    pub enabled: bool,
    /// As the Store API's product writes it: "4.50", or "0".
    pub average_rating: String,
    /// Approved reviews (not replies).
    pub review_count: i64,
    /// Those of them with a rating.
    pub rating_count: i64,
    /// Reviews per number of stars, from 5 down to 1.
    pub rating_counts: Vec<StarCount>,
    pub page: i64,
    pub total_pages: i64,
    pub per_page: i64,
    pub reviews: Vec<ThreadReview>,
    /// The viewer's reviews and replies that wait for staff ("Your review is awaiting
    /// approval"), oldest first.
    pub awaiting_moderation: Vec<PageReview>,
    pub form: FormSettings,
}

/// A review just posted, and whether it is shown (`approved`) or waits (`hold`).
#[derive(Serialize)]
pub struct PostedReview {
    #[serde(flatten)]
    pub review: PageReview,
    pub product_id: i64,
    pub status: &'static str,
}

/// A review as its author is told of it: one kept away as spam is said to wait, as
/// any held review does, so a program learns nothing from the answer.
pub fn posted_review(r: &Review) -> PostedReview {
    PostedReview {
        review: page_review(r),
        product_id: r.product_id.0,
        status: match r.status {
            ReviewStatus::Approved => "approved",
            _ => "hold",
        },
    }
}

/// The staff API's review (REST API v3), with `parent` added: the review a reply
/// answers (0 for a review).
pub fn staff_review(
    view: &ViewContext,
    catalog: &Catalog,
    r: &Review,
    edit_context: bool,
) -> Value {
    let (product_name, product_permalink) = product_facts(view, catalog, r);
    let base = view.base_url;
    json!({
        "id": r.id.0,
        "date_created": iso_date(r.created_at),
        "date_created_gmt": iso_date(r.created_at),
        "product_id": r.product_id.0,
        "product_name": product_name,
        "product_permalink": product_permalink,
        "status": r.status.as_str(),
        "reviewer": r.author_name,
        "reviewer_email": r.author_email,
        "review": if edit_context { r.content.clone() } else { paragraphs_html(&r.content) },
        "rating": r.rating.map_or(0, |s| s.stars()),
        "verified": r.verified,
        "reviewer_avatar_urls": avatar_urls(&r.author_email),
        "parent": r.parent_id.map_or(0, |p| p.0),
        "_links": {
            "self": [{"href": format!("{base}{STAFF_API_ROOT}/products/reviews/{}", r.id.0)}],
            "collection": [{"href": format!("{base}{STAFF_API_ROOT}/products/reviews")}],
            "up": [{"href": format!("{base}{STAFF_API_ROOT}/products/{}", r.product_id.0)}],
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn avatars_are_linked_by_the_address_in_any_case() {
        let a = avatar_urls("Ada@Example.test ");
        assert_eq!(a, avatar_urls("ada@example.test"));
        let small = a["24"].as_str().unwrap();
        assert!(
            small.starts_with("https://secure.gravatar.com/avatar/"),
            "{small}"
        );
        assert!(small.ends_with("?s=24&d=mm&r=g"), "{small}");
        assert_eq!(a.as_object().unwrap().len(), 3);
    }
}
