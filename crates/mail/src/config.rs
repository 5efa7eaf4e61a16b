//! Mail settings: the SMTP server to send through and the addresses mail comes from
//! and goes to. Layered like every other setting (defaults, the `[mail]` table of the
//! file, `FERROSHOP_*` variables). The SMTP password is never printed.

use std::str::FromStr;

use lettre::message::Mailbox;
use secrecy::SecretString;
use serde::Deserialize;

use rules::settings::{bad, ConfigError};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SmtpTls {
    /// Plain SMTP: only for a relay on the same machine or network.
    None,
    /// Connect in plain text, then require STARTTLS before anything is sent (port 587).
    StartTls,
    /// TLS from the first byte (port 465).
    Tls,
}

impl SmtpTls {
    pub fn parse(s: &str) -> Option<SmtpTls> {
        match s.trim().to_ascii_lowercase().as_str() {
            "none" => Some(SmtpTls::None),
            "starttls" => Some(SmtpTls::StartTls),
            "tls" => Some(SmtpTls::Tls),
            _ => None,
        }
    }
}

#[derive(Debug, Clone)]
pub struct MailConfig {
    /// Empty: mail is queued but not sent.
    pub smtp_host: String,
    pub smtp_port: u16,
    pub smtp_username: String,
    /// Never printed: its `Debug` says `[REDACTED]`.
    pub smtp_password: SecretString,
    pub smtp_tls: SmtpTls,
    /// The From of every mail, "Name <address>".
    pub from: String,
    /// Where mail for the shop (a new order) goes; empty means the From address.
    pub shop_email: String,
}

impl Default for MailConfig {
    fn default() -> Self {
        Self {
            smtp_host: String::new(),
            smtp_port: 587,
            smtp_username: String::new(),
            smtp_password: SecretString::from(""),
            smtp_tls: SmtpTls::StartTls,
            from: "Ferroshop <shop@localhost>".into(),
            shop_email: String::new(),
        }
    }
}

/// The `[mail]` table of the configuration file.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileMail {
    smtp_host: Option<String>,
    smtp_port: Option<u16>,
    smtp_username: Option<String>,
    smtp_password: Option<SecretString>,
    smtp_tls: Option<String>,
    from: Option<String>,
    shop_email: Option<String>,
}

fn mailbox(setting: &str, value: &str) -> Result<String, ConfigError> {
    let v = value.trim();
    Mailbox::from_str(v).map(|_| v.to_string()).map_err(|_| {
        bad(
            setting,
            format!("{v:?} is not an address like \"Shop <shop@example.com>\""),
        )
    })
}

impl MailConfig {
    pub fn sending_enabled(&self) -> bool {
        !self.smtp_host.trim().is_empty()
    }

    pub fn from_mailbox(&self) -> Mailbox {
        Mailbox::from_str(&self.from)
            .unwrap_or_else(|_| Mailbox::from_str("shop@localhost").expect("a valid address"))
    }

    /// Where mail for the shop goes.
    pub fn shop_recipient(&self) -> String {
        if self.shop_email.trim().is_empty() {
            self.from_mailbox().email.to_string()
        } else {
            self.shop_email.clone()
        }
    }

    pub fn apply_file(&mut self, file: FileMail) -> Result<(), ConfigError> {
        if let Some(v) = file.smtp_host {
            self.smtp_host = v.trim().to_string();
        }
        if let Some(v) = file.smtp_port {
            self.smtp_port = v;
        }
        if let Some(v) = file.smtp_username {
            self.smtp_username = v;
        }
        if let Some(v) = file.smtp_password {
            self.smtp_password = v;
        }
        if let Some(v) = file.smtp_tls {
            self.smtp_tls = SmtpTls::parse(&v)
                .ok_or_else(|| bad("mail.smtp_tls", "expected none, starttls or tls"))?;
        }
        if let Some(v) = file.from {
            self.from = mailbox("mail.from", &v)?;
        }
        if let Some(v) = file.shop_email {
            self.shop_email = if v.trim().is_empty() {
                String::new()
            } else {
                mailbox("mail.shop_email", &v)?
            };
        }
        Ok(())
    }

