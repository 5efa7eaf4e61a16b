//! Events: what happened on the account, as webhooks deliver them (see `webhook`) and
//! as they can be read back, for example to check that a delivered event is real or
//! that the webhook endpoint is set up.

use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::Value;

use crate::charges::Charge;
use crate::client::{segment, Client};
use crate::error::Error;
use crate::form::Form;
use crate::ids::EventId;
use crate::payment_intents::PaymentIntent;
use crate::setup_intents::SetupIntent;
use crate::List;

#[derive(Debug, Clone, Deserialize)]
pub struct Event {
    pub id: EventId,
    /// `payment_intent.succeeded`, `payment_intent.payment_failed`, …
    #[serde(rename = "type")]
    pub event_type: String,
    pub created: i64,
    /// The API version the object in `data` is shaped by (the emulator sends
    /// `2017-08-15`).
    #[serde(default)]
    pub api_version: Option<String>,
    #[serde(default)]
    pub livemode: bool,
    pub data: EventData,
}

#[derive(Debug, Clone, Deserialize)]
pub struct EventData {
    /// The object as it was when the event happened, kept whole; read it with
    /// `Event::payment_intent` and its siblings.
    pub object: Value,
    /// For `*.updated` events: the fields that changed, with their former values.
    #[serde(default)]
    pub previous_attributes: Option<Value>,
}

/// An object an event can carry, named by its `object` field.
pub trait EventObject: DeserializeOwned {
    const OBJECT: &'static str;
}

impl EventObject for PaymentIntent {
    const OBJECT: &'static str = "payment_intent";
}

impl EventObject for SetupIntent {
    const OBJECT: &'static str = "setup_intent";
}

impl EventObject for Charge {
    const OBJECT: &'static str = "charge";
}

#[derive(Debug, thiserror::Error)]
pub enum EventObjectError {
    #[error("the event carries a {found}, not a {expected}")]
    WrongObject {
        expected: &'static str,
        found: String,
    },
    #[error("the event's object could not be read: {0}")]
    Unreadable(#[from] serde_json::Error),
}

impl Event {
    /// The `object` field of `data.object` (`payment_intent`, `charge`, …).
    pub fn object_type(&self) -> Option<&str> {
        self.data.object.get("object")?.as_str()
    }

    /// `data.object` read as `T`; refused when it names another kind of object.
    pub fn object<T: EventObject>(&self) -> Result<T, EventObjectError> {
        match self.object_type() {
            Some(found) if found != T::OBJECT => Err(EventObjectError::WrongObject {
                expected: T::OBJECT,
                found: found.to_owned(),
            }),
            _ => Ok(T::deserialize(&self.data.object)?),
        }
    }

    pub fn payment_intent(&self) -> Result<PaymentIntent, EventObjectError> {
        self.object()
    }

    pub fn setup_intent(&self) -> Result<SetupIntent, EventObjectError> {
        self.object()
    }

    pub fn charge(&self) -> Result<Charge, EventObjectError> {
        self.object()
    }
}

/// `GET /v1/events`, newest first.
#[derive(Debug, Clone, Default)]
pub struct ListEvents {
    /// 1 to 100; the provider's default is 10.
    pub limit: Option<u32>,
    /// Only events of this type.
    pub event_type: Option<String>,
    pub starting_after: Option<EventId>,
}

impl Client {
    pub async fn retrieve_event(&self, id: &EventId) -> Result<Event, Error> {
        let path = format!("/v1/events/{}", segment(id.as_str()));
        self.get(&path, &Form::new()).await
    }

    pub async fn list_events(&self, params: &ListEvents) -> Result<List<Event>, Error> {
        let mut query = Form::new();
        query
            .push_opt(&["limit"], params.limit)
            .push_opt(&["type"], params.event_type.as_ref())
            .push_opt(&["starting_after"], params.starting_after.as_ref());
        self.get("/v1/events", &query).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::payment_intents::PaymentIntentStatus;

    fn event(object: Value) -> Event {
        serde_json::from_value(serde_json::json!({
            "id": "evt_1", "object": "event", "type": "payment_intent.succeeded",
            "created": 1700000000, "api_version": "2017-08-15", "livemode": false,
            "data": {"object": object}
        }))
        .unwrap()
    }

    #[test]
    fn an_events_intent_is_read() {
        let event = event(serde_json::json!({
            "id": "pi_1", "object": "payment_intent", "amount": 100, "currency": "eur", "status": "succeeded"
        }));
        assert_eq!(event.object_type(), Some("payment_intent"));
        assert_eq!(
            event.payment_intent().unwrap().status,
            PaymentIntentStatus::Succeeded
        );
    }

    #[test]
    fn an_event_about_another_object_is_not_read_as_an_intent() {
        let event = event(serde_json::json!({"id": "cus_1", "object": "customer"}));
        match event.payment_intent() {
            Err(EventObjectError::WrongObject { expected, found }) => {
                assert_eq!((expected, found.as_str()), ("payment_intent", "customer"));
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            event.charge(),
            Err(EventObjectError::WrongObject { .. })
        ));
    }

    #[test]
    fn an_unreadable_object_is_an_error() {
        let event = event(serde_json::json!({"object": "payment_intent", "amount": "lots"}));
        assert!(matches!(
            event.payment_intent(),
            Err(EventObjectError::Unreadable(_))
        ));
    }
}
