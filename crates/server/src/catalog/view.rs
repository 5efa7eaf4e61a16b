//! Products, categories and brands as the Store API shows them. Prices are strings in
//! minor units with the currency fields beside them, links are absolute, and the
//! field names and nesting follow the original shop's responses.

use serde::Serialize;
use serde_json::Value;

use rules::catalog::index::Catalog;
use rules::catalog::model::*;
use rules::money::{CurrencyFields, CurrencyFormat, Money};

/// What a view needs besides the catalogue: where the shop lives and its currency.
pub struct ViewContext<'a> {
    pub base_url: &'a str,
    pub currency: &'a CurrencyFormat,
}

impl crate::http::store_api::StoreCtx {
    /// What views need to write links and prices for this request.
    pub fn view<'a>(&'a self, state: &'a crate::state::AppState) -> ViewContext<'a> {
        ViewContext {
            base_url: self.base_url.as_str(),
            currency: &state.config.currency,
        }
    }
}

impl ViewContext<'_> {
    pub fn product_url(&self, p: &Product, catalog: &Catalog) -> String {
        let slug = match (p.kind, p.parent_id.and_then(|id| catalog.product(id))) {
            (ProductKind::Variation, Some(parent)) => &parent.slug,
            _ => &p.slug,
        };
        format!("{}/product/{}/", self.base_url, slug)
    }

    pub fn media_url(&self, m: &Media) -> String {
        format!("{}/media/{}", self.base_url, m.file_name)
    }
}

#[derive(Serialize)]
pub struct ImageView {
    pub id: i64,
    pub src: String,
    pub thumbnail: String,
    pub srcset: String,
    pub sizes: String,
    pub name: String,
    pub alt: String,
    pub caption: String,
    pub width: i64,
    pub height: i64,
}

/// A photograph's `srcset` offers its WebP copies (see `catalog::images`) and then
/// itself; its thumbnail is the copy nearest a listing's card.
pub fn image_view(ctx: &ViewContext, m: &Media) -> ImageView {
    const THUMBNAIL_WIDTH: u32 = 320;
    let src = ctx.media_url(m);
    let widths = super::images::copy_widths(m);
    let mut srcset: Vec<String> = widths.iter().map(|w| format!("{src}?w={w} {w}w")).collect();
    srcset.push(format!("{src} {}w", m.width));
    let thumbnail = match widths.iter().find(|&&w| w >= THUMBNAIL_WIDTH) {
        Some(w) => format!("{src}?w={w}"),
        None => src.clone(),
    };
    ImageView {
        id: m.id.0,
        srcset: srcset.join(", "),
        sizes: format!("(max-width: {w}px) 100vw, {w}px", w = m.width),
        thumbnail,
        src,
        name: m.file_name.clone(),
        alt: m.alt.clone(),
        caption: m.caption.clone(),
        width: m.width,
        height: m.height,
    }
}

#[derive(Serialize)]
pub struct PriceRange {
    pub min_amount: String,
    pub max_amount: String,
}

#[derive(Serialize)]
pub struct ProductPrices {
    pub price: String,
    pub regular_price: String,
    pub sale_price: String,
    pub price_range: Option<PriceRange>,
    #[serde(flatten)]
    pub currency: CurrencyFields,
}

#[derive(Serialize)]
pub struct TermLink {
    pub id: i64,
    pub name: String,
    pub slug: String,
    pub link: String,
}

#[derive(Serialize)]
pub struct AttributeTermView {
    pub id: i64,
    pub name: String,
    pub slug: String,
}

#[derive(Serialize)]
pub struct AttributeView {
    pub id: i64,
    pub name: String,
    pub taxonomy: Option<String>,
    pub has_variations: bool,
    pub terms: Vec<AttributeTermView>,
}

#[derive(Serialize)]
pub struct NameValue {
    pub name: String,
    pub value: String,
}

#[derive(Serialize)]
pub struct VariationRef {
    pub id: i64,
    pub attributes: Vec<NameValue>,
}

#[derive(Serialize)]
pub struct AddToCartView {
    pub text: String,
    pub description: String,
    pub url: String,
    pub minimum: i64,
    pub maximum: i64,
    pub multiple_of: i64,
}

