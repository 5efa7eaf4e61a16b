//! PaymentIntents: created and confirmed by the shop's server (or confirmed by the
//! shopper's browser with the client secret), then moved on by the shopper's side
//! (the authorisation page) or by a test's control call. The moves themselves
//! (`succeed`, `process`, `fail`, …) live here too, each sending its event.

use axum::http::StatusCode;
use serde_json::{json, Map, Value};

use crate::actions::{self, Confirming, Step};
use crate::error::{Answer, ApiError};
use crate::form::Params;
use crate::methods::{self, apply_metadata};
use crate::objects::{
    method_type, new_client_secret, new_id, now, Charge, Expand, PaymentIntent, PaymentMethod,
    Status,
};
use crate::state::{Ctx, State};

/// `POST /v1/payment_intents`.
pub(crate) fn create(state: &mut State, ctx: &Ctx) -> Answer {
    ctx.require_secret()?;
    let params = ctx.params;
    let amount = amount(params)?;
    let currency = currency(params)?;
    let customer = customer(state, ctx)?;
    let method = match params.str(&["payment_method"]) {
        Some(id) => Some(methods::find(state, ctx, id, "payment_method")?.clone()),
        None => None,
    };
    let types = payment_method_types(params, method.as_ref(), false)?;
    let capture_method = one_of(
        params,
        "capture_method",
        &["automatic", "automatic_async", "manual"],
    )?
    .unwrap_or("automatic_async");
    let setup_future_usage = one_of(params, "setup_future_usage", &["on_session", "off_session"])?;
    let confirm = params.bool("confirm")?.unwrap_or(false);
    let mut metadata = Map::new();
    apply_metadata(&mut metadata, params)?;

    let id = new_id("pi");
    let intent = PaymentIntent {
        client_secret: new_client_secret(&id),
        id: id.clone(),
        amount,
        amount_capturable: 0,
        amount_received: 0,
        currency,
        status: if method.is_some() {
            Status::RequiresConfirmation
        } else {
            Status::RequiresPaymentMethod
        },
        capture_method: capture_method.to_owned(),
        customer,
        description: params.string(&["description"]),
        receipt_email: params.string(&["receipt_email"]),
        payment_method: method.map(|method| method.id),
        payment_method_types: types,
        options: params
            .object("payment_method_options")
            .cloned()
            .unwrap_or_default(),
        mandate_data: params.value(&["mandate_data"]).cloned(),
        setup_future_usage: setup_future_usage.map(str::to_owned),
        return_url: params.string(&["return_url"]),
        metadata,
        next_action: None,
        last_payment_error: None,
        latest_charge: None,
        canceled_at: None,
        cancellation_reason: None,
        created: now(),
    };
    // A confirmation that is refused makes nothing, so it is checked first.
    let plan = if confirm {
        Some(plan(state, ctx, &intent, params)?)
    } else {
        None
    };
    state.payment_intents.insert(id.clone(), intent);
    emit(state, &id, "payment_intent.created");
    match plan {
        Some(plan) => apply(state, &id, plan, &expand(params)),
        None => Ok(to_json(state, &id, &expand(params))),
    }
}

/// `GET /v1/payment_intents/{id}`: the secret key, or the publishable key and the
/// client secret.
pub(crate) fn retrieve(state: &mut State, ctx: &Ctx, id: &str) -> Answer {
    let intent = find(state, id)?;
    ctx.caller
        .require_secret_or_client_secret(ctx.params, &intent.client_secret)?;
    Ok(to_json(state, id, &expand(ctx.params)))
}

