//! The card payment provider's settings: the keys, the webhook secret, which method
//! types are offered, how cards are captured and kept. Without the keys the provider's
//! methods are not offered and the offline methods work alone. Secrets are read from
//! the file or the environment into types that never print.

use serde::Deserialize;

use payments::{PublishableKey, SecretKey, WebhookSecret};
use rules::payments::methods::MethodType;
use rules::settings::{bad, parse_yes_no, ConfigError};

/// When the money of an authorised card payment is taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Capture {
    /// At once, when the shopper pays.
    Automatic,
    /// Later, when the shop processes the order (staff capture it).
    Manual,
}

/// The one-checkout layouts of the provider's element.
pub const LAYOUTS: [&str; 2] = ["accordion", "tabs"];

#[derive(Debug, Clone)]
pub struct PaymentsConfig {
    pub publishable_key: Option<PublishableKey>,
    pub secret_key: Option<SecretKey>,
    pub webhook_secret: Option<WebhookSecret>,
    /// The provider's API, `FERROSHOP_STRIPE_API_BASE` (a local emulator in tests).
    pub api_base: String,
    /// The method types offered, in order.
    pub methods: Vec<MethodType>,
    /// Shown on the shopper's card statement; empty: the account's own.
    pub statement_descriptor: String,
    pub capture: Capture,
    /// Logged-in shoppers may keep cards for later purchases.
    pub saved_cards: bool,
    /// All methods in one element (`isOCEnabled`), laid out as `layout`.
    pub one_checkout: bool,
    pub layout: String,
    /// The card method's title and description at checkout.
    pub title: String,
    pub description: String,
    /// The provider's express checkout (Apple Pay, Google Pay, Link) on product, cart
    /// and checkout pages; it takes effect only while the shop is connected.
    pub express_checkout: bool,
}

impl Default for PaymentsConfig {
    fn default() -> Self {
        Self {
            publishable_key: None,
            secret_key: None,
            webhook_secret: None,
            api_base: payments::DEFAULT_BASE_URL.to_string(),
            methods: vec![MethodType::Card],
            statement_descriptor: String::new(),
            capture: Capture::Automatic,
            saved_cards: true,
            one_checkout: false,
            layout: "accordion".into(),
            title: MethodType::Card.info().title.into(),
            description: String::new(),
            express_checkout: true,
        }
    }
}

/// `[payments]` in the configuration file.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PaymentsFile {
    publishable_key: Option<String>,
    secret_key: Option<SecretKey>,
    webhook_secret: Option<WebhookSecret>,
    api_base: Option<String>,
    methods: Option<Vec<String>>,
    statement_descriptor: Option<String>,
    capture: Option<String>,
    saved_cards: Option<bool>,
    one_checkout: Option<bool>,
    layout: Option<String>,
    title: Option<String>,
    description: Option<String>,
    express_checkout: Option<bool>,
}

impl PaymentsConfig {
    /// Whether the provider's methods can be offered: both keys are set.
    pub fn is_connected(&self) -> bool {
        self.publishable_key.is_some() && self.secret_key.is_some()
    }

    /// Whether the express checkout buttons are offered: switched on, and connected.
    pub fn offers_express_checkout(&self) -> bool {
        self.express_checkout && self.is_connected()
    }

    pub fn apply_file(&mut self, file: PaymentsFile) -> Result<(), ConfigError> {
        if let Some(v) = file.publishable_key {
            self.set_publishable("payments.publishable_key", &v)?;
        }
        if let Some(v) = file.secret_key {
            self.secret_key = Some(v);
        }
        if let Some(v) = file.webhook_secret {
            self.webhook_secret = Some(v);
        }
        if let Some(v) = file.api_base {
            self.set_api_base("payments.api_base", &v)?;
        }
        if let Some(v) = file.methods {
            self.set_methods("payments.methods", &v)?;
        }
        if let Some(v) = file.statement_descriptor {
            self.set_descriptor("payments.statement_descriptor", &v)?;
        }
        if let Some(v) = file.capture {
            self.set_capture("payments.capture", &v)?;
        }
        if let Some(v) = file.saved_cards {
            self.saved_cards = v;
        }
        if let Some(v) = file.one_checkout {
            self.one_checkout = v;
        }
        if let Some(v) = file.layout {
            self.set_layout("payments.layout", &v)?;
        }
        if let Some(v) = file.title.filter(|t| !t.trim().is_empty()) {
            self.title = v.trim().to_string();
        }
        if let Some(v) = file.description {
            self.description = v;
        }
        if let Some(v) = file.express_checkout {
            self.express_checkout = v;
        }
        Ok(())
    }

