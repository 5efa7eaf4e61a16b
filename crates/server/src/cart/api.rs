//! The Store API's cart calls: read the cart, add, update and remove items.

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::Value;

use super::service::{self, ChangeError};
use super::view::{cart_view, CartView};
use crate::error::ApiError;
use crate::http::json::json_value;
use crate::http::params::Params;
use crate::http::path::PathText;
use crate::http::routes::ApiRoutes;
use crate::http::store_api::{StoreCtx, StoreWrite};
use crate::state::{AppState, SharedState};
use rules::cart::model::{resolve, CartError, StoredCart};
use rules::catalog::model::ProductId;
use store::catalog::find_stock;
use store::sessions::find_session_and_stock;

pub fn routes() -> ApiRoutes<SharedState> {
    ApiRoutes::new()
        .get("/cart", get_cart)
        .get("/cart/items", list_items)
        .get("/cart/items/{key}", get_item)
        .post("/cart/add-item", add_item)
        .post("/cart/update-item", update_item)
        .post("/cart/remove-item", remove_item)
}

fn quoted(name: &str) -> String {
    format!(
        "&quot;{}&quot;",
        rules::html::escape(name).replace("&quot;", "\"")
    )
}

pub fn cart_error(e: CartError) -> ApiError {
    use CartError::*;
    let bad = StatusCode::BAD_REQUEST;
    match e {
        InvalidProduct => ApiError::new(bad, "woocommerce_rest_cart_invalid_product", "This product cannot be added to the cart."),
        NoMatchingVariation => {
            ApiError::new(bad, "woocommerce_rest_variation_id_from_variation_data", "No matching variation found.")
        }
        MissingVariationData => ApiError::new(
            bad,
            "woocommerce_rest_missing_variation_data",
            "Missing variation data for variable product.",
        ),
        NotPurchasable { name } => ApiError::new(
            bad,
            "woocommerce_rest_product_not_purchasable",
            format!("{} is not available for purchase.", quoted(&name)),
        ),
        OutOfStock { name } => ApiError::new(
            bad,
            "woocommerce_rest_product_out_of_stock",
            format!("You cannot add {} to the cart because the product is out of stock.", quoted(&name)),
        ),
        NotEnoughStock { name, available, in_cart: 0 } => ApiError::new(
            bad,
            "woocommerce_rest_product_partially_out_of_stock",
            format!(
                "You cannot add that amount of {} to the cart because there is not enough stock ({available} remaining).",
                quoted(&name)
            ),
        ),
        NotEnoughStock { available, in_cart, .. } => ApiError::new(
            bad,
            "woocommerce_rest_product_partially_out_of_stock",
            format!(
                "You cannot add that amount to the cart &mdash; we have {available} in stock and you already have {in_cart} in your cart."
            ),
        ),
        SoldIndividually { name } => ApiError::new(
            bad,
            "woocommerce_rest_cart_product_sold_individually",
            format!("You cannot add another {} to your cart.", quoted(&name)),
        ),
        BelowMinimum { name, minimum } => ApiError::new(
            bad,
            "woocommerce_rest_cart_invalid_quantity",
            format!("The minimum quantity of {} allowed in the cart is {minimum}.", quoted(&name)),
        ),
        AboveMaximum { name, maximum } => ApiError::new(
            bad,
            "woocommerce_rest_cart_invalid_quantity",
            format!("The maximum quantity of {} allowed in the cart is {maximum}.", quoted(&name)),
        ),
        InvalidKey => ApiError::new(
            StatusCode::CONFLICT,
            "woocommerce_rest_cart_invalid_key",
            "Cart item no longer exists or is invalid.",
        ),
    }
}

fn change_error(e: ChangeError) -> ApiError {
    match e {
        ChangeError::Cart(c) => cart_error(c),
        ChangeError::Store(s) => s.into(),
    }
}

/// The cart as the Store API shows it: priced for the shopper's addresses (or the
/// shop's default location until they give one).
pub async fn render(
    state: &AppState,
    ctx: &StoreCtx,
    cart: &StoredCart,
) -> Result<CartView, ApiError> {
    let catalog = state.catalog.get();
    let view = ctx.view(state);
    let located = crate::cart::pricing::with_default_location(state, &catalog, cart);
    let pricing = crate::cart::pricing::price_cart(state, &catalog, &located, ctx.now).await?;
    let methods = state.config.checkout.gateways.ids();
    Ok(cart_view(&view, &catalog, &located, &pricing, &methods))
}

