//! The account calls under `/wp-json/ferroshop/v1/account`, in the Store API's frame:
//! writes need the nonce, every answer carries a fresh one for whoever is now signed
//! in, bodies may be JSON or form-encoded, errors are `{code, message, data}`.

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};

use super::address::{address_from_params, address_json, check_address, to_stored, AddressKind};
use super::details::{change_details, DetailsForm};
use super::error::AccountError;
use super::login::{log_in_with, log_out, signed_in, SignedIn};
use super::password::verify_password;
use super::password_reset::{request_reset, reset_password, ResetRequest};
use super::registration::create_customer;
use crate::error::ApiError;
use crate::http::json::json_value;
use crate::http::params::Params;
use crate::http::path::PathText;
use crate::http::routes::ApiRoutes;
use crate::http::store_api::{StoreCtx, StoreWrite};
use crate::rate_limit::{self, Action};
use crate::state::{AppState, SharedState};
use mail::MailContext;
use rules::customers::{email_key, Customer, CustomerId, Names, UserView};
use store::customers;

pub fn routes() -> ApiRoutes<SharedState> {
    ApiRoutes::new()
        .get("/account", get_account)
        .post("/account/register", register_customer)
        .post("/account/login", log_in_customer)
        .post("/account/logout", log_out_customer)
        .post("/account/lost-password", send_password_reset)
        .post("/account/reset-password", reset_customer_password)
        .post("/account/details", save_account_details)
        .post("/account/address/{kind}", save_account_address)
}

type Outcome = Result<Response, AccountError>;

/// Every answer ends here: the error shape, and the Store API's headers for whoever is
/// signed in now (a revoked login cookie is ended there).
fn respond(state: &AppState, ctx: StoreCtx, outcome: Outcome) -> Response {
    ctx.finish(state, outcome.unwrap_or_else(IntoResponse::into_response))
}

/// Counts an attempt at `action` before its work is done; refused when over a limit.
async fn count_attempt(
    state: &AppState,
    ctx: &StoreCtx,
    action: Action,
    limits: &[rate_limit::Limit],
) -> Result<(), AccountError> {
    match rate_limit::attempt(&state.db, action, limits, ctx.now).await? {
        Ok(()) => Ok(()),
        Err(limited) => Err(AccountError::Api(limited.to_api())),
    }
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
    MailContext::new(&state.config.shop_name, ctx.base_url.as_str())
}

fn account_view(customer: &Customer) -> Value {
    json!({
        "user": UserView::from(customer),
        "billing": address_json(AddressKind::Billing, &customer.billing),
        "shipping": address_json(AddressKind::Shipping, &customer.shipping),
    })
}

async fn require_login(state: &AppState, ctx: &StoreCtx) -> Result<SignedIn, AccountError> {
    signed_in(state, ctx)
        .await?
        .ok_or(AccountError::NotLoggedIn)
}

async fn load_customer(state: &AppState, id: CustomerId) -> Result<Customer, AccountError> {
    super::find_customer(&state.db, id)
        .await?
        .ok_or_else(|| AccountError::Internal(format!("customer {id} vanished")))
}

// GET /account

async fn get_account(State(state): State<SharedState>, ctx: StoreCtx) -> Response {
    let outcome: Outcome = async {
        let signed = require_login(&state, &ctx).await?;
        Ok(json_value(StatusCode::OK, &account_view(&signed.customer)))
    }
    .await;
    respond(&state, ctx, outcome)
}

// POST /account/register

