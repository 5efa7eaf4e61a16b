//! Catalogue storage: loading the whole catalogue (the server keeps a snapshot of it),
//! writing a catalogue (the demo data), images, and live stock figures.

use std::collections::HashMap;

use sqlx::any::AnyRow;
use sqlx::{Any, Row, Transaction};

use super::direct::read_row;
use super::{flag, Db, StoreError, StoreResult};
use rules::catalog::model::*;

/// Name of the setting that changes whenever the catalogue does.
const VERSION_SETTING: &str = "catalog_version";

pub async fn count_products(db: &Db) -> StoreResult<i64> {
    Ok(sqlx::query_scalar("SELECT COUNT(*) FROM products")
        .fetch_one(db.reader())
        .await?)
}

/// A counter that changes with every catalogue write; instances poll it to know when
/// to reload their snapshot.
pub async fn catalog_version(db: &Db) -> StoreResult<i64> {
    let v = super::settings::get(db, VERSION_SETTING).await?;
    Ok(v.and_then(|v| v.parse().ok()).unwrap_or(0))
}

/// What one catalogue change touched, as instances read it from the change log.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Change {
    /// One product or variation (created, edited or deleted).
    Product(ProductId),
    /// Categories, brands, tags or attributes and their terms.
    Terms,
    /// Images.
    Media,
    /// Anything else, or too much to name item by item: reload the whole catalogue.
    Everything,
}

impl Change {
    fn row(self) -> (&'static str, i64) {
        match self {
            Change::Product(id) => ("product", id.0),
            Change::Terms => ("terms", 0),
            Change::Media => ("media", 0),
            Change::Everything => ("everything", 0),
        }
    }

    fn from_row(kind: &str, item: i64) -> Change {
        match kind {
            "product" => Change::Product(ProductId(item)),
            "terms" => Change::Terms,
            "media" => Change::Media,
            _ => Change::Everything,
        }
    }
}

/// Moves the catalogue version on by one inside `tx` and logs what the change
/// touched under the new version, which it returns. The version row's lock orders
/// concurrent catalogue writers, so versions and their log rows commit in order.
pub async fn record_change(tx: &mut Transaction<'_, Any>, changes: &[Change]) -> StoreResult<i64> {
    let version: String = sqlx::query_scalar(
        "INSERT INTO settings (name, value) VALUES ($1, '1')
         ON CONFLICT (name) DO UPDATE SET value = CAST(CAST(settings.value AS BIGINT) + 1 AS TEXT)
         RETURNING value",
    )
    .bind(VERSION_SETTING)
    .fetch_one(&mut **tx)
    .await?;
    let version: i64 = version
        .parse()
        .map_err(|_| StoreError::Corrupt(format!("{VERSION_SETTING} = {version:?}")))?;
    let mut rows: Vec<(&str, i64)> = changes.iter().map(|c| c.row()).collect();
    rows.sort_unstable();
    rows.dedup();
    for (kind, item) in rows {
        sqlx::query("INSERT INTO catalog_changes (version, kind, item_id) VALUES ($1, $2, $3)")
            .bind(version)
            .bind(kind)
            .bind(item)
            .execute(&mut **tx)
            .await?;
    }
    Ok(version)
}

/// What changed after `version` up to the current one, or None when the log no
/// longer reaches back that far (the reader then reloads everything).
pub async fn changes_since(db: &Db, version: i64) -> StoreResult<Option<(i64, Vec<Change>)>> {
    let current = catalog_version(db).await?;
    if current <= version {
        return Ok(Some((current, Vec::new())));
    }
    let rows = sqlx::query(
        "SELECT version, kind, item_id FROM catalog_changes WHERE version > $1 AND version <= $2
         ORDER BY version",
    )
    .bind(version)
    .bind(current)
    .fetch_all(db.reader())
    .await?;
    let mut seen = std::collections::BTreeSet::new();
    let mut changes = Vec::with_capacity(rows.len());
    for r in &rows {
        seen.insert(r.try_get::<i64, _>("version")?);
        let kind: String = r.try_get("kind")?;
        changes.push(Change::from_row(&kind, r.try_get("item_id")?));
    }
    // Every version in between must have left its rows; a gap means pruned.
    if seen.len() as i64 != current - version {
        return Ok(None);
    }
    changes.sort_unstable_by_key(|c| c.row());
    changes.dedup();
    Ok(Some((current, changes)))
}

/// Forgets log rows older than `keep` versions before the current one.
pub async fn prune_changes(db: &Db, keep: i64) -> StoreResult<u64> {
    let current = catalog_version(db).await?;
    Ok(
        sqlx::query("DELETE FROM catalog_changes WHERE version <= $1")
            .bind(current - keep)
            .execute(db.writer())
            .await?
            .rows_affected(),
    )
}

