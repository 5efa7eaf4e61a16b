//! Product reviews and replies: writing them, moving them between statuses, deleting
//! them, and every list the shop shows or staff read, each through an index. Every
//! change that moves a product's figures recomputes them from that product's reviews
//! in the same transaction (see `recompute`) and stamps `live_changed_at`, so every
//! instance's catalogue follows; the counts per status move with it, so no listing's
//! total counts rows.

use sqlx::any::AnyRow;
use sqlx::Row;

use super::orders::Tx;
use super::{flag, Backend, Db, StoreError, StoreResult};
use rules::catalog::model::ProductId;
use rules::customers::CustomerId;
use rules::reviews::figures::{Histogram, Tally};
use rules::reviews::{AuthorKey, Rating, Review, ReviewId, ReviewStatus};

const COLUMNS: &str = "id, product_id, parent_id, depth, customer_id, author_name, author_email,
    content, rating, status, verified, is_staff, created_at";

/// `COLUMNS` of the table named `r`.
const R_COLUMNS: &str = "r.id, r.product_id, r.parent_id, r.depth, r.customer_id, r.author_name,
    r.author_email, r.content, r.rating, r.status, r.verified, r.is_staff, r.created_at";

fn review_from_row(r: &AnyRow) -> StoreResult<Review> {
    let status: String = r.try_get("status")?;
    let rating: Option<i64> = r.try_get("rating")?;
    let depth: i64 = r.try_get("depth")?;
    Ok(Review {
        id: ReviewId(r.try_get("id")?),
        product_id: ProductId(r.try_get("product_id")?),
        parent_id: r.try_get::<Option<i64>, _>("parent_id")?.map(ReviewId),
        depth: u8::try_from(depth)
            .map_err(|_| StoreError::Corrupt(format!("review depth {depth}")))?,
        customer_id: r.try_get::<Option<i64>, _>("customer_id")?.map(CustomerId),
        author_name: r.try_get("author_name")?,
        author_email: r.try_get("author_email")?,
        content: r.try_get("content")?,
        rating: match rating {
            None => None,
            Some(n) => Some(
                Rating::new(n).ok_or_else(|| StoreError::Corrupt(format!("review rating {n}")))?,
            ),
        },
        status: ReviewStatus::parse(&status)
            .ok_or_else(|| StoreError::Corrupt(format!("review status {status:?}")))?,
        verified: r.try_get::<i64, _>("verified")? != 0,
        is_staff: r.try_get::<i64, _>("is_staff")? != 0,
        created_at: r.try_get("created_at")?,
    })
}

fn reviews_from_rows(rows: &[AnyRow]) -> StoreResult<Vec<Review>> {
    rows.iter().map(review_from_row).collect()
}

fn is_unique_violation(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(d) if d.is_unique_violation())
}

/// `$from, $from+1, …` for `n` values.
fn marks(from: usize, n: usize) -> String {
    (from..from + n)
        .map(|i| format!("${i}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A review or reply to store.
#[derive(Debug, Clone)]
pub struct NewReview<'a> {
    pub product_id: ProductId,
    pub parent_id: Option<ReviewId>,
    pub depth: u8,
    pub customer_id: Option<CustomerId>,
    pub author_name: &'a str,
    pub author_email: &'a str,
    pub author_key: &'a AuthorKey,
    /// The digest of a guest's session (their review shows to them while it waits).
    pub session_key: Option<&'a str>,
    pub content: &'a str,
    pub rating: Option<Rating>,
    pub status: ReviewStatus,
    pub verified: bool,
    pub is_staff: bool,
    pub created_at: i64,
}

/// What storing a review came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stored {
    Review(ReviewId),
    /// The author already has a review of this product (the unique index said so).
    AlreadyReviewed,
}

/// Opens the transaction of a change to a product's reviews. On PostgreSQL the
/// product's row is locked first, so changes to one product's reviews take turns and
/// each recomputes the figures over what the ones before it committed (SQLite's write
/// lock already makes every writer take its turn).
pub async fn begin_change(db: &Db, product: ProductId) -> StoreResult<Tx<'static>> {
    let mut tx = db.begin_write().await?;
    if db.backend == Backend::Postgres {
        sqlx::query("SELECT id FROM products WHERE id = $1 FOR UPDATE")
            .bind(product.0)
            .fetch_optional(&mut *tx)
            .await?;
    }
    Ok(tx)
}

