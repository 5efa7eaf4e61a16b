//! The storefront's payment calls at `/?wc-ajax=wc_stripe_NAME` (and the one at
//! `/wp-admin/admin-ajax.php`), answered as the original's script reads them:
//! `{success, data}` with `data.error.message` on failure. Each takes its own nonce,
//! bound to the shopper's session. Nothing the browser says about a payment is taken on
//! trust: the intent is read back from the provider before an order changes.

use axum::body::Body;
use axum::http::request::Parts;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::Response;
use serde_json::{json, Value};

use payments::{
    ConfirmSetupIntent, CreateSetupIntent, CustomerId, IdempotencyKey, OnlineMandate,
    PaymentIntentId, PaymentMethodId, UpdatePaymentIntent,
};
use rules::orders::model::{Order, OrderId, OrderStatus};
use rules::payments::intents::IntentStatus;
use rules::payments::messages;
use rules::payments::methods::{Flow, MethodType};
use store::payments::{IntentKind, IntentRecord};

use super::answer::{bad_nonce, failure, success, Form};
use super::charge::{self, facts_of, intent_id, keep_method, CustomerError};
use super::nonces;
use super::settle;
use crate::http::json::json_value;
use crate::http::params::Params;
use crate::http::store_api::StoreCtx;
use crate::rate_limit::{self, Action};
use crate::state::AppState;

use super::page_settings::APPEARANCE_SETTING;
/// The largest appearance kept.
const MAX_APPEARANCE_BYTES: usize = 16 * 1024;

/// The classic call names this module answers (`wc-ajax` names).
pub fn handles(name: &str) -> bool {
    matches!(
        name,
        "wc_stripe_init_setup_intent"
            | "wc_stripe_create_payment_intent"
            | "wc_stripe_create_and_confirm_setup_intent"
            | "wc_stripe_update_payment_intent"
            | "wc_stripe_update_order_status"
            | "wc_stripe_confirm_change_payment"
            | "wc_stripe_update_failed_order"
            | "wc_stripe_save_appearance"
    ) || super::express::handles(name)
}

/// Runs one payment call (`handles(name)` is true).
pub async fn dispatch(state: &AppState, name: &str, parts: &Parts, body: Body) -> Response {
    let ctx = match StoreCtx::from_parts(state, parts).await {
        Ok(ctx) => ctx,
        Err(res) => return res,
    };
    let mut res = match Params::read(&parts.headers, body, state.config.max_body_bytes).await {
        Err(e) => failure(e.status, &e.message),
        Ok(params) => {
            let form = Form(params);
            if state.provider.is_none() {
                failure(
                    StatusCode::NOT_FOUND,
                    "Card payments are not set up on this shop.",
                )
            } else {
                match name {
                    name if super::express::handles(name) => {
                        super::express::dispatch(state, &ctx, name, &form).await
                    }
                    "wc_stripe_init_setup_intent" => init_setup_intent(state, &ctx, &form).await,
                    "wc_stripe_create_payment_intent" => {
                        create_payment_intent(state, &ctx, &form).await
                    }
                    "wc_stripe_create_and_confirm_setup_intent" => {
                        create_and_confirm_setup_intent(state, &ctx, &form).await
                    }
                    "wc_stripe_update_payment_intent" => {
                        update_payment_intent(state, &ctx, &form).await
                    }
                    "wc_stripe_update_order_status" => {
                        update_order_status(state, &ctx, &form, nonces::UPDATE_ORDER_STATUS).await
                    }
                    "wc_stripe_confirm_change_payment" => {
                        confirm_change_payment(state, &ctx, &form).await
                    }
                    "wc_stripe_update_failed_order" => {
                        update_failed_order(state, &ctx, &form).await
                    }
                    _ => save_appearance(state, &ctx, &form).await,
                }
            }
        }
    };
    ctx.keep_session(state, res.headers_mut());
    let h = res.headers_mut();
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert("x-robots-tag", HeaderValue::from_static("noindex"));
    res
}

