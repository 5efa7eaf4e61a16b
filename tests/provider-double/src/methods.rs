//! PaymentMethods: made by the shopper's browser (with the publishable key) or by a
//! test, then read, attached to a customer and detached by the shop's server.

use serde_json::{json, Map, Value};

use crate::error::{Answer, ApiError};
use crate::form::Params;
use crate::objects::{method_type, new_id, now, random_text, type_names, PaymentMethod};
use crate::state::{Ctx, State};

/// `POST /v1/payment_methods`: the publishable key may call it.
pub(crate) fn create(state: &mut State, ctx: &Ctx) -> Answer {
    let method = build(ctx.params)?;
    let answer = method.to_json();
    state.payment_methods.insert(method.id.clone(), method);
    Ok(answer)
}

/// `GET /v1/payment_methods/{id}`.
pub(crate) fn retrieve(state: &mut State, ctx: &Ctx, id: &str) -> Answer {
    ctx.require_secret()?;
    Ok(find(state, ctx, id, "id")?.to_json())
}

/// `GET /v1/payment_methods?customer=&type=`: newest first.
pub(crate) fn list(state: &mut State, ctx: &Ctx) -> Answer {
    ctx.require_secret()?;
    let customer = ctx.params.str(&["customer"]);
    let wanted_type = ctx.params.str(&["type"]);
    let methods = state.payment_methods.values().rev().filter(|method| {
        customer.is_none_or(|customer| method.customer.as_deref() == Some(customer))
            && wanted_type.is_none_or(|name| method.kind.name == name)
    });
    list_page(
        ctx.params,
        "/v1/payment_methods",
        methods.map(PaymentMethod::to_json),
    )
}

/// `POST /v1/payment_methods/{id}/attach`.
pub(crate) fn attach(state: &mut State, ctx: &Ctx, id: &str) -> Answer {
    ctx.require_secret()?;
    let customer = ctx
        .params
        .string(&["customer"])
        .ok_or_else(|| ApiError::missing("customer"))?;
    find(state, ctx, id, "id")?;
    if !ctx.has_upstream && !state.customers.contains_key(&customer) {
        return Err(ApiError::no_such("customer", &customer, "customer"));
    }
    attach_to(state, id, &customer);
    Ok(state.payment_methods[id].to_json())
}

/// `POST /v1/payment_methods/{id}/detach`.
pub(crate) fn detach(state: &mut State, ctx: &Ctx, id: &str) -> Answer {
    ctx.require_secret()?;
    let method = find(state, ctx, id, "id")?;
    let Some(customer) = method.customer.take() else {
        return Err(ApiError::unexpected_state(
            "payment_method_unexpected_state",
            "The payment method you provided is not attached to a customer so detachment is impossible.",
        ));
    };
    let answer = method.to_json();
    if let Some(customer) = state.customers.get_mut(&customer) {
        if customer.default_payment_method.as_deref() == Some(id) {
            customer.default_payment_method = None;
        }
    }
    state.emit("payment_method.detached", answer.clone());
    Ok(answer)
}

/// Saves a method for a customer, with `payment_method.attached` when that changes
/// anything.
pub(crate) fn attach_to(state: &mut State, id: &str, customer: &str) {
    let Some(method) = state.payment_methods.get_mut(id) else {
        return;
    };
    if method.customer.as_deref() == Some(customer) {
        return;
    }
    method.customer = Some(customer.to_owned());
    let answer = method.to_json();
    state.emit("payment_method.attached", answer);
}

/// A method kept here. Without an upstream the provider's test card ids
/// (`pm_card_visa`, `pm_card_mastercard`, `pm_card_chargeDeclined`, …) exist too.
pub(crate) fn find<'s>(
    state: &'s mut State,
    ctx: &Ctx,
    id: &str,
    param: &str,
) -> Result<&'s mut PaymentMethod, ApiError> {
    if !state.payment_methods.contains_key(id) && !ctx.has_upstream {
        if let Some(card) = test_card(id) {
            state.payment_methods.insert(id.to_owned(), card);
        }
    }
    state
        .payment_methods
        .get_mut(id)
        .ok_or_else(|| ApiError::no_such("PaymentMethod", id, param))
}

