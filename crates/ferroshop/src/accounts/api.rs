//! The account calls under `/wp-json/ferroshop/v1/account`, in the Store API's frame:
//! writes need the nonce, every answer carries a fresh one for whoever is now signed
//! in, bodies may be JSON or form-encoded, errors are `{code, message, data}`.

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use serde_json::{json, Value};

use super::address::{address_from_params, address_json, check_address, to_stored, AddressKind};
use super::details::{change_details, DetailsForm};
use super::error::AccountError;
use super::login::{expire_login_cookie, log_in_with, log_out, signed_in, token_hash, SignedIn};
use super::model::{email_key, Customer, CustomerId, Names, UserView};
use super::password::verify_password;
use super::password_reset::{request_reset, reset_password, ResetRequest};
use super::rate_limit::{self, ClientIp};
use super::registration::create_customer;
use crate::error::ApiError;
use crate::http::params::Params;
use crate::http::store_api::{json_value, StoreCtx, StoreWrite};
use crate::mail::MailContext;
use crate::state::{AppState, SharedState};
use crate::store::customers;

/// Where the shop's own calls live, beside the Store API.
pub const FERROSHOP_API_ROOT: &str = "/wp-json/ferroshop/v1";

pub fn router() -> Router<SharedState> {
    let at = |path: &str| format!("{FERROSHOP_API_ROOT}{path}");
    Router::new()
        .route(&at("/account"), get(get_account).fallback(no_route))
        .route(
            &at("/account/register"),
            post(register_customer).fallback(no_route),
        )
        .route(
            &at("/account/login"),
            post(log_in_customer).fallback(no_route),
        )
        .route(
            &at("/account/logout"),
            post(log_out_customer).fallback(no_route),
        )
        .route(
            &at("/account/lost-password"),
            post(send_password_reset).fallback(no_route),
        )
        .route(
            &at("/account/reset-password"),
            post(reset_customer_password).fallback(no_route),
        )
        .route(
            &at("/account/details"),
            post(save_account_details).fallback(no_route),
        )
        .route(
            &at("/account/address/{kind}"),
            post(save_account_address).fallback(no_route),
        )
}

async fn no_route() -> Response {
    ApiError::not_found().into_response()
}

type Outcome = Result<Response, AccountError>;

/// Every answer ends here: the error shape, and the Store API's headers for whoever is
/// signed in now.
fn respond(state: &AppState, mut ctx: StoreCtx, request: &HeaderMap, outcome: Outcome) -> Response {
    let res = match outcome {
        Ok(res) => res,
        Err(AccountError::NotLoggedIn) if state.keys.login_from(request, ctx.now).is_some() => {
            // A validly signed cookie whose login was revoked: end it and answer as the
            // guest the browser now is, so its next nonce fits.
            ctx.session.user_id = 0;
            let mut res = AccountError::NotLoggedIn.into_response();
            expire_login_cookie(res.headers_mut());
            res
        }
        Err(e) => e.into_response(),
    };
    ctx.finish(state, res)
}

fn with_headers(mut res: Response, extra: HeaderMap) -> Response {
    for (name, value) in extra.iter() {
        res.headers_mut().append(name.clone(), value.clone());
    }
    res
}

/// A string parameter, empty when absent.
fn text(params: &Params, name: &str) -> Result<String, AccountError> {
    Ok(params.string(name)?.unwrap_or_default())
}

fn truthy(params: &Params, name: &str) -> bool {
    match params.get(name) {
        Some(Value::Bool(b)) => *b,
        Some(Value::Number(n)) => n.as_i64().is_some_and(|n| n != 0),
        Some(Value::String(s)) => matches!(
            s.trim().to_ascii_lowercase().as_str(),
            "1" | "true" | "yes" | "on" | "forever"
        ),
        _ => false,
    }
}

fn mail_context(state: &AppState, ctx: &StoreCtx) -> MailContext {
    MailContext::new(&state.config.shop_name, &ctx.base_url)
}

