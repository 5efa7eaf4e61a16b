//! Orders and order notes in the original shop's REST API v3 shape, so a shop owner's
//! existing tools read them. Amounts are decimal strings in the shop's decimals,
//! written from integer minor units; the two fields that format writes as JSON numbers
//! (a line's `price`, a tax line's `rate_percent`) are written from the same digits.

use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::{json, Value};

use rules::address::Address;
use rules::clock::iso_date;
use rules::money::{CurrencyFormat, Money};
use rules::orders::model::{Order, OrderNote, OrderStatus, TaxAmount};

pub use crate::http::STAFF_API_ROOT as API_ROOT;

/// What rendering needs besides the order: the currency and the shop's address.
pub struct StaffView<'a> {
    pub currency: &'a CurrencyFormat,
    /// The shop's address without a trailing slash, for `_links`.
    pub base_url: &'a str,
}

#[derive(Serialize)]
pub struct V3Order {
    id: i64,
    parent_id: i64,
    status: &'static str,
    currency: String,
    version: &'static str,
    prices_include_tax: bool,
    date_created: String,
    date_modified: String,
    discount_total: String,
    discount_tax: String,
    shipping_total: String,
    shipping_tax: String,
    cart_tax: String,
    total: String,
    total_tax: String,
    customer_id: i64,
    order_key: String,
    billing: Value,
    shipping: Value,
    payment_method: String,
    payment_method_title: String,
    transaction_id: String,
    customer_ip_address: &'static str,
    customer_user_agent: &'static str,
    created_via: String,
    customer_note: String,
    date_completed: Option<String>,
    date_paid: Option<String>,
    cart_hash: String,
    number: String,
    meta_data: [(); 0],
    line_items: Vec<V3LineItem>,
    tax_lines: Vec<V3TaxLine>,
    shipping_lines: Vec<Value>,
    fee_lines: [(); 0],
    coupon_lines: Vec<Value>,
    refunds: [(); 0],
    payment_url: String,
    is_editable: bool,
    needs_payment: bool,
    needs_processing: bool,
    date_created_gmt: String,
    date_modified_gmt: String,
    date_completed_gmt: Option<String>,
    date_paid_gmt: Option<String>,
    currency_symbol: String,
    _links: Value,
}

#[derive(Serialize)]
struct V3LineItem {
    id: i64,
    name: String,
    product_id: i64,
    variation_id: i64,
    quantity: i64,
    tax_class: &'static str,
    subtotal: String,
    subtotal_tax: String,
    total: String,
    total_tax: String,
    taxes: Vec<Value>,
    meta_data: Vec<Value>,
    sku: String,
    /// The unit price the line was sold at, as a JSON number.
    price: Box<RawValue>,
    parent_name: Option<String>,
}

#[derive(Serialize)]
struct V3TaxLine {
    id: i64,
    rate_code: String,
    rate_id: u64,
    label: String,
    compound: bool,
    tax_total: String,
    shipping_tax_total: String,
    rate_percent: Box<RawValue>,
    meta_data: [(); 0],
}

/// A decimal already written as digits ("29.35", "7.25"), as a JSON number.
fn number(digits: &str) -> Box<RawValue> {
    let valid = !digits.is_empty()
        && digits.trim_start_matches('-').split('.').count() <= 2
        && digits
            .trim_start_matches('-')
            .bytes()
            .all(|b| b.is_ascii_digit() || b == b'.')
        && !digits.trim_start_matches('-').starts_with('.')
        && !digits.ends_with('.');
    let text = if valid { digits } else { "0" };
    RawValue::from_string(text.to_string())
        .unwrap_or_else(|_| RawValue::from_string("0".to_string()).expect("0 is a JSON number"))
}