    pub fn apply_env(&mut self, get: &impl Fn(&str) -> Option<String>) -> Result<(), ConfigError> {
        if let Some(v) = get("FERROSHOP_STRIPE_PUBLISHABLE_KEY") {
            self.set_publishable("FERROSHOP_STRIPE_PUBLISHABLE_KEY", &v)?;
        }
        if let Some(v) = get("FERROSHOP_STRIPE_SECRET_KEY") {
            self.secret_key = Some(
                SecretKey::parse(v.trim())
                    .map_err(|e| bad("FERROSHOP_STRIPE_SECRET_KEY", e.to_string()))?,
            );
        }
        if let Some(v) = get("FERROSHOP_STRIPE_WEBHOOK_SECRET") {
            self.webhook_secret = Some(
                WebhookSecret::parse(v.trim())
                    .map_err(|e| bad("FERROSHOP_STRIPE_WEBHOOK_SECRET", e.to_string()))?,
            );
        }
        if let Some(v) = get("FERROSHOP_STRIPE_API_BASE") {
            self.set_api_base("FERROSHOP_STRIPE_API_BASE", &v)?;
        }
        if let Some(v) = get("FERROSHOP_STRIPE_METHODS") {
            let list: Vec<String> = v.split(',').map(str::to_string).collect();
            self.set_methods("FERROSHOP_STRIPE_METHODS", &list)?;
        }
        if let Some(v) = get("FERROSHOP_STRIPE_STATEMENT_DESCRIPTOR") {
            self.set_descriptor("FERROSHOP_STRIPE_STATEMENT_DESCRIPTOR", &v)?;
        }
        if let Some(v) = get("FERROSHOP_STRIPE_CAPTURE") {
            self.set_capture("FERROSHOP_STRIPE_CAPTURE", &v)?;
        }
        if let Some(v) = get("FERROSHOP_STRIPE_SAVED_CARDS") {
            self.saved_cards = parse_yes_no("FERROSHOP_STRIPE_SAVED_CARDS", &v)?;
        }
        if let Some(v) = get("FERROSHOP_STRIPE_ONE_CHECKOUT") {
            self.one_checkout = parse_yes_no("FERROSHOP_STRIPE_ONE_CHECKOUT", &v)?;
        }
        if let Some(v) = get("FERROSHOP_STRIPE_LAYOUT") {
            self.set_layout("FERROSHOP_STRIPE_LAYOUT", &v)?;
        }
        if let Some(v) = get("FERROSHOP_STRIPE_EXPRESS_CHECKOUT") {
            self.express_checkout = parse_yes_no("FERROSHOP_STRIPE_EXPRESS_CHECKOUT", &v)?;
        }
        Ok(())
    }

    /// Refuses a half-made connection: one key without the other, keys of different
    /// modes, a live key sent anywhere but over HTTPS.
    pub fn check(&self) -> Result<(), ConfigError> {
        match (&self.publishable_key, &self.secret_key) {
            (Some(_), None) => {
                return Err(bad(
                    "FERROSHOP_STRIPE_SECRET_KEY",
                    "the publishable key is set but the secret key is not; set both, or neither",
                ))
            }
            (None, Some(_)) => {
                return Err(bad(
                    "FERROSHOP_STRIPE_PUBLISHABLE_KEY",
                    "the secret key is set but the publishable key is not; set both, or neither",
                ))
            }
            (Some(public), Some(secret)) => {
                let public_live = public.as_str().starts_with("pk_live_");
                if public_live != secret.is_live() {
                    return Err(bad(
                        "FERROSHOP_STRIPE_SECRET_KEY",
                        "the publishable and secret keys are of different modes (one live, one test)",
                    ));
                }
                if secret.is_live() && !self.api_base.starts_with("https://") {
                    return Err(bad(
                        "FERROSHOP_STRIPE_API_BASE",
                        "live keys are only sent over https",
                    ));
                }
            }
            (None, None) => {}
        }
        Ok(())
    }

    fn set_publishable(&mut self, setting: &str, value: &str) -> Result<(), ConfigError> {
        self.publishable_key = match value.trim() {
            "" => None,
            v => Some(PublishableKey::parse(v).map_err(|e| bad(setting, e.to_string()))?),
        };
        Ok(())
    }

    fn set_api_base(&mut self, setting: &str, value: &str) -> Result<(), ConfigError> {
        let v = value.trim().trim_end_matches('/');
        if !(v.starts_with("https://") || v.starts_with("http://")) {
            return Err(bad(setting, "expected an http(s) URL"));
        }
        self.api_base = v.to_string();
        Ok(())
    }

    fn set_methods(&mut self, setting: &str, values: &[String]) -> Result<(), ConfigError> {
        let mut methods = Vec::new();
        for v in values.iter().map(|v| v.trim()).filter(|v| !v.is_empty()) {
            let method = MethodType::parse(v).ok_or_else(|| {
                bad(
                    setting,
                    format!("{v:?} is not a payment method type (card, sepa_debit, ideal, …)"),
                )
            })?;
            if !methods.contains(&method) {
                methods.push(method);
            }
        }
        self.methods = methods;
        Ok(())
    }

