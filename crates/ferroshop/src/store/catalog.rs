//! Catalogue storage: loading the whole catalogue (the server keeps a snapshot of it),
//! writing a catalogue (the demo data), images, and live stock figures.

use std::collections::HashMap;

use sqlx::any::AnyRow;
use sqlx::{Any, Row, Transaction};

use super::{flag, Db, StoreError, StoreResult};
use crate::catalog::model::*;

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

pub(crate) async fn bump_version(tx: &mut Transaction<'_, Any>) -> StoreResult<()> {
    sqlx::query(
        "INSERT INTO settings (name, value) VALUES ($1, '1')
         ON CONFLICT (name) DO UPDATE SET value = CAST(CAST(settings.value AS BIGINT) + 1 AS TEXT)",
    )
    .bind(VERSION_SETTING)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Writes a whole catalogue in one transaction (used for the demo data and tests).
pub async fn insert_catalog(db: &Db, data: &CatalogData) -> StoreResult<()> {
    let mut tx = db.writer().begin().await?;
    for m in &data.media {
        sqlx::query(
            "INSERT INTO media (id, file_name, mime_type, width, height, alt, caption, body)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(m.id.0)
        .bind(&m.file_name)
        .bind(&m.mime_type)
        .bind(m.width)
        .bind(m.height)
        .bind(&m.alt)
        .bind(&m.caption)
        .bind(m.body.clone())
        .execute(&mut *tx)
        .await?;
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
        sqlx::query("INSERT INTO attributes (id, name, taxonomy) VALUES ($1, $2, $3)")
            .bind(a.id.0)
            .bind(&a.name)
            .bind(&a.taxonomy)
            .execute(&mut *tx)
            .await?;
        for (pos, t) in a.terms.iter().enumerate() {
            sqlx::query("INSERT INTO attribute_terms (id, attribute_id, name, slug, position) VALUES ($1, $2, $3, $4, $5)")
                .bind(t.id.0)
                .bind(a.id.0)
                .bind(&t.name)
                .bind(&t.slug)
                .bind(pos as i64)
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

async fn insert_product(tx: &mut Transaction<'_, Any>, p: &Product) -> StoreResult<()> {
    let variation =
        serde_json::to_string(&p.variation).map_err(|e| StoreError::Corrupt(e.to_string()))?;
    sqlx::query(
        "INSERT INTO products (id, parent_id, kind, name, slug, sku, short_description, description,
            menu_order, created_at, featured, regular_price, sale_price, manage_stock, stock_quantity,
            stock_status, backorders, low_stock_amount, min_quantity, max_quantity, sold_individually,
            weight_grams, length_mm, width_mm, height_mm, external_url, button_text,
            rating_average_x100, review_count, total_sales, variation, tax_class, shipping_class)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19,
            $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31, $32, $33)",
    )
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
            "INSERT INTO product_attributes (product_id, position, attribute_id, name, attr_values, visible, used_for_variations)
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(p.id.0)
        .bind(pos as i64)
        .bind(a.attribute_id.map(|i| i.0))
        .bind(&a.name)
        .bind(values)
        .bind(flag(a.visible))
        .bind(flag(a.used_for_variations))
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

fn enum_column<T>(row: &AnyRow, column: &str, parse: fn(&str) -> Option<T>) -> StoreResult<T> {
    let raw: String = row.try_get(column)?;
    parse(&raw).ok_or_else(|| StoreError::Corrupt(format!("{column} = {raw:?}")))
}

/// Reads the whole catalogue (without image bodies).
pub async fn load_catalog(db: &Db) -> StoreResult<CatalogData> {
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
    let mut attributes = sqlx::query("SELECT id, name, taxonomy FROM attributes ORDER BY id")
        .fetch_all(pool)
        .await?
        .iter()
        .map(|r| {
            Ok(Attribute {
                id: AttributeId(r.try_get("id")?),
                name: r.try_get("name")?,
                taxonomy: r.try_get("taxonomy")?,
                terms: Vec::new(),
            })
        })
        .collect::<StoreResult<Vec<_>>>()?;
    for r in sqlx::query(
        "SELECT id, attribute_id, name, slug FROM attribute_terms ORDER BY attribute_id, position",
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
            });
        }
    }

    let mut products = Vec::new();
    for r in sqlx::query("SELECT * FROM products ORDER BY id")
        .fetch_all(pool)
        .await?
    {
        products.push(product_from_row(&r)?);
    }
    let index: HashMap<ProductId, usize> = products
        .iter()
        .enumerate()
        .map(|(i, p)| (p.id, i))
        .collect();
    let links = |sql: &'static str| sqlx::query(sql).fetch_all(pool);
    for r in links("SELECT product_id, media_id FROM product_images ORDER BY product_id, position")
        .await?
    {
        if let Some(&i) = index.get(&ProductId(r.try_get("product_id")?)) {
            products[i].image_ids.push(MediaId(r.try_get("media_id")?));
        }
    }
    for r in links(
        "SELECT product_id, category_id FROM product_categories ORDER BY product_id, position",
    )
    .await?
    {
        if let Some(&i) = index.get(&ProductId(r.try_get("product_id")?)) {
            products[i]
                .category_ids
                .push(CategoryId(r.try_get("category_id")?));
        }
    }
    for r in links("SELECT product_id, brand_id FROM product_brands ORDER BY product_id, position")
        .await?
    {
        if let Some(&i) = index.get(&ProductId(r.try_get("product_id")?)) {
            products[i].brand_ids.push(BrandId(r.try_get("brand_id")?));
        }
    }
    for r in
        links("SELECT product_id, tag_id FROM product_tags ORDER BY product_id, position").await?
    {
        if let Some(&i) = index.get(&ProductId(r.try_get("product_id")?)) {
            products[i].tag_ids.push(TagId(r.try_get("tag_id")?));
        }
    }
    for r in links(
        "SELECT product_id, attribute_id, name, attr_values, visible, used_for_variations
         FROM product_attributes ORDER BY product_id, position",
    )
    .await?
    {
        if let Some(&i) = index.get(&ProductId(r.try_get("product_id")?)) {
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
            });
        }
    }
    Ok(CatalogData {
        categories,
        brands,
        tags,
        attributes,
        media,
        products,
    })
}

