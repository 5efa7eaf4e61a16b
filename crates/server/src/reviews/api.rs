//! The review calls shoppers make: the Store API's listing of reviews
//! (`/products/reviews`, as the original answers it), and the shop's own product-page
//! calls, the threaded list with the form's settings and posting a review or reply.

use axum::extract::{RawQuery, State};
use axum::http::{HeaderValue, StatusCode};
use axum::response::Response;
use serde_json::Value;

use super::service::{self, Author, Post};
use super::view::{
    page_review, posted_review, store_review, thread_review, FormSettings, ProductReviews,
    StarCount,
};
use crate::error::ApiError;
use crate::http::json::json_value;
use crate::http::params::{as_int, Params};
use crate::http::path::PathText;
use crate::http::routes::ApiRoutes;
use crate::http::store_api::{StoreCtx, StoreWrite, STORE_API_NONCE};
use crate::state::{AppState, SharedState};
use rules::catalog::model::{CategoryId, ProductId};
use rules::reviews::figures::{average_text, Tally};
use rules::reviews::posting::{RatingField, Submission, MAX_TEXT_CHARS};
use rules::reviews::{ReviewId, MAX_DEPTH};
use store::reviews::{Scope, ShownOrder, Viewer};

/// The field of the form without scripts that carries the session's nonce.
pub const NONCE_FIELD: &str = "ferroshop-review-nonce";
/// The field people never see (visually hidden, out of the tab order): only programs
/// fill it in, and what they send is kept as spam.
pub const HONEYPOT_FIELD: &str = "website";
/// Where the form without scripts is posted (the original's address).
pub const FORM_ACTION: &str = "/wp-comments-post.php";

/// Under the Store API's root (and its unversioned alias).
pub fn store_routes() -> ApiRoutes<SharedState> {
    ApiRoutes::new().get("/products/reviews", list_reviews)
}

/// Under the shop's own root.
pub fn routes() -> ApiRoutes<SharedState> {
    ApiRoutes::new()
        .get("/products/{id}/reviews", product_reviews)
        .post("/products/{id}/reviews", post_review)
}

/// A query string's name-value pairs, in order; one that cannot be read is refused.
fn query_pairs(raw: Option<&str>) -> Result<Vec<(String, String)>, ApiError> {
    match raw {
        None => Ok(Vec::new()),
        Some(q) => serde_urlencoded::from_str(q).map_err(|_| {
            ApiError::new(
                StatusCode::BAD_REQUEST,
                "rest_invalid_param",
                "The query string could not be read.",
            )
        }),
    }
}

fn one<'a>(pairs: &'a [(String, String)], name: &str) -> Option<&'a str> {
    pairs
        .iter()
        .rev()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

fn out_of_bounds(param: &str, message: &str) -> ApiError {
    ApiError::invalid_param(param, message, "rest_out_of_bounds")
}

fn not_in_enum(param: &str, allowed: &str) -> ApiError {
    ApiError::invalid_param(
        param,
        format!("{param} is not one of {allowed}."),
        "rest_not_in_enum",
    )
}

/// An integer parameter from `min` up (`max` when given).
fn int_param(
    pairs: &[(String, String)],
    name: &str,
    min: i64,
    max: Option<i64>,
) -> Result<Option<i64>, ApiError> {
    let Some(v) = one(pairs, name) else {
        return Ok(None);
    };
    let n: i64 = v.trim().parse().map_err(|_| ApiError::not_integer(name))?;
    match max {
        Some(max) if !(min..=max).contains(&n) => Err(out_of_bounds(
            name,
            &format!("{name} must be between {min} (inclusive) and {max} (inclusive)"),
        )),
        None if n < min => Err(out_of_bounds(
            name,
            &format!("{name} must be greater than or equal to {min}"),
        )),
        _ => Ok(Some(n)),
    }
}

/// The most ids one list parameter takes.
const MAX_IDS: usize = 100;

/// Ids given as `a,b` or repeated `name[]=a&name[]=b` (the original's `wp_parse_id_list`),
/// each a positive whole number.
fn id_list(pairs: &[(String, String)], name: &str) -> Result<Vec<i64>, ApiError> {
    let array_name = format!("{name}[]");
    let mut ids = Vec::new();
    for (_, v) in pairs.iter().filter(|(k, _)| k == name || *k == array_name) {
        for part in v.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            match part.parse::<i64>() {
                Ok(id) if id > 0 => {
                    if !ids.contains(&id) {
                        ids.push(id)
                    }
                }
                _ => {
                    return Err(ApiError::invalid_param(
                        name,
                        format!("{name} is a list of product or category ids."),
                        "rest_invalid_type",
                    ))
                }
            }
        }
    }
    if ids.len() > MAX_IDS {
        return Err(ApiError::invalid_param(
            name,
            format!("{name} takes at most {MAX_IDS} ids."),
            "rest_invalid_param",
        ));
    }
    Ok(ids)
}

