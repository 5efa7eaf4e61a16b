//! Checking an address at checkout, with the messages the original shop gives on each of
//! its two checkouts: the classic form (HTML messages naming the field by its label)
//! and the Store API (plain messages, the REST error codes).

use serde::{Deserialize, Serialize};

use super::country::{match_state, states, CountryCode, StateList};
use super::email::is_valid_email;
use super::fields::{fields, AddressKind, BASE_COUNTRY};
use super::phone::{is_php_trimmed, is_valid_phone};
use super::postcode::{format_for, valid_for};
use crate::html::escape;

/// An address as posted: the eleven fields, missing ones empty.
pub use crate::address::Address as AddressInput;

/// Which checkout the messages are for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Surface {
    /// The classic checkout form (`?wc-ajax=checkout`): every problem at once, as HTML.
    Classic,
    /// `POST /wc/store/v1/checkout`: the problems of the first failing stage.
    StoreApi,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FieldError {
    /// The form's id of the field: `billing_postcode`.
    pub field_id: String,
    /// One of the constants below, the same on both surfaces.
    pub code: &'static str,
    pub message: String,
}

impl FieldError {
    pub const REQUIRED: &'static str = "required";
    pub const INVALID_COUNTRY: &'static str = "invalid_country";
    pub const INVALID_STATE: &'static str = "invalid_state";
    pub const INVALID_POSTCODE: &'static str = "invalid_postcode";
    pub const INVALID_PHONE: &'static str = "invalid_phone";
    pub const INVALID_EMAIL: &'static str = "invalid_email";

    fn new(kind: AddressKind, key: &str, code: &'static str, message: String) -> Self {
        FieldError {
            field_id: kind.field_id(key),
            code,
            message,
        }
    }
}

/// Checks an address as the original's checkout does and returns its complaints, in
/// the order it gives them; empty when the address passes.
///
/// Both surfaces first clean each value as the original does (line breaks, tabs and
/// runs of spaces become one space; the ends are trimmed) and read the country code
/// without regard to case. The classic form reports every field's problem, in form
/// order. The Store API stops at the first stage that fails: the address's format
/// (country, state, postcode, phone, email), then a missing email, then a missing or
/// unserved country, then the fields the country requires; a route answers with the
/// first error, or for missing fields lists them all after "There was a problem with
/// the provided billing address:".
pub fn validate_address(
    kind: AddressKind,
    input: &AddressInput,
    surface: Surface,
) -> Vec<FieldError> {
    match surface {
        Surface::Classic => classic(kind, input),
        Surface::StoreApi => store_api(kind, input),
    }
}

/// What the original's input sanitising leaves of a value, tags aside.
fn clean(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut in_gap = false;
    for c in raw.chars() {
        if matches!(c, ' ' | '\t' | '\n' | '\r') {
            in_gap = true;
        } else {
            if in_gap {
                out.push(' ');
                in_gap = false;
            }
            out.push(c);
        }
    }
    if in_gap {
        out.push(' ');
    }
    out.trim_matches(is_php_trimmed).to_string()
}

fn classic(kind: AddressKind, input: &AddressInput) -> Vec<FieldError> {
    let posted_country = clean(&input.country);
    let country = CountryCode::parse(&posted_country).ok();
    // The form's country decides the labels and what is required; without one the
    // original falls back to its own country. Postcode and state rules use only the
    // posted country.
    let form_country = if posted_country.is_empty() {
        BASE_COUNTRY
    } else {
        posted_country.as_str()
    };
    let rules_country = country.map_or("", CountryCode::as_str);

    let mut errors = Vec::new();
    for rule in fields(kind, Some(form_country)) {
        // The classic shipping form has no phone.
        if kind == AddressKind::Shipping && rule.key == "phone" {
            continue;
        }
        let mut value = clean(input.get(rule.key));
        let label = format!(
            "<strong>{}</strong>",
            escape(&kind.message_label(&rule.label))
        );
        let mut push =
            |code, message: String| errors.push(FieldError::new(kind, rule.key, code, message));

        match rule.key {
            "country" if !value.is_empty() && country.is_none() => push(
                FieldError::INVALID_COUNTRY,
                format!("'{}' is not a valid country code.", escape(&value)),
            ),
            "postcode" => {
                value = format_for(rules_country, &value);
                if !value.is_empty() && !valid_for(rules_country, &value) {
                    let message = if rules_country == "IE" {
                        format!(
                            "{label} is not valid. You can look up the correct Eircode \
                             <a target=\"_blank\" href=\"https://finder.eircode.ie\">here</a>."
                        )
                    } else {
                        format!("{label} is not a valid postcode / ZIP.")
                    };
                    push(FieldError::INVALID_POSTCODE, message);
                }
            }
            "phone" if !value.is_empty() && !is_valid_phone(&value) => {
                push(
                    FieldError::INVALID_PHONE,
                    format!("{label} is not a valid phone number."),
                );
            }
            "email" if !value.is_empty() && !is_valid_email(&value) => {
                push(
                    FieldError::INVALID_EMAIL,
                    format!("{label} is not a valid email address."),
                );
            }
            "state" if !value.is_empty() => {
                if let Some(StateList::Some(list)) = country.map(states) {
                    if match_state(list, &value).is_none() {
                        let names: Vec<&str> = list.iter().map(|(_, name)| name.as_str()).collect();
                        push(
                            FieldError::INVALID_STATE,
                            format!(
                                "{label} is not valid. Please enter one of the following: {}",
                                names.join(", ")
                            ),
                        );
                    }
                }
            }
            _ => {}
        }

        if rule.required && value.is_empty() {
            push(
                FieldError::REQUIRED,
                format!("{label} is a required field."),
            );
        }
    }
    errors
}

