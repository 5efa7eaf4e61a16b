//! The in-memory catalogue: a read-only snapshot of the catalogue tables with the
//! lookups and the listing query the Store API needs.
//!
//! A snapshot is products (shared between snapshots: one that did not change is the
//! same allocation in the old and the new one), an index built from them (positions by
//! id and slug, a bitmap of product positions per category, brand, tag, attribute term
//! and flag, and every sort order precomputed), and a live part (stock status and the
//! orders that follow sales and ratings) rebuilt alone when orders move stock. A
//! listing intersects bitmaps and walks a precomputed order: nothing per request
//! filters or sorts the whole catalogue.

use std::cmp::Ordering;
use std::collections::HashMap;
use std::sync::{Arc, RwLock};

use bytes::Bytes;
use roaring::RoaringBitmap;

use super::model::*;

pub struct Catalog {
    pub version: i64,
    /// Terms and media; products are in `products`.
    pub data: Arc<CatalogData>,
    /// Every product and variation, by id.
    products: Vec<Arc<Product>>,
    index: Arc<Index>,
    live: Arc<LiveIndex>,
    /// Rendered listing responses for this snapshot (total, pages, body), by request;
    /// dropped with the snapshot, so a stock change starts it afresh.
    pub listings: ResponseCache<(usize, usize, Bytes)>,
    /// Rendered filter counts (collection data), by request, alike.
    pub collections: ResponseCache<Bytes>,
    /// Taxes and shipping, versioned with the catalogue.
    pub rules: crate::pricing::rules::ShopRules,
}

/// What orders change on a product: read live from the database, never a reason to
/// reload the catalogue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LiveFigures {
    pub id: ProductId,
    pub stock_quantity: Option<i64>,
    pub stock_status: StockStatus,
    pub total_sales: i64,
    pub rating_average_x100: i64,
    pub review_count: i64,
}

impl LiveFigures {
    pub fn of(p: &Product) -> Self {
        LiveFigures {
            id: p.id,
            stock_quantity: p.stock_quantity,
            stock_status: p.stock_status,
            total_sales: p.total_sales,
            rating_average_x100: p.rating_average_x100,
            review_count: p.review_count,
        }
    }

