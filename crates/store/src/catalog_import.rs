//! Catalogue import and export in bulk: what an import needs to know of the catalogue
//! (ids, SKUs, slugs, taxonomies, image names), one transaction that writes a whole
//! file with multi-row statements, and reading products back in batches for export.

use std::collections::HashMap;

use sqlx::{Any, Row, Transaction};

use super::catalog::{load_products, record_change, Change, PRODUCT_COLUMNS};
use super::{flag, Db, StoreError, StoreResult};
use rules::catalog::model::*;

/// A product as an import matches rows against it.
#[derive(Debug, Clone)]
pub struct ExistingProduct {
    pub id: ProductId,
    pub kind: ProductKind,
    pub sku: String,
    pub slug: String,
}

/// The catalogue's taxonomies and images without their bodies, and its products'
/// keys: enough to match an import's rows and to write an export's.
#[derive(Debug, Clone, Default)]
pub struct CatalogKeys {
    pub products: Vec<ExistingProduct>,
    pub categories: Vec<Category>,
    pub brands: Vec<Brand>,
    pub tags: Vec<Tag>,
    pub attributes: Vec<Attribute>,
    /// Image ids and file names.
    pub media: Vec<(MediaId, String)>,
}

impl CatalogKeys {
    /// The largest id among categories, brands, tags and attribute terms: they share
    /// one id space, because the shop indexes products by term id across all kinds.
    pub fn max_term_id(&self) -> i64 {
        let categories = self.categories.iter().map(|c| c.id.0);
        let brands = self.brands.iter().map(|b| b.id.0);
        let tags = self.tags.iter().map(|t| t.id.0);
        let terms = self
            .attributes
            .iter()
            .flat_map(|a| a.terms.iter().map(|t| t.id.0));
        categories
            .chain(brands)
            .chain(tags)
            .chain(terms)
            .max()
            .unwrap_or(0)
    }
}

pub async fn load_keys(db: &Db) -> StoreResult<CatalogKeys> {
    let pool = db.reader();
    let products = sqlx::query("SELECT id, kind, sku, slug FROM products ORDER BY id")
        .fetch_all(pool)
        .await?
        .iter()
        .map(|r| {
            let kind: String = r.try_get("kind")?;
            Ok(ExistingProduct {
                id: ProductId(r.try_get("id")?),
                kind: ProductKind::parse(&kind)
                    .ok_or_else(|| StoreError::Corrupt(format!("kind = {kind:?}")))?,
                sku: r.try_get("sku")?,
                slug: r.try_get("slug")?,
            })
        })
        .collect::<StoreResult<Vec<_>>>()?;
    let terms = super::catalog::load_terms(db).await?;
    let media = terms
        .media
        .into_iter()
        .map(|m| (m.id, m.file_name))
        .collect();
    Ok(CatalogKeys {
        products,
        categories: terms.categories,
        brands: terms.brands,
        tags: terms.tags,
        attributes: terms.attributes,
        media,
    })
}

/// Taxonomy entries an import creates, with their ids already chosen.
#[derive(Debug, Clone, Default)]
pub struct NewTerms {
    /// Parents before their children.
    pub categories: Vec<Category>,
    pub brands: Vec<Brand>,
    pub tags: Vec<Tag>,
    /// New attributes, without terms (those are in `terms`).
    pub attributes: Vec<Attribute>,
    /// New terms of new or existing attributes, with their display position.
    pub terms: Vec<(AttributeId, Term, i64)>,
}

/// One import, written in one transaction: nothing shows until `commit`, and a
/// failure anywhere leaves the catalogue as it was.
pub struct ImportWriter<'c> {
    tx: Transaction<'c, Any>,
    /// What the import wrote, for the change log.
    written: Vec<ProductId>,
    terms_written: bool,
}

/// Up to this many products, an import is logged product by product and instances
/// reload just those; beyond it, as a change to everything.
const LOGGED_ONE_BY_ONE: usize = 1_000;

/// Values bound per multi-row INSERT. Kept small: SQLite looks each value's name up
/// by walking the statement's list of them, so a statement's binding cost grows with
/// the square of its values (9,000 values made a 100,000-row import spend 85 % of its
/// time there); a few hundred keep that negligible and still save most round trips.
const VALUES_PER_STATEMENT: usize = 480;