/// Makes one author's posts take turns until this transaction ends, so the flood
/// rule sees the post before (PostgreSQL; SQLite's writers take turns anyway). Taken
/// after the product's lock, always in that order.
pub async fn hold_author(tx: &mut Tx<'_>, db: &Db, author: &AuthorKey) -> StoreResult<()> {
    if db.backend == Backend::Postgres {
        sqlx::query("SELECT pg_advisory_xact_lock($1)")
            .bind(lock_key(author.as_str()))
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}

/// A stable 64-bit key for an advisory lock (FNV-1a), apart from other locks' keys by
/// its prefix.
fn lock_key(text: &str) -> i64 {
    let hash = "review-author:"
        .bytes()
        .chain(text.bytes())
        .fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
    hash as i64
}

/// When the author last posted (anything, on any product).
pub async fn last_post_at(tx: &mut Tx<'_>, author: &AuthorKey) -> StoreResult<Option<i64>> {
    let at: Option<i64> =
        sqlx::query_scalar("SELECT MAX(created_at) FROM product_reviews WHERE author_key = $1")
            .bind(author.as_str())
            .fetch_one(&mut **tx)
            .await?;
    Ok(at)
}

/// Stores a review and moves the counts. A second review (not reply) by the same
/// author of the same product is refused by the unique index: the transaction is
/// then spent and must be dropped.
pub async fn insert(tx: &mut Tx<'_>, r: &NewReview<'_>) -> StoreResult<Stored> {
    let id: Result<i64, sqlx::Error> = sqlx::query_scalar(
        "INSERT INTO product_reviews (product_id, parent_id, depth, customer_id, author_name,
            author_email, author_key, session_key, content, rating, status, verified, is_staff,
            created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
         RETURNING id",
    )
    .bind(r.product_id.0)
    .bind(r.parent_id.map(|p| p.0))
    .bind(i64::from(r.depth))
    .bind(r.customer_id.map(|c| c.0))
    .bind(r.author_name)
    .bind(r.author_email)
    .bind(r.author_key.as_str())
    .bind(r.session_key)
    .bind(r.content)
    .bind(r.rating.map(|s| i64::from(s.stars())))
    .bind(r.status.as_str())
    .bind(flag(r.verified))
    .bind(flag(r.is_staff))
    .bind(r.created_at)
    .fetch_one(&mut **tx)
    .await;
    let id = match id {
        Ok(id) => id,
        Err(e) if is_unique_violation(&e) => return Ok(Stored::AlreadyReviewed),
        Err(e) => return Err(e.into()),
    };
    count(tx, r.status, r.parent_id.is_none(), 1).await?;
    Ok(Stored::Review(ReviewId(id)))
}

/// Moves the counts for `n` reviews (negative: taken away) of `status`.
async fn count(tx: &mut Tx<'_>, status: ReviewStatus, top_level: bool, n: i64) -> StoreResult<()> {
    sqlx::query("UPDATE review_counts SET reviews = reviews + $2 WHERE name = $1")
        .bind(status.as_str())
        .bind(n)
        .execute(&mut **tx)
        .await?;
    if top_level && status == ReviewStatus::Approved {
        sqlx::query("UPDATE review_counts SET reviews = reviews + $1 WHERE name = 'shown'")
            .bind(n)
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}

/// The product's figures, recomputed from its approved reviews through its index,
/// written to its row and stamped for every instance's live refresh.
pub async fn recompute(tx: &mut Tx<'_>, product: ProductId) -> StoreResult<Tally> {
    let (reviews, rated, stars): (i64, i64, i64) = sqlx::query_as(
        "SELECT COUNT(*), COUNT(rating), CAST(COALESCE(SUM(rating), 0) AS BIGINT)
         FROM product_reviews
         WHERE product_id = $1 AND status = 'approved' AND parent_id IS NULL",
    )
    .bind(product.0)
    .fetch_one(&mut **tx)
    .await?;
    let tally = Tally {
        reviews,
        rated,
        stars,
    };
    sqlx::query(
        "UPDATE products SET review_count = $1, rating_average_x100 = $2, live_changed_at = $3
         WHERE id = $4",
    )
    .bind(tally.reviews)
    .bind(tally.average_x100())
    .bind(crate::catalog::now_ms())
    .bind(product.0)
    .execute(&mut **tx)
    .await?;
    Ok(tally)
}

pub async fn find(db: &Db, id: ReviewId) -> StoreResult<Option<Review>> {
    let row = sqlx::query(&format!(
        "SELECT {COLUMNS} FROM product_reviews WHERE id = $1"
    ))
    .bind(id.0)
    .fetch_optional(db.reader())
    .await?;
    row.as_ref().map(review_from_row).transpose()
}

/// A review as this transaction sees it.
pub async fn find_in(tx: &mut Tx<'_>, id: ReviewId) -> StoreResult<Option<Review>> {
    let row = sqlx::query(&format!(
        "SELECT {COLUMNS} FROM product_reviews WHERE id = $1"
    ))
    .bind(id.0)
    .fetch_optional(&mut **tx)
    .await?;
    row.as_ref().map(review_from_row).transpose()
}

/// Moves a review to another status (and the counts with it). The caller recomputes
/// the product's figures.
pub async fn set_status(tx: &mut Tx<'_>, review: &Review, to: ReviewStatus) -> StoreResult<()> {
    if review.status == to {
        return Ok(());
    }
    sqlx::query("UPDATE product_reviews SET status = $1 WHERE id = $2")
        .bind(to.as_str())
        .bind(review.id.0)
        .execute(&mut **tx)
        .await?;
    count(tx, review.status, review.is_top_level(), -1).await?;
    count(tx, to, review.is_top_level(), 1).await?;
    Ok(())
}

/// Changes a review's text and rating.
pub async fn edit(
    tx: &mut Tx<'_>,
    id: ReviewId,
    content: &str,
    rating: Option<Rating>,
) -> StoreResult<()> {
    sqlx::query("UPDATE product_reviews SET content = $1, rating = $2 WHERE id = $3")
        .bind(content)
        .bind(rating.map(|s| i64::from(s.stars())))
        .bind(id.0)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Changes the name and address a review shows (whose review it is stays).
pub async fn rename(tx: &mut Tx<'_>, id: ReviewId, name: &str, email: &str) -> StoreResult<()> {
    sqlx::query("UPDATE product_reviews SET author_name = $1, author_email = $2 WHERE id = $3")
        .bind(name)
        .bind(email)
        .bind(id.0)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// A review and every reply under it, at any depth and in any status, deepest last.
pub async fn with_replies(tx: &mut Tx<'_>, id: ReviewId) -> StoreResult<Vec<Review>> {
    let rows = sqlx::query(&format!(
        "WITH RECURSIVE tree(id) AS (
             SELECT id FROM product_reviews WHERE id = $1
             UNION ALL
             SELECT r.id FROM product_reviews r JOIN tree t ON r.parent_id = t.id
         )
         SELECT {COLUMNS} FROM product_reviews WHERE id IN (SELECT id FROM tree)
         ORDER BY depth, id"
    ))
    .bind(id.0)
    .fetch_all(&mut **tx)
    .await?;
    reviews_from_rows(&rows)
}

/// Deletes reviews for good (replies before what they answer), and their counts.
pub async fn delete(tx: &mut Tx<'_>, reviews: &[Review]) -> StoreResult<()> {
    let mut deepest_first: Vec<&Review> = reviews.iter().collect();
    deepest_first.sort_by_key(|r| std::cmp::Reverse((r.depth, r.id)));
    for r in deepest_first {
        sqlx::query("DELETE FROM product_reviews WHERE id = $1")
            .bind(r.id.0)
            .execute(&mut **tx)
            .await?;
        count(tx, r.status, r.is_top_level(), -1).await?;
    }
    Ok(())
}

/// Whether the author has a review (not a reply) of the product, in any status.
pub async fn has_reviewed(db: &Db, product: ProductId, author: &AuthorKey) -> StoreResult<bool> {
    let found: Option<i64> = sqlx::query_scalar(
        "SELECT id FROM product_reviews
         WHERE product_id = $1 AND author_key = $2 AND parent_id IS NULL",
    )
    .bind(product.0)
    .bind(author.as_str())
    .fetch_optional(db.reader())
    .await?;
    Ok(found.is_some())
}

/// How many approved reviews of the product gave each number of stars, and how many
/// there are in all (with those without a rating).
pub async fn star_counts(db: &Db, product: ProductId) -> StoreResult<(i64, Histogram)> {
    let rows: Vec<(Option<i64>, i64)> = sqlx::query_as(
        "SELECT rating, COUNT(*) FROM product_reviews
         WHERE product_id = $1 AND status = 'approved' AND parent_id IS NULL
         GROUP BY rating",
    )
    .bind(product.0)
    .fetch_all(db.reader())
    .await?;
    let total = rows.iter().map(|(_, n)| n).sum();
    let histogram = Histogram::from_pairs(rows.into_iter().filter_map(|(r, n)| Some((r?, n))));
    Ok((total, histogram))
}

/// A page of the product's approved reviews (not replies), newest first.
pub async fn product_page(
    db: &Db,
    product: ProductId,
    offset: i64,
    limit: i64,
) -> StoreResult<Vec<Review>> {
    let rows = sqlx::query(&format!(
        "SELECT {COLUMNS} FROM product_reviews
         WHERE product_id = $1 AND status = 'approved' AND parent_id IS NULL
         ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3"
    ))
    .bind(product.0)
    .bind(limit)
    .bind(offset)
    .fetch_all(db.reader())
    .await?;
    reviews_from_rows(&rows)
}

/// The product's newest approved reviews that carry a rating (what search engines
/// are shown).
pub async fn newest_rated(db: &Db, product: ProductId, limit: i64) -> StoreResult<Vec<Review>> {
    let rows = sqlx::query(&format!(
        "SELECT {COLUMNS} FROM product_reviews
         WHERE product_id = $1 AND status = 'approved' AND parent_id IS NULL
           AND rating IS NOT NULL
         ORDER BY created_at DESC, id DESC LIMIT $2"
    ))
    .bind(product.0)
    .bind(limit)
    .fetch_all(db.reader())
    .await?;
    reviews_from_rows(&rows)
}

/// The approved replies under these reviews, at any depth, each under an approved
/// parent; oldest first.
pub async fn approved_replies(db: &Db, reviews: &[ReviewId]) -> StoreResult<Vec<Review>> {
    if reviews.is_empty() {
        return Ok(Vec::new());
    }
    let sql = format!(
        "WITH RECURSIVE tree(id) AS (
             SELECT id FROM product_reviews
             WHERE parent_id IN ({}) AND status = 'approved'
             UNION ALL
             SELECT r.id FROM product_reviews r JOIN tree t ON r.parent_id = t.id
             WHERE r.status = 'approved'
         )
         SELECT {COLUMNS} FROM product_reviews WHERE id IN (SELECT id FROM tree)
         ORDER BY created_at, id",
        marks(1, reviews.len())
    );
    let mut q = sqlx::query(&sql);
    for id in reviews {
        q = q.bind(id.0);
    }
    reviews_from_rows(&q.fetch_all(db.reader()).await?)
}

/// Whose reviews a viewer sees while they wait: an account's, or a guest's by the
/// digest of their session.
#[derive(Debug, Clone)]
pub enum Viewer<'a> {
    Author(&'a AuthorKey),
    Session(&'a str),
}

/// The viewer's reviews and replies of the product that wait for staff, oldest first.
pub async fn waiting_for(
    db: &Db,
    product: ProductId,
    viewer: &Viewer<'_>,
) -> StoreResult<Vec<Review>> {
    let (column, key) = match viewer {
        Viewer::Author(author) => ("author_key", author.as_str()),
        Viewer::Session(session) => ("session_key", *session),
    };
    let rows = sqlx::query(&format!(
        "SELECT {COLUMNS} FROM product_reviews
         WHERE product_id = $1 AND status = 'hold' AND {column} = $2
         ORDER BY created_at, id LIMIT 20"
    ))
    .bind(product.0)
    .bind(key)
    .fetch_all(db.reader())
    .await?;
    reviews_from_rows(&rows)
}

/// The products a listing of shown reviews covers: all of them, or these products and
/// those in these categories.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Scope {
    pub products: Vec<ProductId>,
    /// Categories with their subcategories already added.
    pub categories: Vec<i64>,
}

impl Scope {
    fn is_everything(&self) -> bool {
        self.products.is_empty() && self.categories.is_empty()
    }

    /// `AND (… IN … OR … IN …)` on `column`, with placeholders from `$from`, and the
    /// values to bind in order.
    fn condition(&self, column: &str, from: usize) -> (String, Vec<i64>) {
        if self.is_everything() {
            return (String::new(), Vec::new());
        }
        let mut parts = Vec::new();
        let mut values: Vec<i64> = self.products.iter().map(|p| p.0).collect();
        if !self.products.is_empty() {
            parts.push(format!(
                "{column} IN ({})",
                marks(from, self.products.len())
            ));
        }
        if !self.categories.is_empty() {
            parts.push(format!(
                "{column} IN (SELECT product_id FROM product_categories WHERE category_id IN ({}))",
                marks(from + values.len(), self.categories.len())
            ));
            values.extend(&self.categories);
        }
        (format!(" AND ({})", parts.join(" OR ")), values)
    }
}

/// The orders the Store API's review listing takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShownOrder {
    Date,
    Id,
    Rating,
    Product,
}

/// A page of shown reviews (approved, not replies, of published products).
pub async fn shown_page(
    db: &Db,
    scope: &Scope,
    order: ShownOrder,
    descending: bool,
    offset: i64,
    limit: i64,
) -> StoreResult<Vec<Review>> {
    let d = if descending { "DESC" } else { "ASC" };
    let order_by = match order {
        ShownOrder::Date => format!("r.created_at {d}, r.id {d}"),
        ShownOrder::Id => format!("r.id {d}"),
        ShownOrder::Rating => format!("COALESCE(r.rating, 0) {d}, r.created_at {d}, r.id {d}"),
        ShownOrder::Product => format!("r.product_id {d}, r.created_at {d}, r.id {d}"),
    };
    let (condition, values) = scope.condition("r.product_id", 3);
    let sql = format!(
        "SELECT {R_COLUMNS} FROM product_reviews r JOIN products p ON p.id = r.product_id
         WHERE r.status = 'approved' AND r.parent_id IS NULL AND p.status = 'publish'{condition}
         ORDER BY {order_by} LIMIT $1 OFFSET $2"
    );
    let mut q = sqlx::query(&sql).bind(limit).bind(offset);
    for v in values {
        q = q.bind(v);
    }
    reviews_from_rows(&q.fetch_all(db.reader()).await?)
}

/// How many reviews `shown_page` lists over all its pages: the products' own counts,
/// never a count of review rows.
pub async fn shown_total(db: &Db, scope: &Scope) -> StoreResult<i64> {
    if scope.is_everything() {
        // Every shown review, less those of the few products not published.
        let shown: i64 =
            sqlx::query_scalar("SELECT reviews FROM review_counts WHERE name = 'shown'")
                .fetch_one(db.reader())
                .await?;
        let hidden: i64 = sqlx::query_scalar(
            "SELECT CAST(COALESCE(SUM(review_count), 0) AS BIGINT) FROM products
             WHERE status <> 'publish'",
        )
        .fetch_one(db.reader())
        .await?;
        return Ok((shown - hidden).max(0));
    }
    let (condition, values) = scope.condition("id", 1);
    let sql = format!(
        "SELECT CAST(COALESCE(SUM(review_count), 0) AS BIGINT) FROM products
         WHERE status = 'publish'{condition}"
    );
    let mut q = sqlx::query_scalar(&sql);
    for v in values {
        q = q.bind(v);
    }
    Ok(q.fetch_one(db.reader()).await?)
}

/// What a staff listing shows: reviews and replies of these statuses (all four when
/// empty), of these products (any when empty).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StaffFilter {
    pub statuses: Vec<ReviewStatus>,
    pub products: Vec<ProductId>,
}

