//! The classic checkout's server-written markup: the order review table, the payment box
//! and the notices its calls answer with, laid out like the original shop's templates so
//! its checkout script finds what it looks for. The markup is in askama templates
//! (`templates/checkout/`), which escape everything that comes from the shopper, the
//! catalogue or the configuration; only `markup::trusted` lets markup through unescaped.

use std::fmt::Write;

use askama::Template;

use crate::config::checkout::Terms;
use crate::markup::{rendered, trusted, Markup};
use rules::cart::model::{CartLine, StoredCart};
use rules::catalog::index::Catalog;
use rules::money::{CurrencyFormat, Money};
use rules::payments::Gateway;
use rules::pricing::rules::ShopRules;
use rules::pricing::tax::{PricesEntered, TaxDisplay, TaxLine};
use rules::pricing::totals::{CouponPrice, PackagePrice, Pricing};

/// What the markup needs besides the cart: where links point, how money is written and
/// the catalogue the lines are named from.
pub struct ReviewContext<'a> {
    pub base_url: &'a str,
    pub currency: &'a CurrencyFormat,
    pub catalog: &'a Catalog,
}

impl ReviewContext<'_> {
    fn money(&self, minor: i64) -> String {
        self.currency.format_html(Money { minor })
    }

    fn rules(&self) -> &ShopRules {
        &self.catalog.rules
    }

    /// Whether the cart and checkout show amounts with their tax included.
    fn shows_tax_included(&self) -> bool {
        let taxes = &self.rules().taxes;
        taxes.enabled && taxes.display_cart == TaxDisplay::IncludingTax
    }

    fn prices_include_tax(&self) -> bool {
        self.rules().taxes.prices_entered == PricesEntered::InclusiveOfTax
    }

    /// An amount as the cart shows it, with the original's note when the shown amount
    /// and the entered prices differ about tax.
    fn amount_with_tax_note(&self, net: i64, tax: i64) -> String {
        if self.shows_tax_included() {
            let mut out = self.money(net + tax);
            if tax > 0 && !self.prices_include_tax() {
                out.push_str(" <small class=\"tax_label\">(incl. tax)</small>");
            }
            out
        } else {
            let mut out = self.money(net);
            if tax > 0 && self.prices_include_tax() {
                out.push_str(" <small class=\"tax_label\">(ex. tax)</small>");
            }
            out
        }
    }
}

/// One line of a notice list.
pub struct Notice {
    body: NoticeBody,
    /// The form field the notice is about, for the script to mark it.
    field_id: Option<String>,
}

enum NoticeBody {
    /// Plain text (it may quote codes and names the shopper typed): the template escapes it.
    Text(String),
    /// Markup the shop wrote itself.
    Markup(Markup),
}

impl Notice {
    /// A notice from plain text (names and codes in it are escaped).
    pub fn text(message: &str) -> Self {
        Self {
            body: NoticeBody::Text(message.to_string()),
            field_id: None,
        }
    }

    /// A notice from markup the shop wrote itself, such as the rules' field messages.
    pub fn markup(html: impl Into<String>) -> Self {
        Self {
            body: NoticeBody::Markup(trusted(html.into())),
            field_id: None,
        }
    }

    pub fn for_field(mut self, field_id: &str) -> Self {
        self.field_id = Some(field_id.to_string());
        self
    }
}

#[derive(Template)]
#[template(path = "checkout/error_notices.html")]
struct ErrorNotices<'a> {
    notices: &'a [Notice],
}

/// `<ul class="woocommerce-error">` with one item per notice; empty for no notices.
pub fn error_notices(notices: &[Notice]) -> String {
    if notices.is_empty() {
        return String::new();
    }
    rendered(&ErrorNotices { notices })
}

#[derive(Template)]
#[template(path = "checkout/success_notice.html")]
struct SuccessNotice<'a> {
    notice: &'a Notice,
}

/// The success notice, `<div class="woocommerce-message">`.
pub fn success_notice(notice: &Notice) -> String {
    rendered(&SuccessNotice { notice })
}

#[derive(Template)]
#[template(path = "checkout/session_expired.html")]
struct SessionExpired<'a> {
    base_url: &'a str,
}

/// The error shown when the session holds no cart any more.
pub fn session_expired(base_url: &str) -> Notice {
    Notice::markup(rendered(&SessionExpired { base_url }))
}

