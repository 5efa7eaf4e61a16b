//! `GET /payments/express-checkout-params?context=product|cart|checkout[&product_id=]`:
//! what the express checkout button needs on a page, in the shape of the original's
//! `wc_stripe_express_checkout_params` — the publishable key, the currency and country,
//! the amount and its display items, whether to ask for a shipping address, the
//! button's look, and the shopper's nonces for the sheet's calls.
//!
//! On a product page the button buys the product in a cart of its own: the params
//! carry that cart's `cart_token` (the one the request sent, or a new one), and the
//! nonces are bound to it. The page then makes the sheet's calls, and the Store API
//! calls, with that `Cart-Token` and without cookies, and the shopper's cart is never
//! touched.

use axum::extract::{RawQuery, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::Response;
use serde_json::{json, Value};

use rules::address::locale::{fields, AddressKind};
use rules::cart::model::{resolve, Addition, CartError};
use rules::catalog::index::Catalog;
use rules::catalog::model::{Product, ProductId, ProductKind};

use super::calls::{quote, quote_json};
use super::display::{self, cart_display};
use super::nonces;
use crate::cart::pricing::{price_cart, with_default_location};
use crate::error::ApiError;
use crate::http::json::json_value;
use crate::http::store_api::{StoreCtx, STORE_API_NONCE};
use crate::session::{Session, SessionSource};
use crate::state::{AppState, SharedState};

/// The page the button is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Context {
    Product(ProductId),
    Cart,
    Checkout,
}

fn bad_param(name: &str) -> ApiError {
    ApiError::invalid_param(
        name,
        format!("{name} is not one of the values taken."),
        "rest_invalid_param",
    )
}

/// GET /payments/express-checkout-params
pub async fn get_express_checkout_params(
    State(state): State<SharedState>,
    RawQuery(query): RawQuery,
    ctx: StoreCtx,
) -> Response {
    let result = async {
        let pairs: Vec<(String, String)> =
            serde_urlencoded::from_str(query.as_deref().unwrap_or(""))
                .map_err(|_| bad_param("context"))?;
        let get = |name: &str| {
            pairs
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.as_str())
        };
        let context = match get("context").unwrap_or("checkout") {
            "product" => {
                let id = get("product_id")
                    .and_then(|v| v.trim().parse::<i64>().ok())
                    .filter(|&i| i > 0)
                    .ok_or_else(|| {
                        ApiError::invalid_param(
                            "product_id",
                            "product_id must name a product.",
                            "rest_invalid_param",
                        )
                    })?;
                Context::Product(ProductId(id))
            }
            "cart" => Context::Cart,
            "checkout" => Context::Checkout,
            _ => return Err(bad_param("context")),
        };
        let params = build(&state, &ctx, context).await?;
        Ok(json_value(StatusCode::OK, &params))
    }
    .await;
    let mut res = ctx.answer(&state, result);
    // The shopper's nonces and cart token: never kept by a cache.
    res.headers_mut().insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("no-store, private"),
    );
    res
}

