//! The addresses a customer keeps in their account: read from a request, checked,
//! and shown in the Store API's `billing_address` / `shipping_address` shape.

use serde_json::{Map, Value};

use super::error::AccountError;
use crate::error::ApiError;
use crate::http::params::Params;
use rules::address::locale::{self, CountryCode, FieldError, StateList, Surface};
use rules::address::{Address, ADDRESS_FIELDS};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AddressKind {
    Billing,
    Shipping,
}

impl AddressKind {
    pub fn parse(s: &str) -> Option<AddressKind> {
        match s {
            "billing" => Some(AddressKind::Billing),
            "shipping" => Some(AddressKind::Shipping),
            _ => None,
        }
    }
}

/// The address fields of a request body; unknown fields are ignored, values trimmed.
/// Shipping addresses have no e-mail.
pub fn address_from_params(params: &Params, kind: AddressKind) -> Result<Address, ApiError> {
    let mut address = Address::default();
    for field in ADDRESS_FIELDS {
        if field == "email" && kind == AddressKind::Shipping {
            continue;
        }
        if let Some(value) = params.string(field)? {
            if let Some(slot) = address.get_mut(field) {
                *slot = value.trim().to_string();
            }
        }
    }
    address.country = address.country.to_ascii_uppercase();
    Ok(address)
}

/// The Store API's JSON for an address: every field, in its order; no `email` in a
/// shipping address.
pub fn address_json(kind: AddressKind, address: &Address) -> Value {
    let mut map = Map::new();
    for field in ADDRESS_FIELDS {
        if field == "email" && kind == AddressKind::Shipping {
            continue;
        }
        let value = address.get(field);
        map.insert(field.to_string(), Value::String(value.to_string()));
    }
    Value::Object(map)
}

/// A stored address document; anything unreadable is an empty address.
pub fn parse_stored(json: &str) -> Address {
    serde_json::from_str(json).unwrap_or_default()
}

pub fn to_stored(kind: AddressKind, address: &Address) -> String {
    let mut address = address.clone();
    if kind == AddressKind::Shipping {
        address.email.clear();
    }
    serde_json::to_string(&address).unwrap_or_else(|_| "{}".into())
}

/// The address form's rules, the one place that decides whether an address may be
/// saved: the checkout's per-country rules (which fields a country requires, its
/// states, postcode format, phone and e-mail checks), reported as the original shop's
/// "Edit address" form words them, first problem only. Returns the address as it is
/// saved: country in capitals, postcode in the country's format, state as its code.
pub fn check_address(kind: AddressKind, address: &Address) -> Result<Address, AccountError> {
    let lkind = locale_kind(kind);
    // Shipping addresses carry no e-mail.
    let input = Address {
        email: if kind == AddressKind::Billing {
            address.email.clone()
        } else {
            String::new()
        },
        ..address.clone()
    };
    let country_text = address.country.trim().to_ascii_uppercase();
    if let Some(problem) = locale::validate_address(lkind, &input, Surface::Classic).first() {
        return Err(address_error(lkind, &country_text, problem));
    }
    let mut saved = address.clone();
    saved.country = country_text;
    if let Ok(country) = CountryCode::parse(&saved.country) {
        saved.postcode = locale::format_postcode(country, &saved.postcode);
        if let Some(code) = locale::normalize_state(country, &saved.state) {
            saved.state = code.to_string();
        }
    }
    if kind == AddressKind::Shipping {
        saved.email.clear();
    }
    Ok(saved)
}

fn locale_kind(kind: AddressKind) -> locale::AddressKind {
    match kind {
        AddressKind::Billing => locale::AddressKind::Billing,
        AddressKind::Shipping => locale::AddressKind::Shipping,
    }
}