    fn apply(&self, p: &Product) -> Product {
        Product {
            stock_quantity: self.stock_quantity,
            stock_status: self.stock_status,
            total_sales: self.total_sales,
            rating_average_x100: self.rating_average_x100,
            review_count: self.review_count,
            ..p.clone()
        }
    }
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

impl PriceSummary {
    /// The lowest and highest price the product sells at.
    fn bounds(&self) -> (i64, i64) {
        self.range.or(self.price.map(|x| (x, x))).unwrap_or((0, 0))
    }
}

/// Orders that never change with sales: built with the snapshot.
const STATIC_ORDERS: [OrderBy; 6] = [
    OrderBy::MenuOrder,
    OrderBy::Date,
    OrderBy::Price,
    OrderBy::Title,
    OrderBy::Slug,
    OrderBy::Id,
];

/// Product positions in one sort order, and each position's rank in it.
#[derive(Default)]
struct SortedOrder {
    positions: Vec<u32>,
    rank: Vec<u32>,
    /// Only the products a shop page lists, in this order: an unfiltered page is a
    /// slice of it.
    shown: Vec<u32>,
}

impl SortedOrder {
    fn build(n: usize, shown: &RoaringBitmap, cmp: impl Fn(u32, u32) -> Ordering) -> Self {
        let mut positions: Vec<u32> = (0..n as u32).collect();
        positions.sort_unstable_by(|&a, &b| cmp(a, b));
        let mut rank = vec![0; n];
        for (r, &p) in positions.iter().enumerate() {
            rank[p as usize] = r as u32;
        }
        let shown = positions
            .iter()
            .copied()
            .filter(|&p| shown.contains(p))
            .collect();
        SortedOrder {
            positions,
            rank,
            shown,
        }
    }
}

/// Everything worked out from products and terms once per snapshot.
struct Index {
    /// When the prices were worked out (sale windows), and the next moment a sale
    /// starts or ends, when they must be worked out again.
    priced_at: i64,
    next_sale_boundary: Option<i64>,
    by_id: HashMap<ProductId, u32>,
    by_slug: HashMap<String, u32>,
    by_sku: HashMap<String, u32>,
    variations: HashMap<ProductId, Vec<u32>>,
    media: HashMap<MediaId, usize>,
    media_by_name: HashMap<String, usize>,
    /// Every category's id together with the ids of all its descendants.
    category_trees: HashMap<CategoryId, Vec<CategoryId>>,
    category_facts: HashMap<CategoryId, TermFacts>,
    brand_facts: HashMap<BrandId, TermFacts>,
    /// Published products a shop page lists (visible in the catalogue), and those a
    /// search finds (visible in search).
    shown: RoaringBitmap,
    searchable: RoaringBitmap,
    /// Published products by kind.
    by_kind: Vec<(ProductKind, RoaringBitmap)>,
    /// A category with all its subcategories.
    in_category_tree: HashMap<CategoryId, RoaringBitmap>,
    in_brand: HashMap<BrandId, RoaringBitmap>,
    in_tag: HashMap<TagId, RoaringBitmap>,
    /// (taxonomy, term slug) of global attributes.
    with_term: HashMap<(String, String), RoaringBitmap>,
    featured: RoaringBitmap,
    on_sale: RoaringBitmap,
    prices: Vec<PriceSummary>,
    orders: HashMap<(OrderBy, SortOrder), SortedOrder>,
}

/// What follows stock and sales.
struct LiveIndex {
    stock: Vec<StockStatus>,
    /// Products by average rating rounded to whole stars (1 to 5; unrated in none).
    by_rating: [RoaringBitmap; 6],
    by_stock: Vec<(StockStatus, RoaringBitmap)>,
    orders: HashMap<(OrderBy, SortOrder), SortedOrder>,
}

fn key_order(a: i64, b: i64, dir: SortOrder) -> Ordering {
    match dir {
        SortOrder::Asc => a.cmp(&b),
        SortOrder::Desc => b.cmp(&a),
    }
}

/// Ties keep a stable order, newest first, so pages never overlap.
fn then_newest(primary: Ordering, a: &Product, b: &Product) -> Ordering {
    primary.then_with(|| b.id.cmp(&a.id))
}

impl Index {
    fn build(data: &CatalogData, products: &[Arc<Product>], now: i64) -> Index {
        let n = products.len();
        let mut by_id = HashMap::with_capacity(n);
        let mut by_slug = HashMap::with_capacity(n);
        let mut by_sku = HashMap::new();
        let mut variations: HashMap<ProductId, Vec<u32>> = HashMap::new();
        for (i, p) in products.iter().enumerate() {
            by_id.insert(p.id, i as u32);
            by_slug.insert(p.slug.clone(), i as u32);
            if !p.sku.is_empty() {
                by_sku.insert(p.sku.to_ascii_lowercase(), i as u32);
            }
            if let (ProductKind::Variation, Some(parent)) = (p.kind, p.parent_id) {
                variations.entry(parent).or_default().push(i as u32);
            }
        }
        let media = data
            .media
            .iter()
            .enumerate()
            .map(|(i, m)| (m.id, i))
            .collect();
        let media_by_name = data
            .media
            .iter()
            .enumerate()
            .map(|(i, m)| (m.file_name.clone(), i))
            .collect();
        let mut children: HashMap<CategoryId, Vec<CategoryId>> = HashMap::new();
        let mut parent_of: HashMap<CategoryId, CategoryId> = HashMap::new();
        for c in &data.categories {
            if let Some(parent) = c.parent_id {
                children.entry(parent).or_default().push(c.id);
                parent_of.insert(c.id, parent);
            }
        }
        let mut category_trees = HashMap::new();
        for c in &data.categories {
            let mut tree = vec![c.id];
            let mut i = 0;
            while i < tree.len() {
                for kid in children.get(&tree[i]).into_iter().flatten() {
                    if !tree.contains(kid) {
                        tree.push(*kid);
                    }
                }
                i += 1;
            }
            category_trees.insert(c.id, tree);
        }

        let mut next_sale_boundary: Option<i64> = None;
        let mut note_boundary = |t: Option<i64>| {
            if let Some(t) = t.filter(|&t| t > now) {
                next_sale_boundary = Some(next_sale_boundary.map_or(t, |b: i64| b.min(t)));
            }
        };
        for p in products {
            note_boundary(p.sale_from);
            note_boundary(p.sale_to);
        }
        let own: Vec<PriceSummary> = products.iter().map(|p| own_prices_at(p, now)).collect();
        let prices: Vec<PriceSummary> = products
            .iter()
            .enumerate()
            .map(|(i, p)| match p.kind {
                ProductKind::Variable => summarise(
                    variations
                        .get(&p.id)
                        .into_iter()
                        .flatten()
                        .map(|&v| own[v as usize]),
                ),
                _ => own[i],
            })
            .collect();

        let mut shown = RoaringBitmap::new();
        let mut searchable = RoaringBitmap::new();
        let mut by_kind: Vec<(ProductKind, RoaringBitmap)> = Vec::new();
        let mut in_category: HashMap<CategoryId, RoaringBitmap> = HashMap::new();
        let mut in_brand: HashMap<BrandId, RoaringBitmap> = HashMap::new();
        let mut in_tag: HashMap<TagId, RoaringBitmap> = HashMap::new();
        let mut with_term: HashMap<(String, String), RoaringBitmap> = HashMap::new();
        let mut featured = RoaringBitmap::new();
        let mut on_sale = RoaringBitmap::new();
        let mut category_facts: HashMap<CategoryId, TermFacts> = HashMap::new();
        let mut brand_facts: HashMap<BrandId, TermFacts> = HashMap::new();
        let taxonomy: HashMap<AttributeId, &str> = data
            .attributes
            .iter()
            .map(|a| (a.id, a.taxonomy.as_str()))
            .collect();
        for (i, p) in products.iter().enumerate() {
            let pos = i as u32;
            let published = p.status == ProductStatus::Publish;
            if published {
                match by_kind.iter_mut().find(|(k, _)| *k == p.kind) {
                    Some((_, b)) => {
                        b.insert(pos);
                    }
                    None => by_kind.push((p.kind, RoaringBitmap::from_iter([pos]))),
                }
            }
            if p.featured {
                featured.insert(pos);
            }
            if prices[i].on_sale {
                on_sale.insert(pos);
            }
            if p.kind == ProductKind::Variation {
                continue;
            }
            if published && p.visibility.in_catalog() {
                shown.insert(pos);
            }
            if published && p.visibility.in_search() {
                searchable.insert(pos);
            }
            for c in &p.category_ids {
                in_category.entry(*c).or_default().insert(pos);
            }
            for b in &p.brand_ids {
                in_brand.entry(*b).or_default().insert(pos);
                brand_facts.entry(*b).or_default().add(p);
            }
            for t in &p.tag_ids {
                in_tag.entry(*t).or_default().insert(pos);
            }
            for a in &p.attributes {
                if let Some(tax) = a.attribute_id.and_then(|id| taxonomy.get(&id)) {
                    for v in &a.values {
                        with_term
                            .entry((tax.to_string(), v.clone()))
                            .or_default()
                            .insert(pos);
                    }
                }
            }
            // A product counts once in each category it sits in and in each of their
            // ancestors.
            let mut counted: Vec<CategoryId> = Vec::new();
            for c in &p.category_ids {
                let mut at = Some(*c);
                while let Some(cat) = at {
                    if counted.contains(&cat) {
                        break;
                    }
                    counted.push(cat);
                    category_facts.entry(cat).or_default().add(p);
                    at = parent_of.get(&cat).copied();
                }
            }
        }

        let in_category_tree: HashMap<CategoryId, RoaringBitmap> = category_trees
            .iter()
            .map(|(id, tree): (&CategoryId, &Vec<CategoryId>)| {
                let mut all = RoaringBitmap::new();
                for c in tree {
                    if let Some(b) = in_category.get(c) {
                        all |= b;
                    }
                }
                (*id, all)
            })
            .collect();
        let lower_names: Vec<String> = products.iter().map(|p| p.name.to_lowercase()).collect();
        let mut orders = HashMap::new();
        for orderby in STATIC_ORDERS {
            for dir in [SortOrder::Asc, SortOrder::Desc] {
                let cmp = |a: u32, b: u32| {
                    let (pa, pb) = (&products[a as usize], &products[b as usize]);
                    let primary = match orderby {
                        OrderBy::MenuOrder => {
                            let c = pa
                                .menu_order
                                .cmp(&pb.menu_order)
                                .then_with(|| pa.name.cmp(&pb.name));
                            if dir == SortOrder::Desc {
                                c.reverse()
                            } else {
                                c
                            }
                        }
                        OrderBy::Date => key_order(pa.created_at, pb.created_at, dir),
                        // Cheapest first compares lowest prices; dearest first, highest.
                        OrderBy::Price => {
                            let key = |i: u32| {
                                let s = &prices[i as usize];
                                match (s.range, dir) {
                                    (Some((_, hi)), SortOrder::Desc) => hi,
                                    (Some((lo, _)), SortOrder::Asc) => lo,
                                    _ => s.price.unwrap_or(0),
                                }
                            };
                            key_order(key(a), key(b), dir)
                        }
                        OrderBy::Title => {
                            let c = lower_names[a as usize].cmp(&lower_names[b as usize]);
                            if dir == SortOrder::Desc {
                                c.reverse()
                            } else {
                                c
                            }
                        }
                        OrderBy::Slug => {
                            let c = pa.slug.cmp(&pb.slug);
                            if dir == SortOrder::Desc {
                                c.reverse()
                            } else {
                                c
                            }
                        }
                        _ => key_order(pa.id.0, pb.id.0, dir),
                    };
                    then_newest(primary, pa, pb)
                };
                orders.insert((orderby, dir), SortedOrder::build(n, &shown, cmp));
            }
        }

        Index {
            priced_at: now,
            next_sale_boundary,
            by_id,
            by_slug,
            by_sku,
            variations,
            media,
            media_by_name,
            category_trees,
            category_facts,
            brand_facts,
            shown,
            searchable,
            by_kind,
            in_category_tree,
            in_brand,
            in_tag,
            with_term,
            featured,
            on_sale,
            prices,
            orders,
        }
    }
}

impl LiveIndex {
    fn build(index: &Index, products: &[Arc<Product>]) -> LiveIndex {
        let n = products.len();
        let stock: Vec<StockStatus> = products
            .iter()
            .map(|p| match p.kind {
                ProductKind::Variable => combined_stock(
                    index
                        .variations
                        .get(&p.id)
                        .into_iter()
                        .flatten()
                        .map(|&v| products[v as usize].stock_status),
                ),
                _ => p.stock_status,
            })
            .collect();
        let mut by_stock: Vec<(StockStatus, RoaringBitmap)> = [
            StockStatus::InStock,
            StockStatus::OutOfStock,
            StockStatus::OnBackorder,
        ]
        .into_iter()
        .map(|s| (s, RoaringBitmap::new()))
        .collect();
        for (i, s) in stock.iter().enumerate() {
            if let Some((_, b)) = by_stock.iter_mut().find(|(k, _)| k == s) {
                b.insert(i as u32);
            }
        }
        let mut by_rating: [RoaringBitmap; 6] = Default::default();
        for (i, p) in products.iter().enumerate() {
            let stars = rounded_stars(p.rating_average_x100);
            if stars > 0 {
                by_rating[stars].insert(i as u32);
            }
        }
        let mut orders = HashMap::new();
        for orderby in [OrderBy::Popularity, OrderBy::Rating] {
            for dir in [SortOrder::Asc, SortOrder::Desc] {
                let key = |p: &Product| match orderby {
                    OrderBy::Popularity => p.total_sales,
                    _ => p.rating_average_x100,
                };
                let cmp = |a: u32, b: u32| {
                    let (pa, pb) = (&products[a as usize], &products[b as usize]);
                    then_newest(key_order(key(pa), key(pb), dir), pa, pb)
                };
                orders.insert((orderby, dir), SortedOrder::build(n, &index.shown, cmp));
            }
        }
        LiveIndex {
            stock,
            by_rating,
            by_stock,
            orders,
        }
    }
}

/// An average rating in hundredths as whole stars, halves rounded up (0 = unrated).
fn rounded_stars(x100: i64) -> usize {
    ((x100.clamp(0, 500) + 50) / 100) as usize
}

/// A variable product is in stock while any variation is.
fn combined_stock(statuses: impl Iterator<Item = StockStatus>) -> StockStatus {
    let mut any_backorder = false;
    for s in statuses {
        match s {
            StockStatus::InStock => return StockStatus::InStock,
            StockStatus::OnBackorder => any_backorder = true,
            StockStatus::OutOfStock => {}
        }
    }
    if any_backorder {
        StockStatus::OnBackorder
    } else {
        StockStatus::OutOfStock
    }
}

fn summarise(variations: impl Iterator<Item = PriceSummary>) -> PriceSummary {
    let mut lo: Option<i64> = None;
    let mut hi: Option<i64> = None;
    let mut regular_lo: Option<i64> = None;
    let mut on_sale = false;
    let mut sale_lo: Option<i64> = None;
    for own in variations {
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
    PriceSummary {
        price: lo,
        regular: regular_lo,
        sale: if on_sale { sale_lo } else { lo },
        range: lo.zip(hi),
        on_sale,
    }
}

impl Catalog {
    /// The same snapshot priced by `rules`.
    pub fn with_rules(mut self, rules: crate::pricing::rules::ShopRules) -> Self {
        self.rules = rules;
        self
    }

    /// A snapshot of `data` with sale windows judged now.
    pub fn new(version: i64, data: CatalogData) -> Self {
        Self::at(version, data, crate::clock::now())
    }

    /// A snapshot of `data` with sale windows judged at `now` (Unix seconds).
    pub fn at(version: i64, mut data: CatalogData, now: i64) -> Self {
        let mut products: Vec<Arc<Product>> = std::mem::take(&mut data.products)
            .into_iter()
            .map(Arc::new)
            .collect();
        products.sort_by_key(|p| p.id);
        Self::assemble(version, Arc::new(data), products, now)
    }

    /// A snapshot of `data`'s terms and media with `products` (in id order, any
    /// `data.products` ignored), sale windows judged at `now`. Products may be shared
    /// with another snapshot.
    pub fn with_products(
        version: i64,
        mut data: CatalogData,
        products: Vec<Arc<Product>>,
        now: i64,
    ) -> Self {
        data.products = Vec::new();
        debug_assert!(products.windows(2).all(|w| w[0].id < w[1].id));
        Self::assemble(version, Arc::new(data), products, now)
    }

    /// The product with this id as this snapshot holds it, to share with the next.
    pub fn shared_product(&self, id: ProductId) -> Option<&Arc<Product>> {
        let at = *self.index.by_id.get(&id)?;
        self.products.get(at as usize)
    }

    fn assemble(
        version: i64,
        data: Arc<CatalogData>,
        products: Vec<Arc<Product>>,
        now: i64,
    ) -> Self {
        let index = Index::build(&data, &products, now);
        let live = LiveIndex::build(&index, &products);
        Self {
            version,
            data,
            products,
            index: Arc::new(index),
            live: Arc::new(live),
            listings: ResponseCache::default(),
            collections: ResponseCache::default(),
            rules: Default::default(),
        }
    }

    /// The snapshot after a catalogue change: `changed` products replace (or join)
    /// theirs, `removed` ones go, and `data` replaces terms and media when given.
    /// Unchanged products are shared with this snapshot, not copied.
    pub fn changed(
        &self,
        version: i64,
        changed: Vec<Product>,
        removed: &[ProductId],
        data: Option<CatalogData>,
        now: i64,
    ) -> Catalog {
        let replaced: std::collections::HashSet<ProductId> = changed
            .iter()
            .map(|p| p.id)
            .chain(removed.iter().copied())
            .collect();
        let mut products: Vec<Arc<Product>> = self
            .products
            .iter()
            .filter(|p| !replaced.contains(&p.id))
            .cloned()
            .chain(changed.into_iter().map(Arc::new))
            .collect();
        products.sort_by_key(|p| p.id);
        let data = match data {
            Some(mut d) => {
                d.products = Vec::new();
                Arc::new(d)
            }
            None => self.data.clone(),
        };
        Self::assemble(version, data, products, now).with_rules(self.rules.clone())
    }

    /// The snapshot with new stock, sales and rating figures, or None when none of
    /// them differs from this one. Only the live part is rebuilt.
    pub fn with_live(&self, figures: &[LiveFigures]) -> Option<Catalog> {
        let mut products: Option<Vec<Arc<Product>>> = None;
        for f in figures {
            let Some(&pos) = self.index.by_id.get(&f.id) else {
                continue;
            };
            let current = &self.products[pos as usize];
            if LiveFigures::of(current) == *f {
                continue;
            }
            let list = products.get_or_insert_with(|| self.products.clone());
            list[pos as usize] = Arc::new(f.apply(current));
        }
        let products = products?;
        let live = LiveIndex::build(&self.index, &products);
        Some(Catalog {
            version: self.version,
            data: self.data.clone(),
            products,
            index: self.index.clone(),
            live: Arc::new(live),
            listings: ResponseCache::default(),
            collections: ResponseCache::default(),
            rules: self.rules.clone(),
        })
    }

    /// When a scheduled sale starts or ends after the moment prices were worked out.
    pub fn next_sale_boundary(&self) -> Option<i64> {
        self.index.next_sale_boundary
    }

    /// The same products with sale windows judged again at `now`.
    pub fn repriced(&self, now: i64) -> Catalog {
        Self::assemble(self.version, self.data.clone(), self.products.clone(), now)
            .with_rules(self.rules.clone())
    }

    pub fn product_count(&self) -> usize {
        self.products.len()
    }

    pub fn product(&self, id: ProductId) -> Option<&Product> {
        self.index
            .by_id
            .get(&id)
            .map(|&i| &*self.products[i as usize])
    }

    /// The product a shopper may see and buy: published, and for a variation, its
    /// parent published too. A draft or private product answers as if it did not
    /// exist, so neither its name nor its price leaks through an id or a slug.
    pub fn shown(&self, id: ProductId) -> Option<&Product> {
        self.product(id).filter(|p| self.is_shown(p))
    }

    /// Whether `p` (and its parent, for a variation) is published.
    pub fn is_shown(&self, p: &Product) -> bool {
        p.status == ProductStatus::Publish
            && match p.parent_id {
                Some(parent) if p.kind == ProductKind::Variation => self
                    .product(parent)
                    .is_some_and(|x| x.status == ProductStatus::Publish),
                _ => true,
            }
    }

    /// The published product at `slug` (a variation has no page of its own).
    pub fn shown_by_slug(&self, slug: &str) -> Option<&Product> {
        self.index
            .by_slug
            .get(slug)
            .map(|&i| &*self.products[i as usize])
            .filter(|p| p.kind != ProductKind::Variation && self.is_shown(p))
    }

    pub fn variations_of(&self, id: ProductId) -> impl Iterator<Item = &Product> {
        self.index
            .variations
            .get(&id)
            .into_iter()
            .flatten()
            .map(|&i| &*self.products[i as usize])
    }

    pub fn media(&self, id: MediaId) -> Option<&Media> {
        self.index.media.get(&id).map(|&i| &self.data.media[i])
    }

    /// An image by its file name (the last part of its address).
    pub fn media_named(&self, file_name: &str) -> Option<&Media> {
        self.index
            .media_by_name
            .get(file_name)
            .map(|&i| &self.data.media[i])
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

    /// Top-level products offering a global attribute's term (from the index built
    /// with the snapshot: no pass over the catalogue).
    pub fn attribute_term_count(&self, id: AttributeId, slug: &str) -> usize {
        let Some(attribute) = self.attribute(id) else {
            return 0;
        };
        self.index
            .with_term
            .get(&(attribute.taxonomy.clone(), slug.to_string()))
            .map_or(0, |products| products.len() as usize)
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
        self.index
            .category_trees
            .get(&id)
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }

    /// Top-level products in a category or any of its subcategories.
    pub fn category_count(&self, id: CategoryId) -> usize {
        self.index.category_facts.get(&id).map_or(0, |f| f.count)
    }

    pub fn brand_count(&self, id: BrandId) -> usize {
        self.index.brand_facts.get(&id).map_or(0, |f| f.count)
    }

    /// The main image of the category's first product in menu order.
    pub fn category_stand_in_image(&self, id: CategoryId) -> Option<&Media> {
        let (_, _, image) = self.index.category_facts.get(&id)?.first?;
        self.media(image?)
    }

    pub fn top_level(&self) -> impl Iterator<Item = &Product> {
        self.products
            .iter()
            .map(|p| &**p)
            .filter(|p| p.kind != ProductKind::Variation)
    }

    fn position(&self, p: &Product) -> Option<usize> {
        self.index
            .by_id
            .get(&p.id)
            .map(|&i| i as usize)
            .filter(|&i| std::ptr::eq(&*self.products[i], p))
    }

    pub fn prices(&self, p: &Product) -> PriceSummary {
        match self.position(p) {
            Some(i) => self.index.prices[i],
            None if p.kind == ProductKind::Variable => summarise(
                self.variations_of(p.id)
                    .map(|v| own_prices_at(v, self.index.priced_at)),
            ),
            None => own_prices_at(p, self.index.priced_at),
        }
    }

    /// In stock, or on backorder: something the shopper can order now.
    pub fn is_in_stock(&self, p: &Product) -> bool {
        self.stock_status(p) != StockStatus::OutOfStock
    }

    pub fn is_purchasable(&self, p: &Product) -> bool {
        if !self.is_shown(p) {
            return false;
        }
        match p.kind {
            ProductKind::External => false,
            ProductKind::Variable => self
                .variations_of(p.id)
                .filter(|v| v.status == ProductStatus::Publish)
                .any(|v| own_prices_at(v, self.index.priced_at).price.is_some()),
            _ => own_prices_at(p, self.index.priced_at).price.is_some(),
        }
    }

    /// The stock status a shopper sees; a variable product is in stock while any variation is.
    pub fn stock_status(&self, p: &Product) -> StockStatus {
        match self.position(p) {
            Some(i) => self.live.stock[i],
            None => match p.kind {
                ProductKind::Variable => {
                    combined_stock(self.variations_of(p.id).map(|v| v.stock_status))
                }
                _ => p.stock_status,
            },
        }
    }

    /// The positions a listing query matches, before paging.
    fn matching(&self, q: &ProductQuery) -> RoaringBitmap {
        let idx = &self.index;
        let mut set = match q.kind {
            Some(kind) => idx
                .by_kind
                .iter()
                .find(|(k, _)| *k == kind)
                .map(|(_, b)| b.clone())
                .unwrap_or_default(),
            None if q.search.is_some() => idx.searchable.clone(),
            None => idx.shown.clone(),
        };
        let union = |maps: &mut dyn Iterator<Item = Option<&RoaringBitmap>>| {
            let mut all = RoaringBitmap::new();
            for b in maps.flatten() {
                all |= b;
            }
            all
        };
        if let Some(wanted) = &q.category {
            let ids: Vec<CategoryId> = wanted
                .iter()
                .filter_map(|c| self.resolve_category(c))
                .collect();
            set &= union(&mut ids.iter().map(|c| idx.in_category_tree.get(c)));
        }
        if let Some(wanted) = &q.brand {
            let ids: Vec<BrandId> = wanted
                .iter()
                .filter_map(|b| self.resolve_brand(b))
                .collect();
            set &= union(&mut ids.iter().map(|b| idx.in_brand.get(b)));
        }
        if let Some(wanted) = &q.tag {
            let ids: Vec<TagId> = wanted
                .iter()
                .filter_map(|t| match t {
                    IdOrSlug::Id(id) => Some(TagId(*id)),
                    IdOrSlug::Slug(s) => self.data.tags.iter().find(|x| &x.slug == s).map(|x| x.id),
                })
                .collect();
            set &= union(&mut ids.iter().map(|t| idx.in_tag.get(t)));
        }
        if !q.attributes.is_empty() {
            let mut combined: Option<RoaringBitmap> = None;
            for f in &q.attributes {
                let term_sets: Vec<RoaringBitmap> = f
                    .terms
                    .iter()
                    .filter_map(|t| self.term_slug(&f.taxonomy, t))
                    .map(|slug| {
                        idx.with_term
                            .get(&(f.taxonomy.clone(), slug))
                            .cloned()
                            .unwrap_or_default()
                    })
                    .collect();
                let matched = match f.operator {
                    TermOperator::In => term_sets.iter().fold(RoaringBitmap::new(), |a, b| a | b),
                    TermOperator::And => {
                        let mut it = term_sets.into_iter();
                        let first = it.next().unwrap_or_default();
                        it.fold(first, |a, b| a & b)
                    }
                    TermOperator::NotIn => {
                        let excluded = term_sets.iter().fold(RoaringBitmap::new(), |a, b| a | b);
                        &set - &excluded
                    }
                };
                combined = Some(match (combined, q.attribute_relation) {
                    (None, _) => matched,
                    (Some(c), TermRelation::And) => c & matched,
                    (Some(c), TermRelation::Or) => c | matched,
                });
            }
            if let Some(c) = combined {
                set &= c;
            }
        }
        if let Some(ids) = &q.include {
            set &= ids
                .iter()
                .filter_map(|id| idx.by_id.get(id).copied())
                .collect::<RoaringBitmap>();
        }
        for id in &q.exclude {
            if let Some(&pos) = idx.by_id.get(id) {
                set.remove(pos);
            }
        }
        if let Some(slug) = &q.slug {
            set &= idx
                .by_slug
                .get(slug)
                .copied()
                .into_iter()
                .collect::<RoaringBitmap>();
        }
        if let Some(sku) = &q.sku {
            set &= idx
                .by_sku
                .get(&sku.to_ascii_lowercase())
                .copied()
                .into_iter()
                .collect::<RoaringBitmap>();
        }
        if q.featured == Some(true) {
            set &= &idx.featured;
        } else if q.featured == Some(false) {
            set -= &idx.featured;
        }
        if q.on_sale == Some(true) {
            set &= &idx.on_sale;
        } else if q.on_sale == Some(false) {
            set -= &idx.on_sale;
        }
        if let Some(statuses) = &q.stock_status {
            let mut any = RoaringBitmap::new();
            for (s, b) in &self.live.by_stock {
                if statuses.contains(s) {
                    any |= b;
                }
            }
            set &= any;
        }
        if let Some(stars) = &q.rating {
            let mut any = RoaringBitmap::new();
            for &s in stars {
                if let Some(b) = self.live.by_rating.get(s as usize).filter(|_| s > 0) {
                    any |= b;
                }
            }
            set &= any;
        }
        if q.min_price.is_some() || q.max_price.is_some() {
            set &= self.priced_between(q.min_price, q.max_price);
        }
        if let Some(hits) = &q.search_hits {
            set &= hits
                .iter()
                .filter_map(|id| idx.by_id.get(id).copied())
                .collect::<RoaringBitmap>();
        } else if let Some(text) = &q.search {
            // Without a search index: a plain substring match over what is left.
            let text = text.to_lowercase();
            let found: RoaringBitmap = set
                .iter()
                .filter(|&i| {
                    let p = &self.products[i as usize];
                    p.name.to_lowercase().contains(&text)
                        || p.sku.to_lowercase().contains(&text)
                        || p.short_description.to_lowercase().contains(&text)
                        || p.description.to_lowercase().contains(&text)
                })
                .collect();
            set = found;
        }
        set
    }

    /// Positions whose price range meets [min, max], read off the price orders.
    fn priced_between(&self, min: Option<i64>, max: Option<i64>) -> RoaringBitmap {
        let prices = &self.index.prices;
        // Lowest prices ascending: everything up to the first lowest price above max.
        let by_lo = &self.index.orders[&(OrderBy::Price, SortOrder::Asc)].positions;
        let upto = match max {
            None => by_lo.len(),
            Some(max) => by_lo.partition_point(|&i| price_key(&prices[i as usize], false) <= max),
        };
        let mut set: RoaringBitmap = by_lo[..upto].iter().copied().collect();
        if let Some(min) = min {
            // Highest prices descending: everything down to the last highest price ≥ min.
            let by_hi = &self.index.orders[&(OrderBy::Price, SortOrder::Desc)].positions;
            let down_to = by_hi.partition_point(|&i| price_key(&prices[i as usize], true) >= min);
            set &= by_hi[..down_to].iter().copied().collect::<RoaringBitmap>();
        }
        set
    }

    fn order(&self, orderby: OrderBy, dir: SortOrder) -> Option<&SortedOrder> {
        self.index
            .orders
            .get(&(orderby, dir))
            .or_else(|| self.live.orders.get(&(orderby, dir)))
    }

    /// Runs a listing query: the matching top-level products of one page, and the total.
    pub fn list(&self, q: &ProductQuery) -> (Vec<&Product>, usize) {
        /// Below this many matches, sorting them by rank beats walking a whole order.
        const SMALL_SET: usize = 4096;
        let set = self.matching(q);
        let total = set.len() as usize;
        let start = (q.page - 1).saturating_mul(q.per_page);
        if start >= total {
            return (Vec::new(), total);
        }
        let in_list_order = |ids: &[ProductId]| -> Vec<u32> {
            let mut seen = RoaringBitmap::new();
            ids.iter()
                .filter_map(|id| self.index.by_id.get(id).copied())
                .filter(|&i| set.contains(i) && seen.insert(i))
                .skip(start)
                .take(q.per_page)
                .collect()
        };
        let page: Vec<u32> = match (q.orderby, &q.include, &q.search_hits) {
            (OrderBy::Include, Some(ids), _) => in_list_order(ids),
            (OrderBy::Relevance, _, Some(hits)) => in_list_order(hits),
            (orderby, _, _) => {
                let (orderby, dir) = match orderby {
                    // Nothing to follow: newest id first, as ties are.
                    OrderBy::Include => (OrderBy::Id, SortOrder::Desc),
                    OrderBy::Relevance => (OrderBy::Date, q.order),
                    o => (o, q.order),
                };
                let Some(order) = self.order(orderby, dir) else {
                    return (Vec::new(), total);
                };
                let everything_shown = q.kind.is_none()
                    && q.search.is_none()
                    && total == order.shown.len()
                    && set.is_subset(&self.index.shown);
                if everything_shown {
                    order.shown[start..(start + q.per_page).min(total)].to_vec()
                } else if total <= SMALL_SET {
                    let mut found: Vec<u32> = set.iter().collect();
                    found.sort_unstable_by_key(|&i| order.rank[i as usize]);
                    found.into_iter().skip(start).take(q.per_page).collect()
                } else {
                    order
                        .positions
                        .iter()
                        .copied()
                        .filter(|&i| set.contains(i))
                        .skip(start)
                        .take(q.per_page)
                        .collect()
                }
            }
        };
        (
            page.into_iter()
                .map(|i| &*self.products[i as usize])
                .collect(),
            total,
        )
    }

    /// Counts over what a listing query matches, for filter panels: each count leaves
    /// out the query's own filter on what it counts (the price range ignores the price
    /// filter, a stock count the stock filter, an "or" attribute its own terms), so a
    /// shopper sees what choosing another value would give.
    pub fn facets(&self, q: &ProductQuery, want: &FacetRequest) -> Facets {
        let idx = &self.index;
        let mut facets = Facets::default();
        if want.price_range || want.price_bands {
            let unpriced = ProductQuery {
                min_price: None,
                max_price: None,
                ..q.clone()
            };
            let set = self.matching(&unpriced);
            let first_in = |order: &SortedOrder, high: bool| {
                order
                    .positions
                    .iter()
                    .find(|&&i| set.contains(i))
                    .map(|&i| price_key(&idx.prices[i as usize], high))
            };
            let lo = first_in(&idx.orders[&(OrderBy::Price, SortOrder::Asc)], false);
            let hi = first_in(&idx.orders[&(OrderBy::Price, SortOrder::Desc)], true);
            let range = lo.zip(hi);
            if want.price_range {
                facets.price_range = Some(range);
            }
            if want.price_bands {
                facets.price_bands = Some(match range {
                    None => Vec::new(),
                    Some((lo, hi)) => {
                        let bands = price_bands(lo, hi);
                        let mut counts = vec![0u64; bands.len()];
                        for i in &set {
                            let (plo, phi) = idx.prices[i as usize].bounds();
                            for (b, &(from, to)) in bands.iter().enumerate() {
                                if phi >= from && plo < to {
                                    counts[b] += 1;
                                }
                            }
                        }
                        bands
                            .into_iter()
                            .zip(counts)
                            .map(|((from, to), count)| PriceBand { from, to, count })
                            .collect()
                    }
                });
            }
        }
        if want.stock_status_counts {
            let set = self.matching(&ProductQuery {
                stock_status: None,
                ..q.clone()
            });
            facets.stock_status_counts = Some(
                self.live
                    .by_stock
                    .iter()
                    .map(|(s, b)| (*s, set.intersection_len(b)))
                    .filter(|(_, n)| *n > 0)
                    .collect(),
            );
        }
        if want.rating_counts {
            let set = self.matching(&ProductQuery {
                rating: None,
                ..q.clone()
            });
            facets.rating_counts = Some(
                (1..=5u8)
                    .rev()
                    .map(|s| (s, set.intersection_len(&self.live.by_rating[s as usize])))
                    .filter(|(_, n)| *n > 0)
                    .collect(),
            );
        }
        if !want.attribute_counts.is_empty() {
            let mut counts = Vec::new();
            for (taxonomy, or) in &want.attribute_counts {
                let Some(attribute) = self
                    .data
                    .attributes
                    .iter()
                    .find(|a| &a.taxonomy == taxonomy)
                else {
                    continue;
                };
                let set = if *or {
                    self.matching(&ProductQuery {
                        attributes: q
                            .attributes
                            .iter()
                            .filter(|f| &f.taxonomy != taxonomy)
                            .cloned()
                            .collect(),
                        ..q.clone()
                    })
                } else {
                    self.matching(q)
                };
                for t in &attribute.terms {
                    let n = idx
                        .with_term
                        .get(&(taxonomy.clone(), t.slug.clone()))
                        .map_or(0, |b| set.intersection_len(b));
                    if n > 0 {
                        counts.push((t.id.0, n));
                    }
                }
            }
            facets.attribute_counts = Some(counts);
        }
        if !want.taxonomy_counts.is_empty() {
            let set = self.matching(q);
            let mut counts = Vec::new();
            for taxonomy in &want.taxonomy_counts {
                match taxonomy.as_str() {
                    "product_cat" => {
                        for c in &self.data.categories {
                            let n = idx
                                .in_category_tree
                                .get(&c.id)
                                .map_or(0, |b| set.intersection_len(b));
                            if n > 0 {
                                counts.push((c.id.0, n));
                            }
                        }
                    }
                    "product_brand" => {
                        for b in &self.data.brands {
                            let n = idx
                                .in_brand
                                .get(&b.id)
                                .map_or(0, |m| set.intersection_len(m));
                            if n > 0 {
                                counts.push((b.id.0, n));
                            }
                        }
                    }
                    "product_tag" => {
                        for t in &self.data.tags {
                            let n = idx.in_tag.get(&t.id).map_or(0, |m| set.intersection_len(m));
                            if n > 0 {
                                counts.push((t.id.0, n));
                            }
                        }
                    }
                    _ => {}
                }
            }
            facets.taxonomy_counts = Some(counts);
        }
        facets
    }

    /// The slug of an attribute term named by id or slug.
    fn term_slug(&self, taxonomy: &str, term: &IdOrSlug) -> Option<String> {
        let attribute = self
            .data
            .attributes
            .iter()
            .find(|a| a.taxonomy == taxonomy)?;
        match term {
            IdOrSlug::Id(id) => attribute
                .terms
                .iter()
                .find(|t| t.id.0 == *id)
                .map(|t| t.slug.clone()),
            IdOrSlug::Slug(s) => Some(s.clone()),
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
            v.status == ProductStatus::Publish
                && v.variation.iter().all(|vv| {
                    vv.value.is_empty()
                        || chosen.iter().any(|(k, value)| {
                            k == &vv.attribute && value.eq_ignore_ascii_case(&vv.value)
                        })
                })
        })
    }
}

/// The sort key `priced_between` reads: the lowest price, or the highest.
fn price_key(s: &PriceSummary, high: bool) -> i64 {
    let (lo, hi) = s.bounds();
    if high {
        hi
    } else {
        lo
    }
}

/// A product's own prices at `now`: the sale price counts inside its window only.
fn own_prices_at(p: &Product, now: i64) -> PriceSummary {
    let in_window =
        p.sale_from.is_none_or(|from| now >= from) && p.sale_to.is_none_or(|to| now < to);
    let sale_price = p.sale_price.filter(|_| in_window);
    let on_sale = matches!((sale_price, p.regular_price), (Some(s), Some(r)) if s < r);
    let price = if on_sale {
        sale_price
    } else {
        p.regular_price.or(sale_price)
    };
    PriceSummary {
        price,
        regular: p.regular_price.or(price),
        sale: if on_sale { sale_price } else { price },
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

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OrderBy {
    /// Best search match first; chosen when a search names no order.
    Relevance,
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

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
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
    /// Average ratings, in whole stars, a product may have.
    pub rating: Option<Vec<u8>>,
    /// Attribute term filters and how they combine.
    pub attributes: Vec<AttributeFilter>,
    pub attribute_relation: TermRelation,
    /// The search index's matches for `search`, best first; without them `search`
    /// falls back to a substring match.
    pub search_hits: Option<Vec<ProductId>>,
}

/// What a filter panel asks `facets` to count.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FacetRequest {
    pub price_range: bool,
    pub price_bands: bool,
    /// Taxonomies ("pa_color") and whether their own filter is left out ("or").
    pub attribute_counts: Vec<(String, bool)>,
    pub rating_counts: bool,
    pub stock_status_counts: bool,
    /// "product_cat", "product_brand", "product_tag".
    pub taxonomy_counts: Vec<String>,
}

/// Counts for a filter panel; None where not asked for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Facets {
    /// Lowest and highest price of the matching products (None when none match).
    pub price_range: Option<Option<(i64, i64)>>,
    pub price_bands: Option<Vec<PriceBand>>,
    /// (term id, products).
    pub attribute_counts: Option<Vec<(i64, u64)>>,
    /// (whole stars, products), best first.
    pub rating_counts: Option<Vec<(u8, u64)>>,
    pub stock_status_counts: Option<Vec<(StockStatus, u64)>>,
    /// (category, brand or tag id, products).
    pub taxonomy_counts: Option<Vec<(i64, u64)>>,
}

/// Products whose prices reach into [from, to).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PriceBand {
    pub from: i64,
    pub to: i64,
    pub count: u64,
}

/// Up to five bands of round widths (1, 2 or 5 times a power of ten minor units)
/// covering [lo, hi].
fn price_bands(lo: i64, hi: i64) -> Vec<(i64, i64)> {
    let span = (hi - lo).max(1);
    let mut width = 1i64;
    'search: loop {
        for step in [1, 2, 5] {
            let w = width * step;
            if span / w < 5 {
                width = w;
                break 'search;
            }
        }
        width = width.saturating_mul(10);
        if width > i64::MAX / 100 {
            break;
        }
    }
    let start = lo - lo.rem_euclid(width);
    let mut bands = Vec::new();
    let mut from = start;
    while from <= hi && bands.len() < 6 {
        bands.push((from, from + width));
        from += width;
    }
    bands
}