/// Rows of `columns` values that fit one statement.
const fn rows_per_statement(columns: usize) -> usize {
    VALUES_PER_STATEMENT / columns
}

impl<'c> ImportWriter<'c> {
    pub async fn begin(db: &'c Db) -> StoreResult<ImportWriter<'c>> {
        Ok(ImportWriter {
            tx: db.begin_write().await?,
            written: Vec::new(),
            terms_written: false,
        })
    }

    pub async fn insert_terms(&mut self, terms: &NewTerms) -> StoreResult<()> {
        self.terms_written |= !(terms.categories.is_empty()
            && terms.brands.is_empty()
            && terms.tags.is_empty()
            && terms.attributes.is_empty()
            && terms.terms.is_empty());
        for chunk in terms.categories.chunks(1) {
            // One at a time: a category's parent may be new in this same import.
            let c = &chunk[0];
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
            .execute(&mut *self.tx)
            .await?;
        }
        for chunk in terms.brands.chunks(rows_per_statement(4)) {
            let sql = insert_sql("brands (id, name, slug, description)", chunk.len(), 4);
            let mut q = sqlx::query(&sql);
            for b in chunk {
                q = q
                    .bind(b.id.0)
                    .bind(&b.name)
                    .bind(&b.slug)
                    .bind(&b.description);
            }
            q.execute(&mut *self.tx).await?;
        }
        for chunk in terms.tags.chunks(rows_per_statement(3)) {
            let sql = insert_sql("tags (id, name, slug)", chunk.len(), 3);
            let mut q = sqlx::query(&sql);
            for t in chunk {
                q = q.bind(t.id.0).bind(&t.name).bind(&t.slug);
            }
            q.execute(&mut *self.tx).await?;
        }
        for a in &terms.attributes {
            sqlx::query(
                "INSERT INTO attributes (id, name, taxonomy, swatch_type) VALUES ($1, $2, $3, $4)",
            )
            .bind(a.id.0)
            .bind(&a.name)
            .bind(&a.taxonomy)
            .bind(a.swatch.as_str())
            .execute(&mut *self.tx)
            .await?;
        }
        for chunk in terms.terms.chunks(rows_per_statement(5)) {
            let sql = insert_sql(
                "attribute_terms (id, attribute_id, name, slug, position)",
                chunk.len(),
                5,
            );
            let mut q = sqlx::query(&sql);
            for (attribute, t, position) in chunk {
                q = q
                    .bind(t.id.0)
                    .bind(attribute.0)
                    .bind(&t.name)
                    .bind(&t.slug)
                    .bind(*position);
            }
            q.execute(&mut *self.tx).await?;
        }
        Ok(())
    }

    /// Writes a batch of products: new ones are inserted, existing ones (`existing`)
    /// updated in place (keeping their slug, creation date, ratings and sales) with
    /// all their links replaced. The products go first, then their links.
    pub async fn write_products(
        &mut self,
        products: &[Product],
        existing: &dyn Fn(ProductId) -> bool,
    ) -> StoreResult<()> {
        // Stock written with the catalogue reaches instances with the catalogue change,
        // not as a stock change (which every instance would read again and again).
        let now = 0_i64;
        if self.written.len() <= LOGGED_ONE_BY_ONE {
            self.written.extend(products.iter().map(|p| p.id));
        }
        for chunk in products.chunks(rows_per_statement(45)) {
            let target = format!("products ({})", PRODUCT_COLUMNS.join(", "));
            let mut sql = insert_sql(&target, chunk.len(), PRODUCT_COLUMNS.len());
            // What the file says replaces what the product had; what the file does not
            // carry (slug, creation date, ratings, sales, quantity limits) stays.
            sql.push_str(UPSERT_PRODUCT);
            let mut q = sqlx::query(&sql);
            for p in chunk {
                let variation = json(&p.variation)?;
                let up = json(&ids(&p.upsell_ids))?;
                let cross = json(&ids(&p.cross_sell_ids))?;
                q = q
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
                    .bind(up)
                    .bind(cross)
                    .bind(p.updated_at)
                    .bind(now);
            }
            q.execute(&mut *self.tx).await?;
        }

        let updated: Vec<i64> = products
            .iter()
            .filter(|p| existing(p.id))
            .map(|p| p.id.0)
            .collect();
        for chunk in updated.chunks(VALUES_PER_STATEMENT) {
            let list = id_list_sql(chunk);
            for table in [
                "product_images",
                "product_categories",
                "product_brands",
                "product_tags",
                "product_attributes",
            ] {
                sqlx::query(&format!("DELETE FROM {table} WHERE product_id IN ({list})"))
                    .execute(&mut *self.tx)
                    .await?;
            }
        }

        let positioned = |f: &dyn Fn(&Product) -> Vec<i64>| -> Vec<(i64, i64, i64)> {
            products
                .iter()
                .flat_map(|p| {
                    f(p).into_iter()
                        .enumerate()
                        .map(move |(pos, id)| (p.id.0, id, pos as i64))
                })
                .collect()
        };
        let links = [
            (
                "product_images (product_id, media_id, position)",
                positioned(&|p| p.image_ids.iter().map(|i| i.0).collect()),
            ),
            (
                "product_categories (product_id, category_id, position)",
                positioned(&|p| p.category_ids.iter().map(|i| i.0).collect()),
            ),
            (
                "product_brands (product_id, brand_id, position)",
                positioned(&|p| p.brand_ids.iter().map(|i| i.0).collect()),
            ),
            (
                "product_tags (product_id, tag_id, position)",
                positioned(&|p| p.tag_ids.iter().map(|i| i.0).collect()),
            ),
        ];
        for (target, rows) in links {
            for chunk in rows.chunks(rows_per_statement(3)) {
                let sql = insert_sql(target, chunk.len(), 3);
                let mut q = sqlx::query(&sql);
                for (product, item, position) in chunk {
                    q = q.bind(*product).bind(*item).bind(*position);
                }
                q.execute(&mut *self.tx).await?;
            }
        }
        let mut attributes = Vec::new();
        for p in products {
            for (pos, a) in p.attributes.iter().enumerate() {
                attributes.push((p.id.0, pos as i64, a, json(&a.values)?));
            }
        }
        for chunk in attributes.chunks(rows_per_statement(8)) {
            let sql = insert_sql(
                "product_attributes (product_id, position, attribute_id, name, attr_values,
                    visible, used_for_variations, default_value)",
                chunk.len(),
                8,
            );
            let mut q = sqlx::query(&sql);
            for (product, position, a, values) in chunk {
                q = q
                    .bind(*product)
                    .bind(*position)
                    .bind(a.attribute_id.map(|i| i.0))
                    .bind(&a.name)
                    .bind(values)
                    .bind(flag(a.visible))
                    .bind(flag(a.used_for_variations))
                    .bind(&a.default_value);
            }
            q.execute(&mut *self.tx).await?;
        }
        Ok(())
    }