#[derive(Serialize)]
pub struct LabelValue {
    pub label: String,
    pub value: String,
}

#[derive(Serialize)]
pub struct ProductView {
    pub id: i64,
    pub name: String,
    pub slug: String,
    pub parent: i64,
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub variation: String,
    pub permalink: String,
    pub sku: String,
    pub short_description: String,
    pub description: String,
    pub on_sale: bool,
    pub prices: ProductPrices,
    pub price_html: String,
    pub average_rating: String,
    pub review_count: i64,
    pub images: Vec<ImageView>,
    pub categories: Vec<TermLink>,
    pub tags: Vec<TermLink>,
    pub brands: Vec<TermLink>,
    pub attributes: Vec<AttributeView>,
    pub variations: Vec<VariationRef>,
    pub has_options: bool,
    pub is_purchasable: bool,
    pub is_in_stock: bool,
    pub is_on_backorder: bool,
    pub low_stock_remaining: Option<i64>,
    pub stock_status: &'static str,
    pub sold_individually: bool,
    pub featured: bool,
    pub add_to_cart: AddToCartView,
    /// The rows of the "Additional information" tab: weight, dimensions, visible attributes.
    pub additional_information: Vec<LabelValue>,
    pub extensions: Value,
}

/// "Only N left" is shown when managed stock is at or below its low-stock amount.
pub fn low_stock_remaining(p: &Product) -> Option<i64> {
    match (p.manage_stock, p.stock_quantity, p.low_stock_amount) {
        (true, Some(q), Some(low)) if q > 0 && q <= low => Some(q),
        _ => None,
    }
}

pub fn product_view(ctx: &ViewContext, catalog: &Catalog, p: &Product) -> ProductView {
    let parent = p.parent_id.and_then(|id| catalog.product(id));
    let prices = catalog.prices(p);
    let fmt = |v: Option<i64>| v.map(|x| x.to_string()).unwrap_or_default();
    let price_html = price_html(ctx.currency, &prices);
    // A variation without its own image shows its parent's.
    let image_ids: Vec<MediaId> = match (p.image_ids.is_empty(), parent) {
        (true, Some(parent)) => parent.image_ids.iter().take(1).copied().collect(),
        _ => p.image_ids.clone(),
    };
    let taxonomy_source = parent.unwrap_or(p);
    let variation_label = p
        .variation
        .iter()
        .map(|v| {
            format!(
                "{}: {}",
                catalog.attribute_label(&v.attribute),
                catalog.value_name(&v.attribute, &v.value)
            )
        })
        .collect::<Vec<_>>()
        .join(", ");
    let in_stock = catalog.is_in_stock(p);
    let purchasable = catalog.is_purchasable(p);
    let (text, description, url) = match p.kind {
        ProductKind::External => (
            p.button_text.clone(),
            p.button_text.clone(),
            p.external_url.clone(),
        ),
        ProductKind::Variable => (
            "Select options".to_string(),
            format!("Select options for “{}”", p.name),
            ctx.product_url(p, catalog),
        ),
        _ if purchasable && in_stock => (
            "Add to cart".to_string(),
            format!("Add to cart: “{}”", p.name),
            format!("{}?add-to-cart={}", ctx.product_url(p, catalog), p.id),
        ),
        _ => (
            "Read more".to_string(),
            format!("Read more about “{}”", p.name),
            ctx.product_url(p, catalog),
        ),
    };
    ProductView {
        id: p.id.0,
        name: p.name.clone(),
        slug: p.slug.clone(),
        parent: p.parent_id.map_or(0, |x| x.0),
        kind: p.kind.as_str(),
        variation: variation_label,
        permalink: ctx.product_url(p, catalog),
        sku: p.sku.clone(),
        short_description: p.short_description.clone(),
        description: p.description.clone(),
        on_sale: prices.on_sale,
        prices: ProductPrices {
            price: fmt(prices.price),
            regular_price: fmt(prices.regular),
            sale_price: fmt(prices.sale),
            price_range: prices.range.map(|(lo, hi)| PriceRange {
                min_amount: lo.to_string(),
                max_amount: hi.to_string(),
            }),
            currency: ctx.currency.api_fields(),
        },
        price_html,
        average_rating: rating_text(p.rating_average_x100),
        review_count: p.review_count,
        images: image_ids
            .iter()
            .filter_map(|id| catalog.media(*id))
            .map(|m| image_view(ctx, m))
            .collect(),
        categories: taxonomy_source
            .category_ids
            .iter()
            .filter_map(|id| catalog.category(*id))
            .map(|c| term_link(ctx, "product-category", c.id.0, &c.name, &c.slug))
            .collect(),
        tags: taxonomy_source
            .tag_ids
            .iter()
            .filter_map(|id| catalog.tag(*id))
            .map(|t| term_link(ctx, "product-tag", t.id.0, &t.name, &t.slug))
            .collect(),
        brands: taxonomy_source
            .brand_ids
            .iter()
            .filter_map(|id| catalog.brand(*id))
            .map(|b| term_link(ctx, "brand", b.id.0, &b.name, &b.slug))
            .collect(),
        attributes: p
            .attributes
            .iter()
            .filter(|a| a.visible || a.used_for_variations)
            .map(|a| attribute_view(catalog, a))
            .collect(),
        variations: catalog
            .variations_of(p.id)
            .map(|v| VariationRef {
                id: v.id.0,
                attributes: v
                    .variation
                    .iter()
                    .map(|vv| NameValue {
                        name: catalog.attribute_label(&vv.attribute),
                        value: vv.value.clone(),
                    })
                    .collect(),
            })
            .collect(),
        has_options: p.kind == ProductKind::Variable,
        is_purchasable: purchasable,
        is_in_stock: in_stock,
        is_on_backorder: catalog.stock_status(p) == StockStatus::OnBackorder,
        low_stock_remaining: low_stock_remaining(p),
        stock_status: catalog.stock_status(p).as_str(),
        sold_individually: p.sold_individually,
        featured: p.featured,
        add_to_cart: AddToCartView {
            text,
            description,
            url,
            minimum: min_quantity(p, parent),
            maximum: max_quantity(p, parent),
            multiple_of: 1,
        },
        additional_information: additional_information(catalog, taxonomy_source),
        extensions: extensions(catalog, p),
    }
}

