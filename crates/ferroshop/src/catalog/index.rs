//! The in-memory catalogue: a read-only snapshot of the catalogue tables with the
//! lookups and the listing query the Store API needs. Each server instance reloads it
//! when the catalogue version in the database changes; live stock is always read from
//! the database where it decides something (adding to the cart, placing an order).

use std::collections::HashMap;
use std::sync::{Arc, RwLock};

use bytes::Bytes;

use super::model::*;

pub struct Catalog {
    pub version: i64,
    pub data: CatalogData,
    by_id: HashMap<ProductId, usize>,
    by_slug: HashMap<String, usize>,
    variations: HashMap<ProductId, Vec<usize>>,
    media: HashMap<MediaId, usize>,
    /// Every category's id together with the ids of all its descendants.
    category_trees: HashMap<CategoryId, Vec<CategoryId>>,
    /// What the category and brand calls show, worked out once per snapshot rather
    /// than by scanning every product on every request.
    category_facts: HashMap<CategoryId, TermFacts>,
    brand_facts: HashMap<BrandId, TermFacts>,
    /// Rendered listing responses for this snapshot (total, pages, body), by request;
    /// dropped with the snapshot.
    pub listings: ResponseCache<(usize, usize, Bytes)>,
    /// Taxes and shipping, versioned with the catalogue.
    pub rules: crate::checkout::rules::ShopRules,
}

/// Products in a category (with its subcategories) or a brand, and the main image of
/// the first of them in menu order, which stands in for a category without an image.
#[derive(Debug, Clone, Copy, Default)]
struct TermFacts {
    count: usize,
    first: Option<(i64, ProductId, Option<MediaId>)>,
}

impl TermFacts {
    fn add(&mut self, p: &Product) {
        self.count += 1;
        let key = (p.menu_order, p.id, p.image_ids.first().copied());
        if self
            .first
            .is_none_or(|(order, id, _)| (p.menu_order, p.id) < (order, id))
        {
            self.first = Some(key);
        }
    }
}

/// The price facts of a product, with a variable product summarised over its variations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PriceSummary {
    /// What the shopper pays now (the sale price when on sale); the lowest for a variable product.
    pub price: Option<i64>,
    pub regular: Option<i64>,
    pub sale: Option<i64>,
    /// Lowest and highest current price of a variable product's variations.
    pub range: Option<(i64, i64)>,
    pub on_sale: bool,
}

impl Catalog {
    /// The same snapshot priced by `rules`.
    pub fn with_rules(mut self, rules: crate::checkout::rules::ShopRules) -> Self {
        self.rules = rules;
        self
    }

    pub fn new(version: i64, data: CatalogData) -> Self {
        let by_id = data
            .products
            .iter()
            .enumerate()
            .map(|(i, p)| (p.id, i))
            .collect();
        let by_slug = data
            .products
            .iter()
            .enumerate()
            .map(|(i, p)| (p.slug.clone(), i))
            .collect();
        let mut variations: HashMap<ProductId, Vec<usize>> = HashMap::new();
        for (i, p) in data.products.iter().enumerate() {
            if let (ProductKind::Variation, Some(parent)) = (p.kind, p.parent_id) {
                variations.entry(parent).or_default().push(i);
            }
        }
        let media = data
            .media
            .iter()
            .enumerate()
            .map(|(i, m)| (m.id, i))
            .collect();
        let mut category_trees = HashMap::new();
        for c in &data.categories {
            let mut tree = vec![c.id];
            let mut i = 0;
            while i < tree.len() {
                let parent = tree[i];
                tree.extend(
                    data.categories
                        .iter()
                        .filter(|d| d.parent_id == Some(parent))
                        .map(|d| d.id),
                );
                i += 1;
            }
            category_trees.insert(c.id, tree);
        }
        let mut category_facts: HashMap<CategoryId, TermFacts> = HashMap::new();
        let mut brand_facts: HashMap<BrandId, TermFacts> = HashMap::new();
        for p in data
            .products
            .iter()
            .filter(|p| p.kind != ProductKind::Variation)
        {
            for (category, tree) in &category_trees {
                if p.category_ids.iter().any(|c| tree.contains(c)) {
                    category_facts.entry(*category).or_default().add(p);
                }
            }
            for b in &p.brand_ids {
                brand_facts.entry(*b).or_default().add(p);
            }
        }
        Self {
            version,
            data,
            category_facts,
            brand_facts,
            by_id,
            by_slug,
            variations,
            media,
            category_trees,
            listings: ResponseCache::default(),
            rules: Default::default(),
        }
    }