fn address(a: &Address, with_email: bool) -> Value {
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

fn taxes(list: &[TaxAmount], money: &impl Fn(i64) -> String, subtotal: bool) -> Vec<Value> {
    list.iter()
        .map(|t| {
            json!({
                "id": t.rate_id,
                "total": money(t.amount),
                "subtotal": if subtotal { money(t.amount) } else { String::new() },
            })
        })
        .collect()
}

impl StaffView<'_> {
    fn money(&self) -> impl Fn(i64) -> String + '_ {
        |minor| self.currency.format_decimal(Money::new(minor))
    }

    pub fn order_url(&self, order: &Order) -> String {
        format!("{}{API_ROOT}/orders/{}", self.base_url, order.id.0)
    }

    pub fn order(&self, order: &Order) -> V3Order {
        let money = self.money();
        let items_tax: i64 = order.lines.items.iter().map(|i| i.total_tax).sum();
        // Line ids in the original are unique across an order's lines of every kind;
        // ours number the items first, then the other lines after them.
        let mut next_id = order.lines.items.iter().map(|i| i.id).max().unwrap_or(0);
        let mut line_id = || {
            next_id += 1;
            next_id
        };
        let line_items = order
            .lines
            .items
            .iter()
            .map(|i| V3LineItem {
                id: i.id,
                name: i.name.clone(),
                product_id: i.product_id,
                variation_id: i.variation_id,
                quantity: i.quantity,
                tax_class: "",
                subtotal: money(i.subtotal),
                subtotal_tax: money(i.subtotal_tax),
                total: money(i.total),
                total_tax: money(i.total_tax),
                // The per-rate taxes are kept for the line's total; they are its
                // subtotal's too when no discount came off the line.
                taxes: taxes(&i.taxes, &money, i.subtotal == i.total),
                meta_data: i
                    .variation
                    .iter()
                    .enumerate()
                    .map(|(n, v)| {
                        json!({
                            "id": n + 1, "key": v.attribute, "value": v.value,
                            "display_key": v.attribute, "display_value": v.value,
                        })
                    })
                    .collect(),
                sku: i.sku.clone(),
                price: number(&money(i.price)),
                parent_name: None,
            })
            .collect();
        let shipping_lines = order
            .lines
            .shipping
            .iter()
            .map(|s| {
                json!({
                    "id": line_id(), "method_title": s.name, "method_id": s.method_id,
                    "instance_id": s.instance_id.to_string(), "total": money(s.total),
                    "total_tax": money(s.total_tax), "taxes": taxes(&s.taxes, &money, false),
                    "meta_data": [],
                })
            })
            .collect();
        let tax_lines = order
            .lines
            .taxes
            .iter()
            .map(|t| V3TaxLine {
                id: line_id(),
                rate_code: format!("{}-{}", t.label.to_uppercase().replace(' ', "-"), t.rate_id),
                rate_id: t.rate_id,
                label: t.label.clone(),
                compound: t.compound,
                tax_total: money(t.tax_total),
                shipping_tax_total: money(t.shipping_tax_total),
                // Kept as the checkout showed it, "7.25%".
                rate_percent: number(t.rate_percent.trim().trim_end_matches('%')),
                meta_data: [],
            })
            .collect();
        let coupon_lines = order
            .lines
            .coupons
            .iter()
            .map(|c| {
                json!({
                    "id": line_id(), "code": c.code, "discount": money(c.discount),
                    "discount_tax": money(c.discount_tax), "meta_data": [],
                })
            })
            .collect();
        let date = |t: Option<i64>| t.map(iso_date);
        let status = order.status;
        V3Order {
            id: order.id.0,
            parent_id: 0,
            status: status.as_str(),
            currency: order.currency.clone(),
            version: env!("CARGO_PKG_VERSION"),
            prices_include_tax: order.prices_include_tax,
            date_created: iso_date(order.created_at),
            date_modified: iso_date(order.updated_at),
            discount_total: money(order.discount_total),
            discount_tax: money(order.discount_tax),
            shipping_total: money(order.shipping_total),
            shipping_tax: money(order.shipping_tax),
            cart_tax: money(items_tax),
            total: money(order.total),
            total_tax: money(order.total_tax),
            customer_id: order.customer_id.unwrap_or(0),
            order_key: order.key.clone(),
            billing: address(&order.billing, true),
            shipping: address(&order.shipping, false),
            payment_method: order.payment_method.clone(),
            payment_method_title: order.payment_method_title.clone(),
            transaction_id: order.transaction_id.clone(),
            customer_ip_address: "",
            customer_user_agent: "",
            created_via: order.created_via.clone(),
            customer_note: order.customer_note.clone(),
            date_completed: date(order.completed_at),
            date_paid: date(order.paid_at),
            cart_hash: order.cart_hash.clone(),
            number: order.number(),
            meta_data: [],
            line_items,
            tax_lines,
            shipping_lines,
            fee_lines: [],
            coupon_lines,
            refunds: [],
            payment_url: format!("{}{}", self.base_url, order.pay_path()),
            is_editable: matches!(
                status,
                OrderStatus::Pending | OrderStatus::OnHold | OrderStatus::CheckoutDraft
            ),
            needs_payment: status.needs_payment(),
            needs_processing: status == OrderStatus::Processing,
            date_created_gmt: iso_date(order.created_at),
            date_modified_gmt: iso_date(order.updated_at),
            date_completed_gmt: date(order.completed_at),
            date_paid_gmt: date(order.paid_at),
            currency_symbol: self.currency.symbol.clone(),
            _links: json!({
                "self": [{"href": self.order_url(order)}],
                "collection": [{"href": format!("{}{API_ROOT}/orders", self.base_url)}],
            }),
        }
    }

    pub fn note(&self, note: &OrderNote) -> Value {
        let order_url = format!("{}{API_ROOT}/orders/{}", self.base_url, note.order_id.0);
        json!({
            "id": note.id.0,
            "author": note.actor,
            "date_created": iso_date(note.created_at),
            "date_created_gmt": iso_date(note.created_at),
            "note": note.note,
            "customer_note": note.for_customer,
            "_links": {
                "self": [{"href": format!("{order_url}/notes/{}", note.id.0)}],
                "collection": [{"href": format!("{order_url}/notes")}],
                "up": [{"href": order_url}],
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use rules::orders::model::*;

    fn order() -> Order {
        Order {
            id: OrderId(58),
            key: "wc_order_abc".into(),
            status: OrderStatus::Processing,
            customer_id: Some(7),
            currency: "EUR".into(),
            prices_include_tax: false,
            billing: Address {
                email: "ada@example.test".into(),
                ..Address::default()
            },
            shipping: Address::default(),
            customer_note: String::new(),
            payment_method: "cod".into(),
            payment_method_title: "Cash on delivery".into(),
            transaction_id: String::new(),
            created_via: "checkout".into(),
            cart_hash: String::new(),
            lines: OrderLines {
                items: vec![OrderItem {
                    id: 1,
                    product_id: 12,
                    variation_id: 0,
                    name: "Lamp".into(),
                    sku: "L-1".into(),
                    quantity: 3,
                    variation: vec![],
                    price: 123456,
                    subtotal: 370368,
                    subtotal_tax: 0,
                    total: 350000,
                    total_tax: 25375,
                    taxes: vec![TaxAmount {
                        rate_id: 4,
                        amount: 25375,
                    }],
                    reduced_stock: true,
                }],
                shipping: vec![ShippingLine {
                    method_id: "flat_rate".into(),
                    instance_id: 2,
                    name: "Flat rate".into(),
                    total: 500,
                    total_tax: 36,
                    taxes: vec![TaxAmount {
                        rate_id: 4,
                        amount: 36,
                    }],
                }],
                coupons: vec![CouponLine {
                    code: "save".into(),
                    discount: 20368,
                    discount_tax: 0,
                }],
                taxes: vec![OrderTaxLine {
                    rate_id: 4,
                    label: "CA State Tax".into(),
                    rate_percent: "7.25%".into(),
                    compound: false,
                    tax_total: 25375,
                    shipping_tax_total: 36,
                }],
            },
            subtotal: 370368,
            discount_total: 20368,
            discount_tax: 0,
            shipping_total: 500,
            shipping_tax: 36,
            total_tax: 25411,
            total: 375911,
            stock_reduced: true,
            hold_expires_at: None,
            created_at: 1_795_349_639,
            updated_at: 1_795_349_700,
            paid_at: Some(1_795_349_700),
            completed_at: None,
        }
    }

    #[test]
    fn an_order_reads_as_the_originals_v3_order() {
        let currency = CurrencyFormat {
            thousand_separator: ".".into(),
            decimal_separator: ",".into(),
            ..CurrencyFormat::usd()
        };
        let v = StaffView {
            currency: &currency,
            base_url: "https://shop.example",
        };
        let json = serde_json::to_value(v.order(&order())).unwrap();
        assert_eq!(json["total"], "3759.11");
        assert_eq!(json["discount_total"], "203.68");
        assert_eq!(json["shipping_tax"], "0.36");
        assert_eq!(json["cart_tax"], "253.75");
        assert_eq!(json["date_created"], "2026-11-22T12:13:59");
        assert_eq!(json["date_paid"], "2026-11-22T12:15:00");
        assert_eq!(json["date_completed"], Value::Null);
        assert_eq!(json["customer_id"], 7);
        let line = &json["line_items"][0];
        assert_eq!(line["price"], json!(1234.56));
        assert_eq!(line["subtotal"], "3703.68");
        assert_eq!(
            line["taxes"],
            json!([{"id": 4, "total": "253.75", "subtotal": ""}])
        );
        assert_eq!(json["shipping_lines"][0]["id"], 2);
        assert_eq!(json["shipping_lines"][0]["instance_id"], "2");
        assert_eq!(json["tax_lines"][0]["id"], 3);
        assert_eq!(json["tax_lines"][0]["rate_percent"], json!(7.25));
        assert_eq!(json["tax_lines"][0]["shipping_tax_total"], "0.36");
        assert_eq!(json["coupon_lines"][0]["id"], 4);
        assert_eq!(json["coupon_lines"][0]["discount"], "203.68");
        assert_eq!(
            json["_links"]["self"][0]["href"],
            "https://shop.example/wp-json/wc/v3/orders/58"
        );
        // The JSON number is the digits themselves, not a float's rendering.
        let text = serde_json::to_string(&v.order(&order())).unwrap();
        assert!(text.contains("\"price\":1234.56,"), "{text}");
        assert!(text.contains("\"rate_percent\":7.25,"), "{text}");
    }

    #[test]
    fn numbers_are_written_from_their_digits() {
        assert_eq!(number("29.35").get(), "29.35");
        assert_eq!(number("-0.05").get(), "-0.05");
        assert_eq!(number("7").get(), "7");
        assert_eq!(number("1e9").get(), "0");
        assert_eq!(number("").get(), "0");
        assert_eq!(number(".5").get(), "0");
    }
}
