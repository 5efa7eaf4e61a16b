//! The classic cart calls at `/?wc-ajax=NAME`: add_to_cart, remove_from_cart and
//! get_refreshed_fragments, answering with the cart fragments and hash.

use axum::body::Body;
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};

use super::fragments::{fragments, FragmentContext};
use super::service::{self, ChangeError};
use crate::http::json::json_value;
use crate::http::params::Params;
use crate::http::store_api::StoreCtx;
use crate::state::AppState;
use rules::cart::model::{resolve, CartError, StoredCart};
use rules::catalog::model::{ProductId, ProductKind};
use store::sessions::find_session_and_stock;

/// The nonce action of the cart page's remove links.
pub const CART_NONCE: &str = "woocommerce-cart";

/// The classic call names this module answers.
pub fn handles(name: &str) -> bool {
    matches!(
        name,
        "add_to_cart" | "remove_from_cart" | "get_refreshed_fragments"
    )
}

/// Runs one classic cart call (`handles(name)` is true).
pub async fn dispatch(state: &AppState, name: &str, parts: &Parts, body: Body) -> Response {
    let ctx = match StoreCtx::from_parts(state, parts).await {
        Ok(ctx) => ctx,
        Err(res) => return res,
    };
    let headers = &parts.headers;
    let mut res = match name {
        "add_to_cart" => add_to_cart(state, &ctx, headers, body).await,
        "remove_from_cart" => remove_from_cart(state, &ctx, headers, body).await,
        _ => get_refreshed_fragments(state, &ctx).await,
    };
    ctx.keep_session(state, res.headers_mut());
    res.headers_mut().insert(
        axum::http::header::CACHE_CONTROL,
        axum::http::HeaderValue::from_static("no-store"),
    );
    res
}

/// `{fragments, cart_hash}` for a cart.
pub fn fragments_body(state: &AppState, ctx: &StoreCtx, cart: &StoredCart) -> Value {
    let catalog = state.catalog.get();
    let nonce = ctx.nonce(state, CART_NONCE);
    let fctx = FragmentContext {
        view: ctx.view(state),
        remove_nonce: &nonce,
    };
    json!({
        "fragments": fragments(&fctx, &catalog, cart),
        "cart_hash": cart.hash(&state.config.currency.code),
    })
}

fn with_cookies(state: &AppState, ctx: &StoreCtx, cart: &StoredCart) -> Response {
    let mut res = json_value(StatusCode::OK, &fragments_body(state, ctx, cart));
    ctx.cart_cookies(
        state,
        res.headers_mut(),
        &cart.hash(&state.config.currency.code),
        cart.items_count(),
    );
    res
}

fn failure(status: StatusCode, body: Value) -> Response {
    json_value(status, &body)
}

async fn add_to_cart(
    state: &AppState,
    ctx: &StoreCtx,
    headers: &HeaderMap,
    body: Body,
) -> Response {
    let params = match Params::read(headers, body, state.config.max_body_bytes).await {
        Ok(p) => p,
        Err(e) => {
            return failure(
                e.status,
                json!({"error": true, "product_url": false, "message": e.message}),
            )
        }
    };
    match add(state, ctx, &params).await {
        Ok(added) => with_cookies(state, ctx, &added.cart),
        Err(AddError::Refused(r)) => {
            // Any refusal sends the shopper to the product page, where the reason is visible.
            let mut body = json!({"error": true, "product_url": r.product_url.map_or(json!(false), |u| json!(u))});
            if let Some(message) = r.message {
                body["message"] = json!(message);
            }
            failure(StatusCode::BAD_REQUEST, body)
        }
        Err(AddError::Store(e)) => crate::error::ApiError::from(e).into_response(),
    }
}

/// What the original shop's add-to-cart fields added.
pub struct Added {
    pub cart: StoredCart,
    /// The product (or the variation's parent) added.
    pub product: ProductId,
    pub quantity: i64,
}

/// Why an add to cart did not happen: the product's address, when there is one, and
/// the reason to show there.
pub struct Refusal {
    pub product_url: Option<String>,
    pub message: Option<String>,
}

pub enum AddError {
    Refused(Refusal),
    Store(store::StoreError),
}

