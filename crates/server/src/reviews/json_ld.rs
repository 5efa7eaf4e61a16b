//! What a product page tells search engines about its reviews, in its Product JSON-LD
//! as the original writes it: `aggregateRating` (the average and the number of
//! reviews) when there are ratings, and the newest rated reviews as `review`.

use serde_json::{json, Value};

use crate::state::AppState;
use rules::catalog::model::Product;
use rules::clock::w3c_date;
use rules::reviews::figures::average_text;
use rules::reviews::Review;

/// How many reviews a page's JSON-LD carries (the original's five).
const REVIEWS_SHOWN: i64 = 5;

/// Adds the product's rating and newest reviews to its JSON-LD (`ld`): the figures
/// from the catalogue's live part, the reviews in one query through the product's
/// index. A failed read leaves the reviews out (logged), never the page.
pub async fn add_reviews(state: &AppState, product: &Product, ld: &mut Value) {
    let settings = &state.config.reviews;
    if !settings.enabled {
        return;
    }
    if settings.ratings_enabled && product.review_count > 0 && product.rating_average_x100 > 0 {
        ld["aggregateRating"] = json!({
            "@type": "AggregateRating",
            "ratingValue": average_text(product.rating_average_x100),
            "reviewCount": product.review_count,
        });
    }
    if !settings.ratings_enabled || product.review_count == 0 {
        return;
    }
    match store::reviews::newest_rated(&state.db, product.id, REVIEWS_SHOWN).await {
        Ok(reviews) if !reviews.is_empty() => {
            ld["review"] = Value::Array(reviews.iter().map(review).collect());
        }
        Ok(_) => {}
        Err(e) => tracing::error!(error = %e, product = product.id.0, "reviews for JSON-LD"),
    }
}

fn review(r: &Review) -> Value {
    json!({
        "@type": "Review",
        "reviewRating": {
            "@type": "Rating",
            "ratingValue": r.rating.map_or(0, |s| s.stars()).to_string(),
            "bestRating": "5",
            "worstRating": "1",
        },
        "author": {"@type": "Person", "name": r.author_name},
        "reviewBody": r.content,
        "datePublished": w3c_date(r.created_at),
    })
}