/// The shop's own additions, in the place the Store API keeps for them: the products
/// a product page suggests instead ("You may also like…"), those still for sale.
fn extensions(catalog: &Catalog, p: &Product) -> Value {
    let upsells: Vec<i64> = p
        .upsell_ids
        .iter()
        .filter(|id| catalog.shown(**id).is_some())
        .map(|id| id.0)
        .collect();
    if upsells.is_empty() {
        Value::Object(Default::default())
    } else {
        serde_json::json!({ "ferroshop": { "upsell_ids": upsells } })
    }
}

/// A category, tag or brand as a product lists it, linking to its page under `base`.
fn term_link(ctx: &ViewContext, base: &str, id: i64, name: &str, slug: &str) -> TermLink {
    TermLink {
        id,
        name: name.to_string(),
        slug: slug.to_string(),
        link: format!("{}/{base}/{slug}/", ctx.base_url),
    }
}

fn attribute_view(catalog: &Catalog, a: &ProductAttribute) -> AttributeView {
    let global = a.attribute_id.and_then(|id| catalog.attribute(id));
    let terms = match global {
        Some(g) => g
            .terms
            .iter()
            .filter(|t| a.values.contains(&t.slug))
            .map(|t| AttributeTermView {
                id: t.id.0,
                name: t.name.clone(),
                slug: t.slug.clone(),
            })
            .collect(),
        None => a
            .values
            .iter()
            .map(|v| AttributeTermView {
                id: 0,
                name: v.clone(),
                slug: v.clone(),
            })
            .collect(),
    };
    AttributeView {
        id: global.map_or(0, |g| g.id.0),
        name: a.name.clone(),
        taxonomy: global.map(|g| g.taxonomy.clone()),
        has_variations: a.used_for_variations,
        terms,
    }
}

