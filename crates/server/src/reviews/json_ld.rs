//! What a product page tells search engines about its reviews, in its Product JSON-LD
//! as the original writes it: `aggregateRating` (the average and the number of
//! reviews) when there are ratings, and the newest rated reviews as `review`.
//!
//! Every product page's head carries them, cached pages too, so the reviews read for
//! a product are kept for a minute under its figures: a new review moves the figures
//! and so is read at once; an edited text shows within the minute.

use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use quick_cache::sync::Cache;
use serde_json::{json, Value};

use crate::state::AppState;
use rules::catalog::model::Product;
use rules::clock::w3c_date;
use rules::reviews::figures::average_text;
use rules::reviews::Review;

/// How many reviews a page's JSON-LD carries (the original's five).
const REVIEWS_SHOWN: i64 = 5;
/// How long the reviews read for a product's figures are used again.
const KEPT: Duration = Duration::from_secs(60);
/// Products whose reviews are kept at once.
const KEPT_PRODUCTS: usize = 2_000;

/// The running shop (its state and its address: tests run several shops in one
/// process, one after another on the same memory), the product, and its figures.
type Key = (usize, String, i64, i64, i64);
/// The reviews read, and when.
type Kept = (Instant, Arc<Vec<Value>>);

fn kept() -> &'static Cache<Key, Kept> {
    static KEPT_REVIEWS: OnceLock<Cache<Key, Kept>> = OnceLock::new();
    KEPT_REVIEWS.get_or_init(|| Cache::new(KEPT_PRODUCTS))
}

/// The product's newest rated reviews as JSON-LD, read through its index (or kept).
async fn newest(state: &AppState, product: &Product) -> store::StoreResult<Arc<Vec<Value>>> {
    let key = (
        state as *const AppState as usize,
        state.address.default_base().to_string(),
        product.id.0,
        product.review_count,
        product.rating_average_x100,
    );
    if let Some((at, reviews)) = kept().get(&key) {
        if at.elapsed() < KEPT {
            return Ok(reviews);
        }
    }
    let reviews = store::reviews::newest_rated(&state.db, product.id, REVIEWS_SHOWN).await?;
    let reviews = Arc::new(reviews.iter().map(review).collect::<Vec<_>>());
    kept().insert(key, (Instant::now(), reviews.clone()));
    Ok(reviews)
}

/// Adds the product's rating and newest reviews to its JSON-LD (`ld`): the figures
/// from the catalogue's live part, the reviews in one query through the product's
/// index (or as kept). A failed read leaves the reviews out (logged), never the page.
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
    match newest(state, product).await {
        Ok(reviews) if !reviews.is_empty() => {
            ld["review"] = Value::Array(reviews.as_ref().clone());
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