fn test_card(id: &str) -> Option<PaymentMethod> {
    let name = id.strip_prefix("pm_card_")?;
    let (brand, number) = match name {
        "visa" | "visa_debit" => ("visa", "4242424242424242"),
        "mastercard" => ("mastercard", "5555555555554444"),
        "amex" => ("amex", "378282246310005"),
        "chargeDeclined" | "visa_chargeDeclined" => ("visa", "4000000000000002"),
        _ => return None,
    };
    let query = format!("type=card&card[number]={number}&card[exp_month]=12&card[exp_year]=2034");
    let params = Params::read(Some(&query), b"").ok()?;
    let mut card = build(&params).ok()?;
    card.id = id.to_owned();
    card.details["brand"] = json!(brand);
    Some(card)
}

/// A payment method from `type` and that type's details; not kept yet.
pub(crate) fn build(params: &Params) -> Result<PaymentMethod, ApiError> {
    let name = params
        .str(&["type"])
        .ok_or_else(|| ApiError::missing("type"))?;
    let kind = method_type(name).ok_or_else(|| {
        ApiError::invalid_param(
            "type",
            format!(
                "Invalid type: {name} is not a payment method type this test double knows ({}).",
                type_names()
            ),
        )
    })?;
    let field = |key: &str| params.string(&[name, key]);
    let required = |key: &str| {
        params
            .string(&[name, key])
            .ok_or_else(|| ApiError::missing(&format!("{name}[{key}]")))
    };
    let fingerprint = random_text(16);
    let mut declines = false;
    let mut needs_microdeposits = false;
    let details = match name {
        "card" => {
            let number: String = required("number")?
                .chars()
                .filter(|c| !c.is_whitespace())
                .collect();
            if number.len() < 12 || !number.bytes().all(|b| b.is_ascii_digit()) {
                return Err(ApiError::new(
                    axum::http::StatusCode::PAYMENT_REQUIRED,
                    "card_error",
                    "Your card number is incorrect.",
                )
                .code("incorrect_number")
                .param("card[number]"));
            }
            declines = number.ends_with("0002");
            let brand = card_brand(&number);
            json!({
                "brand": brand,
                "checks": {"address_line1_check": null, "address_postal_code_check": null, "cvc_check": field("cvc").map(|_| "pass")},
                "country": "US",
                "display_brand": brand,
                "exp_month": int_field(params, name, "exp_month")?,
                "exp_year": int_field(params, name, "exp_year")?,
                "fingerprint": fingerprint,
                "funding": "credit",
                "generated_from": null,
                "last4": last4(&number),
                "networks": {"available": [brand], "preferred": null},
                "three_d_secure_usage": {"supported": true},
                "wallet": null,
            })
        }
        "sepa_debit" => {
            let iban: String = required("iban")?
                .chars()
                .filter(|c| !c.is_whitespace())
                .collect();
            json!({
                "bank_code": null,
                "branch_code": null,
                "country": iban.get(..2).map(str::to_ascii_uppercase),
                "fingerprint": fingerprint,
                "generated_from": {"charge": null, "setup_attempt": null},
                "last4": last4(&iban),
            })
        }
        "au_becs_debit" => json!({
            "bsb_number": field("bsb_number"),
            "fingerprint": fingerprint,
            "last4": last4(&required("account_number")?),
        }),
        "bacs_debit" => json!({
            "fingerprint": fingerprint,
            "last4": last4(&required("account_number")?),
            "sort_code": field("sort_code"),
        }),
        "acss_debit" => json!({
            "bank_name": "TEST BANK",
            "fingerprint": fingerprint,
            "institution_number": field("institution_number"),
            "last4": last4(&required("account_number")?),
            "transit_number": field("transit_number"),
        }),
        "us_bank_account" => {
            let last4 = last4(&required("account_number")?);
            needs_microdeposits = last4 == "0000";
            json!({
                "account_holder_type": field("account_holder_type").unwrap_or_else(|| "individual".into()),
                "account_type": field("account_type").unwrap_or_else(|| "checking".into()),
                "bank_name": "TEST BANK",
                "financial_connections_account": null,
                "fingerprint": fingerprint,
                "last4": last4,
                "networks": {"preferred": "ach", "supported": ["ach"]},
                "routing_number": field("routing_number"),
                "status_details": null,
            })
        }
        "ideal" => json!({"bank": field("bank"), "bic": null}),
        "bancontact" => json!({
            "bank_code": null,
            "bank_name": null,
            "bic": null,
            "generated_sepa_debit": null,
            "generated_sepa_debit_mandate": null,
            "iban_last4": null,
            "preferred_language": field("preferred_language"),
            "verified_name": null,
        }),
        "eps" | "p24" => json!({"bank": field("bank")}),
        "sofort" => json!({"country": field("country")}),
        "klarna" => json!({"dob": null}),
        "boleto" => json!({"tax_id": field("tax_id")}),
        "cashapp" => json!({"buyer_id": null, "cashtag": null}),
        _ => json!({}),
    };
    let mut metadata = Map::new();
    apply_metadata(&mut metadata, params)?;
    Ok(PaymentMethod {
        id: new_id("pm"),
        kind,
        details,
        billing_details: billing_details(params),
        customer: None,
        metadata,
        created: now(),
        mandate: None,
        declines,
        needs_microdeposits,
    })
}

