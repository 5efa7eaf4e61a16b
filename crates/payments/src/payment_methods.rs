//! PaymentMethods: a shopper's saved card (or other means of payment), attached to
//! their customer so they can pay again without typing it. The shop never sees card
//! numbers: methods are created in the browser, and read, attached and detached here.

use serde::Deserialize;

use crate::client::{segment, Client};
use crate::error::Error;
use crate::expandable::Object;
use crate::form::Form;
use crate::idempotency::IdempotencyKey;
use crate::ids::{CustomerId, PaymentMethodId};
use crate::lenient::{id_or_object, null_as_default};
use crate::{List, Metadata};

#[derive(Debug, Clone, Deserialize)]
pub struct PaymentMethod {
    pub id: PaymentMethodId,
    /// `card`, `sepa_debit`, `ideal`, …
    #[serde(rename = "type", default)]
    pub method_type: String,
    #[serde(default, deserialize_with = "id_or_object")]
    pub customer: Option<CustomerId>,
    #[serde(default)]
    pub card: Option<CardDetails>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub billing_details: BillingDetails,
    #[serde(default, deserialize_with = "null_as_default")]
    pub metadata: Metadata,
    #[serde(default)]
    pub created: Option<i64>,
}

impl Object for PaymentMethod {
    type Id = PaymentMethodId;
    fn id(&self) -> &PaymentMethodId {
        &self.id
    }
}

/// What may be shown of a card: never its number.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
pub struct CardDetails {
    /// `visa`, `mastercard`, `amex`, …
    #[serde(default)]
    pub brand: Option<String>,
    #[serde(default)]
    pub last4: Option<String>,
    #[serde(default)]
    pub exp_month: Option<u32>,
    #[serde(default)]
    pub exp_year: Option<u32>,
    /// The issuing country, two letters.
    #[serde(default)]
    pub country: Option<String>,
    /// `credit`, `debit`, `prepaid` or `unknown`.
    #[serde(default)]
    pub funding: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
pub struct BillingDetails {
    #[serde(default)]
    pub address: Option<Address>,
    #[serde(default)]
    pub email: Option<String>,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub phone: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
pub struct Address {
    #[serde(default)]
    pub city: Option<String>,
    #[serde(default)]
    pub country: Option<String>,
    #[serde(default)]
    pub line1: Option<String>,
    #[serde(default)]
    pub line2: Option<String>,
    #[serde(default)]
    pub postal_code: Option<String>,
    #[serde(default)]
    pub state: Option<String>,
}

/// `GET /v1/payment_methods?customer=…&type=…`.
#[derive(Debug, Clone)]
pub struct ListPaymentMethods {
    pub customer: CustomerId,
    /// `card` (the only type the emulator lists).
    pub method_type: String,
    pub limit: Option<u32>,
}

impl ListPaymentMethods {
    /// The customer's saved cards.
    pub fn cards_of(customer: CustomerId) -> ListPaymentMethods {
        ListPaymentMethods {
            customer,
            method_type: "card".to_owned(),
            limit: None,
        }
    }
}

impl Client {
    pub async fn retrieve_payment_method(
        &self,
        id: &PaymentMethodId,
    ) -> Result<PaymentMethod, Error> {
        let path = format!("/v1/payment_methods/{}", segment(id.as_str()));
        self.get(&path, &Form::new()).await
    }

    /// Saves the method for the customer. A card the issuer refuses to save comes
    /// back as `Error::Provider` (HTTP 402, `card_declined`).
    pub async fn attach_payment_method(
        &self,
        id: &PaymentMethodId,
        customer: &CustomerId,
        idempotency_key: &IdempotencyKey,
    ) -> Result<PaymentMethod, Error> {
        let path = format!("/v1/payment_methods/{}/attach", segment(id.as_str()));
        let mut form = Form::new();
        form.push(&["customer"], customer);
        self.post(&path, &form, idempotency_key).await
    }

    pub async fn detach_payment_method(
        &self,
        id: &PaymentMethodId,
        idempotency_key: &IdempotencyKey,
    ) -> Result<PaymentMethod, Error> {
        let path = format!("/v1/payment_methods/{}/detach", segment(id.as_str()));
        self.post(&path, &Form::new(), idempotency_key).await
    }

    pub async fn list_payment_methods(
        &self,
        params: &ListPaymentMethods,
    ) -> Result<List<PaymentMethod>, Error> {
        let mut query = Form::new();
        query
            .push(&["customer"], &params.customer)
            .push(&["type"], &params.method_type)
            .push_opt(&["limit"], params.limit);
        self.get("/v1/payment_methods", &query).await
    }
}
