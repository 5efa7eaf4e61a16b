//! A field the provider sends as an id, or as the whole object when the request asked
//! to expand it (and the emulator always embeds some, such as an intent's
//! `latest_charge`).

use serde::de::{DeserializeOwned, Error as _};
use serde::{Deserialize, Deserializer};
use serde_json::Value;

/// A provider object that has an id of its own type.
pub trait Object: DeserializeOwned {
    type Id: DeserializeOwned;
    fn id(&self) -> &Self::Id;
}

/// An id, or the object it names.
#[derive(Debug, Clone)]
pub enum Expandable<T: Object> {
    Id(T::Id),
    Object(Box<T>),
}

impl<T: Object> Expandable<T> {
    /// The id, whichever way it was sent.
    pub fn id(&self) -> &T::Id {
        match self {
            Expandable::Id(id) => id,
            Expandable::Object(object) => object.id(),
        }
    }

    /// The embedded object, when the provider sent one.
    pub fn as_object(&self) -> Option<&T> {
        match self {
            Expandable::Id(_) => None,
            Expandable::Object(object) => Some(object),
        }
    }
}

impl<'de, T: Object> Deserialize<'de> for Expandable<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match Value::deserialize(deserializer)? {
            id @ Value::String(_) => T::Id::deserialize(id)
                .map(Expandable::Id)
                .map_err(D::Error::custom),
            object @ Value::Object(_) => T::deserialize(object)
                .map(|object| Expandable::Object(Box::new(object)))
                .map_err(D::Error::custom),
            other => Err(D::Error::custom(format!(
                "expected an id or an object, found {other}"
            ))),
        }
    }
}
