//! The cart as the Store API shows it, priced from the catalogue snapshot.

use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;

use crate::catalog::view::{image_view, low_stock_remaining, ImageView, ViewContext};
use rules::address::Address;
use rules::cart::model::StoredCart;
use rules::catalog::index::Catalog;
use rules::catalog::model::{max_quantity, min_quantity, Backorders, ProductId, ProductKind};
use rules::money::CurrencyFields;
use rules::pricing::coupons::CouponKind;
use rules::pricing::totals::{LinePrice, PackagePrice, Pricing};

/// The currency fields that close every money object of the cart, made once per
/// answer and shared by all of them.
#[derive(Clone)]
pub struct Currency(Arc<CurrencyFields>);

impl Serialize for Currency {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

#[derive(Serialize)]
pub struct QuantityLimits {
    pub minimum: i64,
    pub maximum: i64,
    pub multiple_of: i64,
    pub editable: bool,
}

#[derive(Serialize)]
pub struct RawPrices {
    pub precision: u32,
    pub price: String,
    pub regular_price: String,
    pub sale_price: String,
}

#[derive(Serialize)]
pub struct ItemPrices {
    pub price: String,
    pub regular_price: String,
    pub sale_price: String,
    pub price_range: Option<Value>,
    #[serde(flatten)]
    pub currency: Currency,
    pub raw_prices: RawPrices,
}

#[derive(Serialize)]
pub struct ItemTotals {
    pub line_subtotal: String,
    pub line_subtotal_tax: String,
    pub line_total: String,
    pub line_total_tax: String,
    #[serde(flatten)]
    pub currency: Currency,
}

#[derive(Serialize)]
pub struct ItemVariation {
    pub attribute: String,
    pub value: String,
}

#[derive(Serialize)]
pub struct CartItemView {
    pub key: String,
    pub id: i64,
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub quantity: i64,
    pub quantity_limits: QuantityLimits,
    pub name: String,
    pub short_description: String,
    pub description: String,
    pub sku: String,
    pub low_stock_remaining: Option<i64>,
    pub backorders_allowed: bool,
    pub show_backorder_badge: bool,
    pub sold_individually: bool,
    pub permalink: String,
    pub images: Vec<ImageView>,
    pub variation: Vec<ItemVariation>,
    pub item_data: Vec<Value>,
    pub prices: ItemPrices,
    pub totals: ItemTotals,
    pub catalog_visibility: &'static str,
    pub extensions: Value,
}

#[derive(Serialize, Default)]
pub struct AddressView {
    pub first_name: String,
    pub last_name: String,
    pub company: String,
    pub address_1: String,
    pub address_2: String,
    pub city: String,
    pub state: String,
    pub postcode: String,
    pub country: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    pub phone: String,
}

#[derive(Serialize)]
pub struct CartTotals {
    pub total_items: String,
    pub total_items_tax: String,
    pub total_fees: String,
    pub total_fees_tax: String,
    pub total_discount: String,
    pub total_discount_tax: String,
    pub total_shipping: String,
    pub total_shipping_tax: String,
    pub total_price: String,
    pub total_tax: String,
    pub tax_lines: Vec<TaxLineView>,
    #[serde(flatten)]
    pub currency: Currency,
}

#[derive(Serialize)]
pub struct CartView {
    pub coupons: Vec<CouponView>,
    pub shipping_rates: Vec<PackageView>,
    pub shipping_address: AddressView,
    pub billing_address: AddressView,
    pub items: Vec<CartItemView>,
    pub items_count: i64,
    pub items_weight: f64,
    pub cross_sells: Vec<Value>,
    pub needs_payment: bool,
    pub needs_shipping: bool,
    pub has_calculated_shipping: bool,
    pub fees: Vec<Value>,
    pub totals: CartTotals,
    pub errors: Vec<CartErrorView>,
    pub payment_methods: Vec<String>,
    pub payment_requirements: Vec<String>,
    pub extensions: Value,
}

#[derive(Serialize)]
pub struct TaxLineView {
    pub name: String,
    pub price: String,
    pub rate: String,
}

#[derive(Serialize)]
pub struct CartErrorView {
    pub code: &'static str,
    pub message: String,
}

#[derive(Serialize)]
pub struct CouponView {
    pub code: String,
    pub discount_type: &'static str,
    pub totals: CouponTotals,
}

#[derive(Serialize)]
pub struct CouponTotals {
    pub total_discount: String,
    pub total_discount_tax: String,
    #[serde(flatten)]
    pub currency: Currency,
}

/// A shipping package as the Store API lists it, with its rates.
#[derive(Serialize)]
pub struct PackageView {
    pub package_id: usize,
    pub name: String,
    pub destination: PackageDestination,
    pub items: Vec<PackageItem>,
    pub shipping_rates: Vec<ShippingRateView>,
}

#[derive(Serialize)]
pub struct PackageDestination {
    pub address_1: &'static str,
    pub address_2: &'static str,
    pub city: &'static str,
    pub state: String,
    pub postcode: String,
    pub country: String,
}

#[derive(Serialize)]
pub struct PackageItem {
    pub key: String,
    pub name: String,
    pub quantity: i64,
}

#[derive(Serialize)]
pub struct ShippingRateView {
    pub rate_id: String,
    pub name: String,
    pub description: &'static str,
    pub delivery_time: &'static str,
    pub price: String,
    pub taxes: String,
    pub instance_id: u64,
    pub method_id: String,
    pub meta_data: [(); 0],
    pub selected: bool,
    #[serde(flatten)]
    pub currency: Currency,
}

/// A cart line priced for display: used by the Store API view and the fragments.
pub struct PricedLine<'a> {
    pub line: &'a rules::cart::model::CartLine,
    pub product: &'a rules::catalog::model::Product,
    pub parent: Option<&'a rules::catalog::model::Product>,
    pub unit_price: i64,
    pub regular_price: i64,
    pub line_total: i64,
}

