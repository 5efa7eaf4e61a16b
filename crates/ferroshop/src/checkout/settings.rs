//! How the shop runs its checkout: guest checkout, accounts at checkout, terms, how long
//! unpaid orders hold stock, and the payment methods offered.

use serde::Deserialize;

use crate::config::ConfigError;
use crate::payments::{BankAccount, Gateway, GatewayKind, Gateways};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckoutConfig {
    /// Shoppers may check out without an account (`option_guest_checkout`).
    pub guest_checkout: bool,
    /// Shoppers may create an account while checking out.
    pub signup_at_checkout: bool,
    /// Terms and conditions shoppers must accept; none means no terms checkbox.
    pub terms: Option<Terms>,
    /// Minutes an unpaid (pending) order keeps its stock before it is cancelled.
    pub hold_stock_minutes: i64,
    /// The country the checkout form starts with.
    pub default_country: String,
    pub gateways: Gateways,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Terms {
    pub text: String,
    /// A page with the full terms, if the shop has one; empty shows them in place.
    pub page_url: String,
}

/// What the demo shop shows as its terms.
pub fn demo_terms() -> Terms {
    Terms {
        text: "Orders are dispatched within two working days. You may return unused items within 30 days for a full refund. Prices include the taxes shown at checkout. Your personal data is used only to process your order.".into(),
        page_url: String::new(),
    }
}

impl Default for CheckoutConfig {
    fn default() -> Self {
        Self {
            guest_checkout: true,
            signup_at_checkout: true,
            terms: None,
            hold_stock_minutes: 60,
            default_country: "US".into(),
            gateways: Gateways {
                list: [GatewayKind::Bacs, GatewayKind::Cheque, GatewayKind::Cod]
                    .map(Gateway::offline)
                    .to_vec(),
                bank_accounts: vec![BankAccount {
                    account_name: "Ferroshop Ltd".into(),
                    account_number: "12345678".into(),
                    bank_name: "First Example Bank".into(),
                    sort_code: "12-34-56".into(),
                    iban: "GB33BUKB20201555555555".into(),
                    bic: "BUKBGB22".into(),
                }],
            },
        }
    }
}

/// The `[checkout]` table of the configuration file.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckoutFile {
    guest_checkout: Option<bool>,
    signup_at_checkout: Option<bool>,
    terms_text: Option<String>,
    terms_page_url: Option<String>,
    hold_stock_minutes: Option<i64>,
    default_country: Option<String>,
    payment_methods: Option<Vec<String>>,
    bank_accounts: Option<Vec<BankAccount>>,
}

fn bad(setting: &str, problem: &str) -> ConfigError {
    ConfigError {
        setting: setting.into(),
        problem: problem.into(),
    }
}

impl CheckoutConfig {
    pub fn apply_file(&mut self, file: CheckoutFile) -> Result<(), ConfigError> {
        if let Some(v) = file.guest_checkout {
            self.guest_checkout = v;
        }
        if let Some(v) = file.signup_at_checkout {
            self.signup_at_checkout = v;
        }
        if let Some(text) = file.terms_text {
            self.set_terms(text, file.terms_page_url);
        }
        if let Some(v) = file.hold_stock_minutes {
            self.set_hold("checkout.hold_stock_minutes", v)?;
        }
        if let Some(v) = file.default_country {
            self.set_country("checkout.default_country", &v)?;
        }
        if let Some(v) = file.payment_methods {
            self.set_methods("checkout.payment_methods", &v)?;
        }
        if let Some(v) = file.bank_accounts {
            self.gateways.bank_accounts = v;
        }
        Ok(())
    }

    pub fn apply_env(&mut self, get: &impl Fn(&str) -> Option<String>) -> Result<(), ConfigError> {
        if let Some(v) = get("FERROSHOP_GUEST_CHECKOUT") {
            self.guest_checkout = yes_no("FERROSHOP_GUEST_CHECKOUT", &v)?;
        }
        if let Some(v) = get("FERROSHOP_SIGNUP_AT_CHECKOUT") {
            self.signup_at_checkout = yes_no("FERROSHOP_SIGNUP_AT_CHECKOUT", &v)?;
        }
        if let Some(v) = get("FERROSHOP_TERMS_TEXT") {
            self.set_terms(v, get("FERROSHOP_TERMS_PAGE_URL"));
        }
        if let Some(v) = get("FERROSHOP_HOLD_STOCK_MINUTES") {
            let minutes = v.trim().parse().map_err(|_| {
                bad(
                    "FERROSHOP_HOLD_STOCK_MINUTES",
                    "expected a number of minutes",
                )
            })?;
            self.set_hold("FERROSHOP_HOLD_STOCK_MINUTES", minutes)?;
        }
        if let Some(v) = get("FERROSHOP_DEFAULT_COUNTRY") {
            self.set_country("FERROSHOP_DEFAULT_COUNTRY", &v)?;
        }
        if let Some(v) = get("FERROSHOP_PAYMENT_METHODS") {
            let ids: Vec<String> = v.split(',').map(|s| s.trim().to_string()).collect();
            self.set_methods("FERROSHOP_PAYMENT_METHODS", &ids)?;
        }
        Ok(())
    }

    fn set_terms(&mut self, text: String, page_url: Option<String>) {
        self.terms = if text.trim().is_empty() {
            None
        } else {
            Some(Terms {
                text,
                page_url: page_url.unwrap_or_default(),
            })
        };
    }

    fn set_hold(&mut self, setting: &str, minutes: i64) -> Result<(), ConfigError> {
        if !(1..=60 * 24 * 30).contains(&minutes) {
            return Err(bad(setting, "expected 1 to 43200 minutes"));
        }
        self.hold_stock_minutes = minutes;
        Ok(())
    }

    fn set_country(&mut self, setting: &str, code: &str) -> Result<(), ConfigError> {
        let code = code.trim().to_uppercase();
        if code.len() != 2 || !code.bytes().all(|b| b.is_ascii_uppercase()) {
            return Err(bad(setting, "expected a two-letter country code"));
        }
        self.default_country = code;
        Ok(())
    }

    fn set_methods(&mut self, setting: &str, ids: &[String]) -> Result<(), ConfigError> {
        let mut list = Vec::new();
        for id in ids.iter().filter(|id| !id.is_empty()) {
            let kind = Gateway::parse_id(id)
                .ok_or_else(|| bad(setting, "payment methods are bacs, cheque and cod"))?;
            if list.iter().all(|g: &Gateway| g.kind != kind) {
                list.push(Gateway::offline(kind));
            }
        }
        self.gateways.list = list;
        Ok(())
    }
}

fn yes_no(setting: &str, v: &str) -> Result<bool, ConfigError> {
    match v.trim().to_ascii_lowercase().as_str() {
        "yes" | "true" | "1" | "on" => Ok(true),
        "no" | "false" | "0" | "off" => Ok(false),
        _ => Err(bad(setting, "expected yes or no")),
    }
}