    /// Logs what the import wrote (running instances reload those products, or
    /// everything after a large import) and makes it visible.
    pub async fn commit(mut self) -> StoreResult<()> {
        let mut changes: Vec<Change> = if self.written.len() <= LOGGED_ONE_BY_ONE {
            self.written.iter().map(|id| Change::Product(*id)).collect()
        } else {
            vec![Change::Everything]
        };
        if self.terms_written {
            changes.push(Change::Terms);
        }
        record_change(&mut self.tx, &changes).await?;
        self.tx.commit().await?;
        Ok(())
    }
}

const UPSERT_PRODUCT: &str = " ON CONFLICT (id) DO UPDATE SET parent_id = excluded.parent_id,
                    kind = excluded.kind, name = excluded.name, sku = excluded.sku,
                    short_description = excluded.short_description,
                    description = excluded.description, menu_order = excluded.menu_order,
                    featured = excluded.featured, regular_price = excluded.regular_price,
                    sale_price = excluded.sale_price, manage_stock = excluded.manage_stock,
                    stock_quantity = excluded.stock_quantity, stock_status = excluded.stock_status,
                    backorders = excluded.backorders, low_stock_amount = excluded.low_stock_amount,
                    sold_individually = excluded.sold_individually,
                    weight_grams = excluded.weight_grams, length_mm = excluded.length_mm,
                    width_mm = excluded.width_mm, height_mm = excluded.height_mm,
                    external_url = excluded.external_url, button_text = excluded.button_text,
                    variation = excluded.variation, tax_class = excluded.tax_class,
                    shipping_class = excluded.shipping_class, status = excluded.status,
                    catalog_visibility = excluded.catalog_visibility,
                    tax_status = excluded.tax_status, sale_from = excluded.sale_from,
                    sale_to = excluded.sale_to, is_virtual = excluded.is_virtual,
                    reviews_allowed = excluded.reviews_allowed,
                    purchase_note = excluded.purchase_note, upsell_ids = excluded.upsell_ids,
                    cross_sell_ids = excluded.cross_sell_ids, updated_at = excluded.updated_at,
                    live_changed_at = excluded.live_changed_at";