/// The orders of a staff listing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StaffOrder {
    Date,
    Id,
    Product,
}

impl StaffFilter {
    fn condition(&self, from: usize) -> (String, Vec<String>, Vec<i64>) {
        let mut sql = String::new();
        let statuses: Vec<String> = self
            .statuses
            .iter()
            .map(|s| s.as_str().to_string())
            .collect();
        if !statuses.is_empty() && statuses.len() < ReviewStatus::ALL.len() {
            sql.push_str(&format!(" AND status IN ({})", marks(from, statuses.len())));
        }
        let statuses = if statuses.len() < ReviewStatus::ALL.len() {
            statuses
        } else {
            Vec::new()
        };
        let products: Vec<i64> = self.products.iter().map(|p| p.0).collect();
        if !products.is_empty() {
            sql.push_str(&format!(
                " AND product_id IN ({})",
                marks(from + statuses.len(), products.len())
            ));
        }
        (sql, statuses, products)
    }
}

/// A page of a staff listing.
pub async fn staff_page(
    db: &Db,
    filter: &StaffFilter,
    order: StaffOrder,
    descending: bool,
    offset: i64,
    limit: i64,
) -> StoreResult<Vec<Review>> {
    let d = if descending { "DESC" } else { "ASC" };
    let order_by = match order {
        StaffOrder::Date => format!("created_at {d}, id {d}"),
        StaffOrder::Id => format!("id {d}"),
        StaffOrder::Product => format!("product_id {d}, created_at {d}, id {d}"),
    };
    let (condition, statuses, products) = filter.condition(3);
    let sql = format!(
        "SELECT {COLUMNS} FROM product_reviews WHERE 1 = 1{condition}
         ORDER BY {order_by} LIMIT $1 OFFSET $2"
    );
    let mut q = sqlx::query(&sql).bind(limit).bind(offset);
    for s in statuses {
        q = q.bind(s);
    }
    for p in products {
        q = q.bind(p);
    }
    reviews_from_rows(&q.fetch_all(db.reader()).await?)
}

