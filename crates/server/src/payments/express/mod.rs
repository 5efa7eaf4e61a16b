//! The provider's express checkout (Apple Pay, Google Pay, Link): the params its
//! button needs (`params`), the `wc_stripe_*` calls its wallet sheet makes while the
//! shopper picks an address and a shipping rate (`calls`), the cart as the sheet shows
//! it (`display`), and what the Store API's checkout learns from an express payment
//! (the wallet's addresses, the wallet's name on the order).
//!
//! A product page's express purchase works on a cart of its own, named by a
//! `Cart-Token` the params hand out, so the shopper's cart stays as it was.

pub mod calls;
pub mod display;
pub mod params;

use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use serde_json::{Map, Value};

use rules::address::wallet;
use rules::address::{Address, ADDRESS_FIELDS};
use rules::orders::model::Order;
use rules::payments::methods::MethodType;
use store::StoreError;

use super::answer::Form;
use crate::error::ApiError;
use crate::http::params::Params;
use crate::http::store_api::StoreCtx;
use crate::state::AppState;

/// The nonce actions of the express calls, as the original names them; each is bound
/// to the session the calls speak for (see `session::Keys::nonce`).
pub mod nonces {
    pub const SHIPPING: &str = "wc-stripe-express-checkout-shipping";
    pub const UPDATE_SHIPPING: &str = "wc-stripe-update-shipping-method";
    pub const NORMALIZE_ADDRESS: &str = "wc-stripe-express-checkout-normalize-address";
    pub const GET_CART_DETAILS: &str = "wc-stripe-get-cart-details";
    pub const ADD_TO_CART: &str = "wc-stripe-add-to-cart";
    pub const CLEAR_CART: &str = "wc-stripe-clear-cart";
    pub const GET_SELECTED_PRODUCT_DATA: &str = "wc-stripe-get-selected-product-data";
    /// Sent with the Store API's checkout (`X-WCSTRIPE-EXPRESS-CHECKOUT-NONCE`).
    pub const STORE_API_EXPRESS_CHECKOUT: &str = "wc_store_api_express_checkout";
}

/// The header that says a Store API call comes from the express checkout, and the one
/// that carries its nonce.
pub const EXPRESS_HEADER: &str = "x-wcstripe-express-checkout";
pub const EXPRESS_NONCE_HEADER: &str = "x-wcstripe-express-checkout-nonce";

/// The classic call names this module answers (`wc-ajax` names).
pub fn handles(name: &str) -> bool {
    matches!(
        name,
        "wc_stripe_get_cart_details"
            | "wc_stripe_get_shipping_options"
            | "wc_stripe_update_shipping_method"
            | "wc_stripe_normalize_address"
            | "wc_stripe_add_to_cart"
            | "wc_stripe_clear_cart"
            | "wc_stripe_get_selected_product_data"
    )
}

/// Whether the shop offers express checkout: switched on, connected, and taking cards
/// (the wallets pay through the card method).
pub fn enabled(state: &AppState) -> bool {
    state.provider.is_some()
        && state.config.payments.offers_express_checkout()
        && state
            .config
            .checkout
            .gateways
            .find(MethodType::Card.gateway_id())
            .is_some()
}

/// Runs one express call (`handles(name)` is true) for the session the request names:
/// the product page's own cart when it sends that cart's `Cart-Token`.
pub(in crate::payments) async fn dispatch(
    state: &AppState,
    ctx: &StoreCtx,
    name: &str,
    form: &Form,
) -> Response {
    if !enabled(state) {
        return super::answer::failure(
            StatusCode::NOT_FOUND,
            "Express checkout is not offered on this shop.",
        );
    }
    match name {
        "wc_stripe_get_cart_details" => calls::get_cart_details(state, ctx, form).await,
        "wc_stripe_get_shipping_options" => calls::get_shipping_options(state, ctx, form).await,
        "wc_stripe_update_shipping_method" => calls::update_shipping_method(state, ctx, form).await,
        "wc_stripe_normalize_address" => calls::normalize_address(state, ctx, form),
        "wc_stripe_add_to_cart" => calls::add_to_cart(state, ctx, form).await,
        "wc_stripe_clear_cart" => calls::clear_cart(state, ctx, form).await,
        _ => calls::get_selected_product_data(state, ctx, form).await,
    }
}

/// Whether a Store API call says it comes from the express checkout. Its nonce is
/// checked when sent: a wrong one is refused, as the Store API refuses a wrong `Nonce`.
pub fn checkout_context(
    state: &AppState,
    ctx: &StoreCtx,
    headers: &HeaderMap,
) -> Result<bool, ApiError> {
    let text = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::trim)
            .filter(|v| !v.is_empty())
    };
    let nonce = text(EXPRESS_NONCE_HEADER);
    if let Some(given) = nonce {
        if !ctx.nonce_matches(state, nonces::STORE_API_EXPRESS_CHECKOUT, Some(given)) {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "woocommerce_rest_invalid_nonce",
                "The express checkout nonce is invalid.",
            ));
        }
    }
    let declared = text(EXPRESS_HEADER).is_some_and(|v| matches!(v, "true" | "1" | "yes"));
    Ok(declared && nonce.is_some())
}