/// A cart answer after a change, with the cart cookies.
pub async fn changed(
    state: &AppState,
    ctx: &StoreCtx,
    status: StatusCode,
    cart: &StoredCart,
) -> Response {
    let view = match render(state, ctx, cart).await {
        Ok(v) => v,
        Err(e) => return e.into_response(),
    };
    let mut res = json_value(status, &view);
    ctx.cart_cookies(
        state,
        res.headers_mut(),
        &cart.hash(&state.config.currency.code),
        cart.items_count(),
    );
    res
}

async fn get_cart(State(state): State<SharedState>, ctx: StoreCtx) -> Response {
    let res = match service::load(&state, &ctx.session, ctx.now).await {
        Ok(cart) => match render(&state, &ctx, &cart).await {
            Ok(view) => json_value(StatusCode::OK, &view),
            Err(e) => e.into_response(),
        },
        Err(e) => ApiError::from(e).into_response(),
    };
    ctx.finish(&state, res)
}

async fn list_items(State(state): State<SharedState>, ctx: StoreCtx) -> Response {
    let res = match service::load(&state, &ctx.session, ctx.now).await {
        Ok(cart) => match render(&state, &ctx, &cart).await {
            Ok(view) => json_value(StatusCode::OK, &view.items),
            Err(e) => e.into_response(),
        },
        Err(e) => ApiError::from(e).into_response(),
    };
    ctx.finish(&state, res)
}

async fn get_item(
    State(state): State<SharedState>,
    ctx: StoreCtx,
    PathText(key): PathText,
) -> Response {
    let res = match service::load(&state, &ctx.session, ctx.now).await {
        Ok(cart) => {
            let rendered = match render(&state, &ctx, &cart).await {
                Ok(v) => v,
                Err(e) => return ctx.finish(&state, e.into_response()),
            };
            let item = rendered.items.iter().find(|i| i.key == key);
            match item {
                Some(item) => json_value(StatusCode::OK, item),
                None => ApiError::new(
                    StatusCode::NOT_FOUND,
                    "woocommerce_rest_cart_invalid_key",
                    "Cart item does not exist.",
                )
                .into_response(),
            }
        }
        Err(e) => ApiError::from(e).into_response(),
    };
    ctx.finish(&state, res)
}

/// The `variation` parameter: a list of {attribute, value}.
fn variation_param(params: &Params) -> Result<Vec<(String, String)>, ApiError> {
    let invalid = || {
        ApiError::invalid_param(
            "variation",
            "variation is not of type array.",
            "rest_invalid_type",
        )
    };
    match params.get("variation") {
        None => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .map(|item| {
                let attribute = item
                    .get("attribute")
                    .and_then(Value::as_str)
                    .ok_or_else(invalid)?;
                let value = item
                    .get("value")
                    .and_then(Value::as_str)
                    .ok_or_else(invalid)?;
                Ok((attribute.to_string(), value.to_string()))
            })
            .collect(),
        Some(_) => Err(invalid()),
    }
}

/// A requested quantity: an integer of at least 1; absent means 1.
fn quantity_param(params: &Params) -> Result<i64, ApiError> {
    let q = params.int("quantity")?.unwrap_or(1);
    if q < 1 {
        return Err(ApiError::invalid_param(
            "quantity",
            "quantity must be greater than or equal to 1",
            "rest_out_of_bounds",
        ));
    }
    Ok(q)
}

/// The three cart writes share one frame: nonce, parameters, the change, the answer.
#[derive(Clone, Copy, PartialEq, Eq)]
enum CartWrite {
    Add,
    Update,
    Remove,
}

