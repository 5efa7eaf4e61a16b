//! Accounts as checkout meets them: creating one while checking out, logging the new
//! customer in, and who the page settings say is shopping.

use axum::http::HeaderMap;

use super::address::Address;
use crate::accounts::{self, CustomerId, Names};
use crate::error::ApiError;
use crate::http::store_api::StoreCtx;
use crate::mail::layout::MailContext;
use crate::state::AppState;

/// Creates the customer account a checkout asked for, from the billing address, and
/// keeps that address on the account.
pub async fn create_at_checkout(
    state: &AppState,
    ctx: &StoreCtx,
    billing: &Address,
    password: &str,
) -> Result<i64, ApiError> {
    let mail = MailContext::new(&state.config.shop_name, &ctx.base_url);
    let names = Names {
        first_name: billing.first_name.trim().to_string(),
        last_name: billing.last_name.trim().to_string(),
    };
    let id = accounts::create_customer(&state.db, &mail, &billing.email, password, names).await?;
    let mut shipping = billing.clone();
    shipping.email.clear();
    accounts::save_addresses(&state.db, id, Some(billing), Some(&shipping)).await?;
    Ok(id.0)
}

/// Logs the account just created in: its cookies go on `headers`, and the returned
/// user id is who the answer's nonce must be for.
pub async fn log_in_new_account(
    state: &AppState,
    ctx: &StoreCtx,
    customer_id: i64,
    headers: &mut HeaderMap,
) -> Result<i64, ApiError> {
    let mut signed = StoreCtx {
        session: ctx.session.clone(),
        base_url: ctx.base_url.clone(),
        now: ctx.now,
    };
    let cookies = accounts::log_in(state, &mut signed, CustomerId(customer_id)).await?;
    for (name, value) in cookies.iter() {
        headers.append(name, value.clone());
    }
    Ok(signed.session.user_id)
}

/// The shopper as the storefront's page settings describe them; a revoked login is
/// a guest.
pub async fn page_account(state: &AppState, headers: &HeaderMap) -> serde_json::Value {
    let customer = accounts::current_customer(state, headers)
        .await
        .ok()
        .flatten();
    match customer {
        Some(c) => serde_json::json!({
            "logged_in": true,
            "user_id": c.id.0,
            "email": c.email,
            "display_name": c.display_name,
            "first_name": c.first_name,
            "last_name": c.last_name,
        }),
        None => serde_json::json!({
            "logged_in": false, "user_id": 0, "email": "", "display_name": "",
            "first_name": "", "last_name": "",
        }),
    }
}