fn product_from_row(r: &AnyRow) -> StoreResult<Product> {
    let variation: String = r.try_get("variation")?;
    let dims = (
        r.try_get::<Option<i64>, _>("length_mm")?,
        r.try_get::<Option<i64>, _>("width_mm")?,
        r.try_get::<Option<i64>, _>("height_mm")?,
    );
    Ok(Product {
        id: ProductId(r.try_get("id")?),
        parent_id: r.try_get::<Option<i64>, _>("parent_id")?.map(ProductId),
        kind: enum_column(r, "kind", ProductKind::parse)?,
        name: r.try_get("name")?,
        slug: r.try_get("slug")?,
        sku: r.try_get("sku")?,
        short_description: r.try_get("short_description")?,
        description: r.try_get("description")?,
        menu_order: r.try_get("menu_order")?,
        created_at: r.try_get("created_at")?,
        featured: r.try_get::<i64, _>("featured")? != 0,
        regular_price: r.try_get("regular_price")?,
        sale_price: r.try_get("sale_price")?,
        manage_stock: r.try_get::<i64, _>("manage_stock")? != 0,
        stock_quantity: r.try_get("stock_quantity")?,
        stock_status: enum_column(r, "stock_status", StockStatus::parse)?,
        backorders: enum_column(r, "backorders", Backorders::parse)?,
        low_stock_amount: r.try_get("low_stock_amount")?,
        min_quantity: r.try_get("min_quantity")?,
        max_quantity: r.try_get("max_quantity")?,
        sold_individually: r.try_get::<i64, _>("sold_individually")? != 0,
        weight_grams: r.try_get("weight_grams")?,
        dimensions: match dims {
            (Some(length_mm), Some(width_mm), Some(height_mm)) => Some(Dimensions {
                length_mm,
                width_mm,
                height_mm,
            }),
            _ => None,
        },
        external_url: r.try_get("external_url")?,
        button_text: r.try_get("button_text")?,
        rating_average_x100: r.try_get("rating_average_x100")?,
        review_count: r.try_get("review_count")?,
        total_sales: r.try_get("total_sales")?,
        tax_class: r.try_get("tax_class")?,
        shipping_class: r.try_get("shipping_class")?,
        image_ids: Vec::new(),
        category_ids: Vec::new(),
        brand_ids: Vec::new(),
        tag_ids: Vec::new(),
        attributes: Vec::new(),
        variation: serde_json::from_str(&variation)
            .map_err(|e| StoreError::Corrupt(e.to_string()))?,
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

/// Live stock figures of one product, read fresh because the snapshot may lag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StockLevel {
    pub manage_stock: bool,
    pub quantity: Option<i64>,
    pub status: StockStatus,
    pub backorders: Backorders,
}

pub async fn find_stock(db: &Db, id: ProductId) -> StoreResult<Option<StockLevel>> {
    let row = sqlx::query(
        "SELECT manage_stock, stock_quantity, stock_status, backorders FROM products WHERE id = $1",
    )
    .bind(id.0)
    .fetch_optional(db.reader())
    .await?;
    row.map(|r| {
        Ok(StockLevel {
            manage_stock: r.try_get::<i64, _>("manage_stock")? != 0,
            quantity: r.try_get("stock_quantity")?,
            status: enum_column(&r, "stock_status", StockStatus::parse)?,
            backorders: enum_column(&r, "backorders", Backorders::parse)?,
        })
    })
    .transpose()
}

/// Sets a product's stock (used by tests and, later, by order placement and staff).
pub async fn set_stock(
    db: &Db,
    id: ProductId,
    quantity: i64,
    status: StockStatus,
) -> StoreResult<()> {
    let mut tx = db.writer().begin().await?;
    sqlx::query("UPDATE products SET manage_stock = 1, stock_quantity = $1, stock_status = $2 WHERE id = $3")
        .bind(quantity)
        .bind(status.as_str())
        .bind(id.0)
        .execute(&mut *tx)
        .await?;
    bump_version(&mut tx).await?;
    tx.commit().await?;
    Ok(())
}

/// Tells every server instance to reload its catalogue snapshot (stock figures changed).
pub async fn bump_catalog_version(db: &Db) -> StoreResult<()> {
    let mut tx = db.writer().begin().await?;
    bump_version(&mut tx).await?;
    tx.commit().await?;
    Ok(())
}
