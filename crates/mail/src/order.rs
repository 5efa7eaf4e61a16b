//! The order e-mails: "new order" to the shop, and to the customer "on hold" (awaiting
//! an offline payment, with the bank details for a bank transfer), "processing",
//! "completed", "cancelled", "refunded", and a note staff wrote for them. Which ones a
//! status change sends is decided by `orders::lifecycle::mails_for`; they are queued in
//! the transaction that changes the order.

use sqlx::{Any, Transaction};

use super::layout::{render, Block, MailContext, Rendered, Row};
use rules::address::Address;
use rules::money::{CurrencyFormat, Money};
use rules::orders::model::{Order, OrderStatus};
use rules::payments::{BankAccount, GatewayKind, Gateways};
use store::StoreResult;

pub use rules::orders::lifecycle::{mails_for, OrderMail};

/// The outbox kind of a note staff wrote for the customer.
pub const CUSTOMER_NOTE: &str = "customer_note";

/// What the order mails need besides the order.
#[derive(Debug, Clone)]
pub struct OrderMailSettings {
    pub mail: MailContext,
    pub currency: CurrencyFormat,
    pub gateways: Gateways,
    /// Where "new order" goes.
    pub shop_email: String,
}

/// Queues the mails `order`'s change from `previous` (None: just placed) to its current
/// status calls for, in the caller's transaction. Call `mail::wake()` after committing.
/// Returns how many were queued.
pub async fn queue_order_emails(
    tx: &mut Transaction<'_, Any>,
    order: &Order,
    previous: Option<OrderStatus>,
    settings: &OrderMailSettings,
) -> StoreResult<usize> {
    queue_mails(tx, order, &mails_for(previous, order.status), settings).await
}

/// Queues `mails` about `order` in the caller's transaction; a mail without a
/// recipient (no billing e-mail, no shop address) is left out.
pub async fn queue_mails(
    tx: &mut Transaction<'_, Any>,
    order: &Order,
    mails: &[OrderMail],
    settings: &OrderMailSettings,
) -> StoreResult<usize> {
    let mut queued = 0;
    for &mail in mails {
        let to = match mail {
            OrderMail::NewOrder => settings.shop_email.clone(),
            _ => order.billing.email.trim().to_string(),
        };
        if to.is_empty() {
            continue;
        }
        let rendered = render_order_mail(mail, order, settings);
        super::queue_in(tx, mail.kind(), &to, &rendered).await?;
        queued += 1;
    }
    Ok(queued)
}

/// Queues a note staff wrote for the customer. False when the order has no e-mail.
pub async fn queue_customer_note(
    tx: &mut Transaction<'_, Any>,
    order: &Order,
    note: &str,
    settings: &OrderMailSettings,
) -> StoreResult<bool> {
    let to = order.billing.email.trim();
    if to.is_empty() {
        return Ok(false);
    }
    let rendered = render_customer_note(order, note, settings);
    super::queue_in(tx, CUSTOMER_NOTE, to, &rendered).await?;
    Ok(true)
}

fn greeting(order: &Order) -> String {
    let first_name = order.billing.first_name.trim();
    if first_name.is_empty() {
        "Hi,".to_string()
    } else {
        format!("Hi {first_name},")
    }
}

/// "A note has been added to your order", with the note and the order's details.
pub fn render_customer_note(order: &Order, note: &str, s: &OrderMailSettings) -> Rendered {
    let shop = &s.mail.shop_name;
    let mut blocks = vec![
        Block::Paragraph(greeting(order)),
        Block::Paragraph("The following note has been added to your order:".into()),
        Block::Lines(note.trim().lines().map(str::to_string).collect()),
        Block::Paragraph("As a reminder, here are your order details:".into()),
    ];
    blocks.extend(order_details(order, &s.currency));
    blocks.extend(addresses(order));
    blocks.push(Block::Paragraph(format!(
        "Thanks for shopping with {shop}."
    )));
    render(
        &s.mail,
        &format!(
            "Note added to your {shop} order from {}",
            rules::clock::long_date(order.created_at)
        ),
        "A note has been added to your order",
        &blocks,
    )
}