/// `POST /wp-admin/admin-ajax.php` with `action=NAME`: the one payment call the
/// original makes there.
pub async fn admin_ajax(state: &AppState, parts: &Parts, body: Body) -> Response {
    let ctx = match StoreCtx::from_parts(state, parts).await {
        Ok(ctx) => ctx,
        Err(res) => return res,
    };
    let mut res = match Params::read(&parts.headers, body, state.config.max_body_bytes).await {
        Err(e) => failure(e.status, &e.message),
        Ok(params) => {
            let form = Form(params);
            match form.text("action").as_deref() {
                Some(
                    "wc_stripe_create_and_confirm_setup_intent" | "create_and_confirm_setup_intent",
                ) if state.provider.is_some() => {
                    create_and_confirm_setup_intent(state, &ctx, &form).await
                }
                Some(
                    "wc_stripe_create_and_confirm_setup_intent" | "create_and_confirm_setup_intent",
                ) => failure(
                    StatusCode::NOT_FOUND,
                    "Card payments are not set up on this shop.",
                ),
                // WordPress answers an unknown action with a bare 0.
                _ => {
                    let mut res = Response::new(Body::from("0"));
                    *res.status_mut() = StatusCode::BAD_REQUEST;
                    res
                }
            }
        }
    };
    ctx.keep_session(state, res.headers_mut());
    res.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    res
}

fn nonce_ok(state: &AppState, ctx: &StoreCtx, form: &Form, action: &str) -> bool {
    ctx.nonce_matches(
        state,
        action,
        form.text("_ajax_nonce")
            .or_else(|| form.text("nonce"))
            .as_deref(),
    )
}

/// The order named by the call, if this shopper may act on it: an account's order
/// only by that account; a guest's by whoever paid it (the intent id they send back
/// must be the order's own).
async fn own_order(state: &AppState, ctx: &StoreCtx, id: Option<i64>) -> Result<Order, Response> {
    let not_found = || failure(StatusCode::NOT_FOUND, "Unable to find the order.");
    let id = id.ok_or_else(not_found)?;
    let order = store::orders::find_order(&state.db, OrderId(id))
        .await
        .map_err(|_| failure(StatusCode::INTERNAL_SERVER_ERROR, messages::GENERIC_ERROR))?
        .filter(|o| o.status != OrderStatus::CheckoutDraft)
        .ok_or_else(not_found)?;
    if let Some(owner) = order.customer_id.filter(|&c| c > 0) {
        if owner != ctx.session.user_id {
            return Err(not_found());
        }
    }
    Ok(order)
}

/// `own_order`, for the calls that make or change something at the provider: a
/// guest's order only for the session that placed it, or for whoever sends its key.
async fn payable_order(
    state: &AppState,
    ctx: &StoreCtx,
    form: &Form,
    id_field: &str,
) -> Result<Order, Response> {
    let order = own_order(state, ctx, form.id(id_field)).await?;
    if order.customer_id.is_some_and(|c| c > 0) {
        return Ok(order);
    }
    let key_given = form
        .text("key")
        .or_else(|| form.text("order_key"))
        .is_some_and(|k| {
            !k.is_empty() && crate::session::constant_time_eq(k.as_bytes(), order.key.as_bytes())
        });
    let placed_here = crate::cart::service::load(state, &ctx.session, ctx.now)
        .await
        .ok()
        .and_then(|cart| cart.customer.last_order)
        .is_some_and(|last| last.id == order.id.0);
    if key_given || placed_here {
        Ok(order)
    } else {
        Err(failure(StatusCode::NOT_FOUND, "Unable to find the order."))
    }
}

async fn count(
    state: &AppState,
    ctx: &StoreCtx,
    action: Action,
    account: Option<&str>,
) -> Result<(), Response> {
    let limits = rate_limit::limits(action, account, ctx.client);
    match rate_limit::attempt(&state.db, action, &limits, ctx.now).await {
        Ok(Ok(())) => Ok(()),
        Ok(Err(limited)) => Err(failure(
            StatusCode::TOO_MANY_REQUESTS,
            &limited.to_api().message,
        )),
        Err(_) => Err(failure(
            StatusCode::INTERNAL_SERVER_ERROR,
            messages::GENERIC_ERROR,
        )),
    }
}

