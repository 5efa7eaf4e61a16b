//! The catalogue as the shop sees it: products (simple, variable, external and the
//! variations of variable products), their taxonomies (categories, brands, tags,
//! attributes) and their images. Plain data; no SQL or HTTP here.

use serde::{Deserialize, Serialize};

macro_rules! id_type {
    ($($(#[$doc:meta])* $name:ident),* $(,)?) => {$(
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(pub i64);

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                self.0.fmt(f)
            }
        }
    )*};
}

id_type!(
    /// A product or a variation of a variable product (they share one id space, as in the original shop).
    ProductId,
    CategoryId,
    BrandId,
    TagId,
    /// A global attribute such as "Color" (taxonomy `pa_color`).
    AttributeId,
    TermId,
    MediaId,
);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ProductKind {
    Simple,
    Variable,
    External,
    Variation,
}

impl ProductKind {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Simple => "simple",
            Self::Variable => "variable",
            Self::External => "external",
            Self::Variation => "variation",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "simple" => Self::Simple,
            "variable" => Self::Variable,
            "external" => Self::External,
            "variation" => Self::Variation,
            _ => return None,
        })
    }
}

/// A text enum stored as its lowercase name: `as_str` and `parse` both ways.
macro_rules! text_enum {
    ($(#[$doc:meta])* $name:ident { $($(#[$vdoc:meta])* $variant:ident = $text:literal),* $(,)? }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub enum $name {
            $($(#[$vdoc])* #[serde(rename = $text)] $variant),*
        }

        impl $name {
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Self::$variant => $text),*
                }
            }

            pub fn parse(s: &str) -> Option<Self> {
                match s {
                    $($text => Some(Self::$variant),)*
                    _ => None,
                }
            }
        }
    };
}

text_enum!(
    /// Who may see a product: everyone (published), signed-in staff only (private,
    /// never in the shop), or no one yet (a draft).
    ProductStatus {
        Publish = "publish",
        Private = "private",
        Draft = "draft",
    }
);

text_enum!(
    /// Where a published product shows: in the shop and in search, in the shop only,
    /// in search results only, or only at its own address.
    CatalogVisibility {
        Visible = "visible",
        Catalog = "catalog",
        Search = "search",
        Hidden = "hidden",
    }
);

text_enum!(
    /// Whether tax applies to the product and its shipping, to its shipping only, or to
    /// neither.
    TaxStatus {
        Taxable = "taxable",
        Shipping = "shipping",
        None = "none",
    }
);

impl CatalogVisibility {
    /// Shown on the shop, category, brand and tag pages.
    pub fn in_catalog(self) -> bool {
        matches!(self, Self::Visible | Self::Catalog)
    }

    /// Found by a search.
    pub fn in_search(self) -> bool {
        matches!(self, Self::Visible | Self::Search)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum StockStatus {
    #[serde(rename = "instock")]
    InStock,
    #[serde(rename = "outofstock")]
    OutOfStock,
    #[serde(rename = "onbackorder")]
    OnBackorder,
}

impl StockStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::InStock => "instock",
            Self::OutOfStock => "outofstock",
            Self::OnBackorder => "onbackorder",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "instock" => Self::InStock,
            "outofstock" => Self::OutOfStock,
            "onbackorder" => Self::OnBackorder,
            _ => return None,
        })
    }
}

/// Whether a product whose managed stock has run out may still be ordered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Backorders {
    No,
    Notify,
    Yes,
}