pub fn render_order_mail(mail: OrderMail, order: &Order, s: &OrderMailSettings) -> Rendered {
    let shop = &s.mail.shop_name;
    let number = order.number();
    let greeting = greeting(order);
    let (subject, heading, mut blocks) = match mail {
        OrderMail::NewOrder => (
            format!("[{shop}]: New order #{number}"),
            format!("New Order: #{number}"),
            vec![Block::Paragraph(format!(
                "You've received the following order from {}:",
                order.billing.full_name()
            ))],
        ),
        OrderMail::CustomerOnHold => (
            format!("Your {shop} order has been received!"),
            "Thank you for your order".to_string(),
            vec![
                Block::Paragraph(greeting),
                Block::Paragraph(
                    "Thanks for your order. It's on-hold until we confirm that payment has been received. In the meantime, here's a reminder of what you ordered:"
                        .into(),
                ),
            ],
        ),
        OrderMail::CustomerProcessing => (
            format!("Your {shop} order has been received!"),
            "Thank you for your order".to_string(),
            vec![
                Block::Paragraph(greeting),
                Block::Paragraph(format!(
                    "Just to let you know — we've received your order #{number}, and it is now being processed:"
                )),
            ],
        ),
        OrderMail::CustomerCompleted => (
            format!("Your {shop} order is now complete"),
            "Thanks for shopping with us".to_string(),
            vec![
                Block::Paragraph(greeting),
                Block::Paragraph("We have finished processing your order.".into()),
            ],
        ),
        OrderMail::CustomerCancelled => (
            format!("Your {shop} order #{number} has been cancelled"),
            format!("Order Cancelled: #{number}"),
            vec![
                Block::Paragraph(greeting),
                Block::Paragraph(format!(
                    "Your order #{number} has been cancelled. If anything was reserved for it, it has been released; if you still want the items, you are welcome to order again."
                )),
            ],
        ),
        OrderMail::CustomerRefunded => (
            format!("Your {shop} order #{number} has been refunded"),
            format!("Order Refunded: #{number}"),
            vec![
                Block::Paragraph(greeting),
                Block::Paragraph(format!(
                    "Your order on {shop} has been refunded. There are more details below for your reference:"
                )),
            ],
        ),
    };
    if matches!(
        mail,
        OrderMail::CustomerOnHold | OrderMail::CustomerProcessing
    ) {
        blocks.extend(payment_instructions(order, &s.gateways));
    }
    blocks.extend(order_details(order, &s.currency));
    blocks.extend(addresses(order));
    match mail {
        OrderMail::NewOrder => {
            blocks.push(Block::Paragraph("Congratulations on the sale.".to_string()))
        }
        OrderMail::CustomerOnHold => blocks.push(Block::Paragraph(
            "We look forward to fulfilling your order soon.".to_string(),
        )),
        OrderMail::CustomerProcessing => blocks.push(Block::Paragraph(format!(
            "Thanks for using {}!",
            s.mail.base_url
        ))),
        OrderMail::CustomerCompleted => {
            blocks.push(Block::Paragraph("Thanks for shopping with us.".to_string()))
        }
        OrderMail::CustomerCancelled | OrderMail::CustomerRefunded => blocks.push(
            Block::Paragraph("We hope to see you again soon.".to_string()),
        ),
    }
    render(&s.mail, &subject, &heading, &blocks)
}

/// The payment method's instructions, and for a bank transfer awaiting payment the
/// accounts to pay into.
fn payment_instructions(order: &Order, gateways: &Gateways) -> Vec<Block> {
    let Some(gateway) = gateways.find(&order.payment_method) else {
        return Vec::new();
    };
    let mut blocks = Vec::new();
    if !gateway.instructions.trim().is_empty() {
        blocks.push(Block::Paragraph(gateway.instructions.trim().to_string()));
    }
    if gateway.kind == GatewayKind::Bacs && order.status == OrderStatus::OnHold {
        let accounts: Vec<&BankAccount> = gateways
            .bank_accounts
            .iter()
            .filter(|a| !a.account_number.is_empty() || !a.iban.is_empty())
            .collect();
        if !accounts.is_empty() {
            blocks.push(Block::Heading("Our bank details".into()));
        }
        for account in accounts {
            let title = [account.account_name.trim(), account.bank_name.trim()]
                .into_iter()
                .filter(|s| !s.is_empty())
                .collect::<Vec<_>>()
                .join(" - ");
            if !title.is_empty() {
                blocks.push(Block::Paragraph(format!("{title}:")));
            }
            let rows: Vec<Row> = [
                ("Bank", &account.bank_name),
                ("Account number", &account.account_number),
                ("Sort code", &account.sort_code),
                ("IBAN", &account.iban),
                ("BIC", &account.bic),
            ]
            .into_iter()
            .filter(|(_, v)| !v.trim().is_empty())
            .map(|(label, v)| Row::new(label, v.trim()))
            .collect();
            blocks.push(Block::Table(rows));
        }
    }
    blocks
}

