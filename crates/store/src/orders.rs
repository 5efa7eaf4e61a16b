//! Orders, their notes, the per-status counts, and the stock they take and give back.
//! Functions taking a transaction are steps of a larger unit (placing an order,
//! changing its status). Every write of an order's status goes through this file and
//! moves the status counts with it.

use sqlx::any::AnyRow;
use sqlx::{Any, Row, Transaction};

use super::{Db, StoreError, StoreResult};
use rules::address::Address;
use rules::orders::model::{NoteId, Order, OrderId, OrderLines, OrderNote, OrderStatus};

pub type Tx<'a> = Transaction<'a, Any>;

const COLUMNS: &str = "id, order_key, status, customer_id, currency, prices_include_tax, billing, shipping,
    customer_note, payment_method, payment_method_title, transaction_id, created_via, cart_hash, lines,
    subtotal, discount_total, discount_tax, shipping_total, shipping_tax, total_tax, total,
    stock_reduced, hold_expires_at, created_at, updated_at, paid_at, completed_at";

fn json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("order parts serialize")
}

fn order_from_row(r: &AnyRow) -> StoreResult<Order> {
    let corrupt = |e: serde_json::Error| StoreError::Corrupt(e.to_string());
    let status: String = r.try_get("status")?;
    Ok(Order {
        id: OrderId(r.try_get("id")?),
        key: r.try_get("order_key")?,
        status: OrderStatus::parse(&status)
            .ok_or_else(|| StoreError::Corrupt(format!("order status {status:?}")))?,
        customer_id: r.try_get("customer_id")?,
        currency: r.try_get("currency")?,
        prices_include_tax: r.try_get::<i64, _>("prices_include_tax")? != 0,
        billing: serde_json::from_str::<Address>(&r.try_get::<String, _>("billing")?)
            .map_err(corrupt)?,
        shipping: serde_json::from_str::<Address>(&r.try_get::<String, _>("shipping")?)
            .map_err(corrupt)?,
        customer_note: r.try_get("customer_note")?,
        payment_method: r.try_get("payment_method")?,
        payment_method_title: r.try_get("payment_method_title")?,
        transaction_id: r.try_get("transaction_id")?,
        created_via: r.try_get("created_via")?,
        cart_hash: r.try_get("cart_hash")?,
        lines: serde_json::from_str::<OrderLines>(&r.try_get::<String, _>("lines")?)
            .map_err(corrupt)?,
        subtotal: r.try_get("subtotal")?,
        discount_total: r.try_get("discount_total")?,
        discount_tax: r.try_get("discount_tax")?,
        shipping_total: r.try_get("shipping_total")?,
        shipping_tax: r.try_get("shipping_tax")?,
        total_tax: r.try_get("total_tax")?,
        total: r.try_get("total")?,
        stock_reduced: r.try_get::<i64, _>("stock_reduced")? != 0,
        hold_expires_at: r.try_get("hold_expires_at")?,
        created_at: r.try_get("created_at")?,
        updated_at: r.try_get("updated_at")?,
        paid_at: r.try_get("paid_at")?,
        completed_at: r.try_get("completed_at")?,
    })
}

pub async fn find_order(db: &Db, id: OrderId) -> StoreResult<Option<Order>> {
    let row = sqlx::query(&format!("SELECT {COLUMNS} FROM orders WHERE id = $1"))
        .bind(id.0)
        .fetch_optional(db.reader())
        .await?;
    row.as_ref().map(order_from_row).transpose()
}

/// Reads an order inside a transaction (and, on PostgreSQL, locks it until commit so
/// two payments or cancellations of one order run one after the other).
pub async fn lock_order(tx: &mut Tx<'_>, db: &Db, id: OrderId) -> StoreResult<Option<Order>> {
    let lock = match db.backend {
        super::Backend::Postgres => " FOR UPDATE",
        super::Backend::Sqlite => "",
    };
    let row = sqlx::query(&format!("SELECT {COLUMNS} FROM orders WHERE id = $1{lock}"))
        .bind(id.0)
        .fetch_optional(&mut **tx)
        .await?;
    row.as_ref().map(order_from_row).transpose()
}

