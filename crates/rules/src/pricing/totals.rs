//! Prices a cart for the shopper's addresses: coupon discounts, shipping rates per
//! package, taxes per line and per rate, and the totals. The cart view, the checkout and
//! the order all read one `Pricing`, so what the shopper saw is what the order charges.

use super::coupons::{self, CartContext, Coupon, CouponCode, CouponError, CouponKind, CouponLine};
use super::rules::{ShopRules, TaxBasedOn};
use super::shipping::{self, Destination, Package, PackageLine, ShippingRate};
use super::tax::{self, LineTax, Location, PricesEntered, RateTax, TaxClass, TaxLine};
use crate::address::{Address, CustomerDetails};
use crate::cart::model::StoredCart;
use crate::catalog::index::Catalog;
use crate::catalog::model::{Product, ProductKind};

/// One priced cart line. Amounts are minor units, before tax (`*_tax` beside them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinePrice {
    pub key: String,
    pub product_id: i64,
    pub quantity: i64,
    /// The catalogue price of one unit, as entered (with or without tax).
    pub unit_price: i64,
    pub regular_price: i64,
    pub on_sale: bool,
    pub subtotal: i64,
    pub subtotal_tax: i64,
    pub total: i64,
    pub total_tax: i64,
    /// The taxes on `total`, per rate.
    pub taxes: Vec<RateTax>,
    pub needs_shipping: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CouponPrice {
    pub code: CouponCode,
    pub kind: CouponKind,
    pub discount: i64,
    pub discount_tax: i64,
    pub free_shipping: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RatePrice {
    pub rate: ShippingRate,
    pub tax: LineTax,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackagePrice {
    pub name: String,
    pub destination: Destination,
    /// Line keys in this package.
    pub line_keys: Vec<String>,
    pub rates: Vec<RatePrice>,
    /// The chosen rate id: the customer's choice when still offered, else the first.
    pub chosen: Option<String>,
}

impl PackagePrice {
    pub fn chosen_rate(&self) -> Option<&RatePrice> {
        let id = self.chosen.as_deref()?;
        self.rates.iter().find(|r| r.rate.rate_id == id)
    }
}

/// A coupon in the cart that no longer applies, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CouponProblem {
    pub code: String,
    pub error: CouponError,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Pricing {
    pub lines: Vec<LinePrice>,
    pub coupons: Vec<CouponPrice>,
    pub coupon_problems: Vec<CouponProblem>,
    pub packages: Vec<PackagePrice>,
    pub needs_shipping: bool,
    /// Whether a destination is known, so shipping could be quoted.
    pub has_calculated_shipping: bool,
    pub items_total: i64,
    pub items_tax: i64,
    pub discount_total: i64,
    pub discount_tax: i64,
    pub shipping_total: i64,
    pub shipping_tax: i64,
    pub tax_lines: Vec<TaxLine>,
    pub total_tax: i64,
    pub total: i64,
}

impl Pricing {
    pub fn line(&self, key: &str) -> Option<&LinePrice> {
        self.lines.iter().find(|l| l.key == key)
    }

    pub fn coupon_codes(&self) -> Vec<CouponCode> {
        self.coupons.iter().map(|c| c.code.clone()).collect()
    }
}

/// What pricing needs besides the cart: the stored coupons for its codes (in any order;
/// unknown codes are reported as problems).
pub struct PricingInput<'a> {
    pub catalog: &'a Catalog,
    pub rules: &'a ShopRules,
    pub cart: &'a StoredCart,
    pub coupons: &'a [Coupon],
    pub now: i64,
}

/// The coupon rules' view of the cart's lines (before any discount).
pub fn coupon_lines(catalog: &Catalog, cart: &StoredCart) -> Vec<CouponLine> {
    cart.items
        .iter()
        .filter_map(|line| {
            let product = catalog.shown(line.id)?;
            let parent = product.parent_id.and_then(|id| catalog.product(id));
            let prices = catalog.prices(product);
            let unit = prices.price?;
            let regular = prices.regular.unwrap_or(unit);
            Some(CouponLine {
                key: line.key.clone(),
                product_id: product.id,
                parent_id: parent.map(|p| p.id),
                category_ids: parent.unwrap_or(product).category_ids.clone(),
                on_sale: unit < regular,
                unit_price: unit,
                quantity: line.quantity,
                line_subtotal: unit.saturating_mul(line.quantity),
            })
        })
        .collect()
}

/// The address taxes are worked out for.
pub fn tax_location(rules: &ShopRules, customer: &CustomerDetails) -> Location {
    let from = |a: &Address| Location {
        country: a.country.trim().to_uppercase(),
        state: a.state.trim().to_uppercase(),
        postcode: a.postcode.trim().to_string(),
        city: a.city.trim().to_string(),
    };
    let base = rules.taxes.base.clone();
    let pick = |a: &Address| {
        if a.country.trim().is_empty() {
            base.clone()
        } else {
            from(a)
        }
    };
    match rules.taxes.based_on {
        TaxBasedOn::ShopBase => base,
        TaxBasedOn::Billing => pick(&customer.billing),
        TaxBasedOn::Shipping => {
            if customer.shipping.country.trim().is_empty() {
                pick(&customer.billing)
            } else {
                from(&customer.shipping)
            }
        }
    }
}

fn tax_class(product: &Product, parent: Option<&Product>) -> TaxClass {
    let own = product.tax_class.trim();
    let class = if own.is_empty() {
        parent.map_or("", |p| p.tax_class.trim())
    } else {
        own
    };
    if class.is_empty() {
        TaxClass::standard()
    } else {
        TaxClass(class.to_string())
    }
}

/// Prices the cart. Coupons that no longer apply are left out of the totals and listed
/// in `coupon_problems`; usage per customer is checked when the order is placed.
pub fn price(input: &PricingInput<'_>) -> Pricing {
    let PricingInput {
        catalog,
        rules,
        cart,
        now,
        ..
    } = *input;
    let clines = coupon_lines(catalog, cart);
    let billing_email = Some(cart.customer.billing.email.trim()).filter(|e| !e.is_empty());

    // Coupons in the order they were applied, each checked against those before it.
    let mut valid: Vec<Coupon> = Vec::new();
    let mut problems = Vec::new();
    for raw in &cart.coupons {
        let Ok(code) = CouponCode::parse(raw) else {
            continue;
        };
        let stored = input.coupons.iter().find(|c| c.code == code);
        let applied: Vec<CouponCode> = valid.iter().map(|c| c.code.clone()).collect();
        let individual = valid.iter().find(|c| c.individual_use).map(|c| &c.code);
        let ctx = CartContext {
            lines: &clines,
            applied_codes: &applied,
            individual_use_applied: individual,
            billing_email,
            customer_usage: 0,
            now,
        };
        match coupons::validate(&code, stored, &ctx) {
            Ok(()) => valid.push(stored.expect("validated coupon exists").clone()),
            Err(error) => problems.push(CouponProblem {
                code: code.as_str().to_string(),
                error,
            }),
        }
    }
    let discounts = coupons::discounts(&valid, &clines);

    let taxes_on = rules.taxes.enabled;
    let entered = rules.taxes.prices_entered;
    let location = tax_location(rules, &cart.customer);

    let mut lines = Vec::new();
    let mut item_taxes: Vec<LineTax> = Vec::new();
    let mut discount_tax_total = 0i64;
    let mut needs_shipping = false;
    for cl in &clines {
        let Some(product) = catalog.shown(cl.product_id) else {
            continue;
        };
        let parent = product.parent_id.and_then(|id| catalog.product(id));
        let discount = discounts.per_line.get(&cl.key).copied().unwrap_or(0);
        let after = cl.line_subtotal.saturating_sub(discount).max(0);
        let rates = if taxes_on {
            tax::find_rates(&rules.taxes.rates, &tax_class(product, parent), &location)
        } else {
            Vec::new()
        };
        let before_tax = tax::tax_line(cl.line_subtotal, &rates, entered);
        let after_tax = tax::tax_line(after, &rates, entered);
        discount_tax_total += before_tax.total_tax() - after_tax.total_tax();
        let ships = product.kind != ProductKind::External;
        needs_shipping |= ships;
        let regular = catalog.prices(product).regular.unwrap_or(cl.unit_price);
        lines.push(LinePrice {
            key: cl.key.clone(),
            product_id: product.id.0,
            quantity: cl.quantity,
            unit_price: cl.unit_price,
            regular_price: regular,
            on_sale: cl.on_sale,
            subtotal: before_tax.net,
            subtotal_tax: before_tax.total_tax(),
            total: after_tax.net,
            total_tax: after_tax.total_tax(),
            taxes: after_tax.taxes.clone(),
            needs_shipping: ships,
        });
        item_taxes.push(after_tax);
    }

    let items_total: i64 = lines.iter().map(|l| l.subtotal).sum();
    let items_tax: i64 = lines.iter().map(|l| l.subtotal_tax).sum();
    let after_discount: i64 = lines.iter().map(|l| l.total).sum();
    let discount_total = items_total - after_discount;

    // Each coupon's share of the discount tax, in proportion to its discount; the last
    // coupon takes what rounding left so the parts add up.
    let mut coupon_prices = Vec::new();
    let entered_total: i64 = discounts.total();
    let mut tax_left = discount_tax_total;
    let mut net_left = discount_total;
    for (i, c) in valid.iter().enumerate() {
        let entered_amount = discounts.per_coupon.get(&c.code).copied().unwrap_or(0);
        let last = i + 1 == valid.len();
        let (net, tax_part) = if last {
            (net_left, tax_left)
        } else if entered_total == 0 {
            (0, 0)
        } else {
            let share = |whole: i64| {
                (i128::from(whole) * i128::from(entered_amount) / i128::from(entered_total)) as i64
            };
            (share(discount_total), share(discount_tax_total))
        };
        net_left -= net;
        tax_left -= tax_part;
        coupon_prices.push(CouponPrice {
            code: c.code.clone(),
            kind: c.kind,
            discount: net,
            discount_tax: tax_part,
            free_shipping: c.free_shipping,
        });
    }

    // One package holding everything that ships.
    let ship_to = if cart.customer.shipping.country.trim().is_empty() {
        &cart.customer.billing
    } else {
        &cart.customer.shipping
    };
    let destination = Destination {
        country: ship_to.country.trim().to_uppercase(),
        state: ship_to.state.trim().to_uppercase(),
        postcode: ship_to.postcode.trim().to_string(),
    };
    let has_destination = !destination.country.is_empty();
    let mut packages = Vec::new();
    let shipped: Vec<&LinePrice> = lines.iter().filter(|l| l.needs_shipping).collect();
    if needs_shipping && has_destination {
        let package = Package {
            lines: shipped
                .iter()
                .map(|l| PackageLine {
                    quantity: u32::try_from(l.quantity).unwrap_or(u32::MAX),
                    shipping_class: catalog
                        .product(crate::catalog::model::ProductId(l.product_id))
                        .map(|p| {
                            let parent = p.parent_id.and_then(|id| catalog.product(id));
                            if p.shipping_class.is_empty() {
                                parent.map_or(String::new(), |x| x.shipping_class.clone())
                            } else {
                                p.shipping_class.clone()
                            }
                        })
                        .unwrap_or_default(),
                    line_total: l.total,
                })
                .collect(),
            contents_cost: shipped
                .iter()
                .map(|l| gross_entered(l, entered, true))
                .sum(),
            has_free_shipping_coupon: valid.iter().any(|c| c.free_shipping),
            discount_total: shipped
                .iter()
                .map(|l| gross_entered(l, entered, true) - gross_entered(l, entered, false))
                .sum(),
        };
        let zone = shipping::zone_for(&rules.shipping, &destination);
        let shipping_rates = if taxes_on {
            tax::find_shipping_rates(&rules.taxes.rates, &rules.taxes.shipping_class, &location)
        } else {
            Vec::new()
        };
        let rates: Vec<RatePrice> = shipping::rates_for(zone, &package)
            .into_iter()
            .map(|rate| {
                let tax = if rate.taxable {
                    tax::tax_shipping(rate.cost, &shipping_rates)
                } else {
                    tax::tax_shipping(rate.cost, &[])
                };
                RatePrice { rate, tax }
            })
            .collect();
        let wanted = cart.customer.chosen_shipping.first();
        let chosen = wanted
            .filter(|id| rates.iter().any(|r| &r.rate.rate_id == *id))
            .cloned()
            .or_else(|| rates.first().map(|r| r.rate.rate_id.clone()));
        packages.push(PackagePrice {
            name: "Shipment 1".into(),
            destination,
            line_keys: shipped.iter().map(|l| l.key.clone()).collect(),
            rates,
            chosen,
        });
    }
    let shipping_taxes: Vec<LineTax> = packages
        .iter()
        .filter_map(|p| p.chosen_rate().map(|r| r.tax.clone()))
        .collect();
    let shipping_total: i64 = shipping_taxes.iter().map(|t| t.net).sum();
    let shipping_tax: i64 = shipping_taxes.iter().map(|t| t.total_tax()).sum();
    let tax_lines = tax::tax_lines(&rules.taxes.rates, &item_taxes, &shipping_taxes);
    let total_tax: i64 = tax_lines.iter().map(|t| t.total()).sum();
    let lines_tax: i64 = lines.iter().map(|l| l.total_tax).sum();
    let total = after_discount + lines_tax + shipping_total + shipping_tax;
    Pricing {
        lines,
        coupons: coupon_prices,
        coupon_problems: problems,
        packages,
        needs_shipping,
        has_calculated_shipping: has_destination,
        items_total,
        items_tax,
        discount_total,
        discount_tax: discount_tax_total,
        shipping_total,
        shipping_tax,
        tax_lines,
        total_tax,
        total: total.max(0),
    }
}

/// A line's amount as prices were entered: before (`subtotal`) or after discounts.
fn gross_entered(line: &LinePrice, entered: PricesEntered, before_discount: bool) -> i64 {
    let (net, tax) = if before_discount {
        (line.subtotal, line.subtotal_tax)
    } else {
        (line.total, line.total_tax)
    };
    match entered {
        PricesEntered::ExclusiveOfTax => net,
        PricesEntered::InclusiveOfTax => net + tax,
    }
}