/// `attributes[i][attribute]=pa_color&attributes[i][slug]=blue&attributes[i][operator]=in`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttributeFilter {
    pub taxonomy: String,
    pub terms: Vec<IdOrSlug>,
    pub operator: TermOperator,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TermOperator {
    In,
    And,
    NotIn,
}

impl TermOperator {
    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "in" => Self::In,
            "and" => Self::And,
            "not_in" => Self::NotIn,
            _ => return None,
        })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TermRelation {
    #[default]
    And,
    Or,
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
            rating: None,
            attributes: Vec::new(),
            attribute_relation: TermRelation::And,
            search_hits: None,
        }
    }
}

/// Rendered response bodies, keyed by whatever identifies the request. Bounded by the
/// bytes it holds (keys and bodies), not by a count, so a catalogue of long descriptions
/// costs no more memory than a short one: when full it starts over, which is fine for a
/// cache that refills in microseconds.
pub struct ResponseCache<V> {
    entries: RwLock<CacheEntries<V>>,
}

struct CacheEntries<V> {
    map: HashMap<String, V>,
    bytes: usize,
}

impl<V> Default for ResponseCache<V> {
    fn default() -> Self {
        Self {
            entries: RwLock::new(CacheEntries {
                map: HashMap::new(),
                bytes: 0,
            }),
        }
    }
}