    /// The provider's rule: 5 to 22 characters, at least one letter, none of `<>\'"*`.
    fn set_descriptor(&mut self, setting: &str, value: &str) -> Result<(), ConfigError> {
        let v = value.trim();
        if !v.is_empty() {
            let len = v.chars().count();
            if !(5..=22).contains(&len)
                || !v.chars().any(|c| c.is_ascii_alphabetic())
                || v.chars().any(|c| "<>\\'\"*".contains(c) || !c.is_ascii())
            {
                return Err(bad(
                    setting,
                    "5 to 22 plain characters with at least one letter, none of < > \\ ' \" *",
                ));
            }
        }
        self.statement_descriptor = v.to_string();
        Ok(())
    }

    fn set_capture(&mut self, setting: &str, value: &str) -> Result<(), ConfigError> {
        self.capture = match value.trim() {
            "automatic" => Capture::Automatic,
            "manual" => Capture::Manual,
            _ => return Err(bad(setting, "expected automatic or manual")),
        };
        Ok(())
    }

    fn set_layout(&mut self, setting: &str, value: &str) -> Result<(), ConfigError> {
        let v = value.trim();
        if !LAYOUTS.contains(&v) {
            return Err(bad(setting, "expected accordion or tabs"));
        }
        self.layout = v.to_string();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |name| map.get(name).cloned()
    }

    #[test]
    fn keys_from_the_environment_connect_the_provider_and_never_print() {
        let mut c = PaymentsConfig::default();
        assert!(!c.is_connected());
        c.apply_env(&env(&[
            ("FERROSHOP_STRIPE_PUBLISHABLE_KEY", "pk_test_abc123"),
            ("FERROSHOP_STRIPE_SECRET_KEY", "sk_test_verysecret42"),
            ("FERROSHOP_STRIPE_WEBHOOK_SECRET", "whsec_alsosecret42"),
            ("FERROSHOP_STRIPE_METHODS", "card, sepa_debit,card"),
            ("FERROSHOP_STRIPE_CAPTURE", "manual"),
        ]))
        .unwrap();
        c.check().unwrap();
        assert!(c.is_connected());
        assert_eq!(c.methods, [MethodType::Card, MethodType::SepaDebit]);
        assert_eq!(c.capture, Capture::Manual);
        let printed = format!("{c:?}");
        assert!(!printed.contains("verysecret42") && !printed.contains("alsosecret42"));
    }

    #[test]
    fn bad_settings_name_themselves() {
        let mut c = PaymentsConfig::default();
        let e = c
            .apply_env(&env(&[("FERROSHOP_STRIPE_METHODS", "card,paypal")]))
            .unwrap_err();
        assert_eq!(e.setting, "FERROSHOP_STRIPE_METHODS");
        let e = c
            .apply_env(&env(&[("FERROSHOP_STRIPE_STATEMENT_DESCRIPTOR", "1234")]))
            .unwrap_err();
        assert_eq!(e.setting, "FERROSHOP_STRIPE_STATEMENT_DESCRIPTOR");
        let mut half = PaymentsConfig::default();
        half.apply_env(&env(&[(
            "FERROSHOP_STRIPE_PUBLISHABLE_KEY",
            "pk_test_abc123",
        )]))
        .unwrap();
        assert_eq!(
            half.check().unwrap_err().setting,
            "FERROSHOP_STRIPE_SECRET_KEY"
        );
        let mut mixed = PaymentsConfig::default();
        mixed
            .apply_env(&env(&[
                ("FERROSHOP_STRIPE_PUBLISHABLE_KEY", "pk_live_abc123"),
                ("FERROSHOP_STRIPE_SECRET_KEY", "sk_test_abc123"),
            ]))
            .unwrap();
        assert!(mixed.check().is_err());
    }

    #[test]
    fn express_checkout_is_on_while_connected_unless_switched_off() {
        let mut c = PaymentsConfig::default();
        assert!(c.express_checkout);
        assert!(!c.offers_express_checkout(), "not without the keys");
        c.apply_env(&env(&[
            ("FERROSHOP_STRIPE_PUBLISHABLE_KEY", "pk_test_abc123"),
            ("FERROSHOP_STRIPE_SECRET_KEY", "sk_test_abc123"),
        ]))
        .unwrap();
        assert!(c.offers_express_checkout());
        c.apply_env(&env(&[("FERROSHOP_STRIPE_EXPRESS_CHECKOUT", "no")]))
            .unwrap();
        assert!(!c.offers_express_checkout());
        let file: PaymentsFile = toml::from_str("express_checkout = true").unwrap();
        c.apply_file(file).unwrap();
        assert!(c.offers_express_checkout());
        let e = c
            .apply_env(&env(&[("FERROSHOP_STRIPE_EXPRESS_CHECKOUT", "sometimes")]))
            .unwrap_err();
        assert_eq!(e.setting, "FERROSHOP_STRIPE_EXPRESS_CHECKOUT");
    }
}