/// A customer's placed orders, newest first, and how many there are.
pub async fn list_customer_orders(
    db: &Db,
    customer_id: i64,
    offset: i64,
    limit: i64,
) -> StoreResult<(Vec<Order>, i64)> {
    let total: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM orders WHERE customer_id = $1 AND status <> 'checkout-draft'",
    )
    .bind(customer_id)
    .fetch_one(db.reader())
    .await?;
    let rows = sqlx::query(&format!(
        "SELECT {COLUMNS} FROM orders WHERE customer_id = $1 AND status <> 'checkout-draft'
         ORDER BY id DESC LIMIT $2 OFFSET $3"
    ))
    .bind(customer_id)
    .bind(limit)
    .bind(offset)
    .fetch_all(db.reader())
    .await?;
    let orders = rows
        .iter()
        .map(order_from_row)
        .collect::<StoreResult<_>>()?;
    Ok((orders, total))
}

/// A placed order by number and billing e-mail (case-insensitive), for guest lookup.
pub async fn find_by_number_and_email(
    db: &Db,
    id: OrderId,
    email: &str,
) -> StoreResult<Option<Order>> {
    let row = sqlx::query(&format!(
        "SELECT {COLUMNS} FROM orders WHERE id = $1 AND billing_email = $2 AND status <> 'checkout-draft'"
    ))
    .bind(id.0)
    .bind(email.trim().to_lowercase())
    .fetch_optional(db.reader())
    .await?;
    row.as_ref().map(order_from_row).transpose()
}

/// Writes a new order, or the draft with `order.id` when `draft` is set, and returns its
/// id. A draft belongs to `session_id` until it is placed.
pub async fn save_order(
    tx: &mut Tx<'_>,
    order: &Order,
    session_id: Option<&str>,
    draft: bool,
) -> StoreResult<OrderId> {
    let sql = if draft {
        "UPDATE orders SET order_key = $1, status = $2, session_id = $3, customer_id = $4, billing_email = $5,
            currency = $6, prices_include_tax = $7, billing = $8, shipping = $9, customer_note = $10,
            payment_method = $11, payment_method_title = $12, transaction_id = $13, created_via = $14,
            cart_hash = $15, lines = $16, subtotal = $17, discount_total = $18, discount_tax = $19,
            shipping_total = $20, shipping_tax = $21, total_tax = $22, total = $23, stock_reduced = $24,
            hold_expires_at = $25, created_at = $26, updated_at = $27, paid_at = $28
         WHERE id = $29 AND status = 'checkout-draft' RETURNING id"
    } else {
        "INSERT INTO orders (order_key, status, session_id, customer_id, billing_email, currency,
            prices_include_tax, billing, shipping, customer_note, payment_method, payment_method_title,
            transaction_id, created_via, cart_hash, lines, subtotal, discount_total, discount_tax,
            shipping_total, shipping_tax, total_tax, total, stock_reduced, hold_expires_at, created_at,
            updated_at, paid_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19,
            $20, $21, $22, $23, $24, $25, $26, $27, $28) RETURNING id"
    };
    let mut q = sqlx::query_scalar::<_, i64>(sql)
        .bind(&order.key)
        .bind(order.status.as_str())
        .bind(session_id)
        .bind(order.customer_id)
        .bind(order.billing.email.trim().to_lowercase())
        .bind(&order.currency)
        .bind(i64::from(order.prices_include_tax))
        .bind(json(&order.billing))
        .bind(json(&order.shipping))
        .bind(&order.customer_note)
        .bind(&order.payment_method)
        .bind(&order.payment_method_title)
        .bind(&order.transaction_id)
        .bind(&order.created_via)
        .bind(&order.cart_hash)
        .bind(json(&order.lines))
        .bind(order.subtotal)
        .bind(order.discount_total)
        .bind(order.discount_tax)
        .bind(order.shipping_total)
        .bind(order.shipping_tax)
        .bind(order.total_tax)
        .bind(order.total)
        .bind(i64::from(order.stock_reduced))
        .bind(order.hold_expires_at)
        .bind(order.created_at)
        .bind(order.updated_at)
        .bind(order.paid_at);
    if draft {
        q = q.bind(order.id.0);
    }
    let id = match q.fetch_optional(&mut **tx).await? {
        Some(id) => OrderId(id),
        None => {
            return Err(StoreError::Corrupt(format!(
                "draft order {} is no longer a draft",
                order.id.0
            )))
        }
    };
    // A draft was never counted; the placed order is.
    count_status_change(tx, id, None, Some(order.status)).await?;
    Ok(id)
}