/// `POST /v1/payment_intents/{id}`: only what is sent changes.
pub(crate) fn update(state: &mut State, ctx: &Ctx, id: &str) -> Answer {
    ctx.require_secret()?;
    let params = ctx.params;
    let intent = find(state, id)?.clone();
    if !matches!(
        intent.status,
        Status::RequiresPaymentMethod | Status::RequiresConfirmation | Status::RequiresAction
    ) {
        return Err(ApiError::unexpected_state(
            "payment_intent_unexpected_state",
            format!(
                "You cannot update this PaymentIntent because it has a status of {}.",
                intent.status.as_str()
            ),
        ));
    }
    let amount = match params.str(&["amount"]) {
        Some(_) => Some(amount(params)?),
        None => None,
    };
    let currency = match params.str(&["currency"]) {
        Some(_) => Some(currency(params)?),
        None => None,
    };
    let customer = customer(state, ctx)?;
    let method = match params.str(&["payment_method"]) {
        Some(id) => Some(methods::find(state, ctx, id, "payment_method")?.clone()),
        None => None,
    };
    let types = match params.list("payment_method_types") {
        types if types.is_empty() => intent.payment_method_types.clone(),
        types => {
            check_types(&types, false)?;
            types
        }
    };
    let kept_method = match &method {
        Some(method) => Some(method.clone()),
        None => intent
            .payment_method
            .as_ref()
            .and_then(|id| state.payment_methods.get(id).cloned()),
    };
    if let Some(method) = &kept_method {
        check_method_type(method, &types)?;
    }
    let capture_method = one_of(
        params,
        "capture_method",
        &["automatic", "automatic_async", "manual"],
    )?;
    let setup_future_usage = one_of(params, "setup_future_usage", &["on_session", "off_session"])?;
    let mut metadata = intent.metadata.clone();
    apply_metadata(&mut metadata, params)?;

    let intent = state.payment_intents.get_mut(id).expect("found above");
    let restart = method.is_some() || amount.is_some() || currency.is_some();
    intent.amount = amount.unwrap_or(intent.amount);
    intent.currency = currency.unwrap_or_else(|| intent.currency.clone());
    intent.customer = customer.or_else(|| intent.customer.clone());
    intent.payment_method_types = types;
    intent.metadata = metadata;
    if let Some(method) = method {
        intent.payment_method = Some(method.id);
    }
    if let Some(capture_method) = capture_method {
        intent.capture_method = capture_method.to_owned();
    }
    if let Some(setup_future_usage) = setup_future_usage {
        intent.setup_future_usage = Some(setup_future_usage.to_owned());
    }
    if let Some(description) = params.string(&["description"]) {
        intent.description = Some(description);
    }
    if let Some(receipt_email) = params.string(&["receipt_email"]) {
        intent.receipt_email = Some(receipt_email);
    }
    if restart && intent.payment_method.is_some() {
        intent.status = Status::RequiresConfirmation;
        intent.next_action = None;
    }
    Ok(to_json(state, id, &expand(params)))
}

/// `POST /v1/payment_intents/{id}/confirm`: the publishable key may confirm with the
/// client secret.
pub(crate) fn confirm(state: &mut State, ctx: &Ctx, id: &str) -> Answer {
    let intent = find(state, id)?.clone();
    ctx.caller
        .require_secret_or_client_secret(ctx.params, &intent.client_secret)?;
    let plan = plan(state, ctx, &intent, ctx.params)?;
    apply(state, id, plan, &expand(ctx.params))
}

/// `POST /v1/payment_intents/{id}/cancel`.
pub(crate) fn cancel(state: &mut State, ctx: &Ctx, id: &str) -> Answer {
    ctx.require_secret()?;
    let status = find(state, id)?.status;
    if matches!(status, Status::Succeeded | Status::Canceled) {
        return Err(ApiError::unexpected_state(
            "payment_intent_unexpected_state",
            format!(
                "You cannot cancel this PaymentIntent because it has a status of {}. Only a PaymentIntent \
                 with one of the following statuses may be canceled: requires_payment_method, \
                 requires_capture, requires_confirmation, requires_action, processing.",
                status.as_str()
            ),
        )
        .with("payment_intent", to_json(state, id, &Expand::default())));
    }
    let reason = one_of(
        ctx.params,
        "cancellation_reason",
        &[
            "duplicate",
            "fraudulent",
            "requested_by_customer",
            "abandoned",
        ],
    )?;
    let intent = state.payment_intents.get_mut(id).expect("found above");
    intent.status = Status::Canceled;
    intent.canceled_at = Some(now());
    intent.cancellation_reason = reason.map(str::to_owned);
    intent.next_action = None;
    intent.amount_capturable = 0;
    emit(state, id, "payment_intent.canceled");
    Ok(to_json(state, id, &expand(ctx.params)))
}

/// `POST /v1/payment_intents/{id}/capture`.
pub(crate) fn capture(state: &mut State, ctx: &Ctx, id: &str) -> Answer {
    ctx.require_secret()?;
    let intent = find(state, id)?;
    if intent.status != Status::RequiresCapture {
        return Err(ApiError::unexpected_state(
            "payment_intent_unexpected_state",
            format!(
                "This PaymentIntent could not be captured because it has a status of {}. Only a \
                 PaymentIntent with status requires_capture can be captured.",
                intent.status.as_str()
            ),
        ));
    }
    let capturable = intent.amount_capturable;
    let amount = ctx.params.int("amount_to_capture")?.unwrap_or(capturable);
    if amount < 1 || amount > capturable {
        return Err(ApiError::invalid_param(
            "amount_to_capture",
            format!("The amount to capture must be between 1 and the {capturable} authorized."),
        )
        .code("amount_too_large"));
    }
    capture_amount(state, id, amount);
    Ok(to_json(state, id, &expand(ctx.params)))
}