impl Backorders {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::No => "no",
            Self::Notify => "notify",
            Self::Yes => "yes",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "no" => Self::No,
            "notify" => Self::Notify,
            "yes" => Self::Yes,
            _ => return None,
        })
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Category {
    pub id: CategoryId,
    pub parent_id: Option<CategoryId>,
    pub name: String,
    pub slug: String,
    pub description: String,
    pub menu_order: i64,
    pub image_id: Option<MediaId>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Brand {
    pub id: BrandId,
    pub name: String,
    pub slug: String,
    pub description: String,
    pub image_id: Option<MediaId>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tag {
    pub id: TagId,
    pub name: String,
    pub slug: String,
}

text_enum!(
    /// How a product page offers an attribute's terms: a drop-down, or swatches of
    /// the terms' colours, images or names.
    SwatchType {
        Select = "select",
        Color = "color",
        Image = "image",
        Label = "label",
    }
);

// Written out: the enum comes from `text_enum!`, which derives no Default.
#[allow(clippy::derivable_impls)]
impl Default for SwatchType {
    fn default() -> Self {
        Self::Select
    }
}

/// A global attribute ("Color", taxonomy "pa_color") and its terms, in display order.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attribute {
    pub id: AttributeId,
    pub name: String,
    /// The taxonomy name, `pa_` plus the attribute slug.
    pub taxonomy: String,
    #[serde(default)]
    pub swatch: SwatchType,
    pub terms: Vec<Term>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Term {
    pub id: TermId,
    pub name: String,
    pub slug: String,
    /// The colour a colour swatch shows (`#rrggbb`); empty for none.
    #[serde(default)]
    pub color: String,
    /// The picture an image swatch shows.
    #[serde(default)]
    pub image_id: Option<MediaId>,
}

/// A swatch colour as stored: `#rgb` or `#rrggbb`, lowercased; anything else is none.
pub fn parse_swatch_color(s: &str) -> Option<String> {
    let hex = s.trim().strip_prefix('#')?;
    let ok = matches!(hex.len(), 3 | 6) && hex.bytes().all(|b| b.is_ascii_hexdigit());
    ok.then(|| format!("#{}", hex.to_ascii_lowercase()))
}

/// An attribute as set on one product: either a global attribute (with term slugs as
/// values) or a custom one named on the product itself (with free-text values).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProductAttribute {
    pub attribute_id: Option<AttributeId>,
    /// Display name ("Color"); for a global attribute the attribute's name.
    pub name: String,
    /// Term slugs for a global attribute, the values themselves for a custom one.
    pub values: Vec<String>,
    /// Shown in the "Additional information" tab.
    pub visible: bool,
    /// Used to define the variations of a variable product.
    pub used_for_variations: bool,
    /// The value a variable product starts with chosen; empty for none.
    #[serde(default)]
    pub default_value: String,
}

/// One attribute value chosen by a variation: `attribute` is the taxonomy
/// (`pa_color`) for a global attribute or the custom attribute's name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VariationValue {
    pub attribute: String,
    pub value: String,
}

/// An image stored in the shop's database, served at `/media/{file_name}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Media {
    pub id: MediaId,
    /// Unique, URL-safe, with its extension ("aurora-hoodie-1.svg").
    pub file_name: String,
    pub mime_type: String,
    pub width: i64,
    pub height: i64,
    pub alt: String,
    pub caption: String,
    #[serde(skip)]
    pub body: Vec<u8>,
}

/// Physical size in millimetres.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dimensions {
    pub length_mm: i64,
    pub width_mm: i64,
    pub height_mm: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Product {
    pub id: ProductId,
    /// The variable product a variation belongs to; None for everything else.
    pub parent_id: Option<ProductId>,
    pub kind: ProductKind,
    pub status: ProductStatus,
    pub visibility: CatalogVisibility,
    pub name: String,
    /// Unique among products; a variation uses its parent's slug plus its own id.
    pub slug: String,
    /// Empty when the product has none; otherwise unique.
    pub sku: String,
    /// HTML.
    pub short_description: String,
    /// HTML.
    pub description: String,
    pub menu_order: i64,
    /// Unix seconds; "date" ordering uses it.
    pub created_at: i64,
    /// Unix seconds of the last change to the product itself.
    pub updated_at: i64,
    pub featured: bool,
    /// Minor units of the store currency. None on a variable parent (its prices are
    /// those of its variations) and on a product with no price yet.
    pub regular_price: Option<i64>,
    pub sale_price: Option<i64>,
    /// The sale price applies from and until these moments (Unix seconds), when set.
    pub sale_from: Option<i64>,
    pub sale_to: Option<i64>,
    pub manage_stock: bool,
    pub stock_quantity: Option<i64>,
    pub stock_status: StockStatus,
    pub backorders: Backorders,
    /// "Only N left in stock" shows at or below this.
    pub low_stock_amount: Option<i64>,
    /// The smallest quantity one cart line may hold (at least 1).
    pub min_quantity: i64,
    /// The largest quantity one cart line may hold, when limited (besides stock).
    pub max_quantity: Option<i64>,
    pub sold_individually: bool,
    pub weight_grams: Option<i64>,
    pub dimensions: Option<Dimensions>,
    /// External products: where the button goes, and what it says.
    pub external_url: String,
    pub button_text: String,
    /// Average rating in hundredths (0..=500) and the number of reviews.
    pub rating_average_x100: i64,
    pub review_count: i64,
    pub total_sales: i64,
    pub tax_status: TaxStatus,
    /// Tax class slug; empty is the standard rate.
    pub tax_class: String,
    /// Nothing to ship (a service, a gift card).
    pub is_virtual: bool,
    pub reviews_allowed: bool,
    /// Sent to the customer with the order confirmation.
    pub purchase_note: String,
    /// Shown on the product page ("You may also like") and in the cart ("You may be
    /// interested in"), in this order.
    pub upsell_ids: Vec<ProductId>,
    pub cross_sell_ids: Vec<ProductId>,
    /// Shipping class slug; empty for none.
    pub shipping_class: String,
    /// First image is the main one. A variation has at most one.
    pub image_ids: Vec<MediaId>,
    pub category_ids: Vec<CategoryId>,
    pub brand_ids: Vec<BrandId>,
    pub tag_ids: Vec<TagId>,
    /// Parents and simple products.
    pub attributes: Vec<ProductAttribute>,
    /// Variations: the value chosen for each variation attribute of the parent. An
    /// empty value means "any".
    pub variation: Vec<VariationValue>,
}

