//! Refunds of a succeeded intent's charge, whole or in part: `succeeded` at once, or
//! `pending` for a bank debit. Each sends `refund.created` and `charge.refunded` (the
//! charge with its refunds).

use serde_json::Map;

use crate::error::{Answer, ApiError};
use crate::intents::one_of;
use crate::methods::apply_metadata;
use crate::objects::{method_type, new_id, now, Refund};
use crate::state::{Ctx, State};

/// `POST /v1/refunds`: `payment_intent` (or `charge`), `amount`, `reason`, `metadata`.
pub(crate) fn create(state: &mut State, ctx: &Ctx) -> Answer {
    ctx.require_secret()?;
    let params = ctx.params;
    let charge_id = match (params.str(&["payment_intent"]), params.str(&["charge"])) {
        (Some(intent_id), _) => {
            let intent = crate::intents::find(state, intent_id)?;
            intent.latest_charge.clone().filter(|charge| {
                state
                    .charges
                    .get(charge)
                    .is_some_and(|charge| charge.captured && charge.status == "succeeded")
            })
            .ok_or_else(|| {
                ApiError::invalid_param(
                    "payment_intent",
                    format!(
                        "This PaymentIntent ({intent_id}) does not have a successful charge to refund."
                    ),
                )
            })?
        }
        (None, Some(charge_id)) => {
            if !state.charges.contains_key(charge_id) {
                return Err(ApiError::no_such("charge", charge_id, "charge"));
            }
            charge_id.to_owned()
        }
        (None, None) => return Err(ApiError::missing("payment_intent")),
    };
    let charge = &state.charges[&charge_id];
    let refundable = charge.refundable();
    let amount = params.int("amount")?.unwrap_or(refundable);
    if amount < 1 {
        return Err(ApiError::invalid_param(
            "amount",
            "This value must be greater than or equal to 1.",
        )
        .code("parameter_invalid_integer"));
    }
    if amount > refundable {
        return Err(ApiError::invalid_param(
            "amount",
            format!("Refund amount ({amount}) is greater than the unrefunded amount on the charge ({refundable})."),
        )
        .code("amount_too_large"));
    }
    let reason = one_of(
        params,
        "reason",
        &["duplicate", "fraudulent", "requested_by_customer"],
    )?;
    let mut metadata = Map::new();
    apply_metadata(&mut metadata, params)?;
    let pending = method_type(charge.method_type).is_some_and(|kind| kind.is_bank_debit());
    let refund = Refund {
        id: new_id("re"),
        amount,
        charge: charge_id.clone(),
        currency: charge.currency.clone(),
        payment_intent: charge.payment_intent.clone(),
        reason: reason.map(str::to_owned),
        status: if pending { "pending" } else { "succeeded" },
        metadata,
        created: now(),
    };
    let answer = refund.to_json();
    let charge = state.charges.get_mut(&charge_id).expect("found above");
    charge.amount_refunded += amount;
    charge.refunds.push(refund.id.clone());
    state.refunds.insert(refund.id.clone(), refund);
    state.emit("refund.created", answer.clone());
    let charge = state.charges[&charge_id].to_json(state);
    state.emit("charge.refunded", charge);
    Ok(answer)
}

/// `GET /v1/refunds/{id}`.
pub(crate) fn retrieve(state: &mut State, ctx: &Ctx, id: &str) -> Answer {
    ctx.require_secret()?;
    state
        .refunds
        .get(id)
        .map(Refund::to_json)
        .ok_or_else(|| ApiError::no_such("refund", id, "id"))
}
