//! The provider's webhooks, at `/?wc-api=wc_stripe` as in the original shop (the
//! address a shop moving over already gave the provider). A delivery is taken only with
//! a valid `Stripe-Signature` (HMAC-SHA256 of `t.payload` with the endpoint's secret,
//! within five minutes); every event id is noted in the transaction that acts on it,
//! so an event delivered again, or by two instances at once, is acted on once.

use axum::body::Bytes;
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use serde_json::{json, Value};

use payments::webhook::{self, DEFAULT_TOLERANCE_SECS};
use payments::Event;
use rules::orders::model::OrderId;
use rules::payments::intents::IntentStatus;
use store::payments::IntentKind;
use store::StoreError;

use super::charge::{facts_of, keep_method, order_of_intent, order_of_record};
use super::settle;
use crate::http::json::json_value;
use crate::state::AppState;

/// The query naming the webhook endpoint.
pub fn is_webhook(query: Option<&str>) -> bool {
    query.is_some_and(|q| {
        serde_urlencoded::from_str::<Vec<(String, String)>>(q)
            .is_ok_and(|pairs| pairs.iter().any(|(k, v)| k == "wc-api" && v == "wc_stripe"))
    })
}

fn refuse(status: StatusCode, message: &str) -> Response {
    json_value(status, &json!({"error": {"message": message}}))
}

/// Takes one delivery.
pub async fn receive(state: &AppState, headers: &HeaderMap, body: Bytes) -> Response {
    let Some(provider) = state.provider.clone() else {
        return refuse(
            StatusCode::NOT_FOUND,
            "Card payments are not set up on this shop.",
        );
    };
    let Some(secret) = provider.webhook_secret.as_ref() else {
        tracing::warn!("a webhook arrived but no webhook secret is configured (FERROSHOP_STRIPE_WEBHOOK_SECRET)");
        return refuse(
            StatusCode::BAD_REQUEST,
            "The webhook secret is not configured.",
        );
    };
    let signature = headers
        .get("stripe-signature")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let now = rules::clock::now();
    let event = match webhook::verify(&body, signature, secret, now, DEFAULT_TOLERANCE_SECS) {
        Ok(event) => event,
        Err(e) => {
            tracing::info!(error = %e, "a webhook delivery was refused");
            return refuse(
                StatusCode::BAD_REQUEST,
                "The signature could not be verified.",
            );
        }
    };
    match process(state, &event, now).await {
        Ok(()) => json_value(StatusCode::OK, &json!({"received": true})),
        Err(e) => {
            // The provider delivers again later; nothing of this attempt remains.
            tracing::error!(error = %e, event = event.id.as_str(), "a webhook event could not be processed");
            refuse(
                StatusCode::INTERNAL_SERVER_ERROR,
                "The event could not be processed.",
            )
        }
    }
}

