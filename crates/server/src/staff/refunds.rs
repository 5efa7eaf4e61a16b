//! `/orders/{id}/refunds` of the staff API, in the original's shape: money given back
//! on an order, through the card provider (`api_refund`, the default) or recorded by
//! hand for a payment made some other way.

use axum::body::Body;
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use serde_json::{json, Value};

use super::api::{answer, boolean, find_order, order_id, query_params, refuse_unknown};
use super::auth::{authorize, Access};
use crate::error::ApiError;
use crate::http::json::json_value;
use crate::http::params::Params;
use crate::payments::staff::{self as pay, StaffPayError};
use crate::state::{AppState, SharedState};
use rules::catalog::csv::parse_price;
use store::payments::Refund;

/// The refund calls, under the staff API's root beside `api::routes`.
pub fn routes() -> crate::http::routes::ApiRoutes<SharedState> {
    crate::http::routes::ApiRoutes::new()
        .get("/orders/{id}/refunds", list_refunds)
        .post("/orders/{id}/refunds", create_refund)
}

impl From<StaffPayError> for ApiError {
    fn from(e: StaffPayError) -> Self {
        match e {
            StaffPayError::NotFound => ApiError::new(
                StatusCode::NOT_FOUND,
                "woocommerce_rest_shop_order_invalid_id",
                "Invalid ID.",
            ),
            StaffPayError::Refused(m) => ApiError::new(
                StatusCode::BAD_REQUEST,
                "woocommerce_rest_cannot_create_order_refund",
                m,
            ),
            StaffPayError::Provider(m) => ApiError::new(
                StatusCode::BAD_GATEWAY,
                "woocommerce_rest_cannot_create_order_refund",
                m,
            ),
            StaffPayError::Store(e) => e.into(),
        }
    }
}

fn refund_json(state: &AppState, r: &Refund) -> Value {
    let money = |m: i64| {
        state
            .config
            .currency
            .format_decimal(rules::money::Money { minor: m })
    };
    let through_provider =
        !r.provider_refund_id.is_empty() && !r.provider_refund_id.starts_with("manual-");
    json!({
        "id": r.id,
        "date_created": rules::clock::iso_date(r.created_at),
        "date_created_gmt": rules::clock::iso_date(r.created_at),
        "amount": money(r.amount),
        "reason": r.reason,
        "refunded_by": r.refunded_by,
        "refunded_payment": through_provider,
        "meta_data": if !through_provider { json!([]) } else { json!([{"key": "_refund_id", "value": r.provider_refund_id}]) },
        "line_items": [],
    })
}

/// GET /orders/{id}/refunds
pub async fn list_refunds(
    State(state): State<SharedState>,
    headers: HeaderMap,
    path: Result<Path<String>, PathRejection>,
) -> Response {
    answer(
        async {
            authorize(&state, &headers, Access::View).await?;
            let id = order_id(&path)?;
            find_order(&state, id).await?;
            let refunds = store::payments::refunds(&state.db, id).await?;
            let list: Vec<Value> = refunds
                .iter()
                .rev()
                .map(|r| refund_json(&state, r))
                .collect();
            Ok(json_value(StatusCode::OK, &Value::Array(list)))
        }
        .await,
    )
}

/// POST /orders/{id}/refunds: `amount` (a decimal string; what is left when absent),
/// `reason`, `api_refund` (through the provider; default true).
pub async fn create_refund(
    State(state): State<SharedState>,
    headers: HeaderMap,
    path: Result<Path<String>, PathRejection>,
    RawQuery(query): RawQuery,
    body: Body,
) -> Response {
    answer(
        async {
            let key = authorize(&state, &headers, Access::Create).await?;
            let id = order_id(&path)?;
            refuse_unknown(&query_params(query.as_deref())?, &[])?;
            let params = Params::read(&headers, body, state.config.max_body_bytes).await?;
            refuse_unknown(&params.0, &["amount", "reason", "api_refund", "line_items"])?;
            let amount = match params.string("amount")? {
                None => None,
                Some(text) => Some(
                    parse_price(&text, &state.config.currency)
                        .ok()
                        .flatten()
                        .filter(|&a| a > 0)
                        .ok_or_else(|| {
                            ApiError::invalid_param("amount", "Refund amount must be greater than zero.", "rest_invalid_param")
                        })?,
                ),
            };
            let reason = params.string("reason")?.unwrap_or_default();
            let reason: String = reason.trim().chars().take(500).collect();
            let through_provider = boolean(&params, "api_refund")?.unwrap_or(true);
            let order = find_order(&state, id).await?;
            let actor = key.actor().to_string();
            let now = rules::clock::now();
            if through_provider && pay::paid_by_provider(&order) {
                pay::refund(&pay::Desk::of(&state), id, amount, &reason, &actor, now)
                    .await
                    .map_err(ApiError::from)?;
            } else {
                if through_provider {
                    return Err(ApiError::new(
                        StatusCode::BAD_REQUEST,
                        "woocommerce_rest_cannot_create_order_refund",
                        "The payment method of this order cannot refund automatically; send api_refund false to record a refund made by hand.",
                    ));
                }
                pay::manual_refund(&pay::Desk::of(&state), &order, amount, &reason, &actor, now)
                    .await
                    .map_err(ApiError::from)?;
            }
            let refunds = store::payments::refunds(&state.db, id).await?;
            let last = refunds.last().ok_or_else(ApiError::internal)?;
            Ok(json_value(StatusCode::CREATED, &refund_json(&state, last)))
        }
        .await,
    )
}