impl Product {
    /// A simple product with only a name: no price, no stock kept, no limits, in no
    /// category. Importers and tests fill in the rest.
    pub fn simple(id: ProductId, name: &str, slug: &str) -> Product {
        Product {
            id,
            parent_id: None,
            kind: ProductKind::Simple,
            status: ProductStatus::Publish,
            visibility: CatalogVisibility::Visible,
            name: name.to_string(),
            slug: slug.to_string(),
            sku: String::new(),
            short_description: String::new(),
            description: String::new(),
            menu_order: 0,
            created_at: 0,
            updated_at: 0,
            featured: false,
            regular_price: None,
            sale_price: None,
            sale_from: None,
            sale_to: None,
            manage_stock: false,
            stock_quantity: None,
            stock_status: StockStatus::InStock,
            backorders: Backorders::No,
            low_stock_amount: None,
            min_quantity: 1,
            max_quantity: None,
            sold_individually: false,
            weight_grams: None,
            dimensions: None,
            external_url: String::new(),
            button_text: String::new(),
            rating_average_x100: 0,
            review_count: 0,
            total_sales: 0,
            tax_status: TaxStatus::Taxable,
            tax_class: String::new(),
            is_virtual: false,
            reviews_allowed: true,
            purchase_note: String::new(),
            upsell_ids: Vec::new(),
            cross_sell_ids: Vec::new(),
            shipping_class: String::new(),
            image_ids: Vec::new(),
            category_ids: Vec::new(),
            brand_ids: Vec::new(),
            tag_ids: Vec::new(),
            attributes: Vec::new(),
            variation: Vec::new(),
        }
    }
}

/// Everything that makes up a catalogue, as loaded into or read from the database.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CatalogData {
    pub categories: Vec<Category>,
    pub brands: Vec<Brand>,
    pub tags: Vec<Tag>,
    pub attributes: Vec<Attribute>,
    pub media: Vec<Media>,
    pub products: Vec<Product>,
}

/// The most units of one product a cart line may hold, whatever the product allows
/// (the Store API's limit for a product without one of its own).
pub const STORE_MAX_QUANTITY: i64 = 9999;

/// The highest quantity one cart line of this product may hold.
pub fn max_quantity(p: &Product, parent: Option<&Product>) -> i64 {
    const STORE_MAX: i64 = STORE_MAX_QUANTITY;
    if p.sold_individually || parent.is_some_and(|x| x.sold_individually) {
        return 1;
    }
    let mut max = STORE_MAX;
    if let Some(m) = p.max_quantity.or(parent.and_then(|x| x.max_quantity)) {
        max = max.min(m);
    }
    if p.manage_stock && p.backorders == Backorders::No {
        max = max.min(p.stock_quantity.unwrap_or(0).max(0));
    }
    max
}

/// The lowest quantity one cart line of this product may hold.
pub fn min_quantity(p: &Product, parent: Option<&Product>) -> i64 {
    p.min_quantity
        .max(parent.map_or(1, |x| x.min_quantity))
        .max(1)
}