/// WordPress's `sanitize_title` for the ASCII the shop's ids use: lowercase, spaces to
/// dashes, anything but letters, digits, `_` and `-` dropped ("flat_rate:1" →
/// "flat_rate1").
pub fn sanitize_title(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.trim().chars() {
        match ch {
            'a'..='z' | '0'..='9' | '_' => out.push(ch),
            'A'..='Z' => out.push(ch.to_ascii_lowercase()),
            '-' | ' ' | '\t' if !out.ends_with('-') => out.push('-'),
            _ => {}
        }
    }
    out.trim_matches('-').to_string()
}

/// Percent-encodes everything but the unreserved characters, as PHP's `rawurlencode`.
fn raw_url_encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(b as char);
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// A cart line's name as the order will record it: a variation is its product's name
/// with the chosen values ("Hoodie - Blue, M").
pub fn item_name(catalog: &Catalog, line: &CartLine) -> String {
    let Some(product) = catalog.product(line.id) else {
        return String::new();
    };
    match product.parent_id.and_then(|id| catalog.product(id)) {
        Some(parent) if !line.variation.is_empty() => {
            let values: Vec<String> = line
                .variation
                .iter()
                .map(|v| catalog.value_name(&v.attribute, &v.value))
                .collect();
            format!("{} - {}", parent.name, values.join(", "))
        }
        Some(parent) => parent.name.clone(),
        None => product.name.clone(),
    }
}

#[derive(Template)]
#[template(path = "checkout/review_order_table.html")]
struct ReviewTable {
    lines: Vec<ReviewLine>,
    subtotal: Markup,
    coupons: Vec<CouponRow>,
    /// Empty when the cart needs no shipping.
    shipping: Vec<ShippingRow>,
    taxes: Vec<TaxRow>,
    total: Markup,
    /// The taxes "(includes …)" names after the total, when amounts include tax.
    included_taxes: Vec<TaxRow>,
}

struct ReviewLine {
    name: String,
    quantity: i64,
    total: Markup,
}

struct CouponRow {
    class: String,
    code: String,
    discount: Markup,
    remove_url: String,
}

struct ShippingRow {
    index: usize,
    name: String,
    body: ShippingBody,
}