    pub fn product(&self, id: ProductId) -> Option<&Product> {
        self.by_id.get(&id).map(|&i| &self.data.products[i])
    }

    pub fn product_by_slug(&self, slug: &str) -> Option<&Product> {
        self.by_slug
            .get(slug)
            .map(|&i| &self.data.products[i])
            .filter(|p| p.kind != ProductKind::Variation)
    }

    pub fn variations_of(&self, id: ProductId) -> impl Iterator<Item = &Product> {
        self.variations
            .get(&id)
            .into_iter()
            .flatten()
            .map(|&i| &self.data.products[i])
    }

    pub fn media(&self, id: MediaId) -> Option<&Media> {
        self.media.get(&id).map(|&i| &self.data.media[i])
    }

    pub fn category(&self, id: CategoryId) -> Option<&Category> {
        self.data.categories.iter().find(|c| c.id == id)
    }

    pub fn brand(&self, id: BrandId) -> Option<&Brand> {
        self.data.brands.iter().find(|b| b.id == id)
    }

    pub fn tag(&self, id: TagId) -> Option<&Tag> {
        self.data.tags.iter().find(|t| t.id == id)
    }

    pub fn attribute(&self, id: AttributeId) -> Option<&Attribute> {
        self.data.attributes.iter().find(|a| a.id == id)
    }

    /// The taxonomy ("pa_color") or, for a custom attribute, the name a variation uses.
    pub fn attribute_key(&self, a: &ProductAttribute) -> String {
        a.attribute_id
            .and_then(|id| self.attribute(id))
            .map(|g| g.taxonomy.clone())
            .unwrap_or_else(|| a.name.clone())
    }

    /// The display name of an attribute value: a global term's name, or the value itself.
    pub fn value_name(&self, attribute_key: &str, value: &str) -> String {
        self.data
            .attributes
            .iter()
            .find(|a| a.taxonomy == attribute_key)
            .and_then(|a| a.terms.iter().find(|t| t.slug == value))
            .map(|t| t.name.clone())
            .unwrap_or_else(|| value.to_string())
    }

    /// The display name of an attribute key ("pa_color" → "Color").
    pub fn attribute_label(&self, attribute_key: &str) -> String {
        self.data
            .attributes
            .iter()
            .find(|a| a.taxonomy == attribute_key)
            .map(|a| a.name.clone())
            .unwrap_or_else(|| attribute_key.to_string())
    }

    pub fn category_tree(&self, id: CategoryId) -> &[CategoryId] {
        self.category_trees
            .get(&id)
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }

    /// Published top-level products in a category or any of its subcategories.
    pub fn category_count(&self, id: CategoryId) -> usize {
        self.category_facts.get(&id).map_or(0, |f| f.count)
    }

    pub fn brand_count(&self, id: BrandId) -> usize {
        self.brand_facts.get(&id).map_or(0, |f| f.count)
    }

    /// The main image of the category's first product in menu order.
    pub fn category_stand_in_image(&self, id: CategoryId) -> Option<&Media> {
        let (_, _, image) = self.category_facts.get(&id)?.first?;
        self.media(image?)
    }

    pub fn top_level(&self) -> impl Iterator<Item = &Product> {
        self.data
            .products
            .iter()
            .filter(|p| p.kind != ProductKind::Variation)
    }

    pub fn prices(&self, p: &Product) -> PriceSummary {
        if p.kind == ProductKind::Variable {
            let mut lo: Option<i64> = None;
            let mut hi: Option<i64> = None;
            let mut regular_lo: Option<i64> = None;
            let mut on_sale = false;
            let mut sale_lo: Option<i64> = None;
            for v in self.variations_of(p.id) {
                let own = own_prices(v);
                if let Some(price) = own.price {
                    lo = Some(lo.map_or(price, |x| x.min(price)));
                    hi = Some(hi.map_or(price, |x| x.max(price)));
                }
                if let Some(r) = own.regular {
                    regular_lo = Some(regular_lo.map_or(r, |x| x.min(r)));
                }
                if own.on_sale {
                    on_sale = true;
                    sale_lo = own.sale.map(|s| sale_lo.map_or(s, |x: i64| x.min(s)));
                }
            }
            return PriceSummary {
                price: lo,
                regular: regular_lo,
                sale: if on_sale { sale_lo } else { lo },
                range: lo.zip(hi),
                on_sale,
            };
        }
        own_prices(p)
    }

