//! The storefront's reads, under `/wp-json/ferroshop/v1`: the shopper's lists, and one
//! list's page of items (by share key, or `default`). Reads only: no nonce, never
//! cached.

use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};

use super::{list_url, view, Shopper};
use crate::error::ApiError;
use crate::http::json::json_value;
use crate::http::path::PathText;
use crate::http::routes::ApiRoutes;
use crate::http::store_api::StoreCtx;
use crate::state::SharedState;
use rules::wishlist::{ShareKey, DEFAULT_PER_PAGE, MAX_PER_PAGE, NOT_FOUND};
use store::wishlists as lists;

/// Under the shop's own root.
pub fn routes() -> ApiRoutes<SharedState> {
    ApiRoutes::new()
        .get("/wishlists", list_wishlists)
        .get("/wishlists/{key}", get_wishlist)
}

fn not_found() -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, "wishlist_not_found", NOT_FOUND)
}

/// `GET /wishlists`: the shopper's lists, the default first.
async fn list_wishlists(State(state): State<SharedState>, ctx: StoreCtx) -> Response {
    let shopper = Shopper::of(&ctx);
    let result = async {
        let Some(owner) = shopper.owner() else {
            return Ok(Vec::new());
        };
        let found = lists::lists_of(&state.db, owner).await?;
        Ok::<_, ApiError>(
            found
                .iter()
                .map(|l| {
                    json!({
                        "ID": l.id,
                        "title": l.title,
                        "status": "share",
                        "share_key": l.share_key,
                        "url": list_url(&ctx, l),
                        "count": l.item_count,
                        "is_default": l.is_default,
                    })
                })
                .collect::<Vec<Value>>(),
        )
    }
    .await;
    let res = match result {
        Ok(body) => json_value(StatusCode::OK, &body),
        Err(e) => e.into_response(),
    };
    // The Store API's headers; `no-store`, as every answer naming the shopper.
    ctx.finish(&state, res)
}

/// A whole number query parameter within `min..=max`.
fn bounded(
    params: &serde_json::Map<String, Value>,
    name: &str,
    min: i64,
    max: i64,
    default: i64,
) -> Result<i64, ApiError> {
    match params.get(name) {
        None => Ok(default),
        Some(v) => crate::http::params::as_int(v)
            .filter(|n| (min..=max).contains(n))
            .ok_or_else(|| {
                ApiError::invalid_param(
                    name,
                    format!("{name} must be between {min} (inclusive) and {max} (inclusive)"),
                    "rest_out_of_bounds",
                )
            }),
    }
}

/// `GET /wishlists/{key}?page=N&per_page=M`: a page of a list, newest first.
async fn get_wishlist(
    State(state): State<SharedState>,
    ctx: StoreCtx,
    PathText(key): PathText,
    RawQuery(query): RawQuery,
) -> Response {
    let shopper = Shopper::of(&ctx);
    let result = async {
        let params = crate::staff::api::query_params(query.as_deref())?;
        let page = bounded(&params, "page", 1, i64::from(i32::MAX), 1)?;
        let per_page = bounded(&params, "per_page", 1, MAX_PER_PAGE, DEFAULT_PER_PAGE)?;
        let owner = shopper.owner();
        let list = if key == "default" {
            match owner {
                Some(owner) => lists::default_of(&state.db, owner).await?,
                None => None,
            }
        } else {
            let key = ShareKey::parse(&key).ok_or_else(not_found)?;
            Some(
                lists::by_share_key(&state.db, key.as_str())
                    .await?
                    .ok_or_else(not_found)?,
            )
        };
        let is_owner = match &list {
            Some(l) => l.owned_by(owner),
            // The shopper's own default list, not made yet.
            None => true,
        };
        let body = view::list_page(&state, &ctx, list.as_ref(), is_owner, page, per_page).await?;
        Ok::<_, ApiError>(json_value(StatusCode::OK, &body))
    }
    .await;
    ctx.answer(&state, result)
}