/// How many reviews a staff listing has: from the counts per status, or, for some
/// products, counted through their index.
pub async fn staff_total(db: &Db, filter: &StaffFilter) -> StoreResult<i64> {
    if filter.products.is_empty() {
        let names: Vec<&str> = if filter.statuses.is_empty() {
            ReviewStatus::ALL.iter().map(|s| s.as_str()).collect()
        } else {
            filter.statuses.iter().map(|s| s.as_str()).collect()
        };
        let sql = format!(
            "SELECT CAST(COALESCE(SUM(reviews), 0) AS BIGINT) FROM review_counts WHERE name IN ({})",
            marks(1, names.len())
        );
        let mut q = sqlx::query_scalar(&sql);
        for n in names {
            q = q.bind(n);
        }
        return Ok(q.fetch_one(db.reader()).await?);
    }
    let (condition, statuses, products) = filter.condition(1);
    let sql = format!("SELECT COUNT(*) FROM product_reviews WHERE 1 = 1{condition}");
    let mut q = sqlx::query_scalar(&sql);
    for s in statuses {
        q = q.bind(s);
    }
    for p in products {
        q = q.bind(p);
    }
    Ok(q.fetch_one(db.reader()).await?)
}

/// Whether someone bought the product (or one of its variations): a processing or
/// completed order of theirs holds it, found by their account or by the billing
/// addresses given (lowercased). Only their own paid orders are read, each through an
/// index.
pub async fn bought(
    db: &Db,
    customer: Option<CustomerId>,
    emails: &[String],
    product: ProductId,
) -> StoreResult<bool> {
    #[derive(serde::Deserialize)]
    struct Lines {
        items: Vec<Item>,
    }
    #[derive(serde::Deserialize)]
    struct Item {
        product_id: i64,
    }
    let holds = |lines: &str| -> StoreResult<bool> {
        let lines: Lines =
            serde_json::from_str(lines).map_err(|e| StoreError::Corrupt(e.to_string()))?;
        Ok(lines.items.iter().any(|i| i.product_id == product.0))
    };
    if let Some(customer) = customer {
        let all: Vec<String> = sqlx::query_scalar(
            "SELECT lines FROM orders
             WHERE customer_id = $1 AND status IN ('processing', 'completed')",
        )
        .bind(customer.0)
        .fetch_all(db.reader())
        .await?;
        for lines in &all {
            if holds(lines)? {
                return Ok(true);
            }
        }
    }
    for email in emails {
        let all: Vec<String> = sqlx::query_scalar(
            "SELECT lines FROM orders
             WHERE billing_email = $1 AND status IN ('processing', 'completed')",
        )
        .bind(email)
        .fetch_all(db.reader())
        .await?;
        for lines in &all {
            if holds(lines)? {
                return Ok(true);
            }
        }
    }
    Ok(false)
}