/// The addresses of an express checkout's Store API call as the wallet sent them made
/// ready for checkout (`rules::address::wallet::normalize`): state names become the
/// shop's codes, phone numbers lose their formatting. An address that is not an object
/// of text is left for the checkout's own checks to refuse.
pub fn normalize_checkout_addresses(params: &mut Params) {
    for name in ["billing_address", "shipping_address"] {
        let Some(Value::Object(map)) = params.0.get_mut(name) else {
            continue;
        };
        let Some(address) = address_of(map) else {
            continue;
        };
        let normalized = wallet::normalize(&address);
        // A field the wallet left out is written only when normalizing filled it (the
        // last name of a full name sent as the first).
        for field in ADDRESS_FIELDS {
            if map.contains_key(field) || !normalized.get(field).is_empty() {
                map.insert(
                    field.to_string(),
                    Value::String(normalized.get(field).to_string()),
                );
            }
        }
    }
}

/// An address object whose every known field is text (or a number, or null).
fn address_of(map: &Map<String, Value>) -> Option<Address> {
    let mut address = Address::default();
    for field in ADDRESS_FIELDS {
        let text = match map.get(field) {
            None | Some(Value::Null) => continue,
            Some(Value::String(s)) => s.clone(),
            Some(Value::Number(n)) => n.to_string(),
            Some(_) => return None,
        };
        *address.get_mut(field)? = text;
    }
    Some(address)
}

/// The wallet an express payment was made with, from the payment method's
/// `payment_data` (`express_checkout_type`, or `express_payment_type` as the
/// order-pay page sends it): its name as the order shows it.
pub fn wallet_of(payment_data: &[(String, String)]) -> Option<&'static str> {
    let kind = payment_data
        .iter()
        .find(|(k, v)| {
            matches!(k.as_str(), "express_checkout_type" | "express_payment_type")
                && !v.trim().is_empty()
        })
        .map(|(_, v)| v.trim())?;
    match kind {
        "apple_pay" => Some("Apple Pay"),
        "google_pay" => Some("Google Pay"),
        "link" => Some("Link"),
        _ => None,
    }
}

/// The payment title an order paid through a wallet carries, as the original writes
/// it: the wallet, then the provider ("Apple Pay (Stripe)"), so the order, its mails
/// and the staff's tools say how it was paid.
pub fn wallet_title(wallet: &str) -> String {
    format!("{wallet} (Stripe)")
}

/// Names the wallet on an order about to be paid by card through it: its payment
/// method becomes the card method (charging would make it so anyway) and its title
/// the wallet's. Any other order, or a payment made without a wallet, is left as it
/// is.
pub async fn name_wallet(
    state: &AppState,
    order: Order,
    payment_method: &str,
    payment_data: &[(String, String)],
    now: i64,
) -> Result<Order, StoreError> {
    let card = MethodType::Card.gateway_id();
    let Some(wallet) = wallet_of(payment_data) else {
        return Ok(order);
    };
    if payment_method != card || !order.status.needs_payment() {
        return Ok(order);
    }
    let title = wallet_title(wallet);
    if order.payment_method == card && order.payment_method_title == title {
        return Ok(order);
    }
    let mut tx = state.db.begin_write().await?;
    let Some(mut current) = store::orders::lock_order(&mut tx, &state.db, order.id).await? else {
        tx.rollback().await.map_err(StoreError::from)?;
        return Ok(order);
    };
    if current.status.needs_payment() {
        current.payment_method = card.to_string();
        current.payment_method_title = title;
        current.updated_at = now;
        let status = current.status;
        store::orders::update_order(&mut tx, &current, status).await?;
    }
    tx.commit().await.map_err(StoreError::from)?;
    Ok(current)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn data(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn the_wallet_is_read_from_the_payment_data() {
        assert_eq!(
            wallet_of(&data(&[("express_checkout_type", "apple_pay")])),
            Some("Apple Pay")
        );
        assert_eq!(
            wallet_of(&data(&[("express_payment_type", "google_pay")])),
            Some("Google Pay")
        );
        assert_eq!(
            wallet_of(&data(&[("express_checkout_type", "link")])),
            Some("Link")
        );
        assert_eq!(
            wallet_of(&data(&[("express_checkout_type", "paypal")])),
            None
        );
        assert_eq!(
            wallet_of(&data(&[("wc-stripe-payment-type", "card")])),
            None
        );
        assert_eq!(wallet_title("Apple Pay"), "Apple Pay (Stripe)");
    }

    #[test]
    fn express_addresses_are_made_ready_for_checkout_and_others_left_alone() {
        let mut params = Params(
            json!({
                "billing_address": {"first_name": "Ada Lovelace", "state": "California", "country": "us", "phone": "(555) 010-0100"},
                "shipping_address": {"state": ["not", "text"], "country": "US"},
                "payment_method": "stripe",
            })
            .as_object()
            .unwrap()
            .clone(),
        );
        normalize_checkout_addresses(&mut params);
        let billing = &params.0["billing_address"];
        assert_eq!(billing["state"], "CA");
        assert_eq!(billing["country"], "US");
        assert_eq!(billing["first_name"], "Ada");
        assert_eq!(billing["last_name"], "Lovelace");
        assert_eq!(
            billing["company"],
            Value::Null,
            "fields not sent stay unsent"
        );
        assert_eq!(billing["phone"], "5550100100");
        assert_eq!(
            params.0["shipping_address"]["state"],
            json!(["not", "text"])
        );
    }
}
