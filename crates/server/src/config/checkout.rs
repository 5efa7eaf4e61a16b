//! How the shop runs its checkout: guest checkout, accounts at checkout, terms, how long
//! unpaid orders hold stock or wait for their money, and the payment methods offered.

use serde::Deserialize;

use rules::payments::{BankAccount, Gateway, GatewayKind, Gateways, MethodTexts, PaymentSettings};
use rules::settings::{bad, parse_yes_no, ConfigError};

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
    /// Days an on-hold bank-transfer order waits for its money before it is cancelled
    /// and its stock released; 0 keeps it waiting.
    pub unpaid_days_bacs: i64,
    /// The same for cheques.
    pub unpaid_days_cheque: i64,
    /// The payment methods as configured.
    pub payments: PaymentSettings,
    /// The payment methods offered: `payments` as `offer_payments` found them usable.
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
        let payments = PaymentSettings::default();
        let (gateways, _) = payments.offer("");
        Self {
            guest_checkout: true,
            signup_at_checkout: true,
            terms: None,
            hold_stock_minutes: 60,
            default_country: "US".into(),
            unpaid_days_bacs: 7,
            unpaid_days_cheque: 7,
            payments,
            gateways,
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
    unpaid_days_bacs: Option<i64>,
    unpaid_days_cheque: Option<i64>,
    bacs: Option<MethodTexts>,
    cheque: Option<ChequeFile>,
    cod: Option<MethodTexts>,
}

/// `[checkout.cheque]`: the method's wording, and where cheques go.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChequeFile {
    title: Option<String>,
    description: Option<String>,
    instructions: Option<String>,
    payee: Option<String>,
    address: Option<String>,
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
            self.payments.bank_accounts = v;
        }
        if let Some(v) = file.unpaid_days_bacs {
            self.unpaid_days_bacs = unpaid_days("checkout.unpaid_days_bacs", v)?;
        }
        if let Some(v) = file.unpaid_days_cheque {
            self.unpaid_days_cheque = unpaid_days("checkout.unpaid_days_cheque", v)?;
        }
        if let Some(t) = file.bacs {
            self.payments.bacs = t;
        }
        if let Some(t) = file.cod {
            self.payments.cod = t;
        }
        if let Some(c) = file.cheque {
            self.payments.cheque = MethodTexts {
                title: c.title,
                description: c.description,
                instructions: c.instructions,
            };
            if let Some(v) = c.payee {
                self.payments.cheque_payee = v;
            }
            if let Some(v) = c.address {
                self.payments.cheque_address = v;
            }
        }
        Ok(())
    }

    pub fn apply_env(&mut self, get: &impl Fn(&str) -> Option<String>) -> Result<(), ConfigError> {
        if let Some(v) = get("FERROSHOP_GUEST_CHECKOUT") {
            self.guest_checkout = parse_yes_no("FERROSHOP_GUEST_CHECKOUT", &v)?;
        }
        if let Some(v) = get("FERROSHOP_SIGNUP_AT_CHECKOUT") {
            self.signup_at_checkout = parse_yes_no("FERROSHOP_SIGNUP_AT_CHECKOUT", &v)?;
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
        for (name, field) in [
            ("FERROSHOP_UNPAID_DAYS_BACS", &mut self.unpaid_days_bacs),
            ("FERROSHOP_UNPAID_DAYS_CHEQUE", &mut self.unpaid_days_cheque),
        ] {
            if let Some(v) = get(name) {
                let days = v
                    .trim()
                    .parse()
                    .map_err(|_| bad(name, "expected a number of days"))?;
                *field = unpaid_days(name, days)?;
            }
        }
        for (kind, prefix) in [
            (GatewayKind::Bacs, "FERROSHOP_BACS"),
            (GatewayKind::Cheque, "FERROSHOP_CHEQUE"),
            (GatewayKind::Cod, "FERROSHOP_COD"),
        ] {
            let Some(texts) = self.payments.texts_mut(kind) else {
                continue;
            };
            for (suffix, field) in [
                ("TITLE", &mut texts.title),
                ("DESCRIPTION", &mut texts.description),
                ("INSTRUCTIONS", &mut texts.instructions),
            ] {
                if let Some(v) = get(&format!("{prefix}_{suffix}")) {
                    *field = Some(v);
                }
            }
        }
        if let Some(v) = get("FERROSHOP_CHEQUE_PAYEE") {
            self.payments.cheque_payee = v;
        }
        if let Some(v) = get("FERROSHOP_CHEQUE_ADDRESS") {
            self.payments.cheque_address = v;
        }
        // One account from the environment replaces those of the file.
        let account = BankAccount {
            account_name: get("FERROSHOP_BANK_ACCOUNT_NAME").unwrap_or_default(),
            account_number: get("FERROSHOP_BANK_ACCOUNT_NUMBER").unwrap_or_default(),
            bank_name: get("FERROSHOP_BANK_NAME").unwrap_or_default(),
            sort_code: get("FERROSHOP_BANK_SORT_CODE").unwrap_or_default(),
            iban: get("FERROSHOP_BANK_IBAN").unwrap_or_default(),
            bic: get("FERROSHOP_BANK_BIC").unwrap_or_default(),
        };
        if account != BankAccount::default() {
            self.payments.bank_accounts = vec![account];
        }
        Ok(())
    }

    /// Decides which payment methods are offered, from `payments`; call it once the
    /// settings are complete (at start-up). Returns a warning for each method left out.
    pub fn offer_payments(&mut self, shop_name: &str) -> Vec<String> {
        let (gateways, warnings) = self.payments.offer(shop_name);
        self.gateways = gateways;
        warnings
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
            if !list.contains(&kind) {
                list.push(kind);
            }
        }
        self.payments.methods = list;
        Ok(())
    }
}