/// An intent kept here, or the provider's 404.
pub(crate) fn find<'s>(state: &'s State, id: &str) -> Result<&'s PaymentIntent, ApiError> {
    state
        .payment_intents
        .get(id)
        .ok_or_else(|| ApiError::no_such("payment_intent", id, "intent"))
}

pub(crate) fn to_json(state: &State, id: &str, expand: &Expand) -> Value {
    state.payment_intents[id].to_json(state, expand)
}

/// Why an attempt to pay failed: `last_payment_error` (and `last_setup_error`).
#[derive(Debug, Clone)]
pub(crate) struct Failure {
    pub kind: &'static str,
    pub code: String,
    pub message: String,
    pub decline_code: Option<String>,
}

impl Failure {
    /// The shopper refused, or failed, the authorisation.
    pub(crate) fn authentication(setup: bool) -> Failure {
        let (code, object) = if setup {
            ("setup_intent_authentication_failure", "SetupIntent")
        } else {
            ("payment_intent_authentication_failure", "PaymentIntent")
        };
        Failure {
            kind: "invalid_request_error",
            code: code.into(),
            message: format!(
                "The provided PaymentMethod has failed authentication. You can provide \
                 payment_method_data or a new PaymentMethod to attempt to fulfill this {object} again."
            ),
            decline_code: None,
        }
    }

    /// The payment did not go through after it was authorised (a debit bounced).
    pub(crate) fn attempt_failed() -> Failure {
        Failure {
            kind: "invalid_request_error",
            code: "payment_intent_payment_attempt_failed".into(),
            message:
                "The latest payment attempt of this PaymentIntent has failed or been canceled, \
                      and the attached payment method has been removed. You can try confirming \
                      again with a new payment method."
                    .into(),
            decline_code: None,
        }
    }

    /// A voucher (or another pending action) ran out of time.
    pub(crate) fn expired() -> Failure {
        Failure {
            kind: "invalid_request_error",
            code: "payment_intent_payment_attempt_expired".into(),
            message:
                "The latest payment attempt of this PaymentIntent has expired. You can provide \
                      payment_method_data or a new PaymentMethod to attempt to fulfill this \
                      PaymentIntent again."
                    .into(),
            decline_code: None,
        }
    }

    pub(crate) fn card_declined() -> Failure {
        Failure {
            kind: "card_error",
            code: "card_declined".into(),
            message: "Your card was declined.".into(),
            decline_code: Some("generic_decline".into()),
        }
    }

    /// `last_payment_error` with the method that failed.
    pub(crate) fn to_json(&self, method: Option<Value>, charge: Option<&str>) -> Value {
        let mut error = json!({
            "type": self.kind,
            "code": self.code,
            "message": self.message,
            "payment_method": method,
        });
        if let Some(decline_code) = &self.decline_code {
            error["decline_code"] = json!(decline_code);
        }
        if let Some(charge) = charge {
            error["charge"] = json!(charge);
        }
        error
    }
}

/// A checked confirmation, ready to apply.
struct Plan {
    method: PaymentMethod,
    /// Made from `payment_method_data`: kept when applied.
    new_method: bool,
    return_url: Option<String>,
    options: Map<String, Value>,
    mandate_data: Option<Value>,
    setup_future_usage: Option<String>,
    step: Step,
}

