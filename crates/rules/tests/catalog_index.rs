//! The indexed catalogue answers every listing exactly as filtering and sorting all
//! products would, follows catalogue changes by id while sharing what did not change,
//! and takes stock figures without a rebuild of the rest.

use ferroshop_rules::catalog::index::{
    AttributeFilter, Catalog, IdOrSlug, LiveFigures, OrderBy, ProductQuery, SortOrder,
    TermOperator, TermRelation,
};
use ferroshop_rules::catalog::model::*;

/// A small deterministic random source, so a failure repeats.
struct Dice(u64);

impl Dice {
    fn roll(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.roll(100) < percent
    }
}

const NOW: i64 = 1_800_000_000;
const COLORS: [&str; 4] = ["red", "blue", "green", "black"];

fn catalogue(dice: &mut Dice, products: i64) -> CatalogData {
    let mut categories = Vec::new();
    for i in 1..=12 {
        categories.push(Category {
            id: CategoryId(i),
            // 1..=4 are top level; 5..=8 hang below them, 9..=12 below those.
            parent_id: (i > 4).then(|| CategoryId(i - 4)),
            name: format!("Category {i}"),
            slug: format!("category-{i}"),
            description: String::new(),
            menu_order: i,
            image_id: None,
        });
    }
    let brands = (100..105)
        .map(|i| Brand {
            id: BrandId(i),
            name: format!("Brand {i}"),
            slug: format!("brand-{i}"),
            description: String::new(),
            image_id: None,
        })
        .collect();
    let tags = (200..206)
        .map(|i| Tag {
            id: TagId(i),
            name: format!("Tag {i}"),
            slug: format!("tag-{i}"),
        })
        .collect();
    let attributes = vec![Attribute {
        id: AttributeId(1),
        name: "Color".into(),
        taxonomy: "pa_color".into(),
        terms: COLORS
            .iter()
            .enumerate()
            .map(|(i, c)| Term {
                id: TermId(300 + i as i64),
                name: c.to_uppercase(),
                slug: c.to_string(),
                ..Default::default()
            })
            .collect(),
        ..Default::default()
    }];
    let mut list = Vec::new();
    let mut next_id = 1;
    while (list.len() as i64) < products {
        let id = next_id;
        next_id += 1;
        let mut p = Product::simple(
            ProductId(id),
            &format!("Item {:03} {}", dice.roll(500), id),
            &format!("item-{id}"),
        );
        p.sku = if dice.chance(80) {
            format!("SKU-{id}")
        } else {
            String::new()
        };
        p.menu_order = dice.roll(5) as i64;
        p.created_at = NOW - dice.roll(10_000) as i64;
        p.featured = dice.chance(10);
        p.regular_price = Some(100 * (1 + dice.roll(200) as i64));
        if dice.chance(20) {
            p.sale_price = p.regular_price.map(|r| r - 50);
            if dice.chance(30) {
                // Some sales are over, some not started.
                if dice.chance(50) {
                    p.sale_to = Some(NOW - 10);
                } else {
                    p.sale_from = Some(NOW + 10);
                }
            }
        }
        p.stock_status = match dice.roll(10) {
            0 => StockStatus::OutOfStock,
            1 => StockStatus::OnBackorder,
            _ => StockStatus::InStock,
        };
        p.total_sales = dice.roll(50) as i64;
        p.rating_average_x100 = dice.roll(501) as i64;
        if dice.chance(5) {
            p.status = ProductStatus::Draft;
        }
        p.visibility = match dice.roll(20) {
            0 => CatalogVisibility::Hidden,
            1 => CatalogVisibility::Search,
            2 => CatalogVisibility::Catalog,
            _ => CatalogVisibility::Visible,
        };
        p.category_ids = (0..dice.roll(3))
            .map(|_| CategoryId(1 + dice.roll(12) as i64))
            .collect();
        p.category_ids.dedup();
        p.brand_ids = (0..dice.roll(2))
            .map(|_| BrandId(100 + dice.roll(5) as i64))
            .collect();
        p.tag_ids = (0..dice.roll(3))
            .map(|_| TagId(200 + dice.roll(6) as i64))
            .collect();
        p.tag_ids.dedup();
        let colors: Vec<String> = COLORS
            .iter()
            .filter(|_| dice.chance(30))
            .map(|c| c.to_string())
            .collect();
        if !colors.is_empty() {
            p.attributes = vec![ProductAttribute {
                attribute_id: Some(AttributeId(1)),
                name: "Color".into(),
                values: colors.clone(),
                visible: true,
                used_for_variations: false,
                default_value: String::new(),
            }];
        }
        if dice.chance(10) && !colors.is_empty() {
            p.kind = ProductKind::Variable;
            p.regular_price = None;
            p.sale_price = None;
            p.attributes[0].used_for_variations = true;
            let parent = p.id;
            list.push(p);
            for c in colors {
                let vid = next_id;
                next_id += 1;
                let mut v = Product::simple(ProductId(vid), "Variation", &format!("item-{vid}"));
                v.kind = ProductKind::Variation;
                v.parent_id = Some(parent);
                v.regular_price = Some(100 * (1 + dice.roll(200) as i64));
                if dice.chance(30) {
                    v.sale_price = v.regular_price.map(|r| r - 25);
                }
                v.stock_status = if dice.chance(30) {
                    StockStatus::OutOfStock
                } else {
                    StockStatus::InStock
                };
                v.variation = vec![VariationValue {
                    attribute: "pa_color".into(),
                    value: c,
                }];
                list.push(v);
            }
            continue;
        }
        list.push(p);
    }
    CatalogData {
        categories,
        brands,
        tags,
        attributes,
        media: Vec::new(),
        products: list,
    }
}

