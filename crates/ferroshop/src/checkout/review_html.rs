//! The classic checkout's server-written markup: the order review table, the payment box
//! and the notices its calls answer with, laid out like the original shop's templates so
//! its checkout script finds what it looks for. Everything that comes from the shopper,
//! the catalogue or the configuration is escaped here.

use std::fmt::Write;

use super::rules::ShopRules;
use super::settings::Terms;
use super::tax::{PricesEntered, TaxDisplay, TaxLine};
use super::totals::{CouponPrice, PackagePrice, Pricing};
use crate::cart::model::{CartLine, StoredCart};
use crate::catalog::index::Catalog;
use crate::html::escape;
use crate::money::{CurrencyFormat, Money};
use crate::payments::Gateway;

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

/// One line of a notice list; `html` is markup already safe to send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    pub html: String,
    /// The form field the notice is about, for the script to mark it.
    pub field_id: Option<String>,
}

impl Notice {
    /// A notice from plain text (names and codes in it are escaped).
    pub fn text(message: &str) -> Self {
        Self {
            html: escape_text(message),
            field_id: None,
        }
    }

    /// A notice from markup the shop wrote itself.
    pub fn markup(html: impl Into<String>) -> Self {
        Self {
            html: html.into(),
            field_id: None,
        }
    }

    pub fn for_field(mut self, field_id: &str) -> Self {
        self.field_id = Some(field_id.to_string());
        self
    }
}

/// `<ul class="woocommerce-error">` with one item per notice; empty for no notices.
pub fn error_notices(notices: &[Notice]) -> String {
    if notices.is_empty() {
        return String::new();
    }
    let mut out = String::from("<ul class=\"woocommerce-error\" role=\"alert\">\n");
    for n in notices {
        let id = n
            .field_id
            .as_deref()
            .map(|id| format!(" data-id=\"{}\"", escape(id)))
            .unwrap_or_default();
        let _ = write!(out, "\t\t\t<li{id}>\n\t\t\t{}\t\t</li>\n", n.html);
    }
    out.push_str("\t</ul>\n");
    out
}

/// The success notice, `<div class="woocommerce-message">`.
pub fn success_notice(notice: &Notice) -> String {
    format!(
        "\n\t<div class=\"woocommerce-message\" role=\"alert\">\n\t\t{}\t</div>\n",
        notice.html
    )
}

/// The error shown when the session holds no cart any more.
pub fn session_expired(base_url: &str) -> Notice {
    Notice::markup(format!(
        "Sorry, your session has expired. <a href=\"{}\" class=\"wc-backward\">Return to shop</a>",
        escape(&format!("{base_url}/shop/"))
    ))
}

/// Escapes text for an HTML text node. Quotes stay as typed: messages quote codes and
/// product names, and a text node needs no escaping of them.
pub fn escape_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            _ => out.push(ch),
        }
    }
    out
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

