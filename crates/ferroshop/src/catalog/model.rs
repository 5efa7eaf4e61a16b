//! The catalogue as the shop sees it: products (simple, variable, external and the
//! variations of variable products), their taxonomies (categories, brands, tags,
//! attributes) and their images. Plain data; no SQL or HTTP here.

use serde::{Deserialize, Serialize};

macro_rules! id_type {
    ($($(#[$doc:meta])* $name:ident),* $(,)?) => {$(
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
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

/// A global attribute ("Color", taxonomy "pa_color") and its terms, in display order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attribute {
    pub id: AttributeId,
    pub name: String,
    /// The taxonomy name, `pa_` plus the attribute slug.
    pub taxonomy: String,
    pub terms: Vec<Term>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Term {
    pub id: TermId,
    pub name: String,
    pub slug: String,
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
    pub featured: bool,
    /// Minor units of the store currency. None on a variable parent (its prices are
    /// those of its variations) and on a product with no price yet.
    pub regular_price: Option<i64>,
    pub sale_price: Option<i64>,
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
    /// Tax class slug; empty is the standard rate.
    pub tax_class: String,
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
