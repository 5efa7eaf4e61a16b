//! Charging an order at the provider: at checkout, on the order-pay page, with a new
//! card or a kept one. The order is claimed for one attempt at a time (two tabs paying
//! one order: the second waits), every request of an attempt carries an idempotency key
//! made of the order and the attempt (a retried request never charges twice), and an
//! earlier attempt still open at the provider is cancelled before a new one starts, so
//! it cannot be completed as well.

use std::sync::Arc;

use std::net::IpAddr;

use payments::{
    CaptureMethod, ClientSecret, CreateCustomer, CreatePaymentIntent, Currency, CustomerId,
    IdempotencyKey, OnlineMandate, PaymentIntent, PaymentIntentId, PaymentIntentStatus,
    PaymentMethodId,
};
use rules::orders::model::{Order, OrderId};
use rules::payments::intents::{IntentStatus, Offline};
use rules::payments::messages;
use rules::payments::methods::{Flow, MethodType};
use rules::payments::returns::{self, NextStep};
use store::payments::{IntentKind, IntentRecord, SavedMethod};
use store::StoreError;

use super::settle::{self, IntentFacts, KeepMethod};
use super::Provider;
use crate::config::payments::Capture;
use crate::state::AppState;

/// How the shopper pays: a method just made in their browser, or one they kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PayWith {
    New {
        method: PaymentMethodId,
        /// Keep it for later purchases (logged-in shoppers, where the rules allow).
        keep: bool,
    },
    Saved {
        id: i64,
    },
}

/// The payment part of a checkout or an order-pay request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PayRequest {
    pub method_type: MethodType,
    pub with: PayWith,
    /// BLIK's six digits from the shopper's banking app.
    pub blik_code: Option<String>,
    /// The shopper's address, which a bank debit's mandate records (set by the
    /// caller from the request).
    pub client_ip: Option<IpAddr>,
}

/// The message for a BLIK code that is not six digits.
pub const INVALID_BLIK_CODE: &str = "BLIK Code is invalid";

/// A BLIK code as the shopper typed it: six digits, spaces and dashes aside.
fn blik_code(value: &str) -> Option<String> {
    let digits: String = value.chars().filter(|c| !matches!(c, ' ' | '-')).collect();
    (digits.len() == 6 && digits.bytes().all(|b| b.is_ascii_digit())).then_some(digits)
}

/// The longest provider id taken; theirs are far shorter.
const MAX_ID_CHARS: usize = 255;