/// Rewrites a placed order (status, payment, addresses) within a transaction; `previous`
/// is the status it had, for the counts.
pub async fn update_order(
    tx: &mut Tx<'_>,
    order: &Order,
    previous: OrderStatus,
) -> StoreResult<()> {
    sqlx::query(
        "UPDATE orders SET status = $1, payment_method = $2, payment_method_title = $3, billing = $4,
            billing_email = $5, hold_expires_at = $6, updated_at = $7, paid_at = $8, transaction_id = $9,
            shipping = $10
         WHERE id = $11",
    )
    .bind(order.status.as_str())
    .bind(&order.payment_method)
    .bind(&order.payment_method_title)
    .bind(json(&order.billing))
    .bind(order.billing.email.trim().to_lowercase())
    .bind(order.hold_expires_at)
    .bind(order.updated_at)
    .bind(order.paid_at)
    .bind(&order.transaction_id)
    .bind(json(&order.shipping))
    .bind(order.id.0)
    .execute(&mut **tx)
    .await?;
    if previous != order.status {
        count_status_change(tx, order.id, Some(previous), Some(order.status)).await?;
    }
    Ok(())
}

/// The draft order a session is checking out, if any.
pub async fn find_draft(db: &Db, session_id: &str) -> StoreResult<Option<Order>> {
    let row = sqlx::query(&format!(
        "SELECT {COLUMNS} FROM orders WHERE session_id = $1 AND status = 'checkout-draft'"
    ))
    .bind(session_id)
    .fetch_optional(db.reader())
    .await?;
    row.as_ref().map(order_from_row).transpose()
}

/// Creates the session's draft order, or returns the one a concurrent request made.
pub async fn create_draft(db: &Db, order: &Order, session_id: &str) -> StoreResult<Order> {
    let mut tx = db.begin_write().await?;
    let inserted = sqlx::query_scalar::<_, i64>(
        "INSERT INTO orders (order_key, status, session_id, currency, billing, shipping, lines, created_at, updated_at)
         VALUES ($1, 'checkout-draft', $2, $3, $4, $5, $6, $7, $7)
         ON CONFLICT (session_id) WHERE session_id IS NOT NULL DO NOTHING RETURNING id",
    )
    .bind(&order.key)
    .bind(session_id)
    .bind(&order.currency)
    .bind(json(&order.billing))
    .bind(json(&order.shipping))
    .bind(json(&order.lines))
    .bind(order.created_at)
    .fetch_optional(&mut *tx)
    .await?;
    tx.commit().await?;
    let _ = inserted;
    find_draft(db, session_id)
        .await?
        .ok_or_else(|| StoreError::Corrupt("draft order vanished".into()))
}

/// Writes `order`'s new status and dates, if it still has status `from`, and moves the
/// counts. False when another change got there first (nothing is written then).
pub async fn change_status(tx: &mut Tx<'_>, order: &Order, from: OrderStatus) -> StoreResult<bool> {
    let done = sqlx::query(
        "UPDATE orders SET status = $1, updated_at = $2, hold_expires_at = NULL, paid_at = $3,
            completed_at = $4
         WHERE id = $5 AND status = $6",
    )
    .bind(order.status.as_str())
    .bind(order.updated_at)
    .bind(order.paid_at)
    .bind(order.completed_at)
    .bind(order.id.0)
    .bind(from.as_str())
    .execute(&mut **tx)
    .await?;
    if done.rows_affected() != 1 {
        return Ok(false);
    }
    count_status_change(tx, order.id, Some(from), Some(order.status)).await?;
    Ok(true)
}

