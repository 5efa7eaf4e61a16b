//! The payment methods a customer keeps, in the account area: listed, one made the
//! default, one deleted (and detached at the provider, so it cannot be charged again).

use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde_json::{json, Value};

use payments::{CustomerId, IdempotencyKey, PaymentMethodId, UpdateCustomer};
use store::payments::SavedMethod;

use super::charge::{intent_id, keep_method};
use crate::error::ApiError;
use crate::http::json::json_value;
use crate::http::path::PathText;
use crate::http::store_api::{StoreCtx, StoreWrite};
use crate::state::{AppState, SharedState};
use store::payments::IntentKind;

fn method_json(m: &SavedMethod) -> Value {
    json!({
        "id": m.id,
        "gateway": m.gateway,
        "type": m.method_type,
        "brand": m.brand,
        "last4": m.last4,
        "exp_month": m.exp_month,
        "exp_year": m.exp_year,
        "is_default": m.is_default,
    })
}

/// The customer's kept methods, as the account area and the payment pages show them.
pub async fn list_json(state: &AppState, customer: i64) -> Result<Value, store::StoreError> {
    let methods = store::payments::saved_methods(&state.db, customer).await?;
    Ok(Value::Array(methods.iter().map(method_json).collect()))
}

fn login_required() -> ApiError {
    ApiError::new(
        StatusCode::UNAUTHORIZED,
        "woocommerce_rest_missing_login",
        "You must be logged in to manage payment methods.",
    )
}

fn not_found() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "ferroshop_invalid_payment_method",
        "Invalid payment method.",
    )
}

fn method_id(id: &str) -> Result<i64, ApiError> {
    id.parse::<i64>()
        .ok()
        .filter(|&i| i > 0)
        .ok_or_else(not_found)
}

/// GET /account/payment-methods; `?setup_intent=seti_…` first keeps the method of a
/// setup the page confirmed after a challenge (the provider's return address).
pub async fn list_payment_methods(
    State(state): State<SharedState>,
    RawQuery(query): RawQuery,
    ctx: StoreCtx,
) -> Response {
    let result = async {
        if ctx.session.user_id <= 0 {
            return Err(login_required());
        }
        let pairs: Vec<(String, String)> =
            serde_urlencoded::from_str(query.as_deref().unwrap_or("")).unwrap_or_default();
        if let Some((_, setup)) = pairs.iter().find(|(k, _)| k == "setup_intent") {
            keep_confirmed_setup(&state, ctx.session.user_id, setup, ctx.now).await;
        }
        Ok(json_value(
            StatusCode::OK,
            &list_json(&state, ctx.session.user_id).await?,
        ))
    }
    .await;
    ctx.answer(&state, result)
}

/// POST /account/payment-methods/{id}/default
pub async fn set_default_payment_method(
    State(state): State<SharedState>,
    PathText(id): PathText,
    StoreWrite { ctx, .. }: StoreWrite,
) -> Response {
    let result = async {
        if ctx.session.user_id <= 0 {
            return Err(login_required());
        }
        let id = method_id(&id)?;
        if !store::payments::set_default_method(&state.db, ctx.session.user_id, id).await? {
            return Err(not_found());
        }
        tell_default(&state, ctx.session.user_id, id).await;
        Ok(json_value(
            StatusCode::OK,
            &list_json(&state, ctx.session.user_id).await?,
        ))
    }
    .await;
    ctx.answer(&state, result)
}

/// POST /account/payment-methods/{id}/delete
pub async fn delete_payment_method(
    State(state): State<SharedState>,
    PathText(id): PathText,
    StoreWrite { ctx, .. }: StoreWrite,
) -> Response {
    let result = async {
        if ctx.session.user_id <= 0 {
            return Err(login_required());
        }
        let id = method_id(&id)?;
        let deleted = store::payments::delete_method(&state.db, ctx.session.user_id, id)
            .await?
            .ok_or_else(not_found)?;
        detach(&state, &deleted).await;
        Ok(json_value(
            StatusCode::OK,
            &list_json(&state, ctx.session.user_id).await?,
        ))
    }
    .await;
    ctx.answer(&state, result)
}