async fn register_customer(
    State(state): State<SharedState>,
    StoreWrite {
        mut ctx, params, ..
    }: StoreWrite,
) -> Response {
    let outcome: Outcome = async {
        let names = Names {
            first_name: text(&params, "first_name")?,
            last_name: text(&params, "last_name")?,
        };
        let limits = rate_limit::limits(Action::Registration, None, ctx.client);
        count_attempt(&state, &ctx, Action::Registration, &limits).await?;
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
    respond(&state, ctx, outcome)
}

// POST /account/login

async fn log_in_customer(
    State(state): State<SharedState>,
    StoreWrite {
        mut ctx, params, ..
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
        // Counted before the password is checked, so parallel guesses cannot slip
        // past the limit while the hashes run.
        let limits = rate_limit::limits(Action::Login, Some(&key), ctx.client);
        count_attempt(&state, &ctx, Action::Login, &limits).await?;
        let found = customers::find_customer_by_email(&state.db, &key).await?;
        let matches =
            verify_password(&password, found.as_ref().map(|c| c.password_hash.as_str())).await;
        let Some(found) = found.filter(|_| matches) else {
            return Err(AccountError::InvalidLogin);
        };
        // A good login wipes the account's failures and does not count against the
        // client's address.
        for limit in &limits {
            if limit.key.contains(":account:") {
                rate_limit::clear(&state.db, limit).await?;
            } else {
                rate_limit::give_back(&state.db, limit).await?;
            }
        }
        // Signing in again replaces the login this browser had.
        if let Some(hash) = ctx.session.login_token_hash() {
            customers::delete_login(&state.db, &hash).await?;
        }
        let cookies = log_in_with(&state, &mut ctx, found.id, truthy(&params, "remember")).await?;
        let customer = load_customer(&state, found.id).await?;
        let body = json!({ "user": UserView::from(&customer) });
        Ok(with_headers(json_value(StatusCode::OK, &body), cookies))
    }
    .await;
    respond(&state, ctx, outcome)
}

// POST /account/logout

async fn log_out_customer(
    State(state): State<SharedState>,
    StoreWrite { mut ctx, .. }: StoreWrite,
) -> Response {
    let outcome: Outcome = async {
        let cookies = log_out(&state, &mut ctx).await?;
        Ok(with_headers(
            json_value(StatusCode::OK, &json!({})),
            cookies,
        ))
    }
    .await;
    respond(&state, ctx, outcome)
}

// POST /account/lost-password

async fn send_password_reset(
    State(state): State<SharedState>,
    StoreWrite { ctx, params, .. }: StoreWrite,
) -> Response {
    let outcome: Outcome = async {
        let login = text(&params, "user_login")?;
        // Counted before any mail is queued: nobody floods a mailbox from here.
        let limits = rate_limit::limits(Action::ResetMail, Some(&email_key(&login)), ctx.client);
        count_attempt(&state, &ctx, Action::ResetMail, &limits).await?;
        request_reset(&state.db, &mail_context(&state, &ctx), &login, ctx.now).await?;
        let body = json!({ "message": "Password reset email has been sent." });
        Ok(json_value(StatusCode::OK, &body))
    }
    .await;
    respond(&state, ctx, outcome)
}

// POST /account/reset-password

async fn reset_customer_password(
    State(state): State<SharedState>,
    StoreWrite { ctx, params, .. }: StoreWrite,
) -> Response {
    let outcome: Outcome = async {
        let (login, key) = (text(&params, "login")?, text(&params, "key")?);
        let limits =
            rate_limit::limits(Action::PasswordReset, Some(&email_key(&login)), ctx.client);
        count_attempt(&state, &ctx, Action::PasswordReset, &limits).await?;
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
    respond(&state, ctx, outcome)
}

// POST /account/details

async fn save_account_details(
    State(state): State<SharedState>,
    StoreWrite { ctx, params, .. }: StoreWrite,
) -> Response {
    let outcome: Outcome = async {
        let signed = require_login(&state, &ctx).await?;
        let form = DetailsForm {
            first_name: text(&params, "first_name")?.trim().to_string(),
            last_name: text(&params, "last_name")?.trim().to_string(),
            display_name: text(&params, "display_name")?.trim().to_string(),
            email: text(&params, "email")?.trim().to_string(),
            password_current: text(&params, "password_current")?,
            password_1: text(&params, "password_1")?,
            password_2: text(&params, "password_2")?,
        };
        if !form.password_current.is_empty() || !form.password_1.is_empty() {
            // Checking the current password is a guess like a login's.
            let limits = rate_limit::limits(
                Action::PasswordChange,
                Some(&signed.customer.email.to_lowercase()),
                ctx.client,
            );
            count_attempt(&state, &ctx, Action::PasswordChange, &limits).await?;
        }
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
    respond(&state, ctx, outcome)
}

// POST /account/address/{billing|shipping}

async fn save_account_address(
    State(state): State<SharedState>,
    PathText(kind): PathText,
    StoreWrite { ctx, params, .. }: StoreWrite,
) -> Response {
    let outcome: Outcome = async {
        let kind = AddressKind::parse(&kind).ok_or_else(ApiError::not_found)?;
        let signed = require_login(&state, &ctx).await?;
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
    respond(&state, ctx, outcome)
}