pub async fn set_customer_note(
    tx: &mut Tx<'_>,
    id: OrderId,
    customer_note: &str,
    now: i64,
) -> StoreResult<()> {
    sqlx::query("UPDATE orders SET customer_note = $1, updated_at = $2 WHERE id = $3")
        .bind(customer_note)
        .bind(now)
        .bind(id.0)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// How many slots each status's count is spread over (see migration 0005).
const COUNT_SLOTS: i64 = 16;

/// Moves one order from `from`'s count to `to`'s. Drafts are not orders yet and are
/// never counted.
async fn count_status_change(
    tx: &mut Tx<'_>,
    id: OrderId,
    from: Option<OrderStatus>,
    to: Option<OrderStatus>,
) -> StoreResult<()> {
    let slot = id.0.rem_euclid(COUNT_SLOTS);
    let counted = |s: &Option<OrderStatus>| s.filter(|s| *s != OrderStatus::CheckoutDraft);
    if let Some(from) = counted(&from) {
        sqlx::query(
            "UPDATE order_status_counts SET orders = orders - 1 WHERE status = $1 AND slot = $2",
        )
        .bind(from.as_str())
        .bind(slot)
        .execute(&mut **tx)
        .await?;
    }
    if let Some(to) = counted(&to) {
        sqlx::query(
            "INSERT INTO order_status_counts (status, slot, orders) VALUES ($1, $2, 1)
             ON CONFLICT (status, slot) DO UPDATE SET orders = order_status_counts.orders + 1",
        )
        .bind(to.as_str())
        .bind(slot)
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

/// How many placed orders have one of `statuses`, from the counts: a handful of rows
/// read, however many orders the shop has.
pub async fn count_by_status(db: &Db, statuses: &[OrderStatus]) -> StoreResult<i64> {
    if statuses.is_empty() {
        return Ok(0);
    }
    let sql = format!(
        "SELECT CAST(COALESCE(SUM(orders), 0) AS BIGINT) FROM order_status_counts WHERE status IN ({})",
        placeholders(1, statuses.len())
    );
    let mut q = sqlx::query_scalar::<_, i64>(&sql);
    for s in statuses {
        q = q.bind(s.as_str());
    }
    Ok(q.fetch_one(db.reader()).await?)
}

/// "$3, $4, $5" for `count` parameters from `$first`.
fn placeholders(first: usize, count: usize) -> String {
    (first..first + count)
        .map(|i| format!("${i}"))
        .collect::<Vec<_>>()
        .join(", ")
}

pub async fn mark_stock_returned(tx: &mut Tx<'_>, id: OrderId) -> StoreResult<()> {
    sqlx::query("UPDATE orders SET stock_reduced = 0 WHERE id = $1")
        .bind(id.0)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Records a note on the order; `actor` says who made the change.
pub async fn add_note(
    tx: &mut Tx<'_>,
    id: OrderId,
    note: &str,
    for_customer: bool,
    actor: &str,
    now: i64,
) -> StoreResult<NoteId> {
    let id = sqlx::query_scalar::<_, i64>(
        "INSERT INTO order_notes (order_id, note, for_customer, actor, created_at)
         VALUES ($1, $2, $3, $4, $5) RETURNING id",
    )
    .bind(id.0)
    .bind(note)
    .bind(i64::from(for_customer))
    .bind(actor)
    .bind(now)
    .fetch_one(&mut **tx)
    .await?;
    Ok(NoteId(id))
}

const NOTE_COLUMNS: &str = "id, order_id, note, for_customer, actor, created_at";

fn note_from_row(r: &AnyRow) -> StoreResult<OrderNote> {
    Ok(OrderNote {
        id: NoteId(r.try_get("id")?),
        order_id: OrderId(r.try_get("order_id")?),
        note: r.try_get("note")?,
        for_customer: r.try_get::<i64, _>("for_customer")? != 0,
        actor: r.try_get("actor")?,
        created_at: r.try_get("created_at")?,
    })
}

/// Notes of an order, oldest first.
pub async fn notes(db: &Db, id: OrderId) -> StoreResult<Vec<OrderNote>> {
    let rows = sqlx::query(&format!(
        "SELECT {NOTE_COLUMNS} FROM order_notes WHERE order_id = $1 ORDER BY id"
    ))
    .bind(id.0)
    .fetch_all(db.reader())
    .await?;
    rows.iter().map(note_from_row).collect()
}

pub async fn find_note(db: &Db, order: OrderId, note: NoteId) -> StoreResult<Option<OrderNote>> {
    let row = sqlx::query(&format!(
        "SELECT {NOTE_COLUMNS} FROM order_notes WHERE id = $1 AND order_id = $2"
    ))
    .bind(note.0)
    .bind(order.0)
    .fetch_optional(db.reader())
    .await?;
    row.as_ref().map(note_from_row).transpose()
}

/// Which placed orders a staff listing wants, and in what order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderFilter {
    /// Empty: every placed status.
    pub statuses: Vec<OrderStatus>,
    pub customer_id: Option<i64>,
    /// A billing e-mail, matched whatever its case.
    pub billing_email: Option<String>,
    pub sort: OrderSort,
    pub newest_first: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OrderSort {
    Date,
    Id,
}

impl OrderFilter {
    /// The statuses the listing covers: the ones asked for, or every placed one.
    fn statuses(&self) -> Vec<OrderStatus> {
        if self.statuses.is_empty() {
            OrderStatus::ALL
                .into_iter()
                .filter(|s| *s != OrderStatus::CheckoutDraft)
                .collect()
        } else {
            self.statuses.clone()
        }
    }

    /// The WHERE clause for `statuses` (empty: every placed one) and the filter's other
    /// conditions; its values are appended to `values` and numbered after those there.
    fn condition(&self, statuses: &[OrderStatus], values: &mut Vec<FilterValue>) -> String {
        let mut clauses = Vec::new();
        if statuses.is_empty() {
            clauses.push("status <> 'checkout-draft'".to_string());
        } else {
            clauses.push(format!(
                "status IN ({})",
                placeholders(values.len() + 1, statuses.len())
            ));
            values.extend(
                statuses
                    .iter()
                    .map(|s| FilterValue::Text(s.as_str().to_string())),
            );
        }
        if let Some(customer) = self.customer_id {
            values.push(FilterValue::Int(customer));
            clauses.push(format!("customer_id = ${}", values.len()));
        }
        if let Some(email) = &self.billing_email {
            values.push(FilterValue::Text(email.trim().to_lowercase()));
            clauses.push(format!("billing_email = ${}", values.len()));
        }
        clauses.join(" AND ")
    }
}

enum FilterValue {
    Text(String),
    Int(i64),
}

fn bind_filter<'q>(
    mut q: sqlx::query::Query<'q, Any, sqlx::any::AnyArguments<'q>>,
    values: Vec<FilterValue>,
) -> sqlx::query::Query<'q, Any, sqlx::any::AnyArguments<'q>> {
    for v in values {
        q = match v {
            FilterValue::Text(t) => q.bind(t),
            FilterValue::Int(i) => q.bind(i),
        };
    }
    q
}

/// One page of placed orders, read through an index in the order asked: every status
/// through `orders_created` (or the primary key), one status through
/// `orders_status_created`, a customer's or an address's few orders through theirs.
/// Several statuses are read as one indexed run per status, each cut at the page's
/// end, and merged: a listing of "processing or on-hold" never sorts every such order.
pub async fn list_orders(
    db: &Db,
    filter: &OrderFilter,
    offset: i64,
    limit: i64,
) -> StoreResult<Vec<Order>> {
    let direction = if filter.newest_first { "DESC" } else { "ASC" };
    let order_by = match filter.sort {
        OrderSort::Date => format!("created_at {direction}, id {direction}"),
        OrderSort::Id => format!("id {direction}"),
    };
    let mut values = Vec::new();
    let source = if filter.statuses.len() > 1 {
        let runs: Vec<String> = filter
            .statuses
            .iter()
            .enumerate()
            .map(|(i, status)| {
                let condition = filter.condition(&[*status], &mut values);
                values.push(FilterValue::Int(offset.saturating_add(limit)));
                format!(
                    "SELECT * FROM (SELECT {COLUMNS} FROM orders WHERE {condition}
                     ORDER BY {order_by} LIMIT ${}) AS run{i}",
                    values.len()
                )
            })
            .collect();
        format!("({}) AS picked", runs.join(" UNION ALL "))
    } else {
        let condition = filter.condition(&filter.statuses, &mut values);
        format!("orders WHERE {condition}")
    };
    let n = values.len();
    let sql = format!(
        "SELECT {COLUMNS} FROM {source} ORDER BY {order_by} LIMIT ${} OFFSET ${}",
        n + 1,
        n + 2
    );
    let rows = bind_filter(sqlx::query(&sql), values)
        .bind(limit)
        .bind(offset)
        .fetch_all(db.reader())
        .await?;
    rows.iter().map(order_from_row).collect()
}

/// How many orders `filter` covers. Without a customer or e-mail this is read from the
/// status counts and counts no rows (the shop may hold millions of orders); with one,
/// the rows counted are that customer's or that address's orders, found by index.
pub async fn count_orders(db: &Db, filter: &OrderFilter) -> StoreResult<i64> {
    if filter.customer_id.is_none() && filter.billing_email.is_none() {
        return count_by_status(db, &filter.statuses()).await;
    }
    let mut values = Vec::new();
    let condition = filter.condition(&filter.statuses, &mut values);
    let sql = format!("SELECT COUNT(*) AS n FROM orders WHERE {condition}");
    let row = bind_filter(sqlx::query(&sql), values)
        .fetch_one(db.reader())
        .await?;
    Ok(row.try_get("n")?)
}

/// On-hold orders paid with `payment_method` and placed at or before `placed_before`,
/// oldest first, at most `limit` (read through `orders_on_hold_by_method`).
pub async fn unpaid_on_hold(
    db: &Db,
    payment_method: &str,
    placed_before: i64,
    limit: i64,
) -> StoreResult<Vec<OrderId>> {
    let ids: Vec<i64> = sqlx::query_scalar(
        "SELECT id FROM orders WHERE status = 'on-hold' AND payment_method = $1 AND created_at <= $2
         ORDER BY created_at LIMIT $3",
    )
    .bind(payment_method)
    .bind(placed_before)
    .bind(limit)
    .fetch_all(db.reader())
    .await?;
    Ok(ids.into_iter().map(OrderId).collect())
}

/// Unpaid orders with `status` (pending, or failed at the provider and waiting for
/// another try) whose stock hold ran out by `now`.
pub async fn expired_holds(db: &Db, status: OrderStatus, now: i64) -> StoreResult<Vec<OrderId>> {
    let ids: Vec<i64> = sqlx::query_scalar(
        "SELECT id FROM orders WHERE status = $1 AND hold_expires_at IS NOT NULL AND hold_expires_at <= $2
         ORDER BY id LIMIT 100",
    )
    .bind(status.as_str())
    .bind(now)
    .fetch_all(db.reader())
    .await?;
    Ok(ids.into_iter().map(OrderId).collect())
}

/// Why stock could not be taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StockShortage {
    /// Fewer than asked are left (the figure is what is left).
    NotEnough(i64),
}

/// Takes `quantity` of a product and counts the sale. A managed-stock product loses
/// the units unless fewer are left and backorders are not allowed: one conditional
/// UPDATE, so concurrent checkouts never oversell. Returns whether stock was taken
/// (false for products that do not manage stock).
pub async fn take_stock(
    tx: &mut Tx<'_>,
    product_id: i64,
    quantity: i64,
) -> StoreResult<Result<bool, StockShortage>> {
    let taken = sqlx::query(
        "UPDATE products SET stock_quantity = stock_quantity - $1, total_sales = total_sales + $1,
            stock_status = CASE WHEN stock_quantity - $1 > 0 THEN 'instock'
                                WHEN backorders <> 'no' THEN 'onbackorder'
                                ELSE 'outofstock' END,
            live_changed_at = $3
         WHERE id = $2 AND manage_stock = 1 AND stock_quantity IS NOT NULL
           AND (stock_quantity >= $1 OR backorders <> 'no')",
    )
    .bind(quantity)
    .bind(product_id)
    .bind(crate::catalog::now_ms())
    .execute(&mut **tx)
    .await?;
    if taken.rows_affected() == 1 {
        return Ok(Ok(true));
    }
    // Not taken: either the product does not manage stock (count the sale and go on)
    // or too few are left.
    let unmanaged = sqlx::query(
        "UPDATE products SET total_sales = total_sales + $1, live_changed_at = $3
         WHERE id = $2 AND NOT (manage_stock = 1 AND stock_quantity IS NOT NULL)",
    )
    .bind(quantity)
    .bind(product_id)
    .bind(crate::catalog::now_ms())
    .execute(&mut **tx)
    .await?;
    if unmanaged.rows_affected() == 1 {
        return Ok(Ok(false));
    }
    let left: Option<Option<i64>> =
        sqlx::query_scalar("SELECT stock_quantity FROM products WHERE id = $1")
            .bind(product_id)
            .fetch_optional(&mut **tx)
            .await?;
    Ok(Err(StockShortage::NotEnough(
        left.flatten().unwrap_or(0).max(0),
    )))
}

/// Puts back stock an order took.
pub async fn return_stock(tx: &mut Tx<'_>, product_id: i64, quantity: i64) -> StoreResult<()> {
    sqlx::query(
        "UPDATE products SET stock_quantity = stock_quantity + $1,
            stock_status = CASE WHEN stock_quantity + $1 > 0 THEN 'instock'
                                WHEN backorders <> 'no' THEN 'onbackorder'
                                ELSE 'outofstock' END,
            live_changed_at = $3
         WHERE id = $2 AND manage_stock = 1 AND stock_quantity IS NOT NULL",
    )
    .bind(quantity)
    .bind(product_id)
    .bind(crate::catalog::now_ms())
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Removes checkout drafts nobody touched since `before`: their sessions are gone or
/// the shopper left; a draft holds no stock and no coupon uses.
pub async fn delete_stale_drafts(db: &Db, before: i64) -> StoreResult<u64> {
    let done =
        sqlx::query("DELETE FROM orders WHERE status = 'checkout-draft' AND updated_at < $1")
            .bind(before)
            .execute(db.writer())
            .await?;
    Ok(done.rows_affected())
}