fn order_details(order: &Order, currency: &CurrencyFormat) -> Vec<Block> {
    let money = |minor: i64| currency.format_plain(Money::new(minor));
    let with_tax = |amount: i64, tax: i64| {
        if order.prices_include_tax {
            amount + tax
        } else {
            amount
        }
    };
    let date = rules::clock::long_date(order.created_at);
    let mut rows: Vec<Row> = Vec::new();
    for item in &order.lines.items {
        let mut name = item.name.clone();
        if !item.variation.is_empty() {
            let chosen: Vec<String> = item
                .variation
                .iter()
                .map(|v| format!("{}: {}", v.attribute, v.value))
                .collect();
            name = format!("{name} ({})", chosen.join(", "));
        }
        rows.push(Row::new(
            format!("{name} × {}", item.quantity),
            money(with_tax(item.subtotal, item.subtotal_tax)),
        ));
    }
    let subtotal: i64 = order
        .lines
        .items
        .iter()
        .map(|i| with_tax(i.subtotal, i.subtotal_tax))
        .sum();
    rows.push(Row::strong("Subtotal:", money(subtotal)));
    if order.discount_total > 0 {
        rows.push(Row::strong(
            "Discount:",
            format!(
                "-{}",
                money(with_tax(order.discount_total, order.discount_tax))
            ),
        ));
    }
    for line in &order.lines.shipping {
        rows.push(Row::strong(
            "Shipping:",
            format!(
                "{} via {}",
                money(with_tax(line.total, line.total_tax)),
                line.name
            ),
        ));
    }
    if !order.prices_include_tax {
        for tax in &order.lines.taxes {
            rows.push(Row::strong(
                format!("{}:", tax.label),
                money(tax.tax_total + tax.shipping_tax_total),
            ));
        }
    }
    if !order.payment_method_title.is_empty() {
        rows.push(Row::strong(
            "Payment method:",
            order.payment_method_title.clone(),
        ));
    }
    let mut total = money(order.total);
    if order.prices_include_tax && order.total_tax > 0 {
        total = format!("{total} (includes {} Tax)", money(order.total_tax));
    }
    rows.push(Row::strong("Total:", total));
    if !order.customer_note.trim().is_empty() {
        rows.push(Row::new("Note:", order.customer_note.trim()));
    }
    vec![
        Block::Heading(format!("[Order #{}] ({date})", order.number())),
        Block::Table(rows),
    ]
}

fn addresses(order: &Order) -> Vec<Block> {
    let mut blocks = vec![
        Block::Heading("Billing address".into()),
        Block::Lines(address_lines(&order.billing, true)),
    ];
    if !order.shipping.address_1.trim().is_empty() {
        blocks.push(Block::Heading("Shipping address".into()));
        blocks.push(Block::Lines(address_lines(&order.shipping, false)));
    }
    blocks
}