/// wc_stripe_update_order_status / wc_stripe_confirm_change_payment: the shopper is
/// back from 3-D Secure; the intent is read from the provider and the order follows it.
async fn update_order_status(
    state: &AppState,
    ctx: &StoreCtx,
    form: &Form,
    action: &str,
) -> Response {
    if !nonce_ok(state, ctx, form, action) {
        return bad_nonce();
    }
    let order = match own_order(state, ctx, form.id("order_id")).await {
        Ok(o) => o,
        Err(res) => return res,
    };
    let Some(id) = form.text("intent_id").and_then(|i| intent_id(&i)) else {
        return failure(StatusCode::BAD_REQUEST, messages::GENERIC_ERROR);
    };
    let record = match store::payments::find_intent(&state.db, &id).await {
        Ok(Some(r)) if r.order_id == order.id.0 && r.kind == IntentKind::Payment => r,
        Ok(_) => return failure(StatusCode::BAD_REQUEST, messages::GENERIC_ERROR),
        Err(_) => return failure(StatusCode::INTERNAL_SERVER_ERROR, messages::GENERIC_ERROR),
    };
    let Some(provider) = state.provider.clone() else {
        return failure(StatusCode::NOT_FOUND, messages::GENERIC_ERROR);
    };
    let intent = match provider
        .client
        .retrieve_payment_intent(&PaymentIntentId::new(id.clone()))
        .await
    {
        Ok(i) => i,
        Err(_) => return failure(StatusCode::BAD_GATEWAY, messages::UNREACHABLE),
    };
    let mail = state.config.order_mails(ctx.base_url.as_str());
    let latest = match charge::order_of_record(state, &record).await {
        Ok(found) => found.is_some_and(|(_, latest)| latest),
        Err(_) => return failure(StatusCode::INTERNAL_SERVER_ERROR, messages::GENERIC_ERROR),
    };
    let Some(facts) = facts_of(&intent) else {
        return failure(StatusCode::BAD_GATEWAY, messages::GENERIC_ERROR);
    };
    let keep = match (
        record.save_method,
        record.customer_id,
        intent.payment_method_id(),
    ) {
        (true, Some(c), Some(pm)) if facts.status.is_paid() => {
            keep_method(&provider, c, pm, ctx.now).await
        }
        _ => None,
    };
    if let Err(e) = settle::apply(&state.db, order.id, &facts, latest, keep, &mail, ctx.now).await {
        tracing::error!(error = %e, "could not apply a returning payment");
        return failure(StatusCode::INTERNAL_SERVER_ERROR, messages::GENERIC_ERROR);
    }
    if facts.status.is_paid() || facts.status == IntentStatus::Processing {
        success(json!({"return_url": ctx.base_url.link(&order.received_path())}))
    } else {
        let message = facts.failure.unwrap_or_else(|| {
            messages::ERROR_MESSAGES
                .iter()
                .find(|(k, _)| *k == "payment_intent_authentication_failure")
                .map(|(_, m)| m.to_string())
                .unwrap_or_else(|| messages::PAYMENT_FAILED.to_string())
        });
        failure(StatusCode::PAYMENT_REQUIRED, &message)
    }
}

