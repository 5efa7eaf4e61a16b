//! Wishlists and their items. Every read is bounded by an index (an owner's lists, one
//! list's items, one product's items); the limits hold in the database: adding an item
//! raises the list's `item_count` only while it is under the limit, in the
//! transaction that inserts the item (so two adds at once wait for each other), and a
//! new list is counted while the owner's default list is locked.

use sqlx::any::AnyRow;
use sqlx::Row;

use super::orders::Tx;
use super::{Db, StoreResult};

/// Who owns a list: a customer account, or a guest by the digest of their cookie's token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Owner<'a> {
    Customer(i64),
    Guest(&'a str),
}

impl Owner<'_> {
    /// The column that names this owner.
    fn column(&self) -> &'static str {
        match self {
            Owner::Customer(_) => "customer_id",
            Owner::Guest(_) => "owner_hash",
        }
    }

    fn bind<'q>(
        &self,
        q: sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>>,
    ) -> sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>> {
        match *self {
            Owner::Customer(id) => q.bind(id),
            Owner::Guest(hash) => q.bind(hash.to_string()),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wishlist {
    pub id: i64,
    pub customer_id: Option<i64>,
    pub owner_hash: Option<String>,
    pub share_key: String,
    pub title: String,
    pub is_default: bool,
    pub item_count: i64,
    pub created_at: i64,
    pub updated_at: i64,
}

impl Wishlist {
    /// Whether `owner` owns this list.
    pub fn owned_by(&self, owner: Option<Owner<'_>>) -> bool {
        match owner {
            Some(Owner::Customer(id)) => self.customer_id == Some(id),
            Some(Owner::Guest(hash)) => self.owner_hash.as_deref() == Some(hash),
            None => false,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Item {
    pub id: i64,
    pub wishlist_id: i64,
    pub product_id: i64,
    pub variation_id: i64,
    pub added_at: i64,
}

/// The most lists an owner's listing reads (above the limit, for lists merged in).
const LISTS_READ: i64 = 100;

const LIST_COLUMNS: &str =
    "id, customer_id, owner_hash, share_key, title, is_default, item_count, created_at, updated_at";
const ITEM_COLUMNS: &str = "id, wishlist_id, product_id, variation_id, added_at";

fn list_of(r: &AnyRow) -> StoreResult<Wishlist> {
    Ok(Wishlist {
        id: r.try_get("id")?,
        customer_id: r.try_get("customer_id")?,
        owner_hash: r.try_get("owner_hash")?,
        share_key: r.try_get("share_key")?,
        title: r.try_get("title")?,
        is_default: r.try_get::<i64, _>("is_default")? == 1,
        item_count: r.try_get("item_count")?,
        created_at: r.try_get("created_at")?,
        updated_at: r.try_get("updated_at")?,
    })
}

fn item_of(r: &AnyRow) -> StoreResult<Item> {
    Ok(Item {
        id: r.try_get("id")?,
        wishlist_id: r.try_get("wishlist_id")?,
        product_id: r.try_get("product_id")?,
        variation_id: r.try_get("variation_id")?,
        added_at: r.try_get("added_at")?,
    })
}

/// `$from, $from+1, …` for `n` values.
fn placeholders(from: usize, n: usize) -> String {
    (from..from + n)
        .map(|i| format!("${i}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// An owner's lists, the default first, then oldest first.
pub async fn lists_of(db: &Db, owner: Owner<'_>) -> StoreResult<Vec<Wishlist>> {
    let sql = format!(
        "SELECT {LIST_COLUMNS} FROM wishlists WHERE {} = $1 ORDER BY is_default DESC, id LIMIT {LISTS_READ}",
        owner.column()
    );
    let rows = owner.bind(sqlx::query(&sql)).fetch_all(db.reader()).await?;
    rows.iter().map(list_of).collect()
}

/// An owner's default list, if they have one yet.
pub async fn default_of(db: &Db, owner: Owner<'_>) -> StoreResult<Option<Wishlist>> {
    let sql = format!(
        "SELECT {LIST_COLUMNS} FROM wishlists WHERE {} = $1 AND is_default = 1",
        owner.column()
    );
    let row = owner
        .bind(sqlx::query(&sql))
        .fetch_optional(db.writer())
        .await?;
    row.as_ref().map(list_of).transpose()
}

/// An owner's default list, created with `share_key` and `title` when they have none.
/// Two requests at once both find the one list (a partial unique index).
pub async fn ensure_default(
    db: &Db,
    owner: Owner<'_>,
    share_key: &str,
    title: &str,
    now: i64,
) -> StoreResult<Option<Wishlist>> {
    if let Some(found) = default_of(db, owner).await? {
        return Ok(Some(found));
    }
    let sql = format!(
        "INSERT INTO wishlists ({}, share_key, title, is_default, item_count, created_at, updated_at)
         VALUES ($1, $2, $3, 1, 0, $4, $4) ON CONFLICT DO NOTHING",
        owner.column()
    );
    owner
        .bind(sqlx::query(&sql))
        .bind(share_key)
        .bind(title)
        .bind(now)
        .execute(db.writer())
        .await?;
    // None only when the share key was taken (the caller draws another).
    default_of(db, owner).await
}

pub async fn by_share_key(db: &Db, share_key: &str) -> StoreResult<Option<Wishlist>> {
    let row = sqlx::query(&format!(
        "SELECT {LIST_COLUMNS} FROM wishlists WHERE share_key = $1"
    ))
    .bind(share_key)
    .fetch_optional(db.reader())
    .await?;
    row.as_ref().map(list_of).transpose()
}

pub async fn by_id(db: &Db, id: i64) -> StoreResult<Option<Wishlist>> {
    let row = sqlx::query(&format!(
        "SELECT {LIST_COLUMNS} FROM wishlists WHERE id = $1"
    ))
    .bind(id)
    .fetch_optional(db.writer())
    .await?;
    row.as_ref().map(list_of).transpose()
}

/// What creating a list did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Created {
    Created(Wishlist),
    /// The owner already has `max_lists` lists.
    TooMany,
    /// The share key was taken: draw another.
    KeyTaken,
}

/// A new list for an owner who has a default list (which is locked while the owner's
/// lists are counted, so two creations at once cannot both pass the limit).
pub async fn create_list(
    db: &Db,
    owner: Owner<'_>,
    default_id: i64,
    share_key: &str,
    title: &str,
    now: i64,
    max_lists: i64,
) -> StoreResult<Created> {
    let mut tx = db.begin_write().await?;
    sqlx::query("UPDATE wishlists SET updated_at = $1 WHERE id = $2")
        .bind(now)
        .bind(default_id)
        .execute(&mut *tx)
        .await?;
    let count_sql = format!(
        "SELECT COUNT(*) FROM (SELECT id FROM wishlists WHERE {} = $1 LIMIT {LISTS_READ}) AS owned",
        owner.column()
    );
    let count: i64 = match owner {
        Owner::Customer(id) => sqlx::query_scalar(&count_sql).bind(id),
        Owner::Guest(hash) => sqlx::query_scalar(&count_sql).bind(hash.to_string()),
    }
    .fetch_one(&mut *tx)
    .await?;
    if count >= max_lists {
        tx.rollback().await?;
        return Ok(Created::TooMany);
    }
    let sql = format!(
        "INSERT INTO wishlists ({}, share_key, title, is_default, item_count, created_at, updated_at)
         VALUES ($1, $2, $3, 0, 0, $4, $4) ON CONFLICT DO NOTHING RETURNING {LIST_COLUMNS}",
        owner.column()
    );
    let row = owner
        .bind(sqlx::query(&sql))
        .bind(share_key)
        .bind(title)
        .bind(now)
        .fetch_optional(&mut *tx)
        .await?;
    let Some(row) = row else {
        tx.rollback().await?;
        return Ok(Created::KeyTaken);
    };
    let list = list_of(&row)?;
    tx.commit().await?;
    Ok(Created::Created(list))
}

pub async fn rename_list(db: &Db, id: i64, title: &str, now: i64) -> StoreResult<bool> {
    let done = sqlx::query("UPDATE wishlists SET title = $1, updated_at = $2 WHERE id = $3")
        .bind(title)
        .bind(now)
        .bind(id)
        .execute(db.writer())
        .await?;
    Ok(done.rows_affected() == 1)
}

/// Deletes a list that is not its owner's default, with its items.
pub async fn delete_list(db: &Db, id: i64) -> StoreResult<bool> {
    let done = sqlx::query("DELETE FROM wishlists WHERE id = $1 AND is_default = 0")
        .bind(id)
        .execute(db.writer())
        .await?;
    Ok(done.rows_affected() == 1)
}

/// What adding an item did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Added {
    Added(Item),
    AlreadyIn,
    /// The list holds `max_items` items (or is gone).
    Full,
}

/// Adds a product (and variation, 0 for none) to a list.
pub async fn add_item(
    db: &Db,
    wishlist_id: i64,
    product_id: i64,
    variation_id: i64,
    now: i64,
    max_items: i64,
) -> StoreResult<Added> {
    let mut tx = db.begin_write().await?;
    // The list's row first: adds to one list take turns here.
    let room = sqlx::query(
        "UPDATE wishlists SET item_count = item_count + 1, updated_at = $1
         WHERE id = $2 AND item_count < $3",
    )
    .bind(now)
    .bind(wishlist_id)
    .bind(max_items)
    .execute(&mut *tx)
    .await?;
    if room.rows_affected() == 0 {
        let there = find_item_in(&mut tx, wishlist_id, product_id, variation_id).await?;
        tx.rollback().await?;
        return Ok(if there { Added::AlreadyIn } else { Added::Full });
    }
    let row = sqlx::query(&format!(
        "INSERT INTO wishlist_items (wishlist_id, product_id, variation_id, added_at)
         VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING {ITEM_COLUMNS}"
    ))
    .bind(wishlist_id)
    .bind(product_id)
    .bind(variation_id)
    .bind(now)
    .fetch_optional(&mut *tx)
    .await?;
    let Some(row) = row else {
        tx.rollback().await?;
        return Ok(Added::AlreadyIn);
    };
    let item = item_of(&row)?;
    tx.commit().await?;
    Ok(Added::Added(item))
}

async fn find_item_in(
    tx: &mut Tx<'_>,
    wishlist_id: i64,
    product_id: i64,
    variation_id: i64,
) -> StoreResult<bool> {
    let found: Option<i64> = sqlx::query_scalar(
        "SELECT id FROM wishlist_items WHERE wishlist_id = $1 AND product_id = $2 AND variation_id = $3",
    )
    .bind(wishlist_id)
    .bind(product_id)
    .bind(variation_id)
    .fetch_optional(&mut **tx)
    .await?;
    Ok(found.is_some())
}

/// The item of a list for a product and variation, if it is there.
pub async fn find_item(
    db: &Db,
    wishlist_id: i64,
    product_id: i64,
    variation_id: i64,
) -> StoreResult<Option<Item>> {
    let row = sqlx::query(&format!(
        "SELECT {ITEM_COLUMNS} FROM wishlist_items WHERE wishlist_id = $1 AND product_id = $2 AND variation_id = $3"
    ))
    .bind(wishlist_id)
    .bind(product_id)
    .bind(variation_id)
    .fetch_optional(db.writer())
    .await?;
    row.as_ref().map(item_of).transpose()
}

/// Removes items of a list by their ids, keeping its count; answers the items removed.
pub async fn remove_items(db: &Db, wishlist_id: i64, ids: &[i64]) -> StoreResult<Vec<Item>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let mut tx = db.begin_write().await?;
    let sql = format!(
        "DELETE FROM wishlist_items WHERE wishlist_id = $1 AND id IN ({}) RETURNING {ITEM_COLUMNS}",
        placeholders(2, ids.len())
    );
    let mut q = sqlx::query(&sql).bind(wishlist_id);
    for id in ids {
        q = q.bind(*id);
    }
    let rows = q.fetch_all(&mut *tx).await?;
    let removed = rows.iter().map(item_of).collect::<StoreResult<Vec<_>>>()?;
    if !removed.is_empty() {
        sqlx::query("UPDATE wishlists SET item_count = item_count - $1 WHERE id = $2")
            .bind(removed.len() as i64)
            .bind(wishlist_id)
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await?;
    Ok(removed)
}

/// A page of a list's items, newest first.
pub async fn items_page(
    db: &Db,
    wishlist_id: i64,
    offset: i64,
    limit: i64,
) -> StoreResult<Vec<Item>> {
    let rows = sqlx::query(&format!(
        "SELECT {ITEM_COLUMNS} FROM wishlist_items WHERE wishlist_id = $1
         ORDER BY added_at DESC, id DESC LIMIT $2 OFFSET $3"
    ))
    .bind(wishlist_id)
    .bind(limit)
    .bind(offset)
    .fetch_all(db.reader())
    .await?;
    rows.iter().map(item_of).collect()
}

/// Items of a list by their ids (ids not on the list are left out).
pub async fn items_by_ids(db: &Db, wishlist_id: i64, ids: &[i64]) -> StoreResult<Vec<Item>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let sql = format!(
        "SELECT {ITEM_COLUMNS} FROM wishlist_items WHERE wishlist_id = $1 AND id IN ({})
         ORDER BY added_at DESC, id DESC",
        placeholders(2, ids.len())
    );
    let mut q = sqlx::query(&sql).bind(wishlist_id);
    for id in ids {
        q = q.bind(*id);
    }
    let rows = q.fetch_all(db.reader()).await?;
    rows.iter().map(item_of).collect()
}

/// How many lists hold each of `products` (product, variation, lists), read by the
/// product index.
pub async fn stats(db: &Db, products: &[i64]) -> StoreResult<Vec<(i64, i64, i64)>> {
    if products.is_empty() {
        return Ok(Vec::new());
    }
    let sql = format!(
        "SELECT product_id, variation_id, COUNT(*) AS lists FROM wishlist_items
         WHERE product_id IN ({}) GROUP BY product_id, variation_id ORDER BY product_id, variation_id",
        placeholders(1, products.len())
    );
    let mut q = sqlx::query(&sql);
    for p in products {
        q = q.bind(*p);
    }
    let rows = q.fetch_all(db.reader()).await?;
    rows.iter()
        .map(|r| {
            Ok((
                r.try_get("product_id")?,
                r.try_get("variation_id")?,
                r.try_get("lists")?,
            ))
        })
        .collect()
}

/// Marks a guest's lists used now (at most once an hour), so they are kept.
pub async fn touch_guest(db: &Db, owner_hash: &str, now: i64) -> StoreResult<()> {
    sqlx::query("UPDATE wishlists SET updated_at = $1 WHERE owner_hash = $2 AND updated_at < $3")
        .bind(now)
        .bind(owner_hash)
        .bind(now - 3600)
        .execute(db.writer())
        .await?;
    Ok(())
}

/// What a guest's lists brought to an account at login.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Merged {
    /// Items copied into the customer's default list.
    pub items: i64,
    /// Lists that became the customer's.
    pub lists: i64,
}

/// A guest's lists going to a customer at login.
#[derive(Debug, Clone, Copy)]
pub struct GuestMerge<'a> {
    pub owner_hash: &'a str,
    pub customer_id: i64,
    /// The customer's default list's key, should it be created.
    pub share_key: &'a str,
    pub title: &'a str,
    pub now: i64,
}

/// Merges a guest's lists into a customer's, in one transaction: the guest default
/// list's items copied into the customer's default list (created with `share_key`
/// when missing; duplicates skipped, `added_at` kept, up to `MAX_ITEMS`), the guest's
/// other lists made the customer's while they have fewer than `MAX_LISTS`, and the
/// guest default list deleted.
pub async fn merge_guest(db: &Db, m: &GuestMerge<'_>) -> StoreResult<Merged> {
    let GuestMerge {
        owner_hash,
        customer_id,
        share_key,
        title,
        now,
    } = *m;
    let (max_lists, max_items) = (rules::wishlist::MAX_LISTS, rules::wishlist::MAX_ITEMS);
    let mut tx = db.begin_write().await?;
    let guest: Vec<Wishlist> = sqlx::query(&format!(
        "SELECT {LIST_COLUMNS} FROM wishlists WHERE owner_hash = $1 ORDER BY is_default DESC, id LIMIT {LISTS_READ}"
    ))
    .bind(owner_hash)
    .fetch_all(&mut *tx)
    .await?
    .iter()
    .map(list_of)
    .collect::<StoreResult<_>>()?;
    if guest.is_empty() {
        tx.rollback().await?;
        return Ok(Merged::default());
    }
    sqlx::query(
        "INSERT INTO wishlists (customer_id, share_key, title, is_default, item_count, created_at, updated_at)
         VALUES ($1, $2, $3, 1, 0, $4, $4) ON CONFLICT DO NOTHING",
    )
    .bind(customer_id)
    .bind(share_key)
    .bind(title)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    // Locks the customer's default list: their adds and list creations wait.
    let target: Option<(i64, i64)> = sqlx::query_as(
        "UPDATE wishlists SET updated_at = $1 WHERE customer_id = $2 AND is_default = 1
         RETURNING id, item_count",
    )
    .bind(now)
    .bind(customer_id)
    .fetch_optional(&mut *tx)
    .await?;
    let Some((target, count)) = target else {
        // The share key was taken by another list: nothing merged this time.
        tx.rollback().await?;
        return Ok(Merged::default());
    };
    let mut merged = Merged::default();
    if let Some(from) = guest.iter().find(|l| l.is_default) {
        let room = (max_items - count).max(0);
        let copied = sqlx::query(
            "INSERT INTO wishlist_items (wishlist_id, product_id, variation_id, added_at)
             SELECT $1, g.product_id, g.variation_id, g.added_at FROM wishlist_items g
             WHERE g.wishlist_id = $2 AND NOT EXISTS (
                 SELECT 1 FROM wishlist_items c WHERE c.wishlist_id = $1
                 AND c.product_id = g.product_id AND c.variation_id = g.variation_id)
             ORDER BY g.added_at DESC, g.id DESC LIMIT $3",
        )
        .bind(target)
        .bind(from.id)
        .bind(room)
        .execute(&mut *tx)
        .await?;
        merged.items = copied.rows_affected() as i64;
        sqlx::query("UPDATE wishlists SET item_count = item_count + $1 WHERE id = $2")
            .bind(merged.items)
            .bind(target)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM wishlists WHERE id = $1")
            .bind(from.id)
            .execute(&mut *tx)
            .await?;
    }
    let owned: i64 = sqlx::query_scalar(&format!(
        "SELECT COUNT(*) FROM (SELECT id FROM wishlists WHERE customer_id = $1 LIMIT {LISTS_READ}) AS owned"
    ))
    .bind(customer_id)
    .fetch_one(&mut *tx)
    .await?;
    let room = (max_lists - owned).max(0) as usize;
    let moving: Vec<i64> = guest
        .iter()
        .filter(|l| !l.is_default)
        .take(room)
        .map(|l| l.id)
        .collect();
    if !moving.is_empty() {
        let sql = format!(
            "UPDATE wishlists SET customer_id = $1, owner_hash = NULL, updated_at = $2 WHERE id IN ({})",
            placeholders(3, moving.len())
        );
        let mut q = sqlx::query(&sql).bind(customer_id).bind(now);
        for id in &moving {
            q = q.bind(*id);
        }
        merged.lists = q.execute(&mut *tx).await?.rows_affected() as i64;
    }
    tx.commit().await?;
    Ok(merged)
}

/// Deletes up to `batch` guest lists unused since `before` (their items with them);
/// answers how many. Run again until it answers fewer than `batch`.
pub async fn delete_idle_guest_lists(db: &Db, before: i64, batch: i64) -> StoreResult<u64> {
    let done = sqlx::query(
        "DELETE FROM wishlists WHERE id IN (
             SELECT id FROM wishlists WHERE owner_hash IS NOT NULL AND updated_at < $1
             ORDER BY updated_at LIMIT $2)",
    )
    .bind(before)
    .bind(batch)
    .execute(db.writer())
    .await?;
    Ok(done.rows_affected())
}