/// Acts on one verified event, once.
pub async fn process(state: &AppState, event: &Event, now: i64) -> Result<(), StoreError> {
    let object_id = event
        .data
        .object
        .get("id")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    let mail = state
        .config
        .order_mails(state.address.default_base().as_str());
    match event.event_type.as_str() {
        "payment_intent.succeeded"
        | "payment_intent.processing"
        | "payment_intent.payment_failed"
        | "payment_intent.requires_action"
        | "payment_intent.canceled"
        | "payment_intent.amount_capturable_updated" => {
            let Ok(intent) = event.payment_intent() else {
                return note_only(state, event, &object_id, now).await;
            };
            let Some(mut facts) = facts_of(&intent) else {
                return note_only(state, event, &object_id, now).await;
            };
            if event.event_type == "payment_intent.payment_failed" && facts.failure.is_none() {
                facts.failure = Some(rules::payments::messages::PAYMENT_FAILED.to_string());
            }
            let record = store::payments::find_intent(&state.db, intent.id.as_str()).await?;
            let Some((order_id, latest)) = order_for(state, &intent, record.as_ref()).await? else {
                return note_only(state, event, &object_id, now).await;
            };
            // A method the shopper asked to keep, read before the transaction.
            let keep = match (&record, state.provider.as_ref(), intent.payment_method_id()) {
                (Some(r), Some(p), Some(pm))
                    if r.save_method && r.customer_id.is_some() && facts.status.is_paid() =>
                {
                    keep_method(p, r.customer_id.unwrap_or_default(), pm, now).await
                }
                _ => None,
            };
            let Some(mut tx) = first_delivery(state, event, &object_id, now).await? else {
                return Ok(());
            };
            let applied =
                settle::apply_in(&mut tx, &state.db, order_id, &facts, latest, &mail, now).await?;
            if let Some(keep) = keep {
                store::payments::save_method(&mut tx, &keep.method).await?;
            }
            tx.commit().await?;
            if applied.is_some_and(|(_, changed)| changed) {
                mail::wake();
            }
            Ok(())
        }
        "charge.refunded" => {
            let Some((order_id, _)) = order_of_charge(state, &event.data.object).await? else {
                return note_only(state, event, &object_id, now).await;
            };
            let refunds = event.data.object["refunds"]["data"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            let Some(mut tx) = first_delivery(state, event, &object_id, now).await? else {
                return Ok(());
            };
            let mut changed = false;
            for refund in refunds {
                let (Some(id), Some(amount)) = (refund["id"].as_str(), refund["amount"].as_i64())
                else {
                    continue;
                };
                if refund["status"]
                    .as_str()
                    .is_some_and(|s| s == "failed" || s == "canceled")
                {
                    continue;
                }
                let reason = refund["reason"].as_str().unwrap_or("");
                changed |= super::staff::record_refund_in(
                    &mut tx,
                    &super::staff::Desk::of(state),
                    order_id,
                    id,
                    amount,
                    reason,
                    "Stripe",
                    &mail,
                    now,
                )
                .await?;
            }
            tx.commit().await?;
            if changed {
                mail::wake();
            }
            Ok(())
        }
        "charge.dispute.created" => {
            let charge_id = event.data.object["charge"].as_str().unwrap_or("");
            let intent_id = event.data.object["payment_intent"].as_str().unwrap_or("");
            let order = order_of_intent(state, intent_id).await?.map(|(id, _)| id);
            let Some(mut tx) = first_delivery(state, event, &object_id, now).await? else {
                return Ok(());
            };
            if let Some(order) = order {
                let reason = event.data.object["reason"].as_str().unwrap_or("general");
                store::orders::add_note(
                    &mut tx,
                    order,
                    &format!(
                        "A dispute was created for this order (charge {charge_id}, reason: {reason}). Response is needed in the Stripe dashboard."
                    ),
                    false,
                    rules::orders::actor::Actor::system().as_str(),
                    now,
                )
                .await?;
            }
            tx.commit().await?;
            Ok(())
        }
        "setup_intent.succeeded" => {
            let Ok(intent) = event.setup_intent() else {
                return note_only(state, event, &object_id, now).await;
            };
            let record = store::payments::find_intent(&state.db, intent.id.as_str()).await?;
            let keep = match (
                &record,
                state.provider.as_ref(),
                intent.payment_method.as_ref(),
            ) {
                (Some(r), Some(p), Some(pm))
                    if r.kind == IntentKind::Setup && r.customer_id.is_some() =>
                {
                    keep_method(p, r.customer_id.unwrap_or_default(), pm.id(), now).await
                }
                _ => None,
            };
            let Some(mut tx) = first_delivery(state, event, &object_id, now).await? else {
                return Ok(());
            };
            store::payments::set_intent_status(
                &mut tx,
                intent.id.as_str(),
                IntentStatus::Succeeded.as_str(),
                now,
            )
            .await?;
            if let Some(keep) = keep {
                store::payments::save_method(&mut tx, &keep.method).await?;
            }
            tx.commit().await?;
            Ok(())
        }
        _ => note_only(state, event, &object_id, now).await,
    }
}

/// The transaction that acts on an event, with the event noted in it; None when it
/// was noted before (a delivery again: nothing more to do).
async fn first_delivery(
    state: &AppState,
    event: &Event,
    object_id: &str,
    now: i64,
) -> Result<Option<store::orders::Tx<'static>>, StoreError> {
    let mut tx = state.db.begin_write().await?;
    let id = event.id.as_str();
    if store::payments::record_event(&mut tx, id, &event.event_type, object_id, now).await? {
        Ok(Some(tx))
    } else {
        tx.rollback().await?;
        Ok(None)
    }
}

/// An event the shop does not act on (or about an object it did not make): noted, so
/// its deliveries can be told apart from new ones.
async fn note_only(
    state: &AppState,
    event: &Event,
    object_id: &str,
    now: i64,
) -> Result<(), StoreError> {
    if let Some(tx) = first_delivery(state, event, object_id, now).await? {
        tx.commit().await?;
    }
    Ok(())
}

/// The order an intent pays: by the shop's record, else by the order id the shop put
/// in the intent's metadata (the event is signed, so the metadata is the shop's own).
async fn order_for(
    state: &AppState,
    intent: &payments::PaymentIntent,
    record: Option<&store::payments::IntentRecord>,
) -> Result<Option<(OrderId, bool)>, StoreError> {
    if let Some(found) = match record {
        Some(r) => order_of_record(state, r).await?,
        None => None,
    } {
        return Ok(Some(found));
    }
    let Some(id) = intent
        .metadata
        .get("order_id")
        .and_then(|v| v.parse::<i64>().ok())
        .filter(|&i| i > 0)
    else {
        return Ok(None);
    };
    // An intent the shop did not record (its answer was lost) is the latest attempt
    // only if no later one was recorded.
    let latest = store::payments::latest_order_intent(&state.db, OrderId(id))
        .await?
        .is_none();
    Ok(Some((OrderId(id), latest)))
}

async fn order_of_charge(
    state: &AppState,
    charge: &Value,
) -> Result<Option<(OrderId, bool)>, StoreError> {
    match charge["payment_intent"].as_str() {
        Some(intent) => order_of_intent(state, intent).await,
        None => Ok(None),
    }
}
