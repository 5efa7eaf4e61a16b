//! SetupIntents: saving a reusable method for later payments. Bank debits succeed
//! under a mandate; redirect types and Cash App need the shopper's action first (the
//! authorisation page); an ACH account ending `0000` needs microdeposits.

use axum::http::StatusCode;
use serde_json::{json, Map, Value};

use crate::actions::{self, Confirming, Step};
use crate::error::{Answer, ApiError};
use crate::form::Params;
use crate::intents::{
    customer, expand, merge_options, one_of, payment_method_types, resolve_method, Failure,
};
use crate::methods::{self, apply_metadata};
use crate::objects::{new_client_secret, new_id, now, Expand, PaymentMethod, SetupIntent, Status};
use crate::state::{Ctx, State};

/// `POST /v1/setup_intents`.
pub(crate) fn create(state: &mut State, ctx: &Ctx) -> Answer {
    ctx.require_secret()?;
    let params = ctx.params;
    let customer = customer(state, ctx)?;
    let method = match params.str(&["payment_method"]) {
        Some(id) => Some(methods::find(state, ctx, id, "payment_method")?.clone()),
        None => None,
    };
    let types = payment_method_types(params, method.as_ref(), true)?;
    let usage = one_of(params, "usage", &["on_session", "off_session"])?.unwrap_or("off_session");
    let confirm = params.bool("confirm")?.unwrap_or(false);
    let mut metadata = Map::new();
    apply_metadata(&mut metadata, params)?;

    let id = new_id("seti");
    let intent = SetupIntent {
        client_secret: new_client_secret(&id),
        id: id.clone(),
        status: if method.is_some() {
            Status::RequiresConfirmation
        } else {
            Status::RequiresPaymentMethod
        },
        customer,
        description: params.string(&["description"]),
        payment_method: method.map(|method| method.id),
        payment_method_types: types,
        options: params
            .object("payment_method_options")
            .cloned()
            .unwrap_or_default(),
        mandate_data: params.value(&["mandate_data"]).cloned(),
        mandate: None,
        usage: usage.to_owned(),
        return_url: params.string(&["return_url"]),
        metadata,
        next_action: None,
        last_setup_error: None,
        cancellation_reason: None,
        created: now(),
    };
    let plan = if confirm {
        Some(plan(state, ctx, &intent, params)?)
    } else {
        None
    };
    state.setup_intents.insert(id.clone(), intent);
    emit(state, &id, "setup_intent.created");
    match plan {
        Some(plan) => apply(state, &id, plan, &expand(params)),
        None => Ok(to_json(state, &id, &expand(params))),
    }
}

/// `GET /v1/setup_intents/{id}`: the secret key, or the publishable key and the
/// client secret.
pub(crate) fn retrieve(state: &mut State, ctx: &Ctx, id: &str) -> Answer {
    let intent = find(state, id)?;
    ctx.caller
        .require_secret_or_client_secret(ctx.params, &intent.client_secret)?;
    Ok(to_json(state, id, &expand(ctx.params)))
}

/// `POST /v1/setup_intents/{id}/confirm`.
pub(crate) fn confirm(state: &mut State, ctx: &Ctx, id: &str) -> Answer {
    let intent = find(state, id)?.clone();
    ctx.caller
        .require_secret_or_client_secret(ctx.params, &intent.client_secret)?;
    let plan = plan(state, ctx, &intent, ctx.params)?;
    apply(state, id, plan, &expand(ctx.params))
}

/// `POST /v1/setup_intents/{id}/cancel`.
pub(crate) fn cancel(state: &mut State, ctx: &Ctx, id: &str) -> Answer {
    ctx.require_secret()?;
    let status = find(state, id)?.status;
    if !matches!(
        status,
        Status::RequiresPaymentMethod | Status::RequiresConfirmation | Status::RequiresAction
    ) {
        return Err(ApiError::unexpected_state(
            "setup_intent_unexpected_state",
            format!(
                "You cannot cancel this SetupIntent because it has a status of {}.",
                status.as_str()
            ),
        ));
    }
    let reason = one_of(
        ctx.params,
        "cancellation_reason",
        &["abandoned", "duplicate", "requested_by_customer"],
    )?;
    let intent = state.setup_intents.get_mut(id).expect("found above");
    intent.status = Status::Canceled;
    intent.cancellation_reason = reason.map(str::to_owned);
    intent.next_action = None;
    emit(state, id, "setup_intent.canceled");
    Ok(to_json(state, id, &expand(ctx.params)))
}

pub(crate) fn find<'s>(state: &'s State, id: &str) -> Result<&'s SetupIntent, ApiError> {
    state
        .setup_intents
        .get(id)
        .ok_or_else(|| ApiError::no_such("setup_intent", id, "intent"))
}

pub(crate) fn to_json(state: &State, id: &str, expand: &Expand) -> Value {
    state.setup_intents[id].to_json(state, expand)
}

struct Plan {
    method: PaymentMethod,
    new_method: bool,
    return_url: Option<String>,
    options: Map<String, Value>,
    mandate_data: Option<Value>,
    step: Step,
}

