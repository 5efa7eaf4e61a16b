//! The shop owner's commands: `ferroshop orders …` and `ferroshop api-keys …`. They
//! read the same configuration as `serve`, work on the database directly (no server
//! needed) and change orders through the same `OrderService` as the staff API; mails
//! go to the outbox, and any running instance sends them.

use std::fmt::Write as _;

use crate::config::Config;
use crate::orders::service::{Actor, EditError, OrderEdit, OrderService};
use crate::payments::staff as pay;
use mail::order::address_lines;
use rules::money::{CurrencyFormat, Money};
use rules::orders::model::{Order, OrderId, OrderStatus};
use rules::staff::{ApiKeyId, NewKey, Permissions, Role};
use store::orders::{OrderFilter, OrderSort};
use store::Db;

pub const USAGE: &str = "\
  ferroshop orders list [--status S[,S…]] [--email E] [--customer ID] [--page N] [--per-page N]
  ferroshop orders show ID
  ferroshop orders set-status ID STATUS [--note TEXT]
  ferroshop orders refund ID [AMOUNT] [--reason TEXT]
  ferroshop api-keys create --description TEXT [--permissions read|write|read_write]
  ferroshop api-keys list
  ferroshop api-keys revoke ID
  ferroshop staff grant EMAIL [--role shop_manager|administrator]
  ferroshop staff revoke EMAIL
  ferroshop staff list";

/// A staff command, parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    ListOrders(ListOrders),
    ShowOrder(OrderId),
    SetStatus {
        id: OrderId,
        status: OrderStatus,
        note: Option<String>,
    },
    /// Money back on an order: through the card provider when it was paid there,
    /// else recorded as refunded by hand. AMOUNT as written (all that is left when None).
    Refund {
        id: OrderId,
        amount: Option<String>,
        reason: String,
    },
    CreateKey {
        description: String,
        permissions: Permissions,
    },
    ListKeys,
    RevokeKey(ApiKeyId),
    /// Makes an account staff (or, with `Role::Customer`, a customer again).
    SetRole {
        email: String,
        role: Role,
    },
    ListStaff,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListOrders {
    pub filter: OrderFilter,
    pub page: i64,
    pub per_page: i64,
}

/// What went wrong, and so how the command exits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CliError {
    /// The command line itself is wrong (exit status 2).
    Usage(String),
    /// The shop refused, or something failed (exit status 1).
    Failed(String),
}

impl From<store::StoreError> for CliError {
    fn from(e: store::StoreError) -> Self {
        Self::Failed(e.to_string())
    }
}

/// The words after `ferroshop`, split into positionals and `--flag value` pairs
/// (`--flag=value` too). `--database` is taken out for the caller.
struct Words {
    positional: Vec<String>,
    flags: Vec<(String, String)>,
}

fn split(args: &[String]) -> Result<Words, CliError> {
    let mut words = Words {
        positional: Vec::new(),
        flags: Vec::new(),
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let Some(flag) = a.strip_prefix("--") else {
            words.positional.push(a.clone());
            continue;
        };
        let (name, value) = match flag.split_once('=') {
            Some((n, v)) => (n.to_string(), v.to_string()),
            None => {
                let v = it
                    .next()
                    .ok_or_else(|| CliError::Usage(format!("--{flag} needs a value")))?;
                (flag.to_string(), v.clone())
            }
        };
        words.flags.push((name, value));
    }
    Ok(words)
}

impl Words {
    fn take(&mut self, name: &str) -> Option<String> {
        let i = self.flags.iter().position(|(n, _)| n == name)?;
        Some(self.flags.remove(i).1)
    }

    fn finish(self, expected_positionals: usize) -> Result<(), CliError> {
        if let Some((name, _)) = self.flags.first() {
            return Err(CliError::Usage(format!("unknown option --{name}")));
        }
        if let Some(extra) = self.positional.get(expected_positionals) {
            return Err(CliError::Usage(format!("unexpected argument {extra:?}")));
        }
        Ok(())
    }
}