/// The original shop's add to cart, from its fields (`product_id` or `add-to-cart`,
/// `quantity`, `variation_id`, `attribute_…`): the classic call, the product form
/// and the `?add-to-cart=ID` link.
pub async fn add(state: &AppState, ctx: &StoreCtx, params: &Params) -> Result<Added, AddError> {
    let no_product = || {
        AddError::Refused(Refusal {
            product_url: None,
            message: None,
        })
    };
    let given = match params.int("product_id") {
        Ok(None) => params.int("add-to-cart"),
        given => given,
    };
    let product_id = match given {
        Ok(Some(id)) if id > 0 => ProductId(id),
        _ => return Err(no_product()),
    };
    let catalog = state.catalog.get();
    let Some(product) = catalog.shown(product_id) else {
        return Err(no_product());
    };
    let product_url = {
        let view = ctx.view(state);
        view.product_url(product, &catalog)
    };
    let refused = |message: String| {
        AddError::Refused(Refusal {
            product_url: Some(product_url.clone()),
            message: Some(message),
        })
    };
    let quantity = match params.int("quantity") {
        Ok(None) => 1,
        Ok(Some(q)) if q >= 1 => q,
        _ => return Err(refused("Please enter a quantity of 1 or more.".into())),
    };
    let chosen: Vec<(String, String)> = params
        .0
        .iter()
        .filter(|(k, _)| k.starts_with("attribute_"))
        .filter_map(|(k, v)| v.as_str().map(|v| (k.clone(), v.to_string())))
        .collect();
    let target = match params.int("variation_id") {
        Ok(Some(v)) if v > 0 => {
            let belongs = catalog.shown(ProductId(v)).is_some_and(|x| {
                x.kind == ProductKind::Variation
                    && (x.parent_id == Some(product_id) || x.id == product_id)
            });
            if !belongs {
                return Err(refused("No matching variation found.".into()));
            }
            ProductId(v)
        }
        Ok(_) => product_id,
        Err(_) => return Err(refused("No matching variation found.".into())),
    };
    let addition = match resolve(&catalog, target, &chosen) {
        Ok(a) => a,
        Err(e) => return Err(refused(super::api::cart_error(e).message)),
    };
    let read = find_session_and_stock(
        &state.db,
        ctx.session.id.as_str(),
        ctx.now,
        addition.product.id,
    );
    let (found, stock) = match read.await {
        Ok(Some(found)) => found,
        Ok(None) => return Err(no_product()),
        Err(e) => return Err(AddError::Store(e)),
    };
    let parent = addition.product.parent_id.unwrap_or(addition.product.id);
    match service::change_found(state, &ctx.session, ctx.now, found, |cart| {
        cart.add(&addition, quantity, &stock)
    })
    .await
    {
        Ok((cart, _)) => Ok(Added {
            cart,
            product: parent,
            quantity,
        }),
        Err(ChangeError::Cart(e)) => Err(refused(super::api::cart_error(e).message)),
        Err(ChangeError::Store(e)) => Err(AddError::Store(e)),
    }
}

async fn remove_from_cart(
    state: &AppState,
    ctx: &StoreCtx,
    headers: &HeaderMap,
    body: Body,
) -> Response {
    let refused = || failure(StatusCode::BAD_REQUEST, json!({"success": false}));
    let params = match Params::read(headers, body, state.config.max_body_bytes).await {
        Ok(p) => p,
        Err(e) => {
            return failure(
                e.status,
                json!({"success": false, "data": {"code": e.code, "message": e.message}}),
            )
        }
    };
    let Ok(Some(key)) = params.string("cart_item_key") else {
        return refused();
    };
    match service::change(state, &ctx.session, ctx.now, |cart| cart.remove(&key)).await {
        Ok((cart, _)) => with_cookies(state, ctx, &cart),
        Err(ChangeError::Cart(CartError::InvalidKey)) => {
            failure(StatusCode::NOT_FOUND, json!({"success": false}))
        }
        Err(ChangeError::Cart(_)) => refused(),
        Err(ChangeError::Store(e)) => crate::error::ApiError::from(e).into_response(),
    }
}

async fn get_refreshed_fragments(state: &AppState, ctx: &StoreCtx) -> Response {
    match service::load(state, &ctx.session, ctx.now).await {
        Ok(cart) => json_value(StatusCode::OK, &fragments_body(state, ctx, &cart)),
        Err(e) => crate::error::ApiError::from(e).into_response(),
    }
}
