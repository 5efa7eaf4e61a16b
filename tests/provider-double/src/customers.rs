//! Customers, kept here only when there is no upstream (with one, every customer call
//! is forwarded to it).

use serde_json::{json, Map};

use crate::error::{Answer, ApiError};
use crate::methods::{self, apply_metadata, list_page};
use crate::objects::{now, random_text, Customer};
use crate::state::{Ctx, State};

/// `POST /v1/customers`.
pub(crate) fn create(state: &mut State, ctx: &Ctx) -> Answer {
    ctx.require_secret()?;
    let params = ctx.params;
    let mut metadata = Map::new();
    apply_metadata(&mut metadata, params)?;
    let method = params.string(&["payment_method"]);
    if let Some(method) = &method {
        methods::find(state, ctx, method, "payment_method")?;
    }
    let customer = Customer {
        id: format!("cus_{}", random_text(14)),
        email: params.string(&["email"]),
        name: params.string(&["name"]),
        phone: params.string(&["phone"]),
        description: params.string(&["description"]),
        default_payment_method: None,
        metadata,
        created: now(),
    };
    let id = customer.id.clone();
    state.customers.insert(id.clone(), customer);
    if let Some(method) = &method {
        methods::attach_to(state, method, &id);
    }
    set_default_method(state, ctx, &id)?;
    Ok(state.customers[&id].to_json())
}

/// `GET /v1/customers/{id}`.
pub(crate) fn retrieve(state: &mut State, ctx: &Ctx, id: &str) -> Answer {
    ctx.require_secret()?;
    Ok(find(state, id)?.to_json())
}

/// `POST /v1/customers/{id}`: only what is sent changes.
pub(crate) fn update(state: &mut State, ctx: &Ctx, id: &str) -> Answer {
    ctx.require_secret()?;
    let params = ctx.params;
    let mut metadata = find(state, id)?.metadata.clone();
    apply_metadata(&mut metadata, params)?;
    set_default_method(state, ctx, id)?;
    let customer = state.customers.get_mut(id).expect("found above");
    customer.metadata = metadata;
    for (field, value) in [
        (&mut customer.email, params.string(&["email"])),
        (&mut customer.name, params.string(&["name"])),
        (&mut customer.phone, params.string(&["phone"])),
        (&mut customer.description, params.string(&["description"])),
    ] {
        if value.is_some() {
            *field = value;
        }
    }
    Ok(customer.to_json())
}

/// `DELETE /v1/customers/{id}`: its methods are detached.
pub(crate) fn delete(state: &mut State, ctx: &Ctx, id: &str) -> Answer {
    ctx.require_secret()?;
    find(state, id)?;
    state.customers.shift_remove(id);
    for method in state.payment_methods.values_mut() {
        if method.customer.as_deref() == Some(id) {
            method.customer = None;
        }
    }
    Ok(json!({"id": id, "object": "customer", "deleted": true}))
}

/// `GET /v1/customers?limit=&email=`: newest first.
pub(crate) fn list(state: &mut State, ctx: &Ctx) -> Answer {
    ctx.require_secret()?;
    let email = ctx.params.str(&["email"]);
    let customers = state
        .customers
        .values()
        .rev()
        .filter(|customer| email.is_none_or(|email| customer.email.as_deref() == Some(email)))
        .map(Customer::to_json);
    list_page(ctx.params, "/v1/customers", customers)
}

fn find<'s>(state: &'s State, id: &str) -> Result<&'s Customer, ApiError> {
    state
        .customers
        .get(id)
        .ok_or_else(|| ApiError::no_such("customer", id, "id"))
}

/// `invoice_settings[default_payment_method]`: a method attached to the customer.
fn set_default_method(state: &mut State, ctx: &Ctx, id: &str) -> Result<(), ApiError> {
    let param = "invoice_settings[default_payment_method]";
    let Some(value) = ctx
        .params
        .value(&["invoice_settings", "default_payment_method"])
    else {
        return Ok(());
    };
    let method = value.as_str().unwrap_or_default();
    if !method.is_empty() {
        let attached = methods::find(state, ctx, method, param)?
            .customer
            .as_deref()
            == Some(id);
        if !attached {
            return Err(ApiError::no_such("PaymentMethod", method, param).with(
                "message",
                json!(format!(
                    "The customer does not have a payment method with the ID {method}. The payment method must be attached to the customer."
                )),
            ));
        }
    }
    let customer = state.customers.get_mut(id).expect("a kept customer");
    customer.default_payment_method = (!method.is_empty()).then(|| method.to_owned());
    Ok(())
}
