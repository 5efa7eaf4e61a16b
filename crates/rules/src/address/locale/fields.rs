//! The address form of a country: which fields, labelled how, required or not, shown or
//! not, in what order.

use serde::{Deserialize, Serialize};

use super::country::{states, CountryCode, StateList};
use super::data::{data, RawRule};

/// The shop's own country. The original labels and requires the fields of an address
/// posted without a country as if it were in this one.
pub const BASE_COUNTRY: &str = "US";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AddressKind {
    Billing,
    Shipping,
}

impl AddressKind {
    /// The prefix of the form's field ids (`billing` in `billing_postcode`).
    pub fn prefix(self) -> &'static str {
        match self {
            AddressKind::Billing => "billing",
            AddressKind::Shipping => "shipping",
        }
    }

    /// `billing_postcode` for `postcode`.
    pub fn field_id(self, key: &str) -> String {
        format!("{}_{key}", self.prefix())
    }

    /// How the original's checkout messages name a field of this address
    /// ("Billing First name").
    pub(super) fn message_label(self, label: &str) -> String {
        match self {
            AddressKind::Billing => format!("Billing {label}"),
            AddressKind::Shipping => format!("Shipping {label}"),
        }
    }
}

/// One field of the address form for a country.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FieldRule {
    /// `first_name`, `last_name`, `company`, `country`, `address_1`, `address_2`,
    /// `city`, `state`, `postcode`, `phone` or `email`.
    pub key: &'static str,
    pub label: String,
    pub placeholder: Option<String>,
    /// Whether checkout refuses the address without it. Never set on a hidden field.
    pub required: bool,
    /// Whether the form leaves the field out for this country.
    pub hidden: bool,
    /// Fields show in ascending priority.
    pub priority: u32,
    /// Layout classes of the form row (`form-row-first`, `form-row-wide`, …).
    pub class: Vec<String>,
    /// Classes of the label (`screen-reader-text` where the placeholder says it all).
    pub label_class: Vec<String>,
    pub autocomplete: String,
}

/// The fields of a billing or shipping address in a country, in form order.
///
/// The country's settings are laid over the defaults as the original's address script
/// does: a setting the country names wins, and class lists are overlaid item by item.
/// The state field is hidden exactly when the country has no states; whatever the
/// settings say about hiding it, the original's form shows a state list or a free-text
/// box otherwise. With no country, or one the shop does not know, the defaults apply.
///
/// Billing adds `phone` and `email`. Shipping has no email; it has a `phone`, which only
/// the Store API takes, so the form keeps it hidden and optional.
pub fn fields(kind: AddressKind, country: Option<&str>) -> Vec<FieldRule> {
    let data = data();
    let code = country.and_then(|c| CountryCode::parse(c).ok());
    let overrides = code.and_then(|c| data.locale.get(c.as_str()));
    let no_states = code.is_some_and(|c| states(c) == StateList::None);

    let mut rules: Vec<FieldRule> = data
        .default
        .iter()
        .map(|(key, base)| {
            let merged = match overrides.and_then(|o| o.get(key)) {
                Some(over) => overlay(base, over),
                None => base.clone(),
            };
            let hidden = if key == "state" {
                no_states
            } else {
                merged.hidden == Some(true)
            };
            rule(key, merged, hidden)
        })
        .collect();

    let contact = data.billing_fields.iter();
    match kind {
        AddressKind::Billing => {
            rules.extend(contact.map(|(key, base)| rule(key, base.clone(), false)));
        }
        AddressKind::Shipping => {
            let phone = contact.filter(|(key, _)| key == "phone");
            rules.extend(phone.map(|(key, base)| rule(key, base.clone(), true)));
        }
    }

    rules.sort_by_key(|r| r.priority);
    rules
}

fn rule(key: &'static str, raw: RawRule, hidden: bool) -> FieldRule {
    FieldRule {
        key,
        label: raw.label.unwrap_or_default(),
        placeholder: raw.placeholder,
        required: raw.required.unwrap_or(false) && !hidden,
        hidden,
        priority: raw.priority.unwrap_or(0),
        class: raw.class.unwrap_or_default(),
        label_class: raw.label_class.unwrap_or_default(),
        autocomplete: raw.autocomplete.unwrap_or_default(),
    }
}

fn overlay(base: &RawRule, over: &RawRule) -> RawRule {
    RawRule {
        label: over.label.clone().or_else(|| base.label.clone()),
        placeholder: over
            .placeholder
            .clone()
            .or_else(|| base.placeholder.clone()),
        required: over.required.or(base.required),
        hidden: over.hidden.or(base.hidden),
        priority: over.priority.or(base.priority),
        class: overlay_list(&base.class, &over.class),
        label_class: overlay_list(&base.label_class, &over.label_class),
        autocomplete: over
            .autocomplete
            .clone()
            .or_else(|| base.autocomplete.clone()),
    }
}