fn unpaid_days(setting: &str, days: i64) -> Result<i64, ConfigError> {
    if !(0..=365).contains(&days) {
        return Err(bad(setting, "expected 0 (never cancel) to 365 days"));
    }
    Ok(days)
}

#[cfg(test)]
mod tests {
    use super::*;

    use rules::settings::test_env as env;

    #[test]
    fn payment_details_come_from_the_environment() {
        let mut c = CheckoutConfig::default();
        c.apply_env(&env(&[
            ("FERROSHOP_BANK_IBAN", "DE89370400440532013000"),
            ("FERROSHOP_BANK_ACCOUNT_NAME", "Lumen GmbH"),
            ("FERROSHOP_CHEQUE_ADDRESS", "Hauptstr. 1, Berlin"),
            ("FERROSHOP_COD_TITLE", "Barzahlung"),
            ("FERROSHOP_UNPAID_DAYS_BACS", "3"),
            ("FERROSHOP_UNPAID_DAYS_CHEQUE", "0"),
        ]))
        .unwrap();
        assert!(c.offer_payments("Lumen").is_empty());
        assert_eq!(c.gateways.ids(), vec!["bacs", "cheque", "cod"]);
        assert_eq!(c.gateways.bank_accounts[0].account_name, "Lumen GmbH");
        assert_eq!(c.gateways.find("cod").unwrap().title, "Barzahlung");
        assert_eq!((c.unpaid_days_bacs, c.unpaid_days_cheque), (3, 0));
        let err = c
            .apply_env(&env(&[("FERROSHOP_UNPAID_DAYS_CHEQUE", "-1")]))
            .unwrap_err();
        assert_eq!(err.setting, "FERROSHOP_UNPAID_DAYS_CHEQUE");
    }

    #[test]
    fn payment_details_come_from_the_file() {
        let file: CheckoutFile = toml::from_str(
            r#"
            unpaid_days_cheque = 14
            [bacs]
            title = "Bank transfer"
            [cheque]
            payee = "Lumen Ltd"
            address = "12 High Street, Bath"
            [[bank_accounts]]
            account_name = "Lumen Ltd"
            account_number = "87654321"
            "#,
        )
        .unwrap();
        let mut c = CheckoutConfig::default();
        c.apply_file(file).unwrap();
        assert!(c.offer_payments("Lumen").is_empty());
        assert_eq!(c.unpaid_days_cheque, 14);
        assert_eq!(c.gateways.find("bacs").unwrap().title, "Bank transfer");
        assert_eq!(
            c.gateways.find("cheque").unwrap().instructions,
            "Please send a check to Lumen Ltd, 12 High Street, Bath."
        );
        assert!(toml::from_str::<CheckoutFile>("[cheque]\npayee_name = \"x\"").is_err());
    }
}
