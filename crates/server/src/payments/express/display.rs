//! A priced cart as the wallet sheet shows it: its lines (or one subtotal), tax,
//! shipping and discount, and the total, each in the currency's minor units. Every
//! figure is read from the `Pricing` the checkout charges (`rules::pricing::totals`),
//! never worked out again.

use serde_json::{json, Value};

use rules::catalog::index::Catalog;
use rules::catalog::model::ProductId;
use rules::pricing::totals::Pricing;

use crate::state::AppState;

/// The sheet's line for the total: the statement descriptor the shopper's bank shows,
/// or the shop's name.
pub fn total_label(state: &AppState) -> String {
    let descriptor = state.config.payments.statement_descriptor.trim();
    if descriptor.is_empty() {
        state.config.shop_name.clone()
    } else {
        descriptor.to_string()
    }
}

/// A line's label: the product's name, with the quantity when more than one.
fn line_label(catalog: &Catalog, product_id: i64, quantity: i64) -> String {
    let name = catalog
        .product(ProductId(product_id))
        .map_or_else(|| "Product".to_string(), |p| p.name.clone());
    if quantity > 1 {
        format!("{name} (x{quantity})")
    } else {
        name
    }
}

/// `{displayItems, total}` for a cart: one item per line when `itemized`, otherwise a
/// subtotal; then the tax (when the shop charges tax), the shipping (when the cart
/// ships) and the discount (when a coupon gives one), as the original lists them.
pub fn cart_display(
    state: &AppState,
    catalog: &Catalog,
    pricing: &Pricing,
    itemized: bool,
) -> Value {
    let mut items = Vec::new();
    if itemized {
        for line in &pricing.lines {
            items.push(json!({
                "label": line_label(catalog, line.product_id, line.quantity),
                "amount": line.subtotal,
            }));
        }
    } else {
        items.push(json!({"label": "Subtotal", "amount": pricing.items_total}));
    }
    if catalog.rules.taxes.enabled {
        items.push(json!({"label": "Tax", "amount": pricing.total_tax}));
    }
    if pricing.needs_shipping {
        items.push(json!({
            "key": "total_shipping",
            "label": "Shipping",
            "amount": pricing.shipping_total,
        }));
    }
    if pricing.discount_total > 0 {
        items.push(json!({
            "key": "total_discount",
            "label": "Discount",
            "amount": pricing.discount_total,
        }));
    }
    json!({
        "displayItems": items,
        "total": {
            "label": total_label(state),
            "amount": pricing.total.max(0),
            "pending": false,
        },
    })
}

/// `{displayItems, total}` for a product not yet in a cart (the product page's
/// button): its line and tax, with shipping still to come (`pending`) when it ships.
/// `pricing` prices a cart holding only that product.
pub fn product_display(
    state: &AppState,
    catalog: &Catalog,
    pricing: &Pricing,
    request_shipping: bool,
) -> Value {
    let mut items: Vec<Value> = pricing
        .lines
        .iter()
        .map(|line| {
            json!({
                "label": line_label(catalog, line.product_id, line.quantity),
                "amount": line.subtotal,
            })
        })
        .collect();
    // Shipping is quoted once the wallet gives an address: until then the total is the
    // goods and their tax.
    let items_tax = pricing.total_tax - pricing.shipping_tax;
    if catalog.rules.taxes.enabled {
        items.push(json!({"label": "Tax", "amount": items_tax, "pending": items_tax == 0}));
    }
    if request_shipping {
        items.push(json!({"label": "Shipping", "amount": 0, "pending": true}));
    }
    let total = (pricing.total - pricing.shipping_total - pricing.shipping_tax).max(0);
    json!({
        "displayItems": items,
        "total": {"label": total_label(state), "amount": total, "pending": true},
    })
}

/// Whether the shop ships at all: some zone has a method switched on. Read from the
/// shop's rules (a handful of zones), never from the catalogue.
pub fn shop_ships(catalog: &Catalog) -> bool {
    let zones = &catalog.rules.shipping;
    zones
        .zones
        .iter()
        .chain(std::iter::once(&zones.rest_of_world))
        .any(|zone| zone.methods.iter().any(|m| m.enabled))
}

/// The shop's country, for the sheet (`country_code`).
pub fn country_code(state: &AppState) -> String {
    state
        .config
        .checkout
        .default_country
        .chars()
        .take(2)
        .collect::<String>()
        .to_ascii_uppercase()
}

/// The currency as the provider writes it (`usd`).
pub fn currency(state: &AppState) -> String {
    state.config.currency.code.to_ascii_lowercase()
}