/// Writes a shop's first reviews at once, with the ids given (parents before their
/// replies), in rows of many, then the products' figures from them: the demo shop.
pub async fn insert_seeded(db: &Db, reviews: &[(ReviewId, NewReview<'_>)]) -> StoreResult<()> {
    const PER_ROW: usize = 15;
    const ROWS: usize = 100;
    let mut tx = db.begin_write().await?;
    for chunk in reviews.chunks(ROWS) {
        let rows: Vec<String> = (0..chunk.len())
            .map(|i| format!("({})", marks(i * PER_ROW + 1, PER_ROW)))
            .collect();
        let sql = format!(
            "INSERT INTO product_reviews (id, product_id, parent_id, depth, customer_id,
                author_name, author_email, author_key, session_key, content, rating, status,
                verified, is_staff, created_at)
             VALUES {}",
            rows.join(", ")
        );
        let mut q = sqlx::query(&sql);
        for (id, r) in chunk {
            q = q
                .bind(id.0)
                .bind(r.product_id.0)
                .bind(r.parent_id.map(|p| p.0))
                .bind(i64::from(r.depth))
                .bind(r.customer_id.map(|c| c.0))
                .bind(r.author_name)
                .bind(r.author_email)
                .bind(r.author_key.as_str())
                .bind(r.session_key)
                .bind(r.content)
                .bind(r.rating.map(|s| i64::from(s.stars())))
                .bind(r.status.as_str())
                .bind(flag(r.verified))
                .bind(flag(r.is_staff))
                .bind(r.created_at);
        }
        q.execute(&mut *tx).await?;
        for (_, r) in chunk {
            count(&mut tx, r.status, r.parent_id.is_none(), 1).await?;
        }
    }
    if db.backend == Backend::Postgres {
        // Ids were given, so the identity goes on after the largest.
        sqlx::query(
            "SELECT setval(pg_get_serial_sequence('product_reviews', 'id'),
                           (SELECT COALESCE(MAX(id), 0) + 1 FROM product_reviews), false)",
        )
        .execute(&mut *tx)
        .await?;
    }
    let mut products: Vec<ProductId> = reviews.iter().map(|(_, r)| r.product_id).collect();
    products.sort();
    products.dedup();
    for p in products {
        recompute(&mut tx, p).await?;
    }
    tx.commit().await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scope_names_its_products_and_categories_in_order() {
        let scope = Scope {
            products: vec![ProductId(15), ProductId(17)],
            categories: vec![2, 3],
        };
        let (sql, values) = scope.condition("r.product_id", 3);
        assert_eq!(
            sql,
            " AND (r.product_id IN ($3, $4) OR r.product_id IN (SELECT product_id FROM product_categories WHERE category_id IN ($5, $6)))"
        );
        assert_eq!(values, vec![15, 17, 2, 3]);
        assert_eq!(Scope::default().condition("id", 1), (String::new(), vec![]));
    }

    #[test]
    fn a_staff_filter_of_every_status_names_none() {
        let every = StaffFilter {
            statuses: ReviewStatus::ALL.to_vec(),
            products: vec![ProductId(9)],
        };
        let (sql, statuses, products) = every.condition(1);
        assert_eq!(sql, " AND product_id IN ($1)");
        assert!(statuses.is_empty());
        assert_eq!(products, vec![9]);
        let held = StaffFilter {
            statuses: vec![ReviewStatus::Hold],
            products: vec![],
        };
        assert_eq!(held.condition(3).0, " AND status IN ($3)");
    }

    #[test]
    fn lock_keys_are_stable_and_differ_by_author() {
        assert_eq!(
            lock_key("email:a@example.test"),
            lock_key("email:a@example.test")
        );
        assert_ne!(
            lock_key("email:a@example.test"),
            lock_key("email:b@example.test")
        );
    }
}