pub(crate) async fn bump_version(tx: &mut Transaction<'_, Any>) -> StoreResult<()> {
    record_change(tx, &[Change::Everything]).await?;
    Ok(())
}

/// Writes a whole catalogue in one transaction (used for the demo data and tests).
pub async fn insert_catalog(db: &Db, data: &CatalogData) -> StoreResult<()> {
    let mut tx = db.begin_write().await?;
    for m in &data.media {
        insert_media(&mut tx, m.id.0, &m.file_name, m).await?;
    }
    // Parents before children, so the foreign key holds at every insert.
    let mut categories: Vec<&Category> = data.categories.iter().collect();
    categories.sort_by_key(|c| c.parent_id.is_some());
    for c in categories {
        sqlx::query(
            "INSERT INTO categories (id, parent_id, name, slug, description, menu_order, image_id)
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(c.id.0)
        .bind(c.parent_id.map(|p| p.0))
        .bind(&c.name)
        .bind(&c.slug)
        .bind(&c.description)
        .bind(c.menu_order)
        .bind(c.image_id.map(|i| i.0))
        .execute(&mut *tx)
        .await?;
    }
    for b in &data.brands {
        sqlx::query("INSERT INTO brands (id, name, slug, description, image_id) VALUES ($1, $2, $3, $4, $5)")
            .bind(b.id.0)
            .bind(&b.name)
            .bind(&b.slug)
            .bind(&b.description)
            .bind(b.image_id.map(|i| i.0))
            .execute(&mut *tx)
            .await?;
    }
    for t in &data.tags {
        sqlx::query("INSERT INTO tags (id, name, slug) VALUES ($1, $2, $3)")
            .bind(t.id.0)
            .bind(&t.name)
            .bind(&t.slug)
            .execute(&mut *tx)
            .await?;
    }
    for a in &data.attributes {
        sqlx::query(
            "INSERT INTO attributes (id, name, taxonomy, swatch_type) VALUES ($1, $2, $3, $4)",
        )
        .bind(a.id.0)
        .bind(&a.name)
        .bind(&a.taxonomy)
        .bind(a.swatch.as_str())
        .execute(&mut *tx)
        .await?;
        for (pos, t) in a.terms.iter().enumerate() {
            sqlx::query("INSERT INTO attribute_terms (id, attribute_id, name, slug, position, swatch_color, swatch_image_id) VALUES ($1, $2, $3, $4, $5, $6, $7)")
                .bind(t.id.0)
                .bind(a.id.0)
                .bind(&t.name)
                .bind(&t.slug)
                .bind(pos as i64)
                .bind(&t.color)
                .bind(t.image_id.map(|m| m.0))
                .execute(&mut *tx)
                .await?;
        }
    }
    let mut products: Vec<&Product> = data.products.iter().collect();
    products.sort_by_key(|p| p.parent_id.is_some());
    for p in products {
        insert_product(&mut tx, p).await?;
    }
    bump_version(&mut tx).await?;
    tx.commit().await?;
    Ok(())
}

pub(crate) async fn insert_product(tx: &mut Transaction<'_, Any>, p: &Product) -> StoreResult<()> {
    write_product(tx, p, false).await
}

/// Creates or replaces one product (with its links) and logs the change, so every
/// instance reloads that product alone.
pub async fn save_product(db: &Db, p: &Product) -> StoreResult<()> {
    let mut tx = db.begin_write().await?;
    write_product(&mut tx, p, true).await?;
    record_change(&mut tx, &[Change::Product(p.id)]).await?;
    tx.commit().await?;
    Ok(())
}

/// The columns `insert_product` writes, in the order it binds them.
pub(crate) const PRODUCT_COLUMNS: [&str; 45] = [
    "id",
    "parent_id",
    "kind",
    "name",
    "slug",
    "sku",
    "short_description",
    "description",
    "menu_order",
    "created_at",
    "featured",
    "regular_price",
    "sale_price",
    "manage_stock",
    "stock_quantity",
    "stock_status",
    "backorders",
    "low_stock_amount",
    "min_quantity",
    "max_quantity",
    "sold_individually",
    "weight_grams",
    "length_mm",
    "width_mm",
    "height_mm",
    "external_url",
    "button_text",
    "rating_average_x100",
    "review_count",
    "total_sales",
    "variation",
    "tax_class",
    "shipping_class",
    "status",
    "catalog_visibility",
    "tax_status",
    "sale_from",
    "sale_to",
    "is_virtual",
    "reviews_allowed",
    "purchase_note",
    "upsell_ids",
    "cross_sell_ids",
    "updated_at",
    "live_changed_at",
];

/// Writes a product's row (replacing the row of the same id with `replace`) and its
/// images, terms and attributes.
async fn write_product(
    tx: &mut Transaction<'_, Any>,
    p: &Product,
    replace: bool,
) -> StoreResult<()> {
    let variation =
        serde_json::to_string(&p.variation).map_err(|e| StoreError::Corrupt(e.to_string()))?;
    let marks: Vec<String> = (1..=PRODUCT_COLUMNS.len())
        .map(|n| format!("${n}"))
        .collect();
    let mut sql = format!(
        "INSERT INTO products ({}) VALUES ({})",
        PRODUCT_COLUMNS.join(", "),
        marks.join(", ")
    );
    if replace {
        let set: Vec<String> = PRODUCT_COLUMNS[1..]
            .iter()
            .map(|c| format!("{c} = excluded.{c}"))
            .collect();
        sql.push_str(&format!(
            " ON CONFLICT (id) DO UPDATE SET {}",
            set.join(", ")
        ));
        for table in [
            "product_images",
            "product_categories",
            "product_brands",
            "product_tags",
            "product_attributes",
        ] {
            sqlx::query(&format!("DELETE FROM {table} WHERE product_id = $1"))
                .bind(p.id.0)
                .execute(&mut **tx)
                .await?;
        }
    }
    sqlx::query(&sql)
        .bind(p.id.0)
        .bind(p.parent_id.map(|i| i.0))
        .bind(p.kind.as_str())
        .bind(&p.name)
        .bind(&p.slug)
        .bind(&p.sku)
        .bind(&p.short_description)
        .bind(&p.description)
        .bind(p.menu_order)
        .bind(p.created_at)
        .bind(flag(p.featured))
        .bind(p.regular_price)
        .bind(p.sale_price)
        .bind(flag(p.manage_stock))
        .bind(p.stock_quantity)
        .bind(p.stock_status.as_str())
        .bind(p.backorders.as_str())
        .bind(p.low_stock_amount)
        .bind(p.min_quantity)
        .bind(p.max_quantity)
        .bind(flag(p.sold_individually))
        .bind(p.weight_grams)
        .bind(p.dimensions.map(|d| d.length_mm))
        .bind(p.dimensions.map(|d| d.width_mm))
        .bind(p.dimensions.map(|d| d.height_mm))
        .bind(&p.external_url)
        .bind(&p.button_text)
        .bind(p.rating_average_x100)
        .bind(p.review_count)
        .bind(p.total_sales)
        .bind(variation)
        .bind(&p.tax_class)
        .bind(&p.shipping_class)
        .bind(p.status.as_str())
        .bind(p.visibility.as_str())
        .bind(p.tax_status.as_str())
        .bind(p.sale_from)
        .bind(p.sale_to)
        .bind(flag(p.is_virtual))
        .bind(flag(p.reviews_allowed))
        .bind(&p.purchase_note)
        .bind(id_list(&p.upsell_ids))
        .bind(id_list(&p.cross_sell_ids))
        .bind(p.updated_at)
        // Written with the catalogue: instances read it with the catalogue change, not as
        // a stock change.
        .bind(0_i64)
        .execute(&mut **tx)
        .await?;
    for (pos, m) in p.image_ids.iter().enumerate() {
        sqlx::query(
            "INSERT INTO product_images (product_id, media_id, position) VALUES ($1, $2, $3)",
        )
        .bind(p.id.0)
        .bind(m.0)
        .bind(pos as i64)
        .execute(&mut **tx)
        .await?;
    }
    for (table, column, ids) in [
        (
            "product_categories",
            "category_id",
            p.category_ids.iter().map(|i| i.0).collect::<Vec<_>>(),
        ),
        (
            "product_brands",
            "brand_id",
            p.brand_ids.iter().map(|i| i.0).collect(),
        ),
        (
            "product_tags",
            "tag_id",
            p.tag_ids.iter().map(|i| i.0).collect(),
        ),
    ] {
        for (pos, id) in ids.into_iter().enumerate() {
            sqlx::query(&format!(
                "INSERT INTO {table} (product_id, {column}, position) VALUES ($1, $2, $3)"
            ))
            .bind(p.id.0)
            .bind(id)
            .bind(pos as i64)
            .execute(&mut **tx)
            .await?;
        }
    }
    for (pos, a) in p.attributes.iter().enumerate() {
        let values =
            serde_json::to_string(&a.values).map_err(|e| StoreError::Corrupt(e.to_string()))?;
        sqlx::query(
            "INSERT INTO product_attributes (product_id, position, attribute_id, name, attr_values, visible, used_for_variations, default_value)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(p.id.0)
        .bind(pos as i64)
        .bind(a.attribute_id.map(|i| i.0))
        .bind(&a.name)
        .bind(values)
        .bind(flag(a.visible))
        .bind(flag(a.used_for_variations))
        .bind(&a.default_value)
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

/// Product ids as the JSON array stored in one column.
fn id_list(ids: &[ProductId]) -> String {
    let raw: Vec<i64> = ids.iter().map(|i| i.0).collect();
    serde_json::to_string(&raw).unwrap_or_else(|_| "[]".into())
}

/// Stock, sales and rating figures of the products whose figures changed at or
/// after `since_ms` (Unix milliseconds), read through the `live_changed_at` index,
/// with the latest stamp seen.
pub async fn live_figures_since(
    db: &Db,
    since_ms: i64,
) -> StoreResult<(Vec<rules::catalog::index::LiveFigures>, i64)> {
    let rows = sqlx::query(
        "SELECT id, stock_quantity, stock_status, total_sales, rating_average_x100, review_count,
            live_changed_at
         FROM products WHERE live_changed_at >= $1",
    )
    .bind(since_ms)
    .fetch_all(db.reader())
    .await?;
    let mut latest = since_ms;
    let mut figures = Vec::with_capacity(rows.len());
    for r in &rows {
        latest = latest.max(r.try_get("live_changed_at")?);
        figures.push(rules::catalog::index::LiveFigures {
            id: ProductId(r.try_get("id")?),
            stock_quantity: r.try_get("stock_quantity")?,
            stock_status: enum_column(r, "stock_status", StockStatus::parse)?,
            total_sales: r.try_get("total_sales")?,
            rating_average_x100: r.try_get("rating_average_x100")?,
            review_count: r.try_get("review_count")?,
        });
    }
    Ok((figures, latest))
}

/// Unix milliseconds now, for `live_changed_at`.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

fn enum_column<T>(row: &AnyRow, column: &str, parse: fn(&str) -> Option<T>) -> StoreResult<T> {
    let raw: String = row.try_get(column)?;
    parse(&raw).ok_or_else(|| StoreError::Corrupt(format!("{column} = {raw:?}")))
}

/// Reads the whole catalogue (without image bodies).
pub async fn load_catalog(db: &Db) -> StoreResult<CatalogData> {
    let mut data = load_terms(db).await?;
    data.products = load_products(db, None).await?;
    Ok(data)
}

/// Reads categories, brands, tags, attributes and media (without image bodies); no
/// products.
pub async fn load_terms(db: &Db) -> StoreResult<CatalogData> {
    let pool = db.reader();
    let media = sqlx::query(
        "SELECT id, file_name, mime_type, width, height, alt, caption FROM media ORDER BY id",
    )
    .fetch_all(pool)
    .await?
    .iter()
    .map(|r| {
        Ok(Media {
            id: MediaId(r.try_get("id")?),
            file_name: r.try_get("file_name")?,
            mime_type: r.try_get("mime_type")?,
            width: r.try_get("width")?,
            height: r.try_get("height")?,
            alt: r.try_get("alt")?,
            caption: r.try_get("caption")?,
            body: Vec::new(),
        })
    })
    .collect::<StoreResult<Vec<_>>>()?;
    let categories = sqlx::query(
        "SELECT id, parent_id, name, slug, description, menu_order, image_id FROM categories ORDER BY menu_order, name",
    )
    .fetch_all(pool)
    .await?
    .iter()
    .map(|r| {
        Ok(Category {
            id: CategoryId(r.try_get("id")?),
            parent_id: r.try_get::<Option<i64>, _>("parent_id")?.map(CategoryId),
            name: r.try_get("name")?,
            slug: r.try_get("slug")?,
            description: r.try_get("description")?,
            menu_order: r.try_get("menu_order")?,
            image_id: r.try_get::<Option<i64>, _>("image_id")?.map(MediaId),
        })
    })
    .collect::<StoreResult<Vec<_>>>()?;
    let brands =
        sqlx::query("SELECT id, name, slug, description, image_id FROM brands ORDER BY name")
            .fetch_all(pool)
            .await?
            .iter()
            .map(|r| {
                Ok(Brand {
                    id: BrandId(r.try_get("id")?),
                    name: r.try_get("name")?,
                    slug: r.try_get("slug")?,
                    description: r.try_get("description")?,
                    image_id: r.try_get::<Option<i64>, _>("image_id")?.map(MediaId),
                })
            })
            .collect::<StoreResult<Vec<_>>>()?;
    let tags = sqlx::query("SELECT id, name, slug FROM tags ORDER BY name")
        .fetch_all(pool)
        .await?
        .iter()
        .map(|r| {
            Ok(Tag {
                id: TagId(r.try_get("id")?),
                name: r.try_get("name")?,
                slug: r.try_get("slug")?,
            })
        })
        .collect::<StoreResult<Vec<_>>>()?;
    let mut attributes =
        sqlx::query("SELECT id, name, taxonomy, swatch_type FROM attributes ORDER BY id")
            .fetch_all(pool)
            .await?
            .iter()
            .map(|r| {
                let swatch: String = r.try_get("swatch_type")?;
                Ok(Attribute {
                    id: AttributeId(r.try_get("id")?),
                    name: r.try_get("name")?,
                    taxonomy: r.try_get("taxonomy")?,
                    swatch: SwatchType::parse(&swatch).unwrap_or_default(),
                    terms: Vec::new(),
                })
            })
            .collect::<StoreResult<Vec<_>>>()?;
    for r in sqlx::query(
        "SELECT id, attribute_id, name, slug, swatch_color, swatch_image_id FROM attribute_terms ORDER BY attribute_id, position",
    )
    .fetch_all(pool)
    .await?
    {
        let attribute_id = AttributeId(r.try_get("attribute_id")?);
        if let Some(a) = attributes.iter_mut().find(|a| a.id == attribute_id) {
            a.terms.push(Term {
                id: TermId(r.try_get("id")?),
                name: r.try_get("name")?,
                slug: r.try_get("slug")?,
                color: r.try_get("swatch_color")?,
                image_id: r.try_get::<Option<i64>, _>("swatch_image_id")?.map(MediaId),
            });
        }
    }

    let products = Vec::new();
    Ok(CatalogData {
        categories,
        brands,
        tags,
        attributes,
        media,
        products,
    })
}

/// Products with their images, terms and attributes: all of them, or only `only`
/// (missing ids are simply absent). Rows are streamed, not gathered first.
pub async fn load_products(db: &Db, only: Option<&[ProductId]>) -> StoreResult<Vec<Product>> {
    match only {
        None => load_products_where(db, "", &[]).await,
        Some(ids) => {
            let mut all = Vec::with_capacity(ids.len());
            for chunk in ids.chunks(500) {
                let raw: Vec<i64> = chunk.iter().map(|i| i.0).collect();
                let marks: Vec<String> = (1..=raw.len()).map(|n| format!("${n}")).collect();
                let filter = format!("IN ({})", marks.join(", "));
                all.extend(load_products_where(db, &filter, &raw).await?);
            }
            Ok(all)
        }
    }
}

/// The lowest and highest product ids; none in an empty catalogue.
pub async fn product_id_range(db: &Db) -> StoreResult<Option<(i64, i64)>> {
    let row = sqlx::query("SELECT MIN(id), MAX(id) FROM products")
        .fetch_one(db.reader())
        .await?;
    let first: Option<i64> = row.try_get(0)?;
    let last: Option<i64> = row.try_get(1)?;
    Ok(first.zip(last))
}

/// Up to `limit` products with ids above `after` and at most `until`, in id order:
/// the whole catalogue (or a range of it) a slice at a time (`after` = the last id
/// of the previous slice), so that reading it never holds a second copy of it beside
/// the one in use.
pub async fn load_products_after(
    db: &Db,
    after: i64,
    until: i64,
    limit: i64,
) -> StoreResult<Vec<Product>> {
    let last: Option<i64> = sqlx::query_scalar(
        "SELECT MAX(id) FROM (SELECT id FROM products WHERE id > $1 AND id <= $2 ORDER BY id LIMIT $3) AS slice",
    )
    .bind(after)
    .bind(until)
    .bind(limit)
    .fetch_one(db.reader())
    .await?;
    match last {
        None => Ok(Vec::new()),
        Some(last) => load_products_where(db, "BETWEEN $1 AND $2", &[after + 1, last]).await,
    }
}

/// `filter` ("IN ($1, …)", "BETWEEN $1 AND $2", or empty for all) applies to each
/// table's product id.
async fn load_products_where(db: &Db, filter: &str, ids: &[i64]) -> StoreResult<Vec<Product>> {
    let pool = db.reader();
    let sql = |base: &str, column: &str, order: &str| -> String {
        if filter.is_empty() {
            format!("{base} ORDER BY {order}")
        } else {
            format!("{base} WHERE {column} {filter} ORDER BY {order}")
        }
    };
    // Images, categories, brands and tags come with their product as id lists, in
    // their order: one row per product instead of one per link.
    let lists = LINK_LISTS
        .iter()
        .map(|(table, column, alias)| {
            let joined = match db.backend {
                crate::Backend::Sqlite => format!("group_concat({column}, ',' ORDER BY position)"),
                crate::Backend::Postgres => {
                    format!("string_agg(CAST({column} AS TEXT), ',' ORDER BY position)")
                }
            };
            format!("(SELECT {joined} FROM {table} l WHERE l.product_id = products.id) AS {alias}")
        })
        .collect::<Vec<_>>()
        .join(", ");
    let mut products = Vec::new();
    let select = format!(
        "SELECT {}, {lists} FROM products",
        product_record_sql(db.backend)
    );
    for_each_row(pool, &sql(&select, "id", "id"), ids, |r| {
        let mut p = product_from_row(r)?;
        p.image_ids = link_list(r, "image_list", MediaId)?;
        p.category_ids = link_list(r, "category_list", CategoryId)?;
        p.brand_ids = link_list(r, "brand_list", BrandId)?;
        p.tag_ids = link_list(r, "tag_list", TagId)?;
        products.push(p);
        Ok(())
    })
    .await?;
    let index: HashMap<ProductId, usize> = products
        .iter()
        .enumerate()
        .map(|(i, p)| (p.id, i))
        .collect();
    let link_sql = |base: &str| sql(base, "product_id", "product_id, position");
    let at = |r: &AnyRow| -> StoreResult<Option<usize>> {
        Ok(index.get(&ProductId(r.try_get("product_id")?)).copied())
    };
    for_each_row(
        pool,
        &link_sql(
            "SELECT product_id, attribute_id, name, attr_values, visible, used_for_variations, default_value
             FROM product_attributes",
        ),
        ids,
        |r| {
            if let Some(i) = at(r)? {
                let values: String = r.try_get("attr_values")?;
                products[i].attributes.push(ProductAttribute {
                    attribute_id: r
                        .try_get::<Option<i64>, _>("attribute_id")?
                        .map(AttributeId),
                    name: r.try_get("name")?,
                    values: serde_json::from_str(&values)
                        .map_err(|e| StoreError::Corrupt(e.to_string()))?,
                    visible: r.try_get::<i64, _>("visible")? != 0,
                    used_for_variations: r.try_get::<i64, _>("used_for_variations")? != 0,
                    default_value: r.try_get("default_value")?,
                });
            }
            Ok(())
        },
    )
    .await?;
    Ok(products)
}

/// The link tables read as id lists with each product: (table, id column, alias).
const LINK_LISTS: [(&str, &str, &str); 4] = [
    ("product_images", "media_id", "image_list"),
    ("product_categories", "category_id", "category_list"),
    ("product_brands", "brand_id", "brand_list"),
    ("product_tags", "tag_id", "tag_list"),
];

/// A comma-separated id list column (NULL for none).
fn link_list<T>(row: &AnyRow, column: &str, id: fn(i64) -> T) -> StoreResult<Vec<T>> {
    let Some(raw) = row.try_get::<Option<String>, _>(column)? else {
        return Ok(Vec::new());
    };
    raw.split(',')
        .map(|n| {
            n.trim()
                .parse()
                .map(id)
                .map_err(|_| StoreError::Corrupt(format!("{column} = {raw:?}")))
        })
        .collect()
}

/// Streams the rows of `text` (with `ids` bound in order) through `each`.
async fn for_each_row(
    pool: &sqlx::Pool<Any>,
    text: &str,
    ids: &[i64],
    mut each: impl FnMut(&AnyRow) -> StoreResult<()>,
) -> StoreResult<()> {
    use futures_util::TryStreamExt;
    let mut q = sqlx::query(text);
    for id in ids {
        q = q.bind(*id);
    }
    let mut rows = q.fetch(pool);
    while let Some(r) = rows.try_next().await? {
        each(&r)?;
    }
    Ok(())
}

/// A products row as one JSON object in a column named `record`, which
/// `product_from_row` reads: the database encodes the forty-five columns in one go, where
/// the driver would copy and convert each of them on its own (most of the time it takes
/// to read a large catalogue).
fn product_record_sql(backend: crate::Backend) -> String {
    let pairs = PRODUCT_COLUMNS
        .iter()
        .map(|c| format!("'{c}', products.{c}"))
        .collect::<Vec<_>>()
        .join(", ");
    match backend {
        crate::Backend::Sqlite => format!("json_object({pairs}) AS record"),
        crate::Backend::Postgres => format!("CAST(json_build_object({pairs}) AS TEXT) AS record"),
    }
}

/// The columns of a products row that make a product, as `product_record_sql` writes
/// them (flags are 0 or 1, lists are JSON text).
#[derive(serde::Deserialize)]
struct ProductRecord {
    id: i64,
    parent_id: Option<i64>,
    kind: String,
    status: String,
    catalog_visibility: String,
    name: String,
    slug: String,
    sku: String,
    short_description: String,
    description: String,
    menu_order: i64,
    created_at: i64,
    updated_at: i64,
    featured: i64,
    regular_price: Option<i64>,
    sale_price: Option<i64>,
    sale_from: Option<i64>,
    sale_to: Option<i64>,
    manage_stock: i64,
    stock_quantity: Option<i64>,
    stock_status: String,
    backorders: String,
    low_stock_amount: Option<i64>,
    min_quantity: i64,
    max_quantity: Option<i64>,
    sold_individually: i64,
    weight_grams: Option<i64>,
    length_mm: Option<i64>,
    width_mm: Option<i64>,
    height_mm: Option<i64>,
    external_url: String,
    button_text: String,
    rating_average_x100: i64,
    review_count: i64,
    total_sales: i64,
    tax_status: String,
    tax_class: String,
    is_virtual: i64,
    reviews_allowed: i64,
    purchase_note: String,
    upsell_ids: String,
    cross_sell_ids: String,
    shipping_class: String,
    variation: String,
}

/// A product from a row holding `product_record_sql`'s `record` (without its links).
fn product_from_row(r: &AnyRow) -> StoreResult<Product> {
    let text: String = r.try_get("record")?;
    let p: ProductRecord = serde_json::from_str(&text)
        .map_err(|e| StoreError::Corrupt(format!("products row: {e}")))?;
    fn parsed<T>(column: &str, raw: &str, parse: fn(&str) -> Option<T>) -> StoreResult<T> {
        parse(raw).ok_or_else(|| StoreError::Corrupt(format!("{column} = {raw:?}")))
    }
    fn ids(column: &str, raw: &str) -> StoreResult<Vec<ProductId>> {
        let ids: Vec<i64> =
            serde_json::from_str(raw).map_err(|e| StoreError::Corrupt(format!("{column}: {e}")))?;
        Ok(ids.into_iter().map(ProductId).collect())
    }
    Ok(Product {
        id: ProductId(p.id),
        parent_id: p.parent_id.map(ProductId),
        kind: parsed("kind", &p.kind, ProductKind::parse)?,
        status: parsed("status", &p.status, ProductStatus::parse)?,
        visibility: parsed(
            "catalog_visibility",
            &p.catalog_visibility,
            CatalogVisibility::parse,
        )?,
        name: p.name,
        slug: p.slug,
        sku: p.sku,
        short_description: p.short_description,
        description: p.description,
        menu_order: p.menu_order,
        created_at: p.created_at,
        updated_at: p.updated_at,
        featured: p.featured != 0,
        regular_price: p.regular_price,
        sale_price: p.sale_price,
        sale_from: p.sale_from,
        sale_to: p.sale_to,
        manage_stock: p.manage_stock != 0,
        stock_quantity: p.stock_quantity,
        stock_status: parsed("stock_status", &p.stock_status, StockStatus::parse)?,
        backorders: parsed("backorders", &p.backorders, Backorders::parse)?,
        low_stock_amount: p.low_stock_amount,
        min_quantity: p.min_quantity,
        max_quantity: p.max_quantity,
        sold_individually: p.sold_individually != 0,
        weight_grams: p.weight_grams,
        dimensions: match (p.length_mm, p.width_mm, p.height_mm) {
            (Some(length_mm), Some(width_mm), Some(height_mm)) => Some(Dimensions {
                length_mm,
                width_mm,
                height_mm,
            }),
            _ => None,
        },
        external_url: p.external_url,
        button_text: p.button_text,
        rating_average_x100: p.rating_average_x100,
        review_count: p.review_count,
        total_sales: p.total_sales,
        tax_status: parsed("tax_status", &p.tax_status, TaxStatus::parse)?,
        tax_class: p.tax_class,
        is_virtual: p.is_virtual != 0,
        reviews_allowed: p.reviews_allowed != 0,
        purchase_note: p.purchase_note,
        upsell_ids: ids("upsell_ids", &p.upsell_ids)?,
        cross_sell_ids: ids("cross_sell_ids", &p.cross_sell_ids)?,
        shipping_class: p.shipping_class,
        image_ids: Vec::new(),
        category_ids: Vec::new(),
        brand_ids: Vec::new(),
        tag_ids: Vec::new(),
        attributes: Vec::new(),
        variation: serde_json::from_str(&p.variation)
            .map_err(|e| StoreError::Corrupt(format!("variation: {e}")))?,
    })
}

/// Writes one image row under `id` and `file_name` (the rest from `m`).
async fn insert_media(
    tx: &mut Transaction<'_, Any>,
    id: i64,
    file_name: &str,
    m: &Media,
) -> StoreResult<()> {
    sqlx::query(
        "INSERT INTO media (id, file_name, mime_type, width, height, alt, caption, body)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(id)
    .bind(file_name)
    .bind(&m.mime_type)
    .bind(m.width)
    .bind(m.height)
    .bind(&m.alt)
    .bind(&m.caption)
    .bind(m.body.as_slice())
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Adds an image to the shop's media. A file name already taken gets "-2", "-3"…
/// before its extension; the stored row (with its id and final name) is returned.
/// Every instance's catalogue hears of it through the change log.
pub async fn add_media(db: &Db, image: &Media) -> StoreResult<Media> {
    let mut tx = db.begin_write().await?;
    // The version row's lock comes first, so two uploads at once take turns here.
    record_change(&mut tx, &[Change::Media]).await?;
    let id: i64 = sqlx::query_scalar("SELECT COALESCE(MAX(id), 0) + 1 FROM media")
        .fetch_one(&mut *tx)
        .await?;
    let (stem, extension) = match image.file_name.rsplit_once('.') {
        Some((stem, ext)) => (stem, format!(".{ext}")),
        None => (image.file_name.as_str(), String::new()),
    };
    let mut file_name = image.file_name.clone();
    for n in 2.. {
        let taken: Option<i64> = sqlx::query_scalar("SELECT id FROM media WHERE file_name = $1")
            .bind(&file_name)
            .fetch_optional(&mut *tx)
            .await?;
        if taken.is_none() {
            break;
        }
        file_name = format!("{stem}-{n}{extension}");
    }
    insert_media(&mut tx, id, &file_name, image).await?;
    tx.commit().await?;
    Ok(Media {
        id: MediaId(id),
        file_name,
        mime_type: image.mime_type.clone(),
        width: image.width,
        height: image.height,
        alt: image.alt.clone(),
        caption: image.caption.clone(),
        body: Vec::new(),
    })
}

/// An image's type and bytes, by file name.
pub async fn find_media(db: &Db, file_name: &str) -> StoreResult<Option<(String, Vec<u8>)>> {
    let row = sqlx::query("SELECT mime_type, body FROM media WHERE file_name = $1")
        .bind(file_name)
        .fetch_optional(db.reader())
        .await?;
    row.map(|r| Ok((r.try_get("mime_type")?, r.try_get("body")?)))
        .transpose()
}

pub use rules::stock::StockLevel;

/// The columns of a product's stock, as `stock_level` reads them.
macro_rules! stock_columns {
    () => {
        "manage_stock, stock_quantity, stock_status, backorders"
    };
}
pub(crate) use stock_columns;
pub(crate) type StockColumns = (i64, Option<i64>, String, String);

pub(crate) fn stock_level(
    (manage_stock, quantity, status, backorders): StockColumns,
) -> StoreResult<StockLevel> {
    let corrupt = |column: &str, raw: &str| StoreError::Corrupt(format!("{column} = {raw:?}"));
    Ok(StockLevel {
        manage_stock: manage_stock != 0,
        quantity,
        status: StockStatus::parse(&status).ok_or_else(|| corrupt("stock_status", &status))?,
        backorders: Backorders::parse(&backorders)
            .ok_or_else(|| corrupt("backorders", &backorders))?,
    })
}

/// A product's stock as it is now (the catalogue snapshot holds none). Every
/// add-to-cart reads it: it takes the direct way (see `direct`).
pub async fn find_stock(db: &Db, id: ProductId) -> StoreResult<Option<StockLevel>> {
    const FIND: &str = concat!("SELECT ", stock_columns!(), " FROM products WHERE id = $1");
    let row: Option<StockColumns> = read_row!(db, FIND, StockColumns, id.0);
    row.map(stock_level).transpose()
}

/// Sets a product's stock (used by tests and, later, by order placement and staff).
pub async fn set_stock(
    db: &Db,
    id: ProductId,
    quantity: i64,
    status: StockStatus,
) -> StoreResult<()> {
    let mut tx = db.begin_write().await?;
    sqlx::query("UPDATE products SET manage_stock = 1, stock_quantity = $1, stock_status = $2, live_changed_at = $4 WHERE id = $3")
        .bind(quantity)
        .bind(status.as_str())
        .bind(id.0)
        .bind(now_ms())
        .execute(&mut *tx)
        .await?;
    record_change(&mut tx, &[Change::Product(id)]).await?;
    tx.commit().await?;
    Ok(())
}

/// Tells every server instance to reload its catalogue snapshot (stock figures changed).
pub async fn bump_catalog_version(db: &Db) -> StoreResult<()> {
    let mut tx = db.begin_write().await?;
    bump_version(&mut tx).await?;
    tx.commit().await?;
    Ok(())
}