/// PHP's `empty()` on a string: "0" counts as empty.
fn blank(value: &str) -> bool {
    value.is_empty() || value == "0"
}

/// The fields the Store API's checkout requires, with its own default labels; a
/// country's settings may change the label and whether it is required.
const STORE_API_REQUIRED: [(&str, &str, bool); 9] = [
    ("first_name", "First name", true),
    ("last_name", "Last name", true),
    ("company", "Company", false),
    ("address_1", "Address", true),
    ("address_2", "Apartment, suite, etc.", false),
    ("country", "Country/Region", true),
    ("city", "City", true),
    ("state", "State/County", true),
    ("postcode", "Postal code", true),
];

fn store_api(kind: AddressKind, input: &AddressInput) -> Vec<FieldError> {
    let country_text = clean(&input.country).to_uppercase();
    let country = CountryCode::parse(&country_text).ok();
    let rules_country = country.map_or(country_text.as_str(), |c| c.as_str());
    let state_list = match country.map(states) {
        Some(StateList::Some(list)) => Some(list),
        _ => None,
    };

    let mut values: Vec<(&str, String)> = STORE_API_REQUIRED
        .iter()
        .map(|(key, _, _)| (*key, clean(input.get(key))))
        .collect();
    let value = |values: &[(&str, String)], key: &str| -> String {
        values
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    // The address as the Store API stores it: postcode formatted, state as its code.
    for (key, v) in values.iter_mut() {
        match *key {
            "country" => *v = country_text.clone(),
            "postcode" if !v.is_empty() => *v = format_for(rules_country, v),
            "state" => {
                if let Some(list) = state_list {
                    *v = v.to_uppercase();
                    if let Some(code) = match_state(list, v) {
                        *v = code.to_string();
                    }
                }
            }
            _ => {}
        }
    }
    let phone = clean(&input.phone);
    let email = clean(&input.email);

    // The address's format, checked as the request is read.
    if !blank(&country_text) && country.is_none() {
        let codes: Vec<&str> = super::country::countries()
            .map(|(c, _)| c.as_str())
            .collect();
        return vec![FieldError::new(
            kind,
            "country",
            FieldError::INVALID_COUNTRY,
            format!(
                "Invalid country code provided. Must be one of: {}",
                codes.join(", ")
            ),
        )];
    }
    let mut errors = Vec::new();
    let state = value(&values, "state");
    if let Some(list) = state_list {
        if !blank(&state) && !list.iter().any(|(code, _)| code.to_uppercase() == state) {
            let codes: Vec<&str> = list.iter().map(|(code, _)| code.as_str()).collect();
            errors.push(FieldError::new(
                kind,
                "state",
                FieldError::INVALID_STATE,
                format!(
                    "The provided state ({}) is not valid. Must be one of: {}",
                    escape(&state),
                    codes.join(", ")
                ),
            ));
        }
    }
    let postcode = value(&values, "postcode");
    if !blank(&postcode) && !valid_for(rules_country, &postcode) {
        errors.push(FieldError::new(
            kind,
            "postcode",
            FieldError::INVALID_POSTCODE,
            "The provided postcode / ZIP is not valid".to_string(),
        ));
    }
    if !blank(&phone) && !is_valid_phone(&phone) {
        errors.push(FieldError::new(
            kind,
            "phone",
            FieldError::INVALID_PHONE,
            "The provided phone number is not valid".to_string(),
        ));
    }
    if kind == AddressKind::Billing && !blank(&email) && !is_valid_email(&email) {
        errors.push(FieldError::new(
            kind,
            "email",
            FieldError::INVALID_EMAIL,
            "The provided email address is not valid".to_string(),
        ));
    }
    if !errors.is_empty() {
        return errors;
    }

    // Then the checkout's own checks, each stopping it.
    if kind == AddressKind::Billing && blank(&email) {
        return vec![FieldError::new(
            kind,
            "email",
            FieldError::REQUIRED,
            "A valid email address is required".to_string(),
        )];
    }
    if country.is_none() {
        let message = match kind {
            AddressKind::Billing => "Sorry, we do not allow orders from the provided country",
            AddressKind::Shipping => "Sorry, we do not ship orders to the provided country",
        };
        return vec![FieldError::new(
            kind,
            "country",
            FieldError::INVALID_COUNTRY,
            format!("{message} ({country_text})"),
        )];
    }
    let overrides = country.and_then(|c| super::data::data().locale.get(c.as_str()));
    STORE_API_REQUIRED
        .iter()
        .filter_map(|&(key, default_label, default_required)| {
            let over = overrides.and_then(|o| o.get(key));
            let label = over
                .and_then(|o| o.label.as_deref())
                .unwrap_or(default_label);
            let required = over.and_then(|o| o.required).unwrap_or(default_required);
            (required && blank(&value(&values, key))).then(|| {
                FieldError::new(
                    kind,
                    key,
                    FieldError::REQUIRED,
                    format!("{label} is required"),
                )
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn us_address() -> AddressInput {
        AddressInput {
            first_name: "Ada".into(),
            last_name: "Lovelace".into(),
            address_1: "1 Main St".into(),
            city: "San Francisco".into(),
            state: "CA".into(),
            postcode: "94110".into(),
            country: "US".into(),
            email: "ada@example.com".into(),
            phone: "5555550100".into(),
            ..AddressInput::default()
        }
    }

    fn ids_and_codes(errors: &[FieldError]) -> Vec<(&str, &str)> {
        errors
            .iter()
            .map(|e| (e.field_id.as_str(), e.code))
            .collect()
    }

    #[test]
    fn a_complete_address_passes_both_checkouts() {
        for surface in [Surface::Classic, Surface::StoreApi] {
            assert_eq!(
                validate_address(AddressKind::Billing, &us_address(), surface),
                []
            );
            assert_eq!(
                validate_address(AddressKind::Shipping, &us_address(), surface),
                []
            );
        }
    }

    #[test]
    fn the_classic_checkout_lists_missing_fields_like_the_recording() {
        // ajax_checkout_missing_fields: nothing but an empty name and email posted.
        let errors = validate_address(
            AddressKind::Billing,
            &AddressInput::default(),
            Surface::Classic,
        );
        let messages: Vec<(&str, &str)> = errors
            .iter()
            .map(|e| (e.field_id.as_str(), e.message.as_str()))
            .collect();
        assert_eq!(
            messages,
            [
                (
                    "billing_first_name",
                    "<strong>Billing First name</strong> is a required field."
                ),
                (
                    "billing_last_name",
                    "<strong>Billing Last name</strong> is a required field."
                ),
                (
                    "billing_country",
                    "<strong>Billing Country / Region</strong> is a required field."
                ),
                (
                    "billing_address_1",
                    "<strong>Billing Street address</strong> is a required field."
                ),
                (
                    "billing_city",
                    "<strong>Billing Town / City</strong> is a required field."
                ),
                (
                    "billing_state",
                    "<strong>Billing State</strong> is a required field."
                ),
                (
                    "billing_postcode",
                    "<strong>Billing ZIP Code</strong> is a required field."
                ),
                (
                    "billing_phone",
                    "<strong>Billing Phone</strong> is a required field."
                ),
                (
                    "billing_email",
                    "<strong>Billing Email address</strong> is a required field."
                ),
            ]
        );
        assert!(errors.iter().all(|e| e.code == FieldError::REQUIRED));
    }

    #[test]
    fn classic_format_messages_name_the_field_by_its_label() {
        let mut address = us_address();
        address.postcode = "9411".into();
        address.phone = "call me".into();
        address.email = "not-an-email".into();
        address.state = "Calif.".into();
        let errors = validate_address(AddressKind::Billing, &address, Surface::Classic);
        assert_eq!(
            ids_and_codes(&errors),
            [
                ("billing_state", "invalid_state"),
                ("billing_postcode", "invalid_postcode"),
                ("billing_phone", "invalid_phone"),
                ("billing_email", "invalid_email"),
            ]
        );
        assert!(errors[0].message.starts_with(
            "<strong>Billing State</strong> is not valid. Please enter one of the following: Alabama, Alaska, Arizona,"
        ));
        assert!(errors[0]
            .message
            .ends_with(", Wyoming, Armed Forces (AA), Armed Forces (AE), Armed Forces (AP)"));
        assert_eq!(
            errors[1].message,
            "<strong>Billing ZIP Code</strong> is not a valid postcode / ZIP."
        );
        assert_eq!(
            errors[2].message,
            "<strong>Billing Phone</strong> is not a valid phone number."
        );
        assert_eq!(
            errors[3].message,
            "<strong>Billing Email address</strong> is not a valid email address."
        );
    }

    #[test]
    fn classic_messages_follow_the_country() {
        let address = AddressInput {
            country: "GB".into(),
            postcode: "SW1A".into(),
            ..AddressInput::default()
        };
        let errors = validate_address(AddressKind::Shipping, &address, Surface::Classic);
        let postcode = errors
            .iter()
            .find(|e| e.field_id == "shipping_postcode")
            .unwrap();
        assert_eq!(
            postcode.message,
            "<strong>Shipping Postcode</strong> is not a valid postcode / ZIP."
        );
        // The county is optional in Britain; there is no email or phone on shipping.
        assert_eq!(
            ids_and_codes(&errors),
            [
                ("shipping_first_name", "required"),
                ("shipping_last_name", "required"),
                ("shipping_address_1", "required"),
                ("shipping_city", "required"),
                ("shipping_postcode", "invalid_postcode"),
            ]
        );

        let ireland = AddressInput {
            country: "IE".into(),
            postcode: "B02 X285".into(),
            ..us_address()
        };
        let errors = validate_address(AddressKind::Billing, &ireland, Surface::Classic);
        let postcode = errors
            .iter()
            .find(|e| e.field_id == "billing_postcode")
            .unwrap();
        assert_eq!(
            postcode.message,
            "<strong>Billing Eircode</strong> is not valid. You can look up the correct Eircode \
             <a target=\"_blank\" href=\"https://finder.eircode.ie\">here</a>."
        );
    }

    #[test]
    fn an_unknown_country_is_named_in_the_classic_message() {
        let address = AddressInput {
            country: "<XX>".into(),
            ..us_address()
        };
        let errors = validate_address(AddressKind::Billing, &address, Surface::Classic);
        assert_eq!(
            ids_and_codes(&errors),
            [("billing_country", "invalid_country")]
        );
        assert_eq!(
            errors[0].message,
            "'&lt;XX&gt;' is not a valid country code."
        );
    }

    #[test]
    fn values_are_cleaned_before_they_are_checked() {
        let address = AddressInput {
            first_name: " \t ".into(),
            country: " us ".into(),
            state: "  new   york ".into(),
            postcode: " 94110 1234 ".into(),
            ..us_address()
        };
        let errors = validate_address(AddressKind::Billing, &address, Surface::Classic);
        assert_eq!(ids_and_codes(&errors), [("billing_first_name", "required")]);
        assert_eq!(clean(" a \r\n b\t\tc "), "a b c");
    }

    #[test]
    fn the_store_api_rejects_a_bad_email_like_the_recording() {
        // store_checkout_post_invalid_email.
        let address = AddressInput {
            email: "not-an-email".into(),
            ..us_address()
        };
        let errors = validate_address(AddressKind::Billing, &address, Surface::StoreApi);
        assert_eq!(
            errors,
            [FieldError {
                field_id: "billing_email".into(),
                code: "invalid_email",
                message: "The provided email address is not valid".into(),
            }]
        );
    }

    #[test]
    fn store_api_format_errors_come_together_and_before_missing_fields() {
        let address = AddressInput {
            first_name: String::new(),
            state: "ZZ".into(),
            postcode: "ABC".into(),
            phone: "call me".into(),
            ..us_address()
        };
        let errors = validate_address(AddressKind::Billing, &address, Surface::StoreApi);
        assert_eq!(
            ids_and_codes(&errors),
            [
                ("billing_state", "invalid_state"),
                ("billing_postcode", "invalid_postcode"),
                ("billing_phone", "invalid_phone"),
            ]
        );
        assert!(errors[0]
            .message
            .starts_with("The provided state (ZZ) is not valid. Must be one of: AL, AK, AZ,"));
        assert_eq!(
            errors[1].message,
            "The provided postcode / ZIP is not valid"
        );
        assert_eq!(errors[2].message, "The provided phone number is not valid");
    }

    #[test]
    fn the_store_api_names_missing_fields_with_its_own_labels() {
        let address = AddressInput {
            country: "US".into(),
            email: "ada@example.com".into(),
            address_2: "Flat 1".into(),
            ..AddressInput::default()
        };
        let errors = validate_address(AddressKind::Billing, &address, Surface::StoreApi);
        let messages: Vec<&str> = errors.iter().map(|e| e.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "First name is required",
                "Last name is required",
                "Address is required",
                "City is required",
                "State is required",
                "ZIP Code is required",
            ]
        );
        // The phone is never required there.
        assert!(errors.iter().all(|e| e.field_id != "billing_phone"));
    }

    #[test]
    fn the_store_api_checks_email_then_country_before_the_fields() {
        let nothing = AddressInput::default();
        let errors = validate_address(AddressKind::Billing, &nothing, Surface::StoreApi);
        assert_eq!(
            errors,
            [FieldError {
                field_id: "billing_email".into(),
                code: "required",
                message: "A valid email address is required".into(),
            }]
        );
        let errors = validate_address(AddressKind::Shipping, &nothing, Surface::StoreApi);
        assert_eq!(
            errors,
            [FieldError {
                field_id: "shipping_country".into(),
                code: "invalid_country",
                message: "Sorry, we do not ship orders to the provided country ()".into(),
            }]
        );
        let unknown = AddressInput {
            country: "xx".into(),
            ..us_address()
        };
        let errors = validate_address(AddressKind::Billing, &unknown, Surface::StoreApi);
        assert_eq!(
            ids_and_codes(&errors),
            [("billing_country", "invalid_country")]
        );
        assert!(errors[0]
            .message
            .starts_with("Invalid country code provided. Must be one of: AF, AX, AL, DZ,"));
    }

    /// One case of the test vectors the storefront's validator runs too.
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Vector {
        name: String,
        surface: Surface,
        kind: AddressKind,
        country: String,
        fields: serde_json::Map<String, serde_json::Value>,
        expect: Vec<Expected>,
    }

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Expected {
        field_id: String,
        code: String,
        message: Option<String>,
    }

    #[test]
    fn the_shared_test_vectors_pass() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../testdata/checkout-address-vectors.json"
        );
        let text = std::fs::read_to_string(path).expect("the test vectors are readable");
        let vectors: Vec<Vector> = serde_json::from_str(&text).expect("the test vectors parse");
        assert!(vectors.len() > 100);
        let mut failures = Vec::new();
        for v in &vectors {
            let mut fields = v.fields.clone();
            const KEYS: [&str; 10] = [
                "first_name",
                "last_name",
                "company",
                "address_1",
                "address_2",
                "city",
                "state",
                "postcode",
                "phone",
                "email",
            ];
            for key in fields.keys() {
                assert!(
                    KEYS.contains(&key.as_str()),
                    "{}: unknown field {key}",
                    v.name
                );
            }
            fields.insert("country".into(), v.country.clone().into());
            let input: AddressInput =
                serde_json::from_value(fields.into()).expect("fields are strings");
            let got = validate_address(v.kind, &input, v.surface);
            let want: Vec<(&str, &str)> = v
                .expect
                .iter()
                .map(|e| (e.field_id.as_str(), e.code.as_str()))
                .collect();
            if ids_and_codes(&got) != want {
                failures.push(format!(
                    "{}: got {:?}, want {want:?}",
                    v.name,
                    ids_and_codes(&got)
                ));
                continue;
            }
            for (e, g) in v.expect.iter().zip(&got) {
                if let Some(message) = &e.message {
                    if *message != g.message {
                        failures.push(format!(
                            "{}: message {:?}, want {message:?}",
                            v.name, g.message
                        ));
                    }
                }
            }
        }
        assert!(
            failures.is_empty(),
            "{} of {} vectors fail:\n{}",
            failures.len(),
            vectors.len(),
            failures.join("\n")
        );
    }

    #[test]
    fn the_store_api_takes_zero_for_empty() {
        let address = AddressInput {
            city: "0".into(),
            ..us_address()
        };
        let errors = validate_address(AddressKind::Billing, &address, Surface::StoreApi);
        assert_eq!(ids_and_codes(&errors), [("billing_city", "required")]);
        // The classic form takes it as a city.
        assert_eq!(
            validate_address(AddressKind::Billing, &address, Surface::Classic),
            []
        );
    }
}