async fn write_cart(state: SharedState, write: StoreWrite, kind: CartWrite) -> Response {
    let StoreWrite { ctx, params, .. } = write;
    let result = match kind {
        CartWrite::Add => add_item_inner(&state, &ctx, &params).await,
        CartWrite::Update => update_item_inner(&state, &ctx, &params).await,
        CartWrite::Remove => remove_item_inner(&state, &ctx, &params).await,
    };
    let status = if kind == CartWrite::Add {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    let res = match result {
        Ok(cart) => changed(&state, &ctx, status, &cart).await,
        Err(e) => e.into_response(),
    };
    ctx.finish(&state, res)
}

async fn add_item(State(state): State<SharedState>, write: StoreWrite) -> Response {
    write_cart(state, write, CartWrite::Add).await
}

async fn update_item(State(state): State<SharedState>, write: StoreWrite) -> Response {
    write_cart(state, write, CartWrite::Update).await
}

async fn remove_item(State(state): State<SharedState>, write: StoreWrite) -> Response {
    write_cart(state, write, CartWrite::Remove).await
}

async fn add_item_inner(
    state: &AppState,
    ctx: &StoreCtx,
    params: &Params,
) -> Result<StoredCart, ApiError> {
    // A missing id reads as "this product cannot be added", as in the original.
    let id = params.int("id")?.unwrap_or(0);
    let quantity = quantity_param(params)?;
    let chosen = variation_param(params)?;
    let catalog = state.catalog.get();
    let addition = resolve(&catalog, ProductId(id), &chosen).map_err(cart_error)?;
    let (found, stock) = find_session_and_stock(
        &state.db,
        ctx.session.id.as_str(),
        ctx.now,
        addition.product.id,
    )
    .await?
    .ok_or_else(|| cart_error(CartError::InvalidProduct))?;
    let (cart, _) = service::change_found(state, &ctx.session, ctx.now, found, |cart| {
        cart.add(&addition, quantity, &stock)
    })
    .await
    .map_err(change_error)?;
    Ok(cart)
}

/// A 409 for a key the cart does not hold carries the cart, so the client can redraw.
async fn invalid_key(state: &AppState, ctx: &StoreCtx, cart: &StoredCart) -> ApiError {
    let cart = match render(state, ctx, cart).await {
        Ok(view) => serde_json::to_value(view).unwrap_or(Value::Null),
        Err(e) => return e,
    };
    cart_error(CartError::InvalidKey).with_data("cart", cart)
}

/// The same, when the key went missing during the change: the cart is read afresh.
async fn key_gone(state: &AppState, ctx: &StoreCtx) -> ApiError {
    let cart = service::load(state, &ctx.session, ctx.now)
        .await
        .unwrap_or_default();
    invalid_key(state, ctx, &cart).await
}

pub(crate) async fn update_item_inner(
    state: &AppState,
    ctx: &StoreCtx,
    params: &Params,
) -> Result<StoredCart, ApiError> {
    let key = params
        .string("key")?
        .ok_or_else(|| ApiError::missing_param("key"))?;
    let quantity = quantity_param(params)?;
    let current = service::load(state, &ctx.session, ctx.now).await?;
    let Some(line) = current.line(&key).cloned() else {
        return Err(invalid_key(state, ctx, &current).await);
    };
    let catalog = state.catalog.get();
    let chosen: Vec<(String, String)> = line
        .variation
        .iter()
        .map(|v| (v.attribute.clone(), v.value.clone()))
        .collect();
    let addition = resolve(&catalog, line.id, &chosen).map_err(cart_error)?;
    let stock = find_stock(&state.db, line.id)
        .await?
        .ok_or_else(|| cart_error(CartError::InvalidProduct))?;
    match service::change(state, &ctx.session, ctx.now, |cart| {
        cart.set_quantity(&addition, &key, quantity, &stock)
    })
    .await
    {
        Ok((cart, ())) => Ok(cart),
        Err(ChangeError::Cart(CartError::InvalidKey)) => Err(key_gone(state, ctx).await),
        Err(e) => Err(change_error(e)),
    }
}

pub(crate) async fn remove_item_inner(
    state: &AppState,
    ctx: &StoreCtx,
    params: &Params,
) -> Result<StoredCart, ApiError> {
    let key = params
        .string("key")?
        .ok_or_else(|| ApiError::missing_param("key"))?;
    match service::change(state, &ctx.session, ctx.now, |cart| cart.remove(&key)).await {
        Ok((cart, _)) => Ok(cart),
        Err(ChangeError::Cart(CartError::InvalidKey)) => Err(key_gone(state, ctx).await),
        Err(e) => Err(change_error(e)),
    }
}