/// A deep merge of two lists replaces item by item, keeping the base's extra items.
fn overlay_list(base: &Option<Vec<String>>, over: &Option<Vec<String>>) -> Option<Vec<String>> {
    match (base, over) {
        (Some(base), Some(over)) => {
            let mut merged = base.clone();
            for (i, item) in over.iter().enumerate() {
                match merged.get_mut(i) {
                    Some(slot) => *slot = item.clone(),
                    None => merged.push(item.clone()),
                }
            }
            Some(merged)
        }
        (base, None) => base.clone(),
        (None, over) => over.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form(kind: AddressKind, country: Option<&str>) -> Vec<FieldRule> {
        fields(kind, country)
    }

    fn field<'a>(rules: &'a [FieldRule], key: &str) -> &'a FieldRule {
        rules
            .iter()
            .find(|r| r.key == key)
            .unwrap_or_else(|| panic!("no {key}"))
    }

    fn order(rules: &[FieldRule]) -> Vec<&'static str> {
        rules.iter().map(|r| r.key).collect()
    }

    /// (label, required, hidden, priority) of a field.
    fn summary(rules: &[FieldRule], key: &str) -> (String, bool, bool, u32) {
        let f = field(rules, key);
        (f.label.clone(), f.required, f.hidden, f.priority)
    }

    fn s(label: &str, required: bool, hidden: bool, priority: u32) -> (String, bool, bool, u32) {
        (label.to_string(), required, hidden, priority)
    }

    #[test]
    fn the_us_billing_form_matches_the_recorded_page() {
        let us = form(AddressKind::Billing, Some("US"));
        assert_eq!(
            order(&us),
            [
                "first_name",
                "last_name",
                "company",
                "country",
                "address_1",
                "address_2",
                "city",
                "state",
                "postcode",
                "phone",
                "email"
            ]
        );
        assert_eq!(summary(&us, "first_name"), s("First name", true, false, 10));
        assert_eq!(summary(&us, "company"), s("Company name", false, false, 30));
        assert_eq!(
            summary(&us, "country"),
            s("Country / Region", true, false, 40)
        );
        assert_eq!(
            summary(&us, "address_1"),
            s("Street address", true, false, 50)
        );
        assert_eq!(summary(&us, "city"), s("Town / City", true, false, 70));
        assert_eq!(summary(&us, "state"), s("State", true, false, 80));
        assert_eq!(summary(&us, "postcode"), s("ZIP Code", true, false, 90));
        assert_eq!(summary(&us, "phone"), s("Phone", true, false, 100));
        assert_eq!(summary(&us, "email"), s("Email address", true, false, 110));

        let first = field(&us, "first_name");
        assert_eq!(first.class, ["form-row-first"]);
        assert_eq!(first.autocomplete, "given-name");
        let street = field(&us, "address_1");
        assert_eq!(
            street.placeholder.as_deref(),
            Some("House number and street name")
        );
        let flat = field(&us, "address_2");
        assert_eq!(flat.label, "Apartment, suite, unit, etc.");
        assert_eq!(flat.label_class, ["screen-reader-text"]);
        assert_eq!(
            flat.placeholder.as_deref(),
            Some("Apartment, suite, unit, etc. (optional)")
        );
        assert_eq!(field(&us, "email").autocomplete, "email username");
        assert_eq!(field(&us, "phone").autocomplete, "tel");
    }

    #[test]
    fn germany_puts_the_postcode_before_the_city_and_makes_the_state_optional() {
        let de = form(AddressKind::Billing, Some("DE"));
        assert_eq!(
            summary(&de, "postcode"),
            s("Postcode / ZIP", true, false, 65)
        );
        assert_eq!(summary(&de, "city"), s("Town / City", true, false, 70));
        // The settings hide the state, but Germany has a state list, which the
        // original's form shows (optional).
        assert_eq!(summary(&de, "state"), s("State / County", false, false, 80));
        let keys = order(&de);
        let at = |k| keys.iter().position(|x| *x == k).unwrap();
        assert!(at("postcode") < at("city"));
    }

    #[test]
    fn britain_asks_for_an_optional_county_as_free_text() {
        let gb = form(AddressKind::Billing, Some("GB"));
        assert_eq!(summary(&gb, "state"), s("County", false, false, 80));
        assert_eq!(summary(&gb, "postcode"), s("Postcode", true, false, 90));
    }

    #[test]
    fn canada_asks_for_a_province_and_a_postal_code() {
        let ca = form(AddressKind::Shipping, Some("CA"));
        assert_eq!(summary(&ca, "state"), s("Province", true, false, 80));
        assert_eq!(summary(&ca, "postcode"), s("Postal code", true, false, 90));
    }

    #[test]
    fn japan_reorders_the_whole_form() {
        let jp = form(AddressKind::Billing, Some("JP"));
        assert_eq!(
            order(&jp),
            [
                "last_name",
                "first_name",
                "company",
                "country",
                "postcode",
                "state",
                "city",
                "address_1",
                "address_2",
                "phone",
                "email"
            ]
        );
        assert_eq!(summary(&jp, "state"), s("Prefecture", true, false, 66));
        assert_eq!(field(&jp, "last_name").class, ["form-row-first"]);
        assert_eq!(field(&jp, "first_name").class, ["form-row-last"]);
        assert_eq!(
            field(&jp, "postcode").class,
            ["form-row-first", "address-field"]
        );
        assert_eq!(
            field(&jp, "state").class,
            ["form-row-last", "address-field"]
        );
    }

    #[test]
    fn ireland_asks_for_an_optional_eircode_and_a_county() {
        let ie = form(AddressKind::Billing, Some("IE"));
        assert_eq!(summary(&ie, "postcode"), s("Eircode", false, false, 90));
        assert_eq!(summary(&ie, "state"), s("County", true, false, 80));
    }

    #[test]
    fn a_country_without_states_hides_the_state() {
        let fr = form(AddressKind::Billing, Some("FR"));
        assert_eq!(summary(&fr, "state"), s("State / County", false, true, 80));
        assert_eq!(
            summary(&fr, "postcode"),
            s("Postcode / ZIP", true, false, 65)
        );
        // Liechtenstein has no states although its settings do not hide them.
        let li = form(AddressKind::Billing, Some("LI"));
        assert_eq!(summary(&li, "state"), s("Municipality", false, true, 80));
    }

    #[test]
    fn a_country_missing_from_the_state_table_takes_a_free_text_state() {
        // Bosnia's settings hide the canton, but without a list the form shows a box.
        let ba = form(AddressKind::Billing, Some("BA"));
        assert_eq!(summary(&ba, "state"), s("Canton", false, false, 80));
        // Gambia has no settings at all: the defaults.
        let gm = form(AddressKind::Billing, Some("GM"));
        assert_eq!(summary(&gm, "state"), s("State / County", true, false, 80));
        assert_eq!(
            summary(&gm, "postcode"),
            s("Postcode / ZIP", true, false, 90)
        );
    }

    #[test]
    fn a_hidden_postcode_is_not_required() {
        let ae = form(AddressKind::Billing, Some("AE"));
        assert_eq!(
            summary(&ae, "postcode"),
            s("Postcode / ZIP", false, true, 90)
        );
        assert_eq!(summary(&ae, "state"), s("State / County", false, false, 80));
    }

    #[test]
    fn an_unknown_or_missing_country_gets_the_defaults() {
        let defaults = form(AddressKind::Billing, None);
        assert_eq!(form(AddressKind::Billing, Some("XX")), defaults);
        assert_eq!(form(AddressKind::Billing, Some("")), defaults);
        assert_eq!(
            summary(&defaults, "state"),
            s("State / County", true, false, 80)
        );
        assert_eq!(
            summary(&defaults, "postcode"),
            s("Postcode / ZIP", true, false, 90)
        );
        // Codes are read as shoppers type them.
        assert_eq!(
            form(AddressKind::Billing, Some(" us ")),
            form(AddressKind::Billing, Some("US"))
        );
    }

    #[test]
    fn shipping_has_no_email_and_a_hidden_optional_phone() {
        let us = form(AddressKind::Shipping, Some("US"));
        assert!(us.iter().all(|f| f.key != "email"));
        assert_eq!(summary(&us, "phone"), s("Phone", false, true, 100));
        assert_eq!(us.last().map(|f| f.key), Some("phone"));
    }

    #[test]
    fn hungary_and_iran_change_the_order_too() {
        let hu = form(AddressKind::Billing, Some("HU"));
        assert_eq!(
            &order(&hu)[..9],
            [
                "last_name",
                "first_name",
                "company",
                "country",
                "postcode",
                "city",
                "address_1",
                "address_2",
                "state"
            ]
        );
        let ir = form(AddressKind::Billing, Some("IR"));
        assert_eq!(
            &order(&ir)[3..9],
            [
                "country",
                "state",
                "city",
                "address_1",
                "address_2",
                "postcode"
            ]
        );
    }

    #[test]
    fn lists_are_overlaid_item_by_item() {
        let base = Some(vec!["a".to_string(), "b".to_string()]);
        let short = Some(vec!["x".to_string()]);
        let long = Some(vec!["x".to_string(), "y".to_string(), "z".to_string()]);
        assert_eq!(
            overlay_list(&base, &short),
            Some(vec!["x".into(), "b".into()])
        );
        assert_eq!(
            overlay_list(&base, &long),
            Some(vec!["x".into(), "y".into(), "z".into()])
        );
        assert_eq!(overlay_list(&base, &None), base);
        assert_eq!(overlay_list(&None, &short), short);
    }
}