    /// In stock, or on backorder: something the shopper can order now.
    pub fn is_in_stock(&self, p: &Product) -> bool {
        match p.kind {
            ProductKind::Variable => self
                .variations_of(p.id)
                .any(|v| v.stock_status != StockStatus::OutOfStock),
            _ => p.stock_status != StockStatus::OutOfStock,
        }
    }

    pub fn is_purchasable(&self, p: &Product) -> bool {
        match p.kind {
            ProductKind::External => false,
            ProductKind::Variable => self
                .variations_of(p.id)
                .any(|v| own_prices(v).price.is_some()),
            _ => own_prices(p).price.is_some(),
        }
    }

    /// Runs a listing query: the matching top-level products of one page, and the total.
    pub fn list(&self, q: &ProductQuery) -> (Vec<&Product>, usize) {
        let category_filter: Option<Vec<CategoryId>> = q.category.as_ref().map(|wanted| {
            wanted
                .iter()
                .filter_map(|c| self.resolve_category(c))
                .flat_map(|id| self.category_tree(id).iter().copied())
                .collect()
        });
        let brand_filter: Option<Vec<BrandId>> = q.brand.as_ref().map(|wanted| {
            wanted
                .iter()
                .filter_map(|b| self.resolve_brand(b))
                .collect()
        });
        let tag_filter: Option<Vec<TagId>> = q.tag.as_ref().map(|wanted| {
            wanted
                .iter()
                .filter_map(|t| match t {
                    IdOrSlug::Id(id) => Some(TagId(*id)),
                    IdOrSlug::Slug(s) => self.data.tags.iter().find(|x| &x.slug == s).map(|x| x.id),
                })
                .collect()
        });
        let search = q.search.as_ref().map(|s| s.to_lowercase());

        let mut found: Vec<(&Product, PriceSummary)> = self
            .data
            .products
            .iter()
            .filter(|p| match &q.kind {
                Some(kind) => p.kind == *kind,
                None => p.kind != ProductKind::Variation,
            })
            .filter(|p| {
                category_filter
                    .as_ref()
                    .is_none_or(|ids| p.category_ids.iter().any(|c| ids.contains(c)))
            })
            .filter(|p| {
                brand_filter
                    .as_ref()
                    .is_none_or(|ids| p.brand_ids.iter().any(|b| ids.contains(b)))
            })
            .filter(|p| {
                tag_filter
                    .as_ref()
                    .is_none_or(|ids| p.tag_ids.iter().any(|t| ids.contains(t)))
            })
            .filter(|p| q.include.as_ref().is_none_or(|ids| ids.contains(&p.id)))
            .filter(|p| !q.exclude.contains(&p.id))
            .filter(|p| q.slug.as_ref().is_none_or(|s| &p.slug == s))
            .filter(|p| q.sku.as_ref().is_none_or(|s| p.sku.eq_ignore_ascii_case(s)))
            .filter(|p| q.featured.is_none_or(|f| p.featured == f))
            .filter(|p| {
                q.stock_status
                    .as_ref()
                    .is_none_or(|s| s.contains(&self.stock_status(p)))
            })
            .filter(|p| {
                search.as_ref().is_none_or(|s| {
                    p.name.to_lowercase().contains(s)
                        || p.sku.to_lowercase().contains(s)
                        || p.short_description.to_lowercase().contains(s)
                        || p.description.to_lowercase().contains(s)
                })
            })
            .map(|p| (p, self.prices(p)))
            .filter(|(_, prices)| q.on_sale.is_none_or(|wanted| prices.on_sale == wanted))
            .filter(|(_, prices)| {
                let (lo, hi) = prices
                    .range
                    .or(prices.price.map(|x| (x, x)))
                    .unwrap_or((0, 0));
                q.min_price.is_none_or(|min| hi >= min) && q.max_price.is_none_or(|max| lo <= max)
            })
            .collect();

        let desc = q.order == SortOrder::Desc;
        found.sort_by(|(a, pa), (b, pb)| {
            use std::cmp::Ordering;
            let primary = match q.orderby {
                OrderBy::MenuOrder => a
                    .menu_order
                    .cmp(&b.menu_order)
                    .then_with(|| a.name.cmp(&b.name)),
                OrderBy::Popularity => a.total_sales.cmp(&b.total_sales),
                OrderBy::Rating => a.rating_average_x100.cmp(&b.rating_average_x100),
                OrderBy::Date => a.created_at.cmp(&b.created_at),
                // Cheapest first compares lowest prices; dearest first, highest prices.
                OrderBy::Price => {
                    let key = |s: &PriceSummary| match (s.range, desc) {
                        (Some((_, hi)), true) => hi,
                        (Some((lo, _)), false) => lo,
                        _ => s.price.unwrap_or(0),
                    };
                    key(pa).cmp(&key(pb))
                }
                OrderBy::Title => a.name.to_lowercase().cmp(&b.name.to_lowercase()),
                OrderBy::Slug => a.slug.cmp(&b.slug),
                OrderBy::Id => a.id.cmp(&b.id),
                OrderBy::Include => {
                    let pos = |p: &Product| {
                        q.include
                            .as_ref()
                            .and_then(|ids| ids.iter().position(|x| *x == p.id))
                    };
                    pos(a).cmp(&pos(b))
                }
            };
            let primary = if desc { primary.reverse() } else { primary };
            // Ties keep a stable order, newest first, so pages never overlap.
            match primary {
                Ordering::Equal => b.id.cmp(&a.id),
                other => other,
            }
        });
        let total = found.len();
        let start = (q.page - 1).saturating_mul(q.per_page);
        let page = found
            .into_iter()
            .skip(start)
            .take(q.per_page)
            .map(|(p, _)| p)
            .collect();
        (page, total)
    }