/// wc_stripe_confirm_change_payment: the order's payment method was changed in the
/// page. A setup intent (`seti_…`) that succeeded makes its method the order's (and
/// keeps it for the customer); a payment intent is an order paid on the change page,
/// which follows the payment's own path.
async fn confirm_change_payment(state: &AppState, ctx: &StoreCtx, form: &Form) -> Response {
    // A wallet's return fragment carries the order-status nonce for this call.
    let Some(action) = [nonces::CONFIRM_CHANGE_PAYMENT, nonces::UPDATE_ORDER_STATUS]
        .into_iter()
        .find(|action| nonce_ok(state, ctx, form, action))
    else {
        return bad_nonce();
    };
    let Some(id) = form.text("intent_id").and_then(|i| intent_id(&i)) else {
        return failure(StatusCode::BAD_REQUEST, messages::GENERIC_ERROR);
    };
    if id.starts_with("pi_") {
        return update_order_status(state, ctx, form, action).await;
    }
    let order = match own_order(state, ctx, form.id("order_id")).await {
        Ok(o) => o,
        Err(res) => return res,
    };
    if ctx.session.user_id <= 0 || order.customer_id != Some(ctx.session.user_id) {
        return failure(
            StatusCode::UNAUTHORIZED,
            "You must be logged in to change the payment method.",
        );
    }
    let keep = match super::saved::succeeded_setup(state, ctx.session.user_id, &id, ctx.now).await {
        Ok(keep) => keep,
        Err(super::saved::SetupProblem::NotTheirs) => {
            return failure(StatusCode::BAD_REQUEST, messages::GENERIC_ERROR)
        }
        Err(super::saved::SetupProblem::NotSucceeded) => {
            return failure(StatusCode::PAYMENT_REQUIRED, messages::UNABLE_TO_SAVE)
        }
        Err(super::saved::SetupProblem::Unreachable) => {
            return failure(StatusCode::BAD_GATEWAY, messages::UNREACHABLE)
        }
        Err(super::saved::SetupProblem::Store) => {
            return failure(StatusCode::INTERNAL_SERVER_ERROR, messages::GENERIC_ERROR)
        }
    };
    let changed = async {
        let mut tx = state.db.begin_write().await?;
        let kept = store::payments::save_method(&mut tx, &keep.method).await?;
        store::payments::set_intent_status(&mut tx, &id, "succeeded", ctx.now).await?;
        let Some(mut current) = store::orders::lock_order(&mut tx, &state.db, order.id).await?
        else {
            return Ok::<_, store::StoreError>(());
        };
        let gateway = state.config.checkout.gateways.find(&kept.gateway).cloned();
        if let Some(g) = gateway {
            current.payment_method = g.id.to_string();
            current.payment_method_title = g.title.clone();
            current.updated_at = ctx.now;
            let status = current.status;
            store::orders::update_order(&mut tx, &current, status).await?;
        }
        let brand = if kept.brand.is_empty() {
            "Card".to_string()
        } else {
            kept.brand.clone()
        };
        store::orders::add_note(
            &mut tx,
            order.id,
            &format!(
                "Payment method changed to {brand} ending in {}.",
                kept.last4
            ),
            false,
            rules::orders::actor::Actor::system().as_str(),
            ctx.now,
        )
        .await?;
        tx.commit().await?;
        Ok(())
    }
    .await;
    match changed {
        Ok(()) => success(
            json!({"return_url": ctx.base_url.link(&format!("/my-account/view-order/{}/", order.id.0))}),
        ),
        Err(_) => failure(StatusCode::INTERNAL_SERVER_ERROR, messages::GENERIC_ERROR),
    }
}

/// wc_stripe_update_failed_order: the page could not finish a payment; the order
/// follows what the provider says of the intent (failed, or paid after all).
async fn update_failed_order(state: &AppState, ctx: &StoreCtx, form: &Form) -> Response {
    if !nonce_ok(state, ctx, form, nonces::UPDATE_FAILED_ORDER) {
        return bad_nonce();
    }
    let order = match own_order(state, ctx, form.id("order_id")).await {
        Ok(o) => o,
        Err(res) => return res,
    };
    let Some(id) = form.text("intent_id").and_then(|i| intent_id(&i)) else {
        return failure(StatusCode::BAD_REQUEST, messages::GENERIC_ERROR);
    };
    let record = match store::payments::find_intent(&state.db, &id).await {
        Ok(Some(r)) if r.order_id == order.id.0 => r,
        _ => return failure(StatusCode::BAD_REQUEST, messages::GENERIC_ERROR),
    };
    let Some(provider) = state.provider.clone() else {
        return failure(StatusCode::NOT_FOUND, messages::GENERIC_ERROR);
    };
    let Ok(intent) = provider
        .client
        .retrieve_payment_intent(&PaymentIntentId::new(id.clone()))
        .await
    else {
        return failure(StatusCode::BAD_GATEWAY, messages::UNREACHABLE);
    };
    let Some(mut facts) = facts_of(&intent) else {
        return failure(StatusCode::BAD_GATEWAY, messages::GENERIC_ERROR);
    };
    // An intent still waiting for its challenge was given up in the page.
    if matches!(
        facts.status,
        IntentStatus::RequiresAction | IntentStatus::RequiresPaymentMethod
    ) {
        facts.status = IntentStatus::RequiresPaymentMethod;
        facts
            .failure
            .get_or_insert_with(|| messages::PAYMENT_FAILED.to_string());
    }
    let latest = charge::order_of_record(state, &record)
        .await
        .ok()
        .flatten()
        .is_some_and(|(_, latest)| latest);
    let mail = state.config.order_mails(ctx.base_url.as_str());
    match settle::apply(&state.db, order.id, &facts, latest, None, &mail, ctx.now).await {
        Ok(_) => success(json!({})),
        Err(_) => failure(StatusCode::INTERNAL_SERVER_ERROR, messages::GENERIC_ERROR),
    }
}

