//! An order as placed: its lines copied from the cart at that moment (names, SKUs,
//! prices, taxes), so later catalogue changes never rewrite it.

use serde::{Deserialize, Serialize};

use crate::address::Address;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct OrderId(pub i64);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OrderStatus {
    /// Being checked out; not an order the shop sees yet.
    CheckoutDraft,
    /// Placed, awaiting payment; holds its stock for a while.
    Pending,
    /// Placed, awaiting an offline payment (bank transfer, cheque).
    OnHold,
    /// Paid (or cash on delivery): to be fulfilled.
    Processing,
    Completed,
    Cancelled,
    Failed,
    Refunded,
}

impl OrderStatus {
    pub const ALL: [OrderStatus; 8] = [
        Self::CheckoutDraft,
        Self::Pending,
        Self::OnHold,
        Self::Processing,
        Self::Completed,
        Self::Cancelled,
        Self::Failed,
        Self::Refunded,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::CheckoutDraft => "checkout-draft",
            Self::Pending => "pending",
            Self::OnHold => "on-hold",
            Self::Processing => "processing",
            Self::Completed => "completed",
            Self::Cancelled => "cancelled",
            Self::Failed => "failed",
            Self::Refunded => "refunded",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|st| st.as_str() == s)
    }

    /// A placed order's status as staff name it: `completed`, or `wc-completed` as the
    /// original shop stores it. Drafts are not placed orders.
    pub fn parse_placed(s: &str) -> Option<Self> {
        let s = s.trim();
        Self::parse(s.strip_prefix("wc-").unwrap_or(s)).filter(|st| *st != Self::CheckoutDraft)
    }

    /// What the shop shows the customer.
    pub fn label(self) -> &'static str {
        match self {
            Self::CheckoutDraft => "Draft",
            Self::Pending => "Pending payment",
            Self::OnHold => "On hold",
            Self::Processing => "Processing",
            Self::Completed => "Completed",
            Self::Cancelled => "Cancelled",
            Self::Failed => "Failed",
            Self::Refunded => "Refunded",
        }
    }

    /// Orders in these states can still be paid for on the order-pay page.
    pub fn needs_payment(self) -> bool {
        matches!(self, Self::Pending | Self::Failed)
    }

    /// Whether the order took stock from the shelves (and gives it back if cancelled). A
    /// failed payment keeps it for the shopper's next try, until the hold runs out.
    pub fn holds_stock(self) -> bool {
        matches!(
            self,
            Self::Pending | Self::Failed | Self::OnHold | Self::Processing | Self::Completed
        )
    }
}

/// A variation attribute as chosen ("Color" → "Blue").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ItemAttribute {
    pub attribute: String,
    pub value: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaxAmount {
    pub rate_id: u64,
    pub amount: i64,
}

/// A product line. Amounts in minor units before tax, the tax beside them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrderItem {
    pub id: i64,
    /// The product, or a variation's parent.
    pub product_id: i64,
    /// The variation bought, 0 for none.
    pub variation_id: i64,
    pub name: String,
    pub sku: String,
    pub quantity: i64,
    pub variation: Vec<ItemAttribute>,
    /// The unit price as the catalogue showed it.
    pub price: i64,
    pub subtotal: i64,
    pub subtotal_tax: i64,
    pub total: i64,
    pub total_tax: i64,
    pub taxes: Vec<TaxAmount>,
    /// Whether this line took stock (a managed-stock product).
    #[serde(default)]
    pub reduced_stock: bool,
}

impl OrderItem {
    /// The product whose stock the line takes: the variation bought, else the product.
    pub fn stock_id(&self) -> i64 {
        if self.variation_id != 0 {
            self.variation_id
        } else {
            self.product_id
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShippingLine {
    pub method_id: String,
    pub instance_id: u64,
    pub name: String,
    pub total: i64,
    pub total_tax: i64,
    pub taxes: Vec<TaxAmount>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CouponLine {
    pub code: String,
    pub discount: i64,
    pub discount_tax: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrderTaxLine {
    pub rate_id: u64,
    pub label: String,
    /// The rate as the checkout showed it ("7.25%").
    pub rate_percent: String,
    pub compound: bool,
    pub tax_total: i64,
    pub shipping_tax_total: i64,
}

/// Everything an order lists, kept together as one document.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct OrderLines {
    pub items: Vec<OrderItem>,
    pub shipping: Vec<ShippingLine>,
    pub coupons: Vec<CouponLine>,
    pub taxes: Vec<OrderTaxLine>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Order {
    pub id: OrderId,
    pub key: String,
    pub status: OrderStatus,
    pub customer_id: Option<i64>,
    pub currency: String,
    pub prices_include_tax: bool,
    pub billing: Address,
    pub shipping: Address,
    pub customer_note: String,
    pub payment_method: String,
    pub payment_method_title: String,
    pub transaction_id: String,
    pub created_via: String,
    pub cart_hash: String,
    pub lines: OrderLines,
    pub subtotal: i64,
    pub discount_total: i64,
    pub discount_tax: i64,
    pub shipping_total: i64,
    pub shipping_tax: i64,
    pub total_tax: i64,
    pub total: i64,
    pub stock_reduced: bool,
    pub hold_expires_at: Option<i64>,
    pub created_at: i64,
    pub updated_at: i64,
    pub paid_at: Option<i64>,
    pub completed_at: Option<i64>,
}

impl Order {
    /// The number shown to customers; the id, as in the original shop.
    pub fn number(&self) -> String {
        self.id.0.to_string()
    }

    pub fn item_count(&self) -> i64 {
        self.lines.items.iter().map(|i| i.quantity).sum()
    }

    pub fn received_path(&self) -> String {
        format!("/checkout/order-received/{}/?key={}", self.id.0, self.key)
    }

    pub fn pay_path(&self) -> String {
        format!(
            "/checkout/order-pay/{}/?pay_for_order=true&key={}",
            self.id.0, self.key
        )
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct NoteId(pub i64);

/// A note on an order: a status change or a message, who made it and when.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderNote {
    pub id: NoteId,
    pub order_id: OrderId,
    pub note: String,
    /// Written for the customer (and mailed to them), not only for the shop.
    pub for_customer: bool,
    /// Who made the change: "system", "staff (command line)", an API key's name.
    pub actor: String,
    pub created_at: i64,
}

/// A fresh order key: `wc_order_` and 13 letters and digits, as the original writes them.
pub fn new_order_key() -> String {
    use rand::Rng;
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    let mut rng = rand::thread_rng();
    let tail: String = (0..13)
        .map(|_| ALPHABET[rng.gen_range(0..ALPHABET.len())] as char)
        .collect();
    format!("wc_order_{tail}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_round_trip_through_their_names() {
        for status in OrderStatus::ALL {
            assert_eq!(OrderStatus::parse(status.as_str()), Some(status));
        }
        assert_eq!(OrderStatus::parse("shipped"), None);
        assert_eq!(
            OrderStatus::parse_placed("wc-on-hold"),
            Some(OrderStatus::OnHold)
        );
        assert_eq!(OrderStatus::parse_placed("checkout-draft"), None);
    }

    #[test]
    fn order_keys_look_like_the_original_shops() {
        let key = new_order_key();
        assert!(key.starts_with("wc_order_"));
        assert_eq!(key.len(), 22);
        assert!(key[9..].chars().all(|c| c.is_ascii_alphanumeric()));
        assert_ne!(key, new_order_key());
    }
}