/// `GET /products/reviews`, parsed at the edge.
struct ListQuery {
    products: Vec<i64>,
    categories: Vec<i64>,
    page: i64,
    per_page: i64,
    offset: Option<i64>,
    order: ShownOrder,
    descending: bool,
}

impl ListQuery {
    fn parse(raw: Option<&str>) -> Result<Self, ApiError> {
        let pairs = query_pairs(raw)?;
        let order = match one(&pairs, "orderby") {
            None | Some("date") | Some("date_gmt") => ShownOrder::Date,
            Some("id") => ShownOrder::Id,
            Some("rating") => ShownOrder::Rating,
            Some("product") => ShownOrder::Product,
            Some(_) => {
                return Err(not_in_enum(
                    "orderby",
                    "date, date_gmt, id, rating, product",
                ))
            }
        };
        let descending = match one(&pairs, "order") {
            None | Some("desc") => true,
            Some("asc") => false,
            Some(_) => return Err(not_in_enum("order", "asc, desc")),
        };
        match one(&pairs, "context") {
            None | Some("view") | Some("edit") => {}
            Some(_) => return Err(not_in_enum("context", "view, edit")),
        }
        Ok(Self {
            products: id_list(&pairs, "product_id")?,
            categories: id_list(&pairs, "category_id")?,
            page: int_param(&pairs, "page", 1, Some(1_000_000))?.unwrap_or(1),
            per_page: int_param(&pairs, "per_page", 1, Some(100))?.unwrap_or(10),
            offset: int_param(&pairs, "offset", 0, None)?.filter(|o| *o > 0),
            order,
            descending,
        })
    }
}

/// The Store API's review listing: approved reviews (not replies) of published
/// products, all of them or of some products and categories (with their
/// subcategories), with `X-WP-Total` and `X-WP-TotalPages`.
async fn list_reviews(
    State(state): State<SharedState>,
    ctx: StoreCtx,
    RawQuery(raw): RawQuery,
) -> Response {
    let result = async {
        let q = ListQuery::parse(raw.as_deref())?;
        let catalog = state.catalog.get();
        let mut categories: Vec<i64> = Vec::new();
        for id in &q.categories {
            for c in catalog.category_tree(CategoryId(*id)) {
                if !categories.contains(&c.0) {
                    categories.push(c.0);
                }
            }
        }
        let scope = Scope {
            products: q.products.iter().map(|id| ProductId(*id)).collect(),
            categories,
        };
        // Categories the shop does not have name no products: nothing to list.
        let nothing =
            !q.categories.is_empty() && scope.categories.is_empty() && scope.products.is_empty();
        let offset = q.offset.unwrap_or((q.page - 1).saturating_mul(q.per_page));
        let (reviews, total) = if nothing {
            (Vec::new(), 0)
        } else {
            (
                store::reviews::shown_page(
                    &state.db,
                    &scope,
                    q.order,
                    q.descending,
                    offset,
                    q.per_page,
                )
                .await?,
                store::reviews::shown_total(&state.db, &scope).await?,
            )
        };
        let view = ctx.view(&state);
        let items: Vec<_> = reviews
            .iter()
            .map(|r| store_review(&view, &catalog, r))
            .collect();
        let pages = (total + q.per_page - 1) / q.per_page;
        let mut res = json_value(StatusCode::OK, &items);
        let h = res.headers_mut();
        h.insert("x-wp-total", HeaderValue::from(total));
        h.insert("x-wp-totalpages", HeaderValue::from(pages));
        if let Some(link) = page_links(ctx.base_url.as_str(), raw.as_deref(), q.page, pages) {
            if let Ok(v) = HeaderValue::from_str(&link) {
                h.insert("link", v);
            }
        }
        Ok::<_, ApiError>(res)
    }
    .await;
    ctx.answer(&state, result)
}