fn plan(
    state: &mut State,
    ctx: &Ctx,
    intent: &PaymentIntent,
    params: &Params,
) -> Result<Plan, ApiError> {
    if !matches!(
        intent.status,
        Status::RequiresPaymentMethod | Status::RequiresConfirmation | Status::RequiresAction
    ) {
        return Err(ApiError::unexpected_state(
            "payment_intent_unexpected_state",
            format!(
                "You cannot confirm this PaymentIntent because it has a status of {}.",
                intent.status.as_str()
            ),
        )
        .with("payment_intent", intent.to_json(state, &Expand::default())));
    }
    let (method, new_method) = resolve_method(
        state,
        ctx,
        params,
        intent.payment_method.as_deref(),
        "payment_intent_unexpected_state",
    )?;
    check_method_type(&method, &intent.payment_method_types)?;
    let return_url = params
        .string(&["return_url"])
        .or_else(|| intent.return_url.clone());
    let mut options = intent.options.clone();
    merge_options(&mut options, params.object("payment_method_options"));
    let mandate_data = params
        .value(&["mandate_data"])
        .cloned()
        .or_else(|| intent.mandate_data.clone());
    let setup_future_usage =
        match one_of(params, "setup_future_usage", &["on_session", "off_session"])? {
            Some(usage) => Some(usage.to_owned()),
            None => intent.setup_future_usage.clone(),
        };
    let step = actions::for_payment(&Confirming {
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
        setup_future_usage,
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
        setup_future_usage,
        step,
    } = plan;
    let method_id = method.id.clone();
    if new_method {
        state.payment_methods.insert(method_id.clone(), method);
    }
    let intent = state
        .payment_intents
        .get_mut(id)
        .expect("planned for a kept intent");
    intent.payment_method = Some(method_id);
    intent.return_url = return_url;
    intent.options = options;
    intent.mandate_data = mandate_data;
    intent.setup_future_usage = setup_future_usage;
    intent.last_payment_error = None;
    intent.next_action = None;
    intent.status = Status::RequiresConfirmation;
    match step {
        Step::Succeed => succeed(state, id),
        Step::Process => process(state, id),
        Step::Action(action) => require_action(state, id, action),
        Step::Decline => {
            let charge = decline(state, id);
            return Err(ApiError::new(
                StatusCode::PAYMENT_REQUIRED,
                "card_error",
                "Your card was declined.",
            )
            .code("card_declined")
            .with("decline_code", json!("generic_decline"))
            .with("charge", json!(charge))
            .with("payment_intent", to_json(state, id, &Expand::default())));
        }
    }
    Ok(to_json(state, id, expand))
}

/// `requires_action` with the action to show; `payment_intent.requires_action`.
pub(crate) fn require_action(state: &mut State, id: &str, action: Value) {
    let intent = state.payment_intents.get_mut(id).expect("a kept intent");
    intent.status = Status::RequiresAction;
    intent.next_action = Some(action);
    emit(state, id, "payment_intent.requires_action");
}

/// `processing` with a pending charge; `payment_intent.processing`.
pub(crate) fn process(state: &mut State, id: &str) {
    let charge = charge_for(state, id);
    state.charges[&charge].status = "pending";
    let intent = state.payment_intents.get_mut(id).expect("a kept intent");
    intent.status = Status::Processing;
    intent.next_action = None;
    remember_mandate(state, id);
    emit(state, id, "payment_intent.processing");
}

/// The money moves: `succeeded` with a succeeded charge (`payment_intent.succeeded`),
/// or, under manual capture, `requires_capture` (`payment_intent.amount_capturable_updated`).
/// An intent already waiting for its capture is captured whole.
pub(crate) fn succeed(state: &mut State, id: &str) {
    let intent = &state.payment_intents[id];
    let (status, amount, capturable) = (intent.status, intent.amount, intent.amount_capturable);
    let authorize_only = intent.capture_method == "manual" && status != Status::Processing;
    if status == Status::RequiresCapture {
        capture_amount(state, id, capturable);
        return;
    }
    let charge_id = charge_for(state, id);
    let charge = &mut state.charges[&charge_id];
    charge.status = "succeeded";
    charge.captured = !authorize_only;
    charge.amount_captured = if authorize_only { 0 } else { amount };
    let intent = state.payment_intents.get_mut(id).expect("a kept intent");
    intent.next_action = None;
    if authorize_only {
        intent.status = Status::RequiresCapture;
        intent.amount_capturable = amount;
        emit(state, id, "payment_intent.amount_capturable_updated");
    } else {
        intent.status = Status::Succeeded;
        intent.amount_received = amount;
        intent.amount_capturable = 0;
        emit(state, id, "payment_intent.succeeded");
    }
    keep_method(state, id);
}

/// `requires_payment_method` with `last_payment_error`; `payment_intent.payment_failed`.
/// A pending charge fails with it.
pub(crate) fn fail(state: &mut State, id: &str, failure: &Failure) {
    let intent = state.payment_intents.get_mut(id).expect("a kept intent");
    let method_id = intent.payment_method.take();
    intent.status = Status::RequiresPaymentMethod;
    intent.next_action = None;
    intent.amount_capturable = 0;
    let charge_id = intent.latest_charge.clone();
    let mut failed_charge = None;
    if let Some(charge) = charge_id.as_ref().and_then(|id| state.charges.get_mut(id)) {
        if charge.status != "succeeded" {
            charge.status = "failed";
            charge.failure_code = Some(failure.code.clone());
            charge.failure_message = Some(failure.message.clone());
            failed_charge = Some(charge.id.clone());
        }
    }
    let method = method_id
        .as_ref()
        .and_then(|id| state.payment_methods.get(id))
        .map(PaymentMethod::to_json);
    let error = failure.to_json(method, failed_charge.as_deref());
    state
        .payment_intents
        .get_mut(id)
        .expect("a kept intent")
        .last_payment_error = Some(error);
    emit(state, id, "payment_intent.payment_failed");
}

/// A card declined at confirmation: a failed charge, then `fail`. Gives the charge.
fn decline(state: &mut State, id: &str) -> String {
    let charge = charge_for(state, id);
    state.charges[&charge].status = "pending";
    fail(state, id, &Failure::card_declined());
    charge
}

fn capture_amount(state: &mut State, id: &str, amount: i64) {
    if let Some(charge_id) = state.payment_intents[id].latest_charge.clone() {
        if let Some(charge) = state.charges.get_mut(&charge_id) {
            charge.captured = true;
            charge.amount_captured = amount;
        }
    }
    let intent = state.payment_intents.get_mut(id).expect("a kept intent");
    intent.status = Status::Succeeded;
    intent.amount_received = amount;
    intent.amount_capturable = 0;
    emit(state, id, "payment_intent.succeeded");
    keep_method(state, id);
}

/// The intent's charge still in play (pending, or authorised and not captured), or a
/// new one made its latest.
fn charge_for(state: &mut State, id: &str) -> String {
    let intent = &state.payment_intents[id];
    if let Some(charge) = intent
        .latest_charge
        .as_ref()
        .and_then(|charge| state.charges.get(charge))
    {
        if charge.status == "pending" || (charge.status == "succeeded" && !charge.captured) {
            return charge.id.clone();
        }
    }
    let method = intent
        .payment_method
        .as_ref()
        .and_then(|method| state.payment_methods.get(method));
    let charge = Charge {
        id: new_id("ch"),
        amount: intent.amount,
        amount_captured: 0,
        amount_refunded: 0,
        captured: false,
        currency: intent.currency.clone(),
        customer: intent.customer.clone(),
        payment_intent: intent.id.clone(),
        payment_method: intent.payment_method.clone(),
        method_type: method.map_or("card", |method| method.kind.name),
        billing_details: method.map_or(Value::Null, |method| method.billing_details.clone()),
        status: "pending",
        failure_code: None,
        failure_message: None,
        created: now(),
        refunds: Vec::new(),
    };
    let charge_id = charge.id.clone();
    state.charges.insert(charge_id.clone(), charge);
    state
        .payment_intents
        .get_mut(id)
        .expect("a kept intent")
        .latest_charge = Some(charge_id.clone());
    charge_id
}

/// A debit's method keeps its mandate for the next payment.
fn remember_mandate(state: &mut State, id: &str) {
    let intent = &state.payment_intents[id];
    if let Some(method) = intent
        .payment_method
        .clone()
        .and_then(|method| state.payment_methods.get_mut(&method))
    {
        if method.kind.is_bank_debit() && method.mandate.is_none() {
            method.mandate = Some(new_id("mandate"));
        }
    }
}

/// After a payment: the method saved for the customer when `setup_future_usage` asked.
fn keep_method(state: &mut State, id: &str) {
    remember_mandate(state, id);
    let intent = &state.payment_intents[id];
    if intent.setup_future_usage.is_none() {
        return;
    }
    if let (Some(method), Some(customer)) = (intent.payment_method.clone(), intent.customer.clone())
    {
        methods::attach_to(state, &method, &customer);
    }
}

fn emit(state: &mut State, id: &str, event_type: &str) {
    let object = to_json(state, id, &Expand::default());
    state.emit(event_type, object);
}

// Parameters shared with setup intents.

/// `expand[]`.
pub(crate) fn expand(params: &Params) -> Expand {
    Expand::new(params.expand())
}

fn amount(params: &Params) -> Result<i64, ApiError> {
    let amount = params
        .int("amount")?
        .ok_or_else(|| ApiError::missing("amount"))?;
    if !(1..=99_999_999).contains(&amount) {
        return Err(ApiError::invalid_param(
            "amount",
            "The amount must be a whole number of minor units from 1 to 99999999.",
        )
        .code("parameter_invalid_integer"));
    }
    Ok(amount)
}

fn currency(params: &Params) -> Result<String, ApiError> {
    let currency = params
        .str(&["currency"])
        .ok_or_else(|| ApiError::missing("currency"))?;
    if currency.len() != 3 || !currency.bytes().all(|b| b.is_ascii_alphabetic()) {
        return Err(ApiError::invalid_param(
            "currency",
            format!("Invalid currency: {currency}. A currency is three letters, such as eur."),
        ));
    }
    Ok(currency.to_ascii_lowercase())
}

/// `customer`: without an upstream it must be a customer kept here.
pub(crate) fn customer(state: &State, ctx: &Ctx) -> Result<Option<String>, ApiError> {
    match ctx.params.string(&["customer"]) {
        Some(id) if !ctx.has_upstream && !state.customers.contains_key(&id) => {
            Err(ApiError::no_such("customer", &id, "customer"))
        }
        customer => Ok(customer),
    }
}

/// One of the allowed values, or nothing when not sent.
pub(crate) fn one_of<'p>(
    params: &'p Params,
    name: &str,
    allowed: &[&str],
) -> Result<Option<&'p str>, ApiError> {
    match params.str(&[name]) {
        None => Ok(None),
        Some(value) if allowed.contains(&value) => Ok(Some(value)),
        Some(value) => Err(ApiError::invalid_param(
            name,
            format!("Invalid {name}: {value} (one of {}).", allowed.join(", ")),
        )),
    }
}