/// An address as lines, the way the shop writes one (mails, the command line).
pub fn address_lines(a: &Address, with_contact: bool) -> Vec<String> {
    let place = format!("{} {}", a.state.trim(), a.postcode.trim());
    let city_line = [a.city.trim(), place.trim()]
        .into_iter()
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(", ");
    let country = rules::address::locale::CountryCode::parse(a.country.trim())
        .map(|c| rules::address::locale::country_name(c).to_string())
        .unwrap_or_else(|_| a.country.trim().to_string());
    let mut lines = vec![
        a.full_name(),
        a.company.trim().to_string(),
        a.address_1.trim().to_string(),
        a.address_2.trim().to_string(),
        city_line,
        country,
    ];
    if with_contact {
        lines.push(a.phone.trim().to_string());
        lines.push(a.email.trim().to_string());
    } else {
        lines.push(a.phone.trim().to_string());
    }
    lines.retain(|l| !l.is_empty());
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::orders::model::*;
    use rules::payments::Gateway;

    fn address() -> Address {
        Address {
            first_name: "Ada".into(),
            last_name: "Lovelace".into(),
            address_1: "1 Main St".into(),
            city: "San Francisco".into(),
            state: "CA".into(),
            postcode: "94110".into(),
            country: "US".into(),
            email: "ada@example.test".into(),
            phone: "5555550100".into(),
            ..Address::default()
        }
    }

    fn order(status: OrderStatus, payment_method: &str, title: &str) -> Order {
        Order {
            id: OrderId(58),
            key: "wc_order_abc".into(),
            status,
            customer_id: None,
            currency: "USD".into(),
            prices_include_tax: false,
            billing: address(),
            shipping: address(),
            customer_note: String::new(),
            payment_method: payment_method.into(),
            payment_method_title: title.into(),
            transaction_id: String::new(),
            created_via: "store-api".into(),
            cart_hash: String::new(),
            lines: OrderLines {
                items: vec![OrderItem {
                    id: 1,
                    product_id: 12,
                    variation_id: 35,
                    name: "Hoodie <Blue>".into(),
                    sku: "sku-35".into(),
                    quantity: 2,
                    variation: vec![ItemAttribute {
                        attribute: "Color".into(),
                        value: "Blue".into(),
                    }],
                    price: 4500,
                    subtotal: 9000,
                    subtotal_tax: 0,
                    total: 9000,
                    total_tax: 0,
                    taxes: vec![],
                    reduced_stock: false,
                }],
                shipping: vec![ShippingLine {
                    method_id: "flat_rate".into(),
                    instance_id: 1,
                    name: "Flat rate".into(),
                    total: 500,
                    total_tax: 0,
                    taxes: vec![],
                }],
                coupons: vec![],
                taxes: vec![],
            },
            subtotal: 9000,
            discount_total: 0,
            discount_tax: 0,
            shipping_total: 500,
            shipping_tax: 0,
            total_tax: 0,
            total: 9500,
            stock_reduced: true,
            hold_expires_at: None,
            created_at: 1_795_349_638,
            updated_at: 1_795_349_638,
            paid_at: None,
            completed_at: None,
        }
    }

    fn settings() -> OrderMailSettings {
        OrderMailSettings {
            mail: MailContext::new("Lumen & Loom", "https://shop.example"),
            currency: CurrencyFormat::usd(),
            gateways: Gateways {
                list: [GatewayKind::Bacs, GatewayKind::Cheque, GatewayKind::Cod]
                    .map(Gateway::offline)
                    .to_vec(),
                bank_accounts: vec![BankAccount {
                    account_name: "Lumen Ltd".into(),
                    account_number: "12345678".into(),
                    bank_name: "First Example Bank".into(),
                    sort_code: "12-34-56".into(),
                    iban: "GB33BUKB20201555555555".into(),
                    bic: "BUKBGB22".into(),
                }],
            },
            shop_email: "orders@lumen.example".into(),
        }
    }

    #[test]
    fn an_on_hold_bank_transfer_mail_carries_the_bank_details() {
        let order = order(OrderStatus::OnHold, "bacs", "Direct bank transfer");
        let m = render_order_mail(OrderMail::CustomerOnHold, &order, &settings());
        assert_eq!(m.subject, "Your Lumen & Loom order has been received!");
        assert_eq!(
            m.text,
            "Thank you for your order\n\n\
             Hi Ada,\n\n\
             Thanks for your order. It's on-hold until we confirm that payment has been received. In the meantime, here's a reminder of what you ordered:\n\n\
             Make your payment directly into our bank account. Please use your Order ID as the payment reference. Your order will not be shipped until the funds have cleared in our account.\n\n\
             OUR BANK DETAILS\n\n\
             Lumen Ltd - First Example Bank:\n\n\
             Bank: First Example Bank\n\
             Account number: 12345678\n\
             Sort code: 12-34-56\n\
             IBAN: GB33BUKB20201555555555\n\
             BIC: BUKBGB22\n\n\
             [ORDER #58] (NOVEMBER 22, 2026)\n\n\
             Hoodie <Blue> (Color: Blue) × 2: $90.00\n\
             Subtotal: $90.00\n\
             Shipping: $5.00 via Flat rate\n\
             Payment method: Direct bank transfer\n\
             Total: $95.00\n\n\
             BILLING ADDRESS\n\n\
             Ada Lovelace\n1 Main St\nSan Francisco, CA 94110\nUnited States (US)\n5555550100\nada@example.test\n\n\
             SHIPPING ADDRESS\n\n\
             Ada Lovelace\n1 Main St\nSan Francisco, CA 94110\nUnited States (US)\n5555550100\n\n\
             We look forward to fulfilling your order soon.\n\n\
             -- \nLumen & Loom\nhttps://shop.example/\n"
        );
        assert!(m.html.contains("Hoodie &lt;Blue&gt; (Color: Blue) × 2"));
        assert!(m.html.contains(">GB33BUKB20201555555555</td>"));
    }

    #[test]
    fn the_shop_hears_of_the_order_without_payment_instructions() {
        let order = order(OrderStatus::Processing, "cod", "Cash on delivery");
        let m = render_order_mail(OrderMail::NewOrder, &order, &settings());
        assert_eq!(m.subject, "[Lumen & Loom]: New order #58");
        assert!(m.text.starts_with(
            "New Order: #58\n\nYou've received the following order from Ada Lovelace:\n\n"
        ));
        assert!(!m.text.contains("Pay with cash"));
        let m = render_order_mail(OrderMail::CustomerProcessing, &order, &settings());
        assert!(m.text.contains(
            "Just to let you know — we've received your order #58, and it is now being processed:\n\nPay with cash upon delivery.\n\n"
        ));
        assert!(!m.text.contains("OUR BANK DETAILS"));
    }

    #[test]
    fn a_completed_order_mail_thanks_the_customer_without_payment_instructions() {
        let order = order(OrderStatus::Completed, "bacs", "Direct bank transfer");
        let m = render_order_mail(OrderMail::CustomerCompleted, &order, &settings());
        assert_eq!(m.subject, "Your Lumen & Loom order is now complete");
        assert!(m.text.starts_with(
            "Thanks for shopping with us\n\nHi Ada,\n\nWe have finished processing your order.\n\n[ORDER #58]"
        ));
        assert!(!m.text.contains("OUR BANK DETAILS"));
        assert!(m.html.contains("Hoodie &lt;Blue&gt;"));
    }

    #[test]
    fn cancelled_and_refunded_mails_name_the_order() {
        let order = order(OrderStatus::Cancelled, "cheque", "Check payments");
        let m = render_order_mail(OrderMail::CustomerCancelled, &order, &settings());
        assert_eq!(m.subject, "Your Lumen & Loom order #58 has been cancelled");
        assert!(m
            .text
            .starts_with("Order Cancelled: #58\n\nHi Ada,\n\nYour order #58 has been cancelled."));
        let m = render_order_mail(OrderMail::CustomerRefunded, &order, &settings());
        assert_eq!(m.subject, "Your Lumen & Loom order #58 has been refunded");
        assert!(m
            .text
            .contains("Your order on Lumen & Loom has been refunded."));
        assert!(m.text.contains("Total: $95.00"));
    }

    #[test]
    fn a_customer_note_mail_quotes_the_note_escaped() {
        let order = order(OrderStatus::Processing, "cod", "Cash on delivery");
        let m = render_customer_note(&order, "Shipped <today>\nTracking 1Z999", &settings());
        assert_eq!(
            m.subject,
            "Note added to your Lumen & Loom order from November 22, 2026"
        );
        assert!(m.text.contains(
            "The following note has been added to your order:\n\nShipped <today>\nTracking 1Z999\n\nAs a reminder"
        ));
        assert!(m.html.contains("Shipped &lt;today&gt;<br>Tracking 1Z999"));
    }

    #[test]
    fn what_the_shopper_typed_is_escaped_in_the_html_and_readable_in_the_text() {
        let typed = "<script>alert(1)</script>\"'&";
        let mut order = order(OrderStatus::Processing, "cod", "Cash on delivery");
        order.billing.first_name = typed.into();
        order.billing.address_1 = typed.into();
        order.customer_note = typed.into();
        let m = render_order_mail(OrderMail::CustomerProcessing, &order, &settings());
        let escaped = "&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#039;&amp;";
        assert!(!m.html.contains("<script>"));
        assert!(m.html.contains(&format!(">Hi {escaped},</p>")));
        assert!(m.html.contains(&format!(">{escaped}</td></tr>")));
        assert!(m.html.contains(&format!("<br>{escaped}<br>")));
        assert!(m.text.contains(&format!("Hi {typed},\n")));
        assert!(m.text.contains(&format!("Note: {typed}\n")));
        assert!(m.text.contains(&format!("\n{typed}\nSan Francisco")));
    }
}