enum ShippingBody {
    Message(&'static str),
    Rates(Vec<RateItem>),
}

/// One rate to choose; a package's single rate is a hidden input, as the original
/// writes it.
struct RateItem {
    id: String,
    dom_id: String,
    single: bool,
    checked: bool,
    label: String,
    /// ": $5.00" after the label; empty for free pickup and free shipping.
    price: Markup,
}

struct TaxRow {
    class: String,
    label: String,
    amount: Markup,
}

/// The `table.woocommerce-checkout-review-order-table` fragment.
pub fn review_order_table(ctx: &ReviewContext, cart: &StoredCart, pricing: &Pricing) -> String {
    let lines = cart
        .items
        .iter()
        .filter_map(|line| {
            // A line pricing left out (its product is gone) is not shown, as in the original.
            let price = pricing.line(&line.key).filter(|p| p.quantity > 0)?;
            Some(ReviewLine {
                name: item_name(ctx.catalog, line),
                quantity: price.quantity,
                total: trusted(ctx.amount_with_tax_note(price.subtotal, price.subtotal_tax)),
            })
        })
        .collect();
    let coupons = pricing
        .coupons
        .iter()
        .map(|coupon| coupon_row(ctx, coupon))
        .collect();
    let shipping = if pricing.needs_shipping {
        shipping_rows(ctx, pricing)
    } else {
        Vec::new()
    };
    let tax_row = |line: &TaxLine| TaxRow {
        class: sanitize_title(&rate_code(ctx.rules(), line)),
        label: tax_label(line),
        amount: trusted(ctx.money(line.total())),
    };
    let taxes_enabled = ctx.rules().taxes.enabled;
    let (taxes, included_taxes) = if !taxes_enabled {
        (Vec::new(), Vec::new())
    } else if ctx.shows_tax_included() {
        (Vec::new(), shown_tax_lines(pricing).map(tax_row).collect())
    } else {
        (shown_tax_lines(pricing).map(tax_row).collect(), Vec::new())
    };
    rendered(&ReviewTable {
        lines,
        subtotal: trusted(ctx.amount_with_tax_note(pricing.items_total, pricing.items_tax)),
        coupons,
        shipping,
        taxes,
        total: trusted(ctx.money(pricing.total)),
        included_taxes,
    })
}

/// `-$10.50 [Remove]` for one applied coupon.
fn coupon_row(ctx: &ReviewContext, coupon: &CouponPrice) -> CouponRow {
    let amount = if ctx.shows_tax_included() {
        coupon.discount + coupon.discount_tax
    } else {
        coupon.discount
    };
    let discount = if coupon.free_shipping && amount == 0 {
        "Free shipping coupon".to_string()
    } else {
        // The original filters this cell through its HTML sanitiser, which drops `bdi`.
        format!(
            "-{}",
            ctx.money(amount).replace("<bdi>", "").replace("</bdi>", "")
        )
    };
    let code = coupon.code.as_str();
    CouponRow {
        class: sanitize_title(code),
        code: code.to_string(),
        discount: trusted(discount),
        remove_url: format!(
            "{}/checkout/?remove_coupon={}",
            ctx.base_url,
            raw_url_encode(code)
        ),
    }
}

const ENTER_ADDRESS: &str = "Enter your address to view shipping options.";

/// One `tr.woocommerce-shipping-totals` per package, with its rates to choose from.
fn shipping_rows(ctx: &ReviewContext, pricing: &Pricing) -> Vec<ShippingRow> {
    if pricing.packages.is_empty() {
        return vec![ShippingRow {
            index: 0,
            name: "Shipping".to_string(),
            body: ShippingBody::Message(ENTER_ADDRESS),
        }];
    }
    pricing
        .packages
        .iter()
        .enumerate()
        .map(|(index, package)| {
            let name = if index == 0 {
                "Shipping".to_string()
            } else {
                format!("Shipping {}", index + 1)
            };
            let body = if package.rates.is_empty() {
                ShippingBody::Message(if pricing.has_calculated_shipping {
                    "There are no shipping options available. Please ensure that your address has been entered correctly, or contact us if you need any help."
                } else {
                    ENTER_ADDRESS
                })
            } else {
                ShippingBody::Rates(rate_items(ctx, index, package))
            };
            ShippingRow { index, name, body }
        })
        .collect()
}

fn rate_items(ctx: &ReviewContext, index: usize, package: &PackagePrice) -> Vec<RateItem> {
    let single = package.rates.len() == 1;
    package
        .rates
        .iter()
        .map(|r| {
            let id = &r.rate.rate_id;
            RateItem {
                id: id.clone(),
                dom_id: format!("shipping_method_{index}_{}", sanitize_title(id)),
                single,
                checked: package.chosen.as_deref() == Some(id.as_str()),
                label: r.rate.label.clone(),
                price: trusted(rate_price(ctx, r)),
            }
        })
        .collect()
}

/// ": $5.00" after a rate's label; free pickup and free shipping show no price.
fn rate_price(ctx: &ReviewContext, r: &rules::pricing::totals::RatePrice) -> String {
    let mut label = String::new();
    let cost = r.tax.net;
    let tax = r.tax.total_tax();
    let hides_cost =
        cost <= 0 && matches!(r.rate.method_id.as_str(), "free_shipping" | "local_pickup");
    if cost > 0 && !hides_cost {
        if ctx.shows_tax_included() {
            let _ = write!(label, ": {}", ctx.money(cost + tax));
            if tax > 0 && !ctx.prices_include_tax() {
                label.push_str(" <small class=\"tax_label\">(incl. tax)</small>");
            }
        } else {
            let _ = write!(label, ": {}", ctx.money(cost));
            if tax > 0 && ctx.prices_include_tax() {
                label.push_str(" <small class=\"tax_label\">(ex. tax)</small>");
            }
        }
    }
    label
}

/// Tax lines with something to show (the original hides zero taxes).
fn shown_tax_lines(pricing: &Pricing) -> impl Iterator<Item = &TaxLine> {
    pricing.tax_lines.iter().filter(|t| t.total() != 0)
}

fn tax_label(line: &TaxLine) -> String {
    if line.name.trim().is_empty() {
        "Tax".to_string()
    } else {
        line.name.clone()
    }
}

/// The original's rate code, `COUNTRY-STATE-NAME-PRIORITY` with empty parts left out.
fn rate_code(rules: &ShopRules, line: &TaxLine) -> String {
    let Some(rate) = rules.taxes.rates.iter().find(|r| r.id == line.rate_id) else {
        return format!("{}-{}", tax_label(line), line.rate_id.0);
    };
    let name = if rate.name.trim().is_empty() {
        "TAX".to_string()
    } else {
        rate.name.clone()
    };
    let priority = rate.priority.to_string();
    [
        rate.country.as_str(),
        rate.state.as_str(),
        name.as_str(),
        priority.as_str(),
    ]
    .iter()
    .filter(|p| !p.trim().is_empty())
    .map(|p| p.to_uppercase())
    .collect::<Vec<_>>()
    .join("-")
}

/// What the payment box shows besides the shop's gateways.
pub struct PaymentBox<'a> {
    pub gateways: &'a [Gateway],
    /// The method the shopper picked; the first one when none (or an unknown one) was.
    pub chosen: Option<&'a str>,
    /// False when the order costs nothing: no methods are offered then.
    pub needs_payment: bool,
    pub terms: Option<&'a Terms>,
    pub terms_checked: bool,
    /// The `woocommerce-process-checkout-nonce` the form submits.
    pub nonce: &'a str,
    /// The address the form was written for (`_wp_http_referer`).
    pub referer: &'a str,
}