/// wc_stripe_create_payment_intent: an intent for an order the page confirms itself.
async fn create_payment_intent(state: &AppState, ctx: &StoreCtx, form: &Form) -> Response {
    if !nonce_ok(state, ctx, form, nonces::CREATE_PAYMENT_INTENT) {
        return bad_nonce();
    }
    let order = match payable_order(state, ctx, form, "stripe_order_id").await {
        Ok(o) => o,
        Err(res) => return res,
    };
    if !order.status.needs_payment() {
        return failure(
            StatusCode::CONFLICT,
            &charge::ChargeError::NotPayable(Box::new(order)).message(),
        );
    }
    let method = form
        .text("payment_method_type")
        .filter(|t| !t.is_empty())
        .map_or(Some(MethodType::Card), |t| MethodType::parse(&t));
    let Some(method) = method.filter(|m| {
        state
            .config
            .checkout
            .gateways
            .find(m.gateway_id())
            .is_some()
    }) else {
        return failure(StatusCode::BAD_REQUEST, messages::INVALID_DETAILS);
    };
    if let Err(res) = count(state, ctx, Action::Payment, Some(&order.billing.email)).await {
        return res;
    }
    let Some(provider) = state.provider.clone() else {
        return failure(StatusCode::NOT_FOUND, messages::GENERIC_ERROR);
    };
    let Ok(currency) = payments::Currency::parse(&order.currency) else {
        return failure(StatusCode::BAD_REQUEST, messages::GENERIC_ERROR);
    };
    // One unconfirmed intent per order and attempt: asking again gets the same one.
    let attempt = match store::payments::latest_order_intent(&state.db, order.id).await {
        Ok(latest) => latest.map_or(1, |l| l.attempt + 1),
        Err(_) => return failure(StatusCode::INTERNAL_SERVER_ERROR, messages::GENERIC_ERROR),
    };
    let mut params = payments::CreatePaymentIntent::new(order.total, currency);
    params.payment_method_types = vec![method.as_str().to_string()];
    params
        .metadata
        .insert("order_id".into(), order.id.0.to_string());
    let key = IdempotencyKey::for_order(order.id.0, attempt, "page-intent");
    let intent = match provider.client.create_payment_intent(&params, &key).await {
        Ok(i) => i,
        Err(e) => return provider_failure(&e),
    };
    let record = IntentRecord {
        intent_id: intent.id.as_str().to_string(),
        order_id: order.id.0,
        customer_id: (ctx.session.user_id > 0).then_some(ctx.session.user_id),
        kind: IntentKind::Payment,
        attempt,
        status: intent.status.as_str().to_string(),
        amount: order.total,
        currency: order.currency.clone(),
        payment_method_id: String::new(),
        save_method: false,
        created_at: ctx.now,
    };
    if store::payments::record_intent(&state.db, &record)
        .await
        .is_err()
    {
        return failure(StatusCode::INTERNAL_SERVER_ERROR, messages::GENERIC_ERROR);
    }
    success(json!({
        "id": intent.id.as_str(),
        "client_secret": intent.client_secret.as_ref().map(|s| s.expose()),
    }))
}