    pub fn apply_env(&mut self, get: &impl Fn(&str) -> Option<String>) -> Result<(), ConfigError> {
        if let Some(v) = get("FERROSHOP_SMTP_HOST") {
            self.smtp_host = v.trim().to_string();
        }
        if let Some(v) = get("FERROSHOP_SMTP_PORT") {
            self.smtp_port = v
                .trim()
                .parse()
                .ok()
                .filter(|p| *p > 0)
                .ok_or_else(|| bad("FERROSHOP_SMTP_PORT", "expected a port number"))?;
        }
        if let Some(v) = get("FERROSHOP_SMTP_USERNAME") {
            self.smtp_username = v;
        }
        if let Some(v) = get("FERROSHOP_SMTP_PASSWORD") {
            self.smtp_password = v.into();
        }
        if let Some(v) = get("FERROSHOP_SMTP_TLS") {
            self.smtp_tls = SmtpTls::parse(&v)
                .ok_or_else(|| bad("FERROSHOP_SMTP_TLS", "expected none, starttls or tls"))?;
        }
        if let Some(v) = get("FERROSHOP_MAIL_FROM") {
            self.from = mailbox("FERROSHOP_MAIL_FROM", &v)?;
        }
        if let Some(v) = get("FERROSHOP_SHOP_EMAIL") {
            self.shop_email = if v.trim().is_empty() {
                String::new()
            } else {
                mailbox("FERROSHOP_SHOP_EMAIL", &v)?
            };
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use rules::settings::test_env as env;

    #[test]
    fn mail_is_not_sent_until_a_host_is_set() {
        let mut c = MailConfig::default();
        assert!(!c.sending_enabled());
        assert_eq!(c.shop_recipient(), "shop@localhost");
        c.apply_env(&env(&[
            ("FERROSHOP_SMTP_HOST", "mail.example.com"),
            ("FERROSHOP_SMTP_PORT", "465"),
            ("FERROSHOP_SMTP_TLS", "tls"),
            ("FERROSHOP_SMTP_PASSWORD", "hunter22"),
            ("FERROSHOP_MAIL_FROM", "Lumen & Loom <hello@lumen.example>"),
            ("FERROSHOP_SHOP_EMAIL", "orders@lumen.example"),
        ]))
        .unwrap();
        assert!(c.sending_enabled());
        assert_eq!(c.smtp_port, 465);
        assert_eq!(c.smtp_tls, SmtpTls::Tls);
        assert_eq!(c.shop_recipient(), "orders@lumen.example");
        assert_eq!(c.from_mailbox().email.to_string(), "hello@lumen.example");
    }

    #[test]
    fn the_password_is_never_printed() {
        let mut c = MailConfig::default();
        c.apply_env(&env(&[("FERROSHOP_SMTP_PASSWORD", "hunter22")]))
            .unwrap();
        let shown = format!("{c:?}");
        assert!(!shown.contains("hunter22"), "{shown}");
        assert!(shown.contains("REDACTED"), "{shown}");
        let file: FileMail = toml::from_str("smtp_password = \"hunter22\"").unwrap();
        let shown = format!("{file:?}");
        assert!(!shown.contains("hunter22"), "{shown}");
    }

    #[test]
    fn bad_values_name_their_setting() {
        let err = MailConfig::default()
            .apply_env(&env(&[("FERROSHOP_SMTP_TLS", "ssl")]))
            .unwrap_err();
        assert_eq!(err.setting, "FERROSHOP_SMTP_TLS");
        let err = MailConfig::default()
            .apply_env(&env(&[("FERROSHOP_MAIL_FROM", "not an address")]))
            .unwrap_err();
        assert_eq!(err.setting, "FERROSHOP_MAIL_FROM");
        let err = MailConfig::default()
            .apply_env(&env(&[("FERROSHOP_SMTP_PORT", "0")]))
            .unwrap_err();
        assert_eq!(err.setting, "FERROSHOP_SMTP_PORT");
    }
}