fn plan(
    state: &mut State,
    ctx: &Ctx,
    intent: &SetupIntent,
    params: &Params,
) -> Result<Plan, ApiError> {
    if !matches!(
        intent.status,
        Status::RequiresPaymentMethod | Status::RequiresConfirmation | Status::RequiresAction
    ) {
        return Err(ApiError::unexpected_state(
            "setup_intent_unexpected_state",
            format!(
                "You cannot confirm this SetupIntent because it has a status of {}.",
                intent.status.as_str()
            ),
        )
        .with("setup_intent", intent.to_json(state, &Expand::default())));
    }
    let (method, new_method) = resolve_method(
        state,
        ctx,
        params,
        intent.payment_method.as_deref(),
        "setup_intent_unexpected_state",
    )?;
    crate::intents::check_method_type(&method, &intent.payment_method_types)?;
    let return_url = params
        .string(&["return_url"])
        .or_else(|| intent.return_url.clone());
    let mut options = intent.options.clone();
    merge_options(&mut options, params.object("payment_method_options"));
    let mandate_data = params
        .value(&["mandate_data"])
        .cloned()
        .or_else(|| intent.mandate_data.clone());
    let step = actions::for_setup(&Confirming {
        intent_id: &intent.id,
        method: &method,
        return_url: return_url.as_deref(),
        options: &options,
        mandate_data: mandate_data.as_ref(),
        public_base: ctx.public_base,
        now: now(),
    })?;
    Ok(Plan {
        method,
        new_method,
        return_url,
        options,
        mandate_data,
        step,
    })
}

fn apply(state: &mut State, id: &str, plan: Plan, expand: &Expand) -> Answer {
    let Plan {
        method,
        new_method,
        return_url,
        options,
        mandate_data,
        step,
    } = plan;
    let method_id = method.id.clone();
    if new_method {
        state.payment_methods.insert(method_id.clone(), method);
    }
    let intent = state
        .setup_intents
        .get_mut(id)
        .expect("planned for a kept intent");
    intent.payment_method = Some(method_id);
    intent.return_url = return_url;
    intent.options = options;
    intent.mandate_data = mandate_data;
    intent.last_setup_error = None;
    intent.next_action = None;
    intent.status = Status::RequiresConfirmation;
    match step {
        Step::Succeed => succeed(state, id),
        Step::Process => process(state, id),
        Step::Action(action) => {
            let intent = state.setup_intents.get_mut(id).expect("a kept intent");
            intent.status = Status::RequiresAction;
            intent.next_action = Some(action);
            emit(state, id, "setup_intent.requires_action");
        }
        Step::Decline => {
            fail(state, id, &Failure::card_declined());
            return Err(ApiError::new(
                StatusCode::PAYMENT_REQUIRED,
                "card_error",
                "Your card was declined.",
            )
            .code("card_declined")
            .with("decline_code", json!("generic_decline"))
            .with("setup_intent", to_json(state, id, &Expand::default())));
        }
    }
    Ok(to_json(state, id, expand))
}

/// `succeeded`: a debit gets its mandate, and the method is attached to the intent's
/// customer; `setup_intent.succeeded`.
pub(crate) fn succeed(state: &mut State, id: &str) {
    let intent = &state.setup_intents[id];
    let (method_id, customer) = (intent.payment_method.clone(), intent.customer.clone());
    let mut mandate = None;
    if let Some(method) = method_id
        .as_ref()
        .and_then(|method| state.payment_methods.get_mut(method))
    {
        method.needs_microdeposits = false;
        if method.kind.is_bank_debit() {
            mandate = Some(
                method
                    .mandate
                    .get_or_insert_with(|| new_id("mandate"))
                    .clone(),
            );
        }
    }
    let intent = state.setup_intents.get_mut(id).expect("a kept intent");
    intent.status = Status::Succeeded;
    intent.next_action = None;
    intent.mandate = mandate;
    emit(state, id, "setup_intent.succeeded");
    if let (Some(method), Some(customer)) = (method_id, customer) {
        methods::attach_to(state, &method, &customer);
    }
}

/// `processing` (no event: the provider sends none for it).
pub(crate) fn process(state: &mut State, id: &str) {
    let intent = state.setup_intents.get_mut(id).expect("a kept intent");
    intent.status = Status::Processing;
    intent.next_action = None;
}

/// `requires_payment_method` with `last_setup_error`; `setup_intent.setup_failed`.
pub(crate) fn fail(state: &mut State, id: &str, failure: &Failure) {
    let intent = state.setup_intents.get_mut(id).expect("a kept intent");
    let method_id = intent.payment_method.take();
    intent.status = Status::RequiresPaymentMethod;
    intent.next_action = None;
    let method = method_id
        .as_ref()
        .and_then(|id| state.payment_methods.get(id))
        .map(PaymentMethod::to_json);
    state
        .setup_intents
        .get_mut(id)
        .expect("a kept intent")
        .last_setup_error = Some(failure.to_json(method, None));
    emit(state, id, "setup_intent.setup_failed");
}

fn emit(state: &mut State, id: &str, event_type: &str) {
    let object = to_json(state, id, &Expand::default());
    state.emit(event_type, object);
}