fn account_view(customer: &Customer) -> Value {
    json!({
        "user": UserView::from(customer),
        "billing": address_json(AddressKind::Billing, &customer.billing),
        "shipping": address_json(AddressKind::Shipping, &customer.shipping),
    })
}

async fn require_login(
    state: &AppState,
    ctx: &StoreCtx,
    headers: &HeaderMap,
) -> Result<SignedIn, AccountError> {
    signed_in(state, headers, ctx.now)
        .await?
        .ok_or(AccountError::NotLoggedIn)
}

async fn load_customer(state: &AppState, id: CustomerId) -> Result<Customer, AccountError> {
    super::find_customer(&state.db, id)
        .await?
        .ok_or_else(|| AccountError::Internal(format!("customer {id} vanished")))
}

// GET /account

async fn get_account(State(state): State<SharedState>, headers: HeaderMap) -> Response {
    let ctx = StoreCtx::new(&state, &headers);
    let outcome: Outcome = async {
        let signed = require_login(&state, &ctx, &headers).await?;
        Ok(json_value(StatusCode::OK, &account_view(&signed.customer)))
    }
    .await;
    respond(&state, ctx, &headers, outcome)
}

// POST /account/register

async fn register_customer(
    State(state): State<SharedState>,
    StoreWrite {
        mut ctx,
        params,
        headers,
    }: StoreWrite,
) -> Response {
    let outcome: Outcome = async {
        let names = Names {
            first_name: text(&params, "first_name")?,
            last_name: text(&params, "last_name")?,
        };
        let id = create_customer(
            &state.db,
            &mail_context(&state, &ctx),
            &text(&params, "email")?,
            &text(&params, "password")?,
            names,
        )
        .await?;
        let customer = load_customer(&state, id).await?;
        let cookies = log_in_with(&state, &mut ctx, id, false).await?;
        let body = json!({ "user": UserView::from(&customer) });
        Ok(with_headers(
            json_value(StatusCode::CREATED, &body),
            cookies,
        ))
    }
    .await;
    respond(&state, ctx, &headers, outcome)
}

// POST /account/login

async fn log_in_customer(
    State(state): State<SharedState>,
    ClientIp(ip): ClientIp,
    StoreWrite {
        mut ctx,
        params,
        headers,
    }: StoreWrite,
) -> Response {
    let outcome: Outcome = async {
        let username = text(&params, "username")?;
        let password = text(&params, "password")?;
        if username.trim().is_empty() {
            return Err(AccountError::MissingUsername);
        }
        if password.is_empty() {
            return Err(AccountError::MissingLoginPassword);
        }
        let key = email_key(&username);
        let limits = rate_limit::login_limits(&key, ip);
        rate_limit::check(&state.db, &limits, ctx.now).await?;
        let found = customers::find_customer_by_email(&state.db, &key).await?;
        let matches =
            verify_password(&password, found.as_ref().map(|c| c.password_hash.as_str())).await;
        let Some(found) = found.filter(|_| matches) else {
            rate_limit::record_failure(&state.db, &limits, ctx.now).await?;
            return Err(AccountError::InvalidLogin);
        };
        rate_limit::clear_account(&state.db, &key).await?;
        // Signing in again replaces the login this browser had.
        if let Some(claim) = state.keys.login_from(&headers, ctx.now) {
            customers::delete_login(&state.db, &token_hash(&claim.token)).await?;
        }
        let cookies = log_in_with(&state, &mut ctx, found.id, truthy(&params, "remember")).await?;
        let customer = load_customer(&state, found.id).await?;
        let body = json!({ "user": UserView::from(&customer) });
        Ok(with_headers(json_value(StatusCode::OK, &body), cookies))
    }
    .await;
    respond(&state, ctx, &headers, outcome)
}

// POST /account/logout

async fn log_out_customer(
    State(state): State<SharedState>,
    StoreWrite {
        mut ctx,
        params: _,
        headers,
    }: StoreWrite,
) -> Response {
    let outcome: Outcome = async {
        let cookies = log_out(&state, &mut ctx, &headers).await?;
        Ok(with_headers(
            json_value(StatusCode::OK, &json!({})),
            cookies,
        ))
    }
    .await;
    respond(&state, ctx, &headers, outcome)
}