/// The `table.woocommerce-checkout-review-order-table` fragment.
pub fn review_order_table(ctx: &ReviewContext, cart: &StoredCart, pricing: &Pricing) -> String {
    let mut out = String::from(
        "<table class=\"shop_table woocommerce-checkout-review-order-table\">\n\t<thead>\n\t\t<tr>\n\t\t\t<th class=\"product-name\">Product</th>\n\t\t\t<th class=\"product-total\">Subtotal</th>\n\t\t</tr>\n\t</thead>\n\t<tbody>\n\t\t",
    );
    for line in &cart.items {
        // A line pricing left out (its product is gone) is not shown, as in the original.
        let Some(price) = pricing.line(&line.key) else {
            continue;
        };
        if price.quantity <= 0 {
            continue;
        }
        let _ = write!(
            out,
            "\t\t\t\t<tr class=\"cart_item\">\n\t\t\t\t\t<td class=\"product-name\">\n\t\t\t\t\t\t{name}&nbsp;\t\t\t\t\t\t <strong class=\"product-quantity\">&times;&nbsp;{quantity}</strong>\t\t\t\t\t\t\t\t\t\t\t</td>\n\t\t\t\t\t<td class=\"product-total\">\n\t\t\t\t\t\t{total}\t\t\t\t\t</td>\n\t\t\t\t</tr>\n\t\t\t\t",
            name = escape(&item_name(ctx.catalog, line)),
            quantity = price.quantity,
            total = ctx.amount_with_tax_note(price.subtotal, price.subtotal_tax),
        );
    }
    let _ = write!(
        out,
        "\t</tbody>\n\t<tfoot>\n\n\t\t<tr class=\"cart-subtotal\">\n\t\t\t<th>Subtotal</th>\n\t\t\t<td>{}</td>\n\t\t</tr>\n\n\t\t",
        ctx.amount_with_tax_note(pricing.items_total, pricing.items_tax)
    );
    for coupon in &pricing.coupons {
        let _ = write!(
            out,
            "\t\t\t<tr class=\"cart-discount coupon-{class}\">\n\t\t\t\t<th>Coupon: {code}</th>\n\t\t\t\t<td>{amount}</td>\n\t\t\t</tr>\n\t\t",
            class = escape(&sanitize_title(coupon.code.as_str())),
            code = escape(coupon.code.as_str()),
            amount = coupon_html(ctx, coupon),
        );
    }
    out.push_str("\n\t\t");
    if pricing.needs_shipping {
        out.push_str(&shipping_rows(ctx, pricing));
    }
    out.push_str("\n\t\t\n\t\t");
    let taxes = &ctx.rules().taxes;
    if taxes.enabled && !ctx.shows_tax_included() {
        for line in shown_tax_lines(pricing) {
            let _ = write!(
                out,
                "\t\t\t\t\t<tr class=\"tax-rate tax-rate-{class}\">\n\t\t\t\t\t\t<th>{label}</th>\n\t\t\t\t\t\t<td>{amount}</td>\n\t\t\t\t\t</tr>\n\t\t\t\t\t",
                class = escape(&sanitize_title(&rate_code(ctx.rules(), line))),
                label = escape(&tax_label(line)),
                amount = ctx.money(line.total()),
            );
        }
    }
    let _ = write!(
        out,
        "\n\t\t\n\t\t<tr class=\"order-total\">\n\t\t\t<th>Total</th>\n\t\t\t<td><strong>{}</strong> {}</td>\n\t\t</tr>\n\n\t\t\n\t</tfoot>\n</table>\n",
        ctx.money(pricing.total),
        included_taxes(ctx, pricing),
    );
    out
}

/// `-$10.50 [Remove]` for one applied coupon.
fn coupon_html(ctx: &ReviewContext, coupon: &CouponPrice) -> String {
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
    let remove = format!(
        "{}/checkout/?remove_coupon={}",
        ctx.base_url,
        raw_url_encode(code)
    );
    format!(
        "{discount} <a href=\"{}\" class=\"woocommerce-remove-coupon\" data-coupon=\"{}\">[Remove]</a>",
        escape(&remove),
        escape(code)
    )
}

/// One `tr.woocommerce-shipping-totals` per package, with its rates to choose from.
fn shipping_rows(ctx: &ReviewContext, pricing: &Pricing) -> String {
    if pricing.packages.is_empty() {
        return shipping_row(
            "Shipping",
            "Enter your address to view shipping options.".to_string(),
        );
    }
    let mut out = String::new();
    for (index, package) in pricing.packages.iter().enumerate() {
        let name = if index == 0 {
            "Shipping".to_string()
        } else {
            format!("Shipping {}", index + 1)
        };
        let body = if package.rates.is_empty() {
            if pricing.has_calculated_shipping {
                "There are no shipping options available. Please ensure that your address has been entered correctly, or contact us if you need any help.".to_string()
            } else {
                "Enter your address to view shipping options.".to_string()
            }
        } else {
            rate_list(ctx, index, package)
        };
        out.push_str(&shipping_row(&name, body));
    }
    out
}

fn shipping_row(name: &str, body: String) -> String {
    format!(
        "<tr class=\"woocommerce-shipping-totals shipping\">\n\t<th>{name}</th>\n\t<td data-title=\"{name}\">\n\t\t{body}\n\t</td>\n</tr>\n",
        name = escape(name),
    )
}