    /// The stock status a shopper sees; a variable product is in stock while any variation is.
    pub fn stock_status(&self, p: &Product) -> StockStatus {
        match p.kind {
            ProductKind::Variable => {
                let statuses: Vec<StockStatus> =
                    self.variations_of(p.id).map(|v| v.stock_status).collect();
                if statuses.contains(&StockStatus::InStock) {
                    StockStatus::InStock
                } else if statuses.contains(&StockStatus::OnBackorder) {
                    StockStatus::OnBackorder
                } else {
                    StockStatus::OutOfStock
                }
            }
            _ => p.stock_status,
        }
    }

    pub fn resolve_category(&self, c: &IdOrSlug) -> Option<CategoryId> {
        match c {
            IdOrSlug::Id(id) => self.category(CategoryId(*id)).map(|c| c.id),
            IdOrSlug::Slug(s) => self
                .data
                .categories
                .iter()
                .find(|x| &x.slug == s)
                .map(|x| x.id),
        }
    }

    pub fn resolve_brand(&self, b: &IdOrSlug) -> Option<BrandId> {
        match b {
            IdOrSlug::Id(id) => self.brand(BrandId(*id)).map(|b| b.id),
            IdOrSlug::Slug(s) => self.data.brands.iter().find(|x| &x.slug == s).map(|x| x.id),
        }
    }

    /// The variation of `parent` whose attribute values match `chosen` (attribute key
    /// to value); a variation's empty value matches anything.
    pub fn find_variation(
        &self,
        parent: ProductId,
        chosen: &[(String, String)],
    ) -> Option<&Product> {
        let parent_product = self.product(parent)?;
        let keys: Vec<String> = parent_product
            .attributes
            .iter()
            .filter(|a| a.used_for_variations)
            .map(|a| self.attribute_key(a))
            .collect();
        // Every variation attribute must be chosen.
        if !keys
            .iter()
            .all(|k| chosen.iter().any(|(ck, v)| ck == k && !v.is_empty()))
        {
            return None;
        }
        self.variations_of(parent).find(|v| {
            v.variation.iter().all(|vv| {
                vv.value.is_empty()
                    || chosen.iter().any(|(k, value)| {
                        k == &vv.attribute && value.eq_ignore_ascii_case(&vv.value)
                    })
            })
        })
    }
}