fn additional_information(catalog: &Catalog, p: &Product) -> Vec<LabelValue> {
    let mut rows = Vec::new();
    if let Some(g) = p.weight_grams {
        rows.push(LabelValue {
            label: "Weight".into(),
            value: format!("{} kg", decimal(g, 3)),
        });
    }
    if let Some(d) = p.dimensions {
        rows.push(LabelValue {
            label: "Dimensions".into(),
            value: format!(
                "{} × {} × {} cm",
                decimal(d.length_mm, 1),
                decimal(d.width_mm, 1),
                decimal(d.height_mm, 1)
            ),
        });
    }
    for a in p.attributes.iter().filter(|a| a.visible) {
        let key = catalog.attribute_key(a);
        let values: Vec<String> = a
            .values
            .iter()
            .map(|v| catalog.value_name(&key, v))
            .collect();
        rows.push(LabelValue {
            label: a.name.clone(),
            value: values.join(", "),
        });
    }
    rows
}

/// `value / 10^scale` written without trailing zeros: 450 g → "0.45".
fn decimal(value: i64, scale: u32) -> String {
    let div = 10i64.pow(scale);
    let whole = value / div;
    let frac = (value % div).abs();
    if frac == 0 {
        return whole.to_string();
    }
    let frac = format!("{frac:0>width$}", width = scale as usize);
    format!("{whole}.{}", frac.trim_end_matches('0'))
}

fn rating_text(x100: i64) -> String {
    if x100 <= 0 {
        "0".into()
    } else {
        format!("{}.{:02}", x100 / 100, x100 % 100)
    }
}

/// The price markup: a range, a sale (regular struck through), or a single price.
pub fn price_html(
    currency: &CurrencyFormat,
    prices: &rules::catalog::index::PriceSummary,
) -> String {
    match (prices.range, prices.on_sale, prices.price, prices.regular) {
        (Some((lo, hi)), _, _, _) if lo != hi => format!(
            "{} &ndash; {}",
            currency.format_html(Money::new(lo)),
            currency.format_html(Money::new(hi))
        ),
        (_, true, Some(price), Some(regular)) => format!(
            "<del aria-hidden=\"true\">{}</del> <ins>{}</ins>",
            currency.format_html(Money::new(regular)),
            currency.format_html(Money::new(price))
        ),
        (_, _, Some(price), _) => currency.format_html(Money::new(price)),
        _ => String::new(),
    }
}

#[derive(Serialize)]
pub struct TermView {
    pub id: i64,
    pub name: String,
    pub slug: String,
    pub description: String,
    pub parent: i64,
    pub count: usize,
    pub image: Option<ImageView>,
    pub review_count: i64,
    pub permalink: String,
    pub link: String,
}

pub fn category_view(ctx: &ViewContext, catalog: &Catalog, c: &Category) -> TermView {
    let link = format!("{}/product-category/{}/", ctx.base_url, c.slug);
    // A category without its own image shows its first product's.
    let image = c
        .image_id
        .and_then(|id| catalog.media(id))
        .or_else(|| catalog.category_stand_in_image(c.id))
        .map(|m| image_view(ctx, m));
    TermView {
        id: c.id.0,
        name: c.name.clone(),
        slug: c.slug.clone(),
        description: c.description.clone(),
        parent: c.parent_id.map_or(0, |x| x.0),
        count: catalog.category_count(c.id),
        image,
        review_count: 0,
        permalink: link.clone(),
        link,
    }
}

pub fn brand_view(ctx: &ViewContext, catalog: &Catalog, b: &Brand) -> TermView {
    let link = format!("{}/brand/{}/", ctx.base_url, b.slug);
    // A brand's image is its logo: none is better than a product standing in for it.
    let image = b
        .image_id
        .and_then(|id| catalog.media(id))
        .map(|m| image_view(ctx, m));
    TermView {
        id: b.id.0,
        name: b.name.clone(),
        slug: b.slug.clone(),
        description: b.description.clone(),
        parent: 0,
        count: catalog.brand_count(b.id),
        image,
        review_count: 0,
        permalink: link.clone(),
        link,
    }
}