/// `Link` with the previous and next pages, as the Store API sends it.
fn page_links(base_url: &str, raw: Option<&str>, page: i64, pages: i64) -> Option<String> {
    let pairs: Vec<(String, String)> =
        serde_urlencoded::from_str(raw.unwrap_or("")).unwrap_or_default();
    let url_for = |n: i64| {
        let mut p: Vec<(String, String)> =
            pairs.iter().filter(|(k, _)| k != "page").cloned().collect();
        p.push(("page".into(), n.to_string()));
        format!(
            "{base_url}/wp-json/wc/store/v1/products/reviews?{}",
            serde_urlencoded::to_string(&p).unwrap_or_default()
        )
    };
    let mut links = Vec::new();
    if page > 1 && page <= pages + 1 {
        links.push(format!("<{}>; rel=\"prev\"", url_for(page - 1)));
    }
    if page < pages {
        links.push(format!("<{}>; rel=\"next\"", url_for(page + 1)));
    }
    (!links.is_empty()).then(|| links.join(", "))
}

/// The product in the path: digits only (anything else is no route, as in the
/// original), a published product that takes reviews.
fn path_product(id: &str) -> Result<ProductId, ApiError> {
    if id.is_empty() || !id.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ApiError::not_found());
    }
    id.parse()
        .map(ProductId)
        .map_err(|_| service::unknown_product())
}

/// `GET /products/{id}/reviews?cpage=N`: a page of the product's reviews, newest first,
/// each with its replies, the figures, the viewer's own reviews still waiting, and
/// what the form needs.
async fn product_reviews(
    State(state): State<SharedState>,
    ctx: StoreCtx,
    PathText(id): PathText,
    RawQuery(raw): RawQuery,
) -> Response {
    let result = async {
        let id = path_product(&id)?;
        let pairs = query_pairs(raw.as_deref())?;
        let page = int_param(&pairs, "cpage", 1, Some(1_000_000))?.unwrap_or(1);
        let catalog = state.catalog.get();
        let product =
            service::reviewed_product(&catalog, id).ok_or_else(service::unknown_product)?;
        let body = threaded(&state, &ctx, product, page).await?;
        Ok::<_, ApiError>(json_value(StatusCode::OK, &body))
    }
    .await;
    ctx.answer(&state, result)
}

async fn threaded(
    state: &AppState,
    ctx: &StoreCtx,
    product: &rules::catalog::model::Product,
    page: i64,
) -> Result<ProductReviews, ApiError> {
    let settings = &state.config.reviews;
    let per_page = i64::from(settings.per_page);
    let (count, histogram) = store::reviews::star_counts(&state.db, product.id).await?;
    let (rated, stars) = histogram.rated();
    let tally = Tally {
        reviews: count,
        rated,
        stars,
    };
    let author = Author::of(state, &ctx.session).await?;
    let (reviews, awaiting) = if settings.enabled {
        let tops = store::reviews::product_page(
            &state.db,
            product.id,
            (page - 1).saturating_mul(per_page),
            per_page,
        )
        .await?;
        let ids: Vec<ReviewId> = tops.iter().map(|r| r.id).collect();
        let replies = store::reviews::approved_replies(&state.db, &ids).await?;
        let tree = rules::reviews::thread::nest(tops, replies);
        let viewer = match &author {
            Author::Account { id, .. } => Some(rules::reviews::AuthorKey::customer(*id)),
            Author::Guest { .. } => None,
        };
        let waiting = match (&viewer, &author) {
            (Some(key), _) => {
                store::reviews::waiting_for(&state.db, product.id, &Viewer::Author(key)).await?
            }
            (None, Author::Guest { session_key })
                if ctx.session.source != crate::session::SessionSource::New =>
            {
                store::reviews::waiting_for(&state.db, product.id, &Viewer::Session(session_key))
                    .await?
            }
            _ => Vec::new(),
        };
        (
            tree.iter().map(thread_review).collect(),
            waiting.iter().map(page_review).collect(),
        )
    } else {
        (Vec::new(), Vec::new())
    };
    let (may_review, may_reply) = service::eligibility(state, &author, product).await?;
    Ok(ProductReviews {
        product_id: product.id.0,
        enabled: settings.enabled,
        average_rating: average_text(tally.average_x100()),
        review_count: tally.reviews,
        rating_count: tally.rated,
        rating_counts: (1..=5u8)
            .rev()
            .map(|s| StarCount {
                rating: s,
                count: histogram.count(s),
            })
            .collect(),
        page,
        total_pages: (count + per_page - 1) / per_page,
        per_page,
        reviews,
        awaiting_moderation: awaiting,
        form: FormSettings {
            open: service::is_open(state, product),
            ratings_enabled: settings.ratings_enabled,
            rating_required: settings.ratings_enabled && settings.ratings_required,
            rating_required_text: settings.rating_required_text.clone(),
            login_required: settings.login_required,
            verified_only: settings.verified_only,
            show_verified_label: settings.verified_label,
            max_depth: MAX_DEPTH,
            max_length: MAX_TEXT_CHARS,
            can_review: may_review.is_ok(),
            cannot_review_reason: may_review.err().map(|r| r.reason()),
            cannot_review_message: may_review.err().map(|r| r.message()),
            can_reply: may_reply.is_ok(),
            cannot_reply_reason: may_reply.err().map(|r| r.reason()),
            cannot_reply_message: may_reply.err().map(|r| r.message()),
            signed_in_as: match &author {
                Author::Account { name, .. } => Some(name.clone()),
                Author::Guest { .. } => None,
            },
            nonce: ctx.nonce(state, STORE_API_NONCE),
            nonce_field: NONCE_FIELD,
            honeypot_field: HONEYPOT_FIELD,
            form_action: FORM_ACTION,
        },
    })
}