/// Lines whose product is still published and has a price, priced now. A line whose
/// product was withdrawn (deleted, or back to a draft) is left out rather than shown
/// at a stale price.
pub fn priced_lines<'a>(catalog: &'a Catalog, cart: &'a StoredCart) -> Vec<PricedLine<'a>> {
    cart.items
        .iter()
        .filter_map(|line| {
            let product = catalog.shown(line.id)?;
            let parent = product.parent_id.and_then(|id| catalog.product(id));
            let prices = catalog.prices(product);
            let unit_price = prices.price?;
            Some(PricedLine {
                line,
                product,
                parent,
                unit_price,
                regular_price: prices.regular.unwrap_or(unit_price),
                line_total: unit_price.saturating_mul(line.quantity),
            })
        })
        .collect()
}

/// The Store API cart. `pricing` is the cart priced for the shopper's addresses
/// (see `checkout::totals`); `payment_methods` are the ids of the enabled gateways.
/// How many cross-sells a cart lists at most.
const CROSS_SELLS: usize = 4;

/// The products the cart's products suggest ("You may be interested in…"): each
/// line's cross-sells in order, once, leaving out what the cart already holds and
/// what cannot be bought.
fn cross_sells(ctx: &ViewContext, catalog: &Catalog, lines: &[PricedLine]) -> Vec<Value> {
    let in_cart: Vec<ProductId> = lines
        .iter()
        .map(|l| l.parent.map_or(l.product.id, |p| p.id))
        .collect();
    let mut chosen: Vec<ProductId> = Vec::new();
    for l in lines {
        let source = l.parent.unwrap_or(l.product);
        for id in &source.cross_sell_ids {
            if chosen.len() == CROSS_SELLS {
                break;
            }
            if !in_cart.contains(id) && !chosen.contains(id) {
                chosen.push(*id);
            }
        }
    }
    chosen
        .into_iter()
        .filter_map(|id| catalog.shown(id))
        .filter(|p| {
            catalog.is_in_stock(p) && (catalog.is_purchasable(p) || p.kind == ProductKind::External)
        })
        .filter_map(|p| {
            serde_json::to_value(crate::catalog::view::product_view(ctx, catalog, p)).ok()
        })
        .collect()
}

