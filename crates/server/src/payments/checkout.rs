//! Card payments in the Store API's checkout and order-pay calls: the payment details
//! read before an order is placed, the attempt counted before the provider is asked,
//! and the charge's outcome answered in the Store API's shape.

use axum::http::StatusCode;
use axum::response::Response;
use serde_json::Value;

use payments::ClientSecret;
use rules::orders::model::Order;
use rules::payments::methods::MethodType;
use rules::payments::returns::{self, FragmentParts, IntentKind, NextStep};

use super::charge::{charge, ChargeError, Charged, PayRequest};
use super::nonces::UPDATE_ORDER_STATUS;
use crate::error::ApiError;
use crate::http::json::json_value;
use crate::http::store_api::StoreCtx;
use crate::orders::view::checkout_json;
use crate::rate_limit::{self, Action};
use crate::session::Session;
use crate::state::AppState;

/// The payment request for `gateway_id`, if it is one of the provider's; a refusal
/// when its details are missing or malformed.
pub fn read_request(
    state: &AppState,
    ctx: &StoreCtx,
    gateway_id: &str,
    billing_country: &str,
    data: &[(String, String)],
) -> Result<Option<PayRequest>, ApiError> {
    let Some(gateway) = state.config.checkout.gateways.find(gateway_id) else {
        return Ok(None);
    };
    if gateway.provider_method().is_none() {
        return Ok(None);
    }
    let field = |name: &str| data.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
    let refused = |message: String| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            "woocommerce_rest_checkout_process_payment_error",
            message,
        )
    };
    let pay = PayRequest::read(gateway_id, field).map_err(refused)?;
    // A method with a country list pays only for shoppers billed in one of them.
    if !pay.method_type.offered_in(billing_country) {
        return Err(refused(ChargeError::NotOffered.message()));
    }
    Ok(Some(PayRequest {
        client_ip: ctx.client,
        ..pay
    }))
}

/// Counts a payment attempt for the client and the payer's address, before anything
/// is asked of the provider.
pub async fn count_attempt(state: &AppState, ctx: &StoreCtx, email: &str) -> Result<(), ApiError> {
    let limits = rate_limit::limits(Action::Payment, Some(email), ctx.client);
    match rate_limit::attempt(&state.db, Action::Payment, &limits, ctx.now).await? {
        Ok(()) => Ok(()),
        Err(limited) => Err(limited.to_api()),
    }
}

/// A payment that waits for the shopper, as `Charged::NeedsAction` tells it.
pub struct NeedsAction<'a> {
    pub order: &'a Order,
    pub step: &'a NextStep,
    pub method_type: MethodType,
    pub client_secret: &'a ClientSecret,
}

/// Where the order call sends a shopper whose payment waits for them: a return
/// fragment on `page` (see `rules::payments::returns`), or the provider's page. The
/// fragments that tell the shop the outcome carry a nonce of `session` (the session
/// as the answer leaves it).
pub fn next_step_redirect(
    state: &AppState,
    ctx: &StoreCtx,
    session: &Session,
    waiting: &NeedsAction<'_>,
    page: &str,
) -> String {
    let nonce = state.keys.nonce(UPDATE_ORDER_STATUS, session, ctx.now);
    let return_url = ctx.base_url.link(&waiting.order.received_path());
    let parts = FragmentParts {
        order_id: waiting.order.id.0,
        method: waiting.method_type,
        intent: IntentKind::Payment,
        client_secret: waiting.client_secret.expose(),
        return_url: &return_url,
        nonce: &nonce,
    };
    returns::redirect_for(waiting.step, page, &parts).unwrap_or(return_url)
}

/// Charges a placed order and answers as the Store API does. `back` is the page the
/// shopper finishes a 3-D Secure challenge on (the checkout, or the order-pay page);
/// `session` the session as the answer leaves it, whose nonce the challenge's
/// fragment carries.
pub async fn pay_placed_order(
    state: &AppState,
    ctx: &StoreCtx,
    session: &Session,
    order: &Order,
    pay: &PayRequest,
    back: &str,
) -> Result<Response, ApiError> {
    let customer = order.customer_id.filter(|&c| c > 0);
    let pay_url = ctx.base_url.link(&order.pay_path());
    let refused = |status: StatusCode, message: String, order: &Order| {
        ApiError::new(
            status,
            "woocommerce_rest_checkout_process_payment_error",
            message,
        )
        .with_data("order_id", Value::from(order.id.0))
        .with_data("pay_url", Value::from(pay_url.clone()))
    };
    match charge(state, order, pay, customer, ctx.base_url.as_str(), ctx.now).await {
        Ok(Charged::Paid(paid)) => {
            let redirect = ctx.base_url.link(&paid.received_path());
            Ok(json_value(
                StatusCode::OK,
                &checkout_json(&paid, Some(("success", &redirect))),
            ))
        }
        Ok(Charged::NeedsAction {
            order,
            step,
            method_type,
            client_secret,
        }) => {
            let redirect = next_step_redirect(
                state,
                ctx,
                session,
                &NeedsAction {
                    order: &order,
                    step: &step,
                    method_type,
                    client_secret: &client_secret,
                },
                &ctx.base_url.link(back),
            );
            Ok(json_value(
                StatusCode::OK,
                &checkout_json(&order, Some(("pending", &redirect))),
            ))
        }
        Ok(Charged::Declined { order, message }) => {
            Err(refused(StatusCode::BAD_REQUEST, message, &order))
        }
        Err(ChargeError::Store(e)) => Err(e.into()),
        Err(ChargeError::Busy) => Err(refused(
            StatusCode::CONFLICT,
            ChargeError::Busy.message(),
            order,
        )),
        Err(ChargeError::Unreachable) => Err(refused(
            StatusCode::BAD_GATEWAY,
            ChargeError::Unreachable.message(),
            order,
        )),
        Err(e) => Err(refused(StatusCode::BAD_REQUEST, e.message(), order)),
    }
}