/// The radio list of a package's rates; a single rate is a hidden input, as the
/// original writes it.
fn rate_list(ctx: &ReviewContext, index: usize, package: &PackagePrice) -> String {
    let mut out =
        String::from("<ul id=\"shipping_method\" class=\"woocommerce-shipping-methods\">\n");
    let single = package.rates.len() == 1;
    for r in &package.rates {
        let id = &r.rate.rate_id;
        let dom_id = format!("shipping_method_{index}_{}", sanitize_title(id));
        let input = if single {
            format!(
                "<input type=\"hidden\" name=\"shipping_method[{index}]\" data-index=\"{index}\" id=\"{dom}\" value=\"{value}\" class=\"shipping_method\" />",
                dom = escape(&dom_id),
                value = escape(id),
            )
        } else {
            let checked = if package.chosen.as_deref() == Some(id.as_str()) {
                " checked='checked'"
            } else {
                ""
            };
            format!(
                "<input type=\"radio\" name=\"shipping_method[{index}]\" data-index=\"{index}\" id=\"{dom}\" value=\"{value}\" class=\"shipping_method\" {checked} />",
                dom = escape(&dom_id),
                value = escape(id),
            )
        };
        let _ = write!(
            out,
            "\t\t\t\t\t<li>\n\t\t\t\t\t\t{input}<label for=\"{dom}\">{label}</label>\t\t\t\t\t</li>\n",
            dom = escape(&dom_id),
            label = rate_label(ctx, r),
        );
    }
    out.push_str("\t\t\t\t\t</ul>");
    out
}

