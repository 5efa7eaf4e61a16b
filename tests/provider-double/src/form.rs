//! The provider's request encoding read into JSON: `application/x-www-form-urlencoded`
//! (and query strings) with bracketed keys for nested fields.
//!
//! - `metadata[order_id]=12` → `{"metadata": {"order_id": "12"}}`
//! - `mandate_data[customer_acceptance][online][ip_address]=…` → nested hashes
//! - `payment_method_types[]=ideal` and `payment_method_types[0]=ideal` → lists
//!
//! Every value stays a string, as sent. Brackets may come as they are (the shop's
//! client sends them so, with each key segment percent-encoded) or percent-encoded
//! themselves (as browsers' form encoders send them).

use percent_encoding::percent_decode_str;
use serde_json::{Map, Value};

use crate::error::ApiError;

/// Parameters of one call: the query string's, then the body's on top.
#[derive(Debug, Clone, Default)]
pub(crate) struct Params(Map<String, Value>);

impl Params {
    pub(crate) fn read(query: Option<&str>, body: &[u8]) -> Result<Params, ApiError> {
        let mut fields = parse(query.unwrap_or(""))?;
        let body = std::str::from_utf8(body)
            .map_err(|_| ApiError::invalid("The request body is not UTF-8 text."))?;
        fields.extend(parse(body)?);
        Ok(Params(fields))
    }

    /// A nested hash as parameters of its own (`payment_method_data`).
    pub(crate) fn nested(&self, name: &str) -> Option<Params> {
        self.object(name).map(|fields| Params(fields.clone()))
    }

    /// The value at a path of keys.
    pub(crate) fn value(&self, path: &[&str]) -> Option<&Value> {
        let (first, rest) = path.split_first()?;
        rest.iter()
            .try_fold(self.0.get(*first)?, |value, key| value.get(*key))
    }

    /// A string that is not empty (an empty value reads as not sent).
    pub(crate) fn str(&self, path: &[&str]) -> Option<&str> {
        self.value(path)
            .and_then(Value::as_str)
            .filter(|text| !text.is_empty())
    }

    pub(crate) fn string(&self, path: &[&str]) -> Option<String> {
        self.str(path).map(str::to_owned)
    }

    pub(crate) fn object(&self, name: &str) -> Option<&Map<String, Value>> {
        self.0.get(name).and_then(Value::as_object)
    }

    /// A list of strings (a single value counts as a list of one).
    pub(crate) fn list(&self, name: &str) -> Vec<String> {
        match self.0.get(name) {
            Some(Value::Array(items)) => items
                .iter()
                .filter_map(Value::as_str)
                .filter(|item| !item.is_empty())
                .map(str::to_owned)
                .collect(),
            Some(Value::String(item)) if !item.is_empty() => vec![item.clone()],
            _ => Vec::new(),
        }
    }

    pub(crate) fn bool(&self, name: &str) -> Result<Option<bool>, ApiError> {
        match self.str(&[name]) {
            None => Ok(None),
            Some("true") => Ok(Some(true)),
            Some("false") => Ok(Some(false)),
            Some(other) => Err(ApiError::invalid_param(
                name,
                format!("Invalid boolean: {other}"),
            )),
        }
    }

    pub(crate) fn int(&self, name: &str) -> Result<Option<i64>, ApiError> {
        match self.str(&[name]) {
            None => Ok(None),
            Some(text) => text.parse().map(Some).map_err(|_| {
                ApiError::invalid_param(name, format!("Invalid integer: {text}"))
                    .code("parameter_invalid_integer")
            }),
        }
    }

    /// `expand[]=latest_charge`.
    pub(crate) fn expand(&self) -> Vec<String> {
        self.list("expand")
    }
}

/// `key=value&…` into nested JSON objects.
pub(crate) fn parse(input: &str) -> Result<Map<String, Value>, ApiError> {
    let mut fields = Map::new();
    for pair in input.split('&').filter(|pair| !pair.is_empty()) {
        let (raw_key, raw_value) = pair.split_once('=').unwrap_or((pair, ""));
        let segments = key_segments(raw_key);
        if segments.first().is_none_or(String::is_empty) {
            return Err(ApiError::invalid(format!(
                "Invalid parameter name: {}",
                decode(raw_key)
            )));
        }
        insert(&mut fields, &segments, decode(raw_value)).map_err(|()| {
            ApiError::invalid_param(
                &decode(raw_key),
                format!(
                    "Invalid parameter: {} is sent both as a value and as a hash or list.",
                    decode(raw_key)
                ),
            )
        })?;
    }
    Ok(lists_from_indices(fields))
}

/// Percent-decoding, `+` as a space.
fn decode(text: &str) -> String {
    percent_decode_str(&text.replace('+', " "))
        .decode_utf8_lossy()
        .into_owned()
}