pub fn cart_view(
    ctx: &ViewContext,
    catalog: &Catalog,
    cart: &StoredCart,
    pricing: &Pricing,
    payment_methods: &[&str],
) -> CartView {
    let currency = Currency(Arc::new(ctx.currency.api_fields()));
    let lines = priced_lines(catalog, cart);
    let mut total_items = 0i64;
    let mut weight_grams = 0i64;
    let mut needs_shipping = false;
    let items: Vec<CartItemView> = lines
        .iter()
        .map(|l| {
            let p = l.product;
            total_items = total_items.saturating_add(l.line_total);
            let weight = p
                .weight_grams
                .or(l.parent.and_then(|x| x.weight_grams))
                .unwrap_or(0);
            weight_grams = weight_grams.saturating_add(weight.saturating_mul(l.line.quantity));
            needs_shipping |= p.kind != ProductKind::External;
            let image_ids = if p.image_ids.is_empty() {
                l.parent.map_or(&p.image_ids, |x| &x.image_ids)
            } else {
                &p.image_ids
            };
            // A variation's prices scaled to six places, as the original's raw_prices are.
            let scale = 10i64.pow(6u32.saturating_sub(ctx.currency.decimals));
            let sale = if l.unit_price < l.regular_price {
                l.unit_price
            } else {
                l.regular_price
            };
            CartItemView {
                key: l.line.key.clone(),
                id: p.id.0,
                kind: p.kind.as_str(),
                quantity: l.line.quantity,
                quantity_limits: QuantityLimits {
                    minimum: min_quantity(p, l.parent),
                    maximum: max_quantity(p, l.parent).max(l.line.quantity),
                    multiple_of: 1,
                    editable: !(p.sold_individually
                        || l.parent.is_some_and(|x| x.sold_individually)),
                },
                name: l.parent.map_or_else(|| p.name.clone(), |x| x.name.clone()),
                short_description: l
                    .parent
                    .map_or(&p.short_description, |x| &x.short_description)
                    .clone(),
                description: l.parent.map_or(&p.description, |x| &x.description).clone(),
                sku: p.sku.clone(),
                low_stock_remaining: low_stock_remaining(p),
                backorders_allowed: p.backorders != Backorders::No,
                show_backorder_badge: p.backorders != Backorders::No
                    && p.manage_stock
                    && p.stock_quantity.unwrap_or(0) < l.line.quantity,
                sold_individually: p.sold_individually,
                permalink: ctx.product_url(p, catalog),
                images: image_ids
                    .iter()
                    .take(1)
                    .filter_map(|id| catalog.media(*id))
                    .map(|m| image_view(ctx, m))
                    .collect(),
                variation: l
                    .line
                    .variation
                    .iter()
                    .map(|v| ItemVariation {
                        attribute: catalog.attribute_label(&v.attribute),
                        value: catalog.value_name(&v.attribute, &v.value),
                    })
                    .collect(),
                item_data: Vec::new(),
                prices: ItemPrices {
                    price: l.unit_price.to_string(),
                    regular_price: l.regular_price.to_string(),
                    sale_price: sale.to_string(),
                    price_range: None,
                    currency: currency.clone(),
                    raw_prices: RawPrices {
                        precision: 6,
                        price: l.unit_price.saturating_mul(scale).to_string(),
                        regular_price: l.regular_price.saturating_mul(scale).to_string(),
                        sale_price: sale.saturating_mul(scale).to_string(),
                    },
                },
                totals: {
                    let priced = pricing.line(&l.line.key);
                    let field = |f: fn(&LinePrice) -> i64, fallback: i64| {
                        priced.map_or(fallback, f).to_string()
                    };
                    ItemTotals {
                        line_subtotal: field(|p| p.subtotal, l.line_total),
                        line_subtotal_tax: field(|p| p.subtotal_tax, 0),
                        line_total: field(|p| p.total, l.line_total),
                        line_total_tax: field(|p| p.total_tax, 0),
                        currency: currency.clone(),
                    }
                },
                catalog_visibility: "visible",
                extensions: Value::Object(Default::default()),
            }
        })
        .collect();
    let items_count = lines.iter().map(|l| l.line.quantity).sum();
    let _ = total_items;
    let money = |v: i64| v.to_string();
    CartView {
        coupons: pricing
            .coupons
            .iter()
            .map(|c| CouponView {
                code: c.code.as_str().to_string(),
                discount_type: match c.kind {
                    CouponKind::Percent { .. } => "percent",
                    CouponKind::FixedCart { .. } => "fixed_cart",
                    CouponKind::FixedProduct { .. } => "fixed_product",
                },
                totals: CouponTotals {
                    total_discount: money(c.discount),
                    total_discount_tax: money(c.discount_tax),
                    currency: currency.clone(),
                },
            })
            .collect(),
        shipping_rates: pricing
            .packages
            .iter()
            .enumerate()
            .map(|(i, p)| package_view(i, p, &lines, &currency))
            .collect(),
        shipping_address: address_view(&cart.customer.shipping, false),
        billing_address: address_view(&cart.customer.billing, true),
        items,
        items_count,
        // Weight is not money: a display figure in kilograms.
        items_weight: weight_grams as f64 / 1000.0,
        cross_sells: cross_sells(ctx, catalog, &lines),
        needs_payment: pricing.total > 0,
        needs_shipping,
        has_calculated_shipping: pricing.has_calculated_shipping,
        fees: Vec::new(),
        totals: CartTotals {
            total_items: money(pricing.items_total),
            total_items_tax: money(pricing.items_tax),
            total_fees: "0".into(),
            total_fees_tax: "0".into(),
            total_discount: money(pricing.discount_total),
            total_discount_tax: money(pricing.discount_tax),
            total_shipping: money(pricing.shipping_total),
            total_shipping_tax: money(pricing.shipping_tax),
            total_price: money(pricing.total),
            total_tax: money(pricing.total_tax),
            tax_lines: pricing
                .tax_lines
                .iter()
                .map(|t| TaxLineView {
                    name: t.name.clone(),
                    price: money(t.total()),
                    rate: t.rate.to_string(),
                })
                .collect(),
            currency: currency.clone(),
        },
        errors: pricing
            .coupon_problems
            .iter()
            .map(|p| CartErrorView {
                code: p.error.code(),
                message: p
                    .error
                    .message(&|m| ctx.currency.format_plain(rules::money::Money { minor: m })),
            })
            .collect(),
        payment_methods: payment_methods.iter().map(|m| m.to_string()).collect(),
        payment_requirements: vec!["products".into()],
        extensions: Value::Object(Default::default()),
    }
}