fn int_field(params: &Params, name: &str, key: &str) -> Result<Option<i64>, ApiError> {
    match params.str(&[name, key]) {
        None => Ok(None),
        Some(text) => text.parse().map(Some).map_err(|_| {
            ApiError::invalid_param(
                &format!("{name}[{key}]"),
                format!("Invalid integer: {text}"),
            )
            .code("parameter_invalid_integer")
        }),
    }
}

fn card_brand(number: &str) -> &'static str {
    if number.starts_with('4') {
        "visa"
    } else if number.starts_with("34") || number.starts_with("37") {
        "amex"
    } else if number.starts_with('5') || number.starts_with('2') {
        "mastercard"
    } else {
        "unknown"
    }
}

/// The last four letters or digits of an account or card number.
fn last4(number: &str) -> String {
    let characters: Vec<char> = number.chars().filter(char::is_ascii_alphanumeric).collect();
    characters[characters.len().saturating_sub(4)..]
        .iter()
        .collect()
}

/// `billing_details[…]` as the provider answers it: every field, `null` when not sent.
fn billing_details(params: &Params) -> Value {
    let field = |path: &[&str]| {
        let mut full = vec!["billing_details"];
        full.extend_from_slice(path);
        params.string(&full)
    };
    json!({
        "address": {
            "city": field(&["address", "city"]),
            "country": field(&["address", "country"]),
            "line1": field(&["address", "line1"]),
            "line2": field(&["address", "line2"]),
            "postal_code": field(&["address", "postal_code"]),
            "state": field(&["address", "state"]),
        },
        "email": field(&["email"]),
        "name": field(&["name"]),
        "phone": field(&["phone"]),
    })
}

/// `metadata[key]=value` merged into `metadata`, the provider's way: an empty value
/// removes its key, and `metadata=` (empty) removes them all.
pub(crate) fn apply_metadata(
    metadata: &mut Map<String, Value>,
    params: &Params,
) -> Result<(), ApiError> {
    match params.value(&["metadata"]) {
        None => Ok(()),
        Some(Value::String(text)) if text.is_empty() => {
            metadata.clear();
            Ok(())
        }
        Some(Value::Object(fields)) => {
            for (key, value) in fields {
                match value {
                    Value::String(text) if text.is_empty() => {
                        metadata.remove(key);
                    }
                    Value::String(_) => {
                        metadata.insert(key.clone(), value.clone());
                    }
                    _ => {
                        return Err(ApiError::invalid_param(
                            &format!("metadata[{key}]"),
                            "Metadata values are strings.",
                        ))
                    }
                }
            }
            Ok(())
        }
        Some(_) => Err(ApiError::invalid_param("metadata", "Invalid object")),
    }
}

/// A list page: `limit` (1 to 100, 10 by default) of `items`, given newest first,
/// after `starting_after` when sent.
pub(crate) fn list_page(params: &Params, url: &str, items: impl Iterator<Item = Value>) -> Answer {
    let limit = params.int("limit")?.unwrap_or(10);
    if !(1..=100).contains(&limit) {
        return Err(ApiError::invalid_param(
            "limit",
            "This value must be between 1 and 100.",
        ));
    }
    let mut items: Vec<Value> = items.collect();
    if let Some(after) = params.str(&["starting_after"]) {
        if let Some(at) = items.iter().position(|item| item["id"] == after) {
            items.drain(..=at);
        }
    }
    let has_more = items.len() > limit as usize;
    items.truncate(limit as usize);
    Ok(json!({"object": "list", "data": items, "has_more": has_more, "url": url}))
}