/// "Flat rate: $5.00"; free pickup and free shipping show no price.
fn rate_label(ctx: &ReviewContext, r: &super::totals::RatePrice) -> String {
    let mut label = escape(&r.rate.label);
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

/// "(includes $1.23 CA State Tax)" after the total, when amounts are shown with tax.
fn included_taxes(ctx: &ReviewContext, pricing: &Pricing) -> String {
    if !ctx.rules().taxes.enabled || !ctx.shows_tax_included() {
        return String::new();
    }
    let parts: Vec<String> = shown_tax_lines(pricing)
        .map(|t| format!("{} {}", ctx.money(t.total()), escape(&tax_label(t))))
        .collect();
    if parts.is_empty() {
        return String::new();
    }
    format!(
        "<small class=\"includes_tax\">(includes {})</small>",
        parts.join(", ")
    )
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

/// The `div.woocommerce-checkout-payment` fragment: methods, terms and the place-order
/// button with the checkout nonce.
pub fn checkout_payment(ctx: &ReviewContext, payment: &PaymentBox) -> String {
    let mut out = String::from("<div id=\"payment\" class=\"woocommerce-checkout-payment\">\n");
    if payment.needs_payment {
        out.push_str("\t\t\t<ul class=\"wc_payment_methods payment_methods methods\">\n\t\t\t");
        let chosen = payment
            .chosen
            .filter(|id| payment.gateways.iter().any(|g| g.id == *id))
            .or_else(|| payment.gateways.first().map(|g| g.id));
        if payment.gateways.is_empty() {
            out.push_str("<li class=\"woocommerce-notice woocommerce-notice--info woocommerce-info\">Sorry, it seems that there are no available payment methods for your state. Please contact us if you require assistance or wish to make alternate arrangements.</li>");
        }
        for g in payment.gateways {
            out.push_str(&gateway_item(g, chosen == Some(g.id)));
        }
        out.push_str("\t\t</ul>\n");
    }
    out.push_str(
        "\t\t<div class=\"form-row place-order\">\n\t\t<noscript>\n\t\t\tSince your browser does not support JavaScript, or it is disabled, please ensure you click the <em>Update Totals</em> button before placing your order. You may be charged more than the amount stated above if you fail to do so.\t\t\t<br/><button type=\"submit\" class=\"button alt\" name=\"woocommerce_checkout_update_totals\" value=\"Update totals\">Update totals</button>\n\t\t</noscript>\n\n",
    );
    out.push_str(&terms_wrapper(ctx, payment));
    let _ = write!(
        out,
        "\n\t\n\t\t\n\t\t<button type=\"submit\" class=\"button alt\" name=\"woocommerce_checkout_place_order\" id=\"place_order\" value=\"Place order\" data-value=\"Place order\">Place order</button>\n\t\t\n\t\t<input type=\"hidden\" id=\"woocommerce-process-checkout-nonce\" name=\"woocommerce-process-checkout-nonce\" value=\"{}\" /><input type=\"hidden\" name=\"_wp_http_referer\" value=\"{}\" />\t</div>\n</div>\n",
        escape(payment.nonce),
        escape(payment.referer),
    );
    out
}

fn gateway_item(g: &Gateway, chosen: bool) -> String {
    let id = escape(g.id);
    let checked = if chosen { " checked='checked'" } else { "" };
    let mut out = format!(
        "<li class=\"wc_payment_method payment_method_{id}\">\n\t<input id=\"payment_method_{id}\" type=\"radio\" class=\"input-radio\" name=\"payment_method\" value=\"{id}\" {checked} data-order_button_text=\"{button}\" />\n\n\t<label for=\"payment_method_{id}\">\n\t\t{title} \t</label>\n",
        button = escape(g.order_button_text.as_deref().unwrap_or("")),
        title = escape(&g.title),
    );
    if !g.description.trim().is_empty() {
        let style = if chosen {
            ""
        } else {
            "style=\"display:none;\""
        };
        let _ = write!(
            out,
            "\t\t\t<div class=\"payment_box payment_method_{id}\" {style}>\n\t\t\t<p>{}</p>\n\t\t</div>\n",
            escape(&g.description)
        );
    }
    out.push_str("\t</li>\n");
    out
}

/// The privacy note and, when the shop has terms, their text and the checkbox the
/// checkout insists on.
fn terms_wrapper(ctx: &ReviewContext, payment: &PaymentBox) -> String {
    let mut out = String::from(
        "\t\t\t<div class=\"woocommerce-terms-and-conditions-wrapper\">\n\t\t<div class=\"woocommerce-privacy-policy-text\"><p>Your personal data will be used to process your order, support your experience throughout this website, and for other purposes described in our privacy policy.</p>\n</div>",
    );
    if let Some(terms) = payment.terms {
        let url = if terms.page_url.is_empty() {
            // No terms page: the link unfolds the terms shown just above.
            "#terms".to_string()
        } else if terms.page_url.starts_with('/') {
            format!("{}{}", ctx.base_url, terms.page_url)
        } else {
            terms.page_url.clone()
        };
        let checked = if payment.terms_checked {
            " checked='checked'"
        } else {
            ""
        };
        let _ = write!(
            out,
            "<div class=\"woocommerce-terms-and-conditions\" style=\"display: none; max-height: 200px; overflow: auto;\"><p>{text}</p>\n</div>\n\t\t\t\t\t<p class=\"form-row validate-required\">\n\t\t\t\t<label class=\"woocommerce-form__label woocommerce-form__label-for-checkbox checkbox\">\n\t\t\t\t<input type=\"checkbox\" class=\"woocommerce-form__input woocommerce-form__input-checkbox input-checkbox\" name=\"terms\"{checked} id=\"terms\" />\n\t\t\t\t\t<span class=\"woocommerce-terms-and-conditions-checkbox-text\">I have read and agree to the website <a href=\"{url}\" class=\"woocommerce-terms-and-conditions-link\" target=\"_blank\">terms and conditions</a></span>&nbsp;<abbr class=\"required\" title=\"required\">*</abbr>\n\t\t\t\t</label>\n\t\t\t\t<input type=\"hidden\" name=\"terms-field\" value=\"1\" />\n\t\t\t</p>\n\t\t",
            text = escape(&terms.text),
            url = escape(&url),
        );
    }
    out.push_str("\n\t\t\t</div>");
    out
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
}
