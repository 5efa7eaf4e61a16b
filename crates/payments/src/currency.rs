//! The currency of an amount: three letters, sent lower-case as the provider expects.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize};

/// An ISO 4217 code, kept lower-case (`eur`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(transparent)]
pub struct Currency(String);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a currency is three ASCII letters, such as EUR")]
pub struct InvalidCurrency;

impl Currency {
    /// `EUR`, `eur` or `Eur`: three ASCII letters in any case.
    pub fn parse(code: &str) -> Result<Currency, InvalidCurrency> {
        if code.len() == 3 && code.bytes().all(|b| b.is_ascii_alphabetic()) {
            Ok(Currency(code.to_ascii_lowercase()))
        } else {
            Err(InvalidCurrency)
        }
    }

    /// The lower-case code, as the provider spells it.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Currency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for Currency {
    /// What the provider sends is taken as it is (lower-cased): refusing a code it
    /// uses would fail a whole response over one field.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let code = String::deserialize(deserializer)?;
        Ok(Currency(code.to_ascii_lowercase()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_currency_is_three_letters_kept_lower_case() {
        assert_eq!(Currency::parse("EUR").unwrap().as_str(), "eur");
        assert_eq!(Currency::parse("usd").unwrap().as_str(), "usd");
        assert_eq!(Currency::parse("EU"), Err(InvalidCurrency));
        assert_eq!(Currency::parse("EU1"), Err(InvalidCurrency));
        assert_eq!(Currency::parse("ÉUR"), Err(InvalidCurrency));
    }
}