#[derive(Template)]
#[template(path = "checkout/checkout_payment.html")]
struct PaymentHtml<'a> {
    /// None when the order costs nothing: no methods are offered then.
    methods: Option<Vec<PaymentMethod<'a>>>,
    terms: Option<TermsBox<'a>>,
    nonce: &'a str,
    referer: &'a str,
}

struct PaymentMethod<'a> {
    id: &'a str,
    title: &'a str,
    /// None for a method without one: no description box is written.
    description: Option<&'a str>,
    button_text: &'a str,
    chosen: bool,
}

struct TermsBox<'a> {
    text: &'a str,
    url: String,
    checked: bool,
}

/// The `div.woocommerce-checkout-payment` fragment: methods, terms and the place-order
/// button with the checkout nonce.
pub fn checkout_payment(ctx: &ReviewContext, payment: &PaymentBox) -> String {
    let methods = payment.needs_payment.then(|| {
        let chosen = payment
            .chosen
            .filter(|id| payment.gateways.iter().any(|g| g.id == *id))
            .or_else(|| payment.gateways.first().map(|g| g.id));
        payment
            .gateways
            .iter()
            .map(|g| PaymentMethod {
                id: g.id,
                title: &g.title,
                description: Some(g.description.as_str()).filter(|d| !d.trim().is_empty()),
                button_text: g.order_button_text.as_deref().unwrap_or(""),
                chosen: chosen == Some(g.id),
            })
            .collect()
    });
    let terms = payment.terms.map(|terms| TermsBox {
        text: &terms.text,
        url: if terms.page_url.is_empty() {
            // No terms page: the link unfolds the terms shown just above.
            "#terms".to_string()
        } else if terms.page_url.starts_with('/') {
            format!("{}{}", ctx.base_url, terms.page_url)
        } else {
            terms.page_url.clone()
        },
        checked: payment.terms_checked,
    });
    rendered(&PaymentHtml {
        methods,
        terms,
        nonce: payment.nonce,
        referer: payment.referer,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_keep_only_id_characters() {
        assert_eq!(sanitize_title("flat_rate:1"), "flat_rate1");
        assert_eq!(
            sanitize_title("US-CA-CA STATE TAX-1"),
            "us-ca-ca-state-tax-1"
        );
        assert_eq!(sanitize_title("Ten Off!"), "ten-off");
    }

    #[test]
    fn error_notices_carry_field_ids_and_the_original_layout() {
        let html = error_notices(&[
            Notice::markup("<strong>Billing First name</strong> is a required field.")
                .for_field("billing_first_name"),
            Notice::text("Coupon \"<b>\" does not exist!"),
        ]);
        assert_eq!(
            html,
            "<ul class=\"woocommerce-error\" role=\"alert\">\n\t\t\t<li data-id=\"billing_first_name\">\n\t\t\t<strong>Billing First name</strong> is a required field.\t\t</li>\n\t\t\t<li>\n\t\t\tCoupon \"&lt;b&gt;\" does not exist!\t\t</li>\n\t</ul>\n"
        );
        assert_eq!(error_notices(&[]), "");
    }

    #[test]
    fn success_notice_matches_the_original_layout() {
        assert_eq!(
            success_notice(&Notice::text("Coupon code applied successfully.")),
            "\n\t<div class=\"woocommerce-message\" role=\"alert\">\n\t\tCoupon code applied successfully.\t</div>\n"
        );
    }

    #[test]
    fn coupon_codes_are_url_encoded_in_remove_links() {
        assert_eq!(raw_url_encode("a b&c"), "a%20b%26c");
    }

    #[test]
    fn typed_text_in_error_notices_is_escaped_by_the_template() {
        let typed = "<script>alert(1)</script>\"'&";
        let html = error_notices(&[
            Notice::text(&format!("Coupon \"{typed}\" does not exist!")).for_field(typed)
        ]);
        assert!(!html.contains("<script>"));
        assert!(html
            .contains("<li data-id=\"&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#039;&amp;\">"));
        assert!(html
            .contains("Coupon \"&lt;script&gt;alert(1)&lt;/script&gt;\"'&amp;\" does not exist!"));
    }

    #[test]
    fn the_session_expired_notice_links_back_to_the_shop() {
        assert_eq!(
            error_notices(&[session_expired("https://shop.example")]),
            "<ul class=\"woocommerce-error\" role=\"alert\">\n\t\t\t<li>\n\t\t\tSorry, your session has expired. <a href=\"https://shop.example/shop/\" class=\"wc-backward\">Return to shop</a>\t\t</li>\n\t</ul>\n"
        );
    }

    #[test]
    fn staff_typed_payment_texts_and_terms_are_escaped_by_the_template() {
        let typed = "<script>alert(1)</script>\"'&";
        let escaped = "&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#039;&amp;";
        let catalog = Catalog::new(1, Default::default());
        let currency = CurrencyFormat::usd();
        let ctx = ReviewContext {
            base_url: "https://shop.example",
            currency: &currency,
            catalog: &catalog,
        };
        let mut cod = Gateway::offline(rules::payments::GatewayKind::Cod);
        cod.title = typed.into();
        cod.description = typed.into();
        cod.order_button_text = Some(typed.into());
        let terms = Terms {
            text: typed.into(),
            page_url: format!("/terms?{typed}"),
        };
        let html = checkout_payment(
            &ctx,
            &PaymentBox {
                gateways: &[cod],
                chosen: Some(typed),
                needs_payment: true,
                terms: Some(&terms),
                terms_checked: true,
                nonce: "abc",
                referer: typed,
            },
        );
        assert!(!html.contains("<script>"), "{html}");
        assert!(html.contains(&format!(
            "value=\"cod\"  checked='checked' data-order_button_text=\"{escaped}\" />"
        )));
        assert!(html.contains(&format!("\t\t{escaped} \t</label>")));
        assert!(html.contains(&format!("<p>{escaped}</p>\n\t\t</div>\n\t</li>")));
        assert!(html.contains(&format!("overflow: auto;\"><p>{escaped}</p>\n</div>")));
        assert!(html.contains(&format!(
            "<a href=\"https://shop.example/terms?{escaped}\" class=\"woocommerce-terms-and-conditions-link\""
        )));
        assert!(html.contains(&format!(
            "name=\"_wp_http_referer\" value=\"{escaped}\" />\t</div>\n</div>\n"
        )));
    }

    #[test]
    fn a_free_order_offers_no_payment_methods() {
        let catalog = Catalog::new(1, Default::default());
        let currency = CurrencyFormat::usd();
        let ctx = ReviewContext {
            base_url: "https://shop.example",
            currency: &currency,
            catalog: &catalog,
        };
        let html = checkout_payment(
            &ctx,
            &PaymentBox {
                gateways: &[Gateway::offline(rules::payments::GatewayKind::Cod)],
                chosen: None,
                needs_payment: false,
                terms: None,
                terms_checked: false,
                nonce: "abc",
                referer: "/",
            },
        );
        assert!(html.starts_with(
            "<div id=\"payment\" class=\"woocommerce-checkout-payment\">\n\t\t<div class=\"form-row place-order\">\n\t\t<noscript>"
        ));
        assert!(html.contains(
            "</noscript>\n\n\t\t\t<div class=\"woocommerce-terms-and-conditions-wrapper\">\n\t\t<div class=\"woocommerce-privacy-policy-text\"><p>Your personal data"
        ));
        assert!(html
            .contains("policy.</p>\n</div>\n\t\t\t</div>\n\t\n\t\t\n\t\t<button type=\"submit\""));
        assert!(!html.contains("payment_method"));
    }
}
