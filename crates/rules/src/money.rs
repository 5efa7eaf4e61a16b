//! Money in integer minor units, and the store's price format. Every amount the shop
//! handles is an `i64` count of the currency's smallest unit; formatting for display
//! is string arithmetic, never floating point.

use serde::Serialize;

use crate::settings::{bad, ConfigError};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Money {
    pub minor: i64,
}

impl Money {
    pub const ZERO: Money = Money { minor: 0 };

    pub fn new(minor: i64) -> Self {
        Self { minor }
    }

    /// Unit price times quantity; saturates rather than wrapping on absurd values.
    pub fn times(self, quantity: i64) -> Self {
        Self {
            minor: self.minor.saturating_mul(quantity),
        }
    }

    pub fn plus(self, other: Money) -> Self {
        Self {
            minor: self.minor.saturating_add(other.minor),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SymbolPosition {
    Left,
    Right,
    LeftSpace,
    RightSpace,
}

impl SymbolPosition {
    pub fn parse(s: &str) -> Option<Self> {
        Some(match s.trim() {
            "left" => Self::Left,
            "right" => Self::Right,
            "left_space" => Self::LeftSpace,
            "right_space" => Self::RightSpace,
            _ => return None,
        })
    }
}

/// The store currency and how its prices are written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CurrencyFormat {
    pub code: String,
    pub symbol: String,
    pub position: SymbolPosition,
    pub thousand_separator: String,
    pub decimal_separator: String,
    /// Digits after the decimal separator; also the size of the minor unit.
    pub decimals: u32,
}

impl CurrencyFormat {
    pub fn usd() -> Self {
        Self {
            code: "USD".into(),
            symbol: "$".into(),
            position: SymbolPosition::Left,
            thousand_separator: ",".into(),
            decimal_separator: ".".into(),
            decimals: 2,
        }
    }

    pub fn usual_symbol(code: &str) -> &str {
        match code {
            "USD" | "AUD" | "CAD" | "NZD" | "SGD" | "HKD" | "MXN" => "$",
            "EUR" => "€",
            "GBP" => "£",
            "JPY" | "CNY" => "¥",
            "CHF" => "CHF",
            "SEK" | "NOK" | "DKK" => "kr",
            "PLN" => "zł",
            "INR" => "₹",
            "BRL" => "R$",
            _ => code,
        }
    }

    pub fn prefix(&self) -> String {
        match self.position {
            SymbolPosition::Left => self.symbol.clone(),
            SymbolPosition::LeftSpace => format!("{} ", self.symbol),
            _ => String::new(),
        }
    }

    pub fn suffix(&self) -> String {
        match self.position {
            SymbolPosition::Right => self.symbol.clone(),
            SymbolPosition::RightSpace => format!(" {}", self.symbol),
            _ => String::new(),
        }
    }

    /// The number alone, "1,234.50".
    pub fn format_number(&self, amount: Money) -> String {
        self.digits(amount, &self.thousand_separator, &self.decimal_separator)
    }

    /// The amount as APIs write it, "1234.50": a dot, no grouping, the shop's decimals.
    pub fn format_decimal(&self, amount: Money) -> String {
        self.digits(amount, "", ".")
    }

    fn digits(&self, amount: Money, thousand_separator: &str, decimal_separator: &str) -> String {
        let negative = amount.minor < 0;
        let digits = amount.minor.unsigned_abs().to_string();
        let d = self.decimals as usize;
        let padded = format!("{digits:0>width$}", width = d + 1);
        let (whole, frac) = padded.split_at(padded.len() - d);
        let mut grouped = String::with_capacity(whole.len() + whole.len() / 3);
        for (i, ch) in whole.chars().enumerate() {
            if i > 0 && (whole.len() - i) % 3 == 0 {
                grouped.push_str(thousand_separator);
            }
            grouped.push(ch);
        }
        let mut out = String::new();
        if negative {
            out.push('-');
        }
        out.push_str(&grouped);
        if d > 0 {
            out.push_str(decimal_separator);
            out.push_str(frac);
        }
        out
    }

    /// "$1,234.50" as plain text.
    pub fn format_plain(&self, amount: Money) -> String {
        format!(
            "{}{}{}",
            self.prefix(),
            self.format_number(amount),
            self.suffix()
        )
    }

    /// The shop's price markup: `<span class="woocommerce-Price-amount amount">…</span>`.
    pub fn format_html(&self, amount: Money) -> String {
        let symbol = format!(
            "<span class=\"woocommerce-Price-currencySymbol\">{}</span>",
            crate::html::escape(&self.symbol)
        );
        let number = crate::html::escape(&self.format_number(amount));
        let body = match self.position {
            SymbolPosition::Left => format!("{symbol}{number}"),
            SymbolPosition::LeftSpace => format!("{symbol}&nbsp;{number}"),
            SymbolPosition::Right => format!("{number}{symbol}"),
            SymbolPosition::RightSpace => format!("{number}&nbsp;{symbol}"),
        };
        format!("<span class=\"woocommerce-Price-amount amount\"><bdi>{body}</bdi></span>")
    }

    /// The currency fields every Store API money object carries.
    pub fn api_fields(&self) -> CurrencyFields {
        CurrencyFields {
            currency_code: self.code.clone(),
            currency_symbol: self.symbol.clone(),
            currency_minor_unit: self.decimals,
            currency_decimal_separator: self.decimal_separator.clone(),
            currency_thousand_separator: self.thousand_separator.clone(),
            currency_prefix: self.prefix(),
            currency_suffix: self.suffix(),
        }
    }
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct CurrencyFields {
    pub currency_code: String,
    pub currency_symbol: String,
    pub currency_minor_unit: u32,
    pub currency_decimal_separator: String,
    pub currency_thousand_separator: String,
    pub currency_prefix: String,
    pub currency_suffix: String,
}

impl CurrencyFormat {
    #[allow(clippy::too_many_arguments)]
    /// Changes what `setting` gives; a new code brings its usual symbol unless a
    /// symbol is given too.
    pub fn apply(
        &mut self,
        setting: &str,
        code: Option<&str>,
        symbol: Option<&str>,
        position: Option<&str>,
        thousand: Option<&str>,
        decimal: Option<&str>,
        decimals: Option<u32>,
    ) -> Result<(), ConfigError> {
        if let Some(code) = code {
            let code = code.trim().to_ascii_uppercase();
            if code.len() != 3 || !code.bytes().all(|b| b.is_ascii_uppercase()) {
                return Err(bad(
                    setting,
                    "currency code must be three letters, like USD",
                ));
            }
            // A new currency brings its usual symbol unless one is given too.
            self.symbol = CurrencyFormat::usual_symbol(&code).to_string();
            self.code = code;
        }
        if let Some(symbol) = symbol {
            self.symbol = symbol.to_string();
        }
        if let Some(position) = position {
            self.position = SymbolPosition::parse(position).ok_or_else(|| {
                bad(
                    setting,
                    "position must be left, right, left_space or right_space",
                )
            })?;
        }
        if let Some(t) = thousand {
            self.thousand_separator = t.to_string();
        }
        if let Some(d) = decimal {
            self.decimal_separator = d.to_string();
        }
        if let Some(d) = decimals {
            if d > 4 {
                return Err(bad(setting, "decimals must be 0 to 4"));
            }
            self.decimals = d;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_grouped_and_padded() {
        let usd = CurrencyFormat::usd();
        assert_eq!(usd.format_number(Money::new(0)), "0.00");
        assert_eq!(usd.format_number(Money::new(5)), "0.05");
        assert_eq!(usd.format_number(Money::new(123456789)), "1,234,567.89");
        assert_eq!(usd.format_number(Money::new(-1050)), "-10.50");
        assert_eq!(usd.format_plain(Money::new(1800)), "$18.00");
    }

    #[test]
    fn api_decimals_have_a_dot_and_no_grouping() {
        let eur = CurrencyFormat {
            thousand_separator: ".".into(),
            decimal_separator: ",".into(),
            ..CurrencyFormat::usd()
        };
        assert_eq!(eur.format_decimal(Money::new(123456)), "1234.56");
        assert_eq!(eur.format_decimal(Money::new(-5)), "-0.05");
        let jpy = CurrencyFormat {
            decimals: 0,
            ..CurrencyFormat::usd()
        };
        assert_eq!(jpy.format_decimal(Money::new(1234)), "1234");
    }

    #[test]
    fn other_formats_follow_their_settings() {
        let eur = CurrencyFormat {
            code: "EUR".into(),
            symbol: "€".into(),
            position: SymbolPosition::RightSpace,
            thousand_separator: ".".into(),
            decimal_separator: ",".into(),
            decimals: 2,
        };
        assert_eq!(eur.format_plain(Money::new(123456)), "1.234,56 €");
        let jpy = CurrencyFormat {
            decimals: 0,
            ..CurrencyFormat::usd()
        };
        assert_eq!(jpy.format_number(Money::new(1234)), "1,234");
    }

    #[test]
    fn html_escapes_the_symbol() {
        let odd = CurrencyFormat {
            symbol: "<b>".into(),
            ..CurrencyFormat::usd()
        };
        assert!(odd.format_html(Money::new(100)).contains("&lt;b&gt;"));
    }

    #[test]
    fn arithmetic_saturates_instead_of_wrapping() {
        assert_eq!(Money::new(i64::MAX).times(2).minor, i64::MAX);
    }
}