/// A global attribute as `/products/attributes` lists it.
#[derive(Serialize)]
pub struct GlobalAttributeView {
    pub id: i64,
    pub name: String,
    pub taxonomy: String,
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub order: &'static str,
    pub has_archives: bool,
    /// How many terms the attribute has.
    pub count: usize,
}

pub fn global_attribute_view(a: &Attribute) -> GlobalAttributeView {
    GlobalAttributeView {
        id: a.id.0,
        name: a.name.clone(),
        taxonomy: a.taxonomy.clone(),
        kind: "select",
        order: "menu_order",
        has_archives: false,
        count: a.terms.len(),
    }
}

/// One of a global attribute's terms, with the top-level products offering it.
#[derive(Serialize)]
pub struct GlobalTermView {
    pub id: i64,
    pub name: String,
    pub slug: String,
    pub description: String,
    pub parent: i64,
    pub count: usize,
}

pub fn global_term_view(catalog: &Catalog, a: &Attribute, t: &Term) -> GlobalTermView {
    GlobalTermView {
        id: t.id.0,
        name: t.name.clone(),
        slug: t.slug.clone(),
        description: String::new(),
        parent: 0,
        count: catalog.attribute_term_count(a.id, &t.slug),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals_drop_trailing_zeros() {
        assert_eq!(decimal(450, 3), "0.45");
        assert_eq!(decimal(2000, 3), "2");
        assert_eq!(decimal(305, 1), "30.5");
    }

    #[test]
    fn ratings_read_like_the_original() {
        assert_eq!(rating_text(0), "0");
        assert_eq!(rating_text(450), "4.50");
    }
}

/// `/products/collection-data`: each part is null unless asked for.
#[derive(Serialize)]
pub struct CollectionView {
    pub price_range: Option<PriceRangeView>,
    pub attribute_counts: Option<Vec<TermCount>>,
    pub rating_counts: Option<Vec<RatingCount>>,
    pub stock_status_counts: Option<Vec<StockCount>>,
    pub taxonomy_counts: Option<Vec<TermCount>>,
    /// This shop's addition: round price bands with their product counts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub price_bands: Option<Vec<PriceBandView>>,
}

#[derive(Serialize)]
pub struct PriceRangeView {
    #[serde(flatten)]
    pub currency: CurrencyFields,
    pub min_price: Option<String>,
    pub max_price: Option<String>,
}

#[derive(Serialize)]
pub struct TermCount {
    pub term: i64,
    pub count: u64,
}

#[derive(Serialize)]
pub struct RatingCount {
    pub rating: u8,
    pub count: u64,
}

#[derive(Serialize)]
pub struct StockCount {
    pub status: &'static str,
    pub count: u64,
}

#[derive(Serialize)]
pub struct PriceBandView {
    pub min_price: String,
    pub max_price: String,
    pub count: u64,
}

pub fn collection_view(ctx: &ViewContext, f: &rules::catalog::index::Facets) -> CollectionView {
    let terms = |counts: &Option<Vec<(i64, u64)>>| {
        counts.as_ref().map(|c| {
            c.iter()
                .map(|&(term, count)| TermCount { term, count })
                .collect()
        })
    };
    CollectionView {
        price_range: f.price_range.map(|range| PriceRangeView {
            currency: ctx.currency.api_fields(),
            min_price: range.map(|(lo, _)| lo.to_string()),
            max_price: range.map(|(_, hi)| hi.to_string()),
        }),
        attribute_counts: terms(&f.attribute_counts),
        rating_counts: f.rating_counts.as_ref().map(|c| {
            c.iter()
                .map(|&(rating, count)| RatingCount { rating, count })
                .collect()
        }),
        stock_status_counts: f.stock_status_counts.as_ref().map(|c| {
            c.iter()
                .map(|&(s, count)| StockCount {
                    status: s.as_str(),
                    count,
                })
                .collect()
        }),
        taxonomy_counts: terms(&f.taxonomy_counts),
        price_bands: f.price_bands.as_ref().map(|bands| {
            bands
                .iter()
                .map(|b| PriceBandView {
                    min_price: b.from.to_string(),
                    max_price: b.to.to_string(),
                    count: b.count,
                })
                .collect()
        }),
    }
}