/// wc_stripe_update_payment_intent: the order an intent made by the page pays gains
/// the shopper's choice to keep the method. Setup intents are never updated.
async fn update_payment_intent(state: &AppState, ctx: &StoreCtx, form: &Form) -> Response {
    let failed = |message: &str| {
        json_value(
            StatusCode::BAD_REQUEST,
            &json!({"result": "failure", "messages": message}),
        )
    };
    if !nonce_ok(state, ctx, form, nonces::UPDATE_PAYMENT_INTENT) {
        return failed(
            "We were unable to process your request. Please refresh the page and try again.",
        );
    }
    let Some(id) = form
        .text("wc_payment_intent_id")
        .and_then(|i| intent_id(&i))
    else {
        return failed(messages::GENERIC_ERROR);
    };
    if id.starts_with("seti_") {
        return failed("Setup intents are not updated.");
    }
    let order = match payable_order(state, ctx, form, "stripe_order_id").await {
        Ok(o) => o,
        Err(_) => return failed("Unable to find the order."),
    };
    match store::payments::find_intent(&state.db, &id).await {
        Ok(Some(r)) if r.order_id == order.id.0 => {}
        _ => return failed(messages::GENERIC_ERROR),
    }
    let Some(provider) = state.provider.clone() else {
        return failed(messages::GENERIC_ERROR);
    };
    let mut params = UpdatePaymentIntent::default();
    params
        .metadata
        .insert("order_id".into(), order.id.0.to_string());
    let keep = form
        .text("save_payment_method")
        .is_some_and(|v| v == "yes" || v == "true");
    let customer = ctx.session.user_id;
    if keep && customer > 0 {
        match charge::ensure_customer(
            state,
            &provider,
            customer,
            &order.billing.email,
            &order.billing.full_name(),
        )
        .await
        {
            Ok(c) => params.customer = Some(c),
            Err(CustomerError::Provider(e)) => return failed(&provider_message(&e)),
            Err(CustomerError::Store(_)) => return failed(messages::GENERIC_ERROR),
        }
    }
    let key = IdempotencyKey::for_order(order.id.0, 0, &format!("update-{id}-{keep}"));
    match provider
        .client
        .update_payment_intent(&PaymentIntentId::new(id.clone()), &params, &key)
        .await
    {
        Ok(_) => json_value(StatusCode::OK, &json!({"result": "success"})),
        Err(e) => failed(&provider_message(&e)),
    }
}

/// wc_stripe_init_setup_intent: a setup intent for the account's customer, for the
/// page to confirm.
async fn init_setup_intent(state: &AppState, ctx: &StoreCtx, form: &Form) -> Response {
    if !nonce_ok(state, ctx, form, nonces::CREATE_SETUP_INTENT) {
        return bad_nonce();
    }
    let customer = match signed_in_customer(state, ctx).await {
        Ok(c) => c,
        Err(res) => return res,
    };
    let method = form
        .text("payment_method_type")
        .filter(|t| !t.is_empty())
        .map_or(Some(MethodType::Card), |t| MethodType::parse(&t))
        .filter(|m| m.info().is_reusable);
    let Some(method) = method else {
        return failure(StatusCode::BAD_REQUEST, messages::UNABLE_TO_SAVE);
    };
    if let Err(res) = count(
        state,
        ctx,
        Action::SaveCard,
        Some(&format!("customer-{}", ctx.session.user_id)),
    )
    .await
    {
        return res;
    }
    let Some(provider) = state.provider.clone() else {
        return failure(StatusCode::NOT_FOUND, messages::GENERIC_ERROR);
    };
    let params = CreateSetupIntent {
        customer: Some(customer),
        payment_method_types: vec![method.as_str().to_string()],
        ..Default::default()
    };
    let key = fresh_key("setup");
    match provider.client.create_setup_intent(&params, &key).await {
        Ok(si) => {
            record_setup(state, ctx, si.id.as_str(), si.status.as_str(), "").await;
            success(
                json!({"id": si.id.as_str(), "client_secret": si.client_secret.as_ref().map(|s| s.expose())}),
            )
        }
        Err(e) => provider_failure(&e),
    }
}