/// "INSERT INTO {target} VALUES ($1, $2), ($3, $4)…" for `rows` rows of `columns`
/// values, numbered as both databases read them.
fn insert_sql(target: &str, rows: usize, columns: usize) -> String {
    let mut sql = format!("INSERT INTO {target} VALUES ");
    for r in 0..rows {
        if r > 0 {
            sql.push_str(", ");
        }
        sql.push('(');
        for c in 0..columns {
            if c > 0 {
                sql.push_str(", ");
            }
            sql.push_str(&format!("${}", r * columns + c + 1));
        }
        sql.push(')');
    }
    sql
}

fn json<T: serde::Serialize>(value: &T) -> StoreResult<String> {
    serde_json::to_string(value).map_err(|e| StoreError::Corrupt(e.to_string()))
}

fn ids(ids: &[ProductId]) -> Vec<i64> {
    ids.iter().map(|i| i.0).collect()
}

/// Integer ids written into the SQL text: they are numbers the shop made, never text
/// from outside, and a list this long would exceed the bound-value limits.
fn id_list_sql(ids: &[i64]) -> String {
    ids.iter().map(i64::to_string).collect::<Vec<_>>().join(",")
}

/// The most attributes any one product (or variation) has: how many groups of
/// attribute columns an export needs.
pub async fn max_attributes_per_product(db: &Db) -> StoreResult<i64> {
    let products: Option<i64> = sqlx::query_scalar(
        "SELECT MAX(n) FROM (SELECT COUNT(*) AS n FROM product_attributes GROUP BY product_id) AS counts",
    )
    .fetch_one(db.reader())
    .await?;
    let mut most = products.unwrap_or(0);
    // A variation's values are one JSON list; the longest is found by reading them.
    for r in sqlx::query("SELECT variation FROM products WHERE kind = 'variation'")
        .fetch_all(db.reader())
        .await?
    {
        let raw: String = r.try_get("variation")?;
        let values: Vec<VariationValue> =
            serde_json::from_str(&raw).map_err(|e| StoreError::Corrupt(e.to_string()))?;
        most = most.max(values.len() as i64);
    }
    Ok(most)
}

/// The next batch for export: up to `limit` products that are not variations, with
/// ids after `after`, each followed by its variations, all with their links.
pub async fn export_batch(db: &Db, after: ProductId, limit: i64) -> StoreResult<Vec<Product>> {
    let pool = db.reader();
    let parents: Vec<i64> = sqlx::query_scalar(
        "SELECT id FROM products WHERE parent_id IS NULL AND id > $1 ORDER BY id LIMIT $2",
    )
    .bind(after.0)
    .bind(limit)
    .fetch_all(pool)
    .await?;
    if parents.is_empty() {
        return Ok(Vec::new());
    }
    let variations: Vec<i64> = sqlx::query_scalar(&format!(
        "SELECT id FROM products WHERE parent_id IN ({}) ORDER BY parent_id, id",
        id_list_sql(&parents)
    ))
    .fetch_all(pool)
    .await?;
    let ids: Vec<ProductId> = parents
        .iter()
        .chain(&variations)
        .map(|&id| ProductId(id))
        .collect();
    let mut loaded: HashMap<ProductId, Product> = load_products(db, Some(&ids))
        .await?
        .into_iter()
        .map(|p| (p.id, p))
        .collect();
    let mut children: HashMap<ProductId, Vec<Product>> = HashMap::new();
    for id in variations {
        if let Some(v) = loaded.remove(&ProductId(id)) {
            if let Some(parent) = v.parent_id {
                children.entry(parent).or_default().push(v);
            }
        }
    }
    let mut products = Vec::with_capacity(ids.len());
    for id in parents {
        let id = ProductId(id);
        products.extend(loaded.remove(&id));
        products.extend(children.remove(&id).unwrap_or_default());
    }
    Ok(products)
}