fn number(name: &str, value: &str, min: i64, max: i64) -> Result<i64, CliError> {
    value
        .trim()
        .trim_start_matches('#')
        .parse::<i64>()
        .ok()
        .filter(|n| (min..=max).contains(n))
        .ok_or_else(|| {
            let range = if max == i64::MAX {
                format!("a whole number from {min} up")
            } else {
                format!("a number from {min} to {max}")
            };
            CliError::Usage(format!("{name} must be {range}, not {value:?}"))
        })
}

fn status(value: &str) -> Result<OrderStatus, CliError> {
    OrderStatus::parse_placed(value).ok_or_else(|| {
        CliError::Usage(format!(
            "unknown status {value:?}; statuses are pending, processing, on-hold, completed, cancelled, refunded and failed"
        ))
    })
}

/// Parses `args` (the words after `ferroshop`, starting with `orders` or `api-keys`).
/// Returns the command and the `--database` given, if any.
pub fn parse(args: &[String]) -> Result<(Command, Option<String>), CliError> {
    let mut words = split(args)?;
    let database = words.take("database");
    let positional = words.positional.clone();
    let at = |i: usize, what: &str| {
        positional
            .get(i)
            .cloned()
            .ok_or_else(|| CliError::Usage(format!("{what} is missing")))
    };
    let group = at(0, "a command")?;
    let action = at(1, &format!("what to do with {group}"))?;
    let command = match (group.as_str(), action.as_str()) {
        ("orders", "list") => {
            let mut statuses = Vec::new();
            if let Some(list) = words.take("status") {
                for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
                    if name == "any" {
                        continue;
                    }
                    let s = status(name)?;
                    if !statuses.contains(&s) {
                        statuses.push(s);
                    }
                }
            }
            let customer_id = words
                .take("customer")
                .map(|c| number("--customer", &c, 1, i64::MAX))
                .transpose()?;
            let billing_email = words.take("email").filter(|e| !e.trim().is_empty());
            let page = words
                .take("page")
                .map(|p| number("--page", &p, 1, i64::MAX))
                .transpose()?
                .unwrap_or(1);
            let per_page = words
                .take("per-page")
                .map(|p| number("--per-page", &p, 1, 100))
                .transpose()?
                .unwrap_or(20);
            words.finish(2)?;
            Command::ListOrders(ListOrders {
                filter: OrderFilter {
                    statuses,
                    customer_id,
                    billing_email,
                    sort: OrderSort::Date,
                    newest_first: true,
                },
                page,
                per_page,
            })
        }
        ("orders", "show") => {
            let id = number("the order number", &at(2, "the order number")?, 1, i64::MAX)?;
            words.finish(3)?;
            Command::ShowOrder(OrderId(id))
        }
        ("orders", "set-status") => {
            let id = number("the order number", &at(2, "the order number")?, 1, i64::MAX)?;
            let status = status(&at(3, "the new status")?)?;
            let note = words.take("note").filter(|n| !n.trim().is_empty());
            words.finish(4)?;
            Command::SetStatus {
                id: OrderId(id),
                status,
                note,
            }
        }
        ("orders", "refund") => {
            let id = number("the order number", &at(2, "the order number")?, 1, i64::MAX)?;
            let amount = words.positional.get(3).cloned();
            let reason = words.take("reason").unwrap_or_default();
            words.finish(if amount.is_some() { 4 } else { 3 })?;
            Command::Refund {
                id: OrderId(id),
                amount,
                reason,
            }
        }
        ("api-keys", "create") => {
            let description = words
                .take("description")
                .map(|d| d.trim().to_string())
                .filter(|d| !d.is_empty())
                .ok_or_else(|| CliError::Usage("--description is missing".into()))?;
            let permissions = match words.take("permissions") {
                None => Permissions::Read,
                Some(p) => Permissions::parse(&p).ok_or_else(|| {
                    CliError::Usage(format!(
                        "--permissions is read, write or read_write, not {p:?}"
                    ))
                })?,
            };
            words.finish(2)?;
            Command::CreateKey {
                description,
                permissions,
            }
        }
        ("api-keys", "list") => {
            words.finish(2)?;
            Command::ListKeys
        }
        ("api-keys", "revoke") => {
            let id = number("the key's id", &at(2, "the key's id")?, 1, i64::MAX)?;
            words.finish(3)?;
            Command::RevokeKey(ApiKeyId(id))
        }
        ("staff", "grant") => {
            let email = at(2, "the account's e-mail")?;
            let role = match words.take("role") {
                None => Role::ShopManager,
                Some(r) => Role::parse(&r).filter(|r| r.is_staff()).ok_or_else(|| {
                    CliError::Usage(format!(
                        "--role is shop_manager or administrator, not {r:?}"
                    ))
                })?,
            };
            words.finish(3)?;
            Command::SetRole { email, role }
        }
        ("staff", "revoke") => {
            let email = at(2, "the account's e-mail")?;
            words.finish(3)?;
            Command::SetRole {
                email,
                role: Role::Customer,
            }
        }
        ("staff", "list") => {
            words.finish(2)?;
            Command::ListStaff
        }
        (group, action) => {
            return Err(CliError::Usage(format!(
                "unknown command \"{group} {action}\""
            )))
        }
    };
    Ok((command, database))
}