/// What a listing must answer, worked out the slow way over every product.
fn expected(c: &Catalog, data: &CatalogData, q: &ProductQuery) -> (Vec<i64>, usize) {
    let tree = |wanted: &[IdOrSlug]| -> Vec<CategoryId> {
        wanted
            .iter()
            .filter_map(|w| c.resolve_category(w))
            .flat_map(|id| c.category_tree(id).to_vec())
            .collect()
    };
    let mut found: Vec<&Product> = data
        .products
        .iter()
        .filter(|p| p.status == ProductStatus::Publish)
        .filter(|p| match q.kind {
            Some(k) => p.kind == k,
            None => p.kind != ProductKind::Variation && p.visibility.in_catalog(),
        })
        .filter(|p| {
            q.category.as_ref().is_none_or(|w| {
                let ids = tree(w);
                p.category_ids.iter().any(|c| ids.contains(c))
            })
        })
        .filter(|p| {
            q.brand.as_ref().is_none_or(|w| {
                w.iter()
                    .filter_map(|b| c.resolve_brand(b))
                    .any(|b| p.brand_ids.contains(&b))
            })
        })
        .filter(|p| {
            q.tag.as_ref().is_none_or(|w| {
                w.iter().any(|t| match t {
                    IdOrSlug::Id(id) => p.tag_ids.contains(&TagId(*id)),
                    IdOrSlug::Slug(_) => false,
                })
            })
        })
        .filter(|p| {
            q.attributes.iter().all(|f| {
                let has = |slug: &str| {
                    p.attributes
                        .iter()
                        .any(|a| a.attribute_id.is_some() && a.values.iter().any(|v| v == slug))
                };
                let slugs: Vec<String> = f
                    .terms
                    .iter()
                    .map(|t| match t {
                        IdOrSlug::Slug(s) => s.clone(),
                        IdOrSlug::Id(_) => unreachable!(),
                    })
                    .collect();
                match f.operator {
                    TermOperator::In => slugs.iter().any(|s| has(s)),
                    TermOperator::And => slugs.iter().all(|s| has(s)),
                    TermOperator::NotIn => !slugs.iter().any(|s| has(s)),
                }
            })
        })
        .filter(|p| q.featured.is_none_or(|f| p.featured == f))
        .filter(|p| q.on_sale.is_none_or(|s| c.prices(p).on_sale == s))
        .filter(|p| {
            q.stock_status
                .as_ref()
                .is_none_or(|s| s.contains(&c.stock_status(p)))
        })
        .filter(|p| {
            let prices = c.prices(p);
            let (lo, hi) = prices
                .range
                .or(prices.price.map(|x| (x, x)))
                .unwrap_or((0, 0));
            q.min_price.is_none_or(|min| hi >= min) && q.max_price.is_none_or(|max| lo <= max)
        })
        .collect();
    let desc = q.order == SortOrder::Desc;
    found.sort_by(|a, b| {
        let primary = match q.orderby {
            OrderBy::MenuOrder => a
                .menu_order
                .cmp(&b.menu_order)
                .then_with(|| a.name.cmp(&b.name)),
            OrderBy::Popularity => a.total_sales.cmp(&b.total_sales),
            OrderBy::Rating => a.rating_average_x100.cmp(&b.rating_average_x100),
            OrderBy::Date => a.created_at.cmp(&b.created_at),
            OrderBy::Price => {
                let key = |p: &Product| {
                    let s = c.prices(p);
                    match (s.range, desc) {
                        (Some((_, hi)), true) => hi,
                        (Some((lo, _)), false) => lo,
                        _ => s.price.unwrap_or(0),
                    }
                };
                key(a).cmp(&key(b))
            }
            OrderBy::Title => a.name.to_lowercase().cmp(&b.name.to_lowercase()),
            OrderBy::Slug => a.slug.cmp(&b.slug),
            _ => a.id.cmp(&b.id),
        };
        let primary = if desc { primary.reverse() } else { primary };
        primary.then_with(|| b.id.cmp(&a.id))
    });
    let total = found.len();
    let page = found
        .into_iter()
        .skip((q.page - 1) * q.per_page)
        .take(q.per_page)
        .map(|p| p.id.0)
        .collect();
    (page, total)
}

