//! Cart fragments: server-rendered markup of the mini-cart and the header cart counts,
//! keyed by the CSS selector each replaces, as classic shop scripts expect. Every
//! value written into the markup is escaped.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::model::StoredCart;
use super::view::priced_lines;
use crate::catalog::index::Catalog;
use crate::catalog::view::ViewContext;
use crate::html::escape;
use crate::money::Money;

pub struct FragmentContext<'a> {
    pub view: ViewContext<'a>,
    /// The nonce of the remove links, for shoppers without JavaScript.
    pub remove_nonce: &'a str,
}

pub fn fragments(
    ctx: &FragmentContext,
    catalog: &Catalog,
    cart: &StoredCart,
) -> BTreeMap<&'static str, String> {
    let lines = priced_lines(catalog, cart);
    let count: i64 = lines.iter().map(|l| l.line.quantity).sum();
    let subtotal = lines
        .iter()
        .fold(Money::ZERO, |acc, l| acc.plus(Money::new(l.line_total)));
    let base = ctx.view.base_url;
    let currency = ctx.view.currency;

    let mut mini = String::from("<div class=\"widget_shopping_cart_content\">");
    if lines.is_empty() {
        mini.push_str(
            "<p class=\"woocommerce-mini-cart__empty-message\">No products in the cart.</p>",
        );
    } else {
        mini.push_str("<ul class=\"woocommerce-mini-cart cart_list product_list_widget\">");
        for l in &lines {
            let name = l.parent.map_or(&l.product.name, |p| &p.name);
            let url = ctx.view.product_url(l.product, catalog);
            let remove = format!(
                "{base}/cart/?remove_item={}&_wpnonce={}",
                l.line.key, ctx.remove_nonce
            );
            let _ = write!(
                mini,
                "<li class=\"woocommerce-mini-cart-item mini_cart_item\">\
                 <a href=\"{remove}\" class=\"remove remove_from_cart_button\" aria-label=\"Remove {name} from cart\" \
                 data-product_id=\"{id}\" data-cart_item_key=\"{key}\" data-product_sku=\"{sku}\">&times;</a>\
                 <a href=\"{url}\">",
                remove = escape(&remove),
                name = escape(name),
                id = l.parent.map_or(l.product.id, |p| p.id),
                key = escape(&l.line.key),
                sku = escape(&l.product.sku),
                url = escape(&url),
            );
            let image = l
                .product
                .image_ids
                .first()
                .or_else(|| l.parent.and_then(|p| p.image_ids.first()));
            if let Some(m) = image.and_then(|id| catalog.media(*id)) {
                let _ = write!(
                    mini,
                    "<img width=\"{w}\" height=\"{h}\" src=\"{src}\" class=\"attachment-woocommerce_thumbnail size-woocommerce_thumbnail\" alt=\"{alt}\" decoding=\"async\" loading=\"lazy\" />",
                    w = m.width,
                    h = m.height,
                    src = escape(&ctx.view.media_url(m)),
                    alt = escape(&m.alt),
                );
            }
            mini.push_str(&escape(name));
            mini.push_str("</a>");
            if !l.line.variation.is_empty() {
                mini.push_str("<dl class=\"variation\">");
                for v in &l.line.variation {
                    let _ = write!(
                        mini,
                        "<dt>{}:</dt><dd>{}</dd>",
                        escape(&catalog.attribute_label(&v.attribute)),
                        escape(&catalog.value_name(&v.attribute, &v.value))
                    );
                }
                mini.push_str("</dl>");
            }
            let _ = write!(
                mini,
                "<span class=\"quantity\">{} &times; {}</span></li>",
                l.line.quantity,
                currency.format_html(Money::new(l.unit_price))
            );
        }
        let _ = write!(
            mini,
            "</ul><p class=\"woocommerce-mini-cart__total total\"><strong>Subtotal:</strong> {}</p>\
             <p class=\"woocommerce-mini-cart__buttons buttons\"><a href=\"{base}/cart/\" class=\"button wc-forward\">View cart</a>\
             <a href=\"{base}/checkout/\" class=\"button checkout wc-forward\">Checkout</a></p>",
            currency.format_html(subtotal),
            base = escape(base),
        );
    }
    mini.push_str("</div>");

    let items_label = if count == 1 {
        "1 item".to_string()
    } else {
        format!("{count} items")
    };
    let header = format!(
        "<a class=\"cart-contents\" href=\"{base}/cart/\" title=\"View your shopping cart\">{} <span class=\"count\">{items_label}</span></a>",
        currency.format_html(subtotal),
        base = escape(base),
    );
    let footer = format!(
        "<a class=\"footer-cart-contents\" href=\"{base}/cart/\">Cart <span class=\"count\">{count}</span></a>",
        base = escape(base),
    );
    BTreeMap::from([
        ("div.widget_shopping_cart_content", mini),
        ("a.cart-contents", header),
        ("a.footer-cart-contents", footer),
    ])
}