/// The staff's payment desk for a command: the provider as the configuration connects it.
fn desk<'a>(config: &'a Config, db: &'a Db, base_url: String) -> Result<pay::Desk<'a>, CliError> {
    let provider = crate::payments::provider::Provider::connect(&config.payments)
        .map_err(|e| CliError::Failed(format!("the payment provider's settings: {e}")))?;
    Ok(pay::Desk {
        db,
        provider,
        config,
        base_url,
    })
}

/// Runs a command against the shop's database; returns what to print.
pub async fn run(
    command: &Command,
    config: &Config,
    db: &Db,
    now: i64,
) -> Result<String, CliError> {
    let money = |minor: i64| config.currency.format_plain(Money::new(minor));
    match command {
        Command::ListOrders(q) => list_orders(q, &config.currency, db).await,
        Command::ShowOrder(id) => {
            let order = store::orders::find_order(db, *id)
                .await?
                .filter(|o| o.status != OrderStatus::CheckoutDraft)
                .ok_or_else(|| no_order(*id))?;
            let notes = store::orders::notes(db, *id).await?;
            let mut out = show_order(&order, &money);
            out.push_str("\nNotes\n");
            for n in &notes {
                let to = if n.for_customer {
                    " [to the customer]"
                } else {
                    ""
                };
                let _ = writeln!(
                    out,
                    "  {}  {}{to}: {}",
                    rules::clock::minutes(n.created_at),
                    n.actor,
                    n.note
                );
            }
            Ok(out)
        }
        Command::SetStatus { id, status, note } => {
            // No request here: links come from the public URL, else the bind address.
            let base = config.address(config.bind).default_base();
            let mail = config.order_mails(base.as_str());
            let orders = OrderService { db, mail: &mail };
            let edit = OrderEdit {
                status: Some(*status),
                reason: note.clone(),
                ..OrderEdit::default()
            };
            // A card payment moves with its order, as through the staff API.
            let order = store::orders::find_order(db, *id)
                .await?
                .filter(|o| o.status != OrderStatus::CheckoutDraft)
                .ok_or_else(|| no_order(*id))?;
            let desk = desk(config, db, base.to_string())?;
            let by = Actor::command_line().to_string();
            if pay::before_status_change(&desk, &order, *status, &by)
                .await
                .map_err(|e| CliError::Failed(format!("order {}: {e}", id.0)))?
            {
                let moved = store::orders::find_order(db, *id)
                    .await?
                    .ok_or_else(|| no_order(*id))?;
                if moved.status == *status {
                    return Ok(format!(
                        "Order #{} is now {} (was {}); the card payment followed.\n",
                        id.0,
                        moved.status.label(),
                        order.status.label()
                    ));
                }
            }
            let done = orders
                .edit(*id, &edit, &Actor::command_line(), now)
                .await
                .map_err(|e| match e {
                    EditError::NotFound => no_order(*id),
                    e => CliError::Failed(format!("order {}: {e}", id.0)),
                })?;
            let mut out = format!(
                "Order #{} is now {} (was {}).\n",
                id.0,
                done.order.status.label(),
                done.previous.label()
            );
            if done.mails_queued > 0 {
                out.push_str(&match done.mails_queued {
                    1 => "The customer's mail is queued; a running shop sends it.\n".to_string(),
                    n => format!("{n} mails are queued; a running shop sends them.\n"),
                });
            }
            Ok(out)
        }
        Command::Refund { id, amount, reason } => {
            let base = config.address(config.bind).default_base();
            let order = store::orders::find_order(db, *id)
                .await?
                .filter(|o| o.status != OrderStatus::CheckoutDraft)
                .ok_or_else(|| no_order(*id))?;
            let amount = match amount {
                None => None,
                Some(text) => Some(
                    rules::catalog::csv::parse_price(text, &config.currency)
                        .ok()
                        .flatten()
                        .filter(|&a| a > 0)
                        .ok_or_else(|| {
                            CliError::Usage(format!(
                                "the amount must be a price like 5.00, not {text:?}"
                            ))
                        })?,
                ),
            };
            let desk = desk(config, db, base.to_string())?;
            let by = Actor::command_line().to_string();
            let failed = |e: pay::StaffPayError| CliError::Failed(format!("order {}: {e}", id.0));
            if pay::paid_by_provider(&order) {
                pay::refund(&desk, *id, amount, reason, &by, now)
                    .await
                    .map_err(failed)?;
            } else {
                pay::manual_refund(&desk, &order, amount, reason, &by, now)
                    .await
                    .map_err(failed)?;
            }
            let after = store::orders::find_order(db, *id)
                .await?
                .ok_or_else(|| no_order(*id))?;
            let refunds = store::payments::refunds(db, *id).await?;
            let total: i64 = refunds.iter().map(|r| r.amount).sum();
            Ok(format!(
                "Order #{}: {} refunded in all; the order is {}.\n",
                id.0,
                money(total),
                after.status.label()
            ))
        }
        Command::CreateKey {
            description,
            permissions,
        } => {
            let key = NewKey::generate();
            let stored = store::staff::create(db, &key, description, *permissions, now).await?;
            Ok(format!(
                "API key {} ({}) created: {}\n\
                 Consumer key:    {}\n\
                 Consumer secret: {}\n\
                 Keep both now: the shop stores only their digests and cannot show them again.\n",
                stored.id,
                permissions.as_str(),
                stored.description,
                key.consumer_key,
                key.consumer_secret
            ))
        }
        Command::ListKeys => {
            let keys = store::staff::list(db).await?;
            if keys.is_empty() {
                return Ok("No API keys yet; make one with `ferroshop api-keys create`.\n".into());
            }
            let mut rows = vec![row([
                "ID",
                "Description",
                "Permissions",
                "Key",
                "Created",
                "Last access",
                "State",
            ])];
            for k in &keys {
                rows.push(row([
                    &k.id.to_string(),
                    &k.description,
                    k.permissions.as_str(),
                    &format!("…{}", k.truncated_key),
                    &rules::clock::minutes(k.created_at),
                    &k.last_access_at
                        .map(rules::clock::minutes)
                        .unwrap_or_else(|| "never".into()),
                    match k.revoked_at {
                        Some(_) => "revoked",
                        None => "active",
                    },
                ]));
            }
            Ok(table(&rows, &[]))
        }
        Command::RevokeKey(id) => {
            if store::staff::revoke(db, *id, now).await? {
                Ok(format!("API key {id} revoked.\n"))
            } else {
                Err(CliError::Failed(format!("there is no active API key {id}")))
            }
        }
        Command::SetRole { email, role } => {
            let key = rules::customers::email_key(email);
            if !store::customers::set_role(db, &key, *role, now).await? {
                return Err(CliError::Failed(format!(
                    "there is no account with the e-mail {email}"
                )));
            }
            Ok(if role.is_staff() {
                format!(
                    "{email} is now {} (signed-in staff see the shop in coming-soon mode).\n",
                    role.as_str()
                )
            } else {
                format!("{email} is a customer again.\n")
            })
        }
        Command::ListStaff => {
            let staff = store::customers::list_staff(db).await?;
            if staff.is_empty() {
                return Ok("No staff accounts.\n".into());
            }
            let mut out = String::new();
            for (id, email, name, role) in staff {
                let _ = writeln!(out, "{:>6}  {:<14}  {email}  {name}", id.0, role.as_str());
            }
            Ok(out)
        }
    }
}

