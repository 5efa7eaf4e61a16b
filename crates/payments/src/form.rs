//! Request bodies and query strings in the provider's form encoding
//! (`application/x-www-form-urlencoded` with bracketed keys for nested fields:
//! `metadata[order_id]=12`, `billing_details[address][city]=Paris`,
//! `expand[0]=latest_charge`). Every key segment and value is percent-encoded, so a
//! metadata key or a value can never open a bracket or a field of its own.

use std::collections::BTreeMap;
use std::fmt::Display;

use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};

/// Everything but the unreserved characters of RFC 3986 is percent-encoded.
pub(crate) const ENCODED: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// Fields in the order they were pushed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Form {
    fields: Vec<(String, String)>,
}

impl Form {
    pub fn new() -> Form {
        Form::default()
    }

    /// One field; `path` is the key and its nesting:
    /// `&["billing_details", "address", "city"]` is `billing_details[address][city]`.
    pub fn push(&mut self, path: &[&str], value: impl Display) -> &mut Form {
        self.fields.push((key(path, None), value.to_string()));
        self
    }

    /// The field when there is a value, nothing otherwise: optional parameters are
    /// only sent when set.
    pub fn push_opt(&mut self, path: &[&str], value: Option<impl Display>) -> &mut Form {
        if let Some(value) = value {
            self.push(path, value);
        }
        self
    }

    /// A list, each value under its index: `expand[0]=latest_charge&expand[1]=customer`
    /// (the indexed form the provider's own libraries send).
    pub fn push_list<V: Display>(
        &mut self,
        path: &[&str],
        values: impl IntoIterator<Item = V>,
    ) -> &mut Form {
        for (index, value) in values.into_iter().enumerate() {
            self.fields
                .push((key(path, Some(&index.to_string())), value.to_string()));
        }
        self
    }

    /// A map of strings, each under its own key: `metadata[order_id]=12`.
    pub fn push_map(&mut self, path: &[&str], map: &BTreeMap<String, String>) -> &mut Form {
        for (name, value) in map {
            self.fields.push((key(path, Some(name)), value.clone()));
        }
        self
    }

    pub fn is_empty(&self) -> bool {
        self.fields.is_empty()
    }

    /// `key=value&key=value`, percent-encoded.
    pub fn encode(&self) -> String {
        let mut encoded = String::new();
        for (key, value) in &self.fields {
            if !encoded.is_empty() {
                encoded.push('&');
            }
            encoded.push_str(key);
            encoded.push('=');
            encoded.extend(utf8_percent_encode(value, ENCODED));
        }
        encoded
    }
}

/// `first[second][third]`, each segment percent-encoded, brackets left as they are.
fn key(path: &[&str], last: Option<&str>) -> String {
    let mut segments = path.iter().copied().chain(last);
    let mut key: String = segments
        .next()
        .map(|first| utf8_percent_encode(first, ENCODED).collect())
        .unwrap_or_default();
    for segment in segments {
        key.push('[');
        key.extend(utf8_percent_encode(segment, ENCODED));
        key.push(']');
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_encoded_in_order_with_bracketed_keys() {
        let mut metadata = BTreeMap::new();
        metadata.insert("order_id".to_owned(), "12".to_owned());
        metadata.insert("cart".to_owned(), "a&b=c".to_owned());
        let mut form = Form::new();
        form.push(&["amount"], 1200)
            .push(&["currency"], "eur")
            .push_list(&["payment_method_types"], ["card", "sepa_debit"])
            .push_map(&["metadata"], &metadata)
            .push(&["billing_details", "address", "city"], "Saint-Étienne")
            .push_list(&["expand"], ["latest_charge"])
            .push_opt(&["description"], None::<&str>)
            .push_opt(&["confirm"], Some(true));
        assert_eq!(
            form.encode(),
            "amount=1200&currency=eur\
             &payment_method_types[0]=card&payment_method_types[1]=sepa_debit\
             &metadata[cart]=a%26b%3Dc&metadata[order_id]=12\
             &billing_details[address][city]=Saint-%C3%89tienne\
             &expand[0]=latest_charge&confirm=true"
        );
    }

    #[test]
    fn key_segments_cannot_open_fields_of_their_own() {
        let mut metadata = BTreeMap::new();
        metadata.insert("x][amount".to_owned(), "1".to_owned());
        metadata.insert("note".to_owned(), "two words\n+ more".to_owned());
        let mut form = Form::new();
        form.push_map(&["metadata"], &metadata);
        assert_eq!(
            form.encode(),
            "metadata[note]=two%20words%0A%2B%20more&metadata[x%5D%5Bamount]=1"
        );
    }

    #[test]
    fn an_empty_form_encodes_to_nothing() {
        let form = Form::new();
        assert!(form.is_empty());
        assert_eq!(form.encode(), "");
    }
}