fn random_query(dice: &mut Dice) -> ProductQuery {
    let orders = [
        OrderBy::MenuOrder,
        OrderBy::Popularity,
        OrderBy::Rating,
        OrderBy::Date,
        OrderBy::Price,
        OrderBy::Title,
        OrderBy::Slug,
        OrderBy::Id,
    ];
    let mut q = ProductQuery {
        per_page: 1 + dice.roll(30) as usize,
        orderby: orders[dice.roll(orders.len() as u64) as usize],
        order: if dice.chance(50) {
            SortOrder::Asc
        } else {
            SortOrder::Desc
        },
        ..ProductQuery::default()
    };
    let pages = if dice.chance(50) { 3 } else { 80 };
    q.page = 1 + dice.roll(pages) as usize;
    if dice.chance(30) {
        q.category = Some(vec![IdOrSlug::Id(1 + dice.roll(12) as i64)]);
    }
    if dice.chance(20) {
        q.brand = Some(vec![
            IdOrSlug::Id(100 + dice.roll(5) as i64),
            IdOrSlug::Slug(format!("brand-{}", 100 + dice.roll(5))),
        ]);
    }
    if dice.chance(15) {
        q.tag = Some(vec![IdOrSlug::Id(200 + dice.roll(6) as i64)]);
    }
    if dice.chance(20) {
        let operator =
            [TermOperator::In, TermOperator::And, TermOperator::NotIn][dice.roll(3) as usize];
        q.attributes = vec![AttributeFilter {
            taxonomy: "pa_color".into(),
            terms: (0..1 + dice.roll(2))
                .map(|_| IdOrSlug::Slug(COLORS[dice.roll(4) as usize].into()))
                .collect(),
            operator,
        }];
        q.attribute_relation = TermRelation::And;
    }
    if dice.chance(15) {
        q.featured = Some(true);
    }
    if dice.chance(15) {
        q.on_sale = Some(true);
    }
    if dice.chance(20) {
        q.stock_status = Some(vec![if dice.chance(50) {
            StockStatus::OutOfStock
        } else {
            StockStatus::InStock
        }]);
    }
    if dice.chance(25) {
        q.min_price = Some(100 * dice.roll(100) as i64);
    }
    if dice.chance(25) {
        q.max_price = Some(100 * (50 + dice.roll(150)) as i64);
    }
    if dice.chance(5) {
        q.kind = Some(ProductKind::Variation);
    }
    q
}

fn ids(c: &Catalog, q: &ProductQuery) -> (Vec<i64>, usize) {
    let (page, total) = c.list(q);
    (page.iter().map(|p| p.id.0).collect(), total)
}

#[test]
fn every_listing_matches_filtering_and_sorting_every_product() {
    let mut dice = Dice(7);
    let data = catalogue(&mut dice, 3000);
    let catalog = Catalog::at(1, data.clone(), NOW);
    for _ in 0..1500 {
        let q = random_query(&mut dice);
        assert_eq!(ids(&catalog, &q), expected(&catalog, &data, &q), "{q:?}");
    }
}

#[test]
fn scheduled_sales_count_only_inside_their_window() {
    let mut p = Product::simple(ProductId(1), "Lamp", "lamp");
    p.regular_price = Some(2000);
    p.sale_price = Some(1500);
    p.sale_from = Some(NOW + 100);
    p.sale_to = Some(NOW + 200);
    let data = CatalogData {
        products: vec![p],
        ..CatalogData::default()
    };
    let before = Catalog::at(1, data.clone(), NOW);
    let lamp = before.product(ProductId(1)).unwrap();
    assert_eq!(before.prices(lamp).price, Some(2000));
    assert_eq!(before.next_sale_boundary(), Some(NOW + 100));
    let during = before.repriced(NOW + 150);
    let lamp = during.product(ProductId(1)).unwrap();
    assert_eq!(during.prices(lamp).price, Some(1500));
    assert!(during.prices(lamp).on_sale);
    assert_eq!(during.next_sale_boundary(), Some(NOW + 200));
    let after = during.repriced(NOW + 200);
    assert_eq!(
        after.prices(after.product(ProductId(1)).unwrap()).price,
        Some(2000)
    );
    assert_eq!(after.next_sale_boundary(), None);
}

