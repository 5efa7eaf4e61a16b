//! Cart fragments: server-rendered markup of the mini-cart and the header cart counts,
//! keyed by the CSS selector each replaces, as classic shop scripts expect. The markup
//! is in askama templates (`templates/cart/`), which escape every value written into it.

use std::collections::BTreeMap;

use askama::Template;

use super::view::priced_lines;
use crate::catalog::view::ViewContext;
use crate::markup::{rendered, trusted, Markup};
use rules::cart::model::StoredCart;
use rules::catalog::index::Catalog;
use rules::money::Money;

pub struct FragmentContext<'a> {
    pub view: ViewContext<'a>,
    /// The nonce of the remove links, for shoppers without JavaScript.
    pub remove_nonce: &'a str,
}

#[derive(Template)]
#[template(path = "cart/mini_cart.html")]
struct MiniCart<'a> {
    lines: Vec<MiniCartLine<'a>>,
    subtotal: Markup,
    base_url: &'a str,
    remove_nonce: &'a str,
}

struct MiniCartLine<'a> {
    /// The product's name; a variation shows its parent's.
    name: &'a str,
    product_id: rules::catalog::model::ProductId,
    key: &'a str,
    sku: &'a str,
    url: String,
    image: Option<Thumbnail<'a>>,
    /// The chosen attributes as (label, value name).
    variation: Vec<(String, String)>,
    quantity: i64,
    unit_price: Markup,
}

struct Thumbnail<'a> {
    width: i64,
    height: i64,
    src: String,
    alt: &'a str,
}

#[derive(Template)]
#[template(path = "cart/cart_contents.html")]
struct CartContents<'a> {
    base_url: &'a str,
    subtotal: Markup,
    count: i64,
}

#[derive(Template)]
#[template(path = "cart/footer_cart_contents.html")]
struct FooterCartContents<'a> {
    base_url: &'a str,
    count: i64,
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
    let base_url = ctx.view.base_url;
    let currency = ctx.view.currency;

    let mini_lines = lines
        .iter()
        .map(|l| {
            let image = l
                .product
                .image_ids
                .first()
                .or_else(|| l.parent.and_then(|p| p.image_ids.first()))
                .and_then(|id| catalog.media(*id))
                .map(|m| Thumbnail {
                    width: m.width,
                    height: m.height,
                    src: ctx.view.media_url(m),
                    alt: &m.alt,
                });
            MiniCartLine {
                name: l.parent.map_or(&l.product.name, |p| &p.name),
                product_id: l.parent.map_or(l.product.id, |p| p.id),
                key: &l.line.key,
                sku: &l.product.sku,
                url: ctx.view.product_url(l.product, catalog),
                image,
                variation: l
                    .line
                    .variation
                    .iter()
                    .map(|v| {
                        (
                            catalog.attribute_label(&v.attribute),
                            catalog.value_name(&v.attribute, &v.value),
                        )
                    })
                    .collect(),
                quantity: l.line.quantity,
                unit_price: trusted(currency.format_html(Money::new(l.unit_price))),
            }
        })
        .collect();
    let mini = rendered(&MiniCart {
        lines: mini_lines,
        subtotal: trusted(currency.format_html(subtotal)),
        base_url,
        remove_nonce: ctx.remove_nonce,
    });
    let header = rendered(&CartContents {
        base_url,
        subtotal: trusted(currency.format_html(subtotal)),
        count,
    });
    let footer = rendered(&FooterCartContents { base_url, count });
    BTreeMap::from([
        ("div.widget_shopping_cart_content", mini),
        ("a.cart-contents", header),
        ("a.footer-cart-contents", footer),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::cart::model::CartLine;
    use rules::catalog::model::{CatalogData, Product, ProductId, ProductKind, VariationValue};
    use rules::money::CurrencyFormat;

    const TYPED: &str = "<script>alert(1)</script>\"'&";
    const ESCAPED: &str = "&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#039;&amp;";

    /// A variable product named `TYPED` whose one variation takes any engraving, and a
    /// cart holding it with `TYPED` engraved.
    fn typed_cart() -> (Catalog, StoredCart) {
        let mut parent = Product::simple(ProductId(1), TYPED, "parent");
        parent.kind = ProductKind::Variable;
        let mut any = Product::simple(ProductId(2), "Engraved", "engraved");
        any.kind = ProductKind::Variation;
        any.parent_id = Some(ProductId(1));
        any.regular_price = Some(1000);
        any.sku = TYPED.into();
        any.variation = vec![VariationValue {
            attribute: "engraving".into(),
            value: String::new(),
        }];
        let catalog = Catalog::new(
            1,
            CatalogData {
                products: vec![parent, any],
                ..Default::default()
            },
        );
        let cart = StoredCart {
            items: vec![CartLine {
                key: "k1".into(),
                id: ProductId(2),
                quantity: 1,
                variation: vec![VariationValue {
                    attribute: "engraving".into(),
                    value: TYPED.into(),
                }],
            }],
            ..Default::default()
        };
        (catalog, cart)
    }

    #[test]
    fn typed_names_and_attribute_values_are_escaped_by_the_template() {
        let (catalog, cart) = typed_cart();
        let currency = CurrencyFormat::usd();
        let ctx = FragmentContext {
            view: ViewContext {
                base_url: "https://shop.example",
                currency: &currency,
            },
            remove_nonce: "n1",
        };
        let fragments = fragments(&ctx, &catalog, &cart);
        let mini = &fragments["div.widget_shopping_cart_content"];
        assert!(!mini.contains("<script>"), "{mini}");
        assert!(mini.contains(&format!(
            "<a href=\"https://shop.example/cart/?remove_item=k1&amp;_wpnonce=n1\" class=\"remove remove_from_cart_button\" aria-label=\"Remove {ESCAPED} from cart\" data-product_id=\"1\" data-cart_item_key=\"k1\" data-product_sku=\"{ESCAPED}\">&times;</a>"
        )));
        assert!(mini.contains(&format!("\">{ESCAPED}</a><dl class=\"variation\">")));
        assert!(mini.contains(&format!("<dt>engraving:</dt><dd>{ESCAPED}</dd></dl>")));
        assert_eq!(
            fragments["a.footer-cart-contents"],
            "<a class=\"footer-cart-contents\" href=\"https://shop.example/cart/\">Cart <span class=\"count\">1</span></a>"
        );
        assert!(fragments["a.cart-contents"].ends_with("<span class=\"count\">1 item</span></a>"));
    }

    #[test]
    fn an_empty_cart_says_so() {
        let currency = CurrencyFormat::usd();
        let ctx = FragmentContext {
            view: ViewContext {
                base_url: "https://shop.example",
                currency: &currency,
            },
            remove_nonce: "n1",
        };
        let catalog = Catalog::new(1, CatalogData::default());
        let fragments = fragments(&ctx, &catalog, &StoredCart::default());
        assert_eq!(
            fragments["div.widget_shopping_cart_content"],
            "<div class=\"widget_shopping_cart_content\"><p class=\"woocommerce-mini-cart__empty-message\">No products in the cart.</p></div>"
        );
    }
}
