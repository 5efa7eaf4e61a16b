//! How an order is shown: the Store API's checkout answer, and the fuller order the
//! storefront's thank-you, order-pay and account pages read.

use rules::clock::iso_date;
use serde::Serialize;
use serde_json::{json, Value};

use rules::address::Address;
use rules::money::CurrencyFormat;
use rules::orders::model::Order;
use rules::payments::{BankAccount, GatewayKind, Gateways};

/// The Store API's address shape: billing with `email`, shipping without.
pub fn address_json(a: &Address, with_email: bool) -> Value {
    let mut v = json!({
        "first_name": a.first_name, "last_name": a.last_name, "company": a.company,
        "address_1": a.address_1, "address_2": a.address_2, "city": a.city,
        "state": a.state, "postcode": a.postcode, "country": a.country,
    });
    if with_email {
        v["email"] = json!(a.email);
    }
    v["phone"] = json!(a.phone);
    v
}

/// The Store API `/checkout` answer for an order.
pub fn checkout_json(order: &Order, payment: Option<(&str, &str)>) -> Value {
    let (payment_status, redirect) = payment.unwrap_or(("", ""));
    let details = if payment_status.is_empty() {
        json!([])
    } else {
        json!([{"key": "result", "value": "success"}, {"key": "redirect", "value": redirect}])
    };
    json!({
        "order_id": order.id.0,
        "status": order.status.as_str(),
        "order_key": order.key,
        "customer_note": order.customer_note,
        "customer_id": order.customer_id.unwrap_or(0),
        "billing_address": address_json(&order.billing, true),
        "shipping_address": address_json(&order.shipping, false),
        "payment_method": order.payment_method,
        "payment_result": {
            "payment_status": payment_status,
            "payment_details": details,
            "redirect_url": redirect,
        },
        "extensions": {},
    })
}

#[derive(Serialize)]
pub struct OrderSummary {
    pub id: i64,
    pub number: String,
    pub date_created: String,
    pub status: &'static str,
    pub status_label: &'static str,
    pub total: String,
    pub item_count: i64,
    pub order_key: String,
    #[serde(flatten)]
    pub currency: rules::money::CurrencyFields,
}

pub fn summary(order: &Order, currency: &CurrencyFormat) -> OrderSummary {
    OrderSummary {
        id: order.id.0,
        number: order.number(),
        date_created: iso_date(order.created_at),
        status: order.status.as_str(),
        status_label: order.status.label(),
        total: order.total.to_string(),
        item_count: order.item_count(),
        order_key: order.key.clone(),
        currency: currency.api_fields(),
    }
}

/// The whole order for the storefront's pages.
pub fn order_json(
    order: &Order,
    currency: &CurrencyFormat,
    gateways: &Gateways,
    base_url: &str,
) -> Value {
    let gateway = gateways.find(&order.payment_method);
    let bank_accounts: &[BankAccount] = match gateway.map(|g| g.kind) {
        Some(GatewayKind::Bacs) if order.status.as_str() == "on-hold" => &gateways.bank_accounts,
        _ => &[],
    };
    let instructions = gateway
        .filter(|_| matches!(order.status.as_str(), "on-hold" | "processing" | "pending"))
        .map(|g| g.instructions.clone());
    let items: Vec<Value> = order
        .lines
        .items
        .iter()
        .map(|i| {
            json!({
                "id": i.id, "product_id": i.product_id, "variation_id": i.variation_id,
                "name": i.name, "sku": i.sku, "quantity": i.quantity, "variation": i.variation,
                "price": i.price.to_string(),
                "subtotal": i.subtotal.to_string(), "subtotal_tax": i.subtotal_tax.to_string(),
                "total": i.total.to_string(), "total_tax": i.total_tax.to_string(),
            })
        })
        .collect();
    let mut totals = json!({
        "subtotal": order.subtotal.to_string(),
        "discount": order.discount_total.to_string(),
        "discount_tax": order.discount_tax.to_string(),
        "shipping": order.shipping_total.to_string(),
        "shipping_tax": order.shipping_tax.to_string(),
        "tax": order.total_tax.to_string(),
        "total": order.total.to_string(),
    });
    if let (Value::Object(t), Ok(Value::Object(c))) =
        (&mut totals, serde_json::to_value(currency.api_fields()))
    {
        t.extend(c);
    }
    json!({
        "id": order.id.0,
        "number": order.number(),
        "order_key": order.key,
        "status": order.status.as_str(),
        "status_label": order.status.label(),
        "date_created": iso_date(order.created_at),
        "customer_id": order.customer_id.unwrap_or(0),
        "customer_note": order.customer_note,
        "billing_address": address_json(&order.billing, true),
        "shipping_address": address_json(&order.shipping, false),
        "payment_method": order.payment_method,
        "payment_method_title": order.payment_method_title,
        "needs_payment": order.status.needs_payment(),
        "pay_url": format!("{base_url}{}", order.pay_path()),
        "received_url": format!("{base_url}{}", order.received_path()),
        "items": items,
        "shipping_lines": order.lines.shipping.iter().map(|s| json!({
            "method_id": s.method_id, "instance_id": s.instance_id, "name": s.name,
            "total": s.total.to_string(), "total_tax": s.total_tax.to_string(),
        })).collect::<Vec<_>>(),
        "coupon_lines": order.lines.coupons.iter().map(|c| json!({
            "code": c.code, "discount": c.discount.to_string(), "discount_tax": c.discount_tax.to_string(),
        })).collect::<Vec<_>>(),
        "fee_lines": [],
        "tax_lines": order.lines.taxes.iter().map(|t| json!({
            "rate_id": t.rate_id, "label": t.label, "rate_percent": t.rate_percent, "compound": t.compound,
            "tax_total": t.tax_total.to_string(), "shipping_tax_total": t.shipping_tax_total.to_string(),
        })).collect::<Vec<_>>(),
        "totals": totals,
        "payment_instructions": instructions,
        "bank_accounts": bank_accounts,
    })
}