/// Makes the method the customer's default at the provider too (what its dashboard
/// and invoices show). The shop's own record already changed; a provider out of
/// reach is logged.
async fn tell_default(state: &AppState, customer: i64, id: i64) {
    let Some(provider) = state.provider.as_ref() else {
        return;
    };
    let (Ok(Some(provider_customer)), Ok(Some(method))) = (
        store::payments::provider_customer(&state.db, customer).await,
        store::payments::find_saved_method(&state.db, customer, id).await,
    ) else {
        return;
    };
    let params = UpdateCustomer {
        default_payment_method: Some(PaymentMethodId::new(method.provider_method_id.clone())),
        ..Default::default()
    };
    let Ok(key) = IdempotencyKey::new(format!(
        "ferroshop-default-{customer}-{id}-{}",
        rules::clock::now()
    )) else {
        return;
    };
    if let Err(e) = provider
        .client
        .update_customer(&CustomerId::new(provider_customer), &params, &key)
        .await
    {
        tracing::warn!(error = %e, "the default payment method could not be set at the provider");
    }
}

/// Detaches a forgotten method at the provider. The shop forgot it already; a provider
/// out of reach is logged, and the method cannot be used through the shop either way.
pub async fn detach(state: &AppState, method: &SavedMethod) {
    let Some(provider) = state.provider.as_ref() else {
        return;
    };
    let key = match IdempotencyKey::new(format!("ferroshop-detach-{}", method.provider_method_id)) {
        Ok(k) => k,
        Err(_) => return,
    };
    if let Err(e) = provider
        .client
        .detach_payment_method(
            &PaymentMethodId::new(method.provider_method_id.clone()),
            &key,
        )
        .await
    {
        tracing::warn!(error = %e, "a deleted payment method could not be detached at the provider");
    }
}

/// Keeps the method of a setup intent the page confirmed itself (a challenge was
/// needed), when the customer comes back with it (`?setup_intent=seti_…`). Reads the
/// intent from the provider; keeping it twice keeps it once.
pub async fn keep_confirmed_setup(state: &AppState, customer: i64, setup_intent: &str, now: i64) {
    let Some(id) = intent_id(setup_intent).filter(|i| i.starts_with("seti_")) else {
        return;
    };
    let Ok(keep) = succeeded_setup(state, customer, &id, now).await else {
        return;
    };
    let kept = async {
        let mut tx = state.db.begin_write().await?;
        store::payments::save_method(&mut tx, &keep.method).await?;
        store::payments::set_intent_status(&mut tx, &id, "succeeded", now).await?;
        tx.commit().await?;
        Ok::<_, store::StoreError>(())
    }
    .await;
    if let Err(e) = kept {
        tracing::error!(error = %e, "a confirmed payment method could not be kept");
    }
}

/// Why a setup intent gives no method to keep.
pub enum SetupProblem {
    /// The shop did not make it for this customer.
    NotTheirs,
    NotSucceeded,
    Unreachable,
    Store,
}

/// The method a setup intent of `customer` set up, read back from the provider: only
/// an intent the shop made for them, and only once it succeeded.
pub async fn succeeded_setup(
    state: &AppState,
    customer: i64,
    id: &str,
    now: i64,
) -> Result<super::settle::KeepMethod, SetupProblem> {
    let provider = state.provider.clone().ok_or(SetupProblem::Unreachable)?;
    match store::payments::find_intent(&state.db, id).await {
        Ok(Some(r)) if r.kind == IntentKind::Setup && r.customer_id == Some(customer) => {}
        Ok(_) => return Err(SetupProblem::NotTheirs),
        Err(_) => return Err(SetupProblem::Store),
    }
    let si = provider
        .client
        .retrieve_setup_intent(&payments::SetupIntentId::new(id))
        .await
        .map_err(|_| SetupProblem::Unreachable)?;
    let (Some(pm), "succeeded") = (si.payment_method.as_ref(), si.status.as_str()) else {
        return Err(SetupProblem::NotSucceeded);
    };
    keep_method(&provider, customer, pm.id(), now)
        .await
        .ok_or(SetupProblem::Unreachable)
}