/// wc_stripe_create_and_confirm_setup_intent: keeps a method made in the page on the
/// account (the add-payment-method page).
async fn create_and_confirm_setup_intent(
    state: &AppState,
    ctx: &StoreCtx,
    form: &Form,
) -> Response {
    if !nonce_ok(state, ctx, form, nonces::CREATE_AND_CONFIRM_SETUP_INTENT) {
        return bad_nonce();
    }
    let customer = match signed_in_customer(state, ctx).await {
        Ok(c) => c,
        Err(res) => return res,
    };
    let Some(method_id) = form.text("wc-stripe-payment-method").filter(|m| {
        m.starts_with("pm_")
            && m.len() <= 255
            && m.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
    }) else {
        return failure(StatusCode::BAD_REQUEST, messages::INVALID_DETAILS);
    };
    let method = form
        .text("wc-stripe-payment-type")
        .filter(|t| !t.is_empty())
        .map_or(Some(MethodType::Card), |t| MethodType::parse(&t))
        .filter(|m| {
            m.info().is_reusable
                && state
                    .config
                    .checkout
                    .gateways
                    .find(m.gateway_id())
                    .is_some()
        });
    let Some(method) = method else {
        return failure(StatusCode::BAD_REQUEST, messages::UNABLE_TO_SAVE);
    };
    // Counted before the provider is asked: a card tester gets a few tries, not many.
    if let Err(res) = count(
        state,
        ctx,
        Action::SaveCard,
        Some(&format!("customer-{}", ctx.session.user_id)),
    )
    .await
    {
        return res;
    }
    let Some(provider) = state.provider.clone() else {
        return failure(StatusCode::NOT_FOUND, messages::GENERIC_ERROR);
    };
    let pm = PaymentMethodId::new(method_id.clone());
    // Cash App is confirmed in the shopper's browser, by its own sheet, with the
    // method set here; every other type is confirmed now.
    let confirmed_in_page = method == MethodType::Cashapp;
    let params = CreateSetupIntent {
        customer: Some(customer.clone()),
        payment_method_types: vec![method.as_str().to_string()],
        payment_method: confirmed_in_page.then(|| pm.clone()),
        ..Default::default()
    };
    let made = match provider
        .client
        .create_setup_intent(&params, &fresh_key("setup"))
        .await
    {
        Ok(si) => si,
        Err(e) => return provider_failure(&e),
    };
    record_setup(
        state,
        ctx,
        made.id.as_str(),
        made.status.as_str(),
        &method_id,
    )
    .await;
    let return_url = ctx.base_url.link("/my-account/payment-methods/");
    let si = if confirmed_in_page {
        made
    } else {
        let confirm = ConfirmSetupIntent {
            payment_method: Some(pm.clone()),
            // Methods that leave for the bank come back to the account's methods.
            return_url: (method.info().flow == Flow::Redirect).then(|| return_url.clone()),
            mandate: super::charge::needs_mandate(method).then(|| OnlineMandate {
                ip_address: ctx
                    .client
                    .map_or_else(|| "0.0.0.0".to_string(), |ip| ip.to_string()),
                user_agent: format!("Ferroshop; {}", ctx.base_url),
            }),
            ..Default::default()
        };
        match provider
            .client
            .confirm_setup_intent(&made.id, &confirm, &fresh_key("setup-confirm"))
            .await
        {
            Ok(si) => si,
            Err(e) => return provider_failure(&e),
        }
    };
    let status = si.status.as_str().to_string();
    if status == "succeeded" {
        // The provider attaches a confirmed setup's method to the customer; attaching
        // again is harmless and makes sure of it.
        let _ = provider
            .client
            .attach_payment_method(&pm, &customer, &fresh_key("attach"))
            .await;
        if let Some(keep) = keep_method(&provider, ctx.session.user_id, &pm, ctx.now).await {
            let saved = async {
                let mut tx = state.db.begin_write().await?;
                store::payments::save_method(&mut tx, &keep.method).await?;
                tx.commit().await?;
                Ok::<_, store::StoreError>(())
            }
            .await;
            if saved.is_err() {
                return failure(StatusCode::INTERNAL_SERVER_ERROR, messages::UNABLE_TO_SAVE);
            }
        }
    }
    success(json!({
        "status": status,
        "next_action": si.next_action.as_ref().map(|n| n.0.clone()),
        "payment_type": method.as_str(),
        "return_url": return_url,
        "client_secret": si.client_secret.as_ref().map(|s| s.expose()),
        "id": si.id.as_str(),
    }))
}

