//! Deserializers for what the provider and its emulator send differently: `null`
//! where a map or list is expected, and an id that may come as an embedded object.

use serde::de::{DeserializeOwned, Error as _};
use serde::{Deserialize, Deserializer};
use serde_json::Value;

/// `null` (or a missing field, with `#[serde(default)]`) reads as the type's default.
pub(crate) fn null_as_default<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Default,
{
    Ok(Option::<T>::deserialize(deserializer)?.unwrap_or_default())
}

/// An id sent either as a string or as the object it names (`{"id": …, …}`), as an
/// expanded field is.
pub(crate) fn id_or_object<'de, D, I>(deserializer: D) -> Result<Option<I>, D::Error>
where
    D: Deserializer<'de>,
    I: DeserializeOwned,
{
    match Value::deserialize(deserializer)? {
        Value::Null => Ok(None),
        id @ Value::String(_) => I::deserialize(id).map(Some).map_err(D::Error::custom),
        Value::Object(mut object) => match object.remove("id") {
            Some(id @ Value::String(_)) => I::deserialize(id).map(Some).map_err(D::Error::custom),
            _ => Err(D::Error::custom("an embedded object without an id")),
        },
        other => Err(D::Error::custom(format!(
            "expected an id or an object, found {other}"
        ))),
    }
}

/// An integer, or the same integer as a string: the emulator stores a field changed
/// by an update as the text it was sent (`"amount": "450"`); the provider always
/// sends numbers.
pub(crate) fn integer<'de, D: Deserializer<'de>>(deserializer: D) -> Result<i64, D::Error> {
    match Value::deserialize(deserializer)? {
        Value::Number(number) => number
            .as_i64()
            .ok_or_else(|| D::Error::custom(format!("{number} is not a whole number"))),
        Value::String(text) => text
            .parse()
            .map_err(|_| D::Error::custom(format!("{text:?} is not a whole number"))),
        other => Err(D::Error::custom(format!(
            "expected a whole number, found {other}"
        ))),
    }
}