/// The rating field as sent: empty or absent, a whole number, or not one.
pub fn rating_field(value: Option<&Value>) -> RatingField {
    match value {
        None | Some(Value::Null) => RatingField::Absent,
        Some(Value::String(s)) if s.trim().is_empty() => RatingField::Absent,
        Some(v) => as_int(v).map_or(RatingField::NotANumber, RatingField::Given),
    }
}

/// The review a reply answers: absent or 0 for none.
pub fn parent_field(params: &Params, name: &str) -> Result<Option<ReviewId>, ApiError> {
    match params.int(name)? {
        None | Some(0) => Ok(None),
        Some(id) if id > 0 => Ok(Some(ReviewId(id))),
        Some(_) => Err(ApiError::invalid_param(
            name,
            format!("{name} is 0 or the id of the review replied to."),
            "rest_out_of_bounds",
        )),
    }
}

/// `POST /products/{id}/reviews`: `review`, `rating`, `parent`, and for a guest
/// `reviewer` and `reviewer_email`; 201 with the review and whether it is shown.
async fn post_review(
    State(state): State<SharedState>,
    PathText(id): PathText,
    write: StoreWrite,
) -> Response {
    let StoreWrite { ctx, params, .. } = write;
    let result = async {
        let product = path_product(&id)?;
        let text = params.string("review")?;
        let name = params.string("reviewer")?;
        let email = params.string("reviewer_email")?;
        let honeypot = params.string(HONEYPOT_FIELD)?;
        let parent = parent_field(&params, "parent")?;
        let request = Post {
            product,
            parent,
            sent: Submission {
                text: text.as_deref(),
                rating: Some(rating_field(params.get("rating"))),
                is_reply: parent.is_some(),
                name: name.as_deref(),
                email: email.as_deref(),
                honeypot: honeypot.as_deref(),
            },
        };
        let author = Author::of(&state, &ctx.session).await?;
        let review = service::post(&state, &ctx, &author, &request).await?;
        Ok::<_, ApiError>(json_value(StatusCode::CREATED, &posted_review(&review)))
    }
    .await;
    ctx.answer(&state, result)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_listing_query_is_parsed_and_checked() {
        let q = ListQuery::parse(Some(
            "product_id=15,17&category_id[]=2&per_page=5&page=2&orderby=rating&order=asc",
        ))
        .unwrap();
        assert_eq!((q.products, q.categories), (vec![15, 17], vec![2]));
        assert_eq!((q.page, q.per_page, q.offset), (2, 5, None));
        assert_eq!((q.order, q.descending), (ShownOrder::Rating, false));
        for (raw, param) in [
            ("per_page=101", "per_page"),
            ("per_page=0", "per_page"),
            ("page=0", "page"),
            ("page=x", "page"),
            ("offset=-1", "offset"),
            ("orderby=title", "orderby"),
            ("order=up", "order"),
            ("product_id=abc", "product_id"),
            ("category_id=-2", "category_id"),
        ] {
            let err = ListQuery::parse(Some(raw)).err().unwrap();
            assert_eq!(err.code, "rest_invalid_param", "{raw}");
            assert!(err.data["params"].get(param).is_some(), "{raw}");
        }
    }

    #[test]
    fn ratings_are_read_as_sent() {
        assert_eq!(rating_field(None), RatingField::Absent);
        assert_eq!(rating_field(Some(&json!(""))), RatingField::Absent);
        assert_eq!(rating_field(Some(&json!(4))), RatingField::Given(4));
        assert_eq!(rating_field(Some(&json!("5"))), RatingField::Given(5));
        assert_eq!(rating_field(Some(&json!("x"))), RatingField::NotANumber);
        assert_eq!(rating_field(Some(&json!(4.5))), RatingField::NotANumber);
    }
}