fn address_view(a: &Address, billing: bool) -> AddressView {
    AddressView {
        first_name: a.first_name.clone(),
        last_name: a.last_name.clone(),
        company: a.company.clone(),
        address_1: a.address_1.clone(),
        address_2: a.address_2.clone(),
        city: a.city.clone(),
        state: a.state.clone(),
        postcode: a.postcode.clone(),
        country: a.country.clone(),
        email: billing.then(|| a.email.clone()),
        phone: a.phone.clone(),
    }
}

fn package_view(
    index: usize,
    package: &PackagePrice,
    lines: &[PricedLine<'_>],
    currency: &Currency,
) -> PackageView {
    let d = &package.destination;
    PackageView {
        package_id: index,
        name: package.name.clone(),
        destination: PackageDestination {
            address_1: "",
            address_2: "",
            city: "",
            state: d.state.clone(),
            postcode: d.postcode.clone(),
            country: d.country.clone(),
        },
        items: lines
            .iter()
            .filter(|l| package.line_keys.contains(&l.line.key))
            .map(|l| PackageItem {
                key: l.line.key.clone(),
                name: l.parent.map_or(&l.product.name, |p| &p.name).clone(),
                quantity: l.line.quantity,
            })
            .collect(),
        shipping_rates: package
            .rates
            .iter()
            .map(|r| ShippingRateView {
                rate_id: r.rate.rate_id.clone(),
                name: r.rate.label.clone(),
                description: "",
                delivery_time: "",
                price: r.tax.net.to_string(),
                taxes: r.tax.total_tax().to_string(),
                instance_id: r.rate.instance_id.0,
                method_id: r.rate.method_id.clone(),
                meta_data: [],
                selected: package.chosen.as_deref() == Some(r.rate.rate_id.as_str()),
                currency: currency.clone(),
            })
            .collect(),
    }
}