impl<V: Clone> ResponseCache<V> {
    /// What one snapshot's cache may hold.
    pub const MAX_BYTES: usize = 4 << 20;

    pub fn get(&self, key: &str) -> Option<V> {
        self.entries.read().ok()?.map.get(key).cloned()
    }

    /// Keeps `body`, which takes `size` bytes, under `key`. A body larger than the whole
    /// cache is not kept.
    pub fn put(&self, key: String, body: V, size: usize) {
        let cost = key.len() + size;
        if cost > Self::MAX_BYTES {
            return;
        }
        if let Ok(mut entries) = self.entries.write() {
            if entries.bytes + cost > Self::MAX_BYTES {
                entries.map = HashMap::new();
                entries.bytes = 0;
            }
            if entries.map.insert(key, body).is_none() {
                entries.bytes += cost;
            }
        }
    }
}

#[cfg(test)]
mod response_cache_tests {
    use super::ResponseCache;

    #[test]
    fn the_cache_holds_no_more_than_its_bytes() {
        let cache = ResponseCache::<u32>::default();
        let size = ResponseCache::<u32>::MAX_BYTES / 4;
        for i in 0..4 {
            cache.put(format!("k{i}"), i, size - 2);
        }
        assert_eq!(cache.get("k0"), Some(0));
        assert_eq!(cache.get("k3"), Some(3));
        // The fifth body does not fit beside the other four: the cache starts over.
        cache.put("k4".into(), 4, size - 2);
        assert_eq!(cache.get("k0"), None);
        assert_eq!(cache.get("k4"), Some(4));
        cache.put("huge".into(), 5, ResponseCache::<u32>::MAX_BYTES);
        assert_eq!(cache.get("huge"), None);
        assert_eq!(cache.get("k4"), Some(4));
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
