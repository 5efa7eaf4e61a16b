//! Payment methods. Checkout asks the chosen gateway what becomes of a placed order;
//! offline methods answer at once, and the card gateway (a later stage) plugs in here
//! as another `Gateway` whose orders start pending and are settled by the provider.

use serde::{Deserialize, Serialize};

use crate::orders::model::OrderStatus;

/// A bank account shown for direct bank transfers.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct BankAccount {
    pub account_name: String,
    pub account_number: String,
    pub bank_name: String,
    pub sort_code: String,
    pub iban: String,
    pub bic: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GatewayKind {
    /// Direct bank transfer: the order waits on hold for the money.
    Bacs,
    Cheque,
    /// Cash on delivery: fulfilled at once, paid at the door.
    Cod,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Gateway {
    pub id: &'static str,
    pub kind: GatewayKind,
    pub title: String,
    pub description: String,
    /// Shown after the order is placed (thank-you page and e-mails).
    pub instructions: String,
    pub order_button_text: Option<String>,
}

impl Gateway {
    pub fn offline(kind: GatewayKind) -> Self {
        match kind {
            GatewayKind::Bacs => Self {
                id: "bacs",
                kind,
                title: "Direct bank transfer".into(),
                description: "Make your payment directly into our bank account. Please use your Order ID as the payment reference. Your order will not be shipped until the funds have cleared in our account.".into(),
                instructions: "Make your payment directly into our bank account. Please use your Order ID as the payment reference. Your order will not be shipped until the funds have cleared in our account.".into(),
                order_button_text: None,
            },
            GatewayKind::Cheque => Self {
                id: "cheque",
                kind,
                title: "Check payments".into(),
                description: "Please send a check to Store Name, Store Street, Store Town, Store State / County, Store Postcode.".into(),
                instructions: "Please send a check to Store Name, Store Street, Store Town, Store State / County, Store Postcode.".into(),
                order_button_text: None,
            },
            GatewayKind::Cod => Self {
                id: "cod",
                kind,
                title: "Cash on delivery".into(),
                description: "Pay with cash upon delivery.".into(),
                instructions: "Pay with cash upon delivery.".into(),
                order_button_text: None,
            },
        }
    }

    pub fn parse_id(id: &str) -> Option<GatewayKind> {
        match id {
            "bacs" => Some(GatewayKind::Bacs),
            "cheque" => Some(GatewayKind::Cheque),
            "cod" => Some(GatewayKind::Cod),
            _ => None,
        }
    }

    /// The status a placed order takes with this method, and the note recorded.
    pub fn placed_status(&self) -> (OrderStatus, &'static str) {
        match self.kind {
            GatewayKind::Bacs => (OrderStatus::OnHold, "Awaiting BACS payment"),
            GatewayKind::Cheque => (OrderStatus::OnHold, "Awaiting check payment"),
            GatewayKind::Cod => (OrderStatus::Processing, "Payment to be made upon delivery."),
        }
    }
}

/// The shop's enabled payment methods, in the order shoppers see them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Gateways {
    pub list: Vec<Gateway>,
    pub bank_accounts: Vec<BankAccount>,
}

impl Gateways {
    pub fn find(&self, id: &str) -> Option<&Gateway> {
        self.list.iter().find(|g| g.id == id)
    }

    pub fn ids(&self) -> Vec<&'static str> {
        self.list.iter().map(|g| g.id).collect()
    }

    /// "bacs, cheque, and cod", as the original lists allowed values.
    pub fn ids_sentence(&self) -> String {
        let ids = self.ids();
        match ids.as_slice() {
            [] => String::new(),
            [one] => (*one).to_string(),
            [a, b] => format!("{a} and {b}"),
            [rest @ .., last] => format!("{}, and {last}", rest.join(", ")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allowed_methods_read_as_a_sentence() {
        let gateways = Gateways {
            list: [GatewayKind::Bacs, GatewayKind::Cheque, GatewayKind::Cod]
                .map(Gateway::offline)
                .to_vec(),
            bank_accounts: Vec::new(),
        };
        assert_eq!(gateways.ids_sentence(), "bacs, cheque, and cod");
    }

    #[test]
    fn offline_methods_place_orders_on_hold_or_processing() {
        assert_eq!(
            Gateway::offline(GatewayKind::Bacs).placed_status().0,
            OrderStatus::OnHold
        );
        assert_eq!(
            Gateway::offline(GatewayKind::Cod).placed_status().0,
            OrderStatus::Processing
        );
    }
}