fn provider_id(value: &str, prefix: &str) -> Option<String> {
    let v = value.trim();
    (v.starts_with(prefix)
        && v.len() > prefix.len()
        && v.len() <= MAX_ID_CHARS
        && v.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'))
    .then(|| v.to_string())
}

/// An intent id as the storefront sends it back (`pi_…` or `seti_…`).
pub fn intent_id(value: &str) -> Option<String> {
    provider_id(value, "pi_").or_else(|| provider_id(value, "seti_"))
}

impl PayRequest {
    /// Reads the storefront's payment fields (`payment_data` of the Store API, or the
    /// classic checkout form) for the gateway `gateway_id`. `field` looks one up.
    pub fn read(gateway_id: &str, field: impl Fn(&str) -> Option<String>) -> Result<Self, String> {
        let method_type = MethodType::from_gateway_id(gateway_id)
            .ok_or_else(|| messages::INVALID_DETAILS.to_string())?;
        if let Some(kind) = field("wc-stripe-payment-type").filter(|t| !t.trim().is_empty()) {
            if MethodType::parse(kind.trim()) != Some(method_type) {
                return Err(messages::INVALID_DETAILS.to_string());
            }
        }
        let blik_code = match method_type {
            MethodType::Blik => Some(
                field("wc-stripe-blik-code")
                    .as_deref()
                    .and_then(blik_code)
                    .ok_or_else(|| INVALID_BLIK_CODE.to_string())?,
            ),
            _ => None,
        };
        let token = field(&format!("wc-{gateway_id}-payment-token"))
            .or_else(|| field("wc-stripe-payment-token"))
            .map(|t| t.trim().to_string())
            .filter(|t| !t.is_empty() && t != "new");
        if let Some(token) = token {
            let id = token
                .parse::<i64>()
                .ok()
                .filter(|&i| i > 0)
                .ok_or_else(|| messages::INVALID_DETAILS.to_string())?;
            return Ok(Self {
                method_type,
                with: PayWith::Saved { id },
                blik_code,
                client_ip: None,
            });
        }
        let method = field("wc-stripe-payment-method")
            .and_then(|v| provider_id(&v, "pm_"))
            .ok_or_else(|| messages::INVALID_DETAILS.to_string())?;
        let keep = field(&format!("wc-{gateway_id}-new-payment-method"))
            .or_else(|| field("wc-stripe-new-payment-method"))
            .is_some_and(|v| matches!(v.trim(), "true" | "1" | "yes" | "on"));
        Ok(Self {
            method_type,
            with: PayWith::New {
                method: PaymentMethodId::new(method),
                keep,
            },
            blik_code,
            client_ip: None,
        })
    }
}

/// What became of the order.
#[derive(Debug)]
pub enum Charged {
    /// Paid, authorised or under way (the order is processing or on hold).
    Paid(Order),
    /// The shopper must act: finish in the page (3-D Secure, BLIK), see a voucher,
    /// use a wallet's app, or leave for the provider's page.
    NeedsAction {
        order: Order,
        step: NextStep,
        method_type: MethodType,
        client_secret: ClientSecret,
    },
    /// Refused by the provider; the order is failed and can be paid again.
    Declined { order: Order, message: String },
}

#[derive(Debug)]
pub enum ChargeError {
    NotConnected,
    /// The order is not waiting for payment (paid meanwhile, cancelled).
    NotPayable(Box<Order>),
    /// Another attempt holds the order.
    Busy,
    /// The details sent do not name a method this shopper may pay with.
    InvalidDetails,
    /// The method is not offered in the order's billing country.
    NotOffered,
    /// The provider could not be reached or answered nonsense; nothing was charged
    /// that a retry could charge again.
    Unreachable,
    Store(StoreError),
}

impl From<StoreError> for ChargeError {
    fn from(e: StoreError) -> Self {
        Self::Store(e)
    }
}

impl ChargeError {
    pub fn message(&self) -> String {
        match self {
            Self::NotConnected | Self::InvalidDetails => messages::INVALID_DETAILS.into(),
            Self::NotPayable(order) => format!(
                "This order\u{2019}s status is \u{201c}{}\u{201d}\u{2014}it cannot be paid for. Please contact us if you need assistance.",
                order.status.label()
            ),
            Self::Busy => messages::IN_PROGRESS.into(),
            Self::NotOffered => messages::INVALID_METHOD_TYPE.into(),
            Self::Unreachable => messages::UNREACHABLE.into(),
            Self::Store(_) => messages::GENERIC_ERROR.into(),
        }
    }
}

/// The facts an intent gives an order.
pub fn facts_of(intent: &PaymentIntent) -> Option<IntentFacts> {
    let status = IntentStatus::parse(intent.status.as_str())?;
    let failure = intent.last_payment_error.as_ref().map(|e| {
        messages::for_error(
            e.code.as_deref(),
            e.decline_code.as_deref(),
            e.message.as_deref(),
        )
    });
    let method = intent
        .payment_method_types
        .iter()
        .find_map(|t| MethodType::parse(t));
    let is_voucher = method.is_some_and(|m| m.info().flow == Flow::Voucher);
    let offline = match intent.next_action.as_ref().and_then(|a| a.kind()) {
        Some(kind) if is_voucher && kind.ends_with("_display_details") => Some(Offline::Voucher),
        Some("verify_with_microdeposits") => Some(Offline::BankVerification),
        _ => None,
    };
    let expired = status == IntentStatus::RequiresPaymentMethod
        && intent.last_payment_error.as_ref().is_some_and(|e| {
            is_voucher || e.code.as_deref() == Some("payment_intent_payment_attempt_expired")
        });
    Some(IntentFacts {
        intent_id: intent.id.as_str().to_string(),
        status,
        charge_id: intent.latest_charge_id().map(|c| c.as_str().to_string()),
        failure,
        offline,
        expired,
    })
}

/// Charges `order` as `request` says. `customer` is the shopper's account, if signed
/// in; `now` the request's time.
pub async fn charge(
    state: &AppState,
    order: &Order,
    request: &PayRequest,
    customer: Option<i64>,
    base_url: &str,
    now: i64,
) -> Result<Charged, ChargeError> {
    let provider = state.provider.clone().ok_or(ChargeError::NotConnected)?;
    if !request.method_type.offered_in(&order.billing.country) {
        return Err(ChargeError::NotOffered);
    }
    let gateway = state
        .config
        .checkout
        .gateways
        .find(request.method_type.gateway_id())
        .ok_or(ChargeError::NotConnected)?
        .clone();
    // Claim the order for this attempt.
    let mut tx = state.db.begin_write().await?;
    let Some(mut current) = store::orders::lock_order(&mut tx, &state.db, order.id).await? else {
        tx.rollback().await.map_err(StoreError::from)?;
        return Err(ChargeError::NotPayable(Box::new(order.clone())));
    };
    if !current.status.needs_payment() {
        tx.rollback().await.map_err(StoreError::from)?;
        return Err(ChargeError::NotPayable(Box::new(current)));
    }
    let Some(attempt) = store::payments::claim_attempt(&mut tx, order.id, now).await? else {
        tx.rollback().await.map_err(StoreError::from)?;
        return Err(ChargeError::Busy);
    };
    if current.payment_method != gateway.id {
        let before = current.status;
        current.payment_method = gateway.id.to_string();
        current.payment_method_title = gateway.title.clone();
        store::orders::update_order(&mut tx, &current, before).await?;
    }
    tx.commit().await.map_err(StoreError::from)?;

    let outcome = attempt_charge(
        state, &provider, &current, request, customer, attempt, base_url, now,
    )
    .await;
    let answered = !matches!(
        outcome,
        Err(ChargeError::Unreachable | ChargeError::Store(_))
    );
    if let Err(e) = store::payments::release_attempt(&state.db, order.id, attempt, answered).await {
        tracing::error!(error = %e, order = order.id.0, "could not end a payment attempt");
    }
    outcome
}

#[allow(clippy::too_many_arguments)]
async fn attempt_charge(
    state: &AppState,
    provider: &Arc<Provider>,
    order: &Order,
    request: &PayRequest,
    customer: Option<i64>,
    attempt: i64,
    base_url: &str,
    now: i64,
) -> Result<Charged, ChargeError> {
    let mail = state.config.order_mails(base_url);
    // An earlier attempt still open at the provider is ended first; if it was paid
    // meanwhile, that payment stands and nothing more is charged.
    if let Some(previous) = store::payments::latest_order_intent(&state.db, order.id).await? {
        if let Some(paid) = end_open_intent(state, provider, order, &previous, &mail, now).await? {
            return Ok(Charged::Paid(paid));
        }
    }
    let key = |action: &str| IdempotencyKey::for_order(order.id.0, attempt, action);
    let unreachable = |e: payments::Error| {
        tracing::warn!(error = %e, order = order.id.0, "the payment provider failed");
        ChargeError::Unreachable
    };

    // The method, and the provider's customer it belongs to.
    let (method, provider_customer, keep) = match &request.with {
        PayWith::Saved { id } => {
            let customer = customer.ok_or(ChargeError::InvalidDetails)?;
            let saved = store::payments::find_saved_method(&state.db, customer, *id)
                .await?
                .ok_or(ChargeError::InvalidDetails)?;
            let provider_customer = ensure_customer(
                state,
                provider,
                customer,
                &order.billing.email,
                &order.billing.full_name(),
            )
            .await
            .map_err(ChargeError::from)?;
            (
                PaymentMethodId::new(saved.provider_method_id),
                Some(provider_customer),
                false,
            )
        }
        PayWith::New { method, keep } => {
            let keep = *keep
                && customer.is_some()
                && state.config.payments.saved_cards
                && request.method_type.info().is_reusable
                && !request.method_type.save_option_hidden();
            let provider_customer = match (keep, customer) {
                (true, Some(c)) => Some(
                    ensure_customer(
                        state,
                        provider,
                        c,
                        &order.billing.email,
                        &order.billing.full_name(),
                    )
                    .await
                    .map_err(ChargeError::from)?,
                ),
                _ => None,
            };
            if let Some(pc) = &provider_customer {
                // Kept methods are attached before the payment, which is what lets the
                // customer pay with them again later.
                if let Err(e) = provider
                    .client
                    .attach_payment_method(method, pc, &key("attach-method"))
                    .await
                {
                    return declined_or(state, order, e, None, &mail, now, unreachable).await;
                }
            }
            (method.clone(), provider_customer, keep)
        }
    };

    let currency = Currency::parse(&order.currency).map_err(|_| ChargeError::InvalidDetails)?;
    let mut params = CreatePaymentIntent::new(order.total, currency);
    params.payment_method = Some(method.clone());
    params.customer = provider_customer.clone();
    params.payment_method_types = vec![request.method_type.as_str().to_string()];
    let saved = matches!(request.with, PayWith::Saved { .. });
    let return_url = format!("{base_url}{}", order.received_path());
    shape_for_method(&mut params, request, saved, &return_url, base_url);
    if state.config.payments.capture == Capture::Manual && request.method_type == MethodType::Card {
        params.capture_method = Some(CaptureMethod::Manual);
    }
    let descriptor = &state.config.payments.statement_descriptor;
    if !descriptor.is_empty() && request.method_type == MethodType::Card {
        params.statement_descriptor_suffix = Some(descriptor.chars().take(22).collect());
    }
    params
        .metadata
        .insert("order_id".into(), order.id.0.to_string());
    params
        .metadata
        .insert("customer_name".into(), order.billing.full_name());
    params
        .metadata
        .insert("customer_email".into(), order.billing.email.clone());
    params
        .metadata
        .insert("site_url".into(), base_url.to_string());
    let intent = match provider
        .client
        .create_payment_intent(&params, &key("create-intent"))
        .await
    {
        Ok(intent) => intent,
        Err(e) => {
            let declined_intent = e
                .provider_error()
                .and_then(|p| p.payment_intent.as_ref())
                .map(|id| id.as_str().to_string());
            if let Some(id) = &declined_intent {
                record(
                    state,
                    order,
                    id,
                    attempt,
                    "requires_payment_method",
                    &method,
                    keep,
                    customer,
                    now,
                )
                .await?;
            }
            return declined_or(state, order, e, declined_intent, &mail, now, unreachable).await;
        }
    };
    record(
        state,
        order,
        intent.id.as_str(),
        attempt,
        intent.status.as_str(),
        &method,
        keep,
        customer,
        now,
    )
    .await?;
    finish(
        state,
        provider,
        order,
        &intent,
        request.method_type,
        customer,
        keep,
        &mail,
        now,
    )
    .await
}

/// Whether paying with (or keeping) a new method of this type debits the shopper's
/// bank under a mandate they agree to in the checkout: the bank debits, and the
/// redirect methods kept as SEPA debits.
pub fn needs_mandate(method: MethodType) -> bool {
    method.info().flow == Flow::BankDebit
        || matches!(
            method,
            MethodType::Ideal | MethodType::Bancontact | MethodType::Sofort
        )
}

/// What each method type's intent needs besides the amount and the method: vouchers
/// and wallets are confirmed in the shopper's browser, where the provider's script
/// shows the voucher or the wallet (so the order waits on hold only once the shopper
/// has seen it); methods that leave for the bank or lender come back to the order's
/// page; a new bank debit carries the mandate the shopper agreed to; BLIK its code.
fn shape_for_method(
    params: &mut CreatePaymentIntent,
    request: &PayRequest,
    saved: bool,
    return_url: &str,
    base_url: &str,
) {
    let method = request.method_type;
    let flow = method.info().flow;
    params.confirm = Some(!matches!(flow, Flow::Voucher | Flow::Wallet));
    if flow == Flow::Redirect {
        params.return_url = Some(return_url.to_string());
    }
    if needs_mandate(method) && !saved {
        params.mandate = Some(OnlineMandate {
            ip_address: request
                .client_ip
                .map_or_else(|| "0.0.0.0".to_string(), |ip| ip.to_string()),
            user_agent: format!("Ferroshop; {base_url}"),
        });
    }
    params.method_options.blik_code = request.blik_code.clone();
    if method == MethodType::AcssDebit {
        params.method_options.acss_debit_mandate = Some(("sporadic".into(), "personal".into()));
    }
}

/// What an intent's answer does to the order, and what the shopper is told.
#[allow(clippy::too_many_arguments)]
pub async fn finish(
    state: &AppState,
    provider: &Provider,
    order: &Order,
    intent: &PaymentIntent,
    method_type: MethodType,
    customer: Option<i64>,
    keep: bool,
    mail: &mail::order::OrderMailSettings,
    now: i64,
) -> Result<Charged, ChargeError> {
    let facts = facts_of(intent).ok_or(ChargeError::Unreachable)?;
    let waits_for_shopper = matches!(
        intent.status,
        PaymentIntentStatus::RequiresAction | PaymentIntentStatus::RequiresConfirmation
    );
    let step = waits_for_shopper.then(|| {
        let action = intent.next_action.as_ref();
        returns::next_step(
            method_type,
            action.and_then(|a| a.kind()),
            action.and_then(|a| a.url()),
        )
    });
    if let Some(step) = step.filter(|s| *s != NextStep::Wait) {
        let client_secret = intent
            .client_secret
            .clone()
            .ok_or(ChargeError::Unreachable)?;
        return Ok(Charged::NeedsAction {
            order: order.clone(),
            step,
            method_type,
            client_secret,
        });
    }
    let kept = match (keep, customer, intent.payment_method_id()) {
        (true, Some(c), Some(pm))
            if facts.status.is_paid() || facts.status == IntentStatus::Processing =>
        {
            keep_method(provider, c, pm, now).await
        }
        _ => None,
    };
    let applied = settle::apply(&state.db, order.id, &facts, true, kept, mail, now).await?;
    let after = applied.map(|(o, _)| o).unwrap_or_else(|| order.clone());
    match facts.status {
        s if s.is_paid() || s == IntentStatus::Processing => Ok(Charged::Paid(after)),
        // The shopper verifies their account later; the order waits on hold.
        IntentStatus::RequiresAction if facts.offline.is_some() => Ok(Charged::Paid(after)),
        _ => Ok(Charged::Declined {
            order: after,
            message: facts
                .failure
                .unwrap_or_else(|| messages::PAYMENT_FAILED.to_string()),
        }),
    }
}

/// A provider refusal (a decline: the order fails and can be paid again), or the
/// provider out of reach.
async fn declined_or(
    state: &AppState,
    order: &Order,
    e: payments::Error,
    intent_id: Option<String>,
    mail: &mail::order::OrderMailSettings,
    now: i64,
    unreachable: impl Fn(payments::Error) -> ChargeError,
) -> Result<Charged, ChargeError> {
    let Some(p) = e.provider_error() else {
        return Err(unreachable(e));
    };
    if p.status >= 500 {
        return Err(unreachable(e));
    }
    let message = messages::for_error(
        p.code.as_deref(),
        p.decline_code.as_deref(),
        p.message.as_deref(),
    );
    let facts = IntentFacts::new(
        intent_id.unwrap_or_default(),
        IntentStatus::RequiresPaymentMethod,
        Some(message.clone()),
    );
    let applied = settle::apply(&state.db, order.id, &facts, true, None, mail, now).await?;
    Ok(Charged::Declined {
        order: applied.map(|(o, _)| o).unwrap_or_else(|| order.clone()),
        message,
    })
}

/// Ends an earlier attempt's intent that is still open, so it cannot be completed
/// beside the new one. Returns the order if that intent turned out paid.
async fn end_open_intent(
    state: &AppState,
    provider: &Provider,
    order: &Order,
    previous: &IntentRecord,
    mail: &mail::order::OrderMailSettings,
    now: i64,
) -> Result<Option<Order>, ChargeError> {
    if matches!(previous.status.as_str(), "canceled" | "succeeded")
        || previous.kind != IntentKind::Payment
    {
        return Ok(None);
    }
    let id = PaymentIntentId::new(previous.intent_id.clone());
    let intent = match provider.client.retrieve_payment_intent(&id).await {
        Ok(i) => i,
        Err(e) if e.provider_error().is_some_and(|p| p.status == 404) => return Ok(None),
        Err(_) => return Err(ChargeError::Unreachable),
    };
    let status = IntentStatus::parse(intent.status.as_str());
    if status.is_some_and(|s| s.is_paid() || s == IntentStatus::Processing) {
        let facts = facts_of(&intent).ok_or(ChargeError::Unreachable)?;
        let applied = settle::apply(&state.db, order.id, &facts, true, None, mail, now).await?;
        return Ok(applied.map(|(o, _)| o));
    }
    if status != Some(IntentStatus::Canceled) {
        let key = IdempotencyKey::for_order(order.id.0, previous.attempt, "cancel-intent");
        if let Err(e) = provider
            .client
            .cancel_payment_intent(&id, &Default::default(), &key)
            .await
        {
            // Paid in the meantime: the provider refuses to cancel it. Look again.
            tracing::info!(error = %e, "an earlier intent could not be cancelled");
            let again = provider
                .client
                .retrieve_payment_intent(&id)
                .await
                .map_err(|_| ChargeError::Unreachable)?;
            if IntentStatus::parse(again.status.as_str()).is_some_and(|s| s.is_paid()) {
                let facts = facts_of(&again).ok_or(ChargeError::Unreachable)?;
                let applied =
                    settle::apply(&state.db, order.id, &facts, true, None, mail, now).await?;
                return Ok(applied.map(|(o, _)| o));
            }
        }
    }
    let mut tx = state.db.begin_write().await?;
    store::payments::set_intent_status(&mut tx, &previous.intent_id, "canceled", now).await?;
    tx.commit().await.map_err(StoreError::from)?;
    Ok(None)
}

#[allow(clippy::too_many_arguments)]
async fn record(
    state: &AppState,
    order: &Order,
    intent_id: &str,
    attempt: i64,
    status: &str,
    method: &PaymentMethodId,
    keep: bool,
    customer: Option<i64>,
    now: i64,
) -> Result<(), StoreError> {
    store::payments::record_intent(
        &state.db,
        &IntentRecord {
            intent_id: intent_id.to_string(),
            order_id: order.id.0,
            customer_id: customer,
            kind: IntentKind::Payment,
            attempt,
            status: status.to_string(),
            amount: order.total,
            currency: order.currency.clone(),
            payment_method_id: method.as_str().to_string(),
            save_method: keep,
            created_at: now,
        },
    )
    .await
}

pub enum CustomerError {
    Store(StoreError),
    Provider(payments::Error),
}

impl From<CustomerError> for ChargeError {
    fn from(e: CustomerError) -> Self {
        match e {
            CustomerError::Store(s) => ChargeError::Store(s),
            CustomerError::Provider(p) => {
                tracing::warn!(error = %p, "the payment provider could not make the customer");
                ChargeError::Unreachable
            }
        }
    }
}

/// The provider's customer behind the account, made on first need.
pub async fn ensure_customer(
    state: &AppState,
    provider: &Provider,
    customer: i64,
    email: &str,
    name: &str,
) -> Result<CustomerId, CustomerError> {
    if let Some(id) = store::payments::provider_customer(&state.db, customer)
        .await
        .map_err(CustomerError::Store)?
    {
        return Ok(CustomerId::new(id));
    }
    let mut params = CreateCustomer {
        email: Some(email.trim().to_string()).filter(|e| !e.is_empty()),
        name: Some(name.trim().to_string()).filter(|n| !n.is_empty()),
        ..Default::default()
    };
    params
        .metadata
        .insert("customer_id".into(), customer.to_string());
    // One key per account: two requests making the customer at once make one.
    let key = IdempotencyKey::new(format!("ferroshop-customer-{customer}"))
        .map_err(|_| CustomerError::Provider(payments::Error::Config("idempotency key".into())))?;
    let made = provider
        .client
        .create_customer(&params, &key)
        .await
        .map_err(CustomerError::Provider)?;
    let linked = store::payments::link_provider_customer(&state.db, customer, made.id.as_str())
        .await
        .map_err(CustomerError::Store)?;
    Ok(CustomerId::new(linked))
}

/// The kept-method record of a provider method, read from the provider (brand, last
/// digits, expiry). None if it cannot be read: the payment stands, the method is not kept.
pub async fn keep_method(
    provider: &Provider,
    customer: i64,
    method: &PaymentMethodId,
    now: i64,
) -> Option<KeepMethod> {
    let pm = match provider.client.retrieve_payment_method(method).await {
        Ok(pm) => pm,
        Err(e) => {
            tracing::warn!(error = %e, "a payment method to keep could not be read");
            return None;
        }
    };
    let card = pm.card.unwrap_or_default();
    let method_type = MethodType::parse(&pm.method_type).unwrap_or(MethodType::Card);
    Some(KeepMethod {
        method: SavedMethod {
            id: 0,
            customer_id: customer,
            gateway: method_type.gateway_id().to_string(),
            method_type: method_type.as_str().to_string(),
            provider_method_id: pm.id.as_str().to_string(),
            brand: card.brand.unwrap_or_default(),
            last4: card.last4.unwrap_or_default(),
            exp_month: card.exp_month.map(i64::from).unwrap_or(0),
            exp_year: card.exp_year.map(i64::from).unwrap_or(0),
            is_default: false,
            created_at: now,
        },
    })
}

/// The order an intent pays, if the shop made it.
pub async fn order_of_intent(
    state: &AppState,
    intent_id: &str,
) -> Result<Option<(OrderId, bool)>, StoreError> {
    let Some(record) = store::payments::find_intent(&state.db, intent_id).await? else {
        return Ok(None);
    };
    order_of_record(state, &record).await
}

/// The order a recorded payment intent pays, and whether it is the order's latest
/// attempt (an older attempt's failure no longer speaks for the order).
pub async fn order_of_record(
    state: &AppState,
    record: &IntentRecord,
) -> Result<Option<(OrderId, bool)>, StoreError> {
    if record.kind != IntentKind::Payment || record.order_id <= 0 {
        return Ok(None);
    }
    let order = OrderId(record.order_id);
    let latest = store::payments::latest_order_intent(&state.db, order)
        .await?
        .is_none_or(|l| l.intent_id == record.intent_id);
    // A newer attempt under way (it cancels this intent before making its own) makes
    // this one old already, before the newer intent is recorded.
    let superseded = store::payments::attempt_under_way(&state.db, order, rules::clock::now())
        .await?
        .is_some_and(|under_way| under_way > record.attempt);
    Ok(Some((order, latest && !superseded)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn a_new_card_is_read_with_its_keep_choice() {
        let r = PayRequest::read(
            "stripe",
            fields(&[
                ("wc-stripe-payment-method", "pm_card_visa"),
                ("wc-stripe-new-payment-method", "true"),
                ("wc-stripe-payment-type", "card"),
            ]),
        )
        .unwrap();
        assert_eq!(r.method_type, MethodType::Card);
        assert_eq!(
            r.with,
            PayWith::New {
                method: PaymentMethodId::new("pm_card_visa"),
                keep: true
            }
        );
    }

    #[test]
    fn a_kept_card_is_named_by_its_number() {
        let r = PayRequest::read("stripe", fields(&[("wc-stripe-payment-token", "7")])).unwrap();
        assert_eq!(r.with, PayWith::Saved { id: 7 });
        let r = PayRequest::read(
            "stripe",
            fields(&[
                ("wc-stripe-payment-token", "new"),
                ("wc-stripe-payment-method", "pm_1"),
            ]),
        )
        .unwrap();
        assert!(matches!(r.with, PayWith::New { keep: false, .. }));
    }

    #[test]
    fn anything_else_is_refused_before_an_order_is_made() {
        for bad in [
            vec![],
            vec![("wc-stripe-payment-method", "card_123")],
            vec![("wc-stripe-payment-method", "pm_<script>")],
            vec![("wc-stripe-payment-token", "-3")],
            vec![
                ("wc-stripe-payment-method", "pm_1"),
                ("wc-stripe-payment-type", "sepa_debit"),
            ],
        ] {
            assert!(PayRequest::read("stripe", fields(&bad)).is_err(), "{bad:?}");
        }
        assert!(PayRequest::read("cod", fields(&[("wc-stripe-payment-method", "pm_1")])).is_err());
        assert_eq!(intent_id(" pi_123 "), Some("pi_123".into()));
        assert_eq!(intent_id("seti_9"), Some("seti_9".into()));
        assert_eq!(intent_id("pi_"), None);
    }

    #[test]
    fn blik_takes_six_digits_and_nothing_else() {
        let with = |code: &str| {
            PayRequest::read(
                "stripe_blik",
                fields(&[
                    ("wc-stripe-payment-method", "pm_1"),
                    ("wc-stripe-blik-code", code),
                ]),
            )
        };
        assert_eq!(
            with("123 456").unwrap().blik_code.as_deref(),
            Some("123456")
        );
        for bad in ["", "12345", "1234567", "12a456", "１２３４５６"] {
            assert_eq!(with(bad).unwrap_err(), INVALID_BLIK_CODE, "{bad:?}");
        }
        let missing = PayRequest::read(
            "stripe_blik",
            fields(&[("wc-stripe-payment-method", "pm_1")]),
        );
        assert_eq!(missing.unwrap_err(), INVALID_BLIK_CODE);
    }

    fn shaped(method: MethodType, saved: bool) -> CreatePaymentIntent {
        let mut params = CreatePaymentIntent::new(1000, Currency::parse("EUR").unwrap());
        let request = PayRequest {
            method_type: method,
            with: PayWith::New {
                method: PaymentMethodId::new("pm_1"),
                keep: false,
            },
            blik_code: None,
            client_ip: Some("203.0.113.9".parse().unwrap()),
        };
        let back = "https://shop.test/checkout/order-received/7/?key=wc_order_k";
        shape_for_method(&mut params, &request, saved, back, "https://shop.test");
        params
    }

    #[test]
    fn each_flow_shapes_its_intent() {
        // Vouchers and wallets are confirmed in the shopper's browser.
        for m in [
            MethodType::Boleto,
            MethodType::Oxxo,
            MethodType::WechatPay,
            MethodType::Cashapp,
        ] {
            assert_eq!(shaped(m, false).confirm, Some(false), "{m:?}");
        }
        let card = shaped(MethodType::Card, false);
        assert_eq!(
            (card.confirm, card.return_url, card.mandate),
            (Some(true), None, None)
        );
        let ideal = shaped(MethodType::Ideal, false);
        assert_eq!(
            ideal.return_url.as_deref(),
            Some("https://shop.test/checkout/order-received/7/?key=wc_order_k")
        );
        assert_eq!(ideal.mandate.unwrap().ip_address, "203.0.113.9");
        let debit = shaped(MethodType::BacsDebit, false);
        assert!(debit.mandate.is_some() && debit.return_url.is_none());
        // A kept method carries its mandate already.
        assert!(shaped(MethodType::SepaDebit, true).mandate.is_none());
        assert!(shaped(MethodType::AcssDebit, false)
            .method_options
            .acss_debit_mandate
            .is_some());
    }
}