async fn build(state: &AppState, ctx: &StoreCtx, context: Context) -> Result<Value, ApiError> {
    let catalog = state.catalog.get();
    let product = match context {
        Context::Product(id) => Some(
            catalog
                .shown(id)
                .filter(|p| p.parent_id.is_none())
                .ok_or_else(|| {
                    ApiError::new(
                        StatusCode::NOT_FOUND,
                        "woocommerce_rest_product_invalid_id",
                        "Invalid product ID.",
                    )
                })?,
        ),
        _ => None,
    };
    let Some(provider) = state.provider.as_ref().filter(|_| super::enabled(state)) else {
        return Ok(json!({"enabled": false, "is_product_page": product.is_some()}));
    };
    // The session the button's calls speak for: the product page's own cart (the one
    // this request names, or a new one), or the shopper's.
    let session = match context {
        Context::Product(_) if ctx.session.source == SessionSource::CartToken => {
            ctx.session.clone()
        }
        Context::Product(_) => Session::fresh(),
        _ => ctx.session.clone(),
    };
    let nonce = |action: &str| state.keys.nonce(action, &session, ctx.now);
    let cart = crate::cart::service::load(state, &session, ctx.now).await?;
    let (product_data, cart_data, needs_shipping) = match product {
        Some(p) => {
            let data = product_data(state, &catalog, ctx, &cart.customer, p).await?;
            let ships = data["requestShipping"] == json!(true);
            (data, Value::Bool(false), ships)
        }
        None => {
            let located = with_default_location(state, &catalog, &cart);
            let pricing = price_cart(state, &catalog, &located, ctx.now).await?;
            let mut order_data = cart_display(state, &catalog, &pricing, false);
            order_data["currency"] = json!(display::currency(state));
            order_data["country_code"] = json!(display::country_code(state));
            let ships = pricing.needs_shipping && display::shop_ships(&catalog);
            (
                Value::Bool(false),
                json!({"shipping_required": ships, "order_data": order_data}),
                ships,
            )
        }
    };
    let phone_required = fields(
        AddressKind::Billing,
        Some(&state.config.checkout.default_country),
    )
    .iter()
    .any(|rule| rule.key == "phone" && rule.required);
    let mut params = json!({
        "enabled": true,
        "ajax_url": "/?wc-ajax=%%endpoint%%",
        "stripe": {
            "publishable_key": provider.publishable_key.as_str(),
            "allow_prepaid_card": "yes",
            "locale": "en",
            "is_link_enabled": true,
            "is_express_checkout_enabled": true,
            "apiVersion": payments::API_VERSION,
        },
        "nonce": {
            "shipping": nonce(nonces::SHIPPING),
            "update_shipping": nonce(nonces::UPDATE_SHIPPING),
            "normalize_address": nonce(nonces::NORMALIZE_ADDRESS),
            "wc_store_api": nonce(STORE_API_NONCE),
            "wc_store_api_express_checkout": nonce(nonces::STORE_API_EXPRESS_CHECKOUT),
            "get_cart_details": nonce(nonces::GET_CART_DETAILS),
            "add_to_cart": nonce(nonces::ADD_TO_CART),
            "clear_cart": nonce(nonces::CLEAR_CART),
            "get_selected_product_data": nonce(nonces::GET_SELECTED_PRODUCT_DATA),
            // A 3-D Secure challenge that fails after an express payment is reported.
            "update_failed_order": nonce(crate::payments::nonces::UPDATE_FAILED_ORDER),
        },
        "i18n": {
            "no_prepaid_card": "Sorry, we're not accepting prepaid cards at this time.",
            "unknown_shipping": "Unknown shipping option \"[option]\".",
        },
        "checkout": {
            "url": "/checkout/",
            "currency_code": display::currency(state),
            "country_code": display::country_code(state),
            "needs_shipping": if needs_shipping { "yes" } else { "no" },
            "needs_payer_phone": phone_required,
        },
        "button": {"type": "default", "theme": "dark", "height": "48", "radius": "4", "locale": "en"},
        "total_label": display::total_label(state),
        "is_pay_for_order": false,
        "is_product_page": matches!(context, Context::Product(_)),
        "is_cart_page": context == Context::Cart,
        "is_checkout_page": context == Context::Checkout,
        "product": product_data,
        "cart": cart_data,
    });
    if matches!(context, Context::Product(_)) {
        params["cart_token"] = json!(state.keys.cart_token(&session.id, ctx.now));
    }
    Ok(params)
}

/// The product page's button before a choice is made: the product (a variable
/// product's default options, else its lowest-priced variation in stock) priced as
/// one unit. `false` when nothing of it can be bought.
async fn product_data(
    state: &AppState,
    catalog: &Catalog,
    ctx: &StoreCtx,
    customer: &rules::address::CustomerDetails,
    product: &Product,
) -> Result<Value, ApiError> {
    let defaults: Vec<(String, String)> = product
        .attributes
        .iter()
        .filter(|a| a.used_for_variations && !a.default_value.is_empty())
        .map(|a| (catalog.attribute_key(a), a.default_value.clone()))
        .collect();
    let (addition, selected) = match resolve(catalog, product.id, &defaults) {
        Ok(a) => (a, true),
        Err(CartError::MissingVariationData | CartError::NoMatchingVariation)
            if product.kind == ProductKind::Variable =>
        {
            match cheapest_variation(catalog, product) {
                Some(a) => (a, false),
                None => return Ok(Value::Bool(false)),
            }
        }
        Err(_) => return Ok(Value::Bool(false)),
    };
    let stock = store::catalog::find_stock(&state.db, addition.product.id).await?;
    // A variation shown only for its price is not checked against stock.
    let stock = if selected { stock } else { None };
    if selected && stock.is_none() {
        return Ok(Value::Bool(false));
    }
    match quote(
        state,
        catalog,
        customer,
        &addition,
        1,
        stock.as_ref(),
        ctx.now,
    )
    .await?
    {
        Ok(quote) => {
            let mut data = quote_json(state, catalog, &quote);
            data["validVariationSelected"] =
                json!(selected || product.kind != ProductKind::Variable);
            Ok(data)
        }
        Err(_) => Ok(Value::Bool(false)),
    }
}

/// A variable product's lowest-priced variation that can be bought, to show a price
/// until the shopper chooses (its own variations only, never the catalogue).
fn cheapest_variation<'a>(catalog: &'a Catalog, product: &'a Product) -> Option<Addition<'a>> {
    let variation = catalog
        .variations_of(product.id)
        .filter(|v| catalog.is_purchasable(v) && catalog.is_in_stock(v))
        .filter_map(|v| catalog.prices(v).price.map(|price| (price, v)))
        .min_by_key(|(price, _)| *price)
        .map(|(_, v)| v)?;
    Some(Addition {
        product: variation,
        parent: Some(product),
        variation: variation.variation.clone(),
    })
}