fn own_prices(p: &Product) -> PriceSummary {
    let on_sale = matches!((p.sale_price, p.regular_price), (Some(s), Some(r)) if s < r);
    let price = if on_sale {
        p.sale_price
    } else {
        p.regular_price.or(p.sale_price)
    };
    PriceSummary {
        price,
        regular: p.regular_price.or(price),
        sale: if on_sale { p.sale_price } else { price },
        range: None,
        on_sale,
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IdOrSlug {
    Id(i64),
    Slug(String),
}

impl IdOrSlug {
    pub fn parse(s: &str) -> Self {
        match s.trim().parse::<i64>() {
            Ok(id) => Self::Id(id),
            Err(_) => Self::Slug(s.trim().to_string()),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OrderBy {
    MenuOrder,
    Popularity,
    Rating,
    Date,
    Price,
    Title,
    Slug,
    Id,
    Include,
}

impl OrderBy {
    pub const NAMES: &'static str =
        "date, id, include, title, slug, price, popularity, rating, menu_order";

    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "menu_order" => Self::MenuOrder,
            "popularity" => Self::Popularity,
            "rating" => Self::Rating,
            "date" => Self::Date,
            "price" => Self::Price,
            "title" => Self::Title,
            "slug" => Self::Slug,
            "id" => Self::Id,
            "include" => Self::Include,
            _ => return None,
        })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortOrder {
    Asc,
    Desc,
}

/// A parsed, valid listing request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProductQuery {
    pub page: usize,
    pub per_page: usize,
    pub orderby: OrderBy,
    pub order: SortOrder,
    pub category: Option<Vec<IdOrSlug>>,
    pub brand: Option<Vec<IdOrSlug>>,
    pub tag: Option<Vec<IdOrSlug>>,
    pub search: Option<String>,
    pub on_sale: Option<bool>,
    pub featured: Option<bool>,
    pub min_price: Option<i64>,
    pub max_price: Option<i64>,
    pub include: Option<Vec<ProductId>>,
    pub exclude: Vec<ProductId>,
    pub slug: Option<String>,
    pub sku: Option<String>,
    pub kind: Option<ProductKind>,
    pub stock_status: Option<Vec<StockStatus>>,
}

impl Default for ProductQuery {
    fn default() -> Self {
        Self {
            page: 1,
            per_page: 10,
            orderby: OrderBy::Date,
            order: SortOrder::Desc,
            category: None,
            brand: None,
            tag: None,
            search: None,
            on_sale: None,
            featured: None,
            min_price: None,
            max_price: None,
            include: None,
            exclude: Vec::new(),
            slug: None,
            sku: None,
            kind: None,
            stock_status: None,
        }
    }
}

/// Rendered response bodies, keyed by whatever identifies the request. Bounded: when
/// full it starts over, which is fine for a cache that refills in microseconds.
pub struct ResponseCache<V> {
    entries: RwLock<HashMap<String, V>>,
}

impl<V> Default for ResponseCache<V> {
    fn default() -> Self {
        Self {
            entries: RwLock::new(HashMap::new()),
        }
    }
}

impl<V: Clone> ResponseCache<V> {
    const MAX_ENTRIES: usize = 2048;

    pub fn get(&self, key: &str) -> Option<V> {
        self.entries.read().ok()?.get(key).cloned()
    }

    pub fn put(&self, key: String, body: V) {
        if let Ok(mut map) = self.entries.write() {
            if map.len() >= Self::MAX_ENTRIES {
                map.clear();
            }
            map.insert(key, body);
        }
    }
}

/// The current snapshot, swapped whole when the catalogue changes.
#[derive(Clone)]
pub struct CatalogHandle {
    current: Arc<RwLock<Arc<Catalog>>>,
}

impl CatalogHandle {
    pub fn new(catalog: Catalog) -> Self {
        Self {
            current: Arc::new(RwLock::new(Arc::new(catalog))),
        }
    }

    pub fn get(&self) -> Arc<Catalog> {
        self.current
            .read()
            .map(|c| c.clone())
            .unwrap_or_else(|e| e.into_inner().clone())
    }

    pub fn replace(&self, catalog: Catalog) {
        match self.current.write() {
            Ok(mut c) => *c = Arc::new(catalog),
            Err(e) => *e.into_inner() = Arc::new(catalog),
        }
    }
}