/// `a[b][c]` → `["a", "b", "c"]`; `a[]` → `["a", ""]`.
fn key_segments(raw: &str) -> Vec<String> {
    if raw.contains('[') {
        split_brackets(raw).into_iter().map(decode).collect()
    } else {
        let decoded = decode(raw);
        split_brackets(&decoded)
            .into_iter()
            .map(str::to_owned)
            .collect()
    }
}

/// A key whose brackets do not pair up is one name.
fn split_brackets(key: &str) -> Vec<&str> {
    let Some(open) = key.find('[') else {
        return vec![key];
    };
    let mut segments = vec![&key[..open]];
    let mut rest = &key[open..];
    while !rest.is_empty() {
        let Some((inner, after)) = rest
            .strip_prefix('[')
            .and_then(|inner| inner.split_once(']'))
        else {
            return vec![key];
        };
        segments.push(inner);
        rest = after;
    }
    segments
}

fn insert(fields: &mut Map<String, Value>, segments: &[String], value: String) -> Result<(), ()> {
    let Some((first, rest)) = segments.split_first() else {
        return Err(());
    };
    match rest {
        [] => {
            if matches!(fields.get(first), Some(Value::Object(_) | Value::Array(_))) {
                return Err(());
            }
            fields.insert(first.clone(), Value::String(value));
            Ok(())
        }
        [last] if last.is_empty() => {
            match fields
                .entry(first.clone())
                .or_insert_with(|| Value::Array(Vec::new()))
            {
                Value::Array(items) => {
                    items.push(Value::String(value));
                    Ok(())
                }
                _ => Err(()),
            }
        }
        [next, ..] if next.is_empty() => Err(()),
        _ => match fields
            .entry(first.clone())
            .or_insert_with(|| Value::Object(Map::new()))
        {
            Value::Object(inner) => insert(inner, rest, value),
            _ => Err(()),
        },
    }
}

/// Hashes keyed `0`, `1`, … become lists in that order; metadata keys stay keys.
fn lists_from_indices(fields: Map<String, Value>) -> Map<String, Value> {
    fields
        .into_iter()
        .map(|(key, value)| {
            let value = if key == "metadata" {
                value
            } else {
                indexed(value)
            };
            (key, value)
        })
        .collect()
}

fn indexed(value: Value) -> Value {
    let Value::Object(fields) = value else {
        return value;
    };
    let fields = lists_from_indices(fields);
    let all_indices = !fields.is_empty()
        && fields
            .keys()
            .all(|key| !key.is_empty() && key.bytes().all(|b| b.is_ascii_digit()));
    if !all_indices {
        return Value::Object(fields);
    }
    let mut items: Vec<(u64, Value)> = fields
        .into_iter()
        .map(|(key, value)| (key.parse().unwrap_or(u64::MAX), value))
        .collect();
    items.sort_by_key(|(index, _)| *index);
    Value::Array(items.into_iter().map(|(_, value)| value).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parsed(input: &str) -> Value {
        Value::Object(parse(input).unwrap())
    }

    #[test]
    fn bracketed_keys_nest() {
        assert_eq!(
            parsed(
                "amount=1200&metadata[order_id]=12&payment_method_options[blik][code]=123456\
                 &mandate_data[customer_acceptance][online][ip_address]=127.0.0.1"
            ),
            json!({
                "amount": "1200",
                "metadata": {"order_id": "12"},
                "payment_method_options": {"blik": {"code": "123456"}},
                "mandate_data": {"customer_acceptance": {"online": {"ip_address": "127.0.0.1"}}},
            })
        );
    }

    #[test]
    fn both_list_forms_are_lists() {
        assert_eq!(
            parsed("payment_method_types[]=ideal&payment_method_types[]=card"),
            json!({"payment_method_types": ["ideal", "card"]})
        );
        assert_eq!(
            parsed("payment_method_types[1]=card&payment_method_types[0]=ideal&expand[0]=latest_charge"),
            json!({"payment_method_types": ["ideal", "card"], "expand": ["latest_charge"]})
        );
    }

    #[test]
    fn encoded_brackets_and_values_are_read() {
        assert_eq!(
            parsed("metadata%5Bnote%5D=two+words%21&billing_details%5Baddress%5D%5Bcity%5D=Saint-%C3%89tienne"),
            json!({"metadata": {"note": "two words!"}, "billing_details": {"address": {"city": "Saint-Étienne"}}})
        );
    }

    #[test]
    fn an_encoded_bracket_inside_a_literal_key_segment_stays_in_the_key() {
        assert_eq!(
            parsed("metadata[x%5D%5Bamount]=1&metadata[0]=zero"),
            json!({"metadata": {"x][amount": "1", "0": "zero"}})
        );
    }

    #[test]
    fn a_value_and_a_hash_under_one_key_are_refused() {
        assert!(parse("metadata=x&metadata[a]=1").is_err());
        assert!(parse("=1").is_err());
    }
}