// POST /account/lost-password

async fn send_password_reset(
    State(state): State<SharedState>,
    StoreWrite {
        ctx,
        params,
        headers,
    }: StoreWrite,
) -> Response {
    let outcome: Outcome = async {
        if state.config.public_url.is_none() {
            tracing::debug!(
                "password-reset link built from the request's Host; set FERROSHOP_PUBLIC_URL"
            );
        }
        request_reset(
            &state.db,
            &mail_context(&state, &ctx),
            &text(&params, "user_login")?,
            ctx.now,
        )
        .await?;
        let body = json!({ "message": "Password reset email has been sent." });
        Ok(json_value(StatusCode::OK, &body))
    }
    .await;
    respond(&state, ctx, &headers, outcome)
}

// POST /account/reset-password

async fn reset_customer_password(
    State(state): State<SharedState>,
    StoreWrite {
        ctx,
        params,
        headers,
    }: StoreWrite,
) -> Response {
    let outcome: Outcome = async {
        let (login, key) = (text(&params, "login")?, text(&params, "key")?);
        let (password, confirm) = (
            text(&params, "password")?,
            text(&params, "password_confirm")?,
        );
        reset_password(
            &state.db,
            &ResetRequest {
                login: &login,
                key: &key,
                password: &password,
                password_confirm: &confirm,
            },
            ctx.now,
        )
        .await?;
        let body = json!({ "message": "Your password has been reset successfully." });
        Ok(json_value(StatusCode::OK, &body))
    }
    .await;
    respond(&state, ctx, &headers, outcome)
}

// POST /account/details

async fn save_account_details(
    State(state): State<SharedState>,
    StoreWrite {
        ctx,
        params,
        headers,
    }: StoreWrite,
) -> Response {
    let outcome: Outcome = async {
        let signed = require_login(&state, &ctx, &headers).await?;
        let form = DetailsForm {
            first_name: text(&params, "first_name")?.trim().to_string(),
            last_name: text(&params, "last_name")?.trim().to_string(),
            display_name: text(&params, "display_name")?.trim().to_string(),
            email: text(&params, "email")?.trim().to_string(),
            password_current: text(&params, "password_current")?,
            password_1: text(&params, "password_1")?,
            password_2: text(&params, "password_2")?,
        };
        change_details(
            &state.db,
            &signed.customer,
            &form,
            &signed.token_hash,
            ctx.now,
        )
        .await?;
        let customer = load_customer(&state, signed.customer.id).await?;
        let mut body = account_view(&customer);
        body["message"] = json!("Account details changed successfully.");
        Ok(json_value(StatusCode::OK, &body))
    }
    .await;
    respond(&state, ctx, &headers, outcome)
}

// POST /account/address/{billing|shipping}

async fn save_account_address(
    State(state): State<SharedState>,
    Path(kind): Path<String>,
    StoreWrite {
        ctx,
        params,
        headers,
    }: StoreWrite,
) -> Response {
    let outcome: Outcome = async {
        let kind = AddressKind::parse(&kind).ok_or_else(ApiError::not_found)?;
        let signed = require_login(&state, &ctx, &headers).await?;
        let address = address_from_params(&params, kind)?;
        let address = check_address(kind, &address)?;
        let json = to_stored(kind, &address);
        let (billing, shipping) = match kind {
            AddressKind::Billing => (Some(json.as_str()), None),
            AddressKind::Shipping => (None, Some(json.as_str())),
        };
        customers::save_addresses(&state.db, signed.customer.id, billing, shipping, ctx.now)
            .await?;
        let customer = load_customer(&state, signed.customer.id).await?;
        let mut body = account_view(&customer);
        body["message"] = json!("Address changed successfully.");
        Ok(json_value(StatusCode::OK, &body))
    }
    .await;
    respond(&state, ctx, &headers, outcome)
}