fn no_order(id: OrderId) -> CliError {
    CliError::Failed(format!("there is no order #{}", id.0))
}

fn row<const N: usize>(cells: [&str; N]) -> Vec<String> {
    cells.iter().map(|c| c.to_string()).collect()
}

/// Left-aligned columns, except those in `right` (amounts, counts).
fn table(rows: &[Vec<String>], right: &[usize]) -> String {
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|c| {
            rows.iter()
                .map(|r| r.get(c).map_or(0, |s| s.chars().count()))
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for r in rows {
        let cells: Vec<String> = r
            .iter()
            .enumerate()
            .map(|(c, s)| {
                if right.contains(&c) {
                    format!("{s:>w$}", w = widths[c])
                } else {
                    format!("{s:<w$}", w = widths[c])
                }
            })
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    out
}

fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let cut: String = text.chars().take(max - 1).collect();
    format!("{cut}…")
}

fn customer(order: &Order) -> String {
    let name = order.billing.full_name();
    let email = order.billing.email.trim();
    let who = match (name.trim(), email) {
        ("", e) => e.to_string(),
        (n, "") => n.to_string(),
        (n, e) => format!("{n} <{e}>"),
    };
    shorten(&who, 48)
}

async fn list_orders(
    q: &ListOrders,
    currency: &CurrencyFormat,
    db: &Db,
) -> Result<String, CliError> {
    let offset = (q.page - 1).saturating_mul(q.per_page);
    let orders = store::orders::list_orders(db, &q.filter, offset, q.per_page).await?;
    let total = store::orders::count_orders(db, &q.filter).await?;
    if orders.is_empty() {
        return Ok(if total == 0 {
            "No orders.\n".to_string()
        } else {
            format!("No orders on page {} ({total} in all).\n", q.page)
        });
    }
    let mut rows = vec![row([
        "Order", "Date", "Status", "Customer", "Total", "Items",
    ])];
    for o in &orders {
        rows.push(row([
            &format!("#{}", o.number()),
            &rules::clock::minutes(o.created_at),
            o.status.label(),
            &customer(o),
            &currency.format_plain(Money::new(o.total)),
            &o.item_count().to_string(),
        ]));
    }
    let pages = (total + q.per_page - 1) / q.per_page;
    let mut out = table(&rows, &[4, 5]);
    let _ = writeln!(
        out,
        "\n{}–{} of {total} orders, page {} of {pages}, newest first.",
        offset + 1,
        offset + orders.len() as i64,
        q.page
    );
    Ok(out)
}

/// Everything about one order, notes aside.
fn show_order(o: &Order, money: &impl Fn(i64) -> String) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "Order #{} — {}", o.number(), o.status.label());
    let date = |t: Option<i64>| t.map_or_else(|| "—".to_string(), rules::clock::minutes);
    let mut facts = vec![
        row([
            "Placed",
            &format!(
                "{} UTC, via {}",
                rules::clock::minutes(o.created_at),
                o.created_via
            ),
        ]),
        row(["Paid", &date(o.paid_at)]),
        row(["Completed", &date(o.completed_at)]),
        row([
            "Customer",
            &match o.customer_id {
                Some(id) => format!("account {id}"),
                None => "guest".to_string(),
            },
        ]),
        row([
            "Payment",
            &if o.payment_method.is_empty() {
                "none (nothing to pay)".to_string()
            } else {
                format!("{} ({})", o.payment_method_title, o.payment_method)
            },
        ]),
        row(["Order key", &o.key]),
    ];
    if !o.transaction_id.is_empty() {
        facts.push(row(["Transaction", &o.transaction_id]));
    }
    out.push_str(&table(&facts, &[]));
    out.push_str("\nBilling address\n");
    for line in address_lines(&o.billing, true) {
        let _ = writeln!(out, "  {line}");
    }
    if !o.shipping.address_1.trim().is_empty() {
        out.push_str("\nShipping address\n");
        for line in address_lines(&o.shipping, false) {
            let _ = writeln!(out, "  {line}");
        }
    }
    let mut lines = Vec::new();
    for i in &o.lines.items {
        let mut name = i.name.clone();
        if !i.variation.is_empty() {
            let chosen: Vec<String> = i
                .variation
                .iter()
                .map(|v| format!("{}: {}", v.attribute, v.value))
                .collect();
            name = format!("{name} ({})", chosen.join(", "));
        }
        if !i.sku.is_empty() {
            name = format!("{name} [{}]", i.sku);
        }
        lines.push(row([
            &format!("  {} × {name}", i.quantity),
            &money(i.subtotal),
        ]));
    }
    lines.push(row(["Subtotal", &money(o.subtotal)]));
    for c in &o.lines.coupons {
        lines.push(row([
            &format!("Coupon {}", c.code),
            &format!("-{}", money(c.discount)),
        ]));
    }
    for s in &o.lines.shipping {
        lines.push(row([&format!("Shipping: {}", s.name), &money(s.total)]));
    }
    for t in &o.lines.taxes {
        lines.push(row([
            &format!("{} ({})", t.label, t.rate_percent),
            &money(t.tax_total + t.shipping_tax_total),
        ]));
    }
    lines.push(row(["Total", &money(o.total)]));
    out.push_str("\nItems\n");
    out.push_str(&table(&lines, &[1]));
    if !o.customer_note.trim().is_empty() {
        out.push_str("\nCustomer's note\n");
        for line in o.customer_note.trim().lines() {
            let _ = writeln!(out, "  {line}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        line.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn orders_list_reads_its_filters() {
        let (cmd, db) = parse(&words(
            "orders list --status processing,on-hold --email=ada@example.test --customer 7 --page 2 --per-page 5 --database sqlite://x.db",
        ))
        .unwrap();
        assert_eq!(db.as_deref(), Some("sqlite://x.db"));
        let Command::ListOrders(q) = cmd else {
            panic!("{cmd:?}")
        };
        assert_eq!(
            q.filter.statuses,
            vec![OrderStatus::Processing, OrderStatus::OnHold]
        );
        assert_eq!(q.filter.billing_email.as_deref(), Some("ada@example.test"));
        assert_eq!((q.filter.customer_id, q.page, q.per_page), (Some(7), 2, 5));
    }

    #[test]
    fn set_status_takes_an_order_a_status_and_a_note() {
        let mut args = words("orders set-status #58 wc-completed --note");
        args.push("Left with the neighbour".into());
        assert_eq!(
            parse(&args).unwrap().0,
            Command::SetStatus {
                id: OrderId(58),
                status: OrderStatus::Completed,
                note: Some("Left with the neighbour".into()),
            }
        );
    }

    #[test]
    fn mistakes_are_usage_errors_naming_the_problem() {
        for (line, message) in [
            ("orders", "what to do with orders is missing"),
            ("orders ship 5", "unknown command \"orders ship\""),
            ("orders show", "the order number is missing"),
            ("orders show five", "the order number must be a whole number from 1 up, not \"five\""),
            ("orders set-status 5 shipped", "unknown status \"shipped\"; statuses are pending, processing, on-hold, completed, cancelled, refunded and failed"),
            ("orders list --per-page 500", "--per-page must be a number from 1 to 100, not \"500\""),
            ("orders list --colour red", "unknown option --colour"),
            ("orders list --status", "--status needs a value"),
            ("api-keys create", "--description is missing"),
            ("api-keys create --description x --permissions all", "--permissions is read, write or read_write, not \"all\""),
            ("api-keys list now", "unexpected argument \"now\""),
        ] {
            assert_eq!(
                parse(&words(line)),
                Err(CliError::Usage(message.to_string())),
                "{line}"
            );
        }
    }

    #[test]
    fn keys_are_read_only_unless_asked() {
        assert_eq!(
            parse(&words("api-keys create --description Warehouse"))
                .unwrap()
                .0,
            Command::CreateKey {
                description: "Warehouse".into(),
                permissions: Permissions::Read
            }
        );
    }

    #[test]
    fn tables_line_up() {
        let t = table(
            &[
                row(["Order", "Total"]),
                row(["#1", "$5.00"]),
                row(["#10", "$120.00"]),
            ],
            &[1],
        );
        assert_eq!(t, "Order    Total\n#1       $5.00\n#10    $120.00\n");
    }
}
