//! Payment methods. Checkout asks the chosen gateway what becomes of a placed order;
//! offline methods answer at once, and the provider's methods (`methods`) place the
//! order pending, to be settled by what the provider says of its payment (`intents`).

pub mod intents;
pub mod messages;
pub mod methods;
pub mod returns;

use serde::{Deserialize, Serialize};

use crate::orders::model::OrderStatus;
use methods::MethodType;

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
    /// Paid at the card payment provider with one of its method types.
    Provider(MethodType),
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
    /// A method with its built-in wording. The cheque's text names no one: a shop
    /// offering cheques sets where they go (`PaymentSettings::cheque_address`).
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
                description: "Please send us a check for the order total.".into(),
                instructions: "Please send us a check for the order total.".into(),
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
            GatewayKind::Provider(method) => Self::provider(method),
        }
    }

    /// A method of the payment provider, with its own title.
    pub fn provider(method: MethodType) -> Self {
        let info = method.info();
        Self {
            id: info.gateway_id,
            kind: GatewayKind::Provider(method),
            title: info.title.into(),
            description: String::new(),
            instructions: String::new(),
            order_button_text: None,
        }
    }

    /// The provider's method type, for a provider gateway.
    pub fn provider_method(&self) -> Option<MethodType> {
        match self.kind {
            GatewayKind::Provider(method) => Some(method),
            _ => None,
        }
    }

    /// The method with the shop's own wording laid over the built-in one.
    fn with_texts(mut self, texts: &MethodTexts) -> Self {
        let set = |field: &mut String, value: &Option<String>| {
            if let Some(v) = value.as_ref().filter(|v| !v.trim().is_empty()) {
                *field = v.trim().to_string();
            }
        };
        set(&mut self.title, &texts.title);
        set(&mut self.description, &texts.description);
        set(&mut self.instructions, &texts.instructions);
        self
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
            GatewayKind::Provider(_) => (OrderStatus::Pending, "Awaiting payment."),
        }
    }
}

/// The shop's own wording for a payment method; what is left out keeps the default.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MethodTexts {
    pub title: Option<String>,
    /// Shown with the method at checkout.
    pub description: Option<String>,
    /// Shown once the order is placed (thank-you page and mails).
    pub instructions: Option<String>,
}

/// The payment methods as configured. Which of them are offered is decided once, at
/// start-up, by `offer`: a method that cannot be paid with as configured (a bank
/// transfer with no account to pay into, a cheque with nowhere to send it) is left out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaymentSettings {
    /// The methods the shop wants to offer, in order.
    pub methods: Vec<GatewayKind>,
    pub bacs: MethodTexts,
    pub cheque: MethodTexts,
    pub cod: MethodTexts,
    /// Whom cheques are made out to; the shop's name when empty.
    pub cheque_payee: String,
    /// Where cheques are sent. Cheques are not offered without it.
    pub cheque_address: String,
    /// The accounts shown for bank transfers. Bank transfer is not offered without one.
    pub bank_accounts: Vec<BankAccount>,
}

impl Default for PaymentSettings {
    fn default() -> Self {
        Self {
            methods: vec![GatewayKind::Bacs, GatewayKind::Cheque, GatewayKind::Cod],
            bacs: MethodTexts::default(),
            cheque: MethodTexts::default(),
            cod: MethodTexts::default(),
            cheque_payee: String::new(),
            cheque_address: String::new(),
            bank_accounts: Vec::new(),
        }
    }
}

impl BankAccount {
    /// Whether a shopper could pay into it.
    pub fn is_usable(&self) -> bool {
        !self.account_number.trim().is_empty() || !self.iban.trim().is_empty()
    }
}

impl PaymentSettings {
    /// The gateways to offer, and for each wanted method left out a warning naming the
    /// setting that would bring it back.
    pub fn offer(&self, shop_name: &str) -> (Gateways, Vec<String>) {
        let mut list = Vec::new();
        let mut warnings = Vec::new();
        for &kind in &self.methods {
            let gateway = Gateway::offline(kind);
            let gateway = match kind {
                GatewayKind::Bacs => {
                    if !self.bank_accounts.iter().any(BankAccount::is_usable) {
                        warnings.push(
                            "bank transfer (bacs) is not offered: no bank account to pay into; set [[checkout.bank_accounts]] in the configuration file or FERROSHOP_BANK_ACCOUNT_NUMBER / FERROSHOP_BANK_IBAN"
                                .to_string(),
                        );
                        continue;
                    }
                    gateway.with_texts(&self.bacs)
                }
                GatewayKind::Cheque => {
                    let address = self.cheque_address.trim();
                    if address.is_empty() {
                        warnings.push(
                            "cheque payments are not offered: no address to send cheques to; set checkout.cheque.address in the configuration file or FERROSHOP_CHEQUE_ADDRESS"
                                .to_string(),
                        );
                        continue;
                    }
                    let payee = match self.cheque_payee.trim() {
                        "" => shop_name.trim(),
                        payee => payee,
                    };
                    let text = format!("Please send a check to {payee}, {address}.");
                    let mut gateway = gateway;
                    gateway.description = text.clone();
                    gateway.instructions = text;
                    gateway.with_texts(&self.cheque)
                }
                GatewayKind::Cod => gateway.with_texts(&self.cod),
                // Offered by the provider settings when the shop has its keys.
                GatewayKind::Provider(_) => continue,
            };
            list.push(gateway);
        }
        (
            Gateways {
                list,
                bank_accounts: self
                    .bank_accounts
                    .iter()
                    .filter(|a| a.is_usable())
                    .cloned()
                    .collect(),
            },
            warnings,
        )
    }