/// The form's words for a problem: the field named by its plain label for the country.
fn address_error(kind: locale::AddressKind, country: &str, problem: &FieldError) -> AccountError {
    let prefix = format!("{}_", kind.prefix());
    let key = problem
        .field_id
        .strip_prefix(&prefix)
        .unwrap_or(&problem.field_id)
        .to_string();
    let form_country = if country.is_empty() {
        locale::BASE_COUNTRY
    } else {
        country
    };
    let label = locale::fields(kind, Some(form_country))
        .into_iter()
        .find(|r| r.key == key)
        .map_or_else(|| key.clone(), |r| r.label);
    let (code, message) = match problem.code {
        FieldError::REQUIRED => (
            "ferroshop_required_field".to_string(),
            format!("{label} is a required field."),
        ),
        FieldError::INVALID_POSTCODE => (
            "ferroshop_invalid_postcode".to_string(),
            "Please enter a valid postcode / ZIP.".to_string(),
        ),
        FieldError::INVALID_PHONE => (
            "ferroshop_invalid_phone".to_string(),
            format!("{label} is not a valid phone number."),
        ),
        FieldError::INVALID_EMAIL => (
            "ferroshop_invalid_email".to_string(),
            format!("{label} is not a valid email address."),
        ),
        FieldError::INVALID_STATE => {
            let names: Vec<&str> = match CountryCode::parse(country).map(locale::states) {
                Ok(StateList::Some(list)) => list.iter().map(|(_, name)| name.as_str()).collect(),
                _ => Vec::new(),
            };
            (
                "ferroshop_invalid_state".to_string(),
                format!(
                    "{label} is not valid. Please enter one of the following: {}",
                    names.join(", ")
                ),
            )
        }
        FieldError::INVALID_COUNTRY => (
            "ferroshop_invalid_country".to_string(),
            format!("'{country}' is not a valid country code."),
        ),
        other => (
            format!("ferroshop_{other}"),
            rules::html::strip_tags(&problem.message),
        ),
    };
    AccountError::InvalidAddress {
        field: key,
        code,
        message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filled() -> Address {
        Address {
            first_name: "Ada".into(),
            last_name: "Lovelace".into(),
            address_1: "1 Main St".into(),
            city: "San Francisco".into(),
            state: "CA".into(),
            postcode: "94110".into(),
            country: "US".into(),
            email: "ada@example.test".into(),
            phone: "5555550100".into(),
            ..Address::default()
        }
    }

    fn problem(kind: AddressKind, a: &Address) -> (String, String, String) {
        match check_address(kind, a) {
            Err(AccountError::InvalidAddress {
                field,
                code,
                message,
            }) => (field, code, message),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_complete_address_is_saved_in_the_countrys_format() {
        let mut a = filled();
        a.country = "us".into();
        a.state = "california".into();
        a.postcode = "941101234".into();
        let saved = check_address(AddressKind::Billing, &a).unwrap();
        assert_eq!(
            (
                saved.country.as_str(),
                saved.state.as_str(),
                saved.postcode.as_str()
            ),
            ("US", "CA", "94110-1234")
        );
        let shipping = check_address(AddressKind::Shipping, &filled()).unwrap();
        assert_eq!(shipping.email, "");
    }

    #[test]
    fn problems_are_worded_like_the_edit_address_form() {
        let mut a = filled();
        a.city = " ".into();
        assert_eq!(
            problem(AddressKind::Billing, &a),
            (
                "city".into(),
                "ferroshop_required_field".into(),
                "Town / City is a required field.".into()
            )
        );
        let mut a = filled();
        a.email = "nope".into();
        assert_eq!(
            problem(AddressKind::Billing, &a).2,
            "Email address is not a valid email address."
        );
        let mut a = filled();
        a.postcode = "9411".into();
        assert_eq!(
            problem(AddressKind::Shipping, &a).2,
            "Please enter a valid postcode / ZIP."
        );
        let mut a = filled();
        a.state = "Calif.".into();
        let (field, _, message) = problem(AddressKind::Shipping, &a);
        assert_eq!(field, "state");
        assert!(
            message.starts_with("State is not valid. Please enter one of the following: Alabama, ")
        );
    }

    #[test]
    fn shipping_addresses_show_no_email() {
        let a = filled();
        let billing = address_json(AddressKind::Billing, &a);
        let shipping = address_json(AddressKind::Shipping, &a);
        assert_eq!(billing["email"], "ada@example.test");
        assert!(shipping.get("email").is_none());
        let keys: Vec<&String> = shipping.as_object().unwrap().keys().collect();
        assert_eq!(
            keys,
            [
                "first_name",
                "last_name",
                "company",
                "address_1",
                "address_2",
                "city",
                "state",
                "postcode",
                "country",
                "phone"
            ]
        );
        assert_eq!(
            parse_stored(&to_stored(AddressKind::Shipping, &a)).email,
            ""
        );
    }
}
