//! Checking the addresses a checkout submits, in each surface's wording, by the
//! per-country rules of the address locale table (`address::locale`).

use super::locale::{self, AddressKind};
use super::Address;

pub use super::locale::Surface;

/// A field the shopper must fix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldProblem {
    /// "billing_email".
    pub field_id: String,
    pub code: &'static str,
    /// Plain text.
    pub message: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Billing,
    Shipping,
}

impl Kind {
    pub fn prefix(self) -> &'static str {
        match self {
            Kind::Billing => "billing",
            Kind::Shipping => "shipping",
        }
    }

    fn locale(self) -> AddressKind {
        match self {
            Kind::Billing => AddressKind::Billing,
            Kind::Shipping => AddressKind::Shipping,
        }
    }
}

/// Everything wrong with `address`: on the classic form every field's problem in form
/// order, on the Store API the problems of the first stage that fails.
pub fn validate(kind: Kind, address: &Address, surface: Surface) -> Vec<FieldProblem> {
    locale::validate_address(kind.locale(), address, surface)
        .into_iter()
        .map(|e| FieldProblem {
            field_id: e.field_id,
            code: e.code,
            message: e.message,
        })
        .collect()
}

/// The address as the shop stores it: postcode in the country's format and the state
/// as its code when the country has a list.
pub fn normalize(address: &mut Address) {
    let Ok(country) = locale::CountryCode::parse(&address.country) else {
        return;
    };
    address.country = country.as_str().to_string();
    if !address.postcode.trim().is_empty() {
        address.postcode = locale::format_postcode(country, &address.postcode);
    }
    if let Some(code) = locale::normalize_state(country, &address.state) {
        address.state = code.to_string();
    }
}