    /// Sample payment details for the demo shop, where the shop has none of its own.
    pub fn fill_demo(&mut self) {
        if !self.bank_accounts.iter().any(BankAccount::is_usable) {
            self.bank_accounts = vec![BankAccount {
                account_name: "Ferroshop Demo".into(),
                account_number: "12345678".into(),
                bank_name: "Demo Savings Bank".into(),
                sort_code: "12-34-56".into(),
                iban: "GB33BUKB20201555555555".into(),
                bic: "BUKBGB22".into(),
            }];
        }
        if self.cheque_address.trim().is_empty() {
            self.cheque_address = "1 Market Street, San Francisco, CA 94105".into();
        }
    }

    /// The shop's wording of an offline method; None for the provider's methods,
    /// whose wording is the provider settings'.
    pub fn texts_mut(&mut self, kind: GatewayKind) -> Option<&mut MethodTexts> {
        match kind {
            GatewayKind::Bacs => Some(&mut self.bacs),
            GatewayKind::Cheque => Some(&mut self.cheque),
            GatewayKind::Cod => Some(&mut self.cod),
            GatewayKind::Provider(_) => None,
        }
    }
}

/// The shop's offered payment methods, in the order shoppers see them.
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

    fn account() -> BankAccount {
        BankAccount {
            account_name: "Lumen Ltd".into(),
            iban: "GB33BUKB20201555555555".into(),
            ..BankAccount::default()
        }
    }

    #[test]
    fn methods_without_their_details_are_not_offered_and_say_what_to_set() {
        let (gateways, warnings) = PaymentSettings::default().offer("Lumen");
        assert_eq!(gateways.ids(), vec!["cod"]);
        assert_eq!(warnings.len(), 2);
        assert!(warnings[0].contains("FERROSHOP_BANK_ACCOUNT_NUMBER"));
        assert!(warnings[1].contains("FERROSHOP_CHEQUE_ADDRESS"));
        // An account with neither a number nor an IBAN cannot be paid into.
        let settings = PaymentSettings {
            bank_accounts: vec![BankAccount {
                account_name: "Lumen Ltd".into(),
                ..BankAccount::default()
            }],
            ..PaymentSettings::default()
        };
        assert!(settings.offer("Lumen").0.find("bacs").is_none());
    }

    #[test]
    fn the_cheque_text_names_the_payee_and_address() {
        let settings = PaymentSettings {
            cheque_address: "12 High Street, Bath BA1 1AA".into(),
            bank_accounts: vec![account()],
            ..PaymentSettings::default()
        };
        let (gateways, warnings) = settings.offer("Lumen & Loom");
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(gateways.ids(), vec!["bacs", "cheque", "cod"]);
        assert_eq!(
            gateways.find("cheque").unwrap().instructions,
            "Please send a check to Lumen & Loom, 12 High Street, Bath BA1 1AA."
        );
        let settings = PaymentSettings {
            cheque_payee: "Lumen Ltd".into(),
            ..settings
        };
        assert_eq!(
            settings
                .offer("Lumen & Loom")
                .0
                .find("cheque")
                .unwrap()
                .description,
            "Please send a check to Lumen Ltd, 12 High Street, Bath BA1 1AA."
        );
    }

    #[test]
    fn the_shops_own_wording_replaces_the_defaults() {
        let mut settings = PaymentSettings {
            methods: vec![GatewayKind::Cod, GatewayKind::Bacs],
            bank_accounts: vec![account()],
            ..PaymentSettings::default()
        };
        settings.texts_mut(GatewayKind::Cod).unwrap().title = Some("Pay at the door".into());
        settings.bacs.instructions = Some("Quote your order number.".into());
        let (gateways, _) = settings.offer("Lumen");
        assert_eq!(gateways.ids(), vec!["cod", "bacs"]);
        assert_eq!(gateways.list[0].title, "Pay at the door");
        assert_eq!(gateways.list[0].description, "Pay with cash upon delivery.");
        assert_eq!(gateways.list[1].instructions, "Quote your order number.");
    }

    #[test]
    fn the_demo_fills_in_sample_details_only_where_none_are_set() {
        let mut settings = PaymentSettings {
            cheque_address: "12 High Street".into(),
            ..PaymentSettings::default()
        };
        settings.fill_demo();
        assert_eq!(settings.cheque_address, "12 High Street");
        let (gateways, warnings) = settings.offer("Ferroshop");
        assert!(warnings.is_empty());
        assert_eq!(gateways.ids(), vec!["bacs", "cheque", "cod"]);
    }
}