#[test]
fn a_product_change_replaces_only_that_product_and_lists_as_a_fresh_load_would() {
    let mut dice = Dice(11);
    let data = catalogue(&mut dice, 1500);
    let old = Catalog::at(1, data.clone(), NOW);

    let mut changed_data = data.clone();
    let edited = changed_data
        .products
        .iter_mut()
        .find(|p| p.kind == ProductKind::Simple && p.status == ProductStatus::Publish)
        .unwrap();
    edited.name = "Aardvark lamp".into();
    edited.regular_price = Some(1);
    edited.category_ids = vec![CategoryId(3)];
    let edited = edited.clone();
    let removed = changed_data
        .products
        .iter()
        .find(|p| p.kind == ProductKind::Simple && p.id != edited.id)
        .unwrap()
        .id;
    changed_data.products.retain(|p| p.id != removed);
    let mut added = Product::simple(ProductId(999_999), "Zebra rug", "zebra-rug");
    added.regular_price = Some(5000);
    changed_data.products.push(added.clone());

    let next = old.changed(2, vec![edited.clone(), added], &[removed], None, NOW);
    let fresh = Catalog::at(2, changed_data.clone(), NOW);
    assert_eq!(next.version, 2);
    assert!(next.product(removed).is_none());
    assert_eq!(next.product(edited.id).unwrap().name, "Aardvark lamp");
    assert!(next.product(ProductId(999_999)).is_some());

    // Everything else is the same allocation in both snapshots.
    let shared = old
        .top_level()
        .filter(|p| p.id != edited.id && p.id != removed)
        .all(|p| std::ptr::eq(p, next.product(p.id).unwrap()));
    assert!(shared, "unchanged products are shared, not copied");

    for _ in 0..400 {
        let q = random_query(&mut dice);
        assert_eq!(ids(&next, &q), ids(&fresh, &q), "{q:?}");
    }
    let cheapest = ProductQuery {
        orderby: OrderBy::Price,
        order: SortOrder::Asc,
        ..ProductQuery::default()
    };
    assert_eq!(ids(&next, &cheapest).0[0], edited.id.0);
}

#[test]
fn stock_figures_change_listings_without_touching_the_catalogue() {
    let mut dice = Dice(5);
    let data = catalogue(&mut dice, 800);
    let old = Catalog::at(1, data.clone(), NOW);
    let target = old
        .top_level()
        .find(|p| {
            p.kind == ProductKind::Simple
                && p.stock_status == StockStatus::InStock
                && p.status == ProductStatus::Publish
                && p.visibility.in_catalog()
        })
        .unwrap()
        .clone();

    // The same figures again: nothing to do.
    assert!(old.with_live(&[LiveFigures::of(&target)]).is_none());

    let sold_out = LiveFigures {
        stock_quantity: Some(0),
        stock_status: StockStatus::OutOfStock,
        total_sales: 1_000_000,
        ..LiveFigures::of(&target)
    };
    let next = old.with_live(&[sold_out]).expect("a new snapshot");
    assert_eq!(next.version, old.version);
    let p = next.product(target.id).unwrap();
    assert_eq!(p.stock_status, StockStatus::OutOfStock);
    assert!(!next.is_in_stock(p));
    let out_of_stock = ProductQuery {
        stock_status: Some(vec![StockStatus::OutOfStock]),
        per_page: 100,
        ..ProductQuery::default()
    };
    let (_, before) = ids(&old, &out_of_stock);
    let (_, after) = ids(&next, &out_of_stock);
    assert_eq!(after, before + 1);
    let best_selling = ProductQuery {
        orderby: OrderBy::Popularity,
        order: SortOrder::Desc,
        ..ProductQuery::default()
    };
    assert_eq!(ids(&next, &best_selling).0[0], target.id.0);

    // A variable product follows its variations.
    let parent = old
        .top_level()
        .find(|p| p.kind == ProductKind::Variable && old.is_in_stock(p))
        .unwrap()
        .id;
    let figures: Vec<LiveFigures> = old
        .variations_of(parent)
        .map(|v| LiveFigures {
            stock_status: StockStatus::OutOfStock,
            stock_quantity: Some(0),
            ..LiveFigures::of(v)
        })
        .collect();
    let next = next.with_live(&figures).unwrap();
    assert!(!next.is_in_stock(next.product(parent).unwrap()));
}
