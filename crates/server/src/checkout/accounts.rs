//! Accounts as checkout meets them: preparing the account a checkout asks for (its
//! order's transaction creates it), signing it in once the order stands, and who the
//! page settings say is shopping.

use axum::http::HeaderMap;

use crate::customers::login::NewLogin;
use crate::customers::registration::NewAccount;
use crate::customers::{self, Names};
use crate::error::ApiError;
use crate::http::store_api::StoreCtx;
use crate::rate_limit::{self, Action};
use crate::state::AppState;
use rules::address::Address;

/// The account a checkout asked for, from the billing address: counted like a
/// registration, checked, and its password hashed, all before the order's
/// transaction. The account keeps the address for next time.
pub async fn prepare_account(
    state: &AppState,
    ctx: &StoreCtx,
    billing: &Address,
    password: &str,
) -> Result<NewAccount, ApiError> {
    let limits = rate_limit::limits(Action::Registration, None, ctx.client);
    if let Err(limited) =
        rate_limit::attempt(&state.db, Action::Registration, &limits, ctx.now).await?
    {
        return Err(limited.to_api());
    }
    let names = Names {
        first_name: billing.first_name.trim().to_string(),
        last_name: billing.last_name.trim().to_string(),
    };
    let mut shipping = billing.clone();
    shipping.email.clear();
    let account = NewAccount::prepare(&state.db, &billing.email, password, names).await?;
    Ok(account.with_addresses(billing.clone(), shipping))
}

/// Once the order (and with it the account) is committed: the login cookie goes on
/// `headers`, and `ctx` speaks for the new customer, so the answer's nonce is theirs.
pub fn sign_in_new_account(
    state: &AppState,
    ctx: &mut StoreCtx,
    login: &NewLogin,
    headers: &mut HeaderMap,
) {
    login.set_cookie(state, &ctx.base_url, headers);
    ctx.session.signed_in(login.customer_id.0, &login.token);
}

/// The shopper as the storefront's page settings describe them; a revoked login is
/// a guest.
pub async fn page_account(state: &AppState, ctx: &StoreCtx) -> serde_json::Value {
    let customer = customers::current_customer(state, ctx).await.ok().flatten();
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
