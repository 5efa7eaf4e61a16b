//! A type per provider id, so a customer id is never passed where a payment method
//! id belongs, and the intents' client secrets, which are never logged.

use std::fmt;

use serde::{Deserialize, Serialize};

macro_rules! id_type {
    ($(#[$meta:meta])* $name:ident) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(String);

        impl $name {
            /// An id as the provider issued it (kept as is: the provider owns its format).
            pub fn new(id: impl Into<String>) -> Self {
                Self(id.into())
            }

            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl AsRef<str> for $name {
            fn as_ref(&self) -> &str {
                &self.0
            }
        }

        impl From<String> for $name {
            fn from(id: String) -> Self {
                Self(id)
            }
        }

        impl From<&str> for $name {
            fn from(id: &str) -> Self {
                Self(id.to_owned())
            }
        }
    };
}

id_type!(
    /// `pi_…`
    PaymentIntentId
);
id_type!(
    /// `seti_…`
    SetupIntentId
);
id_type!(
    /// `pm_…` (or a test id such as `pm_card_visa`)
    PaymentMethodId
);
id_type!(
    /// `cus_…`
    CustomerId
);
id_type!(
    /// `ch_…`
    ChargeId
);
id_type!(
    /// `re_…`
    RefundId
);
id_type!(
    /// `evt_…`
    EventId
);

/// An intent's client secret: handed to the shopper's browser to finish the payment
/// there, and otherwise neither stored nor logged, as the provider asks. Its Debug
/// output shows only the intent it belongs to.
#[derive(Clone, PartialEq, Eq, Deserialize)]
#[serde(transparent)]
pub struct ClientSecret(String);

impl ClientSecret {
    pub fn new(secret: impl Into<String>) -> Self {
        Self(secret.into())
    }

    /// The secret itself, for the page that confirms the payment.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for ClientSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // `pi_123_secret_abc`: the part before `_secret_` names the intent, no more.
        match self.0.split_once("_secret_") {
            Some((intent, _)) => write!(f, "ClientSecret({intent}_secret_…redacted)"),
            None => f.write_str("ClientSecret(…redacted)"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_secret_is_not_shown_by_debug() {
        let secret = ClientSecret::new("pi_123_secret_abcdef");
        let shown = format!("{secret:?}");
        assert!(!shown.contains("abcdef"), "{shown}");
        assert!(shown.contains("pi_123"), "{shown}");
    }
}