/// `payment_method_types[]`, else the method's type, else `card`.
pub(crate) fn payment_method_types(
    params: &Params,
    method: Option<&PaymentMethod>,
    setup: bool,
) -> Result<Vec<String>, ApiError> {
    let mut types = params.list("payment_method_types");
    if types.is_empty() {
        types.push(method.map_or("card", |method| method.kind.name).to_owned());
    }
    check_types(&types, setup)?;
    if let Some(method) = method {
        check_method_type(method, &types)?;
    }
    Ok(types)
}

fn check_types(types: &[String], setup: bool) -> Result<(), ApiError> {
    for name in types {
        match method_type(name) {
            None => {
                return Err(ApiError::invalid_param(
                    "payment_method_types",
                    format!(
                        "The payment method type provided: {name} is invalid. This test double knows {}.",
                        crate::objects::type_names()
                    ),
                ))
            }
            Some(kind) if setup && !kind.reusable => {
                return Err(ApiError::invalid_param(
                    "payment_method_types",
                    format!("The payment method type {name} cannot be set up for later payments."),
                ))
            }
            Some(_) => {}
        }
    }
    Ok(())
}

pub(crate) fn check_method_type(method: &PaymentMethod, types: &[String]) -> Result<(), ApiError> {
    if types.iter().any(|name| name == method.kind.name) {
        return Ok(());
    }
    Err(ApiError::invalid_param(
        "payment_method",
        format!(
            "The PaymentMethod provided ({}) has type {}, which is not among this intent's \
             payment_method_types ({}).",
            method.id,
            method.kind.name,
            types.join(", ")
        ),
    ))
}