/// wc_stripe_save_appearance: the element's look, computed by the storefront from the
/// shop's theme, kept for the next pages. The first one kept for a theme stays (a
/// visitor cannot restyle everyone's payment form); it must be a plain object.
async fn save_appearance(state: &AppState, ctx: &StoreCtx, form: &Form) -> Response {
    if !nonce_ok(state, ctx, form, nonces::SAVE_APPEARANCE) {
        return bad_nonce();
    }
    let Some(text) = form
        .text("appearance")
        .filter(|t| t.len() <= MAX_APPEARANCE_BYTES)
    else {
        return failure(
            StatusCode::BAD_REQUEST,
            "The appearance is missing or too large.",
        );
    };
    let Ok(Value::Object(appearance)) = serde_json::from_str::<Value>(&text) else {
        return failure(
            StatusCode::BAD_REQUEST,
            "The appearance is not a JSON object.",
        );
    };
    if !appearance_is_plain(&Value::Object(appearance.clone()), 0) {
        return failure(
            StatusCode::BAD_REQUEST,
            "The appearance holds something other than styles.",
        );
    }
    match store::settings::get(&state.db, APPEARANCE_SETTING).await {
        Ok(Some(_)) => success(json!({})),
        Ok(None) => match store::settings::set(
            &state.db,
            APPEARANCE_SETTING,
            &Value::Object(appearance).to_string(),
        )
        .await
        {
            Ok(()) => success(json!({})),
            Err(_) => failure(StatusCode::INTERNAL_SERVER_ERROR, messages::GENERIC_ERROR),
        },
        Err(_) => failure(StatusCode::INTERNAL_SERVER_ERROR, messages::GENERIC_ERROR),
    }
}

/// Objects of short strings and numbers, three levels deep at most: what the
/// provider's appearance API takes.
fn appearance_is_plain(v: &Value, depth: usize) -> bool {
    match v {
        Value::String(s) => s.len() <= 200 && !s.contains('<'),
        Value::Number(_) | Value::Bool(_) => true,
        Value::Object(m) if depth < 3 => {
            m.len() <= 64
                && m.iter()
                    .all(|(k, v)| k.len() <= 64 && appearance_is_plain(v, depth + 1))
        }
        _ => false,
    }
}

async fn signed_in_customer(state: &AppState, ctx: &StoreCtx) -> Result<CustomerId, Response> {
    if ctx.session.user_id <= 0 {
        return Err(failure(
            StatusCode::UNAUTHORIZED,
            "You must be logged in to add a payment method.",
        ));
    }
    let provider = state
        .provider
        .clone()
        .ok_or_else(|| failure(StatusCode::NOT_FOUND, messages::GENERIC_ERROR))?;
    let account = store::customers::find_customer(
        &state.db,
        rules::customers::CustomerId(ctx.session.user_id),
    )
    .await
    .map_err(|_| failure(StatusCode::INTERNAL_SERVER_ERROR, messages::GENERIC_ERROR))?
    .ok_or_else(|| {
        failure(
            StatusCode::UNAUTHORIZED,
            "You must be logged in to add a payment method.",
        )
    })?;
    let name = format!("{} {}", account.first_name, account.last_name);
    charge::ensure_customer(state, &provider, ctx.session.user_id, &account.email, &name)
        .await
        .map_err(|e| match e {
            CustomerError::Provider(e) => provider_failure(&e),
            CustomerError::Store(_) => {
                failure(StatusCode::INTERNAL_SERVER_ERROR, messages::GENERIC_ERROR)
            }
        })
}

async fn record_setup(state: &AppState, ctx: &StoreCtx, id: &str, status: &str, method: &str) {
    let record = IntentRecord {
        intent_id: id.to_string(),
        order_id: 0,
        customer_id: Some(ctx.session.user_id),
        kind: IntentKind::Setup,
        attempt: 0,
        status: status.to_string(),
        amount: 0,
        currency: state.config.currency.code.clone(),
        payment_method_id: method.to_string(),
        save_method: true,
        created_at: ctx.now,
    };
    if let Err(e) = store::payments::record_intent(&state.db, &record).await {
        tracing::error!(error = %e, "could not record a setup intent");
    }
}

/// A key for a request no retry of the shopper's repeats (each setup is new).
fn fresh_key(what: &str) -> IdempotencyKey {
    let n: u64 = rand::random();
    IdempotencyKey::new(format!("ferroshop-{what}-{n:016x}")).expect("a valid key")
}

fn provider_message(e: &payments::Error) -> String {
    match e.provider_error() {
        Some(p) => messages::for_error(
            p.code.as_deref(),
            p.decline_code.as_deref(),
            p.message.as_deref(),
        ),
        None => messages::UNREACHABLE.to_string(),
    }
}

fn provider_failure(e: &payments::Error) -> Response {
    let status = match e.provider_error() {
        Some(p) if p.status < 500 => StatusCode::PAYMENT_REQUIRED,
        _ => StatusCode::BAD_GATEWAY,
    };
    failure(status, &provider_message(e))
}