/// The method to confirm with: `payment_method_data` (a new one), `payment_method`,
/// or the one the intent has.
pub(crate) fn resolve_method(
    state: &mut State,
    ctx: &Ctx,
    params: &Params,
    current: Option<&str>,
    missing_code: &str,
) -> Result<(PaymentMethod, bool), ApiError> {
    if let Some(data) = params.nested("payment_method_data") {
        return Ok((methods::build(&data)?, true));
    }
    let Some(id) = params.str(&["payment_method"]).or(current) else {
        return Err(ApiError::unexpected_state(
            missing_code,
            "You cannot confirm this intent because it's missing a payment method. Update it \
             with a payment method, or confirm it again with one.",
        ));
    };
    Ok((
        methods::find(state, ctx, id, "payment_method")?.clone(),
        false,
    ))
}

/// `payment_method_options` sent again: each type's hash merged into the kept one.
pub(crate) fn merge_options(options: &mut Map<String, Value>, sent: Option<&Map<String, Value>>) {
    for (name, value) in sent.into_iter().flatten() {
        match (options.get_mut(name), value) {
            (Some(Value::Object(kept)), Value::Object(new)) => {
                kept.extend(new.iter().map(|(key, value)| (key.clone(), value.clone())));
            }
            _ => {
                options.insert(name.clone(), value.clone());
            }
        }
    }
}
